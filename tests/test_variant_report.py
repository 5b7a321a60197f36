"""A designer's own study gets a report: the balance study ``slicelab plan`` writes for a
variant of each game (a data file with one value changed and a rule what-if) is played at
its quick size and reported through the command line, and page 1 names the variant and
answers what its rule change does; a study written by hand with only some of the blocks a
game's report reads gets a report that answers what its blocks support and lists the
questions it cannot answer, with the blocks that would answer them."""

from __future__ import annotations

import re
import tomllib
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from analysis.report import compute, game_report, unanswered
from sims.cli import cli
from tests.test_plan import VARIANTS, variant_file

ROOT = Path(__file__).resolve().parents[1]


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    tb = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else ""
    assert result.exit_code == 0, result.output + tb
    return result.output


def pages(pdf: Path) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]


def verdict_pages(text: list[str]) -> str:
    """The text of page 1 and its continuations (the pages before the contents)."""
    end = next(i for i, t in enumerate(text) if t.startswith("Contents"))
    return " ".join(text[:end])


# one worker runs each game's variant (--dist loadgroup), beside its other report tests
@pytest.mark.parametrize(
    "game", [pytest.param(g, marks=pytest.mark.xdist_group(f"{g}-variant")) for g in VARIANTS]
)
def test_a_planned_variant_study_gets_a_report_naming_the_variant(game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, flag, _, rule = VARIANTS[game]
    mine = variant_file(game, tmp_path)
    invoke("plan", game, flag, mine.name, "--rule", rule, "--out", "mine.toml")
    variant = tomllib.loads((tmp_path / "mine.toml").read_text("utf-8"))["variant"]
    # New York Slice's eat-or-collect replays 20 games a count, not the report's 300 (as the
    # report tests do: nothing here reads those numbers; the other games ignore the option)
    out = invoke("report", "mine.toml", "--size", "quick", "--jobs", "1", "--out", "mine.pdf",
                 "--payoff-games", "20")  # fmt: skip
    assert "report: mine.pdf" in out
    text = pages(tmp_path / "mine.pdf")
    front = verdict_pages(text)
    label = variant["label"]
    assert mine.name in label and rule.split("=")[0] in label
    assert f"Balance report of a designer's variant ({label})" in front
    assert f"Every verdict below is measured on the variant ({label})" in front
    assert "What does the variant's rule change do to the first player?" in front
    # the rule-change section: one row per player count of the compared block, paired deals
    section = next(t for t in text if "What the variant's rule change does" in t[:80])
    assert "whatif-default-" in section and "deals (paired)" in section
    # every question of the game's report is answered (the study has every block), except
    # one whose treatment block the variant already plays: Pizza Theory's variant drops the
    # safety rule, which its safety-off block is there to drop
    if game == "pizzatheory":
        # its boards are compared with the designer's board, not a default one
        assert "the default board's largest edge" not in " ".join(text)
        assert "Questions this study cannot answer" in front
        assert "Safety rule safety-off (the variant sets safety = false itself)" in front
        assert "Does the safety rule matter?" not in front
    else:
        assert "Questions this study cannot answer" not in front
    # the about page names the variant
    about = next(t for t in text if t.startswith("About this study"))
    assert f"Variant {label}" in about


# -------------------------------------------------------------- a study with some blocks


def _some_blocks(keep: set[str], out: Path, game: str = "pizzatheory") -> Path:
    """The shipped balance study of ``game`` with only the blocks ``keep``."""
    text = (ROOT / "studies" / f"{game}-balance.toml").read_text("utf-8")
    head, *blocks = re.split(r"(?m)^\[\[arms\]\]\n", text)
    kept = [b for b in blocks if re.search(r'(?m)^name = "([^"]+)"', b)[1] in keep]
    head = re.sub(rf'(?m)^name = "{game}-balance"', f'name = "my-{game}"', head)
    out.write_text(head + "".join("[[arms]]\n" + b for b in kept), encoding="utf-8")
    return out


@pytest.mark.xdist_group("pizzatheory-variant")
def test_a_study_with_some_blocks_answers_what_it_can_and_lists_the_rest(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    study = _some_blocks({"seats", "seats-random", "safety-off"}, tmp_path / "mine.toml")
    invoke("study", str(study), "--size", "quick", "--jobs", "1", "--out", "d")
    r = compute(tmp_path / "d")
    left = unanswered(r)
    report = game_report("pizzatheory")
    assert {u.section for u in left} == {"First placement", "Board shape", "Skill levels"}
    named = {b for u in left for b in u.block.split(", ")}
    assert named <= set(report.blocks) - {"seats", "seats-random", "safety-off"}
    labels = [s.label for s in r.report.sections]
    assert not {u.section for u in left} & set(labels)
    assert {"Seats", "Safety rule", "Sample size"} <= set(labels)
    invoke("report", "d", "--out", "mine.pdf")
    text = pages(tmp_path / "mine.pdf")
    front = verdict_pages(text)
    assert "Questions this study cannot answer" in front
    joined = front.replace("- ", "-")  # a block name broken at a hyphen by the layout
    for u in left:
        assert u.section in front and u.block  # the section declares the blocks it needs
        assert all(b in joined for b in u.block.split(", ")), u
    for block in ("blind", "board-hex-61", "ladder"):
        assert block in front
    assert "Does the safety rule matter?" in front  # answered: its blocks are there
    assert "slicelab plan" in front


@pytest.mark.xdist_group("nyslice-variant")
def test_a_new_york_slice_study_of_its_seat_block_only_is_reported(tmp_path, monkeypatch):
    """The specials' question needs the forfeit blocks: without them it is listed as
    unanswered (its analysis raised a bare KeyError once, and the report crashed)."""
    monkeypatch.chdir(tmp_path)
    study = _some_blocks({"seats"}, tmp_path / "mine.toml", game="nyslice")
    invoke("study", str(study), "--size", "quick", "--jobs", "1", "--out", "d")
    left = unanswered(compute(tmp_path / "d"))
    assert "Specials" in {u.section for u in left}
    assert any("forfeit" in u.block for u in left)
    invoke("report", "d", "--out", "mine.pdf")
    assert "Questions this study cannot answer" in verdict_pages(pages(tmp_path / "mine.pdf"))
