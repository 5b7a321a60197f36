"""``heuristic.py``'s valuation and ``HeuristicStrategy.choose`` on the kernel's table.

Each function is the :class:`~sims.games.horno.heuristic.Valuation` method of its name,
computed from the deciding seat's view (``kernel/view.py``) without the reference's
memos (they only save work: every quantity is a pure function of the view). A hand
variant is the seat's hand without its index ``skip`` (-1: none) and with kind ``extra``
added (-1: none). The float operations are the reference's, in its order, so that scores,
their ties and their thresholds come out exactly the same.
"""

from __future__ import annotations

import math

import numpy as np
from numba import int64, njit

from sims.games.horno.kernel.greedy import completes
from sims.games.horno.kernel.layout import (
    A_CLEAN,
    A_OVEN,
    A_PANTRY,
    A_PASS,
    A_SABOTAGE,
    AMMO_HEUR,
    C_GARBAGE,
    C_INGREDIENT,
    C_RADIOACTIVE,
    G_KEPT,
    G_N,
    G_NK,
    G_NT,
    G_NTAKEN,
    G_ROUND,
    G_SLOT,
    G_TAKEN0,
    G_TAKEN1,
    G_TURN,
    G_VICTIM,
    G_WILD,
    H_AMMO,
    H_AVOID,
    H_BASE,
    H_CLEAN,
    H_DISCARD,
    H_DRAW,
    H_FUTURE,
    H_HARM,
    H_HELD,
    H_LATE,
    H_LEADER,
    H_RADIO,
    H_ROOM,
    H_SABOTAGE,
    H_STEAL,
    H_VISIBLE,
    H_WILD,
    HIDDEN,
    NEED_V,
    P_ACTION,
    P_DISCARD,
    P_DISH,
    P_DRAW,
    P_GIVE,
    P_KEEP,
    P_PREPARE,
    P_REDRAW,
    P_REPLACE,
    P_SABOTAGE,
    R_REPEAT_TYPES,
    R_ROUNDS,
    S_CLOSED,
    S_DISH,
    S_NHAND,
    S_NOVEN,
    S_NSC,
    S_POS,
    S_PTS,
    T_DING,
    T_DNBACK,
    T_DNING,
    T_DONET,
    T_DPTS,
    T_DTYPE,
    T_G,
    T_HAND,
    T_KBONUS,
    T_KCLS,
    T_KCOPIES,
    T_KPEN,
    T_KTYPE,
    T_LEGAL,
    T_NPILE0,
    T_NRADIO,
    T_OK,
    T_OUP,
    T_PILE0,
    T_RADIO,
    T_RULES,
    T_S,
    T_SCD,
    T_UNSEEN,
)
from sims.games.horno.kernel.state import dish_needs
from sims.games.horno.kernel.view import (
    back_has,
    missing_count,
    same_back,
    seen_kind,
    sees,
    top_card,
    top_dish,
)

NEVER = -math.inf


# ------------------------------------------------------------------ cards
@njit(cache=True, inline="always")
def _dish(tab, me):
    """The seat's dish (-1: none, or its oven closed)."""
    return tab[T_S + S_DISH, me] if tab[T_S + S_CLOSED, me] == 0 else -1


@njit(cache=True, inline="always")
def _dtype(tab, me):
    d = _dish(tab, me)
    return tab[T_DTYPE, d] if d >= 0 else -1


@njit(cache=True, inline="always")
def mine_bad(tab, me, k):
    """``Valuation.mine_bad``: garbage, or radioactive of another type than the seat's
    dish (any without a dish)."""
    cls = tab[T_KCLS, k]
    if cls == C_GARBAGE:
        return True
    if cls != C_RADIOACTIVE:
        return False
    t = _dtype(tab, me)
    return not (t >= 0 and tab[T_KTYPE, k] == t)


@njit(cache=True, inline="always")
def _in_rest(tab, me, k, skip, extra):
    if k == extra:
        return True
    h = tab[T_HAND + me]
    for i in range(tab[T_S + S_NHAND, me]):
        if i != skip and h[i] == k:
            return True
    return False


@njit(cache=True, inline="always")
def _is_missing(tab, me, d, k):
    """Whether ``k`` is in the seat's ``missing``."""
    return d >= 0 and dish_needs(tab, d, k) and not sees(tab, me, me, k, int64(-1))


@njit(cache=True, inline="always")
def _done(tab, s, t):
    """Whether ``t`` is among the types ``s`` may not take next (completed ones, unless
    rule ``repeat_types``)."""
    return tab[T_RULES, R_REPEAT_TYPES] == 0 and tab[T_DONET + s, t] > 0


@njit(cache=True)
def _future(tab, me, k):
    """Whether ``k`` is in ``Valuation.future()``."""
    mytype = _dtype(tab, me)
    for t in range(tab[T_G, G_NT]):
        d = top_dish(tab, t)
        if d >= 0 and t != mytype and not _done(tab, me, t) and back_has(tab, d, k):
            return True
    return False


@njit(cache=True)
def value(tab, p, me, k, skip, extra):
    """V(k, R) for the hand variant R."""
    d = _dish(tab, me)
    wild = tab[T_G, G_WILD]
    cls = tab[T_KCLS, k]
    if d >= 0 and _is_missing(tab, me, d, k) and not _in_rest(tab, me, k, skip, extra):
        return NEED_V
    if k == wild:
        wild_in = sees(tab, me, me, wild, int64(-1))
        if (
            not wild_in
            and not _in_rest(tab, me, k, skip, extra)
            and (d < 0 or missing_count(tab, me, me) > 0)
        ):
            return NEED_V
        return 0.0
    if (d >= 0 and cls == C_RADIOACTIVE and tab[T_KTYPE, k] == tab[T_DTYPE, d]
            and not sees(tab, me, me, k, int64(-1))
            and not _in_rest(tab, me, k, skip, extra)):  # fmt: skip
        return p[H_RADIO]
    if mine_bad(tab, me, k):
        held = 0
        h = tab[T_HAND + me]
        for i in range(tab[T_S + S_NHAND, me]):
            if i != skip and mine_bad(tab, me, h[i]):
                held += 1
        if extra >= 0 and mine_bad(tab, me, extra):
            held += 1
        return p[H_AMMO] if held < AMMO_HEUR else 0.0
    if cls == C_INGREDIENT and not _in_rest(tab, me, k, skip, extra) and _future(tab, me, k):
        return p[H_FUTURE]
    return 0.0


@njit(cache=True, inline="always")
def _index_of(tab, me, k):
    h = tab[T_HAND + me]
    for i in range(tab[T_S + S_NHAND, me]):
        if h[i] == k:
            return i
    return -1


@njit(cache=True)
def kept_value(tab, p, me, k):
    """V(k, H − k) for a card ``k`` in hand."""
    return value(tab, p, me, k, _index_of(tab, me, k), int64(-1))


# ------------------------------------------------------------------ the table
@njit(cache=True)
def unseen(tab, me):
    """``view.unseen(remembered=False)`` into ``tab[T_UNSEEN]``; returns the total."""
    u = tab[T_UNSEEN]
    nk = tab[T_G, G_NK]
    for k in range(nk):
        u[k] = tab[T_KCOPIES, k]
    h = tab[T_HAND + me]
    for i in range(tab[T_S + S_NHAND, me]):
        u[h[i]] -= 1
    for v in range(tab[T_G, G_N]):
        for j in range(tab[T_S + S_NOVEN, v]):
            c = seen_kind(tab, me, v, j)
            if c != HIDDEN:
                u[c] -= 1
    top = top_card(tab)
    if top >= 0:
        u[top] -= 1
    g = tab[T_G]
    thief = g[G_VICTIM] >= 0 and g[G_TURN] == me
    if thief and g[G_SLOT] < 0:  # a pantry steal's cards in its hands
        u[g[G_TAKEN0]] -= 1
        if g[G_NTAKEN] == 2:
            u[g[G_TAKEN1]] -= 1
    total = 0
    for k in range(nk):
        total += u[k]
    return total


@njit(cache=True, inline="always")
def penalty_for(tab, k, dtype):
    if tab[T_KCLS, k] == C_RADIOACTIVE and tab[T_KTYPE, k] == dtype:
        return -float(tab[T_KBONUS, k])
    return float(tab[T_KPEN, k])


@njit(cache=True)
def hidden_penalty(tab, me):
    """E (``tab[T_UNSEEN]`` filled)."""
    d = _dish(tab, me)
    if d < 0:
        return 0.0
    dtype = tab[T_DTYPE, d]
    total = 0.0
    weight = 0.0
    u = tab[T_UNSEEN]
    for k in range(tab[T_G, G_NK]):
        cls = tab[T_KCLS, k]
        if cls != C_GARBAGE and cls != C_RADIOACTIVE:
            continue
        c = u[k]
        if c != 0:
            total += float(c) * penalty_for(tab, k, dtype)
            weight += float(c)
    return total / weight if weight != 0.0 else 0.0


@njit(cache=True)
def correct(tab, s):
    """The correct cards face up in ``s``'s oven."""
    d = tab[T_S + S_DISH, s]
    if d < 0:
        return 0
    n = 0
    for i in range(tab[T_DNING, d]):
        if _shows(tab, s, tab[T_DING + i, d]):
            n += 1
    if _shows(tab, s, tab[T_G, G_WILD]):
        n += 1
    t = tab[T_DTYPE, d]
    for i in range(tab[T_NRADIO, t]):
        if _shows(tab, s, tab[T_RADIO + t, i]):
            n += 1
            break
    return n


@njit(cache=True, inline="always")
def _shows(tab, s, k):
    for j in range(tab[T_S + S_NOVEN, s]):
        if tab[T_OUP + s, j] == 1 and tab[T_OK + s, j] == k:
            return True
    return False


@njit(cache=True, inline="always")
def _proj(tab, s):
    return float(tab[T_S + S_PTS, s]) + 2.0 * correct(tab, s)


@njit(cache=True, inline="always")
def _after(tab, me, v):
    n = tab[T_G, G_N]
    return (tab[T_S + S_POS, v] - tab[T_S + S_POS, me]) % n


@njit(cache=True)
def rho(tab, p, me, v):
    """ρ(v): leader·[v is the leader] + (1 − leader)·[v is the nearest rival]."""
    n = tab[T_G, G_N]
    mine = _proj(tab, me)
    lead = -1
    near = -1
    lp = 0.0
    la = 0
    nd = 0.0
    na = 0
    for u in range(n):
        if u == me:
            continue
        pu = _proj(tab, u)
        au = _after(tab, me, u)
        if lead < 0 or pu > lp or (pu == lp and -au > -la):
            lead, lp, la = u, pu, au
        du = abs(pu - mine)
        if near < 0 or du < nd or (du == nd and au < na):
            near, nd, na = u, du, au
    lam = p[H_LEADER]
    return lam * (1.0 if v == lead else 0.0) + (1.0 - lam) * (1.0 if v == near else 0.0)


@njit(cache=True)
def useful_to(tab, me, v, k):
    """u_v(k)."""
    d = tab[T_S + S_DISH, v]
    if d < 0 or tab[T_S + S_CLOSED, v] == 1 or k < 0:
        return False
    t = tab[T_DTYPE, d]
    helps = k == tab[T_G, G_WILD] or dish_needs(tab, d, k)
    if not helps and tab[T_KCLS, k] == C_RADIOACTIVE and tab[T_KTYPE, k] == t:
        helps = True
    return helps and not sees(tab, me, v, k, int64(-1))


@njit(cache=True)
def harm(tab, p, me, v, points):
    return p[H_HARM] * (1.0 + rho(tab, p, me, v)) * points


# ------------------------------------------------------------------ dishes
@njit(cache=True)
def _seen(tab, me, k):
    """Whether ``k`` is in ``Valuation.seen()``."""
    if k == top_card(tab):
        return True
    for v in range(tab[T_G, G_N]):
        if v != me and _shows(tab, v, k):
            return True
    return False


@njit(cache=True)
def dish_score(tab, p, me, d, skip):
    """S(d) with the hand without its index ``skip``."""
    wild = tab[T_G, G_WILD]
    m = tab[T_DNING, d]
    h = 0
    s = 0
    for i in range(m):
        k = tab[T_DING + i, d]
        if _in_rest(tab, me, k, skip, int64(-1)):
            h += 1
        elif _seen(tab, me, k):
            s += 1
    if _in_rest(tab, me, wild, skip, int64(-1)) and h < m:
        h += 1
    rounds = tab[T_RULES, R_ROUNDS]
    score = p[H_BASE] * tab[T_DPTS, d] + p[H_HELD] * h + p[H_VISIBLE] * s
    score -= p[H_LATE] * (m - h) * tab[T_G, G_ROUND] / rounds
    t = tab[T_DTYPE, d]
    radio = False
    for i in range(tab[T_NRADIO, t]):
        if _in_rest(tab, me, tab[T_RADIO + t, i], skip, int64(-1)):
            radio = True
    return score + (p[H_RADIO] if radio else 0.0)


@njit(cache=True)
def _out_of_pile(tab, d):
    """Whether dish card ``d`` is in an oven or completed (so not in its pile)."""
    for v in range(tab[T_G, G_N]):
        if tab[T_S + S_DISH, v] == d:
            return True
        for i in range(tab[T_S + S_NSC, v]):
            if tab[T_SCD + v, i] == d:
                return True
    return False


@njit(cache=True)
def type_score(tab, p, me, t, skip):
    """T(t): the mean S(d) over ``tops(t)``."""
    top = top_dish(tab, t)
    n0 = tab[T_NPILE0, t]
    # tops: the pile's possible dishes showing the top's back, else all possible ones,
    # else the type's dishes
    for mode in range(3):
        total = 0.0
        count = 0
        for i in range(n0):
            d = tab[T_PILE0 + t, i]
            if mode < 2 and _out_of_pile(tab, d):
                continue
            if mode == 0:
                if top >= 0:
                    if not same_back(tab, d, top):
                        continue
                elif tab[T_DNBACK, d] != 0:
                    continue
            sc = dish_score(tab, p, me, d, skip)
            total = sc if count == 0 else total + sc
            count += 1
        if count > 0:
            return total / count
    return 0.0


@njit(cache=True)
def best_type(tab, p, me, skip):
    """B(X) with the hand without its index ``skip``."""
    mytype = _dtype(tab, me)
    best = 0.0
    found = False
    for t in range(tab[T_G, G_NT]):
        if top_dish(tab, t) < 0 or t == mytype or _done(tab, me, t):
            continue
        sc = type_score(tab, p, me, t, skip)
        if not found or sc > best:
            best = sc
            found = True
    return best


# ------------------------------------------------------------------ steals
@njit(cache=True, inline="always")
def _fits(tab, me, v, j, k):
    if k == tab[T_G, G_WILD]:
        return not sees(tab, me, v, k, j)
    return dish_needs(tab, tab[T_S + S_DISH, v], k) and not sees(tab, me, v, k, j)


@njit(cache=True)
def give_cost(tab, p, me, v, y, extra):
    if extra == A_PASS:
        cost = kept_value(tab, p, me, y)
    else:
        cost = value(tab, p, me, y, _index_of(tab, me, y), extra)
    if useful_to(tab, me, v, y):
        cost += harm(tab, p, me, v, NEED_V)
    return cost


@njit(cache=True)
def oven_steal(tab, p, me, v, j):
    c = seen_kind(tab, me, v, j)
    if c == HIDDEN:
        return NEVER
    h = tab[T_HAND + me]
    low = 0.0
    found = False
    for i in range(tab[T_S + S_NHAND, me]):
        r = h[i]
        if i > 0 and r == h[i - 1]:
            continue
        if _fits(tab, me, v, j, r) and not completes(tab, me, v, j, r):
            kv = kept_value(tab, p, me, r)
            if not found or kv < low:
                low = kv
                found = True
    if not found:
        return NEVER
    gain = value(tab, p, me, c, int64(-1), int64(-1)) - low
    return gain - p[H_STEAL]


@njit(cache=True)
def need_share(tab, me, total):
    if total == 0:
        return 0.0
    d = _dish(tab, me)
    u = tab[T_UNSEEN]
    s = 0
    nmiss = 0
    if d >= 0:
        for i in range(tab[T_DNING, d]):
            k = tab[T_DING + i, d]
            if not sees(tab, me, me, k, int64(-1)):
                s += u[k]
                nmiss += 1
    wild = tab[T_G, G_WILD]
    if not sees(tab, me, me, wild, int64(-1)) and (d < 0 or nmiss > 0):
        s += u[wild]
    return s / total


@njit(cache=True)
def pantry_steal(tab, p, me, v, total):
    m = min(2, tab[T_S + S_NHAND, v])
    x = 1.0 - need_share(tab, me, total)
    q = 1.0 - (x * x if m == 2 else x if m == 1 else 1.0)
    g = 0.0
    n = tab[T_S + S_NHAND, me]
    if n > 0:
        extra = harm(tab, p, me, v, NEED_V)
        h = tab[T_HAND + me]
        for i in range(n):
            y = h[i]
            if i > 0 and y == h[i - 1]:
                continue
            c = kept_value(tab, p, me, y) + (extra if useful_to(tab, me, v, y) else 0.0)
            if i == 0 or c < g:
                g = c
    share = 0.0
    if total:
        u = tab[T_UNSEEN]
        s = 0
        for k in range(tab[T_G, G_NK]):
            if useful_to(tab, me, v, k):
                s += u[k]
        share = s / total
    return NEED_V * q - g + harm(tab, p, me, v, NEED_V * q * share) - p[H_STEAL]


# ------------------------------------------------------------------ placing
@njit(cache=True)
def prepare(tab, p, me, k):
    if k == A_PASS:
        return 0.0
    d = _dish(tab, me)
    wild = tab[T_G, G_WILD]
    nmiss = missing_count(tab, me, me) if d >= 0 else 0
    short = nmiss - (1 if sees(tab, me, me, wild, int64(-1)) else 0)
    if k == wild:
        if nmiss == 1:
            return 3.0
        return 0.5 if short <= p[H_WILD] else -1.0
    if tab[T_KCLS, k] == C_INGREDIENT:
        return 3.0 if short == 1 else 2.0
    return 1.0


@njit(cache=True)
def sabotage(tab, p, me, v, k):
    dtype = tab[T_DTYPE, tab[T_S + S_DISH, v]]
    own = 0.0 if mine_bad(tab, me, k) else kept_value(tab, p, me, k)
    return (1.0 + rho(tab, p, me, v)) * penalty_for(tab, k, dtype) - own - p[H_SABOTAGE]


# ------------------------------------------------------------------ choosing
@njit(cache=True, inline="always")
def _scores(tab, p, me, phase, nl, out):
    """``heuristic.scores`` into ``out[:nl]``."""
    legal = tab[T_LEGAL]
    if phase == P_DRAW:
        for i in range(nl):
            a = legal[i]
            out[i] = 0.0 if a == A_PASS else value(tab, p, me, a, int64(-1), int64(-1)) - p[H_DRAW]
    elif phase == P_DISCARD:
        for i in range(nl):
            a = legal[i]
            out[i] = 0.0 if a == A_PASS else p[H_DISCARD] - kept_value(tab, p, me, a)
    elif phase == P_PREPARE:
        for i in range(nl):
            out[i] = prepare(tab, p, me, legal[i])
    elif phase == P_ACTION:
        total = unseen(tab, me)
        for i in range(nl):
            a = legal[i]
            if a == A_PASS:
                out[i] = 0.0
            elif a >= A_CLEAN:
                hidden = seen_kind(tab, me, me, a - A_CLEAN) == HIDDEN
                out[i] = hidden_penalty(tab, me) - p[H_CLEAN] if hidden else NEVER
            elif a >= A_OVEN:
                out[i] = oven_steal(tab, p, me, (a - A_OVEN) // 10, (a - A_OVEN) % 10)
            else:
                out[i] = pantry_steal(tab, p, me, a - A_PANTRY, total)
    elif phase == P_SABOTAGE:
        for i in range(nl):
            a = legal[i]
            if a == A_PASS:
                out[i] = 0.0
            else:
                b = a - A_SABOTAGE
                out[i] = sabotage(tab, p, me, b // 100, b % 100)
    elif phase == P_DISH:
        avoid = int(p[H_AVOID])
        has = False
        for i in range(nl):
            if legal[i] == avoid:
                has = True
        for i in range(nl):
            t = legal[i]
            if has and nl > 1 and t == avoid:
                out[i] = NEVER
            else:
                out[i] = type_score(tab, p, me, t, int64(-1))
    elif phase == P_REDRAW:
        for i in range(nl):
            a = legal[i]
            if a == A_PASS:
                out[i] = 0.0
            else:
                kv = kept_value(tab, p, me, a)
                rest = _index_of(tab, me, a)
                diff = best_type(tab, p, me, int64(-1)) - best_type(tab, p, me, rest)
                out[i] = p[H_DISCARD] - (diff if diff > kv else kv)
    elif phase == P_KEEP:
        v = tab[T_G, G_VICTIM]
        h = tab[T_HAND + me]
        n = tab[T_S + S_NHAND, me]
        for i in range(nl):
            a = legal[i]
            if a == A_PASS:
                out[i] = 0.0
                continue
            g = 0.0
            for q in range(n):
                y = h[q]
                if q > 0 and y == h[q - 1]:
                    continue
                c = give_cost(tab, p, me, v, y, a)
                if q == 0 or c < g:
                    g = c
            gain = value(tab, p, me, a, int64(-1), int64(-1)) - g
            if useful_to(tab, me, v, a):
                gain += harm(tab, p, me, v, NEED_V)
            out[i] = gain
    elif phase == P_GIVE:
        v = tab[T_G, G_VICTIM]
        kept = tab[T_G, G_KEPT]
        for i in range(nl):
            out[i] = -give_cost(tab, p, me, v, legal[i], kept)
    elif phase == P_REPLACE:
        v, j = tab[T_G, G_VICTIM], tab[T_G, G_SLOT]
        for i in range(nl):
            r = legal[i]
            out[i] = -kept_value(tab, p, me, r) - (1000.0 if completes(tab, me, v, j, r) else 0.0)
    else:  # CLEAN_MORE
        unseen(tab, me)
        e = hidden_penalty(tab, me) - p[H_CLEAN]
        for i in range(nl):
            a = legal[i]
            if a == A_PASS:
                out[i] = 0.0
            else:
                out[i] = e if seen_kind(tab, me, me, a - A_CLEAN) == HIDDEN else NEVER


@njit(cache=True, inline="always")
def _named_seat(a):
    """The seat an ACTION or SABOTAGE action names (-1: PASS or a clean)."""
    if a >= A_SABOTAGE:
        return (a - A_SABOTAGE) // 100
    if a >= A_CLEAN or a == A_PASS:
        return -1
    if a >= A_OVEN:
        return (a - A_OVEN) // 10
    return a - A_PANTRY


@njit(cache=True)
def heuristic_choose(tab, ftab, me, phase, nl):
    """``HeuristicStrategy.choose``: the first highest score (``heuristic.best``)."""
    legal = tab[T_LEGAL]
    p = ftab[me]
    # the decisions its light() answers from the hand size alone
    if phase == P_DRAW and p[H_DRAW] < 0:
        return legal[1]
    if phase == P_DISCARD and tab[T_S + S_NHAND, me] <= p[H_ROOM]:
        return A_PASS
    out = np.empty(nl, dtype=np.float64)
    _scores(tab, p, me, phase, nl, out)
    top = out[0]
    first = 0
    ties = 1
    for i in range(1, nl):
        if out[i] > top:
            top, first, ties = out[i], i, 1
        elif out[i] == top:
            ties += 1
    if ties > 1 and (phase == P_ACTION or phase == P_SABOTAGE):
        # preference: PASS, then the actions naming another seat by its turn after the
        # deciding seat's and then in legal order, then the cleans
        bk0 = 3
        bk1 = 0
        for i in range(nl):
            if out[i] != top:
                continue
            a = legal[i]
            v = _named_seat(a)
            k0 = 0 if a == A_PASS else (1 if v >= 0 else 2)
            k1 = _after(tab, me, v) if v >= 0 else 0
            if k0 < bk0 or (k0 == bk0 and k1 < bk1):
                bk0, bk1, first = k0, k1, i
    return legal[first]
