"""What the listing commands print: a table fitted to the terminal, or the same rows as
CSV or JSON for a program (``--format``).

A command describes its output once, as rows (dicts of raw values: a win share as a
fraction, an interval's ends, each mean) and :class:`Column` s saying how a table shows
them, and hands both to :func:`emit`. ``table`` is for reading: cells are text (``45.2%``)
and the table is laid out to the console's width, never cutting a cell short (columns too
many for one table are split over several, each repeating the key columns). ``csv`` and
``json`` write the raw rows to stdout and nothing else, so that a pipe such as ``slicelab
play ... --format csv | python -c 'import pandas...'`` reads them; whatever else a command
says (progress, notes) goes to stderr.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import click
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

FORMATS = ("table", "csv", "json")
"""The values of ``--format``."""


def format_option(fn: Callable) -> Callable:
    """``--format [table|csv|json]`` (into the parameter ``fmt``), default ``table``."""
    return click.option(
        "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
        help="table: for reading; csv or json: the rows with raw numbers on stdout, for a "
        "program (progress and notes go to stderr).",
    )(fn)  # fmt: skip


def plain(value: Any) -> str:
    """A value as a table cell shows it by default: a float by its shortest exact form
    (``1.437``, ``2``), ``-`` for None, else ``str``."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return number(value)
    return str(value)


def number(value: float) -> str:
    """A number as short as it can be written without changing it: ``%g`` when that reads
    back as the same float (``1``, ``0.25``), else ``repr`` (what is shown is what is
    played: a tuned preset's ``1.4371234`` is not shown as ``1.43712``)."""
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


@dataclass(frozen=True)
class Column:
    """How a table shows one column of the rows.

    Attributes
    ----------
    key : str
        The rows' key it shows (also its heading unless ``header`` is given).
    header : str, optional
        The table's heading.
    text : callable, optional
        ``text(row)``: the cell's text (default: :func:`plain` of ``row[key]``); it may
        read several keys (an interval's ends).
    justify : {"left", "right"}
        Numbers are right-aligned, words left-aligned.
    wrap : bool
        Whether the cell may wrap onto several lines (a strategy spec, a summary); other
        cells always stay on one line at their full width.
    """

    key: str
    header: str | None = None
    text: Callable[[Mapping[str, Any]], str] | None = None
    justify: Literal["left", "right"] = "right"
    wrap: bool = False

    def cell(self, row: Mapping[str, Any]) -> str:
        """The cell's text for ``row``."""
        return self.text(row) if self.text is not None else plain(row[self.key])


def _table(columns: Sequence[Column], rows: Sequence[Mapping[str, Any]], title: str | None):
    table = Table(title=title)
    for c in columns:
        # fold, not ellipsis: in a terminal narrower than its longest word a cell breaks
        # across lines rather than lose characters to '…'
        table.add_column(c.header or c.key, justify=c.justify, no_wrap=not c.wrap,
                         overflow="fold")  # fmt: skip
    for row in rows:
        table.add_row(*[c.cell(row) for c in columns])
    return table


def _natural_width(console: Console, table: Table) -> int:
    """The width ``table`` takes with nothing wrapped (measured by rich itself, so borders
    and padding are counted as they are drawn)."""
    return Measurement.get(console, console.options.update_width(10**6), table).maximum


def print_table(
    console: Console,
    columns: Sequence[Column],
    rows: Sequence[Mapping[str, Any]],
    title: str | None = None,
    keys: int = 0,
) -> None:
    """Print ``rows`` as a rich table fitted to ``console.width``.

    A table whose one-line cells would not fit is split by columns into several, each
    repeating the first ``keys`` columns (players, seat) so every row stays readable; wrap
    columns (:attr:`Column.wrap`) take what width is left, wrapping their text. No cell is
    ever cut short.

    Parameters
    ----------
    console : rich.console.Console
        Where to print; its width is the limit.
    columns : sequence of Column
        In order, the key columns first.
    rows : sequence of mapping
        The raw rows.
    title : str, optional
        Above the first table (the others are marked as its continuation).
    keys : int
        How many leading columns each split table repeats (0: the table is never split,
        as when its wrap columns can absorb the width).
    """
    head, rest = list(columns[:keys]), list(columns[keys:])

    def fits(part: list[Column]) -> bool:
        # only the one-line columns decide: a wrap column fits by wrapping
        trial = [c for c in [*head, *part] if not c.wrap]
        return _natural_width(console, _table(trial, rows, None)) <= console.width

    parts: list[list[Column]] = [[]]
    for col in rest:  # as few tables as will do...
        if keys and parts[-1] and not fits([*parts[-1], col]):
            parts.append([])
        parts[-1].append(col)
    k = len(parts)  # ...then their columns shared out evenly, where that fits too
    sizes = [len(rest) // k + (i < len(rest) % k) for i in range(k)]
    even = [rest[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(k)]
    if k > 1 and all(fits(part) for part in even):
        parts = even
    for i, part in enumerate(parts):
        name = title if i == 0 or title is None else f"{title} (continued)"
        console.print(_table([*head, *part], rows, name))


def _json_value(value: Any) -> Any:
    # JSON has no NaN or infinity: a mean over no rows is null, as pandas reads it
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, Mapping | list | tuple):  # a parameter set: one JSON cell
        return json.dumps(value, sort_keys=True)
    return value


def write_rows(rows: Sequence[Mapping[str, Any]], keys: Sequence[str], fmt: str) -> None:
    """Write ``rows`` (only ``keys``, in that order) to stdout as CSV (a header line, then
    one line per row; a mapping value as one JSON cell) or as a JSON array of objects.

    Parameters
    ----------
    rows : sequence of mapping
        The raw rows.
    keys : sequence of str
        The columns, in order.
    fmt : {"csv", "json"}
    """
    if fmt == "json":
        records = [{k: _json_value(row[k]) for k in keys} for row in rows]
        click.echo(json.dumps(records, indent=2, sort_keys=False, ensure_ascii=False))
        return
    if fmt != "csv":
        raise ValueError(f"unknown format {fmt!r}; expected csv or json")
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(keys)
    for row in rows:
        writer.writerow([_csv_value(row[k]) for k in keys])
    click.echo(buf.getvalue(), nl=False)


def emit(
    fmt: str,
    columns: Sequence[Column],
    rows: Sequence[Mapping[str, Any]],
    console: Console,
    title: str | None = None,
    keys: int = 0,
    fields: Sequence[str] | None = None,
) -> None:
    """Print ``rows`` in the format asked for: :func:`print_table` for ``table``, else
    :func:`write_rows` of ``fields`` (default: the columns' keys).

    Parameters
    ----------
    fmt : {"table", "csv", "json"}
        The ``--format`` given.
    columns : sequence of Column
        The table's columns.
    rows : sequence of mapping
        The raw rows.
    console : rich.console.Console
        Where a table goes (csv and json go to stdout).
    title : str, optional
        The table's title (not written as csv or json).
    keys : int
        The key columns a split table repeats (:func:`print_table`).
    fields : sequence of str, optional
        The csv and json columns, when not the table's (raw values the table shows in
        one cell, such as an interval's two ends).
    """
    if fmt == "table":
        print_table(console, columns, rows, title, keys)
    else:
        write_rows(rows, fields or [c.key for c in columns], fmt)
