"""Interval estimates we stand behind (see ../shared/design.md, "Statistics")."""

from __future__ import annotations

import numpy as np
from scipy import stats


def wilson_interval(successes: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion (shared wins may make ``successes`` fractional).

    Returns ``(nan, nan)`` when ``n`` is 0.
    """
    if n <= 0:
        return (float("nan"), float("nan"))
    z = stats.norm.ppf(0.5 + level / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # clamp float round-off: the interval always holds p and lies in [0, 1]
    return (float(max(0.0, min(centre - half, p))), float(min(1.0, max(centre + half, p))))


def mean_interval(values: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """Mean and its t interval: ``(mean, low, high)``."""
    values = np.asarray(values, dtype=float)
    n = len(values)
    m = float(values.mean()) if n else float("nan")
    if n < 2:
        return (m, float("nan"), float("nan"))
    half = stats.t.ppf(0.5 + level / 2, n - 1) * values.std(ddof=1) / np.sqrt(n)
    return (m, float(m - half), float(m + half))


def paired_difference(
    a: np.ndarray, b: np.ndarray, level: float = 0.95
) -> tuple[float, float, float]:
    """Mean of ``a - b`` over paired units with a t interval: ``(mean, low, high)``."""
    return mean_interval(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), level)


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


def bradley_terry(wins: np.ndarray, iters: int = 10_000, tol: float = 1e-10) -> np.ndarray:
    """Bradley–Terry strengths from a matrix ``wins[i, j]`` (i beat j; halves for ties), by
    Hunter's MM algorithm; returned as log-strengths centred on 0.

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
    s = np.ones(w.shape[0])
    for _ in range(iters):
        pair = s[:, None] + s[None, :]
        new = total_wins / (games / pair).sum(axis=1)
        new /= np.exp(np.mean(np.log(new)))
        done = np.max(np.abs(new - s)) < tol
        s = new
        if done:
            break
    log_s = np.log(s)
    return log_s - log_s.mean()


ELO_PER_LOG = 400 / np.log(10)
"""Elo points per unit of Bradley–Terry log-strength (400 Elo = 10:1 odds)."""


def normal_p(estimate: float, low: float, high: float, level: float = 0.95) -> float:
    """Two-sided p-value of ``estimate = 0`` from a symmetric normal/t interval (for Holm)."""
    z = stats.norm.ppf(0.5 + level / 2)
    se = (high - low) / (2 * z)
    if not np.isfinite(se) or se <= 0:
        return float("nan")
    return float(2 * stats.norm.sf(abs(estimate) / se))
