"""Sensitivity to the assumed card set: the verdicts recomputed on every card set the study
plays (assumed v1, the main field's, and each shipped alternative,
:data:`~analysis.horno.common.CARD_VARIANTS`), each with the heuristic in every seat at 2,
3 and 4 players. The alternatives change the deck, so their games are independent of the
main field's: each card set's numbers stand on their own games (the blocks and the tables
per card set: :mod:`analysis.datavariants`).

- :func:`position_edges`: the first and last turn position's edges and the largest, per
  card set and count, and robustness conditions for any position (:func:`conditions`);
- :func:`type_rankings`: each card set's dish types ranked by points per dish taken (own
  points, :func:`analysis.horno.dishes.own_points`), and conditions for one type's excess
  over the average dish (:func:`type_conditions`);
- :func:`damages`: the share of points lost to sabotage on each card set.
"""

from __future__ import annotations

import polars as pl

from analysis.datavariants import stacked, variant_tables
from analysis.horno import dishes, sabotage, seats
from analysis.horno.common import CARD_VARIANTS, Out
from analysis.robust import Condition

KIND = "card set"
"""The kind of a robustness condition that is a card set."""
KEY = "card_set"
"""The column that names a row's card set in a stacked table."""


def position_tables(out: Out, manifest: dict) -> dict[str, pl.DataFrame]:
    """Per card set (name → its position table, :func:`analysis.horno.seats.position_table`)."""
    return variant_tables(out, CARD_VARIANTS.blocks(manifest), seats.position_table)


def position_edges(tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """Every card set's :func:`analysis.horno.seats.edges`, stacked with ``card_set``."""
    return stacked(tables, KEY, seats.edges)


def conditions(
    tables: dict[str, pl.DataFrame], which: str | int = "first", players: int | None = None
) -> dict[int, list[Condition]]:
    """Per player count, one position's edge on every card set (kind ``card set``)."""
    return seats.conditions(tables, which, KIND, players)


def type_rankings(out: Out, manifest: dict) -> dict[str, pl.DataFrame]:
    """Per card set, its :func:`analysis.horno.dishes.own_points` table."""
    return variant_tables(out, CARD_VARIANTS.blocks(manifest),
                          lambda o, block: dishes.own_points(o, block, manifest))  # fmt: skip


def type_conditions(
    rankings: dict[str, pl.DataFrame], type_name: str, players: int, column: str = "excess"
) -> list[Condition]:
    """One dish type's excess points per dish taken over the average dish (``column``) at
    ``players`` on every card set that has the type (kind ``card set``, n in games; scale
    ``points``, or ``pp`` for a ``*_pp`` column)."""
    found = []
    for name, t in rankings.items():
        sub = t.filter((pl.col("players") == players) & (pl.col("type_name") == type_name))
        if sub.is_empty():
            continue
        x = sub.row(0, named=True)
        found.append(
            Condition(
                KIND,
                name,
                x[column],
                x[f"{column}_low"],
                x[f"{column}_high"],
                x["games"],
                scale="pp" if column.endswith("_pp") else "points",
            )
        )
    return found


def top_types(rankings: dict[str, pl.DataFrame], players: int) -> dict[str, tuple[str, str]]:
    """Per card set, its highest- and lowest-yielding dish types at ``players``."""
    found = {}
    for name, t in rankings.items():
        sub = t.filter(pl.col("players") == players).sort("rank")
        if sub.height:
            found[name] = (sub["type_name"][0], sub["type_name"][-1])
    return found


def damages(out: Out, manifest: dict) -> pl.DataFrame:
    """Every card set's :func:`analysis.horno.sabotage.damage`, stacked with ``card_set``."""
    return stacked(variant_tables(out, CARD_VARIANTS.blocks(manifest), sabotage.damage), KEY)
