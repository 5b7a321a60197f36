"""Horno's balance report: the study blocks it reads, its verdicts, its sections
(:data:`REPORT`, found by :func:`analysis.report.game_report`).

1. Seats: win share by turn position at 2, 3 and 4 players, in the main field (the
   heuristic in every seat, ``seats``) and in the greedy and random fields;
2. Dish types: own points of every type and card (``seats``), restricted play (``avoid``,
   paired by deal with ``seats``) and replacement (``plain-<type>``, the same deals with
   the type's dishes made average);
3. Sabotage and steals: a seat that never sabotages, never steals or always sabotages
   (``nosabotage``, ``nosteal``, ``allsabotage``) on the main field's deals; the points
   lost to sabotage;
4. Radioactive cards: what they add and take in the main field, and the same deals
   without them (``noradio``) and under ``radioactive_bonus = "each"`` (``radio-each``);
5. Card sets: the seat edges, the dish-type ranking and the sabotage damage on every
   alternative card set (``cards-<name>``), and which verdicts hold on all of them;
6. Player count (``seats``), 7. Ratings (``ladder``) and 8. Sample size: the generic
   sections, the first with Horno's measures added.

The card list is not published: the default card set is an assumption, and the report
says so where it matters. Every sentence of interpretation is computed from the numbers it
states (:mod:`analysis.prose`, :mod:`analysis.horno.prose`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from analysis.blocks import block_specs, has_block
from analysis.content import Block, Heading, PageBreak, Plot, Prose, Table
from analysis.content import panels as _figure
from analysis.estimates import edge
from analysis.formats import ci, ci_col, fmt
from analysis.horno import cardsets, dishes, radioactive, sabotage, seats, verdicts
from analysis.horno.common import (
    AVOID,
    CARD_VARIANTS,
    DEFAULT_SET,
    FIELDS,
    LADDER,
    MAIN,
    MAIN_FIELD,
    RESTRICTED,
    RESTRICTED_SPECS,
    SEATS,
    VARIANTS,
    block_cards,
    card_set_changes,
    describe,
    plain_blocks,
    preset_status,
    short,
    the_field,
)
from analysis.horno.prose import (
    capital,
    damage_sentence,
    own_sentence,
    restriction_sentence,
    signs_by_kind,
    strength_sentence,
    value_sentence,
    variant_sentence,
)
from analysis.prose import edge_sentence, judged, listing, pct
from analysis.robust import plot_conditions, sign
from analysis.sections import (
    GameReport,
    Results,
    Row,
    Section,
    appendix_label,
    block_players,
    count_values,
    fields_text,
    figure_part,
    headline,
    paired_cells,
    paired_headline,
    pct_col,
    player_count_section,
    plot_positions,
    position_appendix_blocks,
    position_cells,
    position_edges_table,
    position_results,
    position_share_table,
    ratings_section,
    rules_row,
    sample_size_section,
)
from analysis.skill import Level, SkillLevels
from analysis.stats import mean_interval
from sims.games.horno.cards import default_cards

TYPES = default_cards().types
"""The dish types of assumed v1 (the study's main card set), in order."""
BLOCKS = tuple(
    dict.fromkeys(
        [
            *FIELDS.values(),
            AVOID,
            *(f"plain-{t.lower()}" for t in TYPES),
            *RESTRICTED.values(),
            *VARIANTS.values(),
            *CARD_VARIANTS.needs,
            *LADDER,
            *(f"skill-vs-{level}" for level in ("random", "greedy", "heuristic")),
        ]
    )
)
"""Study blocks the report reads (see studies/horno-balance.toml), from the roles of
:mod:`analysis.horno.common`; a study without one gets the questions that read it listed
as unanswered (:func:`analysis.report.unanswered`)."""
POSITION_LABEL = "turn position (0 = first to play)"
FIELD_STYLE = {
    "heuristic field": ("black", "o"),
    "greedy field": ("tab:green", "D"),
    "random field": ("0.5", "^"),
}
SET_COLOURS = (
    "black",
    "tab:blue",
    "tab:orange",
    "tab:green",
    "tab:red",
    "tab:purple",
    "tab:brown",
    "tab:pink",
    "tab:olive",
    "tab:cyan",
)
CARDS_NOTE = (
    "The full card list of Horno is not published: the default card set, assumed v1, is "
    "slicelab's reading of what the rulebook names (docs/rules/horno.md, 'The card set'), "
    "and the card-set section measures how much the answers depend on it."
)


def _set_styles(names) -> dict[str, tuple[str, str]]:
    markers = "os^Dv<>phx"
    return {
        n: (SET_COLOURS[k % len(SET_COLOURS)], markers[k % len(markers)])
        for k, n in enumerate(names)
    }


# ----------------------------------------------------------------------------- notes


def _provenance(m: dict) -> list[tuple[str, str]]:
    fps = list(m["fingerprints"].values())
    sets = sorted({(f.get("cards", "?"), f.get("cards_digest", "?")) for f in fps})
    listed = "; ".join(
        f"{c} (digest {d})" + (" — the default, an assumption" if c == "assumed-v1" else "")
        for c, d in sets
    )
    return [
        rules_row(m, "docs/rules/horno.md"),
        ("Card sets", listed or "assumed-v1"),
        ("Strategies", "docs/strategies/horno.md"),
    ]


def _notes(r: Results) -> list[str]:
    fields = fields_text(r, {k: v for k, v in FIELDS.items() if k != MAIN_FIELD}, short)
    players = (
        f"Players. The main field is {the_field()}: unless a section says otherwise every "
        f"seat plays {block_players(r, SEATS)} (block {SEATS}; docs/strategies/horno.md). "
        f"{preset_status()} The other fields: {fields}. A conclusion about weak players is "
        "weak: where the fields disagree, trust neither blindly. The search player, whose "
        "playouts run on the reference engine, plays only in the ratings (block "
        "ladder-search: against the heuristic at 2 players, on few deals)."
    )
    pairing = (
        "Pairing. Every block shares the study's seed, so game i of every block is dealt the "
        "same cards wherever the deck is the same: the restricted seats (avoid, nosabotage, "
        "nosteal, allsabotage) are compared with the seat they replace in seats on the same "
        "deals, every seat in turn (rotated blocks), and the variants (plain-<type>, noradio, "
        f"radio-each) replay the deals of seats at {MAIN} players with the card set or a rule "
        "changed but the deck kept; the deal is the unit of those intervals. The alternative "
        "card sets change the deck: their games are independent of the main field's."
    )
    rules = (
        "Rulings. Every block plays the rulings' defaults (docs/rules/horno.md, 'Rulings and "
        "options': among them, a second matching radioactive card may be placed, as the rules "
        "allow) except radio-each (radioactive_bonus = each). A win shared by k seats "
        "counts 1/k to each; the tie-break is off by default (tie = shared)."
    )
    return [players, pairing, CARDS_NOTE, rules]


# ----------------------------------------------------------------------------- 1 seats


def _seats_compute(r: Results) -> dict[str, Any]:
    tables = seats.field_positions(r.out, r.manifest)
    if not tables:
        return {}
    out: dict[str, Any] = {
        **position_results(tables, seats.edges),
        "first_conditions": seats.conditions(tables, "first"),
        "last_conditions": seats.conditions(tables, "last"),
        "seat_block": SEATS,
    }
    if MAIN_FIELD in tables and not bool(tables[MAIN_FIELD]["same_as_seat"].all()):
        out["by_seat"] = seats.position_table(r.out, SEATS, by="seat")
    return out


def _position_table(t: pl.DataFrame) -> pl.DataFrame:
    return position_share_table(t, {"score": ("mean score", ".1f")})


POSITION_WIDTHS = [0.07, 0.07, 0.07, 0.2, 0.2, 0.08, 0.2]
"""The relative column widths of the appendix's by-seat table (which
:func:`analysis.sections.position_appendix_blocks` asks for)."""


def _seats_blocks(r: Results, num: int) -> list[Block]:
    tables = r.tables.get("positions")
    if not tables or MAIN_FIELD not in tables:
        return []
    main = tables[MAIN_FIELD]
    e = seats.edges(main)
    same = bool(e["same_as_seat"].all())
    shared = listing(
        f"{100 * x['shared']:.1f}% at {x['players']} players" for x in e.iter_rows(named=True)
    )
    text = (
        f"The main field, {the_field()}: every seat plays {block_players(r, SEATS)} (block "
        f"{SEATS}), on assumed v1. A seat's turn position is its place in every round's "
        "turn order: 0 plays first (restocks, acts and prepares before the others). "
        + (
            "In every game here the position is the seat (rule first_player = 0), so win "
            "share by seat is win share by position. "
            if same
            else "The position is not always the seat (rule first_player): the appendix has "
            "both tables. "
        )
        + "Each game has one seat in each position, so intervals are over games (Wilson). A "
        f"win shared by k seats counts 1/k to each; games in which every seat ties for the "
        f"win: {shared}. "
        + capital("; ".join(edge_sentence(x) for x in e.iter_rows(named=True)))
        + ". The same question with other players and on other card sets: the next page "
        "and the card-set section."
    )
    fig, (ax,) = _figure(6.6, 3.9)
    plot_positions(main, ax, POSITION_LABEL, "turn position")
    return [
        *figure_part(f"{num}  Does the turn order favour a seat?", text, fig,
                     f"Win share by turn position, {the_field()} (95% intervals over games)",
                     _position_table(main), 7),
        *_robust_blocks(r, num),
    ]  # fmt: skip


def _robust_blocks(r: Results, num: int) -> list[Block]:
    first, last = r.tables.get("first_conditions", {}), r.tables.get("last_conditions", {})
    if not first:
        return []
    fields = listing(f"{short(n)} ({b})" for n, b in FIELDS.items() if has_block(r.manifest, b))
    lines = []
    for n in sorted(first):
        for what, found in (("first player's", first), ("last player's", last)):
            conds = found.get(n, [])
            label, _, _, _ = judged(conds, list(r.positions))
            lines.append(
                f"at {n} players the {what} edge is "
                f"{signs_by_kind(conds, {'field': 'fields'}).removeprefix('across the fields: ')}"
                f" ({label})"
            )
    text = (
        "The first player's edge (position 0's win share minus the fair share, pp) and the "
        "last player's, 95% intervals over games, in every field the study plays: "
        f"{fields}. A verdict is robust only when the interval of every field excludes 0 "
        "with the same sign: " + "; ".join(lines) + "."
    )
    fig, axes = _figure(6.5, 3.6, 2)
    for ax, found, what in zip(axes, (first, last), ("first", "last"), strict=True):
        plot_conditions(found, ax, f"{what} player's edge, pp (95% CI)", list(FIELDS), FIELD_STYLE)
    axes[0].get_legend().remove()
    # the seats part says this part is on "the next page"
    return [PageBreak(), *figure_part(
        f"{num}  Does the turn order's edge hold with other players?", text, fig,
        "Turn-position edges over the fair share in every field (pp, 95% CI)",
        position_edges_table(r.position_edges), 7, level=2)]  # fmt: skip


def _seats_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    out: list[Row] = []
    e = r.tables.get("position_edges")
    if e is None:
        return out
    for x in e.iter_rows(named=True):
        for what, key in (("first player", "first"), ("last player", "last")):
            out.append(
                headline(
                    q,
                    f"{x['players']} players, {x['field']}: {what}'s edge over the fair share",
                    edge(
                        x[f"{key}_pp"],
                        x[f"{key}_low"],
                        x[f"{key}_high"],
                        x["games"],
                        f"the {what}",
                        x["players"],
                        field=x["field"],
                    ),
                    warn="" if x[f"{key}_low"] > 0 or x[f"{key}_high"] < 0 else "interval covers 0",
                )
            )
    return out


def _seats_cells(r: Results) -> list[Row]:
    return position_cells(r.tables.get("positions") or {}, short)


def _seats_appendix(r: Results, label: str) -> list[Block]:
    return position_appendix_blocks(
        r,
        label,
        _position_table,
        short=short,
        what="turn position",
        widths=[0.09, 0.07, 0.07, 0.07, 0.19, 0.18, 0.08, 0.2],
        intro="Every field's win share by turn position with its 95% interval over games (Wilson).",
        seat_widths=POSITION_WIDTHS,
        main=the_field(),
    )


SEATS_SECTION = Section(
    "Seats",
    _seats_compute,
    headlines=_seats_headlines,
    cells=_seats_cells,
    blocks=_seats_blocks,
    appendix_blocks=_seats_appendix,
)
"""1: does the turn order favour a seat?"""


# ----------------------------------------------------------------------------- 2 dish types


def _dishes_compute(r: Results) -> dict[str, Any]:
    if not has_block(r.manifest, SEATS):
        return {}
    out: dict[str, Any] = {
        "own": dishes.own_points(r.out, SEATS, r.manifest),
        "cards": dishes.card_points(r.out, SEATS, r.manifest),
    }
    if has_block(r.manifest, AVOID):
        out["avoid"] = dishes.restricted_play(r.out, AVOID, SEATS, r.manifest)
    if any(has_block(r.manifest, b) for b in plain_blocks(r.manifest).values()):
        out["replacement"] = dishes.replacement(r.out, SEATS, r.manifest)
    return out


def _main_count(frames: list[pl.DataFrame | None]) -> int:
    counts = {int(n) for f in frames if f is not None for n in f["players"].unique()}
    return MAIN if MAIN in counts else max(counts)


def _type_table(r: Results, n: int) -> pl.DataFrame:
    own = r.own.filter(pl.col("players") == n)
    shown = pct_col(own, "completion", "completion_low", "completion_high", "completed (%)")
    shown = ci_col(shown, "yield", "yield_low", "yield_high", "points per dish taken", ".1f")
    shown = ci_col(shown, "excess", "excess_low", "excess_high", "over the average dish", "+.1f")
    shown = ci_col(
        shown, "per_dish", "per_dish_low", "per_dish_high", "points per completed", ".1f"
    )
    cols = [
        pl.col("type_name").alias("type"),
        pl.col("rank").alias("rank"),
        pl.col("taken").alias("taken"),
        "completed (%)",
        "points per completed",
        "points per dish taken",
        "over the average dish",
    ]
    out = shown.select(cols)
    for key, name in (("avoid", "restricted play (pp)"), ("replacement", "replacement (pp)")):
        t = r.tables.get(key)
        if t is None:
            continue
        v = ci_col(t.filter(pl.col("players") == n), "value_pp", "value_low", "value_high", name)
        out = out.join(v.select(pl.col("type_name").alias("type"), name), on="type", how="left")
    return fmt(out, {})


def _plot_values(
    t: pl.DataFrame, n: int, ax, est: str, lo: str, hi: str, title: str, label: str
) -> None:
    sub = t.filter(pl.col("players") == n).sort("type")
    y = np.arange(sub.height)
    e = sub[est].to_numpy()
    err = np.vstack([e - sub[lo].to_numpy(), sub[hi].to_numpy() - e])
    ax.errorbar(e, y, xerr=err, fmt="o", color="black", ms=3.5, capsize=2, elinewidth=0.9)
    ax.axvline(0, color="black", lw=0.7, ls="--")
    ax.set_yticks(y, sub["type_name"].to_list(), fontsize=7)
    ax.set_ylim(sub.height - 0.5, -0.5)
    ax.set_title(title, fontsize=8)
    ax.set_xlabel(label, fontsize=7)
    ax.tick_params(labelsize=7)


def _strength(r: Results, n: int) -> str:
    """Which estimand answers "which dish type is stronger" at ``n`` players, and why the
    others name another type (:func:`analysis.horno.prose.strength_sentence`; each
    strongest type corrected for picking it among the types)."""
    rep = r.tables.get("replacement")
    plain = int(rep["plain_points"][0]) if rep is not None and rep.height else None
    own = r.tables.get("own")
    own = own.filter(pl.col("players") == n) if own is not None else None
    return strength_sentence(verdicts.dish_claims(r, n), own, verdicts.printed_points(r), plain,
                             n)  # fmt: skip


def _dishes_blocks(r: Results, num: int) -> list[Block]:
    own = r.tables.get("own")
    if own is None:
        return []
    avoid, rep = r.tables.get("avoid"), r.tables.get("replacement")
    n = _main_count([avoid, rep]) if avoid is not None or rep is not None else MAIN
    plain = int(rep["plain_points"][0]) if rep is not None and rep.height else None
    where = appendix_label(r, "Dish types")
    text = (
        "Three estimands, each answering its own question. Own points (every count, from "
        f"the games of {the_field()}): what a type's dishes score for the seats that take "
        "them — a dish taken is either completed (its score: base points, less garbage and "
        "other types' radioactive cards, plus its own radioactive bonus) or in the oven at "
        "the end (+2 a correct card, −1 a bad one); intervals over games. It ignores what "
        "the seat gave up to take the type. Restricted play (block avoid): a seat that never "
        "takes a dish of the type while another type is open (heuristic(avoid=t)), every "
        "seat in turn, on the main field's deals: the unrestricted seat's win share minus "
        "its own (positive: the type is worth having), t interval over deals. Replacement "
        "(blocks plain-<type>): the same deals with the type's dishes made average dishes"
        + (f" (each worth {plain} points, the mean dish; ingredients unchanged)" if plain else "")
        + "; for the seats that completed a dish of the type in the real game, their win "
        "share there minus in the replay, clustered by game: what the type's printed points "
        "are worth to its takers, whatever they did differently. "
        + _strength(r, n)
        + " "
        + own_sentence(own, n)
        + " "
        + (value_sentence(avoid, n, "restricted play") + " " if avoid is not None else "")
        + (value_sentence(rep, n, "replacement", "games") + " " if rep is not None else "")
        + (f"Every count and every dish card: {where}." if where else "")
    )
    value = ("value_pp", "value_low", "value_high")
    panels = [(own, ("excess", "excess_low", "excess_high"), "own points",
               "over the average dish\ntaken, points")]  # fmt: skip
    if avoid is not None:
        panels.append((avoid, value, "restricted play", "unrestricted −\navoiding seat, pp"))
    if rep is not None:
        panels.append((rep, value, "replacement", "takers: printed −\naverage, pp"))
    fig, axes = _figure(5.6, 1.9, len(panels))
    for k, (ax, (t, cols, title, label)) in enumerate(zip(axes, panels, strict=True)):
        _plot_values(t, n, ax, *cols, f"{title}, {n} players", label)
        if k:
            ax.set_yticklabels([])
    return [
        Heading(f"{num}  Is any dish type stronger than the others?"),
        Prose(text, size=8),
        Plot.natural(fig),
        Heading(
            f"Dish types at {n} players (95% intervals; rank by points per dish taken)", level=3
        ),
        Table.fitted(_type_table(r, n), 6.3),
        *_cards_blocks(r, num, n),
    ]


def _card_table(c: pl.DataFrame) -> pl.DataFrame:
    shown = pct_col(c, "completion", "completion_low", "completion_high", "completed (%) [95% CI]")
    shown = ci_col(shown, "points", "points_low", "points_high", "points when completed", ".1f")
    return fmt(
        shown.select(
            "players",
            pl.col("name").alias("dish"),
            pl.col("type_name").alias("type"),
            pl.col("ingredients").alias("ingr."),
            pl.col("base").alias("printed"),
            "taken",
            pl.col("completed").alias("done"),
            "completed (%) [95% CI]",
            "points when completed",
        ),
        {},
    )


def _cards_blocks(r: Results, num: int, n: int) -> list[Block]:
    c = r.tables.get("cards")
    if c is None or c.is_empty():
        return []
    sub = c.filter(pl.col("players") == n)
    best = sub.filter(pl.col("completed") > 0).sort("points").row(-1, named=True)
    easy = sub.filter(pl.col("taken") > 0).sort("completion").row(-1, named=True)
    hard = sub.filter(pl.col("taken") > 0).sort("completion").row(0, named=True)
    text = (
        f"Own points of every dish card at {n} players in {the_field()}: how often a seat "
        "that took it completed it, and what it scored then (its printed points, less the "
        "garbage and other types' radioactive cards in its oven, plus its type's radioactive "
        "bonus); intervals over games. "
        f"The highest-scoring completed dish is {best['name']} "
        f"({ci(best['points'], best['points_low'], best['points_high'], 'points', '.1f')}, "
        f"printed {best['base']}); the most often completed {easy['name']} "
        f"({pct(easy['completion'], easy['completion_low'], easy['completion_high'], '.0f')} "
        f"of {easy['taken']:,} taken), the least {hard['name']} "
        f"({pct(hard['completion'], hard['completion_low'], hard['completion_high'], '.0f')} "
        f"of {hard['taken']:,}; {sub['games'][0]:,} games). Every count: "
        f"{appendix_label(r, 'Dish types') or 'the appendix'}."
    )
    # a part filling most of a page: on its own, not a few of its rows left for the next
    return [
        PageBreak(),
        Heading(f"{num}  Each dish card", level=2),
        Prose(text, size=8.5),
        Heading(f"Every dish card at {n} players (95% intervals over games)", level=3),
        Table.fitted(_card_table(sub), 6.8),
    ]


def _dishes_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    out: list[Row] = []
    own = r.tables.get("own")
    if own is None:
        return out
    for x in own.iter_rows(named=True):
        out.append(
            headline(
                q,
                f"{x['players']} players, {x['type_name']}: points per dish taken over the "
                f"average dish (own points; rank {x['rank']})",
                ci(x["excess"], x["excess_low"], x["excess_high"], "points"),
                x["games"],
                x["warning"],
            )
        )
    for key, what, unit in (
        ("avoid", "restricted-play value (unrestricted − avoiding seat)", "deals"),
        ("replacement", "replacement value to its takers (printed − average dishes)", "games"),
    ):
        t = r.tables.get(key)
        if t is None:
            continue
        for x in t.iter_rows(named=True):
            out.append(
                headline(
                    q,
                    f"{x['players']} players, {x['type_name']}: {what}",
                    ci(x["value_pp"], x["value_low"], x["value_high"]),
                    x["deals"] if unit == "deals" else x["games"],
                    x["warning"],
                    unit,
                )
            )
    return out


def _dishes_cells(r: Results) -> list[Row]:
    return [
        row
        for key, what, n in (
            ("avoid", "restricted play", "deals"),
            ("replacement", "replacement", "games"),
        )
        for row in paired_cells(
            r.tables.get(key),
            lambda x, w=what, n=n: f"{x['players']}p {x['type_name']} {w} ({n})",
            n,
        )
    ]


def _dishes_appendix(r: Results, label: str) -> list[Block]:
    own = r.tables.get("own")
    if own is None:
        return []
    shown = pct_col(own, "completion", "completion_low", "completion_high", "completed (%)")
    shown = ci_col(shown, "yield", "yield_low", "yield_high", "per dish taken", ".1f")
    shown = ci_col(shown, "excess", "excess_low", "excess_high", "over average", "+.1f")
    shown = ci_col(shown, "per_seat", "per_seat_low", "per_seat_high", "points a seat-game", ".2f")
    shown = ci_col(shown, "own_pp", "own_low", "own_high", "win share from its points (pp)")
    shown = fmt(
        shown.select(
            "players",
            pl.col("type_name").alias("type"),
            "taken",
            "completed (%)",
            "per dish taken",
            "over average",
            "points a seat-game",
            pl.col("share").alias("share of points"),
            "holders",
            "win share from its points (pp)",
        ),
        {"share of points": ".1%"},
    )
    out: list[Block] = [
        Heading(f"{label} — Own points of every dish type at every count"),
        Prose(
            "Per type: dishes taken, the share completed, points per dish taken and its "
            "excess over the average dish taken, points a seat scores from the type's "
            "completed dishes per game, their share of all points, the seat-games with such a "
            "dish (holders) and the holders' win share minus their win share re-scored "
            "without the type's points (pp, clustered by game): what the points alone add to "
            "winning. 95% intervals over games."
        ),
        Table.fitted(shown, 6.3),
    ]
    c = r.tables.get("cards")
    if c is not None:
        # on a page of its own, as the dish cards of section 2
        out += [PageBreak(), Heading(f"{label} — Every dish card at every count", level=2),
                Table.fitted(_card_table(c), 6.5)]  # fmt: skip
    return out


DISHES = Section(
    "Dish types",
    _dishes_compute,
    headlines=_dishes_headlines,
    cells=_dishes_cells,
    blocks=_dishes_blocks,
    appendix_blocks=_dishes_appendix,
)
"""2: is any dish type (or card) stronger than the others?"""


# ----------------------------------------------------------------------------- 3 sabotage


def _sabotage_compute(r: Results) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if any(has_block(r.manifest, b) for b in RESTRICTED.values()):
        out["restrictions"] = sabotage.restricted_values(r.out, r.manifest)
    if has_block(r.manifest, SEATS):
        out["damage"] = sabotage.damage(r.out, SEATS)
    return out


def _spec_of(r: Results, name: str) -> str:
    block = RESTRICTED[name]
    specs = [s for s in block_specs(r.manifest, block) if s != "heuristic"]
    return specs[0] if specs else RESTRICTED_SPECS[name]


def _sabotage_blocks(r: Results, num: int) -> list[Block]:
    t, d = r.tables.get("restrictions"), r.tables.get("damage")
    if t is None and d is None:
        return []
    parts = []
    if t is not None:
        for (n,), sub in t.group_by("players", maintain_order=True):
            parts.append(
                f"At {n} players "
                + "; ".join(
                    restriction_sentence(x, _spec_of(r, x["restriction"]))
                    for x in sub.iter_rows(named=True)
                )
                + "."
            )
    text = (
        "Restricted play against the heuristic: one seat never sabotages (its sabotage "
        "threshold 1000: no sabotage is worth it), never steals (its steal threshold 1000) "
        "or sabotages whenever it can (threshold −1000), every seat in turn, on the main "
        "field's deals; its win share and score minus the unrestricted seat's on the same "
        "deals, with t intervals over deals (negative: the restriction costs it). "
        + " ".join(parts)
        + " Every garbage card, and every radioactive card of another type, in an oven was put "
        "there face down by an opponent (an owner places only its dish's ingredients, the "
        "wild and its own radioactive card), so a completed dish's penalties and an "
        "unfinished dish's bad cards are what sabotage took. "
        + (damage_sentence(d) if d is not None else "")
    )
    out: list[Block] = [Heading(f"{num}  Does sabotage pay more than building?"),
                        Prose(text, size=8.5)]  # fmt: skip
    if t is not None and not t.is_empty():
        out += [_restricted_plot(t),
                Heading("Restricted seats against the unrestricted heuristic (same deals)",
                        level=3),
                Table.fitted(_restricted_table(t), 6.2)]  # fmt: skip
    if d is not None:
        out += [Heading(f"Points lost to sabotage in {the_field()} (95% intervals over games)",
                        level=3),
                Table.fitted(_damage_table(d), 6.5)]  # fmt: skip
    return out


def _restricted_plot(t: pl.DataFrame) -> Plot:
    fig, (ax,) = _figure(5.0, 2.3)
    sub = t.sort("players", "restriction")
    labels = [f"{x['restriction']}, {x['players']}p" for x in sub.iter_rows(named=True)]
    e = sub["edge_pp"].to_numpy()
    err = np.vstack([e - sub["edge_low"].to_numpy(), sub["edge_high"].to_numpy() - e])
    yy = np.arange(sub.height)
    ax.errorbar(e, yy, xerr=err, fmt="o", color="black", ms=3.5, capsize=2)
    ax.axvline(0, color="black", lw=0.7, ls="--")
    ax.set_yticks(yy, labels, fontsize=7)
    ax.set_ylim(sub.height - 0.5, -0.5)
    ax.set_xlabel("restricted − unrestricted seat, win share pp (95% CI over deals)", fontsize=7)
    ax.tick_params(labelsize=7)
    return Plot.natural(fig)


def _restricted_table(t: pl.DataFrame) -> pl.DataFrame:
    shown = ci_col(t, "edge_pp", "edge_low", "edge_high", "win share (pp)")
    shown = ci_col(shown, "points", "points_low", "points_high", "score (points)")
    shown = ci_col(shown, "rivals", "rivals_low", "rivals_high", "others' score (points)")
    counts = {
        "its sabotages / game": "restricted_sabotages",
        "field's sabotages / game": "unrestricted_sabotages",
        "its steals / game": "restricted_steals",
        "field's steals / game": "unrestricted_steals",
    }
    return fmt(shown.select("restriction", "players", "deals", "win share (pp)", "score (points)",
                            "others' score (points)",
                            *(pl.col(c).alias(name) for name, c in counts.items())),
               dict.fromkeys(counts, ".2f"))  # fmt: skip


def _damage_table(d: pl.DataFrame) -> pl.DataFrame:
    shown = ci_col(d, "lost", "lost_low", "lost_high", "points lost / seat-game", ".2f")
    shown = pct_col(shown, "share", "share_low", "share_high", "share of dish points (%)")
    means = {
        "on completed dishes": "completed_lost",
        "on unfinished": "unfinished_lost",
        "sabotages / seat-game": "sabotages",
        "steals / seat-game": "steals",
    }
    return fmt(shown.select("players", "games", "points lost / seat-game",
                            "share of dish points (%)",
                            *(pl.col(c).alias(name) for name, c in means.items()),
                            pl.col("score").alias("mean score")),
               {**dict.fromkeys(means, ".2f"), "mean score": ".1f"})  # fmt: skip


def _sabotage_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    out: list[Row] = []
    t, d = r.tables.get("restrictions"), r.tables.get("damage")
    for x in t.iter_rows(named=True) if t is not None else []:
        out.append(
            paired_headline(
                q,
                f"{x['players']} players: a seat that {x['restriction']}, minus the "
                "unrestricted seat on the same deals",
                x,
            )
        )
    for x in d.iter_rows(named=True) if d is not None else []:
        out.append(
            headline(
                q,
                f"{x['players']} players: share of dish points lost to sabotage",
                ci(100 * x["share"], 100 * x["share_low"], 100 * x["share_high"], "%", ".1f"),
                x["games"],
                x["warning"],
            )
        )
    return out


def _sabotage_cells(r: Results) -> list[Row]:
    return paired_cells(
        r.tables.get("restrictions"), lambda x: f"{x['players']}p {x['restriction']} (deals)"
    )


SABOTAGE = Section(
    "Sabotage and steals",
    _sabotage_compute,
    headlines=_sabotage_headlines,
    cells=_sabotage_cells,
    blocks=_sabotage_blocks,
)
"""3: does sabotage pay more than building?"""


# ----------------------------------------------------------------------------- 4 radioactive


def _radio_compute(r: Results) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if has_block(r.manifest, SEATS):
        out["radio"] = radioactive.contribution(r.out, SEATS)
    if any(has_block(r.manifest, b) for b in VARIANTS.values()):
        out["radio_changes"] = radioactive.variant_changes(r.out, r.manifest)
    return out


def _changes_table(ch: pl.DataFrame) -> pl.DataFrame:
    names = {**radioactive.MEASURES, radioactive.DIFFERS: "deals with other scores (%)"}
    rows = []
    for x in ch.iter_rows(named=True):
        m = x["measure"]
        pos = m.startswith("pos")
        share = pos or m == radioactive.DIFFERS
        scale = 100 if share else 1
        f = "+.1f" if share else "+.2f"
        rows.append(
            {
                "variant": x["variant"],
                "players": str(x["players"]),
                "deals": f"{x['deals']:,}",
                "measure": f"position {m[3:]}'s win share (%)" if pos else names.get(m, m),
                "default": "—" if m == radioactive.DIFFERS else f"{scale * x['default']:.2f}",
                "variant value": f"{scale * x['variant_value']:.2f}",
                "change [95% CI]": ci(
                    scale * x["change"],
                    scale * x["low"],
                    scale * x["high"],
                    "",
                    ".1f" if m == radioactive.DIFFERS else f,
                ),
            }
        )
    return pl.DataFrame(rows)


def _radio_blocks(r: Results, num: int) -> list[Block]:
    contrib, ch = r.tables.get("radio"), r.tables.get("radio_changes")
    if contrib is None and ch is None:
        return []
    parts = []
    if contrib is not None:
        parts.append(
            "In the main field a seat's matching radioactive cards add "
            + "; ".join(
                f"{x['players']}p "
                f"{ci(x['bonus'], x['bonus_low'], x['bonus_high'], 'points', '.2f')}"
                f" ({100 * x['share']:.1f}% of its score)"
                for x in contrib.iter_rows(named=True)
            )
            + " a game, and other types' radioactive cards, slipped in as sabotage, take "
            + "; ".join(
                f"{x['players']}p "
                f"{ci(-x['penalty'], -x['penalty_high'], -x['penalty_low'], 'points', '.2f')}"
                for x in contrib.iter_rows(named=True)
            )
            + " (t intervals over games)."
        )
    variants = list(dict.fromkeys(ch["variant"])) if ch is not None else []
    counts = sorted(ch["players"].unique()) if ch is not None else []
    text = (
        "Each radioactive card gives +5 to the dish of its type and counts as garbage, with "
        "its printed penalty, in any other dish. "
        + " ".join(parts)
        + " The variants replay the main field's deals (same deck, card by card): without "
        "radioactive cards (each one a garbage card of its printed penalty, in the same place "
        "of the deck: no dish gains a bonus, no owner can place one), and with the rule "
        "radioactive_bonus = each (every matching card in an oven counts, not only the "
        "first). Paired by deal, t intervals over deals (Wilson for the share of deals whose "
        "scores changed). " + " ".join(variant_sentence(ch, v, n) for v in variants for n in counts)
    )
    out: list[Block] = [Heading(f"{num}  What do the radioactive cards do?"),
                        Prose(text, size=8.5)]  # fmt: skip
    if ch is not None and not ch.is_empty():
        out += [Heading("Each variant against the default game on the same deals", level=3),
                Table.fitted(_changes_table(ch), 6.8)]  # fmt: skip
    return out


def _radio_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    ch = r.tables.get("radio_changes")
    if ch is None:
        return []
    out = []
    for x in ch.filter(pl.col("measure").is_in(["score", "margin"])).iter_rows(named=True):
        out.append(
            headline(
                q,
                f"{x['players']} players, {x['variant']}: change of the "
                f"{radioactive.MEASURES[x['measure']]}",
                ci(x["change"], x["low"], x["high"], "points", "+.2f"),
                x["deals"],
                x["warning"],
                "deals",
            )
        )
    return out


RADIO = Section("Radioactive cards", _radio_compute, headlines=_radio_headlines,
                blocks=_radio_blocks)  # fmt: skip
"""4: what do the radioactive cards do?"""


# ----------------------------------------------------------------------------- 5 card sets


def _checks(r: Results, tables: dict, rankings: dict) -> pl.DataFrame:
    """Every verdict the card-set section recomputes, judged across the alternatives."""
    others = [x for x in tables if x != DEFAULT_SET]
    rows = []

    def add(check: str, conds: list) -> None:
        main = [c for c in conds if c.name == DEFAULT_SET]
        conds = [c for c in conds if c.name != DEFAULT_SET]
        label, detail, robust, s = judged(conds, others)
        # covering 0 on assumed v1 and on every alternative: consistently no effect
        level = bool(conds) and all(sign(c.low, c.high) == 0 for c in [*main, *conds])
        rows.append(
            {
                "check": check,
                "label": label,
                "detail": detail,
                "robust": robust,
                "level": level,
                "sign": s,
                "conditions": len(conds),
            }
        )

    main = tables.get(DEFAULT_SET)
    if main is None:
        return pl.DataFrame()
    for e in seats.edges(main).iter_rows(named=True):
        n = int(e["players"])
        add(
            f"first player's edge at {n} players",
            cardsets.conditions(tables, "first", n).get(n, []),
        )
        add(f"last player's edge at {n} players", cardsets.conditions(tables, "last", n).get(n, []))
    own = rankings.get(DEFAULT_SET)
    if own is not None and not own.is_empty():
        counts = sorted(own["players"].unique())
        n = MAIN if MAIN in counts else counts[-1]
        sub = own.filter(pl.col("players") == n).sort("rank")
        for x, what in ((sub.row(0, named=True), "highest"), (sub.row(-1, named=True), "lowest")):
            add(
                f"{x['type_name']} ({what} points per dish taken on assumed v1) against the "
                f"average dish at {n} players",
                cardsets.type_conditions(rankings, x["type_name"], n),
            )
    return pl.DataFrame(
        rows,
        schema={
            "check": pl.String,
            "label": pl.String,
            "detail": pl.String,
            "robust": pl.Boolean,
            "level": pl.Boolean,
            "sign": pl.Int64,
            "conditions": pl.Int64,
        },
    )


def _sets_compute(r: Results) -> dict[str, Any]:
    if len(CARD_VARIANTS.blocks(r.manifest)) < 2:
        return {}
    tables = cardsets.position_tables(r.out, r.manifest)
    rankings = cardsets.type_rankings(r.out, r.manifest)
    return {
        "set_positions": tables,
        "set_edges": cardsets.position_edges(tables),
        "set_rankings": rankings,
        "set_damages": cardsets.damages(r.out, r.manifest),
        "set_checks": _checks(r, tables, rankings),
    }


def _sets_summary(r: Results, n: int) -> pl.DataFrame:
    base = block_cards(r.manifest, SEATS)
    rows = []
    for name, block in CARD_VARIANTS.blocks(r.manifest).items():
        cards = block_cards(r.manifest, block)
        own = r.set_rankings[name].filter(pl.col("players") == n).sort("rank")
        dmg = r.set_damages.filter((pl.col("card_set") == name) & (pl.col("players") == n))
        rows.append(
            {
                "card set": name,
                "deck": str(len(cards.deck)),
                "what it changes": "the default"
                if name == DEFAULT_SET
                else card_set_changes(cards, base).replace(" (assumed v1 in brackets)", ""),
                f"types by points per dish taken, {n}p": " > ".join(own["type_name"].to_list()),
                f"lost to sabotage, {n}p": (
                    pct(dmg["share"][0], dmg["share_low"][0], dmg["share_high"][0])
                    if dmg.height
                    else "—"
                ),
            }
        )
    return pl.DataFrame(rows)


def _sets_blocks(r: Results, num: int) -> list[Block]:
    tables = r.tables.get("set_positions")
    if not tables:
        return []
    checks = r.set_checks
    e = r.set_edges
    names = list(tables)
    k = int(checks["robust"].sum())
    lines = "; ".join(
        f"{x['check']}: "
        + ("not distinguishable from 0 on any card set" if x["level"] else x["label"])
        for x in checks.iter_rows(named=True)
    )
    counts = sorted(e["players"].unique())
    n = MAIN if MAIN in counts else counts[-1]
    text = (
        CARDS_NOTE + f" The study replays the main field (the heuristic in every seat, at "
        f"{listing(counts)} players) on {len(names) - 1} alternative card sets, each a "
        "plausible reading of what the rulebook leaves open (sims/games/horno/data/"
        "cards-<name>.toml; docs/rules/horno.md, 'Alternative card sets'); the table says "
        "what each changes. Their decks differ, so their games are independent of the main "
        "field's and each set's numbers stand on its own games "
        f"({listing(sorted({f'{x:,}' for x in e['games']}))} games a count). A check is robust "
        "when its interval is clear of 0 with the same sign on every alternative (assumed v1 "
        f"itself is the main field's estimate): {k} of {checks.height} are. {lines}."
    )
    fig, axes = _figure(6.8, 3.0, 2)
    styles = _set_styles(names)
    for ax, which in zip(axes, ("first", "last"), strict=True):
        plot_conditions(cardsets.conditions(tables, which), ax,
                        f"{which} player's edge, pp (95% CI)", names, styles)  # fmt: skip
    axes[0].get_legend().remove()
    return [
        Heading(f"{num}  Do the answers hang on the assumed card list?"),
        Prose(text, size=8),
        Plot.natural(fig),
        Heading("Every card set: what it changes, the dish types' ranking and sabotage", level=3),
        Table.fitted(_sets_summary(r, n), 6.3),
        PageBreak(),  # as the dish cards: a part filling most of a page starts its own
        Heading(f"{num}  The seat edges and dish types on every card set", level=2),
        Prose(
            "Per card set and count, the first and last player's edges over the "
            "fair share and the largest (pp, 95% intervals over games); then each dish "
            f"type's points per dish taken over the average dish at {n} players (points, "
            "95% intervals over games).",
            size=8.5,
        ),
        Table.fitted(position_edges_table(e, key="card_set").rename({"card_set": "card set"}), 6.5),
        Heading(f"Points per dish taken over the average dish, {n} players", level=3),
        Table.fitted(_excess_table(r, n), 6.5),
    ]


def _excess_table(r: Results, n: int) -> pl.DataFrame:
    """Each dish type's points per dish taken over the average dish on every card set."""
    types = list(dict.fromkeys(t for own in r.set_rankings.values() for t in own["type_name"]))
    rows = []
    for name, own in r.set_rankings.items():
        sub = own.filter(pl.col("players") == n)
        row = {"card set": name}
        for t in types:
            x = sub.filter(pl.col("type_name") == t)
            row[t] = (
                ci(x["excess"][0], x["excess_low"][0], x["excess_high"][0], "", "+.1f")
                if x.height
                else "—"
            )
        rows.append(row)
    return pl.DataFrame(rows)


def _sets_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    checks = r.tables.get("set_checks")
    tables = r.tables.get("set_positions") or {}
    if checks is None:
        return []
    games = sum(int(t["games"].sum()) for name, t in tables.items() if name != DEFAULT_SET)
    return [
        headline(
            q,
            f"{x['check']}: across the alternative card sets",
            x["label"],
            games,
            "" if x["robust"] else "not robust",
        )
        for x in checks.iter_rows(named=True)
    ]


SETS = Section("Card sets", _sets_compute, headlines=_sets_headlines, blocks=_sets_blocks)
"""5: do the answers hang on the assumed card list?"""


# ----------------------------------------------------------------------------- 6 count

COUNT_LABELS = {
    "dishes": "dishes completed per seat",
    "sabotages": "sabotages per seat",
    "lost": "points lost to sabotage per seat",
}


def _horno_measures(n: int, players: pl.DataFrame, games: pl.DataFrame) -> dict[str, tuple]:
    g = players.height // n

    def per_game(expr: pl.Expr) -> np.ndarray:
        return players.select(expr.cast(pl.Float64)).to_series().to_numpy().reshape(g, n).mean(1)

    lost = -(pl.col("garbage_penalty") + pl.col("radioactive_penalty")) + pl.col("unfinished_bad")
    return {
        "dishes": mean_interval(per_game(pl.col("dishes_completed"))),
        "sabotages": mean_interval(per_game(pl.col("sabotages"))),
        "lost": mean_interval(per_game(lost)),
    }


def _count_about(r: Results, c: pl.DataFrame) -> str:
    return (
        "The score is a seat's points at the end. Mean score: "
        f"{count_values(c, 'score')}; winning margin: {count_values(c, 'margin')} points; "
        f"shared wins: {count_values(c, 'shared_win', 100)}% of games; dishes completed per "
        f"seat: {count_values(c, 'dishes', f='.2f')}; points lost to sabotage per seat: "
        f"{count_values(c, 'lost', f='.2f')}."
    )


COUNT = player_count_section(
    SEATS,
    extra=_horno_measures,
    labels=COUNT_LABELS,
    headlines=(
        ("shared_win", "shared wins", "%", ".1f"),
        ("margin", "winning margin", "points", ".1f"),
        ("dishes", "dishes completed per seat", "dishes", ".2f"),
    ),
    about=_count_about,
    field_name=the_field(),
)
"""6: player count (the generic measures and Horno's)."""


GLOSSARY = {
    "own points": "Of a dish type: what its dishes score for the seats that take them, from "
    "the finished games — points per dish taken (a completed dish's score, an unfinished "
    "one's end points) and per completed dish, the completion rate, and the holders' win "
    "share minus their win share re-scored without the type's points, everything else "
    "fixed. It ignores what a seat gave up to take the type.",
    "value to the taker": "Horno's replacement estimand: the same deals replayed with a "
    "type's dishes made average dishes; for the seats that completed a dish of the type in "
    "the real game (its takers), their win share (and score) there minus in the replay. It "
    "includes whatever they did differently, so what a seat gave up for the type counts.",
    "turn position": "A seat's place in each round's turn order: 0 plays "
    "first. Seat s plays in position s unless the rule first_player changes who starts.",
    "first player / last player": "The seat in position 0 / in the last position (n − 1). "
    "Its edge is its win share minus the fair share.",
    "heuristic field": f"The main field: every seat plays plain heuristic (block {SEATS}), "
    "which at n players is the shipped preset heuristic-eqN.",
    "dish taken": "A dish card a seat put in its oven: completed (scored at once) or still "
    "in its oven at the end (unfinished: +2 a correct card, −1 a bad one).",
    "points per dish taken": "Own points of a dish type: the points of its dishes taken "
    "(a completed one's score, an unfinished one's end points) over the dishes taken; its "
    "excess over the average dish is the same for every type pooled, subtracted.",
    "average dish": "A dish worth the card set's mean dish points (13 in assumed v1), its "
    "ingredients unchanged: the replacement estimand puts average dishes in place of one "
    "type's dishes.",
    "restricted seat (avoid=t)": "heuristic(avoid=t): never takes a dish of type t while "
    "another type is open, otherwise the heuristic. Its win share minus an unrestricted "
    "seat's on the same deals is what the type's option is worth (the sign flipped).",
    "takers": "In the replacement estimand, the seats that completed a dish of the type in "
    "the real game; their win share there minus in the replay with average dishes.",
    "points lost to sabotage": "The penalties of the garbage and other types' radioactive "
    "cards in a seat's completed dishes, plus the bad cards of its unfinished dish: every "
    "such card was put there face down by an opponent.",
    "assumed v1": "The default card set, slicelab's reading of the unpublished card list "
    "(sims/games/horno/data/cards-v1.toml).",
    "alternative card set": "Another plausible reading of the card list "
    "(sims/games/horno/data/cards-<name>.toml, docs/rules/horno.md): harsher or milder "
    "penalties, more garbage, two wilds, flatter or steeper dish points, fewer ingredient "
    "copies.",
}
"""Horno's terms, merged with the generic glossary."""


REPORT = GameReport(
    sections=(
        SEATS_SECTION,
        DISHES,
        SABOTAGE,
        RADIO,
        SETS,
        COUNT,
        ratings_section(groups=LADDER, panel_height=0.22),
        sample_size_section(order=("Seats", "Dish types", "Sabotage and steals")),
    ),
    blocks=BLOCKS,
    example="studies/horno-balance.toml",
    provenance=_provenance,
    notes=_notes,
    verdicts=verdicts.verdicts,
    glossary=GLOSSARY,
    describe=describe,
    skill=SkillLevels(
        (
            Level("random", "random", "seats-random"),
            Level("greedy", "greedy", "seats-greedy"),
            Level("the heuristic", "heuristic", "seats"),
        ),
        main="heuristic",
        first_edges=seats.first_edges,
    ),  # fmt: skip
)
"""Horno's balance report."""
