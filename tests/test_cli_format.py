"""The listing commands' output (issue 28, item 3): tables that fit 80 columns for every
game without cutting a cell short ('…'), and ``--format csv|json`` writing the raw rows
alone on stdout (progress and notes on stderr) for ``play``, ``demo``, ``games``,
``strategies``, ``tune`` and ``exploit``."""

from __future__ import annotations

import io
import json

import pandas as pd
import polars as pl
import pytest
from click.testing import CliRunner
from rich.console import Console

import analysis.cli
import sims.cli
import sims.core.game as core_game
from analysis.cli import SUMMARY_FIELDS, print_summary
from sims.cli import arm_dict, cli, play_in_memory
from sims.core.game import REGISTRY, get_game
from sims.output import Column, number, print_table

GAMES = list(REGISTRY)
WIDTHS = (80, 120)

LONG = {
    "nyslice": "heuristic-eq4(theta=1.25,sharp=2.5,deny=0.125)",
    "pieceocake": "heuristic-eq2(theta=1.5,loss=0.5,fewer=0.25)",
    "pizzatheory": "heuristic(leader=1,risk=0.25,aggression=0.5)",
    "horno": "heuristic(avoid=1,steal=0.75,harm=0.25)",
}
"""A long spec per game (a preset or family with overrides), in seat 0 of the batches."""


def _specs(game: str, players: int) -> str:
    return ",".join([LONG[game], "greedy", *["random"] * (players - 2)])


def assert_fits(text: str, width: int) -> None:
    """Every line within ``width`` and no cell cut short."""
    assert "…" not in text, text
    too_wide = [line for line in text.splitlines() if len(line) > width]
    assert not too_wide, "\n".join(too_wide)


def recorded(width: int) -> Console:
    return Console(width=width, record=True, file=io.StringIO(), color_system=None)


@pytest.fixture(scope="module")
def batches() -> dict[str, pl.DataFrame]:
    """Twenty games of every game at its largest table (the most seats and rows) on the
    reference engine (no kernel to compile), seat 0 playing a long spec."""
    out = {}
    for game in GAMES:
        n = get_game(game).info.max_players
        arm = arm_dict(game, n, _specs(game, n), 20, 0, {}, engine="reference")
        out[game] = play_in_memory(arm, 0, f"{n} players")
    return out


def _worst(game: str) -> pl.DataFrame:
    """Rows of every player count with the widest values a summary can show: 100% wins,
    20,000 games a seat, four-digit negative means, a long spec."""
    g = get_game(game)
    rows = []
    for n in range(g.info.min_players, g.info.max_players + 1):
        for seat in range(n):
            for _ in range(2):
                comps = {c: -1234.567 for c in g.results.components}
                rows.append({"players": n, "seat": seat, "win_share": 1.0 if seat else 0.0,
                             "strategy": LONG[game] if seat == 0 else "greedy",
                             **comps, "score": -1234.567 * len(comps)})  # fmt: skip
    frame = pl.DataFrame(rows)
    return pl.concat([frame] * 10_000)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_summary_fits_the_width_for_every_game(game, width, batches):
    rows = batches[game]
    to = recorded(width)
    print_summary(rows, game, f"{get_game(game).info.title} — 20 games, seed 0", to=to)
    text = to.export_text()
    assert_fits(text, width)
    # the key columns are all there, whole: every seat's win share and interval
    from analysis.summary import seat_summary

    components = [*get_game(game).results.components, "score"]
    summary = seat_summary(rows, components)
    for r in summary.iter_rows(named=True):
        assert f"{r['win_low']:.1%}–{r['win_high']:.1%}" in text
        assert f"{r['win_share']:.1%}" in text
    for c in components:  # every score component is shown (split tables if need be)
        assert c in text


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_summary_fits_the_width_at_its_widest(game, width):
    to = recorded(width)
    title = f"{get_game(game).info.title} — 20,000 games per player count, all seats greedy, seed 1"
    print_summary(_worst(game), game, title, to=to)
    text = to.export_text()
    assert_fits(text, width)
    assert "100.0%" in text and "20,000" in text and "-1234.57" in text


def test_long_columns_split_into_tables_repeating_the_keys():
    columns = [Column("players"), Column("seat")] + [
        Column(f"component_{i:02d}") for i in range(12)
    ]
    rows = [{"players": 4, "seat": s, **{f"component_{i:02d}": 1.5 for i in range(12)}}
            for s in range(4)]  # fmt: skip
    to = recorded(80)
    print_table(to, columns, rows, "means", keys=2)
    text = to.export_text()
    assert_fits(text, 80)
    assert text.count("players") >= 2 and "means (continued)" in text
    assert all(f"component_{i:02d}" in text for i in range(12))


def test_number_is_exact_and_short():
    assert number(1.0) == "1" and number(0.25) == "0.25" and number(1.437) == "1.437"
    assert float(number(1.43712345)) == 1.43712345


def _on(monkeypatch, width: int) -> None:
    """The command line's stdout console at ``width`` columns (as a terminal would be)."""
    console = Console(width=width, color_system=None)
    monkeypatch.setattr(sims.cli, "console", console)
    monkeypatch.setattr(analysis.cli, "console", console)


def test_play_table_fits_80_columns(monkeypatch):
    _on(monkeypatch, 80)
    r = CliRunner().invoke(cli, ["play", "horno", "-p", "4", "--games", "20", "--engine",
                                 "reference", "--strategies", _specs("horno", 4)])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert_fits(r.stdout, 80)
    assert "95% CI" in r.stdout and "radioactive_penalty" in r.stdout


@pytest.fixture(scope="module")
def play_csv():
    args = ["play", "pieceocake", "-p", "3", "--games", "20", "--engine", "reference",
            "--strategies", "heuristic,greedy,random"]  # fmt: skip
    csv = CliRunner().invoke(cli, [*args, "--format", "csv"])
    js = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert csv.exit_code == 0 and js.exit_code == 0, csv.output + js.output
    return csv, js


def test_play_csv_is_one_raw_row_per_seat(play_csv):
    r, _ = play_csv
    frame = pd.read_csv(io.StringIO(r.stdout))
    components = ["score", *get_game("pieceocake").results.components]
    assert list(frame.columns) == [*SUMMARY_FIELDS, *components]
    assert list(frame["seat"]) == [0, 1, 2] and set(frame["players"]) == {3}
    assert list(frame["strategy"]) == ["heuristic", "greedy", "random"]
    assert (frame["games"] == 20).all()
    assert abs(frame["win_share"].sum() - 1) < 1e-9  # fractions, not percentages
    assert (
        (frame["win_low"] <= frame["win_share"]) & (frame["win_share"] <= frame["win_high"])
    ).all()
    assert "engine reference" in r.stderr  # progress and notes: stderr only
    assert "━" not in r.stdout and "\x1b" not in r.stdout


def test_play_json_holds_the_same_rows(play_csv):
    csv, js = play_csv
    rows = json.loads(js.stdout)
    frame = pd.read_csv(io.StringIO(csv.stdout))
    assert [row["seat"] for row in rows] == [0, 1, 2]
    assert pd.DataFrame(rows)[list(frame.columns)].equals(frame)


@pytest.fixture
def toy(monkeypatch):
    """High Card (``tests/toy_game.py``) registered: a game that plays in no time."""
    monkeypatch.setitem(core_game.REGISTRY, "toy", "toy_game:GAME")
    core_game.get_game.cache_clear()
    yield core_game.get_game("toy")
    core_game.get_game.cache_clear()


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_demo_writes_one_row_per_player_count_and_seat(toy, fmt):
    r = CliRunner().invoke(cli, ["demo", "toy", "--games", "30", "--format", fmt])
    assert r.exit_code == 0, r.output
    frame = pd.read_csv(io.StringIO(r.stdout)) if fmt == "csv" else pd.DataFrame(
        json.loads(r.stdout))  # fmt: skip
    assert list(zip(frame["players"], frame["seat"], strict=True)) == [
        (n, s) for n in (2, 3, 4) for s in range(n)
    ]
    assert frame.groupby("players")["win_share"].sum().round(9).eq(1).all()
    assert "Win share counts a shared win" in r.stderr and "Win share" not in r.stdout


def test_demo_table_fits_80_columns(toy, monkeypatch):
    _on(monkeypatch, 80)
    r = CliRunner().invoke(cli, ["demo", "toy", "--games", "30"])
    assert r.exit_code == 0, r.output
    assert_fits(r.stdout, 80)
    assert "Win share counts a shared win" in r.stdout


@pytest.mark.parametrize("width", WIDTHS)
def test_games_and_strategies_tables_fit(width, monkeypatch):
    _on(monkeypatch, width)
    listing = CliRunner().invoke(cli, ["games"])
    assert listing.exit_code == 0, listing.output
    assert_fits(listing.stdout, width)
    for game in GAMES:
        assert game in listing.stdout and get_game(game).info.rules_doc in listing.stdout
        for args in (["strategies", game], ["strategies", game, "-p", "2"]):
            r = CliRunner().invoke(cli, args)
            assert r.exit_code == 0, r.output
            assert_fits(r.stdout, width)
            for s in get_game(game).strategies():
                assert f"│ {s.name} " in r.stdout  # the names, whole


def test_games_csv_and_json():
    r = CliRunner().invoke(cli, ["games", "--format", "csv"])
    assert r.exit_code == 0, r.output
    frame = pd.read_csv(io.StringIO(r.stdout))
    assert list(frame["game"]) == GAMES
    assert list(frame.columns) == ["game", "title", "min_players", "max_players", "summary",
                                   "rules_doc"]  # fmt: skip
    rows = json.loads(CliRunner().invoke(cli, ["games", "--format", "json"]).stdout)
    assert [(g["min_players"], g["max_players"]) for g in rows] == [
        (get_game(g).info.min_players, get_game(g).info.max_players) for g in GAMES
    ]


def test_strategies_csv_params_are_json_cells():
    r = CliRunner().invoke(cli, ["strategies", "nyslice", "-p", "4", "--format", "csv"])
    assert r.exit_code == 0, r.output
    frame = pd.read_csv(io.StringIO(r.stdout)).set_index("strategy")
    params = json.loads(frame.loc["heuristic", "params"])
    assert params == get_game("nyslice").strategy_defaults("heuristic", 4)
    assert "A spec is" not in r.stdout  # the hint is for the table only


def test_tune_and_exploit_csv(monkeypatch):
    """Their rows as csv/json, the tuning itself stubbed out (it compiles a kernel)."""
    import sims.exploit
    import sims.tune
    from sims.exploit import Deviation, Exploit
    from sims.tune import Candidate, TuneResult

    best = Candidate({"theta": 1.5, "loss": 0.75}, "heuristic(loss=0.75,theta=1.5)")
    tuned = TuneResult("pieceocake", "heuristic", 3, "greedy", best, 2000, 99, 0.41, 0.39,
                       0.43, [])  # fmt: skip
    monkeypatch.setattr(sims.cli, "compile_tuning", lambda *a, **k: None)
    monkeypatch.setattr(sims.tune, "tune", lambda *a, **k: tuned)
    r = CliRunner().invoke(cli, ["tune", "pieceocake", "-p", "3", "--format", "csv"])
    assert r.exit_code == 0, r.output
    row = pd.read_csv(io.StringIO(r.stdout)).iloc[0]
    assert row["spec"] == best.spec and row["win_share"] == 0.41 and row["validation_seed"] == 99
    assert json.loads(row["params"]) == best.params

    dev = [Deviation(best.spec, 2000, 0.41, 7.7, 5.0, 10.3),
           Deviation("search(budget=16)", 2000, 0.45, 11.7, 9.0, 14.3)]  # fmt: skip
    final = Deviation("search(budget=16)", 2000, 0.44, 10.7, 8.0, 13.3)
    res = Exploit("pieceocake", 3, "greedy", "heuristic", final, dev, tuned, 1234)
    monkeypatch.setattr(sims.exploit, "exploitability", lambda *a, **k: res)
    args = ["exploit", "pieceocake", "-p", "3", "--also", "search(budget=16)"]
    r = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    assert [(x["stage"], x["spec"], x["chosen"]) for x in rows] == [
        ("finalist", best.spec, False),
        ("finalist", "search(budget=16)", True),
        ("final", "search(budget=16)", True),
    ]
    assert rows[-1]["seed"] == 1234 and rows[-1]["gain_pp"] == 10.7
    assert "exploitability of greedy" in r.stderr
    _on(monkeypatch, 80)
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    assert_fits(r.stdout, 80)
    assert "exploitability of greedy" in r.stdout and "finalist" in r.stdout
