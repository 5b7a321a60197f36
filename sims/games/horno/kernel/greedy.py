"""``strategies.GreedyStrategy.choose`` on the kernel's table, read through the seat's view
(``kernel/view.py``). It draws nothing from its stream."""

from __future__ import annotations

from numba import int64, njit

from sims.games.horno.kernel.layout import (
    A_CLEAN,
    A_OVEN,
    A_PANTRY,
    A_PASS,
    A_SABOTAGE,
    AMMO_GREEDY,
    C_GARBAGE,
    C_INGREDIENT,
    C_RADIOACTIVE,
    G_N,
    G_NT,
    G_NTAKEN,
    G_SLOT,
    G_TAKEN0,
    G_TAKEN1,
    G_VICTIM,
    G_WILD,
    HIDDEN,
    P_ACTION,
    P_CLEAN_MORE,
    P_DISCARD,
    P_DISH,
    P_DRAW,
    P_GIVE,
    P_KEEP,
    P_PREPARE,
    P_REDRAW,
    P_REPLACE,
    P_SABOTAGE,
    S_CLOSED,
    S_DISH,
    S_NHAND,
    S_NOVEN,
    S_POS,
    S_PTS,
    T_DBACK,
    T_DING,
    T_DNBACK,
    T_DNING,
    T_DTYPE,
    T_G,
    T_HAND,
    T_KCLS,
    T_KPEN,
    T_KTYPE,
    T_LEGAL,
    T_S,
    T_TMP,
)
from sims.games.horno.kernel.state import dish_needs
from sims.games.horno.kernel.view import back_has, missing_count, seen_kind, sees, top_dish


@njit(cache=True, inline="always")
def _ammo(tab, me, k):
    """``_ammo``: garbage, or radioactive not matching the seat's dish."""
    cls = tab[T_KCLS, k]
    if cls == C_GARBAGE:
        return True
    if cls != C_RADIOACTIVE:
        return False
    d = tab[T_S + S_DISH, me]
    return not (d >= 0 and tab[T_KTYPE, k] == tab[T_DTYPE, d])


@njit(cache=True, inline="always")
def after(tab, me, v):
    """``strategies.after``: how many turns after ``me`` seat ``v`` plays (1: the next)."""
    return (tab[T_S + S_POS, v] - tab[T_S + S_POS, me]) % tab[T_G, G_N]


@njit(cache=True, inline="always")
def _in_hand(tab, me, k, skip):
    """Whether the hand without its index ``skip`` (-1: whole) holds ``k``."""
    h = tab[T_HAND + me]
    for i in range(tab[T_S + S_NHAND, me]):
        if i != skip and h[i] == k:
            return True
    return False


@njit(cache=True)
def useful(tab, me, k, skip, extra):
    """``useful(view, k, hand)`` for the hand without its index ``skip`` (-1: none)."""
    if _ammo(tab, me, k):
        n = 0
        h = tab[T_HAND + me]
        for i in range(tab[T_S + S_NHAND, me]):
            if i != skip and _ammo(tab, me, h[i]):
                n += 1
        return n < AMMO_GREEDY
    d = tab[T_S + S_DISH, me]
    if d < 0 or tab[T_S + S_CLOSED, me] == 1:
        return False
    cls = tab[T_KCLS, k]
    if cls == C_INGREDIENT:
        return dish_needs(tab, d, k) and not sees(tab, me, me, k, int64(-1)) \
            and not _in_hand(tab, me, k, skip)  # fmt: skip
    if k == tab[T_G, G_WILD] or cls == C_RADIOACTIVE:
        return not sees(tab, me, me, k, int64(-1)) and not _in_hand(tab, me, k, skip)
    return False


@njit(cache=True)
def _first_useless(tab, me, out):
    """``_useless(view, hand)`` written to ``out``; returns their count."""
    h = tab[T_HAND + me]
    n = 0
    for i in range(tab[T_S + S_NHAND, me]):
        if i > 0 and h[i] == h[i - 1]:
            continue
        if not useful(tab, me, h[i], i, int64(-1)):
            out[n] = h[i]
            n += 1
    return n


@njit(cache=True)
def _fits(tab, me, v, j, k):
    if k == tab[T_G, G_WILD]:
        return not sees(tab, me, v, k, j)
    return dish_needs(tab, tab[T_S + S_DISH, v], k) and not sees(tab, me, v, k, j)


@njit(cache=True)
def completes(tab, me, v, j, k):
    """``_completes``: whether ``k`` in place of slot ``j`` completes ``v``'s dish (as the
    seat sees the oven)."""
    d = tab[T_S + S_DISH, v]
    m = tab[T_DNING, d]
    wild = tab[T_G, G_WILD]
    have = 0
    for i in range(m):
        x = tab[T_DING + i, d]
        if x == k or sees(tab, me, v, x, j):
            have += 1
    if have == m:
        return True
    return (k == wild or sees(tab, me, v, wild, j)) and have >= m - 1


@njit(cache=True)
def _action(tab, me, nl):
    legal = tab[T_LEGAL]
    # 1. clean out a face-down card from its own oven
    for j in range(tab[T_S + S_NOVEN, me]):
        if seen_kind(tab, me, me, j) == HIDDEN:
            for i in range(nl):
                if legal[i] == A_CLEAN + j:
                    return A_CLEAN + j
    # 2. an oven steal of a card it wants, paying with a card it does not
    spare = tab[T_TMP]
    ns = _first_useless(tab, me, spare)
    n = tab[T_G, G_N]
    order = tab[T_TMP + 1]
    m = 0
    for v in range(n):  # _leader_order: most points, fewest missing, the next to play
        if v == me:
            continue
        order[m] = v
        m += 1
    for a in range(1, m):
        for b in range(a, 0, int64(-1)):
            x, y = order[b - 1], order[b]
            px, py = tab[T_S + S_PTS, x], tab[T_S + S_PTS, y]
            mx, my = missing_count(tab, me, x), missing_count(tab, me, y)
            later = after(tab, me, y) < after(tab, me, x)
            if py > px or (py == px and (my < mx or (my == mx and later))):
                order[b - 1], order[b] = y, x
            else:
                break
    for i in range(m):
        v = order[i]
        for j in range(tab[T_S + S_NOVEN, v]):
            a = A_OVEN + 10 * v + j
            found = False
            for q in range(nl):
                if legal[q] == a:
                    found = True
            c = seen_kind(tab, me, v, j)
            if not found or c == HIDDEN or not useful(tab, me, c, int64(-1), int64(-1)):
                continue
            for q in range(ns):
                k = spare[q]
                if _fits(tab, me, v, j, k) and not completes(tab, me, v, j, k):
                    return a
    # 3. a pantry steal from the biggest hand, when it has a spare card to give
    if ns > 0:
        best = A_PASS
        size = -1
        at = 0
        for q in range(nl):
            a = legal[q]
            if A_PANTRY <= a < A_OVEN:
                hv = tab[T_S + S_NHAND, a - A_PANTRY]
                av = after(tab, me, a - A_PANTRY)
                if hv > size or (hv == size and av < at):
                    best, size, at = a, hv, av
        return best
    return A_PASS


@njit(cache=True)
def _prepare(tab, me, nl):
    legal = tab[T_LEGAL]
    wild = tab[T_G, G_WILD]
    d = tab[T_S + S_DISH, me]
    miss = missing_count(tab, me, me)
    wild_in = sees(tab, me, me, wild, int64(-1))
    for i in range(1, nl):  # a card that completes the dish now
        k = legal[i]
        needed = tab[T_KCLS, k] == C_INGREDIENT and d >= 0 and dish_needs(tab, d, k)
        if (
            needed
            and not sees(tab, me, me, k, int64(-1))
            and (miss == 1 or (wild_in and miss == 2))
        ):
            return k
        if k == wild and miss == 1:
            return k
    for i in range(1, nl):  # an ingredient, then the dish's radioactive card, then the wild
        if tab[T_KCLS, legal[i]] == C_INGREDIENT:
            return legal[i]
    for i in range(1, nl):
        if tab[T_KCLS, legal[i]] == C_RADIOACTIVE:
            return legal[i]
    return legal[1]


@njit(cache=True)
def _sabotage(tab, me, nl):
    legal = tab[T_LEGAL]
    best = A_PASS
    bp = bm = bv = bpen = bk = 0
    for i in range(nl):
        a = legal[i]
        if a == A_PASS:
            continue
        b = a - A_SABOTAGE
        v, k = b // 100, b % 100
        if not _ammo(tab, me, k):
            continue
        vtype = tab[T_DTYPE, tab[T_S + S_DISH, v]]
        if tab[T_KCLS, k] == C_RADIOACTIVE and tab[T_KTYPE, k] == vtype:
            continue  # it would help them
        p, m, pen = -tab[T_S + S_PTS, v], missing_count(tab, me, v), -tab[T_KPEN, k]
        av = after(tab, me, v)
        if best == A_PASS or (p, m, av, pen, k) < (bp, bm, bv, bpen, bk):
            best = a
            bp, bm, bv, bpen, bk = p, m, av, pen, k
    return best


@njit(cache=True)
def greedy_choose(tab, me, phase, nl):
    """``GreedyStrategy.choose`` for the legal list ``tab[T_LEGAL, :nl]``."""
    legal = tab[T_LEGAL]
    if phase == P_DRAW:  # digging is free: what is useless goes next turn
        return legal[1]
    h = tab[T_HAND + me]
    nh = tab[T_S + S_NHAND, me]
    if phase == P_REDRAW:  # no dish yet: keep what a visible back shows
        for i in range(nh):
            k = h[i]
            if (i > 0 and k == h[i - 1]) or tab[T_KCLS, k] != C_INGREDIENT:
                continue
            wanted = False
            for t in range(tab[T_G, G_NT]):
                if back_has(tab, top_dish(tab, t), k):
                    wanted = True
            if not wanted:
                return k
        return A_PASS
    if phase == P_DISCARD:
        out = tab[T_TMP]
        return out[0] if _first_useless(tab, me, out) > 0 else A_PASS
    if phase == P_DISH:
        best = legal[0]
        bs = -1
        for i in range(nl):
            t = legal[i]
            sc = _back_score(tab, me, t)
            if sc > bs:
                best, bs = t, sc
        return best
    if phase == P_ACTION:
        return _action(tab, me, nl)
    if phase == P_KEEP:
        g = tab[T_G]
        t0, t1 = g[G_TAKEN0], g[G_TAKEN1]
        lo, hi = t0, t0
        if g[G_NTAKEN] == 2:
            lo, hi = min(t0, t1), max(t0, t1)
        if useful(tab, me, lo, int64(-1), int64(-1)):
            return lo
        if hi != lo and useful(tab, me, hi, int64(-1), int64(-1)):
            return hi
        return A_PASS
    if phase == P_GIVE:
        out = tab[T_TMP]
        return out[0] if _first_useless(tab, me, out) > 0 else legal[0]
    if phase == P_REPLACE:
        v, j = tab[T_G, G_VICTIM], tab[T_G, G_SLOT]
        spare = tab[T_TMP]
        ns = _first_useless(tab, me, spare)
        first_safe = -100
        for i in range(nl):
            k = legal[i]
            if completes(tab, me, v, j, k):
                continue
            if first_safe == -100:
                first_safe = k
            for q in range(ns):
                if spare[q] == k:
                    return k
        return first_safe if first_safe != -100 else legal[0]
    if phase == P_CLEAN_MORE:
        for i in range(1, nl):
            if seen_kind(tab, me, me, legal[i] - A_CLEAN) == HIDDEN:
                return legal[i]
        return A_PASS
    if phase == P_PREPARE:
        return _prepare(tab, me, nl)
    if phase == P_SABOTAGE:
        return _sabotage(tab, me, nl)
    return legal[0]


@njit(cache=True)
def _back_score(tab, me, t):
    """How many of the ingredients on type ``t``'s top dish back the hand holds (each
    back entry once)."""
    d = top_dish(tab, t)
    if d < 0:
        return 0
    n = 0
    for i in range(tab[T_DNBACK, d]):
        if _in_hand(tab, me, tab[T_DBACK + i, d], int64(-1)):
            n += 1
    return n
