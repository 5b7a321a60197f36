"""Sabotage against building: what sabotage and steals are worth, and what sabotage costs.

- :func:`restricted_values`: one seat restricted (never sabotages, never steals, always
  sabotages: :data:`~analysis.horno.common.RESTRICTED`), every seat in turn, against the
  unrestricted heuristic on the main field's deals (:func:`analysis.restricted.deal_values`):
  the restricted seat's win share and score minus the unrestricted seat's on the same
  deals (negative: the option it gives up, or the habit it is forced into, costs it), and
  how often each sabotaged and stole (the restriction binds).
- :func:`damage`: in the main field, the points sabotage takes from a seat: every garbage
  card and every radioactive card of another type in an oven was put there face down by
  an opponent (an owner can place only its dish's ingredients, the wild and its own
  radioactive card; a steal's replacement is a card the dish needs), so a completed dish's
  ``garbage_penalty`` and ``radioactive_penalty`` and an unfinished dish's bad cards
  (``unfinished_bad``, −1 each) are points lost to sabotage. Per player count: those
  points per seat and game and their share of the points the seat's dishes would have
  scored without them (ratios over games), and the sabotages per seat and game.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.blocks import present
from analysis.horno.common import RESTRICTED, SEATS, Out
from analysis.load import block_frames
from analysis.restricted import check_paired, deal_values
from analysis.samplesize import annotate
from analysis.stats import mean_interval, ratio_interval

NAN = float("nan")

RESTRICTED_SCHEMA = {
    "restriction": pl.String,
    "block": pl.String,
    "players": pl.Int64,
    "deals": pl.Int64,
    "restricted_share": pl.Float64,
    "unrestricted_share": pl.Float64,
    "edge_pp": pl.Float64,
    "edge_low": pl.Float64,
    "edge_high": pl.Float64,
    "points": pl.Float64,
    "points_low": pl.Float64,
    "points_high": pl.Float64,
    "restricted_sabotages": pl.Float64,
    "unrestricted_sabotages": pl.Float64,
    "restricted_steals": pl.Float64,
    "unrestricted_steals": pl.Float64,
    "differs": pl.Float64,
    "rivals": pl.Float64,
    "rivals_low": pl.Float64,
    "rivals_high": pl.Float64,
}


def restricted_values(
    out: Out, manifest: dict, blocks: dict[str, str] = RESTRICTED, base: str = SEATS
) -> pl.DataFrame:
    """Each restriction's cost, per player count (see the module notes).

    Returns
    -------
    polars.DataFrame
        ``restriction, block, players, deals`` (the paired unit), the two seats' mean win
        shares, ``edge_pp`` (restricted − unrestricted seat, pp) and ``points`` (scores),
        each with a t interval over deals, the sabotages and steals (pantry and oven) per
        game of the restricted seat and of the unrestricted seat on the same deals,
        ``differs`` (the share of its games, a deal seen from one seat, whose scores differ
        from the unrestricted game's: 0 when the restriction never changed a game),
        ``rivals`` (the other seats' mean score at its table minus theirs in the
        unrestricted game, points, t interval over deals: what the restriction does to the
        others), and the sample-size columns (n in deals).
    """
    rows = []
    for name, block in present(manifest, blocks).items():
        check_paired(out, block, base, ("cards", "rules"))
        share = deal_values(out, block, base, "win_share")
        score = deal_values(out, block, base, "score")
        sab = deal_values(out, block, base, "sabotages")
        steals = _steals(out, block, base)
        differs = _differs(out, block, base)
        rivals = _rivals(out, block, base)
        for (n,), sub in share.group_by("players", maintain_order=True):
            e = mean_interval(-100 * sub["value"].to_numpy())
            pts = score.filter(pl.col("players") == n)
            p = mean_interval(-pts["value"].to_numpy())
            s = sab.filter(pl.col("players") == n)
            st = steals.get(int(n), (NAN, NAN))
            rows.append(
                {
                    "restriction": name,
                    "block": block,
                    "players": int(n),
                    "deals": sub.height,
                    "restricted_share": float(sub["restricted"].mean()),
                    "unrestricted_share": float(sub["unrestricted"].mean()),
                    "edge_pp": e[0],
                    "edge_low": e[1],
                    "edge_high": e[2],
                    "points": p[0],
                    "points_low": p[1],
                    "points_high": p[2],
                    "restricted_sabotages": float(s["restricted"].mean()),
                    "unrestricted_sabotages": float(s["unrestricted"].mean()),
                    "restricted_steals": st[0],
                    "unrestricted_steals": st[1],
                    "differs": differs.get(int(n), NAN),
                    **dict(
                        zip(
                            ("rivals", "rivals_low", "rivals_high"),
                            rivals.get(int(n), (NAN, NAN, NAN)),
                            strict=True,
                        )
                    ),
                }
            )
    table = pl.DataFrame(rows, schema=RESTRICTED_SCHEMA).with_columns(
        pl.col("deals").alias("games")
    )
    return annotate(table, "edge_pp", "edge_low", "edge_high", share=False, unit="deals", pp=True)


def _differs(out: Out, block: str, base: str) -> dict[int, float]:
    """Per player count: the share of the restricted seat's games (a deal from one seat)
    whose scores, at some seat, differ from the unrestricted game of that deal."""
    rest, _ = block_frames(out, block)
    real, _ = block_frames(out, base)
    keys = ["players", "game_index", "seat"]
    pair = rest.select(*keys, "rotation", "score").join(
        real.select(*keys, pl.col("score").alias("base")), on=keys
    )
    per = pair.group_by("players", "rotation", "game_index").agg(
        (pl.col("score") != pl.col("base")).any().alias("differs")
    )
    return {int(n): float(sub["differs"].mean()) for (n,), sub in per.group_by("players")}


def _rivals(out: Out, block: str, base: str) -> dict[int, tuple[float, float, float]]:
    """Per player count: the mean score of the other seats at the restricted seat's table
    minus theirs in the unrestricted game of the deal (the same seats), averaged over the
    rotations of each deal, with a t interval over deals."""
    rest, _ = block_frames(out, block)
    real, _ = block_frames(out, base)
    keys = ["players", "game_index", "seat"]
    pair = (
        rest.filter(pl.col("seat") != pl.col("rotation"))
        .select(*keys, "rotation", pl.col("score").cast(pl.Float64))
        .join(real.select(*keys, pl.col("score").cast(pl.Float64).alias("base")), on=keys)
    )
    per = (
        pair.group_by("players", "rotation", "game_index")
        .agg((pl.col("score") - pl.col("base")).mean().alias("d"))
        .group_by("players", "game_index")
        .agg(pl.col("d").mean(), pl.len().alias("rotations"))
        .filter(pl.col("rotations") == pl.col("players"))
    )
    return {int(n): mean_interval(sub["d"].to_numpy()) for (n,), sub in per.group_by("players")}


def _steals(out: Out, block: str, base: str) -> dict[int, tuple[float, float]]:
    """Per player count: the pantry and oven steals per game of the restricted seat, and of
    a seat of the unrestricted block on the same deals."""
    rest, _ = block_frames(out, block)
    rest = rest.filter(pl.col("seat") == pl.col("rotation"))
    real, _ = block_frames(out, base)
    steals = pl.col("pantry_steals").cast(pl.Float64) + pl.col("oven_steals").cast(pl.Float64)
    found = {}
    for (n,), sub in rest.group_by("players", maintain_order=True):
        deals = sub["game_index"].unique().implode()
        other = real.filter((pl.col("players") == n) & pl.col("game_index").is_in(deals))
        found[int(n)] = (
            float(sub.select(steals.mean()).item()),
            float(other.select(steals.mean()).item()),
        )
    return found


DAMAGE_SCHEMA = {
    "players": pl.Int64,
    "games": pl.Int64,
    "lost": pl.Float64,
    "lost_low": pl.Float64,
    "lost_high": pl.Float64,
    "share": pl.Float64,
    "share_low": pl.Float64,
    "share_high": pl.Float64,
    "completed_lost": pl.Float64,
    "unfinished_lost": pl.Float64,
    "sabotages": pl.Float64,
    "sabotages_low": pl.Float64,
    "sabotages_high": pl.Float64,
    "score": pl.Float64,
    "steals": pl.Float64,
}


def damage(out: Out, group: str = SEATS) -> pl.DataFrame:
    """Points lost to sabotage in a uniform block, per player count (see the module notes).

    Returns
    -------
    polars.DataFrame
        ``players, games`` (the interval's unit), ``lost`` (points lost to sabotage per
        seat and game: penalties on completed dishes plus bad cards of the unfinished one)
        and ``share`` (their share of the points the seats' dishes would have scored
        without them: ``lost / (score + lost)``), each with its 95% interval over games;
        ``completed_lost`` and ``unfinished_lost`` (the two parts of ``lost``),
        ``sabotages`` (cards put into others' ovens per seat and game) with its interval,
        the mean ``score`` and ``steals`` (pantry and oven) per seat and game; and the
        sample-size columns (levels: only the sample size is checked).
    """
    players, _ = block_frames(out, group)
    rows = []
    for n in sorted(players["players"].unique()):
        sub = players.filter(pl.col("players") == n).sort("arm", "game_index", "seat")
        g = sub.height // n

        def per_game(
            expr: pl.Expr, sub: pl.DataFrame = sub, g: int = g, n: int = int(n)
        ) -> np.ndarray:
            return sub.select(expr.cast(pl.Float64)).to_series().to_numpy().reshape(g, n).sum(1)

        completed = per_game(-(pl.col("garbage_penalty") + pl.col("radioactive_penalty")))
        unfinished = per_game(pl.col("unfinished_bad"))
        lost = completed + unfinished
        score = per_game(pl.col("score"))
        sab = per_game(pl.col("sabotages"))
        steals = per_game(pl.col("pantry_steals") + pl.col("oven_steals"))
        m = mean_interval(lost / n)
        sh = ratio_interval(lost, score + lost, share=True)
        s = mean_interval(sab / n)
        rows.append(
            {
                "players": int(n),
                "games": g,
                "lost": m[0],
                "lost_low": m[1],
                "lost_high": m[2],
                "share": sh[0],
                "share_low": sh[1],
                "share_high": sh[2],
                "completed_lost": float(completed.mean() / n),
                "unfinished_lost": float(unfinished.mean() / n),
                "sabotages": s[0],
                "sabotages_low": s[1],
                "sabotages_high": s[2],
                "score": float(score.mean() / n),
                "steals": float(steals.mean() / n),
            }
        )
    table = pl.DataFrame(rows, schema=DAMAGE_SCHEMA)
    return annotate(table, "share", "share_low", "share_high", reference=None, share=False)
