"""The balance report: summary content, the PDF, the `slicelab report` command, how a
game's report is found (or the generic one built), and the sentence helpers of
:mod:`analysis.prose`, each shown to flip with its numbers."""

from __future__ import annotations

import json
import re
import shutil

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import BALANCE

from analysis.nyslice.report import REPORT
from analysis.report import check_dataset, compute, game_report, summary, write_report
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
    assert table.filter(pl.col("finding").str.contains("slicing twice vs seat order")).height == 1
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
    chunk = manifest["chunks"][-1]
    files, chunk["files"], chunk["rows"] = chunk["files"], None, None  # a chunk not played yet
    (partial / "manifest.json").write_text(json.dumps(manifest))
    for f in files.values():
        (partial / f["path"]).unlink()
    with pytest.raises(SlicelabError, match="is not complete; resume it"):
        check_dataset(partial)
    ladder = {a["name"] for a in manifest["study"]["arms"] if a.get("group") == "ladder"}
    manifest["study"]["arms"] = [a for a in manifest["study"]["arms"] if a["name"] not in ladder]
    manifest["chunks"] = [c for c in manifest["chunks"] if c["arm"] not in ladder]
    (partial / "manifest.json").write_text(json.dumps(manifest))
    for arm in ladder:
        for d in partial.glob(f"*/game=*/players=*/arm={arm}"):
            shutil.rmtree(d)
    with pytest.raises(SlicelabError, match=r"lacks the study blocks \['ladder'\]"):
        check_dataset(partial)
    assert "ladder" in REPORT.blocks
    res = CliRunner().invoke(cli, ["report", str(quick_dataset), "--size", "quick"])
    assert res.exit_code == 2 and "--size and --data apply to a study file" in res.output


# --------------------------------------------------------------------------------------
# How a game's report is found, and the generic report of a game that declares none
# --------------------------------------------------------------------------------------


def test_game_report_is_found_by_the_games_name():
    assert game_report("nyslice") is REPORT
    assert [s.label for s in REPORT.sections] == [
        "Seats", "Specials", "Eat or collect", "Player count", "Ratings", "Sample size",
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
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))
    assert pages == 6  # title, summary, seats, player count, ratings, sample size


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
        "Seat 0 against the mean of the other seats: 2p +5.0 pp [+2.0, +8.0]; 3p -1.0 pp "
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
