"""New York Slice's balance report: the study blocks it reads, its title page and its
sections (:data:`REPORT`, found by :func:`analysis.report.game_report`).

1. Seats: is the first slicer favoured, does slicing twice matter, and does it hold for
   other players (``seats``, ``seats-collect``, ``seats-greedy``, ``ladder``, and
   ``seats-search`` when the study has it);
2. Specials: how strong is each Today's Special (``seats``, ``specials``, ``forfeit`` and
   ``forfeit-flat``, ``restricted``);
3. Eat or collect: the θ sweep and the replayed decisions (``theta``, ``decisions``);
4. Player count, with the majorities nobody scores (``seats``);
5. Ratings and 6. Sample size: the generic sections (:mod:`analysis.sections`).

Every sentence of interpretation is computed from the numbers it states
(:mod:`analysis.prose`, :mod:`analysis.nyslice.prose`).
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from analysis import seats as generic_seats
from analysis.content import Block, Heading, PageBreak, Plot, Prose, Table, figure
from analysis.estimates import Estimate, edge, held_out_theta
from analysis.formats import ci_col, fmt
from analysis.nyslice import (
    playercount,
    prose,
    robustness,
    seats,
    specials,
    threshold,
    verdicts,
    whatif,
)
from analysis.prose import counts_text, listing, section_number, see_section
from analysis.prose import effect as prose_effect
from analysis.robust import conditions_table
from analysis.sections import (
    GameReport,
    Results,
    Row,
    Section,
    appendix_label,
    block_strategies,
    count_range,
    headline,
    player_count_section,
    ratings_section,
    sample_size_section,
    seat_blocks,
    seat_cells,
    seat_headlines,
)
from analysis.skill import Level, SkillLevels
from analysis.sweep_section import (
    best_cells,
    best_headlines,
    best_table,
    grid_notes,
    set_text,
    sets_table,
)
from analysis.whatif import (
    block_rules,
    change_frame,
    change_headlines,
    change_text,
    plot_changes,
    stack,
)

BLOCKS = ("seats", "seats-collect", "seats-greedy", "specials", "forfeit", "theta", "decisions",
          "ladder", "skill-vs-random", "skill-vs-greedy", "skill-vs-heuristic",
          "skill-search")  # fmt: skip
"""Study blocks the report needs (see studies/nyslice-balance.toml)."""
SEAT_FIELDS = ("seats", "seats-collect", "seats-greedy", "seats-search")
FIELD = verdicts.FIELD
"""Blocks that ask the seat question with one strategy in every seat; ``seats-search``
(the search player, a smaller block) is read when the study has it."""
MAIN_PLAYERS = 4
"""The count the single-count charts show (the game's usual table)."""
EAT_BY = ("pepperoni", "type_a", "race")
"""The strata of the eat decision's tables."""


def describe(spec: str) -> str:
    """A spec as the report names it: bare ``heuristic`` plays its self-play equilibrium
    preset (``heuristic-eqN``) at every player count."""
    return "the equilibrium heuristic" if spec == "heuristic" else spec


def _spec(r: Results, group: str) -> str:
    specs = block_strategies(r, group)
    return specs[0] if specs else "?"


def _field(r: Results, group: str = "seats") -> str:
    return f"Every seat plays {listing(describe(s) for s in block_strategies(r, group))}"


def _field_thetas(r: Results) -> dict[int, float | None]:
    """θ of the field each seat plays against in the θ sweep, per player count."""
    out: dict[int, float | None] = {}
    for a in r.manifest["study"]["arms"]:
        if a.get("group", a["name"]) == "theta" and a["players"] not in out:
            rot = a.get("rotation", 0)
            others = [s for k, s in enumerate(a["strategies"]) if k != rot]
            out[a["players"]] = prose.field_theta(others[0], a["players"]) if others else None
    return out


def _collect_sentence(r: Results) -> str:
    """``heuristic(theta=4), which collects more than the equilibrium preset ... and beats
    the field at ...``: what the seats-collect field is, from the θ sweep."""
    spec = _spec(r, "seats-collect")
    counts = sorted({a["players"] for a in r.manifest["study"]["arms"]
                     if a.get("group") == "seats-collect"})  # fmt: skip
    theta = prose.field_theta(spec, counts[0]) if counts else None
    if theta is None:
        return spec
    field = {n: t for n, t in _field_thetas(r).items() if n in counts}
    return (
        f"{spec}, {prose.eats_vs_field(theta, field, 'the equilibrium preset')} and, as one "
        f"seat against the equilibrium field, {prose.against_field(r.theta, theta, 'it')}"
        f"{see_section(r, 'Eat or collect')}"
    )


def _greedy_sentence(r: Results) -> str:
    spec = _spec(r, "seats-greedy")
    rated = prose.rated_vs(r.ratings, spec, "heuristic", "the equilibrium heuristic")
    return f"{spec}, {rated}{see_section(r, 'Ratings')}"


# ----------------------------------------------------------------------------- title page


def _provenance(m: dict) -> list[tuple[str, str]]:
    fps = list(m["fingerprints"].values())
    deck = fps[0] if fps else {}
    rules = m["study"]["arms"][0].get("rules") or {}
    return [
        ("Rules", f"{deck.get('rules_version', '?')}; ruling options: "
                  + (", ".join(f"{k}={v}" for k, v in rules.items()) or "the spec's defaults")),
        ("Deck", f"{deck.get('deck', '?')} (digest {deck.get('deck_digest', '?')})"),
    ]  # fmt: skip


def _notes(r: Results) -> list[str]:
    from sims.games.nyslice.deck import default_deck

    fps = r.manifest["fingerprints"].values()
    decks = sorted({f.get("deck", "?") for f in fps if f.get("blank") is None})
    default = default_deck().name
    if decks == [default]:
        deck = (
            f"Deck assumptions. The default deck ('{default}') is partly "
            "assumed: types 3 (Veggie), 8, 10, 11, the 8/10 combo, the Anchovy slice and the "
            "Supreme are public; the names of types 4, 5, 6, 7 and 9, every slice's "
            "pepperoni and anchovy counts and three combo pairs are assumptions of the "
            "rules spec. Conclusions that depend on pepperoni or on particular types should "
            "be re-checked on the real tiles (slicelab --deck PATH)."
        )
    else:
        deck = (
            f"Deck. The study plays {listing(repr(d) for d in decks)}, not only the default "
            f"deck ('{default}'): the default deck's assumptions do not apply to it, and "
            "its own sources decide what is assumed."
        )
    search = ""
    if block_strategies(r, "seats-search"):
        search = (f"; 'seats-search' with {_spec(r, 'seats-search')} in every seat (the "
                  "search player: flat Monte Carlo over determinizations, its playouts "
                  "modelling every seat as the equilibrium heuristic), on fewer games, so "
                  "its intervals are wider")  # fmt: skip
    players = (
        f"Players. Unless a section says otherwise every seat plays '{_spec(r, 'seats')}'"
        + (" with its self-play equilibrium preset for the player count (heuristic-eqN: no "
           "deviation within its family found worth more than about 2 pp; "
           "benchmarks/strategies.md)" if _spec(r, "seats") == "heuristic" else "")
        + f". 'seats-collect' repeats the seat question with {_collect_sentence(r)}; "
        f"'seats-greedy' with {_greedy_sentence(r)}{search}. A conclusion from weak agents "
        "is weak: where the fields disagree, trust none of them blindly."
    )  # fmt: skip
    return [deck, players]


# ----------------------------------------------------------------------------- 1 seats


def _seats_compute(r: Results) -> dict[str, Any]:
    out = r.out
    fields = {g: generic_seats.seat_fairness(out, g) for g in SEAT_FIELDS
              if block_strategies(r, g)}  # fmt: skip
    return {
        "field_fairness": fields,
        "seat": seats.seat_advantage(out),
        "fairness": fields["seats"],
        "order_test": seats.linear_order_test(out),
        "contrasts": seats.seat_contrasts(out),
        "rotated": generic_seats.rotated_seat_advantage(out),
        "first_conditions": robustness.first_slicer(out),
        "conditions_expected": list(robustness.CONDITIONS),
    }


def _judged_first(r: Results) -> pl.DataFrame:
    return robustness.judged(r.first_conditions, r.conditions_expected)


def _seats_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    out = seat_headlines(r.seat, r.fairness, q)
    for t in r.order_test.iter_rows(named=True):
        out.append(headline(q, f"{t['players']} players: slicing twice vs seat order (linear "
                            "model test; no claim about slicing twice)",
                            f"χ² p={t['p_value']:.2g}", t["games"],
                            "not separable" if t["rejected"] else "assumption"))  # fmt: skip
    judged = {int(j["key"]): j for j in _judged_first(r).iter_rows(named=True)}
    for f in r.fairness.iter_rows(named=True):
        j = judged.get(f["players"])
        if j is None:
            continue
        out.append(headline(q, f"{f['players']} players: first slicer's edge across "
                            f"{j['conditions']} fields and decks: {j['label']}",
                            edge(f["first_edge_pp"], f["first_low"], f["first_high"],
                                 f["games"], "the first slicer", f["players"], field=FIELD),
                            warn="" if j["robust"] else j["detail"]))  # fmt: skip
    return out


def _condition_style(name: str) -> dict[str, Any]:
    fields = list(robustness.FIELDS)
    if name in fields:
        colour = ("black", "tab:orange", "tab:purple")[fields.index(name) % 3]
        return {"color": colour, "marker": "o", "ms": 4}
    return {"color": "0.55", "marker": "s", "ms": 3, "mfc": "none"}


def plot_conditions(found: dict, keys: list, ax, label: str, key_text=str) -> None:
    """One row of points per headline key (``found[key]``: its conditions), each
    condition a marker with its 95% interval; fields in colour, decks in grey."""
    names = list(robustness.CONDITIONS)
    step = 0.8 / max(len(names), 1)
    for i, key in enumerate(keys):
        for c in found.get(key, []):
            j = names.index(c.name) if c.name in names else len(names)
            y = i - 0.4 + step * (j + 0.5)
            style = _condition_style(c.name)
            ax.errorbar([c.estimate], [y], xerr=[[c.estimate - c.low], [c.high - c.estimate]],
                        linestyle="none", capsize=1.5, elinewidth=0.8, zorder=3,
                        label=c.name if i == 0 or c.name not in [h.get_label() for h in
                                                                  ax.lines] else None,
                        **style)  # fmt: skip
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(keys)), [key_text(k) for k in keys], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(label, fontsize=8)
    ax.tick_params(labelsize=7)
    handles, labels = ax.get_legend_handles_labels()
    seen = dict(zip(labels, handles, strict=True))
    ax.legend(seen.values(), seen.keys(), fontsize=6, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), frameon=False)  # fmt: skip


def _seats_blocks(r: Results, num: int) -> list[Block]:
    out: list[Block] = [
        Heading(f"{num}  Is the first slicer favoured?"),
        *seat_blocks(_field(r), r.seat, r.fairness, who="The first slicer (seat 0)",
                     seat_label=seats.SEAT_LABEL),
    ]  # fmt: skip
    if r.order_test.height:
        out.append(Prose(prose.order_test(r.order_test, r.seat)))
    judged = _judged_first(r)
    counts = sorted(r.first_conditions)
    lines = []
    for n in counts:
        j = judged.filter(pl.col("key") == str(n)).row(0, named=True)
        lines.append(f"{n} players: {j['label']} ({j['detail']})")
    fig = figure(height=5.8)
    plot = Plot.natural(fig)
    plot_conditions(r.first_conditions, counts, fig.add_subplot(),
                    "first slicer's edge, pp (95% CI)", lambda n: f"{n} players")  # fmt: skip
    # a page per part: each chart takes most of a page, and its part is read on its own
    return out + [
        PageBreak(),
        Heading(f"{num}  Does the first slicer's edge hold in other fields and on other decks?",
                level=2),
        Prose("The first slicer's edge (seat 0's win share minus the fair share, pp, 95% "
              "interval over games) recomputed with other players in every seat — greedy "
              f"({_greedy_sentence(r)}) and the search player (its playouts model the others "
              "as the equilibrium heuristic; fewer games, wider intervals) — and with the "
              "equilibrium heuristic on five plausible decks (the default deck's assumed "
              "pepperoni, anchovies and combo pairs redrawn: studies/decks). A verdict is "
              "robust only when every interval excludes 0 with the same sign. "
              + "; ".join(lines) + ".", size=8.5),
        plot,
    ]  # fmt: skip


def _seats_appendix(r: Results, label: str) -> list[Block]:
    t = conditions_table({f"{n} players": c for n, c in sorted(r.first_conditions.items())})
    shown = ci_col(t, "estimate", "low", "high", "first slicer's edge [95% CI]")
    shown = fmt(shown.select("headline", "condition", "first slicer's edge [95% CI]", "n",
                             "unit"), {})  # fmt: skip
    c = ci_col(r.contrasts, "estimate", "low", "high", "pp [95% CI]")
    contrasts = fmt(c.select("players", "contrast", "pp [95% CI]", "games", "warning"), {})
    return [
        Heading(f"{label} — The first slicer's edge in every field and deck"),
        Table.of(shown, size=7),
        Heading(f"{label} — Raw seat contrasts (equilibrium field)"),
        Prose("Each seat's win share minus the mean of the other seats, and each step from "
              "one seat to the next, paired within games (t intervals over games)."),
        Table.of(contrasts, size=7),
    ]  # fmt: skip


SEATS = Section("Seats", _seats_compute, headlines=_seats_headlines,
                cells=lambda r: seat_cells(r.seat), blocks=_seats_blocks,
                appendix_blocks=_seats_appendix)  # fmt: skip
"""1: is the first slicer favoured?"""


# ----------------------------------------------------------------------------- 2 specials


def _main(st: pl.DataFrame) -> int:
    counts = sorted(st["players"].unique())
    return MAIN_PLAYERS if MAIN_PLAYERS in counts else counts[-1]


def _specials_compute(r: Results) -> dict[str, Any]:
    out = r.out
    have = {a.get("group", a["name"]) for a in r.manifest["study"]["arms"]}
    return {
        "forfeit": specials.forfeit_value(out),
        "restricted": specials.restricted_play(out) if "restricted" in have else None,
        "own": specials.own_points(out, games=r.options["own_games"]),
        "strength": specials.strength(out),
        "special_conditions": robustness.special_values(out, MAIN_PLAYERS),
    }


def _specials_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    out = []
    judged = {j["key"]: j for j in robustness.judged(
        r.special_conditions, r.conditions_expected).iter_rows(named=True)}  # fmt: skip
    for n in sorted(r.forfeit["players"].unique()):
        s = r.forfeit.filter(pl.col("players") == n).sort("points", descending=True)
        have = int((s["holm_sign"] > 0).sum())
        cost = int((s["holm_sign"] < 0).sum())
        for what, x in (("most", s.row(0, named=True)), ("least", s.row(-1, named=True))):
            tag = judged.get(x["special"]) if n == MAIN_PLAYERS else None
            finding = (f"{n} players: worth {what} (points a game it is in play, forfeit "
                       f"against the field) {x['special'].replace('_', ' ')}"
                       + (f" ({have} of {s.height} worth having, {cost} costly, Holm)"
                          if what == "most" else "")
                       + (f"; across fields and decks: {tag['label']}" if tag else ""))  # fmt: skip
            value = Estimate(verdicts.SPECIAL_WORTH, x["points"], x["points_low"], x["points_high"],
                             int(x["in_play"]), "deals", unit="points",
                             subject=x["special"].replace("_", " "), players=int(n),
                             field=FIELD, method="paired by deal")  # fmt: skip
            out.append(headline(q, finding, value, warn=x["warning"]))
    return out


def _specials_cells(r: Results) -> list[Row]:
    rows = []
    t = r.forfeit.filter(pl.col("players") == MAIN_PLAYERS)
    for f in t.iter_rows(named=True):
        half = (f["value_high"] - f["value_low"]) / 2  # the worth in win share, pp
        need = int(np.ceil(f["in_play"] * half**2)) if f["in_play"] and np.isfinite(half) else None
        rows.append({"number": f"{MAIN_PLAYERS}p {f['special']} worth (forfeit, win share)",
                     "games": f["in_play"], "± (pp)": half, "games for ±1 pp": need,
                     "warning": f["warning"]})  # fmt: skip
    return rows


def _estimands(r: Results, n: int) -> pl.DataFrame:
    """The estimands side by side at one count (one row per special), sorted by worth."""
    t = r.forfeit.filter(pl.col("players") == n).select(
        "special", "points", "points_low", "points_high", "adj_low", "adj_high", "holm_sign",
        pl.col("value_pp").alias("worth_pp"), pl.col("value_low").alias("worth_low"),
        pl.col("value_high").alias("worth_high"), "in_play")  # fmt: skip
    rest = r.tables.get("restricted")
    if rest is not None:
        t = t.join(rest.filter(pl.col("players") == n).select(
            "special", "value_pp", "value_low", "value_high", "deals"), on="special",
            how="left")  # fmt: skip
    else:
        t = t.with_columns(*(pl.lit(None, pl.Float64).alias(c) for c in
                             ("value_pp", "value_low", "value_high")),
                           pl.lit(None, pl.Int64).alias("deals"))  # fmt: skip
    own = r.own.filter(pl.col("players") == n).select(
        "special", "own_pp", "own_low", "own_high", "own_points",
        pl.col("games").alias("own_games"))  # fmt: skip
    taker = r.strength.filter(pl.col("players") == n).select(
        "special", "effect_pp", "effect_low", "effect_high", pl.col("games").alias("taker_games"),
        "obs_pp", "obs_low", "obs_high")  # fmt: skip
    return (
        t.join(own, on="special", how="left").join(taker, on="special", how="left").sort("points")
    )


def plot_worth(t: pl.DataFrame, ax) -> None:
    """Ranked chart of the specials' worth at one count (points a game the special is in
    play): the 95% interval, and the wider one corrected over the family of specials."""
    y = np.arange(t.height)
    v = t["points"].to_numpy().astype(float)
    for lo, hi, style, name in (
        ("adj_low", "adj_high", {"color": "0.6", "elinewidth": 3, "capsize": 0},
         "corrected over the specials (Bonferroni)"),
        ("points_low", "points_high", {"color": "black", "elinewidth": 1, "capsize": 2},
         "95% interval"),
    ):  # fmt: skip
        err = np.vstack([v - t[lo].to_numpy().astype(float), t[hi].to_numpy().astype(float) - v])
        ax.errorbar(v, y, xerr=np.nan_to_num(err), fmt="o", ms=3.5, zorder=3, label=name,
                    **style)  # fmt: skip
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, [s.replace("_", " ") + (" *" if h else "") for s, h in
                      zip(t["special"], t["holm_sign"], strict=True)], fontsize=7)  # fmt: skip
    ax.set_xlabel("worth: points a game it is in play, may receive − forfeits", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=6.5, loc="lower right")


def plot_estimands(t: pl.DataFrame, ax) -> None:
    """Ranked chart of the win-share estimands at one count (rows sorted by worth)."""
    y = np.arange(t.height)
    for col, lo, hi, dy, style, name in (
        ("worth_pp", "worth_low", "worth_high", 0.27,
         {"fmt": "o", "color": "black"}, "worth in win share (forfeit; deals in play)"),
        ("value_pp", "value_low", "value_high", 0.09,
         {"fmt": "^", "color": "tab:green", "mfc": "none"},
         "value of being allowed to take the portion (avoid; all deals)"),
        ("own_pp", "own_low", "own_high", -0.09,
         {"fmt": "D", "color": "tab:blue", "mfc": "none"}, "own points (win share)"),
        ("effect_pp", "effect_low", "effect_high", -0.27,
         {"fmt": "s", "color": "tab:red", "mfc": "none"}, "value to the taker (vs blank)"),
    ):  # fmt: skip
        v = t[col].to_numpy().astype(float)
        err = np.vstack([v - t[lo].to_numpy().astype(float), t[hi].to_numpy().astype(float) - v])
        ax.errorbar(v, y + dy, xerr=np.nan_to_num(err), ms=3.5, capsize=2, elinewidth=0.8,
                    zorder=3, label=name, **style)  # fmt: skip
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, [s.replace("_", " ") for s in t["special"]], fontsize=7)
    ax.set_xlabel("win share, pp (95% CI)", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=6, loc="lower right")


def _heatmap(r: Results, ax) -> None:
    st = r.forfeit
    counts = sorted(st["players"].unique())
    names = specials.SPECIALS
    grid = np.full((len(names), len(counts)), np.nan)
    star = np.zeros_like(grid, dtype=bool)
    for row in st.iter_rows(named=True):
        i, j = names.index(row["special"]), counts.index(row["players"])
        grid[i, j] = row["points"]
        star[i, j] = bool(row["holm_sign"])
    lim = float(np.nanmax(np.abs(grid))) if np.isfinite(grid).any() else 1.0
    shown = np.ma.masked_invalid(grid)
    cmap = plt.get_cmap("RdBu").with_extremes(bad="0.93")
    im = ax.imshow(shown, cmap=cmap, vmin=-lim, vmax=lim, aspect="auto")
    for i in range(len(names)):
        for j in range(len(counts)):
            if np.isfinite(grid[i, j]):
                dark = abs(grid[i, j]) > 0.6 * lim
                ax.text(j, i, f"{grid[i, j]:+.2f}{'*' if star[i, j] else ''}", ha="center",
                        va="center", fontsize=7, color="white" if dark else "black")  # fmt: skip
            else:
                ax.text(j, i, "not in play", ha="center", va="center", fontsize=6, color="0.4")
    ax.set_xticks(range(len(counts)), [f"{c} players" for c in counts], fontsize=7)
    ax.set_yticks(range(len(names)), [n.replace("_", " ") for n in names], fontsize=7)
    bar = ax.figure.colorbar(im, ax=ax, fraction=0.03, pad=0.02, aspect=30)
    bar.set_label("worth, points a game in play", fontsize=7)
    bar.ax.tick_params(labelsize=6)


def _specials_blocks(r: Results, num: int) -> list[Block]:
    main = _main(r.forfeit)
    t = _estimands(r, main)
    top, bottom = t.row(-1, named=True), t.row(0, named=True)
    f = r.forfeit.filter(pl.col("players") == main)
    worth = figure(height=3.8)
    worth_plot = Plot.natural(worth)
    ax = worth.add_subplot()
    plot_worth(t, ax)
    ax.set_title(f"{main} players", fontsize=8)
    heat = figure(height=4.0)
    heat_plot = Plot.natural(heat)
    _heatmap(r, heat.add_subplot())
    estimands = figure(height=8.7)
    estimands_plot = Plot.natural(estimands)
    plot_estimands(t, estimands.add_subplot())
    judged = robustness.judged(r.special_conditions, r.conditions_expected)
    robust = judged.filter(pl.col("robust"))
    order = t.sort("points", descending=True)["special"].to_list()
    found = figure(height=8.9)
    found_plot = Plot.natural(found)
    plot_conditions(r.special_conditions, order, found.add_subplot(),
                    "worth, points a game in play (95% CI)",
                    lambda k: k.replace("_", " "))  # fmt: skip
    where = appendix_label(r, "Specials") or "the appendix"

    def points(x: dict) -> str:
        return prose_effect(x["points"], x["points_low"], x["points_high"], "points", "+.2f")

    return [
        Heading(f"{num}  How strong is each Today's Special?"),
        Prose(
            "A special's worth, as a designer means it: one seat never receives the special "
            "(it takes portions as it likes, the tile is forfeited when it reaches it, and its "
            "strategy values the tile as absent) and plays the unrestricted field on the same "
            "deals, from every seat in turn; the unrestricted seat's score minus the "
            "forfeiting seat's, over the deals where the special is in play (which specials "
            "appear is a fact of the deal), is what being able to receive it is worth: its "
            "points and its uses, with what players pay for it. "
            f"At {main} players the worth is largest for {top['special'].replace('_', ' ')} "
            f"({points(top)}, {top['in_play']:,} deals) and least for "
            f"{bottom['special'].replace('_', ' ')} ({points(bottom)}"
            f"); {int((f['holm_sign'] > 0).sum())} of {f.height} are worth having and "
            f"{int((f['holm_sign'] < 0).sum())} costly after Holm's correction over the "
            f"{f.height} specials (* on the chart). The other estimands of {where} answer "
            "other questions.", size=8.5),
        worth_plot,
        Heading("Worth by player count (points a game in play; * Holm-significant within a "
                "count)", level=3),
        heat_plot,
        PageBreak(),
        Heading(f"{num}  Specials at {main} players: the other estimands", level=2),
        Prose(
            "In win share, four estimands that answer different questions. Worth (forfeit): "
            "as above, in win share. Value of being allowed to take the portion (the avoid "
            "restriction: a seat that never takes the portion carrying the special while "
            "another is free, on every deal): it also gives up what the slicer put with the "
            "tile to make it acceptable, so a costly tile can come out positive; it is not "
            "what the special is worth. Own points: the finished games re-scored without the "
            "special's scoring effect, holdings fixed (0 by definition for Cut in Line, Dibs!, "
            "Sneak-a-Slice and Mystery Slice). Value to the taker: the same deals with the "
            "special replaced by a blank tile, for the seat that held it; it includes what "
            "the players gave up to get it.", size=8.5),
        estimands_plot,
        PageBreak(),
        Heading(f"{num}  Specials at {main} players: does the worth hold in other fields and "
                "on other decks?", level=2),
        Prose(
            f"Each special's worth at {main} players (points a game it is in play) in every "
            "field (greedy, the equilibrium heuristic, the search player) and on the five "
            "plausible decks. "
            + ("Robust (same sign, interval clear of 0 everywhere): "
               + listing(f"{k.replace('_', ' ')} ({'+' if s > 0 else '−'})"
                         for k, s in zip(robust["key"], robust["sign"], strict=True)) + "."
               if robust.height else "No special's worth is robust in every field and deck.")
            + f" {judged.height - robust.height} of {judged.height} are not: their rows say "
            f"why in {where}.", size=8.5),
        found_plot,
    ]  # fmt: skip


def _specials_appendix(r: Results, label: str) -> list[Block]:
    out: list[Block] = []
    for n in sorted(r.forfeit["players"].unique()):
        t = _estimands(r, n).sort("points", descending=True)
        shown = ci_col(t, "points", "points_low", "points_high", "worth (points)", "+.2f")
        shown = shown.with_columns(pl.Series("corrected", [
            f"[{a:+.2f}, {b:+.2f}]" if np.isfinite(a) and np.isfinite(b) else "—"
            for a, b in zip(t["adj_low"].fill_null(np.nan), t["adj_high"].fill_null(np.nan),
                            strict=True)]))  # fmt: skip
        shown = ci_col(shown, "value_pp", "value_low", "value_high", "allowed to take (pp)")
        shown = ci_col(shown, "own_pp", "own_low", "own_high", "own points (pp)")
        shown = ci_col(shown, "effect_pp", "effect_low", "effect_high", "taker vs blank (pp)")
        shown = fmt(shown.select(
            pl.col("special").str.replace_all("_", " "), "worth (points)",
            "corrected", pl.col("in_play").alias("deals"),
            "allowed to take (pp)", "own points (pp)", pl.col("own_points").alias("own pts"),
            "taker vs blank (pp)", pl.col("taker_games").alias("games")),
            {"own pts": "+.2f"})  # fmt: skip
        out += [Heading(f"{label} — Specials at {n} players: every estimand"),
                Prose("Worth (forfeit) counts the deals where the special is in play (every "
                      "rotation shares one), with its interval corrected over the specials of "
                      "the count (Bonferroni); allowed to take (avoid) counts every deal; own "
                      "points and value to the taker count the games where someone held the "
                      "special."), Table.of(shown, size=6.3)]  # fmt: skip
    tab = conditions_table(r.special_conditions)
    judged = robustness.judged(r.special_conditions, r.conditions_expected)
    shown = ci_col(tab, "estimate", "low", "high", "worth [95% CI]", "+.2f").join(
        judged.select(pl.col("key").alias("headline"), "label"), on="headline", how="left"
    )
    shown = fmt(shown.select(pl.col("headline").str.replace_all("_", " ").alias("special"),
                             "condition", "worth [95% CI]", "n", "label"), {})  # fmt: skip
    return out + [Heading(f"{label} — Worth (points a game in play) at {MAIN_PLAYERS} players "
                          "in every field and deck"),
                  Table.of(shown, size=6.5)]  # fmt: skip


SPECIALS = Section("Specials", _specials_compute, headlines=_specials_headlines,
                   cells=_specials_cells, blocks=_specials_blocks,
                   appendix_blocks=_specials_appendix)  # fmt: skip
"""2: how strong is each Today's Special?"""


# ----------------------------------------------------------------------------- 3 eat or collect


def _eat_compute(r: Results) -> dict[str, Any]:
    out = r.out
    payoffs = threshold.replay_payoffs(out, games=r.options["payoff_games"])
    return {
        "theta": threshold.theta_curve(out),
        "best_theta": threshold.best_theta(out),
        "payoffs": payoffs,
        "payoff_overall": threshold.eat_payoff_overall(payoffs),
        "payoff_pooled": threshold.eat_payoff_overall(payoffs, by_players=False),
        "payoff_by": {b: threshold.eat_payoff(payoffs, b) for b in EAT_BY},
        "eat_by": {b: threshold.eat_table(out, b) for b in EAT_BY},
        "theta_sets": robustness.theta_sets(out, MAIN_PLAYERS),
    }


def _eat_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    # the rows carry the θ verdict's estimate (held_out_theta): one number, stated alike
    out = best_headlines(r.best_theta, q, "theta", "θ",
                         lambda b: held_out_theta(b, b["players"], FIELD),
                         set_words="not significantly worse",
                         edge_words="its edge over the fair share against the field, on "
                         "held-out deals")  # fmt: skip
    for o in r.payoff_overall.iter_rows(named=True):
        out.append(headline(q, f"{o['players']} players: win share from eating instead of "
                            "collecting (replayed decisions, clustered by game)",
                            Estimate("win share from eating instead of collecting",
                                     o["payoff_pp"], o["payoff_low"], o["payoff_high"],
                                     int(o["games"]), "games", players=int(o["players"]),
                                     field=FIELD, method="replayed decisions, clustered by game",
                                     ),
                            warn=o["warning"]))  # fmt: skip
    return out


def _grid_notes(b: pl.DataFrame, grid: list[float]) -> str:
    """Where the tested θ do not bracket the best (:func:`analysis.sweep_section.grid_notes`),
    a sentence a note; else that they do."""
    notes = grid_notes(b)
    if not notes:
        return (f"The grid ({min(grid):g}–{max(grid):g}) brackets the best θ and the θ not "
                "significantly worse at every player count.")  # fmt: skip
    return " ".join(f"At {counts_text(counts)} {note}." for note, counts in notes.items())


def _eat_blocks(r: Results, num: int) -> list[Block]:
    b = r.best_theta
    grid = sorted(r.theta["theta"].unique().to_list())
    rerun = (
        f"Section {section_number(r, 'Seats')} repeats the seat question with "
        f"{_spec(r, 'seats-collect')}." if section_number(r, "Seats") else ""
    )  # fmt: skip
    text = (
        "One seat plays heuristic(theta=θ) — it eats when the eat value exceeds θ times the "
        "collect value, so a larger θ eats less — against a field of the equilibrium heuristic, "
        "from every seat in turn on the same deals. Best θ per player count, and the θ not "
        "significantly worse than it (paired by deal, Holm-adjusted one-sided tests): "
        + "; ".join(
            f"{r['players']}p {r['best_theta']:g} ({set_text(r, 'theta')})"
            for r in b.iter_rows(named=True)
        )  # fmt: skip
        + ". "
        + _grid_notes(b, grid)
        + " The edge is measured on held-out deals: the best θ of the even-numbered deals on "
        "the odd ones and the reverse, averaged."
        + " "
        + prose.field_check(b, _field_thetas(r), rerun=rerun)
    )
    sets, common, missing = r.theta_sets
    text += (
        f" At {MAIN_PLAYERS} players the sweep was repeated in {sets.height} fields and decks"
        + (f"; θ = {listing(f'{c:g}' for c in common)} is not significantly worse than the "
           "best in every one" if common else "; no θ is in every one's not-worse set")
        + (f" (not run: {listing(missing)})" if missing else "")
        + f". Tables: {appendix_label(r, 'Eat or collect') or 'the appendix'}."
    )  # fmt: skip
    fig = figure(height=6.8)
    plot = Plot.natural(fig)
    threshold.plot_theta_curve(r.theta, b, fig.add_subplot())
    return [Heading(f"{num}  When is eating better than collecting?"), Prose(text, size=8.5),
            plot, PageBreak(), *_eat_payoff_blocks(r, num)]  # fmt: skip


def _eat_appendix(r: Results, label: str) -> list[Block]:
    sets, _, _ = r.theta_sets
    return [
        Heading(f"{label} — The best θ per player count"),
        Table.of(best_table(r.best_theta, "theta", "θ", listed=False), size=7),
        Heading(f"{label} — The θ sweep at {MAIN_PLAYERS} players in every field and deck"),
        Prose("The best θ and the θ not significantly worse than it in each condition "
              "(deals: the sweep's paired unit)."),
        Table.of(sets_table(sets, "condition", "theta", "θ"), size=7.5),
    ]  # fmt: skip


def _eat_payoff_blocks(r: Results, num: int) -> list[Block]:
    pay = r.payoff_by
    o = r.payoff_pooled.row(0, named=True)
    text = (
        f"Causal payoff: {o['decisions']:,} real eat-or-collect decisions of the tuned "
        f"heuristic in {o['games']:,} games, each replayed both ways on the same deal with the "
        "same earlier moves, the rest played out by the same strategies (each weighted back to "
        "its game's eligible decisions; intervals clustered by game). The payoff is the "
        "decider's win share after eating minus after collecting; "
        + prose.payoff_overall(o["decisions"], o["payoff_pp"], o["payoff_low"], o["payoff_high"])
        + " Below: by the slice's pepperoni, its type's number and the race for that type's "
        "majority before the decision. Bottom right: how often the heuristic actually eats "
        "(observational, from the per-decision table)."
    )
    fig = figure(height=8.6)
    plot = Plot.natural(fig)
    axes = fig.subplots(2, 2).ravel()
    for ax, by in zip(axes[:3], EAT_BY, strict=True):
        threshold.plot_eat(pay[by], by, "payoff_pp", ax)
        ax.set_ylabel("eat − collect, win share pp", fontsize=8)
        ax.legend(fontsize=6, ncols=2)
    threshold.plot_eat(r.eat_by["race"], "race", "eat_rate", axes[3])
    axes[3].set_ylabel("share of decisions eaten", fontsize=8)
    axes[3].legend(fontsize=6, ncols=2)
    return [Heading(f"{num}  The eat decision: payoff by pepperoni, type and majority race",
                    level=2), Prose(text), plot]  # fmt: skip


EAT = Section("Eat or collect", _eat_compute, headlines=_eat_headlines,
              cells=lambda r: best_cells(r.theta, r.best_theta, "theta", "θ"),
              blocks=_eat_blocks, appendix_blocks=_eat_appendix)  # fmt: skip
"""3: when is eating better than collecting?"""


# ----------------------------------------------------------------------------- 4 player count

COUNT_HEADLINES = (
    ("shared_win", "shared wins", "%", ".1f"),
    ("unclaimed", "majorities nobody scores (per game, types in play)", "", ".2f"),
    ("margin", "winning margin", "pts", ".1f"),
)


def _count_about(r: Results, c: pl.DataFrame) -> str:
    counts = sorted(c["players"].unique())
    return (
        "A majority goes unscored when nobody holds the type or a tie is not broken by the "
        f"Tie-Breaker. Shared wins run from {count_range(c, 'shared_win', 100)}% of games; "
        f"unscored majorities from {count_range(c, 'unclaimed', f='.2f')} per game (types in "
        "play: " + ", ".join(f"{playercount.types_in_play(n)} at {n}p" for n in counts) + ")."
    )


COUNT = player_count_section("seats", extra=playercount.unclaimed, labels=playercount.LABELS,
                             headlines=COUNT_HEADLINES, about=_count_about)  # fmt: skip
"""4: does the game hold up from 2 to 6 players?"""


# ----------------------------------------------------------------------------- 5 what-if


def _whatif_compute(r: Results) -> dict[str, Any]:
    have = {a.get("group", a["name"]) for a in r.manifest["study"]["arms"]}
    out: dict[str, Any] = {"comp_change": None, "ssc_change": None}
    if "whatif-comp1" in have:
        out["comp_change"] = whatif.first_slicer_change(r.out, "seats", "whatif-comp1")
        out["comp_rules"] = block_rules(r.out, "whatif-comp1")
    if {"whatif-ssc-forfeit", "whatif-ssc-seats", "forfeit"} <= have:
        out["ssc_change"] = whatif.special_change(r.out)
        out["ssc_rules"] = block_rules(r.out, "whatif-ssc-seats")
    return out


WHATIF_MEASURES = {
    # measure: (the headline's words, the panel's y label, the table's name of the change)
    "first_edge": ("first slicer's edge with one point of compensation",
                   "first slicer's edge, pp (95% CI)", "compensation (pp)"),
    "worth": ("Super-Sized Combos' worth (points a game in play) with combos counting 1½",
              "Super-Sized Combos' worth, points a game in play", "super-sized 1½ (points)"),
}  # fmt: skip
"""The what-if section's changes, by the measure each moves (compensation the first
slicer's edge, the weaker combos their worth)."""


def _whatif_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    t = stack([r.tables.get("comp_change"), r.tables.get("ssc_change")])
    if t is None:
        return []
    out: list[Row] = []
    for m, (what, _, _) in WHATIF_MEASURES.items():

        def finding(c: Row, what: str = what) -> str:
            return (f"{c['players']} players: {what}: from {verdicts.signed(c['before'])} to "
                    f"{verdicts.signed(c['after'])} {c['unit']} (change)")  # fmt: skip

        # no warnings: the what-if cells are not on the sample-size page
        out += change_headlines(t, q, m, finding, f"change in the {what}", warn=False,
                                field=FIELD, method="paired by deal")  # fmt: skip
    return out


def _whatif_blocks(r: Results, num: int) -> list[Block]:
    comp, ssc = r.tables.get("comp_change"), r.tables.get("ssc_change")
    t = stack([comp, ssc])
    if t is None:
        return []
    parts = []
    if comp is not None:
        parts.append(
            f"Compensation ({change_text(r.comp_rules)}: one point for the first slicer "
            "at the final count): the first slicer's edge "
            + "; ".join(f"at {c['players']} players from "
                        f"{prose_effect(c['before'], c['before_low'], c['before_high'])} to "
                        f"{prose_effect(c['after'], c['after_low'], c['after_high'])}"
                        for c in comp.iter_rows(named=True)) + "."
        )  # fmt: skip
    if ssc is not None:
        m = ssc.filter(pl.col("players") == MAIN_PLAYERS)
        c = m.row(0, named=True) if m.height else ssc.row(0, named=True)
        parts.append(
            f"Super-Sized Combos weakened ({change_text(r.ssc_rules)}: each combo "
            "number counts 1½ slices instead of 2): its worth (points a game it is in play, "
            f"the forfeit estimand) at {c['players']} players moves from "
            f"{prose_effect(c['before'], c['before_low'], c['before_high'], 'points')} "
            f"to {prose_effect(c['after'], c['after_low'], c['after_high'], 'points')}."
        )
    measured = {"first_edge": comp, "worth": ssc}
    panels = {m: WHATIF_MEASURES[m][1] for m, x in measured.items() if x is not None}
    fig = figure(height=3.8)
    plot_changes(fig.subplots(1, len(panels), squeeze=False)[0], t, panels, ticks="{} players",
                 title="open: printed rules; filled: with the change")  # fmt: skip
    names = {m: name for m, (_, _, name) in WHATIF_MEASURES.items()}
    shown = change_frame(t, names, ("before", "after", "after − before"))
    return [
        Heading(f"{num}  What would the candidate rule changes do?"),
        Prose("Each change is played on the same deals as the printed game (same seed, the "
              "equilibrium heuristic in every seat, the default deck), so before and after are "
              "paired by deal. " + " ".join(parts), size=8.5),
        Plot.natural(fig),
        Table.of(shown.select(pl.col("measure").alias("change"), "players", "before", "after",
                              "after − before", "deals"), size=7),
    ]  # fmt: skip


WHATIF = Section("What-if rule changes", _whatif_compute, headlines=_whatif_headlines,
                 blocks=_whatif_blocks)  # fmt: skip
"""5: what would the candidate rule changes do?"""


GLOSSARY = {
    "θ (eat threshold)": "The heuristic eats a slice when its eat value is more than θ times "
    "its collect value: a larger θ eats less. The θ sweep plays one seat at each θ against "
    "the equilibrium field.",
    "worth (of a special)": "What being able to receive a special is worth: the score (or win "
    "share) of an unrestricted seat minus that of a seat that never receives it (it takes "
    "portions as it likes, forfeits the tile, and values it as absent), on the same deals, "
    "over the deals where the special is in play; the designer's ranking.",
    "value of being allowed to take the portion": "The win share of an unrestricted seat minus "
    "that of a seat that never takes the portion carrying the special while another is free "
    "(restricted play, Jaffe et al. 2012), on the same deals: it also gives up what the slicer "
    "put with the tile, so it is not what the special is worth.",
    "own points": "A special's scoring effect: the finished game re-scored without it, every "
    "holding fixed; 0 by definition for specials that act only during play.",
    "value to the taker": "The holder's win share in the real game minus in the same deal "
    "with the special replaced by a blank tile; includes what the holder gave up to get it.",
    "plausible deck": "The default deck with its assumed values (pepperoni, anchovies, three "
    "combo pairs) redrawn within stated ranges (studies/decks/nyslice-family.toml).",
    "first slicer": "Seat 0, who slices the first round (the rules' first-slicer ruling).",
}
"""New York Slice's terms, merged with the generic glossary."""


REPORT = GameReport(
    sections=(
        SEATS,
        SPECIALS,
        EAT,
        COUNT,
        WHATIF,
        ratings_section(groups=("ladder",)),
        sample_size_section(order=("Seats", "Eat or collect", "Specials")),
    ),
    blocks=BLOCKS,
    example="studies/nyslice-balance.toml",
    provenance=_provenance,
    notes=_notes,
    options={"payoff_games": 300, "n_boot": 1000, "own_games": 5000},
    verdicts=verdicts.verdicts,
    glossary=GLOSSARY,
    describe=describe,
    skill=SkillLevels(
        (
            Level("random", "random", "seats-random"),
            Level("greedy", "greedy", "seats-greedy"),
            Level("the equilibrium heuristic", "heuristic", "seats"),
            Level("search", "search(budget=4)", "seats-search"),
        ),
        main="heuristic",
    ),  # fmt: skip
)
"""New York Slice's balance report."""
