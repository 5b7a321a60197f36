"""New York Slice's page 1: one plain-language verdict per question, each computed from
the numbers it states, with its interval, its n and its unit, how robust it is across
fields and plausible decks (:mod:`analysis.nyslice.robustness`), and a recommendation
that follows from the numbers (or none).

Each ``*_verdict`` function reads the tables the report's sections computed
(:class:`analysis.sections.Results`) and returns a :class:`~analysis.sections.Verdict`,
or ``None`` when the study lacks what it needs.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.estimates import Estimate, edge_claim, held_out_theta
from analysis.formats import ci
from analysis.nyslice.robustness import seat_edge
from analysis.prose import counts_text, listing, margin_sentence
from analysis.robust import judge, sign
from analysis.seat_question import SeatQuestion, first_edges, seat_verdict
from analysis.sections import Results, Verdict
from analysis.sweep_section import held_out_gain
from analysis.variant import data_label
from analysis.verdicts import (
    Questions,
    adjust_family,
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
"""The player count of the single-count verdicts (the game's usual table)."""
FIELD = "equilibrium heuristic"
"""Who plays the main field's games (:attr:`analysis.estimates.Estimate.field`)."""
SPECIAL_WORTH = "worth to a seat that may receive it (points a game it is in play)"
"""What a special's value measures (:attr:`analysis.estimates.Estimate.quantity`)."""
BIG_EDGE = 2.0
"""A seat edge (pp) a designer should act on when it is robust: at 4 players a seat's fair
share is 25%, and 2 pp is one game in fifty changing hands."""
STRONG_SPECIAL = 1.0
"""A special's worth (points to a seat that may receive it, in a game where it is in play)
that marks the largest one as worth weakening (or, below minus it, strengthening), when its
family-corrected interval clears 0 and it is robust: at 4 players a point is about 4 pp of
that seat's win share in those games (measured)."""


def _name(slug: str) -> str:
    return slug.replace("_", " ")


def _tag(r: Results, key: str, found: dict) -> tuple[str, str]:
    """Robustness label and detail of one headline key."""
    conds = found.get(key, [])
    j = judge(conds, list(r.conditions_expected))
    return j.label, j.detail


SEATS = SeatQuestion(
    question="Is the first slicer favoured?",
    first="the first slicer",
    who="the equilibrium heuristic",
    field=FIELD,
    checked="field and plausible deck",
    method="t interval over games",
    big_edge=BIG_EDGE,
    remedy="a compensation rule in favour of {favoured} is worth testing",
)
"""New York Slice's seat question (:mod:`analysis.seat_question`)."""


def _comp_effect(r: Results, players: int) -> str:
    """What one point for the first slicer measured at a count (its what-if's own deals,
    fewer than the seat block's: its "before" differs from the seat estimate by their
    noise, so the clause says which deals)."""
    comp = r.tables.get("comp_change")
    if comp is None or comp.is_empty():
        return ""
    rows = comp.filter(pl.col("players") == players)
    if rows.is_empty():
        return ""
    c = rows.row(0, named=True)
    return (f"; one point for the first slicer moves its edge from {c['before']:+.1f} to "
            f"{c['after']:+.1f} pp (on the {c['n']:,} deals played both ways)")  # fmt: skip


def first_slicer_verdict(r: Results) -> Verdict | None:
    """Is the first slicer favoured? (equilibrium field; the largest first-slicer edge over
    the player counts, corrected for picking it, judged across fields and decks)."""
    f = r.tables.get("fairness")
    if f is None or f.is_empty():
        return None
    found = r.first_conditions
    return seat_verdict(
        SEATS,
        first_edges(f),
        lambda n, _: found.get(n, []),
        lambda n, _: list(r.conditions_expected),
        data=data_label(r.manifest, "the default deck"),
        whatif=lambda n: _comp_effect(r, n),
    )


def signed(v: float) -> str:
    """``+0.7``, never ``-0.0``."""
    text = f"{v:+.1f}"
    return "+0.0" if text == "-0.0" else text


def _sparse_note(x: dict) -> str:
    """Where too few deals carry an effect for its interval: the exact sign test instead."""
    if not x.get("sparse"):
        return ""
    return (
        f" Only {x['nonzero']} of its {x['in_play']} deals differ, too few for the interval: "
        f"the exact sign test gives p = {x['sign_p']:.2g}."
    )


def special_verdict(r: Results) -> Verdict | None:
    """Which specials are worth most to whoever may receive them? (the forfeit worth at
    MAIN, in points a game the special is in play; Holm over the specials of the count)."""
    t = r.tables.get("forfeit")
    if t is None or t.is_empty():
        return None
    main = main_count(t["players"], MAIN)
    s = t.filter(pl.col("players") == main).sort("points", descending=True)
    claim = largest_claim(s, "points", "points_low", "points_high")
    worst = s.row(-1, named=True)
    found = r.special_conditions
    expected = list(r.conditions_expected)
    judged = {x: judge(found.get(x, []), expected) for x in s["special"]}
    robust_pos = [x for x, j in judged.items() if j.sign > 0]
    robust_neg = [x for x, j in judged.items() if j.sign < 0]
    positive = s.filter(pl.col("holm_sign") > 0)["special"].to_list()
    negative = s.filter(pl.col("holm_sign") < 0)["special"].to_list()
    size = ci(claim["points"], claim["adj_low"], claim["adj_high"], "points")
    largest = (
        f"the largest is {_name(claim['special'])}, {size} (corrected for picking the largest "
        f"of {claim['family']})"
        + (
            ""
            if claim["sign"]
            else ": the corrected interval covers 0, so no special stands out as the largest"
        )
    )
    answer = (
        f"At {main} players, what being able to receive a special is worth (a seat that may "
        "receive it minus one that never does: it takes portions as it likes and forfeits "
        "the tile; against the equilibrium field on the same deals, in points a game the "
        f"special is in play): {largest}. {len(positive)} of {s.height} specials "
        f"{'is' if len(positive) == 1 else 'are'} worth having (Holm over the {s.height})"
        + (
            f", {len(negative)} {'costs' if len(negative) == 1 else 'cost'} whoever receives "
            f"{'it' if len(negative) == 1 else 'them'} ({listing(_name(x) for x in negative)})"
            if negative
            else ""
        )
        + f"; the least valuable is {_name(worst['special'])} "
        f"({ci(worst['points'], worst['points_low'], worst['points_high'], 'points')}). "
        + (
            f"Robust in every field and deck: {listing(_name(x) for x in robust_pos)} worth having"
            if robust_pos
            else "No special's worth is robust in every field and deck"
        )
        + (f"; {listing(_name(x) for x in robust_neg)} costly." if robust_neg else ".")
        + _sparse_note(claim)
    )
    label, detail = _tag(r, claim["special"], found)
    rec = ""
    if abs(claim["points"]) >= STRONG_SPECIAL:
        action = (
            "if that is more than intended, a candidate for weakening"
            if claim["sign"] > 0
            else "a tile players should learn to refuse, or one to strengthen"
        )
        rec = recommendation(
            claim, judged.get(claim["special"]), action,
            who=f"{_name(claim['special'])} at {main} players", estimate="points",
            unit="points", ahead="worth more than no tile", behind="worth less than no tile",
        )  # fmt: skip
        ssc = r.tables.get("ssc_change")
        if rec and claim["special"] == "super_sized_combos" and ssc is not None:
            m = ssc.filter(pl.col("players") == main)
            if m.height:
                c = m.row(0, named=True)
                rec += (
                    f" (counting each Super-Sized combo 1½ instead of 2 moves its worth at "
                    f"{main} players from {signed(c['before'])} to "
                    f"{signed(c['after'])} points)"
                )
        rec += "." if rec else ""
    return Verdict(
        question="Which Today's Specials are strongest?",
        answer=answer,
        value=Estimate(
            SPECIAL_WORTH,
            claim["points"],
            claim["adj_low"],
            claim["adj_high"],
            int(claim["in_play"]),
            "deals",
            unit="points",
            subject=_name(claim["special"]),
            players=main,
            field=FIELD,
            data=data_label(r.manifest, "the default deck"),
            method="paired by deal against a seat that never receives it",
            family=int(claim["family"]),
        ),
        robustness=label,
        recommendation=rec,
        section="Specials",
        detail=f"{_name(claim['special'])}: {detail}.",
    )


def overpay_verdict(r: Results) -> Verdict | None:
    """Do the players overpay for specials? (value to the taker vs own points, MAIN)."""
    st, own = r.tables.get("strength"), r.tables.get("own")
    if st is None or own is None or st.is_empty() or own.is_empty():
        return None
    main = main_count(st["players"], MAIN)
    j = st.filter(pl.col("players") == main).join(
        own.filter(pl.col("players") == main).select("special", "own_points", "own_pp"),
        on="special",
        how="inner",
    )
    j = adjust_family(j, "effect_pp", "effect_low", "effect_high")
    over = j.filter((pl.col("own_points") > 0) & (pl.col("holm_sign") < 0)).sort("effect_pp")
    if over.is_empty():
        answer = (
            f"At {main} players no special with positive own points leaves its taker "
            f"worse off than a blank tile would (Holm over the {j.height} specials)."
        )
        x = j.sort("effect_pp").row(0, named=True)
    else:
        x = over.row(0, named=True)
        answer = (
            f"At {main} players {over.height} special{'s' if over.height != 1 else ''} with "
            f"positive own points leave{'s' if over.height == 1 else ''} the player who takes "
            f"{'it' if over.height == 1 else 'them'} worse off than a blank tile would: "
            + listing(
                f"{_name(y['special'])} (own points {y['own_points']:+.1f}, value to "
                f"the taker {y['effect_pp']:+.1f} pp)"
                for y in over.iter_rows(named=True)
            )
            + f" (Holm over the {j.height} specials). The players give up more for these "
            "tiles than they are worth."
        )
    return Verdict(
        question="Do players pay too much for specials?",
        answer=answer,
        value=Estimate(
            "value to the player who takes it, over a blank tile",
            x["effect_pp"],
            x["adj_low"],
            x["adj_high"],
            int(x["games"]),
            "games",
            subject=_name(x["special"]),
            players=main,
            field=FIELD,
            data=data_label(r.manifest, "the default deck"),
            method="t interval over games",
            family=int(x["family"]),
        ),
        size=clear_size(x["adj_low"], x["adj_high"]),
        robustness="not checked",
        recommendation=(
            "Rulebook or card text could say what these tiles are worth."
            if not over.is_empty()
            else ""
        ),
        section="Specials",
        detail="Value to the taker is measured in the equilibrium field on "
        f"{data_label(r.manifest, 'the default deck')} only.",
    )


def theta_verdict(r: Results) -> Verdict | None:
    """When is eating better than collecting? (best θ and its set at MAIN)."""
    b = r.tables.get("best_theta")
    if b is None or b.is_empty():
        return None
    main = main_count(b["players"], MAIN)
    x = b.filter(pl.col("players") == main).row(0, named=True)
    members = "–".join(f"{v:g}" for v in (min(x["theta_set"]), max(x["theta_set"])))
    table, common, missing = r.theta_sets
    answer = (
        f"At {main} players eat a slice when eating it is worth more than about "
        f"{x['best_theta']:g} times collecting it (θ from {members} is not significantly "
        "worse than the best). "
        + held_out_gain(x, "θ")
        + ("." if x["edge_low"] > 0 else ": the equilibrium players already eat about right.")
    )
    label, detail = theta_robustness(
        common, missing, table.height, "conditions",
        "no θ is in the not-worse set of every field and deck",
    )  # fmt: skip
    rec = ""
    if x["edge_low"] > 0:
        rec = (
            f"Against the equilibrium field a player gains by eating at θ ≈ "
            f"{x['best_theta']:g}: a strategy tip worth printing."
        )
    return Verdict(
        question="When is eating a slice better than collecting it?",
        answer=answer,
        value=held_out_theta(x, main, "equilibrium heuristic"),
        robustness=label,
        recommendation=rec,
        section="Eat or collect",
        detail=detail + ".",
    )


def count_verdict(r: Results) -> Verdict | None:
    """Does the game hold up from 2 to 6 players? (seat balance by count). The largest seat
    edge is picked from every seat of every count, so it is corrected over the whole seat
    table (:func:`analysis.verdicts.largest_claim`), and a recommendation needs that
    corrected interval clear of 0 and that seat's edge robust across the fields and decks
    (:func:`analysis.nyslice.robustness.seat_edge`)."""
    seat = r.tables.get("seat")
    if seat is None or seat.is_empty():
        return None
    claim = largest_claim(seat, "edge_pp", "edge_low", "edge_high")
    size = ci(claim["edge_pp"], claim["adj_low"], claim["adj_high"])
    answer = (
        seat_range_opening(seat, claim) + f" (seat {claim['seat']}, {size}, "
        f"corrected for picking the largest of the {claim['family']} seats of the table"
        + ("" if claim["sign"] else ": the corrected interval covers 0")
        + ")."
    )
    count = r.tables.get("count")
    if count is not None and "margin" in count.columns:
        m = count.sort("players")
        answer += margin_sentence(m["players"], m["margin"])
    rec, robust = "", None
    key = (int(claim["players"]), int(claim["seat"]))
    conds = (r.tables.get("seat_conditions") or {}).get(key)  # given (tests), else measured
    if conds is None and r.out is not None and (Path(r.out) / "manifest.json").exists():
        conds = seat_edge(r.out, *key)
    if conds:
        robust = judge(conds, list(r.conditions_expected))
    if robust is not None and not robust.robust and claim["sign"]:
        answer += (
            f" Across the fields and decks checked seat {claim['seat']}'s edge there is not "
            f"robust ({robust.label.removeprefix('not robust: ')}), so no compensation is "
            "recommended from it."
        )
    if abs(claim["edge_pp"]) >= BIG_EDGE:
        rec = recommendation(
            claim, robust, "the seat pages show which seat to compensate, and how much.",
            who=f"seat {claim['seat']} at {claim['players']} players",
        )  # fmt: skip
    return Verdict(
        question="Does the game hold up from 2 to 6 players?",
        answer=answer,
        value=edge_claim(claim, f"seat {claim['seat']}", field=FIELD),
        size=clear_size(claim["adj_low"], claim["adj_high"]),
        robustness=robust.label if robust is not None else "not checked",
        recommendation=rec,
        section="Player count",
        detail="The seat edges by field and deck are on the seat pages; the interval is "
        f"corrected over the {claim['family']} seats of the table"
        + (
            f"; seat {claim['seat']}'s edge in every field and deck: {robust.detail}."
            if robust is not None
            else "."
        ),  # fmt: skip
    )


def _change_value(c: dict) -> Estimate:
    """The first candidate change's effect as data: the first slicer's edge (pp) for the
    compensation, the special's worth (points) for Super-Sized combos."""
    points = c["measure"] == "worth"
    return change_estimate(
        c,
        "change in the special's worth" if points else "change in the first slicer's edge",
        subject="the candidate rule",
        field=FIELD,
        method="paired by deal",
    )


def whatif_verdict(r: Results) -> Verdict | None:
    """What would the candidate rule changes do?"""
    comp, ssc = r.tables.get("comp_change"), r.tables.get("ssc_change")
    parts, first = [], None
    if comp is not None and not comp.is_empty():
        for c in comp.iter_rows(named=True):
            parts.append(
                f"one point for the first slicer moves its edge at {c['players']} "
                f"players from {c['before']:+.1f} to {c['after']:+.1f} pp "
                f"(change {ci(c['change'], c['change_low'], c['change_high'])})"
            )
            first = first or c
    if ssc is not None and not ssc.is_empty():
        m = ssc.filter(pl.col("players") == MAIN)
        c = m.row(0, named=True) if m.height else ssc.row(0, named=True)
        parts.append(
            f"counting each Super-Sized combo 1½ instead of 2 moves that special's worth at "
            f"{c['players']} players from {signed(c['before'])} to "
            f"{signed(c['after'])} points (change "
            f"{ci(c['change'], c['change_low'], c['change_high'], 'points')})"
        )
        first = first or c
    if not parts:
        return None
    text = parts[0][0].upper() + parts[0][1:]
    answer = text + ("; " + "; ".join(parts[1:]) if len(parts) > 1 else "") + "."
    overshoot = [
        c["players"]
        for c in (comp.iter_rows(named=True) if comp is not None else [])
        if sign(c["before_low"], c["before_high"]) * sign(c["after_low"], c["after_high"]) < 0
    ]
    rec = (
        f"One point overcorrects at {counts_text(overshoot)} (the sign flips): a smaller "
        "compensation, such as winning ties, is worth testing."
        if overshoot
        else ""
    )
    return Verdict(
        question="What would the candidate rule changes do?",
        answer=answer,
        value=_change_value(first),
        robustness="not checked",
        recommendation=rec,
        section="What-if rule changes",
        detail="Each change is measured in the equilibrium field on "
        f"{data_label(r.manifest, 'the default deck')}.",
    )


def ratings_verdict(r: Results) -> Verdict | None:
    """How much stronger are the players behind the numbers than simpler ones?"""
    return strength_verdict(
        r.tables.get("rating_gaps"),
        prefer=MAIN,
        a="heuristic",
        b="greedy",
        who="the equilibrium heuristic",
        win=" (it would win {} of head-to-head games)",
        closing=": the verdicts above rest on players far stronger than a one-step greedy one.",
        subject="equilibrium heuristic − greedy",
        detail="Plackett–Luce ratings from the mixed tables of the ladder block.",
    )


VERDICTS = (
    first_slicer_verdict,
    special_verdict,
    overpay_verdict,
    theta_verdict,
    count_verdict,
    whatif_verdict,
    ratings_verdict,
)


verdicts = Questions(VERDICTS)
"""Every verdict the study's data supports, in reading order."""
