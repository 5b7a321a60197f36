"""The swing strategies (greedy, heuristic, mixed) in the compiled kernel: numba functions
of arrays only, the twins of :mod:`sims.games.pizzatheory.swing` and the valuation, the
placement, the cut and regret matching of :mod:`sims.games.pizzatheory.strategies`.

Every float is computed by the same sequence of operations as the reference's: the line
values from exact integer sums (``strategies.line_value``), the swing per outcome as
``(x - h y) - leader z``, regret matching's sums line by line from 0. So the two engines
value every candidate with the same float and break ties alike (``tests/games/pizzatheory/
test_pizzatheory_kernel.py`` checks it decision by decision).

Arrays: ``regions`` (216, spaces), the region of each space for each triple ``t = a*36 +
b*6 + c`` of lines of directions 0, 1, 2; ``tlines`` (216, 3), each triple's line per
direction; ``nreg`` (216,), each triple's region count. A placement candidate changes one
region of every triple: its changes are found from the position's per-triple totals and
that region's outcome (both kept in the position tables) by re-resolving that one region,
unless the placed colour thereby loses the safety rule, when its losses in every region of
the triple are counted again. The outcome of every (triple, region) is found once per
placement decision, and each candidate space sums its 36 cells per line, packed three
integers to a word (``cell_index``).

Seat parameters (a row of ``sp``): ``SP_AGGRESSION``, ``SP_LEADER``, ``SP_RISK``,
``SP_BLIND``, ``SP_ITERS``; a search seat's also ``SP_BUDGET``, ``SP_PLACES``, ``SP_MAGG``,
``SP_MLEAD`` and ``SP_MODEL`` (``kernel_search``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

# MAX_REGIONS: the regions per cut triple the tables hold (``board.REGIONS``, which the
# parser checks; a 7-space board is no narrower than a region row)
from sims.games.pizzatheory.board import LINES_PER_DIRECTION, MAX_REGIONS, N_DIRECTIONS

COLOURS = 3
LINES = LINES_PER_DIRECTION
TRIPLES = LINES**N_DIRECTIONS
SP_AGGRESSION, SP_LEADER, SP_RISK, SP_BLIND, SP_ITERS = range(5)
SP_BUDGET, SP_PLACES, SP_MAGG, SP_MLEAD, SP_MODEL = range(5, 10)  # a search seat's
N_SP = 10


def triple_tables(regions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``tlines`` (216, 3) and ``nreg`` (216,) for a board's region table (216, spaces)."""
    tlines = np.zeros((TRIPLES, 3), dtype=np.int64)
    for t in range(TRIPLES):
        tlines[t] = (t // (LINES * LINES), (t // LINES) % LINES, t % LINES)
    nreg = (regions.max(axis=1) + 1).astype(np.int64)
    return tlines, nreg


@njit(cache=True, inline="always")
def _outcome(c0, c1, c2, s0, s1, s2, tie_nothing):
    """One region's removals per colour and refills per colour, as a tuple ``(lost0,
    lost1, lost2, refill0, refill1, refill2)``: counts ``c0..c2``, safe flags ``s0..s2``."""
    top = max(c0, max(c1, c2))
    nlead = (c0 == top) + (c1 == top) + (c2 == top)
    if top == 0 or nlead == 3 or (nlead == 2 and tie_nothing):
        return 0, 0, 0, 0, 0, 0
    l0 = c0 if (c0 > 0 and c0 < top and not s0) else 0
    l1 = c1 if (c1 > 0 and c1 < top and not s1) else 0
    l2 = c2 if (c2 > 0 and c2 < top and not s2) else 0
    if nlead != 1:
        return l0, l1, l2, 0, 0, 0
    removed = l0 + l1 + l2
    if c0 == top:
        return l0, l1, l2, removed, 0, 0
    if c1 == top:
        return l0, l1, l2, 0, removed, 0
    return l0, l1, l2, 0, 0, removed


@njit(cache=True, inline="always")
def _outcome_flat(c0, c1, c2, n0, n1, n2, tn):
    """:func:`_outcome` without branches, for the placement tables' inner loop: ``n0..n2``
    are 1 where the colour is *not* safe, ``tn`` 1 under ``two_way_tie = "nothing"``."""
    top = max(c0, max(c1, c2))
    e0 = c0 == top
    e1 = c1 == top
    e2 = c2 == top
    nlead = e0 + e1 + e2
    live = (top > 0) * (nlead < 3) * (1 - (nlead == 2) * tn)
    l0 = c0 * (c0 < top) * n0 * live
    l1 = c1 * (c1 < top) * n1 * live
    l2 = c2 * (c2 < top) * n2 * live
    removed = (l0 + l1 + l2) * (nlead == 1)
    return l0, l1, l2, removed * e0, removed * e1, removed * e2


@njit(cache=True, inline="always")
def _pack6(l0, l1, l2, r0, r1, r2):
    """A region's outcome (:func:`_outcome`) in one int64, 8 bits a count (a loss is at
    most a supply, 40, a refill two)."""
    return l0 | (l1 << 8) | (l2 << 16) | (r0 << 24) | (r1 << 32) | (r2 << 40)


@njit(cache=True, inline="always")
def _unpack6(x):
    return (x & 255, (x >> 8) & 255, (x >> 16) & 255, (x >> 24) & 255, (x >> 32) & 255,
            (x >> 40) & 255)  # fmt: skip


@njit(cache=True, inline="always")
def _resolve_stored(cnt, t, nr, safety, tie_nothing):
    """Resolve triple ``t`` from its region counts ``cnt[t]``: ``(safe0, safe1, safe2,
    lost0, lost1, lost2, refill0, refill1, refill2)``, each region's outcome stored packed
    (:func:`_pack6`) in ``cnt[t, g, COLOURS]``."""
    s0 = s1 = s2 = safety
    if safety:
        for g in range(nr):
            if cnt[t, g, 0] > 1:
                s0 = False
            if cnt[t, g, 1] > 1:
                s1 = False
            if cnt[t, g, 2] > 1:
                s2 = False
    a0 = a1 = a2 = b0 = b1 = b2 = 0
    for g in range(nr):
        l0, l1, l2, r0, r1, r2 = _outcome(cnt[t, g, 0], cnt[t, g, 1], cnt[t, g, 2], s0, s1,
                                          s2, tie_nothing)  # fmt: skip
        cnt[t, g, COLOURS] = _pack6(l0, l1, l2, r0, r1, r2)
        a0 += l0
        a1 += l1
        a2 += l2
        b0 += r0
        b1 += r1
        b2 += r2
    return s0, s1, s2, a0, a1, a2, b0, b1, b2


@njit(cache=True)
def position_tables(owner, regions, nreg, safety, tie_nothing, cnt, bsafe, blost, brefill):
    """The position's region counts ``cnt`` (216, MAX_REGIONS, 4: the colours' counts,
    then the region's outcome packed) and each triple's safe flags, lost and refilled
    toppings per colour (``bsafe``, ``blost``, ``brefill``: (216, 3)); the board's spaces
    are ``owner``'s length."""
    spaces = owner.shape[0]
    for t in range(TRIPLES):
        for g in range(MAX_REGIONS):
            for c in range(COLOURS):
                cnt[t, g, c] = 0
        for i in range(spaces):
            c = owner[i]
            if c >= 0:
                cnt[t, regions[t, i], c] += 1
        s0, s1, s2, l0, l1, l2, r0, r1, r2 = _resolve_stored(cnt, t, nreg[t], safety,
                                                             tie_nothing)  # fmt: skip
        bsafe[t, 0], bsafe[t, 1], bsafe[t, 2] = s0, s1, s2
        blost[t, 0], blost[t, 1], blost[t, 2] = l0, l1, l2
        brefill[t, 0], brefill[t, 1], brefill[t, 2] = r0, r1, r2


@njit(cache=True)
def tables_place(space, colour, regions, nreg, safety, tie_nothing, cnt, bsafe, blost,
                 brefill):  # fmt: skip
    """Bring the position tables (:func:`position_tables`) up to date after one topping of
    ``colour`` is put on ``space``: in each triple only the space's region changes, unless
    the colour thereby loses the safety rule, when the triple is resolved again."""
    for t in range(TRIPLES):
        g = regions[t, space]
        if safety and bsafe[t, colour] != 0 and cnt[t, g, colour] == 1:
            cnt[t, g, colour] += 1
            s0, s1, s2, l0, l1, l2, r0, r1, r2 = _resolve_stored(cnt, t, nreg[t], safety,
                                                                 tie_nothing)  # fmt: skip
            bsafe[t, 0], bsafe[t, 1], bsafe[t, 2] = s0, s1, s2
            blost[t, 0], blost[t, 1], blost[t, 2] = l0, l1, l2
            brefill[t, 0], brefill[t, 1], brefill[t, 2] = r0, r1, r2
            continue
        s0, s1, s2 = bsafe[t, 0] != 0, bsafe[t, 1] != 0, bsafe[t, 2] != 0
        a0, a1, a2, b0, b1, b2 = _unpack6(cnt[t, g, COLOURS])
        cnt[t, g, colour] += 1
        e0, e1, e2, f0, f1, f2 = _outcome(cnt[t, g, 0], cnt[t, g, 1], cnt[t, g, 2], s0, s1,
                                          s2, tie_nothing)  # fmt: skip
        cnt[t, g, COLOURS] = _pack6(e0, e1, e2, f0, f1, f2)
        blost[t, 0] += e0 - a0
        blost[t, 1] += e1 - a1
        blost[t, 2] += e2 - a2
        brefill[t, 0] += f0 - b0
        brefill[t, 1] += f1 - b1
        brefill[t, 2] += f2 - b2


@njit(cache=True)
def position_deltas(supply, blost, brefill, d):
    """Each triple's change per colour (``swing.deltas``) from the position tables: ``d``
    (216, 3) written."""
    for t in range(TRIPLES):
        for c in range(COLOURS):
            lost = blost[t, c]
            d[t, c] = min(brefill[t, c], supply[c] + lost) - lost


@njit(cache=True, inline="always")
def _others(colour):
    return (1 if colour == 0 else 0), (1 if colour == 2 else 2)


@njit(cache=True, inline="always")
def leading_other(colour, on_board):
    """``swing.leading_other``: the other colour with strictly the most on the board, or -1
    when the two others hold as many (both lead: the swing weighs their mean change)."""
    a, b = _others(colour)
    if on_board[a] == on_board[b]:
        return -1
    return a if on_board[a] > on_board[b] else b


@njit(cache=True, inline="always")
def _line_triples(tlines, direction, known_dir, known_line, tk):
    """The triples of each line ``k`` of ``direction``, ``tk[k, :m]`` (those whose known
    direction's line is ``known_line``; ``known_dir = -1``: all), and ``m``, the outcomes
    per line (36, or 6 with a known direction)."""
    f0 = f1 = f2 = f3 = f4 = f5 = 0
    for t in range(TRIPLES):
        if known_dir >= 0 and tlines[t, known_dir] != known_line:
            continue
        k = tlines[t, direction]
        if k == 0:
            tk[0, f0] = t
            f0 += 1
        elif k == 1:
            tk[1, f1] = t
            f1 += 1
        elif k == 2:
            tk[2, f2] = t
            f2 += 1
        elif k == 3:
            tk[3, f3] = t
            f3 += 1
        elif k == 4:
            tk[4, f4] = t
            f4 += 1
        else:
            tk[5, f5] = t
            f5 += 1
    return f0


@njit(cache=True)
def _values(acc, m, sp, out, zhalf):
    """``strategies.line_value`` of each line from its sums ``acc`` (6, 9): ``out`` (6,).
    With ``zhalf`` the sums hold ``2 z`` (the two other colours tie for the lead, ``z = y /
    2``): the z sums are halved (and the square's quartered) exactly before use."""
    h = 0.5 * sp[SP_AGGRESSION]
    leader = sp[SP_LEADER]
    risk = sp[SP_RISK]
    f = 0.5 if zhalf else 1.0
    for k in range(LINES):
        sz = float(acc[k, 2]) * f
        mean = ((float(acc[k, 0]) - h * float(acc[k, 1])) - leader * sz) / m
        if risk == 0:
            out[k] = mean
            continue
        szz = float(acc[k, 5]) * (f * f)
        sxz = float(acc[k, 7]) * f
        syz = float(acc[k, 8]) * f
        e2 = (((((float(acc[k, 3]) + (h * h) * float(acc[k, 4]))
                 + (leader * leader) * szz) - (2.0 * h) * float(acc[k, 6]))
               - (2.0 * leader) * sxz) + ((2.0 * h) * leader) * syz
              ) / m  # fmt: skip
        var = max(e2 - mean * mean, 0.0)
        out[k] = mean - risk * math.sqrt(var)


@njit(cache=True)
def regret_matching(u, k, iters, regrets, totals, sigma, ev, w):
    """``strategies.regret_matching`` for ``k`` (2 or 3) players: ``u`` (3, 6, 6, 6) with
    ``u[i, a, b, c]`` player i's payoff for its own line a and the others' lines b, c in
    player order (``c`` unused, 0, at k = 2). The average strategies are written to
    ``totals`` (3, 6), normalised. Scratch: ``regrets``, ``sigma``, ``ev`` (3, 6), ``w`` (6,
    6)."""
    for i in range(k):
        for a in range(LINES):
            regrets[i, a] = 0.0
            totals[i, a] = 0.0
    for _ in range(iters):
        for i in range(k):
            total = 0.0
            for a in range(LINES):
                total = total + max(regrets[i, a], 0.0)
            for a in range(LINES):
                sigma[i, a] = max(regrets[i, a], 0.0) / total if total > 0 else 1 / LINES
        for i in range(k):
            o0 = 1 if i == 0 else 0
            if k == 3:
                o1 = 1 if i == 2 else 2
                for a in range(LINES):  # the last other's axis first, line by line from 0
                    for b in range(LINES):
                        s = 0.0
                        for c in range(LINES):
                            s = s + u[i, a, b, c] * sigma[o1, c]
                        w[a, b] = s
                for a in range(LINES):
                    s = 0.0
                    for b in range(LINES):
                        s = s + w[a, b] * sigma[o0, b]
                    ev[i, a] = s
            else:
                for a in range(LINES):
                    s = 0.0
                    for b in range(LINES):
                        s = s + u[i, a, b, 0] * sigma[o0, b]
                    ev[i, a] = s
            mean = 0.0
            for a in range(LINES):
                mean = mean + ev[i, a] * sigma[i, a]
            for a in range(LINES):
                regrets[i, a] = regrets[i, a] + (ev[i, a] - mean)
                totals[i, a] = totals[i, a] + sigma[i, a]
    for i in range(k):
        total = 0.0
        for a in range(LINES):
            total = total + totals[i, a]
        for a in range(LINES):
            totals[i, a] = totals[i, a] / total


def cell_index(regions: np.ndarray) -> np.ndarray:
    """``cellidx`` (3, spaces, 216) int16 for a board's region table (216, spaces):
    ``cellidx[d, s, k * 36 + q] = t * MAX_REGIONS + regions[t, s]`` where ``t`` is the
    ``q``-th triple (ascending) whose line of direction ``d`` is ``k``: for a placement on
    space ``s``, the cells of the packed outcome table a line of direction ``d`` sums, in
    one contiguous row."""
    spaces = regions.shape[1]
    per = TRIPLES // LINES
    out = np.zeros((N_DIRECTIONS, spaces, TRIPLES), dtype=np.int16)
    t = np.arange(TRIPLES)
    lines = np.stack([t // (LINES * LINES), (t // LINES) % LINES, t % LINES], axis=1)
    for d in range(N_DIRECTIONS):
        for k in range(LINES):
            ts = t[lines[:, d] == k]
            assert ts.shape[0] == per
            out[d, :, k * per : (k + 1) * per] = (ts * MAX_REGIONS)[None, :] + regions[ts].T
    return out


# A candidate's outcome (x, y, z) in one triple, packed into one int64 as x + y 2^16 + z
# 2^32 (and, for the spread, x^2, y^2, z^2 and xy, xz, yz with 21 bits each): a line's
# integer sums over its triples are then one sum per packed word, unpacked exactly (every
# |change| is at most a supply, 40, so every sum over 36 triples fits its field).
_B1 = 16
_B2 = 21


@njit(cache=True, inline="always")
def _unpack(s, bits):
    """The three signed fields of a packed sum ``s`` (``bits`` each)."""
    half = 1 << (bits - 1)
    mask = (1 << bits) - 1
    a = ((s + half) & mask) - half
    s = (s - a) >> bits
    b = ((s + half) & mask) - half
    c = (s - b) >> bits
    return a, b, c


@njit(cache=True)
def _place_table(colour, seat, lead, supply, nreg, safety, tie_nothing, cnt, bsafe, blost,
                 brefill, pk, q1, q2, moments):  # fmt: skip
    """For every triple ``t`` and region ``g``, the outcome (x, y, z) to ``seat`` of one
    more topping of ``colour`` in that region (and one less in its supply), packed at ``pk[t *
    MAX_REGIONS + g]`` (and its products in ``q1``, ``q2`` when ``moments``). Where the
    colour thereby loses the safety rule (it is safe in ``t`` and has one topping in the
    region) every region's outcome may change: the triple's totals with the colour unsafe
    are found once per triple, and each such region swapped in."""
    x0 = 1 if colour == 0 else 0
    x1 = 1 if colour == 1 else 0
    x2 = 1 - x0 - x1
    sup0, sup1, sup2 = supply[0] - x0, supply[1] - x1, supply[2] - x2
    o1, o2 = _others(seat)
    tn = 1 if tie_nothing else 0
    for t in range(TRIPLES):
        nr = nreg[t]
        s0, s1, s2 = bsafe[t, 0] != 0, bsafe[t, 1] != 0, bsafe[t, 2] != 0
        bl0, bl1, bl2 = blost[t, 0], blost[t, 1], blost[t, 2]
        br0, br1, br2 = brefill[t, 0], brefill[t, 1], brefill[t, 2]
        lose = safety and (s0 if colour == 0 else (s1 if colour == 1 else s2))
        u0, u1, u2 = s0 and x0 == 0, s1 and x1 == 0, s2 and x2 == 0
        n0, n1, n2 = 0 if s0 else 1, 0 if s1 else 1, 0 if s2 else 1  # may lose
        v0, v1, v2 = 0 if u0 else 1, 0 if u1 else 1, 0 if u2 else 1  # with the colour unsafe
        ul0 = ul1 = ul2 = ur0 = ur1 = ur2 = 0
        if lose:  # the triple's totals with the colour unsafe
            for g in range(nr):
                l0, l1, l2, r0, r1, r2 = _outcome_flat(cnt[t, g, 0], cnt[t, g, 1],
                                                       cnt[t, g, 2], v0, v1, v2, tn)  # fmt: skip
                ul0 += l0
                ul1 += l1
                ul2 += l2
                ur0 += r0
                ur1 += r1
                ur2 += r2
        base = t * MAX_REGIONS
        for g in range(nr):
            c0, c1, c2 = cnt[t, g, 0], cnt[t, g, 1], cnt[t, g, 2]
            cx = c0 if colour == 0 else (c1 if colour == 1 else c2)
            if lose and cx == 1:  # the colour unsafe: its totals, this region swapped
                a0, a1, a2, b0, b1, b2 = _outcome_flat(c0, c1, c2, v0, v1, v2, tn)
                e0, e1, e2, f0, f1, f2 = _outcome_flat(c0 + x0, c1 + x1, c2 + x2, v0, v1,
                                                       v2, tn)  # fmt: skip
                l0, l1, l2 = ul0 - a0 + e0, ul1 - a1 + e1, ul2 - a2 + e2
                r0, r1, r2 = ur0 - b0 + f0, ur1 - b1 + f1, ur2 - b2 + f2
            else:  # the region's outcome as it stands, from the position tables
                a0, a1, a2, b0, b1, b2 = _unpack6(cnt[t, g, COLOURS])
                e0, e1, e2, f0, f1, f2 = _outcome_flat(c0 + x0, c1 + x1, c2 + x2, n0, n1,
                                                       n2, tn)  # fmt: skip
                l0, l1, l2 = bl0 - a0 + e0, bl1 - a1 + e1, bl2 - a2 + e2
                r0, r1, r2 = br0 - b0 + f0, br1 - b1 + f1, br2 - b2 + f2
            d0 = min(r0, sup0 + l0) - l0
            d1 = min(r1, sup1 + l1) - l1
            d2 = min(r2, sup2 + l2) - l2
            x = d0 if seat == 0 else (d1 if seat == 1 else d2)
            y = (d0 if o1 == 0 else d1) + (d1 if o2 == 1 else d2)
            z = y if lead < 0 else (d0 if lead == 0 else (d1 if lead == 1 else d2))
            pk[base + g] = x + y * (1 << _B1) + z * (1 << (2 * _B1))
            if moments:
                q1[base + g] = x * x + (y * y) * (1 << _B2) + (z * z) * (1 << (2 * _B2))
                q2[base + g] = x * y + (x * z) * (1 << _B2) + (y * z) * (1 << (2 * _B2))


@njit(cache=True, inline="always")
def _line_sums(acc, k, s, s1, s2, moments):
    """Unpack a line's packed sums into ``acc[k]``."""
    acc[k, 0], acc[k, 1], acc[k, 2] = _unpack(s, _B1)
    if moments:
        acc[k, 3], acc[k, 4], acc[k, 5] = _unpack(s1, _B2)
        acc[k, 6], acc[k, 7], acc[k, 8] = _unpack(s2, _B2)


@njit(cache=True)
def place_values(owner, supply, legal, nl, colour, seat, direction, known_dir, known_line,
                 sp, regions, cellidx, tlines, nreg, safety, tie_nothing, total, cnt, tabs,
                 acc, out, sc, tk, rxyz, vals, fresh):  # fmt: skip
    """``vals[j]``: the value to ``seat`` of its best line after placing a topping of
    ``colour`` on ``legal[j]`` (``SwingStrategy.place``'s values), for ``j < nl``.
    Scratch: ``cnt`` (216, MAX_REGIONS, 4) and ``tabs`` (4, 216, 3) int64, ``acc`` (6,
    9), ``out`` (6,), ``sc`` (4, 3), ``tk`` (6, 36), ``rxyz`` (3, 216, MAX_REGIONS)."""
    bsafe, blost, brefill = tabs[0], tabs[1], tabs[2]
    if fresh:  # else the caller kept them up to date since they were last computed
        position_tables(owner, regions, nreg, safety, tie_nothing, cnt, bsafe, blost, brefill)
    on_board = sc[2]
    for c in range(COLOURS):
        on_board[c] = total - supply[c]
    lead = leading_other(seat, on_board)  # -1: the two others tie, z = y / 2 (kept as 2z)
    moments = sp[SP_RISK] != 0
    # a candidate changes one region of each triple, and every space of that region the
    # same way: each (triple, region)'s x, y, z once, then each candidate sums its own
    pk = rxyz[0].reshape(TRIPLES * MAX_REGIONS)
    q1 = rxyz[1].reshape(TRIPLES * MAX_REGIONS)
    q2 = rxyz[2].reshape(TRIPLES * MAX_REGIONS)
    _place_table(colour, seat, lead, supply, nreg, safety, tie_nothing, cnt, bsafe, blost,
                 brefill, pk, q1, q2, moments)  # fmt: skip
    if known_dir < 0:  # every triple: the line's 36 cells are one row of cellidx
        m = TRIPLES // LINES
        rows = cellidx[direction]
        for j in range(nl):
            row = rows[legal[j]]
            for k in range(LINES):
                s = s1 = s2 = 0
                if moments:
                    for q in range(k * m, (k + 1) * m):
                        i = row[q]
                        s += pk[i]
                        s1 += q1[i]
                        s2 += q2[i]
                else:
                    for q in range(k * m, (k + 1) * m):
                        s += pk[row[q]]
                _line_sums(acc, k, s, s1, s2, moments)
            _values(acc, m, sp, out, lead < 0)
            v = out[0]
            for k in range(1, LINES):
                v = max(v, out[k])
            vals[j] = v
        return
    m = _line_triples(tlines, direction, known_dir, known_line, tk)
    for j in range(nl):
        space = legal[j]
        for k in range(LINES):
            s = s1 = s2 = 0
            for q in range(m):
                t = tk[k, q]
                i = t * MAX_REGIONS + regions[t, space]
                s += pk[i]
                if moments:
                    s1 += q1[i]
                    s2 += q2[i]
            _line_sums(acc, k, s, s1, s2, moments)
        _values(acc, m, sp, out, lead < 0)
        v = out[0]
        for k in range(1, LINES):
            v = max(v, out[k])
        vals[j] = v


@njit(cache=True)
def swing_place(owner, supply, legal, nl, colour, seat, direction, known_dir, known_line,
                sp, regions, cellidx, tlines, nreg, safety, tie_nothing, total, cnt, tabs,
                acc, out, sc, tk, rxyz, vals, fresh):  # fmt: skip
    """``SwingStrategy.place``: the index in ``legal[:nl]`` of the space whose placement
    of ``colour`` leaves ``seat`` the best value of its best line (the first among equals;
    :func:`place_values`)."""
    place_values(owner, supply, legal, nl, colour, seat, direction, known_dir, known_line,
                 sp, regions, cellidx, tlines, nreg, safety, tie_nothing, total, cnt, tabs,
                 acc, out, sc, tk, rxyz, vals, fresh)  # fmt: skip
    best = -np.inf
    bk = 0
    for j in range(nl):
        if vals[j] > best:
            best = vals[j]
            bk = j
    return bk


@njit(cache=True)
def swing_cut(owner, supply, seat, direction, known_dir, known_line, sp, regions, tlines,
              nreg, safety, tie_nothing, total, cnt, tabs, acc, out, sc, tk,
              fresh):  # fmt: skip
    """``SwingStrategy.cut``: the line of the best value (the first among equals)."""
    bsafe, blost, brefill, d = tabs[0], tabs[1], tabs[2], tabs[3]
    if fresh:  # else the caller kept them up to date since they were last computed
        position_tables(owner, regions, nreg, safety, tie_nothing, cnt, bsafe, blost, brefill)
    position_deltas(supply, blost, brefill, d)
    on_board = sc[2]
    for c in range(COLOURS):
        on_board[c] = total - supply[c]
    lead = leading_other(seat, on_board)  # -1: the two others tie, z = y / 2 (kept as 2z)
    o1, o2 = _others(seat)
    m = _line_triples(tlines, direction, known_dir, known_line, tk)
    for k in range(LINES):
        for j in range(9):
            acc[k, j] = 0
        for q in range(m):
            t = tk[k, q]
            x, y = d[t, seat], d[t, o1] + d[t, o2]
            z = y if lead < 0 else d[t, lead]
            acc[k, 0] += x
            acc[k, 1] += y
            acc[k, 2] += z
            acc[k, 3] += x * x
            acc[k, 4] += y * y
            acc[k, 5] += z * z
            acc[k, 6] += x * y
            acc[k, 7] += x * z
            acc[k, 8] += y * z
    _values(acc, m, sp, out, lead < 0)
    bk = 0
    for k in range(1, LINES):
        if out[k] > out[bk]:
            bk = k
    return bk


@njit(cache=True)
def mixed_mix(owner, supply, seat, order, k, pos, known_line, sp, regions, tlines, nreg,
              safety, tie_nothing, total, cnt, tabs, sc, u, rw, w, fresh):  # fmt: skip
    """``MixedStrategy.mix``: the seat's mix over its lines (a view of ``rw[1]``), from
    regret matching on the round's cut game among the ``k`` players of ``order`` (the turn
    order), each valued by the swing with the seat's parameters; at ``k = 2`` the neutral
    direction (2) is fixed at ``known_line``. Scratch ``rw`` (4, 3, 6), ``u`` (3, 6, 6, 6),
    ``w`` (6, 6)."""
    bsafe, blost, brefill, d = tabs[0], tabs[1], tabs[2], tabs[3]
    if fresh:  # else the caller kept them up to date since they were last computed
        position_tables(owner, regions, nreg, safety, tie_nothing, cnt, bsafe, blost, brefill)
    position_deltas(supply, blost, brefill, d)
    on_board = sc[2]
    for c in range(COLOURS):
        on_board[c] = total - supply[c]
    h = 0.5 * sp[SP_AGGRESSION]
    leader = sp[SP_LEADER]
    me = 0
    for i in range(k):
        q = order[i]
        if q == seat:
            me = i
        o1 = 1 if q == 0 else 0
        o2 = 1 if q == 2 else 2
        lead = leading_other(q, on_board)  # -1: the two others tie, z = y / 2
        p0 = 1 if i == 0 else 0  # the other players, in player order
        p1 = 1 if i == 2 else 2
        for t in range(TRIPLES):
            if k == 2 and tlines[t, 2] != known_line:
                continue
            x = d[t, q]
            y = d[t, o1] + d[t, o2]
            z = y * 0.5 if lead < 0 else float(d[t, lead])
            v = (x - h * y) - leader * z
            a = tlines[t, pos[q]]
            b = tlines[t, pos[order[p0]]]
            c = tlines[t, pos[order[p1]]] if k == 3 else 0
            u[i, a, b, c] = v
    regret_matching(u, k, int(sp[SP_ITERS]), rw[0], rw[1], rw[2], rw[3], w)
    return rw[1, me]
