"""A game added by its own module and one registry line, touching nothing else.

``tests/toy_game.py`` (High Card) is written only against ``sims.core.game``. Registered
for the test, it passes the registry-wide conformance checks, runs as a study into a real
Parquet dataset, plays, replays and refuses options it lacks on the command line, and gets
the generic PDF report (it declares no ``analysis/toy/``).
"""

from __future__ import annotations

import polars as pl
import pytest
import test_game_conformance as conformance
from click.testing import CliRunner
from test_report import assert_numbered_with_contents, pages_text

import sims.core.game as core_game
from analysis.report import check_dataset, compute, summary, write_report
from sims.batch import run_study
from sims.cli import cli
from sims.core.study import parse_study


@pytest.fixture
def toy(monkeypatch):
    """High Card in the registry (one line), for this test only."""
    monkeypatch.setitem(core_game.REGISTRY, "toy", "toy_game:GAME")
    core_game.get_game.cache_clear()
    yield core_game.get_game("toy")
    core_game.get_game.cache_clear()


def test_the_toy_game_keeps_the_protocols_promises(toy):
    for players in (2, 3, 4):
        conformance.test_games_end_and_score_is_the_sum_of_its_breakdown("toy", players)
        conformance.test_strategies_decide_legal_actions_to_the_end("toy", players)
        conformance.test_same_seed_same_game("toy", players)
        conformance.test_clone_replays_and_is_independent("toy", players)
        conformance.test_runner_tables_follow_the_declared_schema("toy", players)


def test_the_toy_game_runs_a_study_and_gets_the_generic_report(toy, tmp_path):
    arms = [
        {"name": "seats", "game": "toy", "players": [2, 3], "strategies": "greedy",
         "games": 120},
        {"name": "ladder", "game": "toy", "players": 2, "strategies": ["greedy", "random"],
         "rotate": True, "games": 100, "rules": {"hand": 4}},
    ]  # fmt: skip
    study = parse_study({"name": "toy", "seed": 3, "chunk_size": 50, "arms": arms})
    assert [a.name for a in study.arms] == ["seats.p2", "seats.p3", "ladder.r0", "ladder.r1"]
    out = tmp_path / "toy"
    summary_ = run_study(study, out)
    assert summary_.games_played == 440 and summary_.engines["seats.p2"] == "reference"
    players = pl.read_parquet(out / "players" / "**" / "*.parquet", hive_partitioning=True)
    assert players.height == 120 * 2 + 120 * 3 + 200 * 2
    assert (players["score"] == players["tricks"] + players["bonus"]).all()
    shares = players.group_by("arm", "game_index").agg(pl.col("win_share").sum())
    assert (shares["win_share"] - 1).abs().max() < 1e-12
    check_dataset(out)
    r = compute(out)
    assert set(r.ratings["strategy"]) == {"greedy", "random"}
    greedy = r.ratings.filter(pl.col("strategy") == "greedy")["rating"].item()
    assert greedy > r.ratings.filter(pl.col("strategy") == "random")["rating"].item()
    assert "1 Seats" in summary(r)["question"].to_list()
    pdf = write_report(out, tmp_path / "toy.pdf", results=r)
    pages = pages_text(pdf)
    entries = assert_numbered_with_contents(pages, ["Seats", "Player count", "Ratings",
                                                    "Sample size"])  # fmt: skip
    # no verdicts: page 1 is every headline number, under the game's title
    assert pages[0].startswith("High Card") and "every headline number" in pages[0]
    assert "1 Is the first player favoured?" in entries and "Glossary" in entries


def test_the_toy_game_on_the_command_line(toy):
    run = CliRunner().invoke
    listing = run(cli, ["games"])
    assert listing.exit_code == 0 and "High Card" in listing.output
    played = run(cli, ["play", "toy", "-p", "3", "--games", "30", "--rule", "hand=2"])
    assert played.exit_code == 0, played.output
    assert "High Card — 30 games" in played.output and "tricks" in played.output
    replay = run(cli, ["replay", "toy", "-p", "2", "--seed", "4"])
    assert replay.exit_code == 0 and replay.output.startswith("High Card, 2 players")
    refused = run(cli, ["play", "toy", "-p", "2", "--deck", "x.toml"])
    assert refused.exit_code == 2
    assert "--deck is not an option of High Card; its options: --rule" in refused.output
    too_many = run(cli, ["play", "toy", "-p", "5"])
    assert too_many.exit_code == 2 and "High Card is played by 2 to 4 players" in too_many.output
    bad_rule = run(cli, ["play", "toy", "-p", "2", "--rule", "hand=9"])
    assert bad_rule.exit_code == 2 and "hand = 1..5" in bad_rule.output
