"""Two engines, one truth: the compiled kernel replays the reference engine decision for decision.

For the same (study seed, game index) and strategies both engines must take the same
decisions (player, phase, action) in the same order and reach the same score breakdowns.
A difference fails with the first diverging decision printed.
"""

from collections import Counter

import numpy as np
import pytest

from sims.games.nyslice.deck import default_deck
from sims.games.nyslice.engine import Phase
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.kernel import KernelRunner, strategy_codes
from sims.games.nyslice.records import special_masks
from sims.games.nyslice.rules import Rules

DECK = default_deck()
RANDOM_GAMES = 600
MIXED_GAMES = 60


def _compare(runner: KernelRunner, n: int, specs: list[str], seed: int, index: int, rules: Rules):
    rows: list[list[int]] = []
    state = play_game(n, seat_strategies(specs, n), seed, index, DECK, rules, records=rows)
    scores, trace, records = runner.play(n, strategy_codes(specs), seed, index, records=True)
    ref = state.trace
    got = [tuple(int(x) for x in row) for row in trace]
    if ref != got:
        i = next(
            (i for i, (a, b) in enumerate(zip(ref, got, strict=False)) if a != b),
            min(len(ref), len(got)),
        )

        def show(t):
            return f"player {t[0]} {Phase(t[1]).name} action {t[2]}" if t else "(game over)"

        raise AssertionError(
            f"{n} players {specs} seed {seed} game {index}: first diverging decision #{i}: "
            f"reference {show(ref[i] if i < len(ref) else None)}, "
            f"kernel {show(got[i] if i < len(got) else None)}"
        )
    expect = [
        [
            b.majorities,
            b.specials,
            b.diet,
            b.pepperoni,
            b.anchovies,
            b.total,
            b.eaten_count,
            b.collected_count,
        ]
        for b in state.scores()
    ]
    assert scores[:, :8].tolist() == expect, f"{n} players {specs} game {index}: scores differ"
    masks = [list(special_masks(state, p)) for p in range(n)]
    assert scores[:, 8:].tolist() == masks, f"{n} players {specs} game {index}: specials differ"
    assert records.tolist() == rows, f"{n} players {specs} game {index}: decision records differ"
    return state


@pytest.fixture(scope="module")
def runner():
    return KernelRunner(DECK, Rules())


@pytest.mark.parametrize("n", range(2, 7))
def test_kernel_agrees_with_reference_random_play(runner, n):
    specials_seen = Counter()
    phases = Counter()
    for g in range(RANDOM_GAMES):
        state = _compare(runner, n, ["random"] * n, 21, g, Rules())
        for p in state.players:
            specials_seen.update(p.specials)
        phases.update(t[1] for t in state.trace)
    # Every special (all but the three never allowed at 2 players) was in play, every phase asked.
    assert len(specials_seen) == (14 if n > 2 else 11)
    expected_phases = set(Phase) - ({Phase.DIBS, Phase.CUT_IN_LINE} if n == 2 else set())
    assert set(Phase(p) for p in phases) == expected_phases


@pytest.mark.parametrize("n", range(2, 7))
def test_kernel_agrees_with_reference_greedy_and_mixed(runner, n):
    for g in range(MIXED_GAMES):
        _compare(runner, n, ["greedy"] * n, 22, g, Rules())
        _compare(runner, n, (["greedy", "random"] * 3)[:n], 23, g, Rules())


ALT_RULES = [
    Rules(first_slicer=1, rejected_special="bottom"),
    Rules(dibs_slicer_may_use=False, dibs_closes_circle=False),
    Rules(sneak_may_leave_special_only=False, veggies_edible_later=True),
    Rules(supreme_from_combo=False, supreme_same_portion=False, supreme_late_any_type=True),
    Rules(seconds_with_supreme=False),
    Rules(seconds_supreme_alone=True),
]


@pytest.mark.parametrize("rules", ALT_RULES, ids=[str(i) for i in range(len(ALT_RULES))])
def test_kernel_agrees_under_every_ruling_option(rules):
    runner = KernelRunner(DECK, rules)
    for n in (2, 4, 6):
        for g in range(120):
            _compare(runner, n, ["random"] * n, 24, g, rules)
        for g in range(10):
            _compare(runner, n, ["greedy"] * n, 25, g, rules)


def test_kernel_rejects_unknown_strategy():
    with pytest.raises(KeyError):
        strategy_codes(["clever"])


def test_chunked_play_equals_single_games(runner):
    codes = strategy_codes(["greedy", "random", "random"])
    scores, decisions, records = runner.play_many(3, codes, 8, 100, 25, records=True)
    assert len(records) == decisions.sum()
    for g in (0, 7, 24):
        one, trace, rec = runner.play(3, codes, 8, 100 + g, records=True)
        assert (scores[g] == one).all() and decisions[g] == len(trace)
        start = int(decisions[:g].sum())
        assert (records[start : start + len(rec)] == rec).all()


def test_kernel_is_deterministic(runner):
    a = runner.play(4, np.array([0, 1, 0, 1]), 3, 3)
    b = runner.play(4, np.array([0, 1, 0, 1]), 3, 3)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()
