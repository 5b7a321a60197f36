"""A round of New York Slice: special replacement, the cut, choosing, eating and the Supreme.

Scripted positions for steps 1–2, 4 and 6–9 of the spec's "A round" (Dibs!, Cut in Line,
Sneak-a-Slice and the other specials are in ``test_nyslice_specials.py``).
"""

import dataclasses
from itertools import combinations
from math import comb

import numpy as np
import pytest
from nyslice_helpers import (
    ANCHOVY,
    COMBO_5_9,
    COMBO_7_11,
    COMBO_8_10,
    DECK,
    SUPREME,
    answer,
    cut,
    finish,
    make_deal,
    new_game,
    portions,
    step,
    take,
)

from sims.core.errors import SlicelabError
from sims.games.nyslice.cuts import cut_count, decode_cut
from sims.games.nyslice.deck import Special
from sims.games.nyslice.engine import GameState, Phase, deal
from sims.games.nyslice.rules import Rules

CIL, DIBS, SNEAK = Special.CUT_IN_LINE, Special.DIBS, Special.SNEAK_A_SLICE
MYST, CC, YLV = Special.MYSTERY_SLICE, Special.COMBO_CRAVINGS, Special.YOU_LOVE_VEGGIES
SEC, SSC, TB, YLA = (
    Special.SECONDS,
    Special.SUPER_SIZED_COMBOS,
    Special.TIE_BREAKER,
    Special.YOU_LIKE_ANCHOVIES,
)
BUF, DAY, DIET, STUF = (
    Special.BUFFET,
    Special.DAY_OLD_PIZZA,
    Special.EVERYONE_ELSES_DIET,
    Special.STUFFED_CRUST,
)


def _rest(*used):
    """The specials not in ``used``, in a fixed order (a replacement pile)."""
    return [
        s
        for s in (STUF, DAY, BUF, TB, SSC, YLA, DIET, MYST, CC, SEC, SNEAK, YLV, DIBS, CIL)
        if s not in used
    ]


# ---------------------------------------------------------------- special replacement
# id, players, stack specials, replacement pile, [(special in play, rejected tiles)] per round
REPLACEMENT = [
    (
        "2p CIL, Dibs, YLV always; Sneak in last round",
        2,
        [CIL, DIBS, YLV, SNEAK],
        [MYST, CC, SEC, SSC, TB, YLA, BUF, DAY, DIET, STUF],
        [(MYST, (CIL,)), (CC, (DIBS,)), (SEC, (YLV,)), (SSC, (SNEAK,))],
    ),
    (
        "2p repeated replacement",
        2,
        [CIL, SNEAK, MYST, CC],
        [DIBS, YLV, STUF, *_rest(CIL, SNEAK, MYST, CC, DIBS, YLV, STUF)],
        [(STUF, (CIL, DIBS, YLV)), (SNEAK, ()), (MYST, ()), (CC, ())],
    ),
    (
        "2p last round: Sneak, then Cut in Line",
        2,
        [MYST, CC, SEC, SNEAK],
        [CIL, BUF, *_rest(MYST, CC, SEC, SNEAK, CIL, BUF)],
        [(MYST, ()), (CC, ()), (SEC, ()), (BUF, (SNEAK, CIL))],
    ),
    (
        "3p all four are fine before the last round",
        3,
        [CIL, SNEAK, DIBS, YLV, MYST, CC],
        _rest(CIL, SNEAK, DIBS, YLV, MYST, CC),
        [(CIL, ()), (SNEAK, ()), (DIBS, ()), (YLV, ()), (MYST, ()), (CC, ())],
    ),
    (
        "3p last round: Cut in Line, then Sneak",
        3,
        [MYST, CC, SEC, SSC, TB, CIL],
        [SNEAK, BUF, *_rest(MYST, CC, SEC, SSC, TB, CIL, SNEAK, BUF)],
        [(MYST, ()), (CC, ()), (SEC, ()), (SSC, ()), (TB, ()), (BUF, (CIL, SNEAK))],
    ),
    (
        "3p last round: Dibs! and You Love Veggies stay",
        3,
        [MYST, CC, SEC, SSC, YLV, DIBS],
        _rest(MYST, CC, SEC, SSC, YLV, DIBS),
        [(MYST, ()), (CC, ()), (SEC, ()), (SSC, ()), (YLV, ()), (DIBS, ())],
    ),
]
for _n, _rounds in [(4, 6), (5, 5), (6, 6)]:
    _early = [STUF, DAY, BUF, TB, YLA, DIET][: _rounds - 1]
    REPLACEMENT.append(
        (
            f"{_n}p last round: Sneak-a-Slice, then Cut in Line",
            _n,
            [*_early, SNEAK],
            [CIL, MYST, *_rest(*_early, SNEAK, CIL, MYST)],
            [(s, ()) for s in _early] + [(MYST, (SNEAK, CIL))],
        )
    )


@pytest.mark.parametrize(
    "n,specials,replacement,expected", [r[1:] for r in REPLACEMENT], ids=[r[0] for r in REPLACEMENT]
)
def test_special_replacement(n, specials, replacement, expected):
    state = new_game(n, [], specials, replacement=replacement)
    finish(state)
    rounds = [(e[3], e[4]) for e in state.events if e[0] == "round"]
    assert rounds == expected
    # Ruling: the rejected tile leaves the game; nobody owns it and it is not drawn again.
    rejected = {s for _, rej in expected for s in rej}
    owned = {s for p in state.players for s in p.specials}
    assert owned == {s for s, _ in expected}
    assert not rejected & (owned | set(state.replacement))
    drawn = sum(len(rej) for _, rej in expected)
    assert state.replacement == replacement[drawn:]


@pytest.mark.parametrize(
    "rejected_special,pile_after_round_0",
    [
        ("leaves", [MYST, SEC, BUF, SSC, YLA, DIET, SNEAK]),
        ("bottom", [MYST, SEC, BUF, SSC, YLA, DIET, SNEAK, CIL, DIBS, YLV]),
    ],
)
def test_rejected_tile_leaves_or_goes_to_the_bottom(rejected_special, pile_after_round_0):
    state = new_game(
        2,
        [],
        [CIL, STUF, DAY, TB],
        rules=Rules(rejected_special=rejected_special),
        replacement=[DIBS, YLV, CC, MYST, SEC, BUF, SSC, YLA, DIET, SNEAK],
    )
    finish(state, stop=lambda s: s.round == 1)
    assert [e[3:5] for e in state.events if e[0] == "round"][0] == (CC, (CIL, DIBS, YLV))
    assert state.replacement == pile_after_round_0


def test_unknown_rejected_special_option_is_refused():
    with pytest.raises(SlicelabError, match="rejected_special"):
        Rules(rejected_special="shuffle")


# ---------------------------------------------------------------- the cut
# Distinct legal cuts: C(m, n-1) (1 if n-1 == 1) with the special alone + n * C(m, n) attached.
CUTS_11 = {2: 111, 3: 550, 4: 1485, 5: 2640, 6: 3234}
CUTS_10 = {2: 91, 3: 405, 4: 960, 5: 1470, 6: 1512}
LINE_10 = {2: 19, 3: 117, 4: 372, 5: 714, 6: 882}  # after Dibs! with dibs_closes_circle=False


@pytest.mark.parametrize(
    "m,n,circular,count",
    [(11, n, True, c) for n, c in CUTS_11.items()]
    + [(10, n, True, c) for n, c in CUTS_10.items()]
    + [(10, n, False, c) for n, c in LINE_10.items()],
)
def test_cut_count_formula(m, n, circular, count):
    k_alone = n - 1
    if circular:
        formula = (1 if k_alone == 1 else comb(m, k_alone)) + n * comb(m, n)
    else:
        formula = comb(m - 1, k_alone - 1) + n * comb(m - 1, n - 1)
    assert cut_count(m, n, circular) == formula == count


def _brute_cuts(m: int, n: int, circular: bool) -> set:
    """Every way to cut m positions into n portions, by brute force over boundaries."""
    out = set()
    for k, attaches in ((n - 1, [None]), (n, range(n))):
        starts = (
            combinations(range(m), k)
            if circular
            else ((0, *c) for c in combinations(range(1, m), k - 1))
        )
        for st in starts:
            arcs = []
            for i, s in enumerate(st):
                end = st[i + 1] if i + 1 < k else (st[0] + m if circular else m)
                arcs.append(frozenset(x % m for x in range(s, end)))
            for a in attaches:
                out.add(frozenset((arc, i == a) for i, arc in enumerate(arcs)))
    return out


@pytest.mark.parametrize("circular", [True, False])
@pytest.mark.parametrize("m", [11, 10])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_every_cut_is_distinct_contiguous_and_non_empty(n, m, circular):
    seen = set()
    for rank in range(cut_count(m, n, circular)):
        arcs, attach = decode_cut(m, n, circular, rank)
        assert len(arcs) == (n - 1 if attach < 0 else n)
        positions = []
        for start, length in arcs:
            assert length >= 1  # every portion holds a slice (or is the special alone)
            assert circular or start + length <= m  # a line does not wrap round its gap
            positions.append(frozenset((start + j) % m for j in range(length)))
        assert sorted(p for arc in positions for p in arc) == list(range(m))
        seen.add(frozenset((arc, i == attach) for i, arc in enumerate(positions)))
    assert len(seen) == cut_count(m, n, circular)
    assert seen == _brute_cuts(m, n, circular)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_cut_decision_offers_every_cut_of_11_slices(n):
    state = GameState(DECK, Rules(), n, deal(DECK, n, np.random.default_rng(n)))
    d = state.decision()
    assert (d.phase, d.player) == (Phase.CUT, 0)
    assert list(d.legal) == list(range(CUTS_11[n]))


@pytest.mark.parametrize("closes", [True, False])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_cut_after_dibs_has_10_slices(n, closes):
    # Default play hands the round-0 special (alone, listed last) to the slicer, seat 0.
    state = new_game(n, [], [DIBS], rules=Rules(dibs_closes_circle=closes))
    finish(state, stop=lambda s: s.round == 1)
    stack = list(state.deal.stacks[1])
    step(state, Phase.DIBS, 1 + 4, player=0)  # take position 4
    answer(state, 0)
    d = state.decision()
    assert d.phase == Phase.CUT
    assert len(d.legal) == (CUTS_10 if closes else LINE_10)[n]
    # The circle closes up (the taken slice's neighbours touch) or is cut as a line.
    if closes:
        assert state.circular and state.pizza == stack[:4] + stack[5:]
    else:
        assert not state.circular and state.pizza == stack[5:] + stack[:4]
    m = len(state.pizza)
    i, j = state.pizza.index(stack[3]), state.pizza.index(stack[5])
    together = 0
    for rank in d.legal:
        arcs, _ = decode_cut(m, n, state.circular, rank)
        for s, k in arcs:
            pos = [(s + x) % m for x in range(k)]
            together += i in pos and j in pos
    assert (together > 0) == closes


# id, arcs as positions of the stack, special joined to (None: alone), portions
CUT_CASES = [
    ("3 arcs, special on the middle", [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10]], 1),
    ("special alone", [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], None),
    ("special alone, wrapping arc", [[2, 3, 4, 5, 6, 7, 8], [9, 10, 0, 1]], None),
    ("wrapping arc holds the special", [[1], [2, 3, 4, 5, 6, 7, 8, 9], [10, 0]], 2),
    ("single slices", [[0], [1], [2, 3, 4, 5, 6, 7, 8, 9, 10]], 0),
]


@pytest.mark.parametrize(
    "arcs,special_with", [c[1:] for c in CUT_CASES], ids=[c[0] for c in CUT_CASES]
)
def test_cut_makes_these_portions(arcs, special_with):
    state = new_game(3, [list(range(52, 63))])
    cut(state, [[52 + p for p in a] for a in arcs], special_with)
    expected = [([52 + p for p in a], i == special_with) for i, a in enumerate(arcs)]
    if special_with is None:
        expected.append(([], True))
    assert portions(state) == expected
    # The chooser of the special's portion gets the special and the portion's slices.
    idx = len(state.portions) - 1 if special_with is None else special_with
    take(state, idx)
    assert Special.STUFFED_CRUST in state.players[1].specials
    assert state.players[1].collected == expected[idx][0]


# ---------------------------------------------------------------- choosing order
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_choosing_order_left_of_slicer_clockwise_slicer_last(n):
    state = GameState(DECK, Rules(), n, deal(DECK, n, np.random.default_rng(10 + n)))
    seen = finish(state)
    per_round: list[tuple[int, list[int]]] = []  # (slicer, choosers in order)
    for e in state.events:
        if e[0] == "round":
            per_round.append((e[2], []))
        elif e[0] == "choose":
            per_round[-1][1].append(e[1])
    assert len(per_round) == state.rounds
    for slicer, seats in per_round:
        assert seats == [(slicer + 1 + i) % n for i in range(n)]
    # The slicer's pick is the one portion left: never a decision.
    for d in seen:
        if d.phase == Phase.CHOOSE:
            assert len(d.legal) >= 2


def test_a_choice_is_complete_before_the_next_player_chooses():
    state = GameState(DECK, Rules(), 4, deal(DECK, 4, np.random.default_rng(3)))
    while not state.terminal:
        d = state.decision()
        state.apply(d.legal[-1])  # eat whatever is edible, so EAT decisions interleave
    chooser = None
    for e in state.events:
        if e[0] == "choose":
            chooser = e[1]
        elif e[0] in ("eat", "collect") and e[3] == "portion":
            assert e[1] == chooser


def test_chooser_may_take_any_untaken_portion():
    state = new_game(4, [list(range(52, 63))])
    cut(state, [[52, 53], [54, 55, 56], [57, 58, 59]] + [[60, 61, 62]], 3)
    assert list(state.legal_actions()) == [0, 1, 2, 3]
    take(state, 2)
    assert list(state.legal_actions()) == [0, 1, 3]
    take(state, 0)
    assert list(state.legal_actions()) == [1, 3]
    take(state, 3)
    # The slicer's last portion is forced: taken without a decision.
    assert [p.taken_by for p in state.portions] == [2, 0, 1, 3]
    assert state.decision().player == 0 and state.decision().phase == Phase.EAT


# ---------------------------------------------------------------- eat or collect
def _edible_in_first_round(x, special, rules):
    state = new_game(3, [[x]], [special], rules=rules)
    pz = state.pizza
    cut(state, [[x], pz[1:6], pz[6:]], special_with=0)
    step(state, Phase.CHOOSE, 0, player=1)
    d = state.decision()
    edible = d.phase == Phase.EAT and d.player == 1 and d.slice == x
    if not edible:
        assert x in state.players[1].collected  # collected without asking
    return edible, d


def _edible_in_later_round(x, special, rules):
    # Round 0: seat 2 takes the special; round 1: seat 2 chooses first and takes x.
    state = new_game(3, [[61], [x]], [special, STUF], rules=rules)
    pz = state.pizza
    cut(state, [[61], pz[1:6], pz[6:]], special_with=0)
    take(state, 1)
    take(state, 0)
    answer(state, 0)
    assert special in state.players[2].specials
    pz = state.pizza
    cut(state, [[x], pz[1:6], pz[6:]], special_with=1)
    step(state, Phase.CHOOSE, 0, player=2)
    d = state.decision()
    return d.phase == Phase.EAT and d.player == 2 and d.slice == x, d


D, LATER = Rules(), Rules(veggies_edible_later=True)
# id, slice, special, rules, edible when the portion brings the special, edible a round later
EDIBLE = [
    ("pepperoni slice", 52, STUF, D, True, True),
    ("supreme", SUPREME, STUF, D, True, True),
    ("veggie", 0, STUF, D, False, False),
    ("veggie, You Love Veggies", 0, YLV, D, True, False),
    ("veggie, You Love Veggies, veggies_edible_later", 0, YLV, LATER, True, True),
    ("veggie, other special, veggies_edible_later", 0, STUF, LATER, False, False),
    ("combo", COMBO_8_10, STUF, D, False, False),
    ("combo, Combo Cravings", COMBO_8_10, CC, D, True, True),
    ("combo, You Love Veggies", COMBO_7_11, YLV, D, False, False),
    ("anchovy", ANCHOVY, STUF, D, False, False),
    ("anchovy, You Like Anchovies!", ANCHOVY, YLA, D, False, False),
    ("anchovy, Combo Cravings", ANCHOVY, CC, D, False, False),
]


@pytest.mark.parametrize(
    "x,special,rules,now,later", [e[1:] for e in EDIBLE], ids=[e[0] for e in EDIBLE]
)
def test_edibility(x, special, rules, now, later):
    edible, d = _edible_in_first_round(x, special, rules)
    assert edible == now
    if edible:
        assert d.legal == (0, 1) and d.portion_special == special
    assert _edible_in_later_round(x, special, rules)[0] == later


def test_anchovy_slice_never_edible_even_with_pepperoni():
    # The deck is data: an Anchovy slice printed with pepperoni is still never edible.
    slices = list(DECK.slices)
    slices[ANCHOVY] = dataclasses.replace(slices[ANCHOVY], pepperoni=2)
    deck = dataclasses.replace(DECK, slices=tuple(slices))
    state = GameState(deck, Rules(), 3, make_deal(3, [[ANCHOVY]], [YLA]))
    pz = state.pizza
    cut(state, [[ANCHOVY], pz[1:6], pz[6:]], special_with=0)
    step(state, Phase.CHOOSE, 0, player=1)
    assert state.decision().player == 2  # no EAT decision for seat 1
    assert state.players[1].collected == [ANCHOVY]


def test_eat_puts_face_down_and_collect_face_up():
    state = new_game(3, [list(range(52, 63))])
    cut(state, [[52, 53, 54], [55, 56, 57, 58], [59, 60, 61, 62]], 0)
    take(state, 0, eat={53})
    p = state.players[1]
    assert (p.collected, p.eaten) == ([52, 54], [53])
    assert [e for e in state.events if e[0] in ("eat", "collect")] == [
        ("collect", 1, 52, "portion"),
        ("eat", 1, 53, "portion"),
        ("collect", 1, 54, "portion"),
    ]


# ---------------------------------------------------------------- the Supreme
def _supreme_position(rules):
    """Round 0: seat 2 collects the 5/9 combo and a 7. Round 1: seat 2 takes Supreme + a 6."""
    state = new_game(
        3, [[COMBO_5_9, 18, *range(52, 61)], [SUPREME, 12, *range(33, 42)]], rules=rules
    )
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 2)
    take(state, 1)
    take(state, 0)  # seat 2: combo collected (inedible), 18 collected
    answer(state, 0)
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 2)
    step(state, Phase.CHOOSE, 0, player=2)
    step(state, Phase.EAT, 0, player=2)  # collect the Supreme
    step(state, Phase.EAT, 0, player=2)  # collect the 6
    return state


# rules, legal types offered (None: a single type, assigned without asking), type assigned
SUPREME_CASES = [
    ("held numbered and combo types + same portion", Rules(), (5, 6, 7, 9), 9),
    ("supreme_from_combo=False", Rules(supreme_from_combo=False), (6, 7), 6),
    ("supreme_same_portion=False", Rules(supreme_same_portion=False), (5, 7, 9), 5),
    ("both off", Rules(supreme_from_combo=False, supreme_same_portion=False), None, 7),
]


@pytest.mark.parametrize(
    "rules,legal,assigned", [c[1:] for c in SUPREME_CASES], ids=[c[0] for c in SUPREME_CASES]
)
def test_supreme_assignment(rules, legal, assigned):
    state = _supreme_position(rules)
    if legal is None:
        assert state.decision().phase != Phase.SUPREME
    else:
        step(state, Phase.SUPREME, assigned, player=2)
    assert (state.supreme_holder, state.supreme_type) == (2, assigned)
    assert ("supreme", 2, assigned) in state.events
    # Assigned for good: it counts as one slice of that type at scoring.
    finish(state)
    assert state.holdings(2).supreme_type == assigned


@pytest.mark.parametrize("rules,legal", [(c[1], c[2]) for c in SUPREME_CASES if c[2]])
def test_supreme_assignment_offers_exactly_the_eligible_types(rules, legal):
    state = _supreme_position(rules)
    d = state.decision()
    assert (d.phase, d.player, tuple(d.legal)) == (Phase.SUPREME, 2, legal)


def test_waiting_supreme_anchovy_not_eligible_then_first_collection_with_a_type():
    # r0: seat 2 collects Anchovy + Supreme -> nothing eligible, the Supreme waits.
    # r1: seat 2 eats its only slice -> no collection, still waiting.
    # r2: seat 2 (slicer, last pick) collects only the 7/11 combo -> assigned to 7 or 11.
    stacks = [[ANCHOVY, SUPREME], [52], [COMBO_7_11]]
    state = new_game(3, stacks)
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 2)
    take(state, 1)
    step(state, Phase.CHOOSE, 0, player=2)  # the Anchovy is collected without asking
    d = state.decision()
    assert (d.phase, d.player, d.slice) == (Phase.EAT, 2, SUPREME)
    state.apply(0)
    assert state.players[2].collected == [ANCHOVY, SUPREME]
    assert (state.supreme_holder, state.supreme_type) == (2, 0)
    assert state.decision().player == 0  # no Supreme decision
    answer(state, 0)
    pz = state.pizza
    cut(state, [pz[:1], pz[1:6], pz[6:]], 1)
    take(state, 0, eat={52})
    assert (state.supreme_holder, state.supreme_type) == (2, 0)
    take(state, 1)
    answer(state, 1)
    pz = state.pizza
    cut(state, [pz[:1], pz[1:6], pz[6:]], 1)
    take(state, 1)
    take(state, 2)
    d = state.decision()
    assert (d.phase, d.player, tuple(d.legal)) == (Phase.SUPREME, 2, (7, 11))
    state.apply(11)
    assert state.supreme_type == 11


@pytest.mark.parametrize("late_any_type,legal", [(False, None), (True, (6, 7))])
def test_waiting_supreme_takes_a_type_of_the_freeing_collection(late_any_type, legal):
    # With supreme_same_portion=False the 7 collected beside the Supreme does not count, so
    # it waits; the next collection (a 6) frees it: to the 6 only, or (option) any held type.
    rules = Rules(supreme_same_portion=False, supreme_late_any_type=late_any_type)
    state = new_game(3, [[SUPREME, 18], [12]], rules=rules)
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 2)
    take(state, 1)
    take(state, 0)
    assert (state.supreme_holder, state.supreme_type) == (2, 0)
    answer(state, 0)
    pz = state.pizza
    cut(state, [pz[:1], pz[1:6], pz[6:]], 1)
    step(state, Phase.CHOOSE, 0, player=2)
    step(state, Phase.EAT, 0, player=2)
    d = state.decision()
    if legal is None:
        assert state.supreme_type == 6 and d.phase != Phase.SUPREME
    else:
        assert (d.phase, tuple(d.legal)) == (Phase.SUPREME, legal)
        state.apply(7)
        assert state.supreme_type == 7


def test_supreme_taken_by_a_numbered_type_of_the_same_portion_when_nothing_held():
    state = new_game(3, [[SUPREME, 18]])
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 2)
    take(state, 1)
    take(state, 0)  # one eligible type (7): assigned without asking
    assert (state.supreme_holder, state.supreme_type) == (2, 7)


def test_unassigned_supreme_at_the_end_counts_for_nothing():
    # One round (the last): seat 1 collects Anchovy + Supreme and owns Buffet.
    state = new_game(3, [[ANCHOVY, SUPREME, *range(52, 61)]], [BUF], full=False)
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 0)
    take(state, 0)
    finish(state)
    assert (state.supreme_holder, state.supreme_type) == (1, 0)
    b = state.scores()[1]
    assert b.majority_types == ()
    assert b.special_points == {"buffet": 1}  # no type; +1 for the Anchovy slice
    assert (b.pepperoni, b.anchovies, b.total) == (0, -3, -2)


def test_eaten_supreme_gives_2_and_has_no_type():
    state = new_game(3, [[SUPREME, 18, *range(52, 61)]], [STUF], full=False)
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 2)
    take(state, 0, eat={SUPREME})
    finish(state)
    assert (state.supreme_holder, state.supreme_type) == (-1, 0)
    b = state.scores()[1]
    assert (b.pepperoni, b.majority_types, b.total) == (2, (7,), 9)
