"""Horno's player range, its fixed limits and its rule options: every Ruling of
``docs/rules/horno.md`` (and the points slicelab settles itself) with its name and
default."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sims.core.errors import SlicelabError
from sims.core.limits import Limit
from sims.games.ruleopts import RuleOptions, check_bools, check_choices, check_limit

PLAYERS = Limit("players", "players", 2, 4,
                "the rulebook's player count; the kernel keeps a row per seat for 4")  # fmt: skip
MIN_PLAYERS = PLAYERS.low
MAX_PLAYERS = PLAYERS.high
RULES_VERSION = 1
"""Bumped when a rule's implementation changes, so older datasets are never resumed into."""
TITLE = "Horno"

HAND_LIMIT = 7
"""Cards a hand ("alacena") may hold under the printed rules, and at most under rule
``hand_limit`` (the kernel's hand rows and the tables' hand columns are sized from it)."""
OVEN_SIZE = 7
"""Cards an oven holds besides its dish card under the printed rules, and at most under rule
``oven_limit`` (the kernel's oven rows and the tables' oven columns are sized from it)."""
DEAL = 3
"""Cards dealt to each player at setup."""
DRAW_LIMIT = 3
"""Cards a player may draw in one Restock step."""
PREPARE_LIMIT = 3
"""Cards a player may place in one Prepare step."""

# ------------------------------------------------------------------------ declared limits
# Every bound that a card-set file or a rule option must respect, declared once here (the
# card-set parser and the rule options check them at the door, the kernel sizes its arrays
# and the plugin its column types from them, and docs/rules/horno.md lists them: section
# "Data files"; ``LIMITS`` is the plugin's ``data_limits``).

ROUNDS = Limit("rounds", "rounds", 1, 30,
               "the rulebook plays 6; up to 30 as a what-if, and the tables' counts of "
               "actions and reshuffles are sized from it")  # fmt: skip
ROUNDS_RANGE = (ROUNDS.low, ROUNDS.high)
FIRST_PLAYER = Limit("first_player", "as the first player's seat", 0, MAX_PLAYERS - 1,
                     "seats are numbered from 0, at most 4 players; and it must be a seat of "
                     "the game's player count")  # fmt: skip
TYPES = Limit("types", "dish types", 1, 8,
              "the kernel keeps a dish pile per type in 8 rows, and the players table has "
              "the columns completed_t0 to completed_t7")  # fmt: skip
KINDS = Limit("kinds", "card kinds", 3, 100,
              "two ingredients for a dish and the wild at least; a sabotage action holds "
              "the card's kind in its last two digits")  # fmt: skip
COPIES = Limit("copies", "copies of a card", 0, 50,
               "0 leaves a kind out of the deck; at most 50 keeps the deck, and the kernel's "
               "tables sized by it, small")  # fmt: skip
DECK = Limit("deck", "cards in the deck", 2 * DEAL * MAX_PLAYERS, KINDS.high * COPIES.high,
             "3 to deal and 3 to redraw for each of 4 players; at most every kind at its "
             "most copies")  # fmt: skip
DISHES = Limit("dishes", "dish cards", 1, 128,
               "a dish card's number, 0 to 127, is stored in one byte in the players table's "
               "dishes and unfinished_dish columns")  # fmt: skip
INGREDIENTS = Limit("ingredients", "ingredients of a dish", 2, OVEN_SIZE,
                    "an oven holds 7 cards besides its dish card, and the kernel keeps 7 "
                    "ingredients per dish")  # fmt: skip
POINTS = Limit("points", "points of a dish card", 0, 100,
               "with the bonuses, 128 dishes' points fit the two bytes of a score")  # fmt: skip
PENALTY = Limit("penalty", "penalty points of a card", 0, 20,
                "written as a positive number, the points a garbage or radioactive card "
                "takes from a dish; fits the two bytes of a score")  # fmt: skip
BONUS = Limit("bonus", "bonus points of a radioactive card", 0, 20,
              "fits the two bytes of a score")  # fmt: skip
HAND = Limit("hand_limit", "cards a hand may hold (hand_limit)", DEAL, HAND_LIMIT,
             "the 3 dealt cards must fit; the printed 7 is the most, as the kernel keeps 7 "
             "cards per hand and the tables' hand columns are sized from it")  # fmt: skip
OVEN = Limit("oven_limit", "cards an oven may hold besides its dish (oven_limit)", 2,
             OVEN_SIZE, "a dish's ingredients must fit (a larger dish in the card set is "
             "refused when the game is set up); the printed 7 is the most, as the kernel "
             "keeps 7 oven slots and the tables' oven columns are sized from it")  # fmt: skip
LIMITS = (PLAYERS, ROUNDS, FIRST_PLAYER, HAND, OVEN, TYPES, KINDS, COPIES, DECK, DISHES,
          INGREDIENTS, POINTS, PENALTY, BONUS)  # fmt: skip
"""Horno's declared limits (``Horno.data_limits``), in the order the rules document lists
them."""

_CHOICES = {
    "reshuffle": ("discard", "never"),
    "pantry_single": ("take", "forbidden"),
    "pantry_empty_handed": ("keep-one", "return-both"),
    "steal_hand_limit": ("after", "always"),
    "steal_completes": ("score", "forbidden"),
    "no_dish_left": ("empty", "repeat"),
    "radioactive_bonus": ("once", "each"),
    "tie": ("shared", "dishes"),
}
_BOOLS = ("steal_face_down", "steal_needs_replacement", "repeat_types", "second_radioactive")


@dataclass(frozen=True)
class Rules(RuleOptions):
    """The rule options of a game of Horno (defaults: the spec's rulings).

    Attributes
    ----------
    first_player : int
        Ruling: the seat that plays first (0); play goes to the left (seat + 1).
    reshuffle : {"discard", "never"}
        Ruling ``discard``: the moment the deck is empty, the discard pile is shuffled
        into a new face-up deck. ``never``: once the deck is empty nobody draws.
    pantry_single : {"take", "forbidden"}
        Ruling ``take``: a pantry steal from a hand of one card takes that card.
        ``forbidden``: a hand of one cannot be robbed.
    pantry_empty_handed : {"keep-one", "return-both"}
        The rulebook's "as long as you have at least one card": ``keep-one``, a thief with
        no card of its own may keep one of the taken cards and give back the other.
        ``return-both``: it must give both back.
    steal_hand_limit : {"after", "always"}
        Ruling ``after``: during a steal (pantry or oven) the thief may hold more than 7
        cards; the limit is checked once the action is over (it then always holds).
        ``always``: a steal that would take the hand above 7 even for a moment is not
        allowed.
    steal_face_down : bool
        Ruling (false): an oven steal can only take a face-up card. True: a face-down card
        may be taken too, blind (the matching-radioactive ban then applies to face-up
        cards only: the thief cannot see).
    steal_needs_replacement : bool
        Ruling (true): a thief holding no card the victim's dish needs cannot oven-steal.
        False: it steals and leaves the space empty.
    steal_completes : {"score", "forbidden"}
        Ruling ``score``: a replacement that completes the victim's dish scores it for
        the victim at once, who then picks a new dish (or closes the oven in the last
        round). ``forbidden``: such a replacement may not be given.
    repeat_types : bool
        The rulebook, as the spec reads it (false): a new dish is of a type the player has
        not completed. True: any type with cards left (only the same card cannot return).
    no_dish_left : {"empty", "repeat"}
        Ruling ``empty``: with no allowed type whose pile has a card, the oven stays empty
        for the rest of the game. ``repeat``: the player may then take the top card of
        any non-empty pile.
    second_radioactive : bool
        The rulebook (true): a player may place its dish's radioactive card whenever it
        holds one, even with one already face up in its oven (under ``radioactive_bonus
        = "once"`` the second adds nothing). False, the old reading: only while none is
        face up in its oven.
    radioactive_bonus : {"once", "each"}
        Ruling ``once``: the matching radioactive card's +5 (and, on an unfinished dish,
        its +2) counts once even if two are in the oven; a second adds nothing.
        ``each``: every matching card counts.
    tie : {"shared", "dishes"}
        Ruling ``shared``: the players tied on the highest total share the win.
        ``dishes``: the one of them with more completed dishes wins (still tied: shared).
    rounds : int
        The rulebook's 6 rounds (a what-if: 1 to 30).
    hand_limit : int
        The rulebook's hand of at most 7 cards (a what-if: 3 to 7). Every rule that names
        the limit uses this one: Restock draws stop at it, a strict ``steal_hand_limit``
        and an oven clean check it, a second clean needs room below it.
    oven_limit : int
        The rulebook's oven of at most 7 cards besides the dish (a what-if: 2 to 7, and at
        least the card set's largest dish's ingredients). Every rule that names it uses
        this one: a card is placed or slipped in only while the oven has room below it, and
        cleaning a full oven (one at the limit) may take a second card.
    """

    TITLE = TITLE
    DOC = "docs/rules/horno.md"

    first_player: int = 0
    reshuffle: str = "discard"
    pantry_single: str = "take"
    pantry_empty_handed: str = "keep-one"
    steal_hand_limit: str = "after"
    steal_face_down: bool = False
    steal_needs_replacement: bool = True
    steal_completes: str = "score"
    repeat_types: bool = False
    no_dish_left: str = "empty"
    second_radioactive: bool = True
    radioactive_bonus: str = "once"
    tie: str = "shared"
    rounds: int = 6
    hand_limit: int = HAND_LIMIT
    oven_limit: int = OVEN_SIZE

    def __post_init__(self) -> None:
        check_choices(self, _CHOICES, TITLE)
        check_bools(self, _BOOLS, TITLE)
        check_limit(TITLE, "first_player", self.first_player, FIRST_PLAYER, "a seat number")
        check_limit(TITLE, "rounds", self.rounds, ROUNDS, "6 is the rule")
        check_limit(TITLE, "hand_limit", self.hand_limit, HAND, "7 is the rule")
        check_limit(TITLE, "oven_limit", self.oven_limit, OVEN, "7 is the rule")


def check_players(n_players: Any) -> None:
    """Refuse a player count outside 2–4 with a clear message."""
    if (
        not isinstance(n_players, int)
        or isinstance(n_players, bool)
        or not PLAYERS.low <= n_players <= PLAYERS.high
    ):
        raise SlicelabError(
            f"Horno is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n_players}; "
            f"pass --players between {MIN_PLAYERS} and {MAX_PLAYERS}"
        )


def check_seat(rules: Rules, n_players: int) -> None:
    """Refuse a ``first_player`` that is not a seat of ``n_players``."""
    if rules.first_player >= n_players:
        raise SlicelabError(
            f"Horno rule option first_player={rules.first_player} is not a seat of "
            f"{n_players} players; use 0 to {n_players - 1}"
        )


def check_oven(rules: Rules, cards: Any) -> None:
    """Refuse an ``oven_limit`` below the ingredients of the card set's largest dish (such a
    dish could never be completed without the wild, and a rules table that says so is a
    mistake, not a variant)."""
    largest = max(cards.dishes, key=lambda d: len(d.ingredients))
    if rules.oven_limit < len(largest.ingredients):
        raise SlicelabError(
            f"Horno rule option oven_limit={rules.oven_limit} is below the "
            f"{len(largest.ingredients)} ingredients of dish {largest.name!r} in card set "
            f"{cards.name!r}; use oven_limit {len(largest.ingredients)} to {OVEN_SIZE}, or a "
            "card set of smaller dishes"
        )


def variant_id(rules: Rules, cards_digest: str) -> str:
    """Id of a variant: a hash of the rule options and the card set's content."""
    payload = json.dumps({"rules": rules.as_dict(), "cards": cards_digest}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:12]
