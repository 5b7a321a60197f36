"""New York Slice's page 1: one plain-language verdict per question, each computed from
the numbers it states, with its interval, its n and its unit, how robust it is across
fields and plausible decks (:mod:`analysis.nyslice.robustness`), and a recommendation
that follows from the numbers (or none).

Each ``*_verdict`` function reads the tables the report's sections computed
(:class:`analysis.sections.Results`) and returns a :class:`~analysis.sections.Verdict`,
or ``None`` when the study lacks what it needs.
"""

from __future__ import annotations

import math

import polars as pl

from analysis.pdf import ci
from analysis.prose import chance, listing
from analysis.robust import judge, sign
from analysis.sections import Results, Verdict

MAIN = 4
"""The player count of the single-count verdicts (the game's usual table)."""
BIG_EDGE = 2.0
"""A seat edge (pp) a designer should act on when it is robust: at 4 players a seat's fair
share is 25%, and 2 pp is one game in fifty changing hands."""
STRONG_SPECIAL = 5.0
"""A restricted-play value (pp) that marks a special as worth weakening when robust."""


def _name(slug: str) -> str:
    return slug.replace("_", " ")


def _counts(ns: list[int]) -> str:
    return listing(str(n) for n in ns) + " players"


def _tag(r: Results, key: str, found: dict) -> tuple[str, str]:
    """Robustness label and detail of one headline key."""
    conds = found.get(key, [])
    j = judge(conds, list(r.conditions_expected))
    return j.label, j.detail


def first_slicer_verdict(r: Results) -> Verdict | None:
    """Is the first slicer favoured? (equilibrium field; robustness per player count)."""
    f = r.tables.get("fairness")
    if f is None or f.is_empty():
        return None
    rows = {x["players"]: x for x in f.iter_rows(named=True)}
    behind = [n for n, x in rows.items() if sign(x["first_low"], x["first_high"]) < 0]
    ahead = [n for n, x in rows.items() if sign(x["first_low"], x["first_high"]) > 0]
    level = [n for n in rows if n not in behind and n not in ahead]
    parts = []
    if behind:
        parts.append(f"behind at {_counts(behind)}")
    if ahead:
        parts.append(f"ahead at {_counts(ahead)}")
    if level:
        parts.append(f"level within the interval at {_counts(level)}")
    found = r.first_conditions
    robust = [
        n for n in sorted(rows) if judge(found.get(n, []), list(r.conditions_expected)).robust
    ]
    main = MAIN if MAIN in rows else max(rows)
    x = rows[main]
    label, detail = _tag(r, main, found)
    answer = (
        f"With the equilibrium heuristic in every seat the first slicer is {listing(parts)} "
        "(first slicer minus the mean of the other seats). "
        + (
            f"The sign holds in every field and plausible deck at {_counts(robust)}."
            if robust
            else "At no player count does the sign hold in every field and plausible deck."
        )
    )
    big = [n for n in robust if abs(rows[n]["first_edge_pp"]) >= BIG_EDGE]
    rec = ""
    if big:
        rec = (
            f"The first slicer's edge is robust and at least {BIG_EDGE:g} pp at "
            f"{_counts(big)}: a compensation rule is worth testing"
        )
        comp = r.tables.get("comp_change")
        if comp is not None and not comp.is_empty():
            moves = [
                f"at {c['players']} players from {c['before_pp']:+.1f} to {c['after_pp']:+.1f} pp"
                for c in comp.iter_rows(named=True)
            ]
            rec += f"; one point for the first slicer moves its edge {listing(moves)}"
        rec += "."
    return Verdict(
        question="Is the first slicer favoured?",
        answer=answer,
        estimate=f"{ci(x['first_edge_pp'], x['first_low'], x['first_high'])} at {main} players",
        n=int(x["games"]),
        n_unit="games",
        robustness=label,
        recommendation=rec,
        section="Seats",
        detail=f"At {main} players: {detail}.",
    )


def special_verdict(r: Results) -> Verdict | None:
    """Which specials are worth most under good play? (restricted-play value at MAIN)."""
    t = r.tables.get("restricted")
    if t is None or t.is_empty():
        return None
    counts = sorted(t["players"].unique())
    main = MAIN if MAIN in counts else counts[-1]
    s = t.filter(pl.col("players") == main).sort("value_pp", descending=True)
    best, worst = s.row(0, named=True), s.row(-1, named=True)
    found = r.special_conditions
    expected = list(r.conditions_expected)
    robust_pos = [
        x["special"]
        for x in s.iter_rows(named=True)
        if judge(found.get(x["special"], []), expected).sign > 0
    ]
    robust_neg = [
        x["special"]
        for x in s.iter_rows(named=True)
        if judge(found.get(x["special"], []), expected).sign < 0
    ]
    positive = s.filter(pl.col("value_low") > 0)["special"].to_list()
    negative = s.filter(pl.col("value_high") < 0)["special"].to_list()
    answer = (
        f"At {main} players the option worth most is {_name(best['special'])}: a seat that "
        f"may not take or use it wins {best['value_pp']:.1f} pp less. "
        f"{len(positive)} of {s.height} specials are worth having (interval above 0)"
        + (
            f", {len(negative)} {'is' if len(negative) == 1 else 'are'} worth avoiding "
            f"({listing(_name(x) for x in negative)})"
            if negative
            else ""
        )
        + f"; the weakest option is {_name(worst['special'])} "
        f"({ci(worst['value_pp'], worst['value_low'], worst['value_high'])}). "
        + (
            f"Robust in every field and deck: {listing(_name(x) for x in robust_pos)} worth having"
            if robust_pos
            else "No special's value is robust in every field and deck"
        )
        + (f"; {listing(_name(x) for x in robust_neg)} worth avoiding." if robust_neg else ".")
    )
    label, detail = _tag(r, best["special"], found)
    strong = [
        x for x in robust_pos if s.filter(pl.col("special") == x)["value_pp"][0] >= STRONG_SPECIAL
    ]
    rec = ""
    if strong:
        rec = (
            f"{listing(_name(x) for x in strong)} {'is' if len(strong) == 1 else 'are'} "
            f"worth at least {STRONG_SPECIAL:g} pp in every condition: a candidate for "
            "weakening"
        )
        ssc = r.tables.get("ssc_change")
        if "super_sized_combos" in strong and ssc is not None and not ssc.is_empty():
            m = ssc.filter(pl.col("players") == main)
            if m.height:
                c = m.row(0, named=True)
                rec += (
                    f" (counting each Super-Sized combo 1½ instead of 2 moves its value at "
                    f"{main} players from {c['before_pp']:+.1f} to {c['after_pp']:+.1f} "
                    "pp)"
                )
        rec += "."
    if robust_neg:
        rec += (" " if rec else "") + (
            f"{listing(_name(x) for x in robust_neg)} hurt{'s' if len(robust_neg) == 1 else ''} "
            "whoever takes it in every condition: a tile players should learn to refuse, or "
            "one to strengthen."
        )
    return Verdict(
        question="Which Today's Specials are strongest?",
        answer=answer,
        estimate=(
            f"{_name(best['special'])}: "
            f"{ci(best['value_pp'], best['value_low'], best['value_high'])}"
        ),
        n=int(best["deals"]),
        n_unit="deals",
        robustness=label,
        recommendation=rec,
        section="Specials",
        detail=f"{_name(best['special'])}: {detail}.",
    )


def overpay_verdict(r: Results) -> Verdict | None:
    """Do the players overpay for specials? (value to the taker vs own points, MAIN)."""
    st, own = r.tables.get("strength"), r.tables.get("own")
    if st is None or own is None or st.is_empty() or own.is_empty():
        return None
    counts = sorted(st["players"].unique())
    main = MAIN if MAIN in counts else counts[-1]
    j = st.filter(pl.col("players") == main).join(
        own.filter(pl.col("players") == main).select("special", "own_points", "own_pp"),
        on="special",
        how="inner",
    )
    over = j.filter((pl.col("own_points") > 0) & (pl.col("effect_high") < 0)).sort("effect_pp")
    if over.is_empty():
        answer = (
            f"At {main} players no special with positive own points leaves its taker "
            "worse off than a blank tile would."
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
            + ". The players give up more for these tiles than they are worth."
        )
    return Verdict(
        question="Do players pay too much for specials?",
        answer=answer,
        estimate=f"{_name(x['special'])}: {ci(x['effect_pp'], x['effect_low'], x['effect_high'])}",
        n=int(x["games"]),
        n_unit="games",
        robustness="not checked",
        recommendation=(
            "Rulebook or card text could say what these tiles are worth."
            if not over.is_empty()
            else ""
        ),
        section="Specials",
        detail="Value to the taker is measured in the equilibrium field on the default deck only.",
    )


def theta_verdict(r: Results) -> Verdict | None:
    """When is eating better than collecting? (best θ and its set at MAIN)."""
    b = r.tables.get("best_theta")
    if b is None or b.is_empty():
        return None
    counts = sorted(b["players"].unique())
    main = MAIN if MAIN in counts else counts[-1]
    x = b.filter(pl.col("players") == main).row(0, named=True)
    members = "–".join(f"{v:g}" for v in (min(x["theta_set"]), max(x["theta_set"])))
    table, common, missing = r.theta_sets
    answer = (
        f"At {main} players eat a slice when eating it is worth more than about "
        f"{x['best_theta']:g} times collecting it (θ from {members} is not significantly "
        "worse than the best). "
        + (
            f"Choosing θ this way gains {ci(x['edge_pp'], x['edge_low'], x['edge_high'])} over "
            "the fair share on deals not used to pick it."
            if x["edge_low"] > 0
            else "On deals not used to pick it, choosing θ this way gains nothing measurable over "
            f"the fair share ({ci(x['edge_pp'], x['edge_low'], x['edge_high'])}): the "
            "equilibrium players already eat about right."
        )
    )
    if common and not missing:
        label = "robust"
        detail = (
            f"θ = {listing(f'{c:g}' for c in common)} is in the not-worse set in all "
            f"{table.height} conditions"
        )
    elif common:
        label = "not fully checked"
        detail = (
            f"θ = {listing(f'{c:g}' for c in common)} is in every computed set, but not "
            f"checked in {listing(missing)}"
        )
    else:
        label = "not robust: no common θ"
        detail = "no θ is in the not-worse set of every field and deck"
    rec = ""
    if x["edge_low"] > 0:
        rec = (
            f"Against the equilibrium field a player gains by eating at θ ≈ "
            f"{x['best_theta']:g}: a strategy tip worth printing."
        )
    return Verdict(
        question="When is eating a slice better than collecting it?",
        answer=answer,
        estimate=(
            f"best θ {x['best_theta']:g}; held-out edge "
            f"{ci(x['edge_pp'], x['edge_low'], x['edge_high'])}"
        ),
        n=int(x["deals"]),
        n_unit="deals",
        robustness=label,
        recommendation=rec,
        section="Eat or collect",
        detail=detail + ".",
    )


def count_verdict(r: Results) -> Verdict | None:
    """Does the game hold up from 2 to 6 players? (seat balance by count)."""
    seat = r.tables.get("seat")
    if seat is None or seat.is_empty():
        return None
    worst = (
        seat.with_columns(pl.col("edge_pp").abs().alias("abs"))
        .sort("abs", descending=True)
        .group_by("players", maintain_order=True)
        .first()
        .sort("abs")
    )
    best_n, worst_n = worst.row(0, named=True), worst.row(-1, named=True)
    answer = (
        f"The largest seat edge (a seat's win share minus the fair share) is smallest at "
        f"{best_n['players']} players ({best_n['edge_pp']:+.1f} pp, seat {best_n['seat']}) "
        f"and largest at {worst_n['players']} players ({worst_n['edge_pp']:+.1f} pp, seat "
        f"{worst_n['seat']})."
    )
    count = r.tables.get("count")
    if count is not None and "margin" in count.columns:
        m = count.sort("players")
        answer += (
            f" The winning margin runs from {m['margin'][0]:.1f} points at "
            f"{m['players'][0]} players to {m['margin'][-1]:.1f} at {m['players'][-1]}."
        )
    rec = ""
    if abs(worst_n["edge_pp"]) >= BIG_EDGE:
        rec = (
            f"Seat order matters most at {worst_n['players']} players; the seat pages show "
            "which seat to compensate."
        )
    return Verdict(
        question="Does the game hold up from 2 to 6 players?",
        answer=answer,
        estimate=(
            f"{worst_n['players']} players, seat {worst_n['seat']}: "
            f"{ci(worst_n['edge_pp'], worst_n['edge_low'], worst_n['edge_high'])}"
        ),
        n=int(worst_n["games"]),
        n_unit="games",
        robustness="not checked",
        recommendation=rec,
        section="Player count",
        detail="The seat edges by field and deck are on the seat pages.",
    )


def whatif_verdict(r: Results) -> Verdict | None:
    """What would the candidate rule changes do?"""
    comp, ssc = r.tables.get("comp_change"), r.tables.get("ssc_change")
    parts, first = [], None
    if comp is not None and not comp.is_empty():
        for c in comp.iter_rows(named=True):
            parts.append(
                f"one point for the first slicer moves its edge at {c['players']} "
                f"players from {c['before_pp']:+.1f} to {c['after_pp']:+.1f} pp "
                f"(change {ci(c['change_pp'], c['change_low'], c['change_high'])})"
            )
            first = first or c
    if ssc is not None and not ssc.is_empty():
        m = ssc.filter(pl.col("players") == MAIN)
        c = m.row(0, named=True) if m.height else ssc.row(0, named=True)
        parts.append(
            f"counting each Super-Sized combo 1½ instead of 2 moves that special's "
            f"restricted-play value at {c['players']} players from "
            f"{c['before_pp']:+.1f} to {c['after_pp']:+.1f} pp"
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
        f"One point overcorrects at {_counts(overshoot)} (the sign flips): a smaller "
        "compensation, such as winning ties, is worth testing."
        if overshoot
        else ""
    )
    return Verdict(
        question="What would the candidate rule changes do?",
        answer=answer,
        estimate=(
            f"change {ci(first['change_pp'], first['change_low'], first['change_high'])} at "
            f"{first['players']} players"
        ),
        n=int(first["deals"]),
        n_unit="deals",
        robustness="not checked",
        recommendation=rec,
        section="What-if rule changes",
        detail="Each change is measured in the equilibrium field on the default deck.",
    )


def ratings_verdict(r: Results) -> Verdict | None:
    """How much stronger are the players behind the numbers than simpler ones?"""
    gaps = r.tables.get("rating_gaps")
    if gaps is None or gaps.is_empty():
        return None
    counts = sorted(gaps["players"].unique())
    main = MAIN if MAIN in counts else counts[-1]
    g = gaps.filter(
        (pl.col("players") == main)
        & pl.col("a").str.starts_with("heuristic")
        & (pl.col("b") == "greedy")
    )
    if g.is_empty():
        return None
    x = g.row(0, named=True)
    win = x.get("win")
    answer = (
        f"At {main} players the equilibrium heuristic is rated "
        f"{ci(x['gap'], x['low'], x['high'], 'Elo', '+.0f')} above greedy"
        + (
            f" (it would win {chance(win)} of head-to-head games)"
            if win is not None and math.isfinite(win)
            else ""
        )
        + ": the verdicts above rest on players far stronger than a one-step greedy one."
    )
    return Verdict(
        question="How strong are the players behind these numbers?",
        answer=answer,
        estimate=ci(x["gap"], x["low"], x["high"], "Elo", "+.0f"),
        n=int(x.get("deals") or 0),
        n_unit="deals",
        robustness="not checked",
        section="Ratings",
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


def verdicts(r: Results) -> list[Verdict]:
    """Every verdict the study's data supports, in reading order."""
    return [v for f in VERDICTS if (v := f(r)) is not None]
