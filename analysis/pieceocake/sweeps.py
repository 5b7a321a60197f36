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
(:func:`analysis.sweep.best_value`, with the field's own value); :func:`plot_sweep` draws
the curve.
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
    return {
        "curve": generic.sweep_curve(out, group, param),
        "best": generic.best_value(out, group, param, field=field, symbol=p.symbol),
    }


def set_text(best: dict, param: str) -> str:
    """The values not significantly worse than the best, listed: ``0.7, 1, 1.4``."""
    return ", ".join(f"{v:g}" for v in best[f"{param}_set"])


def plot_sweep(curve: pl.DataFrame, best: pl.DataFrame, param: str, ax, title: str = "") -> None:
    """Win share of the swept seat at each value (equally spaced, labelled with the
    values), one colour per player count (nudged sideways), 95% t intervals over deals;
    filled markers: not significantly worse than the count's best; a ring round the best;
    dashed: the fair share 1/n."""
    from matplotlib.lines import Line2D

    from analysis.pdf import count_colour

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
