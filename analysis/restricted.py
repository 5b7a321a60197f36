"""What an option is worth, for any game: the win share of a seat that may use it minus that
of a seat that never does (or may not: restricted play), on the same deals against the same
field, from every seat in turn.

The restricted block is rotated (``rotate = true``): in rotation ``k`` the restricted seat
is seat ``k``, and game ``i`` of every block of the study is dealt the same (one seed), so
the deal is the paired unit.

- Against its own field (the unrestricted block is uniform, e.g. ``seats``: every seat plays
  the field's strategy): the unrestricted counterpart of the restricted seat on deal ``i``
  from seat ``k`` is seat ``k`` of the uniform block's game ``i``; averaged over the
  rotations its win share is the deal's mean win share, 1/n.
- In another field (the unrestricted block is rotated too, e.g. one strategy among greedy
  players): the candidate's value minus the restricted seat's, paired by (rotation, game),
  averaged over the rotations of each deal.

Either way the interval is a t interval over deals (every rotation of a deal played in both
blocks); n counts deals. Any per-seat column can be compared so (``column``: the win share
by default; a score, say, for what the option is worth in points).
"""

from __future__ import annotations

import polars as pl

from analysis.load import rows as load_rows
from analysis.load import untreated
from analysis.samplesize import annotate
from analysis.stats import mean_interval


def _candidate_rows(out, group: str, column: str = "win_share") -> pl.DataFrame:
    """``players, rotation, game_index`` and ``column`` of the block's candidate seat: the
    seat ``rotation`` of a rotated block; every seat of a uniform block (its seat standing
    for the rotation it would be in)."""
    frame = untreated(load_rows(out, "players", group))
    uniform = frame.group_by("arm").agg(pl.col("strategy").n_unique().alias("k"))["k"].max() == 1
    if not uniform:
        frame = frame.filter(pl.col("seat") == pl.col("rotation"))
    else:
        frame = frame.with_columns(pl.col("seat").cast(pl.Int64).alias("rotation"))
    return frame.select("players", pl.col("rotation").cast(pl.Int64), "game_index",
                        pl.col(column).cast(pl.Float64))  # fmt: skip


def deal_values(
    out, restricted: str, unrestricted: str = "seats", column: str = "win_share"
) -> pl.DataFrame:
    """Per (players, deal): the unrestricted and the restricted seat's ``column`` (the win
    share by default), each averaged over the rotations, and their difference (``value``,
    unrestricted − restricted), for the deals with every rotation played in both blocks."""
    r = _candidate_rows(out, restricted, column).rename({column: "restricted"})
    u = _candidate_rows(out, unrestricted, column).rename({column: "unrestricted"})
    both = r.join(u, on=["players", "rotation", "game_index"], how="inner")
    per = both.group_by("players", "game_index").agg(
        pl.len().alias("rotations"),
        pl.col("restricted").mean(),
        pl.col("unrestricted").mean(),
    )
    per = per.filter(pl.col("rotations") == pl.col("players"))
    return per.with_columns((pl.col("unrestricted") - pl.col("restricted")).alias("value")).sort(
        "players", "game_index"
    )


def option_value(out, restricted: str, unrestricted: str = "seats") -> pl.DataFrame:
    """The value of the option the restricted block's seat gives up, per player count.

    Returns
    -------
    polars.DataFrame
        ``players, deals`` (the paired unit), ``unrestricted_share`` and
        ``restricted_share`` (means over deals), ``value_pp`` (unrestricted − restricted,
        pp) with a 95% t interval over deals ``value_low``/``value_high``, ``games`` (=
        deals, for the sample-size columns) and the sample-size columns (counting deals).
    """
    deals = deal_values(out, restricted, unrestricted)
    result = []
    for (n,), sub in deals.group_by("players", maintain_order=True):
        m, lo, hi = mean_interval(100 * sub["value"].to_numpy())
        result.append({
            "players": int(n), "deals": sub.height,
            "unrestricted_share": float(sub["unrestricted"].mean()),
            "restricted_share": float(sub["restricted"].mean()),
            "value_pp": m, "value_low": lo, "value_high": hi,
        })  # fmt: skip
    schema = {"players": pl.Int64, "deals": pl.Int64, "unrestricted_share": pl.Float64,
              "restricted_share": pl.Float64, "value_pp": pl.Float64, "value_low": pl.Float64,
              "value_high": pl.Float64}  # fmt: skip
    table = pl.DataFrame(result, schema=schema).sort("players")
    table = table.with_columns(pl.col("deals").alias("games"))
    return annotate(table, "value_pp", "value_low", "value_high", share=False, unit="deals",
                    pp=True)  # fmt: skip
