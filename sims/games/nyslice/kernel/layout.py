"""The kernel's state layout, and every table it takes from the rules and the deck.

Codes (phases, slice kinds, specials, strategies), the rows and scalars of the state tables
``tab`` and ``ftab`` (the package docstring describes them), the output columns, and the
facts of ``rules.py`` and ``deck.py`` the compiled code reads: each is derived here from
those modules' public names, never typed again. numba freezes these module-level values
into the compiled functions as constants (``sims.games.kernel_cache`` keys the cache on them).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import carray, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from sims.core.errors import SlicelabError
from sims.games.nyslice.deck import N_REAL_SPECIALS, TYPES, VEGGIE, Kind, Special
from sims.games.nyslice.engine import Phase
from sims.games.nyslice.heuristic import PARAM_ORDER
from sims.games.nyslice.rules import (
    COMPENSATION_ENTRIES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SLICES_PER_STACK,
    SPECIALS_NEVER_VALID,
    SPECIALS_NOT_IN_LAST_ROUND,
    Rules,
    rounds_for,
)
from sims.games.nyslice.strategies import SPECIAL_VALUE


def _require(ok: bool, what: str) -> None:
    """Refuse, at import, a rules or deck fact the kernel's layout cannot hold."""
    if not ok:
        raise ImportError(f"the compiled New York Slice kernel cannot hold this: {what}")


# ----------------------------------------------------------------------------- codes
# Phase codes (engine.Phase).
P_DIBS, P_EAT = int(Phase.DIBS), int(Phase.EAT)
P_SUPREME, P_CUT = int(Phase.SUPREME), int(Phase.CUT)
P_CIL, P_SNEAK = int(Phase.CUT_IN_LINE), int(Phase.SNEAK)
P_CHOOSE, P_RECV = int(Phase.CHOOSE), int(Phase.RECEIVE_EAT)
P_SEC_TYPE, P_SEC_EAT = int(Phase.SECONDS_TYPE), int(Phase.SECONDS_EAT)
# Slice kinds (deck.Kind).
K_NUM, K_COMBO = int(Kind.NUMBERED), int(Kind.COMBO)
K_ANCH, K_SUP = int(Kind.ANCHOVY), int(Kind.SUPREME)
# Special codes (deck.Special): the tile codes are 0 .. N_TILE_CODES - 1, the blank's too.
S_CIL, S_DIBS = int(Special.CUT_IN_LINE), int(Special.DIBS)
S_SNEAK, S_MYST = int(Special.SNEAK_A_SLICE), int(Special.MYSTERY_SLICE)
S_CRAV, S_YLV = int(Special.COMBO_CRAVINGS), int(Special.YOU_LOVE_VEGGIES)
S_SECONDS, S_SUPER = int(Special.SECONDS), int(Special.SUPER_SIZED_COMBOS)
S_TIE, S_YLA = int(Special.TIE_BREAKER), int(Special.YOU_LIKE_ANCHOVIES)
S_BUFFET, S_DAYOLD = int(Special.BUFFET), int(Special.DAY_OLD_PIZZA)
S_DIET, S_STUFFED = int(Special.EVERYONE_ELSES_DIET), int(Special.STUFFED_CRUST)
S_BLANK = int(Special.BLANK)
N_SPECIALS = N_REAL_SPECIALS  # the real specials: a deck's tiles (some may be blanks)
N_TILE_CODES = len(Special)
NO_SPECIAL = -1
_require(
    sorted(int(s) for s in Special) == list(range(N_TILE_CODES)),
    "special codes must be 0, 1, ... (they index the special columns)",
)
_require(
    all(int(s) < N_SPECIALS for s in Special if s is not Special.BLANK),
    "the real specials must have the codes below the blank's (the owned/used masks)",
)

# The numbered types (deck.TYPES) are range(TYPE_LO, TYPE_END); tables indexed by type have
# TYPE_END columns. Veggie (deck.VEGGIE) is the type You Love Veggies feeds on.
TYPE_LO, TYPE_END = min(TYPES), max(TYPES) + 1
VEG = VEGGIE
_require(TYPES == tuple(range(TYPE_LO, TYPE_END)), "the numbered types must be consecutive")
_require(VEG in TYPES, "Veggie must be a numbered type")

# Strategy codes.
STRAT_RANDOM, STRAT_GREEDY, STRAT_HEURISTIC, STRAT_SEARCH = 0, 1, 2, 3
STRATEGY_CODES = {
    "random": STRAT_RANDOM,
    "greedy": STRAT_GREEDY,
    "heuristic": STRAT_HEURISTIC,
    "search": STRAT_SEARCH,
}

# The heuristic's parameters in a row of ftab, by name in heuristic.PARAM_ORDER.
(H_THETA, H_SHARP, H_HORIZON, H_DENY, H_TRUST,
 H_SPECIALS, H_SUPREME, H_DIBS, H_CIL, H_SNEAK, H_GEAT) = (PARAM_ORDER.index(k) for k in (
    "theta", "sharp", "horizon", "deny", "trust", "specials", "supreme", "dibs", "cil", "sneak",
    "geat",
))  # fmt: skip
N_HPARAMS = len(PARAM_ORDER)
# A seat's parameter row (hparams, ftab[F_HP + p]): the heuristic's, then search's
# (S_BUDGET, S_CUTS, S_WIDTH: search.SEARCH_DEFAULTS' order), then S_AVOID, the code of the
# special the seat plays without (restricted play, every strategy; NO_AVOID = -1: none),
# and S_FORFEIT, which restriction: 0 avoid (the special's portion is not chosen while
# another is free), 1 forfeit (portions chosen as usual; the tile forfeited either way).
# A search seat's heuristic columns hold the parameters its valuer and its playouts use
# (the player-count default).
S_BUDGET, S_CUTS, S_WIDTH, S_AVOID = N_HPARAMS, N_HPARAMS + 1, N_HPARAMS + 2, N_HPARAMS + 3
S_FORFEIT = N_HPARAMS + 4
N_SEAT_PARAMS = N_HPARAMS + 5
NO_AVOID = -1


def avoid_code(special: Special | None) -> int:
    """The S_AVOID column's value for a seat playing without ``special`` (avoiding or
    forfeiting it; ``None``: NO_AVOID)."""
    if special is None:
        return NO_AVOID
    if special is Special.BLANK:
        raise ValueError("a seat cannot avoid the blank tile")
    return int(special)


# ----------------------------------------------------------------------------- rules
RULE_FIELDS = tuple(f.name for f in dataclasses.fields(Rules))
"""The ``Rules`` options in ``tab[T_RULES]`` order (``rules_array``): every field of Rules."""

RULE_ENCODINGS: dict[str, dict[object, int]] = {
    "rejected_special": {"leaves": 0, "bottom": 1},
}
"""How ``rules_array`` encodes the options that are neither ints nor bools (those are
stored as ints). An option missing here, or a value missing from its encoding, is refused."""

_KERNEL_RULES: set[str] = set()


def _rule(name: str) -> int:
    """Index in ``tab[T_RULES]`` of the ``Rules`` option ``name``, which the kernel reads."""
    _require(name in RULE_FIELDS, f"Rules has no option {name!r} (was it renamed?)")
    _KERNEL_RULES.add(name)
    return RULE_FIELDS.index(name)


# Rules options in tab[T_RULES], by name (a new Ruling: one line here, then its use).
R_FIRST = _rule("first_slicer")
R_REJECTED = _rule("rejected_special")
REJECTED_BOTTOM = RULE_ENCODINGS["rejected_special"]["bottom"]
R_DIBS_SLICER = _rule("dibs_slicer_may_use")
R_DIBS_CLOSE = _rule("dibs_closes_circle")
R_SNEAK_SPONLY = _rule("sneak_may_leave_special_only")
R_VEG_LATER = _rule("veggies_edible_later")
R_SUP_COMBO = _rule("supreme_from_combo")
R_SUP_SAME = _rule("supreme_same_portion")
R_SUP_LATE = _rule("supreme_late_any_type")
R_SEC_SUP = _rule("seconds_with_supreme")
R_SEC_ALONE = _rule("seconds_supreme_alone")
R_SSC_HALVES = _rule("super_sized_combo_halves")
R_STUFFED = _rule("stuffed_crust_points")
R_DAYOLD = _rule("day_old_pizza_points")
R_CRAV = _rule("combo_cravings_points")
R_YLV = _rule("you_love_veggies_points")
R_BUFFET = _rule("buffet_points")
R_COMP = _rule("compensation")  # its slot holds the list's length; the values follow below
R_BONUS = len(RULE_FIELDS)
"""``Rules.compensation`` by position from the first slicer: tab[T_RULES, R_BONUS + pos] for
pos in 0 .. MAX_PLAYERS - 1 (0 beyond the list), after one slot per field: as many slots as
the list may have entries (``rules.COMPENSATION_ENTRIES``), and one per seat (scoring reads
the slot of every seat's position)."""
N_RULE_SLOTS = R_BONUS + max(COMPENSATION_ENTRIES.high, MAX_PLAYERS)
RULE_VECTORS = {"compensation": R_BONUS}
"""The options that are tuples of ints, with the slot their values start at."""
KERNEL_RULES = frozenset(_KERNEL_RULES)
"""The ``Rules`` options the kernel plays; any other plays only at its default."""

_DEFAULT_RULES = Rules()


def _encode_rule(name: str, value: object) -> int:
    if name in RULE_ENCODINGS:
        codes = RULE_ENCODINGS[name]
        if value not in codes:
            raise SlicelabError(
                f"the compiled kernel cannot play rule option {name}={value!r}: "
                f"it knows {sorted(map(str, codes))}; use the reference engine"
            )
        return codes[value]
    if isinstance(value, bool | int):
        return int(value)
    raise SlicelabError(
        f"the compiled kernel cannot encode rule option {name}={value!r}: "
        "give it an encoding in kernel/layout.py (RULE_ENCODINGS)"
    )


def rules_array(rules: Rules) -> np.ndarray:
    """Encode the rule options for the kernel: every field of ``Rules`` in ``RULE_FIELDS``
    order (the ``R_*`` indices), then the values of the tuple options (``RULE_VECTORS``:
    the field's own slot holds the tuple's length).

    Raises
    ------
    SlicelabError
        For a value the kernel cannot encode, or an option the kernel does not play set to
        other than its default.
    """
    out = np.zeros(N_RULE_SLOTS, dtype=np.int64)
    for i, name in enumerate(RULE_FIELDS):
        value = getattr(rules, name)
        default = getattr(_DEFAULT_RULES, name)
        if name not in KERNEL_RULES and value != default:
            raise SlicelabError(
                f"the compiled kernel does not play rule option {name}={value!r} (only its "
                f"default {default!r}); use the reference engine"
            )
        if name in RULE_VECTORS:
            start = RULE_VECTORS[name]
            out[i] = len(value)
            out[start : start + len(value)] = value
            continue
        out[i] = _encode_rule(name, value)
    return out


# ----------------------------------------------------------------------------- tables
MAX_SEATS = MAX_PLAYERS
MAX_ROUNDS = max(rounds_for(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))
MAX_PORTIONS = MAX_SEATS + 1  # a cut makes n portions; one row to spare


def _special_invalid() -> np.ndarray:
    """``[last round, players, special code]``: 1 if the special may not appear
    (``engine.GameState._invalid_special``; a blank is always valid)."""
    out = np.zeros((2, MAX_PLAYERS + 1, N_TILE_CODES), dtype=np.int64)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        never = SPECIALS_NEVER_VALID.get(n, frozenset())
        for sp in Special:
            out[0, n, sp] = sp in never
            out[1, n, sp] = sp in never or sp in SPECIALS_NOT_IN_LAST_ROUND
    return out


SPECIAL_INVALID = _special_invalid()

# Scalars in tab[T_G].
G_N, G_ROUNDS, G_ROUND, G_SLICER, G_SPECIAL, G_M, G_CIRC, G_NPOR = range(8)
G_SUPH, G_SUPT, G_MYH, G_RPH, G_RPT, G_NTRACE, G_GAME, G_NMYST = range(8, 16)
# A search seat's pause (search.py): set when it reached a decision, with its seat, the
# number of candidates it wrote, and the round, mystery head and replacement head then (its
# determinizations' inputs); every later decision of that replay takes its first action.
G_PAUSE, G_PSEAT, G_NCAND, G_PROUND, G_PMYH, G_PRPH = range(16, 22)
# Just before Seconds (flow._run): its owner's eaten count, the Supreme's holder and type
# (so ownpoints.py can re-score the game as if Seconds had not been used).
G_SEC_NEAT, G_SEC_SUPH, G_SEC_SUPT = range(22, 25)
G_SIZE = 25

# Rows of the state table (see the package docstring). Scratch rows: T_DEAL, T_SPORD the
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
# The state table's least width (its rows by slice id and the replacement pile may need
# more): it holds a column per type, per special code, a stack and its Mystery slice.
T_MIN_WIDTH = 32
_require(
    T_MIN_WIDTH
    >= max(TYPE_END, N_TILE_CODES, SLICES_PER_STACK + 1, 2 * MAX_PORTIONS, G_SIZE, N_RULE_SLOTS),
    "the state table's least width",
)

# Rows of the float table; its width holds a column per special code (the blank too), per
# type, per heuristic parameter and a pizza's prefix sums, rounded up to whole cache lines.
# The heuristic's: F_HP + p seat p's parameters (H_* order); F_HCNT + p seat p's type
# counts; F_HPRE + p seat p's prefix sums of the pizza's slice values and F_HSUM + p its
# values of the portions of the cut being weighed (both valued by the slicer's valuer).
F_SPV, F_MINE, F_RIVAL, F_VAL, F_PREFIX, F_SUMS, F_PV = range(7)
F_HP = 7
F_HCNT = F_HP + MAX_SEATS
F_HPRE = F_HCNT + MAX_SEATS
F_HSUM = F_HPRE + MAX_SEATS
F_ROWS = F_HSUM + MAX_SEATS
F_WIDTH = (
    -(-max(N_TILE_CODES, TYPE_END, N_SEAT_PARAMS, SLICES_PER_STACK + 1, MAX_PORTIONS) // 8) * 8
)

# Score columns of the kernel's output; the masks have bit s set for special code s (bit
# S_BLANK: a blank tile); majorities_won counts the types whose majority the seat scored;
# bonus is the seat's compensation (Rules.compensation), part of the total.
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
    "bonus",
)
(SC_MAJ, SC_SPEC, SC_DIET, SC_PEP, SC_ANCH, SC_TOTAL, SC_EATEN, SC_COLL,
 SC_OWNED, SC_USED, SC_WON, SC_BONUS) = (SCORE_COLUMNS.index(c) for c in (
    "majorities", "specials", "diet", "pepperoni", "anchovies", "total", "eaten", "collected",
    "owned_mask", "used_mask", "majorities_won", "bonus",
))  # fmt: skip
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
(DC_GAME, DC_ROUND, DC_SLICER, DC_SEAT, DC_PHASE, DC_ACTION, DC_NLEGAL, DC_SLICE, DC_KIND,
 DC_TA, DC_TB, DC_PEP, DC_ANCH, DC_OWN, DC_RIVAL, DC_UNCL, DC_PS, DC_LEFT) = (
    DECISION_COLUMNS.index(c) for c in (
        "game_index", "round", "slicer", "seat", "phase", "action", "n_legal", "slice",
        "slice_kind", "type_a", "type_b", "pepperoni", "anchovies", "own_count2",
        "rival_count2", "unclaimed", "portion_special", "portions_left",
    )
)  # fmt: skip
MAX_TRACE = 512
# A search decision's candidates (io[5] of flow._decide): more than the legal cuts of any
# seating (3,234 at 6 players on a ring of 11) and any Dibs! or Sneak-a-Slice list.
MAX_CANDS = 4096

# The header of an explicit deal (runner.deal_array): then the stacks (SLICES_PER_STACK
# per round), their specials, the replacement pile, the mystery pool and the removed slices.
D_ROUNDS, D_NREPL, D_NMYST, D_NREMOVED, D_SLICES = range(5)
D_HEAD = 5

SPECIAL_VALUES = np.array(
    [SPECIAL_VALUE[Special(i)] for i in range(N_TILE_CODES)], dtype=np.float64
)
"""Greedy's special values by code (strategies.SPECIAL_VALUE), passed in as ``spv``."""


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
    ``a`` alive while the view is in use: ``flow._play`` borrows its arguments, which its
    caller holds until it returns.
    """
    if not a.flags.c_contiguous:
        raise ValueError("the kernel's arrays must be C-contiguous")
    return carray(_voidptr(a.ctypes.data), a.shape, a.dtype)


@njit(cache=True)
def _new_tables(kind, ta, tb, pep, anch, nsp, rules, strat, spv, hparams):
    """The state tables of a deck, rule set and seating (the per-game rows are set by
    flow._play)."""
    S = kind.shape[0]
    tab = np.zeros((T_ROWS, max(S, 2 * nsp + 4, T_MIN_WIDTH)), dtype=np.int64)
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
