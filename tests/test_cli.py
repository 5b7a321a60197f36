"""The slicelab command: listings, replay, batches, and clear errors instead of tracebacks."""

import pytest
from click.testing import CliRunner

from sims.cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_games_and_strategies_listings():
    r = run("games")
    assert r.exit_code == 0 and "nyslice" in r.output and "New York Slice" in r.output
    r = run("strategies", "nyslice")
    assert r.exit_code == 0 and "greedy" in r.output and "random" in r.output


def test_replay_shows_rounds_cut_choices_and_guest_check():
    r = run(
        "replay",
        "nyslice",
        "--players",
        "4",
        "--seed",
        "7",
        "--index",
        "0",
        "--strategies",
        "greedy,random,greedy,random",
    )
    assert r.exit_code == 0, r.output
    out = r.output
    assert out.count("== Round") == 6
    for needle in (
        "Today's Special:",
        "Pizza:",
        "cuts the ring into",
        "takes portion",
        "== Guest check",
        "majorities",
        "pepperoni",
        "anchovies",
        "WIN",
    ):
        assert needle in out
    assert "collects" in out or "eats" in out
    # Same command, same game.
    assert (
        run(
            "replay",
            "nyslice",
            "--players",
            "4",
            "--seed",
            "7",
            "--index",
            "0",
            "--strategies",
            "greedy,random,greedy,random",
        ).output
        == out
    )


def test_play_prints_a_summary():
    r = run(
        "play", "nyslice", "--players", "3", "--games", "20", "--strategies", "greedy,random,random"
    )
    assert r.exit_code == 0, r.output
    assert "win" in r.output and "greedy" in r.output and "95% CI" in r.output


BAD = [
    (("replay", "nyslice", "--players", "7"), "2 to 6 players, not 7"),
    (("replay", "nyslice", "--players", "1"), "2 to 6 players, not 1"),
    (
        ("replay", "nyslice", "--players", "4", "--strategies", "clever"),
        "unknown New York Slice strategy 'clever'",
    ),
    (
        ("replay", "nyslice", "--players", "4", "--strategies", "greedy,random"),
        "'strategies' has 2 specs for 4 players",
    ),
    (("replay", "nyslice", "--players", "4", "--deck", "missing.toml"), "no such file"),
    (
        ("replay", "nyslice", "--players", "4", "--rule", "cheese=1"),
        "unknown New York Slice rule option 'cheese'",
    ),
    (("replay", "nyslice", "--players", "4", "--rule", "veggies_edible_later"), "write NAME=VALUE"),
    (("replay", "nyslice", "--players", "4", "--rule", "veggies_edible_later=3"), "true or false"),
    (("replay", "chess", "--players", "4"), "unknown game 'chess'"),
    (("play", "nyslice", "--players", "4", "--strategies", "greedy(x=1)"), "has no parameter"),
]


@pytest.mark.parametrize("args,message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_gives_a_message_not_a_traceback(args, message):
    r = run(*args)
    assert r.exit_code == 2
    assert message in r.output
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_bad_deck_file_is_named(tmp_path):
    bad = tmp_path / "deck.toml"
    bad.write_text('specials = []\nslices = [{ kind = "calzone", pepperoni = 1, anchovies = 0 }]\n')
    r = run("replay", "nyslice", "--players", "3", "--deck", str(bad))
    assert r.exit_code == 2 and "unknown kind 'calzone'" in r.output


def test_rule_option_changes_the_game():
    base = run("replay", "nyslice", "--players", "3", "--seed", "1", "--strategies", "random")
    other = run(
        "replay",
        "nyslice",
        "--players",
        "3",
        "--seed",
        "1",
        "--strategies",
        "random",
        "--rule",
        "first_slicer=1",
    )
    assert base.exit_code == other.exit_code == 0
    assert "Round 1/6 — slicer P1" in other.output and "Round 1/6 — slicer P0" in base.output
