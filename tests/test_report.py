"""The balance report: summary content, the PDF, and the `slicelab report` command."""

from __future__ import annotations

import json
import re
import shutil

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import BALANCE

from analysis.report import BLOCKS, check_dataset, compute, summary, write_report
from sims.cli import cli
from sims.core.errors import SlicelabError


@pytest.fixture(scope="module")
def results(quick_dataset):
    return compute(quick_dataset, payoff_games=20, n_boot=200)


def test_summary_answers_every_question(results):
    table = summary(results)
    assert set(table["question"].str.slice(0, 1)) == {"1", "2", "3", "4", "5", "6"}
    # one seat row per player count, strongest and weakest special per count, best theta
    for q, per_count in (("1 Seats", 5), ("3 Eat or collect", 10), ("2 Specials", 10)):
        assert table.filter(pl.col("question") == q).height >= per_count
    assert table.filter(pl.col("finding").str.contains("slicing one more time")).height == 1
    flagged = table.filter(pl.col("question") == "6 Sample size")["finding"][0]
    n_warn = int((table["warning"] != "").sum())
    assert f"{n_warn} of {table.height - 1}" in flagged


def test_quick_data_is_flagged_as_too_small(results):
    # the quick size has 12-80 deals per theta cell: every best-theta row must carry a warning
    assert (results.best_theta["warning"] != "").all()


def test_report_pdf_has_every_section(results, quick_dataset, tmp_path):
    pdf = write_report(quick_dataset, tmp_path / "sub" / "r.pdf", results=results)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    assert pages == 11
    assert not list(pdf.parent.glob(".*.tmp"))  # written atomically


def test_cli_report_from_dataset_and_from_study(quick_dataset, tmp_path):
    runner = CliRunner()
    out = tmp_path / "a.pdf"
    res = runner.invoke(cli, ["report", str(quick_dataset), "--out", str(out),
                              "--payoff-games", "5"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert out.read_bytes().startswith(b"%PDF")
    # a study file: resumes the (complete) dataset, plays nothing, reports
    out2 = tmp_path / "b.pdf"
    args = ["report", str(BALANCE), "--size", "quick", "--data", str(quick_dataset)]
    res = runner.invoke(cli, [*args, "--out", str(out2), "--payoff-games", "5"])
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert re.search(r"\b0 games played \([\d,]+ already done\)", text), text
    assert out2.is_file()


def test_bad_sources_are_named(quick_dataset, tmp_path):
    with pytest.raises(SlicelabError, match="not a slicelab dataset"):
        check_dataset(tmp_path)
    partial = tmp_path / "partial"
    shutil.copytree(quick_dataset, partial)
    manifest = json.loads((partial / "manifest.json").read_text())
    manifest["complete"] = False
    (partial / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SlicelabError, match="is not complete; resume it"):
        check_dataset(partial)
    manifest["complete"] = True
    manifest["study"]["arms"] = [a for a in manifest["study"]["arms"]
                                 if a.get("group") != "ladder"]  # fmt: skip
    (partial / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SlicelabError, match=r"lacks the study blocks \['ladder'\]"):
        check_dataset(partial)
    assert "ladder" in BLOCKS
    res = CliRunner().invoke(cli, ["report", str(quick_dataset), "--size", "quick"])
    assert res.exit_code == 2 and "--size and --data apply to a study file" in res.output
