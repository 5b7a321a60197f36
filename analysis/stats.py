"""Interval estimates we stand behind: t intervals of means over independent units
(games, or deals when arms share them), cluster-robust intervals where several rows come
from one such unit, Wilson intervals of shares, percentile bootstraps, Holm's correction,
Bradley-Terry ratings and Plackett-Luce ratings of rankings with ties."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, sparse, special, stats

from sims.core.intervals import mean_interval, wilson_interval  # noqa: F401 (re-exported)


def paired_difference(
    a: np.ndarray, b: np.ndarray, level: float = 0.95
) -> tuple[float, float, float]:
    """Mean of ``a - b`` over paired units with a t interval: ``(mean, low, high)``."""
    return mean_interval(np.asarray(a, dtype=float) - np.asarray(b, dtype=float), level)


def cluster_variance(influence: np.ndarray, clusters: np.ndarray) -> tuple[float, int]:
    """Cluster-robust variance of a statistic from its per-row influence values.

    A statistic ``T`` whose linearisation is ``T - T0 ≈ sum(influence)`` has, when rows of
    one cluster (a game, a deal) are dependent and clusters are independent, the variance
    ``G / (G - 1) * sum_g (sum of influence in cluster g)**2`` (the CR1 sandwich; ``G``
    clusters). With one row per cluster it is the usual variance of a mean.

    Returns
    -------
    (variance, clusters)
        The variance and ``G``, the number of clusters (the interval's unit).
    """
    influence = np.asarray(influence, dtype=float)
    _, inverse = np.unique(np.asarray(clusters), return_inverse=True)
    totals = np.bincount(inverse.ravel(), weights=influence)
    g = len(totals)
    if g < 2:
        return float("nan"), g
    return float(g / (g - 1) * np.sum(totals**2)), g


def cluster_mean_interval(
    values: np.ndarray,
    clusters: np.ndarray,
    weights: np.ndarray | None = None,
    level: float = 0.95,
) -> tuple[float, float, float, int]:
    """Weighted mean of rows that come in dependent clusters, with a cluster-robust t
    interval (``G - 1`` degrees of freedom): ``(mean, low, high, G)``.

    The mean is ``sum(w y) / sum(w)``; its influence per row is ``w (y - mean) / sum(w)``
    (:func:`cluster_variance`). With one row per cluster and unit weights this is exactly
    :func:`mean_interval` over the clusters. ``G`` (the number of clusters) is the ``n`` a
    table should state: the unit is the cluster, not the row.
    """
    y = np.asarray(values, dtype=float)
    w = np.ones_like(y) if weights is None else np.asarray(weights, dtype=float)
    total = w.sum()
    if len(y) == 0 or total <= 0:
        return float("nan"), float("nan"), float("nan"), 0
    m = float((w * y).sum() / total)
    var, g = cluster_variance(w * (y - m) / total, clusters)
    if not np.isfinite(var):
        return m, float("nan"), float("nan"), g
    half = stats.t.ppf(0.5 + level / 2, g - 1) * np.sqrt(var)
    return m, float(m - half), float(m + half), g


def ratio_interval(num: np.ndarray, den: np.ndarray, level: float = 0.95, share: bool = True):
    """``sum(num) / sum(den)`` over independent units (one value each, e.g. a game's
    forgone turns and its turns), with a t interval from the ratio's linearisation:
    ``(estimate, low, high, units)``; a ``share`` keeps its interval within [0, 1]."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    g, total = len(num), den.sum()
    if g == 0 or total <= 0:
        return float("nan"), float("nan"), float("nan"), g
    r = float(num.sum() / total)
    var, g = cluster_variance((num - r * den) / total, np.arange(g))
    if not np.isfinite(var):
        return r, float("nan"), float("nan"), g
    half = stats.t.ppf(0.5 + level / 2, g - 1) * math.sqrt(var)
    low, high = r - half, r + half
    if share:
        low, high = max(low, 0.0), min(high, 1.0)
    return r, low, high, g


def ratio_difference(
    num_a: np.ndarray,
    den_a: np.ndarray,
    num_b: np.ndarray,
    den_b: np.ndarray,
    level: float = 0.95,
) -> tuple[float, float, float, int]:
    """``sum(num_a) / sum(den_a) − sum(num_b) / sum(den_b)`` over the same independent units
    (one value of each per unit, e.g. a game's points and dishes of one kind, and of every
    kind), with a t interval from the linearisation of both ratios (their covariance
    counted): ``(difference, low, high, units)``."""
    arrays = [np.asarray(x, dtype=float) for x in (num_a, den_a, num_b, den_b)]
    na, da, nb, db = arrays
    g = len(na)
    if g == 0 or da.sum() <= 0 or db.sum() <= 0:
        return float("nan"), float("nan"), float("nan"), g
    ra, rb = na.sum() / da.sum(), nb.sum() / db.sum()
    infl = (na - ra * da) / da.sum() - (nb - rb * db) / db.sum()
    var, g = cluster_variance(infl, np.arange(g))
    d = float(ra - rb)
    if not np.isfinite(var):
        return d, float("nan"), float("nan"), g
    half = stats.t.ppf(0.5 + level / 2, g - 1) * math.sqrt(var)
    return d, d - half, d + half, g


def group_difference(
    y: np.ndarray, in_group: np.ndarray, clusters: np.ndarray, level: float = 0.95
) -> tuple[float, float, float, int]:
    """Mean of ``y`` in the group minus out of it, rows clustered (the seats of one game),
    with a cluster-robust t interval: ``(difference, low, high, clusters)``."""
    y = np.asarray(y, dtype=float)
    g = np.asarray(in_group, dtype=bool)
    n1, n0 = int(g.sum()), int((~g).sum())
    if n1 < 1 or n0 < 1:
        return float("nan"), float("nan"), float("nan"), len(np.unique(clusters))
    m1, m0 = y[g].mean(), y[~g].mean()
    infl = np.where(g, (y - m1) / n1, -(y - m0) / n0)
    var, k = cluster_variance(infl, clusters)
    d = float(m1 - m0)
    if not np.isfinite(var) or k < 2:
        return d, float("nan"), float("nan"), k
    half = stats.t.ppf(0.5 + level / 2, k - 1) * math.sqrt(var)
    return d, d - half, d + half, k


def bootstrap_interval(
    values: np.ndarray, statistic=np.mean, n_boot: int = 2000, level: float = 0.95, seed: int = 0
) -> tuple[float, float, float]:
    """Percentile bootstrap interval of ``statistic``: ``(estimate, low, high)``.

    Resamples with a generator seeded from ``SeedSequence(seed)`` so the interval is
    reproducible.
    """
    values = np.asarray(values, dtype=float)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    idx = rng.integers(0, len(values), size=(n_boot, len(values)))
    boots = np.array([statistic(values[i]) for i in idx])
    alpha = (1 - level) / 2
    lo, hi = np.quantile(boots, [alpha, 1 - alpha])
    return float(statistic(values)), float(lo), float(hi)


def holm(pvalues: np.ndarray) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values (step-down, monotone, capped at 1)."""
    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="stable")
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adj[i] = running
    return adj


def fair_share_test(wins: np.ndarray, games: int) -> tuple[float, float]:
    """Chi-square goodness of fit of wins per seat against equal shares: ``(statistic, p)``.

    ``wins`` may be fractional (shared wins count 1/k); each game hands out one win.
    """
    wins = np.asarray(wins, dtype=float)
    expected = np.full(len(wins), games / len(wins))
    res = stats.chisquare(wins, expected)
    return float(res.statistic), float(res.pvalue)


def games_for_half_width(p: float = 0.5, half_width: float = 0.01, level: float = 0.95) -> int:
    """Games needed for a proportion near ``p`` to have a ±``half_width`` interval."""
    z = stats.norm.ppf(0.5 + level / 2)
    return int(np.ceil(z * z * p * (1 - p) / half_width**2))


def games_for_power(
    edge: float = 0.01, p: float = 0.5, power: float = 0.8, level: float = 0.95
) -> int:
    """Games needed to detect a win-share edge ``edge`` over ``p`` (two-sided test)."""
    za = stats.norm.ppf(0.5 + level / 2)
    zb = stats.norm.ppf(power)
    return int(np.ceil((za + zb) ** 2 * p * (1 - p) / edge**2))


def bradley_terry(
    wins: np.ndarray, iters: int = 100, tol: float = 1e-10, start: np.ndarray | None = None
) -> np.ndarray:
    """Bradley–Terry strengths from a matrix ``wins[i, j]`` (i beat j; halves for ties), the
    maximum-likelihood fit by Newton's method on the log-strengths; returned centred on 0.

    ``start`` (log-strengths, e.g. the full sample's fit when bootstrapping) speeds up
    convergence; the answer does not depend on it.

    Raises
    ------
    ValueError
        When a player has no win or no loss (its strength would be 0 or infinite).
    """
    w = np.asarray(wins, dtype=float)
    games = w + w.T
    total_wins = w.sum(axis=1)
    if (total_wins <= 0).any() or (w.sum(axis=0) <= 0).any():
        raise ValueError("every strategy needs at least one win and one loss for Bradley–Terry")
    k = w.shape[0]
    beta = np.zeros(k) if start is None else np.asarray(start, dtype=float) - start[0]

    def loglik(b: np.ndarray) -> float:
        diff = b[:, None] - b[None, :]
        return float(-(w * np.logaddexp(0.0, -diff)).sum())

    current = loglik(beta)
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(beta[:, None] - beta[None, :])))
        grad = total_wins - (games * p).sum(axis=1)
        info = games * p * p.T
        hess = np.diag(info.sum(axis=1)) - info  # observed information (positive semidefinite)
        # beta[0] is fixed at 0: solve on the others
        step = np.zeros(k)
        step[1:] = np.linalg.solve(hess[1:, 1:], grad[1:])
        t = 1.0
        while True:  # halve the step until the likelihood does not fall
            trial = beta + t * step
            value = loglik(trial)
            if value >= current - 1e-12 or t < 1e-6:
                break
            t /= 2
        beta, current = trial, value
        if np.max(np.abs(t * step)) < tol:
            break
    return beta - beta.mean()


ELO_PER_LOG = 400 / np.log(10)
"""Elo points per unit of Bradley–Terry log-strength (400 Elo = 10:1 odds)."""


def normal_p(estimate, low, high, level: float = 0.95):
    """Two-sided p-value of ``estimate = 0`` from a symmetric normal/t interval (for Holm);
    elementwise on arrays."""
    est, lo, hi = (np.asarray(v, dtype=float) for v in (estimate, low, high))
    z = stats.norm.ppf(0.5 + level / 2)
    se = (hi - lo) / (2 * z)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * stats.norm.sf(np.abs(est) / se)
    p = np.where(se == 0, np.where(est != 0, 0.0, 1.0), p)  # zero width: the estimate is certain
    p = np.where(np.isfinite(se) & (se >= 0), p, np.nan)
    return float(p) if p.ndim == 0 else p


def bonferroni_interval(estimate, low, high, m: int, level: float = 0.95):
    """Widen a symmetric normal/t interval at ``level`` to a family of ``m`` claims.

    The standard error is read back from the interval's width; the result is the interval
    at level ``1 − (1 − level)/m``, so that all ``m`` intervals of a family cover together
    with probability ≥ ``level`` (Bonferroni). Use it for every claim that picks the
    largest of several effects: the picked one's interval is then honest about the pick.

    Parameters
    ----------
    estimate, low, high : float or numpy.ndarray
        The estimate and its interval at ``level`` (arrays: one claim each, elementwise).
    m : int
        The family's size (the number of effects the claim picked from); 1 changes nothing.
    level : float
        The interval's level.

    Returns
    -------
    (float, float) or (numpy.ndarray, numpy.ndarray)
        The widened interval (nan where the interval is undefined, or ``m`` < 1).
    """
    est, lo, hi = (np.asarray(v, dtype=float) for v in (estimate, low, high))
    z = stats.norm.ppf(0.5 + level / 2)
    z_m = stats.norm.ppf(1 - (1 - level) / (2 * max(m, 1)))
    half = (hi - lo) / 2 * z_m / z
    centre = (hi + lo) / 2  # the interval's own centre: a clipped share keeps its side
    bad = ~(np.isfinite(lo) & np.isfinite(hi)) | (m < 1)
    a = np.where(bad, np.nan, np.minimum(est, centre - half))
    b = np.where(bad, np.nan, np.maximum(est, centre + half))
    if a.ndim == 0:
        return float(a), float(b)
    return a, b


SPARSE_UNITS = 30
"""Fewer units than this carrying an effect (non-zero differences) make a normal interval
meaningless: :func:`sign_test` marks the effect ``sparse`` and claims rest on the exact
test instead."""


@dataclass(frozen=True)
class SignTest:
    """The exact two-sided sign test of paired differences.

    Attributes
    ----------
    n : int
        Units (deals) compared.
    nonzero : int
        Units whose difference is not 0: the units that carry the effect.
    positive, negative : int
        Units with a positive / negative difference.
    p : float
        Exact two-sided binomial p of ``positive`` among ``nonzero`` at 1/2 (1.0 when no
        unit differs).
    """

    n: int
    nonzero: int
    positive: int
    negative: int
    p: float

    @property
    def sparse(self) -> bool:
        """True when fewer than :data:`SPARSE_UNITS` units carry the effect."""
        return self.nonzero < SPARSE_UNITS

    def sentence(self, unit: str = "deals") -> str:
        """``"4 of 4,000 deals differ (1 up, 3 down; exact sign test p = 0.62)"``."""
        return (
            f"{self.nonzero:,} of {self.n:,} {unit} differ ({self.positive:,} up, "
            f"{self.negative:,} down; exact sign test p = {self.p:.2g})"
        )


def sign_test(d: np.ndarray, tolerance: float = 1e-12) -> SignTest:
    """Exact two-sided sign test of paired differences ``d`` (one per unit).

    Differences within ``tolerance`` of 0 count as no difference. Unlike a t interval it
    is exact however few units differ, so an effect carried by a handful of deals is
    tested, and worded, by it.
    """
    d = np.asarray(d, dtype=float)
    d = d[np.isfinite(d)]
    pos = int((d > tolerance).sum())
    neg = int((d < -tolerance).sum())
    k = pos + neg
    p = 1.0 if k == 0 else float(stats.binomtest(pos, k, 0.5).pvalue)
    return SignTest(len(d), k, pos, neg, p)


# ----------------------------------------------------------------------------- Plackett–Luce


@dataclass(frozen=True)
class PlackettLuceFit:
    """A fitted Plackett–Luce (Davidson–Luce) model.

    Attributes
    ----------
    strength : numpy.ndarray
        Log-strength of each item, centred on 0 (``ELO_PER_LOG * strength`` is Elo).
    ties : dict
        Tie prevalence ``δ_d`` per tie size ``d`` seen in the weighted data (sizes never
        seen have ``δ_d = 0``, their maximum-likelihood value, and are not listed).
    loglik : float
        The penalised log-likelihood at the fit (prior included).
    """

    strength: np.ndarray
    ties: dict[int, float]
    loglik: float


class Rankings:
    """Rankings (with ties) of seats, each seat an item, reduced once to the sufficient
    statistics of the Davidson–Luce model so that it can be fitted under any weights of
    the rankings (the bootstrap): see :func:`plackett_luce` for the model.

    Parameters
    ----------
    ranks : array (rankings, seats)
        Each seat's place, lower better; equal places are ties (only the order matters:
        ``[0, 2, 2, 1]`` and ``[0, 3, 3, 1]`` are the same ranking).
    items : array (rankings, seats)
        The item (strategy) of each seat, ``0 .. k-1``; several seats may hold one item.
    k : int, optional
        Number of items (default ``items.max() + 1``); every item must appear.
    prior : float
        Pseudo-wins each way (default half a win) between every two items that met in one
        ranking: keeps strengths finite when an item never wins, or never loses.

    Raises
    ------
    ValueError
        On mismatched shapes, an item that never appears, or items that never meet (their
        relative strengths would not be identified).
    """

    def __init__(self, ranks, items, k: int | None = None, prior: float = 0.5) -> None:
        ranks = np.asarray(ranks)
        items = np.asarray(items, dtype=np.int64)
        if ranks.ndim != 2 or ranks.shape != items.shape or ranks.shape[1] < 2:
            raise ValueError("ranks and items must be (rankings, seats) arrays, 2+ seats")
        games, n = ranks.shape
        if n > 20:
            raise ValueError("at most 20 seats per ranking")
        k = int(items.max()) + 1 if k is None else int(k)
        if items.min() < 0 or items.max() >= k:
            raise ValueError(f"items must be codes 0..{k - 1}")
        missing = sorted(set(range(k)) - set(np.unique(items).tolist()))
        if missing:
            raise ValueError(f"items {missing} appear in no ranking")
        self.k, self.n, self.games, self.prior = k, n, games, float(prior)

        # the items of every two seats that met, for the prior; and a check that they connect
        rows, row_of = np.unique(items, axis=0, return_inverse=True)
        row_of = row_of.ravel()
        met = {(a, b) for r in rows.tolist() for a in r for b in r if a < b}
        self.pairs = np.array(sorted(met), dtype=np.int64).reshape(-1, 2)
        parent = list(range(k))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for a, b in met:
            parent[find(a)] = find(b)
        parts: dict[int, list[int]] = {}
        for i in range(k):
            parts.setdefault(find(i), []).append(i)
        if len(parts) > 1:
            raise ValueError(f"items in separate groups never meet: {list(parts.values())}")

        # every choice stage of every ranking: from the seats still unplaced (R), the group
        # placed next (G, one seat or tied seats), as bit masks of seats
        geq = ranks[:, None, :] >= ranks[:, :, None]  # [g, s, t]: t is not ahead of s
        eq = ranks[:, None, :] == ranks[:, :, None]
        bits = np.int64(1) << np.arange(n, dtype=np.int64)
        r_mask = (geq * bits).sum(axis=2)
        g_mask = (eq * bits).sum(axis=2)
        first = ~(eq & np.tri(n, n, -1, dtype=bool)[None]).any(axis=2)  # one stage per group
        keep = first & (geq.sum(axis=2) >= 2)  # the last seat alone is no choice
        game_of, _ = np.nonzero(keep)
        key = (row_of[game_of] << (2 * n)) | (r_mask[keep] << n) | g_mask[keep]
        ukey, stage_key = np.unique(key, return_inverse=True)
        # the stage's counts per item: remaining (R) and placed (G)
        seat_items = rows[ukey >> (2 * n)]
        in_r = (ukey[:, None] >> (n + np.arange(n))) & 1
        in_g = (ukey[:, None] >> np.arange(n)) & 1
        rc = np.zeros((len(ukey), k), dtype=np.int64)
        gc = np.zeros((len(ukey), k), dtype=np.int64)
        idx = np.repeat(np.arange(len(ukey)), n)
        np.add.at(rc, (idx, seat_items.ravel()), in_r.ravel())
        np.add.at(gc, (idx, seat_items.ravel()), in_g.ravel())
        cells, cell_of_key = np.unique(np.hstack([rc, gc]), axis=0, return_inverse=True)
        cell_of_stage = cell_of_key.ravel()[stage_key.ravel()]
        self.stages = sparse.csr_matrix(
            (np.ones(len(game_of)), (game_of, cell_of_stage)), shape=(games, len(cells))
        )  # rankings x cells: how often each ranking made each choice
        types, type_of_cell = np.unique(cells[:, :k], axis=0, return_inverse=True)
        self.tie_sizes = sorted({int(s) for s in cells[:, k:].sum(axis=1) if s > 1})
        sizes = {1, *self.tie_sizes}

        # the alternatives of every choice: each sub-multiset of R of an allowed size
        alt_type, alt_counts, lookup = [], [], {}
        for t, c in enumerate(types):
            support = np.flatnonzero(c)
            for g in itertools.product(*(range(int(c[i]) + 1) for i in support)):
                if sum(g) in sizes:
                    counts = np.zeros(k, dtype=np.int64)
                    counts[support] = g
                    lookup[(t, counts.tobytes())] = len(alt_type)
                    alt_type.append(t)
                    alt_counts.append(counts)
        self.alt_type = np.array(alt_type)
        counts = np.array(alt_counts)
        self.alt_size = counts.sum(axis=1)
        # features: strength of the group (mean log-strength), log δ of its size
        ties = np.array([[s == d for d in self.tie_sizes] for s in self.alt_size], dtype=float)
        self.features = np.hstack([counts / self.alt_size[:, None], ties.reshape(len(counts), -1)])
        self.log_mult = special.gammaln(types[self.alt_type] + 1).sum(axis=1) - (
            special.gammaln(counts + 1) + special.gammaln(types[self.alt_type] - counts + 1)
        ).sum(axis=1)  # seat subsets with these counts: prod C(c_i, g_i)
        self.type_start = np.flatnonzero(np.r_[True, np.diff(self.alt_type) != 0])
        self.alt_of_cell = np.array(
            [lookup[(int(t), g.tobytes())] for t, g in zip(type_of_cell.ravel(), cells[:, k:],
                                                            strict=True)]
        )  # fmt: skip
        self.type_of_cell = type_of_cell.ravel()

    def fit(
        self, weights: np.ndarray | None = None, start: PlackettLuceFit | None = None
    ) -> PlackettLuceFit:
        """Maximise the penalised likelihood with the rankings weighted by ``weights``
        (default 1 each; a bootstrap passes resampling counts). ``start`` (e.g. the full
        sample's fit) only speeds convergence."""
        w = np.ones(self.games) if weights is None else np.asarray(weights, dtype=float)
        if w.shape != (self.games,) or (w < 0).any():
            raise ValueError(f"weights must be {self.games} non-negative numbers")
        cell_w = self.stages.T @ w
        seen = np.bincount(self.alt_size[self.alt_of_cell], weights=cell_w,
                           minlength=self.n + 1)  # fmt: skip
        active = [d for d in self.tie_sizes if seen[d] > 0]
        # free parameters: log-strengths of items 1..k-1 (item 0 fixed at 0), log δ of the
        # tie sizes seen in these weights; alternatives of unseen tie sizes drop out
        cols = list(range(1, self.k)) + [self.k + self.tie_sizes.index(d) for d in active]
        on = (self.alt_size == 1) | np.isin(self.alt_size, active)
        x = self.features[:, cols]
        offset = np.where(on, self.log_mult, -np.inf)
        typ = self.alt_type
        starts = self.type_start
        type_w = np.bincount(self.type_of_cell, weights=cell_w, minlength=len(starts))
        observed = np.bincount(self.alt_of_cell, weights=cell_w, minlength=len(typ)) @ x
        a, b = self.pairs[:, 0], self.pairs[:, 1]

        def theta(beta: np.ndarray) -> np.ndarray:
            return np.r_[0.0, beta[: self.k - 1]]

        def parts(beta: np.ndarray):
            eta = x @ beta + offset
            top = np.maximum.reduceat(eta, starts)
            e = np.exp(eta - top[typ])
            z = np.add.reduceat(e, starts)
            p = e / z[typ]
            d = theta(beta)[a] - theta(beta)[b]
            value = -observed @ beta + type_w @ (top + np.log(z))
            value += self.prior * 2 * np.logaddexp(d / 2, -d / 2).sum()
            return p, d, value

        def fun(beta: np.ndarray) -> tuple[float, np.ndarray]:
            p, d, value = parts(beta)
            grad = -observed + (type_w[typ] * p) @ x
            g_prior = np.zeros(self.k)
            np.add.at(g_prior, a, self.prior * np.tanh(d / 2))
            np.add.at(g_prior, b, -self.prior * np.tanh(d / 2))
            grad[: self.k - 1] += g_prior[1:]
            return float(value), grad

        def hess(beta: np.ndarray) -> np.ndarray:
            p, d, _ = parts(beta)
            q = type_w[typ] * p
            m = np.add.reduceat(p[:, None] * x, starts)
            h = (x * q[:, None]).T @ x - (m * type_w[:, None]).T @ m
            c = self.prior / 2 / np.cosh(d / 2) ** 2
            hp = np.zeros((self.k, self.k))
            np.add.at(hp, (a, a), c)
            np.add.at(hp, (b, b), c)
            np.add.at(hp, (a, b), -c)
            np.add.at(hp, (b, a), -c)
            h[: self.k - 1, : self.k - 1] += hp[1:, 1:]
            return h

        beta0 = np.zeros(len(cols))
        if start is not None:
            beta0[: self.k - 1] = start.strength[1:] - start.strength[0]
            for i, d in enumerate(active):
                if start.ties.get(d, 0) > 0:
                    beta0[self.k - 1 + i] = np.log(start.ties[d])
        res = optimize.minimize(fun, beta0, jac=True, hess=hess, method="trust-exact",
                                options={"gtol": 1e-9})  # fmt: skip
        th = theta(res.x)
        ties = {d: float(np.exp(res.x[self.k - 1 + i])) for i, d in enumerate(active)}
        return PlackettLuceFit(th - th.mean(), ties, -float(res.fun))


def plackett_luce(
    ranks, items, k: int | None = None, weights=None, prior: float = 0.5
) -> PlackettLuceFit:
    """Plackett–Luce strengths from rankings with ties (the Davidson–Luce model), by
    maximum likelihood.

    Each ranking is read as successive choices: from the seats not yet placed (``R``) the
    next place goes to one seat or to a group of tied seats ``G``, with probability
    ``δ_|G| · (prod_{i in G} s_i)^(1/|G|) / Z(R)``, ``Z(R)`` summing the same over every
    subset of ``R`` of an allowed size (Firth, Kosmidis & Turner 2019, "Davidson–Luce
    model for multi-item choice with ties"; ``δ_1 = 1``). Without ties it is the
    Plackett–Luce model (with two seats, Bradley–Terry); a tie of two is Davidson's
    (1970) tie model. ``s_i = exp(strength)`` of the seat's item; several seats may hold
    one item. The tie prevalences ``δ_d`` are fitted with the strengths (one per tie size
    seen; a size never seen has ``δ_d = 0``). Ties carry information: a tie with a group
    is worth its geometric-mean strength.

    The negative log-likelihood is convex in (log-strengths, log δ); it is minimised by
    ``scipy.optimize`` (trust region, analytic gradient and Hessian) with item 0's
    log-strength fixed at 0 (identifiability); the strengths are returned centred on 0.
    A prior of ``prior`` pseudo-wins each way between every two items that met (the
    Bradley–Terry term ``prior * [log σ(θa-θb) + log σ(θb-θa)]``, half a win by default)
    keeps strengths finite when an item never wins or never loses; it does not depend on
    the weights.

    Parameters
    ----------
    ranks, items, k, prior
        See :class:`Rankings`.
    weights : array (rankings,), optional
        Weight of each ranking (default 1).

    Returns
    -------
    PlackettLuceFit
    """
    return Rankings(ranks, items, k, prior).fit(weights)
