"""Piece o' Cake through the game protocol: its info and options, the variants and the
arm checks (with their messages), the fingerprint, chunk play's columns and types on the
reference engine, the engine choice when the kernel is missing, the command line end to
end (``slicelab play``, ``slicelab study`` writing Parquet, ``slicelab replay``)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from sims.batch import one_arm, play_tables
from sims.cli import cli
from sims.core.errors import SlicelabError
from sims.core.game import Game, get_game
from sims.core.study import Arm
from sims.games.pieceocake.game import play_game, seat_strategies
from sims.games.pieceocake.plugin import (
    GAME,
    PHASE_NAMES,
    TABLES_VERSION,
    by_variety,
    cake_of,
    majorities_unclaimed,
)
from sims.games.pieceocake.records import DECISION_COLUMNS, SCORE_COLUMNS, score_rows
from sims.games.pieceocake.rules import Rules

CAKE_FILE = (
    Path(__file__).resolve().parents[3] / "sims" / "games" / "pieceocake" / "data" / "cake.toml"
)


def _arm(players=3, strategies=("greedy",), engine="auto", games=6, seed=3, **options) -> Arm:
    specs = tuple(strategies) * (players if len(strategies) == 1 else 1)
    options = {"cake": None, "rules": {}, **options}
    return Arm(name="a", game="pieceocake", players=players, strategies=specs, games=games,
               seed=seed, engine=engine, options=options)  # fmt: skip


def test_registered_and_described():
    game = get_game("pieceocake")
    assert game is GAME and isinstance(game, Game)
    info = game.info
    assert (info.name, info.title, info.min_players, info.max_players) == (
        "pieceocake", "Piece o' Cake", 2, 5)  # fmt: skip
    assert info.rules_doc == "docs/rules/pieceocake.md"
    assert {(o.key, o.kind, o.flag) for o in game.options} == {
        ("cake", "path", "--cake"), ("rules", "table", "--rule")}  # fmt: skip
    schema = game.results
    assert schema.components == ("majorities", "cream")
    assert schema.win_keys == ("score", "tiebreak")
    assert schema.game_columns == ("rounds", "decisions", "majorities_unclaimed")
    assert [i.name for i in game.strategies()][:3] == ["random", "greedy", "heuristic"]


def test_variants_are_one_per_arm_block():
    [variant] = GAME.variants({"rules": {"forgo_eats": "choose"}}, 3, None)
    assert variant.options == {"cake": None, "rules": {"forgo_eats": "choose"}}
    assert variant.label == ""
    assert GAME.variants({}, 2, None)[0].options == {"cake": None, "rules": {}}


# ------------------------------------------------------------------ check_arm
# id, arm changes, the error (None: accepted)
CHECKS = [
    ("defaults", {}, None),
    ("every family", {"strategies": ("random", "greedy", "heuristic(theta=2)")}, None),
    ("a preset", {"strategies": ("heuristic-eq3",)}, None),
    ("unknown strategy", {"strategies": ("clever",)},
     "unknown Piece o' Cake strategy 'clever'; known: greedy, heuristic, random"),
    ("a strategy parameter out of bounds", {"strategies": ("heuristic(loss=-1)",)},
     "strategy 'heuristic': loss must be a number from 0 to 100, got -1"),
    ("missing cake", {"cake": "/nonexistent/cake.toml"},
     "cake /nonexistent/cake.toml: no such file"),
    ("unknown rule", {"rules": {"cheese": True}}, "unknown Piece o' Cake rule option 'cheese'"),
    ("wrong-typed rule", {"rules": {"forgo_ends_picking": 1}},
     "Piece o' Cake rule option forgo_ends_picking must be true or false, got 1"),
    ("bad rule choice", {"rules": {"forgo_eats": "some"}},
     "Piece o' Cake rule option forgo_eats='some': use one of 'all', 'choose', 'none'"),
    ("first server not at the table", {"rules": {"first_server": 3}},
     "rule option first_server=3 is not a seat of 3 players; use 0 to 2"),
    ("kernel with a Python strategy", {"engine": "kernel",
                                       "strategies": ("tests.example_strategies:FirstLegal",)},
     "engine 'kernel': Piece o' Cake's compiled kernel"),
]  # fmt: skip


@pytest.mark.parametrize("changes,error", [c[1:] for c in CHECKS], ids=[c[0] for c in CHECKS])
def test_check_arm(changes, error):
    changes = dict(changes)
    arm = _arm(
        strategies=changes.pop("strategies", ("greedy",)), engine=changes.pop("engine", "auto"),
        **{"cake": changes.pop("cake", None), "rules": changes.pop("rules", {})},
    )  # fmt: skip
    if error is None:
        GAME.check_arm(arm)
        return
    with pytest.raises(SlicelabError) as exc:
        GAME.check_arm(arm)
    assert error in str(exc.value)


def test_malformed_cake_is_refused(tmp_path):
    bad = tmp_path / "cake.toml"
    bad.write_text('name = "x"\n[[variety]]\nname = "plum"\ncopies = 3\n')
    with pytest.raises(SlicelabError, match="missing the field 'cream'"):
        GAME.check_arm(_arm(cake=str(bad)))


# ---------------------------------------------------------------- fingerprint
def test_fingerprint_follows_the_cake_and_the_rules(tmp_path):
    base = GAME.fingerprint(_arm())
    assert base["tables_version"] == TABLES_VERSION
    assert base["cake"] == "Piece o' Cake (2008)"
    assert base["rules_version"] == "pieceocake-1" and isinstance(base["rules_version"], str)
    same = tmp_path / "same.toml"
    same.write_text(CAKE_FILE.read_text().replace("Piece o' Cake (2008)", "Renamed"))
    renamed = GAME.fingerprint(_arm(cake=str(same)))
    assert renamed["cake_digest"] == base["cake_digest"]  # the content, not the name
    assert renamed["variant_id"] == base["variant_id"]
    other = tmp_path / "other.toml"
    other.write_text(CAKE_FILE.read_text().replace("copies = 11\ncream = 3",
                                                   "copies = 11\ncream = 4"))  # fmt: skip
    changed = GAME.fingerprint(_arm(cake=str(other)))
    assert changed["cake_digest"] != base["cake_digest"]
    assert changed["variant_id"] != base["variant_id"]
    ruled = GAME.fingerprint(_arm(rules={"forgo_eats": "choose"}))
    assert ruled["cake_digest"] == base["cake_digest"]
    assert ruled["variant_id"] != base["variant_id"]
    assert GAME.fingerprint(_arm(rules={"forgo_eats": "all"}))["variant_id"] == base["variant_id"]


# ----------------------------------------------------------------- chunk play
SEAT_TYPES = {
    "score": np.int16, "majorities": np.int16, "majorities_won": np.int8, "cream": np.int16,
    "tiebreak": np.int16, "eaten": np.int8, "collected": np.int8, "pieces_taken": np.int8,
    "forgone": np.int8, "forgo_eaten": np.int8, "times_server": np.int8,
}  # fmt: skip


def test_play_chunk_reference_columns_and_types():
    arm = _arm(players=3, strategies=("greedy", "random", "heuristic"), rules={"first_server": 1})
    chunk = GAME.play_chunk(arm, 2, 4, decisions=True, engine="reference")
    assert list(chunk.seats) == list(GAME.results.seat_columns)
    for name, dtype in SEAT_TYPES.items():
        assert chunk.seats[name].dtype == dtype and chunk.seats[name].shape == (4, 3), name
    seats = chunk.seats
    np.testing.assert_array_equal(seats["score"], seats["majorities"] + seats["cream"])
    np.testing.assert_array_equal(seats["tiebreak"], 0)  # rule tie = "shared"
    np.testing.assert_array_equal(seats["times_server"], [[1, 2, 2]] * 4)  # servers 1,2,0,1,2
    assert list(chunk.games) == list(GAME.results.game_columns)
    np.testing.assert_array_equal(chunk.games["rounds"], 5)
    assert chunk.games["decisions"].dtype == np.int32
    assert chunk.games["majorities_unclaimed"].dtype == np.int8
    table = chunk.decisions
    assert table.column_names == list(DECISION_COLUMNS)
    assert table.num_rows == int(chunk.games["decisions"].sum())
    assert table.schema.field("phase").type == pa.dictionary(pa.int8(), pa.string())
    assert set(table.column("phase").to_pylist()) <= set(PHASE_NAMES)
    assert table.schema.field("game_index").type == pa.int64()
    assert sorted(set(table.column("game_index").to_pylist())) == [2, 3, 4, 5]
    # the same games as play_game, seat by seat
    strategies = seat_strategies(list(arm.strategies), 3)
    for g in range(4):
        state = play_game(3, strategies, 3, 2 + g, rules=Rules(first_server=1))
        assert [b.score for b in state.scores()] == seats["score"][g].tolist()
        assert len(state.trace) == chunk.games["decisions"][g]


# ------------------------------------------------------- per-variety seat columns
PLUM, CHOC = 0, 7


def _worked_example(majority_ties: str):
    """A finished 3-player game rewritten to the rules' worked example: A (seat 0) and B
    collected 3 Chocolate each, C 2; C ate 1 Chocolate and 2 Plums."""
    rules = Rules(majority_ties=majority_ties)
    state = play_game(3, seat_strategies(["greedy"], 3), 1, 0, rules=rules)
    nv = len(state.cake.varieties)
    for p in state.players:
        p.collected = [[] for _ in range(nv)]
        p.eaten = []
    state.players[0].collected[CHOC] = [46, 47, 48]
    state.players[1].collected[CHOC] = [49, 50, 51]
    state.players[2].collected[CHOC] = [52, 53]
    state.players[2].eaten = [54, 0, 1]
    state._result = state.provisional()
    return state


def _col(rows, name):
    return [row[SCORE_COLUMNS.index(name)] for row in rows]


@pytest.mark.parametrize(
    "ties, masks, scores, unclaimed",
    [("full", [1 << CHOC, 1 << CHOC, 0], [11, 11, 5], 7),
     ("split", [1 << CHOC, 1 << CHOC, 0], [5, 5, 5], 7),
     ("none", [0, 0, 0], [0, 0, 5], 8)],
)  # fmt: skip
def test_seat_columns_of_the_worked_example(ties, masks, scores, unclaimed):
    rows = score_rows(_worked_example(ties))
    assert _col(rows, "won_mask") == masks
    assert _col(rows, "majorities_won") == [bin(m).count("1") for m in masks]
    assert _col(rows, "score") == scores
    assert _col(rows, f"collected_v{CHOC}") == [3, 3, 2]
    assert _col(rows, f"eaten_v{CHOC}") == [0, 0, 1]
    assert _col(rows, f"eaten_v{PLUM}") == [0, 0, 2]
    assert _col(rows, "eaten") == [0, 0, 3] and _col(rows, "collected") == [3, 3, 2]
    # the other varieties (and the columns beyond the cake's eight) are 0
    for v in range(16):
        if v not in (PLUM, CHOC):
            assert _col(rows, f"collected_v{v}") == [0, 0, 0] == _col(rows, f"eaten_v{v}")
    won = np.array([_col(rows, "won_mask")])
    assert majorities_unclaimed(won, 8).tolist() == [unclaimed]
    table = np.array([rows])  # (1 game, 3 seats, columns)
    first = SCORE_COLUMNS.index("collected_v0")
    assert by_variety(table[:, :, first:], 8).to_pylist() == [
        [0, 0, 0, 0, 0, 0, 0, 3], [0, 0, 0, 0, 0, 0, 0, 3], [0, 0, 0, 0, 0, 0, 0, 2]]  # fmt: skip
    first = SCORE_COLUMNS.index("eaten_v0")
    assert by_variety(table[:, :, first:], 8).to_pylist() == [
        [0] * 8, [0] * 8, [2, 0, 0, 0, 0, 0, 0, 1]]  # fmt: skip


@pytest.mark.parametrize("ties", ["full", "split", "none"])
def test_per_variety_columns_add_up(ties):
    """Over reference chunks: the lists sum to ``collected``/``eaten``, ``won_mask`` is the
    seats scoring each variety (its popcount ``majorities_won``), ``majorities_unclaimed``
    the varieties nobody scores, and under ``full`` the won values plus the eaten cream
    are the score."""
    arm = _arm(players=4, strategies=("greedy", "random", "heuristic", "random"),
               rules={"majority_ties": ties}, seed=9)  # fmt: skip
    chunk = GAME.play_chunk(arm, 0, 12, decisions=False, engine="reference")
    seats, cake = chunk.seats, cake_of(arm.options)
    value = np.array([v.value for v in cake.varieties])
    cream = np.array([v.cream for v in cake.varieties])
    assert seats["won_mask"].dtype == np.int32 and seats["won_mask"].shape == (12, 4)
    for name in ("collected_by_variety", "eaten_by_variety"):
        assert seats[name].type == pa.list_(pa.int8()) and len(seats[name]) == 12 * 4
    coll = np.array(seats["collected_by_variety"].to_pylist()).reshape(12, 4, 8)
    eaten = np.array(seats["eaten_by_variety"].to_pylist()).reshape(12, 4, 8)
    np.testing.assert_array_equal(coll.sum(axis=2), seats["collected"])
    np.testing.assert_array_equal(eaten.sum(axis=2), seats["eaten"])
    np.testing.assert_array_equal((eaten * cream).sum(axis=2), seats["cream"])
    won = (seats["won_mask"][:, :, None] >> np.arange(8)) & 1
    np.testing.assert_array_equal(won.sum(axis=2), seats["majorities_won"])
    best = coll.max(axis=1, keepdims=True)
    leaders = (coll == best) & (best > 0)
    if ties == "none":
        leaders &= leaders.sum(axis=1, keepdims=True) == 1
    np.testing.assert_array_equal(won, leaders)
    unclaimed = 8 - leaders.any(axis=1).sum(axis=1)
    np.testing.assert_array_equal(chunk.games["majorities_unclaimed"], unclaimed)
    if ties == "full":
        total = (won * value).sum(axis=2) + (eaten * cream).sum(axis=2)
        np.testing.assert_array_equal(total, seats["score"])
    # the same as play_game's final state, seat by seat
    strategies = seat_strategies(list(arm.strategies), 4)
    for g in range(12):
        state = play_game(4, strategies, 9, g, rules=Rules(majority_ties=ties))
        assert coll[g].tolist() == [state.collected_counts(p) for p in range(4)]


def test_tiebreak_is_the_cream_under_the_cream_rule():
    chunk = GAME.play_chunk(_arm(rules={"tie": "cream"}), 0, 3, decisions=False,
                            engine="reference")  # fmt: skip
    np.testing.assert_array_equal(chunk.seats["tiebreak"], chunk.seats["cream"])
    assert chunk.decisions is None


def test_runner_tables_name_the_engine_and_the_variant():
    arm = one_arm({"name": "x", "game": "pieceocake", "players": 4, "strategies": "greedy",
                   "games": 3, "engine": "reference"}, seed=5)  # fmt: skip
    tables = play_tables(arm, 0, 3, decisions=True)
    games = tables["games"]
    assert games.column("engine").to_pylist() == ["reference"] * 3
    assert games.column("rules_version").to_pylist() == ["pieceocake-1"] * 3
    shares = tables["players"].column("win_share").to_numpy().reshape(3, 4)
    np.testing.assert_allclose(shares.sum(axis=1), 1.0)
    assert tables["decisions"].column_names == ["arm", *DECISION_COLUMNS, "game", "players"]


def test_engine_falls_back_to_the_reference_without_the_kernel(monkeypatch):
    monkeypatch.setitem(sys.modules, "sims.games.pieceocake.kernel", None)  # import fails
    arm = _arm()
    assert GAME.engine_for(arm) == "reference"
    assert not any(i.kernel for i in GAME.strategies())
    with pytest.raises(SlicelabError, match="not available"):
        GAME.check_arm(_arm(engine="kernel"))
    GAME.check_arm(arm)  # auto: fine
    assert GAME.play_chunk(arm, 0, 1, decisions=False).seats["score"].shape == (1, 3)


def test_engine_choice():
    assert GAME.engine_for(_arm(engine="reference")) == "reference"
    assert GAME.engine_for(_arm(strategies=("tests.example_strategies:FirstLegal",))) == (
        "reference"
    )


def test_state_api_and_decide():
    rng = np.random.default_rng(1)
    state = GAME.initial_state({"cake": None, "rules": {}}, 3, rng)
    strategy = GAME.make_strategy("heuristic")
    while not state.terminal:
        state.apply(GAME.decide(strategy, state, rng))
    rows = state.score_breakdown()
    assert all(r["score"] == r["majorities"] + r["cream"] for r in rows)
    assert cake_of({"cake": None}) is cake_of({})


# -------------------------------------------------------------- command line
def _invoke(args: list[str]):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.output


def test_replay_shows_every_round_and_the_final_scores():
    text = _invoke(["replay", "pieceocake", "--players", "3", "--seed", "2", "--strategies",
                    "greedy,heuristic,random"])  # fmt: skip
    for r in range(1, 6):
        assert f"== Round {r}/5 — server P{(r - 1) % 3}" in text
    assert "Circle: " in text and "takes piece " in text and "== Final scores" in text
    assert "Majorities (collected counts" in text and "Winner" in text
    state = play_game(3, seat_strategies("greedy,heuristic,random", 3), 2, 0)
    for i, b in enumerate(state.scores()):
        assert f"{b.majorities:>11}{b.cream:>7}{b.score:>7}" in text.split("== Final scores")[1]
        assert f"P{i} (" in text


def test_play_command_plays_pieceocake():
    text = _invoke(["play", "pieceocake", "--players", "2", "--games", "4", "--strategies",
                    "greedy,random", "--engine", "reference",
                    "--rule", "forgo_eats=choose"])  # fmt: skip
    assert "greedy" in text and "random" in text


def test_study_writes_parquet(tmp_path):
    cake = tmp_path / "cake.toml"
    cake.write_text(CAKE_FILE.read_text())
    study = tmp_path / "s.toml"
    study.write_text(
        'name = "poc"\nseed = 4\n\n[[arms]]\nname = "mix"\ngame = "pieceocake"\n'
        'players = [2, 3]\nstrategies = ["greedy", "random"]\ngames = 3\nengine = "reference"\n'
        'decisions = true\ncake = "cake.toml"\nrules = { forgo_eats = "choose" }\n'
    )
    out = tmp_path / "out"
    _invoke(["study", str(study), "--out", str(out)])
    assert (out / "manifest.json").is_file()

    def read(table: str) -> pa.Table:
        files = sorted((out / table).rglob("*.parquet"))
        assert files and all("/pieceocake/" in f.as_posix() for f in files)
        return pa.concat_tables([pq.read_table(f) for f in files])

    players = read("players")
    assert players.num_rows == 3 * 2 + 3 * 3
    assert set(GAME.results.seat_columns) <= set(players.column_names)
    games = read("games")
    assert games.num_rows == 6 and set(games.column("engine").to_pylist()) == {"reference"}
    decisions = read("decisions")
    assert decisions.num_rows == sum(games.column("decisions").to_pylist())
