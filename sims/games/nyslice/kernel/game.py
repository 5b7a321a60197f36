"""Whole games, compiled: the twin of ``game.play_game``, and the entry points the runner
calls.

One game (``play_game_kernel``), a chunk of a study's games seeded as the study seeds them
(``play_games_kernel``), or a playout from an explicit deal and action prefix
(``play_deal_kernel``).
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit

from sims.core.fastrng import game_streams_into
from sims.games.nyslice.kernel.flow import _deal_into, _play, _play_deal
from sims.games.nyslice.kernel.layout import (
    D_HEAD,
    DECISION_COLUMNS,
    F_HP,
    MAX_CANDS,
    SCORE_COLUMNS,
    STRAT_RANDOM,
    STRAT_SEARCH,
    T_OUT,
    T_STRAT,
    _new_tables,
)
from sims.games.nyslice.kernel.search import _search_game


@njit(cache=True)
def _buffers(kind, ta, tb, pep, anch, deck_specials, rules, strat, spv, hparams):
    """The tables of a seating, the playout tables when a seat searches (else the same
    tables again, unused), a deal buffer and a candidate buffer."""
    nsp = deck_specials.shape[0]
    tab, ftab = _new_tables(kind, ta, tb, pep, anch, nsp, rules, strat, spv, hparams)
    searching = False
    for p in range(strat.shape[0]):
        searching = searching or strat[p] == STRAT_SEARCH
    if searching:
        ptab, pftab = _new_tables(kind, ta, tb, pep, anch, nsp, rules, strat, spv, hparams)
    else:
        ptab, pftab = tab, ftab
    deal = np.zeros(D_HEAD + 2 * kind.shape[0] + 2 * nsp, dtype=np.int64)
    cand = np.zeros(MAX_CANDS if searching else 1, dtype=np.int64)
    return tab, ftab, ptab, pftab, deal, cand, searching


@njit(cache=True)
def _one_game(tab, ftab, ptab, pftab, deck_specials, removed, n, rounds, rngs, trace, drec,
              dcount, game_index, deal, cand, searching):  # fmt: skip
    """One game dealt from rngs[0]: by search.py's replays when a seat searches."""
    if searching:
        _deal_into(tab, deck_specials, removed, n, rounds, rngs[0], deal)
        return _search_game(
            tab, ftab, ptab, pftab, deal, n, rngs, trace, drec, dcount, game_index, cand
        )
    prefix = np.zeros(0, dtype=np.int64)
    return _play(
        tab, ftab, deck_specials, removed, n, rounds, rngs, trace, drec, dcount, game_index,
        prefix, deal, cand,
    )  # fmt: skip


@njit(cache=True)
def play_game_kernel(
    kind,
    ta,
    tb,
    pep,
    anch,
    deck_specials,
    removed,
    n,
    rounds,
    rules,
    strat,
    spv,
    hparams,
    rngs,
    scores,
    trace,
    drec,
    dcount,
    game_index,
):
    """Play one game; fill ``scores[p, SCORE_COLUMNS]`` and ``trace``; return the decision count.

    Parameters
    ----------
    kind, ta, tb, pep, anch : int64 arrays
        The deck (``Deck.arrays``).
    deck_specials : int64 array
        Special codes in the deck file's order (what the deal shuffles).
    removed : int64 array
        1 for slices removed at setup.
    n, rounds : int
        Players and rounds.
    rules : int64 array
        ``rules_array(Rules)``.
    strat : int64 array
        Strategy code per seat.
    spv : float64 array
        Greedy's special values.
    hparams : float64 array (n, N_HPARAMS)
        The heuristic's parameters per seat (``heuristic.PARAM_ORDER``; unused rows 0).
    rngs : uint64 array (n + 1, 5)
        The game's streams (:mod:`sims.core.fastrng`): row 0 deals, row ``1 + p`` is seat p's.
    scores : int64 array (n, 8 or more)
        Receives the first ``len(SCORE_COLUMNS)`` columns at most.
    trace : int64 array (k, 3)
        Receives the first k decisions (player, phase, action).
    drec : int64 array (rows, len(DECISION_COLUMNS))
        Receives decision records from row ``dcount[0]`` on (``rows`` = 0: none kept).
    dcount : int64 array (1,)
        Rows written so far (advanced even past the end of ``drec``).
    game_index : int
        Written into the decision records.
    """
    tab, ftab, ptab, pftab, deal, cand, searching = _buffers(
        kind, ta, tb, pep, anch, deck_specials, rules, strat, spv, hparams
    )
    k = _one_game(
        tab, ftab, ptab, pftab, deck_specials, removed, n, rounds, rngs, trace, drec, dcount,
        game_index, deal, cand, searching,
    )  # fmt: skip
    for p in range(n):
        for c in range(min(scores.shape[1], len(SCORE_COLUMNS))):
            scores[p, c] = tab[T_OUT + p, c]
    return k


@njit(cache=True)
def play_games_kernel(
    kind, ta, tb, pep, anch, deck_specials, removed, n, rounds, rules, strat, spv, hparams,
    study_seed, first_index, scores, decisions, drec, dcount,
):  # fmt: skip
    """Play games ``first_index .. first_index + len(scores) - 1`` of a study in one call.

    Seeds each game exactly as ``SeedSequence([game_index, study_seed]).spawn(n + 1)``
    does, so game ``i`` is the same game whether it is played alone or in any chunk.
    Fills ``scores[g, p, SCORE_COLUMNS]``, ``decisions[g]`` (decisions taken) and, when
    ``drec`` has rows, the decision records.
    """
    tab, ftab, ptab, pftab, deal, cand, searching = _buffers(
        kind, ta, tb, pep, anch, deck_specials, rules, strat, spv, hparams
    )
    rngs = np.zeros((n + 1, 5), dtype=np.uint64)
    trace = np.zeros((1, 3), dtype=np.int64)
    ncol = min(scores.shape[2], len(SCORE_COLUMNS))
    for g in range(scores.shape[0]):
        game_streams_into(study_seed, first_index + g, n + 1, rngs)
        decisions[g] = _one_game(
            tab, ftab, ptab, pftab, deck_specials, removed, n, rounds, rngs, trace, drec,
            dcount, first_index + g, deal, cand, searching,
        )  # fmt: skip
        for p in range(n):
            for c in range(ncol):
                scores[g, p, c] = tab[T_OUT + p, c]


@njit(cache=True)
def play_deal_kernel(tab, ftab, deal, n, strat, hparams, seed, index, rngs, prefix, trace):
    """Play a game from an explicit deal (``deal_array``) on reusable tables; the first
    ``len(prefix)`` real decisions take the prefix's actions. Returns the decision count;
    the scores are left in tab[T_OUT + p].

    Random seats draw from the streams of (seed, index) (row 1 + p, as in a study).
    """
    any_random = False
    for p in range(n):
        tab[T_STRAT, p] = strat[p]
        if strat[p] == STRAT_RANDOM:
            any_random = True
        for j in range(hparams.shape[1]):
            ftab[F_HP + p, j] = hparams[p, j]
    if any_random:
        game_streams_into(seed, index, n + 1, rngs)
    drec = np.zeros((0, len(DECISION_COLUMNS)), dtype=np.int64)
    dcount = np.zeros(1, dtype=np.int64)
    cand = np.zeros(1, dtype=np.int64)  # no playout seat searches (runner.play_deal checks)
    # int64(0), not 0: a literal argument would compile a second copy of the whole flow
    return _play_deal(tab, ftab, deal, n, rngs, trace, drec, dcount, prefix, int64(0), cand)
