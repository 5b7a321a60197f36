"""What the first placement is worth: restricted play.

In block ``blind`` one seat plays ``mixed(blind=1)``: it places its first topping (round 0)
uniformly at random among the legal spaces and plays every other decision as the mixed
player; the others play the unrestricted mixed player. The block is rotated (the blind
seat sits in every seat in turn) and shares the study seed with ``seats``, so deal ``i``
from seat ``k`` is compared with seat ``k`` of ``seats``' game ``i``
(:func:`analysis.restricted.deal_values`). :data:`~analysis.pizzatheory.common.OPENING_FIELDS`
lists the fields that have such a pair of blocks. Per player count, each a t interval
over deals (every rotation of a deal together: the deal is the cluster):

- ``edge_pp``: the blind seat's win share minus the unrestricted seat's on the same deals
  (pp; negative: the first placement is worth having). ``seats`` is uniform, so averaged
  over the seats the unrestricted seat wins ``1/n`` of every deal and this is also the
  blind seat's share minus the fair share;
- ``table_pp``: the blind seat's share minus the mean of the other seats at its own table
  (the unrestricted seats it played against);
- ``toppings``: its toppings on the board at the end minus the unrestricted seat's on the
  same deals (its cost in toppings).
"""

from __future__ import annotations

import polars as pl

from analysis.blocks import has_block
from analysis.load import block_frames, untreated
from analysis.load import rows as load_rows
from analysis.pizzatheory.common import MAIN_FIELD, OPENING_FIELDS, distinct_games
from analysis.restricted import deal_values
from analysis.robust import Condition
from analysis.samplesize import annotate
from analysis.stats import mean_interval

SCHEMA = {
    "field": pl.String,
    "restricted": pl.String,
    "unrestricted": pl.String,
    "players": pl.Int64,
    "deals": pl.Int64,
    "distinct": pl.Int64,
    "blind_share": pl.Float64,
    "unrestricted_share": pl.Float64,
    "fair": pl.Float64,
    "edge_pp": pl.Float64,
    "edge_low": pl.Float64,
    "edge_high": pl.Float64,
    "table_pp": pl.Float64,
    "table_low": pl.Float64,
    "table_high": pl.Float64,
    "toppings": pl.Float64,
    "toppings_low": pl.Float64,
    "toppings_high": pl.Float64,
    "blind_toppings": pl.Float64,
    "unrestricted_toppings": pl.Float64,
}


def table_edges(out, restricted: str) -> pl.DataFrame:
    """Per (players, deal): the restricted seat's win share minus the mean of the other
    seats of its game, averaged over the rotations played (``table``, a share)."""
    frame = untreated(load_rows(out, "players", restricted))
    per = frame.group_by("players", "rotation", "game_index").agg(
        pl.col("win_share").filter(pl.col("seat") == pl.col("rotation")).first().alias("own"),
        pl.col("win_share").filter(pl.col("seat") != pl.col("rotation")).mean().alias("others"),
    )
    return per.group_by("players", "game_index").agg(
        (pl.col("own") - pl.col("others")).mean().alias("table"), pl.len().alias("rotations")
    )


def first_placement(
    out, restricted: str = "blind", unrestricted: str = "seats", field: str = MAIN_FIELD
) -> pl.DataFrame:
    """The first placement's value in one field, per player count (see the module notes).

    Returns
    -------
    polars.DataFrame
        ``field, restricted, unrestricted, players, deals`` (the paired unit: deals with
        every rotation played in both blocks), ``distinct`` (distinct games of the
        restricted block), ``blind_share``, ``unrestricted_share`` and ``fair``, ``edge_pp``
        / ``table_pp`` with their intervals (pp), ``toppings`` with its interval and the
        two sides' mean toppings, ``games`` (= deals) and the sample-size columns
        (counting deals).
    """
    shares = deal_values(out, restricted, unrestricted)
    tops = deal_values(out, restricted, unrestricted, column="toppings")
    table = table_edges(out, restricted)
    players, games = block_frames(out, restricted)
    counts = distinct_games(players, games)
    rows = []
    for (n,), sub in shares.group_by("players", maintain_order=True):
        t = tops.filter(pl.col("players") == n).join(sub.select("game_index"), on="game_index")
        e = table.filter(pl.col("players") == n).join(sub.select("game_index"), on="game_index")
        edge = mean_interval(-100 * sub["value"].to_numpy())
        own = mean_interval(100 * e["table"].to_numpy())
        top = mean_interval(-t["value"].to_numpy())
        d = counts.filter(pl.col("players") == n)
        rows.append(
            {
                "field": field,
                "restricted": restricted,
                "unrestricted": unrestricted,
                "players": int(n),
                "deals": sub.height,
                "distinct": int(d["distinct"][0]) if d.height else 0,
                "blind_share": float(sub["restricted"].mean()),
                "unrestricted_share": float(sub["unrestricted"].mean()),
                "fair": 1 / int(n),
                "edge_pp": edge[0],
                "edge_low": edge[1],
                "edge_high": edge[2],
                "table_pp": own[0],
                "table_low": own[1],
                "table_high": own[2],
                "toppings": top[0],
                "toppings_low": top[1],
                "toppings_high": top[2],
                "blind_toppings": float(t["restricted"].mean()),
                "unrestricted_toppings": float(t["unrestricted"].mean()),
            }
        )
    frame = pl.DataFrame(rows, schema=SCHEMA).sort("players")
    frame = frame.with_columns(pl.col("deals").alias("games"))
    return annotate(frame, "edge_pp", "edge_low", "edge_high", share=False, unit="deals", pp=True)


def field_values(out, manifest: dict, fields: dict[str, tuple[str, str]] = OPENING_FIELDS):
    """:func:`first_placement` in every field whose two blocks the study has, stacked; and
    per player count the blind seat's edge in each field as robustness conditions."""
    tables = []
    found: dict[int, list[Condition]] = {}
    for name, (blind, base) in fields.items():
        if not (has_block(manifest, blind) and has_block(manifest, base)):
            continue
        t = first_placement(out, blind, base, name)
        tables.append(t)
        for x in t.iter_rows(named=True):
            found.setdefault(x["players"], []).append(
                Condition(
                    "field", name, x["edge_pp"], x["edge_low"], x["edge_high"], x["deals"], "deals"
                )
            )
    if not tables:
        return None, found
    return pl.concat(tables), found
