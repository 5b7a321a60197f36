"""Piece o' Cake's balance report: the study blocks it reads, its verdicts, its sections
(:data:`REPORT`, found by :func:`analysis.report.game_report`).

1. Seats: is the first server favoured, in the heuristic and the greedy field (``seats``,
   ``seats-greedy``);
2. Eat or collect: the θ sweep (``theta``; ``theta-greedy`` at 4 players);
3. Forgoing: how often players forgo as played (``decisions``), what the option is worth
   (``noforgo`` paired with ``seats``; ``noforgo-greedy`` with ``heur-greedy``; at 2
   players under the other reading of the second turn, ``noforgo-2p-pass`` with
   ``seats-2p-pass``) and the forgo margin swept (``margin``);
4. Cutting fewer: the same for cutting fewer pieces than the most allowed (``nofewer``,
   ``nofewer-greedy``, ``fewer``);
5. Varieties: each variety's share of the winners' points (``seats``);
6. Player count, 7. Ratings (``ladder``): the generic sections;
8. New York Slice: exact-N cutting (``seats-exact``) against the printed rule, and New York
   Slice's seat edges beside them (the report option ``nyslice``);
9. Sample size: the generic section.

Every sentence of interpretation is computed from the numbers it states
(:mod:`analysis.prose`, :mod:`analysis.pieceocake.prose`).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.content import TEXT_WIDTH, Block, Heading, PageBreak, Plot, Prose, Table, figure
from analysis.estimates import Estimate, edge
from analysis.formats import EMPTY, ci, ci_col, fmt
from analysis.load import manifest as read_manifest
from analysis.pieceocake import compare, cuts, forgo, prose, robustness, sweeps, varieties, verdicts
from analysis.pieceocake.common import (
    block_specs,
    cake_for,
    candidate_spec,
    describe,
    field_spec,  # fmt: skip
    has_block,
    preset_status,
    rules_for,
)
from analysis.pieceocake.restricted import value_text
from analysis.prose import listing, see_section
from analysis.robust import Condition, conditions_table, judge
from analysis.robust import plot_conditions as generic_plot_conditions
from analysis.sections import (
    GameReport,
    Results,
    Row,
    Section,
    appendix_label,
    headline,
    paired_cells,
    player_count_section,
    ratings_section,
    rules_row,
    sample_size_section,
    seat_blocks,
    seat_cells,
    seats_section,  # fmt: skip
)
from analysis.skill import Level, SkillLevels
from analysis.sweep_section import (
    best_cells,
    best_headlines,
    best_table,
    grid_notes,
    held_out_edge,
    sets_table,
)
from analysis.whatif import (
    block_rules,
    change_at,
    change_frame,
    change_headlines,
    change_sentence,
    plot_changes,
)
from sims.games.pieceocake.cake import ROUNDS

BLOCKS = (
    "seats", "seats-greedy", "seats-exact", "theta", "noforgo", "margin", "nofewer", "fewer",
    "heur-greedy", "noforgo-greedy", "nofewer-greedy", "theta-greedy", "decisions", "ladder",
    "ladder-search", "skill-vs-random", "skill-vs-greedy", "skill-vs-heuristic", "skill-search",
)  # fmt: skip
"""Study blocks the report needs (see studies/pieceocake-balance.toml)."""
MAIN_PLAYERS = verdicts.MAIN
FIELD = "heuristic"
"""Who plays the main field (:attr:`analysis.estimates.Estimate.field`)."""
SEAT_LABEL = "seat (0 = serves the first cake)"
FIELD_STYLE = {"heuristic field": ("black", "o"), "greedy field": ("tab:purple", "s")}


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _field(r: Results, group: str = "seats") -> str:
    specs = block_specs(r.manifest, group)
    return f"Every seat plays {listing(describe(s) for s in specs) or 'nobody'}"


def _servings(n: int, first: int = 0) -> str:
    """How many cakes each seat serves at ``n`` players: ``2 players: seat 0 serves 3, seat 1
    serves 2``."""
    counts = np.bincount([(first + k) % n for k in range(ROUNDS)], minlength=n)
    groups: dict[int, list[int]] = {}
    for seat, c in enumerate(counts):
        groups.setdefault(int(c), []).append(seat)
    parts = [f"seat{'s' if len(s) > 1 else ''} {listing(s)} serve{'' if len(s) > 1 else 's'} "
             f"{c}" for c, s in sorted(groups.items(), reverse=True)]  # fmt: skip
    return f"{n} players: {', '.join(parts)}"


def plot_conditions(found: dict[int, list[Condition]], ax, label: str) -> None:
    """One row per player count, one marker with its 95% interval per field
    (:func:`analysis.robust.plot_conditions` with Piece o' Cake's fields)."""
    generic_plot_conditions(found, ax, label, list(robustness.FIELDS), FIELD_STYLE)


def _judged_lines(found: dict[int, list[Condition]]) -> list[str]:
    lines = []
    for n in sorted(found):
        j = judge(found[n], list(robustness.FIELDS))
        lines.append(f"{n} players: {j.label} ({j.detail})")
    return lines


def _section(blocks: list[Block]) -> list[Block]:
    """A section's parts (each under a level-2 heading) with the first heading raised to
    level 1: a section opens with whichever part its data has."""
    for k, b in enumerate(blocks):
        if isinstance(b, Heading):
            blocks[k] = dataclasses.replace(b, level=1)
            break
    return blocks


# ----------------------------------------------------------------------------- notes


def _provenance(m: dict) -> list[tuple[str, str]]:
    cakes = sorted({f"{f.get('cake', '?')} (digest {f.get('cake_digest', '?')})"
                    for f in m["fingerprints"].values()})  # fmt: skip
    return [rules_row(m, "docs/rules/pieceocake.md"), ("Cake", "; ".join(cakes) or "?"),
            ("Strategies", "docs/strategies/pieceocake.md")]  # fmt: skip


def _notes(r: Results) -> list[str]:
    m = r.manifest
    status = preset_status()
    players = (
        f"Players. Unless a section says otherwise every seat plays "
        f"'{field_spec(m, 'seats') or '?'}': the heuristic valuation of "
        "docs/strategies/pieceocake.md with its shipped preset for the player count "
        "(heuristic-eqN). "
        + (status + " " if status else "")
        + "'seats-greedy' repeats the seat question with "
        f"{listing(block_specs(m, 'seats-greedy'))} in every seat (the myopic valuation), and the "
        "4-player blocks heur-greedy, "
        "noforgo-greedy, nofewer-greedy and theta-greedy repeat the option values and the θ "
        "sweep with one heuristic seat among greedy players: the greedy field. A conclusion "
        "about weak players is weak: where the fields disagree, trust neither blindly."
    )  # fmt: skip
    readings = (
        "Rulings. The 2-player ruling that a player who took a piece and finds none left at "
        "its later turn forgoes (and may eat a collected variety) is one reading of the "
        "rulebook's 'alternate turns' (docs/rules/pieceocake.md, forced_forgo_after_take). "
        "The blocks seats-2p-pass, noforgo-2p-pass and nofewer-2p-pass play the other "
        f"reading ({robustness.OTHER_RULE}: the turn passes) at 2 players, so the forgo and "
        "cut-fewer values there are shown under both."
    )
    pairing = (
        "Pairing. Every block shares the study's seed, so game i of every block is dealt the "
        "same cake: the restricted seats (noforgo, nofewer) and the sweeps are compared on "
        "the same deals, every seat in turn (rotated blocks), and seats-exact is compared "
        "with seats game by game. The 'decisions' block (its own seed) records every "
        "decision of fresh heuristic games: the observational numbers (how often players "
        "forgo and cut fewer pieces) come from it."
    )
    if not any(has_block(m, b) for b in robustness.OTHER_READING.values()):
        readings = ""
    return [players, pairing] + ([readings] if readings else [])


# ----------------------------------------------------------------------------- 1 seats

_GENERIC_SEATS = seats_section("seats")


def _seats_compute(r: Results) -> dict[str, Any]:
    out = _GENERIC_SEATS.compute(r)
    out["first_conditions"] = robustness.first_server(r.out, r.manifest)
    return out


def _seats_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    out = _GENERIC_SEATS.headlines(r, q, rows) if _GENERIC_SEATS.headlines else []
    found = r.tables.get("first_conditions", {})
    for f in r.fairness.iter_rows(named=True):
        conds = found.get(f["players"])
        if not conds:
            continue
        j = judge(conds, list(robustness.FIELDS))
        out.append(headline(q, f"{f['players']} players: first server's edge across "
                            f"{len(conds)} fields: {j.label}",
                            edge(f["first_edge_pp"], f["first_low"], f["first_high"],
                                 f["games"], "the first server", f["players"], field=FIELD),
                            warn="" if j.robust else j.detail))  # fmt: skip
    return out


def _seats_blocks(r: Results, num: int) -> list[Block]:
    if "fairness" not in r.tables:
        return []
    counts = sorted(r.fairness["players"].unique())
    first = {a["players"]: rules_for(a).first_server for a in r.manifest["study"]["arms"]
             if a.get("group", a["name"]) == r.seat_block}  # fmt: skip
    out: list[Block] = [
        Heading(f"{num}  Is the first server favoured?"),
        *seat_blocks(_field(r), r.seat, r.fairness, who="The first server (seat 0)",
                     seat_label=SEAT_LABEL),
        Prose("Five cakes are served whatever the count, the server passing to the left, "
              "so the first server serves most often at some counts: "
              + "; ".join(_servings(n, first.get(n, 0)) for n in counts)
              + ". Seat 0's edge therefore mixes serving first with serving more often.",
              size=8.5),
    ]  # fmt: skip
    found = r.first_conditions
    if not found:
        return out
    greedy = listing(block_specs(r.manifest, "seats-greedy")) or "greedy"
    fig = figure(6.2, 4.2)
    plot_conditions(found, fig.add_subplot(), "first server's edge, pp (95% CI)")
    # the part's text and chart do not fit under the seat table: a page of their own
    return out + [
        PageBreak(),
        Heading(f"{num}  Does the first server's edge hold with other players?", level=2),
        Prose("The first server's edge (seat 0's win share minus the fair share, pp, "
              "95% t interval over games) with the heuristic in every seat and with "
              f"{greedy} in every seat (seats-greedy). A verdict is robust only when every "
              "field's interval excludes 0 with the same sign. "
              + "; ".join(_judged_lines(found)) + ".", size=8.5),
        Plot.natural(fig),
    ]  # fmt: skip


def _seats_appendix(r: Results, label: str) -> list[Block]:
    if not r.tables.get("first_conditions"):
        return []
    t = conditions_table({f"{n} players": c for n, c in sorted(r.first_conditions.items())})
    shown = ci_col(t, "estimate", "low", "high", "first server's edge [95% CI]")
    shown = fmt(shown.select("headline", "condition", "first server's edge [95% CI]", "n",
                             "unit"), {})  # fmt: skip
    return [Heading(f"{label} — The first server's edge in every field"),
            Table.of(shown, size=7.5)]  # fmt: skip


SEATS = Section("Seats", _seats_compute, headlines=_seats_headlines,
                cells=lambda r: seat_cells(r.seat) if "seat" in r.tables else [],
                blocks=_seats_blocks, appendix_blocks=_seats_appendix)  # fmt: skip
"""1: is the first server favoured?"""


# ----------------------------------------------------------------------------- 2 theta


def _sweep_tables(r: Results, group: str, param: str) -> dict[str, Any]:
    s = sweeps.sweep(r.out, r.manifest, group, param)
    if s is None:
        return {}
    return {f"{param}_curve": s["curve"], f"best_{param}": s["best"]}


def _field_value_text(r: Results, group: str, param: str) -> str:
    best = r.tables.get(f"best_{param}")
    if best is None:
        return ""
    vals = {v for v in best[f"field_{param}"].to_list() if v is not None}
    spec = field_spec(r.manifest, group) or "?"
    if len(vals) == 1:
        return f"The field ({describe(spec)}) plays {param} = {vals.pop():g} at every count."
    return ""


def _grid_notes(best: pl.DataFrame, param: str | None = None) -> str:
    """The grid notes of :func:`analysis.sweep.best_value`, counts with the same note
    together (:func:`analysis.sweep_section.grid_notes`); with ``param``, how each count's
    best compares with the field's own value
    (:func:`analysis.pieceocake.sweeps.field_sentence`: the grid must hold it)."""
    notes = grid_notes(best)
    if not notes:
        text = " At every count the best value and its not-worse set lie inside the tested grid."
    else:
        text = " Grid: " + "; ".join(f"at {prose.counts_text(ns)} {note}"
                                     for note, ns in notes.items()) + "."  # fmt: skip
    if param is not None and f"field_{param}" in best.columns:
        own = [f"{b['players']}p: {sweeps.field_sentence(b, param)}"
               for b in best.sort("players").iter_rows(named=True)
               if sweeps.field_sentence(b, param)]  # fmt: skip
        if own:
            text += " Against the field's own value: " + " ".join(own)
    return text


def _theta_compute(r: Results) -> dict[str, Any]:
    out = _sweep_tables(r, "theta", "theta")
    out["theta_sets"] = robustness.theta_sets(r.out, r.manifest, MAIN_PLAYERS)
    return out


def _sweep_headlines(r: Results, q: str, param: str, symbol: str) -> list[Row]:
    return best_headlines(r.tables.get(f"best_{param}"), q, param, symbol,
                          lambda x: held_out_edge(x, param, symbol, FIELD))  # fmt: skip


def _theta_blocks(r: Results, num: int) -> list[Block]:
    b = r.tables.get("best_theta")
    if b is None:
        return []
    table_, common, missing = r.theta_sets
    text = (
        "One seat plays heuristic(theta=θ) at each θ of the grid — it eats a slice when its "
        "cream exceeds θ times the majority points collecting it would gain, so a larger θ "
        "collects more — against the heuristic field, from every seat in "
        "turn on the same deals (the deal is the unit). "
        + _field_value_text(r, "theta", "theta") + " "
        + prose.sweep_sentence(b, "theta", "θ")
        + _grid_notes(b, "theta")
        + " The held-out edge: the best θ of the even-numbered deals measured on the odd ones "
        "and the reverse, averaged. "
        + prose.field_set_sentence(table_, common, missing, MAIN_PLAYERS)
        + f" Tables: {appendix_label(r, 'Eat or collect') or 'the appendix'}."
    )  # fmt: skip
    return [Heading(f"{num}  When is eating a slice better than collecting it?"),
            Prose(text, size=8.5),
            *_sweep_parts(r, "theta", "θ", "One seat's θ against the heuristic field")]  # fmt: skip


def _sweep_parts(r: Results, param: str, symbol: str, title: str) -> list[Block]:
    """A sweep's chart and the table of its best value per player count."""
    b = r.tables[f"best_{param}"]
    fig = figure(6.4, 4.3)
    sweeps.plot_sweep(r.tables[f"{param}_curve"], b, param, fig.add_subplot(), title)
    return [Plot.natural(fig), Heading(f"The best {symbol} per player count", level=3),
            Table.of(best_table(b, param, symbol), size=7)]  # fmt: skip


def _theta_appendix(r: Results, label: str) -> list[Block]:
    b = r.tables.get("best_theta")
    if b is None:
        return []
    sets, _, _ = r.theta_sets
    return [Heading(f"{label} — The best θ per player count"),
            Table.of(best_table(b, "theta", "θ"), size=7),
            Heading(f"{label} — The θ sweep at {MAIN_PLAYERS} players in every field", level=2),
            Prose("The best θ and the θ not significantly worse than it in each field (deals: "
                  "the sweep's paired unit)."),
            Table.of(sets_table(sets, "field", "theta", "θ"), size=7.5)]  # fmt: skip


THETA = Section("Eat or collect", _theta_compute,
                headlines=lambda r, q, rows: _sweep_headlines(r, q, "theta", "θ"),
                cells=lambda r: best_cells(r.tables.get("theta_curve"),
                                           r.tables.get("best_theta"), "theta", "θ"),
                blocks=_theta_blocks,
                appendix_blocks=_theta_appendix)  # fmt: skip
"""2: when is eating better than collecting?"""


# ----------------------------------------------------------------------------- options


def _option_headlines(r: Results, q: str, key: str, what: str) -> list[Row]:
    conds = r.tables.get(f"{key}_conditions", {})

    def heuristic(x: dict) -> str:
        j = judge(conds.get(x["players"], []), list(robustness.FIELDS))
        return "heuristic field; " + ("a handful of deals: exact sign test" if x.get("sparse")
                                      else j.label)  # fmt: skip

    fields = (("", heuristic), ("_greedy", lambda x: "greedy field"),
              ("_other", lambda x: f"heuristic field, {robustness.OTHER_RULE}"))  # fmt: skip
    return [headline(q, f"{x['players']} players: value of the option to {what} ({name(x)})",
                     value_text(x), x["deals"], x["warning"], "deals")
            for suffix, name in fields if (t := r.tables.get(f"{key}_value{suffix}")) is not None
            for x in t.iter_rows(named=True)]  # fmt: skip


def _option_cells(r: Results, key: str, what: str) -> list[Row]:
    t = r.tables.get(f"{key}_value")
    if t is None:
        return []
    return [{"number": f"{x['players']}p value of the option to {what} (deals)",
             "games": x["deals"], "± (pp)": x["half_width"],
             "games for ±1 pp": x["games_for_1pp"], "warning": x["warning"]}
            for x in t.iter_rows(named=True)]  # fmt: skip


def _value_blocks(r: Results, num: int, key: str, option: str, verb: str,
                  never: str) -> list[Block]:  # fmt: skip
    """What the option to ``verb`` is worth: the restricted seat ``option`` against the
    field, in every field, as a part of its section (a level-2 heading)."""
    t = r.tables.get(f"{key}_value")
    if t is None:
        return []
    restricted_spec = candidate_spec(r.manifest, option) or "?"
    g = r.tables.get(f"{key}_value_greedy")
    greedy = ""
    if g is not None and not g.is_empty():
        greedy = (" In the greedy field (one heuristic seat among greedy players: "
                  f"{option}-greedy against heur-greedy, paired by rotation and deal): "
                  + "; ".join(f"{x['players']}p {value_text(x)} ({x['deals']:,} deals)"
                              for x in g.iter_rows(named=True))
                  + ".")  # fmt: skip
    conds = r.tables.get(f"{key}_conditions", {})
    both = [n for n, c in sorted(conds.items()) if len(c) == len(robustness.FIELDS)]
    sparse = {int(x["players"]) for tt in (t, g) if tt is not None
              for x in tt.iter_rows(named=True) if x.get("sparse")}  # fmt: skip
    judged = "; ".join(
        f"at {n} players not judged (a field's value rests on a handful of deals: no interval)"
        if n in sparse else f"at {n} players {_judge(conds[n]).label} ({_judge(conds[n]).detail})"
        for n in both)  # fmt: skip
    o = r.tables.get(f"{key}_value_other")
    other = ""
    if o is not None and not o.is_empty():
        other = (" The 2-player ruling (a player who took a piece and finds none left at its "
                 "later turn forgoes, and may eat) is one reading of the rulebook's 'alternate "
                 f"turns'; under the other ({robustness.OTHER_RULE}: the turn passes; blocks "
                 f"{option}-2p-pass against seats-2p-pass, the same deals): "
                 + "; ".join(f"{x['players']}p {value_text(x)} ({x['deals']:,} deals)"
                             for x in o.iter_rows(named=True)) + ".")  # fmt: skip
    text = (
        f"A seat playing {restricted_spec} {never}; the others play the field. Its win share, "
        "from every seat in turn, is compared with an unrestricted seat's on the same deals "
        "(block seats: every seat plays the field, so averaged over the seats an unrestricted "
        "seat wins 1/n of each deal); the value per deal is 1/n minus the restricted seat's "
        "share averaged over its seats, with a t interval over deals. Where fewer than 30 "
        "deals differ the interval means nothing: the value is then given with the exact "
        "sign test over the deals that differ. "
        + prose.option_sentence(t, verb)
        + prose.identical_note(t, "used it")
        + greedy
        + other
        + (f" Robustness (every field's interval on the same side of 0): {judged}."
           if judged else "")
    )  # fmt: skip
    fig = figure(6.2, 3.5)
    ax = fig.add_subplot()
    plot_conditions(conds, ax, f"value of the option to {verb}, pp (95% CI over deals)")
    ax.set_title("unrestricted − restricted seat's win share", fontsize=8)
    rows = []
    for name, tt in (("heuristic field", t), ("greedy field", g),
                     (f"heuristic, {robustness.OTHER_RULE}", o)):  # fmt: skip
        if tt is None:
            continue
        c = tt.with_columns(pl.Series("value (pp) [95% CI]",
                                      [_value_cell(x) for x in tt.iter_rows(named=True)],
                                      dtype=pl.String))  # fmt: skip
        rows.append(c.select(pl.lit(name).alias("field"), "players", "deals",
                             pl.col("unrestricted_share").alias("unrestricted win share"),
                             pl.col("restricted_share").alias("restricted win share"),
                             "value (pp) [95% CI]", "warning"))  # fmt: skip
    shown = fmt(pl.concat(rows), {"unrestricted win share": ".3f",
                                  "restricted win share": ".3f"})  # fmt: skip
    return [Heading(f"{num}  What is the option to {verb} worth?", level=2),
            Prose(text, size=8.5), Plot.natural(fig),
            Heading("The value of the option by field and player count", level=3),
            Table.of(shown, size=7)]  # fmt: skip


def _value_cell(x: dict) -> str:
    """A value in a table cell: its t interval, or for a value carried by a handful of
    deals the count that differ and the exact sign test's p instead."""
    if not x.get("sparse"):
        return ci(x["value_pp"], x["value_low"], x["value_high"])
    if not x["differ"]:
        return "+0.0 (identical deals)"
    return f"{x['value_pp']:+.2f}: {x['differ']} deals differ, sign test p {x['sign_p']:.2g}"


def _sweep_blocks(r: Results, num: int, param: str, title: str, what: str) -> list[Block]:
    """The sweep of ``param`` (``what`` it does) as a part of its section (a level-2
    heading)."""
    b = r.tables.get(f"best_{param}")
    if b is None:
        return []
    text = (
        f"One seat plays heuristic({param}=x) at each value x of the grid ({what}) against "
        "the heuristic field, from every seat in turn on the same deals (block "
        f"'{param}'; the deal is the unit). " + _field_value_text(r, param, param) + " "
        + prose.sweep_sentence(b, param, param) + _grid_notes(b, param)
        + " The held-out edge: the best value of the even-numbered deals measured on the odd "
        "ones and the reverse, averaged."
    )  # fmt: skip
    return [
        Heading(f"{num}  {title}", level=2),
        Prose(text, size=8.5),
        *_sweep_parts(r, param, param, f"One seat's {param} against the heuristic field"),
    ]


def _judge(conditions: list[Condition]):
    return judge(conditions, list(robustness.FIELDS))


def _option_appendix(r: Results, label: str, param: str) -> list[Block]:
    c = r.tables.get(f"{param}_curve")
    if c is None:
        return []
    shown = ci_col(c.with_columns((100 * pl.col("win_share")).alias("w"),
                                  (100 * pl.col("win_low")).alias("wl"),
                                  (100 * pl.col("win_high")).alias("wh")),
                   "w", "wl", "wh", "win share (%)", ".1f")  # fmt: skip
    shown = ci_col(shown, "shortfall_pp", "shortfall_low", "shortfall_high",
                   "behind the best (pp)")  # fmt: skip
    shown = fmt(shown.select("players", param, "deals", "win share (%)", "behind the best (pp)",
                             pl.col("p_holm").alias("Holm p"),
                             pl.col("not_worse").alias("not worse")),
                {param: "g", "Holm p": ".3g"})  # fmt: skip
    return [Heading(f"{label} — The {param} sweep: every value"),
            Prose(f"The swept seat's win share at each {param} (t over deals) and its paired "
                  "shortfall behind the count's best value, with Holm-adjusted one-sided "
                  "p-values."),
            Table.of(shown, size=7)]  # fmt: skip


# ----------------------------------------------------------------------------- 3 forgoing


def _option_tables(r: Results, key: str, restricted: str, param: str) -> dict[str, Any]:
    """An option's value tables (``{key}_conditions``, ``{key}_value`` in the heuristic
    field, ``_greedy``, ``_other`` under the other reading of the second turn) against
    the ``restricted`` blocks, and the sweep of its ``param``: what forgoing's and cutting
    fewer's sections and verdicts read alike."""
    out: dict[str, Any] = {}
    conds, tables = robustness.option_values(r.out, r.manifest, restricted)
    out[f"{key}_conditions"] = conds
    if "heuristic field" in tables:
        out[f"{key}_value"] = tables["heuristic field"]
    if "greedy field" in tables:
        out[f"{key}_value_greedy"] = tables["greedy field"]
    other = robustness.other_reading(r.out, r.manifest, restricted)
    if other is not None:
        out[f"{key}_value_other"] = other
    out.update(_sweep_tables(r, param, param))
    return out


def _forgo_compute(r: Results) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if has_block(r.manifest, "decisions"):
        out["forgo_rates"] = forgo.forgo_rates(r.out)
        out["forgo_assoc"] = forgo.forgo_association(r.out)
    return out | _option_tables(r, "forgo", "noforgo", "margin")


def _pct(x: dict | None) -> str:
    if x is None:
        return EMPTY
    return ci(100 * x["estimate"], 100 * x["low"], 100 * x["high"], "%", ".1f")


def _forgo_rate_text(rates: pl.DataFrame) -> str:
    parts = []
    for n in sorted(rates["players"].unique()):
        f, v, d = (forgo.rate(rates, n, m) for m in ("forgone", "voluntary", "forced"))
        parts.append(
            f"{n}p {100 * f['estimate']:.1f}% of turns forgone ({100 * v['estimate']:.1f}%"
            f" voluntary, {100 * d['estimate']:.1f}% forced; {f['games']:,} games)"
        )
    return "; ".join(parts)


def _forgo_blocks(r: Results, num: int) -> list[Block]:
    out: list[Block] = []
    rates = r.tables.get("forgo_rates")
    if rates is not None:
        eaten = "; ".join(
            f"{n}p {_pct(forgo.rate(rates, n, 'forgo_eaten'))} of eaten slices "
            f"({forgo.rate(rates, n, 'forgo_eaten_per_game')['estimate']:.1f} a game)"
            for n in sorted(rates["players"].unique()))  # fmt: skip
        text = (
            f"As played in block 'decisions' ({_lower(_field(r, 'decisions'))}). A turn is a "
            "take-or-forgo; a voluntary forgo is a choice made while a piece was free (a CHOOSE "
            "decision answered 0), a forced one happens when no "
            "piece is left (not a decision: forgone minus voluntary). Intervals treat the "
            "game as the unit. " + _forgo_rate_text(rates) + ". Slices eaten by forgoing: "
            + eaten + ". " + prose.association_sentence(r.forgo_assoc)
            + f" What forgoing is worth, as an effect: the next page{see_section(r, 'Forgoing')}."
        )  # fmt: skip
        fig = figure(TEXT_WIDTH, 3.0)
        ax1, ax2 = fig.subplots(1, 2)
        forgo.plot_rates(rates, ax1)
        forgo.plot_association(r.forgo_assoc, ax2)
        # the text sends the reader to "the next page" for the option's value
        out = [Heading(f"{num}  How often do players forgo a cake?", level=2),
               Prose(text, size=8.5), Plot.natural(fig),
               Heading("Forgoing by player count (95% intervals; games)", level=3),
               Table.of(_forgo_table(rates, r.forgo_assoc), size=6.5), PageBreak()]  # fmt: skip
    return _section(out + _value_blocks(
        r, num, "forgo", "noforgo", "forgo", "never forgoes while a piece is free (margin 1000)"
    ) + _sweep_blocks(
        r, num, "margin", "The forgo margin swept",
        "it forgoes only when forgoing is worth more than its best piece plus x points",
    ))  # fmt: skip


def _forgo_table(rates: pl.DataFrame, assoc: pl.DataFrame) -> pl.DataFrame:
    rows = []
    for n in sorted(rates["players"].unique()):
        a = assoc.filter(pl.col("players") == n)
        a = a.row(0, named=True) if a.height else None
        per = forgo.rate(rates, n, "forgo_eaten_per_game")
        rows.append({
            "players": str(n),
            "turns forgone": _pct(forgo.rate(rates, n, "forgone")),
            "voluntary": _pct(forgo.rate(rates, n, "voluntary")),
            "forced": _pct(forgo.rate(rates, n, "forced")),
            "eaten by forgoing (% of eaten)": _pct(forgo.rate(rates, n, "forgo_eaten")),
            "… a game": ci(per["estimate"], per["low"], per["high"], "", ".2f"),
            "forgoing − not (pp, association)": ci(a["diff_pp"], a["diff_low"], a["diff_high"])
            if a else EMPTY,
            "games": f"{per['games']:,}",
        })  # fmt: skip
    return pl.DataFrame(rows)


FORGO = Section("Forgoing", _forgo_compute,
                headlines=lambda r, q, rows: _option_headlines(r, q, "forgo", "forgo")
                + _assoc_headlines(r, q) + _sweep_headlines(r, q, "margin", "margin"),
                cells=lambda r: _option_cells(r, "forgo", "forgo"), blocks=_forgo_blocks,
                appendix_blocks=lambda r, label: _option_appendix(r, label, "margin"))  # fmt: skip
"""3: how often does forgoing pay?"""


def _assoc_headlines(r: Results, q: str) -> list[Row]:
    a = r.tables.get("forgo_assoc")
    if a is None:
        return []
    return [headline(q, f"{x['players']} players: win share of seats that forgo − seats that "
                     "do not (association, not an effect)",
                     Estimate("win share of seats that forgo − seats that do not",
                              x["diff_pp"], x["diff_low"], x["diff_high"], int(x["games"]),
                              "games", players=int(x["players"]), field=FIELD,
                              method="association over games, not an effect"),
                     warn=x["warning"])
            for x in a.iter_rows(named=True) if x["seats_forgoing"] and x["seats_not"]]  # fmt: skip


# ----------------------------------------------------------------------------- 4 cut fewer


def _fewer_compute(r: Results) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if has_block(r.manifest, "decisions"):
        out["cut_rates"] = cuts.fewer_rates(r.out)
        out["piece_counts"] = cuts.piece_counts(r.out)
    return out | _option_tables(r, "fewer", "nofewer", "fewer")


def _fewer_blocks(r: Results, num: int) -> list[Block]:
    out: list[Block] = []
    rates = r.tables.get("cut_rates")
    if rates is not None:
        parts = "; ".join(
            f"{x['players']}p "
            f"{ci(100 * x['fewer_share'], 100 * x['fewer_low'], 100 * x['fewer_high'], '%', '.1f')}"
            f" of cuts below the most allowed ({x['most']}), {x['mean_pieces']:.2f} pieces on "
            f"average ({x['cuts']:,} cuts in {x['games']:,} games)"
            for x in rates.iter_rows(named=True))  # fmt: skip
        text = (
            f"As played in block 'decisions' ({_lower(_field(r, 'decisions'))}): every "
            "server's cut, its piece count read from the cut's gap mask (k gaps make k pieces, no "
            "gap the "
            "whole cake). The most allowed is the player count, or 4 at 2 players. Intervals "
            f"treat the game (five cuts) as the unit. {parts}. What cutting fewer is worth, as "
            f"an effect: the next page{see_section(r, 'Cutting fewer')}."
        )  # fmt: skip
        fig = figure(6.4, 3.4)
        cuts.plot_piece_counts(r.piece_counts, fig.add_subplot())
        shown = ci_col(rates.with_columns((100 * pl.col("fewer_share")).alias("f"),
                                          (100 * pl.col("fewer_low")).alias("fl"),
                                          (100 * pl.col("fewer_high")).alias("fh")),
                       "f", "fl", "fh", "cuts with fewer pieces (%)", ".1f")  # fmt: skip
        shown = ci_col(shown, "mean_pieces", "pieces_low", "pieces_high", "mean pieces", ".2f")
        shown = fmt(shown.select("players", pl.col("most").alias("most allowed"),
                                 "cuts with fewer pieces (%)", "mean pieces", "cuts", "games"),
                    {})  # fmt: skip
        # the text sends the reader to "the next page" for the option's value
        out = [Heading(f"{num}  How often do servers cut fewer pieces than allowed?", level=2),
               Prose(text, size=8.5), Plot.natural(fig),
               Heading("Cuts by player count (95% intervals over games)", level=3),
               Table.of(shown, size=7.5), PageBreak()]  # fmt: skip
    return _section(out + _value_blocks(
        r, num, "fewer", "nofewer", "cut fewer pieces",
        "never cuts fewer pieces than the most allowed (fewer −100)",
    ) + _sweep_blocks(
        r, num, "fewer", "The preference for cutting fewer pieces swept",
        "as server it adds x points to a cut for each piece fewer than the most allowed",
    ))  # fmt: skip


FEWER = Section("Cutting fewer", _fewer_compute,
                headlines=lambda r, q, rows: _option_headlines(r, q, "fewer", "cut fewer pieces")
                + _sweep_headlines(r, q, "fewer", "fewer"),
                cells=lambda r: _option_cells(r, "fewer", "cut fewer pieces"),
                blocks=_fewer_blocks,
                appendix_blocks=lambda r, label: _option_appendix(r, label, "fewer"))  # fmt: skip
"""4: what is cutting fewer pieces than players worth?"""


# ----------------------------------------------------------------------------- 5 varieties


def _varieties_compute(r: Results) -> dict[str, Any]:
    if not varieties.has_columns(r.out):
        return {"varieties_missing": (
            f"this dataset's players table has no {listing(varieties.COLUMNS)} columns (it was "
            "written before they were added): rebuild it (slicelab study "
            f"{r.manifest.get('study_file') or 'studies/pieceocake-balance.toml'} into a new "
            "directory) to see each variety's share of the winning scores")}  # fmt: skip
    shares = varieties.variety_shares(r.out, "seats")
    return {"variety_shares": shares, "top_variety": varieties.top_variety(shares)}


def _varieties_blocks(r: Results, num: int) -> list[Block]:
    title = Heading(f"{num}  Which varieties carry the winning scores?")
    missing = r.tables.get("varieties_missing")
    if missing:
        return [title, Prose(f"Not computed: {missing}.")]
    s = r.variety_shares
    arms = [a for a in r.manifest["study"]["arms"] if a.get("group", a["name"]) == "seats"]
    cake = cake_for(arms[0]) if arms else None
    cake_text = ""
    if cake is not None:
        cake_text = (f" The cake ({cake.name}): "
                     + ", ".join(f"{v.name} {v.value} points, cream {v.cream}"
                                 for v in cake.varieties) + ".")  # fmt: skip
    text = (
        f"{_field(r)} (block 'seats'). A winner's points from a variety: the variety's value "
        "when it scores the majority plus the cream of the slices of it it ate; over the "
        "varieties they add up to its score. Each variety's share of the winners' points, each "
        "winner weighted by its win share (a shared win counts 1/k), so every game counts "
        "once; intervals clustered by game. The black dash is the variety's share of the "
        "cake's points (its value plus the cream of all its slices): a variety above it "
        "carries more than its weight." + cake_text + " "
        + prose.top_variety_sentence(r.top_variety)
    )  # fmt: skip
    fig = figure(TEXT_WIDTH, 3.8)
    varieties.plot_shares(s, fig.add_subplot())
    wide = ci_col(s.with_columns((100 * pl.col("share")).alias("p"),
                                 (100 * pl.col("share_low")).alias("pl"),
                                 (100 * pl.col("share_high")).alias("ph")),
                  "p", "pl", "ph", "cell", ".1f")  # fmt: skip
    shown = wide.pivot(on="players", index="variety", values="cell")
    counts = [c for c in shown.columns if c != "variety"]
    shown = shown.rename({c: f"{c} players (%)" for c in counts})
    ref = s.group_by("variety", maintain_order=True).agg(pl.col("cake_share").first())
    shown = shown.join(ref.with_columns((100 * pl.col("cake_share")).round(1).cast(pl.String)
                                        .alias("the cake's points (%)")).drop("cake_share"),
                       on="variety", how="left")  # fmt: skip
    games = ", ".join(f"{n}p {g:,}" for n, g in
                      s.group_by("players").agg(pl.col("games").first()).sort("players")
                      .iter_rows())  # fmt: skip
    return [title, Prose(text, size=8.5), Plot.natural(fig),
            Heading(f"Share of the winners' points (%, 95% CI); games: {games}", level=3),
            Table.of(fmt(shown, {}), size=7)]  # fmt: skip


def _varieties_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    top = r.tables.get("top_variety")
    if top is None:
        return []
    return [headline(q, f"{x['players']} players: {x['variety']} carries the largest share of "
                     "the winners' points"
                     + ("" if x["separated"] else f" (not separated from {x['runner_up']})"),
                     Estimate("share of the winners' points", 100 * x["share"],
                              100 * x["share_low"], 100 * x["share_high"], int(x["games"]),
                              "games", unit="%", subject=x["variety"],
                              players=int(x["players"]), field=FIELD,
                              method="interval over games"))
            for x in top.iter_rows(named=True)]  # fmt: skip


VARIETIES = Section("Varieties", _varieties_compute, headlines=_varieties_headlines,
                    blocks=_varieties_blocks)  # fmt: skip
"""5: which varieties carry the winning scores?"""


# ----------------------------------------------------------------------------- 8 NYS


def _nys_compute(r: Results) -> dict[str, Any]:
    out: dict[str, Any] = {}
    boot = int(r.options.get("n_boot", 1000))
    if has_block(r.manifest, "seats-exact") and has_block(r.manifest, "seats"):
        out["exact_change"] = compare.exact_change(r.out, "seats", "seats-exact", n_boot=boot)
        out["exact_rules"] = block_rules(r.out, "seats-exact")
    path, reason = compare.nyslice_dataset(r.out, r.manifest, r.options.get("nyslice"))
    out["nyslice_path"], out["nyslice_reason"] = path, reason
    out["nyslice_summary"], out["nyslice_specs"] = None, []
    if path is not None:
        try:
            out["nyslice_summary"] = compare.nyslice_seats(path, n_boot=boot)
            out["nyslice_specs"] = block_specs(read_manifest(path), "seats")
        except Exception as exc:  # a dataset that reads but cannot be analysed: say why
            out["nyslice_path"] = None
            out["nyslice_reason"] = f"{path} could not be read ({str(exc).splitlines()[0]})"
    return out


EXACT_SENTENCES = (
    ("first_edge", "the first server's edge (pp)", True),
    ("eaten", "the share of slices eaten (%)", False),
    ("forgone", "the share of turns forgone (%)", False),
)
"""The measures the exact-N paragraph states: measure, in words, whether signed."""


def _nys_blocks(r: Results, num: int) -> list[Block]:
    t = r.tables.get("exact_change")
    out: list[Block] = [Heading(f"{num}  Side by side with New York Slice")]
    if t is not None:
        rules = (listing(f"{k}={json.dumps(v)}" for k, v in sorted(r.exact_rules.items()))
                 or "exact_pieces=true")  # fmt: skip
        text = (
            "New York Slice re-themed Piece o' Cake: its slicer must cut exactly N pieces, and "
            "it adds specials, pepperoni and anchovy slices, its own deck, 2 to 6 players and "
            f"its own rounds. Block seats-exact plays Piece o' Cake with {rules} — the server "
            "must cut exactly the most pieces allowed — with the heuristic in every seat and "
            "the same seed as seats, so game i of both is the same cake: each measure is paired "
            "by game (t intervals; the largest seat edge, not a mean, by a bootstrap over "
            f"games). Open markers: printed rule; filled: exact-N. {t['n'][0]:,} paired "
            "games per count. "
            + " ".join(change_sentence(t, m, f"With exact-N cutting, {what}", signed)
                       for m, what, signed in EXACT_SENTENCES)
        )  # fmt: skip
        fig = figure(TEXT_WIDTH, 2.4)
        plot_changes(fig.subplots(1, len(compare.PANEL_TITLES)), t, compare.PANEL_TITLES,
                     zero=("first_edge",))  # fmt: skip
        out += [Prose(text, size=8), Plot.natural(fig)]
    out.append(Heading("Piece o' Cake, Piece o' Cake with exact-N cutting, and New York Slice",
                       level=3))  # fmt: skip
    nys = r.tables.get("nyslice_summary")
    three = _three_way(t, nys)
    if three is not None:
        out.append(Table.of(three, size=6.5))
    if nys is not None:
        games = ", ".join(f"{x['players']}p {x['games']:,}" for x in nys.iter_rows(named=True))
        text = (
            f"New York Slice from the dataset {Path(r.nyslice_path).name} (its 'seats' block: "
            f"{listing(repr(s) for s in r.nyslice_specs) or '?'} in every seat, New York "
            f"Slice's own strategy; games {games}); its first slicer is seat 0. Piece o' "
            "Cake → Piece o' Cake with exact-N isolates exact-N cutting: same game, same deals, "
            "one rule changed. Piece o' Cake with exact-N → New York Slice mixes the specials "
            "with New York Slice's other differences (pepperoni and anchovy slices, its deck, "
            "2 to 6 players, its rounds) and other players: no single cause can be read from it. "
            "The largest seat edge is biased upward by noise, more with fewer games."
        )  # fmt: skip
    else:
        text = (
            f"New York Slice: no dataset to compare with ({r.tables.get('nyslice_reason')}). "
            "Make one with `make report` (it builds both studies), or `slicelab study "
            "studies/nyslice-balance.toml --out <dir>/nyslice-balance` beside this dataset. "
            "Piece o' Cake → "
            "Piece o' Cake with exact-N above isolates exact-N cutting; a comparison with New "
            "York Slice would mix its specials with its other differences (pepperoni and "
            "anchovy slices, its deck, 2 to 6 players, its rounds)."
        )  # fmt: skip
    return [*out, Prose(text, size=8)]


def _three_way(t: pl.DataFrame | None, nys: pl.DataFrame | None) -> pl.DataFrame | None:
    rows = []
    counts = sorted(set(t["players"].to_list() if t is not None else [])
                    | set(nys["players"].to_list() if nys is not None else []))  # fmt: skip
    for n in counts:
        row = {"players": str(n)}
        for measure, label in (("first_edge", "first server/slicer (pp)"),
                               ("largest_edge", "largest seat edge (pp)")):  # fmt: skip
            c = change_at(t, n, measure) if t is not None else None
            for who, k in (("PoC", "before"), ("PoC exact-N", "after")):
                row[f"{who}: {label}"] = ci(c[k], c[f"{k}_low"], c[f"{k}_high"], "") if c else EMPTY
            x = nys.filter(pl.col("players") == n) if nys is not None else None
            if x is not None and x.height:
                x = x.row(0, named=True)
                key = "first" if measure == "first_edge" else "largest"
                row[f"NYS: {label}"] = ci(x[f"{key}_edge_pp"], x[f"{key}_low"],
                                          x[f"{key}_high"], "")  # fmt: skip
            else:
                row[f"NYS: {label}"] = EMPTY
        rows.append(row)
    if not rows:
        return None
    order = ["players"] + [f"{w}: {lab}" for lab in ("first server/slicer (pp)",
                                                     "largest seat edge (pp)")
                           for w in ("PoC", "PoC exact-N", "NYS")]  # fmt: skip
    return pl.DataFrame(rows).select(order)


def _nys_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    t = r.tables.get("exact_change")
    if t is None:
        return []
    return change_headlines(
        t, q, "first_edge",
        lambda x: f"{x['players']} players: first server's edge from {x['before']:+.1f} to "
        f"{x['after']:+.1f} pp with exact-N cutting (change, paired by game)",
        "change in the first server's edge with exact-N cutting", field=FIELD,
        method="paired by game",
    )  # fmt: skip


def _nys_cells(r: Results) -> list[Row]:
    t = r.tables.get("exact_change")
    return paired_cells(
        None if t is None else t.filter(pl.col("measure") == "first_edge"),
        lambda x: f"{x['players']}p exact-N change of the first server's edge", n="n",
    )  # fmt: skip


def _nys_appendix(r: Results, label: str) -> list[Block]:
    t = r.tables.get("exact_change")
    if t is None:
        return []
    shown = change_frame(t, compare.MEASURES, ("printed rule", "exact-N", "change"),
                         (".2f", ".2f", "+.2f"))  # fmt: skip
    return [Heading(f"{label} — Exact-N cutting: every measure"),
            Prose("Each measure under the printed rule and with exact-N cutting, on the same "
                  "games (pp; 95% intervals: t over games, the largest seat edge by a "
                  "bootstrap over games)."),
            Table.of(shown, size=6.5)]  # fmt: skip


NYSLICE = Section("New York Slice", _nys_compute, headlines=_nys_headlines, cells=_nys_cells,
                  blocks=_nys_blocks, appendix_blocks=_nys_appendix,
                  needs=("seats-exact",))  # fmt: skip
"""8: Piece o' Cake beside New York Slice."""


GLOSSARY = {
    "server": "The player who cuts the round's cake; the first server is seat 0 (a ruling) "
    "and the server passes to the left each round, so over five cakes some seats serve more "
    "often than others.",
    "cut": "The server divides the circle of 11 slices into at most as many pieces as there "
    "are players (4 at 2 players) by choosing gaps between slices; no gap is the whole cake, "
    "one piece. Cutting fewer pieces than the most allowed leaves someone without a piece.",
    "exact-N cutting": "The what-if rule exact_pieces (New York Slice's rule): the server must "
    "cut exactly the most pieces allowed.",
    "forgo": "Taking no piece of a cake. Voluntary: chosen while a piece was still free (a "
    "decision); forced: no piece was left. A player who forgoes may eat the collected slices "
    "of one variety, scoring their cream.",
    "eat or collect": "For every slice of a piece taken, eat it (its cream scores points) or "
    "collect it (it counts towards the majority of its variety).",
    "majority": "The player with the most collected slices of a variety scores its value "
    "(tied leaders each score it in full); the value does not grow with the count.",
    "θ (theta)": "The heuristic's eat-or-collect weight: it eats a slice when its cream "
    "exceeds θ times the majority points collecting it would gain, so a larger θ collects "
    "more. The θ sweep plays one seat at each θ against the heuristic field.",
    "margin": "The heuristic's forgo margin: it forgoes only when eating by forgoing is worth "
    "more than the best free piece plus the margin (points); margin 1000 never forgoes while "
    "a piece is free.",
    "fewer": "Points the heuristic's server adds to a cut for each piece fewer than the most "
    "allowed: positive cuts fewer on purpose; −100 never cuts fewer.",
    "restricted-play value": "What having an option (forgoing, cutting fewer) is worth: an "
    "unrestricted seat's win share minus that of a seat that never uses the option, on the "
    "same deals against the same field, from every seat in turn (t interval over deals).",
    "heuristic field / greedy field": "Who the other seats are: the heuristic (its shipped "
    "preset at each count) or greedy (the myopic valuation). Robust verdicts hold in both.",
    "winners' points share": "A variety's share of the winners' scores: its majority value "
    "when they scored it plus the cream of its slices they ate, over their scores (each "
    "winner weighted by its win share).",
    "held-out edge": "A swept value's win-share edge over the fair share, measured on deals "
    "not used to pick it (even and odd deals, both ways), so the winner's curse does not "
    "inflate it.",
}
"""Piece o' Cake's terms, merged with the generic glossary."""


REPORT = GameReport(
    sections=(
        SEATS,
        THETA,
        FORGO,
        FEWER,
        VARIETIES,
        player_count_section("seats"),
        ratings_section(groups=("ladder", "ladder-search")),
        NYSLICE,
        sample_size_section(order=("Seats", "Eat or collect", "Forgoing", "Cutting fewer")),
    ),
    blocks=BLOCKS,
    example="studies/pieceocake-balance.toml",
    provenance=_provenance,
    notes=_notes,
    options={"nyslice": None, "n_boot": 1000},
    verdicts=verdicts.verdicts,
    glossary=GLOSSARY,
    skill=SkillLevels(
        (
            Level("random", "random", "seats-random"),
            Level("greedy", "greedy", "seats-greedy"),
            Level("the heuristic", "heuristic", "seats"),
            Level("search", "search(budget=32)"),
        ),
        main="heuristic",
    ),  # fmt: skip
)
"""Piece o' Cake's balance report."""
