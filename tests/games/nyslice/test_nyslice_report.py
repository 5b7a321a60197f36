"""New York Slice's report as content blocks: every section is laid out by the typesetter
(no page drawn by coordinates), and the seats section's robustness text, however long,
leaves its chart the size it was set."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.content import Heading, Plot, Prose
from analysis.nyslice import report
from analysis.nyslice.report import REPORT
from analysis.sections import Results

# the seats section reads the same session dataset as the report tests
pytestmark = pytest.mark.xdist_group("nyslice-report")


def test_every_section_gives_blocks():
    for s in REPORT.sections:
        assert s.blocks is not None, s.label


@pytest.fixture(scope="module")
def seats_results(nyslice_quick_results) -> Results:
    """The tables the seats section reads: its own and the ratings its text cites. They are
    the report's analyses of the quick dataset, computed once for this group
    (``nyslice_quick_results`` in conftest.py; the seats and ratings sections read no report
    option), not computed again here."""
    r = nyslice_quick_results
    assert {"seat", "fairness", "first_conditions", "ratings"} <= set(r.tables)
    return r


def test_long_robustness_text_leaves_the_seats_chart_alone(seats_results, monkeypatch):
    r = seats_results
    blocks = report._seats_blocks(r, 1)
    assert isinstance(blocks[0], Heading) and blocks[0].level == 1
    plots = [b for b in blocks if isinstance(b, Plot)]
    assert len(plots) == 2
    for p in plots:
        assert p.figure.get_layout_engine() is not None
        assert all(ax.get_subplotspec() is not None for ax in p.figure.axes)
    judged = report._judged_first

    def wordy(r: Results) -> pl.DataFrame:
        return judged(r).with_columns(pl.col("detail").repeat_by(20).list.join("; "))

    monkeypatch.setattr(report, "_judged_first", wordy)
    long = report._seats_blocks(r, 1)
    detail = next(d for d in judged(r)["detail"] if d)
    assert any(b.text.count(detail) >= 20 for b in long if isinstance(b, Prose))
    assert [p.figure.get_size_inches().tolist() for p in long if isinstance(p, Plot)] == [
        p.figure.get_size_inches().tolist() for p in plots
    ]
