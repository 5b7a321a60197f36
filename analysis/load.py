"""Read slicelab datasets (hive-partitioned Parquet) lazily with polars."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl


def scan(out: str | Path, table: str = "players") -> pl.LazyFrame:
    """Lazily scan one table (``games``, ``players`` or ``decisions``) of a dataset.

    The partition columns ``game``, ``players`` and ``arm`` come from the directory names.
    """
    root = Path(out) / table
    if not root.is_dir():
        raise FileNotFoundError(f"{out} has no '{table}' table")
    return pl.scan_parquet(root / "**" / "*.parquet", hive_partitioning=True)


def manifest(out: str | Path) -> dict:
    """The dataset's manifest (study, hash, code version, engines, chunks)."""
    return json.loads((Path(out) / "manifest.json").read_text())
