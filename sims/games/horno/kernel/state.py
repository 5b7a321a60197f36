"""``engine.GameState``'s queries and moves on the kernel's table: hands (sorted), ovens
(slot order), the deck and its reshuffle, completion, and the legal lists of placing,
oven steals and dish types (each in the reference's ascending order)."""

from __future__ import annotations

from numba import int64, njit

from sims.core.fastrng import shuffle
from sims.games.horno.kernel.layout import (
    A_OVEN,
    C_INGREDIENT,
    C_RADIOACTIVE,
    G_DEND,
    G_DHEAD,
    G_N,
    G_NDISC,
    G_NT,
    G_RESHUF,
    G_WILD,
    R_COMPLETES_FORBIDDEN,
    R_FACE_DOWN,
    R_HAND,
    R_NEEDS_REPLACEMENT,
    R_NO_DISH_REPEAT,
    R_OVEN,
    R_REPEAT_TYPES,
    R_RESHUFFLE,
    R_SECOND_RADIOACTIVE,
    S_CLOSED,
    S_DISH,
    S_NHAND,
    S_NOVEN,
    T_DECK,
    T_DING,
    T_DISC,
    T_DNING,
    T_DONET,
    T_DTYPE,
    T_G,
    T_HAND,
    T_KCLS,
    T_KTYPE,
    T_NPILE0,
    T_OBY,
    T_OK,
    T_OUP,
    T_PHEAD,
    T_RULES,
    T_S,
    T_TMP,
)


# ------------------------------------------------------------------ hands and ovens
@njit(cache=True)
def hand_insert(tab, s, k):
    """``insort(hands[s], k)``."""
    n = tab[T_S + S_NHAND, s]
    h = tab[T_HAND + s]
    i = n
    while i > 0 and h[i - 1] > k:
        h[i] = h[i - 1]
        i -= 1
    h[i] = k
    tab[T_S + S_NHAND, s] = n + 1


@njit(cache=True)
def hand_remove(tab, s, k):
    """``hands[s].remove(k)`` (the kind is in the hand)."""
    n = tab[T_S + S_NHAND, s]
    h = tab[T_HAND + s]
    i = 0
    while h[i] != k:
        i += 1
    for j in range(i, n - 1):
        h[j] = h[j + 1]
    tab[T_S + S_NHAND, s] = n - 1


@njit(cache=True)
def hand_pop(tab, s, i):
    """``hands[s].pop(i)``."""
    k = tab[T_HAND + s, i]
    n = tab[T_S + S_NHAND, s]
    h = tab[T_HAND + s]
    for j in range(i, n - 1):
        h[j] = h[j + 1]
    tab[T_S + S_NHAND, s] = n - 1
    return k


@njit(cache=True)
def oven_append(tab, s, k, up, by):
    j = tab[T_S + S_NOVEN, s]
    tab[T_OK + s, j] = k
    tab[T_OUP + s, j] = up
    tab[T_OBY + s, j] = by
    tab[T_S + S_NOVEN, s] = j + 1


@njit(cache=True)
def oven_pop(tab, s, j):
    """``ovens[s].pop(j)``: the slots after it close up; returns its kind (its face is
    read before)."""
    k = tab[T_OK + s, j]
    n = tab[T_S + S_NOVEN, s]
    for i in range(j, n - 1):
        tab[T_OK + s, i] = tab[T_OK + s, i + 1]
        tab[T_OUP + s, i] = tab[T_OUP + s, i + 1]
        tab[T_OBY + s, i] = tab[T_OBY + s, i + 1]
    tab[T_S + S_NOVEN, s] = n - 1
    return k


@njit(cache=True)
def oven_has(tab, s, k, skip):
    """Whether seat ``s``'s oven holds kind ``k`` (any face) outside slot ``skip``."""
    for j in range(tab[T_S + S_NOVEN, s]):
        if j != skip and tab[T_OK + s, j] == k:
            return True
    return False


@njit(cache=True)
def oven_shows(tab, s, k):
    """Whether seat ``s``'s oven holds kind ``k`` face up."""
    for j in range(tab[T_S + S_NOVEN, s]):
        if tab[T_OUP + s, j] == 1 and tab[T_OK + s, j] == k:
            return True
    return False


@njit(cache=True)
def dish_needs(tab, d, k):
    """Whether dish card ``d`` requires kind ``k``."""
    for i in range(tab[T_DNING, d]):
        if tab[T_DING + i, d] == k:
            return True
    return False


# ------------------------------------------------------------------ the deck
@njit(cache=True)
def deck_len(tab):
    return tab[T_G, G_DEND] - tab[T_G, G_DHEAD]


@njit(cache=True)
def refill(tab, chance):
    """``GameState._refill``: an empty deck takes the shuffled discard pile."""
    g = tab[T_G]
    nd = g[G_NDISC]
    if g[G_DEND] > g[G_DHEAD] or nd == 0 or tab[T_RULES, R_RESHUFFLE] == 0:
        return
    order = tab[T_TMP + 3, :nd]
    for i in range(nd):
        order[i] = i
    shuffle(chance, order)
    for i in range(nd):
        tab[T_DECK, i] = tab[T_DISC, order[i]]
    g[G_DHEAD] = 0
    g[G_DEND] = nd
    g[G_NDISC] = 0
    g[G_RESHUF] += 1


@njit(cache=True)
def draw(tab, chance, s):
    """``GameState._draw``: the top card into the hand (then an emptied deck refills)."""
    g = tab[T_G]
    k = tab[T_DECK, g[G_DHEAD]]
    g[G_DHEAD] += 1
    hand_insert(tab, s, k)
    if g[G_DEND] == g[G_DHEAD]:
        refill(tab, chance)
    return k


@njit(cache=True)
def discard(tab, k):
    g = tab[T_G]
    tab[T_DISC, g[G_NDISC]] = k
    g[G_NDISC] += 1


# ------------------------------------------------------------------ completion
@njit(cache=True)
def complete_with(tab, v, skip, extra):
    """``is_complete(v, oven)`` for ``v``'s oven without slot ``skip`` (-1: none) and with
    kind ``extra`` added (-1: none)."""
    d = tab[T_S + S_DISH, v]
    k = tab[T_DNING, d]
    wild = tab[T_G, G_WILD]
    have = 0
    for i in range(k):
        x = tab[T_DING + i, d]
        if x == extra or oven_has(tab, v, x, skip):
            have += 1
    if have == k:
        return True
    return (wild == extra or oven_has(tab, v, wild, skip)) and have >= k - 1


@njit(cache=True)
def is_complete(tab, s):
    return complete_with(tab, s, int64(-1), int64(-1))


# ------------------------------------------------------------------ legal lists
@njit(cache=True)
def placeable(tab, s, out, at):
    """``placeable(s)`` written to ``out[at:]``; returns their count."""
    d = tab[T_S + S_DISH, s]
    if d < 0 or tab[T_S + S_CLOSED, s] == 1 or tab[T_S + S_NOVEN, s] >= tab[T_RULES, R_OVEN]:
        return 0
    dtype = tab[T_DTYPE, d]
    wild = tab[T_G, G_WILD]
    second = tab[T_RULES, R_SECOND_RADIOACTIVE] == 1
    h = tab[T_HAND + s]
    n = 0
    last = -100
    for i in range(tab[T_S + S_NHAND, s]):
        k = h[i]
        if k == last:
            continue
        last = k
        cls = tab[T_KCLS, k]
        ok = False
        if cls == C_INGREDIENT:
            ok = dish_needs(tab, d, k) and not oven_has(tab, s, k, int64(-1))
        elif cls == C_RADIOACTIVE:
            ok = tab[T_KTYPE, k] == dtype and (second or not oven_shows(tab, s, k))
        elif k == wild:
            ok = not oven_has(tab, s, k, int64(-1))
        if ok:
            out[at + n] = k
            n += 1
    return n


@njit(cache=True)
def replacements(tab, thief, v, j, out, at):
    """``replacements(thief, v, j)`` written to ``out[at:]``; returns their count."""
    d = tab[T_S + S_DISH, v]
    wild = tab[T_G, G_WILD]
    forbidden = tab[T_RULES, R_COMPLETES_FORBIDDEN] == 1
    h = tab[T_HAND + thief]
    n = 0
    last = -100
    for i in range(tab[T_S + S_NHAND, thief]):
        k = h[i]
        if k == last:
            continue
        last = k
        if oven_has(tab, v, k, j):
            continue
        if not (k == wild or (tab[T_KCLS, k] == C_INGREDIENT and dish_needs(tab, d, k))):
            continue
        if forbidden and complete_with(tab, v, j, k):
            continue
        out[at + n] = k
        n += 1
    return n


@njit(cache=True)
def replaceable(tab, thief, v, j):
    """``_replaceable``: whether the thief holds a valid replacement for slot ``j``."""
    if tab[T_RULES, R_COMPLETES_FORBIDDEN] == 1:
        return replacements(tab, thief, v, j, tab[T_TMP + 3], int64(0)) > 0
    d = tab[T_S + S_DISH, v]
    wild = tab[T_G, G_WILD]
    h = tab[T_HAND + thief]
    for i in range(tab[T_S + S_NHAND, thief]):
        k = h[i]
        if not oven_has(tab, v, k, j) and (k == wild or dish_needs(tab, d, k)):
            return True
    return False


@njit(cache=True)
def oven_targets(tab, thief, out, at):
    """The oven-steal actions of ``oven_targets(thief)`` written to ``out[at:]``; returns
    their count."""
    n = 0
    needs = tab[T_RULES, R_NEEDS_REPLACEMENT] == 1
    face_down = tab[T_RULES, R_FACE_DOWN] == 1
    full = tab[T_S + S_NHAND, thief] >= tab[T_RULES, R_HAND]
    for v in range(tab[T_G, G_N]):
        if v == thief:
            continue
        d = tab[T_S + S_DISH, v]
        if d < 0 or tab[T_S + S_CLOSED, v] == 1:
            continue
        dtype = tab[T_DTYPE, d]
        for j in range(tab[T_S + S_NOVEN, v]):
            up = tab[T_OUP + v, j] == 1
            if not up and not face_down:
                continue
            k = tab[T_OK + v, j]
            if up and tab[T_KCLS, k] == C_RADIOACTIVE and tab[T_KTYPE, k] == dtype:
                continue
            if (needs or full) and not replaceable(tab, thief, v, j):
                continue
            out[at + n] = A_OVEN + 10 * v + j
            n += 1
    return n


@njit(cache=True)
def dish_types(tab, s, out):
    """``dish_types(s)`` written to ``out``; returns their count."""
    nt = tab[T_G, G_NT]
    repeat = tab[T_RULES, R_REPEAT_TYPES] == 1
    n = 0
    for t in range(nt):
        if tab[T_PHEAD, t] < tab[T_NPILE0, t] and (repeat or tab[T_DONET + s, t] == 0):
            out[n] = t
            n += 1
    if n == 0 and tab[T_RULES, R_NO_DISH_REPEAT] == 1:
        for t in range(nt):
            if tab[T_PHEAD, t] < tab[T_NPILE0, t]:
                out[n] = t
                n += 1
    return n
