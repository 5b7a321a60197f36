"""The report text lint (tests/report_lint.py) catches each kind of leak it looks for and
passes plain prose; the per-game report tests run it on the reports they build."""

from __future__ import annotations

import pytest

from tests.report_lint import lint

CLEAN = (
    "At 4 players the first slicer is +2.3 pp [+0.4, +4.1] ahead (2,000 games); the rule "
    "super_sized_combo_halves = 3 and the study mine.toml, e.g. see docs/rules/nyslice.md. "
    "'no effect' means every interval lies within the bound; 'not checked': none. "
    "8 of 39 cells are flagged."
)


def test_plain_prose_with_documented_names_passes():
    assert lint([CLEAN, "Appendix: 8 of 39 cells"], "nyslice") == []


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("the special double_pepperoni_x wins", "code name 'double_pepperoni_x'"),
        ("field MIXED_EQUILIBRIA is used", "constant 'MIXED_EQUILIBRIA'"),
        ("read players.position per game", "dotted code name 'players.position'"),
        ("complete: True", "Python literal 'True'"),
        ("the blocks ['seats', 'ladder'] are missing", "Python literal"),
        ("{'a': 1}", "Python literal"),
        ("data in /home/build/slicelab/data/x", "absolute path '/home/build/slicelab/data/x'"),
    ],
)
def test_each_leak_is_named(text, fragment):
    problems = lint([text], "nyslice")
    assert any(fragment in p for p in problems), problems


def test_the_reports_own_paths_are_allowed():
    text = "Regenerate: slicelab report /tmp/abc/mine.toml --data /tmp/abc/d --out r.pdf"
    assert lint([text], "nyslice") != []
    assert lint([text], "nyslice", ("/tmp/abc/mine.toml", "/tmp/abc/d")) == []


def test_counts_that_disagree_between_sections_are_named():
    problems = lint(["15 of 39 cells are flagged", "Appendix: 16 of 45 cells"], "nyslice")
    assert any("counted differently" in p for p in problems), problems
    problems = lint(["15 of 39 cells are flagged", "Appendix: 16 of 39 cells"], "nyslice")
    assert any("disagree" in p for p in problems), problems
