"""Registry of the games slicelab can simulate."""

from __future__ import annotations

from dataclasses import dataclass

from sims.core.errors import SlicelabError


@dataclass(frozen=True)
class GameInfo:
    """A registered game."""

    name: str
    title: str
    min_players: int
    max_players: int
    summary: str
    spec: str


GAMES: dict[str, GameInfo] = {
    "nyslice": GameInfo(
        name="nyslice",
        title="New York Slice",
        min_players=2,
        max_players=6,
        summary="cut a pizza into portions, choose, eat for pepperoni or collect for majorities",
        spec="../shared/rules/nyslice.md",
    ),
}
"""Games with a rules engine. Piece o' Cake, Pizza Theory and Horno are planned."""


def get_game(name: str) -> GameInfo:
    """Look up a game by name, with a message listing the known names."""
    try:
        return GAMES[name]
    except KeyError:
        raise SlicelabError(
            f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))} (see `slicelab games`)"
        ) from None
