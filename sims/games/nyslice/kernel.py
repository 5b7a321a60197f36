"""Compiled New York Slice kernel: whole games with the built-in strategies, from arrays only.

The kernel is the fast twin of the reference engine (``engine.py``) and of the built-in
strategies (``strategies.py``): for the same deal stream, seat streams and strategies it
makes the same decisions in the same order and reaches the same scores. It takes only
arrays, scalars and ``numpy.random.Generator`` objects (numba draws the same numbers as
NumPy for ``integers``, ``random`` and ``shuffle``), so both engines consume one stream
identically. ``tests/test_nyslice_kernel.py`` checks the agreement on thousands of games.

State encoding (all int64 unless noted), bundled in the ``KState`` namedtuple:

- ``g``: scalars, indexed by the ``G_*`` constants below.
- ``kind, ta, tb, pep, anch``: the deck by slice id (``Deck.arrays``).
- ``where``: per slice: ``W_BOX`` removed at setup, ``W_HIDDEN`` in a stack or the mystery
  pool, ``W_TABLE`` in the pizza or a portion, ``W_COLL``/``W_EAT`` in a hand.
- ``hidden``: 1 for a Mystery slice eaten face down.
- ``coll[p, :ncoll[p]]``, ``eat[p, :neat[p]]``: each seat's collected and eaten slices in
  the order they arrived (the order matters: decisions iterate over it).
- ``sp_owner, sp_round, sp_used``: per special code, owner seat (-1), round acquired, used.
- ``pizza[:g[G_M]]``: the circle; ``por[i, :por_len[i]]`` the portions in circle order,
  ``por_sp[i]`` 1 if portion i holds the special, ``por_taken[i]`` its taker or -1.
- ``stacks[r]``, ``stack_sp[r]``: the deal; ``repl`` the replacement pile (head/tail in
  ``g``); ``myst`` the mystery pool (head in ``g``).
- ``rules``: the ``Rules`` options by the ``R_*`` indices; ``strat``: strategy code per seat.
- ``trace[k] = (player, phase, action)`` of every real decision.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from sims.core.fastrng import game_streams_into, integers, shuffle
from sims.games.nyslice.deck import Special
from sims.games.nyslice.engine import Phase
from sims.games.nyslice.rules import Rules
from sims.games.nyslice.strategies import SPECIAL_VALUE

# Phase codes (equal to engine.Phase).
P_DIBS, P_EAT, P_SUPREME, P_CUT, P_CIL, P_SNEAK, P_CHOOSE, P_RECV, P_SEC_TYPE, P_SEC_EAT = (
    int(p) for p in Phase
)
# Slice kinds (deck.Kind).
K_NUM, K_COMBO, K_ANCH, K_SUP = 0, 1, 2, 3
# Special codes (deck.Special).
S_CIL, S_DIBS, S_SNEAK, S_MYST, S_CRAV, S_YLV, S_SECONDS, S_SUPER, S_TIE, S_YLA = range(10)
S_BUFFET, S_DAYOLD, S_DIET, S_STUFFED = range(10, 14)
NO_SPECIAL = -1

# Strategy codes.
STRAT_RANDOM, STRAT_GREEDY = 0, 1
STRATEGY_CODES = {"random": STRAT_RANDOM, "greedy": STRAT_GREEDY}

# Scalars in g.
G_N, G_ROUNDS, G_ROUND, G_SLICER, G_SPECIAL, G_M, G_CIRC, G_NPOR = range(8)
G_SUPH, G_SUPT, G_MYH, G_RPH, G_RPT, G_NTRACE, G_GAME = range(8, 15)
G_SIZE = 15

# Rules options in `rules` (order of the Rules fields that matter here).
R_FIRST, R_BOTTOM, R_DIBS_SLICER, R_DIBS_CLOSE, R_SNEAK_SPONLY = range(5)
R_VEG_LATER, R_SUP_COMBO, R_SUP_SAME, R_SUP_LATE, R_SEC_SUP, R_SEC_ALONE = range(5, 11)

W_BOX, W_HIDDEN, W_TABLE, W_COLL, W_EAT = range(5)

# Score columns of the kernel's output; the masks have bit s set for special code s.
SCORE_COLUMNS = (
    "majorities",
    "specials",
    "diet",
    "pepperoni",
    "anchovies",
    "total",
    "eaten",
    "collected",
    "owned_mask",
    "used_mask",
)
# Columns of a decision record (the optional per-decision table); -1 where not relevant.
# own/rival counts are majority counts in halves of the slice's (first) type.
DECISION_COLUMNS = (
    "game_index",
    "round",
    "slicer",
    "seat",
    "phase",
    "action",
    "n_legal",
    "slice",
    "slice_kind",
    "type_a",
    "type_b",
    "pepperoni",
    "anchovies",
    "own_count2",
    "rival_count2",
    "unclaimed",
    "portion_special",
    "portions_left",
)
MAX_TRACE = 512
HAND = 80

KState = namedtuple(
    "KState",
    "g kind ta tb pep anch where hidden coll ncoll eat neat sp_owner sp_round sp_used "
    "pizza por por_len por_sp por_taken stacks stack_sp repl myst rules strat trace "
    "spv scratch moves drec dcount",
)

SPECIAL_VALUES = np.array([SPECIAL_VALUE[Special(i)] for i in range(14)], dtype=np.float64)


def rules_array(rules: Rules) -> np.ndarray:
    """Encode the rule options for the kernel (``R_*`` order)."""
    return np.array(
        [
            rules.first_slicer,
            rules.rejected_special == "bottom",
            rules.dibs_slicer_may_use,
            rules.dibs_closes_circle,
            rules.sneak_may_leave_special_only,
            rules.veggies_edible_later,
            rules.supreme_from_combo,
            rules.supreme_same_portion,
            rules.supreme_late_any_type,
            rules.seconds_with_supreme,
            rules.seconds_supreme_alone,
        ],
        dtype=np.int64,
    )


# ----------------------------------------------------------------------------- combinatorics
@njit(cache=True)
def _comb(n, k):
    if k < 0 or k > n:
        return 0
    if k > n - k:
        k = n - k
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True)
def _arc_count(m, k, circ):
    if k < 1 or k > m:
        return 0
    if circ:
        return 1 if k == 1 else _comb(m, k)
    return _comb(m - 1, k - 1)


@njit(cache=True)
def _unrank_comb(m, k, rank, out, off):
    """Write the rank-th lexicographic k-subset of range(m) into out[off:off+k]."""
    x = 0
    for i in range(k):
        while True:
            c = _comb(m - x - 1, k - i - 1)
            if rank < c:
                break
            rank -= c
            x += 1
        out[off + i] = x
        x += 1


@njit(cache=True)
def _arc_starts(m, k, circ, rank, starts):
    """Arc starts of the rank-th cut into k arcs (cuts.arc_bounds)."""
    if circ:
        if k == 1:
            starts[0] = 0
        else:
            _unrank_comb(m, k, rank, starts, 0)
    else:
        starts[0] = 0
        if k > 1:
            _unrank_comb(m - 1, k - 1, rank, starts, 1)
            for i in range(1, k):
                starts[i] += 1


@njit(cache=True)
def _next_comb(c, k, m):
    """Advance c[:k] to the next lexicographic k-subset of range(m); False when done."""
    i = k - 1
    while i >= 0 and c[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    c[i] += 1
    for j in range(i + 1, k):
        c[j] = c[j - 1] + 1
    return True


# ----------------------------------------------------------------------------- state helpers
@njit(cache=True, inline="always")
def _owns(st, seat, sp):
    return st.sp_owner[sp] == seat


@njit(cache=True, inline="always")
def _can_use(st, seat, sp):
    return st.sp_owner[sp] == seat and st.sp_used[sp] == 0 and st.sp_round[sp] < st.g[G_ROUND]


@njit(cache=True)
def _record(st, player, phase, action, nlegal, sid, ps):
    k = st.g[G_NTRACE]
    if k < st.trace.shape[0]:
        st.trace[k, 0] = player
        st.trace[k, 1] = phase
        st.trace[k, 2] = action
    st.g[G_NTRACE] = k + 1
    if st.drec.shape[0] > 0:
        _decision_row(st, player, phase, action, nlegal, sid, ps)


@njit(cache=True)
def _count2(st, seat, t):
    """Majority count of type t in halves (scoring.type_counts_halves for one type)."""
    per_combo = 4 if st.sp_owner[S_SUPER] == seat else 1
    c = 0
    for i in range(st.ncoll[seat]):
        sid = st.coll[seat, i]
        k = st.kind[sid]
        if k == K_NUM and st.ta[sid] == t:
            c += 2
        elif k == K_COMBO and (st.ta[sid] == t or st.tb[sid] == t):
            c += per_combo
        elif k == K_SUP and st.g[G_SUPH] == seat and st.g[G_SUPT] == t:
            c += 2
    return c


@njit(cache=True)
def _decision_row(st, player, phase, action, nlegal, sid, ps):
    """Append one row of DECISION_COLUMNS to st.drec (rows beyond its size are counted only)."""
    r = st.dcount[0]
    st.dcount[0] = r + 1
    if r >= st.drec.shape[0]:
        return
    row = st.drec[r]
    row[:] = -1
    row[0] = st.g[G_GAME]
    row[1] = st.g[G_ROUND]
    row[2] = st.g[G_SLICER]
    row[3] = player
    row[4] = phase
    row[5] = action
    row[6] = nlegal
    row[16] = ps
    left = 0
    for i in range(st.g[G_NPOR]):
        if st.por_taken[i] < 0:
            left += 1
    row[17] = left
    if sid >= 0:
        row[7] = sid
        row[8] = st.kind[sid]
        t = st.ta[sid]
        if st.kind[sid] == K_NUM or st.kind[sid] == K_COMBO:
            row[9] = t
        if st.kind[sid] == K_COMBO:
            row[10] = st.tb[sid]
        row[11] = st.pep[sid]
        row[12] = st.anch[sid]
        if row[9] > 0:
            row[13] = _count2(st, player, t)
            best = 0
            for q in range(st.g[G_N]):
                if q != player:
                    c = _count2(st, q, t)
                    if c > best:
                        best = c
            row[14] = best
            u = 0
            for x in range(st.kind.shape[0]):
                if st.kind[x] != K_NUM or st.ta[x] != t:
                    continue
                w = st.where[x]
                if w == W_BOX or w == W_COLL:
                    continue
                if w == W_EAT and not (st.hidden[x] == 1 and _eater(st, x) != player):
                    continue
                u += 1
            row[15] = u


@njit(cache=True)
def _add_coll(st, seat, sid):
    st.coll[seat, st.ncoll[seat]] = sid
    st.ncoll[seat] += 1
    st.where[sid] = W_COLL


@njit(cache=True)
def _add_eat(st, seat, sid):
    st.eat[seat, st.neat[seat]] = sid
    st.neat[seat] += 1
    st.where[sid] = W_EAT


@njit(cache=True)
def _remove_coll(st, seat, sid):
    n = st.ncoll[seat]
    j = 0
    for i in range(n):
        if st.coll[seat, i] != sid:
            st.coll[seat, j] = st.coll[seat, i]
            j += 1
    st.ncoll[seat] = j


@njit(cache=True, inline="always")
def _edible(st, seat, sid, portion_special):
    k = st.kind[sid]
    if k == K_ANCH:
        return False
    if k == K_COMBO and _owns(st, seat, S_CRAV):
        return True
    if k == K_NUM and st.ta[sid] == 3:
        if portion_special == S_YLV or (st.rules[R_VEG_LATER] == 1 and _owns(st, seat, S_YLV)):
            return True
    return st.pep[sid] >= 1


# ----------------------------------------------------------------------------- scoring
@njit(cache=True)
def _type_counts_halves(st, p, mseat, mask, counts):
    """Majority counts in halves; slices of seat mseat flagged in mask count as eaten."""
    for t in range(12):
        counts[t] = 0
    per_combo = 4 if _owns(st, p, S_SUPER) else 1
    for i in range(st.ncoll[p]):
        sid = st.coll[p, i]
        if p == mseat and mask[sid]:
            continue
        k = st.kind[sid]
        if k == K_NUM:
            counts[st.ta[sid]] += 2
        elif k == K_COMBO:
            counts[st.ta[sid]] += per_combo
            counts[st.tb[sid]] += per_combo
        elif k == K_SUP and st.g[G_SUPH] == p and st.g[G_SUPT] > 0:
            counts[st.g[G_SUPT]] += 2


@njit(cache=True)
def _score(st, mseat, mask, out):
    """Score every seat into out[p, SCORE_COLUMNS]; seat mseat's masked slices count eaten."""
    n = st.g[G_N]
    counts = np.zeros((n, 12), dtype=np.int64)
    for p in range(n):
        _type_counts_halves(st, p, mseat, mask, counts[p])
    winner = np.full(12, -1, dtype=np.int64)
    for t in range(3, 12):
        best = 0
        for p in range(n):
            if counts[p, t] > best:
                best = counts[p, t]
        if best <= 0:
            continue
        nlead = 0
        lead = -1
        for p in range(n):
            if counts[p, t] == best:
                nlead += 1
                lead = p
        if nlead == 1:
            winner[t] = lead
        else:
            for p in range(n):
                if counts[p, t] == best and _owns(st, p, S_TIE):
                    winner[t] = p
                    break
    eaten_n = np.zeros(n, dtype=np.int64)
    coll_n = np.zeros(n, dtype=np.int64)
    for p in range(n):
        moved = 0
        if p == mseat:
            for i in range(st.ncoll[p]):
                if mask[st.coll[p, i]]:
                    moved += 1
        eaten_n[p] = st.neat[p] + moved
        coll_n[p] = st.ncoll[p] - moved
    for p in range(n):
        maj = 0
        for t in range(3, 12):
            if winner[t] == p:
                maj += t
        pepper = 0
        eaten_combo = 0
        eaten_veg = 0
        anch = 0
        anch_slice = 0
        for i in range(st.neat[p]):
            sid = st.eat[p, i]
            pepper += st.pep[sid]
            if st.kind[sid] == K_COMBO:
                eaten_combo += 1
            elif st.kind[sid] == K_NUM and st.ta[sid] == 3:
                eaten_veg += 1
        for i in range(st.ncoll[p]):
            sid = st.coll[p, i]
            if p == mseat and mask[sid]:
                pepper += st.pep[sid]
                if st.kind[sid] == K_COMBO:
                    eaten_combo += 1
                elif st.kind[sid] == K_NUM and st.ta[sid] == 3:
                    eaten_veg += 1
            else:
                anch += st.anch[sid]
                if st.kind[sid] == K_ANCH:
                    anch_slice = 1
        spec = 0
        if _owns(st, p, S_BUFFET):
            held = 0
            for t in range(3, 12):
                if counts[p, t] > 0:
                    held += 1
            spec += held + anch_slice
        if _owns(st, p, S_CRAV):
            spec += 3 * eaten_combo
        if _owns(st, p, S_DAYOLD):
            spec -= 2
        if _owns(st, p, S_STUFFED):
            spec += 5
        if _owns(st, p, S_YLV):
            spec += 3 * eaten_veg
        diet = 0
        q = st.sp_owner[S_DIET]
        if q >= 0 and q != p:
            diet = -(eaten_n[p] // 2)
        anchovies = anch if _owns(st, p, S_YLA) else -anch
        out[p, 0] = maj
        out[p, 1] = spec
        out[p, 2] = diet
        out[p, 3] = pepper
        out[p, 4] = anchovies
        out[p, 5] = maj + spec + diet + pepper + anchovies
        out[p, 6] = eaten_n[p]
        out[p, 7] = coll_n[p]
        if out.shape[1] > 8:
            owned = 0
            used = 0
            for x in range(14):
                if st.sp_owner[x] == p:
                    owned |= 1 << x
                    if st.sp_used[x] == 1:
                        used |= 1 << x
            out[p, 8] = owned
            out[p, 9] = used


# ----------------------------------------------------------------------------- greedy valuer
@njit(cache=True, inline="always")
def _type_count(st, seat, t):
    per_combo = 2.0 if _owns(st, seat, S_SUPER) else 0.5
    c = 0.0
    for i in range(st.ncoll[seat]):
        sid = st.coll[seat, i]
        k = st.kind[sid]
        if k == K_NUM and st.ta[sid] == t:
            c += 1.0
        elif k == K_COMBO and (st.ta[sid] == t or st.tb[sid] == t):
            c += per_combo
    if st.g[G_SUPH] == seat and st.g[G_SUPT] == t:
        c += 1.0
    return c


@njit(cache=True)
def _valuer(st, seat, mine, rival, unclaimed):
    """Fill greedy's per-type tables; return 1 if the seat holds the Anchovy slice."""
    n = st.g[G_N]
    for t in range(3, 12):
        mine[t] = _type_count(st, seat, t)
        r = 0.0
        for q in range(n):
            if q != seat:
                c = _type_count(st, q, t)
                if c > r:
                    r = c
        rival[t] = r
        unclaimed[t] = 0
    for sid in range(st.kind.shape[0]):
        if st.kind[sid] != K_NUM:
            continue
        w = st.where[sid]
        if w == W_BOX or w == W_COLL:
            continue
        if w == W_EAT and not (st.hidden[sid] == 1 and _eater(st, sid) != seat):
            continue
        unclaimed[st.ta[sid]] += 1
    has_anch = 0
    for i in range(st.ncoll[seat]):
        if st.kind[st.coll[seat, i]] == K_ANCH:
            has_anch = 1
    return has_anch


@njit(cache=True)
def _eater(st, sid):
    for p in range(st.g[G_N]):
        for i in range(st.neat[p]):
            if st.eat[p, i] == sid:
                return p
    return -1


@njit(cache=True, inline="always")
def _type_value(st, seat, mine, rival, unclaimed, t, w, minus):
    a = mine[t] - minus
    b = rival[t]
    u = unclaimed[t]
    reach = a + w + u
    if reach < b or (reach == b and not _owns(st, seat, S_TIE)):
        return 0.0
    if a - b > u:
        return 0.0
    return t * w / (1.0 + abs(a - b))


@njit(cache=True)
def _collect_value(st, seat, mine, rival, unclaimed, has_anch, sid, already):
    a_ = float(st.anch[sid])
    anch = a_ if _owns(st, seat, S_YLA) else -a_
    buffet = _owns(st, seat, S_BUFFET)
    k = st.kind[sid]
    if k == K_NUM:
        t = st.ta[sid]
        v = _type_value(st, seat, mine, rival, unclaimed, t, 1.0, 1.0 if already else 0.0)
        if buffet and not mine[t] > 0:
            v += 1.0
        return v + anch
    if k == K_COMBO:
        w = 2.0 if _owns(st, seat, S_SUPER) else 0.5
        v = 0.0
        t = st.ta[sid]
        v += _type_value(st, seat, mine, rival, unclaimed, t, w, w if already else 0.0)
        if buffet and not mine[t] > 0:
            v += 1.0
        t = st.tb[sid]
        v += _type_value(st, seat, mine, rival, unclaimed, t, w, w if already else 0.0)
        if buffet and not mine[t] > 0:
            v += 1.0
        return v + anch
    if k == K_ANCH:
        return anch + (1.0 if buffet and has_anch == 0 else 0.0)
    best = 1.0
    for t in range(3, 12):
        if mine[t] > 0:
            v = _type_value(st, seat, mine, rival, unclaimed, t, 1.0, 0.0)
            if v > best:
                best = v
    return best + anch


@njit(cache=True, inline="always")
def _eat_value(st, seat, sid, ps):
    v = float(st.pep[sid])
    k = st.kind[sid]
    if k == K_COMBO and (_owns(st, seat, S_CRAV) or ps == S_CRAV):
        v += 3.0
    if k == K_NUM and st.ta[sid] == 3 and (_owns(st, seat, S_YLV) or ps == S_YLV):
        v += 3.0
    return v


@njit(cache=True, inline="always")
def _g_edible(st, seat, sid, ps):
    k = st.kind[sid]
    if k == K_ANCH:
        return False
    if k == K_COMBO and (_owns(st, seat, S_CRAV) or ps == S_CRAV):
        return True
    if k == K_NUM and st.ta[sid] == 3 and ps == S_YLV:
        return True
    return st.pep[sid] >= 1


@njit(cache=True)
def _slice_value(st, seat, mine, rival, unclaimed, has_anch, sid, ps):
    c = _collect_value(st, seat, mine, rival, unclaimed, has_anch, sid, False)
    if _g_edible(st, seat, sid, ps):
        e = _eat_value(st, seat, sid, ps)
        return e if e > c else c
    return c


@njit(cache=True)
def _portion_value(st, seat, mine, rival, unclaimed, has_anch, slices, length, has_sp):
    ps = st.g[G_SPECIAL] if has_sp else NO_SPECIAL
    v = 0.0
    for i in range(length):
        v += _slice_value(st, seat, mine, rival, unclaimed, has_anch, slices[i], ps)
    if has_sp:
        v += st.spv[ps] if ps >= 0 else 0.0
    return v


@njit(cache=True)
def _arc_sums(prefix, m, starts, k, circ, sums):
    total = prefix[m]
    acc = 0.0
    for i in range(k - 1):
        sums[i] = prefix[starts[i + 1]] - prefix[starts[i]]
    if circ:
        sums[k - 1] = prefix[m] - prefix[starts[k - 1]] + prefix[starts[0]]
    else:
        # sum() of the others, left to right, as strategies._arc_sums does
        for i in range(k - 1):
            acc += sums[i]
        sums[k - 1] = total - acc


@njit(cache=True)
def _best_maximin_cut(values, m, n, circ, special_value):
    prefix = np.zeros(m + 1)
    for i in range(m):
        prefix[i + 1] = prefix[i] + values[i]
    best = -np.inf
    best_rank = 0
    rank = 0
    starts = np.zeros(n, dtype=np.int64)
    sums = np.zeros(n)
    c = np.zeros(n, dtype=np.int64)
    for phase in range(2):
        k = n - 1 if phase == 0 else n
        if k < 1:
            continue
        # Enumerate combinations in lexicographic (rank) order.
        if circ and k == 1:
            kk = 0
            mm = 0
        elif circ:
            kk = k
            mm = m
        else:
            kk = k - 1
            mm = m - 1
        for i in range(kk):
            c[i] = i
        more = True
        while more:
            if circ and k == 1:
                starts[0] = 0
            elif circ:
                for i in range(k):
                    starts[i] = c[i]
            else:
                starts[0] = 0
                for i in range(k - 1):
                    starts[i + 1] = c[i] + 1
            _arc_sums(prefix, m, starts, k, circ, sums)
            if phase == 0:
                worst = sums[0]
                for i in range(1, k):
                    if sums[i] < worst:
                        worst = sums[i]
                if special_value < worst:
                    worst = special_value
                if worst > best:
                    best = worst
                    best_rank = rank
                rank += 1
            else:
                for j in range(n):
                    others = np.inf
                    for i in range(n):
                        if i != j and sums[i] < others:
                            others = sums[i]
                    mine = sums[j] + special_value
                    worst = others if others < mine else mine
                    if worst > best:
                        best = worst
                        best_rank = rank
                    rank += 1
            if kk == 0:
                more = False
            else:
                more = _next_comb(c, kk, mm)
    return best_rank


@njit(cache=True)
def _sneak_moves(st, moves):
    """Fill moves[j] = (src, dst, from_end) as engine.sneak_moves; return the count."""
    live = np.zeros(8, dtype=np.int64)
    nl = 0
    for i in range(st.g[G_NPOR]):
        if st.por_taken[i] < 0 and st.por_len[i] > 0:
            live[nl] = i
            nl += 1
    nm = 0
    npairs = 0
    if st.g[G_CIRC] == 1:
        npairs = nl if nl >= 2 else 0
    else:
        npairs = nl - 1 if nl >= 1 else 0
    for j in range(npairs):
        x = live[j]
        y = live[(j + 1) % nl]
        if _may_give(st, x):
            moves[nm, 0] = x
            moves[nm, 1] = y
            moves[nm, 2] = 1
            nm += 1
        if _may_give(st, y):
            moves[nm, 0] = y
            moves[nm, 1] = x
            moves[nm, 2] = 0
            nm += 1
    return nm


@njit(cache=True, inline="always")
def _may_give(st, idx):
    return st.por_len[idx] > 1 or (st.por_sp[idx] == 1 and st.rules[R_SNEAK_SPONLY] == 1)


@njit(cache=True)
def _seconds_candidates(st, seat, t, out):
    n = 0
    for i in range(st.ncoll[seat]):
        sid = st.coll[seat, i]
        k = st.kind[sid]
        if (k == K_NUM and st.ta[sid] == t and st.pep[sid] >= 1) or (
            k == K_SUP and st.rules[R_SEC_SUP] == 1 and st.g[G_SUPH] == seat and st.g[G_SUPT] == t
        ):
            out[n] = sid
            n += 1
    return n


@njit(cache=True)
def _own_total(st, seat, mask):
    out = np.zeros((st.g[G_N], 8), dtype=np.int64)
    _score(st, seat, mask, out)
    return out[seat, 5]


@njit(cache=True)
def _greedy(st, seat, phase, nlegal, legal, sid, ps):
    """Greedy's action (strategies.GreedyStrategy, decision for decision)."""
    mine = np.zeros(12)
    rival = np.zeros(12)
    unclaimed = np.zeros(12, dtype=np.int64)
    has_anch = _valuer(st, seat, mine, rival, unclaimed)
    n = st.g[G_N]
    if phase == P_EAT:
        e = _eat_value(st, seat, sid, ps)
        return (
            1 if e > _collect_value(st, seat, mine, rival, unclaimed, has_anch, sid, False) else 0
        )
    if phase == P_RECV:
        e = _eat_value(st, seat, sid, ps)
        return 1 if e > _collect_value(st, seat, mine, rival, unclaimed, has_anch, sid, True) else 0
    if phase == P_CHOOSE:
        best_i = legal[0]
        best_v = -np.inf
        for j in range(nlegal):
            i = legal[j]
            v = _portion_value(
                st,
                seat,
                mine,
                rival,
                unclaimed,
                has_anch,
                st.por[i],
                st.por_len[i],
                st.por_sp[i] == 1,
            )
            if v > best_v:
                best_i = i
                best_v = v
        return best_i
    if phase == P_CUT:
        m = st.g[G_M]
        values = np.zeros(m)
        sp = st.g[G_SPECIAL]
        for i in range(m):
            values[i] = _slice_value(st, seat, mine, rival, unclaimed, has_anch, st.pizza[i], sp)
        spv = st.spv[sp] if sp >= 0 else 0.0
        return _best_maximin_cut(values, m, n, st.g[G_CIRC] == 1, spv)
    if phase == P_SUPREME:
        best_t = legal[0]
        best_v = -np.inf
        for j in range(nlegal):
            t = legal[j]
            v = _type_value(st, seat, mine, rival, unclaimed, t, 1.0, 0.0)
            if v >= best_v:
                best_t = t
                best_v = v
        return best_t
    if phase == P_DIBS:
        m = st.g[G_M]
        bi = 0
        bv = -np.inf
        for i in range(m):
            v = _slice_value(st, seat, mine, rival, unclaimed, has_anch, st.pizza[i], NO_SPECIAL)
            if v > bv:
                bi = i
                bv = v
        return 1 + bi if bv > 0 else 0
    if phase == P_CIL:
        vals = np.zeros(8)
        nf = 0
        for i in range(st.g[G_NPOR]):
            if st.por_taken[i] < 0:
                vals[nf] = _portion_value(
                    st,
                    seat,
                    mine,
                    rival,
                    unclaimed,
                    has_anch,
                    st.por[i],
                    st.por_len[i],
                    st.por_sp[i] == 1,
                )
                nf += 1
        srt = np.sort(vals[:nf])[::-1]
        before = (seat - st.g[G_SLICER] - 1) % n
        j = before if before < nf - 1 else nf - 1
        return 1 if srt[0] > srt[j] else 0
    if phase == P_SNEAK:
        npor = st.g[G_NPOR]
        current = -np.inf
        for i in range(npor):
            if st.por_taken[i] < 0:
                v = _portion_value(
                    st,
                    seat,
                    mine,
                    rival,
                    unclaimed,
                    has_anch,
                    st.por[i],
                    st.por_len[i],
                    st.por_sp[i] == 1,
                )
                if v > current:
                    current = v
        best_a = 0
        best_v = current
        nm = _sneak_moves(st, st.moves)
        tmp = np.zeros((npor, 16), dtype=np.int64)
        tlen = np.zeros(npor, dtype=np.int64)
        for j in range(nm):
            for i in range(npor):
                tlen[i] = st.por_len[i]
                for q in range(st.por_len[i]):
                    tmp[i, q] = st.por[i, q]
            src = st.moves[j, 0]
            dst = st.moves[j, 1]
            if st.moves[j, 2] == 1:
                s_ = tmp[src, tlen[src] - 1]
                tlen[src] -= 1
                for q in range(tlen[dst], 0, -1):
                    tmp[dst, q] = tmp[dst, q - 1]
                tmp[dst, 0] = s_
                tlen[dst] += 1
            else:
                s_ = tmp[src, 0]
                for q in range(tlen[src] - 1):
                    tmp[src, q] = tmp[src, q + 1]
                tlen[src] -= 1
                tmp[dst, tlen[dst]] = s_
                tlen[dst] += 1
            v = -np.inf
            for i in range(npor):
                if st.por_taken[i] < 0:
                    pv = _portion_value(
                        st,
                        seat,
                        mine,
                        rival,
                        unclaimed,
                        has_anch,
                        tmp[i],
                        tlen[i],
                        st.por_sp[i] == 1,
                    )
                    if pv > v:
                        v = pv
            if v > best_v:
                best_a = 1 + j
                best_v = v
        return best_a
    if phase == P_SEC_TYPE:
        mask = st.scratch
        mask[:] = 0
        base = _own_total(st, seat, mask)
        best_t = 0
        best_gain = 0
        cand = np.zeros(HAND, dtype=np.int64)
        for j in range(nlegal):
            t = legal[j]
            if t == 0:
                continue
            mask[:] = 0
            current = base
            nc = _seconds_candidates(st, seat, t, cand)
            for i in range(nc):
                mask[cand[i]] = 1
                trial = _own_total(st, seat, mask)
                if trial > current:
                    current = trial
                else:
                    mask[cand[i]] = 0
            if current - base > best_gain:
                best_t = t
                best_gain = current - base
        mask[:] = 0
        return best_t
    if phase == P_SEC_EAT:
        mask = st.scratch
        mask[:] = 0
        base = _own_total(st, seat, mask)
        mask[sid] = 1
        trial = _own_total(st, seat, mask)
        mask[:] = 0
        return 1 if trial > base else 0
    return legal[0]


# ----------------------------------------------------------------------------- decisions
@njit(cache=True)
def _decide(st, rngs, player, phase, nlegal, legal, sid, ps):
    """A real decision; a single legal action is taken silently (engine._decide)."""
    if nlegal == 1:
        return legal[0]
    if st.strat[player] == STRAT_RANDOM:
        a = legal[integers(rngs[1 + player], nlegal)]
    else:
        a = _greedy(st, player, phase, nlegal, legal, sid, ps)
    _record(st, player, phase, a, nlegal, sid, ps)
    return a


@njit(cache=True)
def _decide_range(st, rngs, player, phase, count, sid, ps):
    """A decision whose legal actions are range(count)."""
    if count == 1:
        return 0
    if st.strat[player] == STRAT_RANDOM:
        a = integers(rngs[1 + player], count)
    else:
        a = _greedy(st, player, phase, count, st.scratch[:0], sid, ps)
    _record(st, player, phase, a, count, sid, ps)
    return a


@njit(cache=True)
def _types_of_coll(st, seat, start, flags):
    """Flag types eligible for the Supreme among seat's collected slices from index start."""
    for i in range(start, st.ncoll[seat]):
        sid = st.coll[seat, i]
        k = st.kind[sid]
        if k == K_NUM:
            flags[st.ta[sid]] = 1
        elif k == K_COMBO and st.rules[R_SUP_COMBO] == 1:
            flags[st.ta[sid]] = 1
            flags[st.tb[sid]] = 1


@njit(cache=True)
def _take_slices(st, rngs, seat, slices, nslices, ps):
    held_before = np.zeros(12, dtype=np.int64)
    _types_of_coll(st, seat, 0, held_before)
    start = st.ncoll[seat]
    sup_now = False
    two = np.arange(2)
    for j in range(nslices):
        sid = slices[j]
        eat = 0
        if _edible(st, seat, sid, ps):
            eat = _decide(st, rngs, seat, P_EAT, 2, two, sid, ps)
        if eat:
            _add_eat(st, seat, sid)
            if _in_mystery(st, sid):
                st.hidden[sid] = 1
        else:
            _add_coll(st, seat, sid)
            if st.kind[sid] == K_SUP:
                st.g[G_SUPH] = seat
                sup_now = True
    if st.g[G_SUPH] != seat or st.g[G_SUPT] != 0 or st.ncoll[seat] == start:
        return
    flags = np.zeros(12, dtype=np.int64)
    if sup_now:
        if st.rules[R_SUP_SAME] == 1:
            _types_of_coll(st, seat, 0, flags)
        else:
            flags[:] = held_before
    elif st.rules[R_SUP_LATE] == 1:
        _types_of_coll(st, seat, 0, flags)
    else:
        _types_of_coll(st, seat, start, flags)
    legal = np.zeros(9, dtype=np.int64)
    nl = 0
    for t in range(3, 12):
        if flags[t]:
            legal[nl] = t
            nl += 1
    if nl > 0:
        st.g[G_SUPT] = _decide(st, rngs, seat, P_SUPREME, nl, legal, -1, NO_SPECIAL)


@njit(cache=True)
def _in_mystery(st, sid):
    for i in range(st.myst.shape[0]):
        if st.myst[i] == sid:
            return True
    return False


@njit(cache=True)
def _invalid_special(st, sp):
    last = st.g[G_ROUND] == st.g[G_ROUNDS] - 1
    two = st.g[G_N] == 2
    return (
        (sp == S_CIL and (last or two))
        or (sp == S_SNEAK and last)
        or ((sp == S_DIBS or sp == S_YLV) and two)
    )


@njit(cache=True)
def _take_portion(st, rngs, seat, idx):
    st.por_taken[idx] = seat
    slices = np.zeros(16, dtype=np.int64)
    ns = st.por_len[idx]
    for i in range(ns):
        slices[i] = st.por[idx, i]
        st.where[slices[i]] = W_TABLE
    ps = NO_SPECIAL
    if st.por_sp[idx] == 1:
        ps = st.g[G_SPECIAL]
        st.sp_owner[ps] = seat
        st.sp_round[ps] = st.g[G_ROUND]
        if ps == S_MYST and st.g[G_MYH] < st.myst.shape[0]:
            sid = st.myst[st.g[G_MYH]]
            st.g[G_MYH] += 1
            slices[ns] = sid
            ns += 1
        if ps == S_CRAV or ps == S_YLV:
            snapshot = st.coll[seat, : st.ncoll[seat]].copy()
            two = np.arange(2)
            for i in range(snapshot.shape[0]):
                sid = snapshot[i]
                k = st.kind[sid]
                fits = k == K_COMBO if ps == S_CRAV else (k == K_NUM and st.ta[sid] == 3)
                if not fits:
                    continue
                a = _decide(st, rngs, seat, P_RECV, 2, two, sid, ps)
                if a:
                    _remove_coll(st, seat, sid)
                    _add_eat(st, seat, sid)
    _take_slices(st, rngs, seat, slices, ns, ps)


@njit(cache=True)
def _round(st, rngs):
    n = st.g[G_N]
    r = st.g[G_ROUND]
    sp = st.stack_sp[r]
    for _ in range(15):
        if not _invalid_special(st, sp):
            break
        if st.rules[R_BOTTOM] == 1:
            st.repl[st.g[G_RPT]] = sp
            st.g[G_RPT] += 1
        sp = st.repl[st.g[G_RPH]]
        st.g[G_RPH] += 1
    st.g[G_SPECIAL] = sp
    m = 11
    for i in range(m):
        st.pizza[i] = st.stacks[r, i]
        st.where[st.pizza[i]] = W_TABLE
    st.g[G_M] = m
    st.g[G_CIRC] = 1
    st.g[G_NPOR] = 0
    slicer = st.g[G_SLICER]

    dibs = st.sp_owner[S_DIBS]
    if (
        dibs >= 0
        and _can_use(st, dibs, S_DIBS)
        and (st.rules[R_DIBS_SLICER] == 1 or dibs != slicer)
    ):
        a = _decide_range(st, rngs, dibs, P_DIBS, m + 1, -1, NO_SPECIAL)
        if a:
            st.sp_used[S_DIBS] = 1
            pos = a - 1
            sid = st.pizza[pos]
            for i in range(pos, m - 1):
                st.pizza[i] = st.pizza[i + 1]
            m -= 1
            st.g[G_M] = m
            if st.rules[R_DIBS_CLOSE] == 0:
                rot = st.pizza[:m].copy()
                for i in range(m):
                    st.pizza[i] = rot[(pos + i) % m]
                st.g[G_CIRC] = 0
            one = np.zeros(1, dtype=np.int64)
            one[0] = sid
            _take_slices(st, rngs, dibs, one, 1, NO_SPECIAL)

    circ = st.g[G_CIRC] == 1
    alone = _arc_count(m, n - 1, circ)
    count = alone + _arc_count(m, n, circ) * n
    rank = _decide_range(st, rngs, slicer, P_CUT, count, -1, NO_SPECIAL)
    starts = np.zeros(n, dtype=np.int64)
    if rank < alone:
        k = n - 1
        _arc_starts(m, k, circ, rank, starts)
        attach = -1
    else:
        k = n
        rr = rank - alone
        _arc_starts(m, k, circ, rr // n, starts)
        attach = rr % n
    for i in range(k):
        s0 = starts[i]
        if i + 1 < k:
            nxt = starts[i + 1]
        else:
            nxt = starts[0] + m if circ else m
        length = nxt - s0
        for j in range(length):
            st.por[i, j] = st.pizza[(s0 + j) % m]
        st.por_len[i] = length
        st.por_sp[i] = 1 if i == attach else 0
        st.por_taken[i] = -1
    npor = k
    if attach < 0:
        st.por_len[k] = 0
        st.por_sp[k] = 1
        st.por_taken[k] = -1
        npor = k + 1
    st.g[G_NPOR] = npor

    order = np.zeros(n, dtype=np.int64)
    for i in range(n):
        order[i] = (slicer + 1 + i) % n
    cil = st.sp_owner[S_CIL]
    if cil >= 0 and cil != slicer and _can_use(st, cil, S_CIL):
        a = _decide_range(st, rngs, cil, P_CIL, 2, -1, NO_SPECIAL)
        if a:
            st.sp_used[S_CIL] = 1
            j = 0
            for i in range(n):
                if order[i] == cil:
                    j = i
            for i in range(j, 0, -1):
                order[i] = order[i - 1]
            order[0] = cil

    free = np.zeros(8, dtype=np.int64)
    for oi in range(n):
        seat = order[oi]
        if seat != slicer and st.sp_owner[S_SNEAK] == seat and _can_use(st, seat, S_SNEAK):
            nm = _sneak_moves(st, st.moves)
            if nm > 0:
                a = _decide_range(st, rngs, seat, P_SNEAK, nm + 1, -1, NO_SPECIAL)
                if a:
                    src = st.moves[a - 1, 0]
                    dst = st.moves[a - 1, 1]
                    st.sp_used[S_SNEAK] = 1
                    if st.moves[a - 1, 2] == 1:
                        sid = st.por[src, st.por_len[src] - 1]
                        st.por_len[src] -= 1
                        for q in range(st.por_len[dst], 0, -1):
                            st.por[dst, q] = st.por[dst, q - 1]
                        st.por[dst, 0] = sid
                        st.por_len[dst] += 1
                    else:
                        sid = st.por[src, 0]
                        for q in range(st.por_len[src] - 1):
                            st.por[src, q] = st.por[src, q + 1]
                        st.por_len[src] -= 1
                        st.por[dst, st.por_len[dst]] = sid
                        st.por_len[dst] += 1
        nf = 0
        for i in range(npor):
            if st.por_taken[i] < 0:
                free[nf] = i
                nf += 1
        idx = _decide(st, rngs, seat, P_CHOOSE, nf, free, -1, NO_SPECIAL)
        _take_portion(st, rngs, seat, idx)


@njit(cache=True)
def _seconds(st, rngs):
    seat = st.sp_owner[S_SECONDS]
    if seat < 0:
        return
    cand = np.zeros(HAND, dtype=np.int64)
    legal = np.zeros(10, dtype=np.int64)
    nl = 1
    for t in range(3, 12):
        nc = _seconds_candidates(st, seat, t, cand)
        ok = nc > 0 and st.rules[R_SEC_ALONE] == 1
        for i in range(nc):
            if st.kind[cand[i]] == K_NUM:
                ok = True
        if ok:
            legal[nl] = t
            nl += 1
    if nl == 1:
        return
    t = _decide(st, rngs, seat, P_SEC_TYPE, nl, legal, -1, NO_SPECIAL)
    if t == 0:
        return
    st.sp_used[S_SECONDS] = 1
    nc = _seconds_candidates(st, seat, t, cand)
    two = np.arange(2)
    for i in range(nc):
        sid = cand[i]
        a = _decide(st, rngs, seat, P_SEC_EAT, 2, two, sid, NO_SPECIAL)
        if a:
            _remove_coll(st, seat, sid)
            _add_eat(st, seat, sid)
            if st.kind[sid] == K_SUP:
                st.g[G_SUPT] = 0
                st.g[G_SUPH] = -1


@njit(cache=True)
def play_game_kernel(
    kind,
    ta,
    tb,
    pep,
    anch,
    deck_specials,
    removed,
    n,
    rounds,
    rules,
    strat,
    spv,
    rngs,
    scores,
    trace,
    drec,
    dcount,
    game_index,
):
    """Play one game; fill ``scores[p, SCORE_COLUMNS]`` and ``trace``; return the decision count.

    Parameters
    ----------
    kind, ta, tb, pep, anch : int64 arrays
        The deck (``Deck.arrays``).
    deck_specials : int64 array
        Special codes in the deck file's order (what the deal shuffles).
    removed : int64 array
        1 for slices removed at setup.
    n, rounds : int
        Players and rounds.
    rules : int64 array
        ``rules_array(Rules)``.
    strat : int64 array
        Strategy code per seat.
    spv : float64 array
        Greedy's special values.
    rngs : uint64 array (n + 1, 5)
        The game's streams (:mod:`sims.core.fastrng`): row 0 deals, row ``1 + p`` is seat p's.
    scores : int64 array (n, 8)
    trace : int64 array (k, 3)
        Receives the first k decisions (player, phase, action).
    drec : int64 array (rows, len(DECISION_COLUMNS))
        Receives decision records from row ``dcount[0]`` on (``rows`` = 0: none kept).
    dcount : int64 array (1,)
        Rows written so far (advanced even past the end of ``drec``).
    game_index : int
        Written into the decision records.
    """
    S = kind.shape[0]
    g = np.zeros(G_SIZE, dtype=np.int64)
    g[G_N] = n
    g[G_ROUNDS] = rounds
    g[G_SUPH] = -1
    g[G_GAME] = game_index
    where = np.zeros(S, dtype=np.int64)
    n_in = 0
    for i in range(S):
        if removed[i]:
            where[i] = W_BOX
        else:
            where[i] = W_HIDDEN
            n_in += 1
    in_play = np.zeros(n_in, dtype=np.int64)
    j = 0
    for i in range(S):
        if not removed[i]:
            in_play[j] = i
            j += 1
    shuffle(rngs[0], in_play)
    order_sp = np.arange(deck_specials.shape[0])
    shuffle(rngs[0], order_sp)
    stacks = np.zeros((rounds, 11), dtype=np.int64)
    for r in range(rounds):
        for i in range(11):
            stacks[r, i] = in_play[r * 11 + i]
    myst = in_play[rounds * 11 :].copy()
    stack_sp = np.zeros(rounds, dtype=np.int64)
    for r in range(rounds):
        stack_sp[r] = deck_specials[order_sp[r]]
    nsp = deck_specials.shape[0]
    repl = np.zeros(nsp * 2 + 4, dtype=np.int64)
    for i in range(rounds, nsp):
        repl[i - rounds] = deck_specials[order_sp[i]]
    g[G_RPT] = nsp - rounds
    st = KState(
        g,
        kind,
        ta,
        tb,
        pep,
        anch,
        where,
        np.zeros(S, dtype=np.int64),
        np.zeros((n, HAND), dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros((n, HAND), dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.full(14, -1, dtype=np.int64),
        np.full(14, -1, dtype=np.int64),
        np.zeros(14, dtype=np.int64),
        np.zeros(11, dtype=np.int64),
        np.zeros((7, 16), dtype=np.int64),
        np.zeros(7, dtype=np.int64),
        np.zeros(7, dtype=np.int64),
        np.full(7, -1, dtype=np.int64),
        stacks,
        stack_sp,
        repl,
        myst,
        rules,
        strat,
        trace,
        spv,
        np.zeros(S, dtype=np.int64),
        np.zeros((32, 3), dtype=np.int64),
        drec,
        dcount,
    )
    for r in range(rounds):
        g[G_ROUND] = r
        g[G_SLICER] = (rules[R_FIRST] + r) % n
        _round(st, rngs)
    _seconds(st, rngs)
    mask = np.zeros(S, dtype=np.int64)
    _score(st, -1, mask, scores)
    return g[G_NTRACE]


@njit(cache=True)
def play_games_kernel(
    kind, ta, tb, pep, anch, deck_specials, removed, n, rounds, rules, strat, spv,
    study_seed, first_index, scores, decisions, drec, dcount,
):  # fmt: skip
    """Play games ``first_index .. first_index + len(scores) - 1`` of a study in one call.

    Seeds each game exactly as ``SeedSequence([game_index, study_seed]).spawn(n + 1)``
    does, so game ``i`` is the same game whether it is played alone or in any chunk.
    Fills ``scores[g, p, SCORE_COLUMNS]``, ``decisions[g]`` (decisions taken) and, when
    ``drec`` has rows, the decision records.
    """
    rngs = np.zeros((n + 1, 5), dtype=np.uint64)
    trace = np.zeros((1, 3), dtype=np.int64)
    for g in range(scores.shape[0]):
        game_streams_into(study_seed, first_index + g, n + 1, rngs)
        decisions[g] = play_game_kernel(
            kind, ta, tb, pep, anch, deck_specials, removed, n, rounds, rules, strat, spv,
            rngs, scores[g], trace, drec, dcount, first_index + g,
        )  # fmt: skip


# ----------------------------------------------------------------------------- Python side
class KernelRunner:
    """Plays games in the compiled kernel for one deck and rule set.

    Parameters
    ----------
    deck : Deck
    rules : Rules
    """

    def __init__(self, deck, rules: Rules) -> None:
        from sims.games.nyslice.engine import removed_slices

        a = deck.arrays()
        specials = np.array([int(s) for s in deck.specials], dtype=np.int64)
        self._deck = (a["kind"], a["type_a"], a["type_b"], a["pepperoni"], a["anchovies"], specials)
        self._rules = rules_array(rules)
        self._removed = {}
        for n in range(2, 7):
            mask = np.zeros(len(deck.slices), dtype=np.int64)
            mask[removed_slices(deck, n)] = 1
            self._removed[n] = mask

    def _setup(self, n: int, codes: np.ndarray) -> tuple:
        from sims.games.nyslice.rules import rounds_for

        codes = np.asarray(codes, dtype=np.int64)
        args = (self._removed[n], n, rounds_for(n), self._rules, codes, SPECIAL_VALUES)
        return *self._deck, *args

    def play(
        self, n: int, codes: np.ndarray, study_seed: int, game_index: int, records: bool = False
    ):
        """Play one game.

        Returns
        -------
        scores : int64 array (n, len(SCORE_COLUMNS))
        trace : int64 array (decisions, 3)
            (player, phase, action) of each decision.
        records : int64 array (decisions, len(DECISION_COLUMNS))
            Only when ``records`` is true.
        """
        rngs = np.zeros((n + 1, 5), dtype=np.uint64)
        game_streams_into(study_seed, game_index, n + 1, rngs)
        scores = np.zeros((n, len(SCORE_COLUMNS)), dtype=np.int64)
        trace = np.zeros((MAX_TRACE, 3), dtype=np.int64)
        drec = np.zeros((MAX_TRACE if records else 0, len(DECISION_COLUMNS)), dtype=np.int64)
        dcount = np.zeros(1, dtype=np.int64)
        k = play_game_kernel(*self._setup(n, codes), rngs, scores, trace, drec, dcount, game_index)
        if k > MAX_TRACE:
            raise RuntimeError("decision trace overflow")
        if records:
            return scores, trace[:k], drec[:k]
        return scores, trace[:k]

    def play_many(
        self, n: int, codes: np.ndarray, study_seed: int, first_index: int, count: int,
        records: bool = False,
    ):  # fmt: skip
        """Play ``count`` consecutive games in one kernel call.

        Returns
        -------
        scores : int64 array (count, n, len(SCORE_COLUMNS))
        decisions : int64 array (count,)
            Decisions taken per game.
        records : int64 array (sum(decisions), len(DECISION_COLUMNS))
            Only when ``records`` is true: every decision's record, in game order.
        """
        scores = np.zeros((count, n, len(SCORE_COLUMNS)), dtype=np.int64)
        decisions = np.zeros(count, dtype=np.int64)
        rows = count * 128 if records else 0
        args = self._setup(n, codes)
        while True:
            drec = np.zeros((rows, len(DECISION_COLUMNS)), dtype=np.int64)
            dcount = np.zeros(1, dtype=np.int64)
            play_games_kernel(*args, study_seed, first_index, scores, decisions, drec, dcount)
            if dcount[0] <= rows or not records:
                break
            rows = int(dcount[0])  # rare: more decisions than guessed; play the chunk again
        if records:
            return scores, decisions, drec[: dcount[0]]
        return scores, decisions


def strategy_codes(specs) -> np.ndarray:
    """Kernel codes of built-in strategies; raises KeyError for one the kernel lacks."""
    return np.array([STRATEGY_CODES[str(s)] for s in specs], dtype=np.int64)
