"""New York Slice's own seat questions: the first slicer, and slicing twice.

:func:`seat_advantage` is the generic table (:func:`analysis.seats.seat_advantage`) with
``times_slicer``: how often each seat slices.

Slicing twice. At 4 players there are 6 rounds, so seats 0 and 1 slice twice and seats 2
and 3 once: seat order and slicing count are confounded. :func:`slicing_twice` separates
them with a per-game linear contrast, ``share_k = a + b * k + c * twice_k``: the order
slope ``b`` is read within the pairs that slice equally often (0→1, 2→3) and ``c`` is what
is left between the pairs. It assumes the order effect is linear in the seat.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import seats
from analysis.load import rows as load_rows
from analysis.load import untreated
from analysis.samplesize import annotate
from analysis.stats import mean_interval

SEAT_LABEL = "seat (0 = first slicer)"
"""The x axis of the seat charts, in the game's terms."""


def seat_advantage(out, group: str = "seats") -> pl.DataFrame:
    """:func:`analysis.seats.seat_advantage` with each seat's ``times_slicer``."""
    return seats.seat_advantage(out, group, keep=("times_slicer",))


def slicing_twice(out, group: str = "seats") -> pl.DataFrame:
    """Separate slicing twice from seat order (player counts where slicing counts differ).

    Returns
    -------
    polars.DataFrame
        One row per player count and measure (``win_share`` in pp, ``score`` in points):
        ``order_step`` (effect of sitting one seat later) and ``twice`` (effect of slicing
        one more time at the same seat order), each with a t interval over games.
        Counts where every seat slices equally often have no row.
    """
    frame = untreated(load_rows(out, "players", group))
    result = []
    for n in sorted(frame["players"].unique()):
        sub = frame.filter(pl.col("players") == n)
        times = seats.by_game(sub, "times_slicer", n)[0]
        if len(set(times)) < 2:
            continue
        design = np.column_stack([np.ones(n), np.arange(n), times - times.min()])
        weights = np.linalg.pinv(design)  # rows: per-seat weights of a, b, c
        for measure, scale in (("win_share", 100.0), ("score", 1.0)):
            values = seats.by_game(sub, measure, n)
            for name, row in (("order_step", 1), ("twice", 2)):
                m, lo, hi = mean_interval(scale * values @ weights[row])
                result.append(
                    {
                        "players": n,
                        "measure": measure,
                        "effect": name,
                        "estimate": m,
                        "low": lo,
                        "high": hi,
                        "games": values.shape[0],
                    }
                )
    table = pl.DataFrame(
        result,
        schema={
            "players": pl.Int64, "measure": pl.String, "effect": pl.String,
            "estimate": pl.Float64, "low": pl.Float64, "high": pl.Float64, "games": pl.Int64,
        },
    )  # fmt: skip
    table = annotate(table, "estimate", "low", "high", share=False, pp=True)
    return table.with_columns(  # the ±1 pp target applies to the win-share rows only
        pl.when(pl.col("measure") == "win_share").then(pl.col("games_for_1pp")).otherwise(None)
    )
