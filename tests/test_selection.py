"""The shared rule for selected claims: a verdict naming the largest of several effects is
corrected for picking it, states its direction, and never recommends what the robustness
verdict calls not robust; effects carried by a handful of deals get the exact sign test."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

from analysis.robust import Robustness
from analysis.stats import SPARSE_UNITS, bonferroni_interval, sign_test
from analysis.verdicts import adjust_family, count_verdict, largest_claim, recommendation

Z = stats.norm.ppf(0.975)


def family(estimates, se=1.0, players=3):
    e = np.asarray(estimates, dtype=float)
    return pl.DataFrame(
        {
            "players": [players] * len(e),
            "position": list(range(len(e))),
            "games": [1000] * len(e),
            "edge_pp": e,
            "edge_low": e - Z * se,
            "edge_high": e + Z * se,
        }
    )


@pytest.mark.parametrize(
    ("m", "factor"),
    [(1, 1.0), (2, stats.norm.ppf(1 - 0.025 / 2) / Z), (10, stats.norm.ppf(1 - 0.0025) / Z)],
)
def test_bonferroni_widens_by_the_family_quantile(m, factor):
    lo, hi = bonferroni_interval(1.0, 0.0, 2.0, m)
    assert (lo, hi) == pytest.approx((1 - factor, 1 + factor))


def test_bonferroni_of_an_undefined_interval_is_undefined():
    assert all(np.isnan(bonferroni_interval(1.0, float("nan"), 2.0, 3)))


@pytest.mark.parametrize(
    ("d", "nonzero", "positive", "negative", "p", "sparse"),
    [
        ([0.0] * 3996 + [-0.25] * 4, 4, 0, 4, 0.125, True),  # the fewer-pieces case
        ([0.0] * 10, 0, 0, 0, 1.0, True),
        ([1.0] * 20 + [-1.0] * 20, 40, 20, 20, 1.0, False),
        ([1.0] * 6, 6, 6, 0, 0.03125, True),
    ],
)
def test_sign_test_is_exact(d, nonzero, positive, negative, p, sparse):
    t = sign_test(np.array(d))
    assert (t.nonzero, t.positive, t.negative) == (nonzero, positive, negative)
    assert t.p == pytest.approx(p)
    assert t.sparse is sparse
    assert t.n == len(d)
    assert f"{nonzero:,} of {len(d):,} deals differ" in t.sentence()


def test_sparse_threshold_is_the_documented_one():
    assert sign_test(np.ones(SPARSE_UNITS)).sparse is False
    assert sign_test(np.ones(SPARSE_UNITS - 1)).sparse is True


def test_adjust_family_corrects_every_row_over_the_family():
    f = adjust_family(family([2.5, 0.1, -0.3, 0.0, 0.4]))
    assert f["family"].to_list() == [5] * 5
    # nominally clear of 0 (2.5 > 1.96), not once corrected over 5
    assert f["edge_low"][0] > 0 and f["adj_low"][0] < 0
    assert f["holm_sign"].to_list() == [0] * 5
    strong = adjust_family(family([6.0, 0.1, -5.0]))
    assert strong["holm_sign"].to_list() == [1, 0, -1]


def test_largest_claim_picks_by_size_either_way_and_keeps_its_sign():
    c = largest_claim(family([1.0, -7.0, 3.0]))
    assert c["position"] == 1 and c["sign"] == -1 and c["family"] == 3
    assert largest_claim(family([])) is None


def test_the_largest_of_null_effects_rarely_clears_once_corrected():
    # 12 positions with no effect: the largest's nominal interval clears 0 in about half
    # the replications; corrected, at most 5%
    rng = np.random.default_rng(3)
    nominal = corrected = 0
    for _ in range(400):
        c = largest_claim(family(rng.standard_normal(12)))
        nominal += c["edge_low"] > 0 or c["edge_high"] < 0
        corrected += c["sign"] != 0
    assert nominal / 400 > 0.4
    assert corrected / 400 <= 0.06


ROBUST = Robustness(True, 1, "robust", "above zero in all 3 conditions")
FRAGILE = Robustness(False, 0, "not robust: sign flips", "the sign flips")


@pytest.mark.parametrize(
    ("estimates", "robust", "expect"),
    [
        ([9.0, -1.0, 0.0], ROBUST, "Position 0 at 3 players is ahead by +9.0 pp"),
        ([-9.0, 1.0, 0.0], ROBUST, "Position 0 at 3 players is behind by -9.0 pp"),
        ([-9.0, 1.0, 0.0], None, "is behind by"),
        ([9.0, -1.0, 0.0], FRAGILE, ""),  # the seat verdict calls it not robust
        ([2.0, -1.0, 0.0], ROBUST, ""),  # corrected interval covers 0
    ],
)
def test_a_recommendation_states_its_direction_or_is_not_made(estimates, robust, expect):
    c = largest_claim(family(estimates))
    text = recommendation(c, robust, "compensate {who} ({way})", who="position 0 at 3 players")
    if expect:
        assert expect in text and text[:1].isupper()
        assert "picking it from 3" in text
        assert ("(ahead)" if c["sign"] > 0 else "(behind)") in text
    else:
        assert text == ""


def _edges(positions: pl.DataFrame) -> pl.DataFrame:
    from analysis.seats import edges

    t = positions.with_columns(
        pl.lit(0.5).alias("win_share"), pl.lit(0.0).alias("shared"),
        pl.lit(True).alias("same_as_seat"),
    )  # fmt: skip
    return edges(t)


def test_count_verdict_corrects_over_every_position_of_every_count_and_defers_to_robustness():
    positions = pl.concat([family([2.3, -1.0], players=2), family([0.5, 0.2, -0.4], players=3)])
    kw = {"lead": "The largest edge", "big_edge": 2.0, "matters": "turn order", "detail": ""}
    v = count_verdict(_edges(positions), positions=positions, robust=ROBUST, **kw)
    assert "corrected for picking the largest of the 5 positions" in v.answer
    assert "No position is 2 pp or more off" in v.answer  # 2.3 clears 0 only uncorrected
    assert v.recommendation == ""
    big = pl.concat([family([9.0, -9.0], players=2), family([0.5, 0.2, -0.4], players=3)])
    v = count_verdict(_edges(big), positions=big, robust=ROBUST, **kw)
    assert v.recommendation.startswith("Position 0 at 2 players is ahead by +9.0 pp")
    v = count_verdict(_edges(big), positions=big, robust=FRAGILE, **kw)
    assert v.recommendation == ""
    assert "not robust" in v.answer


def test_largest_claim_breaks_ties_by_order_and_never_picks_a_missing_estimate():
    assert largest_claim(family([3.0, -3.0]))["position"] == 0
    nan = family([float("nan")]).with_columns(pl.lit(2, dtype=pl.Int64).alias("position"))
    f = family([1.0, 2.0]).vstack(nan)
    assert largest_claim(f)["position"] == 1
