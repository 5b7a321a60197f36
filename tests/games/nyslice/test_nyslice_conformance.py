"""Conformance over random and greedy play for every player count (OpenSpiel games_sim_test)."""

from collections import Counter

import numpy as np
import pytest

from sims.core.seeding import game_streams
from sims.games.nyslice.deck import Kind, default_deck
from sims.games.nyslice.engine import GameState, deal
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.rules import Rules, rounds_for

DECK = default_deck()
RANDOM_GAMES = 1000
MAX_DECISIONS = 400


def _check_invariants(state: GameState) -> None:
    n = state.n
    assert state.terminal and state.legal_actions() == ()
    # Every slice ends in exactly one place: a hand (collected/eaten), the box, or the pool.
    places = Counter()
    for p in state.players:
        places.update(p.collected)
        places.update(p.eaten)
    places.update(state.deal.removed)
    places.update(state.mystery)
    assert sorted(places) == list(range(len(DECK.slices)))
    assert all(c == 1 for c in places.values())
    # One special taken per round, each by one seat.
    owned = [s for p in state.players for s in p.specials]
    assert len(owned) == len(set(owned)) == state.rounds
    # Scores equal the sum of their breakdowns; win shares sum to one.
    for b in state.scores():
        assert b.total == b.majorities + b.specials + b.diet + b.pepperoni + b.anchovies
        assert b.majorities == sum(b.majority_types)
        assert b.specials == sum(b.special_points.values())
    assert sum(state.win_shares()) == pytest.approx(1.0)
    # An assigned Supreme lies in its holder's collected slices (its type stays for good,
    # even if Seconds or Combo Cravings later moves that type's other slices to eaten).
    if state.supreme_type:
        holder = state.players[state.supreme_holder]
        assert any(DECK.slices[s].kind == Kind.SUPREME for s in holder.collected)
    assert sum(1 for e in state.events if e[0] == "round") == rounds_for(n)
    slicers = [e[2] for e in state.events if e[0] == "round"]
    assert slicers == [r % n for r in range(rounds_for(n))]


def _random_game(n: int, seed: int, index: int) -> GameState:
    streams = game_streams(seed, index, n)
    state = GameState(DECK, Rules(), n, deal(DECK, n, streams.deal))
    steps = 0
    while not state.terminal:
        legal = state.legal_actions()
        assert len(legal) >= 2, "the engine only asks real decisions"
        rng = streams.seats[state.decision().player]
        state.apply(legal[int(rng.integers(len(legal)))])
        steps += 1
        assert steps < MAX_DECISIONS
    return state


@pytest.mark.parametrize("n", range(2, 7))
def test_random_play_conformance(n):
    phases = Counter()
    for g in range(RANDOM_GAMES):
        state = _random_game(n, 11, g)
        _check_invariants(state)
        phases.update(e[0] for e in state.events)
    # Random play exercises the special actions at every player count.
    assert phases["dibs"] > 0 or n == 2
    assert phases["sneak"] > 0
    assert phases["cut_in_line"] > 0 or n == 2
    assert phases["mystery"] > 0 and phases["seconds"] > 0 and phases["supreme"] > 0


@pytest.mark.parametrize("n", range(2, 7))
def test_greedy_play_conformance(n):
    strategies = seat_strategies(["greedy"] * (n - 1) + ["random"], n)
    for g in range(40):
        _check_invariants(play_game(n, strategies, 5, g))


@pytest.mark.parametrize("n", [2, 4, 6])
def test_same_seed_same_game_and_different_index_different_deal(n):
    specs = seat_strategies(["greedy", "random"] * 3, 6)[:n]
    a = play_game(n, specs, 3, 17)
    b = play_game(n, specs, 3, 17)
    assert a.history == b.history and a.events == b.events
    assert [x.total for x in a.scores()] == [x.total for x in b.scores()]
    c = play_game(n, specs, 3, 18)
    assert c.deal != a.deal
    d = play_game(n, specs, 4, 17)
    assert d.deal != a.deal


def test_deal_does_not_depend_on_strategies():
    """Separate streams: a seat's coin flips never shift the deck."""
    a = play_game(4, seat_strategies("random", 4), 9, 2)
    b = play_game(4, seat_strategies("greedy", 4), 9, 2)
    assert a.deal == b.deal
    # Seat 0's choices are unchanged by what another seat's stream produced.
    c = play_game(4, seat_strategies("random,greedy,greedy,greedy", 4), 9, 2)
    d = play_game(4, seat_strategies("random,greedy,greedy,random", 4), 9, 2)
    assert c.deal == d.deal


def test_clone_replays_to_an_equal_state():
    state = _random_game(4, 1, 1)
    copy = state.clone()
    assert copy.history == state.history and copy.events == state.events
    assert [b.total for b in copy.scores()] == [b.total for b in state.scores()]


@pytest.mark.parametrize("n", range(2, 7))
def test_deal_shapes(n):
    d = deal(DECK, n, np.random.default_rng(0))
    assert len(d.stacks) == rounds_for(n)
    assert all(len(s) == 11 for s in d.stacks)
    assert len(d.mystery) == 3
    assert len(d.stack_specials) + len(d.replacement) == 14
    assert all(DECK.slices[s].kind in Kind for st in d.stacks for s in st)
