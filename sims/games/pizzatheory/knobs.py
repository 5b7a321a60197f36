"""Pizza Theory's knobs (:mod:`sims.core.knobs`): what ``slicelab balance`` may change:
rule options, and the board, a choice among the shipped boards."""

from __future__ import annotations

from sims.core.knobs import FileKnob, Knob, int_knob
from sims.games.pizzatheory.board import DEFAULT_BOARD, board_names

KNOBS: tuple[Knob, ...] = (
    int_knob("supply", "toppings per player", 10, 22, 16, unit="toppings"),
    Knob("safety", "the safety rule: a seat with at most one topping in every region "
         "loses none", (True, False), True),
    Knob("two_way_tie", "what a two-way tie for a region does", ("remove", "nothing"),
         "remove"),
    Knob("placement", "apart: not next to your own topping; anywhere: what-if",
         ("apart", "anywhere"), "apart"),
    Knob("runout_tiebreak", "the rulebook's run-out tiebreak (two or more run out in one "
         "round)", (False, True), False),
    FileKnob("board", "the board played: one of the shipped boards", tuple(board_names()),
             DEFAULT_BOARD, option="board"),
)  # fmt: skip
