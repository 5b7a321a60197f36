"""Read slicelab datasets (one folder of Parquet files per arm and table) lazily with polars.

Nothing here knows a game: an arm's own options are read through its game's declared
:attr:`~sims.core.game.Game.options`, and whether it is a treatment (a blanked special,
say) through the label its game gives the variant (:meth:`~sims.core.game.Game.variants`).
"""

from __future__ import annotations

import json
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sims import dataset
from sims.core.errors import SlicelabError
from sims.core.game import get_game


class MissingBlock(KeyError):
    """A study block an analysis reads is not in the dataset's study: the question it
    answers cannot be answered from this study (a report lists it with the block).

    Attributes
    ----------
    block : str
        The study block's name.
    """

    def __init__(self, out: str | Path, block: str) -> None:
        super().__init__(f"{out} has no study block {block!r}")
        self.block = block

    def __str__(self) -> str:  # KeyError would print the message quoted
        return str(self.args[0])


def require_block(out: str | Path, block: str, arms: pl.DataFrame) -> pl.DataFrame:
    """``arms`` (an :func:`arms` frame) of study block ``block``.

    Raises
    ------
    MissingBlock
        If the study has no such block.
    """
    found = arms.filter(pl.col("group") == block)
    if found.is_empty():
        raise MissingBlock(out, block)
    return found


class IncompleteDatasetWarning(UserWarning):
    """Rows read from a dataset whose run has not finished (``partial=True``)."""


def checked(out: str | Path, partial: bool = False) -> dict:
    """A dataset's manifest after :func:`sims.dataset.check`, refusing an incomplete one.

    Parameters
    ----------
    out : path
        The dataset directory.
    partial : bool
        Read an incomplete dataset (a run interrupted or still going) anyway: only its
        finished chunks, with an :class:`IncompleteDatasetWarning` naming what is missing.

    Raises
    ------
    sims.dataset.DatasetError
        When the dataset does not match its manifest, or is incomplete and ``partial`` is
        false, naming the command that completes it.
    """
    m = dataset.check(out)
    if m.get("complete", True):
        return m
    todo = [c for c in m["chunks"] if c["files"] is None]
    games = sum(c["count"] for c in todo)
    total = sum(c["count"] for c in m["chunks"])
    what = (f"{out} is incomplete: {len(todo):,} of {len(m['chunks']):,} chunks ({games:,} of "
            f"{total:,} games) are not written yet")  # fmt: skip
    if not partial:
        raise dataset.DatasetError(
            f"{what}; {dataset.resume_hint(Path(out), m)}, or pass partial=True to read the "
            "finished chunks alone"
        )
    warnings.warn(f"{what}: reading the finished chunks alone", IncompleteDatasetWarning,
                  stacklevel=3)  # fmt: skip
    return m


def scan(
    out: str | Path, table: str = "players", partial: bool = False, arms: Any = None
) -> pl.LazyFrame:
    """Lazily scan one table (``games``, ``players`` or ``decisions``) of a dataset.

    The dataset is verified first (:func:`checked`: every file present and as recorded,
    nothing extra, and every chunk written unless ``partial``), then exactly the files its
    manifest records are read (nothing else in the folder, hidden or not, is looked at).
    Every file holds the columns ``game``, ``players`` (int64) and ``arm`` itself.

    Parameters
    ----------
    arms : iterable of str, optional
        Read only these arms' files (and rows).

    Raises
    ------
    sims.dataset.DatasetError
        When the dataset does not match its manifest, naming the repair command, is
        incomplete (without ``partial``), naming the command that resumes it, or was written
        in the old hive layout, naming the fix.
    """
    m = checked(out, partial)
    root = Path(out) / table
    if table not in m.get("tables", []) or not root.is_dir():
        raise SlicelabError(f"{out} has no '{table}' table (it has {', '.join(m['tables'])})")
    every = dataset.recorded_files(m, table)
    if not every:
        raise dataset.DatasetError(
            f"{out} has no finished chunk of its '{table}' table yet; "
            f"{dataset.resume_hint(Path(out), m)}"
        )
    if arms is not None:
        arms = list(arms)
    chosen = every if arms is None else dataset.recorded_files(m, table, arms)
    # an arm without files (not played yet): one file read for its schema, no rows kept
    paths = [str(Path(out) / rel) for rel in chosen or every[:1]]
    lazy = pl.scan_parquet(paths, hive_partitioning=False, glob=False)
    if arms is not None:
        lazy = lazy.filter(pl.col("arm").is_in(arms))
    return lazy


def manifest(out: str | Path, partial: bool = False) -> dict:
    """The dataset's manifest (study, hash, code version, engines, chunks), after
    verifying its files (:func:`checked`)."""
    return dataset.public(checked(out, partial))


def study_game(m: dict) -> str:
    """The game every arm of a manifest's study plays.

    Raises
    ------
    SlicelabError
        When the arms play several games (or none).
    """
    names = sorted({a["game"] for a in m["study"]["arms"]})
    if len(names) != 1:
        raise SlicelabError(
            f"the study's arms play {len(names)} games ({', '.join(names) or 'none'}); a "
            "report reads a study of one game"
        )
    return names[0]


def arm_options(arm: dict) -> dict[str, Any]:
    """The game's own options of a manifest arm (the keys its game declares)."""
    return {o.key: arm[o.key] for o in get_game(arm["game"]).options if o.key in arm}


def treatment(arm: dict) -> str:
    """The label the arm's game gives its variant (``""`` for the game as published, e.g.
    ``".blank-dibs"`` for New York Slice with Dibs! blanked)."""
    game = get_game(arm["game"])
    options = arm_options(arm)
    try:
        variants = game.variants(options, arm["players"], None)
    except (SlicelabError, OSError, ValueError, TypeError, KeyError):
        variants = []
    if len(variants) == 1:
        return variants[0].label
    # the game could not re-read the options (e.g. a data file moved): name what is set
    values = [o.key for o in game.options if o.kind == "value"]
    return "".join(f".{k}-{options[k]}" for k in values if options.get(k) is not None)


def _value_columns(arms: list[dict]) -> list[str]:
    """The ``value`` options of the games in ``arms`` (one column each in :func:`arms`)."""
    keys: list[str] = []
    for name in dict.fromkeys(a["game"] for a in arms):
        keys += [o.key for o in get_game(name).options if o.kind == "value" and o.key not in keys]
    return keys


def _cell(v: Any) -> str | None:
    return v if v is None or isinstance(v, str) else json.dumps(v)


def arms(out: str | Path, partial: bool = False) -> pl.DataFrame:
    """One row per arm of a dataset, from its manifest: ``arm``, ``game``, ``group`` (the
    study block it was expanded from), ``players``, ``rotation``, ``treatment`` (see
    :func:`treatment`), ``seed``, ``games``, ``strategies`` (one spec per seat), one column
    per ``value`` option of the game (New York Slice: ``blank``) and one per grid key of
    the study (its value in the arm: a float when every value is a number).

    The dataset is verified on every call; the frame is built once per dataset state (a
    report asks for it in every section, and a study of two thousand arms takes tens of
    milliseconds to lay out), cached as :func:`block_frames` caches its frames."""
    manifest(out, partial)  # verified here, on every call
    m = Path(out) / "manifest.json"
    stat = m.stat()
    return _arms(str(m.resolve()), stat.st_size, stat.st_mtime_ns, partial)


@lru_cache(maxsize=64)
def _arms(manifest_path: str, size: int, mtime: int, partial: bool) -> pl.DataFrame:
    raw = manifest(Path(manifest_path).parent, partial)["study"]["arms"]
    values = _value_columns(raw)
    grid_keys = list(dict.fromkeys(k for a in raw for k in a.get("grid", {})))
    base = [
        {
            "arm": a["name"],
            "game": a["game"],
            "group": a.get("group", a["name"]),
            "players": a["players"],
            "rotation": a.get("rotation", 0),
            "treatment": treatment(a),
            "seed": a["seed"],
            "games": a["games"],
            "strategies": a["strategies"],
        }
        for a in raw
    ]
    schema: dict[str, pl.DataType] = {
        "arm": pl.String(), "game": pl.String(), "group": pl.String(), "players": pl.Int64(),
        "rotation": pl.Int64(), "treatment": pl.String(), "seed": pl.Int64(),
        "games": pl.Int64(), "strategies": pl.List(pl.String),
    }  # fmt: skip
    frame = pl.DataFrame(base, schema=schema)
    extra = []
    for k in values:
        extra.append(pl.Series(k, [_cell(a.get(k)) for a in raw], pl.String))
    for k in grid_keys:
        col = [a.get("grid", {}).get(k) for a in raw]
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in col
                      if v is not None)  # fmt: skip
        if numeric:
            extra.append(pl.Series(k, [None if v is None else float(v) for v in col], pl.Float64))
        else:
            extra.append(pl.Series(k, [_cell(v) for v in col], pl.String))
    return frame.with_columns(extra) if extra else frame


def rows(
    out: str | Path, table: str = "players", group: str | None = None, partial: bool = False
) -> pl.DataFrame:
    """A table's rows joined with their arm's metadata (``group``, ``rotation``,
    ``treatment``, the game's ``value`` options and the grid values of :func:`arms`),
    optionally only one study block (``partial``: see :func:`checked`)."""
    meta = arms(out, partial).drop("game", "players", "seed", "games", "strategies")
    if group is not None:
        meta = require_block(out, group, meta)
    # a block's arms alone: only their files are read
    lazy = scan(out, table, partial, arms=None if group is None else meta["arm"].to_list())
    have = set(lazy.collect_schema().names())
    meta = meta.select("arm", *[c for c in meta.columns if c != "arm" and c not in have])
    # the files' row order kept: every analysis reads the same rows in the same order, so
    # its sums (and their last bits) are the same on every run
    frame = lazy.join(meta.lazy(), on="arm", how="inner", maintain_order="left").collect()
    return frame.with_columns(pl.col("players").cast(pl.Int64))


def game_ids(frame: pl.DataFrame) -> np.ndarray:
    """A game's identity in a frame of one block: its arm and ``game_index``."""
    return (frame["arm"].cast(pl.String) + "/" + frame["game_index"].cast(pl.String)).to_numpy()


def untreated(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of arms that play the game as published (no treatment variant)."""
    return frame.filter(pl.col("treatment") == "")


def block_frames(out: str | Path, group: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A study block's ``players`` and ``games`` rows, of its untreated arms.

    Read once per dataset state: a report reads a block in several sections, and each read
    verifies the dataset, so the frames are cached by the manifest's path, size and
    modification time (a rewritten dataset is read again).

    Parameters
    ----------
    out : path
        The dataset directory.
    group : str
        The study block.

    Returns
    -------
    (pl.DataFrame, pl.DataFrame)
        :func:`untreated` :func:`rows` of the ``players`` and the ``games`` table.
    """
    m = Path(out) / "manifest.json"
    stat = m.stat()
    return _block_frames(str(m.resolve()), stat.st_size, stat.st_mtime_ns, group)


@lru_cache(maxsize=256)
def _block_frames(
    manifest_path: str, size: int, mtime: int, group: str
) -> tuple[pl.DataFrame, pl.DataFrame]:
    out = Path(manifest_path).parent
    return untreated(rows(out, "players", group)), untreated(rows(out, "games", group))


def uniform_blocks(out: str | Path) -> list[str]:
    """Study blocks whose untreated arms seat one strategy in every seat, one arm per
    player count, in study order: the blocks the seat and player-count analyses read."""
    a = arms(out).filter(pl.col("treatment") == "")
    found = []
    for (group,), sub in a.group_by("group", maintain_order=True):
        same = all(len(set(s)) == 1 for s in sub["strategies"])
        if same and sub["players"].n_unique() == sub.height:
            found.append(group)
    return found
