"""Question 1: is the first slicer favoured? Win share and score by seat, 2–6 players.

Design. In a field where every seat plays the same strategy, one game already is the
paired unit the design notes ask for: every seat plays the same deal, so a seat's edge is
a within-game contrast (seat ``k``'s share minus the fair share ``1/n``, or minus the
other seats'). Rotating identical strategies around the table would replay the same game
with its seats relabelled. Where strategies differ, the study rotates them (``rotate =
true``) and :func:`rotated_seat_advantage` reads the same deals played from every seat.

Slicing twice. At 4 players there are 6 rounds, so seats 0 and 1 slice twice and seats 2
and 3 once: seat order and slicing count are confounded. :func:`slicing_twice` separates
them with a per-game linear contrast, ``share_k = a + b * k + c * twice_k``: the order
slope ``b`` is read within the pairs that slice equally often (0→1, 2→3) and ``c`` is what
is left between the pairs. It assumes the order effect is linear in the seat.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats

from analysis.load import rows as load_rows
from analysis.samplesize import annotate
from analysis.stats import fair_share_test, mean_interval, wilson_interval


def _by_game(frame: pl.DataFrame, value: str, n: int) -> np.ndarray:
    """(games, seats) matrix of one column, games in index order (one arm only)."""
    if frame["arm"].n_unique() > 1:
        raise ValueError(
            f"the block has several arms at {n} players ({sorted(frame['arm'].unique())}); "
            "the seat analyses read one arm per player count with the same strategy in "
            "every seat"
        )
    f = frame.sort(["game_index", "seat"])
    return f[value].to_numpy().astype(float).reshape(-1, n)


def seat_advantage(out, group: str = "seats") -> pl.DataFrame:
    """Win share and mean score by seat at each player count.

    Returns
    -------
    polars.DataFrame
        ``players, seat, strategy, games, win_share, win_low, win_high`` (Wilson), ``fair``
        (1/n), ``edge_pp`` with ``edge_low``/``edge_high`` (win share minus fair, in pp),
        ``score, score_low, score_high`` (t), ``times_slicer``, and the sample-size columns
        of :func:`analysis.samplesize.annotate`.
    """
    frame = load_rows(out, "players", group).filter(pl.col("blank").is_null())
    agg = (
        frame.group_by("players", "seat")
        .agg(
            pl.col("strategy").first(),
            pl.len().alias("games"),
            pl.col("win_share").sum().alias("wins"),
            pl.col("score").mean().alias("score"),
            pl.col("score").std().alias("sd"),
            pl.col("times_slicer").first(),
        )
        .sort("players", "seat")
    )
    out_rows = []
    for r in agg.iter_rows(named=True):
        lo, hi = wilson_interval(r["wins"], r["games"])
        fair = 1 / r["players"]
        t = stats.t.ppf(0.975, r["games"] - 1) if r["games"] > 1 else float("nan")
        half = t * (r["sd"] or 0.0) / np.sqrt(r["games"])
        out_rows.append(
            {
                "players": r["players"],
                "seat": r["seat"],
                "strategy": r["strategy"],
                "games": r["games"],
                "win_share": r["wins"] / r["games"],
                "win_low": lo,
                "win_high": hi,
                "fair": fair,
                "edge_pp": 100 * (r["wins"] / r["games"] - fair),
                "edge_low": 100 * (lo - fair),
                "edge_high": 100 * (hi - fair),
                "score": r["score"],
                "score_low": r["score"] - half,
                "score_high": r["score"] + half,
                "times_slicer": r["times_slicer"],
            }
        )
    table = pl.DataFrame(out_rows)
    return annotate(table, "win_share", "win_low", "win_high", reference="fair")


def seat_fairness(out, group: str = "seats") -> pl.DataFrame:
    """Goodness of fit of wins by seat against fair shares, and the first slicer's edge.

    Returns
    -------
    polars.DataFrame
        One row per player count: ``games``, ``chi2``, ``df``, ``p_value`` (χ² of wins per
        seat against ``games / n`` each), ``max_edge_pp`` (the largest |seat − fair|, pp),
        ``first_edge_pp`` with ``first_low``/``first_high`` (seat 0's share minus the mean of
        the other seats', paired by game, t interval, pp).
    """
    frame = load_rows(out, "players", group).filter(pl.col("blank").is_null())
    result = []
    for n in sorted(frame["players"].unique()):
        share = _by_game(frame.filter(pl.col("players") == n), "win_share", n)
        games = share.shape[0]
        chi2, p = fair_share_test(share.sum(axis=0), games)
        first = share[:, 0] - share[:, 1:].mean(axis=1)
        m, lo, hi = mean_interval(first)
        result.append(
            {
                "players": n,
                "games": games,
                "chi2": chi2,
                "df": n - 1,
                "p_value": p,
                "max_edge_pp": float(100 * np.max(np.abs(share.mean(axis=0) - 1 / n))),
                "first_edge_pp": 100 * m,
                "first_low": 100 * lo,
                "first_high": 100 * hi,
            }
        )
    table = pl.DataFrame(result)
    return annotate(table, "first_edge_pp", "first_low", "first_high", share=False, pp=True)


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
    frame = load_rows(out, "players", group).filter(pl.col("blank").is_null())
    result = []
    for n in sorted(frame["players"].unique()):
        sub = frame.filter(pl.col("players") == n)
        times = _by_game(sub, "times_slicer", n)[0]
        if len(set(times)) < 2:
            continue
        design = np.column_stack([np.ones(n), np.arange(n), times - times.min()])
        weights = np.linalg.pinv(design)  # rows: per-seat weights of a, b, c
        for measure, scale in (("win_share", 100.0), ("score", 1.0)):
            values = _by_game(sub, measure, n)
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


def rotated_seat_advantage(out, group: str = "ladder") -> pl.DataFrame:
    """A strategy's win share by seat when the same deals are played with it in every seat.

    Reads a rotated block (``rotate = true``): in rotation ``k`` the block's first spec
    sits in seat ``k``. Per player count and seat: that strategy's win share with a Wilson
    interval, and its edge over its own mean across seats (pp, t interval over the deals,
    paired: the same deal seen from every seat).
    """
    frame = load_rows(out, "players", group).filter(
        pl.col("blank").is_null() & (pl.col("seat") == pl.col("rotation"))
    )
    several = frame.group_by("players", "rotation").agg(pl.col("arm").n_unique().alias("k"))
    if several["k"].max() > 1:
        raise ValueError(
            f"block {group!r} has several arms per player count and rotation (a grid?); "
            "rotated_seat_advantage reads one rotated seating per player count"
        )
    result = []
    for n in sorted(frame["players"].unique()):
        sub = frame.filter(pl.col("players") == n).sort("game_index", "seat")
        share = sub.pivot(on="seat", index="game_index", values="win_share").drop("game_index")
        share = share.select(sorted(share.columns, key=int)).to_numpy()
        share = share[~np.isnan(share).any(axis=1)]
        strategy = sub["strategy"][0]
        for k in range(n):
            lo, hi = wilson_interval(share[:, k].sum(), len(share))
            m, elo, ehi = mean_interval(100 * (share[:, k] - share.mean(axis=1)))
            result.append(
                {
                    "players": n,
                    "seat": k,
                    "strategy": strategy,
                    "games": len(share),
                    "win_share": float(share[:, k].mean()),
                    "win_low": lo,
                    "win_high": hi,
                    "edge_pp": m,
                    "edge_low": elo,
                    "edge_high": ehi,
                }
            )
    return annotate(pl.DataFrame(result), "edge_pp", "edge_low", "edge_high", share=False, pp=True)


def plot_seat_advantage(table: pl.DataFrame, ax=None):
    """Win share by seat with 95% intervals, one line per player count, fair shares dashed."""
    import matplotlib.pyplot as plt

    ax = ax or plt.subplots(figsize=(7, 4))[1]
    for n in sorted(table["players"].unique()):
        t = table.filter(pl.col("players") == n).sort("seat")
        x = t["seat"].to_numpy() + (n - 4) * 0.04
        y = 100 * t["win_share"].to_numpy()
        err = 100 * np.vstack([t["win_share"] - t["win_low"], t["win_high"] - t["win_share"]])
        line = ax.errorbar(x, y, yerr=err, marker="o", ms=4, capsize=3, label=f"{n} players")
        ax.axhline(100 / n, color=line[0].get_color(), ls="--", lw=0.8)
    ax.set_xlabel("seat (0 = first slicer)")
    ax.set_ylabel("win share, % (95% CI)")
    ax.set_xticks(range(int(table["seat"].max()) + 1))
    ax.legend(fontsize=8, ncols=2)
    ax.set_title("Win share by seat (dashed: fair share)")
    return ax
