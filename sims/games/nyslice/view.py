"""What one seat may know: the view a strategy decides from (design principle 5).

Open information: every collected slice, every special owned (and whether used), the
current pizza and portions, eaten slices except a Mystery slice another player ate face
down. Hidden: the order of the remaining stacks, the mystery pool, the replacement pile.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sims.games.nyslice.deck import TYPES, Deck, Kind, Special
from sims.games.nyslice.engine import Deal, Decision, GameState, Portion
from sims.games.nyslice.rules import Rules


class PlayerView:
    """Read-only view of a game from one seat.

    Parameters
    ----------
    state : GameState
        The game; only public information and the seat's own hidden slices are exposed.
    seat : int
        The viewing seat.
    """

    __slots__ = ("_s", "seat")

    def __init__(self, state: GameState, seat: int) -> None:
        self._s = state
        self.seat = seat

    @property
    def deck(self) -> Deck:
        return self._s.deck

    @property
    def rules(self) -> Rules:
        return self._s.rules

    @property
    def n_players(self) -> int:
        return self._s.n

    @property
    def round(self) -> int:
        return self._s.round

    @property
    def rounds(self) -> int:
        return self._s.rounds

    @property
    def slicer(self) -> int:
        return self._s.slicer

    @property
    def special(self) -> Special | None:
        """The special of the current round."""
        return self._s.special

    @property
    def pizza(self) -> tuple[int, ...]:
        """Slices of the current pizza in circle order (before the cut)."""
        return tuple(self._s.pizza)

    @property
    def circular(self) -> bool:
        return self._s.circular

    @property
    def portions(self) -> tuple[Portion, ...]:
        return tuple(Portion(list(p.slices), p.special, p.taken_by) for p in self._s.portions)

    @property
    def decision(self) -> Decision | None:
        return self._s.decision()

    def collected(self, seat: int) -> tuple[int, ...]:
        """A seat's collected slices (open)."""
        return tuple(self._s.players[seat].collected)

    def eaten_visible(self, seat: int) -> tuple[int, ...]:
        """A seat's eaten slices as this seat sees them (others' eaten Mystery slices hidden)."""
        p = self._s.players[seat]
        if seat == self.seat:
            return tuple(p.eaten)
        return tuple(s for s in p.eaten if s not in p.hidden_eaten)

    def eaten_count(self, seat: int) -> int:
        return len(self._s.players[seat].eaten)

    def specials(self, seat: int) -> frozenset[Special]:
        return frozenset(self._s.players[seat].specials)

    def avoid(self, seat: int) -> Special | None:
        """The special a seat avoids (restricted play ``avoid``, open to all: it does not
        choose that special's portion while another is free), or ``None``."""
        return self._s.avoid[seat]

    def forfeit(self, seat: int) -> Special | None:
        """The special a seat forfeits (restricted play ``forfeit``, open to all: it
        chooses as it likes but never receives the tile), or ``None``."""
        return self._s.forfeit[seat]

    def without(self, seat: int) -> Special | None:
        """The special a seat plays without under either restriction (the tile would be
        forfeited on receipt), or ``None``: what a valuer treats as absent for it."""
        return self._s.without(seat)

    def can_use(self, seat: int, special: Special) -> bool:
        return self._s.can_use(seat, special)

    def supreme_type(self, seat: int) -> int:
        """Type of the Supreme a seat has collected and assigned (0 otherwise)."""
        return self._s.supreme_type if self._s.supreme_holder == seat else 0

    def sneak_moves(self) -> list[tuple[int, int, bool]]:
        return self._s.sneak_moves()

    def type_count(self, seat: int, t: int) -> float:
        """A seat's majority count of type ``t`` (combos ½, or with Super-Sized Combos half
        of ``rules.super_sized_combo_halves``: 2 by default)."""
        per_combo = 0.5
        if Special.SUPER_SIZED_COMBOS in self._s.players[seat].specials:
            per_combo = 0.5 * self._s.rules.super_sized_combo_halves
        c = 0.0
        for sid in self._s.players[seat].collected:
            s = self.deck.slices[sid]
            if s.kind == Kind.NUMBERED and s.type == t:
                c += 1.0
            elif s.kind == Kind.COMBO and t in s.types:
                c += per_combo
        if self.supreme_type(seat) == t:
            c += 1.0
        return c

    def unclaimed(self) -> dict[int, int]:
        """Numbered slices per type in play that no one has visibly collected or eaten.

        Counts slices in the current pizza, the unseen stacks and the mystery pool (and
        others' face-down Mystery slices, which this seat cannot tell apart).
        """
        gone = set(self._s.deal.removed)
        seen: set[int] = set()
        for q in range(self.n_players):
            seen.update(self.collected(q))
            seen.update(self.eaten_visible(q))
        out = {t: 0 for t in TYPES}
        for sid, s in enumerate(self.deck.slices):
            if s.kind == Kind.NUMBERED and sid not in gone and sid not in seen:
                out[s.type] += 1
        return out

    def determinize(self, rng: np.random.Generator) -> Deal:
        """A full deal consistent with what this seat has seen, hidden parts resampled.

        The future stacks and the rest of the mystery pool are refilled with the same
        unseen slices in a random order; the future stacks' specials and the rest of the
        replacement pile likewise. Replaying the game's decisions on it reproduces
        everything seen so far. (A Mystery slice another player drew and ate stays what it
        was, a small simplification: it is the one hidden slice outside the pool.)
        """
        s = self._s
        d = s.deal
        r = max(s.round, 0)
        drawn = len(d.mystery) - len(s.mystery)
        slots = [sid for st in d.stacks[r + 1 :] for sid in st] + list(d.mystery[drawn:])
        order = np.array(slots, dtype=np.int64)
        rng.shuffle(order)
        fill = [int(x) for x in order]
        rounds = len(d.stacks)
        stacks = [tuple(st) for st in d.stacks[: r + 1]]
        for k in range(rounds - r - 1):
            stacks.append(tuple(fill[k * 11 : (k + 1) * 11]))
        mystery = tuple(d.mystery[:drawn]) + tuple(fill[(rounds - r - 1) * 11 :])
        consumed = sum(len(e[4]) for e in s.events if e[0] == "round")
        consumed = min(consumed, len(d.replacement))
        hidden_sp = list(d.stack_specials[r + 1 :]) + list(d.replacement[consumed:])
        idx = np.arange(len(hidden_sp), dtype=np.int64)
        rng.shuffle(idx)
        shuffled = [hidden_sp[int(i)] for i in idx]
        future = rounds - r - 1
        return Deal(
            stacks=tuple(stacks),
            stack_specials=tuple(d.stack_specials[: r + 1]) + tuple(shuffled[:future]),
            replacement=tuple(d.replacement[:consumed]) + tuple(shuffled[future:]),
            mystery=mystery,
            removed=d.removed,
        )

    @property
    def history(self) -> tuple[int, ...]:
        """Actions of every real decision so far (all public except hidden eat choices,
        which replay identically in any determinization)."""
        return tuple(self._s.history)

    def others(self) -> Sequence[int]:
        return [q for q in range(self.n_players) if q != self.seat]
