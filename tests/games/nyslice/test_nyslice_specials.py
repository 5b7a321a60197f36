"""The in-game Today's Specials of New York Slice, on scripted positions.

Cut in Line, Dibs!, Sneak-a-Slice, Mystery Slice, Combo Cravings and You Love Veggies
(on receipt), and Seconds. The specials that only score are in ``test_nyslice_scoring.py``.
"""

import dataclasses

import pytest
from nyslice_helpers import (
    COMBO_4_6,
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

from sims.games.nyslice.cuts import arc_count
from sims.games.nyslice.deck import Special
from sims.games.nyslice.engine import GameState, Phase
from sims.games.nyslice.rules import Rules, rounds_for

CIL, DIBS, SNEAK = Special.CUT_IN_LINE, Special.DIBS, Special.SNEAK_A_SLICE
MYST, CC, YLV, SEC = (
    Special.MYSTERY_SLICE,
    Special.COMBO_CRAVINGS,
    Special.YOU_LOVE_VEGGIES,
    Special.SECONDS,
)


def _offers(state, phase, act=lambda state: 0, attach=False):
    """Play on (first legal action), answering ``phase`` with ``act``; return the
    ``(round, player)`` of every ``phase`` decision offered. ``attach``: cut n-1
    single slices and one long arc, the special on the first, so Sneak-a-Slice has moves."""
    out = []
    while not state.terminal:
        d = state.decision()
        if d.phase == phase:
            out.append((state.round, d.player))
            state.apply(act(state))
        elif d.phase == Phase.CUT and attach:
            state.apply(arc_count(len(state.pizza), state.n - 1, state.circular))
        else:
            state.apply(d.legal[0])
    return out


def _choosers(state, rnd):
    """Seats in the order they took a portion in round ``rnd``."""
    out, r = [], -1
    for e in state.events:
        if e[0] == "round":
            r = e[1]
        elif e[0] == "choose" and r == rnd:
            out.append(e[1])
    return out


def _at_round(n, rnd, specials, rules=None):
    """A game stopped at the start of round ``rnd``; first-legal-action play hands each
    early round's special (a portion alone) to that round's slicer."""
    state = new_game(n, [], specials, rules=rules)
    finish(state, stop=lambda s: s.round == rnd)
    return state


# ---------------------------------------------------------------- Cut in Line
def test_cut_in_line_offered_from_a_later_round_and_never_to_the_slicer():
    # 4p: seat 0 (slicer) gets Cut in Line in round 0 and always passes.
    state = new_game(4, [], [CIL])
    assert _offers(state, Phase.CUT_IN_LINE) == [(1, 0), (2, 0), (3, 0), (5, 0)]
    assert CIL not in state.players[0].used


def test_cut_in_line_right_after_the_cut_then_others_in_normal_order():
    state = _at_round(4, 1, [CIL])
    assert state.slicer == 1
    step(state, Phase.CUT, 0, player=1)
    d = step(state, Phase.CUT_IN_LINE, 1, player=0)
    assert tuple(d.legal) == (0, 1)
    assert ("cut_in_line", 0) in state.events
    assert state.decision().phase == Phase.CHOOSE and state.decision().player == 0
    # One use: never offered again.
    assert _offers(state, Phase.CUT_IN_LINE) == []
    assert _choosers(state, 1) == [0, 2, 3, 1]
    assert _choosers(state, 2) == [3, 0, 1, 2]
    assert CIL in state.players[0].used


def test_cut_in_line_usable_in_the_last_round():
    # 4p: passed in rounds 1-3, used in the last round (slicer 1): 0 jumps ahead of 2 and 3.
    state = new_game(4, [], [CIL])
    offers = _offers(state, Phase.CUT_IN_LINE, act=lambda s: int(s.round == 5))
    assert offers == [(1, 0), (2, 0), (3, 0), (5, 0)]
    assert _choosers(state, 5) == [0, 2, 3, 1]
    assert _choosers(state, 3) == [0, 1, 2, 3]


def test_cut_in_line_pass_keeps_normal_order():
    state = _at_round(3, 1, [CIL])
    step(state, Phase.CUT, 0, player=1)
    step(state, Phase.CUT_IN_LINE, 0, player=0)
    assert state.decision().player == 2
    finish(state)
    assert _choosers(state, 1) == [2, 0, 1]


# ---------------------------------------------------------------- Dibs!
def test_dibs_before_the_cut_eat_or_collect_at_once():
    state = _at_round(3, 1, [DIBS])
    stack = list(state.deal.stacks[1])
    d = step(state, Phase.DIBS, 1 + 2, player=0)  # take position 2
    assert list(d.legal) == list(range(12))
    d = step(state, Phase.EAT, 1, player=0)  # decided at once, before the cut
    assert d.slice == stack[2] and d.portion_special is None
    assert state.players[0].eaten == [stack[2]]
    assert ("dibs", 0, stack[2]) in state.events
    assert state.decision().phase == Phase.CUT
    assert state.pizza == stack[:2] + stack[3:]
    assert DIBS in state.players[0].used
    # One use.
    assert _offers(state, Phase.DIBS) == []


def test_dibs_inedible_slice_is_collected_without_asking():
    state = new_game(3, [[], [0]], [DIBS])  # round 1's stack starts with a Veggie
    finish(state, stop=lambda s: s.round == 1)
    step(state, Phase.DIBS, 1 + 0, player=0)
    assert state.decision().phase == Phase.CUT
    assert 0 in state.players[0].collected


def test_dibs_supreme_is_assigned_from_held_types():
    state = new_game(3, [list(range(52, 63)), [SUPREME]], [DIBS])
    cut(state, [list(range(52, 56)), list(range(56, 60)), list(range(60, 63))], 2)
    take(state, 0)
    take(state, 1)
    answer(state, 0)  # seat 0 gets 60-62 (Cheese) and Dibs!
    step(state, Phase.DIBS, 1 + 0, player=0)
    step(state, Phase.EAT, 0, player=0)  # collect the Supreme: held types are Cheese only
    assert (state.supreme_holder, state.supreme_type) == (0, 11)


@pytest.mark.parametrize("slicer_may_use,rounds", [(True, [1, 2, 3, 4, 5]), (False, [1, 2, 4, 5])])
def test_dibs_offered_each_later_round_while_unused(slicer_may_use, rounds):
    # Seat 0 gets Dibs! in round 0 and slices again in round 3.
    state = new_game(3, [], [DIBS], rules=Rules(dibs_slicer_may_use=slicer_may_use))
    assert _offers(state, Phase.DIBS) == [(r, 0) for r in rounds]


def test_dibs_used_by_the_slicer():
    state = _at_round(3, 3, [DIBS])
    assert state.slicer == 0
    step(state, Phase.DIBS, 1 + 10, player=0)
    answer(state, 0)
    d = state.decision()
    assert (d.phase, d.player, len(d.legal)) == (Phase.CUT, 0, 405)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_dibs_revealed_in_the_last_round_is_dead(n):
    quiet = [
        Special.STUFFED_CRUST,
        Special.DAY_OLD_PIZZA,
        Special.BUFFET,
        Special.TIE_BREAKER,
        Special.SUPER_SIZED_COMBOS,
    ][: rounds_for(n) - 1]
    state = new_game(n, [], [*quiet, DIBS])
    assert _offers(state, Phase.DIBS) == []
    last = [e for e in state.events if e[0] == "round"][-1]
    assert (last[3], last[4]) == (DIBS, ())
    assert state.owner(DIBS) >= 0  # somebody owns it, and it never could be used


# ---------------------------------------------------------------- Sneak-a-Slice
def _sneak_round(rnd, arcs_pos, special_with, taken=(), rules=None):
    """4p: seat 0 owns Sneak-a-Slice from round 0; in round ``rnd`` the slicer cuts
    ``arcs_pos`` (stack positions) and the seats before seat 0 take ``taken``."""
    state = _at_round(4, rnd, [SNEAK], rules)
    st = state.pizza
    cut(state, [[st[p] for p in a] for a in arcs_pos], special_with)
    for idx in taken:
        take(state, idx)
    return state, st


T, F = True, False
ABCD = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10]]
# id, round (seat 0 chooses 1st in round 3, 2nd in round 2, 3rd in round 1),
# arcs, special joined to, portions taken first, legal moves, rules
SNEAK_CASES = [
    (
        "four portions in a circle",
        3,
        ABCD,
        3,
        (),
        [(0, 1, T), (1, 0, F), (1, 2, T), (2, 1, F), (2, 3, T), (3, 2, F), (3, 0, T), (0, 3, F)],
        Rules(),
    ),
    (
        "a taken portion's neighbours touch",
        2,
        ABCD,
        3,
        (1,),
        [(0, 2, T), (2, 0, F), (2, 3, T), (3, 2, F), (3, 0, T), (0, 3, F)],
        Rules(),
    ),
    (
        "two arcs left share two boundaries",
        1,
        ABCD,
        3,
        (1, 3),
        [(0, 2, T), (2, 0, F), (2, 0, T), (0, 2, F)],
        Rules(),
    ),
    (
        "special-only portion is adjacent to nothing",
        3,
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10]],
        None,
        (),
        [(0, 1, T), (1, 0, F), (1, 2, T), (2, 1, F), (2, 0, T), (0, 2, F)],
        Rules(),
    ),
    (
        "single slices may not leave a portion empty",
        3,
        [[0], [1], list(range(2, 10)), [10]],
        3,
        (),
        [(2, 1, F), (2, 3, T), (3, 2, F), (3, 0, T)],
        Rules(),
    ),
    (
        "sneak_may_leave_special_only=False",
        3,
        [[0], [1], list(range(2, 10)), [10]],
        3,
        (),
        [(2, 1, F), (2, 3, T)],
        Rules(sneak_may_leave_special_only=False),
    ),
]


@pytest.mark.parametrize(
    "rnd,arcs,special_with,taken,moves,rules",
    [c[1:] for c in SNEAK_CASES],
    ids=[c[0] for c in SNEAK_CASES],
)
def test_sneak_moves(rnd, arcs, special_with, taken, moves, rules):
    state, _ = _sneak_round(rnd, arcs, special_with, taken, rules)
    d = state.decision()
    assert (d.phase, d.player) == (Phase.SNEAK, 0)
    assert state.sneak_moves() == moves
    assert list(d.legal) == list(range(len(moves) + 1))


# move, portions after it (stack positions; the special stays on portion 3)
SNEAK_APPLY = [
    ((3, 0, T), [[10, 0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]),
    ((0, 3, F), [[1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 0]]),
    ((1, 2, T), [[0, 1, 2], [3, 4], [5, 6, 7, 8], [9, 10]]),
    ((2, 1, F), [[0, 1, 2], [3, 4, 5, 6], [7, 8], [9, 10]]),
]


@pytest.mark.parametrize("move,after", SNEAK_APPLY)
def test_sneak_moves_an_end_slice_then_the_owner_chooses(move, after):
    state, st = _sneak_round(3, ABCD, 3)
    moves = state.sneak_moves()
    step(state, Phase.SNEAK, 1 + moves.index(move), player=0)
    assert portions(state) == [([st[p] for p in a], i == 3) for i, a in enumerate(after)]
    assert state.decision().phase == Phase.CHOOSE and state.decision().player == 0
    assert SNEAK in state.players[0].used


def test_sneak_may_leave_the_special_alone():
    state, st = _sneak_round(3, [[0], [1], list(range(2, 10)), [10]], 3)
    step(state, Phase.SNEAK, 1 + state.sneak_moves().index((3, 0, T)), player=0)
    assert portions(state) == [
        ([st[10], st[0]], F),
        ([st[1]], F),
        ([st[p] for p in range(2, 10)], F),
        ([], T),
    ]


def test_sneak_offered_from_a_later_round_never_to_the_slicer_one_use():
    state = _at_round(4, 1, [SNEAK])
    # Passing: rounds 1, 2, 3 and the last round 5; round 4 seat 0 slices.
    assert _offers(state, Phase.SNEAK, attach=True) == [(1, 0), (2, 0), (3, 0), (5, 0)]
    state = _at_round(4, 1, [SNEAK])
    assert _offers(state, Phase.SNEAK, act=lambda s: 1, attach=True) == [(1, 0)]
    assert SNEAK in state.players[0].used


def test_sneak_not_offered_without_a_legal_move():
    # Default cuts leave seat 0 (3rd chooser in rounds 1 and 5) one slice arc and the
    # special alone: nothing to move, so nothing to ask.
    state = new_game(4, [], [SNEAK])
    assert _offers(state, Phase.SNEAK) == [(2, 0), (3, 0)]


@pytest.mark.parametrize(
    "closes,moves",
    [
        (True, [(0, 2, T), (2, 0, F), (2, 3, T), (3, 2, F), (3, 0, T), (0, 3, F)]),
        (False, [(0, 2, T), (2, 0, F), (2, 3, T), (3, 2, F)]),  # the Dibs! gap separates 3, 0
    ],
)
def test_sneak_after_dibs_circle_or_line(closes, moves):
    # Round 0 Sneak -> seat 0, round 1 Dibs! -> seat 1; round 2 (slicer 2, order 3 0 1 2):
    # seat 1 takes position 0 with Dibs!, seat 3 takes portion 1, then seat 0 may sneak.
    state = _at_round(4, 2, [SNEAK, DIBS], Rules(dibs_closes_circle=closes))
    st = list(state.pizza)
    step(state, Phase.DIBS, 1 + 0, player=1)
    answer(state, 1)
    assert state.circular == closes
    cut(state, [st[1:4], st[4:7], st[7:9], st[9:11]], 3)
    take(state, 1)
    d = state.decision()
    assert (d.phase, d.player) == (Phase.SNEAK, 0)
    assert state.sneak_moves() == moves


# ---------------------------------------------------------------- Mystery Slice
def test_mystery_slice_drawn_before_eat_or_collect():
    state = new_game(3, [[52]], [MYST], mystery=[53, COMBO_7_11, SUPREME])
    pz = state.pizza
    cut(state, [[52], pz[1:6], pz[6:]], 0)
    step(state, Phase.CHOOSE, 0, player=1)
    assert step(state, Phase.EAT, 1, player=1).slice == 52
    assert step(state, Phase.EAT, 1, player=1).slice == 53  # the drawn slice joins the portion
    assert state.mystery == [COMBO_7_11, SUPREME]
    assert state.players[1].eaten == [52, 53]
    assert state.players[1].hidden_eaten == {53}  # an eaten Mystery slice stays hidden
    seq = [e for e in state.events if e[0] in ("choose", "mystery", "eat", "collect")]
    assert seq[:4] == [
        ("choose", 1, 0, (52,), MYST),
        ("mystery", 1, 53),
        ("eat", 1, 52, "portion"),
        ("eat", 1, 53, "portion"),
    ]


@pytest.mark.parametrize(
    "top,eat_offered,supreme",
    [(COMBO_7_11, False, 0), (SUPREME, True, 7), (0, False, 0)],
)
def test_mystery_slice_is_part_of_the_portion(top, eat_offered, supreme):
    # The portion holds a BBQ Chicken (7); the drawn slice follows the portion's rules.
    state = new_game(3, [[18]], [MYST], mystery=[top, 53, 54])
    pz = state.pizza
    cut(state, [[18], pz[1:6], pz[6:]], 0)
    step(state, Phase.CHOOSE, 0, player=1)
    step(state, Phase.EAT, 0, player=1)
    d = state.decision()
    assert (d.phase == Phase.EAT and d.slice == top) == eat_offered
    answer(state, 1)
    assert state.players[1].collected == [18, top]
    assert state.supreme_type == supreme


# ---------------------------------------------------------------- Combo Cravings
def test_combo_cravings_received_then_edible_now_and_later():
    # r0: seat 2 collects the 4/6 and 5/9 combos. r1: seat 2 takes Combo Cravings with the
    # 7/11 combo. r2 (last): seat 2 gets the 8/10 combo.
    stacks = [
        [COMBO_4_6, COMBO_5_9, *range(52, 61)],
        [COMBO_7_11, 18, *range(33, 42)],
        [COMBO_8_10, *range(3, 13)],
    ]
    state = new_game(3, stacks, [Special.STUFFED_CRUST, CC, Special.DAY_OLD_PIZZA], full=False)
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 2)
    take(state, 1)
    take(state, 0)  # combos are not edible yet: collected without asking
    answer(state, 0)
    assert state.players[2].collected == [COMBO_4_6, COMBO_5_9]
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 0)
    step(state, Phase.CHOOSE, 0, player=2)
    asked = [step(state, Phase.RECEIVE_EAT, int(s == COMBO_5_9), player=2) for s in (64, 65)]
    assert [(d.slice, d.portion_special) for d in asked] == [(COMBO_4_6, CC), (COMBO_5_9, CC)]
    d = step(state, Phase.EAT, 1, player=2)  # the combo in the very portion is edible
    assert d.slice == COMBO_7_11
    answer(state, 2)
    finish(state, stop=lambda s: s.round == 2)
    pz = state.pizza
    cut(state, [pz[:1], pz[1:6], pz[6:]], 1)
    take(state, 1)
    take(state, 2)
    d = step(state, Phase.EAT, 1, player=2)  # later round: still edible
    assert d.slice == COMBO_8_10
    finish(state)
    p = state.players[2]
    assert p.eaten == [COMBO_5_9, COMBO_7_11, COMBO_8_10]
    assert COMBO_4_6 in p.collected
    assert state.scores()[2].special_points["combo_cravings"] == 9


# ---------------------------------------------------------------- You Love Veggies
def test_you_love_veggies_received_moves_veggies_not_a_supreme_assigned_to_3():
    # r0: seat 2 collects two Veggies and the Supreme (assigned to 3, the only type held).
    # r1: seat 2 takes You Love Veggies with the third Veggie.
    stacks = [[0, 1, SUPREME, *range(52, 60)], [2, 18, *range(33, 42)]]
    state = new_game(3, stacks, [Special.STUFFED_CRUST, YLV], full=False)
    pz = state.pizza
    cut(state, [pz[:3], pz[3:7], pz[7:]], 2)
    take(state, 1)
    take(state, 0)
    assert (state.supreme_holder, state.supreme_type) == (2, 3)
    answer(state, 0)
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 0)
    step(state, Phase.CHOOSE, 0, player=2)
    asked = [step(state, Phase.RECEIVE_EAT, int(s == 0), player=2).slice for s in (0, 1)]
    assert asked == [0, 1]
    d = step(state, Phase.EAT, 1, player=2)  # the Veggie in the very portion is edible
    assert (d.slice, d.portion_special) == (2, YLV)
    answer(state, 2)
    finish(state)
    p = state.players[2]
    assert p.eaten == [0, 2]
    assert p.collected[:2] == [1, SUPREME]
    b = state.scores()[2]
    assert b.special_points == {"you_love_veggies": 6}


# ---------------------------------------------------------------- Seconds
def _seconds_game(rules=None, deck=None):
    """Seat 1 collects Sausages 7, 8, 9, 10 (8 is 2p, 10 has an anchovy), a Veggie, the 4/6
    combo and the Supreme (assigned to 5) with Seconds; round 1 (last) gives it nothing."""
    stacks = [[7, 8, 9, 10, 0, COMBO_4_6, SUPREME, 52, 53, 54, 55], [*range(33, 42), 42, 43]]
    deal = make_deal(3, stacks, [SEC], full=False)
    state = GameState(deck or DECK, rules or Rules(), 3, deal)
    pz = state.pizza
    cut(state, [pz[:7], pz[7:9], pz[9:]], 0)
    take(state, 0, supreme=5)
    finish(state, stop=lambda s: s.decision().phase == Phase.SECONDS_TYPE)
    return state


@pytest.mark.parametrize(
    "rules,deck_pep8,asked",
    [
        (Rules(), 2, [7, 8, 9, 10, SUPREME]),
        (Rules(seconds_with_supreme=False), 2, [7, 8, 9, 10]),
        (Rules(), 0, [7, 9, 10, SUPREME]),  # a numbered slice without pepperoni never
    ],
)
def test_seconds_one_type_any_number(rules, deck_pep8, asked):
    slices = list(DECK.slices)
    slices[8] = dataclasses.replace(slices[8], pepperoni=deck_pep8)
    state = _seconds_game(rules, dataclasses.replace(DECK, slices=tuple(slices)))
    d = state.decision()
    # Type 5 only: the Veggie (3) and the combo's 4/6 never qualify.
    assert (d.phase, d.player, tuple(d.legal)) == (Phase.SECONDS_TYPE, 1, (0, 5))
    state.apply(5)
    seen = []
    while not state.terminal:
        d = state.decision()
        assert d.phase == Phase.SECONDS_EAT and d.player == 1
        seen.append(d.slice)
        state.apply(int(d.slice in (7, 9, SUPREME)))
    assert seen == asked
    eaten = [s for s in (7, 9, SUPREME) if s in asked]
    assert state.players[1].eaten == eaten
    assert ("seconds", 1, 5, tuple(eaten)) in state.events


def test_seconds_scores_after_eating():
    state = _seconds_game()
    state.apply(5)
    for sid in (7, 8, 9, 10, SUPREME):
        step(state, Phase.SECONDS_EAT, int(sid in (7, 9, SUPREME)), player=1)
    assert state.terminal
    assert (state.supreme_holder, state.supreme_type) == (-1, 0)  # eaten: no longer a 5
    b = state.scores()[1]
    # Majorities 3 (Veggie), 4 and 6 (lone halves), 5 (two Sausages left) = 18;
    # Stuffed Crust (round 1's special, taken by slicer 1) 5; pepperoni 1 + 3 + 2; slice 10 -1.
    assert b.majority_types == (3, 4, 5, 6)
    assert (b.majorities, b.specials, b.pepperoni, b.anchovies, b.total) == (18, 5, 6, -1, 28)
    assert b.eaten_count == 3


def test_seconds_pass_changes_nothing():
    state = _seconds_game()
    before = list(state.players[1].collected)
    state.apply(0)
    assert state.terminal and state.players[1].collected == before
    assert SEC not in state.players[1].used


def test_seconds_without_a_qualifying_slice_is_not_offered():
    state = new_game(3, [[0, COMBO_4_6, *range(52, 61)]], [SEC], full=False)
    pz = state.pizza
    cut(state, [pz[:2], pz[2:6], pz[6:]], 0)
    take(state, 0)
    seen = finish(state)
    assert Phase.SECONDS_TYPE not in {d.phase for d in seen}
    assert state.players[1].collected == [0, COMBO_4_6]


@pytest.mark.parametrize("alone,offered", [(False, False), (True, True)])
def test_seconds_for_a_type_held_only_through_the_supreme(alone, offered):
    """Ruling seconds_supreme_alone: a Supreme assigned to Veggie 3 is the only candidate."""
    state = new_game(3, [[0, SUPREME]], [SEC], full=False, rules=Rules(seconds_supreme_alone=alone))
    pizza = list(state.pizza)
    cut(state, [pizza[0:2], pizza[2:6], pizza[6:11]], special_with=0)
    take(state, 0)  # seat 1 collects the Veggie and the Supreme, which goes to 3 by force
    assert state.supreme_holder == 1 and state.supreme_type == 3
    take(state, 1)
    answer(state, 0)  # the slicer's last portion is forced; it collects everything
    d = state.decision()
    if offered:
        assert d.phase == Phase.SECONDS_TYPE and d.player == 1 and list(d.legal) == [0, 3]
        step(state, Phase.SECONDS_TYPE, 3)
        step(state, Phase.SECONDS_EAT, 1)
        assert SUPREME in state.players[1].eaten and state.supreme_type == 0
    else:
        assert d is None and state.terminal
