"""Horno's strategies: the catalogue and its checks; legal, reproducible play for random
and greedy at 2, 3 and 4 players; random's one draw of its own stream per decision;
greedy's documented choices (``docs/strategies/horno.md``), decision by decision, and that
it draws nothing."""

from __future__ import annotations

import numpy as np
import pytest
from horno_helpers import CARDS, ScriptedChance, d, down, k, ks, run, state_at, to_phase, up

from sims.core.errors import StrategySpecError
from sims.core.seeding import game_streams
from sims.games.horno.engine import (
    PASS,
    Deal,
    GameState,
    Phase,
    Scored,
    deal,
    oven_clean,
    oven_steal,
    pantry_steal,
    sabotage,
)
from sims.games.horno.game import play_game, seat_strategies
from sims.games.horno.rules import Rules
from sims.games.horno.strategies import make_strategy
from sims.games.horno.view import PlayerView

GREEDY = make_strategy("greedy")


def test_catalogue():
    assert make_strategy("random").spec.name == "random"
    for bad, what in [("chess", "unknown Horno strategy 'chess'; known: greedy, heuristic, "
                              "random, search and the heuristic presets"),
                      ("greedy(depth=2)", "has no parameter(s) ['depth']"),
                      ("random(p=1)", "has no parameter(s) ['p']")]:  # fmt: skip
        with pytest.raises(StrategySpecError) as err:
            make_strategy(bad)
        assert what in str(err.value)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("spec", ["random", "greedy", "mixed"])
def test_legal_and_reproducible(spec, n):
    if spec == "mixed":  # greedy, random, greedy, ...
        spec = ",".join((["greedy", "random"] * 2)[:n])
    for index in range(3):
        a = play_game(n, seat_strategies(spec, n), 4, index)  # play_out refuses illegal moves
        b = play_game(n, seat_strategies(spec, n), 4, index)
        assert a.terminal and a.history == b.history
        assert a.score_breakdown() == b.score_breakdown() and a.won() == b.won()
    c = play_game(n, seat_strategies(spec, n), 5, 0)
    assert c.history != a.history  # another seed, another game


@pytest.mark.parametrize("n", [2, 4])
def test_random_draws_once_per_decision_from_its_own_stream(n):
    state = play_game(n, seat_strategies("random", n), 9, 3)
    streams = game_streams(9, 3, n)
    replay = GameState(CARDS, Rules(), n, deal(CARDS, streams.deal))
    while not replay.terminal:
        dec = replay.decision()
        replay.apply(dec.legal[int(streams.seats[dec.player].integers(0, len(dec.legal)))])
    assert replay.history == state.history


def test_greedy_draws_nothing_from_its_stream():
    rng = np.random.default_rng(0)
    before = rng.bit_generator.state
    state = GameState(CARDS, Rules(), 3, deal(CARDS, np.random.default_rng(2)))
    while not state.terminal:
        dec = state.decision()
        state.apply(GREEDY.choose(PlayerView(state, dec.player), dec, rng))
    assert rng.bit_generator.state == before


def _choice(state) -> int:
    dec = state.decision()
    return GREEDY.choose(PlayerView(state, dec.player), dec, np.random.default_rng(0))


MARGARITA, KABUKI, SOPA = d("Pizza Margarita"), d("Kabuki Yakitori"), d("Sopa Mademoiselle")
AZTECA = d("Sopa Azteca")


def test_greedy_redraws_ingredients_on_no_visible_back_and_picks_the_best_back():
    piles = [CARDS.pile(t) for t in range(5)]  # backs: masa/tomate, carne/cebolla, pan/carne,
    # tomate/cebolla, tortilla/frijol
    deck = ks("pan", "carne", "arroz", "mosca", "queso", "pollo") + (k("lechuga"),) * 30
    s = GameState(CARDS, Rules(), 2, Deal(deck, tuple(map(tuple, piles)), ScriptedChance()))
    assert _choice(s) == k("arroz")  # on no back (the mosca is kept for sabotage)
    run(s, k("arroz"))
    assert _choice(s) == PASS
    run(s, PASS, PASS)  # seat 0 redrew one (lechuga); seat 1 keeps its cards
    assert s.decision().phase == Phase.DISH
    assert _choice(s) == 2  # Hamburguesa: pan and carne on its top card's back


GREEDY_TABLE = [
    # id, position (state_at keywords), the phase to pass to, greedy's action
    ("discard-the-lowest-spare", dict(hands=[ks("masa", "masa", "pan", "mosca", "rata",
                                                 "cabello"), (), ()]),
     Phase.DISCARD, k("masa")),  # the second masa is spare; so is a third sabotage card
    ("discard-nothing-useful", dict(hands=[ks("masa", "tomate", "mosca"), (), ()]),
     Phase.DISCARD, PASS),
    ("always-draws", dict(hands=[ks("masa"), (), ()], deck=ks("pan", "pan")), Phase.DRAW,
     k("pan")),
    ("cleans-out-sabotage-first", dict(hands=[ks("pan"), ks("tomate"), ()],
                                       ovens=[(up("masa"), down("mosca", 1)), (),
                                              (up("tomate", 2),)]),
     Phase.ACTION, oven_clean(1)),
    ("steals-what-it-needs-paying-with-a-spare", dict(hands=[ks("cebolla"), ks("pan"), ()],
                                                      ovens=[(up("masa"),), (),
                                                             (up("tomate", 2),)]),
     Phase.ACTION, oven_steal(2, 0)),
    ("no-steal-without-a-spare-to-pay", dict(hands=[ks("queso"), (), ()],
                                             ovens=[(up("masa"),), (), (up("tomate", 2),)],
                                             dish=[MARGARITA, KABUKI, AZTECA]),
     Phase.ACTION, PASS),  # the queso would pay (Azteca needs it) but Margarita needs it too
    ("pantry-steal-from-the-biggest-hand", dict(hands=[ks("pan"), ks("arroz", "arroz"),
                                                       ks("pollo", "pollo", "pollo")]),
     Phase.ACTION, pantry_steal(2)),
    ("no-pantry-steal-without-a-spare", dict(hands=[ks("tomate"), ks("arroz", "arroz"), ()]),
     Phase.ACTION, PASS),
    ("prepare-the-lowest-ingredient", dict(hands=[ks("tomate", "queso", "wild", "anchoas"),
                                                  (), ()], ovens=[(up("masa"),), (), ()]),
     Phase.PREPARE, k("tomate")),
    ("prepare-what-completes-first", dict(hands=[ks("tomate", "queso"), (), ()],
                                          ovens=[(up("masa"), up("wild")), (), ()]),
     Phase.PREPARE, k("tomate")),
    ("prepare-the-lowest-completing-card", dict(hands=[ks("queso", "wild"), (), ()],
                                          ovens=[(up("masa"), up("tomate"), up("anchoas")),
                                                 (), ()]),
     Phase.PREPARE, k("queso")),  # the lowest that completes
    ("prepare-radioactive-before-wild", dict(hands=[ks("wild", "anchoas"), (), ()]),
     Phase.PREPARE, k("anchoas")),
    ("sabotage-the-leader-with-the-worst-card", dict(
        hands=[ks("mosca", "rata"), (), ()], scored=[[], [Scored(1, 0, 1, 10, 0, 0, 0, ())], []],
        dish=[MARGARITA, KABUKI, SOPA]), Phase.SABOTAGE, sabotage(1, k("rata"))),
    ("sabotage-never-with-their-radioactive", dict(
        hands=[ks("wasabi"), (), ()], scored=[[], [Scored(1, 0, 1, 10, 0, 0, 0, ())], []],
        dish=[MARGARITA, KABUKI, SOPA]), Phase.SABOTAGE, sabotage(2, k("wasabi"))),
    ("sabotage-ties-to-the-dish-nearest-done", dict(
        hands=[ks("mosca"), (), ()], ovens=[(), (), (up("tomate", 2),)]), Phase.SABOTAGE,
     sabotage(2, k("mosca"))),
    ("places-its-own-radioactive", dict(hands=[ks("anchoas"), (), ()]), Phase.PREPARE,
     k("anchoas")),
    ("places-a-second-radioactive", dict(hands=[ks("anchoas"), (), ()],
                                         ovens=[(up("anchoas"),), (), ()]), Phase.PREPARE,
     k("anchoas")),  # the rules allow it (second_radioactive = true)
    # ties between seats go to the next to play after the deciding seat (seat 2 of 4
    # here: seat 3, then 0, then 1), never to the lowest seat number
    ("pantry-ties-to-the-next-to-play", dict(n=4, turn=2, hands=[ks("arroz", "arroz"), (),
                                                                 ks("pan"), ks("pollo", "pollo")]),
     Phase.ACTION, pantry_steal(3)),
    ("pantry-ties-from-seat-1", dict(n=4, turn=1, hands=[ks("arroz", "arroz"), ks("pan"),
                                                         ks("queso"), ks("pollo", "pollo")]),
     Phase.ACTION, pantry_steal(3)),
    ("sabotage-ties-to-the-next-to-play", dict(n=4, turn=2, hands=[(), (), ks("mosca"), ()]),
     Phase.SABOTAGE, sabotage(3, k("mosca"))),
    ("sabotage-ties-from-seat-1", dict(n=4, turn=1, hands=[(), ks("mosca"), (), ()]),
     Phase.SABOTAGE, sabotage(2, k("mosca"))),
]  # fmt: skip


@pytest.mark.parametrize("case", GREEDY_TABLE, ids=[c[0] for c in GREEDY_TABLE])
def test_greedy_decides_as_documented(case):
    _, position, phase, action = case
    s = to_phase(state_at(**position), phase)
    assert _choice(s) == action


def test_greedy_keeps_a_useful_taken_card_else_gives_both_back():
    for taken_picks, expected in (([1, 1], PASS), ([0, 0], k("tomate"))):
        # seat 1's hand by kind: tomate, pan, pan; the picks take two pans, or tomate and a pan
        s = state_at(hands=[ks("mosca", "mosca", "rata"), ks("pan", "pan", "tomate"), ()],
                     chance=ScriptedChance(taken_picks))  # fmt: skip
        to_phase(s, Phase.ACTION)
        run(s, pantry_steal(1))
        assert s.decision().phase == Phase.KEEP
        assert _choice(s) == expected
        if expected != PASS:
            run(s, expected)
            assert s.decision().phase == Phase.GIVE
            assert _choice(s) == k("mosca")  # its lowest spare card


# ------------------------------------------------------------------------ relabelling
RELABEL_FIELDS = {
    "heuristic": ("heuristic",),
    "greedy": ("greedy",),
    "heuristic-greedy": ("heuristic", "greedy", "heuristic", "greedy"),
    "presets": ("heuristic-eq2", "greedy", "heuristic-eq4(avoid=1)", "heuristic(sabotage=-1000)"),
}
"""The fields whose strategies draw nothing from their streams, so a relabelled game must
be the same game (random's is the same only in law: test_horno_nulls.py)."""


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("field", list(RELABEL_FIELDS))
def test_relabelled_seats_play_the_same_games_by_turn_position(field, n):
    """The seats relabelled (rule first_player = r, the strategy at each turn position
    kept): every game is the same game turn position by turn position, every seat column
    equal (on the kernel, 60 games; on the reference engine, one), so no strategy breaks a
    tie by seat number."""
    from sims.games.horno.kernel import play_many
    from sims.games.horno.records import SEAT_COLUMNS, seat_rows

    base = [RELABEL_FIELDS[field][p % len(RELABEL_FIELDS[field])] for p in range(n)]
    rows = {}
    for r in range(n):
        specs = [base[(s - r) % n] for s in range(n)]  # seat s plays in position s - r
        seats = play_many(CARDS, Rules(first_player=r), specs, 3, 0, 60, False)[0]
        at = [(p + r) % n for p in range(n)]  # the seat in each position
        rows[r] = seats[:, at]
        ref = play_game(n, seat_strategies(specs, n), 3, 1, rules=Rules(first_player=r))
        assert np.array_equal(np.asarray(seat_rows(ref))[at], rows[r][1])
    pos = SEAT_COLUMNS.index("position")
    assert (rows[0][:, :, pos] == np.arange(n)).all()
    for r in range(1, n):
        assert np.array_equal(rows[r], rows[0]), (field, n, r)


def test_relabelled_seats_play_the_same_games_on_every_shipped_card_set():
    """The card-set blocks of the default study (the heuristic on every shipped set):
    relabelled, the same games by turn position (30 games at 3 players each)."""
    from sims.games.horno.cards import card_set_names, shipped_cards
    from sims.games.horno.kernel import play_many

    for name in card_set_names():
        cards = shipped_cards(name)
        rows = [play_many(cards, Rules(first_player=r), ["heuristic"] * 3, 5, 0, 30, False)[0]
                [:, [(p + r) % 3 for p in range(3)]] for r in range(3)]  # fmt: skip
        assert np.array_equal(rows[1], rows[0]) and np.array_equal(rows[2], rows[0]), name
