"""Say so before a game's kernel compiles, and compile it before the games are dispatched.

A game's compiled kernel is compiled on its first call and written to numba's on-disk
cache; later processes load it in about a second. That first call takes minutes (New York
Slice's study kernel about four on a 2-core machine), and it comes inside the first chunk a
command plays: a progress bar at 0 for minutes, then done. So every command that plays
games (``slicelab study``, ``simulate``, ``report`` STUDY, ``play``, ``demo``, ``replay``,
``tune``, ``exploit``, ``equilibrium``, ``warm``) calls :func:`compile_first` with the arms
it is about to play, once, before the first game. When numba's cache holds what those arms
call (:func:`is_cached`), it prints nothing and returns. Otherwise it prints one line::

    compiling the Pizza Theory kernel (first run only, about a minute and a half on a
    2-core machine; `slicelab warm STUDY` compiles ahead)

compiles it there and then, a spinner and the time elapsed showing while it does, by
playing one game of the arms that need it (:func:`sims.warm.warm_plan`, what ``slicelab
warm`` does: a game per process, ``jobs`` processes at a time), and closes with
``compiled in 74 s``. The command's own games then load the kernel from the cache, in this
process or in its workers: the line is printed by the process that does the compiling, or
waits for the processes that do, so it is true with ``--jobs`` too (and ``jobs`` workers
no longer compile the same kernel side by side). A Dask cluster's workers have their own
caches, which this process cannot see: when this machine's cache lacks a kernel, a run on
a cluster prints :func:`cluster_notice` (the workers may compile it on their first chunk)
and compiles nothing here. ``slicelab report`` prints :func:`analysis_notice` before
analyses that replay games on a kernel whose replay functions the cache lacks.

What a kernel is, found through the game, not by name (this module, like the runner and
the command line, knows no game's code): the study entry point ``play_games_kernel`` of
the ``kernel`` module of the package the game's plugin belongs to, for an arm the game
plays on its kernel; for an arm on the reference engine, the playout kernels the game
declares (:attr:`sims.core.game.GameInfo.playout_kernels`: search players that play their
playouts on the kernel). The time a compile takes is the game's declared measurement
(:attr:`~sims.core.game.GameInfo.compile_seconds`).
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from sims.core.game import get_game
from sims.core.specs import parse_spec
from sims.core.study import Arm, Study

STUDY_ENTRY = "play_games_kernel"
"""The function of a game's ``kernel`` module that plays its study games (every kernel arm
calls it first; everything else of the kernel is compiled into it)."""

HINT = "slicelab warm STUDY"


def _kernel_attr(game: str, dotted: str) -> Any:
    """``dotted`` (``name`` or ``module.name``) of the game's ``kernel`` module, or None
    when the game has no such module or function."""
    package = type(get_game(game)).__module__.rpartition(".")[0]
    module, _, name = dotted.rpartition(".")
    target = ".".join(p for p in (package, "kernel", module) if p)
    try:
        mod = importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name and target.startswith(exc.name):
            return None  # no kernel (or no such module of it): nothing compiles
        raise
    return getattr(mod, name, None)


def entry_points(arm: Arm) -> list[Any]:
    """The compiled functions (numba dispatchers) that playing ``arm``'s games calls first:
    its game's study kernel when the game plays it on the kernel, else the playout kernels
    of its seats' families (:attr:`~sims.core.game.GameInfo.playout_kernels`); none for
    a game without a kernel."""
    game = get_game(arm.game)
    if game.engine_for(arm) == "kernel":
        names = [STUDY_ENTRY]
    else:
        playouts = game.info.playout_kernels
        families = sorted({parse_spec(s).name for s in arm.strategies})
        names = [playouts[f] for f in families if f in playouts]
    found = (_kernel_attr(arm.game, n) for n in names)
    return [d for d in found if d is not None]


def is_cached(dispatcher: Any) -> bool:
    """Whether calling ``dispatcher`` loads it rather than compiles it: compiled in this
    process already, or numba's on-disk cache (wherever numba puts it: next to the
    sources, ``NUMBA_CACHE_DIR``, or the user's cache) holds a version of it for this
    source (the stamp :mod:`sims.games.kernel_cache` keys on the whole kernel), this
    bytecode and this CPU. A function numba does not cache (``NUMBA_DISABLE_JIT``)
    counts as cached: nothing compiles it ahead.

    It reads numba's cache index as numba does when it loads (``IndexDataCacheFile``);
    should numba's cache change shape, the function counts as not cached (the notice is
    printed and the kernel compiled ahead, which then takes a second when it was).
    """
    if getattr(dispatcher, "overloads", None):
        return True
    cache = getattr(dispatcher, "_cache", None)
    if cache is None or type(cache).__name__ == "NullCache":
        return True
    try:
        index = cache._cache_file._load_index()
        probe = cache._index_key(None, dispatcher.targetctx.codegen())
    except Exception:
        return False
    return any(key[1:] == probe[1:] for key in index)


def to_compile(arms: Iterable[Arm]) -> dict[str, list[Arm]]:
    """Per game whose arms call a kernel function that is not cached (:func:`is_cached`),
    in the order the arms first name it, the arms to play one game of: the first such arm
    of every distinct (engine, decision records, strategy families), as ``slicelab warm``
    plays them (:func:`sims.warm.plan`)."""
    out: dict[str, list[Arm]] = {}
    seen: set[tuple] = set()
    cached: dict[int, bool] = {}
    for arm in arms:
        families = frozenset(parse_spec(s).name for s in arm.strategies)
        key = (arm.game, get_game(arm.game).engine_for(arm), arm.decisions, families)
        if key in seen:
            continue
        seen.add(key)
        cold = False
        for d in entry_points(arm):
            if id(d) not in cached:
                cached[id(d)] = is_cached(d)
            cold = cold or not cached[id(d)]
        if cold:
            out.setdefault(arm.game, []).append(arm)
    return out


def about(seconds: float) -> str:
    """A duration in words, no more precise than an estimate is: ``about a minute``."""
    if seconds < 40:
        return "under a minute"
    halves = max(2, round(seconds / 30))
    if halves == 2:
        return "about a minute"
    if halves == 3:
        return "about a minute and a half"
    return f"about {round(seconds / 60)} minutes"


def estimate(games: Sequence[str], jobs: int = 1) -> float | None:
    """Seconds compiling ``games``' kernels takes (each game's declared
    :attr:`~sims.core.game.GameInfo.compile_seconds`) a game per process on ``jobs``
    processes; None when a game has no estimate."""
    secs = [get_game(g).info.compile_seconds for g in games]
    if not secs or None in secs:
        return None
    procs = max(1, min(jobs, len(secs)))
    return max(max(secs), sum(secs) / procs)


def notice(games: Sequence[str], jobs: int = 1, hint: str | None = HINT) -> str:
    """The line printed before compiling ``games``' kernels."""
    titles = [get_game(g).info.title for g in games]
    names = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
    kernels = "kernel" if len(titles) == 1 else "kernels"
    secs = estimate(games, jobs)
    how = f"{about(secs)} on a 2-core machine" if secs is not None else "it can take minutes"
    ahead = f"; `{hint}` compiles ahead" if hint else ""
    return f"compiling the {names} {kernels} (first run only, {how}{ahead})"


def analysis_notice(game: str) -> str | None:
    """The line ``slicelab report`` prints before its analyses when they call kernel
    functions (:attr:`~sims.core.game.GameInfo.analysis_kernels`, replays) that numba's
    cache does not hold and that therefore compile on first use; None when it holds them
    all (or the game declares none)."""
    names = get_game(game).info.analysis_kernels
    cold = [n for n in names if (d := _kernel_attr(game, n)) is not None and not is_cached(d)]
    if not cold:
        return None
    title = get_game(game).info.title
    return (
        f"the report replays games on the {title} kernel: its replay functions compile "
        "first (first run only, it can take a few minutes)"
    )


def cluster_notice(games: Sequence[str], hint: str | None = HINT) -> str:
    """The line printed before a run on a Dask cluster when this machine's numba cache
    lacks ``games``' kernels: the workers' caches may lack them too."""
    titles = [get_game(g).info.title for g in games]
    names = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
    kernels = "kernel" if len(titles) == 1 else "kernels"
    secs = estimate(games, 1)
    how = f"{about(secs)} on a 2-core machine" if secs is not None else "it can take minutes"
    ahead = f"; `{hint}` on each worker's machine compiles ahead" if hint else ""
    return (
        f"the Dask workers compile the {names} {kernels} on their first chunk unless their "
        f"cache holds it (first run only, {how}{ahead})"
    )


@contextlib.contextmanager
def announced(games: Sequence[str], console: Console, jobs: int = 1,
              hint: str | None = HINT) -> Iterator[None]:  # fmt: skip
    """Around compiling ``games``' kernels: the :func:`notice` line, a spinner with the
    time elapsed (on a terminal), then ``compiled in N s``. Nothing for no games."""
    if not games:
        yield
        return
    console.print(notice(games, jobs, hint), markup=False, highlight=False, soft_wrap=True)
    t0 = time.perf_counter()
    if not console.is_terminal:  # (a log or a pipe: the two lines only)
        yield
    else:
        columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as spinner:
            spinner.add_task("compiling", total=None)
            yield
    console.print(f"compiled in {time.perf_counter() - t0:.0f} s", highlight=False)


def compile_first(arms: Iterable[Arm], console: Console, jobs: int = 1,
                  hint: str | None = HINT) -> dict[str, list[Arm]]:  # fmt: skip
    """Compile, with the notice (:func:`announced`), the kernels ``arms`` call that numba's
    cache does not hold (:func:`to_compile`), a game per process on ``jobs`` processes;
    print nothing when it holds them all. Returns what was compiled (game: arms played)."""
    from sims.warm import warm_plan

    todo = to_compile(arms)
    with announced(list(todo), console, jobs, hint):
        warm_plan(todo, jobs)
    return todo


def unfinished_arms(study: Study, out: str | Path) -> list[Arm]:
    """The arms of ``study`` with games left to play into the dataset ``out`` (all of them
    when ``out`` holds no readable manifest yet), so a finished dataset compiles nothing."""
    from sims import dataset

    try:
        m = dataset.read_manifest(out)
    except dataset.DatasetError:
        return list(study.arms)
    left = {c["arm"] for c in m["chunks"] if c["files"] is None}
    return [a for a in study.arms if a.name in left]


def warm_hint(study: Study) -> str:
    """``slicelab warm`` with the study's file when it came from one."""
    return f"slicelab warm {study.source}" if study.source.endswith(".toml") else HINT
