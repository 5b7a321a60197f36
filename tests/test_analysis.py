"""The generic analyses (``analysis/``: seats, ratings, player count, sample sizes and
the per-seat summary) against known answers.

Each dataset is synthetic (``analysis_fixtures``): a handful of games whose win shares,
scores and decisions are chosen so the right answer is known by hand, or from scipy on the
same numbers. Every expected value below is worked out from the numbers written into the
dataset, never from the analysis code. New York Slice's own analyses are tested in
``tests/games/nyslice/test_nyslice_analysis.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import (
    ELO,
    SyntheticDataset,
    approx,
    one_hot,
    row,
    scipy_wilson,
    t_interval,
    wilson,
)
from scipy import optimize, stats

from analysis.playercount import player_count
from analysis.ratings import compare, ratings
from analysis.samplesize import MIN_GAMES, annotate, games_for, warning
from analysis.seats import rotated_seat_advantage, seat_advantage, seat_fairness
from analysis.stats import ELO_PER_LOG
from analysis.summary import seat_summary

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
    assert "times_slicer" not in seat_advantage(seats_data).columns  # a game's column: asked for
    table = seat_advantage(seats_data, keep=("times_slicer",))
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
    # Seat 0's win share minus the fair 1/3, per game: seat 0 wins 6 (+2/3), loses 4
    # (-1/3), shares one of two (1/2 - 1/3) and one of three (0).
    first = [2 / 3] * 6 + [-1 / 3] * 4 + [1 / 6, 0.0]
    m, lo, hi = t_interval(first)
    assert m == approx(4.25 / 12 * 2 / 3)
    assert (r["first_edge_pp"], r["first_low"], r["first_high"]) == approx(
        (100 * m, 100 * lo, 100 * hi), abs=1e-9
    )
    r = row(table, players=2)
    res = stats.chisquare([125.0, 75.0], [100.0, 100.0])
    assert r["chi2"] == approx(12.5) and r["p_value"] == approx(res.pvalue)
    m, lo, hi = t_interval([0.5] * 120 + [-0.5] * 70 + [0.0] * 10)
    assert r["first_edge_pp"] == approx(12.5)  # (125 - 100) / 200: half of seat 0 - seat 1
    assert (r["first_low"], r["first_high"]) == approx((100 * lo, 100 * hi), abs=1e-9)
    assert r["warning"] == ""


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

    # Two players, A against B: A first 35 times, B 13 times, 2 ties. Plackett-Luce with
    # Davidson-Luce ties is Davidson's tie model: with u = log(s_A / s_B) (ratings +-u/2)
    # and c = log(delta), the log-likelihood is 35 u/2 - 13 u/2 + 2 c - 50 log(e^(u/2) +
    # e^(-u/2) + e^c), plus the prior of half a win each way: (log sigma(u) + log sigma(-u))/2.
    def nll(x):
        u, c = x
        ll = 11 * u + 2 * c - 50 * np.logaddexp(np.logaddexp(u / 2, -u / 2), c)
        return -(ll - 0.5 * (np.logaddexp(0, -u) + np.logaddexp(0, u)))

    u = optimize.minimize(nll, np.zeros(2), method="BFGS", options={"gtol": 1e-12}).x[0]
    assert t["strategy"].to_list() == ["A", "B"]
    a, b = row(t, strategy="A"), row(t, strategy="B")
    assert (a["rating"], b["rating"]) == approx((ELO * u / 2, -ELO * u / 2), abs=1e-4)
    assert a["pairs"] == b["pairs"] == 50
    assert (a["score_rate"], b["score_rate"]) == approx((36 / 50, 14 / 50))
    # duel-AB (games 0-39) and duel-BA (games 0-9) share the seed: 40 deals, 50 games
    assert (a["deals"], a["games"], a["fit_deals"], a["fit_games"]) == (40, 50, 40, 50)
    assert a["warning"] == "only 40 deals (< 100)"
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
    from test_ratings import dl_loglik

    t = ratings(ladder_data, n_boot=50).filter(pl.col("players") == 3)
    # every ladder game as places of A, B, C (higher score first; P6 ties A and B)
    places = np.array([[sum(q > x for q in PATTERNS[p]) for x in PATTERNS[p]]
                       for _, games in LADDER.values() for p in games])  # fmt: skip
    items = np.tile([0, 1, 2], (len(places), 1))
    assert (places == 0).sum() == 20 + 2  # two games share the first place

    def nll(x):  # theta_A = 0; x = theta_B, theta_C, log delta_2
        return -dl_loglik(np.r_[0.0, x[:2]], {2: np.exp(x[2])}, places, items)

    fit = optimize.minimize(nll, np.zeros(3), method="BFGS", options={"gtol": 1e-10})
    theta = np.append(0.0, fit.x[:2])
    want = ELO * (theta - theta.mean())
    got = [row(t, strategy=s)["rating"] for s in "ABC"]
    assert got == approx(want, abs=1e-3)
    assert t["rating"].to_list() == sorted(got, reverse=True)
    assert set(t["ties"]) == {f"2: {np.exp(fit.x[2]):.3g}"}
    raw = _ladder_wins()
    for i, s in enumerate("ABC"):
        r = row(t, strategy=s)
        assert r["pairs"] == 40  # two pairs in each of 20 games
        assert r["score_rate"] == approx(raw[i].sum() / 40)
        # rotations replay game i: 8 deals (rotation 0 has the most games), 20 games
        assert (r["deals"], r["games"]) == (8, 20)


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
    # the game's score components are passed in (its ResultSchema.components); by default
    # only the score is averaged
    assert "majorities" not in seat_summary(rows).columns
    t = seat_summary(rows, ["majorities", "specials", "diet", "pepperoni", "anchovies", "score"])
    r = row(t, seat=0)
    assert (r["games"], r["win_share"], r["score"]) == (3, approx(2.5 / 3), 3.0)
    assert (r["win_low"], r["win_high"]) == approx(wilson(2.5, 3))
    assert row(t, seat=1)["majorities"] == 4.0


def test_warning_for_a_zero_width_interval_at_the_reference():
    # theta equal to the field's own: exactly the fair share, no variance, nothing to warn
    assert warning(0.25, 0.25, 0.25, 500, 0.25) == ""
    assert warning(0.30, 0.30, 0.30, 500, 0.25) == ""


def test_ratings_merge_specs_that_play_identically(tmp_path):
    # heuristic(theta=<its 5-player default>) is heuristic at 5 players: one strategy
    from sims.games.nyslice.heuristic import params_for
    from sims.games.nyslice.plugin import strategy_identity

    same = f"heuristic(theta={params_for(5, {})['theta']:g})"
    assert params_for(4, {})["theta"] != params_for(5, {})["theta"]
    assert strategy_identity("heuristic", 5) == strategy_identity(same, 5)
    assert strategy_identity("heuristic", 4) != strategy_identity(same, 4)
    d = SyntheticDataset(tmp_path)
    specs = ["heuristic", same, "greedy", "greedy", "greedy"]
    d.arm("mix", 5, group="ladder", strategies=specs)
    score = np.tile([9, 8, 7, 6, 5], (6, 1))  # seat order is the ranking in every game
    d.players("mix", win_share=one_hot([0] * 6, 5), score=score,
              eaten=np.zeros((6, 5), dtype=int))  # fmt: skip
    t = ratings(d.write(), n_boot=20)
    assert t["strategy"].to_list() == ["heuristic", "greedy"]
    assert t["aliases"].to_list() == [same, ""]
    # seats 0 and 1 are the same strategy: no pair between them; each beats the 3 greedy seats
    assert t.filter(pl.col("strategy") == "heuristic")["pairs"][0] == 6 * 2 * 3


# --------------------------------------------------------------------------------------
# Player count (the generic measures), the win rule, the arms of a dataset
# --------------------------------------------------------------------------------------

GENERIC_SCORES = np.array([[10, 8, 5], [7, 7, 3], [12, 4, 11], [6, 9, 9], [15, 2, 1]])


@pytest.fixture(scope="module")
def generic_count_data(tmp_path_factory):
    d = SyntheticDataset(tmp_path_factory.mktemp("generic-count"))
    d.arm("seats-p3", 3, group="seats")
    share = np.vstack([one_hot([0], 3), [[0.5, 0.5, 0]], one_hot([0, 2, 0], 3)])
    d.players("seats-p3", win_share=share, score=GENERIC_SCORES)
    d.games("seats-p3", n_winners=[1, 2, 1, 1, 1], majorities_unclaimed=[1, 0, 2, 0, 3])
    d.arm("seats-p3-dibs", 3, group="seats", blank="dibs")  # a treatment: left out
    d.players("seats-p3-dibs", win_share=one_hot([0], 3), score=[[50, 0, 0]])
    d.games("seats-p3-dibs", n_winners=[1], majorities_unclaimed=[9])
    return d.write()


def test_player_count_generic_measures_only(generic_count_data):
    table = player_count(generic_count_data)
    got = {r["measure"]: r for r in table.iter_rows(named=True)}
    # a game's own columns (majorities_unclaimed) are not read by the generic analysis
    assert list(got) == ["score", "spread", "margin", "shared_win", "close"]
    assert all(r["players"] == 3 and r["games"] == 5 for r in got.values())
    assert (got["margin"]["estimate"], got["margin"]["low"], got["margin"]["high"]) == approx(
        t_interval([2, 0, 1, 0, 13])
    )
    assert got["shared_win"]["estimate"] == approx(1 / 5)
    assert got["close"]["estimate"] == approx(3 / 5)
    # a game's measures come in through `extra`, after the generic ones
    extra = player_count(generic_count_data, extra=lambda n, p, g: {"games_seen": (g.height,) * 3})
    assert extra["measure"].to_list()[-1] == "games_seen" and extra["estimate"][-1] == 5


def test_compare_is_lexicographic_over_the_win_keys():
    score = np.array([[10, 9], [7, 7], [7, 7], [3, 8]])
    eaten = np.array([[1, 5], [2, 1], [1, 1], [9, 0]])
    assert compare([score, eaten], 0, 1).tolist() == [1, 1, 0, -1]
    # the order of the keys decides: eaten first flips the first and last game
    assert compare([eaten, score], 0, 1).tolist() == [-1, 1, 0, 1]
    assert compare([score], 0, 1).tolist() == [1, 0, 0, -1]  # ties where only eaten differs


def test_arms_read_the_games_options_and_treatments(seats_data):
    from analysis.load import arms, rows, uniform_blocks

    a = arms(seats_data)
    assert a.columns[:9] == ["arm", "game", "group", "players", "rotation", "treatment",
                             "seed", "games", "strategies"]  # fmt: skip
    assert "blank" in a.columns  # New York Slice's `value` option, from its declaration
    assert row(a, arm="seats-p3-dibs")["treatment"] == ".blank-dibs"
    assert row(a, arm="seats-p3")["treatment"] == ""
    assert "treatment" in rows(seats_data, "players", "seats").columns
    assert uniform_blocks(seats_data) == ["seats", "seats-greedy"]
