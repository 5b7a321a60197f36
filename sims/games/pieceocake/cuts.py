"""Cutting the circle of 11 slices into pieces.

A cut is an 11-bit mask of the gaps the server cuts: gap ``g`` lies between circle
positions ``g`` and ``g + 1`` (gap 10 between position 10 and position 0). Mask 0 is the
whole cake as one piece; a mask of ``k ≥ 2`` gaps makes ``k`` pieces (a single cut leaves a
circle in one piece, so masks of one gap are not cuts). The pieces are listed from the one
after the lowest cut gap, in circle order. The compiled kernel uses the same masks and the
same piece order.
"""

from __future__ import annotations

from functools import cache

from sims.games.pieceocake.cake import SLICES_PER_CAKE

N_GAPS = SLICES_PER_CAKE


@cache
def cut_masks(max_pieces: int, exact: bool = False) -> tuple[int, ...]:
    """Every legal cut, ascending: the whole cake (unless ``exact`` asks for more than one
    piece) and every set of 2 to ``max_pieces`` gaps (exactly ``max_pieces`` if ``exact``)."""
    top = min(max_pieces, N_GAPS)
    out = []
    for mask in range(1 << N_GAPS):
        k = mask.bit_count()
        pieces = 1 if k == 0 else k
        if k == 1 or pieces > top or (exact and pieces != top):
            continue
        out.append(mask)
    return tuple(out)


def pieces_of(mask: int) -> list[list[int]]:
    """The circle positions of each piece a cut makes, in the order described above."""
    gaps = [g for g in range(N_GAPS) if mask >> g & 1]
    if not gaps:
        return [list(range(N_GAPS))]
    out = []
    for j, g in enumerate(gaps):
        end = gaps[(j + 1) % len(gaps)]
        piece, p = [], (g + 1) % N_GAPS
        while True:
            piece.append(p)
            if p == end:
                break
            p = (p + 1) % N_GAPS
        out.append(piece)
    return out
