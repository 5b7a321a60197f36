"""Two engines, one truth: Piece o' Cake's compiled kernel replays the reference engine
decision for decision.

For the same (study seed, game index) and strategies both engines must write the same
decision records (``records.decision_row``: seat, phase, action, legal count and the
counts around each decision) in the same order and the same score rows
(``records.score_rows``). ``random`` at every player count, ``greedy`` and the
``heuristic(...)`` family (default and tuned parameters, mixed seats) at every count, and
every non-default rule option are checked, on the published cake and on a replacement cake.
A difference fails with the first diverging record printed.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from sims.games.pieceocake.cake import default_cake, parse_cake
from sims.games.pieceocake.cuts import cut_masks, pieces_of
from sims.games.pieceocake.engine import Phase
from sims.games.pieceocake.game import play_game, seat_strategies
from sims.games.pieceocake.records import DECISION_COLUMNS, SCORE_COLUMNS, score_rows
from sims.games.pieceocake.rules import Rules
from sims.games.pieceocake.strategies import make_strategy

CAKE = default_cake()
RANDOM_GAMES = 300
HEUR_TUNED = "heuristic(theta=2.5,loss=0.4,fewer=0.7,margin=-0.6)"
HEUR_SHY = "heuristic(theta=0.4,loss=1.8,fewer=-0.5,margin=1.2)"


def _kernel():
    return pytest.importorskip("sims.games.pieceocake.kernel")


def _show(row) -> str:
    if row is None:
        return "(game over)"
    named = dict(zip(DECISION_COLUMNS, row, strict=True))
    return (
        f"round {named['round']} seat {named['seat']} {Phase(named['phase']).name} "
        f"action {named['action']} of {named['n_legal']}: {named}"
    )


def compare(n, specs, seed, games, rules=None, cake=CAKE, first=0) -> Counter:
    """Play games ``first .. first + games - 1`` of (seed, specs) in both engines and check
    every decision record and score row; returns the phases the reference decided."""
    k = _kernel()
    rules = rules or Rules()
    runner = k.KernelRunner(cake, rules)
    scores, ndec, recs = runner.play_many(
        n, k.strategy_codes(specs), seed, first, games, records=True,
        hparams=k.seat_params(specs, n),
    )  # fmt: skip
    assert scores.shape == (games, n, len(SCORE_COLUMNS))
    assert recs.shape == (int(ndec.sum()), len(DECISION_COLUMNS))
    strategies = seat_strategies(specs, n)
    phases: Counter = Counter()
    pos = 0
    for g in range(games):
        index = first + g
        rows: list[list[int]] = []
        state = play_game(n, strategies, seed, index, cake, rules, records=rows)
        got = recs[pos : pos + ndec[g]].tolist()
        pos += int(ndec[g])
        if got != rows:
            i = next((i for i, (a, b) in enumerate(zip(got, rows, strict=False)) if a != b),
                     min(len(got), len(rows)))  # fmt: skip
            raise AssertionError(
                f"{n} players {specs} {rules} seed {seed} game {index}: first diverging record "
                f"#{i}:\n  reference {_show(rows[i] if i < len(rows) else None)}\n"
                f"  kernel    {_show(got[i] if i < len(got) else None)}"
            )
        expect = score_rows(state)
        assert scores[g].tolist() == expect, (
            f"{n} players {specs} {rules} game {index}: score rows {scores[g].tolist()} != "
            f"{expect} ({SCORE_COLUMNS})"
        )
        phases.update(row[4] for row in rows)
    return phases


# ----------------------------------------------------------------------------- random
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_kernel_agrees_with_reference_random_play(n):
    phases = compare(n, ["random"] * n, 21, RANDOM_GAMES)
    # every phase but FORGO_COUNT (rule forgo_eats = "choose" only) was decided
    assert set(phases) == {Phase.CUT, Phase.CHOOSE, Phase.EAT, Phase.FORGO_EAT}


# ----------------------------------------------------------------------------- greedy, heuristic
SEATINGS = {
    2: [["greedy", "heuristic(theta=2)"], [HEUR_TUNED, "random"], [HEUR_SHY, "greedy"]],
    3: [["greedy", "heuristic(theta=2)", "random"], [HEUR_TUNED, HEUR_SHY, "heuristic"]],
    4: [["greedy", "heuristic(theta=2)", "random", HEUR_TUNED],
        [HEUR_SHY, "greedy", "heuristic-eq4(margin=0.5)", "heuristic"]],
    5: [["greedy", "heuristic(theta=2)", "random", HEUR_TUNED, HEUR_SHY]],
}  # fmt: skip


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_kernel_agrees_with_reference_greedy_heuristic_and_mixed(n):
    phases = compare(n, ["greedy"] * n, 22, 40)
    phases += compare(n, ["heuristic"] * n, 23, 40)
    for k, specs in enumerate(SEATINGS[n]):
        phases += compare(n, specs, 24 + k, 30)
    assert {Phase.CUT, Phase.CHOOSE, Phase.EAT, Phase.FORGO_EAT} <= set(phases)


# ----------------------------------------------------------------------------- rule options
ALT_RULES = [
    (Rules(first_server=1), (2, 3, 4, 5)),
    (Rules(first_server=4), (5,)),
    (Rules(two_player_pieces=2), (2,)),
    (Rules(two_player_pieces=3, two_player_order="snake"), (2,)),
    (Rules(two_player_pieces=6, forgo_ends_picking=False), (2,)),
    (Rules(two_player_order="snake", forgo_ends_picking=False, forgo_eats="choose"), (2,)),
    (Rules(forgo_ends_picking=False), (2, 3)),
    (Rules(forgo_eats="choose"), (2, 3, 4, 5)),
    (Rules(forgo_eats="none"), (2, 4)),
    (Rules(majority_ties="none"), (2, 3, 4, 5)),
    (Rules(majority_ties="split", forgo_eats="choose"), (2, 3, 4, 5)),
    (Rules(tie="cream"), (3,)),
    (Rules(exact_pieces=True), (2, 3, 4, 5)),
    (Rules(exact_pieces=True, two_player_pieces=5, majority_ties="split"), (2,)),
    (Rules(forced_forgo_after_take=False), (2, 3)),
    (
        Rules(
            forced_forgo_after_take=False,
            two_player_order="snake",
            forgo_ends_picking=False,
            two_player_pieces=2,
        ),
        (2,),
    ),  # fmt: skip
]


@pytest.mark.parametrize("rules, counts", ALT_RULES, ids=[f"{i}" for i in range(len(ALT_RULES))])
def test_kernel_agrees_under_every_rule_option(rules, counts):
    phases: Counter = Counter()
    for n in counts:
        phases += compare(n, ["random"] * n, 31, 100, rules)
        phases += compare(n, (["greedy", "heuristic(theta=2)", HEUR_TUNED] * 2)[:n], 32, 8, rules)
        phases += compare(n, (["heuristic", HEUR_SHY, "random"] * 2)[:n], 33, 8, rules)
    if rules.forgo_eats == "choose":
        assert phases[Phase.FORGO_COUNT] > 0
    if rules.forgo_eats == "none":
        assert phases[Phase.FORGO_EAT] == 0


def test_kernel_agrees_on_a_replacement_cake():
    """Nine varieties, values apart from copies, cream 0 to 3, and seven slices unseen."""
    cake = parse_cake(
        {
            "name": "test cake",
            "variety": [
                {"name": "a", "copies": 2, "value": 6, "cream": 0},
                {"name": "b", "copies": 4, "cream": 1},
                {"name": "c", "copies": 5, "value": 2, "cream": 3},
                {"name": "d", "copies": 6, "cream": 2},
                {"name": "e", "copies": 7, "value": 12, "cream": 1},
                {"name": "f", "copies": 8, "cream": 2},
                {"name": "g", "copies": 9, "value": 4, "cream": 0},
                {"name": "h", "copies": 10, "cream": 3},
                {"name": "i", "copies": 11, "value": 20, "cream": 2},
            ],
        },
        "test",
    )
    assert cake.unseen == 7
    for n in (2, 3, 4, 5):
        compare(n, ["random"] * n, 41, 100, cake=cake)
        compare(n, (["greedy", HEUR_TUNED, "heuristic", HEUR_SHY, "random"])[:n], 42, 10,
                Rules(forgo_eats="choose"), cake=cake)  # fmt: skip


def test_games_are_the_same_in_any_chunk():
    """Game i of a study is the same game whether played alone or in a larger chunk."""
    k = _kernel()
    runner = k.KernelRunner(CAKE, Rules())
    specs = ["heuristic", "random", "greedy"]
    codes, hp = k.strategy_codes(specs), k.seat_params(specs, 3)
    scores, ndec, recs = runner.play_many(3, codes, 7, 10, 6, records=True, hparams=hp)
    part, pdec, precs = runner.play_many(3, codes, 7, 13, 2, records=True, hparams=hp)
    assert (part == scores[3:5]).all() and (pdec == ndec[3:5]).all()
    start = int(ndec[:3].sum())
    assert (precs == recs[start : start + int(pdec.sum())]).all()
    again, adec, none = runner.play_many(3, codes, 7, 10, 6, hparams=hp)
    assert none is None and (again == scores).all() and (adec == ndec).all()
    compare(3, specs, 7, 6, first=10)


def test_records_room_grows_when_a_chunk_needs_more():
    """A chunk with more decisions than the first guess is played again with room for all."""
    k = _kernel()
    runner = k.KernelRunner(CAKE, Rules(forgo_eats="choose", forgo_ends_picking=False))
    scores, ndec, recs = runner.play_many(2, k.strategy_codes(["random"] * 2), 3, 0, 50,
                                          records=True)  # fmt: skip
    assert len(recs) == ndec.sum() and (recs[:, 0] >= 0).all()


# ----------------------------------------------------------------------------- the Python side
def test_strategy_codes_and_seat_params():
    k = _kernel()
    assert k.strategy_codes(["random", "greedy", "heuristic"]).tolist() == [
        k.STRAT_RANDOM, k.STRAT_GREEDY, k.STRAT_HEURISTIC,
    ]  # fmt: skip
    assert k.strategy_codes(["heuristic(theta=2)", "heuristic-eq3", "heuristic-eq4(loss=0)"]
                            ).tolist() == [k.STRAT_HEURISTIC] * 3  # fmt: skip
    assert k.strategy_codes(["search", "search(budget=8)"]).tolist() == [k.STRAT_SEARCH] * 2
    for bad in ("greedy(theta=2)", "tests.example_strategies:Nope", "nonsense(("):
        with pytest.raises(KeyError):
            k.strategy_codes([bad])
    specs = ["random", "greedy", "heuristic(theta=2)", "heuristic-eq4(margin=0.5)", HEUR_TUNED]
    hp = k.seat_params(specs, 5)
    # (theta, loss, fewer, margin), then a search seat's (budget, cuts): zeros here
    assert hp.shape == (5, k.N_SEAT_PARAMS) == (5, 6) and hp.dtype == np.float64
    assert hp[0].tolist() == [0.0] * 6 and hp[1].tolist() == [1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    for p, spec in enumerate(specs[2:], start=2):
        params = make_strategy(spec).params(5)
        assert hp[p].tolist() == [*(params[x] for x in ("theta", "loss", "fewer", "margin")),
                                  0.0, 0.0]  # fmt: skip
    plain = make_strategy("heuristic").params(3)
    expect = [plain[x] for x in ("theta", "loss", "fewer", "margin")]
    assert k.seat_params(["heuristic"], 3).tolist() == [[*expect, 0.0, 0.0]] * 3
    assert k.seat_params(["search(cuts=3)"], 3).tolist() == [[*expect, 64.0, 3.0]] * 3
    with pytest.raises(ValueError):
        k.seat_params(["random", "greedy"], 3)


def test_kernel_refuses_bad_input():
    k = _kernel()
    runner = k.KernelRunner(CAKE, Rules(first_server=3))
    with pytest.raises(Exception, match="first_server"):
        runner.play_many(3, k.strategy_codes(["random"] * 3), 1, 0, 1)
    runner = k.KernelRunner(CAKE, Rules())
    with pytest.raises(ValueError):
        runner.play_many(3, np.array([0, 1]), 1, 0, 1)
    with pytest.raises(ValueError):
        runner.play_many(3, np.array([0, 1, 9]), 1, 0, 1)
    with pytest.raises(ValueError):
        runner.play_many(3, k.strategy_codes(["random"] * 3), 1, 0, 1, hparams=np.zeros((3, 2)))
    with pytest.raises(Exception, match="Piece o' Cake is played by"):
        runner.play_many(6, k.strategy_codes(["random"] * 6), 1, 0, 1)


@pytest.mark.parametrize("most, exact", [(2, False), (4, False), (5, True), (6, False)])
def test_cut_tables_are_the_reference_cuts(most, exact):
    from sims.games.pieceocake.kernel import layout as L

    mtab = _kernel().cut_tables(most, exact)
    masks = cut_masks(most, exact)
    assert mtab[:, L.MT_MASK].tolist() == list(masks)
    for i, mask in enumerate(masks):
        pieces = pieces_of(mask)
        assert mtab[i, L.MT_K] == len(pieces)
        for j, piece in enumerate(pieces):
            assert (mtab[i, L.MT_START + j], mtab[i, L.MT_LEN + j]) == (piece[0], len(piece))
            assert mtab[i, L.MT_ARC + j] == L.arc_id(piece[0], len(piece))
    # the grouped rows: by piece count, masks ascending within a count
    byk = mtab[:, L.MT_BYK]
    keys = [(mtab[i, L.MT_K], mtab[i, L.MT_MASK]) for i in byk]
    assert keys == sorted(keys) and sorted(byk.tolist()) == list(range(len(masks)))
    for k in range(L.MAX_PIECES + 1):
        lo, hi = mtab[k, L.MT_KSTART], mtab[k + 1, L.MT_KSTART]
        assert all(mtab[i, L.MT_K] == k for i in byk[lo:hi])
        assert (mtab[lo:hi, L.MT_GARC : L.MT_GARC + L.MAX_PIECES]
                == mtab[byk[lo:hi], L.MT_ARC : L.MT_ARC + L.MAX_PIECES]).all()  # fmt: skip


def test_rules_array_encodes_every_option():
    from sims.games.pieceocake.kernel import layout as L

    assert tuple(Rules().as_dict()) == L.RULE_FIELDS
    a = L.rules_array(Rules(first_server=2, two_player_pieces=5, two_player_order="snake",
                            forgo_ends_picking=False, forgo_eats="none",
                            majority_ties="split", tie="cream", exact_pieces=True,
                            forced_forgo_after_take=False))  # fmt: skip
    assert a[L.R_FIRST] == 2 and a[L.R_TWO_PIECES] == 5 and a[L.R_TWO_ORDER] == L.ORDER_SNAKE
    assert a[L.R_FORGO_ENDS] == 0 and a[L.R_FORGO_EATS] == L.EATS_NONE
    assert a[L.R_TIES] == L.TIES_SPLIT and a[L.R_TIE] == 1 and a[L.R_EXACT] == 1
    assert a[L.R_AFTER_TAKE] == 0 and L.rules_array(Rules())[L.R_AFTER_TAKE] == 1


def test_kernel_cache_is_keyed_on_the_whole_package():
    """numba checks a cached function against its own file only; the kernel keys every
    function's cache on the whole package and the tables it freezes
    (``sims.games.kernel_cache``)."""
    from numba.core.dispatcher import Dispatcher

    from sims.games import kernel_cache

    kernel = _kernel()
    assert kernel_cache.digest(kernel._MODULES) == kernel._CACHE_KEY
    assert kernel_cache.package_of(kernel._MODULES) == "sims.games.pieceocake.kernel"
    n = 0
    for mod in kernel._MODULES:
        for obj in vars(mod).values():
            if isinstance(obj, Dispatcher) and obj.py_func.__module__ == mod.__name__:
                assert obj._cache._cache_file._source_stamp[1] == kernel._CACHE_KEY, obj
                n += 1
    assert n > 15


@pytest.mark.parametrize("ties", ["full", "split", "none"])
def test_plugin_chunks_agree_on_the_per_variety_columns(ties):
    """The plugin's seat and game columns (``won_mask``, the per-variety lists,
    ``majorities_unclaimed``) are the same from either engine."""
    _kernel()
    from sims.core.study import Arm
    from sims.games.pieceocake.plugin import GAME

    arm = Arm(name="a", game="pieceocake", players=3, strategies=("greedy", "random", "heuristic"),
              games=10, seed=5, engine="auto",
              options={"cake": None, "rules": {"majority_ties": ties}})  # fmt: skip
    kern = GAME.play_chunk(arm, 0, 10, decisions=False, engine="kernel")
    ref = GAME.play_chunk(arm, 0, 10, decisions=False, engine="reference")
    for name in ("won_mask", "majorities_won", "collected", "eaten"):
        np.testing.assert_array_equal(kern.seats[name], ref.seats[name])
    for name in ("collected_by_variety", "eaten_by_variety"):
        assert kern.seats[name].equals(ref.seats[name])
    np.testing.assert_array_equal(
        kern.games["majorities_unclaimed"], ref.games["majorities_unclaimed"]
    )
