"""High Card, a toy game written only against the game protocol (``sims.core.game``).

It exists to show that a game plugs in without an edit to the core, the runner, the CLI or
the generic analyses (``tests/test_toy_game.py`` registers it for one test). Each player is
dealt ``hand`` cards from 1..20; in each of ``hand`` rounds every player in turn plays a
card, and the highest card of the round wins a trick. Score = tricks + a bonus point for
the player dealt the highest card; ties share the win. The rule ``lead`` (a what-if, 0 by
default) adds that many points to seat 0's bonus: an unfairness planted on purpose, and its
knob, for ``slicelab balance``'s tests.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sims.core.errors import SlicelabError, StrategySpecError
from sims.core.game import (
    ChunkArrays,
    GameInfo,
    GameOption,
    ResultSchema,
    StrategyInfo,
    Variant,
)
from sims.core.knobs import int_knob
from sims.core.limits import Limit
from sims.core.seeding import game_streams
from sims.core.specs import StrategySpec, parse_spec

CARDS = 20
RULES = {"hand": 3, "lead": 0}
HAND = Limit("hand", "cards in a hand", 1, CARDS // 4, "the deck deals every seat of four")
LEAD = Limit("lead", "points added to seat 0's bonus", -5, 5, "a what-if for the tests")


class HighCardState:
    """A game of High Card: the deal is drawn up front, then one card per decision."""

    def __init__(self, players: int, hand: int, rng: np.random.Generator, lead: int = 0
                 ) -> None:  # fmt: skip
        deck = rng.permutation(np.arange(1, CARDS + 1))
        self.n, self.hand, self.lead = players, hand, lead
        self.hands = [
            sorted(int(c) for c in deck[p * hand : (p + 1) * hand]) for p in range(players)
        ]
        self.best_dealt = max(range(players), key=lambda p: max(self.hands[p]))
        self.tricks = [0] * players
        self.table: list[int] = []
        self.history: list[int] = []

    @property
    def current_player(self) -> int:
        return -1 if self.terminal else len(self.table)

    @property
    def terminal(self) -> bool:
        return not any(self.hands) and not self.table

    def legal_actions(self) -> list[int]:
        return [] if self.terminal else list(self.hands[self.current_player])

    def apply(self, action: int) -> None:
        p = self.current_player
        if action not in self.legal_actions():
            raise SlicelabError(f"card {action} is not in seat {p}'s hand")
        self.hands[p].remove(action)
        self.table.append(action)
        self.history.append(action)
        if len(self.table) == self.n:
            self.tricks[int(np.argmax(self.table))] += 1
            self.table = []

    def score_breakdown(self) -> list[dict[str, int]]:
        bonus = [int(p == self.best_dealt) + (self.lead if p == 0 else 0) for p in range(self.n)]
        return [
            {"score": self.tricks[p] + bonus[p], "tricks": self.tricks[p], "bonus": bonus[p]}
            for p in range(self.n)
        ]

    def clone(self) -> HighCardState:
        other = object.__new__(HighCardState)
        other.__dict__ = {k: (json.loads(json.dumps(v)) if isinstance(v, list) else v)
                          for k, v in self.__dict__.items()}  # fmt: skip
        return other


@dataclass
class Player:
    """``random`` plays any card; ``greedy`` its highest."""

    spec: StrategySpec

    def choose(self, state: HighCardState, rng: np.random.Generator) -> int:
        legal = state.legal_actions()
        if self.spec.name == "greedy":
            return max(legal)
        return legal[int(rng.integers(len(legal)))]


class HighCard:
    info = GameInfo("toy", "High Card", 2, 4, "play your highest card", "tests/toy_game.py",
                    main_field="greedy")  # fmt: skip
    options = (GameOption("rules", "table", "a High Card rule (hand=N)", flag="--rule"),)
    results = ResultSchema(
        components=("tricks", "bonus"),
        win_keys=("score",),
        seat_columns=("score", "tricks", "bonus"),
        game_columns=("decisions",),
    )
    data_limits = (HAND, LEAD)
    knobs = (int_knob("lead", "points added to seat 0's bonus", LEAD.low, LEAD.high, 0),
             int_knob("hand", "cards in a hand", HAND.low, HAND.high, 3))  # fmt: skip
    restricted_play = None  # High Card has no components to play without

    def variants(self, raw: Mapping[str, Any], players: int, base: Path | None) -> list[Variant]:
        rules = {**RULES, **dict(raw.get("rules", {}))}
        if (set(rules) != set(RULES) or not HAND.low <= rules["hand"] <= HAND.high
                or not LEAD.low <= rules["lead"] <= LEAD.high):  # fmt: skip
            raise SlicelabError(f"High Card's rules are hand = {HAND.low}..{HAND.high} and "
                                f"lead = {LEAD.low}..{LEAD.high}")  # fmt: skip
        return [Variant({"rules": rules})]

    def check_arm(self, arm) -> None:
        for spec in arm.strategies:
            self.make_strategy(spec)

    def fingerprint(self, arm) -> dict[str, Any]:
        vid = hashlib.sha256(json.dumps(arm.options, sort_keys=True).encode()).hexdigest()[:12]
        return {"variant_id": vid, "rules_version": "toy-1"}

    def strategies(self) -> list[StrategyInfo]:
        return [StrategyInfo("random", "any card"), StrategyInfo("greedy", "highest card")]

    def make_strategy(self, spec: str) -> Player:
        parsed = parse_spec(spec)
        if parsed.name not in ("random", "greedy") or parsed.params:
            raise StrategySpecError(f"unknown High Card strategy {spec!r}; known: greedy, random")
        return Player(parsed)

    def strategy_identity(self, spec: str, players: int) -> str:
        return str(parse_spec(spec))

    def strategy_defaults(self, family: str, players: int) -> dict[str, float]:
        raise SlicelabError("High Card has no family to tune")

    def check_preset(self, family: str, name: str) -> None:
        raise SlicelabError("High Card has no family to tune")

    def save_preset(self, family: str, name: str, params: dict[str, float], note: str) -> None:
        raise SlicelabError("High Card has no family to tune")

    def initial_state(self, options, players: int, rng: np.random.Generator) -> HighCardState:
        rules = options["rules"]
        return HighCardState(players, rules["hand"], rng, rules.get("lead", 0))

    def decide(self, strategy: Player, state: HighCardState, rng: np.random.Generator) -> int:
        return strategy.choose(state, rng)

    def engine_for(self, arm) -> str:
        return "reference"

    def _play(self, options, players, specs, seed, index) -> HighCardState:
        strategies = [self.make_strategy(s) for s in specs]
        streams = game_streams(seed, index, players)
        state = self.initial_state(options, players, streams.deal)
        while not state.terminal:
            p = state.current_player
            state.apply(self.decide(strategies[p], state, streams.seats[p]))
        return state

    def play_chunk(self, arm, first: int, count: int, decisions: bool, engine=None):
        n = arm.players
        cols = {c: np.zeros((count, n), dtype=np.int16) for c in self.results.seat_columns}
        ndec = np.zeros(count, dtype=np.int32)
        for g in range(count):
            state = self._play(arm.options, n, arm.strategies, arm.seed, first + g)
            for p, row in enumerate(state.score_breakdown()):
                for c in cols:
                    cols[c][g, p] = row[c]
            ndec[g] = len(state.history)
        return ChunkArrays(seats=cols, games={"decisions": ndec})

    def replay(
        self,
        options,
        players: int,
        specs: Sequence[str],
        seed: int,
        index: int,
        reveal: bool = False,
    ) -> str:
        state = self._play(options, players, specs, seed, index)
        lines = [f"High Card, {players} players, seed {seed}, game {index}"]
        if reveal:  # hands are dealt face down; each seat plays its whole hand, in seat order
            dealt = [sorted(state.history[p::players]) for p in range(players)]
            lines += [f"P{p} was dealt [hidden: {cards}]" for p, cards in enumerate(dealt)]
        lines += [f"P{p} ({specs[p]}): {row}" for p, row in enumerate(state.score_breakdown())]
        return "\n".join(lines)


GAME = HighCard()
