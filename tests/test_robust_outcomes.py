"""The outcomes of :func:`analysis.robust.judge`, one row each, with their exact labels and
sentences; the order of precedence between them; which conditions veto; the equivalence
bound; and planted simulations of what the rule guarantees under a true effect of 0."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import numpy as np
import pytest

from analysis.robust import (
    DEFAULT_BOUNDS,
    OUTCOMES,
    Condition,
    Robustness,
    equivalence_bound,
    judge,
    settle_n,
    vetoes,
)

NAN = math.nan
ROOT = Path(__file__).resolve().parents[1]


def _c(name, est, lo, hi, n=100, unit="games", kind="field", **kw) -> Condition:
    return Condition(kind, name, est, lo, hi, n, unit, **kw)


# (conditions, expected, outcome, robust, sign, label, where, detail)
ROWS = {
    "holds": (
        [_c("a", 2, 1, 3), _c("b", 1, 0.5, 1.5)], (),
        "holds", True, 1, "robust", (),
        "above zero in all 2 conditions (2 fields)",
    ),
    "flips": (
        [_c("a", 2, 1, 3), _c("b", -1, -2, -0.5)], (),
        "flips", False, 0, "not robust: sign flips", ("b",),
        "the sign flips: above zero in a (+2.0 pp [+1.0, +3.0]), below in b (-1.0 pp [-2.0, "
        "-0.5])",
    ),
    # 30 deals, ±8 pp, beside a +2 pp main effect: 30 × (8 / 2)² = 480 deals settle it
    "sparse": (
        [_c("equilibrium field", 2, 1, 3, 3000, "deals"),
         _c("search field", 0.5, -7.5, 8.5, 30, "deals")], (),
        "sparse", False, 0, "not robust: too few games", ("search field",),
        "too few games to tell in search field (+0.5 pp [-7.5, +8.5], 30 deals), wider than "
        "equilibrium field's +2.0 pp: about 480 deals would settle it",
    ),
    "absent": (
        [_c("heuristic field", 3, 1, 5, 4000, "deals"),
         _c("greedy field", 0.1, -0.6, 0.8, 4000, "deals")], (),
        "absent", False, 0, "not robust: no effect in greedy field", ("greedy field",),
        "no effect in greedy field (+0.1 pp [-0.6, +0.8]): within ±1 pp, while heuristic "
        "field is above zero (+3.0 pp [+1.0, +5.0])",
    ),
    # ±3 pp is narrow enough to show a 13 pp effect, yet covers 0 and reaches past ±1 pp
    "weaker": (
        [_c("heuristic field", 13, 10, 16), _c("greedy field", 1, -2, 4)], (),
        "weaker", False, 0, "not robust: weaker in greedy field", ("greedy field",),
        "weaker in greedy field (+1.0 pp [-2.0, +4.0]): covering 0 and not within ±1 pp, "
        "though narrow enough for heuristic field's +13.0 pp to have cleared 0",
    ),
    "null": (
        [_c("heuristic field", 0.1, -0.5, 0.7, 4000, "deals"),
         _c("greedy field", -0.2, -0.9, 0.5, 4000, "deals")], (),
        "null", False, 0, "no effect", (),
        "every interval lies within ±1 pp in all 2 conditions (2 fields)",
    ),
    # nothing clears 0 and a reaches past ±1 pp: half-width 2 → 1/2 needs 2000 × 4² games
    "sparse without an effect": (
        [_c("a", 0.5, -1.5, 2.5, 2000), _c("b", 0.1, -0.5, 0.7, 2000)], (),
        "sparse", False, 0, "not robust: too few games", ("a",),
        "too few games to tell in a (+0.5 pp [-1.5, +2.5], 2,000 games), covering 0 and "
        "reaching beyond ±1 pp: about 32,000 games would settle it; within ±1 pp in b",
    ),
    "no interval": (
        [_c("a", 2, 1, 3), _c("b", NAN, NAN, NAN, 12, "deals")], (),
        "sparse", False, 0, "not robust: too few games", ("b",),
        "too few games to tell: no interval in b",
    ),
    "unchecked": (
        [], (), "unchecked", False, 0, "not checked", (), "no condition was computed",
    ),
    "partial": (
        [_c("a", 2, 1, 3), _c("b", 3, 2, 4)], ("a", "b", "search field"),
        "partial", False, 0, "not fully checked", ("search field",),
        "above zero in all 2 conditions computed, but not checked in search field",
    ),
    "null, partial": (
        [_c("a", 0.1, -0.5, 0.7)], ("a", "b"),
        "partial", False, 0, "not fully checked", ("b",),
        "every interval lies within ±1 pp in the 1 condition computed, but not checked in b",
    ),
    # random play would flip the sign: it describes, it does not veto
    "random field": (
        [_c("mixed field", -5, -8, -2), _c("random field", 3, 1, 5, spec="random")], (),
        "holds", True, -1, "robust", (),
        "below zero in the 1 vetoing condition (1 field); the random field, which describes "
        "and does not veto: +3.0 pp [+1.0, +5.0]",
    ),
    "random field covering 0": (
        [_c("mixed field", -5, -8, -2), _c("random field", 0.1, -0.2, 0.3, spec="random")],
        (), "holds", True, -1, "robust", (),
        "below zero in the 1 vetoing condition (1 field); the random field, which describes "
        "and does not veto: +0.1 pp [-0.2, +0.3]",
    ),
    "veto=False": (
        [_c("mixed field", -5, -8, -2), _c("greedy field", 3, 1, 5, veto=False)], (),
        "holds", True, -1, "robust", (),
        "below zero in the 1 vetoing condition (1 field); the greedy field, which describes "
        "and does not veto: +3.0 pp [+1.0, +5.0]",
    ),
    "veto=True overrides the family": (
        [_c("mixed field", -5, -8, -2), _c("random field", 3, 1, 5, spec="random", veto=True)],
        (), "flips", False, 0, "not robust: sign flips", ("random field",),
        "the sign flips: below zero in mixed field (-5.0 pp [-8.0, -2.0]), above in random "
        "field (+3.0 pp [+1.0, +5.0])",
    ),
    "only a describing field": (
        [_c("random field", 3, 1, 5, spec="random(seed=2)")], (),
        "unchecked", False, 0, "not checked", (),
        "no condition that vetoes was computed; the random field, which describes and does "
        "not veto: +3.0 pp [+1.0, +5.0]",
    ),
    # precedence
    "a flip beats too few games": (
        [_c("a", 2, 1, 3), _c("b", -2, -3, -1), _c("c", 0, -10, 10)], (),
        "flips", False, 0, "not robust: sign flips", ("b",),
        "the sign flips: above zero in a (+2.0 pp [+1.0, +3.0]), below in b (-2.0 pp [-3.0, "
        "-1.0])",
    ),
    "a flip beats not fully checked": (
        [_c("a", 2, 1, 3), _c("b", -2, -3, -1)], ("a", "b", "c"),
        "flips", False, 0, "not robust: sign flips", ("b",),
        "the sign flips: above zero in a (+2.0 pp [+1.0, +3.0]), below in b (-2.0 pp [-3.0, "
        "-1.0]); not checked in c",
    ),
    "no effect beats weaker and too few games": (
        [_c("a", 3, 1, 5), _c("b", 0.1, -0.6, 0.8), _c("c", 1, -1.5, 3.5), _c("d", 0, -10, 10)],
        (), "absent", False, 0, "not robust: no effect in b", ("b",),
        "no effect in b (+0.1 pp [-0.6, +0.8]): within ±1 pp, while a is above zero (+3.0 pp "
        "[+1.0, +5.0]); weaker in c; too few games to tell in d, wider than a's +3.0 pp: about "
        "1,112 games would settle it",
    ),
    "weaker beats too few games": (
        [_c("a", 3, 1, 5), _c("c", 1, -1.5, 3.5), _c("d", 0, -10, 10)], (),
        "weaker", False, 0, "not robust: weaker in c", ("c",),
        "weaker in c (+1.0 pp [-1.5, +3.5]): covering 0 and not within ±1 pp, though narrow "
        "enough for a's +3.0 pp to have cleared 0; too few games to tell in d, wider than a's "
        "+3.0 pp: about 1,112 games would settle it",
    ),
    "too few games beats not fully checked": (
        [_c("a", 3, 1, 5), _c("d", 0, -10, 10)], ("a", "d", "e"),
        "sparse", False, 0, "not robust: too few games", ("d",),
        "too few games to tell in d (+0.0 pp [-10.0, +10.0], 100 games), wider than a's +3.0 "
        "pp: about 1,112 games would settle it; not checked in e",
    ),
    # a sign clear everywhere holds however small: the bound judges only covering intervals
    "a small sign still holds": (
        [_c("a", 0.5, 0.2, 0.8), _c("b", 0.4, 0.1, 0.7)], (),
        "holds", True, 1, "robust", (),
        "above zero in all 2 conditions (2 fields); every interval lies within ±1 pp, an "
        "effect smaller than the equivalence bound",
    ),
    "points use their own bound": (
        [_c("a", 1.0, 0.5, 1.5, scale="points"), _c("b", 0.1, -0.2, 0.2, scale="points")], (),
        "absent", False, 0, "not robust: no effect in b", ("b",),
        "no effect in b (+0.10 points [-0.20, +0.20]): within ±0.25 points, while a is above "
        "zero (+1.00 points [+0.50, +1.50])",
    ),
    # more than two: names grouped, the settling n as a range (300 × (10/3)² .. (12/3)²)
    "many sparse decks": (
        [_c("a", 3, 1, 5), _c("plausible deck 1", 0, -10, 10, 50, kind="deck"),
         _c("plausible deck 3", 0, -12, 12, 50, kind="deck"),
         _c("plausible deck 4", 1, -9, 11, 50, kind="deck")], (),
        "sparse", False, 0, "not robust: too few games",
        ("plausible deck 1", "plausible deck 3", "plausible deck 4"),
        "too few games to tell in plausible decks 1, 3 and 4, each wider than a's +3.0 pp: "
        "about 556 to 800 games each would settle them",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", list(ROWS))
def test_each_outcome_has_its_label_and_sentence(case):
    conds, expected, outcome, robust, sgn, label, where, detail = ROWS[case]
    r = judge(conds, expected)
    assert (r.outcome, r.robust, r.sign, r.label, r.where, r.detail) == (
        outcome, robust, sgn, label, where, detail
    )  # fmt: skip
    assert r.outcome in OUTCOMES
    # the report colours a tag by its prefix: every failing outcome keeps "not robust"
    assert r.label.startswith("not robust") == (outcome in ("flips", "absent", "weaker",
                                                             "sparse"))  # fmt: skip


def test_the_bound_is_declared_per_scale_and_can_be_overridden():
    assert DEFAULT_BOUNDS["pp"] == 1.0
    assert equivalence_bound([_c("a", 1, 0, 2)]) == 1.0
    assert equivalence_bound([_c("a", 1, 0, 2, scale="points")]) == DEFAULT_BOUNDS["points"]
    conds = ROWS["absent"][0]
    assert judge(conds).outcome == "absent"
    r = judge(conds, bound=0.5)  # ±0.7 pp no longer lies within the bound
    assert (r.outcome, r.label) == ("weaker", "not robust: weaker in greedy field")
    assert "not within ±0.5 pp" in r.detail
    assert judge(ROWS["null"][0], bound=0.5).outcome == "sparse"
    with pytest.raises(ValueError, match="mix the scales"):
        judge([_c("a", 1, 0.5, 1.5), _c("b", 1, 0.5, 1.5, scale="points")])
    with pytest.raises(ValueError, match="no default"):
        judge([_c("a", 1, 0.5, 1.5, scale="Elo")])
    assert judge([_c("a", 40, 10, 70, scale="Elo")], bound=10).outcome == "holds"
    with pytest.raises(ValueError, match="positive"):
        judge([_c("a", 1, 0.5, 1.5)], bound=0)


def test_which_conditions_veto_is_decided_in_one_place():
    assert not vetoes(_c("random field", 0, -1, 1, spec="random"))
    assert not vetoes(_c("random field", 0, -1, 1, spec="Random(seed=3)"))
    assert vetoes(_c("greedy field", 0, -1, 1, spec="greedy"))
    assert vetoes(_c("x", 0, -1, 1))  # no spec: it vetoes
    assert vetoes(_c("random field", 0, -1, 1, spec="random", veto=True))
    assert not vetoes(_c("greedy field", 0, -1, 1, veto=False))


@pytest.mark.parametrize(
    ("module", "study"),
    [("analysis.horno.common", "horno"), ("analysis.pizzatheory.common", "pizzatheory")],
)
def test_a_games_field_specs_are_its_studys(module, study):
    """The spec a game's field conditions carry is the one its study's block plays, so the
    random field is the one that describes."""
    import importlib

    common = importlib.import_module(module)
    arms = tomllib.loads((ROOT / "studies" / f"{study}-balance.toml").read_text())["arms"]
    plays = {a["name"]: a.get("strategies") for a in arms}
    assert set(common.FIELD_SPECS) == set(common.FIELDS)
    for field, block in common.FIELDS.items():
        assert plays[block] == common.FIELD_SPECS[field], field
    assert [f for f in common.FIELDS if not vetoes(_c(f, 0, -1, 1,
            spec=common.FIELD_SPECS[f]))] == ["random field"]  # fmt: skip


def test_the_games_mark_their_random_field_as_describing():
    import polars as pl

    from analysis.horno import seats as horno_seats
    from analysis.pizzatheory import seats as pizza_seats

    rows = [{"players": 2, "position": p, "games": 900, "edge_pp": e, "edge_low": e - 1,
             "edge_high": e + 1} for p, e in enumerate([-5.0, 5.0])]  # fmt: skip
    t = pl.DataFrame(rows)
    found = horno_seats.conditions({"heuristic field": t, "random field": t.with_columns(
        -pl.col("edge_pp"), -pl.col("edge_high"), -pl.col("edge_low"))})[2]  # fmt: skip
    assert [vetoes(c) for c in found] == [True, False]
    assert judge(found).outcome == "holds"  # the random field's flip does not veto
    edges = t.with_columns(
        pl.lit(0.5).alias("win_share"),
        pl.lit(0.0).alias("shared"),
        pl.lit(True).alias("same_as_seat"),
        pl.lit(900).alias("distinct"),
        pl.lit(False).alias("deterministic"),
        pl.lit(9.0).alias("toppings"),
    )
    found = pizza_seats.conditions({"mixed field": edges, "random field": edges})[2]
    assert [c.spec for c in found] == ["mixed", "random"]


def test_a_hand_made_robustness_gets_its_outcome_from_its_label():
    assert Robustness(True, 1, "robust", "").outcome == "holds"
    assert Robustness(False, 0, "not robust: sign flips", "").outcome == "flips"
    assert Robustness(False, 0, "not robust: a handful of deals", "").outcome == "sparse"
    assert Robustness(False, 0, "not fully checked", "").outcome == "partial"
    assert Robustness(False, 0, "no effect", "").outcome == "null"
    assert Robustness(False, 0, "not robust: no common θ", "").outcome == ""


def test_the_settling_n_makes_any_undecided_interval_decisive():
    """Without a main effect the settling n shrinks the half-width to b/2: wherever the
    estimate then lands, its interval either clears 0 or lies within ±b. Checked on random
    undecided intervals, with the n rule of :func:`settle_n`."""
    rng = np.random.default_rng(7)
    b, checked = 1.0, 0
    for est, half in zip(rng.uniform(-3, 3, 2000), rng.uniform(0, 6, 2000), strict=True):
        lo, hi = est - half, est + half
        if not (lo <= 0 <= hi) or (-b <= lo and hi <= b):
            continue  # decided already
        c = _c("x", est, lo, hi, 1000)
        n = settle_n(c, b / 2)
        assert n > c.n
        shrunk = half * math.sqrt(c.n / n)
        assert shrunk <= b / 2 + 1e-9
        for new_est in rng.uniform(-3, 3, 20):  # anywhere: clears 0 or lies within ±b
            assert abs(new_est) > shrunk or abs(new_est) + shrunk <= b
        checked += 1
    assert checked > 500


def _planted(rng, sd: float, games: int = 2000, reps: int = 400, effect: float = 0.0):
    """``reps`` replications of two conditions of ``games`` games each, a per-game measure
    in pp of standard deviation ``sd`` around ``effect``; the outcome of each."""
    outcomes = []
    for _ in range(reps):
        conds = []
        for name in ("heuristic field", "greedy field"):
            x = rng.normal(effect, sd, games)
            m, half = x.mean(), 1.96 * x.std(ddof=1) / math.sqrt(games)
            conds.append(_c(name, m, m - half, m + half, games))
        outcomes.append(judge(conds).outcome)
    return outcomes


def test_planted_a_true_zero_with_a_precise_measure_reads_no_effect():
    """A true effect of 0 in two conditions of 2,000 games each, measured per game with a
    spread of 10 pp (half-width ≈ 0.44 pp): with bound 1 pp "no effect" is reached in ≥ 90%
    of 400 replications (about 97.6% expected: each interval lies within ±1 pp when
    |estimate| ≤ 0.56 pp, |z| ≤ 2.5)."""
    out = _planted(np.random.default_rng(20240611), sd=10.0)
    assert out.count("null") / len(out) >= 0.90
    assert out.count("holds") + out.count("flips") <= 4  # a sign claimed ≤ 1% of the time


def test_planted_a_true_zero_with_a_win_share_is_too_few_games_not_no_effect():
    """The same with a win/lose measure (50 pp per game: half-width ≈ 2.2 pp, wider than
    the bound): 2,000 games cannot show "no effect" at ±1 pp, and the rule says so: "too few
    games" in ≥ 90% of replications, a sign claimed (holds or flips) in ≤ 1%, never "no
    effect"; the n it names would settle it (≈ 2,000 × (2 × 2.2)² ≈ 38,000 games)."""
    rng = np.random.default_rng(20240612)
    out = _planted(rng, sd=50.0)
    assert out.count("sparse") / len(out) >= 0.90
    assert out.count("holds") + out.count("flips") <= 4
    assert "null" not in out
    conds = []
    for name in ("heuristic field", "greedy field"):
        x = rng.normal(0, 50, 2000)
        m, half = x.mean(), 1.96 * x.std(ddof=1) / math.sqrt(2000)
        conds.append(_c(name, m, m - half, m + half, 2000))
    r = judge(conds)
    if r.outcome == "sparse":
        n = max(settle_n(c, 0.5) for c in conds)
        assert 30_000 < n < 46_000
        # at that n the same measure lies within ±1 pp in both conditions ≥ 80% of the time
        more = _planted(rng, sd=50.0, games=n, reps=60)
        assert more.count("null") / len(more) >= 0.80
