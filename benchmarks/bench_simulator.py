"""Throughput benchmarks of the New York Slice simulator, measured side by side in one run.

Run with ``make bench`` (or ``python benchmarks/bench_simulator.py [--quick]``). Prints:

1. kernel vs reference engine on the same matchups (random×4, greedy×4 at 4 players),
   single core, as games/s and their ratio;
2. games/s of a full run (play + Parquet) on 1 and 2 workers, and parallel efficiency;
3. the share of a run's worker time spent writing Parquet;
4. peak resident memory of runs of growing size (it must not grow with the game count);
5. the headline: 1,000,000 four-player greedy games simulated and written on 2 workers;
6. what checking a dataset against its manifest costs;
7. each strategy's cost per game in the kernel at 2-6 players, one core: greedy and the
   heuristic in every seat and their ratio (target: the heuristic at most 3x greedy), and
   ``search(budget=4)`` in one seat (every seat in turn) among heuristic seats (target: at
   most 20 ms a game at 4 players).

Timings on a shared machine are noisy: compare the ratios printed in one run, not
absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

from sims.batch import run_study
from sims.core.study import parse_study
from sims.games.nyslice.deck import default_deck
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.kernel import KernelRunner, strategy_codes
from sims.games.nyslice.rules import Rules


def _rate(fn, games: int) -> float:
    t0 = time.perf_counter()
    fn()
    return games / (time.perf_counter() - t0)


def engines(quick: bool) -> list[tuple[str, float, float]]:
    """Single-core games/s of the reference engine and the kernel on the same games."""
    deck, rules = default_deck(), Rules()
    runner = KernelRunner(deck, rules)
    runner.play_many(4, strategy_codes(["random"] * 4), 1, 0, 10)  # load the compiled kernel
    out = []
    for name, n_ref, n_kernel in (("random", 200, 100_000), ("greedy", 60, 20_000)):
        if quick:
            n_ref, n_kernel = n_ref // 4, n_kernel // 10
        specs = [name] * 4
        strategies = seat_strategies(specs, 4)
        ref = _rate(
            lambda s=strategies, k=n_ref: [play_game(4, s, 1, g, deck, rules) for g in range(k)],
            n_ref,
        )
        codes = strategy_codes(specs)
        ker = _rate(lambda c=codes, k=n_kernel: runner.play_many(4, c, 1, 0, k), n_kernel)
        out.append((f"{name}×4", ref, ker))
    return out


class PeakRSS:
    """Samples the resident memory of this process and its children (from /proc)."""

    def __init__(self, interval: float = 0.05) -> None:
        self.interval = interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _tree_rss(self) -> int:
        me = os.getpid()
        parents: dict[int, int] = {}
        rss: dict[int, int] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                parents[int(entry)] = int(fields[1])
                rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
            except (OSError, IndexError, ValueError):
                continue
        total, stack = 0, [me]
        while stack:
            pid = stack.pop()
            total += rss.get(pid, 0)
            stack.extend(p for p, parent in parents.items() if parent == pid)
        return total

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._tree_rss())
            time.sleep(self.interval)

    def __enter__(self) -> PeakRSS:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def run(
    games: int, jobs: int, chunk: int, root: Path, keep: bool = False
) -> tuple[float, float, int]:
    """A full greedy×4 run into Parquet: (games/s, Parquet share of worker time, peak RSS);
    the dataset stays in ``root`` when ``keep``."""
    out = root / f"g{games}-j{jobs}"
    shutil.rmtree(out, ignore_errors=True)
    arm = {"name": "g4", "game": "nyslice", "players": 4, "strategies": "greedy", "games": games}
    study = parse_study({"name": "bench", "seed": 1, "chunk_size": chunk, "arms": [arm]})
    with PeakRSS() as mem:
        t0 = time.perf_counter()
        summary = run_study(study, out, jobs=jobs)
        wall = time.perf_counter() - t0
    if not keep:
        shutil.rmtree(out, ignore_errors=True)
    share = summary.write_seconds / (summary.play_seconds + summary.write_seconds)
    return games / wall, share, mem.peak


def integrity(out: Path, games: int) -> None:
    """What checking a dataset against its manifest costs (``slicelab verify``, readers)."""
    from analysis.load import scan
    from sims import dataset

    files = [p for p in out.rglob("*.parquet")]
    size = sum(p.stat().st_size for p in files)
    print(f"\n## 6. Integrity checks on the {games:,}-game dataset ({len(files)} files, "
          f"{size / 1e6:,.1f} MB)")  # fmt: skip
    for deep, what in ((False, "presence and sizes"), (True, "sizes and SHA-256")):
        t0 = time.perf_counter()
        found = dataset.problems(out, deep=deep)
        print(f"verify ({what}): {time.perf_counter() - t0:.3f} s, {len(found)} problems")
    t0 = time.perf_counter()
    scan(out, "players").select("win_share").sum().collect()
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    scan(out, "players").select("win_share").sum().collect()
    print(
        f"analysis.load.scan + sum: first read {first:.3f} s (checksums), again "
        f"{time.perf_counter() - t0:.3f} s (files unchanged: sizes and times only)"
    )


def strategy_costs(quick: bool) -> None:
    """Kernel time per game of greedy and the heuristic (every seat) and of one search seat,
    at every player count; the best of three interleaved rounds, so both sides of a ratio
    see the same machine."""
    from sims.games.nyslice.kernel import seat_params

    runner = KernelRunner(default_deck(), Rules())
    games, searched = (200, 8) if quick else (2000, 60)
    print("\n## 7. Strategy cost per game (kernel, one core; best of 3 interleaved rounds)")
    head = f"{'players':<9}{'greedy':>11}{'heuristic':>12}{'ratio':>8}"
    print(head + f"{'search(budget=4), 1 seat':>27}")
    for n in range(2, 7):
        seatings = {"greedy": [["greedy"] * n], "heuristic": [["heuristic"] * n]}
        seatings["search"] = [
            ["search(budget=4)" if p == s else "heuristic" for p in range(n)] for s in range(n)
        ]
        count = {"greedy": games, "heuristic": games, "search": max(1, searched // n)}
        best = dict.fromkeys(seatings, float("inf"))
        for specs in seatings.values():  # compile and warm up
            first = specs[0]
            runner.play_many(n, strategy_codes(first), 1, 0, 1, hparams=seat_params(first, n))
        for _ in range(3):
            for name, specs in seatings.items():
                t0 = time.perf_counter()
                for k, seating in enumerate(specs):
                    runner.play_many(n, strategy_codes(seating), 3, k * 1000, count[name],
                                     hparams=seat_params(seating, n))  # fmt: skip
                per = (time.perf_counter() - t0) / (count[name] * len(specs))
                best[name] = min(best[name], per)
        g, h, s = best["greedy"], best["heuristic"], best["search"]
        print(f"{n:<9}{g * 1e6:>8.0f} µs{h * 1e6:>9.0f} µs{h / g:>7.1f}×{s * 1e3:>22.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--quick", action="store_true", help="smaller runs (a smoke test of the benchmark)"
    )
    args = ap.parse_args()
    quick = args.quick
    print("# slicelab simulator benchmark" + (" (quick)" if quick else ""))
    print(f"cores: {os.cpu_count()}\n")

    print("## 1. Kernel vs reference engine (4 players, one core)")
    print(f"{'matchup':<10}{'reference games/s':>20}{'kernel games/s':>18}{'ratio':>10}")
    for name, ref, ker in engines(quick):
        print(f"{name:<10}{ref:>20,.0f}{ker:>18,.0f}{ker / ref:>9,.0f}×")

    root = Path(tempfile.mkdtemp(prefix="slicelab-bench-"))
    try:
        n = 20_000 if quick else 500_000
        chunk = 5_000 if quick else 20_000
        print(f"\n## 2-3. Full runs: greedy×4, {n:,} games in chunks of {chunk:,}, with Parquet")
        r1, s1, m1 = run(n, 1, chunk, root)
        r2, s2, m2 = run(n, 2, chunk, root)
        print(f"1 worker : {r1:>10,.0f} games/s   Parquet share {s1:.1%}")
        print(f"2 workers: {r2:>10,.0f} games/s   Parquet share {s2:.1%}")
        print(f"parallel efficiency on 2 workers: {r2 / (2 * r1):.0%}")

        print("\n## 4. Peak memory (main process + workers), 2 workers")
        sizes = (10_000, 40_000) if quick else (100_000, 1_000_000)
        peaks = []
        for size in sizes:
            rate, share, peak = run(size, 2, chunk, root, keep=size == sizes[-1])
            peaks.append((size, rate, peak))
            print(f"{size:>10,} games: peak RSS {peak / 2**20:,.0f} MiB  ({rate:,.0f} games/s)")
        growth = peaks[-1][2] / peaks[0][2]
        print(f"peak memory ratio {sizes[-1]:,} vs {sizes[0]:,} games: {growth:.2f}")
        if not quick:
            size, rate, _ = peaks[-1]
            print(f"\n## 5. Headline: {size:,} four-player greedy games on 2 workers: "
                  f"{size / rate:,.0f} s ({rate:,.0f} games/s); target < 300 s")  # fmt: skip
        integrity(root / f"g{sizes[-1]}-j2", sizes[-1])
    finally:
        shutil.rmtree(root, ignore_errors=True)
    strategy_costs(quick)


if __name__ == "__main__":
    main()
