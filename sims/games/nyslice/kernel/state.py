"""The game state's queries and moves, compiled: the twins of ``engine.GameState``'s
helpers.

Who owns and may use a special (``owner``, ``can_use``), who plays without one
(``avoids``: restricted play, read from the seat's parameter row in ``ftab``; ``shuns``:
the avoid restriction's choice), what a seat may eat
(``_edible``), the Sneak-a-Slice moves (``sneak_moves``, ``_may_give``), Seconds'
candidates (``_seconds_candidates``), and a seat's collecting and eating (the
``PlayerState`` lists, with the tallies ``tab`` keeps up to date as slices move). The
flow (``flow.py``) plays the game with them; the strategies read them.
"""

from __future__ import annotations

from numba import njit

from sims.games.nyslice.kernel.layout import (
    F_HP,
    G_CIRC,
    G_NPOR,
    G_ROUND,
    G_SUPH,
    G_SUPT,
    K_ANCH,
    K_COMBO,
    K_NUM,
    K_SUP,
    R_SEC_SUP,
    R_SNEAK_SPONLY,
    R_VEG_LATER,
    S_AVOID,
    S_CRAV,
    S_FORFEIT,
    S_YLV,
    T_CMB,
    T_COLL,
    T_EAT,
    T_G,
    T_HID,
    T_INMYST,
    T_KIND,
    T_LIVE,
    T_MV_DST,
    T_MV_END,
    T_MV_SRC,
    T_NANCH,
    T_NCOLL,
    T_NEAT,
    T_NUM,
    T_PEP,
    T_POR_LEN,
    T_POR_SP,
    T_POR_TAKEN,
    T_RULES,
    T_SP_OWNER,
    T_SP_ROUND,
    T_SP_USED,
    T_TA,
    T_TB,
    T_UNC,
    VEG,
)


@njit(cache=True, inline="always")
def _owns(tab, seat, sp):
    return tab[T_SP_OWNER, sp] == seat


@njit(cache=True, inline="always")
def _avoids(ftab, seat, sp):
    """Whether seat plays without special sp (restricted play, avoid or forfeit: it forfeits
    the tile on receipt; GameState.forfeits), from the S_AVOID column of its parameter row."""
    return sp >= 0 and ftab[F_HP + seat, S_AVOID] == sp


@njit(cache=True, inline="always")
def _shuns(ftab, seat, sp):
    """Whether seat avoids special sp (restricted play avoid: it does not choose its portion
    while another is free; GameState.avoids): S_AVOID is sp and S_FORFEIT is 0."""
    return _avoids(ftab, seat, sp) and ftab[F_HP + seat, S_FORFEIT] == 0.0


@njit(cache=True, inline="always")
def _can_use(tab, seat, sp):
    return (
        tab[T_SP_OWNER, sp] == seat
        and tab[T_SP_USED, sp] == 0
        and tab[T_SP_ROUND, sp] < tab[T_G, G_ROUND]
    )


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
    if k == K_NUM and tab[T_TA, sid] == VEG:
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
