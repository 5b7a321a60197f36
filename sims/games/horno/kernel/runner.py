"""The kernel's Python side: an arm's card set, rules and seat strategies as the kernel's
tables, and :func:`play_many`, which plays a chunk and returns the arrays
``plugin._play_reference`` returns."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sims.core.specs import parse_spec
from sims.games.horno.cards import CardSet
from sims.games.horno.heuristic import load_presets
from sims.games.horno.kernel.game import play_games_kernel
from sims.games.horno.kernel.layout import (
    KINDS,
    N_DEC,
    N_GAME,
    N_SEAT,
    PARAM_ORDER,
    new_table,
)
from sims.games.horno.rules import Rules
from sims.games.horno.strategies import HeuristicStrategy, family_of, make_strategy


def kernel_code(spec: str) -> int | None:
    """The kernel's code for a strategy spec (``random``, ``greedy``, ``heuristic(...)``
    and its presets), or None for one it cannot play (``search``, an unknown name)."""
    name = parse_spec(spec).name
    if name in KINDS:
        return KINDS[name]
    if name in load_presets():
        return KINDS["heuristic"]
    return None


def kernel_ok(specs: Sequence[str]) -> bool:
    """Whether the kernel plays every seat's strategy."""
    return all(kernel_code(s) is not None for s in specs)


def strategy_codes(specs: Sequence[str]) -> np.ndarray:
    """Each seat's strategy code (``layout.K_*``).

    Raises
    ------
    KeyError
        For a strategy the kernel does not play.
    """
    codes = []
    for spec in specs:
        strategy = make_strategy(spec)
        codes.append(KINDS[family_of(strategy)])
    return np.array(codes, dtype=np.int64)


def seat_params(specs: Sequence[str], n_players: int) -> np.ndarray:
    """Each seat's resolved heuristic parameters in ``PARAM_ORDER`` (zeros for the other
    families): the spec's own over its preset's over the defaults, at ``n_players``."""
    out = np.zeros((n_players, len(PARAM_ORDER)), dtype=np.float64)
    for s, spec in enumerate(specs):
        strategy = make_strategy(spec)
        if isinstance(strategy, HeuristicStrategy):
            p = strategy.params(n_players)
            out[s] = [float(p[k]) for k in PARAM_ORDER]
    return out


def play_many(
    cards: CardSet,
    rules: Rules,
    specs: Sequence[str],
    seed: int,
    first: int,
    count: int,
    decisions: bool,
):
    """Play games ``first .. first + count - 1`` of a study on the kernel.

    Returns
    -------
    seats : int64[count, n, SEAT_COLUMNS]
    games : int64[count, GAME_COLUMNS + 1]
        With the decision count last.
    recs : int64[decisions, DECISION_COLUMNS]
        Empty without ``decisions``.
    dishes : tuple of arrays
        ``(dish cards, their points, unfinished dish)``: the first two
        (count, n, dish cards of the set), their first ``dishes_completed`` entries used;
        the last (count, n).
    """
    n = len(specs)
    if not (0 <= seed < 2**32 and first >= 0 and first + count <= 2**32):
        raise ValueError("the kernel seeds games from 32-bit seeds and game indices")
    tab = new_table(cards, rules, n, strategy_codes(specs))
    ftab = seat_params(specs, n)
    # a seat completes each dish card at most once: room for every one, not for the deck
    w = len(cards.dishes)
    seats = np.zeros((count, n, N_SEAT), dtype=np.int64)
    games = np.zeros((count, N_GAME), dtype=np.int64)
    dishes = np.zeros((count, n, w), dtype=np.int64)
    scores = np.zeros((count, n, w), dtype=np.int64)
    udish = np.zeros((count, n), dtype=np.int64)
    cap = 400 * count if decisions else 0
    while True:
        drec = np.zeros((cap, N_DEC), dtype=np.int64)
        made = play_games_kernel(tab, ftab, seed, first, count, seats, games, dishes, scores,
                                 udish, drec)  # fmt: skip
        if made <= cap:
            break
        cap = made  # the records did not fit: again, with room for them all
    return seats, games, drec[:made], (dishes, scores, udish)
