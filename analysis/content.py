"""What a report says, as data: content blocks that one typesetter lays out.

A section of a report returns a list of blocks — a heading, a paragraph, a chart, a table,
a verdict — and never a page coordinate: :mod:`analysis.typeset` paginates them, numbers
the pages, builds the contents and keeps every table inside the margins. Blocks hold plain
text only (no markup), so whatever a string contains is printed as written.

The blocks:

- :class:`Heading`: a section title (level 1, starts a page, listed in the contents), a
  subsection (level 2, listed) or a minor heading (level 3, not listed);
- :class:`Prose`: a paragraph;
- :class:`Plot`: a matplotlib figure, at a share of the text width;
- :class:`Table`: a ruled table, split over pages with its header repeated;
- :class:`Pairs`: label–value rows (provenance, a glossary);
- :class:`Code`: a command, in monospace;
- :class:`VerdictCard`: one answer of page 1, with the page of its evidence;
- :class:`Title`: the report's title block; :class:`Caption`: a line of the contents
  without a page (``Appendices``);
- :class:`Contents`: the table of contents;
- :class:`PageBreak`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl
from matplotlib.figure import Figure


@dataclass(frozen=True)
class Heading:
    """A heading: level 1 starts a page and titles a section (listed in the contents),
    level 2 a part of one (listed, indented), level 3 a minor heading (not listed).

    ``key`` names it for references (a verdict's "see section 3, page 12"); ``hidden``
    lists it in the contents without printing it (page 1's title block prints its own).
    """

    text: str
    level: int = 1
    key: str = ""
    hidden: bool = False


@dataclass(frozen=True)
class Prose:
    """A paragraph. ``style``: ``""``, ``"muted"`` (grey), ``"italic"``, ``"bold"``;
    ``size`` in points (``None``: the body size)."""

    text: str
    style: str = ""
    size: float | None = None


@dataclass(frozen=True)
class Plot:
    """A matplotlib figure, ``width`` the share of the text width it spans (its aspect
    ratio kept)."""

    figure: Figure
    width: float = 1.0
    caption: str = ""

    @classmethod
    def natural(cls, fig: Figure, caption: str = "") -> Plot:
        """``fig`` printed at its own size (at most the text width), so that its type
        prints at the size it was set in."""
        return cls(fig, min(1.0, fig.get_figwidth() / TEXT_WIDTH), caption)


TEXT_WIDTH = 7.28
"""The text width of a report page, inches (A4 less the template's margins)."""


def figure(width: float = TEXT_WIDTH, height: float = 3.0) -> Figure:
    """A figure for a :class:`Plot`, its axes placed by matplotlib's constrained layout
    (never by page coordinates); inches."""
    return Figure(figsize=(width, height), layout="constrained")


def panels(width: float, height: float, n: int = 1, **kw: Any) -> tuple[Figure, list[Any]]:
    """A :func:`figure` of ``n`` axes side by side (``kw``: those of
    :meth:`matplotlib.figure.Figure.subplots`, e.g. ``width_ratios``)."""
    fig = figure(width, height)
    return fig, list(fig.subplots(1, n, squeeze=False, **kw)[0])


@dataclass(frozen=True)
class Table:
    """A ruled table of text cells.

    Attributes
    ----------
    columns : list of str
        The header.
    rows : list of list of str
        The cells, as printed.
    widths : tuple of float, optional
        Relative column widths (``None``: as wide as their content, within the margins).
    size : float
        The type size in points.
    caption : str
        A line under the table.
    """

    columns: list[str]
    rows: list[list[str]]
    widths: tuple[float, ...] | None = None
    size: float = 8.0
    caption: str = ""

    @classmethod
    def of(
        cls,
        frame: pl.DataFrame,
        widths: Sequence[float] | None = None,
        size: float = 8.0,
        caption: str = "",
    ) -> Table:
        """A table of a polars frame, each value printed by :func:`analysis.formats.cell`."""
        from analysis.formats import cell

        rows = [[cell(v) for v in row] for row in frame.iter_rows()]
        return cls(list(frame.columns), rows, tuple(widths) if widths else None, size, caption)

    @classmethod
    def fitted(
        cls, frame: pl.DataFrame, size: float = 8.0, wrap: int = 30, caption: str = ""
    ) -> Table:
        """A table of a polars frame, each column's share of the width its longest cell (at
        least its header's longest word and half its header; at most ``wrap`` characters,
        beyond which it wraps): sized by their headers alone, as Typst sizes columns,
        columns of intervals would wrap."""
        from analysis.formats import cell

        widths = [1 + min(wrap, max([len(c) / 2] + [len(w) + 1 for w in c.split()]
                                    + [len(cell(v)) for v in frame[c]]))
                  for c in frame.columns]  # fmt: skip
        return cls.of(frame, widths, size, caption)


@dataclass(frozen=True)
class Pairs:
    """Label–value rows: the label in bold, its value beside it (``mono``: in monospace)."""

    rows: list[tuple[str, str]]
    mono: bool = False
    label_width: float = 0.22


@dataclass(frozen=True)
class Code:
    """A command or a literal line, in monospace, wrapped at the margin."""

    text: str
    size: float = 8.0


@dataclass(frozen=True)
class VerdictCard:
    """One answer of page 1 (:class:`analysis.sections.Verdict`, laid out).

    ``ref`` is the key of the heading of the section with the evidence (its number and
    page are printed: "see section 3, page 12"); ``ref_text`` is printed instead when no
    heading has that key.
    """

    number: int
    question: str
    answer: str
    estimate: str
    robustness: str
    colour: str
    detail: str = ""
    recommendation: str = ""
    ref: str = ""
    ref_text: str = ""


@dataclass(frozen=True)
class Title:
    """The report's title block: the game, what the page holds, the study in one line."""

    title: str
    subtitle: str
    line: str


@dataclass(frozen=True)
class Caption:
    """A line of the contents without a page number (``Appendices``); prints nothing."""

    text: str


@dataclass(frozen=True)
class Footnote:
    """Text kept at the bottom of the page it starts on (page 1's regenerating command):
    a bold ``label`` over ``text`` in monospace."""

    label: str
    text: str


@dataclass(frozen=True)
class Contents:
    """The table of contents: every listed heading with its page, dotted leaders."""


@dataclass(frozen=True)
class PageBreak:
    """Start a new page."""


Block = (
    Heading | Prose | Plot | Table | Pairs | Code | VerdictCard | Title | Caption | Footnote
    | Contents | PageBreak
)  # fmt: skip
"""Any content block."""


@dataclass
class Document:
    """A report as data: its blocks, in order, its PDF title and the name printed in every
    page's footer (``page k of N`` beside it)."""

    title: str
    footer: str
    blocks: list[Block] = field(default_factory=list)

    def add(self, *blocks: Block | Sequence[Block]) -> None:
        """Append blocks (or lists of blocks)."""
        for b in blocks:
            if isinstance(b, list | tuple):
                self.blocks.extend(b)
            else:
                self.blocks.append(b)


def texts(blocks: Sequence[Block]) -> list[str]:
    """Every string a reader sees in ``blocks`` (not the text drawn inside figures), in
    order: what a test of a report's wording reads."""
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Heading | Prose | Code | Caption):
            out.append(b.text)
        elif isinstance(b, Table):
            out += [*b.columns, *(c for row in b.rows for c in row), b.caption]
        elif isinstance(b, Pairs):
            out += [x for row in b.rows for x in row]
        elif isinstance(b, VerdictCard):
            out += [b.question, b.answer, b.estimate, b.robustness, b.detail,
                    b.recommendation, b.ref_text]  # fmt: skip
        elif isinstance(b, Title):
            out += [b.title, b.subtitle, b.line]
        elif isinstance(b, Footnote):
            out += [b.label, b.text]
        elif isinstance(b, Plot):
            out.append(b.caption)
    return [t for t in out if t]


def figure_texts(blocks: Sequence[Block]) -> list[str]:
    """The text drawn inside the figures of ``blocks`` (titles, labels, legends, notes)."""
    out: list[str] = []
    for b in blocks:
        fig: Any = b.figure if isinstance(b, Plot) else None
        if fig is None:
            continue
        out += [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
    return [t for t in out if isinstance(t, str) and t.strip()]
