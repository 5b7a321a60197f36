"""The generic parameter sweep (analysis.sweep) on a parameter other than θ, with values
of both signs: a planted best value and a planted grid end are recovered."""

from __future__ import annotations

import polars as pl
import pytest
from analysis_fixtures import rotated_sweep

from analysis.sweep import best_value, grid_note, sweep_curve

GRID = [-3.0, -1.0, 0.0, 1.0, 3.0]
PEAK = {-3.0: 0.22, -1.0: 0.27, 0.0: 0.33, 1.0: 0.40, 3.0: 0.30}  # best at +1, 7 pp clear
FALLING = {v: 0.40 - 0.03 * i for i, v in enumerate(GRID)}  # best at the bottom end


def _sweep(out, mu: dict[float, float], deals: int = 2000, n: int = 3, seed: int = 0):
    """A rotated sweep of ``fewer`` (:func:`analysis_fixtures.rotated_sweep`)."""
    return rotated_sweep(out, mu, "fewer", deals, n, seed)


def test_a_planted_best_value_is_found_with_columns_named_after_the_parameter(tmp_path):
    out = _sweep(tmp_path, PEAK)
    b = best_value(out, "fewer", "fewer", field={3: 0.0}).row(0, named=True)
    assert (b["players"], b["deals"], b["best_fewer"], b["field_fewer"]) == (3, 2000, 1.0, 0.0)
    assert b["fewer_set"] == [1.0]
    assert (b["fewer_low"], b["fewer_high"]) == (1.0, 1.0)
    assert b["grid_brackets_best"] is True
    truth = 100 * (PEAK[1.0] - 1 / 3)
    assert b["edge_low"] <= truth <= b["edge_high"]
    curve = sweep_curve(out, "fewer", "fewer")
    assert curve["fewer"].to_list() == GRID
    assert curve.filter(pl.col("is_best"))["fewer"].to_list() == [1.0]
    assert curve.filter(~pl.col("not_worse"))["fewer"].to_list() == [-3.0, -1.0, 0.0, 3.0]


def test_a_best_value_at_a_negative_grid_end_is_flagged(tmp_path):
    b = best_value(_sweep(tmp_path, FALLING, deals=600), "fewer", "fewer").row(0, named=True)
    assert b["best_fewer"] == -3.0 and b["grid_brackets_best"] is False
    assert b["grid_note"] == (
        "the best fewer is the smallest tested (-3): the curve may not turn within the grid; "
        "extend it below -3 (e.g. -4.24, -6)"
    )


@pytest.mark.parametrize("best,members,grid,note", [
    (0.0, [0.0], [0.0, 1.0, 2.0], "the best m is the smallest tested (0): the curve may not "
     "turn within the grid; extend it below 0 (e.g. -1, -2)"),
    (2.0, [1.0, 2.0], [-2.0, 1.0, 2.0], "the best m is the largest tested (2): the curve may "
     "not turn within the grid; extend it above 2 (e.g. 2.83, 4)"),
    (1.0, [1.0], [-2.0, 1.0, 2.0], ""),
])  # fmt: skip
def test_grid_note_extends_past_zero_and_negative_ends(best, members, grid, note):
    assert grid_note(best, members, grid, "m") == note
