"""The two interval estimates the simulator itself needs (tuning reports its winner with
one); :mod:`analysis.stats` builds the rest on them."""

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
