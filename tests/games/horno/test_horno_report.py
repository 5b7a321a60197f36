"""Horno's balance report on the quick size of studies/horno-balance.toml: found by the
game's name, reading exactly the study's blocks, computed once for the module, written as
a PDF whose pages are numbered and listed, whose page 1 answers every question with its n
and unit, whose sentences state the numbers of its tables, which says the card list is an
assumption and which verdicts hold on the other card sets; a dataset that lacks a block
is read (the report lists what it cannot answer: tests/test_variant_report.py)."""

from __future__ import annotations

import json
import pickle
import re
import shutil
from pathlib import Path

import polars as pl
import pytest

from analysis.horno import common
from analysis.horno.report import REPORT
from analysis.load import manifest
from analysis.report import check_dataset, compute, game_report, summary, write_report
from analysis.sections import Results
from tests.report_lint import lint

SECTIONS = [
    "Seats",
    "Dish types",
    "Sabotage and steals",
    "Radioactive cards",
    "Card sets",
    "Player count",
    "Ratings",
    "Sample size",
]
QUESTIONS = (
    "Does the turn order favour a seat?",
    "Is any dish type stronger than the others?",
    "Does sabotage pay more than building?",
    "What do the radioactive cards do?",
    "Do the answers hang on the assumed card list?",
    "Is the game as balanced at 2 players as at 4?",
    "How strong are the players behind these numbers?",
)

# one worker runs this module (--dist loadgroup), so the report is built once
pytestmark = pytest.mark.xdist_group("horno-report")


@pytest.fixture(scope="module")
def built(tmp_path_factory, horno_quick_dataset) -> Path:
    """The report of the quick dataset: its tables and the text of its PDF's pages."""
    from pypdf import PdfReader

    root = tmp_path_factory.mktemp("horno")
    r = compute(horno_quick_dataset)
    pdf = write_report(horno_quick_dataset, root / "horno.pdf", results=r)
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]
    (root / "tables.pickle").write_bytes(pickle.dumps(r.tables))
    (root / "pages.json").write_text(json.dumps(pages))
    return root


@pytest.fixture(scope="module")
def results(built, horno_quick_dataset) -> Results:
    tables = pickle.loads((built / "tables.pickle").read_bytes())
    out = horno_quick_dataset
    return Results(out, manifest(out), "horno", REPORT, dict(REPORT.options), tables)


@pytest.fixture(scope="module")
def pages(built) -> list[str]:
    return json.loads((built / "pages.json").read_text())


def _page(pages: list[str], title: str) -> str:
    """The first page (not the contents) with this title."""
    return next(p for p in pages if title in p and not p.startswith("Contents"))


def test_the_report_is_found_and_reads_the_study(horno_quick_dataset):
    assert game_report("horno") is REPORT
    assert [s.label for s in REPORT.sections] == SECTIONS
    check_dataset(horno_quick_dataset)
    groups = {a.get("group", a["name"]) for a in manifest(horno_quick_dataset)["study"]["arms"]}
    assert set(REPORT.blocks) == groups  # every block of the study, and no other
    assert REPORT.example == "studies/horno-balance.toml"


def test_every_headline_names_its_unit(results):
    table = summary(results)
    assert {"1", "2", "3", "4", "5", "6", "7", "8"} <= {q.split()[0] for q in table["question"]}
    assert set(table.filter(pl.col("question").str.starts_with("1 "))["unit"]) == {"games"}
    assert set(table.filter(pl.col("question").str.starts_with("3 "))["unit"]) == {
        "deals",
        "games",
    }
    flagged = table.filter(pl.col("question").str.starts_with("8"))["finding"][0]
    assert f"{int((table['warning'] != '').sum())} of {table.height - 1}" in flagged


def test_page_one_answers_every_question_with_its_n_and_unit(pages):
    front = " ".join(p for p in pages[:3] if not p.startswith("Contents"))
    starts = sorted(front.index(q) for q in QUESTIONS)
    for q in QUESTIONS:
        at = front.index(q)
        later = [k for k in starts if k > at]
        block = front[at : later[0] if later else len(front)]
        assert re.search(r"n = [\d,]+ (games|deals)", block), q
        assert "Robustness" in block, q
    assert "assumed v1 is slicelab's reading" in front
    assert re.search(r"slicelab report \S*studies/horno-balance.toml --size quick", front)


def test_the_pdf_is_numbered_listed_and_has_no_missing_numbers(pages):
    n = len(pages)
    for k, text in enumerate(pages, 1):
        assert f"page {k} of {n}" in text
        assert not re.search(r"\bnan\b", text)
    contents = next(p for p in pages if p.startswith("Contents "))
    for num, label in enumerate(SECTIONS, 1):
        assert re.search(rf"\b{num} ", contents), label
    glossary = " ".join(p for p in pages if p.startswith("Glossary"))
    for term in ("turn position", "points per dish taken", "average dish", "takers",
                 "points lost to sabotage", "assumed v1", "alternative card set"):  # fmt: skip
        assert term in glossary, term
    about = " ".join(p for p in pages if p.startswith("About this study"))
    assert "not published" in about and "digest" in about and "heuristic-eq" in about


def test_the_sentences_state_the_numbers_of_their_tables(results, pages):
    seats_page = _page(pages, "1 Does the turn order favour a seat?")
    main = results.positions[common.MAIN_FIELD]
    from analysis.horno.seats import edges

    for e in edges(main).iter_rows(named=True):
        assert f"{e['first_pp']:+.1f} pp [{e['first_low']:+.1f}, {e['first_high']:+.1f}]" in (
            seats_page
        )
    dish_page = _page(pages, "2 Is any dish type stronger than the others?")
    own = results.own.filter(pl.col("players") == common.MAIN)
    for x in own.iter_rows(named=True):
        assert f"{x['type_name']} {x['yield']:.1f} [{x['yield_low']:.1f}" in dish_page
    for x in results.avoid.iter_rows(named=True):
        assert f"{x['type_name']} {x['value_pp']:+.1f} pp" in dish_page
    sab = _page(pages, "3 Does sabotage pay more than building?")
    for x in results.restrictions.iter_rows(named=True):
        if x["differs"] == 0:  # the restriction changed no game: said in words
            assert f"a seat that {x['restriction']} (" in sab
            assert "exactly as the unrestricted seat" in sab
        else:
            assert f"{x['edge_pp']:+.1f} pp [{x['edge_low']:+.1f}, {x['edge_high']:+.1f}]" in sab
    sets = _page(pages, "5 Do the answers hang on the assumed card list?")
    k = int(results.set_checks["robust"].sum())
    assert f"{k} of {results.set_checks.height} are" in sets
    for name in common.CARD_SETS:
        assert name in sets, name
    assert set(results.set_positions) == {common.DEFAULT_SET, *common.CARD_SETS}


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def test_a_dataset_without_a_block_is_not_refused(horno_quick_dataset, tmp_path):
    partial = _copy(horno_quick_dataset, tmp_path / "partial")
    m = json.loads((partial / "manifest.json").read_text())
    gone = {a["name"] for a in m["study"]["arms"] if a.get("group") == "noradio"}
    m["study"]["arms"] = [a for a in m["study"]["arms"] if a["name"] not in gone]
    m["chunks"] = [c for c in m["chunks"] if c["arm"] not in gone]
    (partial / "manifest.json").write_text(json.dumps(m))
    for arm in gone:
        for d in partial.glob(f"*/*/*p/{arm}"):
            shutil.rmtree(d)
    check_dataset(partial)  # a study without a block is reported: its questions are listed


def test_the_report_text_shows_no_code(pages, built, horno_quick_dataset):
    """No snake_case or dotted code names, Python literals or machine paths in the PDF,
    and the sample-size counts agree between sections (tests/report_lint.py); the paths
    the report names by design are the study's, the dataset's and the test's folders."""
    m = manifest(horno_quick_dataset)
    own = (str(m.get("study_file")), str(horno_quick_dataset), str(built), str(built.parent))
    assert lint(pages, "horno", own) == []


def test_every_page_one_number_is_data(results):
    """Every verdict carries its number as an Estimate, page 1 prints the line it gives
    (the card-set verdict, a count of checks, states its own) and the table of page 1's
    numbers has one finite row per verdict."""
    import math

    from analysis.horno.verdicts import VERDICTS
    from analysis.report import estimates

    found = [v for f in VERDICTS if (v := f(results)) is not None]
    assert {v.question for v in found} == set(QUESTIONS)
    for v in found:
        x = v.value
        assert x is not None, v.question
        assert all(math.isfinite(float(y)) for y in (x.estimate, x.low, x.high)), x
        assert x.n > 0 and x.quantity and x.n_unit, x
        assert (v.n, v.n_unit) == (x.n, x.n_unit)
        if v.question != "Do the answers hang on the assumed card list?":
            assert v.estimate == x.text(), v.question
    every = estimates(results)
    table = every.filter(pl.col("source") == "page 1")
    appendix = every.filter(pl.col("source") == "appendix")  # seat and ratings headlines
    assert {"win share − fair share", "rating gap"} <= set(appendix["quantity"])
    assert appendix["n"].min() > 0 and appendix["estimate"].is_finite().all()
    assert set(table["question"]) == set(QUESTIONS)
    assert table.select("estimate", "low", "high").null_count().sum_horizontal()[0] == 0
