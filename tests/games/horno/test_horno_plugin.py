"""Horno through the game protocol: registered and described, its options (a card-set file
next to the study, rule options), the arm checks (the kernel refused: there is none), the
fingerprint's card-set digest, chunk rows equal to the reference games row for row, and the
command line end to end (``play``, ``study`` writing Parquet, ``replay`` marking hidden
cards)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from sims.batch import one_arm, play_tables
from sims.cli import cli
from sims.core.errors import SlicelabError
from sims.core.game import REGISTRY, Game, get_game
from sims.core.study import Arm
from sims.games.horno.cards import MAX_TYPES
from sims.games.horno.game import play_game, seat_strategies
from sims.games.horno.plugin import GAME, PHASE_NAMES, TABLE_SEAT_COLUMNS, cards_of
from sims.games.horno.records import (
    COMPLETED_BY_TYPE,
    DECISION_COLUMNS,
    GAME_COLUMNS,
    SEAT_COLUMNS,
    game_row,
    seat_rows,
)

CARDS_FILE = (
    Path(__file__).resolve().parents[3] / "sims" / "games" / "horno" / "data" / "cards-v1.toml"
)


def _invoke(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.output


def _arm(players=3, strategies=("random",), engine="auto", games=4, **options) -> Arm:
    specs = tuple(strategies) * (players if len(strategies) == 1 else 1)
    options = {"cards": None, "rules": {}, **options}
    return Arm(name="a", game="horno", players=players, strategies=specs, games=games,
               seed=3, engine=engine, options=options)  # fmt: skip


def test_registered_and_described():
    assert REGISTRY["horno"] == "sims.games.horno.plugin:GAME"
    game = get_game("horno")
    assert game is GAME and isinstance(game, Game)
    info = game.info
    assert (info.title, info.min_players, info.max_players) == ("Horno", 2, 4)
    assert info.rules_doc == "docs/rules/horno.md"
    assert {(o.key, o.kind, o.flag) for o in game.options} == {
        ("cards", "path", "--cards"), ("rules", "table", "--rule")}  # fmt: skip
    schema = game.results
    assert schema.win_keys == ("score", "tiebreak")
    assert schema.components == ("dish_base", "garbage_penalty", "radioactive_bonus",
                                 "radioactive_penalty", "unfinished_points")  # fmt: skip
    families = [i.name for i in game.strategies() if not i.preset_of]
    assert families == ["random", "greedy", "heuristic", "search"]
    presets = [i for i in game.strategies() if i.preset_of]
    assert {i.name for i in presets} >= {"heuristic-eq2", "heuristic-eq3", "heuristic-eq4"}
    assert all(i.preset_of == "heuristic" and not i.ranges for i in presets)
    assert {i.name for i in game.strategies() if not i.kernel} == {"search"}
    assert [i.name for i in game.strategies() if i.ranges] == ["heuristic"]
    assert len(SEAT_COLUMNS) == len(TABLE_SEAT_COLUMNS) - 1 + MAX_TYPES


def test_variants_take_a_card_set_next_to_the_study(tmp_path):
    [v] = GAME.variants({}, 3, None)
    assert v.options == {"cards": None, "rules": {}} and v.label == ""
    (tmp_path / "mine.toml").write_text(CARDS_FILE.read_text("utf-8"), "utf-8")
    study = tmp_path / "s.toml"
    study.write_text('name = "h"\nseed = 1\n[[arms]]\nname = "a"\ngame = "horno"\nplayers = 2\n'
                     'strategies = "random"\ngames = 1\ncards = "mine.toml"\n'
                     'rules = { tie = "dishes" }\n')  # fmt: skip
    from sims.core.study import load_study

    [arm] = load_study(study).arms
    assert arm.options == {"cards": str(tmp_path / "mine.toml"), "rules": {"tie": "dishes"}}
    assert cards_of(arm.options).digest == cards_of({}).digest


BAD = [
    ({"cards": "/nonexistent/c.toml"}, "no such file"),
    ({"rules": {"tie": "coin"}}, "tie='coin'"),
    ({"rules": {"first_player": 2}}, "first_player=2 is not a seat of 2 players"),
    ({"rules": {"cheese": 1}}, "unknown Horno rule option 'cheese'"),
]


@pytest.mark.parametrize("raw, message", BAD)
def test_bad_variants_are_refused(raw, message):
    with pytest.raises(SlicelabError, match=message.replace("(", r"\(")):
        GAME.variants(raw, 2, None)


def test_check_arm_refuses_the_kernel_for_search_and_unknown_strategies():
    GAME.check_arm(_arm())
    GAME.check_arm(_arm(engine="kernel"))
    GAME.check_arm(_arm(engine="reference", strategies=("greedy", "random", "greedy")))
    search = _arm(strategies=("heuristic", "search(budget=2)", "heuristic(steal=2)"))
    GAME.check_arm(search)
    with pytest.raises(SlicelabError, match="kernel plays only random, greedy and heuristic"):
        GAME.check_arm(replace(search, engine="kernel"))
    with pytest.raises(SlicelabError, match="unknown Horno strategy 'chess'"):
        GAME.check_arm(_arm(strategies=("chess",)))
    assert GAME.engine_for(_arm()) == "kernel"
    assert GAME.engine_for(_arm(engine="reference")) == "reference"
    assert GAME.engine_for(search) == "reference"
    with pytest.raises(SlicelabError, match="play this arm on the reference engine"):
        GAME.play_chunk(search, 0, 1, False, engine="kernel")


def test_tuning_other_families_is_refused_naming_why():
    for family in ("greedy", "search"):
        for call, args in ((GAME.strategy_defaults, (family, 3)),
                           (GAME.check_preset, (family, "x")),
                           (GAME.save_preset, (family, "x", {}, ""))):  # fmt: skip
            with pytest.raises(SlicelabError, match="Horno's tunable family is 'heuristic'"):
                call(*args)


def test_fingerprint_follows_the_card_set_and_the_rules(tmp_path):
    edited = tmp_path / "c.toml"
    edited.write_text(CARDS_FILE.read_text("utf-8").replace("copies = 4\n", "copies = 3\n", 1),
                      "utf-8")  # fmt: skip
    a = GAME.fingerprint(_arm())
    b = GAME.fingerprint(_arm(cards=str(edited)))
    c = GAME.fingerprint(_arm(rules={"reshuffle": "never"}))
    assert a["cards"] == "assumed-v1" and a["rules_version"] == "horno-1"
    assert a["cards_digest"] == cards_of({}).digest != b["cards_digest"]
    assert len({a["variant_id"], b["variant_id"], c["variant_id"]}) == 3
    assert GAME.fingerprint(_arm())["variant_id"] == a["variant_id"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_chunk_rows_are_the_reference_games(players):
    specs = ",".join((["greedy", "random"] * 2)[:players])
    arm = one_arm({"name": "c", "game": "horno", "players": players,
                   "strategies": specs.split(","), "games": 4}, seed=8)  # fmt: skip
    tables = play_tables(arm, 0, 4, decisions=True)
    p, g = tables["players"], tables["games"]
    assert set(TABLE_SEAT_COLUMNS) <= set(p.column_names)
    components = GAME.results.components
    plain = [c for c in SEAT_COLUMNS if c not in COMPLETED_BY_TYPE]
    total_decisions = 0
    for i in range(4):
        records: list[list[int]] = []
        state = play_game(players, seat_strategies(specs, players), arm.seed, i, records=records)
        rows = seat_rows(state)
        for s in range(players):
            r = i * players + s
            got = [p.column(c)[r].as_py() for c in plain]
            assert got == rows[s][: len(plain)]
            assert p.column("completed_by_type")[r].as_py() == rows[s][len(plain) :][:5]
            assert p.column("score")[r].as_py() == sum(p.column(c)[r].as_py() for c in components)
            assert p.column("win_share")[r].as_py() == pytest.approx(state.win_shares()[s])
        assert [g.column(c)[i].as_py() for c in GAME_COLUMNS] == game_row(state)
        assert g.column("decisions")[i].as_py() == len(state.trace) == len(records)
        decisions = tables["decisions"]
        mine = [j for j in range(decisions.num_rows)
                if decisions.column("game_index")[j].as_py() == i]  # fmt: skip
        assert len(mine) == len(records)
        for j, rec in zip(mine, records, strict=True):
            got = [decisions.column(c)[j].as_py() for c in DECISION_COLUMNS]
            phase = DECISION_COLUMNS.index("phase")
            assert got[:phase] + got[phase + 1 :] == rec[:phase] + rec[phase + 1 :]
            assert got[phase] == PHASE_NAMES[rec[phase]]
        total_decisions += len(records)
    assert tables["decisions"].num_rows == total_decisions
    assert p.column("completed_by_type").type == pa.list_(pa.int8())


def test_play_strategies_and_games_commands():
    text = _invoke(["play", "horno", "--players", "4", "--games", "6", "--strategies",
                    "greedy,random,random,random"])  # fmt: skip
    assert "greedy" in text and "random" in text
    assert "horno" in _invoke(["games"])
    listed = _invoke(["strategies", "horno"])
    assert "greedy" in listed and "random" in listed


def test_study_writes_parquet_with_another_card_set(tmp_path):
    (tmp_path / "c.toml").write_text(CARDS_FILE.read_text("utf-8"), "utf-8")
    study = tmp_path / "s.toml"
    study.write_text(
        'name = "h"\nseed = 4\n\n[[arms]]\nname = "mix"\ngame = "horno"\n'
        'players = [2, 4]\nstrategies = ["greedy", "random"]\ngames = 3\ndecisions = true\n'
        'cards = "c.toml"\nrules = { radioactive_bonus = "each" }\n'
    )
    out = tmp_path / "out"
    _invoke(["study", str(study), "--out", str(out)])

    def read(table: str) -> pa.Table:
        files = sorted((out / table).rglob("*.parquet"))
        assert files and all("/horno/" in f.as_posix() for f in files)
        return pa.concat_tables([pq.read_table(f) for f in files])

    assert read("players").num_rows == 3 * 2 + 3 * 4
    games = read("games")
    assert games.num_rows == 6 and set(games.column("engine").to_pylist()) == {"kernel"}
    assert read("decisions").num_rows == sum(games.column("decisions").to_pylist())


def test_replay_marks_hidden_cards_and_ends_with_the_breakdown():
    text = _invoke(["replay", "horno", "--players", "3", "--seed", "1", "--index", "0",
                    "--strategies", "greedy,random,random"])  # fmt: skip
    state = play_game(3, seat_strategies("greedy,random,random", 3), 1, 0)
    assert "[hidden]" in text and "is dealt 3 cards [hidden]" in text
    for r in range(1, 7):
        assert f"Round {r}" in text
    assert text.count("'s turn") == 18
    assert "Final scores" in text
    for s, b in enumerate(state.score_breakdown()):
        assert f"seat {s}: {b['score']} = base {b['dish_base']}" in text
    # every card drawn from the face-up deck is named; no discarded card is
    drawn = [e for e in state.log if e.what == "draw"]
    assert text.count("  draws ") == len(drawn)
    assert text.count("  discards [hidden]") == sum(1 for e in state.log if e.what == "discard")
    sabotages = sum(1 for e in state.log if e.what == "sabotage")
    assert text.count("puts a face-down card [hidden]") == sabotages


def test_replay_reveals_only_what_a_spectator_sees():
    """No hand's content appears before the end: the replay's lines for the setup name no
    card."""
    text = GAME.replay({}, 2, ["random", "random"], 5, 2)
    setup = text.split("Round 1")[0]
    names = [k.name for k in cards_of({}).kinds]
    body = setup.split("Setup", 1)[1]
    top_line = [line for line in body.splitlines() if "turned face up" in line]
    assert len(top_line) == 1
    for line in body.splitlines():
        if line not in top_line and "takes" not in line:
            assert not any(name in line for name in names), line


def test_states_from_the_protocol_are_the_engines():
    state = GAME.initial_state({}, 3, np.random.default_rng(1))
    assert state.decision().phase.name == "REDRAW" and state.current_player == 0
