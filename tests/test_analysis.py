"""The balance analyses (``analysis/``) against known answers.

Each dataset is synthetic (``analysis_fixtures``): a handful of games whose win shares,
scores and decisions are chosen so the right answer is known by hand, or from scipy on the
same numbers. Every expected value below is worked out from the numbers written into the
dataset, never from the analysis code.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import SyntheticDataset, mask, one_hot
from scipy import optimize, stats

from analysis.playercount import player_count
from analysis.ratings import ratings
from analysis.samplesize import MIN_GAMES, annotate, games_for, warning
from analysis.seats import rotated_seat_advantage, seat_advantage, seat_fairness, slicing_twice
from analysis.specials import interventional, observational, strength
from analysis.stats import ELO_PER_LOG, holm
from analysis.summary import seat_summary
from analysis.threshold import best_theta, eat_payoff, eat_table, theta_curve

Z = stats.norm.ppf(0.975)
ELO = 400 / math.log(10)


def wilson(k: float, n: int) -> tuple[float, float]:
    """The Wilson score interval, written out (for fractional ``k``; integer ``k`` is
    checked against scipy below)."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def scipy_wilson(k: int, n: int) -> tuple[float, float]:
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return ci.low, ci.high


def t_interval(x) -> tuple[float, float, float]:
    """Mean and 95% t interval from scipy."""
    x = np.asarray(x, dtype=float)
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    return x.mean(), lo, hi


def row(table: pl.DataFrame, **keys) -> dict:
    """The one row of ``table`` matching ``keys``."""
    sub = table.filter(*[pl.col(k) == v for k, v in keys.items()])
    assert sub.height == 1, f"{keys}: {sub.height} rows"
    return sub.row(0, named=True)


approx = pytest.approx


# --------------------------------------------------------------------------------------
# Question 1: seats
# --------------------------------------------------------------------------------------

# 3 players, 12 games: seat 0 wins 6, seat 1 wins 3, seat 2 wins 1, seats 0 and 1 share one
# (1/2 each) and all three share one (1/3 each).
P3_SHARES = np.vstack(
    [one_hot([0] * 6 + [1] * 3 + [2], 3), [[0.5, 0.5, 0.0]], [[1 / 3, 1 / 3, 1 / 3]]]
)
P3_WINS = [Fraction(41, 6), Fraction(23, 6), Fraction(8, 6)]  # 6+1/2+1/3, 3+1/2+1/3, 1+1/3
P3_SCORES = (np.arange(12)[:, None] * 7 + np.arange(3) * 3) % 11 + 10
# 2 players, 200 games: seat 0 wins 120, seat 1 wins 70, 10 are shared (wins 125 and 75).
P2_SHARES = np.vstack([one_hot([0] * 120 + [1] * 70, 2), np.full((10, 2), 0.5)])


@pytest.fixture(scope="module")
def seats_data(tmp_path_factory):
    d = SyntheticDataset(tmp_path_factory.mktemp("seats"))
    d.arm("seats-p3", 3, group="seats")
    d.players("seats-p3", win_share=P3_SHARES, score=P3_SCORES, times_slicer=[2, 2, 2])
    d.arm("seats-p2", 2, group="seats")
    d.players("seats-p2", win_share=P2_SHARES, score=np.full((200, 2), 20), times_slicer=[2, 2])
    # Decoys the seat analyses must leave out: another block, and a blanked-special arm.
    d.arm("seats-greedy-p3", 3, "greedy", group="seats-greedy")
    d.players("seats-greedy-p3", win_share=one_hot([2] * 50, 3), score=np.zeros((50, 3)),
              times_slicer=[2, 2, 2])  # fmt: skip
    d.arm("seats-p3-dibs", 3, group="seats", blank="dibs")
    d.players("seats-p3-dibs", win_share=one_hot([2] * 50, 3), score=np.zeros((50, 3)),
              times_slicer=[2, 2, 2])  # fmt: skip
    return d.write()


def test_seat_advantage_win_shares_wilson_and_edges(seats_data):
    table = seat_advantage(seats_data)
    assert table.select("players", "seat").rows() == [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]
    for seat, wins in enumerate(P3_WINS):
        r = row(table, players=3, seat=seat)
        share = float(wins / 12)
        lo, hi = wilson(float(wins), 12)
        assert r["games"] == 12 and r["strategy"] == "heuristic" and r["times_slicer"] == 2
        assert r["win_share"] == approx(share, abs=1e-12)
        assert (r["win_low"], r["win_high"]) == approx((lo, hi), abs=1e-12)
        assert r["fair"] == approx(1 / 3)
        assert r["edge_pp"] == approx(100 * (share - 1 / 3), abs=1e-9)
        assert (r["edge_low"], r["edge_high"]) == approx(
            (100 * (lo - 1 / 3), 100 * (hi - 1 / 3)), abs=1e-9
        )
        assert r["warning"] == f"only 12 games (< {MIN_GAMES})"
    # Integer wins: the Wilson interval is scipy's.
    for seat, wins in ((0, 125), (1, 75)):
        r = row(table, players=2, seat=seat)
        lo, hi = scipy_wilson(wins, 200)
        assert r["win_share"] == wins / 200 and r["fair"] == 0.5
        assert (r["win_low"], r["win_high"]) == approx((lo, hi), abs=1e-12)
        assert r["edge_pp"] == approx(100 * (wins / 200 - 0.5))
        assert r["half_width"] == approx((hi - lo) / 2, abs=1e-12)
        assert r["games_for_1pp"] == math.ceil(200 * ((hi - lo) / 2 / 0.01) ** 2)
        assert r["warning"] == ""  # the interval excludes the fair share


def test_seat_advantage_score_t_interval(seats_data):
    table = seat_advantage(seats_data)
    for seat in range(3):
        m, lo, hi = t_interval(P3_SCORES[:, seat])
        r = row(table, players=3, seat=seat)
        assert (r["score"], r["score_low"], r["score_high"]) == approx((m, lo, hi), abs=1e-9)
    r = row(table, players=2, seat=0)  # every score 20: a degenerate interval
    assert (r["score"], r["score_low"], r["score_high"]) == (20, 20, 20)


def test_seat_fairness_chi_square_and_first_slicer_edge(seats_data):
    table = seat_fairness(seats_data)
    assert table["players"].to_list() == [2, 3]
    r = row(table, players=3)
    wins = np.array([float(w) for w in P3_WINS])
    res = stats.chisquare(wins, [4.0, 4.0, 4.0])
    # By hand: ((17/6)^2 + (1/6)^2 + (16/6)^2) / 4 = 546/144, and chi2(2).sf(x) = exp(-x/2).
    assert r["chi2"] == approx(546 / 144) == res.statistic
    assert r["p_value"] == approx(math.exp(-546 / 288)) == res.pvalue
    assert r["df"] == 2 and r["games"] == 12
    assert r["max_edge_pp"] == approx(100 * (41 / 72 - 1 / 3))
    # Seat 0 minus the mean of the others, per game: +1 (x6), -1/2 (x4), +1/4, 0.
    first = [1.0] * 6 + [-0.5] * 4 + [0.25, 0.0]
    m, lo, hi = t_interval(first)
    assert m == approx(4.25 / 12)
    assert (r["first_edge_pp"], r["first_low"], r["first_high"]) == approx(
        (100 * m, 100 * lo, 100 * hi), abs=1e-9
    )
    r = row(table, players=2)
    res = stats.chisquare([125.0, 75.0], [100.0, 100.0])
    assert r["chi2"] == approx(12.5) and r["p_value"] == approx(res.pvalue)
    m, lo, hi = t_interval([1.0] * 120 + [-1.0] * 70 + [0.0] * 10)
    assert r["first_edge_pp"] == approx(25.0)
    assert (r["first_low"], r["first_high"]) == approx((100 * lo, 100 * hi), abs=1e-9)
    assert r["warning"] == ""


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


def _order_and_twice(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-game least-squares b and c of y_k = a + b k + c twice_k at 4 players, by hand:
    the order step within the equal pairs, ((y1 - y0) + (y3 - y2)) / 2, and the twice
    effect, the pair-mean difference plus the two order steps it spans."""
    b = ((y[:, 1] - y[:, 0]) + (y[:, 3] - y[:, 2])) / 2
    c = (y[:, 0] + y[:, 1]) / 2 - (y[:, 2] + y[:, 3]) / 2 + 2 * b
    return b, c


def test_slicing_twice_recovers_order_step_and_twice_effect(order_data):
    table = slicing_twice(order_data)
    assert table["players"].unique().to_list() == [4]  # no row at 5 players
    share_b, share_c = _order_and_twice(one_hot(ORDER_WINNERS, 4))
    score_b, score_c = _order_and_twice(ORDER_SCORES.astype(float))
    for measure, effect, scale, values, exact in (
        ("win_share", "order_step", 100, share_b, -5.0),
        ("win_share", "twice", 100, share_c, 20.0),
        ("score", "order_step", 1, score_b, -1.0),
        ("score", "twice", 1, score_c, 3.0),
    ):
        r = row(table, measure=measure, effect=effect)
        m, lo, hi = t_interval(scale * values)
        assert r["estimate"] == approx(exact, abs=1e-9)
        assert m == approx(exact, abs=1e-9) and np.std(values) > 0  # the noise is real
        assert (r["low"], r["high"]) == approx((lo, hi), abs=1e-9)
        assert r["games"] == 40


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


def test_observational_seat_adjusted_difference_by_hand(specials_data):
    table = observational(specials_data)
    assert set(table.select("players", "special").rows()) == {
        (3, "dibs"),
        (3, "buffet"),
        (2, "buffet"),
    }  # nobody ever held another special: no row
    # Dibs, per seat (holders vs the same seat's non-holders in games where dibs was held):
    #   seat 0: [1,1,0] vs [0,0,0,0,1]: d = 2/3 - 1/5 = 7/15, w = 3*5/8, v = 1/9 + 1/25
    #   seat 1: [1,1,0] vs [0,1,0,0,0]: the same
    #   seat 2: [1,0] vs [0,0,0,0,0,1]: d = 1/3, w = 2*6/8, v = 1/4 + 1/36
    # estimate = (2 * 15/8 * 7/15 + 3/2 * 1/3) / (2 * 15/8 + 3/2) = 3/7
    # variance = (2 * (15/8)^2 * 34/225 + (3/2)^2 * 5/18) / (21/4)^2 = 1.6875 / (21/4)^2
    r = row(table, players=3, special="dibs")
    half = Z * math.sqrt(1.6875) / (21 / 4)
    assert r["games"] == r["holders"] == 8
    assert r["effect_pp"] == approx(100 * 3 / 7)
    assert r["effect_low"] == approx(100 * (3 / 7 - half))
    assert r["effect_high"] == approx(100 * (3 / 7 + half))
    # The scores are 7 + 20 * share + 3 * seat: the seat term drops out within seats.
    assert r["score_effect"] == approx(20 * 3 / 7)
    assert (r["score_low"], r["score_high"]) == approx((20 * (3 / 7 - half), 20 * (3 / 7 + half)))
    # Buffet: seat 0 [1,1,0] vs [0,0]; seat 1 [1,1] vs [0,0,1]; no holder in seat 2.
    # d = 2/3 in both, w = 6/5 in both, v = 1/9 in both: 2/3 +- z sqrt(2 (6/5)^2 / 9) / (12/5)
    r = row(table, players=3, special="buffet")
    half = Z * math.sqrt(2 * 1.44 / 9) / 2.4
    assert r["games"] == 5
    assert r["effect_pp"] == approx(100 * 2 / 3)
    assert r["effect_low"] == approx(100 * (2 / 3 - half))
    assert r["effect_high"] == approx(100 * (2 / 3 + half))
    t3 = table.filter(pl.col("players") == 3)
    lo, hi = sorted(_check_holm(t3))  # two tests: min(1, 2 p_min), then max(that, p_max)
    assert sorted(t3["p_holm"]) == approx([2 * lo, max(2 * lo, hi)])
    assert row(table, players=3, special="buffet")["holm_significant"]
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
    table = theta_curve(theta_data)
    assert table["theta"].to_list() == [0.5, 1.0, 2.0]
    for theta, share in DEAL_SHARE.items():
        r = row(table, theta=theta)
        m, lo, hi = t_interval(share)  # over 6 deals, not 18 seat-games
        lo, hi = max(lo, 0.0), min(hi, 1.0)  # a share's interval is clamped to [0, 1]
        assert r["games"] == 6 and r["seat_games"] == 18 and r["players"] == 3
        assert (r["win_share"], r["win_low"], r["win_high"]) == approx((m, lo, hi))
        assert r["fair"] == approx(1 / 3) and r["edge_pp"] == approx(100 * (m - 1 / 3))
    assert row(table, theta=0.5)["win_share"] == approx(16 / 18)
    assert row(table, theta=2.0)["win_share"] == approx(3.5 / 18)


def test_best_theta_clear_maximum(theta_data):
    r = best_theta(theta_data, n_boot=300).row(0, named=True)
    assert r["players"] == 3 and r["games"] == 6
    assert r["best_theta"] == r["theta_low"] == r["theta_high"] == 0.5
    assert r["p_best"] == 1.0
    assert r["win_share"] == approx(16 / 18)
    m, lo, hi = t_interval(100 * (DEAL_SHARE[0.5] - 1 / 3))  # over the fair share, by deal
    assert m == approx(100 * (16 / 18 - 1 / 3))
    assert (r["edge_pp"], r["edge_low"], r["edge_high"]) == approx((m, lo, hi))
    assert r["warning"] == "only 6 games (< 100)"


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


def test_eat_table_by_race(eat_data):
    table = eat_table(eat_data, by="race")
    assert table["race"].to_list() == ["ahead", "behind", "level", "nobody yet"]
    for race, n, ate in (("ahead", 4, 2), ("behind", 3, 1), ("level", 2, 1), ("nobody yet", 3, 2)):
        r = row(table, race=race)
        assert r["players"] == 3 and r["games"] == n and r["eat_rate"] == approx(ate / n)
        assert (r["eat_low"], r["eat_high"]) == approx(scipy_wilson(ate, n), abs=1e-12)
        # the difference rests on the rarer choice: the warning counts that group
        assert r["smaller_group"] == min(ate, n - ate)
        assert r["warning"] == f"only {min(ate, n - ate)} decisions (< {MIN_GAMES})"
    # Ahead: eaters finished 0 and 1, collectors 0.5 and 0.
    r = row(table, race="ahead")
    se = 100 * math.sqrt(0.5 / 2 + 0.125 / 2)
    assert (r["share_eat"], r["share_collect"], r["diff_pp"]) == approx((0.5, 0.25, 25.0))
    assert (r["diff_low"], r["diff_high"]) == approx((25 - Z * se, 25 + Z * se))
    # Fewer than two on a side: no difference.
    for race, eat, collect in (("behind", 0, 0), ("level", 0.5, 0), ("nobody yet", 1, 0)):
        r = row(table, race=race)
        assert (r["share_eat"], r["share_collect"]) == (eat, collect)
        assert math.isnan(r["diff_pp"])


def test_eat_table_by_pepperoni(eat_data):
    table = eat_table(eat_data)
    assert table["pepperoni"].to_list() == [0, 1, 2]
    r = row(table, pepperoni=0)  # 1 eaten of 5
    assert (r["games"], r["eat_rate"], r["share_collect"]) == (5, 0.2, 0.125)
    assert (r["eat_low"], r["eat_high"]) == approx(scipy_wilson(1, 5), abs=1e-12)
    r = row(table, pepperoni=1)  # eaters 1, 1, 0; collectors 0, 0
    se = 100 * math.sqrt((1 / 3) / 3 + 0 / 2)
    assert (r["games"], r["eat_rate"]) == (5, 0.6)
    assert r["diff_pp"] == approx(200 / 3)
    assert (r["diff_low"], r["diff_high"]) == approx((200 / 3 - Z * se, 200 / 3 + Z * se))
    r = row(table, pepperoni=2)  # both eaten
    assert (r["games"], r["eat_rate"], r["share_eat"]) == (2, 1.0, 0.75)
    assert math.isnan(r["share_collect"])


def test_eat_payoff_by_race_and_pepperoni():
    cols = ["players", "slice_kind", "pepperoni", "own_count2", "rival_count2", "share_eat",
            "share_collect", "score_eat", "score_collect"]  # fmt: skip
    payoffs = pl.DataFrame(
        [
            (3, 0, 1, 2, 0, 1.0, 0.0, 30, 25),  # ahead
            (3, 0, 0, 4, 1, 0.5, 0.5, 28, 28),  # ahead
            (3, 0, 1, 3, 2, 0.0, 0.0, 20, 22),  # ahead
            (3, 0, 0, 0, 0, 1.0, 0.5, 31, 30),  # nobody yet
            (3, 0, 2, 0, 0, 0.0, 1.0, 19, 24),  # nobody yet
            (3, 0, 1, 2, 2, 1.0, 0.0, 26, 21),  # level
            (3, 0, 0, 0, 2, 0.0, 0.0, 15, 15),  # behind
            (3, 1, 0, 0, 0, 1.0, 0.0, 40, 10),  # a combo: left out
            (4, 0, 0, 1, 3, 0.25, 0.0, 12, 11),  # behind, 4 players
            (4, 0, 0, 0, 1, 0.0, 0.25, 11, 12),  # behind, 4 players
        ],
        schema=cols,
        orient="row",
    )
    table = eat_payoff(payoffs, by="race")
    assert table.select("players", "race").rows() == [
        (3, "ahead"),
        (3, "behind"),
        (3, "level"),
        (3, "nobody yet"),
        (4, "behind"),
    ]
    for n, race, d, s in (
        (3, "ahead", [100, 0, 0], [5, 0, -2]),
        (3, "nobody yet", [50, -100], [1, -5]),
        (4, "behind", [25, -25], [1, -1]),
    ):
        r = row(table, players=n, race=race)
        assert r["games"] == len(d)
        assert (r["payoff_pp"], r["payoff_low"], r["payoff_high"]) == approx(t_interval(d))
        assert (r["score_payoff"], r["score_low"], r["score_high"]) == approx(t_interval(s))
        assert r["eat_better"] == approx(np.mean(np.array(d) > 0))
    r = row(table, players=3, race="level")  # one decision: no interval
    assert r["payoff_pp"] == 100 and math.isnan(r["payoff_low"])
    assert r["warning"] == "only 1 decisions (< 100)"
    by_pep = eat_payoff(payoffs)
    r = row(by_pep, players=3, pepperoni=1)  # 100, 0, 100
    assert (r["games"], r["payoff_pp"], r["eat_better"]) == (3, approx(200 / 3), approx(2 / 3))


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


# --------------------------------------------------------------------------------------
# Question 5: ratings (and the rotated seat table, on the same ladder)
# --------------------------------------------------------------------------------------

# Finishing patterns of a 3-player table of strategies A, B, C: (score A, B, C); eaten is
# equal everywhere, so P6 is a tie between A and B.
PATTERNS = {
    "P1": (30, 20, 10), "P2": (20, 30, 10), "P3": (20, 10, 30), "P4": (30, 10, 20),
    "P5": (10, 30, 20), "P6": (20, 20, 10),
}  # fmt: skip
A_SHARE = {"P1": 1, "P2": 0, "P3": 0, "P4": 1, "P5": 0, "P6": 0.5}
# Rotation r seats A at seat r; the same game index is the same deal in every rotation.
LADDER = {
    0: (["A", "B", "C"], ["P1", "P1", "P2", "P6", "P3", "P1", "P2", "P1"]),
    1: (["C", "A", "B"], ["P4", "P1", "P5", "P1", "P3", "P4", "P1"]),
    2: (["B", "C", "A"], ["P2", "P1", "P6", "P4", "P1"]),
}
# Two players, A against B: (seat 0's score and eaten, seat 1's) and how many games.
DUELS = {
    ("A", "B"): [((20, 3), (15, 3), 29), ((18, 5), (18, 3), 1), ((12, 3), (16, 3), 6),
                 ((15, 4), (15, 4), 2), ((10, 3), (11, 3), 2)],
    ("B", "A"): [((10, 2), (12, 2), 5), ((14, 2), (12, 2), 5)],
}  # fmt: skip
# A wins 29 + 1 + 5 = 35, B wins 6 + 2 + 5 = 13, 2 ties, of 50.


@pytest.fixture(scope="module")
def ladder_data(tmp_path_factory):
    d = SyntheticDataset(tmp_path_factory.mktemp("ladder"))
    for r, (specs, games) in LADDER.items():
        arm = d.arm(f"ladder-p3-r{r}", 3, specs, group="ladder", rotation=r)
        score = np.array([[PATTERNS[p]["ABC".index(s)] for s in specs] for p in games])
        best = score == score.max(axis=1, keepdims=True)
        d.players(arm, score=score, eaten=np.full(score.shape, 5),
                  win_share=best / best.sum(axis=1, keepdims=True))  # fmt: skip
    for specs, blocks in DUELS.items():
        arm = d.arm("duel-" + "".join(specs), 2, list(specs))
        games = [(a, b) for a, b, k in blocks for _ in range(k)]
        score = np.array([[a[0], b[0]] for a, b in games])
        eaten = np.array([[a[1], b[1]] for a, b in games])
        d.players(arm, score=score, eaten=eaten, win_share=np.zeros(score.shape))
    # No pairs between equal strategies; blanked arms play another deck: both left out.
    d.arm("duel-AA", 2, ["A", "A"])
    d.players("duel-AA", score=[[10, 20]] * 5, eaten=[[1, 1]] * 5, win_share=np.zeros((5, 2)))
    d.arm("duel-AB-blank", 2, ["A", "B"], blank="buffet")
    d.players("duel-AB-blank", score=[[0, 20]] * 20, eaten=[[1, 1]] * 20,
              win_share=np.zeros((20, 2)))  # fmt: skip
    return d.write()


def test_ratings_two_strategies_analytic(ladder_data):
    t = ratings(ladder_data, n_boot=50).filter(pl.col("players") == 2)
    # Pairs: A beat B 35 times, B beat A 13 times, 2 ties; plus the half-win prior each way:
    # w(A, B) = 35 + 1 + 0.5, w(B, A) = 13 + 1 + 0.5, and for two strategies Bradley-Terry
    # gives s_A / s_B = w(A, B) / w(B, A): 400 log10 of it in Elo, centred on 0.
    diff = 400 * math.log10(36.5 / 14.5)
    assert t["strategy"].to_list() == ["A", "B"]
    a, b = row(t, strategy="A"), row(t, strategy="B")
    assert (a["rating"], b["rating"]) == approx((diff / 2, -diff / 2), abs=1e-6)
    assert a["pairs"] == b["pairs"] == 50
    assert (a["score_rate"], b["score_rate"]) == approx((36 / 50, 14 / 50))
    assert approx(ELO) == ELO_PER_LOG


def _ladder_wins() -> np.ndarray:
    """w[i, j]: pairwise wins of strategy i over j (ties half) across the ladder games."""
    w = np.zeros((3, 3))
    for _, games in LADDER.values():
        for p in games:
            s = PATTERNS[p]
            for i in range(3):
                for j in range(3):
                    if i != j:
                        w[i, j] += 1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0
    return w


def test_ratings_three_strategies_match_direct_maximum_likelihood(ladder_data):
    t = ratings(ladder_data, n_boot=50).filter(pl.col("players") == 3)
    w = _ladder_wins() + 0.5 * (1 - np.eye(3))  # the half-win prior on every pair that met
    assert w.sum() == 20 * 3 + 3  # 3 pairs a game, plus the prior

    def nll(free):
        theta = np.append(free, 0.0)
        d = theta[:, None] - theta[None, :]
        return float(np.sum(w * np.logaddexp(0, -d)))  # -sum w_ij log sigmoid(d_ij)

    fit = optimize.minimize(nll, np.zeros(2), method="BFGS", options={"gtol": 1e-12})
    theta = np.append(fit.x, 0.0)
    want = ELO * (theta - theta.mean())
    got = [row(t, strategy=s)["rating"] for s in "ABC"]
    assert got == approx(want, abs=1e-4)
    assert t["rating"].to_list() == sorted(got, reverse=True)
    raw = _ladder_wins()
    for i, s in enumerate("ABC"):
        r = row(t, strategy=s)
        assert r["pairs"] == 40  # two pairs in each of 20 games
        assert r["score_rate"] == approx(raw[i].sum() / 40)


def test_ratings_bootstrap_is_deterministic(ladder_data):
    a = ratings(ladder_data, n_boot=40, seed=3)
    b = ratings(ladder_data, n_boot=40, seed=3)
    c = ratings(ladder_data, n_boot=40, seed=4)
    assert a.equals(b)
    assert not a.select("low", "high").equals(c.select("low", "high"))
    assert a.select("rating").equals(c.select("rating"))  # the point estimate has no noise
    assert (a["low"] <= a["high"]).all()


def test_rotated_seat_advantage(ladder_data):
    table = rotated_seat_advantage(ladder_data)
    # Deals 0-4 were played from every seat (rotation 2 has only 5 games): A's share in
    # seat 0, 1, 2 per deal.
    share = np.array([[A_SHARE[LADDER[r][1][g]] for r in range(3)] for g in range(5)], dtype=float)
    assert share.sum(axis=0).tolist() == [2.5, 3.0, 3.5]
    for k in range(3):
        r = row(table, players=3, seat=k)
        assert r["strategy"] == "A" and r["games"] == 5
        assert r["win_share"] == approx(share[:, k].mean())
        assert (r["win_low"], r["win_high"]) == approx(wilson(share[:, k].sum(), 5))
        m, lo, hi = t_interval(100 * (share[:, k] - share.mean(axis=1)))
        assert (r["edge_pp"], r["edge_low"], r["edge_high"]) == approx((m, lo, hi), abs=1e-9)


# --------------------------------------------------------------------------------------
# Sample sizes and the per-seat summary
# --------------------------------------------------------------------------------------


def test_games_for_scales_with_the_square_of_the_half_width():
    assert games_for(100, 0.02) == 400  # twice the target width: four times the games
    assert games_for(100, 0.005) == 25
    assert games_for(400, 0.125, 0.03125) == 6400
    assert games_for(10, 1e-9) == 1  # at least one game
    assert games_for(0, 0.01) is None and games_for(10, float("nan")) is None


def test_warning_small_n_covering_and_clear():
    assert warning(0.9, 0.8, 0.95, 99) == "only 99 games (< 100)"
    assert warning(0.9, 0.8, 0.95, 99, unit="decisions") == "only 99 decisions (< 100)"
    assert warning(1.0, float("nan"), float("nan"), 500) == "no interval"
    # Covers 0.5: games for a half-width of |0.5625 - 0.5| / 2 = 1/32 from 1/8 at n = 128.
    assert warning(0.5625, 0.375, 0.625, 128, reference=0.5) == (
        "interval covers 0.5: ≈2,048 games would settle the sign"
    )
    assert warning(-1.0, -2.0, 0.0, 200).startswith("interval covers 0:")  # touching counts
    assert warning(0.3, 0.2, 0.4, 200, reference=0.5) == ""
    # A level (reference None) makes no sign claim: only the sample size is checked.
    assert warning(0.5, 0.4, 0.6, 200, reference=None) == ""
    assert warning(0.5, 0.4, 0.6, 20, reference=None) == "only 20 games (< 100)"


def test_annotate_a_win_share_table():
    # 10,000 games at p = 0.5: the Wilson half-width is 1.96 sqrt(.25 / 10^4) ~ 0.98 pp, so
    # about 9,600 games give +-1 pp (the design notes' "~10,000 games for +-1 pp").
    lo, hi = scipy_wilson(5000, 10_000)
    table = pl.DataFrame(
        {
            "estimate": [0.5, 0.6, 0.2],
            "low": [lo, 0.55, None],
            "high": [hi, 0.65, None],
            "games": [10_000, 50, 300],
            "fair": [0.5, 0.5, 0.25],
        }
    )
    out = annotate(table, "estimate", "low", "high", reference="fair")
    assert out.columns == [*table.columns, "half_width", "games_for_1pp", "warning"]
    assert out["half_width"][0] == approx((hi - lo) / 2)
    assert 9_550 <= out["games_for_1pp"][0] <= 9_610
    assert out["games_for_1pp"][1] in (1250, 1251)  # 50 games * (5 pp / 1 pp)^2, round-off
    assert out["games_for_1pp"][2] is None and math.isnan(out["half_width"][2])
    assert out["warning"][0].startswith("interval covers 0.5")
    assert out["warning"].to_list()[1:] == ["only 50 games (< 100)", "no interval"]
    effects = annotate(table, "estimate", "low", "high", share=False)
    assert "games_for_1pp" not in effects.columns
    assert effects["warning"][0] == ""  # 0.49..0.51 is clear of 0
    levels = annotate(table, "estimate", "low", "high", reference=None, share=False)
    assert levels["warning"].to_list() == ["", "only 50 games (< 100)", ""]


def test_seat_summary():
    rows = pl.DataFrame(
        {
            "players": [2] * 6,
            "seat": [0, 1] * 3,
            "strategy": ["x"] * 6,
            "win_share": [1.0, 0.0, 0.5, 0.5, 1.0, 0.0],
            **{c: [1, 2, 3, 4, 5, 6] for c in
               ["majorities", "specials", "diet", "pepperoni", "anchovies", "score"]},
        }
    )  # fmt: skip
    t = seat_summary(rows)
    r = row(t, seat=0)
    assert (r["games"], r["win_share"], r["score"]) == (3, approx(2.5 / 3), 3.0)
    assert (r["win_low"], r["win_high"]) == approx(wilson(2.5, 3))
    assert row(t, seat=1)["majorities"] == 4.0


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


def test_warning_for_a_zero_width_interval_at_the_reference():
    # theta equal to the field's own: exactly the fair share, no variance, nothing to warn
    assert warning(0.25, 0.25, 0.25, 500, 0.25) == ""
    assert warning(0.30, 0.30, 0.30, 500, 0.25) == ""


def test_ratings_merge_specs_that_play_identically(tmp_path):
    # at 5 players heuristic's preset has theta = 1: the two specs are one strategy
    from sims.games.nyslice.plugin import strategy_identity

    assert strategy_identity("heuristic", 5) == strategy_identity("heuristic(theta=1)", 5)
    assert strategy_identity("heuristic", 4) != strategy_identity("heuristic(theta=1)", 4)
    d = SyntheticDataset(tmp_path)
    specs = ["heuristic", "heuristic(theta=1)", "greedy", "greedy", "greedy"]
    d.arm("mix", 5, group="ladder", strategies=specs)
    score = np.tile([9, 8, 7, 6, 5], (6, 1))  # seat order is the ranking in every game
    d.players("mix", win_share=one_hot([0] * 6, 5), score=score,
              eaten=np.zeros((6, 5), dtype=int))  # fmt: skip
    t = ratings(d.write(), n_boot=20)
    assert t["strategy"].to_list() == ["heuristic", "greedy"]
    assert t["aliases"].to_list() == ["heuristic(theta=1)", ""]
    # seats 0 and 1 are the same strategy: no pair between them; each beats the 3 greedy seats
    assert t.filter(pl.col("strategy") == "heuristic")["pairs"][0] == 6 * 2 * 3
