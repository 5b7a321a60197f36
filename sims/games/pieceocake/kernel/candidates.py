"""A search seat's candidate actions, compiled: the twin of ``SearchStrategy.candidates``.

When a ``search`` seat reaches a decision, ``flow._decide`` calls :func:`_search_pause`
on the live state: it notes the decision (its number, seat, phase and round) and its
candidates, and marks the replay paused (``G_PAUSE``); ``search.py`` then plays them out.
At a CUT the candidates are the ``cuts`` best cuts by the CUT evaluation with the seat's
heuristic columns (the player-count default, ``runner.seat_params``, as the reference
ranks them with ``params_for(n, {})``), written to T_CAND as rows of the mask table; at
every other decision they are every legal action (only their count is noted).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.games.pieceocake.kernel.layout import (
    F_ARC,
    F_HP,
    G_MOST,
    G_N,
    G_NCAND,
    G_NDEC,
    G_NMASKS,
    G_NTURNS,
    G_PAT,
    G_PAUSE,
    G_PPHASE,
    G_PROUND,
    G_PSEAT,
    G_ROUND,
    H_FEWER,
    H_LOSS,
    H_THETA,
    MT_ARC,
    MT_K,
    NC,
    P_CUT,
    R_AFTER_TAKE,
    R_FORGO_EATS,
    R_FORGO_ENDS,
    R_TIES,
    S_CUTS,
    T_CAND,
    T_G,
    T_ORDER,
    T_RULES,
)
from sims.games.pieceocake.kernel.value import _arc_values, _derive, _forgo_value, _stats


@njit(cache=True)
def _top(values, k, out):
    """search._top: the indices of the k largest values (the first of equals), in index
    order, written to ``out``; returns how many."""
    size = values.shape[0]
    if k >= size:
        for i in range(size):
            out[i] = i
        return size
    taken = np.zeros(size, dtype=np.bool_)
    for _ in range(k):
        best = -1
        for i in range(size):
            if not taken[i] and (best < 0 or values[i] > values[best]):
                best = i
        taken[best] = True
    c = 0
    for i in range(size):
        if taken[i]:
            out[c] = i
            c += 1
    return c


@njit(cache=True)
def _cut_scores(tab, ftab, seat, mtab, out):
    """strategies.cut_values: the CUT evaluation of every legal cut (``out[i]`` for mask
    table row i), with the heuristic's valuation and the seat's own parameters, each cut's
    round played as ``cut_values_loop`` reads, in the same float order (the value of the
    server's picks and forgo turns in turn order, then ``fewer * (most - pieces)``).

    Unlike ``choose._cut``, which prunes the cuts that cannot win, every cut is scored."""
    n = tab[T_G, G_N]
    ties = tab[T_RULES, R_TIES]
    theta = ftab[F_HP + seat, H_THETA]
    _stats(tab)
    for t in range(n):  # row F_ARC + t: the arcs' values to seat t, as the server values
        _derive(tab, t)
        _arc_values(tab, ftab, t, True, ties, theta, NC)
    _derive(tab, seat)
    loss = ftab[F_HP + seat, H_LOSS]
    fv, _v, _k = _forgo_value(tab, ftab, True, ties, loss, tab[T_RULES, R_FORGO_EATS])
    fewer = ftab[F_HP + seat, H_FEWER]
    most = tab[T_G, G_MOST]
    ends = tab[T_RULES, R_FORGO_ENDS] != 0
    after_take = tab[T_RULES, R_AFTER_TAKE] != 0
    nturns = tab[T_G, G_NTURNS]
    for i in range(tab[T_G, G_NMASKS]):
        k = mtab[i, MT_K]
        taken = 0
        free = k
        stopped = 0
        took = 0
        ev = 0.0
        for q in range(nturns):
            t = tab[T_ORDER, q]
            if (stopped >> t) & 1:
                continue
            if free == 0:
                if (took >> t) & 1 and not after_take:
                    continue  # it has had its piece: the turn passes
                if t == seat:
                    ev += fv
                if ends:
                    stopped |= 1 << t
                continue
            pick = -1
            pv = -np.inf
            for j in range(k):
                if not (taken >> j) & 1:
                    x = ftab[F_ARC + t, mtab[i, MT_ARC + j]]
                    if x > pv:
                        pick = j
                        pv = x
            taken |= 1 << pick
            took |= 1 << t
            free -= 1
            if t == seat:
                ev += pv
        ev += fewer * (most - k)
        out[i] = ev


@njit(cache=True)
def _search_pause(tab, ftab, mtab, seat, phase, nlegal):
    """Note search seat ``seat``'s decision and its candidates (SearchStrategy.candidates,
    decision for decision) and pause the replay."""
    tab[T_G, G_PAUSE] = 1
    tab[T_G, G_PAT] = tab[T_G, G_NDEC]
    tab[T_G, G_PSEAT] = seat
    tab[T_G, G_PPHASE] = phase
    tab[T_G, G_PROUND] = tab[T_G, G_ROUND]
    if phase == P_CUT:
        scores = np.empty(tab[T_G, G_NMASKS])
        _cut_scores(tab, ftab, seat, mtab, scores)
        tab[T_G, G_NCAND] = _top(scores, int(ftab[F_HP + seat, S_CUTS]), tab[T_CAND])
    else:
        tab[T_G, G_NCAND] = nlegal
