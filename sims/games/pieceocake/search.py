"""``search(budget=…, cuts=…)``: a determinized Monte-Carlo search player, the strong
reference for Piece o' Cake.

At each real decision the player lists its candidate actions (every legal one, except at
the cut: the ``cuts`` best cuts by the heuristic's own evaluation, ``strategies.cut_values``
with the player-count default ``heuristic-eqN``), draws determinizations of what it
cannot see (the order of the slices not yet laid: :meth:`PlayerView.determinize`, from the
seat's own stream), and for each sample and candidate plays the game out in the compiled
kernel (``KernelRunner.playouts``): the decisions so far forced, the candidate taken, then
every seat playing ``heuristic`` at its player-count default (the opponents modelled as
the equilibrium field). It takes the candidate with the best mean outcome — its win share
under the ``tie`` rule plus a hundredth of its score margin over the best other seat,
summed sample by sample — the same samples serving every candidate so the comparison is
paired (flat Monte Carlo over determinizations); the first of equal candidates wins. A
decision costs ``max(1, budget // candidates)`` samples times the candidates in playouts.

Studies play search seats in the compiled kernel, decisions and playouts alike
(``kernel/search.py`` and ``kernel/candidates.py``, the twin of this class decision for
decision, the same candidates, determinizations from the same draws of the seat's stream
and the same outcome sums: ``tests/games/pieceocake/test_pieceocake_search_kernel.py``);
``engine = "auto"`` picks the kernel. This class is the readable reference, which the
reference engine plays when an arm asks for ``engine = "reference"`` (its playouts still
run in the kernel, ``KernelRunner.playouts``). Every decision in Piece o' Cake is made in
the open, so the only hidden information is the order of the slices still to come.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from sims.core.specs import ParamBound, StrategySpec
from sims.games.pieceocake.cake import Cake
from sims.games.pieceocake.engine import Decision, Phase
from sims.games.pieceocake.heuristic import PARAM_ORDER, params_for
from sims.games.pieceocake.rules import Rules
from sims.games.pieceocake.strategies import Valuation, cut_values
from sims.games.pieceocake.view import PlayerView

SEARCH_DEFAULTS: dict[str, float] = {"budget": 64, "cuts": 6}
"""``budget``: playouts per decision; ``cuts``: cut candidates."""

SEARCH_BOUNDS: dict[str, ParamBound] = {
    # A playout is a whole game of ~20-60 µs: the cap keeps one decision under a second.
    "budget": ParamBound(1, 10_000, integer=True),
    # At most 1,013 legal cuts (5 players); larger values take them all.
    "cuts": ParamBound(1, 10_000, integer=True),
}
"""The values each ``search`` parameter may take; a spec outside them is refused."""

assert set(SEARCH_BOUNDS) == set(SEARCH_DEFAULTS)


@lru_cache(maxsize=8)
def _runner(cake: Cake, rules: Rules):
    from sims.games.pieceocake.kernel import KernelRunner

    return KernelRunner(cake, rules)


def _top(values: Sequence[float], k: int) -> list[int]:
    """Indices of the k largest values (the first among equals), in index order."""
    order = sorted(range(len(values)), key=lambda i: (-values[i], i))
    return sorted(order[:k])


def outcomes(scores: np.ndarray, seat: int, tie: str) -> np.ndarray:
    """Each playout's value to ``seat``: its win share (the best score wins; under
    ``tie="cream"`` more cream breaks a points tie; seats still level share it) plus a
    hundredth of its score margin over the best other seat.

    ``scores``: (..., n, SCORE_COLUMNS) from the kernel; returns the leading shape.
    """
    from sims.games.pieceocake.kernel.layout import SC_CREAM, SC_SCORE

    points = scores[..., SC_SCORE].astype(np.int64)
    won = points == points.max(axis=-1, keepdims=True)
    if tie == "cream":
        cream = np.where(won, scores[..., SC_CREAM], -1)
        won = cream == cream.max(axis=-1, keepdims=True)
    share = np.where(won[..., seat], 1.0 / won.sum(axis=-1), 0.0)
    others = np.delete(points, seat, axis=-1).max(axis=-1)
    return share + 0.01 * (points[..., seat] - others)


@dataclass
class SearchStrategy:
    """Determinized Monte-Carlo search over a few candidates per decision (see the module
    docstring)."""

    spec: StrategySpec
    p: dict[str, float] = field(default_factory=dict)
    _field: dict[int, dict[str, float]] = field(default_factory=dict, repr=False)

    def field_params(self, n_players: int) -> dict[str, float]:
        """The heuristic every playout seat plays (and the cut candidates are ranked by):
        its player-count default ``heuristic-eqN``."""
        if n_players not in self._field:
            self._field[n_players] = params_for(n_players, {})
        return self._field[n_players]

    def __post_init__(self) -> None:
        # Validated here too, so a strategy built without make_strategy cannot hang.
        given = {k: SEARCH_BOUNDS[k].check(self.spec.name, k, v) if k in SEARCH_BOUNDS else v
                 for k, v in self.spec.params.items()}  # fmt: skip
        self.p = {**SEARCH_DEFAULTS, **{k: float(v) for k, v in given.items()}}

    def candidates(self, view: PlayerView, decision: Decision) -> list[int]:
        """The indices in ``decision.legal`` worth playing out."""
        legal = decision.legal
        if decision.phase != Phase.CUT:
            return list(range(len(legal)))
        p = self.field_params(view.n_players)
        val = Valuation(view, p["theta"], p["loss"], False)
        values = cut_values(val, view, legal, p["fewer"])
        return _top([float(x) for x in values], int(self.p["cuts"]))

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        cands = self.candidates(view, decision)
        if len(cands) == 1:
            return decision.legal[cands[0]]
        n = view.n_players
        samples = max(1, int(self.p["budget"]) // len(cands))
        deals = view.determinize(rng, samples)
        prefix = list(view.choices)
        default = self.field_params(n)
        hparams = np.tile([float(default[k]) for k in PARAM_ORDER], (n, 1))
        scores = _runner(view.cake, view.rules).playouts(
            n, hparams, deals, [[*prefix, c] for c in cands]
        )
        totals = np.zeros(len(cands))
        for row in outcomes(scores, decision.player, view.rules.tie):
            totals += row  # sample by sample, as the kernel sums (kernel/search.py)
        return decision.legal[cands[int(np.argmax(totals))]]  # first maximum on ties
