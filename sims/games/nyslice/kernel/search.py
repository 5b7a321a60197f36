"""The ``search`` player's whole game, compiled: the twin of ``search.SearchStrategy``.

A game with search seats is played as a sequence of replays of its deal. Each replay
(``flow._play_deal``) forces the decisions taken so far and lets every other seat decide
until a search seat reaches a decision; there it writes its candidates
(``candidates._search_pause``) and pauses, the rest of that replay only running out. The
driver (:func:`_search_game`) then plays each candidate out on the same determinizations
(:func:`_determinize`, the twin of ``PlayerView.determinize``, drawn from the seat's own
stream), every seat of a playout playing the heuristic with the search seat's valuer row
(the player-count default: the equilibrium field) and its own avoid column (restricted
play), and appends the best candidate to the
decisions taken. No compiled function calls itself: a playout never pauses, because no
playout seat searches.

A replay costs little besides its new decisions (the forced ones only check legality), so
a search game costs its playouts: per decision, ``budget // candidates`` determinizations
times the candidates, each a game from the deal with the prefix forced.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit

from sims.core.fastrng import shuffle
from sims.games.nyslice.kernel.flow import _play_deal
from sims.games.nyslice.kernel.layout import (
    D_HEAD,
    D_NMYST,
    D_NREPL,
    D_ROUNDS,
    DECISION_COLUMNS,
    F_HP,
    G_NCAND,
    G_PAUSE,
    G_PMYH,
    G_PROUND,
    G_PRPH,
    G_PSEAT,
    MAX_TRACE,
    S_AVOID,
    S_BUDGET,
    S_FORFEIT,
    SC_EATEN,
    SC_TOTAL,
    STRAT_HEURISTIC,
    T_G,
    T_OUT,
    T_STRAT,
)
from sims.games.nyslice.rules import SLICES_PER_STACK


@njit(cache=True)
def _determinize(deal, det, r, drawn, consumed, rng):
    """PlayerView.determinize: ``det`` becomes ``deal`` with what a seat in round ``r``
    cannot see reshuffled from ``rng`` (the later stacks with the undrawn mystery pool; the
    later stacks' specials with the unconsumed replacement pile), as the reference draws."""
    rounds = deal[D_ROUNDS]
    nrepl = deal[D_NREPL]
    nmyst = deal[D_NMYST]
    for i in range(deal.shape[0]):
        det[i] = deal[i]
    o_st = D_HEAD
    o_sp = o_st + rounds * SLICES_PER_STACK
    o_rp = o_sp + rounds
    o_my = o_rp + nrepl
    seen = (r + 1) * SLICES_PER_STACK
    nfut = rounds * SLICES_PER_STACK - seen
    slots = np.empty(nfut + nmyst - drawn, dtype=np.int64)
    for i in range(nfut):
        slots[i] = deal[o_st + seen + i]
    for i in range(nmyst - drawn):
        slots[nfut + i] = deal[o_my + drawn + i]
    shuffle(rng, slots)
    for i in range(nfut):
        det[o_st + seen + i] = slots[i]
    for i in range(nmyst - drawn):
        det[o_my + drawn + i] = slots[nfut + i]
    future = rounds - r - 1
    hidden = np.empty(future + nrepl - consumed, dtype=np.int64)
    for i in range(future):
        hidden[i] = deal[o_sp + r + 1 + i]
    for i in range(nrepl - consumed):
        hidden[future + i] = deal[o_rp + consumed + i]
    idx = np.arange(hidden.shape[0])
    shuffle(rng, idx)
    for i in range(future):
        det[o_sp + r + 1 + i] = hidden[idx[i]]
    for i in range(nrepl - consumed):
        det[o_rp + consumed + i] = hidden[idx[future + i]]


@njit(cache=True)
def _outcome(tab, n, seat):
    """search._outcome: the seat's win share (ties on total, then on eaten, share the win)
    plus a hundredth of its margin over the best other total."""
    top = tab[T_OUT, SC_TOTAL]
    for q in range(1, n):
        top = max(top, tab[T_OUT + q, SC_TOTAL])
    most = -1
    for q in range(n):
        if tab[T_OUT + q, SC_TOTAL] == top:
            most = max(most, tab[T_OUT + q, SC_EATEN])
    winners = 0
    mine = False
    for q in range(n):
        if tab[T_OUT + q, SC_TOTAL] == top and tab[T_OUT + q, SC_EATEN] == most:
            winners += 1
            mine = mine or q == seat
    share = 1.0 / winners if mine else 0.0
    other = -(1 << 62)
    for q in range(n):
        if q != seat:
            other = max(other, tab[T_OUT + q, SC_TOTAL])
    return share + 0.01 * float(tab[T_OUT + seat, SC_TOTAL] - other)


@njit(cache=True)
def _search_decide(tab, ftab, ptab, pftab, deal, n, rngs, hist, nh, cand, pcand):
    """The paused seat's action: each candidate played out on the same determinizations,
    the best mean outcome winning (the first of equals), as SearchStrategy.choose."""
    seat = tab[T_G, G_PSEAT]
    nc = tab[T_G, G_NCAND]
    cands = cand[:nc].copy()
    if nc == 1:
        return cands[0]
    samples = max(1, int(ftab[F_HP + seat, S_BUDGET]) // nc)
    r = max(tab[T_G, G_PROUND], 0)
    drawn = tab[T_G, G_PMYH]
    consumed = min(tab[T_G, G_PRPH], deal[D_NREPL])
    for p in range(n):
        ptab[T_STRAT, p] = STRAT_HEURISTIC
        for c in range(pftab.shape[1]):
            pftab[F_HP + p, c] = ftab[F_HP + seat, c]
        pftab[F_HP + p, S_AVOID] = ftab[F_HP + p, S_AVOID]  # each seat keeps its restriction
        pftab[F_HP + p, S_FORFEIT] = ftab[F_HP + p, S_FORFEIT]
    det = np.empty_like(deal)
    prng = np.zeros((n + 1, 5), dtype=np.uint64)
    ptrace = np.zeros((1, 3), dtype=np.int64)
    nodrec = np.zeros((0, len(DECISION_COLUMNS)), dtype=np.int64)
    nocount = np.zeros(1, dtype=np.int64)
    totals = np.zeros(nc)
    for _ in range(samples):
        _determinize(deal, det, r, drawn, consumed, rngs[1 + seat])
        for j in range(nc):
            hist[nh] = cands[j]
            _play_deal(ptab, pftab, det, n, prng, ptrace, nodrec, nocount, hist[: nh + 1],
                       int64(0), pcand)  # fmt: skip
            totals[j] += _outcome(ptab, n, seat)
    best = 0
    for j in range(1, nc):
        if totals[j] > totals[best]:
            best = j
    return cands[best]


@njit(cache=True)
def _search_game(tab, ftab, ptab, pftab, deal, n, rngs, trace, drec, dcount, game_index, cand):
    """Play the game of ``deal`` with search seats (see the module docstring); return the
    decision count, the scores left in tab[T_OUT + p], the first decisions in ``trace``
    and the records (when ``drec`` has rows) from a last replay of every decision.

    ``ptab``, ``pftab``: tables of the same deck and rules for the playouts.
    """
    hist = np.zeros(MAX_TRACE, dtype=np.int64)
    strace = np.zeros((MAX_TRACE, 3), dtype=np.int64)
    nodrec = np.zeros((0, len(DECISION_COLUMNS)), dtype=np.int64)
    nocount = np.zeros(1, dtype=np.int64)
    pcand = np.zeros(cand.shape[0], dtype=np.int64)
    nh = 0
    while True:
        k = _play_deal(tab, ftab, deal, n, rngs, strace, nodrec, nocount, hist[:nh],
                       game_index, cand)  # fmt: skip
        if k >= MAX_TRACE:
            raise ValueError("a search game has more decisions than the kernel traces")
        for i in range(nh, k):
            hist[i] = strace[i, 2]
        nh = k
        if tab[T_G, G_PAUSE] == 0:
            break
        hist[nh] = _search_decide(tab, ftab, ptab, pftab, deal, n, rngs, hist, nh, cand, pcand)
        nh += 1
    if drec.shape[0] > 0:
        _play_deal(tab, ftab, deal, n, rngs, strace, drec, dcount, hist[:nh], game_index, cand)
    for i in range(min(nh, trace.shape[0])):
        for c in range(3):
            trace[i, c] = strace[i, c]
    return nh
