"""Pizza Theory's search player (``search.py``, the reference; ``kernel_search.py``, its
compiled twin): its parameters and their bounds; a playout is the game the reference
engine plays from the same position with heuristic seats and the sampled cuts; the
compiled search makes the reference's decisions, decision for decision and row for row,
at 2 and 3 players, with one and several search seats, under other rule options and on
other boards; it reads only its seat's view (the other seats' cuts of the round and the
die's later rolls change no decision, nor the draws it makes); games are the same in any
chunk; and it beats the heuristic field. Relabelling the colours changes none of its
decisions (``test_pizzatheory_strategies``)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from sims.core.errors import StrategySpecError
from sims.core.fastrng import game_streams_into, next_double
from sims.core.seeding import game_streams
from sims.core.specs import StrategySpec
from sims.games.pizzatheory.board import default_board, shipped_board
from sims.games.pizzatheory.engine import GameState, Phase, deal
from sims.games.pizzatheory.game import play_game, seat_strategies
from sims.games.pizzatheory.kernel import (
    KINDS,
    board_arrays,
    decide_kernel,
    play_many,
    playout_kernel,
    rules_array,
    seat_arrays,
)
from sims.games.pizzatheory.kernel_flow import K_SEARCH
from sims.games.pizzatheory.plugin import GAME
from sims.games.pizzatheory.records import game_row, seat_rows
from sims.games.pizzatheory.rules import NEUTRAL, Rules
from sims.games.pizzatheory.search import (
    SEARCH_BOUNDS,
    SEARCH_DEFAULTS,
    ST_NEUTRAL,
    ST_RESOLVE,
    SearchStrategy,
    draw_line,
    first_seat,
    outcome,
)
from sims.games.pizzatheory.strategies import STRATEGIES, MixedStrategy, make_strategy
from sims.games.pizzatheory.view import PlayerView

BOARD = default_board()


# ------------------------------------------------------------------------ the spec
def test_registered_with_its_defaults_and_bounds():
    info = STRATEGIES["search"]
    assert info.params == {k: float(v) for k, v in SEARCH_DEFAULTS.items()}
    assert set(info.bounds) == set(SEARCH_BOUNDS) == set(SEARCH_DEFAULTS)
    s = make_strategy("search(budget=8,places=2)")
    assert isinstance(s, SearchStrategy)
    assert s.params(3) == {**SEARCH_DEFAULTS, "budget": 8.0, "places": 2.0}
    assert KINDS["search"] == K_SEARCH
    kinds, sp = seat_arrays(["search(budget=8,places=2,model=1)", "heuristic", "mixed"], 3)
    assert kinds.tolist() == [K_SEARCH, KINDS["heuristic"], KINDS["mixed"]]
    m = make_strategy("mixed").params(3)
    assert sp[0].tolist() == [1.0, 0.5, 0.0, 0.0, m["iters"], 8.0, 2.0, m["aggression"],
                              m["leader"], 1.0]  # fmt: skip
    assert "search" in [i.name for i in GAME.strategies()]
    assert GAME.strategy_identity("search", 3) == GAME.strategy_identity(
        "search(budget=96,places=4,model=0,aggression=1,leader=0.5,risk=0)", 3
    )


@pytest.mark.parametrize("spec, message", [
    ("search(budget=0)", "budget must be an integer from 1 to 10000, got 0"),
    ("search(budget=2.5)", "budget must be an integer from 1 to 10000, got 2.5"),
    ("search(budget=1e9)", "budget must be an integer"),
    ("search(places=0)", "places must be an integer from 1 to 255"),
    ("search(model=2)", "model must be an integer from 0 to 1, got 2"),
    ("search(aggression=-1)", "aggression must be a number from 0 to 10"),
    ("search(risk=6)", "risk must be a number from -5 to 5"),
    ("search(budget=inf)", "budget must be"),
    ("search(budget=true)", "budget must be"),
    ("search(depth=2)", "has no parameter(s) ['depth']"),
])  # fmt: skip
def test_bad_parameters_are_refused(spec, message):
    with pytest.raises(StrategySpecError, match=re.escape(message)):
        make_strategy(spec)


def test_a_search_built_without_make_strategy_is_checked_too():
    with pytest.raises(StrategySpecError, match="budget must be"):
        SearchStrategy(StrategySpec("search", {"budget": 0}))


# ------------------------------------------------------------------------ positions
def _position(n: int, g: int, rules: Rules | None = None, board=BOARD, seed: int = 40):
    """A game played at random for a random number of decisions (a fresh game, the
    random number from the game's index): its state, deal and the stopping decision."""
    rules = rules or Rules()
    rng = np.random.default_rng(1000 * n + g)
    the_deal = deal(n, rules, game_streams(seed, g, n).deal)
    state = GameState(board, rules, n, the_deal)
    for _ in range(int(rng.integers(0, 45))):
        if state.terminal:
            break
        d = state.decision()
        state.apply(d.legal[int(rng.integers(len(d.legal)))])
    return state, the_deal, rng


def _finish(state: GameState, seat: int, round_: int, u: dict, model: MixedStrategy):
    """The reference engine plays ``state`` out: every seat the heuristic, except the
    other seats' cuts of round ``round_``, drawn by ``u`` from the field model's mixes."""
    heuristic = make_strategy("heuristic")
    while not state.terminal:
        d = state.decision()
        view = PlayerView(state, d.player)
        if d.phase == Phase.CUT and state.round == round_ and d.player in u:
            state.apply(draw_line(model.mix(view, d.player), u[d.player]))
        else:
            state.apply(heuristic.choose(view, d, None))
    return state


@pytest.mark.parametrize("n", [2, 3])
def test_a_playout_is_the_reference_engines_game(n):
    """From a position (at every kind of decision), the candidate taken and the other
    seats' cuts of the round drawn from the mixed field's mixes, the kernel's playout ends
    as the reference engine's heuristic seats end the same game (the deal's own die)."""
    rules = Rules()
    model = MixedStrategy(StrategySpec("mixed"))
    mp = model.params(n)
    phases = set()
    for g in range(24):
        state, the_deal, rng = _position(n, g)
        if state.terminal:
            continue
        d = state.decision()
        seat, view = d.player, PlayerView(state, d.player)
        phases.add(d.phase)
        action = d.legal[int(rng.integers(len(d.legal)))]
        order = view.turn_order()
        u = {q: float(rng.random()) for q in order if q != seat}
        pos = np.array(view.positions, dtype=np.int64)
        lines = np.full(3, -1, dtype=np.int64)
        cutu = np.full(3, -1.0)
        die = np.array(the_deal.neutral_lines or [0] * rules.max_rounds, dtype=np.int64)
        if d.phase == Phase.CUT:  # the round replayed with the sampled cuts
            cuts = {q: action if q == seat else draw_line(model.mix(view, q), u[q])
                    for q in order}  # fmt: skip
            ref = GameState(BOARD, rules, n, the_deal)
            done = order.index(seat)  # the cuts already made this round
            for a in state.history[: len(state.history) - done]:
                ref.apply(a)
            for q in order:
                ref.apply(cuts[q])
                lines[pos[q]] = cuts[q]
            if n == 2:
                lines[pos[NEUTRAL]] = view.neutral_line
            step, forced, u_ref = ST_RESOLVE, -1, {}
        else:
            ref = state.clone()
            ref.apply(action)
            for q, x in u.items():
                cutu[q] = x
            step = order.index(seat) if d.phase == Phase.PLACE else ST_NEUTRAL
            forced, u_ref = action, u
        _finish(ref, seat, state.round, u_ref, model)
        out = np.zeros((n, 2), dtype=np.int64)
        ending = playout_kernel(*board_arrays(BOARD), rules_array(rules), n,
                                np.array([1.0, 0.5, 0.0]),
                                np.array([mp["aggression"], mp["leader"], mp["iters"]]),
                                np.array(view.owner, dtype=np.int64),
                                np.array(view.supply, dtype=np.int64), pos, view.round,
                                first_seat(view), step, lines, die, forced, cutu,
                                out)  # fmt: skip
        assert out.tolist() == [[w, ref.on_board(q)] for q, w in enumerate(ref.won())], g
        assert ending == int(ref.ending)
    assert phases == ({Phase.PLACE, Phase.CUT, Phase.NEUTRAL} if n == 2
                      else {Phase.PLACE, Phase.CUT})  # fmt: skip


def test_the_outcome_is_the_win_share_and_a_hundredth_of_the_margin():
    assert outcome(np.array([0, 1, 0]), np.array([12, 16, 9]), 1) == 1 + 0.01 * 4
    assert outcome(np.array([0, 1, 0]), np.array([12, 16, 9]), 0) == 0 + 0.01 * -4
    assert outcome(np.array([1, 1, 1]), np.array([10, 11, 9]), 2) == 1 / 3 + 0.01 * -2
    assert outcome(np.array([1, 1]), np.array([13, 13]), 0) == 0.5  # a neutral win


# ------------------------------------------------------------------ kernel = reference
def _agree(n, specs, games, seed=5, rules=None, board="hex-37"):
    b, rules = shipped_board(board), rules or Rules()
    seats, games_, recs = play_many(b, rules, n, seed, 0, games, records=True, strategies=specs)
    assert recs.shape[0] == games_[:, -1].sum()
    row, phases = 0, set()
    for g in range(games):
        records: list[list[int]] = []
        state = play_game(n, seat_strategies(specs, n), seed, g, b, rules, records)
        assert recs[row : row + len(records)].tolist() == records, g
        assert seats[g].tolist() == seat_rows(state), g
        assert games_[g].tolist() == [*game_row(state), len(state.trace)], g
        phases |= {(r[2], r[4]) for r in records}
        row += len(records)
    return phases


AGREE = [
    (3, ["search(budget=6,places=3)", "heuristic", "mixed(iters=20)"], Rules(), "hex-37"),
    (3, ["random", "search(budget=4,places=2)", "search(budget=7,places=2,risk=0.3)"],
     Rules(), "hex-37"),
    (3, ["search(budget=9,places=2,model=1)", "greedy", "search(budget=3,places=1)"],
     Rules(cycle_first_seat=True, runout_tiebreak=True, supply=8), "hex-37"),
    (3, ["search(budget=5,places=2,leader=1.2)"] * 3,
     Rules(safety=False, two_way_tie="nothing", rotation="counterclockwise"), "round-31"),
    (2, ["search(budget=6,places=3)", "mixed(iters=20)"], Rules(), "hex-37"),
    (2, ["search(budget=5,places=2)", "search(budget=3,places=5,model=1)"], Rules(),
     "hex-37"),
    (2, ["heuristic", "search(budget=4,places=2,aggression=0.5)"],
     Rules(first_seat=1, supply=7, runout_tiebreak=True, replacement_order="by-space"),
     "hex-61"),
]  # fmt: skip


@pytest.mark.parametrize("n, specs, rules, board", AGREE, ids=[str(i) for i in range(len(AGREE))])
def test_kernel_search_plays_the_reference_search(n, specs, rules, board):
    """Every decision record, seat row and game row: the compiled search (decisions and
    playouts, with its caches of the field model's mixes and, at 3 players, of outcomes)
    decides as the Python class, one and several search seats, beside every family."""
    phases = _agree(n, specs, 2, rules=rules, board=board)
    searchers = {s for s, spec in enumerate(specs) if spec.startswith("search")}
    seen = {p for s, p in phases if s in searchers}
    assert {int(Phase.PLACE), int(Phase.CUT)} <= seen


def test_kernel_search_meets_the_neutral_placement():
    seen = set()
    for seed in range(3):
        seen |= _agree(2, ["search(budget=4,places=2)", "search(budget=4,places=2)"], 1,
                       seed=seed)  # fmt: skip
    assert {(0, int(Phase.NEUTRAL)), (1, int(Phase.NEUTRAL))} <= seen


# -------------------------------------------------------------------- what it sees
def _stream(seed, g, n, seat):
    rngs = np.zeros((n + 1, 5), dtype=np.uint64)
    game_streams_into(seed, g, n + 1, rngs)
    return rngs[1 + seat].copy()


def _kernel_choice(state, spec, stream, lines=None, die=None):
    """The compiled search's choice at ``state``'s decision (``decide_kernel``), from
    everything the state holds, hidden or not: ``lines`` the round's cuts so far by
    direction (the engine's pending ones), ``die`` the deal's rolls."""
    n, d = state.n, state.decision()
    seat = d.player
    view = PlayerView(state, seat)
    sp = np.zeros((n, 10))
    sp[seat] = make_strategy(spec).kernel_row(n)
    order = view.turn_order()
    step = {Phase.PLACE: order.index(seat), Phase.NEUTRAL: ST_NEUTRAL}.get(d.phase)
    if step is None:
        step = 4 + order.index(seat)
    if lines is None:
        lines = np.full(3, -1, dtype=np.int64)
        for q, line in state._pending_cuts.items():
            lines[state.positions[q]] = line
        if n == 2 and state.neutral_line >= 0:
            lines[state.positions[NEUTRAL]] = state.neutral_line
    if die is None:
        die = np.array(state.deal.neutral_lines or [0] * state.rules.max_rounds, dtype=np.int64)
    return int(decide_kernel(*board_arrays(state.board), rules_array(state.rules), n, sp, seat,
                             int(d.phase), np.array(state.owner, dtype=np.int64),
                             np.array(state.supply, dtype=np.int64),
                             np.array(state.positions, dtype=np.int64), state.round,
                             state.first_seat, step, lines, die,
                             np.array(d.legal, dtype=np.int64), stream))  # fmt: skip


@pytest.mark.parametrize("n", [2, 3])
def test_the_choice_reads_only_the_seats_view(n):
    """At positions of every kind: the compiled decision equals the reference's from the
    same stream and both make the same draws; changing what the seat cannot see — the
    cuts the earlier seats made this round, the die's rolls not yet shown — changes
    neither the choice nor the draws."""
    spec = "search(budget=12,places=3)"
    checked = {Phase.PLACE: 0, Phase.CUT: 0, Phase.NEUTRAL: 0}
    hidden_cuts = 0
    for g in range(40):
        state, _, rng = _position(n, g)
        if state.terminal:
            continue
        d = state.decision()
        seat = d.player
        ref_rng = game_streams(40, g, n).seats[seat]
        want = make_strategy(spec).choose(PlayerView(state, seat), d, ref_rng)
        stream = _stream(40, g, n, seat)
        assert _kernel_choice(state, spec, stream) == want, g
        assert next_double(stream) == ref_rng.random()  # the same draws made
        for k in range(2):  # the hidden parts changed
            lines = np.full(3, -1, dtype=np.int64)
            for q in state._pending_cuts:
                lines[state.positions[q]] = int(rng.integers(0, 6))
                hidden_cuts += 1
            if n == 2 and state.neutral_line >= 0:
                lines[state.positions[NEUTRAL]] = state.neutral_line
            die = rng.integers(0, 6, state.rules.max_rounds).astype(np.int64)
            if n == 2 and state.neutral_line >= 0:
                die[state.round] = state.neutral_line
            again = _stream(40, g, n, seat)
            assert _kernel_choice(state, spec, again, lines, die) == want, (g, k)
            check = game_streams(40, g, n).seats[seat]
            make_strategy(spec).choose(PlayerView(state, seat), d, check)
            assert next_double(again) == check.random()
        checked[d.phase] += 1
    assert checked[Phase.PLACE] and checked[Phase.CUT] and hidden_cuts
    assert checked[Phase.NEUTRAL] or n == 3


def test_the_reference_choice_sees_no_pending_cut():
    """Two games alike but for the first seat's cut of the round: the second seat's view
    is the same, and so is its search's choice from the same stream."""
    spec = make_strategy("search(budget=12,places=2)")
    state = GameState(BOARD, Rules(), 3, deal(3, Rules(), np.random.default_rng(0)))
    while state.decision().phase != Phase.CUT or state.round < 1:
        state.apply(make_strategy("heuristic").choose(PlayerView(state, state.current_player),
                                                      state.decision(), None))  # fmt: skip
    choices = set()
    views = set()
    for line in range(6):
        s = state.clone()
        s.apply(line)  # the first seat's cut, hidden from the second
        views.add(PlayerView(s, s.current_player).public())
        choices.add(spec.choose(PlayerView(s, s.current_player), s.decision(),
                                np.random.default_rng(9)))  # fmt: skip
    assert len(views) == 1 and len(choices) == 1


# ------------------------------------------------------------------------ the games
def test_games_are_the_same_in_any_chunk():
    specs = ["search(budget=6,places=2)", "mixed(iters=10)", "heuristic"]
    whole, wg, _ = play_many(BOARD, Rules(), 3, 5, 0, 6, strategies=specs)
    parts = [play_many(BOARD, Rules(), 3, 5, i, 2, strategies=specs) for i in (0, 2, 4)]
    assert np.array_equal(whole, np.concatenate([p[0] for p in parts]))
    assert np.array_equal(wg, np.concatenate([p[1] for p in parts]))
    two = ["mixed(iters=10)", "search(budget=6,places=2)"]
    whole, _, _ = play_many(BOARD, Rules(), 2, 5, 0, 4, strategies=two)
    parts = [play_many(BOARD, Rules(), 2, 5, i, 1, strategies=two)[0] for i in range(4)]
    assert np.array_equal(whole, np.concatenate(parts))


def test_engines_play_alike_through_the_plugin():
    from sims.core.study import Arm

    arm = Arm(name="a", game="pizzatheory", players=3, games=2, seed=3, engine="auto",
              strategies=("search(budget=4,places=2)", "mixed(iters=10)", "heuristic"),
              options={"board": None, "rules": {}})  # fmt: skip
    assert GAME.engine_for(arm) == "kernel"
    kernel = GAME.play_chunk(arm, 0, 2, True, engine="kernel")
    reference = GAME.play_chunk(arm, 0, 2, True, engine="reference")
    for c, v in kernel.seats.items():
        assert v.tolist() == reference.seats[c].tolist(), c
    assert kernel.decisions.equals(reference.decisions)


def test_search_beats_the_heuristic_field():
    """One search seat in each seat in turn among heuristic seats, 3 players: the
    heuristic field plays one game, which the search wins from every seat (it won 180 of
    180 such games at budget 96; here at least 9 of 12)."""
    wins = 0
    for seat in range(3):
        specs = ["heuristic"] * 3
        specs[seat] = "search(budget=96)"
        seats, _, _ = play_many(BOARD, Rules(), 3, 21, 0, 4, strategies=specs)
        won = seats[:, :, 0]
        wins += int((won[:, seat] * (won.sum(axis=1) == 1)).sum())
    assert wins >= 9, wins
