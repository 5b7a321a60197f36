"""Rule options of New York Slice: the spec's fixed setup tables and every **Ruling**.

Each Ruling of ``docs/rules/nyslice.md`` is a named field of :class:`Rules` whose
default is the spec's ruling, so a study can switch it. A variant's id hashes the rule
options and the deck content, never the seed (design principle 3).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sims.core.errors import SlicelabError
from sims.core.limits import Limit
from sims.games.nyslice.deck import Special
from sims.games.ruleopts import RuleOptions

RULES_VERSION = "nyslice-1"
"""Bumped whenever a change to the engine can change the result of a game."""

MIN_PLAYERS, MAX_PLAYERS = 2, 6
SLICES_PER_STACK = 11
MYSTERY_POOL = 3

SETUP_REMOVALS: dict[int, tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = {
    # players: (numbered types removed, combo pairs removed)
    2: ((10, 8, 3), ((8, 10),)),
    5: ((10,), ((8, 10),)),
}
"""Setup: slices left in the box per player count (3, 4 and 6 players use all 69)."""

SPECIALS_NEVER_VALID: dict[int, frozenset[Special]] = {
    2: frozenset({Special.CUT_IN_LINE, Special.DIBS, Special.YOU_LOVE_VEGGIES}),
}
"""Specials that may never appear at a player count: revealed, they are always replaced
(and leave the game), so they are out of play there. (A blank is always valid.)"""

SPECIALS_NOT_IN_LAST_ROUND: frozenset[Special] = frozenset(
    {Special.CUT_IN_LINE, Special.SNEAK_A_SLICE}
)
"""Specials that may not appear in the last round, at any player count (they act on the
next round's order or on portions nobody could still use): revealed then, they are
replaced."""


@dataclass(frozen=True)
class Rules(RuleOptions):
    """Rulings of the spec as options; the defaults are the spec's rulings.

    Attributes
    ----------
    first_slicer : int
        Seat that slices first ("the last game's winner"); Ruling: seat 0.
    rejected_special : str
        What happens to a special tile that may not appear in a round: ``"leaves"`` the game
        (Ruling) or goes to the ``"bottom"`` of the replacement pile.
    dibs_slicer_may_use : bool
        Ruling: the slicer may call Dibs! too (the rule names no exception).
    dibs_closes_circle : bool
        Ruling: after Dibs! the circle closes up (the taken slice's neighbours become
        adjacent). ``False`` leaves a gap, so the pizza is cut as a line.
    sneak_may_leave_special_only : bool
        Ruling: Sneak-a-Slice may move the last slice of a portion that also holds the
        special ("no portion may be left with nothing"). ``False`` forbids it.
    veggies_edible_later : bool
        Ruling (spec option ``veggies_edible_later``): off — Veggies are edible only in the
        very portion that brings You Love Veggies; on — also in later rounds.
    supreme_from_combo : bool
        Ruling: a number on a collected combo makes its type eligible for the Supreme.
    supreme_same_portion : bool
        Ruling: types collected in the same portion as the Supreme are eligible.
    supreme_late_any_type : bool
        Ruling (off): a waiting Supreme is assigned to one of the types of the collection
        that frees it. On: to any type the player then holds.
    seconds_with_supreme : bool
        Ruling: Seconds may eat a Supreme assigned to the chosen type with its slices.
    seconds_supreme_alone : bool
        Ruling added by slicelab (off): a type qualifies for Seconds only through a
        collected numbered slice of it with pepperoni — the Supreme is eaten "with them".
        On: a type whose only candidate is the assigned Supreme qualifies too.
    super_sized_combo_halves : int
        What-if option, not a ruling: under Super-Sized Combos each number of a collected
        combo counts this many halves for majorities (4, two slices, is the printed rule;
        3 is one and a half; 1 is no more than without the special). 1 to 8.
    compensation : tuple of int
        What-if option, not a ruling: points added at final scoring to each seat by its
        position counted from the first slicer (``compensation[0]`` the first slicer's,
        ``[1]`` the next seat's, ...; a missing position gets 0). Up to 6 integers, 0 to
        20 each; given as any sequence, kept as a tuple without its trailing zeros (so
        ``[0, 2, 0]`` and ``[0, 2]`` are the same rules and the same variant).
    stuffed_crust_points : int
        What-if option, not a ruling: the points Stuffed Crust gives its owner (5 is the
        printed rule). -20 to 20. Greedy and the heuristic still value the tile as printed
        (search's playouts score with the option), so a study can plant a known change in a
        special's worth and check that an estimate of special strength recovers it.
    day_old_pizza_points : int
        What-if option: the points Day-Old Pizza gives its owner (-2 printed). -20 to 20.
    combo_cravings_points : int
        What-if option: Combo Cravings' points per combo its owner ate (3 printed). -6 to 6.
    you_love_veggies_points : int
        What-if option: You Love Veggies' points per Veggie slice its owner ate (3
        printed). -6 to 6.
    buffet_points : int
        What-if option: Buffet's points per type its owner holds and for the Anchovy slice
        (1 printed). -3 to 3.

    The last four, like ``stuffed_crust_points``, change scoring only: greedy and the
    heuristic value the tiles as printed, search's playouts score with the options.
    """

    TITLE = "New York Slice"
    DOC = "docs/rules/nyslice.md"
    SKIP = ("compensation",)

    first_slicer: int = 0
    rejected_special: str = "leaves"
    dibs_slicer_may_use: bool = True
    dibs_closes_circle: bool = True
    sneak_may_leave_special_only: bool = True
    veggies_edible_later: bool = False
    supreme_from_combo: bool = True
    supreme_same_portion: bool = True
    supreme_late_any_type: bool = False
    seconds_with_supreme: bool = True
    seconds_supreme_alone: bool = False
    super_sized_combo_halves: int = 4
    compensation: tuple[int, ...] = ()
    stuffed_crust_points: int = 5
    day_old_pizza_points: int = -2
    combo_cravings_points: int = 3
    you_love_veggies_points: int = 3
    buffet_points: int = 1

    def __post_init__(self) -> None:
        if self.rejected_special not in ("leaves", "bottom"):
            raise SlicelabError(
                f"rule option rejected_special={self.rejected_special!r}: use 'leaves' or 'bottom'"
            )
        first = self.first_slicer
        if type(first) is not int or not FIRST_SLICER.low <= first <= FIRST_SLICER.high:
            raise SlicelabError(
                f"rule option first_slicer={first!r}: use a seat number from "
                f"{FIRST_SLICER.low} to {FIRST_SLICER.high} (a seat of the table)"
            )
        halves = self.super_sized_combo_halves
        if type(halves) is not int or not SUPER_SIZED_HALVES[0] <= halves <= SUPER_SIZED_HALVES[1]:
            raise SlicelabError(
                f"rule option super_sized_combo_halves={halves!r}: use an integer from "
                f"{SUPER_SIZED_HALVES[0]} to {SUPER_SIZED_HALVES[1]} (halves each combo number "
                "counts under Super-Sized Combos; 4 is the printed rule)"
            )
        for limit, printed in SPECIAL_POINTS:
            value = getattr(self, limit.key)
            if type(value) is not int or not limit.low <= value <= limit.high:
                raise SlicelabError(
                    f"rule option {limit.key}={value!r}: use an integer from {limit.low} to "
                    f"{limit.high} (the {limit.what.rsplit(' (', 1)[0]}; {printed} is the "
                    "printed rule)"
                )
        object.__setattr__(self, "compensation", _compensation(self.compensation))

    def bonus(self, seat: int, n_players: int) -> int:
        """The compensation of ``seat`` at a table of ``n_players``: the entry of its position
        counted from the first slicer (0 beyond the list)."""
        pos = (seat - self.first_slicer) % n_players
        return self.compensation[pos] if pos < len(self.compensation) else 0


FIRST_SLICER = Limit(
    "first_slicer", "seat of the first slicer (first_slicer)", 0, MAX_PLAYERS - 1,
    "a seat of the largest table, and of the game's (checked when it is set up)",
)  # fmt: skip
SUPER_SIZED_HALVES_LIMIT = Limit(
    "super_sized_combo_halves",
    "halves a combo number counts under Super-Sized Combos (super_sized_combo_halves)", 1, 8,
    "8 is four slices' worth; majority counts in halves are int16 columns",
)  # fmt: skip
STUFFED_CRUST_LIMIT = Limit(
    "stuffed_crust_points", "points of Stuffed Crust (stuffed_crust_points)", -20, 20,
    "a seat's score is an int16 column",
)  # fmt: skip
DAY_OLD_LIMIT = Limit(
    "day_old_pizza_points", "points of Day-Old Pizza (day_old_pizza_points)", -20, 20,
    "a seat's score is an int16 column",
)  # fmt: skip
CRAVINGS_LIMIT = Limit(
    "combo_cravings_points",
    "points of Combo Cravings per eaten combo (combo_cravings_points)", -6, 6,
    "twice the printed 3 either way: a designer's range, far from overflow",
)  # fmt: skip
VEGGIES_LIMIT = Limit(
    "you_love_veggies_points",
    "points of You Love Veggies per eaten Veggie (you_love_veggies_points)", -6, 6,
    "twice the printed 3 either way: a designer's range, far from overflow",
)  # fmt: skip
BUFFET_LIMIT = Limit(
    "buffet_points", "points of Buffet per type held and for the Anchovy slice (buffet_points)",
    -3, 3, "three times the printed 1 either way: a designer's range, far from overflow",
)  # fmt: skip
SPECIAL_POINTS: tuple[tuple[Limit, int], ...] = (
    (STUFFED_CRUST_LIMIT, 5), (DAY_OLD_LIMIT, -2), (CRAVINGS_LIMIT, 3), (VEGGIES_LIMIT, 3),
    (BUFFET_LIMIT, 1),
)  # fmt: skip
"""The what-if options of the starred specials' points, each with its printed value."""
COMPENSATION_ENTRIES = Limit(
    "compensation_entries", "entries of compensation (one per position)", 0, MAX_PLAYERS,
    "one per seat of the largest table; the kernel holds one slot per seat",
)  # fmt: skip
COMPENSATION_POINTS = Limit(
    "compensation_points", "points of a compensation entry", 0, 20,
    "a seat's score is an int16 column",
)  # fmt: skip
RULE_LIMITS = (
    FIRST_SLICER, SUPER_SIZED_HALVES_LIMIT, STUFFED_CRUST_LIMIT, DAY_OLD_LIMIT, CRAVINGS_LIMIT,
    VEGGIES_LIMIT, BUFFET_LIMIT, COMPENSATION_ENTRIES, COMPENSATION_POINTS,
)  # fmt: skip
"""The limits of the rule options (``Rules``), listed with the deck's in the rules
document's section "Data files"."""
SUPER_SIZED_HALVES = (SUPER_SIZED_HALVES_LIMIT.low, SUPER_SIZED_HALVES_LIMIT.high)
"""The range of ``Rules.super_sized_combo_halves``."""
STUFFED_CRUST_POINTS = (STUFFED_CRUST_LIMIT.low, STUFFED_CRUST_LIMIT.high)
"""The range of ``Rules.stuffed_crust_points``."""
MAX_COMPENSATION = COMPENSATION_POINTS.high
"""The largest entry of ``Rules.compensation`` (so that no score can overflow the dataset's
columns)."""


def _compensation(value: Any) -> tuple[int, ...]:
    """``Rules.compensation`` checked and normalized: a tuple of ints without trailing zeros.

    A list or tuple of integers, or its command-line text (``"0,2"`` or ``"[0, 2]"``:
    ``--rule`` reads a value that is no bool or number as text).

    Raises
    ------
    SlicelabError
        One line naming the fix, for anything else.
    """
    shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
    fix = (
        f"rule option compensation={shown}: use a list of up to {COMPENSATION_ENTRIES.high} "
        f"integers from {COMPENSATION_POINTS.low} to {COMPENSATION_POINTS.high}, the points "
        "of each position from the first slicer, e.g. compensation = [0, 2] in a study file "
        "or --rule compensation=0,2"
    )
    items: Any = value
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        try:
            items = [int(x) for x in text.split(",")] if text.strip() else []
        except ValueError:
            raise SlicelabError(fix) from None
    if not isinstance(items, list | tuple) or len(items) > COMPENSATION_ENTRIES.high:
        raise SlicelabError(fix)
    low, high = COMPENSATION_POINTS.low, COMPENSATION_POINTS.high
    if any(type(x) is not int or not low <= x <= high for x in items):
        raise SlicelabError(fix)
    out = list(items)
    while out and out[-1] == 0:
        out.pop()
    return tuple(out)


def rounds_for(n_players: int) -> int:
    """Number of rounds (= stacks of 11) at a player count: 2p 4, 3p 6, 4p 6, 5p 5, 6p 6."""
    check_players(n_players)
    return {2: 4, 3: 6, 4: 6, 5: 5, 6: 6}[n_players]


def check_players(n_players: int) -> None:
    """Refuse a player count outside 2–6 with a clear message."""
    if not isinstance(n_players, int) or not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise SlicelabError(
            f"New York Slice is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
            f"not {n_players}; pass --players between 2 and 6"
        )


def variant_id(rules: Rules, deck_digest: str) -> str:
    """Id of a variant: a hash of the rule options and the deck content."""
    payload = json.dumps({"rules": rules.as_dict(), "deck": deck_digest}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:12]
