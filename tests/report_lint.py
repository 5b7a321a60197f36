"""A lint of a report's printed text: what a designer reads must not show code.

:func:`lint` reads the text of a PDF report's pages and returns every problem found:

- a snake_case identifier that is not a name the user types (a rule option, a data-file
  key or a study key documented in the game's rules document, ``docs/rules/<game>.md``);
- an UPPER_CASE constant or a dotted code name (``players.position``);
- a Python literal (``True``, ``False``, ``None``, a quoted list or dict);
- a file path that is not the study's or the dataset's own (an absolute path of the
  machine that built it);
- counts that disagree: the sample-size section's "k of N cells" and its appendix.

The per-game report tests call it on the report they build; ``test_report_lint.py``
shows it catches each kind of problem.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SNAKE = re.compile(r"(?<![\w./-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w(])")
CONSTANT = re.compile(r"(?<![\w./-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w])")
DOTTED = re.compile(r"(?<![\w./-])([a-z_]+\.[a-z_]+(?:\.[a-z_]+)*)(?![\w(./-])")
FILE = re.compile(r"\.(toml|pdf|md|parquet|json|csv|ipynb)$")
LITERAL = re.compile(r"(?<![\w'\"])(True|False|None)(?![\w'\"])|\[\s*'[^']*',|\{\s*'[^']*':")
ABSOLUTE = re.compile(r"(?<![\w.])(/(?:[\w.+-]+/)+[\w.+-]*)")
CELLS = re.compile(r"(\d[\d,]*) of (\d[\d,]*) (?:headline )?cells")

DOTTED_OK = {"e.g", "i.e", "vs", "analysis.load.scan"}
"""Dotted words that are prose or a documented entry point, not a code name."""


def documented_names(game: str) -> set[str]:
    """The snake_case names a user types, as the game's rules document spells them in
    code: rule options, data-file keys, study keys."""
    doc = (ROOT / "docs" / "rules" / f"{game}.md").read_text("utf-8")
    names = set(re.findall(r"`([^`]+)`", doc))
    found = set()
    for name in names:
        found.update(SNAKE.findall(name))
    study = (ROOT / "sims" / "core" / "study.py").read_text("utf-8")
    found.update(re.findall(r"``([a-z]+(?:_[a-z0-9]+)+)", study))  # study keys
    return found


def report_options(game: str) -> set[str]:
    """The game's report options (``n_boot``): names a user passes to the report in Python,
    which the regenerating command names when they differ from the defaults."""
    from analysis.report import game_report

    return set(game_report(game).options)


def lint(pages: list[str], game: str, own_paths: tuple[str, ...] = ()) -> list[str]:
    """Every problem in a report's text (see the module notes), one line each.

    Parameters
    ----------
    pages : list of str
        Each page's text, whitespace collapsed.
    game : str
        The game's registry name (its rules document lists the names a user types).
    own_paths : tuple of str
        The study's and the dataset's own paths, which the report names by design (the
        study line and the command that regenerates the report).
    """
    allowed = documented_names(game) | report_options(game)
    problems = []
    for k, raw in enumerate(pages, 1):
        # the PDF text breaks a line after a hyphen or an underscore: join them again
        text = re.sub(r"(?<=[\w/])([-_/]) (?=[\w/])", r"\1", raw)
        for path in sorted(own_paths, key=len, reverse=True):
            text = text.replace(path, " ")
        text = re.sub(r"(_[a-z0-9]*)-(?=[a-z])", r"\1", text)  # a name hyphenated by the layout
        where = f"page {k}"
        for name in SNAKE.findall(text):
            if name not in allowed:
                problems.append(f"{where}: code name {name!r}")
        for name in CONSTANT.findall(text):
            problems.append(f"{where}: constant {name!r}")
        for name in DOTTED.findall(text):
            if name in DOTTED_OK or FILE.search(name) or re.fullmatch(r"[a-z]\.[a-z]", name):
                continue
            if True:
                problems.append(f"{where}: dotted code name {name!r}")
        for m in LITERAL.finditer(text):
            problems.append(f"{where}: Python literal {m.group(0)!r}")
        for path in ABSOLUTE.findall(text):
            problems.append(f"{where}: absolute path {path!r}")
    counts = {m.groups() for raw in pages for m in CELLS.finditer(raw)}
    totals: dict[str, set[str]] = {}
    for k, n in counts:
        totals.setdefault(n, set()).add(k)
    for n, ks in totals.items():
        if len(ks) > 1:
            problems.append(f"flagged cells of {n} disagree: {sorted(ks)}")
    if len({n for _, n in counts}) > 1:
        problems.append(f"the headline cells are counted differently: {sorted(counts)}")
    return problems
