"""The New York Slice reference engine: pure rules, no I/O, no hidden randomness.

A :class:`GameState` holds a deal and the decisions taken so far. The game's flow is
written as a generator (``_flow``) that reads like the rulebook and yields a
:class:`Decision` whenever a player has a real choice (two or more legal actions; a
forced move is applied without asking). The public API is OpenSpiel-like:
:meth:`GameState.decision`, :meth:`GameState.legal_actions`, :meth:`GameState.apply`,
:attr:`GameState.terminal`, :meth:`GameState.scores`.

All chance happens in :func:`deal`, from an explicit generator; the Mystery Slice draws
the top of the (shuffled) mystery pool.

Restricted play (``avoid`` and ``forfeit``, analysis options, not rules:
``docs/rules/nyslice.md``): a seat may be given a special it plays without. Whenever the
tile reaches it, it is forfeited on receipt (``_take_portion``): it leaves the game
unowned, and the portion's slices are taken as if it had come without it. The seat
therefore never owns the special, so never uses it (:meth:`GameState.can_use` refuses it
too). Under ``avoid`` its CHOOSE decisions also lose the portion holding that special while
another portion is free; under ``forfeit`` it chooses among every portion as usual.

Action encoding per phase (integers, shared with the compiled kernel):

=============  ==============================================================
phase          actions
=============  ==============================================================
DIBS           0 pass; ``1 + i`` take the slice at circle position ``i``
EAT            0 collect, 1 eat (the slice in ``decision.slice``)
SUPREME        the type number (3–11) the Supreme is assigned to
CUT            a cut rank (see :mod:`sims.games.nyslice.cuts`)
CUT_IN_LINE    0 pass, 1 use Cut in Line
SNEAK          0 pass; ``1 + j`` make move ``j`` of :meth:`GameState.sneak_moves`
CHOOSE         index of an untaken portion in ``state.portions``
RECEIVE_EAT    0 keep collected, 1 move to eaten (on receiving Combo Cravings or
               You Love Veggies)
SECONDS_TYPE   0 pass, else the type whose slices Seconds eats
SECONDS_EAT    0 keep, 1 eat (the slice in ``decision.slice``)
=============  ==============================================================
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from sims.core.errors import SlicelabError
from sims.games.flow import DecisionFlow
from sims.games.nyslice.cuts import cut_count, decode_cut
from sims.games.nyslice.deck import VEGGIE, Deck, Kind, Special
from sims.games.nyslice.rules import (
    MYSTERY_POOL,
    SETUP_REMOVALS,
    SLICES_PER_STACK,
    SPECIALS_NEVER_VALID,
    SPECIALS_NOT_IN_LAST_ROUND,
    Rules,
    check_players,
    rounds_for,
)
from sims.games.nyslice.scoring import Breakdown, Holdings, score, win_shares


class Phase(IntEnum):
    """Kinds of decision (see the module docstring for each one's actions)."""

    DIBS = 0
    EAT = 1
    SUPREME = 2
    CUT = 3
    CUT_IN_LINE = 4
    SNEAK = 5
    CHOOSE = 6
    RECEIVE_EAT = 7
    SECONDS_TYPE = 8
    SECONDS_EAT = 9


@dataclass(frozen=True)
class Decision:
    """A pending choice: who decides, what kind, and the legal actions.

    ``slice`` is the slice concerned (EAT, RECEIVE_EAT, SECONDS_EAT), else -1.
    ``portion_special`` is the special arriving with the portion being taken, if any.
    """

    player: int
    phase: Phase
    legal: Sequence[int]
    slice: int = -1
    portion_special: Special | None = None


@dataclass
class Portion:
    """One portion of the current round, in circle order."""

    slices: list[int]
    special: bool
    taken_by: int = -1


@dataclass(frozen=True)
class Deal:
    """Everything chance decides, fixed at setup.

    Attributes
    ----------
    stacks : tuple of tuple of int
        One stack of 11 slice ids per round, in the order they are laid in the circle.
    stack_specials : tuple of Special
        The special on top of each stack.
    replacement : tuple of Special
        The replacement pile, top first.
    mystery : tuple of int
        The mystery pool, drawn from the front.
    removed : tuple of int
        Slices left in the box at this player count.
    """

    stacks: tuple[tuple[int, ...], ...]
    stack_specials: tuple[Special, ...]
    replacement: tuple[Special, ...]
    mystery: tuple[int, ...]
    removed: tuple[int, ...] = ()


def removed_slices(deck: Deck, n_players: int) -> list[int]:
    """Slice ids removed at setup for a player count."""
    types, combos = SETUP_REMOVALS.get(n_players, ((), ()))
    pairs = {frozenset(c) for c in combos}
    out = []
    for i, s in enumerate(deck.slices):
        if (s.kind == Kind.NUMBERED and s.type in types) or (
            s.kind == Kind.COMBO and frozenset(s.types) in pairs
        ):
            out.append(i)
    return out


def deal(deck: Deck, n_players: int, rng: np.random.Generator) -> Deal:
    """Set up a game: remove slices for the player count, shuffle, deal stacks and specials.

    The deal consumes ``rng`` in a fixed order (slices, then specials) with
    ``Generator.shuffle``, which the compiled kernel reproduces draw for draw.
    """
    check_players(n_players)
    rounds = rounds_for(n_players)
    removed = removed_slices(deck, n_players)
    gone = set(removed)
    in_play = np.array([i for i in range(len(deck.slices)) if i not in gone], dtype=np.int64)
    if len(in_play) != rounds * SLICES_PER_STACK + MYSTERY_POOL:
        raise SlicelabError(
            f"a {n_players}-player game needs {rounds * SLICES_PER_STACK + MYSTERY_POOL} slices "
            f"after setup, this deck leaves {len(in_play)}"
        )
    rng.shuffle(in_play)
    order = [int(x) for x in in_play]
    specials = np.arange(len(deck.specials), dtype=np.int64)
    rng.shuffle(specials)
    sp = [deck.specials[int(i)] for i in specials]
    return Deal(
        stacks=tuple(
            tuple(order[r * SLICES_PER_STACK : (r + 1) * SLICES_PER_STACK]) for r in range(rounds)
        ),
        stack_specials=tuple(sp[:rounds]),
        replacement=tuple(sp[rounds:]),
        mystery=tuple(order[rounds * SLICES_PER_STACK :]),
        removed=tuple(removed),
    )


@dataclass
class PlayerState:
    """What one seat holds during the game."""

    collected: list[int] = field(default_factory=list)
    eaten: list[int] = field(default_factory=list)
    specials: dict[Special, int] = field(default_factory=dict)  # special -> round acquired
    used: set[Special] = field(default_factory=set)
    hidden_eaten: set[int] = field(default_factory=set)  # Mystery slices eaten face down


class GameState(DecisionFlow):
    """A game of New York Slice in progress.

    Parameters
    ----------
    deck : Deck
    rules : Rules
    n_players : int
    the_deal : Deal
        From :func:`deal` or scripted by a test.
    avoid : sequence of Special or None, optional
        Restricted play: per seat, the special it avoids (``None``: none): it never takes
        that special's portion while another is free, and forfeits the tile if it gets it
        all the same; see the module docstring. Default: no seat avoids anything.
    forfeit : sequence of Special or None, optional
        Restricted play: per seat, the special it forfeits (``None``: none): it chooses
        portions as it likes but forfeits the tile on receipt, so it never owns or uses
        it. A seat may not both avoid and forfeit a special. Default: none.
    """

    def __init__(
        self,
        deck: Deck,
        rules: Rules,
        n_players: int,
        the_deal: Deal,
        avoid: Sequence[Special | None] | None = None,
        forfeit: Sequence[Special | None] | None = None,
    ) -> None:
        check_players(n_players)
        avoid = self._restriction("avoid", avoid, n_players)
        forfeit = self._restriction("forfeit", forfeit, n_players)
        both = [q for q in range(n_players) if avoid[q] is not None and forfeit[q] is not None]
        if both:
            raise SlicelabError(
                f"seat {both[0]} is given both avoid and forfeit; a seat plays under one "
                "restriction at most"
            )
        self.avoid: tuple[Special | None, ...] = avoid
        self.forfeit: tuple[Special | None, ...] = forfeit
        self.deck = deck
        self.rules = rules
        self.n = n_players
        self.deal = the_deal
        self.rounds = len(the_deal.stacks)
        self.players = [PlayerState() for _ in range(n_players)]
        self.round = -1
        self.slicer = -1
        self.special: Special | None = None
        self.pizza: list[int] = []
        self.circular = True
        self.portions: list[Portion] = []
        self.replacement = list(the_deal.replacement)
        self.mystery = list(the_deal.mystery)
        self.supreme_holder = -1  # seat that collected the Supreme, -1 if none
        self.supreme_type = 0  # type it is assigned to, 0 while unassigned
        self.events: list[tuple] = []
        self._result: list[Breakdown] | None = None
        self._start()

    @staticmethod
    def _restriction(
        what: str, given: Sequence[Special | None] | None, n_players: int
    ) -> tuple[Special | None, ...]:
        out = tuple(given) if given is not None else (None,) * n_players
        if len(out) != n_players or not all(
            a is None or (isinstance(a, Special) and a is not Special.BLANK) for a in out
        ):
            raise SlicelabError(
                f"{what} must give each of the {n_players} seats a special (not the blank) "
                f"or None, not {out!r}"
            )
        return out

    # ----------------------------------------------------------------- public API
    def scores(self) -> list[Breakdown]:
        """Final score breakdowns per seat (only when terminal)."""
        if self._result is None:
            raise SlicelabError("the game is not over yet")
        return self._result

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's ``score`` and its components (the game protocol's result schema)."""
        return [
            {"score": b.total, "majorities": b.majorities, "specials": b.specials,
             "diet": b.diet, "pepperoni": b.pepperoni, "anchovies": b.anchovies,
             "bonus": b.bonus}
            for b in self.scores()
        ]  # fmt: skip

    def win_shares(self) -> list[float]:
        """Win share per seat (shared wins as 1/k)."""
        return win_shares(self.scores())

    def clone(self) -> GameState:
        """An independent copy, rebuilt by replaying the same deal and actions."""
        other = GameState(self.deck, self.rules, self.n, self.deal, self.avoid, self.forfeit)
        for a in self.history:
            other.apply(a)
        return other

    def holdings(self, seat: int) -> Holdings:
        """What a seat holds now, in the form :func:`scoring.score` takes."""
        p = self.players[seat]
        return Holdings(
            collected=tuple(p.collected),
            eaten=tuple(p.eaten),
            specials=frozenset(p.specials),
            supreme_type=self.supreme_type if self.supreme_holder == seat else 0,
        )

    def owner(self, special: Special) -> int:
        """Seat owning a special, or -1."""
        for s, p in enumerate(self.players):
            if special in p.specials:
                return s
        return -1

    def can_use(self, seat: int, special: Special) -> bool:
        """Whether a seat owns an unused special acquired in an earlier round (and does not
        play without it: restricted play, though such a seat never owns it)."""
        p = self.players[seat]
        return (
            special in p.specials
            and special not in p.used
            and p.specials[special] < self.round
            and not self.forfeits(seat, special)
        )

    def avoids(self, seat: int, special: Special | None) -> bool:
        """Whether ``seat`` avoids ``special`` (restricted play ``avoid``: it does not
        choose the special's portion while another is free)."""
        return special is not None and special == self.avoid[seat]

    def forfeits(self, seat: int, special: Special | None) -> bool:
        """Whether ``seat`` plays without ``special`` (restricted play ``avoid`` or
        ``forfeit``: it forfeits the tile on receipt)."""
        return special is not None and special in (self.avoid[seat], self.forfeit[seat])

    def without(self, seat: int) -> Special | None:
        """The special ``seat`` plays without (``avoid`` or ``forfeit``), or ``None``."""
        return self.avoid[seat] if self.avoid[seat] is not None else self.forfeit[seat]

    def sneak_moves(self) -> list[tuple[int, int, bool]]:
        """Legal Sneak-a-Slice moves now, as ``(source, target, from_end)`` portion indices.

        Portions still on the table that hold slices form a circle (taken portions leave
        gaps whose sides touch); the special-only portion is adjacent to nothing. For each
        neighbouring pair (X before Y) the moves are: X's last slice to Y's front, and Y's
        first slice to X's end. ``from_end`` is True when the source's last slice moves.
        """
        live = [i for i, p in enumerate(self.portions) if p.taken_by < 0 and p.slices]
        if self.circular:
            pairs = (
                [(live[j], live[(j + 1) % len(live)]) for j in range(len(live))]
                if len(live) >= 2
                else []
            )
        else:
            pairs = [(live[j], live[j + 1]) for j in range(len(live) - 1)]
        moves = []
        for x, y in pairs:
            if self._may_give(x):
                moves.append((x, y, True))
            if self._may_give(y):
                moves.append((y, x, False))
        return moves

    # ----------------------------------------------------------------- helpers
    def _may_give(self, idx: int) -> bool:
        p = self.portions[idx]
        return len(p.slices) > 1 or (p.special and self.rules.sneak_may_leave_special_only)

    def _decide(
        self, player: int, phase: Phase, legal: Sequence[int], **ctx
    ) -> Generator[Decision, int, int]:
        """Ask ``player`` to choose among ``legal``; a single option is taken silently."""
        if len(legal) == 1:
            return legal[0]
        action = yield Decision(player, phase, legal, **ctx)
        return action

    def _edible(self, seat: int, sid: int, portion_special: Special | None) -> bool:
        s = self.deck.slices[sid]
        owned = self.players[seat].specials
        if s.kind == Kind.ANCHOVY:
            return False
        if s.kind == Kind.COMBO and Special.COMBO_CRAVINGS in owned:
            return True
        if (
            s.kind == Kind.NUMBERED
            and s.type == VEGGIE
            and (
                portion_special == Special.YOU_LOVE_VEGGIES
                or (self.rules.veggies_edible_later and Special.YOU_LOVE_VEGGIES in owned)
            )
        ):
            return True
        return s.pepperoni >= 1

    def _types_of(self, sids: Sequence[int]) -> set[int]:
        """Types eligible for the Supreme among collected slices."""
        out: set[int] = set()
        for sid in sids:
            s = self.deck.slices[sid]
            if s.kind == Kind.NUMBERED or (s.kind == Kind.COMBO and self.rules.supreme_from_combo):
                out.update(s.types)
        return out

    def _invalid_special(self, sp: Special) -> bool:
        last = self.round == self.rounds - 1
        return (sp in SPECIALS_NOT_IN_LAST_ROUND and last) or sp in SPECIALS_NEVER_VALID.get(
            self.n, ()
        )

    # ----------------------------------------------------------------- the game
    def _play(self) -> Generator[Decision, int, None]:
        for r in range(self.rounds):
            self.round = r
            self.slicer = (self.rules.first_slicer + r) % self.n
            yield from self._round()
        yield from self._seconds()
        self._result = score(self.deck, [self.holdings(s) for s in range(self.n)], self.rules)
        self.events.append(("end", tuple(b.total for b in self._result)))

    def _round(self) -> Generator[Decision, int, None]:
        r = self.round
        sp = self.deal.stack_specials[r]
        rejected = []
        for _ in range(len(self.deck.specials) + 1):
            if not self._invalid_special(sp):
                break
            rejected.append(sp)
            if self.rules.rejected_special == "bottom":
                self.replacement.append(sp)
            sp = self.replacement.pop(0)
        self.special = sp
        self.pizza = list(self.deal.stacks[r])
        self.circular = True
        self.portions = []
        self.events.append(("round", r, self.slicer, sp, tuple(rejected), tuple(self.pizza)))

        dibs = self.owner(Special.DIBS)
        if (
            dibs >= 0
            and self.can_use(dibs, Special.DIBS)
            and (self.rules.dibs_slicer_may_use or dibs != self.slicer)
        ):
            a = yield from self._decide(dibs, Phase.DIBS, range(len(self.pizza) + 1))
            if a:
                self.players[dibs].used.add(Special.DIBS)
                pos = a - 1
                sid = self.pizza.pop(pos)
                if not self.rules.dibs_closes_circle:
                    self.pizza = self.pizza[pos:] + self.pizza[:pos]
                    self.circular = False
                self.events.append(("dibs", dibs, sid))
                yield from self._take_slices(dibs, [sid], None, "dibs")

        m = len(self.pizza)
        rank = yield from self._decide(
            self.slicer, Phase.CUT, range(cut_count(m, self.n, self.circular))
        )
        arcs, attach = decode_cut(m, self.n, self.circular, rank)
        for i, (start, length) in enumerate(arcs):
            sl = [self.pizza[(start + j) % m] for j in range(length)]
            self.portions.append(Portion(sl, special=(i == attach)))
        if attach < 0:
            self.portions.append(Portion([], special=True))
        self.events.append(
            ("cut", self.slicer, rank, tuple((tuple(p.slices), p.special) for p in self.portions))
        )

        order = [(self.slicer + 1 + i) % self.n for i in range(self.n)]
        cil = self.owner(Special.CUT_IN_LINE)
        if cil >= 0 and cil != self.slicer and self.can_use(cil, Special.CUT_IN_LINE):
            a = yield from self._decide(cil, Phase.CUT_IN_LINE, (0, 1))
            if a:
                self.players[cil].used.add(Special.CUT_IN_LINE)
                order.remove(cil)
                order.insert(0, cil)
                self.events.append(("cut_in_line", cil))

        for seat in order:
            if (
                seat != self.slicer
                and self.owner(Special.SNEAK_A_SLICE) == seat
                and self.can_use(seat, Special.SNEAK_A_SLICE)
            ):
                moves = self.sneak_moves()
                if moves:
                    a = yield from self._decide(seat, Phase.SNEAK, range(len(moves) + 1))
                    if a:
                        src, dst, from_end = moves[a - 1]
                        self.players[seat].used.add(Special.SNEAK_A_SLICE)
                        if from_end:
                            sid = self.portions[src].slices.pop()
                            self.portions[dst].slices.insert(0, sid)
                        else:
                            sid = self.portions[src].slices.pop(0)
                            self.portions[dst].slices.append(sid)
                        self.events.append(("sneak", seat, sid, src, dst))
            free = [i for i, p in enumerate(self.portions) if p.taken_by < 0]
            if len(free) > 1 and self.avoids(seat, self.special):
                # Restricted play: not the special's portion while another one is free.
                free = [i for i in free if not self.portions[i].special]
            idx = yield from self._decide(seat, Phase.CHOOSE, free)
            yield from self._take_portion(seat, idx)

    def _take_portion(self, seat: int, idx: int) -> Generator[Decision, int, None]:
        portion = self.portions[idx]
        portion.taken_by = seat
        slices = list(portion.slices)
        sp = self.special if portion.special else None
        self.events.append(("choose", seat, idx, tuple(slices), sp))
        player = self.players[seat]
        if self.forfeits(seat, sp):
            # Restricted play (avoid or forfeit): the tile is forfeited on receipt. It
            # leaves the game unowned and does nothing (no Mystery slice, no receipt
            # decisions, no effect on this portion's slices), which are taken as if the
            # portion had no special.
            self.events.append(("forfeit", seat, sp))
            sp = None
        if sp is not None:
            player.specials[sp] = self.round
            if sp == Special.MYSTERY_SLICE and self.mystery:
                sid = self.mystery.pop(0)
                slices.append(sid)
                self.events.append(("mystery", seat, sid))
            if sp in (Special.COMBO_CRAVINGS, Special.YOU_LOVE_VEGGIES):
                for sid in list(player.collected):
                    s = self.deck.slices[sid]
                    fits = (
                        s.kind == Kind.COMBO
                        if sp == Special.COMBO_CRAVINGS
                        else (s.kind == Kind.NUMBERED and s.type == VEGGIE)
                    )
                    if not fits:
                        continue
                    a = yield from self._decide(
                        seat, Phase.RECEIVE_EAT, (0, 1), slice=sid, portion_special=sp
                    )
                    if a:
                        player.collected.remove(sid)
                        player.eaten.append(sid)
                        self.events.append(("move_to_eaten", seat, sid, sp))
        yield from self._take_slices(seat, slices, sp, "portion")

    def _take_slices(
        self, seat: int, slices: Sequence[int], portion_special: Special | None, source: str
    ) -> Generator[Decision, int, None]:
        player = self.players[seat]
        held_before = self._types_of(player.collected)
        collected_now = []
        for sid in slices:
            eat = 0
            if self._edible(seat, sid, portion_special):
                eat = yield from self._decide(
                    seat, Phase.EAT, (0, 1), slice=sid, portion_special=portion_special
                )
            if eat:
                player.eaten.append(sid)
                if sid in self.deal.mystery:
                    player.hidden_eaten.add(sid)
            else:
                player.collected.append(sid)
                collected_now.append(sid)
                if self.deck.slices[sid].kind == Kind.SUPREME:
                    self.supreme_holder = seat
            self.events.append(("eat" if eat else "collect", seat, sid, source))

        if self.supreme_holder != seat or self.supreme_type or not collected_now:
            return
        sup_now = any(self.deck.slices[s].kind == Kind.SUPREME for s in collected_now)
        if sup_now:
            eligible = (
                self._types_of(player.collected) if self.rules.supreme_same_portion else held_before
            )
        elif self.rules.supreme_late_any_type:
            eligible = self._types_of(player.collected)
        else:
            eligible = self._types_of(collected_now)
        if eligible:
            t = yield from self._decide(seat, Phase.SUPREME, tuple(sorted(eligible)))
            self.supreme_type = t
            self.events.append(("supreme", seat, t))

    def _seconds_candidates(self, seat: int, t: int) -> list[int]:
        out = []
        for sid in self.players[seat].collected:
            s = self.deck.slices[sid]
            if (
                s.kind == Kind.NUMBERED
                and s.type == t
                and s.pepperoni >= 1
                or (
                    s.kind == Kind.SUPREME
                    and self.rules.seconds_with_supreme
                    and self.supreme_holder == seat
                    and self.supreme_type == t
                )
            ):
                out.append(sid)
        return out

    def _seconds_type_ok(self, seat: int, t: int) -> bool:
        cands = self._seconds_candidates(seat, t)
        if self.rules.seconds_supreme_alone:
            return bool(cands)
        return any(self.deck.slices[s].kind == Kind.NUMBERED for s in cands)

    def _seconds(self) -> Generator[Decision, int, None]:
        seat = self.owner(Special.SECONDS)
        if seat < 0:
            return
        types = [t for t in range(3, 12) if self._seconds_type_ok(seat, t)]
        if not types:
            return
        t = yield from self._decide(seat, Phase.SECONDS_TYPE, (0, *types))
        if not t:
            return
        self.players[seat].used.add(Special.SECONDS)
        eaten = []
        for sid in self._seconds_candidates(seat, t):
            a = yield from self._decide(seat, Phase.SECONDS_EAT, (0, 1), slice=sid)
            if a:
                self.players[seat].collected.remove(sid)
                self.players[seat].eaten.append(sid)
                eaten.append(sid)
                if self.deck.slices[sid].kind == Kind.SUPREME:
                    self.supreme_type = 0
                    self.supreme_holder = -1
        self.events.append(("seconds", seat, t, tuple(eaten)))
