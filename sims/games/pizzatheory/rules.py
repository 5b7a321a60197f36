"""Pizza Theory's player range and its rule options: every Ruling of
``docs/rules/pizzatheory.md`` (and the what-if options) with its name and default."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sims.core.errors import InertRuleError, SlicelabError
from sims.core.limits import Limit
from sims.games.pizzatheory.board import BOARD_LIMITS
from sims.games.ruleopts import RuleOptions, check_bools, check_choices, check_limit

PLAYERS = Limit("players", "players", 2, 3,
                "the rulebook's 3, or 2 with the neutral colour; the kernel keeps a row per "
                "colour for 3")  # fmt: skip
MIN_PLAYERS = PLAYERS.low
MAX_PLAYERS = PLAYERS.high
COLOURS = 3
"""Topping colours on the board: the three players', or at 2 players two and the neutral."""
NEUTRAL = 2
"""The neutral colour's index at 2 players."""
RULES_VERSION = 2
"""Bumped when a rule's implementation changes, so older datasets are never resumed into (2:
``runout_tiebreak`` only when two or more players run out in the same round; the swing
valuation weighs two other colours tied for the lead alike, not the lowest colour first;
``cycle_first_seat``)."""
TITLE = "Pizza Theory"

_CHOICES = {
    "rotation": ("clockwise", "counterclockwise", "none"),
    "replacement_order": ("by-region", "by-space"),
    "two_way_tie": ("remove", "nothing"),
    "placement": ("apart", "anywhere"),
}

# ------------------------------------------------------------------------ declared limits
# The rule options' bounds, declared once here (the board file's are in board.py): the
# options check them at the door, the plugin sizes its column types from them, and
# docs/rules/pizzatheory.md lists them (section "Data files").

FIRST_SEAT = Limit("first_seat", "as the first seat (first_seat)", 0, MAX_PLAYERS - 1,
                   "seats are numbered from 0, at most 3 players; and it must be a seat of "
                   "the game's player count")  # fmt: skip
SUPPLY = Limit("supply", "toppings per player (supply)", 3, 40,
               "two start on the board and at least one is left to place; at most 40 keeps "
               "a player's toppings in one byte of the score, toppings, on_board and supply "
               "columns")  # fmt: skip
ROUNDS = Limit("max_rounds", "rounds before a draw (max_rounds)", 1, 10_000,
               "at most 10 000 keeps the round and the per-round counts (placed, skipped, "
               "safe_rounds, safety_rounds) in two bytes and a seat's captured, lost and "
               "saved toppings (at most 40 a round) in four")  # fmt: skip
SUPPLY_RANGE = (SUPPLY.low, SUPPLY.high)
ROUNDS_RANGE = (ROUNDS.low, ROUNDS.high)
LIMITS = (*BOARD_LIMITS, PLAYERS, FIRST_SEAT, SUPPLY, ROUNDS)
"""Pizza Theory's declared limits (``PizzaTheory.data_limits``): the board file's, then
the player count's and the rule options', in the order the rules document lists them."""


@dataclass(frozen=True)
class Rules(RuleOptions):
    """The rule options of a game of Pizza Theory (defaults: the spec's rulings).

    Attributes
    ----------
    first_seat : int
        Ruling: the seat at turn position 1 in the first round (the next seats take
        positions 2 and 3). At 2 players, the first player of the first round.
    cycle_first_seat : bool
        Study design, not a ruling (off): when on, game ``i`` of a study starts with seat
        ``(first_seat + i) mod players`` at turn position 1, so every colour starts first in
        as many games as the others (to within one): a seat answer then averages over the
        colours instead of resting on one colour order.
    rotation : {"clockwise", "counterclockwise", "none"}
        Ruling ``clockwise``: after each round the player who was 2nd becomes 1st, 3rd
        becomes 2nd and 1st becomes 3rd, each taking that position's cut direction.
        ``counterclockwise``: 3rd becomes 1st. What-if ``none``: positions never change.
        At 2 players the first player alternates every round whatever this says, so a value
        other than ``clockwise`` is refused there (:func:`check_rules_for`).
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
        Ruling (off): the rulebook's tiebreak for two players running out in the same
        round. When on and two or more players' supply reached 0 during a round, the game
        ends and those candidates holding the most toppings on the board win (ties
        shared); with fewer than two such players the round ends as without it. Off, and
        in every other round: a player with all their toppings on the board at the end of
        a round wins (two such share the win).
    max_rounds : int
        Ruling: a game still running after this many rounds (200) is recorded as a draw.
    """

    TITLE = TITLE
    DOC = "docs/rules/pizzatheory.md"

    first_seat: int = 0
    cycle_first_seat: bool = False
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
        check_bools(self, ("safety", "runout_tiebreak", "cycle_first_seat"), TITLE)
        check_limit(TITLE, "first_seat", self.first_seat, FIRST_SEAT, "a seat number")
        check_limit(TITLE, "supply", self.supply, SUPPLY, "16 is the rule")
        check_limit(TITLE, "max_rounds", self.max_rounds, ROUNDS, "200 is the ruling")

    def first_seat_of(self, game_index: int, n_players: int) -> int:
        """The seat at turn position 1 in the first round of game ``game_index``:
        ``first_seat``, or with ``cycle_first_seat`` ``(first_seat + game_index) mod
        n_players``."""
        if self.cycle_first_seat:
            return (self.first_seat + game_index) % n_players
        return self.first_seat


def check_rules_for(rules: Rules, n_players: int) -> None:
    """Refuse rule options that a player count cannot play, naming the fix: a
    ``first_seat`` that is not a seat of the game, and at 2 players a ``rotation`` other
    than ``clockwise`` (there the first player alternates every round and the neutral
    colour keeps position 3, so the option would change nothing).

    Raises
    ------
    SlicelabError
        InertRuleError for the rotation at 2 players.
    """
    if rules.first_seat >= n_players:
        raise SlicelabError(
            f"rule option first_seat={rules.first_seat} is not a seat of {n_players} players; "
            f"use 0 to {n_players - 1}"
        )
    if n_players == 2 and rules.rotation != "clockwise":
        raise InertRuleError(
            f"rule option rotation={rules.rotation!r} changes nothing at 2 players (the first "
            "player alternates every round and the neutral colour keeps position 3); remove "
            "it from the 2-player arm, or play it at 3 players only (players = 3)"
        )


def check_players(n_players: Any) -> None:
    """Refuse a player count other than 3 (or 2, the neutral variant) with a clear message."""
    if (
        not isinstance(n_players, int)
        or isinstance(n_players, bool)
        or not PLAYERS.low <= n_players <= PLAYERS.high
    ):
        raise SlicelabError(
            f"Pizza Theory is played by {MAX_PLAYERS} players ({MIN_PLAYERS} with the neutral "
            f"variant), not {n_players}; pass --players {MAX_PLAYERS} or {MIN_PLAYERS}"
        )


def variant_id(rules: Rules, board_digest: str) -> str:
    """Id of a variant: a hash of the rule options and the board's content."""
    payload = json.dumps({"rules": rules.as_dict(), "board": board_digest}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:12]
