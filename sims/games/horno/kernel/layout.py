"""The kernel's codes and the layout of its state tables, and the card set and rule options
as arrays (derived from ``cards.py`` and ``rules.py``, never typed again).

The whole state of a game lives in one int64 table ``tab`` (rows ``T_*``; a group
``T_X + i`` has one row per seat or per dish type) and the heuristic's parameters in one
float64 table ``ftab`` (row = seat, column = :data:`PARAM_ORDER`). numba reference-counts
every array a compiled function receives, so one table passed around costs less than
thirty (see ``sims/games/nyslice/kernel/__init__.py``).
"""

from __future__ import annotations

import numpy as np

from sims.games.horno.cards import GARBAGE, INGREDIENT, MAX_TYPES, RADIOACTIVE, WILD, CardSet
from sims.games.horno.engine import OVEN_CLEAN, OVEN_STEAL, PANTRY_STEAL, PASS, SABOTAGE_CARD
from sims.games.horno.engine import Phase as _Phase
from sims.games.horno.heuristic import AMMO_KEPT, HEURISTIC_DEFAULTS, NEED
from sims.games.horno.records import DECISION_COLUMNS, GAME_COLUMNS, SEAT_COLUMNS
from sims.games.horno.rules import (
    DEAL,
    DRAW_LIMIT,
    HAND_LIMIT,
    INGREDIENTS,
    KINDS,
    MAX_PLAYERS,
    OVEN_SIZE,
    PREPARE_LIMIT,
    Rules,
)
from sims.games.horno.strategies import AMMO

# the engine's action codes and limits, as plain module values (numba freezes them)
A_PASS, A_PANTRY, A_OVEN, A_CLEAN = PASS, PANTRY_STEAL, OVEN_STEAL, OVEN_CLEAN
A_SABOTAGE = SABOTAGE_CARD
HAND_MAX, OVEN_MAX, DEAL_N = HAND_LIMIT, OVEN_SIZE, DEAL
DRAW_MAX, PREPARE_MAX = DRAW_LIMIT, PREPARE_LIMIT
MAX_SEATS = MAX_PLAYERS
N_TYPES_MAX = MAX_TYPES
MAX_ING = INGREDIENTS.high
"""Ingredients a dish may need (the declared limit ``rules.INGREDIENTS``; ``cards.py``
refuses more)."""
# the action codes pack a seat, a slot or a kind in their digits (``engine.py``)
assert MAX_PLAYERS <= 10 and OVEN_SIZE <= 10 and KINDS.high <= 100
HIDDEN = -2
"""A face-down card as a seat that did not place it sees it (``view.HIDDEN``)."""
NEED_V = NEED
AMMO_HEUR = AMMO_KEPT
AMMO_GREEDY = AMMO

P_REDRAW, P_DISH, P_DISCARD, P_DRAW, P_ACTION, P_KEEP, P_GIVE, P_REPLACE, P_CLEAN_MORE, \
    P_PREPARE, P_SABOTAGE = (int(p) for p in _Phase)  # fmt: skip

# card classes
C_INGREDIENT, C_WILD, C_GARBAGE, C_RADIOACTIVE = range(4)
_CLASS = {INGREDIENT: C_INGREDIENT, WILD: C_WILD, GARBAGE: C_GARBAGE, RADIOACTIVE: C_RADIOACTIVE}

# strategy codes
K_RANDOM, K_GREEDY, K_HEURISTIC = range(3)
KINDS = {"random": K_RANDOM, "greedy": K_GREEDY, "heuristic": K_HEURISTIC}
"""The families the kernel plays (``heuristic`` with its presets)."""

PARAM_ORDER = tuple(HEURISTIC_DEFAULTS)
"""The heuristic's parameters as ``ftab`` columns (``avoid`` last)."""
(H_BASE, H_HELD, H_VISIBLE, H_LATE, H_RADIO, H_FUTURE, H_AMMO, H_DISCARD, H_ROOM, H_DRAW,
 H_STEAL, H_HARM, H_LEADER, H_CLEAN, H_SABOTAGE, H_WILD,
 H_AVOID) = range(len(PARAM_ORDER))  # fmt: skip
assert PARAM_ORDER[H_AVOID] == "avoid" and PARAM_ORDER[H_WILD] == "wild"
assert PARAM_ORDER[H_BASE] == "base" and PARAM_ORDER[H_SABOTAGE] == "sabotage"

# rule options (``rules_array``)
(R_FIRST, R_RESHUFFLE, R_PANTRY_SINGLE_FORBIDDEN, R_EMPTY_RETURN_BOTH, R_LIMIT_ALWAYS,
 R_FACE_DOWN, R_NEEDS_REPLACEMENT, R_COMPLETES_FORBIDDEN, R_REPEAT_TYPES, R_NO_DISH_REPEAT,
 R_SECOND_RADIOACTIVE, R_BONUS_EACH, R_TIE_DISHES, R_ROUNDS, R_HAND,
 R_OVEN) = range(16)  # fmt: skip

# scalars: tab[T_G, G_*]
(G_N, G_NK, G_NT, G_ND, G_WILD, G_NDECK0, G_DHEAD, G_DEND, G_NDISC, G_ROUND, G_TURN,
 G_FACEUP, G_RESHUF, G_VICTIM, G_SLOT, G_NTAKEN, G_TAKEN0, G_TAKEN1, G_KEPT, G_NTRACE,
 G_GAME, G_REC, G_NREC, G_RECCAP) = range(24)  # fmt: skip

# per-seat scalars: tab[T_S + S_*, seat]
(S_DISH, S_CLOSED, S_NSC, S_PTS, S_BASE, S_GARB, S_BON, S_PEN, S_PS, S_PSD, S_OS, S_OSD,
 S_SAB, S_SABD, S_CLN, S_CLND, S_DRAWN, S_DISC, S_PLACED, S_REDRAWN, S_FIRST, S_UDISH,
 S_UCOR, S_UBAD, S_STRAT, S_ORDER, S_POS, S_NHAND, S_NOVEN) = range(29)  # fmt: skip
N_S = 29

# rows
T_G = 0
T_RULES = 1
T_KCLS, T_KPEN, T_KTYPE, T_KBONUS, T_KCOPIES = 2, 3, 4, 5, 6  # per kind
T_DTYPE, T_DPTS, T_DNING, T_DNBACK = 7, 8, 9, 10  # per dish
T_DING = 11  # + i: ingredient i of each dish (i < MAX_ING)
T_DBACK = T_DING + MAX_ING  # + i: the i-th ingredient its back shows
T_PILE0 = T_DBACK + MAX_ING  # + t: type t's dish cards in file order
T_NPILE0 = T_PILE0 + N_TYPES_MAX  # per type: their count
T_RADIO = T_NPILE0 + 1  # + t: type t's radioactive kinds
T_NRADIO = T_RADIO + N_TYPES_MAX
T_DECK0 = T_NRADIO + 1  # the deck before shuffling (CardSet.deck)
# the game
T_DECK = T_DECK0 + 1  # the deck, top card at tab[T_G, G_DHEAD]
T_DISC = T_DECK + 1  # the discard pile in the order discarded
T_PILE = T_DISC + 1  # + t: type t's pile from its top (T_PHEAD)
T_PHEAD = T_PILE + N_TYPES_MAX  # per type: index of its top card
T_HAND = T_PHEAD + 1  # + s: seat s's hand, sorted
T_OK = T_HAND + MAX_SEATS  # + s: seat s's oven cards' kinds in slot order
T_OUP = T_OK + MAX_SEATS  # + s: 1 if face up
T_OBY = T_OUP + MAX_SEATS  # + s: the seat that put it there
T_S = T_OBY + MAX_SEATS  # + S_*: per-seat scalars
T_DONET = T_S + N_S  # + s: dishes completed per type
T_SCD = T_DONET + MAX_SEATS  # + s: dish cards completed, in order
T_SCP = T_SCD + MAX_SEATS  # + s: their points
T_LEGAL = T_SCP + MAX_SEATS  # the pending decision's legal actions
T_UNSEEN = T_LEGAL + 1  # the heuristic's unseen counts per kind
T_TMP = T_UNSEEN + 1  # scratch rows
N_TMP = 4
N_ROWS = T_TMP + N_TMP

N_SEAT = len(SEAT_COLUMNS)
N_GAME = len(GAME_COLUMNS) + 1  # and the decisions
N_DEC = len(DECISION_COLUMNS)
assert SEAT_COLUMNS[-N_TYPES_MAX:] == tuple(f"completed_t{t}" for t in range(N_TYPES_MAX))


def rules_array(rules: Rules) -> np.ndarray:
    """The rule options as the kernel's int64 array (``R_*``)."""
    return np.array([
        rules.first_player, int(rules.reshuffle == "discard"),
        int(rules.pantry_single == "forbidden"), int(rules.pantry_empty_handed == "return-both"),
        int(rules.steal_hand_limit == "always"), int(rules.steal_face_down),
        int(rules.steal_needs_replacement), int(rules.steal_completes == "forbidden"),
        int(rules.repeat_types), int(rules.no_dish_left == "repeat"),
        int(rules.second_radioactive), int(rules.radioactive_bonus == "each"),
        int(rules.tie == "dishes"), rules.rounds, rules.hand_limit,
        rules.oven_limit,
    ], dtype=np.int64)  # fmt: skip


MIN_WIDTH = 64
"""At least room for any legal list: an ACTION has at most 1 + 3 pantry steals + 3 x 7
oven steals + 7 cleans = 32 actions, a SABOTAGE 1 + 3 x (the hand's distinct kinds)."""
assert MIN_WIDTH >= 1 + (MAX_SEATS - 1) * (1 + OVEN_MAX) + OVEN_MAX
assert MIN_WIDTH >= 1 + (MAX_SEATS - 1) * (HAND_MAX + 2)


def width_for(cards: CardSet) -> int:
    """The tables' width: room for the whole deck (the deck and the discard pile rows),
    every dish card (a seat's completed dishes), every kind and every legal list."""
    return max(len(cards.deck), len(cards.dishes), len(cards.kinds), MIN_WIDTH) + 4


def new_table(cards: CardSet, rules: Rules, n: int, strategies: np.ndarray) -> np.ndarray:
    """A table holding the card set, the rules and the seats' strategy codes (the game
    rows are filled by ``flow.start_game``)."""
    w = width_for(cards)
    tab = np.zeros((N_ROWS, w), dtype=np.int64)
    g = tab[T_G]
    g[G_N], g[G_NK], g[G_NT], g[G_ND] = n, len(cards.kinds), len(cards.types), len(cards.dishes)
    g[G_WILD], g[G_NDECK0] = cards.wild, len(cards.deck)
    tab[T_RULES, : R_OVEN + 1] = rules_array(rules)
    for k, kind in enumerate(cards.kinds):
        tab[T_KCLS, k] = _CLASS[kind.cls]
        tab[T_KPEN, k] = kind.penalty
        tab[T_KTYPE, k] = kind.type
        tab[T_KBONUS, k] = kind.bonus
        tab[T_KCOPIES, k] = kind.copies
        if kind.cls == RADIOACTIVE:
            t = kind.type
            tab[T_RADIO + t, tab[T_NRADIO, t]] = k
            tab[T_NRADIO, t] += 1
    for d, dish in enumerate(cards.dishes):
        tab[T_DTYPE, d], tab[T_DPTS, d] = dish.type, dish.points
        tab[T_DNING, d], tab[T_DNBACK, d] = len(dish.ingredients), len(dish.back)
        for i, k in enumerate(dish.ingredients):
            tab[T_DING + i, d] = k
        for i, k in enumerate(dish.back):
            tab[T_DBACK + i, d] = k
    for t in range(len(cards.types)):
        pile = cards.pile(t)
        tab[T_PILE0 + t, : len(pile)] = pile
        tab[T_NPILE0, t] = len(pile)
    tab[T_DECK0, : len(cards.deck)] = cards.deck
    tab[T_S + S_STRAT, :n] = strategies
    return tab
