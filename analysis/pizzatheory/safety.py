"""What the safety rule changes, and how often it fires, per field and player count.

**What it changes** (:func:`safety_effect`): the block ``safety-off`` plays the main
field's deals (``seats``: game ``i`` of both draws the same streams) with rule ``safety =
false``. Per player count, paired by deal (off − on, a t interval over deals; the exact
sign test over the deals that differ beside it, :func:`analysis.stats.sign_test`, which
carries the claim where fewer than :data:`analysis.stats.SPARSE_UNITS` deals differ):

- ``position``: each starting position's win share (pp), one row per position: the family
  a claim "a position's win share changes" is picked from;
- ``rounds``: rounds per game; ``lost``: toppings a seat loses per game (averaged over the
  game's seats); ``shared``: games every seat shares, a draw at the round bound or a
  2-player neutral win (pp).

**How often it fires** (:func:`safety_table`):

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

import numpy as np
import polars as pl

from analysis.blocks import has_block, present
from analysis.load import block_frames
from analysis.pizzatheory.common import (
    FIELDS,
    SAFETY_FIELDS,
    distinct_games,
    mark_deterministic,
    rule_value,
)
from analysis.restricted import check_paired
from analysis.samplesize import annotate
from analysis.stats import mean_interval, ratio_interval, sign_test, wilson_interval

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


EFFECTS = {
    "position": "win share of the starting position (pp)",
    "rounds": "rounds per game",
    "lost": "toppings a seat loses per game",
    "shared": "games every seat shares: a draw or a neutral win (pp)",
}
"""The measures of :func:`safety_effect`, in words (each: without the rule − with it)."""
EFFECT_SCHEMA = {
    "field": pl.String,
    "on_block": pl.String,
    "off_block": pl.String,
    "players": pl.Int64,
    "measure": pl.String,
    "position": pl.Int64,
    "on": pl.Float64,
    "off": pl.Float64,
    "estimate": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "deals": pl.Int64,
    "nonzero": pl.Int64,
    "positive": pl.Int64,
    "negative": pl.Int64,
    "sign_p": pl.Float64,
    "sparse": pl.Boolean,
}


def _per_deal(players: pl.DataFrame, games: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Per (players, game_index): each starting position's win share; and the game's
    rounds, mean lost toppings per seat and whether every seat shares it."""
    pos = players.select("players", "game_index", "start_position", "win_share")
    lost = players.group_by("players", "game_index").agg(pl.col("lost").mean())
    per = games.select(
        "players",
        "game_index",
        pl.col("rounds").cast(pl.Float64),
        pl.col("ending").is_in([2, 3]).cast(pl.Float64).alias("shared"),
    ).join(lost, on=["players", "game_index"], how="inner")
    return pos, per


def _effect_row(base: dict, d: np.ndarray, on: np.ndarray, off: np.ndarray, scale: float):
    est, lo, hi = mean_interval(scale * d) if len(d) > 1 else (float("nan"),) * 3
    t = sign_test(d)
    return {
        **base,
        "on": float(scale * on.mean()) if len(on) else float("nan"),
        "off": float(scale * off.mean()) if len(off) else float("nan"),
        "estimate": float(est),
        "low": float(lo),
        "high": float(hi),
        "deals": len(d),
        "nonzero": t.nonzero,
        "positive": t.positive,
        "negative": t.negative,
        "sign_p": t.p,
        "sparse": t.sparse,
    }


def safety_effect(
    out, manifest: dict, fields: dict[str, tuple[str, str]] = SAFETY_FIELDS
) -> pl.DataFrame:
    """What playing without the safety rule changes, per field (with a ``safety-off``
    block) and player count, paired by deal (see the module notes).

    Returns
    -------
    polars.DataFrame
        ``field, on_block, off_block, players, measure`` (:data:`EFFECTS`), ``position``
        (for ``measure = "position"``, else null), ``on`` / ``off`` (the means with and
        without the rule), ``estimate, low, high`` (off − on, 95% t over deals; pp for
        shares), ``deals``, the sign test's ``nonzero, positive, negative, sign_p`` and
        ``sparse`` (fewer than 30 deals differ: the interval means nothing, the claim rests
        on the sign test). Empty when the study has no such pair of blocks.

    Raises
    ------
    SlicelabError
        When the two blocks do not deal the same games (another seed or board).
    """
    rows: list[dict] = []
    for field, (on_block, off_block) in fields.items():
        if not (has_block(manifest, on_block) and has_block(manifest, off_block)):
            continue
        check_paired(out, off_block, on_block, options=("board",), what="safety-off")
        pos_on, per_on = _per_deal(*block_frames(out, on_block))
        pos_off, per_off = _per_deal(*block_frames(out, off_block))
        keys = ["players", "game_index"]
        both = per_on.join(per_off, on=keys, how="inner", suffix="_off").sort(keys)
        pos = pos_on.join(pos_off, on=[*keys, "start_position"], how="inner", suffix="_off").sort(
            *keys, "start_position"
        )
        for (n,), sub in both.group_by("players", maintain_order=True):
            base = {"field": field, "on_block": on_block, "off_block": off_block,
                    "players": int(n)}  # fmt: skip
            for p in range(int(n)):
                x = pos.filter((pl.col("players") == n) & (pl.col("start_position") == p))
                on, off = x["win_share"].to_numpy(), x["win_share_off"].to_numpy()
                rows.append(_effect_row({**base, "measure": "position", "position": p},
                                        off - on, on, off, 100.0))  # fmt: skip
            for m, scale in (("rounds", 1.0), ("lost", 1.0), ("shared", 100.0)):
                on, off = sub[m].to_numpy(), sub[f"{m}_off"].to_numpy()
                rows.append(_effect_row({**base, "measure": m, "position": None}, off - on,
                                        on, off, scale))  # fmt: skip
    return pl.DataFrame(rows, schema=EFFECT_SCHEMA)
