"""A search seat's candidate actions, compiled: the twin of ``SearchStrategy.candidates``.

When a ``search`` seat reaches a decision, ``flow._decide`` calls :func:`_search_pause`
on the live state: it writes the actions worth simulating into the candidate buffer and
marks the replay paused (``G_PAUSE``); ``search.py`` then plays them out. The valuer is
the heuristic's with the seat's own row ``ftab[F_HP + seat]`` (the player-count default,
``runner.seat_params``), as the reference values with ``params_for(n, {})``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.games.nyslice.kernel.choose import _sneak_best
from sims.games.nyslice.kernel.cuts import _arc_count
from sims.games.nyslice.kernel.heuristic import (
    _h_all_types,
    _h_avoid_scores,
    _h_cut_positions,
    _h_cut_values,
    _h_fill_seat,
    _h_judge,
    _h_slice_value,
)
from sims.games.nyslice.kernel.layout import (
    F_HP,
    F_HPRE,
    F_HSUM,
    G_M,
    G_MYH,
    G_NCAND,
    G_PAUSE,
    G_PMYH,
    G_PROUND,
    G_PRPH,
    G_PSEAT,
    G_ROUND,
    G_RPH,
    H_DENY,
    H_TRUST,
    MAX_SEATS,
    NO_SPECIAL,
    P_CUT,
    P_DIBS,
    P_SNEAK,
    S_CUTS,
    S_WIDTH,
    T_COMB,
    T_G,
    T_PIZZA,
)


@njit(cache=True)
def _top(values, k, out, off):
    """search._top: the indices of the k largest values (the first of equals), in index
    order, written to out[off:]; returns how many."""
    size = values.shape[0]
    if min(k, size) > out.shape[0] - off:
        raise ValueError("a search decision has more candidates than the kernel holds")
    if k >= size:
        for i in range(size):
            out[off + i] = i
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
            out[off + c] = i
            c += 1
    return c


@njit(cache=True)
def _h_cut_scores(tab, ftab, me):
    """heuristic.cut_scores: every legal cut's score by rank, each scored in full (the
    walk of _h_best_cut prunes; the search ranks them all)."""
    n, m, circ, spv, first, amask, smask = _h_cut_values(tab, ftab, me)
    total = _arc_count(m, n - 1, circ) + n * _arc_count(m, n, circ)
    if amask != 0:  # a seat plays without the special (restricted play)
        out = np.empty(total)
        _h_avoid_scores(tab, ftab, n, m, circ, me, first, spv, amask, smask, out)
        return out
    trust = ftab[F_HP + me, H_TRUST]
    deny = ftab[F_HP + me, H_DENY]
    omt = 1.0 - trust
    P = ftab[F_HPRE : F_HPRE + MAX_SEATS]
    S = ftab[F_HSUM : F_HSUM + MAX_SEATS]
    comb = tab[T_COMB]
    out = np.empty(total)
    for rank in range(total):
        k, j = _h_cut_positions(m, n, circ, rank, comb)
        for q in range(n):
            _h_fill_seat(P, S, comb, q, n, k, m, circ, spv)
        out[rank] = _h_judge(S, n, me, first, trust, omt, deny, False, -np.inf, True, j, spv)
    return out


@njit(cache=True)
def _search_pause(tab, ftab, cand, seat, phase, nlegal, lrow):
    """Write search seat ``seat``'s candidates for this decision into ``cand`` and pause
    the replay (SearchStrategy.candidates, decision for decision).

    Cuts: the ``cuts`` best by the heuristic's score; Dibs! and Sneak-a-Slice: passing,
    then the ``width`` best slices (by the seat's value) or moves (by the best free
    portion they leave it); every other decision: its legal actions.
    """
    tab[T_G, G_PAUSE] = 1
    tab[T_G, G_PSEAT] = seat
    tab[T_G, G_PROUND] = tab[T_G, G_ROUND]
    tab[T_G, G_PMYH] = tab[T_G, G_MYH]
    tab[T_G, G_PRPH] = tab[T_G, G_RPH]
    c = 0
    if phase == P_CUT or phase == P_DIBS or phase == P_SNEAK:
        _h_all_types(tab, ftab, seat)
    if phase == P_CUT:
        scores = _h_cut_scores(tab, ftab, seat)
        c = _top(scores, int(ftab[F_HP + seat, S_CUTS]), cand, 0)
    elif phase == P_DIBS:
        m = tab[T_G, G_M]
        values = np.empty(m)
        for i in range(m):
            values[i] = _h_slice_value(tab, ftab, seat, seat, tab[T_PIZZA, i], NO_SPECIAL)
        cand[0] = 0
        c = 1 + _top(values, int(ftab[F_HP + seat, S_WIDTH]), cand, 1)
        for i in range(1, c):
            cand[i] += 1
    elif phase == P_SNEAK:
        gains = np.empty(nlegal - 1)
        _sneak_best(tab, ftab, seat, False, True, gains)
        cand[0] = 0
        c = 1 + _top(gains, int(ftab[F_HP + seat, S_WIDTH]), cand, 1)
        for i in range(1, c):
            cand[i] += 1
    else:
        if nlegal > cand.shape[0]:
            raise ValueError("a search decision has more candidates than the kernel holds")
        for i in range(nlegal):
            cand[i] = tab[lrow, i] if lrow >= 0 else i
        c = nlegal
    tab[T_G, G_NCAND] = c
