"""Paired, seat-rotated matches: how strong is a strategy against a field?

A candidate plays game ``g`` once from every seat ``s`` with the field in the other seats;
every (g, s) uses the same deal for every candidate (the deal depends only on the seed and
``g``). Differences between candidates are then paired by game and seat, which removes
most of the luck of the deal (duplicate bridge; engine testing with both colours).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sims.batch import play_arm
from sims.core.study import Arm, parse_study


def rotation_arms(game: str, candidate: str, field: str, players: int, games: int, seed: int,
                  options: Mapping[str, Any] | None = None) -> list[Arm]:  # fmt: skip
    """One arm per seat: the candidate in that seat, the field spec in the others (under
    the arm-block ``options``: rule options, a data file)."""
    arms = []
    for seat in range(players):
        specs = [field] * players
        specs[seat] = candidate
        arms.append(
            {
                "name": f"seat{seat}",
                "game": game,
                "players": players,
                "strategies": specs,
                "games": games,
                **(options or {}),
            }
        )
    # Python strategies are allowed here: the command line refuses them at its door unless
    # --allow-code, and a caller of this function is already running Python code.
    data = {"name": "arena", "seed": seed, "arms": arms}
    return list(parse_study(data, source="arena", allow_code=True).arms)


@dataclass
class Rotated:
    """A candidate's results: ``share[g, s]`` and ``margin[g, s]`` (score minus best other)."""

    candidate: str
    field: str
    players: int
    seed: int
    share: np.ndarray
    margin: np.ndarray

    @property
    def games(self) -> int:
        return self.share.shape[0]

    def per_game(self) -> np.ndarray:
        """Mean win share over the seats of each game (the paired unit)."""
        return self.share.mean(axis=1)


def play_rotated(
    game: str, candidate: str, field: str, players: int, games: int, seed: int,
    first: int = 0, jobs: int = 1, chunk: int = 2000, options: Mapping[str, Any] | None = None,
) -> Rotated:  # fmt: skip
    """Play games ``first .. first + games - 1`` of ``game`` from every seat (under the
    arm-block ``options``); see the module docstring."""
    arms = rotation_arms(game, candidate, field, players, first + games, seed, options)
    share = np.zeros((games, players))
    margin = np.zeros((games, players))
    for seat, arm in enumerate(arms):
        for start, tables in play_arm(arm, first, games, chunk, jobs):
            p = tables["players"]
            s = p.column("win_share").to_numpy().reshape(-1, players)
            score = p.column("score").to_numpy().reshape(-1, players).astype(np.float64)
            rows = slice(start - first, start - first + len(s))
            share[rows, seat] = s[:, seat]
            margin[rows, seat] = score[:, seat] - np.delete(score, seat, axis=1).max(axis=1)
    return Rotated(candidate, field, players, seed, share, margin)
