"""Own points of the specials, compiled: the twin of ``ownpoints.py``.

``own_points_kernel`` plays a study's games by index, each seeded and played exactly as
``game.play_games_kernel`` plays it, and at each game's end re-scores the game once per
special a seat holds (``_score_without``: the special's scoring effect removed, every
holding fixed), writing one row per such special (``_own_rows``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.fastrng import game_streams_into
from sims.games.nyslice.kernel.game import _buffers, _one_game
from sims.games.nyslice.kernel.layout import (
    DECISION_COLUMNS,
    G_N,
    G_SEC_NEAT,
    G_SEC_SUPH,
    G_SEC_SUPT,
    G_SUPH,
    G_SUPT,
    MAX_SEATS,
    N_SPECIALS,
    S_SECONDS,
    SC_EATEN,
    SC_TOTAL,
    SCORE_COLUMNS,
    T_COLL,
    T_EAT,
    T_G,
    T_NCOLL,
    T_NEAT,
    T_OUT,
    T_SP_OWNER,
)
from sims.games.nyslice.kernel.scoring import _score
from sims.games.nyslice.kernel.state import _tally

OWN_GAME, OWN_SPECIAL, OWN_HOLDER, OWN_TOTAL, OWN_EATEN = 0, 1, 2, 3, 3 + MAX_SEATS
OWN_WIDTH = 3 + 2 * MAX_SEATS
"""A row of ``own_points_kernel``: the game's position in ``indices``, the special's code,
its holder, then every seat's total (``OWN_TOTAL + p``) and eaten slices (``OWN_EATEN +
p``) in the game re-scored without the special."""


@njit(cache=True)
def _score_without(tab, sp):
    """Score every seat into tab[T_OUT + p] as if special sp had no scoring effect
    (ownpoints.without): its holder does not own it when scoring; for Seconds, the slices
    it ate are collected again and the Supreme, if it ate that, is back on its type. The
    game's state is left as it was (only T_OUT and scoring's scratch rows change)."""
    owner = tab[T_SP_OWNER, sp]
    if sp != S_SECONDS:
        tab[T_SP_OWNER, sp] = -1
        _score(tab, -1, -1)
        tab[T_SP_OWNER, sp] = owner
        return
    # Seconds ate the holder's last eaten slices, from G_SEC_NEAT on (flow._run).
    first = tab[T_G, G_SEC_NEAT]
    neat = tab[T_NEAT, owner]
    ncoll = tab[T_NCOLL, owner]
    for i in range(first, neat):
        sid = tab[T_EAT + owner, i]
        tab[T_COLL + owner, tab[T_NCOLL, owner]] = sid
        tab[T_NCOLL, owner] += 1
        _tally(tab, owner, sid, 1)
    tab[T_NEAT, owner] = first
    suph = tab[T_G, G_SUPH]
    supt = tab[T_G, G_SUPT]
    tab[T_G, G_SUPH] = tab[T_G, G_SEC_SUPH]
    tab[T_G, G_SUPT] = tab[T_G, G_SEC_SUPT]
    _score(tab, -1, -1)
    for i in range(first, neat):
        _tally(tab, owner, tab[T_EAT + owner, i], -1)
    tab[T_NCOLL, owner] = ncoll
    tab[T_NEAT, owner] = neat
    tab[T_G, G_SUPH] = suph
    tab[T_G, G_SUPT] = supt


@njit(cache=True)
def _own_rows(tab, g, rows, k):
    """Write rows[k, ...] for every real special a seat holds at the end of the game just
    scored (in special code order; a blank tile has none); return the next free row."""
    n = tab[T_G, G_N]
    for sp in range(N_SPECIALS):
        holder = tab[T_SP_OWNER, sp]
        if holder < 0:
            continue
        _score_without(tab, sp)
        rows[k, OWN_GAME] = g
        rows[k, OWN_SPECIAL] = sp
        rows[k, OWN_HOLDER] = holder
        for p in range(n):
            rows[k, OWN_TOTAL + p] = tab[T_OUT + p, SC_TOTAL]
            rows[k, OWN_EATEN + p] = tab[T_OUT + p, SC_EATEN]
        k += 1
    return k


@njit(cache=True)
def own_points_kernel(
    kind, ta, tb, pep, anch, deck_specials, removed, n, rounds, rules, strat, spv, hparams,
    study_seed, indices, scores, decisions, rows,
):  # fmt: skip
    """Play games ``indices`` of a study (each seeded as ``play_games_kernel`` seeds it, so
    game i is the study's game i) and re-score each once per special held at its end.

    Fills ``scores[g, p, SCORE_COLUMNS]`` and ``decisions[g]`` for the g-th index, and
    ``rows`` (at least ``len(indices) * N_SPECIALS`` rows of ``OWN_WIDTH``); returns the
    number of rows written.
    """
    tab, ftab, ptab, pftab, deal, cand, searching = _buffers(
        kind, ta, tb, pep, anch, deck_specials, rules, strat, spv, hparams
    )
    rngs = np.zeros((n + 1, 5), dtype=np.uint64)
    trace = np.zeros((1, 3), dtype=np.int64)
    drec = np.zeros((0, len(DECISION_COLUMNS)), dtype=np.int64)
    dcount = np.zeros(1, dtype=np.int64)
    ncol = min(scores.shape[2], len(SCORE_COLUMNS))
    k = 0
    for g in range(indices.shape[0]):
        game_streams_into(study_seed, indices[g], n + 1, rngs)
        decisions[g] = _one_game(
            tab, ftab, ptab, pftab, deck_specials, removed, n, rounds, rngs, trace, drec,
            dcount, indices[g], deal, cand, searching,
        )  # fmt: skip
        for p in range(n):
            for c in range(ncol):
                scores[g, p, c] = tab[T_OUT + p, c]
        k = _own_rows(tab, g, rows, k)
    return k
