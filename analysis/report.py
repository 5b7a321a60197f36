"""The balance report of a dataset, as a PDF, assembled from its game's sections.

The report of a study's game is the ``REPORT`` (:class:`~analysis.sections.GameReport`)
of ``analysis/<game>/report.py`` (or of ``analysis/<game>/__init__.py``), found by name
(:func:`game_report`): the study blocks it reads, its title-page text and its sections. A
game without one gets the generic sections of :mod:`analysis.sections` (seats, player
count, ratings, sample size), which read only the core schema.

:func:`compute` runs every section's analyses once (:class:`Results`), :func:`summary`
condenses them to one row per headline number, and :func:`write_report` lays them out: a
title page with provenance, a one-page summary, then the sections' pages, each with its
figures, tables and sentences of interpretation computed from the numbers they state.
"""

from __future__ import annotations

import textwrap
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path
from typing import Any

import polars as pl
from matplotlib.backends.backend_pdf import PdfPages

from analysis.load import manifest, study_game
from analysis.pdf import document, page, para, table
from analysis.sections import GENERIC_SECTIONS, GameReport, Results, Row, Section
from sims.core.errors import SlicelabError
from sims.core.game import get_game

__all__ = ["GameReport", "Results", "Section", "check_dataset", "compute", "game_report",
           "summary", "write_report"]  # fmt: skip


def game_report(game: str) -> GameReport:
    """The report ``game`` declares (``REPORT`` in ``analysis/<game>/report.py`` or
    ``analysis/<game>/__init__.py``), else the generic one."""
    for name in (f"analysis.{game}.report", f"analysis.{game}"):
        try:
            module = import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
                continue  # no such module: try the next place
            raise
        found = getattr(module, "REPORT", None)
        if isinstance(found, GameReport):
            return found
    return GameReport(sections=tuple(make() for make in GENERIC_SECTIONS))


def check_dataset(out: str | Path) -> None:
    """Refuse a dataset the report cannot read, naming what is missing.

    Raises
    ------
    SlicelabError
        When ``out`` is not a complete dataset of a study with the blocks its game's
        report reads.
    """
    m = manifest(out)
    game = study_game(m)
    report = game_report(game)
    have = {a.get("group", a["name"]) for a in m["study"]["arms"]}
    missing = [b for b in report.blocks if b not in have]
    if missing:
        example = f" (e.g. {report.example})" if report.example else ""
        raise SlicelabError(
            f"{out} lacks the study blocks {missing} the {get_game(game).info.title} report "
            f"reads; run a study with them{example}"
        )
    if not m.get("complete"):
        raise SlicelabError(
            f"{out} is not complete; resume it (slicelab study {m.get('study_file')} --out "
            f"{out}) before reporting"
        )


def compute(out: str | Path, **options: Any) -> Results:
    """Run every analysis of the report of a dataset's game.

    Parameters
    ----------
    out : path
        The dataset directory.
    **options
        The game's report options (:attr:`GameReport.options`: for New York Slice
        ``payoff_games``, the games per player count whose eat-or-collect decisions are
        replayed both ways, and ``n_boot``, the bootstrap resamples for the best θ);
        options the game's report does not read are ignored.
    """
    out = Path(out)
    m = manifest(out)
    game = study_game(m)
    report = game_report(game)
    r = Results(out=out, manifest=m, game=game, report=report,
                options={**report.options, **options})  # fmt: skip
    for section in report.sections:
        r.tables.update(section.compute(r))
    return r


def summary(r: Results) -> pl.DataFrame:
    """One row per headline number: ``question, finding, estimate, games, warning``."""
    rows: list[Row] = []
    for num, section in enumerate(r.report.sections, 1):
        if section.headlines is not None:
            rows += section.headlines(r, f"{num} {section.label}", list(rows))
    return pl.DataFrame(rows, schema={"question": pl.String, "finding": pl.String,
                                      "estimate": pl.String, "games": pl.Int64,
                                      "warning": pl.String})  # fmt: skip


# ----------------------------------------------------------------------------- pages


def _blocks(study: dict) -> dict[str, list]:
    """Per study block: arms, games and player counts."""
    blocks: dict[str, list] = {}
    for a in study["arms"]:
        b = blocks.setdefault(a.get("group", a["name"]), [0, 0, set()])
        b[0] += 1
        b[1] += a["games"]
        b[2].add(a["players"])
    return blocks


def _default_provenance(m: dict) -> list[tuple[str, str]]:
    fps = list(m["fingerprints"].values())
    fp = fps[0] if fps else {}
    variants = sorted({f.get("variant_id", "?") for f in fps})
    return [("Rules", f"{fp.get('rules_version', '?')}; variants: {', '.join(variants) or '?'}")]


def _title_page(pdf: PdfPages, r: Results) -> None:
    m = r.manifest
    study = m["study"]
    report = r.report
    fig = page()
    fig.text(0.06, 0.90, report.title or get_game(r.game).info.title, fontsize=26,
             weight="bold")  # fmt: skip
    fig.text(0.06, 0.865, report.subtitle, fontsize=18)
    fig.text(0.06, 0.835, "slicelab — simulated games, effects with 95% intervals",
             fontsize=10, style="italic")  # fmt: skip
    blocks = _blocks(study)
    game_rows = (report.provenance or _default_provenance)(m)
    prov = [
        ("Study", f"{m['study_name']}  ({m['study_file']})"),
        ("Study hash", m["study_hash"]),
        ("Seed", str(study["seed"])),
        ("Games", f"{sum(b[1] for b in blocks.values()):,} in {len(study['arms'])} arms"),
        ("Code version", m["code_version"]),
        ("Engines", ", ".join(sorted(set(m["engines"].values())))),
        *game_rows,
        ("Data", str(r.out)),
        ("Dataset written", f"{m['created']} (complete: {m['complete']})"),
        ("Report built", datetime.now(UTC).isoformat(timespec="seconds")),
    ]
    y = 0.79
    for k, v in prov:
        fig.text(0.06, y, k, fontsize=9.5, weight="bold", va="top")
        lines = textwrap.fill(v, 78).splitlines()
        fig.text(0.26, y, "\n".join(lines), fontsize=9.5, va="top", family="monospace")
        y -= 0.022 * len(lines)
    y -= 0.015
    fig.text(0.06, y, "Study blocks", fontsize=11, weight="bold", va="top")
    y -= 0.03
    frame = pl.DataFrame(
        [
            {"block": g, "arms": b[0], "games": f"{b[1]:,}",
             "players": ", ".join(map(str, sorted(b[2])))}
            for g, b in blocks.items()
        ]
    )  # fmt: skip
    y = table(fig, y, frame, [0.3, 0.12, 0.2, 0.26], size=8.5)
    for text in report.notes(r) if report.notes else []:
        y = para(fig, y, text, 9)
    pdf.savefig(fig)


def _summary_page(pdf: PdfPages, r: Results, table_: pl.DataFrame) -> None:
    fig = page("Summary")
    where = [i for i, s in enumerate(r.report.sections, 1) if s.label == "Sample size"]
    see = f" (section {where[0]})" if where else ""
    y = para(fig, 0.925, "One line per headline number. Estimates are differences in win "
             "share (percentage points) unless marked, with 95% intervals. 'warning' marks "
             f"a number too small to support its claim{see}.", 9)  # fmt: skip
    shown = table_.with_columns(pl.col("games").cast(pl.String).replace("0", ""))
    table(fig, y, shown, [0.1, 0.33, 0.2, 0.07, 0.22], size=6.5, x=0.04)
    pdf.savefig(fig)


def write_report(
    out: str | Path, pdf_path: str | Path, results: Results | None = None, **options: Any
) -> Path:
    """Compute every analysis of a dataset's report and write the PDF atomically.

    Parameters
    ----------
    out : path
        The dataset directory (its study must hold the blocks its game's report reads:
        :func:`check_dataset`).
    pdf_path : path
        Where to write the PDF; its directory is created.
    results : Results, optional
        Already computed analyses of ``out`` (skips :func:`compute`).
    **options
        The game's report options (see :func:`compute`).

    Returns
    -------
    Path
        ``pdf_path``.
    """
    r = results or compute(out, **options)
    headlines = summary(r)
    title = r.report.title or get_game(r.game).info.title
    with document(pdf_path, f"{title} balance — {r.manifest['study_name']}") as pdf:
        _title_page(pdf, r)
        _summary_page(pdf, r, headlines)
        for num, section in enumerate(r.report.sections, 1):
            section.draw(pdf, r, num)
    return Path(pdf_path)
