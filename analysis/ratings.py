"""A rating of every strategy in a study (Bradley–Terry, on the Elo scale), for any game.

Each game is split into its pairwise results: for every two seats with different
strategies, the one ranked higher by the game's win rule (its
:attr:`~sims.core.game.ResultSchema.win_keys`, compared in order: the score first, then
the game's tie-breaks) beats the other; equal ranks count half to each. Bradley–Terry
strengths are fitted to these pairs per player count (a strategy's spec means different
parameters at different counts) and shown as Elo points (400 = 10:1 odds), centred on the
mean strategy. A Poisson bootstrap over games gives 95% intervals. Specs that play
identically at a count (the game's ``strategy_identity``: New York Slice's ``heuristic``
and ``heuristic(theta=1)`` when 1 is the preset's θ) are rated as one strategy under the
shortest name, the others listed in ``aliases``. Arms of a treatment variant
(:func:`analysis.load.treatment`) are left out (they play another game). Each pair with
games gets half a win each way as a prior, so a strategy that never won (or never lost)
still gets a finite rating.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.load import rows as load_rows
from analysis.load import untreated
from analysis.samplesize import annotate
from analysis.stats import ELO_PER_LOG, bradley_terry
from sims.core.errors import SlicelabError
from sims.core.game import get_game


def compare(keys: list[np.ndarray], i: int, j: int) -> np.ndarray:
    """Per game, seat ``i`` against seat ``j`` under a lexicographic win rule: +1 where
    ``i`` ranks higher, -1 where ``j`` does, 0 where they are equal on every key
    (``keys``: the win-key columns in order, each ``(games, players)``, higher better)."""
    cmp = np.zeros(len(keys[0]), dtype=np.int64)
    for k in keys:
        undecided = cmp == 0
        cmp[undecided] = np.sign(k[undecided, i] - k[undecided, j])
    return cmp


def _pairs(sub: pl.DataFrame, names: list[str]) -> tuple[np.ndarray, ...]:
    """(game id, winner-or-first strategy, other strategy, result 1/0.5) of every pair."""
    gid, a, b, r = [], [], [], []
    code = {s: i for i, s in enumerate(names)}
    for _, arm in sub.group_by("arm", maintain_order=True):
        arm = arm.sort("game_index", "seat")
        n = int(arm["players"][0])
        strat = np.array([code[s] for s in arm["strategy"]]).reshape(-1, n)
        keys = [arm[k].to_numpy().astype(np.int64).reshape(-1, n)
                for k in get_game(arm["game"][0]).results.win_keys]  # fmt: skip
        games = arm["game_index"].to_numpy().reshape(-1, n)[:, 0]
        ids = np.unique(arm["arm"])[0]
        for i in range(n):
            for j in range(i + 1, n):
                diff = strat[:, i] != strat[:, j]
                if not diff.any():
                    continue
                cmp = compare([k[diff] for k in keys], i, j)
                si, sj = strat[diff, i], strat[diff, j]
                gid.append(np.char.add(ids + ":", games[diff].astype(str)))
                a.append(np.where(cmp < 0, sj, si))
                b.append(np.where(cmp < 0, si, sj))
                r.append(np.where(cmp == 0, 0.5, 1.0))
    if not gid:
        return (np.array([]),) * 4
    return tuple(np.concatenate(x) for x in (gid, a, b, r))


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


def _wins(k: int, a: np.ndarray, b: np.ndarray, r: np.ndarray, w: np.ndarray) -> np.ndarray:
    wins = np.zeros((k, k))
    np.add.at(wins, (a, b), w * r)
    np.add.at(wins, (b, a), w * (1 - r))
    played = (wins + wins.T) > 0
    return wins + 0.5 * played


def ratings(out, n_boot: int = 200, seed: int = 0) -> pl.DataFrame:
    """Ratings of every strategy that met another one, per player count.

    Returns
    -------
    polars.DataFrame
        ``players, strategy, rating`` (Elo points, mean 0) with ``low``/``high`` (95%
        bootstrap), ``aliases`` (other specs that play identically), ``pairs`` (pairwise
        results it took part in) and ``score_rate`` (its
        share of those results won, ties half), and the sample-size columns
        (``half_width`` in Elo points; the warning counts pairs).
    """
    frame = untreated(load_rows(out, "players"))
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    result = []
    for n in sorted(frame["players"].unique()):
        sub = frame.filter(pl.col("players") == n)
        alias = _aliases(sub, n)
        sub = sub.with_columns(pl.col("strategy").replace(alias))
        names = sorted(sub["strategy"].unique().to_list())
        gid, a, b, r = _pairs(sub, names)
        if len(gid) == 0:
            continue
        a, b = a.astype(int), b.astype(int)
        seen = sorted(set(a) | set(b))
        remap = {s: i for i, s in enumerate(seen)}
        a = np.array([remap[x] for x in a])
        b = np.array([remap[x] for x in b])
        k = len(seen)
        fit = bradley_terry(_wins(k, a, b, r, np.ones(len(a))))
        point = ELO_PER_LOG * fit
        games, inverse = np.unique(gid, return_inverse=True)
        boots = np.array(
            [
                ELO_PER_LOG
                * bradley_terry(
                    _wins(k, a, b, r, rng.poisson(1.0, len(games))[inverse]), tol=1e-8, start=fit
                )
                for _ in range(n_boot)
            ]
        )
        lo, hi = np.quantile(boots, [0.025, 0.975], axis=0)
        for i, s in enumerate(seen):
            involved = (a == i) | (b == i)
            won = np.where(a == i, r, 0) + np.where(b == i, 1 - r, 0)
            result.append(
                {
                    "players": n,
                    "strategy": names[s],
                    "rating": float(point[i]),
                    "low": float(lo[i]),
                    "high": float(hi[i]),
                    "aliases": ", ".join(
                        sorted(k for k, v in alias.items() if v == names[s] and k != v)
                    ),  # fmt: skip
                    "pairs": int(involved.sum()),
                    "score_rate": float(won[involved].sum() / involved.sum()),
                }
            )
    table = pl.DataFrame(result).sort(["players", "rating"], descending=[False, True])
    # the claim of a rating: differs from the mean strategy (0)
    return annotate(table, "rating", "low", "high", n="pairs", share=False, unit="pairs")


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
    ax.set_xlabel("rating (Elo points, mean 0; 95% bootstrap CI)")
    ax.set_title(f"Strategy ratings, {players} players")
    return ax
