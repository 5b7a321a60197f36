"""New York Slice's knobs (:mod:`sims.core.knobs`): what ``slicelab balance`` may change.

Compensation points by position from the first slicer (a what-if rule option, 0 under the
printed rules; the search stops at 6, a designer can widen it with ``--values``), the
starred specials' points (Stuffed Crust, Day-Old Pizza, Combo Cravings, You Love Veggies,
Buffet; players other than search value the tiles as printed) and the halves a combo
number counts under Super-Sized Combos.
"""

from __future__ import annotations

from sims.core.knobs import Knob, int_knob
from sims.games.nyslice.rules import MAX_PLAYERS, SUPER_SIZED_HALVES

KNOBS: tuple[Knob, ...] = (
    *(int_knob(f"compensation.{pos}",
               f"points added to the score of the seat at position {pos} from the first "
               "slicer", 0, 6, 0, key="compensation", index=pos, unit="points",
               min_players=pos + 1)
      for pos in range(MAX_PLAYERS)),
    int_knob("stuffed_crust_points", "points of the Stuffed Crust special", 0, 10, 5,
             unit="points"),
    int_knob("day_old_pizza_points", "points of the Day-Old Pizza special", -6, 0, -2,
             unit="points"),
    int_knob("combo_cravings_points", "Combo Cravings' points per eaten combo", 0, 6, 3,
             unit="points"),
    int_knob("you_love_veggies_points", "You Love Veggies' points per eaten Veggie (the tile "
             "never appears at 2 players)", 0, 6, 3, unit="points", min_players=3),
    int_knob("buffet_points", "Buffet's points per type held and for the Anchovy slice", 0, 3,
             1, unit="points"),
    int_knob("super_sized_combo_halves",
             "halves a combo number counts under Super-Sized Combos", *SUPER_SIZED_HALVES, 4,
             unit="halves"),
)  # fmt: skip
