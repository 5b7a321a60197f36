"""Setup of New York Slice: removals, stacks, mystery pool, specials, rounds and slicers.

Checks the spec's "Setup" section, step 10 of "A round" (the slicer passes left) and the
setup lines of its "Worked checks".
"""

from collections import Counter

import numpy as np
import pytest
from nyslice_helpers import DECK, finish, make_deal

from sims.core.errors import SlicelabError
from sims.games.nyslice.deck import REAL_SPECIALS, Special
from sims.games.nyslice.engine import GameState, Phase, deal, removed_slices
from sims.games.nyslice.rules import Rules, rounds_for

MUSHROOM, MEAT, VEGGIE = range(25, 33), range(42, 52), range(0, 3)

# players: (removed ids, slices in play, rounds)
SETUP = [
    (2, sorted([*VEGGIE, *MUSHROOM, *MEAT, 63]), 47, 4),
    (3, [], 69, 6),
    (4, [], 69, 6),
    (5, sorted([*MEAT, 63]), 58, 5),
    (6, [], 69, 6),
]


@pytest.mark.parametrize("n,removed,in_play,rounds", SETUP)
def test_removed_slices_per_player_count(n, removed, in_play, rounds):
    assert removed_slices(DECK, n) == removed
    assert len(DECK.slices) - len(removed) == in_play
    assert rounds_for(n) == rounds
    # What is removed is exactly the named types and the 8/10 combo.
    kinds = Counter(DECK.slices[i].types for i in removed)
    expected = {2: {(10,): 10, (8,): 8, (3,): 3, (8, 10): 1}, 5: {(10,): 10, (8, 10): 1}}
    assert kinds == expected.get(n, {})


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n,removed,in_play,rounds", SETUP)
def test_deal_stacks_mystery_and_specials(n, removed, in_play, rounds, seed):
    d = deal(DECK, n, np.random.default_rng(seed))
    assert len(d.stacks) == rounds
    assert all(len(s) == 11 for s in d.stacks)
    assert len(d.mystery) == 3
    dealt = [sid for s in d.stacks for sid in s] + list(d.mystery)
    # Every slice in play is dealt exactly once; the removed ones stay in the box.
    assert sorted(dealt) == sorted(set(range(69)) - set(removed))
    assert len(dealt) == in_play
    assert list(d.removed) == removed
    # One special per stack, the rest form the replacement pile; 14 tiles, each once.
    assert len(d.stack_specials) == rounds
    assert len(d.replacement) == 14 - rounds
    assert sorted(d.stack_specials + d.replacement) == list(REAL_SPECIALS)


def test_deal_is_shuffled():
    a = deal(DECK, 3, np.random.default_rng(0))
    b = deal(DECK, 3, np.random.default_rng(1))
    assert a.stacks != b.stacks
    assert deal(DECK, 3, np.random.default_rng(0)) == a


@pytest.mark.parametrize("n", [0, 1, 7])
def test_player_count_outside_2_to_6_is_refused(n):
    with pytest.raises(SlicelabError, match="2 to 6 players"):
        GameState(DECK, Rules(), n, make_deal(3, []))


# players, first_slicer -> slicer of each round
SLICERS = [
    (2, 0, [0, 1, 0, 1]),
    (3, 0, [0, 1, 2, 0, 1, 2]),
    (4, 0, [0, 1, 2, 3, 0, 1]),
    (5, 0, [0, 1, 2, 3, 4]),
    (6, 0, [0, 1, 2, 3, 4, 5]),
    (2, 1, [1, 0, 1, 0]),
    (4, 2, [2, 3, 0, 1, 2, 3]),
    (5, 3, [3, 4, 0, 1, 2]),
    (6, 5, [5, 0, 1, 2, 3, 4]),
]


@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize("n,first,slicers", SLICERS)
def test_rounds_and_slicer_rotation(n, first, slicers, seed):
    d = deal(DECK, n, np.random.default_rng(seed))
    state = GameState(DECK, Rules(first_slicer=first), n, d)
    seen = finish(state)
    rounds = [e for e in state.events if e[0] == "round"]
    assert [e[1] for e in rounds] == list(range(len(slicers)))
    assert [e[2] for e in rounds] == slicers
    # The slicer lays the round's stack as the circle, in stack order.
    assert [e[5] for e in rounds] == [tuple(s) for s in d.stacks]
    # Each cut is the slicer's decision.
    cuts = [x for x in seen if x.phase == Phase.CUT]
    assert [x.player for x in cuts] == slicers
    assert state.terminal and len(state.scores()) == n


def test_default_first_slicer_is_seat_0():
    assert Rules().first_slicer == 0


@pytest.mark.parametrize("seed", range(5))
def test_worked_check_4_players(seed):
    """4 players, 6 rounds, seats 0 and 1 slice twice."""
    state = GameState(DECK, Rules(), 4, deal(DECK, 4, np.random.default_rng(seed)))
    finish(state)
    slicers = Counter(e[2] for e in state.events if e[0] == "round")
    assert state.rounds == 6
    assert slicers == {0: 2, 1: 2, 2: 1, 3: 1}


@pytest.mark.parametrize("seed", range(5))
def test_worked_check_5_players(seed):
    """5 players, 5 rounds, each slices once."""
    state = GameState(DECK, Rules(), 5, deal(DECK, 5, np.random.default_rng(seed)))
    finish(state)
    slicers = Counter(e[2] for e in state.events if e[0] == "round")
    assert state.rounds == 5
    assert slicers == {0: 1, 1: 1, 2: 1, 3: 1, 4: 1}


@pytest.mark.parametrize("seed", range(30))
def test_worked_check_2_players(seed):
    """2 players, 47 slices, 4 rounds, 3 mystery slices; Cut in Line, Dibs!, You Love
    Veggies are always replaced."""
    d = deal(DECK, 2, np.random.default_rng(seed))
    assert len([sid for s in d.stacks for sid in s]) + len(d.mystery) == 47
    assert len(d.mystery) == 3
    state = GameState(DECK, Rules(), 2, d)
    finish(state)
    rounds = [e for e in state.events if e[0] == "round"]
    assert len(rounds) == 4
    never = {Special.CUT_IN_LINE, Special.DIBS, Special.YOU_LOVE_VEGGIES}
    for r, e in enumerate(rounds):
        special, rejected = e[3], e[4]
        assert special not in never
        if d.stack_specials[r] in never:
            assert rejected[0] == d.stack_specials[r]
    owned = {s for p in state.players for s in p.specials}
    assert not owned & never


def test_players_may_own_any_number_of_specials():
    # The special is always a portion alone that seat 1 takes first.
    state = GameState(DECK, Rules(), 3, make_deal(3, []))
    while not state.terminal:
        d = state.decision()
        if d.phase == Phase.CUT:
            state.apply(0)  # rank 0: the special is the portion alone, listed last
        elif d.phase == Phase.CHOOSE and d.player == (state.slicer + 1) % 3:
            state.apply(len(state.portions) - 1)
        else:
            state.apply(d.legal[0])
    owned = [sorted(p.specials) for p in state.players]
    by_round = [e[3] for e in state.events if e[0] == "round"]
    # The first chooser is seat 1, 2, 0, 1, 2, 0 in rounds 0..5.
    assert owned == [sorted(by_round[2::3]), sorted(by_round[0::3]), sorted(by_round[1::3])]
