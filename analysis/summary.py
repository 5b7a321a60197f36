"""Per-seat summary of a batch: win share with a Wilson interval and the mean score breakdown."""

from __future__ import annotations

import polars as pl

from analysis.stats import wilson_interval


def seat_summary(rows: pl.DataFrame, components: list[str] | None = None) -> pl.DataFrame:
    """Summarise per-player rows (one per player per game) by player count and seat.

    Parameters
    ----------
    rows : polars.DataFrame
        A ``players`` table with a ``players`` column.
    components : list of str, optional
        Columns to average (default: ``score``; the game's
        ``ResultSchema.components`` plus ``score`` for the breakdown).

    Returns columns players, seat, strategy, games, win_share, win_low, win_high, and the
    mean of each component.
    """
    components = list(components or ["score"])
    agg = (
        rows.group_by(["players", "seat", "strategy"])
        .agg(
            pl.len().alias("games"),
            pl.col("win_share").sum().alias("wins"),
            *[pl.col(c).mean().alias(c) for c in components],
        )
        .sort(["players", "seat"])
    )
    lows, highs = [], []
    for wins, n in zip(agg["wins"], agg["games"], strict=True):
        lo, hi = wilson_interval(wins, n)
        lows.append(lo)
        highs.append(hi)
    return agg.with_columns(
        (pl.col("wins") / pl.col("games")).alias("win_share"),
        pl.Series("win_low", lows),
        pl.Series("win_high", highs),
    ).select(
        ["players", "seat", "strategy", "games", "win_share", "win_low", "win_high", *components]
    )
