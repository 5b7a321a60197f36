"""The eat-threshold analyses (``analysis/nyslice/threshold.py``) against planted truths.

Synthetic θ sweeps whose true win share at each θ is chosen: the best θ, the θ values the
data cannot separate from it, the grid check and the held-out edge must recover what was
planted. Also: the eat tables' intervals are clustered by game (a duplicated decision adds
no information), and the figures use the report's colours and the tested θ as ticks.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import SyntheticDataset, approx, row

from analysis.nyslice.threshold import (
    best_theta,
    eat_payoff,
    eat_payoff_overall,
    plot_eat,
    plot_theta_curve,
    theta_curve,
)
from analysis.stats import mean_interval

GRID = [0.5, 0.7, 1.0, 1.4, 2.0, 2.8, 4.0, 5.6, 8.0]
# True win share of the θ seat at 3 players (fair 1/3): θ=2 best by a known margin, 1.4
# and 2.8 within 0.1 pp of it, the rest at least 6 pp behind.
PEAK = {0.5: 0.20, 0.7: 0.27, 1.0: 0.33, 1.4: 0.399, 2.0: 0.40, 2.8: 0.3992, 4.0: 0.34,
        5.6: 0.29, 8.0: 0.24}  # fmt: skip
RISING = {t: 0.25 + 0.02 * i for i, t in enumerate(GRID)}  # best at the top of the grid
FLAT = dict.fromkeys(GRID, 1 / 3)  # every θ plays like the field


def _sweep(out, mu: dict[float, float], deals: int = 3000, n: int = 3, seed: int = 0):
    """A rotated θ sweep: in every rotation the θ seat wins deal ``i`` with probability
    ``mu[θ]`` plus the deal's luck for that seat (the same at every θ: the deals are
    shared), else the next seat wins."""
    rng = np.random.default_rng(seed)
    d = SyntheticDataset(out)
    luck = rng.normal(0, 0.1, size=(deals, n))
    for theta, m in mu.items():
        for r in range(n):
            win = rng.random(deals) < np.clip(m + luck[:, r], 0, 1)
            share = np.zeros((deals, n))
            share[:, r], share[:, (r + 1) % n] = win, ~win
            specs = ["heuristic"] * n
            specs[r] = f"heuristic(theta={theta})"
            arm = d.arm(f"theta-p{n}-t{theta}-r{r}", n, specs, group="theta", rotation=r,
                        grid={"theta": theta}, games=deals)  # fmt: skip
            d.players(arm, win_share=share)
    return d.write()


@pytest.fixture(scope="module")
def peak(tmp_path_factory):
    return _sweep(tmp_path_factory.mktemp("peak"), PEAK)


def test_planted_peak_set_holds_the_best_and_its_near_neighbours(peak):
    b = best_theta(peak).row(0, named=True)
    assert b["players"] == 3 and b["deals"] == 3000
    # 1.4, 2 and 2.8 are within 0.1 pp: the data cannot order them, and every far θ
    # (6 pp or more behind) is excluded. (On other seeds a near neighbour is dropped now
    # and then: a tie is excluded at about the tests' 5% level; seed 0 is one of 9 in
    # the first 10 that keep both.)
    assert b["best_theta"] in (1.4, 2.0, 2.8)
    assert b["theta_set"] == [1.4, 2.0, 2.8]
    assert (b["set_low"], b["set_high"]) == (1.4, 2.8)
    # the grid brackets the best; it lacks the field's own θ (the 3-player preset's), which
    # is compared at exactly 1/n a deal (analysis.sweep.with_field) and is far behind here
    assert b["grid_note"] == "" and b["field_from_identity"] is True
    curve = theta_curve(peak)
    assert curve.filter(pl.col("not_worse"))["theta"].to_list() == [1.4, 2.0, 2.8]
    far = curve.filter(~pl.col("not_worse"))
    assert (far["p_holm"] < 0.05).all() and (far["shortfall_low"] > 0).all()
    # θ=2's measured shortfall behind the best found covers the planted one (0 when the
    # best found is 2 itself)
    r = row(curve, theta=2.0)
    assert r["shortfall_low"] <= 100 * (PEAK[b["best_theta"]] - PEAK[2.0]) <= r["shortfall_high"]


def test_planted_peak_held_out_edge_recovers_the_planted_edge(peak):
    b = best_theta(peak).row(0, named=True)
    # each half's pick, measured on the other half, estimates that pick's true edge
    for picked, measured in (("even", "odd"), ("odd", "even")):
        truth = 100 * (PEAK[b[f"pick_{picked}"]] - 1 / 3)
        assert b[f"edge_{measured}_low"] <= truth <= b[f"edge_{measured}_high"]
    truth = 100 * (np.mean([PEAK[b["pick_even"]], PEAK[b["pick_odd"]]]) - 1 / 3)
    assert truth == approx(100 * (0.40 - 1 / 3), abs=0.1)  # 6.7 pp planted
    assert b["edge_low"] <= truth <= b["edge_high"]
    assert b["edge_pp"] == approx(np.mean([b["edge_odd_pp"], b["edge_even_pp"]]))
    # the combined interval averages the halves' 97.5% intervals: wider than either 95% one
    width = b["edge_high"] - b["edge_low"]
    assert width > max(b["edge_odd_high"] - b["edge_odd_low"],
                       b["edge_even_high"] - b["edge_even_low"]) / 2  # fmt: skip
    assert b["edge_in_sample_low"] <= truth <= b["edge_in_sample_high"]
    assert b["warning"] == ""


def test_flat_curve_held_out_edge_is_honest_where_in_sample_is_not(tmp_path):
    # every θ plays like the field: the true edge of any pick is 0. On this seed the best
    # of 9 equal θ looks significantly better than fair on the deals that picked it (the
    # winner's curse); on held-out deals its interval covers the truth.
    b = best_theta(_sweep(tmp_path, FLAT, deals=1500, seed=6)).row(0, named=True)
    assert b["edge_in_sample_low"] > 0
    assert b["edge_low"] <= 0 <= b["edge_high"]
    assert len(b["theta_set"]) >= 8  # nothing separates the θ values
    assert b["grid_brackets_best"] is False


def test_best_at_the_top_of_the_grid_is_flagged(tmp_path):
    b = best_theta(_sweep(tmp_path, RISING, deals=600)).row(0, named=True)
    assert b["best_theta"] == 8.0
    assert b["grid_brackets_best"] is False
    assert b["grid_note"].startswith(
        "the best θ is the largest tested (8): the curve may not turn within the grid; "
        "extend it above 8 (e.g. 11.3, 16)"
    )


def test_set_reaching_an_end_is_flagged():
    from analysis.nyslice.threshold import grid_note

    assert grid_note(2.0, [1.4, 2.0], GRID) == ""
    assert grid_note(2.0, [0.5, 0.7, 1.0, 1.4, 2.0], GRID) == (
        "the θ not significantly worse than the best reach the smallest tested (0.5): the "
        "curve may not turn within the grid; extend it below 0.5 (e.g. 0.354, 0.25)"
    )
    both = grid_note(2.0, GRID, GRID)
    assert "largest tested (8)" in both and "smallest tested (0.5)" in both


# ----------------------------------------------------------------------------- eat payoffs


def _payoffs(games: int, per_game: int, copies: int, seed: int = 0) -> pl.DataFrame:
    """Replayed decisions, ``per_game`` in each of ``games`` games (all eligible ones),
    each row repeated ``copies`` times within its game."""
    rng = np.random.default_rng(seed)
    n = games * per_game
    eat, collect = rng.random(n) < 0.45, rng.random(n) < 0.4
    frame = pl.DataFrame({
        "players": [4] * n, "game_index": np.repeat(np.arange(games), per_game),
        "eligible": [per_game * copies] * n, "slice_kind": [0] * n, "pepperoni": [1] * n,
        "own_count2": [0] * n, "rival_count2": [0] * n,
        "share_eat": eat.astype(float), "share_collect": collect.astype(float),
        "score_eat": rng.integers(10, 30, n), "score_collect": rng.integers(10, 30, n),
    })  # fmt: skip
    return pl.concat([frame] * copies).sort("game_index")


def test_duplicated_decisions_widen_the_clustered_interval_not_the_naive_one():
    once = eat_payoff_overall(_payoffs(150, 4, 1)).row(0, named=True)
    twice = eat_payoff_overall(_payoffs(150, 4, 3)).row(0, named=True)
    assert (once["games"], once["decisions"]) == (150, 600)
    assert (twice["games"], twice["decisions"]) == (150, 1800)
    # the copies add no information: the clustered interval is the same
    assert (twice["payoff_pp"], twice["payoff_low"], twice["payoff_high"]) == approx(
        (once["payoff_pp"], once["payoff_low"], once["payoff_high"])
    )
    # a t interval over the rows would take them for 1800 independent decisions
    d = 100 * (_payoffs(150, 4, 3)["share_eat"] - _payoffs(150, 4, 3)["share_collect"])
    m, lo, hi = mean_interval(d.to_numpy())
    assert m == approx(twice["payoff_pp"])
    assert twice["payoff_high"] - twice["payoff_low"] > 1.5 * (hi - lo)
    # and the strata table uses the same estimator
    strata = eat_payoff(_payoffs(150, 4, 3)).row(0, named=True)
    assert (strata["payoff_low"], strata["payoff_high"]) == approx(
        (twice["payoff_low"], twice["payoff_high"])
    )


def test_sampled_decisions_are_weighted_back_to_every_eligible_one():
    # game 0: 2 of its 10 eligible decisions replayed (payoff +100 each); game 1: all 2
    # of its 2 (payoff 0). Every eligible decision counting once: 10 at +100, 2 at 0.
    payoffs = pl.DataFrame({
        "players": [3] * 4, "game_index": [0, 0, 1, 1], "eligible": [10, 10, 2, 2],
        "slice_kind": [0] * 4, "pepperoni": [1] * 4, "own_count2": [0] * 4,
        "rival_count2": [0] * 4, "share_eat": [1.0, 1.0, 0.0, 0.0],
        "share_collect": [0.0, 0.0, 0.0, 0.0], "score_eat": [1] * 4, "score_collect": [0] * 4,
    })  # fmt: skip
    r = eat_payoff_overall(payoffs).row(0, named=True)
    assert r["payoff_pp"] == approx(100 * 10 / 12)
    assert r["eligible_decisions"] == 12 and r["decisions"] == 4 and r["games"] == 2
    assert r["eat_better"] == approx(10 / 12)


# ----------------------------------------------------------------------------- figures


def test_theta_figure_ticks_colours_and_set_marks(peak):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    from analysis.formats import COUNT_COLOURS

    fig, ax = plt.subplots()
    curve, best = theta_curve(peak), best_theta(peak)
    plot_theta_curve(curve, best, ax)
    ticks = sorted({*GRID, 1.712})  # with the field's own θ, compared without games
    assert [float(t) for t in ax.get_xticks()] == ticks
    assert [t.get_text() for t in ax.get_xticklabels()] == [f"{g:g}" for g in ticks]
    assert ax.get_xscale() == "log"
    assert not ax.patches  # no shaded bands
    orange = to_rgba(COUNT_COLOURS[3])
    lines = [ln for ln in ax.get_lines() if to_rgba(ln.get_color()) == orange]
    assert lines, "3 players is drawn in its report colour"
    # filled markers at the θ of the set, and a bar below the curves spanning it
    filled = [ln for ln in lines if ln.get_marker() == "o" and ln.get_markerfacecolor() != "white"]
    assert sorted(float(x) for ln in filled for x in ln.get_xdata()) == approx(
        [1.4, 2.0, 2.8], rel=0.05
    )
    bars = [ln for ln in lines if ln.get_linewidth() >= 4]
    # the field's own θ (1.712, compared at 1/n) is far behind: the set's bar has a gap
    assert [tuple(ln.get_xdata()) for ln in bars] == [(1.4, 1.4), (2.0, 2.8)]
    # error bars above the (open) markers
    markers = [ln for ln in lines if ln.get_marker() == "o"]
    errors = [c for c in ax.collections if to_rgba(c.get_colors()[0]) == orange]
    assert errors and min(c.get_zorder() for c in errors) > max(m.get_zorder() for m in markers)
    assert "type_a" not in ax.get_xlabel() and "θ" in ax.get_xlabel()
    plt.close(fig)


def test_eat_figure_colours_and_labels():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    from analysis.formats import COUNT_COLOURS

    payoffs = pl.concat([_payoffs(20, 3, 1, seed=1), _payoffs(20, 3, 1, seed=2).with_columns(
        pl.lit(2, pl.Int64).alias("players"))])  # fmt: skip
    table = eat_payoff(payoffs, by="pepperoni")
    fig, ax = plt.subplots()
    plot_eat(table, "pepperoni", "payoff_pp", ax)
    colours = {to_rgba(c.get_colors()[0]) for c in ax.collections}
    assert colours == {to_rgba(COUNT_COLOURS[2]), to_rgba(COUNT_COLOURS[4])}
    assert ax.get_xlabel() == "pepperoni on the slice"
    assert "pp" in ax.get_ylabel() and "_" not in ax.get_ylabel()
    plt.close(fig)
    fig, ax = plt.subplots()
    type_table = pl.DataFrame({"players": [3], "type_a": [2], "eat_rate": [0.5],
                               "eat_low": [0.4], "eat_high": [0.6]})  # fmt: skip
    plot_eat(type_table, "type_a", "eat_rate", ax)
    assert ax.get_xlabel() == "the slice's type (its number)"
    assert not math.isnan(ax.get_ylim()[0])
    plt.close(fig)
