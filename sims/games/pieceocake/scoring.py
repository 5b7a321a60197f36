"""Final scoring: majorities of collected varieties and the cream of eaten slices."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sims.games.pieceocake.cake import Cake


@dataclass(frozen=True)
class Breakdown:
    """One seat's final score and its parts.

    ``majorities`` is the points of the varieties it scores, ``majorities_won`` how many
    it scores, ``cream`` the cream of its eaten slices; ``score`` their sum.
    ``won_mask`` has bit v set when the seat scores variety v (``majorities_won`` is its
    popcount); it is left out of comparisons, so a breakdown equals one built from the
    three counts alone.
    """

    majorities: int
    majorities_won: int
    cream: int
    won_mask: int = field(default=0, compare=False)

    @property
    def score(self) -> int:
        return self.majorities + self.cream


def score(
    cake: Cake, collected: Sequence[Sequence[int]], cream: Sequence[int], majority_ties: str
) -> list[Breakdown]:
    """Score every seat.

    Parameters
    ----------
    cake : Cake
    collected : per seat, the count of collected slices of each variety
    cream : per seat, the cream on its eaten slices
    majority_ties : {"full", "none", "split"}
        Who scores a variety several seats lead (:class:`~.rules.Rules`): ``full``
        every tied leader, ``none`` only a sole leader, ``split`` every tied leader (its
        value floored over the leaders, so it counts as scored, ``won_mask`` bit and
        ``majorities_won``, even when its share is 0).
    """
    n = len(collected)
    points = [0] * n
    won = [0] * n
    mask = [0] * n
    for v, variety in enumerate(cake.varieties):
        best = max(c[v] for c in collected)
        if best == 0:
            continue
        leaders = [s for s in range(n) if collected[s][v] == best]
        if len(leaders) > 1 and majority_ties == "none":
            continue
        value = variety.value // len(leaders) if majority_ties == "split" else variety.value
        for s in leaders:
            points[s] += value
            won[s] += 1
            mask[s] |= 1 << v
    return [Breakdown(points[s], won[s], int(cream[s]), mask[s]) for s in range(n)]


def win_shares(breakdowns: Sequence[Breakdown], tie: str) -> list[float]:
    """Each seat's share of the win: the best score wins; under ``tie="cream"`` more cream
    breaks a points tie; seats still level share it."""
    keys = [(b.score, b.cream if tie == "cream" else 0) for b in breakdowns]
    top = max(keys)
    k = keys.count(top)
    return [1.0 / k if key == top else 0.0 for key in keys]
