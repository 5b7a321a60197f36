"""Two engines, one truth: Pizza Theory's compiled kernel replays the reference engine game
for game — every decision record, every seat row and game row — at 2 and 3 players, under
every rule option (the first seat cycled by game too), on every shipped board, for every
built-in family: random, and the swing strategies greedy, heuristic (every parameter) and
mixed, alone and side by side."""

from __future__ import annotations

import numpy as np
import pytest

from sims.games.pizzatheory.board import board_names, shipped_board
from sims.games.pizzatheory.game import play_game, seat_strategies
from sims.games.pizzatheory.kernel import play_many
from sims.games.pizzatheory.records import game_row, seat_rows
from sims.games.pizzatheory.rules import Rules

CASES = [
    (3, Rules(), "hex-37"), (2, Rules(), "hex-37"),
    (3, Rules(rotation="counterclockwise", replacement_order="by-space"), "hex-37"),
    (3, Rules(safety=False, two_way_tie="nothing", first_seat=2), "hex-37"),
    (3, Rules(placement="anywhere", supply=8, runout_tiebreak=True), "hex-37"),
    (2, Rules(first_seat=1, supply=6, runout_tiebreak=True), "hex-37"),
    (3, Rules(max_rounds=3, rotation="none"), "hex-37"),
    (3, Rules(cycle_first_seat=True, first_seat=1, runout_tiebreak=True, supply=6), "hex-37"),
    (2, Rules(cycle_first_seat=True, runout_tiebreak=True, supply=5), "hex-37"),
    *[(3, Rules(), name) for name in board_names() if name != "hex-37"],
    (2, Rules(), "hex-61"),
]  # fmt: skip


SWING = {
    3: ["heuristic(risk=0.4,leader=1.2,blind=1)", "greedy", "mixed(iters=15,aggression=0.6)"],
    2: ["mixed(iters=15,leader=0.8)", "heuristic(risk=-0.6,aggression=1.7,blind=2)"],
}
"""Every swing family at one table, with parameters that exercise every term of the value
(aggression, leader, risk of both signs, blind placements) and the mixed cut."""


def _agree(n, rules, board, specs, games, seed=17):
    b = shipped_board(board)
    seats, games_, recs = play_many(b, rules, n, seed, 0, games, records=True, strategies=specs)
    assert recs.shape[0] == games_[:, -1].sum()
    row = 0
    for g in range(games):
        records: list[list[int]] = []
        state = play_game(n, seat_strategies(specs, n), seed, g, b, rules, records)
        assert seats[g].tolist() == seat_rows(state), g
        assert games_[g].tolist() == [*game_row(state), len(state.trace)], g
        got = recs[row : row + len(records)].tolist()
        assert got == records, g
        row += len(records)


@pytest.mark.parametrize("n, rules, board", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_kernel_agrees_with_the_reference_engine(n, rules, board):
    _agree(n, rules, board, "random", 40)


@pytest.mark.parametrize("n, rules, board", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_kernel_agrees_on_the_swing_strategies(n, rules, board):
    _agree(n, rules, board, SWING[n], 3)


@pytest.mark.parametrize(
    "n, spec", [(3, "greedy"), (3, "heuristic"), (3, "mixed(iters=25)"), (2, "greedy"),
                (2, "mixed(iters=25)"), (3, "mixed(iters=20);mixed(iters=20);mixed(iters=21)")],
)  # fmt: skip
def test_kernel_agrees_on_each_family_in_every_seat(n, spec):
    """One family in every seat (at 3 mixed players the kernel solves the round's cut game
    once for all seats with the same parameters; the last case makes it solve twice)."""
    _agree(n, Rules(), "hex-37", spec.split(";") if ";" in spec else spec, 6, seed=3)


@pytest.mark.parametrize("spec", ["random", "mixed(iters=10)"])
def test_games_are_the_same_in_any_chunk(spec):
    b = shipped_board("hex-37")
    whole, _, _ = play_many(b, Rules(), 3, 5, 0, 30, strategies=spec)
    parts = [play_many(b, Rules(), 3, 5, i, 10, strategies=spec)[0] for i in (0, 10, 20)]
    assert np.array_equal(whole, np.concatenate(parts))
