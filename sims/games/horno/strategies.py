"""Built-in Horno strategies, exactly as ``docs/strategies/horno.md`` writes them:
``random`` (uniform over the legal actions), ``greedy`` (pursues its dish, takes what
helps it, cleans out sabotage, sabotages the leader) and ``heuristic(base=…, …)`` (a
parameterised valuation of every decision: :mod:`sims.games.horno.heuristic`, with its
presets); ``search(budget=…, width=…)`` lives in :mod:`sims.games.horno.search` and is
registered here. Every "first" is in the order the text gives; ``greedy`` and
``heuristic`` draw nothing from their streams.

A strategy's ``remembers`` says whether it reads the view's memory of hidden cards
(:attr:`PlayerView.known` and the like): the game builds its views without that memory
when it does not (only ``search`` does, and strategies written in Python are given it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from sims.core.errors import StrategySpecError
from sims.core.specs import StrategySpec, load_code_strategy, parse_spec
from sims.games.catalogue import Family as StrategyInfo
from sims.games.catalogue import check_params
from sims.games.horno.cards import INGREDIENT, RADIOACTIVE
from sims.games.horno.engine import (
    OVEN_CLEAN,
    PANTRY_STEAL,
    PASS,
    Decision,
    Phase,
    decode,
    oven_clean,
    oven_steal,
)
from sims.games.horno.heuristic import (
    HEURISTIC_BOUNDS,
    HEURISTIC_DEFAULTS,
    best,
    load_presets,
    params_for,
    scores,
)
from sims.games.horno.view import HIDDEN, LightView, PlayerView

AMMO = 2
"""Garbage and radioactive cards greedy keeps for sabotage (beyond them a third is
useless)."""


class Strategy(Protocol):
    """What the engine asks of a strategy."""

    spec: StrategySpec

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        """Return one of ``decision.legal``."""
        ...


@dataclass
class RandomStrategy:
    """Uniform over the legal actions: one draw of the seat's stream per decision."""

    spec: StrategySpec
    remembers = False

    def light(self, view: LightView, decision: Decision) -> bool:
        """Always: it reads only the legal actions."""
        return True

    def choose(
        self, view: PlayerView | LightView, decision: Decision, rng: np.random.Generator
    ) -> int:
        return decision.legal[int(rng.integers(0, len(decision.legal)))]


# ---------------------------------------------------------------------- greedy
def _ammo(view: PlayerView, kind: int) -> bool:
    """A sabotage card for ``view``'s seat: garbage, or radioactive not matching its dish."""
    c = view.cards.kinds[kind]
    if not view.cards.is_bad(kind):
        return False
    d = view.ovens[view.seat].dish
    return not (c.cls == RADIOACTIVE and d >= 0 and c.type == view.cards.dishes[d].type)


def useful(view: PlayerView, kind: int, hand: tuple[int, ...] | list[int]) -> bool:
    """Whether one more card ``kind`` is useful to the seat holding ``hand``: an ingredient
    its dish is missing that it does not hold, the wild when neither its oven nor its hand
    has one, its dish's radioactive card when its oven shows none and it holds none, or a
    sabotage card while it holds fewer than :data:`AMMO`."""
    cards, me = view.cards, view.seat
    oven = view.ovens[me]
    c = cards.kinds[kind]
    if _ammo(view, kind):
        return sum(1 for k in hand if _ammo(view, k)) < AMMO
    if oven.dish < 0 or oven.closed:
        return False
    present = view.oven_kinds(me)
    if c.cls == INGREDIENT:
        return kind in cards.dishes[oven.dish].ingredients and kind not in present | set(hand)
    if kind == cards.wild:
        return kind not in present and kind not in hand
    if c.cls == RADIOACTIVE:  # its own dish's (a non-matching one is ammo)
        return kind not in present and kind not in hand
    return False


def _useless(view: PlayerView, hand: tuple[int, ...]) -> list[int]:
    """The kinds of ``hand`` that are not useful, each judged against the hand without that
    one card (so of two copies of a needed ingredient, the second is useless)."""
    out = []
    for k in sorted(set(hand)):
        rest = list(hand)
        rest.remove(k)
        if not useful(view, k, rest):
            out.append(k)
    return out


def _rest(view: PlayerView, v: int, j: int) -> list[int]:
    """The kinds seen in ``v``'s oven without slot ``j``."""
    return [c.kind for i, c in enumerate(view.ovens[v].cards) if i != j and c.kind != HIDDEN]


def _fits(view: PlayerView, v: int, j: int, k: int) -> bool:
    """Whether card ``k`` may replace slot ``j`` of ``v``'s oven: an ingredient its dish
    then lacks, or the wild when it then has none."""
    rest = _rest(view, v, j)
    if k == view.cards.wild:
        return k not in rest
    return k in view.cards.dishes[view.ovens[v].dish].ingredients and k not in rest


def _completes(view: PlayerView, v: int, j: int, k: int) -> bool:
    """Whether card ``k`` in place of slot ``j`` completes ``v``'s dish."""
    rest = [*_rest(view, v, j), k]
    need = view.cards.dishes[view.ovens[v].dish].ingredients
    have = sum(1 for x in need if x in rest)
    return have == len(need) or (view.cards.wild in rest and have >= len(need) - 1)


def _back_score(view: PlayerView, t: int, hand: tuple[int, ...]) -> int:
    """How many of the ingredients on type ``t``'s top dish back the hand holds."""
    return sum(1 for k in view.piles[t][1] if k in hand)


def after(view: PlayerView, v: int) -> int:
    """How many turns after the deciding seat's own seat ``v`` plays (1: the next to play):
    greedy's tie-break between seats, by turn position, never by seat number, so that
    relabelling the seats (another ``first_player``) changes nothing."""
    order = view.order
    return (order.index(v) - order.index(view.seat)) % len(order)


def _leader_order(view: PlayerView, seats: list[int]) -> list[int]:
    """``seats`` by points (most first), then unfinished progress (most missing-free
    ingredients first: fewest missing), then the turn after the seat's own (the next to
    play first)."""
    return sorted(seats, key=lambda v: (-view.points[v], len(view.missing(v)), after(view, v)))


@dataclass
class GreedyStrategy:
    """A player that pursues the dish in its oven (see ``docs/strategies/horno.md``)."""

    spec: StrategySpec
    remembers = False

    def light(self, view: LightView, decision: Decision) -> bool:
        """At a draw: it always draws."""
        return decision.phase == Phase.DRAW

    def choose(
        self, view: PlayerView | LightView, decision: Decision, rng: np.random.Generator
    ) -> int:
        legal = decision.legal
        phase = decision.phase
        if phase == Phase.DRAW:  # digging is free: what is useless goes next turn
            return legal[1]
        hand = view.hand
        me = view.seat
        if phase in (Phase.REDRAW, Phase.DISCARD):
            if phase == Phase.REDRAW:  # no dish yet: keep what a visible back shows
                wanted = {k for _, back in view.piles for k in back}
                drop = [k for k in sorted(set(hand)) if view.cards.kinds[k].cls == INGREDIENT
                        and k not in wanted]  # fmt: skip
            else:
                drop = _useless(view, hand)
            return drop[0] if drop else PASS
        if phase == Phase.DISH:
            return max(legal, key=lambda t: (_back_score(view, t, hand), -t))
        if phase == Phase.ACTION:
            return self._action(view, legal)
        if phase == Phase.KEEP:
            keep = [k for k in sorted(set(view.taken)) if useful(view, k, hand)]
            return keep[0] if keep else PASS
        if phase == Phase.GIVE:
            give = _useless(view, hand)
            return give[0] if give else legal[0]
        if phase == Phase.REPLACE:
            spare = _useless(view, hand)
            safe = [k for k in legal if not _completes(view, view.victim, view.slot, k)]
            for pool in ([k for k in safe if k in spare], safe):
                if pool:
                    return pool[0]
            return legal[0]
        if phase == Phase.CLEAN_MORE:
            hidden = [a for a in legal if a != PASS
                      and view.ovens[me].cards[a - OVEN_CLEAN].kind == HIDDEN]  # fmt: skip
            return hidden[0] if hidden else PASS
        if phase == Phase.PREPARE:
            return self._prepare(view, legal)
        if phase == Phase.SABOTAGE:
            return self._sabotage(view, legal)
        return legal[0]

    def _action(self, view: PlayerView, legal: tuple[int, ...]) -> int:
        me, hand = view.seat, view.hand
        oven = view.ovens[me]
        # 1. clean out a face-down card from its own oven
        for j, c in enumerate(oven.cards):
            if c.kind == HIDDEN and oven_clean(j) in legal:
                return oven_clean(j)
        # 2. oven steal of a card it wants, paying with a card it does not
        spare = set(_useless(view, hand))
        victims = _leader_order(view, view.others())
        for v in victims:
            for j, c in enumerate(view.ovens[v].cards):
                a = oven_steal(v, j)
                if a not in legal or c.kind == HIDDEN or not useful(view, c.kind, hand):
                    continue
                if any(_fits(view, v, j, k) and not _completes(view, v, j, k) for k in spare):
                    return a
        # 3. pantry steal from the biggest hand, when it has a spare card to give
        if spare:
            targets = [a for a in legal if decode(a)[0] == "pantry"]
            if targets:
                victims = [a - PANTRY_STEAL for a in targets]
                v = max(victims, key=lambda v: (view.hand_sizes[v], -after(view, v)))
                return PANTRY_STEAL + v
        return PASS

    @staticmethod
    def _prepare(view: PlayerView, legal: tuple[int, ...]) -> int:
        me = view.seat
        cards = view.cards
        missing = view.missing(me)
        wild_in = view.has_wild(me)
        options = [k for k in legal if k != PASS]
        for k in options:  # a card that completes the dish now
            if k in missing and (len(missing) == 1 or (wild_in and len(missing) == 2)):
                return k
            if k == cards.wild and len(missing) == 1:
                return k
        for k in options:  # an ingredient, then the dish's radioactive card, then the wild
            if cards.kinds[k].cls == INGREDIENT:
                return k
        for k in options:
            if cards.kinds[k].cls == RADIOACTIVE:
                return k
        return options[0]

    @staticmethod
    def _sabotage(view: PlayerView, legal: tuple[int, ...]) -> int:
        best = None
        for a in legal:
            if a == PASS:
                continue
            _, v, k = decode(a)
            if not _ammo(view, k):
                continue
            kind = view.cards.kinds[k]
            dish = view.cards.dishes[view.ovens[v].dish]
            if kind.cls == RADIOACTIVE and kind.type == dish.type:
                continue  # it would help them
            key = (-view.points[v], len(view.missing(v)), after(view, v), -kind.penalty, k)
            if best is None or key < best[0]:
                best = (key, a)
        return best[1] if best else PASS


# ---------------------------------------------------------------------- heuristic
@dataclass
class HeuristicStrategy:
    """The parameterised valuation of :mod:`sims.games.horno.heuristic`: its parameters are
    the spec's own, over its preset's (``None``: the player-count default
    ``heuristic-eqN`` where one ships), over the defaults."""

    spec: StrategySpec
    preset: str | None = None
    remembers = False
    _p: dict[str, float] = field(default_factory=dict, repr=False)
    _n: int = -1

    def params(self, n_players: int) -> dict[str, float]:
        """The resolved parameters at a player count (``avoid``, restricted play, is the
        spec's own: the shared preset machinery leaves it out)."""
        p = params_for(n_players, self.spec.params, self.preset)
        p["avoid"] = float(self.spec.params.get("avoid", -1))
        return p

    def resolved(self, n_players: int) -> dict[str, float]:
        if self._n != n_players:
            self._p, self._n = self.params(n_players), n_players
        return self._p

    def scores(self, view: PlayerView, decision: Decision) -> list[float]:
        """Its score of every legal action (the search ranks its candidates by them)."""
        return scores(view, decision, self.resolved(view.n_players))

    def light(self, view: LightView, decision: Decision) -> bool:
        """Whether a :class:`LightView` suffices: a draw while ``draw`` < 0 (a card's value
        is never negative, so drawing always scores above PASS's 0), a restock discard
        while the hand holds no more than ``room`` cards (PASS is the only choice that
        does not score −∞)."""
        p = self.resolved(view.n_players)
        phase = decision.phase
        return (phase == Phase.DRAW and p["draw"] < 0) or (
            phase == Phase.DISCARD and view.hand_size <= p["room"]
        )

    def choose(
        self, view: PlayerView | LightView, decision: Decision, rng: np.random.Generator
    ) -> int:
        if type(view) is LightView:  # the decisions light() names: see there
            return decision.legal[1] if decision.phase == Phase.DRAW else PASS
        return best(view, decision, self.scores(view, decision))


def _search(spec: StrategySpec) -> Strategy:
    from sims.games.horno.search import SearchStrategy

    return SearchStrategy(spec)


# ---------------------------------------------------------------------- catalogue
STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo("random", RandomStrategy, {}, "uniform over the legal actions"),
    "greedy": StrategyInfo(
        "greedy", GreedyStrategy, {},
        "pursues the dish in its oven: draws all it may and keeps what it needs, cleans "
        "out sabotage, steals what it needs, completes as soon as it can, sabotages the "
        "leader",
    ),
    "heuristic": StrategyInfo(
        "heuristic", HeuristicStrategy, dict(HEURISTIC_DEFAULTS),
        "scores every action from one card valuation: base, held, visible, late, radio "
        "(which dish), future, ammo (card values), discard, room, draw (restocking), steal, "
        "harm, leader (steals and whom), clean (its oven), sabotage (when; leader: whom), "
        "wild (when to place it); avoid: a dish type never taken while another is open "
        "(restricted play, not tuned)",
        dict(HEURISTIC_BOUNDS),
    ),
    "search": StrategyInfo(
        "search", _search, {},  # filled by _register_search_params from search.py
        "determinized flat Monte-Carlo search: the heuristic's best actions (at most width, "
        "within gap of its best) played out on the same samples of the hidden cards with "
        "the heuristic in every seat; budget (playouts per decision), restock (1: search "
        "the Restock step too)",
    ),
}  # fmt: skip


def _register_search_params() -> None:
    """search's defaults and bounds, declared next to its code (imported here, not at the
    top, because search.py imports this module)."""
    from sims.games.horno.search import SEARCH_BOUNDS, SEARCH_DEFAULTS

    STRATEGIES["search"].params.update({k: float(v) for k, v in SEARCH_DEFAULTS.items()})
    STRATEGIES["search"].bounds.update(SEARCH_BOUNDS)


def make_strategy(text: str | StrategySpec) -> Strategy:
    """Build a strategy from a spec: ``random``, ``greedy``, ``heuristic(steal=2)``, a
    preset (``heuristic-eq3``, ``heuristic-eq3(steal=2)``, a user's),
    ``search(budget=16)`` or a strategy written in Python, ``package.module:Name(...)``
    (:func:`sims.core.specs.load_code_strategy`; it plays on the reference engine, and is
    given the view's memory of hidden cards unless it says ``remembers = False``).

    Raises
    ------
    StrategySpecError
        Naming an unknown strategy or parameter, and what is known.
    """
    spec = parse_spec(text) if isinstance(text, str) else text
    if ":" in spec.name:
        return load_code_strategy(spec)
    info = STRATEGIES.get(spec.name)
    if info is None:
        if spec.name in load_presets():
            check_params(spec, STRATEGIES["heuristic"])
            return HeuristicStrategy(spec, preset=spec.name)
        raise StrategySpecError(
            f"unknown Horno strategy {spec.name!r}; known: {', '.join(sorted(STRATEGIES))} "
            "and the heuristic presets (see `slicelab strategies horno`)"
        )
    check_params(spec, info)
    return info.factory(spec)


def family_of(strategy: Strategy) -> str:
    """The family a built strategy belongs to (``heuristic`` for its presets)."""
    if isinstance(strategy, HeuristicStrategy):
        return "heuristic"
    return strategy.spec.name


_register_search_params()
