"""Two engines, one truth: Pizza Theory's compiled kernel (random seats so far) replays the
reference engine game for game — every decision record, every seat row and game row — at
2 and 3 players, under every rule option, on every shipped board."""

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
    *[(3, Rules(), name) for name in board_names() if name != "hex-37"],
    (2, Rules(), "hex-61"),
]  # fmt: skip


@pytest.mark.parametrize("n, rules, board", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_kernel_agrees_with_the_reference_engine(n, rules, board):
    b = shipped_board(board)
    games = 40
    seats, games_, recs = play_many(b, rules, n, 17, 0, games, records=True)
    assert recs.shape[0] == games_[:, -1].sum()
    row = 0
    for g in range(games):
        records: list[list[int]] = []
        state = play_game(n, seat_strategies("random", n), 17, g, b, rules, records)
        assert seats[g].tolist() == seat_rows(state), g
        assert games_[g].tolist() == [*game_row(state), len(state.trace)], g
        got = recs[row : row + len(records)].tolist()
        assert got == records, g
        row += len(records)


def test_games_are_the_same_in_any_chunk():
    b = shipped_board("hex-37")
    whole, _, _ = play_many(b, Rules(), 3, 5, 0, 30)
    parts = [play_many(b, Rules(), 3, 5, i, 10)[0] for i in (0, 10, 20)]
    assert np.array_equal(whole, np.concatenate(parts))
