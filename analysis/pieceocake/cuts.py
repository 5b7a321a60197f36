"""How Piece o' Cake servers cut, as played (observational): how many pieces, and how often
fewer than the most allowed (N, or ``two_player_pieces`` at 2 players).

A cut is recorded as the ``CUT`` decision's gap mask: ``k ≥ 2`` gaps make ``k`` pieces and
mask 0 is the whole cake, one piece. A game has five cuts, dependent through the deal and
the players' holdings, so intervals treat the game as the unit. What cutting fewer is
worth is measured by :mod:`analysis.pieceocake.restricted`.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.load import manifest, untreated
from analysis.load import rows as load_rows
from analysis.pieceocake.common import max_pieces
from analysis.samplesize import annotate
from analysis.stats import ratio_interval


def pieces_expr(mask: pl.Expr) -> pl.Expr:
    """The piece count of a gap mask: its popcount, or 1 for mask 0."""
    bits = mask.cast(pl.UInt32).bitwise_count_ones().cast(pl.Int64)
    return pl.when(bits == 0).then(1).otherwise(bits)


def cut_rows(out, group: str = "decisions") -> pl.DataFrame:
    """Every ``CUT`` decision of the block with ``pieces`` (its piece count),
    ``most`` (the most allowed) and ``fewer`` (pieces < most)."""
    most = max_pieces(manifest(out), group)
    dec = untreated(load_rows(out, "decisions", group)).filter(
        pl.col("phase").cast(pl.String) == "cut"
    )
    most_col = pl.col("players").replace_strict(most, return_dtype=pl.Int64)
    return dec.with_columns(pieces_expr(pl.col("action")).alias("pieces"),
                            most_col.alias("most")).with_columns(
        (pl.col("pieces") < pl.col("most")).alias("fewer")
    )  # fmt: skip


def fewer_rates(out, group: str = "decisions") -> pl.DataFrame:
    """Per player count: the share of cuts with fewer pieces than the most allowed, and the
    mean piece count, with t intervals over games.

    Returns
    -------
    polars.DataFrame
        ``players, most, games, cuts, fewer_share`` with ``fewer_low``/``fewer_high``,
        ``mean_pieces`` with ``pieces_low``/``pieces_high`` and the sample-size columns
        (levels: only the games are checked).
    """
    cuts = cut_rows(out, group)
    per = cuts.group_by("players", "arm", "game_index").agg(
        pl.len().alias("cuts"), pl.col("fewer").sum().cast(pl.Int64),
        pl.col("pieces").sum().alias("pieces"), pl.col("most").first(),
    ).sort("players", "arm", "game_index")  # fmt: skip
    result = []
    for (n,), sub in per.group_by("players", maintain_order=True):
        f, flo, fhi, g = ratio_interval(sub["fewer"].to_numpy(), sub["cuts"].to_numpy())
        p, plo, phi, _ = ratio_interval(
            sub["pieces"].to_numpy(), sub["cuts"].to_numpy(), share=False
        )
        result.append({"players": int(n), "most": int(sub["most"][0]), "games": g,
                       "cuts": int(sub["cuts"].sum()), "fewer_share": f, "fewer_low": flo,
                       "fewer_high": fhi, "mean_pieces": p, "pieces_low": plo,
                       "pieces_high": phi})  # fmt: skip
    schema = {"players": pl.Int64, "most": pl.Int64, "games": pl.Int64, "cuts": pl.Int64,
              "fewer_share": pl.Float64, "fewer_low": pl.Float64, "fewer_high": pl.Float64,
              "mean_pieces": pl.Float64, "pieces_low": pl.Float64,
              "pieces_high": pl.Float64}  # fmt: skip
    table = pl.DataFrame(result, schema=schema).sort("players")
    return annotate(table, "fewer_share", "fewer_low", "fewer_high", reference=None,
                    share=False)  # fmt: skip


def piece_counts(out, group: str = "decisions") -> pl.DataFrame:
    """Per player count and piece count: the share of cuts (``players, pieces, cuts,
    share``), for the distribution chart."""
    cuts = cut_rows(out, group)
    counts = cuts.group_by("players", "pieces").agg(pl.len().alias("cuts"))
    return counts.with_columns(
        (pl.col("cuts") / pl.col("cuts").sum().over("players")).alias("share")
    ).sort("players", "pieces")


def plot_piece_counts(pc: pl.DataFrame, ax) -> None:
    """Per player count, the share of cuts of each piece count, one bar per piece count.

    Parameters
    ----------
    pc : pl.DataFrame
        The shares (:func:`piece_counts`).
    ax : matplotlib.axes.Axes
        Where to draw (the legend goes right of it).
    """
    counts = sorted(pc["players"].unique())
    sizes = sorted(pc["pieces"].unique())
    width = 0.8 / max(len(sizes), 1)
    cmap = {k: c for k, c in zip(sizes, ("#c6dbef", "#9ecae1", "#6baed6", "#3182bd", "#08519c",
                                         "#08306b"), strict=False)}  # fmt: skip
    for j, k in enumerate(sizes):
        t = pc.filter(pl.col("pieces") == k)
        share = {int(p): s for p, s in zip(t["players"], t["share"], strict=True)}
        x = np.arange(len(counts)) - 0.4 + width * (j + 0.5)
        ax.bar(x, [100 * share.get(n, 0.0) for n in counts], width, color=cmap.get(k, "0.5"),
               label=f"{k} piece{'s' if k > 1 else ''}", edgecolor="0.3", lw=0.3)  # fmt: skip
    ax.set_xticks(range(len(counts)), [f"{n} players" for n in counts], fontsize=7)
    ax.set_ylabel("% of cuts", fontsize=8)
    ax.set_title("Pieces per cut, as played", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=6.5, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
