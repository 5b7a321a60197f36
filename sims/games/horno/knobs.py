"""Horno's knobs (:mod:`sims.core.knobs`): what ``slicelab balance`` may change: rule
options, and numbers of the card set (each garbage card's penalty, the radioactive
cards' bonus, the points of the dishes of each size) as data knobs, which play a changed
copy of the arm's card set."""

from __future__ import annotations

from collections.abc import Callable

from sims.core.knobs import DataKnob, Knob, int_knob
from sims.games.horno.cards import cards_text

GARBAGE = (("mosca", 1), ("cabello", 2), ("cucaracha", 3), ("rata", 4))
"""The default set's garbage cards in file order, with their printed penalties."""
RADIOACTIVE = 5
"""The default set's radioactive cards (each with the printed bonus +5)."""


def _garbage(i: int, name: str, printed: int) -> DataKnob:
    return DataKnob(f"penalty.{name}", f"points a dish loses per {name} in its oven",
                    tuple(range(0, 7)), printed, option="cards", unit="points",
                    paths=(("garbage", i, "penalty"),), text=cards_text)  # fmt: skip


DISH_POINTS = ((3, 10), (4, 14), (5, 18))
"""The default set's dish sizes (ingredients) with their printed points."""


def _dishes_of(size: int) -> Callable[[dict], tuple[tuple[str | int, ...], ...]]:
    """A data knob's ``where``: every dish of ``size`` ingredients in the arm's set."""

    def where(data: dict) -> tuple[tuple[str | int, ...], ...]:
        return tuple(("dish", i, "points") for i, d in enumerate(data.get("dish", ()))
                     if len(d.get("ingredients", ())) == size)  # fmt: skip

    return where


def _points(size: int, printed: int) -> DataKnob:
    return DataKnob(f"points.{size}", f"points of every dish of {size} ingredients (each set to "
                    "this; printed: 4 per ingredient - 2)", tuple(range(printed - 4, printed + 5)),
                    printed, option="cards", unit="points", where=_dishes_of(size),
                    text=cards_text)  # fmt: skip


KNOBS: tuple[Knob, ...] = (
    int_knob("rounds", "rounds in a game", 4, 9, 6, unit="rounds"),
    int_knob("hand_limit", "cards a hand may hold", 3, 7, 7, unit="cards"),
    int_knob("oven_limit", "cards an oven may hold besides its dish (the shipped sets' largest "
             "dish has 5 ingredients)", 5, 7, 7, unit="cards"),
    Knob("radioactive_bonus", "the radioactive +5 counts once, or for each matching card",
         ("once", "each"), "once"),
    Knob("second_radioactive", "a second matching radioactive card may be placed",
         (True, False), True),
    Knob("tie", "a tie for the highest total: shared, or won by more completed dishes",
         ("shared", "dishes"), "shared"),
    Knob("repeat_types", "a seat may prepare a dish type it prepared before", (False, True),
         False),
    *(_garbage(i, name, printed) for i, (name, printed) in enumerate(GARBAGE)),
    DataKnob("radioactive_points", "the bonus a radioactive card gives a dish of its type",
             tuple(range(0, 11)), 5, option="cards", unit="points",
             paths=tuple(("radioactive", i, "bonus") for i in range(RADIOACTIVE)),
             text=cards_text),
    *(_points(size, printed) for size, printed in DISH_POINTS),
)  # fmt: skip
