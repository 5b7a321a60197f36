"""Own points of the specials (``ownpoints.py``): a finished game re-scored without one
special's scoring effect, every holding fixed.

The definition per special, on hand-built holdings through ``scoring.py`` (exact results);
the compiled path (``own_points``: the kernel re-scores at each game's end) against the
pure-Python twin (``own_points_reference``) on a few hundred games at 2 to 6 players; and
the ``score`` column against the dataset's for the same arm.
"""

import numpy as np
import pytest
from nyslice_helpers import ANCHOVY, COMBO_4_6, COMBO_5_9, DECK, SUPREME
from nyslice_helpers import holdings as H

from sims.core.errors import SlicelabError
from sims.core.study import Arm
from sims.games.nyslice.deck import Special
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.ownpoints import (
    NO_SCORING_EFFECT,
    OWN_COLUMNS,
    own_points,
    own_points_of,
    own_points_reference,
    without,
)
from sims.games.nyslice.plugin import GAME, SPECIAL_SLUGS
from sims.games.nyslice.rules import Rules
from sims.games.nyslice.scoring import score

S = Special
# Cheese (11) 52-62: pepperoni 1,2,3,1,2,3,1,2,3,1,2; 55 and 59 carry an anchovy.
# id, special, holdings per seat (the special's holder first), Seconds' (eaten, Supreme's
# type), rules, expected (score, score_without, win_share, win_share_without, others_delta)
CASES = [
    ("stuffed crust +5", S.STUFFED_CRUST, [H([52], specials=[S.STUFFED_CRUST]),
     H([18], [53, 54, 56])], None, None, (16, 11, 1.0, 0.0, 0.0)),
    ("day-old pizza -2", S.DAY_OLD_PIZZA, [H([52], specials=[S.DAY_OLD_PIZZA]),
     H(eaten=[54, 57, 60])], None, None, (9, 11, 0.0, 1.0, 0.0)),
    ("buffet: two types and the Anchovy slice", S.BUFFET, [H([0, 3, ANCHOVY],
     specials=[S.BUFFET]), H(eaten=[52, 53, 54])], None, None, (7, 4, 1.0, 0.0, 0.0)),
    ("combo cravings: the eaten combos stay eaten", S.COMBO_CRAVINGS, [H(eaten=[COMBO_4_6,
     COMBO_5_9], specials=[S.COMBO_CRAVINGS]), H(eaten=[52, 53])], None, None,
     (6, 0, 1.0, 0.0, 0.0)),
    ("you love veggies: the Veggies stay eaten", S.YOU_LOVE_VEGGIES, [H(eaten=[0, 1],
     specials=[S.YOU_LOVE_VEGGIES]), H(eaten=[52, 53])], None, None, (6, 0, 1.0, 0.0, 0.0)),
    # B: 11 - 2 (4 eaten), ties A without the Diet and wins on eaten slices; C: 2 - 1.
    ("everyone else's diet: the others' losses", S.EVERYONE_ELSES_DIET, [H([52],
     specials=[S.EVERYONE_ELSES_DIET]), H(eaten=[53, 54, 57, 60]), H(eaten=[58, 61])], None,
     None, (11, 11, 1.0, 0.0, 1.5)),
    ("tie-breaker: the tie it won is unscored", S.TIE_BREAKER, [H([52],
     specials=[S.TIE_BREAKER]), H([53], [54])], None, None, (11, 0, 1.0, 0.0, 0.0)),
    # The spec's example: B's 5/9 combo counts 2 (or 1½) Buffalo and Sausage; without it ½.
    ("super-sized combos: the spec's example", S.SUPER_SIZED_COMBOS, [H([36, 37, COMBO_5_9],
     specials=[S.SUPER_SIZED_COMBOS]), H([33, 34, 35]), H()], None, None,
     (13, 4, 1.0, 0.0, 4.5)),
    ("super-sized combos at 3 halves", S.SUPER_SIZED_COMBOS, [H([36, 37, COMBO_5_9],
     specials=[S.SUPER_SIZED_COMBOS]), H([33, 34, 35]), H()], None,
     Rules(super_sized_combo_halves=3), (13, 4, 1.0, 0.0, 4.5)),
    ("super-sized combos at 2 halves", S.SUPER_SIZED_COMBOS, [H([36, 37, COMBO_5_9],
     specials=[S.SUPER_SIZED_COMBOS]), H([33, 34, 35]), H()], None,
     Rules(super_sized_combo_halves=2), (4, 4, 1.0, 0.0, 4.5)),
    ("you like anchovies!: -1 each again", S.YOU_LIKE_ANCHOVIES, [H([ANCHOVY, 55],
     specials=[S.YOU_LIKE_ANCHOVIES]), H(eaten=[52, 53, 54, 56, 57])], None, None,
     (15, 7, 1.0, 0.0, 0.0)),
    # Seconds ate 53 and 54: without it A holds 3 Cheese to B's 2 and has no pepperoni.
    ("seconds: the slices it ate are collected again", S.SECONDS, [H([52], [53, 54],
     specials=[S.SECONDS]), H([56, 57])], ((53, 54), 0), None, (5, 11, 0.0, 1.0, -11.0)),
    ("seconds ate the Supreme: back on its type", S.SECONDS, [H([52], [53, SUPREME],
     specials=[S.SECONDS]), H([56, 57])], ((53, SUPREME), 11), None,
     (4, 11, 0.0, 1.0, -11.0)),
    ("seconds not used", S.SECONDS, [H([52], [53], specials=[S.SECONDS]), H([56, 57])], None,
     None, (2, 2, 0.0, 0.0, 0.0)),
    ("compensation stays in both totals", S.STUFFED_CRUST, [H([52],
     specials=[S.STUFFED_CRUST]), H([18], [53, 54, 56])], None, Rules(compensation=[0, 3]),
     (16, 11, 0.0, 0.0, 0.0)),
    *[
        (f"{sp.slug}: no scoring effect", sp, [H([52], specials=[sp]), H(eaten=[53])], None,
         None, (11, 11, 1.0, 1.0, 0.0))
        for sp in sorted(NO_SCORING_EFFECT)
    ],
]  # fmt: skip


@pytest.mark.parametrize(
    "special,hs,seconds,rules,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_own_points_per_special(special, hs, seconds, rules, expected):
    eaten, sup = seconds or ((), 0)
    row = own_points_of(DECK, hs, special, rules, seconds_eaten=eaten, seconds_supreme=sup)
    got = tuple(row[c] for c in OWN_COLUMNS[3:])
    assert row["holder"] == 0
    assert got == expected
    # The re-scored holdings: only the holder's change, and it no longer owns the special.
    changed = without(DECK, hs, special, eaten, sup)
    assert changed[1:] == hs[1:] and special not in changed[0].specials
    assert sorted(changed[0].collected + changed[0].eaten) == sorted(hs[0].collected + hs[0].eaten)
    if special in NO_SCORING_EFFECT or special == S.STUFFED_CRUST:
        assert [b.total for b in score(DECK, changed, rules)][1:] == [
            b.total for b in score(DECK, hs, rules)
        ][1:]


def test_without_refuses_a_special_nobody_holds_and_foreign_seconds_slices():
    with pytest.raises(ValueError, match="no seat holds"):
        without(DECK, [H([52]), H()], S.BUFFET)
    with pytest.raises(ValueError, match="Seconds ate"):
        without(DECK, [H([52], [53], [S.SECONDS]), H()], S.SECONDS, seconds_eaten=(54,))


# ---------------------------------------------------------------- compiled vs reference
AGREEMENT = [
    # players, strategies, rules, games
    (2, ["random"], Rules(), 80),
    (3, ["random"], Rules(), 80),
    (4, ["random"], Rules(), 60),
    (5, ["random"], Rules(), 50),
    (6, ["random"], Rules(), 50),
    (2, ["greedy"], Rules(), 10),
    (3, ["greedy", "random", "heuristic"], Rules(), 6),
    (4, ["greedy"], Rules(super_sized_combo_halves=3, compensation=(0, 2)), 8),
    (5, ["heuristic", "greedy", "random", "greedy", "random"], Rules(first_slicer=2), 4),
    (6, ["greedy", "random"] * 3, Rules(super_sized_combo_halves=1, compensation=[1, 2]), 6),
    (3, ["random"], Rules(super_sized_combo_halves=8, seconds_supreme_alone=True), 40),
]


@pytest.mark.parametrize(
    "n,specs,rules,games", AGREEMENT, ids=[f"{a[0]}p-{'-'.join(a[1])}-{i}" for i, a in
                                           enumerate(AGREEMENT)],
)  # fmt: skip
def test_compiled_own_points_equal_the_reference_twin(n, specs, rules, games):
    fast = own_points(n, specs, 51, games, rules=rules)
    slow = own_points_reference(n, specs, 51, games, rules=rules)
    assert fast.column_names == list(OWN_COLUMNS)
    assert fast.schema == slow.schema
    for c in OWN_COLUMNS:
        assert fast[c].to_pylist() == slow[c].to_pylist(), c


SECONDS_ATE_THE_SUPREME = [(2, 44), (3, 193), (4, 23)]
"""(players, game index) of random games, seed 51, in which Seconds ate the Supreme."""


@pytest.mark.parametrize("n,index", SECONDS_ATE_THE_SUPREME)
def test_seconds_that_ate_the_supreme_agrees(n, index):
    state = play_game(n, seat_strategies("random", n), 51, index)
    assert SUPREME in next(e for e in state.events if e[0] == "seconds")[3]
    fast = own_points(n, "random", 51, [index])
    assert fast.equals(own_points_reference(n, "random", 51, [index]))
    assert "seconds" in fast["special"].to_pylist()


def test_every_definition_is_met_in_real_games():
    """Over random games at 4 players, every special is held somewhere, the starred ones
    and Seconds move their holders' totals, and the no-effect ones never do."""
    t = own_points(4, "random", 7, 300)
    rows = {}
    for sp, a, b in zip(t["special"].to_pylist(), t["score"].to_pylist(),
                        t["score_without"].to_pylist(), strict=True):  # fmt: skip
        rows.setdefault(sp, []).append(a - b)
    assert set(rows) == set(SPECIAL_SLUGS[:14])
    for sp in NO_SCORING_EFFECT:
        assert set(rows[sp.slug]) == {0}
    assert set(rows["stuffed_crust"]) == {5} and set(rows["day_old_pizza"]) == {-2}
    for slug in ("buffet", "combo_cravings", "you_love_veggies", "seconds",
                 "super_sized_combos", "tie_breaker", "you_like_anchovies"):  # fmt: skip
        assert any(x != 0 for x in rows[slug]), slug
    diet = t.filter(t["special"].to_numpy(zero_copy_only=False) == "everyone_elses_diet")
    delta = diet["others_delta"].to_numpy()
    assert (delta >= 0).all() and delta.max() > 0


def test_a_blank_tile_has_no_row_and_games_can_be_chosen():
    deck = DECK.with_blank("stuffed_crust")
    games = [9, 2, 2**32 - 1]
    t = own_points(3, "greedy", 4, games, deck=deck)
    assert not {"stuffed_crust", "blank"} & set(t["special"].to_pylist())
    assert t["game_index"].to_pylist() == sorted(t["game_index"].to_pylist(), key=games.index)
    assert set(t["game_index"].to_pylist()) == set(games)
    assert t.equals(own_points_reference(3, "greedy", 4, games, deck=deck))


# ---------------------------------------------------------------- the dataset's games
@pytest.mark.parametrize(
    "n,specs,rules",
    [
        (4, ("heuristic",) * 4, {}),
        (3, ("greedy", "random", "heuristic"),
         {"compensation": [0, 2], "super_sized_combo_halves": 3}),
        (2, ("tests.example_strategies:FirstLegal", "greedy"), {}),  # the reference engine
    ],
    ids=["kernel-heuristic", "kernel-what-if", "reference"],
)  # fmt: skip
def test_score_is_the_datasets_score(n, specs, rules):
    """The arm's chunk (as the batch runner plays it) has the same scores, and a row for
    exactly the specials each seat owns at the end."""
    arm = Arm("a", "nyslice", n, specs, 30, 12, options={"deck": None, "rules": rules})
    chunk = GAME.play_chunk(arm, 0, 30, decisions=False)
    t = own_points(n, list(specs), 12, 30, rules=Rules.from_dict(rules))
    dataset = chunk.seats["score"]
    g, holder = t["game_index"].to_numpy(), t["holder"].to_numpy()
    assert (t["score"].to_numpy() == dataset[g, holder]).all()
    owned = chunk.seats["specials_owned_mask"]
    expect = sorted(
        (gi, SPECIAL_SLUGS[b], p)
        for gi in range(30) for p in range(n) for b in range(14) if owned[gi, p] >> b & 1
    )  # fmt: skip
    got = sorted(zip(g.tolist(), t["special"].to_pylist(), holder.tolist(), strict=True))
    assert got == expect


@pytest.mark.parametrize(
    "args,fragment",
    [
        ((7, "greedy", 1, 3), "players"),
        ((3, "greedy,greedy", 1, 3), "2 strategies"),
        ((3, "clever", 1, 3), "clever"),
        ((3, "greedy", -1, 3), "seed"),
        ((3, "greedy", 1, [2**32]), "game indices"),
        ((3, "greedy", 1, -2), "games"),
    ],
)
def test_bad_arguments_are_refused(args, fragment):
    with pytest.raises(SlicelabError, match=fragment):
        own_points(*args)


def test_first_slicer_must_be_a_seat():
    with pytest.raises(SlicelabError, match="first_slicer"):
        own_points(2, "greedy", 1, 3, rules=Rules(first_slicer=2))


def test_no_games_no_rows():
    t = own_points(3, "greedy", 1, 0)
    assert t.num_rows == 0 and t.column_names == list(OWN_COLUMNS)
    assert np.asarray(t["score"]).dtype == np.int16
