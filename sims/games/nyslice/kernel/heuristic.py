"""The heuristic's valuations and cut search, compiled: the twin of ``heuristic.py``.

``heuristic.Valuer`` and ``chance``, float operation for float: the deciding seat's
parameters (``ftab[F_HP + vw]``) and unclaimed counts (``tab[T_UNCL]``, its view) value
every seat's slices; ``ftab[F_HCNT + q, t]`` holds seat q's count of type t
(``Valuer.counts``). ``best_predicted_cut``/``cut_scores`` find the reference's cut without
predicting the choosers for every one: on a circle the cuts are searched by the portion
they leave the slicer, which bounds their score tightly (``_h_left_search``); elsewhere
every cut is walked and predicted only where a bound from the first two picks cannot rule
it out (``_h_cut_search``). ``HeuristicStrategy.choose`` itself is ``choose._heuristic``
(it shares the Sneak-a-Slice search with greedy).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.games.nyslice.kernel.cuts import _arc_count, _comb, _unrank_comb
from sims.games.nyslice.kernel.greedy import _best_maximin_cut, _eat_value, _g_edible
from sims.games.nyslice.kernel.layout import (
    F_HCNT,
    F_HP,
    F_HPRE,
    F_HSUM,
    F_SPV,
    F_VAL,
    G_CIRC,
    G_M,
    G_N,
    G_SLICER,
    G_SPECIAL,
    H_DENY,
    H_HORIZON,
    H_SHARP,
    H_SPECIALS,
    H_SUPREME,
    H_THETA,
    H_TRUST,
    K_ANCH,
    K_COMBO,
    K_NUM,
    MAX_SEATS,
    NO_SPECIAL,
    R_SSC_HALVES,
    S_BUFFET,
    S_SUPER,
    S_TIE,
    S_YLA,
    T_ANCH,
    T_COMB,
    T_G,
    T_KIND,
    T_NANCH,
    T_PIZZA,
    T_RULES,
    T_TA,
    T_TB,
    T_UNCL,
    TYPE_END,
    TYPE_LO,
)
from sims.games.nyslice.kernel.scoring import _count2
from sims.games.nyslice.kernel.state import _avoids, _owns, _shuns
from sims.games.nyslice.kernel.view import _unclaimed


@njit(cache=True, inline="always")
def _h_type(tab, ftab, vw, t):
    """Fill Valuer.counts[q][t] for every seat q and the viewer's unclaimed count of t."""
    for q in range(tab[T_G, G_N]):
        ftab[F_HCNT + q, t] = 0.5 * _count2(tab, q, t)
    tab[T_UNCL, t] = _unclaimed(tab, vw, t)


@njit(cache=True)
def _h_all_types(tab, ftab, vw):
    for t in range(TYPE_LO, TYPE_END):
        _h_type(tab, ftab, vw, t)


@njit(cache=True, inline="always")
def _chance(m, u, sharp, horizon):
    """heuristic.chance."""
    z = sharp * m / (1.0 + horizon * u)
    return 0.5 + 0.5 * z / (1.0 + abs(z))


@njit(cache=True)
def _h_gain(tab, ftab, vw, seat, t, w, already):
    """Valuer.gain: points from raising (already: from having added) w of type t."""
    a = ftab[F_HCNT + seat, t]
    if already:
        a = a - w
    b = 0.0
    for q in range(tab[T_G, G_N]):
        if q != seat and ftab[F_HCNT + q, t] > b:
            b = ftab[F_HCNT + q, t]
    u = float(tab[T_UNCL, t])
    shift = -0.25
    if _owns(tab, seat, S_TIE):
        shift = 0.25
    sharp = ftab[F_HP + vw, H_SHARP]
    horizon = ftab[F_HP + vw, H_HORIZON]
    before = _chance(a - b + shift, u, sharp, horizon)
    after = _chance(a + w - b + shift, u, sharp, horizon)
    return t * (after - before)


@njit(cache=True)
def _h_collect_value(tab, ftab, vw, seat, sid, already):
    """Valuer.collect_value of slice sid to seat."""
    anch = float(tab[T_ANCH, sid])
    if not _owns(tab, seat, S_YLA):
        anch = -anch
    buffet = _owns(tab, seat, S_BUFFET)
    k = tab[T_KIND, sid]
    if k == K_NUM:
        t = tab[T_TA, sid]
        v = _h_gain(tab, ftab, vw, seat, t, 1.0, already)
        if buffet and not ftab[F_HCNT + seat, t] > 0:
            v += 1.0
        return v + anch
    if k == K_COMBO:
        w = 0.5
        if _owns(tab, seat, S_SUPER):
            w = 0.5 * tab[T_RULES, R_SSC_HALVES]
        v = 0.0
        t = tab[T_TA, sid]
        v += _h_gain(tab, ftab, vw, seat, t, w, already)
        if buffet and not ftab[F_HCNT + seat, t] > 0:
            v += 1.0
        t = tab[T_TB, sid]
        v += _h_gain(tab, ftab, vw, seat, t, w, already)
        if buffet and not ftab[F_HCNT + seat, t] > 0:
            v += 1.0
        return v + anch
    if k == K_ANCH:
        if buffet and tab[T_NANCH, seat] == 0:
            anch += 1.0
        return anch
    best = ftab[F_HP + vw, H_SUPREME]
    found = False
    for t in range(TYPE_LO, TYPE_END):
        if ftab[F_HCNT + seat, t] > 0:
            g = _h_gain(tab, ftab, vw, seat, t, 1.0, False)
            if not found or g > best:
                best = g
                found = True
    return best + anch


@njit(cache=True)
def _h_slice_value(tab, ftab, vw, seat, sid, ps):
    """Valuer.slice_value: collect, or eat when that beats theta x the collection value."""
    c = _h_collect_value(tab, ftab, vw, seat, sid, False)
    if _g_edible(tab, seat, sid, ps):
        e = _eat_value(tab, seat, sid, ps)
        if e > ftab[F_HP + vw, H_THETA] * c:
            return e
    return c


@njit(cache=True, inline="always")
def _h_special_value(ftab, vw, ps):
    if ps < 0:
        return 0.0
    return ftab[F_HP + vw, H_SPECIALS] * ftab[F_SPV, ps]


@njit(cache=True)
def _h_portion_value(tab, ftab, vw, seat, row, length, has_sp):
    """Valuer.portion_value of the slices tab[row, :length] to seat (without the special
    if the seat avoids it: Valuer.arriving)."""
    ps = tab[T_G, G_SPECIAL] if has_sp else NO_SPECIAL
    if has_sp and _avoids(ftab, seat, ps):
        ps = NO_SPECIAL
        has_sp = False
    v = 0.0
    for i in range(length):
        v += _h_slice_value(tab, ftab, vw, seat, tab[row, i], ps)
    if has_sp:
        v += _h_special_value(ftab, vw, ps)
    return v


@njit(cache=True, inline="always")
def _h_beats(b, best, strict):
    """Whether score b displaces best: higher, or as high at an earlier rank (strict)."""
    return b > best or (b == best and strict)


@njit(cache=True)
def _h_judge(S, n, me, first, trust, omt, deny, prune, best, strict, j, spv):
    """cut_scores' score of portions valued S[q, :n] by seat q (portion j, if j >= 0, with
    the special: S[q, j] + spv), or -inf as soon as it cannot displace best.

    The choosers are seats first, first + 1, ... (n - 1 of them; the slicer is last).
    After each pick the portion left to the slicer is one still untaken and the best
    opponent's portion is worth at least the best picked so far, so trust x (its best
    untaken portion) + (1 - trust) x worst - deny x (best pick so far) bounds the score,
    operation for operation (rounding is monotone), when trust and deny are >= 0.
    """
    worst = np.inf
    for i in range(n):
        x = S[me, i] + spv if i == j else S[me, i]
        if x < worst:
            worst = x
    taken = 0
    opp = -np.inf
    q = first
    for r in range(n - 1):
        # (Written as selects: the comparisons are data-dependent, branches mispredict.)
        pick = 0
        pv = -np.inf
        for i in range(n):
            x = S[q, i]
            x = x + spv if i == j else x
            ok = (((taken >> i) & 1) == 0) & (x > pv)
            pick = i if ok else pick
            pv = x if ok else pv
        taken |= 1 << pick
        opp = pv if pv > opp else opp
        if prune and r < n - 2:
            lub = -np.inf
            for i in range(n):
                x = S[me, i]
                x = x + spv if i == j else x
                lub = x if (((taken >> i) & 1) == 0) & (x > lub) else lub
            if not _h_beats(trust * lub + omt * worst - deny * opp, best, strict):
                return -np.inf
        q += 1
        if q == n:
            q = 0
    left = 0
    while (taken >> left) & 1:
        left += 1
    x = S[me, left] + spv if left == j else S[me, left]
    return trust * x + omt * worst - deny * opp


@njit(cache=True, inline="always")
def _h_fill_seat(P, S, comb, q, n, k, m, circ, spv):
    """Seat q's values S[q] of the cut at positions comb (k arcs), as the walk computes them."""
    total = P[q, m]
    if circ:
        if k == 1:
            S[q, 0] = total - P[q, 0] + P[q, 0]
        else:
            for i in range(1, k):
                S[q, i - 1] = P[q, comb[i]] - P[q, comb[i - 1]]
            S[q, k - 1] = total - P[q, comb[k - 1]] + P[q, comb[0]]
    elif k == 1:
        S[q, 0] = total - 0.0
    else:
        for i in range(k - 1):
            lo = comb[i - 1] + 1 if i > 0 else 0
            S[q, i] = P[q, comb[i] + 1] - P[q, lo]
        acc = 0.0  # sum() of the others, left to right, as strategies._arc_sums
        for i in range(k - 1):
            acc += S[q, i]
        S[q, k - 1] = total - acc
    if k < n:
        S[q, k] = spv


@njit(cache=True, inline="always")
def _h_judge_alone(P, S, comb, n, k, m, circ, me, first, spv, trust, omt, deny, prune, best,
                   best_rank, rank):  # fmt: skip
    """Weigh the cut at positions comb with the special alone (portion k, rank ``rank``).

    S holds the slicer's and the first two choosers' values of its portions; the other
    seats' are filled in only if the bound does not rule the cut out: the first two
    picks, then the slicer gets a portion neither took, and the opponents' best portion
    is worth at least their picks (as in _h_judge). Returns the new (best, best_rank).
    """
    if rank == best_rank:
        return best, best_rank
    strict = rank < best_rank
    second = first + 1 if first + 1 < n else 0
    for q in (me, first, second):
        S[q, k] = spv
    if prune:
        # (Selects, not branches: the comparisons are data-dependent.)
        p1 = 0
        pv1 = -np.inf
        worst = np.inf
        for i in range(n):
            x = S[first, i]
            ok = x > pv1
            p1 = i if ok else p1
            pv1 = x if ok else pv1
            y = S[me, i]
            worst = y if y < worst else worst
        opp = pv1
        p2 = p1
        if n > 2:
            pv2 = -np.inf
            for i in range(n):
                x = S[second, i]
                ok = (i != p1) & (x > pv2)
                p2 = i if ok else p2
                pv2 = x if ok else pv2
            opp = pv2 if pv2 > opp else opp
        lub = -np.inf
        for i in range(n):
            y = S[me, i]
            lub = y if (i != p1) & (i != p2) & (y > lub) else lub
        if not _h_beats(trust * lub + omt * worst - deny * opp, best, strict):
            return best, best_rank
    for q in range(n):
        if q != me and q != first and q != second:
            _h_fill_seat(P, S, comb, q, n, k, m, circ, spv)
    s = _h_judge(S, n, me, first, trust, omt, deny, prune, best, strict, -1, spv)
    if _h_beats(s, best, strict):
        return s, rank
    return best, best_rank


@njit(cache=True, inline="always")
def _h_judge_cut(P, S, comb, n, k, m, circ, me, first, spv, trust, omt, deny, prune, best,
                 best_rank, rank):  # fmt: skip
    """Weigh the cut at positions comb for every place of the special: alone (portion
    k < n; _h_judge_alone) or on arc j (ranks rank + j). S holds the slicer's and the
    first two choosers' values of its arcs; the other seats' are filled in only for the
    few places the bound does not rule out. Returns the new (best, best_rank).

    The bound is _h_judge_alone's, for every j at once from the three seats' best arcs
    (first on ties) kept per cut: the first chooser's two, the second's three, the
    slicer's four and its least two.
    """
    if k < n:
        return _h_judge_alone(
            P, S, comb, n, k, m, circ, me, first, spv, trust, omt, deny, prune, best,
            best_rank, rank,
        )  # fmt: skip
    second = first + 1 if first + 1 < n else 0
    live = 0
    if prune:
        # (Selects, not branches: the comparisons are data-dependent.)
        t1 = -1
        t2 = -1
        v1 = -np.inf
        v2 = -np.inf
        for i in range(n):
            x = S[first, i]
            g1 = x > v1
            g2 = x > v2
            t2 = t1 if g1 else (i if g2 else t2)
            v2 = v1 if g1 else (x if g2 else v2)
            t1 = i if g1 else t1
            v1 = x if g1 else v1
        s1 = -1
        s2 = -1
        s3 = -1
        y1 = -np.inf
        y2 = -np.inf
        y3 = -np.inf
        for i in range(n):
            x = S[second, i]
            g1 = x > y1
            g2 = x > y2
            g3 = x > y3
            s3 = s2 if g2 else (i if g3 else s3)
            y3 = y2 if g2 else (x if g3 else y3)
            s2 = s1 if g1 else (i if g2 else s2)
            y2 = y1 if g1 else (x if g2 else y2)
            s1 = i if g1 else s1
            y1 = x if g1 else y1
        u1 = -1
        u2 = -1
        u3 = -1
        u4 = -1
        h1 = -np.inf
        h2 = -np.inf
        h3 = -np.inf
        h4 = -np.inf
        w1 = -1
        lo1 = np.inf
        lo2 = np.inf
        for i in range(n):
            x = S[me, i]
            g1 = x > h1
            g2 = x > h2
            g3 = x > h3
            g4 = x > h4
            u4 = u3 if g3 else (i if g4 else u4)
            h4 = h3 if g3 else (x if g4 else h4)
            u3 = u2 if g2 else (i if g3 else u3)
            h3 = h2 if g2 else (x if g3 else h3)
            u2 = u1 if g1 else (i if g2 else u2)
            h2 = h1 if g1 else (x if g2 else h2)
            u1 = i if g1 else u1
            h1 = x if g1 else h1
            l1 = x < lo1
            lo2 = lo1 if l1 else min(lo2, x)
            w1 = i if l1 else w1
            lo1 = x if l1 else lo1
        for j in range(n):
            R = rank + j
            # The first pick: the first chooser's best arc other than j, or j (special).
            ei = t1 if j != t1 else t2
            ev = v1 if j != t1 else v2
            vj = S[first, j] + spv
            pj = (vj > ev) | ((vj == ev) & (j < ei))
            p1 = j if pj else ei
            pv1 = vj if pj else ev
            vjm = S[me, j] + spv
            worst = min(lo1 if w1 != j else lo2, vjm)
            if n == 2:
                # One chooser: the slicer gets the other arc (this is the score).
                lub = h1 if (u1 != j) & (u1 != p1) else h2
                lub = lub if pj else max(lub, vjm)
                opp = pv1
            else:
                # The second pick: the second chooser's best of the others, or j.
                c1 = (s1 != j) & (s1 != p1)
                c2 = (s2 != j) & (s2 != p1)
                ci = s1 if c1 else (s2 if c2 else s3)
                cv = y1 if c1 else (y2 if c2 else y3)
                vj2 = S[second, j] + spv
                pj2 = (j != p1) & ((vj2 > cv) | ((vj2 == cv) & (j < ci)))
                p2 = j if pj2 else ci
                opp = max(pv1, vj2 if pj2 else cv)
                # The slicer's best arc neither took.
                a1 = (u1 != j) & (u1 != p1) & (u1 != p2)
                a2 = (u2 != j) & (u2 != p1) & (u2 != p2)
                a3 = (u3 != j) & (u3 != p1) & (u3 != p2)
                lub = h1 if a1 else (h2 if a2 else (h3 if a3 else h4))
                lub = max(lub, vjm) if (j != p1) & (j != p2) else lub
            b = trust * lub + omt * worst - deny * opp
            ok = ((b > best) | ((b == best) & (R < best_rank))) & (R != best_rank)
            live |= (1 << j) if ok else 0
    else:
        live = (1 << n) - 1
    if live == 0:
        return best, best_rank
    for q in range(n):
        if q != me and q != first and q != second:
            _h_fill_seat(P, S, comb, q, n, k, m, circ, spv)
    for j in range(n):
        R = rank + j
        if (live >> j) & 1 == 0 or R == best_rank:
            continue
        strict = R < best_rank
        s = _h_judge(S, n, me, first, trust, omt, deny, prune, best, strict, j, spv)
        if _h_beats(s, best, strict):
            best = s
            best_rank = R
    return best, best_rank


@njit(cache=True)
def _h_cut_rank(comb, k, m):
    """The rank of the k positions comb[:k] among the lexicographic k-subsets of range(m)
    (the inverse of _unrank_comb)."""
    r = 0
    x = 0
    for i in range(k):
        while x < comb[i]:
            r += _comb(m - x - 1, k - i - 1)
            x += 1
        x += 1
    return r


@njit(cache=True)
def _h_judge_left(S, n, me, first, trust, omt, deny, best, strict, j, spv, li):
    """_h_judge of a cut expected to leave the slicer portion li: its exact score, or -inf
    as soon as it cannot displace best or, while li is untaken, cannot with li left.

    While li is untaken the score it would get with li left only falls with each pick (the
    best opponent's portion only grows), so it bounds the cut if li stays left. A cut that
    does not leave li is weighed in its own portion's group (_h_left_search), so stopping
    early there loses nothing; once li is taken the bound is _h_judge's (the slicer's best
    untaken portion), and a cut that then scores well still raises best early.
    """
    worst = np.inf
    for i in range(n):
        x = S[me, i] + spv if i == j else S[me, i]
        worst = x if x < worst else worst
    xl = S[me, li] + spv if li == j else S[me, li]
    taken = 0
    opp = -np.inf
    q = first
    mine = True
    for _ in range(n - 1):
        # (Written as selects: the comparisons are data-dependent, branches mispredict.)
        pick = 0
        pv = -np.inf
        for i in range(n):
            x = S[q, i]
            x = x + spv if i == j else x
            ok = (((taken >> i) & 1) == 0) & (x > pv)
            pick = i if ok else pick
            pv = x if ok else pv
        taken |= 1 << pick
        opp = pv if pv > opp else opp
        mine = mine and pick != li
        lub = xl
        if not mine:
            lub = -np.inf
            for i in range(n):
                x = S[me, i]
                x = x + spv if i == j else x
                lub = x if (((taken >> i) & 1) == 0) & (x > lub) else lub
        if not _h_beats(trust * lub + omt * worst - deny * opp, best, strict):
            return -np.inf
        q += 1
        if q == n:
            q = 0
    left = 0
    while (taken >> left) & 1:
        left += 1
    x = S[me, left] + spv if left == j else S[me, left]
    return trust * x + omt * worst - deny * opp


@njit(cache=True)
def _h_left_groups(Q, gb, gc, n, m, me, first, spv, trust, omt, deny, tol):
    """The groups of _h_left_search that may hold a cut leaving their portion, with a bound
    on such a cut's score (gb) and the portion's code (gc; -1 the special alone, else
    ((kind x 2 + with special) x m + start) x m + length, kind 1 when the special joins an
    arc). Returns their count.

    Q[q] is seat q's prefix sums over the circle twice (so an arc never wraps) and Q[n]
    the choosers' best value of each slice, summed the same way. A cut leaving portion l
    has its other portions taken by distinct choosers, each worth to its taker at least
    the taker's value of l (l was there to take): those the choosers' best values of the
    rest (and the special, if on one of them) must reach the least such sum, and the
    special alone must be worth l to some chooser. The bound is trust x L + (1 - trust) x
    (at most L and the rest's mean arc) - deny x (at least every chooser's value of l and
    the first chooser's mean arc of the rest).
    """
    X = Q[n]
    pos = max(spv, 0.0)
    cntg = 0
    for kind in range(2):
        k = n if kind == 1 else n - 1
        r = k - 1  # the arcs besides l's (the special alone apart)
        if kind == 0:
            # The special alone left: all k arcs are worth the special to their takers.
            if not (X[m] < k * spv - tol):
                w = min(spv, Q[me, m] / k)
                o = max(spv, Q[first, m] / k)
                gb[cntg] = trust * spv + omt * w - deny * o
                gc[cntg] = -1
                cntg += 1
        for ln in range(1, m - r + 1):
            for a in range(m):
                b = a + ln
                vme = Q[me, b] - Q[me, a]
                restme = Q[me, m] - vme
                restc1 = Q[first, m] - (Q[first, b] - Q[first, a])
                lo = np.inf
                hi = -np.inf
                sl = 0.0
                for q in range(n):
                    if q != me:
                        x = Q[q, b] - Q[q, a]
                        lo = min(lo, x)
                        hi = max(hi, x)
                        sl += x
                rest = X[a + m] - X[b]
                for withsp in range(kind + 1):
                    add = spv if withsp == 1 else 0.0
                    el = vme + add
                    extra = 0.0
                    if kind == 0:
                        if spv < lo - tol:
                            continue
                        need = sl - hi  # the special's taker aside, the least sum
                        w = min(el, spv, restme / r)
                        o = max(hi, spv, restc1 / r)
                    elif withsp == 1:
                        need = sl + (n - 1) * spv
                        w = min(el, restme / r)
                        o = max(hi + spv, restc1 / r)
                    else:
                        need = sl
                        extra = pos
                        w = min(el, (restme + spv) / r)
                        o = max(hi, (restc1 + spv) / r)
                    if rest + extra < need - tol:
                        continue
                    gb[cntg] = trust * el + omt * w - deny * o
                    gc[cntg] = ((kind * 2 + withsp) * m + a) * m + ln
                    cntg += 1
    return cntg


@njit(cache=True, inline="always")
def _h_left_leaf(P, S, comb, x, mv, cv1, accspf, n, m, me, first, spv, trust, omt, deny, tol,
                 kind, withsp, a, r, nd, el, hi, best, best_rank):  # fmt: skip
    """Weigh a cut of _h_left_walk (its other arcs end at x[1..r]) at each place of the
    special its checks allow; returns the new (best, best_rank).

    Each place is bounded with the cut's own least portion and the first chooser's best;
    the cut is then scored exactly (_h_judge_left) from the reference's arc sums of its
    positions, sorted (l's index li: the positions past the end of the circle come first).
    """
    if a < 0:  # the special alone left: the arcs are the cut's, in order
        k = r
        for t in range(k):
            comb[t] = x[t]
        li = k
    else:
        k = r + 1
        li = 0
        for t in range(r):
            if x[t] >= m:
                comb[li] = x[t] - m
                li += 1
        comb[li] = a
        c = li + 1
        for t in range(r):
            if x[t] < m:
                comb[c] = x[t]
                c += 1
    spfix = kind == 0 or withsp == 1
    filled = False
    lrank = -1
    for jt in range(-1 if spfix else 0, 0 if spfix else r):
        # jt: the other arc holding the special (-1: none does).
        if jt >= 0 and ((nd >= 0 and jt != nd) or not accspf[jt]):
            continue
        w = el
        o = hi
        for t in range(r):
            e = spv if t == jt else 0.0
            w = min(w, mv[t] + e)
            o = max(o, cv1[t] + e)
        if kind == 0:
            w = min(w, spv)
            o = max(o, spv)
        if trust * el + omt * w - deny * o < best - tol:
            continue
        if kind == 0:
            j = -1
        elif withsp == 1:
            j = li
        else:
            j = li + 1 + jt
            j = j - k if j >= k else j
        if not filled:
            for q in range(n):
                _h_fill_seat(P, S, comb, q, n, k, m, True, spv)
            filled = True
        # Scored as if it ranked first, so a tie with best comes back too: its rank is
        # needed only then.
        s = _h_judge_left(S, n, me, first, trust, omt, deny, best, True, j, spv, li)
        if s >= best and s > -np.inf:
            if lrank < 0:
                lrank = _h_cut_rank(comb, k, m)
            rank = lrank if kind == 0 else _arc_count(m, n - 1, True) + lrank * n + j
            if s > best or rank < best_rank:
                best = s
                best_rank = rank
    return best, best_rank


@njit(cache=True, inline="always")
def _h_left_walk(P, S, Q, comb, D, Iw, n, m, me, first, spv, trust, omt, deny, tol, mono, code,
                 best, best_rank):  # fmt: skip
    """Weigh the cuts of _h_left_search's group ``code`` that its checks cannot rule out;
    returns the new (best, best_rank).

    The arcs besides l's are fixed one by one along the rest of the circle (their ends in
    Iw[0]; per depth D and Iw hold the slicer's least two arcs, the first chooser's best,
    the choosers' best values summed, the arc where the special must go). A fixed arc
    worth less than l to every chooser (with the special, if it may go there) is never
    taken while l waits: no cut of the subtree leaves l, and those cuts are weighed in
    their own groups. Otherwise _h_left_groups' sums and bound are checked again, with the
    fixed arcs (the slicer's least for worst, the first chooser's best for opp) and the
    arcs still to come.
    """
    X = Q[n]
    x = Iw[0]
    need = Iw[1]
    accspf = Iw[2]
    lo1 = D[0]
    lo2 = D[1]
    c1m = D[2]
    sa = D[3]
    mv = D[4]
    cv1 = D[5]
    lv = D[6]
    sls = D[7]
    pos = max(spv, 0.0)
    neg = min(spv, 0.0)
    if code < 0:  # the special alone: every alone cut, around the whole circle
        kind = 0
        withsp = 0
        a = -1
        r = n - 1
        for q in range(n):
            lv[q] = spv
        c0hi = m - r
    else:
        ln = code % m
        a = (code // m) % m
        kind = code // (2 * m * m)
        withsp = (code // (m * m)) % 2
        r = n - 1 if kind == 1 else n - 2
        add = spv if withsp == 1 else 0.0
        for q in range(n):
            lv[q] = Q[q, a + ln] - Q[q, a] + add
        c0hi = 0
    el = lv[me]
    hi = -np.inf
    for q in range(n):
        if q != me:
            hi = max(hi, lv[q])
    # The special stays off the other arcs (it is l's, or alone).
    spfix = kind == 0 or withsp == 1
    spx = 0.0 if spfix else pos
    # sls[c - 1]: the least sum of c choosers' values of l (their c smallest).
    c = 0
    for q in range(n):
        if q != me:
            v = lv[q]
            t = c
            while t > 0 and sls[t - 1] > v:
                sls[t] = sls[t - 1]
                t -= 1
            sls[t] = v
            c += 1
    acc = 0.0
    for t in range(c):
        acc += sls[t]
        sls[t] = acc
    needall = sls[r - 1]
    for c0 in range(c0hi + 1):
        if code < 0:
            start = c0
            end = c0 + m
            cap = m - 1  # the positions stay on the first lap
        else:
            start = a + (code % m)
            end = a + m
            cap = end - 1
        x[0] = start
        lo1[0] = np.inf
        lo2[0] = np.inf
        c1m[0] = -np.inf
        sa[0] = 0.0
        need[0] = -1
        i = 0
        x[1] = end if r == 1 else start + 1
        while i >= 0:
            nrem = r - i - 1  # the arcs after arc i, [x[i], x[i + 1])
            top = end if nrem == 0 else cap - nrem + 1
            y1 = x[i + 1]
            if y1 > top:  # no room left for the later arcs: back up
                i -= 1
                if i >= 0:
                    x[i + 1] += 1
                continue
            y0 = x[i]
            x[i + 1] = y1 + 1  # the next end to try here (restored below to descend)
            ok = False
            oksp = False
            best_a = -np.inf
            for q in range(n):
                if q != me:
                    v = Q[q, y1] - Q[q, y0]
                    ok |= v >= lv[q] - tol
                    oksp |= v + spv >= lv[q] - tol
                    best_a = max(best_a, v)
            nd = need[i]
            if not ok:
                # Only the special can make this arc worth taking: it must go here.
                if spfix or not oksp or nd >= 0:
                    continue
                nd = i
            accspf[i] = oksp
            vme = Q[me, y1] - Q[me, y0]
            vc1 = Q[first, y1] - Q[first, y0]
            mv[i] = vme
            cv1[i] = vc1
            nl1 = min(lo1[i], vme)
            nl2 = max(lo1[i], min(lo2[i], vme))
            nc1 = max(c1m[i], vc1)
            nsa = sa[i] + best_a
            if nrem == 0:
                if nsa + spx >= needall - tol:
                    best, best_rank = _h_left_leaf(
                        P, S, comb, x, mv, cv1, accspf, n, m, me, first, spv, trust, omt,
                        deny, tol, kind, withsp, a, r, nd, el, hi, best, best_rank,
                    )  # fmt: skip
                continue
            rme = Q[me, end] - Q[me, y1]
            rc1 = Q[first, end] - Q[first, y1]
            rest = X[end] - X[y1]
            extra = pos if (not spfix and nd < 0) else 0.0
            if rest + extra < sls[nrem - 1] - tol or nsa + rest + spx < needall - tol:
                if mono and rest + spx < sls[nrem - 1] - tol:
                    x[i + 1] = top + 1  # a later end leaves the rest no more
                continue
            if spfix:
                w = min(el, nl1, rme / nrem)
                o = max(hi, nc1, rc1 / nrem)
                if kind == 0:
                    w = min(w, spv)
                    o = max(o, spv)
            elif nd >= 0:
                w = min(el, nl1 + pos, nl2, rme / nrem)
                o = max(hi, nc1 + neg, (rc1 + neg) / nrem)
            else:
                # The special on a fixed arc, or on one still to come.
                w = max(min(nl1, (rme + spv) / nrem), min(nl1 + pos, nl2, rme / nrem))
                w = min(el, w)
                o = max(hi, nc1 + neg, (rc1 + neg) / nrem)
            if trust * el + omt * w - deny * o < best - tol:
                continue
            x[i + 1] = y1
            i += 1
            lo1[i] = nl1
            lo2[i] = nl2
            c1m[i] = nc1
            sa[i] = nsa
            need[i] = nd
            x[i + 1] = end if nrem == 1 else y1 + 1
    return best, best_rank


@njit(cache=True)
def _h_left_search(tab, ftab, n, m, me, first, spv, trust, deny):
    """_h_cut_search on a circle with n >= 3, 0 <= trust <= 1 and deny >= 0: the rank of the
    first best-scored cut, found by the portion l each cut leaves the slicer (-1 if no cut
    was weighed, which finite values never give).

    Every cut, with each place of the special, leaves the slicer exactly one portion l: an
    arc (holding the special or not) or the special alone. Grouped by l, the cuts leaving
    l have a known trust term (the slicer's value L of l), an opponent's best portion
    worth at least every chooser's value of l (each passed l over), and their other
    portions each taken by a chooser valuing it at least at l. Those give each group, and
    each subtree of its walk, a bound far tighter than the whole walk's (which can only
    bound the leftover by the rest of the pizza): trust x L + (1 - trust) x (a bound on the
    slicer's least portion) - deny x (a bound on the opponents' best), valid since trust
    and 1 - trust and deny are >= 0. The groups are searched from the best bound down
    (_h_left_groups) until one's cannot reach the best score found. A cut ruled out in a
    group that it does not leave l of is weighed in its own group; every check is a
    necessary condition for leaving l, with a margin ``tol`` over the bounds' rounding,
    so each cut scoring the best is weighed exactly, with cut_scores' operations, in its
    own group at least, and ties keep the lowest rank as in the reference.
    """
    omt = 1.0 - trust
    P = ftab[F_HPRE : F_HPRE + MAX_SEATS]
    S = ftab[F_HSUM : F_HSUM + MAX_SEATS]
    comb = tab[T_COMB]
    m2 = 2 * m
    # Q[q]: seat q's prefix sums over two laps, so no arc wraps (bounds only: the exact
    # scores take the reference's sums); Q[n]: the same of the choosers' best slice values.
    Q = np.empty((n + 1, m2 + 1))
    scale = abs(spv)
    for q in range(n):
        tq = P[q, m]
        for i in range(m + 1):
            Q[q, i] = P[q, i]
        for i in range(1, m + 1):
            Q[q, m + i] = tq + P[q, i]
        for i in range(m):
            scale += abs(P[q, i + 1] - P[q, i])
    # The bounds' arithmetic differs from the reference's in rounding (a few ulps of these
    # magnitudes); a margin far above that keeps every check a necessary condition.
    tol = 1e-9 * (1.0 + scale)
    Q[n, 0] = 0.0
    mono = True  # no slice worth less than nothing to every chooser
    for i in range(m2):
        s = i if i < m else i - m
        bv = -np.inf
        for q in range(n):
            if q != me:
                bv = max(bv, P[q, s + 1] - P[q, s])
        mono &= bv >= 0.0
        Q[n, i + 1] = Q[n, i] + bv
    # At most one special-alone group and, per kind, m starts x m - 1 lengths x 2.
    gb = np.empty(3 * m * m + 2)
    gc = np.empty(3 * m * m + 2, dtype=np.int64)
    cntg = _h_left_groups(Q, gb, gc, n, m, me, first, spv, trust, omt, deny, tol)
    # Best bound first (insertion sort, descending), so a high score comes early.
    for i in range(1, cntg):
        bv = gb[i]
        cv = gc[i]
        t = i - 1
        while t >= 0 and gb[t] < bv:
            gb[t + 1] = gb[t]
            gc[t + 1] = gc[t]
            t -= 1
        gb[t + 1] = bv
        gc[t + 1] = cv
    D = np.empty((8, MAX_SEATS + 2))
    Iw = np.empty((3, MAX_SEATS + 2), dtype=np.int64)
    best = -np.inf
    best_rank = -1
    for g in range(cntg):
        if gb[g] < best - tol:
            break
        best, best_rank = _h_left_walk(
            P, S, Q, comb, D, Iw, n, m, me, first, spv, trust, omt, deny, tol, mono, gc[g],
            best, best_rank,
        )  # fmt: skip
    return best_rank


@njit(cache=True)
def _h_cut_positions(m, n, circ, rank, comb):
    """The walk's positions (comb) of cut ``rank``; returns its arc count and special arc."""
    alone = _arc_count(m, n - 1, circ)
    if rank < alone:
        k = n - 1
        j = -1
        r = rank
    else:
        k = n
        j = (rank - alone) % n
        r = (rank - alone) // n
    if circ:
        if k == 1:
            comb[0] = 0
        else:
            _unrank_comb(m, k, r, comb, 0)
    elif k > 1:
        _unrank_comb(m - 1, k - 1, r, comb, 0)
    return k, j


@njit(cache=True)
def _h_cut_values(tab, ftab, me):
    """What cut_scores values a cut by: every seat's slice values by the slicer's valuer as
    prefix sums (F_HPRE + q; the slicer's own values also in F_VAL), a seat playing without
    the special valuing them without it. Returns (n, m, circular, the special's value, the
    first chooser, the mask of the seats playing without the special (avoid or forfeit),
    the mask of those avoiding it)."""
    n = tab[T_G, G_N]
    m = tab[T_G, G_M]
    sp = tab[T_G, G_SPECIAL]
    amask = 0
    smask = 0
    for q in range(n):
        ps = sp
        if _avoids(ftab, q, sp):
            ps = NO_SPECIAL
            amask |= 1 << q
            if _shuns(ftab, q, sp):
                smask |= 1 << q
        ftab[F_HPRE + q, 0] = 0.0
        for i in range(m):
            v = _h_slice_value(tab, ftab, me, q, tab[T_PIZZA, i], ps)
            if q == me:
                ftab[F_VAL, i] = v
            ftab[F_HPRE + q, i + 1] = ftab[F_HPRE + q, i] + v
    spv = _h_special_value(ftab, me, sp)
    first = (tab[T_G, G_SLICER] + 1) % n
    return n, m, tab[T_G, G_CIRC] == 1, spv, first, amask, smask


@njit(cache=True)
def _h_judge_avoid(S, V, n, me, first, trust, omt, deny, j, spv, amask, smask):
    """cut_scores' score of one cut when seats in ``amask`` play without the special
    (restricted play; ``smask``: those of them that avoid it), with _h_judge's operations
    unpruned: S[q, :n] holds seat q's portions' values without the special (S[q, n - 1] is
    the special alone when j < 0, else it goes with arc j); a seat playing without it values
    it at 0, a chooser avoiding it at -inf (it never takes it). V is scratch (n x n)."""
    spi = j if j >= 0 else n - 1
    for q in range(n):
        for i in range(n):
            x = S[q, i]
            if i == spi:
                add = 0.0 if ((amask >> q) & 1) == 1 else spv
                x = x + add if j >= 0 else add
                if q != me and ((smask >> q) & 1) == 1:
                    x = -np.inf
            V[q, i] = x
    worst = np.inf
    for i in range(n):
        if V[me, i] < worst:
            worst = V[me, i]
    taken = 0
    opp = -np.inf
    q = first
    for _ in range(n - 1):
        pick = 0
        pv = -np.inf
        for i in range(n):
            if ((taken >> i) & 1) == 0 and V[q, i] > pv:
                pick = i
                pv = V[q, i]
        taken |= 1 << pick
        if pv > opp:
            opp = pv
        q += 1
        if q == n:
            q = 0
    left = 0
    while (taken >> left) & 1:
        left += 1
    return trust * V[me, left] + omt * worst - deny * opp


@njit(cache=True)
def _h_avoid_scores(tab, ftab, n, m, circ, me, first, spv, amask, smask, out):
    """cut_scores when a seat plays without the special: every cut's score, by rank, into out
    (the prefix sums of _h_cut_values; the bounds of the pruned searches assume every
    chooser may take every portion, so these cuts are all scored in full)."""
    trust = ftab[F_HP + me, H_TRUST]
    deny = ftab[F_HP + me, H_DENY]
    omt = 1.0 - trust
    P = ftab[F_HPRE : F_HPRE + MAX_SEATS]
    S = ftab[F_HSUM : F_HSUM + MAX_SEATS]
    V = np.empty((MAX_SEATS, MAX_SEATS))
    comb = tab[T_COMB]
    for rank in range(out.shape[0]):
        k, j = _h_cut_positions(m, n, circ, rank, comb)
        for q in range(n):
            _h_fill_seat(P, S, comb, q, n, k, m, circ, spv)
        out[rank] = _h_judge_avoid(S, V, n, me, first, trust, omt, deny, j, spv, amask, smask)


@njit(cache=True)
def _h_best_cut(tab, ftab, me):
    """heuristic.best_predicted_cut: the rank of the first best-scored cut, which
    _h_cut_search finds from the prefix sums of _h_cut_values (or, when a seat plays without
    the special, the first best of _h_avoid_scores)."""
    n, m, circ, spv, first, amask, smask = _h_cut_values(tab, ftab, me)
    if amask != 0:
        out = np.empty(_arc_count(m, n - 1, circ) + n * _arc_count(m, n, circ))
        _h_avoid_scores(tab, ftab, n, m, circ, me, first, spv, amask, smask, out)
        best = -np.inf
        best_rank = 0
        for rank in range(out.shape[0]):
            if out[rank] > best:
                best = out[rank]
                best_rank = rank
        return best_rank
    return _h_cut_search(
        tab, ftab, n, m, circ, me, first, spv, ftab[F_HP + me, H_TRUST], ftab[F_HP + me, H_DENY]
    )


@njit(cache=True)
def _h_cut_search(tab, ftab, n, m, circ, me, first, spv, trust, deny):
    """The rank of the first best-scored cut, from the prefix sums ftab[F_HPRE + q] (the
    slicer's slice values in ftab[F_VAL]); the special is worth spv.

    A circle with more than one chooser, scored with 0 <= trust <= 1 and deny >= 0 (where
    its bounds hold), is searched by the portion left to the slicer (_h_left_search).
    Otherwise the cuts are walked in rank order as in _best_maximin_cut, each position
    fixing one more arc of the slicer's and the first two choosers' values, with
    cut_scores' operations. The best score starts at the slicer's maximin cut's (scored
    exactly), so the bounds (_h_judge_cut, _h_judge) rule most cuts out after the first two
    picks; ties keep the lowest rank, as in the reference. No subtree is skipped there: a
    partial cut bounds the slicer's leftover only by the whole rest of the pizza.
    """
    if circ and n >= 3 and 0.0 <= trust <= 1.0 and deny >= 0.0:
        found = _h_left_search(tab, ftab, n, m, me, first, spv, trust, deny)
        if found >= 0:
            return found
    omt = 1.0 - trust
    prune = trust >= 0.0 and deny >= 0.0
    second = first + 1 if first + 1 < n else 0
    P = ftab[F_HPRE : F_HPRE + MAX_SEATS]
    S = ftab[F_HSUM : F_HSUM + MAX_SEATS]
    comb = tab[T_COMB]
    best = -np.inf
    best_rank = -1
    if prune:
        seed = _best_maximin_cut(tab, ftab, m, n, circ, spv)
        k, j = _h_cut_positions(m, n, circ, seed, comb)
        for q in range(n):
            _h_fill_seat(P, S, comb, q, n, k, m, circ, spv)
        best = _h_judge(S, n, me, first, trust, omt, deny, False, best, True, j, spv)
        best_rank = seed
    rank = 0
    for attached in (False, True):
        k = n if attached else n - 1
        per_cut = n if attached else 1
        if circ:
            kk = k if k > 1 else 0
            mm = m
        else:
            kk = k - 1
            mm = m - 1
        if kk == 0:  # one arc, the whole pizza (two players, the special alone)
            for q in (me, first, second):
                _h_fill_seat(P, S, comb, q, n, k, m, circ, spv)
            best, best_rank = _h_judge_alone(
                P, S, comb, n, k, m, circ, me, first, spv, trust, omt, deny, prune, best,
                best_rank, rank,
            )  # fmt: skip
            rank += per_cut
            continue
        i = 0
        comb[0] = 0
        while i >= 0:
            c = comb[i]
            if c > mm - kk + i:  # no room left for the later positions: back up
                i -= 1
                if i >= 0:
                    comb[i] += 1
                continue
            if circ:
                if i > 0:
                    c0 = comb[i - 1]
                    for q in (me, first, second):
                        S[q, i - 1] = P[q, c] - P[q, c0]
            else:
                lo = comb[i - 1] + 1 if i > 0 else 0
                for q in (me, first, second):
                    S[q, i] = P[q, c + 1] - P[q, lo]
            if i == kk - 1:
                for q in (me, first, second):
                    total = P[q, m]
                    if circ:
                        S[q, k - 1] = total - P[q, c] + P[q, comb[0]]
                    else:
                        acc = 0.0
                        for jj in range(k - 1):
                            acc += S[q, jj]
                        S[q, k - 1] = total - acc
                best, best_rank = _h_judge_cut(
                    P, S, comb, n, k, m, circ, me, first, spv, trust, omt, deny, prune, best,
                    best_rank, rank,
                )  # fmt: skip
                rank += per_cut
                comb[i] += 1
            else:
                i += 1
                comb[i] = c + 1
    return best_rank
