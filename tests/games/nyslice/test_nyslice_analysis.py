"""New York Slice's own analyses (``analysis/nyslice/``: slicing twice, the specials, eat
or collect, the majorities nobody scores) against known answers.

Moved here from ``tests/test_analysis.py`` with their datasets: each is synthetic
(``analysis_fixtures``), a handful of games whose win shares, scores and decisions are
chosen so the right answer is known by hand, or from scipy on the same numbers. Every
expected value below is worked out from the numbers written into the dataset, never from
the analysis code.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import (
    SyntheticDataset,
    Z,
    approx,
    mask,
    one_hot,
    row,
    scipy_wilson,
    t_interval,
    wilson,
)
from scipy import stats

from analysis.nyslice.playercount import player_count
from analysis.nyslice.seats import linear_order_test, seat_advantage, seat_contrasts
from analysis.nyslice.specials import interventional, observational, restricted_play, strength
from analysis.nyslice.threshold import best_theta, eat_payoff, eat_table, theta_curve
from analysis.samplesize import MIN_GAMES
from analysis.stats import holm
from sims.core.errors import SlicelabError

# 4 players (6 rounds: seats 0 and 1 slice twice) with mean win shares exactly
# a + b*seat + c*twice, a = 0.225, b = -0.05, c = 0.20: 0.425, 0.375, 0.125, 0.075, i.e.
# 17, 15, 5 and 3 wins in 40 games. Scores: 20 - seat + 3*twice, plus +-2 on seat 0 in
# alternate games (noise that moves every game's estimates but cancels on average).
ORDER_WINNERS = [0] * 17 + [1] * 15 + [2] * 5 + [3] * 3
TWICE = np.array([1, 1, 0, 0])
ORDER_SCORES = 20 - np.arange(4) + 3 * TWICE + np.outer(2 * (-1) ** np.arange(40), [1, 0, 0, 0])


@pytest.fixture(scope="module")
def order_data(tmp_path_factory):
    d = SyntheticDataset(tmp_path_factory.mktemp("order"))
    d.arm("seats-p4", 4, group="seats")
    d.players("seats-p4", win_share=one_hot(ORDER_WINNERS, 4), score=ORDER_SCORES,
              times_slicer=[2, 2, 1, 1])  # fmt: skip
    d.arm("seats-p5", 5, group="seats")  # 5 rounds: everyone slices once
    d.players("seats-p5", win_share=one_hot([0, 1, 2, 3, 4, 0], 5), score=np.ones((6, 5)),
              times_slicer=[1, 1, 1, 1, 1])  # fmt: skip
    return d.write()


# The same 4-player games with the winners bent so that the two within-pair steps differ:
# 160 games, seat 0 wins 40, seat 1 80, seats 2 and 3 20 each (steps 0->1 +25 pp, 2->3 0).
BENT_WINNERS = [0] * 40 + [1] * 80 + [2] * 20 + [3] * 20


def test_seat_contrasts_are_the_raw_paired_differences(order_data):
    table = seat_contrasts(order_data)
    y = 100 * one_hot(ORDER_WINNERS, 4)
    for k in range(4):
        r = row(table, players=4, contrast=f"seat {k} vs others")
        m, lo, hi = t_interval(y[:, k] - (y.sum(axis=1) - y[:, k]) / 3)
        assert (r["estimate"], r["low"], r["high"]) == approx((m, lo, hi))
        assert r["games"] == 40
    # 17 and 15 wins of 40: the step from seat 0 to seat 1 is -5 pp exactly
    assert row(table, players=4, contrast="seat 0 → 1")["estimate"] == approx(-5.0)
    assert row(table, players=4, contrast="seat 1 → 2")["estimate"] == approx(-25.0)
    assert sorted(table.filter(pl.col("players") == 5)["contrast"])[:1] == ["seat 0 vs others"]


def test_linear_order_test_accepts_a_linear_order_and_rejects_bent_steps(order_data, tmp_path):
    flat = linear_order_test(order_data)
    assert flat["players"].to_list() == [4]  # at 5 players every seat slices once
    r = flat.row(0, named=True)
    # 17, 15, 5, 3 wins: both within-pair steps are -5 pp, so the residual contrast is 0
    assert (r["step_01"], r["step_23"], r["step_diff"]) == approx((-5.0, -5.0, 0.0))
    assert r["df"] == 1 and not r["rejected"]
    d = SyntheticDataset(tmp_path)
    d.arm("seats-p4", 4, group="seats")
    d.players("seats-p4", win_share=one_hot(BENT_WINNERS, 4), score=np.tile(ORDER_SCORES, (4, 1)),
              times_slicer=[2, 2, 1, 1])  # fmt: skip
    bent = linear_order_test(d.write()).row(0, named=True)
    y = 100 * one_hot(BENT_WINNERS, 4)
    diff = (y[:, 1] - y[:, 0]) - (y[:, 3] - y[:, 2])
    m, lo, hi = t_interval(diff)
    assert (bent["step_diff"], bent["step_diff_low"], bent["step_diff_high"]) == approx((m, lo, hi))
    assert m == approx(25.0)
    # one residual contrast: the Wald statistic is the squared t of the step difference
    t = m / (diff.std(ddof=1) / np.sqrt(len(diff)))
    assert bent["chi2"] == approx(t * t)
    assert bent["p_value"] == approx(stats.chi2.sf(t * t, 1))
    assert bent["rejected"]


# --------------------------------------------------------------------------------------
# Question 2: specials
# --------------------------------------------------------------------------------------

# 3 players, 12 games, one outright winner each. Dibs is held by seat 0 in games 0-2, seat 1
# in 3-5, seat 2 in 6-7; nobody holds it in 8-11 (where seat 0 wins twice: counting those
# games would move the estimate). Buffet: seat 0 in 8-10, seat 1 in 2 and 11.
SPEC_WINNERS = [0, 0, 1, 1, 1, 2, 2, 0, 0, 0, 1, 1]
DIBS = {0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2}
BUFFET = {8: 0, 9: 0, 10: 0, 2: 1, 11: 1}
# The blank replays: who wins each game when dibs (buffet) is a blank tile.
REPLAY = {
    "dibs": [[0, 1, 0], [0, 0, 1], [1, 0, 0], [1, 0, 0], [0, 0, 1], [0, 0, 1], [0, 1, 0],
             [0.5, 0, 0.5], [0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1]],
    "buffet": [[1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1],
               [0, 0, 1], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 0]],
}  # fmt: skip


def _score(share: np.ndarray) -> np.ndarray:
    """Scores 7 + 20 share + 3 seat: a seat effect the within-seat comparison removes."""
    return 7 + 20 * share + 3 * np.arange(share.shape[1])


@pytest.fixture(scope="module")
def specials_data(tmp_path_factory):
    d = SyntheticDataset(tmp_path_factory.mktemp("specials"))
    owned = np.zeros((12, 3), dtype=int)
    for g, s in DIBS.items():
        owned[g, s] |= mask("dibs")
    for g, s in BUFFET.items():
        owned[g, s] |= mask("buffet")
    share = one_hot(SPEC_WINNERS, 3)
    d.arm("seats-p3", 3, group="seats")
    buffet_points = 5 * ((owned & mask("buffet")) != 0)  # the holder's own starred points
    d.players("seats-p3", win_share=share, score=_score(share), specials_owned_mask=owned,
              specials=buffet_points)  # fmt: skip
    for slug, replay in REPLAY.items():
        arm = d.arm(f"specials-p3-{slug}", 3, group="specials", blank=slug)
        share = np.array(replay, dtype=float)
        d.players(arm, win_share=share, score=_score(share), specials_owned_mask=owned * 0,
                  specials=owned * 0)  # fmt: skip
    # 2 players: the Buffet holder always wins, and loses every replay without it.
    holder = [0, 1, 0, 1, 1, 0]
    share = one_hot(holder, 2)
    d.arm("seats-p2", 2, group="seats")
    d.players("seats-p2", win_share=share, score=_score(share),
              specials_owned_mask=share.astype(int) * mask("buffet"),
              specials=share.astype(int) * 5)  # fmt: skip
    d.arm("specials-p2-buffet", 2, group="specials", blank="buffet")
    share = one_hot([1 - h for h in holder], 2)
    d.players("specials-p2-buffet", win_share=share, score=_score(share),
              specials_owned_mask=np.zeros((6, 2), dtype=int),
              specials=np.zeros((6, 2), dtype=int))  # fmt: skip
    return d.write()


def _check_holm(table: pl.DataFrame) -> np.ndarray:
    """Holm across a player count's specials, from each row's normal p-value: the
    interval's half-width is z * se. Returns the raw p-values."""
    e, lo, hi = (table[c].to_numpy() for c in ("effect_pp", "effect_low", "effect_high"))
    p = 2 * stats.norm.sf(np.abs(e) / ((hi - lo) / (2 * Z)))
    assert table["p_holm"].to_numpy() == approx(holm(p))
    assert table["holm_significant"].to_list() == (holm(p) < 0.05).tolist()
    return p


def _clustered(values: np.ndarray, holders: dict[int, int]) -> tuple[float, float]:
    """The seat-stratified holders-minus-others difference over the games in ``holders``
    (game -> holding seat) and its 95% half-width clustered by game, game by game: each
    row's influence on the estimate is summed within its game, and the variance is
    G/(G-1) times the sum of the squared game totals."""
    games = sorted(holders)
    total, num = 0.0, 0.0
    per_game = dict.fromkeys(games, 0.0)
    for k in range(values.shape[1]):
        h = [g for g in games if holders[g] == k]
        o = [g for g in games if holders[g] != k]
        if len(h) < 2 or len(o) < 2:
            continue
        w = len(h) * len(o) / (len(h) + len(o))
        mh, mo = values[h, k].mean(), values[o, k].mean()
        total, num = total + w, num + w * (mh - mo)
        for g in h:
            per_game[g] += w * (values[g, k] - mh) / len(h)
        for g in o:
            per_game[g] -= w * (values[g, k] - mo) / len(o)
    var = len(games) / (len(games) - 1) * sum((v / total) ** 2 for v in per_game.values())
    return num / total, Z * math.sqrt(var)


def test_observational_seat_adjusted_difference_by_hand(specials_data):
    table = observational(specials_data)
    assert set(table.select("players", "special").rows()) == {
        (3, "dibs"),
        (3, "buffet"),
        (2, "buffet"),
    }  # nobody ever held another special: no row
    # Dibs, per seat (holders vs the same seat's non-holders in games where dibs was held):
    #   seat 0: [1,1,0] vs [0,0,0,0,1]: d = 2/3 - 1/5 = 7/15, w = 3*5/8
    #   seat 1: [1,1,0] vs [0,1,0,0,0]: the same
    #   seat 2: [1,0] vs [0,0,0,0,0,1]: d = 1/3, w = 2*6/8
    # estimate = (2 * 15/8 * 7/15 + 3/2 * 1/3) / (2 * 15/8 + 3/2) = 3/7. The interval is
    # clustered by game (the seats of one game are dependent), over the 8 games.
    share = one_hot(SPEC_WINNERS, 3)
    r = row(table, players=3, special="dibs")
    est, half = _clustered(share, DIBS)
    assert est == approx(3 / 7)
    assert r["games"] == r["holders"] == 8
    assert r["effect_pp"] == approx(100 * 3 / 7)
    assert (r["effect_low"], r["effect_high"]) == approx((100 * (est - half), 100 * (est + half)))
    # The scores are 7 + 20 * share + 3 * seat: the seat term drops out within seats.
    assert r["score_effect"] == approx(20 * 3 / 7)
    assert (r["score_low"], r["score_high"]) == approx((20 * (est - half), 20 * (est + half)))
    # Buffet: seat 0 [1,1,0] vs [0,0]; seat 1 [1,1] vs [0,0,1]; no holder in seat 2.
    # d = 2/3 in both, w = 6/5 in both: 2/3 over the 5 games where it was held.
    r = row(table, players=3, special="buffet")
    est, half = _clustered(share, BUFFET)
    assert est == approx(2 / 3)
    assert r["games"] == 5
    assert r["effect_pp"] == approx(100 * 2 / 3)
    assert (r["effect_low"], r["effect_high"]) == approx((100 * (est - half), 100 * (est + half)))
    t3 = table.filter(pl.col("players") == 3)
    lo, hi = sorted(_check_holm(t3))  # two tests: min(1, 2 p_min), then max(that, p_max)
    assert sorted(t3["p_holm"]) == approx([2 * lo, max(2 * lo, hi)])
    # clustered by game, 5 games are too few for Buffet's +67 pp to clear Holm's bar
    assert not row(table, players=3, special="buffet")["holm_significant"]
    assert not row(table, players=3, special="dibs")["holm_significant"]


def test_observational_certain_effect(specials_data):
    # 2 players: the holder always wins. Within each seat: holders 1, non-holders 0.
    r = row(observational(specials_data), players=2, special="buffet")
    assert r["games"] == 6
    assert (r["effect_pp"], r["effect_low"], r["effect_high"]) == (100, 100, 100)
    assert r["score_effect"] == 20
    assert r["p_holm"] == 0 and r["holm_significant"]  # no doubt, whatever the n


def test_interventional_paired_real_minus_blank(specials_data):
    table = interventional(specials_data)
    assert table.select("players", "special").rows() == [(2, "buffet"), (3, "buffet"), (3, "dibs")]
    # Dibs: the holder's share, real - blank, in games 0-7 (games 8-11 have no holder):
    d = np.array([1, 1, -1, 1, 1, 0, 1, -0.5])
    r = row(table, players=3, special="dibs")
    m, lo, hi = t_interval(100 * d)
    assert r["games"] == 8 and m == approx(43.75)
    assert (r["effect_pp"], r["effect_low"], r["effect_high"]) == approx((m, lo, hi))
    m, lo, hi = t_interval(20 * d)  # scores 7 + 20 share + 3 seat, same seat both times
    assert (r["score_effect"], r["score_low"], r["score_high"]) == approx((m, lo, hi))
    # Buffet (games 2, 8, 9, 10, 11).
    r = row(table, players=3, special="buffet")
    m, lo, hi = t_interval([0, 100, 100, -100, 100])
    assert r["games"] == 5 and m == approx(40)
    assert (r["effect_pp"], r["effect_low"], r["effect_high"]) == approx((m, lo, hi))
    assert r["direct_points"] == 5  # the blank takes the holder's 5 starred points away
    both = sum(1 for g, seat in DIBS.items() if BUFFET.get(g) == seat)
    assert row(table, players=3, special="dibs")["direct_points"] == approx(5 * both / 8)
    _check_holm(table.filter(pl.col("players") == 3))
    # 2 players: the holder always wins, and never without the special: +100 pp, certain.
    r = row(table, players=2, special="buffet")
    assert r["games"] == 6
    assert (r["effect_pp"], r["effect_low"], r["effect_high"]) == (100, 100, 100)
    assert r["score_effect"] == 20 and r["holm_significant"]
    # strength() puts both side by side, ranked by the interventional effect.
    s = strength(specials_data)
    assert s.filter(pl.col("players") == 3)["special"].to_list() == ["dibs", "buffet"]
    assert row(s, players=3, special="dibs")["obs_pp"] == approx(100 * 3 / 7)


# --------------------------------------------------------------------------------------
# Question 3: eating
# --------------------------------------------------------------------------------------

# 3 players, theta in {0.5, 1, 2}, each played from every seat (rotation r: the theta seat
# is seat r) on the same 6 deals. THETA_WINS[theta][deal] = the theta seat's win share in
# rotations 0, 1, 2. Theta 0.5 beats the others on every deal.
THETA_WINS = {
    0.5: [[1, 1, 1], [1, 1, 0], [1, 1, 1], [1, 0, 1], [1, 1, 1], [1, 1, 1]],
    1.0: [[1, 0, 0], [0, 0, 1], [1, 1, 0], [0, 0, 0], [0, 1, 0], [0, 1, 1]],
    2.0: [[0.5, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0], [1, 0, 0]],
}
DEAL_SHARE = {t: np.mean(v, axis=1) for t, v in THETA_WINS.items()}


@pytest.fixture(scope="module")
def theta_data(tmp_path_factory):
    d = SyntheticDataset(tmp_path_factory.mktemp("theta"))
    for theta, wins in THETA_WINS.items():
        for r in range(3):
            specs = ["heuristic"] * 3
            specs[r] = f"heuristic(theta={theta})"
            arm = d.arm(f"theta-p3-t{theta}-r{r}", 3, specs, group="theta", rotation=r,
                        grid={"theta": theta})  # fmt: skip
            share = np.zeros((6, 3))
            for g in range(6):
                x = wins[g][r]
                share[g, r] = x
                share[g, (r + 1) % 3] = 1 - x  # the rest goes to the next seat
            d.players(arm, win_share=share)
    return d.write()


def test_theta_curve_averages_rotations_per_deal(theta_data):
    curve = theta_curve(theta_data)
    # the field's own θ (the 3-player preset's) is added without games, at exactly 1/n
    own = curve.filter(pl.col("from_identity"))
    assert own["theta"].to_list() == [1.712] and own["win_share"].to_list() == [1 / 3]
    table = curve.filter(~pl.col("from_identity"))
    assert table["theta"].to_list() == [0.5, 1.0, 2.0]
    for theta, share in DEAL_SHARE.items():
        r = row(table, theta=theta)
        m, lo, hi = t_interval(share)  # over 6 deals, not 18 seat-games
        lo, hi = max(lo, 0.0), min(hi, 1.0)  # a share's interval is clamped to [0, 1]
        assert r["deals"] == r["games"] == 6 and r["seat_games"] == 18 and r["players"] == 3
        assert (r["win_share"], r["win_low"], r["win_high"]) == approx((m, lo, hi))
        assert r["fair"] == approx(1 / 3) and r["edge_pp"] == approx(100 * (m - 1 / 3))
        assert r["warning"].startswith("only 6 deals")
    assert row(table, theta=0.5)["win_share"] == approx(16 / 18)
    assert row(table, theta=2.0)["win_share"] == approx(3.5 / 18)


def test_theta_curve_shortfall_behind_the_best_by_hand(theta_data):
    table = theta_curve(theta_data).filter(~pl.col("from_identity"))
    assert table["is_best"].to_list() == [True, False, False]
    best = row(table, theta=0.5)
    assert (best["shortfall_pp"], best["shortfall_low"], best["shortfall_high"]) == (0, 0, 0)
    assert math.isnan(best["p_worse"]) and best["not_worse"]
    p = {}
    for theta in (1.0, 2.0):
        d = 100 * (DEAL_SHARE[0.5] - DEAL_SHARE[theta])  # paired by deal
        r = row(table, theta=theta)
        assert (r["shortfall_pp"], r["shortfall_low"], r["shortfall_high"]) == approx(t_interval(d))
        p[theta] = stats.ttest_1samp(d, 0, alternative="greater").pvalue
        assert r["p_worse"] == approx(p[theta])
    # the field's own θ, compared at exactly 1/3 a deal, is the third value behind the best
    p["field"] = stats.ttest_1samp(100 * (DEAL_SHARE[0.5] - 1 / 3), 0, alternative="greater").pvalue
    # Holm over the three: the smallest p tripled, the next doubled (at least the first)
    first, second, third = sorted(p, key=p.get)
    holm = {first: 3 * p[first]}
    holm[second] = max(holm[first], 2 * p[second])
    holm[third] = max(holm[second], p[third])
    for theta in (1.0, 2.0):
        assert row(table, theta=theta)["p_holm"] == approx(holm[theta])
    assert table["not_worse"].to_list() == [True, False, False]  # both p are tiny


def test_best_theta_clear_maximum(theta_data):
    r = best_theta(theta_data).row(0, named=True)
    assert r["players"] == 3 and r["deals"] == r["games"] == 6
    assert r["best_theta"] == 0.5 and r["theta_set"] == [0.5]
    assert r["set_low"] == r["set_high"] == r["theta_low"] == r["theta_high"] == 0.5
    assert r["win_share"] == approx(16 / 18)
    from sims.games.nyslice.heuristic import params_for

    assert r["field_theta"] == params_for(3, {})["theta"]  # the field: heuristic's preset
    # 0.5 is the smallest θ tried: the grid does not bracket the best
    assert (r["grid_low"], r["grid_high"]) == (0.5, 2.0)
    assert r["grid_brackets_best"] is False
    assert r["grid_note"].startswith(
        "the best θ is the smallest tested (0.5): the curve may not turn within the grid; "
        "extend it below 0.5 (e.g. 0.354, 0.25)"
    )
    # 0.5, 1 and 2 lack the field's own θ: it is compared at exactly 1/n a deal
    assert r["field_from_identity"] is True
    # in sample: over the fair share, by deal
    m, lo, hi = t_interval(100 * (DEAL_SHARE[0.5] - 1 / 3))
    assert m == approx(100 * (16 / 18 - 1 / 3))
    assert (r["edge_in_sample_pp"], r["edge_in_sample_low"], r["edge_in_sample_high"]) == approx(
        (m, lo, hi)
    )
    # held out: even deals 0, 2, 4 pick 0.5 (shares 1, 1, 1), measured on the odd deals
    # 1, 3, 5 (2/3, 2/3, 1); the odd deals pick 0.5 too, measured on the even ones (no
    # variance: a zero-width interval)
    odd = 100 * (DEAL_SHARE[0.5][1::2] - 1 / 3)
    even = 100 * (DEAL_SHARE[0.5][0::2] - 1 / 3)
    assert r["pick_even"] == r["pick_odd"] == 0.5
    assert (r["edge_odd_pp"], r["edge_odd_low"], r["edge_odd_high"]) == approx(t_interval(odd))
    assert even.tolist() == approx([200 / 3] * 3)
    assert (r["edge_even_pp"], r["edge_even_low"], r["edge_even_high"]) == approx(
        (200 / 3, 200 / 3, 200 / 3)
    )
    # the average, with the average of the two halves' 97.5% intervals
    half = stats.t.ppf(0.9875, 2) * stats.sem(odd)
    assert r["edge_pp"] == approx((odd.mean() + 200 / 3) / 2)
    assert (r["edge_low"], r["edge_high"]) == approx(
        ((odd.mean() - half + 200 / 3) / 2, (odd.mean() + half + 200 / 3) / 2)
    )
    assert r["warning"] == "only 6 deals (< 100)"


# Decisions of a 3-player game block. Results: game 0 won by seat 0, 1 by seat 1, 2 by
# seat 2, 3 shared by seats 0 and 1. Columns: game, seat, phase, n_legal, slice_kind,
# action (1 eat), pepperoni, own_count2, rival_count2.
EAT_RESULTS = np.vstack([one_hot([0, 1, 2], 3), [[0.5, 0.5, 0.0]]])
EAT_ROWS = [
    (0, 0, "eat", 2, 0, 1, 1, 0, 0),  # nobody yet, ate, share 1
    (1, 0, "eat", 2, 0, 0, 0, 0, 0),  # nobody yet, collected, 0
    (2, 2, "receive_eat", 2, 0, 1, 2, 0, 0),  # nobody yet, ate, 1
    (0, 1, "eat", 2, 0, 1, 0, 2, 0),  # ahead, ate, 0
    (1, 1, "eat", 2, 0, 1, 1, 3, 1),  # ahead, ate, 1
    (3, 0, "eat", 2, 0, 0, 0, 4, 2),  # ahead, collected, 0.5
    (2, 0, "eat", 2, 0, 0, 1, 2, 1),  # ahead, collected, 0
    (3, 1, "eat", 2, 0, 1, 2, 2, 2),  # level, ate, 0.5
    (0, 2, "eat", 2, 0, 0, 0, 1, 1),  # level, collected, 0
    (1, 2, "eat", 2, 0, 0, 0, 0, 2),  # behind, collected, 0
    (2, 1, "receive_eat", 2, 0, 0, 1, 1, 3),  # behind, collected, 0
    (3, 2, "eat", 2, 0, 1, 1, 0, 1),  # behind, ate, 0
    # Not eat-or-collect choices on a numbered slice: left out.
    (0, 0, "dibs", 2, 0, 1, 0, 0, 0),
    (1, 1, "eat", 1, 0, 1, 0, 0, 0),  # forced
    (2, 2, "eat", 2, 1, 1, 0, 0, 0),  # a combo
    (3, 0, "supreme", 2, 3, 1, 0, 0, 0),
]
EAT_COLUMNS = ["game_index", "seat", "phase", "n_legal", "slice_kind", "action", "pepperoni",
               "own_count2", "rival_count2"]  # fmt: skip


@pytest.fixture(scope="module")
def eat_data(tmp_path_factory):
    d = SyntheticDataset(tmp_path_factory.mktemp("eat"))
    d.arm("decisions-p3", 3, group="decisions", decisions=True)
    d.players("decisions-p3", win_share=EAT_RESULTS, score=np.zeros((4, 3)))
    rows = [dict(zip(EAT_COLUMNS, r, strict=True)) for r in EAT_ROWS]
    d.decisions("decisions-p3", [r | {"round": 0, "type_a": 1} for r in rows])
    # Another block's decisions stay out.
    d.arm("other-p3", 3, group="other", decisions=True)
    d.players("other-p3", win_share=EAT_RESULTS, score=np.zeros((4, 3)))
    d.decisions("other-p3", [r | {"round": 0, "type_a": 1} for r in rows])
    return d.write()


def _cr1(values, games, weights=None) -> tuple[float, float, float]:
    """Weighted mean and its 95% t interval clustered by game, game by game: each row's
    influence w (y - mean) / sum(w) summed within its game; variance G/(G-1) times the sum
    of the squared game totals; G - 1 degrees of freedom (no interval with one game)."""
    weights = [1.0] * len(values) if weights is None else weights
    total = sum(weights)
    m = sum(w * y for w, y in zip(weights, values, strict=True)) / total
    per_game: dict = {}
    for y, g, w in zip(values, games, weights, strict=True):
        per_game[g] = per_game.get(g, 0.0) + w * (y - m) / total
    k = len(per_game)
    if k < 2:
        return m, math.nan, math.nan
    half = stats.t.ppf(0.975, k - 1) * math.sqrt(k / (k - 1) * sum(v * v for v in
                                                                  per_game.values()))  # fmt: skip
    return m, m - half, m + half


def test_eat_table_by_race(eat_data):
    table = eat_table(eat_data, by="race")
    assert table["race"].to_list() == ["ahead", "behind", "level", "nobody yet"]
    for race, n, ate in (("ahead", 4, 2), ("behind", 3, 1), ("level", 2, 1), ("nobody yet", 3, 2)):
        r = row(table, race=race)
        # every race's decisions come from different games: one decision per game
        assert r["players"] == 3 and r["games"] == r["decisions"] == n
        assert r["eat_rate"] == approx(ate / n)
        assert (r["eat_low"], r["eat_high"]) == approx(scipy_wilson(ate, n), abs=1e-12)
        # the difference rests on the rarer choice: the warning counts its games
        assert r["smaller_group_decisions"] == r["smaller_group_games"] == min(ate, n - ate)
        assert r["warning"] == f"only {min(ate, n - ate)} games (< {MIN_GAMES})"
    # Ahead: eaters finished 0 (game 0) and 1 (game 1), collectors 0.5 (game 3) and 0
    # (game 2). Influence per game: eaters (y - 0.5) / 2, collectors -(y - 0.25) / 2.
    r = row(table, race="ahead")
    totals = [-0.25, 0.25, -0.125, 0.125]
    se = 100 * math.sqrt(4 / 3 * sum(t * t for t in totals))
    half = stats.t.ppf(0.975, 3) * se
    assert (r["share_eat"], r["share_collect"], r["diff_pp"]) == approx((0.5, 0.25, 25.0))
    assert (r["diff_low"], r["diff_high"]) == approx((25 - half, 25 + half))
    # Fewer than two on a side: no difference.
    for race, eat, collect in (("behind", 0, 0), ("level", 0.5, 0), ("nobody yet", 1, 0)):
        r = row(table, race=race)
        assert (r["share_eat"], r["share_collect"]) == (eat, collect)
        assert math.isnan(r["diff_pp"])


def test_eat_table_by_pepperoni_clusters_by_game(eat_data):
    table = eat_table(eat_data)
    assert table["pepperoni"].to_list() == [0, 1, 2]
    # pepperoni 0: 1 eaten of 5 decisions in 3 games (1: collect, collect; 0: eat,
    # collect; 3: collect). Design effect below 1 (the games mix): Wilson on 5 decisions.
    r = row(table, pepperoni=0)
    assert (r["games"], r["decisions"], r["eat_rate"], r["share_collect"]) == (3, 5, 0.2, 0.125)
    assert (r["eat_low"], r["eat_high"]) == approx(scipy_wilson(1, 5), abs=1e-12)
    # pepperoni 1: eaters in games 0, 1, 3 (shares 1, 1, 0), both collectors in game 2 (0, 0).
    r = row(table, pepperoni=1)
    assert (r["games"], r["decisions"], r["eat_rate"]) == (4, 5, 0.6)
    assert (r["smaller_group_decisions"], r["smaller_group_games"]) == (2, 1)
    # eat rate: influence (ate - 0.6) / 5; game totals 0.08, 0.08, -0.24 (game 2), 0.08
    clustered = 4 / 3 * (3 * 0.08**2 + 0.24**2)
    rows = 5 / 4 * (3 * 0.08**2 + 2 * 0.12**2)  # the same formula, each decision alone
    n_eff = 5 / (clustered / rows)
    assert (r["eat_low"], r["eat_high"]) == approx(wilson(0.6 * n_eff, n_eff))
    # difference: eaters' influence (y - 2/3) / 3 (1/9, 1/9, -2/9), collectors' 0
    se = 100 * math.sqrt(4 / 3 * (1 / 81 + 1 / 81 + 4 / 81))
    half = stats.t.ppf(0.975, 3) * se
    assert r["diff_pp"] == approx(200 / 3)
    assert (r["diff_low"], r["diff_high"]) == approx((200 / 3 - half, 200 / 3 + half))
    # pepperoni 2: both eaten, in 2 games: no variance, the effective size is the games
    r = row(table, pepperoni=2)
    assert (r["games"], r["decisions"], r["eat_rate"], r["share_eat"]) == (2, 2, 1.0, 0.75)
    assert (r["eat_low"], r["eat_high"]) == approx(scipy_wilson(2, 2), abs=1e-12)
    assert math.isnan(r["share_collect"])


# Replayed decisions (eat_payoffs rows): game 0 of the 3-player block had 6 eligible
# decisions of which 2 were replayed (weight 3), game 1 6 of 2 (weight 3), game 2 4 of 4
# (weight 1, one of them a combo that the strata leave out but that counts for the
# weight); at 4 players game 0 1 of 1, game 1 4 of 1 (weight 4).
PAYOFF_COLUMNS = ["players", "game_index", "eligible", "slice_kind", "pepperoni", "own_count2",
                  "rival_count2", "share_eat", "share_collect", "score_eat",
                  "score_collect"]  # fmt: skip
PAYOFF_ROWS = [
    (3, 0, 6, 0, 1, 2, 0, 1.0, 0.0, 30, 25),  # ahead: d 100, s 5, w 3
    (3, 0, 6, 0, 0, 4, 1, 0.5, 0.5, 28, 28),  # ahead: 0, 0, 3
    (3, 2, 4, 0, 1, 3, 2, 0.0, 0.0, 20, 22),  # ahead: 0, -2, 1
    (3, 1, 6, 0, 0, 0, 0, 1.0, 0.5, 31, 30),  # nobody yet: 50, 1, 3
    (3, 1, 6, 0, 2, 0, 0, 0.0, 1.0, 19, 24),  # nobody yet: -100, -5, 3
    (3, 2, 4, 0, 1, 2, 2, 1.0, 0.0, 26, 21),  # level: 100, 5, 1
    (3, 2, 4, 0, 0, 0, 2, 0.0, 0.0, 15, 15),  # behind: 0, 0, 1
    (3, 2, 4, 1, 0, 0, 0, 1.0, 0.0, 40, 10),  # a combo: 100, 30, 1 (overall only)
    (4, 0, 1, 0, 0, 1, 3, 0.25, 0.0, 12, 11),  # behind: 25, 1, 1
    (4, 1, 4, 0, 0, 0, 1, 0.0, 0.25, 11, 12),  # behind: -25, -1, 4
]


def test_eat_payoff_weights_and_clusters_by_game():
    payoffs = pl.DataFrame(PAYOFF_ROWS, schema=PAYOFF_COLUMNS, orient="row")
    table = eat_payoff(payoffs, by="race")
    assert table.select("players", "race").rows() == [
        (3, "ahead"),
        (3, "behind"),
        (3, "level"),
        (3, "nobody yet"),
        (4, "behind"),
    ]
    r = row(table, players=3, race="ahead")
    assert (r["games"], r["decisions"], r["eligible_decisions"]) == (2, 3, 7)
    d, s, g, w = [100, 0, 0], [5, 0, -2], [0, 0, 2], [3, 3, 1]
    assert r["payoff_pp"] == approx(300 / 7)
    assert (r["payoff_pp"], r["payoff_low"], r["payoff_high"]) == approx(_cr1(d, g, w))
    assert (r["score_payoff"], r["score_low"], r["score_high"]) == approx(_cr1(s, g, w))
    assert r["eat_better"] == approx(3 / 7)  # weighted
    r = row(table, players=4, race="behind")
    assert (r["games"], r["decisions"], r["payoff_pp"]) == (2, 2, approx(-15.0))
    assert (r["payoff_pp"], r["payoff_low"], r["payoff_high"]) == approx(
        _cr1([25, -25], [0, 1], [1, 4])
    )
    # two decisions of one game: one game, no interval
    r = row(table, players=3, race="nobody yet")
    assert (r["games"], r["decisions"], r["payoff_pp"]) == (1, 2, approx(-25.0))
    assert math.isnan(r["payoff_low"]) and r["warning"] == "only 1 games (< 100)"
    r = row(eat_payoff(payoffs), players=3, pepperoni=1)  # 100 (w 3), 0 and 100 (game 2)
    assert (r["games"], r["decisions"], r["payoff_pp"]) == (2, 3, approx(80.0))
    assert r["eat_better"] == approx(4 / 5)


def test_eat_payoff_overall_per_count_and_pooled():
    from analysis.nyslice.threshold import eat_payoff_overall

    payoffs = pl.DataFrame(PAYOFF_ROWS, schema=PAYOFF_COLUMNS, orient="row")
    d = [100 * (r[7] - r[8]) for r in PAYOFF_ROWS]
    w = [r[2] / sum(q[:2] == r[:2] for q in PAYOFF_ROWS) for r in PAYOFF_ROWS]
    game = [r[:2] for r in PAYOFF_ROWS]  # (players, game_index): game 0 of each count differs
    table = eat_payoff_overall(payoffs)
    assert table["players"].to_list() == [3, 4]
    r = row(table, players=3)  # every slice kind, the combo included
    assert (r["games"], r["decisions"], r["eligible_decisions"]) == (3, 8, 16)
    assert (r["payoff_pp"], r["payoff_low"], r["payoff_high"]) == approx(
        _cr1(d[:8], game[:8], w[:8])
    )
    r = row(eat_payoff_overall(payoffs, numbered_only=True), players=3)
    assert r["decisions"] == 7
    assert (r["payoff_pp"], r["payoff_low"], r["payoff_high"]) == approx(
        _cr1(d[:7], game[:7], w[:7])
    )
    pooled = eat_payoff_overall(payoffs, by_players=False).row(0, named=True)
    assert pooled["players"] is None and (pooled["games"], pooled["decisions"]) == (5, 10)
    assert (pooled["payoff_pp"], pooled["payoff_low"], pooled["payoff_high"]) == approx(
        _cr1(d, game, w)
    )


# --------------------------------------------------------------------------------------
# Question 4: player count
# --------------------------------------------------------------------------------------

COUNT_SCORES = np.array([[10, 8, 5], [7, 7, 3], [12, 4, 11], [6, 9, 9], [15, 2, 1]])
COUNT_EATEN = np.array([[3, 3, 3], [4, 4, 1], [2, 2, 2], [5, 4, 6], [1, 1, 1]])


@pytest.fixture(scope="module")
def count_data(tmp_path_factory):
    d = SyntheticDataset(tmp_path_factory.mktemp("count"))
    d.arm("seats-p3", 3, group="seats")
    # Game 1 is shared (equal score and eaten); game 3 ties on score, seat 2 ate more.
    share = np.vstack([one_hot([0], 3), [[0.5, 0.5, 0]], one_hot([0, 2, 0], 3)])
    d.players("seats-p3", win_share=share, score=COUNT_SCORES, eaten=COUNT_EATEN)
    d.games("seats-p3", n_winners=[1, 2, 1, 1, 1], majorities_unclaimed=[1, 0, 2, 0, 3])
    # 2 players: types 3, 8 and 10 are out of play, so their majorities are always unclaimed.
    d.arm("seats-p2", 2, group="seats")
    d.players("seats-p2", win_share=np.array([[1, 0], [0.5, 0.5], [1, 0], [0, 1]]),
              score=[[5, 3], [4, 4], [9, 1], [2, 3]], eaten=np.ones((4, 2)))  # fmt: skip
    d.games("seats-p2", n_winners=[1, 2, 1, 1], majorities_unclaimed=[3, 4, 5, 3])
    d.arm("seats-p3-dibs", 3, group="seats", blank="dibs")  # left out
    d.players("seats-p3-dibs", win_share=one_hot([0], 3), score=[[50, 0, 0]], eaten=[[0, 0, 0]])
    d.games("seats-p3-dibs", n_winners=[1], majorities_unclaimed=[9])
    return d.write()


def test_player_count_measures_by_hand(count_data):
    table = player_count(count_data)
    assert table["players"].unique().sort().to_list() == [2, 3]
    assert set(table["warning"]) == {"only 4 games (< 100)", "only 5 games (< 100)"}
    got = {r["measure"]: r for r in table.filter(pl.col("players") == 3).iter_rows(named=True)}
    assert set(got) == {"score", "spread", "margin", "shared_win", "close", "unclaimed"}
    assert all(r["players"] == 3 and r["games"] == 5 for r in got.values())
    spread = [np.std(s, ddof=1) for s in COUNT_SCORES]
    assert spread[0] == approx(math.sqrt((7**2 + 1**2 + 8**2) / 9 / 2))  # deviations 7/3, 1/3, -8/3
    for measure, values, mean in (
        ("score", COUNT_SCORES.mean(axis=1), (23 / 3 + 17 / 3 + 9 + 8 + 6) / 5),
        ("spread", spread, np.mean(spread)),
        ("margin", [2, 0, 1, 0, 13], 3.2),
        ("unclaimed", [1, 0, 2, 0, 3], 1.2),
    ):
        r = got[measure]
        assert r["estimate"] == approx(mean)
        assert (r["estimate"], r["low"], r["high"]) == approx(t_interval(values))
    # Shared: game 1. Close (margin <= 1): games 1, 2 and 3.
    for measure, k in (("shared_win", 1), ("close", 3)):
        r = got[measure]
        assert r["estimate"] == approx(k / 5)
        assert (r["low"], r["high"]) == approx(scipy_wilson(k, 5), abs=1e-12)


def test_player_count_two_players(count_data):
    got = {r["measure"]: r for r in player_count(count_data).filter(pl.col("players") == 2)
           .iter_rows(named=True)}  # fmt: skip
    assert all(r["games"] == 4 for r in got.values())
    for measure, values in (
        ("score", [4, 4, 5, 2.5]),
        ("spread", np.array([2, 0, 8, 1]) / math.sqrt(2)),  # |a - b| / sqrt(2) for two
        ("margin", [2, 0, 8, 1]),
        ("unclaimed", [0, 1, 2, 0]),  # the 3 types out of play are not counted
    ):
        r = got[measure]
        assert (r["estimate"], r["low"], r["high"]) == approx(t_interval(values))
    assert got["shared_win"]["estimate"] == 0.25 and got["close"]["estimate"] == 0.5
    assert (got["close"]["low"], got["close"]["high"]) == approx(scipy_wilson(2, 4), abs=1e-12)


def test_seat_advantage_carries_times_slicer(order_data):
    table = seat_advantage(order_data)
    assert table.filter(pl.col("players") == 4)["times_slicer"].to_list() == [2, 2, 1, 1]
    assert table.filter(pl.col("players") == 5)["times_slicer"].to_list() == [1] * 5


# --------------------------------------------------------------------------------------
# Sentences of interpretation (analysis.nyslice.prose): each flips with its numbers
# --------------------------------------------------------------------------------------


def test_field_theta_reads_the_spec_or_the_preset():
    from analysis.nyslice.prose import field_theta
    from sims.games.nyslice.heuristic import params_for

    assert field_theta("heuristic(theta=4)", 3) == 4.0
    assert field_theta("heuristic", 4) == params_for(4, {})["theta"]
    assert field_theta("greedy", 4) is None


def test_eats_vs_field_flips_with_theta():
    from analysis.nyslice.prose import eats_vs_field

    field = {2: 2.2, 3: 0.5, 4: 0.9}
    assert eats_vs_field(4.0, field, "the preset") == (
        "which collects more than the preset at every player count"
    )
    assert eats_vs_field(0.3, field, "the preset") == (
        "which eats more than the preset at every player count"
    )
    assert eats_vs_field(1.0, field, "the preset") == (
        "which collects more than the preset at 3 and 4 players; eats more than the preset "
        "at 2 players"
    )


def _curve(lows, highs, fair=0.25):
    k = len(lows)
    return pl.DataFrame({"players": list(range(2, 2 + k)), "theta": [4.0] * k,
                         "win_low": lows, "win_high": highs, "fair": [fair] * k})  # fmt: skip


def test_against_field_flips_with_the_interval():
    from analysis.nyslice.prose import against_field

    assert against_field(_curve([0.3, 0.2], [0.4, 0.3]), 4.0, "it") == (
        "beats it at 2 players; is not distinguishable from it (its interval covers the fair "
        "share) at 3 players"
    )
    assert against_field(_curve([0.1, 0.1], [0.2, 0.2]), 4.0) == (
        "loses to the field at 2 and 3 players"
    )
    assert against_field(_curve([0.3], [0.4]), 2.0) == "(θ=2 is not in the θ sweep)"


def test_rated_vs_flips_with_the_ratings():
    from analysis.nyslice.prose import rated_vs

    t = pl.DataFrame({"players": [3, 3, 4, 4], "strategy": ["heuristic", "greedy"] * 2,
                      "rating": [50.0, -50.0, 20.0, -20.0]})  # fmt: skip
    assert rated_vs(t, "greedy", "heuristic", "h") == "rated below h at 3 and 4 players"
    t = t.with_columns(pl.Series("rating", [50.0, -50.0, -20.0, 20.0]))
    assert rated_vs(t, "greedy", "heuristic", "h") == (
        "rated below h at 3 players; rated above h at 4 players"
    )
    assert rated_vs(t, "random", "heuristic", "h") == "not rated against h"


def _specials(obs_low, obs_high, score_effect, direct):
    k = len(obs_low)
    return pl.DataFrame({
        "special": ["dibs", "buffet", "seconds"][:k], "effect_pp": [5.0, 0.0, -5.0][:k],
        "effect_low": [2.0, -3.0, -8.0][:k], "effect_high": [8.0, 3.0, -2.0][:k],
        "obs_pp": [(a + b) / 2 for a, b in zip(obs_low, obs_high, strict=True)],
        "obs_low": obs_low, "obs_high": obs_high, "score_effect": score_effect,
        "direct_points": direct, "holm_significant": [True, False, True][:k],
    })  # fmt: skip


def test_estimates_differ_flips_with_overlap():
    from analysis.nyslice.prose import estimates_differ

    apart = _specials([10.0, -1.0, -7.0], [14.0, 1.0, -3.0], [1.0, 0.0, -1.0], [1.0, 0, 0])
    assert estimates_differ(apart, 4) == (
        "At 4 players the two estimates differ (their intervals do not overlap) for dibs; the "
        "observational one is the higher for 1 of 1: there it picks up the value (or cost) of "
        "the portion that came with the special."
    )
    close = _specials([6.0, -1.0, -7.0], [14.0, 1.0, -3.0], [1.0, 0.0, -1.0], [1.0, 0, 0])
    assert estimates_differ(close, 4).startswith(
        "At 4 players the two estimates' intervals overlap for every special"
    )


def test_other_points_and_no_direct_flip():
    from analysis.nyslice.prose import no_direct, other_points

    s = _specials([0.0, 0.0], [1.0, 1.0], [2.0, -1.5], [3.0, 0.0])
    assert other_points(s, 4) == (
        "At 4 players 'other' is negative for 2 of 2 specials (lowest: buffet, -1.50 pts): "
        "for those the rest of the holder's game went worse with the special than without it."
    )
    assert (
        no_direct(s, 4) == "At 4 players 'direct' is 0 for buffet: they act only through 'other'."
    )
    s = _specials([0.0, 0.0], [1.0, 1.0], [4.0, 1.5], [3.0, 0.5])
    assert other_points(s, 4).startswith("At 4 players 'other' is negative for none of the 2")
    assert no_direct(s, 4) == "At 4 players 'direct' differs from 0 for every special."


def _best(best, edge_low, edge=30.0):
    k = len(best)
    return pl.DataFrame({"players": list(range(2, 2 + k)), "best_theta": best,
                         "edge_pp": [edge] * k, "edge_low": edge_low})  # fmt: skip


def test_grid_edge_flips_with_the_best_theta():
    from analysis.nyslice.prose import grid_edge

    grid = [0.5, 1.0, 4.0, 16.0]
    assert (
        grid_edge(_best([1.0, 4.0], [0, 0]), grid) == "Every best θ lies inside the grid (0.5–16)."
    )
    assert grid_edge(_best([16.0, 0.5], [0, 0]), grid) == (
        "The best θ is at the edge of the grid at its low end (0.5) at 3 players and at its "
        "high end (16) at 2 players: the optimum may lie beyond it."
    )


def test_field_check_says_which_way_the_presets_are_off():
    from analysis.nyslice.prose import field_check

    field = {2: 2.0, 3: 1.0}
    much = field_check(_best([4.0, 4.0], [10.0, 10.0]), field)
    assert "beats the field by +30 pp at 2p, +30 pp at 3p" in much
    assert "eat too much at 2 and 3 players (the best θ is above the preset's)" in much
    little = field_check(_best([0.5, 0.5], [10.0, 10.0]), field)
    assert "eat too little at 2 and 3 players" in little and "too much" not in little
    mixed = field_check(_best([4.0, 0.5], [10.0, 10.0]), field)
    assert "eat too much at 2 players" in mixed and "eat too little at 3 players" in mixed
    none = field_check(_best([4.0, 0.5], [1.0, -3.0]), field)
    assert none.startswith("Field check: at no player count does a single seat switching θ")
    assert "exploitable players" not in none


def test_payoff_overall_flips_with_the_interval():
    from analysis.nyslice.prose import payoff_overall

    d = np.zeros(10)
    assert payoff_overall(d, -5.0, -7.0, -3.0) == (
        "over all 10 decisions -5.0 pp [-7.0, -3.0]: eating costs the decider win share on average."
    )
    assert payoff_overall(d, 2.0, 1.0, 3.0).endswith(
        "eating gains the decider win share on average."
    )
    assert payoff_overall(d, 0.5, -1.0, 2.0).endswith(
        "(the interval covers 0): on average neither choice is shown to be better."
    )


def test_strongest_weakest_names_both_with_their_intervals():
    from analysis.nyslice.prose import strongest_weakest

    s = _specials([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0] * 3, [0.0] * 3)
    assert strongest_weakest(s, 4) == (
        "At 4 players dibs is strongest (+5.0 pp [+2.0, +8.0]) and seconds weakest (-5.0 pp "
        "[-8.0, -2.0]); Holm-significant across the specials: dibs, seconds."
    )
    s = s.with_columns(pl.Series("effect_low", [-1.0, -3.0, -8.0]), pl.lit(False)
                       .alias("holm_significant"))  # fmt: skip
    assert "dibs is strongest (+5.0 pp [-1.0, +8.0] (the interval covers 0))" in (
        strongest_weakest(s, 4)
    )
    assert strongest_weakest(s, 4).endswith("Holm-significant across the specials: none.")


def test_best_theta_reads_deals_in_a_fixed_order(theta_data):
    # nothing may depend on how polars grouped the Parquet rows (a bootstrap that drew
    # rows by position once did: its interval changed from run to run)
    from analysis.sweep import deal_shares

    deals = deal_shares(theta_data, "theta", "theta")
    assert deals.equals(deals.sort("players", "theta", "game_index"))
    assert best_theta(theta_data).equals(best_theta(theta_data))
    # the old bootstrap's arguments are accepted (and ignored) for old callers
    assert best_theta(theta_data, n_boot=200, seed=1).equals(best_theta(theta_data))


def _near_tie(out, reverse: bool):
    """60 deals at θ 0.5 and 1.0 whose win shares nearly tie, rows written forwards or
    backwards (the order in which Parquet files hand rows to polars is not fixed)."""
    rng = np.random.default_rng(3)
    d = SyntheticDataset(out)
    base = rng.random((60, 3))  # the θ seat's share in each deal, for each rotation
    for theta in (0.5, 1.0):
        x = base if theta == 0.5 else base[rng.permutation(60)]  # equal means, other deals
        for r in range(3):
            share = np.zeros((60, 3))
            share[:, r], share[:, (r + 1) % 3] = x[:, r], 1 - x[:, r]
            specs = ["heuristic"] * 3
            specs[r] = f"heuristic(theta={theta})"
            arm = d.arm(f"theta-p3-t{theta}-r{r}", 3, specs, group="theta", rotation=r,
                        grid={"theta": theta}, games=60)  # fmt: skip
            order = slice(None, None, -1) if reverse else slice(None)
            d.table("players", arm, {
                "game_index": np.repeat(np.arange(60), 3)[order],
                "seat": np.tile(np.arange(3), 60)[order],
                "strategy": (specs * 60)[order], "win_share": share.ravel()[order],
            })  # fmt: skip
    return d.write()


def test_best_theta_does_not_depend_on_row_order(tmp_path):
    forwards = best_theta(_near_tie(tmp_path / "f", False))
    backwards = best_theta(_near_tie(tmp_path / "b", True))
    assert forwards["theta_set"][0].to_list() == [0.5, 1.0]  # a real near-tie
    assert forwards.equals(backwards)
    curves = theta_curve(tmp_path / "f"), theta_curve(tmp_path / "b")
    assert curves[0].equals(curves[1])


# Restricted play, 3 players, 6 deals. The unrestricted field's winners per deal, and in
# the restricted block (seat k never takes Stuffed Crust, k = rotation) the restricted
# seat wins only deal 0 in every rotation (it wins 1/6 where its unrestricted self won 2/6
# on average: see the worked numbers below).
BASE_WINNERS = [0, 1, 2, 0, 1, 2]


@pytest.fixture(scope="module")
def restricted_data(tmp_path_factory):
    d = SyntheticDataset(tmp_path_factory.mktemp("restricted"))
    d.arm("seats-p3", 3, group="seats", seed=5)
    base = one_hot(BASE_WINNERS, 3)
    d.players("seats-p3", win_share=base, score=10 + 10 * base)
    for k in range(3):
        specs = ["heuristic"] * 3
        specs[k] = "heuristic(avoid=stuffed_crust)"
        arm = d.arm(f"restricted-p3.r{k}", 3, specs, group="restricted", seed=5, rotation=k,
                    grid={"special": "stuffed_crust"})  # fmt: skip
        share = np.zeros((6, 3))
        share[0, k] = 1.0  # the restricted seat wins deal 0 only
        for g in range(1, 6):
            share[g, (k + 1) % 3] = 1.0
        d.players(arm, win_share=share, score=10 + 10 * share)
    # 2 players: Dibs! is never in play, so its restricted block says nothing
    d.arm("seats-p2", 2, group="seats", seed=5)
    d.players("seats-p2", win_share=one_hot([0, 1], 2), score=np.ones((2, 2)))
    for k in range(2):
        specs = ["heuristic"] * 2
        specs[k] = "heuristic(avoid=dibs)"
        arm = d.arm(f"restricted-p2.r{k}", 2, specs, group="restricted", seed=5, rotation=k)
        d.players(arm, win_share=one_hot([1, 0], 2), score=np.ones((2, 2)))
    d.arm("other-p3", 3, group="other", seed=6)
    d.players("other-p3", win_share=base, score=base)
    return d.write()


def test_restricted_play_value_by_hand(restricted_data):
    table = restricted_play(restricted_data)
    assert table.select("players", "special").rows() == [(3, "stuffed_crust")]
    r = row(table, players=3, special="stuffed_crust")
    # Deal g, rotation k: base seat k's share minus the restricted seat k's.
    base = one_hot(BASE_WINNERS, 3)
    rest = np.zeros((6, 3))
    rest[0, :] = 1.0
    per_deal = 100 * (base - rest).mean(axis=1)  # deal 0: (1-1+0-1+0-1)/3 = -2/3 ...
    assert per_deal == approx([100 * (1 - 3) / 3] + [100 / 3] * 5)
    m, lo, hi = t_interval(per_deal)
    assert (r["value_pp"], r["value_low"], r["value_high"]) == approx((m, lo, hi))
    assert r["deals"] == 6 and r["seat_games"] == 18
    assert r["score_value"] == approx(m / 10)  # scores are 10 + 10 * share


def test_restricted_play_refuses_blocks_that_are_not_the_same_deals(restricted_data):
    with pytest.raises(SlicelabError, match="do not deal the same games"):
        restricted_play(restricted_data, "restricted", "other")
