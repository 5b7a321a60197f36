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


def arms(out: str | Path) -> pl.DataFrame:
    """One row per arm of a dataset, from its manifest: ``arm``, ``group`` (the study block
    it was expanded from), ``players``, ``rotation``, ``blank``, ``seed``, ``games``,
    ``strategies`` (one spec per seat) and ``theta`` (the block's grid value, if any)."""
    rows = []
    for a in manifest(out)["study"]["arms"]:
        grid = a.get("grid", {})
        rows.append(
            {
                "arm": a["name"],
                "group": a.get("group", a["name"]),
                "players": a["players"],
                "rotation": a.get("rotation", 0),
                "blank": a.get("blank"),
                "seed": a["seed"],
                "games": a["games"],
                "strategies": a["strategies"],
                "theta": float(grid["theta"]) if "theta" in grid else None,
            }
        )
    return pl.DataFrame(
        rows,
        schema={
            "arm": pl.String, "group": pl.String, "players": pl.Int64, "rotation": pl.Int64,
            "blank": pl.String, "seed": pl.Int64, "games": pl.Int64,
            "strategies": pl.List(pl.String), "theta": pl.Float64,
        },
    )  # fmt: skip


def rows(out: str | Path, table: str = "players", group: str | None = None) -> pl.DataFrame:
    """A table's rows joined with their arm's metadata (``group``, ``rotation``, ``blank``,
    ``theta``), optionally only one study block."""
    meta = arms(out).select("arm", "group", "rotation", "blank", "theta")
    if group is not None:
        meta = meta.filter(pl.col("group") == group)
        if meta.is_empty():
            raise KeyError(f"{out} has no study block {group!r}")
    frame = scan(out, table).join(meta.lazy(), on="arm", how="inner").collect()
    return frame.with_columns(pl.col("players").cast(pl.Int64))
