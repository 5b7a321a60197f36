"""Per-decision records and per-seat result rows from the reference engine, in the column
order the compiled kernel will write (:data:`DECISION_COLUMNS`, :data:`SEAT_COLUMNS`,
:data:`GAME_COLUMNS`), so the tables do not depend on the engine that played the game."""

from __future__ import annotations

from sims.games.pizzatheory.engine import Decision, GameState, positions_in_round

DECISION_COLUMNS = (
    "game_index", "round", "seat", "position", "phase", "action", "n_legal", "on_board",
    "supply", "empty",
)  # fmt: skip
"""One row per decision, read before it is applied: the decider's turn position (0 = 1st)
this round, the action (a space id, or a line 0..5 at CUT), the legal count, the decider's
toppings on the board and in supply, and the empty spaces."""

SEAT_COLUMNS = (
    "won", "score", "toppings", "placed", "captured", "lost", "safe_rounds", "saved",
    "skipped", "start_position",
)  # fmt: skip
"""Each seat's final row: ``won`` (the win key: 1 for a winner, every seat 1 in a draw or a
neutral win), ``score`` = ``toppings`` on the board at the end, toppings placed, captured
by replacement and lost, rounds the safety rule protected it, toppings it kept so, place
steps skipped, and its turn position in the first round."""

GAME_COLUMNS = ("rounds", "ending", "safety_rounds", "neutral_on_board")
"""Each game's rounds played, its ending (``engine.Ending``: 0 win, 1 run-out tiebreak, 2
draw at the round bound, 3 neutral win), the rounds in which the safety rule kept a topping
on the board, and the neutral toppings on the board at the end (-1 at 3 players)."""


def decision_row(state: GameState, decision: Decision, action: int, game_index: int) -> list[int]:
    """The record of ``decision`` (taken as ``action``), read before it is applied."""
    seat = decision.player
    return [game_index, state.round, seat, state.positions[seat], int(decision.phase),
            int(action), len(decision.legal), state.on_board(seat), state.supply[seat],
            sum(1 for c in state.owner if c < 0)]  # fmt: skip


def seat_rows(state: GameState) -> list[list[int]]:
    """Each seat's final row in :data:`SEAT_COLUMNS` order."""
    won = state.won()
    start = positions_in_round(state.first_seat, state.rules.rotation, state.n, 0)
    rows = []
    for s in range(state.n):
        t = state.tally[s]
        rows.append([won[s], state.on_board(s), state.on_board(s), t.placed, t.captured,
                     t.lost, t.safe_rounds, t.saved, t.skipped, start[s]])  # fmt: skip
    return rows


def game_row(state: GameState) -> list[int]:
    """The game's row in :data:`GAME_COLUMNS` order."""
    from sims.games.pizzatheory.rules import NEUTRAL

    neutral = state.on_board(NEUTRAL) if state.n == 2 else -1
    rounds = min(state.round + 1, state.rules.max_rounds)
    return [rounds, int(state.ending), state.safety_rounds, neutral]
