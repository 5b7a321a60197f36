"""Piece o' Cake's page 1: one plain-language verdict per question, each computed from the
numbers it states, with its interval, its n and its unit, how robust it is across the
fields the study plays (:mod:`analysis.pieceocake.robustness`), and a recommendation that
follows from the numbers (or none).

Each ``*_verdict`` function reads the tables the report's sections computed
(:class:`analysis.sections.Results`) and returns a :class:`~analysis.sections.Verdict`, or
``None`` when the study lacks what it needs.
"""

from __future__ import annotations

import polars as pl

from analysis import prose
from analysis.estimates import Estimate, edge_claim, held_out_theta
from analysis.formats import ci
from analysis.pieceocake.prose import FEW_WORDS, value_grouped
from analysis.pieceocake.restricted import claim_key, sign_sentence, value_text
from analysis.pieceocake.robustness import FIELDS, OTHER_RULE
from analysis.pieceocake.sweeps import field_sentence
from analysis.prose import counts_text, grouped, listing, margin_sentence
from analysis.robust import Robustness, judge, sign
from analysis.seat_question import SeatQuestion, first_edges, seat_verdict
from analysis.sections import Results, Verdict
from analysis.sweep_section import held_out_gain
from analysis.verdicts import (
    Questions,
    adjust_family,
    by_count,
    clear_size,
    largest_claim,
    main_count,
    recommendation,
    seat_range_opening,
    strength_verdict,
    theta_robustness,
)
from analysis.whatif import change_estimate

MAIN = 4
"""The player count of the robustness checks in the greedy field (the study's 4-player
blocks) and of the single-count verdicts."""
BIG_EDGE = 2.0
"""A seat edge (pp) a designer should act on when it is robust (at 4 players one game in
fifty changing hands)."""
BIG_VALUE = 1.0
"""An option's value (pp) worth teaching players when it is robust."""
RARE = 0.01
"""A share of turns (or cuts) below which the heuristic 'rarely' uses an option."""


def _share(x: dict) -> str:
    """A share (a fraction) as a percentage with its interval: ``30.0 % [28.0, 32.0]``."""
    return ci(100 * x["share"], 100 * x["share_low"], 100 * x["share_high"], "%", ".1f")


def _picked(claim: dict, estimate: str, of: str = "") -> str:
    """A selected claim's estimate with its interval corrected for the pick: ``+2.1 pp
    [+0.5, +3.7] (interval corrected for picking the largest of 4)``, ``of`` naming what
    the 4 are."""
    return (f"{ci(claim[estimate], claim['adj_low'], claim['adj_high'])} (interval corrected "
            f"for picking the largest of {claim['family']}{of})")  # fmt: skip


def _exact_effect(x: dict | None) -> str:
    """What the study measured exact-N cutting to do to the first server's edge at one
    count (``; exact-N cutting, measured on the same cakes, moves it from … to … pp
    (change …)``), or '' when it did not measure it or the change covers 0."""
    if x is None or sign(x["change_low"], x["change_high"]) == 0:
        return ""
    change = ci(x["change"], x["change_low"], x["change_high"])
    return (f"; exact-N cutting, measured on the same cakes, moves it from {x['before']:+.1f} to "
            f"{x['after']:+.1f} pp (change {change})")  # fmt: skip


SEATS = SeatQuestion(
    question="Is the first server favoured?",
    first="the first server",
    who="the heuristic",
    field="heuristic",
    checked="field (heuristic and greedy)",
    method="t interval over games",
    big_edge=BIG_EDGE,
    remedy="who serves first (or how often each seat serves) is worth a compensation rule "
    "there, in favour of {favoured}",
)
"""Piece o' Cake's seat question (:mod:`analysis.seat_question`)."""


def first_server_verdict(r: Results) -> Verdict | None:
    """Is the first server favoured? (heuristic field; the largest first-server edge over
    the counts, corrected for picking it, judged across fields; a recommendation quotes
    exact-N cutting's measured effect at its count)."""
    f = r.tables.get("fairness")
    if f is None or f.is_empty():
        return None
    found = r.tables.get("first_conditions", {})
    exact = r.tables.get("exact_change")
    exact = by_count(exact.filter(pl.col("measure") == "first_edge")) if exact is not None else {}
    return seat_verdict(
        SEATS, first_edges(f), lambda n, _: found.get(n, []), lambda n, _: list(FIELDS),
        whatif=lambda n: _exact_effect(exact.get(n)),
    )  # fmt: skip


def theta_verdict(r: Results) -> Verdict | None:
    """Best θ and whether tuning it pays on held-out deals (at MAIN; robust when a θ is in
    every field's not-worse set)."""
    b = r.tables.get("best_theta")
    if b is None or b.is_empty():
        return None
    rows = by_count(b)
    main = main_count(rows, MAIN)
    x = rows[main]
    if x["set_low"] == x["set_high"]:
        members = "every other θ tested is significantly worse"
    else:
        members = f"θ from {x['set_low']:g} to {x['set_high']:g} is not significantly worse"
    gains = [n for n, y in rows.items() if y["edge_low"] > 0]
    answer = (
        f"At {main} players the best eat-or-collect weight is θ = {x['best_theta']:g} "
        f"({members}; a larger θ collects more). "
        + held_out_gain(x, "θ")
        + (f"; tuning θ pays held out at {counts_text(gains)}." if gains else
           "; tuning θ pays held out at no player count.")
    )  # fmt: skip
    own = field_sentence(x, "theta")
    if own:
        answer += f" {own}"
    lacking = sorted(n for n, y in rows.items() if y.get("field_note"))
    if lacking:
        answer += (f" The grid lacks the field's own θ at {counts_text(lacking)}: there the "
                   "best θ is only the best of the grid's values.")  # fmt: skip
    table, common, missing = r.tables.get("theta_sets", (pl.DataFrame(), [], list(FIELDS)))
    label, detail = theta_robustness(common, missing, table.height,
                                     f"fields at {main} players",
                                     "no θ is in every field's not-worse set")  # fmt: skip
    rec = ""
    if x["edge_low"] > 0 and x.get("field_in_grid", True) and not x.get("field_is_best"):
        rec = (f"Against the heuristic field a player gains by collecting at θ ≈ "
               f"{x['best_theta']:g}: a strategy tip worth printing.")  # fmt: skip
    return Verdict(
        question="When is eating a slice better than collecting it?",
        answer=answer,
        value=held_out_theta(x, main, "heuristic"),
        robustness=label,
        recommendation=rec,
        section="Eat or collect",
        detail=detail + ".",
    )


VALUE_WORDS = {
    **prose.VALUE_WORDS,
    **FEW_WORDS,
    "unused": "never used by the heuristic (the restricted seat's games are identical on "
    "every deal)",
}
"""What an option is at a count, by :func:`analysis.pieceocake.restricted.claim_key`."""


def _sparse_robustness(x: dict) -> Robustness:
    """The robustness of a value carried by a handful of deals: not judged from an
    interval."""
    return Robustness(False, 0, "not robust: a handful of deals",
                      f"{sign_sentence(x)}; too few deals differ for an interval, so the "
                      "value is worded from the exact sign test", "sparse")  # fmt: skip


def _other_reading_text(other, main: dict | None, verb: str) -> tuple[str, bool]:
    """The 2-player value under the other reading of the second turn, beside the
    ruling's, and whether the two readings put it on different sides."""
    if other is None or other.is_empty() or main is None:
        return "", False
    y = by_count(other).get(2)
    if y is None:
        return "", False
    a, b = claim_key(main), claim_key(y)
    differ = a != b
    return (f" At 2 players the value rests on a ruling (docs/rules/pieceocake.md: a player "
            "who took a piece and finds none left forgoes, and may eat): under the ruling "
            f"the option to {verb} is {VALUE_WORDS[a]} ({value_text(main)}); under the other "
            f"reading ({OTHER_RULE}: the turn passes) it is {VALUE_WORDS[b]} "
            f"({value_text(y)}, {y['deals']:,} deals)"
            + ("; the two readings disagree, so no 2-player advice follows." if differ
               else "; both readings agree.")), differ  # fmt: skip


def _option_verdict(r: Results, key: str, question: str, verb: str, section: str,
                    used: tuple[str, str], best: str) -> Verdict | None:  # fmt: skip
    """The value of an option (``key``: ``forgo`` or ``fewer``) per count, the largest
    picked with its interval corrected for the pick (:func:`analysis.verdicts
    .largest_claim`), robust across fields where both were run. A value carried by a
    handful of deals is worded from its exact sign test (never from its interval) and
    never recommended on; the 2-player value is shown under both readings of the second
    turn when the study played the other."""
    t = r.tables.get(f"{key}_value")
    if t is None or t.is_empty():
        return None
    t = t.sort("players")
    rows = by_count(t)
    where = value_grouped(t, VALUE_WORDS)
    claim = largest_claim(t, "value_pp", "value_low", "value_high")
    top = int(claim["players"])
    x = rows[top]
    conds = r.tables.get(f"{key}_conditions", {})
    j = judge(conds.get(top, []), list(FIELDS))
    sparse_top = bool(x.get("sparse"))
    if sparse_top:
        j = _sparse_robustness(x)
    checked = [n for n, c in conds.items() if len(c) == len(FIELDS)]
    greedy = r.tables.get(f"{key}_value_greedy")
    sparse_at = {int(y["players"]) for tt in (t, greedy) if tt is not None
                 for y in tt.iter_rows(named=True) if y.get("sparse")}  # fmt: skip
    extra = ""
    if checked and top not in checked:
        m = checked[0]
        jm = judge(conds[m], list(FIELDS))
        said = ("not judged (a field's value rests on a handful of deals, without an "
                "interval)" if m in sparse_at else f"{jm.label} ({jm.detail})")  # fmt: skip
        extra = f" At {m} players, where every field was run: {said}."
    rate_table, measure, what = used
    rates = r.tables.get(rate_table)
    rare = []
    if rates is not None and not rates.is_empty():
        col = "estimate" if "measure" in rates.columns else measure
        sub = rates.filter(pl.col("measure") == measure) if "measure" in rates.columns else rates
        rare = [int(y["players"]) for y in sub.iter_rows(named=True) if y[col] < RARE]
    sparse = [n for n, y in rows.items() if y.get("sparse") and y.get("differ")]
    answer = (
        f"The option to {verb} is {where} (a seat that never does, against the same field on "
        f"the same deals; unrestricted minus restricted win share). It is largest at {top} "
        f"players: "
        + (value_text(x) if sparse_top else _picked(claim, "value_pp"))
        + "."
        + (f" At {counts_text(sparse)} fewer than 30 deals differ, so the value there is "
           "worded from the exact sign test over those deals, not from an interval."
           if sparse else "")
        + (f" The heuristic {what} in under {100 * RARE:g}% of chances at {counts_text(rare)}, "
           "so there the option is rarely used." if rare else "")
    )  # fmt: skip
    other_text, readings_differ = _other_reading_text(
        r.tables.get(f"{key}_value_other"), rows.get(2), verb
    )
    answer += other_text
    rec = ""
    if not sparse_top and not (top == 2 and readings_differ):
        who = f"a seat that may {verb} at {top} players (against one that never does)"
        if claim["sign"] > 0 and x["value_pp"] >= BIG_VALUE:
            rec = recommendation(claim, j, "a tactic worth explaining in the rules.", who=who,
                                 estimate="value_pp")  # fmt: skip
        elif claim["sign"] < 0:
            rec = recommendation(claim, j, f"players would do better never to {verb}: the "
                                 "option is a trap there.", who=who,
                                 estimate="value_pp")  # fmt: skip
    sweep = r.tables.get(best)
    if sweep is not None and not sweep.is_empty() and top in by_count(sweep):
        y = by_count(sweep)[top]
        param = best.removeprefix("best_")
        answer += (f" The best {param} value there is {y[f'best_{param}']:g} (held-out edge "
                   f"{ci(y['edge_pp'], y['edge_low'], y['edge_high'])}).")  # fmt: skip
    return Verdict(
        question=question,
        answer=answer,
        value=Estimate(
            f"value of the option to {verb} (unrestricted minus restricted win share)",
            x["value_pp"],
            x["value_low"],
            x["value_high"],
            int(x["deals"]),
            "deals",
            subject=f"a seat that may {verb}",
            players=top,
            field="heuristic",
            method="paired by deal",
        ),
        # a sparse value has no interval: the exact sign test is printed instead
        estimate=f"{value_text(x)} at {top} players" if sparse_top else "",
        size=clear_size(x["value_low"], x["value_high"]),
        robustness=j.label,
        recommendation=rec,
        section=section,
        detail=f"At {top} players: {j.detail}.{extra}",
    )


def forgo_verdict(r: Results) -> Verdict | None:
    """What is the option to forgo a cake worth?"""
    return _option_verdict(r, "forgo", "What is forgoing a cake worth?", "forgo",
                           "Forgoing", ("forgo_rates", "voluntary", "forgoes voluntarily"),
                           "best_margin")  # fmt: skip


def fewer_verdict(r: Results) -> Verdict | None:
    """What is cutting fewer pieces than players worth?"""
    return _option_verdict(r, "fewer", "What is cutting fewer pieces than the most allowed "
                           "worth?", "cut fewer pieces", "Cutting fewer",
                           ("cut_rates", "fewer_share", "cuts fewer pieces"),
                           "best_fewer")  # fmt: skip


def variety_verdict(r: Results) -> Verdict | None:
    """Which variety carries most of the winners' points?"""
    top = r.tables.get("top_variety")
    if top is None or top.is_empty():
        return None
    rows = by_count(top)
    main = main_count(rows, MAIN)
    x = rows[main]
    names = top["variety"].unique(maintain_order=True).to_list()
    lead = (f"{names[0]} carries the largest share of the winners' points at every player "
            "count" if len(names) == 1 else "The variety with the largest share of the "
            "winners' points depends on the count: " + "; ".join(
                f"{n}p {y['variety']}" for n, y in sorted(rows.items())))  # fmt: skip
    sep = [n for n, y in sorted(rows.items()) if y["separated"]]
    answer = (
        f"{lead[:1].upper()}{lead[1:]}. At {main} players {x['variety']} gives the winners "
        f"{_share(x)} of their "
        "points (majority value plus eaten cream)"
        + (f", ahead of {x['runner_up']} ({100 * x['runner_share']:.1f}%)" if x["separated"]
           else f", not separated from {x['runner_up']} ({100 * x['runner_share']:.1f}%)"
           if x["runner_up"] else "")
        + ". "
        + (f"The top variety's interval lies above the runner-up's at {counts_text(sep)}."
           if sep else "At no count does the top variety's interval clear the runner-up's.")
    )  # fmt: skip
    shares = r.tables.get("variety_shares")
    rec = ""
    if shares is not None and "cake_share" in shares.columns:
        m = shares.filter(pl.col("players") == main)
        above = m.filter(pl.col("share_low") > pl.col("cake_share"))["variety"].to_list()
        below = m.filter(pl.col("share_high") < pl.col("cake_share"))["variety"].to_list()
        if above or below:
            answer += (
                f" Against each variety's share of the cake's points (its value plus "
                f"all its cream), at {main} players the winners take more from "
                f"{listing(above) or 'none'} and less from {listing(below) or 'none'}."
            )
        else:
            answer += (
                f" At {main} players every variety's share of the winning points is "
                "within its interval of its share of the cake's points."
            )
        if x["variety"] in above and x["separated"]:
            y = m.filter(pl.col("variety") == x["variety"]).row(0, named=True)
            rec = (f"{x['variety']} carries more than its weight at {main} players "
                   f"({100 * y['share']:.0f}% of the winning points, {100 * y['cake_share']:.0f}% "
                   "of the cake's): the race for it decides games; its value or copies are the "
                   "lever.")  # fmt: skip
    return Verdict(
        question="Which variety carries the winning scores?",
        answer=answer,
        value=Estimate(
            "share of the winners' points",
            100 * x["share"],
            100 * x["share_low"],
            100 * x["share_high"],
            int(x["games"]),
            "games",
            unit="%",
            subject=x["variety"],
            players=main,
            field="heuristic",
            method="interval over games",
        ),
        robustness="not checked",
        recommendation=rec,
        section="Varieties",
        detail="Measured in the heuristic field only (the seats block).",
    )


def count_verdict(r: Results) -> Verdict | None:
    """Does the game hold up from 2 to 5 players? (seat balance and margins by count).

    The largest seat edge is picked from the whole seat table (every seat at every count),
    so it and every "a seat is off its fair share" claim are corrected over that family
    (:func:`analysis.verdicts.adjust_family`, :func:`~analysis.verdicts.largest_claim`);
    a recommendation states the direction from the sign and is never made where the seat
    verdict (the first server's edge across fields at that count) is not robust."""
    seat = r.tables.get("seat")
    if seat is None or seat.is_empty():
        return None
    seat = seat.sort("players", "seat")
    adjusted = adjust_family(seat, "edge_pp", "edge_low", "edge_high")
    claim = largest_claim(seat, "edge_pp", "edge_low", "edge_high")
    lo, hi = int(seat["players"].min()), int(seat["players"].max())
    answer = (
        seat_range_opening(seat, claim) + f", seat {claim['seat']}: "
        f"{_picked(claim, 'edge_pp', ' edges of every seat at every count')}."
    )
    unfair = sorted(
        {int(w["players"]) for w in adjusted.iter_rows(named=True)
         if sign(w["adj_low"], w["adj_high"]) != 0 and abs(w["edge_pp"]) >= BIG_EDGE}
    )  # fmt: skip
    count = r.tables.get("count")
    if count is not None and not count.is_empty():
        m = count.filter(pl.col("measure") == "margin").sort("players")
        if m.height:
            answer += margin_sentence(m["players"], m["estimate"])
    answer += (f" A seat is at least {BIG_EDGE:g} pp off its fair share (interval, corrected "
               f"over the {claim['family']} seat edges, clear of it) at "
               f"{counts_text(unfair)}." if unfair else
               f" No seat is {BIG_EDGE:g} pp or more off its fair share with an interval "
               f"(corrected over the {claim['family']} seat edges) clear of it.")  # fmt: skip
    n = int(claim["players"])
    found = r.tables.get("first_conditions", {})
    seat_robust = judge(found.get(n, []), list(FIELDS)) if found else None
    rec = ""
    if abs(claim["edge_pp"]) >= BIG_EDGE:
        rec = recommendation(
            claim, seat_robust, f"seat order matters at {n} players; compensate "
            + (f"the other seats for seat {claim['seat']}'s edge." if claim["sign"] > 0
               else f"seat {claim['seat']}."),
            who=f"seat {claim['seat']} at {n} players",
        )  # fmt: skip
    detail = ("Seat edges in the heuristic field; the first server's in every field is on "
              "the seat pages.")  # fmt: skip
    if seat_robust is not None and not seat_robust.robust and abs(claim["edge_pp"]) >= BIG_EDGE:
        detail += (f" No recommendation at {n} players: the seat verdict there is "
                   f"not robust ({seat_robust.detail}).")  # fmt: skip
    return Verdict(
        question=f"Does the game hold up from {lo} to {hi} players?",
        answer=answer,
        size=clear_size(claim["adj_low"], claim["adj_high"]),
        value=edge_claim(claim, f"seat {claim['seat']}", field="heuristic"),
        robustness=seat_robust.label if seat_robust is not None else "not checked",
        recommendation=rec,
        section="Player count",
        detail=detail,
    )


def exact_verdict(r: Results) -> Verdict | None:
    """What does exact-N cutting (New York Slice's rule) change?"""
    t = r.tables.get("exact_change")
    if t is None or t.is_empty():
        return None
    first = t.filter(pl.col("measure") == "first_edge")
    rows = by_count(first)
    words = {"above": "rises", "below": "falls", "covers": "does not move measurably",
             "none": "has no interval"}  # fmt: skip
    where = grouped(list(rows), [x["change_low"] for x in rows.values()],
                    [x["change_high"] for x in rows.values()], words)  # fmt: skip
    top = max(rows, key=lambda n: abs(rows[n]["change"]))
    x = rows[top]
    same = [n for n, y in rows.items() if y["change_low"] == y["change_high"] == 0]
    answer = (
        f"When the server must cut exactly the most pieces allowed, the first server's edge "
        f"{where}; the largest change is at {top} players, from {x['before']:+.1f} to "
        f"{x['after']:+.1f} pp."
        + (f" At {counts_text(same)} the heuristic already cuts the most pieces, so the games "
           "are identical." if same else "")
    )  # fmt: skip
    nys = r.tables.get("nyslice_summary")
    if nys is not None and not nys.is_empty() and top in by_count(nys):
        y = by_count(nys)[top]
        answer += (f" New York Slice's first slicer at {top} players: "
                   f"{ci(y['first_edge_pp'], y['first_low'], y['first_high'])}.")  # fmt: skip
    rec = ""
    shrinks = [n for n, y in rows.items()
               if sign(y["change_low"], y["change_high"]) != 0
               and abs(y["after"]) < abs(y["before"])]  # fmt: skip
    if shrinks:
        rec = (f"Exact-N cutting shrinks the first server's edge at "
               f"{counts_text(sorted(shrinks))}: worth considering as a variant "
               "there.")  # fmt: skip
    return Verdict(
        question="What does exact-N cutting (New York Slice's rule) change?",
        answer=answer,
        value=change_estimate(
            x,
            "change in the first server's edge",
            subject="exact-N cutting",
            field="heuristic",
            rules="exact-N cutting against the printed rule",
            method="paired by game (the same cake)",
        ),
        robustness="not checked",
        recommendation=rec,
        section="New York Slice",
        detail="Paired by game (the same cake) in the heuristic field only.",
    )


def _search_sentence(gaps: pl.DataFrame, main: int) -> str:
    """The search player against the heuristic at ``main`` players, when both were rated:
    whether a deeper player beats the equilibrium field, read from the gap's interval."""
    is_search = pl.col("a").str.starts_with("search") | pl.col("b").str.starts_with("search")
    is_heur = pl.col("a").str.starts_with("heuristic") | pl.col("b").str.starts_with("heuristic")
    g = gaps.filter((pl.col("players") == main) & is_search & is_heur)
    if g.is_empty():
        return ""
    x = g.row(0, named=True)
    gap, low, high = x["gap"], x["low"], x["high"]
    if not x["a"].startswith("search"):  # a is the higher rated: orient as search - heuristic
        gap, low, high = -gap, -high, -low
    est = ci(gap, low, high, "Elo", "+.0f")
    if sign(low, high) > 0:
        return (f" The search player is rated {est} relative to the heuristic: a deeper player "
                "beats the equilibrium field, so the verdicts describe play at the "
                "heuristic's level, not best play.")  # fmt: skip
    if sign(low, high) < 0:
        return f" The search player is rated {est} relative to the heuristic: below it."
    return (f" The search player is rated {est} relative to the heuristic: not shown to "
            "differ.")  # fmt: skip


def ratings_verdict(r: Results) -> Verdict | None:
    """How strong are the players behind the numbers?"""
    gaps = r.tables.get("rating_gaps")
    if gaps is None or gaps.is_empty():
        return None
    return strength_verdict(
        gaps, prefer=MAIN, a="heuristic", b="greedy", who="the heuristic",
        win=" (it finishes ahead of greedy {} of the time)",
        closing=": the verdicts above rest on the heuristic, not on a one-step greedy player."
        + _search_sentence(gaps, main_count(gaps["players"], MAIN)),
        subject="heuristic − greedy",
        detail="Plackett–Luce ratings from the mixed tables of the ladder and ladder-search "
        "blocks.",
    )  # fmt: skip


VERDICTS = (
    first_server_verdict,
    theta_verdict,
    forgo_verdict,
    fewer_verdict,
    variety_verdict,
    count_verdict,
    exact_verdict,
    ratings_verdict,
)


verdicts = Questions(VERDICTS)
"""Every verdict the study's data supports, in reading order."""
