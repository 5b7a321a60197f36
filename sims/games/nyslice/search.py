"""``search(budget=…)``: a determinized Monte-Carlo search player, the strong reference.

At each real decision the player lists a few candidate actions (every legal one when
there are few; for the cut, the heuristic's best-scored cuts; for Dibs! and Sneak-a-Slice,
passing and the heuristic's best uses), samples determinizations of what it cannot see
(the order of the remaining stacks, the mystery pool, the replacement pile — see
:meth:`PlayerView.determinize`), and for each sample and candidate plays the game out in
the compiled kernel with every seat playing ``heuristic`` at its player-count defaults
(the self-play equilibrium ``heuristic-eqN``: the opponents are modelled as the
equilibrium field). It takes the candidate with the best mean outcome (win share, with the
score margin breaking ties), the same samples serving every candidate so the comparison
is paired: flat Monte Carlo over determinizations.

Studies play search seats in the compiled kernel, decisions and playouts alike
(``kernel/search.py``, the twin of this class, decision for decision:
``tests/games/nyslice/test_nyslice_kernel.py``); this class is the readable reference, and
the reference engine plays it when an arm asks for ``engine = "reference"``. A decision
costs about ``budget`` playouts (at least one per candidate).

Restricted play: a search seat may take ``avoid=<slug>`` or ``forfeit=<slug>`` like every
family; the engine filters its legal actions (so its candidates), and every seat keeps its
own restriction in the playouts (their parameter rows carry each seat's avoid and forfeit
columns).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from sims.core.specs import ParamBound, StrategySpec
from sims.games.nyslice.deck import Special
from sims.games.nyslice.engine import Decision, Phase
from sims.games.nyslice.heuristic import (
    PARAM_ORDER,
    HeuristicStrategy,
    Valuer,
    cut_scores,
    params_for,
)
from sims.games.nyslice.view import PlayerView

SEARCH_DEFAULTS: dict[str, float] = {"budget": 64, "cuts": 6, "width": 3}
"""``budget``: playouts per decision; ``cuts``: cut candidates; ``width``: Dibs!/Sneak uses."""

SEARCH_BOUNDS: dict[str, ParamBound] = {
    # A decision costs about max(budget, candidates) playouts of ~2 ms (6 players): the cap
    # keeps one decision under half a minute instead of hanging (budget=1e308 did).
    "budget": ParamBound(1, 10_000, integer=True),
    # There are at most 3,234 legal cuts (6 players, a ring of 11) and a few dozen Dibs! or
    # Sneak-a-Slice uses; larger values take them all, the caps only keep absurd numbers out.
    "cuts": ParamBound(1, 10_000, integer=True),
    "width": ParamBound(1, 100, integer=True),
}
"""The values each ``search`` parameter may take; a spec outside them is refused."""

assert set(SEARCH_BOUNDS) == set(SEARCH_DEFAULTS)


@lru_cache(maxsize=4)
def _runner(deck, rules):
    from sims.games.nyslice.kernel import KernelRunner

    return KernelRunner(deck, rules)


def _top(values: Sequence[float], k: int) -> list[int]:
    """Indices of the k largest values (first on ties), in index order."""
    order = sorted(range(len(values)), key=lambda i: (-values[i], i))
    return sorted(order[:k])


@dataclass
class SearchStrategy:
    """Determinized Monte-Carlo search over a few candidates per decision."""

    spec: StrategySpec
    p: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Validated here too, so a strategy built without make_strategy cannot hang either.
        from sims.games.nyslice.strategies import RESTRICTIONS, avoid_special, forfeit_special

        self._avoid = avoid_special(self.spec)
        self._forfeit = forfeit_special(self.spec)
        given = {
            k: SEARCH_BOUNDS[k].check(self.spec.name, k, v) if k in SEARCH_BOUNDS else v
            for k, v in self.spec.params.items()
            if k not in RESTRICTIONS
        }
        self.p = {**SEARCH_DEFAULTS, **{k: float(v) for k, v in given.items()}}
        self._heuristic = HeuristicStrategy(StrategySpec("heuristic"))

    @property
    def avoid(self) -> Special | None:
        """The special this seat avoids (restricted play), or ``None``."""
        return self._avoid

    @property
    def forfeit(self) -> Special | None:
        """The special this seat forfeits (restricted play), or ``None``."""
        return self._forfeit

    def candidates(self, view: PlayerView, decision: Decision) -> list[int]:
        """The actions worth simulating for this decision."""
        legal = list(decision.legal)
        ph = decision.phase
        if ph == Phase.CUT:
            val = Valuer(view, decision.player, params_for(view.n_players, {}))
            return _top(cut_scores(val, view), int(self.p["cuts"]))
        if ph in (Phase.DIBS, Phase.SNEAK):
            val = Valuer(view, decision.player, params_for(view.n_players, {}))
            width = int(self.p["width"])
            if ph == Phase.DIBS:
                values = [val.slice_value(decision.player, s, None) for s in view.pizza]
                return [0] + [1 + i for i in _top(values, width)]
            gains = []
            portions = view.portions
            for src, dst, from_end in view.sneak_moves():
                moved = [list(p.slices) for p in portions]
                if from_end:
                    moved[dst].insert(0, moved[src].pop())
                else:
                    moved[dst].append(moved[src].pop(0))
                gains.append(
                    max(
                        val.portion_value(decision.player, moved[i], portions[i].special)
                        for i, p in enumerate(portions)
                        if p.taken_by < 0
                    )
                )
            return [0] + [1 + j for j in _top(gains, width)]
        return legal

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        cands = self.candidates(view, decision)
        if len(cands) == 1:
            return cands[0]
        n = view.n_players
        seat = decision.player
        samples = max(1, int(self.p["budget"]) // len(cands))
        runner = _runner(view.deck, view.rules)
        from sims.games.nyslice.kernel.layout import (
            N_SEAT_PARAMS,
            S_AVOID,
            S_FORFEIT,
            avoid_code,
        )

        codes = np.full(n, 2, dtype=np.int64)  # every seat plays heuristic in the playouts
        default = params_for(n, {})
        hparams = np.zeros((n, N_SEAT_PARAMS), dtype=np.float64)
        hparams[:, : len(PARAM_ORDER)] = [default[k] for k in PARAM_ORDER]
        hparams[:, S_AVOID] = [avoid_code(view.without(q)) for q in range(n)]
        hparams[:, S_FORFEIT] = [float(view.forfeit(q) is not None) for q in range(n)]
        history = view.history
        totals = np.zeros(len(cands))
        for _ in range(samples):
            deal = view.determinize(rng)
            for j, action in enumerate(cands):
                scores = runner.play_deal(n, codes, hparams, deal, (*history, action))
                totals[j] += _outcome(scores, seat)
        best = int(np.argmax(totals))  # first maximum: the lowest candidate on ties
        return cands[best]


def _outcome(scores: np.ndarray, seat: int) -> float:
    """Win share of ``seat`` plus a hundredth of its margin over the best other score."""
    from sims.core.game import win_shares

    totals = scores[:, 5]
    eaten = scores[:, 6]
    share = win_shares([totals[None, :], eaten[None, :]])[0, seat]
    others = np.delete(totals, seat)
    return float(share) + 0.01 * float(totals[seat] - others.max())
