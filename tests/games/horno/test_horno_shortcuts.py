"""The reference engine's shortcuts decide exactly as the long way round: the light views
(a strategy's ``light`` decisions, made from a :class:`LightView`) choose what the full
:class:`PlayerView` would, and the oven-steal targets' test for a replacement card agrees
with the list of replacements, at every decision of played games, every rule option that
changes them included."""

from __future__ import annotations

import numpy as np
import pytest

from sims.core.seeding import game_streams
from sims.games.horno.cards import default_cards
from sims.games.horno.engine import GameState, Phase, deal
from sims.games.horno.game import play_game, seat_strategies
from sims.games.horno.rules import Rules
from sims.games.horno.view import LightView, PlayerView, view_for

SPECS = ["heuristic", "greedy", "random", "heuristic(draw=1,room=5)", "heuristic(room=0)"]


def _walk(spec: str, n: int, games: int, rules: Rules, check) -> int:
    """Play ``games`` games of ``spec`` in every seat, calling ``check(state, decision,
    strategy)`` at every decision; the number of decisions seen."""
    cards = default_cards()
    strategies = seat_strategies(spec, n)
    seen = 0
    for g in range(games):
        streams = game_streams(5, g, n)
        state = GameState(cards, rules, n, deal(cards, streams.deal))
        while not state.terminal:
            dec = state.decision()
            strategy = strategies[dec.player]
            check(state, dec, strategy)
            seen += 1
            view = PlayerView(state, dec.player, False)
            state.apply(strategy.choose(view, dec, streams.seats[dec.player]))
    return seen


@pytest.mark.parametrize("spec", SPECS)
def test_a_light_view_chooses_what_the_full_view_would(spec):
    light = {"n": 0}

    def check(state, dec, strategy):
        view = view_for(strategy, state, dec.player, False)
        if type(view) is not LightView:
            return
        assert view == LightView(dec.player, state.n, len(state.hands[dec.player]))
        light["n"] += 1
        full = PlayerView(state, dec.player, False)
        # random draws from its stream: the same draw from two copies of one generator
        rng = np.random.default_rng(light["n"])
        twin = np.random.default_rng(light["n"])
        assert strategy.choose(view, dec, rng) == strategy.choose(full, dec, twin)

    seen = _walk(spec, 4, 6, Rules(), check)
    if spec == "heuristic(draw=1,room=5)":  # draw >= 0: draws need the full view
        assert 0 < light["n"] < seen
    else:
        assert light["n"] > 0


@pytest.mark.parametrize("rules", [
    Rules(),
    Rules(steal_face_down=True),
    Rules(steal_completes="forbidden"),
    Rules(steal_needs_replacement=False),
], ids=["default", "face-down", "no-completing", "no-replacement-needed"])  # fmt: skip
def test_the_replacement_test_agrees_with_the_replacements(rules):
    checked = {"n": 0}

    def check(state, dec, strategy):
        if dec.phase != Phase.ACTION:
            return
        s = dec.player
        for v in range(state.n):
            if v == s or state.dish[v] < 0:
                continue
            for j in range(len(state.ovens[v])):
                checked["n"] += 1
                assert state._replaceable(s, v, j) == bool(state.replacements(s, v, j))

    _walk("random", 3, 8, rules, check)
    assert checked["n"] > 50


def test_the_shortcuts_leave_the_games_as_they_were():
    # the light views are made by the batch path (play_game); the same games replayed with
    # full views at every decision end identically
    strategies = seat_strategies("heuristic,greedy,random,heuristic(room=1)", 4)
    for g in range(4):
        fast = play_game(4, strategies, 11, g)
        cards = default_cards()
        streams = game_streams(11, g, 4)
        slow = GameState(cards, Rules(), 4, deal(cards, streams.deal))
        while not slow.terminal:
            dec = slow.decision()
            strategy = strategies[dec.player]
            view = PlayerView(slow, dec.player, bool(getattr(strategy, "remembers", True)))
            slow.apply(strategy.choose(view, dec, streams.seats[dec.player]))
        assert slow.history == fast.history
