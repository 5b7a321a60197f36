"""How many games a number needs, and a warning where a cell is too small for its claim.

Every table of the balance analyses passes through :func:`annotate`, which adds

- ``half_width``: half the 95% interval, in the estimate's unit;
- ``games_for_1pp``: games that would give a ±1 pp interval (win-share estimates only),
  scaled from the cell's own variance: ``n * (half_width / 1 pp)**2``;
- ``warning``: empty when the cell supports its claim, else why not.

:func:`holm_columns` adds Holm's correction across the rows of a player count (the
components of one table: New York Slice's specials, Horno's dish types).

A cell's claim is the sign of its effect (or, for a level such as a win share, its
difference from the reference, e.g. the fair share). It is unsupported when the interval
covers the reference, or when fewer than :data:`MIN_GAMES` games stand behind it.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from analysis.stats import holm, normal_p

MIN_GAMES = 100
"""Below this many games a cell is flagged whatever its interval says."""


def games_for(n: int, half_width: float, target: float = 0.01) -> int | None:
    """Games for a ±``target`` interval given ``n`` games gave ±``half_width``."""
    if n <= 0 or not math.isfinite(half_width) or half_width <= 0:
        return None  # no interval, or no variance (e.g. a strategy against copies of itself)
    return max(1, math.ceil(n * (half_width / target) ** 2))


def warning(
    estimate: float,
    low: float,
    high: float,
    n: int,
    reference: float | None = 0.0,
    unit: str = "games",
) -> str:
    """Why a cell cannot support its claim ('' when it can); ``reference`` None for a
    level (a rate or mean that makes no sign claim): only the sample size is checked."""
    if n < MIN_GAMES:
        return f"only {n} {unit} (< {MIN_GAMES})"
    if reference is None:
        return ""
    if not (math.isfinite(low) and math.isfinite(high)):
        return "no interval"
    if low == high == reference:
        return ""  # exactly the reference, with no variance (a strategy against itself)
    if low <= reference <= high:
        need = games_for(n, (high - low) / 2, max(abs(estimate - reference), 1e-9) / 2)
        return f"interval covers {reference:.3g}: ≈{need:,} {unit} would settle the sign"
    return ""


def annotate(
    table: pl.DataFrame,
    estimate: str,
    low: str,
    high: str,
    n: str = "games",
    reference: float | str | None = 0.0,
    share: bool = True,
    unit: str = "games",
    pp: bool = False,
) -> pl.DataFrame:
    """Add ``half_width``, ``games_for_1pp`` (when ``share``) and ``warning`` columns.

    Parameters
    ----------
    table : polars.DataFrame
        One row per cell.
    estimate, low, high, n : str
        Column names of the estimate, its 95% interval and the games behind it.
    reference : float, str or None
        The value the claim is measured against (0 for effects; a column name such as
        ``fair`` for win shares); None for levels that make no sign claim.
    share : bool
        Whether the estimate is a win share (a proportion), so ±1 pp is meaningful.
    unit : str
        What ``n`` counts, for the warning (``games``, ``decisions``).
    pp : bool
        Whether the estimate is a win-share difference already in percentage points;
        ``games_for_1pp`` is then computed too (``half_width`` stays in the estimate's
        unit: pp here, a proportion for ``share``).
    """
    refs = table[reference].to_list() if isinstance(reference, str) else [reference] * table.height
    half, need, warn = [], [], []
    for e, lo, hi, k, r in zip(
        table[estimate], table[low], table[high], table[n], refs, strict=True
    ):
        h = (hi - lo) / 2 if lo is not None and hi is not None else float("nan")
        half.append(h)
        need.append(games_for(int(k), h, 0.01 if share else 1.0) if share or pp else None)
        warn.append(warning(e, lo if lo is not None else math.nan,
                            hi if hi is not None else math.nan, int(k), r, unit))  # fmt: skip
    cols = [pl.Series("half_width", half, pl.Float64)]
    if share or pp:
        cols.append(pl.Series("games_for_1pp", need, pl.Int64))
    cols.append(pl.Series("warning", warn, pl.String))
    return table.with_columns(cols)


def holm_columns(table: pl.DataFrame, prefix: str, by: str = "players") -> pl.DataFrame:
    """Add ``p_holm`` and ``holm_significant`` (at 5%) to a table of effects
    ``<prefix>_pp`` with ``<prefix>_low``/``<prefix>_high`` (95%): each row's two-sided
    p-value from its interval (:func:`analysis.stats.normal_p`), adjusted by Holm's method
    across the rows of each value of ``by`` (a missing p-value counts as 1)."""
    parts = []
    for n in table[by].unique(maintain_order=True):
        t = table.filter(pl.col(by) == n)
        p = np.array(
            [
                normal_p(e, lo, hi)
                for e, lo, hi in zip(
                    t[f"{prefix}_pp"], t[f"{prefix}_low"], t[f"{prefix}_high"], strict=True
                )
            ]
        )
        adj = holm(np.nan_to_num(p, nan=1.0))
        parts.append(t.with_columns(pl.Series("p_holm", adj), pl.Series("holm_significant",
                                                                          adj < 0.05)))  # fmt: skip
    if not parts:
        return table.with_columns(pl.lit(None, pl.Float64).alias("p_holm"),
                                  pl.lit(None, pl.Boolean).alias("holm_significant"))  # fmt: skip
    return pl.concat(parts)
