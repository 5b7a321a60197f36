"""Horno's rules, table by table, with exact expected results (scripted deals and positions,
scripted actions): the rule options, setup (deal, opening redraw, first dish), Restock (the
hand limit, the visible top card, the reshuffle), the three actions (pantry steal, oven
steal, oven clean) under every ruling, Prepare (what may be placed, completion by all
ingredients or by the wild, a new dish, empty piles, the last round's closed oven),
sabotage, the scoring of completed and unfinished dishes (the rulebook's three examples),
the winner and tie rule, and the rounds."""

from __future__ import annotations

import numpy as np
import pytest
from horno_helpers import (
    CARDS,
    ScriptedChance,
    d,
    down,
    finish,
    k,
    ks,
    run,
    state_at,
    to_phase,
    up,
)

from sims.core.errors import SlicelabError
from sims.games.horno.engine import (
    PASS,
    Deal,
    GameState,
    OvenCard,
    Phase,
    Scored,
    deal,
    oven_clean,
    oven_steal,
    pantry_steal,
    sabotage,
)
from sims.games.horno.rules import Rules, check_players
from sims.games.horno.view import PlayerView

MARGARITA, FUNGHI, SUPREMA = d("Pizza Margarita"), d("Pizza Funghi"), d("Pizza Suprema")
KABUKI, WCBURGUER, MADEMOISELLE = d("Kabuki Yakitori"), d("WcBurguer"), d("Sopa Mademoiselle")
PIZZA, YAKITORI, HAMBURGUESA, SOPA, BURRITO = range(5)
WILD = CARDS.wild


# ------------------------------------------------------------------------ options
def test_defaults_are_the_rulings():
    assert Rules().as_dict() == {
        "first_player": 0, "reshuffle": "discard", "pantry_single": "take",
        "pantry_empty_handed": "keep-one", "steal_hand_limit": "after",
        "steal_face_down": False, "steal_needs_replacement": True, "steal_completes": "score",
        "repeat_types": False, "no_dish_left": "empty", "second_radioactive": True,
        "radioactive_bonus": "once", "tie": "shared", "rounds": 6, "hand_limit": 7,
        "oven_limit": 7,
    }  # fmt: skip


BAD_RULES = [
    ({"cheese": 1}, "unknown Horno rule option 'cheese'"),
    ({"reshuffle": "always"}, "reshuffle='always': use one of 'discard', 'never'"),
    ({"pantry_single": "ok"}, "pantry_single='ok'"),
    ({"pantry_empty_handed": "x"}, "pantry_empty_handed='x'"),
    ({"steal_hand_limit": "never"}, "steal_hand_limit='never'"),
    ({"steal_face_down": 1}, "steal_face_down must be true or false"),
    ({"steal_needs_replacement": "yes"}, "steal_needs_replacement must be true or false"),
    ({"steal_completes": "later"}, "steal_completes='later'"),
    ({"repeat_types": 0}, "repeat_types must be true or false"),
    ({"no_dish_left": "wait"}, "no_dish_left='wait'"),
    ({"second_radioactive": "no"}, "second_radioactive must be true or false"),
    ({"radioactive_bonus": "twice"}, "radioactive_bonus='twice'"),
    ({"tie": "split"}, "tie='split': use one of 'shared', 'dishes'"),
    ({"rounds": 0}, "rounds=0: has 0 rounds; at least 1"),
    ({"rounds": 31}, "rounds=31: has 31 rounds; at most 30"),
    ({"rounds": "6"}, "rounds must be an integer"),
    ({"first_player": 4}, "first_player=4: has 4 as the first player's seat; at most 3"),
    ({"first_player": -1}, "first_player=-1: has -1 as the first player's seat; at least 0"),
    ({"first_player": 1.0}, "first_player must be an integer"),
    ({"hand_limit": 2}, "hand_limit=2: has 2 cards a hand may hold (hand_limit); at least 3"),
    ({"hand_limit": 8}, "hand_limit=8: has 8 cards a hand may hold (hand_limit); at most 7"),
    ({"hand_limit": 7.0}, "hand_limit must be an integer"),
    (
        {"oven_limit": 1},
        "oven_limit=1: has 1 cards an oven may hold besides its dish (oven_limit); at least 2",
    ),
    (
        {"oven_limit": 8},
        "oven_limit=8: has 8 cards an oven may hold besides its dish (oven_limit); at most 7",
    ),
    ({"oven_limit": "7"}, "oven_limit must be an integer"),
]


@pytest.mark.parametrize("options, message", BAD_RULES)
def test_bad_rule_options_are_refused_naming_the_fix(options, message):
    with pytest.raises(SlicelabError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Rules.from_dict(options)


@pytest.mark.parametrize("n", [1, 5, True, "3", 2.0])
def test_player_counts_outside_2_to_4_are_refused(n):
    with pytest.raises(SlicelabError, match="Horno is played by 2 to 4 players"):
        check_players(n)


def test_first_player_must_be_a_seat():
    with pytest.raises(SlicelabError, match="first_player=3 is not a seat of 3 players"):
        state_at(Rules(first_player=3))


# ------------------------------------------------------------------------ setup
def _piles(**empty) -> list[list[int]]:
    return [[] if CARDS.types[t] in empty else list(CARDS.pile(t)) for t in range(5)]


def _setup(deck_names, n=2, rules=None, piles=None, chance=None) -> GameState:
    deck = ks(*deck_names) + (k("arroz"),) * 30
    the_deal = Deal(deck, tuple(map(tuple, piles or _piles())), chance or ScriptedChance())
    return GameState(CARDS, rules or Rules(), n, the_deal)


def test_deal_then_opening_redraw_face_down_then_first_dishes_in_turn_order():
    s = _setup(["masa", "tomate", "mosca", "queso", "pan", "rata", "carne"])
    assert s.hands == [list(ks("masa", "tomate", "mosca")), list(ks("queso", "pan", "rata"))]
    dec = s.decision()
    assert (dec.player, dec.phase) == (0, Phase.REDRAW)
    assert dec.legal == (PASS, *ks("masa", "tomate", "mosca"))
    assert PlayerView(s, 0).top == -1 and not s.face_up  # the deck is face down at setup
    run(s, k("mosca"))
    assert s.decision().legal == (PASS, *ks("masa", "tomate"))
    run(s, PASS)  # seat 0 draws one card, face down
    assert s.hands[0] == list(ks("masa", "tomate", "carne")) and s.discard == [k("mosca")]
    assert s.decision().player == 1 and s.decision().phase == Phase.REDRAW
    run(s, PASS)
    dec = s.decision()
    assert (dec.player, dec.phase, dec.legal) == (0, Phase.DISH, (0, 1, 2, 3, 4))
    run(s, PIZZA)
    assert s.dish[0] == MARGARITA  # the top card of the pile (file order here)
    run(s, PIZZA)
    assert s.dish[1] == FUNGHI and s.face_up and s.round == 1
    dec = s.decision()
    assert dec.player == 0 and dec.phase == Phase.DISCARD
    assert PlayerView(s, 0).top == k("arroz")
    assert s.tally[0].redrawn == 1 and s.tally[0].first_type == PIZZA


def test_first_player_is_dealt_first_and_plays_first():
    s = _setup(["masa", "tomate", "mosca", "queso", "pan", "rata"], rules=Rules(first_player=1))
    assert s.hands[1] == list(ks("masa", "tomate", "mosca")) and s.order == [1, 0]
    assert s.decision().player == 1


def test_an_empty_pile_cannot_be_chosen_and_no_type_leaves_the_oven_empty():
    piles = [[MARGARITA], [], [], [], []]
    s = _setup(["masa"] * 6, piles=piles)
    run(s, PASS, PASS)  # redraws; seat 0's dish is forced (one type), seat 1 has none
    assert s.dish == [MARGARITA, -1]
    assert s.decision().player == 0 and s.decision().phase == Phase.DISCARD
    assert s.sabotage_targets(0) == [] and s.placeable(1) == []


def test_deal_shuffles_the_deck_then_each_pile_from_the_stream():
    a = deal(CARDS, np.random.default_rng(5))
    b = deal(CARDS, np.random.default_rng(5))
    assert a.deck == b.deck and a.piles == b.piles
    assert sorted(a.deck) == sorted(CARDS.deck) and len(a.deck) == 87
    assert [sorted(p) for p in a.piles] == [sorted(CARDS.pile(t)) for t in range(5)]
    rng = np.random.default_rng(5)
    order = np.arange(87)
    rng.shuffle(order)
    assert a.deck == tuple(CARDS.deck[i] for i in order)


# ------------------------------------------------------------------------ restock
def test_restock_discards_face_down_then_draws_the_visible_top_card_up_to_three():
    s = state_at(hands=[ks("masa", "mosca"), (), ()], deck=ks("tomate", "queso", "pan", "carne"))
    assert s.decision().phase == Phase.DISCARD
    assert s.decision().legal == (PASS, *ks("masa", "mosca"))
    run(s, k("mosca"))
    assert s.decision().legal == (PASS, k("masa"))
    run(s, PASS)
    for name in ("tomate", "queso", "pan"):
        dec = s.decision()
        assert dec.phase == Phase.DRAW and dec.legal == (PASS, k(name))
        assert PlayerView(s, 1).top == k(name)  # every seat sees the top card
        run(s, k(name))
    assert s.decision().phase != Phase.DRAW  # three draws at most
    assert s.hands[0] == list(ks("masa", "tomate", "queso", "pan"))
    assert s.discard == [k("mosca")] and s.deck == [k("carne")]
    assert (s.tally[0].drawn, s.tally[0].discarded) == (3, 1)


@pytest.mark.parametrize("size, draws, limit", [(4, 3, 7), (5, 2, 7), (6, 1, 7), (7, 0, 7),
                                               (2, 3, 5), (3, 2, 5), (4, 1, 5), (5, 0, 5),
                                               (3, 0, 3)])  # fmt: skip
def test_draws_stop_at_the_hand_limit(size, draws, limit):
    s = state_at(Rules(hand_limit=limit), hands=[(k("mosca"),) * size, (), ()],
                 deck=(k("pan"),) * 10)  # fmt: skip
    run(s, PASS)  # keep the hand
    n = 0
    while s.decision().phase == Phase.DRAW:
        run(s, k("pan"))
        n += 1
    assert n == draws and len(s.hands[0]) == size + draws


def test_reshuffle_the_moment_the_deck_is_empty():
    chance = ScriptedChance(perms=[[2, 0, 1]])
    s = state_at(deck=ks("tomate"), discard=ks("masa", "queso", "pan"), chance=chance)
    run(s, k("tomate"))
    assert s.reshuffles == 1 and s.discard == []
    assert s.deck == list(ks("pan", "masa", "queso"))  # the discard pile, shuffled
    assert s.decision().legal == (PASS, k("pan"))
    assert chance.calls == [("shuffle", 3)]


def test_reshuffle_never_stops_the_draws():
    s = state_at(Rules(reshuffle="never"), deck=ks("tomate"), discard=ks("masa", "queso"))
    run(s, k("tomate"))
    # no more draws (the Action, with nothing to do, is forced: Prepare is next)
    assert s.decision().phase == Phase.PREPARE and s.deck == [] and s.reshuffles == 0


def test_reshuffle_waits_for_a_discard_pile():
    s = state_at(hands=[(), (k("mosca"),), ()], deck=ks("tomate"))
    run(s, k("tomate"))  # the deck is empty, and so is the discard pile
    assert s.deck == [] and s.reshuffles == 0
    to_phase(s, Phase.DISCARD, seat=1)
    run(s, k("mosca"))
    assert s.decision().legal == (PASS, k("mosca"))  # reshuffled before seat 1's draw
    assert s.reshuffles == 1


# ------------------------------------------------------------------------ pantry steal
VICTIM = ks("carne", "cebolla", "arroz")  # sorted by kind: cebolla, carne, arroz
PANTRY = [
    # id, rules, thief hand, victim hand, chance picks, decisions after the ACTION
    # (phase, legal, action), thief's and victim's hands after
    ("keep-one-give-one", {}, ks("mosca"), VICTIM, [2, 0],
     [(Phase.KEEP, (PASS, *ks("cebolla", "arroz")), k("arroz"))],  # GIVE forced: mosca
     ks("arroz"), ks("cebolla", "carne", "mosca")),
    ("give-both-back", {}, ks("mosca"), VICTIM, [2, 0],
     [(Phase.KEEP, (PASS, *ks("cebolla", "arroz")), PASS)],
     ks("mosca"), VICTIM),
    ("choose-what-to-give", {}, ks("mosca", "rata"), VICTIM, [0, 0],
     [(Phase.KEEP, (PASS, *ks("cebolla", "carne")), k("carne")),
      (Phase.GIVE, ks("mosca", "rata"), k("rata"))],
     ks("carne", "mosca"), ks("cebolla", "arroz", "rata")),
    ("two-alike", {}, ks("mosca"), ks("pan", "pan"), [1, 0],
     [(Phase.KEEP, (PASS, k("pan")), k("pan"))],
     ks("pan"), ks("pan", "mosca")),
    ("hand-of-one-take", {}, ks("mosca"), ks("carne"), [0],
     [(Phase.KEEP, (PASS, k("carne")), k("carne"))],
     ks("carne"), ks("mosca")),
    ("empty-handed-keep-one", {}, (), ks("carne", "cebolla"), [1, 0],
     [(Phase.KEEP, (PASS, *ks("cebolla", "carne")), k("carne"))],  # nothing to give
     ks("carne"), ks("cebolla")),
    ("empty-handed-return-both", {"pantry_empty_handed": "return-both"}, (),
     ks("carne", "cebolla"), [1, 0], [], (), ks("carne", "cebolla")),
    ("limit-after-thief-of-seven", {}, (k("mosca"),) * 7, VICTIM, [0, 0],
     [(Phase.KEEP, (PASS, *ks("cebolla", "carne")), k("cebolla"))],
     (k("cebolla"),) + (k("mosca"),) * 6, ks("carne", "arroz", "mosca")),
]  # fmt: skip


@pytest.mark.parametrize("case", PANTRY, ids=[c[0] for c in PANTRY])
def test_pantry_steal(case):
    _, rules, thief, victim, picks, steps, thief_after, victim_after = case
    chance = ScriptedChance(picks)
    s = state_at(Rules(**rules), hands=[thief, victim, ()], chance=chance)
    to_phase(s, Phase.ACTION)
    assert pantry_steal(1) in s.legal_actions()
    run(s, pantry_steal(1))
    for phase, legal, action in steps:
        dec = s.decision()
        assert (dec.phase, dec.legal) == (phase, legal)
        if phase == Phase.KEEP:  # the thief sees what it took; nobody else does
            view = PlayerView(s, 0)
            assert sorted(view.taken) == sorted(s.taken) and len(view.taken) == len(picks)
            assert PlayerView(s, 1).taken == () and PlayerView(s, 2).taken == ()
        run(s, action)
    assert s.decision().phase != Phase.KEEP and s.decision().phase != Phase.GIVE
    assert s.hands[0] == sorted(thief_after) and s.hands[1] == sorted(victim_after)
    assert [c[3] for c in chance.calls] == picks
    assert (s.tally[0].pantry_steals, s.tally[1].pantry_stolen) == (1, 1)


PANTRY_LEGAL = [
    # rules, thief's cards, victim's hand, whether the steal is legal
    ({}, 3, 0, False),  # nothing to take
    ({}, 3, 1, True),  # Ruling: a hand of one is taken
    ({"pantry_single": "forbidden"}, 3, 1, False),
    ({"pantry_single": "forbidden"}, 3, 2, True),
    ({}, 7, 3, True),  # Ruling: the limit is checked once the action is over
    ({"steal_hand_limit": "always"}, 7, 3, False),
    ({"steal_hand_limit": "always"}, 6, 3, False),  # 6 + 2 taken = 8
    ({"steal_hand_limit": "always"}, 5, 3, True),
    ({"steal_hand_limit": "always"}, 6, 1, True),  # 6 + 1 taken = 7
    ({"steal_hand_limit": "always", "hand_limit": 5}, 4, 3, False),  # 4 + 2 taken = 6
    ({"steal_hand_limit": "always", "hand_limit": 5}, 3, 3, True),
    ({"hand_limit": 3}, 5, 3, True),  # Ruling: checked once the action is over
    ({"pantry_empty_handed": "return-both"}, 0, 2, True),  # still a look at two cards
]


@pytest.mark.parametrize("rules, thief, victim, legal", PANTRY_LEGAL)
def test_when_a_pantry_steal_is_legal(rules, thief, victim, legal):
    s = state_at(Rules(**rules), hands=[(k("mosca"),) * thief, (k("pan"),) * victim, ()])
    to_phase(s, Phase.ACTION)
    assert (pantry_steal(1) in s.legal_actions()) is legal


# ------------------------------------------------------------------------ oven steal
KABUKI_OVEN = (up("carne", 1), up("cebolla", 1))  # seat 1 cooks Kabuki Yakitori
OVEN_LEGAL = [
    # id, rules, thief hand, victim's oven, the legal oven steals (victim 1: slots)
    ("ingredient-or-another-copy", {}, ks("arroz", "carne", "mosca"), KABUKI_OVEN, [0, 1]),
    ("no-replacement-no-steal", {}, ks("mosca", "pan"), KABUKI_OVEN, []),
    ("only-what-the-dish-lacks", {}, ks("cebolla"), KABUKI_OVEN, [1]),
    ("wild-when-none", {}, ks("wild"), KABUKI_OVEN, [0, 1]),
    ("no-second-wild", {}, ks("wild"), (up("wild", 1), up("carne", 1)), [0]),
    ("matching-radioactive-stays", {}, ks("arroz"), (up("wasabi", 1), up("carne", 1)), [1]),
    ("face-down-stays", {}, ks("arroz"), (up("carne", 1), down("mosca", 2)), [0]),
    ("face-down-blind", {"steal_face_down": True}, ks("arroz"),
     (up("carne", 1), down("mosca", 2), down("wasabi", 2)), [0, 1, 2]),
    ("without-replacement", {"steal_needs_replacement": False}, ks("mosca"), KABUKI_OVEN,
     [0, 1]),
]  # fmt: skip


@pytest.mark.parametrize("case", OVEN_LEGAL, ids=[c[0] for c in OVEN_LEGAL])
def test_which_oven_cards_may_be_stolen(case):
    _, rules, thief, oven, slots = case
    s = state_at(Rules(**rules), hands=[thief, (), ()], ovens=[(), oven, ()])
    to_phase(s, Phase.ACTION)
    legal = [a for a in s.legal_actions() if 200 <= a < 300]
    assert legal == [oven_steal(1, j) for j in slots]


OVEN_STEAL = [
    # id, rules, thief hand, victim oven, slot, REPLACE legal, replacement,
    # victim's oven after, thief's hand after
    ("another-copy", {}, ks("arroz", "carne", "mosca"), KABUKI_OVEN, 0,
     ks("carne", "arroz"), k("carne"),
     (OvenCard(k("carne"), True, 0), up("cebolla", 1)), ks("arroz", "carne", "mosca")),
    ("missing-ingredient", {}, ks("arroz", "carne", "mosca"), KABUKI_OVEN, 0,
     ks("carne", "arroz"), k("arroz"),
     (OvenCard(k("arroz"), True, 0), up("cebolla", 1)), ks("carne", "carne", "mosca")),
    ("wild-for-wild", {}, ks("wild"), (up("wild", 1), up("carne", 1)), 0, None, k("wild"),
     (OvenCard(WILD, True, 0), up("carne", 1)), ks("wild")),
    ("leaves-the-slot-empty", {"steal_needs_replacement": False}, ks("mosca"), KABUKI_OVEN, 1,
     None, None, (up("carne", 1),), ks("cebolla", "mosca")),
]  # fmt: skip


@pytest.mark.parametrize("case", OVEN_STEAL, ids=[c[0] for c in OVEN_STEAL])
def test_oven_steal_takes_a_card_and_puts_a_needed_one_in_its_place(case):
    _, rules, thief, oven, slot, legal, put, oven_after, hand_after = case
    s = state_at(Rules(**rules), hands=[thief, (), ()], ovens=[(), oven, ()])
    to_phase(s, Phase.ACTION)
    run(s, oven_steal(1, slot))
    if legal is not None:
        dec = s.decision()
        assert (dec.phase, dec.legal) == (Phase.REPLACE, legal)
        assert PlayerView(s, 0).taken == (oven[slot].kind,)
        run(s, put)
    assert tuple(s.ovens[1]) == oven_after and s.hands[0] == sorted(hand_after)
    assert (s.tally[0].oven_steals, s.tally[1].oven_stolen) == (1, 1)


def _blind_steal_state(rules: dict, round_: int = 1) -> GameState:
    oven = (up("carne", 1), up("cebolla", 1), down("mosca", 2))
    return state_at(Rules(steal_face_down=True, **rules), hands=[ks("arroz"), (), ()],
                    ovens=[(), oven, ()], round=round_)  # fmt: skip


def test_a_replacement_completing_the_victims_dish_scores_it_for_the_victim_at_once():
    s = to_phase(_blind_steal_state({}), Phase.ACTION)
    run(s, oven_steal(1, 2))  # the face-down mosca; arroz (forced) completes Kabuki
    assert [r.points for r in s.scored[1]] == [10]  # the mosca left with the thief
    assert s.scored[1][0].cards == ks("carne", "cebolla", "arroz")
    assert s.hands[0] == [k("mosca")] and s.ovens[1] == [] and s.discard == list(
        ks("carne", "cebolla", "arroz"))  # fmt: skip
    dec = s.decision()  # the victim picks a new dish now, of a type it has not completed
    assert (dec.player, dec.phase, dec.legal) == (1, Phase.DISH, (PIZZA, HAMBURGUESA, SOPA,
                                                                  BURRITO))  # fmt: skip
    run(s, PIZZA)
    assert s.dish[1] == FUNGHI and s.decision().player == 0


def test_completed_by_a_steal_in_the_last_round_the_victims_oven_closes():
    s = to_phase(_blind_steal_state({}, round_=6), Phase.ACTION)
    run(s, oven_steal(1, 2))
    assert s.closed[1] and s.dish[1] == -1 and s.decision().player == 0
    assert s.sabotage_targets(0) == [2]


def test_a_replacement_may_not_complete_under_steal_completes_forbidden():
    s = to_phase(_blind_steal_state({"steal_completes": "forbidden"}), Phase.ACTION)
    assert oven_steal(1, 2) not in s.legal_actions()


def test_under_the_default_rulings_a_replacement_never_completes_a_dish():
    """Every face-up card an oven steal may take counts toward its dish, so taking one and
    putting another never completes it: the ruling matters with steal_face_down."""
    steals = 0
    for seed in range(40):
        s = GameState(CARDS, Rules(), 4, deal(CARDS, np.random.default_rng(seed)))
        rng = np.random.default_rng(seed)
        while not s.terminal:
            legal = s.legal_actions()
            a = legal[int(rng.integers(len(legal)))]
            if s.decision().phase == Phase.ACTION and 200 <= a < 300:
                before = len(s.scored[(a - 200) // 10])
                s.apply(a)
                while s.decision() is not None and s.decision().phase == Phase.REPLACE:
                    s.apply(s.legal_actions()[0])
                assert len(s.scored[(a - 200) // 10]) == before
                steals += 1
            else:
                s.apply(a)
    assert steals > 50


@pytest.mark.parametrize(
    "rules, hand, legal",
    [
        ({}, 7, True),
        ({"steal_hand_limit": "always"}, 7, False),
        ({"steal_hand_limit": "always"}, 6, True),
        ({"steal_hand_limit": "always", "hand_limit": 4}, 4, False),
        ({"steal_hand_limit": "always", "hand_limit": 4}, 3, True),
    ],
)
def test_oven_steal_and_the_hand_limit(rules, hand, legal):
    s = state_at(Rules(**rules), hands=[(k("arroz"),) * hand, (), ()],
                 ovens=[(), KABUKI_OVEN, ()])  # fmt: skip
    to_phase(s, Phase.ACTION)
    assert (oven_steal(1, 0) in s.legal_actions()) is legal


# ------------------------------------------------------------------------ oven clean
FULL = (up("masa"), up("tomate"), down("mosca"), down("mosca"), down("cabello"), down("rata"),
        down("cucaracha"))  # fmt: skip


def test_clean_takes_one_card_of_ones_own_oven_even_face_down():
    s = state_at(ovens=[(up("masa"), down("mosca", 2)), (), ()])
    to_phase(s, Phase.ACTION)
    assert [a for a in s.legal_actions() if a >= 300] == [oven_clean(0), oven_clean(1)]
    run(s, oven_clean(1))
    assert s.hands[0] == [k("mosca")] and s.ovens[0] == [up("masa")]
    assert s.decision().phase != Phase.CLEAN_MORE
    assert (s.tally[0].cleans, s.tally[0].cleaned) == (1, 1)


def test_a_full_oven_may_give_back_two_cards():
    s = state_at(ovens=[FULL, (), ()])
    to_phase(s, Phase.ACTION)
    run(s, oven_clean(2))
    dec = s.decision()
    assert dec.phase == Phase.CLEAN_MORE and dec.legal == (PASS, *(oven_clean(j)
                                                                   for j in range(6)))  # fmt: skip
    run(s, oven_clean(4))  # the rata (slots closed up: the cucaracha is now slot 5)
    assert s.hands[0] == sorted(ks("mosca", "rata")) and len(s.ovens[0]) == 5
    assert (s.tally[0].cleans, s.tally[0].cleaned) == (1, 2)


@pytest.mark.parametrize("hand, oven, clean, more, limit", [
    (7, FULL, False, False, 7),  # the hand would exceed 7
    (6, FULL, True, False, 7),  # one card only
    (5, FULL, True, True, 7),
    (0, FULL[:6], True, False, 7),  # not full: one card
    (0, (), False, False, 7),
    (4, FULL, False, False, 4),  # rule hand_limit: the same with its limit
    (3, FULL, True, False, 4),
    (2, FULL, True, True, 4),
])  # fmt: skip
def test_clean_and_the_hand_limit(hand, oven, clean, more, limit):
    s = state_at(Rules(hand_limit=limit), hands=[(k("pan"),) * hand, ks("mosca"), ()],
                 ovens=[oven, (), ()], deck=())  # fmt: skip
    to_phase(s, Phase.ACTION)
    assert (oven_clean(0) in s.legal_actions()) is clean
    if clean:
        run(s, oven_clean(0))
        assert (s.decision().phase == Phase.CLEAN_MORE) is more


@pytest.mark.parametrize("oven, limit, clean, more", [
    (FULL[:5], 5, True, True),  # rule oven_limit: an oven at its limit is full
    (FULL[:4], 5, True, False),
    (FULL[:6], 6, True, True),
    (FULL[:6], 7, True, False),
])  # fmt: skip
def test_clean_and_the_oven_limit(oven, limit, clean, more):
    s = state_at(Rules(oven_limit=limit), hands=[(), ks("mosca"), ()], ovens=[oven, (), ()],
                 deck=())  # fmt: skip
    to_phase(s, Phase.ACTION)
    assert (oven_clean(0) in s.legal_actions()) is clean
    run(s, oven_clean(0))
    assert (s.decision().phase == Phase.CLEAN_MORE) is more


def test_an_oven_limit_below_the_largest_dish_is_refused():
    with pytest.raises(SlicelabError, match="oven_limit=4 is below the 5 ingredients of dish"):
        state_at(Rules(oven_limit=4))
    state_at(Rules(oven_limit=5))  # the default set's largest dishes have 5


# ------------------------------------------------------------------------ prepare
HAND = ks("masa", "tomate", "queso", "wild", "anchoas", "wasabi", "mosca")
PLACEABLE = [
    # id, rules, oven of seat 0 (Pizza Margarita), the kinds it may place from HAND
    ("lacking-ingredients-wild-radioactive", {}, (up("masa"),),
     ks("tomate", "queso", "wild", "anchoas")),
    ("one-wild-per-dish", {}, (up("wild"),), ks("masa", "tomate", "queso", "anchoas")),
    ("a-second-radioactive", {}, (up("anchoas"),),
     ks("masa", "tomate", "queso", "wild", "anchoas")),  # the rules allow it
    ("one-radioactive-old-ruling", {"second_radioactive": False}, (up("anchoas"),),
     ks("masa", "tomate", "queso", "wild")),
    ("old-ruling-a-face-down-one-is-not-seen", {"second_radioactive": False},
     (down("anchoas"),), ks("masa", "tomate", "queso", "wild", "anchoas")),
    ("another-types-radioactive-never", {}, (up("masa"), down("wasabi")),
     ks("tomate", "queso", "wild", "anchoas")),
    ("no-space", {}, FULL, ()),
    ("no-space-at-the-oven-limit", {"oven_limit": 5}, FULL[:5], ()),
    ("space-below-the-oven-limit", {"oven_limit": 6}, FULL[:5],
     ks("queso", "wild", "anchoas")),
]  # fmt: skip


@pytest.mark.parametrize("case", PLACEABLE, ids=[c[0] for c in PLACEABLE])
def test_what_may_be_placed(case):
    _, rules, oven, kinds = case
    s = state_at(Rules(**rules), hands=[HAND, (), ()], ovens=[oven, (), ()])
    assert s.placeable(0) == list(kinds)


SECOND_RADIOACTIVE = [
    # id, rules, seat 0's Margarita oven, its hand, the cards it places in order (the last
    # completes the dish; None: refused), (base, bonus) of the dish completed
    ("allowed-counts-once", {}, (up("masa"), up("anchoas")), ks("anchoas", "tomate", "queso"),
     ks("anchoas", "tomate", "queso"), (10, 5)),
    ("allowed-each-counts", {"radioactive_bonus": "each"}, (up("masa"), up("anchoas")),
     ks("anchoas", "tomate", "queso"), ks("anchoas", "tomate", "queso"), (10, 10)),
    ("old-ruling-refused", {"second_radioactive": False}, (up("masa"), up("anchoas")),
     ks("anchoas", "tomate", "queso"), None, (10, 5)),
    ("old-ruling-each-refused", {"second_radioactive": False, "radioactive_bonus": "each"},
     (up("masa"), up("anchoas")), ks("anchoas", "tomate", "queso"), None, (10, 5)),
]  # fmt: skip


@pytest.mark.parametrize("case", SECOND_RADIOACTIVE, ids=[c[0] for c in SECOND_RADIOACTIVE])
def test_a_second_matching_radioactive_card(case):
    _, rules, oven, hand, placed, (base, bonus) = case
    s = state_at(Rules(**rules), hands=[hand, (), ()], ovens=[oven, (), ()], deck=())
    to_phase(s, Phase.PREPARE)
    assert (k("anchoas") in s.decision().legal) is (placed is not None)
    run(s, *(placed or ks("tomate", "queso")))
    r = s.scored[0][0]
    assert (r.base, r.garbage, r.penalty, r.bonus, r.points) == (base, 0, 0, bonus, base + bonus)
    assert s.hands[0] == ([] if placed else [k("anchoas")])
    assert r.cards.count(k("anchoas")) == (2 if placed else 1)


def test_prepare_places_up_to_three_cards():
    s = state_at(hands=[ks("masa", "tomate", "queso", "carne"), (), ()], dish=[SUPREMA, KABUKI,
                 MADEMOISELLE], deck=())  # fmt: skip
    to_phase(s, Phase.PREPARE)
    run(s, k("masa"), k("tomate"), k("queso"))
    assert s.decision().player == 1  # no fourth card, no sabotage card: the turn is over
    assert [c.kind for c in s.ovens[0]] == list(ks("masa", "tomate", "queso"))
    assert s.hands[0] == [k("carne")] and s.tally[0].placed == 3


def test_prepare_stops_when_the_oven_is_full():
    s = state_at(hands=[ks("queso", "anchoas"), (), ()], ovens=[FULL[:6], (), ()], deck=())
    to_phase(s, Phase.PREPARE)
    run(s, k("anchoas"))
    assert s.decision().player == 1 and len(s.ovens[0]) == 7


COMPLETE = [
    # id, dish, oven, hand, placed in order, points, hand left
    ("all-ingredients", MARGARITA, (up("masa"), up("tomate")), ks("queso", "mosca"),
     ks("queso"), 10, ks("mosca")),
    ("wild-and-k-minus-1", MARGARITA, (up("masa"), up("wild")), ks("tomate", "queso"),
     ks("tomate"), 10, ks("queso")),  # the step ends at once: queso stays in hand
    ("wild-placed-last", MARGARITA, (up("masa"),), ks("tomate", "wild", "queso"),
     ks("tomate", "wild"), 10, ks("queso")),
    ("five-with-a-wild", SUPREMA, (up("masa"), up("tomate")), ks("queso", "wild", "carne"),
     ks("queso", "wild", "carne"), 18, ()),
]  # fmt: skip


@pytest.mark.parametrize("case", COMPLETE, ids=[c[0] for c in COMPLETE])
def test_a_dish_is_complete_the_moment_its_oven_holds_it(case):
    _, dish, oven, hand, placed, points, left = case
    s = state_at(hands=[hand, (), ()], ovens=[oven, (), ()], dish=[dish, KABUKI, MADEMOISELLE],
                 deck=())  # fmt: skip
    to_phase(s, Phase.PREPARE)
    for card in placed:
        assert s.scored[0] == [] and s.decision().phase == Phase.PREPARE
        run(s, card)
    assert [r.points for r in s.scored[0]] == [points]
    assert s.ovens[0] == [] and s.dish[0] == -1 and s.hands[0] == sorted(left)
    assert s.discard == [c.kind for c in oven] + list(placed)
    dec = s.decision()  # a new dish at once, of another type
    assert (dec.player, dec.phase, dec.legal) == (0, Phase.DISH, (YAKITORI, HAMBURGUESA, SOPA,
                                                                  BURRITO))  # fmt: skip
    run(s, HAMBURGUESA)
    assert s.dish[0] == d("Hamburguesa Sencilla")
    assert s.decision().phase != Phase.PREPARE  # worked on from the next turn


def _completing(rules: Rules, piles=None, scored=None, round_=1) -> GameState:
    s = state_at(rules, hands=[ks("queso"), (), ()], ovens=[(up("masa"), up("tomate")), (), ()],
                 piles=piles, scored=scored, round=round_, deck=())  # fmt: skip
    to_phase(s, Phase.PREPARE)
    return run(s, k("queso"))


def _done(dish: int, points: int = 10) -> Scored:
    return Scored(0, dish, 1, points, 0, 0, 0, ())


NEW_DISH = [
    # id, rules, piles (None: the default), scored before, DISH legal (None: not asked),
    # the dish taken (after choosing the first legal type)
    ("types-not-completed", {}, None, [[_done(d("Sopa de Pollo"))], [], []],
     (YAKITORI, HAMBURGUESA, BURRITO), d("Yakitori de Pollo")),
    ("repeat-types", {"repeat_types": True}, None, [[_done(d("Sopa de Pollo"))], [], []],
     (PIZZA, YAKITORI, HAMBURGUESA, SOPA, BURRITO), FUNGHI),
    ("empty-piles-not-offered", {}, [[FUNGHI], [], [], [], [d("Burrito Clásico")]], None,
     None, d("Burrito Clásico")),  # forced: one type
    ("no-type-left-oven-empty", {}, [[FUNGHI], [], [], [], []], None, None, -1),
    ("no-type-left-repeat", {"no_dish_left": "repeat"}, [[FUNGHI], [], [], [], []], None,
     None, FUNGHI),  # forced: Pizza again
]  # fmt: skip


@pytest.mark.parametrize("case", NEW_DISH, ids=[c[0] for c in NEW_DISH])
def test_the_new_dish(case):
    _, rules, piles, scored, legal, taken = case
    s = _completing(Rules(**rules), piles=piles, scored=scored)
    if legal is not None:
        dec = s.decision()
        assert (dec.player, dec.phase, dec.legal) == (0, Phase.DISH, legal)
        run(s, legal[0])
    else:
        assert s.decision().phase != Phase.DISH
    assert s.dish[0] == taken
    if taken == -1:
        assert not s.closed[0] and s.placeable(0) == [] and 0 not in s.sabotage_targets(1)
        finish(s)
        assert s.unfinished[0] is None and s.score_breakdown()[0]["score"] == 10


def test_a_dish_completed_in_the_last_round_closes_the_oven():
    s = _completing(Rules(), round_=6)
    assert s.closed[0] and s.dish[0] == -1 and s.decision().player == 1
    assert 0 not in s.sabotage_targets(1)
    finish(s)
    assert s.unfinished[0] is None and s.score_breakdown()[0]["score"] == 10
    assert s.log[-1].what == "unfinished"  # the others' unfinished dishes only
    assert {e.seat for e in s.log if e.what == "unfinished"} == {1, 2}


def test_rounds_option_sets_the_last_round():
    s = _completing(Rules(rounds=2), round_=2)
    assert s.closed[0]


# ------------------------------------------------------------------------ sabotage
def test_sabotage_puts_garbage_or_radioactive_face_down_into_an_open_oven():
    s = state_at(hands=[ks("mosca", "anchoas", "masa"), (), (), ()], n=4,
                 ovens=[(), (), FULL, ()], closed=[False, False, False, True],
                 dish=[MARGARITA, KABUKI, MADEMOISELLE, -1], deck=())  # fmt: skip
    to_phase(s, Phase.SABOTAGE)
    # seat 2's oven is full, seat 3's closed: only seat 1; the masa is no sabotage card
    assert s.decision().legal == (PASS, sabotage(1, k("mosca")), sabotage(1, k("anchoas")))
    run(s, sabotage(1, k("anchoas")))
    assert s.ovens[1] == [OvenCard(k("anchoas"), False, 0)]
    assert s.hands[0] == list(ks("masa", "mosca"))
    assert (s.tally[0].sabotages, s.tally[1].sabotaged) == (1, 1)
    assert PlayerView(s, 0).ovens[1].cards[0].kind == k("anchoas")  # its own card: seen
    assert PlayerView(s, 1).ovens[1].cards[0].kind == -2  # hidden from the oven's owner
    assert s.decision().player == 1


@pytest.mark.parametrize("limit, targets", [(7, [1, 2]), (6, [1, 2]), (5, [2])])
def test_sabotage_needs_room_below_the_oven_limit(limit, targets):
    s = state_at(Rules(oven_limit=limit), hands=[ks("mosca"), (), ()],
                 ovens=[(), FULL[:5], FULL[:4]], deck=())  # fmt: skip
    assert s.sabotage_targets(0) == targets


# ------------------------------------------------------------------------ scoring
def test_rulebook_example_1_wcburguer_with_a_mosca_and_a_caracol_scores_8():
    s = state_at(hands=[ks("lechuga"), (), ()], dish=[WCBURGUER, KABUKI, MADEMOISELLE],
                 ovens=[(up("pan"), up("carne"), up("queso"), down("mosca", 1),
                         down("caracol", 2)), (), ()], deck=())  # fmt: skip
    to_phase(s, Phase.PREPARE)
    run(s, k("lechuga"))
    r = s.scored[0][0]
    assert (r.base, r.garbage, r.penalty, r.bonus, r.points) == (14, -1, -5, 0, 8)


def test_rulebook_example_2_sopa_mademoiselle_with_the_caracol_scores_15():
    s = state_at(hands=[(), (), ks("champiñón")], turn=2,
                 ovens=[(), (), (up("tomate", 2), up("cebolla", 2), up("caracol", 2))],
                 deck=())  # fmt: skip
    to_phase(s, Phase.PREPARE)
    run(s, k("champiñón"))
    r = s.scored[2][0]
    assert (r.base, r.garbage, r.penalty, r.bonus, r.points) == (10, 0, 0, 5, 15)


def test_rulebook_example_3_an_unfinished_kabuki_yakitori_scores_3():
    oven = (up("carne", 1), up("wild", 1), up("wasabi", 1), down("cucaracha", 0),
            down("cabello", 2), down("caracol", 0))  # fmt: skip
    s = finish(state_at(round=6, turn=2, ovens=[(), oven, ()], deck=()))
    u = s.unfinished[1]
    assert (u.correct, u.bad, u.points) == (3, 3, 3)
    assert s.score_breakdown()[1] == {"score": 3, "dish_base": 0, "garbage_penalty": 0,
                                      "radioactive_bonus": 0, "radioactive_penalty": 0,
                                      "unfinished_points": 3}  # fmt: skip


SCORES = [
    # id, rules, seat 0's Margarita oven before the queso, (base, garbage, penalty, bonus)
    ("below-zero", {}, (up("masa"), up("tomate"), down("rata"), down("rata"),
                        down("cucaracha")), (10, -11, 0, 0)),
    ("bonus-once", {}, (up("masa"), up("tomate"), up("anchoas"), down("anchoas")),
     (10, 0, 0, 5)),
    ("bonus-each", {"radioactive_bonus": "each"},
     (up("masa"), up("tomate"), up("anchoas"), down("anchoas")), (10, 0, 0, 10)),
    ("bonus-whoever-put-it", {}, (up("masa"), up("tomate"), down("anchoas", 2)), (10, 0, 0, 5)),
    ("other-types-radioactive", {}, (up("masa"), up("tomate"), down("wasabi"),
                                     down("caracol")), (10, 0, -8, 0)),
]  # fmt: skip


@pytest.mark.parametrize("case", SCORES, ids=[c[0] for c in SCORES])
def test_completed_dish_scoring(case):
    _, rules, oven, (base, garbage, penalty, bonus) = case
    s = state_at(Rules(**rules), hands=[ks("queso"), (), ()], ovens=[oven, (), ()], deck=())
    to_phase(s, Phase.PREPARE)
    run(s, k("queso"))
    r = s.scored[0][0]
    assert (r.base, r.garbage, r.penalty, r.bonus) == (base, garbage, penalty, bonus)
    row = finish(s).score_breakdown()[0]
    assert row["score"] == base + garbage + penalty + bonus + row["unfinished_points"]


UNFINISHED = [
    # rules, seat 1's Kabuki oven at the end, (correct, bad, points)
    ({}, (), (0, 0, 0)),
    ({}, (down("rata"), down("mosca")), (0, 2, -2)),  # -1 each whatever the penalty
    ({}, (up("wasabi", 1), down("wasabi")), (1, 0, 2)),  # the matching card counts once
    ({"radioactive_bonus": "each"}, (up("wasabi", 1), down("wasabi")), (2, 0, 4)),
    ({}, (up("carne", 1), up("cebolla", 1)), (2, 0, 4)),
]


@pytest.mark.parametrize("rules, oven, expected", UNFINISHED)
def test_unfinished_dish_scoring(rules, oven, expected):
    s = finish(state_at(Rules(**rules), round=6, turn=2, ovens=[(), oven, ()], deck=()))
    u = s.unfinished[1]
    assert (u.correct, u.bad, u.points) == expected


# ------------------------------------------------------------------------ the end
WINNERS = [
    # rules, points completed by seat (one dish each: the list), won, tiebreak
    ({}, [[10], [5, 5], [3]], [1, 1, 0], [0, 0, 0]),
    ({"tie": "dishes"}, [[10], [5, 5], [3]], [0, 1, 0], [1, 2, 1]),
    ({"tie": "dishes"}, [[5, 5], [5, 5], [3]], [1, 1, 0], [2, 2, 1]),
    ({}, [[10], [14], [3]], [0, 1, 0], [0, 0, 0]),
]


@pytest.mark.parametrize("rules, points, won, tiebreak", WINNERS)
def test_the_highest_total_wins_ties_by_the_tie_rule(rules, points, won, tiebreak):
    scored = [[Scored(s, 0, 1, p, 0, 0, 0, ()) for p in pts] for s, pts in enumerate(points)]
    s = finish(state_at(Rules(**rules), round=6, turn=2, scored=scored,
                        dish=[-1, -1, -1], deck=()))  # fmt: skip
    assert s.won() == won and s.tiebreak() == tiebreak
    assert sum(s.win_shares()) == pytest.approx(1.0)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("rounds", [1, 6])
def test_a_game_lasts_its_rounds_every_seat_a_turn_each(n, rounds):
    s = GameState(CARDS, Rules(rounds=rounds), n, deal(CARDS, np.random.default_rng(n)))
    finish(s)
    turns = [e.seat for e in s.log if e.what == "turn"]
    assert turns == list(range(n)) * rounds
    assert s.over and s.current_player == -1 and s.round == rounds


def test_setup_is_round_0_and_resumed_positions_start_where_asked():
    s = state_at(round=3, turn=1)
    assert s.round == 3 and s.decision().player == 1
    finish(s)
    turns = [(e.seat) for e in s.log if e.what == "turn"]
    assert turns == [1, 2] + [0, 1, 2] * 3
    with pytest.raises(SlicelabError, match="round must be 1 to 6"):
        state_at(round=7)


# ------------------------------------------------------------------------ actions
def test_the_action_encoding():
    from sims.games.horno.engine import decode

    assert (pantry_steal(2), oven_steal(3, 6), oven_clean(4), sabotage(1, 21)) == (
        102, 236, 304, 1121)  # fmt: skip
    assert decode(PASS) == ("pass", -1, -1)
    assert decode(102) == ("pantry", 2, -1)
    assert decode(236) == ("oven", 3, 6)
    assert decode(304) == ("clean", -1, 4)
    assert decode(1121) == ("sabotage", 1, 21)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_only_real_choices_are_asked(n):
    """Every decision offers two or more actions, PASS first where it is one; forced
    moves never reach a strategy."""
    rng = np.random.default_rng(n)
    phases = set()
    for seed in range(5):
        s = GameState(CARDS, Rules(), n, deal(CARDS, np.random.default_rng(seed)))
        while not s.terminal:
            dec = s.decision()
            assert len(dec.legal) >= 2 and list(dec.legal) == sorted(dec.legal)
            phases.add(dec.phase)
            s.apply(dec.legal[int(rng.integers(len(dec.legal)))])
    assert phases >= {Phase.REDRAW, Phase.DISH, Phase.DISCARD, Phase.DRAW, Phase.ACTION,
                      Phase.KEEP, Phase.PREPARE, Phase.SABOTAGE}  # fmt: skip
