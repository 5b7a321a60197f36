"""New York Slice's balance report: the study blocks it reads, its title page and its
sections (:data:`REPORT`, found by :func:`analysis.report.game_report`).

1. Seats: is the first slicer favoured, does slicing twice matter, and does it hold for
   other players (``seats``, ``seats-collect``, ``seats-greedy``, ``ladder``, and
   ``seats-search`` when the study has it);
2. Specials: how strong is each Today's Special (``seats``, ``specials``);
3. Eat or collect: the θ sweep and the replayed decisions (``theta``, ``decisions``);
4. Player count, with the majorities nobody scores (``seats``);
5. Ratings and 6. Sample size: the generic sections (:mod:`analysis.sections`).

Every sentence of interpretation is computed from the numbers it states
(:mod:`analysis.prose`, :mod:`analysis.nyslice.prose`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
from matplotlib.backends.backend_pdf import PdfPages

from analysis import seats as generic_seats
from analysis.nyslice import playercount, prose, seats, specials, threshold
from analysis.pdf import TOP, ci, ci_col, fmt, heading, page, para, table
from analysis.prose import agreement_sentence, listing, sign_labels
from analysis.sections import (
    GameReport,
    Results,
    Row,
    Section,
    block_strategies,
    count_headlines,
    count_page,
    count_range,
    count_title,
    headline,
    ratings_section,
    sample_size_section,
    seat_cells,
    seat_headlines,
    seat_page,
)

BLOCKS = ("seats", "seats-collect", "seats-greedy", "specials", "theta", "decisions", "ladder")
"""Study blocks the report needs (see studies/nyslice-balance.toml)."""
SEAT_FIELDS = ("seats", "seats-collect", "seats-greedy", "seats-search")
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


def _number(r: Results, label: str) -> int | None:
    found = [i for i, s in enumerate(r.report.sections, 1) if s.label == label]
    return found[0] if found else None


def _see(r: Results, label: str) -> str:
    n = _number(r, label)
    return f" (section {n})" if n else ""


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
        f"{_see(r, 'Eat or collect')}"
    )


def _greedy_sentence(r: Results) -> str:
    spec = _spec(r, "seats-greedy")
    rated = prose.rated_vs(r.ratings, spec, "heuristic", "the equilibrium heuristic")
    return f"{spec}, {rated}{_see(r, 'Ratings')}"


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


def _seat_fields(r: Results) -> list[tuple[str, pl.DataFrame]]:
    """The seat question's fields present in the study: a name and its fairness table."""
    return [
        (describe(_spec(r, group)).removeprefix("the "), r.field_fairness[group])
        for group in SEAT_FIELDS
        if group in r.field_fairness
    ]


def _first_edges(r: Results) -> tuple[list[int], list[list[float]], list[list[float]],
                                      list[list[float]]]:  # fmt: skip
    """Per player count of the main field: each field's first-slicer edge and interval."""
    fields = _seat_fields(r)
    counts = r.fairness["players"].to_list()
    est, lo, hi = [], [], []
    for n in counts:
        rows = [f.filter(pl.col("players") == n) for _, f in fields]
        est.append([t["first_edge_pp"][0] if t.height else None for t in rows])
        lo.append([t["first_low"][0] if t.height else float("nan") for t in rows])
        hi.append([t["first_high"][0] if t.height else float("nan") for t in rows])
    return counts, est, lo, hi


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
        "seat_greedy": seats.seat_advantage(out, "seats-greedy"),
        "fairness_greedy": fields["seats-greedy"],
        "seat_collect": seats.seat_advantage(out, "seats-collect"),
        "fairness_collect": fields["seats-collect"],
        "rotated": generic_seats.rotated_seat_advantage(out),
    }


def _seats_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    out = seat_headlines(r.seat, r.fairness, q)
    for t in r.order_test.iter_rows(named=True):
        out.append(headline(q, f"{t['players']} players: slicing twice vs seat order (linear "
                            "model test; no claim about slicing twice)",
                            f"χ² p={t['p_value']:.2g}", t["games"],
                            "not separable" if t["rejected"] else "assumption"))  # fmt: skip
    counts, est, _, _ = _first_edges(r)
    agree = sum(1 for x in sign_labels(est) if x == "same sign")
    names = listing(name for name, _ in _seat_fields(r))
    k = len(counts)
    finding = (
        f"first slicer's edge with {names} in every seat: "
        + ("same sign at every player count" if agree == k else
           f"sign differs at {k - agree} of {k} player counts")
    )  # fmt: skip
    out.append(headline(q, finding, f"same sign at {agree} of {k} player counts",
                        int(r.fairness["games"].min()),
                        "" if agree == k else "seat effects depend on the players"))  # fmt: skip
    return out


def _seats_draw(pdf: PdfPages, r: Results, num: int) -> None:
    fig, y = seat_page(f"{num}  Is the first slicer favoured?", _field(r), r.seat, r.fairness,
                       who="The first slicer (seat 0)", seat_label=seats.SEAT_LABEL)  # fmt: skip
    if r.order_test.height:
        para(fig, y, prose.order_test(r.order_test, r.seat))
    pdf.savefig(fig)

    fig = page(f"{num}  Seats: does it hold for other players?")
    ladder = block_strategies(r, "ladder")
    lead, rest = (ladder[0], ladder[1:]) if ladder else ("?", [])
    search = _spec(r, "seats-search") if block_strategies(r, "seats-search") else ""
    search = (f"; and {search}, the search player, on a smaller block (in the table "
              "below)") if search else ""  # fmt: skip
    y = para(fig, TOP, "The seat question again with other players in every seat: "
             f"{_collect_sentence(r)}; {_greedy_sentence(r)}{search}. Right: {describe(lead)} "
             f"against {listing(rest)} players, the same deals played with it in every seat "
             "(rotated); its edge in each seat over its own mean across seats.")  # fmt: skip
    w = 0.27
    collect, greedy = _spec(r, "seats-collect"), _spec(r, "seats-greedy")
    for k, (t, title) in enumerate(
        ((r.seat_collect, f"{collect} in every seat"), (r.seat_greedy,
          f"{greedy} in every seat"))
    ):  # fmt: skip
        ax = fig.add_axes([0.07 + k * (w + 0.06), y - 0.31, w, 0.28])
        generic_seats.plot_seat_advantage(t, ax, seats.SEAT_LABEL)
        ax.set_title(title, fontsize=8)
        ax.legend(fontsize=5)
        ax.tick_params(labelsize=7)
        ax.xaxis.label.set_size(7)
        ax.yaxis.label.set_size(7)
    ax2 = fig.add_axes([0.07 + 2 * (w + 0.06), y - 0.31, w, 0.28])
    for n in sorted(r.rotated["players"].unique()):
        t = r.rotated.filter(pl.col("players") == n)
        ax2.errorbar(t["seat"] + (n - 4) * 0.05, t["edge_pp"],
                     yerr=[t["edge_pp"] - t["edge_low"], t["edge_high"] - t["edge_pp"]],
                     marker="o", ms=3, capsize=2, label=f"{n}p")  # fmt: skip
    ax2.axhline(0, color="black", lw=0.8)
    ax2.set_xlabel(f"seat of {lead}", fontsize=7)
    ax2.set_ylabel("edge over its mean, pp", fontsize=7)
    ax2.set_title(f"{lead} vs {' + '.join(rest)}, rotated", fontsize=8)
    ax2.tick_params(labelsize=7)
    ax2.legend(fontsize=5)
    y -= 0.38
    heading(fig, y, "First slicer (seat 0) minus the other seats, pp, by field")
    fields = _seat_fields(r)
    parts = []
    for name, f in fields:
        c = ci_col(f, "first_edge_pp", "first_low", "first_high", name)
        parts.append(c.select("players", name, pl.col("p_value").alias(f"χ² p ({name})")))
    wide = parts[0]
    for part in parts[1:]:
        wide = wide.join(part, on="players", how="left")
    counts, est, lo, hi = _first_edges(r)
    wide = wide.with_columns(pl.Series("agreement", sign_labels(est)))
    shown = fmt(wide.select("players", *[n for n, _ in fields], "agreement"), {})
    w = 0.66 / len(fields)
    y = table(fig, y - 0.01, shown, [0.08, *[w] * len(fields), 0.14], size=7)
    text = agreement_sentence([n for n, _ in fields], est, lo, hi, "the first slicer's edge")
    if any(x != "same sign" for x in sign_labels(est)):
        text += (" Where the signs differ, the seat effect is a property of the players, not "
                 "of the game.")  # fmt: skip
    para(fig, y, text + " Goodness-of-fit p-values for each field are in the notebooks "
         "(01-seat-advantage).", 9)  # fmt: skip
    pdf.savefig(fig)


SEATS = Section(
    "Seats", _seats_compute, _seats_draw, _seats_headlines, lambda r: seat_cells(r.seat)
)
"""1: is the first slicer favoured?"""


# ----------------------------------------------------------------------------- 2 specials


def _main(st: pl.DataFrame) -> int:
    counts = sorted(st["players"].unique())
    return MAIN_PLAYERS if MAIN_PLAYERS in counts else counts[-1]


def _specials_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    out = []
    for n in sorted(r.strength["players"].unique()):
        s = r.strength.filter(pl.col("players") == n).sort("effect_pp", descending=True)
        best, worst = s.row(0, named=True), s.row(-1, named=True)
        sig = int(s["holm_significant"].sum())
        out.append(headline(q, f"{n} players: strongest {best['special']} "
                            f"({sig} of {s.height} Holm-significant)",
                            ci(best["effect_pp"], best["effect_low"], best["effect_high"]),
                            best["games"], best["warning"]))  # fmt: skip
        out.append(headline(q, f"{n} players: weakest {worst['special']}",
                            ci(worst["effect_pp"], worst["effect_low"], worst["effect_high"]),
                            worst["games"], worst["warning"]))  # fmt: skip
    return out


def _specials_cells(r: Results) -> list[Row]:
    rows = []
    for f in r.strength.filter(pl.col("players") == MAIN_PLAYERS).iter_rows(named=True):
        need = int(np.ceil(f["games"] * f["half_width"] ** 2)) if f["games"] else None
        rows.append({"number": f"{MAIN_PLAYERS}p {f['special']} effect", "games": f["games"],
                     "± (pp)": f["half_width"], "games for ±1 pp": need,
                     "warning": f["warning"]})  # fmt: skip
    return rows


def _specials_draw(pdf: PdfPages, r: Results, num: int) -> None:
    st = r.strength
    counts = sorted(st["players"].unique())
    main = _main(st)
    fig = page(f"{num}  How strong is each Today's Special?")
    s = st.filter(pl.col("players") == main).sort("effect_pp", descending=True)
    text = (
        "Interventional: the same deals replayed with the special replaced by a blank tile; "
        "the effect is the holder's win share in the real game minus the same seat's in the "
        "replay. Observational: holders minus non-holders in the same games, within seats. "
        + prose.strongest_weakest(s, main)
        + " "
        + prose.estimates_differ(s, main)
    )
    y = para(fig, TOP, text)
    ax = fig.add_axes([0.3, y - 0.42, 0.65, 0.4])
    specials.plot_strength(st, main, ax)
    y -= 0.48
    heading(fig, y, "Interventional effect on the holder's win share (pp) by player count; "
            "* Holm-significant")  # fmt: skip
    ax = fig.add_axes([0.3, 0.05, 0.6, y - 0.08])
    names = specials.SPECIALS
    grid = np.full((len(names), len(counts)), np.nan)
    star = np.zeros_like(grid, dtype=bool)
    for row in st.iter_rows(named=True):
        i, j = names.index(row["special"]), counts.index(row["players"])
        grid[i, j] = row["effect_pp"]
        star[i, j] = row["holm_significant"]
    lim = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1
    ax.imshow(grid, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
    for i in range(len(names)):
        for j in range(len(counts)):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:+.1f}{'*' if star[i, j] else ''}", ha="center",
                        va="center", fontsize=7)  # fmt: skip
            else:
                ax.text(j, i, "not in play", ha="center", va="center", fontsize=6,
                        color="grey")  # fmt: skip
    ax.set_xticks(range(len(counts)), [f"{c} players" for c in counts], fontsize=8)
    ax.set_yticks(range(len(names)), [n.replace("_", " ") for n in names], fontsize=8)
    pdf.savefig(fig)

    fig = page(f"{num}  Specials at {main} players: both estimates, in points too")
    shown = ci_col(s, "effect_pp", "effect_low", "effect_high", "real − blank (pp)")
    shown = ci_col(shown, "score_effect", "score_low", "score_high", "real − blank (pts)",
                   "+.2f")  # fmt: skip
    shown = ci_col(shown, "obs_pp", "obs_low", "obs_high", "holders − others (pp)")
    shown = shown.with_columns((pl.col("score_effect") - pl.col("direct_points")).alias("other"))
    shown = fmt(shown.select("special", "games", "real − blank (pp)", "real − blank (pts)",
                             pl.col("direct_points").alias("direct pts"), pl.col("other")
                             .alias("other pts"), "p_holm", "holders − others (pp)", "warning"),
                {"p_holm": ".2g", "direct pts": "+.2f", "other pts": "+.2f"})  # fmt: skip
    y = para(fig, TOP, "'games' counts the paired games in which someone held the special "
             "(a special is dealt only in some games: one per round). The points columns "
             "split what the special does to its holder's total: 'direct' is the special's "
             "own starred points, 'other' everything else that went differently — what the "
             "holder gave up to take it and how the others played around it (Diet acts on "
             "the other players' totals). " + prose.other_points(s, main) + " "
             + prose.no_direct(s, main))  # fmt: skip
    table(fig, y, shown, [0.15, 0.05, 0.14, 0.14, 0.06, 0.06, 0.06, 0.14, 0.12], size=6.5,
          x=0.04)  # fmt: skip
    pdf.savefig(fig)


SPECIALS = Section(
    "Specials",
    lambda r: {"strength": specials.strength(r.out)},
    _specials_draw,
    _specials_headlines,
    _specials_cells,
)
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
    }


def _eat_headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    out = []
    for b in r.best_theta.iter_rows(named=True):
        out.append(headline(
            q,
            f"{b['players']} players: best θ {b['best_theta']:g} "
            f"(not significantly worse: {_theta_set(b)}); its edge over the fair share "
            "against the field, on held-out deals",
            ci(b["edge_pp"], b["edge_low"], b["edge_high"]), b["deals"], b["warning"],
        ))  # fmt: skip
    for o in r.payoff_overall.iter_rows(named=True):
        out.append(headline(q, f"{o['players']} players: win share from eating instead of "
                            "collecting (replayed decisions, clustered by game)",
                            ci(o["payoff_pp"], o["payoff_low"], o["payoff_high"]), o["games"],
                            o["warning"]))  # fmt: skip
    return out


def _grid_notes(b: pl.DataFrame, grid: list[float]) -> str:
    """Where the tested θ do not bracket the best (``grid_note``), counts with the same
    note together; else that they do."""
    notes: dict[str, list[int]] = {}
    for r in b.filter(~pl.col("grid_brackets_best")).iter_rows(named=True):
        notes.setdefault(r["grid_note"], []).append(r["players"])
    if not notes:
        return (f"The grid ({min(grid):g}–{max(grid):g}) brackets the best θ and the θ not "
                "significantly worse at every player count.")  # fmt: skip
    return " ".join(f"At {listing(str(n) for n in counts)} players {note}." for note, counts in
                    notes.items())  # fmt: skip


def _theta_set(b: dict) -> str:
    """The θ not significantly worse than the best, listed: ``1.4, 2, 2.8``."""
    return ", ".join(f"{t:g}" for t in b["theta_set"])


def _eat_cells(r: Results) -> list[Row]:
    best = r.best_theta.select("players", pl.col("best_theta").alias("theta"))
    return [
        {
            "number": f"{f['players']}p best θ={f['theta']:g}: seat win share (deals)",
            "games": f["deals"],
            "± (pp)": 100 * f["half_width"],
            "games for ±1 pp": f["games_for_1pp"],
            "warning": f["warning"],
        }  # fmt: skip
        for f in r.theta.join(best, on=["players", "theta"]).iter_rows(named=True)
    ]


def _eat_draw(pdf: PdfPages, r: Results, num: int) -> None:
    fig = page(f"{num}  When is eating better than collecting?")
    b = r.best_theta
    grid = sorted(r.theta["theta"].unique().to_list())
    rerun = (
        f"Section {_number(r, 'Seats')} repeats the seat question with "
        f"{_spec(r, 'seats-collect')}." if _number(r, "Seats") else ""
    )  # fmt: skip
    text = (
        "One seat plays heuristic(theta=θ) — it eats when the eat value exceeds θ times the "
        "collect value, so a larger θ eats less — against a field of the equilibrium heuristic, "
        "from every seat in turn on the same deals. Best θ per player count, and the θ not "
        "significantly worse than it (paired by deal, Holm-adjusted one-sided tests): "
        + "; ".join(
            f"{r['players']}p {r['best_theta']:g} ({_theta_set(r)})"
            for r in b.iter_rows(named=True)
        )  # fmt: skip
        + ". "
        + _grid_notes(b, grid)
        + " The edge is measured on held-out deals: the best θ of the even-numbered deals on "
        "the odd ones and the reverse, averaged."
        + " "
        + prose.field_check(b, _field_thetas(r), rerun=rerun)
    )
    y = para(fig, TOP, text)
    ax = fig.add_axes([0.1, y - 0.36, 0.85, 0.33])
    threshold.plot_theta_curve(r.theta, b, ax)
    y -= 0.42
    shown = ci_col(b, "edge_pp", "edge_low", "edge_high", "held-out edge (pp)")
    shown = shown.rename({"edge_in_sample_pp": "in-sample edge (pp)"})
    shown = fmt(shown.select("players", "deals", "best_theta", "set_low", "set_high",
                             "win_share", "held-out edge (pp)", "in-sample edge (pp)", "warning"),
                {"best_theta": "g", "set_low": "g", "set_high": "g", "win_share": ".3f",
                 "in-sample edge (pp)": "+.1f"})  # fmt: skip
    table(fig, y, shown, [0.07, 0.07, 0.09, 0.09, 0.09, 0.07, 0.09, 0.18, 0.17], size=7,
          x=0.05)  # fmt: skip
    pdf.savefig(fig)

    fig = page(f"{num}  The eat decision: payoff by pepperoni, type and majority race")
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
    y = para(fig, TOP, text)
    h = (y - 0.06) / 2 - 0.05
    axes = [fig.add_axes([0.08, y - h - 0.02, 0.4, h]), fig.add_axes([0.57, y - h - 0.02, 0.4, h]),
            fig.add_axes([0.08, 0.05, 0.4, h]), fig.add_axes([0.57, 0.05, 0.4, h])]  # fmt: skip
    for ax, by in zip(axes[:3], EAT_BY, strict=True):
        threshold.plot_eat(pay[by], by, "payoff_pp", ax)
        ax.set_ylabel("eat − collect, win share pp", fontsize=8)
        ax.legend(fontsize=6, ncols=2)
    threshold.plot_eat(r.eat_by["race"], "race", "eat_rate", axes[3])
    axes[3].set_ylabel("share of decisions eaten", fontsize=8)
    axes[3].legend(fontsize=6, ncols=2)
    pdf.savefig(fig)


EAT = Section("Eat or collect", _eat_compute, _eat_draw, _eat_headlines, _eat_cells)
"""3: when is eating better than collecting?"""


# ----------------------------------------------------------------------------- 4 player count

COUNT_HEADLINES = (
    ("shared_win", "shared wins", "%", ".1f"),
    ("unclaimed", "majorities nobody scores (per game, types in play)", "", ".2f"),
    ("margin", "winning margin", "pts", ".1f"),
)


def _count_draw(pdf: PdfPages, r: Results, num: int) -> None:
    c = r.count
    counts = sorted(c["players"].unique())
    text = (
        f"{_field(r)}. Winning margin is the winner's total minus the runner-up's; a "
        "majority goes unscored when nobody holds the type or a tie is not broken by the "
        f"Tie-Breaker. Shared wins run from {count_range(c, 'shared_win', 100)}% of games; "
        f"unscored majorities from {count_range(c, 'unclaimed', f='.2f')} per game (types in "
        "play: " + ", ".join(f"{playercount.types_in_play(n)} at {n}p" for n in counts) + ")."
    )
    pdf.savefig(count_page(count_title(c, num), text, c, playercount.LABELS))


COUNT = Section(
    "Player count",
    lambda r: {"count": playercount.player_count(r.out)},
    _count_draw,
    lambda r, q, rows: count_headlines(r.count, q, COUNT_HEADLINES),
)
"""4: does the game hold up from 2 to 6 players?"""


REPORT = GameReport(
    sections=(
        SEATS,
        SPECIALS,
        EAT,
        COUNT,
        ratings_section(),
        sample_size_section(order=("Seats", "Eat or collect", "Specials")),
    ),
    blocks=BLOCKS,
    example="studies/nyslice-balance.toml",
    provenance=_provenance,
    notes=_notes,
    options={"payoff_games": 300, "n_boot": 1000},
)
"""New York Slice's balance report."""
