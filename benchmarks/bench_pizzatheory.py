"""Throughput of Pizza Theory's compiled kernel against its reference engine, side by side
in one run (``make bench``, or ``python benchmarks/bench_pizzatheory.py [--quick]``).

The same games on both engines, one core: random seats at 3 and 2 players, the mixed player
(the balance study's main field) at 3 and 2, greedy and the heuristic at 2 players, and
the ratings table (mixed, heuristic, greedy) at 3; games/s and their ratio (the target: at
least 100×). Greedy and the heuristic alone are timed at 2 players because at 3 the game
has no chance and they draw nothing: every game would be the same one. Each figure is the
best of three interleaved rounds, so both sides of a ratio see the same machine.

Then the search player (``search.py``; the target: at most 20 ms a game per searching seat):
one ``search(budget=B)`` seat, in every seat in turn, among field seats (``mixed`` and
``heuristic``), beside greedy in every seat, in the same run; the time per game, which is
the time per game per searching seat (one searches), and its ratio to greedy's game.
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


SEARCH_BUDGETS = (6, 24, 96)
"""Budgets timed: 6 plays each candidate once (the cheapest), 96 is the default."""
SEARCH_FIELDS = ("mixed", "heuristic")
SEARCH_TARGET_MS = 20.0


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
    _search(board, rules, quick)


def _search(board, rules, quick: bool) -> None:
    """One search seat among field seats (every seat in turn) against greedy in every seat:
    ms per game per searching seat, and the ratio to greedy's game."""
    print(
        "\nSearch: one search(budget=B) seat, every seat in turn, among field seats; "
        "greedy in every seat beside it (kernel, one core, best of 3 interleaved)"
    )
    print(f"{'players':<9}{'field':<11}{'budget':>7}{'greedy ms/game':>16}"
          f"{'search ms/game':>16}{'ratio':>9}")  # fmt: skip
    for n in (3, 2):
        rounds = 3
        g_games = 200 if quick else 2000
        per_seat = 2 if quick else 10
        for field in SEARCH_FIELDS:
            for budget in SEARCH_BUDGETS:
                seatings = []
                for s in range(n):
                    specs = [field] * n
                    specs[s] = f"search(budget={budget})"
                    seatings.append(specs)
                play_many(board, rules, n, 1, 0, 1, strategies=seatings[0])  # compiled

                def greedy(n=n, g=g_games):
                    play_many(board, rules, n, 1, 0, g, strategies="greedy")

                def search(n=n, seatings=seatings, k=per_seat):
                    for specs in seatings:
                        play_many(board, rules, n, 2, 0, k, strategies=specs)

                best_g = best_s = float("inf")
                for _ in range(rounds):
                    best_g = min(best_g, 1e3 * _seconds(greedy) / g_games)
                    best_s = min(best_s, 1e3 * _seconds(search) / (per_seat * n))
                note = "" if best_s <= SEARCH_TARGET_MS else f"  (over {SEARCH_TARGET_MS:g} ms)"
                print(f"{n:<9}{field:<11}{budget:>7}{best_g:>16.2f}{best_s:>16.1f}"
                      f"{best_s / best_g:>8.0f}×{note}")  # fmt: skip


if __name__ == "__main__":
    main()
