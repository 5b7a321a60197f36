"""Pizza Theory's game flow, compiled: ``GameState._play`` as a numba function of arrays
that can stop at a search seat's decision and go on from there (``kernel.py`` drives it;
``kernel_search.py`` plays its playouts with it).

A game's whole state lives in a *workspace* (:func:`workspace`), a tuple of arrays: the
board (``owner``), each colour's supply and tallies, the turn positions, the lines cut so
far this round, the neutral die's rolls, the scratch of the swing strategies
(``kernel_swing``) and the game's counters ``gs`` (``G_*``: the round and the step of the
round the flow is at, the decisions, ...). :func:`flow` plays from the step ``gs``
holds to the end of the game, or to the next decision of a ``K_SEARCH`` seat, where it
returns ``True`` with the decision's seat, phase and legal actions in the workspace;
called again with that decision's action as ``forced``, it applies it and plays on. A
playout is the same function on a copy of the state, every seat a swing strategy, so it
never stops.

The steps of a round: ``0 .. n - 1`` the placements in turn order, ``ST_NEUTRAL`` (2
players), ``ST_CUT + q`` the cuts in turn order, ``ST_RESOLVE`` the replacement, the end
and the rotation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.fastrng import integers, next_double
from sims.games.pizzatheory.board import LINES_PER_DIRECTION, MAX_REGIONS
from sims.games.pizzatheory.kernel_swing import (
    N_SP,
    SP_BLIND,
    TRIPLES,
    mixed_mix,
    swing_cut,
    swing_place,
    tables_place,
)

COLOURS = 3
NEUTRAL = 2
P_PLACE, P_CUT, P_NEUTRAL = 0, 1, 2
# the rule options as integers (``kernel.rules_array``)
(R_FIRST, R_ROTATION, R_ORDER, R_TWO_TIE, R_SAFETY, R_PLACEMENT, R_SUPPLY, R_RUNOUT, R_ROUNDS,
 R_CYCLE) = range(10)  # fmt: skip
# tallies per colour (the engine's Tally, in SEAT_COLUMNS order after won/score/toppings)
T_PLACED, T_CAPTURED, T_LOST, T_SAFE_ROUNDS, T_SAVED, T_SKIPPED = range(6)
N_TALLY = 6
ENDING_WIN, ENDING_TIEBREAK, ENDING_DRAW, ENDING_NEUTRAL = range(4)
K_RANDOM, K_SWING, K_MIXED, K_SEARCH = range(4)
"""Seat kinds: ``random``; ``greedy`` and ``heuristic``; ``mixed``; ``search``."""
ST_NEUTRAL, ST_CUT, ST_RESOLVE = 3, 4, 7
"""Steps of a round (``gs[G_ST]``): 0..2 the placements in turn order, then these."""
# the game's counters (gs)
(G_R, G_ST, G_NDEC, G_SAFETY, G_ENDING, G_ROUNDS, G_FIRST, G_GAME, G_PSEAT, G_PPHASE, G_NL,
 G_UROUND, G_UMIX) = range(13)  # fmt: skip
N_GS = 13
# rows of the colour table cw after the region counts
W_SUPPLY, W_RAN_OUT, W_POS, W_START, W_ORDER, W_LINES, W_WINNERS, W_SAFE = range(
    MAX_REGIONS, MAX_REGIONS + 8
)
N_CW = MAX_REGIONS + 8


@njit(cache=True)
def workspace(nspaces, max_rounds):
    """A game's state and scratch arrays (see the module docstring): ``iw`` (10, width)
    int64 rows (owner, legal, removed, refill, the tallies, tops, fills), ``cw`` (N_CW, 3)
    (region counts, then the colour rows ``W_*``), ``die`` (max_rounds,), the swing
    strategies' ``cnt``, ``tabs``, ``acc``, ``fout``, ``sc``, ``u``, ``rw``, ``w``,
    ``tk``, ``rxyz``, ``vals``; ``um`` (3, 6), a sampled cut's mixes; ``gs`` (N_GS,)."""
    width = max(nspaces, MAX_REGIONS, N_TALLY)
    return (
        np.zeros((10, width), dtype=np.int64),
        np.zeros((N_CW, COLOURS), dtype=np.int64),
        np.zeros(max_rounds, dtype=np.int64),
        np.zeros((TRIPLES, MAX_REGIONS, COLOURS + 1), dtype=np.int64),
        np.zeros((4, TRIPLES, COLOURS), dtype=np.int64),
        np.zeros((LINES_PER_DIRECTION, 9), dtype=np.int64),
        np.zeros(LINES_PER_DIRECTION),
        np.zeros((4, COLOURS), dtype=np.int64),
        np.zeros((3, LINES_PER_DIRECTION, LINES_PER_DIRECTION, LINES_PER_DIRECTION)),
        np.zeros((4, 3, LINES_PER_DIRECTION)),
        np.zeros((LINES_PER_DIRECTION, LINES_PER_DIRECTION)),
        np.zeros((LINES_PER_DIRECTION, TRIPLES // LINES_PER_DIRECTION), dtype=np.int64),
        np.zeros((3, TRIPLES, MAX_REGIONS), dtype=np.int64),
        np.zeros(width),
        np.zeros((3, LINES_PER_DIRECTION)),
        np.zeros(N_GS, dtype=np.int64),
    )


@njit(cache=True, inline="always")
def first_seat(rules, n, game_index):
    """``Rules.first_seat_of``: the seat at position 1 in game ``game_index``'s first
    round."""
    if rules[R_CYCLE] != 0:
        return (rules[R_FIRST] + game_index) % n
    return rules[R_FIRST]


@njit(cache=True, inline="always")
def positions(rules, first, n, r, pos):
    """``engine.positions_in_round`` into ``pos`` (3,), ``first`` the game's first seat."""
    if n == 2:
        f = (first + r) % 2
        for c in range(2):
            pos[c] = 0 if c == f else 1
        pos[2] = 2
        return
    for s in range(3):
        pos[s] = ((s - first) + rules[R_ROTATION] * r) % 3


@njit(cache=True, inline="always")
def _put(owner, supply, ran_out, space, colour):
    owner[space] = colour
    supply[colour] -= 1
    if supply[colour] == 0:
        ran_out[colour] = 1


@njit(cache=True, inline="always")
def _log(drec, dcount, game_index, r, seat, position, phase, action, nlegal, owner, supply,
         total):  # fmt: skip
    """Write a decision's record at row dcount[0] (counted even past the buffer's end)."""
    k = dcount[0]
    dcount[0] = k + 1
    if k >= drec.shape[0]:
        return
    empty = 0
    for i in range(owner.shape[0]):
        if owner[i] < 0:
            empty += 1
    row = drec[k]
    row[0] = game_index
    row[1] = r
    row[2] = seat
    row[3] = position
    row[4] = phase
    row[5] = action
    row[6] = nlegal
    row[7] = total - supply[seat]
    row[8] = supply[seat]
    row[9] = empty


@njit(cache=True, inline="always")
def _resolve(owner, supply, ran_out, tally, rules, region, nspaces, counts, safe, removed,
             refill, tops, fills):  # fmt: skip
    """``GameState._resolve`` for one region row; returns whether the safety rule kept a
    topping on the board this round. Scratch: ``counts`` (MAX_REGIONS, COLOURS); ``safe``;
    ``removed`` and ``refill``, the cleared spaces in ascending order and the colour to
    refill each with (-1: none)."""
    for g in range(MAX_REGIONS):
        for c in range(COLOURS):
            counts[g, c] = 0
    nreg = 0
    for i in range(nspaces):
        g = region[i]
        if g + 1 > nreg:
            nreg = g + 1
        c = owner[i]
        if c >= 0:
            counts[g, c] += 1
    for c in range(COLOURS):
        ok = rules[R_SAFETY] != 0
        for g in range(nreg):
            if counts[g, c] > 1:
                ok = False
        safe[c] = 1 if ok else 0
    # each region's outcome: its top count (-1: nothing changes) and the refilling colour
    for g in range(nreg):
        top = 0
        for c in range(COLOURS):
            top = max(top, counts[g, c])
        nlead = 0
        leader = -1
        for c in range(COLOURS):
            if counts[g, c] == top:
                nlead += 1
                leader = c
        tops[g] = top
        fills[g] = leader if nlead == 1 else -1
        if top == 0 or nlead == COLOURS or (nlead == 2 and rules[R_TWO_TIE] != 0):
            tops[g] = -1
    saved = False
    m = 0
    for i in range(nspaces):
        c = owner[i]
        g = region[i]
        if c < 0 or tops[g] < 0 or counts[g, c] == tops[g]:
            continue
        if safe[c] != 0:
            tally[c, T_SAVED] += 1
            saved = True
            continue
        removed[m] = i
        refill[m] = fills[g]
        m += 1
    for c in range(COLOURS):
        if safe[c] != 0:
            for i in range(nspaces):
                if owner[i] == c:
                    tally[c, T_SAFE_ROUNDS] += 1
                    break
    for k in range(m):  # every removal first
        i = removed[k]
        c = owner[i]
        owner[i] = -1
        supply[c] += 1
        tally[c, T_LOST] += 1
    if rules[R_ORDER] == 0:  # by region, then space
        for g in range(nreg):
            for k in range(m):
                if region[removed[k]] == g:
                    _refill(owner, supply, ran_out, tally, refill[k], removed[k])
    else:
        for k in range(m):
            _refill(owner, supply, ran_out, tally, refill[k], removed[k])
    return saved


@njit(cache=True, inline="always")
def _refill(owner, supply, ran_out, tally, c, i):
    if c >= 0 and supply[c] > 0:
        _put(owner, supply, ran_out, i, c)
        tally[c, T_CAPTURED] += 1


@njit(cache=True, inline="always")
def draw_line(mix, x):
    """``MixedStrategy.cut``'s draw: the first line whose cumulative share exceeds ``x``."""
    share = 0.0
    for j in range(LINES_PER_DIRECTION - 1):
        share = share + mix[j]
        if share > x:
            return j
    return LINES_PER_DIRECTION - 1


@njit(cache=True)
def start(start_spaces, rules, n, rngs, ws, game_index):
    """Set up game ``game_index`` in the workspace ``ws``: the empty board, the supplies,
    the neutral die's rolls (2 players: child 0 of the game's streams, one ``integers(0,
    6)`` per round), each colour's two X toppings; the flow at round 0, step 0."""
    iw, cw, die, gs = ws[0], ws[1], ws[2], ws[15]
    nspaces = iw.shape[1]
    total = rules[R_SUPPLY]
    owner = iw[0]
    tally = iw[4:7, :N_TALLY]
    supply, ran_out, pos, start_pos = cw[W_SUPPLY], cw[W_RAN_OUT], cw[W_POS], cw[W_START]
    for i in range(nspaces):
        owner[i] = -1
    for c in range(COLOURS):
        supply[c] = total
        ran_out[c] = 0
        cw[W_LINES, c] = -1
        for j in range(N_TALLY):
            tally[c, j] = 0
    if n == 2:
        for r in range(rules[R_ROUNDS]):
            die[r] = integers(rngs[0], LINES_PER_DIRECTION)
    first = first_seat(rules, n, game_index)
    positions(rules, first, n, 0, pos)
    for c in range(COLOURS):
        start_pos[c] = pos[c]
        for j in range(2):
            _put(owner, supply, ran_out, start_spaces[pos[c], j], c)
    for j in range(N_GS):
        gs[j] = 0
    gs[G_FIRST] = first
    gs[G_GAME] = game_index
    gs[G_UROUND] = -1
    gs[G_ENDING] = ENDING_DRAW
    gs[G_ROUNDS] = rules[R_ROUNDS]


@njit(cache=True)
def flow(bt, rules, n, kinds, sp, rngs, ws, drec, dcount, forced, cutu, msp):
    """Play the game in ``ws`` on from the round and step ``gs`` holds (see the module
    docstring), seat ``s`` of kind ``kinds[s]`` with parameters ``sp[s]``; return ``True``
    when a ``K_SEARCH`` seat has a real decision (its seat, phase and legal count in ``gs``,
    the legal actions in ``iw[1]``), ``False`` at the end of the game (its ending, rounds
    and winners in ``gs`` and ``cw``).

    ``forced`` (-1: none) is the action of the decision the flow stopped at last. In round
    ``gs[G_UROUND]`` seat ``s`` with ``cutu[s] >= 0`` cuts by the draw ``cutu[s]`` from its
    mix of the round's cut game, every player valued with the parameters ``msp`` (the
    field model of a search's playout; the mixes are left in ``um``, and read from it
    when ``gs[G_UMIX]`` says the caller put them there). Decision records go to ``drec``
    from row ``dcount[0]``.
    """
    adjacency, regions, start_spaces, touch, tlines, nreg, cellidx = bt
    iw, cw, die, cnt, tabs, acc, fout, sc, u, rw, w, tk, rxyz, vals, um, gs = ws
    nspaces = adjacency.shape[0]
    total = rules[R_SUPPLY]
    safety = rules[R_SAFETY] != 0
    tie_nothing = rules[R_TWO_TIE] != 0
    # every work row is cut to its length: the swing strategies read a board's size off
    # ``owner`` (iw is as wide as the widest of its rows, wider than a 7-space board)
    owner, legal = iw[0, :nspaces], iw[1, :nspaces]
    removed, refill = iw[2, :nspaces], iw[3, :nspaces]
    tops, fills = iw[8, :MAX_REGIONS], iw[9, :MAX_REGIONS]
    counts = cw[:MAX_REGIONS]
    supply, ran_out, pos = cw[W_SUPPLY], cw[W_RAN_OUT], cw[W_POS]
    order, lines, winners, safe = cw[W_ORDER], cw[W_LINES], cw[W_WINNERS], cw[W_SAFE]
    tally = iw[4:7, :N_TALLY]
    game_index = gs[G_GAME]
    first = gs[G_FIRST]
    ndec = gs[G_NDEC]
    safety_rounds = gs[G_SAFETY]
    # the swing strategies' position tables (kernel_swing.position_tables) hold the position
    # of version tv; ver counts the changes to the board (stale on entry)
    ver = 0
    tv = -1
    solved = -1  # the round whose cut game rw holds the solution of, and for whom
    solver = 0
    usolved = gs[G_UMIX] != 0  # um holds the field model's mixes of round gs[G_UROUND]
    r = gs[G_R]
    skip = gs[G_ST]  # the steps of this round already played
    while r < rules[R_ROUNDS]:
        positions(rules, first, n, r, pos)
        if skip == 0:
            for c in range(COLOURS):
                ran_out[c] = 0
        for p in range(n):  # the seats in turn order
            order[pos[p]] = p
        for q in range(n):  # 1. place
            if skip > q:
                continue
            seat = order[q]
            nl = 0
            if supply[seat] > 0:
                for i in range(nspaces):
                    if owner[i] >= 0:
                        continue
                    ok = True
                    if rules[R_PLACEMENT] == 0:
                        for j in range(adjacency.shape[1]):
                            a = adjacency[i, j]
                            if a < 0:
                                break  # the padding: no more neighbours
                            if owner[a] == seat:
                                ok = False
                                break
                    if ok:
                        legal[nl] = i
                        nl += 1
            if nl == 0:
                tally[seat, T_SKIPPED] += 1
                continue
            k = 0
            if nl > 1:
                if forced >= 0:
                    while legal[k] != forced:
                        k += 1  # the caller's action is one of legal
                    forced = -1
                elif kinds[seat] == K_SEARCH:
                    return _pause(gs, r, q, seat, P_PLACE, nl, ndec, safety_rounds)
                elif kinds[seat] == K_RANDOM or r < sp[seat, SP_BLIND]:
                    k = integers(rngs[1 + seat], nl)
                else:
                    k = swing_place(owner, supply, legal, nl, seat, seat, pos[seat], -1, 0,
                                    sp[seat], regions, cellidx, tlines, nreg, safety,
                                    tie_nothing, total, cnt, tabs, acc, fout, sc, tk, rxyz,
                                    vals, tv != ver)  # fmt: skip
                    tv = ver
                _log(drec, dcount, game_index, r, seat, pos[seat], P_PLACE, legal[k], nl,
                     owner, supply, total)  # fmt: skip
                ndec += 1
            _put(owner, supply, ran_out, legal[k], seat)
            if tv == ver:  # keep the swing strategies' tables up to date
                tables_place(legal[k], seat, regions, nreg, safety, tie_nothing, cnt,
                             tabs[0], tabs[1], tabs[2])  # fmt: skip
                tv += 1
            ver += 1
            tally[seat, T_PLACED] += 1
        if n == 2 and skip <= ST_NEUTRAL:  # the neutral die and topping, by the 1st player
            line = die[r]
            lines[pos[NEUTRAL]] = line
            if supply[NEUTRAL] > 0:
                nl = 0
                for i in range(nspaces):
                    if owner[i] < 0 and touch[pos[NEUTRAL], line, i] != 0:
                        legal[nl] = i
                        nl += 1
                if nl > 0:
                    k = 0
                    placer = order[0]
                    if nl > 1 and forced >= 0:
                        while legal[k] != forced:
                            k += 1
                        forced = -1
                    elif nl > 1 and kinds[placer] == K_SEARCH:
                        return _pause(gs, r, ST_NEUTRAL, placer, P_NEUTRAL, nl, ndec,
                                      safety_rounds)  # fmt: skip
                    elif nl > 1 and kinds[placer] == K_RANDOM:
                        k = integers(rngs[1 + placer], nl)
                    elif nl > 1:
                        k = swing_place(owner, supply, legal, nl, NEUTRAL, placer,
                                        pos[placer], pos[NEUTRAL], line, sp[placer], regions,
                                        cellidx, tlines, nreg, safety, tie_nothing, total,
                                        cnt, tabs, acc, fout, sc, tk, rxyz, vals,
                                        tv != ver)  # fmt: skip
                        tv = ver
                    if nl > 1:
                        _log(drec, dcount, game_index, r, placer, pos[placer], P_NEUTRAL,
                             legal[k], nl, owner, supply, total)  # fmt: skip
                        ndec += 1
                    _put(owner, supply, ran_out, legal[k], NEUTRAL)
                    if tv == ver:
                        tables_place(legal[k], NEUTRAL, regions, nreg, safety, tie_nothing,
                                     cnt, tabs[0], tabs[1], tabs[2])  # fmt: skip
                        tv += 1
                    ver += 1
                    tally[NEUTRAL, T_PLACED] += 1
        kd = pos[NEUTRAL] if n == 2 else -1  # at 2 players the neutral line is known
        kl = lines[pos[NEUTRAL]] if n == 2 else 0
        for q in range(n):  # 2. cut: nothing a seat reads depends on another's cut
            if skip > ST_CUT + q:
                continue
            seat = order[q]
            if forced >= 0:
                line = forced
                forced = -1
            elif r == gs[G_UROUND] and cutu[seat] >= 0:  # a playout's sampled cut
                if not usolved:
                    mixed_mix(owner, supply, seat, order, n, pos, kl, msp, regions, tlines,
                              nreg, safety, tie_nothing, total, cnt, tabs, sc, u, rw, w,
                              tv != ver)  # fmt: skip
                    tv = ver
                    for i in range(n):
                        for j in range(LINES_PER_DIRECTION):
                            um[i, j] = rw[1, i, j]
                    usolved = True
                    solved = -1  # rw no longer holds a mixed seat's solution
                line = draw_line(um[q], cutu[seat])
            elif kinds[seat] == K_SEARCH:
                return _pause(gs, r, ST_CUT + q, seat, P_CUT, LINES_PER_DIRECTION, ndec,
                              safety_rounds)  # fmt: skip
            elif kinds[seat] == K_RANDOM:
                line = integers(rngs[1 + seat], LINES_PER_DIRECTION)
            elif kinds[seat] == K_SWING:
                line = swing_cut(owner, supply, seat, pos[seat], kd, kl, sp[seat], regions,
                                 tlines, nreg, safety, tie_nothing, total, cnt, tabs, acc,
                                 fout, sc, tk, tv != ver)  # fmt: skip
                tv = ver
            else:
                # every player's mix comes out of one solve of the round's cut game, and
                # the position stands until all have cut: a later mixed seat with the same
                # parameters reads its mix from the same solve
                same = solved == r
                for j in range(N_SP):
                    if sp[seat, j] != sp[solver, j]:
                        same = False
                if not same:
                    mixed_mix(owner, supply, seat, order, n, pos, kl, sp[seat], regions,
                              tlines, nreg, safety, tie_nothing, total, cnt, tabs, sc, u, rw,
                              w, tv != ver)  # fmt: skip
                    tv = ver
                    solved = r
                    solver = seat
                line = draw_line(rw[1, q], next_double(rngs[1 + seat]))
            _log(drec, dcount, game_index, r, seat, pos[seat], P_CUT, line,
                 LINES_PER_DIRECTION, owner, supply, total)  # fmt: skip
            ndec += 1
            lines[pos[seat]] = line
        skip = 0
        t = (lines[0] * LINES_PER_DIRECTION + lines[1]) * LINES_PER_DIRECTION + lines[2]
        region = regions[t]
        if _resolve(owner, supply, ran_out, tally, rules, region, nspaces, counts, safe,
                    removed, refill, tops, fills):  # fmt: skip
            safety_rounds += 1
        ver += 1  # the swing strategies' tables are out of date
        for c in range(COLOURS):
            lines[c] = -1
        # 4. the end
        done = False
        for c in range(COLOURS):
            winners[c] = 0
        ncand = 0
        most = -1
        for s in range(n):
            if ran_out[s] != 0:
                ncand += 1
                most = max(most, total - supply[s])
        ending = ENDING_DRAW
        if rules[R_RUNOUT] != 0 and ncand > 1:  # the rulebook's tiebreak
            for s in range(n):
                if ran_out[s] != 0 and total - supply[s] == most:
                    winners[s] = 1
            ending = ENDING_TIEBREAK
            done = True
        else:
            for s in range(n):
                if supply[s] == 0:
                    winners[s] = 1
                    done = True
            if done:
                ending = ENDING_WIN
        if not done and n == 2 and supply[NEUTRAL] == 0:
            ending = ENDING_NEUTRAL
            done = True
        if done:
            gs[G_ENDING] = ending
            gs[G_ROUNDS] = r + 1
            break
        r += 1
    if r >= rules[R_ROUNDS]:
        gs[G_ENDING] = ENDING_DRAW
        gs[G_ROUNDS] = rules[R_ROUNDS]
        for c in range(COLOURS):
            winners[c] = 0
    gs[G_R] = r
    gs[G_ST] = ST_RESOLVE + 1  # over
    gs[G_NDEC] = ndec
    gs[G_SAFETY] = safety_rounds
    return False


@njit(cache=True, inline="always")
def _pause(gs, r, step, seat, phase, nl, ndec, safety_rounds):
    gs[G_R] = r
    gs[G_ST] = step
    gs[G_PSEAT] = seat
    gs[G_PPHASE] = phase
    gs[G_NL] = nl
    gs[G_NDEC] = ndec
    gs[G_SAFETY] = safety_rounds
    return True


@njit(cache=True)
def write_rows(ws, n, total, seat_out, game_out):
    """Each seat's row (n, N_SEAT) and the game's row (N_GAME,) of the finished game in
    ``ws``."""
    iw, cw, gs = ws[0], ws[1], ws[15]
    tally = iw[4:7, :N_TALLY]
    supply, start_pos, winners = cw[W_SUPPLY], cw[W_START], cw[W_WINNERS]
    ending = gs[G_ENDING]
    for s in range(n):
        won = winners[s]
        if ending == ENDING_DRAW or ending == ENDING_NEUTRAL:
            won = 1
        row = seat_out[s]
        row[0] = won
        row[1] = total - supply[s]
        row[2] = total - supply[s]
        for j in range(N_TALLY):
            row[3 + j] = tally[s, j]
        row[9] = start_pos[s]
    game_out[0] = gs[G_ROUNDS]
    game_out[1] = ending
    game_out[2] = gs[G_SAFETY]
    game_out[3] = total - supply[NEUTRAL] if n == 2 else -1
    game_out[4] = gs[G_NDEC]
