"""Pizza Theory's page 1: one plain-language verdict per question, each computed from the
numbers it states, with its interval, its n and its unit, how robust it is across the
fields the study plays, and a recommendation that follows from the numbers (or none).

Each ``*_verdict`` function reads the tables the report's sections computed
(:class:`analysis.sections.Results`) and returns a :class:`~analysis.sections.Verdict`, or
``None`` when the study lacks what it needs. The estimate comes from the main field
(:data:`~analysis.pizzatheory.common.MAIN_FIELD`, the mixed player) and robustness is
judged across the fields with chance at the count
(:func:`~analysis.pizzatheory.common.chance_fields`: the mixed and random fields at 3
players, every field at 2). A field that is deterministic at a count (one game replayed)
is named as one game, never counted as evidence for or against an interval; where the main
field itself is deterministic, the estimate comes from the first field with chance and the
verdict says so.
"""

from __future__ import annotations

import math
from dataclasses import replace

import polars as pl

from analysis import verdicts as shared
from analysis.blocks import block_specs
from analysis.estimates import Estimate, clear_size
from analysis.formats import ci
from analysis.pizzatheory.common import (
    BOARD_FIELDS,
    FIELD_SPECS,
    FIELDS,
    MAIN,
    MAIN_FIELD,
    OPENING_FIELDS,
    PLAYERS,
    chance_fields,
    field_player,
    short,
    the_field,
)
from analysis.pizzatheory.prose import (
    board_sentence,
    field_signs,
    judged,
    pct,
    winners_text,
)
from analysis.pizzatheory.seats import edges
from analysis.prose import listing, side
from analysis.robust import Condition, Robustness, judge, sign
from analysis.seat_question import EDGE_COLUMNS, SeatQuestion, seat_verdict
from analysis.sections import Results, Verdict
from analysis.variant import data_label
from analysis.verdicts import Questions

BIG_EDGE = 2.0
"""A starting position's edge (pp) a designer should act on when it is robust."""
BIG_VALUE = 1.0
"""A first placement's value (pp) worth teaching when it is robust."""
RARE = 0.05
"""A share of games below which the safety rule 'rarely' matters."""
NEUTRAL_BIG = 0.05
"""A share of 2-player games the neutral colour wins above which it is worth a note."""


def _who(r: Results, field: str = MAIN_FIELD) -> str:
    """Who plays a field's block, from the manifest (from the field's name when the
    manifest does not say): ``the mixed player``."""
    block = FIELDS.get(field)
    specs = block_specs(r.manifest, block) if block and r.manifest.get("study") else []
    return listing(PLAYERS.get(s, f"'{s}'") for s in specs) or field_player(field)


def _board(r: Results) -> str:
    """The board the study's blocks play, as the verdicts name it (``hex-37``, or a
    variant's file): the ``data`` of every estimate."""
    return data_label(r.manifest, "hex-37")


def base_board(r: Results) -> str:
    """The study's own board as a sentence names it: ``the default board``, or a
    designer's variant's file."""
    board = _board(r)
    return "the default board" if board == "hex-37" else board


def _fields_of(names) -> str:
    """``the mixed and random fields``."""
    names = [short(n) for n in names]
    return f"the {listing(names)} field{'s' if len(names) > 1 else ''}"


def sampled_field(tables: dict[str, pl.DataFrame], players: int) -> str | None:
    """The first field (in :data:`FIELDS` order: the main one first) with games at
    ``players`` that is not deterministic there; None when every one is."""
    for name in [*FIELDS, *tables]:
        t = tables.get(name)
        if t is None:
            continue
        sub = t.filter(pl.col("players") == players)
        if sub.height and not bool(sub["deterministic"][0]):
            return name
    return None


def _edge_row(tables: dict[str, pl.DataFrame], field: str, players: int) -> dict:
    return edges(tables[field]).filter(pl.col("players") == players).row(0, named=True)


def _det_fields(tables: dict[str, pl.DataFrame], players: int) -> list[str]:
    """The fields deterministic at ``players`` (one game replayed), in table order."""
    return [f for f in tables if _deterministic(tables, f, players)]


def _one_game_text(tables: dict[str, pl.DataFrame], fields: list[str], players: int) -> str:
    """`` The heuristic field at 3 players is one game (position 2 wins it) ...``: the
    deterministic fields named, with their one game's outcome, as no evidence."""
    if not fields:
        return ""
    each = "; ".join(f"{short(f)}: {winners_text(tables[f], players)}" for f in fields)
    many = len(fields) > 1
    return (
        f" At {players} players {_fields_of(fields)} {'are' if many else 'is'} one game "
        f"{'each ' if many else ''}(deterministic: {each}), counted neither for nor against."
    )


def position_conditions(r: Results, players: int, position: int) -> list[Condition]:
    """One position's edge at ``players`` in every field with chance there (a
    deterministic field is one game, no evidence), the main field first."""
    tables = r.tables.get("positions") or {}
    det = _det_fields(tables, players)
    conds = []
    for name, t in tables.items():
        row = t.filter((pl.col("players") == players) & (pl.col("position") == position))
        if name in det or row.is_empty():
            continue
        x = row.row(0, named=True)
        conds.append(Condition("field", name, x["edge_pp"], x["edge_low"], x["edge_high"],
                               int(x["games"]), "games",
                               spec=FIELD_SPECS.get(name, "")))  # fmt: skip
    return conds


def edge_robustness(r: Results, players: int, position: int) -> Robustness | None:
    """One position's edge at ``players`` judged across the fields with chance there (the
    claim :func:`count_verdict` picks); None without position tables."""
    tables = r.tables.get("positions")
    if not tables:
        return None
    return judge(position_conditions(r, players, position),
                 chance_fields(players, _det_fields(tables, players)))  # fmt: skip


SEATS = SeatQuestion(
    question="Does the starting position decide who wins?",
    first="the first starter",
    who="the mixed player",
    field=short(MAIN_FIELD),
    checked="field with chance",
    method="Wilson interval over games",
    claim="any",
    big_edge=BIG_EDGE,
    remedy="the starting order is worth a compensation rule, in favour of {favoured}",
)
"""Pizza Theory's seat question (:mod:`analysis.seat_question`): any starting position's
edge, since the last starter's can be the largest."""


def _sampled_edges(tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """The main field's position rows at every count where it has chance; at a count
    where it is one game, the rows of the first field with chance there (``field``)."""
    main = tables[MAIN_FIELD]
    parts = []
    for n in sorted(main["players"].unique()):
        field = sampled_field(tables, n)
        if field is not None:
            sub = tables[field].filter(pl.col("players") == n)
            parts.append(sub.select(*EDGE_COLUMNS, pl.lit(short(field)).alias("field")))
    return pl.concat(parts) if parts else main.head(0).select(EDGE_COLUMNS)


def seats_verdict(r: Results) -> Verdict | None:
    """Does the starting position decide who wins? (the main field, or the first field with
    chance where it is one game; the largest edge of any position at any count, corrected
    for picking it, judged across the fields with chance at its count)."""
    tables = r.tables.get("positions")
    if not tables or MAIN_FIELD not in tables:
        return None

    def conds(n: int, p: int) -> list[Condition]:
        return [c for c in position_conditions(r, n, p) if not _is_exact(c)]

    def addendum(n: int, p: int) -> str:
        main = tables[MAIN_FIELD]
        text = ""
        if conds(n, p):
            text += (f" Across the fields with chance at {n} players position {p}'s edge is "
                     f"{field_signs(conds(n, p))}.")  # fmt: skip
        for m in sorted(main["players"].unique()):  # one-game fields at every count
            text += _one_game_text(tables, _det_fields(tables, m), m)
        shared = [f"{100 * _edge_row(tables, MAIN_FIELD, m)['shared']:.1f}% of the games at "
                  f"{m} players" for m in sorted(main["players"].unique())]  # fmt: skip
        text += (" A draw or a neutral win gives every seat 1/n of the win (the fair share); "
                 f"in {the_field()} they were {listing(shared)}.")  # fmt: skip
        if sampled_field(tables, n) != MAIN_FIELD:
            text += (f" The estimate below is {the_field(sampled_field(tables, n))}'s, the "
                     f"first with chance at {n} players.")  # fmt: skip
        return text

    edges = _sampled_edges(tables)
    others = [f for f in FIELDS if short(f) in set(edges["field"]) and f != MAIN_FIELD]
    q = SEATS
    if others:  # where the main field is one game, the edges are another field's
        q = replace(SEATS, who=f"{_who(r)} (where it is one game, "
                    f"{listing(_who(r, f) for f in others)})")  # fmt: skip
    return seat_verdict(
        q, edges, conds,
        lambda n, _: chance_fields(n, _det_fields(tables, n)), data=_board(r),
        addendum=addendum,
    )  # fmt: skip


def _is_exact(c: Condition) -> bool:
    return math.isfinite(c.low) and c.low == c.high


def _deterministic(tables: dict[str, pl.DataFrame], field: str, players: int) -> bool:
    t = tables.get(field)
    if t is None:
        return False
    sub = t.filter(pl.col("players") == players)
    return bool(sub.height and sub["deterministic"][0])


def length_verdict(r: Results) -> Verdict | None:
    """How long are games, and do they end in a draw?"""
    lengths, endings = r.tables.get("lengths"), r.tables.get("endings")
    if lengths is None or lengths.is_empty():
        return None
    total = int(lengths["games"].sum())
    draws = int(endings.filter(pl.col("ending") == 2)["count"].sum())
    bound = listing(f"{b:,}" for b in sorted(set(lengths["max_rounds"].to_list())))
    counts = sorted(lengths["players"].unique())
    top = MAIN if MAIN in counts else counts[-1]
    at = lengths.filter(pl.col("players") == top)
    pick = at.filter(~pl.col("deterministic")).sort(pl.col("field") != MAIN_FIELD)
    x = (pick if pick.height else at).row(0, named=True)
    longest = lengths.sort("max").row(-1, named=True)
    main = lengths.filter(pl.col("field") == MAIN_FIELD).sort("players")
    listed = listing(
        (f"{y['max']} rounds at {y['players']} players (every game: one game)"
         if y["deterministic"] else
         f"{ci(y['rounds'], y['rounds_low'], y['rounds_high'], 'rounds', '.1f')} at "
         f"{y['players']} players")
        for y in main.iter_rows(named=True)
    )  # fmt: skip
    answer = (
        f"With {_who(r)} in every seat a game lasts {listed}; the "
        f"longest game of any field lasted {longest['max']} rounds ({the_field(longest['field'])}, "
        f"{longest['players']} players). "
        + (
            f"The round bound ({bound} rounds, a draw) never fired: 0 of {total:,} games."
            if draws == 0
            else f"{draws:,} of {total:,} games reached the round bound ({bound} rounds) and were "
            "drawn."
        )
    )
    rec = ""
    nt = endings.filter((pl.col("ending") == 3) & (pl.col("field") == MAIN_FIELD))
    if nt.height:
        y = nt.row(0, named=True)
        answer += (
            f" At 2 players the neutral colour fills the board first in "
            f"{pct(y['share'], y['share_low'], y['share_high'])} of {the_field()}'s "
            f"games ({y['count']:,} of {y['games']:,}; both players lose)."
        )
        if y["share_low"] > NEUTRAL_BIG:
            rec = (
                f"At 2 players both players lose to the neutral colour in more than "
                f"{100 * NEUTRAL_BIG:g}% of games: the variant's neutral supply or die rule "
                "is worth revisiting."
            )
    if draws > 0:
        rec = (
            f"Games reach the {bound}-round bound ({draws:,} of {total:,}): an end rule "
            "(e.g. most toppings after N rounds) would settle them."
        )
    fields = [short(f) for f in lengths["field"].unique(maintain_order=True)]
    return Verdict(
        question="How long are games, and do they end in a draw?",
        answer=answer,
        value=Estimate(
            "rounds a game",
            x["rounds"],
            x["rounds_low"],
            x["rounds_high"],
            int(x["games"]),
            "games",
            unit="rounds",
            players=top,
            field=short(x["field"]),
            data=_board(r),
            method="t interval over games",
            note="a game",
        ),
        robustness="not checked",
        recommendation=rec,
        section="Game length",
        detail=f"Rounds and endings in every field ({listing(fields)}); the round bound's "
        "count is over the games of every field.",
    )


def _fired_text(r: Results, top: int) -> str:
    """How often the rule fires at ``top`` players in the main field (the context of the
    safety verdict): `` With the rule it kept a topping on the board in 62.0% [...] of the
    games (...).``"""
    t = r.tables.get("safety")
    if t is None or t.is_empty():
        return ""
    x = t.filter(
        (pl.col("measure") == "fired")
        & (pl.col("field") == MAIN_FIELD)
        & (pl.col("players") == top)
    )
    if x.is_empty():
        return ""
    y = x.row(0, named=True)
    share = (
        f"{100 * y['estimate']:.1f}% (one game)"
        if y["deterministic"]
        else f"{pct(y['estimate'], y['low'], y['high'])} ({y['count']:,} of {y['games']:,})"
    )
    return (
        f" With the rule it kept a topping on the board in {share} of {the_field()}'s games at "
        f"{top} players: how often it fires, not whether it matters."
    )


def _effect_text(y: dict, unit: str, f: str = "+.1f") -> str:
    """One paired change (a row of :func:`analysis.pizzatheory.safety.safety_effect`):
    its interval, or where few deals differ the exact sign test instead."""
    if y["nonzero"] == 0:
        return f"no change (no deal of {y['deals']:,} differs)"
    if y["sparse"]:
        return (
            f"{y['estimate']:{f}} {unit} carried by {y['nonzero']:,} of {y['deals']:,} deals "
            f"({y['positive']:,} up, {y['negative']:,} down; exact sign test p = "
            f"{y['sign_p']:.2g}), too few for an interval"
        )
    return ci(y["estimate"], y["low"], y["high"], unit, f)


def safety_verdict(r: Results) -> Verdict | None:
    """Does the safety rule matter? What playing the main field's deals without it
    (``safety = false``, paired by deal) changes: each starting position's win share (the
    largest change corrected for picking it from every position of every count), the
    rounds a game lasts, the toppings a seat loses and the shared outcomes; how often the
    rule fires is context, not the answer."""
    eff = r.tables.get("safety_effect")
    fired = r.tables.get("safety")
    if (eff is None or eff.is_empty()) and (fired is None or fired.is_empty()):
        return None
    question = "Does the safety rule matter?"
    if eff is None or eff.is_empty():
        counts = sorted(fired["players"].unique())
        top = MAIN if MAIN in counts else counts[-1]
        return Verdict(
            question=question,
            answer="The study plays no block without the safety rule (safety = false on the "
            "main field's deals), so whether the rule matters is not measured."
            + _fired_text(r, top),
            estimate="not measured",
            n=0,
            n_unit="deals",
            robustness="not checked",
            recommendation="",
            section="Safety rule",
            detail="Add a safety-off block (the main field with rules = { safety = false }, the "
            "same seed) to measure what the rule changes.",
        )
    counts = sorted(eff["players"].unique())
    top = MAIN if MAIN in counts else counts[-1]
    pos = eff.filter(pl.col("measure") == "position")
    family = shared.adjust_family(pos, "estimate", "low", "high")
    claim = shared.largest_claim(pos, "estimate", "low", "high")

    def one(n: int, m: str) -> dict:
        return eff.filter((pl.col("players") == n) & (pl.col("measure") == m)).row(0, named=True)

    parts = []
    for n in counts:
        rounds, lost, shared_ = one(n, "rounds"), one(n, "lost"), one(n, "shared")
        at = family.filter(pl.col("players") == n).sort("position")
        moved = "; ".join(
            f"position {y['position']} "
            + (_effect_text(y, "pp") if y["sparse"]
               else ci(y["estimate"], y["adj_low"], y["adj_high"]))
            for y in at.iter_rows(named=True)
        )  # fmt: skip
        length = {1: "longer", -1: "shorter", 0: "not measurably longer or shorter"}[
            0 if rounds["sparse"] else sign(rounds["low"], rounds["high"])
        ]
        parts.append(
            f"at {n} players ({rounds['deals']:,} deals) games are {length}: "
            f"{_effect_text(rounds, 'rounds', '+.2f')} ({rounds['on']:.2f} with the rule, "
            f"{rounds['off']:.2f} without); toppings a seat loses a game: "
            f"{_effect_text(lost, 'toppings', '+.2f')}; shared outcomes (a draw or a neutral "
            f"win): {_effect_text(shared_, 'pp')}; the starting positions' win shares: {moved}"
        )
    m = int(claim["family"])
    if claim["sign"]:
        largest = (
            f"The largest change is position {claim['position']}'s at {claim['players']} players, "
            f"{ci(claim['estimate'], claim['adj_low'], claim['adj_high'])} (corrected for picking "
            f"it from the {m} positions of all counts): it is "
            f"{'better' if claim['sign'] > 0 else 'worse'} off without the rule than with it."
        )
    else:
        largest = (
            f"No starting position's win share changes measurably (every interval, corrected "
            f"for the {m} positions of all counts, covers 0; the largest is position "
            f"{claim['position']}'s at {claim['players']} players, "
            f"{ci(claim['estimate'], claim['adj_low'], claim['adj_high'])})."
        )
    answer = (
        f"Without the safety rule (safety = false), on the same deals as {the_field()} "
        f"({_who(r)} in every seat), paired by deal (without − with): "
        + "; ".join(parts)
        + ". "
        + largest
        + _fired_text(r, top)
    )
    rec = shared.recommendation(
        claim,
        None,
        "the safety rule matters to the balance between the starting positions, so a change "
        "to it is a balance change, to be weighed with the seat verdict.",
        who=f"without the safety rule, position {claim['position']} at {claim['players']} players",
        estimate="estimate",
        ahead="better off",
        behind="worse off",
    )
    return Verdict(
        question=question,
        answer=answer,
        value=Estimate(
            "change in win share without the safety rule",
            claim["estimate"],
            claim["adj_low"],
            claim["adj_high"],
            int(claim["deals"]),
            "deals",
            unit="pp",
            subject=f"position {claim['position']}",
            players=int(claim["players"]),
            field=short(MAIN_FIELD),
            data=_board(r),
            rules="safety = false",
            method="paired by deal (t over deals), Bonferroni over the positions of every count",
            family=m,
            note="without the rule",
        ),
        robustness="one field only",
        recommendation=rec,
        section="Safety rule",
        detail=f"The study plays the rule's absence in {the_field()} only (block "
        f"{eff['off_block'][0]} against {eff['on_block'][0]}, the same deals), so it is not "
        "checked with other players. Intervals are t intervals over deals; a change carried "
        "by fewer than 30 deals is worded from the exact sign test; the position changes are "
        f"corrected (Bonferroni) over the {m} positions of all counts.",
    )


def _blind_spec(r: Results, field: str) -> str:
    """The restricted seat's spec in a field's blind block (``mixed(blind=1)``)."""
    blind = OPENING_FIELDS.get(field, ("",))[0]
    specs = block_specs(r.manifest, blind) if blind and r.manifest.get("study") else []
    found = [x for x in specs if "blind" in x]
    return found[0] if found else f"{short(field)}(blind=1)"


def opening_verdict(r: Results) -> Verdict | None:
    """What is the first placement worth? (restricted play, paired by deal, in each field
    with a blind block; the main field's estimate)."""
    t = r.tables.get("opening")
    if t is None or t.is_empty():
        return None
    counts = sorted(t["players"].unique())
    top = MAIN if MAIN in counts else counts[-1]
    at = t.filter(pl.col("players") == top)
    main = at.filter(pl.col("field") == MAIN_FIELD)
    x = (main if main.height else at).row(0, named=True)
    conds = r.tables.get("opening_conditions", {}).get(top, [])
    expected = list(OPENING_FIELDS)
    label, detail, robust, s = judged(conds, expected, [])
    single = len(expected) == 1 and bool(conds) and {c.name for c in conds} <= set(expected)
    if single:
        label = "one field only"
        detail = (
            f"the study plays a blind seat in {the_field(expected[0])} only, so the value is "
            f"not checked with other players ({detail})"
        )
    player = field_player(x["field"])
    words = {
        "above": "a random first placement does better than the field's own: "
        f"{player}'s opening is a handicap",
        "below": "the first placement is worth having",
        "covers": "the first placement's worth is not distinguishable from 0",
        "none": "without an interval",
    }
    where = words[side(x["edge_low"], x["edge_high"])]
    answer = (
        f"A seat that places its first topping at random ({_blind_spec(r, x['field'])}, every "
        f"seat in turn, on the same deals as the field's own games): its win share minus an "
        f"unrestricted seat's is {ci(x['edge_pp'], x['edge_low'], x['edge_high'])} at "
        f"{top} players in the {short(x['field'])} field ({x['deals']:,} deals): {where}. "
        "It ends with "
        f"{ci(x['toppings'], x['toppings_low'], x['toppings_high'], 'toppings', '+.2f')} "
        "on the board relative to the unrestricted seat."
    )
    others = at.filter(pl.col("field") != x["field"])
    for y in others.iter_rows(named=True):
        answer += (
            f" In the {short(y['field'])} field: "
            f"{ci(y['edge_pp'], y['edge_low'], y['edge_high'])} ({y['deals']:,} deals)."
        )
    rec = ""  # robust: clear of 0 on one side in every field with a blind block
    if robust and s < 0 and abs(x["edge_pp"]) >= BIG_VALUE:
        rec = (
            f"The opening placement is worth {-x['edge_pp']:.1f} pp of the win "
            + (
                f"in {the_field(x['field'])} (the only field with a blind seat; not checked "
                "with other players)"
                if single
                else "in every field"
            )
            + ": where to place first is worth a strategy tip in the rules."
        )
    elif robust and s > 0:
        rec = (
            f"A random opening beats {player}'s own "
            + ("" if single else "in every field ")
            + f"at {top} players: its opening (not the game) needs work before the other "
            "verdicts are read as good play."
        )
    return Verdict(
        question="What is the first placement worth?",
        answer=answer,
        size=clear_size(x["edge_low"], x["edge_high"]),
        value=Estimate(
            "win share − an unrestricted seat's on the same deals",
            x["edge_pp"],
            x["edge_low"],
            x["edge_high"],
            int(x["deals"]),
            "deals",
            unit="pp",
            subject="the blind seat",
            players=top,
            field=short(x["field"]),
            data=_board(r),
            method="paired by deal (t over deals)",
            note="against an unrestricted seat",
        ),
        robustness=label,
        recommendation=rec,
        section="First placement",
        detail=f"At {top} players: {detail}.",
    )


def board_verdict(r: Results) -> Verdict | None:
    """Does the board's shape change the balance? (each alternative against hex-37; a
    claim that a position changes is picked from every board and position of the field, so
    its interval is corrected over that family: :func:`analysis.verdicts.largest_claim`)."""
    b = r.tables.get("boards")
    pos = r.tables.get("board_positions")
    if b is None or b.is_empty():
        return None
    sampled = b.filter(~(pl.col("deterministic") & pl.col("base_deterministic")))
    use = (sampled if sampled.height else b).sort(pl.col("field") != MAIN_FIELD)
    field = use["field"][0]
    sub = use.filter(pl.col("field") == field)
    base = sub.row(0, named=True)
    mine = pos.filter(pl.col("field") == field).drop(
        "adj_low", "adj_high", "p_holm", "holm_sign", "family", strict=False
    )
    big = shared.largest_claim(mine, "change_pp", "change_low", "change_high")
    m = int(big["family"])
    conds = [
        Condition(
            "field",
            y["field"],
            y["change_pp"],
            y["adj_low"],
            y["adj_high"],
            y["games"],
            "games",
            spec=FIELD_SPECS.get(y["field"], ""),
        )
        for y in pos.filter(
            (pl.col("board") == big["board"]) & (pl.col("position") == big["position"])
        ).iter_rows(named=True)
    ]
    exact = [c.name for c in conds if _is_exact(c)]
    conds = [c for c in conds if c.name not in exact]
    expected = [f for f in BOARD_FIELDS if f in chance_fields(MAIN, exact)]
    label, detail, robust, _ = judged(conds, expected, exact)
    largest = "; ".join(
        f"{y['board']} position {y['largest_position']} "
        f"{ci(y['largest_pp'], y['largest_low'], y['largest_high'])} ({y['games']:,} games)"
        for y in sub.iter_rows(named=True)
    )
    changed = [y["board"] for y in sub.iter_rows(named=True) if y["changed_positions"]]
    raw = [y["board"] for y in sub.iter_rows(named=True) if y["raw_changed"]]
    own = data_label(r.manifest, "hex-37")
    answer = (
        (
            "The real board's layout is not published: hex-37 is slicelab's assumption, and "
            "the three shipped alternatives test how much the answers hang on it. In the "
            if own == "hex-37"
            else f"This study's board is {own}; the three shipped boards test how much the answers "
            "hang on it. In the "
        )
        + f"{short(field)} field the largest position edge over the fair share is position "
        f"{base['base_largest_position']}'s "
        f"{ci(base['base_largest_pp'], base['base_largest_low'], base['base_largest_high'])} "
        f"on {own} ({base['base_games']:,} games); {largest}. "
        + (
            f"A starting position's win share changes (its interval, corrected for picking "
            f"from the {m} board positions, clear of 0) on {listing(changed)}; the largest "
            f"change is position {big['position']}'s on {big['board']}, "
            f"{ci(big['change_pp'], big['adj_low'], big['adj_high'])}."
            if changed
            else f"No board changes any starting position's win share measurably (every "
            f"interval, corrected for picking from the {m} board positions, covers 0"
            + (
                f"; uncorrected, one clears 0 on {listing(raw)}, as some of {m} comparisons "
                "do by chance"
                if raw
                else ""
            )
            + ")."
        )
    )
    det = b.filter(pl.col("deterministic") & pl.col("base_deterministic"))
    for f in dict.fromkeys(det["field"]):
        answer += " " + board_sentence(b, pos, f, base=base_board(r))
    rec = ""
    if robust and big["sign"] != 0:
        rec = (
            f"The shape moves position {big['position']}'s win share on {big['board']} "
            f"({'up' if big['sign'] > 0 else 'down'}) in {_fields_of(c.name for c in conds)}: "
            "measure on the real board before acting on the seat verdicts."
        )
    return Verdict(
        question="Does the board's shape change the balance?",
        answer=answer,
        value=Estimate(
            f"change in win share against {own}",
            big["change_pp"],
            big["adj_low"],
            big["adj_high"],
            int(big["games"] + big["base_games"]),
            "games",
            unit="pp",
            subject=f"position {big['position']} on {big['board']}",
            players=MAIN,
            field=short(field),
            data=f"{big['board']} against {own}",
            method="Newcombe interval from Wilson intervals over games, Bonferroni over the "
            "board positions",
            family=m,
        ),
        robustness=label,
        recommendation=rec,
        section="Board shape",
        detail=f"Position {big['position']} on {big['board']} against {own} in every field "
        f"with chance that played both ({int(big['games']):,} games on the board, "
        f"{int(big['base_games']):,} on {own} in the {short(field)} field), each field's "
        f"interval corrected over its {m} board positions: {detail}.",
    )


def count_verdict(r: Results) -> Verdict | None:
    """Is the 2-player variant as balanced as 3 players? (the largest position edge per
    count in the first field with chance at both)."""
    tables = r.tables.get("positions")
    if not tables:
        return None
    both = None
    for name in [*FIELDS, *tables]:
        t = tables.get(name)
        if t is None or t["players"].n_unique() < 2:
            continue
        if not t["deterministic"].any():
            both = name
            break
    if both is None:
        return None
    which = "the main field" if both == MAIN_FIELD else "the first field with chance at every count"
    extra = ""
    count = r.tables.get("count")
    if count is not None and not count.is_empty():
        m = count.filter(pl.col("measure") == "rounds").sort("players")
        if m.height > 1:
            one = {n for n in m["players"] if _deterministic(tables, MAIN_FIELD, n)}
            parts = [(f"{y['estimate']:.1f} rounds at {y['players']} players (one game)"
                      if y["players"] in one else
                      f"{ci(y['estimate'], y['low'], y['high'], 'rounds', '.1f')} at "
                      f"{y['players']} players") for y in m.iter_rows(named=True)]  # fmt: skip
            extra = f" With {_who(r)} in every seat a game lasts {listing(parts)}."
    big = shared.largest_claim(tables[both])
    return shared.count_verdict(
        edges(tables[both]),
        f"In the {short(both)} field ({which}) the largest starting-position edge over the "
        "fair share",
        big_edge=BIG_EDGE,
        matters="starting position",
        detail=f"Starting-position edges in the {short(both)} field, each count's largest "
        "corrected for picking it from every position of every count; every field's are on "
        "the seat pages. No compensation is recommended unless the largest edge holds in "
        "every field with chance.",
        clear_of="it",
        extra=extra,
        positions=tables[both],
        robust=edge_robustness(r, int(big["players"]), int(big["position"])) if big else None,
    )


def ratings_verdict(r: Results) -> Verdict | None:
    """How strong are the players behind the numbers?"""
    lead = short(MAIN_FIELD)  # the main field's player: "mixed"
    pairs = [(lead, o) for o in ("heuristic", "greedy", "random") if o != lead]
    pairs.append(("heuristic", "greedy"))
    return shared.ratings_verdict(
        r.tables.get("rating_gaps"),
        r.tables.get("ratings"),
        prefer=MAIN,
        pairs=pairs,
        names=PLAYERS,
        closing=f" The verdicts above rest on {field_player(MAIN_FIELD)} (the main field); a "
        "stronger player could change them.",
        detail="Plackett–Luce ratings from the rotated tables of the ladder blocks.",
    )


VERDICTS = (
    seats_verdict,
    length_verdict,
    safety_verdict,
    opening_verdict,
    board_verdict,
    count_verdict,
    ratings_verdict,
)


verdicts = Questions(VERDICTS)
"""Every verdict the study's data supports, in reading order."""
