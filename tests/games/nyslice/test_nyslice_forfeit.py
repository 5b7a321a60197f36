"""Restricted play ``forfeit=<slug>`` (docs/rules/nyslice.md, "Restricted play"): an
analysis option, not a rule, for what a special is worth to a designer.

A seat given ``forfeit=s`` chooses portions as it likes (every free portion is among its
actions, unlike ``avoid=s``), but never receives s: the tile is forfeited on receipt
(nobody owns it, it scores and does nothing), and its strategy values s as absent. Every
built-in family takes the parameter; the engine and the kernel play it alike (the
agreement tests are in ``test_nyslice_kernel.py`` and the generated tables of
``test_nyslice_generated.py``).
"""

import numpy as np
import pytest

from sims.core.errors import SlicelabError, StrategySpecError
from sims.games.nyslice.deck import Special, default_deck
from sims.games.nyslice.engine import Deal, GameState, Phase, deal
from sims.games.nyslice.heuristic import HEURISTIC_DEFAULTS, Valuer, cut_scores, params_for
from sims.games.nyslice.kernel import (
    NO_AVOID,
    S_AVOID,
    S_FORFEIT,
    STRATEGY_CODES,
    KernelRunner,
    seat_params,
    strategy_codes,
)
from sims.games.nyslice.plugin import strategy_identity
from sims.games.nyslice.records import score_rows
from sims.games.nyslice.rules import Rules
from sims.games.nyslice.strategies import make_strategy, restriction
from sims.games.nyslice.view import PlayerView

DECK = default_deck()


@pytest.fixture(scope="module")
def runner():
    return KernelRunner(DECK, Rules())


# ----------------------------------------------------------------------------- specs
FAMILIES = [
    # (spec, family, special forfeited)
    ("random(forfeit=seconds)", "random", Special.SECONDS),
    ("greedy(forfeit=dibs)", "greedy", Special.DIBS),
    ("heuristic(forfeit=stuffed_crust)", "heuristic", Special.STUFFED_CRUST),
    ("heuristic(theta=0.8,forfeit='buffet')", "heuristic", Special.BUFFET),
    ("heuristic-eq4(forfeit=day_old_pizza)", "heuristic", Special.DAY_OLD_PIZZA),
    ("search(budget=4,forfeit=dibs)", "search", Special.DIBS),
]


@pytest.mark.parametrize("spec,family,special", FAMILIES, ids=[f[0] for f in FAMILIES])
def test_every_family_takes_forfeit(spec, family, special):
    """Each family builds with ``forfeit``; its kernel row carries the special's code and
    the forfeit flag, and it is another strategy than the same spec plain or avoiding."""
    strategy = make_strategy(spec)
    assert strategy.forfeit is special and strategy.avoid is None
    assert restriction(strategy.spec) == ("forfeit", special)
    assert make_strategy(str(strategy.spec)).forfeit is special
    assert strategy_codes([spec]).tolist() == [STRATEGY_CODES[family]]
    row = seat_params([spec, "greedy"], 2)
    assert row[:, S_AVOID].tolist() == [int(special), NO_AVOID]
    assert row[:, S_FORFEIT].tolist() == [1.0, 0.0]
    avoiding = spec.replace("forfeit=", "avoid=")
    assert seat_params([avoiding], 2)[:, S_FORFEIT].tolist() == [0.0, 0.0]
    plain = spec.replace(f"forfeit={special.slug}", "").replace(f"forfeit='{special.slug}'", "")
    plain = plain.replace("(,", "(").replace(",)", ")").replace("()", "")
    ids = {strategy_identity(s, 4) for s in (spec, avoiding, plain)}
    assert len(ids) == 3
    if family == "heuristic":  # forfeit is not a valuation parameter
        assert set(strategy.params(4)) == set(HEURISTIC_DEFAULTS)
        assert strategy.params(4) == make_strategy(plain).params(4)
    diff = seat_params([spec], 3) != seat_params([plain], 3)
    assert diff[:, [S_AVOID, S_FORFEIT]].all()
    assert not np.delete(diff, [S_AVOID, S_FORFEIT], axis=1).any()


@pytest.mark.parametrize(
    "spec,fragment",
    [
        ("heuristic(forfeit=pineapple)", "forfeit='pineapple' is not a special"),
        ("greedy(forfeit=blank)", "forfeit='blank' is not a special"),
        ("search(forfeit=3)", "forfeit must be a special's slug, got 3"),
        ("heuristic(avoid=dibs,forfeit=dibs)", "sets both avoid and forfeit"),
        ("greedy(forfeit=dibs,x=1)", "its parameters: avoid, forfeit"),
    ],
)
def test_bad_forfeit_is_refused(spec, fragment):
    with pytest.raises(StrategySpecError) as info:
        make_strategy(spec)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_kernel_refuses_a_forfeit_column_that_is_no_flag(runner):
    codes = strategy_codes(["greedy", "greedy"])
    hp = seat_params(["greedy(forfeit=dibs)", "greedy"], 2)
    hp[0, S_FORFEIT] = 2.0
    with pytest.raises(ValueError, match="0 avoid, 1 forfeit"):
        runner.play(2, codes, 1, 0, hparams=hp)


def test_a_seat_takes_one_restriction_at_most():
    d = deal(DECK, 3, np.random.default_rng(2))
    with pytest.raises(SlicelabError, match="both avoid and forfeit"):
        GameState(DECK, Rules(), 3, d, avoid=(Special.DIBS, None, None),
                  forfeit=(Special.BUFFET, None, None))  # fmt: skip
    with pytest.raises(SlicelabError, match="forfeit must give each"):
        GameState(DECK, Rules(), 3, d, forfeit=(Special.BLANK, None, None))


# ----------------------------------------------------------------------------- choices
CHOICES = [
    # (seat 1's restriction, its legal portions after cut rank 0, what it gets from
    # portion 2 (the special alone): owner of the special, "forfeit" event)
    (None, [0, 1, 2], 1, False),
    ("avoid", [0, 1], None, None),
    ("forfeit", [0, 1, 2], -1, True),
]


@pytest.mark.parametrize("kind,legal,owner,forfeited", CHOICES, ids=["none", "avoid", "forfeit"])
def test_a_forfeiting_chooser_chooses_every_portion_and_forfeits_the_tile(
    kind, legal, owner, forfeited
):
    """3 players, the slicer cuts rank 0 (two arcs, the special alone as portion 2): the
    first chooser (seat 1) may take portion 2 unless it avoids the special; taking it, an
    unrestricted seat owns the special and a forfeiting one forfeits it (nobody owns it)."""
    d = deal(DECK, 3, np.random.default_rng(2))
    sp = d.stack_specials[0]
    restricted = (None, sp, None)
    state = GameState(DECK, Rules(), 3, d, **({kind: restricted} if kind else {}))
    state.apply(0)
    assert state.portions[2].special and not state.portions[2].slices
    dec = state.decision()
    assert (dec.player, dec.phase, list(dec.legal)) == (1, Phase.CHOOSE, legal)
    if owner is None:
        return
    state.apply(2)
    assert state.owner(sp) == owner
    assert (("forfeit", 1, sp) in state.events) is forfeited
    assert state.forfeits(1, sp) is forfeited and not state.avoids(1, sp)


def _deal_with(special: Special, n: int, seed: int = 5) -> Deal:
    """A deal whose first stack shows ``special`` (swapped with its tile)."""
    d = deal(DECK, n, np.random.default_rng(seed))
    tiles = list(d.stack_specials) + list(d.replacement)
    i = tiles.index(special)
    tiles[0], tiles[i] = tiles[i], tiles[0]
    rounds = len(d.stacks)
    return Deal(d.stacks, tuple(tiles[:rounds]), tuple(tiles[rounds:]), d.mystery, d.removed)


ATTACHED = 57
"""A cut rank at 3 players on a ring of 11: arcs [0, 1), [1, 2) and [2, 11), the special
with the third (portion 2: nine slices and the special)."""
RECEIPT = [
    # the specials a forfeiting chooser takes with portion 2 after cut ATTACHED
    "mystery_slice",
    "combo_cravings",
    "stuffed_crust",
    "day_old_pizza",
    "everyone_elses_diet",
    "seconds",
]


@pytest.mark.parametrize("slug", RECEIPT)
def test_a_special_chosen_by_a_forfeiting_seat_does_nothing(runner, slug):
    """Seat 1 forfeits s and chooses the portion that carries it: it takes the slices,
    no Mystery slice is drawn, no receipt decision is asked, nobody owns s and no score
    counts it; the kernel plays the same game from the same deal and first moves."""
    special = Special[slug.upper()]
    d = _deal_with(special, 3)
    specs = ["greedy", f"greedy(forfeit={slug})", "greedy"]
    state = GameState(DECK, Rules(), 3, d, forfeit=(None, special, None))
    state.apply(ATTACHED)
    assert state.portions[2].special and len(state.portions[2].slices) == 9
    mystery = list(state.mystery)
    state.apply(2)  # seat 1 takes it
    i = next(i for i, e in enumerate(state.events) if e[0] == "choose")
    assert state.events[i][1:3] == (1, 2) and state.events[i + 1] == ("forfeit", 1, special)
    assert state.mystery == mystery and state.owner(special) == -1
    strategies = [make_strategy(s) for s in specs]
    rng = np.random.default_rng(0)
    while not state.terminal:
        dec = state.decision()
        assert not (dec.player == 1 and dec.phase == Phase.RECEIVE_EAT)
        state.apply(strategies[dec.player].choose(PlayerView(state, dec.player), dec, rng))
    assert state.owner(special) == -1
    assert all(special not in b.special_points for b in state.scores())
    scores, trace = runner.play_deal(
        3, strategy_codes(specs), seat_params(specs, 3), d, [ATTACHED, 2], trace=True
    )
    assert [tuple(int(x) for x in t) for t in trace] == state.trace
    assert scores.tolist() == [list(r) for r in score_rows(state)]


# ----------------------------------------------------------------------------- valuation
def test_a_forfeiting_seat_values_the_special_as_absent():
    """Stuffed Crust on the table at 3 players: to seat 1 forfeiting it (or avoiding it)
    a portion with the tile is worth its slices alone; to an unrestricted seat 5 more
    (the heuristic's flat value times ``specials``). The heuristic's cut predicts the
    forfeiting chooser by those values, so its scores differ from both the unrestricted
    and the avoiding prediction. (The last two agree here: with three players the slicer's
    score depends on the portion it is left and the best one an opponent takes, and two
    choosers of equal taste leave it the same whichever of them takes the special.)"""
    d = _deal_with(Special.STUFFED_CRUST, 3)
    p = params_for(3, {})
    slices = list(d.stacks[0][:4])
    scored = {}
    for kind in (None, "avoid", "forfeit"):
        restricted = (None, Special.STUFFED_CRUST, None)
        state = GameState(DECK, Rules(), 3, d, **({kind: restricted} if kind else {}))
        view = PlayerView(state, 0)
        val = Valuer(view, 0, p)
        with_sp, without = val.portion_value(1, slices, True), val.portion_value(1, slices, False)
        assert with_sp - without == (0.0 if kind else pytest.approx(5.0 * p["specials"]))
        assert val.portion_value(2, slices, True) - val.portion_value(2, slices, False) == (
            pytest.approx(5.0 * p["specials"])
        )
        scored[kind] = cut_scores(val, view)
    assert scored["forfeit"] != scored[None] and scored["forfeit"] != scored["avoid"]
