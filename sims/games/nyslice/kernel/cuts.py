"""Cut geometry, compiled: the twin of ``cuts.py``.

Counting, ranking and unranking the cuts of a pizza of ``m`` slices into arcs, in the same
order as ``cuts.arc_count``, ``cuts.unrank_combination`` and ``cuts.arc_bounds``, so a cut
rank names the same cut in both engines.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sims.games.nyslice.rules import SLICES_PER_STACK

# C(n, k) for n <= SLICES_PER_STACK: a cut chooses among at most a stack's positions. The
# table's side is a power of two (cheap row indexing); numba freezes it as a constant, and
# _comb computes the larger ones.
_BINOM_SIDE = 1 << SLICES_PER_STACK.bit_length()
_BINOM = np.array(
    [[math.comb(n, k) for k in range(_BINOM_SIDE)] for n in range(_BINOM_SIDE)], dtype=np.int64
)


@njit(cache=True)
def _comb(n, k):
    if k < 0 or k > n:
        return 0
    if n < _BINOM.shape[0]:
        return _BINOM[n, k]
    if k > n - k:
        k = n - k
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True)
def _arc_count(m, k, circ):
    if k < 1 or k > m:
        return 0
    if circ:
        return 1 if k == 1 else _comb(m, k)
    return _comb(m - 1, k - 1)


@njit(cache=True)
def _unrank_comb(m, k, rank, out, off):
    """Write the rank-th lexicographic k-subset of range(m) into out[off:off+k]."""
    x = 0
    for i in range(k):
        while True:
            c = _comb(m - x - 1, k - i - 1)
            if rank < c:
                break
            rank -= c
            x += 1
        out[off + i] = x
        x += 1


@njit(cache=True)
def _arc_starts(m, k, circ, rank, starts):
    """Arc starts of the rank-th cut into k arcs (cuts.arc_bounds)."""
    if circ:
        if k == 1:
            starts[0] = 0
        else:
            _unrank_comb(m, k, rank, starts, 0)
    else:
        starts[0] = 0
        if k > 1:
            _unrank_comb(m - 1, k - 1, rank, starts, 1)
            for i in range(1, k):
                starts[i] += 1
