"""The balance report: every question answered from one dataset, as a PDF.

:func:`compute` runs every analysis once (:class:`Results`), :func:`summary` condenses
them to one row per headline number, and :func:`write_report` lays them out: a title page
with provenance, a one-page summary, then a section per question with its figures, tables
and a sentence of interpretation generated from the numbers.
"""

from __future__ import annotations

import os
import textwrap
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure  # pages are plain Figures: no pyplot, no GUI backend

from analysis import playercount, ratings, seats, specials, threshold
from analysis.load import manifest
from analysis.samplesize import warning
from analysis.stats import mean_interval

A4 = (8.27, 11.69)
BLOCKS = ("seats", "seats-collect", "seats-greedy", "specials", "theta", "decisions", "ladder")
"""Study blocks the report reads (see studies/nyslice-balance.toml)."""
MAIN_PLAYERS = 4  # the count the single-count charts show (the game's usual table)


def check_dataset(out: str | Path) -> None:
    """Refuse a dataset the report cannot read, naming what is missing.

    Raises
    ------
    SlicelabError
        When ``out`` is not a complete dataset of a study with the balance blocks.
    """
    from sims.core.errors import SlicelabError

    try:
        m = manifest(out)
    except FileNotFoundError:
        raise SlicelabError(
            f"{out} is not a slicelab dataset (no manifest.json); pass a dataset directory or "
            "a study file such as studies/nyslice-balance.toml"
        ) from None
    have = {a.get("group", a["name"]) for a in m["study"]["arms"]}
    missing = [b for b in BLOCKS if b not in have]
    if missing:
        raise SlicelabError(
            f"{out} lacks the study blocks {missing} the balance report reads; run a study "
            "with them (e.g. studies/nyslice-balance.toml)"
        )
    if not m.get("complete"):
        raise SlicelabError(
            f"{out} is not complete; resume it (slicelab study {m.get('study_file')} --out "
            f"{out}) before reporting"
        )


@dataclass
class Results:
    """Every table of the balance report, computed once from a dataset."""

    out: Path
    manifest: dict
    seat: pl.DataFrame
    fairness: pl.DataFrame
    twice: pl.DataFrame
    seat_greedy: pl.DataFrame
    fairness_greedy: pl.DataFrame
    seat_collect: pl.DataFrame
    fairness_collect: pl.DataFrame
    rotated: pl.DataFrame
    strength: pl.DataFrame
    theta: pl.DataFrame
    best_theta: pl.DataFrame
    payoffs: pl.DataFrame
    payoff_by: dict[str, pl.DataFrame]
    eat_by: dict[str, pl.DataFrame]
    count: pl.DataFrame
    ratings: pl.DataFrame


def compute(out: str | Path, payoff_games: int = 300, n_boot: int = 1000) -> Results:
    """Run every analysis of the balance report on a dataset of the balance study.

    Parameters
    ----------
    out : path
        The dataset directory (``slicelab study studies/nyslice-balance.toml``).
    payoff_games : int
        Games per player count whose eat-or-collect decisions are replayed both ways
        (at most 12 decisions each) for the causal payoff.
    n_boot : int
        Bootstrap resamples for the best θ.
    """
    out = Path(out)
    payoffs = threshold.replay_payoffs(out, games=payoff_games)
    by = ("pepperoni", "type_a", "race")
    return Results(
        out=out,
        manifest=manifest(out),
        seat=seats.seat_advantage(out),
        fairness=seats.seat_fairness(out),
        twice=seats.slicing_twice(out),
        seat_greedy=seats.seat_advantage(out, "seats-greedy"),
        fairness_greedy=seats.seat_fairness(out, "seats-greedy"),
        seat_collect=seats.seat_advantage(out, "seats-collect"),
        fairness_collect=seats.seat_fairness(out, "seats-collect"),
        rotated=seats.rotated_seat_advantage(out),
        strength=specials.strength(out),
        theta=threshold.theta_curve(out),
        best_theta=threshold.best_theta(out, n_boot=n_boot),
        payoffs=payoffs,
        payoff_by={b: threshold.eat_payoff(payoffs, b) for b in by},
        eat_by={b: threshold.eat_table(out, b) for b in by},
        count=playercount.player_count(out),
        ratings=ratings.ratings(out),
    )


def _ci(est: float, lo: float, hi: float, unit: str = "pp", fmt: str = "+.1f") -> str:
    return f"{est:{fmt}} {unit} [{lo:{fmt}}, {hi:{fmt}}]".replace("  ", " ")


def summary(r: Results) -> pl.DataFrame:
    """One row per headline number: ``question, finding, estimate, games, warning``."""
    rows: list[dict] = []

    def add(q: str, finding: str, estimate: str, n: int, warn: str = "") -> None:
        rows.append({"question": q, "finding": finding, "estimate": estimate, "games": n,
                     "warning": warn})  # fmt: skip

    for f in r.fairness.iter_rows(named=True):
        n = f["players"]
        s = r.seat.filter(pl.col("players") == n)
        top = s.sort("edge_pp", descending=True).row(0, named=True)
        low = s.sort("edge_pp").row(0, named=True)
        fair = "not fair" if f["p_value"] < 0.05 else "no detectable seat effect"
        add(
            "1 Seats",
            f"{n} players: {fair} (χ² p={f['p_value']:.2g}); best seat {top['seat']}, "
            f"worst seat {low['seat']}",
            _ci(top["edge_pp"], top["edge_low"], top["edge_high"]) + f" (seat {top['seat']})",
            f["games"],
            warning(top["edge_pp"], top["edge_low"], top["edge_high"], f["games"]),
        )
    for t in r.twice.filter(pl.col("measure") == "win_share").iter_rows(named=True):
        what = "slicing one more time" if t["effect"] == "twice" else "sitting one seat later"
        add("1 Seats", f"{t['players']} players: effect of {what}",
            _ci(t["estimate"], t["low"], t["high"]), t["games"], t["warning"])  # fmt: skip
    agree = 0
    for n in r.fairness["players"]:
        signs = {
            np.sign(f.filter(pl.col("players") == n)["first_edge_pp"][0])
            for f in (r.fairness, r.fairness_collect, r.fairness_greedy)
        }
        agree += len(signs) == 1
    add("1 Seats", "first slicer's edge has the same sign with the tuned heuristic, "
        "heuristic(theta=4) and greedy in every seat", f"at {agree} of "
        f"{r.fairness.height} player counts", int(r.fairness["games"].min()),
        "" if agree == r.fairness.height else "seat effects depend on the players")  # fmt: skip
    for n in sorted(r.strength["players"].unique()):
        s = r.strength.filter(pl.col("players") == n).sort("effect_pp", descending=True)
        best, worst = s.row(0, named=True), s.row(-1, named=True)
        sig = int(s["holm_significant"].sum())
        add("2 Specials", f"{n} players: strongest {best['special']} "
            f"({sig} of {s.height} Holm-significant)",
            _ci(best["effect_pp"], best["effect_low"], best["effect_high"]), best["games"],
            best["warning"])  # fmt: skip
        add("2 Specials", f"{n} players: weakest {worst['special']}",
            _ci(worst["effect_pp"], worst["effect_low"], worst["effect_high"]), worst["games"],
            worst["warning"])  # fmt: skip
    for b in r.best_theta.iter_rows(named=True):
        add("3 Eat or collect",
            f"{b['players']} players: best θ {b['best_theta']:g} "
            f"(bootstrap {b['theta_low']:g}–{b['theta_high']:g}); its edge over the fair share "
            "against the tuned field",
            _ci(b["edge_pp"], b["edge_low"], b["edge_high"]), b["games"], b["warning"])  # fmt: skip
    for n, sub in r.payoffs.group_by("players", maintain_order=True):
        d = 100 * (sub["share_eat"] - sub["share_collect"]).to_numpy()
        m, lo, hi = mean_interval(d)
        add("3 Eat or collect", f"{n[0]} players: win share from eating instead of collecting "
            "(replayed decisions)", _ci(m, lo, hi), len(d),
            "" if lo > 0 or hi < 0 else "interval covers 0")  # fmt: skip
    for m, label, unit, fmt in (
        ("shared_win", "shared wins", "%", ".1f"),
        ("unclaimed", "majorities nobody scores (per game, types in play)", "", ".2f"),
        ("margin", "winning margin", "pts", ".1f"),
    ):
        t = r.count.filter(pl.col("measure") == m).sort("players")
        scale = 100 if unit == "%" else 1
        text = "; ".join(f"{p}p {scale * e:{fmt}}" for p, e in zip(t["players"], t["estimate"],
                                                                     strict=True))  # fmt: skip
        add("4 Player count", f"{label} by player count", text + (f" {unit}" if unit else ""),
            int(t["games"].min()), "; ".join(w for w in t["warning"] if w))  # fmt: skip
    for n in sorted(r.ratings["players"].unique()):
        t = r.ratings.filter(pl.col("players") == n)
        top, bottom = t.row(0, named=True), t.row(-1, named=True)
        add("5 Ratings",
            f"{n} players: {top['strategy']} rated highest, {bottom['strategy']} lowest (gap)",
            f"{top['rating'] - bottom['rating']:+.0f} Elo", top["pairs"])  # fmt: skip
    flagged = sum(1 for row in rows if row["warning"])
    add("6 Sample size", f"headline numbers flagged as too small for their claim: {flagged} "
        f"of {len(rows)}", "", 0)  # fmt: skip
    return pl.DataFrame(rows)


# ----------------------------------------------------------------------------- layout


def _page(pdf: PdfPages, title: str | None = None):
    fig = Figure(figsize=A4)
    if title:
        fig.text(0.06, 0.955, title, fontsize=15, weight="bold", va="top")
    return fig


def _para(fig, y: float, text: str, size: float = 9.5, width: int = 100) -> float:
    """Write a wrapped paragraph from height ``y`` (figure fraction); return the next y."""
    lines = textwrap.fill(text, width).splitlines()
    fig.text(0.06, y, "\n".join(lines), fontsize=size, va="top", linespacing=1.35)
    return y - (len(lines) * 1.35 * size / 72) / A4[1] - 0.012


def _table(
    fig, y: float, frame: pl.DataFrame, widths: list[float], size: float = 7.5, x: float = 0.06
) -> float:
    """Draw a frame as a ruled table from height ``y`` (figure fractions), wrapping each
    cell to its column; returns the height below the table."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    line_h = 1.3 * size / 72 / A4[1]
    chars = [max(4, int(w * A4[0] * 72 / (size * 0.55))) for w in widths]
    right = x + sum(widths)

    def draw_row(values, bold: bool) -> None:
        nonlocal y
        cells = [textwrap.fill(str(v), c) if str(v) else "" for v, c in
                 zip(values, chars, strict=True)]  # fmt: skip
        lines = max(c.count("\n") + 1 for c in cells)
        h = lines * line_h + 0.5 * line_h
        if bold:
            fig.patches.append(Rectangle((x, y - h), right - x, h, transform=fig.transFigure,
                                         color="#e6e6e6", zorder=0))  # fmt: skip
        cx = x
        for cell, w in zip(cells, widths, strict=True):
            fig.text(cx + 0.004, y - 0.25 * line_h, cell, fontsize=size, va="top",
                     weight="bold" if bold else "normal", linespacing=1.3)  # fmt: skip
            cx += w
        y -= h
        fig.lines.append(Line2D([x, right], [y, y], transform=fig.transFigure, lw=0.3,
                                color="#999999"))  # fmt: skip

    draw_row(frame.columns, True)
    for row in frame.iter_rows():
        draw_row(row, False)
    return y - 0.015


def _fmt(frame: pl.DataFrame, spec: dict[str, str]) -> pl.DataFrame:
    """Format numeric columns as strings (``spec``: column → format)."""

    def fmt(c: str) -> pl.Expr:
        if c not in spec:
            return pl.col(c).cast(pl.String).fill_null("")
        f = spec[c]
        return pl.col(c).map_elements(lambda v: format(v, f), return_dtype=pl.String).fill_null("")

    return frame.select([fmt(c) for c in frame.columns])


def _ci_col(frame: pl.DataFrame, est: str, lo: str, hi: str, name: str, fmt: str = "+.1f"):
    return frame.with_columns(
        pl.struct(est, lo, hi)
        .map_elements(
            lambda s: f"{s[est]:{fmt}} [{s[lo]:{fmt}}, {s[hi]:{fmt}}]", return_dtype=pl.String
        )  # fmt: skip
        .alias(name)
    )


# ----------------------------------------------------------------------------- pages


def _title_page(pdf: PdfPages, r: Results) -> None:
    m = r.manifest
    study = m["study"]
    fig = _page(pdf)
    fig.text(0.06, 0.90, "New York Slice", fontsize=26, weight="bold")
    fig.text(0.06, 0.865, "Balance report", fontsize=18)
    fig.text(0.06, 0.835, "slicelab — simulated games, effects with 95% intervals",
             fontsize=10, style="italic")  # fmt: skip
    blocks = {}
    for a in study["arms"]:
        g = a.get("group", a["name"])
        blocks.setdefault(g, [0, 0, set()])
        blocks[g][0] += 1
        blocks[g][1] += a["games"]
        blocks[g][2].add(a["players"])
    fps = list(m["fingerprints"].values())
    deck = fps[0] if fps else {}
    base_arm = study["arms"][0]
    rules = base_arm.get("rules") or {}
    prov = [
        ("Study", f"{m['study_name']}  ({m['study_file']})"),
        ("Study hash", m["study_hash"]),
        ("Seed", str(study["seed"])),
        ("Games", f"{sum(b[1] for b in blocks.values()):,} in {len(study['arms'])} arms"),
        ("Code version", m["code_version"]),
        ("Engines", ", ".join(sorted(set(m["engines"].values())))),
        ("Rules", f"{deck.get('rules_version', '?')}; ruling options: "
                  + (", ".join(f"{k}={v}" for k, v in rules.items()) or "the spec's defaults")),
        ("Deck", f"{deck.get('deck', '?')} (digest {deck.get('deck_digest', '?')})"),
        ("Data", str(r.out)),
        ("Dataset written", f"{m['created']} (complete: {m['complete']})"),
        ("Report built", datetime.now(UTC).isoformat(timespec="seconds")),
    ]  # fmt: skip
    y = 0.79
    for k, v in prov:
        fig.text(0.06, y, k, fontsize=9.5, weight="bold", va="top")
        lines = textwrap.fill(v, 78).splitlines()
        fig.text(0.26, y, "\n".join(lines), fontsize=9.5, va="top", family="monospace")
        y -= 0.022 * len(lines)
    y -= 0.015
    fig.text(0.06, y, "Study blocks", fontsize=11, weight="bold", va="top")
    y -= 0.03
    frame = pl.DataFrame(
        [
            {"block": g, "arms": b[0], "games": f"{b[1]:,}",
             "players": ", ".join(map(str, sorted(b[2])))}
            for g, b in blocks.items()
        ]
    )  # fmt: skip
    y = _table(fig, y, frame, [0.3, 0.12, 0.2, 0.26], size=8.5)
    y = _para(fig, y, "Deck assumptions. The default deck ('reconstructed v1') is partly "
              "assumed: types 3 (Veggie), 8, 10, 11, the 8/10 combo, the Anchovy slice and the "
              "Supreme are public; the names of types 4, 5, 6, 7 and 9, every slice's "
              "pepperoni and anchovy counts and three combo pairs are assumptions of the "
              "rules spec. Conclusions that depend on pepperoni or on particular types should "
              "be re-checked on the real tiles (slicelab --deck PATH).", 9)  # fmt: skip
    _para(fig, y, "Players. Unless a section says otherwise every seat plays 'heuristic' "
          "with its tuned preset for the player count (benchmarks/strategies.md; tuned "
          "against greedy). 'seats-collect' repeats the seat question with "
          "heuristic(theta=4), which collects more and beats the preset (section 3), and "
          "'seats-greedy' with the weaker greedy player. A conclusion from weak agents is "
          "weak: where the fields disagree, trust none of them blindly.", 9)  # fmt: skip
    pdf.savefig(fig)


def _summary_page(pdf: PdfPages, r: Results, table: pl.DataFrame) -> None:
    fig = _page(pdf, "Summary")
    y = _para(fig, 0.925, "One line per headline number. Estimates are differences in win "
              "share (percentage points) unless marked, with 95% intervals. 'warning' marks "
              "a number too small to support its claim (section 6).", 9)  # fmt: skip
    shown = table.with_columns(pl.col("games").cast(pl.String).replace("0", ""))
    _table(fig, y, shown, [0.1, 0.33, 0.2, 0.07, 0.22], size=6.5, x=0.04)
    pdf.savefig(fig)


def _seats_pages(pdf: PdfPages, r: Results) -> None:
    fig = _page(pdf, "1  Is the first slicer favoured?")
    fair = r.fairness
    worst = fair.sort("max_edge_pp", descending=True).row(0, named=True)
    unfair = [int(p) for p, q in zip(fair["players"], fair["p_value"], strict=True) if q < 0.05]
    text = (
        "Every seat plays the tuned heuristic; each game is the paired unit (all seats see "
        "the same deal). "
        + (f"Equal shares are rejected at {', '.join(map(str, unfair))} players (χ² test). "
           if unfair else "No player count rejects equal shares (χ² test). ")
        + f"The largest seat edge is {worst['max_edge_pp']:.1f} pp at {worst['players']} "
        "players. Dashed lines are the fair shares."
    )  # fmt: skip
    firsts = "; ".join(
        f"{p}p {_ci(e, lo, hi)}" for p, e, lo, hi in
        zip(fair["players"], fair["first_edge_pp"], fair["first_low"], fair["first_high"],
            strict=True)
    )  # fmt: skip
    text += f" The first slicer (seat 0) against the mean of the other seats: {firsts}."
    y = _para(fig, 0.925, text)
    ax = fig.add_axes([0.1, y - 0.36, 0.85, 0.33])
    seats.plot_seat_advantage(r.seat, ax)
    y -= 0.42
    shown = _ci_col(fair, "first_edge_pp", "first_low", "first_high", "seat 0 − others (pp)")
    shown = _fmt(shown.select("players", "games", "chi2", "df", "p_value", "max_edge_pp",
                              "seat 0 − others (pp)", "warning"),
                 {"chi2": ".2f", "p_value": ".3g", "max_edge_pp": ".2f"})  # fmt: skip
    fig.text(0.06, y, "Goodness of fit against fair shares", fontsize=10, weight="bold")
    y = _table(fig, y - 0.01, shown, [0.07, 0.07, 0.07, 0.04, 0.08, 0.1, 0.2, 0.25], size=7)
    tw = r.twice
    if tw.height:
        t = tw.filter((pl.col("measure") == "win_share") & (pl.col("effect") == "twice"))
        o = tw.filter((pl.col("measure") == "win_share") & (pl.col("effect") == "order_step"))
        text = (
            f"Slicing twice. At {t['players'][0]} players two seats slice twice. Separating "
            "the two causes with a per-game linear contrast (order effect linear in the seat), "
            f"slicing one more time is worth {_ci(t['estimate'][0], t['low'][0], t['high'][0])}"
            f" of win share and sitting one seat later "
            f"{_ci(o['estimate'][0], o['low'][0], o['high'][0])}."
        )
        y = _para(fig, y, text)
        shown = _ci_col(tw, "estimate", "low", "high", "estimate [95% CI]", "+.2f")
        shown = shown.select("players", "measure", "effect", "estimate [95% CI]", "games",
                             "warning")  # fmt: skip
        _table(fig, y, _fmt(shown, {}), [0.08, 0.12, 0.12, 0.22, 0.08, 0.26], size=7)
    pdf.savefig(fig)

    fig = _page(pdf, "1  Seats: does it hold for other players?")
    y = _para(fig, 0.925, "The seat question again with other players in every seat: "
              "heuristic(theta=4), which collects more and beats the tuned preset (section 3), "
              "and the weaker greedy player. Right: the tuned heuristic against greedy and "
              "random players, the same deals played with it in every seat (rotated); its "
              "edge in each seat over its own mean across seats. A seat effect that changes "
              "sign with the players is a property of the players, not of the game.")  # fmt: skip
    w = 0.27
    for k, (table, title) in enumerate(
        ((r.seat_collect, "heuristic(theta=4) in every seat"), (r.seat_greedy,
          "greedy in every seat"))
    ):  # fmt: skip
        ax = fig.add_axes([0.07 + k * (w + 0.06), y - 0.31, w, 0.28])
        seats.plot_seat_advantage(table, ax)
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
    ax2.set_xlabel("seat of the heuristic", fontsize=7)
    ax2.set_ylabel("edge over its mean, pp", fontsize=7)
    ax2.set_title("heuristic vs greedy + random, rotated", fontsize=8)
    ax2.tick_params(labelsize=7)
    ax2.legend(fontsize=5)
    y -= 0.38
    fig.text(0.06, y, "First slicer (seat 0) minus the other seats, pp, by field",
             fontsize=10, weight="bold")  # fmt: skip
    fields = (("tuned heuristic", r.fairness), ("heuristic(theta=4)", r.fairness_collect),
              ("greedy", r.fairness_greedy))  # fmt: skip
    parts = []
    for name, f in fields:
        c = _ci_col(f, "first_edge_pp", "first_low", "first_high", name)
        parts.append(c.select("players", name, pl.col("p_value").alias(f"χ² p ({name})")))
    wide = parts[0]
    for part in parts[1:]:
        wide = wide.join(part, on="players", how="left")
    signs = []
    for row in wide.iter_rows(named=True):
        vals = [row[name] for name, _ in fields]
        sg = {v.strip()[0] for v in vals if v}
        signs.append("same sign" if len(sg) == 1 else "sign differs")
    wide = wide.with_columns(pl.Series("agreement", signs))
    shown = _fmt(wide.select("players", *[n for n, _ in fields], "agreement"), {})
    y = _table(fig, y - 0.01, shown, [0.08, 0.22, 0.22, 0.22, 0.14], size=7)
    agree = sum(1 for x in signs if x == "same sign")
    _para(fig, y, f"The three fields agree on the sign of the first slicer's edge at {agree} "
          f"of {len(signs)} player counts. Goodness-of-fit p-values for each field are in "
          "the notebooks (01-seat-advantage).", 9)  # fmt: skip
    pdf.savefig(fig)


def _specials_pages(pdf: PdfPages, r: Results) -> None:
    st = r.strength
    counts = sorted(st["players"].unique())
    main = MAIN_PLAYERS if MAIN_PLAYERS in counts else counts[-1]
    fig = _page(pdf, "2  How strong is each Today's Special?")
    s = st.filter(pl.col("players") == main).sort("effect_pp", descending=True)
    sig = s.filter(pl.col("holm_significant"))["special"].to_list()
    text = (
        "Interventional: the same deals replayed with the special replaced by a blank tile; "
        "the effect is the holder's win share in the real game minus the same seat's in the "
        "replay. Observational: holders minus non-holders in the same games, within seats. "
        f"At {main} players {s['special'][0]} is strongest "
        f"({_ci(s['effect_pp'][0], s['effect_low'][0], s['effect_high'][0])}) and "
        f"{s['special'][-1]} weakest; Holm-significant across the specials: "
        + (", ".join(sig) if sig else "none")
        + ". Where the two estimates differ, the observational one is picking up the value "
        "of the portion that came with the special."
    )
    y = _para(fig, 0.925, text)
    ax = fig.add_axes([0.3, y - 0.42, 0.65, 0.4])
    specials.plot_strength(st, main, ax)
    y -= 0.48
    fig.text(0.06, y, "Interventional effect on the holder's win share (pp) by player count; "
             "* Holm-significant", fontsize=10, weight="bold")  # fmt: skip
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

    fig = _page(pdf, f"2  Specials at {main} players: both estimates, in points too")
    shown = _ci_col(s, "effect_pp", "effect_low", "effect_high", "real − blank (pp)")
    shown = _ci_col(shown, "score_effect", "score_low", "score_high", "real − blank (pts)",
                    "+.2f")  # fmt: skip
    shown = _ci_col(shown, "obs_pp", "obs_low", "obs_high", "holders − others (pp)")
    shown = shown.with_columns((pl.col("score_effect") - pl.col("direct_points")).alias("other"))
    shown = _fmt(shown.select("special", "games", "real − blank (pp)", "real − blank (pts)",
                              pl.col("direct_points").alias("direct pts"), pl.col("other")
                              .alias("other pts"), "p_holm", "holders − others (pp)", "warning"),
                 {"p_holm": ".2g", "direct pts": "+.2f", "other pts": "+.2f"})  # fmt: skip
    y = _para(fig, 0.925, "'games' counts the paired games in which someone held the special "
              "(a special is dealt only in some games: one per round). The points columns "
              "split what the special does to its holder's total: 'direct' is the special's "
              "own starred points, 'other' everything else that went differently — what the "
              "holder gave up to take it and how the others played around it. A large "
              "negative 'other' means the players overpay for the special. Unstarred specials "
              "(Super-Sized Combos, Tie-Breaker, You Like Anchovies!, the one-use ones) act "
              "only through 'other'; Diet acts on the other players' totals.")  # fmt: skip
    _table(fig, y, shown, [0.15, 0.05, 0.14, 0.14, 0.06, 0.06, 0.06, 0.14, 0.12], size=6.5,
           x=0.04)  # fmt: skip
    pdf.savefig(fig)


def _threshold_pages(pdf: PdfPages, r: Results) -> None:
    fig = _page(pdf, "3  When is eating better than collecting?")
    b = r.best_theta
    text = (
        "One seat plays heuristic(theta=θ) — it eats when the eat value exceeds θ times the "
        "collect value, so a larger θ eats less — against a field of the tuned heuristic, "
        "from every seat in turn on the same deals. Best θ per player count: "
        + "; ".join(
            f"{p}p {t:g} (bootstrap {lo:g}–{hi:g})"
            for p, t, lo, hi in zip(
                b["players"], b["best_theta"], b["theta_low"], b["theta_high"], strict=True
            )
        )  # fmt: skip
        + ". A best θ at the edge of the grid means the optimum may lie beyond it."
    )
    exploit = b.filter(pl.col("edge_low") > 2)
    if exploit.height:
        text += (
            " Field check: a single seat switching θ beats the tuned field by "
            + ", ".join(
                f"{e:+.0f} pp at {p}p"
                for p, e in zip(exploit["players"], exploit["edge_pp"], strict=True)
            )  # fmt: skip
            + " over its fair share — the tuned presets (tuned against greedy) eat far too "
            "much in self-play, so the other sections describe games among exploitable "
            "players; section 1 repeats the seat question with heuristic(theta=4)."
        )
    y = _para(fig, 0.925, text)
    ax = fig.add_axes([0.1, y - 0.36, 0.85, 0.33])
    threshold.plot_theta_curve(r.theta, b, ax)
    y -= 0.42
    shown = _ci_col(b, "edge_pp", "edge_low", "edge_high", "edge over fair (pp)")
    shown = _fmt(shown.select("players", "games", "best_theta", "theta_low", "theta_high",
                              "p_best", "win_share", "edge over fair (pp)", "warning"),
                 {"best_theta": "g", "theta_low": "g", "theta_high": "g", "p_best": ".2f",
                  "win_share": ".3f"})  # fmt: skip
    _table(fig, y, shown, [0.07, 0.07, 0.09, 0.09, 0.09, 0.07, 0.09, 0.18, 0.17], size=7,
           x=0.05)  # fmt: skip
    pdf.savefig(fig)

    fig = _page(pdf, "3  The eat decision: payoff by pepperoni, type and majority race")
    n_dec = r.payoffs.height
    pay = r.payoff_by
    overall = 100 * (r.payoffs["share_eat"] - r.payoffs["share_collect"]).mean()
    text = (
        f"Causal payoff: {n_dec:,} real eat-or-collect decisions of the tuned heuristic "
        "(numbered slices), each replayed both ways on the same deal with the same earlier "
        "moves, the rest played out by the same strategies. The payoff is the decider's win "
        f"share after eating minus after collecting; over all decisions {overall:+.1f} pp. "
        "Below: by the slice's pepperoni, its type's number and the race for that type's "
        "majority before the decision. Bottom right: how often the heuristic actually eats "
        "(observational, from the per-decision table)."
    )
    y = _para(fig, 0.925, text)
    h = (y - 0.06) / 2 - 0.05
    axes = [fig.add_axes([0.08, y - h - 0.02, 0.4, h]), fig.add_axes([0.57, y - h - 0.02, 0.4, h]),
            fig.add_axes([0.08, 0.05, 0.4, h]), fig.add_axes([0.57, 0.05, 0.4, h])]  # fmt: skip
    for ax, by in zip(axes[:3], ("pepperoni", "type_a", "race"), strict=True):
        threshold.plot_eat(pay[by], by, "payoff_pp", ax)
        ax.set_ylabel("eat − collect, win share pp", fontsize=8)
        ax.legend(fontsize=6, ncols=2)
    threshold.plot_eat(r.eat_by["race"], "race", "eat_rate", axes[3])
    axes[3].set_ylabel("share of decisions eaten", fontsize=8)
    axes[3].legend(fontsize=6, ncols=2)
    pdf.savefig(fig)


def _count_page(pdf: PdfPages, r: Results) -> None:
    fig = _page(pdf, "4  Does the game hold up from 2 to 6 players?")
    c = r.count

    def est(m, n):
        t = c.filter((pl.col("measure") == m) & (pl.col("players") == n))
        return t["estimate"][0] if t.height else float("nan")

    counts = sorted(c["players"].unique())
    text = (
        "Tuned heuristic in every seat. Winning margin is the winner's total minus the "
        "runner-up's; a majority goes unscored when nobody holds the type or a tie is not "
        "broken by the Tie-Breaker. "
        + f"Shared wins run from {100 * min(est('shared_win', n) for n in counts):.1f}% to "
        f"{100 * max(est('shared_win', n) for n in counts):.1f}% of games; unscored "
        f"majorities from {min(est('unclaimed', n) for n in counts):.2f} to "
        f"{max(est('unclaimed', n) for n in counts):.2f} per game (types in play: "
        + ", ".join(f"{playercount.types_in_play(n)} at {n}p" for n in counts)
        + ")."
    )
    y = _para(fig, 0.925, text)
    axes = np.array([[fig.add_axes([0.08 + 0.31 * j, y - 0.2 - 0.25 * i, 0.25, 0.17])
                      for j in range(3)] for i in range(2)])  # fmt: skip
    playercount.plot_player_count(c, axes)
    y -= 0.55
    wide = _ci_col(c, "estimate", "low", "high", "cell", ".3g")
    shown = wide.pivot(on="measure", index="players", values="cell")
    y = _table(fig, y, shown, [0.07] + [0.135] * (shown.width - 1), size=6.5)
    warned = c.filter(pl.col("warning") != "")
    if warned.height:
        notes = "; ".join(f"{p}p {m}: {w}" for p, m, w in
                          zip(warned["players"], warned["measure"], warned["warning"],
                              strict=True))  # fmt: skip
        _para(fig, y, "Warnings: " + notes, 7.5, 130)
    pdf.savefig(fig)


def _ratings_page(pdf: PdfPages, r: Results) -> None:
    fig = _page(pdf, "5  Strategy ratings")
    t = r.ratings
    counts = sorted(t["players"].unique())
    y = _para(fig, 0.925, "Bradley–Terry ratings on the Elo scale (400 points = 10:1 odds) "
              "fitted to every pair of different strategies at the same table (higher total "
              "wins the pair), per player count, with 95% bootstrap intervals over games. "
              "Strategies are the study's: the tuned heuristic, greedy, random and the "
              "θ-sweep variants.")  # fmt: skip
    cols = 2
    rows = int(np.ceil(len(counts) / cols))
    h = (y - 0.06) / max(rows, 1)
    for k, n in enumerate(counts):
        i, j = divmod(k, cols)
        ax = fig.add_axes([0.2 + 0.47 * j, y - (i + 1) * h + 0.03, 0.28, h - 0.06])
        ratings.plot_ratings(t, n, ax)
        ax.tick_params(labelsize=6)
        ax.set_xlabel("Elo (mean 0)", fontsize=7)
        ax.set_title(f"{n} players", fontsize=9)
    pdf.savefig(fig)


def _samplesize_page(pdf: PdfPages, r: Results, table: pl.DataFrame) -> None:
    fig = _page(pdf, "6  Are there enough games?")
    rows = []
    for f in r.seat.iter_rows(named=True):
        rows.append({"number": f"{f['players']}p seat {f['seat']} win share",
                     "games": f["games"], "± (pp)": 100 * f["half_width"],
                     "games for ±1 pp": f["games_for_1pp"], "warning": f["warning"]})  # fmt: skip
    best = r.best_theta.select("players", pl.col("best_theta").alias("theta"))
    for f in r.theta.join(best, on=["players", "theta"]).iter_rows(named=True):
        rows.append({"number": f"{f['players']}p best θ={f['theta']:g}: seat win share",
                     "games": f["games"],
                     "± (pp)": 100 * f["half_width"], "games for ±1 pp": f["games_for_1pp"],
                     "warning": f["warning"]})  # fmt: skip
    for f in r.strength.filter(pl.col("players") == MAIN_PLAYERS).iter_rows(named=True):
        need = int(np.ceil(f["games"] * f["half_width"] ** 2)) if f["games"] else None
        rows.append({"number": f"{MAIN_PLAYERS}p {f['special']} effect", "games": f["games"],
                     "± (pp)": f["half_width"], "games for ±1 pp": need,
                     "warning": f["warning"]})  # fmt: skip
    frame = pl.DataFrame(rows)
    flagged = int((frame["warning"] != "").sum())
    y = _para(
        fig,
        0.925,
        "For each headline number: its interval half-width and the games "
        "that would give ±1 pp (scaled from the cell's own variance). A warning marks a "
        f"cell whose interval covers the reference or that rests on fewer than 100 "
        f"games: {flagged} of {frame.height} cells below. The design notes' rule of "
        "thumb: ±1 pp needs about 10,000 games at p ≈ 0.5, ±0.1 pp about 1,000,000.",
    )
    shown = _fmt(frame, {"± (pp)": ".2f"}).with_columns(pl.col("games for ±1 pp"))
    _table(fig, y, shown, [0.3, 0.08, 0.08, 0.13, 0.33], size=6, x=0.04)
    pdf.savefig(fig)


def write_report(
    out: str | Path, pdf_path: str | Path, payoff_games: int = 300, results: Results | None = None
) -> Path:
    """Compute every analysis of a balance dataset and write the PDF report atomically.

    Parameters
    ----------
    out : path
        Dataset directory of the balance study (or a study with the same blocks).
    pdf_path : path
        Where to write the PDF; its directory is created.
    payoff_games : int
        See :func:`compute`.
    results : Results, optional
        Already computed analyses of ``out`` (skips :func:`compute`).

    Returns
    -------
    Path
        ``pdf_path``.
    """
    r = results or compute(out, payoff_games=payoff_games)
    table = summary(r)
    pdf_path = Path(pdf_path)
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = pdf_path.with_name(f".{pdf_path.name}.{os.getpid()}.tmp")
    with PdfPages(tmp, metadata={"Title": f"New York Slice balance — {r.manifest['study_name']}",
                                 "Author": "slicelab"}) as pdf:  # fmt: skip
        _title_page(pdf, r)
        _summary_page(pdf, r, table)
        _seats_pages(pdf, r)
        _specials_pages(pdf, r)
        _threshold_pages(pdf, r)
        _count_page(pdf, r)
        _ratings_page(pdf, r)
        _samplesize_page(pdf, r, table)
    os.replace(tmp, pdf_path)
    return pdf_path
