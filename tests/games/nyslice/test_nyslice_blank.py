"""The blank tile: a special replaced by a tile that does nothing, on the same deals.

``Deck.with_blank(special)`` puts a blank where the special's tile was, so the deal of a
(seed, game index) is the baseline deal with the blank in the special's place; the blank
is dealt, cut, taken and owned like a special, is never replaced, and does nothing. The
kernel's agreement on blank decks is in ``test_nyslice_kernel.py``; the deck file and
``with_blank`` checks in ``test_nyslice_deck.py``; the plugin's in ``test_nyslice_plugin.py``.
"""

import dataclasses

import numpy as np
import pytest
from nyslice_helpers import CHEESE, DECK, cut, finish, make_deal, take

from sims.core.seeding import game_streams
from sims.games.nyslice.deck import REAL_SPECIALS, Special
from sims.games.nyslice.engine import GameState, Phase, deal
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.kernel import KernelRunner, strategy_codes
from sims.games.nyslice.plugin import specials_in_play
from sims.games.nyslice.records import decision_row, score_rows, special_masks
from sims.games.nyslice.replay import PORTION_LETTERS, format_replay
from sims.games.nyslice.rules import Rules
from sims.games.nyslice.scoring import Holdings, score

BLANK = Special.BLANK
ALL = [s.slug for s in REAL_SPECIALS]
NEVER_AT_2 = ("cut_in_line", "dibs", "you_love_veggies")


# ---------------------------------------------------------------- which specials are in play
@pytest.mark.parametrize(
    "n,expected",
    [(2, [s for s in ALL if s not in NEVER_AT_2]), (3, ALL), (4, ALL), (5, ALL), (6, ALL)],
)
def test_specials_in_play(n, expected):
    assert specials_in_play(n) == expected
    assert len(expected) == (11 if n == 2 else 14)


# ---------------------------------------------------------------- same deal
DEAL_CASES = [(slug, n) for n in range(2, 7) for slug in specials_in_play(n)]


@pytest.mark.parametrize("slug,n", DEAL_CASES, ids=[f"{s}-{n}p" for s, n in DEAL_CASES])
def test_blank_deck_deals_the_baseline_deal_with_the_blank_in_place(slug, n):
    special = Special[slug.upper()]
    blank_deck = DECK.with_blank(slug)

    def swap(tiles):
        return tuple(BLANK if t is special else t for t in tiles)

    for seed, g in [(7, 0), (7, 1), (7, 2), (123, 40), (2**40 + 3, 999)]:
        base = deal(DECK, n, game_streams(seed, g, n).deal)
        got = deal(blank_deck, n, game_streams(seed, g, n).deal)
        expected = dataclasses.replace(
            base, stack_specials=swap(base.stack_specials), replacement=swap(base.replacement)
        )
        assert got == expected
        assert (got.stacks, got.mystery, got.removed) == (base.stacks, base.mystery, base.removed)
        assert (got.stack_specials + got.replacement).count(BLANK) == 1
        assert special not in got.stack_specials + got.replacement


def _revealed(state: GameState, special: Special) -> int:
    """The first round whose stack showed ``special`` (in play or rejected), or -1."""
    for e in state.events:
        if e[0] == "round" and (e[3] is special or special in e[4]):
            return e[1]
    return -1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_a_game_the_special_never_reaches_is_the_baseline_game(n):
    """The blank changes a game only from the round its tile is revealed: when the special
    stays in the replacement pile, random and greedy games are the baseline games, in
    both engines; when it is revealed, the blank is revealed there instead (never
    replaced, so in play even where the special would have been rejected)."""
    codes = {spec: strategy_codes([spec] * n) for spec in ("random", "greedy")}
    base_runner = KernelRunner(DECK, Rules())
    same = changed = 0
    for i, slug in enumerate(specials_in_play(n)):
        special = Special[slug.upper()]
        blank_deck = DECK.with_blank(slug)
        runner = KernelRunner(blank_deck, Rules())
        for spec, games in (("random", 6), ("greedy", 2)):
            for g in range(i * 10, i * 10 + games):
                strategies = seat_strategies(spec, n)
                base = play_game(n, strategies, 11, g, DECK, Rules())
                got = play_game(n, strategies, 11, g, blank_deck, Rules())
                r = _revealed(base, special)
                k_base = base_runner.play(n, codes[spec], 11, g)
                k_got = runner.play(n, codes[spec], 11, g)
                if r < 0:
                    same += 1
                    assert got.trace == base.trace and score_rows(got) == score_rows(base)
                    assert got.events == base.events
                    assert (k_got[0] == k_base[0]).all() and (k_got[1] == k_base[1]).all()
                else:
                    changed += 1
                    # Everything before that round's reveal is the same game.
                    at = [j for j, e in enumerate(got.events) if e[0] == "round"][r]
                    assert got.events[:at] == base.events[:at]
                    # The blank shows where the special did; tiles rejected before it still
                    # are, the special's own rejection is not.
                    rejected = base.events[at][4]
                    if special in rejected:
                        rejected = rejected[: rejected.index(special)]
                    assert got.events[at][3:5] == (BLANK, rejected)
    assert same > 0 and changed > 0


# ---------------------------------------------------------------- the blank does nothing
# id, arcs of the cut (Cheese slices 52..62), arc the blank joins (None: a portion alone),
# the blank's portion, slices its taker eats, totals per seat, majorities won per seat
SCRIPTED = [
    (
        "with its portion",
        [[52, 53, 54, 55], [56, 57, 58, 59], [60, 61, 62]],
        0,
        0,
        (53,),
        [0, 1, 10],
        [0, 0, 1],
    ),
    (
        "a portion alone",
        [[52, 53, 54, 55, 56, 57], [58, 59, 60, 61, 62]],
        None,
        2,
        (),
        [-1, 0, 10],
        [0, 0, 1],
    ),
]


@pytest.mark.parametrize(
    "arcs,special_with,portion,eat,totals,won",
    [s[1:] for s in SCRIPTED],
    ids=[s[0] for s in SCRIPTED],
)
def test_blank_taken_is_owned_and_does_nothing(arcs, special_with, portion, eat, totals, won):
    """3 players, one (last) round: seat 1 takes the blank, seats 2 and 0 the other portions.
    The blank is owned (mask bit 14, never used), arrives with its portion in the records,
    and the scores are those of the same holdings without it."""
    deck = DECK.with_blank("stuffed_crust")
    the_deal = make_deal(3, [CHEESE], [BLANK], full=False)
    state = GameState(deck, Rules(), 3, the_deal)
    assert state.decision().phase == Phase.CUT
    cut(state, arcs, special_with)
    assert take(state, portion, eat=eat) == 1
    take(state, 0 if portion else 1)
    finish(state)
    assert state.terminal
    assert [dict(p.specials) for p in state.players] == [{}, {BLANK: 0}, {}]
    assert [special_masks(state, p) for p in range(3)] == [(0, 0), (1 << 14, 0), (0, 0)]
    plain = [
        Holdings(tuple(p.collected), tuple(p.eaten), frozenset(p.specials) - {BLANK})
        for p in state.players
    ]
    assert state.scores() == score(deck, plain)
    assert [b.total for b in state.scores()] == totals
    assert [b.majorities_won for b in state.scores()] == won
    assert state.scores()[1].special_points == {}
    # The decision records show the blank (code 14) with the portion's eat decisions.
    replay = GameState(deck, Rules(), 3, the_deal)
    rows = []
    for a in state.history:
        rows.append(decision_row(replay, replay.decision(), a, 0))
        replay.apply(a)
    eats = [r for r in rows if r[4] == Phase.EAT and r[3] == 1]
    with_blank = len(arcs[special_with]) if special_with is not None else 0
    assert [r[16] for r in eats] == [14] * with_blank
    text = format_replay(state, ["a", "b", "c"])
    assert f"takes portion {PORTION_LETTERS[portion]} with Blank" in text
    # The kernel plays the same explicit deal and decisions to the same scores.
    runner = KernelRunner(deck, Rules())
    scores, trace = runner.play_deal(
        3, strategy_codes(["greedy"] * 3), None, the_deal, state.history, trace=True
    )
    assert [tuple(t) for t in trace.tolist()] == state.trace
    assert scores.tolist() == score_rows(state)


# id, players, stack specials, replacement pile, [(special in play, rejected tiles)] per round
NEVER_REPLACED = [
    (
        "2p: a blank on a stack stays",
        2,
        [BLANK, Special.CUT_IN_LINE, Special.SECONDS, Special.MYSTERY_SLICE],
        [Special.BUFFET, Special.TIE_BREAKER],
        [(BLANK, ()), (Special.BUFFET, (Special.CUT_IN_LINE,))]
        + [(Special.SECONDS, ()), (Special.MYSTERY_SLICE, ())],
    ),
    (
        "2p: a blank replaces a rejected special",
        2,
        [Special.DIBS, Special.SECONDS, Special.MYSTERY_SLICE, Special.SNEAK_A_SLICE],
        [BLANK, Special.BUFFET],
        [(BLANK, (Special.DIBS,)), (Special.SECONDS, ()), (Special.MYSTERY_SLICE, ())]
        + [(Special.BUFFET, (Special.SNEAK_A_SLICE,))],
    ),
    (
        "3p: a blank stays in the last round",
        3,
        [Special.MYSTERY_SLICE, Special.SECONDS, Special.BUFFET]
        + [Special.TIE_BREAKER, Special.DIBS, BLANK],
        [Special.CUT_IN_LINE],
        [(Special.MYSTERY_SLICE, ()), (Special.SECONDS, ()), (Special.BUFFET, ())]
        + [(Special.TIE_BREAKER, ()), (Special.DIBS, ()), (BLANK, ())],
    ),
]


@pytest.mark.parametrize(
    "n,specials,replacement,expected",
    [r[1:] for r in NEVER_REPLACED],
    ids=[r[0] for r in NEVER_REPLACED],
)
def test_blank_is_never_replaced(n, specials, replacement, expected):
    deck = DECK.with_blank("stuffed_crust")
    state = GameState(deck, Rules(), n, make_deal(n, [], specials, replacement=replacement))
    finish(state)
    assert [(e[3], e[4]) for e in state.events if e[0] == "round"] == expected
    assert sum(BLANK in p.specials for p in state.players) == 1


def test_strategies_value_the_blank_at_nothing():
    from sims.games.nyslice.heuristic import Valuer, params_for
    from sims.games.nyslice.kernel import SPECIAL_VALUES
    from sims.games.nyslice.strategies import SPECIAL_VALUE
    from sims.games.nyslice.view import PlayerView

    assert SPECIAL_VALUE[BLANK] == 0.0 and SPECIAL_VALUES[14] == 0.0
    assert SPECIAL_VALUES.tolist() == [SPECIAL_VALUE[Special(i)] for i in range(15)]
    state = GameState(DECK, Rules(), 3, make_deal(3, [CHEESE], [BLANK], full=False))
    val = Valuer(PlayerView(state, 0), 0, params_for(3, {}))
    assert val.special_value(BLANK) == 0.0


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", "search(budget=4)"])
def test_every_strategy_plays_a_blank_deck(spec):
    deck = DECK.with_blank("seconds")
    played = 0
    for g in range(40 if spec != "search(budget=4)" else 6):
        state = play_game(3, seat_strategies(spec, 3), 5, g, deck, Rules())
        played += any(BLANK in p.specials for p in state.players)
        if spec.startswith("search") and played:
            break
    assert played > 0
    assert np.isfinite([b.total for b in state.scores()]).all()
