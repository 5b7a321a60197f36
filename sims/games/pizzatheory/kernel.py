"""Pizza Theory's compiled kernel: whole games from arrays only, the twin of ``engine.py``
and ``game.play_game`` for every built-in family: ``random``, and the swing strategies
``greedy``, ``heuristic`` and ``mixed`` (``kernel_swing.py``).

For the same (study seed, game index) it makes the same decisions in the same order and
reaches the same rows (``records.SEAT_COLUMNS``, ``GAME_COLUMNS``, ``DECISION_COLUMNS``):
``tests/games/pizzatheory/test_pizzatheory_kernel.py`` checks it game by game. Its random
streams are :mod:`sims.core.fastrng`'s copy of NumPy's (child 0 of the game's streams rolls
the 2-player neutral die, one ``integers(0, 6)`` per round; child 1 + p is seat p's).

Board arrays (``Board.arrays()``): ``adjacency`` (spaces, degree) padded with -1,
``regions`` (216, spaces) flattened from (6, 6, 6, spaces), ``start`` (3, 2) and
``touch`` (3, 6, spaces), the spaces touching each line (``GameState.touching``).
"""

from __future__ import annotations

import sys
from functools import cache

import numpy as np
from numba import njit

from sims.core.fastrng import game_streams_into, integers, next_double
from sims.games.flow import seat_specs
from sims.games.kernel_cache import key_caches
from sims.games.pizzatheory import kernel_swing
from sims.games.pizzatheory.board import LINES_PER_DIRECTION, MAX_REGIONS, N_DIRECTIONS, Board
from sims.games.pizzatheory.kernel_swing import (
    N_SP,
    SP_BLIND,
    TRIPLES,
    mixed_mix,
    swing_cut,
    swing_place,
    tables_place,
    triple_tables,
)
from sims.games.pizzatheory.records import DECISION_COLUMNS, GAME_COLUMNS, SEAT_COLUMNS
from sims.games.pizzatheory.rules import Rules
from sims.games.pizzatheory.strategies import STRATEGIES, HeuristicStrategy, make_strategy

COLOURS = 3
NEUTRAL = 2
P_PLACE, P_CUT, P_NEUTRAL = 0, 1, 2
# the rule options as integers (``rules_array``)
(R_FIRST, R_ROTATION, R_ORDER, R_TWO_TIE, R_SAFETY, R_PLACEMENT, R_SUPPLY, R_RUNOUT, R_ROUNDS,
 R_CYCLE) = range(10)  # fmt: skip
ROTATION_STEP = {"clockwise": -1, "counterclockwise": 1, "none": 0}
# tallies per colour (the engine's Tally, in SEAT_COLUMNS order after won/score/toppings)
T_PLACED, T_CAPTURED, T_LOST, T_SAFE_ROUNDS, T_SAVED, T_SKIPPED = range(6)
N_TALLY = 6
ENDING_WIN, ENDING_TIEBREAK, ENDING_DRAW, ENDING_NEUTRAL = range(4)
N_SEAT = len(SEAT_COLUMNS)
N_GAME = len(GAME_COLUMNS) + 1  # and the decisions
N_DEC = len(DECISION_COLUMNS)
K_RANDOM, K_SWING, K_MIXED = range(3)
KINDS = {"random": K_RANDOM, "greedy": K_SWING, "heuristic": K_SWING, "mixed": K_MIXED}
"""The families the kernel plays, as its seat kinds: every one Pizza Theory has."""
assert set(KINDS) == set(STRATEGIES)


def rules_array(rules: Rules) -> np.ndarray:
    """The rule options as the kernel's int64 array (``R_*``)."""
    return np.array([
        rules.first_seat, ROTATION_STEP[rules.rotation],
        1 if rules.replacement_order == "by-space" else 0,
        1 if rules.two_way_tie == "nothing" else 0, int(rules.safety),
        1 if rules.placement == "anywhere" else 0, rules.supply, int(rules.runout_tiebreak),
        rules.max_rounds, int(rules.cycle_first_seat),
    ], dtype=np.int64)  # fmt: skip


@cache
def board_arrays(board: Board) -> tuple[np.ndarray, ...]:
    """The kernel's board arrays: adjacency, regions (216, spaces), start, touch, and each
    triple's lines and region count (``kernel_swing.triple_tables``)."""
    a = board.arrays()
    n = board.n_spaces
    near = a["near"]
    adjacency = np.ascontiguousarray(a["adjacency"])
    touch = np.zeros((N_DIRECTIONS, LINES_PER_DIRECTION, n), dtype=np.int64)
    for d in range(N_DIRECTIONS):
        for k in range(LINES_PER_DIRECTION):
            for i in range(n):
                touch[d, k, i] = any(near[d, k, j] != near[d, k, i]
                                     for j in board.adjacency[i])  # fmt: skip
    regions = np.ascontiguousarray(a["regions"].reshape(-1, n).astype(np.int64))
    if int(regions.max()) >= MAX_REGIONS:  # parse_board refuses such a board (REGIONS)
        raise ValueError(f"board {board.name!r}: a cut triple makes more than {MAX_REGIONS} "
                         "regions; build boards with parse_board")  # fmt: skip
    return (adjacency, regions, np.ascontiguousarray(a["start"]), touch,
            *triple_tables(regions))  # fmt: skip


def seat_arrays(specs: list[str], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's kind (``K_*``) and parameters at ``n`` players (``kernel_swing.SP_*``;
    greedy's fixed ones for greedy, zeros for random) for the kernel."""
    kinds = np.zeros(len(specs), dtype=np.int64)
    sp = np.zeros((len(specs), N_SP), dtype=np.float64)
    for s, text in enumerate(specs):
        strategy = make_strategy(text)  # a preset is the heuristic with its parameters
        name = "heuristic" if isinstance(strategy, HeuristicStrategy) else strategy.spec.name
        kinds[s] = KINDS[name]
        if kinds[s] != K_RANDOM:
            p = strategy.params(n)
            sp[s] = [p["aggression"], p["leader"], p["risk"], p["blind"], p.get("iters", 0)]
    return kinds, sp


@njit(cache=True, inline="always")
def _first_seat(rules, n, game_index):
    """``Rules.first_seat_of``: the seat at position 1 in game ``game_index``'s first
    round."""
    if rules[R_CYCLE] != 0:
        return (rules[R_FIRST] + game_index) % n
    return rules[R_FIRST]


@njit(cache=True, inline="always")
def _positions(rules, first, n, r, pos):
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


@njit(cache=True)
def _play(adjacency, regions, start, touch, tlines, nreg, rules, n, kinds, sp, rngs, seat_out,
          game_out, drec, dcount, game_index, iw, cw, die, cnt, tabs, acc, fout, sc, u, rw,
          w, tk, rxyz):  # fmt: skip
    """One game; writes each seat's row to seat_out (n, N_SEAT) and the game's row to
    game_out (N_GAME,). Scratch: ``iw`` (10, max(spaces, MAX_REGIONS, N_TALLY)) and ``cw``
    (MAX_REGIONS + 8, COLOURS) int64 work rows, each row cut to its length here (a board's
    size is read off ``owner``), ``die`` (max_rounds,); the swing strategies'
    (``kernel_swing``) ``cnt``, ``tabs``, ``acc``, ``fout``, ``sc``, ``u``, ``rw``, ``w``,
    ``tk``, ``rxyz``."""
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
    supply, ran_out, pos, start_pos = (
        cw[MAX_REGIONS],
        cw[MAX_REGIONS + 1],
        cw[MAX_REGIONS + 2],
        cw[MAX_REGIONS + 3],
    )
    order, lines, winners, safe = (
        cw[MAX_REGIONS + 4],
        cw[MAX_REGIONS + 5],
        cw[MAX_REGIONS + 6],
        cw[MAX_REGIONS + 7],
    )
    tally = iw[4:7, :N_TALLY]
    for i in range(nspaces):
        owner[i] = -1
    for c in range(COLOURS):
        supply[c] = total
        ran_out[c] = 0
        for j in range(N_TALLY):
            tally[c, j] = 0
    if n == 2:
        for r in range(rules[R_ROUNDS]):
            die[r] = integers(rngs[0], LINES_PER_DIRECTION)
    first = _first_seat(rules, n, game_index)
    _positions(rules, first, n, 0, pos)
    for c in range(COLOURS):
        start_pos[c] = pos[c]
        for j in range(2):
            _put(owner, supply, ran_out, start[pos[c], j], c)
    ndec = 0
    # the swing strategies' position tables (kernel_swing.position_tables) hold the position
    # of version tv; ver counts the changes to the board
    ver = 0
    tv = -1
    solved = -1  # the round whose cut game rw holds the solution of, and for whom
    solver = 0
    safety_rounds = 0
    ending = ENDING_DRAW
    rounds = rules[R_ROUNDS]
    for r in range(rules[R_ROUNDS]):
        _positions(rules, first, n, r, pos)
        for c in range(COLOURS):
            ran_out[c] = 0
        for p in range(n):  # the seats in turn order
            order[pos[p]] = p
        for q in range(n):  # 1. place
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
                if kinds[seat] == K_RANDOM or r < sp[seat, SP_BLIND]:
                    k = integers(rngs[1 + seat], nl)
                else:
                    k = swing_place(owner, supply, legal, nl, seat, seat, pos[seat], -1, 0,
                                    sp[seat], regions, tlines, nreg, safety, tie_nothing,
                                    total, cnt, tabs, acc, fout, sc, tk, rxyz,
                                    tv != ver)  # fmt: skip
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
        if n == 2:  # the neutral die and topping, laid by the round's first player
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
                    if nl > 1 and kinds[placer] == K_RANDOM:
                        k = integers(rngs[1 + placer], nl)
                    elif nl > 1:
                        k = swing_place(owner, supply, legal, nl, NEUTRAL, placer,
                                        pos[placer], pos[NEUTRAL], line, sp[placer], regions,
                                        tlines, nreg, safety, tie_nothing, total, cnt, tabs,
                                        acc, fout, sc, tk, rxyz, tv != ver)  # fmt: skip
                        tv = ver
                    if nl > 1:
                        _log(drec, dcount, game_index, r, order[0], pos[order[0]], P_NEUTRAL,
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
            seat = order[q]
            if kinds[seat] == K_RANDOM:
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
                for j in range(sp.shape[1]):
                    if sp[seat, j] != sp[solver, j]:
                        same = False
                if not same:
                    mixed_mix(owner, supply, seat, order, n, pos, kl, sp[seat], regions,
                              tlines, nreg, safety, tie_nothing, total, cnt, tabs, sc, u, rw,
                              w, tv != ver)  # fmt: skip
                    tv = ver
                    solved = r
                    solver = seat
                mix = rw[1, q]
                x = next_double(rngs[1 + seat])
                line = LINES_PER_DIRECTION - 1
                share = 0.0
                for j in range(LINES_PER_DIRECTION - 1):
                    share = share + mix[j]
                    if share > x:
                        line = j
                        break
            _log(drec, dcount, game_index, r, seat, pos[seat], P_CUT, line,
                 LINES_PER_DIRECTION, owner, supply, total)  # fmt: skip
            ndec += 1
            lines[pos[seat]] = line
        t = (lines[0] * LINES_PER_DIRECTION + lines[1]) * LINES_PER_DIRECTION + lines[2]
        region = regions[t]
        if _resolve(owner, supply, ran_out, tally, rules, region, nspaces, counts, safe,
                    removed, refill, tops, fills):  # fmt: skip
            safety_rounds += 1
        ver += 1  # the swing strategies' tables are out of date
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
            rounds = r + 1
            break
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
    game_out[0] = rounds
    game_out[1] = ending
    game_out[2] = safety_rounds
    game_out[3] = total - supply[NEUTRAL] if n == 2 else -1
    game_out[4] = ndec


@njit(cache=True)
def play_games_kernel(adjacency, regions, start, touch, tlines, nreg, rules, n, kinds, sp,
                      study_seed, first_index, seats, games, drec, dcount):  # fmt: skip
    """Play games ``first_index ..`` of a study, seat ``s`` of kind ``kinds[s]`` with
    parameters ``sp[s]``: seats (count, n, N_SEAT), games (count, N_GAME), decision
    records from row dcount[0] of drec."""
    rngs = np.zeros((n + 1, 5), dtype=np.uint64)
    iw = np.zeros((10, max(adjacency.shape[0], MAX_REGIONS, N_TALLY)), dtype=np.int64)
    cw = np.zeros((MAX_REGIONS + 8, COLOURS), dtype=np.int64)
    die = np.zeros(rules[R_ROUNDS], dtype=np.int64)
    cnt = np.zeros((TRIPLES, MAX_REGIONS, COLOURS), dtype=np.int64)
    tabs = np.zeros((4, TRIPLES, COLOURS), dtype=np.int64)
    acc = np.zeros((LINES_PER_DIRECTION, 9), dtype=np.int64)
    fout = np.zeros(LINES_PER_DIRECTION)
    sc = np.zeros((4, COLOURS), dtype=np.int64)
    u = np.zeros((3, LINES_PER_DIRECTION, LINES_PER_DIRECTION, LINES_PER_DIRECTION))
    rw = np.zeros((4, 3, LINES_PER_DIRECTION))
    w = np.zeros((LINES_PER_DIRECTION, LINES_PER_DIRECTION))
    tk = np.zeros((LINES_PER_DIRECTION, TRIPLES // LINES_PER_DIRECTION), dtype=np.int64)
    rxyz = np.zeros((3, TRIPLES, MAX_REGIONS), dtype=np.int64)
    for g in range(seats.shape[0]):
        game_streams_into(study_seed, first_index + g, n + 1, rngs)
        _play(adjacency, regions, start, touch, tlines, nreg, rules, n, kinds, sp, rngs,
              seats[g], games[g], drec, dcount, first_index + g, iw, cw, die, cnt, tabs, acc,
              fout, sc, u, rw, w, tk, rxyz)  # fmt: skip


def play_many(board: Board, rules: Rules, n: int, study_seed: int, first_index: int,
              count: int, records: bool = False,
              strategies: list[str] | str | None = None):  # fmt: skip
    """Games ``first_index .. first_index + count - 1`` of a study, each seat playing its
    spec of ``strategies`` (one spec for every seat or one per seat; default ``random``;
    the families of :data:`KINDS`).

    Returns
    -------
    seats : int64 array (count, n, len(SEAT_COLUMNS))
    games : int64 array (count, len(GAME_COLUMNS) + 1)
        The game columns, then the real decisions.
    records : int64 array (decisions, len(DECISION_COLUMNS)) or None
    """
    kinds, sp = seat_arrays(seat_specs(strategies or "random", n), n)
    args = (*board_arrays(board), rules_array(rules), n, kinds, sp)
    seats = np.zeros((count, n, N_SEAT), dtype=np.int64)
    games = np.zeros((count, N_GAME), dtype=np.int64)
    rows = count * 40 if records else 0
    while True:
        drec = np.zeros((rows, N_DEC), dtype=np.int64)
        dcount = np.zeros(1, dtype=np.int64)
        play_games_kernel(*args, study_seed, first_index, seats, games, drec, dcount)
        if not records or dcount[0] <= rows:
            break
        rows = int(dcount[0])  # more decisions than guessed: play the chunk again
    return seats, games, (drec[: dcount[0]] if records else None)


# numba checks a cached function against its own file only: key this kernel's cache on the
# game package's sources, fastrng's and its constants (sims.games.kernel_cache)
_CACHE_KEY = key_caches([kernel_swing, sys.modules[__name__]], "sims.games.pizzatheory")
