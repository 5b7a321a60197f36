"""Verdicts more than one game states the same way, parameterised by the game's words.

A game's ``analysis/<game>/verdicts.py`` computes most of its page-1 answers itself; the
ones here read only tables the shared layer builds (:func:`analysis.seats.edges` of a
field's position table, :func:`analysis.ratings.rating_gaps`), so a game passes its table
and the few words that differ (``turn order`` or ``starting position``, the ladder's player
count, who its main field is) and gets the :class:`~analysis.sections.Verdict` back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from analysis.pdf import ci
from analysis.prose import chance, counts_text
from analysis.robust import sign
from analysis.sections import Verdict

SIGN_WORDS = {1: "above 0", -1: "below 0", 0: "not distinguishable from 0"}
"""Where a gap's interval lies, by :func:`analysis.robust.sign`."""


def oriented_gap(gaps: pl.DataFrame, players: int, a: str, b: str) -> dict | None:
    """The rating gap of strategy ``a`` over ``b`` at ``players``, whichever way round the
    table stores the pair.

    Parameters
    ----------
    gaps : pl.DataFrame
        :func:`analysis.ratings.rating_gaps`: columns ``players, a, b, gap, low, high,
        win`` (and ``deals``).
    players : int
        The player count.
    a, b : str
        The two strategies, as the ratings name them.

    Returns
    -------
    dict or None
        The pair's row oriented as ``a − b`` (gap and interval negated, ``win`` replaced
        by ``1 − win`` when the table stores ``b − a``); None when the pair is not rated.
    """
    ab = (pl.col("a") == a) & (pl.col("b") == b)
    ba = (pl.col("a") == b) & (pl.col("b") == a)
    g = gaps.filter((pl.col("players") == players) & (ab | ba))
    if g.is_empty():
        return None
    x = g.row(0, named=True)
    if x["a"] != a:
        x = {**x, "gap": -x["gap"], "low": -x["high"], "high": -x["low"], "win": 1 - x["win"]}
    return x


def gap_sentence(x: Mapping, what: str) -> str:
    """`` What: +G Elo [low, high] (where its interval lies; it finishes ahead P of the
    time; N deals).`` for a row of :func:`oriented_gap`, with its leading space."""
    where = SIGN_WORDS[sign(x["low"], x["high"])]
    return (
        f" {what[:1].upper()}{what[1:]}: {ci(x['gap'], x['low'], x['high'], 'Elo', '+.0f')} "
        f"({where}; it finishes ahead {chance(x['win'])} of the time; "
        f"{int(x.get('deals') or 0):,} deals)."
    )


def ratings_verdict(
    gaps: pl.DataFrame | None,
    ratings: pl.DataFrame | None,
    *,
    prefer: int,
    pairs: Sequence[tuple[str, str]],
    names: Mapping[str, str],
    closing: str,
    detail: str,
) -> Verdict | None:
    """How strong are the players behind the numbers? Every rating at one player count,
    then the gap of each named pair of strategies.

    Parameters
    ----------
    gaps : pl.DataFrame or None
        :func:`analysis.ratings.rating_gaps` of the report's ratings.
    ratings : pl.DataFrame or None
        :func:`analysis.ratings.ratings`: columns ``players, strategy, rating``.
    prefer : int
        The player count to state (the ladder's, or the game's main count); the largest
        rated count when it is not rated.
    pairs : sequence of (str, str)
        The pairs ``(a, b)`` to state ``a − b`` for, in order; the first one rated is the
        estimate (the highest against the lowest rated when none is).
    names : mapping of str to str
        A strategy's name in prose (``"the heuristic"``); a strategy not in it is named as
        it is.
    closing : str
        The sentence that ends the answer, with its leading space: what the verdicts rest on.
    detail : str
        The verdict's detail line (which blocks the ratings come from).

    Returns
    -------
    Verdict or None
        None when there are no gaps or no ratings.
    """
    if gaps is None or gaps.is_empty() or ratings is None:
        return None
    counts = sorted(gaps["players"].unique())
    n = prefer if prefer in counts else counts[-1]
    order = ratings.filter(pl.col("players") == n).sort("rating", descending=True)
    listed = ", ".join(
        f"{s} {v:+.0f}" for s, v in zip(order["strategy"], order["rating"], strict=True)
    )
    found = [(x, a, b) for a, b in pairs if (x := oriented_gap(gaps, n, a, b)) is not None]
    answer = f"At {n} players the ratings (Elo, mean 0) are {listed}."
    for x, a, b in found:
        answer += gap_sentence(x, f"{names.get(a, a)} against {names.get(b, b)}")
    answer += closing
    if not found:
        top = gaps.filter((pl.col("players") == n) & pl.col("top_vs_bottom")).row(0, named=True)
        found = [(top, top["a"], top["b"])]
    x, a, b = found[0]
    return Verdict(
        question="How strong are the players behind these numbers?",
        answer=answer,
        estimate=f"{a} − {b} {ci(x['gap'], x['low'], x['high'], 'Elo', '+.0f')} at {n} players",
        n=int(x.get("deals") or 0),
        n_unit="deals",
        robustness="not checked",
        section="Ratings",
        detail=detail,
    )


def count_verdict(
    edges: pl.DataFrame,
    lead: str,
    *,
    big_edge: float,
    matters: str,
    detail: str,
    clear_of: str = "0",
    extra: str = "",
) -> Verdict | None:
    """Is the game as balanced at its fewest players as at its most? The largest position
    edge over the fair share at every count of one field.

    Parameters
    ----------
    edges : pl.DataFrame
        :func:`analysis.seats.edges` of one field's position table: one row a count with
        ``players, games, largest_position, largest_pp, largest_low, largest_high``.
    lead : str
        The answer's opening up to ``is:``: ``With the heuristic in every seat the largest
        turn-position edge over the fair share``.
    big_edge : float
        The edge (pp) a position must reach, interval clear of 0, to matter.
    matters : str
        What matters where a position is off: ``turn order``, ``starting position``.
    detail : str
        The verdict's detail line (which field the edges come from).
    clear_of : str
        How the answer names what the interval is clear of: ``0`` or ``it`` (the fair share).
    extra : str
        Sentences appended to the answer, with their leading space (a measure per count).

    Returns
    -------
    Verdict or None
        None when the field has fewer than two player counts.
    """
    e = edges.sort("players")
    if e.height < 2:
        return None
    rows = {int(x["players"]): x for x in e.iter_rows(named=True)}
    parts = [
        f"{n}p position {x['largest_position']} "
        f"{ci(x['largest_pp'], x['largest_low'], x['largest_high'])} ({x['games']:,} games)"
        for n, x in sorted(rows.items())
    ]
    off = sorted(
        n
        for n, x in rows.items()
        if sign(x["largest_low"], x["largest_high"]) != 0 and abs(x["largest_pp"]) >= big_edge
    )
    worst = max(rows, key=lambda n: abs(rows[n]["largest_pp"]))
    x = rows[worst]
    answer = (
        f"{lead} is: {'; '.join(parts)}. "
        + (
            f"A position is at least {big_edge:g} pp off its fair share (interval clear of "
            f"{clear_of}) at {counts_text(off)}."
            if off
            else f"No position is {big_edge:g} pp or more off its fair share with an "
            f"interval clear of {clear_of}."
        )
        + extra
    )
    rec = (
        f"The {matters} matters at {counts_text(off)}; the seat pages show which position "
        "to compensate."
        if off
        else ""
    )
    return Verdict(
        question=f"Is the game as balanced at {min(rows)} players as at {max(rows)}?",
        answer=answer,
        estimate=f"{worst} players, position {x['largest_position']}: "
        f"{ci(x['largest_pp'], x['largest_low'], x['largest_high'])}",
        n=int(x["games"]),
        n_unit="games",
        robustness="not checked",
        recommendation=rec,
        section="Player count",
        detail=detail,
    )
