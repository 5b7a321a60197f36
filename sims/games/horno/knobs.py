"""Horno's knobs (:mod:`sims.core.knobs`): what ``slicelab balance`` may change."""

from __future__ import annotations

from sims.core.knobs import Knob, int_knob

KNOBS: tuple[Knob, ...] = (
    int_knob("rounds", "rounds in a game", 4, 9, 6, unit="rounds"),
    Knob("radioactive_bonus", "the radioactive +5 counts once, or for each matching card",
         ("once", "each"), "once"),
    Knob("second_radioactive", "a second matching radioactive card may be placed",
         (True, False), True),
    Knob("tie", "a tie for the highest total: shared, or won by more completed dishes",
         ("shared", "dishes"), "shared"),
    Knob("repeat_types", "a seat may prepare a dish type it prepared before", (False, True),
         False),
)  # fmt: skip
