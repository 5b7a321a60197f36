"""Does the board's shape change the balance? Each shipped alternative board against the
default ``hex-37``, at 3 players, in each field that played both.

The real board's layout is not published: ``hex-37`` is slicelab's assumption
(``docs/rules/pizzatheory.md``, "The board"), and the alternatives (``hex-37-mid``: the X
spaces moved to the middle of each side; ``round-31``: ``hex-37`` without its corners;
``hex-61``: a larger hexagon) show how much the answers depend on it.

Per field (:data:`~analysis.pizzatheory.common.BOARD_FIELDS`: the mixed player's blocks
``board-<name>`` against ``seats``, random play's ``board-<name>-random`` against
``seats-random``) and board, from independent games (the boards differ, so no game of one
replays a game of the other):

- each starting position's win share on the board and on ``hex-37`` and the change, its
  interval by Newcombe's method from the two Wilson intervals (exact where both blocks are
  deterministic: one game each);
- the claim "a starting position's win share changes" picks from every board and position
  of the field: each change is also given with its interval corrected over that family
  (``adj_low``/``adj_high``, Bonferroni, and ``p_holm``/``holm_sign``:
  :func:`analysis.verdicts.adjust_family`), and ``changed_positions`` lists the positions
  whose corrected interval clears 0 (``raw_changed``: the uncorrected ones);
- the largest position edge on each board (the position furthest from the fair share);
- the change in rounds per game (Welch's t) and in the share of games in which the safety
  rule kept a topping (Newcombe).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from scipy import stats

from analysis.blocks import has_block
from analysis.pizzatheory.common import (
    BOARD_FIELDS,
    BOARDS,
    MAIN,
    block_frames,
)
from analysis.pizzatheory.seats import edges, position_table
from analysis.samplesize import annotate
from analysis.stats import wilson_interval
from analysis.verdicts import adjust_family


def newcombe(p1: float, l1: float, u1: float, p2: float, l2: float, u2: float):
    """``p1 − p2`` with Newcombe's hybrid score interval from each proportion's own
    interval: ``(difference, low, high)``."""
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, low, high


def welch(a: np.ndarray, b: np.ndarray, level: float = 0.95):
    """``mean(a) − mean(b)`` of independent samples with Welch's t interval:
    ``(difference, low, high)`` (exact when neither varies)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    d = float(a.mean() - b.mean())
    va = a.var(ddof=1) / len(a) if len(a) > 1 else 0.0
    vb = b.var(ddof=1) / len(b) if len(b) > 1 else 0.0
    se = math.sqrt(va + vb)
    if se == 0:
        return d, d, d
    df = (va + vb) ** 2 / (
        (va**2 / (len(a) - 1) if len(a) > 1 else 0) + (vb**2 / (len(b) - 1) if len(b) > 1 else 0)
    )
    half = stats.t.ppf(0.5 + level / 2, df) * se
    return d, d - half, d + half


def _safety_share(games: pl.DataFrame, deterministic: bool) -> tuple[float, float, float, int]:
    sr = games["safety_rounds"].to_numpy()
    k, n = int((sr > 0).sum()), len(sr)
    lo, hi = wilson_interval(k, n)
    p = k / n
    return (p, p, p, n) if deterministic else (p, lo, hi, n)


POSITION_SCHEMA = {
    "field": pl.String,
    "board": pl.String,
    "block": pl.String,
    "base_block": pl.String,
    "position": pl.Int64,
    "games": pl.Int64,
    "base_games": pl.Int64,
    "distinct": pl.Int64,
    "base_distinct": pl.Int64,
    "win_share": pl.Float64,
    "win_low": pl.Float64,
    "win_high": pl.Float64,
    "base_share": pl.Float64,
    "base_low": pl.Float64,
    "base_high": pl.Float64,
    "change_pp": pl.Float64,
    "change_low": pl.Float64,
    "change_high": pl.Float64,
}
ADJUSTED_SCHEMA = {
    "adj_low": pl.Float64,
    "adj_high": pl.Float64,
    "p_holm": pl.Float64,
    "holm_sign": pl.Int64,
    "family": pl.Int64,
}
"""The columns :func:`board_changes` adds to every position row (the field's family)."""
BOARD_SCHEMA = {
    "field": pl.String,
    "board": pl.String,
    "block": pl.String,
    "base_block": pl.String,
    "games": pl.Int64,
    "base_games": pl.Int64,
    "distinct": pl.Int64,
    "base_distinct": pl.Int64,
    "deterministic": pl.Boolean,
    "base_deterministic": pl.Boolean,
    "largest_position": pl.Int64,
    "largest_pp": pl.Float64,
    "largest_low": pl.Float64,
    "largest_high": pl.Float64,
    "base_largest_position": pl.Int64,
    "base_largest_pp": pl.Float64,
    "base_largest_low": pl.Float64,
    "base_largest_high": pl.Float64,
    "changed_positions": pl.List(pl.Int64),
    "raw_changed": pl.List(pl.Int64),
    "family": pl.Int64,
    "rounds": pl.Float64,
    "base_rounds": pl.Float64,
    "rounds_change": pl.Float64,
    "rounds_low": pl.Float64,
    "rounds_high": pl.Float64,
    "safety": pl.Float64,
    "base_safety": pl.Float64,
    "safety_change_pp": pl.Float64,
    "safety_low": pl.Float64,
    "safety_high": pl.Float64,
}


def compare_board(
    out,
    field: str,
    base: str,
    block: str,
    board: str,
    players: int = MAIN,
    base_table: pl.DataFrame | None = None,
):
    """One board against the default in one field: ``(positions, summary)``, a row per
    starting position and one summary row (see the module notes), or ``None`` when either
    block lacks the player count. ``base_table``: the default board's
    :func:`~analysis.pizzatheory.seats.position_table`, when already computed."""
    pos_b = position_table(out, block).filter(pl.col("players") == players)
    if base_table is None:
        base_table = position_table(out, base)
    pos_a = base_table.filter(pl.col("players") == players)
    if pos_b.is_empty() or pos_a.is_empty():
        return None
    rows = []
    for b in pos_b.iter_rows(named=True):
        a = pos_a.filter(pl.col("position") == b["position"]).row(0, named=True)
        d, lo, hi = newcombe(
            b["win_share"], b["win_low"], b["win_high"], a["win_share"], a["win_low"], a["win_high"]
        )
        rows.append(
            {
                "field": field,
                "board": board,
                "block": block,
                "base_block": base,
                "position": b["position"],
                "games": b["games"],
                "base_games": a["games"],
                "distinct": b["distinct"],
                "base_distinct": a["distinct"],
                "win_share": b["win_share"],
                "win_low": b["win_low"],
                "win_high": b["win_high"],
                "base_share": a["win_share"],
                "base_low": a["win_low"],
                "base_high": a["win_high"],
                "change_pp": 100 * d,
                "change_low": 100 * lo,
                "change_high": 100 * hi,
            }
        )
    positions = pl.DataFrame(rows, schema=POSITION_SCHEMA)
    eb = edges(pos_b).row(0, named=True)
    ea = edges(pos_a).row(0, named=True)
    _, gb = block_frames(out, block)
    _, ga = block_frames(out, base)
    gb, ga = gb.filter(pl.col("players") == players), ga.filter(pl.col("players") == players)
    r = welch(gb["rounds"].to_numpy(), ga["rounds"].to_numpy())
    sb = _safety_share(gb, eb["deterministic"])
    sa = _safety_share(ga, ea["deterministic"])
    s = newcombe(*sb[:3], *sa[:3])
    changed = [
        x["position"]
        for x in positions.iter_rows(named=True)
        if x["change_low"] > 0 or x["change_high"] < 0
    ]
    summary = {
        "field": field,
        "board": board,
        "block": block,
        "base_block": base,
        "games": eb["games"],
        "base_games": ea["games"],
        "distinct": eb["distinct"],
        "base_distinct": ea["distinct"],
        "deterministic": eb["deterministic"],
        "base_deterministic": ea["deterministic"],
        "largest_position": eb["largest_position"],
        "largest_pp": eb["largest_pp"],
        "largest_low": eb["largest_low"],
        "largest_high": eb["largest_high"],
        "base_largest_position": ea["largest_position"],
        "base_largest_pp": ea["largest_pp"],
        "base_largest_low": ea["largest_low"],
        "base_largest_high": ea["largest_high"],
        "changed_positions": changed,
        "raw_changed": changed,
        "family": len(rows),
        "rounds": float(gb["rounds"].mean()),
        "base_rounds": float(ga["rounds"].mean()),
        "rounds_change": r[0],
        "rounds_low": r[1],
        "rounds_high": r[2],
        "safety": sb[0],
        "base_safety": sa[0],
        "safety_change_pp": 100 * s[0],
        "safety_low": 100 * s[1],
        "safety_high": 100 * s[2],
    }
    return positions, summary


def sign_of(low: float, high: float) -> int:
    """+1/−1 where an interval clears 0, else 0."""
    return 1 if low > 0 else (-1 if high < 0 else 0)


def _adjusted(positions: pl.DataFrame) -> pl.DataFrame:
    """Every position row with its change corrected over its field's family (every board
    and position of the field: :func:`analysis.verdicts.adjust_family`)."""
    if positions.is_empty():
        return positions.with_columns(
            *[pl.lit(None, dtype=t).alias(c) for c, t in ADJUSTED_SCHEMA.items()]
        )
    parts = [
        adjust_family(sub, "change_pp", "change_low", "change_high")
        for _, sub in positions.group_by("field", maintain_order=True)
    ]
    return pl.concat(parts)


def board_changes(
    out,
    manifest: dict,
    fields: dict[str, tuple[str, str]] = BOARD_FIELDS,
    boards: tuple[str, ...] = BOARDS,
    players: int = MAIN,
):
    """Every board against the default in every field whose blocks the study has.

    Returns
    -------
    (positions, boards)
        ``positions``: per field, board and starting position the win shares on the board
        and on the default with the change (pp), its interval and its interval corrected
        over the field's family (:data:`ADJUSTED_SCHEMA`); ``boards``: per field and board
        the summary of :func:`compare_board` (``changed_positions`` from the corrected
        intervals, ``raw_changed`` from the uncorrected, ``family`` the field's rows), with
        the sample-size columns of the largest edge (a deterministic board's cells warn
        so). Both empty when the study has no board block.
    """
    pos, summ = [], []
    for field, (base, pattern) in fields.items():
        base_table = None
        for board in boards:
            block = pattern.format(board=board)
            if not (has_block(manifest, block) and has_block(manifest, base)):
                continue
            if base_table is None:
                base_table = position_table(out, base)
            found = compare_board(out, field, base, block, board, players, base_table)
            if found is None:
                continue
            pos.append(found[0])
            summ.append(found[1])
    positions = _adjusted(pl.concat(pos) if pos else pl.DataFrame(schema=POSITION_SCHEMA))
    for x in summ:  # a change is claimed from the field's corrected intervals only
        mine = positions.filter((pl.col("field") == x["field"]) & (pl.col("board") == x["board"]))
        x["changed_positions"] = [
            y["position"]
            for y in mine.iter_rows(named=True)
            if sign_of(y["adj_low"], y["adj_high"])
        ]
        x["family"] = int(mine["family"][0]) if mine.height else 0
    table = pl.DataFrame(summ, schema=BOARD_SCHEMA)
    table = annotate(table, "largest_pp", "largest_low", "largest_high", share=False, pp=True)
    table = table.with_columns(
        pl.when(pl.col("deterministic") & pl.col("base_deterministic"))
        .then(pl.lit("deterministic: one game on each board"))
        .otherwise(pl.col("warning"))
        .alias("warning")
    )
    return positions, table
