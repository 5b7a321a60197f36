"""Interval estimates we stand behind: t intervals of means over independent units
(games, or deals when arms share them), cluster-robust intervals where several rows come
from one such unit, Wilson intervals of shares, percentile bootstraps, Holm's correction
and Bradley-Terry ratings."""

from __future__ import annotations

import numpy as np
from scipy import stats

from sims.core.intervals import mean_interval, wilson_interval  # noqa: F401 (re-exported)


def paired_difference(
    a: np.ndarray, b: np.ndarray, level: float = 0.95
) -> tuple[float, float, float]:
    """Mean of ``a - b`` over paired units with a t interval: ``(mean, low, high)``."""
    return mean_interval(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), level)


def cluster_variance(influence: np.ndarray, clusters: np.ndarray) -> tuple[float, int]:
    """Cluster-robust variance of a statistic from its per-row influence values.

    A statistic ``T`` whose linearisation is ``T - T0 ≈ sum(influence)`` has, when rows of
    one cluster (a game, a deal) are dependent and clusters are independent, the variance
    ``G / (G - 1) * sum_g (sum of influence in cluster g)**2`` (the CR1 sandwich; ``G``
    clusters). With one row per cluster it is the usual variance of a mean.

    Returns
    -------
    (variance, clusters)
        The variance and ``G``, the number of clusters (the interval's unit).
    """
    influence = np.asarray(influence, dtype=float)
    _, inverse = np.unique(np.asarray(clusters), return_inverse=True)
    totals = np.bincount(inverse.ravel(), weights=influence)
    g = len(totals)
    if g < 2:
        return float("nan"), g
    return float(g / (g - 1) * np.sum(totals**2)), g


def cluster_mean_interval(
    values: np.ndarray,
    clusters: np.ndarray,
    weights: np.ndarray | None = None,
    level: float = 0.95,
) -> tuple[float, float, float, int]:
    """Weighted mean of rows that come in dependent clusters, with a cluster-robust t
    interval (``G - 1`` degrees of freedom): ``(mean, low, high, G)``.

    The mean is ``sum(w y) / sum(w)``; its influence per row is ``w (y - mean) / sum(w)``
    (:func:`cluster_variance`). With one row per cluster and unit weights this is exactly
    :func:`mean_interval` over the clusters. ``G`` (the number of clusters) is the ``n`` a
    table should state: the unit is the cluster, not the row.
    """
    y = np.asarray(values, dtype=float)
    w = np.ones_like(y) if weights is None else np.asarray(weights, dtype=float)
    total = w.sum()
    if len(y) == 0 or total <= 0:
        return float("nan"), float("nan"), float("nan"), 0
    m = float((w * y).sum() / total)
    var, g = cluster_variance(w * (y - m) / total, clusters)
    if not np.isfinite(var):
        return m, float("nan"), float("nan"), g
    half = stats.t.ppf(0.5 + level / 2, g - 1) * np.sqrt(var)
    return m, float(m - half), float(m + half), g


def bootstrap_interval(
    values: np.ndarray, statistic=np.mean, n_boot: int = 2000, level: float = 0.95, seed: int = 0
) -> tuple[float, float, float]:
    """Percentile bootstrap interval of ``statistic``: ``(estimate, low, high)``.

    Resamples with a generator seeded from ``SeedSequence(seed)`` so the interval is
    reproducible.
    """
    values = np.asarray(values, dtype=float)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    idx = rng.integers(0, len(values), size=(n_boot, len(values)))
    boots = np.array([statistic(values[i]) for i in idx])
    alpha = (1 - level) / 2
    lo, hi = np.quantile(boots, [alpha, 1 - alpha])
    return float(statistic(values)), float(lo), float(hi)


def holm(pvalues: np.ndarray) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values (step-down, monotone, capped at 1)."""
    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="stable")
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adj[i] = running
    return adj


def fair_share_test(wins: np.ndarray, games: int) -> tuple[float, float]:
    """Chi-square goodness of fit of wins per seat against equal shares: ``(statistic, p)``.

    ``wins`` may be fractional (shared wins count 1/k); each game hands out one win.
    """
    wins = np.asarray(wins, dtype=float)
    expected = np.full(len(wins), games / len(wins))
    res = stats.chisquare(wins, expected)
    return float(res.statistic), float(res.pvalue)


def games_for_half_width(p: float = 0.5, half_width: float = 0.01, level: float = 0.95) -> int:
    """Games needed for a proportion near ``p`` to have a ±``half_width`` interval."""
    z = stats.norm.ppf(0.5 + level / 2)
    return int(np.ceil(z * z * p * (1 - p) / half_width**2))


def games_for_power(
    edge: float = 0.01, p: float = 0.5, power: float = 0.8, level: float = 0.95
) -> int:
    """Games needed to detect a win-share edge ``edge`` over ``p`` (two-sided test)."""
    za = stats.norm.ppf(0.5 + level / 2)
    zb = stats.norm.ppf(power)
    return int(np.ceil((za + zb) ** 2 * p * (1 - p) / edge**2))


def bradley_terry(
    wins: np.ndarray, iters: int = 100, tol: float = 1e-10, start: np.ndarray | None = None
) -> np.ndarray:
    """Bradley–Terry strengths from a matrix ``wins[i, j]`` (i beat j; halves for ties), the
    maximum-likelihood fit by Newton's method on the log-strengths; returned centred on 0.

    ``start`` (log-strengths, e.g. the full sample's fit when bootstrapping) speeds up
    convergence; the answer does not depend on it.

    Raises
    ------
    ValueError
        When a player has no win or no loss (its strength would be 0 or infinite).
    """
    w = np.asarray(wins, dtype=float)
    games = w + w.T
    total_wins = w.sum(axis=1)
    if (total_wins <= 0).any() or (w.sum(axis=0) <= 0).any():
        raise ValueError("every strategy needs at least one win and one loss for Bradley–Terry")
    k = w.shape[0]
    beta = np.zeros(k) if start is None else np.asarray(start, dtype=float) - start[0]

    def loglik(b: np.ndarray) -> float:
        diff = b[:, None] - b[None, :]
        return float(-(w * np.logaddexp(0.0, -diff)).sum())

    current = loglik(beta)
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(beta[:, None] - beta[None, :])))
        grad = total_wins - (games * p).sum(axis=1)
        info = games * p * p.T
        hess = np.diag(info.sum(axis=1)) - info  # observed information (positive semidefinite)
        # beta[0] is fixed at 0: solve on the others
        step = np.zeros(k)
        step[1:] = np.linalg.solve(hess[1:, 1:], grad[1:])
        t = 1.0
        while True:  # halve the step until the likelihood does not fall
            trial = beta + t * step
            value = loglik(trial)
            if value >= current - 1e-12 or t < 1e-6:
                break
            t /= 2
        beta, current = trial, value
        if np.max(np.abs(t * step)) < tol:
            break
    return beta - beta.mean()


ELO_PER_LOG = 400 / np.log(10)
"""Elo points per unit of Bradley–Terry log-strength (400 Elo = 10:1 odds)."""


def normal_p(estimate: float, low: float, high: float, level: float = 0.95) -> float:
    """Two-sided p-value of ``estimate = 0`` from a symmetric normal/t interval (for Holm)."""
    z = stats.norm.ppf(0.5 + level / 2)
    se = (high - low) / (2 * z)
    if not np.isfinite(se) or se < 0:
        return float("nan")
    if se == 0:  # a zero-width interval: the estimate is certain
        return 0.0 if estimate != 0 else 1.0
    return float(2 * stats.norm.sf(abs(estimate) / se))
