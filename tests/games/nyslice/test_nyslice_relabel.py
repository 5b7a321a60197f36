"""Seat answers invariant to labels: the seat/position table of New York Slice does not change
when the seats are relabelled.

New York Slice has no colours: a seat is its turn position, counted from the first slicer
(the ruling ``first_slicer``, default 0). Rotating which seat slices first relabels every
seat; a strategy that broke ties by seat number instead of by turn position (or its own
stream) would then play differently. ``random``, ``greedy`` and the ``heuristic`` family
decide from the view alone (ties go to the lowest action: a portion, a cut rank, a type),
and the deterministic ones, which read no stream, must play the *same games* by position
whatever seat starts: every field of the default study with those strategies is checked
game for game at every player count and every rotation. Fields whose seats draw on their
own streams (``random``, the ladder's mixed table, ``search``) are checked to move only
within noise: a relabelling hands each position another seat's stream.
"""

from __future__ import annotations

import textwrap

import numpy as np
import polars as pl
import pytest

from analysis.nyslice.seats import seat_advantage
from sims.batch import run_study
from sims.core.study import load_study
from sims.games.nyslice.deck import default_deck
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.kernel import KernelRunner, seat_params, strategy_codes
from sims.games.nyslice.records import score_rows
from sims.games.nyslice.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from tests.generated import VALIDATE

DECK = default_deck()
SEED = 20261130
DETERMINISTIC_FIELDS = ["heuristic", "heuristic(theta=4)", "greedy"]
"""The default study's fields that read no stream: `seats`, `seats-collect`, `seats-greedy`
(and every forfeit, avoid and θ block built on them)."""


def _by_position(scores: np.ndarray, first: int) -> np.ndarray:
    """Score rows (games, seats, columns) reindexed by position: position p is seat
    (p + first) mod n."""
    return np.roll(scores, -first, axis=1)


@pytest.mark.parametrize("field", DETERMINISTIC_FIELDS)
def test_deterministic_fields_play_the_same_games_by_position(field):
    """For every player count and every first slicer, 40 games in the kernel: the score
    rows by position equal those with seat 0 slicing first, game for game."""
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        specs = [field] * n
        codes, hp = strategy_codes(specs), seat_params(specs, n)
        base = None
        for first in range(n):
            runner = KernelRunner(DECK, Rules(first_slicer=first))
            scores, _ = runner.play_many(n, codes, SEED, 0, 40, hparams=hp)
            rows = _by_position(scores, first)
            if base is None:
                base = rows
            else:
                same = (rows == base).all(axis=(1, 2))
                assert same.all(), (field, n, first, np.flatnonzero(~same)[:5])


def test_a_forfeiting_seat_relabelled_plays_the_same_games():
    """The same with a restricted seat (the forfeit blocks): the forfeiting position moves
    with the relabelling, and every game by position is unchanged (the reference engine
    too, on a few games)."""
    n, spec = 4, "heuristic(forfeit=stuffed_crust)"
    base = None
    for first in range(n):
        specs = ["heuristic"] * n
        specs[(1 + first) % n] = spec  # position 1 forfeits
        runner = KernelRunner(DECK, Rules(first_slicer=first))
        scores, _ = runner.play_many(n, strategy_codes(specs), SEED, 0, 40,
                                     hparams=seat_params(specs, n))  # fmt: skip
        rows = _by_position(scores, first)
        if first in (0, 3):
            for g in range(3):
                state = play_game(n, seat_strategies(specs, n), SEED, g, DECK,
                                  Rules(first_slicer=first))  # fmt: skip
                assert np.roll(np.array(score_rows(state)), -first, axis=0).tolist() == (
                    rows[g].tolist()
                )
        if base is None:
            base = rows
        else:
            assert (rows == base).all()


STUDY = """
name = "relabel"
seed = 7
[[arms]]
name = "seats"
game = "nyslice"
players = [3, 5]
strategies = "heuristic"
games = 120
[[arms]]
name = "seats-relabelled"
game = "nyslice"
players = [3, 5]
strategies = "heuristic"
games = 120
[arms.rules]
first_slicer = 2
"""


def test_the_seat_table_is_the_same_by_position(tmp_path):
    """Through a study and the report's seat table: with seat 2 slicing first, the row of
    seat (p + 2) mod n equals the row of seat p with seat 0 first (win share, edge and its
    interval), at 3 and 5 players."""
    path = tmp_path / "s.toml"
    path.write_text(textwrap.dedent(STUDY))
    out = tmp_path / "data"
    run_study(load_study(path), out, jobs=1)
    cols = ["win_share", "edge_pp", "edge_low", "edge_high", "games"]
    a = seat_advantage(out, "seats")
    b = seat_advantage(out, "seats-relabelled")
    for n in (3, 5):
        ta = a.filter(pl.col("players") == n).sort("seat")
        tb = b.filter(pl.col("players") == n).sort("seat")
        moved = tb.with_columns(((pl.col("seat") - 2) % n).alias("seat")).sort("seat")
        assert ta.select(cols).rows() == moved.select(cols).rows()
        assert not ta.select("edge_pp").equals(tb.select("edge_pp"))  # seats did move


def _position_shares(specs, n, first, games, seed=SEED):
    runner = KernelRunner(DECK, Rules(first_slicer=first))
    scores, _ = runner.play_many(n, strategy_codes(specs), seed, 0, games,
                                 hparams=seat_params(specs, n))  # fmt: skip
    from sims.core.game import win_shares
    from sims.games.nyslice.kernel import SCORE_COLUMNS

    tot, eaten = SCORE_COLUMNS.index("total"), SCORE_COLUMNS.index("eaten")
    return _by_position(win_shares([scores[:, :, tot], scores[:, :, eaten]])[:, :, None], first)[
        :, :, 0
    ]


def _within_noise(a: np.ndarray, b: np.ndarray, z: float = 4.0) -> None:
    """Each position's mean win share differs by less than ``z`` standard errors (two
    independent samples of games)."""
    diff = a.mean(axis=0) - b.mean(axis=0)
    se = np.sqrt(a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b))
    assert (np.abs(diff) < z * se).all(), (diff, se)


@pytest.mark.parametrize(
    "n,specs",
    [(4, ["random"] * 4), (4, ["heuristic", "greedy", "random", "heuristic"])],
    ids=["random", "mixed-ladder"],
)
def test_fields_with_streams_move_within_noise(n, specs):
    """Random and a mixed table (the ladder's strategies) read their seats' streams: with
    seat 2 slicing first each position plays another seat's stream, and the position table
    moves only within noise (2,000 games each)."""
    relabelled = specs[-2:] + specs[:-2]  # the same strategy at each position
    a = _position_shares(specs, n, 0, 2000)
    b = _position_shares(relabelled, n, 2, 2000)
    _within_noise(a, b)


@pytest.mark.generated
@pytest.mark.skipif(not VALIDATE, reason="a search field's games: make validate")
def test_the_search_field_moves_within_noise():
    """The search field (`seats-search`: its determinizations draw on each seat's stream)
    at 3 players, 300 games with seat 0 and with seat 1 slicing first (about a minute:
    ``make validate`` only)."""
    specs = ["search(budget=4)"] * 3
    a = _position_shares(specs, 3, 0, 300)
    b = _position_shares(specs, 3, 1, 300)
    _within_noise(a, b)
