"""Declared limits of a game's data files and rule options, checked at the door.

A compiled kernel holds a board, a cake, a deck or a card set in fixed-size arrays, and the
tables store counts in narrow integer columns. Each such bound is declared once, as a
:class:`Limit` beside the format that it bounds, and used from there three ways:

- the parser refuses a file outside it, naming the limit (:meth:`Limit.check`);
- the kernel's array sizes and the tables' column types are derived from it
  (:func:`int_dtype`, :meth:`Limit.dtype`), never assumed;
- the game's rules document lists it (:func:`limits_table`; a test compares the two).

A game declares its limits through the protocol (``Game.data_limits``), so the command
line and the tests reach every game's limits the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from sims.core.errors import DataFileError, SlicelabError

_INT_TYPES = (np.int8, np.int16, np.int32, np.int64)


def int_dtype(high: int, low: int = 0) -> type[np.signedinteger]:
    """The narrowest signed integer type holding every value in ``[low, high]``.

    Parameters
    ----------
    high, low : int
        The largest and smallest value a column may hold.

    Returns
    -------
    numpy integer type
        ``np.int8``, ``np.int16``, ``np.int32`` or ``np.int64``.
    """
    for t in _INT_TYPES:
        info = np.iinfo(t)
        if info.min <= low and high <= info.max:
            return t
    raise ValueError(f"no integer type holds [{low}, {high}]")


def column_type(
    high: int, low: int = 0, at_least: type[np.signedinteger] = np.int8
) -> type[np.signedinteger]:
    """A table column's type: the narrowest holding ``[low, high]`` (its values at the
    declared limits), never narrower than ``at_least`` (the type the tables were first
    written with), so that a limit raised widens its column instead of wrapping values."""
    return np.promote_types(int_dtype(high, low), at_least).type


def checked_cast(values: np.ndarray, kind: type[np.signedinteger], what: str) -> np.ndarray:
    """``values`` as ``kind``, refusing (rather than wrapping) a value it cannot hold.

    Raises
    ------
    ValueError
        Naming the column (``what``) and the values' range: a declared limit does not
        bound that column, which is a bug of the game's tables, not of the user's input.
    """
    if values.size:
        info = np.iinfo(kind)
        low, high = int(values.min()), int(values.max())
        if low < info.min or high > info.max:
            raise ValueError(
                f"column {what}: a value from {low} to {high} does not fit its type "
                f"{np.dtype(kind).name}; the game's declared limits must bound it"
            )
    return values.astype(kind)


@dataclass(frozen=True)
class Limit:
    """A bound on one count of a data file or on one rule option's value.

    Parameters
    ----------
    key : str
        A stable name (``"dishes"``), for code and tests.
    what : str
        The counted thing as a message names it (``"dish cards"``).
    low, high : int
        The smallest and largest count allowed (inclusive).
    why : str
        What the bound comes from (``"the kernel's dish table"``), for the message and the
        rules document.
    """

    key: str
    what: str
    low: int
    high: int
    why: str = ""

    def check(self, value: int, source: str, error: type[SlicelabError] = DataFileError) -> int:
        """Return ``value``, or raise ``error`` naming the limit when it lies outside it.

        Parameters
        ----------
        value : int
            The count found in the file.
        source : str
            What is being read (``"card set cards.toml"``), the message's prefix.
        error : type
            The :class:`~sims.core.errors.SlicelabError` subclass raised.
        """
        if self.low <= value <= self.high:
            return value
        bound = f"at most {self.high}" if value > self.high else f"at least {self.low}"
        because = f" ({self.why})" if self.why else ""
        raise error(f"{source}: has {value} {self.what}; {bound}{because}")

    def dtype(self) -> type[np.signedinteger]:
        """The narrowest integer type for a column holding ``-1`` (none) up to ``high``."""
        return int_dtype(self.high, min(self.low, -1))

    def describe(self) -> str:
        """``"dish cards: 1 to 120 (why)"``, a row of the rules document's table."""
        because = f" ({self.why})" if self.why else ""
        return f"{self.what}: {self.low} to {self.high}{because}"


def limits_table(limits: Iterable[Limit]) -> list[str]:
    """Markdown rows ``| what | low | high | why |`` for a rules document."""
    rows = ["| what | fewest | most | why |", "|---|---|---|---|"]
    rows += [f"| {x.what} | {x.low} | {x.high} | {x.why} |" for x in limits]
    return rows
