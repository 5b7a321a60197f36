"""Plackett–Luce ratings (``analysis.stats.plackett_luce``, ``analysis.ratings``) against
planted truths and a written-out likelihood.

The model (Davidson–Luce): a ranking is read as successive choices; from the seats still
unplaced ``R`` the next place goes to a set ``G`` of one seat or of tied seats with
probability ``δ_|G| * exp(mean log-strength of G) / (the same summed over subsets of R)``.
:func:`dl_loglik` writes it out by enumerating seat subsets (no aggregation), and
:func:`sample` draws rankings from it, so the fits can be checked against strengths that
are known.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import ELO, SyntheticDataset, approx, row
from scipy import optimize

from analysis.ratings import BLOCK_DEAL, GAME, rating_gaps, ratings, win_probability
from analysis.stats import Rankings, bradley_terry, plackett_luce


def _weight(seats, item, theta, delta) -> float:
    """``δ_|G| exp(mean log-strength)`` of the seats ``G`` placed together."""
    d = 1.0 if len(seats) == 1 else delta[len(seats)]
    return d * math.exp(np.mean(theta[item[list(seats)]]))


def dl_loglik(theta, delta: dict[int, float], ranks, items, prior: float = 0.5) -> float:
    """The Davidson–Luce log-likelihood written out: every subset of the unplaced seats of
    an allowed size is an alternative; plus ``prior`` pseudo-wins each way between every
    two items that met (Bradley–Terry terms)."""
    theta = np.asarray(theta, dtype=float)
    sizes = [1, *sorted(d for d, v in delta.items() if v > 0)]
    total = 0.0
    met = set()
    for place, item in zip(np.asarray(ranks), np.asarray(items), strict=True):
        met |= {(a, b) for a in item for b in item if a < b}
        left = list(range(len(place)))
        for p in sorted(set(place.tolist())):
            group = [s for s in left if place[s] == p]
            if len(left) >= 2:
                alts = [c for m in sizes for c in itertools.combinations(left, m)]
                total += math.log(_weight(group, item, theta, delta))
                total -= math.log(sum(_weight(c, item, theta, delta) for c in alts))
            left = [s for s in left if s not in group]
    for a, b in met:
        d = theta[a] - theta[b]
        total += prior * (-np.logaddexp(0, -d) - np.logaddexp(0, d))
    return total


def sample(theta, seats, games: int, delta2: float, rng) -> np.ndarray:
    """Places (games, seats) drawn from the Davidson–Luce model: seat ``s`` holds item
    ``seats[s]``; two seats tie with prevalence ``delta2`` (0: no ties)."""
    s = np.exp(np.asarray(theta, dtype=float)[np.asarray(seats)])
    n = len(seats)
    places = np.zeros((games, n), dtype=np.int64)
    for g in range(games):
        left, place = list(range(n)), 0
        while left:
            alts = [(c,) for c in left]
            if delta2 > 0 and len(left) >= 2:
                alts += list(itertools.combinations(left, 2))
            w = np.array([np.prod(s[list(a)]) ** (1 / len(a)) * (delta2 if len(a) == 2 else 1)
                          for a in alts])  # fmt: skip
            chosen = alts[rng.choice(len(alts), p=w / w.sum())]
            places[g, list(chosen)] = place
            left = [x for x in left if x not in chosen]
            place += 1
    return places


def _write_block(d: SyntheticDataset, group: str, specs: list[str], places_by_rotation,
                 seed: int = 1) -> None:  # fmt: skip
    """One rotated block: rotation ``k`` seats spec ``(s - k) mod n`` in seat ``s``;
    ``places_by_rotation[k]`` (games, seats) are its places (lower better)."""
    n = len(specs)
    for k, places in enumerate(places_by_rotation):
        seated = [specs[(s - k) % n] for s in range(n)]
        arm = d.arm(f"{group}-r{k}", n, seated, group=group, rotation=k, seed=seed)
        score = 10 * (n - np.asarray(places))
        d.players(arm, score=score, eaten=np.zeros_like(score), win_share=np.zeros(score.shape))


# --------------------------------------------------------------------------------------
# The fit: the written-out likelihood, Bradley–Terry, the prior, errors
# --------------------------------------------------------------------------------------


def test_fit_maximises_the_written_out_davidson_luce_likelihood():
    # 4 seats, items 0, 0, 1, 2 (two seats of one strategy), ties of two and of three
    rng = np.random.default_rng(7)
    items = np.tile([0, 0, 1, 2], (60, 1))
    ranks = sample([0.4, 0.0, -0.4], [0, 0, 1, 2], 60, 0.4, rng)
    ranks[:3] = [[0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 1, 1]]  # ties of three, first and last
    fit = plackett_luce(ranks, items)
    assert set(fit.ties) == {2, 3}

    def nll(x):
        return -dl_loglik(np.r_[0, x[:2]], {2: math.exp(x[2]), 3: math.exp(x[3])}, ranks, items)

    ref = optimize.minimize(nll, np.zeros(4), method="BFGS", options={"gtol": 1e-9})
    theta = np.r_[0, ref.x[:2]]
    assert fit.strength == approx(theta - theta.mean(), abs=1e-5)
    assert (fit.ties[2], fit.ties[3]) == approx(tuple(np.exp(ref.x[2:])), rel=1e-4)
    assert fit.loglik == approx(-ref.fun, abs=1e-8)


def test_weights_are_copies_of_rankings():
    rng = np.random.default_rng(8)
    items = np.tile([0, 1, 2], (40, 1))
    ranks = sample([0.5, 0.0, -0.5], [0, 1, 2], 40, 0.3, rng)
    w = rng.integers(0, 3, 40)
    by_weight = plackett_luce(ranks, items, weights=w)
    by_copy = plackett_luce(np.repeat(ranks, w, axis=0), np.repeat(items, w, axis=0))
    assert by_weight.strength == approx(by_copy.strength, abs=1e-7)
    assert by_weight.ties == approx(by_copy.ties, rel=1e-6)


def test_two_players_without_ties_is_bradley_terry():
    # three strategies met two at a time: every ranking is one pairwise result
    rng = np.random.default_rng(2)
    theta = np.array([0.6, 0.0, -0.6])
    pairs = np.array([[0, 1], [1, 2], [0, 2], [2, 0]])
    items = pairs[rng.integers(0, 4, 600)]
    first = rng.random(600) < 1 / (1 + np.exp(theta[items[:, 1]] - theta[items[:, 0]]))
    ranks = np.where(first[:, None], [[0, 1]], [[1, 0]])
    fit = plackett_luce(ranks, items)
    assert fit.ties == {}
    wins = np.zeros((3, 3))
    winner = np.where(first, items[:, 0], items[:, 1])
    loser = np.where(first, items[:, 1], items[:, 0])
    np.add.at(wins, (winner, loser), 1)
    wins += 0.5 * (1 - np.eye(3))  # the same prior: half a win each way per pair that met
    assert fit.strength == approx(bradley_terry(wins), abs=1e-7)


def test_prior_keeps_a_strategy_that_never_wins_finite():
    items = np.tile([0, 1, 2], (30, 1))
    ranks = np.tile([0, 1, 2], (30, 1))  # 0 always first, 2 always last
    fit = plackett_luce(ranks, items)
    assert np.isfinite(fit.strength).all()
    assert fit.strength[0] > fit.strength[1] > fit.strength[2]
    stronger = plackett_luce(ranks, items, prior=2.0)
    assert np.ptp(stronger.strength) < np.ptp(fit.strength)  # more prior, more shrinkage


def test_refuses_items_that_never_meet_or_never_appear():
    with pytest.raises(ValueError, match="never meet"):
        Rankings([[0, 1], [0, 1]], [[0, 1], [2, 3]])
    with pytest.raises(ValueError, match="appear in no ranking"):
        Rankings([[0, 1]], [[0, 2]])
    with pytest.raises(ValueError, match="rankings, seats"):
        Rankings([[0, 1, 2]], [[0, 1]])


# --------------------------------------------------------------------------------------
# Planted truths through ratings(): recovery, coverage, identical strategies, clustering
# --------------------------------------------------------------------------------------

TRUTH = {"A": 0.5, "B": 0.0, "C": -0.5}  # log-strengths (mean 0): ±86.9 Elo


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """3 strategies at 4 seats (A twice), every rotation, 500 deals, ties of two."""
    rng = np.random.default_rng(12)
    specs = ["A", "B", "C", "A"]
    code = {"A": 0, "B": 1, "C": 2}
    theta = [TRUTH[s] for s in "ABC"]
    d = SyntheticDataset(tmp_path_factory.mktemp("planted"))
    rotations = []
    for k in range(4):
        seated = [code[specs[(s - k) % 4]] for s in range(4)]
        rotations.append(sample(theta, seated, 500, 0.3, rng))
    _write_block(d, "ladder", specs, rotations)
    return d.write()


def test_planted_strengths_are_recovered_and_covered(planted):
    t = ratings(planted, n_boot=200, seed=1)
    assert t["strategy"].to_list() == ["A", "B", "C"]
    for s, truth in TRUTH.items():
        r = row(t, strategy=s)
        se = np.std(r["boot"])
        assert abs(r["rating"] - ELO * truth) < 3 * se, (s, r["rating"], ELO * truth, se)
        assert r["low"] < ELO * truth < r["high"]
        assert 3 < r["high"] - r["low"] < 40  # an interval, and a tight one
        assert r["deals"] == 500 and r["fit_deals"] == 500 and r["games"] == 2000
    assert row(t, strategy="A")["ties"].startswith("2: ")
    delta = float(row(t, strategy="A")["ties"].split(": ")[1])
    assert delta == approx(0.3, rel=0.25)
    gaps = rating_gaps(t)
    for g in gaps.iter_rows(named=True):
        truth = ELO * (TRUTH[g["a"]] - TRUTH[g["b"]])
        assert g["low"] < truth < g["high"]
        assert g["win"] == approx(1 / (1 + math.exp(-(g["gap"] / ELO))))


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    """A and A2 of equal strength (and B weaker) at 3 seats, every rotation, 300 deals."""
    rng = np.random.default_rng(5)
    specs = ["A", "A2", "B"]
    theta = [0.3, 0.3, -0.6]
    d = SyntheticDataset(tmp_path_factory.mktemp("twins"))
    rotations = [sample(theta, [(s - k) % 3 for s in range(3)], 300, 0.2, rng) for k in range(3)]
    _write_block(d, "ladder", specs, rotations)
    return d.write()


def test_identical_strategies_gap_covers_zero(twins):
    gaps = rating_gaps(twins, n_boot=200, seed=2)
    same = gaps.filter(pl.col("a").is_in(["A", "A2"]) & pl.col("b").is_in(["A", "A2"]))
    g = same.row(0, named=True)
    assert g["low"] < 0 < g["high"]
    assert g["warning"].startswith("interval covers 0")
    apart = gaps.filter(pl.col("b") == "B")
    assert (apart["low"] > 0).all()  # the real gaps exclude 0
    top = gaps.filter(pl.col("top_vs_bottom"))
    assert top.height == 1 and top["b"][0] == "B" and top["deals"][0] == 300


def test_gap_intervals_are_the_paired_bootstrap_draws(twins):
    t = ratings(twins, n_boot=100, seed=3)
    gaps = rating_gaps(t)
    boot = {s: np.array(b) for s, b in zip(t["strategy"], t["boot"], strict=True)}
    for g in gaps.iter_rows(named=True):
        diff = boot[g["a"]] - boot[g["b"]]
        assert (g["low"], g["high"]) == approx(tuple(np.quantile(diff, [0.025, 0.975])))
        assert g["gap"] == approx(row(t, strategy=g["a"])["rating"] - row(t, strategy=g["b"])
                                  ["rating"])  # fmt: skip
        assert (g["win_low"], g["win_high"]) == approx(
            (win_probability(g["low"]), win_probability(g["high"]))
        )
    # the same table from the dataset directly
    assert gaps.equals(rating_gaps(twins, n_boot=100, seed=3))
    with pytest.raises(ValueError, match="bootstrap draws"):
        rating_gaps(t.drop("boot"))


@pytest.fixture(scope="module")
def copied(tmp_path_factory):
    """Rotations that replay one outcome: on each deal the three strategies finish in the
    same order in all three rotations (the strongest possible deal effect)."""
    rng = np.random.default_rng(9)
    specs = ["A", "B", "C"]
    order = sample([0.4, 0.0, -0.4], [0, 1, 2], 200, 0.0, rng)  # places of A, B, C per deal
    d = SyntheticDataset(tmp_path_factory.mktemp("copied"))
    rotations = [order[:, [(s - k) % 3 for s in range(3)]] for k in range(3)]
    _write_block(d, "ladder", specs, rotations)
    return d.write()


def test_deal_bootstrap_is_wider_than_game_bootstrap_when_rotations_copy_a_deal(copied):
    by_deal = ratings(copied, n_boot=300, seed=4)
    by_game = ratings(copied, n_boot=300, seed=4, cluster=GAME)
    assert by_deal["rating"].to_list() == approx(by_game["rating"].to_list())
    assert by_deal["deals"].to_list() == [200] * 3 and by_game["deals"].to_list() == [600] * 3
    ratio = (by_deal["high"] - by_deal["low"]) / (by_game["high"] - by_game["low"])
    assert (ratio > 1.4).all(), ratio.to_list()  # ~sqrt(3): three copies of each deal
    gap_deal = rating_gaps(by_deal).filter(pl.col("top_vs_bottom")).row(0, named=True)
    gap_game = rating_gaps(by_game).filter(pl.col("top_vs_bottom")).row(0, named=True)
    assert gap_deal["high"] - gap_deal["low"] > 1.4 * (gap_game["high"] - gap_game["low"])
    assert gap_deal["deals"] == 200 and gap_deal["games"] == 600


def test_a_deal_shared_by_blocks_is_one_cluster(tmp_path):
    # two blocks on one seed replay game i on the same deal: one deal, unless split by block
    rng = np.random.default_rng(3)
    d = SyntheticDataset(tmp_path)
    for group in ("one", "two"):
        places = sample([0.3, -0.3], [0, 1], 40, 0.0, rng)
        _write_block(d, group, ["A", "B"], [places, places[:, ::-1]], seed=1)
    d.arm("own-seed", 2, ["A", "B"], seed=2)
    d.players("own-seed", score=[[2, 1]] * 10, eaten=[[0, 0]] * 10, win_share=[[1, 0]] * 10)
    out = d.write()
    t = ratings(out, n_boot=20)
    assert row(t, strategy="A")["deals"] == 40 + 10  # seed 1: 40 deals; seed 2: 10 more
    assert row(t, strategy="A")["games"] == 2 * 2 * 40 + 10
    by_block = ratings(out, n_boot=20, cluster=BLOCK_DEAL)
    assert row(by_block, strategy="A")["deals"] == 2 * 40 + 10


def test_summary_headline_states_the_gap_interval_and_deals(twins):
    from analysis.sections import gaps_text, ratings_headlines

    gaps = rating_gaps(twins, n_boot=100, seed=2)
    (h,) = ratings_headlines(gaps, "3 Ratings")
    g = gaps.filter(pl.col("top_vs_bottom")).row(0, named=True)
    assert h["finding"] == f"3 players: {g['a']} rated highest, B lowest (gap; n = 300 deals)"
    assert h["estimate"] == f"{g['gap']:+.0f} Elo [{g['low']:+.0f}, {g['high']:+.0f}]"
    assert h["games"] == 300 and h["unit"] == "deals"  # the n is counted in deals
    assert h["warning"] == g["warning"] == ""
    assert "300 deals" in gaps_text(gaps)
