"""Per-decision records and per-seat special masks from the reference engine.

The same columns as the kernel's (``kernel.DECISION_COLUMNS``), so the per-decision
table does not depend on the engine that played the game.
"""

from __future__ import annotations

from sims.games.nyslice.deck import Kind
from sims.games.nyslice.engine import Decision, GameState
from sims.games.nyslice.scoring import type_counts_halves
from sims.games.nyslice.view import PlayerView


def decision_row(state: GameState, decision: Decision, action: int, game_index: int) -> list[int]:
    """The record of ``decision`` (taken as ``action``), read before it is applied."""
    seat = decision.player
    row = [-1] * 18
    row[0] = game_index
    row[1] = state.round
    row[2] = state.slicer
    row[3] = seat
    row[4] = int(decision.phase)
    row[5] = int(action)
    row[6] = len(decision.legal)
    row[16] = int(decision.portion_special) if decision.portion_special is not None else -1
    row[17] = sum(1 for p in state.portions if p.taken_by < 0)
    sid = decision.slice
    if sid >= 0:
        s = state.deck.slices[sid]
        row[7] = sid
        row[8] = int(s.kind)
        if s.kind in (Kind.NUMBERED, Kind.COMBO):
            row[9] = s.types[0]
        if s.kind == Kind.COMBO:
            row[10] = s.types[1]
        row[11] = s.pepperoni
        row[12] = s.anchovies
        if row[9] > 0:
            t = row[9]
            counts = [
                type_counts_halves(state.deck, state.holdings(q), state.rules)[t]
                for q in range(state.n)
            ]
            row[13] = counts[seat]
            row[14] = max((c for q, c in enumerate(counts) if q != seat), default=0)
            row[15] = PlayerView(state, seat).unclaimed()[t]
    return row


def score_rows(state: GameState) -> list[list[int]]:
    """Each seat's final score row in the kernel's ``SCORE_COLUMNS`` order: majorities,
    specials, diet, pepperoni, anchovies, total, eaten, collected, owned and used masks,
    majorities won, bonus."""
    rows = []
    for p, b in enumerate(state.scores()):
        owned, used = special_masks(state, p)
        rows.append([
            b.majorities, b.specials, b.diet, b.pepperoni, b.anchovies, b.total,
            b.eaten_count, b.collected_count, owned, used, b.majorities_won, b.bonus,
        ])  # fmt: skip
    return rows


def special_masks(state: GameState, seat: int) -> tuple[int, int]:
    """Bit masks (bit = special code; bit 14 the blank) of the specials a seat owns and of
    those it used."""
    p = state.players[seat]
    owned = sum(1 << int(s) for s in p.specials)
    used = sum(1 << int(s) for s in p.used)
    return owned, used
