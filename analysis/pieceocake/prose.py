"""Piece o' Cake's sentences of interpretation, each a function of the numbers it states
(the generic ones are in :mod:`analysis.prose`, ``counts_text`` and ``grouped`` re-exported
here); each flips with its numbers
(``tests/games/pieceocake/test_pieceocake_analysis.py`` shows it)."""

from __future__ import annotations

import math

import polars as pl

from analysis.formats import ci
from analysis.pieceocake.restricted import claim_key, value_text
from analysis.prose import counts_text, grouped, listing  # noqa: F401 (re-exported)
from analysis.sweep_section import set_text

FEW_WORDS = {
    "few_above": "worth having on the few deals it changes (exact sign test)",
    "few_below": "a handicap on the few deals it changes (exact sign test)",
    "few_covers": "not distinguishable from 0 on the few deals it changes (exact sign test)",
}
"""What an option carried by a handful of deals is, by its exact sign test
(:func:`analysis.pieceocake.restricted.claim_key`)."""


def value_grouped(table: pl.DataFrame, words: dict[str, str]) -> str:
    """Player counts grouped by where an option's value stands
    (:func:`analysis.pieceocake.restricted.claim_key`: the t interval, or the exact sign
    test for a value carried by a handful of deals), each group in its ``words``
    (``above``, ``below``, ``covers``, ``unused``, ``none``)."""
    keys = ("above", "below", "covers", "few_above", "few_below", "few_covers", "unused",
            "none")  # fmt: skip
    groups: dict[str, list[int]] = {k: [] for k in keys}
    for r in table.sort("players").iter_rows(named=True):
        groups[claim_key(r)].append(int(r["players"]))
    return "; ".join(f"{words[k]} at {counts_text(v)}" for k, v in groups.items() if v)


def option_sentence(table: pl.DataFrame, option: str) -> str:
    """What an option is worth at each count (:func:`analysis.pieceocake.restricted
    .tested_value`), with its interval, or its exact sign test where only a handful of
    deals differ: ``The option to forgo is worth +1.2 pp [...] at 2 players, ...: worth
    having at 2 players; not distinguishable from 0 at 3 players.``"""
    if table.is_empty():
        return f"The option to {option} was not measured."
    t = table.sort("players")
    listed = "; ".join(f"{r['players']}p {value_text(r)} ({r['deals']:,} deals)"
                       for r in t.iter_rows(named=True))  # fmt: skip
    words = {"above": "worth having", "below": "a handicap (the restricted seat does better)",
             "covers": "not distinguishable from 0", **FEW_WORDS,
             "unused": "never used (identical games on every deal)",
             "none": "without an interval"}  # fmt: skip
    return f"The option to {option} is worth {listed}: {value_grouped(t, words)}."


def identical_note(table: pl.DataFrame, what: str) -> str:
    """Counts where the restricted seat won exactly what the unrestricted one did on every
    deal (no deal differs; a zero-width interval in a table without the sign test): the
    field never used the option there."""
    same = [r["players"] for r in table.iter_rows(named=True)
            if (r["differ"] == 0 if r.get("differ") is not None
                else r["value_low"] == r["value_high"] == 0)]  # fmt: skip
    if not same:
        return ""
    return (f" At {counts_text(same)} the restricted seat's games were identical to the "
            f"unrestricted seat's on every deal: the heuristic never {what} there, so the "
            "option has no measurable value in this field.")  # fmt: skip


def sweep_sentence(best: pl.DataFrame, param: str, symbol: str) -> str:
    """Best value, its not-worse set and held-out edge per count, and what the held-out
    edge says: ``2p best margin 1 (0.5–2), held-out edge +0.4 pp [...]``."""
    parts = []
    gains, none = [], []
    for r in best.sort("players").iter_rows(named=True):
        parts.append(f"{r['players']}p best {symbol} = {r[f'best_{param}']:g} (not worse: "
                     f"{set_text(r, param)}), held-out edge "
                     f"{ci(r['edge_pp'], r['edge_low'], r['edge_high'])} "
                     f"({r['deals']:,} deals)")  # fmt: skip
        (gains if r["edge_low"] > 0 else none).append(r["players"])
    text = "; ".join(parts) + "."
    if gains:
        text += (
            f" Tuning {symbol} gains over the fair share on held-out deals at {counts_text(gains)}"
        )
        text += f"; not measurably at {counts_text(none)}." if none else "."
    elif none:
        text += (f" On held-out deals tuning {symbol} gains nothing measurable over the fair "
                 "share at any count.")  # fmt: skip
    return text


def field_set_sentence(table: pl.DataFrame, common: list[float], missing: list[str],
                       players: int, symbol: str = "θ") -> str:  # fmt: skip
    """Whether one value is not significantly worse in every field's sweep."""
    if table.is_empty():
        return f"No field's {symbol} sweep at {players} players was run."
    sets = "; ".join(f"{r['field']}: best {r['best_theta']:g} (not worse: "
                     f"{', '.join(f'{v:g}' for v in r['set'])})"
                     for r in table.iter_rows(named=True))  # fmt: skip
    text = f"At {players} players, {sets}. "
    if common:
        text += (f"{symbol} = {listing(f'{c:g}' for c in common)} is not significantly worse "
                 "than the best in every field")  # fmt: skip
    else:
        text += f"No {symbol} is in every field's not-worse set"
    return text + (f" (not run: {listing(missing)})." if missing else ".")


def association_sentence(assoc: pl.DataFrame) -> str:
    """Seats that forgo against seats that do not, described as an association."""
    parts = []
    for r in assoc.sort("players").iter_rows(named=True):
        if r["seats_forgoing"] == 0:
            parts.append(f"{r['players']}p no seat forgoes")
        elif r["seats_not"] == 0:
            parts.append(f"{r['players']}p every seat forgoes")
        else:
            warn = f"; {r['warning']}" if r.get("warning") else ""
            parts.append(
                f"{r['players']}p {ci(r['diff_pp'], r['diff_low'], r['diff_high'])} "
                f"({r['seats_forgoing']:,} forgoing seats in {r['games']:,} games{warn})"
            )
    return ("Seats that forgo at least once against seats that never do (win share, pp; an "
            "association, not an effect: the strategy forgoes when its cake went badly, so "
            "the comparison mixes the forgo with the game that led to it): "
            + "; ".join(parts) + ".")  # fmt: skip


def top_variety_sentence(top: pl.DataFrame) -> str:
    """Which variety carries most of the winners' points at each count, and whether its
    interval separates it from the runner-up."""
    if top.is_empty():
        return "No variety shares were computed."
    parts = []
    for r in top.sort("players").iter_rows(named=True):
        text = (
            f"{r['players']}p {r['variety']} "
            f"{ci(100 * r['share'], 100 * r['share_low'], 100 * r['share_high'], '%', '.1f')}"
        )
        if r["runner_up"] is not None:
            how = "ahead of" if r["separated"] else "not separated from"
            text += (f", {how} {r['runner_up']} "
                     f"({100 * r['runner_share']:.1f}%)")  # fmt: skip
        ref = r.get("cake_share")
        if ref is not None and math.isfinite(ref):
            text += f"; {100 * ref:.1f}% of the cake's points"
        parts.append(text)
    names = top["variety"].unique(maintain_order=True).to_list()
    lead = (f"{names[0]} carries the largest share of the winners' points at every player "
            "count" if len(names) == 1 else
            f"The variety carrying the largest share of the winners' points depends on the "
            f"player count ({listing(names)})")  # fmt: skip
    return f"{lead[:1].upper()}{lead[1:]}: " + "; ".join(parts) + "."
