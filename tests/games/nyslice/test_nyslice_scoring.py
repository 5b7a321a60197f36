"""End-of-game scoring of New York Slice: majorities, starred specials, pepperoni, winner.

``scoring.score`` is pure, so most cases are tables of holdings. Slice ids of the default
deck: Veggie 0-2, Hawaiian (4) 3-6, Sausage (5) 7-11, Margherita (6) 12-17, BBQ Chicken (7)
18-24, Mushroom (8) 25-32, Buffalo (9) 33-41, Meat Lovers (10) 42-51, Cheese (11) 52-62.
"""

import numpy as np
import pytest
from nyslice_helpers import (
    ANCHOVY,
    COMBO_4_6,
    COMBO_5_9,
    COMBO_7_11,
    COMBO_8_10,
    DECK,
    SUPREME,
    finish,
    holdings,
)

from sims.games.nyslice.deck import Special
from sims.games.nyslice.engine import GameState, deal
from sims.games.nyslice.kernel import SCORE_COLUMNS
from sims.games.nyslice.records import score_rows, special_masks
from sims.games.nyslice.rules import Rules
from sims.games.nyslice.scoring import (
    Breakdown,
    majority_winners,
    score,
    type_counts_halves,
    win_shares,
)

H = holdings
TB, SSC, YLA = Special.TIE_BREAKER, Special.SUPER_SIZED_COMBOS, Special.YOU_LIKE_ANCHOVIES
BUF, CC, DAY = Special.BUFFET, Special.COMBO_CRAVINGS, Special.DAY_OLD_PIZZA
DIET, STUF, YLV = Special.EVERYONE_ELSES_DIET, Special.STUFFED_CRUST, Special.YOU_LOVE_VEGGIES
UNSTARRED = [
    Special.CUT_IN_LINE,
    Special.DIBS,
    Special.MYSTERY_SLICE,
    Special.SECONDS,
    Special.SNEAK_A_SLICE,
    SSC,
    TB,
    YLA,
]


def _types(*hs):
    return [b.majority_types for b in score(DECK, hs)]


# ---------------------------------------------------------------- worked checks (spec verbatim)
def test_worked_check_lone_half_and_supreme():
    """A has 2 Mushroom + the 8/10 combo (Mushroom 2.5, Meat Lovers 0.5); B has 2 Mushroom +
    the Supreme assigned to 8 (3); nobody else has Mushroom or Meat Lovers. B scores 8; A
    scores 10 with its ½."""
    a = H([25, 26, COMBO_8_10])
    b = H([27, 29, SUPREME], supreme=8)
    res = score(DECK, [a, b, H()])
    assert [r.majority_types for r in res] == [(10,), (8,), ()]
    assert [r.majorities for r in res] == [10, 8, 0]


def test_worked_check_super_sized_combos():
    """If A owns Super-Sized Combos, A counts 4 Mushroom and 2 Meat Lovers: A (4) beats B (3)
    and scores 8."""
    a = H([25, 26, COMBO_8_10], specials=[SSC])
    b = H([27, 29, SUPREME], supreme=8)
    res = score(DECK, [a, b, H()])
    assert [r.majority_types for r in res] == [(8, 10), (), ()]
    assert res[0].majorities == 18


@pytest.mark.parametrize(
    "a_specials,b_specials,expected",
    [
        ((), (), [(), (), ()]),
        ((TB,), (), [(8,), (), ()]),
        ((), (TB,), [(), (8,), ()]),
    ],
)
def test_worked_check_tie(a_specials, b_specials, expected):
    """A and B each have 2 Mushroom and nobody has more: nobody scores 8, unless A or B owns
    Tie-Breaker."""
    res = _types(H([25, 26], specials=a_specials), H([27, 29], specials=b_specials), H())
    assert res == expected


@pytest.mark.parametrize("yla,anchovies", [(False, -4), (True, 4)])
def test_worked_check_pepperoni_and_anchovies(yla, anchovies):
    """Eaten: a 3-pepperoni slice and the Supreme → 5; collected: the Anchovy slice and one
    1-anchovy slice → −4; with You Like Anchovies! → +4."""
    assert DECK.slices[54].pepperoni == 3 and DECK.slices[55].anchovies == 1
    h = H([ANCHOVY, 55], eaten=[54, SUPREME], specials=[YLA] if yla else [])
    b = score(DECK, [h, H()])[0]
    assert (b.pepperoni, b.anchovies) == (5, anchovies)


# ---------------------------------------------------------------- type majorities
# id, holdings per seat, majority types per seat, majorities won per seat, types unclaimed
MAJORITIES = [
    ("strictly most", [H([52, 53]), H([54])], [(11,), ()], [1, 0], 8),
    ("tie for most scores nothing", [H([52]), H([53]), H()], [(), (), ()], [0, 0, 0], 9),
    (
        "tie for most above a third",
        [H([52, 53]), H([54, 55]), H([56])],
        [(), (), ()],
        [0, 0, 0],
        9,
    ),
    ("Tie-Breaker takes a tie", [H([52], specials=[TB]), H([53])], [(11,), ()], [1, 0], 8),
    (
        "Tie-Breaker in a three-way tie",
        [H([52]), H([53]), H([54], specials=[TB])],
        [(), (), (11,)],
        [0, 0, 1],
        8,
    ),
    (
        "Tie-Breaker outside the tie",
        [H([52], specials=[TB]), H([53, 54]), H([55, 56])],
        [(), (), ()],
        [0, 0, 0],
        9,
    ),
    (
        "Tie-Breaker, type nobody holds",
        [H([52], specials=[TB]), H(), H()],
        [(11,), (), ()],
        [1, 0, 0],
        8,
    ),
    ("lone half beats nothing", [H([COMBO_7_11]), H()], [(7, 11), ()], [2, 0], 7),
    ("half loses to one slice", [H([COMBO_7_11]), H([18])], [(11,), (7,)], [1, 1], 7),
    ("one and a half beats one", [H([COMBO_7_11, 19]), H([18])], [(7, 11), ()], [2, 0], 7),
    (
        "one and a half loses to two",
        [H([COMBO_7_11, 19]), H([18, 20])],
        [(11,), (7,)],
        [1, 1],
        7,
    ),
    (
        "assigned Supreme counts one",
        [H([COMBO_7_11, 19]), H([18, SUPREME], supreme=7)],
        [(11,), (7,)],
        [1, 1],
        7,
    ),
    ("unassigned Supreme counts nothing", [H([18]), H([19, SUPREME])], [(), ()], [0, 0], 9),
    (
        "Super-Sized: 2 per combo type",
        [H([COMBO_7_11], specials=[SSC]), H([18])],
        [(7, 11), ()],
        [2, 0],
        7,
    ),
    ("Super-Sized tie", [H([COMBO_7_11], specials=[SSC]), H([18, 19])], [(11,), ()], [1, 0], 8),
    (
        "Super-Sized and Tie-Breaker",
        [H([COMBO_7_11], specials=[SSC, TB]), H([18, 19])],
        [(7, 11), ()],
        [2, 0],
        7,
    ),
    ("eaten slices do not count", [H([52], eaten=[53, 54]), H([55, 56])], [(), (11,)], [0, 1], 8),
    (
        "combos and Veggies have types",
        [H([0, COMBO_4_6, COMBO_5_9]), H([3, 7])],
        [(3, 6, 9), (4, 5)],
        [3, 2],
        4,
    ),
]


@pytest.mark.parametrize(
    "hs,expected,won,unclaimed", [m[1:] for m in MAJORITIES], ids=[m[0] for m in MAJORITIES]
)
def test_majorities(hs, expected, won, unclaimed):
    res = score(DECK, hs)
    assert [b.majority_types for b in res] == expected
    assert [b.majorities for b in res] == [sum(t) for t in expected]
    assert [b.majorities_won for b in res] == won
    # Types whose majority nobody scored (nobody holds it, or an unbroken tie).
    assert 9 - sum(b.majorities_won for b in res) == unclaimed
    assert unclaimed == 9 - len(majority_winners(DECK, hs))


def test_a_majority_is_worth_the_type_number():
    one_of_each = H([0, 3, 7, 12, 18, 25, 33, 42, 52])
    b = score(DECK, [one_of_each, H()])[0]
    assert b.majority_types == tuple(range(3, 12))
    assert b.majorities == sum(range(3, 12)) == 63
    assert b.majorities_won == 9
    assert b.total == 63  # no pepperoni eaten, no anchovies on these slices


# ---------------------------------------------------------------- Buffet
# id, collected, eaten, Supreme's type, Buffet points
BUFFET = [
    ("numbered types", [52, 53, 18], [], 0, 2),
    ("Veggie is a type", [0], [], 0, 1),
    ("combo carries two types", [COMBO_7_11], [], 0, 2),
    ("combo adds only new types", [18, 52, COMBO_7_11], [], 0, 2),
    ("combo adds one new type", [18, COMBO_7_11], [], 0, 2),
    ("assigned Supreme's type", [52, SUPREME], [], 9, 2),
    ("unassigned Supreme", [52, SUPREME], [], 0, 1),
    ("the Anchovy slice", [ANCHOVY], [], 0, 1),
    ("Anchovy slice and a type", [52, ANCHOVY], [], 0, 2),
    ("a 1-anchovy slice is not the Anchovy slice", [55], [], 0, 1),
    ("eaten slices do not count", [52], [18, 19], 0, 1),
    ("every type and the Anchovy", [0, 3, 7, 12, 18, 25, 33, 42, 52, ANCHOVY], [], 0, 10),
    ("nothing", [], [52], 0, 0),
]


@pytest.mark.parametrize(
    "collected,eaten,supreme,points", [b[1:] for b in BUFFET], ids=[b[0] for b in BUFFET]
)
def test_buffet(collected, eaten, supreme, points):
    b = score(DECK, [H(collected, eaten, [BUF], supreme), H()])[0]
    assert b.special_points == {"buffet": points}
    assert b.specials == points


# ---------------------------------------------------------------- other starred specials
# id, specials, collected, eaten, special points
STARRED = [
    (
        "Combo Cravings +3 per eaten combo",
        [CC],
        [COMBO_5_9],
        [COMBO_8_10, COMBO_4_6],
        {"combo_cravings": 6},
    ),
    ("Combo Cravings, none eaten", [CC], [COMBO_5_9], [52], {"combo_cravings": 0}),
    ("Day-Old Pizza -2", [DAY], [52], [53], {"day_old_pizza": -2}),
    ("Stuffed Crust +5", [STUF], [], [], {"stuffed_crust": 5}),
    ("You Love Veggies +3 per eaten Veggie", [YLV], [2], [0, 1], {"you_love_veggies": 6}),
    (
        "You Love Veggies, eaten Supreme is not a Veggie",
        [YLV],
        [],
        [0, SUPREME],
        {"you_love_veggies": 3},
    ),
    (
        "several at once",
        [BUF, DAY, STUF],
        [52, ANCHOVY],
        [],
        {"buffet": 2, "day_old_pizza": -2, "stuffed_crust": 5},
    ),
]


@pytest.mark.parametrize(
    "specials,collected,eaten,points", [s[1:] for s in STARRED], ids=[s[0] for s in STARRED]
)
def test_starred_specials(specials, collected, eaten, points):
    b = score(DECK, [H(collected, eaten, specials), H()])[0]
    assert b.special_points == points
    assert b.specials == sum(points.values())
    assert b.total == b.majorities + b.specials + b.diet + b.pepperoni + b.anchovies


@pytest.mark.parametrize(
    "eaten_counts,owner,diet",
    [
        ([5, 1, 4, 0], 0, [0, 0, -2, 0]),
        ([5, 3, 2, 7], 1, [-2, 0, -1, -3]),
        ([0, 9, 0], 2, [0, -4, 0]),
    ],
)
def test_everyone_elses_diet(eaten_counts, owner, diet):
    # Eaten slices: Cheese then Buffalo ids, so counts only matter.
    pool = iter(range(33, 63))
    hs = [
        H(eaten=[next(pool) for _ in range(k)], specials=[DIET] if p == owner else [])
        for p, k in enumerate(eaten_counts)
    ]
    res = score(DECK, hs)
    assert [b.diet for b in res] == diet
    assert res[owner].special_points == {}
    assert all(b.total == b.majorities + b.pepperoni + b.diet + b.anchovies for b in res)


# ---------------------------------------------------------------- pepperoni and anchovies
# id, collected, eaten, specials, (pepperoni, anchovies)
PEPPERONI = [
    ("pepperoni on eaten slices", [], [52, 53, 54], [], (6, 0)),
    ("pepperoni on collected slices counts nothing", [52, 53, 54], [], [], (0, 0)),
    ("anchovies on collected slices", [55, 59], [], [], (0, -2)),
    ("anchovies on eaten slices count nothing", [], [55, 59], [], (3, 0)),
    ("the Anchovy slice is 3", [ANCHOVY], [], [], (0, -3)),
    ("You Like Anchovies! makes them +1", [ANCHOVY, 55, 59], [], [YLA], (0, 5)),
    ("eaten Supreme gives 2", [], [SUPREME], [], (2, 0)),
    ("Veggies and combos carry nothing", [0, COMBO_4_6], [1, COMBO_5_9], [], (0, 0)),
]


@pytest.mark.parametrize(
    "collected,eaten,specials,expected", [p[1:] for p in PEPPERONI], ids=[p[0] for p in PEPPERONI]
)
def test_pepperoni_minus_anchovies(collected, eaten, specials, expected):
    b = score(DECK, [H(collected, eaten, specials), H([62])])[0]
    assert (b.pepperoni, b.anchovies) == expected


@pytest.mark.parametrize("special", UNSTARRED, ids=[s.slug for s in UNSTARRED])
def test_unstarred_specials_score_nothing_themselves(special):
    # No combo, no tie, no anchovy: nothing for Super-Sized, Tie-Breaker or You Like
    # Anchovies! to act on.
    plain = score(DECK, [H([52], [53]), H([33])])
    with_special = score(DECK, [H([52], [53], [special]), H([33])])
    assert with_special == plain
    assert with_special[0].special_points == {} and with_special[0].total == 11 + 2


def test_total_adds_every_component():
    a = H([52, 53, ANCHOVY, COMBO_7_11], [18, 19, COMBO_8_10], [BUF, CC])
    b = H([54, 20, 21], [22, 23, 24], [DIET])
    ra, rb = score(DECK, [a, b])
    # a scores 11 (2.5 vs 1), b scores 7 (2 vs 0.5); eaten combos count for no type.
    # a: Buffet 7, 11 + the Anchovy = 3, Combo Cravings 3; Diet -floor(3/2); pepperoni 1 + 2.
    assert (ra.majorities, ra.specials, ra.diet, ra.pepperoni, ra.anchovies) == (11, 6, -1, 3, -3)
    assert ra.total == 16
    # b: pepperoni 2 + 3 + 1; slice 21 has an anchovy.
    assert (rb.majorities, rb.specials, rb.diet, rb.pepperoni, rb.anchovies) == (7, 0, 0, 6, -1)
    assert rb.total == 12
    assert (ra.eaten_count, ra.collected_count) == (3, 4)


# ---------------------------------------------------------------- what-if options
# The spec's example (Majorities): 3 players, nobody else holds Sausage or Buffalo. A has 3
# Buffalo; B has 2 Buffalo (one with an anchovy) and the 5/9 combo, and owns Super-Sized
# Combos. A's Buffalo count is 6 halves; B's is 4 + halves, its Sausage count the halves.
SPEC_A = H([33, 34, 35])
SPEC_B = H([36, 37, COMBO_5_9], specials=[SSC])
# halves, majority types per seat, totals per seat (B's slice 36 has an anchovy)
HALVES = [
    (1, [(9,), (5,), ()], [9, 4, 0]),  # B: 2½ Buffalo, ½ Sausage (as without the special)
    (2, [(), (5,), ()], [0, 4, 0]),  # B: 3 Buffalo, a tie with A that nobody scores
    (3, [(), (5, 9), ()], [0, 13, 0]),  # B: 3½ Buffalo, 1½ Sausage: the candidate nerf
    (4, [(), (5, 9), ()], [0, 13, 0]),  # the printed rule: 4 Buffalo, 2 Sausage
    (8, [(), (5, 9), ()], [0, 13, 0]),
]


@pytest.mark.parametrize("halves,types,totals", HALVES, ids=[f"halves-{h[0]}" for h in HALVES])
def test_super_sized_combo_halves_on_the_spec_example(halves, types, totals):
    rules = Rules(super_sized_combo_halves=halves)
    res = score(DECK, [SPEC_A, SPEC_B, H()], rules)
    assert [b.majority_types for b in res] == types
    assert [b.total for b in res] == totals
    counts = type_counts_halves(DECK, SPEC_B, rules)
    assert (counts[9], counts[5]) == (4 + halves, halves)
    # Without Super-Sized Combos the option changes nothing.
    plain = H([36, 37, COMBO_5_9])
    assert type_counts_halves(DECK, plain, rules) == type_counts_halves(DECK, plain)


def test_super_sized_combo_halves_with_tie_breaker():
    """At 2 halves B ties A for Buffalo; owning Tie-Breaker too, B scores it."""
    b = H([36, 37, COMBO_5_9], specials=[SSC, TB])
    res = score(DECK, [SPEC_A, b, H()], Rules(super_sized_combo_halves=2))
    assert [r.majority_types for r in res] == [(), (5, 9), ()]


# compensation, first slicer, seats: bonus per seat and totals (A 0, B 13, C 0 without)
COMPENSATION = [
    ((), 0, [0, 0, 0], [0, 13, 0]),
    ((0, 2), 0, [0, 2, 0], [0, 15, 0]),
    ((0, 2), 2, [2, 0, 0], [2, 13, 0]),  # seat 2 slices first, seat 0 second
    ((1, 2, 3), 1, [3, 1, 2], [3, 14, 2]),
    ((0, 0, 0, 0, 0, 20), 0, [0, 0, 0], [0, 13, 0]),  # position 6 of 3 seats: unused
    ((20, 20, 20), 0, [20, 20, 20], [20, 33, 20]),
]


@pytest.mark.parametrize(
    "comp,first,bonus,totals", COMPENSATION, ids=[f"{c[0]}-first-{c[1]}" for c in COMPENSATION]
)
def test_compensation_on_the_spec_example(comp, first, bonus, totals):
    res = score(DECK, [SPEC_A, SPEC_B, H()], Rules(compensation=comp, first_slicer=first))
    assert [b.bonus for b in res] == bonus
    assert [b.total for b in res] == totals
    assert all(
        b.total == b.majorities + b.specials + b.diet + b.pepperoni + b.anchovies + b.bonus
        for b in res
    )
    assert [b.majority_types for b in res] == [(), (5, 9), ()]  # majorities are untouched


@pytest.mark.parametrize(
    "comp,shares",
    [
        ((), [1.0, 0.0]),  # A 11, B 2
        ((0, 8), [1.0, 0.0]),  # A 11, B 10
        ((0, 9), [0.0, 1.0]),  # 11 each: B ate more slices
        ((0, 12), [0.0, 1.0]),
        ((2, 11), [0.0, 1.0]),  # 13 each: B ate more slices
    ],
)
def test_compensation_counts_before_the_winner_and_the_tie_break(comp, shares):
    a = H([52])  # Cheese: 11
    b = H(eaten=[53])  # 2 pepperoni, one slice eaten
    res = score(DECK, [a, b], Rules(compensation=comp))
    assert win_shares(res) == shares


@pytest.mark.parametrize("points", [5, 20, 0, -20])
def test_stuffed_crust_points_is_what_its_owner_scores(points):
    owner = H([52], specials=[Special.STUFFED_CRUST])  # Cheese: 11
    res = score(DECK, [owner, H()], Rules(stuffed_crust_points=points))
    assert res[0].specials == points
    assert res[0].total == 11 + points
    assert res[1].total == 0


# id, specials, collected, eaten, the points options, special points
STARRED_POINTS = [
    ("Day-Old Pizza 0", [DAY], [52], [], {"day_old_pizza_points": 0}, {"day_old_pizza": 0}),
    ("Day-Old Pizza -20", [DAY], [], [], {"day_old_pizza_points": -20}, {"day_old_pizza": -20}),
    ("Day-Old Pizza +20", [DAY], [], [], {"day_old_pizza_points": 20}, {"day_old_pizza": 20}),
    ("Cravings 5 per combo, two eaten", [CC], [COMBO_5_9], [COMBO_8_10, COMBO_4_6],
     {"combo_cravings_points": 5}, {"combo_cravings": 10}),
    ("Cravings -6, one eaten", [CC], [], [COMBO_7_11], {"combo_cravings_points": -6},
     {"combo_cravings": -6}),
    ("Cravings 6, none eaten", [CC], [COMBO_5_9], [52], {"combo_cravings_points": 6},
     {"combo_cravings": 0}),
    ("Veggies 6 per Veggie, two eaten", [YLV], [2], [0, 1], {"you_love_veggies_points": 6},
     {"you_love_veggies": 12}),
    ("Veggies 0", [YLV], [], [0, 1, 2], {"you_love_veggies_points": 0},
     {"you_love_veggies": 0}),
    ("Veggies -6, the Supreme is no Veggie", [YLV], [], [0, SUPREME],
     {"you_love_veggies_points": -6}, {"you_love_veggies": -6}),
    ("Buffet 2: Cheese and the Anchovy slice", [BUF], [52, ANCHOVY], [], {"buffet_points": 2},
     {"buffet": 4}),
    ("Buffet 2: the spec's example scores 6", [BUF], [COMBO_8_10, 25, ANCHOVY], [],
     {"buffet_points": 2}, {"buffet": 6}),
    ("Buffet -3: every type and the Anchovy", [BUF],
     [0, 3, 7, 12, 18, 25, 33, 42, 52, ANCHOVY], [], {"buffet_points": -3}, {"buffet": -30}),
    ("options of tiles not owned change nothing", [STUF], [52], [COMBO_4_6, 0],
     {"day_old_pizza_points": 9, "combo_cravings_points": 6, "you_love_veggies_points": 6,
      "buffet_points": 3}, {"stuffed_crust": 5}),
    ("several at once", [BUF, DAY, CC], [52], [COMBO_4_6],
     {"buffet_points": 3, "day_old_pizza_points": -5, "combo_cravings_points": 4},
     {"buffet": 3, "day_old_pizza": -5, "combo_cravings": 4}),
]  # fmt: skip


@pytest.mark.parametrize(
    "specials,collected,eaten,options,points",
    [s[1:] for s in STARRED_POINTS],
    ids=[s[0] for s in STARRED_POINTS],
)
def test_the_starred_specials_points_options_set_what_their_owner_scores(
    specials, collected, eaten, options, points
):
    b = score(DECK, [H(collected, eaten, specials), H()], Rules(**options))[0]
    assert b.special_points == points
    assert b.specials == sum(points.values())
    assert b.total == b.majorities + b.specials + b.diet + b.pepperoni + b.anchovies


# ---------------------------------------------------------------- winner
def _bd(total, eaten):
    return Breakdown(0, 0, 0, 0, 0, total, (), {}, eaten, 0)


@pytest.mark.parametrize(
    "totals,eaten,shares",
    [
        ([10, 12, 11], [5, 0, 9], [0.0, 1.0, 0.0]),
        ([12, 12, 11], [3, 4, 9], [0.0, 1.0, 0.0]),  # tie: most eaten slices
        ([12, 12, 11], [4, 4, 9], [0.5, 0.5, 0.0]),  # still tied: shared
        ([7, 7, 7, 7], [2, 2, 2, 1], [1 / 3, 1 / 3, 1 / 3, 0.0]),
        ([-3, -3], [0, 0], [0.5, 0.5]),
    ],
)
def test_winner_total_then_eaten_slices_then_shared(totals, eaten, shares):
    assert win_shares([_bd(t, e) for t, e in zip(totals, eaten, strict=True)]) == shares


def test_tie_break_counts_slices_not_pepperoni():
    # Both total 14: a ate one 3-pepperoni slice, b two 1-pepperoni slices; b wins.
    a = H([52], [54])  # Cheese 11 + 3
    b = H([33, 0], [7, 12])  # Buffalo 9 + Veggie 3 + 1 + 1
    res = score(DECK, [a, b])
    assert [(r.total, r.pepperoni, r.eaten_count) for r in res] == [(14, 3, 1), (14, 2, 2)]
    assert win_shares(res) == [0.0, 1.0]


# ---------------------------------------------------------------- the engine uses the scoring
WHATIF_RULES = Rules(super_sized_combo_halves=3, compensation=(0, 2, 1, 0, 3, 5), first_slicer=1)


@pytest.mark.parametrize("rules", [Rules(), WHATIF_RULES], ids=["printed", "what-if"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_engine_scores_are_the_scoring_of_its_holdings(n, rules):
    state = GameState(DECK, rules, n, deal(DECK, n, np.random.default_rng(100 + n)))
    finish(state)
    assert state.scores() == score(DECK, [state.holdings(s) for s in range(n)], rules)
    assert [b.bonus for b in state.scores()] == [rules.bonus(p, n) for p in range(n)]
    assert state.win_shares() == win_shares(state.scores())
    assert sum(state.win_shares()) == pytest.approx(1.0)
    assert state.events[-1] == ("end", tuple(b.total for b in state.scores()))
    # The score rows (what both engines write) follow the kernel's SCORE_COLUMNS.
    for p, (row, b) in enumerate(zip(score_rows(state), state.scores(), strict=True)):
        owned, used = special_masks(state, p)
        assert dict(zip(SCORE_COLUMNS, row, strict=True)) == {
            "majorities": b.majorities,
            "specials": b.specials,
            "diet": b.diet,
            "pepperoni": b.pepperoni,
            "anchovies": b.anchovies,
            "total": b.total,
            "eaten": b.eaten_count,
            "collected": b.collected_count,
            "owned_mask": owned,
            "used_mask": used,
            "majorities_won": len(b.majority_types),
            "bonus": b.bonus,
        }
