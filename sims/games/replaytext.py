"""Pieces of a replay's text that more than one game prints: hidden things, and a ring of
slices cut into portions drawn on one line (New York Slice's pizza, Piece o' Cake's cake).
"""

from __future__ import annotations

from collections.abc import Sequence

HIDDEN_TEXT = "[hidden]"
LETTERS = "ABCDEFGHIJK"
"""Portion (or piece) ``i`` of a cut is called ``LETTERS[i]``."""


def hidden(what: str, reveal: bool) -> str:
    """A hidden thing: ``[hidden]``, or under ``reveal`` ``[hidden: what]``."""
    return f"[hidden: {what}]" if reveal else HIDDEN_TEXT


def ring_drawing(tokens: Sequence[str], labels: Sequence[str], closed: bool = True) -> list[str]:
    """The ring as one line with ``|`` at every cut, and under it each portion's letter.

    Parameters
    ----------
    tokens : sequence of str
        Each slice's mark, in ring order.
    labels : sequence of str
        Each slice's portion letter, in the same order; a cut lies between two neighbours
        with different letters.
    closed : bool
        The slices form a ring (the last touches the first, drawn between ``(`` and ``)``),
        or a line (``[`` and ``]``: a pizza after Dibs! when the gap stays open).

    Returns
    -------
    list of str
        Two lines: the slices and their portions.
    """
    m = len(tokens)
    # A ring's wrap-around cut (between the last and the first slice) is drawn at both
    # ends; the portion that wraps round then shows its letter at both ends too.
    wrap = closed and m > 1 and labels[-1] != labels[0]
    top = ("(" if closed else "[") + ("| " if wrap else " ")
    spans: list[tuple[int, int]] = []
    for i, tok in enumerate(tokens):
        spans.append((len(top), len(top) + len(tok)))
        top += tok
        if i < m - 1:
            top += " | " if labels[i] != labels[i + 1] else " "
    top += (" |" if wrap else " ") + (")" if closed else "]")
    under = [" "] * len(top)
    i = 0
    while i < m:
        j = i
        while j + 1 < m and labels[j + 1] == labels[i]:
            j += 1
        under[(spans[i][0] + spans[j][1] - 1) // 2] = labels[i]
        i = j + 1
    return [top, "".join(under).rstrip()]
