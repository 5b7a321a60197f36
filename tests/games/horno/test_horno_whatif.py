"""What-ifs that cannot change a game are refused when the study is read
(``sims.games.horno.whatif``): table by table, each case with the exact refusal (or none),
and for every refused case the proof played out: the arm's games with and without the
option are the same games, row for row (on the kernel); the rule that does fire under the
default rulings (radioactive_bonus = each with a second matching card allowed) changes
some."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sims.core.study import StudyError, load_study
from sims.games.horno.cards import RADIOACTIVE, default_cards, radioactive_as_garbage
from sims.games.horno.kernel import play_many
from sims.games.horno.records import SEAT_COLUMNS
from sims.games.horno.rules import Rules
from sims.games.horno.whatif import inert

V1 = default_cards()
NO_RADIO = radioactive_as_garbage(V1)
SINGLE = replace(V1, name="single", kinds=tuple(replace(k, copies=1) if k.cls == RADIOACTIVE
                                                else k for k in V1.kinds))  # fmt: skip
TWO_KINDS = replace(V1, name="two-kinds", kinds=tuple(
    replace(k, type=0) if k.cls == RADIOACTIVE else k for k in V1.kinds))  # fmt: skip
"""Every radioactive card a Pizza one: an owner may place two different matching kinds
even under second_radioactive = false."""

EACH = "radioactive_bonus='each' cannot change any game of this arm"
CASES = [
    # id, card set, rules, seats, the refusal (a fragment; None: played), the rules it
    # is compared with when refused (the same games must follow)
    ("each-default-rulings", V1, {"radioactive_bonus": "each"}, ("heuristic",), None, None),
    ("each-old-ruling-heuristic", V1, {"radioactive_bonus": "each", "second_radioactive": False},
     ("heuristic",), EACH + ": under second_radioactive = false no owner places",
     {"second_radioactive": False}),
    ("each-old-ruling-greedy-heuristic-eq3", V1,
     {"radioactive_bonus": "each", "second_radioactive": False},
     ("greedy", "heuristic-eq3", "heuristic(sabotage=-5)"),
     "none of its seats (greedy, heuristic-eq3",
     {"second_radioactive": False}),
    ("each-old-ruling-a-seat-that-may", V1,
     {"radioactive_bonus": "each", "second_radioactive": False},
     ("heuristic", "heuristic(sabotage=-6)"), None, None),
    ("each-old-ruling-random", V1, {"radioactive_bonus": "each", "second_radioactive": False},
     ("heuristic", "random"), None, None),
    ("each-old-ruling-two-kinds-a-type", TWO_KINDS,
     {"radioactive_bonus": "each", "second_radioactive": False}, ("heuristic",), None, None),
    ("each-no-radioactive-cards", NO_RADIO, {"radioactive_bonus": "each"}, ("random",),
     EACH + ": card set 'assumed-v1-no-radioactive' holds at most one", {}),
    ("each-one-copy-a-type", SINGLE, {"radioactive_bonus": "each"}, ("random",),
     "holds at most one radioactive card of each dish type", {}),
    ("old-ruling-one-copy-each", SINGLE, {"second_radioactive": False}, ("random",),
     "second_radioactive=false cannot change any game of this arm: card set 'single' holds "
     "no radioactive card in two copies", {}),
    ("old-ruling-v1", V1, {"second_radioactive": False}, ("greedy",), None, None),
    ("steal-completes-face-up", V1, {"steal_completes": "forbidden"}, ("random",),
     "steal_completes='forbidden' cannot change any game of this arm: with steal_face_down "
     "= false", {}),
    ("steal-completes-face-down", V1, {"steal_completes": "forbidden", "steal_face_down": True},
     ("random",), None, None),
    ("repeat-with-repeat-types", V1, {"no_dish_left": "repeat", "repeat_types": True,
                                      "rounds": 30}, ("random",),
     "no_dish_left='repeat' cannot change any game of this arm: with repeat_types = true",
     {"repeat_types": True, "rounds": 30}),
    ("repeat-alone", V1, {"no_dish_left": "repeat", "rounds": 30}, ("random",), None, None),
]  # fmt: skip


def _seats(specs, n):
    return [specs[s % len(specs)] for s in range(n)]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_what_if_that_cannot_change_a_game_is_refused(case):
    _, cards, rules, specs, refusal, _ = case
    for n in (2, 3, 4):
        got = inert(cards, Rules(**rules), _seats(specs, n), n)
        if refusal is None:
            assert got is None
        else:
            assert got is not None and refusal in got
            assert "; drop " in got  # the fix


SCORE = SEAT_COLUMNS.index("score")


@pytest.mark.parametrize(
    "case", [c for c in CASES if c[4] is not None], ids=[c[0] for c in CASES if c[4] is not None]
)
def test_a_refused_what_if_plays_the_same_games(case):
    """The proof played out: 40 games at 3 players with and without the option are equal
    in every seat column."""
    _, cards, rules, specs, _, without = case
    a = play_many(cards, Rules(**rules), _seats(specs, 3), 7, 0, 40, False)[0]
    b = play_many(cards, Rules(**without), _seats(specs, 3), 7, 0, 40, False)[0]
    assert np.array_equal(a, b)


def test_each_does_change_games_under_the_default_rulings():
    """With a second matching card allowed, radioactive_bonus = each changes the scores of
    some deals (a second matching card reaches an oven in about 4% of heuristic games)."""
    a = play_many(V1, Rules(radioactive_bonus="each"), ["heuristic"] * 3, 11, 0, 60, False)[0]
    b = play_many(V1, Rules(), ["heuristic"] * 3, 11, 0, 60, False)[0]
    assert int((a[:, :, SCORE] != b[:, :, SCORE]).any(axis=1).sum()) >= 2


STUDY = """
name = "w"
seed = 1
[[arms]]
name = "radio-each"
game = "horno"
players = [3]
strategies = "heuristic"
rules = {{ {rules} }}
games = 10
"""


def test_the_study_is_refused_when_read_naming_the_fix(tmp_path):
    study = tmp_path / "w.toml"
    study.write_text(STUDY.format(rules='radioactive_bonus = "each", second_radioactive = false'))
    with pytest.raises(StudyError, match=r"arms\[0\] \('radio-each.p3'\).*radioactive_bonus='each' "
                       r"cannot change.*play it with second_radioactive = true"):  # fmt: skip
        load_study(study)
    study.write_text(STUDY.format(rules='radioactive_bonus = "each"'))
    [arm] = load_study(study).arms
    assert arm.options["rules"] == {"radioactive_bonus": "each"}


def test_the_balance_study_asks_no_inert_what_if():
    arms = load_study(Path(__file__).parents[3] / "studies" / "horno-balance.toml").arms
    assert any(a.options.get("rules") == {"radioactive_bonus": "each"} for a in arms)
