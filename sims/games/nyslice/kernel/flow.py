"""The game's flow, compiled: the twin of ``engine.py``.

The deal (``engine.deal``, or an explicit ``engine.Deal``), the rounds (``_round``:
rejected specials, Dibs!, the cut, Cut in Line, Sneak-a-Slice, choosing), taking a portion
with its special (``_take_portion``, ``_take_slices``, the Supreme's type), Seconds
(``_seconds``) and the final scoring (``GameState._play``), with restricted play (a seat
avoiding a special: its choices and its forfeit on receipt). Every real decision goes
through ``_decide`` (``engine._decide``, with ``game.play_game``'s loop: the prefix, the
seat's random stream or its strategy, the trace and the records). A round is one compiled
function with its small helpers inlined.
"""

from __future__ import annotations

from numba import int64, njit

from sims.core.fastrng import integers, shuffle
from sims.games.nyslice.kernel.candidates import _search_pause
from sims.games.nyslice.kernel.choose import _greedy, _heuristic
from sims.games.nyslice.kernel.cuts import _arc_count, _arc_starts
from sims.games.nyslice.kernel.layout import (
    D_HEAD,
    D_NMYST,
    D_NREMOVED,
    D_NREPL,
    D_ROUNDS,
    D_SLICES,
    G_CIRC,
    G_GAME,
    G_M,
    G_MYH,
    G_N,
    G_NMYST,
    G_NPOR,
    G_NTRACE,
    G_PAUSE,
    G_ROUND,
    G_ROUNDS,
    G_RPH,
    G_RPT,
    G_SEC_NEAT,
    G_SEC_SUPH,
    G_SEC_SUPT,
    G_SIZE,
    G_SLICER,
    G_SPECIAL,
    G_SUPH,
    G_SUPT,
    K_COMBO,
    K_NUM,
    K_SUP,
    N_SPECIALS,
    N_TILE_CODES,
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
    R_DIBS_CLOSE,
    R_DIBS_SLICER,
    R_FIRST,
    R_REJECTED,
    R_SEC_ALONE,
    R_SUP_COMBO,
    R_SUP_LATE,
    R_SUP_SAME,
    REJECTED_BOTTOM,
    S_BLANK,
    S_CIL,
    S_CRAV,
    S_DIBS,
    S_MYST,
    S_SECONDS,
    S_SNEAK,
    S_YLV,
    SPECIAL_INVALID,
    STRAT_GREEDY,
    STRAT_RANDOM,
    STRAT_SEARCH,
    T_CAND,
    T_CMB,
    T_COLL,
    T_DEAL,
    T_FLAGS,
    T_FREE,
    T_G,
    T_HID,
    T_INMYST,
    T_KIND,
    T_LEGAL,
    T_MV_DST,
    T_MV_END,
    T_MV_SRC,
    T_MYST,
    T_NANCH,
    T_NBLANK,
    T_NCOLL,
    T_NEAT,
    T_NUM,
    T_ORDER,
    T_PIZZA,
    T_POR,
    T_POR_LEN,
    T_POR_SP,
    T_POR_TAKEN,
    T_REPL,
    T_ROT,
    T_RULES,
    T_SNAP,
    T_SP_OWNER,
    T_SP_ROUND,
    T_SP_USED,
    T_SPORD,
    T_STACK_SP,
    T_STACKS,
    T_STARTS,
    T_STRAT,
    T_TA,
    T_TAKE,
    T_TB,
    T_UNC,
    TYPE_END,
    TYPE_LO,
    VEG,
    _borrow,
)
from sims.games.nyslice.kernel.records import _decision_row
from sims.games.nyslice.kernel.scoring import _score
from sims.games.nyslice.kernel.state import (
    _avoids,
    _can_use,
    _collect,
    _eat,
    _edible,
    _move_to_eaten,
    _seconds_candidates,
    _shuns,
    _sneak_moves,
)
from sims.games.nyslice.rules import SLICES_PER_STACK


@njit(cache=True)
def _prefix_action(tab, prefix, k, nlegal, lrow):
    """Action k of a replayed prefix, checked against the legal actions."""
    a = prefix[k]
    if lrow >= 0:
        for j in range(nlegal):
            if tab[lrow, j] == a:
                return a
    elif 0 <= a < nlegal:
        return a
    raise ValueError("a prefix action is not legal in the replayed game")


@njit(cache=True, inline="always")
def _decide(tab, ftab, io, player, phase, nlegal, lrow, sid, ps):
    """A decision among tab[lrow, :nlegal] (range(nlegal) when lrow < 0); a single legal
    action is taken silently (engine._decide). io = (rngs, trace, drec, dcount, prefix,
    cand): the first len(prefix) real decisions take the prefix's actions; a search seat's
    next decision writes its candidates to cand and pauses the replay (search.py)."""
    if nlegal == 1 or tab[T_G, G_PAUSE] == 1:
        # (A paused replay only runs out to the end: search.py reads the pause, not it.)
        return tab[lrow, 0] if lrow >= 0 else 0
    k = tab[T_G, G_NTRACE]
    strat = tab[T_STRAT, player]
    if k < io[4].shape[0]:
        a = _prefix_action(tab, io[4], k, int64(nlegal), int64(lrow))
    elif strat == STRAT_SEARCH:
        _search_pause(tab, ftab, io[5], player, int64(phase), int64(nlegal), int64(lrow))
        return tab[lrow, 0] if lrow >= 0 else 0
    elif strat == STRAT_RANDOM:
        i = integers(io[0][1 + player], nlegal)
        a = tab[lrow, i] if lrow >= 0 else i
    elif strat == STRAT_GREEDY:
        # int64(): one compiled _greedy for all call sites, not one per literal argument.
        a = _greedy(
            tab, ftab, player, int64(phase), int64(nlegal), int64(lrow), int64(sid), int64(ps)
        )
    else:
        a = _heuristic(
            tab, ftab, player, int64(phase), int64(nlegal), int64(lrow), int64(sid), int64(ps)
        )
    trace = io[1]
    if k < trace.shape[0]:
        trace[k, 0] = player
        trace[k, 1] = phase
        trace[k, 2] = a
    tab[T_G, G_NTRACE] = k + 1
    if io[2].shape[0] > 0:
        _decision_row(
            tab, io[2], io[3], player, int64(phase), a, int64(nlegal), int64(sid), int64(ps)
        )
    return a


@njit(cache=True, inline="always")
def _types_of_coll(tab, seat, lo, hi):
    """Flag in T_FLAGS the types eligible for the Supreme among seat's collected slices
    lo..hi-1 (engine._types_of)."""
    for i in range(lo, hi):
        sid = tab[T_COLL + seat, i]
        k = tab[T_KIND, sid]
        if k == K_NUM:
            tab[T_FLAGS, tab[T_TA, sid]] = 1
        elif k == K_COMBO and tab[T_RULES, R_SUP_COMBO] == 1:
            tab[T_FLAGS, tab[T_TA, sid]] = 1
            tab[T_FLAGS, tab[T_TB, sid]] = 1


@njit(cache=True, inline="always")
def _take_slices(tab, ftab, io, seat, nslices, ps):
    """Seat takes the slices tab[T_TAKE, :nslices] (engine._take_slices)."""
    start = tab[T_NCOLL, seat]
    sup_now = False
    for j in range(nslices):
        sid = tab[T_TAKE, j]
        eat = 0
        if _edible(tab, seat, sid, ps):
            eat = _decide(tab, ftab, io, seat, P_EAT, 2, -1, sid, ps)
        if eat:
            _eat(tab, seat, sid)
        else:
            _collect(tab, seat, sid)
            if tab[T_KIND, sid] == K_SUP:
                tab[T_G, G_SUPH] = seat
                sup_now = True
    end = tab[T_NCOLL, seat]
    if tab[T_G, G_SUPH] == seat and tab[T_G, G_SUPT] == 0 and end > start:
        for t in range(TYPE_END):
            tab[T_FLAGS, t] = 0
        # Collection only grew here, so its first `start` slices are what was held before.
        if sup_now:
            _types_of_coll(tab, seat, 0, end if tab[T_RULES, R_SUP_SAME] == 1 else start)
        elif tab[T_RULES, R_SUP_LATE] == 1:
            _types_of_coll(tab, seat, 0, end)
        else:
            _types_of_coll(tab, seat, start, end)
        nl = 0
        for t in range(TYPE_LO, TYPE_END):
            if tab[T_FLAGS, t]:
                tab[T_LEGAL, nl] = t
                nl += 1
        if nl > 0:
            tab[T_G, G_SUPT] = _decide(tab, ftab, io, seat, P_SUPREME, nl, T_LEGAL, -1, NO_SPECIAL)


@njit(cache=True, inline="always")
def _take_portion(tab, ftab, io, seat, idx):
    """Seat takes portion idx with its special, if any (engine._take_portion)."""
    tab[T_POR_TAKEN, idx] = seat
    ns = tab[T_POR_LEN, idx]
    for i in range(ns):
        tab[T_TAKE, i] = tab[T_POR + idx, i]
    ps = NO_SPECIAL
    if tab[T_POR_SP, idx] == 1 and not _avoids(ftab, seat, tab[T_G, G_SPECIAL]):
        # (A seat avoiding or forfeiting the special forfeits it: it leaves the game
        # unowned and the slices come as if without it; engine._take_portion.)
        ps = tab[T_G, G_SPECIAL]
        tab[T_SP_OWNER, ps] = seat
        tab[T_SP_ROUND, ps] = tab[T_G, G_ROUND]
        if ps == S_BLANK:
            tab[T_NBLANK, seat] = 1
        if ps == S_MYST and tab[T_G, G_MYH] < tab[T_G, G_NMYST]:
            tab[T_TAKE, ns] = tab[T_MYST, tab[T_G, G_MYH]]
            tab[T_G, G_MYH] += 1
            ns += 1
        if ps == S_CRAV or ps == S_YLV:
            nsnap = tab[T_NCOLL, seat]
            for i in range(nsnap):
                tab[T_SNAP, i] = tab[T_COLL + seat, i]
            for i in range(nsnap):
                sid = tab[T_SNAP, i]
                k = tab[T_KIND, sid]
                fits = k == K_COMBO if ps == S_CRAV else (k == K_NUM and tab[T_TA, sid] == VEG)
                if not fits:
                    continue
                if _decide(tab, ftab, io, seat, P_RECV, 2, -1, sid, ps):
                    _move_to_eaten(tab, seat, sid)
    _take_slices(tab, ftab, io, seat, ns, ps)


@njit(cache=True, inline="always")
def _invalid_special(tab, sp):
    """Whether special sp may not appear this round (engine._invalid_special)."""
    last = 1 if tab[T_G, G_ROUND] == tab[T_G, G_ROUNDS] - 1 else 0
    return SPECIAL_INVALID[last, tab[T_G, G_N], sp] == 1


@njit(cache=True)
def _round(tab, ftab, io):
    """Play round tab[T_G, G_ROUND] (engine._round)."""
    n = tab[T_G, G_N]
    r = tab[T_G, G_ROUND]
    sp = tab[T_STACK_SP, r]
    for _ in range(N_SPECIALS + 1):  # a deck's tiles, and one more (engine._round)
        if not _invalid_special(tab, sp):
            break
        if tab[T_RULES, R_REJECTED] == REJECTED_BOTTOM:
            tab[T_REPL, tab[T_G, G_RPT]] = sp
            tab[T_G, G_RPT] += 1
        sp = tab[T_REPL, tab[T_G, G_RPH]]
        tab[T_G, G_RPH] += 1
    tab[T_G, G_SPECIAL] = sp
    m = SLICES_PER_STACK
    for i in range(m):
        tab[T_PIZZA, i] = tab[T_STACKS + r, i]
    tab[T_G, G_M] = m
    tab[T_G, G_CIRC] = 1
    tab[T_G, G_NPOR] = 0
    slicer = tab[T_G, G_SLICER]

    dibs = tab[T_SP_OWNER, S_DIBS]
    if (
        dibs >= 0
        and _can_use(tab, dibs, S_DIBS)
        and (tab[T_RULES, R_DIBS_SLICER] == 1 or dibs != slicer)
    ):
        a = _decide(tab, ftab, io, dibs, P_DIBS, m + 1, -1, -1, NO_SPECIAL)
        if a:
            tab[T_SP_USED, S_DIBS] = 1
            pos = a - 1
            sid = tab[T_PIZZA, pos]
            for i in range(pos, m - 1):
                tab[T_PIZZA, i] = tab[T_PIZZA, i + 1]
            m -= 1
            tab[T_G, G_M] = m
            if tab[T_RULES, R_DIBS_CLOSE] == 0:  # the gap opens the circle into a line
                for i in range(m):
                    tab[T_ROT, i] = tab[T_PIZZA, i]
                for i in range(m):
                    tab[T_PIZZA, i] = tab[T_ROT, (pos + i) % m]
                tab[T_G, G_CIRC] = 0
            tab[T_TAKE, 0] = sid
            _take_slices(tab, ftab, io, dibs, 1, NO_SPECIAL)

    circ = tab[T_G, G_CIRC] == 1
    alone = _arc_count(m, n - 1, circ)
    count = alone + _arc_count(m, n, circ) * n
    rank = _decide(tab, ftab, io, slicer, P_CUT, count, -1, -1, NO_SPECIAL)
    if rank < alone:
        k = n - 1
        _arc_starts(m, k, circ, rank, tab[T_STARTS])
        attach = -1
    else:
        k = n
        rr = rank - alone
        _arc_starts(m, k, circ, rr // n, tab[T_STARTS])
        attach = rr % n
    for i in range(k):
        s0 = tab[T_STARTS, i]
        if i + 1 < k:
            nxt = tab[T_STARTS, i + 1]
        else:
            nxt = tab[T_STARTS, 0] + m if circ else m
        length = nxt - s0
        for j in range(length):
            tab[T_POR + i, j] = tab[T_PIZZA, (s0 + j) % m]
        tab[T_POR_LEN, i] = length
        tab[T_POR_SP, i] = 1 if i == attach else 0
        tab[T_POR_TAKEN, i] = -1
    npor = k
    if attach < 0:
        tab[T_POR_LEN, k] = 0
        tab[T_POR_SP, k] = 1
        tab[T_POR_TAKEN, k] = -1
        npor = k + 1
    tab[T_G, G_NPOR] = npor

    for i in range(n):
        tab[T_ORDER, i] = (slicer + 1 + i) % n
    cil = tab[T_SP_OWNER, S_CIL]
    if cil >= 0 and cil != slicer and _can_use(tab, cil, S_CIL):
        if _decide(tab, ftab, io, cil, P_CIL, 2, -1, -1, NO_SPECIAL):
            tab[T_SP_USED, S_CIL] = 1
            j = 0
            for i in range(n):
                if tab[T_ORDER, i] == cil:
                    j = i
            for i in range(j, 0, -1):
                tab[T_ORDER, i] = tab[T_ORDER, i - 1]
            tab[T_ORDER, 0] = cil

    for oi in range(n):
        seat = tab[T_ORDER, oi]
        if seat != slicer and tab[T_SP_OWNER, S_SNEAK] == seat and _can_use(tab, seat, S_SNEAK):
            nm = _sneak_moves(tab)
            if nm > 0:
                a = _decide(tab, ftab, io, seat, P_SNEAK, nm + 1, -1, -1, NO_SPECIAL)
                if a:
                    src = tab[T_MV_SRC, a - 1]
                    dst = tab[T_MV_DST, a - 1]
                    tab[T_SP_USED, S_SNEAK] = 1
                    if tab[T_MV_END, a - 1] == 1:
                        sid = tab[T_POR + src, tab[T_POR_LEN, src] - 1]
                        tab[T_POR_LEN, src] -= 1
                        for q in range(tab[T_POR_LEN, dst], 0, -1):
                            tab[T_POR + dst, q] = tab[T_POR + dst, q - 1]
                        tab[T_POR + dst, 0] = sid
                        tab[T_POR_LEN, dst] += 1
                    else:
                        sid = tab[T_POR + src, 0]
                        for q in range(tab[T_POR_LEN, src] - 1):
                            tab[T_POR + src, q] = tab[T_POR + src, q + 1]
                        tab[T_POR_LEN, src] -= 1
                        tab[T_POR + dst, tab[T_POR_LEN, dst]] = sid
                        tab[T_POR_LEN, dst] += 1
        nf = 0
        for i in range(npor):
            if tab[T_POR_TAKEN, i] < 0:
                tab[T_FREE, nf] = i
                nf += 1
        if nf > 1 and _shuns(ftab, seat, tab[T_G, G_SPECIAL]):
            # Restricted play (avoid): not the special's portion while another one is free.
            j = 0
            for i in range(nf):
                x = tab[T_FREE, i]
                if tab[T_POR_SP, x] == 0:
                    tab[T_FREE, j] = x
                    j += 1
            nf = j
        idx = _decide(tab, ftab, io, seat, P_CHOOSE, nf, T_FREE, -1, NO_SPECIAL)
        _take_portion(tab, ftab, io, seat, idx)


@njit(cache=True)
def _seconds(tab, ftab, io):
    """The Seconds special at the end of the game (engine._seconds)."""
    seat = tab[T_SP_OWNER, S_SECONDS]
    if seat < 0:
        return
    tab[T_LEGAL, 0] = 0
    nl = 1
    for t in range(TYPE_LO, TYPE_END):
        nc = _seconds_candidates(tab, seat, t, T_CAND)
        ok = nc > 0 and tab[T_RULES, R_SEC_ALONE] == 1
        for i in range(nc):
            if tab[T_KIND, tab[T_CAND, i]] == K_NUM:
                ok = True
        if ok:
            tab[T_LEGAL, nl] = t
            nl += 1
    if nl == 1:
        return
    t = _decide(tab, ftab, io, seat, P_SEC_TYPE, nl, T_LEGAL, -1, NO_SPECIAL)
    if t == 0:
        return
    tab[T_SP_USED, S_SECONDS] = 1
    nc = _seconds_candidates(tab, seat, t, T_CAND)
    for i in range(nc):
        sid = tab[T_CAND, i]
        if _decide(tab, ftab, io, seat, P_SEC_EAT, 2, -1, sid, NO_SPECIAL):
            _move_to_eaten(tab, seat, sid)
            if tab[T_KIND, sid] == K_SUP:
                tab[T_G, G_SUPT] = 0
                tab[T_G, G_SUPH] = -1


@njit(cache=True)
def _reset(tab, n, rounds, game_index):
    """Clear the per-game rows for a game of n players and rounds rounds."""
    for j in range(G_SIZE):
        tab[T_G, j] = 0
    tab[T_G, G_N] = n
    tab[T_G, G_ROUNDS] = rounds
    tab[T_G, G_SUPH] = -1
    tab[T_G, G_GAME] = game_index
    for x in range(N_TILE_CODES):
        tab[T_SP_OWNER, x] = -1
        tab[T_SP_ROUND, x] = -1
        tab[T_SP_USED, x] = 0
    for p in range(n):
        tab[T_NCOLL, p] = 0
        tab[T_NEAT, p] = 0
        tab[T_NANCH, p] = 0
        tab[T_NBLANK, p] = 0
        for t in range(TYPE_END):
            tab[T_NUM + p, t] = 0
            tab[T_CMB + p, t] = 0
            tab[T_HID + p, t] = 0
    for t in range(TYPE_END):
        tab[T_UNC, t] = 0


@njit(cache=True)
def _run(tab, ftab, io):
    """Play the dealt game's rounds and Seconds, score it; return the decision count."""
    for r in range(tab[T_G, G_ROUNDS]):
        tab[T_G, G_ROUND] = r
        tab[T_G, G_SLICER] = (tab[T_RULES, R_FIRST] + r) % tab[T_G, G_N]
        _round(tab, ftab, io)
    # What Seconds may change, as it stood before (ownpoints.py re-scores without it).
    sec = tab[T_SP_OWNER, S_SECONDS]
    tab[T_G, G_SEC_NEAT] = tab[T_NEAT, sec] if sec >= 0 else 0
    tab[T_G, G_SEC_SUPH] = tab[T_G, G_SUPH]
    tab[T_G, G_SEC_SUPT] = tab[T_G, G_SUPT]
    _seconds(tab, ftab, io)
    _score(tab, -1, -1)
    return tab[T_G, G_NTRACE]


@njit(cache=True)
def _deal_into(tab, deck_specials, removed, n, rounds, rng, deal):
    """engine.deal: shuffle the slices in play, then the specials, from the deal stream
    ``rng``; write the deal to ``deal`` (runner.deal_array's encoding) and return it.

    The rest of the slices after the stacks is the mystery pool (rules.MYSTERY_POOL
    slices: runner.KernelRunner checks).
    """
    S = removed.shape[0]
    nsp = deck_specials.shape[0]
    n_in = 0
    nremoved = 0
    for i in range(S):
        if not removed[i]:
            tab[T_DEAL, n_in] = i
            n_in += 1
        else:
            nremoved += 1
    shuffle(rng, tab[T_DEAL, :n_in])
    for i in range(nsp):
        tab[T_SPORD, i] = i
    shuffle(rng, tab[T_SPORD, :nsp])
    nstack = rounds * SLICES_PER_STACK
    nmyst = n_in - nstack
    nrepl = nsp - rounds
    deal[D_ROUNDS] = rounds
    deal[D_NREPL] = nrepl
    deal[D_NMYST] = nmyst
    deal[D_NREMOVED] = nremoved
    deal[D_SLICES] = S
    off = D_HEAD
    for i in range(nstack):
        deal[off + i] = tab[T_DEAL, i]
    off += nstack
    for r in range(rounds):
        deal[off + r] = deck_specials[tab[T_SPORD, r]]
    off += rounds
    for i in range(nrepl):
        deal[off + i] = deck_specials[tab[T_SPORD, rounds + i]]
    off += nrepl
    for i in range(nmyst):
        deal[off + i] = tab[T_DEAL, nstack + i]
    off += nmyst
    for i in range(S):
        if removed[i]:
            deal[off] = i
            off += 1
    return deal


@njit(cache=True)
def _play(
    tab, ftab, deck_specials, removed, n, rounds, rngs, trace, drec, dcount, game_index, prefix,
    deal, cand,
):  # fmt: skip
    """Deal from rngs[0] (into the buffer ``deal``) and play one game on tables from
    _new_tables; return the decision count. The scores are left in tab[T_OUT + p]."""
    _deal_into(tab, deck_specials, removed, n, rounds, rngs[0], deal)
    return _play_deal(tab, ftab, deal, n, rngs, trace, drec, dcount, prefix, game_index, cand)


@njit(cache=True)
def _play_deal(tab, ftab, deal, n, rngs, trace, drec, dcount, prefix, game_index, cand):
    """Play the game of an explicit deal (runner.deal_array's encoding) on tables from
    _new_tables, the first len(prefix) real decisions taking the prefix's actions; return
    the decision count (a search seat's decision pauses it: flow._decide). The scores are
    left in tab[T_OUT + p]."""
    tab = _borrow(tab)
    ftab = _borrow(ftab)
    io = (
        _borrow(rngs), _borrow(trace), _borrow(drec), _borrow(dcount), _borrow(prefix),
        _borrow(cand),
    )  # fmt: skip
    rounds = deal[D_ROUNDS]
    nrepl = deal[D_NREPL]
    nmyst = deal[D_NMYST]
    nremoved = deal[D_NREMOVED]
    S = deal[D_SLICES]
    _reset(tab, n, rounds, game_index)
    off = D_HEAD
    for r in range(rounds):
        for i in range(SLICES_PER_STACK):
            tab[T_STACKS + r, i] = deal[off + r * SLICES_PER_STACK + i]
    off += rounds * SLICES_PER_STACK
    for r in range(rounds):
        tab[T_STACK_SP, r] = deal[off + r]
    off += rounds
    for i in range(tab.shape[1]):
        tab[T_REPL, i] = 0
    for i in range(nrepl):
        tab[T_REPL, i] = deal[off + i]
    tab[T_G, G_RPT] = nrepl
    off += nrepl
    for i in range(S):
        tab[T_INMYST, i] = 0
        tab[T_DEAL, i] = 0  # 1: removed
    for i in range(nmyst):
        sid = deal[off + i]
        tab[T_MYST, i] = sid
        tab[T_INMYST, sid] = 1
    tab[T_G, G_NMYST] = nmyst
    off += nmyst
    for i in range(nremoved):
        tab[T_DEAL, deal[off + i]] = 1
    # Unclaimed counts every numbered slice not removed, as PlayerView.unclaimed does.
    for i in range(S):
        if tab[T_DEAL, i] == 0 and tab[T_KIND, i] == K_NUM:
            tab[T_UNC, tab[T_TA, i]] += 1
    return _run(tab, ftab, io)
