"""Piece o' Cake's built-in strategies decide exactly as ``docs/strategies/pieceocake.md``
writes: table-driven checks of the shared valuation on hand-built positions (majority
worth, slice decision, piece value, forgo value, each phase's action, the cut on a cake
whose slices are worth only their cream), the random strategy's one draw per decision,
the parameters' effects over whole games, presets and specs, and greedy's clear edge over
random.
"""

from __future__ import annotations

import numpy as np
import pytest

from sims.core.errors import SlicelabError, StrategySpecError
from sims.core.seeding import game_streams
from sims.games.pieceocake.cake import Cake, Variety, default_cake
from sims.games.pieceocake.engine import Deal, Decision, GameState, Phase, Piece, deal
from sims.games.pieceocake.game import play_game, seat_strategies
from sims.games.pieceocake.heuristic import (
    HEURISTIC_DEFAULTS,
    PARAM_RANGES,
    check_preset_name,
    load_presets,
    params_for,
    save_preset,
)
from sims.games.pieceocake.plugin import GAME, strategy_identity
from sims.games.pieceocake.rules import Rules
from sims.games.pieceocake.strategies import (
    GreedyStrategy,
    HeuristicStrategy,
    RandomStrategy,
    best_cut,
    cut_values,
    cut_values_loop,
    make_strategy,
)
from sims.games.pieceocake.view import PlayerView

CAKE = default_cake()
VARIETY = {v.name: i for i, v in enumerate(CAKE.varieties)}
IDS = {v.name: [s for s, x in enumerate(CAKE.slice_variety) if x == i]
       for i, v in enumerate(CAKE.varieties)}  # fmt: skip
FILLER = ["plum", "apricot", "cherry", "kiwi", "blackberry", "gooseberry", "strawberry"]


def position(
    n: int,
    holdings: dict[int, dict[str, int]] | None = None,
    circle: list[str] | None = None,
    rules: Rules | None = None,
    cake: Cake = CAKE,
) -> GameState:
    """A game of the published cake at its first cut: the first circle laid with slices of
    the ``circle`` varieties (filled up to 11 with others), and each seat holding
    ``holdings`` (collected in earlier cakes, so edible by forgoing)."""
    names = list(circle or [])
    names += [FILLER[i % len(FILLER)] for i in range(11 - len(names))]
    pool = {k: list(v) for k, v in IDS.items()}
    laid = [pool[name].pop() for name in names]
    rest = [s for ids in pool.values() for s in ids]
    stacks = (tuple(laid), *(tuple(rest[11 * r : 11 * (r + 1)]) for r in range(4)))
    state = GameState(cake, rules or Rules(), n, Deal(stacks, tuple(rest[44:])))
    for seat, held in (holdings or {}).items():
        for name, k in held.items():
            state.players[seat].collected[VARIETY[name]].extend(IDS[name][:k])
    return state


def chocolate() -> int:
    return IDS["chocolate"][0]


def act(strategy, state: GameState, decision: Decision) -> int:
    return strategy.choose(PlayerView(state, decision.player), decision, np.random.default_rng(0))


def eat(seat: int, name: str) -> Decision:
    return Decision(seat, Phase.EAT, (0, 1), slice=IDS[name][-1])


def valuation(strategy, state: GameState, seat: int = 0):
    return strategy.valuation(PlayerView(state, seat))


GREEDY = make_strategy("greedy")

# ------------------------------------------------------------- greedy: EAT
# id, rules, holdings, variety, action (1 eat), the decision's value
GREEDY_EAT = [
    ("chocolate out of reach: eat it", {}, {1: {"chocolate": 3}}, "chocolate", 1, 3.0),
    ("first plum of an untaken variety: collect", {}, {}, "plum", 0, 3.0),
    ("first chocolate nobody holds: collect", {}, {}, "chocolate", 0, 11.0),
    ("second chocolate when alone: eat", {}, {0: {"chocolate": 1}}, "chocolate", 1, 3.0),
    ("catching up to a tie scores under full ties", {},
     {0: {"chocolate": 2}, 1: {"chocolate": 3}}, "chocolate", 0, 11.0),
    ("a tie scores nothing under majority_ties=none", {"majority_ties": "none"},
     {0: {"chocolate": 2}, 1: {"chocolate": 3}}, "chocolate", 1, 3.0),
    ("a tie with one rival scores half under split", {"majority_ties": "split"},
     {0: {"chocolate": 2}, 1: {"chocolate": 3}}, "chocolate", 0, 5.0),
    ("split three ways, 11 // 3 = 3 is not beaten by 3 cream: collect (strict >)",
     {"majority_ties": "split"}, {0: {"chocolate": 2}, 1: {"chocolate": 3}, 2: {"chocolate": 3}},
     "chocolate", 0, 3.0),
    ("majority already held: eat", {}, {0: {"chocolate": 3}, 1: {"chocolate": 1}},
     "chocolate", 1, 3.0),
    ("breaking a tie under none: collect", {"majority_ties": "none"},
     {0: {"chocolate": 3}, 1: {"chocolate": 3}}, "chocolate", 0, 11.0),
    ("kiwi lead held: eat", {},
     {0: {"kiwi": 2}, 2: {"kiwi": 1}}, "kiwi", 1, 2.0),
]  # fmt: skip


@pytest.mark.parametrize("rules,holdings,name,action,value", [c[1:] for c in GREEDY_EAT],
                         ids=[c[0] for c in GREEDY_EAT])  # fmt: skip
def test_greedy_slice_decision(rules, holdings, name, action, value):
    state = position(3, holdings, rules=Rules(**rules))
    assert act(GREEDY, state, eat(0, name)) == action
    val = valuation(GREEDY, state)
    v = VARIETY[name]
    assert val.slice_choice(0, v, val.counts[0][v]) == (bool(action), value)


# ---------------------------------------------------------- heuristic: W and EAT
# the documented defaults spelled out: plain `heuristic` plays the player count's tuned preset
DEFAULTS_SPEC = "heuristic(theta=1,loss=1,fewer=0,margin=0)"
# 4 players, 7 chocolates laid: u = 4, so p(m) = 0.5 + (m - r) / (2 * (1 + 4 / 4))
SEVEN = ["chocolate"] * 7


@pytest.mark.parametrize(
    "mine,rival,expected",
    [(0, 0, 0.0), (1, 0, 8.25), (2, 1, 8.25), (3, 1, 11.0), (1, 2, 2.75), (1, 3, 0.0),
     (5, 0, 11.0), (2, 2, 5.5)],
)  # fmt: skip
def test_heuristic_majority_worth(mine, rival, expected):
    state = position(4, {0: {"chocolate": mine}, 3: {"chocolate": rival}}, SEVEN)
    val = valuation(make_strategy(DEFAULTS_SPEC), state)
    assert val.u[VARIETY["chocolate"]] == 4
    assert val.worth(0, VARIETY["chocolate"], mine) == expected


# id, spec, mine, rival, action, value
HEURISTIC_EAT = [
    ("G = 11 - 8.25 = 2.75 < 3: eat", DEFAULTS_SPEC, 2, 1, 1, 3.0),
    ("theta 2: 5.5 > 3: collect", "heuristic(theta=2)", 2, 1, 0, 5.5),
    ("first chocolate: G = 8.25", DEFAULTS_SPEC, 0, 0, 0, 8.25),
    ("behind by two: G = 2.75: eat", DEFAULTS_SPEC, 0, 2, 1, 3.0),
    ("behind by two, theta 1.2: collect", "heuristic(theta=1.2)", 0, 2, 0, 1.2 * 2.75),
    ("theta 0: always eat a creamy slice", "heuristic(theta=0)", 0, 0, 1, 3.0),
]  # fmt: skip


@pytest.mark.parametrize("spec,mine,rival,action,value", [c[1:] for c in HEURISTIC_EAT],
                         ids=[c[0] for c in HEURISTIC_EAT])  # fmt: skip
def test_heuristic_slice_decision(spec, mine, rival, action, value):
    state = position(4, {0: {"chocolate": mine}, 2: {"chocolate": rival}}, SEVEN)
    strategy = make_strategy(spec)
    assert act(strategy, state, eat(0, "chocolate")) == action
    val = valuation(strategy, state)
    assert val.slice_choice(0, VARIETY["chocolate"], mine) == (bool(action), value)


# ------------------------------------------------------- piece and forgo values
@pytest.mark.parametrize(
    "holdings,piece,value",
    [
        ({}, ["plum"], 3.0),
        ({}, ["chocolate", "chocolate"], 11.0 + 3.0),  # collect the first, eat the second
        ({}, ["plum", "plum", "plum"], 3.0 + 1.0 + 1.0),
        ({1: {"chocolate": 1}}, ["chocolate", "chocolate", "chocolate"], 11.0 + 3.0 + 3.0),
        ({1: {"chocolate": 2}}, ["chocolate", "chocolate", "chocolate"], 3.0 + 3.0 + 3.0),
        ({0: {"chocolate": 5}, 1: {"chocolate": 6}}, ["chocolate", "chocolate"], 11.0 + 3.0),
    ],
)
def test_greedy_piece_value_updates_the_count_along_the_piece(holdings, piece, value):
    state = position(3, holdings)
    pool = {k: list(v) for k, v in IDS.items()}
    slices = [pool[name].pop(0) for name in piece]
    assert valuation(GREEDY, state).piece_value(0, slices) == value


# id, rules, holdings, (forgo value, variety, k)
FORGO = [
    ("nothing collected", {}, {}, (0.0, -1, 0)),
    ("a lost chocolate race: eat all five", {}, {0: {"chocolate": 5}, 1: {"chocolate": 6}},
     (15.0, VARIETY["chocolate"], 5)),
    ("eating a held plum majority nets 2 - 3 < 0", {}, {0: {"plum": 2}, 1: {"plum": 1}},
     (0.0, -1, 0)),
    ("all of a held chocolate majority: 12 - 11 = 1", {},
     {0: {"chocolate": 4}, 1: {"chocolate": 2}}, (1.0, VARIETY["chocolate"], 4)),
    ("choose: two of them keep the tie, 6 - 0", {"forgo_eats": "choose"},
     {0: {"chocolate": 4}, 1: {"chocolate": 2}}, (6.0, VARIETY["chocolate"], 2)),
    ("none: forgoing eats nothing", {"forgo_eats": "none"},
     {0: {"chocolate": 5}, 1: {"chocolate": 6}}, (0.0, -1, 0)),
    ("the first of equal nets in variety order", {},
     {0: {"kiwi": 3, "gooseberry": 3}, 1: {"kiwi": 4, "gooseberry": 4}},
     (6.0, VARIETY["kiwi"], 3)),
]  # fmt: skip


@pytest.mark.parametrize("rules,holdings,expected", [c[1:] for c in FORGO],
                         ids=[c[0] for c in FORGO])  # fmt: skip
def test_greedy_forgo_value(rules, holdings, expected):
    state = position(3, holdings, rules=Rules(**rules))
    assert valuation(GREEDY, state).forgo(0) == expected
    legal = (0, *(1 + v for v, ids in enumerate(state.players[0].collected) if ids))
    action = act(GREEDY, state, Decision(0, Phase.FORGO_EAT, legal))
    assert action == (1 + expected[1] if expected[1] >= 0 else 0)


def test_forgo_count_takes_the_smallest_best_k():
    state = position(3, {0: {"chocolate": 4}, 1: {"chocolate": 2}},
                     rules=Rules(forgo_eats="choose"))  # fmt: skip
    v = VARIETY["chocolate"]
    decision = Decision(0, Phase.FORGO_COUNT, (1, 2, 3, 4), variety=v)
    assert act(GREEDY, state, decision) == 2
    val = valuation(GREEDY, state)
    assert [val.eat_net(0, v, k) for k in (1, 2, 3, 4)] == [3.0, 6.0, -2.0, 1.0]
    # heuristic with loss 0: every slice eaten is pure cream, so all four
    assert act(make_strategy("heuristic(loss=0)"), state, decision) == 4


def test_forgo_eats_only_slices_of_earlier_cakes():
    state = position(2, {0: {"chocolate": 5}, 1: {"chocolate": 6}})
    state.players[0].fresh = [0] * len(CAKE.varieties)
    state.players[0].fresh[VARIETY["chocolate"]] = 2  # two of them collected this cake
    assert valuation(GREEDY, state).forgo(0) == (9.0, VARIETY["chocolate"], 3)


# ---------------------------------------------------------------------- CHOOSE
def _pieces(state: GameState, pieces: list[list[str]], taken: dict[int, int] | None = None):
    pool = {k: list(v) for k, v in IDS.items()}
    state.pieces = [Piece([pool[name].pop(0) for name in p]) for p in pieces]
    for j, seat in (taken or {}).items():
        state.pieces[j].taken_by = seat
    free = [j for j, p in enumerate(state.pieces) if p.taken_by < 0]
    return Decision(0, Phase.CHOOSE, (0, *(1 + j for j in free)))


# id, holdings, pieces, taken, action
CHOOSE = [
    ("the best piece", {}, [["plum"], ["chocolate", "chocolate"], ["kiwi"]], {}, 2),
    ("the lowest of equal pieces", {}, [["cherry"], ["cherry"]], {}, 1),
    ("the best free piece", {}, [["chocolate"], ["cherry"], ["plum"]], {0: 1}, 2),
    ("forgo: 15 to eat five lost chocolates beats a 14 piece",
     {0: {"chocolate": 5}, 1: {"chocolate": 6}}, [["chocolate", "chocolate"], ["plum"]], {}, 0),
    ("take: equal values do not forgo (strict >)",
     {0: {"chocolate": 5}, 1: {"chocolate": 6}}, [["chocolate", "chocolate", "plum"]], {}, 1),
]  # fmt: skip


@pytest.mark.parametrize("holdings,pieces,taken,action", [c[1:] for c in CHOOSE],
                         ids=[c[0] for c in CHOOSE])  # fmt: skip
def test_greedy_choose(holdings, pieces, taken, action):
    state = position(3, holdings)
    decision = _pieces(state, pieces, taken)
    assert act(GREEDY, state, decision) == action


@pytest.mark.parametrize("shift,action", [(-0.5, 0), (0.0, 1), (0.5, 1)])
def test_heuristic_forgoes_only_beyond_its_margin(shift, action):
    state = position(3, {0: {"chocolate": 5}, 1: {"chocolate": 6}})
    decision = _pieces(state, [["chocolate", "plum"]])
    val = valuation(make_strategy(DEFAULTS_SPEC), state)
    best = val.piece_value(0, state.pieces[0].slices)
    forgo = val.forgo(0)[0]
    assert forgo > best
    margin = forgo - best + shift  # forgo iff forgo > best + margin, i.e. shift < 0
    assert (
        act(make_strategy(f"heuristic(theta=1,loss=1,fewer=0,margin={margin!r})"), state, decision)
        == action
    )


# ------------------------------------------------------------------------- CUT
# A cake whose slices score only their cream (every value 0): every slice is eaten, a
# piece is worth its cream, and the cut is plain arithmetic.
CREAM_CAKE = Cake("cream only", (Variety("nine", 1, 0, 9), Variety("one", 30, 0, 1),
                                 Variety("two", 30, 0, 2)))  # fmt: skip


def cream_position(n: int, rules: Rules) -> GameState:
    """The circle 9, 1, 1, ..., 1 (19 cream) at the first cut, server seat 0."""
    circle = tuple(range(11))  # slice 0 is the 9, slices 1..30 the ones
    rest = tuple(range(11, 61))
    stacks = (circle, *(rest[11 * r : 11 * (r + 1)] for r in range(4)))
    return GameState(CREAM_CAKE, rules, n, Deal(stacks, rest[44:]))


def cut(spec: str, state: GameState) -> tuple[int, float]:
    strategy = make_strategy(spec)
    dec = state.decision()
    assert dec.phase == Phase.CUT
    view = PlayerView(state, dec.player)
    mask = strategy.choose(view, dec, np.random.default_rng(0))
    _, value = best_cut(
        strategy.valuation(view), view, dec.legal, strategy.params(state.n)["fewer"]
    )
    return mask, value


# id, players, rules, spec, mask, evaluation
CUTS = [
    # two exact pieces, alternate picks: the other seat takes the better one, so the server
    # keeps the worse: 9 at best (9 | 1 x 10 and 9 + 1 | 1 x 9 and 1 + 9 | 1 x 9); the
    # lowest of those masks is gaps 0 and 9 (513): pieces 1..9 (nine) and 10, 0 (ten)
    ("2 players, two pieces: the first even split", 2,
     {"two_player_pieces": 2, "exact_pieces": True}, "greedy", (1 << 0) | (1 << 9), 9.0),
    ("heuristic: the same (values 0 make W 0)", 2,
     {"two_player_pieces": 2, "exact_pieces": True}, DEFAULTS_SPEC, (1 << 0) | (1 << 9), 9.0),
    # three players, the server last: it keeps the smallest of three, 5 at best, with the
    # nine alone and the ones split 5 | 5 (gaps 10, 0 and 5)
    ("3 players: the best smallest piece", 3, {}, "greedy", (1 << 10) | (1 << 0) | (1 << 5), 5.0),
    # fewer: one piece leaves the server nothing, but earns fewer x 2
    ("fewer 2.4: 4.8 < 5, still three pieces", 3, {}, "heuristic(fewer=2.4)",
     (1 << 10) | (1 << 0) | (1 << 5), 5.0),
    ("fewer 2.5: 5 = 5, the lower mask (one piece, 0) wins", 3, {}, "heuristic(fewer=2.5)",
     0, 5.0),
    ("fewer 100: one piece", 3, {}, "heuristic(fewer=100)", 0, 200.0),
    ("fewer -1: three pieces", 3, {}, "heuristic(fewer=-1)", (1 << 10) | (1 << 0) | (1 << 5), 5.0),
]  # fmt: skip


@pytest.mark.parametrize("players,rules,spec,mask,value", [c[1:] for c in CUTS],
                         ids=[c[0] for c in CUTS])  # fmt: skip
def test_cut_on_a_cream_only_cake(players, rules, spec, mask, value):
    state = cream_position(players, Rules(**rules))
    assert cut(spec, state) == (mask, value)


SPLIT = (1 << 0) | (1 << 9)  # pieces 1..9 (nine ones) and 10, 0 (a one and the nine)
# rules, cut, the server's evaluation: the whole cake (0) goes to the other seat, the
# server forgoes (2 points of forgo value a turn, until it stops); of SPLIT the other seat
# takes the 10 and the server the 9, then no piece is left: the server forgoes once more
# (+2) unless it passes (forced_forgo_after_take false)
FORGO_TURNS = [
    ({}, 0, 2.0),
    ({"forgo_ends_picking": False}, 0, 4.0),
    ({"forced_forgo_after_take": False}, 0, 2.0),
    ({"forgo_ends_picking": False, "forced_forgo_after_take": False}, 0, 4.0),
    ({}, SPLIT, 11.0),
    ({"forced_forgo_after_take": False}, SPLIT, 9.0),
    ({"two_player_order": "snake"}, SPLIT, 11.0),
    ({"two_player_order": "snake", "forced_forgo_after_take": False}, SPLIT, 9.0),
    ({"forgo_ends_picking": False, "forced_forgo_after_take": False}, SPLIT, 9.0),
]


@pytest.mark.parametrize("rules,mask,value", FORGO_TURNS)
def test_cut_counts_the_servers_forgo_turns(rules, mask, value):
    # 2 players, pieces 1 to 4, alternate picks (other, server, other, server) or snake
    # (other, server, server, other); the server holds two collected ones (edible: 2)
    state = cream_position(2, Rules(**rules))
    state.players[0].collected[1].extend([20, 21])
    view = PlayerView(state, 0)
    val = make_strategy("greedy").valuation(view)
    assert cut_values(val, view, [mask], 0.0).tolist() == [value]
    assert cut_values_loop(val, view, [mask], 0.0) == [value]


@pytest.mark.parametrize(
    "players,rules,spec",
    [(2, {}, "greedy"), (3, {"forgo_eats": "choose"}, "heuristic(fewer=1.5)"),
     (4, {"majority_ties": "split"}, "greedy"), (5, {}, "heuristic(theta=2,fewer=-0.5)"),
     (2, {"two_player_order": "snake", "forgo_ends_picking": False}, DEFAULTS_SPEC),
     (2, {"forced_forgo_after_take": False}, "heuristic(fewer=1.5)")],
)  # fmt: skip
def test_vectorised_cut_values_equal_the_loop_exactly(players, rules, spec):
    """At every cut of a few real games, all cuts at once equal the one-by-one reading."""
    strategy = make_strategy(spec)
    the_rules = Rules(**rules)
    checked = 0
    for index in range(2):
        streams = game_streams(5, index, players)
        state = GameState(CAKE, the_rules, players, deal(CAKE, streams.deal))
        rng = np.random.default_rng(index)
        while not state.terminal:
            dec = state.decision()
            if dec.phase == Phase.CUT:
                view = PlayerView(state, dec.player)
                val = strategy.valuation(view)
                fewer = strategy.params(players)["fewer"]
                fast = cut_values(val, view, dec.legal, fewer)
                slow = cut_values_loop(val, view, dec.legal, fewer)
                assert fast.tolist() == slow
                checked += 1
            state.apply(dec.legal[int(rng.integers(len(dec.legal)))])
    assert checked == 10


# --------------------------------------------------------------------- random
def test_random_draws_one_integer_per_decision():
    """``legal[rng.integers(0, len(legal))]`` from the seat's stream, once per decision:
    after each decision the seat's stream is exactly where one such draw leaves it."""
    n = 3
    streams, mirror = game_streams(9, 4, n), game_streams(9, 4, n)
    state = GameState(CAKE, Rules(), n, deal(CAKE, streams.deal))
    strategy = make_strategy("random")
    decisions = 0
    while not state.terminal:
        dec = state.decision()
        p = dec.player
        action = strategy.choose(PlayerView(state, p), dec, streams.seats[p])
        assert action == dec.legal[int(mirror.seats[p].integers(0, len(dec.legal)))]
        for q in range(n):
            assert streams.seats[q].bit_generator.state == mirror.seats[q].bit_generator.state
        state.apply(action)
        decisions += 1
    assert decisions == len(state.trace) > 50


# ------------------------------------------------------------- whole games
def _games(spec: str, n: int, games: int, seed: int = 3) -> list[GameState]:
    strategies = seat_strategies(spec, n)
    return [play_game(n, strategies, seed, g) for g in range(games)]


def test_theta_large_collects_more():
    def collected(spec: str) -> int:
        return sum(len(ids) for st in _games(spec, 3, 6) for p in st.players
                   for ids in p.collected)  # fmt: skip

    assert (
        collected("heuristic(theta=4)") > collected("heuristic") > collected("heuristic(theta=0.3)")
    )


def test_fewer_positive_cuts_fewer_pieces():
    def pieces(spec: str) -> float:
        cuts = [a for st in _games(spec, 4, 4) for _, ph, a in st.trace if ph == Phase.CUT]
        return float(np.mean([max(1, a.bit_count()) for a in cuts]))

    assert pieces("heuristic(fewer=3)") < pieces("heuristic") <= 4.0
    assert pieces("heuristic(fewer=-3)") == 4.0


def test_greedy_beats_random_clearly_at_three_players():
    share = 0.0
    games = 99
    for g in range(games):
        specs = ["random"] * 3
        specs[g % 3] = "greedy"  # every seat in turn
        state = play_game(3, seat_strategies(specs, 3), 11, g)
        share += state.win_shares()[g % 3]
    assert share / games > 0.75  # a fair share is 1/3


def test_strategies_play_every_rule_option_to_the_end():
    options = [{"forgo_eats": "choose"}, {"forgo_eats": "none"}, {"majority_ties": "split"},
               {"two_player_order": "snake", "forgo_ends_picking": False},
               {"exact_pieces": True, "two_player_pieces": 6},
               {"forced_forgo_after_take": False}]  # fmt: skip
    for i, rules in enumerate(options):
        n = 2 + i % 4
        specs = ["greedy", "heuristic(theta=2,loss=0.5,fewer=1,margin=-1)", "random"]
        state = play_game(n, seat_strategies([specs[s % 3] for s in range(n)], n), 1, i,
                          rules=Rules(**rules))  # fmt: skip
        assert state.terminal


# -------------------------------------------------------------- specs, presets
def test_specs_build_the_right_strategies():
    assert isinstance(make_strategy("random"), RandomStrategy)
    assert isinstance(make_strategy("greedy"), GreedyStrategy)
    h = make_strategy("heuristic(theta=2, margin=-1)")
    assert isinstance(h, HeuristicStrategy)
    assert h.params(4) == {**params_for(4, {}), "theta": 2.0, "margin": -1.0}
    assert make_strategy("greedy").params(3) == {"theta": 1.0, "loss": 1.0, "fewer": 0.0,
                                                 "margin": 0.0}  # fmt: skip
    preset = make_strategy("heuristic-eq4(loss=0.5)")
    assert isinstance(preset, HeuristicStrategy) and preset.preset == "heuristic-eq4"
    assert preset.params(4) == {**params_for(4, {}), "loss": 0.5}


@pytest.mark.parametrize(
    "spec,message",
    [
        ("clever", "unknown Piece o' Cake strategy 'clever'; known: greedy, heuristic, random"),
        ("greedy(theta=2)",
         "strategy 'greedy' has no parameter(s) ['theta']; its parameters: none"),
        ("heuristic(depth=3)",
         "has no parameter(s) ['depth']; its parameters: fewer, loss, margin, theta"),
        ("heuristic(theta=-1)",
         "strategy 'heuristic': theta must be a number from 0 to 100, got -1"),
        ("heuristic(loss=nan)", "loss must be a number"),
        ("heuristic(margin=abc)", "margin must be a number"),
        ("heuristic-eq3(fewer=101)", "fewer must be a number from -100 to 100"),
        ("heuristic(theta=1,theta=2)", "sets parameter theta twice"),
    ],
)  # fmt: skip
def test_bad_specs_are_refused(spec, message):
    with pytest.raises(StrategySpecError, match=None) as err:
        make_strategy(spec)
    assert message in str(err.value)


def test_presets_ship_for_every_player_count_and_are_the_defaults():
    presets = load_presets()
    assert {f"heuristic-eq{n}" for n in range(2, 6)} <= set(presets)
    for n in range(2, 6):
        assert params_for(n, {}) == {**HEURISTIC_DEFAULTS, **presets[f"heuristic-eq{n}"]}
        assert GAME.strategy_defaults("heuristic", n) == params_for(n, {})
    assert set(PARAM_RANGES) == set(HEURISTIC_DEFAULTS)


def test_user_presets_are_saved_and_used(tmp_path, monkeypatch):
    monkeypatch.setenv("SLICELAB_HOME", str(tmp_path))
    path = GAME.save_preset("heuristic", "mine", {"theta": 2.5, "fewer": 1.0}, "a test")
    assert path == tmp_path / "presets" / "pieceocake.toml"
    assert load_presets()["mine"] == {"theta": 2.5, "fewer": 1.0}
    assert make_strategy("mine(margin=1)").params(3) == {**HEURISTIC_DEFAULTS, "theta": 2.5,
                                                         "fewer": 1.0, "margin": 1.0}  # fmt: skip
    assert "mine" in {i.name for i in GAME.strategies()}
    save_preset("other", {"loss": 0.5}, "b")
    assert set(load_presets()) >= {"mine", "other"}


@pytest.mark.parametrize(
    "name,message",
    [("heuristic-eq4", "reserved"), ("heuristic-p9", "reserved"), ("greedy", "strategy family"),
     ("bad name", "not allowed"), ("", "not allowed")],
)  # fmt: skip
def test_preset_names_are_checked(name, message):
    with pytest.raises(SlicelabError, match=message):
        check_preset_name(name)
    with pytest.raises(SlicelabError, match=message):
        GAME.check_preset("heuristic", name)


def test_only_heuristic_is_tunable():
    with pytest.raises(SlicelabError, match="tunable family is 'heuristic'"):
        GAME.strategy_defaults("greedy", 3)
    tunable = [i.name for i in GAME.strategies() if i.ranges]
    assert tunable == ["heuristic"]


def test_strategy_identity_is_the_family_and_its_resolved_parameters():
    key = strategy_identity("heuristic", 4)
    assert strategy_identity("heuristic-eq4", 4) == key
    assert strategy_identity(f"heuristic(theta={params_for(4, {})['theta']})", 4) == key
    assert strategy_identity("heuristic(theta=2)", 4) != key
    assert strategy_identity("greedy", 4) != key
    assert strategy_identity("random", 2) == strategy_identity("random", 2)
