"""Explicit seeding (SeedSequence streams) and strategy spec strings."""

import numpy as np
import pytest

from sims.core.errors import SlicelabError, StrategySpecError
from sims.core.seeding import game_seed_sequence, game_streams
from sims.core.specs import parse_spec, split_specs
from sims.games.nyslice.game import seat_strategies
from sims.games.nyslice.strategies import make_strategy


def test_streams_follow_seed_sequence_of_index_and_seed():
    s = game_streams(5, 3, 4)
    children = np.random.SeedSequence([3, 5]).spawn(5)
    expect = [np.random.Generator(np.random.PCG64(c)).integers(1 << 30) for c in children]
    got = [s.deal.integers(1 << 30)] + [g.integers(1 << 30) for g in s.seats]
    assert got == expect


def test_streams_are_distinct_and_reproducible():
    a = game_streams(1, 0, 3)
    b = game_streams(1, 0, 3)
    draws_a = [g.random() for g in (a.deal, *a.seats)]
    assert draws_a == [g.random() for g in (b.deal, *b.seats)]
    assert len(set(draws_a)) == 4
    assert game_streams(1, 1, 3).deal.random() != game_streams(1, 0, 3).deal.random()
    assert game_streams(2, 0, 3).deal.random() != game_streams(1, 0, 3).deal.random()
    with pytest.raises(ValueError):
        game_seed_sequence(-1, 0)


@pytest.mark.parametrize(
    "text,name,params",
    [
        ("greedy", "greedy", {}),
        (" random ", "random", {}),
        ("heuristic(theta=0.8,deny=0.3)", "heuristic", {"theta": 0.8, "deny": 0.3}),
        (
            "search(budget=200, mode=fast, x=true)",
            "search",
            {"budget": 200, "mode": "fast", "x": True},
        ),
    ],
)
def test_parse_spec(text, name, params):
    spec = parse_spec(text)
    assert spec.name == name and spec.params == params


@pytest.mark.parametrize("text", ["", "9lives", "greedy(theta)", "a(b=1"])
def test_bad_spec_is_refused(text):
    with pytest.raises(StrategySpecError):
        parse_spec(text)


def test_split_specs_keeps_parameter_commas():
    assert split_specs("greedy,heuristic(a=1,b=2), random") == [
        "greedy",
        "heuristic(a=1,b=2)",
        "random",
    ]


def test_unknown_strategy_and_parameter_are_named():
    with pytest.raises(StrategySpecError, match="unknown New York Slice strategy 'smart'"):
        make_strategy("smart")
    with pytest.raises(StrategySpecError, match=r"has no parameter\(s\) \['theta'\]"):
        make_strategy("greedy(theta=1)")


def test_seat_strategies_counts():
    assert len(seat_strategies("greedy", 5)) == 5
    assert [str(s.spec) for s in seat_strategies("greedy,random,random", 3)] == [
        "greedy",
        "random",
        "random",
    ]
    with pytest.raises(SlicelabError, match="2 strategies given for 4 players"):
        seat_strategies("greedy,random", 4)
    with pytest.raises(SlicelabError, match="2 to 6 players, not 7"):
        seat_strategies("greedy", 7)
