"""Coverage of the sweep's not-worse set (a model confidence set), by simulation.

A 95% set of values not worse than the best must keep k truly equal values together at
least 95% of the time, and still drop a value truly 2 pp worse at a sweep's sizes. The
old procedure (every value tested against the *observed* best, Holm-adjusted) fails the
first: the best is picked by the same noise. ``make test`` runs a few hundred
replications; ``make validate`` (``SLICELAB_VALIDATE=1``) runs 2,000 per k, the figures
quoted in the README.
"""

from __future__ import annotations

import numpy as np
import pytest

from analysis.stats import holm
from analysis.sweep import confidence_set, one_sided_p
from tests.generated import VALIDATE

REPLICATIONS = 2000 if VALIDATE else 100


def sweep_deals(rng, deals: int, k: int, worse: float = 0.0, rho: float = 0.7) -> np.ndarray:
    """``deals × k`` win indicators of a candidate at k grid values, paired by deal.

    A deal sets the candidate's chance (Beta(2, 4): a 3-player game), and each value's
    result shares the deal's draw with probability ``rho`` (values of one parameter play
    alike on most deals); the first value's chance is ``worse`` lower."""
    p = rng.beta(2, 4, size=deals)
    shared = rng.random(deals)
    own = rng.random((deals, k))
    u = np.where(rng.random((deals, k)) < rho, shared[:, None], own)
    shift = np.zeros(k)
    shift[0] = worse
    return (u < np.clip(p[:, None] - shift[None, :], 0, 1)).astype(float)


def keeps_all_rate(k: int, deals: int, replications: int, method) -> float:
    kept = 0
    for r in range(replications):
        x = sweep_deals(np.random.default_rng([k, deals, r]), deals, k)
        kept += bool(method(x).all())
    return kept / replications


def against_observed_best(x: np.ndarray, alpha: float = 0.05) -> np.ndarray:
    """The superseded procedure: each value tested against the observed best, Holm."""
    k = x.shape[1]
    best = int(np.argmax(x.mean(axis=0)))
    others = [j for j in range(k) if j != best]
    p = holm(np.array([one_sided_p(x[:, best] - x[:, j]) for j in others]))
    keep = np.ones(k, dtype=bool)
    keep[others] = p >= alpha
    return keep


@pytest.mark.coverage
@pytest.mark.parametrize("k", [2, 4, 8])
def test_equal_values_are_kept_together_95_percent_of_the_time(k):
    rate = keeps_all_rate(k, 300, REPLICATIONS, lambda x: confidence_set(x)[0])
    # 100 replications: a true rate of 95% falls below 90% with probability < 3%; the
    # validate run's 2,000 hold it to the promise itself.
    assert rate >= (0.95 if VALIDATE else 0.90), f"k={k}: kept all {rate:.1%}"


@pytest.mark.coverage
def test_testing_against_the_observed_best_drops_equal_values_too_often():
    # the reason for the model confidence set: with 8 equal values the old set kept all of
    # them about 79% of the time
    rate = keeps_all_rate(8, 300, REPLICATIONS, against_observed_best)
    assert rate < 0.9


@pytest.mark.coverage
@pytest.mark.parametrize("k", [4, 8])
def test_a_value_two_points_worse_is_dropped_at_a_sweeps_size(k):
    # a sweep's count plays 1,500-6,000 deals per value; at 3,000 deals, with values that
    # share most of a deal's draw, a value 2 pp worse leaves the set most of the time
    reps = 400 if VALIDATE else 16
    dropped = 0
    for r in range(reps):
        x = sweep_deals(np.random.default_rng([77, k, r]), 3000, k, worse=0.02, rho=0.9)
        dropped += not confidence_set(x)[0][0]
    assert dropped / reps >= 0.8, f"k={k}: dropped {dropped / reps:.0%}"


def test_the_set_is_reproducible_and_keeps_the_best():
    x = sweep_deals(np.random.default_rng(5), 500, 6, worse=0.05)
    a, pa = confidence_set(x)
    b, pb = confidence_set(x)
    assert (a == b).all() and (pa == pb).all()
    assert a[int(np.argmax(x.mean(axis=0)))]
    assert ((pa >= 0.04) == a).all()


def test_a_clearly_worse_value_leaves_and_identical_values_stay():
    rng = np.random.default_rng(1)
    base = (rng.random((800, 1)) < 0.4).astype(float)
    x = np.hstack([base, base, np.zeros((800, 1))])  # two identical values, one never wins
    keep, _ = confidence_set(x)
    assert keep.tolist() == [True, True, False]
