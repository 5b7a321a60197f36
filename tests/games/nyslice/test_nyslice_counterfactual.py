"""Counterfactual replays of eat-or-collect decisions (``counterfactual.eat_payoffs``).

The branch repeating the real action must be the study's game (the batch runner's kernel
games and the reference engine's); the other branch must take the other action after the
same earlier decisions and then play as the reference engine plays the same game with that
one action changed, random seats drawing from the same streams.
"""

import numpy as np
import pytest

from sims.core.errors import SlicelabError
from sims.core.game import win_shares
from sims.core.seeding import game_streams
from sims.games.nyslice.counterfactual import (
    COLLECT,
    EAT,
    PAYOFF_COLUMNS,
    eat_payoffs,
    replay_decision,
)
from sims.games.nyslice.deck import default_deck
from sims.games.nyslice.engine import GameState, Phase, deal
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.kernel import (
    DECISION_COLUMNS,
    SCORE_COLUMNS,
    KernelRunner,
    heuristic_params,
    strategy_codes,
)
from sims.games.nyslice.records import score_rows
from sims.games.nyslice.rules import Rules
from sims.games.nyslice.view import PlayerView

DECK = default_deck()
TOTAL = SCORE_COLUMNS.index("total")
EATEN = SCORE_COLUMNS.index("eaten")

SEATINGS = [
    (2, ["greedy"]),
    (3, ["heuristic"]),
    (4, ["heuristic-p4", "random", "greedy", "heuristic(theta=0.8)"]),
    (5, ["random", "greedy", "heuristic", "random", "greedy"]),
    (6, ["random"]),
]
IDS = [f"{n}p-{'-'.join(s)}" for n, s in SEATINGS]


def _shares(scores: np.ndarray) -> np.ndarray:
    return win_shares([scores[None, :, TOTAL], scores[None, :, EATEN]])[0]


def _reference_branch(n, specs, seed, index, k, action) -> GameState:
    """The reference engine plays the game with decision k taking ``action``: every seat
    decides as in the study (random seats draw, even at decision k), the action is swapped."""
    strategies = seat_strategies(specs, n)
    streams = game_streams(seed, index, n)
    state = GameState(DECK, Rules(), n, deal(DECK, n, streams.deal))
    while not state.terminal:
        dec = state.decision()
        chosen = strategies[dec.player].choose(
            PlayerView(state, dec.player), dec, streams.seats[dec.player]
        )
        state.apply(action if len(state.history) == k else chosen)
    return state


@pytest.mark.parametrize(("n", "specs"), SEATINGS, ids=IDS)
def test_factual_branch_reproduces_the_study_game(n, specs):
    seed, first, count = 11, 3, 6
    table = eat_payoffs(n, specs, seed, range(first, first + count))
    assert table.column_names == list(PAYOFF_COLUMNS)
    # The batch runner's games (play_many, as the runner plays a chunk).
    runner = KernelRunner(DECK, Rules())
    full = specs * n if len(specs) == 1 else specs
    scores, ndec, recs = runner.play_many(
        n, strategy_codes(full), seed, first, count, records=True,
        hparams=heuristic_params(full, n),
    )  # fmt: skip
    rows = table.to_pylist()
    phase = recs[:, DECISION_COLUMNS.index("phase")]
    assert len(rows) == int(np.isin(phase, [Phase.EAT, Phase.RECEIVE_EAT]).sum())
    starts = np.concatenate([[0], np.cumsum(ndec)])
    for r in rows:
        g = r["game_index"] - first
        rec = dict(zip(DECISION_COLUMNS, recs[starts[g] + r["decision"]].tolist(), strict=True))
        for c in ("round", "seat", "slice", "type_a", "own_count2", "unclaimed", "action"):
            assert r[c] == rec[c], c
        assert r["phase"] == Phase(rec["phase"]).name.lower()
        real = "eat" if r["action"] == EAT else "collect"
        seat = r["seat"]
        assert r[f"score_{real}"] == scores[g, seat, TOTAL], r
        assert r[f"share_{real}"] == _shares(scores[g])[seat], r
    # ... and the reference engine's game is the same one.
    state = play_game(n, seat_strategies(specs, n), seed, first, DECK, Rules())
    totals = [b.total for b in state.scores()]
    for r in rows:
        if r["game_index"] == first:
            real = "eat" if r["action"] == EAT else "collect"
            assert r[f"score_{real}"] == totals[r["seat"]]
            assert r[f"share_{real}"] == state.win_shares()[r["seat"]]


@pytest.mark.parametrize(("n", "specs"), SEATINGS, ids=IDS)
def test_other_branch_takes_the_other_action_after_the_same_decisions(n, specs):
    seed, index = 12, 4
    table = eat_payoffs(n, specs, seed, [index], max_per_game=6)
    runner = KernelRunner(DECK, Rules())
    full = specs * n if len(specs) == 1 else specs
    _, factual = runner.play(
        n, strategy_codes(full), seed, index, hparams=heuristic_params(full, n)
    )
    assert table.num_rows == 6
    changed = 0
    for r in table.to_pylist():
        k, other = r["decision"], 1 - r["action"]
        scores, trace = replay_decision(n, specs, seed, index, k, other)
        assert (trace[:k] == factual[:k]).all()
        assert tuple(trace[k]) == (r["seat"], int(Phase[r["phase"].upper()]), other)
        key = "score_eat" if other == EAT else "score_collect"
        assert r[key] == scores[r["seat"], TOTAL]
        assert r[key.replace("score", "share")] == _shares(scores)[r["seat"]]
        changed += int(len(trace) != len(factual) or (trace != factual).any())
    assert changed == 6  # the flip shows in every trace


@pytest.mark.parametrize(("n", "specs"), SEATINGS, ids=IDS)
def test_other_branch_is_the_reference_engines_game(n, specs):
    """Exact check of the counterfactual: the reference engine replays the same game with
    the one action flipped, the same strategies and streams, and must agree move for move."""
    seed = 13
    games = (0, 1) if any("heuristic" in s for s in specs) else (0, 1, 2)
    table = eat_payoffs(n, specs, seed, games, max_per_game=3)
    for r in table.to_pylist():
        for action in (EAT, COLLECT):
            ref = _reference_branch(n, specs, seed, r["game_index"], r["decision"], action)
            scores, trace = replay_decision(n, specs, seed, r["game_index"], r["decision"], action)
            assert [tuple(int(x) for x in t) for t in trace] == ref.trace, (r, action)
            width = len(SCORE_COLUMNS)  # score_rows follows SCORE_COLUMNS (columns may be added)
            assert scores.tolist() == [row[:width] for row in score_rows(ref)], (r, action)
            name = "eat" if action == EAT else "collect"
            assert r[f"score_{name}"] == ref.scores()[r["seat"]].total
            assert r[f"share_{name}"] == ref.win_shares()[r["seat"]]


def test_deterministic_and_sampling_is_a_subset():
    specs = ["heuristic", "random", "greedy", "random"]
    full = eat_payoffs(4, specs, 7, range(5))
    assert full.equals(eat_payoffs(4, specs, 7, range(5)))
    some = eat_payoffs(4, specs, 7, range(5), max_per_game=5)
    assert some.equals(eat_payoffs(4, specs, 7, range(5), max_per_game=5))
    counts = np.bincount(some.column("game_index").to_numpy(), minlength=5)
    assert counts.tolist() == [5] * 5
    key = ["game_index", "decision"]
    whole = {tuple(r[c] for c in key): r for r in full.to_pylist()}
    for r in some.to_pylist():
        assert whole[tuple(r[c] for c in key)] == r
    picks = [
        tuple(some.filter(some.column("game_index").to_numpy() == g).column("decision").to_pylist())
        for g in range(5)
    ]
    assert len(set(picks)) > 1  # a seeded draw per game, not the same positions each time
    # A game's rows do not depend on which other games are replayed, nor in what order.
    alone = eat_payoffs(4, specs, 7, [3])
    mask = full.column("game_index").to_numpy() == 3
    assert alone.equals(full.filter(mask))
    backwards = eat_payoffs(4, specs, 7, [4, 3, 2, 1, 0])
    assert backwards.sort_by([("game_index", "ascending"), ("decision", "ascending")]).equals(full)
    assert eat_payoffs(4, specs, 7, range(2), max_per_game=0).num_rows == 0


def test_errors_are_clear():
    with pytest.raises(SlicelabError, match="cannot play"):
        eat_payoffs(3, ["search(budget=4)"], 1, [0])
    with pytest.raises(SlicelabError):
        eat_payoffs(3, ["no-such-strategy"], 1, [0])
    with pytest.raises(SlicelabError, match="strategies given for 4 players"):
        eat_payoffs(4, ["greedy", "random"], 1, [0])
    with pytest.raises(SlicelabError, match="max_per_game"):
        eat_payoffs(3, ["greedy"], 1, [0], max_per_game=-1)
    with pytest.raises(SlicelabError, match="game_index"):
        eat_payoffs(3, ["greedy"], 1, [-1])
    with pytest.raises(SlicelabError, match="decision"):
        replay_decision(3, ["greedy"], 1, 0, 10_000, 0)
    with pytest.raises(SlicelabError):
        eat_payoffs(7, ["greedy"], 1, [0])
