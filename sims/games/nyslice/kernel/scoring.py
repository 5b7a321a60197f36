"""End-of-game scoring, compiled: the twin of ``scoring.py``.

Majority counts in halves (``type_counts_halves``), the majority winners with Tie-Breaker
(``majority_winners``) and every seat's score columns (``score``, with the compensation of
``Rules.compensation``), written into ``tab[T_OUT + p]`` in ``SCORE_COLUMNS`` order.
"""

from __future__ import annotations

from numba import njit

from sims.games.nyslice.kernel.layout import (
    G_N,
    G_SUPH,
    G_SUPT,
    K_ANCH,
    K_COMBO,
    K_NUM,
    K_SUP,
    N_SPECIALS,
    R_BONUS,
    R_BUFFET,
    R_CRAV,
    R_DAYOLD,
    R_FIRST,
    R_SSC_HALVES,
    R_STUFFED,
    R_YLV,
    S_BLANK,
    S_BUFFET,
    S_CRAV,
    S_DAYOLD,
    S_DIET,
    S_STUFFED,
    S_SUPER,
    S_TIE,
    S_YLA,
    S_YLV,
    SC_ANCH,
    SC_BONUS,
    SC_COLL,
    SC_DIET,
    SC_EATEN,
    SC_MAJ,
    SC_OWNED,
    SC_PEP,
    SC_SPEC,
    SC_TOTAL,
    SC_USED,
    SC_WON,
    T_ANCH,
    T_CMB,
    T_COLL,
    T_EAT,
    T_G,
    T_KIND,
    T_MASK,
    T_NBLANK,
    T_NCOLL,
    T_NEAT,
    T_NUM,
    T_OUT,
    T_PEP,
    T_RULES,
    T_SCNT,
    T_SP_OWNER,
    T_SP_USED,
    T_TA,
    T_TB,
    T_WIN,
    TYPE_END,
    TYPE_LO,
    VEG,
)
from sims.games.nyslice.kernel.state import _owns


@njit(cache=True, inline="always")
def _count2(tab, seat, t):
    """Seat's majority count of a numbered type t in halves (scoring.type_counts_halves;
    view.PlayerView.type_count doubled): a combo number counts 1, with Super-Sized Combos
    the rule's super_sized_combo_halves."""
    per_combo = tab[T_RULES, R_SSC_HALVES] if tab[T_SP_OWNER, S_SUPER] == seat else 1
    c = 2 * tab[T_NUM + seat, t] + per_combo * tab[T_CMB + seat, t]
    if tab[T_G, G_SUPH] == seat and tab[T_G, G_SUPT] == t:
        c += 2
    return c


@njit(cache=True)
def _score(tab, mseat, only):
    """Score every seat (only seat ``only`` if >= 0) into tab[T_OUT + p, SCORE_COLUMNS].

    If mseat >= 0, its collected slices flagged in tab[T_MASK] count as eaten (greedy's
    Seconds trials).
    """
    n = tab[T_G, G_N]
    for p in range(n):
        for t in range(TYPE_LO, TYPE_END):
            tab[T_SCNT + p, t] = _count2(tab, p, t)
    moved = 0
    if mseat >= 0:
        per_combo = tab[T_RULES, R_SSC_HALVES] if _owns(tab, mseat, S_SUPER) else 1
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
    for t in range(TYPE_LO, TYPE_END):
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
        for t in range(TYPE_LO, TYPE_END):
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
            elif tab[T_KIND, sid] == K_NUM and tab[T_TA, sid] == VEG:
                eaten_veg += 1
        for i in range(tab[T_NCOLL, p]):
            sid = tab[T_COLL + p, i]
            if p == mseat and tab[T_MASK, sid] == 1:
                pepper += tab[T_PEP, sid]
                if tab[T_KIND, sid] == K_COMBO:
                    eaten_combo += 1
                elif tab[T_KIND, sid] == K_NUM and tab[T_TA, sid] == VEG:
                    eaten_veg += 1
            else:
                anch += tab[T_ANCH, sid]
                if tab[T_KIND, sid] == K_ANCH:
                    anch_slice = 1
        spec = 0
        if _owns(tab, p, S_BUFFET):
            held = 0
            for t in range(TYPE_LO, TYPE_END):
                if tab[T_SCNT + p, t] > 0:
                    held += 1
            spec += tab[T_RULES, R_BUFFET] * (held + anch_slice)
        if _owns(tab, p, S_CRAV):
            spec += tab[T_RULES, R_CRAV] * eaten_combo
        if _owns(tab, p, S_DAYOLD):
            spec += tab[T_RULES, R_DAYOLD]
        if _owns(tab, p, S_STUFFED):
            spec += tab[T_RULES, R_STUFFED]
        if _owns(tab, p, S_YLV):
            spec += tab[T_RULES, R_YLV] * eaten_veg
        m = moved if p == mseat else 0
        eaten_n = tab[T_NEAT, p] + m
        diet = 0
        q = tab[T_SP_OWNER, S_DIET]
        if q >= 0 and q != p:
            diet = -(eaten_n // 2)
        anchovies = anch if _owns(tab, p, S_YLA) else -anch
        bonus = tab[T_RULES, R_BONUS + (p - tab[T_RULES, R_FIRST]) % n]
        out = T_OUT + p
        tab[out, SC_MAJ] = maj
        tab[out, SC_SPEC] = spec
        tab[out, SC_DIET] = diet
        tab[out, SC_PEP] = pepper
        tab[out, SC_ANCH] = anchovies
        tab[out, SC_BONUS] = bonus
        tab[out, SC_TOTAL] = maj + spec + diet + pepper + anchovies + bonus
        tab[out, SC_EATEN] = eaten_n
        tab[out, SC_COLL] = tab[T_NCOLL, p] - m
        owned = 0
        used = 0
        for x in range(N_SPECIALS):
            if tab[T_SP_OWNER, x] == p:
                owned |= 1 << x
                if tab[T_SP_USED, x] == 1:
                    used |= 1 << x
        if tab[T_NBLANK, p] == 1:
            owned |= 1 << S_BLANK
        tab[out, SC_OWNED] = owned
        tab[out, SC_USED] = used
        tab[out, SC_WON] = won
