"""New York Slice's headlines under every field and plausible deck of the study.

The balance study asks each headline question again with other players in every seat
(the *fields*: the equilibrium heuristic, greedy, the search player) and on plausible decks
(``studies/decks/nyslice-family-<k>.toml``: the default deck's assumed pepperoni,
anchovies and combo pairs redrawn within their ranges). Each condition is a set of study
blocks, found by name (:data:`FIELDS`, :data:`DECKS`); a condition the study lacks is
reported as not checked. :mod:`analysis.robust` judges each headline over its conditions.

- :func:`first_slicer` — the first slicer's edge (seat 0 minus the other seats, pp) per
  player count;
- :func:`special_values` — each special's worth (:func:`analysis.nyslice.specials.forfeit_value`,
  points a game it is in play) at one player count;
- :func:`theta_sets` — the best eat threshold θ and the θ values not worse than it, at one
  player count (robust when one θ is in every condition's set).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis import seats as generic_seats
from analysis.blocks import field_spec
from analysis.load import arms, manifest
from analysis.nyslice import specials, threshold
from analysis.robust import Condition, common_set, judge


@dataclass(frozen=True)
class Blocks:
    """The study blocks of one condition: the uniform seat block, the forfeit blocks of
    the specials' worth (paired with the seat block) and the θ sweep."""

    kind: str
    seats: str
    forfeit: tuple[str, ...]
    theta: str


FIELDS: dict[str, Blocks] = {
    "equilibrium field": Blocks("field", "seats", specials.FORFEIT_BLOCKS, "theta"),
    "greedy field": Blocks("field", "seats-greedy", ("forfeit-greedy",), "theta-greedy"),
    "search field": Blocks("field", "seats-search", ("forfeit-search",), "theta-search"),
}
"""The fields each headline is recomputed in; the first is the main one."""
DECKS: dict[str, Blocks] = {
    f"plausible deck {k}": Blocks(
        "deck", f"deck{k}-seats", (f"deck{k}-forfeit",), f"deck{k}-theta"
    )  # fmt: skip
    for k in range(1, 6)
}
"""The plausible decks (equilibrium field) each headline is recomputed on."""
CONDITIONS = {**FIELDS, **DECKS}


def _groups(out) -> set[str]:
    return set(arms(out)["group"].to_list())


def first_slicer(out) -> dict[int, list[Condition]]:
    """Per player count, the first slicer's edge (seat 0's win share minus the fair share,
    pp, t over games) in every condition whose seat block the study has."""
    have = _groups(out)
    found: dict[int, list[Condition]] = {}
    for name, b in CONDITIONS.items():
        if b.seats not in have:
            continue
        spec = _spec(out, b.seats)
        for r in generic_seats.seat_fairness(out, b.seats).iter_rows(named=True):
            found.setdefault(r["players"], []).append(
                Condition(
                    b.kind,
                    name,
                    r["first_edge_pp"],
                    r["first_low"],
                    r["first_high"],
                    r["games"],
                    "games",
                    spec=spec,
                )  # fmt: skip
            )
    return found


def _spec(out, block: str) -> str:
    """Who plays the condition's field (its seat block's spec): the skill rule of the
    verdict layer reads it (:func:`analysis.robust.vetoes`)."""
    return field_spec(manifest(out), block) or ""


def seat_edge(out, players: int, seat: int) -> list[Condition]:
    """One seat's edge over the fair share at ``players`` (win share pp, Wilson over games)
    in every condition whose seat block the study has: the conditions a claim about that
    seat (the player-count verdict's largest edge) is judged over."""
    have = _groups(out)
    found = []
    for name, b in CONDITIONS.items():
        if b.seats not in have:
            continue
        t = generic_seats.seat_advantage(out, b.seats)
        t = t.filter((pl.col("players") == players) & (pl.col("seat") == seat))
        for r in t.iter_rows(named=True):
            found.append(Condition(b.kind, name, r["edge_pp"], r["edge_low"], r["edge_high"],
                                   r["games"], "games", spec=_spec(out, b.seats)))  # fmt: skip
    return found


def special_values(out, players: int = 4) -> dict[str, list[Condition]]:
    """Per special, its worth at ``players`` (points a game it is in play, t over those
    deals: :func:`analysis.nyslice.specials.forfeit_value`; scale ``points``, judged against
    its equivalence bound) in every condition whose forfeit and seat blocks the study has."""
    have = _groups(out)
    found: dict[str, list[Condition]] = {}
    for name, b in CONDITIONS.items():
        blocks = tuple(g for g in b.forfeit if g in have)
        if not blocks or b.seats not in have:
            continue
        t = specials.forfeit_value(out, blocks, b.seats)
        for r in t.filter(pl.col("players") == players).iter_rows(named=True):
            found.setdefault(r["special"], []).append(
                Condition(
                    b.kind,
                    name,
                    r["points"],
                    r["points_low"],
                    r["points_high"],
                    r["in_play"],
                    "deals",
                    scale="points",
                    spec=_spec(out, b.seats),
                )  # fmt: skip
            )
    return found


def judged(found: dict, expected: list[str] | None = None) -> pl.DataFrame:
    """One row per headline key: ``key, robust, sign, label, detail, conditions`` and
    ``outcome`` (:attr:`analysis.robust.Robustness.outcome`)."""
    expected = list(CONDITIONS) if expected is None else expected
    rows = []
    for key, conds in found.items():
        j = judge(conds, expected)
        rows.append({"key": str(key), "robust": j.robust, "sign": j.sign, "label": j.label,
                     "detail": j.detail, "conditions": len(conds),
                     "outcome": j.outcome})  # fmt: skip
    schema = {"key": pl.String, "robust": pl.Boolean, "sign": pl.Int64, "label": pl.String,
              "detail": pl.String, "conditions": pl.Int64, "outcome": pl.String}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def theta_sets(out, players: int = 4) -> tuple[pl.DataFrame, list[float], list[str]]:
    """The best θ and its not-worse set at ``players`` in every condition with a θ sweep.

    Returns
    -------
    (table, common, missing)
        ``table``: one row per condition (``condition, kind, best_theta, set``, the θ
        values not significantly worse than the best, and ``deals``); ``common``: the θ
        values in every condition's set (empty: no single θ is safe everywhere);
        ``missing``: conditions whose θ sweep the study lacks.
    """
    have = _groups(out)
    best = {name: threshold.best_theta(out, b.theta) if b.theta in have else None
            for name, b in CONDITIONS.items()}  # fmt: skip
    schema = {"condition": pl.String, "kind": pl.String, "best_theta": pl.Float64,
              "set": pl.List(pl.Float64), "deals": pl.Int64}  # fmt: skip
    return common_set(best, players, lambda name, x, members: {
        "condition": name, "kind": CONDITIONS[name].kind, "best_theta": x["best_theta"],
        "set": members, "deals": x["games"]}, schema)  # fmt: skip
