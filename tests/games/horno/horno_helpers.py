"""Scripted Horno positions for the rule tables: card names for kinds, a chance source
that plays back chosen values, and a state resumed at the start of a chosen turn."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from sims.games.horno.cards import default_cards
from sims.games.horno.engine import PASS, Deal, GameState, OvenCard, Phase, Position
from sims.games.horno.rules import Rules

CARDS = default_cards()
FILLER = "arroz"
"""The card the default scripted deck is made of (tests that draw choose their own)."""


def k(name: str) -> int:
    """The kind called ``name`` (``"wild"`` for the wild)."""
    return CARDS.wild if name == "wild" else CARDS.kind(name)


def ks(*names: str) -> tuple[int, ...]:
    return tuple(k(n) for n in names)


def d(name: str) -> int:
    """The dish card called ``name``."""
    return CARDS.dish(name)


def up(name: str, by: int = 0) -> OvenCard:
    """A face-up oven card placed by ``by``."""
    return OvenCard(k(name), True, by)


def down(name: str, by: int = 1) -> OvenCard:
    """A face-down (sabotage) oven card placed by ``by``."""
    return OvenCard(k(name), False, by)


class ScriptedChance:
    """Plays back scripted chance: ``integers`` returns the next of ``ints`` (checked to be
    in range), ``shuffle`` applies the next of ``perms`` (a permutation; default the
    identity)."""

    def __init__(self, ints: Iterable[int] = (), perms: Iterable[Sequence[int]] = ()) -> None:
        self.ints = list(ints)
        self.perms = [list(p) for p in perms]
        self.calls: list[tuple] = []

    def integers(self, low: int, high: int) -> int:
        value = self.ints.pop(0)
        assert low <= value < high, (value, low, high)
        self.calls.append(("integers", low, high, value))
        return value

    def shuffle(self, arr: np.ndarray) -> None:
        perm = self.perms.pop(0) if self.perms else list(range(len(arr)))
        assert sorted(perm) == list(range(len(arr))), perm
        arr[:] = np.asarray(arr)[perm]
        self.calls.append(("shuffle", len(arr)))


def state_at(
    rules: Rules | None = None,
    *,
    n: int = 3,
    hands: Sequence[Sequence[int]] | None = None,
    ovens: Sequence[Sequence[OvenCard]] | None = None,
    dish: Sequence[int] | None = None,
    closed: Sequence[bool] | None = None,
    deck: Sequence[int] | None = None,
    piles: Sequence[Sequence[int]] | None = None,
    discard: Sequence[int] = (),
    round: int = 1,
    turn: int = 0,
    chance: ScriptedChance | None = None,
    scored=None,
) -> GameState:
    """A state resumed at the start of ``turn``'s turn in ``round``. Defaults: empty
    hands and ovens; seats 0, 1, 2, 3 cooking Pizza Margarita, Kabuki Yakitori, Sopa
    Mademoiselle, Burrito Clásico (taken from their piles); a deck of 40 filler cards; the
    piles unshuffled (file order) without the dishes in play."""
    rules = rules or Rules()
    default_dishes = [d("Pizza Margarita"), d("Kabuki Yakitori"), d("Sopa Mademoiselle"),
                      d("Burrito Clásico")]  # fmt: skip
    dish = list(dish) if dish is not None else default_dishes[:n]
    if piles is None:
        piles = [[x for x in CARDS.pile(t) if x not in dish] for t in range(len(CARDS.types))]
    deal = Deal(
        tuple(deck) if deck is not None else (k(FILLER),) * 40,
        tuple(tuple(p) for p in piles),
        chance if chance is not None else ScriptedChance(),
    )
    position = Position(
        round=round,
        turn=turn,
        hands=tuple(tuple(h) for h in hands) if hands is not None else ((),) * n,
        ovens=tuple(tuple(o) for o in ovens) if ovens is not None else ((),) * n,
        dish=tuple(dish),
        closed=tuple(closed) if closed is not None else (False,) * n,
        scored=tuple(tuple(x) for x in scored) if scored is not None else (),
        discard=tuple(discard),
    )
    return GameState(CARDS, rules, n, deal, position)


def to_phase(state: GameState, phase: Phase, seat: int | None = None) -> GameState:
    """Pass every decision until one of ``phase`` (by ``seat``, if given) is pending."""
    while True:
        dec = state.decision()
        assert dec is not None, f"the game ended before {phase.name}"
        if dec.phase == phase and (seat is None or dec.player == seat):
            return state
        assert PASS in dec.legal, f"cannot pass {dec.phase.name}: {dec.legal}"
        state.apply(PASS)


def run(state: GameState, *actions: int) -> GameState:
    """Apply ``actions`` in order."""
    for a in actions:
        state.apply(a)
    return state


def finish(state: GameState) -> GameState:
    """Pass (or take the first legal action) to the end of the game."""
    while not state.terminal:
        legal = state.legal_actions()
        state.apply(PASS if PASS in legal else legal[0])
    return state
