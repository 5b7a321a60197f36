"""Tuning a strategy family against a field by successive halving over paired games.

Candidates are random points of the family's parameter box (plus its current defaults).
Every round plays each surviving candidate on the same new block of seat-rotated games
(common random numbers: the comparison is paired), keeps the better half by mean win
share over all games seen so far, and doubles the block. The winner is then measured on
fresh games (a seed derived with ``SeedSequence``) so its reported win share and interval
are not inflated by the selection.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sims.arena import play_rotated
from sims.core.errors import SlicelabError
from sims.core.game import get_game
from sims.core.intervals import mean_interval


@dataclass
class Candidate:
    """A parameter set and the per-game win shares it has earned so far."""

    params: dict[str, float]
    spec: str
    per_game: list[np.ndarray] = field(default_factory=list)

    @property
    def share(self) -> float:
        return float(np.concatenate(self.per_game).mean()) if self.per_game else float("nan")


@dataclass
class TuneResult:
    """The winner, its validation on fresh games, and every round's standings."""

    game: str
    family: str
    players: int
    field: str
    best: Candidate
    validation_games: int
    validation_seed: int
    share: float
    low: float
    high: float
    rounds: list[list[tuple[str, float, int]]]

    @property
    def fair(self) -> float:
        return 1.0 / self.players


def spec_string(family: str, params: dict[str, float]) -> str:
    """``family(key=value,...)`` with values rounded to 3 decimals."""
    inner = ",".join(f"{k}={round(v, 3):g}" for k, v in params.items())
    return f"{family}({inner})"


def _sample(rng: np.random.Generator, ranges: dict[str, tuple[float, float]]) -> dict[str, float]:
    return {k: round(float(rng.uniform(lo, hi)), 3) for k, (lo, hi) in ranges.items()}


def _near(
    rng: np.random.Generator, ranges: dict[str, tuple[float, float]], centre: dict[str, float],
    spread: float,
) -> dict[str, float]:  # fmt: skip
    out = {}
    for k, (lo, hi) in ranges.items():
        x = centre.get(k, (lo + hi) / 2) + rng.uniform(-spread, spread) * (hi - lo)
        out[k] = round(float(min(max(x, lo), hi)), 3)
    return out


def tunable_family(game: str, family: str | None = None) -> str:
    """The family to tune: ``family``, or the game's first with declared parameter ranges.

    Raises
    ------
    SlicelabError
        Naming the families that can be tuned, when ``family`` is not one of them (or the
        game has none).
    """
    the_game = get_game(game)
    tunable = [i.name for i in the_game.strategies() if i.ranges and not i.preset_of]
    if family is None and tunable:
        return tunable[0]
    if family not in tunable:
        what = repr(family) if family is not None else "a strategy family"
        raise SlicelabError(f"cannot tune {what}: {the_game.info.title}'s families with "
                            f"parameter ranges are {tunable or 'none'}")  # fmt: skip
    return family


def tune(
    game: str,
    players: int,
    field: str,
    family: str,
    candidates: int = 16,
    games: int = 200,
    validation_games: int = 2000,
    seed: int = 1,
    jobs: int = 1,
    on_round: Callable[[int, list[Candidate], int], None] | None = None,
    start: list[dict[str, float]] | None = None,
    spread: float = 0.0,
) -> TuneResult:
    """Search ``family``'s parameters for the best win share against ``field``.

    Parameters
    ----------
    game : str
        A registered game.
    players : int
        Player count.
    field : str
        Spec of the strategy in the other seats.
    family : str
        A strategy family of the game with declared parameter ranges
        (:attr:`sims.core.game.StrategyInfo.ranges`).
    candidates : int
        Parameter sets in the first round (the family's defaults are one of them).
    games : int
        Seat-rotated games per candidate in the first round (doubled every round).
    validation_games : int
        Fresh games on which the winner is measured.
    seed : int
        Seeds the candidate sampling and the games.
    start : list of dict, optional
        Parameter sets that enter the first round (default: the family's defaults at
        ``players``); the rest are sampled.
    spread : float
        When above 0, half the sampled candidates are drawn around the first ``start``
        (each parameter moved by up to ``spread`` times its range, clipped to it): a local
        search next to a global one.
    """
    the_game = get_game(game)
    family = tunable_family(game, family)
    ranges = next(i.ranges for i in the_game.strategies() if i.name == family)
    if candidates < 2:
        raise SlicelabError("--candidates must be at least 2")
    ss = np.random.SeedSequence([seed, players])
    sample_rng = np.random.Generator(np.random.PCG64(ss.spawn(1)[0]))
    validation_seed = int(ss.generate_state(1)[0])
    seeds = start or [the_game.strategy_defaults(family, players)]
    pool = [Candidate(dict(p), "") for p in seeds[:candidates]]
    while len(pool) < candidates:
        near = spread > 0 and len(pool) % 2 == 0
        params = (
            _near(sample_rng, ranges, seeds[0], spread) if near else _sample(sample_rng, ranges)
        )
        pool.append(Candidate(params, ""))
    for c in pool:
        c.spec = spec_string(family, c.params)
    first, block, rounds = 0, games, []
    while True:
        for c in pool:
            res = play_rotated(game, c.spec, field, players, block, seed, first=first, jobs=jobs)
            c.per_game.append(res.per_game())
        first += block
        pool.sort(key=lambda c: -c.share)
        rounds.append([(c.spec, c.share, first) for c in pool])
        if on_round:
            on_round(len(rounds), pool, first)
        if len(pool) == 1:
            break
        pool = pool[: math.ceil(len(pool) / 2)]
        block *= 2
    best = pool[0]
    val = play_rotated(
        game, best.spec, field, players, validation_games, validation_seed, jobs=jobs
    )
    mean, low, high = mean_interval(val.per_game())
    return TuneResult(
        game=game, family=family, players=players, field=field, best=best,
        validation_games=validation_games, validation_seed=validation_seed,
        share=mean, low=low, high=high, rounds=rounds,
    )  # fmt: skip
