"""Datasets that cannot be silently wrong: the writer lock, file checksums checked by every
reader and by resume, verify and repair, the append-only chunk log, run options refused
before anything is written, Dask paths, and runs stopped by SIGTERM or a killed parent.

Each test here failed (or could not be written) before the dataset kept checksums and a
lock: a damaged dataset was read back with exit status 0."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.load import manifest, scan
from sims import dataset
from sims.batch import run_study
from sims.cli import cli
from sims.core.errors import SlicelabError
from sims.core.study import StudyError, parse_study

ROOT = Path(__file__).resolve().parents[1]
SLICELAB = [sys.executable, "-m", "sims.cli"]


def study_data(**over):
    data = {
        "name": "t", "seed": 5, "chunk_size": 6,
        "arms": [
            {"name": "a4", "game": "nyslice", "players": 4, "strategies": "greedy", "games": 24},
            {"name": "a2", "game": "nyslice", "players": 2, "strategies": "random", "games": 12},
        ],
    }  # fmt: skip
    data.update(over)
    return data


def rows_of(out):
    return {t: scan(out, t).collect().sort("arm", "game_index", *(["seat"] if t == "players"
            else [])) for t in ("games", "players")}  # fmt: skip


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    out = tmp_path_factory.mktemp("clean") / "ds"
    run_study(parse_study(study_data()), out)
    return out


@pytest.fixture
def copy(clean, tmp_path):
    out = tmp_path / "ds"
    shutil.copytree(clean, out)
    return out


def files(out):
    return sorted(p for p in Path(out).rglob("*.parquet"))


def _truncate(p):
    p.write_bytes(b"")


def _delete(p):
    p.unlink()


def _duplicate(p):
    shutil.copy(p, p.with_name("part-000000000000 (copy).parquet"))


def _stray(p):
    # into another arm's folder (p is OUT/games/nyslice/2p/a2/part-….parquet)
    shutil.copy(p, dataset.chunk_path(p.parents[4], "games", "nyslice", 4, "a4", 999999999999))


def _flip(p):
    data = bytearray(p.read_bytes())
    data[len(data) // 2] ^= 0x10
    p.write_bytes(bytes(data))


def _append(p):
    p.write_bytes(p.read_bytes() + b"\0")


DAMAGE = {
    "truncated to 0 bytes": (_truncate, "empty"),
    "deleted": (_delete, "missing"),
    "duplicated": (_duplicate, "extra"),
    "stray parquet dropped in": (_stray, "extra"),
    "one bit flipped": (_flip, "altered"),
    "one byte appended": (_append, "altered"),
}


@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
def test_damage_is_refused_by_every_reader_and_resume_and_repaired(damage, clean, copy):
    hurt, what = DAMAGE[damage]
    target = [
        p for p in files(copy) if p.relative_to(copy).parts[:3] == ("games", "nyslice", "2p")
    ][0]
    hurt(target)
    # readers
    for read in (lambda: scan(copy, "players"), lambda: manifest(copy)):
        with pytest.raises(SlicelabError, match=f"does not match its manifest: .*{what}"):
            read()
    # resume
    with pytest.raises(SlicelabError, match="slicelab repair"):
        run_study(parse_study(study_data()), copy)
    # the command line: verify lists it (exit 1), report refuses it (exit 2, one line)
    runner = CliRunner()
    res = runner.invoke(cli, ["verify", str(copy)])
    assert res.exit_code == 1 and what in res.output
    res = runner.invoke(cli, ["report", str(copy)])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "repair" in res.output
    # repair re-plays exactly the damaged chunk and removes what is not data
    res = runner.invoke(cli, ["repair", str(copy)])
    assert res.exit_code == 0, res.output
    played = 6 if what != "extra" else 0
    assert f"{played} games re-played" in " ".join(res.output.split())
    assert dataset.problems(copy) == []
    assert runner.invoke(cli, ["verify", str(copy)]).exit_code == 0
    clean_rows, mended = rows_of(clean), rows_of(copy)
    for t in clean_rows:
        assert clean_rows[t].equals(mended[t])


HIDDEN = {
    "a desktop's .DS_Store in a table folder": "players/.DS_Store",
    "one deep in an arm's folders": "games/nyslice/2p/.DS_Store",
    "a notebook's checkpoints": "players/.ipynb_checkpoints/notes.txt",
    "a resource fork in an arm's folder": "players/nyslice/4p/a4/._junk",
    "a job's marker": "players/_SUCCESS",
    "a dataset's common metadata": "games/_common_metadata",
}


@pytest.mark.parametrize("where", list(HIDDEN.values()), ids=list(HIDDEN))
def test_hidden_files_that_are_not_parquet_are_no_part_of_the_dataset(copy, clean, where):
    import pyarrow.dataset as pads

    p = copy / where
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(b"\0\x05Bud1 not data")
    assert dataset.problems(copy) == []
    assert CliRunner().invoke(cli, ["verify", str(copy)]).exit_code == 0
    clean_rows, rows = rows_of(clean), rows_of(copy)
    for t in clean_rows:
        assert clean_rows[t].equals(rows[t])
    table = pads.dataset(copy / "players", format="parquet").to_table()
    assert table.num_rows == clean_rows["players"].height


@pytest.mark.parametrize("name", [".hidden.parquet", "_underscore.parquet"])
def test_a_hidden_parquet_file_is_an_extra_file(copy, name):
    """pyarrow skips it, but DuckDB's and polars' ``**/*.parquet`` globs read it."""
    stray = files(copy)[0]
    shutil.copy(stray, stray.with_name(name))
    assert [p.what for p in dataset.problems(copy)] == ["extra"]


def test_every_single_bit_flip_is_caught(clean, copy):
    rng = random.Random(0)
    parquet = files(copy)
    for _ in range(200):
        p = rng.choice(parquet)
        data = bytearray(p.read_bytes())
        i, bit = rng.randrange(len(data)), 1 << rng.randrange(8)
        data[i] ^= bit
        p.write_bytes(bytes(data))
        assert [x.what for x in dataset.problems(copy)] == ["altered"]
        data[i] ^= bit
        p.write_bytes(bytes(data))
    assert dataset.problems(copy) == []


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "cannot be read"),
        ("{not json", "cannot be read"),
        ("[1, 2]", "not a JSON object"),
        (f'{{"format": {dataset.FORMAT}}}', "malformed"),
        ('{"format": 2, "study": {}}', "old hive layout"),
        ('{"format": 1, "study": {}}', "older slicelab"),
        ('{"format": 99}', "format 99"),
        (b"\xff\xfe{}", "cannot be read"),
    ],
    ids=[
        "empty",
        "not JSON",
        "a list",
        "no fields",
        "format 2",
        "format 1",
        "format 99",
        "not UTF-8",
    ],  # fmt: skip
)
def test_an_unreadable_manifest_is_one_line(copy, text, message):
    path = copy / dataset.MANIFEST
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(SlicelabError, match=message):
        scan(copy)
    with pytest.raises(SlicelabError, match=message):
        run_study(parse_study(study_data()), copy)
    for args in (["verify", str(copy)], ["report", str(copy)], ["repair", str(copy)]):
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 2 and res.output.startswith("error: "), res.output
        assert res.output.count("\n") == 1 and "Traceback" not in res.output


def test_a_second_writer_is_refused_naming_the_holder(tmp_path):
    args = [
        "simulate", "nyslice", "--players", "4", "--games", "100000", "--strategies", "random",
        "--engine", "reference", "--chunk-size", "10", "--out", str(tmp_path / "busy"),
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([*SLICELAB, *args], cwd=tmp_path, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.time() + 60
        while not (tmp_path / "busy" / dataset.HOLDER).exists() and time.time() < deadline:
            time.sleep(0.05)
        # the same arm name in another study, and the same study again: both refused
        other = study_data(arms=[{"name": "main", "game": "nyslice", "players": 4,
                                  "strategies": "random", "games": 10}], seed=9)  # fmt: skip
        for data in (other, None):
            with pytest.raises(SlicelabError, match=f"another slicelab run \\(process {proc.pid}"):
                if data is None:
                    res = CliRunner().invoke(cli, args)
                    raise SlicelabError(res.output)
                run_study(parse_study(data), tmp_path / "busy")
        # later in that run, with files and the manifest written: still the run, not "not
        # empty" or "another study's data" (a second writer used to race into those)
        while not (tmp_path / "busy" / dataset.MANIFEST).exists() and time.time() < deadline:
            time.sleep(0.05)
        with pytest.raises(SlicelabError, match=f"another slicelab run \\(process {proc.pid}"):
            run_study(parse_study(other), tmp_path / "busy")
        # a reader that meets a chunk landing (files in place, record not yet) names the run
        assert dataset.writer_active(tmp_path / "busy").startswith(f"process {proc.pid}")
    finally:
        proc.kill()
        proc.wait()


def test_the_log_is_appended_and_the_manifest_written_only_at_start_and_end(tmp_path):
    out = tmp_path / "log"
    seen = []

    def watch(done, total, played):
        if played:
            m = (out / dataset.MANIFEST).stat()
            seen.append((m.st_mtime_ns, m.st_size, (out / dataset.LOG).stat().st_size))

    run_study(parse_study(study_data()), out, on_progress=watch)
    assert len(seen) == 6
    assert len({s[:2] for s in seen}) == 1  # the manifest untouched while chunks land
    assert [s[2] for s in seen] == sorted({s[2] for s in seen})  # the log only grows
    assert not (out / dataset.LOG).exists() and manifest(out)["complete"]


def test_a_torn_last_log_line_replays_its_chunk(tmp_path, clean):
    out = tmp_path / "torn"
    study = parse_study(study_data())
    shutil.copytree(clean, out)
    m = dataset.read_manifest(out)
    last = m["chunks"][-1]
    rec = dataset.Recorder(out, m)
    rec.forget(last["arm"], last["first"])
    rec.compact()
    (out / dataset.LOG).write_bytes(json.dumps({"arm": last["arm"]}).encode()[:-3])
    summary = run_study(study, out)
    assert summary.games_played == last["count"]
    assert dataset.problems(out) == [] and rows_of(out)["players"].equals(rows_of(clean)["players"])


def test_a_changed_preset_is_another_study(tmp_path):
    """Resuming after the preset a seat names was re-saved would mix two strategies."""
    from sims.core.game import get_game

    game = get_game("nyslice")
    data = study_data(arms=[{"name": "h", "game": "nyslice", "players": 3,
                             "strategies": "mine", "games": 6}])  # fmt: skip
    game.save_preset("heuristic", "mine", {"theta": 1.0}, "first")
    run_study(parse_study(data), tmp_path / "h")
    game.save_preset("heuristic", "mine", {"theta": 2.5}, "re-tuned")
    with pytest.raises(StudyError, match="holds the data of another study"):
        run_study(parse_study(data), tmp_path / "h")
    m = manifest(tmp_path / "h")
    assert '"theta": 1.0' in m["fingerprints"]["h"]["seats"][0]


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"backend": "dask"}, "needs --scheduler"),
        ({"jobs": 10_000}, "cores available"),
        ({"jobs": 0}, "at least 1"),
        ({"backend": "spark"}, "unknown backend"),
    ],
)
def test_run_options_are_refused_before_anything_is_written(tmp_path, kwargs, message):
    with pytest.raises(SlicelabError, match=message):
        run_study(parse_study(study_data()), tmp_path / "x", **kwargs)
    assert not (tmp_path / "x").exists()


def test_an_unwritable_output_is_one_line(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(SlicelabError, match="is a file"):
        run_study(parse_study(study_data()), tmp_path / "file")
    with pytest.raises(SlicelabError, match="cannot write the dataset folder"):
        run_study(parse_study(study_data()), tmp_path / "file" / "sub")
    with pytest.raises(SlicelabError, match="File name too long"):
        run_study(parse_study(study_data()), tmp_path / ("x" * 300))  # File name too long


def test_a_full_disk_is_one_line_and_resumes(tmp_path, monkeypatch, clean):
    import errno

    from sims import batch

    real, calls = batch.dataset.atomic_write, []

    def full(path, data):
        calls.append(path)
        if len(calls) > 4 and path.suffix == ".parquet":
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(batch.dataset, "atomic_write", full)
    out = tmp_path / "full"
    with pytest.raises(SlicelabError, match="No space left on device.*resume"):
        run_study(parse_study(study_data()), out)
    monkeypatch.setattr(batch.dataset, "atomic_write", real)
    assert run_study(parse_study(study_data()), out).games_played > 0
    assert rows_of(out)["players"].equals(rows_of(clean)["players"])


def test_python_strategies_need_allow_code(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    arms = [{"name": "c", "game": "nyslice", "players": 2,
             "strategies": ["example_strategies:FirstLegal", "greedy"], "games": 2}]  # fmt: skip
    for spec in ("sys:exit", "builtins:input", "example_strategies:FirstLegal"):
        arms[0]["strategies"][0] = spec
        with pytest.raises(StudyError, match="--allow-code"):
            parse_study(study_data(arms=arms))
    arms[0]["strategies"][0] = "example_strategies:FirstLegal"
    assert (
        parse_study(study_data(arms=arms, allow_code=True))
        .arms[0]
        .strategies[0]
        .startswith("example_strategies")
    )
    res = CliRunner().invoke(cli, ["replay", "nyslice", "-p", "2", "--strategies", "sys:exit"])
    assert res.exit_code == 2 and "--allow-code" in res.output


def test_huge_plans_are_refused_quickly():
    t0 = time.perf_counter()
    with pytest.raises(StudyError, match="raise chunk_size"):
        parse_study(study_data(chunk_size=1, arms=[{"name": "a", "game": "nyslice", "players": 2,
                    "strategies": "random", "games": 4_000_000_000}]))  # fmt: skip
    with pytest.raises(StudyError, match="smaller factor"):
        parse_study(study_data(sizes={"big": 1e9}), size="big")
    assert time.perf_counter() - t0 < 5


def test_dask_with_a_relative_out_writes_where_the_user_is(tmp_path, monkeypatch, clean):
    """Workers started in another folder still write into the user's --out."""
    from dask.distributed import LocalCluster

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    here = tmp_path / "here"
    here.mkdir()
    with LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=None,
                      silence_logs=40) as cluster:  # fmt: skip
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address,
             "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
            cwd=elsewhere, env=dict(os.environ, PYTHONPATH=str(ROOT)),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            from dask.distributed import Client

            with Client(cluster.scheduler_address) as client:
                client.wait_for_workers(1, timeout=60)
            monkeypatch.chdir(here)
            run_study(parse_study(study_data()), "rel", backend="dask",
                      scheduler=cluster.scheduler_address)  # fmt: skip
        finally:
            worker.terminate()
            worker.wait(30)
    assert not list(elsewhere.rglob("*.parquet"))
    assert dataset.problems(here / "rel") == []
    assert rows_of(here / "rel")["players"].equals(rows_of(clean)["players"])


def test_an_unreachable_scheduler_is_one_line(tmp_path):
    import dask
    import distributed  # noqa: F401

    # distributed's defaults must be in dask's config before set(): leaving a set() that
    # created the "distributed" key deletes the whole key, and every later cluster in this
    # process fails on a missing default (distributed.comm.require-encryption)
    with (
        dask.config.set({"distributed.comm.timeouts.connect": "1s"}),
        pytest.raises(SlicelabError, match="cannot reach the Dask scheduler"),
    ):
        run_study(parse_study(study_data()), tmp_path / "d", backend="dask",
                  scheduler="tcp://127.0.0.1:1")  # fmt: skip


def _start(tmp_path, out, jobs=2):
    args = [
        "simulate", "nyslice", "--players", "4", "--games", "4000", "--strategies", "random",
        "--engine", "reference", "--chunk-size", "40", "--jobs", str(jobs), "--out", str(out),
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([*SLICELAB, *args], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.time() + 120
    while time.time() < deadline and len(list(out.rglob("games/**/*.parquet"))) < 2:
        time.sleep(0.05)
    return proc, args


@pytest.mark.skipif(sys.platform != "linux", reason="signals and parent-death as on Linux")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_stopped_run_stops_its_workers(tmp_path, sig):
    out = tmp_path / "stopped"
    proc, args = _start(tmp_path, out)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=60)
    if sig == signal.SIGTERM:
        # (the console wraps long lines: a long tmp path moves the break)
        said = " ".join(stderr.split())
        assert proc.returncode == 130 and "run the same command to resume" in said
        assert "Traceback" not in stderr
    time.sleep(0.5)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    time.sleep(3)  # a worker still playing would land a chunk (40 games) well within this
    after = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()
             if not p.name.startswith(".")}  # fmt: skip
    assert {p: t for p, t in before.items() if not p.name.startswith(".")} == after
    res = CliRunner().invoke(cli, ["verify", str(out)])
    assert "incomplete" in res.output or "unfinished" in res.output


def test_a_scheduler_lost_mid_run_is_one_line_and_resumes(tmp_path, clean):
    import threading

    from dask.distributed import LocalCluster

    cluster = LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1",
                           dashboard_address=None, silence_logs=50)  # fmt: skip
    slow = study_data(chunk_size=3, arms=[{**study_data()["arms"][0], "engine": "reference"}])

    def close_after_first(done, total, played):
        if played and cluster.status.name == "running":
            threading.Thread(target=cluster.close).start()

    with pytest.raises(SlicelabError, match="lost the Dask scheduler .* run the same command"):
        run_study(parse_study(slow), tmp_path / "lost", backend="dask",
                  scheduler=cluster.scheduler_address, on_progress=close_after_first)  # fmt: skip
    cluster.close()
    summary = run_study(parse_study(slow), tmp_path / "lost")
    assert 0 < summary.games_skipped < 24 and dataset.problems(tmp_path / "lost") == []


def test_a_reader_during_a_run_names_the_run_and_a_stale_holder_is_ignored(copy):
    m = dataset.read_manifest(copy)
    last = m["chunks"][-1]
    rec = dataset.Recorder(copy, m)
    rec.forget(last["arm"], last["first"])  # its files are in place, its record not yet
    rec.compact()
    (copy / dataset.HOLDER).write_text('{"pid": 1, "host": "h", "user": "u", "started": "t"}')
    assert dataset.writer_active(copy) is None  # a holder file without a held lock: stale
    with pytest.raises(SlicelabError, match="interrupted run"):
        scan(copy)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; "
         "from sims.dataset import writer_lock\n"
         "with writer_lock(Path(sys.argv[1])):\n    print('held', flush=True); time.sleep(60)",
         str(copy)],
        stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(SlicelabError, match=f"being written by a running slicelab "
                                                f"\\(process {holder.pid}"):  # fmt: skip
            scan(copy)
    finally:
        holder.kill()
        holder.wait()


def test_a_format_3_dataset_is_read_but_never_resumed(copy, clean):
    """Manifest format 3 recorded the specs' own parameters in strategy_params (format 4:
    the parameters each seat played): every reader reads it; resuming or repairing would
    write chunks of the other meaning beside them, so both are refused naming the fix."""
    path = copy / dataset.MANIFEST
    m = json.loads(path.read_text("utf-8"))
    path.write_text(json.dumps({**m, "format": 3}), "utf-8")
    assert rows_of(copy)["players"].equals(rows_of(clean)["players"])
    assert manifest(copy)["format"] == 3
    for args in (["repair", str(copy)], ["verify", str(copy)]):
        r = CliRunner().invoke(cli, args)
        if args[0] == "verify":
            assert r.exit_code == 0, r.output  # a reader
        else:
            assert r.exit_code == 2 and "manifest format 3" in r.output, r.output
            assert "new folder (--out)" in r.output
    with pytest.raises(StudyError, match="would mix the two in one table"):
        run_study(parse_study(study_data()), copy)
