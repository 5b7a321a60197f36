"""The immediate effect of a round's cut, for every combination of the three lines at once:
what greedy, heuristic and mixed value (``docs/strategies/pizzatheory.md``).

For a board position (who holds which space, each colour's supply) and each of the 216
triples of lines (one per direction), :func:`deltas` gives each colour's change in toppings
on the board when that triple is resolved: the toppings it captures by replacement minus
those it loses, with the safety rule, both tie rules and the supply limit applied exactly
as the engine does (which spaces are refilled depends on the replacement order; how many
does not). Positions are batched: ``owner`` may hold many boards (one per candidate
placement), and NumPy does all of them together.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from sims.games.pizzatheory.board import LINES_PER_DIRECTION, Board
from sims.games.pizzatheory.rules import COLOURS, Rules

TRIPLES = LINES_PER_DIRECTION**3
MAX_REGIONS = 8  # three lines make at most 7 regions; 8 signatures bound it


@cache
def _region_masks(board: Board) -> np.ndarray:
    """(TRIPLES * MAX_REGIONS, spaces) float: row t * MAX_REGIONS + r marks the spaces in
    region r of triple t (t = a*36 + b*6 + c for lines a, b, c of directions 0, 1, 2)."""
    table = np.asarray(board.arrays()["regions"]).reshape(TRIPLES, board.n_spaces)
    out = (table[:, None, :] == np.arange(MAX_REGIONS)[None, :, None]).astype(np.float64)
    out = out.reshape(TRIPLES * MAX_REGIONS, board.n_spaces)
    out.setflags(write=False)
    return out


def deltas(board: Board, rules: Rules, owner: np.ndarray, supply: np.ndarray) -> np.ndarray:
    """Each colour's change of toppings on the board for every triple of lines.

    Parameters
    ----------
    board, rules
    owner : int array (..., spaces)
        The colour on each space (-1 empty), as at the cut (after placement).
    supply : int array (..., COLOURS)
        Each colour's supply then.

    Returns
    -------
    int64 array (..., 6, 6, 6, COLOURS)
        Indexed by the lines of directions 0, 1, 2, then the colour: captured minus lost.
    """
    owner = np.asarray(owner)
    lead = owner.shape[:-1]
    spaces = owner.shape[-1]
    onehot = (owner.reshape(-1, spaces)[..., None] == np.arange(COLOURS)).astype(np.float64)
    # one matrix product for every position: (T*R, S) @ (S, positions*C)
    flat = _region_masks(board) @ onehot.transpose(1, 0, 2).reshape(spaces, -1)
    counts = flat.reshape(TRIPLES, MAX_REGIONS, -1, COLOURS).transpose(2, 0, 1, 3)
    counts = counts.reshape(lead + (TRIPLES, MAX_REGIONS, COLOURS))  # (..., T, R, C)
    if rules.safety:
        safe = (counts <= 1).all(axis=-2)  # (..., T, C)
    else:
        safe = np.zeros(counts.shape[:-2] + (COLOURS,), dtype=bool)
    top = counts.max(axis=-1, keepdims=True)
    leader = (counts == top) & (top > 0)
    nlead = leader.sum(axis=-1, keepdims=True)
    majority = nlead == 1
    loser = ~leader & (counts > 0) & (majority | ((nlead == 2) & (rules.two_way_tie == "remove")))
    removed = counts * loser * ~safe[..., None, :]  # (..., T, R, C)
    lost = removed.sum(axis=-2)
    refill = (removed.sum(axis=-1, keepdims=True) * majority * leader).sum(axis=-2)
    available = np.asarray(supply, dtype=np.float64)[..., None, :] + lost
    captured = np.minimum(refill, available)
    # every count is a whole number, exact in float64: the int result is exact too
    out = np.rint(captured - lost).astype(np.int64)
    return out.reshape(lead + (LINES_PER_DIRECTION,) * 3 + (COLOURS,))


def leading_other(colour: int, on_board) -> int | None:
    """The other colour with strictly the most toppings on the board, or None when the two
    other colours hold as many: then both lead, and the swing weighs each by half
    (:func:`roles`). No colour number and no seat is preferred, so a relabelling of the
    colours (rule ``first_seat``) changes no decision, and no turn position is favoured by
    a convention."""
    a, b = (c for c in range(COLOURS) if c != colour)
    if on_board[a] == on_board[b]:
        return None
    return a if on_board[a] > on_board[b] else b


def roles(d: np.ndarray, colour: int, on_board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three changes a colour's swing weighs, from ``d`` (:func:`deltas`): its own
    ``X``, the other two colours' sum ``Y`` and the leading other colour's ``Z``
    (:func:`leading_other`; where the two others tie for the lead, the mean of their
    changes, ``Y / 2``: halves, exact in floating point)."""
    a, b = (c for c in range(COLOURS) if c != colour)
    x = d[..., colour]
    y = d[..., a] + d[..., b]
    lead = leading_other(colour, on_board)
    z = y / 2 if lead is None else d[..., lead]
    return x, y, z


def swing(d: np.ndarray, colour: int, aggression: float, leader: float, on_board) -> np.ndarray:
    """A colour's value of each outcome in ``d`` (:func:`deltas`): its own change minus
    ``aggression`` times the other colours' mean change, minus ``leader`` times the change
    of the other colour with the most toppings on the board (the two others' mean when they
    tie): ``X - (aggression / 2) * Y - leader * Z`` (:func:`roles`), evaluated in this
    order so that the compiled kernel's scalar arithmetic gives the same floats.

    The other colours are the other players, and at 2 players one of them is neutral
    (whose win makes both players lose).
    """
    x, y, z = roles(d, colour, on_board)
    return (x - (0.5 * aggression) * y) - leader * z
