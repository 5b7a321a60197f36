"""Piece o' Cake's balance report on the quick size of studies/pieceocake-balance.toml: found
by the game's name, computed once for the module, written as a PDF whose pages are
numbered and listed, whose page 1 answers every question with its n and unit, and whose
New York Slice page compares with a New York Slice dataset beside it, or says how to make
one when there is none."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import SyntheticDataset, one_hot

from analysis.content import texts
from analysis.load import manifest
from analysis.pieceocake import varieties
from analysis.pieceocake.report import NYSLICE, REPORT
from analysis.report import check_dataset, compute, game_report, summary, write_report
from analysis.sections import Results
from tests.report_lint import lint

SECTIONS = ["Seats", "Eat or collect", "Forgoing", "Cutting fewer", "Varieties",
            "Player count", "Ratings", "New York Slice", "Sample size"]  # fmt: skip


def _nyslice(out: Path) -> Path:
    """A small synthetic New York Slice dataset with a ``seats`` block at 2 to 6 players
    (seat 0 wins half its games at every count)."""
    rng = np.random.default_rng(1)
    d = SyntheticDataset(out)
    for n in range(2, 7):
        games = 400
        winners = np.where(rng.random(games) < 0.5, 0, rng.integers(1, n, games))
        d.players(d.arm(f"seats.p{n}", n, "heuristic", group="seats"),
                  win_share=one_hot(list(winners), n))  # fmt: skip
    return d.write()


def _build(root: Path, out: Path) -> None:
    """The report of the quick Piece o' Cake dataset ``out`` with a synthetic New York Slice
    dataset given as its ``nyslice`` option: its tables and the text of its PDF's pages,
    under ``root``."""
    from pypdf import PdfReader

    nys = _nyslice(root / "nyslice-balance-quick")
    r = compute(out, n_boot=200, nyslice=str(nys))
    pdf = write_report(out, root / "poc.pdf", results=r)
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]
    (root / "tables.pickle").write_bytes(pickle.dumps(r.tables))
    (root / "pages.json").write_text(json.dumps(pages))


# one worker runs this module (--dist loadgroup), so the report is built once
pytestmark = pytest.mark.xdist_group("pieceocake-report")


@pytest.fixture(scope="module")
def built(tmp_path_factory, pieceocake_quick_dataset) -> Path:
    """Everything :func:`_build` makes, once for the module."""
    root = tmp_path_factory.mktemp("poc")
    _build(root, pieceocake_quick_dataset)
    return root


@pytest.fixture(scope="module")
def dataset(pieceocake_quick_dataset) -> Path:
    return pieceocake_quick_dataset


@pytest.fixture(scope="module")
def results(built, dataset) -> Results:
    """The report's tables of the quick dataset, computed once (:func:`_build`)."""
    tables = pickle.loads((built / "tables.pickle").read_bytes())
    options = {**REPORT.options, "n_boot": 200, "nyslice": str(built / "nyslice-balance-quick")}
    return Results(dataset, manifest(dataset), "pieceocake", REPORT, options, tables)


@pytest.fixture(scope="module")
def pages(built) -> list[str]:
    """The text of every page of the report's PDF."""
    return json.loads((built / "pages.json").read_text())


def _page(pages: list[str], title: str) -> str:
    """The first page (not the contents) with this title."""
    return next(p for p in pages if title in p and not p.startswith("Contents"))


def test_the_report_is_found_and_reads_the_study(dataset):
    assert game_report("pieceocake") is REPORT
    assert [s.label for s in REPORT.sections] == SECTIONS
    check_dataset(dataset)  # the study has every block the report reads
    assert REPORT.example == "studies/pieceocake-balance.toml"


def test_every_headline_names_its_unit(results):
    table = summary(results)
    numbers = {q.split()[0] for q in table["question"]}
    assert {"1", "2", "3", "4", "6", "7", "8", "9"} <= numbers
    options = table.filter(pl.col("finding").str.contains("value of the option"))
    assert options.height >= 8 and set(options["unit"]) == {"deals"}
    assert set(table.filter(pl.col("finding").str.contains("best θ"))["unit"]) == {"deals"}
    assoc = table.filter(pl.col("finding").str.contains("association"))
    assert set(assoc["unit"]) <= {"games"}
    flagged = table.filter(pl.col("question").str.starts_with("9"))["finding"][0]
    assert f"{int((table['warning'] != '').sum())} of {table.height - 1}" in flagged


def test_the_option_values_are_what_the_sentences_state(results):
    # in 'seats' every seat plays the field: averaged over seats, 1/n of every deal
    v = results.forgo_value
    assert np.allclose(v["unrestricted_share"], 1 / v["players"])
    assert np.allclose(v["value_pp"], 100 * (v["unrestricted_share"] - v["restricted_share"]))
    assert (v["warning"] != "").all()  # the quick size: a few dozen deals per count
    g = results.fewer_value_greedy
    assert g["players"].to_list() == [4]
    assert set(results.forgo_conditions[4][k].name for k in range(2)) == {
        "heuristic field", "greedy field"}  # fmt: skip
    assert all(len(c) == 1 for n, c in results.forgo_conditions.items() if n != 4)


def test_report_pdf_answers_every_question(pages):
    n = len(pages)
    for k, text in enumerate(pages, 1):
        assert f"page {k} of {n}" in text
        assert not re.search(r"\bnan\b", text)
    front = " ".join(pages[:2])
    for question in ("Is the first server favoured?",
                     "When is eating a slice better than collecting it?",
                     "What is forgoing a cake worth?",
                     "What is cutting fewer pieces than the most allowed worth?",
                     "Does the game hold up from 2 to 5 players?",
                     "What does exact-N cutting (New York Slice's rule) change?"):  # fmt: skip
        assert question in front
    assert "deals" in pages[0] and "games" in pages[0] and "Robustness" in pages[0]
    assert re.search(r"slicelab report \S*studies/pieceocake-balance.toml --size quick",
                     front)  # fmt: skip
    contents = next(p for p in pages if p.startswith("Contents "))
    for num, label in enumerate(SECTIONS, 1):
        assert re.search(rf"\b{num} ", contents), label
    glossary = " ".join(p for p in pages if p.startswith("Glossary"))
    for term in ("forgo", "server", "θ (theta)", "restricted-play value", "exact-N cutting"):
        assert term in glossary
    about = next(p for p in pages if p.startswith("About this study"))
    assert "Piece o' Cake (2008)" in about and "digest" in about


def test_the_new_york_slice_page_compares_with_the_dataset_beside_it(pages, results):
    assert results.nyslice_path is not None
    assert results.nyslice_path.name == "nyslice-balance-quick"
    page = _page(pages, "8 Side by side with New York Slice")
    assert "isolates exact-N cutting" in page and "mixes the specials" in page
    assert "NYS: first" in page
    # seat 0 wins half the synthetic games: its edge is large and positive at 2 to 5 only
    assert results.nyslice_summary["players"].to_list() == [2, 3, 4, 5]


def test_without_a_new_york_slice_dataset_the_page_says_how_to_make_one(results, tmp_path):
    r = Results(results.out, results.manifest, results.game, REPORT,
                {**results.options, "nyslice": str(tmp_path / "nowhere")},
                dict(results.tables))  # fmt: skip
    r.tables.update(NYSLICE.compute(r))
    assert r.nyslice_path is None and "no dataset at" in r.nyslice_reason
    text = " ".join(" ".join(t.split()) for t in texts(NYSLICE.blocks(r, 8)))
    assert "no dataset to compare with" in text and "make report" in text
    assert "isolates exact-N cutting" in text


def test_the_variety_page_shows_every_varietys_share(results, pages):
    page = _page(pages, "5 Which varieties carry the winning scores?")
    assert varieties.has_columns(results.out)
    shares = results.variety_shares
    totals = shares.group_by("players").agg(pl.col("share").sum())
    assert np.allclose(totals["share"], 1.0)  # the varieties make up the winners' scores
    assert np.allclose(shares.group_by("players").agg(pl.col("cake_share").sum())["cake_share"],
                       1.0)  # fmt: skip
    top = results.top_variety
    assert set(top["players"]) == {2, 3, 4, 5} and (top["games"] > 0).all()
    x = top.filter(pl.col("players") == 2).row(0, named=True)
    assert f"2p {x['variety']} {100 * x['share']:.1f} %" in page
    assert "Which variety carries the winning scores?" in " ".join(pages[:2])


def test_the_report_text_shows_no_code(pages, dataset, built):
    """No snake_case or dotted code names, Python literals or machine paths in the PDF,
    and the sample-size counts agree between sections (tests/report_lint.py); the paths
    the report names by design are the study's, the dataset's and the test's folders."""
    m = manifest(dataset)
    own = (str(m.get("study_file")), str(dataset), str(built), str(built.parent))
    assert lint(pages, "pieceocake", own) == []
