"""Seats and turn positions: win share by the turn position a seat plays in (``position``,
0 = first; the rule ``first_player`` decides which seat that is, seat 0 by default) at each
player count, in every field and on every card set.

Each game has exactly one seat in each position, so a position's win share is a mean over
games and its interval treats the game as the unit (:func:`analysis.seats.share_interval`:
Wilson over games). A win shared by k seats gives each 1/k. Every position table is
:func:`analysis.seats.position_table` with the mean score carried; :func:`conditions`
turns a position's edge in every field (or card set) into robustness conditions.
"""

from __future__ import annotations

import polars as pl

from analysis import seats as generic_seats
from analysis.blocks import present
from analysis.horno.common import FIELD_SPECS, FIELDS, Out
from analysis.robust import Condition


def position_table(out: Out, group: str, by: str = "position") -> pl.DataFrame:
    """Win share by turn position (or by seat, ``by = "seat"``) at each player count of a
    uniform block.

    Returns
    -------
    polars.DataFrame
        ``players, position, games, win_share, win_low, win_high`` (95%, Wilson over
        games), ``fair`` (1/n), ``edge_pp, edge_low, edge_high`` (win share − fair, pp),
        ``score`` (mean), ``shared`` (share of games with a shared win), ``same_as_seat``
        and the sample-size columns.
    """
    return generic_seats.position_table(out, group, by, "position", means=("score",))


def field_positions(
    out: Out, manifest: dict, fields: dict[str, str] = FIELDS
) -> dict[str, pl.DataFrame]:
    """:func:`position_table` of every field (or card set: name → block) the study has."""
    return {name: position_table(out, b) for name, b in present(manifest, fields).items()}


def edges(table: pl.DataFrame) -> pl.DataFrame:
    """Per player count: the first and last position's edges and the largest
    (:func:`analysis.seats.edges`)."""
    return generic_seats.edges(table)


def conditions(
    tables: dict[str, pl.DataFrame],
    which: str | int = "first",
    kind: str = "field",
    players: int | None = None,
) -> dict[int, list[Condition]]:
    """Per player count (only ``players``, when given), one position's edge in every table:
    the first position's (``which = "first"``), the last's (``"last"``) or position
    ``which`` (an integer); each a :class:`~analysis.robust.Condition` of ``kind``
    (``"field"``, ``"card set"``) named by its table's name, n in games; a field's carries
    its spec (:data:`~analysis.horno.common.FIELD_SPECS`: the random field describes and
    never vetoes)."""
    found: dict[int, list[Condition]] = {}
    for name, t in tables.items():
        for n in sorted(t["players"].unique()):
            if players is not None and n != players:
                continue
            sub = t.filter(pl.col("players") == n).sort("position")
            if isinstance(which, int):
                rows = sub.filter(pl.col("position") == which)
                if rows.is_empty():
                    continue
                x = rows.row(0, named=True)
            else:
                x = sub.row(0 if which == "first" else -1, named=True)
            spec = FIELD_SPECS.get(name, "") if kind == "field" else ""
            found.setdefault(int(n), []).append(
                Condition(
                    kind, name, x["edge_pp"], x["edge_low"], x["edge_high"], x["games"], spec=spec
                )
            )
    return found


def largest(table: pl.DataFrame) -> dict:
    """The row of the position furthest from its fair share, over every player count."""
    return table.with_columns(pl.col("edge_pp").abs().alias("_a")).sort("_a").row(-1, named=True)


def first_edges(out, group: str) -> pl.DataFrame:
    """The first player's edge at each player count of a uniform block, by turn position
    (``players, games, first_edge_pp, first_low, first_high``): the skill section's seat
    question (:attr:`analysis.skill.SkillLevels.first_edges`)."""
    return generic_seats.first_edge_frame(edges(position_table(out, group)))
