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

from analysis.datavariants import DataVariants, variant_tables
from analysis.load import block_frames
from analysis.pizzatheory.common import BOARD_VARIANTS, MAIN
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
EDGE_COLUMNS = ("games", "distinct", "deterministic", "largest_position", "largest_pp",
                "largest_low", "largest_high")  # fmt: skip
"""The board's position edges (:func:`~analysis.pizzatheory.seats.edges`) its summary
row carries, and the default board's beside them (``base_<column>``)."""


def compare_board(
    out,
    field: str,
    base: str,
    block: str,
    board: str,
    pos_a: pl.DataFrame,
    pos_b: pl.DataFrame,
    players: int = MAIN,
):
    """One board against the default in one field at ``players``: ``(positions, summary)``,
    a row per starting position and one summary row (see the module notes). ``pos_a``,
    ``pos_b``: the default's and the board's
    :func:`~analysis.pizzatheory.seats.position_table` at the count (neither empty)."""
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
        **{c: eb[c] for c in EDGE_COLUMNS},
        **{f"base_{c}": ea[c] for c in EDGE_COLUMNS},
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
    out, manifest: dict, variants: DataVariants = BOARD_VARIANTS, players: int = MAIN
):
    """Every board against the default in every field whose blocks the study has.

    Parameters
    ----------
    out : path
        The dataset directory.
    manifest : dict
        Its manifest.
    variants : DataVariants
        The boards and the blocks that play them, per field.
    players : int
        The player count compared.

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
    for field in variants.fields:
        blocks = variants.blocks(manifest, field)
        if variants.default not in blocks or len(blocks) < 2:  # no board beside the default
            continue
        tables = {name: t.filter(pl.col("players") == players)
                  for name, t in variant_tables(out, blocks, position_table).items()}  # fmt: skip
        default = tables.pop(variants.default)
        for board, t in tables.items():
            if default.is_empty() or t.is_empty():
                continue
            found = compare_board(out, field, blocks[variants.default], blocks[board], board,
                                  default, t, players)  # fmt: skip
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
