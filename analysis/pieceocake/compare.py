"""Piece o' Cake beside New York Slice: what exact-N cutting and New York Slice's other
differences change.

New York Slice re-themed Piece o' Cake: the server (New York Slice's slicer) must cut
exactly N pieces, and it adds specials, pepperoni and anchovy slices, its own deck, 2 to 6
players and its own number of rounds. Piece o' Cake's what-if ``exact_pieces`` isolates
the first difference: the block ``seats-exact`` plays it with the same strategy and the
same seed as ``seats``, so game ``i`` of both blocks is dealt the same cake and the
comparison is paired by game.

- :func:`seat_summary`: per player count, the first seat's edge over the mean of the
  others (pp, t over games) and the largest seat edge (the largest |seat share − 1/n|, pp,
  with a percentile bootstrap interval over games);
- :func:`exact_change`: ``seats`` against ``seats-exact``, paired by game: first server's
  edge, largest seat edge, share of the slices taken that are eaten and share of turns
  forgone, each under both rules with the difference and its interval (a change table of
  :mod:`analysis.whatif`);
- :func:`nyslice_dataset`: the New York Slice dataset the report compares with (the
  report option ``nyslice``; by default the directory ``nyslice-balance`` beside the Piece
  o' Cake dataset), or why there is none;
- :data:`PANEL_TITLES`: the panels of its chart (:func:`analysis.whatif.plot_changes`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from analysis.load import rows as load_rows
from analysis.load import untreated
from analysis.seats import first_edge
from analysis.stats import mean_interval
from analysis.whatif import change_row, change_table

MEASURES = {
    "first_edge": "first server's edge (seat 0 − other seats, pp)",
    "largest_edge": "largest seat edge (|seat − fair share|, pp)",
    "eaten": "slices eaten (% of slices taken)",
    "forgone": "turns forgone (% of turns)",
}
"""The measures of :func:`exact_change`, in words (all in percentage points)."""


def _matrices(out, group: str) -> dict[int, pl.DataFrame]:
    """Per player count: the block's seat rows of its one arm, sorted by game and seat."""
    frame = untreated(load_rows(out, "players", group))
    return {int(n): sub.sort("game_index", "seat")
            for (n,), sub in frame.group_by("players", maintain_order=True)}  # fmt: skip


def _wide(sub: pl.DataFrame, column: str, n: int) -> np.ndarray:
    return sub[column].to_numpy().astype(float).reshape(-1, n)


def _largest(share: np.ndarray, n: int) -> float:
    return float(100 * np.max(np.abs(share.mean(axis=0) - 1 / n)))


def _boot_largest(shares: list[np.ndarray], n: int, n_boot: int, seed: int) -> np.ndarray:
    """Bootstrap replicates of the largest seat edge of each matrix (rows resampled
    together: the matrices are paired by row), shape ``(n_boot, len(shares))``."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    g = shares[0].shape[0]
    out = np.empty((n_boot, len(shares)))
    for b in range(n_boot):
        idx = rng.integers(0, g, g)
        for j, s in enumerate(shares):
            out[b, j] = _largest(s[idx], n)
    return out


def seat_summary(out, group: str = "seats", n_boot: int = 1000, seed: int = 0) -> pl.DataFrame:
    """Per player count of a uniform block: ``games``, ``first_edge_pp`` with
    ``first_low``/``first_high`` (seat 0's win share minus the fair share, t over games:
    :func:`analysis.seats.first_edge`), ``largest_edge_pp`` (the largest |seat share −
    1/n|, pp) with a percentile bootstrap interval over games ``largest_low``/
    ``largest_high``, and ``largest_seat``."""
    result = []
    for n, sub in _matrices(out, group).items():
        share = _wide(sub, "win_share", n)
        m, lo, hi = mean_interval(first_edge(share))
        boots = _boot_largest([share], n, n_boot, seed)[:, 0]
        edges = share.mean(axis=0) - 1 / n
        result.append({
            "players": n, "games": share.shape[0], "first_edge_pp": m, "first_low": lo,
            "first_high": hi, "largest_edge_pp": _largest(share, n),
            "largest_low": float(np.quantile(boots, 0.025)),
            "largest_high": float(np.quantile(boots, 0.975)),
            "largest_seat": int(np.argmax(np.abs(edges))),
        })  # fmt: skip
    schema = {"players": pl.Int64, "games": pl.Int64, "first_edge_pp": pl.Float64,
              "first_low": pl.Float64, "first_high": pl.Float64, "largest_edge_pp": pl.Float64,
              "largest_low": pl.Float64, "largest_high": pl.Float64,
              "largest_seat": pl.Int64}  # fmt: skip
    return pl.DataFrame(result, schema=schema).sort("players")


def _per_game(sub: pl.DataFrame, n: int) -> dict[str, np.ndarray]:
    """Per game (rows of :func:`_matrices`): the measures of :data:`MEASURES` that are
    means of per-game values, in pp."""
    share = _wide(sub, "win_share", n)
    eaten, collected = _wide(sub, "eaten", n).sum(1), _wide(sub, "collected", n).sum(1)
    forgone, taken = _wide(sub, "forgone", n).sum(1), _wide(sub, "pieces_taken", n).sum(1)
    return {
        "first_edge": first_edge(share),
        "eaten": 100 * eaten / np.maximum(eaten + collected, 1),
        "forgone": 100 * forgone / np.maximum(forgone + taken, 1),
    }


def exact_change(
    out, base: str = "seats", exact: str = "seats-exact", n_boot: int = 1000, seed: int = 0
) -> pl.DataFrame:
    """The printed rule (``base``) against exact-N cutting (``exact``), paired by game.

    Only the games both blocks played (the same ``game_index``: the same cake) count.
    Means of per-game values (the first server's edge, the share of slices eaten, the share
    of turns forgone) get t intervals over games, their difference a paired t interval; the
    largest seat edge (not a mean) gets percentile bootstrap intervals, the games resampled
    together in both blocks.

    Returns
    -------
    polars.DataFrame
        A change table (:data:`analysis.whatif.CHANGE_SCHEMA`, all pp, ``n`` in games;
        change = exact − printed), one row a count and measure in the order of
        :data:`MEASURES`, with the sample-size columns of the change.
    """
    a, b = _matrices(out, base), _matrices(out, exact)
    rows = []
    for n in sorted(set(a) & set(b)):
        common = np.intersect1d(a[n]["game_index"].unique().to_numpy(),
                                b[n]["game_index"].unique().to_numpy())  # fmt: skip
        sa = a[n].filter(pl.col("game_index").is_in(common))
        sb = b[n].filter(pl.col("game_index").is_in(common))
        va, vb = _per_game(sa, n), _per_game(sb, n)
        found = {m: change_row(n, m, va[m], vb[m]) for m in ("first_edge", "eaten", "forgone")}
        share_a, share_b = _wide(sa, "win_share", n), _wide(sb, "win_share", n)
        boots = _boot_largest([share_a, share_b], n, n_boot, seed)
        la, lb = _largest(share_a, n), _largest(share_b, n)
        q = np.quantile(boots, [0.025, 0.975], axis=0)
        d = np.quantile(boots[:, 1] - boots[:, 0], [0.025, 0.975])
        found["largest_edge"] = {"players": n, "measure": "largest_edge", "unit": "pp",
                                 "n": len(common), "before": la, "before_low": q[0, 0],
                                 "before_high": q[1, 0], "after": lb, "after_low": q[0, 1],
                                 "after_high": q[1, 1], "change": lb - la,
                                 "change_low": float(d[0]), "change_high": float(d[1])}  # fmt: skip
        rows += [found[m] for m in MEASURES]
    return change_table(rows, "games")


DEFAULT_NAME = "nyslice-balance"
"""The New York Slice dataset's directory name beside the Piece o' Cake dataset."""


def _size_suffix(manifest: dict) -> str:
    """``-quick`` when the dataset's study name carries its size (``pieceocake-balance-quick``:
    the manifest's size, else one of the sizes its study text declares)."""
    import tomllib

    name = str(manifest.get("study_name", ""))
    sizes = [manifest["size"]] if manifest.get("size") else []
    try:
        declared = tomllib.loads(manifest.get("study_text") or "").get("sizes")
    except tomllib.TOMLDecodeError:
        declared = None
    sizes += list(declared) if isinstance(declared, dict) else []
    found = [s for s in sizes if name.endswith(f"-{s}")]
    return f"-{found[0]}" if found else ""


def candidates(out, manifest: dict, option: str | None) -> list[Path]:
    """Where to look for the New York Slice dataset: the option's path when given; else
    ``nyslice-balance`` beside ``out`` (first with the Piece o' Cake dataset's size suffix,
    ``nyslice-balance-quick``, when it has one)."""
    if option:
        return [Path(option)]
    parent = Path(out).resolve().parent
    suffix = _size_suffix(manifest)
    names = ([DEFAULT_NAME + suffix] if suffix else []) + [DEFAULT_NAME]
    return [parent / n for n in names]


def nyslice_dataset(out, manifest: dict, option: str | None) -> tuple[Path | None, str]:
    """The New York Slice dataset to compare with, or ``(None, why not)``.

    Used only when it is a complete New York Slice dataset with a ``seats`` block; anything
    else (absent, unreadable, incomplete, another game) is named, never raised.
    """
    import warnings

    from analysis.load import IncompleteDatasetWarning, study_game
    from analysis.load import manifest as read_manifest

    reasons = []
    here = Path(out).resolve().parent
    for path in candidates(out, manifest, option):
        # a report names a dataset beside this one by its folder, not the machine's path
        name = path.name if path.resolve().parent == here else str(path)
        if not (path / "manifest.json").is_file():
            reasons.append(f"no dataset {name} beside this one" if name == path.name
                           else f"no dataset at {name}")  # fmt: skip
            continue
        try:
            with warnings.catch_warnings():  # an incomplete one is named below, not read
                warnings.simplefilter("ignore", IncompleteDatasetWarning)
                m = read_manifest(path, partial=True)
            game = study_game(m)
        except Exception as exc:  # any unreadable dataset: say why and carry on
            reasons.append(f"{name} is not readable ({str(exc).splitlines()[0]})")
            continue
        if game != "nyslice":
            reasons.append(f"{name} is a {game} dataset, not New York Slice")
        elif not m.get("complete"):
            reasons.append(f"{name} is not complete")
        elif not any(a.get("group", a["name"]) == "seats" for a in m["study"]["arms"]):
            reasons.append(f"{name} has no 'seats' block")
        else:
            return path, ""
    return None, "; ".join(reasons)


def nyslice_seats(path: Path, counts=(2, 3, 4, 5), n_boot: int = 1000, seed: int = 0):
    """:func:`seat_summary` of a New York Slice dataset's ``seats`` block at ``counts``,
    with its study's name and the strategy of its seats."""
    table = seat_summary(path, "seats", n_boot, seed).filter(pl.col("players").is_in(list(counts)))
    return table


PANEL_TITLES = {
    "first_edge": "first server's edge\n(pp)",
    "largest_edge": "largest seat edge\n(pp)",
    "eaten": "slices eaten\n(% of slices taken)",
    "forgone": "turns forgone\n(% of turns)",
}
"""The panels of the exact-N chart (:func:`analysis.whatif.plot_changes`): measure →
title."""
