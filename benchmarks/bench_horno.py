"""Throughput of Horno's reference engine (``make bench``, or ``python
benchmarks/bench_horno.py [--quick]``).

Horno gets a compiled kernel only if its reference engine cannot play 100,000 four-player
games in under 10 minutes on 2 cores (issue 15). This measures it the way a study plays:
4-player arms through the batch runner (Parquet written, 2 joblib workers), every seat
random, every seat greedy, every seat the heuristic, and one greedy seat among three
random ones. Each matchup is timed at two sizes, so that the fixed cost of a run (starting
the workers, importing) is told apart from the cost per game: 100,000 games take the fixed
cost once plus 100,000 times the cost per game (extrapolating from the small run alone
would charge the start-up 25 times over).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from sims.batch import run_study
from sims.core.study import load_study

TARGET_MINUTES = 10.0
GAMES = 100_000
MATCHUPS = ("random", "greedy", "heuristic", "greedy,random,random,random")


def _study(path: Path, spec: str, games: int) -> Path:
    strategies = ", ".join(f'"{s}"' for s in spec.split(","))
    path.write_text(
        f'name = "bench-horno"\nseed = 1\nchunk_size = {max(1, games // 8)}\n\n'
        f'[[arms]]\nname = "a"\ngame = "horno"\nplayers = 4\nstrategies = [{strategies}]\n'
        f"games = {games}\n"
    )
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()
    games = 400 if args.quick else 4_000
    small = games // 8
    print("# Horno reference engine benchmark\n")
    print(f"4 players, {small:,} and {games:,} games a matchup through the batch runner, "
          f"{args.jobs} workers (Parquet written)")  # fmt: skip
    print(f"{'seats':<30}{'games/s':>10}{'start-up':>10}{'100,000 games':>16}")
    for spec in MATCHUPS:
        took = []
        for n in (small, games):
            with tempfile.TemporaryDirectory() as tmp:
                study = load_study(_study(Path(tmp) / "s.toml", spec, n))
                t0 = time.perf_counter()
                run_study(study, Path(tmp) / "out", jobs=args.jobs)
                took.append(time.perf_counter() - t0)
        per_game = max(took[1] - took[0], 1e-9) / (games - small)
        fixed = max(took[0] - small * per_game, 0.0)
        minutes = (fixed + GAMES * per_game) / 60
        verdict = "under" if minutes < TARGET_MINUTES else "OVER"
        print(f"{spec:<30}{1 / per_game:>10,.0f}{fixed:>9.1f}s{minutes:>11.1f} min  ({verdict} "
              f"the {TARGET_MINUTES:.0f}-minute bar)")  # fmt: skip


if __name__ == "__main__":
    main()
