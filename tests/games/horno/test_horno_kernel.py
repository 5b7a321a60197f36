"""Horno's compiled kernel against the reference engine: for the same (study seed, game
index) both play the same games, so ``play_chunk`` gives exactly equal arrays on either
engine (every seat column, game column, the dish lists and the decision table), table by
table: 2, 3 and 4 players; every kernel family alone and mixed; the heuristic with other
parameters, ``avoid`` and its presets; every rule option at each of its other values; the
shipped card sets. And the engine choice: ``engine_for``, ``check_arm``'s refusal of
``engine = "kernel"`` for a search seat, ``strategies()``' kernel marks."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pyarrow as pa
import pytest

from sims.core.errors import SlicelabError
from sims.core.study import Arm
from sims.games.horno.cards import card_set_names
from sims.games.horno.plugin import GAME
from sims.games.horno.rules import _BOOLS, _CHOICES, Rules

MIX = ("heuristic", "greedy", "random", "heuristic(steal=-1,harm=2,leader=1,avoid=2)")
SKEWED = "heuristic(draw=1,discard=-1,room=0,wild=0,clean=-2,sabotage=-2,late=8,future=3)"


def _arm(players: int, strategies, seed: int = 11, **options) -> Arm:
    specs = tuple(strategies[s % len(strategies)] for s in range(players))
    options = {"cards": None, "rules": {}, **options}
    return Arm(name="k", game="horno", players=players, strategies=specs, games=1, seed=seed,
               engine="auto", options=options)  # fmt: skip


def _other_values() -> list[dict]:
    """Every rule option at each of its non-default values (``rules.py``), one at a time,
    and a few together."""
    out: list[dict] = []
    default = Rules()
    for name, values in _CHOICES.items():
        out += [{name: v} for v in values if v != getattr(default, name)]
    out += [{name: not getattr(default, name)} for name in _BOOLS]
    out += [{"first_player": 1}, {"rounds": 1}, {"rounds": 14}]
    out += [{"steal_face_down": True, "steal_needs_replacement": False},
            {"steal_face_down": True, "steal_completes": "forbidden"},
            {"rounds": 30, "repeat_types": True, "no_dish_left": "repeat"},
            {"rounds": 30, "no_dish_left": "repeat", "reshuffle": "never"}]  # fmt: skip
    return out


# (players, strategies, options, games)
CASES = [
    *[(n, (spec,), {}, 10) for n in (2, 3, 4) for spec in ("random", "greedy", "heuristic")],
    *[(n, MIX, {}, 10) for n in (2, 3, 4)],
    (4, ("greedy", "random"), {}, 10),
    (3, ("heuristic-eq2", "heuristic-eq3", "heuristic-eq4"), {}, 8),
    (4, ("heuristic-eq4",), {}, 6),
    (2, (SKEWED, "heuristic(avoid=0)"), {}, 8),
    (3, (SKEWED, "heuristic-eq3(steal=2,avoid=4)", "greedy"), {}, 8),
    *[(2 + i % 3, MIX[i % 2 :], {"rules": r}, 6) for i, r in enumerate(_other_values())],
    *[(2 + i % 3, MIX[::-1], {"cards": c}, 6) for i, c in enumerate(card_set_names())],
]
IDS = [f"{n}p-{','.join(s)}-{o or 'default'}" for n, s, o, _ in CASES]


def _equal(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return isinstance(b, type(a)) and a.equals(b)


def assert_engines_agree(arm: Arm, first: int, games: int) -> None:
    """Both engines give exactly equal arrays for games ``first .. first + games - 1`` of
    ``arm``: every seat column, game column, dish list and the decision table (and the
    kernel the same rows without decision records). Shared with the generated-file tests
    (``test_horno_generated.py``)."""
    assert GAME.engine_for(arm) == "kernel"
    kern = GAME.play_chunk(arm, first, games, True, engine="kernel")
    ref = GAME.play_chunk(arm, first, games, True, engine="reference")
    assert list(kern.seats) == list(ref.seats) and list(kern.games) == list(ref.games)
    for name in ref.seats:
        assert _equal(kern.seats[name], ref.seats[name]), name
    for name in ref.games:
        assert _equal(kern.games[name], ref.games[name]), name
    assert isinstance(kern.decisions, pa.Table) and kern.decisions.equals(ref.decisions)
    assert kern.decisions.num_rows == int(ref.games["decisions"].sum())
    # without decision records the rows are the same
    quiet = GAME.play_chunk(arm, first, games, False, engine="kernel")
    assert quiet.decisions is None
    assert all(_equal(quiet.seats[c], kern.seats[c]) for c in kern.seats)


@pytest.mark.parametrize("players, strategies, options, games", CASES, ids=IDS)
def test_the_kernel_plays_the_reference_games(players, strategies, options, games):
    assert_engines_agree(_arm(players, strategies, **options), 5, games)


def _two_matching(arm: Arm, first: int, games: int) -> int:
    """The dishes completed with two matching radioactive cards in the arm's games (on
    the reference engine)."""
    from sims.games.horno.cards import RADIOACTIVE
    from sims.games.horno.game import play_game, seat_strategies
    from sims.games.horno.plugin import cards_of, rules_of

    cards, rules = cards_of(arm.options), rules_of(arm.options)
    found = 0
    for i in range(first, first + games):
        s = play_game(arm.players, seat_strategies(list(arm.strategies), arm.players),
                      arm.seed, i, cards, rules)  # fmt: skip
        for r in (r for seat in s.scored for r in seat):
            t = cards.dishes[r.dish].type
            found += sum(cards.kinds[k].cls == RADIOACTIVE and cards.kinds[k].type == t
                         for k in r.cards) >= 2  # fmt: skip
    return found


SECOND = [
    # rule second_radioactive (the default: a second matching card may be placed, and the
    # old reading), each with radioactive_bonus once and each; the dishes completed with
    # two matching radioactive cards in games 0-14 of seed 11, 3 heuristic seats
    ({}, 2),
    ({"radioactive_bonus": "each"}, 2),
    ({"second_radioactive": False}, 0),
    ({"second_radioactive": False, "radioactive_bonus": "each"}, 0),
]


@pytest.mark.parametrize("rules, dishes", SECOND)
def test_both_engines_agree_on_a_second_matching_radioactive_card(rules, dishes):
    arm = _arm(3, ("heuristic",), rules=rules)
    assert _two_matching(arm, 0, 15) == dishes
    assert_engines_agree(arm, 0, 15)


def test_a_chunk_is_the_same_games_however_it_is_cut():
    arm = _arm(3, MIX)
    whole = GAME.play_chunk(arm, 0, 6, True, engine="kernel")
    parts = [GAME.play_chunk(arm, first, 3, True, engine="kernel") for first in (0, 3)]
    assert np.array_equal(whole.seats["score"], np.vstack([p.seats["score"] for p in parts]))
    assert whole.decisions.equals(pa.concat_tables([p.decisions for p in parts]))


def test_the_engine_choice_and_its_refusals():
    kernel, search = _arm(3, MIX), _arm(3, ("heuristic", "search(budget=2)", "greedy"))
    assert GAME.engine_for(kernel) == "kernel"
    assert GAME.engine_for(search) == "reference"
    assert GAME.engine_for(replace(kernel, engine="reference")) == "reference"
    GAME.check_arm(replace(kernel, engine="kernel"))
    GAME.check_arm(search)  # auto: the reference engine plays it
    with pytest.raises(SlicelabError, match=r"kernel plays only random, greedy and heuristic"
                       r".*not search\(budget=2\).*engine = 'auto'"):  # fmt: skip
        GAME.check_arm(replace(search, engine="kernel"))
    with pytest.raises(SlicelabError, match="play this arm on the reference engine"):
        GAME.play_chunk(search, 0, 1, False, engine="kernel")
    marks = {i.name: i.kernel for i in GAME.strategies()}
    assert marks["random"] and marks["greedy"] and marks["heuristic"] and not marks["search"]
    assert all(i.kernel for i in GAME.strategies() if i.preset_of == "heuristic")
