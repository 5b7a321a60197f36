"""Horno's sentences of interpretation, each a function of the numbers it states (the
generic ones are in :mod:`analysis.prose`): where a sentence says a position is ahead, a
dish type is worth having or a variant changes the game, it is built here from the
estimates and their 95% intervals, so it flips when the numbers do
(``tests/games/horno/test_horno_analysis.py`` shows it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from analysis.formats import ci
from analysis.prose import VALUE_WORDS, listing, pct, side
from analysis.stats import SPARSE_UNITS, SignTest

POINTS_WORDS = {
    "above": "more than the average dish",
    "below": "less than the average dish",
    "covers": "not distinguishable from the average dish",
    "none": "without an interval",
}
"""What a type's points per dish taken are, against the average dish's."""
COST_WORDS = {
    "above": "gains",
    "below": "loses",
    "covers": "neither gains nor loses measurably",
    "none": "has no interval",
}
"""What a restricted seat does against the unrestricted one, by its edge's interval."""
RIVAL_WORDS = {
    "above": "more than in the unrestricted game",
    "below": "less than in the unrestricted game",
    "covers": "not measurably different",
    "none": "no interval",
}
"""What a restriction does to the other seats' scores, by its interval."""
CHANGE_WORDS = {
    "above": "raises",
    "below": "lowers",
    "covers": "does not measurably change",
    "none": "has no interval for",
}
"""What a variant does to a measure, by its change's interval."""


def capital(text: str) -> str:
    """``text`` with its first letter in upper case."""
    return text[:1].upper() + text[1:]


def types_text(own: pl.DataFrame, players: int, column: str = "yield", f: str = ".1f") -> str:
    """Each type's ``column`` with its interval at a count, best first: ``Pizza 9.7
    [9.1, 10.3], Burrito 9.1 [...]``."""
    sub = own.filter(pl.col("players") == players).sort(column, descending=True)
    return ", ".join(
        f"{x['type_name']} {ci(x[column], x[f'{column}_low'], x[f'{column}_high'], '', f)}"
        for x in sub.iter_rows(named=True)
    )


def own_sentence(own: pl.DataFrame, players: int) -> str:
    """Own points at a count: points per dish taken by type, and which types yield more or
    less than the average dish taken (their excess's intervals)."""
    sub = own.filter(pl.col("players") == players)
    if sub.is_empty():
        return ""
    groups: dict[str, list[str]] = {"above": [], "below": [], "covers": [], "none": []}
    for x in sub.sort("rank").iter_rows(named=True):
        groups[side(x["excess_low"], x["excess_high"])].append(
            f"{x['type_name']} ({ci(x['excess'], x['excess_low'], x['excess_high'], 'points')})"
        )
    parts = [f"{POINTS_WORDS[k]}: {listing(v)}" for k, v in groups.items() if v]
    games = int(sub["games"][0])
    return (
        f"At {players} players a dish taken yields, in points (its score if completed, else "
        f"its unfinished points): {types_text(own, players)} ({games:,} games). Against the "
        f"average dish taken, the types yield {'; '.join(parts)}."
    )


def value_sentence(
    table: pl.DataFrame, players: int, what: str, unit: str = "deals", points: str = "points"
) -> str:
    """Per type, a value (``value_pp`` with its interval, and the same in ``points``) at a
    count, grouped by what its interval says (:data:`analysis.prose.VALUE_WORDS`)."""
    sub = table.filter(pl.col("players") == players)
    if sub.is_empty():
        return ""
    groups: dict[str, list[str]] = {"above": [], "below": [], "covers": [], "none": []}
    for x in sub.sort("value_pp", descending=True).iter_rows(named=True):
        groups[side(x["value_low"], x["value_high"])].append(
            f"{x['type_name']} {ci(x['value_pp'], x['value_low'], x['value_high'])} "
            f"({ci(x[points], x[f'{points}_low'], x[f'{points}_high'], 'points')})"
        )
    n = int(sub["deals" if unit == "deals" else "games"].min())
    parts = [f"{VALUE_WORDS[k]}: {listing(v)}" for k, v in groups.items() if v]
    return f"{capital(what)} at {players} players (at least {n:,} {unit} each): {'; '.join(parts)}."


def restriction_sentence(x: Mapping, spec: str) -> str:
    """One restricted seat (a row of :func:`analysis.horno.sabotage.restricted_values`):
    what it gains or loses against the unrestricted seat, and whether the restriction
    changed its play."""
    how = COST_WORDS[side(x["edge_low"], x["edge_high"])]
    if x.get("differs") == 0:
        return (
            f"a seat that {x['restriction']} ({spec}) plays every one of its {x['deals']:,} "
            "deals, from every seat, exactly as the unrestricted seat (the same scores in "
            f"every game): the heuristic already does it (it sabotaged "
            f"{x['unrestricted_sabotages']:.2f} times a game)"
        )
    return (
        f"a seat that {x['restriction']} ({spec}) {how}: "
        f"{ci(x['edge_pp'], x['edge_low'], x['edge_high'])} in win share and "
        f"{ci(x['points'], x['points_low'], x['points_high'], 'points')} against the "
        f"unrestricted seat on the same {x['deals']:,} deals"
        + (
            f", while the others at its table score "
            f"{ci(x['rivals'], x['rivals_low'], x['rivals_high'], 'points')} "
            f"({RIVAL_WORDS[side(x['rivals_low'], x['rivals_high'])]})"
            if "rivals" in x
            else ""
        )
        + f"; it sabotaged "
        f"{x['restricted_sabotages']:.2f} times a game and stole {x['restricted_steals']:.2f} "
        f"(the unrestricted seat {x['unrestricted_sabotages']:.2f} and "
        f"{x['unrestricted_steals']:.2f})"
        + (
            f"; {100 * x['differs']:.1f}% of its games end with other scores than the "
            "unrestricted game of the deal"
            if x.get("differs") is not None and 0 < x["differs"] < 0.5
            else ""
        )
    )


def restriction_short(x: Mapping) -> str:
    """A restriction's effect in a few words, for page 1: ``a seat that never steals loses
    (-14.1 pp [...], -4.2 points [...])``, or that it plays as the field does."""
    if x.get("differs") == 0:
        return f"a seat that {x['restriction']} plays exactly as the field does"
    how = COST_WORDS[side(x["edge_low"], x["edge_high"])]
    text = (
        f"a seat that {x['restriction']} {how} "
        f"({ci(x['edge_pp'], x['edge_low'], x['edge_high'])}, "
        f"{ci(x['points'], x['points_low'], x['points_high'], 'points')}"
    )
    if "rivals" in x and side(x["rivals_low"], x["rivals_high"]) in ("above", "below"):
        text += (
            f"; the others at its table score "
            f"{ci(x['rivals'], x['rivals_low'], x['rivals_high'], 'points')}"
        )
    if x.get("differs") is not None and x["differs"] < 0.5:
        text += f"; only {100 * x['differs']:.1f}% of its games end differently"
    return text + ")"


def damage_sentence(d: pl.DataFrame) -> str:
    """Points lost to sabotage per seat and game, and their share, at every count."""
    parts = [
        f"{x['players']} players {ci(x['lost'], x['lost_low'], x['lost_high'], 'points', '.2f')}"
        f" a seat a game, {pct(x['share'], x['share_low'], x['share_high'])} of what its dishes "
        f"would have scored ({x['games']:,} games; {x['sabotages']:.2f} sabotages a seat a game)"
        for x in d.sort("players").iter_rows(named=True)
    ]
    return "Points lost to sabotage: " + "; ".join(parts) + "."


def change_text(x: Mapping, unit: str = "", f: str = "+.2f", scale: float = 1.0) -> str:
    """A variant's change of one measure (a row of
    :func:`analysis.horno.radioactive.variant_changes`) with its interval."""
    return ci(scale * x["change"], scale * x["low"], scale * x["high"], unit, f)


def variant_sentence(changes: pl.DataFrame, variant: str, players: int) -> str:
    """What a variant does at a count: whether any outcome changed, the score, margin and
    dishes it raises or lowers, and the largest change of a position's win share."""
    sub = changes.filter((pl.col("variant") == variant) & (pl.col("players") == players))
    if sub.is_empty():
        return ""
    rows = {x["measure"]: x for x in sub.iter_rows(named=True)}
    d = rows.get("differs")
    deals = int(sub["deals"][0])
    if d is not None and d["change"] == 0:
        return (
            f"With {variant} at {players} players no outcome changes: every one of the "
            f"{deals:,} deals ends with the same scores as the default game."
        )
    carried = d.get("nonzero") if d is not None else None  # an older table: no exact test
    if carried is not None and "score" in rows and 0 < carried < SPARSE_UNITS:
        x = rows["score"]
        exact = SignTest(int(x["deals"]), int(x["nonzero"]), int(x["positive"]),
                         int(x["negative"]), float(x["sign_p"]))  # fmt: skip
        return (
            f"With {variant} at {players} players only {d['nonzero']:,} of the {deals:,} "
            f"deals end with other scores, too few for an interval to carry a claim; the mean "
            f"score per seat: {exact.sentence()}."
        )
    parts = []
    for m, (label, unit) in {
        "score": ("the mean score per seat", "points"),
        "margin": ("the winning margin", "points"),
        "dishes": ("the dishes completed per seat", "dishes"),
        "lost": ("the points lost to sabotage per seat", "points"),
    }.items():
        if m in rows:
            x = rows[m]
            parts.append(
                f"{CHANGE_WORDS[side(x['low'], x['high'])]} {label} ({change_text(x, unit)})"
            )
    pos = [x for m, x in rows.items() if m.startswith("pos")]
    big = max(pos, key=lambda x: abs(x["change"])) if pos else None
    text = f"With {variant} at {players} players ({deals:,} deals" + (
        f"; {pct(d['change'], d['low'], d['high'])} of them end with other scores)"
        if d is not None
        else ")"
    )
    text += f", the game {listing(parts)}"
    if big is not None:
        k = big["measure"].removeprefix("pos")
        clear = side(big["low"], big["high"]) in ("above", "below")
        text += (
            f"; the largest change of a turn position's win share is position {k}'s "
            f"{change_text(big, 'pp', '+.1f', 100)} "
            f"({'clear of 0' if clear else 'not distinguishable from 0'})"
        )
    return text + "."


def judged_text(label: str, detail: str) -> str:
    """``robust (above zero in all 8 conditions)``."""
    return f"{label} ({detail})" if detail else label


def signs_by_kind(conds: Sequence, kinds: Mapping[str, str]) -> str:
    """Per kind of condition (``field``, ``card set``), where the intervals lie: ``the
    fields: above 0 in heuristic and greedy, covers 0 in random``."""
    parts = []
    for kind, noun in kinds.items():
        found = [c for c in conds if c.kind == kind]
        if not found:
            continue
        groups: dict[str, list[str]] = {"above": [], "below": [], "covers": [], "none": []}
        for c in found:
            groups[side(c.low, c.high)].append(c.name.removesuffix(" field"))
        words = {
            "above": "above 0",
            "below": "below 0",
            "covers": "covering 0",
            "none": "without an interval",
        }
        text = "; ".join(f"{words[k]} in {listing(v)}" for k, v in groups.items() if v)
        parts.append(f"across the {noun}: {text}")
    return "; ".join(parts)


STRENGTH_QUESTION = (
    "what a seat loses in win share when it may never take the type, the rest of its play "
    "adapting, on the same deals"
)
"""The question "which dish type is stronger" asks, as restricted play measures it."""


def _claim_text(x: Mapping, est: str, unit: str, f: str = "+.1f") -> str:
    """A selected claim's estimate with its selection-corrected interval."""
    return ci(x[est], x["adj_low"], x["adj_high"], unit, f)


def _own_reason(own: pl.DataFrame, name: str) -> str:
    """Why own points favour type ``name`` (its row of ``own`` at one count): how often its
    dishes are completed and what they score then, against every type's."""
    x = own.filter(pl.col("type_name") == name).row(0, named=True)
    taken, done = int(own["taken"].sum()), int(own["completed"].sum())
    rate = done / taken if taken else float("nan")
    most = x["completion"] >= float(own["completion"].max())
    return (
        f"{name}'s dishes are completed {100 * x['completion']:.0f}% of the time"
        + (" (the most)" if most else "")
        + f" against {100 * rate:.0f}% for every type, and score {x['per_dish']:.1f} points "
        "when completed"
    )


def strength_sentence(
    claims: Mapping[str, Mapping],
    own: pl.DataFrame | None,
    printed: Mapping[str, float],
    plain: int | None,
    players: int,
) -> str:
    """The one sentence that says which of the three dish-type estimands answers "which
    type is stronger" and why the others name another type, from their strongest types.

    Parameters
    ----------
    claims : mapping
        Per estimand (``restricted play``, ``replacement``, ``own points``), its strongest
        type: a row of :func:`analysis.verdicts.adjust_family` (``type_name``, the estimate,
        ``adj_low``/``adj_high`` corrected over the types, ``family``) with ``sign``. The
        estimate is ``value_pp`` for the first two, ``excess`` for own points.
    own : polars.DataFrame or None
        Own points at the count (for why they differ: completion and points per dish).
    printed : mapping
        Per type, the mean printed points of its dishes (for why replacement differs).
    plain : int or None
        What an average dish is worth in the replacement blocks.
    players : int
        The count.
    """
    order = [k for k in ("restricted play", "replacement", "own points") if k in claims]
    if not order:
        return ""
    answer = order[0]
    x = claims[answer]
    est, unit = ("excess", "points") if answer == "own points" else ("value_pp", "pp")
    stand_in = {
        "restricted play": "",
        "replacement": "; the study has no restricted play, so replacement stands in",
        "own points": "; the study has neither restricted play nor replacement, so own "
        "points stand in",
    }[answer]
    m = int(x["family"])
    if x["sign"] > 0:
        head = (
            f"{x['type_name']} is the strongest, {_claim_text(x, est, unit)} (the largest of "
            f"{m} types, its interval corrected for the pick)"
        )
    else:
        head = (
            f"no type is measurably stronger than the others: the largest, "
            f"{x['type_name']}'s {_claim_text(x, est, unit)}, is not clear of 0 once "
            f"corrected for picking it among {m}"
        )
    text = (
        f"Which dish type is stronger at {players} players — {STRENGTH_QUESTION} — is the "
        f"question restricted play answers{stand_in}: {head}"
    )
    for other in order[1:]:
        y = claims[other]
        name = y["type_name"]
        if other == "own points":
            what = f"{_claim_text(y, 'excess', 'points')} per dish taken over the average dish"
            scored = (
                f" ({_own_reason(own, name)})" if own is not None and not own.is_empty() else ""
            )
            why = (
                f"they count what a dish taken scores{scored}, not what the seat gave up to "
                "take it nor that it was taken where the hand suited it"
            )
        else:
            what = f"{_claim_text(y, 'value_pp', 'pp')} of win share to its takers"
            mean = printed.get(name)
            why = (
                "it prices only the type's printed points"
                + (f" against an average dish of {plain} points" if plain is not None else "")
                + (f" ({name}'s dishes print {mean:.1f} on average)" if mean is not None else "")
                + ", and only for the seats that completed one of its dishes"
            )
        if name == x["type_name"] and y["sign"] == x["sign"]:
            text += f"; {other} agree{'s' if other == 'replacement' else ''} ({name}, {what})"
        else:
            clear = "" if y["sign"] else ", not clear of 0 once corrected"
            text += (
                f"; {other} name{'s' if other == 'replacement' else ''} {name} ({what}{clear}) "
                f"because {why}"
            )
    return text + "."
