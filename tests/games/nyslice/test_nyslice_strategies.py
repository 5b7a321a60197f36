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

    shipped = tmp_path / "presets.toml"
    shipped.write_text("# presets\n[heuristic-p3]\ntheta = 2.5\n")
    monkeypatch.setattr(h, "PRESETS_FILE", shipped)
    monkeypatch.setenv("SLICELAB_HOME", str(tmp_path / "home"))
    params = dict(HEURISTIC_DEFAULTS, theta=2.5)
    saved = save_preset("mine", dict(params, deny=0.9), "test")
    assert saved == tmp_path / "home" / "presets" / "nyslice.toml"
    assert load_presets()["mine"]["deny"] == 0.9
    assert shipped.read_text() == "# presets\n[heuristic-p3]\ntheta = 2.5\n"  # never written
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


# ------------------------------------------------------- parameter validity bounds
# spec, the refusal (a StrategySpecError's whole message)
BAD_PARAMS = [
    ("heuristic(theta=nan)", "strategy 'heuristic': theta must be a number from 0 to 100, got nan"),
    ("heuristic(theta=inf)", "strategy 'heuristic': theta must be a number from 0 to 100, got inf"),
    (
        "heuristic(theta=-inf)",
        "strategy 'heuristic': theta must be a number from 0 to 100, got -inf",
    ),
    ("heuristic(theta=-1)", "strategy 'heuristic': theta must be a number from 0 to 100, got -1"),
    (
        "heuristic(theta=1e308)",
        "strategy 'heuristic': theta must be a number from 0 to 100, got 1e+308",
    ),
    ("heuristic(trust=1.5)", "strategy 'heuristic': trust must be a number from 0 to 1, got 1.5"),
    (
        "heuristic(horizon=-0.1)",
        "strategy 'heuristic': horizon must be a number from 0 to 100, got -0.1",
    ),
    ("heuristic(sharp=-2)", "strategy 'heuristic': sharp must be a number from 0 to 100, got -2"),
    ("heuristic(deny=11)", "strategy 'heuristic': deny must be a number from 0 to 10, got 11"),
    (
        "heuristic(specials=-1)",
        "strategy 'heuristic': specials must be a number from 0 to 10, got -1",
    ),
    (
        "heuristic(supreme=nan)",
        "strategy 'heuristic': supreme must be a number from 0 to 100, got nan",
    ),
    ("heuristic(dibs=-1)", "strategy 'heuristic': dibs must be a number from 0 to 1000, got -1"),
    ("heuristic(cil=inf)", "strategy 'heuristic': cil must be a number from 0 to 1000, got inf"),
    (
        "heuristic(sneak=1001)",
        "strategy 'heuristic': sneak must be a number from 0 to 1000, got 1001",
    ),
    (
        "heuristic(theta=true)",
        "strategy 'heuristic': theta must be a number from 0 to 100, got True",
    ),
    (
        "heuristic-p4(theta=-1)",
        "strategy 'heuristic-p4': theta must be a number from 0 to 100, got -1",
    ),
    (
        "search(budget=1e308)",
        "strategy 'search': budget must be an integer from 1 to 10000, got 1e+308",
    ),
    ("search(budget=0)", "strategy 'search': budget must be an integer from 1 to 10000, got 0"),
    ("search(budget=-1)", "strategy 'search': budget must be an integer from 1 to 10000, got -1"),
    (
        "search(budget=10001)",
        "strategy 'search': budget must be an integer from 1 to 10000, got 10001",
    ),
    (
        "search(budget=2.5)",
        "strategy 'search': budget must be an integer from 1 to 10000, got 2.5",
    ),
    (
        "search(budget=nan)",
        "strategy 'search': budget must be an integer from 1 to 10000, got nan",
    ),
    ("search(width=0)", "strategy 'search': width must be an integer from 1 to 100, got 0"),
    ("search(width=101)", "strategy 'search': width must be an integer from 1 to 100, got 101"),
    ("search(cuts=0)", "strategy 'search': cuts must be an integer from 1 to 10000, got 0"),
    ("search(cuts=2.5)", "strategy 'search': cuts must be an integer from 1 to 10000, got 2.5"),
    ("search(cuts=inf)", "strategy 'search': cuts must be an integer from 1 to 10000, got inf"),
    (
        "heuristic(theta=1,theta=2)",
        "strategy spec 'heuristic(theta=1,theta=2)' sets parameter theta twice; give each "
        "parameter once",
    ),
    (
        "search(budget=8, budget=8)",
        "strategy spec 'search(budget=8, budget=8)' sets parameter budget twice; give each "
        "parameter once",
    ),
]


@pytest.mark.parametrize("spec,message", BAD_PARAMS, ids=[b[0] for b in BAD_PARAMS])
def test_parameters_outside_their_bounds_are_refused(spec, message):
    with pytest.raises(StrategySpecError) as err:
        make_strategy(spec)
    assert str(err.value) == message


@pytest.mark.parametrize(
    "spec,key,value",
    [
        ("heuristic(theta=0)", "theta", 0.0),
        ("heuristic(theta=100)", "theta", 100.0),
        ("heuristic(trust=1)", "trust", 1.0),
        ("heuristic(horizon=0)", "horizon", 0.0),
        ("heuristic(cil=1000)", "cil", 1000.0),
    ],
)
def test_heuristic_parameters_at_their_bounds_are_accepted(spec, key, value):
    assert make_strategy(spec).params(4)[key] == value


@pytest.mark.parametrize(
    "spec,budget,cuts,width",
    [
        ("search", 64, 6, 3),
        ("search(budget=1)", 1, 6, 3),
        ("search(budget=64.0, cuts=1, width=1)", 64, 1, 1),  # 64.0 is the integer 64
        ("search(budget=10000, cuts=10000, width=100)", 10000, 10000, 100),
    ],
)
def test_search_parameters_within_bounds(spec, budget, cuts, width):
    p = make_strategy(spec).p
    assert (p["budget"], p["cuts"], p["width"]) == (budget, cuts, width)


def test_search_refuses_bad_parameters_even_when_built_directly():
    from sims.core.specs import StrategySpec
    from sims.games.nyslice.search import SearchStrategy

    with pytest.raises(StrategySpecError, match="budget must be an integer from 1 to 10000"):
        SearchStrategy(StrategySpec("search", {"budget": 1e308}))


def test_bounds_are_declared_once_per_family_and_hold_the_defaults():
    from sims.games.nyslice.heuristic import HEURISTIC_BOUNDS
    from sims.games.nyslice.search import SEARCH_BOUNDS, SEARCH_DEFAULTS

    assert STRATEGIES["heuristic"].bounds == HEURISTIC_BOUNDS
    assert STRATEGIES["search"].bounds == SEARCH_BOUNDS
    assert STRATEGIES["search"].params == {k: float(v) for k, v in SEARCH_DEFAULTS.items()}
    for info in STRATEGIES.values():
        assert set(info.bounds) == set(info.params)
        for key, default in info.params.items():
            assert info.bounds[key].contains(default), (info.name, key)
    # The tuning box lies inside the validity bounds, and so does every shipped preset.
    for key, (low, high) in PARAM_RANGES.items():
        bound = HEURISTIC_BOUNDS[key]
        assert bound.contains(low) and bound.contains(high), key
    for name, params in load_presets().items():
        for key, value in params.items():
            assert HEURISTIC_BOUNDS[key].contains(value), (name, key)


def test_parse_spec_refuses_a_repeated_parameter():
    from sims.core.specs import parse_spec

    with pytest.raises(StrategySpecError, match="sets parameter theta twice"):
        parse_spec("heuristic(deny=0.1, theta=1, theta=1)")
    assert parse_spec("heuristic(theta=1, Theta=2)").params == {"theta": 1, "Theta": 2}
