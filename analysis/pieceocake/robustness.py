"""Piece o' Cake's headlines in every field the balance study plays.

Each headline is recomputed with other players around the table (the *fields*: the
heuristic everywhere, and greedy everywhere), each field a set of study blocks found by
name (:data:`FIELDS`); a field whose blocks the study lacks is reported as not checked, and
:func:`analysis.robust.judge` decides: robust only when every field's interval excludes 0
with the same sign, and otherwise why not (a sign that flips, no effect in a field, too few
deals to tell, no effect anywhere).

- :func:`first_server`: the first server's edge (seat 0's win share minus the fair
  share, pp, t over games) per player count (``seats``, ``seats-greedy``);
- :func:`option_values`: an option's value (forgoing, cutting fewer) at one count
  (:func:`analysis.restricted.option_value`: ``noforgo`` against ``seats``,
  ``noforgo-greedy`` against ``heur-greedy``; the same for ``nofewer``);
- :func:`theta_sets`: the best θ and the θ not significantly worse, at one count
  (``theta``, ``theta-greedy``): robust when one θ is in every field's set;
- :func:`other_reading`: an option's value at 2 players under the other reading of the
  2-player second turn (``forced_forgo_after_take = false``: ``noforgo-2p-pass`` and
  ``nofewer-2p-pass`` against ``seats-2p-pass``), beside the ruling's.

An option value carried by a handful of deals (:func:`analysis.pieceocake.restricted
.tested_value`: fewer than :data:`analysis.stats.SPARSE_UNITS` differ) enters its field's
condition without an interval, so it is never judged robust from a t interval that means
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis import seats as generic_seats
from analysis import sweep
from analysis.blocks import field_spec, has_block
from analysis.pieceocake.common import field_values
from analysis.pieceocake.restricted import tested_value
from analysis.pieceocake.sweeps import field_check
from analysis.restricted import check_paired
from analysis.robust import Condition, common_set


@dataclass(frozen=True)
class Blocks:
    """The blocks of one field: the uniform seat block, the unrestricted candidate's block
    (paired with the restricted blocks), the restricted blocks and the θ sweep."""

    seats: str
    unrestricted: str
    noforgo: str
    nofewer: str
    theta: str


FIELDS: dict[str, Blocks] = {
    "heuristic field": Blocks("seats", "seats", "noforgo", "nofewer", "theta"),
    "greedy field": Blocks("seats-greedy", "heur-greedy", "noforgo-greedy", "nofewer-greedy",
                           "theta-greedy"),
}  # fmt: skip
"""The fields each headline is recomputed in; the first is the main one."""
MAIN_FIELD = "heuristic field"

OTHER_READING = {"seats": "seats-2p-pass", "noforgo": "noforgo-2p-pass",
                 "nofewer": "nofewer-2p-pass"}  # fmt: skip
"""The 2-player blocks of the other reading of the second turn (rule
``forced_forgo_after_take = false``), by the block of the ruling they stand for."""
OTHER_RULE = "forced_forgo_after_take = false"
"""The rule those blocks play, as the report names it."""


def first_server(out, manifest: dict) -> dict[int, list[Condition]]:
    """Per player count, the first server's edge in every field whose seat block the study
    has."""
    found: dict[int, list[Condition]] = {}
    for name, b in FIELDS.items():
        if not has_block(manifest, b.seats):
            continue
        for r in generic_seats.seat_fairness(out, b.seats).iter_rows(named=True):
            found.setdefault(r["players"], []).append(Condition(
                "field", name, r["first_edge_pp"], r["first_low"], r["first_high"],
                r["games"], "games", spec=field_spec(manifest, b.seats) or ""))  # fmt: skip
    return found


def option_values(
    out, manifest: dict, option: str
) -> tuple[dict[int, list[Condition]], dict[str, pl.DataFrame]]:
    """An option's value (``option``: ``"noforgo"`` or ``"nofewer"``, the attribute of
    :class:`Blocks`) per player count in every field whose blocks the study has.

    Returns
    -------
    (conditions, tables)
        ``conditions``: per player count, one :class:`Condition` per field that played it;
        ``tables``: each field's :func:`analysis.pieceocake.restricted.option_value`.
    """
    found: dict[int, list[Condition]] = {}
    tables: dict[str, pl.DataFrame] = {}
    for name, b in FIELDS.items():
        block = getattr(b, option)
        if not (has_block(manifest, block) and has_block(manifest, b.unrestricted)):
            continue
        t = _paired_value(out, block, b.unrestricted)
        tables[name] = t
        spec = field_spec(manifest, b.unrestricted) or ""
        for row in t.iter_rows(named=True):
            found.setdefault(row["players"], []).append(_condition(name, row, spec))
    return found, tables


def _paired_value(out, restricted: str, unrestricted: str) -> pl.DataFrame:
    """:func:`~analysis.pieceocake.restricted.tested_value`, after checking that the two
    blocks deal the same games under the same cake and rules."""
    check_paired(out, restricted, unrestricted, ("cake", "rules"))
    return tested_value(out, restricted, unrestricted)


def _condition(name: str, row: dict, spec: str = "") -> Condition:
    """A value row as a field's condition (``spec``: who plays the field); a sparse value
    without its (meaningless) interval."""
    lo, hi = row["value_low"], row["value_high"]
    if row.get("sparse"):
        lo = hi = float("nan")
    return Condition("field", name, row["value_pp"], lo, hi, row["deals"], "deals", spec=spec)


def other_reading(out, manifest: dict, option: str) -> pl.DataFrame | None:
    """An option's value (``"noforgo"`` or ``"nofewer"``) at 2 players in the heuristic
    field under the other reading of the 2-player second turn (:data:`OTHER_RULE`): the
    restricted block of :data:`OTHER_READING` against ``seats-2p-pass``, or None when the
    study lacks them."""
    block, base = OTHER_READING[option], OTHER_READING["seats"]
    if not (has_block(manifest, block) and has_block(manifest, base)):
        return None
    return _paired_value(out, block, base)


def theta_sets(
    out, manifest: dict, players: int = 4
) -> tuple[pl.DataFrame, list[float], list[str]]:
    """The best θ and its not-worse set at ``players`` in every field with a θ sweep.

    Returns
    -------
    (table, common, missing)
        ``table``: ``field, best_theta, set, deals, edge_pp, edge_low, edge_high`` (held
        out), ``field_theta`` (the field's own θ), ``field_in_grid`` and
        ``field_not_worse`` (:func:`analysis.pieceocake.sweeps.field_check`);
        ``common``: the θ in every field's set; ``missing``: fields not run.
    """

    def checked(group: str) -> pl.DataFrame:
        field = field_values(manifest, group, "theta")
        best = sweep.best_value(out, group, "theta", field=field, symbol="θ")
        return field_check(sweep.sweep_curve(out, group, "theta", field=field), best, "theta")

    best = {name: checked(b.theta) if has_block(manifest, b.theta) else None
            for name, b in FIELDS.items()}  # fmt: skip
    kept = ("best_theta", "deals", "edge_pp", "edge_low", "edge_high", "field_theta",
            "field_in_grid", "field_not_worse")  # fmt: skip
    schema = {"field": pl.String, "best_theta": pl.Float64, "set": pl.List(pl.Float64),
              "deals": pl.Int64, "edge_pp": pl.Float64, "edge_low": pl.Float64,
              "edge_high": pl.Float64, "field_theta": pl.Float64, "field_in_grid": pl.Boolean,
              "field_not_worse": pl.Boolean}  # fmt: skip
    return common_set(best, players, lambda name, x, members: {
        "field": name, "set": members, **{k: x[k] for k in kept}}, schema)  # fmt: skip
