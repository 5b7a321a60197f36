"""Play one New York Slice game from (study seed, game index) with given strategies."""

from __future__ import annotations

from collections.abc import Sequence

from sims.core.seeding import game_streams
from sims.games.flow import play_out, seat_specs
from sims.games.nyslice.deck import Deck, default_deck
from sims.games.nyslice.engine import GameState, deal
from sims.games.nyslice.records import decision_row
from sims.games.nyslice.rules import Rules, check_players
from sims.games.nyslice.strategies import Strategy, make_strategy
from sims.games.nyslice.view import PlayerView


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
    deck: Deck | None = None,
    rules: Rules | None = None,
    records: list[list[int]] | None = None,
) -> GameState:
    """Play one game to the end and return its final state.

    Parameters
    ----------
    n_players : int
        2 to 6.
    strategies : sequence of Strategy
        One per seat; the special a strategy's ``avoid`` or ``forfeit`` names (restricted
        play) is enforced by the engine for its seat.
    study_seed, game_index : int
        Seed the deal and each seat's stream (see :mod:`sims.core.seeding`).
    deck, rules : optional
        Defaults: the "reconstructed v1" deck and the spec's rulings.
    records : list, optional
        When given, receives one decision record per decision (``records.decision_row``).
    """
    check_players(n_players)
    deck = deck or default_deck()
    rules = rules or Rules()
    streams = game_streams(study_seed, game_index, n_players)
    avoid = [getattr(s, "avoid", None) for s in strategies]  # restricted play, per seat
    forfeit = [getattr(s, "forfeit", None) for s in strategies]
    the_deal = deal(deck, n_players, streams.deal)
    state = GameState(deck, rules, n_players, the_deal, avoid, forfeit)
    play_out(state, strategies, streams.seats, PlayerView, records, decision_row, game_index)
    return state
