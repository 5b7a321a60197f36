"""The built-in strategies' decisions, compiled: ``GreedyStrategy.choose``
(``strategies.py``) and ``HeuristicStrategy.choose`` (``heuristic.py``), phase by phase.

Their Sneak-a-Slice decisions share one move search (``_sneak_best``) that values portions
by either strategy's valuer, which is why both ``choose`` twins sit here, above
``greedy.py`` and ``heuristic.py``, rather than in those modules.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit

from sims.games.nyslice.kernel.greedy import (
    _best_maximin_cut,
    _collect_value,
    _eat_value,
    _greedy_seconds,
    _portion_value,
    _slice_value,
    _type_value,
    _value_type,
    _valuer,
)
from sims.games.nyslice.kernel.heuristic import (
    _h_all_types,
    _h_best_cut,
    _h_collect_value,
    _h_gain,
    _h_portion_value,
    _h_slice_value,
    _h_type,
)
from sims.games.nyslice.kernel.layout import (
    F_HP,
    F_PV,
    F_SPV,
    F_VAL,
    G_CIRC,
    G_M,
    G_N,
    G_NPOR,
    G_SLICER,
    G_SPECIAL,
    H_CIL,
    H_DENY,
    H_DIBS,
    H_GEAT,
    H_SNEAK,
    H_THETA,
    K_COMBO,
    K_NUM,
    K_SUP,
    NO_SPECIAL,
    P_CHOOSE,
    P_CIL,
    P_CUT,
    P_DIBS,
    P_EAT,
    P_RECV,
    P_SEC_EAT,
    P_SEC_TYPE,
    P_SNEAK,
    P_SUPREME,
    T_G,
    T_KIND,
    T_MV_DST,
    T_MV_END,
    T_MV_SRC,
    T_NANCH,
    T_PIZZA,
    T_POR,
    T_POR_LEN,
    T_POR_SP,
    T_POR_TAKEN,
    T_TA,
    T_TB,
    T_TMP_DST,
    T_TMP_SRC,
)
from sims.games.nyslice.kernel.state import _avoids, _sneak_moves


@njit(cache=True)
def _sneak_portion_value(tab, ftab, seat, has_anch, heur, row, length, sp):
    """A portion's value to ``seat`` under greedy's valuation, or the heuristic's."""
    if heur:
        return _h_portion_value(tab, ftab, seat, seat, row, length, sp)
    return _portion_value(tab, ftab, seat, has_anch, row, length, sp)


@njit(cache=True)
def _sneak_best(tab, ftab, seat, has_anch, heur, gains):
    """The Sneak-a-Slice move that most raises ``seat``'s best free portion (first of
    equals): (action, best free-portion value after it, best value now). When ``gains``
    has room, gains[j] receives move j's best free-portion value (the search ranks them)."""
    npor = tab[T_G, G_NPOR]
    current = -np.inf
    for i in range(npor):
        if tab[T_POR_TAKEN, i] < 0:
            v = _sneak_portion_value(tab, ftab, seat, has_anch, heur, int64(T_POR + i),
                                     tab[T_POR_LEN, i], tab[T_POR_SP, i] == 1)  # fmt: skip
            ftab[F_PV, i] = v
            if v > current:
                current = v
    best_a = 0
    best_v = -np.inf
    nm = _sneak_moves(tab)
    for j in range(nm):
        # A move changes only its two portions: value their moved copies, reuse the rest.
        src = tab[T_MV_SRC, j]
        dst = tab[T_MV_DST, j]
        ls = tab[T_POR_LEN, src] - 1
        ld = tab[T_POR_LEN, dst] + 1
        if tab[T_MV_END, j] == 1:
            for q in range(ls):
                tab[T_TMP_SRC, q] = tab[T_POR + src, q]
            tab[T_TMP_DST, 0] = tab[T_POR + src, ls]
            for q in range(ld - 1):
                tab[T_TMP_DST, q + 1] = tab[T_POR + dst, q]
        else:
            for q in range(ls):
                tab[T_TMP_SRC, q] = tab[T_POR + src, q + 1]
            for q in range(ld - 1):
                tab[T_TMP_DST, q] = tab[T_POR + dst, q]
            tab[T_TMP_DST, ld - 1] = tab[T_POR + src, 0]
        v = -np.inf
        for i in range(npor):
            if tab[T_POR_TAKEN, i] < 0:
                sp = tab[T_POR_SP, i] == 1
                if i == src:
                    pv = _sneak_portion_value(tab, ftab, seat, has_anch, heur,
                                              int64(T_TMP_SRC), ls, sp)  # fmt: skip
                elif i == dst:
                    pv = _sneak_portion_value(tab, ftab, seat, has_anch, heur,
                                              int64(T_TMP_DST), ld, sp)  # fmt: skip
                else:
                    pv = ftab[F_PV, i]
                if pv > v:
                    v = pv
        if j < gains.shape[0]:
            gains[j] = v
        if v > best_v:
            best_a = 1 + j
            best_v = v
    return best_a, best_v, current


@njit(cache=True)
def _greedy_sneak(tab, ftab, seat, has_anch):
    """Greedy's Sneak-a-Slice: the move that most raises its best free portion, if any."""
    best_a, best_v, current = _sneak_best(tab, ftab, seat, has_anch, False, np.empty(0))
    return best_a if best_v > current else 0


@njit(cache=True)
def _greedy_collect(tab, ftab, seat, sid, already):
    """Greedy's collection value of slice sid, its tables filled for the slice's own types
    only (every type for the Supreme), as _Valuer.collect_value computes it lazily."""
    k = tab[T_KIND, sid]
    if k == K_NUM or k == K_COMBO:
        _value_type(tab, ftab, seat, tab[T_TA, sid])
        if k == K_COMBO:
            _value_type(tab, ftab, seat, tab[T_TB, sid])
    elif k == K_SUP:
        _valuer(tab, ftab, seat)
    has_anch = 1 if tab[T_NANCH, seat] > 0 else 0
    return _collect_value(tab, ftab, seat, has_anch, sid, already)


@njit(cache=True)
def _greedy(tab, ftab, seat, phase, nlegal, lrow, sid, ps):
    """Greedy's action (strategies.GreedyStrategy, decision for decision).

    The legal actions are tab[lrow, :nlegal], or range(nlegal) when lrow < 0.
    """
    if phase == P_SEC_TYPE or phase == P_SEC_EAT:
        return _greedy_seconds(tab, seat, phase, nlegal, lrow, sid)
    has_anch = 1 if tab[T_NANCH, seat] > 0 else 0
    if phase == P_EAT or phase == P_RECV:
        e = _eat_value(tab, seat, sid, ps)
        return 1 if e > _greedy_collect(tab, ftab, seat, sid, phase == P_RECV) else 0
    _valuer(tab, ftab, seat)
    n = tab[T_G, G_N]
    if phase == P_CHOOSE:
        best_i = tab[lrow, 0]
        best_v = -np.inf
        for j in range(nlegal):
            i = tab[lrow, j]
            v = _portion_value(
                tab, ftab, seat, has_anch, T_POR + i, tab[T_POR_LEN, i], tab[T_POR_SP, i] == 1
            )
            if v > best_v:
                best_i = i
                best_v = v
        return best_i
    if phase == P_CUT:
        m = tab[T_G, G_M]
        sp = tab[T_G, G_SPECIAL]
        if _avoids(ftab, seat, sp):
            sp = NO_SPECIAL  # valued as absent: the slicer would forfeit it
        for i in range(m):
            ftab[F_VAL, i] = _slice_value(tab, ftab, seat, has_anch, tab[T_PIZZA, i], sp)
        spv = ftab[F_SPV, sp] if sp >= 0 else 0.0
        return _best_maximin_cut(tab, ftab, m, n, tab[T_G, G_CIRC] == 1, spv)
    if phase == P_SUPREME:
        best_t = tab[lrow, 0]
        best_v = -np.inf
        for j in range(nlegal):
            t = tab[lrow, j]
            v = _type_value(tab, ftab, seat, t, 1.0, 0.0)
            if v >= best_v:
                best_t = t
                best_v = v
        return best_t
    if phase == P_DIBS:
        bi = 0
        bv = -np.inf
        for i in range(tab[T_G, G_M]):
            v = _slice_value(tab, ftab, seat, has_anch, tab[T_PIZZA, i], NO_SPECIAL)
            if v > bv:
                bi = i
                bv = v
        return 1 + bi if bv > 0 else 0
    if phase == P_CIL:
        # Values of the free portions, sorted high to low (insertion sort in F_PV).
        nf = 0
        for i in range(tab[T_G, G_NPOR]):
            if tab[T_POR_TAKEN, i] < 0:
                v = _portion_value(
                    tab, ftab, seat, has_anch, T_POR + i, tab[T_POR_LEN, i], tab[T_POR_SP, i] == 1
                )
                j = nf
                while j > 0 and ftab[F_PV, j - 1] < v:
                    ftab[F_PV, j] = ftab[F_PV, j - 1]
                    j -= 1
                ftab[F_PV, j] = v
                nf += 1
        before = (seat - tab[T_G, G_SLICER] - 1) % n
        j = before if before < nf - 1 else nf - 1
        return 1 if ftab[F_PV, 0] > ftab[F_PV, j] else 0
    if phase == P_SNEAK:
        return _greedy_sneak(tab, ftab, seat, has_anch)
    return tab[lrow, 0] if lrow >= 0 else 0


@njit(cache=True)
def _h_sneak(tab, ftab, seat):
    """HeuristicStrategy._sneak: the move raising its best free portion most, if by sneak."""
    best_a, best_v, current = _sneak_best(tab, ftab, seat, False, True, np.empty(0))
    if best_v - current >= ftab[F_HP + seat, H_SNEAK]:
        return best_a
    return 0


@njit(cache=True)
def _heuristic(tab, ftab, seat, phase, nlegal, lrow, sid, ps):
    """The heuristic's action (heuristic.HeuristicStrategy.choose, decision for decision).

    The legal actions are tab[lrow, :nlegal], or range(nlegal) when lrow < 0.
    """
    if phase == P_SEC_TYPE or phase == P_SEC_EAT:
        return _greedy_seconds(tab, seat, phase, nlegal, lrow, sid)
    if phase == P_EAT or phase == P_RECV:
        # Only the slice's own types enter its collection value (every type for the Supreme).
        k = tab[T_KIND, sid]
        g = ftab[F_HP + seat, H_GEAT]
        cg = _greedy_collect(tab, ftab, seat, sid, phase == P_RECV) if g > 0.0 else 0.0
        if k == K_NUM or k == K_COMBO:
            _h_type(tab, ftab, seat, tab[T_TA, sid])
            if k == K_COMBO:
                _h_type(tab, ftab, seat, tab[T_TB, sid])
        elif k == K_SUP:
            _h_all_types(tab, ftab, seat)
        e = _eat_value(tab, seat, sid, ps)
        c = _h_collect_value(tab, ftab, seat, seat, sid, phase == P_RECV)
        t = ftab[F_HP + seat, H_THETA] * c
        if g > 0.0:
            t = (1.0 - g) * t + g * cg
        return 1 if e > t else 0
    _h_all_types(tab, ftab, seat)
    n = tab[T_G, G_N]
    if phase == P_CHOOSE:
        # The seat choosing after this one in normal order, if any still chooses.
        nxt = -1
        for i in range(1, n):
            q = (seat + i) % n
            took = False
            for x in range(tab[T_G, G_NPOR]):
                if tab[T_POR_TAKEN, x] == q:
                    took = True
            if not took and q != seat:
                nxt = q
                break
        deny = ftab[F_HP + seat, H_DENY]
        best_i = tab[lrow, 0]
        best_v = -np.inf
        for j in range(nlegal):
            i = tab[lrow, j]
            ln = tab[T_POR_LEN, i]
            has_sp = tab[T_POR_SP, i] == 1
            v = _h_portion_value(tab, ftab, seat, seat, T_POR + i, ln, has_sp)
            if nxt >= 0 and nlegal > 1:
                v += deny * _h_portion_value(tab, ftab, seat, nxt, T_POR + i, ln, has_sp)
            if v > best_v:
                best_i = i
                best_v = v
        return best_i
    if phase == P_CUT:
        return _h_best_cut(tab, ftab, seat)
    if phase == P_SUPREME:
        best_t = tab[lrow, 0]
        best_v = -np.inf
        for j in range(nlegal):
            t = tab[lrow, j]
            v = _h_gain(tab, ftab, seat, seat, t, 1.0, False)
            if v > best_v:
                best_t = t
                best_v = v
        return best_t
    if phase == P_DIBS:
        bi = 0
        bv = -np.inf
        for i in range(tab[T_G, G_M]):
            v = _h_slice_value(tab, ftab, seat, seat, tab[T_PIZZA, i], NO_SPECIAL)
            if v > bv:
                bi = i
                bv = v
        return 1 + bi if bv >= ftab[F_HP + seat, H_DIBS] else 0
    if phase == P_CIL:
        nf = 0
        for i in range(tab[T_G, G_NPOR]):
            if tab[T_POR_TAKEN, i] < 0:
                v = _h_portion_value(
                    tab, ftab, seat, seat, T_POR + i, tab[T_POR_LEN, i], tab[T_POR_SP, i] == 1
                )
                j = nf
                while j > 0 and ftab[F_PV, j - 1] < v:
                    ftab[F_PV, j] = ftab[F_PV, j - 1]
                    j -= 1
                ftab[F_PV, j] = v
                nf += 1
        before = (seat - tab[T_G, G_SLICER] - 1) % n
        j = before if before < nf - 1 else nf - 1
        return 1 if ftab[F_PV, 0] - ftab[F_PV, j] >= ftab[F_HP + seat, H_CIL] else 0
    if phase == P_SNEAK:
        return _h_sneak(tab, ftab, seat)
    return tab[lrow, 0] if lrow >= 0 else 0
