"""Final scoring: majorities of collected varieties (rule ``majority_ties``), cream of
eaten slices, and the win (rule ``tie``). The engine's end-of-game scoring, on scripted
games, is in ``test_pieceocake_round.py``."""

import pytest

from sims.games.pieceocake.cake import default_cake, parse_cake
from sims.games.pieceocake.scoring import Breakdown, score, win_shares

CAKE = default_cake()
PLUM, APRICOT, CHERRY, BLACKBERRY, KIWI, GOOSEBERRY, STRAWBERRY, CHOCOLATE = range(8)
PLUMS = (0, 1, 2)
CHOCOLATES = tuple(range(46, 57))


def counts(**by_name: int) -> list[int]:
    """A seat's collected counts per variety, by variety name."""
    out = [0] * len(CAKE.varieties)
    for name, n in by_name.items():
        out[CAKE.index(name)] = n
    return out


def cream_of(eaten) -> int:
    return sum(CAKE.varieties[CAKE.slice_variety[s]].cream for s in eaten)


@pytest.mark.parametrize("majority_ties", ["full", "none", "split"])
def test_a_lone_leader_scores_the_same_under_every_rule(majority_ties):
    # strawberry alone: 4 against 0 and 1
    b = score(
        CAKE, [counts(strawberry=4), counts(), counts(strawberry=1)], [0, 0, 0], majority_ties
    )
    assert b == [Breakdown(10, 1, 0), Breakdown(0, 0, 0), Breakdown(0, 0, 0)]


def test_worked_check_tied_majority_scores_full_value_for_each():
    # Spec: 3 Chocolate collected by A, 3 by B, 2 by C -> A and B each score 11.
    b = score(
        CAKE, [counts(chocolate=3), counts(chocolate=3), counts(chocolate=2)], [0, 0, 0], "full"
    )
    assert [x.score for x in b] == [11, 11, 0]
    assert [x.majorities_won for x in b] == [1, 1, 0]


def test_worked_check_eaten_cream():
    # Spec: eaten 1 Chocolate + 2 Plums -> 5 points.
    eaten = [CHOCOLATES[0], PLUMS[0], PLUMS[1]]
    assert cream_of(eaten) == 5
    b = score(CAKE, [counts(), counts()], [cream_of(eaten), 0], "full")
    assert b[0] == Breakdown(0, 0, 5) and b[0].score == 5


# Three seats: chocolate 3/3/2 (a 2-way tie), strawberry 0/4/0, plum 1/1/1 (3-way tie),
# cherry nobody; cream 2/0/7.
COLLECTED = [
    counts(chocolate=3, plum=1),
    counts(chocolate=3, strawberry=4, plum=1),
    counts(chocolate=2, plum=1),
]
CREAM = [2, 0, 7]
TIES = [
    # full (rulebook): every tied leader scores the whole value
    ("full", [(14, 2), (24, 3), (3, 1)], [16, 24, 10]),
    # none (what-if): a tied variety scores for nobody
    ("none", [(0, 0), (10, 1), (0, 0)], [2, 10, 7]),
    # split (what-if): tied leaders share the value, rounded down: 11 // 2 = 5, 3 // 3 = 1
    ("split", [(6, 2), (16, 3), (1, 1)], [8, 16, 8]),
]


@pytest.mark.parametrize("majority_ties,majorities,totals", TIES)
def test_majority_ties(majority_ties, majorities, totals):
    b = score(CAKE, COLLECTED, CREAM, majority_ties)
    assert [(x.majorities, x.majorities_won) for x in b] == majorities
    assert [x.cream for x in b] == CREAM
    assert [x.score for x in b] == totals


@pytest.mark.parametrize("majority_ties", ["full", "none", "split"])
def test_nobody_collecting_a_variety_scores_nothing(majority_ties):
    b = score(CAKE, [counts(), counts(), counts()], [0, 3, 0], majority_ties)
    assert b == [Breakdown(0, 0, 0), Breakdown(0, 0, 3), Breakdown(0, 0, 0)]


def test_majority_is_worth_the_same_however_many_slices():
    one = score(CAKE, [counts(kiwi=1), counts()], [0, 0], "full")
    eight = score(CAKE, [counts(kiwi=8), counts()], [0, 0], "full")
    assert one[0].majorities == eight[0].majorities == 8


def test_split_of_a_value_that_does_not_divide():
    # kiwi (8) split three ways: 8 // 3 = 2 each
    b = score(CAKE, [counts(kiwi=2)] * 3, [0, 0, 0], "split")
    assert [x.majorities for x in b] == [2, 2, 2]


def test_value_of_a_replacement_cake_is_used_not_copies():
    cake = parse_cake(
        {
            "name": "t",
            "variety": [
                {"name": "lemon", "copies": 30, "cream": 1, "value": 4},
                {"name": "lime", "copies": 25, "cream": 2},
            ],
        },
        "t",
    )
    b = score(cake, [[3, 0], [1, 2]], [0, 0], "full")
    assert [(x.majorities, x.majorities_won) for x in b] == [(4, 1), (25, 1)]


def test_breakdown_score_is_majorities_plus_cream():
    assert Breakdown(majorities=21, majorities_won=2, cream=9).score == 30


# id, (score, cream) per seat, tie rule, win shares
WINS = [
    ("clear winner, shared", [(30, 1), (20, 9)], "shared", [1.0, 0.0]),
    ("clear winner, cream", [(30, 1), (20, 9)], "cream", [1.0, 0.0]),
    ("points tie shared", [(12, 2), (12, 4), (5, 5)], "shared", [0.5, 0.5, 0.0]),
    ("points tie broken by cream", [(12, 2), (12, 4), (5, 5)], "cream", [0.0, 1.0, 0.0]),
    ("points and cream tie shared", [(12, 4), (12, 4), (5, 5)], "cream", [0.5, 0.5, 0.0]),
    ("three-way tie", [(7, 1), (7, 2), (7, 3)], "shared", [1 / 3, 1 / 3, 1 / 3]),
    ("three-way, cream", [(7, 1), (7, 3), (7, 3)], "cream", [0.0, 0.5, 0.5]),
    ("all zero", [(0, 0)] * 4, "shared", [0.25] * 4),
    ("more cream never beats more points", [(10, 0), (9, 9)], "cream", [1.0, 0.0]),
]


@pytest.mark.parametrize("seats,tie,shares", [w[1:] for w in WINS], ids=[w[0] for w in WINS])
def test_win_shares(seats, tie, shares):
    breakdowns = [Breakdown(total - cream, 0, cream) for total, cream in seats]
    assert win_shares(breakdowns, tie) == pytest.approx(shares)
    assert sum(win_shares(breakdowns, tie)) == pytest.approx(1.0)
