"""Do the answers depend on the assumed components? The study blocks that play each shipped
alternative to a game's assumed data file, and a table per alternative, for any game.

A game whose components are not published (a board's layout, a card list) assumes a
default data file and ships plausible alternatives; its study plays each alternative in a
block of its own beside the block of the default, per field of players
(:class:`DataVariants`). An alternative changes what is dealt, so its games are
independent of the default's and each alternative's numbers stand on its own games.

What every such section shares is here: which variants the study plays
(:meth:`DataVariants.blocks`), the blocks the section reads (:attr:`DataVariants.needs`),
one table per variant (:func:`variant_tables`: its position table, say) and those tables
as one, under the variant's name (:func:`stacked`), the default's rows among them. What a
game then measures on them is its own: Pizza Theory the change of each starting
position's win share against the default board, Horno whether each check keeps its sign
on every card set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import polars as pl

from analysis.blocks import present

T = TypeVar("T")


@dataclass(frozen=True)
class DataVariants:
    """A game's default data file, its shipped alternatives and the blocks playing them.

    Attributes
    ----------
    default : str
        The default's name as the report prints it: ``hex-37``, ``assumed v1``.
    names : tuple of str
        The shipped alternatives, in the report's order.
    fields : mapping of str to (str, str)
        Per field of players (the first is the main one): the block that plays the
        default, and the pattern of the block that plays an alternative, ``{name}`` its
        name (``board-{name}-random``).
    """

    default: str
    names: tuple[str, ...]
    fields: Mapping[str, tuple[str, str]]

    def blocks(self, manifest: dict, field: str | None = None) -> dict[str, str]:
        """The variants the study plays in ``field`` (default: the main field), by name,
        each with its block: the default first, then the alternatives in order.

        Parameters
        ----------
        manifest : dict
            The dataset's manifest.
        field : str, optional
            A key of :attr:`fields`.

        Returns
        -------
        dict of str to str
            Name → block, only the blocks the study has (the default's may be missing).
        """
        base, pattern = self.fields[next(iter(self.fields)) if field is None else field]
        every = {self.default: base, **{n: pattern.format(name=n) for n in self.names}}
        return present(manifest, every)

    @property
    def needs(self) -> tuple[str, ...]:
        """Every alternative's block in every field, field by field: the blocks a section
        comparing the variants reads (:attr:`analysis.sections.Section.needs`)."""
        return tuple(p.format(name=n) for _, p in self.fields.values() for n in self.names)


def variant_tables(
    out: str | Path, blocks: Mapping[str, str], table: Callable[[str | Path, str], T]
) -> dict[str, T]:
    """``table(out, block)`` of every variant, by name (``blocks``:
    :meth:`DataVariants.blocks`)."""
    return {name: table(out, block) for name, block in blocks.items()}


def stacked(
    tables: Mapping[str, pl.DataFrame],
    key: str,
    each: Callable[[pl.DataFrame], pl.DataFrame] | None = None,
) -> pl.DataFrame:
    """Every variant's table as one: ``each`` of it (default: the table itself), with the
    variant's name in the last column, ``key``.

    Parameters
    ----------
    tables : mapping of str to pl.DataFrame
        Per variant, its table (:func:`variant_tables`); at least one.
    key : str
        The column of the variant's name: ``board``, ``card_set``.
    each : callable, optional
        What is stacked of a table: its position edges (:func:`analysis.seats.edges`).

    Returns
    -------
    pl.DataFrame
        The variants' rows in the order of ``tables``.
    """
    return pl.concat(
        [(t if each is None else each(t)).with_columns(pl.lit(name).alias(key))
         for name, t in tables.items()]
    )  # fmt: skip
