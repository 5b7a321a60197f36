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
    return (float(centre - half), float(centre + half))


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
