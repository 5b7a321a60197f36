"""Built-in Pizza Theory strategies, exactly as ``docs/strategies/pizzatheory.md`` writes
them: ``random``; ``greedy`` and ``heuristic(aggression, leader, risk)``, which value every
placement and cut by the immediate swing of the round's resolution against the other
seats' cuts drawn uniformly (:mod:`sims.games.pizzatheory.swing`); and ``mixed(iters, …)``,
which places as the heuristic does but cuts by mixing over its six lines with the
regret-matching average strategy of the round's cut game (a pure best response to a
simultaneous cut is exploitable).

Every "best" takes the first maximum (the lowest space or line among equals).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from sims.core.errors import StrategySpecError
from sims.core.specs import ParamBound, StrategySpec, parse_spec
from sims.games.catalogue import Family as StrategyInfo
from sims.games.catalogue import check_params
from sims.games.pizzatheory.board import LINES_PER_DIRECTION
from sims.games.pizzatheory.engine import Decision, Phase
from sims.games.pizzatheory.rules import COLOURS, NEUTRAL
from sims.games.pizzatheory.swing import deltas, swing
from sims.games.pizzatheory.view import PlayerView

HEURISTIC_DEFAULTS: dict[str, float] = {"aggression": 1.0, "leader": 0.5, "risk": 0.0}
"""``heuristic``'s parameters and their (untuned) defaults."""
GREEDY_PARAMS: dict[str, float] = {"aggression": 1.0, "leader": 0.0, "risk": 0.0}
"""``greedy``: the heuristic's valuation with these fixed parameters."""
HEURISTIC_BOUNDS: dict[str, ParamBound] = {
    # Weights of the other colours' change against one's own: negative would reward
    # helping them.
    "aggression": ParamBound(0.0, 10.0),
    "leader": ParamBound(0.0, 10.0),
    # Standard deviations of the swing over the others' cuts given up per point of mean.
    "risk": ParamBound(-5.0, 5.0),
}
PARAM_RANGES: dict[str, tuple[float, float]] = {
    "aggression": (0.0, 2.0),
    "leader": (0.0, 2.0),
    "risk": (-1.0, 1.0),
}
"""The box that tuning searches."""
MIXED_DEFAULTS: dict[str, float] = {"iters": 200, **HEURISTIC_DEFAULTS}
MIXED_BOUNDS: dict[str, ParamBound] = {
    "iters": ParamBound(1, 100_000, integer=True),
    **HEURISTIC_BOUNDS,
}


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

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        return decision.legal[int(rng.integers(0, len(decision.legal)))]


def _first_max(values: np.ndarray) -> int:
    return int(np.argmax(values))


def _known_lines(view: PlayerView) -> dict[int, int]:
    """Directions whose line is known at the cut: at 2 players the neutral die's."""
    if view.n_players == 2 and view.neutral_line >= 0:
        return {view.positions[NEUTRAL]: view.neutral_line}
    return {}


def line_values(view: PlayerView, value: np.ndarray, colour: int, risk: float,
                known: dict[int, int]) -> np.ndarray:  # fmt: skip
    """For each line of ``colour``'s direction, the mean of ``value`` (indexed ``(...,
    6, 6, 6)`` by the lines of directions 0, 1, 2) over the unknown directions' lines drawn
    uniformly, minus ``risk`` times its standard deviation: shape ``(..., 6)``."""
    lead = value.ndim - 3
    v = value
    for d in sorted(known, reverse=True):  # fix the known directions' lines
        v = np.take(v, known[d], axis=lead + d)
    free = [d for d in range(3) if d not in known]  # the directions left, in order
    v = np.moveaxis(v, lead + free.index(view.positions[colour]), lead)
    rest = tuple(range(lead + 1, v.ndim))
    out = v.mean(axis=rest) if rest else v
    if risk and rest:
        out = out - risk * v.std(axis=rest)
    return out


@dataclass
class SwingStrategy:
    """A player valuing placements and cuts by the immediate swing (greedy, heuristic)."""

    spec: StrategySpec
    p: dict[str, float] = field(default_factory=dict)

    def value(self, view: PlayerView, d: np.ndarray, colour: int) -> np.ndarray:
        """``colour``'s value of each outcome of ``d`` (:func:`swing.swing`)."""
        on_board = np.array([view.on_board(c) for c in range(COLOURS)])
        return swing(d, colour, self.p["aggression"], self.p["leader"], on_board)

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        seat = decision.player
        if decision.phase == Phase.CUT:
            return self.cut(view, seat, rng)
        placed = seat if decision.phase == Phase.PLACE else NEUTRAL
        return self.place(view, seat, placed, decision.legal)

    def place(self, view: PlayerView, seat: int, colour: int, legal) -> int:
        """The legal space whose placement (of ``colour``) leaves ``seat`` the best value
        of its best line afterwards."""
        owner = np.tile(np.array(view.owner), (len(legal), 1))
        owner[np.arange(len(legal)), list(legal)] = colour
        supply = np.tile(np.array(view.supply), (len(legal), 1))
        supply[:, colour] -= 1
        d = deltas(view.board, view.rules, owner, supply)
        known = _known_lines(view) if colour == NEUTRAL else {}
        lines = line_values(view, self.value(view, d, seat), seat, self.p["risk"], known)
        return legal[_first_max(lines.max(axis=-1))]

    def cut(self, view: PlayerView, seat: int, rng: np.random.Generator) -> int:
        """The line of the best value against the others' cuts drawn uniformly."""
        d = deltas(view.board, view.rules, np.array(view.owner), np.array(view.supply))
        lines = line_values(view, self.value(view, d, seat), seat, self.p["risk"],
                            _known_lines(view))  # fmt: skip
        return _first_max(lines)


@dataclass
class GreedyStrategy(SwingStrategy):
    """The swing valuation with :data:`GREEDY_PARAMS`."""

    def __post_init__(self) -> None:
        self.p = dict(GREEDY_PARAMS)


@dataclass
class HeuristicStrategy(SwingStrategy):
    """The swing valuation with its parameters (the spec's over the defaults)."""

    def __post_init__(self) -> None:
        self.p = {**HEURISTIC_DEFAULTS, **{k: float(v) for k, v in self.spec.params.items()}}


def regret_matching(payoffs: list[np.ndarray], iters: int) -> list[np.ndarray]:
    """Average strategies of regret matching in a simultaneous game.

    Parameters
    ----------
    payoffs : list of arrays
        ``payoffs[i]`` is player i's payoff, indexed by every player's action in order
        (shape ``(6,) * players``).
    iters : int
        Iterations; all players update together from the same start (uniform).

    Returns
    -------
    list of arrays (6,)
        Each player's average strategy over the iterations.
    """
    k = len(payoffs)
    # each payoff with its own axis first: the others' axes are then contracted last-first
    moved = [np.moveaxis(u, i, 0) for i, u in enumerate(payoffs)]
    uniform = np.full(LINES_PER_DIRECTION, 1 / LINES_PER_DIRECTION)
    regrets = [np.zeros(LINES_PER_DIRECTION) for _ in range(k)]
    totals = [np.zeros(LINES_PER_DIRECTION) for _ in range(k)]
    for _ in range(iters):
        sigma = []
        for r in regrets:
            pos = np.maximum(r, 0.0)
            total = pos.sum()
            sigma.append(pos / total if total > 0 else uniform)
        for i in range(k):
            u = moved[i]
            for j in reversed(range(k)):
                if j != i:
                    u = u @ sigma[j]
            regrets[i] += u - u @ sigma[i]
            totals[i] += sigma[i]
    return [t / t.sum() for t in totals]


@dataclass
class MixedStrategy(HeuristicStrategy):
    """Places as the heuristic; cuts by sampling its line from regret matching's average
    strategy of the round's cut game, every player valued by the heuristic's swing."""

    def __post_init__(self) -> None:
        self.p = {**MIXED_DEFAULTS, **{k: float(v) for k, v in self.spec.params.items()}}

    def mix(self, view: PlayerView, seat: int) -> np.ndarray:
        """The seat's mixed strategy over its six lines this round."""
        d = deltas(view.board, view.rules, np.array(view.owner), np.array(view.supply))
        known = _known_lines(view)
        players = view.turn_order()
        payoffs = []
        for c in players:
            v = self.value(view, d, c)
            for dd in sorted(known, reverse=True):
                v = np.take(v, known[dd], axis=dd)
            free = [dd for dd in range(3) if dd not in known]
            # axes in the players' order (each player's direction)
            v = np.transpose(v, [free.index(view.positions[q]) for q in players])
            payoffs.append(v)
        mixes = regret_matching(payoffs, int(self.p["iters"]))
        return mixes[players.index(seat)]

    def cut(self, view: PlayerView, seat: int, rng: np.random.Generator) -> int:
        mix = self.mix(view, seat)
        return int(min(np.searchsorted(np.cumsum(mix), rng.random(), side="right"), 5))


# ---------------------------------------------------------------------- catalogue
STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo("random", RandomStrategy, {}, "uniform over the legal actions"),
    "greedy": StrategyInfo(
        "greedy", GreedyStrategy, {},
        "places and cuts for the best expected immediate swing (own change minus the "
        "others' mean) against the others' cuts drawn uniformly",
    ),
    "heuristic": StrategyInfo(
        "heuristic", HeuristicStrategy, dict(HEURISTIC_DEFAULTS),
        "greedy's swing with tunable aggression (weight of the others' change), leader "
        "(extra weight on the leader's) and risk (aversion to the swing's spread)",
        dict(HEURISTIC_BOUNDS),
    ),
    "mixed": StrategyInfo(
        "mixed", MixedStrategy, dict(MIXED_DEFAULTS),
        "places as heuristic; cuts by sampling regret matching's average strategy of the "
        "round's simultaneous cut game (iters iterations)",
        dict(MIXED_BOUNDS),
    ),
}  # fmt: skip


def make_strategy(text: str | StrategySpec) -> Strategy:
    """Build a strategy from a spec: ``random``, ``greedy``, ``heuristic(leader=1)``,
    ``mixed(iters=400)``.

    Raises
    ------
    StrategySpecError
        Naming an unknown strategy or parameter, and what is known.
    """
    spec = parse_spec(text) if isinstance(text, str) else text
    info = STRATEGIES.get(spec.name)
    if info is None:
        raise StrategySpecError(
            f"unknown Pizza Theory strategy {spec.name!r}; known: "
            f"{', '.join(sorted(STRATEGIES))} (see `slicelab strategies pizzatheory`)"
        )
    check_params(spec, info)
    return info.factory(spec)
