"""The one typesetter: content blocks to a PDF through Typst."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import polars as pl
import pytest
from matplotlib.figure import Figure
from pypdf import PdfReader

from analysis import typeset as typeset_module
from analysis.content import (
    Caption,
    Code,
    Contents,
    Document,
    Footnote,
    Heading,
    Plot,
    Prose,
    Table,
    VerdictCard,
    texts,
)
from analysis.typeset import typeset
from sims.core.errors import SlicelabError

MARKUP = "Typst markup is data: #set $x^2$ *bold* _under_ <label> @ref `code` \\ [a] = b"


def pages(pdf) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]


def document() -> Document:
    fig = Figure(figsize=(5, 2))
    fig.add_subplot().plot([0, 1], [1, 0])
    rows = [[str(k), f"row {k}"] for k in range(120)]  # more than a page
    return Document("T", "Game — study", [
        Heading("Verdicts", hidden=True), Prose(MARKUP), Footnote("Regenerate:", "slicelab x"),
        VerdictCard(1, "Is it fair?", "Yes.", "+1.0 pp [+0.1, +1.9]; n = 10 deals", "robust",
                    "#2e7d32", ref="sec-1", ref_text="section 1"),
        VerdictCard(2, "Other?", "No.", "—", "not checked", "#6d6d6d",
                    ref_text="No such section"),
        Heading("Contents"), Contents(),
        Heading("1 First section", key="sec-1"), Plot(fig, 0.7, "a caption"),
        Heading("A part", level=2), Table(["k", "text"], rows, (1, 3)),
        Caption("Appendices"), Heading("5 An appendix"), Prose("appendix body"),
        Code("slicelab report studies/x.toml --out r.pdf"),
    ])  # fmt: skip


@pytest.fixture(scope="module")
def pdf(tmp_path_factory):
    return typeset(document(), tmp_path_factory.mktemp("t") / "sub" / "r.pdf")


def test_text_is_printed_as_written(pdf):
    text = pages(pdf)
    assert " ".join(MARKUP.split()) in text[0]
    assert not list(pdf.parent.glob(".*.tmp"))  # written atomically


def test_pages_are_numbered_and_the_contents_give_each_heading_its_page(pdf):
    text = pages(pdf)
    n = len(text)
    assert all(f"page {k} of {n}" in t for k, t in enumerate(text, 1))
    contents = text[1]
    first = next(k for k, t in enumerate(text, 1) if t.startswith("1 First section"))
    appendix = next(k for k, t in enumerate(text, 1) if t.startswith("5 An appendix"))
    assert f"1 First section {first}" in contents and f"A part {first}" in contents
    assert f"Appendices 5 An appendix {appendix}" in contents
    # the references of page 1 name the page their heading is on
    assert f"see section 1, page {first}" in text[0] and "see No such section" in text[0]


def test_a_long_table_goes_on_over_pages_under_a_continued_title(pdf):
    text = pages(pdf)
    cont = [t for t in text if t.startswith("1 First section (continued)")]
    assert cont and "row 119" in " ".join(cont)
    assert "k text" in cont[0]  # the header is repeated
    # a page that starts a section is headed by that section's title, not a running one
    k = next(k for k, t in enumerate(text) if t.startswith("5 An appendix"))
    assert "(continued)" not in text[k] and "appendix body" in text[k]


def test_texts_lists_what_a_reader_sees():
    found = texts(document().blocks)
    assert MARKUP in found and "row 7" in found and "Is it fair?" in found


def test_a_layout_that_fails_is_named_and_leaves_no_file(tmp_path, monkeypatch):
    monkeypatch.setattr(typeset_module, "TEMPLATE", "templates/report.typ")
    doc = Document("T", "f", [Table(["a"], [["x"]], widths=("oops",))])  # type: ignore[arg-type]
    out = tmp_path / "bad.pdf"
    with pytest.raises(SlicelabError, match="could not be laid out"):
        typeset(doc, out)
    assert not out.exists() and not list(tmp_path.glob(".*"))


def test_a_frame_becomes_a_table_of_printed_cells():
    t = Table.of(pl.DataFrame({"a": [1, None], "b": [float("nan"), 2.5]}))
    assert t.columns == ["a", "b"] and t.rows == [["1", "—"], ["—", "2.5"]]
