"""greedy's and heuristic's decisions, compiled (``docs/strategies/pieceocake.md``, "Every
decision"): each returns the index of its action in the decision's legal list.

The cut is the hot spot (up to 1,475 masks at 2 players with six pieces, 1,013 at 5
players): the value of every arc of the circle (start, length) to every seat is computed
once per cut decision (``value._arc_values``), and each mask's round is then played out
by lookups (``_cut``).
"""

from __future__ import annotations

from numba import njit

from sims.games.pieceocake.kernel.layout import (
    F_ARC,
    F_HP,
    G_MOST,
    G_N,
    G_NTURNS,
    H_FEWER,
    H_LOSS,
    H_MARGIN,
    H_THETA,
    MT_BYK,
    MT_GARC,
    MT_KSTART,
    NC,
    R_AFTER_TAKE,
    R_FORGO_EATS,
    R_FORGO_ENDS,
    R_TIES,
    STRAT_HEURISTIC,
    T_CVAR,
    T_G,
    T_LEFT,
    T_LIST,
    T_M,
    T_ORDER,
    T_PLEN,
    T_PSTART,
    T_RULES,
    T_STRAT,
    _int_view,
    _uint_view,
)
from sims.games.pieceocake.kernel.value import (
    _arc_sum,
    _arc_values,
    _best_count,
    _context,
    _context_one,
    _derive,
    _forgo_value,
    _slice_value,
    _stats,
    _val_table,
)


@njit(cache=True)
def _eat(tab, ftab, seat, sid_pos):
    """EAT: the slice decision for the slice at circle position ``sid_pos`` (1 eat)."""
    heur = tab[T_STRAT, seat] == STRAT_HEURISTIC
    v = tab[T_CVAR, sid_pos]
    _context_one(tab, ftab, seat, v)
    ties = tab[T_RULES, R_TIES]
    eat, _val = _slice_value(tab, ftab, heur, ties, ftab[F_HP + seat, H_THETA], v, tab[T_M, v])
    return eat


@njit(cache=True)
def _choose(tab, ftab, seat, nfree):
    """CHOOSE among [forgo] + the free pieces in T_LIST: the best piece (first among
    equal), unless the forgo value beats it by more than the margin (then 0)."""
    heur = tab[T_STRAT, seat] == STRAT_HEURISTIC
    ties = tab[T_RULES, R_TIES]
    theta = ftab[F_HP + seat, H_THETA]
    _context(tab, ftab, seat)
    _val_table(tab, ftab, heur, ties, theta)
    best = -1.0
    best_i = 0
    for i in range(nfree):
        j = tab[T_LIST, i]
        pv = _arc_sum(tab, ftab, tab[T_PSTART, j], tab[T_PLEN, j])  # its piece value
        if i == 0 or pv > best:
            best = pv
            best_i = i
    loss = ftab[F_HP + seat, H_LOSS]
    fv, _v, _k = _forgo_value(tab, ftab, heur, ties, loss, tab[T_RULES, R_FORGO_EATS])
    if fv > best + ftab[F_HP + seat, H_MARGIN]:
        return 0
    return 1 + best_i


@njit(cache=True)
def _forgo_eat(tab, ftab, seat, nheld):
    """FORGO_EAT among [nothing] + the held varieties in T_LIST: the forgo value's."""
    heur = tab[T_STRAT, seat] == STRAT_HEURISTIC
    ties = tab[T_RULES, R_TIES]
    loss = ftab[F_HP + seat, H_LOSS]
    _context(tab, ftab, seat)
    _fv, v, _k = _forgo_value(tab, ftab, heur, ties, loss, tab[T_RULES, R_FORGO_EATS])
    if v < 0:
        return 0
    for i in range(nheld):
        if tab[T_LIST, i] == v:
            return 1 + i
    return 0  # unreachable: a variety with a positive net is held


@njit(cache=True)
def _forgo_count(tab, ftab, seat, v):
    """FORGO_COUNT of variety v (legal 1 .. count): the best net's count, less one."""
    heur = tab[T_STRAT, seat] == STRAT_HEURISTIC
    ties = tab[T_RULES, R_TIES]
    loss = ftab[F_HP + seat, H_LOSS]
    _context(tab, ftab, seat)
    k, _net = _best_count(tab, ftab, heur, ties, loss, tab[T_RULES, R_FORGO_EATS], v)
    return k - 1


@njit(cache=True, inline="always")
def _cuts_of_n(tab, ftab, akey, mtab, seat, n, fewer, most, best, best_i):
    """At n >= 3 players, the best of (best, best_i) and the cuts of n pieces (ties to the
    lowest mask): the n - 1 seats before the server each take their first best free
    piece, and the server gets the one left.

    Two passes: the first writes each cut's leftover arc to T_LEFT (straight-line code:
    the picks are selects on the arc values' integer keys, the leftover's index the sum
    of all less the sum of the picks); the second finds the first best of them."""
    lo = mtab[n, MT_KSTART]
    hi = mtab[n + 1, MT_KSTART]
    half = n * (n - 1) // 2
    uarc = _uint_view(mtab)  # the arc ids, >= 0, as unsigned indices
    for r in range(lo, hi):
        # the first seat picks among all n pieces
        pick = 0
        pk = akey[F_ARC, uarc[r, MT_GARC]]
        for j in range(1, n):
            x = akey[F_ARC, uarc[r, MT_GARC + j]]
            better = x > pk
            pk = x if better else pk
            pick = j if better else pick
        taken = 1 << pick
        picked = pick
        for q in range(1, n - 1):
            row = F_ARC + q  # the arcs of the seat of turn q (see _cut)
            pick = 0
            pk = -2
            for j in range(n):
                x = akey[row, uarc[r, MT_GARC + j]]
                x = -1 if (taken >> j) & 1 == 1 else x
                better = x > pk
                pk = x if better else pk
                pick = j if better else pick
            taken |= 1 << pick
            picked += pick
        tab[T_LEFT, r - lo] = mtab[r, MT_GARC + half - picked]
    srow = F_ARC + n - 1  # the server's turn is the last
    top = -1.0
    top_r = -1
    for r in range(hi - lo):
        x = ftab[srow, tab[T_LEFT, r]]
        if x > top:
            top = x
            top_r = r
    if top_r >= 0:
        i = mtab[lo + top_r, MT_BYK]
        total = 0.0
        total += top
        total += fewer * (most - n)
        if best_i < 0 or total > best or (total == best and i < best_i):
            best = total
            best_i = i
    return best, best_i


@njit(cache=True, inline="always")
def _two_group(tab, ftab, akey, mtab, seat, k, nturns, forgoes, fv, fewer, most, best, best_i):
    """At 2 players, the best of (best, best_i) and the cuts of k pieces (``_cut_two``)."""
    srow = F_ARC + seat
    npick = min(k, nturns)
    for r in range(mtab[k, MT_KSTART], mtab[k + 1, MT_KSTART]):
        taken = 0
        total = 0.0
        for q in range(npick):
            t = tab[T_ORDER, q]
            row = F_ARC + t
            pick = 0
            pk = -2
            for j in range(k):
                x = akey[row, mtab[r, MT_GARC + j]]
                x = -1 if (taken >> j) & 1 == 1 else x
                better = x > pk
                pk = x if better else pk
                pick = j if better else pick
            taken |= 1 << pick
            if t == seat:
                total += ftab[srow, mtab[r, MT_GARC + pick]]
        for _ in range(forgoes):
            total += fv
        total += fewer * (most - k)
        i = mtab[r, MT_BYK]
        if best_i < 0 or total > best or (total == best and i < best_i):
            best = total
            best_i = i
    return best, best_i


@njit(cache=True)
def _cut_two(tab, ftab, akey, mtab, seat, fv, fewer, most):
    """The CUT at 2 players (arcs by seat): the index of the best cut, ties to the lowest.

    A turn picks while a piece is free and nobody stops before forgoing, so with k pieces
    the first min(k, turns) turns pick and the others are forgo turns (the seats stopped
    by forgoing skipped; under ``forced_forgo_after_take = false`` a seat that picked
    passes them): the same for every cut of k pieces. So the cuts are walked by
    piece count (``MT_BYK``; ``_two_group``, k a constant in each copy: unrolled): the
    picks of each (branch-free), then the server's values of its picks and its forgo value
    for each of its forgo turns, in turn order."""
    ends = tab[T_RULES, R_FORGO_ENDS] != 0
    after_take = tab[T_RULES, R_AFTER_TAKE] != 0
    nturns = tab[T_G, G_NTURNS]
    best = 0.0
    best_i = -1
    for k in range(1, most + 1):
        if mtab[k, MT_KSTART] == mtab[k + 1, MT_KSTART]:
            continue  # no legal cut of k pieces
        npick = min(k, nturns)
        took = False  # the server took a piece in one of the picking turns
        for q in range(npick):
            if tab[T_ORDER, q] == seat:
                took = True
        forgoes = 0  # the server's forgo turns
        stopped = 0
        for q in range(npick, nturns):
            t = tab[T_ORDER, q]
            if stopped & (1 << t):
                continue
            if t == seat and (after_take or not took):
                forgoes += 1
            if ends:
                stopped |= 1 << t
        # k a constant in each copy (unrolled); k == 6 only under two_player_pieces = 6
        if k == 1:
            best, best_i = _two_group(
                tab, ftab, akey, mtab, seat, 1, nturns, forgoes, fv, fewer, most, best, best_i
            )
        elif k == 2:
            best, best_i = _two_group(
                tab, ftab, akey, mtab, seat, 2, nturns, forgoes, fv, fewer, most, best, best_i
            )
        elif k == 3:
            best, best_i = _two_group(
                tab, ftab, akey, mtab, seat, 3, nturns, forgoes, fv, fewer, most, best, best_i
            )
        elif k == 4:
            best, best_i = _two_group(
                tab, ftab, akey, mtab, seat, 4, nturns, forgoes, fv, fewer, most, best, best_i
            )
        elif k == 5:
            best, best_i = _two_group(
                tab, ftab, akey, mtab, seat, 5, nturns, forgoes, fv, fewer, most, best, best_i
            )
        else:
            best, best_i = _two_group(
                tab, ftab, akey, mtab, seat, k, nturns, forgoes, fv, fewer, most, best, best_i
            )
    return best_i


@njit(cache=True)
def _cut(tab, ftab, seat, mtab):
    """CUT: the index of the best legal cut (the first among equal), each cut's round
    played out with every seat taking its first best free piece by value to it (valued by
    the server, with the counts before the cut), the server's forgo value at each of its
    turns with no piece free, plus ``fewer`` per piece fewer than the most.

    At 2 players see ``_cut_two``. At 3 or more each seat has one turn and the server is
    last: a cut of k < n pieces leaves it nothing (so all the
    cuts of k pieces score the forgo value and only the first can win), and a cut of n
    pieces leaves it the one piece the others did not take. So only the cuts of n pieces
    are played out (grouped in ``MT_BYK``), and the first of each smaller count joins
    them; ties go to the lowest mask, as in ascending order."""
    heur = tab[T_STRAT, seat] == STRAT_HEURISTIC
    ties = tab[T_RULES, R_TIES]
    theta = ftab[F_HP + seat, H_THETA]
    n = tab[T_G, G_N]
    # The arcs' values: row F_ARC + t for seat t at 2 players; at 3 or more, where each
    # seat has one turn, row F_ARC + q for the seat of turn q (the server's is the last),
    # and only up to the longest piece of a cut of n pieces, the circle less a slice for
    # each other piece (only those cuts are played out).
    longest = NC if n == 2 else NC - (n - 1)
    _stats(tab)
    for q in range(n):
        t = q if n == 2 else tab[T_ORDER, q]
        _derive(tab, t)
        _arc_values(tab, ftab, q, heur, ties, theta, longest)
    _derive(tab, seat)
    loss = ftab[F_HP + seat, H_LOSS]
    fv, _v, _k = _forgo_value(tab, ftab, heur, ties, loss, tab[T_RULES, R_FORGO_EATS])
    fewer = ftab[F_HP + seat, H_FEWER]
    most = tab[T_G, G_MOST]
    akey = _int_view(ftab)
    best = 0.0
    best_i = -1
    if n == 2:
        return _cut_two(tab, ftab, akey, mtab, seat, fv, fewer, most)
    # the first cut of each count k < n (MT_BYK lists a group in mask order)
    for k in range(1, n):
        lo = mtab[k, MT_KSTART]
        if lo == mtab[k + 1, MT_KSTART]:
            continue  # no legal cut of k pieces
        i = mtab[lo, MT_BYK]
        total = 0.0
        total += fv
        total += fewer * (most - k)
        if best_i < 0 or total > best or (total == best and i < best_i):
            best = total
            best_i = i
    # every cut of n pieces, played out (n a constant in each copy: unrolled)
    if n == 3:
        best, best_i = _cuts_of_n(tab, ftab, akey, mtab, seat, 3, fewer, most, best, best_i)
    elif n == 4:
        best, best_i = _cuts_of_n(tab, ftab, akey, mtab, seat, 4, fewer, most, best, best_i)
    elif n == 5:
        best, best_i = _cuts_of_n(tab, ftab, akey, mtab, seat, 5, fewer, most, best, best_i)
    else:
        best, best_i = _cuts_of_n(tab, ftab, akey, mtab, seat, n, fewer, most, best, best_i)
    return best_i
