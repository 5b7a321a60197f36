"""PDF typesetting for the reports: A4 pages as plain matplotlib Figures, wrapped
paragraphs, ruled tables, number formats and interval strings.

Positions are figure fractions from the bottom left; every drawing function takes the
height ``y`` to start at and returns the height below what it drew, so a page is written
top to bottom. No pyplot and no GUI backend: pages are plain :class:`Figure` objects
saved into a :class:`~matplotlib.backends.backend_pdf.PdfPages`.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import polars as pl
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

A4 = (8.27, 11.69)
"""Page size in inches."""
TOP = 0.925
"""Where the first paragraph under a page title starts."""


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
    """A blank A4 page, with a bold title at the top if given."""
    fig = Figure(figsize=A4)
    if title:
        fig.text(0.06, 0.955, title, fontsize=15, weight="bold", va="top")
    return fig


def heading(fig: Figure, y: float, text: str, size: float = 10, x: float = 0.06) -> None:
    """A bold line of text at height ``y`` (its baseline)."""
    fig.text(x, y, text, fontsize=size, weight="bold")


def para(fig: Figure, y: float, text: str, size: float = 9.5, width: int = 100) -> float:
    """Write a wrapped paragraph from height ``y``; return the height below it."""
    lines = textwrap.fill(text, width).splitlines()
    fig.text(0.06, y, "\n".join(lines), fontsize=size, va="top", linespacing=1.35)
    return y - (len(lines) * 1.35 * size / 72) / A4[1] - 0.012


def table(
    fig: Figure,
    y: float,
    frame: pl.DataFrame,
    widths: list[float],
    size: float = 7.5,
    x: float = 0.06,
) -> float:
    """Draw a frame as a ruled table from height ``y``, wrapping each cell to its column
    (``widths``: figure fractions, one per column); return the height below the table."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    line_h = 1.3 * size / 72 / A4[1]
    chars = [max(4, int(w * A4[0] * 72 / (size * 0.55))) for w in widths]
    right = x + sum(widths)

    def draw_row(values, bold: bool) -> None:
        nonlocal y
        cells = [textwrap.fill(str(v), c) if str(v) else "" for v, c in
                 zip(values, chars, strict=True)]  # fmt: skip
        lines = max(c.count("\n") + 1 for c in cells)
        h = lines * line_h + 0.5 * line_h
        if bold:
            fig.patches.append(Rectangle((x, y - h), right - x, h, transform=fig.transFigure,
                                         color="#e6e6e6", zorder=0))  # fmt: skip
        cx = x
        for cell, w in zip(cells, widths, strict=True):
            fig.text(cx + 0.004, y - 0.25 * line_h, cell, fontsize=size, va="top",
                     weight="bold" if bold else "normal", linespacing=1.3)  # fmt: skip
            cx += w
        y -= h
        fig.lines.append(Line2D([x, right], [y, y], transform=fig.transFigure, lw=0.3,
                                color="#999999"))  # fmt: skip

    draw_row(frame.columns, True)
    for row in frame.iter_rows():
        draw_row(row, False)
    return y - 0.015


def fmt(frame: pl.DataFrame, spec: dict[str, str]) -> pl.DataFrame:
    """Every column as strings, numeric ones in ``spec`` formatted (column → format);
    nulls become empty cells."""

    def one(c: str) -> pl.Expr:
        if c not in spec:
            return pl.col(c).cast(pl.String).fill_null("")
        f = spec[c]
        return pl.col(c).map_elements(lambda v: format(v, f), return_dtype=pl.String).fill_null("")

    return frame.select([one(c) for c in frame.columns])


def ci(est: float, lo: float, hi: float, unit: str = "pp", fmt: str = "+.1f") -> str:
    """An estimate with its interval: ``+1.2 pp [-0.3, +2.7]``."""
    return f"{est:{fmt}} {unit} [{lo:{fmt}}, {hi:{fmt}}]".replace("  ", " ")


def ci_col(
    frame: pl.DataFrame, est: str, lo: str, hi: str, name: str, fmt: str = "+.1f"
) -> pl.DataFrame:
    """Add a column ``name`` of ``est [lo, hi]`` strings."""
    return frame.with_columns(
        pl.struct(est, lo, hi)
        .map_elements(
            lambda s: f"{s[est]:{fmt}} [{s[lo]:{fmt}}, {s[hi]:{fmt}}]", return_dtype=pl.String
        )  # fmt: skip
        .alias(name)
    )
