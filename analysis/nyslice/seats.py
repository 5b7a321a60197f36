"""New York Slice's own seat questions: the first slicer, and whether slicing twice can be
told apart from seat order.

:func:`seat_advantage` is the generic table (:func:`analysis.seats.seat_advantage`) with
``times_slicer``: how often each seat slices.

Slicing twice. At 4 players there are 6 rounds, so seats 0 and 1 slice twice and seats 2
and 3 once: seat order and slicing count are confounded, and no rule of the game moves the
extra slicing turns to other seats. A model such as ``share_k = a + b k + c twice_k``
would separate them only if the order effect were linear in the seat: an assumption, not
a design. So the report makes no claim about slicing twice; it shows the raw seat
contrasts (:func:`seat_contrasts`) and :func:`linear_order_test`, which tests the linear
model against the data (the two within-pair steps 0→1 and 2→3 must then be equal).
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats

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


def seat_contrasts(out, group: str = "seats") -> pl.DataFrame:
    """Raw seat contrasts, paired within each game: seat ``k``'s win share minus the mean
    of the other seats, and the step from seat ``k`` to ``k + 1``.

    Returns
    -------
    polars.DataFrame
        One row per player count and contrast: ``players, contrast`` (``"seat k vs
        others"`` or ``"seat k → k+1"``), ``seat``, ``estimate`` with ``low``/``high``
        (pp, t interval over games: every game is one independent unit), ``games`` and the
        sample-size columns.
    """
    frame = untreated(load_rows(out, "players", group))
    result = []
    for n in sorted(frame["players"].unique()):
        share = 100 * seats.by_game(frame.filter(pl.col("players") == n), "win_share", n)
        others = (share.sum(axis=1, keepdims=True) - share) / (n - 1)
        rows = [(f"seat {k} vs others", k, share[:, k] - others[:, k]) for k in range(n)]
        rows += [(f"seat {k} → {k + 1}", k, share[:, k + 1] - share[:, k]) for k in range(n - 1)]
        for name, k, values in rows:
            m, lo, hi = mean_interval(values)
            result.append({"players": n, "contrast": name, "seat": k, "estimate": m,
                           "low": lo, "high": hi, "games": len(values)})  # fmt: skip
    table = pl.DataFrame(result)
    return annotate(table, "estimate", "low", "high", share=False, pp=True)


def linear_order_test(out, group: str = "seats") -> pl.DataFrame:
    """Test the model ``share_k = a + b k + c twice_k`` at the player counts where some
    seats slice more often than others.

    The residual contrasts of the model (the per-game seat shares projected on the
    complement of its three columns) have mean zero if it holds; a Wald test with their
    covariance across games (games are the independent unit) gives ``chi2``, ``df`` and
    ``p_value``. At 4 players the one residual contrast is the difference of the two
    within-pair steps, ``(s1 - s0) - (s3 - s2)``: shown as ``step_01``, ``step_23`` and
    ``step_diff`` (pp, t intervals over games).

    Returns
    -------
    polars.DataFrame
        One row per such player count: ``players, games, chi2, df, p_value``, the
        within-pair steps ``step_01``, ``step_23`` and their difference ``step_diff``
        (each with ``_low``/``_high``), and ``rejected`` (p < 0.05).
    """
    frame = untreated(load_rows(out, "players", group))
    result = []
    for n in sorted(frame["players"].unique()):
        sub = frame.filter(pl.col("players") == n)
        times = seats.by_game(sub, "times_slicer", n)[0]
        if len(set(times)) < 2 or n < 4:
            continue
        share = 100 * seats.by_game(sub, "win_share", n)
        design = np.column_stack([np.ones(n), np.arange(n), times - times.min()])
        # an orthonormal basis of the seat contrasts the model says are zero
        q, _ = np.linalg.qr(design, mode="complete")
        z = share @ q[:, design.shape[1] :]
        g, df = z.shape
        mean = z.mean(axis=0)
        cov = np.atleast_2d(np.cov(z, rowvar=False)) / g
        chi2 = float(mean @ np.linalg.solve(cov, mean))
        row = {"players": n, "games": g, "chi2": chi2, "df": df,
               "p_value": float(stats.chi2.sf(chi2, df))}  # fmt: skip
        pairs = [k for k in range(n - 1) if times[k] == times[k + 1]]
        steps = {f"step_{k}{k + 1}": share[:, k + 1] - share[:, k] for k in pairs[:2]}
        if len(steps) == 2:
            a, b = steps.values()
            steps["step_diff"] = a - b
        for name, values in steps.items():
            m, lo, hi = mean_interval(values)
            row.update({name: m, f"{name}_low": lo, f"{name}_high": hi})
        row["rejected"] = row["p_value"] < 0.05
        result.append(row)
    return pl.DataFrame(result)
