"""Statistics checked against known answers (scipy values and analytic cases)."""

import numpy as np
import pytest
from scipy import stats

from analysis.stats import (
    bootstrap_interval,
    bradley_terry,
    fair_share_test,
    games_for_half_width,
    games_for_power,
    holm,
    mean_interval,
    paired_difference,
    wilson_interval,
)


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (50, 100), (999, 1000), (4321, 10000)])
def test_wilson_matches_scipy(k, n):
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson_interval(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_wilson_with_fractional_wins_and_empty():
    lo, hi = wilson_interval(2.5, 10)
    assert lo < 0.25 < hi
    assert np.isnan(wilson_interval(0, 0)).all()


def test_mean_interval_matches_scipy():
    x = np.array([1.0, 2.0, 4.0, 7.0, 11.0])
    m, lo, hi = mean_interval(x)
    ref = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert m == 5.0 and (lo, hi) == pytest.approx(ref)
    d = paired_difference(x, x - 1)
    assert d[0] == 1.0 and d[1] == d[2] == 1.0


def test_holm_known_answer():
    # Textbook example: p = .01, .04, .03, .005 -> Holm adjusted .03, .06, .06, .02
    assert holm(np.array([0.01, 0.04, 0.03, 0.005])) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm(np.array([0.5, 0.9])) == pytest.approx([1.0, 1.0])


def test_fair_share_test():
    stat, p = fair_share_test(np.array([25.0, 25.0, 25.0, 25.0]), 100)
    assert stat == 0 and p == pytest.approx(1.0)
    stat, p = fair_share_test(np.array([40.0, 20.0, 20.0, 20.0]), 100)
    assert stat == pytest.approx(12.0) and p == pytest.approx(stats.chi2.sf(12.0, 3))


def test_sample_sizes_match_the_design_notes():
    assert 9_500 <= games_for_half_width(0.5, 0.01) <= 9_700  # "~10,000 games for ±1 pp"
    assert 960_000 <= games_for_half_width(0.5, 0.001) <= 961_000  # "±0.1 pp ~1,000,000"
    assert 19_000 <= games_for_power(0.01) <= 20_000  # "a 1 pp edge, 80% power: ~20,000"


def test_bootstrap_interval_is_reproducible_and_covers():
    x = np.random.default_rng(1).normal(3.0, 1.0, 400)
    a = bootstrap_interval(x, seed=5)
    assert a == bootstrap_interval(x, seed=5)
    assert a[1] < 3.0 < a[2] and a[1] < a[0] < a[2]


def test_bradley_terry_recovers_known_strengths():
    # Expected wins from strengths 1, 2, 4: P(i beats j) = s_i / (s_i + s_j).
    s = np.array([1.0, 2.0, 4.0])
    n = 1000
    wins = np.array(
        [[n * s[i] / (s[i] + s[j]) if i != j else 0 for j in range(3)] for i in range(3)]
    )
    got = bradley_terry(wins)
    want = np.log(s) - np.log(s).mean()
    assert got == pytest.approx(want, abs=1e-6)
    with pytest.raises(ValueError):
        bradley_terry(np.array([[0, 1], [0, 0]]))


def test_cluster_mean_interval_is_the_t_interval_with_one_row_per_cluster():
    from analysis.stats import cluster_mean_interval

    x = np.random.default_rng(3).normal(size=50)
    m, lo, hi, g = cluster_mean_interval(x, np.arange(50))
    assert (m, lo, hi) == pytest.approx(mean_interval(x), rel=1e-12)
    assert g == 50


def test_cluster_mean_interval_widens_for_duplicated_rows():
    """Each game's value copied into 4 rows: the naive interval halves, the clustered one
    is the interval of the 50 games (exactly, up to the small-sample factor)."""
    from analysis.stats import cluster_mean_interval

    x = np.random.default_rng(4).normal(size=50)
    rows, games = np.repeat(x, 4), np.repeat(np.arange(50), 4)
    m, lo, hi, g = cluster_mean_interval(rows, games)
    _, nlo, nhi = mean_interval(rows)
    _, tlo, thi = mean_interval(x)
    assert g == 50
    assert (hi - lo) == pytest.approx(thi - tlo, rel=1e-9)
    assert (hi - lo) > 1.9 * (nhi - nlo)


def test_cluster_mean_interval_weights():
    from analysis.stats import cluster_mean_interval

    m, *_ = cluster_mean_interval([1.0, 3.0, 5.0], [0, 1, 2], weights=[1.0, 1.0, 2.0])
    assert m == pytest.approx((1 + 3 + 10) / 4)
