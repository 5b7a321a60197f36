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

**What the seat remembers.** Some of the hidden cards' places the seat knows from what it
saw happen: a card another seat drew from the face-up deck is in that seat's hand until
the seat sees it leave, the cards of a completed dish lie in the discard pile, and so on.
The view carries that memory as :attr:`PlayerView.known` (per seat, cards known to be in
its hand), :attr:`PlayerView.discard_known` and :attr:`PlayerView.deck_known`, each a
sorted tuple of kinds. The memory is *sound*: every card it names really is there (a test
checks it at every decision of many games). It is kept from the game's public record by
:class:`Memory`, one per game, read incrementally (``docs/strategies/horno.md``, "What a
seat remembers", gives the rules it follows). From the view alone, :meth:`unseen` counts
the cards whose place the seat does not know, and :meth:`determinize` deals them out into
one possible state of the hidden information. A view made with ``remember=False`` (for a
strategy that does not read the memory: the game asks each strategy's ``remembers``)
leaves the memory empty and costs nothing to keep.

The view copies what it shows when it is made (tuples of integers): it holds no reference a
strategy could follow to the state or to what the seat may not see.
"""

from __future__ import annotations

import weakref
from typing import Any, NamedTuple

import numpy as np

from sims.core.errors import SlicelabError
from sims.games.horno.cards import CardSet
from sims.games.horno.engine import PASS, Event, GameState, OvenCard, Phase
from sims.games.horno.rules import Rules

HIDDEN = -2
"""The kind shown for a face-down card the viewing seat did not place."""


class OvenView(NamedTuple):
    """One oven as a seat sees it: the dish card (-1 for none), whether it is closed, and
    its cards in slot order (a face-down card another seat placed has kind HIDDEN)."""

    dish: int
    closed: bool
    cards: tuple[OvenCard, ...]


_new = tuple.__new__

_PILES: dict[int, tuple[CardSet, tuple[tuple[int, ...], ...]]] = {}


def _pile(cards: CardSet, t: int) -> tuple[int, ...]:
    """``cards.pile(t)``, kept per card set (the set is kept too, so its id is not reused)."""
    got = _PILES.get(id(cards))
    if got is None or got[0] is not cards:
        if len(_PILES) > 64:
            _PILES.clear()
        got = _PILES[id(cards)] = (cards, tuple(cards.pile(u) for u in range(len(cards.types))))
    return got[1][t]


class _Masks(dict):
    def __missing__(self, by: int) -> OvenCard:
        card = self[by] = OvenCard(HIDDEN, False, by)
        return card


_MASKED = _Masks()
"""A face-down card as a seat that did not place it sees it, by who placed it."""


class World(NamedTuple):
    """One determinization: a complete assignment of what a seat cannot see, consistent
    with its view (:meth:`PlayerView.determinize`).

    Attributes
    ----------
    hands : tuple of tuple of int
        Every seat's hand, sorted (the viewing seat's is its own).
    ovens : tuple of tuple of OvenCard
        Every oven with each HIDDEN card given a garbage or radioactive kind.
    deck : tuple of int
        The deck, top card first (the visible top card first once the deck is face up).
    discard : tuple of int
        The discard pile.
    piles : tuple of tuple of int
        Each type's dish pile, top card first (the top's back is the one shown).
    """

    hands: tuple[tuple[int, ...], ...]
    ovens: tuple[tuple[OvenCard, ...], ...]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]


# ------------------------------------------------------------------------ memory
def _add(cards: tuple[int, ...], more) -> tuple[int, ...]:
    return tuple(sorted(cards + tuple(more)))


def _seen_out(cards: tuple[int, ...], k: int) -> tuple[int, ...]:
    """A card of kind ``k`` seen leaving: one copy fewer is known (if one was)."""
    if k in cards:
        i = cards.index(k)
        return cards[:i] + cards[i + 1 :]
    return cards


def _unseen_out(cards: tuple[int, ...], which=None) -> tuple[int, ...]:
    """A card of unseen kind left (one for which ``which(kind)`` holds, if given): any
    known one may be it, so one copy of each such kind is no longer known."""
    out, gone = [], set()
    for k in cards:
        if k not in gone and (which is None or which(k)):
            gone.add(k)
            continue
        out.append(k)
    return tuple(out) if len(out) != len(cards) else cards


class Memory:
    """What each seat remembers of a game's hidden cards, read from its public record
    (``GameState.log``) as the game goes on (see ``docs/strategies/horno.md``, "What a seat
    remembers"). For viewer ``w``: ``hands[w][v]`` the cards it knows are in seat ``v``'s
    hand, ``discard[w]`` in the discard pile, ``deck[w]`` in the deck (the top card
    possibly among them); ``drawn`` and ``placed`` count the current turn's draws and
    placements (public)."""

    __slots__ = ("pos", "n", "hands", "discard", "deck", "size", "credit", "reshuffled",
                 "drawn", "placed", "bad")  # fmt: skip

    def __init__(self, state: GameState) -> None:
        n = state.n
        self.pos = 0
        self.n = n
        self.hands = [[() for _ in range(n)] for _ in range(n)]
        self.discard: list[tuple[int, ...]] = [() for _ in range(n)]
        self.deck: list[tuple[int, ...]] = [() for _ in range(n)]
        self.size = len(state.deal.deck)
        self.credit = 0  # cards the next drawing event took from a deck since replaced
        self.reshuffled = False  # a reshuffle since the last drawing event
        self.drawn = self.placed = 0
        self.bad = state.cards.is_bad

    def update(self, state: GameState) -> Memory:
        log = state.log
        for i in range(self.pos, len(log)):
            self._event(log[i])
        self.pos = len(log)
        if self.size != len(state.deck):  # a state changed by hand: forget the deck
            self.size = len(state.deck)
            self.deck = [() for _ in range(self.n)]
        return self

    def _drawing(self, seat: int, cards: tuple[int, ...], seen: bool) -> None:
        """``cards`` went from the deck into ``seat``'s hand (``seen``: face up)."""
        fresh = max(0, len(cards) - self.credit)  # those from the current deck
        for w in range(self.n):
            d = self.deck[w]
            if d:
                # face up and from the current deck: exactly those cards left it
                if seen and fresh == len(cards):
                    for k in cards:
                        d = _seen_out(d, k)
                else:
                    for _ in range(fresh):
                        d = _unseen_out(d)
                self.deck[w] = d
        self.size -= fresh
        self.credit = 0
        self.reshuffled = False

    def _event(self, e: Event) -> None:
        what, s, v, n = e.what, e.seat, e.other, self.n
        hands = self.hands
        if what == "draw":
            self._drawing(s, e.cards, seen=True)
            self.drawn += 1
            for w in range(n):
                if w != s:
                    hands[w][s] = _add(hands[w][s], e.cards)
        elif what == "discard":
            for w in range(n):
                if w == s:
                    self.discard[w] = _add(self.discard[w], e.cards)
                else:
                    hands[w][s] = _unseen_out(hands[w][s])
        elif what == "prepare":
            self.placed += 1
            for w in range(n):
                if w != s:
                    hands[w][s] = _seen_out(hands[w][s], e.cards[0])
        elif what == "sabotage":
            for w in range(n):
                if w != s:
                    hands[w][s] = _unseen_out(hands[w][s], self.bad)
        elif what == "pantry":
            keep, given = e.info
            taken = e.cards
            for w in range(n):
                if w == s:  # the thief saw everything
                    h = hands[w][v]
                    for k in taken:
                        h = _seen_out(h, k)
                    back = list(taken)
                    if keep != PASS:
                        back.remove(keep)
                        if given != PASS:
                            back.append(given)
                    hands[w][v] = _add(h, back)
                elif w == v:  # the victim knows what left and came back
                    if keep != PASS:
                        h = hands[w][s]
                        if given != PASS:
                            h = _seen_out(h, given)
                        hands[w][s] = _add(h, (keep,))
                else:  # either may have lost a card of unseen kind
                    hands[w][v] = _unseen_out(hands[w][v])
                    hands[w][s] = _unseen_out(hands[w][s])
        elif what == "oven_steal":
            r, _, up = e.info
            for w in range(n):
                if w != s:
                    h = hands[w][s]
                    if r != PASS:
                        h = _seen_out(h, r)
                    if up:
                        h = _add(h, e.cards)
                    hands[w][s] = h
        elif what == "clean":
            shown = tuple(k for k, up in zip(e.cards, e.info, strict=True) if up)
            if shown:
                for w in range(n):
                    if w != s:
                        hands[w][s] = _add(hands[w][s], shown)
        elif what == "complete":
            for w in range(n):
                self.discard[w] = _add(self.discard[w], e.cards)
        elif what == "reshuffle":
            self.credit += self.size
            self.size = e.info[0]
            self.deck = self.discard
            self.discard = [() for _ in range(n)]
            self.reshuffled = True
        elif what == "turn":
            self.drawn = self.placed = 0
        elif what == "deal":
            self._drawing(s, e.cards, seen=False)
        elif what == "redraw":
            out, got = e.cards, e.info[0]
            if not self.reshuffled:  # else its discards may be in the new deck
                self.discard[s] = _add(self.discard[s], out)
            for w in range(n):
                if w != s:
                    for _ in out:
                        hands[w][s] = _unseen_out(hands[w][s])
            self._drawing(s, got, seen=False)


class _Snapshot:
    """Per game: its :class:`Memory` (made on first use) and the parts of a view that
    change only with the record (the completed dishes, the piles), kept while they are
    unchanged so that every view need not rebuild them."""

    __slots__ = ("order", "_memory", "_scored_key", "_scored", "_piles_key", "_piles")

    def __init__(self, state: GameState) -> None:
        self.order = tuple(state.order)
        self._memory: Memory | None = None
        self._scored_key: tuple[int, ...] | None = None
        self._piles_key: tuple[int, ...] | None = None  # the piles' sizes

    def memory(self, state: GameState) -> Memory:
        if self._memory is None:
            self._memory = Memory(state)
        return self._memory.update(state)

    def scored(self, state: GameState):
        key = tuple(map(len, state.scored))  # a seat's completed dishes only grow
        if key != self._scored_key:
            scored = tuple(tuple((r.dish, r.points) for r in done) for done in state.scored)
            self._scored = (scored, tuple(sum(p for _, p in d) for d in scored))
            self._scored_key = key
        return self._scored

    def piles(self, state: GameState):
        key = tuple(map(len, state.piles))  # a pile only ever loses its top card
        if key != self._piles_key:
            dishes = state.cards.dishes
            self._piles = tuple((len(p), dishes[p[0]].back if p else ()) for p in state.piles)
            self._piles_key = key
        return self._piles


_SNAPSHOTS: weakref.WeakKeyDictionary[GameState, _Snapshot] = weakref.WeakKeyDictionary()


_LAST: list = [lambda: None, None]  # the last game asked for (a weak reference) and its snapshot


def _snapshot(state: GameState) -> _Snapshot:
    if _LAST[0]() is state:  # a game asks many times in a row: skip the weak dict
        return _LAST[1]
    snap = _SNAPSHOTS.get(state)
    if snap is None:
        snap = _SNAPSHOTS[state] = _Snapshot(state)
    _LAST[0], _LAST[1] = weakref.ref(state), snap
    return snap


def memory(state: GameState) -> Memory:
    """The game's :class:`Memory`, brought up to date with its record."""
    return _snapshot(state).memory(state)


# ------------------------------------------------------------------------ the view
def oven_views(state: GameState, seat: int) -> tuple[OvenView, ...]:
    """Every oven as ``seat`` sees it."""
    ovens = []
    for oven, dish, closed in zip(state.ovens, state.dish, state.closed, strict=True):
        # an OvenCard is immutable: the seen ones are shared, the others masked
        cards = tuple(oven)
        for c in cards:
            if not c.up and c.by != seat:
                cards = tuple([c if c.up or c.by == seat else _MASKED[c.by] for c in cards])
                break
        ovens.append(_new(OvenView, (dish, closed, cards)))  # OvenView(...) without its frame
    return tuple(ovens)


class LightView(NamedTuple):
    """The little a strategy needs for a decision it makes from its own hand size alone
    (the heuristic's draws while ``draw`` < 0, its restock discards while the hand is
    small): strictly less than a :class:`PlayerView` shows, and far cheaper to make. A
    strategy that can use one says so with ``light(view, decision)``."""

    seat: int
    n_players: int
    hand_size: int


def view_for(strategy: Any, state: GameState, seat: int, remember: bool) -> PlayerView | LightView:
    """What ``strategy`` is shown at ``seat``'s pending decision: a :class:`LightView` when
    its ``light(view, decision)`` says that suffices, else the seat's :class:`PlayerView`
    (with its memory if ``remember``)."""
    light = getattr(strategy, "light", None)
    if light is not None:
        lv = LightView(seat, state.n, len(state.hands[seat]))
        if light(lv, state.decision()):
            return lv
    return PlayerView(state, seat, remember)


class PlayerView:
    """Read-only snapshot of a game of Horno from one seat.

    Parameters
    ----------
    state : GameState
        The game; only what ``seat`` may see is copied.
    seat : int
        The viewing seat.
    remember : bool
        Whether to fill in the seat's memory (:attr:`known`, :attr:`discard_known`,
        :attr:`deck_known`; else all empty). Every game's views remember; a search
        playout, whose strategies do not read it, may skip it.

    Attributes
    ----------
    known : tuple of tuple of int
        Per seat, the cards this seat knows are in that seat's hand (its own: its hand).
    discard_known, deck_known : tuple of int
        Cards it knows lie in the discard pile, and in the deck below the top card.
    drawn, placed : int
        Cards drawn and placed in the current turn so far.
    kept : int
        At its GIVE decision, the kind it kept (its KEEP action); else -1.
    """

    __slots__ = (
        "seat", "cards", "rules", "n_players", "round", "turn", "order", "face_up", "hand",
        "hand_sizes", "ovens", "scored", "points", "top", "deck_size", "discard_size",
        "piles", "taken", "victim", "slot", "known", "discard_known", "deck_known", "drawn",
        "placed", "kept",
    )  # fmt: skip

    def __init__(self, state: GameState, seat: int, remember: bool = True) -> None:
        snap = _snapshot(state)
        self.seat = seat
        self.cards: CardSet = state.cards
        self.rules: Rules = state.rules
        self.n_players: int = state.n
        self.round: int = state.round
        self.turn: int = state.turn
        self.order: tuple[int, ...] = snap.order
        self.face_up: bool = state.face_up
        self.hand: tuple[int, ...] = tuple(state.hands[seat])
        self.hand_sizes: tuple[int, ...] = tuple(map(len, state.hands))
        self.ovens: tuple[OvenView, ...] = oven_views(state, seat)
        self.scored: tuple[tuple[tuple[int, int], ...], ...]
        self.points: tuple[int, ...]
        self.scored, self.points = snap.scored(state)
        self.top: int = state.deck[0] if state.face_up and state.deck else -1
        self.deck_size: int = len(state.deck)
        self.discard_size: int = len(state.discard)
        self.piles: tuple[tuple[int, tuple[int, ...]], ...] = snap.piles(state)
        thief = state.victim >= 0 and state.turn == seat
        self.taken: tuple[int, ...] = tuple(state.taken) if thief else ()
        self.victim: int = state.victim if thief else -1
        self.slot: int = state.slot if thief else -1
        pending = state.decision()
        mine = pending is not None and pending.player == seat
        self.kept: int = -1
        if mine and pending.phase == Phase.GIVE:  # a game resumed at GIVE keeps it in position0
            self.kept = state.history[-1] if state.history else state.position0.kept
        if not remember:
            known = [()] * state.n
            known[seat] = self.hand
            self.known = tuple(known)
            self.discard_known = self.deck_known = ()
            self.drawn = self.placed = 0
            return
        m = snap.memory(state)
        self.drawn, self.placed = m.drawn, m.placed
        known = list(m.hands[seat])
        known[seat] = self.hand
        if self.taken and self.slot < 0:  # a pantry steal in progress: not in the hand
            h = known[self.victim]
            for k in self.taken:
                h = _seen_out(h, k)
            known[self.victim] = h
        self.known: tuple[tuple[int, ...], ...] = tuple(known)
        discard = m.discard[seat]
        if mine and pending.phase == Phase.REDRAW:  # its own redraw so far
            out = []
            for p, ph, a in reversed(state.trace):
                if p != seat or ph != Phase.REDRAW:
                    break
                out.append(a)
            if out and not m.reshuffled:
                discard = _add(discard, out)
        self.discard_known: tuple[int, ...] = discard
        deck = m.deck[seat]
        self.deck_known: tuple[int, ...] = _seen_out(deck, self.top) if self.top >= 0 else deck

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

    # ------------------------------------------------------- the hidden information
    def unseen(self, remembered: bool = True) -> list[int]:
        """Per card kind, the cards whose place this seat does not know: every copy, less
        its hand, every oven card it sees, the deck's top card, the cards it remembers
        (in other hands, the discard pile and the deck; with ``remembered=False`` these
        count as unseen) and a pantry steal's cards in its hands. They are the other
        hands' unknown cards, the HIDDEN oven cards, the rest of the deck and of the
        discard pile."""
        counts = [k.copies for k in self.cards.kinds]
        for k in self.hand:
            counts[k] -= 1
        for oven in self.ovens:
            for c in oven.cards:
                if c.kind != HIDDEN:
                    counts[c.kind] -= 1
        if self.top >= 0:
            counts[self.top] -= 1
        if remembered:
            for v, cards in enumerate(self.known):
                if v != self.seat:
                    for k in cards:
                        counts[k] -= 1
            for k in self.discard_known + self.deck_known:
                counts[k] -= 1
        if self.slot < 0:  # a pantry steal's cards (an oven steal's is still in the oven)
            for k in self.taken:
                counts[k] -= 1
        return counts

    def pile_cards(self, t: int) -> list[int]:
        """The dish cards that may be in type ``t``'s pile: the type's dishes (file order)
        that no oven shows and no seat has completed."""
        out = {o.dish for o in self.ovens} | {d for done in self.scored for d, _ in done}
        return [d for d in _pile(self.cards, t) if d not in out]

    def determinize(self, rng: np.random.Generator) -> World:
        """One possible state of everything this seat cannot see, drawn from ``rng``
        (``docs/strategies/horno.md``, "search": the draws, in order): every other hand
        holds the cards the seat remembers in it plus unknown ones up to its size, every
        HIDDEN oven card is a garbage or radioactive card, the deck keeps its visible top
        card and its remembered cards, the discard pile its remembered cards, and each dish
        pile the dishes it may hold with a top card showing the back on view. The unknown
        cards are exactly :meth:`unseen`'s, dealt uniformly at random under those
        constraints.

        Raises
        ------
        SlicelabError
            If the view's counts do not add up (a view made with ``remember=False``, or
            a state changed by hand).
        """
        cards, me, n = self.cards, self.seat, self.n_players
        counts = self.unseen()
        pool = [k for k, c in enumerate(counts) for _ in range(c)]
        hidden = [(s, j) for s, oven in enumerate(self.ovens)
                  for j, c in enumerate(oven.cards) if c.kind == HIDDEN]  # fmt: skip
        need = {v: self.hand_sizes[v] - len(self.known[v]) for v in range(n) if v != me}
        deck_unknown = self.deck_size - (self.top >= 0) - len(self.deck_known)
        discard_unknown = self.discard_size - len(self.discard_known)
        slots = len(hidden) + sum(need.values()) + deck_unknown + discard_unknown
        if min(counts) < 0 or min(need.values(), default=0) < 0 or slots != len(pool) \
                or deck_unknown < 0 or discard_unknown < 0:  # fmt: skip
            raise SlicelabError(
                "this Horno view cannot be determinized: its counts of unseen cards do not "
                "add up (a view made with remember=False, or a state changed by hand)"
            )
        bad = [i for i, k in enumerate(pool) if cards.is_bad(k)]
        if len(bad) < len(hidden):
            raise SlicelabError("this Horno view shows more face-down cards than unseen "
                                "garbage and radioactive cards")  # fmt: skip
        # 1. the HIDDEN oven cards, from the unseen garbage and radioactive cards
        chosen = [bad[i] for i in rng.permutation(len(bad))[: len(hidden)]]
        down = [pool[i] for i in chosen]
        taken = set(chosen)
        rest = [k for i, k in enumerate(pool) if i not in taken]
        # 2. the others: the other hands (ascending seat), the deck, the discard pile
        rest = [rest[i] for i in rng.permutation(len(rest))]
        hands = []
        at = 0
        for v in range(n):
            if v == me:
                hands.append(self.hand)
                continue
            hands.append(tuple(sorted(self.known[v] + tuple(rest[at : at + need[v]]))))
            at += need[v]
        below = list(self.deck_known) + rest[at : at + deck_unknown]
        at += deck_unknown
        below = [below[i] for i in rng.permutation(len(below))]
        deck = ([self.top] if self.top >= 0 else []) + below
        discard = list(self.discard_known) + rest[at:]
        discard = [discard[i] for i in rng.permutation(len(discard))]
        ovens = []
        it = iter(down)
        for oven in self.ovens:
            ovens.append(tuple(OvenCard(next(it), False, c.by) if c.kind == HIDDEN else c
                               for c in oven.cards))  # fmt: skip
        # 3. the dish piles, type by type
        piles = []
        for t, (size, back) in enumerate(self.piles):
            inside = self.pile_cards(t)
            if len(inside) > size:  # a scripted position: any `size` of them
                inside = [inside[i] for i in sorted(rng.permutation(len(inside))[:size])]
            if not inside:
                piles.append(())
                continue
            tops = [d for d in inside if cards.dishes[d].back == back] or inside
            top = tops[int(rng.integers(0, len(tops)))]
            under = [d for d in inside if d != top]
            piles.append((top, *[under[i] for i in rng.permutation(len(under))]))
        return World(tuple(hands), tuple(ovens), tuple(deck), tuple(discard), tuple(piles))
