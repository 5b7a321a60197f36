"""A rating of every strategy in a study (Plackett–Luce, on the Elo scale), for any game.

Each game is one ranking of its seats by the game's win rule (its
:attr:`~sims.core.game.ResultSchema.win_keys`, compared in order: usually the score
first, then the game's tie-breaks); seats equal on every key are tied. Plackett–Luce strengths are
fitted to these rankings per player count (a strategy's spec means different parameters
at different counts) by maximum likelihood (:func:`analysis.stats.plackett_luce`): ties
follow the Davidson–Luce model (a tied group counts with its geometric-mean strength and a
tie-prevalence parameter per tie size), several seats of one strategy are each an item of
that strategy's strength, and half a win each way between every two strategies that met
is the prior that keeps a strategy that never won (or never lost) finite. Ratings are
shown as Elo points (400 = 10:1 odds: ``400 / ln 10`` per unit of log-strength), centred
on the mean strategy.

**Intervals resample deals.** Every arm of a study block plays game ``i`` on the same deal
(``rotate = true`` seats each strategy in turn on it; a grid replays it per value), and
blocks that share the study seed deal game ``i`` the same cards too (the deal and every
seat's random stream derive from ``(seed, game_index)``, :mod:`sims.core.seeding`). So
the unit of the bootstrap is the deal, the cluster ``(seed, players, game_index)``
(:data:`DEAL`): every game of a resampled deal, in every arm and rotation, enters
together. Within one block this is the cluster ``(group, players, game_index)``
(:data:`BLOCK_DEAL`, available through ``cluster=``); across blocks with one seed it also
keeps the copies of a deal together, so ``deals`` counts distinct deals. Intervals are
95% percentile intervals of the bootstrap draws; gaps between strategies
(:func:`rating_gaps`) take the differences of the same draws (paired).

Specs that play identically at a count (the game's ``strategy_identity``: New York Slice's
``heuristic`` and ``heuristic(theta=1)`` when 1 is the preset's θ) are rated as one
strategy under the shortest name, the others listed in ``aliases``. Arms of a treatment
variant (:func:`analysis.load.treatment`) are left out (they play another game), and so
are games whose seats all play one strategy (they say nothing about strengths).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from analysis.load import arms as load_arms
from analysis.load import rows as load_rows
from analysis.load import untreated
from analysis.samplesize import annotate
from analysis.stats import ELO_PER_LOG, Rankings
from sims.core.errors import SlicelabError
from sims.core.game import get_game

DEAL = ("seed", "players", "game_index")
"""The bootstrap's unit: one deal, every game played on it (all arms, rotations and blocks
with that seed)."""
BLOCK_DEAL = ("group", "players", "game_index")
"""One deal within one study block (blocks resampled independently)."""
GAME = ("arm", "game_index")
"""Every game its own unit (ignores that rotations replay a deal; for comparison only)."""
LEVEL = 0.95


def compare(keys: list[np.ndarray], i: int, j: int) -> np.ndarray:
    """Per game, seat ``i`` against seat ``j`` under a lexicographic win rule: +1 where
    ``i`` ranks higher, -1 where ``j`` does, 0 where they are equal on every key
    (``keys``: the win-key columns in order, each ``(games, players)``, higher better)."""
    cmp = np.zeros(len(keys[0]), dtype=np.int64)
    for k in keys:
        undecided = cmp == 0
        cmp[undecided] = np.sign(k[undecided, i] - k[undecided, j])
    return cmp


def places(keys: list[np.ndarray]) -> np.ndarray:
    """Each seat's place in each game (0 = first; equal on every key, equal place): the
    number of seats ranked strictly higher by the lexicographic win rule."""
    n = keys[0].shape[1]
    ahead = np.zeros(keys[0].shape, dtype=np.int64)
    for i in range(n):
        for j in range(i + 1, n):
            c = compare(keys, i, j)
            ahead[:, j] += c > 0
            ahead[:, i] += c < 0
    return ahead


def _games(sub: pl.DataFrame, code: dict[str, int], cluster: tuple[str, ...]):
    """Per game with at least two strategies: places, strategy codes, the cluster columns."""
    ranks, items, meta = [], [], []
    for _, arm in sub.group_by("arm", maintain_order=True):
        arm = arm.sort("game_index", "seat")
        n = int(arm["players"][0])
        strat = np.array([code[s] for s in arm["strategy"]]).reshape(-1, n)
        keys = [arm[k].to_numpy().astype(np.int64).reshape(-1, n)
                for k in get_game(arm["game"][0]).results.win_keys]  # fmt: skip
        mixed = ~(strat == strat[:, :1]).all(axis=1)
        if not mixed.any():
            continue
        ranks.append(places(keys)[mixed])
        items.append(strat[mixed])
        meta.append(arm.gather_every(n).select(*dict.fromkeys((*cluster, "game_index")))
                    .filter(pl.Series(mixed)))  # fmt: skip
    if not ranks:
        return None
    return np.vstack(ranks), np.vstack(items), pl.concat(meta)


def _aliases(sub: pl.DataFrame, players: int) -> dict[str, str]:
    """Each spec → the shortest spec that plays identically at this count (the game's
    ``strategy_identity``; specs it cannot read stay themselves)."""
    groups: dict[str, list[str]] = {}
    for game, spec in sub.select("game", "strategy").unique().iter_rows():
        try:
            key = get_game(game).strategy_identity(spec, players)
        except (SlicelabError, AttributeError, KeyError):
            key = spec
        groups.setdefault(key, []).append(spec)
    return {s: min(g, key=lambda x: (len(x), x)) for g in groups.values() for s in g}


def _pairwise(ranks: np.ndarray, items: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per strategy: pairwise results against seats of other strategies, and their score
    (1 for finishing ahead, 1/2 for a tie)."""
    pairs, score = np.zeros(k), np.zeros(k)
    n = ranks.shape[1]
    for i in range(n):
        for j in range(n):
            other = items[:, i] != items[:, j]
            won = np.where(ranks[:, i] < ranks[:, j], 1.0, np.where(ranks[:, i] == ranks[:, j],
                                                                    0.5, 0.0))  # fmt: skip
            pairs += np.bincount(items[other, i], minlength=k)
            score += np.bincount(items[other, i], weights=won[other], minlength=k)
    return pairs, score


def _frame(out, groups: tuple[str, ...] | None = None) -> pl.DataFrame:
    frame = untreated(load_rows(out, "players"))
    if groups is not None:
        frame = frame.filter(pl.col("group").is_in(list(groups)))
    if "seed" not in frame.columns:
        frame = frame.join(load_arms(out).select("arm", "seed"), on="arm", how="left")
    return frame


def ratings(
    out,
    n_boot: int = 200,
    seed: int = 0,
    cluster: tuple[str, ...] = DEAL,
    groups: tuple[str, ...] | None = None,
) -> pl.DataFrame:
    """Plackett–Luce ratings of every strategy that met another one, per player count
    (only in the study blocks ``groups``, when given).

    Parameters
    ----------
    out : path
        The dataset.
    n_boot : int
        Bootstrap draws (each resamples the deals of a player count with replacement).
    seed : int
        Seeds the bootstrap (``SeedSequence(seed)``): the same seed, the same intervals.
    cluster : tuple of str
        Columns whose values name the bootstrap's unit: :data:`DEAL` (default),
        :data:`BLOCK_DEAL` or :data:`GAME` (each game alone: too narrow when rotations
        replay a deal; for comparison).

    Returns
    -------
    polars.DataFrame
        ``players, strategy, rating`` (Elo points, mean 0) with ``low``/``high`` (95%
        bootstrap over deals), ``aliases`` (other specs that play identically), ``deals``
        (the deals it played: the interval's unit) and ``games`` (the games it played, a
        deal counting once per arm that played it), ``fit_deals``/``fit_games`` (every
        deal and game of the count's fit), ``pairs`` (its pairwise results against other
        strategies) and ``score_rate`` (its share of those won, ties half: raw, not
        adjusted for whom it met), ``ties`` (the fitted tie prevalence δ per tie size at
        the count, e.g. ``"2: 0.031"``), ``boot`` (the bootstrap draws, Elo, in draw order:
        :func:`rating_gaps` pairs them) and the sample-size columns (``half_width`` in Elo
        points; the warning counts deals; the claim: a rating differs from the mean).
    """
    frame = _frame(out, groups)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    result = []
    for n in sorted(frame["players"].unique()):
        sub = frame.filter(pl.col("players") == n)
        alias = _aliases(sub, n)
        sub = sub.with_columns(pl.col("strategy").replace(alias))
        names = sorted(sub["strategy"].unique().to_list())
        found = _games(sub, {s: i for i, s in enumerate(names)}, cluster)
        if found is None:
            continue
        ranks, items, meta = found
        seen = np.unique(items)  # strategies of the mixed games, in name order
        items = np.searchsorted(seen, items)
        k = len(seen)
        try:
            model = Rankings(ranks, items, k)
        except ValueError as exc:
            items_named = [names[s] for s in seen]
            raise SlicelabError(f"{n} players: cannot rate the strategies together ({exc}; "
                                f"items are {items_named})") from None  # fmt: skip
        fit = model.fit()
        point = ELO_PER_LOG * fit.strength
        key = meta.select(pl.concat_str([pl.col(c).cast(pl.String) for c in cluster],
                                        separator="\x1f")).to_series().to_numpy()  # fmt: skip
        _, deal = np.unique(key, return_inverse=True)
        deal = deal.ravel()
        g = int(deal.max()) + 1
        boots = np.array([
            ELO_PER_LOG * model.fit(rng.multinomial(g, np.full(g, 1 / g))[deal], fit).strength
            for _ in range(n_boot)
        ]).reshape(n_boot, k)  # fmt: skip
        alpha = (1 - LEVEL) / 2
        lo, hi = np.quantile(boots, [alpha, 1 - alpha], axis=0) if n_boot else (point * np.nan,) * 2
        pairs, score = _pairwise(ranks, items, k)
        ties = ", ".join(f"{d}: {v:.3g}" for d, v in sorted(fit.ties.items()))
        for i, s in enumerate(seen):
            plays = (items == i).any(axis=1)
            result.append(
                {
                    "players": int(n),
                    "strategy": names[s],
                    "rating": float(point[i]),
                    "low": float(lo[i]),
                    "high": float(hi[i]),
                    "aliases": ", ".join(
                        sorted(a for a, v in alias.items() if v == names[s] and a != v)
                    ),  # fmt: skip
                    "deals": len(np.unique(deal[plays])),
                    "games": int(plays.sum()),
                    "fit_deals": g,
                    "fit_games": len(deal),
                    "pairs": int(pairs[i]),
                    "score_rate": float(score[i] / pairs[i]),
                    "ties": ties,
                    "boot": boots[:, i].tolist(),
                }
            )
    schema = {"players": pl.Int64, "strategy": pl.String, "rating": pl.Float64,
              "low": pl.Float64, "high": pl.Float64, "aliases": pl.String, "deals": pl.Int64,
              "games": pl.Int64, "fit_deals": pl.Int64, "fit_games": pl.Int64,
              "pairs": pl.Int64, "score_rate": pl.Float64, "ties": pl.String,
              "boot": pl.List(pl.Float64)}  # fmt: skip
    table = pl.DataFrame(result, schema=schema).sort(["players", "rating"],
                                                     descending=[False, True])  # fmt: skip
    # the claim of a rating: differs from the mean strategy (0)
    return annotate(table, "rating", "low", "high", n="deals", share=False, unit="deals")


def win_probability(elo: np.ndarray | float) -> np.ndarray | float:
    """The chance the stronger side of an Elo gap finishes ahead: ``1 / (1 + 10^(-d/400))``
    (``s_A / (s_A + s_B)``)."""
    return 1 / (1 + 10 ** (-np.asarray(elo, dtype=float) / 400))


def rating_gaps(
    source: str | Path | pl.DataFrame,
    n_boot: int = 200,
    seed: int = 0,
    cluster: tuple[str, ...] = DEAL,
) -> pl.DataFrame:
    """Every pairwise rating gap per player count, with paired bootstrap intervals.

    Parameters
    ----------
    source : path or polars.DataFrame
        A dataset (rated here with :func:`ratings` and ``n_boot``, ``seed``, ``cluster``)
        or a table :func:`ratings` returned (its ``boot`` draws are used).

    Returns
    -------
    polars.DataFrame
        One row per player count and pair ``a, b`` (``a`` rated higher): ``gap`` (a's
        rating minus b's, Elo) with ``low``/``high``, the 95% percentile interval of the
        differences of the same bootstrap draws (each draw resamples deals, so the two
        ratings' dependence is kept: not the marginal intervals combined); ``win``, the
        implied chance that a finishes ahead of b head to head (``s_a / (s_a + s_b)``;
        under Plackett–Luce without ties also the chance a finishes ahead of b at any
        table), with ``win_low``/``win_high`` from the same draws; ``top_vs_bottom``
        (True for the highest- against the lowest-rated strategy of the count: the
        summary's gap); ``deals`` and ``games`` (the count's fit, what the bootstrap
        resampled; the unit is the deal) and the sample-size columns (claim: the gap is
        not 0; the warning counts deals).
    """
    table = source if isinstance(source, pl.DataFrame) else ratings(source, n_boot, seed, cluster)
    if "boot" not in table.columns:
        raise ValueError("rating_gaps needs the bootstrap draws: pass a dataset, or the "
                         "table ratings() returned (with its 'boot' column)")  # fmt: skip
    alpha = (1 - LEVEL) / 2
    rows = []
    for n in sorted(table["players"].unique()):
        sub = table.filter(pl.col("players") == n).sort("rating", descending=True)
        boots = np.array(sub["boot"].to_list(), dtype=float).reshape(sub.height, -1)
        names, rating = sub["strategy"].to_list(), sub["rating"].to_numpy()
        for i in range(sub.height):
            for j in range(i + 1, sub.height):
                draws = boots[i] - boots[j]
                if draws.size:
                    lo, hi = np.quantile(draws, [alpha, 1 - alpha])
                else:
                    lo = hi = float("nan")
                gap = float(rating[i] - rating[j])
                rows.append({
                    "players": int(n), "a": names[i], "b": names[j], "gap": gap,
                    "low": float(lo), "high": float(hi), "win": float(win_probability(gap)),
                    "win_low": float(win_probability(lo)),
                    "win_high": float(win_probability(hi)),
                    "top_vs_bottom": i == 0 and j == sub.height - 1,
                    "deals": int(sub["fit_deals"][0]), "games": int(sub["fit_games"][0]),
                })  # fmt: skip
    schema = {"players": pl.Int64, "a": pl.String, "b": pl.String, "gap": pl.Float64,
              "low": pl.Float64, "high": pl.Float64, "win": pl.Float64,
              "win_low": pl.Float64, "win_high": pl.Float64, "top_vs_bottom": pl.Boolean,
              "deals": pl.Int64, "games": pl.Int64}  # fmt: skip
    gaps = pl.DataFrame(rows, schema=schema)
    return annotate(gaps, "gap", "low", "high", n="deals", share=False, unit="deals")


def plot_ratings(table: pl.DataFrame, players: int, ax=None):
    """Ratings at one player count with their 95% intervals, best at the top."""
    import matplotlib.pyplot as plt

    t = table.filter(pl.col("players") == players).sort("rating")
    ax = ax or plt.subplots(figsize=(7, 0.3 * t.height + 1.2))[1]
    y = np.arange(t.height)
    ax.errorbar(
        t["rating"], y,
        xerr=np.vstack([t["rating"] - t["low"], t["high"] - t["rating"]]),
        fmt="o", capsize=3,
    )  # fmt: skip
    ax.set_yticks(y, t["strategy"].to_list(), fontsize=8)
    ax.set_xlabel("rating (Elo points, mean 0; 95% bootstrap CI over deals)")
    ax.set_title(f"Strategy ratings, {players} players")
    return ax
