"""What one seat may know in Horno: the view a strategy decides from.

Open information (``docs/rules/horno.md``, "What each player can see"): every oven's dish
card and its face-up cards, where its face-down cards lie and who put them there; every
seat's completed dishes and their points (revealed when scored); the deck's top card
(once setup is over) and the deck's and the discard pile's sizes; every hand's size; each
dish pile's size and the ingredients its top card's back shows; the round and whose turn
it is. Private: the seat's own hand, the cards of a steal it is making (``taken``) and the
face-down cards it placed itself. Hidden from it: every other hand, the discard pile's
cards, every other face-down card (shown as :data:`HIDDEN`, even in its own oven) and the
rest of the deck and the piles.

The view copies what it shows when it is made (tuples of integers): it holds no reference a
strategy could follow to the state or to what the seat may not see.
"""

from __future__ import annotations

from typing import NamedTuple

from sims.games.horno.cards import CardSet
from sims.games.horno.engine import GameState, OvenCard
from sims.games.horno.rules import Rules

HIDDEN = -2
"""The kind shown for a face-down card the viewing seat did not place."""


class OvenView(NamedTuple):
    """One oven as a seat sees it: the dish card (-1 for none), whether it is closed, and
    its cards in slot order (a face-down card another seat placed has kind HIDDEN)."""

    dish: int
    closed: bool
    cards: tuple[OvenCard, ...]


class PlayerView:
    """Read-only snapshot of a game of Horno from one seat.

    Parameters
    ----------
    state : GameState
        The game; only what ``seat`` may see is copied.
    seat : int
        The viewing seat.
    """

    __slots__ = (
        "seat", "cards", "rules", "n_players", "round", "turn", "order", "face_up", "hand",
        "hand_sizes", "ovens", "scored", "points", "top", "deck_size", "discard_size",
        "piles", "taken", "victim", "slot",
    )  # fmt: skip

    def __init__(self, state: GameState, seat: int) -> None:
        self.seat = seat
        self.cards: CardSet = state.cards
        self.rules: Rules = state.rules
        self.n_players: int = state.n
        self.round: int = state.round
        self.turn: int = state.turn
        self.order: tuple[int, ...] = tuple(state.order)
        self.face_up: bool = state.face_up
        self.hand: tuple[int, ...] = tuple(state.hands[seat])
        self.hand_sizes: tuple[int, ...] = tuple(len(h) for h in state.hands)
        ovens = []
        for s, oven in enumerate(state.ovens):
            # an OvenCard is immutable: the seen ones are shared, the others masked
            cards = tuple(oven)
            if not all(c.up or c.by == seat for c in cards):
                cards = tuple(c if c.up or c.by == seat else OvenCard(HIDDEN, False, c.by)
                              for c in cards)  # fmt: skip
            ovens.append(OvenView(state.dish[s], state.closed[s], cards))
        self.ovens: tuple[OvenView, ...] = tuple(ovens)
        self.scored: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((r.dish, r.points) for r in done) for done in state.scored
        )
        self.points: tuple[int, ...] = tuple(sum(p for _, p in d) for d in self.scored)
        self.top: int = state.deck[0] if state.face_up and state.deck else -1
        self.deck_size: int = len(state.deck)
        self.discard_size: int = len(state.discard)
        self.piles: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
            (len(p), state.cards.dishes[p[0]].back if p else ()) for p in state.piles
        )
        thief = state.victim >= 0 and state.turn == seat
        self.taken: tuple[int, ...] = tuple(state.taken) if thief else ()
        self.victim: int = state.victim if thief else -1
        self.slot: int = state.slot if thief else -1

    def public(self) -> tuple:
        """Everything the view shows, as one comparable value (the hidden-information test
        compares the views of states that differ only in what the seat may not see)."""
        return tuple(getattr(self, k) for k in self.__slots__ if k not in ("cards", "rules"))

    # ------------------------------------------------------------------ helpers
    def others(self) -> list[int]:
        """Every other seat, ascending."""
        return [v for v in range(self.n_players) if v != self.seat]

    def completed_types(self, seat: int) -> set[int]:
        """The dish types ``seat`` has completed (public)."""
        return {self.cards.dishes[d].type for d, _ in self.scored[seat]}

    def oven_kinds(self, seat: int) -> set[int]:
        """The kinds the seat sees in ``seat``'s oven (HIDDEN left out)."""
        return {c.kind for c in self.ovens[seat].cards if c.kind != HIDDEN}

    def missing(self, seat: int) -> list[int]:
        """The ingredients ``seat``'s dish needs that its oven does not show (every
        ingredient lies face up, so this is exact), in the dish's order."""
        d = self.ovens[seat].dish
        if d < 0:
            return []
        present = self.oven_kinds(seat)
        return [k for k in self.cards.dishes[d].ingredients if k not in present]

    def has_wild(self, seat: int) -> bool:
        """Whether ``seat``'s oven holds the wild (always face up)."""
        return self.cards.wild in self.oven_kinds(seat)
