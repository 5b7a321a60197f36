"""Estimates as data: the numbers a report states, as rows of one schema.

A page-1 answer (:class:`~analysis.sections.Verdict`) stands on one number: an edge, a
component's value, a change, a rating gap. Each verdict carries it as an
:class:`Estimate` (the quantity, what it is about, the conditions it was measured in, the
estimate and its 95% interval, its n and the unit n counts, how the interval was made and
the family it was picked from), and everything printed about it is derived from that row:
the estimate line of the verdict card (:meth:`Estimate.text`), its n, and the size page 1
orders by (:func:`analysis.verdicts.clear_size` of the interval). :func:`frame` gives the
rows of a report as one table (``slicelab report --estimates FILE``), so an analyst reads
page 1's numbers as data, and a number is computed once and printed the same everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass

import polars as pl

from analysis.formats import ci

ESTIMATE_SCHEMA: dict[str, pl.DataType] = {
    "source": pl.String,
    "question": pl.String,
    "section": pl.String,
    "quantity": pl.String,
    "subject": pl.String,
    "players": pl.Int64,
    "field": pl.String,
    "data": pl.String,
    "rules": pl.String,
    "estimate": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "unit": pl.String,
    "n": pl.Int64,
    "n_unit": pl.String,
    "method": pl.String,
    "family": pl.Int64,
    "robustness": pl.String,
}
"""The columns of :func:`frame`: one row per stated number."""

FORMATS = {"pp": "+.1f", "points": "+.1f", "Elo": "+.0f", "%": ".1f", "rounds": ".1f"}
"""How each unit's numbers print (an unlisted unit prints as ``+.1f``)."""


@dataclass(frozen=True)
class Estimate:
    """One number a report states, with everything needed to read it.

    Attributes
    ----------
    quantity : str
        What is measured, in words: ``"win share − fair share"``, ``"worth to a seat that
        may receive it"``, ``"change in the first player's edge"``.
    estimate, low, high : float
        The estimate and its 95% interval (the interval corrected for the pick when
        ``family`` > 1).
    n : int
        The sample behind it, counted in ``n_unit``.
    n_unit : str
        The independent unit the interval is clustered by: ``"games"``, ``"deals"``.
    unit : str
        The estimate's unit: ``"pp"``, ``"points"``, ``"Elo"``.
    subject : str
        What the number is about: ``"the first slicer"``, ``"position 2"``,
        ``"Super-Sized Combos"``; empty when the quantity says it.
    players : int or None
        The player count it was measured at (None: several, or none).
    field : str
        Who played: ``"equilibrium heuristic"``.
    data : str
        The components played: ``"the default deck"``, a variant's file.
    rules : str
        The rules played, when not the printed ones.
    method : str
        How the interval was made: ``"t interval over games"``, ``"paired by deal"``.
    family : int
        How many estimates it was picked from (1: not picked); its interval is then
        corrected for the pick, and :meth:`text` says so.
    note : str
        A few printed words after the interval (``"over the fair share"``); not data.
    """

    quantity: str
    estimate: float
    low: float
    high: float
    n: int
    n_unit: str
    unit: str = "pp"
    subject: str = ""
    players: int | None = None
    field: str = ""
    data: str = ""
    rules: str = ""
    method: str = ""
    family: int = 1
    note: str = ""

    def interval(self) -> str:
        """``+2.1 pp [+0.5, +3.7]`` in the unit's format (:data:`FORMATS`)."""
        return ci(self.estimate, self.low, self.high, self.unit, FORMATS.get(self.unit, "+.1f"))

    def text(self) -> str:
        """The estimate line page 1 prints: ``position 2 at 3 players: +4.1 pp [+1.0,
        +7.2] over the fair share (corrected for picking the largest of 9)``."""
        where = " ".join(x for x in (self.subject, self.at()) if x)
        out = f"{where}: {self.interval()}" if where else self.interval()
        if self.note:
            out += f" {self.note}"
        if self.family > 1:
            out += f" (corrected for picking the largest of {self.family})"
        return out

    def at(self) -> str:
        """``at 3 players``, or '' when the estimate has no one player count."""
        return f"at {self.players} players" if self.players is not None else ""

    @property
    def finite(self) -> bool:
        """Whether the estimate and both ends of its interval are numbers."""
        return all(math.isfinite(float(v)) for v in (self.estimate, self.low, self.high))


def clear_size(low: float, high: float) -> float:
    """How far an interval lies from 0, in its unit: the end nearer 0 when it excludes 0,
    else 0 (a noisy estimate with a wide interval is not a large imbalance). The size by
    which page 1 orders its verdicts (:attr:`~analysis.sections.Verdict.size`)."""
    lo, hi = float(low), float(high)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return 0.0
    return lo if lo > 0 else -hi if hi < 0 else 0.0


def edge(
    estimate: float, low: float, high: float, games: int, subject: str, players: int, **kw
) -> Estimate:
    """A seat's or position's win share minus the fair share (pp, n in games) as an
    estimate; ``kw`` are :class:`Estimate`'s other fields (``field``, ``method``...)."""
    kw.setdefault("method", "interval over games")
    return Estimate("win share − fair share", estimate, low, high, int(games), "games",
                    subject=subject, players=int(players), **kw)  # fmt: skip


def edge_claim(claim: dict, subject: str, **kw) -> Estimate:
    """A picked edge (a row of :func:`analysis.verdicts.largest_claim` of edges:
    ``edge_pp``, ``adj_low``, ``adj_high``, ``games``, ``players``, ``family``) as an
    estimate, its interval the one corrected for the pick."""
    return edge(claim["edge_pp"], claim["adj_low"], claim["adj_high"], claim["games"], subject,
                claim["players"], family=int(claim["family"]), **kw)  # fmt: skip


def rating_gap(x: dict, subject: str, players: int) -> Estimate:
    """A rating gap of :func:`analysis.ratings.rating_gaps` (``gap, low, high, deals``) as
    an estimate: ``subject`` names the pair (``heuristic − greedy``)."""
    return Estimate("rating gap", x["gap"], x["low"], x["high"], int(x.get("deals") or 0),
                    "deals", unit="Elo", subject=subject, players=players,
                    method="Plackett–Luce ratings")  # fmt: skip


def held_out_theta(x: dict, players: int, field: str) -> Estimate:
    """The held-out edge of eating at the best θ of a sweep (``best_theta, edge_pp,
    edge_low, edge_high, deals``: :mod:`analysis.sweep`) as an estimate."""
    return Estimate("held-out edge over the fair share of eating at the best θ", x["edge_pp"],
                    x["edge_low"], x["edge_high"], int(x["deals"]), "deals",
                    subject=f"θ = {x['best_theta']:g}", players=players, field=field,
                    method="deals not used to pick θ")  # fmt: skip


def frame(rows: Iterable[dict]) -> pl.DataFrame:
    """Estimates as one table (:data:`ESTIMATE_SCHEMA`).

    Parameters
    ----------
    rows : iterable of dict
        Each ``{"question": …, "section": …, "robustness": …, "value": Estimate}``, and
        ``source``: where the report states it (``"page 1"``, the default, or
        ``"appendix"``: the table of every headline number).

    Returns
    -------
    pl.DataFrame
        One row per estimate, in the order given.
    """
    out = []
    for row in rows:
        value = asdict(row["value"])
        value.pop("note")
        keys = ("question", "section", "robustness")
        out.append({"source": row.get("source", "page 1"), **value,
                    **{k: row.get(k, "") for k in keys}})  # fmt: skip
    return pl.DataFrame(out, schema=ESTIMATE_SCHEMA)
