"""The batch runner: chunks of games over a backend, Parquet out, a manifest, resumable.

The runner is the only loop over games (design principle 6). A study is cut into chunks
of consecutive game indices per arm; each chunk is played by its game
(:meth:`sims.core.game.Game.play_chunk`), turned into tables by :func:`play_tables` (which
adds the provenance columns and the win shares every game shares) and written as one
Parquet file per table, atomically (a temporary file renamed into place), into one
folder per arm (plain names, not ``key=value``: see :mod:`sims.dataset`)::

    OUT/manifest.json
    OUT/study.toml
    OUT/games/nyslice/4p/NAME/part-000000000000.parquet
    OUT/players/nyslice/4p/NAME/part-000000000000.parquet
    OUT/decisions/...   (only with decisions = true)

Every file holds the columns ``game``, ``players`` and ``arm`` itself, so pandas, pyarrow,
DuckDB and polars read a table folder with their defaults.

A chunk is finished when the runner has recorded its files (row counts, sizes, SHA-256)
in the dataset's log (:mod:`sims.dataset`); an interrupted run resumes with the same
command, replaying unrecorded chunks and skipping recorded ones, and refuses files that do
not match their records. The output directory is locked for the whole run. Every game is
seeded from (study seed, game index) alone, so the data do not depend on the chunk size,
the number of workers or the backend. Workers write their own files and return only row
counts and checksums: memory stays flat however many games are played.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sims import __version__, dataset
from sims.core.errors import SlicelabError
from sims.core.game import get_game, win_shares
from sims.core.limits import int_dtype
from sims.core.specs import import_strategies, resolved_params
from sims.core.study import Arm, Study, StudyError, data_files, parse_study, study_hash
from sims.dataset import TABLES

BACKENDS = ("joblib", "dask")


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
    files: dict[str, dict] = field(default_factory=dict)  # table -> path, rows, bytes, sha256


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
    """Where a chunk's table lives (:func:`sims.dataset.chunk_path`)."""
    return dataset.chunk_path(out, table, arm.game, arm.players, arm.name, first)


def _tables(decisions: bool) -> tuple[str, ...]:
    return TABLES if decisions else TABLES[1:]


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
    (arm, game index, seed, variant, rules version, engine, strategies), the win columns
    (``win_share`` by the game's :class:`~sims.core.game.ResultSchema` win rule,
    ``winner_seats``, ``n_winners``) and the layout columns (``arm`` first, ``game`` and
    ``players`` last in every table: :data:`sims.dataset.LAYOUT_COLUMNS`) are built here,
    once for every game.

    Returns
    -------
    dict of pyarrow.Table
        ``games`` (one row per game), ``players`` (one row per seat per game) and, when
        ``decisions`` is true, ``decisions``. Columns are documented in ``docs/dataset.md``.

    Raises
    ------
    ValueError
        When the game returns a column named like a layout column (a bug of the game).
    """
    # a worker process (joblib, Dask) never parsed the study: import its Python strategies'
    # modules from the folders the study recorded before the game builds its strategies
    import_strategies(arm.strategies, arm.code_dirs)
    game = get_game(arm.game)
    engine = engine or game.engine_for(arm)
    chunk = game.play_chunk(arm, first, count, decisions, engine)
    schema = game.results
    n = arm.players
    seat_type = int_dtype(game.info.max_players)  # seats and winner counts, from the range
    fp = game.fingerprint(arm)
    shares = win_shares([chunk.seats[k] for k in schema.win_keys])
    won = shares > 0
    offsets = np.concatenate([[0], np.cumsum(won.sum(axis=1))]).astype(np.int32)
    winners = pa.ListArray.from_arrays(
        pa.array(offsets), pa.array(np.nonzero(won)[1].astype(seat_type))
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
            "n_winners": won.sum(axis=1).astype(seat_type),
            **{c: chunk.games[c] for c in schema.game_columns},
        }
    )
    built = [game.make_strategy(s) for s in arm.strategies]
    specs = [b.spec for b in built]
    # every seat's parameters as it played them (defaults and presets resolved at this
    # player count, not the spec's few), as sorted JSON: the same bytes from any worker
    params = [json.dumps(resolved_params(b, n), sort_keys=True, default=str) for b in built]
    rep = count * n
    players = pa.table(
        {
            "arm": pa.array([arm.name] * rep, pa.string()),
            "game_index": np.repeat(idx, n),
            "seat": np.tile(np.arange(n, dtype=seat_type), count),
            "strategy": pa.array([str(s) for s in specs] * count, pa.string()),
            "strategy_family": pa.array([s.name for s in specs] * count, pa.string()),
            "strategy_params": pa.array(params * count, pa.string()),
            **{c: _column(chunk.seats[c], rep) for c in schema.seat_columns},
            "win_share": shares.ravel(),
        }
    )
    tables = {"games": games, "players": players}
    if decisions:
        recs = chunk.decisions
        arms = pa.array([arm.name] * recs.num_rows, pa.string())
        tables["decisions"] = recs.add_column(0, "arm", arms)
    return {name: _with_layout(name, t, arm) for name, t in tables.items()}


def _with_layout(name: str, table: pa.Table, arm: Arm) -> pa.Table:
    """``table`` with the layout columns ``game`` (string) and ``players`` (int64) appended
    (after ``arm``, its first column): the same order and types as a hive-partitioned
    read of slicelab's format-2 datasets gave."""
    clash = set(table.column_names[1:]) & set(dataset.LAYOUT_COLUMNS)
    if clash or table.column_names[:1] != ["arm"]:
        raise ValueError(f"{arm.game}'s {name} table has columns {sorted(clash)} named like "
                         f"the layout columns {list(dataset.LAYOUT_COLUMNS)}")  # fmt: skip
    rows = table.num_rows
    table = table.append_column("game", pa.array([arm.game] * rows, pa.string()))
    return table.append_column("players", pa.array(np.full(rows, arm.players, dtype=np.int64)))


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


def one_arm(arm: dict, seed: int, source: str = "command line", allow_code: bool = False) -> Arm:
    """A validated arm from an arm-block dict (as a study file would give it); Python
    strategies only with ``allow_code``."""
    data = {"seed": seed, "name": "arms", "arms": [arm]}
    return parse_study(data, source=source, allow_code=allow_code).arms[0]


def _parent_watch(owner: int | None) -> None:
    """In a local worker: die with the main process (``owner``) instead of playing on.

    Linux's parent-death signal ends the worker at once when the process that started it
    dies (a SIGKILL, say, which no handler sees); elsewhere the check before each write
    stops it writing."""
    global _WATCHED
    if owner is None or owner == _WATCHED:
        return
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    _WATCHED = owner
    _check_parent(owner)


_WATCHED: int | None = None


def _check_parent(owner: int | None) -> None:
    if owner is not None and os.getppid() != owner:
        os._exit(1)  # the run this worker served is gone: write nothing


def run_and_write(out: str, chunk: Chunk, owner: int | None = None) -> ChunkResult:
    """Play one chunk and write its tables atomically (runs in a worker).

    Returns the row count, size and SHA-256 of every file written, which the runner
    records; ``owner`` is the pid of the local run this worker serves (None on Dask)."""
    _parent_watch(owner)
    t0 = time.perf_counter()
    decisions = chunk.arm.decisions
    tables = play_tables(chunk.arm, chunk.first, chunk.count, decisions)
    t1 = time.perf_counter()
    files = {}
    for name in _tables(decisions):
        path = chunk_path(Path(out), name, chunk.arm, chunk.first)
        sink = pa.BufferOutputStream()
        pq.write_table(tables[name], sink, compression="zstd")
        data = sink.getvalue().to_pybytes()
        _check_parent(owner)
        path.parent.mkdir(parents=True, exist_ok=True)
        dataset.atomic_write(path, data)
        files[name] = {
            "path": path.relative_to(out).as_posix(), "rows": tables[name].num_rows,
            "bytes": len(data), "sha256": dataset.digest(data),
        }  # fmt: skip
    t2 = time.perf_counter()
    rows = {t: f["rows"] for t, f in files.items()}
    return ChunkResult(chunk.arm.name, chunk.first, chunk.count, rows, t2 - t0, t1 - t0, t2 - t1,
                       files)  # fmt: skip


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


def new_manifest(
    study: Study, digest: str, fingerprints: dict, engines: dict, size: str | None
) -> dict[str, Any]:
    """The manifest of a new dataset: the study, its identity and every planned chunk."""
    return {
        "format": dataset.FORMAT,
        "study_name": study.name,
        "study_file": study.source,
        "study_dir": str(Path(study.source).parent.absolute()) if study.text else None,
        "size": size,
        "study_hash": digest,
        "study": study.as_dict(),
        "study_text": study.text or study_toml(study),
        "fingerprints": fingerprints,
        "inputs": inputs_of(study),
        "engines": engines,
        "seeds": {a.name: a.seed for a in study.arms},
        "code_version": code_version(),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "updated": None,
        "complete": False,
        "tables": list(_tables(study.any_decisions)),
        "chunks": [
            {"arm": c.arm.name, "first": c.first, "count": c.count, "rows": None, "files": None}
            for c in plan(study)
        ],
    }


def inputs_of(study: Study) -> dict[str, dict[str, str]]:
    """The data files a study reads, kept in its manifest so that the dataset can be
    resumed or repaired after they moved or changed: resolved path → SHA-256 and text."""
    inputs = {}
    for arm in study.arms:
        for path in data_files(arm).values():
            raw = path.read_bytes()
            inputs[str(path)] = {"sha256": dataset.digest(raw), "text": raw.decode("utf-8-sig")}
    return inputs


def _input_copies(m: dict[str, Any], out: Path | None) -> dict[str, str]:
    """Paths to read in place of the manifest's data files that are gone or changed: the
    manifest's copies, written under ``OUT/inputs/`` (where a Dask worker sees them too)."""
    if out is None:
        return {}
    files = {}
    for path, rec in (m.get("inputs") or {}).items():
        p = Path(path)
        try:
            same = p.is_file() and dataset.file_digest(p) == rec["sha256"]
        except OSError:
            same = False
        if same:
            continue
        copy = out / "inputs" / rec["sha256"][:16] / p.name
        if not copy.is_file() or dataset.file_digest(copy) != rec["sha256"]:
            copy.parent.mkdir(parents=True, exist_ok=True)
            dataset.atomic_write(copy, rec["text"].encode("utf-8"))
        files[path] = str(copy)
    return files


def read_manifest(out: str | Path) -> dict:
    """The manifest of a dataset directory (see :func:`sims.dataset.read_manifest`)."""
    return dataset.public(dataset.read_manifest(out))


def identity(study: Study) -> tuple[str, dict, dict]:
    """A study's hash, its arms' fingerprints and engines.

    The fingerprint of an arm is its game's (deck, rules, variant) plus the resolved
    parameters of every seat, so a preset changed between runs makes another study."""
    fingerprints, engines = {}, {}
    for arm in study.arms:
        game = get_game(arm.game)
        fingerprints[arm.name] = {
            **game.fingerprint(arm),
            "seats": [game.strategy_identity(s, arm.players) for s in arm.strategies],
        }
        engines[arm.name] = game.engine_for(arm)
    return study_hash(study, fingerprints), fingerprints, engines


def _open_out(out: Path) -> None:
    """Create the output directory (and any missing parents, removed again if it fails),
    turning the OS's refusals into one-line errors."""
    top = out
    while not top.parent.exists() and top.parent != top:
        top = top.parent
    created = not top.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / f".write-test-{uuid.uuid4().hex}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        if created:
            shutil.rmtree(top, ignore_errors=True)
        raise SlicelabError(
            f"cannot write the dataset folder {out}: {exc.strerror or exc}; choose a writable --out"
        ) from None


def _existing(out: Path) -> bool:
    """Whether ``out`` exists as a folder (a file, or a path the OS refuses, is an error)."""
    try:
        if out.exists() and not out.is_dir():
            raise SlicelabError(f"--out {out} is a file; give a directory for the dataset")
        return out.exists()
    except OSError as exc:
        raise SlicelabError(f"--out {out}: {exc.strerror or exc}; choose another --out") from None


def _resume_state(out: Path, digest: str, study: Study) -> dict | None:
    """The existing manifest of ``out`` if it holds this study (None for a new dataset);
    refuses another study's data or a folder holding something else. Reads only."""
    if not _existing(out):
        return None
    if not (out / dataset.MANIFEST).exists():
        others = [p for p in out.iterdir() if p.name not in (dataset.LOCK, dataset.HOLDER)]
        if others:
            raise SlicelabError(
                f"{out} is not empty and holds no {dataset.MANIFEST}; choose an empty or new --out"
            )
        return None
    old = dataset.read_manifest(out)
    if old.get("format") != dataset.FORMAT:  # readable, but never extended
        raise StudyError(dataset.SPEC_PARAMS.format(out=out))
    if old.get("study_hash") != digest:
        raise StudyError(
            f"{out} holds the data of another study ({old.get('study_name')!r}, hash "
            f"{old.get('study_hash')}; this one is {study.name!r}, hash {digest}); results are "
            "never mixed: choose another --out, or delete that directory to start over"
        )
    size = old["study"].get("chunk_size")
    if size != study.chunk_size:
        raise StudyError(
            f"{out} was written with chunk_size {size}; resume it with that chunk size "
            f"(--chunk-size {size}), or choose another --out"
        )
    return old


def _remove_temporaries(out: Path) -> None:
    for tmp in out.rglob(".*.tmp"):
        tmp.unlink(missing_ok=True)


def _execute(todo: list[Chunk], out: Path, jobs: int, client) -> Iterator[ChunkResult]:
    if client is not None:
        yield from _execute_dask(todo, out, client)
        return
    owner = os.getpid() if jobs > 1 else None  # jobs == 1 plays in this very process
    yield from _local_map(run_and_write, [(str(out), c, owner) for c in todo], jobs, ordered=False)


def _execute_dask(todo: list[Chunk], out: Path, client) -> Iterator[ChunkResult]:
    """Chunks on a Dask cluster; a cluster lost mid-run is a one-line error (finished
    chunks are kept)."""
    from dask.distributed import as_completed
    from distributed.comm.core import CommClosedError

    futures = [client.submit(run_and_write, str(out), c, None, pure=False) for c in todo]
    try:
        for fut in as_completed(futures):
            yield fut.result()
    except (CommClosedError, TimeoutError, CancelledError) as exc:
        raise SlicelabError(
            f"lost the Dask scheduler {client.scheduler.address} mid-run ({_first_line(exc)}); "
            "finished chunks are kept: run the same command to resume"
        ) from None
    finally:
        with contextlib.suppress(Exception):
            client.cancel([f for f in futures if not f.done()])


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _local_map(fn: Callable, calls: list[tuple], jobs: int, ordered: bool) -> Iterator:
    """``fn(*args)`` for each call, in this process (``jobs == 1``) or on joblib workers,
    as a generator (in call order when ``ordered``, else as they finish)."""
    if jobs == 1:
        yield from (fn(*args) for args in calls)
        return
    from joblib import Parallel, delayed
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    parallel = Parallel(n_jobs=jobs, return_as="generator" if ordered else "generator_unordered")
    try:
        yield from parallel(delayed(fn)(*args) for args in calls)
    except TerminatedWorkerError as exc:
        # a worker killed by the OS (out of memory) or by a fault in compiled code: a fault
        # is a bug in slicelab, and the reference engine plays the same games without one
        raise SlicelabError(
            f"a worker process died ({_exit_cause(exc)}); finished chunks are kept. If it was "
            "not killed for memory, this is a slicelab bug: please report the command; "
            "engine = 'reference' (--engine reference) plays the same games"
        ) from None


def _exit_cause(exc: BaseException) -> str:
    """``SIGSEGV`` or ``exit code 3``, from joblib's message about a dead worker (it lists
    the workers' exit codes as ``{SIGSEGV(-11), EXIT(3)}``)."""
    import re

    found = re.search(r"exit codes of the workers are \{([A-Z]+)\((-?\d+)\)", str(exc))
    if not found:
        return "cause unknown"
    name, code = found.groups()
    return name if name.startswith("SIG") else f"exit code {code}"


def check_run_options(jobs: int, backend: str, scheduler: str | None) -> None:
    """Refuse run options that cannot work, before anything is written."""
    if backend not in BACKENDS:
        raise SlicelabError(f"unknown backend {backend!r}; use one of {list(BACKENDS)}")
    if backend == "dask":
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            raise SlicelabError(
                "the dask backend needs dask.distributed: pip install 'slicelab[cluster]'"
            ) from None
        if not scheduler:
            raise SlicelabError(
                "--backend dask needs --scheduler tcp://HOST:PORT of a running Dask cluster"
            )
    cores = available_cores()
    if not isinstance(jobs, int) or jobs < 1:
        raise SlicelabError(f"--jobs must be at least 1, got {jobs}")
    if jobs > cores:
        raise SlicelabError(
            f"--jobs {jobs} is more than the {cores} cores available here; use --jobs {cores} "
            "or fewer (for more workers, use --backend dask with a cluster)"
        )


def available_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_study(
    study: Study,
    out: str | Path,
    jobs: int = 1,
    backend: str = "joblib",
    scheduler: str | None = None,
    on_progress: Callable[[int, int, int], None] | None = None,
    size: str | None = None,
    on_start: Callable[[], None] | None = None,
) -> RunSummary:
    """Run (or resume) a study into a dataset directory.

    Parameters
    ----------
    study : Study
        A validated study (:func:`sims.core.study.load_study`).
    out : path
        Dataset directory; created if missing. If it already holds this study's data
        the run resumes, skipping finished chunks; another study's data are refused, and
        so are files that do not match the manifest (see :func:`sims.dataset.problems`).
        The directory is locked for the whole run: a second writer is refused.
    jobs : int
        Worker processes for the joblib backend (1: run in this process); at most the
        cores available.
    backend : {"joblib", "dask"}
        ``dask`` sends chunks to the cluster at ``scheduler``; its workers must see ``out``
        (sent as an absolute path).
    on_progress : callable, optional
        Called as ``on_progress(games_done, games_total, games_this_run)`` after each chunk.
    size : str, optional
        The study size it was loaded at (recorded, so that ``slicelab repair`` can rebuild it).
    on_start : callable, optional
        Called once every check has passed, just before the first game is played.

    Returns
    -------
    RunSummary

    Raises
    ------
    SlicelabError
        For run options that cannot work, an output folder that cannot be written or holds
        something else, or a write that fails (a full disk): nothing is lost, and the same
        command resumes.
    """
    check_run_options(jobs, backend, scheduler)
    out = Path(out).absolute()
    digest, fingerprints, engines = identity(study)
    # Refuse early, before anything is created: a folder another run is writing (whatever
    # it holds so far), then one holding something else.
    running = dataset.writer_active(out) if _existing(out) else None
    if running:
        raise dataset.busy_error(out, running)
    _resume_state(out, digest, study)
    client = _connect(scheduler) if backend == "dask" else None
    try:
        _open_out(out)
        with dataset.writer_lock(out):
            old = _resume_state(out, digest, study)  # again, now that no one else writes
            manifest = new_manifest(study, digest, fingerprints, engines, size)
            if on_start:
                on_start()
            return _run_locked(study, out, jobs, client, on_progress, manifest, old)
    finally:
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()


def _connect(scheduler: str):
    """A client of the Dask scheduler (the connect timeout is dask's own setting,
    ``distributed.comm.timeouts.connect``)."""
    from dask.distributed import Client

    try:
        return Client(scheduler)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SlicelabError(
            f"cannot reach the Dask scheduler {scheduler} ({_first_line(exc)}); start it, or "
            "check the address (tcp://HOST:PORT)"
        ) from None


def _run_locked(
    study: Study, out: Path, jobs: int, client, on_progress, manifest: dict, old: dict | None
) -> RunSummary:
    _remove_temporaries(out)
    recorder = dataset.Recorder(out, manifest)
    if old is not None:
        manifest["created"] = old.get("created", manifest["created"])
        for c in old["chunks"]:
            if c["files"] is not None and (c["arm"], c["first"]) in recorder._index:
                recorder._index[(c["arm"], c["first"])].update(files=c["files"], rows=c["rows"])
        found = dataset.problems(out, {**old, "chunks": manifest["chunks"]}, deep=True)
        damaged = [p for p in found if p.what != "unfinished"]
        if damaged:
            raise dataset.DatasetError(dataset.describe(out, damaged, old))
        for p in found:  # an interrupted chunk's files: replaced by playing it again
            (out / p.path).unlink(missing_ok=True)
    chunks = plan(study)
    todo = [c for c in chunks if not recorder.done(c.arm.name, c.first)]
    done_games = sum(c.count for c in chunks) - sum(c.count for c in todo)
    dataset.atomic_write(out / "study.toml", manifest["study_text"].encode())
    recorder.compact()
    total = study.total_games
    skipped = done_games
    if on_progress:
        on_progress(done_games, total, 0)
    t0 = time.perf_counter()
    played = 0
    play_s = write_s = 0.0
    try:
        for res in _execute(todo, out, jobs, client):
            play_s += res.play_seconds
            write_s += res.write_seconds
            recorder.land(res.arm, res.first, res.files)
            played += res.count
            done_games += res.count
            if on_progress:
                on_progress(done_games, total, played)
        recorder.compact()
    except OSError as exc:
        with contextlib.suppress(OSError):  # the log keeps what landed if this fails too
            recorder.compact()
        raise SlicelabError(
            f"writing {out} failed: {exc.strerror or exc}; finished chunks are kept: fix the "
            "cause (e.g. free disk space) and run the same command to resume"
        ) from None
    except BaseException:
        with contextlib.suppress(OSError):
            recorder.compact()
        raise
    if todo:
        missing = [p for p in dataset.problems(out, dataset.read_manifest(out), deep=False)
                   if p.what == "missing"]  # fmt: skip
        if missing:  # e.g. Dask workers that wrote into their own working directory
            bad = {p.chunk for p in missing}
            for c in manifest["chunks"]:
                if dataset.chunk_label(c) in bad:
                    recorder.forget(c["arm"], c["first"])
            recorder.compact()
            raise SlicelabError(
                f"{len(missing)} file(s) the workers reported are not in {out} (first: "
                f"{missing[0].path}); with --backend dask every worker must see --out at the same "
                "absolute path"
            )
    rows: dict[str, int] = {}
    for c in manifest["chunks"]:
        for k, v in (c.get("rows") or {}).items():
            rows[k] = rows.get(k, 0) + v
    return RunSummary(
        out=out, games_played=played, games_skipped=skipped, seconds=time.perf_counter() - t0,
        engines=manifest["engines"], chunks=len(chunks), rows=rows, play_seconds=play_s,
        write_seconds=write_s,
    )  # fmt: skip


def rebuild_study(m: dict[str, Any], allow_code: bool = False, out: Path | None = None) -> Study:
    """The study a manifest was written from, re-read from the text it recorded.

    Data files that have moved or changed since are read from the manifest's own copies
    (written under ``out``), so that a dataset moved with its checkout still repairs.

    Raises
    ------
    SlicelabError
        When the text no longer resolves to the same study (a data file or preset changed
        since), so that replaying chunks would mix two studies.
    """
    import tomllib

    base = Path(m["study_dir"]) if m.get("study_dir") else None
    data = tomllib.loads(m["study_text"])
    study = parse_study(data, m["study_file"], base, m["study_text"], m.get("size"), allow_code,
                        _input_copies(m, out))  # fmt: skip
    if study.name != m["study_name"]:  # a command-line study names itself after its folder
        study = replace(study, name=m["study_name"])
    if identity(study)[0] != m["study_hash"]:
        raise SlicelabError(
            f"the study recorded in the manifest no longer resolves to the data's identity "
            f"(hash {m['study_hash']}): a deck, a preset or the code changed since it was run; "
            "re-run the study into a new --out"
        )
    return study


def repair(
    out: str | Path, jobs: int = 1, backend: str = "joblib", scheduler: str | None = None,
    allow_code: bool = False, on_progress: Callable[[int, int, int], None] | None = None,
    before_play: Callable[[Study], None] | None = None,
) -> tuple[list[dataset.Problem], RunSummary]:  # fmt: skip
    """Remove what does not match a dataset's records, then re-play the chunks it lacks.

    Files of a damaged chunk (missing, empty, altered) are deleted with its record; files
    no chunk records are deleted; then the run resumes, replaying exactly those chunks,
    after ``before_play(study)`` (the command line compiles, with its notice, the kernels
    the chunks left to play call).

    Returns
    -------
    (problems found, summary of the resumed run)
    """
    out = Path(out).absolute()
    check_run_options(jobs, backend, scheduler)
    m = dataset.read_manifest(out, mending=True)
    study = rebuild_study(m, allow_code, out)
    with dataset.writer_lock(out):
        m = dataset.read_manifest(out, mending=True)  # a damaged log's chunks: not recorded
        found = dataset.problems(out, m, deep=True)
        recorder = dataset.Recorder(out, m)
        # what is not data first (a stray file, a file where a folder belongs), so that a
        # damaged chunk's own files can be reached and new ones written
        for p in found:
            if not p.chunk or p.what in ("extra", "unfinished", "not a folder"):
                dataset.remove(out / p.path)
        bad = {p.chunk for p in found if p.chunk}
        for c in m["chunks"]:
            if dataset.chunk_label(c) in bad:
                for f in (c["files"] or {}).values():
                    dataset.remove(out / f["path"])
                recorder.forget(c["arm"], c["first"])
        for p in found:
            dataset.remove(out / p.path)
        recorder.compact()
    if before_play is not None:
        before_play(study)
    summary = run_study(study, out, jobs, backend, scheduler, on_progress, m.get("size"))
    return found, summary
