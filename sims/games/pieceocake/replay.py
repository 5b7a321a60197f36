"""Text replay of a finished Piece o' Cake game, as a person would follow it at the table.

Every slice is named by its variety (the cake file's names), every piece by a letter (A, B,
... in the order the cut lists them: from the piece after the lowest cut gap, round the
circle), and each cut is drawn as one line of the circle with ``|`` at the cuts and the
pieces' letters beneath. By default the replay shows what a spectator at the table sees
(``docs/rules/pieceocake.md``, "What each player can see"): the slices left out of the
game unseen are written ``[hidden]``; with ``reveal`` they are named, as ``[hidden: ...]``.
"""

from __future__ import annotations

from collections.abc import Sequence

from sims.games.pieceocake.cake import ROUNDS
from sims.games.pieceocake.cuts import pieces_of
from sims.games.pieceocake.engine import GameState
from sims.games.replaytext import HIDDEN_TEXT, LETTERS, hidden, ring_drawing

PIECE_LETTERS = LETTERS
"""Piece ``j`` of a cut (``cuts.pieces_of`` order) is called PIECE_LETTERS[j]."""


def format_replay(
    state: GameState, strategy_names: Sequence[str], header: str = "", reveal: bool = False
) -> str:
    """Render every round (server, the circle, the cut drawn with its pieces named, each
    turn: the piece taken and each slice eaten or collected, or a forgo and what it ate;
    leftovers) and the final score table with majorities, cream and the winner(s).

    Parameters
    ----------
    state : GameState
        A finished game.
    strategy_names : sequence of str
        One per seat, shown beside the seat number.
    header : str, optional
        A first line (the plugin's: game, players, seed, index).
    reveal : bool, optional
        Also name the slices left out of the game unseen. Default False (``[hidden]``).

    Returns
    -------
    str
        The replay, one line per event; the same game always gives the same text.
    """
    cake = state.cake
    names = [v.name for v in cake.varieties]
    creams = [v.cream for v in cake.varieties]

    def lab(sid: int) -> str:
        return names[state.variety[sid]]

    seat = [f"P{i} ({name})" for i, name in enumerate(strategy_names)]
    lines: list[str] = []
    if header:
        lines.append(header)
    lines.append(f"Players: {', '.join(seat)}")
    unseen = state.deal.unseen
    left_out = (
        f"{len(unseen)} slices left out unseen {hidden(', '.join(lab(s) for s in unseen), reveal)}"
        if unseen
        else "no slice left out"
    )
    lines.append(f"Cake: {cake.name}; {left_out}")
    lines.append(
        "Varieties (slices = points for the most collected; cream a slice scores eaten): "
        + ", ".join(f"{v.name} {v.value} ({v.cream} cream)" for v in cake.varieties)
    )
    lines.append(
        "A cut is drawn as the circle in one line, '|' at each cut, the pieces' letters "
        "beneath; the drawing's two ends touch."
    )
    if reveal:
        lines.append("--reveal: what no spectator sees (the slices left out) is named, as "
                     "[hidden: ...].")  # fmt: skip
    elif unseen:
        lines.append(f"What no spectator sees is written {HIDDEN_TEXT}; --reveal names it.")
    r = -1
    for ev in state.events:
        kind = ev[0]
        if kind == "cut":
            r += 1
            _, server, mask = ev
            circle = state.deal.stacks[r]
            lines.append("")
            lines.append(f"== Round {r + 1}/{ROUNDS} — server {seat[server]}")
            lines.append("   Circle: " + ", ".join(lab(s) for s in circle))
            pieces = pieces_of(mask)
            if len(pieces) == 1:
                lines.append(f"   {seat[server]} does not cut: the whole cake is one piece, A")
            else:
                lines.append(f"   {seat[server]} cuts {len(pieces)} pieces:")
            letter = {p: PIECE_LETTERS[j] for j, pos in enumerate(pieces) for p in pos}
            drawn = ring_drawing([lab(s) for s in circle], [letter[p] for p in range(len(circle))])
            lines += [f"     {x}" for x in drawn]
            for j, pos in enumerate(pieces):
                lines.append(f"     {PIECE_LETTERS[j]}: " + ", ".join(lab(circle[p]) for p in pos))
        elif kind == "take":
            _, p, j, slices = ev
            lines.append(f"   {seat[p]} takes piece {PIECE_LETTERS[j]}: "
                         f"{', '.join(lab(s) for s in slices)}")  # fmt: skip
        elif kind in ("eat", "collect"):
            _, p, sid = ev
            if kind == "eat":
                c = creams[state.variety[sid]]
                lines.append(f"     eats {lab(sid)} (+{c} cream)")
            else:
                lines.append(f"     collects {lab(sid)}")
        elif kind == "forgo":
            _, p, any_free = ev
            why = "" if any_free else " (no piece left)"
            lines.append(f"   {seat[p]} forgoes{why}")
        elif kind == "pass":
            lines.append(f"   {seat[ev[1]]} has taken a piece and none is left: the turn passes")
        elif kind == "forgo_eat":
            _, p, v, count = ev
            c = creams[v] * count
            lines.append(f"     eats {count} collected {names[v]} (+{c} cream)")
        elif kind == "leftover":
            _, j, slices = ev
            lines.append(f"   piece {PIECE_LETTERS[j]} is left over: "
                         f"{', '.join(lab(s) for s in slices)}")  # fmt: skip
    lines.append("")
    lines.append("== Final scores")
    scores = state.scores()
    shares = state.win_shares()
    counts = [state.collected_counts(q) for q in range(state.n)]
    lines.append(f"{'seat':<24}{'majorities':>11}{'cream':>7}{'score':>7}{'eaten':>7}"
                 f"{'collected':>10}  win")  # fmt: skip
    for i, b in enumerate(scores):
        win = "" if shares[i] == 0 else ("WIN" if shares[i] == 1 else f"shared {shares[i]:.2f}")
        eaten = len(state.players[i].eaten)
        lines.append(f"{seat[i]:<24}{b.majorities:>11}{b.cream:>7}{b.score:>7}{eaten:>7}"
                     f"{sum(counts[i]):>10}  {win}")  # fmt: skip
    lines.append("Majorities (collected counts per seat; * scores the variety):")
    ties = state.rules.majority_ties
    for v, var in enumerate(cake.varieties):
        col = [counts[q][v] for q in range(state.n)]
        best = max(col)
        leaders = [q for q in range(state.n) if best > 0 and col[q] == best]
        scored = leaders if len(leaders) == 1 or ties != "none" else []
        value = var.value // len(leaders) if ties == "split" and leaders else var.value
        cells = " ".join(f"{c}{'*' if q in scored else ' '}" for q, c in enumerate(col))
        who = ", ".join(f"P{q}" for q in scored) or "nobody"
        pts = f" ({value} each)" if len(scored) > 1 else (f" ({value})" if scored else "")
        lines.append(f"  {var.name:<12}{cells}   → {who}{pts}")
    winners = [seat[i] for i in range(state.n) if shares[i] > 0]
    lines.append(f"Winner{'s' if len(winners) > 1 else ''}: {', '.join(winners)}")
    return "\n".join(lines)
