"""Sentences of interpretation, each a function of the numbers it states.

A report never writes a conclusion as fixed text: where a sentence says that a seat is
favoured, that two estimates agree or that an effect is there at all, it is built here
from the estimates and their 95% intervals, so it flips when the numbers do (an interval
that covers the reference says so). Each helper has a unit test showing the flip
(``tests/test_report.py``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from analysis.formats import ci
from analysis.robust import Condition, judge

if TYPE_CHECKING:  # analysis.sections builds its sentences from this module
    from analysis.sections import Results

EDGE_WORDS = {
    "above": "ahead",
    "below": "behind",
    "covers": "level within the interval",
    "none": "without an interval",
}
"""Where a seat or position stands, by where its edge's interval lies against 0."""
VALUE_WORDS = {
    "above": "worth having",
    "below": "a handicap",
    "covers": "not distinguishable from 0",
    "none": "without an interval",
}
"""What an option is, by where its value's interval lies against 0."""


def listing(items: Iterable[object]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [str(x) for x in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def chance(p: float) -> str:
    """A probability as a whole percentage, never rounded to certainty: ``more than 99%``,
    ``less than 1%``, else ``87%``."""
    if p > 0.995:
        return "more than 99%"
    if p < 0.005:
        return "less than 1%"
    return f"{100 * p:.0f}%"


def side(low: float, high: float, reference: float = 0.0) -> str:
    """Where an interval lies against a reference: ``above``, ``below`` or ``covers``
    (``none`` when there is no interval)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return "none"
    if low > reference:
        return "above"
    if high < reference:
        return "below"
    return "covers"


def effect(
    est: float,
    low: float,
    high: float,
    unit: str = "pp",
    fmt: str = "+.1f",
    reference: float = 0.0,
) -> str:
    """An effect with its interval, and a warning when the interval covers the reference:
    ``+2.0 pp [+0.5, +3.5]`` or ``+0.4 pp [-1.0, +1.8] (the interval covers 0)``."""
    text = ci(est, low, high, unit, fmt)
    where = side(low, high, reference)
    if where == "covers":
        return text + f" (the interval covers {reference:g})"
    if where == "none":
        return text + " (no interval)"
    return text


def section_number(r: Results, label: str) -> int | None:
    """The number (from 1) of the report's section labelled ``label``, or None where the
    report has no such section (a study without its blocks)."""
    found = [i for i, s in enumerate(r.report.sections, 1) if s.label == label]
    return found[0] if found else None


def see_section(r: Results, label: str) -> str:
    """`` (section 3)``, the reference to the section labelled ``label``, with its leading
    space; '' where the report has no such section."""
    n = section_number(r, label)
    return f" (section {n})" if n else ""


def counts_text(ns: Sequence[int]) -> str:
    """``2, 3 and 5 players``."""
    return listing(str(n) for n in ns) + (" player" if list(ns) == [1] else " players")


def margin_sentence(players: Sequence[int], margins: Sequence[float]) -> str:
    """`` The winning margin runs from 3.2 points at 2 players to 1.9 at 6.``, with its
    leading space, from the fewest players to the most (``players`` sorted)."""
    return (
        f" The winning margin runs from {margins[0]:.1f} points at "
        f"{players[0]} players to {margins[-1]:.1f} at {players[-1]}."
    )


def grouped(players: Sequence[int], low: Sequence[float], high: Sequence[float],
            words: dict[str, str]) -> str:  # fmt: skip
    """Player counts grouped by where their intervals lie against 0, each group in its
    words (``above``, ``below``, ``covers``, ``none``): ``worth having at 2 players; not
    distinguishable from 0 at 3, 4 and 5 players``."""
    groups: dict[str, list[int]] = {"above": [], "below": [], "covers": [], "none": []}
    for n, lo, hi in zip(players, low, high, strict=True):
        groups[side(lo, hi)].append(int(n))
    return "; ".join(f"{words[k]} at {counts_text(v)}" for k, v in groups.items() if v)


def fairness_sentence(players: Sequence[int], p_values: Sequence[float], alpha=0.05) -> str:
    """Which player counts reject equal win shares for every seat (χ² test)."""
    unfair = [int(n) for n, p in zip(players, p_values, strict=True) if p < alpha]
    if not unfair:
        return "No player count rejects equal shares (χ² test)."
    return f"Equal shares are rejected at {listing(unfair)} players (χ² test)."


def by_side(
    players: Sequence[int],
    low: Sequence[float],
    high: Sequence[float],
    words: tuple[str, str] = ("ahead", "behind"),
) -> str:
    """Player counts grouped by where their intervals lie against 0: ``ahead at 2 and 4
    players; behind at 3 players; not distinguishable from 0 at 5 and 6 players`` (the
    interval covers 0)."""
    groups: dict[str, list[int]] = {"above": [], "below": [], "covers": [], "none": []}
    for n, lo, hi in zip(players, low, high, strict=True):
        groups[side(lo, hi)].append(int(n))
    what = {"above": words[0], "below": words[1], "covers": "not distinguishable from 0",
            "none": "without an interval"}  # fmt: skip
    return "; ".join(f"{what[k]} at {listing(v)} players" for k, v in groups.items() if v)


def first_seat_sentence(
    players: Sequence[int],
    est: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    who: str = "The first seat (seat 0)",
) -> str:
    """The first seat's edge over the fair share at each count
    (:func:`analysis.seats.first_edge`), and what its intervals say: ahead, behind, or
    not distinguishable from 0."""
    listed = "; ".join(
        f"{n}p {ci(e, lo, hi)}" for n, e, lo, hi in zip(players, est, low, high, strict=True)
    )
    return f"{who} against the fair share: {listed}. It is {by_side(players, low, high)}."


def sign_labels(rows: Sequence[Sequence[float]]) -> list[str]:
    """Per row of estimates (one per field): ``same sign`` when every non-missing estimate
    has the sign of the first, else ``sign differs``."""
    out = []
    for values in rows:
        signs = {np.sign(v) for v in values if v is not None and math.isfinite(v)}
        out.append("same sign" if len(signs) <= 1 else "sign differs")
    return out


def agreement_sentence(
    fields: Sequence[str],
    est: Sequence[Sequence[float]],
    low: Sequence[Sequence[float]],
    high: Sequence[Sequence[float]],
    what: str = "the first seat's edge",
) -> str:
    """Whether several fields (the same question with other players) agree on the sign of
    an estimate, per player count (rows of ``est``, one value per field), and at how
    many counts every field's interval excludes 0 on that same side."""
    labels = sign_labels(est)
    agree = sum(1 for x in labels if x == "same sign")
    settled = 0
    for lows, highs, lab in zip(low, high, labels, strict=True):
        sides = {side(lo, hi) for lo, hi in zip(lows, highs, strict=True)}
        settled += lab == "same sign" and len(sides) == 1 and sides <= {"above", "below"}
    k = len(labels)
    text = (
        f"The {len(fields)} fields ({listing(fields)}) agree on the sign of {what} at {agree} "
        f"of {k} player counts"
    )
    if agree == 0:
        return text + "."
    if settled == 0:
        return text + ", but at none of them do all their intervals exclude 0."
    return text + f"; at {settled} of them every field's interval excludes 0 on that side."


def pct(x: float, lo: float, hi: float, f: str = ".1f") -> str:
    """A share (fraction) as a percentage with its interval: ``42.0 % [38.1, 46.0]``."""
    return ci(100 * x, 100 * lo, 100 * hi, "%", f)


def field_signs(conds: Sequence[Condition], suffix: str = " field", noun: str = "field") -> str:
    """Which conditions' intervals lie above 0, below 0 or cover it: ``above 0 in the greedy
    field, below 0 in the heuristic and mixed fields and not distinguishable from 0 in the
    random field`` (each condition's name without ``suffix``, grouped under ``noun``)."""
    groups: dict[str, list[str]] = {"above": [], "below": [], "covers": [], "none": []}
    for c in conds:
        groups[side(c.low, c.high)].append(c.name.removesuffix(suffix))
    words = {
        "above": "above 0 in",
        "below": "below 0 in",
        "covers": "not distinguishable from 0 in",
        "none": "without an interval in",
    }
    parts = [
        f"{words[k]} the {listing(v)} {noun}{'s' if len(v) > 1 else ''}"
        for k, v in groups.items()
        if v
    ]
    return listing(parts)


def judged(
    conds: Sequence[Condition],
    expected: Sequence[str],
    deterministic: Sequence[str] = (),
    bound: float | None = None,
) -> tuple:
    """:func:`analysis.robust.judge` of the conditions, with the deterministic fields named.

    Parameters
    ----------
    conds : sequence of Condition
        The headline under each condition (main first).
    expected : sequence of str
        The conditions the study was meant to check.
    deterministic : sequence of str
        Fields that are one game here (pass no condition of theirs, nor expect one): named
        in the detail, counted neither for nor against.
    bound : float, optional
        The equivalence bound (:func:`analysis.robust.judge`'s ``bound``).

    Returns
    -------
    tuple
        ``(label, detail, robust, sign)`` of the :class:`~analysis.robust.Robustness`.
    """
    j = judge(conds, expected, bound)
    detail = j.detail
    if deterministic:
        detail += (
            f"; the {listing(d.removesuffix(' field') for d in deterministic)} "
            f"field{'s are' if len(deterministic) > 1 else ' is'} one game here "
            "(deterministic), counted neither for nor against"
        )
    return j.label, detail, j.robust, j.sign


def preset_status(package: str) -> str:
    """What plain ``heuristic`` plays, from a game package's shipped presets file
    (``<package>/data/presets.toml``, e.g. ``sims.games.pizzatheory``, when the checkout
    has one): its default parameters (no preset ``heuristic-eqN``), or the presets, said
    to be placeholders or self-play equilibria when their notes say so."""
    import tomllib
    from importlib.resources import files

    try:
        text = files(package).joinpath("data/presets.toml").read_text()
        data = tomllib.loads(text)
    except (OSError, ModuleNotFoundError, tomllib.TOMLDecodeError):
        data = {}
    eq = {k: v for k, v in data.items() if isinstance(v, dict) and k.startswith("heuristic-eq")}
    if not eq:
        return (
            "Plain 'heuristic' plays the family's default parameters (no shipped preset "
            "heuristic-eqN): they are not tuned, so read it as a reasonable player, not as "
            "equilibrium play."
        )
    names = ", ".join(sorted(eq))
    notes = [str(v.get("note", "")).lower() for v in eq.values()]
    if any(n.startswith("placeholder") for n in notes):
        how = "placeholders, not yet tuned: read it as a reasonable player"
    elif all("equilibrium" in n for n in notes):
        how = "self-play equilibria of the family (each preset's note gives how it was found)"
    else:
        how = "see each preset's note for how it was found"
    return f"Plain 'heuristic' plays the shipped presets {names} at their counts: {how}."


def edge_sentence(e: Mapping, first: str = "the first player", field: str = "") -> str:
    """One count's first and last turn positions' edges over the fair share (a row of
    :func:`analysis.seats.edges`), and the largest when it is neither: ``at 3 players the
    first player (position 0) is ahead: +2.0 pp [+1.0, +3.0] over the fair share, the last
    (position 2) behind: -1.5 pp [...] (4,000 games)``; ``first`` names position 0 in the
    game's words, ``field`` who played (none: the main field)."""
    where = EDGE_WORDS[side(e["first_low"], e["first_high"])]
    what = f" in the {field}" if field else ""
    largest = (
        ""
        if e["largest_position"] in (0, e["last_position"])
        else f"; the largest edge is position {e['largest_position']}'s "
        f"{ci(e['largest_pp'], e['largest_low'], e['largest_high'])}"
    )
    return (
        f"at {e['players']} players{what} {first} (position 0) is {where}: "
        f"{ci(e['first_pp'], e['first_low'], e['first_high'])} over the fair share, the last "
        f"(position {e['last_position']}) {EDGE_WORDS[side(e['last_low'], e['last_high'])]}: "
        f"{ci(e['last_pp'], e['last_low'], e['last_high'])}{largest} ({e['games']:,} games)"
    )
