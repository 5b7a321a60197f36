"""What is shown is what is played: the parameters every seat plays with at its player
count (``sims.core.specs.resolved_params``: defaults and presets resolved, plain
``heuristic`` at N players playing ``heuristic-eqN``) are what ``slicelab strategies GAME
--players N`` lists, what a dataset's ``strategy_params`` records for every seat, and what
each game's strategy identity keys (issue 28, item 4)."""

from __future__ import annotations

import json

import polars as pl
import pytest
from click.testing import CliRunner

from analysis.load import manifest, scan
from sims.batch import run_study
from sims.cli import cli, strategy_rows
from sims.core.game import REGISTRY, get_game
from sims.core.specs import resolved_params
from sims.core.study import parse_study
from sims.output import number

GAMES = list(REGISTRY)

SEATS = {
    "nyslice": (4, ["heuristic", "heuristic(avoid=dibs)", "heuristic-eq2(theta=2)", "greedy"]),
    "pieceocake": (3, ["heuristic", "heuristic-eq2(theta=1.5)", "greedy"]),
    "pizzatheory": (2, ["mixed", "heuristic(leader=1)"]),
    "horno": (3, ["heuristic", "heuristic(avoid=1)", "greedy"]),
}
"""Per game, a player count and one spec per seat: plain families whose defaults depend on
the count, a preset with an override, restricted play (no search: its playouts compile a
kernel)."""


def _floats(params: dict) -> dict:
    """Numbers as floats (an identity key writes ``budget=64`` as 64.0)."""
    return {k: float(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
            for k, v in params.items()}  # fmt: skip


def _tunable(game: str) -> list[str]:
    return [s.name for s in get_game(game).strategies() if s.ranges]


@pytest.mark.parametrize("game", GAMES)
def test_resolved_params_are_what_the_identity_keys(game):
    """Every catalogue entry, at every player count, resolves to the parameters its
    game's ``strategy_identity`` keys (one truth for the study hash and the dataset)."""
    the_game = get_game(game)
    info = the_game.info
    specs = [s.name for s in the_game.strategies()] + SEATS[game][1]
    for n in range(info.min_players, info.max_players + 1):
        for spec in specs:
            resolved = resolved_params(the_game.make_strategy(spec), n)
            assert _floats(resolved) == json.loads(the_game.strategy_identity(spec, n))[1], (
                spec,
                n,
            )


@pytest.mark.parametrize("game", GAMES)
def test_tunable_families_resolve_to_their_strategy_defaults(game):
    the_game = get_game(game)
    info = the_game.info
    for family in _tunable(game):
        for n in range(info.min_players, info.max_players + 1):
            resolved = resolved_params(the_game.make_strategy(family), n)
            assert _floats(resolved) == _floats(the_game.strategy_defaults(family, n))


def row_cells(output: str, name: str) -> list[str]:
    """The cells of the table row whose first cell is ``name``, each with its wrapped
    lines joined by spaces."""
    rows = [[c.strip() for c in line.strip("│").split("│")]
            for line in output.splitlines() if line.startswith("│")]  # fmt: skip
    start = next(i for i, cells in enumerate(rows) if cells[0] == name)
    block = [rows[start]]
    for cells in rows[start + 1 :]:
        if cells[0]:  # the next row
            break
        block.append(cells)
    return [" ".join(cells[i] for cells in block).strip() for i in range(len(block[0]))]


def _listing(monkeypatch, *args: str):
    """``slicelab strategies ...`` on a 120-column console without colours."""
    from rich.console import Console

    import sims.cli

    monkeypatch.setattr(sims.cli, "console", Console(width=120, color_system=None))
    r = CliRunner().invoke(cli, ["strategies", *args])
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.mark.parametrize("game", GAMES)
def test_strategies_players_lists_what_each_family_plays(game, monkeypatch):
    """``strategies GAME --players N`` shows, for every tunable family at every count,
    the values ``strategy_defaults`` returns, in the table and as JSON."""
    the_game = get_game(game)
    info = the_game.info
    for n in range(info.min_players, info.max_players + 1):
        out = _listing(monkeypatch, game, "--players", str(n))
        assert f"parameters at {n} players" in out
        for family in _tunable(game):
            shown = set(row_cells(out, family)[1].replace(",", " ").split())
            expected = the_game.strategy_defaults(family, n)
            assert shown == {f"{k}={number(float(v))}" for k, v in expected.items()}, family
        rows = {row["strategy"]: row for row in json.loads(
            _listing(monkeypatch, game, "-p", str(n), "--format", "json"))}  # fmt: skip
        for family in _tunable(game):
            assert _floats(rows[family]["params"]) == _floats(the_game.strategy_defaults(family, n))
            assert rows[family]["players"] == n


def test_strategies_without_players_names_what_depends_on_the_count(monkeypatch):
    """New York Slice's plain heuristic plays heuristic-eqN at N players: without
    --players the listing says so instead of showing numbers it does not play."""
    out = _listing(monkeypatch, "nyslice")
    row = row_cells(out, "heuristic")[1]
    assert "depends on the player count" in row and "heuristic-eqN" in row
    assert "theta=" not in row  # no numbers it would not play
    assert "--players N" in out
    rows = {row["strategy"]: row for row in strategy_rows(get_game("nyslice"))}
    assert rows["heuristic"]["params"] is None and rows["heuristic"]["depends_on_players"]
    assert rows["heuristic"]["default_preset"] == "heuristic-eqN"
    assert rows["search"]["params"] == {"budget": 64, "cuts": 6, "width": 3}
    assert not rows["heuristic-eq4"]["depends_on_players"]
    # a family the same at every count shows its values (Horno's presets equal defaults)
    horno = {row["strategy"]: row for row in strategy_rows(get_game("horno"))}
    assert horno["heuristic"]["params"] == resolved_params(
        get_game("horno").make_strategy("heuristic"), 2
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["strategies", "nyslice", "--players", "7"], "2 to 6 players, not 7"),
        (["strategies", "pizzatheory", "-p", "1"], "2 to 3 players, not 1"),
        (["strategies", "horno", "-p", "4", "--format", "xml"], "Invalid value for '--format'"),
    ],
)
def test_strategies_refuses_a_player_count_out_of_range(args, message):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2 and message in r.output
    assert "Traceback" not in r.output


def _study(chunk_size: int) -> dict:
    arms = [
        {"name": game, "game": game, "players": n, "strategies": specs, "games": 20,
         "engine": "reference"}
        for game, (n, specs) in SEATS.items()
    ]  # fmt: skip
    return {"name": "resolved", "seed": 3, "chunk_size": chunk_size, "arms": arms}


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("resolved") / "run"
    run_study(parse_study(_study(10)), out, jobs=1)
    return out


def test_dataset_records_every_seats_resolved_params(dataset):
    for game, (n, specs) in SEATS.items():
        the_game = get_game(game)
        rows = scan(dataset, "players", arms=[game]).collect()  # (each game its own columns)
        assert rows.height == 20 * n
        by_seat = rows.group_by("seat").agg(pl.col("strategy_params").unique()).sort("seat")
        for seat, recorded in zip(by_seat["seat"], by_seat["strategy_params"], strict=True):
            assert len(recorded) == 1  # one parameter set per seat in every game
            expected = resolved_params(the_game.make_strategy(specs[seat]), n)
            assert recorded[0] == json.dumps(expected, sort_keys=True)
            assert json.loads(recorded[0]) == expected
        # plain families record what they play at this count, not the spec's empty {}
        for seat, spec in enumerate(specs):
            if spec in _tunable(game):
                got = json.loads(by_seat["strategy_params"][seat][0])
                assert _floats(got) == _floats(the_game.strategy_defaults(spec, n))
                assert got != {}


def test_nyslice_plain_heuristic_records_heuristic_eq4(dataset):
    """The example of the issue: plain heuristic at 4 players plays heuristic-eq4."""
    rows = scan(dataset, "players", arms=["nyslice"]).collect()
    got = json.loads(rows.filter(pl.col("strategy") == "heuristic")["strategy_params"][0])
    assert got["theta"] == 1.437 and got["sharp"] == 2.849
    restricted = rows.filter(pl.col("strategy") == "heuristic(avoid=dibs)")
    assert json.loads(restricted["strategy_params"][0])["avoid"] == "dibs"


def test_resolved_params_files_are_the_same_bytes_whatever_the_workers(dataset, tmp_path):
    other = tmp_path / "two-workers"
    run_study(parse_study(_study(10)), other, jobs=2)

    def digests(out):
        return {f["path"]: f["sha256"] for c in manifest(out)["chunks"]
                for t, f in c["files"].items() if t == "players"}  # fmt: skip

    assert digests(dataset) == digests(other)
