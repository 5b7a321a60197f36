"""What one seat may know in Piece o' Cake: the view a strategy decides from.

Open information (``docs/rules/pieceocake.md``, "What each player can see"): the cake and
the rules, the round and its server, the current circle and its pieces (and who took
which), every seat's collected slices (face up), every seat's eaten slices (face down, but
seen when eaten) and everything each seat did. Hidden: the order of the remaining stacks
and the slices left out unseen — so a seat knows how many slices of each variety have been
laid in the circles so far, and hence how many are still unseen (:meth:`unseen_left`),
but not which of them will come (:meth:`determinize` draws them).
"""

from __future__ import annotations

import numpy as np

from sims.games.pieceocake.cake import Cake
from sims.games.pieceocake.engine import Decision, GameState, Piece, turn_order
from sims.games.pieceocake.rules import Rules


class PlayerView:
    """Read-only view of a game of Piece o' Cake from one seat.

    Parameters
    ----------
    state : GameState
        The game; only what every seat may see is exposed.
    seat : int
        The viewing seat.
    """

    __slots__ = ("_s", "seat", "_laid")

    def __init__(self, state: GameState, seat: int) -> None:
        self._s = state
        self.seat = seat
        self._laid: tuple[int, ...] | None = None

    # ------------------------------------------------------------------ the table
    @property
    def cake(self) -> Cake:
        return self._s.cake

    @property
    def rules(self) -> Rules:
        return self._s.rules

    @property
    def n_players(self) -> int:
        return self._s.n

    @property
    def round(self) -> int:
        """The current round, 0 to 4 (5 once the game is over)."""
        return self._s.round

    @property
    def server(self) -> int:
        """The seat serving the current cake."""
        return self._s.server

    @property
    def max_pieces(self) -> int:
        """The most pieces the server may cut at this player count."""
        return self._s.rules.max_pieces(self._s.n)

    def turn_order(self) -> list[int]:
        """The seats in the order they choose a piece or forgo this round."""
        return turn_order(self._s.server, self._s.n, self._s.rules)

    @property
    def circle(self) -> tuple[int, ...]:
        """The slice ids of the current cake in circle order (position 0 first)."""
        return tuple(self._s.circle)

    @property
    def cut(self) -> int:
        """The current cake's cut (a gap mask), -1 before it is cut."""
        return self._s.cut

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """The current cake's pieces (copies: slice ids in circle order, who took it)."""
        return tuple(Piece(list(p.slices), p.taken_by) for p in self._s.pieces)

    @property
    def decision(self) -> Decision | None:
        return self._s.decision()

    def variety(self, sid: int) -> int:
        """The variety index of slice ``sid``."""
        return self._s.variety[sid]

    @property
    def slice_variety(self) -> tuple[int, ...]:
        """The variety index of every slice id (``Cake.slice_variety``, computed once)."""
        return self._s.variety

    # ------------------------------------------------------------------ the seats
    def counts(self, seat: int) -> list[int]:
        """How many slices of each variety ``seat`` has collected (in cake order)."""
        return [len(ids) for ids in self._s.players[seat].collected]

    def all_counts(self) -> list[list[int]]:
        """Every seat's :meth:`counts`."""
        return [[len(ids) for ids in p.collected] for p in self._s.players]

    def forgo_edible(self, seat: int) -> list[int]:
        """Per variety, the collected slices ``seat`` could eat by forgoing now: those of
        earlier cakes (``GameState.forgo_edible``; at 2 players not this cake's)."""
        return self._s.forgo_edible(seat)

    def collected(self, seat: int) -> tuple[int, ...]:
        """The slice ids ``seat`` has collected (face up)."""
        return tuple(s for ids in self._s.players[seat].collected for s in ids)

    def eaten(self, seat: int) -> tuple[int, ...]:
        """The slice ids ``seat`` has eaten (seen by all when eaten)."""
        return tuple(self._s.players[seat].eaten)

    def cream(self, seat: int) -> int:
        """The cream ``seat`` has eaten so far."""
        return self._s.cream(seat)

    def pieces_taken(self, seat: int) -> int:
        return self._s.players[seat].pieces_taken

    def forgone(self, seat: int) -> int:
        return self._s.players[seat].forgone

    # ------------------------------------------------------------------ the supply
    def laid(self) -> tuple[int, ...]:
        """Per variety, its slices in every circle laid so far (the current one included)."""
        if self._laid is None:
            s = self._s
            out = [0] * len(s.cake.varieties)
            for r in range(min(s.round, len(s.deal.stacks) - 1) + 1):
                for sid in s.deal.stacks[r]:
                    out[s.variety[sid]] += 1
            self._laid = tuple(out)
        return self._laid

    def unseen_left(self) -> list[int]:
        """Per variety, its slices not yet seen: its copies minus :meth:`laid` (the slices
        left out of the game unseen count as not seen)."""
        return [v.copies - k for v, k in zip(self.cake.varieties, self.laid(), strict=True)]

    # ------------------------------------------------------------------ the past and the unseen
    @property
    def choices(self) -> tuple[int, ...]:
        """Every decision taken so far (every seat's: all play in the open), each as its
        action's index in that decision's legal list."""
        return tuple(self._s.choices)

    def determinize(self, rng: np.random.Generator, samples: int = 1) -> np.ndarray:
        """Full deals consistent with what this seat has seen, one row per sample: the
        stacks laid so far as they were, the slices not yet seen (the later stacks and
        those left out) in an order drawn from ``rng`` (``Generator.permutation`` of their
        ids in ascending order, sample by sample, so the draws depend only on what is
        seen). Each row holds every slice id in deal order: the five stacks of 11, then
        the slices left out."""
        s = self._s
        seen_rounds = min(s.round, len(s.deal.stacks) - 1) + 1
        seen = [sid for r in range(seen_rounds) for sid in s.deal.stacks[r]]
        hidden = np.ones(s.cake.n_slices, dtype=bool)
        hidden[seen] = False
        hidden_ids = np.flatnonzero(hidden)
        out = np.empty((samples, s.cake.n_slices), dtype=np.int64)
        out[:, : len(seen)] = seen
        for i in range(samples):
            out[i, len(seen) :] = rng.permutation(hidden_ids)
        return out
