"""Pizza Theory's reference engine: a pure, readable implementation of
``docs/rules/pizzatheory.md`` (3 players; 2 with the neutral variant).

The flow is a generator that yields a :class:`Decision` whenever a seat has a real choice
(two or more legal actions; a forced move is applied silently):

- PLACE (turn order): a space id, an empty space next to none of the seat's own toppings
  (rule ``placement``); a seat without supply or without a legal space skips;
- NEUTRAL (2 players, the round's first player): a space id for the neutral topping, an
  empty space touching the neutral line the die chose;
- CUT (every seat, in turn order, *simultaneously*): a line 0..5 of the seat's direction
  (the rulebook's lines 1..6, nearest its own side first). The choices are collected and
  revealed together: :class:`~sims.games.pizzatheory.view.PlayerView` never shows a cut of
  the round before every seat has chosen.

Then the regions of the three lines are scored (the safety rule, majority replacement and
the tie rules), the end is checked, and the positions rotate. All chance (the 2-player
neutral die) is drawn up front from the deal stream, so a state is a pure function of the
deal and the actions.

Colours: 0..2 (at 3 players, seat ``s``'s colour is ``s``; at 2 players the seats are 0 and
1 and colour 2 is neutral). ``owner[space]`` is a colour or -1 (empty).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from sims.core.errors import SlicelabError
from sims.games.flow import DecisionFlow
from sims.games.pizzatheory.board import LINES_PER_DIRECTION, Board
from sims.games.pizzatheory.rules import COLOURS, NEUTRAL, Rules, check_players, check_rules_for

START_PER_COLOUR = 2


class Phase(IntEnum):
    """Kinds of decision."""

    PLACE = 0
    CUT = 1
    NEUTRAL = 2


class Ending(IntEnum):
    """How a game ended."""

    WIN = 0  # one or more players with every topping on the board
    TIEBREAK = 1  # runout_tiebreak: the candidates with the most on the board
    DRAW = 2  # the round bound
    NEUTRAL = 3  # 2 players: every neutral topping on the board first; both lose


@dataclass(frozen=True)
class Decision:
    """A pending choice: who decides, what kind, and the legal actions."""

    player: int
    phase: Phase
    legal: Sequence[int]


@dataclass(frozen=True)
class Deal:
    """Everything chance decides: the neutral die's line for each round (2 players; empty
    at 3)."""

    neutral_lines: tuple[int, ...] = ()


def deal(n_players: int, rules: Rules, rng: np.random.Generator) -> Deal:
    """Draw the chance of a game: at 2 players one roll of the neutral die per possible
    round, one ``rng.integers(0, 6)`` at a time (scalar draws, which the compiled kernel
    reproduces); nothing at 3."""
    if n_players == 3:
        return Deal()
    return Deal(tuple(int(rng.integers(0, LINES_PER_DIRECTION)) for _ in range(rules.max_rounds)))


@dataclass
class Tally:
    """What happened to one colour over the game (the per-seat result columns)."""

    placed: int = 0  # toppings placed by the PLACE step
    captured: int = 0  # toppings gained by replacement
    lost: int = 0  # own toppings removed by a majority or a tie
    safe_rounds: int = 0  # rounds in which the safety rule protected it
    saved: int = 0  # toppings the safety rule kept on the board
    skipped: int = 0  # PLACE steps with no supply or no legal space


@dataclass
class RoundReport:
    """One resolved round, for replays and tests: the lines by direction, the regions,
    the safe colours and each region's outcome."""

    round: int
    lines: tuple[int, int, int]
    regions: tuple[int, ...]
    safe: tuple[bool, ...]
    outcomes: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    removed: list[tuple[int, int]] = field(default_factory=list)  # (space, colour)
    placed: list[tuple[int, int]] = field(default_factory=list)  # (space, colour) refilled
    placements: list[tuple[int, int]] = field(default_factory=list)  # (space, colour) placed
    owner: tuple[int, ...] = ()  # the board after the round


def positions_in_round(first_seat: int, rotation: str, n_players: int, r: int) -> list[int]:
    """The turn position (0, 1, 2: the rulebook's 1st, 2nd, 3rd) of each colour in round
    ``r`` (0-based).

    At 3 players colour ``s`` starts at position ``(s - first_seat) mod 3``; after each
    round ``clockwise`` moves every colour to the position before its own (2nd becomes
    1st), ``counterclockwise`` to the one after, ``none`` nowhere. At 2 players the first
    player alternates every round (``first_seat`` first), the other seat is 2nd and the
    neutral colour keeps position 3 (the unused direction).
    """
    if n_players == 2:
        first = (first_seat + r) % 2
        return [0 if c == first else 1 for c in range(2)] + [2]
    step = {"clockwise": -1, "counterclockwise": 1, "none": 0}[rotation]
    return [((s - first_seat) + step * r) % 3 for s in range(3)]


def legal_places(board: Board, owner: Sequence[int], colour: int, placement: str) -> list[int]:
    """The empty spaces ``colour`` may place a topping on, ascending: under ``apart`` (the
    rule) only those next to none of its own toppings."""
    apart = placement == "apart"
    adjacency = board.adjacency
    return [
        i
        for i in range(board.n_spaces)
        if owner[i] < 0 and not (apart and any(owner[j] == colour for j in adjacency[i]))
    ]


class GameState(DecisionFlow):
    """A game of Pizza Theory in progress.

    Parameters
    ----------
    board : Board
    rules : Rules
    n_players : int
        3, or 2 for the neutral variant.
    the_deal : Deal
        From :func:`deal` (or scripted by a test).
    game_index : int
        The game's index in its study: with rule ``cycle_first_seat`` it picks the seat
        at position 1 in the first round (:meth:`Rules.first_seat_of`, kept as
        :attr:`first_seat`).
    """

    def __init__(
        self, board: Board, rules: Rules, n_players: int, the_deal: Deal, game_index: int = 0
    ) -> None:
        check_players(n_players)
        check_rules_for(rules, n_players)
        if n_players == 2 and len(the_deal.neutral_lines) < rules.max_rounds:
            raise SlicelabError("a 2-player deal needs a neutral die roll for every round")
        self.game_index = game_index
        self.first_seat = rules.first_seat_of(game_index, n_players)
        self.board = board
        self.rules = rules
        self.n = n_players
        self.deal = the_deal
        self.owner = [-1] * board.n_spaces
        self.supply = [rules.supply] * COLOURS
        self.tally = [Tally() for _ in range(COLOURS)]
        self.round = 0
        self.positions = positions_in_round(self.first_seat, rules.rotation, n_players, 0)
        self.neutral_line = -1  # this round's neutral die roll (2 players)
        self.revealed: list[tuple[int, int, int]] = []  # lines by direction, per past round
        self.reports: list[RoundReport] = []
        self.safety_rounds = 0  # rounds in which the safety rule kept a topping on the board
        self.winners: tuple[int, ...] = ()
        self.ending: Ending | None = None
        self._pending_cuts: dict[int, int] = {}  # hidden until every seat has cut
        self._ran_out: set[int] = set()  # colours whose supply reached 0 this round
        self._saved_before = 0
        for colour in range(COLOURS):
            for space in board.start[self.positions[colour]]:
                self._put(space, colour)
        self._start()

    # ----------------------------------------------------------------- public API
    def on_board(self, colour: int) -> int:
        """The toppings of ``colour`` on the board."""
        return self.rules.supply - self.supply[colour]

    def won(self) -> list[int]:
        """Each seat's win key: 1 for a winner; every seat 1 in a draw and in a game both
        players lose to the neutral colour (symmetric outcomes, told apart by
        :attr:`ending`)."""
        if self.ending is None:
            raise SlicelabError("the game is not over yet")
        if self.ending in (Ending.DRAW, Ending.NEUTRAL):
            return [1] * self.n
        return [int(s in self.winners) for s in range(self.n)]

    def win_shares(self) -> list[float]:
        """Each seat's share of the win: 1/k to each of the k seats whose :meth:`won` is
        1 (the runner's rule for the ``won`` key)."""
        won = self.won()
        return [w / sum(won) for w in won]

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's ``score`` (toppings on the board at the end) and its component."""
        return [{"score": self.on_board(s), "toppings": self.on_board(s)} for s in range(self.n)]

    def clone(self) -> GameState:
        """An independent copy, rebuilt by replaying the same deal and actions."""
        other = GameState(self.board, self.rules, self.n, self.deal, self.game_index)
        for a in self.history:
            other.apply(a)
        return other

    def turn_order(self) -> list[int]:
        """The seats in this round's turn order (1st, 2nd, 3rd position)."""
        return sorted(range(self.n), key=lambda s: self.positions[s])

    def direction(self, colour: int) -> int:
        """The cut direction of ``colour`` this round (its position's)."""
        return self.positions[colour]

    def legal_places(self, colour: int) -> list[int]:
        """The empty spaces ``colour`` may place on (rule ``placement``)."""
        return legal_places(self.board, self.owner, colour, self.rules.placement)

    def touching(self, direction: int, line: int) -> list[int]:
        """The spaces touching line ``line`` of ``direction``: those with a neighbour on the
        other side of it."""
        near = self.board.lines[direction][line]
        side = [(near >> i) & 1 for i in range(self.board.n_spaces)]
        return [
            i
            for i in range(self.board.n_spaces)
            if any(side[j] != side[i] for j in self.board.adjacency[i])
        ]

    # ------------------------------------------------------------------ the flow
    def _put(self, space: int, colour: int) -> None:
        self.owner[space] = colour
        self.supply[colour] -= 1
        if self.supply[colour] == 0:
            self._ran_out.add(colour)

    def _decide(
        self, player: int, phase: Phase, legal: Sequence[int]
    ) -> Generator[Decision, int, int]:
        if len(legal) == 1:
            return legal[0]
        return (yield Decision(player, phase, tuple(legal)))

    def _play(self) -> Generator[Decision, int, None]:
        for r in range(self.rules.max_rounds):
            self.round = r
            self.positions = positions_in_round(self.first_seat, self.rules.rotation, self.n, r)
            self._ran_out = set()
            self.neutral_line = -1
            yield from self._round()
            if self._check_end():
                return
        self.round = self.rules.max_rounds
        self.ending = Ending.DRAW

    def _round(self) -> Generator[Decision, int, None]:
        order = self.turn_order()
        placements: list[tuple[int, int]] = []
        for seat in order:  # 1. place
            legal = self.legal_places(seat) if self.supply[seat] > 0 else []
            if not legal:
                self.tally[seat].skipped += 1
                continue
            space = yield from self._decide(seat, Phase.PLACE, legal)
            self._put(space, seat)
            self.tally[seat].placed += 1
            placements.append((space, seat))
        lines = [-1, -1, -1]
        if self.n == 2:  # the neutral die and topping, laid by the round's first player
            self.neutral_line = self.deal.neutral_lines[self.round]
            lines[self.positions[NEUTRAL]] = self.neutral_line
            if self.supply[NEUTRAL] > 0:
                where = self.touching(self.positions[NEUTRAL], self.neutral_line)
                legal = [i for i in where if self.owner[i] < 0]
                if legal:
                    space = yield from self._decide(order[0], Phase.NEUTRAL, legal)
                    self._put(space, NEUTRAL)
                    self.tally[NEUTRAL].placed += 1
                    placements.append((space, NEUTRAL))
        self._pending_cuts = {}
        for seat in order:  # 2. cut, simultaneously: nothing is revealed until all chose
            self._pending_cuts[seat] = yield from self._decide(
                seat, Phase.CUT, tuple(range(LINES_PER_DIRECTION))
            )
        for seat, line in self._pending_cuts.items():
            lines[self.positions[seat]] = line
        self._pending_cuts = {}
        self.revealed.append((lines[0], lines[1], lines[2]))
        self._resolve((lines[0], lines[1], lines[2]))
        self.reports[-1].placements = placements

    def _resolve(self, lines: tuple[int, int, int]) -> None:
        """3. Replace: the safety rule, then each region's majority or tie (all counts taken
        before any change); every removal first, then the replacements in order."""
        regions = self.board.regions(lines)
        nreg = max(regions) + 1
        counts = [[0] * COLOURS for _ in range(nreg)]
        for i, c in enumerate(self.owner):
            if c >= 0:
                counts[regions[i]][c] += 1
        safe = tuple(
            self.rules.safety and all(counts[g][c] <= 1 for g in range(nreg))
            for c in range(COLOURS)
        )
        report = RoundReport(self.round, lines, regions, safe)
        removed: list[tuple[int, int]] = []
        replace_by = [-1] * self.board.n_spaces  # the colour to place on a cleared space
        for g in range(nreg):
            top = max(counts[g])
            leaders = tuple(c for c in range(COLOURS) if counts[g][c] == top)
            if top == 0 or len(leaders) == COLOURS:
                report.outcomes.append(("unchanged", leaders if top else ()))
                continue
            if len(leaders) == 1:
                losers = [c for c in range(COLOURS) if c != leaders[0]]
                report.outcomes.append(("majority", leaders))
            else:
                losers = [c for c in range(COLOURS) if c not in leaders]
                report.outcomes.append(("tie", leaders))
                if self.rules.two_way_tie == "nothing":
                    continue
            for i in range(self.board.n_spaces):
                c = self.owner[i]
                if regions[i] != g or c not in losers:
                    continue
                if safe[c]:
                    self.tally[c].saved += 1
                    continue
                removed.append((i, c))
                if len(leaders) == 1:
                    replace_by[i] = leaders[0]
        for c in range(COLOURS):
            if safe[c] and any(self.owner[i] == c for i in range(self.board.n_spaces)):
                self.tally[c].safe_rounds += 1
        if sum(t.saved for t in self.tally) > self._saved_before:
            self.safety_rounds += 1
        self._saved_before = sum(t.saved for t in self.tally)
        for i, c in removed:  # every removal first, back to its owner's supply
            self.owner[i] = -1
            self.supply[c] += 1
            self.tally[c].lost += 1
        if self.rules.replacement_order == "by-region":
            spaces = sorted(range(self.board.n_spaces), key=lambda i: (regions[i], i))
        else:
            spaces = list(range(self.board.n_spaces))
        for i in spaces:  # then the replacements, while the majority's supply lasts
            c = replace_by[i]
            if c >= 0 and self.supply[c] > 0:
                self._put(i, c)
                self.tally[c].captured += 1
                report.placed.append((i, c))
        report.removed = removed
        report.owner = tuple(self.owner)
        self.reports.append(report)

    def _check_end(self) -> bool:
        """4. The end of a round: the run-out tiebreak (when on and two or more players ran
        out this round), else a win, else (2 players) a neutral win."""
        players = range(self.n)
        candidates = [s for s in players if s in self._ran_out]
        if self.rules.runout_tiebreak and len(candidates) > 1:
            most = max(self.on_board(s) for s in candidates)
            self.winners = tuple(s for s in candidates if self.on_board(s) == most)
            self.ending = Ending.TIEBREAK
            return True
        full = tuple(s for s in players if self.supply[s] == 0)
        if full:
            self.winners = full
            self.ending = Ending.WIN
            return True
        if self.n == 2 and self.supply[NEUTRAL] == 0:
            self.ending = Ending.NEUTRAL
            return True
        return False
