"""Throughput of Horno's reference engine and compiled kernel, side by side (``make bench``,
or ``python benchmarks/bench_horno.py [--quick]``).

Horno got a compiled kernel because its reference engine could not play 100,000
four-player heuristic games in under 10 minutes on 2 cores (issue 15). This measures both
engines the way a study plays: 4-player arms through the batch runner (Parquet written, 2
joblib workers), every seat random, every seat greedy, every seat the heuristic, and one
greedy seat among three random ones, each matchup on the reference engine (``engine =
"reference"``) and on the kernel (``engine = "kernel"``). Each is timed at two sizes, so
that the fixed cost of a run (starting the workers, importing, loading the compiled
kernel) is told apart from the cost per game: 100,000 games take the fixed cost once plus
100,000 times the cost per game (extrapolating from the small run alone would charge the
start-up many times over). The kernel plays ten times as many games as the reference (its
games are that much cheaper), and then, unless ``--quick``, the 100,000 heuristic games
themselves, timed whole. The kernel is compiled (or loaded from numba's cache) before any
timing.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from sims.batch import one_arm, play_tables, run_study
from sims.core.study import load_study

TARGET_MINUTES = 10.0
NOISE = 1.0
"""Seconds: a run's start-up varies by about this much, so a smaller difference between
the two sizes' times says nothing about the cost per game."""
GAMES = 100_000
MATCHUPS = ("random", "greedy", "heuristic", "greedy,random,random,random")
ENGINES = ("reference", "kernel")
KERNEL_SCALE = 10
"""The kernel's runs are this many times the reference's."""


def _study(path: Path, spec: str, games: int, engine: str) -> Path:
    strategies = ", ".join(f'"{s}"' for s in spec.split(","))
    path.write_text(
        f'name = "bench-horno"\nseed = 1\nchunk_size = {max(1, games // 8)}\n\n'
        f'[[arms]]\nname = "a"\ngame = "horno"\nplayers = 4\nstrategies = [{strategies}]\n'
        f'games = {games}\nengine = "{engine}"\n'
    )
    return path


def _run(spec: str, games: int, engine: str, jobs: int) -> float:
    """Seconds to run a study of ``games`` games of ``spec`` on ``engine``."""
    with tempfile.TemporaryDirectory() as tmp:
        study = load_study(_study(Path(tmp) / "s.toml", spec, games, engine))
        t0 = time.perf_counter()
        run_study(study, Path(tmp) / "out", jobs=jobs)
        return time.perf_counter() - t0


def _warm() -> None:
    """Compile the kernel (or load it from numba's cache) in this process first, so that
    no worker compiles it during a timing."""
    for spec in ("random", "greedy", "heuristic"):
        arm = one_arm({"name": "w", "game": "horno", "players": 4, "strategies": spec,
                       "games": 1, "engine": "kernel"}, seed=1)  # fmt: skip
        play_tables(arm, 0, 1, engine="kernel")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()
    _warm()
    games = 400 if args.quick else 4_000
    print("# Horno benchmark: reference engine and compiled kernel\n")
    print(f"4 players through the batch runner, {args.jobs} workers (Parquet written); the "
          f"reference timed at {games // 8:,} and {games:,} games a matchup, the kernel at "
          f"{KERNEL_SCALE * games // 8:,} and {KERNEL_SCALE * games:,}")  # fmt: skip
    print(f"{'seats':<30}{'engine':<11}{'games/s':>10}{'start-up':>10}{'100,000 games':>16}"
          f"{'ratio':>8}")  # fmt: skip
    for spec in MATCHUPS:
        per = {}
        for engine in ENGINES:
            n = games * (KERNEL_SCALE if engine == "kernel" else 1)
            small = n // 8
            took = [_run(spec, size, engine, args.jobs) for size in (small, n)]
            if took[1] - took[0] < NOISE:  # the games cost less than the start-up's noise
                print(f"{spec:<30}{engine:<11}  below the timing noise ({took[0]:.1f} s for "
                      f"{small:,} games, {took[1]:.1f} s for {n:,}: at least "
                      f"{n / took[1]:,.0f} games/s)")  # fmt: skip
                continue
            per_game = (took[1] - took[0]) / (n - small)
            fixed = max(took[0] - small * per_game, 0.0)
            minutes = (fixed + GAMES * per_game) / 60
            per[engine] = per_game
            verdict = "under" if minutes < TARGET_MINUTES else "OVER"
            ratio = ""
            if engine == "kernel" and "reference" in per:
                ratio = f"{per['reference'] / per_game:>7.0f}x"
            print(f"{spec:<30}{engine:<11}{1 / per_game:>10,.0f}{fixed:>9.1f}s"
                  f"{minutes:>11.1f} min{ratio:>8}  ({verdict} the {TARGET_MINUTES:.0f}-minute "
                  "bar)")  # fmt: skip
    if not args.quick:
        took = _run("heuristic", GAMES, "kernel", args.jobs)
        print(f"\nheuristic x4 on the kernel, {GAMES:,} games timed whole: "
              f"{took / 60:.2f} min ({GAMES / took:,.0f} games/s)")  # fmt: skip


if __name__ == "__main__":
    main()
