"""The reference engines' common shape: a game's rules written as one generator that yields
a decision whenever a seat has a real choice, driven by ``apply``.

Every game's ``GameState`` subclasses :class:`DecisionFlow`, writes its rules in ``_play``
(a generator of its own ``Decision`` objects, each with ``player``, ``phase`` and
``legal``) and calls :meth:`DecisionFlow._start` at the end of ``__init__``; this class
gives it the state API of the game protocol (``terminal``, ``current_player``,
``legal_actions``, ``apply``) and the record of what was played.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from sims.core.errors import SlicelabError


class IllegalAction(SlicelabError):
    """An action that is not legal in the current state."""


class DecisionFlow:
    """A game in progress, as a generator of decisions.

    Attributes
    ----------
    history : list of int
        Every action applied, in order.
    choices : list of int
        Each of those actions as its index in its decision's legal list.
    trace : list of (player, phase, action)
        Who decided what, per decision.
    """

    history: list[int]
    choices: list[int]
    trace: list[tuple[int, int, int]]
    _pending: Any
    _flow: Generator[Any, int, None]

    def _play(self) -> Generator[Any, int, None]:
        raise NotImplementedError

    def _start(self) -> None:
        """Run the rules to the first real decision (the end of the subclass's __init__)."""
        self.history = []
        self.choices = []
        self.trace = []
        self._flow = self._play()
        self._pending = next(self._flow, None)

    @property
    def terminal(self) -> bool:
        """Whether the game is over (scores are final)."""
        return self._pending is None

    def decision(self) -> Any:
        """The pending decision, or ``None`` when the game is over."""
        return self._pending

    @property
    def current_player(self) -> int:
        """The seat of the pending decision (-1 when the game is over)."""
        return self._pending.player if self._pending else -1

    def legal_actions(self) -> Sequence[int]:
        """Legal actions of the pending decision (empty when terminal)."""
        return self._pending.legal if self._pending else ()

    def apply(self, action: int) -> None:
        """Apply the pending decision's action and run on to the next real decision.

        Raises
        ------
        IllegalAction
            If ``action`` is not legal now.
        """
        pending = self._pending
        if pending is None:
            raise IllegalAction("the game is over; no action can be applied")
        try:
            choice = pending.legal.index(action)
        except ValueError:
            raise IllegalAction(
                f"action {action} is not legal for {pending.phase.name} (player {pending.player})"
            ) from None
        self.history.append(int(action))
        self.choices.append(choice)
        self.trace.append((pending.player, int(pending.phase), int(action)))
        try:
            self._pending = self._flow.send(int(action))
        except StopIteration:
            self._pending = None


def seat_specs(specs: Sequence[Any] | str, n_players: int) -> list[Any]:
    """One strategy spec per seat: ``specs`` gives one for every seat or one per seat (a
    comma-separated string or a sequence).

    Raises
    ------
    SlicelabError
        When the number of specs is neither 1 nor the number of players.
    """
    from sims.core.specs import split_specs

    items = split_specs(specs) if isinstance(specs, str) else list(specs)
    if len(items) == 1:
        items = items * n_players
    if len(items) != n_players:
        example = ",".join(["greedy"] + ["random"] * (n_players - 1))
        raise SlicelabError(
            f"{len(items)} strategies given for {n_players} players: give one for every seat "
            f"or a single one for all (e.g. --strategies {example})"
        )
    return items


def play_out(
    state: DecisionFlow,
    strategies: Sequence[Any],
    seat_rngs: Sequence[Any],
    view: Any,
    records: list[list[int]] | None = None,
    decision_row: Any = None,
    game_index: int = 0,
) -> DecisionFlow:
    """Drive ``state`` to the end: each decision goes to its seat's strategy, which sees
    ``view(state, seat)`` and draws from ``seat_rngs[seat]``; with ``records``, each
    decision's ``decision_row(state, decision, action, game_index)`` is appended before
    the action is applied.

    Raises
    ------
    SlicelabError
        Naming the strategy and seat that chose an illegal action.
    """
    while not state.terminal:
        dec = state.decision()
        strat = strategies[dec.player]
        action = strat.choose(view(state, dec.player), dec, seat_rngs[dec.player])
        if records is not None:
            records.append(decision_row(state, dec, action, game_index))
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise SlicelabError(
                f"strategy {strat.spec} (seat {dec.player}) chose an illegal action: {exc}"
            ) from None
    return state
