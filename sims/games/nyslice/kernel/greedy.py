"""Greedy's valuations and searches, compiled: the twin of ``strategies.py``'s greedy.

``strategies._Valuer`` (``_valuer`` and the ``*_value`` functions), ``best_maximin_cut``
and ``seconds_type``/``seconds_eat`` with ``_own_total`` (the heuristic's Seconds too).
The valuations repeat ``_Valuer``'s float operations in the same order, so greedy's
comparisons (and ties) come out exactly as in the reference. ``GreedyStrategy.choose``
itself is ``choose._greedy`` (it shares the Sneak-a-Slice search with the heuristic).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.games.nyslice.kernel.cuts import _comb
from sims.games.nyslice.kernel.layout import (
    F_MINE,
    F_PREFIX,
    F_RIVAL,
    F_SPV,
    F_SUMS,
    F_VAL,
    G_N,
    G_SPECIAL,
    K_ANCH,
    K_COMBO,
    K_NUM,
    NO_SPECIAL,
    P_SEC_EAT,
    R_SSC_HALVES,
    S_BUFFET,
    S_CRAV,
    S_SUPER,
    S_TIE,
    S_YLA,
    S_YLV,
    SC_TOTAL,
    T_ANCH,
    T_COMB,
    T_G,
    T_GCAND,
    T_KIND,
    T_MASK,
    T_OUT,
    T_PEP,
    T_RULES,
    T_TA,
    T_TB,
    T_UNCL,
    TYPE_END,
    TYPE_LO,
    VEG,
)
from sims.games.nyslice.kernel.scoring import _count2, _score
from sims.games.nyslice.kernel.state import _avoids, _owns, _seconds_candidates
from sims.games.nyslice.kernel.view import _unclaimed


@njit(cache=True, inline="always")
def _value_type(tab, ftab, seat, t):
    """Fill greedy's tables for type t: F_MINE, F_RIVAL and T_UNCL (view.unclaimed).

    Counts in halves are exact, so half of one equals the reference's float sum of its
    1.0 / 0.5 / 2.0 steps.
    """
    ftab[F_MINE, t] = 0.5 * _count2(tab, seat, t)
    r = 0.0
    for q in range(tab[T_G, G_N]):
        if q != seat:
            c = 0.5 * _count2(tab, q, t)
            if c > r:
                r = c
    ftab[F_RIVAL, t] = r
    tab[T_UNCL, t] = _unclaimed(tab, seat, t)


@njit(cache=True, inline="always")
def _valuer(tab, ftab, seat):
    """Greedy's tables for every type (strategies._Valuer)."""
    for t in range(TYPE_LO, TYPE_END):
        _value_type(tab, ftab, seat, t)


@njit(cache=True, inline="always")
def _type_value(tab, ftab, seat, t, w, minus):
    """_Valuer.type_value: one more ``w`` of type t (0 if the majority is lost or safe)."""
    a = ftab[F_MINE, t] - minus
    b = ftab[F_RIVAL, t]
    u = tab[T_UNCL, t]
    reach = a + w + u
    if reach < b or (reach == b and not _owns(tab, seat, S_TIE)):
        return 0.0
    if a - b > u:
        return 0.0
    return t * w / (1.0 + abs(a - b))


@njit(cache=True)
def _collect_value(tab, ftab, seat, has_anch, sid, already):
    """_Valuer.collect_value of slice sid (``already``: it is counted among the seat's)."""
    a_ = float(tab[T_ANCH, sid])
    anch = a_ if _owns(tab, seat, S_YLA) else -a_
    buffet = _owns(tab, seat, S_BUFFET)
    k = tab[T_KIND, sid]
    if k == K_NUM:
        t = tab[T_TA, sid]
        v = _type_value(tab, ftab, seat, t, 1.0, 1.0 if already else 0.0)
        if buffet and not ftab[F_MINE, t] > 0:
            v += 1.0
        return v + anch
    if k == K_COMBO:
        w = 0.5 * tab[T_RULES, R_SSC_HALVES] if _owns(tab, seat, S_SUPER) else 0.5
        v = 0.0
        t = tab[T_TA, sid]
        v += _type_value(tab, ftab, seat, t, w, w if already else 0.0)
        if buffet and not ftab[F_MINE, t] > 0:
            v += 1.0
        t = tab[T_TB, sid]
        v += _type_value(tab, ftab, seat, t, w, w if already else 0.0)
        if buffet and not ftab[F_MINE, t] > 0:
            v += 1.0
        return v + anch
    if k == K_ANCH:
        return anch + (1.0 if buffet and has_anch == 0 else 0.0)
    best = 1.0
    for t in range(TYPE_LO, TYPE_END):
        if ftab[F_MINE, t] > 0:
            v = _type_value(tab, ftab, seat, t, 1.0, 0.0)
            if v > best:
                best = v
    return best + anch


@njit(cache=True, inline="always")
def _eat_value(tab, seat, sid, ps):
    """_Valuer.eat_value of slice sid arriving with special ps."""
    v = float(tab[T_PEP, sid])
    k = tab[T_KIND, sid]
    if k == K_COMBO and (_owns(tab, seat, S_CRAV) or ps == S_CRAV):
        v += 3.0
    if k == K_NUM and tab[T_TA, sid] == VEG and (_owns(tab, seat, S_YLV) or ps == S_YLV):
        v += 3.0
    return v


@njit(cache=True, inline="always")
def _g_edible(tab, seat, sid, ps):
    """Greedy's own edibility test (_Valuer.edible: no later-Veggies ruling)."""
    k = tab[T_KIND, sid]
    if k == K_ANCH:
        return False
    if k == K_COMBO and (_owns(tab, seat, S_CRAV) or ps == S_CRAV):
        return True
    if k == K_NUM and tab[T_TA, sid] == VEG and ps == S_YLV:
        return True
    return tab[T_PEP, sid] >= 1


@njit(cache=True)
def _slice_value(tab, ftab, seat, has_anch, sid, ps):
    """_Valuer.slice_value: collecting it, or eating it if that is worth more and allowed."""
    c = _collect_value(tab, ftab, seat, has_anch, sid, False)
    if _g_edible(tab, seat, sid, ps):
        e = _eat_value(tab, seat, sid, ps)
        return e if e > c else c
    return c


@njit(cache=True)
def _portion_value(tab, ftab, seat, has_anch, row, length, has_sp):
    """Value of the slices tab[row, :length] (with the round's special if has_sp, unless
    the seat avoids it: _Valuer.arriving)."""
    ps = tab[T_G, G_SPECIAL] if has_sp else NO_SPECIAL
    if has_sp and _avoids(ftab, seat, ps):
        ps = NO_SPECIAL
        has_sp = False
    v = 0.0
    for i in range(length):
        v += _slice_value(tab, ftab, seat, has_anch, tab[row, i], ps)
    if has_sp:
        v += ftab[F_SPV, ps] if ps >= 0 else 0.0
    return v


@njit(cache=True, inline="always")
def _judge_cut(ftab, k, n, attached, sv, best, best_rank, rank):
    """Weigh one cut's arc sums ftab[F_SUMS, :k] as best_maximin_cut does.

    Returns the updated (best, best_rank); the cut's ranks start at ``rank``.
    """
    if not attached:
        worst = ftab[F_SUMS, 0]
        for i in range(1, k):
            if ftab[F_SUMS, i] < worst:
                worst = ftab[F_SUMS, i]
        if sv < worst:
            worst = sv
        if worst > best:
            return worst, rank
        return best, best_rank
    # The least arc other than j is the least arc, or the second least when j is the least.
    lo1 = np.inf
    lo2 = np.inf
    i1 = -1
    for i in range(k):
        s = ftab[F_SUMS, i]
        if s < lo1:
            lo2 = lo1
            lo1 = s
            i1 = i
        elif s < lo2:
            lo2 = s
    if lo2 <= best:
        return best, best_rank  # whichever arc takes the special, one worth <= best is left
    for j in range(n):
        others = lo2 if j == i1 else lo1
        mine = ftab[F_SUMS, j] + sv
        worst = others if others < mine else mine
        if worst > best:
            best = worst
            best_rank = rank + j
    return best, best_rank


@njit(cache=True, inline="always")
def _hopeless(ftab, fixed, attached, sv, best):
    """Whether no cut whose first arcs sum to ftab[F_SUMS, :fixed] can beat best.

    Special apart: its least portion is at most any arc and the special. Attached: some
    arc other than the special's is left, so two arcs <= best, or one that is <= best even
    with the special, leave a portion worth <= best whatever arc takes the special.
    """
    if not attached:
        if sv <= best:
            return True
        for i in range(fixed):
            if ftab[F_SUMS, i] <= best:
                return True
        return False
    low = 0
    for i in range(fixed):
        s = ftab[F_SUMS, i]
        if s <= best:
            if s + sv <= best:
                return True
            low += 1
    return low >= 2


@njit(cache=True)
def _best_maximin_cut(tab, ftab, m, n, circ, sv):
    """strategies.best_maximin_cut of the slice values ftab[F_VAL, :m].

    Walks the cuts in rank order, with the reference's float operations on the same
    prefix sums, so the same first best cut wins. A cut is a lexicographic combination of
    positions (tab[T_COMB]) fixed left to right, each fixing one more arc; once the fixed
    arcs show that no completion can beat the best so far (``_hopeless``), every cut
    sharing them is skipped and only counted into the rank.
    """
    ftab[F_PREFIX, 0] = 0.0
    for i in range(m):
        ftab[F_PREFIX, i + 1] = ftab[F_PREFIX, i] + ftab[F_VAL, i]
    total = ftab[F_PREFIX, m]
    best = -np.inf
    best_rank = 0
    rank = 0
    for attached in (False, True):
        k = n if attached else n - 1
        if k < 1:
            continue
        per_cut = n if attached else 1  # ranks per cut: one per arc the special may join
        # A circle cut is k of m boundary positions; a line's first arc starts at 0 and
        # the other starts are 1 + (k - 1 of m - 1 positions).
        if circ:
            kk = k if k > 1 else 0
            mm = m
        else:
            kk = k - 1
            mm = m - 1
        if kk == 0:  # one arc: the whole pizza
            if circ:
                ftab[F_SUMS, 0] = total - ftab[F_PREFIX, 0] + ftab[F_PREFIX, 0]
            else:
                ftab[F_SUMS, 0] = total - 0.0
            best, best_rank = _judge_cut(ftab, k, n, attached, sv, best, best_rank, rank)
            rank += per_cut
            continue
        i = 0
        tab[T_COMB, 0] = 0
        while i >= 0:
            c = tab[T_COMB, i]
            if c > mm - kk + i:  # no room left for the later positions: back up
                i -= 1
                if i >= 0:
                    tab[T_COMB, i] += 1
                continue
            # The arc this position closes (a circle's last arc wraps to its first start).
            if circ:
                if i > 0:
                    ftab[F_SUMS, i - 1] = ftab[F_PREFIX, c] - ftab[F_PREFIX, tab[T_COMB, i - 1]]
                fixed = i
            else:
                lo = tab[T_COMB, i - 1] + 1 if i > 0 else 0
                ftab[F_SUMS, i] = ftab[F_PREFIX, c + 1] - ftab[F_PREFIX, lo]
                fixed = i + 1
            if i == kk - 1:
                if circ:
                    ftab[F_SUMS, k - 1] = total - ftab[F_PREFIX, c] + ftab[F_PREFIX, tab[T_COMB, 0]]
                else:
                    acc = 0.0  # sum() of the others, left to right, as strategies._arc_sums
                    for j in range(k - 1):
                        acc += ftab[F_SUMS, j]
                    ftab[F_SUMS, k - 1] = total - acc
                best, best_rank = _judge_cut(ftab, k, n, attached, sv, best, best_rank, rank)
                rank += per_cut
                tab[T_COMB, i] += 1
            elif _hopeless(ftab, fixed, attached, sv, best):
                rank += _comb(mm - 1 - c, kk - 1 - i) * per_cut
                tab[T_COMB, i] += 1
            else:
                i += 1
                tab[T_COMB, i] = c + 1
    return best_rank


@njit(cache=True)
def _own_total(tab, seat):
    """Seat's final total if it ate its collected slices flagged in tab[T_MASK] now."""
    _score(tab, seat, seat)
    return tab[T_OUT + seat, SC_TOTAL]


@njit(cache=True)
def _greedy_seconds(tab, seat, phase, nlegal, lrow, sid):
    """Greedy's Seconds decisions: exact end-of-game scoring of what eating would give."""
    tab[T_MASK, : tab.shape[1]] = 0
    base = _own_total(tab, seat)
    if phase == P_SEC_EAT:
        tab[T_MASK, sid] = 1
        trial = _own_total(tab, seat)
        tab[T_MASK, sid] = 0
        return 1 if trial > base else 0
    best_t = 0
    best_gain = 0
    for j in range(nlegal):
        t = tab[lrow, j]
        if t == 0:
            continue
        tab[T_MASK, : tab.shape[1]] = 0
        current = base
        nc = _seconds_candidates(tab, seat, t, T_GCAND)
        for i in range(nc):
            x = tab[T_GCAND, i]
            tab[T_MASK, x] = 1
            trial = _own_total(tab, seat)
            if trial > current:
                current = trial
            else:
                tab[T_MASK, x] = 0
        if current - base > best_gain:
            best_t = t
            best_gain = current - base
    tab[T_MASK, : tab.shape[1]] = 0
    return best_t
