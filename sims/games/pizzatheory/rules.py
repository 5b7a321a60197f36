"""Pizza Theory's player range and its rule options: every Ruling of
``docs/rules/pizzatheory.md`` (and the what-if options) with its name and default."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sims.core.errors import SlicelabError
from sims.games.ruleopts import RuleOptions, check_bools, check_choices, check_int

MIN_PLAYERS = 2
MAX_PLAYERS = 3
COLOURS = 3
"""Topping colours on the board: the three players', or at 2 players two and the neutral."""
NEUTRAL = 2
"""The neutral colour's index at 2 players."""
RULES_VERSION = 1
"""Bumped when a rule's implementation changes, so older datasets are never resumed into."""
TITLE = "Pizza Theory"

_CHOICES = {
    "rotation": ("clockwise", "counterclockwise", "none"),
    "replacement_order": ("by-region", "by-space"),
    "two_way_tie": ("remove", "nothing"),
    "placement": ("apart", "anywhere"),
}
SUPPLY_RANGE = (3, 40)
ROUNDS_RANGE = (1, 10_000)


@dataclass(frozen=True)
class Rules(RuleOptions):
    """The rule options of a game of Pizza Theory (defaults: the spec's rulings).

    Attributes
    ----------
    first_seat : int
        Ruling: the seat at turn position 1 in the first round (the next seats take
        positions 2 and 3). At 2 players, the first player of the first round.
    rotation : {"clockwise", "counterclockwise", "none"}
        Ruling ``clockwise``: after each round the player who was 2nd becomes 1st, 3rd
        becomes 2nd and 1st becomes 3rd, each taking that position's cut direction.
        ``counterclockwise``: 3rd becomes 1st. What-if ``none``: positions never change.
    replacement_order : {"by-region", "by-space"}
        Ruling ``by-region``: after every removal, replacements are placed region by region
        (in the order of each region's lowest space) and space by space, until the majority
        player's supply runs out. ``by-space``: in space order over the whole board.
    two_way_tie : {"remove", "nothing"}
        The rulebook's ``remove``: where two players tie for the most toppings, the third
        player's (not safe) toppings there are returned, not replaced. What-if ``nothing``.
    safety : bool
        The rulebook's safety rule (on): a player with at most one topping in every region
        loses none this round. What-if off.
    placement : {"apart", "anywhere"}
        The rulebook's ``apart``: a topping goes on an empty space next to none of its
        owner's toppings. What-if ``anywhere``: any empty space.
    supply : int
        Toppings per player (16; two start on the board).
    runout_tiebreak : bool
        Ruling (off): when on, every player whose supply reached 0 during a round is a
        candidate, and the game ends with the candidates holding the most toppings on the
        board winning (ties shared). Off: a player with all their toppings on the board at
        the end of a round wins (two such share the win).
    max_rounds : int
        Ruling: a game still running after this many rounds (200) is recorded as a draw.
    """

    TITLE = TITLE
    DOC = "docs/rules/pizzatheory.md"

    first_seat: int = 0
    rotation: str = "clockwise"
    replacement_order: str = "by-region"
    two_way_tie: str = "remove"
    safety: bool = True
    placement: str = "apart"
    supply: int = 16
    runout_tiebreak: bool = False
    max_rounds: int = 200

    def __post_init__(self) -> None:
        check_choices(self, _CHOICES, TITLE)
        check_bools(self, ("safety", "runout_tiebreak"), TITLE)
        check_int(TITLE, "first_seat", self.first_seat, 0, MAX_PLAYERS - 1,
                  hint="a seat number")  # fmt: skip
        check_int(TITLE, "supply", self.supply, *SUPPLY_RANGE, hint="16 is the rule")
        check_int(TITLE, "max_rounds", self.max_rounds, *ROUNDS_RANGE, hint="200 is the ruling")

def check_players(n_players: Any) -> None:
    """Refuse a player count other than 3 (or 2, the neutral variant) with a clear message."""
    if (
        not isinstance(n_players, int)
        or isinstance(n_players, bool)
        or not MIN_PLAYERS <= n_players <= MAX_PLAYERS
    ):
        raise SlicelabError(
            f"Pizza Theory is played by {MAX_PLAYERS} players ({MIN_PLAYERS} with the neutral "
            f"variant), not {n_players}; pass --players {MAX_PLAYERS} or {MIN_PLAYERS}"
        )


def variant_id(rules: Rules, board_digest: str) -> str:
    """Id of a variant: a hash of the rule options and the board's content."""
    payload = json.dumps({"rules": rules.as_dict(), "board": board_digest}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:12]
