"""New York Slice what-if rule changes: a headline before and after a candidate change.

A what-if block plays the same deals as the block it is compared with (the same seed and
deck) under a changed rule (``[arms.rules]``, e.g. ``super_sized_combo_halves = 3`` or
``compensation = [1]``). Because game ``i`` of both is the same deal, the change is a
paired difference over deals:

- :func:`first_slicer_change` — the first slicer's edge (seat 0's win share minus the fair
  share, pp: :func:`analysis.seats.first_edge`) before and after;
- :func:`special_change` — one special's worth (:func:`analysis.nyslice.specials.forfeit_value`:
  points a game it is in play) before and after.

Both are change tables of :mod:`analysis.whatif`, which also reads a block's rules
(:func:`analysis.whatif.block_rules`).
"""

from __future__ import annotations

import polars as pl

from analysis import seats as generic_seats
from analysis.load import rows as load_rows
from analysis.load import untreated
from analysis.nyslice.specials import restricted_deals
from analysis.whatif import change_row, change_table


def _first_edges(out, group: str) -> pl.DataFrame:
    frame = untreated(load_rows(out, "players", group))
    parts = []
    for n in sorted(frame["players"].unique()):
        share = generic_seats.by_game(frame.filter(pl.col("players") == n), "win_share", n)
        index = frame.filter((pl.col("players") == n) & (pl.col("seat") == 0)).sort(
            "game_index")["game_index"]  # fmt: skip
        edge = generic_seats.first_edge(share)
        parts.append(pl.DataFrame({"players": n, "game_index": index, "edge": edge}))
    return pl.concat(parts)


def _paired(pair: pl.DataFrame, value: str, measure: str, unit: str) -> pl.DataFrame:
    """The change table (:func:`analysis.whatif.change_table`) of the deals joined in
    ``pair`` (``value`` after the change, ``<value>_before`` before), one row a count."""
    rows = [
        change_row(n, measure, sub[f"{value}_before"].to_numpy(), sub[value].to_numpy(), unit)
        for (n,), sub in pair.sort("players", "game_index").group_by("players", maintain_order=True)
    ]
    return change_table(rows, "deals")


def first_slicer_change(out, before: str = "seats", after: str = "whatif-comp1") -> pl.DataFrame:
    """The first slicer's edge under the printed rules (``before``) and under the what-if
    block ``after``, on the deals both played, with the paired change.

    Returns
    -------
    polars.DataFrame
        A change table of the measure ``first_edge`` (pp, t over deals), one row per
        player count of ``after`` (:data:`analysis.whatif.CHANGE_SCHEMA`).
    """
    a, b = _first_edges(out, before), _first_edges(out, after)
    pair = b.join(a, on=["players", "game_index"], suffix="_before", how="inner")
    return _paired(pair, "edge", "first_edge", "pp")


def special_change(
    out,
    special: str = "super_sized_combos",
    before: tuple[str, str] = ("forfeit", "seats"),
    after: tuple[str, str] = ("whatif-ssc-forfeit", "whatif-ssc-seats"),
) -> pl.DataFrame:
    """A special's worth before and after a rule change, paired by deal.

    ``before`` and ``after`` are (forfeit block, its unrestricted block) pairs (restricted
    blocks of ``forfeit=<special>``); the value of a deal is the unrestricted seat's score
    minus the forfeiting seat's, averaged over rotations, over the deals where the special
    is in play (as :func:`analysis.nyslice.specials.forfeit_value`; which specials appear
    is a fact of the deal, the same before and after).

    Returns
    -------
    polars.DataFrame
        As :func:`first_slicer_change`, of the measure ``worth`` in points.
    """
    a = restricted_deals(out, *before).filter((pl.col("avoided") == special) & pl.col("in_play"))
    b = restricted_deals(out, *after).filter(pl.col("avoided") == special)
    pair = b.join(a, on=["players", "game_index"], suffix="_before", how="inner")
    return _paired(pair, "d_score", "worth", "points")
