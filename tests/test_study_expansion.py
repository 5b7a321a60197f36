"""Arm blocks that stand for several arms: player lists, grids, blanks, rotations, sizes."""

from __future__ import annotations

import pytest

from sims.core.study import StudyError, parse_study


def _study(size=None, **arm):
    block = {"name": "a", "game": "nyslice", "players": 4, "strategies": "greedy", "games": 10}
    block.update(arm)
    return parse_study({"seed": 3, "sizes": {"quick": 0.25}, "arms": [block]}, size=size)


def test_players_list_names_and_games_by_count():
    s = _study(players=[2, 5], games={"2": 8, "5": 4})
    assert [(a.name, a.players, a.games, a.group) for a in s.arms] == [
        ("a.p2", 2, 8, "a"),
        ("a.p5", 5, 4, "a"),
    ]


def test_short_strategy_list_is_filled_by_its_last_spec():
    s = _study(players=[3, 4], strategies=["random", "greedy"])
    assert [a.strategies for a in s.arms] == [
        ("random", "greedy", "greedy"),
        ("random", "greedy", "greedy", "greedy"),
    ]


def test_rotation_puts_the_first_spec_in_seat_k():
    s = _study(players=3, strategies=["random", "greedy", "heuristic"], rotate=True)
    assert [(a.name, a.rotation, a.strategies) for a in s.arms] == [
        ("a.r0", 0, ("random", "greedy", "heuristic")),
        ("a.r1", 1, ("heuristic", "random", "greedy")),
        ("a.r2", 2, ("greedy", "heuristic", "random")),
    ]
    assert len({a.seed for a in s.arms}) == 1  # every rotation is dealt the same cards


def test_grid_substitutes_values_into_specs():
    s = _study(strategies=["heuristic(theta={theta})", "greedy"], players=[4],
               grid={"theta": [0.5, 2]})  # fmt: skip
    assert [(a.name, a.grid, a.strategies[0], a.strategies[3]) for a in s.arms] == [
        ("a.p4.theta0.5", {"theta": 0.5}, "heuristic(theta=0.5)", "greedy"),
        ("a.p4.theta2", {"theta": 2}, "heuristic(theta=2)", "greedy"),
    ]


def test_blank_each_lists_the_specials_in_play():
    four = _study(blank="each")
    assert len(four.arms) == 14 and four.arms[0].name == "a.blank-cut_in_line"
    two = _study(players=2, blank="each")
    blanks = {a.options.get("blank") for a in two.arms}
    assert blanks.isdisjoint({"cut_in_line", "dibs", "you_love_veggies"})
    assert len(two.arms) == 11


def test_size_scales_games_and_renames():
    s = _study(size="quick", games=10)
    assert s.name == "study-quick" and s.arms[0].games == 3


@pytest.mark.parametrize(
    ("arm", "size", "message"),
    [
        ({"grid": {"theta": [1]}}, None, "placeholders [] do not match the grid keys ['theta']"),
        ({"strategies": "heuristic(theta={t})"}, None, "placeholders ['t'] do not match"),
        ({"grid": {"theta": []}}, None, "grid key 'theta' must list numbers or strings"),
        ({"players": [2, 3], "games": {"2": 5}}, None, "'games' has no entry for 3 players"),
        ({"players": []}, None, "'players' must be a count or a list of distinct counts"),
        ({"rotate": "yes"}, None, "'rotate' must be true or false"),
        ({"blank": 3}, None, "'blank' must be a special's slug"),
        ({"blank": "pineapple"}, None, "pineapple"),
        ({"players": 2, "blank": "dibs"}, None, "dibs"),
        ({}, "huge", "no size 'huge'; this study's sizes: ['quick']"),
        ({"strategies": ["greedy"] * 5}, None, "'strategies' has 5 specs for 4 players"),
    ],
)
def test_bad_blocks_are_named(arm, size, message):
    with pytest.raises(StudyError) as err:
        _study(size=size, **arm)
    assert message in str(err.value)
    assert "arms[0]" in str(err.value) or "top level" in str(err.value)
