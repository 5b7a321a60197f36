"""Synthetic slicelab datasets with hand-chosen values, for testing ``analysis/``.

A :class:`SyntheticDataset` writes the layout of ``docs/dataset.md``: ``manifest.json``
with the arms (as ``Arm.as_dict`` writes them) and one Parquet file per arm and table where
the runner puts it (``sims.dataset.chunk_path``: ``OUT/<table>/nyslice/<N>p/<arm>/
part-000000000000.parquet``), holding the layout columns as the runner's do (``arm``
first, ``game`` and ``players`` last). Only the columns the analyses read need to be
given; their types are those of the real tables (``seat`` int8, ``score`` int16, ``phase``
categorical, ...).

Also the reference statistics the tests compare against (written out, or scipy's) and
:func:`row`, shared by ``tests/test_analysis.py`` and
``tests/games/nyslice/test_nyslice_analysis.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

Z = stats.norm.ppf(0.975)
ELO = 400 / math.log(10)
approx = pytest.approx


def wilson(k: float, n: int) -> tuple[float, float]:
    """The Wilson score interval, written out (for fractional ``k``; integer ``k`` is
    checked against scipy)."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def scipy_wilson(k: int, n: int) -> tuple[float, float]:
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return ci.low, ci.high


def t_interval(x) -> tuple[float, float, float]:
    """Mean and 95% t interval from scipy."""
    x = np.asarray(x, dtype=float)
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    return x.mean(), lo, hi


def row(table: pl.DataFrame, **keys) -> dict:
    """The one row of ``table`` matching ``keys``."""
    sub = table.filter(*[pl.col(k) == v for k, v in keys.items()])
    assert sub.height == 1, f"{keys}: {sub.height} rows"
    return sub.row(0, named=True)


DTYPES: dict[str, pl.DataType] = {
    # games and players
    "game_index": pl.Int64(),
    "n_winners": pl.Int8(),
    "majorities_unclaimed": pl.Int8(),
    "seat": pl.Int8(),
    "strategy": pl.String(),
    "score": pl.Int16(),
    "eaten": pl.Int16(),
    "win_share": pl.Float64(),
    "times_slicer": pl.Int8(),
    "specials_owned_mask": pl.Int32(),
    # decisions
    "round": pl.Int8(),
    "slicer": pl.Int8(),
    "phase": pl.Categorical(),
    "action": pl.Int32(),
    "n_legal": pl.Int32(),
    "slice_kind": pl.Int8(),
    "type_a": pl.Int8(),
    "pepperoni": pl.Int8(),
    "own_count2": pl.Int16(),
    "rival_count2": pl.Int16(),
}

SPECIAL_BITS = {
    "cut_in_line": 0, "dibs": 1, "sneak_a_slice": 2, "mystery_slice": 3, "combo_cravings": 4,
    "you_love_veggies": 5, "seconds": 6, "super_sized_combos": 7, "tie_breaker": 8,
    "you_like_anchovies": 9, "buffet": 10, "day_old_pizza": 11, "everyone_elses_diet": 12,
    "stuffed_crust": 13,
}  # fmt: skip
"""Bit of each special in ``specials_owned_mask`` (``sims.games.nyslice.deck.Special``)."""


def mask(*slugs: str) -> int:
    """``specials_owned_mask`` of a player holding ``slugs``."""
    return sum(1 << SPECIAL_BITS[s] for s in slugs)


def one_hot(winners: list[int], n: int) -> np.ndarray:
    """(games, n) win shares where game ``g`` is won outright by seat ``winners[g]``."""
    share = np.zeros((len(winners), n))
    share[np.arange(len(winners)), winners] = 1.0
    return share


class SyntheticDataset:
    """Build a dataset directory arm by arm, then :meth:`write` its manifest."""

    def __init__(self, out: str | Path, game: str = "nyslice") -> None:
        self.out = Path(out)
        self.game = game
        self.arms: dict[str, dict] = {}

    def arm(
        self,
        name: str,
        players: int,
        strategies: list[str] | str = "heuristic",
        games: int = 0,
        seed: int = 1,
        group: str | None = None,
        rotation: int = 0,
        blank: str | None = None,
        grid: dict | None = None,
        decisions: bool = False,
    ) -> str:
        """Declare an arm (one spec for every seat, or a list of ``players`` specs)."""
        specs = [strategies] * players if isinstance(strategies, str) else list(strategies)
        assert len(specs) == players, "one strategy per seat"
        a = {
            "name": name,
            "game": self.game,
            "players": players,
            "strategies": specs,
            "games": games,
            "seed": seed,
            "deck": None,
            "engine": "kernel",
            "rules": {},
        }
        if blank is not None:
            a["blank"] = blank
        if decisions:
            a["decisions"] = True
        if group is not None and group != name:
            a["group"] = group
        if rotation:
            a["rotation"] = rotation
        if grid:
            a["grid"] = dict(grid)
        self.arms[name] = a
        return name

    def table(self, table: str, arm: str, columns: dict[str, list | np.ndarray]) -> Path:
        """Write one arm's rows of a table (``columns``: name -> values, equal lengths)."""
        from sims import dataset

        a = self.arms[arm]
        height = len(next(iter(columns.values())))
        assert not set(columns) & set(dataset.LAYOUT_COLUMNS), "the layout columns are written"
        cols = {"arm": pl.Series("arm", [arm] * height, pl.String)}
        for c, v in columns.items():
            series = pl.Series(c, v.tolist() if isinstance(v, np.ndarray) else list(v))
            dtype = DTYPES.get(c)
            if dtype is not None and dtype.is_integer() and series.dtype.is_float():
                assert (series == series.round()).all(), f"{c} must hold whole numbers"
            cols[c] = series if dtype is None else series.cast(dtype)
        cols["game"] = pl.Series("game", [self.game] * height, pl.String)
        cols["players"] = pl.Series("players", [a["players"]] * height, pl.Int64)
        path = self._path(table, arm)
        path.parent.mkdir(parents=True, exist_ok=True)
        pl.DataFrame(cols).write_parquet(path)
        return path

    def _path(self, table: str, arm: str) -> Path:
        """Where the runner would write the arm's (one) chunk of ``table``."""
        from sims import dataset

        return dataset.chunk_path(self.out, table, self.game, self.arms[arm]["players"], arm, 0)

    def players(self, arm: str, first: int = 0, **per_seat) -> Path:
        """Write a ``players`` table from (games, seats) matrices, e.g. ``win_share=``.

        A value of shape ``(seats,)`` is the same in every game (``times_slicer``); the
        arm's strategies fill ``strategy`` unless given. Games are numbered from ``first``.
        """
        a = self.arms[arm]
        n = a["players"]
        shapes = [np.shape(v) for v in per_seat.values() if np.ndim(v) == 2]
        games = shapes[0][0]
        assert all(s == (games, n) for s in shapes), f"matrices must be (games, {n})"
        cols: dict[str, np.ndarray | list] = {
            "game_index": np.repeat(np.arange(first, first + games), n),
            "seat": np.tile(np.arange(n), games),
        }
        per_seat.setdefault("strategy", a["strategies"])
        for c, v in per_seat.items():
            v = np.asarray(v)
            v = np.broadcast_to(v, (games, n)) if v.ndim == 1 else v
            cols[c] = v.ravel()
        a["games"] = max(a["games"], first + games)
        return self.table("players", arm, cols)

    def games(self, arm: str, first: int = 0, **per_game) -> Path:
        """Write a ``games`` table from one list per column (games numbered from ``first``)."""
        count = len(next(iter(per_game.values())))
        return self.table("games", arm, {"game_index": np.arange(first, first + count), **per_game})

    def decisions(self, arm: str, rows: list[dict]) -> Path:
        """Write a ``decisions`` table from one dict per decision."""
        return self.table("decisions", arm, {c: [r[c] for r in rows] for c in rows[0]})

    def write(self) -> Path:
        """Write ``manifest.json`` (the runner's format, ``sims.dataset.FORMAT``: one chunk
        per arm, recording the files written, as the runner would) and return the dataset
        directory."""
        from sims import dataset

        self.out.mkdir(parents=True, exist_ok=True)
        chunks, tables = [], set()
        for name, a in self.arms.items():
            files = {}
            for table in dataset.TABLES:
                path = self._path(table, name)
                if not path.is_file():
                    continue
                tables.add(table)
                files[table] = {
                    "path": path.relative_to(self.out).as_posix(),
                    "rows": pl.read_parquet(path).height, "bytes": path.stat().st_size,
                    "sha256": dataset.file_digest(path),
                }  # fmt: skip
            rows = {t: f["rows"] for t, f in files.items()}
            chunks.append({"arm": name, "first": 0, "count": a["games"], "rows": rows,
                           "files": files})  # fmt: skip
        manifest = {
            "format": dataset.FORMAT, "study_name": "synthetic", "study_file": "synthetic",
            "study_hash": "synthetic", "fingerprints": {n: {} for n in self.arms},
            "study": {"name": "synthetic", "arms": list(self.arms.values())},
            "tables": sorted(tables), "complete": True, "chunks": chunks,
        }  # fmt: skip
        (self.out / "manifest.json").write_text(json.dumps(manifest, indent=2))
        return self.out


def rotated_sweep(
    out,
    mu: dict[float, float],
    param: str,
    deals: int = 2000,
    n: int = 3,
    seed: int = 0,
    game: str = "nyslice",
) -> Path:
    """A synthetic rotated sweep of ``param`` (block and arms named after it): at each
    value the candidate wins deal i with probability ``mu[value]`` plus that deal's luck
    (shared across values), else the next seat wins; every seat in turn is the candidate."""
    rng = np.random.default_rng(seed)
    d = SyntheticDataset(out, game=game)
    luck = rng.normal(0, 0.1, size=(deals, n))
    for value, m in mu.items():
        for r in range(n):
            win = rng.random(deals) < np.clip(m + luck[:, r], 0, 1)
            share = np.zeros((deals, n))
            share[:, r], share[:, (r + 1) % n] = win, ~win
            specs = ["heuristic"] * n
            specs[r] = f"heuristic({param}={value})"
            arm = d.arm(f"{param}-p{n}-v{value}-r{r}", n, specs, group=param, rotation=r,
                        grid={param: value}, games=deals)  # fmt: skip
            d.players(arm, win_share=share)
    return d.write()
