"""What would a rule change do? One measure before and after the change, paired by deal.

A what-if block plays the same deals as the block it is compared with (the same seed, the
same strategies) under one changed rule, so deal ``i`` of both is the same deal and the
change is a paired difference per deal. New York Slice asks it of its candidate rules
(compensation, a weaker special) and Piece o' Cake of exact-N cutting; this module holds
what they share, for any game:

- :data:`CHANGE_SCHEMA`: the long-format change table, one row a player count and measure,
  built by :func:`change_row` (paired t intervals from per-deal arrays) and
  :func:`change_table` (with the sample-size columns), read by :func:`change_at` and
  :func:`stack`;
- :func:`block_rules` and :func:`change_text`: the rule a what-if block sets;
- :func:`plot_changes`: the dumbbell chart, a panel per measure;
- :func:`change_sentence`: ``2p a → b (change …)`` at every count, and where the change is
  distinguishable from 0;
- :func:`change_estimate` and :func:`change_headlines`: the summary rows, each carrying its
  :class:`~analysis.estimates.Estimate`;
- :func:`change_frame`: the table as printed.

The sample-size page's cells of a change table are :func:`analysis.sections.paired_cells`
with ``n="n"``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl

from analysis.estimates import Estimate
from analysis.formats import ci, ci_col, count_colour, fmt
from analysis.load import MissingBlock, manifest
from analysis.prose import grouped
from analysis.samplesize import annotate
from analysis.sections import Row, headline
from analysis.stats import mean_interval
from sims.core.errors import SlicelabError

CHANGE_SCHEMA: dict[str, pl.DataType] = {
    "players": pl.Int64,
    "measure": pl.String,
    "unit": pl.String,
    "n": pl.Int64,
    "n_unit": pl.String,
    **{f"{k}{s}": pl.Float64 for k in ("before", "after", "change") for s in ("", "_low", "_high")},
}
"""The columns of a change table: the player count, the measure (the game's key, e.g.
``first_edge``) and its unit (``pp``, ``points``), the paired units behind it and what
they are (``deals``, ``games``), then the measure under the printed rules (``before``),
with the change (``after``) and their difference (``change`` = after − before), each with
its 95% interval (``_low``, ``_high``)."""

SIZE_COLUMNS = ("half_width", "games_for_1pp", "warning")
"""The sample-size columns :func:`change_table` adds (:func:`analysis.samplesize.annotate`
of the change)."""

CHANGE_WORDS = {"above": "higher", "below": "lower", "covers": "no measurable change",
                "none": "no interval"}  # fmt: skip
"""Where a change stands against 0 (:func:`analysis.prose.grouped`), in
:func:`change_sentence`."""

_LEVELS = ("before", "after", "change")


def change_row(
    players: int, measure: str, before: np.ndarray, after: np.ndarray, unit: str = "pp"
) -> Row:
    """One row of a change table from a measure's per-deal values under both rules.

    Parameters
    ----------
    players : int
        The player count.
    measure : str
        The measure's key.
    before, after : array-like
        Its value on each deal under the printed rules and with the change, the same deals
        in the same order.
    unit : str
        The measure's unit.

    Returns
    -------
    dict
        The columns of :data:`CHANGE_SCHEMA` but ``n_unit``: the mean of each with its t
        interval, and the mean of the per-deal differences with its paired t interval
        (:func:`analysis.stats.mean_interval`).

    Raises
    ------
    ValueError
        When the two arrays are not the same length (not paired).
    """
    before, after = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    if before.shape != after.shape:
        raise ValueError(f"before ({before.shape}) and after ({after.shape}) are not paired")
    row: Row = {"players": int(players), "measure": measure, "unit": unit, "n": len(before)}
    for name, values in zip(_LEVELS, (before, after, after - before), strict=True):
        row[name], row[f"{name}_low"], row[f"{name}_high"] = mean_interval(values)
    return row


def change_table(rows: Iterable[Row], n_unit: str = "deals") -> pl.DataFrame:
    """A change table (:data:`CHANGE_SCHEMA`) of ``rows`` (:func:`change_row`, or rows of
    the same keys with other intervals, e.g. a bootstrap's), in their order.

    Parameters
    ----------
    rows : iterable of dict
        Its rows.
    n_unit : str
        What ``n`` counts: ``deals``, or ``games`` where each deal is one game.

    Returns
    -------
    pl.DataFrame
        With the sample-size columns of the change (:data:`SIZE_COLUMNS`): a change is a
        difference in the measure's unit, so ``games_for_1pp`` is for ±1 of that unit.
    """
    table = pl.DataFrame([{**x, "n_unit": n_unit} for x in rows], schema=CHANGE_SCHEMA)
    return annotate(table, "change", "change_low", "change_high", n="n", share=False,
                    unit=n_unit, pp=True)  # fmt: skip


def change_at(t: pl.DataFrame, players: int, measure: str) -> Row | None:
    """The row of ``measure`` at ``players``, or None when the table has none."""
    x = t.filter((pl.col("players") == players) & (pl.col("measure") == measure))
    return x.row(0, named=True) if x.height else None


def stack(tables: Iterable[pl.DataFrame | None]) -> pl.DataFrame | None:
    """Several change tables as one, in their order, in their shared columns
    (:data:`CHANGE_SCHEMA`, :data:`SIZE_COLUMNS`): a game's own extra columns are dropped.
    None for no table (None entries are the changes a study did not measure)."""
    found = [t.select(*CHANGE_SCHEMA, *SIZE_COLUMNS) for t in tables if t is not None]
    return pl.concat(found) if found else None


def block_rules(out, group: str) -> dict:
    """The rule options a block sets (the same for all its arms), ``{}`` for none.

    Raises
    ------
    MissingBlock
        When the study has no such block.
    SlicelabError
        When its arms play several rule sets: a what-if block changes one rule.
    """
    arms = [a for a in manifest(out)["study"]["arms"] if a.get("group", a["name"]) == group]
    found = {json.dumps(a.get("rules") or {}, sort_keys=True) for a in arms}
    if not found:
        raise MissingBlock(out, group)
    if len(found) > 1:
        raise SlicelabError(f"block {group!r} plays several rule sets; a what-if block sets one")
    return json.loads(found.pop())


def change_text(rules: dict) -> str:
    """A rule change as a reader sees it, e.g. ``super_sized_combo_halves = 3``."""
    return ", ".join(f"{k} = {v}" for k, v in sorted(rules.items())) or "the printed rules"


def plot_changes(
    axes: Sequence[Any],
    t: pl.DataFrame,
    panels: Mapping[str, str],
    *,
    ticks: str = "{}p",
    zero: Collection[str] | None = None,
    title: str | None = None,
) -> None:
    """A dumbbell chart per measure: at each player count the measure under the printed
    rules (open marker) and with the change (filled), 95% intervals, an arrow from one to
    the other.

    Parameters
    ----------
    axes : sequence of matplotlib.axes.Axes
        One per panel, in the order of ``panels``.
    t : pl.DataFrame
        A change table (:func:`change_table`).
    panels : mapping of str to str
        Measure → its label: the panel's title, or its y-axis label when ``title`` is given.
    ticks : str
        A count's tick label, ``{}`` the count: ``{}p``, ``{} players``.
    zero : collection of str, optional
        The measures whose panel marks 0 (default: every one); a level far from 0, such as
        a share of slices eaten, would squash its panel.
    title : str, optional
        The same title above every panel (the measures then label the y axes).
    """
    for ax, (m, label) in zip(axes, panels.items(), strict=True):
        s = t.filter(pl.col("measure") == m).sort("players")
        for k, x in enumerate(s.iter_rows(named=True)):
            c = count_colour(x["players"])
            for dx, name, face in ((-0.12, "before", "white"), (0.12, "after", c)):
                v, lo, hi = x[name], x[f"{name}_low"], x[f"{name}_high"]
                ax.errorbar([k + dx], [v], yerr=[[v - lo], [hi - v]], fmt="o", color=c, ms=4,
                            mfc=face, capsize=2, elinewidth=0.9, zorder=3)  # fmt: skip
            ax.annotate("", (k + 0.12, x["after"]), (k - 0.12, x["before"]),
                        arrowprops={"arrowstyle": "->", "color": "0.5", "lw": 0.8})  # fmt: skip
        if zero is None or m in zero:
            ax.axhline(0, color="black", lw=0.8)
        ax.set_xticks(range(s.height), [ticks.format(n) for n in s["players"]], fontsize=7)
        ax.set_xlim(-0.5, s.height - 0.5)
        ax.tick_params(labelsize=7)
        if title is None:
            ax.set_title(label, fontsize=7.5)
        else:
            ax.set_ylabel(label, fontsize=8)
            ax.set_title(title, fontsize=7)


def change_sentence(t: pl.DataFrame, measure: str, lead: str, signed: bool = True) -> str:
    """How the change moves a measure at each count and where the change is
    distinguishable from 0: ``With exact-N cutting, the share eaten (%): 2p 47.0 → 40.0
    (change -7.0 pp [-8.0, -6.0]); ...; lower at 2 players; no measurable change at 3
    players.``

    Parameters
    ----------
    t : pl.DataFrame
        A change table.
    measure : str
        The measure.
    lead : str
        What the sentence opens with, before the colon: the change and the measure.
    signed : bool
        Whether the levels print with their sign (an edge, not a share).

    Returns
    -------
    str
        Empty when the table has no row of the measure.
    """
    s = t.filter(pl.col("measure") == measure).sort("players")
    if s.is_empty():
        return ""
    f = "+.1f" if signed else ".1f"
    listed = "; ".join(f"{x['players']}p {x['before']:{f}} → {x['after']:{f}} (change "
                       f"{ci(x['change'], x['change_low'], x['change_high'], x['unit'])})"
                       for x in s.iter_rows(named=True))  # fmt: skip
    where = grouped(s["players"], s["change_low"], s["change_high"], CHANGE_WORDS)
    return f"{lead}: {listed}; {where}."


def change_estimate(x: Row, quantity: str, **kw: Any) -> Estimate:
    """A row's change as an :class:`~analysis.estimates.Estimate` (its unit, n and player
    count the row's); ``kw`` are the Estimate's other fields (``field``, ``method``...)."""
    return Estimate(quantity, x["change"], x["change_low"], x["change_high"], int(x["n"]),
                    x["n_unit"], unit=x["unit"], players=int(x["players"]), **kw)  # fmt: skip


def change_headlines(
    t: pl.DataFrame,
    q: str,
    measure: str,
    finding: Callable[[Row], str],
    quantity: str,
    *,
    warn: bool = True,
    **kw: Any,
) -> list[Row]:
    """The summary rows of one measure's change, one a player count, each carrying its
    estimate (:func:`change_estimate`).

    Parameters
    ----------
    t : pl.DataFrame
        A change table.
    q : str
        The section's question (``"8 New York Slice"``).
    measure : str
        The measure.
    finding : callable
        ``finding(row) -> str``: what the row says (``4 players: ... from -4.6 to -0.4``).
    quantity : str
        What the estimate measures (:attr:`~analysis.estimates.Estimate.quantity`).
    warn : bool
        Whether each row carries its sample-size warning: a report whose sample-size page
        lists the change's cells flags them here too.
    **kw
        The estimate's other fields.

    Returns
    -------
    list of Row
    """
    return [headline(q, finding(x), change_estimate(x, quantity, **kw),
                     warn=x["warning"] if warn else "")
            for x in t.filter(pl.col("measure") == measure).iter_rows(named=True)]  # fmt: skip


def change_frame(
    t: pl.DataFrame,
    measures: Mapping[str, str],
    names: tuple[str, str, str] = _LEVELS,
    formats: tuple[str, str, str] = ("+.1f", "+.1f", "+.1f"),
) -> pl.DataFrame:
    """A change table as printed: ``players``, ``measure`` (in words), the three intervals,
    ``n`` (headed by what it counts: ``deals``) and ``warning``, every cell text.

    Parameters
    ----------
    t : pl.DataFrame
        A change table.
    measures : mapping of str to str
        Every measure of ``t`` in words.
    names : tuple of str
        The headings of before, after and the change.
    formats : tuple of str
        Their number formats.
    """
    n_unit = t["n_unit"][0] if t.height else "n"
    shown = t
    # each cell is computed from the numeric columns before the next replaces any of them
    for key, name, f in zip(_LEVELS, names, formats, strict=True):
        shown = ci_col(shown, key, f"{key}_low", f"{key}_high", name, f)
    return fmt(shown.select("players", pl.col("measure").replace_strict(dict(measures)), *names,
                            pl.col("n").alias(n_unit), "warning"), {})  # fmt: skip
