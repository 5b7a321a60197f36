"""What a report is made of, and the sections every game gets from the core schema.

A report (:class:`GameReport`) is a list of :class:`Section` objects, each computing its
tables into the shared :class:`Results`, adding its headline rows to the table of every
headline number, its cells to the sample-size page, and giving its content and,
optionally, its appendix (dense tables) as blocks; the game may also state its
:class:`Verdict` objects, the answers page 1 gives a designer. :mod:`analysis.report`
assembles them; a game declares its own in ``analysis/<game>/report.py`` and may reuse
the generic sections and page builders below, which read only the core columns
(``seat``, ``score``, ``win_share``, ``n_winners`` and the game's declared win rule):

- :func:`seats_section`: is the first seat favoured (win share by seat, χ², seat 0's edge);
- :func:`player_count_section`: score, spread, margin, shared wins and close games by
  player count;
- :func:`ratings_section`: Plackett–Luce ratings of every strategy;
- :func:`sample_size_section`: the games behind every headline cell.

The page builders give content blocks (:func:`seat_blocks`, :func:`count_blocks`,
:func:`count_table_blocks`, :func:`position_appendix_blocks`,
:func:`count_appendix_blocks`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from analysis import load, playercount, ratings, seats
from analysis.blocks import block_specs, has_block
from analysis.content import Block, Heading, Plot, Prose, Table
from analysis.estimates import Estimate, edge, rating_gap
from analysis.formats import (
    A4,
    ci,
    ci_col,
    fmt,
)
from analysis.prose import chance, fairness_sentence, first_seat_sentence, listing
from analysis.samplesize import warning
from analysis.stats import games_for_half_width

Row = dict[str, Any]
"""A headline row of the summary: ``question, finding, estimate, games, warning``."""


@dataclass(frozen=True)
class Verdict:
    """One answer a designer reads on page 1, computed by the game's code.

    Attributes
    ----------
    question : str
        Short, in plain language: ``Is the first slicer favoured?``
    answer : str
        One plain-language sentence computed from the numbers.
    estimate : str
        The number behind the answer with its 95% interval (``+2.3 pp [+0.4, +4.1]``).
    n : int
        The sample behind the estimate, in ``n_unit``.
    n_unit : str
        What ``n`` counts: ``"games"``, ``"deals"``, ``"decisions"``...
    robustness : str
        A short label: ``robust``, ``not robust: sign differs in greedy field``, ``not
        checked`` (the labels of :func:`analysis.robust.judge`); shown as a coloured tag,
        green for ``robust``, red for ``not robust…``, amber for ``not fully checked``,
        grey otherwise.
    recommendation : str
        What to do about it (may be empty).
    section : str
        The label of the section that shows the evidence (``Seats``): page 1 cites its
        number and page.
    detail : str
        One sentence on the robustness check (which conditions, which flips); may be
        empty.
    size : float or None
        How large the imbalance the answer is about is, in pp (the absolute edge of a seat
        or the value of a component, every player count considered): page 1 puts the
        largest first. None for an answer that measures no imbalance in pp (a game's
        length, ratings, a candidate change), which follows in reading order.
    value : Estimate or None
        The number behind the answer as data (:class:`analysis.estimates.Estimate`).
        Given, it is the source of ``estimate`` (:meth:`~analysis.estimates.Estimate.text`),
        ``n`` and ``n_unit``, each unless stated; :func:`analysis.report.estimates` collects
        them. ``size`` stays the verdict's to state: whether a number measures an imbalance
        (an edge) or something else (a change, a length) is the question's, not the
        number's.
    """

    question: str
    answer: str
    estimate: str = ""
    n: int = 0
    n_unit: str = ""
    robustness: str = "not checked"
    recommendation: str = ""
    section: str = ""
    detail: str = ""
    size: float | None = None
    value: Estimate | None = None

    def __post_init__(self) -> None:
        # The printed estimate, its n and page 1's order are derived from the row, so a
        # number stated once is printed the same wherever it appears.
        v = self.value
        if v is None:
            return
        object.__setattr__(self, "estimate", self.estimate or v.text())
        object.__setattr__(self, "n", self.n or int(v.n))
        object.__setattr__(self, "n_unit", self.n_unit or v.n_unit)


@dataclass
class Results:
    """Every table of a report, computed once from a dataset.

    Attributes
    ----------
    out : Path
        The dataset directory.
    manifest : dict
        Its manifest.
    game : str
        The game its study plays.
    report : GameReport
        The report being built.
    options : dict
        The report's options (the game's defaults, overridden by the caller).
    tables : dict
        What the sections computed, by name; also readable as attributes
        (``results.seat`` is ``results.tables["seat"]``).
    """

    out: Path
    manifest: dict
    game: str
    report: GameReport
    options: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        tables = self.__dict__.get("tables", {})
        if name in tables:
            return tables[name]
        raise AttributeError(f"the report computed no table {name!r}")


@dataclass(frozen=True)
class Section:
    """One question of a report.

    Attributes
    ----------
    label : str
        The question's short name in the summary (``Seats``); the summary numbers it by
        the section's place (``1 Seats``).
    compute : callable
        ``compute(results) -> dict``: the tables it adds to ``results.tables`` (it may
        read the options, the manifest and the tables of earlier sections).
    headlines : callable, optional
        ``headlines(results, question, rows) -> list of rows`` for the summary
        (``question``: ``"1 Seats"``; ``rows``: the rows of the sections before it).
    cells : callable, optional
        ``cells(results) -> list of dict``: its numbers for the sample-size page
        (``number, games, ± (pp), games for ±1 pp, warning``).
    blocks : callable
        ``blocks(results, number) -> [Block]``: its content (:mod:`analysis.content`),
        starting with a level-1 :class:`~analysis.content.Heading` titled with its number
        (``"3  Eat or collect"``); laid out by :mod:`analysis.typeset`, the one typesetter
        (no section places anything on a page).
    appendix_blocks : callable, optional
        ``appendix_blocks(results, label) -> [Block]``: its appendix (dense tables), placed
        after every section; ``label`` is ``"Appendix B"``: title it ``f"{label} — ..."``
        (:func:`appendix_label` gives it to the section's own pages, to cite it).
    needs : tuple of str
        The study blocks its question reads (any of them may be enough): a study without
        them gets the question listed as unanswered, naming these blocks
        (:func:`analysis.report.unanswered`). Empty: the block the analysis found missing
        is named.
    """

    label: str
    compute: Callable[[Results], dict[str, Any]]
    headlines: Callable[[Results, str, list[Row]], list[Row]] | None = None
    cells: Callable[[Results], list[Row]] | None = None
    blocks: Callable[[Results, int], list[Block]] | None = None
    appendix_blocks: Callable[[Results, str], list[Block]] | None = None
    needs: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.blocks is None:
            raise TypeError(f"section {self.label!r} has no blocks")


@dataclass(frozen=True)
class GameReport:
    """A game's report: the blocks it reads, its verdicts, its sections, its provenance
    and its glossary terms.

    Attributes
    ----------
    sections : tuple of Section
        In page order.
    blocks : tuple of str
        Study blocks the report reads: a study without some of them gets page 1's list of
        the questions it cannot answer (:func:`analysis.report.unanswered`).
    example : str
        A study file that has them, named when they are missing.
    title : str or None
        Page 1's title (default: the game's title).
    subtitle : str
        Under the title.
    provenance : callable, optional
        ``provenance(manifest) -> [(label, text)]``: the game's lines of the provenance
        table of "About this study" (its rules, its data files), after the engines.
    notes : callable, optional
        ``notes(results) -> [paragraph]``: text under the table of blocks of "About this
        study" (what the data assume, who plays), computed from the results.
    options : dict
        The options its sections read, with their defaults (``payoff_games``).
    verdicts : callable, optional
        ``verdicts(results) -> [Verdict]``: the answers of page 1. Without it, page 1 is
        the table of every headline number.
    glossary : dict
        The game's own glossary entries (term → definition), merged with the generic
        ones of :data:`analysis.report.GLOSSARY` (an entry of the same term replaces the
        generic one).
    describe : callable, optional
        ``describe(spec) -> str``: a strategy spec as the report's sentences name it
        (``the equilibrium heuristic``); default: the spec in quotes.
    skill : SkillLevels, optional
        The game's skill levels (:class:`analysis.skill.SkillLevels`): the report then
        ends its sections with the skill section (:mod:`analysis.skill_section`), and its
        robustness checks let only the levels strong enough to matter veto a verdict
        (:func:`analysis.skill.weak_specs`).
    """

    sections: tuple[Section, ...]
    blocks: tuple[str, ...] = ()
    example: str = ""
    title: str | None = None
    subtitle: str = "Balance report"
    provenance: Callable[[dict], list[tuple[str, str]]] | None = None
    notes: Callable[[Results], list[str]] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    verdicts: Callable[[Results], list[Verdict]] | None = None
    glossary: dict[str, str] = field(default_factory=dict)
    describe: Callable[[str], str] | None = None
    skill: Any = None


def rules_row(m: dict, doc: str) -> tuple[str, str]:
    """The provenance row of the rules a study plays: the rules version, the rulings'
    defaults and every block's changes to them.

    Parameters
    ----------
    m : dict
        The dataset's manifest (``fingerprints`` and ``study.arms``).
    doc : str
        Where the game's rules are written: ``docs/rules/horno.md``.

    Returns
    -------
    tuple of (str, str)
        ``("Rules", "<version>; the rulings' defaults except <block>: k=v, ... (<doc>)")``.
    """
    fps = list(m["fingerprints"].values())
    fp = fps[0] if fps else {}
    rules = sorted(
        {
            f"{a.get('group', a['name'])}: "
            + ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted((a.get("rules") or {}).items()))
            for a in m["study"]["arms"]
            if a.get("rules")
        }
    )
    return (
        "Rules",
        f"{fp.get('rules_version', '?')}; the rulings' defaults"
        + (f" except {'; '.join(rules)}" if rules else "")
        + f" ({doc})",
    )


HEADLINES_APPENDIX = "All headline numbers"
"""The title of the appendix with every headline number (appendix A of a report with
verdicts; page 1 of one without)."""


def appendix_labels(report: GameReport) -> dict[str, str]:
    """``Appendix A``, ``Appendix B``… by what they hold: :data:`HEADLINES_APPENDIX` first
    when the report has verdicts, then each section's appendix (by its label), in page
    order."""
    names = [HEADLINES_APPENDIX] if report.verdicts is not None else []
    names += [s.label for s in report.sections if s.appendix_blocks is not None]
    return {name: f"Appendix {chr(ord('A') + k)}" for k, name in enumerate(names)}


def appendix_label(r: Results, label: str) -> str:
    """The appendix of the section ``label`` (``Appendix B``), to cite it; empty when it
    has none."""
    return appendix_labels(r.report).get(label, "")


def headline(
    question: str,
    finding: str,
    estimate: str | Estimate,
    games: int | None = None,
    warn: str = "",
    unit: str | None = None,
    subject: bool = False,
    values: Sequence[Estimate] = (),
) -> Row:
    """A summary row; ``games`` is its n, counted in ``unit`` (games, deals, decisions).

    Given as an :class:`~analysis.estimates.Estimate`, the estimate is printed from it (its
    interval, then its subject when ``subject`` and the finding does not name it), its n
    and unit are its own unless stated, and the row carries it (``value``), so
    ``slicelab report --estimates`` lists it as data. A row that prints several numbers
    as text (one per player count) carries them as ``values``, listed the same way."""
    value = estimate if isinstance(estimate, Estimate) else None
    if value is not None:
        estimate = value.interval() + (f" ({value.subject})" if subject else "")
        games = value.n if games is None else games
        unit = value.n_unit if unit is None else unit
    return {"question": question, "finding": finding, "estimate": estimate, "games": games or 0,
            "warning": warn, "unit": unit or "games", "value": value,
            "values": list(values)}  # fmt: skip


def block_strategies(r: Results, group: str) -> list[str]:
    """The distinct strategy specs of a study block, in seat order of first appearance."""
    specs: dict[str, None] = {}
    for a in r.manifest["study"]["arms"]:
        if a.get("group", a["name"]) == group:
            specs.update(dict.fromkeys(a["strategies"]))
    return list(specs)


def field_text(r: Results, group: str, describe: Callable[[str], str] | None = None) -> str:
    """``Every seat plays 'greedy'``: who plays a uniform block, from the manifest, each
    spec named by ``describe`` (default: the report's :attr:`GameReport.describe`)."""
    return f"Every seat plays {block_field(r, group, describe) or 'nobody'}"


def block_field(r: Results, group: str, describe: Callable[[str], str] | None = None) -> str:
    """Who plays a uniform block, in words (``the equilibrium heuristic``): its specs,
    each named by ``describe`` (default: the report's :attr:`GameReport.describe`)."""
    describe = describe or r.report.describe or (lambda s: f"'{s}'")
    return listing(describe(s) for s in block_strategies(r, group))


def _uniform(r: Results, prefer: str = "seats") -> str | None:
    found = load.uniform_blocks(r.out)
    if prefer in found:
        return prefer
    return found[0] if found else None


# ----------------------------------------------------------------------------- seats


def seat_headlines(seat: pl.DataFrame, fairness: pl.DataFrame, q: str) -> list[Row]:
    """Per player count: whether the seats are fair (χ²), the best and worst seat, and the
    best seat's edge over the fair share."""
    rows = []
    for f in fairness.iter_rows(named=True):
        n = f["players"]
        s = seat.filter(pl.col("players") == n)
        top = s.sort("edge_pp", descending=True).row(0, named=True)
        low = s.sort("edge_pp").row(0, named=True)
        fair = "not fair" if f["p_value"] < 0.05 else "no detectable seat effect"
        rows.append(headline(
            q,
            f"{n} players: {fair} (χ² p={f['p_value']:.2g}); best seat {top['seat']}, "
            f"worst seat {low['seat']}",
            edge(top["edge_pp"], top["edge_low"], top["edge_high"], f["games"],
                 f"seat {top['seat']}", n),
            subject=True,
            warn=warning(top["edge_pp"], top["edge_low"], top["edge_high"], f["games"]),
        ))  # fmt: skip
    return rows


def seat_cells(seat: pl.DataFrame) -> list[Row]:
    """Every seat's win share, for the sample-size page."""
    return [
        {
            "number": f"{f['players']}p seat {f['seat']} win share",
            "games": f["games"],
            "± (pp)": 100 * f["half_width"],
            "games for ±1 pp": f["games_for_1pp"],
            "warning": f["warning"],
        }  # fmt: skip
        for f in seat.iter_rows(named=True)
    ]


def position_cells(tables: dict[str, pl.DataFrame], short: Callable[[str], str]) -> list[Row]:
    """Every field's win share by position, for the sample-size page.

    Parameters
    ----------
    tables : dict of str to pl.DataFrame
        Position tables by field name (:func:`analysis.seats.position_table`, with
        ``half_width``, ``games_for_1pp`` and ``warning``).
    short : callable
        A field's short name in a cell's label: ``heuristic field`` to ``heuristic``.

    Returns
    -------
    list of Row
        One row a field, count and position: ``3p heuristic position 0 win share``.
    """
    return [
        {
            "number": f"{x['players']}p {short(name)} position {x['position']} win share",
            "games": x["games"],
            "± (pp)": 100 * x["half_width"],
            "games for ±1 pp": x["games_for_1pp"],
            "warning": x["warning"],
        }
        for name, t in tables.items()
        for x in t.iter_rows(named=True)
    ]


def paired_cells(
    t: pl.DataFrame | None, number: Callable[[Row], str], n: str = "deals"
) -> list[Row]:
    """Every row of a table of edges in pp, for the sample-size page.

    Parameters
    ----------
    t : pl.DataFrame or None
        A table with ``n``, ``half_width`` (pp), ``games_for_1pp`` and ``warning`` (none:
        no rows).
    number : callable
        A row's label on the page: ``3p <restriction> (deals)``.
    n : str
        The column of a row's n: ``deals`` where the rows are paired by deal.

    Returns
    -------
    list of Row
        One row a table row.
    """
    if t is None:
        return []
    return [
        {
            "number": number(x),
            "games": x[n],
            "± (pp)": x["half_width"],
            "games for ±1 pp": x["games_for_1pp"],
            "warning": x["warning"],
        }
        for x in t.iter_rows(named=True)
    ]


def paired_headline(question: str, finding: str, x: Row) -> Row:
    """The summary row of one paired-by-deal edge: ``x``'s ``edge_pp`` with its interval
    (``edge_low``, ``edge_high``), over its ``deals``, with its ``warning``."""
    return headline(question, finding, ci(x["edge_pp"], x["edge_low"], x["edge_high"]),
                    x["deals"], x["warning"], "deals")  # fmt: skip


def block_players(r: Results, block: str, describe: Callable[[str], str] | None = None) -> str:
    """Who plays a block, as the report names them (``?`` when the manifest names nobody);
    each spec named by ``describe`` (default: the report's :attr:`GameReport.describe`)."""
    describe = describe or r.report.describe or (lambda s: f"'{s}'")
    return listing(describe(s) for s in block_specs(r.manifest, block)) or "?"


def fields_text(r: Results, fields: dict[str, str], short: Callable[[str], str]) -> str:
    """``greedy (seats-greedy: greedy) and random (...)``: every field (name → block) the
    study has, by its ``short`` name, with its block and who plays it
    (:func:`block_players`)."""
    return listing(
        f"{short(name)} ({b}: {block_players(r, b)})"
        for name, b in fields.items()
        if has_block(r.manifest, b)
    )


def scaled_ci_col(
    frame: pl.DataFrame,
    est: str,
    lo: str,
    hi: str,
    name: str,
    f: str = "+.1f",
    scale: float = 1.0,
    exact: str | None = None,
) -> pl.DataFrame:
    """:func:`analysis.formats.ci_col` of the columns times ``scale``.

    Parameters
    ----------
    frame : pl.DataFrame
        The table; its other columns are kept.
    est, lo, hi : str
        The estimate's column and its interval's.
    name : str
        The new column: ``estimate [low, high]`` cells.
    f : str
        The number format.
    scale : float
        What every value is multiplied by (100: a share in percent).
    exact : str or None
        A boolean column of ``frame``: where true (a block whose games are all the same)
        the cell is the value alone, ``+66.7 (one game)``, as an interval there would
        claim a spread that no game shows. Ignored when ``frame`` has no such column.

    Returns
    -------
    pl.DataFrame
        ``frame`` with the column ``name``.
    """
    scaled = frame.with_columns(
        (scale * pl.col(est)).alias("_e"),
        (scale * pl.col(lo)).alias("_l"),
        (scale * pl.col(hi)).alias("_h"),
    )
    out = ci_col(scaled, "_e", "_l", "_h", name, f)
    if exact is not None and exact in frame.columns:
        one = pl.col("_e").map_elements(lambda v: f"{v:{f}} (one game)", return_dtype=pl.String)
        out = out.with_columns(pl.when(pl.col(exact)).then(one).otherwise(pl.col(name)).alias(name))
    return out.drop("_e", "_l", "_h")


def pct_col(
    frame: pl.DataFrame, est: str, lo: str, hi: str, name: str, exact: str | None = None
) -> pl.DataFrame:
    """:func:`scaled_ci_col` of a share in percent, one decimal: ``42.1 [40.3, 43.9]``."""
    return scaled_ci_col(frame, est, lo, hi, name, ".1f", 100.0, exact)


def figure_part(title: str, text: str, fig: Figure, caption: str, shown: pl.DataFrame,
                size: float, level: int = 1) -> list[Block]:  # fmt: skip
    """A section's part: its heading (``level``), its paragraph, its chart and its table
    (type ``size``) under a minor heading (``caption``)."""
    return [Heading(title, level), Prose(text, size=8.5), Plot.natural(fig),
            Heading(caption, level=3), Table.fitted(shown, size)]  # fmt: skip


def plot_positions(t: pl.DataFrame, ax, label: str, what: str) -> None:
    """A position table's win shares (:func:`analysis.seats.plot_seat_advantage`), the
    x axis labelled ``label``, titled by ``what`` a position is (``turn position``)."""
    seats.plot_seat_advantage(t.rename({"position": "seat"}), ax, label)
    ax.set_title(f"Win share by {what} (dashed: fair share)", fontsize=9)
    ax.tick_params(labelsize=7)


def position_share_table(
    t: pl.DataFrame,
    means: dict[str, tuple[str, str]],
    games: str = "games",
    exact: str | None = None,
) -> pl.DataFrame:
    """A position table as printed: win share and edge over the fair share with their
    intervals, the game's means, the warning.

    Parameters
    ----------
    t : pl.DataFrame
        A position table (:func:`analysis.seats.position_table`).
    means : dict of str to (str, str)
        Each mean column of ``t`` shown: its heading and number format.
    games : str
        The column of a row's n.
    exact : str or None
        As in :func:`scaled_ci_col`.

    Returns
    -------
    pl.DataFrame
        Every cell as text.
    """
    share = "win share (%) [95% CI]"
    shown = pct_col(t, "win_share", "win_low", "win_high", share, exact)
    shown = scaled_ci_col(shown, "edge_pp", "edge_low", "edge_high", "edge over fair (pp)",
                          exact=exact)  # fmt: skip
    return fmt(
        shown.select("players", "position", games, share, "edge over fair (pp)",
                     *(pl.col(c).alias(name) for c, (name, _) in means.items()), "warning"),
        {name: f for name, f in means.values()},
    )  # fmt: skip


def position_results(
    tables: dict[str, pl.DataFrame], edges: Callable[[pl.DataFrame], pl.DataFrame]
) -> dict[str, Any]:
    """The position tables of every field, as a section's computed tables: ``positions``
    (field → table) and ``position_edges`` (``edges`` of each, stacked, with ``field``)."""
    stacked = pl.concat(
        [edges(t).with_columns(pl.lit(name).alias("field")) for name, t in tables.items()]
    )
    return {"positions": tables, "position_edges": stacked}


def at_position(position: str, value: pl.Expr) -> pl.Expr:
    """``pos. 2: +4.1 [...]``: a cell of ``value`` named by the position in column
    ``position``."""
    return pl.lit("pos. ") + pl.col(position).cast(pl.String) + ": " + value


def position_edges_table(
    e: pl.DataFrame,
    who: str = "player",
    key: str = "field",
    games: str = "games",
    exact: str | None = None,
) -> pl.DataFrame:
    """The table of the first, the last and the largest position edge over the fair share.

    Parameters
    ----------
    e : pl.DataFrame
        One row a ``key`` and count: ``first_pp``, ``last_pp``, ``largest_pp`` with their
        ``_low`` and ``_high``, ``largest_position`` and the column ``games``.
    who : str
        Who holds a position, in the column names: ``first player (pp)``.
    key : str
        The column that names a row's field (its `` field`` suffix dropped) or data.
    games : str
        The column of a row's n.
    exact : str or None
        As in :func:`scaled_ci_col`.

    Returns
    -------
    pl.DataFrame
        Every cell as text.
    """
    first, last = f"first {who} (pp)", f"last {who} (pp)"
    e = scaled_ci_col(e, "first_pp", "first_low", "first_high", first, exact=exact)
    e = scaled_ci_col(e, "last_pp", "last_low", "last_high", last, exact=exact)
    e = scaled_ci_col(e, "largest_pp", "largest_low", "largest_high", "largest edge (pp)",
                      exact=exact)  # fmt: skip
    e = e.with_columns(
        pl.col(key).str.replace(" field", ""),
        at_position("largest_position", pl.col("largest edge (pp)")).alias("largest edge (pp)"),
    )
    return fmt(e.select(key, "players", games, first, last, "largest edge (pp)"), {})


def _position_frames(
    r: Results, shown: Callable[[pl.DataFrame], pl.DataFrame], short: Callable[[str], str]
) -> tuple[pl.DataFrame | None, pl.DataFrame | None]:
    """The seats appendix's tables as printed: every field's win share by position (the
    field first; ``None`` without ``positions``) and the main field's by seat (``None``
    where every position is the seat, or without ``by_seat``)."""
    tables = r.tables.get("positions")
    if not tables:
        return None, None
    every = pl.concat(
        [shown(t).with_columns(pl.lit(short(n)).alias("field")) for n, t in tables.items()]
    )
    every = every.select("field", *[c for c in every.columns if c != "field"])
    by_seat = r.tables.get("by_seat")
    if by_seat is None or bool(r.position_edges["same_as_seat"].all()):
        return every, None
    return every, shown(by_seat).rename({"position": "seat"})


def position_appendix_blocks(
    r: Results,
    label: str,
    shown: Callable[[pl.DataFrame], pl.DataFrame],
    *,
    short: Callable[[str], str],
    what: str,
    widths: list[float],
    intro: str,
    seat_widths: list[float],
    main: str,
) -> list[Block]:
    """The seats appendix as content: every field's win share by position, then (where a
    position is not always the seat) the main field's win share by seat (the tables of
    :func:`position_appendix`, as blocks; the typesetter splits them over pages).

    Parameters
    ----------
    r : Results
        The report's tables: ``positions`` (position tables by field), optionally
        ``by_seat`` (the main field's table by seat) and ``position_edges``
        (:func:`analysis.seats.edges` of every field, stacked).
    label : str
        The appendix's label, which starts every heading.
    shown : callable
        The game's printed form of a position table (a ``position`` column among others).
    short : callable
        A field's short name, the first column: ``heuristic field`` to ``heuristic``.
    what : str
        What a position is in the game's words: ``turn position``, ``starting position``.
    widths : list of float
        The relative column widths of the every-field table (the field column first).
    intro : str
        The sentence under the every-field table's heading.
    seat_widths : list of float
        The relative column widths of the by-seat table.
    main : str
        The main field in prose, for the by-seat table's heading: ``the heuristic field``.

    Returns
    -------
    list of Block
        A level-1 heading, ``intro`` and the every-field table, then a level-2 heading and
        the by-seat table; no blocks without ``positions``.
    """
    every, seat = _position_frames(r, shown, short)
    if every is None:
        return []
    out: list[Block] = [Heading(f"{label} — Win share by {what} in every field"),
                        Prose(intro), Table.of(every, widths, size=6.5)]  # fmt: skip
    if seat is not None:
        out += [Heading(f"{label} — Win share by seat, {main}", level=2),
                Table.of(seat, seat_widths, size=7)]  # fmt: skip
    return out


def count_appendix_blocks(labels: dict | None = None) -> Callable[[Results, str], list[Block]]:
    """The player-count appendix (:func:`count_table_blocks` of ``r.count``), as a
    :class:`Section`'s ``appendix_blocks``.

    Parameters
    ----------
    labels : dict, optional
        The game's own measures' names (:func:`count_table`).

    Returns
    -------
    callable
        ``appendix_blocks(r, label) -> [Block]``: no blocks when the report has no
        ``count`` table.
    """

    def appendix(r: Results, label: str) -> list[Block]:
        if "count" not in r.tables:
            return []
        return count_table_blocks(f"{label} — Player count: every estimate", r.count, labels)

    return appendix


_SEAT_WIDTHS = (0.07, 0.07, 0.07, 0.04, 0.08, 0.1, 0.2, 0.25)
"""The column widths of the goodness-of-fit table (:func:`_seat_table`)."""


def _seat_text(field: str, fairness: pl.DataFrame, who: str = "The first seat (seat 0)") -> str:
    """The seat page's paragraph: who plays, whether the seats are fair (χ²), the largest
    seat edge and ``who``'s edge over the fair share, computed from ``fairness``
    (:func:`analysis.seats.seat_fairness`)."""
    worst = fairness.sort("max_edge_pp", descending=True).row(0, named=True)
    return (
        f"{field}; each game is the paired unit (all seats see the same deal). "
        + fairness_sentence(fairness["players"], fairness["p_value"])
        + f" The largest seat edge is {worst['max_edge_pp']:.1f} pp at {worst['players']} "
        "players. Dashed lines are the fair shares. "
        + first_seat_sentence(fairness["players"], fairness["first_edge_pp"],
                              fairness["first_low"], fairness["first_high"], who)
    )  # fmt: skip


def _seat_table(fairness: pl.DataFrame) -> pl.DataFrame:
    """The goodness-of-fit table of the seat page, as printed: per player count its games,
    χ², degrees of freedom, p, the largest seat edge and seat 0's edge over the fair share."""
    shown = ci_col(fairness, "first_edge_pp", "first_low", "first_high", "seat 0 − fair (pp)")
    return fmt(shown.select("players", "games", pl.col("chi2").alias("χ²"), "df",
                            pl.col("p_value").alias("p"),
                            pl.col("max_edge_pp").alias("largest seat edge (pp)"),
                            "seat 0 − fair (pp)", "warning"),
               {"χ²": ".2f", "p": ".3g", "largest seat edge (pp)": ".2f"})  # fmt: skip


def seat_blocks(
    field: str,
    seat: pl.DataFrame,
    fairness: pl.DataFrame,
    who: str = "The first seat (seat 0)",
    seat_label: str = "seat (0 = first to play)",
) -> list[Block]:
    """The seat page as content: a paragraph computed from the numbers, win share by seat
    and the goodness-of-fit table (what :func:`seat_page` draws, without its title).

    Parameters
    ----------
    field : str
        Who plays, the paragraph's first clause: ``Every seat plays 'greedy'``
        (:func:`field_text`).
    seat : pl.DataFrame
        Win share by seat (:func:`analysis.seats.seat_advantage`).
    fairness : pl.DataFrame
        The goodness of fit per player count (:func:`analysis.seats.seat_fairness`).
    who : str
        Seat 0 in the game's words, for the sentence on its edge.
    seat_label : str
        The chart's x axis label.

    Returns
    -------
    list of Block
        A paragraph, the chart, a level-3 heading and the table; the caller puts the
        section's level-1 heading before them.
    """
    fig = Figure(figsize=(7.4, 3.9), layout="constrained")
    seats.plot_seat_advantage(seat, fig.add_subplot(), seat_label)
    return [
        Prose(_seat_text(field, fairness, who)),
        Plot(fig),
        Heading("Goodness of fit against fair shares", level=3),
        Table.of(_seat_table(fairness), _SEAT_WIDTHS, size=7),
    ]


def seats_section(group: str | None = None) -> Section:
    """Is the first seat favoured? Reads ``group`` (default: the block ``seats`` if it
    seats one strategy everywhere, else the first block that does)."""

    def compute(r: Results) -> dict[str, Any]:
        g = group or _uniform(r)
        if g is None:
            return {}
        return {"seat_block": g, "seat": seats.seat_advantage(r.out, g),
                "fairness": seats.seat_fairness(r.out, g)}  # fmt: skip

    def blocks(r: Results, num: int) -> list[Block]:
        if "fairness" not in r.tables:
            return []
        return [Heading(f"{num}  Is the first player favoured?"),
                *seat_blocks(field_text(r, r.seat_block), r.seat, r.fairness)]  # fmt: skip

    def headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
        return seat_headlines(r.seat, r.fairness, q) if "fairness" in r.tables else []

    def cells(r: Results) -> list[Row]:
        return seat_cells(r.seat) if "seat" in r.tables else []

    return Section("Seats", compute, headlines=headlines, cells=cells, blocks=blocks)


# ----------------------------------------------------------------------------- player count

COUNT_HEADLINES = (
    ("shared_win", "shared wins", "%", ".1f"),
    ("margin", "winning margin", "pts", ".1f"),
)
"""The player-count measures in the summary: (measure, label, unit, format)."""


COUNT_UNITS = {"%": "%", "pts": "points"}
"""The :class:`~analysis.estimates.Estimate` unit of each summary unit of the player-count
measures (others are kept as written)."""


def count_headlines(
    count: pl.DataFrame, q: str, measures=COUNT_HEADLINES, field: str = ""
) -> list[Row]:
    """One summary row per measure: its estimate at every player count, printed as one
    line and carried as one :class:`~analysis.estimates.Estimate` per count (``field``:
    who played), so ``--estimates`` lists each with its interval."""
    rows = []
    for m, label, unit, f in measures:
        t = count.filter(pl.col("measure") == m).sort("players")
        if not t.height:
            continue
        scale = 100 if unit == "%" else 1
        text = "; ".join(f"{p}p {scale * e:{f}}" for p, e in zip(t["players"], t["estimate"],
                                                                   strict=True))  # fmt: skip
        warn = "; ".join(w for w in t["warning"] if w)
        text += f" {unit}" if unit else ""
        values = [
            Estimate(label, scale * x["estimate"], scale * x["low"], scale * x["high"],
                     int(x["games"]), "games", unit=COUNT_UNITS.get(unit, unit),
                     players=int(x["players"]), field=field, method="interval over games")
            for x in t.iter_rows(named=True)
        ]  # fmt: skip
        rows.append(headline(q, f"{label} by player count", text, int(t["games"].min()), warn,
                             values=values))  # fmt: skip
    return rows


def count_range(count: pl.DataFrame, measure: str, scale: float = 1.0, f: str = ".1f") -> str:
    """``a to b``: the smallest and largest estimate of a measure across player counts."""
    v = count.filter(pl.col("measure") == measure)["estimate"]
    return f"{scale * v.min():{f}} to {scale * v.max():{f}}"


def count_table(count: pl.DataFrame, labels: dict | None = None) -> pl.DataFrame:
    """The player-count estimates as a table: one row per player count, one column per
    measure (named in words), each cell ``estimate [low, high]``."""
    names = {**playercount.LABELS, **(labels or {})}
    wide = ci_col(count, "estimate", "low", "high", "cell", ".3g")
    shown = wide.pivot(on="measure", index="players", values="cell")
    shown = shown.rename({m: names.get(m, m.replace("_", " ")) for m in shown.columns[1:]})
    return fmt(shown.rename({"players": "player count"}), {})


_COUNT_INTRO = ("Every measure of the player-count section with its 95% interval (shares "
                "as fractions, points as points).")  # fmt: skip


def _count_widths(shown: pl.DataFrame) -> list[float]:
    """The player count's column, then the measures' columns sharing the rest."""
    return [0.1] + [0.78 / (shown.width - 1)] * (shown.width - 1)


def _count_warnings(count: pl.DataFrame, labels: dict | None = None) -> str:
    """``Warnings: 2p winning margin: ...`` for every flagged estimate, each measure named
    in words (:func:`count_table`'s names); empty when none is."""
    warned = count.filter(pl.col("warning") != "")
    if not warned.height:
        return ""
    names = {**playercount.LABELS, **(labels or {})}
    notes = "; ".join(f"{p}p {names.get(m, m.replace('_', ' '))}: {w}" for p, m, w in
                      zip(warned["players"], warned["measure"], warned["warning"],
                          strict=True))  # fmt: skip
    return "Warnings: " + notes


def count_table_blocks(title: str, count: pl.DataFrame, labels: dict | None = None) -> list[Block]:
    """:func:`count_table` under its own title, for an appendix (what
    :func:`count_table_pages` draws, as blocks; the typesetter splits it over pages).

    Parameters
    ----------
    title : str
        The appendix's title (a level-1 heading): ``Appendix A — Player count: every
        estimate``.
    count : pl.DataFrame
        The player-count estimates (:func:`analysis.playercount.player_count`).
    labels : dict, optional
        The game's own measures' names (:func:`count_table`).

    Returns
    -------
    list of Block
        The heading, a sentence on what the table holds and the table.
    """
    shown = count_table(count, labels)
    return [Heading(title), Prose(_COUNT_INTRO),
            Table.of(shown, _count_widths(shown), size=7)]  # fmt: skip


def count_blocks(
    text: str, count: pl.DataFrame, labels: dict | None = None, with_table: bool = True
) -> list[Block]:
    """The player-count page as content: a paragraph, a panel per measure, (``with_table``)
    the table of estimates with their intervals and the warnings (what :func:`count_page`
    draws, without its title).

    Parameters
    ----------
    text : str
        The paragraph (computed by the caller: who plays, the ranges worth stating).
    count : pl.DataFrame
        The player-count estimates (:func:`analysis.playercount.player_count`).
    labels : dict, optional
        The game's own measures' names, for the panels' titles and the table's columns.
    with_table : bool
        Whether to list the estimates here; without it, put :func:`count_table_blocks` in
        an appendix.

    Returns
    -------
    list of Block
        The paragraph, the panels, the table (if asked) and the warnings (if any); the
        caller puts the section's level-1 heading before them.
    """
    measures = count["measure"].n_unique()
    # a row of three panels per three measures: every measure gets its panel
    rows = max(1, -(-measures // 3))
    fig = Figure(figsize=(7.4, 2.45 * rows), layout="constrained")
    playercount.plot_player_count(count, fig.subplots(rows, 3, squeeze=False), labels)
    out: list[Block] = [Prose(text), Plot(fig)]
    if with_table:
        shown = count_table(count, labels)
        out.append(Table.of(shown, _count_widths(shown), size=6.5))
    if warnings := _count_warnings(count, labels):
        out.append(Prose(warnings, size=7.5))
    return out


def count_title(count: pl.DataFrame, num: int) -> str:
    counts = sorted(count["players"].unique())
    return f"{num}  Does the game hold up from {counts[0]} to {counts[-1]} players?"


def count_values(count: pl.DataFrame, measure: str, scale: float = 1.0, f: str = ".1f") -> str:
    """``2p 41.2; 3p 38.0``: a measure's estimate at every player count, in order."""
    v = count.filter(pl.col("measure") == measure).sort("players")
    return "; ".join(f"{p}p {scale * e:{f}}" for p, e in zip(v["players"], v["estimate"],
                                                             strict=True))  # fmt: skip


def player_count_section(
    group: str | None = None,
    *,
    extra: playercount.Extra | None = None,
    labels: dict[str, str] | None = None,
    headlines: tuple[tuple[str, str, str, str], ...] = COUNT_HEADLINES,
    about: Callable[[Results, pl.DataFrame], str] | None = None,
    field_name: str | None = None,
) -> Section:
    """The player-count question for any game: score, spread, margin, shared wins, close
    games and the game's own measures, by player count, with a panel per measure.

    Parameters
    ----------
    group : str, optional
        The uniform block it reads (default: the seats section's block, else the study's
        first uniform block); a study without it gets no such section.
    extra : callable, optional
        The game's own measures (:data:`analysis.playercount.Extra`).
    labels : dict, optional
        Their names, for the panels, the table and the warnings.
    headlines : tuple
        The measures of the summary list: ``(measure, label, unit, format)`` each.
    about : callable, optional
        ``about(results, count) -> str``: the game's sentences on its measures, after who
        plays and what the margin is (default: the ranges of shared wins and close games).
    field_name : str, optional
        What the report calls the block's field (``the mixed field``), named beside the
        block.

    Returns
    -------
    Section
    """

    def compute(r: Results) -> dict[str, Any]:
        g = group if group is not None else r.tables.get("seat_block") or _uniform(r)
        if g is None or not has_block(r.manifest, g):
            return {}
        return {"count_block": g, "count": playercount.player_count(r.out, g, extra=extra)}

    def default_about(r: Results, c: pl.DataFrame) -> str:
        return (f"Shared wins run from {count_range(c, 'shared_win', 100)}% of games; games "
                f"won by at most 1 point from {count_range(c, 'close', 100)}%.")  # fmt: skip

    def blocks(r: Results, num: int) -> list[Block]:
        if "count" not in r.tables:
            return []
        c = r.count
        said = (about or default_about)(r, c)
        named = f", {field_name}" if field_name else ""
        text = (f"{field_text(r, r.count_block)} (block {r.count_block}{named}). Winning margin is "
                f"the winner's total minus the runner-up's. {said}")  # fmt: skip
        if where := appendix_label(r, "Player count"):
            text += f" Every estimate with its interval: {where}."
        return [Heading(count_title(c, num)), *count_blocks(text, c, labels, with_table=False)]

    def heads(r: Results, q: str, rows: list[Row]) -> list[Row]:
        if "count" not in r.tables:
            return []
        # the data names the field without the prose's quotes around a bare spec
        field = block_field(r, r.count_block, r.report.describe or str)
        return count_headlines(r.count, q, headlines, field)

    return Section("Player count", compute, headlines=heads, blocks=blocks,
                   appendix_blocks=count_appendix_blocks(labels))  # fmt: skip


# ----------------------------------------------------------------------------- ratings


def strategies_text(t: pl.DataFrame) -> str:
    """The rated strategies, by family: ``heuristic (12 specs), greedy and random``."""
    families: dict[str, set[str]] = {}
    for s in t.sort("players", "rating", descending=[False, True])["strategy"]:
        families.setdefault(s.split("(")[0], set()).add(s)
    return listing(f"{f} ({len(v)} specs)" if len(v) > 1 else f for f, v in families.items())


def gaps_text(gaps: pl.DataFrame) -> str:
    """The highest- against the lowest-rated strategy per count: gap, interval, deals."""
    parts = [
        f"{g['players']} players {ci(g['gap'], g['low'], g['high'], 'Elo', '+.0f')} "
        f"({g['a']} ahead of {g['b']} {chance(g['win'])} of the time; "
        f"{g['deals']:,} deals)"
        for g in gaps.filter(pl.col("top_vs_bottom")).sort("players").iter_rows(named=True)
    ]
    return f"Highest minus lowest rated: {'; '.join(parts)}." if parts else ""


def ratings_headlines(gaps: pl.DataFrame, q: str) -> list[Row]:
    """Per player count: the highest and lowest rated strategy and the gap between them,
    with its 95% interval over deals (``gaps``: :func:`analysis.ratings.rating_gaps`)."""
    rows = []
    for g in gaps.filter(pl.col("top_vs_bottom")).sort("players").iter_rows(named=True):
        rows.append(headline(
            q,
            f"{g['players']} players: {g['a']} rated highest, {g['b']} lowest (gap; "
            f"n = {g['deals']:,} deals)",
            rating_gap(g, f"{g['a']} − {g['b']}", g["players"]), warn=g["warning"],
        ))  # fmt: skip
    return rows


def ratings_section(
    groups: tuple[str, ...] | None = None, panel_height: float | None = None
) -> Section:
    """Plackett–Luce ratings of every strategy in the study (all blocks, or only the
    blocks ``groups``), and the gap between the highest and lowest rated with its interval
    over deals. ``panel_height`` caps the height of each player count's panel (a share of
    the page's height; default: 3 inches)."""

    def compute(r: Results) -> dict[str, Any]:
        t = ratings.ratings(r.out, groups=groups)
        return {"ratings": t, "rating_gaps": ratings.rating_gaps(t)}

    def blocks(r: Results, num: int) -> list[Block]:
        from sims.core.game import get_game

        t = r.ratings
        counts = sorted(t["players"].unique())
        rule = ", then ".join(get_game(r.game).results.win_keys)
        text = ("Plackett–Luce ratings on the Elo scale (400 points = 10:1 odds), "
                "centred on the mean strategy, fitted per player count to every game where "
                f"different strategies met, read as a ranking of its seats by the win rule "
                f"({rule}; ties, equal on every key, by the Davidson–Luce model). 95% "
                "intervals from a bootstrap over deals: every game played on a deal (all "
                "rotations and blocks) is resampled together. Strategies rated, from "
                + ("every block of the study" if groups is None else
                   f"the block{'s' if len(groups) > 1 else ''} {', '.join(groups)}")
                + f": {strategies_text(t)}. {gaps_text(r.rating_gaps)}")  # fmt: skip
        cols = 2
        rows = int(np.ceil(len(counts) / cols))
        strategies = t["strategy"].n_unique() if counts else 1
        cap = 3.0 if panel_height is None else panel_height * A4[1]  # inches
        panel = min(max(1.0 + 0.22 * strategies, 1.6), cap)
        fig = Figure(figsize=(7.4, panel * max(rows, 1)), layout="constrained")
        for k, n in enumerate(counts):
            ax = fig.add_subplot(max(rows, 1), cols, k + 1)
            ratings.plot_ratings(t, n, ax)
            ax.tick_params(labelsize=6)
            ax.set_xlabel("Elo (mean 0)", fontsize=7)
            ax.set_title(f"{n} players", fontsize=9)
        return [Heading(f"{num}  Strategy ratings"), Prose(text), Plot(fig)]

    def headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
        return ratings_headlines(r.rating_gaps, q)

    return Section("Ratings", compute, headlines=headlines, blocks=blocks)


# ----------------------------------------------------------------------------- sample size


def sample_size_section(order: tuple[str, ...] = ()) -> Section:
    """The games behind every cell the other sections list, and how many are flagged.

    ``order``: section labels whose cells come first, in that order; the other sections'
    cells follow in page order."""

    def ordered(r: Results) -> list[Section]:
        rank = {label: i for i, label in enumerate(order)}
        sections = list(r.report.sections)
        return sorted(sections, key=lambda s: (rank.get(s.label, len(rank)), sections.index(s)))

    def compute(r: Results) -> dict[str, Any]:
        # its cells come from the other sections when it is laid out; a section computing
        # nothing is one whose blocks the study lacks (analysis.report.compute)
        return {"sample_size_order": order}

    def frame(r: Results) -> pl.DataFrame:
        rows = [c for s in ordered(r) if s.cells for c in s.cells(r)]
        return pl.DataFrame(rows, schema={"number": pl.String, "games": pl.Int64,
                                          "± (pp)": pl.Float64, "games for ±1 pp": pl.Int64,
                                          "warning": pl.String})  # fmt: skip

    def blocks(r: Results, num: int) -> list[Block]:
        cells = frame(r)
        flagged = int((cells["warning"] != "").sum())
        where = appendix_label(r, "Sample size")
        text = ("For each headline number: its interval half-width and the games "
                "that would give ±1 pp (scaled from the cell's own variance). A warning marks a "
                "cell whose interval covers the reference or that rests on fewer than 100 "
                f"games: {flagged} of {cells.height} cells. For a win share near 0.5, ±1 pp "
                f"needs {games_for_half_width(0.5, 0.01):,} games and ±0.1 pp "
                f"{games_for_half_width(0.5, 0.001):,}. Below, each cell's half-width against "
                "its games" + (f"; every cell is listed in {where}." if where else ".")
        )  # fmt: skip
        fig = Figure(figsize=(6.6, 3.9), layout="constrained")
        plot_sample_size(cells, fig.add_subplot())
        return [Heading(f"{num}  Are there enough games?"), Prose(text), Plot(fig)]

    def appendix(r: Results, label: str) -> list[Block]:
        shown = fmt(frame(r), {"± (pp)": ".2f"})
        return [Heading(f"{label} — Sample size: every headline cell"),
                Table.of(shown, (0.3, 0.08, 0.08, 0.13, 0.33), size=6.5)]  # fmt: skip

    def headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
        flagged = sum(1 for row in rows if row["warning"])
        return [headline(q, "headline numbers flagged as too small for their claim: "
                         f"{flagged} of {len(rows)}", "", 0)]  # fmt: skip

    return Section("Sample size", compute, headlines=headlines, blocks=blocks,
                   appendix_blocks=appendix)  # fmt: skip


def plot_sample_size(cells: pl.DataFrame, ax) -> None:
    """Each headline cell's interval half-width (pp) against its games, log-log, flagged
    cells in red, with the half-width of a win share of 0.5 for reference."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    ok = cells.filter((pl.col("games") > 0) & pl.col("± (pp)").is_finite())
    for flagged, colour, name in ((False, "tab:blue", "no warning"),
                                  (True, "tab:red", "warning (see its cell)")):  # fmt: skip
        t = ok.filter((pl.col("warning") != "") == flagged)
        if t.height:
            ax.scatter(t["games"], t["± (pp)"], s=14, color=colour, label=f"{name} ({t.height})",
                       zorder=3, alpha=0.8)  # fmt: skip
    if ok.height:
        n = np.geomspace(max(10, ok["games"].min() / 2), ok["games"].max() * 2, 50)
        ax.plot(n, 100 * 1.96 * np.sqrt(0.25 / n), color="grey", lw=0.8, ls="--",
                label="a win share of 0.5", zorder=2)  # fmt: skip
        ax.axhline(1, color="black", lw=0.6, ls=":", zorder=1)
        ax.set_xscale("log")
        ax.set_yscale("log")
        plain = FuncFormatter(lambda v, _: f"{v:g}")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
            axis.set_major_formatter(plain)
            axis.set_minor_formatter(NullFormatter())
        ax.legend(fontsize=7, loc="lower left")
    ax.set_xlabel("games behind the number (log scale)", fontsize=8)
    ax.set_ylabel("95% interval half-width, pp (log scale)", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.set_title("Interval half-width against sample size (dotted: ±1 pp)", fontsize=9)


GENERIC_SECTIONS = (seats_section, player_count_section, ratings_section, sample_size_section)
"""The sections of a game that declares no report of its own, in order."""
