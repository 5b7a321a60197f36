"""What one seat may know in Pizza Theory: the view a strategy decides from.

Open information (``docs/rules/pizzatheory.md``, "What each player can see"): the board,
the rules, the round, every colour's turn position and supply, every topping on the board,
the lines cut in every past round and, at 2 players, this round's neutral line. Hidden:
the cuts the other seats have chosen this round, until all have chosen — the cut is
simultaneous. The view holds no reference a strategy could follow to them: it copies what
it shows when it is made.
"""

from __future__ import annotations

from sims.games.pizzatheory.board import Board
from sims.games.pizzatheory.engine import GameState, legal_places
from sims.games.pizzatheory.rules import Rules


class PlayerView:
    """Read-only view of a game of Pizza Theory from one seat (a snapshot).

    Parameters
    ----------
    state : GameState
        The game; only what every seat may see is copied.
    seat : int
        The viewing seat.
    """

    __slots__ = (
        "seat", "board", "rules", "n_players", "round", "positions", "owner", "supply",
        "revealed", "neutral_line",
    )  # fmt: skip

    def __init__(self, state: GameState, seat: int) -> None:
        self.seat = seat
        self.board: Board = state.board
        self.rules: Rules = state.rules
        self.n_players: int = state.n
        self.round: int = state.round
        self.positions: tuple[int, ...] = tuple(state.positions)
        self.owner: tuple[int, ...] = tuple(state.owner)
        self.supply: tuple[int, ...] = tuple(state.supply)
        self.revealed: tuple[tuple[int, int, int], ...] = tuple(state.revealed)
        self.neutral_line: int = state.neutral_line if state.n == 2 else -1

    def public(self) -> tuple:
        """Everything the view shows, as one comparable value (tests use it to prove a
        seat's view does not depend on another's hidden cut)."""
        return tuple(getattr(self, k) for k in self.__slots__ if k not in ("board", "rules"))

    def on_board(self, colour: int) -> int:
        """The toppings of ``colour`` on the board."""
        return self.rules.supply - self.supply[colour]

    def turn_order(self) -> list[int]:
        """The seats in this round's turn order."""
        return sorted(range(self.n_players), key=lambda s: self.positions[s])

    def direction(self, colour: int) -> int:
        """The cut direction of ``colour`` this round (its position's)."""
        return self.positions[colour]

    def legal_places(self, colour: int) -> list[int]:
        """The empty spaces ``colour`` may place on now (rule ``placement``)."""
        return legal_places(self.board, self.owner, colour, self.rules.placement)
