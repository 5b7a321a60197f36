"""The ``search`` player's whole game, compiled: the twin of ``search.SearchStrategy``.

A game with search seats is played as a sequence of replays of its deal. Each replay
(``flow._play_dealt``) forces the decisions taken so far (T_HIST, ``G_NFORCED``) and lets
every other seat decide until a search seat reaches a decision; there it notes its
candidates (``candidates._search_pause``) and pauses, the rest of that replay only running
out. The driver (:func:`_search_game`) then plays each candidate out on the same
determinizations (the order of the slices not yet laid: their ids ascending through
``shuffle``, the twin of ``Generator.permutation`` in ``PlayerView.determinize``, drawn
from the seat's own stream), every seat of a playout playing the heuristic with the search
seat's heuristic columns (the player-count default: the equilibrium field), and appends
the candidate of the best summed outcome (:func:`_outcome`; the first of equals) to the
decisions taken. No compiled function calls itself: a playout never pauses, because no
playout seat searches.

A replay costs little besides its new decisions (the forced ones only check legality), so
a search game costs its playouts: per decision, ``max(1, budget // candidates)``
determinizations times the candidates, each a game from the deal with the prefix forced.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sims.core.fastrng import shuffle
from sims.games.pieceocake.cake import ROUNDS
from sims.games.pieceocake.kernel.flow import _play_dealt
from sims.games.pieceocake.kernel.layout import (
    F_HP,
    G_N,
    G_NCAND,
    G_NFORCED,
    G_NS,
    G_PAT,
    G_PAUSE,
    G_PPHASE,
    G_PROUND,
    G_PSEAT,
    N_HPARAMS,
    NC,
    P_CUT,
    R_TIE,
    S_BUDGET,
    SC_CREAM,
    SC_SCORE,
    T_CAND,
    T_DEAL,
    T_G,
    T_HIST,
    T_OUT,
    T_RULES,
    TIE_CREAM,
)


@njit(cache=True)
def _outcome(tab, n, seat, cream):
    """search.outcomes: the seat's win share (the best score wins; with ``cream``, more
    cream breaks a points tie; seats still level share it) plus a hundredth of its score
    margin over the best other seat."""
    top = tab[T_OUT, SC_SCORE]
    for q in range(1, n):
        top = max(top, tab[T_OUT + q, SC_SCORE])
    most = 0
    if cream:
        most = -1
        for q in range(n):
            if tab[T_OUT + q, SC_SCORE] == top:
                most = max(most, tab[T_OUT + q, SC_CREAM])
    winners = 0
    mine = False
    for q in range(n):
        if tab[T_OUT + q, SC_SCORE] == top and (not cream or tab[T_OUT + q, SC_CREAM] == most):
            winners += 1
            mine = mine or q == seat
    share = 1.0 / winners if mine else 0.0
    other = -(1 << 62)
    for q in range(n):
        if q != seat:
            other = max(other, tab[T_OUT + q, SC_SCORE])
    return share + 0.01 * float(tab[T_OUT + seat, SC_SCORE] - other)


@njit(cache=True)
def _search_decide(tab, ftab, ptab, pftab, rngs, nodrec, mtab):
    """The paused seat's action (its index in the legal list): each candidate played out
    on the same determinizations, the best summed outcome winning (the first of equals),
    as SearchStrategy.choose. ``ptab``, ``pftab``: tables of the same cake and rules whose
    seats all play the heuristic, for the playouts."""
    seat = tab[T_G, G_PSEAT]
    nc = tab[T_G, G_NCAND]
    cut = tab[T_G, G_PPHASE] == P_CUT
    if nc == 1:
        return tab[T_CAND, 0] if cut else 0
    n = tab[T_G, G_N]
    ns = tab[T_G, G_NS]
    at = tab[T_G, G_PAT]
    samples = max(1, int(ftab[F_HP + seat, S_BUDGET]) // nc)
    for p in range(n):  # every playout seat plays the search seat's heuristic columns
        for c in range(N_HPARAMS):
            pftab[F_HP + p, c] = ftab[F_HP + seat, c]
    for i in range(at):
        ptab[T_HIST, i] = tab[T_HIST, i]
    ptab[T_G, G_NFORCED] = at + 1
    # PlayerView.determinize: the stacks laid so far kept, the other ids ascending, shuffled
    nseen = (min(tab[T_G, G_PROUND], ROUNDS - 1) + 1) * NC
    hidden = np.ones(ns, dtype=np.bool_)
    for i in range(nseen):
        ptab[T_DEAL, i] = tab[T_DEAL, i]
        hidden[tab[T_DEAL, i]] = False
    ids = np.empty(ns - nseen, dtype=np.int64)
    c = 0
    for sid in range(ns):
        if hidden[sid]:
            ids[c] = sid
            c += 1
    rest = ptab[T_DEAL, nseen:ns]
    rng = rngs[1 + seat]
    prngs = np.zeros((n + 1, 5), dtype=np.uint64)  # unused: no playout seat draws
    cream = tab[T_RULES, R_TIE] == TIE_CREAM
    totals = np.zeros(nc)
    for _ in range(samples):
        for i in range(ns - nseen):
            rest[i] = ids[i]
        shuffle(rng, rest)
        for j in range(nc):
            ptab[T_HIST, at] = tab[T_CAND, j] if cut else j
            _play_dealt(ptab, pftab, prngs, nodrec, mtab, 0)
            totals[j] += _outcome(ptab, n, seat, cream)
    best = 0
    for j in range(1, nc):
        if totals[j] > totals[best]:
            best = j
    return tab[T_CAND, best] if cut else best


@njit(cache=True)
def _search_game(tab, ftab, ptab, pftab, rngs, drec, nodrec, mtab, game_index, nforced):
    """Play the game dealt in T_DEAL with search seats (see the module docstring), its
    first ``nforced`` decisions read from T_HIST; return its decision count, the scores
    left in tab[T_OUT + p], the decisions in T_HIST and, when ``drec`` has rows, the
    records from a last replay of every decision.

    ``nodrec``: an empty record buffer (the replays and playouts keep no records)."""
    tab[T_G, G_NFORCED] = nforced
    while True:
        k = _play_dealt(tab, ftab, rngs, nodrec, mtab, game_index)
        if tab[T_G, G_PAUSE] == 0:
            break
        at = tab[T_G, G_PAT]
        tab[T_HIST, at] = _search_decide(tab, ftab, ptab, pftab, rngs, nodrec, mtab)
        tab[T_G, G_NFORCED] = at + 1
    if drec.shape[0] > 0:
        tab[T_G, G_NFORCED] = k
        k = _play_dealt(tab, ftab, rngs, drec, mtab, game_index)
    tab[T_G, G_NFORCED] = 0
    return k
