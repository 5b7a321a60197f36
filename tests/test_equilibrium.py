"""Self-play (damped iterated best response): the field moves towards each best response,
stops when no deviation gains more than the tolerance, and its record is the evidence."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sims.cli import cli
from sims.core.errors import SlicelabError
from sims.equilibrium import self_play

SMALL = {"candidates": 2, "games": 10, "validation_games": 40, "spread": 0.1}


def test_each_step_moves_the_field_towards_the_best_response():
    res = self_play("nyslice", 2, iterations=2, step=0.5, tolerance_pp=-100, **SMALL)
    assert not res.converged and len(res.iterations) == 2
    first, second = res.iterations
    from sims.core.specs import parse_spec

    br = parse_spec(first.exploit.best.spec).params
    for k, v in first.params.items():
        assert second.params[k] == pytest.approx(round(v + 0.5 * (br[k] - v), 3), abs=1e-9)
    assert res.final in res.iterations


def test_it_stops_once_no_deviation_gains_more_than_the_tolerance():
    res = self_play("nyslice", 2, iterations=5, tolerance_pp=100, bound_pp=100, **SMALL)
    assert res.converged and len(res.iterations) == 1


def test_a_start_of_a_random_field_is_far_from_equilibrium():
    """Planted truth: a field that eats every slice it can (theta = 0: eat whenever eating
    is worth anything) loses to one that weighs collecting, so the first iteration finds a
    deviation whose gain's interval is above the tolerance."""
    res = self_play("nyslice", 3, start={"theta": 0.0}, iterations=1, candidates=4, games=40,
                    validation_games=300, spread=0.1)  # fmt: skip
    it = res.iterations[0]
    assert not res.converged and it.exploit.best.low_pp > 2.0


def test_bad_settings_are_refused():
    with pytest.raises(SlicelabError, match="step"):
        self_play("nyslice", 2, step=0, **SMALL)
    with pytest.raises(SlicelabError, match="cannot tune 'greedy'"):
        self_play("nyslice", 2, family="greedy", **SMALL)


def test_the_command_reports_each_iteration_and_the_field_reached():
    args = [
        "equilibrium",
        "nyslice",
        "-p",
        "2",
        "--candidates",
        "2",
        "--games",
        "10",
        "--validation-games",
        "20",
        "--iterations",
        "1",
        "--tolerance",
        "0",
        "--bound",
        "0",
    ]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert "iteration 0: field heuristic(" in text and "after 1 iteration(s)" in text
    assert "least exploitable field: heuristic(" in text and "fresh deals" in text


def test_a_deviation_of_another_family_counts_for_convergence_not_for_the_step():
    """Planted truth: search in one seat beats the heuristic field at 2 players by far more
    than 2 pp, so a tolerance the family's own deviation meets is not met with search
    among the deviations; the field still moves towards the family's best response."""
    res = self_play("nyslice", 2, iterations=2, tolerance_pp=100, bound_pp=100, **SMALL)
    assert res.converged  # within the family, any field passes so loose a tolerance
    res = self_play("nyslice", 2, iterations=2, step=1.0, tolerance_pp=2, bound_pp=3,
                    also=("search(budget=4)",), **SMALL)  # fmt: skip
    first, second = res.iterations
    assert first.exploit.best.spec == "search(budget=4)" and first.exploit.best.low_pp > 2
    assert not res.converged
    from sims.core.specs import parse_spec

    br = parse_spec(first.exploit.tuning.best.spec).params
    assert second.params == {k: round(float(br[k]), 3) for k in first.params}
