"""Page 1's verdicts: each sentence follows from the numbers handed to it; a claim that picks
the largest of several effects is corrected over the family it picked from, and no
recommendation is made from an interval that covers 0 after the correction or a verdict
that is not robust."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.nyslice import verdicts
from analysis.nyslice.report import REPORT
from analysis.robust import Condition
from analysis.sections import Results
from analysis.verdicts import adjust_family

NAMES = ["equilibrium field", "greedy field", "search field"]


def _results(**tables) -> Results:
    base = {"conditions_expected": NAMES}
    return Results(Path("."), {}, "nyslice", REPORT, {}, {**base, **tables})


def _fair(rows):
    return pl.DataFrame(rows, schema=["players", "first_edge_pp", "first_low", "first_high",
                                      "games"], orient="row")  # fmt: skip


def _conds(est, lo, hi):
    return [Condition("field", n, est, lo, hi, 100) for n in NAMES]


def test_first_slicer_verdict_follows_the_signs():
    r = _results(
        fairness=_fair(
            [(2, -0.8, -1.2, -0.4, 6000), (3, 3.1, 2.6, 3.6, 4000), (4, -4.7, -5.3, -4.2, 4000)]
        ),  # fmt: skip
        first_conditions={
            2: _conds(-0.8, -1.2, -0.4) + [Condition("field", "x", 1, 0.5, 2)],
            3: _conds(3.0, 2.0, 4.0)[:2],
            4: _conds(-4.7, -5.3, -4.2),
        },  # fmt: skip
        comp_change=None,
    )
    v = verdicts.first_slicer_verdict(r)
    assert "behind at 2 and 4 players" in v.answer and "ahead at 3 players" in v.answer
    assert "every field and plausible deck at 4 players" in v.answer  # 2: a flip; 3: missing
    # the largest edge of the three counts, its interval corrected for picking it
    assert v.robustness == "robust" and v.estimate == (
        "the first slicer at 4 players: -4.7 pp [-5.4, -4.1] over the fair share (corrected "
        "for picking the largest of 3)"
    )
    assert v.n == 4000 and v.n_unit == "games"
    assert v.recommendation == (
        "The first slicer at 4 players is behind by -4.7 pp [-5.4, -4.1] (interval corrected "
        "for picking it from 3): a compensation rule in favour of the first slicer is worth "
        "testing."
    )  # 3 players: +3.1 clears 0 but is not fully checked, so it recommends nothing


def test_first_slicer_recommendation_quotes_the_measured_compensation():
    comp = pl.DataFrame({"players": [4], "before": [-4.6], "after": [-0.4],
                         "n": [20000]})  # fmt: skip
    r = _results(fairness=_fair([(4, -4.7, -5.3, -4.2, 4000)]),
                 first_conditions={4: _conds(-4.7, -5.3, -4.2)}, comp_change=comp)  # fmt: skip
    assert verdicts.first_slicer_verdict(r).recommendation.endswith(
        "worth testing; one point for the first slicer moves its edge from -4.6 to -0.4 pp "
        "(on the 20,000 deals played both ways)."
    )


def test_first_slicer_verdict_makes_no_recommendation_for_a_small_edge():
    r = _results(fairness=_fair([(4, -1.0, -1.5, -0.5, 4000)]),
                 first_conditions={4: _conds(-1.0, -1.5, -0.5)})  # fmt: skip
    assert verdicts.first_slicer_verdict(r).recommendation == ""


def _forfeit(rows):
    """A forfeit table at 4 players: (special, points, low, high), 500 deals in play each,
    with the family columns."""
    t = pl.DataFrame(
        [(4, sp, est, lo, hi, 500, 480, 0.001, False) for sp, est, lo, hi in rows],
        schema=["players", "special", "points", "points_low", "points_high", "in_play",
                "nonzero", "sign_p", "sparse"], orient="row",
    )  # fmt: skip
    return adjust_family(t, "points", "points_low", "points_high")


def test_special_verdict_names_the_largest_corrected_and_counts_with_holm():
    """Four specials: the largest worth is named with its interval corrected for picking
    it from the 4; the counts of worth having and costly follow Holm, not the raw intervals
    (dibs' raw interval clears 0, p = 0.035, but Holm's second step asks for 0.025)."""
    f = _forfeit([("super_sized_combos", 2.0, 1.6, 2.4), ("dibs", 0.3, 0.02, 0.58),
                  ("day_old_pizza", -0.5, -0.7, -0.3), ("buffet", 0.0, -0.4, 0.4)])  # fmt: skip
    r = _results(forfeit=f, ssc_change=None, special_conditions={
        "super_sized_combos": _conds(2.0, 1.6, 2.4), "dibs": _conds(0.3, 0.02, 0.58),
        "day_old_pizza": _conds(-0.5, -0.7, -0.3), "buffet": _conds(0.0, -0.4, 0.4)})  # fmt: skip
    v = verdicts.special_verdict(r)
    ssc = f.row(0, named=True)
    assert ssc["family"] == 4 and ssc["adj_low"] < 1.6 and ssc["adj_high"] > 2.4
    size = f"+2.0 points [{ssc['adj_low']:+.1f}, {ssc['adj_high']:+.1f}]"
    assert (
        f"the largest is super sized combos, {size} (corrected for picking the largest of 4)"
        in (v.answer)
    )
    assert "1 of 4 specials is worth having (Holm over the 4)" in v.answer
    assert "1 costs whoever receives it (day old pizza)" in v.answer
    assert "Robust in every field and deck: super sized combos and dibs worth having" in v.answer
    assert v.robustness == "robust" and v.n == 500 and v.n_unit == "deals"
    assert v.estimate == (
        f"super sized combos at 4 players: {size} (corrected for picking the largest of 4)"
    )
    assert (v.value.unit, v.value.family, v.value.players) == ("points", 4, 4)
    assert v.recommendation.startswith(
        f"Super sized combos at 4 players is worth more than no tile by {size} (interval "
        "corrected for picking it from 4): if that is more than intended, a candidate "
        "for weakening"
    )


def test_special_verdict_recommends_nothing_when_not_robust_or_covering_zero():
    f = _forfeit([("super_sized_combos", 2.0, 1.6, 2.4), ("dibs", 0.3, -0.1, 0.7)])
    flip = _conds(2.0, 1.6, 2.4)[:2] + [Condition("field", NAMES[2], -1.0, -2.0, -0.5, 100)]
    r = _results(forfeit=f, ssc_change=None, special_conditions={"super_sized_combos": flip})
    v = verdicts.special_verdict(r)
    assert v.recommendation == "" and v.robustness.startswith("not robust")
    # a largest worth whose corrected interval covers 0 is said to be so, and not acted on
    f = _forfeit([("buffet", -1.2, -2.3, -0.1), ("dibs", 0.3, -0.1, 0.7)])
    r = _results(forfeit=f, ssc_change=None,
                 special_conditions={"buffet": _conds(-1.2, -2.3, -0.1)})  # fmt: skip
    v = verdicts.special_verdict(r)
    assert "the corrected interval covers 0" in v.answer and v.recommendation == ""


def test_special_verdict_words_a_sparse_effect_from_the_exact_test():
    f = _forfeit([("dibs", 0.9, 0.2, 1.6)]).with_columns(
        pl.lit(True).alias("sparse"), pl.lit(7).alias("nonzero"), pl.lit(0.016).alias("sign_p")
    )
    r = _results(forfeit=f, ssc_change=None, special_conditions={})
    v = verdicts.special_verdict(r)
    assert "Only 7 of its 500 deals differ, too few for the interval: the exact sign test " \
        "gives p = 0.016." in v.answer  # fmt: skip


def _seat_table(edges):
    """(players, seat, edge, low, high) rows as the seat table."""
    return pl.DataFrame(
        [(n, k, e, lo, hi, 4000) for n, k, e, lo, hi in edges],
        schema=["players", "seat", "edge_pp", "edge_low", "edge_high", "games"], orient="row",
    )  # fmt: skip


def test_count_verdict_corrects_the_largest_edge_over_the_whole_table():
    """The largest of 5 seat edges is corrected over all 5; its recommendation states the
    direction and needs that seat's edge robust across the fields and decks."""
    seat = _seat_table([(2, 0, -0.5, -1.0, 0.0), (2, 1, 0.5, 0.0, 1.0), (4, 0, -4.0, -5.0, -3.0),
                        (4, 1, 1.0, 0.0, 2.0), (4, 2, 3.0, 2.0, 4.0)])  # fmt: skip
    r = _results(seat=seat, seat_conditions={(4, 0): _conds(-4.0, -5.0, -3.0)})
    v = verdicts.count_verdict(r)
    claim = adjust_family(seat, "edge_pp", "edge_low", "edge_high").row(2, named=True)
    size = f"-4.0 pp [{claim['adj_low']:+.1f}, {claim['adj_high']:+.1f}]"
    assert f"largest at 4 players (seat 0, {size}, corrected for picking the largest of the 5" in (
        v.answer
    )
    assert v.recommendation.startswith(f"Seat 0 at 4 players is behind by {size} (interval "
                                       "corrected for picking it from 5)")  # fmt: skip
    # not robust: no recommendation
    r = _results(seat=seat, seat_conditions={(4, 0): _conds(-4.0, -5.0, -3.0)[:1] + [
        Condition("field", NAMES[1], 1.0, -1.0, 3.0, 100)]})  # fmt: skip
    v = verdicts.count_verdict(r)
    assert v.recommendation == "" and v.robustness.startswith("not robust")
    assert "seat 0's edge there is not robust" in v.answer


def test_count_verdict_makes_no_claim_from_an_edge_that_covers_zero_after_correction():
    seat = _seat_table([(3, k, e, e - 2.2, e + 2.2) for k, e in enumerate([2.3, -1.0, -1.3])])
    r = _results(seat=seat, first_conditions={3: _conds(2.3, 0.1, 4.5)})
    v = verdicts.count_verdict(r)
    assert "the corrected interval covers 0" in v.answer and v.recommendation == ""


def _best(edge):
    return pl.DataFrame({"players": [4], "best_theta": [2.0], "theta_set": [[1.4, 2.0, 2.8]],
                         "edge_pp": [edge[0]], "edge_low": [edge[1]], "edge_high": [edge[2]],
                         "deals": [3000]})  # fmt: skip


def test_theta_verdict_says_what_the_held_out_edge_supports():
    sets = pl.DataFrame({"condition": NAMES, "best_theta": [2.0, 1.4, 2.8]})
    r = _results(best_theta=_best((0.1, -1.2, 1.3)), theta_sets=(sets, [2.0], []))
    v = verdicts.theta_verdict(r)
    assert "about 2 times collecting it (θ from 1.4–2.8" in v.answer
    assert "gains nothing measurable" in v.answer and v.recommendation == ""
    assert v.robustness == "robust" and "θ = 2 is in the not-worse set in all 3" in v.detail
    r = _results(best_theta=_best((2.0, 0.5, 3.5)), theta_sets=(sets, [], ["search field"]))
    v = verdicts.theta_verdict(r)
    assert "gains +2.0 pp [+0.5, +3.5]" in v.answer and v.recommendation
    assert v.robustness == "not robust: no common θ"
