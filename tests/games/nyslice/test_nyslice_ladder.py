"""The strength ladder holds: random < greedy < heuristic (its self-play equilibrium, the
default) < search at 2, 4 and 6 players (paired, seats rotated).

Each step's challenger plays every seat against a field of the rung below on the same
deals; its mean win share minus the fair 1/n is the step's gain, and the 95% interval of
that gain must exclude zero. At 2 players the step heuristic > greedy is the narrow one
(about +7 points; the heuristic lost it, -4.6 points, before its eat rule could take
greedy's, ``geat``), so it gets 1,500 deals. The search rung plays the budget a study
affords (``search(budget=4)``, 8-15 ms a game at 4 players, whole games in the kernel;
about +17 points over the equilibrium field). See benchmarks/strategies.md for the full
ladder.
"""

import pytest

from analysis.stats import mean_interval
from sims.arena import play_rotated

STEPS = [
    ("greedy", "random", 4, 300),
    ("heuristic", "greedy", 4, 300),
    ("heuristic", "greedy", 2, 1500),
    ("heuristic", "greedy", 6, 200),
    ("search(budget=4)", "heuristic", 4, 100),
]


@pytest.mark.parametrize("challenger,field,players,deals", STEPS,
                         ids=[f"{c}>{f}@{n}p" for c, f, n, _ in STEPS])  # fmt: skip
def test_each_rung_beats_the_one_below(challenger, field, players, deals):
    res = play_rotated("nyslice", challenger, field, players, deals, seed=99)
    mean, low, high = mean_interval(res.per_game() - 1 / players)
    assert low > 0, f"{challenger} vs {field}: gain {mean:+.3f} [{low:+.3f}, {high:+.3f}]"
