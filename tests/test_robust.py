"""Robust verdicts: the same sign, an interval clear of zero, in every condition checked
(the full table of outcomes is in ``tests/test_robust_outcomes.py``)."""

from __future__ import annotations

import math

import pytest

from analysis.robust import Condition, conditions_table, judge, sign

NAN = math.nan


def _c(name: str, est: float, lo: float, hi: float, kind: str = "field") -> Condition:
    return Condition(kind, name, est, lo, hi, 100, "games")


@pytest.mark.parametrize(
    ("intervals", "expected", "robust", "sgn", "label", "detail"),
    [
        ([(2, 1, 3), (1, 0.5, 1.5), (4, 2, 6)], (), True, 1, "robust",
         "above zero in all 3 conditions (3 fields)"),
        ([(-2, -3, -1), (-1, -1.5, -0.5)], (), True, -1, "robust",
         "below zero in all 2 conditions (2 fields)"),
        ([(2, 1, 3), (0.5, -0.5, 1.5), (4, 2, 6)], (), False, 0, "not robust: weaker in b",
         "weaker in b (+0.5 pp [-0.5, +1.5]): covering 0 and not within ±1 pp, though narrow "
         "enough for a's +2.0 pp to have cleared 0"),
        ([(2, 1, 3), (-1, -2, -0.5), (4, 2, 6)], (), False, 0, "not robust: sign flips",
         "the sign flips: above zero in a (+2.0 pp [+1.0, +3.0]) and c (+4.0 pp [+2.0, +6.0]), "
         "below in b (-1.0 pp [-2.0, -0.5])"),
        ([(2, 1, 3), (NAN, NAN, NAN)], (), False, 0, "not robust: too few games",
         "too few games to tell: no interval in b"),
        ([(2, 1, 3), (3, 2, 4)], ("a", "b", "search field"), False, 0, "not fully checked",
         "above zero in all 2 conditions computed, but not checked in search field"),
    ],
)  # fmt: skip
def test_judge(intervals, expected, robust, sgn, label, detail):
    conds = [_c(name, *iv) for name, iv in zip("abc", intervals, strict=False)]
    r = judge(conds, expected)
    assert (r.robust, r.sign, r.label, r.detail) == (robust, sgn, label, detail)


def test_no_conditions_is_not_checked():
    assert judge([]).label == "not checked"


def test_sign_and_table():
    assert [sign(1, 2), sign(-2, -1), sign(-1, 1), sign(NAN, 1)] == [1, -1, 0, 0]
    t = conditions_table({"h": [_c("a", 2, 1, 3), _c("d1", -1, -2, 1, "deck")]})
    assert t["sign"].to_list() == [1, 0]
    assert t["vetoes"].to_list() == [True, True]
    assert t["kind"].to_list() == ["field", "deck"]
