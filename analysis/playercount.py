"""Question 4: does the game hold up from 2 to 6 players?

Per player count, from games where every seat plays the same strategy: the mean score,
the spread of scores within a game, the winning margin (winner minus runner-up), how often
the win is shared, how often the game is close (margin ≤ 1), and how many type majorities
nobody scores (nobody collected the type, or a tie no Tie-Breaker resolves), counting
only the types in play (2 players remove types 3, 8 and 10; 5 players type 10).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.load import rows as load_rows
from analysis.samplesize import annotate
from analysis.stats import mean_interval, wilson_interval

MAJORITY_TYPES = 9


def types_in_play(players: int) -> int:
    """Majority types (3..11) left in the game at a player count after setup removals."""
    from sims.games.nyslice.rules import SETUP_REMOVALS

    removed = SETUP_REMOVALS.get(players, ((), ()))[0]
    return MAJORITY_TYPES - len(set(removed))


def player_count(out, group: str = "seats") -> pl.DataFrame:
    """One row per player count and measure, each with a 95% interval.

    Measures: ``score`` (mean), ``spread`` (standard deviation of the scores within a
    game), ``margin`` (winner − runner-up, points), ``shared_win`` (share of games),
    ``close`` (share of games won by ≤ 1 point), ``unclaimed`` (majorities nobody scored
    per game, among the types in play; see :func:`types_in_play`). Shares use Wilson
    intervals, means t intervals. These are levels, not effects: the warning column flags
    only small samples.

    Returns
    -------
    polars.DataFrame
        ``players, measure, estimate, low, high, games`` and the sample-size columns.
    """
    players = load_rows(out, "players", group).filter(pl.col("blank").is_null())
    games = load_rows(out, "games", group).filter(pl.col("blank").is_null())
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
        if "majorities_unclaimed" in gsub.columns:
            out_of_play = MAJORITY_TYPES - types_in_play(n)
            measures["unclaimed"] = mean_interval(
                gsub["majorities_unclaimed"].to_numpy() - out_of_play
            )
        for name, (est, lo, hi) in measures.items():
            result.append({"players": n, "measure": name, "estimate": est, "low": lo,
                           "high": hi, "games": g})  # fmt: skip
    table = pl.DataFrame(result)
    return annotate(table, "estimate", "low", "high", reference=None, share=False)


def plot_player_count(table: pl.DataFrame, axes=None):
    """Six small panels, one per measure, against the player count."""
    import matplotlib.pyplot as plt

    measures = table["measure"].unique(maintain_order=True).to_list()
    if axes is None:
        _, axes = plt.subplots(2, 3, figsize=(9, 5.5))
    labels = {
        "score": "mean score",
        "spread": "score SD within a game",
        "margin": "winning margin (points)",
        "shared_win": "shared wins (share)",
        "close": "won by ≤ 1 point (share)",
        "unclaimed": "majorities unscored (types in play)",
    }
    for ax, m in zip(np.ravel(axes), measures, strict=False):
        t = table.filter(pl.col("measure") == m).sort("players")
        y = t["estimate"].to_numpy()
        err = np.vstack([y - t["low"].to_numpy(), t["high"].to_numpy() - y])
        ax.errorbar(t["players"], y, yerr=err, marker="o", capsize=3)
        ax.set_title(labels.get(m, m), fontsize=9)
        ax.set_xticks(t["players"].to_list())
        ax.set_xlabel("players", fontsize=8)
    for ax in np.ravel(axes)[len(measures) :]:
        ax.axis("off")
    return axes
