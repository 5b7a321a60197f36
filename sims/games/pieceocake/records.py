"""Per-decision records and per-seat score rows from the reference engine, in the column
order the compiled kernel writes (:data:`DECISION_COLUMNS`, :data:`SCORE_COLUMNS`), so the
tables do not depend on the engine that played the game."""

from __future__ import annotations

from sims.games.pieceocake.cake import MAX_VARIETIES
from sims.games.pieceocake.engine import Decision, GameState, Phase

DECISION_COLUMNS = (
    "game_index", "round", "server", "seat", "phase", "action", "n_legal", "slice",
    "variety", "own_count", "rival_count", "unseen_left", "pieces", "pieces_left",
)  # fmt: skip
"""One row per decision. ``slice`` is the slice of an EAT decision and ``variety`` its
variety (the variety of a FORGO_COUNT decision), else -1; ``own_count`` and
``rival_count`` are the decider's and the best other seat's collected counts of that
variety and ``unseen_left`` its slices not yet seen, before the decision (-1 without a
variety); ``pieces`` is the cut's piece count (-1 at CUT) and ``pieces_left`` the pieces
still free."""

COLLECTED_BY_VARIETY = tuple(f"collected_v{v}" for v in range(MAX_VARIETIES))
EATEN_BY_VARIETY = tuple(f"eaten_v{v}" for v in range(MAX_VARIETIES))
SCORE_COLUMNS = (
    "score", "majorities", "majorities_won", "cream", "eaten", "collected",
    "pieces_taken", "forgone", "forgo_eaten", "won_mask",
    *COLLECTED_BY_VARIETY, *EATEN_BY_VARIETY,
)  # fmt: skip
"""Each seat's final row: score, its parts, slices eaten and collected at the end, pieces
taken, forgo turns, slices eaten by forgoing; ``won_mask``, bit v set when the seat scores
variety v's majority (``scoring.score``: under ``majority_ties`` ``full`` every tied
leader, ``none`` only a sole leader, ``split`` every tied leader, even when its floored
share is 0; ``majorities_won`` is its popcount); then its collected slices of each variety
at the end (``collected_v0`` .. ``collected_v15``, one column per possible variety,
``cake.MAX_VARIETIES``, 0 beyond the cake's) and its eaten slices of each (``eaten_v0`` ..,
from pieces and by forgoing)."""


def unseen_left(state: GameState, variety: int) -> int:
    """Slices of ``variety`` not in any circle laid so far (the current one included)."""
    laid = sum(
        1
        for r in range(state.round + 1)
        for sid in state.deal.stacks[r]
        if state.variety[sid] == variety
    )
    return state.cake.varieties[variety].copies - laid


def decision_row(state: GameState, decision: Decision, action: int, game_index: int) -> list[int]:
    """The record of ``decision`` (taken as ``action``), read before it is applied."""
    seat = decision.player
    v = state.variety[decision.slice] if decision.slice >= 0 else decision.variety
    row = [game_index, state.round, state.server, seat, int(decision.phase), int(action),
           len(decision.legal), decision.slice, v, -1, -1, -1, -1, -1]  # fmt: skip
    if v >= 0:
        counts = [state.collected_counts(q)[v] for q in range(state.n)]
        row[9] = counts[seat]
        row[10] = max(c for q, c in enumerate(counts) if q != seat)
        row[11] = unseen_left(state, v)
    if decision.phase != Phase.CUT:
        row[12] = len(state.pieces)
        row[13] = sum(1 for p in state.pieces if p.taken_by < 0)
    return row


def score_rows(state: GameState) -> list[list[int]]:
    """Each seat's final row in :data:`SCORE_COLUMNS` order."""
    rows = []
    for seat, b in enumerate(state.scores()):
        p = state.players[seat]
        collected = sum(len(ids) for ids in p.collected)
        by_variety = [len(ids) for ids in p.collected]
        eaten = [0] * len(by_variety)
        for sid in p.eaten:
            eaten[state.variety[sid]] += 1
        pad = [0] * (MAX_VARIETIES - len(by_variety))
        rows.append([b.score, b.majorities, b.majorities_won, b.cream, len(p.eaten), collected,
                     p.pieces_taken, p.forgone, p.forgo_eaten, b.won_mask,
                     *by_variety, *pad, *eaten, *pad])  # fmt: skip
    return rows
