"""Does the game hold up at every player count? Levels of a study block, for any game.

Per player count, from games where every seat plays the same strategy: the mean score,
the spread of scores within a game, the winning margin (winner minus runner-up), how often
the win is shared (the runner's ``n_winners``) and how often the game is close (margin
≤ 1). A game's analyses add their own measures through ``extra`` (New York Slice adds
the majorities nobody scores). Arms of a treatment variant are left out.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import polars as pl

from analysis.load import rows as load_rows
from analysis.load import untreated
from analysis.samplesize import annotate
from analysis.stats import mean_interval, wilson_interval

Measure = tuple[float, float, float]
"""An estimate with its 95% interval: ``(estimate, low, high)``."""
Extra = Callable[[int, pl.DataFrame, pl.DataFrame], dict[str, Measure]]
"""A game's own measures at one player count: ``(players, players rows, games rows)`` →
measure name → estimate and interval (rows of one count, sorted by game and seat)."""

LABELS = {
    "score": "mean score",
    "spread": "score SD within a game",
    "margin": "winning margin (points)",
    "shared_win": "shared wins (share)",
    "close": "won by ≤ 1 point (share)",
}
"""Panel titles of the generic measures."""


def player_count(out, group: str = "seats", extra: Extra | None = None) -> pl.DataFrame:
    """One row per player count and measure, each with a 95% interval.

    Measures: ``score`` (mean), ``spread`` (standard deviation of the scores within a
    game), ``margin`` (winner − runner-up, points), ``shared_win`` (share of games),
    ``close`` (share of games won by ≤ 1 point), then those of ``extra``. Shares use
    Wilson intervals, means t intervals. These are levels, not effects: the warning column
    flags only small samples.

    Returns
    -------
    polars.DataFrame
        ``players, measure, estimate, low, high, games`` and the sample-size columns.
    """
    players = untreated(load_rows(out, "players", group))
    games = untreated(load_rows(out, "games", group))
    result = []
    for n in sorted(players["players"].unique()):
        sub = players.filter(pl.col("players") == n).sort("game_index", "seat")
        score = sub["score"].to_numpy().astype(float).reshape(-1, n)
        g = len(score)
        top2 = np.sort(score, axis=1)[:, -2:]
        margin = top2[:, 1] - top2[:, 0]
        gsub = games.filter(pl.col("players") == n)
        measures = {
            "score": mean_interval(score.mean(axis=1)),
            "spread": mean_interval(score.std(axis=1, ddof=1)),
            "margin": mean_interval(margin),
        }
        for name, k in (
            ("shared_win", int((gsub["n_winners"] > 1).sum())),
            ("close", int((margin <= 1).sum())),
        ):
            measures[name] = (k / g, *wilson_interval(k, g))
        if extra is not None:
            measures.update(extra(n, sub, gsub))
        for name, (est, lo, hi) in measures.items():
            result.append({"players": n, "measure": name, "estimate": est, "low": lo,
                           "high": hi, "games": g})  # fmt: skip
    table = pl.DataFrame(result)
    return annotate(table, "estimate", "low", "high", reference=None, share=False)


SHARES = ("shared_win", "close")
"""Measures that are shares of games: plotted as percentages."""


def plot_player_count(table: pl.DataFrame, axes=None, labels: dict[str, str] | None = None):
    """Small panels, one per measure, against the player count (``labels``: panel titles
    of a game's own measures). Each count's point is in its colour
    (:func:`analysis.formats.count_colour`), its 95% interval drawn over the small marker;
    shares of games are shown as percentages."""
    import matplotlib.pyplot as plt

    from analysis.formats import count_colour

    measures = table["measure"].unique(maintain_order=True).to_list()
    if axes is None:
        _, axes = plt.subplots(2, 3, figsize=(9, 5.5))
    titles = {**LABELS, **(labels or {})}
    for ax, m in zip(np.ravel(axes), measures, strict=False):
        t = table.filter(pl.col("measure") == m).sort("players")
        scale = 100 if m in SHARES else 1
        x = t["players"].to_numpy()
        y = scale * t["estimate"].to_numpy()
        low, high = scale * t["low"].to_numpy(), scale * t["high"].to_numpy()
        ax.plot(x, y, color="#888888", lw=0.8, zorder=1)
        for k, n in enumerate(x):
            colour = count_colour(n)
            ax.plot([n], [y[k]], marker="o", ms=3.5, color=colour, zorder=2)
            ax.errorbar([n], [y[k]], yerr=[[y[k] - low[k]], [high[k] - y[k]]], fmt="none",
                        ecolor=colour, elinewidth=1, capsize=2.5, zorder=3)  # fmt: skip
        title = titles.get(m, m.replace("_", " "))
        if scale == 100:
            title = title.replace("(share)", "(% of games)")
        ax.set_title(title, fontsize=9)
        ax.set_xticks(x.tolist())
        ax.set_xlabel("player count", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in np.ravel(axes)[len(measures) :]:
        ax.axis("off")
    return axes
