"""Planted truth for the three estimands of special strength.

Stuffed Crust's points are a what-if option (``stuffed_crust_points``) that greedy and the
heuristic do not read: they keep valuing the tile at its printed +5. Worth a flat +20, the
tile must come out strong by every estimand (own points, restricted-play value, value to
the taker); worth −20 — a poisoned tile the players still take for +5 — it must come out
harmful by every one. Real games, played by the kernel through a study.
"""

from __future__ import annotations

import textwrap

import polars as pl
import pytest

from analysis.nyslice.specials import interventional, own_points, restricted_play
from sims.batch import run_study
from sims.core.study import load_study

STUDY = """
name = "planted-{points}"
seed = 11
[[arms]]
name = "seats"
game = "nyslice"
players = 4
strategies = "heuristic"
games = 600
[arms.rules]
stuffed_crust_points = {points}
[[arms]]
name = "specials"
game = "nyslice"
players = 4
strategies = "heuristic"
games = 600
blank = "stuffed_crust"
[arms.rules]
stuffed_crust_points = {points}
[[arms]]
name = "restricted"
game = "nyslice"
players = 4
strategies = ["heuristic(avoid=stuffed_crust)", "heuristic", "heuristic", "heuristic"]
rotate = true
games = 300
[arms.rules]
stuffed_crust_points = {points}
"""


@pytest.fixture(scope="module", params=[20, -20], ids=["worth-plus-20", "worth-minus-20"])
def planted(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"planted{request.param}")
    path = folder / "study.toml"
    path.write_text(textwrap.dedent(STUDY.format(points=request.param)))
    out = folder / "data"
    run_study(load_study(path), out, jobs=1)
    return request.param, out


def _row(table: pl.DataFrame) -> dict:
    return table.filter((pl.col("players") == 4) & (pl.col("special") == "stuffed_crust")).row(
        0, named=True
    )


def test_own_points_are_the_planted_points(planted):
    points, out = planted
    r = _row(own_points(out))
    assert r["games"] > 100
    assert r["own_points"] == points and r["points_low"] == r["points_high"] == points
    assert (r["own_low"] > 0) if points > 0 else (r["own_high"] < 0)


def test_restricted_play_value_has_the_planted_sign(planted):
    points, out = planted
    r = _row(restricted_play(out))
    assert (r["value_low"] > 0) if points > 0 else (r["value_high"] < 0)


def test_value_to_the_taker_has_the_planted_sign(planted):
    points, out = planted
    r = _row(interventional(out))
    assert (r["effect_low"] > 0) if points > 0 else (r["effect_high"] < 0)
