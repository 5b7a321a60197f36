"""The seat question every game asks, written once: does the order of play favour a seat?

A game declares its words and the claim it makes (:class:`SeatQuestion`), and passes its
main field's edges (one row per player count and position: ``players``, ``position``,
``edge_pp``, ``edge_low``, ``edge_high``, ``games``, the edge being the win share minus the
fair share, :func:`analysis.seats.first_edge`), the conditions its robustness is judged
in, and the measured effect of a compensation where its study has one.
:func:`seat_verdict` returns the page-1 answer, by the shared rules:

- the claim is the largest edge of its family — the first player's edge at every player
  count (``claim = "first"``), or every position's at every count (``"any"``) — with its
  interval corrected for picking it (:func:`analysis.verdicts.largest_claim`), so page 1
  considers every player count and states the largest imbalance;
- its robustness is :func:`analysis.robust.judge` of the claim's position and count in
  every condition;
- a compensation is recommended for a row of the family only when its corrected interval
  clears 0, its edge is at least :attr:`SeatQuestion.big_edge`, and its own robustness is
  robust (:func:`analysis.verdicts.recommendation`), saying which way, with the measured
  effect of the study's compensation what-if at that count when there is one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl

from analysis.estimates import clear_size, edge_claim
from analysis.formats import ci
from analysis.prose import counts_text, grouped
from analysis.robust import Condition, Robustness, judge
from analysis.sections import Verdict
from analysis.verdicts import adjust_family, largest_claim, recommendation

EDGE_COLUMNS = ("players", "position", "edge_pp", "edge_low", "edge_high", "games")
"""The columns :func:`seat_verdict` reads from a game's edges."""
WHERE = {"above": "ahead", "below": "behind", "covers": "level within the interval",
         "none": "without an interval"}  # fmt: skip
"""The first player's place, by where its interval lies against 0."""


@dataclass(frozen=True)
class SeatQuestion:
    """What a game says about its seat question.

    Attributes
    ----------
    question : str
        Page 1's question: ``"Is the first slicer favoured?"``.
    first : str
        Position 0 in the game's words: ``"the first slicer"``.
    who : str
        Who plays every seat of the main field, in prose: ``"the equilibrium heuristic"``.
    field : str
        The main field's short name (:attr:`analysis.estimates.Estimate.field`).
    checked : str
        The conditions robustness is judged in, in prose: ``"field and plausible deck"``.
    method : str
        How the edges' intervals are made (:attr:`analysis.estimates.Estimate.method`).
    claim : {"first", "any"}
        The claim's family: the first player's edge at every count, or every position's.
    big_edge : float
        The edge (pp) a designer should act on when it is robust.
    remedy : str
        The recommendation's action, which may use ``{favoured}`` (``the first slicer`` or
        ``the other seats``, from the sign).
    """

    question: str
    first: str
    who: str
    field: str
    checked: str
    method: str
    claim: str = "first"
    big_edge: float = 2.0
    remedy: str = "the order of play is worth a compensation rule, in favour of {favoured}"


def first_edges(fairness: pl.DataFrame) -> pl.DataFrame:
    """:data:`EDGE_COLUMNS` of position 0 from a :func:`analysis.seats.seat_fairness`
    table (``first_edge_pp``, ``first_low``, ``first_high``, ``games`` per count)."""
    return fairness.select(
        "players", pl.lit(0).alias("position"), pl.col("first_edge_pp").alias("edge_pp"),
        pl.col("first_low").alias("edge_low"), pl.col("first_high").alias("edge_high"), "games",
    )  # fmt: skip


def _subject(q: SeatQuestion, position: int) -> str:
    return q.first if position == 0 else f"position {position}"


def seat_verdict(
    q: SeatQuestion,
    edges: pl.DataFrame,
    conditions: Callable[[int, int], Sequence[Condition]],
    expected: Callable[[int, int], Sequence[str]],
    *,
    data: str = "",
    whatif: Callable[[int], str] | None = None,
    addendum: Callable[[int, int], str] | None = None,
    section: str = "Seats",
) -> Verdict | None:
    """The seat question's page-1 answer (module docstring).

    Parameters
    ----------
    q : SeatQuestion
        The game's words and claim.
    edges : pl.DataFrame
        The main field's edges, :data:`EDGE_COLUMNS`, and optionally ``field``: the field
        a count's rows come from when it is not the main one (other columns are ignored).
    conditions : callable
        ``conditions(players, position)``: the edge of that position at that count in
        every condition, the main field first.
    expected : callable
        ``expected(players, position)``: the conditions the study was meant to check there.
    data : str
        The components the main field played (:attr:`analysis.estimates.Estimate.data`).
    whatif : callable, optional
        ``whatif(players)``: what the study's compensation what-if measured at that count,
        as a clause with its leading ``"; "`` (or '').
    addendum : callable, optional
        ``addendum(players, position)`` of the claim: sentences the game adds to the
        answer, with their leading space.
    section : str
        The section that shows the evidence.

    Returns
    -------
    Verdict or None
        None without edges.
    """
    found = seat_claim(q, edges, conditions, expected)
    if found is None:
        return None
    claim, robust = found
    n, p = int(claim["players"]), int(claim["position"])
    first = _family(edges, "first")
    family = _family(edges, q.claim)

    def judged(players: int, position: int) -> Robustness:
        return judge(list(conditions(players, position)), list(expected(players, position)))

    robust_at = [int(m) for m in first["players"] if judged(int(m), 0).robust]
    where = grouped(first["players"].to_list(), first["edge_low"].to_list(),
                    first["edge_high"].to_list(), WHERE)  # fmt: skip
    answer = (
        f"With {q.who} in every seat {q.first} is {where} (its win share minus the fair "
        f"share). "
        + (f"The sign holds in every {q.checked} at {counts_text(robust_at)}."
           if robust_at else f"At no player count does the sign hold in every {q.checked}.")
    )  # fmt: skip
    if q.claim == "any":
        by_count = [
            f"{int(m)}p position {int(y['position'])} "
            f"{ci(y['edge_pp'], y['edge_low'], y['edge_high'])}"
            for (m,), sub in family.group_by("players", maintain_order=True)
            for y in [sub.sort(pl.col("edge_pp").abs(), descending=True).row(0, named=True)]
        ]
        answer += f" By player count, the largest edge: {'; '.join(by_count)}."
        answer += (
            f" The largest edge is position {p}'s at {n} players, "
            f"{ci(claim['edge_pp'], claim['adj_low'], claim['adj_high'])} once corrected for "
            f"picking it among the {claim['family']} positions of all counts "
            f"({WHERE[_side(claim)]})."
        )
    if addendum is not None:
        answer += addendum(n, p)
    return Verdict(
        question=q.question,
        answer=answer,
        value=edge_claim(
            claim,
            _subject(q, p),
            field=claim.get("field") or q.field,
            data=data,
            method=q.method,
            note="over the fair share",
        ),  # fmt: skip
        size=clear_size(claim["adj_low"], claim["adj_high"]),
        robustness=robust.label,
        recommendation=_recommendations(q, family, judged, whatif),
        section=section,
        detail=f"{_subject(q, p)[:1].upper()}{_subject(q, p)[1:]}'s edge at {n} players in "
        f"every {q.checked}: {robust.detail}.",
    )


def _family(edges: pl.DataFrame, claim: str) -> pl.DataFrame:
    keep = [*EDGE_COLUMNS, *(["field"] if "field" in edges.columns else [])]
    table = edges.select(keep).sort("players", "position")
    return table.filter(pl.col("position") == 0) if claim == "first" else table


def seat_claim(
    q: SeatQuestion,
    edges: pl.DataFrame | None,
    conditions: Callable[[int, int], Sequence[Condition]],
    expected: Callable[[int, int], Sequence[str]],
) -> tuple[dict, Robustness] | None:
    """The seat question's claim (the largest edge of :attr:`SeatQuestion.claim`'s family,
    a row of :func:`analysis.verdicts.largest_claim`) and its robustness; the parameters
    are :func:`seat_verdict`'s. Other verdicts that lean on the seat claim (the player-count
    question) read its robustness here. None without edges."""
    if edges is None or edges.is_empty():
        return None
    claim = largest_claim(_family(edges, q.claim))
    if claim is None:
        return None
    n, p = int(claim["players"]), int(claim["position"])
    return claim, judge(list(conditions(n, p)), list(expected(n, p)))


def _side(claim: dict) -> str:
    return "above" if claim["sign"] > 0 else "below" if claim["sign"] < 0 else "covers"


def _recommendations(
    q: SeatQuestion,
    family: pl.DataFrame,
    judged: Callable[[int, int], Robustness],
    whatif: Callable[[int], str] | None,
) -> str:
    """One recommendation per player count, for its largest edge that qualifies (module
    docstring), largest count first by size of the edge."""
    adjusted = adjust_family(family).with_columns(pl.col("edge_pp").abs().alias("_size"))
    out: dict[int, str] = {}
    for y in adjusted.sort("_size", descending=True).iter_rows(named=True):
        n, p = int(y["players"]), int(y["position"])
        y["sign"] = 1 if y["adj_low"] > 0 else -1 if y["adj_high"] < 0 else 0
        if n in out or abs(y["edge_pp"]) < q.big_edge or y["sign"] == 0:
            continue
        favoured = "the other seats" if y["sign"] > 0 else _subject(q, p)
        text = recommendation(
            y, judged(n, p), q.remedy.format(favoured=favoured)
            + (whatif(n) if whatif is not None else "") + ".",
            who=f"{_subject(q, p)} at {n} players",
        )  # fmt: skip
        if text:
            out[n] = text
    return " ".join(out.values())
