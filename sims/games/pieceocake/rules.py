"""Piece o' Cake's player range and its rule options: every Ruling of
``docs/rules/pieceocake.md`` (and the what-if options) with its name and default."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sims.core.errors import SlicelabError
from sims.core.limits import Limit
from sims.games.ruleopts import RuleOptions, check_bools, check_choices, check_int

MIN_PLAYERS = 2
MAX_PLAYERS = 5
RULES_VERSION = 1
"""Bumped when a rule's implementation changes, so older datasets are never resumed into."""

_CHOICES = {
    "two_player_order": ("alternate", "snake"),
    "forgo_eats": ("all", "choose", "none"),
    "majority_ties": ("full", "none", "split"),
    "tie": ("shared", "cream"),
}
FIRST_SERVER = Limit(
    "first_server", "seat of the first server (first_server)", 0, MAX_PLAYERS - 1,
    "a seat of the largest table, and of the game's (checked when it is set up)",
)  # fmt: skip
TWO_PLAYER_PIECES_LIMIT = Limit(
    "two_player_pieces", "pieces a server may cut at 2 players (two_player_pieces)", 2, 6,
    "the kernel's cut tables hold up to 6 pieces",
)  # fmt: skip
"""The range of ``Rules.two_player_pieces`` (``kernel/layout.py`` sizes its cut tables by
its high end)."""
TWO_PLAYER_PIECES = (TWO_PLAYER_PIECES_LIMIT.low, TWO_PLAYER_PIECES_LIMIT.high)
RULE_LIMITS = (FIRST_SERVER, TWO_PLAYER_PIECES_LIMIT)
"""The limits of the rule options (``Rules``), listed with the cake's in the rules
document's section "Data files"."""
TITLE = "Piece o' Cake"


@dataclass(frozen=True)
class Rules(RuleOptions):
    """The rule options of a game of Piece o' Cake (defaults: the spec's rulings).

    Attributes
    ----------
    first_server : int
        Ruling: the seat that serves the first cake (the server then rotates to the left,
        seat + 1).
    two_player_pieces : int
        Ruling: at 2 players the server may cut up to this many pieces (any of 1 to 4 under
        the ruling's 4); 2 to 6.
    two_player_order : {"alternate", "snake"}
        Ruling: the order of the 2-player picks: ``alternate`` non-server, server,
        non-server, server; ``snake`` non-server, server, server, non-server.
    forgo_ends_picking : bool
        Ruling: at 2 players a player who forgoes gives up picking for the rest of this
        cake. ``False``: the player keeps their later turns (and may forgo again).
    forgo_eats : {"all", "choose", "none"}
        Ruling ``all``: a player who forgoes may eat every collected slice of one variety.
        ``choose``: as many slices of one variety as they like (one or more). ``none``
        (what-if): forgoing eats nothing.
    majority_ties : {"full", "none", "split"}
        The rulebook's ``full``: every player tied for a variety's largest collection
        scores its whole value. What-if ``none``: a tied variety scores for nobody;
        ``split``: the tied players share its value, rounded down.
    tie : {"shared", "cream"}
        Ruling ``shared``: players level on points share the win. ``cream``: the one who ate
        more cream wins a points tie (a tie on both is shared).
    exact_pieces : bool
        What-if (off): the server must cut exactly the most pieces allowed (the player
        count, or ``two_player_pieces`` at 2 players), as in New York Slice.
    forced_forgo_after_take : bool
        Ruling (on): at 2 players, a seat that already took a piece of this cake and finds
        no piece left at a later turn forgoes (a forced forgo: it counts as forgone and may
        eat one collected variety). ``False``: that turn passes with nothing done (the
        seat has had its piece). No effect at 3 to 5 players, where each seat has one
        turn.
    """

    TITLE = TITLE
    DOC = "docs/rules/pieceocake.md"

    first_server: int = 0
    two_player_pieces: int = 4
    two_player_order: str = "alternate"
    forgo_ends_picking: bool = True
    forgo_eats: str = "all"
    majority_ties: str = "full"
    tie: str = "shared"
    exact_pieces: bool = False
    forced_forgo_after_take: bool = True

    def __post_init__(self) -> None:
        check_choices(self, _CHOICES, TITLE)
        first = self.first_server
        if type(first) is not int or not FIRST_SERVER.low <= first <= FIRST_SERVER.high:
            raise SlicelabError(
                f"Piece o' Cake rule option first_server={first!r}: use a seat number from "
                f"{FIRST_SERVER.low} to {FIRST_SERVER.high} (a seat of the table)"
            )
        check_bools(self, ("forgo_ends_picking", "exact_pieces", "forced_forgo_after_take"), TITLE)
        check_int(TITLE, "two_player_pieces", self.two_player_pieces, *TWO_PLAYER_PIECES,
                  hint="4 is the ruling")  # fmt: skip

    def max_pieces(self, n_players: int) -> int:
        """The most pieces a server may cut at ``n_players``."""
        return self.two_player_pieces if n_players == 2 else n_players


def check_players(n_players: Any) -> None:
    """Refuse a player count outside 2–5 with a clear message."""
    if (
        not isinstance(n_players, int)
        or isinstance(n_players, bool)
        or not MIN_PLAYERS <= n_players <= MAX_PLAYERS
    ):
        raise SlicelabError(
            f"Piece o' Cake is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not "
            f"{n_players}; pass --players between {MIN_PLAYERS} and {MAX_PLAYERS}"
        )


def variant_id(rules: Rules, cake_digest: str) -> str:
    """Id of a variant: a hash of the rule options and the cake's content."""
    payload = json.dumps({"rules": rules.as_dict(), "cake": cake_digest}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:12]
