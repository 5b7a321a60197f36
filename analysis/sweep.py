"""A parameter sweep: which value of one seat's strategy parameter plays best?

A sweep is a study block in which one seat (the *candidate*, every seat in turn: the block
rotates) plays a strategy with a parameter set to each value of a grid, against a fixed
field, on the same deals at every value. The paired unit is the deal: the candidate's win
share on it, averaged over the seats it was played from. Any game's sweep is read here:
New York Slice's eat-or-collect threshold θ, Piece o' Cake's θ, its ``fewer`` (cutting
fewer pieces on purpose) and its forgo ``margin``.

- :func:`sweep_curve`: win share by value and player count with t intervals over deals,
  each value's paired shortfall behind the best, and whether it is in the set of values
  not shown worse than the best (a model confidence set: :func:`confidence_set`);
- :func:`best_value`: per player count the best value, the set not significantly worse,
  whether the grid brackets it, and its edge over the fair share on held-out deals.

The columns are named after the parameter (``best_theta``, ``theta_set``, ...), so a
sweep of ``fewer`` gives ``best_fewer``, ``fewer_set``, and so on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import polars as pl
from scipy import stats

from analysis.load import rows as load_rows
from analysis.samplesize import annotate
from analysis.stats import holm, mean_interval

ALPHA = 0.04
"""One minus the nominal confidence level of the not-worse set (:func:`confidence_set`).

The procedure is exact only asymptotically: at 95% nominal, simulated sets kept 8 truly
equal values together 94.9% of the time (2 and 4: 95.4% and 96.0%; 2,000 replications of
300 deals whose values are drawn independently given the deal).
A nominal 96% keeps the promise made in the reports — truly equal values are all kept at
least 95% of the time — with a margin (``tests/test_sweep_coverage.py``)."""


def deal_shares(out, group: str, param: str) -> pl.DataFrame:
    """Per (players, value, deal): the candidate's win share averaged over the seats it was
    played from, in (players, value, deal) order (so that nothing downstream depends on how
    the Parquet files were read)."""
    frame = (
        load_rows(out, "players", group)
        .filter(pl.col("seat") == pl.col("rotation"))
        .sort("players", param, "game_index", "seat")
    )
    return frame.group_by("players", param, "game_index", maintain_order=True).agg(
        pl.col("win_share").mean(), pl.len().alias("seats")
    )


def deal_matrix(
    deals: pl.DataFrame, n: int, param: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(game_index, values, x)`` at ``n`` players: ``x[i, k]`` the candidate's win share
    on deal ``game_index[i]`` at ``values[k]`` (ascending), deals played at every value
    only."""
    wide = (
        deals.filter(pl.col("players") == n)
        .pivot(on=param, index="game_index", values="win_share")
        .sort("game_index")
    )
    index = wide["game_index"].to_numpy()
    wide = wide.drop("game_index")
    values = np.array([float(c) for c in wide.columns])
    order = np.argsort(values)
    x = wide.to_numpy()[:, order].astype(float)
    complete = ~np.isnan(x).any(axis=1)
    return index[complete], values[order], x[complete]


def with_field(
    values: np.ndarray, x: np.ndarray, own: float | None, n: int
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Add the field's own value to a sweep's matrix when the grid lacks it.

    In a rotated sweep against a uniform field, the candidate playing the field's own
    value *is* the field: every seat plays the same strategy on the same deal, so the
    games do not depend on which seat is the candidate, and its win share averaged over
    the rotations is exactly 1/n on every deal (a game's win shares sum to 1). That column
    needs no games. Returns ``(values, x, added)``, values ascending."""
    if own is None or any(math.isclose(own, v, abs_tol=1e-9) for v in values):
        return values, x, False
    values = np.append(values, own)
    x = np.hstack([x, np.full((x.shape[0], 1), 1 / n)])
    order = np.argsort(values)
    return values[order], x[:, order], True


def one_sided_p(d: np.ndarray) -> float:
    """p-value of the one-sided paired t test of ``mean(d) > 0``."""
    n = len(d)
    if n < 2:
        return float("nan")
    m, sd = float(d.mean()), float(d.std(ddof=1))
    if sd == 0:
        return 0.0 if m > 0 else 1.0
    return float(stats.t.sf(m / (sd / math.sqrt(n)), n - 1))


SET_DRAWS = 2000
"""Bootstrap draws of the model confidence set's critical values."""

SET_SEED = 20261202
"""The bootstrap's fixed seed: the same data give the same set."""

SET_METHOD = "model confidence set (range statistic, studentised bootstrap over deals)"
"""How the not-worse set is made, as the tables name it."""


def _studentised_pairs(
    x: np.ndarray, draws: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of columns, their studentised mean differences and the bootstrap's.

    Returns ``(pairs, t, boot)``: ``pairs`` (P × 2, i < j), ``t`` (P: mean of ``x_j − x_i``
    over its standard error; 0 where the two columns never differ), and ``boot`` (draws ×
    P: the same statistic on rows resampled with replacement, centred on the data's mean
    difference and studentised by the resample's own standard error — the studentised
    bootstrap, whose tails follow the t statistic's more closely than a normal's)."""
    n, k = x.shape
    pairs = np.array([(i, j) for i in range(k) for j in range(i + 1, k)], dtype=np.int64)
    d = x[:, pairs[:, 1]] - x[:, pairs[:, 0]]  # n × P
    mean = d.mean(axis=0)
    se = d.std(axis=0, ddof=1) / math.sqrt(n)
    t = np.divide(mean, se, out=np.zeros_like(mean), where=se > 0)
    rng = np.random.default_rng(seed)
    boot = []
    for start in range(0, draws, 128):
        b = min(128, draws - start)
        rows = rng.integers(0, n, size=(b, n)) + n * np.arange(b)[:, None]
        counts = np.bincount(rows.ravel(), minlength=b * n).reshape(b, n) / n
        m = counts @ d
        var = (counts @ (d * d) - m * m) * n / (n - 1)
        s = np.sqrt(np.maximum(var, 0.0) / n)
        boot.append(np.divide(np.abs(m - mean), s, out=np.zeros_like(m), where=s > 0))
    return pairs, t, np.vstack(boot)


def confidence_set(
    x: np.ndarray, alpha: float = ALPHA, draws: int = SET_DRAWS, seed: int = SET_SEED
) -> tuple[np.ndarray, np.ndarray]:
    """The columns of ``x`` not shown worse than the best: a model confidence set.

    Hansen, Lunde and Nason's (2011) procedure with the range statistic: among the columns
    still in the set, the largest studentised paired difference ``max |mean_i − mean_j| /
    se_ij`` is compared with its bootstrap 1 − ``alpha`` quantile under 'all equal'; if it
    exceeds it, the column furthest behind (largest ``max_j (mean_j − mean_i) / se_ij``) is
    dropped and the test repeats on the rest. The set contains the truly best columns with
    probability ≥ 1 − ``alpha`` (asymptotically), and when several columns are truly equal
    it keeps all of them at least that often — which comparing every column with the
    *observed* best does not (that drops equal columns too often: the best is picked by the
    same noise). Rows are the independent units (deals); the bootstrap resamples rows.

    Parameters
    ----------
    x : numpy.ndarray
        ``rows × k``: the value of each column on each row (paired by row).
    alpha : float
        One minus the set's confidence level.
    draws, seed : int
        The bootstrap's size and fixed seed.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``in_set`` (bool, k) and ``p`` (k): the MCS p-value of each column (a column is in
        the set at level ``alpha`` iff ``p ≥ alpha``; the best has 1).
    """
    n, k = x.shape
    in_set = np.ones(k, dtype=bool)
    p_mcs = np.ones(k)
    if k < 2 or n < 2:
        return in_set, p_mcs
    pairs, t, boot = _studentised_pairs(x, draws, seed)
    ahead = np.zeros((k, k))  # ahead[i, j]: how far column j is ahead of i, studentised
    ahead[pairs[:, 0], pairs[:, 1]] = t
    ahead[pairs[:, 1], pairs[:, 0]] = -t
    running = 0.0
    while in_set.sum() > 1:
        live = in_set[pairs[:, 0]] & in_set[pairs[:, 1]]
        stat = float(np.abs(t[live]).max())
        p_step = float((boot[:, live].max(axis=1) >= stat).mean())
        running = max(running, p_step)
        if p_step >= alpha:
            break
        cols = np.flatnonzero(in_set)
        worst = cols[int(np.argmax(ahead[np.ix_(cols, cols)].max(axis=1)))]
        in_set[worst] = False
        p_mcs[worst] = running
    return in_set, p_mcs


def compare_with_best(x: np.ndarray, alpha: float = ALPHA) -> dict[str, np.ndarray | int]:
    """The best column of ``x`` (highest mean; the first on a tie), every column's
    shortfall behind it, and the set of columns not shown worse.

    The shortfall is the paired difference (best − column, pp) over the rows with a t
    interval, with the one-sided p of 'the best is better' and its Holm adjustment over
    the other columns (descriptive: they take the observed best as given). ``not_worse``
    is the model confidence set (:func:`confidence_set`) at level 1 − ``alpha``, with its
    p-values ``p_set``; the best is always in it."""
    k = x.shape[1]
    best = int(np.argmax(x.mean(axis=0)))
    short, low, high = np.zeros(k), np.zeros(k), np.zeros(k)
    p = np.full(k, np.nan)
    for j in range(k):
        if j == best:
            continue
        d = 100 * (x[:, best] - x[:, j])
        short[j], low[j], high[j] = mean_interval(d)
        p[j] = one_sided_p(d)
    others = np.flatnonzero(np.arange(k) != best)
    p_holm = np.full(k, np.nan)
    if len(others):
        finite = others[np.isfinite(p[others])]
        p_holm[finite] = holm(p[finite])
    not_worse, p_set = confidence_set(x, alpha)
    return {"best": best, "shortfall_pp": short, "shortfall_low": low, "shortfall_high": high,
            "p_worse": p, "p_holm": p_holm, "not_worse": not_worse, "p_set": p_set}  # fmt: skip


def sweep_curve(
    out,
    group: str,
    param: str,
    alpha: float = ALPHA,
    field: Mapping[int, float | None] | None = None,
) -> pl.DataFrame:
    """Win share of the candidate by value and player count, and how far each value is
    behind the best.

    Returns
    -------
    polars.DataFrame
        ``players, <param>, deals`` (the deals played at this value), ``seat_games``
        (games the candidate played: deals × seats it was played from), ``win_share`` with
        ``win_low``/``win_high`` (t over deals), ``fair`` (1/n), ``edge_pp`` (over the fair
        share); the comparison with the count's best value (on the deals played at every
        value): ``is_best``, ``shortfall_pp`` (best − this value, win share pp, paired by
        deal) with a 95% t interval ``shortfall_low``/``shortfall_high``, ``p_worse``
        (one-sided p of 'the best is better'), ``p_holm`` (Holm over the count's other
        values; descriptive), ``not_worse`` (in the model confidence set at 1 − ``alpha``:
        :func:`confidence_set`) with its p-value ``p_set``; and the sample-size columns
        (``games_for_1pp`` counts deals). ``games`` is an alias of ``deals``.
        ``from_identity`` marks a row of the field's own value added without games
        (:func:`with_field`: win share exactly 1/n on every deal).

    ``field`` (the field's own value per player count) adds that value where the grid
    lacks it (:func:`with_field`); pass it only for a rotated sweep against a uniform field.
    """
    field = field or {}
    deals = deal_shares(out, group, param)
    result = []
    for (n, value), sub in deals.group_by("players", param, maintain_order=True):
        m, lo, hi = mean_interval(sub["win_share"].to_numpy())
        result.append(
            {
                "players": n,
                param: value,
                "deals": sub.height,
                "seat_games": int(sub["seats"].sum()),
                "win_share": m,
                "win_low": max(lo, 0.0),  # a share's interval stays within [0, 1]
                "win_high": min(hi, 1.0),
                "fair": 1 / n,
                "edge_pp": 100 * (m - 1 / n),
                "from_identity": False,
            }
        )
    comparisons = []
    for n in sorted(deals["players"].unique()):
        _, values, x = deal_matrix(deals, n, param)
        if not len(x):
            continue
        values, x, added = with_field(values, x, field.get(n), n)
        if added:
            own = float(field[n])
            result.append({"players": n, param: own, "deals": len(x), "seat_games": 0,
                           "win_share": 1 / n, "win_low": 1 / n, "win_high": 1 / n,
                           "fair": 1 / n, "edge_pp": 0.0, "from_identity": True})  # fmt: skip
        c = compare_with_best(x, alpha)
        cols = ("shortfall_pp", "shortfall_low", "shortfall_high", "p_worse", "p_holm", "p_set")
        for j, value in enumerate(values):
            comparisons.append({"players": n, param: float(value), "is_best": j == c["best"],
                                **{k: float(c[k][j]) for k in cols},
                                "not_worse": bool(c["not_worse"][j])})  # fmt: skip
    table = pl.DataFrame(result).with_columns(pl.col(param).cast(pl.Float64))
    table = table.sort("players", param)
    if comparisons:
        table = table.join(pl.DataFrame(comparisons), on=["players", param], how="left")
    table = table.with_columns(pl.col("deals").alias("games"))
    return annotate(table, "win_share", "win_low", "win_high", n="deals", reference="fair",
                    unit="deals")  # fmt: skip


def _extend(end: float, up: bool) -> str:
    """Two further grid values past ``end`` (√2 steps; ±1 steps past 0)."""
    if end == 0:
        step = 1 if up else -1
        return f"{step:g}, {2 * step:g}"
    if end < 0:
        up = not up
    f = math.sqrt(2) if up else 1 / math.sqrt(2)
    return f"{end * f:.3g}, {end * f * f:.3g}"


def grid_note(best: float, members: list[float], grid: list[float], symbol: str = "θ") -> str:
    """'' when the best value and its not-worse set lie inside the tested grid, else which
    end they reach and how to extend the grid (the curve may not turn within it)."""
    lo, hi = min(grid), max(grid)
    notes = []
    for end, up, word in ((hi, True, "largest"), (lo, False, "smallest")):
        if best == end:
            what = f"the best {symbol} is the {word} tested ({end:g})"
        elif end in members:
            what = (f"the {symbol} not significantly worse than the best reach the {word} "
                    f"tested ({end:g})")  # fmt: skip
        else:
            continue
        side = "above" if up else "below"
        notes.append(f"{what}: the curve may not turn within the grid; extend it {side} "
                     f"{end:g} (e.g. {_extend(end, up)})")  # fmt: skip
    return "; ".join(notes)


def _half_edge(x: np.ndarray, pick: np.ndarray, on: np.ndarray, n: int, level: float):
    """Pick the best column on rows ``pick``, measure its edge over 1/n (pp) on rows
    ``on`` with a t interval at ``level``: ``(column, mean, low, high)``."""
    if not pick.any() or not on.any():
        return -1, float("nan"), float("nan"), float("nan")
    j = int(np.argmax(x[pick].mean(axis=0)))
    return (j, *mean_interval(100 * (x[on, j] - 1 / n), level))


def best_value(
    out,
    group: str,
    param: str,
    alpha: float = ALPHA,
    field: Mapping[int, float | None] | None = None,
    symbol: str | None = None,
) -> pl.DataFrame:
    """The best value per player count, the values not significantly worse, and its edge.

    **The set.** The best value has the highest mean win share over the deals played at
    every value. The set of values not significantly worse is a model confidence set
    (:func:`confidence_set`) over the same deals: it contains the truly best values with
    probability ≥ 1 − ``alpha``, and keeps truly equal values together at least that often
    (simulated in ``tests/test_sweep_coverage.py``), which testing each value against the
    *observed* best does not (the pick is made by the same noise). The best is always in
    the set.

    **The grid.** If the best value, or the set, reaches an end of the tested grid, the
    curve may not turn within it: ``grid_brackets_best`` is False and ``grid_note`` names
    the end and proposes values to add. The field's own value, the natural reference, is
    always compared: where the grid lacks it, it is added at exactly 1/n a deal
    (:func:`with_field`), so "the best" is never only the best of a grid that left the
    field out.

    **The edge, on held-out deals.** The best value's edge over the fair share 1/n is
    optimistic when measured on the deals that picked it (the winner's curse). The deals
    are split by the parity of ``game_index`` (every value and rotation of a deal falls in
    the same half): the value best on the even deals (``pick_even``) is measured on the
    odd deals (``edge_odd_pp`` with a 95% t interval), and ``pick_odd`` on the even deals
    (``edge_even_pp``). ``edge_pp`` is their average, and ``edge_low``/``edge_high`` the
    average of the two halves' 97.5% intervals: it covers the average true edge of the two
    picks whenever both cover, which happens with probability ≥ 95% whatever their
    dependence (Bonferroni). The field's own value would be the field itself, whose seat
    wins exactly 1/n averaged over the rotations, so the edge over the fair share is also
    the edge over playing the field's value.

    Parameters
    ----------
    out : path
        The dataset.
    group : str
        The sweep's study block.
    param : str
        The grid column (the parameter swept).
    alpha : float
        One minus the set's confidence level.
    field : mapping, optional
        The field's own value per player count (None where it has none); pass it only for
        a rotated sweep against a uniform field (:func:`with_field`).
    symbol : str, optional
        How sentences name the parameter (default: its name).

    Returns
    -------
    polars.DataFrame
        One row per player count: ``players, deals`` (played at every value),
        ``field_<param>``, ``best_<param>``, ``win_share`` (its mean over the deals),
        ``<param>_set`` (list, ascending), ``set_low``/``set_high``,
        ``grid_low``/``grid_high``, ``grid_brackets_best``, ``field_from_identity``
        (True where the field's own value was missing from the grid and was added
        without games: :func:`with_field`), ``grid_note``, ``set_method``; ``pick_even``,
        ``edge_odd_pp``/``_low``/``_high``, ``pick_odd``, ``edge_even_pp``/``_low``/
        ``_high``, ``edge_pp``/``edge_low``/``edge_high`` (held out, as above);
        ``edge_in_sample_pp``/``_low``/``_high`` (optimistic, secondary); the sample-size
        columns of the held-out edge (``games_for_1pp`` counts deals); ``games`` (=
        ``deals``) and ``<param>_low``/``<param>_high`` (= ``set_low``/``set_high``).
    """
    symbol = symbol or param
    field = field or {}
    deals = deal_shares(out, group, param)
    best_col, set_col, field_col = f"best_{param}", f"{param}_set", f"field_{param}"
    result = []
    for n in sorted(deals["players"].unique()):
        index, values, x = deal_matrix(deals, n, param)
        if not len(x):
            continue
        values, x, added = with_field(values, x, field.get(n), n)
        c = compare_with_best(x, alpha)
        best = float(values[c["best"]])
        members = [float(t) for t in values[c["not_worse"]]]
        grid = [float(t) for t in values]
        note = grid_note(best, members, grid, symbol)
        even = index % 2 == 0
        odd = ~even
        row = {
            "players": n,
            "deals": len(x),
            field_col: field.get(n),
            best_col: best,
            "win_share": float(x[:, c["best"]].mean()),
            set_col: members,
            "set_low": min(members),
            "set_high": max(members),
            "grid_low": min(grid),
            "grid_high": max(grid),
            "grid_brackets_best": not note,
            "field_from_identity": added,
            "grid_note": note,
            "set_method": SET_METHOD,
        }
        halves = []
        for picked, measured, pick, on in (("even", "odd", even, odd), ("odd", "even", odd, even)):
            j, m, lo, hi = _half_edge(x, pick, on, n, 0.95)
            _, _, lo2, hi2 = _half_edge(x, pick, on, n, 0.975)
            row[f"pick_{picked}"] = float(values[j]) if j >= 0 else None
            row |= {f"edge_{measured}_pp": m, f"edge_{measured}_low": lo,
                    f"edge_{measured}_high": hi}  # fmt: skip
            halves.append((m, lo2, hi2))
        row["edge_pp"] = float(np.mean([h[0] for h in halves]))
        row["edge_low"] = float(np.mean([h[1] for h in halves]))
        row["edge_high"] = float(np.mean([h[2] for h in halves]))
        g, glo, ghi = mean_interval(100 * (x[:, c["best"]] - 1 / n))
        row |= {"edge_in_sample_pp": g, "edge_in_sample_low": glo, "edge_in_sample_high": ghi}
        result.append(row)
    order = ["players", "deals", field_col, best_col, "win_share", set_col,
             "set_low", "set_high", "grid_low", "grid_high", "grid_brackets_best",
             "field_from_identity", "grid_note", "set_method",
             "pick_even", "edge_odd_pp", "edge_odd_low", "edge_odd_high", "pick_odd",
             "edge_even_pp", "edge_even_low", "edge_even_high", "edge_pp", "edge_low",
             "edge_high", "edge_in_sample_pp", "edge_in_sample_low",
             "edge_in_sample_high"]  # fmt: skip
    schema = {k: pl.Float64 for k in order} | {
        "players": pl.Int64, "deals": pl.Int64, set_col: pl.List(pl.Float64),
        "grid_brackets_best": pl.Boolean, "field_from_identity": pl.Boolean,
        "grid_note": pl.String, "set_method": pl.String,
    }  # fmt: skip
    table = pl.DataFrame(result, schema=schema).with_columns(
        pl.col("deals").alias("games"),
        pl.col("set_low").alias(f"{param}_low"),
        pl.col("set_high").alias(f"{param}_high"),
    )
    return annotate(table, "edge_pp", "edge_low", "edge_high", n="deals", share=False,
                    unit="deals", pp=True)  # fmt: skip
