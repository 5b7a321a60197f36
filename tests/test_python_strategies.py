"""Strategies written in Python (``package.module:Name``, issue 28): a file saved beside the
user's study file or in the working directory loads without ``PYTHONPATH``, in this process
and in joblib's worker processes; every game plays one on its reference engine; and when
the module cannot be found the one-line refusal says where it looked and names the fix.

Each test writes its strategy under a module name of its own: a module once imported stays
in ``sys.modules``, so a name shared between tests would hide a broken lookup."""

from __future__ import annotations

import sys
import traceback
import uuid
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from analysis.load import scan
from sims.cli import cli
from sims.core.errors import StrategySpecError
from sims.core.specs import code_search, import_code, load_code_strategy, parse_spec

GAMES = ("nyslice", "pieceocake", "pizzatheory", "horno")
STRATEGY = '''
class First:
    """Always the first legal action; keeps no spec (slicelab gives it one)."""

    def __init__(self, spec):
        self.made_with = spec

    def choose(self, view, decision, rng):
        return decision.legal[0]
'''


def fresh(stem: str = "strats") -> str:
    """A module name no other test has imported."""
    return f"{stem}_{uuid.uuid4().hex[:10]}"


def write_module(folder: Path, name: str, text: str = STRATEGY) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.py").write_text(text, encoding="utf-8")


def write_study(
    path: Path, game: str, specs: list[str], games: int = 3, chunk: int = 10_000
) -> Path:
    """A one-arm study that allows code itself (``allow_code = true``)."""
    listed = ", ".join(f'"{s}"' for s in specs)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'name = "mine"\nseed = 3\nchunk_size = {chunk}\nallow_code = true\n\n'
        f'[[arms]]\nname = "a"\ngame = "{game}"\nplayers = {len(specs)}\n'
        f"strategies = [{listed}]\ngames = {games}\n",
        encoding="utf-8",
    )
    return path


def invoke(*args: str) -> str:
    """``slicelab ARGS`` in this process; its output, after asserting exit status 0."""
    result = CliRunner().invoke(cli, list(args))
    tb = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else ""
    assert result.exit_code == 0, result.output + tb
    return result.output


def refused(*args: str) -> str:
    """``slicelab ARGS``, refused in one ``error:`` line with exit status 2; that line."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


def players_of(out: Path) -> pl.DataFrame:
    return scan(out, "players").collect()


def games_of(out: Path) -> pl.DataFrame:
    return scan(out, "games").collect()


def each_game(fn):
    """Parametrize over every game."""
    return pytest.mark.parametrize("game", GAMES)(fn)


@each_game
def test_play_loads_a_strategy_from_the_working_directory(game, tmp_path, monkeypatch):
    name = fresh()
    write_module(tmp_path, name)
    monkeypatch.chdir(tmp_path)
    out = invoke(
        "play", game, "--players", "2", "--games", "3", "--strategies", f"{name}:First,random",
        "--allow-code",
    )  # fmt: skip
    assert "2 players: engine reference" in out and "3 games" in out
    assert str(tmp_path) not in sys.path  # on the import path for the lookup only


@each_game
def test_a_study_loads_a_strategy_saved_beside_it(game, tmp_path, monkeypatch):
    name = fresh()
    project = tmp_path / "project"
    write_module(project, name)
    study = write_study(project / "study.toml", game, [f"{name}:First", "random"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # neither the working directory nor PYTHONPATH holds it
    invoke("study", str(study), "--out", "d")
    players = players_of(elsewhere / "d")
    assert players.height == 6
    assert set(players["strategy"]) == {f"{name}:First", "random"}
    assert games_of(elsewhere / "d")["engine"].unique().to_list() == ["reference"]
    assert str(project) not in sys.path


def test_joblib_workers_load_it_from_the_study_folder(tmp_path, monkeypatch):
    """Two worker processes, which never read the study file, play its chunks: the arm
    carries the folders the study was read with."""
    name = fresh()
    project = tmp_path / "project"
    write_module(project, name)
    study = write_study(project / "study.toml", "nyslice", [f"{name}:First", "greedy"],
                        games=8, chunk=2)  # fmt: skip
    monkeypatch.chdir(tmp_path)
    invoke("study", str(study), "--out", "d", "--jobs", "2")
    players = players_of(tmp_path / "d")
    assert players.height == 16
    assert sorted(players["game_index"].unique().to_list()) == list(range(8))
    # the same games as in this process
    invoke("study", str(study), "--out", "d1", "--jobs", "1")
    key = ["game_index", "seat"]
    assert (
        players.sort(key)
        .select(key + ["score"])
        .equals(players_of(tmp_path / "d1").sort(key).select(key + ["score"]))
    )


def test_joblib_workers_load_it_from_the_working_directory(tmp_path, monkeypatch):
    name = fresh()
    write_module(tmp_path, name)
    monkeypatch.chdir(tmp_path)
    invoke(
        "simulate", "horno", "--players", "2", "--games", "6", "--chunk-size", "2",
        "--strategies", f"{name}:First,greedy", "--allow-code", "--jobs", "2", "--out", "d",
    )  # fmt: skip
    assert players_of(tmp_path / "d").height == 12


def test_a_missing_module_is_refused_naming_where_it_looked_and_pythonpath(tmp_path, monkeypatch):
    name = fresh("missing")
    project = tmp_path / "project"
    study = write_study(project / "study.toml", "nyslice", [f"{name}:First", "greedy"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    line = refused("study", str(study), "--check")
    assert f"no module named {name!r}" in line
    assert "on the Python path" in line
    assert str(project) in line and str(elsewhere) in line  # the study's folder, the cwd
    assert "PYTHONPATH" in line and f"{name}.py" in line
    line = refused("play", "horno", "-p", "2", "--strategies", f"{name}:First", "--allow-code")
    assert str(elsewhere) in line and "PYTHONPATH" in line


def test_other_failures_of_a_python_strategy_are_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cases = {
        "nothing": ("", "has no 'First'"),
        "syntax": ("def (:\n", "raised SyntaxError"),
        "needs": ("import not_installed_anywhere_xyz\n", "not_installed_anywhere_xyz"),
        "raises": ("class First:\n    def __init__(self, spec):\n        raise ValueError('no')\n",
                   "raised ValueError: no"),
        "chooseless": ("class First:\n    def __init__(self, spec):\n        pass\n",
                       "choose()"),
    }  # fmt: skip
    for stem, (text, says) in cases.items():
        name = fresh(stem)
        write_module(tmp_path, name, text)
        line = refused("play", "nyslice", "-p", "2", "--strategies", f"{name}:First",
                       "--allow-code")  # fmt: skip
        assert says in line, (stem, line)


def test_the_lookup_order_is_the_python_path_then_the_study_folder_then_the_cwd(
    tmp_path, monkeypatch
):
    name = fresh()
    study_dir, cwd, on_path = tmp_path / "study", tmp_path / "cwd", tmp_path / "path"
    for folder in (study_dir, cwd, on_path):
        write_module(folder, name, f"WHERE = {folder.name!r}\n")
    monkeypatch.chdir(cwd)
    with code_search((str(study_dir), str(cwd))):
        monkeypatch.syspath_prepend(str(on_path))
        assert import_code(f"{name}:WHERE") == "path"
    other = fresh()
    for folder in (study_dir, cwd):
        write_module(folder, other, f"WHERE = {folder.name!r}\n")
    with code_search((str(study_dir), str(cwd))):
        assert import_code(f"{other}:WHERE") == "study"
    assert str(study_dir) not in sys.path and str(cwd) not in sys.path


def test_a_strategy_without_a_spec_is_given_its_own(tmp_path, monkeypatch):
    name = fresh()
    write_module(tmp_path, name)
    spec = parse_spec(f"{name}:First(x=1)")
    with code_search((str(tmp_path),)):
        strategy = load_code_strategy(spec)
    assert strategy.spec == spec and strategy.made_with == spec
    with pytest.raises(StrategySpecError, match="PYTHONPATH"):
        load_code_strategy(parse_spec(f"{fresh('gone')}:First"))
