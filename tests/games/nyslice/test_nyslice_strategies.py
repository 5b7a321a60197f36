"""Strategy families: specs, presets, the heuristic's parameters, arena and tuning."""

import pytest

from analysis.stats import paired_difference
from sims.arena import play_rotated
from sims.core.errors import StrategySpecError
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.heuristic import (
    HEURISTIC_DEFAULTS,
    PARAM_RANGES,
    chance,
    load_presets,
    params_for,
    save_preset,
)
from sims.games.nyslice.strategies import STRATEGIES, make_strategy
from sims.tune import spec_string, tune


def test_heuristic_spec_and_parameters():
    s = make_strategy("heuristic(theta=0.8,deny=0.3)")
    p = s.params(4)
    assert p["theta"] == 0.8 and p["deny"] == 0.3
    assert (
        set(p)
        == set(HEURISTIC_DEFAULTS)
        == set(PARAM_RANGES)
        == set(STRATEGIES["heuristic"].params)
    )
    with pytest.raises(StrategySpecError, match=r"no parameter\(s\) \['eat'\]"):
        make_strategy("heuristic(eat=1)")
    with pytest.raises(StrategySpecError, match="must be a number"):
        make_strategy("heuristic(theta=high)")


@pytest.mark.parametrize(
    "m,u,expected",
    [(0.0, 0.0, 0.5), (1.0, 0.0, 0.75), (-1.0, 0.0, 0.25), (3.0, 0.0, 0.875), (1.0, 10.0, 2 / 3)],
)
def test_chance_curve(m, u, expected):
    # sharp = 1, horizon = 0.1: z = m / (1 + 0.1 u); P = 0.5 + 0.5 z / (1 + |z|)
    assert chance(m, u, 1.0, 0.1) == pytest.approx(expected)


def test_presets_are_named_strategies(tmp_path, monkeypatch):
    import sims.games.nyslice.heuristic as h

    path = tmp_path / "presets.toml"
    path.write_text("# presets\n")
    monkeypatch.setattr(h, "PRESETS_FILE", path)
    params = dict(HEURISTIC_DEFAULTS, theta=2.5)
    save_preset("heuristic-p3", params, "test")
    save_preset("mine", dict(params, deny=0.9), "test")
    assert load_presets()["mine"]["deny"] == 0.9
    assert path.read_text().startswith("# presets")
    assert params_for(3, {})["theta"] == 2.5  # the player-count preset is the default
    assert params_for(4, {})["theta"] == HEURISTIC_DEFAULTS["theta"]
    assert params_for(3, {"theta": 1.0})["theta"] == 1.0
    s = make_strategy("mine(theta=0.5)")
    assert s.params(5)["deny"] == 0.9 and s.params(5)["theta"] == 0.5


def test_heuristic_plays_legal_complete_games():
    for n in (2, 3, 4, 5, 6):
        state = play_game(n, seat_strategies(["heuristic"] + ["random"] * (n - 1), n), 3, n)
        assert state.terminal and sum(state.win_shares()) == pytest.approx(1.0)


def test_play_rotated_pairs_seats_and_games():
    res = play_rotated("nyslice", "greedy", "random", 3, 6, seed=4)
    assert res.share.shape == (6, 3) and res.margin.shape == (6, 3)
    again = play_rotated("nyslice", "greedy", "random", 3, 6, seed=4)
    assert (res.share == again.share).all()
    # Greedy beats random seat-rotated, even on a handful of games.
    assert res.per_game().mean() > 1 / 3
    mean, low, high = paired_difference(
        res.per_game(), play_rotated("nyslice", "random", "random", 3, 6, seed=4).per_game()
    )
    assert low <= mean <= high


def test_tune_halves_candidates_and_validates_the_winner():
    rounds = []
    result = tune(
        "nyslice",
        2,
        "random",
        "heuristic",
        candidates=3,
        games=2,
        validation_games=10,
        seed=2,
        on_round=lambda *a: rounds.append(a),
    )
    assert [len(r) for r in result.rounds] == [3, 2, 1]
    assert result.rounds[0][0][2] == 2 and result.rounds[-1][0][2] == 2 + 4 + 8
    assert result.best.spec == spec_string("heuristic", result.best.params)
    assert result.low <= result.share <= result.high and result.validation_games == 10
