"""The strength ladder holds: random < greedy < heuristic at 4 players (paired, seats rotated).

Each step's challenger plays every seat against a field of the rung below on the same
deals; its mean win share minus the fair 1/4 is the step's gain, and the 95% interval of
that gain must exclude zero. 300 games × 4 seats per step: the gains are tens of points,
their intervals a few points wide (see benchmarks/strategies.md for the full ladder).
"""

import pytest

from analysis.stats import mean_interval
from sims.arena import play_rotated

STEPS = [("greedy", "random"), ("heuristic", "greedy")]


@pytest.mark.parametrize("challenger,field", STEPS, ids=[f"{c}>{f}" for c, f in STEPS])
def test_each_rung_beats_the_one_below(challenger, field):
    res = play_rotated("nyslice", challenger, field, 4, 300, seed=99)
    mean, low, high = mean_interval(res.per_game() - 0.25)
    assert low > 0, f"{challenger} vs {field}: gain {mean:+.3f} [{low:+.3f}, {high:+.3f}]"
