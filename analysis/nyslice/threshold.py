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

from analysis.load import arm_options, arms, manifest, treatment
from analysis.load import rows as load_rows
from analysis.samplesize import annotate
from analysis.stats import (
    cluster_mean_interval,
    cluster_variance,
    holm,
    mean_interval,
    wilson_interval,
)

ALPHA = 0.05
"""Level of the tests that keep a θ in the not-worse set (Holm-adjusted p ≥ ALPHA)."""


def _deal_shares(out, group: str) -> pl.DataFrame:
    """Per (players, θ, deal): the candidate's win share averaged over its seats, in
    (players, θ, deal) order (so that nothing downstream depends on how the Parquet files
    were read)."""
    frame = (
        load_rows(out, "players", group)
        .filter(pl.col("seat") == pl.col("rotation"))
        .sort("players", "theta", "game_index", "seat")
    )
    return frame.group_by("players", "theta", "game_index", maintain_order=True).agg(
        pl.col("win_share").mean(), pl.len().alias("seats")
    )


def _deal_matrix(deals: pl.DataFrame, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(game_index, thetas, x)`` at ``n`` players: ``x[i, k]`` the θ seat's win share on
    deal ``game_index[i]`` at ``thetas[k]`` (ascending), deals played at every θ only."""
    wide = (
        deals.filter(pl.col("players") == n)
        .pivot(on="theta", index="game_index", values="win_share")
        .sort("game_index")
    )
    index = wide["game_index"].to_numpy()
    wide = wide.drop("game_index")
    thetas = np.array([float(c) for c in wide.columns])
    order = np.argsort(thetas)
    x = wide.to_numpy()[:, order].astype(float)
    complete = ~np.isnan(x).any(axis=1)
    return index[complete], thetas[order], x[complete]


def _one_sided_p(d: np.ndarray) -> float:
    """p-value of the one-sided paired t test of ``mean(d) > 0``."""
    n = len(d)
    if n < 2:
        return float("nan")
    m, sd = float(d.mean()), float(d.std(ddof=1))
    if sd == 0:
        return 0.0 if m > 0 else 1.0
    return float(stats.t.sf(m / (sd / math.sqrt(n)), n - 1))


def _compare(x: np.ndarray, alpha: float = ALPHA) -> dict[str, np.ndarray | int]:
    """The best column of ``x`` (highest mean; the first on a tie) and every column's
    shortfall behind it: paired differences (best − column, pp) over the rows with a t
    interval, one-sided p-values of 'the best is better', Holm-adjusted over the other
    columns, and ``not_worse`` (adjusted p ≥ ``alpha``; the best is always in)."""
    k = x.shape[1]
    best = int(np.argmax(x.mean(axis=0)))
    short, low, high = np.zeros(k), np.zeros(k), np.zeros(k)
    p = np.full(k, np.nan)
    for j in range(k):
        if j == best:
            continue
        d = 100 * (x[:, best] - x[:, j])
        short[j], low[j], high[j] = mean_interval(d)
        p[j] = _one_sided_p(d)
    others = np.flatnonzero(np.arange(k) != best)
    p_holm = np.full(k, np.nan)
    if len(others):
        finite = others[np.isfinite(p[others])]
        p_holm[finite] = holm(p[finite])
    not_worse = np.ones(k, dtype=bool)
    not_worse[others] = ~(p_holm[others] < alpha)  # no test (nan): not shown worse
    return {"best": best, "shortfall_pp": short, "shortfall_low": low, "shortfall_high": high,
            "p_worse": p, "p_holm": p_holm, "not_worse": not_worse}  # fmt: skip


def theta_curve(out, group: str = "theta", alpha: float = ALPHA) -> pl.DataFrame:
    """Win share of the θ seat by θ and player count, and how far each θ is behind the best.

    Returns
    -------
    polars.DataFrame
        ``players, theta, deals`` (the deals played at this θ), ``seat_games`` (games the
        θ seat played: deals × seats it was played from), ``win_share`` with
        ``win_low``/``win_high`` (t over deals), ``fair`` (1/n), ``edge_pp`` (over the fair
        share); the comparison with the best θ of the count (on the deals played at every
        θ): ``is_best``, ``shortfall_pp`` (best − this θ, win share pp, paired by deal)
        with a 95% t interval ``shortfall_low``/``shortfall_high``, ``p_worse`` (one-sided
        p of 'the best is better'), ``p_holm`` (Holm over the count's other θ),
        ``not_worse`` (``p_holm`` ≥ ``alpha``: in the set of θ not significantly worse than
        the best); and the sample-size columns (``games_for_1pp`` counts deals).
        ``games`` is a deprecated alias of ``deals``.
    """
    deals = _deal_shares(out, group)
    result = []
    for (n, theta), sub in deals.group_by("players", "theta", maintain_order=True):
        m, lo, hi = mean_interval(sub["win_share"].to_numpy())
        result.append(
            {
                "players": n,
                "theta": theta,
                "deals": sub.height,
                "seat_games": int(sub["seats"].sum()),
                "win_share": m,
                "win_low": max(lo, 0.0),  # a share's interval stays within [0, 1]
                "win_high": min(hi, 1.0),
                "fair": 1 / n,
                "edge_pp": 100 * (m - 1 / n),
            }
        )
    table = pl.DataFrame(result).sort("players", "theta")
    comparisons = []
    for n in sorted(deals["players"].unique()):
        _, thetas, x = _deal_matrix(deals, n)
        if not len(x):
            continue
        c = _compare(x, alpha)
        cols = ("shortfall_pp", "shortfall_low", "shortfall_high", "p_worse", "p_holm")
        for j, theta in enumerate(thetas):
            comparisons.append({"players": n, "theta": float(theta), "is_best": j == c["best"],
                                **{k: float(c[k][j]) for k in cols},
                                "not_worse": bool(c["not_worse"][j])})  # fmt: skip
    if comparisons:
        table = table.join(pl.DataFrame(comparisons), on=["players", "theta"], how="left")
    table = table.with_columns(pl.col("deals").alias("games"))
    return annotate(table, "win_share", "win_low", "win_high", n="deals", reference="fair",
                    unit="deals")  # fmt: skip


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


def _extend(end: float, up: bool) -> str:
    """Two further grid values past ``end`` in the grid's √2 steps."""
    f = math.sqrt(2) if up else 1 / math.sqrt(2)
    return f"{end * f:.3g}, {end * f * f:.3g}"


def grid_note(best: float, theta_set: list[float], grid: list[float]) -> str:
    """'' when the best θ and its not-worse set lie inside the tested grid, else which end
    they reach and how to extend the grid (the curve may not turn within it)."""
    lo, hi = min(grid), max(grid)
    notes = []
    for end, up, word in ((hi, True, "largest"), (lo, False, "smallest")):
        if best == end:
            what = f"the best θ is the {word} tested ({end:g})"
        elif end in theta_set:
            what = f"the θ not significantly worse than the best reach the {word} tested ({end:g})"
        else:
            continue
        side = "above" if up else "below"
        notes.append(f"{what}: the curve may not turn within the grid; extend it {side} "
                     f"{end:g} (e.g. {_extend(end, up)})")  # fmt: skip
    return "; ".join(notes)


def _half_edge(x: np.ndarray, pick: np.ndarray, on: np.ndarray, n: int, level: float):
    """Pick the best column on rows ``pick``, measure its edge over 1/n (pp) on rows
    ``on`` with a t interval at ``level``: ``(θ index, mean, low, high)``."""
    if not pick.any() or not on.any():
        return -1, float("nan"), float("nan"), float("nan")
    j = int(np.argmax(x[pick].mean(axis=0)))
    return (j, *mean_interval(100 * (x[on, j] - 1 / n), level))


def best_theta(
    out,
    group: str = "theta",
    alpha: float = ALPHA,
    n_boot: int | None = None,
    seed: int | None = None,
) -> pl.DataFrame:
    """The best θ per player count, the θ values not significantly worse, and its edge.

    **The set.** The best θ has the highest mean win share over the deals played at every
    θ. Every other θ is compared with it on the same deals: the paired difference (best −
    θ) per deal, a one-sided t test of 'the best is better', Holm-adjusted over the other
    θ of the count. A θ whose adjusted p is ≥ ``alpha`` is not significantly worse and is in
    ``theta_set`` (the best always is). The tests take the best as found in the data, as
    in multiple comparisons with the best; the set is what the data cannot separate from
    it, not a confidence set for the true optimum. Per-θ differences and p-values are in
    :func:`theta_curve`.

    **The grid.** If the best θ, or the set, reaches an end of the tested grid, the curve
    may not turn within it: ``grid_brackets_best`` is False and ``grid_note`` names the end
    and proposes values to add.

    **The edge, on held-out deals.** The best θ's edge over the fair share 1/n is optimistic
    when measured on the deals that picked it (the winner's curse). The deals are split by
    the parity of ``game_index`` (deterministic, and every θ and rotation of a deal falls in
    the same half): the θ with the highest mean on the even deals (``pick_even``) is
    measured on the odd deals (``edge_odd_pp`` with a 95% t interval), and ``pick_odd`` on
    the even deals (``edge_even_pp``). ``edge_pp`` is their average. Each half's estimate
    is unbiased for the true edge of the θ the other half picked, and its interval is valid
    given that pick; the two estimates are not independent (each half both picks and
    measures), so ``edge_low``/``edge_high`` is the average of the two halves' 97.5%
    intervals: it covers the average true edge of the two picks whenever both cover, which
    happens with probability ≥ 95% whatever their dependence (Bonferroni). Wider than an
    interval that assumed independence, but honest. When both halves pick the same θ the
    estimate equals that θ's full-sample edge; when they disagree it is lower, as it should
    be. The field's own θ would be the field (the same strategy in every seat), whose seat
    wins exactly 1/n averaged over the rotations, so the edge over the fair share is also
    the edge over switching to the field's θ (``field_theta``).

    Parameters
    ----------
    out : path
        The dataset.
    group : str
        The θ sweep's study block.
    alpha : float
        Level of the Holm-adjusted tests of the set.
    n_boot, seed
        Ignored (the bootstrap of the winning θ is gone); accepted so that old callers
        still run. Will be removed.

    Returns
    -------
    polars.DataFrame
        One row per player count: ``players, deals`` (played at every θ), ``field_theta``
        (None when the field has no θ), ``best_theta``, ``win_share`` (its mean over the
        deals), ``theta_set`` (list, ascending), ``set_low``/``set_high`` (its min and max),
        ``grid_low``/``grid_high`` (the tested θ), ``grid_brackets_best``, ``grid_note``;
        ``pick_even``, ``edge_odd_pp``/``_low``/``_high``, ``pick_odd``,
        ``edge_even_pp``/``_low``/``_high``, ``edge_pp``/``edge_low``/``edge_high`` (held
        out, as above); ``edge_in_sample_pp``/``_low``/``_high`` (the best's edge on all
        deals, t interval: optimistic, secondary); and the sample-size columns of the
        held-out edge (``games_for_1pp`` counts deals). Deprecated aliases: ``games``
        (= ``deals``), ``theta_low``/``theta_high`` (= ``set_low``/``set_high``).
    """
    del n_boot, seed  # deprecated, ignored
    deals = _deal_shares(out, group)
    field = _field_thetas(out, group)
    result = []
    for n in sorted(deals["players"].unique()):
        index, thetas, x = _deal_matrix(deals, n)
        if not len(x):
            continue
        c = _compare(x, alpha)
        best = float(thetas[c["best"]])
        members = [float(t) for t in thetas[c["not_worse"]]]
        grid = [float(t) for t in thetas]
        note = grid_note(best, members, grid)
        even = index % 2 == 0
        odd = ~even
        row = {
            "players": n,
            "deals": len(x),
            "field_theta": field.get(n),
            "best_theta": best,
            "win_share": float(x[:, c["best"]].mean()),
            "theta_set": members,
            "set_low": min(members),
            "set_high": max(members),
            "grid_low": min(grid),
            "grid_high": max(grid),
            "grid_brackets_best": not note,
            "grid_note": note,
        }
        halves = []
        for picked, measured, pick, on in (("even", "odd", even, odd), ("odd", "even", odd, even)):
            j, m, lo, hi = _half_edge(x, pick, on, n, 0.95)
            _, _, lo2, hi2 = _half_edge(x, pick, on, n, 0.975)
            row[f"pick_{picked}"] = float(thetas[j]) if j >= 0 else None
            row |= {f"edge_{measured}_pp": m, f"edge_{measured}_low": lo,
                    f"edge_{measured}_high": hi}  # fmt: skip
            halves.append((m, lo2, hi2))
        row["edge_pp"] = float(np.mean([h[0] for h in halves]))
        row["edge_low"] = float(np.mean([h[1] for h in halves]))
        row["edge_high"] = float(np.mean([h[2] for h in halves]))
        g, glo, ghi = mean_interval(100 * (x[:, c["best"]] - 1 / n))
        row |= {"edge_in_sample_pp": g, "edge_in_sample_low": glo, "edge_in_sample_high": ghi}
        result.append(row)
    order = ["players", "deals", "field_theta", "best_theta", "win_share", "theta_set",
             "set_low", "set_high", "grid_low", "grid_high", "grid_brackets_best", "grid_note",
             "pick_even", "edge_odd_pp", "edge_odd_low", "edge_odd_high", "pick_odd",
             "edge_even_pp", "edge_even_low", "edge_even_high", "edge_pp", "edge_low",
             "edge_high", "edge_in_sample_pp", "edge_in_sample_low",
             "edge_in_sample_high"]  # fmt: skip
    schema = {k: pl.Float64 for k in order} | {
        "players": pl.Int64, "deals": pl.Int64, "theta_set": pl.List(pl.Float64),
        "grid_brackets_best": pl.Boolean, "grid_note": pl.String,
    }  # fmt: skip
    table = pl.DataFrame(result, schema=schema).with_columns(
        pl.col("deals").alias("games"),
        pl.col("set_low").alias("theta_low"),
        pl.col("set_high").alias("theta_high"),
    )
    return annotate(table, "edge_pp", "edge_low", "edge_high", n="deals", share=False,
                    unit="deals", pp=True)  # fmt: skip


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
        raise KeyError(f"{out} has no study block {group!r}")
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

    from analysis.pdf import count_colour

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

    from analysis.pdf import count_colour

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
