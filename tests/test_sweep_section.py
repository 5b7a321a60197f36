"""The shared parameter-sweep presentation (analysis.sweep_section) on hand-made tables of
a sweep of ``fewer`` with values of both signs: the listed set, the headline rows and
their estimates, the held-out gain in words, the sample-size cells, the grid notes and the
printed tables, each to the letter; and the same functions on a sweep computed by
:mod:`analysis.sweep`."""

from __future__ import annotations

import polars as pl
from analysis_fixtures import rotated_sweep

from analysis.estimates import Estimate
from analysis.sweep import best_value, sweep_curve
from analysis.sweep_section import (
    best_cells,
    best_headlines,
    best_table,
    grid_notes,
    held_out_edge,
    held_out_gain,
    set_text,
    sets_table,
)

NOTE_LOW = "the best fewer is the smallest tested (-2): extend it below -2"
NOTE_HIGH = "the best fewer is the largest tested (4): extend it above 4"

BEST = pl.DataFrame(
    {
        "players": [5, 4, 3, 2],  # not in order: the notes are stated by count
        "deals": [120, 200, 300, 400],
        "best_fewer": [-2.0, 4.0, -2.0, 1.0],
        "fewer_set": [[-2.0, -1.0], [4.0], [-2.0, 0.0, 1.4142], [0.5, 1.0]],
        "set_low": [-2.0, 4.0, -2.0, 0.5],
        "set_high": [-1.0, 4.0, 1.4142, 1.0],
        "win_share": [0.21234, 0.3, 0.33333, 0.6],
        "edge_pp": [1.234, 5.0, -3.0, 10.0],
        "edge_low": [-0.5, 2.46, -6.05, 8.0],
        "edge_high": [2.9, 7.61, 0.05, 12.0],
        "edge_in_sample_pp": [1.5, 5.55, -2.96, 10.04],
        "grid_note": [NOTE_LOW, NOTE_HIGH, NOTE_LOW, ""],
        "warning": ["interval covers 0: ≈4,000 deals", "", "interval covers 0: ≈900 deals", ""],
    }
)
"""A best-value table (:func:`analysis.sweep.best_value` with its sample-size columns)."""


def _row(players: int) -> dict:
    return BEST.filter(pl.col("players") == players).row(0, named=True)


def test_the_set_is_listed_in_its_shortest_form():
    assert set_text(_row(3), "fewer") == "-2, 0, 1.4142"
    assert set_text(_row(4), "fewer") == "4"


def test_the_held_out_edge_is_an_estimate_about_the_best_value():
    assert held_out_edge(_row(2), "fewer", "fewer", "heuristic") == Estimate(
        "held-out edge over the fair share at the best fewer", 10.0, 8.0, 12.0, 400, "deals",
        subject="fewer = 1", players=2, field="heuristic", method="deals not used to pick it",
    )  # fmt: skip
    assert held_out_edge(_row(3), "fewer", "f").subject == "f = -2"


def test_a_headline_row_per_count_carries_its_estimate_and_warning():
    rows = best_headlines(BEST, "4 Cutting fewer", "fewer", "fewer",
                          lambda x: held_out_edge(x, "fewer", "fewer", "heuristic"))  # fmt: skip
    assert [(x["question"], x["finding"], x["estimate"], x["games"], x["unit"], x["warning"])
            for x in rows] == [  # fmt: skip
        ("4 Cutting fewer", "5 players: best fewer -2 (not worse: -2, -1); held-out edge over "
         "the fair share", "+1.2 pp [-0.5, +2.9]", 120, "deals",
         "interval covers 0: ≈4,000 deals"),
        ("4 Cutting fewer", "4 players: best fewer 4 (not worse: 4); held-out edge over the "
         "fair share", "+5.0 pp [+2.5, +7.6]", 200, "deals", ""),
        ("4 Cutting fewer", "3 players: best fewer -2 (not worse: -2, 0, 1.4142); held-out "
         "edge over the fair share", "-3.0 pp [-6.0, +0.1]", 300, "deals",
         "interval covers 0: ≈900 deals"),
        ("4 Cutting fewer", "2 players: best fewer 1 (not worse: 0.5, 1); held-out edge over "
         "the fair share", "+10.0 pp [+8.0, +12.0]", 400, "deals", ""),
    ]  # fmt: skip
    assert rows[0]["value"] == held_out_edge(_row(5), "fewer", "fewer", "heuristic")
    assert best_headlines(None, "q", "fewer", "fewer", lambda x: held_out_edge(x, "a", "b")) == []


def test_a_headline_row_in_a_game_s_own_words():
    (row,) = best_headlines(BEST.filter(pl.col("players") == 4), "3 Eat", "fewer", "φ",
                            lambda x: held_out_edge(x, "fewer", "φ"),
                            set_words="not significantly worse",
                            edge_words="its edge on held-out deals")  # fmt: skip
    assert row["finding"] == ("4 players: best φ 4 (not significantly worse: 4); its edge on "
                              "held-out deals")  # fmt: skip
    assert row["value"].subject == "φ = 4"


def test_the_held_out_gain_is_worded_by_where_its_interval_lies():
    assert held_out_gain(_row(2), "fewer") == (
        "Choosing fewer this way gains +10.0 pp [+8.0, +12.0] over the fair share on deals not "
        "used to pick it")  # fmt: skip
    # an interval touching or covering 0, or none, gains nothing measurable
    assert held_out_gain(_row(5), "θ") == (
        "On deals not used to pick it, choosing θ this way gains nothing measurable over the "
        "fair share (+1.2 pp [-0.5, +2.9])")  # fmt: skip
    touching = {"edge_pp": 0.0, "edge_low": 0.0, "edge_high": 0.0}
    assert held_out_gain(touching, "θ").endswith("nothing measurable over the fair share "
                                                 "(+0.0 pp [+0.0, +0.0])")  # fmt: skip
    assert held_out_gain({"edge_pp": float("nan"), "edge_low": float("nan"),
                          "edge_high": float("nan")}, "θ").startswith("On deals")  # fmt: skip


def test_the_cells_are_the_best_value_s_win_share_in_pp():
    curve = pl.DataFrame({
        "players": [2, 2, 3, 3],
        "fewer": [0.5, 1.0, -2.0, 0.0],
        "deals": [400, 400, 300, 300],
        "half_width": [0.05, 0.0123, 0.02, 0.03],  # of a win share
        "games_for_1pp": [10000, 605, 1200, 2700],
        "warning": ["", "", "interval covers 0.333: ≈9 deals", ""],
    })  # fmt: skip
    assert best_cells(curve, BEST, "fewer", "fewer") == [
        {"number": "2p best fewer=1: seat win share (deals)", "games": 400, "± (pp)": 1.23,
         "games for ±1 pp": 605, "warning": ""},
        {"number": "3p best fewer=-2: seat win share (deals)", "games": 300, "± (pp)": 2.0,
         "games for ±1 pp": 1200, "warning": "interval covers 0.333: ≈9 deals"},
    ]  # fmt: skip
    assert best_cells(None, BEST, "fewer", "fewer") == []
    assert best_cells(curve, None, "fewer", "fewer") == []


def test_the_grid_notes_are_grouped_by_note_in_the_order_of_their_counts():
    assert grid_notes(BEST) == {NOTE_LOW: [3, 5], NOTE_HIGH: [4]}
    assert list(grid_notes(BEST)) == [NOTE_LOW, NOTE_HIGH]
    assert grid_notes(BEST.with_columns(pl.lit("").alias("grid_note"))) == {}


def test_the_best_table_lists_the_set_or_gives_its_ends():
    two = BEST.filter(pl.col("players") >= 4)
    listed = best_table(two, "fewer", "fewer")
    assert listed.columns == ["players", "deals", "best fewer", "not significantly worse",
                              "win share", "held-out edge (pp)", "in-sample edge (pp)",
                              "warning"]  # fmt: skip
    assert listed.rows() == [
        ("5", "120", "-2", "-2, -1", "0.212", "+1.2 [-0.5, +2.9]", "+1.5",
         "interval covers 0: ≈4,000 deals"),
        ("4", "200", "4", "4", "0.300", "+5.0 [+2.5, +7.6]", "+5.5", ""),
    ]  # fmt: skip
    ends = best_table(two, "fewer", "θ", listed=False)
    assert ends.columns == ["players", "deals", "best θ", "not worse: from", "to", "win share",
                            "held-out edge (pp)", "in-sample edge (pp)", "warning"]  # fmt: skip
    assert ends.rows()[0] == ("5", "120", "-2", "-2", "-1", "0.212", "+1.2 [-0.5, +2.9]", "+1.5",
                              "interval covers 0: ≈4,000 deals")  # fmt: skip


def test_the_sets_table_rounds_the_set_and_shows_an_edge_where_there_is_one():
    sets = pl.DataFrame({"condition": ["greedy field", "deck 1"], "best_theta": [1.4142, 2.0],
                         "set": [[1.0, 1.4142], [2.0]], "deals": [500, 80]})  # fmt: skip
    shown = sets_table(sets, "condition", "theta", "θ")
    assert shown.columns == ["condition", "best θ", "θ not significantly worse", "deals"]
    assert shown.rows() == [("greedy field", "1.4142", "1.0, 1.41", "500"),
                            ("deck 1", "2", "2.0", "80")]  # fmt: skip
    edges = sets.rename({"condition": "field"}).with_columns(
        pl.Series("edge_pp", [0.4, -1.0]), pl.Series("edge_low", [-0.5, -2.26]),
        pl.Series("edge_high", [1.3, 0.26]))  # fmt: skip
    shown = sets_table(edges, "field", "theta", "θ")
    assert shown.columns == ["field", "best θ", "θ not significantly worse",
                             "held-out edge (pp)", "deals"]  # fmt: skip
    assert shown.rows() == [("greedy field", "1.4142", "1.0, 1.41", "+0.4 [-0.5, +1.3]", "500"),
                            ("deck 1", "2", "2.0", "-1.0 [-2.3, +0.3]", "80")]  # fmt: skip


def test_the_parts_read_a_computed_sweep(tmp_path):
    """On :func:`analysis.sweep.best_value` and :func:`~analysis.sweep.sweep_curve` of a
    planted sweep (best at +1, well clear): one row, cell and table row a count."""
    out = rotated_sweep(tmp_path, {-1.0: 0.25, 0.0: 0.33, 1.0: 0.45, 2.0: 0.3}, "fewer",
                        deals=400)  # fmt: skip
    best = best_value(out, "fewer", "fewer")
    curve = sweep_curve(out, "fewer", "fewer")
    x = best.row(0, named=True)
    assert (x["players"], x["best_fewer"], x["fewer_set"]) == (3, 1.0, [1.0])
    (row,) = best_headlines(best, "q", "fewer", "fewer",
                            lambda x: held_out_edge(x, "fewer", "fewer"))  # fmt: skip
    assert row["finding"] == ("3 players: best fewer 1 (not worse: 1); held-out edge over the "
                              "fair share")  # fmt: skip
    assert row["value"].estimate == x["edge_pp"] and row["games"] == 400
    (cell,) = best_cells(curve, best, "fewer", "fewer")
    at_one = curve.filter(pl.col("fewer") == 1.0).row(0, named=True)
    assert cell == {"number": "3p best fewer=1: seat win share (deals)", "games": 400,
                    "± (pp)": 100 * at_one["half_width"],
                    "games for ±1 pp": at_one["games_for_1pp"],
                    "warning": at_one["warning"]}  # fmt: skip
    assert best_table(best, "fewer", "fewer")["not significantly worse"].to_list() == ["1"]
    assert grid_notes(best) == {}
