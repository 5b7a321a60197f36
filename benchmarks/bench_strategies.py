"""The strength ladder of New York Slice strategies, and what each costs.

Each rung's challenger sits in one seat against a field of the rung below, every seat in
turn, on the same deals (paired, seats rotated). In a game where everyone plays the field
strategy the seats' mean win share is exactly 1/n, so the challenger's per-game mean share
minus 1/n is the gain of the step; its 95% interval is a t interval over games.

    python benchmarks/bench_strategies.py [--players 4] [--games 2000] [--search-games 100]
"""

from __future__ import annotations

import argparse
import time

from analysis.stats import mean_interval
from sims.arena import play_rotated
from sims.games.nyslice.kernel import KernelRunner, strategy_codes

LADDER = ["random", "greedy", "heuristic", "search"]


def speed(players: int, games: int) -> list[tuple[str, float]]:
    """Kernel games/s with every seat playing one built-in strategy (one core)."""
    from sims.games.nyslice.deck import default_deck
    from sims.games.nyslice.rules import Rules

    runner = KernelRunner(default_deck(), Rules())
    out = []
    for name in ("random", "greedy", "heuristic"):
        codes = strategy_codes([name] * players)
        runner.play_many(players, codes, 1, 0, 10)
        t0 = time.perf_counter()
        runner.play_many(players, codes, 1, 0, games)
        out.append((name, games / (time.perf_counter() - t0)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2000, help="seat-rotated games per kernel rung")
    ap.add_argument("--search-games", type=int, default=100, help="seat-rotated games for search")
    ap.add_argument("--budget", type=int, default=64, help="search playouts per decision")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    n = args.players
    print(f"# Strength ladder at {n} players (seed {args.seed})\n")
    print("| step | games × seats | challenger win share | gain over 1/n (pp) | 95% CI (pp) | s |")
    print("|---|---|---|---|---|---|")
    for below, above in zip(LADDER, LADDER[1:], strict=False):
        challenger = f"search(budget={args.budget})" if above == "search" else above
        games = args.search_games if above == "search" else args.games
        t0 = time.perf_counter()
        chunk = max(1, games // 8)
        res = play_rotated(
            "nyslice", challenger, below, n, games, args.seed, jobs=args.jobs, chunk=chunk
        )
        secs = time.perf_counter() - t0
        mean, low, high = mean_interval(res.per_game() - 1.0 / n)
        print(
            f"| {challenger} vs {below} | {games} × {n} | {res.per_game().mean():.1%} | "
            f"{100 * mean:+.1f} | [{100 * low:+.1f}, {100 * high:+.1f}] | {secs:.0f} |"
        )
    print("\n## Kernel speed, every seat the same strategy (one core)\n")
    print("| strategy | games/s |")
    print("|---|---|")
    for name, rate in speed(n, 5000):
        print(f"| {name} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
