"""The ``search`` player, compiled: the twin of ``search.SearchStrategy``, decision for
decision (``tests/games/pizzatheory/test_pizzatheory_search.py``).

A game with search seats is played by :func:`search_game`: the flow (``kernel_flow.flow``)
runs until a search seat has a real decision and stops there; :func:`decide` lists the
seat's candidates, draws its samples of what it cannot see from the seat's own stream and
plays every candidate out on every sample (:func:`playout`: a copy of the position, every
seat playing the field heuristic, the other seats' cuts of this round drawn from the field
model's mixes), and the flow goes on with the best candidate as the decision's action. No
compiled function calls itself: a playout never stops, since no playout seat searches.

What :func:`decide` reads of the game is what the seat's view shows: the board, the
supplies, the turn positions, the round and, at 2 players, this round's neutral line once
rolled. The other seats' cuts of this round (in the workspace's lines when they cut
before the seat) and the neutral die's later rolls are never read: a playout gets its own,
sampled.

A search seat's parameter row (``sp``): ``SP_AGGRESSION``, ``SP_LEADER``, ``SP_RISK``,
the field heuristic's valuation (the playouts' and the placement candidates'), then
``SP_BUDGET``, ``SP_PLACES``, and the field model's cut game, ``SP_MAGG``, ``SP_MLEAD``
and ``SP_ITERS`` (``search.SearchStrategy.rows``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.fastrng import integers, next_double
from sims.games.pizzatheory.board import LINES_PER_DIRECTION
from sims.games.pizzatheory.kernel_flow import (
    COLOURS,
    ENDING_DRAW,
    ENDING_NEUTRAL,
    G_ENDING,
    G_FIRST,
    G_NL,
    G_PPHASE,
    G_PSEAT,
    G_R,
    G_ST,
    G_UMIX,
    G_UROUND,
    K_SWING,
    N_GS,
    N_TALLY,
    NEUTRAL,
    P_CUT,
    P_PLACE,
    R_ROUNDS,
    R_SAFETY,
    R_SUPPLY,
    R_TWO_TIE,
    ST_RESOLVE,
    W_LINES,
    W_ORDER,
    W_POS,
    W_RAN_OUT,
    W_SUPPLY,
    W_WINNERS,
    draw_line,
    flow,
    start,
    write_rows,
)
from sims.games.pizzatheory.kernel_swing import (
    N_SP,
    SP_AGGRESSION,
    SP_BUDGET,
    SP_ITERS,
    SP_LEADER,
    SP_MAGG,
    SP_MLEAD,
    SP_MODEL,
    SP_PLACES,
    SP_RISK,
    mixed_mix,
    place_values,
    swing_cut,
)

LINES = LINES_PER_DIRECTION


@njit(cache=True)
def outcome(ws, n, seat, total):
    """``search.outcome``: ``seat``'s win share of the finished game in ``ws`` (a draw and a
    neutral win shared by every seat) plus a hundredth of its toppings' margin over the
    best other seat's."""
    cw, gs = ws[1], ws[15]
    ending = gs[G_ENDING]
    winners, supply = cw[W_WINNERS], cw[W_SUPPLY]
    if ending == ENDING_DRAW or ending == ENDING_NEUTRAL:
        share = 1.0 / n
    else:
        nw = 0
        for s in range(n):
            nw += winners[s]
        share = 1.0 / nw if winners[seat] != 0 else 0.0
    other = -(1 << 30)
    for q in range(n):
        if q != seat:
            other = max(other, total - supply[q])
    return share + 0.01 * float((total - supply[seat]) - other)


@njit(cache=True)
def set_position(ws, nspaces, n, owner, supply, pos, r, first, step, lines, die):
    """Put a position in the workspace ``ws``: the board, the supplies (every colour whose
    supply is 0 ran out this round: none starts a round without supply), the turn
    positions, the round and step, the lines cut (by direction, -1 unknown) and the die's
    rolls; the flow goes on from there."""
    iw, cw, wdie, gs = ws[0], ws[1], ws[2], ws[15]
    for i in range(nspaces):
        iw[0, i] = owner[i]
    for c in range(COLOURS):
        cw[W_SUPPLY, c] = supply[c]
        cw[W_RAN_OUT, c] = 1 if supply[c] == 0 else 0
        cw[W_POS, c] = pos[c]
        cw[W_LINES, c] = lines[c]
        cw[W_WINNERS, c] = 0
        for j in range(N_TALLY):
            iw[4 + c, j] = 0
    for p in range(n):
        cw[W_ORDER, pos[p]] = p
    for i in range(die.shape[0]):
        wdie[i] = die[i]
    for j in range(N_GS):
        gs[j] = 0
    gs[G_R] = r
    gs[G_ST] = step
    gs[G_FIRST] = first
    gs[G_UROUND] = r


@njit(cache=True)
def playout(bt, rules, n, pws, pkinds, psp, prngs, owner, supply, pos, r, first, step, lines,
            die, forced, cutu, msp, nodrec, nocount, umix, known):  # fmt: skip
    """Play a position out (:func:`set_position`), every seat of kind ``pkinds`` with
    parameters ``psp`` (the field heuristic), the decision at ``step`` taken as ``forced``
    and the other seats' cuts of round ``r`` drawn by ``cutu`` from the mixes of the field
    model ``msp`` (``kernel_flow.flow``), or, when ``known``, from ``umix``, those mixes
    found before; the finished game is left in ``pws`` (the mixes in its ``um``)."""
    nspaces = bt[0].shape[0]
    set_position(pws, nspaces, n, owner, supply, pos, r, first, step, lines, die)
    if known:
        um = pws[14]
        for i in range(umix.shape[0]):
            for j in range(umix.shape[1]):
                um[i, j] = umix[i, j]
        pws[15][G_UMIX] = 1
    flow(bt, rules, n, pkinds, psp, prngs, pws, nodrec, nocount, forced, cutu, msp)


@njit(cache=True)
def top_candidates(vals, nl, k, picked, out):
    """The indices of the ``k`` largest of ``vals[:nl]`` (the first among equals), in
    index order, into ``out``; returns how many (``min(k, nl)``)."""
    if nl <= k:
        for j in range(nl):
            out[j] = j
        return nl
    for j in range(nl):
        picked[j] = 0
    for _ in range(k):
        best = -1
        for j in range(nl):
            if picked[j] == 0 and (best < 0 or vals[j] > vals[best]):
                best = j
        picked[best] = 1
    m = 0
    for j in range(nl):
        if picked[j] != 0:
            out[m] = j
            m += 1
    return m


@njit(cache=True, inline="always")
def _key(j, mix, draws, oa, ob):
    """The outcome cache's key (3 players): candidate ``j`` and the lines the other players
    (turn indices ``oa``, ``ob``) draw from their mixes ``mix`` with ``draws``."""
    return (j * LINES + draw_line(mix[oa], draws[oa])) * LINES + draw_line(mix[ob], draws[ob])


@njit(cache=True)
def decide(bt, rules, n, sp, rngs, ws, pws, nodrec, nocount):
    """The action of the search seat the flow in ``ws`` stopped at (``SearchStrategy.choose``):
    its candidates, each played out on the same samples, the best mean outcome winning
    (the first of equals)."""
    adjacency, regions, start_spaces, touch, tlines, nreg, cellidx = bt
    iw, cw, die, cnt, tabs, acc, fout, sc, u, rw, w, tk, rxyz, vals, um, gs = ws
    nspaces = adjacency.shape[0]
    total = rules[R_SUPPLY]
    safety = rules[R_SAFETY] != 0
    tie_nothing = rules[R_TWO_TIE] != 0
    seat = gs[G_PSEAT]
    phase = gs[G_PPHASE]
    nl = gs[G_NL]
    r = gs[G_R]
    step = gs[G_ST]
    first = gs[G_FIRST]
    owner = iw[0, :nspaces]
    legal = iw[1, :nspaces]
    supply, pos, order, lines = cw[W_SUPPLY], cw[W_POS], cw[W_ORDER], cw[W_LINES]
    row = sp[seat]
    # the candidates
    cand = np.zeros(max(nl, LINES), dtype=np.int64)
    if phase == P_CUT:
        nc = LINES
        for j in range(LINES):
            cand[j] = j
    else:
        colour = seat if phase == P_PLACE else NEUTRAL
        kd = -1 if phase == P_PLACE else pos[NEUTRAL]
        kl = 0 if phase == P_PLACE else lines[pos[NEUTRAL]]
        idx = np.zeros(nl, dtype=np.int64)
        places = int(row[SP_PLACES])
        if nl > places:
            place_values(owner, supply, legal, nl, colour, seat, pos[seat], kd, kl, row,
                         regions, cellidx, tlines, nreg, safety, tie_nothing, total, cnt,
                         tabs, acc, fout, sc, tk, rxyz, vals, True)  # fmt: skip
        picked = np.zeros(nl, dtype=np.int64)
        nc = top_candidates(vals, nl, places, picked, idx)
        for j in range(nc):
            cand[j] = legal[idx[j]]
    if nc == 1:
        return cand[0]
    samples = max(1, int(row[SP_BUDGET]) // nc)
    # the playouts' seats: every one the field heuristic
    pkinds = np.full(n, K_SWING, dtype=np.int64)
    psp = np.zeros((n, N_SP))
    msp = np.zeros(N_SP)
    for p in range(n):
        psp[p, SP_AGGRESSION] = row[SP_AGGRESSION]
        psp[p, SP_LEADER] = row[SP_LEADER]
        psp[p, SP_RISK] = row[SP_RISK]
    msp[SP_AGGRESSION] = row[SP_MAGG]
    msp[SP_LEADER] = row[SP_MLEAD]
    msp[SP_ITERS] = row[SP_ITERS]
    prngs = np.zeros((n + 1, 5), dtype=np.uint64)  # playout seats draw nothing
    # what the seat sees: this round's lines by direction (at 2 players the neutral one,
    # once rolled), never another seat's cut
    seen = np.full(COLOURS, -1, dtype=np.int64)
    if n == 2 and phase != P_PLACE:
        seen[pos[NEUTRAL]] = lines[pos[NEUTRAL]]
    rolled = r + 1 if (n == 2 and phase != P_PLACE) else r  # the first roll not seen
    pdie = np.zeros(rules[R_ROUNDS], dtype=np.int64)
    if n == 2 and phase != P_PLACE:
        pdie[r] = lines[pos[NEUTRAL]]
    mine = 0
    for q in range(n):
        if order[q] == seat:
            mine = q
    mixed = row[SP_MODEL] == 0  # the field model: mixed's cut game, else the heuristic
    hl = np.zeros(COLOURS, dtype=np.int64)  # the heuristic model's lines by turn index
    if phase == P_CUT and mixed:  # the field model's mixes at this position, one solve
        mixed_mix(owner, supply, seat, order, n, pos, seen[pos[NEUTRAL]] if n == 2 else 0,
                  msp, regions, tlines, nreg, safety, tie_nothing, total, cnt, tabs, sc, u,
                  rw, w, True)  # fmt: skip
        for i in range(n):
            for j in range(LINES):
                um[i, j] = rw[1, i, j]
    elif phase == P_CUT:  # the heuristic model: each other seat's own best line
        fresh = True
        for q in range(n):
            if q != mine:
                o = order[q]
                hl[q] = swing_cut(owner, supply, o, pos[o], pos[NEUTRAL] if n == 2 else -1,
                                  seen[pos[NEUTRAL]] if n == 2 else 0, row, regions, tlines,
                                  nreg, safety, tie_nothing, total, cnt, tabs, acc, fout, sc,
                                  tk, fresh)  # fmt: skip
                fresh = False
    cutu = np.full(COLOURS, -1.0)
    plines = np.zeros(COLOURS, dtype=np.int64)
    draws = np.zeros(COLOURS)
    totals = np.zeros(nc)
    stream = rngs[1 + seat]
    # Caches, exact because every playout seat is deterministic: at a placement, the field
    # model's mixes at this round's cut follow from the candidate and the die's roll this
    # round (found by the first playout that reaches them); at 3 players, where nothing is
    # left to chance, a playout's outcome follows from the candidate and the others' lines.
    cmix = np.zeros((nc, LINES, COLOURS, LINES))
    cknown = np.zeros((nc, LINES), dtype=np.int64)
    memo = n == 3
    mval = np.zeros(nc * LINES * LINES if memo else 1)
    mknown = np.zeros(nc * LINES * LINES if memo else 1, dtype=np.int64)
    oa = 1 if mine == 0 else 0  # the other players' turn indices (3 players)
    ob = 1 if mine == 2 else 2
    for _ in range(samples):
        for q in range(n):  # the other seats' cuts of this round, in turn order
            if q != mine and mixed:
                draws[q] = next_double(stream)
        if n == 2:  # the die's rolls the seat has not seen
            for rr in range(rolled, rules[R_ROUNDS]):
                pdie[rr] = integers(stream, LINES)
        roll = pdie[r] if n == 2 else 0
        for j in range(nc):
            for c in range(COLOURS):
                plines[c] = seen[c]
                cutu[c] = -1.0
            key = -1
            if phase == P_CUT:
                for q in range(n):
                    if q == mine:
                        line = cand[j]
                    elif mixed:
                        line = draw_line(um[q], draws[q])
                    else:
                        line = hl[q]
                    plines[pos[order[q]]] = line
                if memo:
                    key = (j * LINES + plines[pos[order[oa]]]) * LINES + plines[pos[order[ob]]]
                if key >= 0 and mknown[key] != 0:
                    v = mval[key]
                else:
                    playout(bt, rules, n, pws, pkinds, psp, prngs, owner, supply, pos, r,
                            first, ST_RESOLVE, plines, pdie, -1, cutu, msp, nodrec, nocount,
                            cmix[0, 0], False)  # fmt: skip
                    v = outcome(pws, n, seat, total)
            elif not mixed:  # the playout's heuristic seats cut this round too
                if memo:
                    key = j * LINES * LINES
                if key >= 0 and mknown[key] != 0:
                    v = mval[key]
                else:
                    playout(bt, rules, n, pws, pkinds, psp, prngs, owner, supply, pos, r,
                            first, step, plines, pdie, cand[j], cutu, msp, nodrec, nocount,
                            cmix[0, 0], False)  # fmt: skip
                    v = outcome(pws, n, seat, total)
            else:
                for q in range(n):
                    if q != mine:
                        cutu[order[q]] = draws[q]
                known = cknown[j, roll] != 0
                mix = cmix[j, roll]
                if known and memo:
                    key = _key(j, mix, draws, oa, ob)
                if key >= 0 and mknown[key] != 0:
                    v = mval[key]
                else:
                    playout(bt, rules, n, pws, pkinds, psp, prngs, owner, supply, pos, r,
                            first, step, plines, pdie, cand[j], cutu, msp, nodrec, nocount,
                            mix, known)  # fmt: skip
                    v = outcome(pws, n, seat, total)
                    if not known:
                        um_p = pws[14]
                        for i in range(n):
                            for t in range(LINES):
                                mix[i, t] = um_p[i, t]
                        cknown[j, roll] = 1
                        if memo:
                            key = _key(j, mix, draws, oa, ob)
            if key >= 0:
                mval[key] = v
                mknown[key] = 1
            totals[j] = totals[j] + v
    best = 0
    for j in range(1, nc):
        if totals[j] > totals[best]:
            best = j
    return cand[best]


@njit(cache=True)
def search_game(bt, rules, n, kinds, sp, rngs, ws, pws, drec, dcount, game_index, seat_out,
                game_out, nodrec, nocount):  # fmt: skip
    """Play game ``game_index`` in ``ws`` (``kernel_flow.start``), stopping at each search
    seat's decision for :func:`decide`; write its rows."""
    start(bt[2], rules, n, rngs, ws, game_index)
    cutu = np.full(COLOURS, -1.0)
    forced = -1
    while flow(bt, rules, n, kinds, sp, rngs, ws, drec, dcount, forced, cutu, sp[0]):
        forced = decide(bt, rules, n, sp, rngs, ws, pws, nodrec, nocount)
    write_rows(ws, n, rules[R_SUPPLY], seat_out, game_out)
