"""Throughput of Pizza Theory's compiled kernel against its reference engine, side by side
in one run (``make bench``, or ``python benchmarks/bench_pizzatheory.py [--quick]``).

The same games on both engines, one core: random seats at 3 and 2 players, the mixed player
(the balance study's main field) at 3 and 2, greedy and the heuristic at 2 players, and
the ratings table (mixed, heuristic, greedy) at 3; games/s and their ratio (the target: at
least 100×). Greedy and the heuristic alone are timed at 2 players because at 3 the game
has no chance and they draw nothing: every game would be the same one. Each figure is the
best of three interleaved rounds, so both sides of a ratio see the same machine.
"""

from __future__ import annotations

import argparse
import time

from sims.games.pizzatheory.board import default_board
from sims.games.pizzatheory.game import play_game, seat_strategies
from sims.games.pizzatheory.kernel import play_many
from sims.games.pizzatheory.rules import Rules

TARGET = 100
MATCHUPS = (  # (players, seats, reference games, kernel games)
    (3, "random", 400, 100_000),
    (2, "random", 400, 100_000),
    (3, "mixed", 6, 2_000),
    (2, "mixed", 6, 2_000),
    (2, "greedy", 16, 2_000),
    (2, "heuristic", 16, 2_000),
    (3, "mixed,heuristic,greedy", 8, 2_000),
)


def _seconds(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _reference(n: int, spec: str, games: int) -> None:
    board, rules, strategies = default_board(), Rules(), seat_strategies(spec, n)
    for g in range(games):
        play_game(n, strategies, 1, g, board, rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games")
    quick = parser.parse_args().quick
    board, rules = default_board(), Rules()
    print("# Pizza Theory kernel benchmark\n")
    print("Kernel vs reference engine, every seat one family (one core, best of 3 interleaved)")
    print(f"{'players':<9}{'seats':<24}{'reference games/s':>19}{'kernel games/s':>16}"
          f"{'ratio':>9}")  # fmt: skip
    for n, spec, n_ref, n_kernel in MATCHUPS:
        if quick:
            n_ref, n_kernel = max(2, n_ref // 10), n_kernel // 10
        play_many(board, rules, n, 1, 0, 5, strategies=spec)  # load the compiled kernel
        ref = ker = 0.0

        def reference(n=n, spec=spec, games=n_ref):
            _reference(n, spec, games)

        def kernel(n=n, spec=spec, games=n_kernel):
            play_many(board, rules, n, 1, 0, games, strategies=spec)

        for _ in range(3):
            ref = max(ref, n_ref / _seconds(reference))
            ker = max(ker, n_kernel / _seconds(kernel))
        note = "" if ker / ref >= TARGET else f"  (below the {TARGET}× target)"
        print(f"{n:<9}{spec:<24}{ref:>19,.1f}{ker:>16,.0f}{ker / ref:>8.0f}×{note}")


if __name__ == "__main__":
    main()
