"""What a seat sees, compiled: the twin of ``view.PlayerView.unclaimed``.

(``PlayerView.type_count`` is ``scoring._count2`` in halves.)
"""

from __future__ import annotations

from numba import njit

from sims.games.nyslice.kernel.layout import G_N, T_G, T_HID, T_UNC


@njit(cache=True, inline="always")
def _unclaimed(tab, seat, t):
    """Numbered slices of type t that seat does not see claimed (view.unclaimed): in play and
    neither collected nor eaten, or eaten face down by another seat."""
    u = tab[T_UNC, t]
    for q in range(tab[T_G, G_N]):
        if q != seat:
            u += tab[T_HID + q, t]
    return u
