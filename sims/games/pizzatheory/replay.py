"""A Pizza Theory game as a person would follow it (``slicelab replay pizzatheory ...``).

The replay opens with a legend: what each mark of a board drawing means, a name for every
space (on the shipped hex boards a row letter and a place in the row, ``d4``, drawn as a
map; the board file's cube coordinates ``q,r,s`` are explained once), where each turn
position sits and its X spaces, and the board at the start. Then, per round: the turn
positions, the placements, the three lines (revealed together), each region's counts and
outcome (which toppings change hands, return to their supply or are kept by the safety
rule), and three boards side by side: after placing, the regions the cuts make, and after
the round.

Nothing stays hidden in Pizza Theory once a round's cuts are revealed, so ``reveal`` adds
one line saying so and changes nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sims.games.pizzatheory.board import Board
from sims.games.pizzatheory.engine import Ending, GameState, RoundReport, positions_in_round
from sims.games.pizzatheory.rules import COLOURS, NEUTRAL

MARKS = "ABC"
"""Seat s's toppings are drawn as MARKS[s]; the neutral colour as N; an empty space '.'."""

ROW_LETTERS = "abcdefghijklmnopqrstuvwxyz"
"""Row names of a cube-coordinate board, top row first."""

_SIDES = ("right", "upper right", "top", "upper left", "left", "lower left", "bottom",
          "lower right")  # fmt: skip
"""The side of the drawing a direction points to, by 45-degree sector from the right."""


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


def layout(board: Board) -> list[tuple[int, int]] | None:
    """Where each space is drawn: ``(column in half-steps, row)``, both from 0, when every
    space is named by cube coordinates ``q,r,s`` (the shipped hex boards), else None.

    A row holds the spaces of equal ``r`` (top row: the least); along a row ``q`` grows to
    the right, and each row sits half a step beside the next, so that the lattice's six
    neighbours of a space touch it in the drawing (column ``2q + r``).
    """
    coords = [_cube(label) for label in board.labels]
    if any(c is None for c in coords):
        return None
    cols = [2 * c[0] + c[1] for c in coords if c]
    rows = [c[1] for c in coords if c]
    return [(x - min(cols), y - min(rows)) for x, y in zip(cols, rows, strict=True)]


def space_names(board: Board) -> list[str]:
    """A short name for every space, by id: on a cube-coordinate board its row letter
    (``a`` the top row) and its place in the row (``1`` at the left), e.g. ``d4``; else the
    board file's own name."""
    where = layout(board)
    if where is None or max(y for _, y in where) >= len(ROW_LETTERS):
        return list(board.labels)
    names = [""] * board.n_spaces
    for y in sorted({y for _, y in where}):
        row = sorted((x, i) for i, (x, yy) in enumerate(where) if yy == y)
        for place, (_, i) in enumerate(row, start=1):
            names[i] = f"{ROW_LETTERS[y]}{place}"
    return names


def draw_board(board: Board, cells: Sequence[str]) -> list[str]:
    """The board as text lines, one cell per space (cells of equal width): a hexagonal
    picture on a cube-coordinate board (see :func:`layout`), else the spaces listed as
    ``name: cell``.

    Parameters
    ----------
    board : Board
    cells : sequence of str
        What to draw on each space, by id: a mark, a region number, a name.

    Returns
    -------
    list of str
        The lines, without a common indent; each line's trailing blanks are cut.
    """
    where = layout(board)
    if where is None:
        return [f"{label}: {cell}" for label, cell in zip(board.labels, cells, strict=True)]
    width = max(len(c) for c in cells)
    half = (width + 2) // 2  # a full step (two half-steps) leaves a blank between cells
    rows: dict[int, list[str]] = {}
    for (x, y), cell in zip(where, cells, strict=True):
        line = rows.setdefault(y, [])
        need = x * half + width - len(line)
        line.extend(" " * max(0, need))
        line[x * half : x * half + width] = cell.ljust(width)
    return ["".join(rows[y]).rstrip() for y in sorted(rows)]


def side_by_side(blocks: Sequence[tuple[str, list[str]]], indent: str = "  ") -> list[str]:
    """Boards drawn beside each other under their titles, each column as wide as its
    widest line."""
    widths = [max(len(t), *(len(x) for x in lines)) for t, lines in blocks]
    height = max(len(lines) for _, lines in blocks)
    out = [indent + "   ".join(t.ljust(w) for (t, _), w in zip(blocks, widths, strict=True))]
    for k in range(height):
        cells = [(lines[k] if k < len(lines) else "").ljust(w)
                 for (_, lines), w in zip(blocks, widths, strict=True)]  # fmt: skip
        out.append((indent + "   ".join(cells)).rstrip())
    return out


def _side(board: Board, d: int) -> str | None:
    """The side of the drawing where turn position ``d + 1`` sits: the direction from the
    board's middle to its two X spaces (None off a cube-coordinate board)."""
    coords = [_cube(label) for label in board.labels]
    if any(c is None for c in coords):
        return None

    def point(c: tuple[int, int, int]) -> tuple[float, float]:
        # the lattice in the plane: rows sqrt(3)/2 apart, each shifted half a step
        return c[0] + c[1] / 2, -c[1] * math.sqrt(3) / 2

    pts = [point(c) for c in coords if c]
    mx, my = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    xs = [point(coords[i]) for i in board.start[d]]  # type: ignore[arg-type]
    ax = sum(p[0] for p in xs) / 2 - mx
    ay = sum(p[1] for p in xs) / 2 - my
    angle = math.degrees(math.atan2(ay, ax)) % 360
    return _SIDES[int((angle + 22.5) // 45) % 8]


def _legend(state: GameState, names: Sequence[str], reveal: bool) -> list[str]:
    """The legend: marks, space names (with the cube coordinates explained), the turn
    positions and their lines, and the board at the start."""
    board = state.board
    where = layout(board)
    out = [f"Legend (board {board.name}, {board.n_spaces} spaces, drawn as seen from above)"]
    colours = ", ".join(f"{MARKS[s]} seat {s}" for s in range(state.n))
    neutral = "; N the neutral colour" if state.n == 2 else ""
    out.append(f"  marks: a topping of {colours}{neutral}; . an empty space; 1-7 (regions "
               "drawing) the region a space falls in")  # fmt: skip
    if where is not None:
        out.append("  spaces are named by row (a = top row) and place in the row (1 = left):")
        out += ["    " + x for x in draw_board(board, names)]
        centre = [i for i, label in enumerate(board.labels) if _cube(label) == (0, 0, 0)]
        example = f"; {names[centre[0]]} is 0,0,0" if centre else ""
        out.append(
            "  (the board file names a space by cube coordinates q,r,s, q + r + s = 0: r is "
            f"the row, least at the top, q grows to the right{example})"
        )
    else:
        out.append("  spaces are named as in the board file")
    out.append("  each turn position cuts along 6 parallel lines of its own direction, "
               "line 1 nearest its own side, line 6 farthest:")  # fmt: skip
    for d in range(COLOURS):
        who = " (the neutral colour's)" if state.n == 2 and d == NEUTRAL else ""
        side = _side(board, d)
        at = f" sits at the {side} side," if side else ""
        xs = " and ".join(names[i] for i in board.start[d])
        out.append(f"    position {d + 1}{who}{at} X spaces {xs}")
    if reveal:
        out.append("  --reveal: nothing is hidden in Pizza Theory once a round's cuts are "
                   "revealed; the replay is the same")  # fmt: skip
    first = state.reports[0] if state.reports else None
    if first is not None:
        start = list(_before(first))
        for i, _ in first.placements:
            start[i] = -1
        out.append("  at the start:")
        out += ["    " + x for x in draw_board(board, [_mark(state, c) for c in start])]
    return out


def _before(rep: RoundReport) -> tuple[int, ...]:
    """The board after the round's placements, before any topping changed hands: a
    replacement only fills a space a removal cleared."""
    owner = list(rep.owner)
    for i, c in rep.removed:
        owner[i] = c
    return tuple(owner)


def _region_lines(state: GameState, rep: RoundReport, names: Sequence[str]) -> list[str]:
    """One line per region: its toppings by colour (counted before any change), the
    outcome, and what became of the others' toppings there."""
    before = _before(rep)
    removed = dict(rep.removed)
    placed = dict(rep.placed)
    out = []
    for g, (kind, leaders) in enumerate(rep.outcomes):
        spaces = [i for i, reg in enumerate(rep.regions) if reg == g]
        counts = [sum(1 for i in spaces if before[i] == c) for c in range(COLOURS)]
        held = ", ".join(f"{_mark(state, c)} {counts[c]}" for c in range(COLOURS) if counts[c])
        who = " and ".join(_mark(state, c) for c in leaders)
        text = {
            "majority": f"{who} has the majority",
            "tie": f"{who} tie for most",
            "unchanged": "a three-way tie: nothing changes" if leaders else "no toppings",
        }[kind]
        losers = [] if kind == "unchanged" else [c for c in range(COLOURS) if c not in leaders]
        if kind == "tie" and state.rules.two_way_tie == "nothing":
            losers = []  # the what-if: a two-way tie changes nothing, safe or not
            text += "; nothing changes (rule two_way_tie=nothing)"
        turned, back, kept = [], [], []
        for i in spaces:
            c = before[i]
            if c not in losers:
                continue
            mine = f"{_mark(state, c)}'s {names[i]}"
            if i in placed:
                turned.append(mine)
            elif i in removed:
                back.append(mine)
            elif rep.safe[c]:
                kept.append(mine)
        parts = []
        if turned:
            parts.append(f"{', '.join(turned)} become{'s' if len(turned) == 1 else ''} "
                         f"{_mark(state, leaders[0])}'s")  # fmt: skip
        if back:
            why = " (no supply left to replace)" if kind == "majority" else ""
            parts.append(f"{', '.join(back)} return{'s' if len(back) == 1 else ''} to supply{why}")
        if kept:
            parts.append(f"{', '.join(kept)} kept (safe)")
        if losers and kind == "tie" and not (turned or back or kept):
            parts.append("nothing changes")
        detail = "; " + "; ".join(parts) if parts else ""
        counted = f" ({held})" if held else ""
        out.append(f"  region {g + 1}{counted}: {text}{detail}")
    return out


def format_replay(state: GameState, specs: Sequence[str], header: str, reveal: bool = False) -> str:
    """The finished game ``state`` as text.

    Parameters
    ----------
    state : GameState
        A finished game.
    specs : sequence of str
        One strategy spec per seat.
    header : str
        The first line (the plugin's: game, players, seed, index).
    reveal : bool, optional
        Accepted for every game's replay: nothing is hidden here, so it only adds a line
        to the legend saying so. Default False.

    Returns
    -------
    str
        The replay; the same game always gives the same text.
    """
    board = state.board
    names = space_names(board)
    out = [
        header,
        "rules: " + ", ".join(f"{k}={v}" for k, v in state.rules.as_dict().items()),
    ]
    for s, spec in enumerate(specs):
        out.append(f"seat {s} ({MARKS[s]}): {spec}")
    out += _legend(state, names, reveal)
    for rep in state.reports:
        r = rep.round
        out.append("")
        pos = positions_in_round(state.first_seat, state.rules.rotation, state.n, r)
        order = sorted(range(state.n), key=lambda s: pos[s])
        out.append(
            f"Round {r + 1}: turn order "
            + ", ".join(f"{MARKS[s]} (position {pos[s] + 1})" for s in order)
        )
        for space, colour in rep.placements:
            if colour == NEUTRAL and state.n == 2:
                line = rep.lines[pos[NEUTRAL]] + 1
                out.append(f"  {MARKS[order[0]]} places a neutral N on {names[space]} "
                           f"(touching the neutral die's line {line})")  # fmt: skip
            else:
                out.append(f"  {_mark(state, colour)} places on {names[space]}")
        cuts = []
        for c in range(COLOURS if state.n == 3 else 2):
            cuts.append(f"{MARKS[c]} line {rep.lines[pos[c]] + 1}")
        if state.n == 2:
            cuts.append(f"N (the neutral die) line {rep.lines[pos[NEUTRAL]] + 1}")
        out.append(f"  cuts (revealed together): {', '.join(cuts)}; {max(rep.regions) + 1} regions")
        safe = [_mark(state, c) for c, ok in enumerate(rep.safe) if ok]
        if safe:
            out.append(
                f"  safe this round (at most one topping in every region): {', '.join(safe)}"
            )
        out += _region_lines(state, rep, names)
        out += side_by_side(
            [
                ("after placing", draw_board(board, [_mark(state, c) for c in _before(rep)])),
                ("regions", draw_board(board, [str(g + 1) for g in rep.regions])),
                ("after the round", draw_board(board, [_mark(state, c) for c in rep.owner])),
            ]
        )
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
