"""The shared what-if template (analysis.whatif) on arrays with a known answer: the change
table's means and paired t intervals, its sample-size columns, the sentence, the headline
rows and their estimates, the printed table and the dumbbell chart."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure

from analysis.estimates import Estimate
from analysis.sections import paired_cells
from analysis.whatif import (
    CHANGE_SCHEMA,
    SIZE_COLUMNS,
    change_at,
    change_frame,
    change_headlines,
    change_row,
    change_sentence,
    change_table,
    plot_changes,
    stack,
)

T3 = 3.1824463052837078
"""The 97.5% quantile of Student's t with 3 degrees of freedom (four deals)."""
BEFORE = [0.0, 1.0, 2.0, 3.0]  # mean 1.5, variance 5/3
AFTER = [1.0, 1.0, 4.0, 6.0]  # mean 3.0, variance 6; after − before: [1, 0, 2, 3]
HALF_BEFORE = T3 * math.sqrt(5 / 3) / 2  # t × sd / √n
HALF_AFTER = T3 * math.sqrt(6) / 2
HALF_CHANGE = T3 * math.sqrt(5 / 3) / 2  # the differences' variance is 5/3 too


def _known() -> pl.DataFrame:
    """Two counts of one measure and one of another: 2p the arrays above; 3p a change of
    exactly +2 on every one of 120 deals (from a mean of 59.5); a points measure at 2p."""
    base = np.arange(120, dtype=float)
    return change_table([
        change_row(2, "edge", BEFORE, AFTER),
        change_row(3, "edge", base, base + 2),
        change_row(2, "worth", AFTER, BEFORE, unit="points"),
    ])  # fmt: skip


def test_a_row_is_the_means_and_the_paired_interval():
    x = change_row(4, "edge", BEFORE, AFTER)
    assert {k: x[k] for k in ("players", "measure", "unit", "n")} == {
        "players": 4, "measure": "edge", "unit": "pp", "n": 4}  # fmt: skip
    expected = {
        "before": 1.5, "before_low": 1.5 - HALF_BEFORE, "before_high": 1.5 + HALF_BEFORE,
        "after": 3.0, "after_low": 3.0 - HALF_AFTER, "after_high": 3.0 + HALF_AFTER,
        "change": 1.5, "change_low": 1.5 - HALF_CHANGE, "change_high": 1.5 + HALF_CHANGE,
    }  # fmt: skip
    assert {k: x[k] for k in expected} == pytest.approx(expected, rel=1e-12)
    # the change's interval is paired: narrower than the two levels' would give unpaired
    assert x["change_high"] - x["change_low"] < (HALF_BEFORE + HALF_AFTER) * 2


def test_a_row_needs_paired_arrays_and_two_deals_for_an_interval():
    with pytest.raises(ValueError, match="not paired"):
        change_row(2, "edge", [1.0, 2.0], [1.0, 2.0, 3.0])
    one = change_row(2, "edge", [1.0], [4.0])
    assert (one["n"], one["change"]) == (1, 3.0)
    assert math.isnan(one["change_low"]) and math.isnan(one["change_high"])


def test_a_rule_that_changes_nothing_changes_nothing_exactly():
    x = change_table([change_row(2, "edge", BEFORE * 30, BEFORE * 30)]).row(0, named=True)
    assert (x["change"], x["change_low"], x["change_high"]) == (0.0, 0.0, 0.0)
    assert x["before"] == x["after"] == 1.5 and x["warning"] == ""


def test_the_table_has_the_schema_its_rows_order_and_sample_size_columns():
    t = _known()
    assert dict(t.schema) == {**CHANGE_SCHEMA, "half_width": pl.Float64,
                              "games_for_1pp": pl.Int64, "warning": pl.String}  # fmt: skip
    assert t.columns[-3:] == list(SIZE_COLUMNS)
    assert t.select("players", "measure", "unit", "n", "n_unit").rows() == [
        (2, "edge", "pp", 4, "deals"), (3, "edge", "pp", 120, "deals"),
        (2, "worth", "points", 4, "deals")]  # fmt: skip
    small, exact = t.row(0, named=True), t.row(1, named=True)
    assert small["half_width"] == pytest.approx(HALF_CHANGE, rel=1e-12)
    assert small["games_for_1pp"] == math.ceil(4 * HALF_CHANGE**2)
    assert small["warning"] == "only 4 deals (< 100)"
    # +2 on every deal: a zero-width interval at +2, nothing to flag
    assert (exact["change"], exact["change_low"], exact["change_high"]) == pytest.approx(
        (2.0, 2.0, 2.0), abs=1e-12)  # fmt: skip
    assert exact["before"] == 59.5 and exact["warning"] == ""
    games = change_table([change_row(2, "edge", BEFORE, AFTER)], "games")
    assert games["n_unit"].to_list() == ["games"]
    assert games["warning"].to_list() == ["only 4 games (< 100)"]
    assert change_table([]).height == 0


def test_rows_are_looked_up_and_stacked():
    t = _known()
    assert change_at(t, 2, "worth")["before"] == 3.0
    assert change_at(t, 4, "edge") is None
    extra = t.with_columns(pl.lit(1).alias("other"))  # a game's own extra column
    both = stack([extra, None, t.filter(pl.col("measure") == "worth")])
    assert both.columns == [*CHANGE_SCHEMA, *SIZE_COLUMNS]
    assert both["measure"].to_list() == ["edge", "edge", "worth", "worth"]
    assert stack([None, None]) is None


def test_the_sentence_lists_every_count_and_groups_them_by_the_change():
    t = _known()
    assert change_sentence(t, "edge", "With the change, the edge (pp)") == (
        "With the change, the edge (pp): 2p +1.5 → +3.0 (change +1.5 pp [-0.6, +3.6]); 3p "
        "+59.5 → +61.5 (change +2.0 pp [+2.0, +2.0]); higher at 3 players; no measurable "
        "change at 2 players."
    )
    assert (f"{1.5 - HALF_CHANGE:+.1f}", f"{1.5 + HALF_CHANGE:+.1f}") == ("-0.6", "+3.6")
    # unsigned levels, the row's unit, and a fall
    assert change_sentence(t, "worth", "Weaker, its worth", signed=False) == (
        f"Weaker, its worth: 2p 3.0 → 1.5 (change -1.5 points [{-1.5 - HALF_CHANGE:+.1f}, "
        f"{-1.5 + HALF_CHANGE:+.1f}]); no measurable change at 2 players."
    )
    falls = change_table([change_row(2, "eaten", [47.0, 46.0, 48.0], [40.0, 39.0, 41.0])])
    assert "2p 47.0 → 40.0 (change -7.0 pp [-7.0, -7.0]); lower at 2 players." in (
        change_sentence(falls, "eaten", "x", signed=False))  # fmt: skip
    assert change_sentence(t, "absent", "x") == ""


def test_headlines_carry_the_estimate_of_each_count():
    t = _known()
    rows = change_headlines(
        t, "5 What-if", "edge", lambda x: f"{x['players']} players: from {x['before']:+.1f}",
        "change in the edge", field="heuristic", method="paired by deal",
    )  # fmt: skip
    assert [h["finding"] for h in rows] == ["2 players: from +1.5", "3 players: from +59.5"]
    assert rows[0]["value"] == Estimate(
        "change in the edge", 1.5, 1.5 - HALF_CHANGE, 1.5 + HALF_CHANGE, 4, "deals",
        unit="pp", players=2, field="heuristic", method="paired by deal")  # fmt: skip
    assert rows[0]["estimate"] == rows[0]["value"].interval() == (
        f"+1.5 pp [{1.5 - HALF_CHANGE:+.1f}, {1.5 + HALF_CHANGE:+.1f}]")  # fmt: skip
    assert (rows[0]["games"], rows[0]["unit"], rows[0]["question"]) == (4, "deals", "5 What-if")
    assert [h["warning"] for h in rows] == ["only 4 deals (< 100)", ""]
    quiet = change_headlines(t, "q", "worth", lambda x: "", "change in the worth", warn=False)
    assert quiet[0]["warning"] == "" and quiet[0]["value"].unit == "points"


def test_the_sample_size_cells_of_a_change_table():
    cells = paired_cells(_known().filter(pl.col("measure") == "edge"),
                         lambda x: f"{x['players']}p edge", n="n")  # fmt: skip
    assert [(c["number"], c["games"], c["warning"]) for c in cells] == [
        ("2p edge", 4, "only 4 deals (< 100)"), ("3p edge", 120, "")]  # fmt: skip
    assert cells[0]["± (pp)"] == pytest.approx(HALF_CHANGE, rel=1e-12)


def test_the_printed_table():
    shown = change_frame(_known(), {"edge": "the edge", "worth": "its worth"},
                         ("printed", "changed", "change"), (".2f", ".2f", "+.2f"))  # fmt: skip
    assert shown.columns == ["players", "measure", "printed", "changed", "change", "deals",
                             "warning"]  # fmt: skip
    lo, hi = 1.5 - HALF_CHANGE, 1.5 + HALF_CHANGE
    assert shown.row(0) == (
        "2", "the edge", f"1.50 [{lo:.2f}, {hi:.2f}]",
        f"3.00 [{3 - HALF_AFTER:.2f}, {3 + HALF_AFTER:.2f}]", f"+1.50 [{lo:+.2f}, {hi:+.2f}]",
        "4", "only 4 deals (< 100)",
    )  # fmt: skip
    assert shown.row(1)[0:2] == ("3", "the edge") and shown.row(1)[4] == "+2.00 [+2.00, +2.00]"
    with pytest.raises(pl.exceptions.InvalidOperationError):
        change_frame(_known(), {"edge": "the edge"})  # every measure needs its words


def test_the_dumbbell_has_a_panel_per_measure():
    fig = Figure()
    axes = fig.subplots(1, 2)
    plot_changes(axes, _known(), {"edge": "the edge", "worth": "its worth"}, zero=("edge",))
    edge, worth = axes
    assert [edge.get_title(), worth.get_title()] == ["the edge", "its worth"]
    assert [x.get_text() for x in edge.get_xticklabels()] == ["2p", "3p"]
    assert edge.get_xlim() == (-0.5, 1.5)
    zero = lambda ax: [ln for ln in ax.get_lines() if list(ln.get_ydata()) == [0, 0]]  # noqa: E731
    assert len(zero(edge)) == 1 and not zero(worth)
    # before open (white face), after filled in the count's colour, an arrow between
    faces = [ln.get_markerfacecolor() for ln in edge.get_lines() if ln.get_marker() == "o"]
    assert faces[0] == "white" and faces[1] != "white"
    assert len(edge.texts) == 2  # one arrow a count
    fig = Figure()
    (ax,) = fig.subplots(1, 1, squeeze=False)[0]
    plot_changes([ax], _known(), {"worth": "its worth"}, ticks="{} players", title="open: before")
    assert (ax.get_title(), ax.get_ylabel()) == ("open: before", "its worth")
    assert [x.get_text() for x in ax.get_xticklabels()] == ["2 players"]
