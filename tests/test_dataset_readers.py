"""A dataset is read alike by pandas, pyarrow, DuckDB and polars with their one-line
defaults, and by every slicelab reader (issue 28).

The folders under a table are plain names (``OUT/players/nyslice/4p/<arm>/``), never
``key=value``, and every file holds ``game``, ``players`` and ``arm`` itself; the old hive
layout (``game=G/players=N/arm=A``, whose inferred dictionary ``arm`` clashed with the
files' string ``arm`` in pandas and pyarrow) is refused in one line naming the fix. A
``.DS_Store`` or ``._*`` file dropped into a table's folders is no part of the dataset.

The dataset is played by the real runner on the reference engine (no kernel to compile).
"""

from __future__ import annotations

import collections
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from analysis_fixtures import SyntheticDataset
from click.testing import CliRunner

from analysis import load
from sims import dataset
from sims.batch import run_study
from sims.cli import cli
from sims.core.errors import SlicelabError
from sims.core.study import parse_study

STUDY = {
    "name": "readers", "seed": 11, "chunk_size": 3,
    "arms": [
        {"name": "g4", "game": "nyslice", "players": 4, "strategies": "greedy", "games": 7,
         "engine": "reference"},
        {"name": "r2.v-1_x", "game": "nyslice", "players": 2, "strategies": "random",
         "games": 5, "engine": "reference", "decisions": True},
    ],
}  # fmt: skip
TABLES = ("games", "players", "decisions")
JUNK = (".DS_Store", "._junk")


def _study():
    return parse_study(STUDY)


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("readers") / "ds"
    run_study(_study(), out)
    return out


def _junk_folders(out: Path) -> list[Path]:
    """A table folder and an arm's folder of every table."""
    found = []
    for table in TABLES:
        arm = next(a for a in STUDY["arms"] if table != "decisions" or a.get("decisions"))
        found += [
            out / table,
            dataset.chunk_dir(out, table, "nyslice", arm["players"], arm["name"]),
        ]
    return found


def _drop_junk(out: Path) -> None:
    for folder in _junk_folders(out):
        for name in JUNK:
            (folder / name).write_bytes(b"\0\0\0\x01Bud1 not Parquet")


@pytest.fixture(scope="module")
def junk(clean, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("junk") / "ds"
    shutil.copytree(clean, out)
    _drop_junk(out)
    return out


# ---------------------------------------------------------------------------- the layout
def test_the_folders_are_plain_names_and_each_file_describes_itself(clean):
    import pyarrow.parquet as pq

    m = load.manifest(clean)
    arms = {a["name"]: a for a in m["study"]["arms"]}
    paths = [(c["arm"], t, f["path"]) for c in m["chunks"] for t, f in c["files"].items()]
    assert {t for _, t, _ in paths} == set(TABLES)
    for arm, table, rel in paths:
        a = arms[arm]
        assert "=" not in rel
        first = int(Path(rel).stem.removeprefix("part-"))
        assert rel == f"{table}/nyslice/{a['players']}p/{arm}/part-{first:012d}.parquet"
        assert (clean / rel) == dataset.chunk_path(clean, table, "nyslice", a["players"], arm,
                                                   first)  # fmt: skip
        t = pq.read_table(clean / rel)  # one file alone names its game, player count and arm
        assert t.column_names[0] == "arm" and t.column_names[-2:] == ["game", "players"]
        assert str(t.schema.field("players").type) == "int64"
        assert set(t.column("game").to_pylist()) == {"nyslice"}
        assert set(t.column("players").to_pylist()) == {a["players"]}
        assert set(t.column("arm").to_pylist()) == {arm}


@pytest.mark.parametrize(
    "game,players,arm",
    [("nyslice", 4, ""), ("nyslice", 4, "a=b"), ("nyslice", 4, ".a"), ("nyslice", 4, "_a"),
     ("nyslice", 4, "a/b"), ("game=x", 4, "a"), ("nyslice", 0, "a"), ("nyslice", True, "a"),
     ("nyslice", 4, "a\nb")],
)  # fmt: skip
def test_a_name_that_is_no_plain_folder_name_is_refused(game, players, arm):
    with pytest.raises(ValueError, match="folder name"):
        dataset.chunk_path(Path("out"), "players", game, players, arm, 0)


# ------------------------------------------------------------- every reader, one line each
def _pandas(folder: Path, glob: str):
    import pandas as pd

    return pd.read_parquet(folder)


def _pyarrow(folder: Path, glob: str):
    import pyarrow.parquet as pq

    return pq.read_table(folder).to_pandas()


def _pyarrow_dataset(folder: Path, glob: str):
    import pyarrow.dataset as pads

    return pads.dataset(folder, format="parquet").to_table().to_pandas()


def _pyarrow_hive(folder: Path, glob: str):
    import pyarrow.dataset as pads

    return pads.dataset(folder, format="parquet", partitioning="hive").to_table().to_pandas()


def _duckdb(folder: Path, glob: str):
    duckdb = pytest.importorskip("duckdb")
    return duckdb.sql(f"select * from read_parquet('{glob}')").df()


READERS = {
    "pandas.read_parquet(folder)": _pandas,
    "pyarrow.parquet.read_table(folder)": _pyarrow,
    "pyarrow.dataset.dataset(folder)": _pyarrow_dataset,
    "pyarrow.dataset.dataset(folder, partitioning=hive)": _pyarrow_hive,
    "duckdb read_parquet(glob)": _duckdb,
    "polars.read_parquet(folder)": lambda folder, glob: pl.read_parquet(folder),
    "polars.scan_parquet(folder)": lambda folder, glob: pl.scan_parquet(folder).collect(),
    "polars.read_parquet(glob)": lambda folder, glob: pl.read_parquet(glob),
    "polars.scan_parquet(glob)": lambda folder, glob: pl.scan_parquet(glob).collect(),
}


def _keys(frame) -> collections.Counter:
    """How many rows of each (game, players, arm, game_index): the rows a reader read and
    the layout values it gave them."""
    if isinstance(frame, pl.DataFrame):
        cols = [frame[c].to_list() for c in ("game", "players", "arm", "game_index")]
    else:  # pandas
        cols = [frame[c].tolist() for c in ("game", "players", "arm", "game_index")]
    return collections.Counter(
        (str(g), int(n), str(a), int(i)) for g, n, a, i in zip(*cols, strict=True)
    )


@pytest.fixture(scope="module")
def expected(clean) -> dict[str, collections.Counter]:
    return {t: _keys(load.scan(clean, t).collect()) for t in TABLES}


@pytest.mark.parametrize("where", ["clean", "junk"])
@pytest.mark.parametrize("reader", list(READERS), ids=list(READERS))
@pytest.mark.parametrize("table", TABLES)
def test_every_reader_reads_the_same_rows_with_its_defaults(
    request, where, reader, table, expected
):
    out = request.getfixturevalue(where)
    folder = out / table
    try:
        got = _keys(READERS[reader](folder, (folder / "**" / "*.parquet").as_posix()))
    except pl.exceptions.InvalidOperationError as exc:
        # polars given a folder refuses any non-empty file in it without the .parquet
        # extension, hidden or not (polars 1.x); docs/dataset.md says to read the glob
        assert where == "junk" and "(folder)" in reader, exc
        assert "different file extensions" in str(exc)
        return
    assert got == expected[table]
    arms = {(a["name"], a["players"]) for a in STUDY["arms"]
            if table != "decisions" or a.get("decisions")}  # fmt: skip
    assert {(a, n) for _, n, a, _ in got} == arms
    assert sum(got.values()) == sum(
        c["rows"][table] for c in load.manifest(out)["chunks"] if table in c["rows"]
    )


def test_the_readers_read_the_same_values(clean):
    """Not only the keys: pandas' and DuckDB's rows are polars' rows, column for column."""
    import pandas as pd

    duckdb = pytest.importorskip("duckdb")
    keys = ["arm", "game_index", "seat"]
    ours = load.scan(clean, "players").collect().sort(keys)
    glob = (clean / "players" / "**" / "*.parquet").as_posix()
    for theirs in (pd.read_parquet(clean / "players"),
                   duckdb.sql(f"select * from read_parquet('{glob}')").df()):  # fmt: skip
        theirs = pl.from_pandas(theirs).sort(keys)
        assert theirs.columns == ours.columns
        for c in ours.columns:
            assert theirs[c].cast(ours[c].dtype).to_list() == ours[c].to_list(), c


# ------------------------------------------------------------------- hidden files: ignored
def test_hidden_files_are_ignored_by_every_slicelab_reader_and_by_verify(clean, junk):
    assert all((f / n).is_file() for f in _junk_folders(junk) for n in JUNK)
    assert dataset.problems(junk) == []
    res = CliRunner().invoke(cli, ["verify", str(junk)])
    assert res.exit_code == 0 and "ok: every file matches" in res.output, res.output
    dataset.check(junk)
    assert load.manifest(junk)["chunks"] == load.manifest(clean)["chunks"]
    for t in TABLES:
        assert load.scan(junk, t).collect().equals(load.scan(clean, t).collect())
    assert load.rows(junk, group="g4").equals(load.rows(clean, group="g4"))
    assert load.arms(junk).equals(load.arms(clean))


def test_hidden_files_do_not_stop_a_resume_or_a_repair(clean, tmp_path):
    out = tmp_path / "ds"
    shutil.copytree(clean, out)
    m = dataset.read_manifest(out)
    last = m["chunks"][-1]
    rec = dataset.Recorder(out, m)
    rec.forget(last["arm"], last["first"])  # an interrupted run: its last chunk not recorded
    rec.compact()
    _drop_junk(out)
    summary = run_study(_study(), out)
    assert summary.games_played == last["count"]
    assert dataset.problems(out) == []
    res = CliRunner().invoke(cli, ["repair", str(out)])
    assert res.exit_code == 0, res.output
    assert all((f / n).is_file() for f in _junk_folders(out) for n in JUNK)  # left alone
    assert load.scan(out).collect().equals(load.scan(clean).collect())


# ------------------------------------------------------------------- the old hive layout
def _old_layout(clean: Path, out: Path) -> Path:
    """``clean`` as slicelab wrote it before: manifest format 2, hive folders."""
    shutil.copytree(clean, out)
    m = json.loads((out / dataset.MANIFEST).read_text())
    arms = {a["name"]: a for a in m["study"]["arms"]}
    for c in m["chunks"]:
        a = arms[c["arm"]]
        for table, f in c["files"].items():
            old = (Path(table) / f"game={a['game']}" / f"players={a['players']}"
                   / f"arm={c['arm']}" / Path(f["path"]).name)  # fmt: skip
            (out / old).parent.mkdir(parents=True, exist_ok=True)
            (out / f["path"]).rename(out / old)
            f["path"] = old.as_posix()
    for table in TABLES:
        shutil.rmtree(out / table / "nyslice")
    m["format"] = 2
    (out / dataset.MANIFEST).write_text(json.dumps(m))
    return out


def test_a_dataset_in_the_old_hive_layout_is_refused_in_one_line(clean, tmp_path):
    out = _old_layout(clean, tmp_path / "old")
    message = "old hive layout .*game=G/players=N/arm=A.*re-run its study into a new folder"
    for read in (
        lambda: load.scan(out),
        lambda: load.rows(out),
        lambda: load.manifest(out),
        lambda: dataset.check(out),
        lambda: dataset.read_manifest(out, mending=True),
        lambda: run_study(_study(), out),  # resume
    ):
        with pytest.raises(SlicelabError, match=message):
            read()
    for args in (["verify", str(out)], ["report", str(out)], ["repair", str(out)]):
        res = CliRunner().invoke(cli, args)
        said = " ".join(res.output.split())
        assert res.exit_code == 2 and res.output.startswith("error: "), res.output
        assert res.output.count("\n") == 1 and "Traceback" not in res.output
        assert "old hive layout" in said and "new folder" in said
    assert not list(out.glob("*/nyslice"))  # nothing was written in the new layout


# ------------------------------------------------------------- the synthetic test datasets
def test_a_synthetic_dataset_is_laid_out_as_the_runner_lays_one_out(tmp_path):
    import pandas as pd

    d = SyntheticDataset(tmp_path / "syn")
    arm = d.arm("seats-p3", 3, games=2)
    path = d.players(arm, win_share=[[1, 0, 0], [0, 1, 0]])
    out = d.write()
    assert path == dataset.chunk_path(out, "players", "nyslice", 3, arm, 0)
    assert dataset.problems(out) == []
    frame = pd.read_parquet(out / "players")
    assert list(frame.columns[:1]) + list(frame.columns[-2:]) == ["arm", "game", "players"]
    assert _keys(frame) == _keys(load.scan(out).collect())
    assert load.scan(out).collect_schema()["players"] == pl.Int64
