"""Piece o' Cake's parameter sweeps, read by :mod:`analysis.sweep`: one seat plays the
``heuristic`` with one parameter set to each value of a grid against a fixed field, from
every seat in turn on the same deals.

- ``theta`` (block ``theta``; ``theta-greedy`` in the greedy field at 4 players): the
  eat-or-collect weight. A slice is eaten when its cream exceeds θ × the majority it would
  gain by collecting it: a larger θ collects more.
- ``margin`` (block ``margin``): forgo only when the forgo value exceeds the best piece's
  value by more than the margin (points): a larger margin forgoes less.
- ``fewer`` (block ``fewer``): points the server adds to a cut for each piece fewer than
  the most allowed: a larger value cuts fewer pieces on purpose.

:func:`sweep` returns the curve (:func:`analysis.sweep.sweep_curve`) and the best value
(:func:`analysis.sweep.best_value`, with the field's own value), and checks that each
count's grid holds the field's own value (:func:`field_check`: a best value is compared
with what the field plays, not only with the grid's other values); :func:`plot_sweep`
draws the curve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from analysis import sweep as generic
from analysis.blocks import has_block
from analysis.pieceocake.common import field_values


@dataclass(frozen=True)
class Param:
    """A swept parameter: its column, how sentences name it, what a larger value does."""

    name: str
    symbol: str
    larger: str
    label: str


PARAMS = {
    "theta": Param("theta", "θ", "collects more", "θ: eat when cream > θ × collect gain"),
    "margin": Param("margin", "margin", "forgoes less",
                    "margin: forgo when forgo value > best piece + margin (points)"),
    "fewer": Param("fewer", "fewer", "cuts fewer pieces",
                   "fewer: points per piece fewer than the most allowed, in the cut's value"),
}  # fmt: skip
"""The sweeps of the balance study, by their grid column."""


def sweep(out, manifest: dict, group: str, param: str) -> dict | None:
    """``{"curve": ..., "best": ...}`` of a sweep block (None when the study lacks it)."""
    if not has_block(manifest, group):
        return None
    p = PARAMS[param]
    field = field_values(manifest, group, param)
    curve = generic.sweep_curve(out, group, param, field=field)
    best = generic.best_value(out, group, param, field=field, symbol=p.symbol)
    return {"curve": curve, "best": field_check(curve, best, param)}


FIELD_TOLERANCE = 1e-9
"""How close a grid value must be to the field's own to be it."""


def field_check(curve: pl.DataFrame, best: pl.DataFrame, param: str) -> pl.DataFrame:
    """The best value of each count beside the field's own value (``field_<param>``).

    Adds ``field_in_grid`` (the grid holds the field's value), ``field_is_best``,
    ``field_not_worse`` (the field's value is in the count's not-worse set) and
    ``field_shortfall_pp``/``_low``/``_high`` (best − the field's value, win share pp,
    paired by deal), null where the grid lacks it; and ``field_note``: '' when the grid
    holds it, else a sentence saying so (a "best value" from such a grid is only the best
    of the grid's values: it may lose to what the field already plays)."""
    field_col = f"field_{param}"
    symbol = PARAMS[param].symbol if param in PARAMS else param
    rows = []
    for b in best.iter_rows(named=True):
        n, f = int(b["players"]), b[field_col]
        row = {"players": n, "field_in_grid": False, "field_is_best": None,
               "field_not_worse": None, "field_shortfall_pp": None, "field_shortfall_low": None,
               "field_shortfall_high": None, "field_note": ""}  # fmt: skip
        c = pl.DataFrame()
        if f is not None:
            c = curve.filter(
                (pl.col("players") == n)
                & ((pl.col(param).cast(pl.Float64) - f).abs() < FIELD_TOLERANCE)
            )
        if c.height and "not_worse" in c.columns:
            x = c.row(0, named=True)
            row |= {"field_in_grid": True, "field_is_best": bool(x["is_best"]),
                    "field_not_worse": bool(x["not_worse"]),
                    "field_shortfall_pp": x["shortfall_pp"],
                    "field_shortfall_low": x["shortfall_low"],
                    "field_shortfall_high": x["shortfall_high"]}  # fmt: skip
        elif f is not None:
            row["field_note"] = (
                f"the grid lacks the field's own {symbol} ({f:g}), so the best "
                f"{symbol} is only the best of the grid; add {f:g} to it"
            )
        rows.append(row)
    schema = {"players": pl.Int64, "field_in_grid": pl.Boolean, "field_is_best": pl.Boolean,
              "field_not_worse": pl.Boolean, "field_shortfall_pp": pl.Float64,
              "field_shortfall_low": pl.Float64, "field_shortfall_high": pl.Float64,
              "field_note": pl.String}  # fmt: skip
    return best.join(pl.DataFrame(rows, schema=schema), on="players", how="left")


def field_sentence(x: dict, param: str) -> str:
    """How the best value of one count compares with the field's own (a row of
    :func:`field_check`): ``The field's own θ (1.327) is the best`` / ``... is in the
    not-worse set, +0.4 pp [-0.6, +1.4] behind the best`` / ``... is significantly worse
    than the best, by ...`` / the grid note when the grid lacks it."""
    from analysis.formats import ci

    symbol = PARAMS[param].symbol if param in PARAMS else param
    f = x.get(f"field_{param}")
    if f is None:
        return ""
    if not x.get("field_in_grid"):
        return f"{x['field_note'][:1].upper()}{x['field_note'][1:]}."
    own = f"The field's own {symbol} ({f:g})"
    if x["field_is_best"]:
        return f"{own} is the best of the grid."
    gap = ci(x["field_shortfall_pp"], x["field_shortfall_low"], x["field_shortfall_high"])
    if x["field_not_worse"]:
        return f"{own} is not significantly worse than the best ({gap} behind it)."
    return f"{own} is significantly worse than the best, by {gap}."


def plot_sweep(curve: pl.DataFrame, best: pl.DataFrame, param: str, ax, title: str = "") -> None:
    """Win share of the swept seat at each value (equally spaced, labelled with the
    values), one colour per player count (nudged sideways), 95% t intervals over deals;
    filled markers: not significantly worse than the count's best; a ring round the best;
    dashed: the fair share 1/n."""
    from matplotlib.lines import Line2D

    from analysis.formats import count_colour

    grid = sorted(float(v) for v in curve[param].unique())
    pos = {v: i for i, v in enumerate(grid)}
    counts = sorted(curve["players"].unique())
    mid = (len(counts) - 1) / 2
    bests = {r["players"]: (float(r[f"best_{param}"]), {float(v) for v in r[f"{param}_set"]})
             for r in best.iter_rows(named=True)}  # fmt: skip
    for i, n in enumerate(counts):
        c = count_colour(n)
        t = curve.filter(pl.col("players") == n).sort(param)
        values = t[param].to_numpy().astype(float)
        x = np.array([pos[v] for v in values]) + 0.07 * (i - mid)
        y = 100 * t["win_share"].to_numpy()
        lo, hi = 100 * t["win_low"].to_numpy(), 100 * t["win_high"].to_numpy()
        ax.plot(x, y, "-", color=c, lw=1, alpha=0.8, zorder=1)
        ax.errorbar(x, y, yerr=np.vstack([y - lo, hi - y]), fmt="none", ecolor=c,
                    elinewidth=0.9, capsize=2, zorder=3)  # fmt: skip
        ax.plot(x, y, "o", ms=4, mfc="white", mec=c, zorder=2, label=f"{n} players")
        b, members = bests.get(n, (None, set()))
        inset = np.isin(values, list(members))
        if inset.any():
            ax.plot(x[inset], y[inset], "o", ms=4, mfc=c, mec=c, zorder=2)
        if b is not None and (values == b).any():
            k = int(np.flatnonzero(values == b)[0])
            ax.plot([x[k]], [y[k]], "o", ms=9, mfc="none", mec=c, mew=1.2, zorder=4)
        ax.axhline(100 / n, color=c, ls="--", lw=0.8, zorder=0)
    ax.set_xticks(range(len(grid)), [f"{g:g}" for g in grid])
    ax.set_xlim(-0.5, len(grid) - 0.5)
    ax.set_xlabel(PARAMS[param].label, fontsize=8)
    ax.set_ylabel("win share of the swept seat, % (95% CI)", fontsize=8)
    ax.tick_params(labelsize=7)
    if title:
        ax.set_title(title, fontsize=9)
    handles, labels = ax.get_legend_handles_labels()
    handles += [Line2D([], [], ls="none", marker="o", ms=4, mfc="0.4", mec="0.4"),
                Line2D([], [], ls="none", marker="o", ms=9, mfc="none", mec="0.4", mew=1.2),
                Line2D([], [], ls="--", color="0.4", lw=0.8)]  # fmt: skip
    labels += ["filled: not\nsignificantly worse\nthan the best", "ring: the best",
               "fair share 1/n"]  # fmt: skip
    ax.legend(handles, labels, fontsize=6.5, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              frameon=False)  # fmt: skip
