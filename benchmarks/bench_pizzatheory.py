"""Throughput of Pizza Theory's compiled kernel against its reference engine, side by side
in one run (``make bench``, or ``python benchmarks/bench_pizzatheory.py [--quick]``).

The kernel plays ``random`` seats so far: the same 3-player (and 2-player) games on both
engines, one core, games/s and their ratio (the target: at least 100×), and the reference
engine's cost per game of the other strategies. Each figure is the best of three
interleaved rounds, so both sides of a ratio see the same machine.
"""

from __future__ import annotations

import argparse
import time

from sims.games.pizzatheory.board import default_board
from sims.games.pizzatheory.game import play_game, seat_strategies
from sims.games.pizzatheory.kernel import play_many
from sims.games.pizzatheory.rules import Rules

TARGET = 100


def _seconds(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _reference(n: int, strategies, games: int) -> None:
    board, rules = default_board(), Rules()
    for g in range(games):
        play_game(n, strategies, 1, g, board, rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    quick = parser.parse_args().quick
    board, rules = default_board(), Rules()
    n_ref, n_kernel = (40, 4_000) if quick else (400, 100_000)
    print("# Pizza Theory kernel benchmark\n")
    print("## 1. Kernel vs reference engine, random seats (one core, best of 3 interleaved)")
    print(f"{'players':<9}{'reference games/s':>19}{'kernel games/s':>16}{'ratio':>9}")
    for n in (3, 2):
        strategies = seat_strategies("random", n)
        play_many(board, rules, n, 1, 0, 10)  # load the compiled kernel
        ref = ker = 0.0
        for _ in range(3):
            ref = max(ref, n_ref / _seconds(lambda n=n, s=strategies: _reference(n, s, n_ref)))
            ker = max(ker, n_kernel / _seconds(lambda n=n: play_many(board, rules, n, 1, 0,
                                                                      n_kernel)))  # fmt: skip
        note = "" if ker / ref >= TARGET else f"  (below the {TARGET}× target)"
        print(f"{n:<9}{ref:>19,.0f}{ker:>16,.0f}{ker / ref:>8.0f}×{note}")
    print("\n## 2. Reference engine cost per 3-player game, every seat one strategy")
    for spec, games in (("greedy", 4), ("heuristic", 4), ("mixed", 2)):
        strategies = seat_strategies(spec, 3)
        t = min(_seconds(lambda s=strategies, k=games: _reference(3, s, k)) for _ in range(2))
        print(f"{spec:<10}{1000 * t / games:>10.0f} ms")


if __name__ == "__main__":
    main()
