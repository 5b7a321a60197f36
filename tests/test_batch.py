"""The batch runner: Parquet datasets, reproducibility, resume, refusal of mixed output."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from analysis.load import manifest, scan
from sims.batch import chunk_path, plan, run_study
from sims.core.errors import SlicelabError
from sims.core.study import StudyError, load_study, parse_study

ROOT = Path(__file__).resolve().parents[1]
SLICELAB = [sys.executable, "-m", "sims.cli"]


def study_data(**over):
    data = {
        "name": "t",
        "seed": 5,
        "chunk_size": 7,
        "decisions": True,
        "arms": [
            {
                "name": "mix4",
                "game": "nyslice",
                "players": 4,
                "strategies": ["greedy", "random", "random", "greedy"],
                "games": 40,
            },
            {
                "name": "ref3",
                "game": "nyslice",
                "players": 3,
                "strategies": "random",
                "games": 9,
                "engine": "reference",
            },
        ],
    }
    data.update(over)
    return data


def frames(out):
    """Every table, sorted so row order (chunking, workers) does not matter."""
    keys = {
        "games": ["arm", "game_index"],
        "players": ["arm", "game_index", "seat"],
        "decisions": None,
    }
    res = {}
    for table, key in keys.items():
        if not (Path(out) / table).is_dir():
            continue
        df = scan(out, table).collect()
        if key is None:
            df = df.with_row_index("i").sort(["arm", "game_index", "i"]).drop("i")
            res[table] = df
        else:
            res[table] = df.sort(key)
    return res


def assert_same(a, b, drop=()):
    for table in a:
        x, y = a[table].drop(drop, strict=False), b[table].drop(drop, strict=False)
        assert x.columns == y.columns
        assert x.equals(y), f"table {table} differs"


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    out = tmp_path_factory.mktemp("base") / "run"
    summary = run_study(parse_study(study_data()), out, jobs=1)
    assert summary.games_played == 49 and summary.engines == {"mix4": "kernel", "ref3": "reference"}
    return out


def test_dataset_layout_and_manifest(baseline):
    parts = sorted(p.relative_to(baseline).as_posix() for p in baseline.rglob("*.parquet"))
    assert "players/nyslice/4p/mix4/part-000000000035.parquet" in parts
    assert len(parts) == 3 * (6 + 2)  # three tables, 6 + 2 chunks
    m = manifest(baseline)
    assert m["complete"] and all(c["files"] is not None for c in m["chunks"])
    first = m["chunks"][0]["files"]["games"]
    assert first["path"] == "games/nyslice/4p/mix4/part-000000000000.parquet"
    assert first["rows"] == 7 and first["bytes"] == (baseline / first["path"]).stat().st_size
    assert len(first["sha256"]) == 64
    assert sum(c["rows"]["games"] for c in m["chunks"]) == 49
    assert sum(c["rows"]["players"] for c in m["chunks"]) == 40 * 4 + 9 * 3
    assert m["engines"] == {"mix4": "kernel", "ref3": "reference"}
    assert m["fingerprints"]["mix4"]["rules_version"] == "nyslice-1"
    assert m["seeds"] == {"mix4": 5, "ref3": 5} and m["study_hash"] and m["code_version"]
    assert (baseline / "study.toml").read_text() == m["study_text"]
    players = scan(baseline, "players").collect()
    assert set(players["players"]) == {3, 4} and set(players["game"]) == {"nyslice"}
    per_game = players.group_by(["arm", "game_index"]).agg(pl.col("win_share").sum())
    assert (per_game["win_share"] - 1).abs().max() < 1e-12
    assert (
        players["score"]
        == players["majorities"]
        + players["specials"]
        + players["diet"]
        + players["pepperoni"]
        + players["anchovies"]
    ).all()
    games = scan(baseline, "games").collect()
    assert games.filter(pl.col("arm") == "mix4")["rounds"].unique().to_list() == [6]
    decisions = scan(baseline, "decisions").collect()
    assert decisions.height == games["decisions"].sum()
    assert set(decisions["phase"].cast(pl.String)) >= {"cut", "choose", "eat"}


def test_same_data_whatever_jobs_and_chunk_size(baseline, tmp_path):
    other = tmp_path / "other"
    run_study(parse_study(study_data(chunk_size=10)), other, jobs=2)
    assert_same(frames(baseline), frames(other))


def test_kernel_and_reference_engines_write_the_same_rows(tmp_path):
    arms = [
        {
            "name": "a",
            "game": "nyslice",
            "players": 5,
            "strategies": ["greedy", "random"] * 2 + ["random"],
            "games": 12,
        }
    ]
    k, r = tmp_path / "k", tmp_path / "r"
    run_study(parse_study(study_data(arms=arms)), k)
    arms[0]["engine"] = "reference"
    run_study(parse_study(study_data(arms=arms)), r)
    assert_same(frames(k), frames(r), drop=("engine",))
    assert scan(r, "games").collect()["engine"].unique().to_list() == ["reference"]


def test_a_python_strategy_runs_on_the_reference_engine(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    arms = [
        {
            "name": "c",
            "game": "nyslice",
            "players": 2,
            "strategies": ["example_strategies:FirstLegal", "greedy"],
            "games": 5,
        }
    ]
    summary = run_study(parse_study(study_data(arms=arms), allow_code=True), tmp_path / "c")
    assert summary.engines == {"c": "reference"}
    players = scan(tmp_path / "c", "players").collect()
    assert set(players["strategy"]) == {"example_strategies:FirstLegal", "greedy"}


def test_rerun_skips_finished_chunks(baseline):
    summary = run_study(parse_study(study_data()), baseline, jobs=1)
    assert summary.games_played == 0 and summary.games_skipped == 49


def test_another_study_is_refused_not_mixed(baseline, tmp_path):
    before = sorted(baseline.rglob("*.parquet"))
    with pytest.raises(StudyError, match="holds the data of another study"):
        run_study(parse_study(study_data(seed=6)), baseline)
    with pytest.raises(StudyError, match="chunk_size 7"):
        run_study(parse_study(study_data(chunk_size=8)), baseline)
    assert sorted(baseline.rglob("*.parquet")) == before
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "notes.txt").write_text("mine")
    with pytest.raises(SlicelabError, match="not empty"):
        run_study(parse_study(study_data()), junk)


def test_half_written_files_are_never_data_and_unrecorded_chunks_are_redone(baseline, tmp_path):
    from sims import dataset

    out = tmp_path / "partial"
    study = parse_study(study_data())
    run_study(study, out)
    # Simulate a crash: a temporary file left behind, and a chunk whose files landed but
    # whose record did not (killed between the rename and the log line).
    chunks = plan(study)
    stray = chunk_path(out, "players", chunks[3].arm, chunks[3].first).with_name(
        ".part-x.parquet.1.tmp"
    )
    stray.write_bytes(b"PAR1 half")
    m = dataset.read_manifest(out)
    rec = dataset.Recorder(out, m)
    rec.forget(chunks[2].arm.name, chunks[2].first)
    rec.compact()
    assert "x.parquet" not in {p.name for p in out.rglob("*.parquet")}
    with pytest.raises(SlicelabError, match="interrupted run"):
        scan(out, "players")
    summary = run_study(study, out)
    assert summary.games_played == chunks[2].count
    assert not list(out.rglob("*.tmp"))
    assert dataset.read_manifest(out)["complete"]
    assert_same(frames(baseline), frames(out))


def _cli(*args, **kw):
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="120")
    return subprocess.run(
        [*SLICELAB, *args], cwd=ROOT, env=env, capture_output=True, text=True, **kw
    )


def test_killed_run_resumes_to_the_uninterrupted_result(tmp_path):
    args = [
        "simulate", "nyslice", "--players", "3", "--games", "600", "--strategies", "random",
        "--seed", "3", "--chunk-size", "20", "--engine", "reference",
    ]  # fmt: skip
    full, killed = tmp_path / "full", tmp_path / "killed"
    assert _cli(*args, "--out", str(full)).returncode == 0
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([*SLICELAB, *args, "--out", str(killed)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.time() + 120

    def finished_chunks() -> int:
        return len(list((killed / "games").rglob("*.parquet"))) if killed.exists() else 0

    while time.time() < deadline and proc.poll() is None and finished_chunks() < 3:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = len(list((killed / "games").rglob("*.parquet")))
    assert 3 <= done < 30, "the run should have been killed part-way"
    assert not json.loads((killed / "manifest.json").read_text())["complete"]
    again = _cli(*args, "--out", str(killed))
    assert again.returncode == 0, again.stderr
    assert "already done" in again.stdout
    assert_same(frames(full), frames(killed))


STUDY_OK = """
name = "ok"
seed = 2
[[arms]]
name = "a"
game = "nyslice"
players = 4
strategies = "greedy"
games = 10
"""

BAD_STUDIES = [
    ("seed = 1\n", "needs at least one [[arms]]"),
    (
        'seed = -1\n[[arms]]\nname="a"\ngame="nyslice"\nplayers=4\nstrategies="greedy"\ngames=1\n',
        "'seed' must be an integer",
    ),
    (
        STUDY_OK.replace("players = 4", "players = 7"),
        "arms[0] ('a'): 'players' must be an integer from 2 to 6, got 7",
    ),
    (
        STUDY_OK.replace('strategies = "greedy"', 'strategies = ["greedy", "random"]'),
        "'strategies' has 2 specs for 4 players",
    ),
    (STUDY_OK.replace('"greedy"', '"clever"'), "unknown New York Slice strategy 'clever'"),
    (STUDY_OK.replace('game = "nyslice"', 'game = "chess"'), "unknown game 'chess'"),
    (STUDY_OK.replace("games = 10", "games = 0"), "'games' must be an integer from 1"),
    (STUDY_OK.replace("games = 10", 'games = 10\ndeck = "nope.toml"'), "no such file"),
    (
        STUDY_OK.replace("games = 10", "games = 10\n[arms.rules]\ncheese = 1"),
        "unknown New York Slice rule option 'cheese'",
    ),
    (STUDY_OK.replace("games = 10", 'games = 10\nengine = "gpu"'), "'engine' must be one of"),
    (
        STUDY_OK.replace("games = 10", 'games = 10\nengine = "kernel"')
        .replace('"greedy"', '"example_strategies:FirstLegal"')
        .replace("seed = 2", "seed = 2\nallow_code = true"),
        None,
    ),
    (STUDY_OK.replace('"greedy"', '"example_strategies:FirstLegal"'), "--allow-code"),
    (STUDY_OK.replace("games = 10", "games = 10\ncolour = 1"), "unknown key(s) ['colour']"),
    (STUDY_OK + STUDY_OK.split("\n", 3)[3], "arm name 'a' is used twice"),
    ("seed = 1\n[[arms]\n", "not valid TOML"),
]


@pytest.mark.parametrize("text,message", BAD_STUDIES, ids=[str(i) for i in range(len(BAD_STUDIES))])
def test_bad_study_is_refused_before_any_game(tmp_path, monkeypatch, text, message):
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SlicelabError) as info:
        load_study(path)
    assert message is None or message in str(info.value)
    if message is None:
        assert "engine 'kernel' plays only" in str(info.value)


def test_bad_study_on_the_command_line_is_a_message(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(STUDY_OK.replace("players = 4", "players = 9"))
    res = _cli("study", str(path), "--out", str(tmp_path / "o"))
    assert res.returncode == 2 and "players" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("path", sorted((ROOT / "studies").glob("*.toml")), ids=lambda p: p.name)
def test_shipped_studies_are_valid(path):
    assert load_study(path).total_games > 0


def test_simulate_cli_writes_a_dataset(tmp_path):
    out = tmp_path / "cli"
    res = _cli(
        "simulate", "nyslice", "--players", "4", "--games", "30",
        "--strategies", "greedy,greedy,random,random", "--seed", "1", "--out", str(out),
        "--jobs", "2", "--chunk-size", "10",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "engine: compiled kernel" in res.stderr and "30 games played" in res.stdout
    assert scan(out, "players").collect().height == 120


def test_dask_cluster_on_loopback_gives_the_local_result(baseline, tmp_path):
    from dask import distributed

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, silence_logs=40,
    ) as cluster:  # fmt: skip
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        out = tmp_path / "dask"
        summary = run_study(
            parse_study(study_data(chunk_size=5)),
            out,
            backend="dask",
            scheduler=cluster.scheduler_address,
        )
        assert summary.games_played == 49
    assert_same(frames(baseline), frames(out))


def test_dask_backend_needs_a_scheduler(tmp_path):
    with pytest.raises(SlicelabError, match="needs --scheduler"):
        run_study(parse_study(study_data()), tmp_path / "x", backend="dask")


def test_in_memory_play_is_the_same_whatever_jobs_and_step():
    import pyarrow as pa

    from sims.batch import one_arm, play_arm

    block = {"name": "m", "game": "nyslice", "players": 3, "strategies": "greedy", "games": 40}
    arm = one_arm(block, seed=8)
    runs = []
    for jobs, step in ((1, 40), (1, 7), (2, 9)):
        parts = list(play_arm(arm, first=5, count=30, step=step, jobs=jobs))
        assert [s for s, _ in parts] == list(range(5, 35, step))
        runs.append(pa.concat_tables([t["players"] for _, t in parts]))
    assert runs[0].num_rows == 30 * 3
    assert runs[0].equals(runs[1]) and runs[0].equals(runs[2])
