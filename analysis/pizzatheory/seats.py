"""Seats and starting turn positions: win share by the turn position a seat starts in
(``start_position``, 0 = first in round 1) or by seat, at each player count of a uniform
block (every seat plays the field's strategy).

Each game has exactly one seat in each starting position, so a position's win share is a
mean over games: its interval treats the game as the unit (a Wilson interval of the
position's summed win share over its games; a cluster-robust t interval by game where a
game has several rows in a group). A game every seat shares (a draw at the round bound, a
2-player neutral win: ``won = 1`` for every seat) gives each seat ``1/n``, the fair share,
so it pulls every edge towards 0; :func:`position_table` states how often that happens.

A deterministic block (:func:`analysis.pizzatheory.common.distinct_games`) is one game
replayed: its shares are exact (the interval is the point) and its cells carry the warning
:data:`~analysis.pizzatheory.common.DETERMINISTIC`.
"""

from __future__ import annotations

import polars as pl

from analysis import seats as generic_seats
from analysis.blocks import present
from analysis.load import block_frames
from analysis.pizzatheory.common import FIELD_SPECS, FIELDS, distinct_games, mark_deterministic
from analysis.robust import Condition
from analysis.samplesize import annotate

POSITION = "start_position"
share_interval = generic_seats.share_interval
"""A mean of per-row win shares with its interval over games
(:func:`analysis.seats.share_interval`)."""


def position_table(out, group: str = "seats", by: str = POSITION) -> pl.DataFrame:
    """Win share by starting position (or by seat: ``by = "seat"``) at each player count.

    The generic table (:func:`analysis.seats.position_rows`) with the block's distinct
    games: a deterministic count's interval is its point (one game replayed).

    Returns
    -------
    polars.DataFrame
        ``players, position`` (the value of ``by``), ``games``, ``distinct`` and
        ``deterministic`` (:func:`~analysis.pizzatheory.common.distinct_games`),
        ``win_share, win_low, win_high`` (95%, the game the unit), ``fair`` (1/n),
        ``edge_pp, edge_low, edge_high`` (win share − fair, pp), ``toppings`` (mean at the
        end), ``shared`` (the share of the count's games every seat shares: a draw or a
        neutral win), ``same_as_seat`` (whether the starting position is the seat in every
        game of the count) and the sample-size columns (a deterministic count's cells
        warn :data:`~analysis.pizzatheory.common.DETERMINISTIC`).
    """
    players, games = block_frames(out, group)
    counts = distinct_games(players, games).select("players", "distinct", "deterministic")
    rows = generic_seats.position_rows(players, games, by, POSITION, means=("toppings",))
    det = pl.col("deterministic")
    exact = {  # one game replayed: exact
        c: pl.when(det).then(pl.col("win_share")).otherwise(pl.col(c)).alias(c)
        for c in ("win_low", "win_high")
    }
    table = (
        rows.join(counts, on="players", how="left")
        .with_columns(**exact)
        .with_columns(
            (100 * (pl.col("win_low") - pl.col("fair"))).alias("edge_low"),
            (100 * (pl.col("win_high") - pl.col("fair"))).alias("edge_high"),
        )
        .select(
            "players",
            "position",
            "games",
            "distinct",
            "deterministic",
            "win_share",
            "win_low",
            "win_high",
            "fair",
            "edge_pp",
            "edge_low",
            "edge_high",
            "toppings",
            "shared",
            "same_as_seat",
        )  # fmt: skip
        .sort("players", "position")
    )
    return mark_deterministic(annotate(table, "win_share", "win_low", "win_high", reference="fair"))


def edges(table: pl.DataFrame) -> pl.DataFrame:
    """Per player count of a :func:`position_table`: the first starter's edge (position 0)
    and the last's (position n − 1) over the fair share, and the largest edge (the
    position furthest from the fair share), each with its interval
    (:func:`analysis.seats.edges`, with ``distinct`` and ``deterministic``)."""
    return generic_seats.edges(table, carry=("distinct", "deterministic"))


def field_positions(
    out, manifest: dict, fields: dict[str, str] = FIELDS
) -> dict[str, pl.DataFrame]:
    """:func:`position_table` of every field whose block the study has."""
    return {name: position_table(out, b) for name, b in present(manifest, fields).items()}


def conditions(
    tables: dict[str, pl.DataFrame], which: str = "first", deterministic: bool = False
) -> dict[int, list[Condition]]:
    """Per player count, the first (``which = "first"``) or the last starter's edge in every
    field with chance there: one :class:`~analysis.robust.Condition` each, carrying the
    field's spec (:data:`~analysis.pizzatheory.common.FIELD_SPECS`: the random field
    describes and never vetoes). A field that is deterministic at a count (one game
    replayed) is no evidence for or against an interval and is left out, unless
    ``deterministic`` (for a plot: its interval is its point)."""
    found: dict[int, list[Condition]] = {}
    for name, t in tables.items():
        for e in edges(t).iter_rows(named=True):
            if e["deterministic"] and not deterministic:
                continue
            found.setdefault(e["players"], []).append(
                Condition(
                    "field",
                    name,
                    e[f"{which}_pp"],
                    e[f"{which}_low"],
                    e[f"{which}_high"],
                    e["games"],
                    "games",
                    spec=FIELD_SPECS.get(name, ""),
                )
            )
    return found


def deterministic_fields(tables: dict[str, pl.DataFrame], players: int) -> list[str]:
    """The fields whose block is deterministic at ``players``."""
    out = []
    for name, t in tables.items():
        sub = t.filter(pl.col("players") == players)
        if sub.height and bool(sub["deterministic"][0]):
            out.append(name)
    return out


def first_edges(out, group: str) -> pl.DataFrame:
    """The first player's edge at each player count of a uniform block, by turn position
    (``players, games, first_edge_pp, first_low, first_high``): the skill section's seat
    question (:attr:`analysis.skill.SkillLevels.first_edges`)."""
    return generic_seats.first_edge_frame(edges(position_table(out, group)))
