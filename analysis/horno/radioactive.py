"""What the radioactive cards do.

In the main field (:func:`contribution`): the points a seat's matching radioactive cards
add to its completed dishes (``radioactive_bonus``) and the points other types' radioactive
cards take from them (``radioactive_penalty``, a sabotage), per seat and game.

Against variants of the main field's deals (:func:`variant_changes`): the same deals
replayed without radioactive cards (each a garbage card of its printed penalty, in the same
place of the deck: ``sims.games.horno.cards.radioactive_as_garbage``) and with the rule
``radioactive_bonus = "each"`` (every matching card counts). Paired by deal: game ``i`` of
the variant block against game ``i`` of ``seats`` at the same count. Per variant, t
intervals over deals of: the mean score per seat (variant − default), the winning margin,
the dishes completed per seat, the points lost to sabotage per seat, and every turn
position's win share; and the share of deals whose outcome changed at all (some seat's
score differs; a Wilson interval). :func:`largest_position_change` names the position
whose win share changes most.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.blocks import present
from analysis.horno.common import SEATS, VARIANTS, Out, same_deck
from analysis.load import block_frames
from analysis.samplesize import annotate
from analysis.stats import mean_interval, sign_test, wilson_interval
from sims.core.errors import SlicelabError

NAN = float("nan")


def contribution(out: Out, group: str = SEATS) -> pl.DataFrame:
    """Per player count of a uniform block: ``games``, ``bonus`` (matching radioactive
    points per seat and game) and ``penalty`` (other types' radioactive cards' points lost,
    ≤ 0, per seat and game), each with a t interval over games (a game's seats averaged),
    and ``share`` (the bonus's share of every seat's score)."""
    players, _ = block_frames(out, group)
    rows = []
    for n in sorted(players["players"].unique()):
        sub = players.filter(pl.col("players") == n).sort("arm", "game_index", "seat")
        g = sub.height // n
        bonus = sub["radioactive_bonus"].to_numpy().astype(float).reshape(g, n).mean(1)
        pen = sub["radioactive_penalty"].to_numpy().astype(float).reshape(g, n).mean(1)
        score = float(sub["score"].cast(pl.Float64).sum())
        b, p = mean_interval(bonus), mean_interval(pen)
        rows.append(
            {
                "players": int(n),
                "games": g,
                "bonus": b[0],
                "bonus_low": b[1],
                "bonus_high": b[2],
                "penalty": p[0],
                "penalty_low": p[1],
                "penalty_high": p[2],
                "share": float(bonus.sum() * n / score) if score else NAN,
            }
        )
    schema = {
        "players": pl.Int64,
        "games": pl.Int64,
        "bonus": pl.Float64,
        "bonus_low": pl.Float64,
        "bonus_high": pl.Float64,
        "penalty": pl.Float64,
        "penalty_low": pl.Float64,
        "penalty_high": pl.Float64,
        "share": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema)


MEASURES = {
    "score": "mean score per seat (points)",
    "margin": "winning margin (points)",
    "dishes": "dishes completed per seat",
    "lost": "points lost to sabotage per seat",
}
DIFFERS = "differs"
"""The measure: the share of deals whose outcome changed (some seat's score differs)."""
"""The per-game measures compared, and how the report names them."""


def _game_measures(players: pl.DataFrame, n: int) -> pl.DataFrame:
    """Per game of one player count: ``game_index``, the :data:`MEASURES` and each turn
    position's win share (``pos<k>``)."""
    sub = players.filter(pl.col("players") == n).sort("game_index", "position")
    g = sub.height // n

    def mat(expr: pl.Expr) -> np.ndarray:
        return sub.select(expr.cast(pl.Float64)).to_series().to_numpy().reshape(g, n)

    score = mat(pl.col("score"))
    top2 = np.sort(score, axis=1)[:, -2:]
    lost = mat(
        -(pl.col("garbage_penalty") + pl.col("radioactive_penalty")) + pl.col("unfinished_bad")
    )
    share = mat(pl.col("win_share"))
    cols = {
        "game_index": sub["game_index"].to_numpy().reshape(g, n)[:, 0],
        "score": score.mean(1),
        "margin": top2[:, 1] - top2[:, 0],
        "dishes": mat(pl.col("dishes_completed")).mean(1),
        "lost": lost.mean(1),
        **{f"pos{k}": share[:, k] for k in range(n)},
        "scores": [",".join(str(int(v)) for v in row) for row in score],
    }
    return pl.DataFrame(cols)


CHANGE_SCHEMA = {
    "variant": pl.String,
    "block": pl.String,
    "players": pl.Int64,
    "measure": pl.String,
    "deals": pl.Int64,
    "default": pl.Float64,
    "variant_value": pl.Float64,
    "change": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "nonzero": pl.Int64,
    "positive": pl.Int64,
    "negative": pl.Int64,
    "sign_p": pl.Float64,
}


def variant_changes(
    out: Out, manifest: dict, blocks: dict[str, str] = VARIANTS, base: str = SEATS
) -> pl.DataFrame:
    """Every variant against the default on the same deals, per player count and measure
    (see the module notes).

    Returns
    -------
    polars.DataFrame
        ``variant, block, players, measure`` (a :data:`MEASURES` key, ``pos<k>``: turn
        position k's win share, as a share, or :data:`DIFFERS`: the share of deals whose
        outcome changed, Wilson), ``deals`` (the paired unit), ``default`` and
        ``variant_value`` (means over the deals), ``change`` (variant − default) with its t
        interval over deals, the exact sign test of the per-deal changes (``nonzero``
        deals that carry it, ``positive``, ``negative``, ``sign_p``: for an effect carried
        by fewer than :data:`analysis.stats.SPARSE_UNITS` deals, where a t interval means
        nothing), and the sample-size columns (the claim: a change differs from 0).

    Raises
    ------
    SlicelabError
        When a variant block does not deal the games of ``base``.
    """
    real, _ = block_frames(out, base)
    rows = []
    for name, block in present(manifest, blocks).items():
        if not same_deck(manifest, block, base):
            raise SlicelabError(
                f"block {block!r} does not deal the games of {base!r} (its seed or deck "
                "differs); a variant must keep the deck to be compared deal by deal"
            )
        var, _ = block_frames(out, block)
        for n in sorted(var["players"].unique()):
            a = _game_measures(real, int(n))
            b = _game_measures(var, int(n))
            both = a.join(b, on="game_index", suffix="_v")
            for m in [*MEASURES, *(f"pos{k}" for k in range(int(n)))]:
                d = (both[f"{m}_v"] - both[m]).to_numpy()
                c = mean_interval(d)
                st = sign_test(d)
                rows.append(
                    {
                        "variant": name,
                        "block": block,
                        "players": int(n),
                        "measure": m,
                        "deals": both.height,
                        "default": float(both[m].mean()),
                        "variant_value": float(both[f"{m}_v"].mean()),
                        "change": c[0],
                        "low": c[1],
                        "high": c[2],
                        "nonzero": st.nonzero,
                        "positive": st.positive,
                        "negative": st.negative,
                        "sign_p": st.p,
                    }
                )
            k = int((both["scores"] != both["scores_v"]).sum())
            lo, hi = wilson_interval(k, both.height) if both.height else (NAN, NAN)
            rows.append(
                {
                    "variant": name,
                    "block": block,
                    "players": int(n),
                    "measure": DIFFERS,
                    "deals": both.height,
                    "default": 0.0,
                    "variant_value": k / both.height if both.height else NAN,
                    "change": k / both.height if both.height else NAN,
                    "low": lo,
                    "high": hi,
                    "nonzero": k,
                    "positive": k,
                    "negative": 0,
                    "sign_p": NAN,
                }
            )
    table = pl.DataFrame(rows, schema=CHANGE_SCHEMA).with_columns(pl.col("deals").alias("games"))
    return annotate(table, "change", "low", "high", share=False, unit="deals")


def largest_position_change(changes: pl.DataFrame, variant: str, players: int) -> dict | None:
    """The turn position whose win share changes most under a variant at a count (its row
    of :func:`variant_changes`), or None."""
    sub = changes.filter(
        (pl.col("variant") == variant)
        & (pl.col("players") == players)
        & pl.col("measure").str.starts_with("pos")
    )
    if sub.is_empty():
        return None
    return sub.with_columns(pl.col("change").abs().alias("_a")).sort("_a").row(-1, named=True)
