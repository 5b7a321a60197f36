"""Compiled New York Slice kernel: whole games with the built-in strategies, from arrays only.

The kernel is the fast twin of the reference engine (``engine.py``) and of the built-in
strategies (``random`` and ``greedy`` of ``strategies.py``, the ``heuristic(...)`` family
of ``heuristic.py`` with per-seat parameters): for the same deal stream, seat streams and
strategies it makes the same decisions in the same order and reaches the same scores. It
takes only arrays and scalars; its random streams are :mod:`sims.core.fastrng`'s
bit-exact copy of NumPy's ``integers`` and ``shuffle``, so both engines consume one stream
identically. ``tests/test_nyslice_kernel.py`` checks the agreement on thousands of games.

Besides whole study games (``KernelRunner.play``/``play_many``) it plays *playouts*
(``KernelRunner.play_deal``): a game from an explicit ``engine.Deal`` whose first real
decisions take the actions of a given prefix (``GameState.history``), the strategies
deciding the rest; the search player runs thousands of them per game
(``tests/test_nyslice_search.py``).

Why the state is laid out as it is: numba reference-counts every array a compiled function
or inlined helper receives (an atomic increment and decrement per array and per call),
which made a bundle of thirty state arrays cost more than the game itself. So the whole
state lives in one int64 table ``tab`` and one float64 table ``ftab``, which ``_play``
passes on as borrowed views that are not counted (``_borrow``); a round is one compiled
function with its small helpers inlined; and greedy reads majority counts and unclaimed
counts from tallies kept up to date as slices move, instead of rescanning every hand at
every decision.

State encoding: ``tab[T_X]`` is row ``T_X``; a group ``T_X + i`` has one row per seat,
portion or round. All int64.

- ``T_KIND, T_TA, T_TB, T_PEP, T_ANCH``: the deck by slice id (``Deck.arrays``);
  ``T_INMYST``: 1 for the slices dealt to the mystery pool.
- ``T_G``: scalars, indexed by the ``G_*`` constants.
- ``T_RULES``: the ``Rules`` options by the ``R_*`` indices; ``T_STRAT``: strategy per seat.
- ``T_COLL + p``, ``T_EAT + p``: seat p's collected and eaten slices in the order they
  arrived (the order matters: decisions iterate over it); ``T_NCOLL[p]``, ``T_NEAT[p]``
  their lengths.
- Tallies per type t: ``T_NUM + p`` seat p's collected numbered slices, ``T_CMB + p`` its
  collected combos showing t, ``T_HID + p`` its numbered slices eaten face down (Mystery);
  ``T_UNC`` the numbered slices not removed at setup that no one has collected or eaten.
  ``T_NANCH[p]``: seat p's collected Anchovy slices; ``T_NBLANK[p]``: 1 once seat p has
  taken a blank tile (several seats may, when a deck holds several blanks).
- ``T_SP_OWNER, T_SP_ROUND, T_SP_USED``: per special code, owner seat (-1), round acquired
  (-1), used (0/1). The blank (``S_BLANK``) has a column too, but its owners are
  ``T_NBLANK``; nothing reads its column.
- ``T_PIZZA[:g[G_M]]``: the circle; ``T_POR + i``: portion i's slices in circle order,
  ``T_POR_LEN[i]`` their count, ``T_POR_SP[i]`` 1 if it holds the special,
  ``T_POR_TAKEN[i]`` its taker or -1.
- ``T_STACKS + r``, ``T_STACK_SP[r]``: the deal; ``T_REPL`` the replacement pile (head and
  tail in g); ``T_MYST`` the mystery pool (head and size in g).
- The other rows are scratch (listed with the ``T_*`` constants): the lists a decision is
  asked about (legal actions, free portions, slices being taken, sneak moves), greedy's
  work rows, and scoring's (``T_OUT + p`` holds seat p's ``SCORE_COLUMNS`` from the last
  ``_score``).

``ftab`` (float64): ``F_SPV`` greedy's special values; ``F_MINE``, ``F_RIVAL`` greedy's
per-type counts of the deciding seat and of its best rival; ``F_HP + p`` seat p's heuristic
parameters (``heuristic.PARAM_ORDER``); the rest is valuation and cut-search scratch.
``trace[k] = (player, phase, action)`` of every real decision.

The heuristic repeats ``heuristic.py``'s float operations in the same order (so its ties
and thresholds come out exactly); its cut walks every legal cut as the reference does, but
predicts the choosers only where a bound from the first two picks cannot rule the cut out
(``_h_best_cut``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import carray, int64, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from sims.core.fastrng import game_streams_into, integers, shuffle
from sims.games.nyslice.deck import Special
from sims.games.nyslice.engine import Phase
from sims.games.nyslice.heuristic import PARAM_ORDER
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
N_SPECIALS = 14  # the real specials; a blank tile (deck.Special.BLANK) has code 14
S_BLANK = 14
N_TILE_CODES = 15
NO_SPECIAL = -1

# Strategy codes.
STRAT_RANDOM, STRAT_GREEDY, STRAT_HEURISTIC = 0, 1, 2
STRATEGY_CODES = {"random": STRAT_RANDOM, "greedy": STRAT_GREEDY, "heuristic": STRAT_HEURISTIC}

# The heuristic's parameters in a row of ftab (heuristic.PARAM_ORDER).
(H_THETA, H_SHARP, H_HORIZON, H_DENY, H_TRUST,
 H_SPECIALS, H_SUPREME, H_DIBS, H_CIL, H_SNEAK) = range(10)  # fmt: skip
N_HPARAMS = 10
assert PARAM_ORDER == (
    "theta", "sharp", "horizon", "deny", "trust", "specials", "supreme", "dibs", "cil", "sneak"
)  # fmt: skip

# Scalars in tab[T_G].
G_N, G_ROUNDS, G_ROUND, G_SLICER, G_SPECIAL, G_M, G_CIRC, G_NPOR = range(8)
G_SUPH, G_SUPT, G_MYH, G_RPH, G_RPT, G_NTRACE, G_GAME, G_NMYST = range(8, 16)
G_SIZE = 16

# Rules options in tab[T_RULES] (order of the Rules fields that matter here).
R_FIRST, R_BOTTOM, R_DIBS_SLICER, R_DIBS_CLOSE, R_SNEAK_SPONLY = range(5)
R_VEG_LATER, R_SUP_COMBO, R_SUP_SAME, R_SUP_LATE, R_SEC_SUP, R_SEC_ALONE = range(5, 11)

MAX_SEATS, MAX_ROUNDS, MAX_PORTIONS = 6, 6, 7

# Rows of the state table (see the module docstring). Scratch rows: T_DEAL, T_SPORD the
# deal's shuffles (T_DEAL also an explicit deal's removed slices); T_ROT the circle while
# Dibs! opens it; T_STARTS the cut's arc starts;
# T_ORDER seats in choosing order; T_FREE untaken portions (CHOOSE's actions); T_LEGAL the
# Supreme's or Seconds' actions; T_TAKE the slices a seat is taking; T_SNAP its collection
# when Combo Cravings or You Love Veggies arrives; T_FLAGS types eligible for the Supreme;
# T_CAND Seconds' candidates; T_LIVE, T_MV_SRC/DST/END Sneak-a-Slice's moves. Greedy's:
# T_UNCL unclaimed per type; T_COMB the cut search's positions; T_GCAND and T_MASK Seconds
# trials; T_TMP_SRC/DST a sneak move's two portions. Scoring's: T_WIN majority winners.
(
    T_KIND, T_TA, T_TB, T_PEP, T_ANCH, T_INMYST,
    T_G, T_RULES, T_STRAT,
    T_NCOLL, T_NEAT, T_NANCH, T_NBLANK, T_UNC,
    T_SP_OWNER, T_SP_ROUND, T_SP_USED,
    T_PIZZA, T_POR_LEN, T_POR_SP, T_POR_TAKEN,
    T_STACK_SP, T_REPL, T_MYST,
    # scratch
    T_DEAL, T_SPORD, T_ROT, T_STARTS, T_ORDER, T_FREE, T_LEGAL, T_TAKE, T_SNAP, T_FLAGS,
    T_CAND, T_LIVE, T_MV_SRC, T_MV_DST, T_MV_END,
    T_UNCL, T_COMB, T_GCAND, T_MASK, T_TMP_SRC, T_TMP_DST, T_WIN,
) = range(46)  # fmt: skip
T_STACKS = 46
T_COLL = T_STACKS + MAX_ROUNDS
T_EAT = T_COLL + MAX_SEATS
T_NUM = T_EAT + MAX_SEATS
T_CMB = T_NUM + MAX_SEATS
T_HID = T_CMB + MAX_SEATS
T_POR = T_HID + MAX_SEATS
T_SCNT = T_POR + MAX_PORTIONS  # scoring: majority counts in halves per seat and type
T_OUT = T_SCNT + MAX_SEATS  # scoring: SCORE_COLUMNS per seat
T_ROWS = T_OUT + MAX_SEATS

# Rows of the float table; its width holds the 15 special codes (the blank too) and a
# pizza's 11 + 1 prefix sums.
# The heuristic's: F_HP + p seat p's parameters (H_* order); F_HCNT + p seat p's type
# counts; F_HPRE + p seat p's prefix sums of the pizza's slice values and F_HSUM + p its
# values of the portions of the cut being weighed (both valued by the slicer's valuer).
F_SPV, F_MINE, F_RIVAL, F_VAL, F_PREFIX, F_SUMS, F_PV = range(7)
F_HP = 7
F_HCNT = F_HP + MAX_SEATS
F_HPRE = F_HCNT + MAX_SEATS
F_HSUM = F_HPRE + MAX_SEATS
F_ROWS, F_WIDTH = F_HSUM + MAX_SEATS, 16

# Score columns of the kernel's output; the masks have bit s set for special code s (bit 14:
# a blank tile); majorities_won counts the types whose majority the seat scored.
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
    "majorities_won",
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

SPECIAL_VALUES = np.array(
    [SPECIAL_VALUE[Special(i)] for i in range(N_TILE_CODES)], dtype=np.float64
)


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
    array it receives; on the hot paths that cost more than the game itself. A borrowed
    view skips it (the count calls see no owner and return at once). The caller must keep
    ``a`` alive while the view is in use: ``_play`` borrows its arguments, which its caller
    holds until it returns.
    """
    if not a.flags.c_contiguous:
        raise ValueError("the kernel's arrays must be C-contiguous")
    return carray(_voidptr(a.ctypes.data), a.shape, a.dtype)


# ----------------------------------------------------------------------------- combinatorics
# C(n, k) for n < 16: a cut chooses among at most 11 positions (numba freezes it as a constant).
_BINOM = np.array([[math.comb(n, k) for k in range(16)] for n in range(16)], dtype=np.int64)


@njit(cache=True)
def _comb(n, k):
    if k < 0 or k > n:
        return 0
    if n < _BINOM.shape[0]:
        return _BINOM[n, k]
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


# ----------------------------------------------------------------------------- state helpers
@njit(cache=True, inline="always")
def _owns(tab, seat, sp):
    return tab[T_SP_OWNER, sp] == seat


@njit(cache=True, inline="always")
def _can_use(tab, seat, sp):
    return (
        tab[T_SP_OWNER, sp] == seat
        and tab[T_SP_USED, sp] == 0
        and tab[T_SP_ROUND, sp] < tab[T_G, G_ROUND]
    )


@njit(cache=True, inline="always")
def _count2(tab, seat, t):
    """Seat's majority count of type t (3..11) in halves (scoring.type_counts_halves)."""
    per_combo = 4 if tab[T_SP_OWNER, S_SUPER] == seat else 1
    c = 2 * tab[T_NUM + seat, t] + per_combo * tab[T_CMB + seat, t]
    if tab[T_G, G_SUPH] == seat and tab[T_G, G_SUPT] == t:
        c += 2
    return c


@njit(cache=True, inline="always")
def _unclaimed(tab, seat, t):
    """Numbered slices of type t that seat does not see claimed (view.unclaimed): in play and
    neither collected nor eaten, or eaten face down by another seat."""
    u = tab[T_UNC, t]
    for q in range(tab[T_G, G_N]):
        if q != seat:
            u += tab[T_HID + q, t]
    return u


@njit(cache=True, inline="always")
def _tally(tab, seat, sid, d):
    """Add d to seat's collection tallies for slice sid."""
    k = tab[T_KIND, sid]
    if k == K_NUM:
        tab[T_NUM + seat, tab[T_TA, sid]] += d
    elif k == K_COMBO:
        tab[T_CMB + seat, tab[T_TA, sid]] += d
        tab[T_CMB + seat, tab[T_TB, sid]] += d
    elif k == K_ANCH:
        tab[T_NANCH, seat] += d


@njit(cache=True, inline="always")
def _collect(tab, seat, sid):
    """Seat collects slice sid from the table."""
    tab[T_COLL + seat, tab[T_NCOLL, seat]] = sid
    tab[T_NCOLL, seat] += 1
    _tally(tab, seat, sid, 1)
    if tab[T_KIND, sid] == K_NUM:
        tab[T_UNC, tab[T_TA, sid]] -= 1


@njit(cache=True, inline="always")
def _eat(tab, seat, sid):
    """Seat eats slice sid from the table; from the mystery pool it goes face down."""
    tab[T_EAT + seat, tab[T_NEAT, seat]] = sid
    tab[T_NEAT, seat] += 1
    if tab[T_KIND, sid] == K_NUM:
        t = tab[T_TA, sid]
        tab[T_UNC, t] -= 1
        if tab[T_INMYST, sid] == 1:
            tab[T_HID + seat, t] += 1


@njit(cache=True)
def _move_to_eaten(tab, seat, sid):
    """Seat eats slice sid from its collection (the others keep their order)."""
    j = 0
    for i in range(tab[T_NCOLL, seat]):
        x = tab[T_COLL + seat, i]
        if x != sid:
            tab[T_COLL + seat, j] = x
            j += 1
    tab[T_NCOLL, seat] = j
    _tally(tab, seat, sid, -1)
    tab[T_EAT + seat, tab[T_NEAT, seat]] = sid
    tab[T_NEAT, seat] += 1


@njit(cache=True, inline="always")
def _edible(tab, seat, sid, portion_special):
    k = tab[T_KIND, sid]
    if k == K_ANCH:
        return False
    if k == K_COMBO and _owns(tab, seat, S_CRAV):
        return True
    if k == K_NUM and tab[T_TA, sid] == 3:
        if portion_special == S_YLV or (tab[T_RULES, R_VEG_LATER] == 1 and _owns(tab, seat, S_YLV)):
            return True
    return tab[T_PEP, sid] >= 1


@njit(cache=True, inline="always")
def _may_give(tab, idx):
    return tab[T_POR_LEN, idx] > 1 or (
        tab[T_POR_SP, idx] == 1 and tab[T_RULES, R_SNEAK_SPONLY] == 1
    )


@njit(cache=True)
def _sneak_moves(tab):
    """Fill T_MV_SRC/DST/END with engine.sneak_moves (src, dst, from_end); return the count."""
    nl = 0
    for i in range(tab[T_G, G_NPOR]):
        if tab[T_POR_TAKEN, i] < 0 and tab[T_POR_LEN, i] > 0:
            tab[T_LIVE, nl] = i
            nl += 1
    if tab[T_G, G_CIRC] == 1:
        npairs = nl if nl >= 2 else 0
    else:
        npairs = nl - 1 if nl >= 1 else 0
    nm = 0
    for j in range(npairs):
        x = tab[T_LIVE, j]
        y = tab[T_LIVE, (j + 1) % nl]
        if _may_give(tab, x):
            tab[T_MV_SRC, nm] = x
            tab[T_MV_DST, nm] = y
            tab[T_MV_END, nm] = 1
            nm += 1
        if _may_give(tab, y):
            tab[T_MV_SRC, nm] = y
            tab[T_MV_DST, nm] = x
            tab[T_MV_END, nm] = 0
            nm += 1
    return nm


@njit(cache=True)
def _seconds_candidates(tab, seat, t, row):
    """Write engine._seconds_candidates(seat, t) into tab[row]; return their count."""
    n = 0
    for i in range(tab[T_NCOLL, seat]):
        sid = tab[T_COLL + seat, i]
        k = tab[T_KIND, sid]
        if (k == K_NUM and tab[T_TA, sid] == t and tab[T_PEP, sid] >= 1) or (
            k == K_SUP
            and tab[T_RULES, R_SEC_SUP] == 1
            and tab[T_G, G_SUPH] == seat
            and tab[T_G, G_SUPT] == t
        ):
            tab[row, n] = sid
            n += 1
    return n


# ----------------------------------------------------------------------------- scoring
@njit(cache=True)
def _score(tab, mseat, only):
    """Score every seat (only seat ``only`` if >= 0) into tab[T_OUT + p, SCORE_COLUMNS].

    If mseat >= 0, its collected slices flagged in tab[T_MASK] count as eaten (greedy's
    Seconds trials).
    """
    n = tab[T_G, G_N]
    for p in range(n):
        for t in range(3, 12):
            tab[T_SCNT + p, t] = _count2(tab, p, t)
    moved = 0
    if mseat >= 0:
        per_combo = 4 if _owns(tab, mseat, S_SUPER) else 1
        for i in range(tab[T_NCOLL, mseat]):
            sid = tab[T_COLL + mseat, i]
            if tab[T_MASK, sid] == 0:
                continue
            moved += 1
            k = tab[T_KIND, sid]
            if k == K_NUM:
                tab[T_SCNT + mseat, tab[T_TA, sid]] -= 2
            elif k == K_COMBO:
                tab[T_SCNT + mseat, tab[T_TA, sid]] -= per_combo
                tab[T_SCNT + mseat, tab[T_TB, sid]] -= per_combo
            elif k == K_SUP and tab[T_G, G_SUPH] == mseat and tab[T_G, G_SUPT] > 0:
                tab[T_SCNT + mseat, tab[T_G, G_SUPT]] -= 2
    for t in range(3, 12):
        tab[T_WIN, t] = -1
        best = 0
        for p in range(n):
            if tab[T_SCNT + p, t] > best:
                best = tab[T_SCNT + p, t]
        if best <= 0:
            continue
        nlead = 0
        lead = -1
        for p in range(n):
            if tab[T_SCNT + p, t] == best:
                nlead += 1
                lead = p
        if nlead == 1:
            tab[T_WIN, t] = lead
        else:
            for p in range(n):
                if tab[T_SCNT + p, t] == best and _owns(tab, p, S_TIE):
                    tab[T_WIN, t] = p
                    break
    for p in range(n):
        if only >= 0 and p != only:
            continue
        maj = 0
        won = 0
        for t in range(3, 12):
            if tab[T_WIN, t] == p:
                maj += t
                won += 1
        pepper = 0
        eaten_combo = 0
        eaten_veg = 0
        anch = 0
        anch_slice = 0
        for i in range(tab[T_NEAT, p]):
            sid = tab[T_EAT + p, i]
            pepper += tab[T_PEP, sid]
            if tab[T_KIND, sid] == K_COMBO:
                eaten_combo += 1
            elif tab[T_KIND, sid] == K_NUM and tab[T_TA, sid] == 3:
                eaten_veg += 1
        for i in range(tab[T_NCOLL, p]):
            sid = tab[T_COLL + p, i]
            if p == mseat and tab[T_MASK, sid] == 1:
                pepper += tab[T_PEP, sid]
                if tab[T_KIND, sid] == K_COMBO:
                    eaten_combo += 1
                elif tab[T_KIND, sid] == K_NUM and tab[T_TA, sid] == 3:
                    eaten_veg += 1
            else:
                anch += tab[T_ANCH, sid]
                if tab[T_KIND, sid] == K_ANCH:
                    anch_slice = 1
        spec = 0
        if _owns(tab, p, S_BUFFET):
            held = 0
            for t in range(3, 12):
                if tab[T_SCNT + p, t] > 0:
                    held += 1
            spec += held + anch_slice
        if _owns(tab, p, S_CRAV):
            spec += 3 * eaten_combo
        if _owns(tab, p, S_DAYOLD):
            spec -= 2
        if _owns(tab, p, S_STUFFED):
            spec += 5
        if _owns(tab, p, S_YLV):
            spec += 3 * eaten_veg
        m = moved if p == mseat else 0
        eaten_n = tab[T_NEAT, p] + m
        diet = 0
        q = tab[T_SP_OWNER, S_DIET]
        if q >= 0 and q != p:
            diet = -(eaten_n // 2)
        anchovies = anch if _owns(tab, p, S_YLA) else -anch
        out = T_OUT + p
        tab[out, 0] = maj
        tab[out, 1] = spec
        tab[out, 2] = diet
        tab[out, 3] = pepper
        tab[out, 4] = anchovies
        tab[out, 5] = maj + spec + diet + pepper + anchovies
        tab[out, 6] = eaten_n
        tab[out, 7] = tab[T_NCOLL, p] - m
        owned = 0
        used = 0
        for x in range(N_SPECIALS):
            if tab[T_SP_OWNER, x] == p:
                owned |= 1 << x
                if tab[T_SP_USED, x] == 1:
                    used |= 1 << x
        if tab[T_NBLANK, p] == 1:
            owned |= 1 << S_BLANK
        tab[out, 8] = owned
        tab[out, 9] = used
        tab[out, 10] = won


@njit(cache=True)
def _own_total(tab, seat):
    """Seat's final total if it ate its collected slices flagged in tab[T_MASK] now."""
    _score(tab, seat, seat)
    return tab[T_OUT + seat, 5]


# ----------------------------------------------------------------------------- greedy
# The valuations below repeat strategies._Valuer's float operations in the same order, so
# greedy's comparisons (and ties) come out exactly as in the reference.
@njit(cache=True, inline="always")
def _value_type(tab, ftab, seat, t):
    """Fill greedy's tables for type t: F_MINE, F_RIVAL and T_UNCL (view.unclaimed).

    Counts in halves are exact, so half of one equals the reference's float sum of its
    1.0 / 0.5 / 2.0 steps.
    """
    ftab[F_MINE, t] = 0.5 * _count2(tab, seat, t)
    r = 0.0
    for q in range(tab[T_G, G_N]):
        if q != seat:
            c = 0.5 * _count2(tab, q, t)
            if c > r:
                r = c
    ftab[F_RIVAL, t] = r
    tab[T_UNCL, t] = _unclaimed(tab, seat, t)


@njit(cache=True, inline="always")
def _valuer(tab, ftab, seat):
    """Greedy's tables for every type (strategies._Valuer)."""
    for t in range(3, 12):
        _value_type(tab, ftab, seat, t)


@njit(cache=True, inline="always")
def _type_value(tab, ftab, seat, t, w, minus):
    """_Valuer.type_value: one more ``w`` of type t (0 if the majority is lost or safe)."""
    a = ftab[F_MINE, t] - minus
    b = ftab[F_RIVAL, t]
    u = tab[T_UNCL, t]
    reach = a + w + u
    if reach < b or (reach == b and not _owns(tab, seat, S_TIE)):
        return 0.0
    if a - b > u:
        return 0.0
    return t * w / (1.0 + abs(a - b))


@njit(cache=True)
def _collect_value(tab, ftab, seat, has_anch, sid, already):
    """_Valuer.collect_value of slice sid (``already``: it is counted among the seat's)."""
    a_ = float(tab[T_ANCH, sid])
    anch = a_ if _owns(tab, seat, S_YLA) else -a_
    buffet = _owns(tab, seat, S_BUFFET)
    k = tab[T_KIND, sid]
    if k == K_NUM:
        t = tab[T_TA, sid]
        v = _type_value(tab, ftab, seat, t, 1.0, 1.0 if already else 0.0)
        if buffet and not ftab[F_MINE, t] > 0:
            v += 1.0
        return v + anch
    if k == K_COMBO:
        w = 2.0 if _owns(tab, seat, S_SUPER) else 0.5
        v = 0.0
        t = tab[T_TA, sid]
        v += _type_value(tab, ftab, seat, t, w, w if already else 0.0)
        if buffet and not ftab[F_MINE, t] > 0:
            v += 1.0
        t = tab[T_TB, sid]
        v += _type_value(tab, ftab, seat, t, w, w if already else 0.0)
        if buffet and not ftab[F_MINE, t] > 0:
            v += 1.0
        return v + anch
    if k == K_ANCH:
        return anch + (1.0 if buffet and has_anch == 0 else 0.0)
    best = 1.0
    for t in range(3, 12):
        if ftab[F_MINE, t] > 0:
            v = _type_value(tab, ftab, seat, t, 1.0, 0.0)
            if v > best:
                best = v
    return best + anch


@njit(cache=True, inline="always")
def _eat_value(tab, seat, sid, ps):
    """_Valuer.eat_value of slice sid arriving with special ps."""
    v = float(tab[T_PEP, sid])
    k = tab[T_KIND, sid]
    if k == K_COMBO and (_owns(tab, seat, S_CRAV) or ps == S_CRAV):
        v += 3.0
    if k == K_NUM and tab[T_TA, sid] == 3 and (_owns(tab, seat, S_YLV) or ps == S_YLV):
        v += 3.0
    return v


@njit(cache=True, inline="always")
def _g_edible(tab, seat, sid, ps):
    """Greedy's own edibility test (_Valuer.edible: no later-Veggies ruling)."""
    k = tab[T_KIND, sid]
    if k == K_ANCH:
        return False
    if k == K_COMBO and (_owns(tab, seat, S_CRAV) or ps == S_CRAV):
        return True
    if k == K_NUM and tab[T_TA, sid] == 3 and ps == S_YLV:
        return True
    return tab[T_PEP, sid] >= 1


@njit(cache=True)
def _slice_value(tab, ftab, seat, has_anch, sid, ps):
    """_Valuer.slice_value: collecting it, or eating it if that is worth more and allowed."""
    c = _collect_value(tab, ftab, seat, has_anch, sid, False)
    if _g_edible(tab, seat, sid, ps):
        e = _eat_value(tab, seat, sid, ps)
        return e if e > c else c
    return c


@njit(cache=True)
def _portion_value(tab, ftab, seat, has_anch, row, length, has_sp):
    """Value of the slices tab[row, :length] (with the round's special if has_sp)."""
    ps = tab[T_G, G_SPECIAL] if has_sp else NO_SPECIAL
    v = 0.0
    for i in range(length):
        v += _slice_value(tab, ftab, seat, has_anch, tab[row, i], ps)
    if has_sp:
        v += ftab[F_SPV, ps] if ps >= 0 else 0.0
    return v


@njit(cache=True, inline="always")
def _judge_cut(ftab, k, n, attached, sv, best, best_rank, rank):
    """Weigh one cut's arc sums ftab[F_SUMS, :k] as best_maximin_cut does.

    Returns the updated (best, best_rank); the cut's ranks start at ``rank``.
    """
    if not attached:
        worst = ftab[F_SUMS, 0]
        for i in range(1, k):
            if ftab[F_SUMS, i] < worst:
                worst = ftab[F_SUMS, i]
        if sv < worst:
            worst = sv
        if worst > best:
            return worst, rank
        return best, best_rank
    # The least arc other than j is the least arc, or the second least when j is the least.
    lo1 = np.inf
    lo2 = np.inf
    i1 = -1
    for i in range(k):
        s = ftab[F_SUMS, i]
        if s < lo1:
            lo2 = lo1
            lo1 = s
            i1 = i
        elif s < lo2:
            lo2 = s
    if lo2 <= best:
        return best, best_rank  # whichever arc takes the special, one worth <= best is left
    for j in range(n):
        others = lo2 if j == i1 else lo1
        mine = ftab[F_SUMS, j] + sv
        worst = others if others < mine else mine
        if worst > best:
            best = worst
            best_rank = rank + j
    return best, best_rank


@njit(cache=True, inline="always")
def _hopeless(ftab, fixed, attached, sv, best):
    """Whether no cut whose first arcs sum to ftab[F_SUMS, :fixed] can beat best.

    Special apart: its least portion is at most any arc and the special. Attached: some
    arc other than the special's is left, so two arcs <= best, or one that is <= best even
    with the special, leave a portion worth <= best whatever arc takes the special.
    """
    if not attached:
        if sv <= best:
            return True
        for i in range(fixed):
            if ftab[F_SUMS, i] <= best:
                return True
        return False
    low = 0
    for i in range(fixed):
        s = ftab[F_SUMS, i]
        if s <= best:
            if s + sv <= best:
                return True
            low += 1
    return low >= 2


@njit(cache=True)
def _best_maximin_cut(tab, ftab, m, n, circ, sv):
    """strategies.best_maximin_cut of the slice values ftab[F_VAL, :m].

    Walks the cuts in rank order, with the reference's float operations on the same
    prefix sums, so the same first best cut wins. A cut is a lexicographic combination of
    positions (tab[T_COMB]) fixed left to right, each fixing one more arc; once the fixed
    arcs show that no completion can beat the best so far (``_hopeless``), every cut
    sharing them is skipped and only counted into the rank.
    """
    ftab[F_PREFIX, 0] = 0.0
    for i in range(m):
        ftab[F_PREFIX, i + 1] = ftab[F_PREFIX, i] + ftab[F_VAL, i]
    total = ftab[F_PREFIX, m]
    best = -np.inf
    best_rank = 0
    rank = 0
    for attached in (False, True):
        k = n if attached else n - 1
        if k < 1:
            continue
        per_cut = n if attached else 1  # ranks per cut: one per arc the special may join
        # A circle cut is k of m boundary positions; a line's first arc starts at 0 and
        # the other starts are 1 + (k - 1 of m - 1 positions).
        if circ:
            kk = k if k > 1 else 0
            mm = m
        else:
            kk = k - 1
            mm = m - 1
        if kk == 0:  # one arc: the whole pizza
            if circ:
                ftab[F_SUMS, 0] = total - ftab[F_PREFIX, 0] + ftab[F_PREFIX, 0]
            else:
                ftab[F_SUMS, 0] = total - 0.0
            best, best_rank = _judge_cut(ftab, k, n, attached, sv, best, best_rank, rank)
            rank += per_cut
            continue
        i = 0
        tab[T_COMB, 0] = 0
        while i >= 0:
            c = tab[T_COMB, i]
            if c > mm - kk + i:  # no room left for the later positions: back up
                i -= 1
                if i >= 0:
                    tab[T_COMB, i] += 1
                continue
            # The arc this position closes (a circle's last arc wraps to its first start).
            if circ:
                if i > 0:
                    ftab[F_SUMS, i - 1] = ftab[F_PREFIX, c] - ftab[F_PREFIX, tab[T_COMB, i - 1]]
                fixed = i
            else:
                lo = tab[T_COMB, i - 1] + 1 if i > 0 else 0
                ftab[F_SUMS, i] = ftab[F_PREFIX, c + 1] - ftab[F_PREFIX, lo]
                fixed = i + 1
            if i == kk - 1:
                if circ:
                    ftab[F_SUMS, k - 1] = total - ftab[F_PREFIX, c] + ftab[F_PREFIX, tab[T_COMB, 0]]
                else:
                    acc = 0.0  # sum() of the others, left to right, as strategies._arc_sums
                    for j in range(k - 1):
                        acc += ftab[F_SUMS, j]
                    ftab[F_SUMS, k - 1] = total - acc
                best, best_rank = _judge_cut(ftab, k, n, attached, sv, best, best_rank, rank)
                rank += per_cut
                tab[T_COMB, i] += 1
            elif _hopeless(ftab, fixed, attached, sv, best):
                rank += _comb(mm - 1 - c, kk - 1 - i) * per_cut
                tab[T_COMB, i] += 1
            else:
                i += 1
                tab[T_COMB, i] = c + 1
    return best_rank


@njit(cache=True)
def _greedy_seconds(tab, seat, phase, nlegal, lrow, sid):
    """Greedy's Seconds decisions: exact end-of-game scoring of what eating would give."""
    tab[T_MASK, : tab.shape[1]] = 0
    base = _own_total(tab, seat)
    if phase == P_SEC_EAT:
        tab[T_MASK, sid] = 1
        trial = _own_total(tab, seat)
        tab[T_MASK, sid] = 0
        return 1 if trial > base else 0
    best_t = 0
    best_gain = 0
    for j in range(nlegal):
        t = tab[lrow, j]
        if t == 0:
            continue
        tab[T_MASK, : tab.shape[1]] = 0
        current = base
        nc = _seconds_candidates(tab, seat, t, T_GCAND)
        for i in range(nc):
            x = tab[T_GCAND, i]
            tab[T_MASK, x] = 1
            trial = _own_total(tab, seat)
            if trial > current:
                current = trial
            else:
                tab[T_MASK, x] = 0
        if current - base > best_gain:
            best_t = t
            best_gain = current - base
    tab[T_MASK, : tab.shape[1]] = 0
    return best_t


@njit(cache=True)
def _sneak_portion_value(tab, ftab, seat, has_anch, heur, row, length, sp):
    """A portion's value to ``seat`` under greedy's valuation, or the heuristic's."""
    if heur:
        return _h_portion_value(tab, ftab, seat, seat, row, length, sp)
    return _portion_value(tab, ftab, seat, has_anch, row, length, sp)


@njit(cache=True)
def _sneak_best(tab, ftab, seat, has_anch, heur):
    """The Sneak-a-Slice move that most raises ``seat``'s best free portion (first of
    equals): (action, best free-portion value after it, best value now)."""
    npor = tab[T_G, G_NPOR]
    current = -np.inf
    for i in range(npor):
        if tab[T_POR_TAKEN, i] < 0:
            v = _sneak_portion_value(tab, ftab, seat, has_anch, heur, int64(T_POR + i),
                                     tab[T_POR_LEN, i], tab[T_POR_SP, i] == 1)  # fmt: skip
            ftab[F_PV, i] = v
            if v > current:
                current = v
    best_a = 0
    best_v = -np.inf
    nm = _sneak_moves(tab)
    for j in range(nm):
        # A move changes only its two portions: value their moved copies, reuse the rest.
        src = tab[T_MV_SRC, j]
        dst = tab[T_MV_DST, j]
        ls = tab[T_POR_LEN, src] - 1
        ld = tab[T_POR_LEN, dst] + 1
        if tab[T_MV_END, j] == 1:
            for q in range(ls):
                tab[T_TMP_SRC, q] = tab[T_POR + src, q]
            tab[T_TMP_DST, 0] = tab[T_POR + src, ls]
            for q in range(ld - 1):
                tab[T_TMP_DST, q + 1] = tab[T_POR + dst, q]
        else:
            for q in range(ls):
                tab[T_TMP_SRC, q] = tab[T_POR + src, q + 1]
            for q in range(ld - 1):
                tab[T_TMP_DST, q] = tab[T_POR + dst, q]
            tab[T_TMP_DST, ld - 1] = tab[T_POR + src, 0]
        v = -np.inf
        for i in range(npor):
            if tab[T_POR_TAKEN, i] < 0:
                sp = tab[T_POR_SP, i] == 1
                if i == src:
                    pv = _sneak_portion_value(tab, ftab, seat, has_anch, heur,
                                              int64(T_TMP_SRC), ls, sp)  # fmt: skip
                elif i == dst:
                    pv = _sneak_portion_value(tab, ftab, seat, has_anch, heur,
                                              int64(T_TMP_DST), ld, sp)  # fmt: skip
                else:
                    pv = ftab[F_PV, i]
                if pv > v:
                    v = pv
        if v > best_v:
            best_a = 1 + j
            best_v = v
    return best_a, best_v, current


@njit(cache=True)
def _greedy_sneak(tab, ftab, seat, has_anch):
    """Greedy's Sneak-a-Slice: the move that most raises its best free portion, if any."""
    best_a, best_v, current = _sneak_best(tab, ftab, seat, has_anch, False)
    return best_a if best_v > current else 0


@njit(cache=True)
def _greedy(tab, ftab, seat, phase, nlegal, lrow, sid, ps):
    """Greedy's action (strategies.GreedyStrategy, decision for decision).

    The legal actions are tab[lrow, :nlegal], or range(nlegal) when lrow < 0.
    """
    if phase == P_SEC_TYPE or phase == P_SEC_EAT:
        return _greedy_seconds(tab, seat, phase, nlegal, lrow, sid)
    has_anch = 1 if tab[T_NANCH, seat] > 0 else 0
    if phase == P_EAT or phase == P_RECV:
        # Only the slice's own types enter its collection value (every type for the Supreme).
        k = tab[T_KIND, sid]
        if k == K_NUM or k == K_COMBO:
            _value_type(tab, ftab, seat, tab[T_TA, sid])
            if k == K_COMBO:
                _value_type(tab, ftab, seat, tab[T_TB, sid])
        elif k == K_SUP:
            _valuer(tab, ftab, seat)
        e = _eat_value(tab, seat, sid, ps)
        c = _collect_value(tab, ftab, seat, has_anch, sid, phase == P_RECV)
        return 1 if e > c else 0
    _valuer(tab, ftab, seat)
    n = tab[T_G, G_N]
    if phase == P_CHOOSE:
        best_i = tab[lrow, 0]
        best_v = -np.inf
        for j in range(nlegal):
            i = tab[lrow, j]
            v = _portion_value(
                tab, ftab, seat, has_anch, T_POR + i, tab[T_POR_LEN, i], tab[T_POR_SP, i] == 1
            )
            if v > best_v:
                best_i = i
                best_v = v
        return best_i
    if phase == P_CUT:
        m = tab[T_G, G_M]
        sp = tab[T_G, G_SPECIAL]
        for i in range(m):
            ftab[F_VAL, i] = _slice_value(tab, ftab, seat, has_anch, tab[T_PIZZA, i], sp)
        spv = ftab[F_SPV, sp] if sp >= 0 else 0.0
        return _best_maximin_cut(tab, ftab, m, n, tab[T_G, G_CIRC] == 1, spv)
    if phase == P_SUPREME:
        best_t = tab[lrow, 0]
        best_v = -np.inf
        for j in range(nlegal):
            t = tab[lrow, j]
            v = _type_value(tab, ftab, seat, t, 1.0, 0.0)
            if v >= best_v:
                best_t = t
                best_v = v
        return best_t
    if phase == P_DIBS:
        bi = 0
        bv = -np.inf
        for i in range(tab[T_G, G_M]):
            v = _slice_value(tab, ftab, seat, has_anch, tab[T_PIZZA, i], NO_SPECIAL)
            if v > bv:
                bi = i
                bv = v
        return 1 + bi if bv > 0 else 0
    if phase == P_CIL:
        # Values of the free portions, sorted high to low (insertion sort in F_PV).
        nf = 0
        for i in range(tab[T_G, G_NPOR]):
            if tab[T_POR_TAKEN, i] < 0:
                v = _portion_value(
                    tab, ftab, seat, has_anch, T_POR + i, tab[T_POR_LEN, i], tab[T_POR_SP, i] == 1
                )
                j = nf
                while j > 0 and ftab[F_PV, j - 1] < v:
                    ftab[F_PV, j] = ftab[F_PV, j - 1]
                    j -= 1
                ftab[F_PV, j] = v
                nf += 1
        before = (seat - tab[T_G, G_SLICER] - 1) % n
        j = before if before < nf - 1 else nf - 1
        return 1 if ftab[F_PV, 0] > ftab[F_PV, j] else 0
    if phase == P_SNEAK:
        return _greedy_sneak(tab, ftab, seat, has_anch)
    return tab[lrow, 0] if lrow >= 0 else 0


# ----------------------------------------------------------------------------- heuristic
# heuristic.Valuer and HeuristicStrategy, float operation for float: the deciding seat's
# parameters (ftab[F_HP + vw]) and unclaimed counts (tab[T_UNCL], its view) value every
# seat's slices; ftab[F_HCNT + q, t] holds seat q's count of type t (Valuer.counts).
@njit(cache=True, inline="always")
def _h_type(tab, ftab, vw, t):
    """Fill Valuer.counts[q][t] for every seat q and the viewer's unclaimed count of t."""
    for q in range(tab[T_G, G_N]):
        ftab[F_HCNT + q, t] = 0.5 * _count2(tab, q, t)
    tab[T_UNCL, t] = _unclaimed(tab, vw, t)


@njit(cache=True)
def _h_all_types(tab, ftab, vw):
    for t in range(3, 12):
        _h_type(tab, ftab, vw, t)


@njit(cache=True, inline="always")
def _chance(m, u, sharp, horizon):
    """heuristic.chance."""
    z = sharp * m / (1.0 + horizon * u)
    return 0.5 + 0.5 * z / (1.0 + abs(z))


@njit(cache=True)
def _h_gain(tab, ftab, vw, seat, t, w, already):
    """Valuer.gain: points from raising (already: from having added) w of type t."""
    a = ftab[F_HCNT + seat, t]
    if already:
        a = a - w
    b = 0.0
    for q in range(tab[T_G, G_N]):
        if q != seat and ftab[F_HCNT + q, t] > b:
            b = ftab[F_HCNT + q, t]
    u = float(tab[T_UNCL, t])
    shift = -0.25
    if _owns(tab, seat, S_TIE):
        shift = 0.25
    sharp = ftab[F_HP + vw, H_SHARP]
    horizon = ftab[F_HP + vw, H_HORIZON]
    before = _chance(a - b + shift, u, sharp, horizon)
    after = _chance(a + w - b + shift, u, sharp, horizon)
    return t * (after - before)


@njit(cache=True)
def _h_collect_value(tab, ftab, vw, seat, sid, already):
    """Valuer.collect_value of slice sid to seat."""
    anch = float(tab[T_ANCH, sid])
    if not _owns(tab, seat, S_YLA):
        anch = -anch
    buffet = _owns(tab, seat, S_BUFFET)
    k = tab[T_KIND, sid]
    if k == K_NUM:
        t = tab[T_TA, sid]
        v = _h_gain(tab, ftab, vw, seat, t, 1.0, already)
        if buffet and not ftab[F_HCNT + seat, t] > 0:
            v += 1.0
        return v + anch
    if k == K_COMBO:
        w = 0.5
        if _owns(tab, seat, S_SUPER):
            w = 2.0
        v = 0.0
        t = tab[T_TA, sid]
        v += _h_gain(tab, ftab, vw, seat, t, w, already)
        if buffet and not ftab[F_HCNT + seat, t] > 0:
            v += 1.0
        t = tab[T_TB, sid]
        v += _h_gain(tab, ftab, vw, seat, t, w, already)
        if buffet and not ftab[F_HCNT + seat, t] > 0:
            v += 1.0
        return v + anch
    if k == K_ANCH:
        if buffet and tab[T_NANCH, seat] == 0:
            anch += 1.0
        return anch
    best = ftab[F_HP + vw, H_SUPREME]
    found = False
    for t in range(3, 12):
        if ftab[F_HCNT + seat, t] > 0:
            g = _h_gain(tab, ftab, vw, seat, t, 1.0, False)
            if not found or g > best:
                best = g
                found = True
    return best + anch


@njit(cache=True)
def _h_slice_value(tab, ftab, vw, seat, sid, ps):
    """Valuer.slice_value: collect, or eat when that beats theta x the collection value."""
    c = _h_collect_value(tab, ftab, vw, seat, sid, False)
    if _g_edible(tab, seat, sid, ps):
        e = _eat_value(tab, seat, sid, ps)
        if e > ftab[F_HP + vw, H_THETA] * c:
            return e
    return c


@njit(cache=True, inline="always")
def _h_special_value(ftab, vw, ps):
    if ps < 0:
        return 0.0
    return ftab[F_HP + vw, H_SPECIALS] * ftab[F_SPV, ps]


@njit(cache=True)
def _h_portion_value(tab, ftab, vw, seat, row, length, has_sp):
    """Valuer.portion_value of the slices tab[row, :length] to seat."""
    ps = tab[T_G, G_SPECIAL] if has_sp else NO_SPECIAL
    v = 0.0
    for i in range(length):
        v += _h_slice_value(tab, ftab, vw, seat, tab[row, i], ps)
    if has_sp:
        v += _h_special_value(ftab, vw, ps)
    return v


@njit(cache=True, inline="always")
def _h_beats(b, best, strict):
    """Whether score b displaces best: higher, or as high at an earlier rank (strict)."""
    return b > best or (b == best and strict)


@njit(cache=True)
def _h_judge(S, n, me, first, trust, omt, deny, prune, best, strict, j, spv):
    """cut_scores' score of portions valued S[q, :n] by seat q (portion j, if j >= 0, with
    the special: S[q, j] + spv), or -inf as soon as it cannot displace best.

    The choosers are seats first, first + 1, ... (n - 1 of them; the slicer is last).
    After each pick the portion left to the slicer is one still untaken and the best
    opponent's portion is worth at least the best picked so far, so trust x (its best
    untaken portion) + (1 - trust) x worst - deny x (best pick so far) bounds the score,
    operation for operation (rounding is monotone), when trust and deny are >= 0.
    """
    worst = np.inf
    for i in range(n):
        x = S[me, i] + spv if i == j else S[me, i]
        if x < worst:
            worst = x
    taken = 0
    opp = -np.inf
    q = first
    for r in range(n - 1):
        # (Written as selects: the comparisons are data-dependent, branches mispredict.)
        pick = 0
        pv = -np.inf
        for i in range(n):
            x = S[q, i]
            x = x + spv if i == j else x
            ok = (((taken >> i) & 1) == 0) & (x > pv)
            pick = i if ok else pick
            pv = x if ok else pv
        taken |= 1 << pick
        opp = pv if pv > opp else opp
        if prune and r < n - 2:
            lub = -np.inf
            for i in range(n):
                x = S[me, i]
                x = x + spv if i == j else x
                lub = x if (((taken >> i) & 1) == 0) & (x > lub) else lub
            if not _h_beats(trust * lub + omt * worst - deny * opp, best, strict):
                return -np.inf
        q += 1
        if q == n:
            q = 0
    left = 0
    while (taken >> left) & 1:
        left += 1
    x = S[me, left] + spv if left == j else S[me, left]
    return trust * x + omt * worst - deny * opp


@njit(cache=True, inline="always")
def _h_judge_rest(S, n, me, first, trust, omt, deny, prune, best, strict, j, spv, p1, pv1, worst):
    """_h_judge for the special on arc j, after the first chooser took p1 (worth pv1)."""
    taken = 1 << p1
    opp = pv1
    q = first + 1
    if q == n:
        q = 0
    for r in range(1, n - 1):
        # (Written as selects: the comparisons are data-dependent, branches mispredict.)
        pick = 0
        pv = -np.inf
        for i in range(n):
            x = S[q, i]
            x = x + spv if i == j else x
            ok = (((taken >> i) & 1) == 0) & (x > pv)
            pick = i if ok else pick
            pv = x if ok else pv
        taken |= 1 << pick
        opp = pv if pv > opp else opp
        if prune and r < n - 2:
            lub = -np.inf
            for i in range(n):
                x = S[me, i]
                x = x + spv if i == j else x
                lub = x if (((taken >> i) & 1) == 0) & (x > lub) else lub
            if not _h_beats(trust * lub + omt * worst - deny * opp, best, strict):
                return -np.inf
        q += 1
        if q == n:
            q = 0
    left = 0
    while (taken >> left) & 1:
        left += 1
    x = S[me, left] + spv if left == j else S[me, left]
    return trust * x + omt * worst - deny * opp


@njit(cache=True, inline="always")
def _h_fill_seat(P, S, comb, q, n, k, m, circ, spv):
    """Seat q's values S[q] of the cut at positions comb (k arcs), as the walk computes them."""
    total = P[q, m]
    if circ:
        if k == 1:
            S[q, 0] = total - P[q, 0] + P[q, 0]
        else:
            for i in range(1, k):
                S[q, i - 1] = P[q, comb[i]] - P[q, comb[i - 1]]
            S[q, k - 1] = total - P[q, comb[k - 1]] + P[q, comb[0]]
    elif k == 1:
        S[q, 0] = total - 0.0
    else:
        for i in range(k - 1):
            lo = comb[i - 1] + 1 if i > 0 else 0
            S[q, i] = P[q, comb[i] + 1] - P[q, lo]
        acc = 0.0  # sum() of the others, left to right, as strategies._arc_sums
        for i in range(k - 1):
            acc += S[q, i]
        S[q, k - 1] = total - acc
    if k < n:
        S[q, k] = spv


@njit(cache=True, inline="always")
def _h_judge_alone(P, S, comb, n, k, m, circ, me, first, spv, trust, omt, deny, prune, best,
                   best_rank, rank):  # fmt: skip
    """Weigh the cut at positions comb with the special alone (portion k, rank ``rank``).

    S holds the slicer's and the first two choosers' values of its portions; the other
    seats' are filled in only if the bound does not rule the cut out: the first two
    picks, then the slicer gets a portion neither took, and the opponents' best portion
    is worth at least their picks (as in _h_judge). Returns the new (best, best_rank).
    """
    if rank == best_rank:
        return best, best_rank
    strict = rank < best_rank
    second = first + 1 if first + 1 < n else 0
    for q in (me, first, second):
        S[q, k] = spv
    if prune:
        # (Selects, not branches: the comparisons are data-dependent.)
        p1 = 0
        pv1 = -np.inf
        worst = np.inf
        for i in range(n):
            x = S[first, i]
            ok = x > pv1
            p1 = i if ok else p1
            pv1 = x if ok else pv1
            y = S[me, i]
            worst = y if y < worst else worst
        opp = pv1
        p2 = p1
        if n > 2:
            pv2 = -np.inf
            for i in range(n):
                x = S[second, i]
                ok = (i != p1) & (x > pv2)
                p2 = i if ok else p2
                pv2 = x if ok else pv2
            opp = pv2 if pv2 > opp else opp
        lub = -np.inf
        for i in range(n):
            y = S[me, i]
            lub = y if (i != p1) & (i != p2) & (y > lub) else lub
        if not _h_beats(trust * lub + omt * worst - deny * opp, best, strict):
            return best, best_rank
    for q in range(n):
        if q != me and q != first and q != second:
            _h_fill_seat(P, S, comb, q, n, k, m, circ, spv)
    s = _h_judge(S, n, me, first, trust, omt, deny, prune, best, strict, -1, spv)
    if _h_beats(s, best, strict):
        return s, rank
    return best, best_rank


@njit(cache=True, inline="always")
def _h_judge_cut(P, S, comb, n, k, m, circ, me, first, spv, trust, omt, deny, prune, best,
                 best_rank, rank):  # fmt: skip
    """Weigh the cut at positions comb for every place of the special: alone (portion
    k < n; _h_judge_alone) or on arc j (ranks rank + j). S holds the slicer's and the
    first two choosers' values of its arcs; the other seats' are filled in only for the
    few places the bound does not rule out. Returns the new (best, best_rank).

    The bound is _h_judge_alone's, for every j at once from the three seats' best arcs
    (first on ties) kept per cut: the first chooser's two, the second's three, the
    slicer's four and its least two.
    """
    if k < n:
        return _h_judge_alone(
            P, S, comb, n, k, m, circ, me, first, spv, trust, omt, deny, prune, best,
            best_rank, rank,
        )  # fmt: skip
    second = first + 1 if first + 1 < n else 0
    live = 0
    if prune:
        # (Selects, not branches: the comparisons are data-dependent.)
        t1 = -1
        t2 = -1
        v1 = -np.inf
        v2 = -np.inf
        for i in range(n):
            x = S[first, i]
            g1 = x > v1
            g2 = x > v2
            t2 = t1 if g1 else (i if g2 else t2)
            v2 = v1 if g1 else (x if g2 else v2)
            t1 = i if g1 else t1
            v1 = x if g1 else v1
        s1 = -1
        s2 = -1
        s3 = -1
        y1 = -np.inf
        y2 = -np.inf
        y3 = -np.inf
        for i in range(n):
            x = S[second, i]
            g1 = x > y1
            g2 = x > y2
            g3 = x > y3
            s3 = s2 if g2 else (i if g3 else s3)
            y3 = y2 if g2 else (x if g3 else y3)
            s2 = s1 if g1 else (i if g2 else s2)
            y2 = y1 if g1 else (x if g2 else y2)
            s1 = i if g1 else s1
            y1 = x if g1 else y1
        u1 = -1
        u2 = -1
        u3 = -1
        u4 = -1
        h1 = -np.inf
        h2 = -np.inf
        h3 = -np.inf
        h4 = -np.inf
        w1 = -1
        lo1 = np.inf
        lo2 = np.inf
        for i in range(n):
            x = S[me, i]
            g1 = x > h1
            g2 = x > h2
            g3 = x > h3
            g4 = x > h4
            u4 = u3 if g3 else (i if g4 else u4)
            h4 = h3 if g3 else (x if g4 else h4)
            u3 = u2 if g2 else (i if g3 else u3)
            h3 = h2 if g2 else (x if g3 else h3)
            u2 = u1 if g1 else (i if g2 else u2)
            h2 = h1 if g1 else (x if g2 else h2)
            u1 = i if g1 else u1
            h1 = x if g1 else h1
            l1 = x < lo1
            lo2 = lo1 if l1 else min(lo2, x)
            w1 = i if l1 else w1
            lo1 = x if l1 else lo1
        for j in range(n):
            R = rank + j
            # The first pick: the first chooser's best arc other than j, or j (special).
            ei = t1 if j != t1 else t2
            ev = v1 if j != t1 else v2
            vj = S[first, j] + spv
            pj = (vj > ev) | ((vj == ev) & (j < ei))
            p1 = j if pj else ei
            pv1 = vj if pj else ev
            vjm = S[me, j] + spv
            worst = min(lo1 if w1 != j else lo2, vjm)
            if n == 2:
                # One chooser: the slicer gets the other arc (this is the score).
                lub = h1 if (u1 != j) & (u1 != p1) else h2
                lub = lub if pj else max(lub, vjm)
                opp = pv1
            else:
                # The second pick: the second chooser's best of the others, or j.
                c1 = (s1 != j) & (s1 != p1)
                c2 = (s2 != j) & (s2 != p1)
                ci = s1 if c1 else (s2 if c2 else s3)
                cv = y1 if c1 else (y2 if c2 else y3)
                vj2 = S[second, j] + spv
                pj2 = (j != p1) & ((vj2 > cv) | ((vj2 == cv) & (j < ci)))
                p2 = j if pj2 else ci
                opp = max(pv1, vj2 if pj2 else cv)
                # The slicer's best arc neither took.
                a1 = (u1 != j) & (u1 != p1) & (u1 != p2)
                a2 = (u2 != j) & (u2 != p1) & (u2 != p2)
                a3 = (u3 != j) & (u3 != p1) & (u3 != p2)
                lub = h1 if a1 else (h2 if a2 else (h3 if a3 else h4))
                lub = max(lub, vjm) if (j != p1) & (j != p2) else lub
            b = trust * lub + omt * worst - deny * opp
            ok = ((b > best) | ((b == best) & (R < best_rank))) & (R != best_rank)
            live |= (1 << j) if ok else 0
    else:
        live = (1 << n) - 1
    if live == 0:
        return best, best_rank
    for q in range(n):
        if q != me and q != first and q != second:
            _h_fill_seat(P, S, comb, q, n, k, m, circ, spv)
    for j in range(n):
        R = rank + j
        if (live >> j) & 1 == 0 or R == best_rank:
            continue
        strict = R < best_rank
        s = _h_judge(S, n, me, first, trust, omt, deny, prune, best, strict, j, spv)
        if _h_beats(s, best, strict):
            best = s
            best_rank = R
    return best, best_rank


@njit(cache=True)
def _h_cut_positions(m, n, circ, rank, comb):
    """The walk's positions (comb) of cut ``rank``; returns its arc count and special arc."""
    alone = _arc_count(m, n - 1, circ)
    if rank < alone:
        k = n - 1
        j = -1
        r = rank
    else:
        k = n
        j = (rank - alone) % n
        r = (rank - alone) // n
    if circ:
        if k == 1:
            comb[0] = 0
        else:
            _unrank_comb(m, k, r, comb, 0)
    elif k > 1:
        _unrank_comb(m - 1, k - 1, r, comb, 0)
    return k, j


@njit(cache=True)
def _h_best_cut(tab, ftab, me):
    """heuristic.best_predicted_cut: the rank of the first best-scored cut.

    Every seat's slice values by the slicer's valuer go into prefix sums (F_HPRE + q).
    The cuts are walked in rank order as in _best_maximin_cut, each position fixing one
    more arc of the slicer's and the first two choosers' values, with cut_scores'
    operations. The best score starts at the slicer's maximin cut's (scored exactly), so
    the bounds (_h_judge_cut, _h_judge) rule most cuts out after the first two picks;
    ties keep the lowest rank, as in the reference. Unlike greedy's walk no subtree is
    skipped: the score rewards the slicer's leftover portion, which a partial cut bounds
    only by the whole rest of the pizza, too loosely to prune.
    """
    n = tab[T_G, G_N]
    m = tab[T_G, G_M]
    circ = tab[T_G, G_CIRC] == 1
    sp = tab[T_G, G_SPECIAL]
    for q in range(n):
        ftab[F_HPRE + q, 0] = 0.0
        for i in range(m):
            v = _h_slice_value(tab, ftab, me, q, tab[T_PIZZA, i], sp)
            if q == me:
                ftab[F_VAL, i] = v
            ftab[F_HPRE + q, i + 1] = ftab[F_HPRE + q, i] + v
    spv = _h_special_value(ftab, me, sp)
    first = (tab[T_G, G_SLICER] + 1) % n
    return _h_cut_search(
        tab, ftab, n, m, circ, me, first, spv, ftab[F_HP + me, H_TRUST], ftab[F_HP + me, H_DENY]
    )


@njit(cache=True)
def _h_cut_search(tab, ftab, n, m, circ, me, first, spv, trust, deny):
    """The walk of _h_best_cut over prefix sums ftab[F_HPRE + q] (the slicer's slice values
    in ftab[F_VAL]); the special is worth spv."""
    omt = 1.0 - trust
    prune = trust >= 0.0 and deny >= 0.0
    second = first + 1 if first + 1 < n else 0
    P = ftab[F_HPRE : F_HPRE + MAX_SEATS]
    S = ftab[F_HSUM : F_HSUM + MAX_SEATS]
    comb = tab[T_COMB]
    best = -np.inf
    best_rank = -1
    if prune:
        seed = _best_maximin_cut(tab, ftab, m, n, circ, spv)
        k, j = _h_cut_positions(m, n, circ, seed, comb)
        for q in range(n):
            _h_fill_seat(P, S, comb, q, n, k, m, circ, spv)
        best = _h_judge(S, n, me, first, trust, omt, deny, False, best, True, j, spv)
        best_rank = seed
    rank = 0
    for attached in (False, True):
        k = n if attached else n - 1
        per_cut = n if attached else 1
        if circ:
            kk = k if k > 1 else 0
            mm = m
        else:
            kk = k - 1
            mm = m - 1
        if kk == 0:  # one arc, the whole pizza (two players, the special alone)
            for q in (me, first, second):
                _h_fill_seat(P, S, comb, q, n, k, m, circ, spv)
            best, best_rank = _h_judge_alone(
                P, S, comb, n, k, m, circ, me, first, spv, trust, omt, deny, prune, best,
                best_rank, rank,
            )  # fmt: skip
            rank += per_cut
            continue
        i = 0
        comb[0] = 0
        while i >= 0:
            c = comb[i]
            if c > mm - kk + i:  # no room left for the later positions: back up
                i -= 1
                if i >= 0:
                    comb[i] += 1
                continue
            if circ:
                if i > 0:
                    c0 = comb[i - 1]
                    for q in (me, first, second):
                        S[q, i - 1] = P[q, c] - P[q, c0]
            else:
                lo = comb[i - 1] + 1 if i > 0 else 0
                for q in (me, first, second):
                    S[q, i] = P[q, c + 1] - P[q, lo]
            if i == kk - 1:
                for q in (me, first, second):
                    total = P[q, m]
                    if circ:
                        S[q, k - 1] = total - P[q, c] + P[q, comb[0]]
                    else:
                        acc = 0.0
                        for jj in range(k - 1):
                            acc += S[q, jj]
                        S[q, k - 1] = total - acc
                best, best_rank = _h_judge_cut(
                    P, S, comb, n, k, m, circ, me, first, spv, trust, omt, deny, prune, best,
                    best_rank, rank,
                )  # fmt: skip
                rank += per_cut
                comb[i] += 1
            else:
                i += 1
                comb[i] = c + 1
    return best_rank


@njit(cache=True)
def _h_sneak(tab, ftab, seat):
    """HeuristicStrategy._sneak: the move raising its best free portion most, if by sneak."""
    best_a, best_v, current = _sneak_best(tab, ftab, seat, False, True)
    if best_v - current >= ftab[F_HP + seat, H_SNEAK]:
        return best_a
    return 0


@njit(cache=True)
def _heuristic(tab, ftab, seat, phase, nlegal, lrow, sid, ps):
    """The heuristic's action (heuristic.HeuristicStrategy.choose, decision for decision).

    The legal actions are tab[lrow, :nlegal], or range(nlegal) when lrow < 0.
    """
    if phase == P_SEC_TYPE or phase == P_SEC_EAT:
        return _greedy_seconds(tab, seat, phase, nlegal, lrow, sid)
    if phase == P_EAT or phase == P_RECV:
        # Only the slice's own types enter its collection value (every type for the Supreme).
        k = tab[T_KIND, sid]
        if k == K_NUM or k == K_COMBO:
            _h_type(tab, ftab, seat, tab[T_TA, sid])
            if k == K_COMBO:
                _h_type(tab, ftab, seat, tab[T_TB, sid])
        elif k == K_SUP:
            _h_all_types(tab, ftab, seat)
        e = _eat_value(tab, seat, sid, ps)
        c = _h_collect_value(tab, ftab, seat, seat, sid, phase == P_RECV)
        return 1 if e > ftab[F_HP + seat, H_THETA] * c else 0
    _h_all_types(tab, ftab, seat)
    n = tab[T_G, G_N]
    if phase == P_CHOOSE:
        # The seat choosing after this one in normal order, if any still chooses.
        nxt = -1
        for i in range(1, n):
            q = (seat + i) % n
            took = False
            for x in range(tab[T_G, G_NPOR]):
                if tab[T_POR_TAKEN, x] == q:
                    took = True
            if not took and q != seat:
                nxt = q
                break
        deny = ftab[F_HP + seat, H_DENY]
        best_i = tab[lrow, 0]
        best_v = -np.inf
        for j in range(nlegal):
            i = tab[lrow, j]
            ln = tab[T_POR_LEN, i]
            has_sp = tab[T_POR_SP, i] == 1
            v = _h_portion_value(tab, ftab, seat, seat, T_POR + i, ln, has_sp)
            if nxt >= 0 and nlegal > 1:
                v += deny * _h_portion_value(tab, ftab, seat, nxt, T_POR + i, ln, has_sp)
            if v > best_v:
                best_i = i
                best_v = v
        return best_i
    if phase == P_CUT:
        return _h_best_cut(tab, ftab, seat)
    if phase == P_SUPREME:
        best_t = tab[lrow, 0]
        best_v = -np.inf
        for j in range(nlegal):
            t = tab[lrow, j]
            v = _h_gain(tab, ftab, seat, seat, t, 1.0, False)
            if v > best_v:
                best_t = t
                best_v = v
        return best_t
    if phase == P_DIBS:
        bi = 0
        bv = -np.inf
        for i in range(tab[T_G, G_M]):
            v = _h_slice_value(tab, ftab, seat, seat, tab[T_PIZZA, i], NO_SPECIAL)
            if v > bv:
                bi = i
                bv = v
        return 1 + bi if bv >= ftab[F_HP + seat, H_DIBS] else 0
    if phase == P_CIL:
        nf = 0
        for i in range(tab[T_G, G_NPOR]):
            if tab[T_POR_TAKEN, i] < 0:
                v = _h_portion_value(
                    tab, ftab, seat, seat, T_POR + i, tab[T_POR_LEN, i], tab[T_POR_SP, i] == 1
                )
                j = nf
                while j > 0 and ftab[F_PV, j - 1] < v:
                    ftab[F_PV, j] = ftab[F_PV, j - 1]
                    j -= 1
                ftab[F_PV, j] = v
                nf += 1
        before = (seat - tab[T_G, G_SLICER] - 1) % n
        j = before if before < nf - 1 else nf - 1
        return 1 if ftab[F_PV, 0] - ftab[F_PV, j] >= ftab[F_HP + seat, H_CIL] else 0
    if phase == P_SNEAK:
        return _h_sneak(tab, ftab, seat)
    return tab[lrow, 0] if lrow >= 0 else 0


# ----------------------------------------------------------------------------- decisions
@njit(cache=True)
def _decision_row(tab, drec, dcount, player, phase, action, nlegal, sid, ps):
    """Append one row of DECISION_COLUMNS to drec (rows beyond its size are counted only)."""
    r = dcount[0]
    dcount[0] = r + 1
    if r >= drec.shape[0]:
        return
    for c in range(drec.shape[1]):
        drec[r, c] = -1
    drec[r, 0] = tab[T_G, G_GAME]
    drec[r, 1] = tab[T_G, G_ROUND]
    drec[r, 2] = tab[T_G, G_SLICER]
    drec[r, 3] = player
    drec[r, 4] = phase
    drec[r, 5] = action
    drec[r, 6] = nlegal
    drec[r, 16] = ps
    left = 0
    for i in range(tab[T_G, G_NPOR]):
        if tab[T_POR_TAKEN, i] < 0:
            left += 1
    drec[r, 17] = left
    if sid >= 0:
        k = tab[T_KIND, sid]
        t = tab[T_TA, sid]
        drec[r, 7] = sid
        drec[r, 8] = k
        if k == K_NUM or k == K_COMBO:
            drec[r, 9] = t
        if k == K_COMBO:
            drec[r, 10] = tab[T_TB, sid]
        drec[r, 11] = tab[T_PEP, sid]
        drec[r, 12] = tab[T_ANCH, sid]
        if drec[r, 9] > 0:
            drec[r, 13] = _count2(tab, player, t)
            best = 0
            for q in range(tab[T_G, G_N]):
                if q != player:
                    c = _count2(tab, q, t)
                    if c > best:
                        best = c
            drec[r, 14] = best
            drec[r, 15] = _unclaimed(tab, player, t)


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
    action is taken silently (engine._decide). io = (rngs, trace, drec, dcount, prefix):
    the first len(prefix) real decisions take the prefix's actions."""
    if nlegal == 1:
        return tab[lrow, 0] if lrow >= 0 else 0
    k = tab[T_G, G_NTRACE]
    strat = tab[T_STRAT, player]
    if k < io[4].shape[0]:
        a = _prefix_action(tab, io[4], k, int64(nlegal), int64(lrow))
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


# ----------------------------------------------------------------------------- game flow
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
        for t in range(12):
            tab[T_FLAGS, t] = 0
        # Collection only grew here, so its first `start` slices are what was held before.
        if sup_now:
            _types_of_coll(tab, seat, 0, end if tab[T_RULES, R_SUP_SAME] == 1 else start)
        elif tab[T_RULES, R_SUP_LATE] == 1:
            _types_of_coll(tab, seat, 0, end)
        else:
            _types_of_coll(tab, seat, start, end)
        nl = 0
        for t in range(3, 12):
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
    if tab[T_POR_SP, idx] == 1:
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
                fits = k == K_COMBO if ps == S_CRAV else (k == K_NUM and tab[T_TA, sid] == 3)
                if not fits:
                    continue
                if _decide(tab, ftab, io, seat, P_RECV, 2, -1, sid, ps):
                    _move_to_eaten(tab, seat, sid)
    _take_slices(tab, ftab, io, seat, ns, ps)


@njit(cache=True, inline="always")
def _invalid_special(tab, sp):
    last = tab[T_G, G_ROUND] == tab[T_G, G_ROUNDS] - 1
    two = tab[T_G, G_N] == 2
    return (
        (sp == S_CIL and (last or two))
        or (sp == S_SNEAK and last)
        or ((sp == S_DIBS or sp == S_YLV) and two)
    )


@njit(cache=True)
def _round(tab, ftab, io):
    """Play round tab[T_G, G_ROUND] (engine._round)."""
    n = tab[T_G, G_N]
    r = tab[T_G, G_ROUND]
    sp = tab[T_STACK_SP, r]
    for _ in range(N_SPECIALS + 1):
        if not _invalid_special(tab, sp):
            break
        if tab[T_RULES, R_BOTTOM] == 1:
            tab[T_REPL, tab[T_G, G_RPT]] = sp
            tab[T_G, G_RPT] += 1
        sp = tab[T_REPL, tab[T_G, G_RPH]]
        tab[T_G, G_RPH] += 1
    tab[T_G, G_SPECIAL] = sp
    m = 11
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
    for t in range(3, 12):
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


# ----------------------------------------------------------------------------- games
@njit(cache=True)
def _new_tables(kind, ta, tb, pep, anch, nsp, rules, strat, spv, hparams):
    """The state tables of a deck, rule set and seating (the per-game rows are set by _play)."""
    S = kind.shape[0]
    tab = np.zeros((T_ROWS, max(S, 2 * nsp + 4, 32)), dtype=np.int64)
    for i in range(S):
        tab[T_KIND, i] = kind[i]
        tab[T_TA, i] = ta[i]
        tab[T_TB, i] = tb[i]
        tab[T_PEP, i] = pep[i]
        tab[T_ANCH, i] = anch[i]
    for j in range(rules.shape[0]):
        tab[T_RULES, j] = rules[j]
    for p in range(strat.shape[0]):
        tab[T_STRAT, p] = strat[p]
    ftab = np.zeros((F_ROWS, F_WIDTH))
    for x in range(spv.shape[0]):
        ftab[F_SPV, x] = spv[x]
    for p in range(hparams.shape[0]):
        for j in range(hparams.shape[1]):
            ftab[F_HP + p, j] = hparams[p, j]
    return tab, ftab


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
        for t in range(12):
            tab[T_NUM + p, t] = 0
            tab[T_CMB + p, t] = 0
            tab[T_HID + p, t] = 0
    for t in range(12):
        tab[T_UNC, t] = 0


@njit(cache=True)
def _run(tab, ftab, io):
    """Play the dealt game's rounds and Seconds, score it; return the decision count."""
    for r in range(tab[T_G, G_ROUNDS]):
        tab[T_G, G_ROUND] = r
        tab[T_G, G_SLICER] = (tab[T_RULES, R_FIRST] + r) % tab[T_G, G_N]
        _round(tab, ftab, io)
    _seconds(tab, ftab, io)
    _score(tab, -1, -1)
    return tab[T_G, G_NTRACE]


@njit(cache=True)
def _play(
    tab, ftab, deck_specials, removed, n, rounds, rngs, trace, drec, dcount, game_index, prefix
):
    """Deal and play one game on tables from _new_tables; return the decision count.

    The scores are left in tab[T_OUT + p].
    """
    tab = _borrow(tab)
    ftab = _borrow(ftab)
    rngs = _borrow(rngs)
    io = (rngs, _borrow(trace), _borrow(drec), _borrow(dcount), _borrow(prefix))
    S = removed.shape[0]
    nsp = deck_specials.shape[0]
    _reset(tab, n, rounds, game_index)
    n_in = 0
    for i in range(S):
        tab[T_INMYST, i] = 0
        if not removed[i]:
            tab[T_DEAL, n_in] = i
            n_in += 1
            if tab[T_KIND, i] == K_NUM:
                tab[T_UNC, tab[T_TA, i]] += 1
    # The deal: shuffle the slices in play, then the specials (engine.deal's order).
    shuffle(rngs[0], tab[T_DEAL, :n_in])
    for i in range(nsp):
        tab[T_SPORD, i] = i
    shuffle(rngs[0], tab[T_SPORD, :nsp])
    for r in range(rounds):
        for i in range(11):
            tab[T_STACKS + r, i] = tab[T_DEAL, r * 11 + i]
        tab[T_STACK_SP, r] = deck_specials[tab[T_SPORD, r]]
    nmyst = n_in - rounds * 11
    for i in range(nmyst):
        sid = tab[T_DEAL, rounds * 11 + i]
        tab[T_MYST, i] = sid
        tab[T_INMYST, sid] = 1
    tab[T_G, G_NMYST] = nmyst
    for i in range(tab.shape[1]):
        tab[T_REPL, i] = 0
    for i in range(rounds, nsp):
        tab[T_REPL, i - rounds] = deck_specials[tab[T_SPORD, i]]
    tab[T_G, G_RPT] = nsp - rounds
    return _run(tab, ftab, io)


# The header of an explicit deal (deal_array): then the stacks (11 per round), their
# specials, the replacement pile, the mystery pool and the removed slices.
D_ROUNDS, D_NREPL, D_NMYST, D_NREMOVED, D_SLICES = range(5)
D_HEAD = 5


@njit(cache=True)
def play_deal_kernel(tab, ftab, deal, n, strat, hparams, seed, index, rngs, prefix, trace):
    """Play a game from an explicit deal (``deal_array``) on reusable tables; the first
    ``len(prefix)`` real decisions take the prefix's actions. Returns the decision count;
    the scores are left in tab[T_OUT + p].

    Random seats draw from the streams of (seed, index) (row 1 + p, as in a study).
    """
    rounds = deal[D_ROUNDS]
    nrepl = deal[D_NREPL]
    nmyst = deal[D_NMYST]
    nremoved = deal[D_NREMOVED]
    S = deal[D_SLICES]
    any_random = False
    for p in range(n):
        tab[T_STRAT, p] = strat[p]
        if strat[p] == STRAT_RANDOM:
            any_random = True
        for j in range(hparams.shape[1]):
            ftab[F_HP + p, j] = hparams[p, j]
    if any_random:
        game_streams_into(seed, index, n + 1, rngs)
    drec = np.zeros((0, len(DECISION_COLUMNS)), dtype=np.int64)
    dcount = np.zeros(1, dtype=np.int64)
    return _play_deal(tab, ftab, deal, n, rounds, nrepl, nmyst, nremoved, S, rngs, trace, drec,
                      dcount, prefix)  # fmt: skip


@njit(cache=True)
def _play_deal(tab, ftab, deal, n, rounds, nrepl, nmyst, nremoved, S, rngs, trace, drec, dcount,
               prefix):  # fmt: skip
    tab = _borrow(tab)
    ftab = _borrow(ftab)
    io = (_borrow(rngs), _borrow(trace), _borrow(drec), _borrow(dcount), _borrow(prefix))
    _reset(tab, n, rounds, 0)
    off = D_HEAD
    for r in range(rounds):
        for i in range(11):
            tab[T_STACKS + r, i] = deal[off + r * 11 + i]
    off += rounds * 11
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
    hparams,
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
    hparams : float64 array (n, N_HPARAMS)
        The heuristic's parameters per seat (``heuristic.PARAM_ORDER``; unused rows 0).
    rngs : uint64 array (n + 1, 5)
        The game's streams (:mod:`sims.core.fastrng`): row 0 deals, row ``1 + p`` is seat p's.
    scores : int64 array (n, 8 or more)
        Receives the first ``len(SCORE_COLUMNS)`` columns at most.
    trace : int64 array (k, 3)
        Receives the first k decisions (player, phase, action).
    drec : int64 array (rows, len(DECISION_COLUMNS))
        Receives decision records from row ``dcount[0]`` on (``rows`` = 0: none kept).
    dcount : int64 array (1,)
        Rows written so far (advanced even past the end of ``drec``).
    game_index : int
        Written into the decision records.
    """
    tab, ftab = _new_tables(
        kind, ta, tb, pep, anch, deck_specials.shape[0], rules, strat, spv, hparams
    )
    prefix = np.zeros(0, dtype=np.int64)
    k = _play(
        tab, ftab, deck_specials, removed, n, rounds, rngs, trace, drec, dcount, game_index, prefix
    )
    for p in range(n):
        for c in range(min(scores.shape[1], len(SCORE_COLUMNS))):
            scores[p, c] = tab[T_OUT + p, c]
    return k


@njit(cache=True)
def play_games_kernel(
    kind, ta, tb, pep, anch, deck_specials, removed, n, rounds, rules, strat, spv, hparams,
    study_seed, first_index, scores, decisions, drec, dcount,
):  # fmt: skip
    """Play games ``first_index .. first_index + len(scores) - 1`` of a study in one call.

    Seeds each game exactly as ``SeedSequence([game_index, study_seed]).spawn(n + 1)``
    does, so game ``i`` is the same game whether it is played alone or in any chunk.
    Fills ``scores[g, p, SCORE_COLUMNS]``, ``decisions[g]`` (decisions taken) and, when
    ``drec`` has rows, the decision records.
    """
    tab, ftab = _new_tables(
        kind, ta, tb, pep, anch, deck_specials.shape[0], rules, strat, spv, hparams
    )
    rngs = np.zeros((n + 1, 5), dtype=np.uint64)
    trace = np.zeros((1, 3), dtype=np.int64)
    prefix = np.zeros(0, dtype=np.int64)
    ncol = min(scores.shape[2], len(SCORE_COLUMNS))
    for g in range(scores.shape[0]):
        game_streams_into(study_seed, first_index + g, n + 1, rngs)
        decisions[g] = _play(
            tab, ftab, deck_specials, removed, n, rounds, rngs, trace, drec, dcount,
            first_index + g, prefix,
        )  # fmt: skip
        for p in range(n):
            for c in range(ncol):
                scores[g, p, c] = tab[T_OUT + p, c]


# ----------------------------------------------------------------------------- Python side
def deal_array(deal, n_slices: int) -> np.ndarray:
    """Encode an ``engine.Deal`` for ``play_deal_kernel`` (``D_*`` header, then the parts).

    Raises
    ------
    ValueError
        For a stack that is not 11 slices, more rounds than the kernel holds, or a slice id
        outside the deck.
    """
    stacks = deal.stacks
    rounds = len(stacks)
    if not 1 <= rounds <= MAX_ROUNDS or len(deal.stack_specials) != rounds:
        raise ValueError(f"a deal needs 1 to {MAX_ROUNDS} stacks, each with its special")
    flat = [sid for st in stacks for sid in st]
    if any(len(st) != 11 for st in stacks):
        raise ValueError("the kernel plays stacks of 11 slices")
    head = [rounds, len(deal.replacement), len(deal.mystery), len(deal.removed), n_slices]
    out = np.array(
        head
        + flat
        + [int(x) for x in deal.stack_specials]
        + [int(x) for x in deal.replacement]
        + list(deal.mystery)
        + list(deal.removed),
        dtype=np.int64,
    )
    ids = out[D_HEAD : D_HEAD + len(flat)]
    tail = out[D_HEAD + len(flat) + rounds + len(deal.replacement) :]
    if (ids.size and (ids.min() < 0 or ids.max() >= n_slices)) or (
        tail.size and (tail.min() < 0 or tail.max() >= n_slices)
    ):
        raise ValueError("a deal names a slice id outside the deck")
    return out


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
        self._n_slices = len(deck.slices)
        self._rules = rules_array(rules)
        self._removed = {}
        for n in range(2, 7):
            mask = np.zeros(len(deck.slices), dtype=np.int64)
            mask[removed_slices(deck, n)] = 1
            self._removed[n] = mask
        self._tables = None  # play_deal's reusable state (built on first use)
        self._last_deal = None
        self._last_deal_array = None

    @staticmethod
    def _hparams(n: int, codes: np.ndarray, hparams) -> np.ndarray:
        if hparams is None:
            # Plain `heuristic` (its player-count defaults) in the heuristic seats.
            hp = np.zeros((n, N_HPARAMS), dtype=np.float64)
            if (codes == STRAT_HEURISTIC).any():
                from sims.games.nyslice.heuristic import params_for

                params = params_for(n, {})
                hp[codes == STRAT_HEURISTIC] = [float(params[k]) for k in PARAM_ORDER]
            return hp
        hp = np.ascontiguousarray(hparams, dtype=np.float64)
        if hp.shape != (n, N_HPARAMS):
            raise ValueError(f"hparams must have shape ({n}, {N_HPARAMS}), not {hp.shape}")
        return hp

    @staticmethod
    def _codes(n: int, codes) -> np.ndarray:
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        if codes.shape != (n,):
            raise ValueError(f"{n} strategy codes needed, got shape {codes.shape}")
        if ((codes < 0) | (codes > STRAT_HEURISTIC)).any():
            raise ValueError(f"unknown strategy code in {codes.tolist()}")
        return codes

    def _setup(self, n: int, codes: np.ndarray, hparams=None) -> tuple:
        from sims.games.nyslice.rules import rounds_for

        codes = self._codes(n, codes)
        hp = self._hparams(n, codes, hparams)
        args = (self._removed[n], n, rounds_for(n), self._rules, codes, SPECIAL_VALUES, hp)
        return *self._deck, *args

    def play(
        self,
        n: int,
        codes: np.ndarray,
        study_seed: int,
        game_index: int,
        records: bool = False,
        hparams: np.ndarray | None = None,
    ):
        """Play one game.

        ``hparams`` (n, len(heuristic.PARAM_ORDER)): the heuristic seats' parameters
        (``heuristic_params``); None gives plain ``heuristic``'s (its defaults at n
        players) to the heuristic seats and zeros to the others.

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
        args = self._setup(n, codes, hparams)
        k = play_game_kernel(*args, rngs, scores, trace, drec, dcount, game_index)
        if k > MAX_TRACE:
            raise RuntimeError("decision trace overflow")
        if records:
            return scores, trace[:k], drec[:k]
        return scores, trace[:k]

    def play_many(
        self, n: int, codes: np.ndarray, study_seed: int, first_index: int, count: int,
        records: bool = False, hparams: np.ndarray | None = None,
    ):  # fmt: skip
        """Play ``count`` consecutive games in one kernel call.

        ``hparams`` as in :meth:`play`.

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
        args = self._setup(n, codes, hparams)
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

    def play_deal(
        self,
        n: int,
        codes: np.ndarray,
        hparams: np.ndarray | None,
        deal,
        prefix,
        seed_rngs: tuple[int, int] | None = None,
        trace: bool = False,
    ):
        """Play a game from an explicit deal, its first decisions given (a playout).

        Parameters
        ----------
        n : int
            Players.
        codes, hparams
            Strategy code and heuristic parameters per seat (as in :meth:`play`).
        deal : engine.Deal
            Stacks of 11 slices (one per round), their specials, the replacement pile,
            the mystery pool and the removed slices. Slices in none of the stacks and
            the pool are never dealt; as in ``PlayerView.unclaimed``, those not in
            ``deal.removed`` still count as unclaimed.
        prefix : sequence of int
            The actions of the game's first ``len(prefix)`` real decisions (those
            ``GameState.history`` records); the strategies decide the rest. An illegal
            prefix action, or more actions than the game has decisions, raises ValueError.
        seed_rngs : (study seed, game index), optional
            Streams of the random seats (default (0, 0)); prefix decisions draw nothing.
        trace : bool
            Also return the (player, phase, action) of every decision.

        Returns
        -------
        scores : int64 array (n, len(SCORE_COLUMNS))
        trace : int64 array (decisions, 3)
            Only when ``trace`` is true.

        The state tables are built once per runner and reused, and the last deal's
        encoding is kept, so calling this many times on one deal costs little besides
        the game itself.
        """
        if self._tables is None:
            kind, ta, tb, pep, anch, specials = self._deck
            tables = _new_tables(
                kind, ta, tb, pep, anch, specials.shape[0], self._rules,
                np.zeros(MAX_SEATS, dtype=np.int64), SPECIAL_VALUES,
                np.zeros((MAX_SEATS, N_HPARAMS)),
            )  # fmt: skip
            rngs = np.zeros((MAX_SEATS + 1, 5), dtype=np.uint64)
            self._tables = (*tables, rngs, np.zeros((MAX_TRACE, 3), dtype=np.int64))
        tab, ftab, rngs, tr = self._tables
        if deal is not self._last_deal:
            if len(deal.replacement) > len(self._deck[5]):
                raise ValueError("the replacement pile holds more specials than the deck")
            self._last_deal_array = deal_array(deal, self._n_slices)
            self._last_deal = deal
        if not 2 <= n <= MAX_SEATS:
            raise ValueError(f"2 to {MAX_SEATS} players, not {n}")
        codes = self._codes(n, codes)
        hp = self._hparams(n, codes, hparams)
        pre = np.ascontiguousarray(prefix, dtype=np.int64)
        if pre.ndim != 1:
            raise ValueError("prefix must be a sequence of actions")
        seed, index = (0, 0) if seed_rngs is None else (int(seed_rngs[0]), int(seed_rngs[1]))
        k = play_deal_kernel(
            tab, ftab, self._last_deal_array, n, codes, hp, seed, index, rngs, pre, tr
        )
        if k < len(pre):
            raise ValueError(f"the prefix has {len(pre)} actions, the game only {k} decisions")
        scores = tab[T_OUT : T_OUT + n, : len(SCORE_COLUMNS)].copy()
        if not trace:
            return scores
        if k > MAX_TRACE:
            raise RuntimeError("decision trace overflow")
        return scores, tr[:k].copy()


def strategy_codes(specs) -> np.ndarray:
    """Kernel codes of the strategies the kernel plays; raises KeyError for another one.

    ``random`` and ``greedy`` (without parameters), ``heuristic`` and the heuristic
    presets (``heuristic-p4``, ...; with or without parameters) map to their codes; give
    the heuristic seats' parameters with ``heuristic_params``.
    """
    from sims.core.errors import SlicelabError
    from sims.core.specs import parse_spec
    from sims.games.nyslice.heuristic import load_presets

    presets = None
    out = []
    for s in specs:
        text = str(s)
        if text in STRATEGY_CODES:
            out.append(STRATEGY_CODES[text])
            continue
        try:
            spec = parse_spec(text)
        except SlicelabError:
            raise KeyError(text) from None
        if spec.name == "heuristic":
            out.append(STRAT_HEURISTIC)
            continue
        if presets is None:
            presets = load_presets()
        if spec.name in presets:
            out.append(STRAT_HEURISTIC)
            continue
        raise KeyError(text)
    return np.array(out, dtype=np.int64)


def heuristic_params(specs, n: int) -> np.ndarray:
    """The kernel's ``hparams`` for a seating: each heuristic seat's resolved parameters
    (``make_strategy(spec).params(n)`` in ``heuristic.PARAM_ORDER``), zeros for the others.

    ``specs`` gives one spec per seat, or one for every seat.
    """
    from sims.games.nyslice.strategies import make_strategy

    specs = list(specs)
    if len(specs) == 1:
        specs = specs * n
    if len(specs) != n:
        raise ValueError(f"{len(specs)} strategies given for {n} players")
    codes = strategy_codes(specs)
    out = np.zeros((n, N_HPARAMS), dtype=np.float64)
    for p, (s, code) in enumerate(zip(specs, codes, strict=True)):
        if code == STRAT_HEURISTIC:
            params = make_strategy(str(s)).params(n)
            out[p] = [float(params[k]) for k in PARAM_ORDER]
    return out
