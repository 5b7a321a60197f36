"""The batch runner: chunks of games over a backend, Parquet out, a manifest, resumable.

The runner is the only loop over games (design principle 6). A study is cut into chunks
of consecutive game indices per arm; each chunk is played by its game
(:meth:`sims.core.game.Game.play_chunk`), turned into tables by :func:`play_tables` (which
adds the provenance columns and the win shares every game shares) and written as one
Parquet file per table, atomically (a temporary file renamed into place), into
hive-style partitions::

    OUT/manifest.json
    OUT/study.toml
    OUT/games/game=nyslice/players=4/arm=NAME/part-000000000000.parquet
    OUT/players/game=nyslice/players=4/arm=NAME/part-000000000000.parquet
    OUT/decisions/...   (only with decisions = true)

A chunk is finished when all its files exist (``games`` is renamed last), so an
interrupted run resumes with the same command and skips finished chunks; nothing
half-written is ever read, since readers only see ``*.parquet``. Every game is seeded
from (study seed, game index) alone, so the data do not depend on the chunk size, the
number of workers or the backend. Workers write their own files and return only row
counts: memory stays flat however many games are played.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sims import __version__
from sims.core.errors import SlicelabError
from sims.core.game import get_game, win_shares
from sims.core.study import Arm, Study, StudyError, parse_study, study_hash

TABLES = ("decisions", "players", "games")  # written in this order: games marks completion
BACKENDS = ("joblib", "dask")
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Chunk:
    """Consecutive games ``first .. first + count - 1`` of one arm."""

    arm: Arm
    first: int
    count: int


@dataclass
class ChunkResult:
    """What a worker reports back: row counts per table and where its time went."""

    arm: str
    first: int
    count: int
    rows: dict[str, int]
    seconds: float
    play_seconds: float = 0.0
    write_seconds: float = 0.0


@dataclass
class RunSummary:
    """Outcome of :func:`run_study`."""

    out: Path
    games_played: int
    games_skipped: int
    seconds: float
    engines: dict[str, str]
    chunks: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    play_seconds: float = 0.0  # summed over chunks (worker time playing and building tables)
    write_seconds: float = 0.0  # summed over chunks (worker time writing Parquet)


def plan(study: Study) -> list[Chunk]:
    """All chunks of a study, arm by arm, in game-index order."""
    out = []
    for arm in study.arms:
        for first in range(0, arm.games, study.chunk_size):
            out.append(Chunk(arm, first, min(study.chunk_size, arm.games - first)))
    return out


def chunk_path(out: Path, table: str, arm: Arm, first: int) -> Path:
    """Where a chunk's table lives (hive partitions game=, players=, arm=)."""
    return (
        Path(out) / table / f"game={arm.game}" / f"players={arm.players}" / f"arm={arm.name}"
        / f"part-{first:012d}.parquet"
    )  # fmt: skip


def _tables(decisions: bool) -> tuple[str, ...]:
    return TABLES if decisions else TABLES[1:]


def chunk_done(out: Path, chunk: Chunk) -> bool:
    """Whether every table file of a chunk is in place."""
    tables = _tables(chunk.arm.decisions)
    return all(chunk_path(out, t, chunk.arm, chunk.first).is_file() for t in tables)


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _column(values, rows: int) -> pa.Array | np.ndarray:
    """A per-seat column ``(games, players)`` ravelled seat-fastest, or an Arrow array."""
    if isinstance(values, np.ndarray):
        return values.reshape(rows)
    return values


def play_tables(
    arm: Arm, first: int, count: int, decisions: bool = False, engine: str | None = None
) -> dict[str, pa.Table]:
    """Play games ``first .. first + count - 1`` of an arm in memory and return its tables.

    The game plays (:meth:`~sims.core.game.Game.play_chunk`); the provenance columns
    (arm, game index, seed, variant, rules version, engine, strategies) and the win
    columns (``win_share`` by the game's :class:`~sims.core.game.ResultSchema` win rule,
    ``winner_seats``, ``n_winners``) are built here, once for every game.

    Returns
    -------
    dict of pyarrow.Table
        ``games`` (one row per game), ``players`` (one row per seat per game) and, when
        ``decisions`` is true, ``decisions``. Columns are documented in ``docs/dataset.md``.
    """
    game = get_game(arm.game)
    engine = engine or game.engine_for(arm)
    chunk = game.play_chunk(arm, first, count, decisions, engine)
    schema = game.results
    n = arm.players
    fp = game.fingerprint(arm)
    shares = win_shares([chunk.seats[k] for k in schema.win_keys])
    won = shares > 0
    offsets = np.concatenate([[0], np.cumsum(won.sum(axis=1))]).astype(np.int32)
    winners = pa.ListArray.from_arrays(
        pa.array(offsets), pa.array(np.nonzero(won)[1].astype(np.int8))
    )
    idx = np.arange(first, first + count, dtype=np.int64)
    games = pa.table(
        {
            "arm": pa.array([arm.name] * count, pa.string()),
            "game_index": idx,
            "study_seed": np.full(count, arm.seed, dtype=np.int64),
            "variant_id": pa.array([fp["variant_id"]] * count, pa.string()),
            "rules_version": pa.array([fp["rules_version"]] * count, pa.string()),
            "engine": pa.array([engine] * count, pa.string()),
            "winner_seats": winners,
            "n_winners": won.sum(axis=1).astype(np.int8),
            **{c: chunk.games[c] for c in schema.game_columns},
        }
    )
    specs = [game.make_strategy(s).spec for s in arm.strategies]
    rep = count * n
    players = pa.table(
        {
            "arm": pa.array([arm.name] * rep, pa.string()),
            "game_index": np.repeat(idx, n),
            "seat": np.tile(np.arange(n, dtype=np.int8), count),
            "strategy": pa.array([str(s) for s in specs] * count, pa.string()),
            "strategy_family": pa.array([s.name for s in specs] * count, pa.string()),
            "strategy_params": pa.array(
                [json.dumps(s.params, sort_keys=True) for s in specs] * count, pa.string()
            ),
            **{c: _column(chunk.seats[c], rep) for c in schema.seat_columns},
            "win_share": shares.ravel(),
        }
    )
    tables = {"games": games, "players": players}
    if decisions:
        recs = chunk.decisions
        arms = pa.array([arm.name] * recs.num_rows, pa.string())
        tables["decisions"] = recs.add_column(0, "arm", arms)
    return tables


def play_arm(
    arm: Arm, first: int = 0, count: int | None = None, step: int | None = None, jobs: int = 1
) -> Iterator[tuple[int, dict[str, pa.Table]]]:
    """Play an arm's games in memory, ``step`` at a time, on ``jobs`` local processes.

    Yields ``(first game index, tables)`` per step in game order (the tables of
    :func:`play_tables`, without decisions). The runner's other callers — ``slicelab
    play``, the arena, tuning — go through here, so no loop over games lives elsewhere.
    """
    count = arm.games - first if count is None else count
    if step is None:
        step = 2000 if get_game(arm.game).engine_for(arm) == "kernel" else 200
    starts = list(range(first, first + count, step))
    calls = [(arm, s, min(step, first + count - s)) for s in starts]
    yield from zip(starts, _local_map(play_tables, calls, jobs, ordered=True), strict=True)


def one_arm(arm: dict, seed: int, source: str = "command line") -> Arm:
    """A validated arm from an arm-block dict (as a study file would give it)."""
    return parse_study({"seed": seed, "name": "arms", "arms": [arm]}, source=source).arms[0]


def run_and_write(out: str, chunk: Chunk) -> ChunkResult:
    """Play one chunk and write its tables atomically (runs in a worker)."""
    t0 = time.perf_counter()
    decisions = chunk.arm.decisions
    tables = play_tables(chunk.arm, chunk.first, chunk.count, decisions)
    t1 = time.perf_counter()
    rows = {}
    for name in _tables(decisions):
        path = chunk_path(Path(out), name, chunk.arm, chunk.first)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        pq.write_table(tables[name], tmp, compression="zstd")
        os.replace(tmp, path)
        rows[name] = tables[name].num_rows
    t2 = time.perf_counter()
    return ChunkResult(chunk.arm.name, chunk.first, chunk.count, rows, t2 - t0, t1 - t0, t2 - t1)


def code_version() -> str:
    """slicelab's version, with the git commit when run from a checkout."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).parent, capture_output=True, text=True, timeout=5, check=True,
        ).stdout.strip()  # fmt: skip
        return f"{__version__}+g{sha}" if sha else __version__
    except (OSError, subprocess.SubprocessError):
        return __version__


def study_toml(study: Study) -> str:
    """A study as TOML text (for studies built from CLI flags)."""

    def val(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return str(v)
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(val(x) for x in v) + "]"
        return json.dumps(str(v))

    lines = [
        f"name = {val(study.name)}",
        f"seed = {study.seed}",
        f"chunk_size = {study.chunk_size}",
    ]
    lines.append(f"decisions = {val(study.decisions)}")
    for arm in study.arms:
        lines += ["", "[[arms]]"]
        tables = {}
        for key, v in arm.as_dict().items():
            if isinstance(v, dict):
                tables[key] = v
            elif v is not None:
                lines.append(f"{key} = {val(v)}")
        for key, table in tables.items():
            if table:
                lines.append(f"[arms.{key}]")
                lines += [f"{k} = {val(x)}" for k, x in sorted(table.items())]
    return "\n".join(lines) + "\n"


class _Manifest:
    """manifest.json: the study, its hash, code version, engines, seeds and every chunk."""

    def __init__(
        self, out: Path, study: Study, digest: str, fingerprints: dict, engines: dict
    ) -> None:
        self.path = out / MANIFEST
        self.data = {
            "format": 1,
            "study_name": study.name,
            "study_file": study.source,
            "study_hash": digest,
            "study": study.as_dict(),
            "study_text": study.text or study_toml(study),
            "fingerprints": fingerprints,
            "engines": engines,
            "seeds": {a.name: a.seed for a in study.arms},
            "code_version": code_version(),
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "updated": None,
            "complete": False,
            "tables": list(_tables(study.any_decisions)),
            "chunks": [
                {"arm": c.arm.name, "first": c.first, "count": c.count, "done": False, "rows": None}
                for c in plan(study)
            ],
        }
        self._index = {(c["arm"], c["first"]): c for c in self.data["chunks"]}

    def mark(self, arm: str, first: int, rows: dict[str, int] | None) -> None:
        entry = self._index[(arm, first)]
        entry["done"] = True
        if rows is not None:
            entry["rows"] = rows

    def save(self, complete: bool = False) -> None:
        self.data["complete"] = complete
        self.data["updated"] = datetime.now(UTC).isoformat(timespec="seconds")
        _atomic_write_bytes(self.path, json.dumps(self.data, indent=1).encode())


def read_manifest(out: str | Path) -> dict:
    """The manifest of a dataset directory."""
    path = Path(out) / MANIFEST
    if not path.is_file():
        raise SlicelabError(f"{out} is not a slicelab dataset (no {MANIFEST})")
    return json.loads(path.read_text())


def _check_out(out: Path, digest: str, study: Study) -> dict | None:
    """Refuse an output directory holding something else; return its manifest if resumable."""
    if not out.exists():
        return None
    if not out.is_dir():
        raise SlicelabError(f"--out {out} is a file; give a directory for the dataset")
    manifest = out / MANIFEST
    if manifest.is_file():
        old = json.loads(manifest.read_text())
        if old.get("study_hash") != digest:
            raise StudyError(
                f"{out} holds the data of another study ({old.get('study_name')!r}, hash "
                f"{old.get('study_hash')}; this one is {study.name!r}, hash {digest}); results are "
                "never mixed: choose another --out, or delete that directory to start over"
            )
        size = old.get("study", {}).get("chunk_size")
        if size != study.chunk_size:
            raise StudyError(
                f"{out} was written with chunk_size {size}; resume it with that chunk size "
                f"(--chunk-size {size}), or choose another --out"
            )
        return old
    if any(out.iterdir()):
        raise SlicelabError(
            f"{out} is not empty and holds no {MANIFEST}; choose an empty or new --out"
        )
    return None


def _remove_temporaries(out: Path) -> None:
    for tmp in out.rglob(".*.tmp"):
        tmp.unlink(missing_ok=True)


def _execute(
    todo: list[Chunk], out: Path, jobs: int, backend: str, scheduler: str | None
) -> Iterator[ChunkResult]:
    if backend == "dask":
        try:
            from dask.distributed import Client, as_completed
        except ImportError:
            raise SlicelabError(
                "the dask backend needs dask.distributed: pip install 'slicelab[cluster]'"
            ) from None
        if not scheduler:
            raise SlicelabError(
                "--backend dask needs --scheduler tcp://HOST:PORT of a running Dask cluster"
            )
        with Client(scheduler, timeout="20s") as client:
            futures = [client.submit(run_and_write, str(out), c, pure=False) for c in todo]
            try:
                for fut in as_completed(futures):
                    yield fut.result()
            finally:
                client.cancel([f for f in futures if not f.done()])
        return
    yield from _local_map(run_and_write, [(str(out), c) for c in todo], jobs, ordered=False)


def _local_map(fn: Callable, calls: list[tuple], jobs: int, ordered: bool) -> Iterator:
    """``fn(*args)`` for each call, in this process (``jobs == 1``) or on joblib workers,
    as a generator (in call order when ``ordered``, else as they finish)."""
    if jobs == 1:
        yield from (fn(*args) for args in calls)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=jobs, return_as="generator" if ordered else "generator_unordered")
    yield from parallel(delayed(fn)(*args) for args in calls)


def run_study(
    study: Study,
    out: str | Path,
    jobs: int = 1,
    backend: str = "joblib",
    scheduler: str | None = None,
    on_progress: Callable[[int, int, int], None] | None = None,
) -> RunSummary:
    """Run (or resume) a study into a dataset directory.

    Parameters
    ----------
    study : Study
        A validated study (:func:`sims.core.study.load_study`).
    out : path
        Dataset directory; created if missing. If it already holds this study's data
        the run resumes, skipping finished chunks; another study's data are refused.
    jobs : int
        Worker processes for the joblib backend (1: run in this process).
    backend : {"joblib", "dask"}
        ``dask`` sends chunks to the cluster at ``scheduler``; its workers must see ``out``.
    on_progress : callable, optional
        Called as ``on_progress(games_done, games_total, games_this_run)`` after each chunk.

    Returns
    -------
    RunSummary
    """
    if backend not in BACKENDS:
        raise SlicelabError(f"unknown backend {backend!r}; use one of {list(BACKENDS)}")
    if jobs < 1:
        raise SlicelabError(f"--jobs must be at least 1, got {jobs}")
    out = Path(out)
    fingerprints, engines = {}, {}
    for arm in study.arms:
        game = get_game(arm.game)
        fingerprints[arm.name] = game.fingerprint(arm)
        engines[arm.name] = game.engine_for(arm)
    digest = study_hash(study, fingerprints)
    old = _check_out(out, digest, study)
    out.mkdir(parents=True, exist_ok=True)
    _remove_temporaries(out)
    manifest = _Manifest(out, study, digest, fingerprints, engines)
    if old is not None:
        manifest.data["created"] = old.get("created", manifest.data["created"])
        for c in old.get("chunks", []):
            if c.get("done") and (c["arm"], c["first"]) in manifest._index:
                manifest._index[(c["arm"], c["first"])]["rows"] = c.get("rows")
    chunks = plan(study)
    todo = []
    done_games = 0
    for c in chunks:
        if chunk_done(out, c):
            manifest.mark(c.arm.name, c.first, None)
            done_games += c.count
        else:
            todo.append(c)
    (out / "study.toml").write_text(manifest.data["study_text"])
    manifest.save(complete=not todo)
    total = study.total_games
    skipped = done_games
    if on_progress:
        on_progress(done_games, total, 0)
    t0 = time.perf_counter()
    played = 0
    play_s = write_s = 0.0
    for res in _execute(todo, out, jobs, backend, scheduler):
        play_s += res.play_seconds
        write_s += res.write_seconds
        manifest.mark(res.arm, res.first, res.rows)
        manifest.save(complete=False)
        played += res.count
        done_games += res.count
        if on_progress:
            on_progress(done_games, total, played)
    manifest.save(complete=True)
    rows: dict[str, int] = {}
    for c in manifest.data["chunks"]:
        for k, v in (c.get("rows") or {}).items():
            rows[k] = rows.get(k, 0) + v
    return RunSummary(
        out=out, games_played=played, games_skipped=skipped, seconds=time.perf_counter() - t0,
        engines=engines, chunks=len(chunks), rows=rows, play_seconds=play_s, write_seconds=write_s,
    )  # fmt: skip
