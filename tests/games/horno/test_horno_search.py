"""Horno's ``search`` and what it rests on: the view's memory of hidden cards is sound (it
never names a card that is not there) over many games, rule variants and reshuffles; a
determinization is consistent with the view and depends only on it; a game resumed from a
view and its true hidden cards plays on exactly as the real one, at every kind of decision
the search resumes; the search's choice depends only on what its seat may see (two games
differing only in hidden cards, the same seed: the same choice); its parameters' bounds;
legal, reproducible play at 2, 3 and 4 players; and it beats random and greedy."""

from __future__ import annotations

import copy
import tomllib
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from horno_helpers import CARDS
from test_horno_view import _hide_swap

from sims.core.errors import SlicelabError, StrategySpecError
from sims.games.horno.cards import parse_cards
from sims.games.horno.engine import GameState, Phase, deal
from sims.games.horno.game import play_game, seat_strategies
from sims.games.horno.plugin import strategy_identity
from sims.games.horno.rules import Rules
from sims.games.horno.search import (
    SEARCH_DEFAULTS,
    ResumedState,
    SearchStrategy,
    candidates,
    margin,
    searchable,
)
from sims.games.horno.strategies import make_strategy
from sims.games.horno.view import HIDDEN, PlayerView, World

CARDS_FILE = Path(__file__).resolve().parents[3] / "sims/games/horno/data/cards-v1.toml"


def _tiny_cards():
    """A 24-card deck (the least allowed): one copy of each ingredient, 2 wilds, 10 garbage
    cards, no radioactive card. At 4 players the opening redraw can empty it, so the
    discard pile is reshuffled during the setup."""
    data = tomllib.loads(CARDS_FILE.read_text("utf-8"))
    for e in data["ingredient"]:
        e["copies"] = 1
    data["wild"]["copies"] = 2
    for e, c in zip(data["garbage"], (4, 4, 0, 2), strict=True):
        e["copies"] = c
    for e in data["radioactive"]:
        e["copies"] = 0
    return parse_cards(data, "tiny")


def _contains(big, small) -> bool:
    have = Counter(big)
    return all(have[x] >= c for x, c in Counter(small).items())


class _RedrawAll:
    """Random play, except that it redraws its whole opening hand."""

    remembers = True

    def __init__(self) -> None:
        self.spec = make_strategy("random").spec

    def choose(self, view, decision, rng):
        if decision.phase == Phase.REDRAW:
            return decision.legal[1]
        return decision.legal[int(rng.integers(len(decision.legal)))]


def _strategies(n: int, i: int, redraw_all: bool = False):
    if redraw_all:
        return [_RedrawAll() for _ in range(n)]
    specs = ["random", "greedy", "heuristic", "random"]
    return [make_strategy(specs[(i + s) % 4]) for s in range(n)]


VARIANTS = [
    ("default", Rules(), None, 3, 4),
    ("twelve-rounds", Rules(rounds=12), None, 4, 3),  # the deck runs out: reshuffles
    ("blind-steals", Rules(steal_face_down=True, steal_needs_replacement=False,
                           pantry_empty_handed="return-both", pantry_single="forbidden",
                           rounds=9), None, 2, 3),
    ("tiny-deck", Rules(rounds=4), _tiny_cards(), 4, 6),
]  # fmt: skip


@pytest.mark.parametrize("variant", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_the_memory_is_sound_and_every_view_determinizes(variant):
    """At every decision, for every seat: each card it remembers in a hand, the discard
    pile or the deck is really there; the deciding seat's view determinizes."""
    _, rules, cards, n, games = variant
    cards = cards or CARDS
    rng = np.random.default_rng(5)
    reshuffles = remembered = 0
    setup_reshuffle = False
    for g in range(games):
        state = GameState(cards, rules, n, deal(cards, np.random.default_rng(g)))
        strategies = _strategies(n, g, redraw_all=cards is not CARDS and g == 0)
        while not state.terminal:
            dec = state.decision()
            for w in range(n):
                if w != dec.player and dec.phase in (Phase.KEEP, Phase.GIVE):
                    continue  # a steal in progress: its cards are in the thief's hands
                view = PlayerView(state, w)
                for v in range(n):
                    assert _contains(state.hands[v], view.known[v]), (g, w, v)
                    remembered += len(view.known[v]) * (v != w)
                assert _contains(state.discard, view.discard_known)
                below = state.deck[1:] if view.top >= 0 else state.deck
                assert _contains(below, view.deck_known)
                if w == dec.player and dec.phase != Phase.CLEAN_MORE:  # a card in limbo
                    view.determinize(rng)
            view = PlayerView(state, dec.player, strategies[dec.player].remembers)
            state.apply(strategies[dec.player].choose(view, dec, rng))
            setup_reshuffle |= state.round == 0 and state.reshuffles > 0
        reshuffles += state.reshuffles
    assert remembered > 0
    if rules.rounds > 10:
        assert reshuffles > 0
    if cards is not CARDS:
        assert setup_reshuffle


def _world_of(state: GameState) -> World:
    """The true hidden information, as a determinization."""
    return World(tuple(tuple(h) for h in state.hands), tuple(tuple(o) for o in state.ovens),
                 tuple(state.deck), tuple(state.discard),
                 tuple(tuple(p) for p in state.piles))  # fmt: skip


def test_a_determinization_is_consistent_with_the_view_and_depends_only_on_it():
    rng = np.random.default_rng(2)
    checked = 0
    for g in range(4):
        n = 2 + g % 3
        state = GameState(CARDS, Rules(), n, deal(CARDS, np.random.default_rng(60 + g)))
        strategies = _strategies(n, g)
        while not state.terminal:
            dec = state.decision()
            me = dec.player
            view = PlayerView(state, me)
            if searchable(view, dec) and rng.random() < 0.3:
                seed = int(rng.integers(2**32))
                w = view.determinize(np.random.default_rng(seed))
                assert w.hands[me] == view.hand
                for v in view.others():
                    assert len(w.hands[v]) == view.hand_sizes[v]
                    assert _contains(w.hands[v], view.known[v])
                for mine, theirs in zip(view.ovens, w.ovens, strict=True):
                    assert len(mine.cards) == len(theirs)
                    for a, b in zip(mine.cards, theirs, strict=True):
                        assert (a.up, a.by) == (b.up, b.by)
                        assert a.kind == b.kind or (a.kind == HIDDEN and CARDS.is_bad(b.kind))
                assert len(w.deck) == view.deck_size and len(w.discard) == view.discard_size
                assert view.top < 0 or w.deck[0] == view.top
                assert _contains(w.deck[1:] if view.top >= 0 else w.deck, view.deck_known)
                assert _contains(w.discard, view.discard_known)
                for t, (size, back) in enumerate(view.piles):
                    assert len(w.piles[t]) == size
                    assert not size or CARDS.dishes[w.piles[t][0]].back == back
                everything = [k for h in w.hands for k in h] + list(w.deck) + list(w.discard)
                everything += [c.kind for o in w.ovens for c in o]
                everything += list(view.taken) if view.slot < 0 else []
                assert Counter(everything) == Counter(CARDS.deck)
                # the sample depends only on the view: the same from a game whose hidden
                # cards differ
                other = PlayerView(_hide_swap(state, me, rng), me)
                assert other.public() == view.public()
                assert other.determinize(np.random.default_rng(seed)) == w
                # and the engine resumed from it shows the seat the same table
                resumed = ResumedState(view, dec, w, np.random.default_rng(0))
                assert resumed.decision() == dec
                again = PlayerView(resumed, me, remember=False)
                for key in (
                    "hand",
                    "hand_sizes",
                    "ovens",
                    "points",
                    "top",
                    "deck_size",
                    "discard_size",
                    "piles",
                    "taken",
                    "victim",
                    "slot",
                    "kept",
                ):
                    assert getattr(again, key) == getattr(view, key), key
                checked += 1
            state.apply(strategies[me].choose(PlayerView(state, me), dec, rng))
    assert checked > 40


def test_a_game_resumed_from_its_true_hidden_cards_plays_on_as_the_real_one():
    rng = np.random.default_rng(4)
    phases = set()
    for g in range(10):
        n = 2 + g % 3
        rules = Rules(rounds=6 if g % 2 else 10)
        state = GameState(CARDS, rules, n, deal(CARDS, np.random.default_rng(80 + g)))
        while not state.terminal:
            dec = state.decision()
            view = PlayerView(state, dec.player)
            if searchable(view, dec) and rng.random() < 0.08:
                real = state.clone()
                real.chance = copy.deepcopy(state.chance)
                resumed = ResumedState(view, dec, _world_of(state), copy.deepcopy(state.chance))
                play = np.random.default_rng(g)
                while not real.terminal:
                    a, b = real.decision(), resumed.decision()
                    assert (a.player, a.phase, a.legal) == (b.player, b.phase, b.legal)
                    action = a.legal[int(play.integers(len(a.legal)))]
                    real.apply(action)
                    resumed.apply(action)
                assert resumed.terminal
                assert ([r["score"] for r in real.score_breakdown()]
                        == [r["score"] for r in resumed.score_breakdown()])  # fmt: skip
                phases.add(dec.phase)
            state.apply(dec.legal[int(rng.integers(len(dec.legal)))])
    assert phases >= {Phase.REDRAW, Phase.DISH, Phase.DISCARD, Phase.DRAW, Phase.ACTION,
                      Phase.KEEP, Phase.PREPARE, Phase.SABOTAGE}  # fmt: skip
    with pytest.raises(SlicelabError, match="cannot be cloned"):
        resumed.clone()


def test_the_search_decides_from_its_view_alone():
    """Two games that differ only in what the searching seat cannot see (the other hands,
    the deck below its top, the discard pile, others' face-down cards): the same view, the
    same seed, the same candidates' values and the same choice."""
    search = make_strategy("search(budget=4,width=3,gap=3)")
    rng = np.random.default_rng(8)
    state = GameState(CARDS, Rules(), 3, deal(CARDS, np.random.default_rng(9)))
    heuristic = make_strategy("heuristic")
    compared = differed = 0
    while not state.terminal and compared < 8:
        dec = state.decision()
        view = PlayerView(state, dec.player)
        if state.round >= 2 and search.searches(view, dec):
            cands = search.candidates(view, dec)
            if len(cands) > 1:
                other = _hide_swap(state, dec.player, rng)
                theirs = PlayerView(other, dec.player)
                assert theirs.public() == view.public()
                differed += any(other.hands[v] != state.hands[v] for v in view.others())
                a = search.values(view, dec, cands, np.random.default_rng(compared))
                b = search.values(theirs, dec, cands, np.random.default_rng(compared))
                assert a == b
                assert search.choose(view, dec, np.random.default_rng(compared)) == search.choose(
                    theirs, dec, np.random.default_rng(compared)
                )
                compared += 1
        state.apply(heuristic.choose(PlayerView(state, dec.player, False), dec, rng))
    assert compared == 8 and differed >= 6


def test_candidates_and_margin():
    inf = float("-inf")
    # the heuristic's best first, ties in its order; within gap; never -inf
    assert candidates([0.0, 2.0, 1.5, inf], [0, 1, 2, 3], 4, 1.0) == [1, 2]
    assert candidates([0.0, 2.0, 1.5, inf], [0, 1, 2, 3], 1, 9.0) == [1]
    assert candidates([1.0, 1.0, 1.0], [2, 1, 0], 2, 0.0) == [1, 2]
    assert candidates([inf, inf], [0, 1], 2, 5.0) == [0]
    state = play_game(3, seat_strategies("greedy", 3), 1, 0)
    scores = [r["score"] for r in state.score_breakdown()]
    assert margin(state, 0) == scores[0] - max(scores[1:])


@pytest.mark.parametrize("spec, fragment", [
    ("search(budget=0)", "budget must be an integer from 1 to 10000, got 0"),
    ("search(budget=2.5)", "budget must be an integer from 1 to 10000"),
    ("search(width=0)", "width must be an integer from 1 to 100"),
    ("search(gap=-1)", "gap must be a number from 0 to 1000"),
    ("search(restock=2)", "restock must be an integer from 0 to 1"),
    ("search(depth=3)", "has no parameter(s) ['depth']"),
])  # fmt: skip
def test_search_parameters_outside_their_bounds_are_refused(spec, fragment):
    with pytest.raises(StrategySpecError) as err:
        make_strategy(spec)
    assert fragment in str(err.value)


def test_search_parameters_and_identity():
    s = make_strategy("search(budget=8)")
    assert isinstance(s, SearchStrategy) and s.remembers
    assert s.p == {**SEARCH_DEFAULTS, "budget": 8.0}
    assert strategy_identity("search", 3) == strategy_identity("search(budget=16,width=2)", 3)
    assert strategy_identity("search", 3) != strategy_identity("search(budget=8)", 3)
    with pytest.raises(StrategySpecError, match="budget"):
        SearchStrategy(make_strategy("search").spec.__class__("search", {"budget": 1e308}))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_search_plays_legal_reproducible_games(n):
    specs = ["search(budget=1,width=2)", "heuristic", "greedy", "random"][:n]
    a = play_game(n, seat_strategies(specs, n), 3, 1)  # play_out refuses illegal moves
    b = play_game(n, seat_strategies(specs, n), 3, 1)
    assert a.terminal and a.history == b.history and a.won() == b.won()
    restock = play_game(n, seat_strategies(["search(budget=1,width=2,restock=1)", *specs[1:]],
                                           n), 3, 1)  # fmt: skip
    assert restock.terminal


def _share(spec: str, field: str, games: int, seed: int) -> float:
    """The spec's mean win share in one seat against ``field`` in the others, at 3
    players, the seat rotating game by game."""
    share = 0.0
    for i in range(games):
        specs = [field] * 3
        specs[i % 3] = spec
        share += play_game(3, seat_strategies(specs, 3), seed, i).win_shares()[i % 3]
    return share / games


def test_search_beats_random():
    # the cheapest search: one sample, two candidates (about 8 s of one core)
    assert _share("search(budget=1,width=2)", "random", 40, 11) > 0.85  # fair: 1/3 (got 1.0)


def test_search_beats_greedy():
    # two samples a candidate (about 16 s of one core); the heuristic alone wins 0.46 of
    # these games
    assert _share("search(budget=4,width=2)", "greedy", 40, 11) > 0.45  # fair: 1/3 (got 0.55)


def test_the_search_plays_the_heuristic_at_a_decision_it_does_not_search():
    search = make_strategy("search")
    heuristic = make_strategy("heuristic")
    state = GameState(CARDS, Rules(), 3, deal(CARDS, np.random.default_rng(1)))
    rng = np.random.default_rng(0)
    seen = 0
    while not state.terminal:
        dec = state.decision()
        view = PlayerView(state, dec.player)
        if dec.phase in (Phase.DISCARD, Phase.DRAW, Phase.CLEAN_MORE):  # not searched
            assert search.choose(view, dec, rng) == heuristic.choose(view, dec, rng)
            seen += 1
        state.apply(heuristic.choose(view, dec, rng))
    assert seen > 20
