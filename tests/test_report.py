"""The balance report: summary content, the PDF (page 1's verdicts, the contents with
page numbers, the numbered pages, the glossary, the appendices, empty cells), the
`slicelab report` command, how a game's report is found (or the generic one built), and
the sentence helpers of :mod:`analysis.prose`, each shown to flip with its numbers."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import BALANCE
from pypdf import PdfReader

from analysis.nyslice.report import REPORT
from analysis.report import (
    GLOSSARY,
    check_dataset,
    compute,
    game_report,
    regenerate_command,
    summary,
    write_report,
)
from analysis.sections import Verdict
from sims.cli import cli
from sims.core.errors import SlicelabError
from tests.report_lint import lint

# one worker runs this module (--dist loadgroup), so its report is computed once
pytestmark = pytest.mark.xdist_group("nyslice-report")


@pytest.fixture(scope="module")
def results(nyslice_quick_results):
    """The report's analyses of the quick dataset, computed once (conftest.py)."""
    return nyslice_quick_results


@pytest.fixture(scope="module")
def from_study(results, quick_dataset, tmp_path_factory):
    """``slicelab report STUDY --size quick --data COPY --out .../sub/r.pdf``, once for the
    module: its result, its calls of ``write_report``, the dataset and the PDF.

    A study file resumes its dataset (and takes its writer lock): on a copy, as the
    session's dataset is shared with other workers' readers. The command's
    ``write_report`` draws the whole report for real, from ``results``: the analyses of
    the same data, which computing again inside the command took 12 s of CPU that checked
    nothing more (``compute`` is checked on ``results``; tests/test_variant_report.py has
    ``slicelab report STUDY`` compute its report itself). Its PDF is the one the tests of
    the report's pages read (:func:`report_pdf`): the report is drawn once."""
    import analysis.report

    root = tmp_path_factory.mktemp("from-study")
    data = root / "nyslice-balance-quick"
    shutil.copytree(quick_dataset, data)
    pdf = root / "sub" / "r.pdf"  # write_report creates the folder
    calls = []

    def drawn(out, pdf_path, **kw):
        calls.append(((out, pdf_path), kw))
        return write_report(out, pdf_path, results=results, **kw)

    args = ["report", str(BALANCE), "--size", "quick", "--data", str(data), "--out", str(pdf),
            "--payoff-games", "20"]  # fmt: skip
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(analysis.report, "write_report", drawn)
        res = CliRunner().invoke(cli, args)
    return res, calls, data, pdf


@pytest.fixture(scope="module")
def report_pdf(from_study):
    """New York Slice's report of the quick dataset (as ``slicelab report STUDY`` drew
    it: :func:`from_study`), and the text of each of its pages."""
    res, _, _, pdf = from_study
    assert res.exit_code == 0, res.output
    return pdf, pages_text(pdf)


class Text(str):
    """A page's text with whitespace runs as single spaces; ``lines``: as extracted."""

    lines: list[str]


def pages_text(pdf) -> list[Text]:
    """The text of every page of a PDF."""
    pages = []
    for p in PdfReader(pdf).pages:
        raw = p.extract_text()
        text = Text(" ".join(raw.split()))
        text.lines = [line.strip() for line in raw.splitlines() if line.strip()]
        pages.append(text)
    return pages


def contents(pages: list[Text]) -> list[tuple[str, int]]:
    """The contents page's entries: (text, page number)."""
    (page,) = [p for p in pages if p.startswith("Contents ")]
    lines = [line for line in page.lines[1:] if not re.search(r"page \d+ of \d+$", line)]
    found = [re.fullmatch(r"(.*\S)\s+(\d+)", line) for line in lines]
    return [(" ".join(m[1].split()), int(m[2])) for m in found
            if m and not m[1].startswith("page ")]  # fmt: skip


def assert_numbered_with_contents(pages: list[str], sections: list[str]) -> dict[str, int]:
    """Every page says ``page k of N``; the contents lists every section (by its number)
    and every entry names a page that starts with it. Returns entry → page."""
    n = len(pages)
    for k, text in enumerate(pages, 1):
        assert f"page {k} of {n}" in text, (k, text[-120:])
    entries = dict(contents(pages))
    for num, label in enumerate(sections, 1):
        found = [t for t in entries if t.startswith(f"{num} ")]
        assert found, (label, entries)
    for title, k in entries.items():
        if title in ("Verdicts", "Every headline number"):
            assert k == 1
            continue
        assert 1 <= k <= n and title in pages[k - 1], (title, k, pages[k - 1][:200])
    return entries


def test_summary_answers_every_question(results):
    table = summary(results)
    assert set(table["question"].str.slice(0, 1)) == {"1", "2", "3", "4", "5", "6", "7", "8"}
    # every n names its unit: restricted play and the θ sweep count deals
    assert set(table.filter(pl.col("question") == "2 Specials")["unit"]) == {"deals"}
    assert set(table.filter(pl.col("finding").str.contains("best θ"))["unit"]) == {"deals"}
    assert set(table.filter(pl.col("question") == "5 What-if rule changes")["unit"]) == {"deals"}
    # one seat row per player count, strongest and weakest special per count, best theta
    for q, per_count in (("1 Seats", 5), ("3 Eat or collect", 10), ("2 Specials", 10)):
        assert table.filter(pl.col("question") == q).height >= per_count
    assert table.filter(pl.col("finding").str.contains("slicing twice vs seat order")).height == 1
    flagged = table.filter(pl.col("question") == "8 Sample size")["finding"][0]
    n_warn = int((table["warning"] != "").sum())
    assert f"{n_warn} of {table.height - 1}" in flagged


def test_quick_data_is_flagged_as_too_small(results):
    # the quick size has 12-80 deals per theta cell: every best-theta row must carry a warning
    assert (results.best_theta["warning"] != "").all()


def test_report_pdf_has_every_section(report_pdf):
    pdf, pages = report_pdf
    assert pdf.read_bytes().startswith(b"%PDF")
    assert not list(pdf.parent.glob(".*.tmp"))  # written atomically
    entries = assert_numbered_with_contents(pages, [s.label for s in REPORT.sections])
    order = list(entries)
    assert order[:4] == ["Verdicts", "Contents", "About this study", "Glossary"]
    assert [entries[t] for t in order] == sorted(entries[t] for t in order)
    # page 1 (and its continuation): a verdict per question (with its n and unit and
    # robustness), and the command that regenerates the report; every headline number is
    # Appendix A
    verdicts = " ".join(pages[: entries["Contents"] - 1])  # page 1 and its continuation
    for question in ("Is the first slicer favoured?", "Which Today's Specials are strongest?",
                     "When is eating a slice better than collecting it?",
                     "What would the candidate rule changes do?"):  # fmt: skip
        assert question in verdicts
    assert "Is the first slicer favoured?" in pages[0]
    assert "deals" in pages[0] and "Robustness" in pages[0]
    headlines = [t for t in entries if "All headline numbers" in t]
    assert headlines and "slicing twice vs seat order" in pages[entries[headlines[0]] - 1]
    assert "Regenerate this report:" in pages[0]
    assert re.search(r"slicelab report \S*studies/nyslice-balance.toml --size quick", pages[0])
    assert "--payoff-games 20" in pages[0]
    assert pages[entries["About this study"] - 1].startswith("About this study")
    glossary = pages[entries["Glossary"] - 1]
    assert all(term in glossary for term in ("Holm", "exploitability", "θ (theta)"))
    # the dense sample-size table is an appendix; the section's page cites it
    appendix = [t for t in entries if t.startswith("Appendix")]
    assert any("Sample size: every headline cell" in t for t in appendix)
    sample = next(t for t in order if t.startswith("8 "))
    assert re.search(r"Appendix [A-Z]", pages[entries[sample] - 1])


def test_the_report_text_shows_no_code(report_pdf, quick_dataset):
    """No snake_case or dotted code names, Python literals or machine paths in the PDF,
    and the sample-size counts agree between sections (tests/report_lint.py); the paths
    the report names by design are the study's, the dataset's and the PDF's folder."""
    pdf, pages = report_pdf
    m = json.loads((quick_dataset / "manifest.json").read_text())
    own = (str(m.get("study_file")), str(quick_dataset), str(pdf), str(pdf.parent))
    assert lint(list(pages), "nyslice", own) == []


def test_empty_cells_show_a_dash(report_pdf):
    _, pages = report_pdf
    assert not any(re.search(r"\bnan\b", p) for p in pages)
    # the sample-size row of the headline table has no estimate and no games
    assert re.search(r"8 Sample size headline numbers flagged .*? — — —", " ".join(pages))
    from analysis.content import Table
    from analysis.formats import EMPTY, cell, ci, fmt

    frame = pl.DataFrame({"a": [1.5, None, float("nan")], "b": ["x", "", None],
                          "n": [0, None, 3]})  # fmt: skip
    shown = fmt(frame, {"a": ".1f"})
    assert shown["a"].to_list() == ["1.5", EMPTY, EMPTY]
    assert shown["b"].to_list() == ["x", "", EMPTY] and shown["n"].to_list() == ["0", EMPTY, "3"]
    assert [cell(v) for v in ("", None, float("nan"), "nan", 0, "0")] == [EMPTY] * 4 + ["0"] * 2
    assert ci(float("nan"), 0, 1) == EMPTY
    assert Table.of(shown).rows == [["1.5", "x", "0"], [EMPTY, EMPTY, EMPTY],
                                    [EMPTY, EMPTY, "3"]]  # fmt: skip


def test_cli_report_from_dataset_and_from_study(from_study, quick_dataset, tmp_path,
                                               monkeypatch):  # fmt: skip
    runner = CliRunner()
    # a study file: resumes the (complete) dataset, plays nothing, reports (the whole
    # report, drawn from the analyses of the same data: from_study)
    res, drawn, data, out = from_study
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert re.search(r"\b0 games played \([\d,]+ already done\)", text), text
    assert drawn == [((data, out), {"estimates_path": None, "payoff_games": 20})]
    assert out.read_bytes().startswith(b"%PDF")
    # a dataset: checked, then reported from itself with the options given. The report it
    # would write is the one above (computed and drawn again: half a minute of CPU that
    # checks nothing more), so the command's call of write_report is recorded instead
    import analysis.report

    calls = []
    monkeypatch.setattr(analysis.report, "write_report",
                        lambda *a, **kw: calls.append((a, kw)))  # fmt: skip
    out2 = tmp_path / "a.pdf"
    res = runner.invoke(cli, ["report", str(quick_dataset), "--out", str(out2),
                              "--payoff-games", "5"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert calls == [((quick_dataset, out2), {"estimates_path": None, "payoff_games": 5})]
    assert "report:" in res.output and not out2.exists()


def test_bad_sources_are_named(quick_dataset, tmp_path):
    with pytest.raises(SlicelabError, match="not a slicelab dataset"):
        check_dataset(tmp_path)
    partial = tmp_path / "partial"
    shutil.copytree(quick_dataset, partial)
    manifest = json.loads((partial / "manifest.json").read_text())
    chunk = manifest["chunks"][-1]
    files, chunk["files"], chunk["rows"] = chunk["files"], None, None  # a chunk not played yet
    (partial / "manifest.json").write_text(json.dumps(manifest))
    for f in files.values():
        (partial / f["path"]).unlink()
    with pytest.raises(SlicelabError, match="is not complete; resume it"):
        check_dataset(partial)
    fewer = tmp_path / "fewer"  # a complete study without one of the report's blocks
    shutil.copytree(quick_dataset, fewer)
    manifest = json.loads((fewer / "manifest.json").read_text())
    ladder = {a["name"] for a in manifest["study"]["arms"] if a.get("group") == "ladder"}
    manifest["study"]["arms"] = [a for a in manifest["study"]["arms"] if a["name"] not in ladder]
    manifest["chunks"] = [c for c in manifest["chunks"] if c["arm"] not in ladder]
    (fewer / "manifest.json").write_text(json.dumps(manifest))
    for arm in ladder:
        for d in fewer.glob(f"*/*/*p/{arm}"):
            shutil.rmtree(d)
    check_dataset(fewer)  # is reported, its unanswered questions listed (test_variant_report)
    assert "ladder" in REPORT.blocks
    res = CliRunner().invoke(cli, ["report", str(quick_dataset), "--size", "quick"])
    assert res.exit_code == 2 and "--size and --data apply to a study file" in res.output


# --------------------------------------------------------------------------------------
# How a game's report is found, and the generic report of a game that declares none
# --------------------------------------------------------------------------------------


def test_game_report_is_found_by_the_games_name():
    assert game_report("nyslice") is REPORT
    assert [s.label for s in REPORT.sections] == [
        "Seats", "Specials", "Eat or collect", "Player count", "What-if rule changes", "Ratings",
        "Sample size",
    ]  # fmt: skip
    generic = game_report("no-such-game")  # no analysis/<game>/: the generic sections
    assert [s.label for s in generic.sections] == ["Seats", "Player count", "Ratings",
                                                   "Sample size"]  # fmt: skip
    assert generic.blocks == ()


def _generic_dataset(out):
    """Two uniform blocks and a rotated pair of strategies: what the generic sections read."""
    import numpy as np
    from analysis_fixtures import SyntheticDataset, one_hot

    rng = np.random.default_rng(5)
    d = SyntheticDataset(out)
    for n, g in ((2, 150), (3, 120)):
        arm = d.arm(f"seats.p{n}", n, "greedy", group="seats")
        winners = rng.integers(0, n, g)
        score = rng.integers(10, 30, (g, n))
        score[np.arange(g), winners] = 40
        d.players(arm, win_share=one_hot(list(winners), n), score=score,
                  eaten=np.ones((g, n), dtype=int))  # fmt: skip
        d.games(arm, n_winners=[1] * g)
    for k, specs in enumerate((["greedy", "random"], ["random", "greedy"])):
        arm = d.arm(f"ladder.p2.r{k}", 2, specs, group="ladder", rotation=k)
        winners = rng.integers(0, 2, 80)
        score = np.full((80, 2), 10)
        score[np.arange(80), winners] = 20
        d.players(arm, win_share=one_hot(list(winners), 2), score=score,
                  eaten=np.ones((80, 2), dtype=int))  # fmt: skip
        d.games(arm, n_winners=[1] * 80)
    out = d.write()
    m = json.loads((out / "manifest.json").read_text())
    m["study"]["seed"] = 1
    m |= {"study_name": "generic", "study_file": "generic.toml", "study_hash": "0" * 12,
          "code_version": "test", "engines": {a: "kernel" for a in d.arms}, "fingerprints": {},
          "created": "2026-01-01T00:00:00+00:00", "complete": True}  # fmt: skip
    (out / "manifest.json").write_text(json.dumps(m))
    return out


def test_a_game_without_a_report_gets_the_generic_sections(tmp_path, monkeypatch):
    import analysis.report

    monkeypatch.setattr(analysis.report, "game_report", lambda game: game_report("no-such"))
    out = _generic_dataset(tmp_path / "data")
    check_dataset(out)  # declares no blocks: only completeness is checked
    r = compute(out, payoff_games=5)  # an option the sections do not read is ignored
    assert r.seat_block == "seats" and r.count_block == "seats"
    assert set(r.count["measure"]) == {"score", "spread", "margin", "shared_win", "close"}
    assert set(r.ratings["strategy"]) == {"greedy", "random"}
    table = summary(r)
    assert table["question"].unique(maintain_order=True).to_list() == [
        "1 Seats", "2 Player count", "3 Ratings", "4 Sample size",
    ]  # fmt: skip
    pdf = write_report(out, tmp_path / "generic.pdf", results=r)
    pages = pages_text(pdf)
    entries = assert_numbered_with_contents(pages, ["Seats", "Player count", "Ratings",
                                                    "Sample size"])  # fmt: skip
    assert list(entries)[4:] == [
        "1 Is the first player favoured?", "2 Does the game hold up from 2 to 3 players?",
        "3 Strategy ratings", "4 Are there enough games?",
        "Appendix A — Player count: every estimate",
        "Appendix B — Sample size: every headline cell",
    ]  # fmt: skip
    assert len(pages) == 10  # page 1, contents, about, glossary, 4 sections, 2 appendices
    # page 1 ends with the command that regenerates the report (options it takes only)
    command = f"slicelab report generic.toml --data {out} --out"
    assert regenerate_command(r, "x.pdf") == f"{command} x.pdf"  # payoff_games: not read
    assert "".join(f"{command} {pdf}".split()) in "".join(pages[0].split())  # lines break
    manifest = {**r.manifest, "study_file": "<study>"}  # a study made in code: from the data
    made = dataclasses.replace(
        r, manifest=manifest, options={"payoff_games": 7, "n_boot": 50},
        report=dataclasses.replace(r.report, options={"payoff_games": 300, "n_boot": 1000}),
    )  # fmt: skip
    assert regenerate_command(made, "x.pdf") == (
        f"slicelab report {out} --out x.pdf --payoff-games 7  (and, in Python, the report "
        "options n_boot=50)"
    )


def _verdicts(n: int = 2, long: bool = False):
    more = (" This sentence is long on purpose, with numbers like +2.3 pp [+0.4, +4.1] and "
            "a Supercalifragilisticexpialidocious-word-without-any-break-in-it, so that it "
            "wraps over several lines of the verdict page.") * (3 if long else 0)  # fmt: skip
    labels = ["robust", "not robust: sign differs in greedy field", "not checked"]

    def verdicts(r):
        return [
            Verdict(f"Question {k}: is the first seat favoured?{more[:120]}",
                    f"Answer {k}: no, seat 0 wins its fair share.{more}",
                    f"+1.{k} pp [-3.0, +5.0]{more[:200]}", 1234 + k, "deals", labels[k % 3],
                    f"Recommendation {k}: deal again.{more}" if k % 3 != 2 else "",
                    ("Seats", "Ratings", "No such section")[k % 3], more)
            for k in range(n)
        ]  # fmt: skip

    return verdicts


@pytest.fixture
def generic(monkeypatch):
    """The generic report, for the synthetic dataset of :func:`_generic_dataset`."""
    import analysis.report

    report = game_report("no-such")
    monkeypatch.setattr(analysis.report, "game_report", lambda game: report)
    return report


def test_page_one_shows_the_verdicts_and_the_appendix_every_headline(tmp_path, generic):
    out = _generic_dataset(tmp_path / "data")
    report = dataclasses.replace(generic, verdicts=_verdicts(3),
                                 glossary={"High card": "The card that wins a trick."})  # fmt: skip
    r = compute(out)
    r = dataclasses.replace(r, report=report)
    pdf = write_report(out, tmp_path / "v.pdf", results=r, command="slicelab report x.toml")
    pages = pages_text(pdf)
    entries = assert_numbered_with_contents(pages, ["Seats", "Player count", "Ratings",
                                                    "Sample size"])  # fmt: skip
    assert list(entries)[0] == "Verdicts"
    first = pages[0]
    for k in range(3):
        assert f"{k + 1}. Question {k}: is the first seat favoured?" in first
        assert f"Answer {k}: no, seat 0 wins its fair share." in first
        assert f"+1.{k} pp [-3.0, +5.0]; n = {1234 + k:,} deals" in first
    assert "robust" in first and "not robust: sign differs in greedy field" in first
    # a recommendation is printed only from a robust effect; the others say why not
    assert "not checked" in first and "Recommendation 0: deal again." in first
    assert "Recommendation 1" not in first
    assert ("No recommendation: its effect is not robust: sign differs in greedy field; a "
            "recommendation needs an effect that holds in every field") in first  # fmt: skip
    seats = entries["1 Is the first player favoured?"]
    ratings = entries["3 Strategy ratings"]
    assert f"see section 1, page {seats}" in first and f"see section 3, page {ratings}" in first
    assert "see No such section" in first
    assert "Regenerate this report:" in first and "slicelab report x.toml" in first
    # the headline table is appendix A; the sections' appendices follow
    appendix = [t for t in entries if "Appendix" in t]
    assert [t.split(" — ")[0] for t in appendix] == [
        "Appendix A", "Appendix B", "Appendix C"]  # fmt: skip
    assert "All headline numbers" in appendix[0]
    page = pages[entries[appendix[0]] - 1]
    for finding in summary(r)["finding"]:
        assert " ".join(finding.split())[:40] in page
    # the glossary merges the game's terms with the generic ones, in alphabetical order
    glossary = pages[entries["Glossary"] - 1]
    assert "High card The card that wins a trick." in glossary
    squashed = "".join(glossary.split())  # a term may wrap in its column
    assert all("".join(term.split())[:12] in squashed for term in GLOSSARY)


def text_boxes(pdf) -> list[list[tuple[float, float, str]]]:
    """Per page: every piece of text with where it starts (x, y in points from the bottom
    left) — from the PDF's text operators."""
    out = []
    for p in PdfReader(pdf).pages:
        found: list[tuple[float, float, str]] = []

        def visit(text, cm, tm, font, size, found=found):
            if text.strip():
                found.append((cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3], text))

        p.extract_text(visitor_text=visit)
        out.append(found)
    return out


def test_long_verdicts_wrap_inside_the_page(tmp_path, generic):
    out = _generic_dataset(tmp_path / "data")
    report = dataclasses.replace(generic, verdicts=_verdicts(8, long=True))
    r = dataclasses.replace(compute(out), report=report)
    pdf = write_report(out, tmp_path / "long.pdf", results=r)
    pages = pages_text(pdf)
    first = dict(contents(pages))["Contents"] - 1
    assert first >= 2  # eight long verdicts go on over the next page
    flat = " ".join(pages[:first])
    assert all(f"Question {k}" in flat for k in range(8))
    width, height = (float(x) for x in PdfReader(pdf).pages[0].mediabox[2:])
    for boxes in text_boxes(pdf)[:first]:
        for x, y, text in boxes:
            # every line starts inside the margins (Typst breaks a word too long for one)
            assert 0.05 * width <= x <= 0.9 * width and 0 < y < height, (x, y, text[:60])
    # a short list fits page 1
    report = dataclasses.replace(report, verdicts=_verdicts(6))
    pdf = write_report(out, tmp_path / "short.pdf", results=dataclasses.replace(r, report=report))
    assert dict(contents(pages_text(pdf)))["Contents"] == 2


def test_a_count_has_one_colour_everywhere():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import same_color
    from matplotlib.figure import Figure

    from analysis.formats import COUNT_COLOURS, count_colour
    from analysis.playercount import plot_player_count
    from analysis.seats import plot_seat_advantage

    assert count_colour(4) == COUNT_COLOURS[4] == "tab:green" and count_colour(7) != ""
    seat = pl.DataFrame({"players": [2, 2, 4, 4, 4, 4], "seat": [0, 1, 0, 1, 2, 3],
                         "win_share": [0.5, 0.5, 0.2, 0.3, 0.25, 0.25]})  # fmt: skip
    seat = seat.with_columns(win_low=pl.col("win_share") - 0.05,
                             win_high=pl.col("win_share") + 0.05)  # fmt: skip
    ax = plot_seat_advantage(seat, Figure().add_subplot())
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert same_color(lines["2 players"].get_color(), "tab:blue")
    assert same_color(lines["4 players"].get_color(), "tab:green")
    bars = [c for c in ax.collections if c.get_zorder() > lines["4 players"].get_zorder()]
    assert len(bars) >= 2  # the intervals are drawn over the markers
    count = pl.DataFrame({"players": [2, 4], "measure": ["margin", "margin"],
                          "estimate": [3.0, 5.0], "low": [2.0, 4.0],
                          "high": [4.0, 6.0]})  # fmt: skip
    (ax,) = plot_player_count(count, [Figure().add_subplot()])
    colours = [line.get_color() for line in ax.get_lines() if line.get_marker() == "o"]
    assert [same_color(c, count_colour(n)) for c, n in zip(colours, (2, 4), strict=True)] == [
        True, True]  # fmt: skip
    assert ax.get_xlabel() == "player count"


# --------------------------------------------------------------------------------------
# Sentences of interpretation (analysis.prose): each flips with its numbers
# --------------------------------------------------------------------------------------


def test_side_and_effect_flip_with_the_interval():
    from analysis.prose import effect, side

    assert (side(0.5, 2.0), side(-2.0, -0.5), side(-1.0, 1.0)) == ("above", "below", "covers")
    assert side(0.4, 0.6, reference=0.5) == "covers" and side(float("nan"), 1) == "none"
    assert effect(2.0, 0.5, 3.5) == "+2.0 pp [+0.5, +3.5]"
    assert effect(0.4, -1.0, 1.8) == "+0.4 pp [-1.0, +1.8] (the interval covers 0)"
    assert effect(0.6, 0.55, 0.65, "", ".2f", reference=0.5) == "0.60 [0.55, 0.65]"
    assert effect(0.6, 0.45, 0.65, "", ".2f", reference=0.5).endswith("covers 0.5)")


def test_fairness_sentence_flips_with_the_p_values():
    from analysis.prose import fairness_sentence

    assert fairness_sentence([2, 3, 4], [0.001, 0.2, 0.04]) == (
        "Equal shares are rejected at 2 and 4 players (χ² test)."
    )
    assert fairness_sentence([2, 3, 4], [0.5, 0.2, 0.06]) == (
        "No player count rejects equal shares (χ² test)."
    )


def test_first_seat_sentence_says_ahead_behind_or_covers():
    from analysis.prose import by_side, first_seat_sentence

    text = first_seat_sentence([2, 3], [5.0, -1.0], [2.0, -3.0], [8.0, 1.0], "Seat 0")
    assert text == (
        "Seat 0 against the fair share: 2p +5.0 pp [+2.0, +8.0]; 3p -1.0 pp "
        "[-3.0, +1.0]. It is ahead at 2 players; not distinguishable from 0 at 3 players."
    )
    # the same counts with the signs flipped: behind where it was ahead
    assert by_side([2, 3], [-8.0, -3.0], [-2.0, 1.0]) == (
        "behind at 2 players; not distinguishable from 0 at 3 players"
    )
    assert by_side([2, 3, 4], [1.0, 2.0, -5.0], [3.0, 4.0, -1.0]) == (
        "ahead at 2 and 3 players; behind at 4 players"
    )


def test_sign_agreement_counts_flip_with_the_estimates():
    from analysis.prose import agreement_sentence, sign_labels

    est = [[1.0, 2.0, 0.5], [1.0, -2.0, 0.5]]
    assert sign_labels(est) == ["same sign", "sign differs"]
    assert sign_labels([[-1.0, -2.0, None]]) == ["same sign"]  # a missing field is skipped
    low = [[0.2, 1.0, 0.1], [-1.0, -3.0, -0.5]]
    high = [[1.8, 3.0, 0.9], [3.0, -1.0, 1.5]]
    fields = ["a", "b", "c"]
    assert agreement_sentence(fields, est, low, high) == (
        "The 3 fields (a, b and c) agree on the sign of the first seat's edge at 1 of 2 "
        "player counts; at 1 of them every field's interval excludes 0 on that side."
    )
    low[0][2] = -0.1  # one interval now covers 0: the agreement is no longer settled
    assert agreement_sentence(fields, est, low, high).endswith(
        "at 1 of 2 player counts, but at none of them do all their intervals exclude 0."
    )
    flipped = [[1.0, -2.0, 0.5], [1.0, -2.0, 0.5]]
    assert agreement_sentence(fields, flipped, low, high).endswith("at 0 of 2 player counts.")


NEGATIVE_ZERO = [
    ((0.2, -0.04, 0.3), "+0.2 pp [+0.0, +0.3]"),
    ((-0.04, -1.0, 1.0, "Elo", "+.0f"), "+0 Elo [-1, +1]"),
    ((12.0, -0.03, 0.0, "%", ".1f"), "12.0 % [0.0, 0.0]"),
]


@pytest.mark.parametrize("args, text", NEGATIVE_ZERO)
def test_intervals_never_print_negative_zero(args, text):
    from analysis.formats import ci

    assert ci(*args) == text


def test_page_one_puts_the_largest_imbalance_first():
    """Verdicts with a size (pp) come first, largest first; the others keep their order."""
    from analysis.report import by_size

    v = [Verdict(q, "a", "e", 1, "games", size=s)
         for q, s in [("small", 1.0), ("length", None), ("big", 5.0), ("odd", float("nan")),
                      ("ratings", None), ("mid", 2.5)]]  # fmt: skip
    assert [x.question for x in by_size(v)] == ["big", "mid", "small", "length", "odd", "ratings"]


@pytest.mark.parametrize(
    ("low", "high", "size"),
    [(0.4, 4.1, 0.4), (-6.0, -1.5, 1.5), (-2.0, 9.0, 0.0), (float("nan"), 3.0, 0.0)],
)
def test_a_verdicts_size_is_how_far_its_interval_lies_from_zero(low, high, size):
    """A wide interval around a large noisy estimate is not a large imbalance."""
    from analysis.verdicts import clear_size, largest_clear

    assert clear_size(low, high) == size
    assert largest_clear([low, -2.0], [high, 9.0]) == size
