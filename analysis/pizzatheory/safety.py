"""How often the safety rule matters, per field and player count.

The safety rule (rule ``safety``, on by default): a player with at most one topping in
every region of the round is safe; none of its toppings can be removed or replaced. Per
game the ``games`` table counts ``safety_rounds``, the rounds in which the rule kept at
least one topping on the board; per seat the ``players`` table counts ``safe_rounds`` (the
rounds it protected the seat) and ``saved`` (the toppings it kept for the seat).

Measures (the game is the unit of every interval; a seat's numbers are averaged over the
seats of its game first):

- ``fired``: the share of games in which the rule kept at least one topping (Wilson);
- ``rounds_fired``: rounds per game in which it did (t over games), and ``round_share``,
  those rounds over all rounds played (a ratio over games);
- ``saved``: toppings it kept per seat per game; ``safe_rounds``: rounds it protected a
  seat, per seat per game (t over games).
"""

from __future__ import annotations

import polars as pl

from analysis.pizzatheory.common import (
    FIELDS,
    block_frames,
    distinct_games,
    mark_deterministic,
    present,
    rule_value,
)
from analysis.samplesize import annotate
from analysis.stats import mean_interval, ratio_interval, wilson_interval

MEASURES = {
    "fired": "games in which it kept a topping (share)",
    "rounds_fired": "rounds per game in which it kept a topping",
    "round_share": "share of all rounds in which it kept a topping",
    "saved": "toppings it kept per seat per game",
    "safe_rounds": "rounds it protected a seat, per seat per game",
}
"""The measures of :func:`safety_table`, in words."""
SCHEMA = {
    "field": pl.String,
    "block": pl.String,
    "players": pl.Int64,
    "measure": pl.String,
    "estimate": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "games": pl.Int64,
    "distinct": pl.Int64,
    "deterministic": pl.Boolean,
    "count": pl.Int64,
    "safety_rule": pl.Boolean,
}


def safety_rows(
    field: str,
    block: str,
    players: pl.DataFrame,
    games: pl.DataFrame,
    counts: pl.DataFrame,
    rule: bool,
) -> list[dict]:
    """The rows of :func:`safety_table` for one block."""
    rows = []
    for n in sorted(games["players"].unique()):
        g = games.filter(pl.col("players") == n).sort("arm", "game_index")
        d = counts.filter(pl.col("players") == n).row(0, named=True)
        per_seat = (
            players.filter(pl.col("players") == n)
            .group_by("arm", "game_index")
            .agg(pl.col("saved").mean(), pl.col("safe_rounds").mean())
            .sort("arm", "game_index")
        )
        sr = g["safety_rounds"].to_numpy().astype(float)
        k = int((sr > 0).sum())
        values = {
            "fired": (k / len(sr), *wilson_interval(k, len(sr))),
            "rounds_fired": mean_interval(sr),
            "round_share": ratio_interval(sr, g["rounds"].to_numpy())[:3],
            "saved": mean_interval(per_seat["saved"].to_numpy().astype(float)),
            "safe_rounds": mean_interval(per_seat["safe_rounds"].to_numpy().astype(float)),
        }
        for m, (est, lo, hi) in values.items():
            if d["deterministic"]:
                lo = hi = est
            rows.append(
                {
                    "field": field,
                    "block": block,
                    "players": int(n),
                    "measure": m,
                    "estimate": float(est),
                    "low": float(lo),
                    "high": float(hi),
                    "games": len(sr),
                    "distinct": d["distinct"],
                    "deterministic": d["deterministic"],
                    "count": k if m == "fired" else None,
                    "safety_rule": rule,
                }
            )
    return rows


def safety_table(out, manifest: dict, fields: dict[str, str] = FIELDS) -> pl.DataFrame:
    """Every measure of the module notes, per field and player count.

    Returns
    -------
    polars.DataFrame
        ``field, block, players, measure, estimate, low, high`` (95%), ``games``,
        ``distinct``, ``deterministic``, ``count`` (games in which the rule fired, for
        ``fired``), ``safety_rule`` (whether the block plays the rule) and the sample-size
        columns (levels: only the sample is checked).
    """
    rows = []
    for name, block in present(manifest, fields).items():
        players, games = block_frames(out, block)
        counts = distinct_games(players, games)
        rows += safety_rows(
            name, block, players, games, counts, bool(rule_value(manifest, block, "safety"))
        )
    table = pl.DataFrame(rows, schema=SCHEMA)
    return mark_deterministic(
        annotate(table, "estimate", "low", "high", reference=None, share=False)
    )


def measure(table: pl.DataFrame, field: str, players: int, m: str) -> dict | None:
    """One row of :func:`safety_table`."""
    sub = table.filter(
        (pl.col("field") == field) & (pl.col("players") == players) & (pl.col("measure") == m)
    )
    return sub.row(0, named=True) if sub.height else None
