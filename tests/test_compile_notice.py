"""The notice before a kernel compiles (issue 28): numba's cache read as numba reads it, the
line printed when it is cold and nothing when it is warm, and every command that plays
games going through :func:`sims.compiling.compile_first` before its first game. Nothing
here compiles a game's kernel: the cache check is monkeypatched, or the command stopped at
the notice."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import sims.cli
import sims.compiling as compiling
import sims.warm
from sims.batch import one_arm
from sims.cli import cli
from sims.compiling import about, compile_first, entry_points, is_cached, notice, to_compile


def _arm(game="pizzatheory", players=3, strategies="greedy", **more):
    block = {"name": "a", "game": game, "players": players, "strategies": strategies,
             "games": 4, **more}  # fmt: skip
    return one_arm(block, seed=1)


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200), out


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_is_cached_reads_numbas_on_disk_cache(tmp_path: Path):
    """A cached function: cold in an empty cache, cached once compiled (in this process,
    and for a fresh import that compiled nothing), cold again once its source changes."""
    src = tmp_path / "tiny_kernel.py"
    src.write_text("from numba import njit\n\n@njit(cache=True)\ndef f(x):\n    return x + 1\n")
    try:
        first = _load(src, "tiny_kernel_a")
        assert not is_cached(first.f)
        assert first.f(1) == 2  # compiles (a trivial function) and writes the cache
        assert is_cached(first.f)
        again = _load(src, "tiny_kernel_b")  # another dispatcher: nothing compiled in it
        assert not again.f.overloads and is_cached(again.f)
        src.write_text(src.read_text().replace("x + 1", "x + 1000"))  # new size, new stamp
        assert not is_cached(_load(src, "tiny_kernel_c").f)
    finally:
        for name in ("tiny_kernel_a", "tiny_kernel_b", "tiny_kernel_c"):
            sys.modules.pop(name, None)


def test_entry_points_are_found_through_the_game():
    (study,) = entry_points(_arm())
    assert study.py_func.__name__ == "play_games_kernel"
    assert "pizzatheory" in study.py_func.__module__
    assert entry_points(_arm(strategies="random", engine="reference")) == []
    (playouts,) = entry_points(_arm("pieceocake", strategies="search", engine="reference"))
    assert playouts.py_func.__name__ == "playouts_kernel"


def test_to_compile_takes_one_arm_per_families_and_records_of_cold_games(monkeypatch):
    monkeypatch.setattr(compiling, "is_cached", lambda d: "pizzatheory" in d.py_func.__module__)
    arms = [_arm("pieceocake"), _arm("pieceocake", 4), _arm("pieceocake", decisions=True),
            _arm("pizzatheory"), _arm("pieceocake", strategies="search"),
            _arm("horno", strategies="search")]  # fmt: skip
    got = to_compile(arms)
    assert list(got) == ["pieceocake"]
    assert [(a.players, a.decisions, a.strategies[0]) for a in got["pieceocake"]] == [
        (3, False, "greedy"), (3, True, "greedy"), (3, False, "search")]  # fmt: skip
    monkeypatch.setattr(compiling, "is_cached", lambda d: True)
    assert to_compile(arms) == {}


def test_estimates_are_words_not_digits():
    assert about(20) == "under a minute"
    assert about(52) == "about a minute"
    assert about(82) == about(101) == "about a minute and a half"
    assert about(255) == "about 4 minutes"
    line = notice(["pizzatheory"])
    assert line == ("compiling the Pizza Theory kernel (first run only, about a minute and a "
                    "half on a 2-core machine; `slicelab warm STUDY` compiles ahead)")  # fmt: skip
    two = notice(["nyslice", "pieceocake"], jobs=2, hint=None)
    assert two == ("compiling the New York Slice and Piece o' Cake kernels (first run only, "
                   "about 4 minutes on a 2-core machine)")  # fmt: skip
    assert "about 5 minutes" in notice(["nyslice", "pieceocake"], jobs=1)  # one after the other


def test_compile_first_prints_the_notice_and_compiles_when_cold(monkeypatch):
    played = []
    monkeypatch.setattr(sims.warm, "warm_plan", lambda todo, jobs=1: played.append((todo, jobs)))
    monkeypatch.setattr(compiling, "is_cached", lambda d: False)
    console, out = _console()
    arm = _arm()
    assert compile_first([arm], console, jobs=2, hint="slicelab warm s.toml") == {
        "pizzatheory": [arm]}  # fmt: skip
    assert played == [({"pizzatheory": [arm]}, 2)]
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "compiling the Pizza Theory kernel (first run only, about a minute and a half on a "
        "2-core machine; `slicelab warm s.toml` compiles ahead)"
    )
    assert lines[-1].startswith("compiled in ") and lines[-1].endswith(" s")


def test_compile_first_says_nothing_when_warm(monkeypatch):
    played = []
    monkeypatch.setattr(sims.warm, "warm_plan", lambda todo, jobs=1: played.append(todo))
    monkeypatch.setattr(compiling, "is_cached", lambda d: True)
    console, out = _console()
    assert compile_first([_arm(), _arm("horno")], console) == {}
    assert out.getvalue() == "" and played in ([], [{}])
    # an arm on the reference engine that calls no kernel: nothing either
    monkeypatch.setattr(compiling, "is_cached", lambda d: False)
    assert compile_first([_arm(strategies="random", engine="reference")], console) == {}
    assert out.getvalue() == ""


class _Stop(Exception):
    """Raised by the fake compile_first: the command stops before its first game."""


@pytest.fixture
def calls(monkeypatch):
    """Record every compile_first call of the command line, then stop the command."""
    return _record(monkeypatch)


def _record(monkeypatch) -> list:
    got = []

    def fake(arms, console, jobs=1, hint=compiling.HINT):
        got.append(([(a.game, a.players, a.strategies, a.engine) for a in arms], jobs, hint))
        raise _Stop

    monkeypatch.setattr(sims.cli, "compile_first", fake)
    return got


def _invoke(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize(
    ("args", "arms"),
    [
        (["play", "pizzatheory", "-p", "3", "--games", "10"],
         [("pizzatheory", 3, ("greedy",) * 3, "auto")]),
        (["demo", "pieceocake", "--games", "10"], [("pieceocake", 2, ("greedy",) * 2, "auto")]),
        (["replay", "pieceocake", "-p", "3", "--strategies", "search"],
         [("pieceocake", 3, ("search",) * 3, "reference")]),
        (["tune", "horno", "-p", "3", "--family", "heuristic"],
         [("horno", 3, ("heuristic", "greedy", "greedy"), "auto")]),
        (["exploit", "horno", "-p", "2", "--family", "heuristic", "--also", "random"],
         [("horno", 2, ("heuristic", "greedy"), "auto"),
          ("horno", 2, ("random", "greedy"), "auto")]),
        (["equilibrium", "horno", "-p", "2", "--family", "heuristic"],
         [("horno", 2, ("heuristic", "heuristic"), "auto")]),
    ],
)  # fmt: skip
def test_commands_route_through_compile_first(calls, args, arms):
    r = _invoke(*args)
    assert isinstance(r.exception, _Stop), r.output
    assert [c[0] for c in calls] == [arms]


def test_study_compiles_first_the_arms_left_to_play(calls, tmp_path: Path):
    study = tmp_path / "s.toml"
    study.write_text('name = "s"\nseed = 1\n[[arms]]\nname = "x"\ngame = "pizzatheory"\n'
                     'players = 3\nstrategies = ["greedy"]\ngames = 4\n')  # fmt: skip
    r = _invoke("study", str(study), "--out", str(tmp_path / "out"), "--jobs", "1")
    assert isinstance(r.exception, _Stop), r.output
    assert "arm x: pizzatheory" in r.output  # what it plays is said first
    assert calls == [([("pizzatheory", 3, ("greedy",) * 3, "auto")], 1,
                      f"slicelab warm {study}")]  # fmt: skip


def test_finished_dataset_compiles_nothing(tmp_path: Path):
    """A study played to the end (on the reference engine: no kernel) has no arm left."""
    from sims.compiling import unfinished_arms
    from sims.core.study import load_study

    study = tmp_path / "s.toml"
    study.write_text('name = "s"\nseed = 1\n[[arms]]\nname = "x"\ngame = "pizzatheory"\n'
                     'players = 3\nstrategies = ["random"]\ngames = 2\n'
                     'engine = "reference"\n')  # fmt: skip
    s = load_study(study)
    assert [a.name for a in unfinished_arms(s, tmp_path / "out")] == ["x"]  # nothing yet
    r = _invoke("study", str(study), "--out", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    assert unfinished_arms(s, tmp_path / "out") == []


def test_warm_command_says_what_it_compiles(monkeypatch, tmp_path: Path):
    study = tmp_path / "s.toml"
    study.write_text('name = "s"\nseed = 1\n[[arms]]\nname = "x"\ngame = "pizzatheory"\n'
                     'players = 3\nstrategies = ["greedy"]\ngames = 4\n')  # fmt: skip
    done = [sims.warm.Warmed("pizzatheory", ("x",), 80.0, 79.0)]
    monkeypatch.setattr(sims.warm, "warm", lambda studies, jobs=1: done)
    monkeypatch.setattr(compiling, "is_cached", lambda d: False)
    r = _invoke("warm", str(study))
    assert r.exit_code == 0, r.output
    assert ("compiling the Pizza Theory kernel (first run only, about a minute and a half on a "
            "2-core machine)\n") in r.output  # fmt: skip
    assert "compiled in 0 s" in r.output and "pizzatheory: kernel ready" in r.output
    monkeypatch.setattr(compiling, "is_cached", lambda d: True)
    r = _invoke("warm", str(study))
    assert r.exit_code == 0 and "compiling" not in r.output and "kernel ready" in r.output


def test_repair_compiles_first_the_arms_of_the_chunks_it_replays(monkeypatch, tmp_path: Path):
    """A damaged chunk is re-played after the kernels its arm calls are compiled (with the
    notice): a dataset of two arms, one chunk damaged, compiles the one arm."""
    study = tmp_path / "s.toml"
    study.write_text('name = "s"\nseed = 1\n[[arms]]\nname = "x"\ngame = "pizzatheory"\n'
                     'players = 3\nstrategies = ["random"]\ngames = 2\nengine = "reference"\n'
                     '[[arms]]\nname = "y"\ngame = "pizzatheory"\nplayers = 3\n'
                     'strategies = ["greedy"]\ngames = 2\nengine = "reference"\n')  # fmt: skip
    out = tmp_path / "out"
    assert _invoke("study", str(study), "--out", str(out)).exit_code == 0
    next(out.glob("players/pizzatheory/3p/y/*.parquet")).write_bytes(b"not parquet")
    got = _record(monkeypatch)  # from here on: the repair's calls
    r = _invoke("repair", str(out))
    assert isinstance(r.exception, _Stop), r.output
    assert [c[0] for c in got] == [[("pizzatheory", 3, ("greedy",) * 3, "reference")]]


def test_a_run_on_a_dask_cluster_says_its_workers_may_compile(calls, monkeypatch, tmp_path):
    """A cluster's workers have their own caches: when this machine's lacks the kernel, the
    run says the workers may compile it on their first chunk, and compiles nothing here
    (``calls``: compile_first is never called)."""
    import sims.batch

    class Client:
        def close(self):
            pass

    def stop(*args, **kw):
        raise _Stop

    monkeypatch.setattr(sims.batch, "_connect", lambda scheduler: Client())
    monkeypatch.setattr(sims.batch, "_run_locked", stop)
    monkeypatch.setattr(compiling, "is_cached", lambda d: False)
    study = tmp_path / "s.toml"
    study.write_text('name = "s"\nseed = 1\n[[arms]]\nname = "x"\ngame = "pizzatheory"\n'
                     'players = 3\nstrategies = ["greedy"]\ngames = 4\n')  # fmt: skip
    args = ["study", str(study), "--out", str(tmp_path / "out"), "--backend", "dask",
            "--scheduler", "tcp://127.0.0.1:1"]  # fmt: skip
    r = _invoke(*args)
    assert isinstance(r.exception, _Stop), r.output
    assert calls == []
    text = " ".join(r.output.split())
    assert ("the Dask workers compile the Pizza Theory kernel on their first chunk unless "
            "their cache holds it (first run only, about a minute and a half on a 2-core "
            f"machine; `slicelab warm {study}` on each worker's machine compiles ahead)"
            ) in text  # fmt: skip
    monkeypatch.setattr(compiling, "is_cached", lambda d: True)
    r = _invoke(*args)
    assert isinstance(r.exception, _Stop) and "workers compile" not in r.output


def test_the_report_says_when_its_replays_compile(monkeypatch):
    """New York Slice's report replays games on its kernel (functions the study kernel
    does not compile for Python callers): the report says they compile first when the cache
    lacks them, and nothing when it holds them or for a game whose report replays none."""
    from sims.compiling import analysis_notice

    monkeypatch.setattr(compiling, "is_cached", lambda d: False)
    assert analysis_notice("nyslice") == (
        "the report replays games on the New York Slice kernel: its replay functions compile "
        "first (first run only, it can take a few minutes)"
    )
    assert analysis_notice("pizzatheory") is None
    monkeypatch.setattr(compiling, "is_cached", lambda d: True)
    assert analysis_notice("nyslice") is None
