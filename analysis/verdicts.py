"""Verdicts more than one game states the same way, parameterised by the game's words.

A game's ``analysis/<game>/verdicts.py`` computes most of its page-1 answers itself; the
ones here read only tables the shared layer builds (:func:`analysis.seats.edges` of a
field's position table, :func:`analysis.ratings.rating_gaps`), so a game passes its table
and the few words that differ (``turn order`` or ``starting position``, the ladder's player
count, who its main field is) and gets the :class:`~analysis.sections.Verdict` back.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
import polars as pl

from analysis.estimates import clear_size, edge, rating_gap
from analysis.formats import ci
from analysis.prose import chance, counts_text, listing
from analysis.robust import Robustness, sign
from analysis.sections import Results, Verdict
from analysis.stats import bonferroni_interval, holm, normal_p


def largest_clear(lows, highs) -> float:
    """The largest :func:`clear_size` of several intervals (every player count)."""
    return max((clear_size(lo, hi) for lo, hi in zip(lows, highs, strict=True)), default=0.0)


class Questions:
    """A game's page-1 questions, in reading order: each ``question(results)`` returns a
    :class:`~analysis.sections.Verdict`, or None where the study's data do not support it.

    Called, it is the game's :attr:`~analysis.sections.GameReport.verdicts`; the report
    (:func:`analysis.report.answered`) also reads :attr:`questions` one by one, to leave
    out those a study without some blocks cannot answer.
    """

    def __init__(self, questions: Sequence[Callable[[Results], Verdict | None]]) -> None:
        self.questions = tuple(questions)

    def __call__(self, r: Results) -> list[Verdict]:
        return [v for f in self.questions if (v := f(r)) is not None]


def main_count(players: Iterable[int], prefer: int) -> int:
    """The player count a single-count verdict states.

    Parameters
    ----------
    players : iterable of int
        The counts the table has (repeats allowed).
    prefer : int
        The game's usual count.

    Returns
    -------
    int
        ``prefer`` when the table has it, else its largest count (a study run at other
        counts still gets the verdict).
    """
    counts = {int(n) for n in players}
    return prefer if prefer in counts else max(counts)


def by_count(table: pl.DataFrame) -> dict[int, dict]:
    """A table with one row a player count, as ``{players: row}``."""
    return {int(x["players"]): x for x in table.iter_rows(named=True)}


def smallest_largest(table: pl.DataFrame, estimate: str = "edge_pp") -> dict:
    """The row of the count whose largest ``|estimate|`` is the smallest of all counts.

    Parameters
    ----------
    table : pl.DataFrame
        One effect a row, several a count (``players`` and ``estimate``).
    estimate : str
        The column compared.

    Returns
    -------
    dict
        That count's largest row.
    """
    return (
        table.with_columns(pl.col(estimate).abs().alias("abs"))
        .sort("abs", descending=True)
        .group_by("players", maintain_order=True)
        .first()
        .sort("abs")
        .row(0, named=True)
    )


def seat_range_opening(seat: pl.DataFrame, claim: Mapping) -> str:
    """The opening of a count verdict over a seat table: ``The largest seat edge (…) is
    smallest at 3 players (+0.4 pp, seat 2) and largest at 5 players``, without an end,
    for the game to say how it corrects the largest.

    Parameters
    ----------
    seat : pl.DataFrame
        ``players, seat, edge_pp``: every seat at every count.
    claim : mapping
        The largest edge of the table (:func:`largest_claim`).

    Returns
    -------
    str
    """
    best = smallest_largest(seat)
    return (
        f"The largest seat edge (a seat's win share minus the fair share) is smallest at "
        f"{best['players']} players ({best['edge_pp']:+.1f} pp, seat {best['seat']}) "
        f"and largest at {claim['players']} players"
    )


def theta_robustness(
    common: Sequence[float], missing: Sequence[str], checked: int, over: str, none: str
) -> tuple[str, str]:
    """The robustness label and detail of a best-θ verdict, from the θ in the not-worse
    set of every condition checked.

    Parameters
    ----------
    common : sequence of float
        The θ in every computed condition's set.
    missing : sequence of str
        The conditions the study did not compute.
    checked : int
        How many conditions were computed.
    over : str
        What the ``checked`` are, after the number: ``conditions``, ``fields at 4 players``.
    none : str
        The detail where no θ is in every set.

    Returns
    -------
    (str, str)
        The label (``robust``, ``not fully checked``, ``not robust: no common θ``) and
        the detail.
    """
    thetas = listing(f"{c:g}" for c in common)
    if common and not missing:
        return "robust", f"θ = {thetas} is in the not-worse set in all {checked} {over}"
    if common:
        return "not fully checked", (
            f"θ = {thetas} is in every computed set, but not checked in {listing(missing)}"
        )
    return "not robust: no common θ", none


def prefixed_gap(gaps: pl.DataFrame, players: int, a: str, b: str) -> dict | None:
    """The rating gap at ``players`` of a strategy named ``a…`` (a tuned variant of it,
    ``heuristic-…``) over ``b``, as the table stores it (``a`` the higher rated), or None.
    """
    g = gaps.filter(
        (pl.col("players") == players) & pl.col("a").str.starts_with(a) & (pl.col("b") == b)
    )
    return None if g.is_empty() else g.row(0, named=True)


SIGN_WORDS = {1: "above 0", -1: "below 0", 0: "not distinguishable from 0"}
"""Where a gap's interval lies, by :func:`analysis.robust.sign`."""


def adjust_family(
    frame: pl.DataFrame,
    estimate: str = "edge_pp",
    low: str = "edge_low",
    high: str = "edge_high",
) -> pl.DataFrame:
    """Every row of ``frame`` is one claim of a family: adjust each for the others.

    This is the one rule for selected claims: a verdict that names the largest of several
    effects, or says that "a position changes", picks from the whole family, so its
    interval and test are corrected over every row it could have picked.

    Parameters
    ----------
    frame : pl.DataFrame
        The family, one effect a row, with 95% intervals.
    estimate, low, high : str
        The columns of the estimate and its interval.

    Returns
    -------
    pl.DataFrame
        ``frame`` with ``adj_low``/``adj_high`` (Bonferroni over the family:
        :func:`analysis.stats.bonferroni_interval`), ``p_holm`` (Holm over the family, of
        the normal p read from each interval) and ``holm_sign`` (+1/−1 where Holm rejects 0
        at 5%, else 0); ``family`` (the rows compared).
    """
    m = frame.height
    est, lo, hi = (frame[c].to_numpy().astype(float) for c in (estimate, low, high))
    adj_low, adj_high = bonferroni_interval(est, lo, hi, m)
    p = normal_p(est, lo, hi)
    p_holm = np.full(m, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        p_holm[ok] = holm(p[ok])
    holm_sign = np.where(np.isfinite(p_holm) & (p_holm < 0.05), np.sign(est), 0).astype(int)
    return frame.with_columns(
        pl.Series("adj_low", adj_low, dtype=pl.Float64),
        pl.Series("adj_high", adj_high, dtype=pl.Float64),
        pl.Series("p_holm", p_holm, dtype=pl.Float64),
        pl.Series("holm_sign", holm_sign, dtype=pl.Int64),
        pl.lit(m, dtype=pl.Int64).alias("family"),
    )


def largest_claim(
    frame: pl.DataFrame,
    estimate: str = "edge_pp",
    low: str = "edge_low",
    high: str = "edge_high",
    by: str = "size",
) -> dict | None:
    """The largest effect of a family, corrected for picking it.

    Parameters
    ----------
    frame : pl.DataFrame
        The family (:func:`adjust_family`).
    estimate, low, high : str
        The columns of the estimate and its interval.
    by : {"size", "highest"}
        Pick the largest ``|estimate|`` (an edge either way) or the highest estimate
        (the strongest component).

    Returns
    -------
    dict or None
        The picked row of :func:`adjust_family` (the first on a tie; a missing estimate is
        never picked while another is there; its ``adj_low``/``adj_high`` cover the picked
        effect whichever row is picked) with ``sign``: +1/−1 where the adjusted interval
        clears 0, else 0. None for an empty family.
    """
    if frame.is_empty():
        return None
    adjusted = adjust_family(frame, estimate, low, high)
    values = adjusted[estimate].to_numpy().astype(float)
    size = np.nan_to_num(np.abs(values) if by == "size" else values, nan=-np.inf)
    order = np.argsort(-size, kind="stable")  # a tie goes to the first row, reproducibly
    row = adjusted.row(int(order[0]), named=True)
    row["sign"] = sign(row["adj_low"], row["adj_high"])
    return row


def recommendation(
    claim: Mapping | None,
    robust: Robustness | None,
    action: str,
    *,
    who: str,
    estimate: str = "edge_pp",
    unit: str = "pp",
    ahead: str = "ahead",
    behind: str = "behind",
) -> str:
    """A recommendation from a selected claim, or '' when the data cannot carry one.

    No recommendation is made when the claim's selection-corrected interval covers 0, or
    when the game's own robustness verdict on the same question is not robust (a page
    does not call a verdict fragile and act on it). Otherwise the sentence states which
    way the effect goes, from its sign.

    Parameters
    ----------
    claim : mapping or None
        A row of :func:`largest_claim` (``sign``, ``adj_low``, ``adj_high``, the estimate).
    robust : Robustness or None
        The robustness verdict of the question (None: not judged).
    action : str
        What to do, for the claim's direction: a format string that may use ``{way}``
        (``ahead``/``behind``) and ``{who}``, e.g. ``"compensate {who} by …"``.
    who : str
        What the claim is about, as prose: ``"position 1 at 3 players"``.
    estimate, unit : str
        The estimate's column and its unit.
    ahead, behind : str
        The words of the two directions.

    Returns
    -------
    str
    """
    if claim is None or claim.get("sign", 0) == 0:
        return ""
    if robust is not None and not robust.robust:
        return ""
    way = ahead if claim["sign"] > 0 else behind
    size = ci(claim[estimate], claim["adj_low"], claim["adj_high"], unit)
    text = action.format(way=way, who=who)
    picked = f" (interval corrected for picking it from {claim['family']})"
    return f"{who[:1].upper()}{who[1:]} is {way} by {size}{picked * (claim['family'] > 1)}: {text}"


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
        value=rating_gap(x, f"{a} − {b}", n),
        robustness="not checked",
        section="Ratings",
        detail=detail,
    )


def strength_verdict(
    gaps: pl.DataFrame | None,
    *,
    prefer: int,
    a: str,
    b: str,
    who: str,
    win: str,
    closing: str,
    subject: str,
    detail: str,
) -> Verdict | None:
    """How strong are the players behind the numbers? The gap of the main field's strategy
    over a simpler one at one count, from a table whose pairs are named as rated.

    Parameters
    ----------
    gaps : pl.DataFrame or None
        :func:`analysis.ratings.rating_gaps` of the report's ratings.
    prefer : int
        The count to state (:func:`main_count`).
    a, b : str
        The strategies (:func:`prefixed_gap`: ``a`` a prefix, its tuned variants too).
    who : str
        ``a`` in prose, opening the answer's subject: ``the heuristic``.
    win : str
        The clause of the head-to-head chance, with ``{}`` for it and its leading space:
        `` (it finishes ahead of greedy {} of the time)``; left out where it is not finite.
    closing : str
        The rest of the answer from ``:``: what the verdicts rest on.
    subject : str
        The estimate's subject: ``heuristic − greedy``.
    detail : str
        The verdict's detail line.

    Returns
    -------
    Verdict or None
        None when the pair is not rated.
    """
    if gaps is None or gaps.is_empty():
        return None
    main = main_count(gaps["players"], prefer)
    x = prefixed_gap(gaps, main, a, b)
    if x is None:
        return None
    p = x.get("win")
    answer = (
        f"At {main} players {who} is rated {ci(x['gap'], x['low'], x['high'], 'Elo', '+.0f')} "
        f"{'above' if x['gap'] > 0 else 'below'} {b}"
        + (win.format(chance(p)) if p is not None and math.isfinite(p) else "")
        + closing
    )
    return Verdict(
        question="How strong are the players behind these numbers?",
        answer=answer,
        value=rating_gap(x, subject, main),
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
    positions: pl.DataFrame | None = None,
    robust: Robustness | None = None,
    action: str = "compensate it (the seat pages show by how much)",
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
    positions : pl.DataFrame, optional
        The field's full position table (``players, position, edge_pp, edge_low,
        edge_high``): the family the largest edges are picked from. Given, a count is "off"
        only when its largest edge's interval, corrected over every position at every count
        (:func:`adjust_family`), clears 0, and the recommendation names the largest edge
        of all with its corrected interval and direction (:func:`recommendation`).
        Without it the intervals are the uncorrected ones and no recommendation is made.
    robust : Robustness, optional
        The robustness of the largest edge (the game's seat verdict's, where it judges the
        same claim): the verdict's robustness tag, and no recommendation when it is not
        robust (without it the tag is "not checked").
    action : str
        The recommendation's action (:func:`recommendation`'s ``action``).

    Returns
    -------
    Verdict or None
        None when the field has fewer than two player counts.
    """
    e = edges.sort("players")
    if e.height < 2:
        return None
    rows = {int(x["players"]): x for x in e.iter_rows(named=True)}
    claim, corrected = None, ""
    if positions is not None and not positions.is_empty():
        family = adjust_family(positions.filter(pl.col("players").is_in(list(rows))))
        for n in rows:
            at = (pl.col("players") == n) & (pl.col("position") == rows[n]["largest_position"])
            mine = family.filter(at).row(0, named=True)
            rows[n] = {**rows[n], "largest_low": mine["adj_low"], "largest_high": mine["adj_high"]}
        claim = largest_claim(positions.filter(pl.col("players").is_in(list(rows))))
        corrected = (
            f" (intervals corrected for picking the largest of the {family.height} "
            "positions of all counts)"
        )
    off = sorted(
        n
        for n, x in rows.items()
        if sign(x["largest_low"], x["largest_high"]) != 0 and abs(x["largest_pp"]) >= big_edge
    )
    worst = max(rows, key=lambda n: abs(rows[n]["largest_pp"]))
    x = rows[worst]
    parts = [
        f"{n}p position {y['largest_position']} "
        f"{ci(y['largest_pp'], y['largest_low'], y['largest_high'])} ({y['games']:,} games)"
        for n, y in sorted(rows.items())
    ]
    answer = (
        f"{lead} is{corrected}: {'; '.join(parts)}. "
        + (
            f"A position is at least {big_edge:g} pp off its fair share (interval clear of "
            f"{clear_of}) at {counts_text(off)}."
            if off
            else f"No position is {big_edge:g} pp or more off its fair share with an "
            f"interval clear of {clear_of}."
        )
        + extra
    )
    rec = ""
    if claim is not None and abs(claim["edge_pp"]) >= big_edge:
        who = f"position {claim['position']} at {claim['players']} players"
        rec = recommendation(claim, robust, f"the {matters} matters there; {action}.", who=who)
    if claim is not None and robust is not None and not robust.robust and claim["sign"]:
        answer += (
            f" Across the fields and conditions checked this edge is not robust "
            f"({robust.label.removeprefix('not robust: ')}), so no compensation is "
            "recommended from it."
        )
    return Verdict(
        question=f"Is the game as balanced at {min(rows)} players as at {max(rows)}?",
        answer=answer,
        value=edge(
            x["largest_pp"],
            x["largest_low"],
            x["largest_high"],
            x["games"],
            f"position {x['largest_position']}",
            worst,
            family=int(family.height) if claim is not None else 1,
        ),  # fmt: skip
        robustness=robust.label if robust is not None else "not checked",
        recommendation=rec,
        section="Player count",
        detail=detail,
    )
