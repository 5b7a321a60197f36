"""Horno's page-1 numbers as data: every verdict carries the number behind its answer as
an :class:`~analysis.estimates.Estimate` (quantity, subject, count, field, card set,
interval, n and its unit, method, family), its printed estimate line and n are derived
from it, and page 1's order (``size``) is what it was before the numbers became data."""

from __future__ import annotations

import math

import polars as pl
import pytest

from analysis.estimates import Estimate, clear_size
from analysis.horno import verdicts as hv
from analysis.sections import Results, Verdict

TYPES = ["Pizza", "Yakitori", "Hamburguesa", "Sopa", "Burrito"]


def _positions(edges: dict[int, list[float]], half: float = 1.0) -> pl.DataFrame:
    """A position table (``analysis.horno.seats.position_table``'s columns that the
    verdicts read): one row per position per count, 5,000 games each."""
    rows = [{"players": n, "position": p, "games": 5000, "win_share": 1 / n + e / 100,
             "edge_pp": e, "edge_low": e - half, "edge_high": e + half, "shared": 0.01,
             "same_as_seat": True}
            for n, es in edges.items() for p, e in enumerate(es)]  # fmt: skip
    return pl.DataFrame(rows)


def _own(shift: float = 0.0) -> pl.DataFrame:
    """Own points at 2 and 3 players: Hamburguesa yields the most per dish taken."""
    rows = []
    for n in (2, 3):
        for t, (name, yld) in enumerate(
            zip(TYPES, [10.2, 8.1, 11.0 + shift, 9.0, 9.5], strict=True)
        ):
            excess = yld - 9.56
            rows.append({"players": n, "type": t, "type_name": name, "games": 400,
                         "taken": 300, "completed": 200 - 10 * t, "completion": 0.66,
                         "completion_low": 0.6, "completion_high": 0.7, "per_dish": 13.0,
                         "per_dish_low": 12.5, "per_dish_high": 13.5, "yield": yld,
                         "yield_low": yld - 0.4, "yield_high": yld + 0.4, "excess": excess,
                         "excess_low": excess - 0.3, "excess_high": excess + 0.3})  # fmt: skip
    own = pl.DataFrame(rows)
    return own.with_columns(
        pl.col("yield").rank("ordinal", descending=True).over("players").alias("rank")
    )


def _values(values: list[float], unit: str, half: float = 1.5) -> pl.DataFrame:
    """Restricted play (``unit`` deals) or replacement (games) at 3 players."""
    return pl.DataFrame({
        "players": [3] * 5, "type": list(range(5)), "type_name": TYPES,
        unit: [600] * 5, "value_pp": values, "value_low": [v - half for v in values],
        "value_high": [v + half for v in values], "plain_points": [13] * 5,
    })  # fmt: skip


def _changes(variant: str, score: float, deals: int = 500) -> list[dict]:
    """A variant's changes at 3 players, every outcome moved (no exact-test wording)."""
    return [{"variant": variant, "block": "b", "players": 3, "measure": m, "deals": deals,
             "default": 0.0, "variant_value": c, "change": c, "low": c - 0.3, "high": c + 0.3,
             "nonzero": deals, "positive": deals, "negative": 0, "sign_p": 0.001}
            for m, c in (("score", score), ("margin", 0.5), ("pos0", 0.01),
                         ("differs", 0.9))]  # fmt: skip


def results(**drop: bool) -> Results:
    """A study's tables, every verdict answered (``drop``: tables to leave out)."""
    main = _positions({2: [3.0, -3.0], 3: [-1.0, -4.0, 5.0], 4: [1.0, 0.5, -0.5, -1.0]})
    greedy = _positions({2: [2.5, -2.5], 3: [-0.5, -3.0, 3.5], 4: [0.5, 0.0, 0.0, -0.5]})
    sets = {"assumed v1": main, "v1-harsh": greedy}
    tables = {
        "positions": {"heuristic field": main, "greedy field": greedy},
        "set_positions": sets,
        "own": _own(),
        "set_rankings": {"assumed v1": _own(), "v1-harsh": _own(0.5)},
        "avoid": _values([4.0, -1.0, 1.0, 0.0, 2.0], "deals"),
        "replacement": _values([1.0, 0.5, 5.2, -2.0, 0.0], "games"),
        "restrictions": pl.DataFrame({
            "restriction": ["never sabotages", "never steals"], "players": [3, 3],
            "deals": [600, 600], "edge_pp": [-6.0, -12.0], "edge_low": [-8.5, -14.0],
            "edge_high": [-3.5, -10.0], "points": [0.3, -4.0], "points_low": [-0.5, -4.8],
            "points_high": [1.1, -3.2], "differs": [1.0, 1.0],
        }),
        "damage": pl.DataFrame({
            "players": [3], "games": [400], "lost": [6.2], "lost_low": [5.8],
            "lost_high": [6.6], "share": [0.25], "share_low": [0.23], "share_high": [0.27],
        }),
        "radio": pl.DataFrame({
            "players": [3], "games": [400], "bonus": [1.8], "bonus_low": [1.5],
            "bonus_high": [2.1], "penalty": [2.4], "penalty_low": [2.0],
            "penalty_high": [2.8], "share": [0.097],
        }),
        "radio_changes": pl.DataFrame(
            _changes("no radioactive cards", -3.48) + _changes("radioactive_bonus = each", 0.4)
        ),
        "set_checks": pl.DataFrame({
            "check": ["first player's edge at 2 players", "Hamburguesa (highest points per "
                      "dish taken on assumed v1) against the average dish at 3 players"],
            "label": ["robust", "not robust: weaker in v1-harsh"],
            "detail": ["above 0 in every card set", "weaker in v1-harsh"],
            "robust": [True, False], "level": [False, False], "sign": [1, 0],
            "conditions": [2, 2],
        }),
        "rating_gaps": pl.DataFrame({
            "players": [4, 4, 4], "a": ["heuristic", "heuristic", "greedy"],
            "b": ["greedy", "random", "random"], "gap": [115.0, 600.0, 480.0],
            "low": [104.0, 560.0, 440.0], "high": [126.0, 640.0, 520.0],
            "win": [0.66, 0.95, 0.9], "deals": [750, 750, 750],
            "top_vs_bottom": [False, True, False],
        }),
        "ratings": pl.DataFrame({
            "players": [4, 4, 4], "strategy": ["heuristic", "greedy", "random"],
            "rating": [300.0, 185.0, -485.0],
        }),
    }  # fmt: skip
    for name in drop:
        tables.pop(name)
    return Results(out=None, manifest={"study": {"arms": []}}, game="horno", report=None,
                   tables=tables)  # fmt: skip


OVERRIDDEN = {"Do the answers hang on the assumed card list?"}
"""Verdicts whose printed line is stated, not :meth:`Estimate.text`: a count of checks."""
OWN = {f.__name__ for f in (hv.seats_verdict, hv.dishes_verdict, hv.sabotage_verdict,
                            hv.radioactive_verdict, hv.cardsets_verdict)}  # fmt: skip
"""The verdicts Horno states itself (the player-count and ratings verdicts are the shared
templates of :mod:`analysis.verdicts`, which name no field)."""


def _check(v: Verdict, own: bool = True) -> None:
    x = v.value
    assert isinstance(x, Estimate), v.question
    assert all(math.isfinite(float(y)) for y in (x.estimate, x.low, x.high)), x
    assert x.low <= x.estimate <= x.high, x
    assert x.n > 0 and x.quantity and x.n_unit and x.unit and x.method, x
    assert x.family >= 1, x
    if own:
        assert x.field == "heuristic" and x.data, x
    assert (v.n, v.n_unit) == (x.n, x.n_unit), v.question
    if v.question not in OVERRIDDEN:
        assert v.estimate == x.text(), v.question


@pytest.mark.parametrize(
    "drop",
    [{}, {"avoid": True}, {"avoid": True, "replacement": True}],
    ids=["restricted-play", "replacement", "own-points"],
)
def test_every_verdict_carries_its_number_as_data(drop):
    r = results(**drop)
    for f in hv.VERDICTS:
        v = f(r)
        assert v is not None, f.__name__
        _check(v, own=f.__name__ in OWN)


def test_the_fixtures_of_the_verdict_tests_carry_their_numbers():
    """The seat and player-count verdicts on test_horno_verdicts.py's positions alone."""
    main = _positions({2: [10.0, -10.0], 3: [-1.0, -4.0, 5.0]})
    r = Results(out=None, manifest={}, game="horno", report=None,
                tables={"positions": {"heuristic field": main}})  # fmt: skip
    _check(hv.seats_verdict(r))
    _check(hv.count_verdict(r), own=False)


def test_the_estimate_lines():
    r = results()
    seats = hv.seats_verdict(r)
    assert seats.estimate.startswith("position 2 at 3 players: +5.0 pp [")
    assert seats.estimate.endswith("] over the fair share (corrected for picking the largest of 9)")
    assert seats.value.data == "assumed v1" and seats.value.family == 9
    assert "Bonferroni over the positions of every count" in seats.value.method
    dishes = hv.dishes_verdict(r)
    assert dishes.estimate.startswith("Pizza at 3 players: +4.0 pp [")
    assert dishes.estimate.endswith(
        "] of win share lost by a seat that may never take it (corrected for picking the "
        "largest of 5)"
    )
    assert (dishes.n, dishes.n_unit, dishes.value.quantity) == (
        600, "deals", "value of a dish type by restricted play"
    )  # fmt: skip
    assert hv.sabotage_verdict(r).estimate == (
        "a seat that never sabotages at 3 players: -6.0 pp [-8.5, -3.5] against the "
        "unrestricted seat"
    )
    radio = hv.radioactive_verdict(r)
    assert radio.estimate == (
        "with no radioactive cards at 3 players: -3.5 points [-3.8, -3.2] in the mean score "
        "per seat"
    )
    assert radio.value.estimate == -3.48  # the number as computed; printed to the unit
    sets = hv.cardsets_verdict(r)
    assert sets.estimate == "1 of 2 checks robust across 1 alternative card sets"
    assert (sets.value.estimate, sets.value.unit, sets.value.note) == (1.0, "checks", "of 2")


def test_own_points_and_replacement_stand_in_with_their_own_units():
    own = hv.dishes_verdict(results(avoid=True, replacement=True))
    assert own.value.unit == "points" and own.n_unit == "games" and own.size is None
    assert own.estimate.startswith("Hamburguesa at 3 players: +1.4 points [")
    assert own.estimate.endswith("per dish taken over the average dish (corrected for "
                                 "picking the largest of 5)")  # fmt: skip
    rep = hv.dishes_verdict(results(avoid=True))
    assert rep.value.quantity == "value of a dish type by replacement"
    assert rep.estimate.startswith("Hamburguesa at 3 players: +5.2 pp [")
    assert "] of win share to its takers (corrected" in rep.estimate


def test_page_one_order_is_the_corrected_interval_s_distance_from_0():
    r = results()
    for v in (hv.seats_verdict(r), hv.dishes_verdict(r)):
        assert v.size == clear_size(v.value.low, v.value.high)
    sab = hv.sabotage_verdict(r)
    assert sab.size == pytest.approx(3.5)
    assert hv.radioactive_verdict(r).size is None and hv.cardsets_verdict(r).size is None
