"""A Pizza Theory game as a person would follow it: per round the turn positions, the
placements, the three lines (revealed together), each region's outcome and the board
drawn as text (``slicelab replay pizzatheory ...``)."""

from __future__ import annotations

from collections.abc import Sequence

from sims.games.pizzatheory.board import Board
from sims.games.pizzatheory.engine import Ending, GameState, positions_in_round
from sims.games.pizzatheory.rules import NEUTRAL

MARKS = "ABC"
"""Seat s's toppings are drawn as MARKS[s]; the neutral colour as N; an empty space '.'."""


def _mark(state: GameState, colour: int) -> str:
    if colour < 0:
        return "."
    return "N" if state.n == 2 and colour == NEUTRAL else MARKS[colour]


def _cube(label: str) -> tuple[int, int, int] | None:
    try:
        q, r, s = (int(x) for x in label.split(","))
    except ValueError:
        return None
    return (q, r, s) if q + r + s == 0 else None


def draw_board(board: Board, cells: Sequence[str]) -> list[str]:
    """The board as text lines, one character per space: a hexagonal picture when every
    space is named by cube coordinates ``q,r,s`` (the shipped hex boards; rows of equal
    ``r``), else the spaces listed by name."""
    coords = [_cube(label) for label in board.labels]
    if any(c is None for c in coords):
        return [f"{label}: {cell}" for label, cell in zip(board.labels, cells, strict=True)]
    rows: dict[int, list[tuple[int, str]]] = {}
    for (q, r, _), cell in zip(coords, cells, strict=True):  # type: ignore[misc]
        rows.setdefault(r, []).append((q, cell))
    # a row of r sits |r| half-steps in, so the lattice's neighbours touch
    return [
        "  " + " " * abs(r) + " ".join(cell for _, cell in sorted(rows[r])) for r in sorted(rows)
    ]


def format_replay(state: GameState, specs: Sequence[str], header: str) -> str:
    """The finished game ``state`` as text."""
    board = state.board
    out = [
        header,
        f"board {board.name} ({board.n_spaces} spaces); rules: "
        + ", ".join(f"{k}={v}" for k, v in state.rules.as_dict().items()),
    ]
    for s, spec in enumerate(specs):
        out.append(f"seat {s} ({MARKS[s]}): {spec}")
    if state.n == 2:
        out.append("N: the neutral colour")
    for rep in state.reports:
        r = rep.round
        out.append("")
        pos = positions_in_round(state.first_seat, state.rules.rotation, state.n, r)
        order = sorted(range(state.n), key=lambda s: pos[s])
        out.append(
            f"Round {r + 1}: turn order "
            + ", ".join(
                f"{MARKS[s]} (position {pos[s] + 1}, direction {'ABC'[pos[s]]})" for s in order
            )
        )
        for space, colour in rep.placements:
            out.append(f"  {_mark(state, colour)} places on {board.labels[space]}")
        cuts = ", ".join(
            f"direction {'ABC'[d]} line {line + 1}" for d, line in enumerate(rep.lines)
        )
        out.append(f"  cuts (revealed together): {cuts}; {max(rep.regions) + 1} regions")
        safe = [_mark(state, c) for c, ok in enumerate(rep.safe) if ok]
        if safe:
            out.append(
                f"  safe this round (at most one topping in every region): {', '.join(safe)}"
            )
        for g, (kind, leaders) in enumerate(rep.outcomes):
            who = "/".join(_mark(state, c) for c in leaders)
            text = {
                "majority": f"{who} has the majority",
                "tie": f"{who} tie for most",
                "unchanged": "three-way tie" if len(leaders) == 3 else "no toppings",
            }[kind]
            out.append(f"  region {g + 1}: {text}")
        if rep.removed:
            out.append(
                "  removed: "
                + ", ".join(f"{_mark(state, c)}@{board.labels[i]}" for i, c in rep.removed)
            )
        if rep.placed:
            out.append(
                "  replaced by: "
                + ", ".join(f"{_mark(state, c)}@{board.labels[i]}" for i, c in rep.placed)
            )
        out += draw_board(board, [_mark(state, c) for c in rep.owner])
        out.append(
            "  on the board: "
            + ", ".join(
                f"{_mark(state, c)} {sum(1 for x in rep.owner if x == c)}" for c in range(3)
            )
        )
    out.append("")
    ending = {
        Ending.WIN: "won",
        Ending.TIEBREAK: "won the run-out tiebreak",
        Ending.DRAW: f"draw: no winner after {state.rules.max_rounds} rounds",
        Ending.NEUTRAL: "the neutral colour filled the board: both players lose",
    }
    if state.ending in (Ending.WIN, Ending.TIEBREAK):
        winners = " and ".join(f"{MARKS[s]} (seat {s})" for s in state.winners)
        out.append(f"{winners} {ending[state.ending]} after {len(state.reports)} rounds")
    else:
        out.append(ending[state.ending])
    return "\n".join(out)
