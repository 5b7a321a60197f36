"""How often Piece o' Cake players forgo a cake, as played (observational).

A turn is a take-or-forgo: every seat has one a cake at 3 to 5 players; at 2 players up to
two, and a seat that forgoes gives up the rest of its turns in that cake. So a seat's turns
are its ``pieces_taken + forgone``. A **voluntary** forgo is a ``CHOOSE`` decision answered
with action 0 (a piece was still free); a **forced** forgo (no piece left) is not a decision
and is not recorded, so forced = ``forgone`` − voluntary. A player who forgoes may eat the
collected slices of one variety (``forgo_eaten``).

Every number here comes from one block (``decisions``: every decision of fresh games with
the same strategy in every seat). A game's turns are dependent (its seats share the deal),
so every interval treats the game as the unit. The comparison of seats that forgo with
seats that do not is an association: the strategy chose when to forgo, so a forgoing seat
differs in its cake, not only in its forgo. What forgoing is worth is measured by
:mod:`analysis.pieceocake.restricted`.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.load import game_ids, untreated
from analysis.load import rows as load_rows
from analysis.samplesize import annotate
from analysis.stats import group_difference, mean_interval, ratio_interval


def voluntary_forgos(out, group: str = "decisions") -> pl.DataFrame:
    """Per (arm, game, seat): the seat's voluntary forgos (``CHOOSE`` decisions answered 0)."""
    dec = untreated(load_rows(out, "decisions", group)).filter(
        (pl.col("phase").cast(pl.String) == "choose") & (pl.col("action") == 0)
    )
    return dec.group_by("arm", "game_index", "seat").agg(pl.len().alias("voluntary"))


def forgo_seats(out, group: str = "decisions") -> pl.DataFrame:
    """The block's seat rows with ``turns``, ``voluntary`` and ``forced`` forgos."""
    seats = untreated(load_rows(out, "players", group))
    vol = voluntary_forgos(out, group).with_columns(pl.col("seat").cast(seats["seat"].dtype))
    seats = seats.join(vol, on=["arm", "game_index", "seat"], how="left").with_columns(
        pl.col("voluntary").fill_null(0).cast(pl.Int64),
        (pl.col("pieces_taken").cast(pl.Int64) + pl.col("forgone").cast(pl.Int64)).alias("turns"),
    )
    return seats.with_columns(
        (pl.col("forgone").cast(pl.Int64) - pl.col("voluntary")).alias("forced")
    ).sort("players", "arm", "game_index", "seat")


MEASURES = {
    "forgone": "turns forgone (share of turns)",
    "voluntary": "voluntary forgos (share of turns)",
    "forced": "forced forgos (share of turns)",
    "forgo_eaten": "slices eaten by forgoing (share of slices eaten)",
    "forgo_eaten_per_game": "slices eaten by forgoing, per game",
    "forgoing_seats": "seats that forgo at least once (share of seats)",
}
"""The measures of :func:`forgo_rates`, in words."""


def forgo_rates(out, group: str = "decisions") -> pl.DataFrame:
    """Per player count: the share of turns forgone, voluntary and forced; the share of
    eaten slices eaten by forgoing and how many a game; the share of seats that forgo at
    least once. Ratios of per-game totals, t intervals over games (the unit).

    Returns
    -------
    polars.DataFrame
        ``players, measure, estimate, low, high, games`` (shares as fractions) and the
        sample-size columns (levels: only the games are checked).
    """
    seats = forgo_seats(out, group)
    per = seats.group_by("players", "arm", "game_index").agg(
        pl.col("turns").sum(), pl.col("forgone").cast(pl.Int64).sum(), pl.col("voluntary").sum(),
        pl.col("forced").sum(), pl.col("forgo_eaten").cast(pl.Int64).sum(),
        pl.col("eaten").cast(pl.Int64).sum(),
        (pl.col("forgone") > 0).sum().cast(pl.Int64).alias("forgoing_seats"),
        pl.len().alias("seats"),
    )  # fmt: skip
    result = []
    for (n,), sub in per.sort("players", "arm", "game_index").group_by(
        "players", maintain_order=True
    ):
        values = {}
        for m in ("forgone", "voluntary", "forced"):
            values[m] = ratio_interval(sub[m].to_numpy(), sub["turns"].to_numpy())[:3]
        values["forgo_eaten"] = ratio_interval(sub["forgo_eaten"].to_numpy(),
                                               sub["eaten"].to_numpy())[:3]  # fmt: skip
        values["forgo_eaten_per_game"] = mean_interval(sub["forgo_eaten"].to_numpy())
        values["forgo_eaten_per_game"] = (values["forgo_eaten_per_game"][0],
                                          max(values["forgo_eaten_per_game"][1], 0.0),
                                          values["forgo_eaten_per_game"][2])  # fmt: skip
        values["forgoing_seats"] = ratio_interval(sub["forgoing_seats"].to_numpy(),
                                                  sub["seats"].to_numpy())[:3]  # fmt: skip
        for m, (e, lo, hi) in values.items():
            result.append({"players": int(n), "measure": m, "estimate": e, "low": lo,
                           "high": hi, "games": sub.height})  # fmt: skip
    schema = {"players": pl.Int64, "measure": pl.String, "estimate": pl.Float64,
              "low": pl.Float64, "high": pl.Float64, "games": pl.Int64}  # fmt: skip
    table = pl.DataFrame(result, schema=schema)
    return annotate(table, "estimate", "low", "high", reference=None, share=False)


def rate(table: pl.DataFrame, players: int, measure: str) -> dict | None:
    """One cell of :func:`forgo_rates` (None when absent)."""
    t = table.filter((pl.col("players") == players) & (pl.col("measure") == measure))
    return t.row(0, named=True) if t.height else None


def forgo_association(out, group: str = "decisions") -> pl.DataFrame:
    """Win share of seats that forgo at least once minus that of seats that never do, per
    player count: an association, not an effect (interval clustered by game).

    Returns
    -------
    polars.DataFrame
        ``players, games, seats_forgoing, seats_not``, ``smaller_group_games`` (games with
        a seat in the rarer group: the difference rests on them, and the warning counts
        them), ``share_forgoing, share_not, diff_pp`` with ``diff_low``/``diff_high``
        (cluster-robust t over games) and the sample-size columns (counting games).
    """
    seats = forgo_seats(out, group)
    result = []
    for (n,), sub in seats.group_by("players", maintain_order=True):
        forgo = (sub["forgone"] > 0).to_numpy()
        y = sub["win_share"].to_numpy()
        clusters = game_ids(sub)
        d, lo, hi, g = group_difference(100 * y, forgo, clusters)
        rarer = forgo if forgo.sum() <= (~forgo).sum() else ~forgo
        result.append({
            "players": int(n), "games": g, "seats_forgoing": int(forgo.sum()),
            "seats_not": int((~forgo).sum()),
            "smaller_group_games": len(set(clusters[rarer].tolist())),
            "share_forgoing": float(y[forgo].mean()) if forgo.any() else float("nan"),
            "share_not": float(y[~forgo].mean()) if (~forgo).any() else float("nan"),
            "diff_pp": d, "diff_low": lo, "diff_high": hi,
        })  # fmt: skip
    schema = {"players": pl.Int64, "games": pl.Int64, "seats_forgoing": pl.Int64,
              "seats_not": pl.Int64, "smaller_group_games": pl.Int64,
              "share_forgoing": pl.Float64, "share_not": pl.Float64,
              "diff_pp": pl.Float64, "diff_low": pl.Float64, "diff_high": pl.Float64}  # fmt: skip
    table = pl.DataFrame(result, schema=schema).sort("players")
    # the difference rests on the rarer group: warn on the games behind it
    return annotate(table, "diff_pp", "diff_low", "diff_high", n="smaller_group_games",
                    share=False, pp=True)  # fmt: skip


def plot_rates(rates: pl.DataFrame, ax) -> None:
    """Per player count, the share of turns forgone with its 95% interval over games, split
    into forced (hatched) and voluntary forgos.

    Parameters
    ----------
    rates : pl.DataFrame
        The forgo rates (:func:`forgo_rates`).
    ax : matplotlib.axes.Axes
        Where to draw.
    """
    from analysis.formats import count_colour

    counts = sorted(rates["players"].unique())
    x = np.arange(len(counts))
    vol = np.array([100 * rate(rates, n, "voluntary")["estimate"] for n in counts])
    forced = np.array([100 * rate(rates, n, "forced")["estimate"] for n in counts])
    tot = [rate(rates, n, "forgone") for n in counts]
    colours = [count_colour(n) for n in counts]
    ax.bar(x, forced, 0.6, color=colours, alpha=0.35, hatch="////", edgecolor=colours, lw=0,
           label="forced")  # fmt: skip
    ax.bar(x, vol, 0.6, bottom=forced, color=colours, alpha=0.9, label="voluntary")
    y = np.array([100 * t["estimate"] for t in tot])
    err = np.vstack([y - [100 * t["low"] for t in tot], [100 * t["high"] for t in tot] - y])
    ax.errorbar(x, y, yerr=err, fmt="none", ecolor="black", elinewidth=0.8, capsize=2)
    ax.set_xticks(x, [f"{n} players" for n in counts], fontsize=7)
    ax.set_ylabel("% of turns forgone (95% CI)", fontsize=8)
    ax.set_title("Forgone turns: forced (hatched) and voluntary", fontsize=8)
    ax.tick_params(labelsize=7)


def plot_association(assoc: pl.DataFrame, ax) -> None:
    """Per player count, the win share of seats that forgo minus that of seats that do not,
    with its 95% interval (an association, not an effect).

    Parameters
    ----------
    assoc : pl.DataFrame
        The association (:func:`forgo_association`).
    ax : matplotlib.axes.Axes
        Where to draw.
    """
    from analysis.formats import count_colour

    t = assoc.filter(pl.col("diff_pp").is_finite()).sort("players")
    counts = t["players"].to_list()
    x = np.arange(len(counts))
    for k, row in enumerate(t.iter_rows(named=True)):
        c = count_colour(row["players"])
        y = row["diff_pp"]
        if np.isfinite(row["diff_low"]):
            ax.errorbar([k], [y], yerr=[[y - row["diff_low"]], [row["diff_high"] - y]],
                        fmt="none", ecolor=c, capsize=2.5, elinewidth=1)  # fmt: skip
        ax.plot([k], [y], "o", color=c, ms=4)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(x, [f"{n} players" for n in counts], fontsize=7)
    ax.set_xlim(-0.5, max(len(counts) - 0.5, 0.5))
    ax.set_ylabel("win share, pp (95% CI)", fontsize=8)
    ax.set_title("Seats that forgo − seats that do not\n(association, not an effect)",
                 fontsize=8)  # fmt: skip
    ax.tick_params(labelsize=7)
