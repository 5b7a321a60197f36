"""Throughput of Piece o' Cake's compiled kernel against its reference engine, side by side
in one run.

Run with ``make bench`` (or ``python benchmarks/bench_pieceocake.py [--quick]``). Prints:

1. kernel vs reference engine on the same matchups and the same games (random×4,
   greedy×4, heuristic×4 at 4 players), one core, as games/s and their ratio (the
   target: the kernel at least 100× the reference);
2. the kernel's cost per game of each strategy in every seat at 2 to 5 players.

Each figure is the best of three interleaved rounds, so both sides of a ratio see the same
machine; timings on a shared machine are noisy: compare the ratios printed in one run, not
absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import os
import time

from sims.games.pieceocake.cake import default_cake
from sims.games.pieceocake.game import play_game, seat_strategies
from sims.games.pieceocake.kernel import KernelRunner, seat_params, strategy_codes
from sims.games.pieceocake.rules import Rules

TARGET = 100
SEED = 1


def _best_seconds(fn, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def engines(quick: bool) -> list[tuple[str, float, float]]:
    """Single-core games/s of the reference engine and of the kernel on the same 4-player
    matchups; the reference plays games 0 .. n_ref - 1 of the study, the kernel games
    0 .. n_kernel - 1 (the reference's among them)."""
    cake, rules = default_cake(), Rules()
    runner = KernelRunner(cake, rules)
    sizes = {"random": (400, 200_000), "greedy": (60, 20_000), "heuristic": (60, 20_000)}
    if quick:
        sizes = {k: (r // 10, g // 20) for k, (r, g) in sizes.items()}
    rates: dict[str, list[float]] = {}
    jobs = []
    for name, (n_ref, n_kernel) in sizes.items():
        specs = [name] * 4
        strategies = seat_strategies(specs, 4)
        codes, hp = strategy_codes(specs), seat_params(specs, 4)
        runner.play_many(4, codes, SEED, 0, 1, hparams=hp)  # load the compiled kernel

        def ref(s=strategies, k=n_ref):
            for g in range(k):
                play_game(4, s, SEED, g, cake, rules)

        def ker(c=codes, h=hp, k=n_kernel):
            runner.play_many(4, c, SEED, 0, k, hparams=h)

        jobs.append((name, n_ref, ref, n_kernel, ker))
        rates[name] = [0.0, 0.0]
    for _ in range(3):  # interleaved rounds: keep each side's best
        for name, n_ref, ref, n_kernel, ker in jobs:
            rates[name][0] = max(rates[name][0], n_ref / _best_seconds(ref, 1))
            rates[name][1] = max(rates[name][1], n_kernel / _best_seconds(ker, 1))
    return [(f"{name}×4", r, k) for name, (r, k) in rates.items()]


def kernel_costs(quick: bool) -> None:
    """Kernel time per game of each strategy in every seat, at 2 to 5 players."""
    runner = KernelRunner(default_cake(), Rules())
    games = {"random": 20_000, "greedy": 2_000, "heuristic": 2_000}
    if quick:
        games = {k: v // 10 for k, v in games.items()}
    print("\n## 2. Kernel cost per game, every seat one strategy (one core, best of 3)")
    print(f"{'players':<9}" + "".join(f"{name:>12}" for name in games))
    for n in range(2, 6):
        cells = []
        for name, count in games.items():
            codes, hp = strategy_codes([name] * n), seat_params([name], n)
            runner.play_many(n, codes, 3, 0, 1, hparams=hp)
            secs = _best_seconds(
                lambda n=n, c=codes, h=hp, k=count: runner.play_many(n, c, 3, 0, k, hparams=h)
            )
            cells.append(f"{secs / count * 1e6:>9.1f} µs")
        print(f"{n:<9}" + "".join(cells))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller runs (a smoke test)")
    quick = ap.parse_args().quick
    print("# Piece o' Cake kernel benchmark" + (" (quick)" if quick else ""))
    print(f"cores: {os.cpu_count()}\n")
    print("## 1. Kernel vs reference engine (4 players, one core, best of 3 interleaved rounds)")
    print(f"{'matchup':<13}{'reference games/s':>19}{'kernel games/s':>16}{'kernel µs':>11}"
          f"{'ratio':>9}")  # fmt: skip
    for name, ref, ker in engines(quick):
        verdict = "" if ker / ref >= TARGET else f"  (below the {TARGET}× target)"
        print(f"{name:<13}{ref:>19,.0f}{ker:>16,.0f}{1e6 / ker:>11.1f}{ker / ref:>8,.0f}×"
              f"{verdict}")  # fmt: skip
    print(f"target: kernel ≥ {TARGET}× the reference")
    kernel_costs(quick)


if __name__ == "__main__":
    main()
