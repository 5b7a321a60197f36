"""The batch plugin of New York Slice: the majority columns.

``players.majorities_won`` and ``games.majorities_unclaimed`` are checked against the
reference scoring.
"""

import pyarrow as pa
import pytest

from sims.core.study import Arm
from sims.games.nyslice.deck import default_deck
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.plugin import run_chunk
from sims.games.nyslice.rules import Rules
from sims.games.nyslice.scoring import majority_winners

DECK = default_deck()


def _arm(players=3, strategies=("greedy",), engine="auto", games=12, seed=3):
    specs = tuple(strategies) * (players if len(strategies) == 1 else 1)
    return Arm(
        name="a",
        game="nyslice",
        players=players,
        strategies=specs,
        games=games,
        seed=seed,
        engine=engine,
    )


# ---------------------------------------------------------------- majority columns
@pytest.mark.parametrize("engine", ["kernel", "reference"])
@pytest.mark.parametrize(
    "players,strategies", [(2, ("greedy",)), (4, ("greedy", "random")), (6, ("random",))]
)
def test_majorities_won_and_unclaimed(engine, players, strategies):
    strategies = tuple(strategies) * (players // len(strategies))
    arm = _arm(players, strategies, engine=engine, seed=9)
    tables = run_chunk(arm, 5, 20, decisions=False)
    games, seats = tables["games"], tables["players"]
    assert games.schema.field("majorities_unclaimed").type == pa.int8()
    assert seats.schema.field("majorities_won").type == pa.int8()
    won = seats.column("majorities_won").to_pylist()
    unclaimed = games.column("majorities_unclaimed").to_pylist()
    strats = seat_strategies(list(strategies), players)
    for g in range(20):
        state = play_game(players, strats, 9, 5 + g, DECK, Rules())
        holdings = [state.holdings(p) for p in range(players)]
        winners = majority_winners(DECK, holdings)
        expect = [sum(1 for w in winners.values() if w == p) for p in range(players)]
        assert won[g * players : (g + 1) * players] == expect
        assert unclaimed[g] == 9 - len(winners) == 9 - sum(expect)
    assert 0 < sum(won) < 9 * 20 and max(unclaimed) > 0
