"""A self-play equilibrium field: a family's parameters that no deviation in the family
beats by much when every other seat plays them.

Damped iterated best response: start from a field (the family's defaults at the player
count), find the best deviation against it (:func:`sims.exploit.exploitability`, which
tunes the family with the current field among the candidates and local candidates around
it, and also measures any deviation of another family named, such as search), and move
the field a ``step`` of the way towards the family's best deviation's parameters. Stop
when the best deviation's gain is at most ``tolerance_pp`` and its 95% upper bound at most
``bound_pp`` (no deviation found is worth more), or after ``iterations``. Each iteration's
exploitability is measured on fresh deals, so the record is the evidence of convergence
(or of how far it got).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sims.core.errors import SlicelabError
from sims.core.game import get_game
from sims.core.specs import parse_spec
from sims.exploit import Exploit, exploitability
from sims.tune import spec_string, tunable_family


@dataclass(frozen=True)
class Iteration:
    """One step: the field played, its exploitability, and the field that follows."""

    index: int
    field: str
    params: dict[str, float]
    exploit: Exploit

    @property
    def gain_pp(self) -> float:
        return self.exploit.best.gain_pp

    @property
    def high_pp(self) -> float:
        return self.exploit.best.high_pp


@dataclass(frozen=True)
class SelfPlay:
    """The iterations, the field reached and whether it met the tolerance."""

    game: str
    players: int
    family: str
    iterations: list[Iteration]
    converged: bool

    @property
    def final(self) -> Iteration:
        """The least exploitable field measured (by its upper bound)."""
        return min(self.iterations, key=lambda it: it.high_pp)


def _params_of(spec: str, family: str) -> dict[str, float]:
    parsed = parse_spec(spec)
    if parsed.name != family:
        raise SlicelabError(f"a deviation {spec!r} is not of the family {family!r}")
    return {k: float(v) for k, v in parsed.params.items()}


def self_play(
    game: str,
    players: int,
    family: str | None = None,
    start: dict[str, float] | None = None,
    iterations: int = 8,
    step: float = 0.5,
    tolerance_pp: float = 2.0,
    bound_pp: float = 3.0,
    candidates: int = 16,
    games: int = 200,
    validation_games: int = 2000,
    spread: float = 0.15,
    seed: int = 1,
    jobs: int = 1,
    on_iteration: Callable[[Iteration], None] | None = None,
    also: tuple[str, ...] = (),
) -> SelfPlay:
    """Damped iterated best response within a family (see the module docstring).

    Parameters
    ----------
    start : dict, optional
        The first field's parameters (default: the family's defaults at ``players``).
    step : float
        How far the field moves towards each best response (1: all the way).
    tolerance_pp, bound_pp : float
        Converged when the best deviation's gain ≤ ``tolerance_pp`` and its upper 95%
        bound ≤ ``bound_pp`` (percentage points over the fair share).
    spread : float
        Local candidates around the field (see :func:`sims.tune.tune`).
    also : tuple of str
        Deviations outside the family (``search(budget=4)``) measured against every
        field with the tuned family (:func:`sims.exploit.exploitability`): convergence
        asks that none of them gains more than the tolerance either, while the field moves
        towards the family's own best response (it cannot take up a spec of another
        family).
    Other parameters are those of :func:`sims.exploit.exploitability`, for each iteration
    (its seed is ``seed + index``, so every iteration plays fresh deals).
    """
    the_game = get_game(game)
    if not 0 < step <= 1:
        raise SlicelabError(f"--step must be in (0, 1], got {step}")
    if iterations < 1:
        raise SlicelabError("--iterations must be at least 1")
    family = tunable_family(game, family)
    params = dict(start or the_game.strategy_defaults(family, players))
    done: list[Iteration] = []
    for i in range(iterations):
        field = spec_string(family, params)
        ex = exploitability(game, players, field, family, candidates=candidates, games=games,
                            validation_games=validation_games, seed=seed + i, jobs=jobs,
                            start=[params], spread=spread, also=also)  # fmt: skip
        it = Iteration(i, field, dict(params), ex)
        done.append(it)
        if on_iteration:
            on_iteration(it)
        if it.gain_pp <= tolerance_pp and it.high_pp <= bound_pp:
            return SelfPlay(game, players, family, done, True)
        br = _params_of(ex.tuning.best.spec, family)  # the family's own best response
        params = {k: round(v + step * (br.get(k, v) - v), 3) for k, v in params.items()}
    return SelfPlay(game, players, family, done, False)
