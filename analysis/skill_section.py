"""The report's skill section, for any game that declares its skill levels
(:attr:`analysis.sections.GameReport.skill`): the matchup matrix of the levels at every
player count, the main field's exploitability by the other levels, and the first player's
edge at every level with a sentence saying how it moves as skill rises
(:mod:`analysis.skill` computes them).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from analysis import skill
from analysis.content import Block, Heading, Plot, Prose, Table, panels
from analysis.estimates import Estimate
from analysis.formats import ci, ci_col, fmt
from analysis.prose import counts_text, listing
from analysis.robust import DESCRIBING_FAMILIES, family
from analysis.sections import Results, Row, Section, appendix_label, headline
from analysis.skill import SkillLevels
from sims.core.levels import WEAK_GAP

LABEL = "Skill levels"


def compute(r: Results) -> dict[str, Any]:
    """The skill tables: ``matchups``, ``exploitability``, ``seat_levels``,
    ``seat_trends`` and ``weak_specs`` (empty when the study has no skill block)."""
    levels: SkillLevels | None = r.report.skill
    if levels is None or not skill.skill_blocks(r.out):
        return {}
    table = skill.matchups(r.out)
    # levels that never judge a trend: random play (it describes, analysis.robust) and,
    # at each count, the levels the main field beats by more than the gap there
    describing = {v.spec for v in levels.levels if family(v.spec) in DESCRIBING_FAMILIES}
    weak = {int(n): skill.weak_specs(table, levels, int(n)) | describing
            for n in table["players"].unique()}  # fmt: skip
    by_level = skill.seat_by_level(r.out, levels)
    trends = (skill.level_trends(by_level, levels, lambda n: weak.get(n, describing))
              if by_level.height else pl.DataFrame())  # fmt: skip
    return {"matchups": table, "exploitability": skill.exploitability(table, levels),
            "seat_levels": by_level, "seat_trends": trends,
            "weak_specs": skill.weak_specs(table, levels)}  # fmt: skip


def _name(r: Results, spec: str) -> str:
    return r.report.skill.name(spec)


def _short(r: Results, spec: str) -> str:
    return r.report.skill.short(spec)


def ladder_text(r: Results) -> str:
    """Whether each level beats the one below it at every count (one seat of the stronger
    level among a field of the weaker), from the matchup cells."""
    levels, table = r.report.skill, r.matchups
    specs = [v.spec for v in levels.levels]
    counts = sorted(table["players"].unique())
    parts, failed = [], []
    for lo, hi in zip(specs, specs[1:], strict=False):
        cs = {n: skill.cell(table, n, hi, lo) for n in counts}
        have = {n: c for n, c in cs.items() if c is not None}
        if not have:
            continue
        beats = [n for n, c in have.items() if c["gain_low"] > 0]
        step = f"{levels.name(hi)} over {levels.name(lo)}"
        if len(beats) == len(have):
            gains = [have[n]["gain_pp"] for n in sorted(have)]
            parts.append(f"{step} {min(gains):+.1f} to {max(gains):+.1f} pp")
        else:
            failed.append(f"{step} not at {counts_text(sorted(set(have) - set(beats)))}")
    text = ""
    if parts:
        text = ("One seat of each level among a field of the level below gains "
                + "; ".join(parts) + " (every interval above 0).")  # fmt: skip
    if failed:
        text += " The ladder does not hold everywhere: " + "; ".join(failed) + "."
    return text.strip()


def exploit_text(r: Results) -> str:
    """The main field's exploitability by the other levels, every count."""
    levels, ex = r.report.skill, r.exploitability
    if not ex.height:
        return ""
    cells = [f"{x['players']}p {ci(x['gain_pp'], x['gain_low'], x['gain_high'])} "
             f"({levels.name(x['one'])})" for x in ex.iter_rows(named=True)]  # fmt: skip
    worst = ex.sort("gain_high", descending=True).row(0, named=True)
    goal = "within" if worst["gain_high"] <= WEAK_GAP else "beyond"
    return (f"Exploitability of the main field ({levels.name(levels.main)}): the largest gain "
            f"of a single seat of another level among it, over the fair share: "
            f"{'; '.join(cells)} (the largest of the levels played at each count, as found, "
            f"not a bound on every deviation). The largest upper end, "
            f"{worst['gain_high']:+.1f} pp at {worst['players']} players, is {goal} the "
            f"{WEAK_GAP:.0f} pp goal.")  # fmt: skip


def weak_text(r: Results) -> str:
    """Which levels the verdicts' robustness checks treat as too weak to veto."""
    weak = sorted(r.weak_specs, key=r.report.skill.order)
    if not weak:
        return ("No level loses to the main field by more than "
                f"{WEAK_GAP:.0f} pp at every count: every field condition may veto a "
                "verdict.")  # fmt: skip
    names = listing(_name(r, s) for s in weak)
    verb = "loses" if len(weak) == 1 else "lose"
    return (f"{names[0].upper()}{names[1:]} {verb} to the main field by more than "
            f"{WEAK_GAP:.0f} pp at every count (one seat among it, the interval's upper "
            "end): page 1's robustness checks show such fields but do not let them veto a "
            "verdict about the main field's play.")  # fmt: skip


def _matrix_figure(r: Results):
    levels, table = r.report.skill, r.matchups
    counts = sorted(table["players"].unique())
    specs = [v.spec for v in levels.levels if v.spec in set(table["one"]) | set(table["field"])]
    fig, axes = panels(7.4, 2.6, len(counts))
    names = [levels.short(s) for s in specs]
    for ax, n in zip(axes, counts, strict=True):
        grid = np.full((len(specs), len(specs)), np.nan)
        for i, a in enumerate(specs):
            for j, b in enumerate(specs):
                c = skill.cell(table, n, a, b)
                grid[i, j] = 0.0 if i == j else np.nan if c is None else c["gain_pp"]
        ax.set_facecolor("0.92")  # cells the study did not play
        ax.imshow(grid, cmap="RdBu", vmin=-80, vmax=80)
        for i in range(len(specs)):
            for j in range(len(specs)):
                if np.isfinite(grid[i, j]):
                    ax.text(j, i, f"{grid[i, j]:+.0f}", ha="center", va="center", fontsize=6)
        ax.set_title(f"{n} players", fontsize=8)
        ax.set_xticks(range(len(specs)), names if n == counts[0] else [""] * len(specs),
                      rotation=90, fontsize=6)  # fmt: skip
        ax.set_yticks(range(len(specs)), names if n == counts[0] else [""] * len(specs),
                      fontsize=6)  # fmt: skip
    axes[0].set_ylabel("one seat", fontsize=7)
    for ax in axes:
        ax.set_xlabel("the field", fontsize=7)
    return fig


def _matchup_table(r: Results) -> pl.DataFrame:
    t = r.matchups.filter(pl.col("one") != pl.col("field"))
    t = ci_col(t, "gain_pp", "gain_low", "gain_high", "gain (pp)")
    return fmt(t.select("players", pl.col("one").map_elements(lambda s: _short(r, s),
                                                               pl.String).alias("one seat"),
                        pl.col("field").map_elements(lambda s: _short(r, s),
                                                     pl.String).alias("the field"),
                        (100 * pl.col("win_share")).alias("win %"), "gain (pp)", "deals",
                        pl.col("distinct").alias("distinct games")),
               {"win %": ".1f"})  # fmt: skip


def _seat_level_table(r: Results) -> pl.DataFrame:
    t = ci_col(r.seat_levels, "first_edge_pp", "first_low", "first_high", "edge")
    t = t.with_columns(pl.col("spec").map_elements(lambda s: _short(r, s), pl.String))
    wide = t.pivot(on="spec", index="players", values="edge")
    trends = r.seat_trends.select("players", pl.col("text").alias("as skill rises"))
    return wide.join(trends, on="players", how="left").sort("players")


def blocks(r: Results, num: int) -> list[Block]:
    if "matchups" not in r.tables:
        return []
    levels = r.report.skill
    names = listing(v.name for v in levels.levels)
    out: list[Block] = [
        Heading(f"{num}  {LABEL}"),
        Prose(
            f"The levels, weakest first: {names}. Each cell is one seat of the row's level "
            "among a field of the column's, every seat in turn on the same deals: its win "
            "share minus the fair share (pp; the diagonal is 0 by construction), with a t "
            "interval over the deals (n counts deals; each deal is played from every "
            f"seat; every cell is listed in {appendix_label(r, LABEL)}). " + ladder_text(r)
        ),  # fmt: skip
        Plot(_matrix_figure(r)),
        Prose(exploit_text(r) + " " + weak_text(r)),
    ]
    wide = r.matchups.filter(pl.col("one") != pl.col("field"))
    wide = wide.with_columns(((pl.col("gain_high") - pl.col("gain_low")) / 2).alias("half"))
    one_game = wide.filter((pl.col("distinct") == 1) & (pl.col("deals") > 1))
    if one_game.height:
        where = "; ".join(f"{x['players']}p {_short(r, x['one'])} among {_short(r, x['field'])}"
                          for x in one_game.iter_rows(named=True))  # fmt: skip
        out.append(Prose(f"{one_game.height} cell(s) are one game replayed on every deal (no "
                         f"chance, and players who draw nothing): {where}. Their numbers are "
                         "exact for that game, not a sample; they have no interval."))  # fmt: skip
    loose = wide.filter(pl.col("half") > skill.HALF_WIDTH)
    if loose.height:
        out.append(Prose(f"{loose.height} of the {wide.height} matchups have intervals wider than "
                         f"±{skill.HALF_WIDTH:.0f} pp (up to ±{loose['half'].max():.1f}); "
                         "--size full plays more deals."))  # fmt: skip
    if r.seat_levels.height:
        out += [
            Heading("The first player at every level", level=2),
            Prose(
                "The first player's edge (win share minus the fair share, pp, t interval "
                "over games) with every seat played by each level, and how it moves as "
                "skill rises among the levels that may veto a verdict (weak levels are "
                "shown, not judged)."
            ),  # fmt: skip
            Table.fitted(_seat_level_table(r), size=7),
        ]
    return out


def appendix_blocks(r: Results, label: str) -> list[Block]:
    if "matchups" not in r.tables:
        return []
    return [Heading(f"{label} — Skill matchups"), Table.fitted(_matchup_table(r), size=7)]


def headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    if "matchups" not in r.tables:
        return []
    levels, ex = r.report.skill, r.exploitability
    found = []
    if ex.height:
        values = [Estimate("single-seat gain over the main field", x["gain_pp"], x["gain_low"],
                           x["gain_high"], int(x["deals"]), "deals",
                           subject=levels.name(x["one"]), players=int(x["players"]),
                           field=levels.name(levels.main),
                           method="t interval over deals, every seat in turn")
                  for x in ex.iter_rows(named=True)]  # fmt: skip
        text = "; ".join(f"{v.players}p {v.estimate:+.1f}" for v in values) + " pp"
        found.append(headline(q, "the main field's exploitability by the other levels", text,
                              int(ex["deals"].min()), unit="deals", values=values))  # fmt: skip
    if r.seat_trends.height:
        text = "; ".join(f"{x['players']}p {x['trend']}"
                         for x in r.seat_trends.iter_rows(named=True))  # fmt: skip
        n = int(r.seat_levels["games"].min())
        found.append(headline(q, "the first player's edge as skill rises", text, n))
    return found


def cells(r: Results) -> list[Row]:
    if "matchups" not in r.tables:
        return []
    t = r.matchups.filter(pl.col("one") != pl.col("field"))
    rows = []
    for x in t.iter_rows(named=True):
        half = (x["gain_high"] - x["gain_low"]) / 2
        rows.append({
            "number": f"{x['players']}p {_name(r, x['one'])} among {_name(r, x['field'])}",
            "games": x["deals"], "± (pp)": half,
            # the n at which the half-width would be 1 pp (it shrinks as 1/sqrt(n))
            "games for ±1 pp": math.ceil(x["deals"] * half**2) if np.isfinite(half) else None,
            "warning": "one game replayed" if x["distinct"] == 1 and x["deals"] > 1
            else "" if half <= skill.HALF_WIDTH else f"wider than ±{skill.HALF_WIDTH:.0f} pp",
        })  # fmt: skip
    return rows


def skill_section(needs: tuple[str, ...] = ()) -> Section:
    """The skill section (:mod:`analysis.skill_section`); it reads the study's ``skill*``
    blocks and the levels' seat blocks (``needs``: the matchup blocks the game's study
    has, named when a study lacks them)."""
    needs = needs or (f"{skill.PREFIX}-*",)
    return Section(LABEL, compute, headlines=headlines, cells=cells, blocks=blocks,
                   appendix_blocks=appendix_blocks, needs=needs)  # fmt: skip
