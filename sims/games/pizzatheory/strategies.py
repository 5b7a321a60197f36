"""Built-in Pizza Theory strategies, exactly as ``docs/strategies/pizzatheory.md`` writes
them: ``random``; ``greedy`` and ``heuristic(aggression, leader, risk)``, which value every
placement and cut by the immediate swing of the round's resolution against the other
seats' cuts drawn uniformly (:mod:`sims.games.pizzatheory.swing`); and ``mixed(iters, …)``,
which places as the heuristic does but cuts by mixing over its six lines with the
regret-matching average strategy of the round's cut game (a pure best response to a
simultaneous cut is exploitable); and ``search(budget, …)``, which plays its candidates
out (:mod:`sims.games.pizzatheory.search`, registered here).

Every "best" takes the first maximum (the lowest space or line among equals). No choice
depends on a colour's number: where the two other colours tie for the lead, the swing
weighs both alike (:func:`~sims.games.pizzatheory.swing.leading_other`), so a relabelling
of the colours changes no decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from sims.core.errors import StrategySpecError
from sims.core.specs import ParamBound, StrategySpec, load_code_strategy, parse_spec
from sims.games.catalogue import Family as StrategyInfo
from sims.games.catalogue import check_params
from sims.games.pizzatheory.board import LINES_PER_DIRECTION
from sims.games.pizzatheory.engine import Decision, Phase
from sims.games.pizzatheory.rules import COLOURS, NEUTRAL
from sims.games.pizzatheory.swing import deltas, roles, swing
from sims.games.pizzatheory.view import PlayerView
from sims.games.presets import Presets

HEURISTIC_DEFAULTS: dict[str, float] = {
    "aggression": 1.0, "leader": 0.5, "risk": 0.0, "blind": 0,
}  # fmt: skip
"""``heuristic``'s parameters and their defaults before any preset (plain ``heuristic`` at N
players plays the shipped preset ``heuristic-eqN`` over these, where there is one)."""
GREEDY_PARAMS: dict[str, float] = {"aggression": 1.0, "leader": 0.0, "risk": 0.0, "blind": 0}
"""``greedy``: the heuristic's valuation with these fixed parameters."""
HEURISTIC_BOUNDS: dict[str, ParamBound] = {
    # Weights of the other colours' change against one's own: negative would reward
    # helping them.
    "aggression": ParamBound(0.0, 10.0),
    "leader": ParamBound(0.0, 10.0),
    # Standard deviations of the swing over the others' cuts given up per point of mean.
    "risk": ParamBound(-5.0, 5.0),
    # Rounds at the start in which the seat places uniformly at random (restricted play:
    # what its first placements are worth).
    "blind": ParamBound(0, 1_000, integer=True),
}
PARAM_RANGES: dict[str, tuple[float, float]] = {
    "aggression": (0.0, 2.0),
    "leader": (0.0, 2.0),
    "risk": (-1.0, 1.0),
}
"""The box that tuning searches."""
MIXED_DEFAULTS: dict[str, float] = {"iters": 200, **HEURISTIC_DEFAULTS}
"""``mixed``'s parameters before its player-count defaults (:data:`MIXED_EQUILIBRIA`)."""
MIXED_EQUILIBRIA: dict[int, dict[str, float]] = {
    # slicelab equilibrium pizzatheory -p 3 --family mixed --field mixed --candidates 12
    #   --games 100 --validation-games 1000 --iterations 6 --tolerance 1.0 --bound 2.0
    #   --seed 43: converged after 2 iterations (no deviation of the 12 sampled beat it in
    #   the tuning; the defaults above were exploitable by +7.6 pp [+6.0, +9.2])
    3: {"aggression": 0.731, "leader": 0.595, "risk": -0.482},
    # the same at -p 2: not converged in 6 iterations; the least exploitable field found,
    #   +0.0 pp [-2.1, +2.2] (the defaults above: +10.3 pp [+8.4, +12.2])
    2: {"aggression": 0.746, "leader": 0.873, "risk": 0.162},
}
"""Plain ``mixed``'s valuation at N players: the self-play equilibrium found by damped
iterated best response within the family (``slicelab equilibrium``), over
:data:`MIXED_DEFAULTS`; explicit parameters override it."""
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


def line_value(x: np.ndarray, y: np.ndarray, z: np.ndarray, aggression: float,
               leader: float, risk: float) -> np.ndarray:  # fmt: skip
    """The value of a line from its outcomes' changes ``x``, ``y`` (integers) and ``z``
    (integers, or halves where the two other colours tie for the lead; :func:`swing.roles`),
    shape ``(..., m)``: the ``m`` equally likely lines of the unknown directions): the mean
    of the swing ``V = x - (aggression / 2) y - leader z`` minus ``risk`` times its standard
    deviation (over the ``m`` outcomes, ``ddof = 0``).

    Both moments come from sums of integers and of halves and quarters (exact whatever the
    order of summation), then a fixed sequence of float operations, which the compiled
    kernel repeats scalar by scalar: the two engines value every line with the same float
    and so break ties alike.
    """
    m = x.shape[-1]
    h = 0.5 * aggression
    sx, sy, sz = x.sum(axis=-1), y.sum(axis=-1), z.sum(axis=-1)
    mean = ((sx - h * sy) - leader * sz) / m
    if risk == 0:
        return mean
    sxx, syy, szz = (x * x).sum(axis=-1), (y * y).sum(axis=-1), (z * z).sum(axis=-1)
    sxy, sxz, syz = (x * y).sum(axis=-1), (x * z).sum(axis=-1), (y * z).sum(axis=-1)
    e2 = (((((sxx + (h * h) * syy) + (leader * leader) * szz) - (2.0 * h) * sxy)
           - (2.0 * leader) * sxz) + ((2.0 * h) * leader) * syz) / m  # fmt: skip
    var = np.maximum(e2 - mean * mean, 0.0)  # rounding can make it a hair negative
    return mean - risk * np.sqrt(var)


def _arrange(v: np.ndarray, view: PlayerView, colour: int, known: dict[int, int]) -> np.ndarray:
    """``v`` (..., 6, 6, 6) by the lines of directions 0, 1, 2 as (..., 6, m): ``colour``'s
    line first, then the ``m`` combinations of the unknown directions' lines (the known
    directions fixed at their line)."""
    lead = v.ndim - 3
    for d in sorted(known, reverse=True):
        v = np.take(v, known[d], axis=lead + d)
    free = [d for d in range(3) if d not in known]
    v = np.moveaxis(v, lead + free.index(view.positions[colour]), lead)
    return v.reshape(v.shape[: lead + 1] + (-1,))


def _on_board(view: PlayerView) -> list[int]:
    return [view.on_board(c) for c in range(COLOURS)]


def line_values(view: PlayerView, d: np.ndarray, colour: int, p: dict[str, float],
                known: dict[int, int]) -> np.ndarray:  # fmt: skip
    """For each line of ``colour``'s direction, its value (:func:`line_value`) to
    ``colour`` with parameters ``p`` over the unknown directions' lines drawn uniformly,
    from the changes ``d`` (:func:`swing.deltas`, shape ``(..., 6, 6, 6, COLOURS)``):
    shape ``(..., 6)``."""
    x, y, z = (_arrange(v, view, colour, known) for v in roles(d, colour, _on_board(view)))
    return line_value(x, y, z, p["aggression"], p["leader"], p["risk"])


@dataclass
class SwingStrategy:
    """A player valuing placements and cuts by the immediate swing (greedy, heuristic)."""

    spec: StrategySpec
    preset: str | None = None
    p: dict[str, float] = field(default_factory=dict)
    _n: int = -1

    def params(self, n_players: int) -> dict[str, float]:
        """The resolved parameters at a player count."""
        raise NotImplementedError

    def resolve(self, n_players: int) -> dict[str, float]:
        """:attr:`p`, the parameters at ``n_players`` (resolved once per player count)."""
        if self._n != n_players:
            self._n = n_players
            self.p = self.params(n_players)
        return self.p

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        self.resolve(view.n_players)
        seat = decision.player
        if decision.phase == Phase.CUT:
            return self.cut(view, seat, rng)
        if decision.phase == Phase.PLACE and view.round < self.p["blind"]:
            return decision.legal[int(rng.integers(0, len(decision.legal)))]
        placed = seat if decision.phase == Phase.PLACE else NEUTRAL
        return self.place(view, seat, placed, decision.legal)

    def place_values(self, view: PlayerView, seat: int, colour: int, legal) -> np.ndarray:
        """For each legal space, the value to ``seat`` of its best line after a topping of
        ``colour`` is placed there (and one taken from its supply)."""
        self.resolve(view.n_players)
        owner = np.tile(np.array(view.owner), (len(legal), 1))
        owner[np.arange(len(legal)), list(legal)] = colour
        supply = np.tile(np.array(view.supply), (len(legal), 1))
        supply[:, colour] -= 1
        d = deltas(view.board, view.rules, owner, supply)
        known = _known_lines(view) if colour == NEUTRAL else {}
        return line_values(view, d, seat, self.p, known).max(axis=-1)

    def place(self, view: PlayerView, seat: int, colour: int, legal) -> int:
        """The legal space whose placement (of ``colour``) leaves ``seat`` the best value
        of its best line afterwards."""
        return legal[_first_max(self.place_values(view, seat, colour, legal))]

    def cut(self, view: PlayerView, seat: int, rng: np.random.Generator) -> int:
        """The line of the best value against the others' cuts drawn uniformly."""
        d = deltas(view.board, view.rules, np.array(view.owner), np.array(view.supply))
        return _first_max(line_values(view, d, seat, self.p, _known_lines(view)))


@dataclass
class GreedyStrategy(SwingStrategy):
    """The swing valuation with :data:`GREEDY_PARAMS`."""

    def params(self, n_players: int) -> dict[str, float]:
        return dict(GREEDY_PARAMS)


@dataclass
class HeuristicStrategy(SwingStrategy):
    """The swing valuation with its parameters: the spec's own, over its preset's
    (``None``: the player-count default ``heuristic-eqN``), over the defaults."""

    def params(self, n_players: int) -> dict[str, float]:
        return params_for(n_players, self.spec.params, self.preset)


def _contract_last(u: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """``u @ sigma`` over ``u``'s last axis, summed line by line from 0 (a fixed order, so
    the compiled kernel's loop gives the same floats; a BLAS product would not)."""
    acc = np.zeros(u.shape[:-1])
    for t in range(LINES_PER_DIRECTION):
        acc = acc + u[..., t] * sigma[t]
    return acc


def _total(v: np.ndarray) -> float:
    acc = 0.0
    for x in v:
        acc = acc + float(x)
    return acc


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

    Notes
    -----
    Every sum runs in a fixed order (the other players' axes contracted last first, each
    line by line from 0) so that the compiled kernel reproduces the floats exactly.
    """
    k = len(payoffs)
    # each payoff with its own axis first: the others' axes are then contracted last-first
    moved = [np.moveaxis(np.asarray(u, dtype=np.float64), i, 0) for i, u in enumerate(payoffs)]
    uniform = np.full(LINES_PER_DIRECTION, 1 / LINES_PER_DIRECTION)
    regrets = [np.zeros(LINES_PER_DIRECTION) for _ in range(k)]
    totals = [np.zeros(LINES_PER_DIRECTION) for _ in range(k)]
    for _ in range(iters):
        sigma = []
        for r in regrets:
            pos = np.maximum(r, 0.0)
            total = _total(pos)
            sigma.append(pos / total if total > 0 else uniform)
        for i in range(k):
            u = moved[i]
            for j in reversed(range(k)):
                if j != i:
                    u = _contract_last(u, sigma[j])
            regrets[i] = regrets[i] + (u - _total(u * sigma[i]))
            totals[i] = totals[i] + sigma[i]
    return [t / _total(t) for t in totals]


@dataclass
class MixedStrategy(SwingStrategy):
    """Places as the heuristic; cuts by sampling its line from regret matching's average
    strategy of the round's cut game, every player valued by the heuristic's swing."""

    def params(self, n_players: int) -> dict[str, float]:
        own = {k: float(v) for k, v in self.spec.params.items()}
        return {**MIXED_DEFAULTS, **MIXED_EQUILIBRIA.get(n_players, {}), **own}

    def mix(self, view: PlayerView, seat: int) -> np.ndarray:
        """The seat's mixed strategy over its six lines this round."""
        self.resolve(view.n_players)
        d = deltas(view.board, view.rules, np.array(view.owner), np.array(view.supply))
        known = _known_lines(view)
        players = view.turn_order()
        on_board = _on_board(view)
        payoffs = []
        for c in players:
            v = swing(d, c, self.p["aggression"], self.p["leader"], on_board)
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
        x = rng.random()
        acc = 0.0
        for line in range(LINES_PER_DIRECTION - 1):  # the first cumulative share above x
            acc = acc + float(mix[line])
            if acc > x:
                return line
        return LINES_PER_DIRECTION - 1


def _search(spec: StrategySpec) -> Strategy:
    from sims.games.pizzatheory.search import SearchStrategy

    return SearchStrategy(spec)


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
        "(extra weight on the leader's) and risk (aversion to the swing's spread); blind: "
        "rounds at the start it places at random",
        dict(HEURISTIC_BOUNDS),
    ),
    "mixed": StrategyInfo(
        "mixed", MixedStrategy, dict(MIXED_DEFAULTS),
        "places as heuristic; cuts by sampling regret matching's average strategy of the "
        "round's simultaneous cut game (iters iterations); its valuation at 2 and 3 players "
        "defaults to the self-play equilibrium (docs/strategies/pizzatheory.md)",
        dict(MIXED_BOUNDS),
    ),
    "search": StrategyInfo(
        "search", _search, {},  # filled below from search.py
        "determinized flat Monte-Carlo search: each candidate played out on samples of the "
        "others' cuts (the mixed field's mixes) by heuristic seats; the strongest player "
        "(about budget playouts a decision, whole games in the kernel)",
    ),
}  # fmt: skip


def _register_search() -> None:
    """search's defaults and bounds, declared next to its code (imported here, at the end,
    because search.py imports this module)."""
    from sims.games.pizzatheory.search import SEARCH_BOUNDS, SEARCH_DEFAULTS

    STRATEGIES["search"].params.update({k: float(v) for k, v in SEARCH_DEFAULTS.items()})
    STRATEGIES["search"].bounds.update(SEARCH_BOUNDS)
    for info in STRATEGIES.values():
        assert set(info.bounds) == set(info.params), info.name


_register_search()


def make_strategy(text: str | StrategySpec) -> Strategy:
    """Build a strategy from a spec: ``random``, ``greedy``, ``heuristic(leader=1)``, a
    preset (``heuristic-eq3``, ``heuristic-eq3(risk=0.2)``, a user's), ``mixed(iters=400)``,
    ``search(budget=24)``, or a strategy written in Python, ``package.module:Name(...)``
    (:func:`sims.core.specs.load_code_strategy`; it plays on the reference engine).

    Raises
    ------
    StrategySpecError
        Naming an unknown strategy or parameter, and what is known.
    """
    spec = parse_spec(text) if isinstance(text, str) else text
    if ":" in spec.name:  # package.module:Name, played on the reference engine
        return load_code_strategy(spec)
    info = STRATEGIES.get(spec.name)
    if info is None:
        if spec.name in load_presets():
            check_params(spec, STRATEGIES["heuristic"])
            return HeuristicStrategy(spec, preset=spec.name)
        raise StrategySpecError(
            f"unknown Pizza Theory strategy {spec.name!r}; known: "
            f"{', '.join(sorted(STRATEGIES))} and the heuristic presets (see `slicelab "
            "strategies pizzatheory`)"
        )
    check_params(spec, info)
    return info.factory(spec)


def seat_params(text: str | StrategySpec, n_players: int) -> dict[str, float]:
    """A swing strategy's resolved parameters at ``n_players`` (what the kernel plays)."""
    strategy = make_strategy(text)
    if not isinstance(strategy, SwingStrategy):
        raise StrategySpecError(f"{strategy.spec} has no swing parameters")
    return strategy.params(n_players)


# ------------------------------------------------------------------------ presets
PRESETS_FILE = Path(__file__).parent / "data" / "presets.toml"
"""The presets shipped with slicelab (``heuristic-eqN``: plain ``heuristic``'s parameters
at N players). Read only: presets a user saves go to the user's presets file."""

PRESETS = Presets(
    game="pizzatheory",
    title="Pizza Theory",
    shipped_file=lambda: PRESETS_FILE,  # looked up on each read: a test may point it elsewhere
    defaults=HEURISTIC_DEFAULTS,
    bounds=HEURISTIC_BOUNDS,
    families=lambda: list(STRATEGIES),
)
"""This game's presets (:class:`sims.games.presets.Presets`)."""
load_presets = PRESETS.load
params_for = PRESETS.params_for
