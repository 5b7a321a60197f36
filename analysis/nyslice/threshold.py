"""New York Slice: when is eating a slice better than collecting it?

- :func:`theta_curve`: one seat plays ``heuristic(theta=θ)`` (eat when the eat value
  exceeds θ × the collect value: small θ eats more) against a field of the equilibrium
  heuristic, from every seat in turn on the same deals. The paired unit is the deal: its
  win share averaged over the seats it was played from. Win share by θ with t intervals
  over deals, and each θ's paired shortfall behind the best θ (Holm-adjusted one-sided
  tests: the θ values not significantly worse than the best).
- :func:`best_theta`: per player count the best θ, the set of θ not significantly worse
  than it, whether the tested grid brackets it (``grid_brackets_best``), and its edge over
  the fair share measured on deals that did not pick it (even/odd split, both ways).
- :func:`eat_table`: from the per-decision table, how the eat decision relates to the
  slice's pepperoni, its type's number and the majority race (observational: the
  strategy chose, so the outcome columns describe its choices, not their causal payoff).
  Decisions of one game are dependent: intervals are clustered by game.
- :func:`eat_payoff`, :func:`eat_payoff_overall`: the causal payoff, from decisions
  replayed both ways (:func:`sims.games.nyslice.counterfactual.eat_payoffs`), by the same
  strata and overall; decisions weighted back to all of their game's eligible decisions,
  intervals clustered by game.

Every sample-size column names its unit: ``deals`` (a deal of the θ sweep, played at every
θ and from every seat), ``games`` and ``decisions``.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from scipy import stats

from analysis import sweep
from analysis.load import MissingBlock, arm_options, arms, manifest, treatment
from analysis.load import rows as load_rows
from analysis.samplesize import annotate
from analysis.stats import (
    cluster_mean_interval,
    cluster_variance,
    wilson_interval,
)
from analysis.sweep import ALPHA


def theta_curve(out, group: str = "theta", alpha: float = ALPHA) -> pl.DataFrame:
    """Win share of the θ seat by θ and player count, and how far each θ is behind the best
    (:func:`analysis.sweep.sweep_curve` of the block's ``theta`` grid)."""
    return sweep.sweep_curve(out, group, "theta", alpha, _field_thetas(out, group))


def _field_thetas(out, group: str) -> dict[int, float | None]:
    """The field's θ per player count (a seat of the block that is not the θ seat)."""
    from analysis.nyslice.prose import field_theta

    found: dict[int, float | None] = {}
    for a in arms(out).filter(pl.col("group") == group).iter_rows(named=True):
        n = a["players"]
        others = [s for i, s in enumerate(a["strategies"]) if i != a["rotation"]]
        if n not in found and others:
            try:
                found[n] = field_theta(others[0], n)
            except Exception:  # a spec this checkout cannot build: the θ is unknown
                found[n] = None
    return found


def grid_note(best: float, theta_set: list[float], grid: list[float]) -> str:
    """:func:`analysis.sweep.grid_note` for θ."""
    return sweep.grid_note(best, theta_set, grid, "θ")


def best_theta(
    out,
    group: str = "theta",
    alpha: float = ALPHA,
    n_boot: int | None = None,
    seed: int | None = None,
) -> pl.DataFrame:
    """The best θ per player count, the θ values not significantly worse, and its edge on
    held-out deals: :func:`analysis.sweep.best_value` of the block's ``theta`` grid, with
    the field's θ (``field_theta``). ``n_boot`` and ``seed`` are ignored (the bootstrap of
    the winning θ is gone); accepted so that old callers still run."""
    del n_boot, seed  # deprecated, ignored
    return sweep.best_value(out, group, "theta", alpha, _field_thetas(out, group), "θ")


RACE_ORDER = ("nobody yet", "behind", "level", "ahead")


def _race(own: pl.Expr, rival: pl.Expr) -> pl.Expr:
    """The majority race for the slice's type, before the decision (counts in halves)."""
    return (
        pl.when((own == 0) & (rival == 0))
        .then(pl.lit("nobody yet"))
        .when(own > rival)
        .then(pl.lit("ahead"))
        .when(own == rival)
        .then(pl.lit("level"))
        .otherwise(pl.lit("behind"))
    )


def eat_decisions(out, group: str = "decisions") -> pl.DataFrame:
    """Every real eat-or-collect decision on a numbered slice, with the decider's result.

    Columns of the ``decisions`` table plus ``race`` (nobody yet / ahead / level /
    behind), ``ate`` (bool) and the decider's final ``win_share`` and ``score``.
    """
    dec = load_rows(out, "decisions", group).filter(
        pl.col("phase").cast(pl.String).is_in(["eat", "receive_eat"])
        & (pl.col("n_legal") == 2)
        & (pl.col("slice_kind") == 0)
    )
    res = load_rows(out, "players", group).select("arm", "game_index", "seat", "win_share", "score")
    return dec.join(res, on=["arm", "game_index", "seat"]).with_columns(
        _race(pl.col("own_count2"), pl.col("rival_count2")).alias("race"),
        (pl.col("action") == 1).alias("ate"),
    )


def _cluster_ids(frame: pl.DataFrame) -> pl.Expr:
    """The game a row belongs to: its arm (or player count) and ``game_index``."""
    block = "arm" if "arm" in frame.columns else "players"
    if "game_index" not in frame.columns or block not in frame.columns:
        raise KeyError(f"the rows need {block!r} and 'game_index' columns (the game is the unit)")
    return pl.concat_str([pl.col(block).cast(pl.String), pl.col("game_index").cast(pl.String)],
                         separator="/")  # fmt: skip


def _clustered_rate(hit: np.ndarray, clusters: np.ndarray) -> tuple[float, float, float]:
    """A share of rows with its Wilson interval at the effective sample size.

    Rows of one cluster are dependent, so the interval uses ``n / deff`` rows, ``deff`` the
    design effect: the cluster-robust variance of the share over the variance the same
    formula gives with every row its own cluster (at least 1, so never narrower than
    Wilson on the rows). With a share of 0 or 1 there is no variance to compare and the
    effective size is the number of clusters (as if each cluster were one row).
    """
    n = len(hit)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    p = float(hit.mean())
    infl = (hit - p) / n
    var, g = cluster_variance(infl, clusters)
    var_rows, _ = cluster_variance(infl, np.arange(n))
    if n > 1 and np.isfinite(var) and var_rows > 0:
        n_eff = n / max(1.0, var / var_rows)
    else:
        n_eff = float(g)
    lo, hi = wilson_interval(p * n_eff, n_eff)
    return p, lo, hi


def eat_table(out, by: str = "pepperoni", group: str = "decisions") -> pl.DataFrame:
    """How often the equilibrium heuristic eats, and how its eaters and collectors fared, by
    ``by`` (``pepperoni``, ``type_a`` or ``race``) and player count. Observational.

    Every eat-or-collect decision of the block counts once; the decisions of one game (and a
    seat's decisions share its final win share) are dependent, so every interval is
    clustered by game.

    Returns
    -------
    polars.DataFrame
        ``players, <by>, games`` (games with such a decision), ``decisions``,
        ``smaller_group_decisions`` and ``smaller_group_games`` (decisions, and games with
        one, in the rarer choice: the difference rests on them and the warning counts its
        games), ``eat_rate`` with ``eat_low``/``eat_high`` (Wilson at the effective sample
        size, see :func:`_clustered_rate`), ``share_eat`` and ``share_collect`` (mean final
        win share after each choice), ``diff_pp`` (their difference) with a cluster-robust
        t interval (``games - 1`` degrees of freedom), and the sample-size columns.
    """
    frame = eat_decisions(out, group)
    frame = frame.with_columns(_cluster_ids(frame).alias("_game"))
    result = []
    for (n, key), sub in frame.group_by("players", by, maintain_order=True):
        ate = sub["ate"].to_numpy().astype(bool)
        y = sub["win_share"].to_numpy().astype(float)
        cl = sub["_game"].to_numpy()
        ne, nc = int(ate.sum()), int((~ate).sum())
        rate, lo, hi = _clustered_rate(ate.astype(float), cl)
        d = dlo = dhi = float("nan")
        if ne > 1 and nc > 1:
            me, mc = y[ate].mean(), y[~ate].mean()
            infl = np.where(ate, (y - me) / ne, -(y - mc) / nc)
            var, g = cluster_variance(infl, cl)
            d = 100 * float(me - mc)
            if np.isfinite(var):
                half = 100 * stats.t.ppf(0.975, g - 1) * math.sqrt(var)
                dlo, dhi = d - half, d + half
        rarer = ate if ne <= nc else ~ate
        result.append(
            {
                "players": n,
                by: key,
                "games": len(np.unique(cl)),
                "decisions": sub.height,
                "smaller_group_decisions": min(ne, nc),
                "smaller_group_games": len(np.unique(cl[rarer])),
                "eat_rate": rate,
                "eat_low": lo,
                "eat_high": hi,
                "share_eat": float(y[ate].mean()) if ne else float("nan"),
                "share_collect": float(y[~ate].mean()) if nc else float("nan"),
                "diff_pp": d,
                "diff_low": dlo,
                "diff_high": dhi,
            }
        )
    table = pl.DataFrame(result).sort("players", by)
    # the difference rests on the rarer choice: warn on the games behind it
    return annotate(table, "diff_pp", "diff_low", "diff_high", n="smaller_group_games",
                    share=False, unit="games", pp=True)  # fmt: skip


def replay_payoffs(
    out, group: str = "decisions", games: int = 200, max_per_game: int | None = 12
) -> pl.DataFrame:
    """Replay eat-or-collect decisions of a block's first ``games`` games both ways.

    Uses each arm's strategies, seed, deck and rules from the dataset's manifest (the
    arm's options, read by :func:`sims.games.nyslice.plugin.deck_of` and
    :func:`~sims.games.nyslice.plugin.rules_of`), so the factual branch is the dataset's
    own game (checked by the replay). Deterministic.

    Returns
    -------
    polars.DataFrame
        :func:`sims.games.nyslice.counterfactual.eat_payoffs` rows with ``players`` and
        ``arm`` columns, input to :func:`eat_payoff`.
    """
    from sims.games.nyslice.counterfactual import eat_payoffs
    from sims.games.nyslice.plugin import deck_of, rules_of

    frames = []
    for arm in manifest(out)["study"]["arms"]:
        if arm.get("group", arm["name"]) != group or treatment(arm):
            continue
        options = arm_options(arm)
        table = eat_payoffs(
            arm["players"], arm["strategies"], arm["seed"], range(min(games, arm["games"])),
            deck=deck_of(options), rules=rules_of(options), max_per_game=max_per_game,
        )  # fmt: skip
        frames.append(
            pl.from_arrow(table).with_columns(
                pl.lit(arm["players"], pl.Int64).alias("players"), pl.lit(arm["name"]).alias("arm")
            )
        )
    if not frames:
        raise MissingBlock(out, group)
    return pl.concat(frames, how="vertical_relaxed")


def _weighted(payoffs: pl.DataFrame) -> pl.DataFrame:
    """``payoffs`` with ``_game`` (cluster) and ``_weight``: ``eligible`` over the rows of
    its game, the inverse of the chance that a game's eligible decision was replayed under
    ``max_per_game`` (1 without an ``eligible`` column). Computed before any filter, on
    every replayed row of the game."""
    frame = payoffs.with_columns(_cluster_ids(payoffs).alias("_game"))
    if "eligible" not in frame.columns:
        return frame.with_columns(pl.lit(1.0).alias("_weight"))
    return frame.with_columns(
        (pl.col("eligible").cast(pl.Float64) / pl.len().over("_game")).alias("_weight")
    )


def _payoff_row(sub: pl.DataFrame) -> dict:
    d = 100 * (sub["share_eat"] - sub["share_collect"]).to_numpy().astype(float)
    s = (sub["score_eat"] - sub["score_collect"]).to_numpy().astype(float)
    w = sub["_weight"].to_numpy()
    cl = sub["_game"].to_numpy()
    m, lo, hi, g = cluster_mean_interval(d, cl, w)
    sm, slo, shi, _ = cluster_mean_interval(s, cl, w)
    return {
        "games": g,
        "decisions": sub.height,
        "eligible_decisions": float(w.sum()),
        "payoff_pp": m,
        "payoff_low": lo,
        "payoff_high": hi,
        "score_payoff": sm,
        "score_low": slo,
        "score_high": shi,
        "eat_better": float((w * (d > 0)).sum() / w.sum()) if len(w) else float("nan"),
    }


def _annotate_payoff(table: pl.DataFrame) -> pl.DataFrame:
    return annotate(table, "payoff_pp", "payoff_low", "payoff_high", share=False,
                    unit="games", pp=True)  # fmt: skip


def eat_payoff(payoffs: pl.DataFrame, by: str = "pepperoni") -> pl.DataFrame:
    """The causal payoff of eating over collecting, by ``by`` and player count (numbered
    slices: ``slice_kind`` 0).

    ``payoffs`` is :func:`replay_payoffs` output (or
    :func:`sims.games.nyslice.counterfactual.eat_payoffs` rows with a ``players`` column):
    each decision replayed both ways on the same deal. Pass every replayed row (filtering
    first would change the weights). A game with more eligible decisions than
    ``max_per_game`` had only some replayed; each row is weighted by ``eligible`` / (rows of
    its game), so that every eligible decision of the replayed games counts equally (a
    ratio estimator of the mean over them). The decisions of one game are dependent: the
    interval is cluster-robust by game (:func:`analysis.stats.cluster_mean_interval`, t
    with ``games - 1`` degrees of freedom).

    Returns
    -------
    polars.DataFrame
        ``players, <by>, games`` (games with a replayed decision in the cell: the unit of
        the interval), ``decisions`` (replayed decisions), ``eligible_decisions`` (the
        eligible decisions they stand for, the sum of the weights), ``payoff_pp`` (win
        share, eat − collect, pp) with ``payoff_low``/``payoff_high``, ``score_payoff``
        (points) with ``score_low``/``score_high``, ``eat_better`` (weighted share of
        decisions where eating won more) and the sample-size columns (counting games).
    """
    frame = (
        _weighted(payoffs)
        .filter(pl.col("slice_kind") == 0)
        .with_columns(_race(pl.col("own_count2"), pl.col("rival_count2")).alias("race"))
    )
    result = [
        {"players": n, by: key, **_payoff_row(sub)}
        for (n, key), sub in frame.group_by("players", by, maintain_order=True)
    ]
    return _annotate_payoff(pl.DataFrame(result).sort("players", by))


def eat_payoff_overall(
    payoffs: pl.DataFrame, by_players: bool = True, numbered_only: bool = False
) -> pl.DataFrame:
    """The mean payoff of eating over collecting over all replayed decisions, per player
    count (``by_players``) or pooled over the counts (one row, ``players`` null), with the
    estimator of :func:`eat_payoff` (weights back to every eligible decision, intervals
    clustered by game).

    All slice kinds by default (every eat-or-collect decision the replay chose from);
    ``numbered_only`` keeps numbered slices only, as the strata of :func:`eat_payoff` do.

    Returns
    -------
    polars.DataFrame
        ``players`` and the columns of :func:`eat_payoff` but ``<by>``.
    """
    frame = _weighted(payoffs)
    if numbered_only:
        frame = frame.filter(pl.col("slice_kind") == 0)
    if by_players:
        result = [
            {"players": n, **_payoff_row(sub)}
            for (n,), sub in frame.group_by("players", maintain_order=True)
        ]
        table = pl.DataFrame(result).sort("players")
    else:
        table = pl.DataFrame([{"players": None, **_payoff_row(frame)}]).with_columns(
            pl.col("players").cast(pl.Int64)
        )
    return _annotate_payoff(table)


BY_LABELS = {
    "pepperoni": "pepperoni on the slice",
    "type_a": "the slice's type (its number)",
    "race": "race for the slice's type's majority",
}
"""Axis labels of the strata of :func:`eat_table` and :func:`eat_payoff`."""
VALUE_LABELS = {
    "eat_rate": "share of decisions eaten (95% CI)",
    "diff_pp": "final win share, eaters − collectors, pp (95% CI)",
    "payoff_pp": "win share, eat − collect, pp (95% CI)",
}
"""Axis labels of the plotted columns of :func:`eat_table` and :func:`eat_payoff`."""


def _points(ax, x, y, low, high, colour, filled=None, label=None) -> None:
    """Small open markers joined by nothing, their error bars drawn above them; markers
    where ``filled`` is True are filled."""
    err = np.vstack([y - low, high - y])
    ax.errorbar(x, y, yerr=err, fmt="none", ecolor=colour, elinewidth=1, capsize=2.5,
                zorder=3)  # fmt: skip
    ax.plot(x, y, "o", ms=4, mfc="white", mec=colour, mew=1, zorder=2, label=label)
    if filled is not None and filled.any():
        ax.plot(x[filled], y[filled], "o", ms=4, mfc=colour, mec=colour, zorder=2)


def _runs(grid: list[float], members: set[float]) -> list[tuple[float, float]]:
    """Runs of consecutive grid values that are members: (first, last) of each."""
    runs, start, prev = [], None, None
    for g in grid:
        if g in members:
            start = g if start is None else start
            prev = g
        elif start is not None:
            runs.append((start, prev))
            start = None
    if start is not None:
        runs.append((start, prev))
    return runs


def plot_theta_curve(table: pl.DataFrame, best: pl.DataFrame | None = None, ax=None):
    """Win share of the θ seat against θ, one colour per player count.

    Log θ axis ticked at the tested values; small open markers with 95% t intervals over
    deals (nudged sideways per count so that bars do not overlap); filled markers for the θ
    not significantly worse than the count's best (``best``'s ``theta_set``, else
    ``table``'s ``not_worse``), repeated below the curves as one bar per count spanning
    those θ (a gap where a θ between them is worse; a diamond at the best); dashed lines:
    fair shares.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import NullLocator

    from analysis.formats import count_colour

    ax = ax or plt.subplots(figsize=(7, 4.5))[1]
    counts = sorted(table["players"].unique())
    grid = sorted(float(t) for t in table["theta"].unique())
    sets: dict[int, set[float]] = {}
    bests: dict[int, float] = {}
    if best is not None and "theta_set" in best.columns:
        for r in best.iter_rows(named=True):
            sets[r["players"]] = {float(t) for t in r["theta_set"]}
            bests[r["players"]] = float(r["best_theta"])
    elif "not_worse" in table.columns:
        for n in counts:
            t = table.filter(pl.col("players") == n)
            sets[n] = {float(v) for v in t.filter(pl.col("not_worse"))["theta"]}
            bests[n] = float(t.filter(pl.col("is_best"))["theta"][0])
    mid = (len(counts) - 1) / 2
    for i, n in enumerate(counts):
        c = count_colour(n)
        t = table.filter(pl.col("players") == n).sort("theta")
        theta = t["theta"].to_numpy().astype(float)
        x = theta * 10 ** (0.012 * (i - mid))
        y = 100 * t["win_share"].to_numpy()
        ax.plot(x, y, "-", color=c, lw=1, alpha=0.8, zorder=1)
        inset = np.isin(theta, list(sets.get(n, ())))
        _points(ax, x, y, 100 * t["win_low"].to_numpy(), 100 * t["win_high"].to_numpy(), c,
                inset, f"{n} players")  # fmt: skip
        ax.axhline(100 / n, color=c, ls="--", lw=0.8, zorder=0)
    bottom, top = ax.get_ylim()
    top += 0.3 * (top - bottom)  # room for the legend above the curves
    ax.set_ylim(bottom, top)
    if sets:
        ticks = [t for t in ax.get_yticks() if bottom <= t <= top]
        labels = [f"{t:g}" for t in ticks]
        step = 0.045 * (top - bottom)
        rows = []
        for i, n in enumerate(counts):
            c = count_colour(n)
            y = bottom - (i + 0.8) * step
            rows.append((y, f"{n}p", c))
            for a, b in _runs(grid, sets.get(n, set())):
                ax.plot([a, b], [y, y], "-", color=c, lw=4, solid_capstyle="butt", zorder=2)
                ax.plot([a, b], [y, y], "|", color=c, ms=7, zorder=2)
            if n in bests:
                ax.plot([bests[n]], [y], "D", ms=5, mfc="white", mec=c, mew=1.2, zorder=3)
        ax.axhline(bottom, color="0.6", lw=0.5)
        # the bars' rows are labelled by their count on the y axis, in its colour
        ax.set_yticks(ticks + [r[0] for r in rows], labels + [r[1] for r in rows])
        for label, (_, _, c) in zip(ax.get_yticklabels()[len(ticks) :], rows, strict=True):
            label.set_color(c)
            label.set_fontsize("small")
        ax.set_ylim(bottom - (len(counts) + 0.6) * step, top)
    ax.set_xscale("log")
    ax.set_xticks(grid, [f"{g:g}" for g in grid])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlim(grid[0] / 1.25, grid[-1] * 1.25)
    ax.set_xlabel("θ: the seat eats when the eat value exceeds θ × the collect value "
                  "(smaller θ eats more)")  # fmt: skip
    ax.set_ylabel("win share of the θ seat, % (95% CI over deals)")
    ax.set_title("One seat's eat threshold against the equilibrium field")
    handles, labels = ax.get_legend_handles_labels()
    handles += [
        Line2D([], [], ls="-", lw=4, color="0.4", marker="o", ms=4, mfc="0.4", mec="0.4"),
        Line2D([], [], ls="none", marker="o", ms=4, mfc="white", mec="0.4"),
        Line2D([], [], ls="--", color="0.4", lw=0.8),
    ]
    labels += ["not significantly worse than the best (filled; bars below)",
               "worse than the best (Holm, 5%)",
               "fair share 1/n"]  # fmt: skip
    ax.legend(handles, labels, fontsize=7, ncols=3, loc="upper center")
    return ax


def plot_eat(table: pl.DataFrame, by: str, value: str = "eat_rate", ax=None):
    """A column of :func:`eat_table` or :func:`eat_payoff` against ``by``, one colour per
    player count (nudged sideways), with its 95% interval."""
    import matplotlib.pyplot as plt

    from analysis.formats import count_colour

    ax = ax or plt.subplots(figsize=(7, 4))[1]
    low, high = {
        "eat_rate": ("eat_low", "eat_high"),
        "diff_pp": ("diff_low", "diff_high"),
        "payoff_pp": ("payoff_low", "payoff_high"),
    }[value]
    keys = table[by].unique().to_list()
    keys = [k for k in RACE_ORDER if k in keys] if by == "race" else sorted(keys)
    pos = {k: i for i, k in enumerate(keys)}
    counts = sorted(table["players"].unique())
    mid = (len(counts) - 1) / 2
    for i, n in enumerate(counts):
        t = table.filter(pl.col("players") == n)
        x = np.array([pos[k] for k in t[by]]) + (i - mid) * 0.08
        y = t[value].to_numpy().astype(float)
        _points(ax, x, y, t[low].to_numpy().astype(float), t[high].to_numpy().astype(float),
                count_colour(n), label=f"{n} players")  # fmt: skip
    ax.set_xticks(range(len(keys)), [str(k) for k in keys])
    ax.set_xlabel(BY_LABELS.get(by, by.replace("_", " ")))
    ax.set_ylabel(VALUE_LABELS.get(value, value.replace("_", " ")))
    if value != "eat_rate":
        ax.axhline(0, color="black", lw=0.8, zorder=0)
    ax.legend(fontsize=8, ncols=2)
    return ax
