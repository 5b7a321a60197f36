"""``engine.py``'s flow on the kernel's table: the deal, setup (deal, redraw, first dishes),
the turns' four steps and the end, and ``_decide`` (a forced move is applied without
asking; a real decision goes to the seat's strategy and is recorded)."""

from __future__ import annotations

from numba import int64, njit

from sims.core.fastrng import integers, shuffle
from sims.games.horno.kernel.greedy import greedy_choose
from sims.games.horno.kernel.heuristic import heuristic_choose
from sims.games.horno.kernel.layout import (
    A_CLEAN,
    A_PANTRY,
    A_PASS,
    A_SABOTAGE,
    C_GARBAGE,
    C_RADIOACTIVE,
    DEAL_N,
    DRAW_MAX,
    G_DEND,
    G_DHEAD,
    G_FACEUP,
    G_GAME,
    G_KEPT,
    G_N,
    G_NDECK0,
    G_NDISC,
    G_NREC,
    G_NT,
    G_NTAKEN,
    G_NTRACE,
    G_REC,
    G_RECCAP,
    G_RESHUF,
    G_ROUND,
    G_SLOT,
    G_TAKEN0,
    G_TAKEN1,
    G_TURN,
    G_VICTIM,
    K_GREEDY,
    K_RANDOM,
    N_S,
    N_TYPES_MAX,
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
    PREPARE_MAX,
    R_EMPTY_RETURN_BOTH,
    R_FIRST,
    R_HAND,
    R_LIMIT_ALWAYS,
    R_OVEN,
    R_PANTRY_SINGLE_FORBIDDEN,
    R_ROUNDS,
    S_CLN,
    S_CLND,
    S_CLOSED,
    S_DISC,
    S_DISH,
    S_DRAWN,
    S_FIRST,
    S_NHAND,
    S_NOVEN,
    S_ORDER,
    S_OS,
    S_OSD,
    S_PLACED,
    S_POS,
    S_PS,
    S_PSD,
    S_PTS,
    S_REDRAWN,
    S_SAB,
    S_SABD,
    S_STRAT,
    S_UDISH,
    T_DECK,
    T_DECK0,
    T_DONET,
    T_DTYPE,
    T_G,
    T_HAND,
    T_KCLS,
    T_LEGAL,
    T_NPILE0,
    T_OBY,
    T_OK,
    T_OUP,
    T_PHEAD,
    T_PILE,
    T_PILE0,
    T_RULES,
    T_S,
    T_TMP,
)
from sims.games.horno.kernel.scoring import score_dish, unfinished
from sims.games.horno.kernel.state import (
    deck_len,
    discard,
    dish_types,
    draw,
    hand_insert,
    hand_pop,
    hand_remove,
    is_complete,
    oven_append,
    oven_pop,
    oven_targets,
    placeable,
    refill,
    replacements,
)


@njit(cache=True)
def decide(tab, ftab, rngs, drec, player, phase, nlegal):
    """``_decide``: the action for the legal list ``tab[T_LEGAL, :nlegal]``."""
    legal = tab[T_LEGAL]
    if nlegal == 1:
        return legal[0]
    code = tab[T_S + S_STRAT, player]
    if code == K_RANDOM:
        a = legal[integers(rngs[1 + player], nlegal)]
    elif code == K_GREEDY:
        a = greedy_choose(tab, player, phase, nlegal)
    else:
        a = heuristic_choose(tab, ftab, player, phase, nlegal)
    g = tab[T_G]
    if g[G_REC] == 1:  # records.decision_row, read before the action is applied
        i = g[G_NREC]
        if i < g[G_RECCAP]:
            r = drec[i]
            r[0] = g[G_GAME]
            r[1] = g[G_ROUND]
            r[2] = player
            r[3] = tab[T_S + S_POS, player]
            r[4] = phase
            r[5] = a
            r[6] = nlegal
            r[7] = tab[T_S + S_NHAND, player]
            r[8] = tab[T_S + S_NOVEN, player]
            r[9] = g[G_DEND] - g[G_DHEAD]
            r[10] = tab[T_S + S_PTS, player]
        g[G_NREC] = i + 1
    g[G_NTRACE] += 1
    return a


@njit(cache=True)
def _distinct_hand(tab, s, at):
    """``sorted(set(hands[s]))`` written to the legal list from ``at``; returns the new
    length."""
    legal = tab[T_LEGAL]
    h = tab[T_HAND + s]
    n = at
    for i in range(tab[T_S + S_NHAND, s]):
        if i == 0 or h[i] != h[i - 1]:
            legal[n] = h[i]
            n += 1
    return n


@njit(cache=True)
def start_game(tab, rngs, game_index):
    """A fresh game: ``deal`` (the deck, then each dish pile) and the empty state."""
    g = tab[T_G]
    n = g[G_N]
    chance = rngs[0]
    nd = g[G_NDECK0]
    order = tab[T_TMP + 3, :nd]
    for i in range(nd):
        order[i] = i
    shuffle(chance, order)
    for i in range(nd):
        tab[T_DECK, i] = tab[T_DECK0, order[i]]
    for t in range(g[G_NT]):
        m = tab[T_NPILE0, t]
        order = tab[T_TMP + 3, :m]
        for i in range(m):
            order[i] = i
        shuffle(chance, order)
        for i in range(m):
            tab[T_PILE + t, i] = tab[T_PILE0 + t, order[i]]
        tab[T_PHEAD, t] = 0
    g[G_DHEAD] = 0
    g[G_DEND] = nd
    g[G_NDISC] = 0
    g[G_ROUND] = 0
    g[G_TURN] = -1
    g[G_FACEUP] = 0
    g[G_RESHUF] = 0
    g[G_VICTIM] = -1
    g[G_SLOT] = -1
    g[G_NTAKEN] = 0
    g[G_KEPT] = -1
    g[G_NTRACE] = 0
    g[G_GAME] = game_index
    first = tab[T_RULES, R_FIRST]
    for s in range(n):
        for f in range(N_S):
            if f != S_STRAT:
                tab[T_S + f, s] = 0
        for t in range(N_TYPES_MAX):
            tab[T_DONET + s, t] = 0
        tab[T_S + S_DISH, s] = -1
        tab[T_S + S_FIRST, s] = -1
        tab[T_S + S_UDISH, s] = -1
    for i in range(n):
        s = (first + i) % n
        tab[T_S + S_ORDER, i] = s
        tab[T_S + S_POS, s] = i


@njit(cache=True, inline="always")
def choose_dish(tab, ftab, rngs, drec, s):
    """``_choose_dish``: a type whose pile may be taken (none: the oven stays empty)."""
    nl = dish_types(tab, s, tab[T_LEGAL])
    if nl == 0:
        tab[T_S + S_DISH, s] = -1
        return
    t = decide(tab, ftab, rngs, drec, s, int64(P_DISH), int64(nl))
    tab[T_S + S_DISH, s] = tab[T_PILE + t, tab[T_PHEAD, t]]
    tab[T_PHEAD, t] += 1


@njit(cache=True, inline="always")
def complete(tab, ftab, rngs, drec, s):
    """``_complete``: score, empty the oven, then close it (last round) or a new dish."""
    if score_dish(tab, s):
        tab[T_S + S_CLOSED, s] = 1
    else:
        choose_dish(tab, ftab, rngs, drec, s)


@njit(cache=True, inline="always")
def setup(tab, ftab, rngs, drec):
    """``_setup``: deal 3 each, the opening redraws, the first dishes; the deck turns face
    up."""
    g = tab[T_G]
    n = g[G_N]
    chance = rngs[0]
    legal = tab[T_LEGAL]
    for i in range(n):
        s = tab[T_S + S_ORDER, i]
        for _ in range(DEAL_N):
            refill(tab, chance)
            if deck_len(tab) > 0:
                draw(tab, chance, s)
    for i in range(n):
        s = tab[T_S + S_ORDER, i]
        out = 0
        while tab[T_S + S_NHAND, s] > 0:
            legal[0] = A_PASS
            nl = _distinct_hand(tab, s, int64(1))
            a = decide(tab, ftab, rngs, drec, s, int64(P_REDRAW), int64(nl))
            if a == A_PASS:
                break
            hand_remove(tab, s, a)
            discard(tab, a)
            out += 1
        for _ in range(out):
            refill(tab, chance)
            if deck_len(tab) > 0:
                draw(tab, chance, s)
        tab[T_S + S_REDRAWN, s] = out
    for i in range(n):
        s = tab[T_S + S_ORDER, i]
        choose_dish(tab, ftab, rngs, drec, s)
        d = tab[T_S + S_DISH, s]
        tab[T_S + S_FIRST, s] = tab[T_DTYPE, d] if d >= 0 else -1
    g[G_FACEUP] = 1


@njit(cache=True)
def _actions(tab, s):
    """``_actions(s)`` as the legal list; returns its length."""
    legal = tab[T_LEGAL]
    strict = tab[T_RULES, R_LIMIT_ALWAYS] == 1
    single_forbidden = tab[T_RULES, R_PANTRY_SINGLE_FORBIDDEN] == 1
    h = tab[T_S + S_NHAND, s]
    limit = tab[T_RULES, R_HAND]
    legal[0] = A_PASS
    nl = 1
    for v in range(tab[T_G, G_N]):
        if v == s:
            continue
        hv = tab[T_S + S_NHAND, v]
        if hv == 0 or (hv == 1 and single_forbidden):
            continue
        if strict and h + min(2, hv) > limit:
            continue
        legal[nl] = A_PANTRY + v
        nl += 1
    if not (strict and h + 1 > limit):
        nl += oven_targets(tab, s, legal, int64(nl))
    if h < limit:
        for j in range(tab[T_S + S_NOVEN, s]):
            legal[nl] = A_CLEAN + j
            nl += 1
    return nl


@njit(cache=True, inline="always")
def _pantry(tab, ftab, rngs, drec, s, v):
    g = tab[T_G]
    chance = rngs[0]
    m = min(2, tab[T_S + S_NHAND, v])
    g[G_TAKEN0] = hand_pop(tab, v, integers(chance, tab[T_S + S_NHAND, v]))
    if m == 2:
        g[G_TAKEN1] = hand_pop(tab, v, integers(chance, tab[T_S + S_NHAND, v]))
    g[G_NTAKEN] = m
    g[G_VICTIM] = v
    tab[T_S + S_PS, s] += 1
    tab[T_S + S_PSD, v] += 1
    t0, t1 = g[G_TAKEN0], g[G_TAKEN1]
    empty = tab[T_S + S_NHAND, s] == 0
    legal = tab[T_LEGAL]
    if empty and tab[T_RULES, R_EMPTY_RETURN_BOTH] == 1:
        keep = A_PASS
    else:
        legal[0] = A_PASS
        if m == 1 or t0 == t1:
            legal[1] = t0
            nl = 2
        else:
            legal[1] = min(t0, t1)
            legal[2] = max(t0, t1)
            nl = 3
        keep = decide(tab, ftab, rngs, drec, s, int64(P_KEEP), int64(nl))
    if keep == A_PASS:
        hand_insert(tab, v, t0)
        if m == 2:
            hand_insert(tab, v, t1)
    else:
        back = t1 if keep == t0 else t0  # the other taken card (m == 2)
        g[G_KEPT] = keep
        given = A_PASS
        if not empty:
            nl = _distinct_hand(tab, s, int64(0))
            given = decide(tab, ftab, rngs, drec, s, int64(P_GIVE), int64(nl))
            hand_remove(tab, s, given)
        g[G_KEPT] = -1
        hand_insert(tab, s, keep)
        if m == 2:
            hand_insert(tab, v, back)
        if given != A_PASS:
            hand_insert(tab, v, given)
    g[G_NTAKEN] = 0
    g[G_VICTIM] = -1


@njit(cache=True, inline="always")
def _oven_steal(tab, ftab, rngs, drec, s, v, j):
    g = tab[T_G]
    kind = tab[T_OK + v, j]
    nl = replacements(tab, s, v, j, tab[T_LEGAL], int64(0))
    g[G_TAKEN0] = kind
    g[G_NTAKEN] = 1
    g[G_VICTIM] = v
    g[G_SLOT] = j
    tab[T_S + S_OS, s] += 1
    tab[T_S + S_OSD, v] += 1
    r = A_PASS
    if nl > 0:
        r = decide(tab, ftab, rngs, drec, s, int64(P_REPLACE), int64(nl))
        hand_remove(tab, s, r)
        tab[T_OK + v, j] = r
        tab[T_OUP + v, j] = 1
        tab[T_OBY + v, j] = s
    else:  # rule steal_needs_replacement off: the space stays empty
        oven_pop(tab, v, j)
    hand_insert(tab, s, kind)
    g[G_NTAKEN] = 0
    g[G_VICTIM] = -1
    g[G_SLOT] = -1
    if r != A_PASS and is_complete(tab, v):
        complete(tab, ftab, rngs, drec, v)


@njit(cache=True, inline="always")
def _clean(tab, ftab, rngs, drec, s, j):
    full = tab[T_S + S_NOVEN, s] >= tab[T_RULES, R_OVEN]
    k0 = oven_pop(tab, s, j)
    n_taken = 1
    k1 = -1
    rest = tab[T_S + S_NOVEN, s]
    if full and rest > 0 and tab[T_S + S_NHAND, s] + 1 < tab[T_RULES, R_HAND]:
        legal = tab[T_LEGAL]
        legal[0] = A_PASS
        for i in range(rest):
            legal[1 + i] = A_CLEAN + i
        a = decide(tab, ftab, rngs, drec, s, int64(P_CLEAN_MORE), int64(rest + 1))
        if a != A_PASS:
            k1 = oven_pop(tab, s, a - A_CLEAN)
            n_taken = 2
    hand_insert(tab, s, k0)
    if n_taken == 2:
        hand_insert(tab, s, k1)
    tab[T_S + S_CLN, s] += 1
    tab[T_S + S_CLND, s] += n_taken


@njit(cache=True, inline="always")
def turn(tab, ftab, rngs, drec, s):
    """``_turn(s)``: Restock, Action, Prepare, Sabotage."""
    chance = rngs[0]
    legal = tab[T_LEGAL]
    # 1. Restock: discards, then up to 3 draws of the visible top card
    while tab[T_S + S_NHAND, s] > 0:
        legal[0] = A_PASS
        nl = _distinct_hand(tab, s, int64(1))
        a = decide(tab, ftab, rngs, drec, s, int64(P_DISCARD), int64(nl))
        if a == A_PASS:
            break
        hand_remove(tab, s, a)
        discard(tab, a)
        tab[T_S + S_DISC, s] += 1
    drawn = 0
    while drawn < DRAW_MAX and tab[T_S + S_NHAND, s] < tab[T_RULES, R_HAND]:
        refill(tab, chance)
        if deck_len(tab) == 0:
            break
        legal[0] = A_PASS
        legal[1] = tab[T_DECK, tab[T_G, G_DHEAD]]
        a = decide(tab, ftab, rngs, drec, s, int64(P_DRAW), int64(2))
        if a == A_PASS:
            break
        draw(tab, chance, s)
        drawn += 1
        tab[T_S + S_DRAWN, s] += 1
    # 2. Action
    nl = _actions(tab, s)
    a = decide(tab, ftab, rngs, drec, s, int64(P_ACTION), int64(nl))
    if a >= A_CLEAN:
        _clean(tab, ftab, rngs, drec, s, a - A_CLEAN)
    elif a >= A_PANTRY + 100:
        b = a - A_PANTRY - 100
        _oven_steal(tab, ftab, rngs, drec, s, b // 10, b % 10)
    elif a >= A_PANTRY:
        _pantry(tab, ftab, rngs, drec, s, a - A_PANTRY)
    # 3. Prepare
    placed = 0
    while placed < PREPARE_MAX:
        legal[0] = A_PASS
        m = placeable(tab, s, legal, int64(1))
        if m == 0:
            break
        k = decide(tab, ftab, rngs, drec, s, int64(P_PREPARE), int64(m + 1))
        if k == A_PASS:
            break
        hand_remove(tab, s, k)
        oven_append(tab, s, k, int64(1), s)
        placed += 1
        tab[T_S + S_PLACED, s] += 1
        if is_complete(tab, s):
            complete(tab, ftab, rngs, drec, s)
            break
    # 4. Sabotage
    legal[0] = A_PASS
    nl = 1
    bad = tab[T_TMP + 2]
    nbad = 0
    h = tab[T_HAND + s]
    for i in range(tab[T_S + S_NHAND, s]):
        k = h[i]
        cls = tab[T_KCLS, k]
        if (cls == C_GARBAGE or cls == C_RADIOACTIVE) and (nbad == 0 or bad[nbad - 1] != k):
            bad[nbad] = k
            nbad += 1
    if nbad > 0:
        for v in range(tab[T_G, G_N]):
            if v == s or tab[T_S + S_DISH, v] < 0 or tab[T_S + S_CLOSED, v] == 1 \
                    or tab[T_S + S_NOVEN, v] >= tab[T_RULES, R_OVEN]:  # fmt: skip
                continue
            for i in range(nbad):
                legal[nl] = A_SABOTAGE + 100 * v + bad[i]
                nl += 1
    a = decide(tab, ftab, rngs, drec, s, int64(P_SABOTAGE), int64(nl))
    if a != A_PASS:
        b = a - A_SABOTAGE
        v, k = b // 100, b % 100
        hand_remove(tab, s, k)
        oven_append(tab, v, k, int64(0), s)
        tab[T_S + S_SAB, s] += 1
        tab[T_S + S_SABD, v] += 1


@njit(cache=True, inline="always")
def play(tab, ftab, rngs, drec, game_index):
    """One whole game (``GameState._play``), from the streams in ``rngs``."""
    start_game(tab, rngs, game_index)
    setup(tab, ftab, rngs, drec)
    g = tab[T_G]
    n = g[G_N]
    for r in range(1, tab[T_RULES, R_ROUNDS] + 1):
        g[G_ROUND] = r
        for i in range(n):
            s = tab[T_S + S_ORDER, i]
            g[G_TURN] = s
            turn(tab, ftab, rngs, drec, s)
    g[G_TURN] = -1
    for s in range(n):
        if tab[T_S + S_DISH, s] >= 0 and tab[T_S + S_CLOSED, s] == 0:
            unfinished(tab, s)
