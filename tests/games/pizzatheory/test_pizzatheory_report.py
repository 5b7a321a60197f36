"""Pizza Theory's balance report on the quick size of studies/pizzatheory-balance.toml:
found by the game's name, reading exactly the study's blocks, computed once for the
module, written as a PDF whose pages are numbered and listed, whose page 1 answers every
question with its n and unit from the main (mixed) field, whose sentences state the numbers
of its tables, which shows the deterministic 3-player fields as one game (never as a
sample) and says that the default board is an assumption; a dataset that is damaged,
incomplete, lacks a block or mixes games is refused."""

from __future__ import annotations

import json
import pickle
import re
import shutil
from pathlib import Path
from typing import get_args

import polars as pl
import pytest

from analysis.content import Block, Heading
from analysis.load import manifest
from analysis.pizzatheory import common, seats, verdicts
from analysis.pizzatheory.report import REPORT
from analysis.report import (
    answered,
    check_dataset,
    compute,
    estimates,
    game_report,
    layout,
    summary,
    write_report,
)
from analysis.sections import Results
from sims.core.errors import SlicelabError
from tests.report_lint import lint

SECTIONS = [
    "Seats",
    "Game length",
    "Safety rule",
    "First placement",
    "Board shape",
    "Player count",
    "Ratings",
    "Sample size",
]
QUESTIONS = (
    "Does the starting position decide who wins?",
    "How long are games, and do they end in a draw?",
    "Does the safety rule matter?",
    "What is the first placement worth?",
    "Does the board's shape change the balance?",
    "Is the game as balanced at 2 players as at 3?",
    "How strong are the players behind these numbers?",
)

# one worker runs this module (--dist loadgroup), so the report is built once
pytestmark = pytest.mark.xdist_group("pizzatheory-report")


@pytest.fixture(scope="module")
def built(tmp_path_factory, pizzatheory_quick_dataset) -> Path:
    """The report of the quick dataset: its tables and the text of its PDF's pages."""
    from pypdf import PdfReader

    root = tmp_path_factory.mktemp("pt")
    r = compute(pizzatheory_quick_dataset)
    pdf = write_report(pizzatheory_quick_dataset, root / "pt.pdf", results=r)
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]
    (root / "tables.pickle").write_bytes(pickle.dumps(r.tables))
    (root / "pages.json").write_text(json.dumps(pages))
    return root


@pytest.fixture(scope="module")
def results(built, pizzatheory_quick_dataset) -> Results:
    tables = pickle.loads((built / "tables.pickle").read_bytes())
    out = pizzatheory_quick_dataset
    return Results(out, manifest(out), "pizzatheory", REPORT, dict(REPORT.options), tables)


@pytest.fixture(scope="module")
def pages(built) -> list[str]:
    return json.loads((built / "pages.json").read_text())


def _page(pages: list[str], title: str) -> str:
    """The first page (not the contents) with this title."""
    return next(p for p in pages if title in p and not p.startswith("Contents"))


def test_the_report_is_found_and_reads_the_study(pizzatheory_quick_dataset):
    assert game_report("pizzatheory") is REPORT
    assert [s.label for s in REPORT.sections] == SECTIONS
    check_dataset(pizzatheory_quick_dataset)  # the study has every block the report reads
    assert REPORT.example == "studies/pizzatheory-balance.toml"
    groups = {
        a.get("group", a["name"]) for a in manifest(pizzatheory_quick_dataset)["study"]["arms"]
    }
    assert set(REPORT.blocks) == groups  # every block of the study, and no other
    assert len(REPORT.blocks) == len(set(REPORT.blocks))
    assert common.FIELDS[common.MAIN_FIELD] == "seats"


def test_every_section_is_laid_out_as_blocks_never_as_drawn_pages(results):
    for s in REPORT.sections:
        assert s.blocks is not None, s.label
    doc = layout(results)
    assert all(isinstance(b, get_args(Block)) for b in doc.blocks)  # content blocks only
    heads = [b.text for b in doc.blocks if isinstance(b, Heading) and b.level == 1]
    for num, label in enumerate(SECTIONS, 1):  # every section starts with its numbered heading
        assert any(h.startswith(f"{num}  ") for h in heads), label


def test_every_headline_names_its_unit(results):
    table = summary(results)
    numbers = {q.split()[0] for q in table["question"]}
    assert {"1", "2", "3", "4", "5", "6", "7", "8"} <= numbers
    opening = table.filter(pl.col("question").str.starts_with("4"))
    assert opening.height >= 2 and set(opening["unit"]) == {"deals"}
    seats_ = table.filter(pl.col("question").str.starts_with("1"))
    assert set(seats_["unit"]) == {"games"}
    flagged = table.filter(pl.col("question").str.starts_with("8"))["finding"][0]
    assert f"{int((table['warning'] != '').sum())} of {table.height - 1}" in flagged


def test_page_one_answers_every_question_with_its_n_and_unit(pages):
    front = " ".join(p for p in pages[:3] if not p.startswith("Contents"))
    for q in QUESTIONS:
        assert q in front, q
    starts = sorted(front.index(q) for q in QUESTIONS)
    for q in QUESTIONS:  # each verdict's text runs to the next question
        at = front.index(q)
        later = [k for k in starts if k > at]
        block = front[at : later[0] if later else len(front)]
        assert re.search(r"n = [\d,]+ (games|deals)", block), q
        assert "Robustness" in block, q
    assert "hex-37 is slicelab's assumption" in front  # the board verdict says so
    assert re.search(r"slicelab report \S*studies/pizzatheory-balance.toml --size quick", front)


def test_every_verdict_carries_its_number_as_data(results, pages):
    """Each verdict of the quick dataset states its number as an Estimate: finite, with its
    n and unit, printed on page 1 as the row's text; the estimates table has its row."""
    front = " ".join(p for p in pages[:3] if not p.startswith("Contents"))
    found = [v for f in verdicts.VERDICTS if (v := f(results)) is not None]
    assert [v.question for v in found] == list(QUESTIONS)
    for v in found:
        x = v.value
        assert x is not None and x.finite and x.low <= x.estimate <= x.high, v.question
        assert x.n > 0 and x.quantity and x.n_unit, v.question
        assert v.estimate == x.text() and (v.n, v.n_unit) == (x.n, x.n_unit), v.question
        assert " ".join(v.estimate.split()) in front, v.question
    every = estimates(results)
    table = every.filter(pl.col("source") == "page 1")
    appendix = every.filter(pl.col("source") == "appendix")  # seat and ratings headlines
    assert {"win share − fair share", "rating gap"} <= set(appendix["quantity"])
    assert appendix["n"].min() > 0 and appendix["estimate"].is_finite().all()
    assert set(table["question"]) == set(QUESTIONS) and table.height == len(QUESTIONS)
    assert table["n"].min() > 0 and table["estimate"].is_finite().all()


def test_report_pdf_is_numbered_listed_and_has_no_missing_numbers(pages):
    n = len(pages)
    for k, text in enumerate(pages, 1):
        assert f"page {k} of {n}" in text
        assert not re.search(r"\bnan\b", text)
    contents = next(p for p in pages if p.startswith("Contents "))
    for num, label in enumerate(SECTIONS, 1):
        assert re.search(rf"\b{num} ", contents), label
    glossary = " ".join(p for p in pages if p.startswith("Glossary"))
    for term in (
        "starting position",
        "deterministic field",
        "field with chance",
        "mixed player",
        "shared outcome",
        "safety rule",
        "hex-37",
        "blind seat",
    ):
        assert term in glossary
    assert "regret matching's average strategy" in glossary
    assert "mixed(blind=1)" in glossary
    about = " ".join(p for p in pages if p.startswith("About this study"))
    assert "not published" in about and "assumption" in about and "digest" in about
    assert "The main field is the mixed field" in about and "Plain 'mixed' plays" in about
    from sims.games.pizzatheory.strategies import seat_params

    p3 = seat_params("mixed", 3)  # what plain mixed plays, read from the family, not copied
    assert f"aggression={p3['aggression']:g}" in about
    assert f"after {p3['iters']:g} iterations" in about
    text = " ".join(pages)
    for stale in ("seats-mixed", "blind-mixed", "heuristic(blind=1)", "the heuristic field's"):
        assert stale not in text, stale


def test_the_seat_page_states_the_numbers_of_its_table(results, pages):
    page = _page(pages, "1 Do the seat and the starting position matter?")
    main = results.positions[common.MAIN_FIELD]
    assert "The main field, the mixed field" in page
    for e in seats.edges(main).iter_rows(named=True):
        if e["deterministic"]:
            assert f"every one of the {e['games']:,} games of the mixed field" in page
        else:
            assert (
                f"{e['first_pp']:+.1f} pp [{e['first_low']:+.1f}, {e['first_high']:+.1f}]" in page
            )
    assert "1/n of the win, the fair share" in page
    robust = _page(pages, "1 Does the starting position's edge hold with other players?")
    for field in results.positions:
        assert field.removesuffix(" field") in robust
    one = seats.deterministic_fields(results.positions, 3)
    assert set(one) == {"heuristic field", "greedy field"}  # no chance, no draws: one game
    assert "one game, counted neither way: heuristic and greedy" in robust
    for c in results.first_conditions[3]:  # judged only across the fields with chance
        assert c.name in common.chance_fields(3)


def test_the_deterministic_fields_are_shown_as_one_game_never_as_a_sample(results, pages):
    """At 3 players every game of seats-heuristic and seats-greedy is one game: every cell
    of theirs says so, and page 1 takes its estimates from the mixed field."""
    for field in ("heuristic field", "greedy field"):
        t = results.positions[field].filter(pl.col("players") == 3)
        assert t["deterministic"].all() and (t["distinct"] == 1).all()
        assert (t["win_low"] == t["win_high"]).all()
        assert set(t["warning"]) == {common.DETERMINISTIC}
    front = " ".join(p for p in pages[:3] if not p.startswith("Contents"))
    fields = {v.question: v.value.field for v in answered(results) if v.value and v.value.field}
    assert len(fields) >= 5 and set(fields.values()) == {"mixed"}, fields
    assert "heuristic and greedy fields are one game each" in front
    appendix = " ".join(p for p in pages if "All headline numbers" in p)
    assert "3 players, heuristic field (one game)" in appendix
    assert not re.search(r"heuristic field[^%]*\[100\.0, 100\.0\]", appendix)


def test_the_length_and_board_pages_say_what_never_happened_and_what_is_assumed(results, pages):
    page = _page(pages, "2 How long are games, and how do they end?")
    lengths, endings = results.lengths, results.endings
    draws = int(endings.filter(pl.col("ending") == 2)["count"].sum())
    total = int(lengths["games"].sum())
    if draws == 0:
        assert f"No game reached the round bound (200 rounds, a draw): 0 of {total:,}" in page
    assert set(endings.filter(pl.col("players") == 2)["label"]) >= {"neutral win"}
    board = _page(pages, "5 Does the board's shape change the balance?")
    assert "The real board's layout is not published" in board and "assumption" in board
    assert set(results.boards["board"]) == set(common.BOARDS)
    opening = _page(pages, "4 What is the first placement worth?")
    x = results.opening.filter(pl.col("field") == common.MAIN_FIELD).row(0, named=True)
    assert f"{x['edge_pp']:+.1f} pp [{x['edge_low']:+.1f}, {x['edge_high']:+.1f}]" in opening


# ----------------------------------------------------------------------------- refusals


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def test_a_dataset_without_a_block_is_read_and_an_incomplete_one_refused(
    pizzatheory_quick_dataset, tmp_path
):
    partial = _copy(pizzatheory_quick_dataset, tmp_path / "partial")
    m = json.loads((partial / "manifest.json").read_text())
    blind = {a["name"] for a in m["study"]["arms"] if a.get("group") == "blind"}
    m["study"]["arms"] = [a for a in m["study"]["arms"] if a["name"] not in blind]
    m["chunks"] = [c for c in m["chunks"] if c["arm"] not in blind]
    (partial / "manifest.json").write_text(json.dumps(m))
    for arm in blind:
        for d in partial.glob(f"*/*/*p/{arm}"):
            shutil.rmtree(d)
    check_dataset(partial)  # a study without a block is reported: its questions are listed
    chunk = m["chunks"][-1]
    files, chunk["files"], chunk["rows"] = chunk["files"], None, None  # a chunk not played yet
    for f in files.values():
        (partial / f["path"]).unlink()
    m["study"]["arms"] = json.loads((pizzatheory_quick_dataset / "manifest.json").read_text())[
        "study"
    ]["arms"]
    (partial / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(SlicelabError, match="is not complete; resume it"):
        check_dataset(partial)


def test_a_damaged_or_mixed_dataset_is_refused(pizzatheory_quick_dataset, tmp_path):
    damaged = _copy(pizzatheory_quick_dataset, tmp_path / "damaged")
    part = next(iter(sorted(damaged.glob("players/**/*.parquet"))))
    part.write_bytes(part.read_bytes()[:-10])  # a truncated file
    with pytest.raises(SlicelabError, match="slicelab repair"):
        check_dataset(damaged)
    with pytest.raises(SlicelabError, match="slicelab repair"):
        compute(damaged)
    mixed = _copy(pizzatheory_quick_dataset, tmp_path / "mixed")
    m = json.loads((mixed / "manifest.json").read_text())
    m["study"]["arms"][0] = {**m["study"]["arms"][0], "game": "pieceocake"}
    (mixed / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(SlicelabError, match="a report reads a study of one game"):
        check_dataset(mixed)


def test_the_report_text_shows_no_code(pages, built, pizzatheory_quick_dataset):
    """No snake_case or dotted code names, Python literals or machine paths in the PDF,
    and the sample-size counts agree between sections (tests/report_lint.py); the paths
    the report names by design are the study's, the dataset's and the test's folders."""
    m = manifest(pizzatheory_quick_dataset)
    own = (str(m.get("study_file")), str(pizzatheory_quick_dataset), str(built),
           str(built.parent))  # fmt: skip
    assert lint(pages, "pizzatheory", own) == []
