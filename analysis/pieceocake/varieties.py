"""Which varieties carry the winning scores? Each variety's share of the winners' points.

A seat's points from variety ``v`` are its majority points for ``v`` (the variety's value
when it scores the majority: bit ``v`` of ``won_mask``; under ``majority_ties = "split"``
the value shared among the tied leaders, rounded down) plus the cream of the slices of
``v`` it ate (``eaten_by_variety[v]`` × the variety's cream); over the varieties they sum
to its score. The cake (values, cream, names) is the arm's (:func:`cake_for`).

The share of variety ``v`` at a player count is the winners' points from ``v`` over the
winners' scores, each winner weighted by its win share (a win shared by k counts 1/k), so
every game counts once: a ratio of sums over games, whose interval is clustered by game
(:func:`analysis.stats.cluster_mean_interval`: the game is the unit, n counts games).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.blocks import block_arms
from analysis.load import game_ids, manifest, untreated
from analysis.load import rows as load_rows
from analysis.pieceocake.common import cake_for, rules_for
from analysis.samplesize import annotate
from analysis.stats import cluster_mean_interval

COLUMNS = ("won_mask", "collected_by_variety", "eaten_by_variety")
"""The players-table columns this module reads (besides the core ones)."""


def has_columns(out, group: str = "seats") -> bool:
    """Whether the block's players table has :data:`COLUMNS` (datasets written before they
    were added do not)."""
    from analysis.load import scan

    names = set(scan(out, "players").collect_schema().names())
    return set(COLUMNS) <= names


def variety_points(frame: pl.DataFrame, values: list[int], cream: list[int],
                   ties: str = "full") -> np.ndarray:  # fmt: skip
    """``(seats, varieties)`` points of each seat row from each variety: majority points
    (bit ``v`` of ``won_mask``; under ``split`` the value over the number of seats of the
    same game tied for the largest collection, rounded down) plus eaten cream. ``frame``:
    one arm's seat rows, sorted by game and seat."""
    k = len(values)
    won = frame["won_mask"].to_numpy().astype(np.int64)
    bits = (won[:, None] >> np.arange(k)) & 1
    eaten = np.array(frame["eaten_by_variety"].to_list(), dtype=float).reshape(-1, k)
    majority = bits * np.asarray(values, dtype=float)
    if ties == "split":
        collected = np.array(frame["collected_by_variety"].to_list(), dtype=float).reshape(-1, k)
        game = frame["game_index"].to_numpy()
        best = pl.DataFrame({"g": game, **{str(v): collected[:, v] for v in range(k)}})
        top = best.group_by("g").agg(pl.all().max()).sort("g")
        lookup = {g: i for i, g in enumerate(top["g"].to_list())}
        rows = np.array([lookup[g] for g in game])
        tops = top.drop("g").to_numpy()[rows]
        at_top = (collected == tops) & (collected > 0)
        leaders = pl.DataFrame({"g": game, **{str(v): at_top[:, v] for v in range(k)}})
        count = leaders.group_by("g").agg(pl.all().sum()).sort("g").drop("g").to_numpy()[rows]
        majority = bits * np.floor(np.asarray(values, dtype=float) / np.maximum(count, 1))
    return majority + eaten * np.asarray(cream, dtype=float)


def cake_shares(cake) -> dict[str, float]:
    """Each variety's share of the points the cake holds: its majority value plus the cream
    of all its slices, over the same summed over the varieties (the share a variety would
    have of the winners' points if winners took every variety in proportion)."""
    worth = {v.name: v.value + v.copies * v.cream for v in cake.varieties}
    total = sum(worth.values()) or 1
    return {k: w / total for k, w in worth.items()}


def winner_points(out, group: str = "seats") -> tuple[pl.DataFrame, list[str]]:
    """Every winning seat row of the block (``win_share > 0``) with ``points_<v>`` per
    variety (majority and cream apart: ``majority_<v>``, ``cream_<v>``), and the variety
    names (of the block's cake; every arm of the block must play the same varieties)."""
    m = manifest(out)
    arms = {a["name"]: a for a in block_arms(m, group)}
    frame = untreated(load_rows(out, "players", group)).sort("players", "arm", "game_index",
                                                              "seat")  # fmt: skip
    names: list[str] | None = None
    parts = []
    for (arm,), sub in frame.group_by("arm", maintain_order=True):
        cake = cake_for(arms[arm])
        these = [v.name for v in cake.varieties]
        if names is not None and these != names:
            raise ValueError(f"block {group!r} plays cakes with different varieties")
        names = these
        values = [v.value for v in cake.varieties]
        cream = [v.cream for v in cake.varieties]
        ties = rules_for(arms[arm]).majority_ties
        total = variety_points(sub, values, cream, ties)
        no_ties = variety_points(sub, values, [0] * len(values), ties)
        extra = {}
        for j, v in enumerate(these):
            extra[f"majority_{v}"] = no_ties[:, j]
            extra[f"cream_{v}"] = total[:, j] - no_ties[:, j]
            extra[f"points_{v}"] = total[:, j]
        parts.append(sub.with_columns(**{k: pl.Series(k, x) for k, x in extra.items()}))
    if not parts:
        raise KeyError(f"{out} has no rows in block {group!r}")
    both = pl.concat(parts, how="vertical_relaxed")
    return both.filter(pl.col("win_share") > 0), names or []


def variety_shares(out, group: str = "seats") -> pl.DataFrame:
    """Per player count and variety: the share of the winners' points that came from it,
    from its majority and from its cream, with intervals clustered by game.

    Returns
    -------
    polars.DataFrame
        ``players, variety, order`` (the variety's place in the cake), ``games``,
        ``share`` with ``share_low``/``share_high``, ``majority_share`` and
        ``cream_share`` (the two parts, summing to ``share``), ``majority_won`` (share of
        winners, weighted, scoring its majority), ``cake_share`` (its share of the cake's
        points, :func:`cake_shares`: the reference for 'more than its weight') and the
        sample-size columns (levels: only the games are checked).
    """
    winners, names = winner_points(out, group)
    arms = block_arms(manifest(out), group)
    weight_of = cake_shares(cake_for(arms[0])) if arms else {}
    result = []
    for (n,), sub in winners.group_by("players", maintain_order=True):
        w = sub["win_share"].to_numpy().astype(float)
        score = sub["score"].to_numpy().astype(float)
        clusters = game_ids(sub)
        weight = w * score
        safe = np.where(score > 0, score, 1.0)
        for j, v in enumerate(names):
            pts = sub[f"points_{v}"].to_numpy()
            e, lo, hi, g = cluster_mean_interval(pts / safe, clusters, weight)
            maj = sub[f"majority_{v}"].to_numpy()
            result.append({
                "players": int(n), "variety": v, "order": j, "games": g, "share": e,
                "share_low": max(lo, 0.0), "share_high": min(hi, 1.0),
                "majority_share": float((weight * maj / safe).sum() / weight.sum()),
                "cream_share": float((weight * (pts - maj) / safe).sum() / weight.sum()),
                "majority_won": float((w * (maj > 0)).sum() / w.sum()),
                "cake_share": weight_of.get(v, float("nan")),
            })  # fmt: skip
    schema = {"players": pl.Int64, "variety": pl.String, "order": pl.Int64, "games": pl.Int64,
              "share": pl.Float64, "share_low": pl.Float64, "share_high": pl.Float64,
              "majority_share": pl.Float64, "cream_share": pl.Float64,
              "majority_won": pl.Float64, "cake_share": pl.Float64}  # fmt: skip
    table = pl.DataFrame(result, schema=schema).sort("players", "order")
    return annotate(table, "share", "share_low", "share_high", reference=None, share=False)


def top_variety(table: pl.DataFrame) -> pl.DataFrame:
    """Per player count, the variety with the largest share (``players, variety, share,
    share_low, share_high, games, runner_up, runner_share, runner_low, runner_high,
    separated``: whether the top's interval lies above the runner-up's, ``cake_share``:
    the top variety's share of the cake's points)."""
    rows = []
    for (n,), sub in table.sort("players").group_by("players", maintain_order=True):
        s = sub.sort("share", descending=True)
        top, nxt = s.row(0, named=True), s.row(1, named=True) if s.height > 1 else None
        rows.append({
            "players": int(n), "variety": top["variety"], "share": top["share"],
            "share_low": top["share_low"], "share_high": top["share_high"],
            "games": top["games"], "runner_up": nxt["variety"] if nxt else None,
            "runner_share": nxt["share"] if nxt else None,
            "runner_low": nxt["share_low"] if nxt else None,
            "runner_high": nxt["share_high"] if nxt else None,
            "separated": bool(nxt is None or top["share_low"] > nxt["share_high"]),
            "cake_share": top.get("cake_share", float("nan")),
        })  # fmt: skip
    schema = {"players": pl.Int64, "variety": pl.String, "share": pl.Float64,
              "share_low": pl.Float64, "share_high": pl.Float64, "games": pl.Int64,
              "runner_up": pl.String, "runner_share": pl.Float64, "runner_low": pl.Float64,
              "runner_high": pl.Float64, "separated": pl.Boolean,
              "cake_share": pl.Float64}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def plot_shares(table: pl.DataFrame, ax) -> None:
    """Grouped bars: each variety's share of the winners' points (%), one bar per player
    count in its colour, the cream part hatched, with the 95% interval of the total."""
    from matplotlib.patches import Patch

    from analysis.formats import count_colour

    names = table.sort("order")["variety"].unique(maintain_order=True).to_list()
    counts = sorted(table["players"].unique())
    width = 0.8 / max(len(counts), 1)
    for i, n in enumerate(counts):
        t = table.filter(pl.col("players") == n).sort("order")
        x = np.arange(len(names)) - 0.4 + width * (i + 0.5)
        c = count_colour(n)
        maj = 100 * t["majority_share"].to_numpy()
        cream = 100 * t["cream_share"].to_numpy()
        ax.bar(x, maj, width, color=c, alpha=0.85, label=f"{n} players")
        ax.bar(x, cream, width, bottom=maj, color=c, alpha=0.35, hatch="////", edgecolor=c,
               lw=0)  # fmt: skip
        y = 100 * t["share"].to_numpy()
        err = np.vstack([y - 100 * t["share_low"].to_numpy(), 100 * t["share_high"].to_numpy() - y])
        ax.errorbar(x, y, yerr=err, fmt="none", ecolor="black", elinewidth=0.7, capsize=1.5)
    if "cake_share" in table.columns:
        ref = table.filter(pl.col("players") == counts[0]).sort("order")["cake_share"]
        ax.plot(np.arange(len(names)), 100 * ref.to_numpy(), "_", color="black", ms=22, mew=1.5,
                label="its share of the cake's points")  # fmt: skip
    ax.set_xticks(range(len(names)), names, fontsize=7)
    ax.set_ylabel("share of the winners' points, % (95% CI)", fontsize=8)
    ax.tick_params(labelsize=7)
    handles, labels = ax.get_legend_handles_labels()
    handles.append(Patch(facecolor="0.8", hatch="////", edgecolor="0.5", lw=0))
    labels.append("hatched: cream of eaten slices")
    ax.legend(handles, labels, fontsize=7, loc="upper left", frameon=False)
