"""Per-decision records, compiled: the twin of ``records.decision_row``.

One row of ``DECISION_COLUMNS`` per decision, the columns the reference's records have.
"""

from __future__ import annotations

from numba import njit

from sims.games.nyslice.kernel.layout import (
    DC_ACTION,
    DC_ANCH,
    DC_GAME,
    DC_KIND,
    DC_LEFT,
    DC_NLEGAL,
    DC_OWN,
    DC_PEP,
    DC_PHASE,
    DC_PS,
    DC_RIVAL,
    DC_ROUND,
    DC_SEAT,
    DC_SLICE,
    DC_SLICER,
    DC_TA,
    DC_TB,
    DC_UNCL,
    G_GAME,
    G_N,
    G_NPOR,
    G_ROUND,
    G_SLICER,
    K_COMBO,
    K_NUM,
    T_ANCH,
    T_G,
    T_KIND,
    T_PEP,
    T_POR_TAKEN,
    T_TA,
    T_TB,
)
from sims.games.nyslice.kernel.scoring import _count2
from sims.games.nyslice.kernel.view import _unclaimed


@njit(cache=True)
def _decision_row(tab, drec, dcount, player, phase, action, nlegal, sid, ps):
    """Append one row of DECISION_COLUMNS to drec (rows beyond its size are counted only)."""
    r = dcount[0]
    dcount[0] = r + 1
    if r >= drec.shape[0]:
        return
    for c in range(drec.shape[1]):
        drec[r, c] = -1
    drec[r, DC_GAME] = tab[T_G, G_GAME]
    drec[r, DC_ROUND] = tab[T_G, G_ROUND]
    drec[r, DC_SLICER] = tab[T_G, G_SLICER]
    drec[r, DC_SEAT] = player
    drec[r, DC_PHASE] = phase
    drec[r, DC_ACTION] = action
    drec[r, DC_NLEGAL] = nlegal
    drec[r, DC_PS] = ps
    left = 0
    for i in range(tab[T_G, G_NPOR]):
        if tab[T_POR_TAKEN, i] < 0:
            left += 1
    drec[r, DC_LEFT] = left
    if sid >= 0:
        k = tab[T_KIND, sid]
        t = tab[T_TA, sid]
        drec[r, DC_SLICE] = sid
        drec[r, DC_KIND] = k
        if k == K_NUM or k == K_COMBO:
            drec[r, DC_TA] = t
        if k == K_COMBO:
            drec[r, DC_TB] = tab[T_TB, sid]
        drec[r, DC_PEP] = tab[T_PEP, sid]
        drec[r, DC_ANCH] = tab[T_ANCH, sid]
        if drec[r, DC_TA] > 0:
            drec[r, DC_OWN] = _count2(tab, player, t)
            best = 0
            for q in range(tab[T_G, G_N]):
                if q != player:
                    c = _count2(tab, q, t)
                    if c > best:
                        best = c
            drec[r, DC_RIVAL] = best
            drec[r, DC_UNCL] = _unclaimed(tab, player, t)
