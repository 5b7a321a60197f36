"""Built-in Piece o' Cake strategies: ``random``, ``greedy`` and ``heuristic(theta, loss,
fewer, margin)``, exactly as ``docs/strategies/pieceocake.md`` writes them (the compiled
kernel implements the same text, and the agreement tests require the same action at every
decision); ``search(budget, cuts)`` lives in :mod:`sims.games.pieceocake.search` and is
registered here.

``greedy`` and ``heuristic`` share one valuation (:class:`Valuation`): a variety's
*majority worth* ``W(m)`` (greedy: the points the seat would score for it if the game
ended now; heuristic: its value times a modelled chance of holding the majority), the
*collect gain* ``G = W(m + 1) - W(m)`` of one more slice, the *slice decision* (eat when the
cream beats ``theta * G``), the *piece value* (the slice decisions along the piece, the
count updated after each collected slice) and the *forgo value* (the best net of eating
slices of one variety collected in earlier cakes). Greedy is that machinery with the
myopic ``W`` and fixed parameters.

For the cut, the values of every arc of the circle (each start, each length) are computed
once per seat, and the round is played out for every legal cut at once with NumPy
(:func:`cut_values`; :func:`cut_values_loop` is the same cut by cut, as the text reads, and
the tests check they agree to the bit), so a 5-player cut (1013 masks) is quick.

Every "best" takes the first maximum in the order stated (strict ``>``), and the float
arithmetic is done in the order the specification writes it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol

import numpy as np

from sims.core.errors import StrategySpecError
from sims.core.specs import StrategySpec, load_code_strategy, parse_spec
from sims.games.catalogue import Family as StrategyInfo
from sims.games.catalogue import check_params
from sims.games.pieceocake.cuts import pieces_of
from sims.games.pieceocake.engine import Decision, Phase
from sims.games.pieceocake.heuristic import (
    GREEDY_PARAMS,
    HEURISTIC_BOUNDS,
    HEURISTIC_DEFAULTS,
    load_presets,
    params_for,
)
from sims.games.pieceocake.view import PlayerView

NEG_INF = -math.inf


class Strategy(Protocol):
    """What the engine asks of a strategy."""

    spec: StrategySpec

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        """Return one of ``decision.legal``."""
        ...


@dataclass
class RandomStrategy:
    """Uniform over the legal actions of every decision: one ``integers`` draw from the
    seat's own stream per decision (forced moves are never asked, so draw nothing)."""

    spec: StrategySpec

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        legal = decision.legal
        return int(legal[int(rng.integers(0, len(legal)))])


# --------------------------------------------------------------------- the valuation
@cache
def mask_arcs(mask: int) -> tuple[tuple[int, int], ...]:
    """The pieces of a cut as ``(start position, length)`` arcs, in piece order."""
    return tuple((p[0], len(p)) for p in pieces_of(mask))


class Valuation:
    """The shared valuation of ``docs/strategies/pieceocake.md`` for every seat, at one
    moment of the game (counts as they stand before the decision).

    Parameters
    ----------
    view : PlayerView
        The deciding seat's view (everything used is open information).
    theta, loss : float
        The slice decision's weight of collecting, and the forgo value's weight of the
        majority worth given up.
    myopic : bool
        Greedy's majority worth (the points under ``majority_ties`` if the game ended now)
        instead of the heuristic's modelled chance.
    """

    def __init__(self, view: PlayerView, theta: float, loss: float, myopic: bool) -> None:
        cake = view.cake
        self.variety = view.slice_variety
        self.value = [v.value for v in cake.varieties]
        self.cream = [v.cream for v in cake.varieties]
        self.nv = len(cake.varieties)
        self.n = view.n_players
        self.counts = view.all_counts()
        self.u = view.unseen_left()
        self.ties = view.rules.majority_ties
        self.forgo_eats = view.rules.forgo_eats
        self.theta = theta
        self.loss = loss
        self.myopic = myopic
        self._view = view
        self._edible: dict[int, list[int]] = {}
        self._rivals: dict[int, tuple[list[int], list[int]]] = {}
        self._choice: dict[tuple[int, int, int], tuple[bool, float]] = {}

    def rivals(self, seat: int) -> tuple[list[int], list[int]]:
        """Per variety: ``r``, the largest collected count among the other seats, and ``j``,
        how many other seats hold ``r``."""
        got = self._rivals.get(seat)
        if got is None:
            r, j = [0] * self.nv, [0] * self.nv
            for q in range(self.n):
                if q == seat:
                    continue
                row = self.counts[q]
                for v in range(self.nv):
                    if row[v] > r[v]:
                        r[v], j[v] = row[v], 1
                    elif row[v] == r[v]:
                        j[v] += 1
            got = self._rivals[seat] = (r, j)
        return got

    def worth(self, seat: int, v: int, m: int) -> float:
        """Majority worth ``W(m)`` to ``seat`` of holding ``m`` slices of variety ``v``."""
        if m == 0:
            return 0.0
        rs, js = self.rivals(seat)
        r = rs[v]
        value = self.value[v]
        if self.myopic:
            if self.ties == "full":
                return float(value) if m >= r else 0.0
            if m > r:
                return float(value)
            if self.ties == "split" and m == r:
                return float(value // (1 + js[v]))
            return 0.0
        p = min(1.0, max(0.0, 0.5 + (m - r) / (2.0 * (1.0 + self.u[v] / self.n))))
        return value * p

    def slice_choice(self, seat: int, v: int, m: int) -> tuple[bool, float]:
        """The slice decision for a slice of ``v`` when ``seat`` holds ``m`` of it: (eat?,
        the decision's value ``max(c, theta * G)``)."""
        key = (seat, v, m)
        got = self._choice.get(key)
        if got is None:
            g = self.worth(seat, v, m + 1) - self.worth(seat, v, m)
            tg = self.theta * g
            c = self.cream[v]
            got = (True, float(c)) if c > tg else (False, tg)
            self._choice[key] = got
        return got

    def piece_value(self, seat: int, slices: Sequence[int]) -> float:
        """The sum of the slice decisions' values along the piece, ``m`` updated after each
        collected slice (the other counts and ``u`` unchanged)."""
        row = self.counts[seat]
        extra: dict[int, int] = {}
        total = 0.0
        for sid in slices:
            v = self.variety[sid]
            k = extra.get(v, 0)
            eat, value = self.slice_choice(seat, v, row[v] + k)
            total += value
            if not eat:
                extra[v] = k + 1
        return total

    def arc_values(self, seat: int, circle: Sequence[int]) -> list[list[float]]:
        """``A[start][length]``: the piece value to ``seat`` of every arc of the circle
        (``length`` 0 to the whole circle), each start walked once."""
        size = len(circle)
        row = self.counts[seat]
        kinds = [self.variety[sid] for sid in circle]
        choices: dict[tuple[int, int], tuple[bool, float]] = {}
        out = []
        for start in range(size):
            values = [0.0]
            extra = [0] * self.nv
            total = 0.0
            for i in range(size):
                v = kinds[(start + i) % size]
                key = (v, extra[v])
                got = choices.get(key)
                if got is None:
                    got = choices[key] = self.slice_choice(seat, v, row[v] + extra[v])
                total += got[1]
                if not got[0]:
                    extra[v] += 1
                values.append(total)
            out.append(values)
        return out

    def edible(self, seat: int) -> list[int]:
        """Per variety, ``e``: the collected slices ``seat`` could eat by forgoing now (those
        of earlier cakes, ``e <= m``)."""
        got = self._edible.get(seat)
        if got is None:
            got = self._edible[seat] = self._view.forgo_edible(seat)
        return got

    def eat_net(self, seat: int, v: int, k: int) -> float:
        """The net of eating ``k`` of ``seat``'s collected slices of ``v`` when forgoing:
        ``k * c - loss * (W(m) - W(m - k))``."""
        m = self.counts[seat][v]
        return k * self.cream[v] - self.loss * (self.worth(seat, v, m) - self.worth(seat, v, m - k))

    def best_count(self, seat: int, v: int) -> tuple[int, float]:
        """How many slices of ``v`` to eat when forgoing, and the net: every edible one
        (rule ``forgo_eats = "all"``: ``k = e``), or the best ``k`` in ``1..e`` (smallest
        among equal)."""
        e = self.edible(seat)[v]
        if self.forgo_eats != "choose":
            return e, self.eat_net(seat, v, e)
        best_k, best = 0, NEG_INF
        for k in range(1, e + 1):
            net = self.eat_net(seat, v, k)
            if net > best:
                best_k, best = k, net
        return best_k, best

    def forgo(self, seat: int) -> tuple[float, int, int]:
        """The forgo value and what it eats: ``(value, variety, k)``, the best positive net
        over the varieties with ``e > 0`` in variety order (first among equal);
        ``(0.0, -1, 0)`` when no net is positive or the rule ``forgo_eats = "none"`` allows
        no eating."""
        if self.forgo_eats == "none":
            return 0.0, -1, 0
        best, best_v, best_k = 0.0, -1, 0
        edible = self.edible(seat)
        for v in range(self.nv):
            if edible[v] > 0:
                k, net = self.best_count(seat, v)
                if net > best:
                    best, best_v, best_k = net, v, k
        return best, best_v, best_k


@cache
def _cut_layout(legal: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pieces of every cut in ``legal`` as arrays ``(cuts, most pieces)``: each piece's
    start and length (padding: length 0) and each cut's piece count."""
    arcs = [mask_arcs(m) for m in legal]
    width = max(len(a) for a in arcs)
    starts = np.zeros((len(legal), width), dtype=np.intp)
    lengths = np.zeros((len(legal), width), dtype=np.intp)
    for i, a in enumerate(arcs):
        for j, (start, length) in enumerate(a):
            starts[i, j], lengths[i, j] = start, length
    counts = np.array([len(a) for a in arcs], dtype=np.int64)
    for arr in (starts, lengths, counts):
        arr.flags.writeable = False
    return starts, lengths, counts


def cut_values(val: Valuation, view: PlayerView, legal: Sequence[int], fewer: float) -> np.ndarray:
    """The server's evaluation of every cut in ``legal`` (``docs/strategies/pieceocake.md``,
    CUT), all cuts at once; :func:`cut_values_loop` is the same, cut by cut.

    The turns are played on every cut's pieces together: at each turn, a seat with a piece
    free takes the first best one (``argmax`` returns the first maximum), a seat with none
    forgoes (and stops if ``forgo_ends_picking``), unless it took a piece and
    ``forced_forgo_after_take`` is off (its turn passes); the server adds its pieces' values and
    its forgo value in turn order, then ``fewer * (most pieces - pieces)``. Each cut's
    arithmetic is the loop's, in the same order.
    """
    n = view.n_players
    server = view.seat
    circle = view.circle
    starts, lengths, counts = _cut_layout(tuple(legal))
    rows = np.arange(len(legal))
    padding = lengths == 0
    values = []
    for t in range(n):
        table = np.array(val.arc_values(t, circle), dtype=np.float64)
        values.append(np.where(padding, NEG_INF, table[starts, lengths]))
    forgo_value = val.forgo(server)[0]
    stops = view.rules.forgo_ends_picking
    after_take = view.rules.forced_forgo_after_take
    taken = padding.copy()
    free = counts.copy()
    ev = np.zeros(len(legal), dtype=np.float64)
    stopped = np.zeros((n, len(legal)), dtype=bool)
    took = np.zeros((n, len(legal)), dtype=bool)
    for t in view.turn_order():
        active = ~stopped[t]
        picking = active & (free > 0)
        forgoing = active & (free == 0)
        if not after_take:
            forgoing &= ~took[t]  # a seat that took a piece passes
        pick = np.argmax(np.where(taken, NEG_INF, values[t]), axis=1)
        taken[rows[picking], pick[picking]] = True
        took[t] |= picking
        free = free - picking
        if t == server:
            got = values[t][rows, pick]
            ev = np.where(picking, ev + got, ev)
            ev = np.where(forgoing, ev + forgo_value, ev)
        if stops:
            stopped[t] |= forgoing
    return ev + fewer * (view.max_pieces - counts)


def cut_values_loop(
    val: Valuation, view: PlayerView, legal: Sequence[int], fewer: float
) -> list[float]:
    """:func:`cut_values` written as the specification reads, one cut at a time."""
    n = view.n_players
    server = view.seat
    arcs = [val.arc_values(t, view.circle) for t in range(n)]
    forgo_value = val.forgo(server)[0]
    stops = view.rules.forgo_ends_picking
    after_take = view.rules.forced_forgo_after_take
    out = []
    for mask in legal:
        pieces = mask_arcs(mask)
        k = len(pieces)
        taken = [False] * k
        free = k
        ev = 0.0
        stopped: list[int] = []
        took: set[int] = set()
        for t in view.turn_order():
            if t in stopped:
                continue
            if free == 0:
                if t in took and not after_take:
                    continue  # it has had its piece: the turn passes
                if t == server:
                    ev += forgo_value
                if stops:
                    stopped.append(t)
                continue
            pick, pick_value = -1, NEG_INF
            for j in range(k):
                if not taken[j]:
                    start, length = pieces[j]
                    x = arcs[t][start][length]
                    if x > pick_value:
                        pick, pick_value = j, x
            taken[pick] = True
            took.add(t)
            free -= 1
            if t == server:
                ev += pick_value
        ev += fewer * (view.max_pieces - k)
        out.append(ev)
    return out


def best_cut(
    val: Valuation, view: PlayerView, legal: Sequence[int], fewer: float
) -> tuple[int, float]:
    """The server's cut: the legal mask of the best evaluation (the lowest mask among
    equal, ``legal`` being ascending), and that evaluation."""
    values = cut_values(val, view, legal, fewer)
    i = int(np.argmax(values))
    return int(legal[i]), float(values[i])


@dataclass
class ValuationStrategy:
    """A player deciding by the shared valuation (greedy and heuristic); see the module
    docstring and ``docs/strategies/pieceocake.md``, "Every decision"."""

    spec: StrategySpec
    preset: str | None = None
    myopic: bool = False
    p: dict[str, float] = field(default_factory=dict)
    _n: int = -1

    def params(self, n_players: int) -> dict[str, float]:
        """The resolved parameters at a player count."""
        raise NotImplementedError

    def valuation(self, view: PlayerView) -> Valuation:
        """The valuation from ``view`` with this strategy's parameters."""
        if self._n != view.n_players:
            self._n = view.n_players
            self.p = self.params(view.n_players)
        return Valuation(view, self.p["theta"], self.p["loss"], self.myopic)

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        val = self.valuation(view)
        seat = decision.player
        ph = decision.phase
        if ph == Phase.EAT:
            v = val.variety[decision.slice]
            eat, _ = val.slice_choice(seat, v, val.counts[seat][v])
            return int(eat)
        if ph == Phase.CHOOSE:
            return self._choose(view, val, seat, decision.legal)
        if ph == Phase.CUT:
            return best_cut(val, view, decision.legal, self.p["fewer"])[0]
        if ph == Phase.FORGO_EAT:
            _, v, _ = val.forgo(seat)
            return 1 + v if v >= 0 else 0
        if ph == Phase.FORGO_COUNT:
            return val.best_count(seat, decision.variety)[0]
        raise AssertionError(f"unhandled phase {ph}")

    def _choose(self, view: PlayerView, val: Valuation, seat: int, legal: Sequence[int]) -> int:
        pieces = view.pieces
        best_j, best = -1, NEG_INF
        for a in legal:
            if a == 0:
                continue
            x = val.piece_value(seat, pieces[a - 1].slices)
            if x > best:
                best_j, best = a - 1, x
        if val.forgo(seat)[0] > best + self.p["margin"]:
            return 0
        return 1 + best_j


@dataclass
class GreedyStrategy(ValuationStrategy):
    """The valuation with the myopic majority worth and theta 1, loss 1, fewer 0, margin 0."""

    myopic: bool = True

    def params(self, n_players: int) -> dict[str, float]:
        return dict(GREEDY_PARAMS)


@dataclass
class HeuristicStrategy(ValuationStrategy):
    """The valuation with the heuristic majority worth and its parameters: the spec's own,
    over its preset's (``None``: the player-count default ``heuristic-eqN``), over the
    defaults."""

    myopic: bool = False

    def params(self, n_players: int) -> dict[str, float]:
        return params_for(n_players, self.spec.params, self.preset)


def _search(spec: StrategySpec) -> Strategy:
    from sims.games.pieceocake.search import SearchStrategy

    return SearchStrategy(spec)


# ---------------------------------------------------------------------- catalogue
STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo("random", RandomStrategy, {}, "uniform over the legal actions"),
    "greedy": StrategyInfo(
        "greedy",
        GreedyStrategy,
        {},
        "eats when the cream beats the points one more slice would score now; cuts for the "
        "best piece left to it; forgoes to eat a variety when that nets more",
    ),
    "heuristic": StrategyInfo(
        "heuristic",
        HeuristicStrategy,
        dict(HEURISTIC_DEFAULTS),
        "greedy's decisions on a modelled chance of each majority; tunable theta (collect "
        "vs eat), loss (eating a majority when forgoing), fewer (cutting fewer pieces), "
        "margin (forgoing)",
        dict(HEURISTIC_BOUNDS),
    ),
    "search": StrategyInfo(
        "search",
        _search,
        {},  # filled by _register_search_params from search.py
        "determinized flat Monte-Carlo search: every candidate played out in the kernel "
        "against the equilibrium heuristic; budget (playouts per decision), cuts (cut "
        "candidates)",
    ),
}


def _register_search_params() -> None:
    """search's defaults and bounds, declared next to its code (imported here, not at the
    top, because search.py imports this module)."""
    from sims.games.pieceocake.search import SEARCH_BOUNDS, SEARCH_DEFAULTS

    STRATEGIES["search"].params.update({k: float(v) for k, v in SEARCH_DEFAULTS.items()})
    STRATEGIES["search"].bounds.update(SEARCH_BOUNDS)


def _import_strategy(spec: StrategySpec) -> Strategy:
    """A strategy written in Python: ``package.module:Factory(key=value)`` calls
    ``Factory(spec)``; such strategies run on the reference engine. Looked for on the
    Python path, then beside the study file and in the working directory
    (:func:`sims.core.specs.load_code_strategy`)."""
    return load_code_strategy(spec)


def make_strategy(text: str | StrategySpec) -> Strategy:
    """Build a strategy from a spec: ``random``, ``greedy``, ``heuristic(theta=2)``, a
    preset (``heuristic-eq4``, ``heuristic-eq4(margin=1)``, a user's) or a Python strategy
    ``package.module:Name(...)``.

    Raises
    ------
    StrategySpecError
        Naming an unknown strategy or parameter, and what is known.
    """
    spec = parse_spec(text) if isinstance(text, str) else text
    if ":" in spec.name:
        return _import_strategy(spec)
    info = STRATEGIES.get(spec.name)
    if info is None:
        if spec.name in load_presets():
            check_params(spec, STRATEGIES["heuristic"])
            return HeuristicStrategy(spec, preset=spec.name)
        raise StrategySpecError(
            f"unknown Piece o' Cake strategy {spec.name!r}; known: "
            f"{', '.join(sorted(STRATEGIES))} and the heuristic presets "
            "(see `slicelab strategies pieceocake`)"
        )
    check_params(spec, info)
    return info.factory(spec)


def family_of(strategy: Strategy) -> str:
    """The family a built strategy belongs to (``heuristic`` for its presets)."""
    if isinstance(strategy, HeuristicStrategy):
        return "heuristic"
    return strategy.spec.name


_register_search_params()
