"""Every registered game keeps the protocol's promises (``sims.core.game``).

Run over the whole registry, at every player count of each game: games end; the same seed
gives the same game; each seat's score is the sum of its breakdown; a clone replays the
game and is independent of the original; the runner's tables have the declared columns
and win shares summing to 1; and where a game has a compiled kernel, it writes the same
rows as the reference engine.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sims.batch import one_arm, play_tables
from sims.core.game import REGISTRY, get_game
from sims.core.seeding import game_streams

ROOT = Path(__file__).resolve().parents[1]
MAX_STEPS = 100_000  # far beyond any real game; a game that runs past it never ends
GAMES_PER_COUNT = 12


def _cases() -> list[tuple[str, int]]:
    out = []
    for name in REGISTRY:
        info = get_game(name).info
        out += [(name, n) for n in range(info.min_players, info.max_players + 1)]
    return out


CASES = _cases()
IDS = [f"{g}-{n}p" for g, n in CASES]


def _default_options(name: str, players: int) -> dict:
    return get_game(name).variants({}, players, None)[0].options


def _random_game(name: str, players: int, seed: int, index: int):
    """A game of uniformly random legal actions through the state API; returns the final
    state and the actions taken."""
    game = get_game(name)
    streams = game_streams(seed, index, players)
    state = game.initial_state(_default_options(name, players), players, streams.deal)
    chooser = np.random.default_rng([seed, index, 99])
    actions = []
    for _ in range(MAX_STEPS):
        if state.terminal:
            return state, actions
        assert 0 <= state.current_player < players
        legal = list(state.legal_actions())
        assert legal, "a state that is not terminal must offer an action"
        action = legal[int(chooser.integers(len(legal)))]
        actions.append(action)
        state.apply(action)
    pytest.fail(f"{name} at {players} players did not end in {MAX_STEPS} actions")


@pytest.mark.parametrize("name", list(REGISTRY))
def test_info_and_rules_document(name):
    game = get_game(name)
    info = game.info
    assert info.name == name and 1 <= info.min_players <= info.max_players
    doc = ROOT / info.rules_doc
    assert doc.is_file(), f"{name}: rules document {info.rules_doc} is missing"
    assert "../shared" not in doc.read_text()
    schema = game.results
    assert schema.win_keys and "score" in schema.seat_columns
    assert set(schema.components) <= set(schema.seat_columns)
    assert set(schema.win_keys) <= set(schema.seat_columns)
    assert {i.name for i in game.strategies()} >= {"random"}


@pytest.mark.parametrize("name", list(REGISTRY))
def test_data_limits_are_declared_and_documented(name):
    """Each game declares its data files' limits and its rules document's section "Data
    files" lists every one with its range, so a designer knows them before writing a file."""
    game = get_game(name)
    limits = game.data_limits
    assert limits, f"{name} declares no data limits"
    assert len({x.key for x in limits}) == len(limits), "limit keys repeat"
    text = (ROOT / game.info.rules_doc).read_text()
    assert "\n## Data files" in text, f"{game.info.rules_doc} has no section '## Data files'"
    section = text.split("\n## Data files", 1)[1].split("\n## ", 1)[0]
    for x in limits:
        assert x.low <= x.high
        row = f"| {x.what} | {x.low} | {x.high} |"
        assert row in section, f"{game.info.rules_doc}: 'Data files' lacks the row {row!r}"


@pytest.mark.parametrize("name,players", CASES, ids=IDS)
def test_games_end_and_score_is_the_sum_of_its_breakdown(name, players):
    components = get_game(name).results.components
    for index in range(GAMES_PER_COUNT):
        state, _ = _random_game(name, players, 5, index)
        assert state.current_player == -1
        rows = state.score_breakdown()
        assert len(rows) == players
        for row in rows:
            assert row["score"] == sum(row[c] for c in components), row


@pytest.mark.parametrize("name,players", CASES, ids=IDS)
def test_strategies_decide_legal_actions_to_the_end(name, players):
    game = get_game(name)
    strategies = [game.make_strategy("random") for _ in range(players)]
    streams = game_streams(2, 0, players)
    state = game.initial_state(_default_options(name, players), players, streams.deal)
    for _ in range(MAX_STEPS):
        if state.terminal:
            break
        p = state.current_player
        action = game.decide(strategies[p], state, streams.seats[p])
        assert action in state.legal_actions()
        state.apply(action)
    assert state.terminal


@pytest.mark.parametrize("name,players", CASES, ids=IDS)
def test_same_seed_same_game(name, players):
    for index in range(3):
        a, acts_a = _random_game(name, players, 11, index)
        b, acts_b = _random_game(name, players, 11, index)
        assert acts_a == acts_b and a.score_breakdown() == b.score_breakdown()


@pytest.mark.parametrize("name,players", CASES, ids=IDS)
def test_clone_replays_and_is_independent(name, players):
    final, actions = _random_game(name, players, 17, 0)
    game = get_game(name)
    state = game.initial_state(
        _default_options(name, players), players, game_streams(17, 0, players).deal
    )
    half = len(actions) // 2
    for a in actions[:half]:
        state.apply(a)
    copy = state.clone()
    assert copy.current_player == state.current_player
    assert list(copy.legal_actions()) == list(state.legal_actions())
    for a in actions[half:]:
        copy.apply(a)
    assert copy.terminal and copy.score_breakdown() == final.score_breakdown()
    assert not state.terminal or half == len(actions)  # the original did not move
    for a in actions[half:]:
        state.apply(a)
    assert state.score_breakdown() == final.score_breakdown()


@pytest.mark.parametrize("name,players", CASES, ids=IDS)
def test_runner_tables_follow_the_declared_schema(name, players):
    game = get_game(name)
    block = {"name": "c", "game": name, "players": players, "strategies": "random", "games": 8}
    arm = one_arm(block, seed=3)
    tables = play_tables(arm, 0, 8)
    seat_cols = set(tables["players"].column_names)
    assert set(game.results.seat_columns) <= seat_cols and "win_share" in seat_cols
    assert set(game.results.game_columns) <= set(tables["games"].column_names)
    shares = tables["players"].column("win_share").to_numpy().reshape(8, players)
    np.testing.assert_allclose(shares.sum(axis=1), 1.0)
    assert tables["players"].num_rows == 8 * players and tables["games"].num_rows == 8


KNOB_GAMES = [g for g in REGISTRY if any(i.kernel for i in get_game(g).strategies())]


@pytest.mark.parametrize("name", KNOB_GAMES)
def test_kernel_agrees_with_the_reference_engine_at_every_knobs_ends(name):
    """Every knob ``slicelab balance`` may turn (``Game.knobs``), at its lowest and highest
    value, at the smallest table where it acts: the same rows from both engines (every
    kernel family but search, whose reference decisions are slow and which the test above
    covers)."""
    game = get_game(name)
    families = [f for f in _kernel_families(name) if f != "search"]
    for knob in game.knobs:
        players = max(knob.min_players, game.info.min_players)
        specs = [families[s % len(families)] for s in range(players)]
        for value in (knob.values[0], knob.values[-1]):
            block = {"name": "k", "game": name, "players": players, "strategies": specs,
                     "games": 3, **knob.set({}, value)}  # fmt: skip
            _assert_engines_agree(one_arm(block, seed=23), 3, (knob.name, value))


def _assert_engines_agree(arm, games: int, what) -> None:
    """The kernel and the reference engine write the same tables for ``arm``'s first
    ``games`` games (decisions included; the engine column aside)."""
    kern = play_tables(arm, 0, games, decisions=True, engine="kernel")
    ref = play_tables(arm, 0, games, decisions=True, engine="reference")
    for table in kern:
        a, b = kern[table], ref[table]
        if "engine" in a.column_names:
            a, b = a.drop_columns(["engine"]), b.drop_columns(["engine"])
        assert a.equals(b), (what, table)


def _kernel_families(name: str) -> list[str]:
    return [i.name for i in get_game(name).strategies() if i.kernel and not i.preset_of]


@pytest.mark.parametrize("name,players", CASES, ids=IDS)
def test_kernel_agrees_with_the_reference_engine(name, players):
    families = _kernel_families(name)
    if not families:
        pytest.skip(f"{name} has no compiled kernel")
    specs = [families[s % len(families)] for s in range(players)]
    block = {"name": "k", "game": name, "players": players, "strategies": specs, "games": 6}
    _assert_engines_agree(one_arm(block, seed=21), 6, specs)
