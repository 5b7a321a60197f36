"""Counterfactual replays: the paired payoff of eating a slice versus collecting it.

The per-decision table of a study (``docs/dataset.md``, ``decisions``) shows what the
strategies chose and how their games ended, but the choice is confounded: a strategy eats
where eating looks good. :func:`eat_payoffs` answers the interventional question instead.
For real eat-or-collect decisions of a study's games (phases ``eat`` and ``receive_eat``,
where both actions are legal) it replays the game twice from the same deal with the same
earlier decisions, once with the decision forced to **eat** (1) and once to **collect** (0),
the strategies playing the rest, and records the deciding seat's final score and win share
in both branches.

Common random numbers: every seat keeps its own stream (:mod:`sims.core.seeding`). A
replay starts each ``random`` seat's stream where it stood in the real game just after the
replayed decision (a random decider has drawn for it, whatever action is then forced), so
both branches see the same later coin flips until the games diverge, and the branch that
repeats the real action is the real game, draw for draw and score for score.

:func:`replay_decision` plays one such branch and returns its scores and decision trace.

Both run in the compiled kernel (``kernel.KernelRunner``), which plays the built-in
strategies only: ``random``, ``greedy`` and ``heuristic`` with its presets and parameters.
Seatings without a random seat use ``KernelRunner.play_deal``; a random seat needs its
stream advanced to the decision, which ``play_deal`` (seeded per game) cannot take, so those
replays call the kernel's ``_play_deal`` with the advanced streams.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np
import pyarrow as pa

from sims.core.errors import SlicelabError
from sims.core.fastrng import game_streams_into, integers
from sims.core.game import win_shares
from sims.core.seeding import game_streams
from sims.games.nyslice.deck import Deck, default_deck
from sims.games.nyslice.engine import Phase, deal
from sims.games.nyslice.kernel import (
    DECISION_COLUMNS,
    SCORE_COLUMNS,
    STRAT_RANDOM,
    STRAT_SEARCH,
    KernelRunner,
    seat_params,
    strategy_codes,
)
from sims.games.nyslice.plugin import POINTS, decision_columns
from sims.games.nyslice.rules import Rules, check_players

EAT, COLLECT = 1, 0
"""Actions of the eat phases (``engine`` encoding): 1 eat, 0 collect (keep collected)."""

EAT_PHASES = (Phase.EAT, Phase.RECEIVE_EAT)
"""The phases whose decisions :func:`eat_payoffs` replays."""

PAYOFF_COLUMNS = (
    "game_index",
    "decision",
    "round",
    "seat",
    "phase",
    "slice",
    "slice_kind",
    "type_a",
    "type_b",
    "pepperoni",
    "anchovies",
    "own_count2",
    "rival_count2",
    "unclaimed",
    "portions_left",
    "eligible",
    "action",
    "score_eat",
    "score_collect",
    "share_eat",
    "share_collect",
)
"""Columns of :func:`eat_payoffs`' table, in order."""

_SAMPLE_TAG = 0xEA7  # third entropy word of the sampling stream: apart from the game streams
_MAX_SEED = 2**32  # the kernel's streams take seeds and game indices below 2**32


@lru_cache(maxsize=8)
def _runner(deck: Deck, rules: Rules) -> KernelRunner:
    return KernelRunner(deck, rules)


@lru_cache(maxsize=8)
def _tables(deck: Deck, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """State tables and a trace buffer for replays with random seats (one per deck/rules)."""
    from sims.games.nyslice import kernel as K

    a = deck.arrays()
    tab, ftab = K._new_tables(
        a["kind"], a["type_a"], a["type_b"], a["pepperoni"], a["anchovies"],
        len(deck.specials), K.rules_array(rules), np.zeros(K.MAX_SEATS, dtype=np.int64),
        K.SPECIAL_VALUES, np.zeros((K.MAX_SEATS, K.N_SEAT_PARAMS)),
    )  # fmt: skip
    return tab, ftab, np.zeros((K.MAX_TRACE, 3), dtype=np.int64)


def _seating(players: int, strategies: Sequence[str] | str) -> tuple[list[str], np.ndarray]:
    """Spec per seat and the kernel's codes; refuses what the kernel cannot play."""
    from sims.core.specs import split_specs
    from sims.games.nyslice.strategies import make_strategy

    check_players(players)
    specs = split_specs(strategies) if isinstance(strategies, str) else [str(s) for s in strategies]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise SlicelabError(
            f"{len(specs)} strategies given for {players} players: give one for every seat "
            "or a single one for all"
        )
    for s in specs:
        make_strategy(s)  # an unknown name or parameter fails here with its own message
    try:
        codes = strategy_codes(specs)
        # A search seat's later decisions would need its own playouts inside each branch.
        for s, c in zip(specs, codes, strict=True):
            if c == STRAT_SEARCH:
                raise KeyError(s)
    except KeyError as exc:
        raise SlicelabError(
            f"counterfactual replays run in the compiled kernel, which cannot play {exc} "
            "there; use random, greedy, heuristic or a heuristic preset (e.g. heuristic-p4)"
        ) from None
    return specs, codes


def _check_seed(name: str, value: int) -> int:
    value = int(value)
    if not 0 <= value < _MAX_SEED:
        raise SlicelabError(f"{name} must be an integer in [0, 2**32), not {value}")
    return value


class _GameReplay:
    """One study game, played as the batch runner plays it, and replays of it with one
    decision's action set (the earlier decisions as played, the strategies after it)."""

    def __init__(
        self, deck: Deck, rules: Rules, n: int, codes: np.ndarray, hparams: np.ndarray,
        seed: int, index: int,
    ) -> None:  # fmt: skip
        self.n, self.codes, self.hparams = n, codes, hparams
        self.deck, self.rules = deck, rules
        self.runner = _runner(deck, rules)
        self.scores, self.trace, self.records = self.runner.play(
            n, codes, seed, index, records=True, hparams=hparams
        )
        self.deal = deal(deck, n, game_streams(seed, index, n).deal)
        self.has_random = bool((codes == STRAT_RANDOM).any())
        if self.has_random:
            from sims.games.nyslice.kernel import deal_array

            self._deal_array = deal_array(self.deal, len(deck.slices))
            self._start = np.zeros((n + 1, 5), dtype=np.uint64)
            game_streams_into(seed, index, n + 1, self._start)
            self._streams = self._start.copy()
            self._drawn = 0  # decisions 0 .. _drawn - 1 have drawn from self._streams
            self._n_legal = self.records[:, DECISION_COLUMNS.index("n_legal")]

    def _streams_through(self, k: int) -> np.ndarray:
        """The seats' streams as they stood just after real decision k."""
        if k + 1 < self._drawn:
            self._streams = self._start.copy()
            self._drawn = 0
        for j in range(self._drawn, k + 1):
            p = int(self.trace[j, 0])
            if self.codes[p] == STRAT_RANDOM:
                integers(self._streams[1 + p], int(self._n_legal[j]))
        self._drawn = k + 1
        return self._streams.copy()

    def branch(self, k: int, action: int) -> tuple[np.ndarray, np.ndarray]:
        """Scores (n, SCORE_COLUMNS) and trace of the game with decision k taking action."""
        if not 0 <= k < len(self.trace):
            raise SlicelabError(f"the game has {len(self.trace)} decisions; no decision {k}")
        prefix = np.append(self.trace[:k, 2], np.int64(action)).astype(np.int64)
        if not self.has_random:
            return self.runner.play_deal(
                self.n, self.codes, self.hparams, self.deal, prefix, trace=True
            )
        from sims.games.nyslice import kernel as K

        rngs = self._streams_through(k)
        tab, ftab, tr = _tables(self.deck, self.rules)
        tab[K.T_STRAT, : self.n] = self.codes
        ftab[K.F_HP : K.F_HP + self.n, : self.hparams.shape[1]] = self.hparams
        d = self._deal_array
        drec = np.zeros((0, len(DECISION_COLUMNS)), dtype=np.int64)
        dcount = np.zeros(1, dtype=np.int64)
        cand = np.zeros(1, dtype=np.int64)  # no seat searches (_seating refuses search)
        count = K._play_deal(tab, ftab, d, self.n, rngs, tr, drec, dcount, prefix, 0, cand)
        if count > len(tr):
            raise RuntimeError("decision trace overflow")
        scores = tab[K.T_OUT : K.T_OUT + self.n, : len(SCORE_COLUMNS)].copy()
        return scores, tr[:count].copy()


def _prepare(players, strategies, seed, deck, rules):
    specs, codes = _seating(players, strategies)
    deck = deck or default_deck()
    rules = rules or Rules()
    if not 0 <= rules.first_slicer < players:
        raise SlicelabError(
            f"rule option first_slicer={rules.first_slicer} is not a seat of {players} players"
        )
    return deck, rules, codes, seat_params(specs, players), _check_seed("seed", seed)


def replay_decision(
    players: int,
    strategies: Sequence[str] | str,
    seed: int,
    game_index: int,
    decision: int,
    action: int,
    deck: Deck | None = None,
    rules: Rules | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Replay one study game with one real decision's action set.

    The game is game ``game_index`` of a study with seed ``seed`` (the deal and seat
    streams of ``SeedSequence([game_index, seed])``, as the batch runner plays it). Its
    real decisions before ``decision`` take the actions they took, decision ``decision``
    takes ``action``, and the strategies decide the rest; random seats continue their
    streams from where they stood after that decision (see the module docstring).

    Parameters
    ----------
    players : int
        2 to 6.
    strategies : sequence of str, or str
        One spec per seat, or one for every seat (a comma-separated string is split).
        Only what the kernel plays: ``random``, ``greedy``, ``heuristic`` and its presets.
    seed, game_index : int
        The study seed and the game's index, both in [0, 2**32).
    decision : int
        The real decision's number (0-based, order of the game's decision trace).
    action : int
        Its action (``engine`` encoding); it must be legal there.
    deck, rules : optional
        Defaults: the default deck and ``Rules()``.

    Returns
    -------
    scores : numpy.ndarray of int64, shape (players, len(kernel.SCORE_COLUMNS))
        Final score rows of the replayed game.
    trace : numpy.ndarray of int64, shape (decisions, 3)
        (player, phase, action) of each real decision of the replayed game.

    Raises
    ------
    SlicelabError
        For a strategy the kernel cannot play, a bad seating, seed or decision number.
    ValueError
        When ``action`` is not legal at that decision.
    """
    deck, rules, codes, hp, seed = _prepare(players, strategies, seed, deck, rules)
    game = _GameReplay(deck, rules, players, codes, hp, seed, _check_seed("game_index", game_index))
    return game.branch(int(decision), int(action))


def _shares(scores: np.ndarray) -> np.ndarray:
    totals = scores[:, SCORE_COLUMNS.index("total")]
    eaten = scores[:, SCORE_COLUMNS.index("eaten")]
    return win_shares([totals[None, :], eaten[None, :]])[0]


def _sample(eligible: list[int], max_per_game: int | None, seed: int, index: int) -> list[int]:
    """All eligible decisions, or ``max_per_game`` of them drawn without replacement from
    a stream of (game index, seed) of their own, in game order."""
    if max_per_game is None or len(eligible) <= max_per_game:
        return eligible
    rng = np.random.default_rng(np.random.SeedSequence([index, seed, _SAMPLE_TAG]))
    pick = np.sort(rng.choice(len(eligible), size=max_per_game, replace=False))
    return [eligible[int(i)] for i in pick]


def eat_payoffs(
    players: int,
    strategies: Sequence[str] | str,
    seed: int,
    game_indices: Iterable[int],
    deck: Deck | None = None,
    rules: Rules | None = None,
    max_per_game: int | None = None,
) -> pa.Table:
    """Paired payoffs of eating versus collecting at real eat-or-collect decisions.

    For each game of ``game_indices`` (game ``i`` of a study seeded ``seed``, exactly as
    the batch runner plays it), every real decision in phase ``eat`` or ``receive_eat``
    (both actions legal) is replayed twice from the same deal with the same earlier
    decisions: once forced to eat, once forced to collect, the strategies playing the rest
    with common random numbers (see the module docstring). The branch repeating the real
    action reproduces the real game; this is checked, and a mismatch raises RuntimeError.

    Parameters
    ----------
    players : int
        2 to 6.
    strategies : sequence of str, or str
        One spec per seat, or one for every seat (a comma-separated string is split):
        ``random``, ``greedy``, ``heuristic``, ``heuristic(...)`` or a heuristic preset
        such as ``heuristic-p4`` — what the compiled kernel plays.
    seed : int
        The study seed, in [0, 2**32).
    game_indices : iterable of int
        The games to replay, in [0, 2**32); rows follow this order.
    deck, rules : optional
        Defaults: the default deck and ``Rules()``.
    max_per_game : int, optional
        Replay at most this many decisions per game, drawn without replacement by a
        generator seeded with ``SeedSequence([game_index, seed, 0xEA7])`` (deterministic;
        each game's eligible decisions are equally likely). None replays all.

    Returns
    -------
    pyarrow.Table
        One row per replayed decision, columns :data:`PAYOFF_COLUMNS`:

        - ``game_index`` (int64), ``decision`` (int32): the decision's number among the
          game's real decisions (0-based, as in its trace and ``decisions`` table rows).
        - ``round``, ``seat``, ``phase`` (dictionary string: ``eat`` or ``receive_eat``),
          ``slice``, ``slice_kind``, ``type_a``, ``type_b``, ``pepperoni``, ``anchovies``,
          ``own_count2``, ``rival_count2``, ``unclaimed``, ``portions_left``: as in the
          ``decisions`` table of ``docs/dataset.md`` (from the kernel's decision records).
        - ``eligible`` (int16): the game's eat-or-collect decisions, of which this is one
          (``eligible / rows of the game`` is the sampling weight under ``max_per_game``).
        - ``action`` (int8): what the strategy actually chose, 1 eat, 0 collect.
        - ``score_eat``, ``score_collect`` (int16): the deciding seat's final total score
          when the decision eats, resp. collects.
        - ``share_eat``, ``share_collect`` (float64): its win share in each branch
          (highest total, then most eaten slices; a win shared by k counts 1/k).

    Raises
    ------
    SlicelabError
        For a strategy the kernel cannot play, a bad seating, seed, game index or
        ``max_per_game``.

    Notes
    -----
    Each replayed decision costs two playouts from that decision on (the shared prefix
    is re-applied, not re-decided); see ``tests/test_nyslice_counterfactual.py``.
    """
    deck, rules, codes, hp, seed = _prepare(players, strategies, seed, deck, rules)
    if max_per_game is not None and (int(max_per_game) != max_per_game or max_per_game < 0):
        raise SlicelabError(f"max_per_game must be a non-negative integer, not {max_per_game}")
    col = {c: DECISION_COLUMNS.index(c) for c in DECISION_COLUMNS}
    rec_rows: list[np.ndarray] = []
    meta: list[tuple[int, int, int]] = []  # (game index, decision, eligible)
    pay: list[tuple[int, int, float, float]] = []
    for index in game_indices:
        index = _check_seed("game_index", index)
        game = _GameReplay(deck, rules, players, codes, hp, seed, index)
        recs = game.records
        eligible = [
            k
            for k in range(len(recs))
            if recs[k, col["phase"]] in EAT_PHASES and recs[k, col["n_legal"]] == 2
        ]
        for k in _sample(eligible, max_per_game, seed, index):
            seat = int(recs[k, col["seat"]])
            factual = int(recs[k, col["action"]])
            out = {}
            for a in (EAT, COLLECT):
                scores, _ = game.branch(k, a)
                if a == factual and not np.array_equal(scores, game.scores):
                    raise RuntimeError(
                        f"replaying game {index} decision {k} as played did not reproduce "
                        "the game: the kernel's playouts disagree with its games"
                    )
                out[a] = (int(scores[seat, SCORE_COLUMNS.index("total")]), _shares(scores)[seat])
            rec_rows.append(recs[k])
            meta.append((index, k, len(eligible)))
            pay.append((out[EAT][0], out[COLLECT][0], out[EAT][1], out[COLLECT][1]))
    recs = np.array(rec_rows, dtype=np.int64).reshape(-1, len(DECISION_COLUMNS))
    m = np.array(meta, dtype=np.int64).reshape(-1, 3)
    p = np.array(pay, dtype=np.float64).reshape(-1, 4)
    d = decision_columns(recs)
    features = ("round", "seat", "phase", "slice", "slice_kind", "type_a", "type_b",
                "pepperoni", "anchovies", "own_count2", "rival_count2", "unclaimed",
                "portions_left")  # fmt: skip
    return pa.table(
        {
            "game_index": m[:, 0],
            "decision": m[:, 1].astype(np.int32),
            **{c: d[c] for c in features},
            "eligible": m[:, 2].astype(np.int16),
            "action": d["action"].astype(np.int8),
            "score_eat": p[:, 0].astype(POINTS),
            "score_collect": p[:, 1].astype(POINTS),
            "share_eat": p[:, 2],
            "share_collect": p[:, 3],
        }
    )
