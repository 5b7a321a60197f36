"""Pizza Theory's balance report: the study blocks it reads, its verdicts, its sections
(:data:`REPORT`, found by :func:`analysis.report.game_report`).

1. Seats: win share by seat and starting turn position at 2 and 3 players, in the main
   field, the mixed player's (``seats``), and in the random, heuristic and greedy fields
   (``seats-random``, ``seats-heuristic``, ``seats-greedy``; the last two are one game each
   at 3 players, where the game has no chance and those players draw nothing);
2. Game length: rounds per game and how games end (a win, the run-out tiebreak, a draw at
   the round bound, a neutral win), per field and count;
3. Safety rule: what playing the main field's deals without it changes (``safety-off``
   against ``seats``, paired by deal), and how often it keeps a topping, per field and count;
4. First placement: restricted play (``blind``, a seat playing ``mixed(blind=1)``, paired
   by deal with ``seats``);
5. Board shape: each shipped alternative board against ``hex-37`` (``board-<name>``
   against ``seats``; ``board-<name>-random`` against ``seats-random``);
6. Player count (``seats``), 7. Ratings (``ladder``, ``ladder-random``) and 8. Sample
   size: the generic sections, the first with the rounds a game lasts added.

The real board's layout is not published: the default board is an assumption, and the
report says so where it matters. Every sentence of interpretation is computed from the
numbers it states (:mod:`analysis.prose`, :mod:`analysis.pizzatheory.prose`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from analysis.blocks import block_specs, has_block
from analysis.content import Block, Heading, PageBreak, Prose, Table
from analysis.content import panels as _figure
from analysis.estimates import edge
from analysis.formats import EMPTY, ci, ci_col, fmt
from analysis.load import block_frames
from analysis.pizzatheory import boards, length, opening, prose, safety, seats, verdicts
from analysis.pizzatheory.common import (
    BOARD_FIELDS,
    BOARD_VARIANTS,
    DEFAULT_BOARD,
    ENDINGS,
    FIELDS,
    MAIN,
    MAIN_FIELD,
    NO_CHANCE,
    NO_DRAWS,
    OPENING_FIELDS,
    SAFETY_FIELDS,
    chance_fields,
    describe,
    distinct_games,
    mixed_status,
    preset_status,
    rule_value,
    short,
    the_field,
)
from analysis.prose import edge_sentence, listing
from analysis.robust import Condition, judge, plot_conditions
from analysis.sections import (
    GameReport,
    Results,
    Row,
    Section,
    appendix_label,
    at_position,
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
    scaled_ci_col,
)
from analysis.skill import Level, SkillLevels
from analysis.stats import mean_interval

DET = "deterministic"
"""The column of a table that says its block's games are all the same (a cell there is
the value alone, no interval)."""
RATING_BLOCKS = ("ladder", "ladder-random")
"""The rotated blocks the ratings are fitted on."""
BLOCKS = tuple(
    dict.fromkeys(
        [
            *FIELDS.values(),
            *BOARD_VARIANTS.needs,
            *(b for pair in OPENING_FIELDS.values() for b in pair),
            *(b for pair in SAFETY_FIELDS.values() for b in pair),
            *RATING_BLOCKS,
            *(f"skill-vs-{level}" for level in ("random", "greedy", "heuristic", "mixed")),
        ]
    )
)
"""Study blocks the report reads (see studies/pizzatheory-balance.toml), from the roles of
:mod:`analysis.pizzatheory.common`: every field's seat block, every board block, the blind
block, the ladders and the skill matchups; a study without one gets the questions that read
it listed as unanswered (:func:`analysis.report.unanswered`)."""
POSITION_LABEL = "starting position (0 = first in round 1)"
FIELD_STYLE = {
    "mixed field": ("black", "o"),
    "random field": ("0.5", "^"),
    "heuristic field": ("tab:purple", "s"),
    "greedy field": ("tab:green", "D"),
}
BOARD_COLOURS = {
    DEFAULT_BOARD: "black",
    "hex-37-mid": "tab:blue",
    "round-31": "tab:orange",
    "hex-61": "tab:red",
}
BOARD_NOTE = (
    "The real board's layout is not published (only that it is round, with six parallel "
    "cuts per player and two start spaces each): the default board hex-37 is slicelab's "
    "assumption, a 37-space hexagon (docs/rules/pizzatheory.md, 'The board')."
)


def _exact(c: Condition) -> bool:
    return bool(np.isfinite(c.low) and c.low == c.high)


def _games_col(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.with_columns(
        pl.struct("games", "distinct", "deterministic")
        .map_elements(
            lambda s: (
                f"{s['games']:,} (one game)"
                if s["deterministic"]
                else f"{s['games']:,}"
                + (f" ({s['distinct']:,} distinct)" if 0 < s["distinct"] < s["games"] else "")
            ),
            return_dtype=pl.String,
        )
        .alias("games (distinct)")
    )


# ----------------------------------------------------------------------------- notes


def _provenance(m: dict) -> list[tuple[str, str]]:
    fps = list(m["fingerprints"].values())
    found = sorted({(f.get("board") or DEFAULT_BOARD, f.get("board_digest", "?")) for f in fps})
    boards_ = "; ".join(
        f"{b} (digest {d})" + (" — the default, an assumption" if b == DEFAULT_BOARD else "")
        for b, d in found
    )
    return [
        rules_row(m, "docs/rules/pizzatheory.md"),
        ("Boards", boards_ or DEFAULT_BOARD),
        ("Strategies", "docs/strategies/pizzatheory.md"),
    ]


def _deterministic_blocks(r: Results) -> list[str]:
    """``seats (3 players)``: every block and count whose games are all one game."""
    found = []
    groups = dict.fromkeys(a.get("group", a["name"]) for a in r.manifest["study"]["arms"])
    for g in groups:
        d = distinct_games(*block_frames(r.out, g))
        for x in d.filter(pl.col("deterministic")).iter_rows(named=True):
            found.append(f"{g} ({x['players']} players, {x['games']:,} games)")
    return found


def _notes(r: Results) -> list[str]:
    m = r.manifest
    main = FIELDS[MAIN_FIELD]
    players = (
        f"Players. The main field is {the_field()}: unless a section says otherwise every "
        f"seat plays {block_players(r, main)} (block {main}; "
        "docs/strategies/pizzatheory.md). "
        f"{mixed_status()} The other fields: "
        + fields_text(r, {k: v for k, v in FIELDS.items() if k != MAIN_FIELD}, short)
        + f". {preset_status()} A conclusion about weak players is weak: where the fields "
        "disagree, trust neither blindly."
    )
    det = _deterministic_blocks(r)
    no_draws = listing(short(f) for f in NO_DRAWS)
    determinism = (
        f"Determinism. The {listing(NO_CHANCE)}-player game has no chance (no deal, no die) "
        f"and the {no_draws} players draw nothing, so at {listing(NO_CHANCE)} players every "
        f"game of a field of one of them repeats that field's first game: "
        + (
            f"in this dataset every game of {listing(det)} is the same game. Their numbers are "
            "exact for those fields (the interval is the point) but describe one game, not a "
            "distribution; the tables mark them 'one game', the verdicts name them as one "
            "game and never count them for or against an interval. The sampled estimates come "
            f"from the fields with chance: {the_field()} (its cuts are draws from its mix), "
            "random play, and the blind seat (its first placement is a draw)."
            if det
            else "no block of this dataset is deterministic (every block has games that differ)."
        )
    )
    pairing = (
        "Pairing. Every block shares the study's seed, so game i of every block draws the "
        "same streams (the neutral die at 2 players, each seat's own stream): the restricted "
        "seat of blind is compared with the seat it replaces in seats on the same deals, "
        "every seat in turn (rotated blocks), and safety-off plays the deals of seats "
        "without the safety rule; the deal is the unit of those intervals. The boards are "
        "compared by independent games."
    )
    board = BOARD_NOTE + (
        " The board-shape section measures how much the answers depend on that choice."
    )
    rounds = {
        rule_value(m, g, "max_rounds")
        for g in dict.fromkeys(a.get("group", a["name"]) for a in m["study"]["arms"])
    }
    rules = (
        "Rulings. Games still running after "
        + listing(f"{b:,}" for b in sorted(rounds))
        + " rounds are draws shared by every seat (rule max_rounds); the run-out tiebreak is "
        "a ruling, off by default, and applies only when two or more players run out in the "
        "same round; the safety rule is on (docs/rules/pizzatheory.md). Labels. Every block "
        "cycles the first seat by game (cycle_first_seat), and no strategy breaks a tie by "
        "colour (where the two other colours tie for the lead the swing weighs both alike), "
        "so relabelling the colours changes no decision."
    )
    return [players, determinism, pairing, board, rules]


# ----------------------------------------------------------------------------- 1 seats


def _seats_compute(r: Results) -> dict[str, Any]:
    tables = seats.field_positions(r.out, r.manifest)
    if not tables:
        return {}
    out: dict[str, Any] = {
        **position_results(tables, seats.edges),
        "first_conditions": seats.conditions(tables, "first"),
        "last_conditions": seats.conditions(tables, "last"),
        "first_points": seats.conditions(tables, "first", deterministic=True),
        "last_points": seats.conditions(tables, "last", deterministic=True),
        "seat_block": FIELDS[MAIN_FIELD] if MAIN_FIELD in tables else None,
    }
    if MAIN_FIELD in tables:
        out["by_seat"] = seats.position_table(r.out, FIELDS[MAIN_FIELD], by="seat")
    return out


def _position_table(t: pl.DataFrame) -> pl.DataFrame:
    return position_share_table(_games_col(t), {"toppings": ("toppings at end", ".2f")},
                                "games (distinct)", DET)  # fmt: skip


def _seat_text(r: Results, main: pl.DataFrame) -> str:
    e = seats.edges(main)
    same = bool(e["same_as_seat"].all())
    counts = sorted(main["players"].unique())
    shared = listing(
        f"{100 * x['shared']:.1f}% at {x['players']} players" for x in e.iter_rows(named=True)
    )
    parts = []
    for x in e.iter_rows(named=True):
        if x["deterministic"]:
            parts.append(prose.deterministic_sentence(main, x["players"], the_field()))
        else:
            s = edge_sentence(x, first="the first starter")
            parts.append(s[:1].upper() + s[1:] + ".")
    text = (
        f"The main field, {the_field()}: every seat plays "
        f"{block_players(r, FIELDS[MAIN_FIELD])} (block {FIELDS[MAIN_FIELD]}). A seat's "
        "starting position is its turn position in round 1: 0 places first; at 3 players the "
        "positions rotate every round, at 2 the first player alternates. "
        + (
            "In every game here the starting position is the seat (rule first_seat = 0), so "
            "win share by seat is win share by position. "
            if same
            else "The starting position is not always the seat (rule first_seat; under "
            "cycle_first_seat game i starts with seat i mod n, so every colour starts first "
            "equally often and no answer rests on one colour order): the appendix has both "
            "tables. "
        )
        + "Each game has one seat in each position, so intervals are over games (Wilson). A "
        "game every seat shares — a draw at the round bound or, at 2 players, the neutral "
        "colour filling the board — gives each seat won = 1, so 1/n of the win, the fair "
        f"share, and so pull every edge towards 0: {shared} of the games here. "
        + " ".join(parts)
        + f" The same question with other players: the next page. Counts: {listing(counts)}."
    )
    return text


def _seats_blocks(r: Results, num: int) -> list[Block]:
    tables = r.tables.get("positions")
    if not tables or MAIN_FIELD not in tables:
        return []
    main = tables[MAIN_FIELD]
    fig, (ax,) = _figure(6.9, 4.0)
    plot_positions(main, ax, POSITION_LABEL, "starting position")
    return [
        *figure_part(f"{num}  Do the seat and the starting position matter?", _seat_text(r, main),
                     fig, f"Win share by starting position, {the_field()} (95% intervals over "
                     "games)", _position_table(main), 7),
        *_robust_blocks(r, num),
    ]  # fmt: skip


def _judged_lines(r: Results, key: str, what: str) -> str:
    """Per count: where the fields with chance put an edge, judged across them, and the
    deterministic fields named as one game (never counted for or against)."""
    found = r.tables.get(key, {})
    tables = r.positions
    lines = []
    for n in sorted({*found, *(int(p) for t in tables.values() for p in t["players"].unique())}):
        det = seats.deterministic_fields(tables, n)
        conds = [c for c in found.get(n, []) if c.name not in det]
        label, _, _, _ = prose.judged(conds, chance_fields(n, det), det)
        line = f"at {n} players {prose.field_signs(conds)} ({label})" if conds else ""
        if det:
            one = f"one game, counted neither way: {listing(short(d) for d in det)}"
            line = f"{line[:-1]}; {one})" if line else f"at {n} players only {one}"
        if line:
            lines.append(line)
    text = "; ".join(lines)
    return f"{what[:1].upper()}{what[1:]}: {text}" if text else ""


def _edges_table(r: Results) -> pl.DataFrame:
    return position_edges_table(_games_col(r.position_edges), "starter", games="games (distinct)",
                                exact=DET)  # fmt: skip


def _robust_blocks(r: Results, num: int) -> list[Block]:
    first, last = r.tables.get("first_points", {}), r.tables.get("last_points", {})
    if not first:
        return []
    text = (
        "The first starter's edge (position 0's win share minus the fair share, pp) and the "
        "last starter's, 95% intervals over games, in every field the study plays: "
        + fields_text(r, FIELDS, short)
        + ". A verdict is robust only when the interval of every field with chance at the "
        "count excludes 0 with the same sign. Open markers: a deterministic field at that "
        "count (one game replayed: its value is exact, it has no interval, and it counts "
        "neither for nor against). "
        + _judged_lines(r, "first_conditions", "the first starter's edge is")
        + ". "
        + _judged_lines(r, "last_conditions", "the last starter's edge is")
        + "."
    )
    fig, axes = _figure(6.6, 3.3, 2)
    for ax, found, what in zip(axes, (first, last), ("first", "last"), strict=True):
        plot_conditions(found, ax, f"{what} starter's edge, pp (95% CI)", list(FIELDS),
                        FIELD_STYLE, hollow=_exact)  # fmt: skip
    axes[0].get_legend().remove()
    # the seats part sends the reader to "the next page" for this one
    return [PageBreak(), *figure_part(
        f"{num}  Does the starting position's edge hold with other players?", text, fig,
        "Starting-position edges over the fair share in every field (one game: deterministic)",
        _edges_table(r), 7, level=2)]  # fmt: skip


def _seats_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    out: list[Row] = []
    e = r.tables.get("position_edges")
    if e is None:
        return out
    first = r.tables.get("first_conditions", {})
    for x in e.iter_rows(named=True):
        n = x["players"]
        one = seats.deterministic_fields(r.positions, n)
        j = judge([c for c in first.get(n, []) if c.name not in one], chance_fields(n, one))
        det = " (one game)" if x["deterministic"] else ""
        warn = "deterministic: one game" if x["deterministic"] else ""
        across = "not counted across fields" if x["deterministic"] else f"across fields: {j.label}"
        out.append(
            headline(
                q,
                f"{x['players']} players, {x['field']}{det}: first starter's "
                f"edge over the fair share ({across})",
                prose.value(x["first_pp"], x["first_low"], x["first_high"], exact=True)
                if x["deterministic"]  # one game, not an estimate
                else edge(
                    x["first_pp"],
                    x["first_low"],
                    x["first_high"],
                    x["games"],
                    "the first starter",
                    n,
                    field=x["field"],
                ),  # fmt: skip
                x["games"],
                warn,
            )
        )
        out.append(
            headline(
                q,
                f"{x['players']} players, {x['field']}{det}: last starter's "
                "edge over the fair share",
                prose.value(x["last_pp"], x["last_low"], x["last_high"], exact=True)
                if x["deterministic"]  # one game, not an estimate
                else edge(
                    x["last_pp"],
                    x["last_low"],
                    x["last_high"],
                    x["games"],
                    "the last starter",
                    n,
                    field=x["field"],
                ),  # fmt: skip
                x["games"],
                warn,
            )
        )
    return out


def _seats_cells(r: Results) -> list[Row]:
    return position_cells(r.tables.get("positions") or {}, short)


def _seats_appendix(r: Results, label: str) -> list[Block]:
    # no widths: the typesetter sizes the columns by their cells
    return position_appendix_blocks(
        r, label, _position_table, short=short, what="starting position", widths=[],
        intro="Every field's win share by starting position with its 95% "
        "interval over games (one game: a deterministic field).",
        seat_widths=[], main=the_field(),
    )  # fmt: skip


SEATS = Section("Seats", _seats_compute, headlines=_seats_headlines, cells=_seats_cells,
                blocks=_seats_blocks, appendix_blocks=_seats_appendix)  # fmt: skip
"""1: do the seat and the starting turn position matter?"""


# ----------------------------------------------------------------------------- 2 length


def _length_compute(r: Results) -> dict[str, Any]:
    lengths, endings = length.game_length(r.out, r.manifest)
    if lengths.is_empty():
        return {}
    hist = {
        name: length.rounds_histogram(r.out, b)
        for name, b in FIELDS.items()
        if has_block(r.manifest, b)
    }
    return {"lengths": lengths, "endings": endings, "rounds_hist": hist}


LINE_STYLES = {2: "--", 3: "-"}


def _plot_rounds(hist: dict[str, pl.DataFrame], lengths: pl.DataFrame, ax) -> None:
    det = {(f, n) for f, n in lengths.filter(pl.col("deterministic")).select("field", "players")
           .iter_rows()}  # fmt: skip
    for name, h in hist.items():
        colour = FIELD_STYLE.get(name, ("0.5", "^"))[0]
        for (n,), sub in h.group_by("players", maintain_order=True):
            if (name, n) in det:
                continue  # one game: a spike at 100%, in the table instead
            share = 100 * sub["games"].to_numpy() / sub["games"].sum()
            ax.plot(
                sub["rounds"],
                share,
                ls=LINE_STYLES.get(int(n), ":"),
                color=colour,
                marker="o",
                ms=2.5,
                lw=1,
                label=f"{short(name)} {n}p",
            )
    ax.set_xlabel("rounds in the game", fontsize=8)
    ax.set_ylabel("% of games", fontsize=8)
    ax.set_title("Rounds per game (solid: 3 players, dashed: 2;\nfields of one game: in the "
                 "table)", fontsize=8)  # fmt: skip
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=6, loc="upper right", frameon=False)


def _plot_endings(endings: pl.DataFrame, ax) -> None:
    keys = endings.select("field", "players").unique(maintain_order=True)
    colours = {0: "#4c72b0", 1: "#dd8452", 2: "#c44e52", 3: "#8172b3"}
    labels = [f"{short(f)} {n}p" for f, n in keys.iter_rows()]
    bottom = np.zeros(keys.height)
    for code, label in ENDINGS.items():
        vals = []
        for f, n in keys.iter_rows():
            x = length.ending_of(endings, f, n, code)
            vals.append(100 * x["share"] if x else 0.0)
        ax.bar(range(keys.height), vals, 0.7, bottom=bottom, color=colours[code], label=label)
        bottom += np.array(vals)
    ax.set_xticks(range(keys.height), labels, fontsize=6, rotation=45, ha="right")
    ax.set_ylabel("% of games", fontsize=8)
    ax.set_ylim(0, 100)
    ax.set_title("How games end", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)


def _length_table(lengths: pl.DataFrame, endings: pl.DataFrame) -> pl.DataFrame:
    shown = _games_col(
        scaled_ci_col(
            lengths, "rounds", "rounds_low", "rounds_high", "rounds [95% CI]", ".2f", exact=DET
        )  # fmt: skip
    )
    rows = []
    for x in shown.iter_rows(named=True):
        row = {
            "field": short(x["field"]),
            "players": str(x["players"]),
            "games (distinct)": x["games (distinct)"],
            "rounds [95% CI]": x["rounds [95% CI]"],
            "median / 90% / max": f"{x['median']:g} / {x['p90']:g} / {x['max']}",
        }
        for code, label in ENDINGS.items():
            e = length.ending_of(endings, x["field"], x["players"], code)
            row[label] = EMPTY if e is None else f"{e['count']:,} ({100 * e['share']:.1f}%)"
        rows.append(row)
    return pl.DataFrame(rows)


def _length_blocks(r: Results, num: int) -> list[Block]:
    lengths = r.tables.get("lengths")
    if lengths is None:
        return []
    endings = r.endings
    where = appendix_label(r, "Game length")
    text = (
        "Every field's uniform block (the seat pages' games). A game ends at the end of the "
        "round in which a player has all its toppings on the board (a win), by the run-out "
        "tiebreak when that ruling is on, as a draw when it reaches the round bound, or at 2 "
        "players when the neutral colour's toppings are all on the board first (both players "
        "lose). Means with t intervals over games; shares of games with Wilson intervals in "
        f"the appendix{f' ({where})' if where else ''}. "
        + prose.length_sentence(lengths)
        + " "
        + prose.endings_sentence(endings, lengths)
        + " "
        + prose.neutral_sentence(endings)
    )
    fig, axes = _figure(7.2, 3.5, 2, width_ratios=(1.7, 1))
    _plot_rounds(r.rounds_hist, lengths, axes[0])
    _plot_endings(endings, axes[1])
    return figure_part(f"{num}  How long are games, and how do they end?", text, fig,
                       "Rounds per game and endings (games; % of the field's games)",
                       _length_table(lengths, endings), 6.5)  # fmt: skip


def _length_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    lengths, endings = r.tables.get("lengths"), r.tables.get("endings")
    if lengths is None:
        return []
    out = []
    for x in lengths.iter_rows(named=True):
        det = " (one game)" if x["deterministic"] else ""
        out.append(
            headline(
                q,
                f"{x['players']} players, {x['field']}{det}: rounds per game "
                f"(median {x['median']:g}, max {x['max']})",
                prose.value(
                    x["rounds"],
                    x["rounds_low"],
                    x["rounds_high"],
                    "rounds",
                    ".2f",
                    x["deterministic"],
                ),
                x["games"],
                x["warning"] if not x["deterministic"] else "deterministic: one game",
            )
        )
    for x in endings.filter(pl.col("ending").is_in([2, 3])).iter_rows(named=True):
        det = x["deterministic"]
        out.append(
            headline(
                q,
                f"{x['players']} players, {x['field']}"
                + (" (one game)" if det else f" ({x['count']:,} of {x['games']:,})")
                + f": games ending in a {x['label']}",
                f"{100 * x['share']:.1f} % (one game)"
                if det
                else prose.pct(x["share"], x["share_low"], x["share_high"]),
                x["games"],
                "deterministic: one game" if det else x["warning"],
            )
        )
    return out


def _length_appendix(r: Results, label: str) -> list[Block]:
    endings = r.tables.get("endings")
    if endings is None:
        return []
    shown = _games_col(
        pct_col(endings, "share", "share_low", "share_high", "share of games (%) [95% CI]", DET)
    )
    shown = fmt(
        shown.select(
            pl.col("field").str.replace(" field", ""),
            "players",
            "label",
            "count",
            "games (distinct)",
            "share of games (%) [95% CI]",
        ),
        {},
    )
    return [Heading(f"{label} — How games end, every field and count"),
            Prose("Each way a game can end, with its count and its share of the field's games "
                  "(Wilson 95% interval; a point for a deterministic field). A way that never "
                  "happened shows 0."), Table.of(shown, size=7)]  # fmt: skip


LENGTH = Section("Game length", _length_compute, headlines=_length_headlines,
                 blocks=_length_blocks, appendix_blocks=_length_appendix)  # fmt: skip
"""2: how long are games, and how do they end?"""


# ----------------------------------------------------------------------------- 3 safety


def _safety_compute(r: Results) -> dict[str, Any]:
    t = safety.safety_table(r.out, r.manifest)
    if t.is_empty():
        return {}
    out: dict[str, Any] = {"safety": t}
    eff = safety.safety_effect(r.out, r.manifest)
    if not eff.is_empty():
        out["safety_effect"] = eff
    return out


def _effect_cell(x: dict, unit: str = "", f: str = "+.2f") -> str:
    """A paired change: its interval, or where few deals differ the sign test's counts."""
    if x["nonzero"] == 0:
        return "0 (no deal differs)"
    if x["sparse"]:
        return (f"{x['estimate']:{f}} ({x['nonzero']} deals differ, sign test "
                f"p = {x['sign_p']:.2g})")  # fmt: skip
    return ci(x["estimate"], x["low"], x["high"], unit, f)


def _effect_table(eff: pl.DataFrame) -> pl.DataFrame:
    from analysis.verdicts import adjust_family

    pos = adjust_family(eff.filter(pl.col("measure") == "position"), "estimate", "low", "high")
    rows = []
    for x in eff.sort("players").iter_rows(named=True):
        m = x["measure"]
        what = f"position {x['position']} win share (pp)" if m == "position" else {
            "rounds": "rounds a game", "lost": "toppings a seat loses a game",
            "shared": "shared outcomes (pp)"}[m]  # fmt: skip
        f = "+.1f" if m in ("position", "shared") else "+.2f"
        adj = EMPTY
        if m == "position":
            y = pos.filter(
                (pl.col("players") == x["players"]) & (pl.col("position") == x["position"])
            ).row(0, named=True)
            adj = EMPTY if x["sparse"] else ci(x["estimate"], y["adj_low"], y["adj_high"], "", f)
        spec = ".1f" if m in ("position", "shared") else ".2f"
        rows.append(
            {
                "players": str(x["players"]),
                "measure": what,
                "with / without": f"{x['on']:{spec}} / {x['off']:{spec}}",
                "without − with [95% CI]": _effect_cell(x, "", f),
                "corrected over positions": adj,
                "deals (differ)": f"{x['deals']:,} ({x['nonzero']:,})",
            }
        )
    return pl.DataFrame(rows)


def _plot_effect(eff: pl.DataFrame, ax) -> None:
    from analysis.verdicts import adjust_family

    pos = adjust_family(eff.filter(pl.col("measure") == "position"), "estimate", "low", "high")
    pos = pos.sort("players", "position")
    for k, x in enumerate(pos.iter_rows(named=True)):
        e = x["estimate"]
        ax.errorbar([k], [e], yerr=[[e - x["adj_low"]], [x["adj_high"] - e]], fmt="o",
                    color="black", ms=4, capsize=2)  # fmt: skip
        ax.errorbar([k + 0.2], [e], yerr=[[e - x["low"]], [x["high"] - e]], fmt="none",
                    color="0.6", capsize=1.5, lw=0.8)  # fmt: skip
    ax.axhline(0, color="black", lw=0.6, ls="--")
    ax.set_xticks(
        range(pos.height),
        [f"{p}p pos {q}" for p, q in zip(pos["players"], pos["position"], strict=True)],
        fontsize=6,
    )
    ax.set_ylabel("win share without − with (pp)", fontsize=7.5)
    ax.set_title("Without the safety rule, each starting position (black: corrected over "
                 "every position; grey: 95%)", fontsize=7.5)  # fmt: skip
    ax.tick_params(labelsize=7)


def _effect_blocks(r: Results, num: int) -> list[Block]:
    eff = r.tables.get("safety_effect")
    if eff is None:
        return []
    on, off = eff["on_block"][0], eff["off_block"][0]
    v = verdicts.safety_verdict(r)
    text = (
        f"Block {off} plays the deals of {on} ({the_field()}: {block_players(r, on)} in every "
        "seat; "
        "game i of both draws the same streams) with rule safety = false. Per deal the "
        "change without the rule minus with it, a t interval over deals; where fewer than 30 "
        "deals differ, the exact sign test instead (an interval over a handful of deals means "
        "nothing). A claim that a starting position's win share changes is picked from every "
        "position of every count, so its interval is corrected for that (Bonferroni). "
        + (v.answer if v else "")
    )
    fig, (ax,) = _figure(6.9, 2.4)
    _plot_effect(eff, ax)
    return figure_part(f"{num}  Does the safety rule matter?", text, fig,
                       f"Without the safety rule − with it, on the same deals ({off} against {on})",
                       _effect_table(eff), 6.5)  # fmt: skip


def _safety_wide(t: pl.DataFrame) -> pl.DataFrame:
    rows = []
    keys = t.select("field", "players").unique(maintain_order=True)
    for f, n in keys.iter_rows():
        row: dict[str, str] = {"field": short(f), "players": str(n)}
        for m in safety.MEASURES:
            x = safety.measure(t, f, n, m)
            if x is None:
                row[m] = EMPTY
            elif x["deterministic"]:
                scale, spec = (100, ".1f") if m in ("fired", "round_share") else (1, ".2f")
                row[m] = f"{scale * x['estimate']:{spec}} (one game)"
            elif m in ("fired", "round_share"):
                row[m] = prose.pct(x["estimate"], x["low"], x["high"])
            else:
                row[m] = ci(x["estimate"], x["low"], x["high"], "", ".2f")
            if m == "fired" and x is not None:
                det = x["deterministic"]
                row["games"] = f"{x['games']:,}" + (" (one game)" if det else "")
        rows.append(row)
    names = {
        "fired": "games it fired (%)",
        "rounds_fired": "rounds it fired / game",
        "round_share": "of all rounds (%)",
        "saved": "toppings kept / seat / game",
        "safe_rounds": "rounds a seat was safe / game",
    }
    frame = pl.DataFrame(rows).rename(names)
    return frame.select("field", "players", "games", *names.values())


def _plot_safety(t: pl.DataFrame, ax, m: str, title: str, scale: float = 1.0) -> None:
    sub = t.filter(pl.col("measure") == m)
    for k, x in enumerate(sub.iter_rows(named=True)):
        colour, marker = FIELD_STYLE.get(x["field"], ("0.5", "^"))
        e, lo, hi = scale * x["estimate"], scale * x["low"], scale * x["high"]
        ax.errorbar(
            [k],
            [e],
            yerr=[[e - lo], [hi - e]],
            fmt=marker,
            color=colour,
            ms=4,
            capsize=2,
            mfc="white" if x["deterministic"] else colour,
        )
    ax.set_xticks(
        range(sub.height),
        [f"{short(f)}\n{n}p" for f, n in zip(sub["field"], sub["players"], strict=True)],
        fontsize=6,
    )
    ax.set_xlim(-0.5, sub.height - 0.5)
    ax.set_title(title, fontsize=8)
    ax.tick_params(axis="y", labelsize=7)


def _safety_blocks(r: Results, num: int) -> list[Block]:
    t = r.tables.get("safety")
    if t is None:
        return []
    effect = _effect_blocks(r, num)
    fired = t.filter(pl.col("measure") == "fired")
    parts = "; ".join(
        f"{short(x['field'])} {x['players']}p "
        + (f"{100 * x['estimate']:.1f}% (one game, {x['games']:,} times)" if x["deterministic"]
           else f"{prose.pct(x['estimate'], x['low'], x['high'])} ({x['count']:,} of "
           f"{x['games']:,} games)")
        for x in fired.iter_rows(named=True)
    )  # fmt: skip
    saved = t.filter(pl.col("measure") == "saved")
    kept = "; ".join(
        f"{short(x['field'])} {x['players']}p {x['estimate']:.2f}"
        + (" (one game)" if x["deterministic"] else "")
        for x in saved.iter_rows(named=True)
    )
    off = fired.filter(~pl.col("safety_rule"))
    text = (
        "The safety rule: a player with at most one topping in every region of the round is "
        "safe, and none of its toppings can be removed or replaced. A game counts when the "
        "rule kept at least one topping on the board in some round; a seat's kept toppings "
        "are the toppings the rule saved for it. The game is the unit of every "
        "interval (a seat's numbers are averaged over its game's seats first). Games in which "
        f"it kept a topping: {parts}. Toppings it kept per seat per game (intervals in the "
        f"table): {kept}."
        + (f" The rule is off in {listing(off['field'].unique())}." if off.height else "")
    )
    fig, axes = _figure(7.2, 3.0, 2)
    _plot_safety(t, axes[0], "fired", "games in which it kept a topping (%)", 100)
    _plot_safety(t, axes[1], "saved", "toppings it kept per seat per game")
    # without the paired block, this part opens the section
    return [*effect, *figure_part(
        f"{num}  How often does the safety rule fire?", text, fig,
        "The safety rule per field and count (95% intervals over games; open markers: one game)",
        _safety_wide(t), 6.5, level=2 if effect else 1)]  # fmt: skip


def _safety_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    t = r.tables.get("safety")
    if t is None:
        return []
    out = []
    for x in t.filter(pl.col("measure").is_in(["fired", "saved"])).iter_rows(named=True):
        fired = x["measure"] == "fired"
        if x["deterministic"]:
            est = (
                f"{100 * x['estimate']:.1f} % (one game)"
                if fired
                else f"{x['estimate']:.2f} toppings (one game)"
            )
        else:
            est = (
                prose.pct(x["estimate"], x["low"], x["high"])
                if fired
                else ci(x["estimate"], x["low"], x["high"], "toppings", ".2f")
            )
        det = " (one game)" if x["deterministic"] else ""
        out.append(
            headline(
                q,
                f"{x['players']} players, {x['field']}{det}: {safety.MEASURES[x['measure']]}",
                est,
                x["games"],
                "deterministic: one game" if x["deterministic"] else x["warning"],
            )
        )
    eff = r.tables.get("safety_effect")
    if eff is not None:
        for x in eff.filter(pl.col("measure").is_in(["position", "rounds"])).iter_rows(named=True):
            what = (
                f"starting position {x['position']}'s win share"
                if x["measure"] == "position"
                else "rounds a game"
            )
            unit = "pp" if x["measure"] == "position" else "rounds"
            f = "+.1f" if x["measure"] == "position" else "+.2f"
            out.append(
                headline(
                    q,
                    f"{x['players']} players, {x['field']}: {what} without the safety rule "
                    "minus with it, on the same deals",
                    _effect_cell(x, unit, f),
                    x["deals"],
                    f"{x['nonzero']} deals differ: sign test" if x["sparse"] else "",
                    "deals",
                )
            )
    return out


SAFETY = Section("Safety rule", _safety_compute, headlines=_safety_headlines,
                 blocks=_safety_blocks, needs=("safety-off",))  # fmt: skip
"""3: does the safety rule matter (what playing without it changes), and how often it
fires."""


# ----------------------------------------------------------------------------- 4 opening


def _opening_compute(r: Results) -> dict[str, Any]:
    t, found = opening.field_values(r.out, r.manifest)
    if t is None:
        return {}
    return {"opening": t, "opening_conditions": found}


def _opening_table(t: pl.DataFrame) -> pl.DataFrame:
    shown = ci_col(t, "edge_pp", "edge_low", "edge_high", "blind − unrestricted seat (pp)")
    shown = ci_col(shown, "table_pp", "table_low", "table_high", "blind − others at its table")
    shown = ci_col(
        shown,
        "toppings",
        "toppings_low",
        "toppings_high",
        "toppings (blind − unrestricted)",
        "+.2f",
    )
    return fmt(
        shown.select(
            pl.col("field").str.replace(" field", ""),
            "players",
            "deals",
            pl.col("blind_share").alias("blind seat's win share"),
            "blind − unrestricted seat (pp)",
            "blind − others at its table",
            "toppings (blind − unrestricted)",
            "warning",
        ),
        {"blind seat's win share": ".3f"},
    )


def _opening_blocks(r: Results, num: int) -> list[Block]:
    t = r.tables.get("opening")
    if t is None:
        return []
    played = {
        name: (blind, base)
        for name, (blind, base) in OPENING_FIELDS.items()
        if has_block(r.manifest, blind) and has_block(r.manifest, base)
    }
    fields = [f"{short(name)} ({blind} against {base})" for name, (blind, base) in played.items()]
    specs = listing(
        dict.fromkeys(
            f"{x} in {the_field(name)}"
            for name, (blind, _) in played.items()
            for x in block_specs(r.manifest, blind)
            if "blind" in x
        )
    )
    det = [
        name
        for name, (_, base) in OPENING_FIELDS.items()
        if has_block(r.manifest, base)
        and bool(
            distinct_games(*block_frames(r.out, base))
            .filter(pl.col("players") == MAIN)["deterministic"]
            .any()
        )
    ]
    text = (
        "Restricted play: one seat places its first topping (round 0) uniformly at random "
        f"among the legal spaces ({specs}) and plays every other decision as the field does. "
        "It sits in every seat in turn "
        "(rotated blocks): sitting in seat k on deal i, it is compared with seat k of the "
        "field's own game i (the same deal). Per deal, the blind seat's win share averaged "
        "over its seats minus the unrestricted seat's (averaged over the seats, 1/n of every "
        "deal), with a t interval over deals. "
        + (f"Field{'s' if len(fields) > 1 else ''}: {listing(fields)}" if fields else "")
        + (" (the only field with a blind seat)" if len(fields) == 1 else "")
        + ". Negative: the first placement is worth having. "
        + prose.opening_sentence(t)
        + (
            f" In the {listing(short(d) for d in det)} field the unrestricted games at "
            f"{MAIN} players are one game (deterministic), so every difference there comes "
            "from the blind seat's random opening."
            if det
            else ""
        )
    )
    fig, (ax,) = _figure(5.6, 2.1)
    plot_conditions(r.tables.get("opening_conditions", {}), ax,
                    "blind seat − unrestricted seat, pp (95% CI over deals)",
                    list(OPENING_FIELDS), FIELD_STYLE)  # fmt: skip
    return figure_part(f"{num}  What is the first placement worth?", text, fig,
                       "The first placement's value by field (t intervals over deals)",
                       _opening_table(t), 6.5)  # fmt: skip


def _opening_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    t = r.tables.get("opening")
    if t is None:
        return []
    out = []
    for x in t.iter_rows(named=True):
        out.append(
            paired_headline(
                q,
                f"{x['players']} players, {x['field']}: blind seat's win share "
                "minus the unrestricted seat's on the same deals",
                x,
            )
        )
        out.append(
            headline(
                q,
                f"{x['players']} players, {x['field']}: blind seat's toppings "
                "at the end minus the unrestricted seat's",
                ci(x["toppings"], x["toppings_low"], x["toppings_high"], "toppings", "+.2f"),
                x["deals"],
                "",
                "deals",
            )
        )
    return out


def _opening_cells(r: Results) -> list[Row]:
    return paired_cells(
        r.tables.get("opening"),
        lambda x: f"{x['players']}p {short(x['field'])} first placement (deals)",
    )


OPENING = Section("First placement", _opening_compute, headlines=_opening_headlines,
                  cells=_opening_cells, blocks=_opening_blocks,
                  needs=tuple(b for b, _ in OPENING_FIELDS.values()))  # fmt: skip
"""4: what is the first placement worth?"""


# ----------------------------------------------------------------------------- 5 boards


def _boards_compute(r: Results) -> dict[str, Any]:
    pos, summ = boards.board_changes(r.out, r.manifest)
    if summ.is_empty():
        return {}
    return {"board_positions": pos, "boards": summ}


def _plot_boards(pos: pl.DataFrame, field: str, ax) -> None:
    sub = pos.filter(pl.col("field") == field)
    positions = sorted(sub["position"].unique())
    names = [DEFAULT_BOARD, *dict.fromkeys(sub["board"])]
    step = 0.8 / len(names)
    any_hollow = False
    for j, b in enumerate(names):
        colour = BOARD_COLOURS.get(b, "0.5")
        for p in positions:
            rows = sub.filter(pl.col("position") == p)
            if b == DEFAULT_BOARD:
                x = rows.row(0, named=True)
                e, lo, hi = x["base_share"], x["base_low"], x["base_high"]
                hollow = x["base_distinct"] == 1 and x["base_games"] > 1
            else:
                x = rows.filter(pl.col("board") == b).row(0, named=True)
                e, lo, hi = x["win_share"], x["win_low"], x["win_high"]
                hollow = x["distinct"] == 1 and x["games"] > 1
            any_hollow = any_hollow or hollow
            xpos = p - 0.4 + step * (j + 0.5)
            ax.errorbar(
                [xpos],
                [100 * e],
                yerr=[[100 * (e - lo)], [100 * (hi - e)]],
                fmt="o",
                color=colour,
                ms=3.5,
                capsize=2,
                mfc="white" if hollow else colour,
                label=b if p == positions[0] else None,
            )
    ax.axhline(100 / 3, color="black", ls="--", lw=0.8)
    ax.set_xticks(positions, [str(p) for p in positions], fontsize=7)
    ax.set_xlabel(POSITION_LABEL, fontsize=7.5)
    ax.set_ylabel("win share, % (95% CI)", fontsize=7.5)
    # say what a hollow marker means only where one is drawn
    ax.set_title(f"{field} (open marker: one game)" if any_hollow else field, fontsize=8)
    ax.tick_params(labelsize=7)


def _boards_table(b: pl.DataFrame) -> pl.DataFrame:
    shown = _games_col(b).with_columns(
        (pl.col("deterministic") & pl.col("base_deterministic")).alias("both")
    )
    shown = scaled_ci_col(shown, "largest_pp", "largest_low", "largest_high",
                          "largest edge (pp)", exact="both")  # fmt: skip
    shown = scaled_ci_col(shown, "rounds_change", "rounds_low", "rounds_high",
                          "rounds a game: change", "+.2f", exact="both")  # fmt: skip
    shown = scaled_ci_col(shown, "safety_change_pp", "safety_low", "safety_high",
                          "safety fired: change (pp)", exact="both")  # fmt: skip
    shown = shown.with_columns(
        at_position("largest_position", pl.col("largest edge (pp)")).alias("largest edge (pp)"),
        at_position(
            "base_largest_position", pl.col("base_largest_pp").round(1).cast(pl.String)
        ).alias("on hex-37"),
        pl.col("changed_positions")
        .list.eval(pl.element().cast(pl.String))
        .list.join(", ")
        .alias("positions that change"),
    )
    return fmt(
        shown.select(
            pl.col("field").str.replace(" field", ""),
            "board",
            "games (distinct)",
            "largest edge (pp)",
            "on hex-37",
            "positions that change",
            "rounds a game: change",
            "safety fired: change (pp)",
        ),
        {},
    )


def _boards_blocks(r: Results, num: int) -> list[Block]:
    b = r.tables.get("boards")
    if b is None:
        return []
    pos = r.board_positions
    fields = list(dict.fromkeys(b["field"]))
    blocks = "; ".join(
        f"{short(f)}: {BOARD_FIELDS[f][1].format(name='<board>')} against {BOARD_FIELDS[f][0]}"
        for f in fields
        if f in BOARD_FIELDS
    )
    text = (
        BOARD_NOTE + " The shipped alternatives: hex-37-mid (each position's start spaces "
        "moved to the middle of its side), round-31 (hex-37 without its six corners) and "
        f"hex-61 (a larger hexagon). At {MAIN} players, each board against hex-37 in each "
        f"field ({blocks}), from independent games: each starting position's win share and "
        "its change (Newcombe's interval from the two Wilson intervals), the change in rounds "
        "a game (Welch) and in the share of games in which the safety rule kept a topping. "
        + " ".join(prose.board_sentence(b, pos, f, base=verdicts.base_board(r)) for f in fields)
    )
    fig, axes = _figure(7.2, 3.3, len(fields[:2]))
    for ax, f in zip(axes, fields, strict=False):
        _plot_boards(pos, f, ax)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, loc="outside lower center", ncol=len(labels),
               frameon=False)  # fmt: skip
    return figure_part(f"{num}  Does the board's shape change the balance?", text, fig,
                       f"Each board against {DEFAULT_BOARD} at {MAIN} players (95% intervals)",
                       _boards_table(b), 6.5)  # fmt: skip


def _boards_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    b = r.tables.get("boards")
    if b is None:
        return []
    return [
        headline(
            q,
            f"{x['board']}, {x['field']}"
            + (" (one game each)" if x["deterministic"] and x["base_deterministic"] else "")
            + f": largest starting-position edge (position {x['largest_position']}; "
            f"hex-37: {x['base_largest_pp']:+.1f} pp)",
            ci(x["largest_pp"], x["largest_low"], x["largest_high"]),
            x["games"],
            x["warning"],
        )
        for x in b.iter_rows(named=True)
    ]


def _boards_cells(r: Results) -> list[Row]:
    pos = r.tables.get("board_positions")
    if pos is None:
        return []
    out = []
    for x in pos.iter_rows(named=True):
        det = x["distinct"] == 1 and x["base_distinct"] == 1
        half = (x["change_high"] - x["change_low"]) / 2
        out.append(
            {
                "number": f"{x['board']} {short(x['field'])} position {x['position']}: "
                "change from hex-37",
                "games": min(x["games"], x["base_games"]),
                "± (pp)": half,
                "games for ±1 pp": None
                if det or half <= 0
                else int(np.ceil(min(x["games"], x["base_games"]) * half**2)),
                "warning": "deterministic: one game each"
                if det
                else ("" if x["change_low"] > 0 or x["change_high"] < 0 else "interval covers 0"),
            }
        )
    return out


def _boards_appendix(r: Results, label: str) -> list[Block]:
    pos = r.tables.get("board_positions")
    if pos is None:
        return []
    shown = pct_col(pos, "win_share", "win_low", "win_high", "on the board (%)", DET)
    shown = pct_col(shown, "base_share", "base_low", "base_high", "on hex-37 (%)", DET)
    shown = ci_col(shown, "change_pp", "change_low", "change_high", "change (pp)")
    shown = fmt(
        shown.select(
            pl.col("field").str.replace(" field", ""),
            "board",
            "position",
            "games",
            "on the board (%)",
            "on hex-37 (%)",
            "change (pp)",
        ),
        {},
    )
    return [Heading(f"{label} — Every starting position on every board"),
            Prose("Win share by starting position on each board and on hex-37 (Wilson 95%), and "
                  "the change (Newcombe); a point interval is one game (deterministic)."),
            Table.of(shown, size=7)]  # fmt: skip


BOARDS_SECTION = Section("Board shape", _boards_compute, headlines=_boards_headlines,
                         cells=_boards_cells, blocks=_boards_blocks,
                         appendix_blocks=_boards_appendix,
                         needs=BOARD_VARIANTS.needs)  # fmt: skip
"""5: does the board's shape change the balance?"""


# ----------------------------------------------------------------------------- 6 count

COUNT_LABELS = {"rounds": "rounds per game"}


def _rounds(n: int, players: pl.DataFrame, games: pl.DataFrame) -> dict[str, tuple]:
    if "rounds" not in games.columns:
        return {}
    return {"rounds": mean_interval(games["rounds"].to_numpy().astype(float))}


def _count_about(r: Results, c: pl.DataFrame) -> str:
    d = distinct_games(*block_frames(r.out, r.count_block))
    det = [int(x["players"]) for x in d.filter(pl.col("deterministic")).iter_rows(named=True)]
    return (
        "The 2-player game adds the neutral colour. The score is "
        "a seat's toppings on the board at the end, so the margin counts toppings. Shared wins "
        "(more than one winner) include the draws and neutral wins every seat shares: "
        f"{count_values(c, 'shared_win', 100)}% of games. Rounds a game: "
        f"{count_values(c, 'rounds')}."
        + (
            f" At {listing(det)} players every game of this block is the same game "
            "(deterministic): its numbers are that one game's (the shares' intervals are "
            "Wilson's, as if the games were a sample; the means' are points)."
            if det
            else ""
        )
    )


COUNT = player_count_section(
    FIELDS[MAIN_FIELD],
    extra=_rounds,
    labels=COUNT_LABELS,
    headlines=(
        ("shared_win", "shared wins (draws and neutral wins)", "%", ".1f"),
        ("margin", "winning margin", "toppings", ".1f"),
        ("rounds", "rounds per game", "rounds", ".1f"),
    ),
    about=_count_about,
    field_name=the_field(),
)
"""6: player count (the generic measures and the rounds a game lasts)."""


_DEFAULT_BOUND = int(rule_value({"study": {"arms": []}}, "", "max_rounds"))
GLOSSARY = {
    "starting position": "A seat's turn position in the first round: 0 "
    "places first. At 3 players the positions rotate every round (the 2nd becomes 1st), at 2 "
    "the first player alternates; by default seat s starts in position s, and the study's "
    "blocks cycle the first seat by game (rule cycle_first_seat).",
    "first starter / last starter": "The seat in starting position 0 / the last position "
    "(2 at 3 players, 1 at 2). Its edge is its win share minus the fair share.",
    "mixed player": "'mixed', the main field's player: it places by the heuristic's "
    "valuation (with its own weights) and cuts by drawing its line from regret matching's "
    "average strategy of the round's cut game (every player cuts at once, each valued by "
    "the heuristic's swing). Its draws come from the seat's own stream, so its games differ "
    "even at 3 players.",
    "deterministic field": "A field whose games are all one game: at 3 players the game "
    "has no chance and greedy and the heuristic draw nothing, so every game of the heuristic "
    "and greedy fields at 3 players is the same game. Its numbers are exact (the interval is "
    "a point) but describe one game: no verdict counts it for or against an interval.",
    "field with chance": "A field whose games differ: the "
    f"{listing(f.removesuffix(' field') for f in FIELDS if f not in NO_DRAWS)} fields at every "
    f"count, and every field at a count the game deals chance at (at 2 players the neutral "
    "die). Verdicts are judged across them.",
    "shared outcome": "A draw at the round bound, or at 2 players the neutral colour "
    "filling the board first: every seat has won = 1, so each gets 1/n of the win (the fair "
    "share), which pulls every edge towards 0.",
    "safety rule": "A player with at most one topping in every region of the round is safe: "
    "none of its toppings is removed or replaced that round. Whether it matters is measured "
    "by playing the same deals without it (block safety-off).",
    "blind seat (restricted play)": "mixed(blind=1): it places its first topping "
    "uniformly at random and plays the rest as the mixed player. Its win share minus an "
    "unrestricted seat's on the same deals is what the first placement is worth.",
    "round bound": f"Rule max_rounds ({_DEFAULT_BOUND:,} by default): a game still running "
    "after it is a draw shared by every seat.",
    "hex-37": "The default board, slicelab's assumption (the real layout is not public): "
    "37 spaces in a hexagon, six cuts per direction, the six corners as start spaces.",
    "mixed field": f"The main field: every seat plays the mixed player (block "
    f"{FIELDS['mixed field']}).",
    "Newcombe interval": "The interval of a difference between two independent shares "
    "built from each share's own Wilson interval.",
}
"""Pizza Theory's terms, merged with the generic glossary."""


REPORT = GameReport(
    sections=(
        SEATS,
        LENGTH,
        SAFETY,
        OPENING,
        BOARDS_SECTION,
        COUNT,
        ratings_section(groups=RATING_BLOCKS),
        sample_size_section(order=("Seats", "First placement", "Board shape")),
    ),
    blocks=BLOCKS,
    example="studies/pizzatheory-balance.toml",
    provenance=_provenance,
    notes=_notes,
    verdicts=verdicts.verdicts,
    glossary=GLOSSARY,
    describe=describe,
    skill=SkillLevels(
        (
            Level("random", "random", "seats-random"),
            Level("greedy", "greedy", "seats-greedy"),
            Level("the mixed heuristic", "mixed", "seats", short="mixed"),
            Level("the heuristic", "heuristic", "seats-heuristic"),
        ),
        main="mixed",
        first_edges=seats.first_edges,
    ),  # fmt: skip
)
"""Pizza Theory's balance report."""
