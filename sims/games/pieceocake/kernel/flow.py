"""The game's flow, compiled: the twin of ``engine.py`` (and of ``game.play_game``'s loop,
``records.decision_row`` and ``scoring.score``).

``_play`` deals (``engine.deal``: a shuffle of every slice id on the deal stream), plays
the five rounds (``_round``: the cut, the turns in ``engine.turn_order``, taking a piece
slice by slice, forgoing and eating) and scores. Every real decision (two or more legal
actions; a forced move is applied silently, as ``engine._decide`` does) goes through
``_decide``: a random seat draws ``integers(0, len(legal))`` on its own stream, a greedy
or heuristic seat asks ``choose.py``; then ``_log`` counts it and writes its record.
"""

from __future__ import annotations

from numba import njit

from sims.core.fastrng import integers, shuffle
from sims.games.pieceocake.cake import MAX_VARIETIES, ROUNDS
from sims.games.pieceocake.kernel.candidates import _search_pause
from sims.games.pieceocake.kernel.choose import _choose, _cut, _eat, _forgo_count, _forgo_eat
from sims.games.pieceocake.kernel.layout import (
    ARC_STRIDE,
    C_CREAM,
    C_EATEN,
    C_FEATEN,
    C_FORGONE,
    C_TAKEN,
    DC_ACTION,
    DC_GAME,
    DC_LEFT,
    DC_NLEGAL,
    DC_OWN,
    DC_PHASE,
    DC_PIECES,
    DC_RIVAL,
    DC_ROUND,
    DC_SEAT,
    DC_SERVER,
    DC_SLICE,
    DC_UNSEEN,
    DC_VAR,
    EATS_CHOOSE,
    EATS_NONE,
    F_DEN,
    G_DCOUNT,
    G_GAME,
    G_N,
    G_NDEC,
    G_NFORCED,
    G_NMASKS,
    G_NPIECES,
    G_NS,
    G_NTURNS,
    G_NV,
    G_PAUSE,
    G_ROUND,
    G_SERVER,
    G_VALUED,
    MAX_SEATS,
    MT_K,
    MT_LEN,
    MT_MASK,
    MT_START,
    N_SEAT_COLUMNS,
    NC,
    ORDER_SNAKE,
    P_CHOOSE,
    P_CUT,
    P_EAT,
    P_FCOUNT,
    P_FEAT,
    R_AFTER_TAKE,
    R_FIRST,
    R_FORGO_EATS,
    R_FORGO_ENDS,
    R_TIES,
    R_TWO_ORDER,
    SC_COLL,
    SC_COLLV,
    SC_CREAM,
    SC_EATEN,
    SC_EATV,
    SC_FEATEN,
    SC_FORGONE,
    SC_MAJ,
    SC_SCORE,
    SC_TAKEN,
    SC_WMASK,
    SC_WON,
    STRAT_RANDOM,
    STRAT_SEARCH,
    T_CCNT,
    T_CIRC,
    T_COLL,
    T_COPIES,
    T_CREAM,
    T_CVAR,
    T_DEAL,
    T_EATV,
    T_FRESH,
    T_G,
    T_HIST,
    T_KIDX,
    T_LAID,
    T_LIST,
    T_OCC,
    T_ORDER,
    T_OUT,
    T_PLEN,
    T_PSTART,
    T_PTAKEN,
    T_RULES,
    T_SEAT,
    T_STOP,
    T_STRAT,
    T_VAL,
    T_VAR,
    TIES_NONE,
    TIES_SPLIT,
)


@njit(cache=True, inline="always")
def _log(tab, drec, seat, phase, action, nlegal, sid, v):
    """Count a real decision and, when ``drec`` has rows, write its record
    (``records.decision_row``, read before the action is applied)."""
    tab[T_G, G_NDEC] += 1
    if drec.shape[0] > 0:
        _record(tab, drec, seat, phase, action, nlegal, sid, v)


@njit(cache=True)
def _record(tab, drec, seat, phase, action, nlegal, sid, v):
    """Write a decision's record at row tab[T_G, G_DCOUNT] (and count it even past the
    end of ``drec``: the runner then plays the chunk again with room for every row)."""
    k = tab[T_G, G_DCOUNT]
    tab[T_G, G_DCOUNT] = k + 1
    if k >= drec.shape[0]:
        return
    row = drec[k]
    row[DC_GAME] = tab[T_G, G_GAME]
    row[DC_ROUND] = tab[T_G, G_ROUND]
    row[DC_SERVER] = tab[T_G, G_SERVER]
    row[DC_SEAT] = seat
    row[DC_PHASE] = phase
    row[DC_ACTION] = action
    row[DC_NLEGAL] = nlegal
    row[DC_SLICE] = sid
    row[DC_VAR] = v
    row[DC_OWN] = -1
    row[DC_RIVAL] = -1
    row[DC_UNSEEN] = -1
    row[DC_PIECES] = -1
    row[DC_LEFT] = -1
    if v >= 0:
        rival = -1
        for q in range(tab[T_G, G_N]):
            if q != seat and tab[T_COLL + q, v] > rival:
                rival = tab[T_COLL + q, v]
        row[DC_OWN] = tab[T_COLL + seat, v]
        row[DC_RIVAL] = rival
        row[DC_UNSEEN] = tab[T_COPIES, v] - tab[T_LAID, v]
    if phase != P_CUT:
        npieces = tab[T_G, G_NPIECES]
        left = 0
        for j in range(npieces):
            if tab[T_PTAKEN, j] < 0:
                left += 1
        row[DC_PIECES] = npieces
        row[DC_LEFT] = left


@njit(cache=True, inline="always")
def _decide(tab, ftab, rngs, mtab, seat, phase, nlegal, arg):
    """The index in the legal list of a real decision's action: a random seat's draw or
    its strategy's choice (``arg``: the slice's circle position at EAT, the variety at
    FORGO_COUNT), written to T_HIST; in a replay or a playout, its first G_NFORCED
    decisions are read from T_HIST. A search seat's decision pauses the replay
    (``candidates._search_pause``); the paused replay only runs out, each later decision
    taking its first legal action (``search.py`` reads the pause, not the run-out)."""
    k = tab[T_G, G_NDEC]
    if k < tab[T_G, G_NFORCED]:
        i = tab[T_HIST, k]
        if i < 0 or i >= nlegal:
            raise ValueError("a forced decision is not legal in the replayed game")
        return i
    if tab[T_G, G_PAUSE] != 0:
        return 0
    strat = tab[T_STRAT, seat]
    if strat == STRAT_RANDOM:
        i = integers(rngs[1 + seat], nlegal)
    elif strat == STRAT_SEARCH:
        _search_pause(tab, ftab, mtab, seat, phase, nlegal)
        return 0
    elif phase == P_EAT:
        i = _eat(tab, ftab, seat, arg)
    elif phase == P_CHOOSE:
        i = _choose(tab, ftab, seat, nlegal - 1)
    elif phase == P_FEAT:
        i = _forgo_eat(tab, ftab, seat, nlegal - 1)
    elif phase == P_FCOUNT:
        i = _forgo_count(tab, ftab, seat, arg)
    else:
        i = _cut(tab, ftab, seat, mtab)
    tab[T_HIST, k] = i
    return i


@njit(cache=True)
def _take(tab, ftab, rngs, drec, mtab, seat, j):
    """``engine._take``: seat takes piece j and eats or collects its slices in order."""
    tab[T_PTAKEN, j] = seat
    tab[T_SEAT + seat, C_TAKEN] += 1
    start = tab[T_PSTART, j]
    for i in range(tab[T_PLEN, j]):
        pos = (start + i) % NC
        sid = tab[T_CIRC, pos]
        v = tab[T_CVAR, pos]
        eat = _decide(tab, ftab, rngs, mtab, seat, P_EAT, 2, pos)
        _log(tab, drec, seat, P_EAT, eat, 2, sid, v)
        if eat:
            tab[T_SEAT + seat, C_EATEN] += 1
            tab[T_EATV + seat, v] += 1
            tab[T_SEAT + seat, C_CREAM] += tab[T_CREAM, v]
        else:
            tab[T_COLL + seat, v] += 1
            tab[T_FRESH + seat, v] += 1


@njit(cache=True)
def _forgo(tab, ftab, rngs, drec, mtab, seat):
    """``engine._forgo_eat``: after forgoing, eat collected slices of one variety (those
    collected in earlier cakes: ``GameState.forgo_edible``)."""
    eats = tab[T_RULES, R_FORGO_EATS]
    if eats == EATS_NONE:
        return
    nheld = 0
    for v in range(tab[T_G, G_NV]):
        if tab[T_COLL + seat, v] - tab[T_FRESH + seat, v] > 0:
            tab[T_LIST, nheld] = v
            nheld += 1
    if nheld == 0:
        return
    i = _decide(tab, ftab, rngs, mtab, seat, P_FEAT, nheld + 1, -1)
    action = 0 if i == 0 else 1 + tab[T_LIST, i - 1]
    _log(tab, drec, seat, P_FEAT, action, nheld + 1, -1, -1)
    if action == 0:
        return
    v = action - 1
    count = tab[T_COLL + seat, v] - tab[T_FRESH + seat, v]
    if eats == EATS_CHOOSE and count > 1:
        i = _decide(tab, ftab, rngs, mtab, seat, P_FCOUNT, count, v)
        _log(tab, drec, seat, P_FCOUNT, i + 1, count, -1, v)
        count = i + 1
    tab[T_COLL + seat, v] -= count
    tab[T_SEAT + seat, C_EATEN] += count
    tab[T_EATV + seat, v] += count
    tab[T_SEAT + seat, C_CREAM] += count * tab[T_CREAM, v]
    tab[T_SEAT + seat, C_FEATEN] += count


@njit(cache=True)
def _round_tables(tab, ftab, n):
    """The round's tables the valuations read (after the circle is laid)."""
    # for each arc from a, each slice's column in F_VAL: v * ARC_STRIDE + the slices of
    # its variety v before it in the arc (value._arc_values)
    nv = tab[T_G, G_NV]
    for a in range(NC):
        for v in range(nv):
            tab[T_OCC, v] = 0
        for i in range(NC):
            p = a + i
            if p >= NC:
                p -= NC
            v = tab[T_CVAR, p]
            tab[T_KIDX, a * ARC_STRIDE + i] = v * ARC_STRIDE + tab[T_OCC, v]
            tab[T_OCC, v] += 1
    # the heuristic's denominator 2 (1 + u / N) per variety (u: its slices unseen after
    # this circle), the same for every seat and count all round (value._worth)
    for v in range(tab[T_G, G_NV]):
        ftab[F_DEN, v] = 2 * (1 + (tab[T_COPIES, v] - tab[T_LAID, v]) / n)


@njit(cache=True)
def _round(tab, ftab, rngs, drec, mtab, r):
    """``engine._round``: lay the circle, cut, and play the turns."""
    n = tab[T_G, G_N]
    server = (tab[T_RULES, R_FIRST] + r) % n
    tab[T_G, G_ROUND] = r
    tab[T_G, G_SERVER] = server
    for v in range(tab[T_G, G_NV]):
        tab[T_CCNT, v] = 0
        for p in range(n):
            tab[T_FRESH + p, v] = 0
    for p in range(NC):
        sid = tab[T_DEAL, r * NC + p]
        v = tab[T_VAR, sid]
        tab[T_CIRC, p] = sid
        tab[T_CVAR, p] = v
        tab[T_LAID, v] += 1
        tab[T_CCNT, v] += 1
    if tab[T_G, G_VALUED]:
        _round_tables(tab, ftab, n)
    # the turn order (engine.turn_order), read by the cut search too
    if n == 2:
        other = 1 - server
        tab[T_ORDER, 0] = other
        tab[T_ORDER, 1] = server
        snake = tab[T_RULES, R_TWO_ORDER] == ORDER_SNAKE
        tab[T_ORDER, 2] = server if snake else other
        tab[T_ORDER, 3] = other if snake else server
        nturns = 4
    else:
        for i in range(n):
            tab[T_ORDER, i] = (server + 1 + i) % n
        nturns = n
    tab[T_G, G_NTURNS] = nturns
    # the cut
    nmasks = tab[T_G, G_NMASKS]
    i = 0
    if nmasks > 1:
        i = _decide(tab, ftab, rngs, mtab, server, P_CUT, nmasks, -1)
        _log(tab, drec, server, P_CUT, mtab[i, MT_MASK], nmasks, -1, -1)
    k = mtab[i, MT_K]
    tab[T_G, G_NPIECES] = k
    for j in range(k):
        tab[T_PSTART, j] = mtab[i, MT_START + j]
        tab[T_PLEN, j] = mtab[i, MT_LEN + j]
        tab[T_PTAKEN, j] = -1
    for p in range(n):
        tab[T_STOP, p] = 0
    ends = tab[T_RULES, R_FORGO_ENDS] != 0
    after_take = tab[T_RULES, R_AFTER_TAKE] != 0
    for q in range(nturns):
        seat = tab[T_ORDER, q]
        if tab[T_STOP, seat] != 0:
            continue
        nfree = 0
        took = False
        for j in range(k):
            if tab[T_PTAKEN, j] < 0:
                tab[T_LIST, nfree] = j
                nfree += 1
            elif tab[T_PTAKEN, j] == seat:
                took = True
        if nfree == 0 and took and not after_take:
            continue  # engine.forced_forgo_turn: the turn passes
        action = 0
        if nfree > 0:
            c = _decide(tab, ftab, rngs, mtab, seat, P_CHOOSE, nfree + 1, -1)
            action = 0 if c == 0 else 1 + tab[T_LIST, c - 1]
            _log(tab, drec, seat, P_CHOOSE, action, nfree + 1, -1, -1)
        if action == 0:
            tab[T_SEAT + seat, C_FORGONE] += 1
            if ends:
                tab[T_STOP, seat] = 1
            _forgo(tab, ftab, rngs, drec, mtab, seat)
        else:
            _take(tab, ftab, rngs, drec, mtab, seat, action - 1)


@njit(cache=True)
def _score(tab):
    """``scoring.score`` into T_OUT + p (SCORE_COLUMNS)."""
    n = tab[T_G, G_N]
    ties = tab[T_RULES, R_TIES]
    nv = tab[T_G, G_NV]
    for p in range(n):
        tab[T_OUT + p, SC_MAJ] = 0
        tab[T_OUT + p, SC_WON] = 0
        tab[T_OUT + p, SC_COLL] = 0
        tab[T_OUT + p, SC_WMASK] = 0
        for v in range(MAX_VARIETIES):
            tab[T_OUT + p, SC_COLLV + v] = tab[T_COLL + p, v] if v < nv else 0
            tab[T_OUT + p, SC_EATV + v] = tab[T_EATV + p, v] if v < nv else 0
    for v in range(nv):
        best = 0
        leaders = 0
        for p in range(n):
            c = tab[T_COLL + p, v]
            tab[T_OUT + p, SC_COLL] += c
            if c > best:
                best = c
                leaders = 1
            elif c == best:
                leaders += 1
        if best == 0 or (leaders > 1 and ties == TIES_NONE):
            continue
        value = tab[T_VAL, v] // leaders if ties == TIES_SPLIT else tab[T_VAL, v]
        for p in range(n):
            if tab[T_COLL + p, v] == best:
                tab[T_OUT + p, SC_MAJ] += value
                tab[T_OUT + p, SC_WON] += 1
                tab[T_OUT + p, SC_WMASK] |= 1 << v
    for p in range(n):
        cream = tab[T_SEAT + p, C_CREAM]
        tab[T_OUT + p, SC_CREAM] = cream
        tab[T_OUT + p, SC_SCORE] = tab[T_OUT + p, SC_MAJ] + cream
        tab[T_OUT + p, SC_EATEN] = tab[T_SEAT + p, C_EATEN]
        tab[T_OUT + p, SC_TAKEN] = tab[T_SEAT + p, C_TAKEN]
        tab[T_OUT + p, SC_FORGONE] = tab[T_SEAT + p, C_FORGONE]
        tab[T_OUT + p, SC_FEATEN] = tab[T_SEAT + p, C_FEATEN]


@njit(cache=True)
def _deal(tab, rngs):
    """``engine.deal`` into T_DEAL: every slice id, shuffled on the deal stream rngs[0]."""
    ns = tab[T_G, G_NS]
    deal = tab[T_DEAL, :ns]
    for i in range(ns):
        deal[i] = i
    shuffle(rngs[0], deal)


@njit(cache=True)
def _play(tab, ftab, rngs, drec, mtab, game_index):
    """One game on (borrowed) tables, dealt from rngs[0]; returns its real decisions and
    leaves the score rows in T_OUT."""
    _deal(tab, rngs)
    return _play_dealt(tab, ftab, rngs, drec, mtab, game_index)


@njit(cache=True)
def _play_dealt(tab, ftab, rngs, drec, mtab, game_index):
    """:func:`_play` from the deal already in T_DEAL (a playout's determinized deal)."""
    tab[T_G, G_GAME] = game_index
    tab[T_G, G_NDEC] = 0
    tab[T_G, G_PAUSE] = 0
    nv = tab[T_G, G_NV]
    for p in range(MAX_SEATS):
        for v in range(nv):
            tab[T_COLL + p, v] = 0
            tab[T_EATV + p, v] = 0
        for c in range(N_SEAT_COLUMNS):
            tab[T_SEAT + p, c] = 0
    for v in range(nv):
        tab[T_LAID, v] = 0
    for r in range(ROUNDS):
        _round(tab, ftab, rngs, drec, mtab, r)
    _score(tab)
    return tab[T_G, G_NDEC]
