"""Whole games, compiled: the twin of ``game.play_game`` over a chunk of a study's games,
the entry point the runner calls (search seats included: ``search.py``); and the reference
``search`` player's playouts (games from given deals with their first decisions forced)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.fastrng import game_streams_into
from sims.games.pieceocake.kernel.flow import _deal, _play, _play_dealt
from sims.games.pieceocake.kernel.layout import (
    G_DCOUNT,
    G_MOST,
    G_N,
    G_NFORCED,
    G_NMASKS,
    G_NS,
    N_DEC,
    N_SCORE,
    STRAT_HEURISTIC,
    STRAT_SEARCH,
    T_DEAL,
    T_G,
    T_HIST,
    T_OUT,
    _borrow,
    _new_tables,
)
from sims.games.pieceocake.kernel.search import _search_game


@njit(cache=True)
def _hold(a, b, c, d, e):
    """A last use of arrays whose borrowed views (``layout._borrow``) a function used: numba
    releases an array after its last use, so an owner used only to borrow it could be freed
    (and its memory handed to the next allocation) while its view is still read."""
    if a.size < 0 or b.size < 0 or c.size < 0 or d.size < 0 or e.size < 0:
        raise ValueError("unreachable")


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
    hparams : float64 array (n, N_SEAT_PARAMS)
        Each seat's (theta, loss, fewer, margin) (``heuristic.PARAM_ORDER``), then a search
        seat's (budget, cuts) (``runner.seat_params``); greedy seats play
        ``heuristic.GREEDY_PARAMS`` whatever their row holds. A game with a search seat is
        played by ``search._search_game``'s replays.
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
    searching = False
    for p in range(n):
        searching = searching or strat[p] == STRAT_SEARCH
    # the playouts' tables (every seat the heuristic), when a seat searches
    pstrat = np.full(n if searching else 0, STRAT_HEURISTIC, dtype=np.int64)
    ptab_, pftab_ = _new_tables(variety, value, cream, copies, rules, pstrat, hparams)
    ptab_[T_G, G_N] = n
    ptab_[T_G, G_MOST] = most
    ptab_[T_G, G_NMASKS] = mtab.shape[0]
    nodrec_ = np.zeros((0, N_DEC), dtype=np.int64)
    # Borrowed views (not reference-counted): this function holds the arrays until it ends.
    tab = _borrow(tab_)
    ftab = _borrow(ftab_)
    ptab = _borrow(ptab_)
    pftab = _borrow(pftab_)
    rngs = _borrow(rngs_)
    bdrec = _borrow(drec)
    nodrec = _borrow(nodrec_)
    bmtab = _borrow(mtab)
    for g in range(scores.shape[0]):
        game_streams_into(study_seed, first_index + g, n + 1, rngs_)
        if searching:
            _deal(tab, rngs)
            decisions[g] = _search_game(
                tab, ftab, ptab, pftab, rngs, bdrec, nodrec, bmtab, first_index + g, 0
            )
        else:
            decisions[g] = _play(tab, ftab, rngs, bdrec, bmtab, first_index + g)
        for p in range(n):
            for c in range(N_SCORE):
                scores[g, p, c] = tab_[T_OUT + p, c]
    dcount[0] = tab_[T_G, G_DCOUNT]
    _hold(ftab_, ptab_, pftab_, rngs_, nodrec_)


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
        no random streams) and no ``search`` seat (a playout never pauses).
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
    for p in range(n):
        if strat[p] == STRAT_SEARCH:
            raise ValueError("a playout's seats cannot search (play a search game with play)")
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
    _hold(ftab_, tab_, ftab_, rngs_, drec_)


@njit(cache=True)
def play_deal_kernel(
    variety, value, cream, copies, rules, strat, hparams, mtab, most, deal, hist, nforced,
    study_seed, game_index, scores,
):  # fmt: skip
    """Play one game of an explicit deal, search seats included, its first ``nforced``
    decisions forced from ``hist``, every seat's stream the one of game (``study_seed``,
    ``game_index``) (the deal stream unused); return the decision count, leave the scores
    in ``scores`` (n, N_SCORE) and every decision's index in its legal list in
    ``hist[:count]`` (``hist``: room for a game's decisions).

    Parameters as :func:`play_games_kernel`; ``deal`` as :func:`playouts_kernel`'s."""
    n = strat.shape[0]
    tab_, ftab_ = _new_tables(variety, value, cream, copies, rules, strat, hparams)
    pstrat = np.full(n, STRAT_HEURISTIC, dtype=np.int64)
    ptab_, pftab_ = _new_tables(variety, value, cream, copies, rules, pstrat, hparams)
    rngs_ = np.zeros((n + 1, 5), dtype=np.uint64)
    nodrec_ = np.zeros((0, N_DEC), dtype=np.int64)
    for t in (tab_, ptab_):
        t[T_G, G_MOST] = most
        t[T_G, G_NMASKS] = mtab.shape[0]
    tab = _borrow(tab_)
    ftab = _borrow(ftab_)
    ptab = _borrow(ptab_)
    pftab = _borrow(pftab_)
    rngs = _borrow(rngs_)
    nodrec = _borrow(nodrec_)
    bmtab = _borrow(mtab)
    game_streams_into(study_seed, game_index, n + 1, rngs_)
    for i in range(deal.shape[0]):
        tab_[T_DEAL, i] = deal[i]
    for i in range(nforced):
        tab_[T_HIST, i] = hist[i]
    k = _search_game(tab, ftab, ptab, pftab, rngs, nodrec, nodrec, bmtab, game_index, nforced)
    for p in range(n):
        for c in range(N_SCORE):
            scores[p, c] = tab_[T_OUT + p, c]
    for i in range(k):
        hist[i] = tab_[T_HIST, i]
    _hold(ftab_, ptab_, pftab_, rngs_, nodrec_)
    return k
