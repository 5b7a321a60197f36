"""Datasets that survive being moved and mended: a study is known by the content of its
data files, not by the path that reached them; ``repair`` mends every state a reader sends
the user to it for; an incomplete dataset is not read without a word; SIGHUP stops a run as
SIGTERM does.

Each test here failed before: a study run from a subfolder, through a symlink or after a
move was refused as "another study"; repair refused a damaged chunk log with the message
that sent the user to it, and failed with a traceback on a table folder replaced by a file;
``analysis.load`` read the finished part of an interrupted run silently."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.load import IncompleteDatasetWarning, manifest, rows, scan
from sims import dataset
from sims.batch import repair, run_study
from sims.cli import cli
from sims.core.errors import SlicelabError
from sims.core.study import StudyError, load_study

ROOT = Path(__file__).resolve().parents[1]
CAKE = ROOT / "sims" / "games" / "pieceocake" / "data" / "cake.toml"
STUDY = """\
name = "moved"
seed = 3
chunk_size = 4

[[arms]]
name = "own-cake"
game = "pieceocake"
players = [2, 3]
strategies = "random"
games = 8
engine = "reference"
cake = "{cake}"
"""


def write_checkout(root: Path, cake_ref: str = "cakes/cake9.toml") -> Path:
    """A designer's folder: a study file and the cake it names (relative to it)."""
    (root / "cakes").mkdir(parents=True)
    shutil.copy(CAKE, root / "cakes" / "cake9.toml")
    (root / "study.toml").write_text(STUDY.format(cake=cake_ref))
    return root / "study.toml"


def table_rows(out: Path) -> dict:
    return {t: scan(out, t).collect().sort("arm", "game_index", *(["seat"] if t == "players"
            else [])) for t in ("games", "players")}  # fmt: skip


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A finished dataset in ``<root>/D`` of the study in ``<root>/study.toml``."""
    root = tmp_path_factory.mktemp("checkout")
    run_study(load_study(write_checkout(root)), root / "D")
    return root


@pytest.fixture
def moved(played, tmp_path) -> Path:
    """The whole checkout moved to another folder (the original is gone)."""
    target = tmp_path / "elsewhere" / "checkout"
    shutil.copytree(played, target)
    return target


def test_a_moved_checkout_resumes_its_dataset(played, moved):
    summary = run_study(load_study(moved / "study.toml"), moved / "D")
    assert summary.games_played == 0 and summary.games_skipped == 16


def test_the_same_study_from_a_subfolder_or_a_symlink_is_the_same_study(played, moved):
    sub = moved / "sub"
    sub.mkdir()
    (sub / "study.toml").write_text(STUDY.format(cake="../cakes/cake9.toml"))
    assert run_study(load_study(sub / "study.toml"), moved / "D").games_played == 0
    os.symlink(moved / "cakes", moved / "linked")
    (moved / "via-link.toml").write_text(STUDY.format(cake="linked/cake9.toml"))
    assert run_study(load_study(moved / "via-link.toml"), moved / "D").games_played == 0


def test_a_changed_data_file_is_another_study(moved):
    cake = moved / "cakes" / "cake9.toml"
    cake.write_text(cake.read_text().replace("\n", "\n\n", 1))  # same cake, other bytes
    with pytest.raises(StudyError, match="another study"):
        run_study(load_study(moved / "study.toml"), moved / "D")


@pytest.mark.parametrize("originals", ["moved", "deleted", "edited"])
def test_a_moved_dataset_repairs_from_its_own_copy_of_the_data_files(played, moved, originals):
    """Repair re-plays a damaged chunk from the cake the data were made with, wherever
    the original went: moved along (another path), deleted, or edited since."""
    src = played if originals == "moved" else moved
    if originals == "deleted":
        shutil.rmtree(moved / "cakes")
    elif originals == "edited":
        cake = moved / "cakes" / "cake9.toml"
        cake.write_text(cake.read_text().replace('name = "', 'name = "edited ', 1))
    damaged = sorted((moved / "D" / "players").rglob("*.parquet"))[1]
    damaged.unlink()
    # the recorded study folder is no longer there either
    m = dataset.read_manifest(moved / "D")
    assert Path(m["study_dir"]) == played
    if originals != "moved":
        shutil.move(played, played.with_name(played.name + "-gone"))
    try:
        found, summary = repair(moved / "D")
    finally:
        if originals != "moved":
            shutil.move(played.with_name(played.name + "-gone"), played)
    assert [p.what for p in found] == ["missing"] and summary.games_played == 4
    assert dataset.problems(moved / "D") == []
    want, got = table_rows(src / "D"), table_rows(moved / "D")
    for t in want:
        assert want[t].drop("arm").equals(got[t].drop("arm"))


def _damage_log(out: Path) -> None:
    """The state a crash mid-compaction or a disk error leaves: a log of landed chunks
    whose middle line is garbage (the manifest does not record those chunks)."""
    m = dataset.read_manifest(out)
    lines = []
    rec = dataset.Recorder(out, m)
    for c in m["chunks"][-3:]:
        lines.append(json.dumps({"arm": c["arm"], "first": c["first"], "rows": c["rows"],
                                 "files": c["files"]}))  # fmt: skip
        rec.forget(c["arm"], c["first"])
    rec.compact()
    lines[1] = lines[1][:20] + "\x00garbage"
    (out / dataset.LOG).write_text("\n".join(lines) + "\n")


def test_a_damaged_chunk_log_is_mended_by_repair(played, moved):
    out = moved / "D"
    _damage_log(out)
    runner = CliRunner()
    for args in (["verify", str(out)], ["report", str(out)]):
        res = runner.invoke(cli, args)
        assert res.exit_code == 2 and f"slicelab repair {out}" in " ".join(res.output.split())
    with pytest.raises(SlicelabError, match="slicelab repair"):
        scan(out)
    res = runner.invoke(cli, ["repair", str(out)])
    assert res.exit_code == 0, res.output
    said = " ".join(res.output.split())
    assert "unfinished" in said and "4 games re-played" in said
    assert runner.invoke(cli, ["verify", str(out)]).exit_code == 0
    want, got = table_rows(played / "D"), table_rows(out)
    for t in want:
        assert want[t].equals(got[t])


@pytest.mark.parametrize("where", ["players", "games/pieceocake/2p"])
def test_a_folder_replaced_by_a_file_is_mended_by_repair(played, moved, where):
    out = moved / "D"
    shutil.rmtree(out / where)
    (out / where).write_bytes(b"not a folder")
    res = CliRunner().invoke(cli, ["verify", str(out)])
    assert res.exit_code == 1 and "Traceback" not in res.output
    with pytest.raises(SlicelabError, match="slicelab repair"):
        scan(out, "games")
    res = CliRunner().invoke(cli, ["repair", str(out)])
    assert res.exit_code == 0 and "Traceback" not in res.output, res.output
    assert dataset.problems(out) == []
    want, got = table_rows(played / "D"), table_rows(out)
    for t in want:
        assert want[t].equals(got[t])


def test_an_incomplete_dataset_is_refused_or_read_with_a_warning(moved):
    out = moved / "D"
    m = dataset.read_manifest(out)
    rec = dataset.Recorder(out, m)
    for c in m["chunks"][-2:]:  # a run stopped before its last two chunks
        for f in c["files"].values():
            (out / f["path"]).unlink()
        rec.forget(c["arm"], c["first"])
    rec.compact()
    for read in (lambda: scan(out), lambda: manifest(out), lambda: rows(out)):
        with pytest.raises(SlicelabError, match=r"incomplete: 2 of 4 chunks \(8 of 16 games\)"):
            read()
    with pytest.warns(IncompleteDatasetWarning, match="2 of 4 chunks"):
        got = rows(out, "games", partial=True)
    assert got.height == 8
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_study(load_study(moved / "study.toml"), out)  # resumed: read without a word
        assert scan(out, "games").collect().height == 16


@pytest.mark.skipif(sys.platform != "linux", reason="signals as on Linux")
def test_sighup_stops_a_run_like_sigterm(tmp_path):
    out = tmp_path / "hup"
    args = ["simulate", "nyslice", "--players", "4", "--games", "100000", "--strategies",
            "random", "--engine", "reference", "--chunk-size", "10", "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "sims.cli", *args], cwd=tmp_path,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.time() + 120
    while time.time() < deadline and not list(out.rglob("games/**/*.parquet")):
        time.sleep(0.05)
    proc.send_signal(signal.SIGHUP)
    _, stderr = proc.communicate(timeout=60)
    said = " ".join(stderr.split())
    assert proc.returncode == 130 and "run the same command to resume" in said, stderr
    assert "Traceback" not in stderr
    assert dataset.problems(out, deep=False) == [] or all(
        p.what == "unfinished" for p in dataset.problems(out, deep=False)
    )


def test_a_worker_killed_by_a_fault_is_one_line_not_a_traceback(tmp_path):
    """A segfault in a worker (as a kernel's out-of-bounds access would cause) is named in
    one line with what to do, instead of joblib's TerminatedWorkerError traceback."""
    args = ["simulate", "nyslice", "--players", "2", "--games", "4", "--chunk-size", "2",
            "--strategies", "tests.example_strategies:Crash", "--allow-code", "--jobs", "2",
            "--out", str(tmp_path / "crash")]  # fmt: skip
    proc = subprocess.run([sys.executable, "-m", "sims.cli", *args], cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "a worker process died (SIGSEGV)" in said and "--engine reference" in said
