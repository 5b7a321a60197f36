"""Batches of games: the only loop over games (design principle 6).

For now a serial loop yielding one row per player per game; the parallel, chunked,
Parquet-writing runner builds on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from sims.games.nyslice.deck import Deck
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.rules import Rules


def player_rows(
    n_players: int,
    specs: Sequence[str],
    study_seed: int,
    games: range,
    deck: Deck | None = None,
    rules: Rules | None = None,
    on_game: Callable[[], None] | None = None,
) -> Iterator[dict]:
    """Play New York Slice games ``games`` and yield one row per player per game.

    Columns: game_index, players, seat, strategy, total, majorities, specials, diet,
    pepperoni, anchovies, eaten, collected, win_share, times_slicer.
    """
    strategies = seat_strategies(list(specs), n_players)
    names = [str(s.spec) for s in strategies]
    for g in games:
        state = play_game(n_players, strategies, study_seed, g, deck, rules)
        shares = state.win_shares()
        slicers = [(state.rules.first_slicer + r) % n_players for r in range(state.rounds)]
        for seat, b in enumerate(state.scores()):
            yield {
                "game_index": g,
                "players": n_players,
                "seat": seat,
                "strategy": names[seat],
                "total": b.total,
                "majorities": b.majorities,
                "specials": b.specials,
                "diet": b.diet,
                "pepperoni": b.pepperoni,
                "anchovies": b.anchovies,
                "eaten": b.eaten_count,
                "collected": b.collected_count,
                "win_share": shares[seat],
                "times_slicer": slicers.count(seat),
            }
        if on_game is not None:
            on_game()
