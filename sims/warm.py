"""Compile the kernels a set of studies will play before they play (``slicelab warm``).

A compiled kernel is compiled on its first call and written to numba's on-disk cache;
later processes load it. A study run on ``jobs`` workers with a cold cache has every
worker compile its game's kernel at the same moment, each the same work: on two cores
New York Slice's kernel alone holds both for minutes, and the next study's game then
compiles again, alone. Compiling every game's kernel once, one game a process, ``jobs``
processes at a time, takes about as long as the largest of them, after which every study
run loads its kernel from the cache.

A game's kernel is compiled by playing one game of an arm on it (the entry point the
runner calls, :func:`sims.batch.play_tables`): once for every distinct set of strategy
families with the decision records on or off, as the study's arms ask; each such game is
played to the end, so nothing here depends on which functions a game's kernel has.

Every other command that plays games compiles what it needs the same way first, with a
line saying so, when numba's cache does not hold it (:func:`sims.compiling.compile_first`,
through :func:`warm_plan`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from joblib import Parallel, delayed

from sims.batch import play_tables
from sims.core.game import get_game
from sims.core.specs import parse_spec
from sims.core.study import Arm, Study


@dataclass(frozen=True)
class Warmed:
    """One game's kernel compiled (or loaded) by :func:`warm`.

    Attributes
    ----------
    game : str
        The game's registry name.
    arms : tuple of str
        The arms whose first game was played on the kernel.
    seconds, cpu_seconds : float
        Wall time and the worker's CPU time.
    """

    game: str
    arms: tuple[str, ...]
    seconds: float
    cpu_seconds: float


def plan(studies: Sequence[Study]) -> dict[str, list[Arm]]:
    """Per game (in the order the studies first name it), the arms to play one game of:
    the first kernel arm of every distinct (decision records, strategy families)."""
    out: dict[str, list[Arm]] = {}
    seen: set[tuple] = set()
    for study in studies:
        for arm in study.arms:
            if get_game(arm.game).engine_for(arm) != "kernel":
                continue
            key = (arm.game, arm.decisions, frozenset(parse_spec(s).name for s in arm.strategies))
            if key not in seen:
                seen.add(key)
                out.setdefault(arm.game, []).append(arm)
    return out


def warm_game(game: str, arms: Sequence[Arm]) -> Warmed:
    """Play the first game of each arm on its engine (the kernel for :func:`plan`'s arms),
    compiling what it calls (or loading it from numba's cache), and say how long that took."""
    t0, c0 = time.perf_counter(), time.process_time()
    for arm in arms:
        play_tables(arm, 0, 1, decisions=arm.decisions)
    return Warmed(game, tuple(a.name for a in arms), time.perf_counter() - t0,
                  time.process_time() - c0)  # fmt: skip


def warm(studies: Sequence[Study], jobs: int = 1) -> list[Warmed]:
    """Compile the kernel of every game the studies play on one, a game per process and
    ``jobs`` processes at a time (the first game named first: put the largest first).

    Returns
    -------
    list of Warmed
        One per game with kernel arms, in :func:`plan`'s order; empty when none has.
    """
    return warm_plan(plan(studies), jobs)


def warm_plan(todo: dict[str, list[Arm]], jobs: int = 1) -> list[Warmed]:
    """:func:`warm_game` for every game of ``todo`` (game: arms), a game per process and
    ``jobs`` processes at a time (one process: this one); in ``todo``'s order."""
    if not todo:
        return []
    if jobs == 1 or len(todo) == 1:
        return [warm_game(g, arms) for g, arms in todo.items()]
    run = Parallel(n_jobs=min(jobs, len(todo)), batch_size=1, pre_dispatch="all")
    return list(run(delayed(warm_game)(g, arms) for g, arms in todo.items()))
