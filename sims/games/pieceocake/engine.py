"""The Piece o' Cake reference engine: pure rules, no I/O, no hidden randomness.

A :class:`GameState` holds a deal and the decisions taken so far. The flow is a generator
(``_play``) that reads like the rulebook and yields a :class:`Decision` whenever a player
has a real choice (two or more legal actions; a forced move — forgoing when no piece is
left — is applied without asking). The public API is OpenSpiel-like:
:meth:`GameState.decision`, :meth:`GameState.legal_actions`, :meth:`GameState.apply`,
:attr:`GameState.terminal`, :meth:`GameState.scores`. All chance happens in :func:`deal`.

Action encoding per phase (integers, shared with the compiled kernel):

=============  ==============================================================
phase          actions
=============  ==============================================================
CUT            a gap mask (:mod:`sims.games.pieceocake.cuts`)
CHOOSE         0 forgo; ``1 + j`` take the untaken piece ``j``
EAT            0 collect, 1 eat (the slice in ``decision.slice``)
FORGO_EAT      0 eat nothing; ``1 + v`` eat collected slices of variety ``v``
FORGO_COUNT    ``k``: eat ``k`` of them (rule ``forgo_eats = "choose"`` only)
=============  ==============================================================
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from sims.core.errors import SlicelabError
from sims.games.flow import DecisionFlow
from sims.games.pieceocake.cake import ROUNDS, SLICES_PER_CAKE, Cake
from sims.games.pieceocake.cuts import cut_masks, pieces_of
from sims.games.pieceocake.rules import Rules, check_players
from sims.games.pieceocake.scoring import Breakdown, score, win_shares


class Phase(IntEnum):
    """Kinds of decision (see the module docstring for each one's actions)."""

    CUT = 0
    CHOOSE = 1
    EAT = 2
    FORGO_EAT = 3
    FORGO_COUNT = 4


@dataclass(frozen=True)
class Decision:
    """A pending choice: who decides, what kind, the legal actions, and the slice (EAT) or
    variety (FORGO_COUNT) concerned (-1 otherwise)."""

    player: int
    phase: Phase
    legal: Sequence[int]
    slice: int = -1
    variety: int = -1


@dataclass
class Piece:
    """One piece of the current cake: slice ids in circle order, and who took it."""

    slices: list[int]
    taken_by: int = -1


@dataclass(frozen=True)
class Deal:
    """Everything chance decides: the five stacks of 11 slice ids (each laid in the circle
    in stack order) and the slices left out unseen."""

    stacks: tuple[tuple[int, ...], ...]
    unseen: tuple[int, ...]


def deal(cake: Cake, rng: np.random.Generator) -> Deal:
    """Shuffle the cake's slices with ``Generator.shuffle`` (which the kernel reproduces
    draw for draw) and deal five stacks of 11; the rest are unseen."""
    order = np.arange(cake.n_slices, dtype=np.int64)
    rng.shuffle(order)
    ids = [int(x) for x in order]
    n = SLICES_PER_CAKE
    return Deal(
        stacks=tuple(tuple(ids[r * n : (r + 1) * n]) for r in range(ROUNDS)),
        unseen=tuple(ids[ROUNDS * n :]),
    )


@dataclass
class PlayerState:
    """One seat's slices: collected ids per variety, eaten ids, and what it did."""

    collected: list[list[int]]
    eaten: list[int] = field(default_factory=list)
    fresh: list[int] = field(default_factory=list)  # per variety: collected this cake
    pieces_taken: int = 0
    forgone: int = 0
    forgo_eaten: int = 0


def turn_order(server: int, n_players: int, rules: Rules) -> list[int]:
    """The seats in the order they choose a piece or forgo: from the server's left, the
    server last; at 2 players four turns by ``rules.two_player_order``."""
    if n_players == 2:
        other = 1 - server
        if rules.two_player_order == "snake":
            return [other, server, server, other]
        return [other, server, other, server]
    return [(server + 1 + i) % n_players for i in range(n_players)]


class GameState(DecisionFlow):
    """A game of Piece o' Cake in progress.

    Parameters
    ----------
    cake : Cake
    rules : Rules
    n_players : int
    the_deal : Deal
        From :func:`deal` or scripted by a test.
    """

    def __init__(self, cake: Cake, rules: Rules, n_players: int, the_deal: Deal) -> None:
        check_players(n_players)
        if rules.first_server >= n_players:
            raise SlicelabError(
                f"rule option first_server={rules.first_server} is not a seat of {n_players} "
                "players"
            )
        self.cake = cake
        self.rules = rules
        self.n = n_players
        self.deal = the_deal
        self.variety = cake.slice_variety
        nv = len(cake.varieties)
        self.players = [PlayerState([[] for _ in range(nv)]) for _ in range(n_players)]
        self.round = -1
        self.server = -1
        self.cut = -1
        self.circle: list[int] = []
        self.pieces: list[Piece] = []
        self.events: list[tuple] = []
        self._result: list[Breakdown] | None = None
        self._start()

    # ----------------------------------------------------------------- public API
    def scores(self) -> list[Breakdown]:
        """Final score breakdowns per seat (only when terminal)."""
        if self._result is None:
            raise SlicelabError("the game is not over yet")
        return self._result

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's ``score`` and its components (the game protocol's result schema)."""
        return [{"score": b.score, "majorities": b.majorities, "cream": b.cream}
                for b in self.scores()]  # fmt: skip

    def win_shares(self) -> list[float]:
        """Win share per seat (rule ``tie``)."""
        return win_shares(self.scores(), self.rules.tie)

    def clone(self) -> GameState:
        """An independent copy, rebuilt by replaying the same deal and actions."""
        other = GameState(self.cake, self.rules, self.n, self.deal)
        for a in self.history:
            other.apply(a)
        return other

    def collected_counts(self, seat: int) -> list[int]:
        """How many slices of each variety ``seat`` has collected."""
        return [len(ids) for ids in self.players[seat].collected]

    def cream(self, seat: int) -> int:
        """The cream on the slices ``seat`` has eaten."""
        return sum(self.cake.varieties[self.variety[s]].cream for s in self.players[seat].eaten)

    def provisional(self) -> list[Breakdown]:
        """Every seat's score if the game ended now."""
        return score(
            self.cake,
            [self.collected_counts(s) for s in range(self.n)],
            [self.cream(s) for s in range(self.n)],
            self.rules.majority_ties,
        )

    # ------------------------------------------------------------------ the flow
    def _decide(
        self, player: int, phase: Phase, legal: Sequence[int], sid: int = -1, variety: int = -1
    ) -> Generator[Decision, int, int]:
        if len(legal) == 1:
            return legal[0]
        return (yield Decision(player, phase, tuple(legal), sid, variety))

    def _play(self) -> Generator[Decision, int, None]:
        for r in range(ROUNDS):
            self.round = r
            self.server = (self.rules.first_server + r) % self.n
            yield from self._round()
        self.round = ROUNDS
        self._result = self.provisional()

    def _round(self) -> Generator[Decision, int, None]:
        self.circle = list(self.deal.stacks[self.round])
        for p in self.players:
            p.fresh = [0] * len(self.cake.varieties)
        masks = cut_masks(self.rules.max_pieces(self.n), self.rules.exact_pieces)
        self.cut = yield from self._decide(self.server, Phase.CUT, masks)
        self.pieces = [Piece([self.circle[p] for p in pos]) for pos in pieces_of(self.cut)]
        self.events.append(("cut", self.server, self.cut))
        stopped: set[int] = set()
        for seat in turn_order(self.server, self.n, self.rules):
            if seat in stopped:
                continue
            free = [j for j, p in enumerate(self.pieces) if p.taken_by < 0]
            if not free and not self.forced_forgo_turn(seat):
                self.events.append(("pass", seat))  # forced_forgo_after_take = false
                continue
            action = yield from self._decide(seat, Phase.CHOOSE, [0] + [1 + j for j in free])
            if action == 0:
                self.players[seat].forgone += 1
                if self.rules.forgo_ends_picking:
                    stopped.add(seat)
                self.events.append(("forgo", seat, bool(free)))
                yield from self._forgo_eat(seat)
            else:
                yield from self._take(seat, action - 1)
        for j, p in enumerate(self.pieces):
            if p.taken_by < 0:
                self.events.append(("leftover", j, tuple(p.slices)))

    def _take(self, seat: int, j: int) -> Generator[Decision, int, None]:
        piece = self.pieces[j]
        piece.taken_by = seat
        me = self.players[seat]
        me.pieces_taken += 1
        self.events.append(("take", seat, j, tuple(piece.slices)))
        for sid in piece.slices:
            eat = yield from self._decide(seat, Phase.EAT, (0, 1), sid=sid)
            if eat:
                me.eaten.append(sid)
            else:
                me.collected[self.variety[sid]].append(sid)
                me.fresh[self.variety[sid]] += 1
            self.events.append(("eat" if eat else "collect", seat, sid))

    def forced_forgo_turn(self, seat: int) -> bool:
        """Whether ``seat``, finding no piece left at its turn, forgoes (a forced forgo):
        always, unless it already took a piece of this cake and the rule
        ``forced_forgo_after_take`` is off (then the turn passes; 2 players only, where a
        seat has several turns a cake)."""
        return self.rules.forced_forgo_after_take or all(p.taken_by != seat for p in self.pieces)

    def forgo_edible(self, seat: int) -> list[int]:
        """Per variety, the slices ``seat`` could eat by forgoing now: those it collected in
        earlier cakes (at 2 players a seat may collect and forgo in the same cake; the slices
        of this cake are not yet eligible)."""
        me = self.players[seat]
        return [len(ids) - me.fresh[v] for v, ids in enumerate(me.collected)]

    def _forgo_eat(self, seat: int) -> Generator[Decision, int, None]:
        if self.rules.forgo_eats == "none":
            return
        me = self.players[seat]
        edible = self.forgo_edible(seat)
        held = [v for v, k in enumerate(edible) if k]
        if not held:
            return
        action = yield from self._decide(seat, Phase.FORGO_EAT, [0] + [1 + v for v in held])
        if action == 0:
            return
        v = action - 1
        count = edible[v]
        if self.rules.forgo_eats == "choose":
            count = yield from self._decide(
                seat, Phase.FORGO_COUNT, list(range(1, count + 1)), variety=v
            )
        # the latest collected of earlier cakes first (slices of a variety are alike)
        end = len(me.collected[v]) - me.fresh[v]
        me.eaten.extend(reversed(me.collected[v][end - count : end]))
        del me.collected[v][end - count : end]
        me.forgo_eaten += count
        self.events.append(("forgo_eat", seat, v, count))
