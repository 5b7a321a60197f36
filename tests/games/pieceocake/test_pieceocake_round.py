"""A game of Piece o' Cake on the reference engine: setup, the server and the turn order,
cutting, taking a piece slice by slice, forgoing (and eating one collected variety),
forced forgoing, leftovers, end-of-game scoring, and every rule option's effect on play.

Deals are scripted: ``lay`` builds an :class:`engine.Deal` from chosen stacks, and
``play`` checks each pending decision's seat and phase before applying the scripted
action. ``finish`` plays the remaining rounds quietly: the server serves the whole cake,
everyone forgoes and eats nothing, so the cake leaves the game untouched.
"""

import numpy as np
import pytest

from sims.core.errors import SlicelabError
from sims.games.flow import IllegalAction
from sims.games.pieceocake.cake import default_cake
from sims.games.pieceocake.cuts import cut_masks
from sims.games.pieceocake.engine import Deal, GameState, Phase, deal, turn_order
from sims.games.pieceocake.rules import Rules

CAKE = default_cake()
PLUM, APRICOT, CHERRY, BLACKBERRY, KIWI, GOOSEBERRY, STRAWBERRY, CHOCOLATE = range(8)
PL = (0, 1, 2)
AP = (3, 4, 5, 6)
CR = (7, 8, 9, 10, 11)
BB = tuple(range(12, 19))
KI = tuple(range(19, 27))
GO = tuple(range(27, 36))
ST = tuple(range(36, 46))
CH = tuple(range(46, 57))
CUT, CHOOSE, EAT, FORGO_EAT, FORGO_COUNT = (
    Phase.CUT,
    Phase.CHOOSE,
    Phase.EAT,
    Phase.FORGO_EAT,
    Phase.FORGO_COUNT,
)
COLLECT, EAT_IT = 0, 1
FORGO = 0


def mask(*gaps: int) -> int:
    return sum(1 << g for g in gaps)


def lay(*stacks, unseen=None) -> Deal:
    """Five stacks of 11: the given ones (padded with unused ids, ascending), then filler
    stacks; the 2 ids left over (or ``unseen``) are unseen."""
    given = [list(s) for s in stacks]
    used = {sid for s in given for sid in s} | set(unseen or ())
    assert len(used) == sum(len(s) for s in given) + len(unseen or ())
    free = [i for i in range(CAKE.n_slices) if i not in used]
    out = []
    for r in range(5):
        s = given[r] if r < len(given) else []
        while len(s) < 11:
            s.append(free.pop(0))
        out.append(tuple(s))
    rest = tuple(unseen) if unseen is not None else tuple(free)
    assert len(rest) == 2
    return Deal(tuple(out), rest)


def new_game(n, the_deal=None, **rules) -> GameState:
    return GameState(CAKE, Rules(**rules), n, the_deal or lay())


def play(state: GameState, script) -> None:
    """Apply ``(seat, phase, action)`` steps, checking each decision's seat and phase."""
    for i, (seat, phase, action) in enumerate(script):
        d = state.decision()
        assert d is not None, f"step {i}: the game is over"
        assert (d.player, d.phase) == (seat, phase), f"step {i}: {d}"
        state.apply(action)


def finish(state: GameState) -> None:
    """Quiet rounds: whole cake, everyone forgoes, eats nothing."""
    quiet = {CUT: 0, CHOOSE: FORGO, EAT: COLLECT, FORGO_EAT: 0}
    while not state.terminal:
        d = state.decision()
        state.apply(quiet.get(d.phase, d.legal[0]))


def quiet_round_script(n: int, server: int, holders=()) -> list:
    """The steps of a quiet round (see :func:`finish`): ``holders`` are the seats with
    collected slices, asked FORGO_EAT after forgoing."""
    out = [(server, CUT, 0)]
    for seat in turn_order(server, n, Rules()):
        out.append((seat, CHOOSE, FORGO))
        if seat in holders:
            out.append((seat, FORGO_EAT, 0))
    return out


def holdings(state: GameState, seat: int):
    p = state.players[seat]
    return sorted(sid for ids in p.collected for sid in ids), sorted(p.eaten)


# ------------------------------------------------------------------- setup and deal
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_deal_five_stacks_of_11_and_2_unseen(seed):
    d = deal(CAKE, np.random.default_rng(seed))
    assert [len(s) for s in d.stacks] == [11] * 5
    assert len(d.unseen) == 2
    assert sorted([sid for s in d.stacks for sid in s] + list(d.unseen)) == list(range(57))


def test_deal_is_deterministic_for_a_seed():
    a = deal(CAKE, np.random.default_rng(2024))
    assert deal(CAKE, np.random.default_rng(2024)) == a
    assert deal(CAKE, np.random.default_rng(2025)) != a
    # Generator.shuffle of arange(57), draw for draw (the compiled kernel reproduces it)
    assert a.stacks[0] == (20, 18, 7, 50, 14, 3, 11, 37, 27, 56, 23)
    assert a.stacks[4] == (47, 48, 49, 8, 39, 35, 53, 16, 33, 36, 25)
    assert a.unseen == (22, 40)


def test_deal_consumes_only_the_shuffle():
    rng = np.random.default_rng(5)
    deal(CAKE, rng)
    after = rng.integers(0, 1 << 30)
    ref = np.random.default_rng(5)
    ref.shuffle(np.arange(57, dtype=np.int64))
    assert after == ref.integers(0, 1 << 30)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_five_rounds_55_slices_dealt_2_unseen(n):
    """A whole game at every player count: 5 cakes, every dealt slice ends with exactly one
    player (eaten or collected) or leaves the game as a leftover; the 2 unseen never
    appear."""
    the_deal = deal(CAKE, np.random.default_rng(100 + n))
    state = GameState(CAKE, Rules(), n, the_deal)
    policy = np.random.default_rng(n)
    servers = []
    while not state.terminal:
        d = state.decision()
        if d.phase == CUT:
            servers.append((state.round, state.server, d.player))
            assert list(state.circle) == list(the_deal.stacks[state.round])
        state.apply(d.legal[int(policy.integers(0, len(d.legal)))])
    assert servers == [(r, r % n, r % n) for r in range(5)]
    assert state.round == 5
    assert sum(1 for e in state.events if e[0] == "cut") == 5
    owned = [sid for p in state.players for ids in [*p.collected, p.eaten] for sid in ids]
    left = [sid for e in state.events if e[0] == "leftover" for sid in e[2]]
    dealt = [sid for s in the_deal.stacks for sid in s]
    assert len(dealt) == 55
    assert sorted(owned + left) == sorted(dealt)
    assert not set(the_deal.unseen) & set(owned + left)
    # slices taken = pieces taken by each seat, slice by slice
    taken = [sid for e in state.events if e[0] == "take" for sid in e[3]]
    assert sorted(taken) == sorted(owned)
    assert len(state.scores()) == n


# ------------------------------------------------------------- server and turn order
# players, first_server, server of each round
SERVERS = [
    (2, 0, [0, 1, 0, 1, 0]),
    (2, 1, [1, 0, 1, 0, 1]),
    (3, 0, [0, 1, 2, 0, 1]),
    (3, 2, [2, 0, 1, 2, 0]),
    (4, 0, [0, 1, 2, 3, 0]),
    (4, 3, [3, 0, 1, 2, 3]),
    (5, 0, [0, 1, 2, 3, 4]),
    (5, 4, [4, 0, 1, 2, 3]),
]


@pytest.mark.parametrize("n,first,servers", SERVERS)
def test_server_rotates_left_from_first_server(n, first, servers):
    state = new_game(n, first_server=first)
    seen = []
    while not state.terminal:
        d = state.decision()
        if d.phase == CUT:
            seen.append(d.player)
            assert state.server == d.player
        state.apply(0)  # whole cake; forgo; collect; eat nothing
    assert seen == servers


# server, players, two_player_order, turn order
ORDERS = [
    (0, 3, "alternate", [1, 2, 0]),
    (2, 3, "alternate", [0, 1, 2]),
    (1, 4, "alternate", [2, 3, 0, 1]),
    (3, 5, "alternate", [4, 0, 1, 2, 3]),
    (0, 5, "alternate", [1, 2, 3, 4, 0]),
    (0, 3, "snake", [1, 2, 0]),  # the 2-player order does not apply at 3+
    (0, 2, "alternate", [1, 0, 1, 0]),
    (1, 2, "alternate", [0, 1, 0, 1]),
    (0, 2, "snake", [1, 0, 0, 1]),
    (1, 2, "snake", [0, 1, 1, 0]),
]


@pytest.mark.parametrize("server,n,order,expected", ORDERS)
def test_turn_order(server, n, order, expected):
    assert turn_order(server, n, Rules(two_player_order=order)) == expected


@pytest.mark.parametrize("n,server,first", [(3, 0, 0), (3, 1, 1), (4, 2, 2), (5, 3, 3), (5, 0, 0)])
def test_engine_asks_in_turn_order_server_last(n, server, first):
    """Whole cake, everyone forgoes: every seat is asked CHOOSE, from the server's left."""
    state = new_game(n, first_server=first)
    assert state.decision().player == server
    play(state, quiet_round_script(n, server))
    assert state.round == 1
    assert [e[1] for e in state.events if e[0] == "forgo"] == turn_order(server, n, Rules())


# two_player_order, expected (seat, piece) per turn, slices each seat ends with
TWO_PLAYER = [
    ("alternate", [(1, 0), (0, 1), (1, 2), (0, 3)], [[0, 3, 4, 5, 9, 10], [1, 2, 6, 7, 8]]),
    ("snake", [(1, 0), (0, 1), (0, 2), (1, 3)], [[3, 4, 5, 6, 7, 8], [0, 1, 2, 9, 10]]),
]


@pytest.mark.parametrize("order,turns,positions", TWO_PLAYER)
def test_two_player_picks(order, turns, positions):
    """2 players, 4 pieces; each turn takes the first free piece and collects it."""
    stack = list(CH)  # 11 chocolates at positions 0..10
    state = new_game(2, lay(stack), two_player_order=order)
    cut = mask(0, 2, 5, 8)  # pieces [1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 0]
    play(state, [(0, CUT, cut)])
    sizes = [2, 3, 3, 3]
    for seat, j in turns:
        d = state.decision()
        assert (d.player, d.phase) == (seat, CHOOSE)
        free = [p for p, piece in enumerate(state.pieces) if piece.taken_by < 0]
        assert d.legal == (0, *[1 + p for p in free])
        state.apply(1 + j)
        play(state, [(seat, EAT, COLLECT)] * sizes[j])
    pos = [sorted(CH.index(s) for s in holdings(state, seat)[0]) for seat in (0, 1)]
    assert pos == positions
    assert state.round == 1  # nobody was left to forgo


# ------------------------------------------------------ taking a piece, slice by slice
def test_taker_decides_every_slice_in_circle_order():
    stack = [CH[0], PL[0], KI[0], ST[0], GO[0], CR[0], BB[0], AP[0], CH[1], PL[1], KI[1]]
    state = new_game(3, lay(stack))
    play(state, [(0, CUT, mask(2, 7))])  # pieces: positions 3..7, then 8, 9, 10, 0, 1, 2
    assert [p.slices for p in state.pieces] == [stack[3:8], stack[8:] + stack[:3]]
    play(state, [(1, CHOOSE, 2)])  # the wrap-around piece
    asked, actions = [], [EAT_IT, COLLECT, COLLECT, EAT_IT, COLLECT, EAT_IT]
    for a in actions:
        d = state.decision()
        assert (d.player, d.phase, d.legal, d.variety) == (1, EAT, (0, 1), -1)
        asked.append(d.slice)
        state.apply(a)
    assert asked == [CH[1], PL[1], KI[1], CH[0], PL[0], KI[0]]
    assert holdings(state, 1) == (sorted([PL[1], KI[1], PL[0]]), sorted([CH[1], CH[0], KI[0]]))
    assert state.collected_counts(1) == [2, 0, 0, 0, 1, 0, 0, 0]
    assert state.cream(1) == 3 + 3 + 2
    assert state.players[1].pieces_taken == 1
    # seat 2 takes the other piece; the server has nothing left and forgoes unasked
    play(state, [(2, CHOOSE, 1)] + [(2, EAT, EAT_IT)] * 5)
    assert state.round == 1
    assert state.players[0].forgone == 1
    assert ("forgo", 0, False) in state.events


# ------------------------------------------------------------------- forgoing
def _collector_game(**rules) -> GameState:
    """3 players. Round 0 (server 0): seat 1 takes the whole cake, collects 3 chocolate and
    2 kiwi and eats the 6 others; seats 2 and 0 forgo unasked (no piece, nothing held).
    Returned at round 1 (server 1, order 2, 0, 1): the whole cake is served."""
    stack = [CH[0], CH[1], CH[2], KI[0], KI[1], PL[0], PL[1], PL[2], AP[0], AP[1], AP[2]]
    state = new_game(3, lay(stack), **rules)
    play(state, [(0, CUT, 0), (1, CHOOSE, 1)] + [(1, EAT, COLLECT)] * 5 + [(1, EAT, EAT_IT)] * 6)
    assert state.round == 1
    assert [e[:2] for e in state.events if e[0] == "forgo"] == [("forgo", 2), ("forgo", 0)]
    assert state.cream(1) == 6
    play(state, [(1, CUT, 0), (2, CHOOSE, FORGO), (0, CHOOSE, FORGO)])  # nothing held: no FORGO_EAT
    return state


# forgo_eats, script after seat 1 forgoes, slices eaten by forgoing, collected left
FORGO_CASES = [
    ("all", [(1, FORGO_EAT, 1 + CHOCOLATE)], [CH[2], CH[1], CH[0]], [KI[0], KI[1]]),
    ("all", [(1, FORGO_EAT, 1 + KIWI)], [KI[1], KI[0]], [CH[0], CH[1], CH[2]]),
    ("all", [(1, FORGO_EAT, 0)], [], [CH[0], CH[1], CH[2], KI[0], KI[1]]),
    (
        "choose",
        [(1, FORGO_EAT, 1 + CHOCOLATE), (1, FORGO_COUNT, 2)],
        [CH[2], CH[1]],
        [CH[0], KI[0], KI[1]],
    ),
    (
        "choose",
        [(1, FORGO_EAT, 1 + CHOCOLATE), (1, FORGO_COUNT, 3)],
        [CH[2], CH[1], CH[0]],
        [KI[0], KI[1]],
    ),
    (
        "choose",
        [(1, FORGO_EAT, 1 + KIWI), (1, FORGO_COUNT, 1)],
        [KI[1]],
        [CH[0], CH[1], CH[2], KI[0]],
    ),
    ("choose", [(1, FORGO_EAT, 0)], [], [CH[0], CH[1], CH[2], KI[0], KI[1]]),
    ("none", [], [], [CH[0], CH[1], CH[2], KI[0], KI[1]]),
]


@pytest.mark.parametrize("forgo_eats,script,eaten,kept", FORGO_CASES)
def test_forgo_then_eat_one_variety(forgo_eats, script, eaten, kept):
    state = _collector_game(forgo_eats=forgo_eats)
    before = list(state.players[1].eaten)
    d = state.decision()
    assert (d.player, d.phase, d.legal) == (1, CHOOSE, (0, 1))
    state.apply(FORGO)
    if forgo_eats != "none":
        d = state.decision()
        # eat nothing, kiwi or chocolate: only varieties the seat has collected
        assert (d.player, d.phase, d.legal) == (1, FORGO_EAT, (0, 1 + KIWI, 1 + CHOCOLATE))
    for seat, phase, action in script:
        d = state.decision()
        assert (d.player, d.phase) == (seat, phase)
        if phase == FORGO_COUNT:  # 1 to all of the variety's collected slices
            v = script[0][2] - 1
            assert (d.legal, d.variety) == ({CHOCOLATE: (1, 2, 3), KIWI: (1, 2)}[v], v)
        state.apply(action)
    assert state.round == 2  # round 1 is over: the cake left untaken
    assert state.players[1].eaten == before + eaten
    assert holdings(state, 1)[0] == sorted(kept)
    assert state.players[1].forgo_eaten == len(eaten)
    assert state.players[1].forgone == 1
    forgo_events = [e for e in state.events if e[0] == "forgo_eat"]
    assert forgo_events == (
        [("forgo_eat", 1, CAKE.slice_variety[eaten[0]], len(eaten))] if eaten else []
    )
    finish(state)
    # cream 6 eaten in round 0, plus 3 a chocolate or 2 a kiwi eaten by forgoing
    assert state.scores()[1].cream == 6 + sum(
        CAKE.varieties[CAKE.slice_variety[s]].cream for s in eaten
    )


def test_forgo_count_is_not_asked_for_a_single_slice():
    """Under ``choose`` a variety with one collected slice is eaten without FORGO_COUNT."""
    state = _collector_game(forgo_eats="choose")
    play(state, [(1, CHOOSE, FORGO), (1, FORGO_EAT, 1 + KIWI), (1, FORGO_COUNT, 1)])
    assert state.round == 2
    # round 2 (server 2, order 0, 1, 2): seat 1 now holds 1 kiwi
    play(state, [(2, CUT, 0), (0, CHOOSE, FORGO), (1, CHOOSE, FORGO), (1, FORGO_EAT, 1 + KIWI)])
    assert (state.decision().player, state.decision().phase) == (2, CHOOSE)
    assert state.players[1].collected[KIWI] == []
    assert state.players[1].forgo_eaten == 2


def test_forgo_count_never_asked_under_all():
    state = _collector_game(forgo_eats="all")
    play(state, [(1, CHOOSE, FORGO), (1, FORGO_EAT, 1 + CHOCOLATE)])
    finish(state)
    assert FORGO_COUNT not in {phase for _, phase, _ in state.trace}


def test_forced_forgo_still_offers_forgo_eat():
    """No piece left: the seat forgoes without being asked, and may still eat a variety it
    collected in an earlier round."""
    state = _collector_game()
    # rest of round 1: seat 1 eats nothing. Round 2 (server 2, order 0, 1, 2).
    play(state, [(1, CHOOSE, FORGO), (1, FORGO_EAT, 0)])
    play(state, [(2, CUT, 0), (0, CHOOSE, 1)] + [(0, EAT, EAT_IT)] * 11)
    # seat 1: no piece left, no CHOOSE asked; FORGO_EAT is asked at once
    d = state.decision()
    assert (d.player, d.phase, d.legal) == (1, FORGO_EAT, (0, 1 + KIWI, 1 + CHOCOLATE))
    state.apply(1 + KIWI)
    # seat 2 (server): no piece, nothing held: nothing asked; round 3 begins
    assert state.round == 3 and state.decision().phase == CUT
    assert ("forgo", 1, False) in state.events and ("forgo", 2, False) in state.events
    assert state.players[1].collected[KIWI] == []
    assert state.players[1].forgone == 2  # round 1 by choice, round 2 forced
    # seat 1's CHOOSE decisions: the take of round 0 and the forgo of round 1, not round 2's
    assert [t for t in state.trace if t[:2] == (1, CHOOSE)] == [(1, CHOOSE, 1), (1, CHOOSE, FORGO)]


def test_forgo_with_nothing_collected_asks_nothing_more():
    state = new_game(3)
    play(state, [(0, CUT, 0), (1, CHOOSE, FORGO), (2, CHOOSE, FORGO), (0, CHOOSE, FORGO)])
    assert state.round == 1
    assert [p.forgone for p in state.players] == [1, 1, 1]
    assert [(e[0], e[1], e[2]) for e in state.events if e[0] == "forgo"] == [
        ("forgo", 1, True),
        ("forgo", 2, True),
        ("forgo", 0, True),
    ]


def test_server_may_forgo_with_a_piece_left():
    state = new_game(3)
    play(state, [(0, CUT, mask(1, 6)), (1, CHOOSE, 1)] + [(1, EAT, EAT_IT)] * 5)
    play(state, [(2, CHOOSE, FORGO)])
    d = state.decision()
    assert (d.player, d.phase, d.legal) == (0, CHOOSE, (0, 2))
    state.apply(FORGO)
    assert state.round == 1


# ------------------------------------------------------ forgo_ends_picking at 2 players
def _two_player_round(forgo_ends_picking):
    """2 players, server 0 (order 1, 0, 1, 0); the cake is cut in two."""
    stack = [ST[0], ST[1], ST[2], ST[3], ST[4], KI[0], KI[1], KI[2], KI[3], KI[4], KI[5]]
    state = new_game(2, lay(stack), forgo_ends_picking=forgo_ends_picking)
    play(state, [(0, CUT, mask(4, 10))])  # piece 0: 5..10 (6 kiwi), piece 1: 0..4 (5 strawberry)
    play(state, [(1, CHOOSE, FORGO)])  # nothing held: no FORGO_EAT
    play(state, [(0, CHOOSE, 1)] + [(0, EAT, EAT_IT)] * 6)  # seat 0 eats the kiwi
    return state


def test_forgo_ends_picking_true_skips_later_turns():
    state = _two_player_round(True)
    # seat 1's second turn is skipped; seat 0's second turn: piece 1 is free, it may forgo
    d = state.decision()
    assert (d.player, d.phase, d.legal) == (0, CHOOSE, (0, 2))
    state.apply(FORGO)
    assert state.round == 1
    assert state.players[1].pieces_taken == 0 and state.players[1].forgone == 1
    assert [e for e in state.events if e[0] == "leftover"] == [("leftover", 1, ST[:5])]


def test_forgo_ends_picking_false_keeps_later_turns():
    state = _two_player_round(False)
    d = state.decision()
    assert (d.player, d.phase, d.legal) == (1, CHOOSE, (0, 2))
    play(state, [(1, CHOOSE, 2)] + [(1, EAT, COLLECT)] * 5)
    # seat 0's second turn: nothing left, forced forgo, and it holds nothing collected
    assert state.round == 1
    assert holdings(state, 1) == (sorted(ST[:5]), [])
    assert [p.forgone for p in state.players] == [1, 1]
    assert not [e for e in state.events if e[0] == "leftover"]


def _two_player_holder(**rules) -> GameState:
    """2 players. Round 0 (server 0, order 1, 0, 1, 0), cut in four pieces, each turn takes
    one: seat 1 collects 2 chocolate and 2 kiwi and eats a plum; seat 0 eats its pieces.
    Returned at round 1 (server 1, order 0, 1, 0, 1), the whole cake served."""
    stack = [AP[0], CH[0], CH[1], AP[1], AP[2], AP[3], KI[0], KI[1], PL[0], PL[1], PL[2]]
    state = new_game(2, lay(stack), **rules)
    play(state, [(0, CUT, mask(0, 2, 5, 8))])  # pieces 1..2, 3..5, 6..8, 9..0
    play(state, [(1, CHOOSE, 1), (1, EAT, COLLECT), (1, EAT, COLLECT)])
    play(state, [(0, CHOOSE, 2)] + [(0, EAT, EAT_IT)] * 3)
    play(state, [(1, CHOOSE, 3), (1, EAT, COLLECT), (1, EAT, COLLECT), (1, EAT, EAT_IT)])
    play(state, [(0, CHOOSE, 4)] + [(0, EAT, EAT_IT)] * 3)
    assert state.round == 1
    assert holdings(state, 1) == ([KI[0], KI[1], CH[0], CH[1]], [PL[0]])
    play(state, [(1, CUT, 0), (0, CHOOSE, FORGO)])  # seat 0 holds nothing: no FORGO_EAT
    return state


def test_forgo_ends_picking_false_may_forgo_twice():
    """A 2-player seat that keeps its turns may forgo twice in one cake and eat two
    varieties collected earlier."""
    state = _two_player_holder(forgo_ends_picking=False)
    play(state, [(1, CHOOSE, FORGO), (1, FORGO_EAT, 1 + KIWI)])
    play(state, [(0, CHOOSE, FORGO)])
    play(state, [(1, CHOOSE, FORGO), (1, FORGO_EAT, 1 + CHOCOLATE)])
    assert state.round == 2
    assert state.players[1].forgo_eaten == 4
    assert state.players[1].forgone == 2
    assert [p.forgone for p in state.players] == [2, 2]
    assert holdings(state, 1) == ([], sorted([PL[0], KI[1], KI[0], CH[1], CH[0]]))


def test_forgo_ends_picking_true_at_two_players_forgoing_once():
    state = _two_player_holder()
    play(state, [(1, CHOOSE, FORGO), (1, FORGO_EAT, 1 + KIWI)])
    # both seats have forgone: their second turns are skipped and round 2 begins
    assert state.round == 2 and state.decision().phase == CUT
    assert state.players[1].forgo_eaten == 2
    assert [p.forgone for p in state.players] == [1, 1]
    assert holdings(state, 1)[0] == [CH[0], CH[1]]


# forgo_ends_picking, steps after the server forgoes on its first snake turn, leftovers
SNAKE_FORGO = [
    (True, [(1, CHOOSE, 2)] + [(1, EAT, EAT_IT)] * 4, [0]),  # its second turn is skipped
    (False, [(0, CHOOSE, FORGO), (1, CHOOSE, 2)] + [(1, EAT, EAT_IT)] * 4, [0]),
    (
        False,
        [(0, CHOOSE, 1)] + [(0, EAT, EAT_IT)] * 4 + [(1, CHOOSE, 2)] + [(1, EAT, EAT_IT)] * 4,
        [],
    ),
]


@pytest.mark.parametrize("forgo_ends_picking,script,leftovers", SNAKE_FORGO)
def test_snake_order_and_forgo_ends_picking(forgo_ends_picking, script, leftovers):
    """2 players, snake (1, 0, 0, 1), cut in 3 pieces: seat 1 takes one, the server
    forgoes, then plays (False) or is skipped (True) on its second turn in a row."""
    state = new_game(2, two_player_order="snake", forgo_ends_picking=forgo_ends_picking)
    play(state, [(0, CUT, mask(2, 6, 10))])  # pieces 3..6, 7..10, 0..2
    play(state, [(1, CHOOSE, 3)] + [(1, EAT, EAT_IT)] * 3)
    play(state, [(0, CHOOSE, FORGO)])
    play(state, script)
    assert state.round == 1
    assert [e[1] for e in state.events if e[0] == "leftover"] == leftovers


@pytest.mark.parametrize("forgo_ends_picking", [True, False])
def test_forgo_ends_picking_changes_nothing_at_3_players(forgo_ends_picking):
    state = new_game(3, forgo_ends_picking=forgo_ends_picking)
    play(state, quiet_round_script(3, 0) + quiet_round_script(3, 1))
    assert state.round == 2


def test_two_player_forgo_eats_only_slices_of_earlier_rounds():
    """2 players, round 0: seat 1 takes a piece and collects 2 chocolate, seat 0 takes the
    other; seat 1's second turn is a forced forgo. Nothing it holds was collected in an
    earlier round, so it has nothing to eat: round 1 should begin."""
    stack = [CH[0], CH[1], PL[0], PL[1], PL[2], AP[0], AP[1], AP[2], AP[3], CR[0], CR[1]]
    state = new_game(2, lay(stack))
    play(state, [(0, CUT, mask(1, 10)), (1, CHOOSE, 2), (1, EAT, COLLECT), (1, EAT, COLLECT)])
    play(state, [(0, CHOOSE, 1)] + [(0, EAT, EAT_IT)] * 9)
    d = state.decision()
    assert (d.player, d.phase) == (1, CUT)  # engine: (1, FORGO_EAT) offering chocolate


# ------------------------------------------- forced_forgo_after_take at 2 players
def _after_take_round(cut: int, **rules) -> GameState:
    """2 players. Round 0 of :func:`_two_player_holder` (cut in four, every turn takes:
    seat 1 ends it holding 2 kiwi and 2 chocolate collected, seat 0 nothing); returned at
    round 1 (server 1, order 0, 1, 0, 1, or 0, 1, 1, 0 under snake; the circle 5 cherry
    then 6 blackberry) after the server's ``cut``."""
    stack = [AP[0], CH[0], CH[1], AP[1], AP[2], AP[3], KI[0], KI[1], PL[0], PL[1], PL[2]]
    state = new_game(2, lay(stack), **rules)
    play(state, [(0, CUT, mask(0, 2, 5, 8))])
    steps = {1: [[(1, CHOOSE, 1), (1, EAT, COLLECT), (1, EAT, COLLECT)],
                 [(1, CHOOSE, 3), (1, EAT, COLLECT), (1, EAT, COLLECT), (1, EAT, EAT_IT)]],
             0: [[(0, CHOOSE, 2)] + [(0, EAT, EAT_IT)] * 3,
                 [(0, CHOOSE, 4)] + [(0, EAT, EAT_IT)] * 3]}  # fmt: skip
    for seat in turn_order(0, 2, state.rules):  # alternate 1, 0, 1, 0 or snake 1, 0, 0, 1
        play(state, steps[seat].pop(0))
    assert state.round == 1 and holdings(state, 1)[0] == [KI[0], KI[1], CH[0], CH[1]]
    play(state, [(1, CUT, cut)])
    return state


TWO = mask(4, 10)  # piece 0: positions 5..10 (6 blackberry), piece 1: 0..4 (5 cherry)
THREE = mask(1, 4, 10)  # pieces 2..4 (3 cherry), 5..10 (6 blackberry), 0..1 (2 cherry)
BOTH_TAKE = [(0, CHOOSE, 1)] + [(0, EAT, EAT_IT)] * 6 + [(1, CHOOSE, 2)] + [(1, EAT, EAT_IT)] * 5
# id, rules, cut, the round's steps, forgone per seat, forgo_eaten per seat, passed turns
AFTER_TAKE = [
    # both take a piece, none is left at turns 3 and 4: the ruling gives each a forced
    # forgo (seat 0 holds nothing to eat; seat 1 eats its 2 kiwi) ...
    ("default: both forgo", {}, TWO, BOTH_TAKE + [(1, FORGO_EAT, 1 + KIWI)], [1, 1], [0, 2],
     []),
    # ... the other reading passes both turns: no forgo, nothing eaten
    ("false: both turns pass", {"forced_forgo_after_take": False}, TWO, BOTH_TAKE, [0, 0],
     [0, 0], [0, 1]),
    # seat 0 forgoes on its first turn (keeping its turns): it has taken nothing, so its
    # second turn with nothing left is a forced forgo under both readings; seat 1 took the
    # whole cake: forgo-eat (default) or pass (false)
    ("default, a seat without a piece", {"forgo_ends_picking": False}, 0,
     [(0, CHOOSE, FORGO), (1, CHOOSE, 1)] + [(1, EAT, EAT_IT)] * 11
     + [(1, FORGO_EAT, 1 + CHOCOLATE)], [2, 1], [0, 2], []),
    ("false, a seat without a piece", {"forgo_ends_picking": False,
                                       "forced_forgo_after_take": False}, 0,
     [(0, CHOOSE, FORGO), (1, CHOOSE, 1)] + [(1, EAT, EAT_IT)] * 11, [2, 0], [0, 0], [1]),
    # a piece still free at the later turn: a voluntary forgo after a take, both readings
    ("default, voluntary forgo after a take", {}, THREE,
     [(0, CHOOSE, 2)] + [(0, EAT, EAT_IT)] * 6 + [(1, CHOOSE, 1)] + [(1, EAT, EAT_IT)] * 3
     + [(0, CHOOSE, FORGO), (1, CHOOSE, FORGO), (1, FORGO_EAT, 1 + KIWI)], [1, 1], [0, 2], []),
    ("false, voluntary forgo after a take", {"forced_forgo_after_take": False}, THREE,
     [(0, CHOOSE, 2)] + [(0, EAT, EAT_IT)] * 6 + [(1, CHOOSE, 1)] + [(1, EAT, EAT_IT)] * 3
     + [(0, CHOOSE, FORGO), (1, CHOOSE, FORGO), (1, FORGO_EAT, 1 + KIWI)], [1, 1], [0, 2], []),
    # snake (0, 1, 1, 0): seat 1 takes twice in a row, none left for seat 0's second turn
    ("snake default", {"two_player_order": "snake"}, TWO,
     [(0, CHOOSE, 1)] + [(0, EAT, EAT_IT)] * 6 + [(1, CHOOSE, 2)] + [(1, EAT, COLLECT)] * 5
     + [(1, FORGO_EAT, 1 + KIWI)], [1, 1], [0, 2], []),
    ("snake false", {"two_player_order": "snake", "forced_forgo_after_take": False}, TWO,
     [(0, CHOOSE, 1)] + [(0, EAT, EAT_IT)] * 6 + [(1, CHOOSE, 2)] + [(1, EAT, COLLECT)] * 5,
     [0, 0], [0, 0], [1, 0]),
]  # fmt: skip


@pytest.mark.parametrize("rules,cut,script,forgone,forgo_eaten,passed",
                         [c[1:] for c in AFTER_TAKE], ids=[c[0] for c in AFTER_TAKE])  # fmt: skip
def test_forced_forgo_after_take(rules, cut, script, forgone, forgo_eaten, passed):
    """Round 1 of :func:`_after_take_round` played to its end (round 2's cut is next):
    each seat's turns forgone in it, slices eaten by forgoing, and the turns that passed."""
    state = _after_take_round(cut, **rules)
    before = [p.forgone for p in state.players]
    play(state, script)
    assert state.round == 2 and state.decision().phase == CUT
    assert [p.forgone - b for p, b in zip(state.players, before, strict=True)] == forgone
    assert [p.forgo_eaten for p in state.players] == forgo_eaten
    assert [e[1] for e in state.events if e[0] == "pass"] == passed


@pytest.mark.parametrize("after_take", [True, False])
def test_forced_forgo_after_take_changes_nothing_at_3_players(after_take):
    """3 players, server 0 cuts two pieces: seats 1 and 2 take them, the server (which took
    nothing) forgoes, whatever the option."""
    state = new_game(3, forced_forgo_after_take=after_take)
    play(state, [(0, CUT, mask(4, 10)), (1, CHOOSE, 1)] + [(1, EAT, EAT_IT)] * 6)
    play(state, [(2, CHOOSE, 2)] + [(2, EAT, EAT_IT)] * 5)
    assert state.round == 1 and [p.forgone for p in state.players] == [1, 0, 0]
    assert not [e for e in state.events if e[0] == "pass"]


# ----------------------------------------------------------------------- leftovers
def test_leftover_pieces_leave_the_game():
    stack = list(GO) + [BB[0], BB[1]]
    state = new_game(3, lay(stack))
    play(state, [(0, CUT, mask(1, 4, 8))])  # pieces: 2..4, 5..8, 9, 10, 0, 1
    assert [p.slices for p in state.pieces] == [stack[2:5], stack[5:9], stack[9:] + stack[:2]]
    play(state, [(1, CHOOSE, 2)] + [(1, EAT, COLLECT)] * 4)
    play(state, [(2, CHOOSE, FORGO), (0, CHOOSE, FORGO)])
    assert state.round == 1
    assert [e for e in state.events if e[0] == "leftover"] == [
        ("leftover", 0, tuple(stack[2:5])),
        ("leftover", 2, tuple(stack[9:] + stack[:2])),
    ]
    finish(state)
    left = set(stack[2:5] + stack[9:] + stack[:2])
    for seat in range(3):
        c, e = holdings(state, seat)
        assert not left & set(c + e)
    # seat 1 holds 4 gooseberries (9 points); gooseberry and blackberry leftovers are nobody's
    assert [b.score for b in state.scores()] == [0, 9, 0]


# ---------------------------------------------------------------------- cut options
@pytest.mark.parametrize(
    "n,rules,count,top",
    [
        (2, {}, 551, 4),
        (2, {"two_player_pieces": 2}, 56, 2),
        (2, {"two_player_pieces": 3}, 221, 3),
        (2, {"two_player_pieces": 6}, 1475, 6),
        (3, {}, 221, 3),
        (4, {}, 551, 4),
        (5, {}, 1013, 5),
        (3, {"two_player_pieces": 2}, 221, 3),
    ],
)
def test_cut_offers_up_to_max_pieces(n, rules, count, top):
    state = new_game(n, **rules)
    d = state.decision()
    assert d.phase == CUT and d.legal == cut_masks(top)
    assert len(d.legal) == count and 0 in d.legal
    assert max(m.bit_count() for m in d.legal) == top


@pytest.mark.parametrize(
    "n,rules,count,pieces",
    [
        (2, {}, 330, 4),
        (2, {"two_player_pieces": 2}, 55, 2),
        (3, {}, 165, 3),
        (4, {}, 330, 4),
        (5, {}, 462, 5),
    ],
)
def test_exact_pieces(n, rules, count, pieces):
    state = new_game(n, exact_pieces=True, **rules)
    d = state.decision()
    assert len(d.legal) == count
    assert {m.bit_count() for m in d.legal} == {pieces}
    with pytest.raises(IllegalAction, match="action 0 is not legal for CUT"):
        state.apply(0)  # the whole cake is no longer a cut
    state.apply(d.legal[0])
    assert len(state.pieces) == pieces


def test_two_player_pieces_six_leaves_two_pieces():
    state = new_game(2, lay(list(ST) + [KI[0]]), two_player_pieces=6)
    play(state, [(0, CUT, mask(0, 1, 2, 3, 4, 5))])  # 1-slice pieces 1..5 and 6..10, 0
    assert [len(p.slices) for p in state.pieces] == [1, 1, 1, 1, 1, 6]
    for seat in (1, 0, 1, 0):
        play(state, [(seat, CHOOSE, 1 + [p.taken_by for p in state.pieces].index(-1))])
        play(state, [(seat, EAT, COLLECT)])
    assert state.round == 1
    assert [e[1] for e in state.events if e[0] == "leftover"] == [4, 5]


# --------------------------------------------------------------- end-of-game scoring
def _worked_game(**rules) -> GameState:
    """The spec's worked checks: 3 players; seat 1 collects 3 chocolate, seat 2 collects 3,
    seat 0 collects 2 and eats 1 chocolate and 2 plums; then four quiet rounds."""
    stack = [CH[0], CH[1], CH[2], CH[3], CH[4], CH[5], CH[6], CH[7], CH[8], PL[0], PL[1]]
    state = new_game(3, lay(stack), **rules)
    play(state, [(0, CUT, mask(2, 5, 10))])  # pieces 3..5, 6..10, 0..2
    play(state, [(1, CHOOSE, 3)] + [(1, EAT, COLLECT)] * 3)
    play(state, [(2, CHOOSE, 1)] + [(2, EAT, COLLECT)] * 3)
    play(state, [(0, CHOOSE, 2), (0, EAT, COLLECT), (0, EAT, COLLECT)] + [(0, EAT, EAT_IT)] * 3)
    assert [holdings(state, s) for s in range(3)] == [
        ([CH[6], CH[7]], sorted([CH[8], PL[0], PL[1]])),
        ([CH[0], CH[1], CH[2]], []),
        ([CH[3], CH[4], CH[5]], []),
    ]
    for r in range(1, 5):
        play(state, quiet_round_script(3, r % 3, holders=(0, 1, 2)))
    assert state.terminal
    return state


# majority_ties, tie, (majorities, cream) per seat, win shares
WORKED = [
    ("full", "shared", [(0, 5), (11, 0), (11, 0)], [0.0, 0.5, 0.5]),
    ("full", "cream", [(0, 5), (11, 0), (11, 0)], [0.0, 0.5, 0.5]),
    ("none", "shared", [(0, 5), (0, 0), (0, 0)], [1.0, 0.0, 0.0]),
    ("split", "shared", [(0, 5), (5, 0), (5, 0)], [1 / 3, 1 / 3, 1 / 3]),
    ("split", "cream", [(0, 5), (5, 0), (5, 0)], [1.0, 0.0, 0.0]),
]


@pytest.mark.parametrize("majority_ties,tie,parts,shares", WORKED)
def test_worked_checks_end_to_end(majority_ties, tie, parts, shares):
    state = _worked_game(majority_ties=majority_ties, tie=tie)
    assert [(b.majorities, b.cream) for b in state.scores()] == parts
    assert state.score_breakdown() == [
        {"score": m + c, "majorities": m, "cream": c} for m, c in parts
    ]
    assert state.win_shares() == pytest.approx(shares)
    assert state.decision() is None and state.current_player == -1
    assert state.legal_actions() == ()


def test_scores_before_the_end_and_actions_after_it_are_refused():
    state = new_game(3)
    with pytest.raises(SlicelabError, match="not over yet"):
        state.scores()
    finish(state)
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(0)


def test_illegal_action_is_refused_and_changes_nothing():
    state = new_game(3)
    with pytest.raises(IllegalAction, match="action 1 is not legal for CUT"):
        state.apply(1)  # a single gap is not a cut
    assert state.history == [] and state.decision().phase == CUT
    state.apply(0)
    with pytest.raises(IllegalAction, match=r"action 2 is not legal for CHOOSE \(player 1\)"):
        state.apply(2)  # there is one piece
    assert state.history == [0]


# ------------------------------------------------------------------- clone
def test_clone_is_independent_and_replays_the_same_state():
    state = _collector_game(forgo_eats="choose")
    copy = state.clone()
    assert copy.history == state.history and copy.trace == state.trace
    assert copy.decision() == state.decision()
    assert copy.events == state.events
    play(copy, [(1, CHOOSE, FORGO), (1, FORGO_EAT, 1 + CHOCOLATE), (1, FORGO_COUNT, 2)])
    # the original is untouched
    assert state.decision().phase == CHOOSE and state.players[1].collected[CHOCOLATE] == list(
        CH[:3]
    )
    assert copy.players[1].collected[CHOCOLATE] == [CH[0]]
    # the same actions on both give the same game
    play(state, [(1, CHOOSE, FORGO), (1, FORGO_EAT, 1 + CHOCOLATE), (1, FORGO_COUNT, 2)])
    finish(state)
    finish(copy)
    assert state.scores() == copy.scores() and state.events == copy.events


@pytest.mark.parametrize("n", [2, 5])
def test_same_deal_and_actions_give_the_same_game(n):
    d = deal(CAKE, np.random.default_rng(11))
    games = []
    for _ in range(2):
        state = GameState(CAKE, Rules(), n, d)
        policy = np.random.default_rng(3)
        while not state.terminal:
            legal = state.legal_actions()
            state.apply(legal[int(policy.integers(0, len(legal)))])
        games.append(state)
    a, b = games
    assert a.history == b.history and a.scores() == b.scores() and a.events == b.events
