"""The kernel's state layout, and every code and table it takes from the reference modules.

Phase codes (``engine.Phase``), strategy codes, the rule options' indices and encodings
(``rules_array``), the rows and scalars of the state tables ``tab`` and ``ftab`` (the
package docstring describes them), the output columns (``records.py``'s), and the borrowed
views that spare the hot paths numba's reference counting. numba freezes these
module-level values into the compiled functions as constants (``sims.games.kernel_cache``
keys the cache on them).
"""

from __future__ import annotations

import dataclasses
from math import comb

import numpy as np
from numba import carray, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from sims.core.errors import SlicelabError
from sims.games.pieceocake import rules as _rules
from sims.games.pieceocake.cake import MAX_VARIETIES, ROUNDS, SLICES_PER_CAKE
from sims.games.pieceocake.cuts import cut_masks as _cut_masks
from sims.games.pieceocake.engine import Phase
from sims.games.pieceocake.heuristic import GREEDY_PARAMS, PARAM_ORDER
from sims.games.pieceocake.records import DECISION_COLUMNS, SCORE_COLUMNS
from sims.games.pieceocake.rules import MAX_PLAYERS, TWO_PLAYER_PIECES, Rules


def _require(ok: bool, what: str) -> None:
    """Refuse, at import, a fact of the reference modules the kernel's layout cannot hold."""
    if not ok:
        raise ImportError(f"the compiled Piece o' Cake kernel cannot hold this: {what}")


# ----------------------------------------------------------------------------- codes
P_CUT, P_CHOOSE, P_EAT = int(Phase.CUT), int(Phase.CHOOSE), int(Phase.EAT)
P_FEAT, P_FCOUNT = int(Phase.FORGO_EAT), int(Phase.FORGO_COUNT)

STRAT_RANDOM, STRAT_GREEDY, STRAT_HEURISTIC, STRAT_SEARCH = 0, 1, 2, 3
STRATEGY_CODES = {
    "random": STRAT_RANDOM, "greedy": STRAT_GREEDY, "heuristic": STRAT_HEURISTIC,
    "search": STRAT_SEARCH,
}  # fmt: skip

# A seat's parameters (ftab[F_HP + p], hparams rows), in heuristic.PARAM_ORDER.
H_THETA, H_LOSS, H_FEWER, H_MARGIN = (
    PARAM_ORDER.index(k) for k in ("theta", "loss", "fewer", "margin")
)
N_HPARAMS = len(PARAM_ORDER)
_require(N_HPARAMS == 4, "heuristic has the four parameters theta, loss, fewer, margin")
# Then search's (S_BUDGET, S_CUTS: its budget and cuts); a search seat's heuristic
# columns hold the player-count default, which ranks its cut candidates and plays every
# seat of its playouts (SearchStrategy.field_params).
S_BUDGET, S_CUTS = N_HPARAMS, N_HPARAMS + 1
N_SEAT_PARAMS = N_HPARAMS + 2
GREEDY_HP = np.array([float(GREEDY_PARAMS[k]) for k in PARAM_ORDER], dtype=np.float64)
"""greedy's fixed parameters (``heuristic.GREEDY_PARAMS``): a greedy seat plays these
whatever its ``hparams`` row holds."""

# ----------------------------------------------------------------------------- rules
RULE_FIELDS = tuple(f.name for f in dataclasses.fields(Rules))
"""The ``Rules`` options in ``rules_array`` order (the ``R_*`` indices): every field."""

RULE_ENCODINGS: dict[str, dict[str, int]] = {
    "two_player_order": {"alternate": 0, "snake": 1},
    "forgo_eats": {"all": 0, "choose": 1, "none": 2},
    "majority_ties": {"full": 0, "none": 1, "split": 2},
    "tie": {"shared": 0, "cream": 1},
}
"""How ``rules_array`` encodes the options that are strings (ints and bools are stored as
ints). Each must list exactly the values ``Rules`` accepts (checked at import)."""
for _name, _codes in RULE_ENCODINGS.items():
    _require(
        set(_codes) == set(_rules._CHOICES.get(_name, ())),
        f"rule option {_name}'s values {sorted(_rules._CHOICES.get(_name, ()))}",
    )
_require(
    set(RULE_FIELDS) - set(RULE_ENCODINGS)
    == {f for f in RULE_FIELDS if isinstance(getattr(Rules(), f), bool | int)},
    "a rule option that is neither an int, a bool nor an encoded string",
)

(R_FIRST, R_TWO_PIECES, R_TWO_ORDER, R_FORGO_ENDS, R_FORGO_EATS, R_TIES, R_TIE, R_EXACT,
 R_AFTER_TAKE) = (
    RULE_FIELDS.index(k)
    for k in (
        "first_server", "two_player_pieces", "two_player_order", "forgo_ends_picking",
        "forgo_eats", "majority_ties", "tie", "exact_pieces", "forced_forgo_after_take",
    )
)  # fmt: skip
_require(len(RULE_FIELDS) == 9, f"Rules has options the kernel does not know: {RULE_FIELDS}")
ORDER_SNAKE = RULE_ENCODINGS["two_player_order"]["snake"]
EATS_ALL = RULE_ENCODINGS["forgo_eats"]["all"]
EATS_CHOOSE = RULE_ENCODINGS["forgo_eats"]["choose"]
EATS_NONE = RULE_ENCODINGS["forgo_eats"]["none"]
TIES_FULL = RULE_ENCODINGS["majority_ties"]["full"]
TIES_NONE = RULE_ENCODINGS["majority_ties"]["none"]
TIES_SPLIT = RULE_ENCODINGS["majority_ties"]["split"]
TIE_CREAM = RULE_ENCODINGS["tie"]["cream"]


def rules_array(rules: Rules) -> np.ndarray:
    """Encode the rule options for the kernel: every field of ``Rules`` in ``RULE_FIELDS``
    order (the ``R_*`` indices). Every option is played (``tie`` decides only win shares:
    a search seat's playout outcomes, ``search._outcome``)."""
    out = np.zeros(len(RULE_FIELDS), dtype=np.int64)
    for i, name in enumerate(RULE_FIELDS):
        value = getattr(rules, name)
        if name in RULE_ENCODINGS:
            if value not in RULE_ENCODINGS[name]:
                raise SlicelabError(f"the compiled kernel cannot play {name}={value!r}")
            out[i] = RULE_ENCODINGS[name][value]
        else:
            out[i] = int(value)
    return out


# ----------------------------------------------------------------------------- tables
MAX_SEATS = MAX_PLAYERS
NC = SLICES_PER_CAKE  # slices in a circle (and gaps)
MAX_PIECES = max(TWO_PLAYER_PIECES[1], MAX_PLAYERS)
"""The most pieces a cut can make under any rules (the mask tables' width)."""
MAX_TURNS = max(MAX_SEATS, 4)
"""Turns of a round: one per seat, four at 2 players."""
MAX_DECISIONS = ROUNDS * (1 + 3 * MAX_TURNS + NC)
"""A bound on a game's real decisions: per round the cut, a turn's CHOOSE, FORGO_EAT and
FORGO_COUNT, and an EAT per slice."""

# Scalars in tab[T_G].
(G_N, G_NV, G_NS, G_ROUND, G_SERVER, G_NDEC, G_GAME, G_NPIECES, G_MOST, G_NTURNS,
 G_NMASKS, G_DCOUNT, G_VALUED, G_NFORCED, G_PAUSE, G_PAT, G_PSEAT, G_PPHASE, G_PROUND,
 G_NCAND) = range(20)  # fmt: skip
G_SIZE = 20
# (G_DCOUNT: decision records written so far in the chunk, even past the buffer's end;
# G_VALUED: 1 when a seat plays greedy, heuristic or search, which need the round's tables;
# G_NFORCED: how many first decisions a replay or playout takes from T_HIST instead of
# deciding. A search seat's pause (``search.py``): G_PAUSE set when it reached a decision,
# with the decision's number G_PAT, its seat, phase and round, and its candidates' count
# G_NCAND; every later decision of that replay takes its first legal action.)
# Per-seat columns of tab[T_SEAT + p].
C_EATEN, C_CREAM, C_TAKEN, C_FORGONE, C_FEATEN = range(5)
N_SEAT_COLUMNS = 5

# Rows of the int64 state table. The cake: T_VAR the variety of each slice id; T_VAL,
# T_CREAM, T_COPIES per variety. T_RULES, T_STRAT (code per seat), T_G scalars. The game:
# T_DEAL the shuffled slice ids; T_CIRC the circle's slice ids and T_CVAR their varieties;
# T_LAID per variety the slices laid in circles so far; T_PSTART, T_PLEN, T_PTAKEN the
# cut's pieces (first circle position, length, taker or -1); T_ORDER the round's turn
# order; T_STOP seats stopped by forgoing; T_COLL + p seat p's collected count per variety,
# T_FRESH + p how many of them it collected in this cake (not yet edible by forgoing:
# ``GameState.forgo_edible``); T_SEAT + p its C_* counts. Scratch: T_LIST a decision's free
# pieces or edible varieties; T_M, T_R, T_J, T_E a valuation's context (per variety: the
# valued seat's count, the best other count, the other seats holding it, the valued seat's
# slices edible by forgoing); T_CCNT per variety its slices in the circle; T_LEFT the arc
# each cut of n pieces leaves the server (``choose._cut``); T_KIDX, for the round's circle,
# at column ``arc_id(a, i)`` the column of F_VAL that values the slice i positions from a
# in an arc from a (``v * ARC_STRIDE + k``: its variety v, k slices of v before it in the
# arc), T_OCC its scratch counts; T_TOP, T_NTOP, T_SEC, T_NSEC per variety the largest
# collected count over all seats, how many hold it, the second largest and how many hold
# that (``value._stats``). T_OUT + p: seat p's SCORE_COLUMNS at the end. T_EATV + p:
# seat p's eaten slices per variety (from pieces and by forgoing). T_HIST: the game's
# decisions, each as its index in the legal list (``flow._decide``): the first G_NFORCED
# read (a replay's or playout's forced decisions), the others written as they are taken.
# T_CAND: a search seat's cut candidates (rows of the mask table), when a seat searches.
(T_VAR, T_VAL, T_CREAM, T_COPIES, T_RULES, T_STRAT, T_G, T_DEAL, T_CIRC, T_CVAR, T_LAID,
 T_PSTART, T_PLEN, T_PTAKEN, T_ORDER, T_STOP, T_LIST, T_M, T_R, T_J, T_E, T_CCNT, T_LEFT,
 T_KIDX, T_OCC, T_TOP, T_NTOP, T_SEC, T_NSEC) = range(29)  # fmt: skip
T_COLL = 29
T_FRESH = T_COLL + MAX_SEATS
T_SEAT = T_FRESH + MAX_SEATS
T_OUT = T_SEAT + MAX_SEATS
T_EATV = T_OUT + MAX_SEATS
T_HIST = T_EATV + MAX_SEATS
T_CAND = T_HIST + 1
T_ROWS = T_CAND + 1
T_MIN_WIDTH = 48
_require(
    max(MAX_VARIETIES, NC, G_SIZE, len(RULE_FIELDS), len(SCORE_COLUMNS)) <= T_MIN_WIDTH,
    "the state table's least width",
)

# Rows of the float64 table: F_HP + p seat p's parameters (H_* order); F_ARC + t the
# value to a seat of every arc of the circle by its id (``arc_id``: start a, length L), as
# the server weighing its cut values it; F_VAL the valued seat's slice decision values by
# variety and the slices of it before in the piece (column ``v * ARC_STRIDE + k``); F_DEN
# the heuristic's denominators ``2 * (1 + u / N)`` by variety, for the round.
F_HP = 0
F_ARC = F_HP + MAX_SEATS
F_VAL = F_ARC + MAX_SEATS
F_DEN = F_VAL + 1
F_ROWS = F_DEN + 1
ARC_STRIDE = NC + 1
N_ARCS = NC * ARC_STRIDE
F_WIDTH = max(N_ARCS, MAX_VARIETIES * ARC_STRIDE, N_SEAT_PARAMS)
_require(max(N_SEAT_PARAMS, N_ARCS) <= F_WIDTH, "the float table's width")

# The mask table (``runner.cut_tables``), a row per legal cut ascending: MT_MASK the gap
# mask, MT_K its pieces, then per piece its first circle position (MT_START + j), length
# (MT_LEN + j) and arc id (MT_ARC + j: start * ARC_STRIDE + length). The rows grouped by
# piece count (k ascending, then mask ascending): row r's MT_BYK is the r-th grouped
# mask's row and MT_GARC + j its arc ids again (read in sequence by the cut search);
# MT_KSTART, in rows 0 .. MAX_PIECES + 1, where group k starts (it ends where k + 1 does).
MT_MASK, MT_K = 0, 1
MT_START = 2
MT_LEN = MT_START + MAX_PIECES
MT_ARC = MT_LEN + MAX_PIECES
MT_BYK = MT_ARC + MAX_PIECES
MT_GARC = MT_BYK + 1
MT_KSTART = MT_GARC + MAX_PIECES
MT_WIDTH = MT_KSTART + 1
MAX_GROUP = max(comb(NC, k) for k in range(2, MAX_PLAYERS + 1))
"""The most cuts of one piece count the cut search plays out at 3 or more players."""
_require(MAX_DECISIONS <= MAX_GROUP, "a game's decisions in the state table's T_HIST row")
MAX_CUTS = max(len(_cut_masks(most, False)) for most in range(2, MAX_PIECES + 1))
"""The most legal cuts of any rule set (the T_CAND row's width when a seat searches)."""


def arc_id(start: int, length: int) -> int:
    """The column of the arc of ``length`` circle positions from ``start`` in F_ARC rows."""
    return start * ARC_STRIDE + length


(SC_SCORE, SC_MAJ, SC_WON, SC_CREAM, SC_EATEN, SC_COLL, SC_TAKEN, SC_FORGONE,
 SC_FEATEN, SC_WMASK, SC_COLLV, SC_EATV) = (SCORE_COLUMNS.index(c) for c in (
    "score", "majorities", "majorities_won", "cream", "eaten", "collected", "pieces_taken",
    "forgone", "forgo_eaten", "won_mask", "collected_v0", "eaten_v0",
))  # fmt: skip
"""SC_COLLV + v and SC_EATV + v: a seat's collected and eaten slices of variety v."""
_require(
    SCORE_COLUMNS[SC_COLLV : SC_COLLV + MAX_VARIETIES]
    == tuple(f"collected_v{v}" for v in range(MAX_VARIETIES))
    and SCORE_COLUMNS[SC_EATV : SC_EATV + MAX_VARIETIES]
    == tuple(f"eaten_v{v}" for v in range(MAX_VARIETIES))
    and len(SCORE_COLUMNS) == 10 + 2 * MAX_VARIETIES,
    f"unknown score columns in {SCORE_COLUMNS}",
)
(DC_GAME, DC_ROUND, DC_SERVER, DC_SEAT, DC_PHASE, DC_ACTION, DC_NLEGAL, DC_SLICE, DC_VAR,
 DC_OWN, DC_RIVAL, DC_UNSEEN, DC_PIECES, DC_LEFT) = (DECISION_COLUMNS.index(c) for c in (
    "game_index", "round", "server", "seat", "phase", "action", "n_legal", "slice",
    "variety", "own_count", "rival_count", "unseen_left", "pieces", "pieces_left",
))  # fmt: skip
_require(len(DECISION_COLUMNS) == 14, f"unknown decision columns in {DECISION_COLUMNS}")
N_SCORE = len(SCORE_COLUMNS)
N_DEC = len(DECISION_COLUMNS)


# ----------------------------------------------------------------------------- borrowed arrays
@intrinsic
def _voidptr(typingctx, address):
    """An integer address as a ``void *`` (for ``carray``)."""

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(types.uintp), codegen


@njit(cache=True)
def _borrow(a):
    """A view of ``a`` that numba does not reference-count (it has no memory owner).

    Every compiled function increments and decrements, atomically, the count of each
    array it receives; on the hot paths (a call per decision) that would cost as much as
    the game. A borrowed view skips it. The caller must keep ``a`` alive while the view is
    in use: ``game.py`` borrows arrays it holds until the games are played.
    """
    if not a.flags.c_contiguous:
        raise ValueError("the kernel's arrays must be C-contiguous")
    return carray(_voidptr(a.ctypes.data), a.shape, a.dtype)


@njit(cache=True)
def _int_view(a):
    """A borrowed view of float64 array ``a``'s memory as int64 (the bit patterns).

    For doubles >= 0 (never -0.0 or NaN) the patterns order as the values do, equality
    included, so comparing them as integers decides exactly as comparing the values; the
    cut search compares arc values so (integer selects compile without branches)."""
    return carray(_voidptr(a.ctypes.data), a.shape, np.int64)


@njit(cache=True)
def _uint_view(a):
    """A borrowed view of int64 array ``a``'s memory as uint64 (for indices known to be
    >= 0: indexing with them skips the negative-index wraparound)."""
    return carray(_voidptr(a.ctypes.data), a.shape, np.uint64)


@njit(cache=True)
def _new_tables(variety, value, cream, copies, rules, strat, hparams):
    """The state tables of a cake, rule set and seating (the per-game rows are reset by
    ``flow._play``)."""
    ns = variety.shape[0]
    nv = value.shape[0]
    n = strat.shape[0]
    width = max(ns, T_MIN_WIDTH, MAX_GROUP, N_ARCS)
    for p in range(n):
        if strat[p] == STRAT_SEARCH:
            width = max(width, MAX_CUTS)  # T_CAND holds up to every legal cut
    tab = np.zeros((T_ROWS, width), dtype=np.int64)
    for i in range(ns):
        tab[T_VAR, i] = variety[i]
    for v in range(nv):
        tab[T_VAL, v] = value[v]
        tab[T_CREAM, v] = cream[v]
        tab[T_COPIES, v] = copies[v]
    for j in range(rules.shape[0]):
        tab[T_RULES, j] = rules[j]
    for p in range(n):
        tab[T_STRAT, p] = strat[p]
        if strat[p] != STRAT_RANDOM:
            tab[T_G, G_VALUED] = 1
    tab[T_G, G_N] = n
    tab[T_G, G_NV] = nv
    tab[T_G, G_NS] = ns
    ftab = np.zeros((F_ROWS, F_WIDTH))
    for p in range(n):
        for j in range(hparams.shape[1]):
            greedy = strat[p] == STRAT_GREEDY and j < N_HPARAMS
            ftab[F_HP + p, j] = GREEDY_HP[j] if greedy else hparams[p, j]
    return tab, ftab
