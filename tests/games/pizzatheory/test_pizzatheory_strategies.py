"""Pizza Theory's strategies: the catalogue and its parameter checks, legal and
reproducible play, greedy's choices as documented (the best expected swing, first among
equals), the mixed player's regret matching (uniform where the game is symmetric, pure
where one line dominates) and its sampling from the seat's own stream."""

from __future__ import annotations

import numpy as np
import pytest

from sims.core.errors import StrategySpecError
from sims.games.pizzatheory.board import default_board
from sims.games.pizzatheory.engine import Deal, GameState, Phase
from sims.games.pizzatheory.game import play_game, seat_strategies
from sims.games.pizzatheory.rules import Rules
from sims.games.pizzatheory.strategies import (
    GREEDY_PARAMS,
    HEURISTIC_DEFAULTS,
    MIXED_DEFAULTS,
    MIXED_EQUILIBRIA,
    MixedStrategy,
    line_values,
    load_presets,
    make_strategy,
    regret_matching,
)
from sims.games.pizzatheory.swing import deltas
from sims.games.pizzatheory.view import PlayerView

BOARD = default_board()


def test_catalogue_and_parameters():
    assert make_strategy("greedy").params(3) == GREEDY_PARAMS
    assert make_strategy("heuristic(leader=1.5)").params(3)["leader"] == 1.5
    for n in (2, 3):  # plain mixed plays its self-play equilibrium valuation
        assert make_strategy("mixed").params(n) == {**MIXED_DEFAULTS, **MIXED_EQUILIBRIA[n]}
    assert make_strategy("mixed(leader=2)").params(3)["leader"] == 2.0
    for bad, what in [("chess", "unknown Pizza Theory strategy 'chess'"),
                      ("greedy(leader=1)", "has no parameter"),
                      ("heuristic(theta=1)", "has no parameter"),
                      ("heuristic(aggression=-1)", "aggression"),
                      ("mixed(iters=0)", "iters"), ("mixed(iters=2.5)", "iters")]:  # fmt: skip
        with pytest.raises(StrategySpecError, match=what.replace("(", r"\(")):
            make_strategy(bad)


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic(risk=0.5)", "mixed(iters=20)"])
@pytest.mark.parametrize("n", [2, 3])
def test_legal_and_reproducible(spec, n):
    a = play_game(n, seat_strategies(spec, n), 4, 1)
    b = play_game(n, seat_strategies(spec, n), 4, 1)
    assert a.terminal and a.history == b.history and a.won() == b.won()


@pytest.mark.parametrize("n", [2, 3])
def test_plain_heuristic_plays_its_player_count_preset(n):
    presets = load_presets()
    expected = {**HEURISTIC_DEFAULTS, **presets.get(f"heuristic-eq{n}", {})}
    assert make_strategy("heuristic").params(n) == expected
    if f"heuristic-eq{n}" in presets:
        named = make_strategy(f"heuristic-eq{n}(risk=0.25)").params(2 if n == 3 else 3)
        assert named == {**expected, "risk": 0.25}


def test_a_user_preset_is_a_strategy(monkeypatch, tmp_path):
    from sims.games.pizzatheory.plugin import GAME

    monkeypatch.setenv("SLICELAB_HOME", str(tmp_path))
    with pytest.raises(Exception, match="reserved"):
        GAME.check_preset("heuristic", "heuristic-eq3")
    path = GAME.save_preset("heuristic", "mine", {"leader": 1.25, "risk": 0.5}, "a test")
    assert path.is_relative_to(tmp_path)
    assert make_strategy("mine").params(3) == {**HEURISTIC_DEFAULTS, "leader": 1.25, "risk": 0.5}
    # a user preset is the defaults with its own parameters (not heuristic-eqN's)
    assert GAME.strategy_identity("mine", 3) == GAME.strategy_identity(
        "heuristic(aggression=1,leader=1.25,risk=0.5,blind=0)", 3
    )


def _at_cut(seed: int = 0):
    s = GameState(BOARD, Rules(), 3, Deal())
    rng = np.random.default_rng(seed)
    while s.decision().phase != Phase.CUT or s.round < 2:
        legal = s.decision().legal
        s.apply(legal[int(rng.integers(len(legal)))])
    return s


def test_greedy_cut_is_the_line_of_the_best_mean_swing():
    s = _at_cut()
    seat = s.current_player
    view = PlayerView(s, seat)
    d = deltas(BOARD, s.rules, np.array(s.owner), np.array(s.supply))
    own = d[..., seat] - np.delete(d, seat, axis=-1).mean(axis=-1)
    axis = s.positions[seat]
    expected = np.moveaxis(own, axis, 0).reshape(6, -1).mean(axis=1)
    got = line_values(view, d, seat, GREEDY_PARAMS, {})
    np.testing.assert_allclose(got, expected)
    dec = s.decision()
    assert make_strategy("greedy").choose(view, dec, None) == int(np.argmax(expected))


def test_greedy_place_is_the_space_of_the_best_best_line():
    s = GameState(BOARD, Rules(), 3, Deal())
    dec = s.decision()
    view = PlayerView(s, 0)
    best, best_v = None, -np.inf
    for space in dec.legal:  # the spec read literally, one candidate at a time
        owner = np.array(s.owner)
        owner[space] = 0
        supply = np.array(s.supply)
        supply[0] -= 1
        value = line_values(view, deltas(BOARD, s.rules, owner, supply), 0, GREEDY_PARAMS,
                            {}).max()  # fmt: skip
        if value > best_v:
            best, best_v = space, value
    assert make_strategy("greedy").choose(view, dec, None) == best


def test_regret_matching_on_a_symmetric_game_is_near_uniform():
    """Matching pennies over six lines (win when the lines differ by 0 mod 6 or not):
    each side's equilibrium is uniform."""
    a = np.eye(6) * 2 - 1  # the matcher wins on equal lines
    mixes = regret_matching([a, -a], 3000)
    for m in mixes:
        np.testing.assert_allclose(m, np.full(6, 1 / 6), atol=0.03)


def test_regret_matching_plays_a_dominant_line():
    u = np.zeros((6, 6, 6))
    u[4] += 1.0  # line 4 is best for player 0 whatever the others do
    mixes = regret_matching([u, np.zeros((6, 6, 6)), np.zeros((6, 6, 6))], 500)
    assert mixes[0][4] > 0.95


def test_mixed_cut_samples_its_mix_from_the_seats_stream():
    s = _at_cut(3)
    seat = s.current_player
    view = PlayerView(s, seat)
    strategy = make_strategy("mixed(iters=100)")
    assert isinstance(strategy, MixedStrategy)
    mix = strategy.mix(view, seat)
    assert mix.shape == (6,) and abs(mix.sum() - 1) < 1e-12
    strategy.mix = lambda v, q: mix  # the draws below only sample it
    draws = [strategy.choose(view, s.decision(), np.random.default_rng(k)) for k in range(300)]
    freq = np.bincount(draws, minlength=6) / 300
    assert np.abs(freq - mix).max() < 0.1
    again = [strategy.choose(view, s.decision(), np.random.default_rng(k)) for k in range(300)]
    assert draws == again
