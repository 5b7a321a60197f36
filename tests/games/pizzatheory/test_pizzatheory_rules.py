"""Pizza Theory's rules, table by table, with exact expected results: the rule options,
turn positions and their rotation, setup, placement, the simultaneous cut, the safety rule,
majority replacement and both tie rules with the supply limit and the replacement order,
the end (a win, a shared win, the run-out tiebreak, the round bound, the neutral win) and
the immediate-swing tables the strategies value, checked against the engine's resolution
for every triple."""

from __future__ import annotations

import numpy as np
import pytest

from sims.core.errors import SlicelabError
from sims.games.pizzatheory.board import default_board
from sims.games.pizzatheory.engine import Deal, Ending, GameState, Phase, positions_in_round
from sims.games.pizzatheory.game import play_game, seat_strategies
from sims.games.pizzatheory.rules import Rules
from sims.games.pizzatheory.swing import deltas
from sims.games.pizzatheory.view import PlayerView

BOARD = default_board()
LINES = (2, 2, 2)  # 7 regions of 9, 3, 3, 9, 1, 9, 3 spaces on hex-37
REGIONS = BOARD.regions(LINES)
RULINGS = Rules()


# ------------------------------------------------------------------------ options
def test_defaults_are_the_rulings():
    r = Rules()
    assert r.as_dict() == {
        "first_seat": 0, "cycle_first_seat": False, "rotation": "clockwise",
        "replacement_order": "by-region",
        "two_way_tie": "remove", "safety": True, "placement": "apart", "supply": 16,
        "runout_tiebreak": False, "max_rounds": 200,
    }  # fmt: skip


BAD_RULES = [
    ({"cheese": 1}, "unknown Pizza Theory rule option 'cheese'"),
    ({"rotation": "left"}, "rotation='left': use one of 'clockwise'"),
    ({"safety": 1}, "safety must be true or false"),
    ({"supply": "16"}, "supply must be an integer"),
    ({"supply": 2}, "supply=2: has 2 toppings per player (supply); at least 3"),
    ({"supply": 41}, "supply=41: has 41 toppings per player (supply); at most 40"),
    ({"supply": 2.5}, "supply must be an integer"),
    ({"max_rounds": 0}, "max_rounds=0: has 0 rounds before a draw (max_rounds); at least 1"),
    (
        {"max_rounds": 10_001},
        "max_rounds=10001: has 10001 rounds before a draw (max_rounds); at most 10000",
    ),
    ({"first_seat": 3}, "first_seat=3: has 3 as the first seat (first_seat); at most 2"),
    ({"two_way_tie": "split"}, "two_way_tie='split'"),
    ({"placement": "near"}, "placement='near'"),
    ({"replacement_order": "random"}, "replacement_order='random'"),
    ({"cycle_first_seat": 1}, "cycle_first_seat must be true or false"),
]


@pytest.mark.parametrize("options, message", BAD_RULES)
def test_bad_rule_options_are_refused_naming_the_fix(options, message):
    with pytest.raises(SlicelabError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Rules.from_dict(options)


POSITIONS = [
    # first_seat, rotation, players, round -> each colour's position (0 = 1st)
    (0, "clockwise", 3, 0, [0, 1, 2]),
    (0, "clockwise", 3, 1, [2, 0, 1]),  # the 2nd (seat 1) becomes 1st
    (0, "clockwise", 3, 2, [1, 2, 0]),
    (0, "clockwise", 3, 3, [0, 1, 2]),
    (0, "counterclockwise", 3, 1, [1, 2, 0]),  # the 3rd (seat 2) becomes 1st
    (0, "none", 3, 5, [0, 1, 2]),
    (1, "clockwise", 3, 0, [2, 0, 1]),
    (2, "clockwise", 3, 1, [0, 1, 2]),
    (0, "clockwise", 2, 0, [0, 1, 2]),  # 2 players: the first alternates, neutral 3rd
    (0, "clockwise", 2, 1, [1, 0, 2]),
    (1, "clockwise", 2, 0, [1, 0, 2]),
]


@pytest.mark.parametrize("first, rotation, players, r, expected", POSITIONS)
def test_turn_positions_rotate_as_ruled(first, rotation, players, r, expected):
    assert positions_in_round(first, rotation, players, r) == expected


FIRST_SEATS = [
    # first_seat, cycle_first_seat, players, game index -> the seat at position 1 in round 1
    (0, False, 3, 0, 0), (0, False, 3, 4, 0), (2, False, 3, 7, 2),
    (0, True, 3, 0, 0), (0, True, 3, 1, 1), (0, True, 3, 2, 2), (0, True, 3, 3, 0),
    (1, True, 3, 2, 0), (2, True, 3, 10, 0),
    (0, True, 2, 0, 0), (0, True, 2, 1, 1), (1, True, 2, 1, 0), (1, False, 2, 5, 1),
]  # fmt: skip


@pytest.mark.parametrize("first, cycle, players, game, expected", FIRST_SEATS)
def test_cycle_first_seat_starts_every_seat_in_turn(first, cycle, players, game, expected):
    """Study design ``cycle_first_seat``: game i starts with seat (first_seat + i) mod n,
    which takes position 1 (and the X spaces of position 1) in the first round."""
    rules = Rules(first_seat=first, cycle_first_seat=cycle)
    assert rules.first_seat_of(game, players) == expected
    deal_ = Deal(tuple([0] * rules.max_rounds)) if players == 2 else Deal()
    s = GameState(BOARD, rules, players, deal_, game_index=game)
    assert s.first_seat == expected and s.positions[expected] == 0
    assert {i for i, o in enumerate(s.owner) if o == expected} == set(BOARD.start[0])
    assert s.decision().player == expected and s.clone().first_seat == expected


@pytest.mark.parametrize("rotation", ["counterclockwise", "none"])
def test_rotation_is_refused_at_2_players_where_it_changes_nothing(rotation):
    rules = Rules(rotation=rotation)
    with pytest.raises(SlicelabError, match=r"rotation='[a-z]+' changes nothing at 2 players.*"
                       r"remove it from the 2-player arm"):  # fmt: skip
        GameState(BOARD, rules, 2, Deal(tuple([0] * rules.max_rounds)))
    GameState(BOARD, rules, 3, Deal())  # 3 players: played


# ------------------------------------------------------------------------ setup and placing
def test_setup_fills_each_positions_x_spaces():
    s = GameState(BOARD, Rules(), 3, Deal())
    assert [s.on_board(c) for c in range(3)] == [2, 2, 2]
    assert s.supply == [14, 14, 14]
    for c in range(3):
        assert {i for i, o in enumerate(s.owner) if o == c} == set(BOARD.start[c])
    assert s.decision().phase == Phase.PLACE and s.current_player == 0


def test_placement_is_on_an_empty_space_next_to_none_of_ones_own():
    s = GameState(BOARD, Rules(), 3, Deal())
    legal = s.decision().legal
    own = set(BOARD.start[0])
    expected = [i for i in range(BOARD.n_spaces) if s.owner[i] < 0
                and not own & set(BOARD.adjacency[i])]  # fmt: skip
    assert list(legal) == expected
    assert len(legal) == 37 - 6 - 6  # corners (3,0,-3), (3,-3,0) each touch 3 free spaces
    anywhere = GameState(BOARD, Rules(placement="anywhere"), 3, Deal())
    assert list(anywhere.decision().legal) == [i for i in range(37) if s.owner[i] < 0]


def _to_cut(state: GameState) -> GameState:
    while state.decision().phase != Phase.CUT:
        state.apply(state.decision().legal[0])
    return state


def test_the_cut_is_simultaneous_no_seat_sees_another_cut_of_the_round():
    """The second and third seats' views are the same whatever the first seat cut."""
    views = []
    for first_cut in range(6):
        s = _to_cut(GameState(BOARD, Rules(), 3, Deal()))
        assert s.decision().player == 0
        s.apply(first_cut)
        second = PlayerView(s, s.current_player).public()
        s.apply(3)
        views.append((second, PlayerView(s, s.current_player).public()))
    assert all(v == views[0] for v in views)
    assert len({tuple(r.lines) for r in _played(6)}) > 1  # and the cuts do matter


def _played(k):
    out = []
    for first_cut in range(k):
        s = _to_cut(GameState(BOARD, Rules(), 3, Deal()))
        for a in (first_cut, 3, 3):
            s.apply(a)
        out.append(s.reports[0])
    return out


def test_each_position_cuts_its_own_direction():
    s = _to_cut(GameState(BOARD, Rules(), 3, Deal()))
    for a in (4, 1, 5):  # seats 0, 1, 2 at positions 1, 2, 3
        s.apply(a)
    assert s.reports[0].lines == (4, 1, 5)
    s2 = _to_cut(s)  # round 2: seat 1 is 1st (direction A), seat 2 2nd, seat 0 3rd
    assert s2.turn_order() == [1, 2, 0]
    for a in (0, 2, 3):
        s2.apply(a)
    assert s2.reports[1].lines == (0, 2, 3)


# ------------------------------------------------------------------------ resolution
def _scripted(regions: dict[int, list[int]], rules: Rules = RULINGS, last=()):
    """A state whose board holds, in each region g of LINES, the colours listed (on the
    region's lowest spaces; for g in ``last``, on its highest), supplies consistent."""
    s = GameState(BOARD, rules, 3, Deal())
    s.owner = [-1] * BOARD.n_spaces
    for g, colours in regions.items():
        spaces = [i for i in range(BOARD.n_spaces) if REGIONS[i] == g]
        if g in last:
            spaces = spaces[len(spaces) - len(colours) :]
        for i, c in zip(spaces, colours, strict=False):
            s.owner[i] = c
    s.supply = [rules.supply - s.owner.count(c) for c in range(3)]
    s.tally = [type(s.tally[0])() for _ in range(3)]
    return s


def _by_region(s: GameState) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for i, c in enumerate(s.owner):
        if c >= 0:
            out.setdefault(REGIONS[i], []).append(c)
    return {g: sorted(v) for g, v in sorted(out.items())}


RESOLUTION = [
    # id, regions before, rules, regions after, on board after (colours 0, 1, 2)
    ("majority replaces", {0: [0, 0, 1], 3: [1, 1]}, Rules(),
     {0: [0, 0, 0], 3: [1, 1]}, [3, 2, 0]),
    ("safe player keeps its toppings", {0: [0, 0, 1], 3: [1]}, Rules(),
     {0: [0, 0, 1], 3: [1]}, [2, 2, 0]),
    ("safety off: it loses them", {0: [0, 0, 1], 3: [1]}, Rules(safety=False),
     {0: [0, 0, 0], 3: [1]}, [3, 1, 0]),
    ("two tie: the third removed, not replaced", {0: [0, 0, 1, 1, 2], 3: [2, 2]}, Rules(),
     {0: [0, 0, 1, 1], 3: [2, 2]}, [2, 2, 2]),
    ("two tie, what-if nothing", {0: [0, 0, 1, 1, 2], 3: [2, 2]}, Rules(two_way_tie="nothing"),
     {0: [0, 0, 1, 1, 2], 3: [2, 2]}, [2, 2, 3]),
    ("three tie: unchanged", {0: [0, 1, 2], 3: [0, 0], 5: [1, 1], 1: [2, 2]}, Rules(),
     {0: [0, 1, 2], 1: [2, 2], 3: [0, 0], 5: [1, 1]}, [3, 3, 3]),
    ("a lone player's region is unchanged", {3: [1, 1, 1]}, Rules(), {3: [1, 1, 1]}, [0, 3, 0]),
    ("removals come first: a returned topping refills", {0: [0, 0, 1], 5: [1, 1, 1, 2],
     6: [1], 1: [2, 2]}, Rules(supply=5),
     {0: [0, 0, 0], 1: [2, 2], 5: [1, 1, 1, 1], 6: [1]}, [3, 5, 2]),
    ("no supply: the cleared spaces stay empty (2 is safe)",
     {0: [0, 0, 0, 1, 1, 2], 3: [0, 0, 1]}, Rules(supply=5),
     {0: [0, 0, 0, 2], 3: [0, 0]}, [5, 0, 1]),
]  # fmt: skip


@pytest.mark.parametrize("case, before, rules, after, on_board", RESOLUTION,
                         ids=[c[0] for c in RESOLUTION])  # fmt: skip
def test_resolution(case, before, rules, after, on_board):
    s = _scripted(before, rules)
    s._resolve(LINES)
    assert _by_region(s) == after
    assert [s.on_board(c) for c in range(3)] == on_board
    assert s.supply == [rules.supply - n for n in on_board]


def test_safety_rule_counts_what_it_kept():
    s = _scripted({0: [0, 0, 1], 3: [1]})
    s._resolve(LINES)
    assert s.tally[1].saved == 1 and s.tally[1].safe_rounds == 1 and s.safety_rounds == 1
    assert s.reports[0].safe == (False, True, True)


@pytest.mark.parametrize("order", ["by-region", "by-space"])
def test_replacement_order_when_the_majority_runs_short(order):
    """Colour 0 leads regions 0 and 1 with one topping left: the ruled order fills region
    0's cleared space (space 12; region 0 holds the lowest space), by-space the lower space
    (4, in region 1)."""
    rules = Rules(supply=5, replacement_order=order)
    s = _scripted({0: [0, 0, 1], 1: [1, 0, 0], 5: [1, 1]}, rules, last=(0,))
    assert s.supply[0] == 1  # 4 on the board, 1 left
    cleared = [i for i, c in enumerate(s.owner) if c == 1 and REGIONS[i] in (0, 1)]
    assert cleared == [4, 12]  # the orders differ here
    s._resolve(LINES)
    filled = [i for i in cleared if s.owner[i] == 0]
    expected = cleared[1] if order == "by-region" else cleared[0]
    assert filled == [expected] and s.supply[0] == 0


# ------------------------------------------------------------------------ the end
def _play_scripted(state: GameState, pick=lambda d: d.legal[0]) -> GameState:
    while not state.terminal:
        state.apply(pick(state.decision()))
    return state


def test_a_player_with_every_topping_on_the_board_wins_and_equals_share():
    """Supply 3: each seat places its last topping in round 1; with cuts that take
    nothing from anyone, all three are full at the round's end and share the win."""
    s = _play_scripted(GameState(BOARD, Rules(supply=3), 3, Deal()))
    assert s.ending == Ending.WIN and len(s.reports) == 1
    full = tuple(c for c in range(3) if s.supply[c] == 0)
    assert s.winners == full and full
    assert s.win_shares() == [1 / len(full) if c in full else 0 for c in range(3)]


def test_round_bound_is_a_draw_shared_by_every_seat():
    s = _play_scripted(GameState(BOARD, Rules(max_rounds=2), 3, Deal()))
    assert s.ending == Ending.DRAW and len(s.reports) == 2 and s.winners == ()
    assert s.won() == [1, 1, 1] and s.win_shares() == [1 / 3] * 3


def test_runout_tiebreak_candidates_with_most_on_the_board_win():
    s = _play_scripted(GameState(BOARD, Rules(supply=3, runout_tiebreak=True), 3, Deal()))
    assert s.ending in (Ending.WIN, Ending.TIEBREAK) and len(s.reports) == 1
    most = max(s.on_board(c) for c in range(3))
    assert s.winners == tuple(c for c in range(3) if s.on_board(c) == most)


RUNOUT = [
    # id, regions before (supply 8), colours that ran out placing this round, rule on?,
    # -> ending (None: the game goes on), winners, on board after (colours 0, 1, 2)
    ("two run out and both lose one: tiebreak, shared",
     {0: [0] * 7, 3: [2, 2, 2, 0, 1], 5: [1] * 7}, {0, 1}, True,
     Ending.TIEBREAK, (0, 1), [7, 7, 5]),
    ("the same without the tiebreak: nobody is full, the game goes on",
     {0: [0] * 7, 3: [2, 2, 2, 0, 1], 5: [1] * 7}, {0, 1}, False, None, (), [7, 7, 5]),
    ("two run out, one loses more: the one with more on the board wins",
     {0: [0] * 7, 3: [2, 2, 2, 2, 0, 1, 1], 5: [1] * 6}, {0, 1}, True,
     Ending.TIEBREAK, (0,), [7, 6, 7]),
    ("a lone player ran out and lost one: not a tiebreak, the game goes on",
     {0: [0] * 7, 3: [2, 2, 2, 0, 1], 5: [1] * 3}, {0}, True, None, (), [7, 3, 5]),
    ("a lone player ran out and kept them all: it wins",
     {0: [0] * 8, 3: [2, 2], 5: [1] * 3}, {0}, True, Ending.WIN, (0,), [8, 3, 2]),
    ("two ran out, one kept them all: the tiebreak gives it the win",
     {0: [0] * 8, 3: [2, 2, 2, 1], 5: [1] * 7}, {0, 1}, True,
     Ending.TIEBREAK, (0,), [8, 7, 4]),
    ("the same without the tiebreak: the full player wins",
     {0: [0] * 8, 3: [2, 2, 2, 1], 5: [1] * 7}, {0, 1}, False, Ending.WIN, (0,), [8, 7, 4]),
]  # fmt: skip


@pytest.mark.parametrize("case, before, ran_out, on, ending, winners, on_board", RUNOUT,
                         ids=[c[0] for c in RUNOUT])  # fmt: skip
def test_runout_tiebreak_only_when_two_or_more_run_out_in_the_round(
    case, before, ran_out, on, ending, winners, on_board
):
    """The rulebook's tiebreak (rule ``runout_tiebreak``) settles two or more players
    running out in the same round; a lone player who ran out wins only with every topping
    on the board at the end of the round, as without the option."""
    s = _scripted(before, Rules(supply=8, runout_tiebreak=on))
    assert [c for c in range(3) if s.supply[c] == 0] == sorted(ran_out)
    s._ran_out = set(ran_out)  # they placed their last topping this round
    s._resolve(LINES)
    assert [s.on_board(c) for c in range(3)] == on_board
    assert s._check_end() == (ending is not None)
    assert s.ending == ending and s.winners == winners


def test_two_player_neutral_variant():
    for g in range(30):
        s = play_game(2, seat_strategies("random", 2), 3, g)
        assert s.ending in (Ending.WIN, Ending.NEUTRAL)
        if s.ending == Ending.NEUTRAL:
            assert s.supply[2] == 0 and s.won() == [1, 1]
        for rep in s.reports:  # the neutral line is the die's, in direction C
            assert rep.lines[2] == s.deal.neutral_lines[rep.round]
            for space, colour in rep.placements:
                if colour == 2:
                    assert space in s.touching(2, rep.lines[2])


def test_games_end_by_round_14_in_random_play():
    """The spec's note: random play on hex-37 ends well before the round bound."""
    lengths = [len(play_game(3, seat_strategies("random", 3), 9, g).reports) for g in range(60)]
    assert max(lengths) <= 14


# ------------------------------------------------------------------------ the swing tables
def _cut_states(k: int):
    for g in range(k):
        s = GameState(BOARD, Rules(), 3, Deal())
        rng = np.random.default_rng(g)
        for _ in range(int(rng.integers(0, 5))):  # a few random rounds first
            while s.decision().phase != Phase.PLACE or s.current_player != s.turn_order()[0]:
                s.apply(s.decision().legal[int(rng.integers(len(s.decision().legal)))])
            if s.terminal:
                break
        if not s.terminal:
            yield _to_cut(s)


@pytest.mark.parametrize("rules", [Rules(), Rules(safety=False, two_way_tie="nothing")],
                         ids=["rulings", "what-ifs"])  # fmt: skip
def test_swing_tables_equal_the_engines_resolution_for_every_triple(rules):
    for state in _cut_states(4):
        d = deltas(BOARD, rules, np.array(state.owner), np.array(state.supply))
        for a in range(6):
            for b in range(6):
                for c in range(6):
                    s = GameState(BOARD, rules, 3, Deal())
                    s.owner, s.supply = list(state.owner), list(state.supply)
                    s._resolve((a, b, c))
                    got = [s.on_board(x) - state.rules.supply + state.supply[x] for x in range(3)]
                    assert list(d[a, b, c]) == got, (a, b, c)
