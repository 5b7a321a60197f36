"""Play one Pizza Theory game from (study seed, game index) with given strategies."""

from __future__ import annotations

from collections.abc import Sequence

from sims.core.seeding import game_streams
from sims.games.flow import play_out, seat_specs
from sims.games.pizzatheory.board import Board, default_board
from sims.games.pizzatheory.engine import GameState, deal
from sims.games.pizzatheory.records import decision_row
from sims.games.pizzatheory.rules import Rules, check_players
from sims.games.pizzatheory.strategies import Strategy, make_strategy
from sims.games.pizzatheory.view import PlayerView


def seat_strategies(specs: Sequence[str] | str, n_players: int) -> list[Strategy]:
    """One strategy per seat from spec strings: one spec for every seat, or one per seat.

    Raises
    ------
    SlicelabError
        When the number of specs is neither 1 nor the number of players.
    """
    check_players(n_players)
    return [make_strategy(s) for s in seat_specs(specs, n_players)]


def play_game(
    n_players: int,
    strategies: Sequence[Strategy],
    study_seed: int,
    game_index: int,
    board: Board | None = None,
    rules: Rules | None = None,
    records: list[list[int]] | None = None,
) -> GameState:
    """Play one game to the end and return its final state.

    Parameters
    ----------
    n_players : int
        3, or 2 (the neutral variant).
    strategies : sequence of Strategy
        One per seat.
    study_seed, game_index : int
        Seed the chance (``streams.deal``: the 2-player neutral die) and each seat's
        decisions (``streams.seats[seat]``; see :mod:`sims.core.seeding`).
    board, rules : optional
        Defaults: the ``hex-37`` board and the spec's rulings.
    records : list, optional
        When given, receives one decision record per decision (``records.decision_row``).
    """
    check_players(n_players)
    board = board or default_board()
    rules = rules or Rules()
    streams = game_streams(study_seed, game_index, n_players)
    state = GameState(board, rules, n_players, deal(n_players, rules, streams.deal), game_index)
    play_out(state, strategies, streams.seats, PlayerView, records, decision_row, game_index)
    return state
