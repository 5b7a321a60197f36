"""Per-seat summary of a batch: win share with a Wilson interval and the mean score breakdown."""

from __future__ import annotations

import polars as pl

from analysis.stats import wilson_interval

COMPONENTS = ["majorities", "specials", "diet", "pepperoni", "anchovies", "score"]


def seat_summary(rows: pl.DataFrame) -> pl.DataFrame:
    """Summarise per-player rows (one per player per game) by player count and seat.

    Returns columns players, seat, strategy, games, win_share, win_low, win_high, and the
    mean of each score component.
    """
    agg = (
        rows.group_by(["players", "seat", "strategy"])
        .agg(
            pl.len().alias("games"),
            pl.col("win_share").sum().alias("wins"),
            *[pl.col(c).mean().alias(c) for c in COMPONENTS],
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
        ["players", "seat", "strategy", "games", "win_share", "win_low", "win_high", *COMPONENTS]
    )
