"""Pizza Theory's sentences of interpretation, each a function of the numbers it states (the
generic ones, :func:`~analysis.prose.pct`, :func:`~analysis.prose.field_signs` and
:func:`~analysis.prose.judged` among them, are in :mod:`analysis.prose` and re-exported
here); each flips with its numbers
(``tests/games/pizzatheory/test_pizzatheory_analysis.py`` shows it)."""

from __future__ import annotations

import polars as pl

from analysis.formats import ci
from analysis.prose import (  # noqa: F401 (the shared ones, re-exported)
    EDGE_WORDS,
    VALUE_WORDS,
    field_signs,
    judged,
    listing,
    pct,
    side,
)


def value(
    est: float, lo: float, hi: float, unit: str = "pp", f: str = "+.1f", exact: bool = False
) -> str:
    """An estimate with its interval, or, for a deterministic field (``exact``), the value
    alone marked as one game: ``+66.7 pp (one game)``."""
    if exact:
        return f"{est:{f}} {unit} (one game)".replace("  ", " ")
    return ci(est, lo, hi, unit, f)


def winners_text(table: pl.DataFrame, players: int) -> str:
    """Who wins a deterministic count's one game: ``position 2 wins it`` (or the shared
    outcome), from its position table."""
    sub = table.filter(pl.col("players") == players).sort("position")
    won = [int(p) for p, s in zip(sub["position"], sub["win_share"], strict=True) if s > 0]
    if len(won) == 1:
        return f"position {won[0]} wins it"
    if len(won) == sub.height:
        return "every seat shares it (a draw or a neutral win)"
    return f"positions {listing(won)} share it"


def deterministic_sentence(table: pl.DataFrame, players: int, who: str = "the field") -> str:
    """``At 3 players every one of the 40 games of the heuristic field is the same game
    (...), and position 2 wins it``."""
    sub = table.filter(pl.col("players") == players)
    games = int(sub["games"][0])
    return (
        f"At {players} players every one of the {games:,} games of {who} is the same game "
        f"(the {players}-player game has no chance and these players draw nothing), and "
        f"{winners_text(table, players)}: exact for this field, but one game, not a "
        "sample."
    )


def endings_sentence(endings: pl.DataFrame, lengths: pl.DataFrame) -> str:
    """How often each way of ending happened, over every field and count: the round bound
    and the run-out tiebreak are named even when they never fired."""
    total = int(lengths["games"].sum())
    draws = endings.filter(pl.col("ending") == 2)
    k = int(draws["count"].sum())
    bound = sorted(set(lengths["max_rounds"].to_list()))
    bound_text = listing(f"{b:,}" for b in bound)
    if k == 0:
        text = (
            f"No game reached the round bound ({bound_text} rounds, a draw): 0 of "
            f"{total:,} games in every field and count"
        )
    else:
        where = "; ".join(
            f"{x['field']} {x['players']}p {x['count']:,} of {x['games']:,}"
            for x in draws.filter(pl.col("count") > 0).iter_rows(named=True)
        )
        text = (
            f"{k:,} of {total:,} games reached the round bound ({bound_text} rounds) and "
            f"were drawn ({where})"
        )
    tb = endings.filter(pl.col("ending") == 1)
    on = bool(lengths["tiebreak_rule"].any())
    t = int(tb["count"].sum())
    if not on:
        text += (
            "; the run-out tiebreak is off (a ruling), so no game ends by it"
            if t == 0
            else f"; {t:,} games end by the run-out tiebreak"
        )
    else:
        text += f"; the run-out tiebreak (on) decided {t:,} of {total:,} games"
    return text + "."


def neutral_sentence(endings: pl.DataFrame) -> str:
    """How often the neutral colour fills the board at 2 players, per field (in the
    table's order: the main field first)."""
    nt = endings.filter(pl.col("ending") == 3)
    if nt.is_empty():
        return ""
    parts = [
        f"the {x['field']} "
        + (
            f"{100 * x['share']:.1f}% (one game)"
            if x["deterministic"]
            else f"{pct(x['share'], x['share_low'], x['share_high'])} "
            f"({x['count']:,} of {x['games']:,})"
        )
        for x in nt.iter_rows(named=True)
    ]
    return (
        "At 2 players the neutral colour filled the board first (both players lose, every "
        "seat scored won = 1) in " + "; ".join(parts) + "."
    )


def length_sentence(lengths: pl.DataFrame) -> str:
    """Rounds per game per field and count: mean with its interval, median, 90th
    percentile and maximum (a deterministic field's one game: its rounds)."""
    parts = []
    for x in lengths.iter_rows(named=True):
        if x["deterministic"]:
            parts.append(f"{x['field']} {x['players']}p {x['max']} rounds (one game)")
            continue
        parts.append(
            f"{x['field']} {x['players']}p "
            f"{ci(x['rounds'], x['rounds_low'], x['rounds_high'], '', '.1f')} "
            f"(median {x['median']:g}, 90% ≤ {x['p90']:g}, max {x['max']})"
        )
    return "Rounds per game: " + "; ".join(parts) + "."


def opening_sentence(table: pl.DataFrame) -> str:
    """The blind seat's edge per field: what the first placement is worth."""
    if table is None or table.is_empty():
        return "The first placement was not measured (the study has no blind block)."
    parts = []
    for x in table.iter_rows(named=True):
        words = {
            "above": "a random first placement does better than the field's",
            "below": "the first placement is worth having",
            "covers": "not distinguishable from 0",
            "none": "without an interval",
        }[side(x["edge_low"], x["edge_high"])]
        parts.append(
            f"{x['field']} {x['players']}p: the blind seat "
            f"{ci(x['edge_pp'], x['edge_low'], x['edge_high'])} against the unrestricted seat on "
            f"the same deals ({x['deals']:,} deals; {words}), "
            f"{ci(x['table_pp'], x['table_low'], x['table_high'])} against the others at its "
            f"table, {ci(x['toppings'], x['toppings_low'], x['toppings_high'], 'toppings')} "
            "at the end"
        )
    return "; ".join(parts) + "."


def board_sentence(
    boards: pl.DataFrame, positions: pl.DataFrame, field: str, base: str = "the default board"
) -> str:
    """Per board of a field: its largest position edge, how it compares with the study's
    own board (``base``: a designer's variant names its file) and which positions' win
    shares change (interval clear of 0); for a field whose boards are each one game
    (deterministic), who wins each board's game instead."""
    sub = boards.filter(pl.col("field") == field)
    if sub.is_empty():
        return ""
    first = sub.row(0, named=True)
    if first["deterministic"] and first["base_deterministic"]:
        pos = positions.filter(pl.col("field") == field)
        winners = _winners(pos.filter(pl.col("board") == first["board"]), "base_share")
        parts = [f"on {b} {_winners(pos.filter(pl.col('board') == b), 'win_share')}"
                 for b in sub["board"]]  # fmt: skip
        return (f"In the {field} every board's games are one game each (deterministic): on "
                f"{base} {winners}; {'; '.join(parts)}. A change there is one game "
                "against another, not a measured effect.")  # fmt: skip
    text = (
        f"In the {field} {base}'s largest edge is position "
        f"{first['base_largest_position']}'s "
        f"{ci(first['base_largest_pp'], first['base_largest_low'], first['base_largest_high'])}"
        f" ({first['base_games']:,} games). "
    )
    parts = []
    for x in sub.iter_rows(named=True):
        changed = x["changed_positions"]
        moved = (
            f"position{'s' if len(changed) > 1 else ''} {listing(changed)} "
            f"change{'' if len(changed) > 1 else 's'} (interval corrected over the "
            f"{x['family']} board positions clear of 0)"
            if changed
            else "no position's win share changes measurably (corrected over the "
            f"{x['family']} board positions)"
        )
        parts.append(
            f"{x['board']}: position {x['largest_position']} "
            f"{ci(x['largest_pp'], x['largest_low'], x['largest_high'])}; {moved}"
        )
    return text + "Largest edge per board: " + "; ".join(parts) + "."


def _winners(pos: pl.DataFrame, column: str) -> str:
    """``position 2 wins`` from one board's rows of a deterministic field."""
    won = [int(p) for p, v in zip(pos["position"], pos[column], strict=True) if v > 0]
    if len(won) == 1:
        return f"position {won[0]} wins"
    if won and len(won) == pos.height:
        return "every seat shares the outcome"
    return f"positions {listing(won)} share the win"
