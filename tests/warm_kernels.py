"""Compile every game's numba kernel once, in two processes that stay busy together,
before the tests run (``make test`` calls it first).

Without it each pytest-xdist worker compiles the kernels it meets itself: on a fresh
clone both workers compile New York Slice's kernel (minutes of CPU each) side by side.
Here two processes compile every kernel entry point the tests call, each writing numba's
on-disk cache, which the test workers then load. Nothing is asserted here (the tests
check the kernels).

New York Slice's study kernel (``play_games_kernel``) alone costs about as much as the
other games' kernels together, and it is one compile: numba compiles a function's callees
first, each its own cache entry. So the second process compiles its largest callee
(``choose._heuristic``: the heuristic's decisions and cut search) while the first compiles
the other strategies' decisions (:data:`FIRST_PARTS`); the first then compiles the study
kernel from the top, loading those from the cache, while the second compiles more of its
callees (:data:`SECOND_PARTS`), met later in the compile, and the other games' kernels.
The entry points study games do not reach (``play_game_kernel``, ``play_deal_kernel``,
``own_points_kernel``, Piece o' Cake's ``playouts_kernel``), which every test worker would
otherwise compile for itself, come after the study kernels, but for Piece o' Cake's
playouts kernel: the first process compiles it while it waits for the heuristic's part
(it was idle there for a quarter of a minute, while the second process, with the other
games' kernels, ended about 50 s of CPU after it on a cold cache). Piece o' Cake's study
kernel comes last in the first process, which otherwise ended 40 s before the second.

The parts are compiled for the argument types the kernel calls them with
(:func:`_signatures`); should a kernel's call change them, the part compiled here goes
unused (the kernel still compiles, only later) and a line starting ``warm_kernels:
WARNING`` says so.
"""

from __future__ import annotations

import importlib
import multiprocessing as mp
import sys
import time

OTHER_GAMES = ("pizzatheory", "horno")
"""Games whose study kernels (if they have one) the second process compiles whole (Piece o'
Cake's the first process compiles last, loading most of it from its playouts kernel's
cache: the two processes then end within seconds of each other)."""

K = "sims.games.nyslice.kernel."

FIRST_PARTS = (
    (K + "candidates", "_search_pause", "pause"),
    (K + "choose", "_greedy", "decide"),
    (K + "records", "_decision_row", "record"),
)
"""New York Slice kernel functions the first process compiles before the study kernel:
(module, function, signature in :func:`_signatures`). ``flow._decide`` (inlined where the
kernel decides) calls them and :data:`HEURISTIC_PART`, so they must all be in the cache
before the study kernel is compiled."""

HEURISTIC_PART = ((K + "choose", "_heuristic", "decide"),)
"""The second process's first part (about a quarter of the study kernel's compile)."""

SECOND_PARTS = (
    (K + "flow", "_seconds", "run"),
    (K + "scoring", "_score", "score_all"),
)
"""Callees of ``flow._run`` the second process compiles next (``_seconds`` decides
through every part above): the first process meets them only after compiling
``flow._round``, half a minute into the study kernel."""


def _signatures() -> dict:
    """The argument types the kernel calls the parts with (``tab``, ``ftab``, then the
    ``int64(...)`` casts of ``flow._decide``, the ``io`` tuple of ``flow._run``, or
    ``_score(tab, -1, -1)``'s literals)."""
    from numba import types as nt

    i, i1, i2, f2 = nt.int64, nt.int64[::1], nt.int64[:, ::1], nt.float64[:, ::1]
    io = nt.Tuple((nt.uint64[:, ::1], i2, i2, i1, i1, i1))  # rngs, trace, drec, dcount, ...
    return {
        "decide": (i2, f2, i, i, i, i, i, i),  # tab, ftab, player, phase, nlegal, lrow, sid, ps
        "pause": (i2, f2, i1, i, i, i, i),  # tab, ftab, cand, player, phase, nlegal, lrow
        "record": (i2, i2, i1, i, i, i, i, i, i),  # tab, drec, dcount, player, phase, ...
        "run": (i2, f2, io),
        "score_all": (i2, nt.literal(-1), nt.literal(-1)),
    }


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _say(who: str, what: str, t0: float, c0: float) -> None:
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"warmed [{who}] {what} ({wall:.0f} s, {cpu:.0f} s CPU)", flush=True)


def precompile(who: str, parts) -> None:
    """Compile (or load) each part for its signature, writing numba's cache."""
    sigs = _signatures()
    for module, name, sig in parts:
        t = _clock()
        try:
            getattr(importlib.import_module(module), name).compile(sigs[sig])
        except Exception as exc:  # the kernel compiles it anyway, only later
            print(f"warm_kernels: WARNING: {module}.{name} not precompiled: {exc!r}", flush=True)
            continue
        _say(who, f"nyslice kernel part {name}", *t)


def check_parts(own, others) -> None:
    """After the study kernel compiled in this process: warn when it called a part
    compiled here with other argument types too (a part called with one set of types is
    precompiled for them), or did not call a part of the other process with the types it
    was precompiled for, or compiled one again instead of loading it."""
    sigs = _signatures()
    for module, name, sig in own + others:
        disp = getattr(importlib.import_module(module), name)
        used, mine = list(disp.overloads), (module, name, sig) in own
        if not mine and not used:
            continue  # the study kernel came from the cache: it called nothing here
        if (used != [sigs[sig]]) if mine else (sigs[sig] not in used):
            print(
                f"warm_kernels: WARNING: the kernel calls {module}.{name} with "
                f"{[str(s) for s in used]}, not only {sigs[sig]}: update _signatures in "
                "tests/warm_kernels.py",
                flush=True,
            )
        elif not mine and disp.stats.cache_misses.get(sigs[sig]):
            print(f"warm_kernels: WARNING: {module}.{name} compiled twice", flush=True)


def warm_games(who: str, games: tuple[str, ...]) -> None:
    """Play one game of every kernel family of ``games`` on the kernel (the study entry
    point), with and without decision records."""
    from sims.batch import one_arm, play_tables
    from sims.core.game import get_game

    for name in games:
        t = _clock()
        game = get_game(name)
        players = game.info.min_players + (1 if game.info.max_players > 2 else 0)
        done = []
        for info in game.strategies():
            if not info.kernel or info.preset_of:
                continue
            arm = one_arm({"name": "warm", "game": name, "players": players,
                           "strategies": info.name, "games": 1}, seed=1)  # fmt: skip
            if game.engine_for(arm) != "kernel":
                continue
            for decisions in (False, True):
                play_tables(arm, 0, 1, decisions=decisions, engine="kernel")
            done.append(info.name)
        if done:
            _say(who, f"{name} study kernel: {', '.join(done)}", *t)


SPECS = ["heuristic", "greedy", "random"]


def _nyslice_runner():
    from sims.games.nyslice.deck import default_deck
    from sims.games.nyslice.kernel import KernelRunner
    from sims.games.nyslice.rules import Rules

    return KernelRunner(default_deck(), Rules())


def nyslice_play(who: str) -> None:
    """``KernelRunner.play``: one game (``play_game_kernel``)."""
    from sims.games.nyslice.kernel import strategy_codes

    t = _clock()
    _nyslice_runner().play(3, strategy_codes(SPECS), 1, 0, records=True)
    _say(who, "nyslice play_game_kernel", *t)


def nyslice_play_deal(who: str) -> None:
    """``KernelRunner.play_deal``: a playout (``play_deal_kernel``)."""
    from sims.core.seeding import game_streams
    from sims.games.nyslice.deck import default_deck
    from sims.games.nyslice.engine import deal
    from sims.games.nyslice.kernel import seat_params, strategy_codes

    t = _clock()
    d = deal(default_deck(), 3, game_streams(1, 0, 3).deal)
    _nyslice_runner().play_deal(3, strategy_codes(SPECS), seat_params(SPECS, 3), d, ())
    _say(who, "nyslice play_deal_kernel", *t)


def nyslice_own_points(who: str) -> None:
    """``ownpoints.own_points`` on the kernel (``own_points_kernel``)."""
    from sims.games.nyslice.ownpoints import own_points

    t = _clock()
    own_points(3, SPECS, 1, 2)
    _say(who, "nyslice own_points_kernel", *t)


def pieceocake_playouts(who: str) -> None:
    """Piece o' Cake's ``search`` player on the reference engine: its playouts run on the
    kernel (``playouts_kernel``)."""
    from sims.batch import one_arm, play_tables

    t = _clock()
    arm = one_arm({"name": "warm", "game": "pieceocake", "players": 3,
                   "strategies": "search", "games": 1}, seed=1)  # fmt: skip
    play_tables(arm, 0, 1, engine="reference")
    _say(who, "pieceocake playouts_kernel", *t)


def first(parts_done, heuristic_done, nyslice_done) -> None:
    """Piece o' Cake's playouts kernel while the heuristic's part compiles in the other
    process (on a cold cache it compiles most of Piece o' Cake's kernel, which the other
    process then loads), New York Slice's study kernel from the top, then two of its other
    entry points, then Piece o' Cake's study kernel."""
    try:
        precompile("1", FIRST_PARTS)
        parts_done.set()
        pieceocake_playouts("1")
        heuristic_done.wait()
        warm_games("1", ("nyslice",))
        check_parts(FIRST_PARTS, HEURISTIC_PART + SECOND_PARTS)
    finally:
        parts_done.set()  # (on failure too: the other process must not wait forever)
        nyslice_done.set()
    nyslice_play("1")
    nyslice_play_deal("1")
    warm_games("1", ("pieceocake",))


def second(parts_done, heuristic_done, nyslice_done) -> None:
    """The heuristic's part of New York Slice's study kernel, more of its callees, Pizza
    Theory's and Horno's kernels, then New York Slice's own-points kernel (once the first process
    has compiled the study kernel it shares most of its code with)."""
    try:
        precompile("2", HEURISTIC_PART)
    finally:
        heuristic_done.set()
    parts_done.wait()
    precompile("2", SECOND_PARTS)
    warm_games("2", OTHER_GAMES)
    nyslice_done.wait()
    nyslice_own_points("2")


def main() -> int:
    t0 = time.perf_counter()
    ctx = mp.get_context("fork")  # nothing is imported yet: the children start clean
    events = (ctx.Event(), ctx.Event(), ctx.Event())  # parts, heuristic, nyslice done
    procs = [ctx.Process(target=f, args=events) for f in (first, second)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    print(f"kernels compiled or loaded in {time.perf_counter() - t0:.0f} s")
    return 1 if any(p.exitcode for p in procs) else 0


if __name__ == "__main__":
    sys.exit(main())
