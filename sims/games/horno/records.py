"""Per-decision records and per-seat and per-game result rows from the reference engine, in
fixed column orders (:data:`DECISION_COLUMNS`, :data:`SEAT_COLUMNS`, :data:`GAME_COLUMNS`)
that a compiled kernel will write too, so the tables will not depend on the engine that
played the game."""

from __future__ import annotations

from sims.games.horno.cards import MAX_TYPES
from sims.games.horno.engine import Decision, GameState

DECISION_COLUMNS = (
    "game_index", "round", "seat", "position", "phase", "action", "n_legal", "hand", "oven",
    "deck", "points",
)  # fmt: skip
"""One row per decision, read before it is applied: the round (0 = setup), the decider and
its turn position (0 = first), the phase (``engine.Phase``), the action (the engine's
encoding), the legal count, the decider's cards in hand and in its oven, the deck's size
and the decider's points from completed dishes so far."""

COMPLETED_BY_TYPE = tuple(f"completed_t{t}" for t in range(MAX_TYPES))
SEAT_COLUMNS = (
    "won", "score", "tiebreak", "dish_base", "garbage_penalty", "radioactive_bonus",
    "radioactive_penalty", "unfinished_points", "dish_points", "dishes_completed",
    "unfinished_correct", "unfinished_bad", "pantry_steals", "pantry_stolen", "oven_steals",
    "oven_stolen", "sabotages", "sabotaged", "cleans", "cleaned", "drawn", "discarded",
    "placed", "redrawn", "first_type", "closed", "position", *COMPLETED_BY_TYPE,
)  # fmt: skip
"""Each seat's final row: ``won`` (1 for a winner, ties included), ``score`` and its
components (``dish_base`` + ``garbage_penalty`` + ``radioactive_bonus`` +
``radioactive_penalty`` + ``unfinished_points``; the penalties ≤ 0), ``tiebreak`` (rule
``tie``), ``dish_points`` (the completed dishes' points: the first four components),
``dishes_completed``, the unfinished dish's correct and bad cards (0 without one), the
actions made and suffered (pantry steals, oven steals, sabotages), cleans and the cards
they took back, cards drawn and discarded in Restock steps, placed in Prepare steps and
exchanged at setup, the type of its first dish, whether its oven closed, its turn position,
and its completed dishes per type (``completed_t0`` .. ``completed_t7``, one per possible
type, ``cards.MAX_TYPES``, 0 beyond the card set's)."""

DISH_COLUMNS = ("dishes", "dish_scores", "unfinished_dish")
"""Each seat's dish cards: the dish cards it completed (``dishes``, their indices in the
card set's file order, in the order completed) with the points each scored
(``dish_scores``, same order; the sum is ``dish_points``), and the dish card in its oven at
the end (``unfinished_dish``, -1 for none: an oven closed or left empty). Every dish a seat
took is one of these, so a card's completion rate is its completions over its completions
and unfinished ends."""

GAME_COLUMNS = ("rounds", "reshuffles", "dishes_completed", "deck_left")
"""Each game's rounds, the discard pile's reshuffles into the deck, the dishes completed by
all seats, and the cards left in the deck at the end."""


def decision_row(state: GameState, decision: Decision, action: int, game_index: int) -> list[int]:
    """The record of ``decision`` (taken as ``action``), read before it is applied."""
    s = decision.player
    return [game_index, state.round, s, state.position(s), int(decision.phase), int(action),
            len(decision.legal), len(state.hands[s]), len(state.ovens[s]), len(state.deck),
            state.points(s)]  # fmt: skip


def seat_rows(state: GameState) -> list[list[int]]:
    """Each seat's final row in :data:`SEAT_COLUMNS` order."""
    won = state.won()
    tiebreak = state.tiebreak()
    rows = []
    for s, b in enumerate(state.score_breakdown()):
        t = state.tally[s]
        u = state.unfinished[s]
        by_type = [0] * MAX_TYPES
        for r in state.scored[s]:
            by_type[state.cards.dishes[r.dish].type] += 1
        dish_points = (b["dish_base"] + b["garbage_penalty"] + b["radioactive_bonus"]
                       + b["radioactive_penalty"])  # fmt: skip
        rows.append([
            won[s], b["score"], tiebreak[s], b["dish_base"], b["garbage_penalty"],
            b["radioactive_bonus"], b["radioactive_penalty"], b["unfinished_points"],
            dish_points, len(state.scored[s]), u.correct if u else 0, u.bad if u else 0,
            t.pantry_steals, t.pantry_stolen, t.oven_steals, t.oven_stolen, t.sabotages,
            t.sabotaged, t.cleans, t.cleaned, t.drawn, t.discarded, t.placed, t.redrawn,
            t.first_type, int(state.closed[s]), state.position(s), *by_type,
        ])  # fmt: skip
    return rows


def seat_dishes(state: GameState) -> list[tuple[list[int], list[int], int]]:
    """Each seat's :data:`DISH_COLUMNS`: the dish cards it completed, their points, and its
    unfinished dish card (-1 for none)."""
    out = []
    for s in range(state.n):
        u = state.unfinished[s]
        done = state.scored[s]
        out.append(([r.dish for r in done], [r.points for r in done], u.dish if u else -1))
    return out


def game_row(state: GameState) -> list[int]:
    """The game's row in :data:`GAME_COLUMNS` order."""
    done = sum(len(r) for r in state.scored)
    return [state.rules.rounds, state.reshuffles, done, len(state.deck)]
