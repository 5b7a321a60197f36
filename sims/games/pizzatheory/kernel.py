"""Pizza Theory's compiled kernel: whole games from arrays only, the twin of ``engine.py``
and ``game.play_game`` for every built-in family: ``random``, the swing strategies
``greedy``, ``heuristic`` and ``mixed`` (``kernel_swing.py``) and ``search``
(``kernel_search.py``), the game's flow in ``kernel_flow.py``.

For the same (study seed, game index) it makes the same decisions in the same order and
reaches the same rows (``records.SEAT_COLUMNS``, ``GAME_COLUMNS``, ``DECISION_COLUMNS``):
``tests/games/pizzatheory/test_pizzatheory_kernel.py`` checks it game by game. Its random
streams are :mod:`sims.core.fastrng`'s copy of NumPy's (child 0 of the game's streams rolls
the 2-player neutral die, one ``integers(0, 6)`` per round; child 1 + p is seat p's).

Board arrays (``Board.arrays()``): ``adjacency`` (spaces, degree) padded with -1,
``regions`` (216, spaces) flattened from (6, 6, 6, spaces), ``start`` (3, 2) and
``touch`` (3, 6, spaces), the spaces touching each line (``GameState.touching``), each
triple's lines and region count, and ``cellidx`` (``kernel_swing.cell_index``).
"""

from __future__ import annotations

import sys
from functools import cache

import numpy as np
from numba import njit

from sims.core.fastrng import game_streams_into
from sims.games.flow import seat_specs
from sims.games.kernel_cache import key_caches
from sims.games.pizzatheory import kernel_flow, kernel_search, kernel_swing
from sims.games.pizzatheory.board import LINES_PER_DIRECTION, MAX_REGIONS, N_DIRECTIONS, Board
from sims.games.pizzatheory.kernel_flow import (
    G_NL,
    G_PPHASE,
    G_PSEAT,
    K_MIXED,
    K_RANDOM,
    K_SEARCH,
    K_SWING,
    R_ROUNDS,
    R_SUPPLY,
    workspace,
    write_rows,
)
from sims.games.pizzatheory.kernel_search import decide, playout, search_game, set_position
from sims.games.pizzatheory.kernel_swing import (
    N_SP,
    SP_AGGRESSION,
    SP_ITERS,
    SP_LEADER,
    SP_RISK,
    cell_index,
    triple_tables,
)
from sims.games.pizzatheory.records import DECISION_COLUMNS, GAME_COLUMNS, SEAT_COLUMNS
from sims.games.pizzatheory.rules import Rules
from sims.games.pizzatheory.strategies import STRATEGIES, HeuristicStrategy, make_strategy

ROTATION_STEP = {"clockwise": -1, "counterclockwise": 1, "none": 0}
N_SEAT = len(SEAT_COLUMNS)
N_GAME = len(GAME_COLUMNS) + 1  # and the decisions
N_DEC = len(DECISION_COLUMNS)
KINDS = {"random": K_RANDOM, "greedy": K_SWING, "heuristic": K_SWING, "mixed": K_MIXED,
         "search": K_SEARCH}  # fmt: skip
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
    """The kernel's board arrays: adjacency, regions (216, spaces), start, touch, each
    triple's lines and region count (``kernel_swing.triple_tables``) and the cells a
    placement's lines sum (``kernel_swing.cell_index``)."""
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
            *triple_tables(regions), cell_index(regions))  # fmt: skip


def seat_arrays(specs: list[str], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's kind (``K_*``) and parameters at ``n`` players (``kernel_swing.SP_*``;
    greedy's fixed ones for greedy, zeros for random, ``SearchStrategy.kernel_row`` for
    search) for the kernel."""
    kinds = np.zeros(len(specs), dtype=np.int64)
    sp = np.zeros((len(specs), N_SP), dtype=np.float64)
    for s, text in enumerate(specs):
        strategy = make_strategy(text)  # a preset is the heuristic with its parameters
        name = "heuristic" if isinstance(strategy, HeuristicStrategy) else strategy.spec.name
        kinds[s] = KINDS[name]
        if kinds[s] == K_SEARCH:
            sp[s] = strategy.kernel_row(n)
        elif kinds[s] != K_RANDOM:
            p = strategy.params(n)
            row = [p["aggression"], p["leader"], p["risk"], p["blind"], p.get("iters", 0)]
            sp[s, : len(row)] = row
    return kinds, sp


@njit(cache=True)
def play_games_kernel(adjacency, regions, start, touch, tlines, nreg, cellidx, rules, n, kinds,
                      sp, study_seed, first_index, seats, games, drec, dcount):  # fmt: skip
    """Play games ``first_index ..`` of a study, seat ``s`` of kind ``kinds[s]`` with
    parameters ``sp[s]``: seats (count, n, N_SEAT), games (count, N_GAME), decision
    records from row dcount[0] of drec."""
    bt = (adjacency, regions, start, touch, tlines, nreg, cellidx)
    rngs = np.zeros((n + 1, 5), dtype=np.uint64)
    ws = workspace(adjacency.shape[0], rules[R_ROUNDS])
    pws = workspace(adjacency.shape[0], rules[R_ROUNDS])
    nodrec = np.zeros((0, N_DEC), dtype=np.int64)
    nocount = np.zeros(1, dtype=np.int64)
    for g in range(seats.shape[0]):
        game_streams_into(study_seed, first_index + g, n + 1, rngs)
        search_game(bt, rules, n, kinds, sp, rngs, ws, pws, drec, dcount, first_index + g,
                    seats[g], games[g], nodrec, nocount)  # fmt: skip


@njit(cache=True)
def playout_kernel(adjacency, regions, start, touch, tlines, nreg, cellidx, rules, n, field,
                   model, owner, supply, pos, r, first, step, lines, die, forced, cutu,
                   out):  # fmt: skip
    """One playout of ``search.SearchStrategy`` (``kernel_search.playout``): from the
    position (``owner``, ``supply``, the turn positions ``pos``, round ``r``, the game's
    first seat, the step of the round, this round's ``lines`` by direction and the die's
    rolls), the decision at ``step`` taken as ``forced``, every seat playing the heuristic
    with the valuation ``field`` (aggression, leader, risk) and the other seats' cuts of
    round ``r`` drawn by ``cutu`` (by seat, -1: none) from the mixes of the cut game valued
    by ``model`` (aggression, leader, iters). Writes each seat's ``won`` and toppings to
    ``out`` (n, 2) and returns the ending."""
    bt = (adjacency, regions, start, touch, tlines, nreg, cellidx)
    pws = workspace(adjacency.shape[0], rules[R_ROUNDS])
    pkinds = np.full(n, K_SWING, dtype=np.int64)
    psp = np.zeros((n, N_SP))
    msp = np.zeros(N_SP)
    for p in range(n):
        psp[p, SP_AGGRESSION] = field[0]
        psp[p, SP_LEADER] = field[1]
        psp[p, SP_RISK] = field[2]
    msp[SP_AGGRESSION] = model[0]
    msp[SP_LEADER] = model[1]
    msp[SP_ITERS] = model[2]
    prngs = np.zeros((n + 1, 5), dtype=np.uint64)
    nodrec = np.zeros((0, N_DEC), dtype=np.int64)
    nocount = np.zeros(1, dtype=np.int64)
    playout(bt, rules, n, pws, pkinds, psp, prngs, owner, supply, pos, r, first, step, lines,
            die, forced, cutu, msp, nodrec, nocount, np.zeros((3, LINES_PER_DIRECTION)),
            False)  # fmt: skip
    seat_out = np.zeros((n, N_SEAT), dtype=np.int64)
    game_out = np.zeros(N_GAME, dtype=np.int64)
    write_rows(pws, n, rules[R_SUPPLY], seat_out, game_out)
    for s in range(n):
        out[s, 0] = seat_out[s, 0]
        out[s, 1] = seat_out[s, 2]
    return game_out[1]


@njit(cache=True)
def decide_kernel(adjacency, regions, start, touch, tlines, nreg, cellidx, rules, n, sp, seat,
                  phase, owner, supply, pos, r, first, step, lines, die, legal,
                  stream):  # fmt: skip
    """The compiled search's decision (``kernel_search.decide``) of ``seat`` (parameters
    ``sp[seat]``) at a position, its samples drawn from ``stream`` (advanced in place);
    ``lines`` and ``die`` may hold what the seat cannot see (the other seats' cuts of the
    round, the die's later rolls): the decision must not depend on them (a test)."""
    bt = (adjacency, regions, start, touch, tlines, nreg, cellidx)
    ws = workspace(adjacency.shape[0], rules[R_ROUNDS])
    pws = workspace(adjacency.shape[0], rules[R_ROUNDS])
    set_position(ws, adjacency.shape[0], n, owner, supply, pos, r, first, step, lines, die)
    gs = ws[15]
    gs[G_PSEAT] = seat
    gs[G_PPHASE] = phase
    gs[G_NL] = legal.shape[0]
    for j in range(legal.shape[0]):
        ws[0][1, j] = legal[j]
    rngs = np.zeros((n + 1, 5), dtype=np.uint64)
    for j in range(5):
        rngs[1 + seat, j] = stream[j]
    nodrec = np.zeros((0, N_DEC), dtype=np.int64)
    nocount = np.zeros(1, dtype=np.int64)
    action = decide(bt, rules, n, sp, rngs, ws, pws, nodrec, nocount)
    for j in range(5):
        stream[j] = rngs[1 + seat, j]
    return action


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
    per = 72 if (kinds == K_SEARCH).any() else 40  # decisions a game, guessed
    rows = count * per if records else 0
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
_CACHE_KEY = key_caches([kernel_swing, kernel_flow, kernel_search, sys.modules[__name__]],
                        "sims.games.pizzatheory")  # fmt: skip
