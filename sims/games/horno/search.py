"""``search(budget=…, width=…, gap=…, restock=…)``: a determinized flat Monte-Carlo search
player for Horno (``docs/strategies/horno.md``, "search", is its specification).

At each decision it searches (the setup's and its own turn's, the Restock step's only
with ``restock=1``; the rest are the heuristic's), the player ranks the legal actions by
the heuristic's scores at its player-count default (plain ``heuristic``) and keeps as
candidates the best ``width`` within ``gap`` of the best, in legal order. It then draws
``max(1, budget // candidates)`` determinizations of what it cannot see from its own
stream (:meth:`PlayerView.determinize`: the other hands, the face-down oven cards, the deck
below its visible top card, the discard pile, the dish piles below their tops —
consistent with its view and its memory), and for each determinization and candidate
builds an engine state at the decision (:class:`ResumedState`, a :class:`GameState` that
resumes there: it is given only the view and the sample, never the true game), takes the
candidate and plays the game out with the heuristic in every seat. It plays the candidate
with the best mean final score margin (its score minus the best other seat's), the first
in the heuristic's order among equal (``heuristic.preference``: by turn position, never by
seat number); every candidate is played on the same samples with the same
chance seed (paired).
"""

from __future__ import annotations

import math
from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sims.core.errors import SlicelabError
from sims.core.specs import ParamBound, StrategySpec
from sims.games.horno.engine import (
    PASS,
    Deal,
    Decision,
    GameState,
    OvenCard,
    Phase,
    Position,
    Scored,
    decode,
    sabotage,
)
from sims.games.horno.heuristic import preference
from sims.games.horno.rules import DEAL, DRAW_LIMIT, PREPARE_LIMIT
from sims.games.horno.view import PlayerView, World, view_for

SEARCH_DEFAULTS: dict[str, float] = {"budget": 16, "width": 2, "gap": 1.0, "restock": 0}
"""``budget``: playouts per decision (at least one per candidate); ``width``: the most
candidates; ``gap``: how far below the heuristic's best score a candidate may be;
``restock``: 1 to search the Restock step's decisions (DISCARD, DRAW) too."""

SEARCH_BOUNDS: dict[str, ParamBound] = {
    # A playout is the rest of a game, about 2-5 ms: the cap keeps one decision under a
    # minute rather than hanging.
    "budget": ParamBound(1, 10_000, integer=True),
    # ACTION and SABOTAGE have at most a few dozen legal actions; more takes them all.
    "width": ParamBound(1, 100, integer=True),
    # points of the heuristic's scores; 1000 is beyond any difference between two of them
    "gap": ParamBound(0.0, 1000.0),
    "restock": ParamBound(0, 1, integer=True),
}
"""The values each ``search`` parameter may take; a spec outside them is refused."""

assert set(SEARCH_BOUNDS) == set(SEARCH_DEFAULTS)

SETUP_PHASES = (Phase.REDRAW, Phase.DISH)
TURN_PHASES = (Phase.DISCARD, Phase.DRAW, Phase.ACTION, Phase.KEEP, Phase.GIVE, Phase.REPLACE,
               Phase.PREPARE, Phase.DISH, Phase.SABOTAGE)  # fmt: skip
RESTOCK_PHASES = (Phase.DISCARD, Phase.DRAW)


def searchable(view: PlayerView, decision: Decision) -> bool:
    """Whether a game can be resumed at this decision (:class:`ResumedState`): every
    decision of the setup and of the seat's own turn except CLEAN_MORE (the first card
    cleaned is in the thief's hands then, where no view shows it)."""
    if view.round == 0:
        return decision.phase in SETUP_PHASES
    return decision.player == view.turn and decision.phase in TURN_PHASES


@dataclass(frozen=True)
class Resume:
    """Where a :class:`ResumedState` picks up, from a view at a decision and a sample.

    Attributes
    ----------
    round, turn, seat, phase :
        The decision's round, whose turn it is, who decides and what.
    drawn, placed : int
        The turn's draws and placements so far.
    out : int
        At a REDRAW, the cards the seat has discarded so far.
    kept : int
        At a GIVE, the kind the seat kept.
    taken, victim, slot :
        A steal in progress (as the view shows it).
    dish, closed, scored, face_up :
        The open table.
    world : World
        The sample of everything hidden.
    """

    round: int
    turn: int
    seat: int
    phase: Phase
    drawn: int
    placed: int
    out: int
    kept: int
    taken: tuple[int, ...]
    victim: int
    slot: int
    dish: tuple[int, ...]
    closed: tuple[bool, ...]
    scored: tuple[tuple[tuple[int, int], ...], ...]
    face_up: bool
    world: World


def resume_point(view: PlayerView, decision: Decision, world: World) -> Resume:
    """The :class:`Resume` of ``view``'s decision with the sample ``world``."""
    return Resume(
        round=view.round, turn=view.turn, seat=decision.player, phase=decision.phase,
        drawn=view.drawn, placed=view.placed, out=DEAL - len(view.hand), kept=view.kept,
        taken=view.taken, victim=view.victim, slot=view.slot,
        dish=tuple(o.dish for o in view.ovens), closed=tuple(o.closed for o in view.ovens),
        scored=view.scored, face_up=view.face_up, world=world,
    )  # fmt: skip


class ResumedState(GameState):
    """A game resumed at a decision from a view and a determinization: the open table from
    the view, the hidden cards from the sample, the later chance from ``chance``. It plays
    on exactly as the reference engine (``tests/games/horno/test_horno_search.py`` resumes
    real games from their true hidden cards and checks that they play on identically).
    The completed dishes keep only their points (as the view shows them), so the score's
    total is right but not its breakdown.

    Parameters
    ----------
    view : PlayerView
        The deciding seat's view.
    decision : Decision
        Its pending decision (a :func:`searchable` one).
    world : World
        A sample from ``view.determinize``.
    chance : generator
        For the pantry steals and reshuffles to come.
    """

    def __init__(self, view: PlayerView, decision: Decision, world: World, chance: Any) -> None:
        if not searchable(view, decision):
            raise SlicelabError(f"a Horno game cannot be resumed at {decision.phase.name}")
        at = resume_point(view, decision, world)
        super().__init__(
            view.cards, view.rules, view.n_players, Deal(world.deck, world.piles, chance), at
        )  # type: ignore[arg-type]

    def _resume(self, at: Resume) -> None:  # type: ignore[override]
        w = at.world
        self.hands = [list(h) for h in w.hands]
        self.ovens = [list(o) for o in w.ovens]
        self.dish = list(at.dish)
        self.closed = list(at.closed)
        self.scored = [[Scored(s, d, 0, points, 0, 0, 0, ()) for d, points in done]
                       for s, done in enumerate(at.scored)]  # fmt: skip
        self.discard = list(w.discard)
        self.face_up = at.face_up
        self.round, self.turn = at.round, at.turn
        if at.taken:
            self.taken, self.victim, self.slot = list(at.taken), at.victim, at.slot

    def clone(self) -> GameState:
        raise SlicelabError("a resumed Horno game cannot be cloned; resume another")

    # ------------------------------------------------------------------ the flow
    def _play(self):
        at: Resume = self.position0  # type: ignore[assignment]
        if at.round == 0:
            yield from self._setup_from(at)
            nxt = (1, 0)
        else:
            yield from self._turn_from(at)
            i = self.order.index(at.turn) + 1
            nxt = (at.round, i) if i < self.n else (at.round + 1, 0)
        # the engine plays every later turn (and the end) from this position on
        self.position0 = Position(round=nxt[0], turn=self.order[nxt[1]])
        yield from GameState._play(self)

    def _redraw(self, s: int, out: int):
        """The engine's opening redraw for seat ``s``, ``out`` cards discarded already."""
        hand = self.hands[s]
        while hand:
            a = yield from self._decide(s, Phase.REDRAW, [PASS, *sorted(set(hand))])
            if a == PASS:
                break
            hand.remove(a)
            self.discard.append(a)
            out += 1
        for _ in range(out):
            self._refill()
            if self.deck:
                self._draw(s)

    def _setup_from(self, at: Resume):
        order = self.order
        i = order.index(at.seat)
        if at.phase == Phase.REDRAW:
            yield from self._redraw(at.seat, at.out)
            for s in order[i + 1 :]:
                yield from self._redraw(s, 0)
            i = 0
        for s in order[i:]:
            yield from self._choose_dish(s)
        self.face_up = True

    def _turn_from(self, at: Resume):
        """The rest of seat ``at.turn``'s turn from the decision, as the engine's turn."""
        s, ph = at.turn, at.phase
        hand = self.hands[s]
        if ph == Phase.DISCARD:
            while hand:
                a = yield from self._decide(s, Phase.DISCARD, [PASS, *sorted(set(hand))])
                if a == PASS:
                    break
                hand.remove(a)
                self.discard.append(a)
        if ph in (Phase.DISCARD, Phase.DRAW):
            drawn = at.drawn
            while drawn < DRAW_LIMIT and len(hand) < self.rules.hand_limit:
                self._refill()
                if not self.deck:
                    break
                a = yield from self._decide(s, Phase.DRAW, [PASS, self.deck[0]])
                if a == PASS:
                    break
                self._draw(s)
                drawn += 1
        if ph in (Phase.DISCARD, Phase.DRAW, Phase.ACTION):
            a = yield from self._decide(s, Phase.ACTION, self._actions(s))
            what, v, j = decode(a)
            if what == "pantry":
                yield from self._pantry(s, v)
            elif what == "oven":
                yield from self._oven_steal(s, v, j)
            elif what == "clean":
                yield from self._clean(s, j)
        elif ph in (Phase.KEEP, Phase.GIVE):
            yield from self._pantry_from(s, at)
        elif ph == Phase.REPLACE:
            yield from self._oven_from(s, at.victim, at.slot)
        if ph == Phase.DISH:  # its dish was completed in this Prepare step
            yield from self._choose_dish(s)
        elif ph != Phase.SABOTAGE:
            placed = at.placed if ph == Phase.PREPARE else 0
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
                if self.is_complete(s):
                    yield from self._complete(s)
                    break
        bad = sorted({k for k in hand if self.cards.is_bad(k)})
        legal = [PASS]
        if bad:
            legal += [sabotage(v, k) for v in self.sabotage_targets(s) for k in bad]
        a = yield from self._decide(s, Phase.SABOTAGE, legal)
        if a != PASS:
            _, v, k = decode(a)
            hand.remove(k)
            self.ovens[v].append(OvenCard(k, False, s))

    def _pantry_from(self, s: int, at: Resume):
        """The rest of a pantry steal from its KEEP or GIVE decision."""
        v, taken = at.victim, list(at.taken)
        if at.phase == Phase.KEEP:
            keep = yield from self._decide(s, Phase.KEEP, [PASS, *sorted(set(taken))])
        else:
            keep = at.kept
        back = list(taken)
        if keep != PASS:
            back.remove(keep)
            if self.hands[s]:
                given = yield from self._decide(s, Phase.GIVE, sorted(set(self.hands[s])))
                self.hands[s].remove(given)
                back.append(given)
            insort(self.hands[s], keep)
        for k in back:
            insort(self.hands[v], k)
        self.taken, self.victim = [], -1

    def _oven_from(self, s: int, v: int, j: int):
        """The rest of an oven steal from its REPLACE decision."""
        card = self.ovens[v][j]
        r = yield from self._decide(s, Phase.REPLACE, self.replacements(s, v, j))
        self.hands[s].remove(r)
        self.ovens[v][j] = OvenCard(r, True, s)
        insort(self.hands[s], card.kind)
        self.taken, self.victim, self.slot = [], -1, -1
        if self.is_complete(v):
            yield from self._complete(v)


def playout(state: GameState, strategies: Sequence[Any], rng: np.random.Generator) -> GameState:
    """Play ``state`` to the end, each seat's decision by its strategy from a view without
    memory (the heuristic does not read it)."""
    while not state.terminal:
        dec = state.decision()
        strategy = strategies[dec.player]
        state.apply(strategy.choose(view_for(strategy, state, dec.player, False), dec, rng))
    return state


def margin(state: GameState, seat: int) -> int:
    """The seat's final score minus the best other seat's."""
    totals = [r["score"] for r in state.score_breakdown()]
    return totals[seat] - max(t for s, t in enumerate(totals) if s != seat)


def candidates(values: Sequence[float], prefer: Sequence[int], width: int,
               gap: float) -> list[int]:  # fmt: skip
    """The indices worth playing out: those whose value is at least the best less ``gap``,
    the ``width`` best of them (the first in ``prefer`` order among equal), in index
    order. The heuristic's own choice is always the first of the ranking."""
    rank = {i: r for r, i in enumerate(prefer)}
    order = sorted(range(len(values)), key=lambda i: (-values[i], rank[i]))
    top = values[order[0]]
    keep = [i for i in order[:width] if values[i] >= top - gap and values[i] > -math.inf]
    return sorted(keep or order[:1])


@dataclass
class SearchStrategy:
    """Determinized flat Monte-Carlo search over the heuristic's best candidates (see the
    module docstring)."""

    spec: StrategySpec
    p: dict[str, float] = field(default_factory=dict)
    remembers = True
    _field: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        # Validated here too, so a strategy built without make_strategy cannot hang.
        given = {k: SEARCH_BOUNDS[k].check(self.spec.name, k, v) if k in SEARCH_BOUNDS else v
                 for k, v in self.spec.params.items()}  # fmt: skip
        self.p = {**SEARCH_DEFAULTS, **{k: float(v) for k, v in given.items()}}

    @property
    def field(self):
        """The heuristic every playout seat plays (and the candidates are ranked by): plain
        ``heuristic``, i.e. its player-count default."""
        if self._field is None:
            from sims.games.horno.strategies import make_strategy

            self._field = make_strategy("heuristic")
        return self._field

    def candidates(self, view: PlayerView, decision: Decision) -> list[int]:
        """The indices in ``decision.legal`` played out (:func:`candidates` of the
        heuristic's scores)."""
        values = self.field.scores(view, decision)
        return candidates(values, preference(view, decision), int(self.p["width"]),
                          self.p["gap"])  # fmt: skip

    def values(self, view: PlayerView, decision: Decision, cands: Sequence[int],
               rng: np.random.Generator) -> list[float]:  # fmt: skip
        """Each candidate's total margin over the samples (see the module docstring)."""
        samples = max(1, int(self.p["budget"]) // len(cands))
        fields = [self.field] * view.n_players
        totals = [0.0] * len(cands)
        for _ in range(samples):
            world = view.determinize(rng)
            seed = int(rng.integers(0, 2**63))
            for i, c in enumerate(cands):
                state = ResumedState(view, decision, world, np.random.default_rng(seed))
                state.apply(decision.legal[c])
                totals[i] += margin(playout(state, fields, rng), decision.player)
        return totals

    def searches(self, view: PlayerView, decision: Decision) -> bool:
        """Whether it plays this decision out (else the heuristic decides): a
        :func:`searchable` one, the Restock step's only with ``restock=1``."""
        if decision.phase in RESTOCK_PHASES and not self.p["restock"]:
            return False
        return searchable(view, decision)

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        if not self.searches(view, decision):
            return self.field.choose(view, decision, rng)
        cands = self.candidates(view, decision)
        if len(cands) == 1:
            return decision.legal[cands[0]]
        totals = self.values(view, decision, cands, rng)
        # among equal totals, the first in the heuristic's order (by turn position after
        # the deciding seat, never by seat number: relabelling the seats changes nothing)
        rank = {i: r for r, i in enumerate(preference(view, decision))}
        best = min(range(len(cands)), key=lambda i: (-totals[i], rank[cands[i]]))
        return decision.legal[cands[best]]
