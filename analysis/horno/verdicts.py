"""Horno's page 1: one plain-language verdict per question, each computed from the numbers
it states, with its interval, its n and its unit, how robust it is across the fields and
card sets the study plays, and a recommendation that follows from the numbers (or none).

Each ``*_verdict`` function reads the tables the report's sections computed
(:class:`analysis.sections.Results`) and returns a :class:`~analysis.sections.Verdict`, or
``None`` when the study lacks what it needs. The estimates come from the main field (the
heuristic in every seat, assumed v1); robustness is judged by
:func:`analysis.robust.judge` across the other fields and the alternative card sets where
the study recomputes the number, else it is "not checked".
"""

from __future__ import annotations

import polars as pl

from analysis import verdicts as shared
from analysis.estimates import Estimate, clear_size
from analysis.formats import ci
from analysis.horno import cardsets
from analysis.horno.common import (
    DEFAULT_SET,
    LADDER_COUNT,
    MAIN,
    MAIN_FIELD,
    PLAYERS,
    SEARCH_COUNT,
    short,
    the_field,
)
from analysis.horno.prose import (
    restriction_short,
    signs_by_kind,
    strength_sentence,
    variant_sentence,
)
from analysis.horno.seats import conditions, edges
from analysis.prose import listing, pct
from analysis.robust import Condition, judge
from analysis.seat_question import SeatQuestion, seat_claim, seat_verdict
from analysis.sections import Results, Verdict
from analysis.verdicts import Questions

BIG_EDGE = 2.0
"""A turn position's edge (pp) a designer should act on when it is robust."""
BIG_POINTS = 1.0
"""A dish type's excess points per dish taken a designer should act on when robust."""
BIG_VALUE = 2.0
"""A restriction's cost (pp) that makes an option decisive."""
UNCHECKED = (
    " (measured on assumed v1 with the heuristic only: check it on the real card list first)."
)
"""How a recommendation ends when its estimate is not recomputed on the other card sets."""
KINDS = {"field": "fields", "card set": "card sets"}
GIVEN_UP = {"never sabotages": "sabotage", "never steals": "steals"}
"""What a restricted seat gives up, by its restriction."""
FIELD = short(MAIN_FIELD)
"""Who plays the games the verdicts' estimates come from (:attr:`Estimate.field`)."""


def _counts(r: Results) -> list[int]:
    main = r.tables.get("positions", {}).get(MAIN_FIELD)
    return sorted(int(n) for n in main["players"].unique()) if main is not None else []


def position_conditions(r: Results, players: int, position: int) -> list[Condition]:
    """A turn position's edge at a count in every field and on every card set."""
    found = conditions(r.tables.get("positions", {}), position, "field", players).get(players, [])
    sets = r.tables.get("set_positions", {})
    found += cardsets.conditions(sets, position, players).get(players, [])
    return found


def expected_conditions(r: Results) -> list[str]:
    """Every field and card set the study plays (the conditions a verdict is judged in)."""
    return [*r.tables.get("positions", {}), *r.tables.get("set_positions", {})]


SEATS = SeatQuestion(
    question="Does the turn order favour a seat?",
    first="the first player",
    who="the heuristic",
    field=FIELD,
    checked="field of players who do not play at random and on every card set checked",
    method="interval over games, Bonferroni over the positions of every count",
    claim="any",
    big_edge=BIG_EDGE,
    remedy="the turn order is worth a compensation rule, in favour of {favoured}",
)
"""Horno's seat question (:mod:`analysis.seat_question`): any turn position's edge."""


def _main_set(r: Results, players: int, position: int) -> list[Condition]:
    """A position's edge in every field and card set, the main field's own card set (the
    same games as the heuristic field) left out."""
    conds = position_conditions(r, players, position)
    return [c for c in conds if not (c.kind == "card set" and c.name == "assumed v1")]


def _judged_in(r: Results) -> tuple:
    """The seat claim's conditions and expected conditions (:func:`seat_verdict`'s)."""
    return (lambda n, p: _main_set(r, n, p)), (lambda n, p: _dedupe(expected_conditions(r)))


def seats_verdict(r: Results) -> Verdict | None:
    """Does the turn order favour a seat? (the main field; the largest edge of any
    position, corrected for picking it, judged across the fields and card sets)."""
    tables = r.tables.get("positions")
    if not tables or MAIN_FIELD not in tables:
        return None

    def addendum(n: int, p: int) -> str:  # the claim's signs by kind of condition
        return (f" Position {p}'s edge at {n} players {signs_by_kind(_main_set(r, n, p), KINDS)}"
                ". A win shared by k seats counts 1/k to each.")  # fmt: skip

    return seat_verdict(SEATS, tables[MAIN_FIELD], *_judged_in(r), data=DEFAULT_SET,
                        addendum=addendum)  # fmt: skip


def _dedupe(names: list[str]) -> list[str]:
    """The names once each, the main field's card set (assumed v1, the same games as the
    heuristic field) left out."""
    return [x for x in dict.fromkeys(names) if x != "assumed v1"]


def strongest(frame: pl.DataFrame | None, estimate: str, low: str, high: str) -> dict | None:
    """The row of ``frame`` with the highest ``estimate`` (the strongest of a family),
    corrected for picking it (:func:`analysis.verdicts.largest_claim` with
    ``by="highest"``); None for an empty family."""
    if frame is None:
        return None
    return shared.largest_claim(frame, estimate, low, high, by="highest")


STRENGTH = {
    "restricted play": ("avoid", "value_pp", "value_low", "value_high"),
    "replacement": ("replacement", "value_pp", "value_low", "value_high"),
    "own points": ("own", "excess", "excess_low", "excess_high"),
}
"""The three dish-type estimands: their table, estimate and interval columns, in the order
that answers "which type is stronger" (restricted play; the others stand in without it)."""


def dish_claims(r: Results, n: int) -> dict[str, dict]:
    """Per estimand the study has, its strongest type at ``n`` players, corrected for
    picking it among the types (:func:`strongest`)."""
    found = {}
    for name, (key, est, lo, hi) in STRENGTH.items():
        t = r.tables.get(key)
        if t is None or t.is_empty():
            continue
        x = strongest(t.filter(pl.col("players") == n), est, lo, hi)
        if x is not None:
            found[name] = x
    return found


DISH_NOTES = {
    "restricted play": "of win share lost by a seat that may never take it",
    "replacement": "of win share to its takers",
    "own points": "per dish taken over the average dish",
}
"""What each dish-type estimand's number is, as the verdict's estimate line says it."""
DISH_METHODS = {
    "restricted play": "paired by deal, Bonferroni over the types",
    "replacement": "paired by deal, clustered by game, Bonferroni over the types",
    "own points": "ratio interval over games, Bonferroni over the types",
}
"""How each dish-type estimand's interval is made (:attr:`Estimate.method`)."""


def printed_points(r: Results) -> dict[str, float]:
    """Per dish type of the main field's card set, the mean printed points of its dishes."""
    from analysis.horno.common import SEATS, block_cards

    cards = block_cards(r.manifest, SEATS)
    return {
        t: sum(d.points for d in cards.dishes if d.type == i) / len(cards.pile(i))
        for i, t in enumerate(cards.types)
        if cards.pile(i)
    }


def dishes_verdict(r: Results) -> Verdict | None:
    """Is any dish type stronger than the others? One sentence says which estimand answers
    it (restricted play: what a seat loses when it may never take the type) and why the
    others (own points, replacement) name another type; each strongest type is corrected
    for picking it among the types; own points judged across the card sets."""
    own = r.tables.get("own")
    if own is None or own.is_empty():
        return None
    counts = sorted(own["players"].unique())
    n = MAIN if MAIN in counts else counts[-1]
    claims = dish_claims(r, n)
    sub = own.filter(pl.col("players") == n).sort("rank")
    rep = r.tables.get("replacement")
    plain = int(rep["plain_points"][0]) if rep is not None and rep.height else None
    answer = strength_sentence(claims, sub, printed_points(r), plain, n)
    key = next(iter(claims))
    x = claims[key]
    est, unit = STRENGTH[key][1], "points" if key == "own points" else "pp"
    # the card sets recompute own points only: restricted play and replacement are measured
    # on assumed v1 with the heuristic, so their strongest type is not checked elsewhere
    rankings = r.tables.get("set_rankings", {})
    expected = [y for y in rankings if y != "assumed v1"]
    robust = None
    if key == "own points":
        conds = [c for c in cardsets.type_conditions(rankings, x["type_name"], n)
                 if c.name != "assumed v1"]  # fmt: skip
        robust = judge(conds, expected)
        label, detail = robust.label, f"its excess on every card set: {robust.detail}"
        if len(rankings) < 2:
            label, detail, robust = "not checked", "the study plays no other card set", None
    else:
        label = "not checked"
        detail = f"{key} is measured on assumed v1 with the heuristic only"
        own_top = claims.get("own points")
        if own_top is not None and len(rankings) >= 2:
            conds = [c for c in cardsets.type_conditions(rankings, own_top["type_name"], n)
                     if c.name != "assumed v1"]  # fmt: skip
            detail += (
                f"; own points' strongest type, {own_top['type_name']}, on every card set: "
                f"{judge(conds, expected).detail}"
            )
    top, low = sub.row(0, named=True), sub.row(-1, named=True)
    answer += (
        f" Own points (a completed dish's score, else its unfinished points) at {n} players: "
        f"the highest is {top['type_name']}'s "
        f"{ci(top['yield'], top['yield_low'], top['yield_high'], 'points', '.1f')} per dish "
        f"taken, the lowest {low['type_name']}'s "
        f"{ci(low['yield'], low['yield_low'], low['yield_high'], 'points', '.1f')} "
        f"({top['games']:,} games)."
    )
    tops = cardsets.top_types(rankings, n)
    if len(tops) > 1:
        same_top = [y for y, (t, _) in tops.items() if t == top["type_name"]]
        answer += (
            f" {top['type_name']} yields the most per dish taken on {len(same_top)} of the "
            f"{len(tops)} card sets played (assumed v1 and {len(tops) - 1} alternatives)."
        )
    rec = ""
    if abs(x[est]) >= (BIG_POINTS if key == "own points" else BIG_VALUE):
        rec = shared.recommendation(
            x,
            robust,
            "its dishes (their points, or how easily their ingredients come) are the first "
            "to revisit" + ("." if robust is not None else UNCHECKED),
            who=f"{x['type_name']} at {n} players",
            estimate=est,
            unit=unit,
            ahead="stronger than the other types",
            behind="weaker than the other types",
        )
    return Verdict(
        question="Is any dish type stronger than the others?",
        answer=answer,
        value=Estimate(
            f"value of a dish type by {key}",
            x[est],
            x["adj_low"],
            x["adj_high"],
            int(x["deals"] if key == "restricted play" else x["games"]),
            "deals" if key == "restricted play" else "games",
            unit=unit,
            subject=x["type_name"],
            players=n,
            field=FIELD,
            data=DEFAULT_SET,
            method=DISH_METHODS[key],
            family=int(x["family"]),
            note=DISH_NOTES[key],
        ),
        size=clear_size(x["adj_low"], x["adj_high"]) if key != "own points" else None,
        robustness=label,
        recommendation=rec,
        section="Dish types",
        detail=f"{x['type_name']}, the strongest by {key}: {detail}.",
    )


def sabotage_verdict(r: Results) -> Verdict | None:
    """Does sabotage pay, and what do steals and sabotage take? (restricted seats on the
    main field's deals; points lost in the main field)."""
    t = r.tables.get("restrictions")
    d = r.tables.get("damage")
    if t is None or t.is_empty():
        return None
    counts = sorted(t["players"].unique())
    n = MAIN if MAIN in counts else counts[-1]
    rows = {x["restriction"]: x for x in t.filter(pl.col("players") == n).iter_rows(named=True)}
    parts = [restriction_short(x) for x in rows.values()]
    deals = listing(sorted({f"{x['deals']:,}" for x in rows.values()}))
    answer = (
        f"Against the heuristic at {n} players, on the main field's deals ({deals} deals, "
        f"every seat in turn): {'; '.join(parts)}."
    )
    if d is not None and not d.is_empty():
        dd = d.filter(pl.col("players") == n)
        if dd.height:
            y = dd.row(0, named=True)
            answer += (
                f" In the heuristic field sabotage takes "
                f"{ci(y['lost'], y['lost_low'], y['lost_high'], 'points', '.2f')} a seat a game, "
                f"{pct(y['share'], y['share_low'], y['share_high'])} of what its dishes would "
                f"have scored ({y['games']:,} games)."
            )
    first = rows.get("never sabotages") or next(iter(rows.values()))
    rec = ""
    cut = [
        name for name, x in rows.items() if name.startswith("never") and x["edge_high"] < -BIG_VALUE
    ]
    if cut:
        given = listing(GIVEN_UP.get(c, c) for c in cut)
        rec = (
            f"Giving up {given} costs a seat more than {BIG_VALUE:g} pp of win share (every "
            f"interval below -{BIG_VALUE:g}): {given} {'are' if len(cut) > 1 else 'is'} central "
            f"to Horno, so {'their' if len(cut) > 1 else 'its'} rules and the garbage "
            "penalties are its balance levers."
        )
    return Verdict(
        question="Does sabotage pay more than building?",
        answer=answer,
        value=Estimate(
            "win share − the unrestricted seat's",
            first["edge_pp"],
            first["edge_low"],
            first["edge_high"],
            int(first["deals"]),
            "deals",
            subject=f"a seat that {first['restriction']}",
            players=n,
            field=FIELD,
            data=DEFAULT_SET,
            method="paired by deal",
            note="against the unrestricted seat",
        ),
        size=clear_size(first["edge_low"], first["edge_high"]),
        robustness="not checked",
        recommendation=rec,
        section="Sabotage and steals",
        detail="One field (the heuristic) on assumed v1; paired by deal.",
    )


def radioactive_verdict(r: Results) -> Verdict | None:
    """What do the radioactive cards do? (the main field's bonus points; the variants on
    its deals)."""
    ch = r.tables.get("radio_changes")
    contrib = r.tables.get("radio")
    if ch is None or ch.is_empty():
        return None
    n = MAIN if MAIN in set(ch["players"]) else int(ch["players"].max())
    variants = list(dict.fromkeys(ch["variant"]))
    main = variants[0]
    x = ch.filter(
        (pl.col("variant") == main) & (pl.col("players") == n) & (pl.col("measure") == "score")
    ).row(0, named=True)
    answer = ""
    if contrib is not None and not contrib.is_empty():
        c = contrib.filter(pl.col("players") == n)
        if c.height:
            y = c.row(0, named=True)
            answer += (
                f"In the heuristic field at {n} players a seat's matching radioactive cards add "
                f"{ci(y['bonus'], y['bonus_low'], y['bonus_high'], 'points', '.2f')} a game "
                f"({100 * y['share']:.1f}% of its score) and other types' radioactive cards, "
                f"slipped in as sabotage, take "
                f"{ci(-y['penalty'], -y['penalty_high'], -y['penalty_low'], 'points', '.2f')} "
                f"({y['games']:,} games). "
            )
    answer += " ".join(variant_sentence(ch, v, n) for v in variants)
    return Verdict(
        question="What do the radioactive cards do?",
        answer=answer,
        value=Estimate(
            "change in the mean score per seat",
            x["change"],
            x["low"],
            x["high"],
            int(x["deals"]),
            "deals",
            unit="points",
            subject=f"with {main}",
            players=n,
            field=FIELD,
            data=DEFAULT_SET,
            method="paired by deal",
            note="in the mean score per seat",
        ),
        robustness="not checked",
        section="Radioactive cards",
        detail="One field (the heuristic) on assumed v1; paired by deal.",
    )


def cardsets_verdict(r: Results) -> Verdict | None:
    """Do the answers hang on the assumed card list? (every check of the card-set section
    judged across the alternatives)."""
    checks = r.tables.get("set_checks")
    sets = r.tables.get("set_positions", {})
    if checks is None or checks.is_empty():
        return None
    robust = checks.filter(pl.col("robust"))
    k, total = robust.height, checks.height
    names = [x for x in sets if x != "assumed v1"]
    listed_ok = listing(f"{x['check']}" for x in robust.iter_rows(named=True)) or "none"
    level = checks.filter(~pl.col("robust") & pl.col("level"))
    mixed = checks.filter(~pl.col("robust") & ~pl.col("level"))
    answer = (
        f"The card list is not published: assumed v1 is slicelab's reading, and the study "
        f"replays the main field on {len(names)} other plausible readings "
        f"({listing(names)}). Of {total} verdicts checked on all of them, {k} hold on every "
        f"one (interval clear of 0, one sign): {listed_ok}."
    )
    if level.height:
        answer += (
            " Not distinguishable from 0 on assumed v1 nor on any alternative (no effect "
            "anywhere, so no sign to hold): "
            + listing(x["check"] for x in level.iter_rows(named=True))
            + "."
        )
    if mixed.height:
        answer += (
            " Not robust: "
            + "; ".join(f"{x['check']}: {x['detail']}" for x in mixed.iter_rows(named=True))
            + "."
        )
    games = sum(int(t["games"].sum()) for name, t in sets.items() if name != "assumed v1")
    label = "robust" if k == total else f"not robust: {total - k} of {total} checks"
    rec = ""
    if k < total:
        rec = (
            "Before acting on a verdict that is not robust here, find the real card list: "
            "it depends on what the rulebook leaves unpublished."
        )
    return Verdict(
        question="Do the answers hang on the assumed card list?",
        answer=answer,
        # a count of checks, not a sampled estimate: its interval is the count itself, and
        # the line says it in words
        estimate=f"{k} of {total} checks robust across {len(names)} alternative card sets",
        value=Estimate(
            "checks robust on every alternative card set",
            float(k),
            float(k),
            float(k),
            games,
            "games",
            unit="checks",
            field=FIELD,
            data=f"the {len(names)} alternative card sets",
            method="judged by its interval on every alternative card set",
            note=f"of {total}",
        ),
        robustness=label,
        recommendation=rec,
        section="Card sets",
        detail="Each check is judged by its interval on every card set (robust: clear of 0 "
        "with one sign on all of them).",
    )


def count_verdict(r: Results) -> Verdict | None:
    """Is the game as balanced at 2 players as at 4? (the largest position edge per count
    in the main field)."""
    tables = r.tables.get("positions")
    if not tables or MAIN_FIELD not in tables:
        return None
    extra = ""
    count = r.tables.get("count")
    if count is not None and not count.is_empty():
        m = count.filter(pl.col("measure") == "margin").sort("players")
        if m.height:
            extra = (
                " The winning margin: "
                + "; ".join(
                    f"{y['players']}p {ci(y['estimate'], y['low'], y['high'], 'points', '.1f')}"
                    for y in m.iter_rows(named=True)
                )
                + "."
            )
    claim = seat_claim(SEATS, tables[MAIN_FIELD], *_judged_in(r))
    return shared.count_verdict(
        edges(tables[MAIN_FIELD]),
        "With the heuristic in every seat the largest turn-position edge over the fair share",
        big_edge=BIG_EDGE,
        matters="turn order",
        detail=f"Turn-position edges in {the_field()}; every field's are on the seat pages.",
        extra=extra,
        positions=tables[MAIN_FIELD],
        robust=claim[1] if claim is not None else None,
    )


def search_sentence(gaps: pl.DataFrame | None) -> str:
    """The search player against the heuristic at :data:`SEARCH_COUNT` players (block
    ``ladder-search``), with its leading space; that it is not rated when it is not."""
    if gaps is not None:
        at = gaps.filter(pl.col("players") == SEARCH_COUNT)
        for spec in (*at["a"], *at["b"]):
            x = shared.oriented_gap(gaps, SEARCH_COUNT, spec, "heuristic")
            if spec.startswith("search") and x is not None:
                return shared.gap_sentence(
                    x, f"at {SEARCH_COUNT} players the search player, {spec}, against the heuristic"
                )
    return " The search player is not rated in this study."


def ratings_verdict(r: Results) -> Verdict | None:
    """How strong are the players behind the numbers? (the ladder's Plackett–Luce gaps)."""
    gaps = r.tables.get("rating_gaps")
    return shared.ratings_verdict(
        gaps,
        r.tables.get("ratings"),
        prefer=LADDER_COUNT,
        pairs=[("heuristic", "greedy"), ("heuristic", "random"), ("greedy", "random")],
        names=PLAYERS,
        closing=search_sentence(gaps) + " The verdicts above rest on the heuristic (the "
        "main field).",
        detail="Plackett–Luce ratings from the rotated tables of the ladder blocks (the "
        f"families at {LADDER_COUNT} players, search against the heuristic at "
        f"{SEARCH_COUNT}).",
    )


VERDICTS = (
    seats_verdict,
    dishes_verdict,
    sabotage_verdict,
    radioactive_verdict,
    cardsets_verdict,
    count_verdict,
    ratings_verdict,
)


verdicts = Questions(VERDICTS)
"""Every verdict the study's data supports, in reading order."""
