"""Piece o' Cake's ``search`` player in the compiled kernel, decisions and playouts alike
(``sims/games/pieceocake/kernel/search.py``): the twin of ``search.SearchStrategy``.

- agreement: for the same (study seed, game index) the kernel and the reference engine
  write the same decision records and score rows in games with one and with several
  search seats, at 2 to 5 players, under the rule options, on another cake, the search
  seats meeting every kind of decision;
- the seat's view: a search decision taken from an explicit deal with the decisions so
  far forced is the reference's, and stays the same when the order of the slices not yet
  laid (what the seat cannot see) changes;
- reproducibility: a study's search games are the same alone or in any chunk, and the
  plugin plays them in the kernel under ``engine = "auto"`` and in Python under
  ``"reference"``, with the same rows.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyarrow as pa
import pytest

from sims.core.seeding import game_streams
from sims.core.study import Arm
from sims.games.pieceocake.cake import default_cake, parse_cake
from sims.games.pieceocake.engine import Deal, GameState, Phase, deal
from sims.games.pieceocake.game import play_game, seat_strategies
from sims.games.pieceocake.kernel import (
    N_SEAT_PARAMS,
    STRAT_SEARCH,
    KernelRunner,
    seat_params,
    strategy_codes,
)
from sims.games.pieceocake.plugin import GAME
from sims.games.pieceocake.records import DECISION_COLUMNS, score_rows
from sims.games.pieceocake.rules import Rules
from sims.games.pieceocake.search import SearchStrategy
from sims.games.pieceocake.strategies import make_strategy
from sims.games.pieceocake.view import PlayerView

CAKE = default_cake()
SMALL_CAKE = parse_cake(
    {"name": "small", "variety": [
        {"name": "a", "copies": 12, "value": 6, "cream": 1},
        {"name": "b", "copies": 14, "cream": 2},
        {"name": "c", "copies": 16, "value": 3, "cream": 0},
        {"name": "d", "copies": 18, "cream": 3},
    ]},
    "test",
)  # fmt: skip


def _compare(n, specs, seed, index, rules, cake=CAKE) -> list[list[int]]:
    """Game (seed, index) in both engines: the same decision records and score rows."""
    runner = KernelRunner(cake, rules)
    scores, ndec, recs = runner.play_many(
        n, strategy_codes(specs), seed, index, 1, records=True, hparams=seat_params(specs, n)
    )
    rows: list[list[int]] = []
    state = play_game(n, seat_strategies(specs, n), seed, index, cake, rules, records=rows)
    got = recs.tolist()
    if got != rows:
        i = next((i for i, (a, b) in enumerate(zip(got, rows, strict=False)) if a != b),
                 min(len(got), len(rows)))  # fmt: skip
        raise AssertionError(
            f"{n} players {specs} {rules} seed {seed} game {index}: first diverging record "
            f"#{i}:\n  reference {rows[i] if i < len(rows) else None}\n"
            f"  kernel    {got[i] if i < len(got) else None}\n  ({DECISION_COLUMNS})"
        )
    assert ndec[0] == len(rows)
    assert scores[0].tolist() == score_rows(state), (n, specs, rules, index)
    return rows


FE, FC = Phase.FORGO_EAT, Phase.FORGO_COUNT
AGREEMENT = [
    # (players, seats, rules, cake, the search seats' phases besides CUT, CHOOSE and EAT):
    # small budgets; one search seat moving round the table, several search seats,
    # truncated and whole cut lists (cuts=1: a single candidate, no playout), opponents of
    # every family, every rule option the game has, another cake.
    (2, ["search(budget=6,cuts=3)", "heuristic"], Rules(), CAKE, {FE}),
    (2, ["search(budget=4,cuts=2)", "search(budget=5)"],
     Rules(two_player_order="snake", forgo_eats="choose"), CAKE, {FE, FC}),
    (2, ["search(budget=3,cuts=60)", "greedy"],
     Rules(two_player_pieces=6, forgo_ends_picking=False), CAKE, {FE}),
    (2, ["search(budget=4,cuts=1)", "random"],
     Rules(forced_forgo_after_take=False, two_player_pieces=3), CAKE, {FE}),
    (3, ["search(budget=6,cuts=3)", "greedy", "random"],
     Rules(forgo_ends_picking=False, majority_ties="split"), CAKE, set()),
    (3, ["search(budget=5,cuts=4)", "search(budget=3,cuts=2)", "heuristic"],
     Rules(forgo_eats="choose"), SMALL_CAKE, {FE, FC}),
    (4, ["search(budget=8)", "heuristic", "heuristic", "heuristic"], Rules(), CAKE, {FE}),
    (4, ["search(budget=4,cuts=2)", "search(budget=6,cuts=3)", "heuristic", "random"],
     Rules(exact_pieces=True, tie="cream"), CAKE, {FE}),
    (5, ["search(budget=5,cuts=3)", "heuristic", "greedy", "random", "heuristic-eq3"],
     Rules(forgo_eats="none", majority_ties="none", first_server=4), CAKE, set()),
    (5, ["search(budget=3,cuts=2)"] * 5, Rules(tie="cream", majority_ties="full"), CAKE, {FE}),
]  # fmt: skip


@pytest.mark.parametrize("n, seats, rules, cake, extra", AGREEMENT, ids=range(len(AGREEMENT)))
def test_kernel_search_agrees_with_the_reference_search(n, seats, rules, cake, extra):
    """Every seat in turn takes the search seats' places (the seating rotated, twice), each
    game the same in both engines, records and scores."""
    phases: Counter = Counter()
    for g in range(2 * n):
        specs = seats[g % n :] + seats[: g % n]
        rows = _compare(n, specs, 40 + n, g, rules, cake)
        phases.update(Phase(r[4]) for r in rows if specs[r[3]].startswith("search"))
    assert set(phases) == {Phase.CUT, Phase.CHOOSE, Phase.EAT, *extra}, phases


# ----------------------------------------------------------------------------- the view
def _with_future(game_deal: Deal, r: int) -> Deal:
    """The deal with the stacks laid by round r kept and the slices to come (the later
    stacks and those left out) in the reverse order."""
    future = [*sum(game_deal.stacks[r + 1 :], ()), *game_deal.unseen]
    other = future[::-1]
    stacks = [*game_deal.stacks[: r + 1]]
    for _ in range(r + 1, len(game_deal.stacks)):
        stacks.append(tuple(int(x) for x in other[:11]))
        other = other[11:]
    out = Deal(stacks=tuple(stacks), unseen=tuple(int(x) for x in other))
    assert out != game_deal
    return out


def _row(d: Deal) -> np.ndarray:
    return np.array([*sum(d.stacks, ()), *d.unseen], dtype=np.int64)


VIEW_CASES = [
    # (players, seats, rules): the search seat's decisions at some decisions of a game
    (2, ["search(budget=6,cuts=4)", "heuristic"], Rules()),
    (3, ["greedy", "search(budget=6)", "random"], Rules(forgo_eats="choose")),
    (4, ["heuristic", "heuristic", "search(budget=8,cuts=3)", "search(budget=4)"],
     Rules(tie="cream")),
    (5, ["search(budget=5,cuts=5)", "heuristic", "heuristic", "greedy", "heuristic"], Rules()),
]  # fmt: skip


@pytest.mark.parametrize("n, seats, rules", VIEW_CASES, ids=range(len(VIEW_CASES)))
def test_a_search_decision_depends_only_on_the_seats_view(n, seats, rules):
    """From a game's deal with its first D decisions forced, the search seat deciding at D
    (its stream as it starts) takes the reference SearchStrategy's action, and the same
    action when the slices not yet laid come in another order (hidden from it)."""
    seed, index = 17, n
    runner = KernelRunner(CAKE, rules)
    codes, hp = strategy_codes(seats), seat_params(seats, n)
    real = deal(CAKE, game_streams(seed, index, n).deal)
    scores, choices = runner.play_deal(n, codes, _row(real), [], seed, index, hp)
    study, ndec, _ = runner.play_many(n, codes, seed, index, 1, hparams=hp)
    assert np.array_equal(scores, study[0]) and len(choices) == ndec[0]  # the study's game
    # the search seats' decisions with several candidates, a few of every phase
    state = GameState(CAKE, rules, n, real)
    points: dict[Phase, list[int]] = {}
    for d, c in enumerate(choices):
        dec = state.decision()
        if seats[dec.player].startswith("search") and len(dec.legal) > 1:
            points.setdefault(dec.phase, []).append(d)
        state.apply(dec.legal[c])
    assert state.terminal
    picks = sorted(d for ds in points.values() for d in ds[:: max(1, len(ds) // 3)][:3])
    assert {Phase.CUT, Phase.CHOOSE, Phase.EAT} <= set(points)
    changed = 0
    for d in picks:
        before = GameState(CAKE, rules, n, real)
        for c in choices[:d]:
            before.apply(before.decision().legal[c])
        dec = before.decision()
        other = _with_future(real, before.round)
        kern = {}
        for name, the_deal in (("real", real), ("other", other)):
            _, kern[name] = runner.play_deal(n, codes, _row(the_deal), choices[:d], seed, index, hp)
            changed += kern[name][d + 1 :] != choices[d + 1 :]
        assert kern["real"][d] == kern["other"][d], (d, dec.phase)  # the view alone decides
        for name, the_deal in (("real", real), ("other", other)):
            state = GameState(CAKE, rules, n, the_deal)
            for c in choices[:d]:
                state.apply(state.decision().legal[c])
            assert state.decision() == dec  # the same decision, seen the same
            search = SearchStrategy(make_strategy(seats[dec.player]).spec)
            stream = game_streams(seed, index, n).seats[dec.player]
            action = search.choose(PlayerView(state, dec.player), dec, stream)
            assert dec.legal[kern[name][d]] == action, (d, dec.phase, name)
    assert changed > 0  # the forced prefix and the other deals did change the games


# ----------------------------------------------------------------------------- reproducible
def test_search_games_are_the_same_in_any_chunk():
    """Games 3 .. 8 of a study with search seats: the same scores, decision counts and
    records played as one chunk, in chunks of 2 and 4, and one by one."""
    n, specs = 3, ["search(budget=6,cuts=3)", "random", "search(budget=4)"]
    runner = KernelRunner(CAKE, Rules())
    codes, hp = strategy_codes(specs), seat_params(specs, n)
    whole = runner.play_many(n, codes, 9, 3, 6, records=True, hparams=hp)
    for size in (1, 2, 4):
        parts = [
            runner.play_many(n, codes, 9, first, min(size, 9 - first), records=True, hparams=hp)
            for first in range(3, 9, size)
        ]
        for k in range(3):
            assert np.array_equal(np.concatenate([p[k] for p in parts]), whole[k]), (size, k)
    again = runner.play_many(n, codes, 9, 3, 6, hparams=hp)
    assert np.array_equal(again[0], whole[0]) and again[2] is None
    other = runner.play_many(n, codes, 10, 3, 6, hparams=hp)
    assert not np.array_equal(other[0], whole[0])  # another seed, other games


def test_a_study_arm_with_search_seats_is_the_same_in_any_step():
    """Through the study runner (``sims.batch.play_arm``): the same rows in steps of 1, 2
    and 5 games."""
    from sims.batch import one_arm, play_arm

    arm = one_arm({"name": "s", "game": "pieceocake", "players": 4, "games": 5,
                   "strategies": ["heuristic", "search(budget=4,cuts=2)", "greedy",
                                  "search(budget=3)"]}, seed=8)  # fmt: skip
    assert GAME.engine_for(arm) == "kernel"
    tables = {}
    for step in (1, 2, 5):
        parts = [t["players"] for _, t in play_arm(arm, 0, 5, step)]
        tables[step] = pa.concat_tables(parts)
    assert tables[1].equals(tables[5]) and tables[2].equals(tables[5])
    assert tables[5].num_rows == 5 * 4


def _arm(strategies, engine) -> Arm:
    return Arm(name="a", game="pieceocake", players=len(strategies), games=4,
               strategies=tuple(strategies), seed=2, engine=engine,
               options={"cake": None, "rules": {"tie": "cream"}})  # fmt: skip


def test_the_plugin_plays_search_seats_in_the_kernel_unless_told_otherwise():
    seats = ("search(budget=4)", "heuristic", "greedy")
    kernel, reference = _arm(seats, "auto"), _arm(seats, "reference")
    assert GAME.engine_for(kernel) == "kernel" and GAME.engine_for(reference) == "reference"
    assert [i.kernel for i in GAME.strategies() if i.name == "search"] == [True]
    a = GAME.play_chunk(kernel, 1, 3, decisions=True)
    b = GAME.play_chunk(reference, 1, 3, decisions=True)
    assert list(a.seats) == list(b.seats)
    for name, col in a.seats.items():
        other = b.seats[name]
        if isinstance(col, np.ndarray):
            assert col.dtype == other.dtype and np.array_equal(col, other), name
        else:  # the by-variety lists
            assert col.equals(other), name
    assert a.decisions.equals(b.decisions)


def test_search_seat_parameters_and_codes():
    specs = ["search", "search(budget=12,cuts=2)", "heuristic", "random"]
    assert strategy_codes(specs).tolist()[:2] == [STRAT_SEARCH] * 2
    hp = seat_params(specs, 4)
    assert hp.shape == (4, N_SEAT_PARAMS)
    field = SearchStrategy(make_strategy("search").spec).field_params(4)
    heuristic = [field[k] for k in ("theta", "loss", "fewer", "margin")]
    assert hp[0].tolist() == [*heuristic, 64.0, 6.0]
    assert hp[1].tolist() == [*heuristic, 12.0, 2.0]
    assert hp[2].tolist() == [*heuristic, 0.0, 0.0] and hp[3].tolist() == [0.0] * 6
    runner = KernelRunner(CAKE, Rules())
    with pytest.raises(ValueError, match="budget and cuts"):
        runner.play_many(4, strategy_codes(specs), 1, 0, 1, hparams=hp[:, :4])
    from sims.games.pieceocake.kernel.game import playouts_kernel
    from sims.games.pieceocake.kernel.layout import N_SCORE

    args = runner._setup(4, strategy_codes(specs), hp)
    deals = _row(deal(CAKE, np.random.default_rng(0)))[None]
    hists, hlen = np.zeros((1, 1), dtype=np.int64), np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError, match="cannot search"):
        playouts_kernel(*args, deals, hists, hlen, np.zeros((1, 1, 4, N_SCORE), dtype=np.int64))
