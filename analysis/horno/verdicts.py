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
from analysis.horno import cardsets
from analysis.horno.common import (
    LADDER_COUNT,
    MAIN,
    MAIN_FIELD,
    PLAYERS,
    SEARCH_COUNT,
    short,
    the_field,
)
from analysis.horno.prose import (
    EDGE_WORDS,
    VALUE_WORDS,
    edge_sentence,
    restriction_short,
    signs_by_kind,
    variant_sentence,
)
from analysis.horno.seats import conditions, edges
from analysis.pdf import ci
from analysis.prose import judged, listing, pct, side
from analysis.robust import Condition
from analysis.sections import Results, Verdict

BIG_EDGE = 2.0
"""A turn position's edge (pp) a designer should act on when it is robust."""
BIG_POINTS = 1.0
"""A dish type's excess points per dish taken a designer should act on when robust."""
BIG_VALUE = 2.0
"""A restriction's cost (pp) that makes an option decisive."""
KINDS = {"field": "fields", "card set": "card sets"}
GIVEN_UP = {"never sabotages": "sabotage", "never steals": "steals"}
"""What a restricted seat gives up, by its restriction."""


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


def seats_verdict(r: Results) -> Verdict | None:
    """Does the turn order favour a seat? (the main field; the largest edge judged across
    the fields and card sets)."""
    tables = r.tables.get("positions")
    if not tables or MAIN_FIELD not in tables:
        return None
    main = tables[MAIN_FIELD]
    e = edges(main)
    parts = [edge_sentence(x) for x in e.iter_rows(named=True)]
    big = main.with_columns(pl.col("edge_pp").abs().alias("_a")).sort("_a").row(-1, named=True)
    n, p = int(big["players"]), int(big["position"])
    conds = position_conditions(r, n, p)
    main_set = [c for c in conds if not (c.kind == "card set" and c.name == "assumed v1")]
    label, detail, robust, s = judged(main_set, _dedupe(expected_conditions(r)))
    where = EDGE_WORDS[side(big["edge_low"], big["edge_high"])]
    answer = (
        f"With the heuristic in every seat, {'; '.join(parts)}. The largest edge is position "
        f"{p}'s at {n} players ({where}); "
        + signs_by_kind(main_set, KINDS)
        + ". A win shared by k seats counts 1/k to each."
    )
    rec = ""
    if robust and abs(big["edge_pp"]) >= BIG_EDGE:
        rec = (
            f"Position {p} at {n} players is {'ahead' if s > 0 else 'behind'} in every field "
            f"and on every card set checked ({big['edge_pp']:+.1f} pp in the main field, at "
            f"least {BIG_EDGE:g}): the turn order is worth a compensation rule."
        )
    return Verdict(
        question="Does the turn order favour a seat?",
        answer=answer,
        estimate=f"position {p} at {n} players "
        f"{ci(big['edge_pp'], big['edge_low'], big['edge_high'])} over the fair share "
        f"({short(MAIN_FIELD)} field, assumed v1)",
        n=int(big["games"]),
        n_unit="games",
        robustness=label,
        recommendation=rec,
        section="Seats",
        detail=f"Position {p}'s edge at {n} players in every field and on every card set: "
        f"{detail}.",
    )


def _dedupe(names: list[str]) -> list[str]:
    """The names once each, the main field's card set (assumed v1, the same games as the
    heuristic field) left out."""
    return [x for x in dict.fromkeys(names) if x != "assumed v1"]


def dishes_verdict(r: Results) -> Verdict | None:
    """Is any dish type stronger than the others? (own points at the main count, judged
    across card sets; restricted play and replacement beside it)."""
    own = r.tables.get("own")
    if own is None or own.is_empty():
        return None
    counts = sorted(own["players"].unique())
    n = MAIN if MAIN in counts else counts[-1]
    sub = own.filter(pl.col("players") == n).sort("rank")
    top, low = sub.row(0, named=True), sub.row(-1, named=True)
    rankings = r.tables.get("set_rankings", {})
    conds = [
        c for c in cardsets.type_conditions(rankings, top["type_name"], n) if c.name != "assumed v1"
    ]
    expected = [x for x in rankings if x != "assumed v1"]
    label, detail, robust, s = judged(conds, expected)
    if not rankings or len(rankings) < 2:
        label, detail = "not checked", "the study plays no other card set"
    tops = cardsets.top_types(rankings, n)
    same_top = [x for x, (t, _) in tops.items() if t == top["type_name"]]
    answer = (
        f"Points per dish taken (own points: a completed dish's score, else its unfinished "
        f"points) at {n} players: the highest is {top['type_name']}'s "
        f"{ci(top['yield'], top['yield_low'], top['yield_high'], 'points', '.1f')}, "
        f"{ci(top['excess'], top['excess_low'], top['excess_high'], 'points')} against the "
        f"average dish taken; the lowest {low['type_name']}'s "
        f"{ci(low['yield'], low['yield_low'], low['yield_high'], 'points', '.1f')} "
        f"({ci(low['excess'], low['excess_low'], low['excess_high'], 'points')}); "
        f"{top['games']:,} games."
    )
    if len(tops) > 1:
        where = (
            f"every one of the {len(tops)} card sets played (assumed v1 and "
            f"{len(tops) - 1} alternatives)"
            if len(same_top) == len(tops)
            else f"{len(same_top)} of the {len(tops)} card sets played (assumed v1 and "
            f"{len(tops) - 1} alternatives)"
        )
        answer += f" {top['type_name']} yields the most on {where}."
    avoid = r.tables.get("avoid")
    if avoid is not None and not avoid.is_empty():
        a = avoid.filter(pl.col("players") == n).sort("value_pp", descending=True)
        if a.height:
            x = a.row(0, named=True)
            answer += (
                f" Restricted play: never taking {x['type_name']} costs a seat the most, "
                f"{ci(x['value_pp'], x['value_low'], x['value_high'])} of win share "
                f"({VALUE_WORDS[side(x['value_low'], x['value_high'])]}; {x['deals']:,} deals)."
            )
    rep = r.tables.get("replacement")
    if rep is not None and not rep.is_empty():
        b = rep.filter(pl.col("players") == n).sort("points", descending=True)
        if b.height:
            x = b.row(0, named=True)
            pts = ci(x["points"], x["points_low"], x["points_high"], "points")
            answer += (
                f" Replacement: the takers of {x['type_name']} score most with its printed "
                f"points rather than average dishes, {pts} "
                f"({ci(x['value_pp'], x['value_low'], x['value_high'])} of win share, "
                f"{VALUE_WORDS[side(x['value_low'], x['value_high'])]}; {x['takers']:,} takers "
                f"in {x['games']:,} games)."
            )
    rec = ""
    if robust and s > 0 and top["excess"] >= BIG_POINTS:
        rec = (
            f"{top['type_name']} dishes yield more than the average dish on every card set "
            f"checked ({top['excess']:+.1f} points per dish taken on assumed v1, at least "
            f"{BIG_POINTS:g}): its dishes' points are the first to revisit."
        )
    return Verdict(
        question="Is any dish type stronger than the others?",
        answer=answer,
        estimate=f"{top['type_name']} "
        f"{ci(top['excess'], top['excess_low'], top['excess_high'], 'points')} per dish taken "
        f"over the average dish at {n} players (own points)",
        n=int(top["games"]),
        n_unit="games",
        robustness=label,
        recommendation=rec,
        section="Dish types",
        detail=f"{top['type_name']}'s excess points per dish taken on every card set: {detail}.",
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
        estimate=f"never sabotaging: {ci(first['edge_pp'], first['edge_low'], first['edge_high'])}"
        f" against the unrestricted seat at {n} players",
        n=int(first["deals"]),
        n_unit="deals",
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
        estimate=f"without them: mean score per seat "
        f"{ci(x['change'], x['low'], x['high'], 'points', '+.2f')} at {n} players",
        n=int(x["deals"]),
        n_unit="deals",
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
        estimate=f"{k} of {total} checks robust across {len(names)} alternative card sets",
        n=games,
        n_unit="games",
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
    return shared.count_verdict(
        edges(tables[MAIN_FIELD]),
        "With the heuristic in every seat the largest turn-position edge over the fair share",
        big_edge=BIG_EDGE,
        matters="turn order",
        detail=f"Turn-position edges in {the_field()}; every field's are on the seat pages.",
        extra=extra,
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


def verdicts(r: Results) -> list[Verdict]:
    """Every verdict the study's data supports, in reading order."""
    return [v for f in VERDICTS if (v := f(r)) is not None]
