"""How long Pizza Theory games last and how they end, per field and player count.

From the ``games`` table of each field's uniform block: rounds per game (mean with a t
interval over games, median, 90th percentile, maximum) and the share of games ending each
way (``ending``: 0 a win, 1 the run-out tiebreak, 2 a draw at the round bound, 3 the
neutral colour filling the board at 2 players), each with a Wilson interval over games and
its count, so a way that never happened is reported as 0 of n, not left out. The round
bound (rule ``max_rounds``) and whether the run-out tiebreak is on are read from each
block's rules.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.blocks import present
from analysis.load import block_frames
from analysis.pizzatheory.common import (
    ENDINGS,
    FIELDS,
    distinct_games,
    mark_deterministic,
    rule_value,
)
from analysis.samplesize import annotate
from analysis.stats import mean_interval, wilson_interval

LENGTH_SCHEMA = {
    "field": pl.String,
    "block": pl.String,
    "players": pl.Int64,
    "games": pl.Int64,
    "distinct": pl.Int64,
    "deterministic": pl.Boolean,
    "rounds": pl.Float64,
    "rounds_low": pl.Float64,
    "rounds_high": pl.Float64,
    "median": pl.Float64,
    "p90": pl.Float64,
    "max": pl.Int64,
    "max_rounds": pl.Int64,
    "tiebreak_rule": pl.Boolean,
}
ENDING_SCHEMA = {
    "field": pl.String,
    "block": pl.String,
    "players": pl.Int64,
    "ending": pl.Int64,
    "label": pl.String,
    "count": pl.Int64,
    "games": pl.Int64,
    "distinct": pl.Int64,
    "deterministic": pl.Boolean,
    "share": pl.Float64,
    "share_low": pl.Float64,
    "share_high": pl.Float64,
}


def length_rows(
    field: str,
    block: str,
    games: pl.DataFrame,
    counts: pl.DataFrame,
    max_rounds: int,
    tiebreak: bool,
) -> tuple[list[dict], list[dict]]:
    """The rows of :func:`game_length` for one block (``games``: its games table)."""
    lengths, endings = [], []
    for n in sorted(games["players"].unique()):
        g = games.filter(pl.col("players") == n)
        d = counts.filter(pl.col("players") == n).row(0, named=True)
        r = g["rounds"].to_numpy().astype(float)
        m, lo, hi = mean_interval(r)
        if d["deterministic"]:
            lo = hi = m
        lengths.append(
            {
                "field": field,
                "block": block,
                "players": int(n),
                "games": len(r),
                "distinct": d["distinct"],
                "deterministic": d["deterministic"],
                "rounds": m,
                "rounds_low": lo,
                "rounds_high": hi,
                "median": float(np.median(r)),
                "p90": float(np.quantile(r, 0.9)),
                "max": int(r.max()),
                "max_rounds": max_rounds,
                "tiebreak_rule": tiebreak,
            }
        )
        codes = g["ending"].to_numpy()
        for code, label in ENDINGS.items():
            if code == 3 and n != 2:
                continue  # the neutral colour plays only at 2 players
            k = int((codes == code).sum())
            lo_, hi_ = wilson_interval(k, len(codes))
            if d["deterministic"]:
                lo_ = hi_ = k / len(codes)
            endings.append(
                {
                    "field": field,
                    "block": block,
                    "players": int(n),
                    "ending": code,
                    "label": label,
                    "count": k,
                    "games": len(codes),
                    "distinct": d["distinct"],
                    "deterministic": d["deterministic"],
                    "share": k / len(codes),
                    "share_low": lo_,
                    "share_high": hi_,
                }
            )
    return lengths, endings


def game_length(out, manifest: dict, fields: dict[str, str] = FIELDS):
    """Rounds per game and how games end, in every field whose block the study has.

    Returns
    -------
    (lengths, endings)
        ``lengths``: per field and player count ``games, distinct, deterministic``,
        ``rounds`` with ``rounds_low``/``rounds_high`` (mean, t over games), ``median``,
        ``p90``, ``max``, ``max_rounds`` (the round bound) and ``tiebreak_rule`` (whether
        the run-out tiebreak is on), with the sample-size columns (a level: only the
        sample is checked); ``endings``: per field, count and ending ``count``, ``games``,
        ``share`` with its Wilson interval (every ending listed, 0 when it never happened;
        the neutral win at 2 players only).
    """
    lengths, endings = [], []
    for name, block in present(manifest, fields).items():
        players, games = block_frames(out, block)
        counts = distinct_games(players, games)
        a, b = length_rows(
            name,
            block,
            games,
            counts,
            int(rule_value(manifest, block, "max_rounds")),
            bool(rule_value(manifest, block, "runout_tiebreak")),
        )
        lengths += a
        endings += b
    lt = pl.DataFrame(lengths, schema=LENGTH_SCHEMA)
    lt = mark_deterministic(
        annotate(lt, "rounds", "rounds_low", "rounds_high", reference=None, share=False)
    )
    et = pl.DataFrame(endings, schema=ENDING_SCHEMA)
    et = mark_deterministic(annotate(et, "share", "share_low", "share_high", reference=None))
    return lt, et


def ending_of(endings: pl.DataFrame, field: str, players: int, code: int) -> dict | None:
    """The :func:`game_length` ending row of a field, count and ending code."""
    sub = endings.filter(
        (pl.col("field") == field) & (pl.col("players") == players) & (pl.col("ending") == code)
    )
    return sub.row(0, named=True) if sub.height else None


def rounds_histogram(out, block: str) -> pl.DataFrame:
    """``players, rounds, games``: how many games of a block lasted each number of rounds."""
    _, games = block_frames(out, block)
    return (
        games.group_by("players", "rounds")
        .agg(pl.len().alias("games"))
        .sort("players", "rounds")
        .with_columns(pl.col("rounds").cast(pl.Int64), pl.col("games").cast(pl.Int64))
    )
