"""PDF typesetting for the reports: A4 pages as plain matplotlib Figures, wrapped
paragraphs, ruled tables (split over pages when long), number formats, interval strings,
page footers and the colour of each player count.

Positions are figure fractions from the bottom left; every drawing function takes the
height ``y`` to start at and returns the height below what it drew, so a page is written
top to bottom. Text is wrapped by its measured width (the glyph widths of the font it is
drawn in), so it never runs past the margin. No pyplot and no GUI backend: pages are plain
:class:`Figure` objects, collected in a :class:`Pages` (so that the report can number them
once it knows how many there are) and saved into a
:class:`~matplotlib.backends.backend_pdf.PdfPages`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import polars as pl
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

A4 = (8.27, 11.69)
"""Page size in inches."""
TOP = 0.925
"""Where the first paragraph under a page title starts."""
LEFT, RIGHT = 0.06, 0.94
"""The text margins (figure fractions)."""
BOTTOM = 0.045
"""Nothing is drawn below this height but the page footer."""
EMPTY = "—"
"""What a table cell with no value shows."""

COUNT_COLOURS = {2: "tab:blue", 3: "tab:orange", 4: "tab:green", 5: "tab:red", 6: "tab:purple"}
"""The colour of each player count, the same in every chart of every report."""
_MORE_COLOURS = ("tab:brown", "tab:pink", "tab:olive", "tab:cyan", "tab:gray")


def count_colour(n: int) -> str:
    """The colour of player count ``n`` (:data:`COUNT_COLOURS`; counts outside it get the
    remaining colours of the tab10 cycle, in turn)."""
    n = int(n)
    if n in COUNT_COLOURS:
        return COUNT_COLOURS[n]
    return _MORE_COLOURS[n % len(_MORE_COLOURS)]


class PageSink(Protocol):
    """Where a section's draw function puts its pages: ``savefig(figure)``."""

    def savefig(self, figure: Figure, **kwargs: Any) -> None: ...


class Pages:
    """A :class:`PageSink` that keeps the figures, in order, instead of writing them (the
    report numbers its pages and writes its contents once every page is known)."""

    def __init__(self) -> None:
        self.figures: list[Figure] = []

    def savefig(self, figure: Figure, **kwargs: Any) -> None:
        self.figures.append(figure)


@contextmanager
def document(path: str | Path, title: str) -> Iterator[PdfPages]:
    """A PDF written atomically: pages go to a temporary file in the same folder, renamed
    to ``path`` (whose folder is created) only when the block finishes without error."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with PdfPages(tmp, metadata={"Title": title, "Author": "slicelab"}) as pdf:
            yield pdf
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def page(title: str | None = None) -> Figure:
    """A blank A4 page, with a bold title at the top if given (set smaller when it is too
    long for the line; also the figure's label, which the contents page lists)."""
    fig = Figure(figsize=A4)
    if title:
        size = 15.0
        while size > 9 and text_width(title, size, "bold") > RIGHT - LEFT:
            size -= 0.5
        fig.text(LEFT, 0.955, title, fontsize=size, weight="bold", va="top")
        fig.set_label(title)
    return fig


def footer(fig: Figure, number: int, total: int, left: str = "") -> None:
    """The page footer: ``left`` (the report's name) and ``page k of N`` at the right."""
    fig.text(RIGHT, 0.018, f"page {number} of {total}", fontsize=7.5, ha="right",
             color="#555555")  # fmt: skip
    if left:
        while len(left) > 1 and text_width(left, 7.5) > 0.7:
            left = left[:-2] + "…"
        fig.text(LEFT, 0.018, left, fontsize=7.5, color="#555555")


def clear_footer(fig: Figure, floor: float = 0.04) -> None:
    """Keep a page's charts out of the footer: when the axes (with their tick labels and
    axis labels) reach below ``floor``, squeeze them, and the page's text below their
    top, upwards until they clear it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    axes = [ax for ax in fig.axes if ax.get_visible()]
    if not any(ax.get_position().y0 < floor + 0.1 for ax in axes):
        return  # labels reach less than that far below their axes: nothing to measure
    renderer = FigureCanvasAgg(fig).get_renderer()
    inverse = fig.transFigure.inverted()
    for _ in range(3):
        low_axes = [ax for ax in axes if ax.get_position().y0 < floor + 0.1]
        boxes = [ax.get_tightbbox(renderer).transformed(inverse) for ax in low_axes]
        low = min(b.y0 for b in boxes)
        if low >= floor - 1e-4:
            return
        top = max(ax.get_position().y1 for ax in axes)
        k = (top - floor) / (top - low)

        def squeeze(y: float, top: float = top, k: float = k) -> float:
            return top - (top - y) * k

        for ax in axes:
            p = ax.get_position()
            ax.set_position([p.x0, squeeze(p.y0), p.width, p.height * k])
        for t in fig.texts:
            x, y = t.get_position()
            if y < top:
                t.set_position((x, squeeze(y)))


# ----------------------------------------------------------------------------- text


@lru_cache(maxsize=8192)
def _char_width(char: str, weight: str, family: str, style: str) -> float:
    """Advance width of one character at 1 pt, in points."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    prop = FontProperties(size=100, weight=weight, family=family, style=style)
    return TextToPath().get_text_width_height_descent(char, prop, ismath=False)[0] / 100


def text_width(
    text: str, size: float, weight: str = "normal", family: str = "sans-serif",
    style: str = "normal",
) -> float:  # fmt: skip
    """The width of one line of ``text`` at ``size`` points, as a fraction of the page
    width."""
    points = size * sum(_char_width(c, weight, family, style) for c in text)
    return points / 72 / A4[0]


def wrap(
    text: str, width: float, size: float, weight: str = "normal", family: str = "sans-serif",
    style: str = "normal",
) -> list[str]:  # fmt: skip
    """``text`` broken into lines no wider than ``width`` (a fraction of the page width)
    at ``size`` points; newlines are kept, a word wider than a line is broken."""
    limit = 0.985 * width

    def fits(s: str) -> bool:
        return text_width(s, size, weight, family, style) <= limit

    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if fits(candidate):
                line = candidate
                continue
            if line:
                lines.append(line)
            while not fits(word) and len(word) > 1:  # a word wider than the line
                k = len(word) - 1
                while k > 1 and not fits(word[:k]):
                    k -= 1
                lines.append(word[:k])
                word = word[k:]
            line = word
        lines.append(line)
    return lines


def line_height(size: float, spacing: float = 1.35) -> float:
    """The height of one line of text at ``size`` points (figure fraction)."""
    return spacing * size / 72 / A4[1]


def heading(fig: Figure, y: float, text: str, size: float = 10, x: float = LEFT) -> None:
    """A bold line of text at height ``y`` (its baseline)."""
    fig.text(x, y, "\n".join(wrap(text, RIGHT - x, size, "bold")), fontsize=size,
             weight="bold")  # fmt: skip


def para(
    fig: Figure, y: float, text: str, size: float = 9.5, width: int = 100, x: float = LEFT,
    **style: Any,
) -> float:  # fmt: skip
    """Write a wrapped paragraph from height ``y``; return the height below it (``width``:
    at most that many average characters a line; never past the right margin)."""
    span = min(width * 0.55 * size / 72 / A4[0], RIGHT - x)
    lines = wrap(text, span, size, style.get("weight", "normal"),
                 style.get("family", "sans-serif"), style.get("style", "normal"))  # fmt: skip
    fig.text(x, y, "\n".join(lines), fontsize=size, va="top", linespacing=1.35, **style)
    return y - len(lines) * line_height(size) - 0.012


# ----------------------------------------------------------------------------- tables


def cell(value: Any) -> str:
    """A table cell as text: a missing value (None, NaN, an empty string) is
    :data:`EMPTY`."""
    if value is None:
        return EMPTY
    if isinstance(value, float) and not math.isfinite(value):
        return EMPTY
    text = str(value)
    return EMPTY if text.strip() in ("", "nan", "None", "null") else text


def _wrap_row(values, widths: list[float], size: float, bold: bool) -> list[list[str]]:
    weight = "bold" if bold else "normal"
    return [wrap(v if bold else cell(v), w - 0.008, size, weight)
            for v, w in zip(values, widths, strict=True)]  # fmt: skip


def _row_height(cells: list[list[str]], size: float) -> float:
    return (max(len(c) for c in cells) + 0.5) * line_height(size, 1.3)


def table(
    fig: Figure,
    y: float,
    frame: pl.DataFrame,
    widths: list[float],
    size: float = 7.5,
    x: float = LEFT,
) -> float:
    """Draw a frame as a ruled table from height ``y``, wrapping each cell to its column
    (``widths``: figure fractions, one per column); return the height below the table.
    Cells with no value show :data:`EMPTY`. A table too long for the page is split over
    pages by :func:`table_pages`."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    line_h = line_height(size, 1.3)
    right = x + sum(widths)

    def draw_row(values, bold: bool) -> None:
        nonlocal y
        cells = _wrap_row(values, widths, size, bold)
        h = _row_height(cells, size)
        if bold:
            fig.patches.append(Rectangle((x, y - h), right - x, h, transform=fig.transFigure,
                                         color="#e6e6e6", zorder=0))  # fmt: skip
        cx = x
        for lines, w in zip(cells, widths, strict=True):
            fig.text(cx + 0.004, y - 0.25 * line_h, "\n".join(lines), fontsize=size, va="top",
                     weight="bold" if bold else "normal", linespacing=1.3)  # fmt: skip
            cx += w
        y -= h
        fig.lines.append(Line2D([x, right], [y, y], transform=fig.transFigure, lw=0.3,
                                color="#999999"))  # fmt: skip

    draw_row(frame.columns, True)
    for row in frame.iter_rows():
        draw_row(row, False)
    return y - 0.015


def table_pages(
    title: str,
    frame: pl.DataFrame,
    widths: list[float],
    size: float = 7.5,
    x: float = LEFT,
    intro: str = "",
    first: Figure | None = None,
    y: float | None = None,
    bottom: float = BOTTOM,
) -> list[Figure]:
    """A table on as many pages as it needs, its header repeated on each.

    Parameters
    ----------
    title : str
        The title of the pages (the later ones say ``(continued)``).
    intro : str
        A paragraph above the table on its first page.
    first, y : Figure and height, optional
        Start on this page at this height instead of a new page.
    bottom : float
        How low the table may reach on the first page (later pages: :data:`BOTTOM`).

    Returns
    -------
    list of Figure
        The pages, ``first`` included when given.
    """
    header = _row_height(_wrap_row(frame.columns, widths, size, True), size)
    heights = [_row_height(_wrap_row(row, widths, size, False), size)
               for row in frame.iter_rows()]  # fmt: skip
    pages = []
    fig = first or page(title)
    y = TOP if y is None else y
    if intro:
        y = para(fig, y, intro, 9)
    start, fresh = 0, first is None and not intro
    while True:
        room = y - bottom - 0.008 - header
        end = start
        while end < frame.height and heights[end] <= room:
            room -= heights[end]
            end += 1
        if end == start and frame.height and fresh:
            end = start + 1  # a row taller than a page: drawn all the same
        if end > start or not frame.height:
            table(fig, y, frame.slice(start, end - start), widths, size, x)
        pages.append(fig)
        start = end
        if start >= frame.height:
            return pages
        fig, y, fresh, bottom = page(f"{title} (continued)"), TOP, True, BOTTOM


# ----------------------------------------------------------------------------- numbers


def _finite(*values: Any) -> bool:
    return all(v is not None and math.isfinite(v) for v in values)


def fmt(frame: pl.DataFrame, spec: dict[str, str]) -> pl.DataFrame:
    """Every column as strings, numeric ones in ``spec`` formatted (column → format);
    missing values (nulls, NaN) become :data:`EMPTY`."""

    def number(v: Any, f: str) -> str:
        return format(v, f) if _finite(v) else EMPTY

    def one(c: str) -> pl.Expr:
        if c not in spec:
            return pl.col(c).cast(pl.String).fill_null(EMPTY)
        f = spec[c]
        return (pl.col(c).map_elements(lambda v: number(v, f), return_dtype=pl.String)
                .fill_null(EMPTY))  # fmt: skip

    return frame.select([one(c) for c in frame.columns])


def _no_negative_zero(fmt: str) -> str:
    """``fmt`` with the ``z`` option (PEP 682): a value that rounds to zero prints as 0, never
    as -0.0 (``fmt`` has no fill or alignment)."""
    if "z" in fmt:
        return fmt
    return fmt[0] + "z" + fmt[1:] if fmt[:1] in "+- " and fmt else "z" + fmt


def ci(est: float, lo: float, hi: float, unit: str = "pp", fmt: str = "+.1f") -> str:
    """An estimate with its interval: ``+1.2 pp [-0.3, +2.7]`` (:data:`EMPTY` when the
    estimate is missing; ``[—]`` when only the interval is; never ``-0.0``)."""
    fmt = _no_negative_zero(fmt)
    if not _finite(est):
        return EMPTY
    if not _finite(lo, hi):
        return f"{est:{fmt}} {unit} [{EMPTY}]".replace("  ", " ")
    return f"{est:{fmt}} {unit} [{lo:{fmt}}, {hi:{fmt}}]".replace("  ", " ")


def ci_col(
    frame: pl.DataFrame, est: str, lo: str, hi: str, name: str, fmt: str = "+.1f"
) -> pl.DataFrame:
    """Add a column ``name`` of ``est [lo, hi]`` strings (:data:`EMPTY` where the estimate
    is missing; never ``-0.0``)."""
    fmt = _no_negative_zero(fmt)

    def one(s: dict) -> str:
        if not _finite(s[est]):
            return EMPTY
        if not _finite(s[lo], s[hi]):
            return f"{s[est]:{fmt}} [{EMPTY}]"
        return f"{s[est]:{fmt}} [{s[lo]:{fmt}}, {s[hi]:{fmt}}]"

    return frame.with_columns(
        pl.struct(est, lo, hi).map_elements(one, return_dtype=pl.String).alias(name)
    )
