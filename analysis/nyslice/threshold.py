"""New York Slice: when is eating a slice better than collecting it?

- :func:`theta_curve`: one seat plays ``heuristic(theta=θ)`` (eat when the eat value
  exceeds θ × the collect value: small θ eats more) against a field of the equilibrium heuristic,
  from every seat in turn on the same deals. The paired unit is the deal: its win share
  averaged over the seats it was played from. Win share by θ with t intervals.
- :func:`best_theta`: the θ with the highest win share, and a bootstrap over deals of
  which θ wins (percentile interval of the winning θ and how often each θ wins).
- :func:`eat_table`: from the per-decision table, how the eat decision relates to the
  slice's pepperoni, its type's number and the majority race (observational: the
  strategy chose, so the outcome columns describe its choices, not their causal payoff).
- :func:`eat_payoff`: the causal payoff, from decisions replayed both ways
  (:func:`sims.games.nyslice.counterfactual.eat_payoffs`), by the same strata.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.load import arm_options, manifest, treatment
from analysis.load import rows as load_rows
from analysis.samplesize import annotate
from analysis.stats import mean_interval, wilson_interval


def _deal_shares(out, group: str) -> pl.DataFrame:
    """Per (players, θ, deal): the candidate's win share averaged over its seats, in
    (players, θ, deal) order (the bootstrap of :func:`best_theta` resamples rows by
    position, so their order must not depend on how the Parquet files were read)."""
    frame = (
        load_rows(out, "players", group)
        .filter(pl.col("seat") == pl.col("rotation"))
        .sort("players", "theta", "game_index", "seat")
    )
    return frame.group_by("players", "theta", "game_index", maintain_order=True).agg(
        pl.col("win_share").mean(), pl.len().alias("seats")
    )


def theta_curve(out, group: str = "theta") -> pl.DataFrame:
    """Win share of the θ seat by θ and player count.

    Returns
    -------
    polars.DataFrame
        ``players, theta, games`` (deals), ``seat_games``, ``win_share`` with
        ``win_low``/``win_high`` (t over deals), ``fair``, ``edge_pp`` (over the fair
        share) and the sample-size columns.
    """
    deals = _deal_shares(out, group)
    result = []
    for (n, theta), sub in deals.group_by("players", "theta", maintain_order=True):
        m, lo, hi = mean_interval(sub["win_share"].to_numpy())
        result.append(
            {
                "players": n,
                "theta": theta,
                "games": sub.height,
                "seat_games": int(sub["seats"].sum()),
                "win_share": m,
                "win_low": max(lo, 0.0),  # a share's interval stays within [0, 1]
                "win_high": min(hi, 1.0),
                "fair": 1 / n,
                "edge_pp": 100 * (m - 1 / n),
            }
        )
    table = pl.DataFrame(result).sort("players", "theta")
    return annotate(table, "win_share", "win_low", "win_high", reference="fair")


def best_theta(out, group: str = "theta", n_boot: int = 1000, seed: int = 0) -> pl.DataFrame:
    """The best θ per player count with a bootstrap interval over deals.

    Returns
    -------
    polars.DataFrame
        ``players, games, best_theta, theta_low, theta_high`` (2.5 and 97.5 percentiles of
        the bootstrap's winning θ), ``p_best`` (share of resamples in which it won),
        ``win_share`` of the best θ and its ``edge_pp`` over the fair share ``1/n`` with a t
        interval over deals (``edge_low``/``edge_high``): what a seat gains against the
        field by using it. (θ equal to the field's own gives exactly the fair share.)
    """
    deals = _deal_shares(out, group)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    result = []
    for n in sorted(deals["players"].unique()):
        wide = (
            deals.filter(pl.col("players") == n)
            .pivot(on="theta", index="game_index", values="win_share")
            .sort("game_index")  # the bootstrap resamples rows by position: fix their order
            .drop("game_index")
        )
        thetas = np.array([float(c) for c in wide.columns])
        order = np.argsort(thetas)
        thetas = thetas[order]
        x = wide.to_numpy()[:, order]
        x = x[~np.isnan(x).any(axis=1)]
        best = int(np.argmax(x.mean(axis=0)))
        idx = rng.integers(0, len(x), size=(n_boot, len(x)))
        wins = np.array([np.argmax(x[i].mean(axis=0)) for i in idx])
        lo, hi = np.quantile(thetas[wins], [0.025, 0.975], method="inverted_cdf")
        g, glo, ghi = mean_interval(100 * (x[:, best] - 1 / n))
        result.append(
            {
                "players": n,
                "games": len(x),
                "best_theta": float(thetas[best]),
                "theta_low": float(lo),
                "theta_high": float(hi),
                "p_best": float(np.mean(wins == best)),
                "win_share": float(x[:, best].mean()),
                "edge_pp": g,
                "edge_low": glo,
                "edge_high": ghi,
            }
        )
    return annotate(pl.DataFrame(result), "edge_pp", "edge_low", "edge_high", share=False, pp=True)


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


def eat_table(out, by: str = "pepperoni", group: str = "decisions") -> pl.DataFrame:
    """How often the equilibrium heuristic eats, and how its eaters and collectors fared, by
    ``by`` (``pepperoni``, ``type_a`` or ``race``) and player count. Observational.

    Returns
    -------
    polars.DataFrame
        ``players, <by>, games`` (decisions), ``smaller_group`` (decisions in the rarer
        choice, which the warning counts), ``eat_rate`` with Wilson ``eat_low``/
        ``eat_high``, ``share_eat`` and ``share_collect`` (mean final win share after each
        choice), ``diff_pp`` with a normal interval, and the sample-size columns.
    """
    frame = eat_decisions(out, group)
    result = []
    for (n, key), sub in frame.group_by("players", by, maintain_order=True):
        ate = sub.filter(pl.col("ate"))["win_share"].to_numpy()
        kept = sub.filter(~pl.col("ate"))["win_share"].to_numpy()
        lo, hi = wilson_interval(len(ate), sub.height)
        if len(ate) > 1 and len(kept) > 1:
            d = 100 * (ate.mean() - kept.mean())
            se = 100 * np.sqrt(ate.var(ddof=1) / len(ate) + kept.var(ddof=1) / len(kept))
        else:
            d, se = float("nan"), float("nan")
        result.append(
            {
                "players": n,
                by: key,
                "games": sub.height,
                "smaller_group": min(len(ate), len(kept)),
                "eat_rate": len(ate) / sub.height,
                "eat_low": lo,
                "eat_high": hi,
                "share_eat": float(ate.mean()) if len(ate) else float("nan"),
                "share_collect": float(kept.mean()) if len(kept) else float("nan"),
                "diff_pp": d,
                "diff_low": d - 1.959964 * se,
                "diff_high": d + 1.959964 * se,
            }
        )
    table = pl.DataFrame(result).sort("players", by)
    # the difference rests on the smaller of the two groups: warn on its size
    return annotate(table, "diff_pp", "diff_low", "diff_high", n="smaller_group", share=False,
                    unit="decisions", pp=True)  # fmt: skip


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


def eat_payoff(payoffs: pl.DataFrame, by: str = "pepperoni") -> pl.DataFrame:
    """The causal payoff of eating over collecting, by ``by`` and player count.

    ``payoffs`` is :func:`sims.games.nyslice.counterfactual.eat_payoffs` output (with a
    ``players`` column): each decision replayed both ways on the same deal.

    Returns
    -------
    polars.DataFrame
        ``players, <by>, games`` (decisions), ``payoff_pp`` (win share, eat − collect)
        with a t interval, ``score_payoff`` with its interval, ``eat_better`` (share of
        decisions where eating won more) and the sample-size columns.
    """
    frame = payoffs.filter(pl.col("slice_kind") == 0).with_columns(
        _race(pl.col("own_count2"), pl.col("rival_count2")).alias("race")
    )
    result = []
    for (n, key), sub in frame.group_by("players", by, maintain_order=True):
        d = 100 * (sub["share_eat"] - sub["share_collect"]).to_numpy()
        s = (sub["score_eat"] - sub["score_collect"]).to_numpy().astype(float)
        m, lo, hi = mean_interval(d)
        sm, slo, shi = mean_interval(s)
        result.append(
            {
                "players": n,
                by: key,
                "games": sub.height,
                "payoff_pp": m,
                "payoff_low": lo,
                "payoff_high": hi,
                "score_payoff": sm,
                "score_low": slo,
                "score_high": shi,
                "eat_better": float(np.mean(d > 0)),
            }
        )
    table = pl.DataFrame(result).sort("players", by)
    return annotate(
        table, "payoff_pp", "payoff_low", "payoff_high", share=False, unit="decisions", pp=True
    )


def plot_theta_curve(table: pl.DataFrame, best: pl.DataFrame | None = None, ax=None):
    """Win share against θ (log axis), one line per player count, fair shares dashed."""
    import matplotlib.pyplot as plt

    ax = ax or plt.subplots(figsize=(7, 4))[1]
    for n in sorted(table["players"].unique()):
        t = table.filter(pl.col("players") == n).sort("theta")
        y = 100 * t["win_share"].to_numpy()
        err = 100 * np.vstack([t["win_share"] - t["win_low"], t["win_high"] - t["win_share"]])
        line = ax.errorbar(t["theta"], y, yerr=err, marker="o", ms=4, capsize=3,
                           label=f"{n} players")  # fmt: skip
        ax.axhline(100 / n, color=line[0].get_color(), ls="--", lw=0.8)
        if best is not None:
            b = best.filter(pl.col("players") == n)
            if b.height:
                ax.axvspan(b["theta_low"][0], b["theta_high"][0], color=line[0].get_color(),
                           alpha=0.08)  # fmt: skip
    ax.set_xscale("log")
    ax.set_xlabel("θ (eat when eat value > θ × collect value; smaller eats more)")
    ax.set_ylabel("win share of the θ seat, % (95% CI)")
    ax.set_title("Eat threshold against the field (bands: bootstrap range of the best θ)")
    ax.legend(fontsize=8, ncols=2)
    return ax


def plot_eat(table: pl.DataFrame, by: str, value: str = "eat_rate", ax=None):
    """A column of :func:`eat_table` or :func:`eat_payoff` against ``by``, per player count."""
    import matplotlib.pyplot as plt

    ax = ax or plt.subplots(figsize=(7, 4))[1]
    low, high = {
        "eat_rate": ("eat_low", "eat_high"),
        "diff_pp": ("diff_low", "diff_high"),
        "payoff_pp": ("payoff_low", "payoff_high"),
    }[value]
    keys = table[by].unique().to_list()
    keys = [k for k in RACE_ORDER if k in keys] if by == "race" else sorted(keys)
    pos = {k: i for i, k in enumerate(keys)}
    for n in sorted(table["players"].unique()):
        t = table.filter(pl.col("players") == n)
        x = np.array([pos[k] for k in t[by]]) + (n - 4) * 0.06
        y = t[value].to_numpy()
        err = np.vstack([y - t[low].to_numpy(), t[high].to_numpy() - y])
        ax.errorbar(x, y, yerr=err, fmt="o", ms=4, capsize=2, label=f"{n} players")
    ax.set_xticks(range(len(keys)), [str(k) for k in keys])
    ax.set_xlabel(by.replace("_", " "))
    ax.set_ylabel(value.replace("_", " "))
    if value != "eat_rate":
        ax.axhline(0, color="black", lw=0.8)
    ax.legend(fontsize=8, ncols=2)
    return ax
