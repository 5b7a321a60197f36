"""A parameter sweep as a report shows it: the best value of a strategy parameter per player
count, the values not significantly worse than it and its edge on held-out deals.

:mod:`analysis.sweep` computes a sweep (:func:`~analysis.sweep.sweep_curve`,
:func:`~analysis.sweep.best_value`); this module holds what New York Slice's θ sweep and
Piece o' Cake's θ, ``margin`` and ``fewer`` sweeps show alike, for any parameter, named by
its column (``param``: ``theta``) and by how the text writes it (``symbol``: ``θ``):

- :func:`set_text`: a count's not-worse set, listed;
- :func:`held_out_edge` and :func:`best_headlines`: the summary rows, one a player count,
  each carrying its :class:`~analysis.estimates.Estimate`;
- :func:`held_out_gain`: what choosing the best value gains on held-out deals, in words
  (page 1's answer);
- :func:`best_cells`: the sample-size page's cells (the best value's win share);
- :func:`grid_notes`: the counts whose grid does not bracket the best, by note;
- :func:`best_table` and :func:`sets_table`: the appendix's tables of the best value per
  count and in every condition.

The games' sentences stay theirs (each words the sweep its own way), as do their charts
(New York Slice draws θ on a log axis with the not-worse sets as bars below the curves;
Piece o' Cake spaces its values equally, its grids holding 0 and negative values) and
what each says of the field's own value.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from analysis.estimates import Estimate
from analysis.formats import ci, ci_col, fmt
from analysis.sections import Row, headline, paired_cells


def set_text(x: Row, param: str) -> str:
    """The values not significantly worse than the best at one count, listed.

    Parameters
    ----------
    x : dict
        A row of :func:`analysis.sweep.best_value` (its ``<param>_set``, ascending).
    param : str
        The swept parameter's column.

    Returns
    -------
    str
        ``1.4, 2, 2.8``.
    """
    return ", ".join(f"{v:g}" for v in x[f"{param}_set"])


def held_out_edge(x: Row, param: str, symbol: str, field: str = "") -> Estimate:
    """A count's held-out edge at the best value as an estimate.

    Parameters
    ----------
    x : dict
        A row of :func:`analysis.sweep.best_value` (``players, deals, best_<param>,
        edge_pp, edge_low, edge_high``).
    param : str
        The swept parameter's column.
    symbol : str
        How the text names it (``θ``, ``margin``).
    field : str
        Who plays the field (:attr:`~analysis.estimates.Estimate.field`).

    Returns
    -------
    Estimate
        The best value's edge over the fair share on the deals that did not pick it (n in
        deals), about ``<symbol> = <best>``.
    """
    return Estimate(f"held-out edge over the fair share at the best {symbol}", x["edge_pp"],
                    x["edge_low"], x["edge_high"], int(x["deals"]), "deals",
                    subject=f"{symbol} = {x[f'best_{param}']:g}", players=int(x["players"]),
                    field=field, method="deals not used to pick it")  # fmt: skip


def best_headlines(
    best: pl.DataFrame | None,
    q: str,
    param: str,
    symbol: str,
    estimate: Callable[[Row], Estimate],
    *,
    set_words: str = "not worse",
    edge_words: str = "held-out edge over the fair share",
) -> list[Row]:
    """The summary rows of a sweep: per player count the best value, its not-worse set and
    its held-out edge.

    Parameters
    ----------
    best : pl.DataFrame or None
        :func:`analysis.sweep.best_value` with its sample-size columns (None: no rows).
    q : str
        The section's question (``"3 Eat or collect"``).
    param, symbol : str
        The swept parameter's column and how the text names it.
    estimate : callable
        ``estimate(row) -> Estimate``: the number a row carries (:func:`held_out_edge`, or
        a game's own wording of the same number).
    set_words : str
        What the listed set is: ``not worse``, ``not significantly worse``.
    edge_words : str
        What the estimate is, after the set: ``held-out edge over the fair share``.

    Returns
    -------
    list of Row
        ``2 players: best θ 1.2 (not worse: 1, 1.2, 1.4); held-out edge over the fair
        share``, one a count, each with its warning.
    """
    if best is None:
        return []
    return [headline(q, f"{x['players']} players: best {symbol} {x[f'best_{param}']:g} "
                     f"({set_words}: {set_text(x, param)}); {edge_words}", estimate(x),
                     warn=x["warning"])
            for x in best.iter_rows(named=True)]  # fmt: skip


def held_out_gain(x: Row, symbol: str) -> str:
    """What choosing the best value gains over the fair share on held-out deals, in words.

    Parameters
    ----------
    x : dict
        A row of :func:`analysis.sweep.best_value` (``edge_pp, edge_low, edge_high``).
    symbol : str
        How the text names the parameter (``θ``).

    Returns
    -------
    str
        ``Choosing θ this way gains +1.2 pp [+0.3, +2.1] over the fair share on deals not
        used to pick it`` when the held-out edge's interval lies above 0, else ``On deals
        not used to pick it, choosing θ this way gains nothing measurable over the fair
        share (+0.4 pp [-0.5, +1.3])``; without a closing stop, as each game's answer goes
        on in its own words.
    """
    edge = ci(x["edge_pp"], x["edge_low"], x["edge_high"])
    if x["edge_low"] > 0:
        return (f"Choosing {symbol} this way gains {edge} over the fair share on deals not "
                "used to pick it")  # fmt: skip
    return (f"On deals not used to pick it, choosing {symbol} this way gains nothing "
            f"measurable over the fair share ({edge})")  # fmt: skip


def best_cells(
    curve: pl.DataFrame | None, best: pl.DataFrame | None, param: str, symbol: str
) -> list[Row]:
    """The sample-size page's cells of a sweep: at each count the win share of the best
    value (the curve's row of it), over deals.

    Parameters
    ----------
    curve : pl.DataFrame or None
        :func:`analysis.sweep.sweep_curve` (None: no cells).
    best : pl.DataFrame or None
        :func:`analysis.sweep.best_value` of the same block (None: no cells).
    param, symbol : str
        The swept parameter's column and how the text names it.

    Returns
    -------
    list of Row
        ``2p best θ=1.2: seat win share (deals)``, one a count.
    """
    if curve is None or best is None:
        return []
    # a join keeps no order: the cells are listed by player count (one a count)
    at_best = curve.join(best.select("players", pl.col(f"best_{param}").alias(param)),
                         on=["players", param]).sort("players")  # fmt: skip
    # the curve's half-width is of a win share: the page lists it in pp
    return paired_cells(at_best.with_columns(pl.col("half_width") * 100),
                        lambda x: f"{x['players']}p best {symbol}={x[param]:g}: seat win "
                        "share (deals)")  # fmt: skip


def grid_notes(best: pl.DataFrame) -> dict[str, list[int]]:
    """Where the tested grid does not bracket the best value or its not-worse set.

    Parameters
    ----------
    best : pl.DataFrame
        :func:`analysis.sweep.best_value` (its ``grid_note``, empty where the grid
        brackets the best).

    Returns
    -------
    dict of str to list of int
        Each note with the player counts it holds at, ascending, in the order of their
        first count: counts with the same note are stated together. Empty when the grid
        brackets the best at every count.
    """
    notes: dict[str, list[int]] = {}
    for x in best.sort("players").iter_rows(named=True):
        if x["grid_note"]:
            notes.setdefault(x["grid_note"], []).append(x["players"])
    return notes


def best_table(best: pl.DataFrame, param: str, symbol: str, *, listed: bool = True) -> pl.DataFrame:
    """The best value per player count as printed, every cell text.

    Parameters
    ----------
    best : pl.DataFrame
        :func:`analysis.sweep.best_value` with its sample-size columns.
    param, symbol : str
        The swept parameter's column and how the text names it.
    listed : bool
        Whether the not-worse set is listed (one column, ``not significantly worse``), or
        given by its ends (``not worse: from``, ``to``).

    Returns
    -------
    pl.DataFrame
        ``players, deals, best <symbol>``, the set, ``win share``, ``held-out edge (pp)``
        (with its interval), ``in-sample edge (pp)`` and ``warning``.
    """
    shown = ci_col(best, "edge_pp", "edge_low", "edge_high", "held-out edge (pp)")
    formats: dict[str, str] = {}
    # a long set (a flat curve) fits a page's table only by its ends
    if listed:
        values = pl.element().map_elements(lambda v: f"{v:g}", return_dtype=pl.String)
        members = [pl.col(f"{param}_set").list.eval(values).list.join(", ")
                   .alias("not significantly worse")]  # fmt: skip
    else:
        members = [pl.col("set_low").alias("not worse: from"), pl.col("set_high").alias("to")]
        formats = {"not worse: from": "g", "to": "g"}
    return fmt(shown.select("players", "deals", pl.col(f"best_{param}").alias(f"best {symbol}"),
                            *members, pl.col("win_share").alias("win share"),
                            "held-out edge (pp)",
                            pl.col("edge_in_sample_pp").alias("in-sample edge (pp)"), "warning"),
               {f"best {symbol}": "g", "win share": ".3f", "in-sample edge (pp)": "+.1f",
                **formats})  # fmt: skip


def sets_table(sets: pl.DataFrame, by: str, param: str, symbol: str) -> pl.DataFrame:
    """The best value and its not-worse set in every condition as printed, every cell text.

    Parameters
    ----------
    sets : pl.DataFrame
        One row per condition (:func:`analysis.robust.common_set`): ``by``,
        ``best_<param>``, ``set`` (the not-worse values), ``deals`` and, where the game
        measures it, the held-out edge (``edge_pp``, ``edge_low``, ``edge_high``).
    by : str
        The column naming the condition (``condition``, ``field``).
    param, symbol : str
        The swept parameter's column and how the text names it.

    Returns
    -------
    pl.DataFrame
        ``by, best <symbol>, <symbol> not significantly worse`` (the values rounded to two
        decimals), ``held-out edge (pp)`` where ``sets`` has it, and ``deals``.
    """
    edge = "edge_pp" in sets.columns
    if edge:
        sets = ci_col(sets, "edge_pp", "edge_low", "edge_high", "held-out edge (pp)")
    listed = pl.col("set").list.eval(pl.element().round(2).cast(pl.String)).list.join(", ")
    return fmt(sets.with_columns(listed).select(
        by, pl.col(f"best_{param}").alias(f"best {symbol}"),
        pl.col("set").alias(f"{symbol} not significantly worse"),
        *(["held-out edge (pp)"] if edge else []), "deals"), {f"best {symbol}": "g"})  # fmt: skip
