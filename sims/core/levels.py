"""The verdict layer's rule for which skill levels matter, stated once for every layer.

A level whose single seat loses to the main field by more than :data:`WEAK_GAP` pp (the
upper end of its gain's interval below ``-WEAK_GAP``) at every count is weaker than the
players a verdict describes: its results describe how weaker players fare and never veto
a claim about the main field's play. The report's verdicts (:mod:`analysis.skill`) and
``slicelab balance``'s checked fields (:mod:`sims.balance`) both apply it.
"""

from __future__ import annotations

from collections.abc import Iterable

WEAK_GAP = 5.0
"""pp: a level whose one seat loses to the main field by more than this (its interval's
upper end below ``-WEAK_GAP``) is weaker than the players a verdict describes."""


def is_weak(gain_highs: Iterable[float | None]) -> bool:
    """Whether a level is weak at every count: ``gain_highs`` are the upper ends of its
    single seat's gain over the fair share among the main field (pp), one per count
    (``None``: not measured there, which is not weak)."""
    highs = list(gain_highs)
    return bool(highs) and all(h is not None and h < -WEAK_GAP for h in highs)
