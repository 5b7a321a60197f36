"""Whole games, compiled: the twin of ``game.play_game`` over a chunk of a study's games,
the entry point the runner calls; and the ``search`` player's playouts (games from given
deals with their first decisions forced)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.fastrng import game_streams_into
from sims.games.pieceocake.kernel.flow import _play, _play_dealt
from sims.games.pieceocake.kernel.layout import (
    G_DCOUNT,
    G_MOST,
    G_NFORCED,
    G_NMASKS,
    G_NS,
    N_DEC,
    N_SCORE,
    T_DEAL,
    T_G,
    T_HIST,
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


@njit(cache=True)
def playouts_kernel(
    variety, value, cream, copies, rules, strat, hparams, mtab, most, deals, hists, hlen,
    scores,
):  # fmt: skip
    """Play every deal of ``deals`` once per history of ``hists``: the game from that deal
    with the history's first decisions forced, the seats deciding the rest.

    Parameters
    ----------
    variety, value, cream, copies, rules, strat, hparams, mtab, most
        As :func:`play_games_kernel`; ``strat`` must hold no ``random`` seat (a playout has
        no random streams).
    deals : int64 array (samples, slices)
        Each a full deal: every slice id in deal order (five stacks of 11, then the
        slices left out).
    hists : int64 array (histories, width)
        Row h: the forced decisions, each its index in the decision's legal list, in the
        order the game meets them (the first ``hlen[h]`` entries are read).
    hlen : int64 array (histories,)
    scores : int64 array (samples, histories, n, N_SCORE)
        Receives each playout's ``SCORE_COLUMNS`` per seat.
    """
    n = strat.shape[0]
    tab_, ftab_ = _new_tables(variety, value, cream, copies, rules, strat, hparams)
    rngs_ = np.zeros((n + 1, 5), dtype=np.uint64)
    drec_ = np.zeros((0, N_DEC), dtype=np.int64)
    tab_[T_G, G_MOST] = most
    tab_[T_G, G_NMASKS] = mtab.shape[0]
    tab = _borrow(tab_)
    ftab = _borrow(ftab_)
    rngs = _borrow(rngs_)
    bdrec = _borrow(drec_)
    bmtab = _borrow(mtab)
    ns = tab_[T_G, G_NS]
    for d in range(deals.shape[0]):
        for h in range(hists.shape[0]):
            for i in range(ns):
                tab_[T_DEAL, i] = deals[d, i]
            tab_[T_G, G_NFORCED] = hlen[h]
            for i in range(hlen[h]):
                tab_[T_HIST, i] = hists[h, i]
            _play_dealt(tab, ftab, rngs, bdrec, bmtab, 0)
            for p in range(n):
                for c in range(N_SCORE):
                    scores[d, h, p, c] = tab_[T_OUT + p, c]
