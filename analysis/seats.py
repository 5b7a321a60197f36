"""Is the first seat favoured? Win share and score by seat at every player count, for
any game (only the core columns: ``seat``, ``score``, ``win_share``).

Design. In a field where every seat plays the same strategy, one game already is the
paired unit the design notes ask for: every seat plays the same deal, so a seat's edge is
a within-game contrast (seat ``k``'s share minus the fair share ``1/n``, or minus the
other seats'). Rotating identical strategies around the table would replay the same game
with its seats relabelled. Where strategies differ, the study rotates them (``rotate =
true``) and :func:`rotated_seat_advantage` reads the same deals played from every seat.
Arms of a treatment variant (:func:`analysis.load.treatment`) are left out.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats

from analysis.load import rows as load_rows
from analysis.load import untreated
from analysis.samplesize import annotate
from analysis.stats import fair_share_test, mean_interval, wilson_interval


def by_game(frame: pl.DataFrame, value: str, n: int) -> np.ndarray:
    """(games, seats) matrix of one column, games in index order (one arm only)."""
    if frame["arm"].n_unique() > 1:
        raise ValueError(
            f"the block has several arms at {n} players ({sorted(frame['arm'].unique())}); "
            "the seat analyses read one arm per player count with the same strategy in "
            "every seat"
        )
    f = frame.sort(["game_index", "seat"])
    return f[value].to_numpy().astype(float).reshape(-1, n)


def seat_advantage(out, group: str = "seats", keep: tuple[str, ...] = ()) -> pl.DataFrame:
    """Win share and mean score by seat at each player count.

    Parameters
    ----------
    out : path
        The dataset directory.
    group : str
        The study block: one arm per player count, one strategy in every seat.
    keep : tuple of str
        Per-seat columns of the game to carry into the table (their first value per
        seat), e.g. a column saying how often the seat leads.

    Returns
    -------
    polars.DataFrame
        ``players, seat, strategy, games, win_share, win_low, win_high`` (Wilson), ``fair``
        (1/n), ``edge_pp`` with ``edge_low``/``edge_high`` (win share minus fair, in pp),
        ``score, score_low, score_high`` (t), the ``keep`` columns, and the sample-size
        columns of :func:`analysis.samplesize.annotate`.
    """
    frame = untreated(load_rows(out, "players", group))
    agg = (
        frame.group_by("players", "seat")
        .agg(
            pl.col("strategy").first(),
            pl.len().alias("games"),
            pl.col("win_share").sum().alias("wins"),
            pl.col("score").mean().alias("score"),
            pl.col("score").std().alias("sd"),
            *[pl.col(c).first() for c in keep],
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
                **{c: r[c] for c in keep},
            }
        )
    table = pl.DataFrame(out_rows)
    return annotate(table, "win_share", "win_low", "win_high", reference="fair")


def seat_fairness(out, group: str = "seats") -> pl.DataFrame:
    """Goodness of fit of wins by seat against fair shares, and the first seat's edge.

    Returns
    -------
    polars.DataFrame
        One row per player count: ``games``, ``chi2``, ``df``, ``p_value`` (χ² of wins per
        seat against ``games / n`` each), ``max_edge_pp`` (the largest |seat − fair|, pp),
        ``first_edge_pp`` with ``first_low``/``first_high`` (seat 0's share minus the mean of
        the other seats', paired by game, t interval, pp).
    """
    frame = untreated(load_rows(out, "players", group))
    result = []
    for n in sorted(frame["players"].unique()):
        share = by_game(frame.filter(pl.col("players") == n), "win_share", n)
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


def rotated_seat_advantage(out, group: str = "ladder") -> pl.DataFrame:
    """A strategy's win share by seat when the same deals are played with it in every seat.

    Reads a rotated block (``rotate = true``): in rotation ``k`` the block's first spec
    sits in seat ``k``. Per player count and seat: that strategy's win share with a Wilson
    interval, and its edge over its own mean across seats (pp, t interval over the deals,
    paired: the same deal seen from every seat).
    """
    frame = load_rows(out, "players", group).filter(
        (pl.col("treatment") == "") & (pl.col("seat") == pl.col("rotation"))
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


def plot_seat_advantage(table: pl.DataFrame, ax=None, seat_label: str = "seat (0 = first to play)"):
    """Win share by seat with 95% intervals, one line per player count in its colour
    (:func:`analysis.pdf.count_colour`), fair shares dashed (``seat_label``: the x axis
    label, naming seat 0 in the game's terms). The intervals are drawn over the small
    markers, so none is hidden; the legend sits outside the axes, right of them."""
    import matplotlib.pyplot as plt

    from analysis.pdf import count_colour

    ax = ax or plt.subplots(figsize=(7, 4))[1]
    counts = sorted(table["players"].unique())
    for n in counts:
        t = table.filter(pl.col("players") == n).sort("seat")
        colour = count_colour(n)
        x = t["seat"].to_numpy() + (n - 4) * 0.05
        y = 100 * t["win_share"].to_numpy()
        err = 100 * np.vstack([t["win_share"] - t["win_low"], t["win_high"] - t["win_share"]])
        ax.axhline(100 / n, color=colour, ls="--", lw=0.8, zorder=1)
        ax.plot(x, y, marker="o", ms=3, lw=1, color=colour, label=f"{n} players", zorder=2)
        ax.errorbar(x, y, yerr=err, fmt="none", ecolor=colour, elinewidth=1, capsize=2.5,
                    zorder=3)  # fmt: skip
    ax.set_xlabel(seat_label)
    ax.set_ylabel("win share, % (95% interval)")
    ax.set_xticks(range(int(table["seat"].max()) + 1))
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    ax.set_title("Win share by seat (dashed: fair share)")
    return ax
