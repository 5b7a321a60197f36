"""Page 1's verdicts: each sentence follows from the numbers handed to it."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.nyslice import verdicts
from analysis.nyslice.report import REPORT
from analysis.robust import Condition
from analysis.sections import Results

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
        fairness=_fair([(2, -0.8, -1.2, -0.4, 6000), (3, 3.1, 2.6, 3.6, 4000),
                        (4, -4.7, -5.3, -4.2, 4000)]),  # fmt: skip
        first_conditions={2: _conds(-0.8, -1.2, -0.4) + [Condition("field", "x", 1, 0.5, 2)],
                          3: _conds(3.0, 2.0, 4.0)[:2], 4: _conds(-4.7, -5.3, -4.2)},  # fmt: skip
        comp_change=None,
    )
    v = verdicts.first_slicer_verdict(r)
    assert "behind at 2 and 4 players" in v.answer and "ahead at 3 players" in v.answer
    assert "every field and plausible deck at 4 players" in v.answer  # 2: a flip; 3: missing
    assert v.robustness == "robust" and v.estimate.startswith("-4.7 pp [-5.3, -4.2]")
    assert v.n == 4000 and v.n_unit == "games"
    assert v.recommendation.startswith("The first slicer's edge is robust and at least 2 pp at 4")


def test_first_slicer_verdict_makes_no_recommendation_for_a_small_edge():
    r = _results(fairness=_fair([(4, -1.0, -1.5, -0.5, 4000)]),
                 first_conditions={4: _conds(-1.0, -1.5, -0.5)})  # fmt: skip
    assert verdicts.first_slicer_verdict(r).recommendation == ""


def test_special_verdict_names_the_strongest_and_the_robust():
    rest = pl.DataFrame({
        "players": [4, 4, 4], "special": ["super_sized_combos", "dibs", "day_old_pizza"],
        "value_pp": [9.0, 1.0, -2.0], "value_low": [8.0, -0.5, -3.0],
        "value_high": [10.0, 2.5, -1.0], "deals": [500, 500, 500],
    })  # fmt: skip
    r = _results(restricted=rest, ssc_change=None, special_conditions={
        "super_sized_combos": _conds(9.0, 8.0, 10.0), "dibs": _conds(1.0, -0.5, 2.5),
        "day_old_pizza": _conds(-2.0, -3.0, -1.0)})  # fmt: skip
    v = verdicts.special_verdict(r)
    assert "worth most is super sized combos" in v.answer
    assert "1 of 3 specials are worth having" in v.answer
    assert "1 is worth avoiding (day old pizza)" in v.answer
    assert "Robust in every field and deck: super sized combos worth having" in v.answer
    assert v.robustness == "robust" and v.n_unit == "deals"
    assert "super sized combos is worth at least 5 pp" in v.recommendation
    assert "day old pizza hurts whoever takes it" in v.recommendation


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
