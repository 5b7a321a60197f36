"""Pizza Theory's strategies: the catalogue and its parameter checks, legal and
reproducible play, greedy's choices as documented (the best expected swing, first among
equals), the mixed player's regret matching (uniform where the game is symmetric, pure
where one line dominates) and its sampling from the seat's own stream; and no decision
depends on a colour's number: relabelling the colours changes no decision of any field the
study plays (exactly), and a deterministic field plays one game whichever colour starts."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sims.core.errors import StrategySpecError
from sims.core.seeding import game_streams
from sims.games.flow import play_out
from sims.games.pizzatheory.board import board_names, default_board, shipped_board
from sims.games.pizzatheory.engine import Deal, GameState, Phase, deal
from sims.games.pizzatheory.game import play_game, seat_strategies
from sims.games.pizzatheory.kernel import play_many
from sims.games.pizzatheory.records import SEAT_COLUMNS, decision_row, game_row, seat_rows
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
from sims.games.pizzatheory.swing import deltas, leading_other, roles
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


# ------------------------------------------------------------------------ relabelling
def test_the_leading_other_colour_is_never_picked_by_its_number():
    """Where the two other colours hold as many toppings both lead (None: the swing weighs
    their mean change); else the one with more, whatever its number."""
    assert leading_other(0, [5, 4, 4]) is None and leading_other(2, [3, 3, 9]) is None
    assert leading_other(0, [5, 3, 4]) == 2 and leading_other(1, [6, 1, 4]) == 0
    d = np.arange(2 * 3).reshape(2, 3)  # two outcomes: changes (0, 1, 2) and (3, 4, 5)
    x, y, z = roles(d, 0, [5, 4, 4])
    assert list(z) == [1.5, 4.5] and list(y) == [3, 9] and list(x) == [0, 3]
    assert list(roles(d, 0, [5, 4, 6])[2]) == [2, 5]


def _relabelled(n, specs, seed, g, rules, k, board=BOARD):
    """Game ``g`` with colour (seat) ``s`` relabelled ``(s + k) mod n``: its strategy, its
    own stream and its place in the turn order (``first_seat``) move with it. Returns the
    seat rows in the original labels, the game row and the decisions' (seat, action)."""
    streams = game_streams(seed, g, n)
    new = [(s + k) % n for s in range(n)]
    old = {new[s]: s for s in range(n)}
    the_rules = replace(rules, first_seat=(rules.first_seat + k) % n)
    state = GameState(board, the_rules, n, deal(n, the_rules, streams.deal), g)
    records: list[list[int]] = []
    play_out(state, [make_strategy(specs[old[t]]) for t in range(n)],
             [streams.seats[old[t]] for t in range(n)], PlayerView, records, decision_row,
             g)  # fmt: skip
    rows = seat_rows(state)
    decisions = [(old[r[2]], *r[3:]) for r in records]  # seat, position, phase, action, ...
    return [rows[new[s]] for s in range(n)], game_row(state), decisions


M = "mixed(iters=20)"
RELABEL = [
    (3, ["random"] * 3), (3, ["greedy"] * 3), (3, ["heuristic"] * 3), (3, [M] * 3),
    (3, ["mixed(blind=1,iters=20)", M, M]), (3, [M, "heuristic", "greedy"]),
    (3, [M, "heuristic", "random"]),
    (2, ["random"] * 2), (2, ["greedy"] * 2), (2, ["heuristic"] * 2), (2, [M] * 2),
]  # fmt: skip
"""Every field and table of the default study (the mixed player with fewer regret-matching
iterations: its ties are broken by the same valuation)."""


@pytest.mark.parametrize("n, specs", RELABEL, ids=[f"{n}p-{'-'.join(s)}" for n, s in RELABEL])
def test_relabelling_the_colours_changes_no_decision(n, specs):
    """Exact: with every colour relabelled (its strategy, its stream and its place in the
    turn order moving with it) each seat makes the same decisions and ends with the same
    row, in the first three rounds of a deal of every field the study plays."""
    rules = Rules(max_rounds=3)
    base = _relabelled(n, specs, 7, 0, rules, 0)
    for k in range(1, n):
        assert _relabelled(n, specs, 7, 0, rules, k) == base, k


SEARCH_RELABEL = [
    (3, ["search(budget=8,places=2)", M, "heuristic"]), (3, ["search(budget=6,places=2)"] * 3),
    (3, ["search(budget=8,places=2,model=1)", "greedy", M]),
    (2, ["search(budget=8,places=2)", M]), (2, ["search(budget=6,places=3)"] * 2),
]  # fmt: skip
"""The search player among the study's fields, and search against search (its field
model's mixes and its samples from the seat's own stream move with the colour)."""


@pytest.mark.parametrize("n, specs", SEARCH_RELABEL,
                         ids=[f"{n}p-{'-'.join(s)}" for n, s in SEARCH_RELABEL])  # fmt: skip
def test_relabelling_the_colours_changes_no_search_decision(n, specs):
    """As above, for the search player (reference class, playouts in the kernel): the same
    decisions and rows whichever colour each seat plays."""
    rules = Rules(max_rounds=3)
    base = _relabelled(n, specs, 7, 0, rules, 0)
    for k in range(1, n):
        assert _relabelled(n, specs, 7, 0, rules, k) == base, k


@pytest.mark.parametrize("board", board_names())
def test_a_deterministic_field_plays_one_game_whichever_colour_starts(board):
    """The compiled kernel, whole games: greedy and the heuristic at 3 players (no chance)
    and at 2 players (given the neutral die) win the same games by starting position
    whichever colour starts first (rule first_seat), on every shipped board."""
    b = shipped_board(board)
    col = [SEAT_COLUMNS.index(c) for c in ("won", "toppings", "captured", "lost", "saved")]
    pos = SEAT_COLUMNS.index("start_position")
    for spec in ("heuristic", "greedy"):
        for n, games in ((3, 1), (2, 4 if board == "hex-37" else 1)):
            tables = []
            for first in range(n):
                seats, g, _ = play_many(b, Rules(first_seat=first), n, 11, 0, games,
                                        strategies=spec)  # fmt: skip
                order = np.argsort(seats[:, :, pos], axis=1)
                tables.append((np.take_along_axis(seats[:, :, col], order[..., None], 1), g))
            for t, g in tables[1:]:
                assert np.array_equal(t, tables[0][0]) and np.array_equal(g, tables[0][1])
