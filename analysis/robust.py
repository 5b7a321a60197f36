"""Is a verdict robust? One headline number recomputed under several conditions — other
fields of players, other plausible decks — and judged together, for any game.

A verdict is **robust** only when its interval excludes zero with the same sign in every
condition it was checked under, and every condition the study was meant to check is
present. Anything else says why not, naming the conditions: a sign that flips, an interval
that covers zero, a condition not run. This is deliberately strict: a designer acting on a
verdict should know it does not hinge on the players modelled or on the assumed values of
the components.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl


@dataclass(frozen=True)
class Condition:
    """One recomputation of a headline number.

    Attributes
    ----------
    kind : str
        ``"field"`` (who plays) or ``"deck"`` (which components), or another axis.
    name : str
        As a reader sees it, e.g. ``"greedy field"`` or ``"plausible deck 3"``.
    estimate, low, high : float
        The number and its 95% interval (nan when it could not be computed).
    n : int
        Its sample size, in ``unit``.
    unit : str
        What ``n`` counts: ``"games"``, ``"deals"``, ``"seat-games"``...
    """

    kind: str
    name: str
    estimate: float
    low: float
    high: float
    n: int = 0
    unit: str = "games"


def sign(low: float, high: float) -> int:
    """+1 if the interval lies above 0, -1 below, 0 if it covers 0 or is undefined."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return 0
    return 1 if low > 0 else -1 if high < 0 else 0


@dataclass(frozen=True)
class Robustness:
    """The judgement over conditions: ``robust`` (bool), ``sign`` (+1/-1, 0 when not
    robust), ``label`` (a few words for a table or a tag) and ``detail`` (a sentence)."""

    robust: bool
    sign: int
    label: str
    detail: str


def judge(conditions: Sequence[Condition], expected: Iterable[str] = ()) -> Robustness:
    """Judge a headline over its conditions.

    Parameters
    ----------
    conditions : sequence of Condition
        The headline under each condition it was computed in (the main one included).
    expected : iterable of str
        Names of conditions the study was meant to check; any not among ``conditions``
        makes the verdict "not checked" in them.

    Returns
    -------
    Robustness
    """
    have = {c.name for c in conditions}
    missing = [name for name in expected if name not in have]
    signs = [sign(c.low, c.high) for c in conditions]
    positive = [c.name for c, s in zip(conditions, signs, strict=True) if s > 0]
    negative = [c.name for c, s in zip(conditions, signs, strict=True) if s < 0]
    covers = [c.name for c, s in zip(conditions, signs, strict=True) if s == 0]
    k = len(conditions)
    if not conditions:
        return Robustness(False, 0, "not checked", "no condition was computed")
    if positive and negative:
        return Robustness(False, 0, "not robust: sign differs",
                          f"the sign differs: above zero in {_names(positive)}, below in "
                          f"{_names(negative)}")  # fmt: skip
    if covers:
        return Robustness(False, 0, "not robust: covers 0 somewhere",
                          f"the interval covers zero in {_names(covers)} "
                          f"({len(covers)} of {k} conditions)")  # fmt: skip
    s = 1 if positive else -1
    side = "above" if s > 0 else "below"
    if missing:
        return Robustness(False, 0, "not fully checked",
                          f"{side} zero in all {k} conditions computed, but not checked in "
                          f"{_names(missing)}")  # fmt: skip
    return Robustness(True, s, "robust", f"{side} zero in all {k} conditions "
                      f"({_kinds(conditions)})")  # fmt: skip


def _names(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _kinds(conditions: Sequence[Condition]) -> str:
    counts: dict[str, int] = {}
    for c in conditions:
        counts[c.kind] = counts.get(c.kind, 0) + 1
    return ", ".join(f"{v} {k}{'s' if v != 1 else ''}" for k, v in counts.items())


def conditions_table(rows: dict[str, Sequence[Condition]]) -> pl.DataFrame:
    """Every condition of every headline as one table (``headline, kind, condition,
    estimate, low, high, n, unit, sign``), for an appendix."""
    out = [
        {"headline": h, "kind": c.kind, "condition": c.name, "estimate": c.estimate,
         "low": c.low, "high": c.high, "n": c.n, "unit": c.unit, "sign": sign(c.low, c.high)}
        for h, conds in rows.items()
        for c in conds
    ]  # fmt: skip
    schema = {"headline": pl.String, "kind": pl.String, "condition": pl.String,
              "estimate": pl.Float64, "low": pl.Float64, "high": pl.Float64, "n": pl.Int64,
              "unit": pl.String, "sign": pl.Int64}  # fmt: skip
    return pl.DataFrame(out, schema=schema)


def plot_conditions(
    found: Mapping[object, Sequence[Condition]],
    ax,
    label: str,
    names: Sequence[str] = (),
    styles: Mapping[str, tuple[str, str]] | None = None,
    key_text: Callable[[object], str] = lambda k: f"{k} players",
    hollow: Callable[[Condition], bool] | None = None,
) -> None:
    """One row per key of ``found`` (a player count, say), one marker with its 95% interval
    per condition, in the order of ``names`` (conditions not named go last), coloured by
    ``styles`` (name → ``(colour, marker)``; grey triangles otherwise); a condition for
    which ``hollow`` is true gets an open marker (e.g. an exact value). The legend sits
    right of the axes."""
    styles = styles or {}
    keys = sorted(found)
    names = list(names)
    step = 0.8 / max(len(names), 1)
    seen: set[str] = set()
    for i, key in enumerate(keys):
        for c in found[key]:
            j = names.index(c.name) if c.name in names else len(names)
            y = i - 0.4 + step * (j + 0.5)
            colour, marker = styles.get(c.name, ("0.5", "^"))
            if np.isfinite(c.low) and np.isfinite(c.high):
                ax.errorbar([c.estimate], [y], xerr=[[c.estimate - c.low], [c.high - c.estimate]],
                            fmt="none", ecolor=colour, capsize=2, elinewidth=0.9,
                            zorder=3)  # fmt: skip
            face = "white" if hollow is not None and hollow(c) else colour
            ax.plot([c.estimate], [y], marker, color=colour, mfc=face, ms=4, zorder=4,
                    label=None if c.name in seen else c.name)  # fmt: skip
            seen.add(c.name)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(keys)), [key_text(k) for k in keys], fontsize=7)
    ax.set_ylim(len(keys) - 0.5, -0.5)
    ax.set_xlabel(label, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
