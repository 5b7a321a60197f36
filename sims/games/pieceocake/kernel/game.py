"""Whole games, compiled: the twin of ``game.play_game`` over a chunk of a study's games,
the entry point the runner calls."""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.fastrng import game_streams_into
from sims.games.pieceocake.kernel.flow import _play
from sims.games.pieceocake.kernel.layout import (
    G_DCOUNT,
    G_MOST,
    G_NMASKS,
    N_SCORE,
    T_G,
    T_OUT,
    _borrow,
    _new_tables,
)


@njit(cache=True)
def play_games_kernel(
    variety, value, cream, copies, rules, strat, hparams, mtab, most, study_seed, first_index,
    scores, decisions, drec, dcount,
):  # fmt: skip
    """Play games ``first_index .. first_index + len(scores) - 1`` of a study in one call.

    Parameters
    ----------
    variety : int64 array
        The variety of each slice id (``Cake.slice_variety``).
    value, cream, copies : int64 arrays
        Per variety.
    rules : int64 array
        ``layout.rules_array(Rules)``.
    strat : int64 array (n,)
        Strategy code per seat.
    hparams : float64 array (n, N_HPARAMS)
        Each seat's (theta, loss, fewer, margin) (``heuristic.PARAM_ORDER``); greedy seats
        play ``heuristic.GREEDY_PARAMS`` whatever their row holds.
    mtab : int64 array (cuts, MT_WIDTH)
        The legal cuts ascending (``runner.cut_tables``: ``cuts.cut_masks``, each one's
        pieces in ``cuts.pieces_of``'s order).
    most : int
        The most pieces a cut may make (``Rules.max_pieces``).
    study_seed, first_index : int
        Each game is seeded as ``SeedSequence([game_index, study_seed]).spawn(n + 1)``
        (child 0 deals, child 1 + p is seat p's), so game i is the same game alone or in
        any chunk.
    scores : int64 array (count, n, N_SCORE)
        Receives each game's ``SCORE_COLUMNS`` per seat.
    decisions : int64 array (count,)
        Receives each game's number of real decisions.
    drec : int64 array (rows, N_DEC)
        Receives the decision records from row ``dcount[0]`` on (``rows`` = 0: none kept).
    dcount : int64 array (1,)
        Rows written so far (advanced even past the end of ``drec``).
    """
    n = strat.shape[0]
    tab_, ftab_ = _new_tables(variety, value, cream, copies, rules, strat, hparams)
    rngs_ = np.zeros((n + 1, 5), dtype=np.uint64)
    tab_[T_G, G_MOST] = most
    tab_[T_G, G_NMASKS] = mtab.shape[0]
    tab_[T_G, G_DCOUNT] = dcount[0]
    # Borrowed views (not reference-counted): this function holds the arrays until it ends.
    tab = _borrow(tab_)
    ftab = _borrow(ftab_)
    rngs = _borrow(rngs_)
    bdrec = _borrow(drec)
    bmtab = _borrow(mtab)
    for g in range(scores.shape[0]):
        game_streams_into(study_seed, first_index + g, n + 1, rngs_)
        decisions[g] = _play(tab, ftab, rngs, bdrec, bmtab, first_index + g)
        for p in range(n):
            for c in range(N_SCORE):
                scores[g, p, c] = tab_[T_OUT + p, c]
    dcount[0] = tab_[T_G, G_DCOUNT]
