"""Play one Horno game from (study seed, game index) with given strategies."""

from __future__ import annotations

from collections.abc import Sequence

from sims.core.seeding import game_streams
from sims.games.flow import play_out, seat_specs
from sims.games.horno.cards import CardSet, default_cards
from sims.games.horno.engine import GameState, deal
from sims.games.horno.records import decision_row
from sims.games.horno.rules import Rules, check_players
from sims.games.horno.strategies import Strategy, make_strategy
from sims.games.horno.view import view_for


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
    cards: CardSet | None = None,
    rules: Rules | None = None,
    records: list[list[int]] | None = None,
) -> GameState:
    """Play one game to the end and return its final state.

    Parameters
    ----------
    n_players : int
        2 to 4.
    strategies : sequence of Strategy
        One per seat.
    study_seed, game_index : int
        Seed the chance (``streams.deal``: the shuffles, then pantry steals and reshuffles)
        and each seat's decisions (``streams.seats[seat]``; see :mod:`sims.core.seeding`).
    cards, rules : optional
        Defaults: the "assumed v1" card set and the spec's rulings.
    records : list, optional
        When given, receives one decision record per decision (``records.decision_row``).
    """
    check_players(n_players)
    cards = cards or default_cards()
    rules = rules or Rules()
    streams = game_streams(study_seed, game_index, n_players)
    state = GameState(cards, rules, n_players, deal(cards, streams.deal))
    play_out(state, strategies, streams.seats, view_maker(strategies), records, decision_row,
             game_index)  # fmt: skip
    return state


def view_maker(strategies: Sequence[Strategy]):
    """``view(state, seat)`` for these strategies: each seat's :class:`PlayerView`, with the
    seat's memory of hidden cards when its strategy reads it (``strategy.remembers``; a
    strategy that does not say is given it), or a :class:`LightView` where the strategy
    says that suffices (:func:`~sims.games.horno.view.view_for`)."""
    remember = [bool(getattr(s, "remembers", True)) for s in strategies]
    return lambda state, seat: view_for(strategies[seat], state, seat, remember[seat])
