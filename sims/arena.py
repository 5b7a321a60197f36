"""Paired, seat-rotated matches: how strong is a strategy against a field?

A candidate plays game ``g`` once from every seat ``s`` with the field in the other seats;
every (g, s) uses the same deal for every candidate (the deal depends only on the seed and
``g``). Differences between candidates are then paired by game and seat, which removes
most of the luck of the deal (duplicate bridge; engine testing with both colours).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sims.core.study import Arm, parse_study
from sims.games import plugin_for


def rotation_arms(
    candidate: str, field: str, players: int, games: int, seed: int, game: str = "nyslice"
) -> list[Arm]:
    """One arm per seat: the candidate in that seat, the field spec in the others."""
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
            }
        )
    return list(parse_study({"name": "arena", "seed": seed, "arms": arms}, source="arena").arms)


def _play(arm: Arm, seat: int, first: int, count: int) -> tuple[int, int, np.ndarray, np.ndarray]:
    tables = plugin_for(arm.game).run_chunk(arm, first, count, decisions=False)
    players = tables["players"]
    n = arm.players
    share = players.column("win_share").to_numpy().reshape(count, n)[:, seat]
    score = players.column("score").to_numpy().reshape(count, n).astype(np.float64)
    margin = score[:, seat] - np.delete(score, seat, axis=1).max(axis=1)
    return seat, first, share, margin


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
    candidate: str, field: str, players: int, games: int, seed: int, first: int = 0,
    jobs: int = 1, chunk: int = 2000, game: str = "nyslice",
) -> Rotated:  # fmt: skip
    """Play games ``first .. first + games - 1`` from every seat; see the module docstring."""
    arms = rotation_arms(candidate, field, players, first + games, seed, game)
    tasks = [
        (arm, seat, start, min(chunk, first + games - start))
        for seat, arm in enumerate(arms)
        for start in range(first, first + games, chunk)
    ]
    if jobs == 1:
        results = [_play(*t) for t in tasks]
    else:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=jobs)(delayed(_play)(*t) for t in tasks)
    share = np.zeros((games, players))
    margin = np.zeros((games, players))
    for seat, start, s, m in results:
        share[start - first : start - first + len(s), seat] = s
        margin[start - first : start - first + len(m), seat] = m
    return Rotated(candidate, field, players, seed, share, margin)
