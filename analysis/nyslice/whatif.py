"""New York Slice what-if rule changes: a headline before and after a candidate change.

A what-if block plays the same deals as the block it is compared with (the same seed and
deck) under a changed rule (``[arms.rules]``, e.g. ``super_sized_combo_halves = 3`` or
``compensation = [1]``). Because game ``i`` of both is the same deal, the change is a
paired difference over deals:

- :func:`first_slicer_change` — the first slicer's edge (seat 0's win share minus the fair
  share, pp: :func:`analysis.seats.first_edge`) before and after;
- :func:`special_change` — one special's worth (:func:`analysis.nyslice.specials.forfeit_value`:
  points a game it is in play) before and after.
"""

from __future__ import annotations

import json

import numpy as np
import polars as pl

from analysis import seats as generic_seats
from analysis.load import MissingBlock, manifest, untreated
from analysis.load import rows as load_rows
from analysis.nyslice.specials import restricted_deals
from analysis.stats import mean_interval
from sims.core.errors import SlicelabError


def block_rules(out, group: str) -> dict:
    """The rule options a block sets (the same for all its arms), ``{}`` for none."""
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


def _first_edges(out, group: str) -> pl.DataFrame:
    frame = untreated(load_rows(out, "players", group))
    parts = []
    for n in sorted(frame["players"].unique()):
        share = generic_seats.by_game(frame.filter(pl.col("players") == n), "win_share", n)
        index = frame.filter((pl.col("players") == n) & (pl.col("seat") == 0)).sort(
            "game_index")["game_index"]  # fmt: skip
        edge = generic_seats.first_edge(share)
        parts.append(pl.DataFrame({"players": n, "game_index": index, "edge": edge}))
    return pl.concat(parts)


def _row(n: int, before: np.ndarray, after: np.ndarray, unit: str = "pp") -> dict:
    out: dict = {"players": n, "deals": len(before)}
    for name, values in (("before", before), ("after", after), ("change", after - before)):
        m, lo, hi = mean_interval(values)
        out.update({f"{name}_{unit}": m, f"{name}_low": lo, f"{name}_high": hi})
    return out


def _schema(unit: str = "pp") -> dict:
    return {"players": pl.Int64, "deals": pl.Int64,
            **{f"{k}_{s}": pl.Float64 for k in ("before", "after", "change")
               for s in (unit, "low", "high")}}  # fmt: skip


_SCHEMA = _schema()


def first_slicer_change(out, before: str = "seats", after: str = "whatif-comp1") -> pl.DataFrame:
    """The first slicer's edge under the printed rules (``before``) and under the what-if
    block ``after``, on the deals both played, with the paired change.

    Returns
    -------
    polars.DataFrame
        One row per player count of ``after``: ``players, deals``, ``before_pp``,
        ``after_pp`` and ``change_pp`` (after − before), each with ``_low``/``_high``
        (pp, t over deals).
    """
    a, b = _first_edges(out, before), _first_edges(out, after)
    pair = b.join(a, on=["players", "game_index"], suffix="_before", how="inner")
    rows = [
        _row(n, sub["edge_before"].to_numpy(), sub["edge"].to_numpy())
        for (n,), sub in pair.sort("players", "game_index").group_by("players", maintain_order=True)
    ]
    return pl.DataFrame(rows, schema=_SCHEMA)


def special_change(
    out,
    special: str = "super_sized_combos",
    before: tuple[str, str] = ("forfeit", "seats"),
    after: tuple[str, str] = ("whatif-ssc-forfeit", "whatif-ssc-seats"),
) -> pl.DataFrame:
    """A special's worth before and after a rule change, paired by deal.

    ``before`` and ``after`` are (forfeit block, its unrestricted block) pairs (restricted
    blocks of ``forfeit=<special>``); the value of a deal is the unrestricted seat's score
    minus the forfeiting seat's, averaged over rotations, over the deals where the special
    is in play (as :func:`analysis.nyslice.specials.forfeit_value`; which specials appear
    is a fact of the deal, the same before and after).

    Returns
    -------
    polars.DataFrame
        As :func:`first_slicer_change`, in points: ``before_points``, ``after_points`` and
        ``change_points``, each with ``_low``/``_high``.
    """
    a = restricted_deals(out, *before).filter((pl.col("avoided") == special) & pl.col("in_play"))
    b = restricted_deals(out, *after).filter(pl.col("avoided") == special)
    pair = b.join(a, on=["players", "game_index"], suffix="_before", how="inner")
    rows = [
        _row(n, sub["d_score_before"].to_numpy(), sub["d_score"].to_numpy(), "points")
        for (n,), sub in pair.sort("players", "game_index").group_by("players", maintain_order=True)
    ]
    return pl.DataFrame(rows, schema=_schema("points"))
