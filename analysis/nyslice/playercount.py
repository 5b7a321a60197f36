"""New York Slice at every player count: the generic measures
(:func:`analysis.playercount.player_count`) and the majorities nobody scores.

A majority goes unscored when nobody collected the type, or in a tie no Tie-Breaker
resolves. Only the types in play count (2 players remove types 3, 8 and 10; 5 players
type 10: :data:`sims.games.nyslice.rules.SETUP_REMOVALS`).
"""

from __future__ import annotations

import polars as pl

from analysis import playercount
from analysis.playercount import Measure
from analysis.stats import mean_interval
from sims.games.nyslice.rules import SETUP_REMOVALS

MAJORITY_TYPES = 9
"""Types 3..11, each with a majority to score."""

LABELS = {"unclaimed": "majorities unscored (types in play)"}
"""Panel title of the measure this module adds."""


def types_in_play(players: int) -> int:
    """Majority types (3..11) left in the game at a player count after setup removals."""
    removed = SETUP_REMOVALS.get(players, ((), ()))[0]
    return MAJORITY_TYPES - len(set(removed))


def unclaimed(n: int, players: pl.DataFrame, games: pl.DataFrame) -> dict[str, Measure]:
    """``unclaimed``: majorities nobody scored per game, among the types in play."""
    if "majorities_unclaimed" not in games.columns:
        return {}
    out_of_play = MAJORITY_TYPES - types_in_play(n)
    return {"unclaimed": mean_interval(games["majorities_unclaimed"].to_numpy() - out_of_play)}


def player_count(out, group: str = "seats") -> pl.DataFrame:
    """:func:`analysis.playercount.player_count` with ``unclaimed`` (see the module notes)."""
    return playercount.player_count(out, group, extra=unclaimed)


def plot_player_count(table: pl.DataFrame, axes=None):
    """:func:`analysis.playercount.plot_player_count` with this game's panel titles."""
    return playercount.plot_player_count(table, axes, labels=LABELS)
