"""How a report prints numbers: table cells, number formats, interval strings, and the
colour of each player count (the same in every chart of every report).

Layout is not here: a report is content blocks (:mod:`analysis.content`) laid out by one
typesetter (:mod:`analysis.typeset`).
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

A4 = (8.27, 11.69)
"""Page size in inches (the typesetter's page; a chart's height is capped by it)."""
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


def cell(value: Any) -> str:
    """A table cell as text: a missing value (None, NaN, an empty string) is
    :data:`EMPTY`."""
    if value is None:
        return EMPTY
    if isinstance(value, float) and not math.isfinite(value):
        return EMPTY
    text = str(value)
    return EMPTY if text.strip() in ("", "nan", "None", "null") else text


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
