"""The valuation greedy and heuristic share, compiled (``docs/strategies/pieceocake.md``,
"The valuation shared by greedy and heuristic").

A valuation values things *to* a seat ``t`` with the deciding seat's majority worth
(``heur``: 1 the heuristic's, 0 greedy's myopic one) and parameters. ``_context`` writes
``t``'s counts per variety to the scratch rows ``T_M`` (``m``), ``T_R`` (``r``, the best
other seat's count), ``T_J`` (the other seats holding ``r``) and ``T_E`` (``e``, its
slices edible by forgoing); the functions here read them, and the heuristic's
denominators ``2 * (1 + u / N)`` that ``flow._round`` writes to ``F_DEN`` once a round.
Every float operation is the spec's, in its order, so ties and thresholds fall as in the
reference engine.
"""

from __future__ import annotations

from numba import njit

from sims.games.pieceocake.kernel.layout import (
    ARC_STRIDE,
    EATS_ALL,
    EATS_NONE,
    F_ARC,
    F_DEN,
    F_VAL,
    G_N,
    G_NV,
    NC,
    T_CCNT,
    T_COLL,
    T_CREAM,
    T_E,
    T_FRESH,
    T_G,
    T_J,
    T_KIDX,
    T_M,
    T_NSEC,
    T_NTOP,
    T_R,
    T_SEC,
    T_TOP,
    T_VAL,
    TIES_FULL,
    TIES_SPLIT,
)


@njit(cache=True, inline="always")
def _context_var(tab, ftab, t, v):
    """Fill the context rows for variety v: seat t's count (T_M), the largest count among
    the other seats (T_R), how many other seats hold it (T_J), and t's slices of it
    edible by forgoing, collected in earlier cakes (T_E)."""
    r = 0
    j = 0
    for q in range(tab[T_G, G_N]):
        if q == t:
            continue
        c = tab[T_COLL + q, v]
        if c > r:
            r = c
            j = 1
        elif c == r:
            j += 1
    tab[T_M, v] = tab[T_COLL + t, v]
    tab[T_E, v] = tab[T_COLL + t, v] - tab[T_FRESH + t, v]
    tab[T_R, v] = r
    tab[T_J, v] = j


@njit(cache=True)
def _stats(tab):
    """Per variety the largest collected count over all seats (T_TOP), how many seats hold
    it (T_NTOP), the second largest (T_SEC: the largest below it, 0 if none) and how many
    hold that (T_NSEC): every seat's context follows from them (``_derive``)."""
    n = tab[T_G, G_N]
    for v in range(tab[T_G, G_NV]):
        top = 0
        ntop = 0
        second = 0
        nsecond = 0
        for q in range(n):
            c = tab[T_COLL + q, v]
            if c > top:
                second = top
                nsecond = ntop
                top = c
                ntop = 1
            elif c == top:
                ntop += 1
            elif c > second:
                second = c
                nsecond = 1
            elif c == second:
                nsecond += 1
        tab[T_TOP, v] = top
        tab[T_NTOP, v] = ntop
        tab[T_SEC, v] = second
        tab[T_NSEC, v] = nsecond


@njit(cache=True)
def _derive(tab, t):
    """The context rows of every variety for seat t (``_context_var``'s values) from
    ``_stats``: the largest other count is the largest, or the second when t alone holds
    the largest."""
    for v in range(tab[T_G, G_NV]):
        m = tab[T_COLL + t, v]
        top = tab[T_TOP, v]
        ntop = tab[T_NTOP, v]
        if m < top:
            tab[T_R, v] = top
            tab[T_J, v] = ntop
        elif ntop > 1:
            tab[T_R, v] = top
            tab[T_J, v] = ntop - 1
        else:
            tab[T_R, v] = tab[T_SEC, v]
            tab[T_J, v] = tab[T_NSEC, v]
        tab[T_M, v] = m
        tab[T_E, v] = m - tab[T_FRESH + t, v]


@njit(cache=True)
def _context(tab, ftab, t):
    """Fill the context rows (``_context_var``) of every variety for seat t."""
    _stats(tab)
    _derive(tab, t)


@njit(cache=True)
def _context_one(tab, ftab, t, v):
    """Fill the context rows of variety v only, for seat t."""
    _context_var(tab, ftab, t, v)


@njit(cache=True, inline="always")
def _worth(tab, ftab, heur, ties, v, m):
    """W(m): the majority worth of holding m slices of v (heuristic or myopic)."""
    if m == 0:
        return 0.0
    r = tab[T_R, v]
    value = tab[T_VAL, v]
    if heur:
        p = 0.5 + (m - r) / ftab[F_DEN, v]  # 2 * (1 + u / N), for the round (flow._round)
        p = min(1.0, max(0.0, p))
        return value * p
    if m > r:
        return float(value)
    if m == r:
        if ties == TIES_FULL:
            return float(value)
        if ties == TIES_SPLIT:
            return float(value // (1 + tab[T_J, v]))
    return 0.0


@njit(cache=True, inline="always")
def _slice_value(tab, ftab, heur, ties, theta, v, m):
    """The slice decision for a slice of v holding m: (1 eat / 0 collect, its value)."""
    g = _worth(tab, ftab, heur, ties, v, m + 1) - _worth(tab, ftab, heur, ties, v, m)
    tg = theta * g
    c = tab[T_CREAM, v]
    if c > tg:
        return 1, float(c)
    return 0, tg


@njit(cache=True)
def _val_table(tab, ftab, heur, ties, theta):
    """F_VAL: the context seat's slice decision value by (variety v, k slices of v before
    in the piece), at column ``v * ARC_STRIDE + k``, for the varieties of the circle.

    Along a piece, the k-th slice of a variety is decided on the count plus the slices of
    it collected before; once one is eaten the count stops growing and every later one is
    eaten too. So the decision's value depends only on (variety, k); each W is computed
    once."""
    for v in range(tab[T_G, G_NV]):
        cnt = tab[T_CCNT, v]
        if cnt == 0:
            continue
        m = tab[T_M, v]
        c = float(tab[T_CREAM, v])
        col = v * ARC_STRIDE
        w0 = _worth(tab, ftab, heur, ties, v, m)
        for k in range(cnt):
            w1 = _worth(tab, ftab, heur, ties, v, m + k + 1)
            tg = theta * (w1 - w0)
            if c > tg:  # eaten, and so are the later slices of v (the count stays)
                for kk in range(k, cnt):
                    ftab[F_VAL, col + kk] = c
                break
            ftab[F_VAL, col + k] = tg  # collected: the next is decided on one more
            w0 = w1


@njit(cache=True)
def _arc_sum(tab, ftab, start, length):
    """The piece value of the arc of ``length`` circle positions from ``start``: its
    slices' decision values (the F_VAL table, ``_val_table``) summed in piece order, as
    the spec sums them (T_KIDX, from the circle, gives each slice its (variety, k))."""
    base = start * ARC_STRIDE
    total = 0.0
    for i in range(length):
        total += ftab[F_VAL, tab[T_KIDX, base + i]]
    return total


@njit(cache=True)
def _arc_values(tab, ftab, out, heur, ties, theta, longest):
    """ftab[F_ARC + out, arc_id(a, L)]: the value to the context's seat of every arc of the
    circle (start a, length L <= ``longest``), each the sum of its slice decisions' values
    in piece order (``_arc_sum``'s, kept for every length): running sums of ``_val_table``
    lookups (T_KIDX, from the circle in ``flow._round``, gives each slice of each arc its
    variety and the slices of it before in the arc)."""
    _val_table(tab, ftab, heur, ties, theta)
    row = F_ARC + out
    for a in range(NC):
        base = a * ARC_STRIDE
        total = 0.0
        for i in range(longest):
            total += ftab[F_VAL, tab[T_KIDX, base + i]]
            ftab[row, base + i + 1] = total


@njit(cache=True, inline="always")
def _forgo_net(tab, ftab, heur, ties, loss, v, m, k):
    """The net of eating k of the m collected slices of v when forgoing."""
    w = _worth(tab, ftab, heur, ties, v, m) - _worth(tab, ftab, heur, ties, v, m - k)
    return k * tab[T_CREAM, v] - loss * w


@njit(cache=True)
def _best_count(tab, ftab, heur, ties, loss, eats, v):
    """The number of v's edible slices e to eat (forgo_eats all: every one; choose: the
    best net, smallest among equal) and its net (the majority worth given up is counted
    from all m collected)."""
    m = tab[T_M, v]
    e = tab[T_E, v]
    if eats == EATS_ALL:
        return e, _forgo_net(tab, ftab, heur, ties, loss, v, m, e)
    best_k = 1
    best = _forgo_net(tab, ftab, heur, ties, loss, v, m, 1)
    for k in range(2, e + 1):
        net = _forgo_net(tab, ftab, heur, ties, loss, v, m, k)
        if net > best:
            best = net
            best_k = k
    return best_k, best


@njit(cache=True)
def _forgo_value(tab, ftab, heur, ties, loss, eats):
    """The forgo value of the context's seat: (value, variety or -1 for none, count)."""
    best = 0.0
    best_v = -1
    best_k = 0
    if eats == EATS_NONE:
        return best, best_v, best_k
    for v in range(tab[T_G, G_NV]):
        if tab[T_E, v] == 0:
            continue
        k, net = _best_count(tab, ftab, heur, ties, loss, eats, v)
        if net > best:
            best = net
            best_v = v
            best_k = k
    return best, best_v, best_k
