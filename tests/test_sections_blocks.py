"""The shared page builders of ``analysis.sections`` as content blocks.

Each block builder (``seat_blocks``, ``count_blocks``, ``count_table_blocks``,
``position_appendix_blocks``, ``count_appendix_blocks``) prints the numbers of its tables,
with its tables as :class:`~analysis.content.Table` blocks and its charts laid out by the
figure's layout engine, never placed by page coordinates (the drawn twins they were
checked against, number for number, when the reports moved to blocks are gone). The data:
a small High Card study (``tests/toy_game.py``), played once for the module.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import polars as pl
import pytest
from pypdf import PdfReader

import sims.core.game as core_game
from analysis import playercount, seats, sections
from analysis.content import Block, Document, Heading, Plot, Prose, Table, texts
from analysis.formats import ci_col, fmt
from analysis.report import compute
from analysis.typeset import typeset
from sims.batch import run_study
from sims.core.study import parse_study

NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
"""A number as printed (its sign aside: a paragraph and a cell may spell it differently)."""


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A High Card study of 2 and 3 players (the seats block at 60 games, so that some
    estimates carry a sample-size warning) and a rotated pair of strategies, computed."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(core_game.REGISTRY, "toy", "toy_game:GAME")
        core_game.get_game.cache_clear()
        arms = [
            {"name": "seats", "game": "toy", "players": [2, 3], "strategies": "greedy",
             "games": 60},
            {"name": "ladder", "game": "toy", "players": 2, "strategies": ["greedy", "random"],
             "rotate": True, "games": 30},
        ]  # fmt: skip
        study = parse_study({"name": "toy", "seed": 7, "chunk_size": 30, "arms": arms})
        out = tmp_path_factory.mktemp("blocks") / "toy"
        run_study(study, out)
        yield compute(out)
    core_game.get_game.cache_clear()


def numbers(strings: list[str]) -> Counter:
    """Every number in ``strings``, counted."""
    return Counter(n for s in strings for n in NUMBER.findall(s))


def plots(blocks: list[Block]) -> list[Plot]:
    return [b for b in blocks if isinstance(b, Plot)]


def tables(blocks: list[Block]) -> list[Table]:
    return [b for b in blocks if isinstance(b, Table)]


def assert_laid_out(blocks: list[Block]) -> None:
    """Every chart's axes are placed by its figure's layout engine (a subplot of its grid),
    none by page coordinates (``add_axes``)."""
    assert plots(blocks)
    for p in plots(blocks):
        assert p.figure.get_layout_engine() is not None
        assert p.figure.axes and all(ax.get_subplotspec() is not None for ax in p.figure.axes)


def shown(t: pl.DataFrame) -> pl.DataFrame:
    """A game's printed form of a position table."""
    t = ci_col(t, "win_share", "win_low", "win_high", "win share [95% CI]", ".3f")
    return fmt(t.select("players", "position", "games", "win share [95% CI]", "warning"), {})


POSITION_ARGS = {
    "short": lambda name: name.removesuffix(" field"),
    "what": "turn position",
    "widths": [0.1, 0.1, 0.1, 0.1, 0.25, 0.35],
    "intro": "Every field's win share by turn position, with its 95% interval over games.",
    "seat_widths": [0.1, 0.1, 0.1, 0.3, 0.4],
    "main": "the greedy field",
}


def with_positions(r: sections.Results, same_as_seat: bool) -> sections.Results:
    """``r`` with the tables a game's seats section computes for its appendix: two fields'
    position tables, the main field's by seat and the edges (``same_as_seat``: whether
    every position is the seat, which leaves the by-seat table out)."""
    t = seats.position_table(r.out, "seats", by="seat")
    edges = seats.edges(t).with_columns(pl.lit(same_as_seat).alias("same_as_seat"))
    extra = {"positions": {"greedy field": t, "other field": t.head(3)}, "by_seat": t,
             "position_edges": edges}  # fmt: skip
    return dataclasses.replace(r, tables={**r.tables, **extra})


def test_seat_blocks_print_the_fairness_table(results):
    r = results
    field = sections.field_text(r, r.seat_block)
    blocks = sections.seat_blocks(field, r.seat, r.fairness)
    assert not any(isinstance(b, Heading) and b.level == 1 for b in blocks)
    assert isinstance(blocks[0], Prose) and blocks[0].text.startswith(field)
    assert f"{r.fairness['max_edge_pp'].max():.1f} pp" in blocks[0].text
    assert Heading("Goodness of fit against fair shares", level=3) in blocks
    (table,) = tables(blocks)
    assert table.columns == ["players", "games", "χ²", "df", "p", "largest seat edge (pp)",
                             "seat 0 − fair (pp)", "warning"]  # fmt: skip
    assert len(table.rows) == r.fairness.height
    assert [row[2] for row in table.rows] == [f"{x:.2f}" for x in r.fairness["chi2"]]
    assert_laid_out(blocks)
    # the game's words reach the paragraph and the chart
    named = sections.seat_blocks(field, r.seat, r.fairness, "The dealer", "seat (0 = dealer)")
    assert "The dealer" in named[0].text
    assert plots(named)[0].figure.axes[0].get_xlabel() == "seat (0 = dealer)"


@pytest.mark.parametrize("with_table", [False, True])
def test_count_blocks_print_every_measure(results, with_table):
    c = results.count
    text = f"Every seat plays 'greedy'. Shared wins run from {sections.count_range(c, 'close')}."
    blocks = sections.count_blocks(text, c, with_table=with_table)
    assert blocks[0] == Prose(text)
    # 60 games a count: every estimate is flagged, and the warnings line says so
    warned = c.filter(pl.col("warning") != "")
    assert warned.height and blocks[-1].text.startswith("Warnings: ")
    names = playercount.LABELS  # each measure in words, never its column's name
    assert all(
        f"{p}p {names.get(m, m.replace('_', ' '))}: {w}" in blocks[-1].text
        for p, m, w in warned.select("players", "measure", "warning").iter_rows()
    )
    assert "shared_win" not in blocks[-1].text  # fmt: skip
    if with_table:
        (table,) = tables(blocks)
        assert table.columns == ["player count", *sections.count_table(c).columns[1:]]
        assert table.rows == [list(row) for row in sections.count_table(c).iter_rows()]
    else:
        assert not tables(blocks)
    assert_laid_out(blocks)
    # a panel for every measure (the drawn page had six places)
    (plot,) = plots(blocks)
    titled = [ax.get_title() for ax in plot.figure.axes if ax.get_title()]
    assert len(titled) == c["measure"].n_unique()


def test_count_blocks_give_every_measure_a_panel(results):
    c = results.count
    more = pl.concat([c, *(c.filter(pl.col("measure") == "score")
                           .with_columns(pl.lit(f"extra_{k}").alias("measure"))
                           for k in range(3))])  # fmt: skip
    (plot,) = plots(sections.count_blocks("Eight measures.", more, {"extra_0": "crusts"}))
    titles = [ax.get_title() for ax in plot.figure.axes if ax.axison]
    assert len(titles) == 8 and "crusts" in titles


def test_count_table_blocks_print_the_count_table(results):
    title = "Appendix A — Player count: every estimate"
    labels = {"margin": "how far ahead the winner ends"}
    blocks = sections.count_table_blocks(title, results.count, labels)
    assert blocks[0] == Heading(title)
    shown = sections.count_table(results.count, labels)
    assert numbers(texts(blocks[2:])) == numbers([c for row in shown.iter_rows() for c in row]
                                                 + list(shown.columns))  # fmt: skip
    (table,) = tables(blocks)
    assert table.columns[0] == "player count" and "how far ahead the winner ends" in table.columns
    assert len(table.rows) == results.count["players"].n_unique()


def test_count_appendix_blocks_are_the_count_table(results):
    blocks = sections.count_appendix_blocks()(results, "Appendix B")
    assert blocks == sections.count_table_blocks(
        "Appendix B — Player count: every estimate", results.count
    )
    assert len(tables(blocks)) == 1
    # no count table, no appendix
    bare = dataclasses.replace(results, tables={})
    assert sections.count_appendix_blocks()(bare, "Appendix B") == []


@pytest.mark.parametrize("same_as_seat", [False, True])
def test_position_appendix_blocks_print_every_fields_table(results, same_as_seat):
    r = with_positions(results, same_as_seat)
    blocks = sections.position_appendix_blocks(r, "Appendix C", shown, **POSITION_ARGS)
    assert blocks[0] == Heading("Appendix C — Win share by turn position in every field")
    assert blocks[1] == Prose(POSITION_ARGS["intro"])
    headings = [b.text for b in blocks if isinstance(b, Heading)]
    every, *by_seat = tables(blocks)
    assert every.columns == ["field", "players", "position", "games", "win share [95% CI]",
                             "warning"]  # fmt: skip
    assert every.widths == tuple(POSITION_ARGS["widths"])
    assert {row[0] for row in every.rows} == {"greedy", "other"}
    assert len(every.rows) == r.positions["greedy field"].height + 3
    if same_as_seat:
        assert by_seat == [] and len(headings) == 1
    else:
        (seat,) = by_seat
        assert seat.columns[:2] == ["players", "seat"]
        assert Heading("Appendix C — Win share by seat, the greedy field", level=2) in blocks
    # a game without position tables has no appendix
    assert sections.position_appendix_blocks(results, "Appendix C", shown, **POSITION_ARGS) == []


def test_the_generic_sections_are_blocks(results, tmp_path):
    seats_section = sections.seats_section()
    count_section = sections.player_count_section()
    assert count_section.appendix_blocks is not None
    first = seats_section.blocks(results, 1)
    assert first[0] == Heading("1  Is the first player favoured?")
    second = count_section.blocks(results, 2)
    assert second[0] == Heading("2  Does the game hold up from 2 to 3 players?")
    assert "Shared wins run from" in second[1].text
    appendix = count_section.appendix_blocks(results, "Appendix A")
    assert appendix[0] == Heading("Appendix A — Player count: every estimate")
    # without their tables (no uniform block), the sections print nothing
    bare = dataclasses.replace(results, tables={})
    assert seats_section.blocks(bare, 1) == [] and count_section.blocks(bare, 2) == []
    # laid out, every number of their tables is in the PDF
    doc = Document("t", "t")
    doc.add(first, second, appendix)
    pdf = typeset(doc, tmp_path / "s.pdf")
    printed = " ".join(p.extract_text() for p in PdfReader(pdf).pages)
    for t in tables(first + second + appendix):
        for row in t.rows:
            for cell in row:
                assert all(n in printed for n in NUMBER.findall(cell)), cell


COUNT = pl.DataFrame({
    "players": [2, 3, 2, 3],
    "measure": ["shared_win", "shared_win", "margin", "margin"],
    "estimate": [0.05, 0.10, 3.0, 2.5],
    "low": [0.04, 0.08, 2.5, 2.0],
    "high": [0.06, 0.12, 3.5, 3.0],
    "games": [400, 300, 400, 300],
    "warning": ["", "", "", "few games"],
})  # fmt: skip
"""A player-count table (:func:`analysis.playercount.player_count`'s columns) of known
values: shares of games and points."""


def test_count_headlines_carry_one_estimate_per_count():
    """The summary row prints every count on one line and carries each count's estimate,
    interval and n (shares scaled to %), so the estimates table lists them as numbers."""
    rows = sections.count_headlines(COUNT, "4 Player count", field="the heuristic")
    assert [r["finding"] for r in rows] == ["shared wins by player count",
                                            "winning margin by player count"]  # fmt: skip
    share, margin = rows
    assert share["estimate"] == "2p 5.0; 3p 10.0 %" and share["games"] == 300
    assert margin["warning"] == "few games"
    values = [v for r in rows for v in r["values"]]
    assert [(v.players, v.n, v.unit, v.field) for v in values] == [
        (2, 400, "%", "the heuristic"), (3, 300, "%", "the heuristic"),
        (2, 400, "points", "the heuristic"), (3, 300, "points", "the heuristic"),
    ]  # fmt: skip
    assert [x for v in values for x in (v.estimate, v.low, v.high)] == pytest.approx(
        [5.0, 4.0, 6.0, 10.0, 8.0, 12.0, 3.0, 2.5, 3.5, 2.5, 2.0, 3.0]
    )


def test_the_estimates_table_lists_every_count_of_a_count_headline(results):
    """``slicelab report --estimates`` lists a count headline's numbers, one row each,
    under the row's finding, as it lists a single-number headline's."""
    from analysis.report import estimates, headline_rows

    rows = headline_rows(results)
    table = estimates(results, verdicts=[], headlines=rows)
    counts = [r for r in rows if r["values"]]
    assert counts, "the toy report has player-count headlines"
    for r in counts:
        listed = table.filter(pl.col("question") == r["finding"])
        assert listed["players"].to_list() == [v.players for v in r["values"]]
        assert listed["estimate"].to_list() == [v.estimate for v in r["values"]]
        assert set(listed["source"]) == {"appendix"}
