"""Horno's reference engine: a pure, readable implementation of ``docs/rules/horno.md``
(2–4 players, 6 rounds).

The flow is a generator that yields a :class:`Decision` whenever a seat has a real choice
(two or more legal actions; a forced move is applied silently). Every action is an
integer; ``PASS`` (-1) always means "stop", "nothing" or "give both back". Card actions
are the card's **kind** (``cards.CardSet.kinds``: ingredients, the wild, garbage,
radioactive, in card-set order). The phases, in the order a game meets them:

Setup (round 0)

- REDRAW (each seat in turn order): a kind in hand to discard, or PASS to keep the rest;
  the seat then draws as many cards as it discarded, face down.
- DISH (each seat in turn order; later, after every completion): a dish type ``t``
  (index in ``cards.types``) whose pile has a card (and, rule ``repeat_types``, that the
  seat has not completed); the top card of that pile goes face up into its oven.

Each turn (rounds 1..6, the seats in turn order from ``rules.first_player``)

1. DISCARD: a kind in hand to discard face down, or PASS (then the draws).
   DRAW: the kind of the deck's (visible) top card to take it, or PASS; at most 3
   draws, never above 7 cards in hand.
2. ACTION: PASS, or one of
   ``PANTRY_STEAL + v`` (100 + v) — pantry steal from seat ``v``;
   ``OVEN_STEAL + 10 v + j`` (200 + 10 v + j) — oven steal of slot ``j`` of seat ``v``'s
   oven; ``OVEN_CLEAN + j`` (300 + j) — take slot ``j`` of one's own oven to hand.
   Then, by the action:
   KEEP (pantry steal): the kind of one taken card to keep, or PASS to give both back;
   GIVE (pantry steal, having kept one): the kind of one's own card given to the victim;
   REPLACE (oven steal): the kind put in the taken card's place;
   CLEAN_MORE (cleaning a full oven): ``OVEN_CLEAN + j`` for a second card, or PASS.
3. PREPARE: a kind to place face up in one's oven, or PASS; at most 3, space permitting.
   A completed dish ends the step (and asks DISH, unless it is the last round: the oven
   closes).
4. SABOTAGE: PASS, or ``SABOTAGE_CARD + 100 v + k`` (1000 + 100 v + k): put garbage or
   radioactive card ``k`` face down in seat ``v``'s oven.

Oven slots are the oven's cards in the order they went in (``GameState.ovens[s][j]``); a
replacement takes the stolen card's slot, a cleaned card's slot closes up. Legal lists are
in ascending order with PASS first.

Chance comes only from the deal's generator: :func:`deal` shuffles the deck and then each
type's dish pile (each a ``rng.shuffle`` of ``arange``), and the game then draws from the
same generator, when the rules call for it, a pantry steal's cards (``rng.integers(0, h)``,
an index into the victim's hand of ``h`` cards sorted by kind, once per card taken) and a
reshuffle's order (``rng.shuffle`` of ``arange`` over the discard pile in the order its
cards were discarded). So a state is a pure function of the deal, its generator's state
after the shuffles and the actions (:meth:`GameState.clone` replays them). A game may also
be resumed from an explicit :class:`Position` at the start of a turn (the rule tests
script their positions so).
"""

from __future__ import annotations

import copy
from bisect import insort
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any, NamedTuple

import numpy as np

from sims.core.errors import SlicelabError
from sims.games.flow import DecisionFlow
from sims.games.horno.cards import GARBAGE, INGREDIENT, RADIOACTIVE, CardSet
from sims.games.horno.rules import (
    DEAL,
    DRAW_LIMIT,
    PREPARE_LIMIT,
    Rules,
    check_oven,
    check_players,
    check_seat,
)

PASS = -1
PANTRY_STEAL = 100
OVEN_STEAL = 200
OVEN_CLEAN = 300
SABOTAGE_CARD = 1000


class Phase(IntEnum):
    """Kinds of decision (see the module docstring)."""

    REDRAW = 0
    DISH = 1
    DISCARD = 2
    DRAW = 3
    ACTION = 4
    KEEP = 5
    GIVE = 6
    REPLACE = 7
    CLEAN_MORE = 8
    PREPARE = 9
    SABOTAGE = 10


def pantry_steal(victim: int) -> int:
    """The ACTION of a pantry steal from ``victim``."""
    return PANTRY_STEAL + victim


def oven_steal(victim: int, slot: int) -> int:
    """The ACTION of an oven steal of ``slot`` in ``victim``'s oven."""
    return OVEN_STEAL + 10 * victim + slot


def oven_clean(slot: int) -> int:
    """The ACTION (or CLEAN_MORE) taking ``slot`` of one's own oven."""
    return OVEN_CLEAN + slot


def sabotage(victim: int, kind: int) -> int:
    """The SABOTAGE action putting card ``kind`` into ``victim``'s oven."""
    return SABOTAGE_CARD + 100 * victim + kind


def decode(action: int) -> tuple[str, int, int]:
    """An ACTION, CLEAN_MORE or SABOTAGE action as ``(what, seat, slot or kind)``:
    ``("pass", -1, -1)``, ``("pantry", v, -1)``, ``("oven", v, j)``, ``("clean", -1, j)``,
    ``("sabotage", v, k)``."""
    if action == PASS:
        return ("pass", -1, -1)
    if action >= SABOTAGE_CARD:
        return ("sabotage", (action - SABOTAGE_CARD) // 100, (action - SABOTAGE_CARD) % 100)
    if action >= OVEN_CLEAN:
        return ("clean", -1, action - OVEN_CLEAN)
    if action >= OVEN_STEAL:
        return ("oven", (action - OVEN_STEAL) // 10, (action - OVEN_STEAL) % 10)
    return ("pantry", action - PANTRY_STEAL, -1)


class OvenCard(NamedTuple):
    """A card in an oven: its kind, whether it lies face up, and the seat that put it
    there."""

    kind: int
    up: bool
    by: int


class Decision(NamedTuple):
    """A pending choice: who decides, what kind, and the legal actions."""

    player: int
    phase: Phase
    legal: tuple[int, ...]


@dataclass(frozen=True)
class Deal:
    """Everything chance decides up front, and the source of the rest.

    Attributes
    ----------
    deck : tuple of int
        The shuffled deck's kinds, top card first.
    piles : tuple of tuple of int
        Per dish type, its shuffled dish cards, top card first.
    chance : object
        The generator the game draws its later chance from (pantry steals, reshuffles):
        anything with ``integers(low, high)`` and ``shuffle(array)``, as
        ``numpy.random.Generator``.
    """

    deck: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    chance: Any = None


def deal(cards: CardSet, rng: np.random.Generator) -> Deal:
    """Shuffle the deck, then each type's dish pile in type order (each a
    ``rng.shuffle`` of ``arange(n)`` mapping position to card); ``rng`` stays the game's
    source of later chance."""
    base = cards.deck
    order = np.arange(len(base))
    rng.shuffle(order)
    deck = tuple(base[i] for i in order)
    piles = []
    for t in range(len(cards.types)):
        pile = cards.pile(t)
        order = np.arange(len(pile))
        rng.shuffle(order)
        piles.append(tuple(pile[i] for i in order))
    return Deal(deck, tuple(piles), rng)


@dataclass(frozen=True)
class Scored:
    """A dish scored when completed: the dish, the round, and its points by part
    (``garbage`` and ``penalty`` are ≤ 0) with the oven's cards as they were revealed."""

    seat: int
    dish: int
    round: int
    base: int
    garbage: int
    bonus: int
    penalty: int
    cards: tuple[int, ...]

    @property
    def points(self) -> int:
        return self.base + self.garbage + self.bonus + self.penalty


@dataclass(frozen=True)
class Unfinished:
    """A dish still in the oven at the end: its correct cards (+2 each) and its garbage
    and non-matching radioactive cards (−1 each)."""

    seat: int
    dish: int
    correct: int
    bad: int
    cards: tuple[int, ...]

    @property
    def points(self) -> int:
        return 2 * self.correct - self.bad


@dataclass
class Tally:
    """What one seat did and suffered over the game (the per-seat result columns)."""

    pantry_steals: int = 0
    pantry_stolen: int = 0
    oven_steals: int = 0
    oven_stolen: int = 0
    sabotages: int = 0
    sabotaged: int = 0
    cleans: int = 0
    cleaned: int = 0  # cards taken back by cleaning
    drawn: int = 0  # cards drawn in Restock steps
    discarded: int = 0  # cards discarded in Restock steps
    placed: int = 0  # cards placed in Prepare steps
    redrawn: int = 0  # cards exchanged at setup
    first_type: int = -1  # the type of its first dish


@dataclass
class Event:
    """One thing that happened, for replays and tests: ``what`` names it, ``seat`` did it,
    ``other`` is the other seat involved (-1 for none), ``cards`` the kinds involved (which
    a spectator may not see: see ``replay.py``) and ``info`` any numbers."""

    what: str
    seat: int = -1
    other: int = -1
    cards: tuple[int, ...] = ()
    info: tuple[Any, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Position:
    """An explicit position at the start of a turn, to resume a game from (scripted rule
    tests, analyses): every per-seat field has one entry per seat (empty: the default —
    no cards, no dish, not closed, nothing scored). The deal passed with it gives the deck
    and the piles; the deck lies face up.

    Attributes
    ----------
    round : int
        1 to ``rules.rounds``.
    turn : int
        The seat whose turn starts (turns before it in the round are over).
    hands, ovens, dish, closed, scored, discard
        As :class:`GameState`'s attributes (an oven card may be a ``(kind, up, by)``
        tuple).
    """

    round: int = 1
    turn: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    ovens: tuple[tuple[tuple[int, bool, int], ...], ...] = ()
    dish: tuple[int, ...] = ()
    closed: tuple[bool, ...] = ()
    scored: tuple[tuple[Scored, ...], ...] = ()
    discard: tuple[int, ...] = ()


class GameState(DecisionFlow):
    """A game of Horno in progress.

    Parameters
    ----------
    cards : CardSet
    rules : Rules
    n_players : int
        2 to 4.
    the_deal : Deal
        From :func:`deal` (or scripted by a test).
    """

    def __init__(
        self,
        cards: CardSet,
        rules: Rules,
        n_players: int,
        the_deal: Deal,
        position: Position | None = None,
    ) -> None:
        check_players(n_players)
        check_seat(rules, n_players)
        check_oven(rules, cards)
        if len(the_deal.piles) != len(cards.types):
            raise SlicelabError("a Horno deal needs one dish pile per dish type")
        self.cards = cards
        self.rules = rules
        self.n = n_players
        self.deal = the_deal
        self._chance0 = copy.deepcopy(the_deal.chance)
        self.chance = the_deal.chance
        self.order = [(rules.first_player + i) % n_players for i in range(n_players)]
        self.deck = list(the_deal.deck)  # top card first
        self.piles = [list(p) for p in the_deal.piles]  # top card first
        self.discard: list[int] = []  # in the order discarded
        self.hands: list[list[int]] = [[] for _ in range(n_players)]  # sorted kinds
        self.ovens: list[list[OvenCard]] = [[] for _ in range(n_players)]
        self.dish = [-1] * n_players  # the dish card in each oven (-1: none)
        self.closed = [False] * n_players
        self.scored: list[list[Scored]] = [[] for _ in range(n_players)]
        self.unfinished: list[Unfinished | None] = [None] * n_players
        self.tally = [Tally() for _ in range(n_players)]
        self.round = 0  # 0 during setup, then 1..rules.rounds
        self.turn = -1  # the seat whose turn it is (-1 during setup)
        self.face_up = False  # the deck lies face up (from the end of setup)
        self.reshuffles = 0
        self.taken: list[int] = []  # cards in the thief's hands during a steal
        self.victim = -1  # the seat robbed by the steal in progress
        self.slot = -1  # the oven slot an oven steal in progress takes
        self.log: list[Event] = []
        self.over = False
        self._ingredients = [set(d.ingredients) for d in cards.dishes]
        self.position0 = position
        if position is not None:
            self._resume(position)
        self._start()

    def _resume(self, p: Position) -> None:
        """Lay out an explicit position (the deal gives the deck and the piles)."""
        n = self.n
        for name in ("hands", "ovens", "dish", "closed", "scored"):
            value = getattr(p, name)
            if value and len(value) != n:
                raise SlicelabError(f"a Horno position's {name} needs one entry per seat")
        if not 0 <= p.turn < n:
            raise SlicelabError(f"a Horno position's turn {p.turn} is not a seat")
        if not 1 <= p.round <= self.rules.rounds:
            raise SlicelabError(f"a Horno position's round must be 1 to {self.rules.rounds}")
        self.hands = [sorted(h) for h in p.hands] if p.hands else self.hands
        if p.ovens:
            self.ovens = [[OvenCard(*c) for c in o] for o in p.ovens]
        self.dish = list(p.dish) if p.dish else self.dish
        self.closed = list(p.closed) if p.closed else self.closed
        self.scored = [list(x) for x in p.scored] if p.scored else self.scored
        self.discard = list(p.discard)
        self.face_up = True

    # ----------------------------------------------------------------- public API
    def clone(self) -> GameState:
        """An independent copy, rebuilt by replaying the same deal (with its generator as
        it stood after the shuffles) and actions."""
        other = GameState(
            self.cards,
            self.rules,
            self.n,
            replace(self.deal, chance=copy.deepcopy(self._chance0)),
            self.position0,
        )
        for a in self.history:
            other.apply(a)
        return other

    def others(self, seat: int) -> list[int]:
        """Every other seat, ascending."""
        return [v for v in range(self.n) if v != seat]

    def position(self, seat: int) -> int:
        """The seat's place in turn order (0 = first)."""
        return self.order.index(seat)

    def points(self, seat: int) -> int:
        """The seat's points from the dishes it completed so far (public)."""
        return sum(r.points for r in self.scored[seat])

    def completed_types(self, seat: int) -> set[int]:
        """The dish types the seat has completed."""
        return {self.cards.dishes[r.dish].type for r in self.scored[seat]}

    def dish_types(self, seat: int) -> list[int]:
        """The types the seat may take its next dish from (rules ``repeat_types``,
        ``no_dish_left``)."""
        done = set() if self.rules.repeat_types else self.completed_types(seat)
        allowed = [t for t, p in enumerate(self.piles) if p and t not in done]
        if not allowed and self.rules.no_dish_left == "repeat":
            allowed = [t for t, p in enumerate(self.piles) if p]
        return allowed

    def is_complete(self, seat: int, oven: Sequence[OvenCard] | None = None) -> bool:
        """Whether ``oven`` (the seat's own by default) completes the seat's dish: all its
        k ingredients, or the wild and k − 1 of them."""
        oven = self.ovens[seat] if oven is None else oven
        need = self._ingredients[self.dish[seat]]
        present = {c.kind for c in oven}
        have = len(need & present)
        k = len(need)
        return have == k or (self.cards.wild in present and have >= k - 1)

    def placeable(self, seat: int) -> list[int]:
        """The kinds in the seat's hand it may place in its oven now (ascending)."""
        d = self.dish[seat]
        if d < 0 or self.closed[seat] or len(self.ovens[seat]) >= self.rules.oven_limit:
            return []
        need = self._ingredients[d]
        dtype = self.cards.dishes[d].type
        present = {c.kind for c in self.ovens[seat]}
        shown = {c.kind for c in self.ovens[seat] if c.up}
        out = []
        for k in sorted(set(self.hands[seat])):
            kind = self.cards.kinds[k]
            if kind.cls == INGREDIENT:
                ok = k in need and k not in present
            elif kind.cls == RADIOACTIVE:
                ok = kind.type == dtype and (self.rules.second_radioactive or k not in shown)
            elif k == self.cards.wild:
                ok = k not in present
            else:
                ok = False
            if ok:
                out.append(k)
        return out

    def replacements(self, thief: int, victim: int, slot: int) -> list[int]:
        """The kinds in the thief's hand that may replace ``slot`` of the victim's oven:
        an ingredient the victim's dish needs and its oven lacks once the card is taken,
        or the wild if it then holds none (rule ``steal_completes``), ascending."""
        d = self.dish[victim]
        rest = self.ovens[victim][:slot] + self.ovens[victim][slot + 1 :]
        present = {c.kind for c in rest}
        need = {k for k in self._ingredients[d] if k not in present}
        if self.cards.wild not in present:
            need.add(self.cards.wild)
        out = sorted(k for k in set(self.hands[thief]) if k in need)
        if self.rules.steal_completes == "forbidden":
            out = [k for k in out
                   if not self.is_complete(victim, [*rest, OvenCard(k, True, thief)])]  # fmt: skip
        return out

    def _replaceable(self, thief: int, victim: int, slot: int) -> bool:
        """``bool(self.replacements(thief, victim, slot))``, without building the list."""
        if self.rules.steal_completes == "forbidden":
            return bool(self.replacements(thief, victim, slot))
        present = {c.kind for i, c in enumerate(self.ovens[victim]) if i != slot}
        need = self._ingredients[self.dish[victim]]
        wild = self.cards.wild
        return any(k not in present and (k in need or k == wild) for k in self.hands[thief])

    def oven_targets(self, thief: int) -> list[tuple[int, int]]:
        """The ``(victim, slot)`` pairs the thief may oven-steal."""
        out = []
        for v in self.others(thief):
            d = self.dish[v]
            if d < 0 or self.closed[v]:
                continue
            dtype = self.cards.dishes[d].type
            for j, c in enumerate(self.ovens[v]):
                if not c.up and not self.rules.steal_face_down:
                    continue
                kind = self.cards.kinds[c.kind]
                if c.up and kind.cls == RADIOACTIVE and kind.type == dtype:
                    continue
                # rule steal_needs_replacement off: a steal leaving the space empty adds a
                # card to the hand, which must stay within the limit after it
                if not self._replaceable(thief, v, j) and (
                    self.rules.steal_needs_replacement
                    or len(self.hands[thief]) >= self.rules.hand_limit
                ):
                    continue
                out.append((v, j))
        return out

    def sabotage_targets(self, seat: int) -> list[int]:
        """The seats whose oven the seat may sabotage: a dish in it, not closed, space."""
        return [
            v
            for v in self.others(seat)
            if self.dish[v] >= 0
            and not self.closed[v]
            and len(self.ovens[v]) < self.rules.oven_limit
        ]

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's ``score`` and its components: the base points of its completed
        dishes, their garbage penalties (≤ 0), radioactive bonuses and penalties (≤ 0),
        and its unfinished dish's points."""
        rows = []
        for s in range(self.n):
            done = self.scored[s]
            u = self.unfinished[s]
            row = {
                "dish_base": sum(r.base for r in done),
                "garbage_penalty": sum(r.garbage for r in done),
                "radioactive_bonus": sum(r.bonus for r in done),
                "radioactive_penalty": sum(r.penalty for r in done),
                "unfinished_points": u.points if u else 0,
            }
            rows.append({"score": sum(row.values()), **row})
        return rows

    def tiebreak(self) -> list[int]:
        """Each seat's tie-break key: completed dishes under ``tie = "dishes"``, else 0."""
        if self.rules.tie == "dishes":
            return [len(self.scored[s]) for s in range(self.n)]
        return [0] * self.n

    def won(self) -> list[int]:
        """1 for each seat with the best score (and, rule ``tie``, tie-break), else 0."""
        if not self.over:
            raise SlicelabError("the game is not over yet")
        keys = [(r["score"], t) for r, t in zip(self.score_breakdown(), self.tiebreak(),
                                                 strict=True)]  # fmt: skip
        best = max(keys)
        return [int(k == best) for k in keys]

    def win_shares(self) -> list[float]:
        """1/k for each of the k winners."""
        won = self.won()
        return [w / sum(won) for w in won]

    # ------------------------------------------------------------------ the flow
    def _decide(
        self, player: int, phase: Phase, legal: Sequence[int]
    ) -> Generator[Decision, int, int]:
        if len(legal) == 1:
            return legal[0]
        return (yield Decision(player, phase, tuple(legal)))

    def _refill(self) -> None:
        """Rule ``reshuffle``: an empty deck takes the shuffled discard pile."""
        if self.deck or not self.discard or self.rules.reshuffle != "discard":
            return
        order = np.arange(len(self.discard))
        self.chance.shuffle(order)
        self.deck = [self.discard[i] for i in order]
        self.discard = []
        self.reshuffles += 1
        self.log.append(Event("reshuffle", info=(len(self.deck),)))

    def _draw(self, seat: int) -> int:
        k = self.deck.pop(0)
        insort(self.hands[seat], k)
        if not self.deck:
            self._refill()
        return k

    def _play(self) -> Generator[Decision, int, None]:
        start = (1, 0)
        if self.position0 is None:
            yield from self._setup()
        else:
            start = (self.position0.round, self.order.index(self.position0.turn))
        for r in range(start[0], self.rules.rounds + 1):
            self.round = r
            self.log.append(Event("round", info=(r,)))
            for i, s in enumerate(self.order):
                if (r, i) < start:
                    continue
                self.turn = s
                self.log.append(Event("turn", s))
                yield from self._turn(s)
        self.turn = -1
        for s in range(self.n):
            d = self.dish[s]
            if d >= 0 and not self.closed[s]:
                u = self.unfinished[s] = self._unfinished(s)
                self.log.append(Event("unfinished", s, cards=u.cards, info=(d,)))
        self.over = True

    def _setup(self) -> Generator[Decision, int, None]:
        cards = self.cards
        for s in self.order:  # deal 3 to each, the first player's from the top
            for _ in range(DEAL):
                self._refill()
                if self.deck:
                    self._draw(s)
            self.log.append(Event("deal", s, cards=tuple(self.hands[s])))
        for s in self.order:  # the opening redraw, face down
            out: list[int] = []
            while self.hands[s]:
                a = yield from self._decide(s, Phase.REDRAW, [PASS, *sorted(set(self.hands[s]))])
                if a == PASS:
                    break
                self.hands[s].remove(a)
                self.discard.append(a)
                out.append(a)
            got = []
            for _ in out:
                self._refill()
                if self.deck:
                    got.append(self._draw(s))
            self.tally[s].redrawn = len(out)
            self.log.append(Event("redraw", s, cards=tuple(out), info=(tuple(got),)))
        for s in self.order:  # the first dishes
            yield from self._choose_dish(s)
            d = self.dish[s]
            self.tally[s].first_type = cards.dishes[d].type if d >= 0 else -1
        self.face_up = True
        self.log.append(Event("face_up", cards=tuple(self.deck[:1])))

    def _choose_dish(self, s: int) -> Generator[Decision, int, None]:
        legal = self.dish_types(s)
        if not legal:
            self.dish[s] = -1
            self.log.append(Event("no_dish", s))
            return
        t = yield from self._decide(s, Phase.DISH, legal)
        self.dish[s] = self.piles[t].pop(0)
        self.log.append(Event("dish", s, info=(self.dish[s],)))

    def _turn(self, s: int) -> Generator[Decision, int, None]:
        hand, tally = self.hands[s], self.tally[s]
        # 1. Restock: discards, then up to 3 draws of the visible top card
        while hand:
            a = yield from self._decide(s, Phase.DISCARD, [PASS, *sorted(set(hand))])
            if a == PASS:
                break
            hand.remove(a)
            self.discard.append(a)
            tally.discarded += 1
            self.log.append(Event("discard", s, cards=(a,)))
        drawn = 0
        while drawn < DRAW_LIMIT and len(hand) < self.rules.hand_limit:
            self._refill()
            if not self.deck:
                break
            a = yield from self._decide(s, Phase.DRAW, [PASS, self.deck[0]])
            if a == PASS:
                break
            self.log.append(Event("draw", s, cards=(self._draw(s),)))
            drawn += 1
            tally.drawn += 1
        # 2. Action
        a = yield from self._decide(s, Phase.ACTION, self._actions(s))
        what, v, j = decode(a)
        if what == "pantry":
            yield from self._pantry(s, v)
        elif what == "oven":
            yield from self._oven_steal(s, v, j)
        elif what == "clean":
            yield from self._clean(s, j)
        # 3. Prepare
        placed = 0
        while placed < PREPARE_LIMIT:
            legal = self.placeable(s)
            if not legal:
                break
            k = yield from self._decide(s, Phase.PREPARE, [PASS, *legal])
            if k == PASS:
                break
            hand.remove(k)
            self.ovens[s].append(OvenCard(k, True, s))
            placed += 1
            tally.placed += 1
            self.log.append(Event("prepare", s, cards=(k,)))
            if self.is_complete(s):
                yield from self._complete(s)
                break
        # 4. Sabotage
        bad = sorted({k for k in hand if self.cards.is_bad(k)})
        legal = [PASS]
        if bad:
            legal += [sabotage(v, k) for v in self.sabotage_targets(s) for k in bad]
        a = yield from self._decide(s, Phase.SABOTAGE, legal)
        if a != PASS:
            _, v, k = decode(a)
            hand.remove(k)
            self.ovens[v].append(OvenCard(k, False, s))
            tally.sabotages += 1
            self.tally[v].sabotaged += 1
            self.log.append(Event("sabotage", s, v, cards=(k,)))
        ovens = tuple(tuple(o) for o in self.ovens)
        sizes = tuple(len(h) for h in self.hands)
        self.log.append(Event("status", s, info=(ovens, tuple(self.dish), sizes)))

    def _actions(self, s: int) -> list[int]:
        rules = self.rules
        strict = rules.steal_hand_limit == "always"
        h = len(self.hands[s])
        legal = [PASS]
        for v in self.others(s):
            hv = len(self.hands[v])
            if hv == 0 or (hv == 1 and rules.pantry_single == "forbidden"):
                continue
            if strict and h + min(2, hv) > rules.hand_limit:
                continue
            legal.append(pantry_steal(v))
        if not (strict and h + 1 > rules.hand_limit):
            legal += [oven_steal(v, j) for v, j in self.oven_targets(s)]
        if h < rules.hand_limit:
            legal += [oven_clean(j) for j in range(len(self.ovens[s]))]
        return legal

    def _pantry(self, s: int, v: int) -> Generator[Decision, int, None]:
        vh = self.hands[v]
        taken = [vh.pop(int(self.chance.integers(0, len(vh)))) for _ in range(min(2, len(vh)))]
        self.taken, self.victim = taken, v
        self.tally[s].pantry_steals += 1
        self.tally[v].pantry_stolen += 1
        empty = not self.hands[s]
        if empty and self.rules.pantry_empty_handed == "return-both":
            keep = PASS
        else:
            keep = yield from self._decide(s, Phase.KEEP, [PASS, *sorted(set(taken))])
        given = PASS
        if keep == PASS:
            back = list(taken)
        else:
            back = list(taken)
            back.remove(keep)
            if not empty:
                given = yield from self._decide(s, Phase.GIVE, sorted(set(self.hands[s])))
                self.hands[s].remove(given)
                back.append(given)
            insort(self.hands[s], keep)
        for k in back:
            insort(vh, k)
        self.taken, self.victim = [], -1
        self.log.append(Event("pantry", s, v, cards=tuple(taken), info=(keep, given)))

    def _oven_steal(self, s: int, v: int, j: int) -> Generator[Decision, int, None]:
        card = self.ovens[v][j]
        options = self.replacements(s, v, j)
        self.taken, self.victim, self.slot = [card.kind], v, j
        self.tally[s].oven_steals += 1
        self.tally[v].oven_stolen += 1
        if options:
            r = yield from self._decide(s, Phase.REPLACE, options)
            self.hands[s].remove(r)
            self.ovens[v][j] = OvenCard(r, True, s)
        else:  # rule steal_needs_replacement off: the space stays empty
            r = PASS
            del self.ovens[v][j]
        insort(self.hands[s], card.kind)
        self.taken, self.victim, self.slot = [], -1, -1
        self.log.append(Event("oven_steal", s, v, cards=(card.kind,), info=(r, j, card.up)))
        if r != PASS and self.is_complete(v):
            yield from self._complete(v)

    def _clean(self, s: int, j: int) -> Generator[Decision, int, None]:
        oven = self.ovens[s]
        full = len(oven) >= self.rules.oven_limit
        taken = [oven.pop(j)]
        if full and oven and len(self.hands[s]) + 1 < self.rules.hand_limit:
            legal = [PASS] + [oven_clean(i) for i in range(len(oven))]
            a = yield from self._decide(s, Phase.CLEAN_MORE, legal)
            if a != PASS:
                taken.append(oven.pop(a - OVEN_CLEAN))
        for c in taken:
            insort(self.hands[s], c.kind)
        self.tally[s].cleans += 1
        self.tally[s].cleaned += len(taken)
        self.log.append(Event("clean", s, cards=tuple(c.kind for c in taken),
                              info=tuple(c.up for c in taken)))  # fmt: skip

    def _complete(self, s: int) -> Generator[Decision, int, None]:
        """Score the seat's completed dish, empty its oven, then a new dish or (in the
        last round) close the oven."""
        d = self.dish[s]
        dish = self.cards.dishes[d]
        garbage = penalty = 0
        bonuses = []
        for c in self.ovens[s]:
            kind = self.cards.kinds[c.kind]
            if kind.cls == GARBAGE:
                garbage -= kind.penalty
            elif kind.cls == RADIOACTIVE:
                if kind.type == dish.type:
                    bonuses.append(kind.bonus)
                else:
                    penalty -= kind.penalty
        once = self.rules.radioactive_bonus == "once"
        bonus = max(bonuses, default=0) if once else sum(bonuses)
        kinds = tuple(c.kind for c in self.ovens[s])
        result = Scored(s, d, self.round, dish.points, garbage, bonus, penalty, kinds)
        self.scored[s].append(result)
        self.discard.extend(kinds)
        self.ovens[s] = []
        self.dish[s] = -1
        self.log.append(Event("complete", s, cards=kinds, info=(d, result.points)))
        if self.round == self.rules.rounds:
            self.closed[s] = True
            self.log.append(Event("close", s))
        else:
            yield from self._choose_dish(s)

    def _unfinished(self, s: int) -> Unfinished:
        d = self.dish[s]
        dish = self.cards.dishes[d]
        need = self._ingredients[d]
        correct = bad = matching = 0
        wild = False
        seen: set[int] = set()
        for c in self.ovens[s]:
            kind = self.cards.kinds[c.kind]
            if kind.cls == INGREDIENT:
                if c.kind in need and c.kind not in seen:
                    correct += 1
                    seen.add(c.kind)
            elif c.kind == self.cards.wild:
                if not wild:
                    correct += 1
                    wild = True
            elif kind.cls == RADIOACTIVE and kind.type == dish.type:
                matching += 1
            else:
                bad += 1
        correct += min(matching, 1) if self.rules.radioactive_bonus == "once" else matching
        return Unfinished(s, d, correct, bad, tuple(c.kind for c in self.ovens[s]))
