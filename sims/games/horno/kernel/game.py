"""``game.play_game`` for a chunk of a study: the kernel's entry point."""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.fastrng import game_streams_into
from sims.games.horno.kernel.flow import play
from sims.games.horno.kernel.layout import (
    G_N,
    G_NREC,
    G_NTRACE,
    G_REC,
    G_RECCAP,
    S_NSC,
    S_UDISH,
    T_G,
    T_S,
    T_SCD,
    T_SCP,
)
from sims.games.horno.kernel.scoring import write_rows


@njit(cache=True)
def play_games_kernel(tab, ftab, seed, first, count, seats, games, dishes, scores, udish,
                      drec):  # fmt: skip
    """Play games ``first .. first + count - 1`` of a study with seed ``seed``.

    Parameters
    ----------
    tab : int64[rows, width]
        ``layout.new_table``: the card set, the rules and the seats' strategies.
    ftab : float64[seats, params]
        Each seat's heuristic parameters (``layout.PARAM_ORDER``).
    seats, games : int64 arrays
        (count, n, SEAT_COLUMNS) and (count, GAME_COLUMNS + 1), written.
    dishes, scores : int64[count, n, width]
        Each seat's completed dish cards and their points (``dishes_completed`` of them).
    udish : int64[count, n]
        Each seat's unfinished dish card (-1: none).
    drec : int64[cap, DECISION_COLUMNS]
        Decision records (none written when ``cap`` is 0).

    Returns
    -------
    int
        The decision records the games made (more than ``cap``: the records did not fit
        and were cut; play again with room for them all).
    """
    n = tab[T_G, G_N]
    rngs = np.zeros((1 + n, 5), dtype=np.uint64)
    g = tab[T_G]
    g[G_REC] = 1 if drec.shape[0] > 0 else 0
    g[G_RECCAP] = drec.shape[0]
    g[G_NREC] = 0
    for i in range(count):
        game_streams_into(seed, first + i, 1 + n, rngs)
        play(tab, ftab, rngs, drec, first + i)
        write_rows(tab, seats[i], games[i], g[G_NTRACE])
        for s in range(n):
            for q in range(tab[T_S + S_NSC, s]):
                dishes[i, s, q] = tab[T_SCD + s, q]
                scores[i, s, q] = tab[T_SCP + s, q]
            udish[i, s] = tab[T_S + S_UDISH, s]
    return g[G_NREC]
