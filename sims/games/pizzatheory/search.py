"""``search(budget=…, places=…)``: a determinized flat Monte-Carlo search player, the
strongest Pizza Theory player slicelab has (``docs/strategies/pizzatheory.md``, "search",
is its specification).

At each real decision the player lists its candidate actions: at a CUT its six lines; at
a PLACE (and, at 2 players, the NEUTRAL placement) every legal space, or where there are
more than ``places`` the ``places`` best by the field heuristic's own placement value
(``SwingStrategy.place_values``, first among equals). It draws ``max(1, budget //
candidates)`` samples of what it cannot see, from its own stream: the other seats' cuts of
this round, each drawn from that seat's mix of the round's cut game as the shipped
``mixed`` player solves it (the field model), and at 2 players the neutral die's rolls it
has not seen. For each sample and candidate it plays the game out in the compiled kernel
(``kernel.playout_kernel``) with every seat playing the field heuristic — ``heuristic``
with this player's ``aggression``, ``leader`` and ``risk`` (defaults: the shipped
``heuristic``'s) — except the other seats' cuts of this round, which are the sample's. It
takes the candidate with the best total outcome — its win share plus a hundredth of its
toppings' margin over the best other seat — the same samples serving every candidate
(paired), the first of equal candidates winning.

Studies play search seats in the compiled kernel, decisions and playouts alike
(``kernel_search.py``, the twin of this class, decision for decision:
``tests/games/pizzatheory/test_pizzatheory_search.py``); this class is the readable
reference, played when an arm asks for ``engine = "reference"``. It reads only its
seat's view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from sims.core.specs import ParamBound, StrategySpec
from sims.games.pizzatheory.engine import Decision, Phase
from sims.games.pizzatheory.rules import COLOURS, NEUTRAL, Rules
from sims.games.pizzatheory.strategies import (
    HEURISTIC_BOUNDS,
    HEURISTIC_DEFAULTS,
    MIXED_DEFAULTS,
    MIXED_EQUILIBRIA,
    HeuristicStrategy,
    MixedStrategy,
)
from sims.games.pizzatheory.view import PlayerView

SEARCH_DEFAULTS: dict[str, float] = {
    "budget": 96, "places": 4, "model": 0,
    "aggression": HEURISTIC_DEFAULTS["aggression"], "leader": HEURISTIC_DEFAULTS["leader"],
    "risk": HEURISTIC_DEFAULTS["risk"],
}  # fmt: skip
"""``budget``: playouts per decision (at least one per candidate); ``places``: placement
candidates; ``aggression``, ``leader``, ``risk``: the field heuristic's valuation, which
every playout seat plays and the placement candidates are ranked by."""

SEARCH_BOUNDS: dict[str, ParamBound] = {
    # A playout is the rest of a game, ~0.1-1 ms: the cap keeps a decision under seconds.
    "budget": ParamBound(1, 10_000, integer=True),
    # A board has at most 255 spaces; larger values would take every legal space anyway.
    "places": ParamBound(1, 255, integer=True),
    # The field model of the others' cuts this round: 0 mixed's mixes, 1 the heuristic's.
    "model": ParamBound(0, 1, integer=True),
    "aggression": HEURISTIC_BOUNDS["aggression"],
    "leader": HEURISTIC_BOUNDS["leader"],
    "risk": HEURISTIC_BOUNDS["risk"],
}
"""The values each ``search`` parameter may take; a spec outside them is refused."""

assert set(SEARCH_BOUNDS) == set(SEARCH_DEFAULTS)

ST_NEUTRAL, ST_RESOLVE = 3, 7
"""The round's steps a playout starts at (``kernel_flow``): a placement by the seat at turn
index ``q`` is step ``q``; the neutral placement; the replacement, every line cut."""


@lru_cache(maxsize=16)
def _rules_array(rules: Rules) -> np.ndarray:
    from sims.games.pizzatheory.kernel import rules_array

    return rules_array(rules)


def first_seat(view: PlayerView) -> int:
    """The game's first seat (at position 1 in round 0), from what the view shows: the
    turn positions of this round, the round and the rotation rule."""
    from sims.games.pizzatheory.kernel import ROTATION_STEP

    r = view.round
    if view.n_players == 2:
        f = view.positions.index(0)
        return (f - r) % 2
    return (ROTATION_STEP[view.rules.rotation] * r - view.positions[0]) % 3


def draw_line(mix: np.ndarray, x: float) -> int:
    """``MixedStrategy.cut``'s draw from a mix: the first line whose cumulative share
    exceeds ``x``."""
    acc = 0.0
    for line in range(len(mix) - 1):
        acc = acc + float(mix[line])
        if acc > x:
            return line
    return len(mix) - 1


def outcome(won: np.ndarray, toppings: np.ndarray, seat: int) -> float:
    """A playout's value to ``seat``: its win share (``won`` is every seat's win key, all
    1 in a draw and a neutral win) plus a hundredth of its toppings' margin over the best
    other seat's."""
    share = int(won[seat]) / int(won.sum())
    other = max(int(toppings[q]) for q in range(len(toppings)) if q != seat)
    return share + 0.01 * float(int(toppings[seat]) - other)


def _top(values: np.ndarray, k: int) -> list[int]:
    """Indices of the ``k`` largest values (the first among equals), in index order."""
    order = sorted(range(len(values)), key=lambda i: (-float(values[i]), i))
    return sorted(order[:k])


@dataclass
class SearchStrategy:
    """Determinized flat Monte-Carlo search over a few candidates per decision (see the
    module docstring)."""

    spec: StrategySpec
    p: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Validated here too, so a strategy built without make_strategy cannot hang.
        given = {k: SEARCH_BOUNDS[k].check(self.spec.name, k, v) if k in SEARCH_BOUNDS else v
                 for k, v in self.spec.params.items()}  # fmt: skip
        self.p = {**SEARCH_DEFAULTS, **{k: float(v) for k, v in given.items()}}
        self._field = HeuristicStrategy(StrategySpec("heuristic", self.field_params()))
        self._model = MixedStrategy(StrategySpec("mixed"))

    def params(self, n_players: int) -> dict[str, float]:
        """The resolved parameters (the same at every player count)."""
        return dict(self.p)

    def field_params(self) -> dict[str, float]:
        """The field heuristic's valuation: what every playout seat plays."""
        return {k: self.p[k] for k in ("aggression", "leader", "risk")}

    def model_params(self, n_players: int) -> dict[str, float]:
        """The field model's parameters: the shipped ``mixed`` at ``n_players``, whose cut
        game the other seats' cuts of the round are drawn from."""
        return {**MIXED_DEFAULTS, **MIXED_EQUILIBRIA.get(n_players, {})}

    def kernel_row(self, n_players: int) -> list[float]:
        """The seat's parameter row for the kernel (``kernel_search``): the field
        valuation, blind 0, the model's iterations, budget, places, the model's
        aggression and leader."""
        m = self.model_params(n_players)
        return [self.p["aggression"], self.p["leader"], self.p["risk"], 0.0, m["iters"],
                self.p["budget"], self.p["places"], m["aggression"], m["leader"],
                self.p["model"]]  # fmt: skip

    def candidates(self, view: PlayerView, decision: Decision) -> list[int]:
        """The actions worth playing out: the six lines at a cut, else the legal spaces or
        the ``places`` best of them by the field heuristic's placement value."""
        legal = list(decision.legal)
        k = int(self.p["places"])
        if decision.phase == Phase.CUT or len(legal) <= k:
            return legal
        colour = decision.player if decision.phase == Phase.PLACE else NEUTRAL
        values = self._field.place_values(view, decision.player, colour, legal)
        return [legal[i] for i in _top(values, k)]

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        cands = self.candidates(view, decision)
        if len(cands) == 1:
            return cands[0]
        from sims.games.pizzatheory.kernel import board_arrays, playout_kernel

        n, seat, phase = view.n_players, decision.player, decision.phase
        self._field.resolve(n)
        rules, r = view.rules, view.round
        samples = max(1, int(self.p["budget"]) // len(cands))
        order = view.turn_order()
        others = [q for q in order if q != seat]
        pos = np.array(view.positions, dtype=np.int64)
        seen = np.full(COLOURS, -1, dtype=np.int64)  # this round's lines the seat sees
        die = np.zeros(rules.max_rounds, dtype=np.int64)
        rolled = r  # the first roll of the die the seat has not seen
        if n == 2 and phase != Phase.PLACE:
            seen[pos[NEUTRAL]] = die[r] = view.neutral_line
            rolled = r + 1
        mixed = self.p["model"] == 0
        mixes, lines_of = {}, {}
        if phase == Phase.CUT and mixed:
            mixes = {q: self._model.mix(view, q) for q in others}
        elif phase == Phase.CUT:  # the heuristic model: each other seat's best line
            lines_of = {q: self._field.cut(view, q, rng) for q in others}
        m = self.model_params(n)
        fp = self.field_params()
        field_row = np.array([fp["aggression"], fp["leader"], fp["risk"]])
        model_row = np.array([m["aggression"], m["leader"], m["iters"]])
        args = (*board_arrays(view.board), _rules_array(rules), n, field_row, model_row,
                np.array(view.owner, dtype=np.int64), np.array(view.supply, dtype=np.int64),
                pos, r, first_seat(view))  # fmt: skip
        out = np.zeros((n, 2), dtype=np.int64)
        totals = np.zeros(len(cands))
        for _ in range(samples):
            draws = {q: rng.random() for q in others} if mixed else {}  # in turn order
            if n == 2:
                for rr in range(rolled, rules.max_rounds):
                    die[rr] = int(rng.integers(0, 6))
            for j, action in enumerate(cands):
                lines = seen.copy()
                cutu = np.full(COLOURS, -1.0)
                if phase == Phase.CUT:  # every line known: the round is resolved
                    for q in others:
                        lines[pos[q]] = draw_line(mixes[q], draws[q]) if mixed else lines_of[q]
                    lines[pos[seat]] = action
                    step, forced = ST_RESOLVE, -1
                else:  # the others' cuts of the round drawn from their mixes then
                    for q in draws:
                        cutu[q] = draws[q]
                    step = order.index(seat) if phase == Phase.PLACE else ST_NEUTRAL
                    forced = action
                playout_kernel(*args, step, lines, die, forced, cutu, out)
                totals[j] += outcome(out[:, 0], out[:, 1], seat)
        return cands[int(np.argmax(totals))]  # the first maximum
