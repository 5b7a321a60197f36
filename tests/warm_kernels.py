"""Compile every game's numba kernel once, two games at a time, before the tests run
(``make test`` calls it first).

Without it each pytest-xdist worker compiles the kernels it meets itself: on a fresh
clone both workers compile New York Slice's kernel (minutes of CPU each) side by side.
Here one process compiles New York Slice's and another the other games', each writing
numba's on-disk cache, which the test workers then load. Every game's kernel plays one
game of each family it plays, with and without decision records; nothing is asserted
here (the tests check the kernels).
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor

GROUPS = (("nyslice",), ("pieceocake", "pizzatheory", "horno"))
"""Games warmed by one process each: New York Slice's kernel alone costs about as much
as the others together."""


def warm(games: tuple[str, ...]) -> str:
    """Play one game of every kernel family of ``games`` on the kernel; return a line
    saying what was warmed and how long it took."""
    from sims.batch import one_arm, play_tables
    from sims.core.game import get_game

    t0 = time.perf_counter()
    done = []
    for name in games:
        game = get_game(name)
        players = game.info.min_players + (1 if game.info.max_players > 2 else 0)
        for info in game.strategies():
            if not info.kernel or info.preset_of:
                continue
            arm = one_arm({"name": "warm", "game": name, "players": players,
                           "strategies": info.name, "games": 1}, seed=1)  # fmt: skip
            if game.engine_for(arm) != "kernel":
                continue
            for decisions in (False, True):
                play_tables(arm, 0, 1, decisions=decisions, engine="kernel")
            done.append(f"{name}:{info.name}")
    return f"{', '.join(done) or 'nothing'} ({time.perf_counter() - t0:.0f} s)"


def main() -> int:
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=len(GROUPS)) as pool:
        for line in pool.map(warm, GROUPS):
            print(f"warmed {line}")
    print(f"kernels compiled or loaded in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
