"""Hidden information in Horno: a seat's view shows its own hand, the open oven cards, the
deck's top card, the sizes of hands, deck and discard pile, and the face-down cards it placed
itself — nothing else. Two games that differ only in what a seat may not see (another
seat's hand, the deck below its top card, the discard pile, another seat's face-down
cards) give it the same view and the same decisions, and the view holds no reference a
strategy could follow to the state."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from horno_helpers import CARDS, down, k, ks, state_at, to_phase, up

from sims.games.horno.cards import CardSet
from sims.games.horno.engine import GameState, OvenCard, Phase, deal
from sims.games.horno.rules import Rules
from sims.games.horno.strategies import make_strategy
from sims.games.horno.view import HIDDEN, OvenView, PlayerView


def _hide_swap(state: GameState, seat: int, rng: np.random.Generator) -> GameState:
    """A copy of ``state`` in which everything ``seat`` may not see is changed: every other
    hand's cards are swapped with cards from below the deck's top (or from the discard
    pile), the discard pile is reordered, and every face-down card ``seat`` did not place
    is replaced by another garbage or radioactive kind."""
    other = state.clone()
    below = list(range(1, len(other.deck)))
    for v in other.others(seat):
        hand = other.hands[v]
        for i in range(len(hand)):
            if below:
                j = below.pop(int(rng.integers(len(below))))
                hand[i], other.deck[j] = other.deck[j], hand[i]
        hand.sort()
    rng.shuffle(other.discard)
    bad = [x for x in range(len(CARDS.kinds)) if CARDS.is_bad(x)]
    for oven in other.ovens:
        for i, c in enumerate(oven):
            if not c.up and c.by != seat:
                oven[i] = OvenCard(bad[int(rng.integers(len(bad)))], False, c.by)
    return other


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_seat_cannot_see_what_is_hidden_from_it(n):
    """At every decision of a random game, the deciding seat's view (and greedy's choice)
    is the same in a copy where everything hidden from it differs; the other seats' hands
    did change."""
    rng = np.random.default_rng(n)
    state = GameState(CARDS, Rules(), n, deal(CARDS, np.random.default_rng(100 + n)))
    greedy = make_strategy("greedy")
    changed = checked = 0
    while not state.terminal:
        dec = state.decision()
        seat = dec.player
        other = _hide_swap(state, seat, rng)
        mine, theirs = PlayerView(state, seat), PlayerView(other, seat)
        assert mine.public() == theirs.public()
        assert greedy.choose(mine, dec, rng) == greedy.choose(theirs, dec, rng)
        checked += 1
        changed += any(state.hands[v] != other.hands[v] for v in state.others(seat))
        legal = dec.legal
        state.apply(legal[int(rng.integers(len(legal)))])
    assert checked > 50 and changed > checked // 2  # the hidden cards really differed


def test_what_the_view_shows():
    s = state_at(n=3, hands=[ks("masa", "rata"), ks("pan", "pan", "carne"), ()],
                 ovens=[(up("tomate"), down("mosca", 1)), (down("cabello", 0),),
                        (up("cebolla", 2), down("rata", 1))],
                 deck=ks("queso", "pollo"), discard=ks("lechuga"))  # fmt: skip
    v = PlayerView(s, 0)
    assert v.hand == ks("masa", "rata") and v.hand_sizes == (2, 3, 0)
    assert v.top == k("queso") and v.deck_size == 2 and v.discard_size == 1
    # its own face-down card in seat 1's oven is seen; the others are HIDDEN, even in its
    # own oven (placed by seat 1)
    assert v.ovens[0] == OvenView(s.dish[0], False, (up("tomate"), OvenCard(HIDDEN, False, 1)))
    assert v.ovens[1].cards == (down("cabello", 0),)
    assert v.ovens[2].cards == (up("cebolla", 2), OvenCard(HIDDEN, False, 1))
    assert v.piles[0] == (2, ks("masa", "tomate"))  # size, and the top card's back
    assert v.taken == () and v.victim == -1 and v.points == (0, 0, 0)
    assert not hasattr(v, "hands") and not hasattr(v, "deck") and not hasattr(v, "discard")
    assert PlayerView(s, 1).ovens[2].cards[1] == down("rata", 1)


def test_the_top_card_is_hidden_during_setup():
    s = GameState(CARDS, Rules(), 2, deal(CARDS, np.random.default_rng(1)))
    assert s.decision().phase == Phase.REDRAW and PlayerView(s, 0).top == -1
    while s.decision().phase in (Phase.REDRAW, Phase.DISH):
        s.apply(s.legal_actions()[0])
    assert PlayerView(s, 0).top == s.deck[0]


def _leaves(obj, path="view"):
    if isinstance(obj, (CardSet, Rules)):  # frozen and public: the rules of the game
        yield path, obj
        return
    if isinstance(obj, tuple):
        for i, x in enumerate(obj):
            yield from _leaves(x, f"{path}[{i}]")
        return
    yield path, obj


def test_the_view_is_a_copy_holding_no_reference_to_the_state():
    s = state_at(hands=[ks("masa", "rata"), ks("pan"), ()],
                 ovens=[(up("tomate"),), (), ()], deck=ks("queso") * 5)  # fmt: skip
    to_phase(s, Phase.DRAW)
    view = PlayerView(s, 0)
    for name in PlayerView.__slots__:
        for path, leaf in _leaves(getattr(view, name), name):
            assert isinstance(leaf, (int, bool, str, CardSet, Rules)), (path, type(leaf))
    assert not any(r is s for r in gc.get_referents(view))
    before = view.public()
    s.apply(k("queso"))  # the state moves on; the view does not
    s.hands[1].append(k("rata"))
    assert view.public() == before and view.hand == ks("masa", "rata")
