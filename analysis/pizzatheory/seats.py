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

import numpy as np
import polars as pl

from analysis.load import game_ids
from analysis.pizzatheory.common import (
    FIELDS,
    block_frames,
    distinct_games,
    mark_deterministic,
    present,
)
from analysis.robust import Condition
from analysis.samplesize import annotate
from analysis.stats import cluster_mean_interval, wilson_interval

POSITION = "start_position"


def share_interval(values: np.ndarray, clusters: np.ndarray) -> tuple[float, float, float, int]:
    """A mean of per-row win shares with its 95% interval over the clusters (games):
    Wilson when every cluster has one row (the share's sum over its games), else a
    cluster-robust t interval clipped to [0, 1]. Returns ``(mean, low, high, clusters)``."""
    values = np.asarray(values, dtype=float)
    k = len(np.unique(clusters))
    if len(values) == 0:
        return float("nan"), float("nan"), float("nan"), 0
    if k == len(values):
        lo, hi = wilson_interval(float(values.sum()), len(values))
        return float(values.mean()), float(lo), float(hi), k
    m, lo, hi, g = cluster_mean_interval(values, clusters)
    return m, max(lo, 0.0), min(hi, 1.0), g


def position_table(out, group: str = "seats", by: str = POSITION) -> pl.DataFrame:
    """Win share by starting position (or by seat: ``by = "seat"``) at each player count.

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
    counts = distinct_games(players, games)
    result = []
    for n in sorted(players["players"].unique()):
        sub = players.filter(pl.col("players") == n)
        d = counts.filter(pl.col("players") == n).row(0, named=True)
        gsub = games.filter(pl.col("players") == n)
        shared = float((gsub["n_winners"] == n).mean()) if "n_winners" in gsub.columns else 0.0
        same = (
            bool((sub["seat"].cast(pl.Int64) == sub[POSITION].cast(pl.Int64)).all())
            if POSITION in sub.columns
            else True
        )
        for (pos,), rows in sub.group_by(by, maintain_order=True):
            share = rows["win_share"].to_numpy()
            m, lo, hi, g = share_interval(share, game_ids(rows))
            if d["deterministic"]:
                lo = hi = m  # one game replayed: exact
            fair = 1 / n
            result.append(
                {
                    "players": int(n),
                    "position": int(pos),
                    "games": g,
                    "distinct": d["distinct"],
                    "deterministic": d["deterministic"],
                    "win_share": m,
                    "win_low": lo,
                    "win_high": hi,
                    "fair": fair,
                    "edge_pp": 100 * (m - fair),
                    "edge_low": 100 * (lo - fair),
                    "edge_high": 100 * (hi - fair),
                    "toppings": float(rows["toppings"].mean())
                    if "toppings" in rows.columns
                    else float("nan"),
                    "shared": shared,
                    "same_as_seat": same,
                }
            )
    schema = {
        "players": pl.Int64,
        "position": pl.Int64,
        "games": pl.Int64,
        "distinct": pl.Int64,
        "deterministic": pl.Boolean,
        "win_share": pl.Float64,
        "win_low": pl.Float64,
        "win_high": pl.Float64,
        "fair": pl.Float64,
        "edge_pp": pl.Float64,
        "edge_low": pl.Float64,
        "edge_high": pl.Float64,
        "toppings": pl.Float64,
        "shared": pl.Float64,
        "same_as_seat": pl.Boolean,
    }
    table = pl.DataFrame(result, schema=schema).sort("players", "position")
    return mark_deterministic(annotate(table, "win_share", "win_low", "win_high", reference="fair"))


def edges(table: pl.DataFrame) -> pl.DataFrame:
    """Per player count of a :func:`position_table`: the first starter's edge (position 0)
    and the last's (position n − 1) over the fair share, and the largest edge (the
    position furthest from the fair share), each with its interval."""
    rows = []
    for (n,), sub in table.group_by("players", maintain_order=True):
        sub = sub.sort("position")
        first, last = sub.row(0, named=True), sub.row(-1, named=True)
        big = sub.with_columns(pl.col("edge_pp").abs().alias("a")).sort("a").row(-1, named=True)
        rows.append(
            {
                "players": int(n),
                "games": first["games"],
                "distinct": first["distinct"],
                "deterministic": first["deterministic"],
                "first_pp": first["edge_pp"],
                "first_low": first["edge_low"],
                "first_high": first["edge_high"],
                "last_position": last["position"],
                "last_pp": last["edge_pp"],
                "last_low": last["edge_low"],
                "last_high": last["edge_high"],
                "largest_position": big["position"],
                "largest_pp": big["edge_pp"],
                "largest_low": big["edge_low"],
                "largest_high": big["edge_high"],
                "shared": first["shared"],
                "same_as_seat": first["same_as_seat"],
            }
        )
    schema = {
        "players": pl.Int64,
        "games": pl.Int64,
        "distinct": pl.Int64,
        "deterministic": pl.Boolean,
        "first_pp": pl.Float64,
        "first_low": pl.Float64,
        "first_high": pl.Float64,
        "last_position": pl.Int64,
        "last_pp": pl.Float64,
        "last_low": pl.Float64,
        "last_high": pl.Float64,
        "largest_position": pl.Int64,
        "largest_pp": pl.Float64,
        "largest_low": pl.Float64,
        "largest_high": pl.Float64,
        "shared": pl.Float64,
        "same_as_seat": pl.Boolean,
    }
    return pl.DataFrame(rows, schema=schema).sort("players")


def field_positions(
    out, manifest: dict, fields: dict[str, str] = FIELDS
) -> dict[str, pl.DataFrame]:
    """:func:`position_table` of every field whose block the study has."""
    return {name: position_table(out, b) for name, b in present(manifest, fields).items()}


def conditions(
    tables: dict[str, pl.DataFrame], which: str = "first", deterministic: bool = False
) -> dict[int, list[Condition]]:
    """Per player count, the first (``which = "first"``) or the last starter's edge in every
    field with chance there: one :class:`~analysis.robust.Condition` each. A field that is
    deterministic at a count (one game replayed) is no evidence for or against an interval
    and is left out, unless ``deterministic`` (for a plot: its interval is its point)."""
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
