"""Pizza Theory's page-1 numbers as data: every verdict the game's verdict functions
return from the synthetic fixtures of the analysis and null tests carries its number as an
:class:`~analysis.estimates.Estimate` (finite estimate and interval, its n and the unit n
counts, what it measures, the count and field it is at, the board it was played on), and
the estimate line page 1 prints is that row's :meth:`~analysis.estimates.Estimate.text`.
The quick dataset's verdicts are checked the same way in the report tests."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.estimates import Estimate
from analysis.load import manifest
from analysis.pizzatheory import length, verdicts
from analysis.robust import Condition
from analysis.sections import Verdict
from tests.games.pizzatheory.test_pizzatheory_analysis import (
    FAIR3,
    _conds,
    _hand_made,
    _opening_table,
    _paired_safety,
    _positions,
    _results,
    compute_results,
)
from tests.games.pizzatheory.test_pizzatheory_nulls import _board_study, _board_verdict


def check_value(v: Verdict) -> Estimate:
    """A verdict's value is complete and is what its estimate line, n and unit print."""
    x = v.value
    assert isinstance(x, Estimate), v.question
    assert x.finite, (v.question, x)
    assert x.low <= x.estimate <= x.high, (v.question, x)
    assert x.n > 0 and x.quantity and x.n_unit and x.unit, (v.question, x)
    assert v.estimate == x.text(), v.question
    assert (v.n, v.n_unit) == (x.n, x.n_unit), v.question
    assert x.players is not None and x.field and x.data and x.method, (v.question, x)
    return x


def _seat_results():
    mixed = _positions(-5.0, -8.0, -2.0)
    rand = _positions(-3.0, -6.0, -1.0)
    heur = _positions(200 / 3, 200 / 3, 200 / 3, det=True, games=200)
    det_main = _positions(-FAIR3, -FAIR3, -FAIR3, det=True)
    for tables in (
        {"mixed field": mixed, "random field": rand, "heuristic field": heur},
        {"mixed field": mixed, "heuristic field": heur},
        {"mixed field": mixed, "random field": _positions(1.0, -2.0, 4.0)},
        {"mixed field": det_main, "random field": rand},
    ):
        yield _results(positions=tables, first_conditions=_conds(tables))


def test_every_seat_verdict_carries_its_first_starter_edge():
    found = [verdicts.seats_verdict(r) for r in _seat_results()]
    for v in found:
        x = check_value(v)
        assert (x.quantity, x.unit, x.subject, x.players) == (
            "win share − fair share",
            "pp",
            "the first starter",
            3,
        )
        # the largest edge of the 3 positions at 3 players, corrected for picking it
        assert x.note == "over the fair share" and x.family == 3 and x.data == "hex-37"
    assert [v.value.field for v in found] == ["mixed", "mixed", "mixed", "random"]
    assert found[0].estimate == (
        "the first starter at 3 players: -5.0 pp [-8.7, -1.3] over the fair share (corrected "
        "for picking the largest of 3)"
    )


def test_every_opening_verdict_carries_the_blind_seat_s_value():
    for edge in ((-4.0, -6.0, -2.0), (3.0, 1.0, 5.0), (0.5, -1.0, 2.0)):
        e, lo, hi = edge
        conds = {3: [Condition("field", "mixed field", e, lo, hi, 3000, "deals")]}
        for c in (conds, {}):
            v = verdicts.opening_verdict(
                _results(opening=_opening_table(edge), opening_conditions=c)
            )
            x = check_value(v)
            assert (x.estimate, x.low, x.high, x.n, x.n_unit) == (e, lo, hi, 3000, "deals")
            assert x.unit == "pp" and x.field == "mixed" and x.players == 3
    v = verdicts.opening_verdict(
        _results(opening=_opening_table((-4.0, -6.0, -2.0)), opening_conditions={})
    )
    assert v.estimate == (
        "the blind seat at 3 players: -4.0 pp [-6.0, -2.0] against an unrestricted seat"
    )


def test_the_length_verdict_carries_the_rounds_a_game(tmp_path):
    out = _hand_made(tmp_path)
    lengths, endings = length.game_length(out, manifest(out), {"mixed field": "seats"})
    none = endings.with_columns(
        pl.when(pl.col("ending") == 2).then(0).otherwise(pl.col("count")).alias("count")
    )
    for e in (endings, none):
        v = verdicts.length_verdict(_results(lengths=lengths, endings=e))
        x = check_value(v)
        assert (x.quantity, x.unit, x.players, x.n, x.n_unit) == (
            "rounds a game",
            "rounds",
            3,
            5,
            "games",
        )
        assert v.estimate == "at 3 players: 45.6 rounds [-61.6, 152.8] a game"
        assert v.size is None  # a length is no imbalance: page 1 keeps it in reading order


def test_the_safety_verdict_carries_its_largest_position_change(tmp_path):
    rng = np.random.default_rng(4)
    deals = 3000
    on = rng.integers(0, 3, deals)
    off = np.where((on != 0) & (rng.random(deals) < 1 / 3), 0, on)
    rounds = list(7 + rng.integers(0, 3, deals))
    for name, without in (("a", off), ("b", on)):  # a planted change; the null
        out = _paired_safety(tmp_path / name, on, without, off_rounds=rounds)
        r = compute_results(out)
        v = verdicts.safety_verdict(r)
        x = check_value(v)
        claim = r.tables["safety_effect"].filter(
            (pl.col("measure") == "position") & (pl.col("players") == x.players)
        )
        assert x.family == claim.height == 3 and x.rules == "safety = false"
        assert x.n == deals and x.n_unit == "deals" and x.unit == "pp"
        assert x.subject.startswith("position ") and x.note == "without the rule"
        assert v.size is None  # a candidate change, not an imbalance of the game
    # without a safety-off block there is no number to carry: not measured, and said so
    t = pl.DataFrame([{"field": "mixed field", "block": "seats", "players": 3,
                       "measure": "fired", "estimate": 0.9, "low": 0.85, "high": 0.95,
                       "games": 500, "distinct": 500, "deterministic": False, "count": 450,
                       "safety_rule": True}])  # fmt: skip
    v = verdicts.safety_verdict(_results(safety=t))
    assert v.value is None and v.estimate == "not measured" and v.n == 0


@pytest.mark.parametrize("shift", [0.0, 0.15])
def test_the_board_verdict_carries_its_largest_corrected_change(tmp_path, shift):
    out = _board_study(tmp_path / "d", np.random.default_rng(7), shift, ("mixed", "random"))
    _, v = _board_verdict(out)
    x = check_value(v)
    assert x.family == 9 and x.players == 3 and x.unit == "pp" and x.n_unit == "games"
    assert x.quantity == "change in win share against hex-37" and x.field == "mixed"
    assert x.data == f"{x.subject.split(' on ')[1]} against hex-37"
    assert v.estimate.endswith("(corrected for picking the largest of 9)")
    assert v.size is None  # a candidate board, not an imbalance of the game
