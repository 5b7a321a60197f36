"""``engine.GameState._complete`` and ``_unfinished`` (a dish's points), and the rows of
``records.seat_rows`` and ``records.game_row`` from the table."""

from __future__ import annotations

from numba import njit

from sims.games.horno.kernel.layout import (
    C_GARBAGE,
    C_INGREDIENT,
    C_RADIOACTIVE,
    G_DEND,
    G_DHEAD,
    G_N,
    G_NT,
    G_RESHUF,
    G_ROUND,
    G_WILD,
    N_TYPES_MAX,
    R_BONUS_EACH,
    R_ROUNDS,
    R_TIE_DISHES,
    S_BASE,
    S_BON,
    S_CLN,
    S_CLND,
    S_CLOSED,
    S_DISC,
    S_DISH,
    S_DRAWN,
    S_FIRST,
    S_GARB,
    S_NOVEN,
    S_NSC,
    S_OS,
    S_OSD,
    S_PEN,
    S_PLACED,
    S_POS,
    S_PS,
    S_PSD,
    S_PTS,
    S_REDRAWN,
    S_SAB,
    S_SABD,
    S_UBAD,
    S_UCOR,
    S_UDISH,
    T_DONET,
    T_DPTS,
    T_DTYPE,
    T_G,
    T_KBONUS,
    T_KCLS,
    T_KPEN,
    T_KTYPE,
    T_OK,
    T_RULES,
    T_S,
    T_SCD,
    T_SCP,
)
from sims.games.horno.kernel.state import discard, dish_needs


@njit(cache=True)
def score_dish(tab, s):
    """Score seat ``s``'s completed dish and empty its oven into the discard pile (the
    first half of ``_complete``; the caller then closes the oven or asks for a dish)."""
    d = tab[T_S + S_DISH, s]
    dtype = tab[T_DTYPE, d]
    garbage = 0
    penalty = 0
    best = 0
    nbonus = 0
    total = 0
    for j in range(tab[T_S + S_NOVEN, s]):
        k = tab[T_OK + s, j]
        cls = tab[T_KCLS, k]
        if cls == C_GARBAGE:
            garbage -= tab[T_KPEN, k]
        elif cls == C_RADIOACTIVE:
            if tab[T_KTYPE, k] == dtype:
                b = tab[T_KBONUS, k]
                total += b
                best = b if nbonus == 0 else max(best, b)  # max(bonuses, default=0)
                nbonus += 1
            else:
                penalty -= tab[T_KPEN, k]
        discard(tab, k)
    bonus = total if tab[T_RULES, R_BONUS_EACH] == 1 else best
    base = tab[T_DPTS, d]
    points = base + garbage + bonus + penalty
    i = tab[T_S + S_NSC, s]
    tab[T_SCD + s, i] = d
    tab[T_SCP + s, i] = points
    tab[T_S + S_NSC, s] = i + 1
    tab[T_S + S_PTS, s] += points
    tab[T_S + S_BASE, s] += base
    tab[T_S + S_GARB, s] += garbage
    tab[T_S + S_BON, s] += bonus
    tab[T_S + S_PEN, s] += penalty
    tab[T_DONET + s, dtype] += 1
    tab[T_S + S_NOVEN, s] = 0
    tab[T_S + S_DISH, s] = -1
    return tab[T_G, G_ROUND] == tab[T_RULES, R_ROUNDS]


@njit(cache=True)
def unfinished(tab, s):
    """``_unfinished(s)``: the dish left in the oven at the end, its correct and bad
    cards."""
    d = tab[T_S + S_DISH, s]
    dtype = tab[T_DTYPE, d]
    wildk = tab[T_G, G_WILD]
    correct = 0
    bad = 0
    matching = 0
    wild = False
    n = tab[T_S + S_NOVEN, s]
    for j in range(n):
        k = tab[T_OK + s, j]
        cls = tab[T_KCLS, k]
        if cls == C_INGREDIENT:
            if dish_needs(tab, d, k):
                first = True
                for i in range(j):
                    if tab[T_OK + s, i] == k:
                        first = False
                if first:
                    correct += 1
        elif k == wildk:
            if not wild:
                correct += 1
                wild = True
        elif cls == C_RADIOACTIVE and tab[T_KTYPE, k] == dtype:
            matching += 1
        else:
            bad += 1
    correct += matching if tab[T_RULES, R_BONUS_EACH] == 1 else min(matching, 1)
    tab[T_S + S_UDISH, s] = d
    tab[T_S + S_UCOR, s] = correct
    tab[T_S + S_UBAD, s] = bad


@njit(cache=True)
def write_rows(tab, seats, games, ntrace):
    """``records.seat_rows`` into ``seats`` (n x SEAT_COLUMNS) and ``game_row`` and the
    decision count into ``games``."""
    n = tab[T_G, G_N]
    tie = tab[T_RULES, R_TIE_DISHES] == 1
    best_score = -(1 << 40)
    best_tb = -(1 << 40)
    for s in range(n):
        u = 2 * tab[T_S + S_UCOR, s] - tab[T_S + S_UBAD, s] if tab[T_S + S_UDISH, s] >= 0 else 0
        score = tab[T_S + S_BASE, s] + tab[T_S + S_GARB, s] + tab[T_S + S_BON, s] \
            + tab[T_S + S_PEN, s] + u  # fmt: skip
        tb = tab[T_S + S_NSC, s] if tie else 0
        seats[s, 1] = score
        seats[s, 2] = tb
        if score > best_score or (score == best_score and tb > best_tb):
            best_score, best_tb = score, tb
    done = 0
    for s in range(n):
        row = seats[s]
        has_u = tab[T_S + S_UDISH, s] >= 0
        row[0] = 1 if row[1] == best_score and row[2] == best_tb else 0
        row[3] = tab[T_S + S_BASE, s]
        row[4] = tab[T_S + S_GARB, s]
        row[5] = tab[T_S + S_BON, s]
        row[6] = tab[T_S + S_PEN, s]
        row[7] = 2 * tab[T_S + S_UCOR, s] - tab[T_S + S_UBAD, s] if has_u else 0
        row[8] = row[3] + row[4] + row[5] + row[6]
        row[9] = tab[T_S + S_NSC, s]
        row[10] = tab[T_S + S_UCOR, s] if has_u else 0
        row[11] = tab[T_S + S_UBAD, s] if has_u else 0
        for i, f in enumerate((S_PS, S_PSD, S_OS, S_OSD, S_SAB, S_SABD, S_CLN, S_CLND,
                               S_DRAWN, S_DISC, S_PLACED, S_REDRAWN, S_FIRST)):  # fmt: skip
            row[12 + i] = tab[T_S + f, s]
        row[25] = tab[T_S + S_CLOSED, s]
        row[26] = tab[T_S + S_POS, s]
        for t in range(N_TYPES_MAX):
            row[27 + t] = tab[T_DONET + s, t] if t < tab[T_G, G_NT] else 0
        done += tab[T_S + S_NSC, s]
    games[0] = tab[T_RULES, R_ROUNDS]
    games[1] = tab[T_G, G_RESHUF]
    games[2] = done
    games[3] = tab[T_G, G_DEND] - tab[T_G, G_DHEAD]
    games[4] = ntrace
