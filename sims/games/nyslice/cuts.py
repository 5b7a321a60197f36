"""Cut geometry: ranking and unranking the legal cuts of a pizza.

A pizza of ``m`` slices is a circle (or, after a Dibs! gap under the alternative ruling,
a line). Cutting it into ``k`` arcs means choosing ``k`` boundaries, where boundary ``b``
lies just before position ``b``: C(m, k) cuts for ``k >= 2`` on a circle and one for
``k = 1`` (the whole circle); C(m-1, k-1) on a line.

A cut of the round into ``n`` portions either puts the special alone (``n-1`` arcs) or
attaches it to one of ``n`` arcs. Ranks enumerate first the special-alone cuts, then the
attached ones as ``comb_rank * n + attach``; combinations are in lexicographic order. The
compiled kernel uses the same ranking, so a rank names the same cut in both engines.
"""

from __future__ import annotations

from math import comb


def arc_count(m: int, k: int, circular: bool) -> int:
    """Number of ways to cut ``m`` slices into ``k`` non-empty contiguous arcs."""
    if k < 1 or k > m:
        return 0
    if circular:
        return 1 if k == 1 else comb(m, k)
    return comb(m - 1, k - 1)


def unrank_combination(m: int, k: int, rank: int) -> list[int]:
    """The ``rank``-th k-subset of ``range(m)`` in lexicographic order."""
    out: list[int] = []
    x = 0
    for i in range(k):
        while True:
            c = comb(m - x - 1, k - i - 1)
            if rank < c:
                break
            rank -= c
            x += 1
        out.append(x)
        x += 1
    return out


def arc_bounds(m: int, k: int, circular: bool, rank: int) -> list[tuple[int, int]]:
    """The arcs of cut ``rank`` as ``(start, length)`` pairs, ordered by start."""
    if circular:
        if k == 1:
            return [(0, m)]
        starts = unrank_combination(m, k, rank)
    else:
        starts = [0] + [x + 1 for x in unrank_combination(m - 1, k - 1, rank)]
    out = []
    for i, s in enumerate(starts):
        nxt = starts[i + 1] if i + 1 < k else starts[0] + (m if circular else m - starts[0])
        out.append((s, nxt - s))
    return out


def cut_count(m: int, n: int, circular: bool) -> int:
    """Number of legal cuts of ``m`` slices plus the special into ``n`` portions."""
    return arc_count(m, n - 1, circular) + arc_count(m, n, circular) * n


def decode_cut(m: int, n: int, circular: bool, rank: int) -> tuple[list[tuple[int, int]], int]:
    """Decode a cut rank.

    Returns
    -------
    arcs : list of (start, length)
        The slice arcs in circle order.
    attach : int
        Index of the arc the special joins, or ``-1`` when the special is a portion alone
        (it is then listed after the arcs).
    """
    alone = arc_count(m, n - 1, circular)
    if rank < 0 or rank >= cut_count(m, n, circular):
        raise ValueError(f"cut rank {rank} out of range")
    if rank < alone:
        return arc_bounds(m, n - 1, circular, rank), -1
    r = rank - alone
    return arc_bounds(m, n, circular, r // n), r % n
