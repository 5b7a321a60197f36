"""A designer's variant: what its rule change does to the seats, against the default rules.

A study ``slicelab plan`` writes for a variant that changes rules replays blocks under the
default rules on the same deals (``whatif-default-<block>``; the study's ``[variant]``
table pairs them in ``compare``). Every block shares the study's seed, so game ``i`` at a
player count is the same deal in a block and in its copy: the rule change is a paired
difference per deal, and the deal is the unit of its interval.

The comparison reads only the core columns (``seat``, ``win_share``, ``score``) of blocks
that seat one strategy everywhere, so it serves every game; a pair of blocks with mixed
seats is named as compared in the data and not summarised.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.blocks import block_specs
from analysis.content import Block, Heading, Plot, Prose, Table
from analysis.estimates import Estimate
from analysis.formats import ci_col
from analysis.load import rows as load_rows
from analysis.load import uniform_blocks, untreated
from analysis.robust import Condition, Robustness, judge
from analysis.samplesize import annotate
from analysis.seats import by_turn
from analysis.sections import Results, Row, Section, Verdict, paired_cells
from analysis.stats import bonferroni_interval
from analysis.whatif import change_row
from sims.core.game import get_game
from sims.core.plan import rules_text

LABEL = "Rule change"
"""The section's label."""


def variant_table(m: dict) -> dict[str, Any]:
    """The study's ``[variant]`` table, ``{}`` for none."""
    found = (m.get("study") or {}).get("variant")
    return found if isinstance(found, dict) else {}


def data_label(m: dict, default: str) -> str:
    """How a report names the data the study's blocks play: the variant's data file (its
    file name) when the study is a designer's variant with one, else ``default`` (``the
    default deck``, ``hex-37``).

    Parameters
    ----------
    m : dict
        The dataset's manifest.
    default : str
        The game's words for its default data.
    """
    data = variant_table(m).get("data")
    if not data:
        return default
    key = variant_table(m).get("data_key", "data")
    return f"the variant's {key} {Path(str(data)).name}"


def _first_edge(share: np.ndarray, n: int) -> np.ndarray:
    """Per game: the first player's win share minus the fair share ``1/n`` (the edge the
    glossary defines: a player winning 27% where 25% is fair is +2 pp ahead)."""
    return share[:, 0] - 1 / n


def rule_change(out, block: str, default: str, turn: str = "seat") -> pl.DataFrame:
    """The rule change's effect on the seats, per player count, paired by deal.

    Parameters
    ----------
    out : path
        The dataset directory.
    block : str
        The block that plays the variant's rules.
    default : str
        Its copy under the default rules, on the same deals.
    turn : str
        The game's turn-position column (:attr:`sims.core.game.ResultSchema.turn_order`).

    Returns
    -------
    polars.DataFrame
        One row per player count both blocks play: ``players, deals`` (games paired by
        deal), ``first_variant``/``first_default`` (the first player's edge under each, pp),
        ``change_pp`` with ``change_low``/``change_high`` (the variant minus the default,
        per deal, t interval), ``spread_variant``/``spread_default`` (the largest |seat −
        fair| under each, pp), ``score_change`` (mean score per seat, variant minus
        default, points) and the sample-size columns of :func:`analysis.samplesize.annotate`.
    """
    a = untreated(load_rows(out, "players", block))
    b = untreated(load_rows(out, "players", default))
    found = []
    for n in sorted(set(a["players"].unique()) & set(b["players"].unique())):
        sa = by_turn(a.filter(pl.col("players") == n), "win_share", n, turn)
        sb = by_turn(b.filter(pl.col("players") == n), "win_share", n, turn)
        deals = min(len(sa), len(sb))
        sa, sb = sa[:deals], sb[:deals]
        # the default rules are "before", the variant's "after"; the edges are shares,
        # scaled to pp below
        c = change_row(n, "first_edge", _first_edge(sb, n), _first_edge(sa, n))
        pa = by_turn(a.filter(pl.col("players") == n), "score", n, turn)[:deals]
        pb = by_turn(b.filter(pl.col("players") == n), "score", n, turn)[:deals]
        found.append({
            "players": int(n), "deals": deals,
            "first_variant": 100 * c["after"], "first_default": 100 * c["before"],
            "change_pp": 100 * c["change"], "change_low": 100 * c["change_low"],
            "change_high": 100 * c["change_high"],
            "spread_variant": 100 * float(np.max(np.abs(sa.mean(axis=0) - 1 / n))),
            "spread_default": 100 * float(np.max(np.abs(sb.mean(axis=0) - 1 / n))),
            "score_change": float(pa.mean() - pb.mean()),
        })  # fmt: skip
    table = pl.DataFrame(found)
    if table.is_empty():
        return table
    return annotate(
        table,
        "change_pp",
        "change_low",
        "change_high",
        n="deals",
        share=False,
        unit="deals",
        pp=True,
    )


def _pairs(r: Results) -> tuple[dict[str, str], list[str]]:
    """The variant's (block → default copy) pairs the section summarises, and the blocks
    compared in the data that it does not (mixed seats)."""
    compare = variant_table(r.manifest).get("compare") or {}
    uniform = set(uniform_blocks(r.out))
    kept = {b: c for b, c in compare.items() if b in uniform and c in uniform}
    return kept, [b for b in compare if b not in kept]


def compute(r: Results) -> dict[str, Any]:
    kept, other = _pairs(r)
    turn = get_game(r.game).results.turn_order
    changes = {b: rule_change(r.out, b, c, turn) for b, c in kept.items()}
    return {"rule_changes": {b: t for b, t in changes.items() if not t.is_empty()},
            "rule_change_other": other}  # fmt: skip


def _shown(t: pl.DataFrame) -> pl.DataFrame:
    shown = ci_col(t, "change_pp", "change_low", "change_high", "change (pp)")
    return shown.select(
        "players", pl.col("deals").alias("deals (paired)"),
        pl.col("first_default").round(1).alias("first player, default (pp)"),
        pl.col("first_variant").round(1).alias("first player, variant (pp)"),
        "change (pp)",
        pl.col("spread_default").round(1).alias("largest seat edge, default (pp)"),
        pl.col("spread_variant").round(1).alias("largest seat edge, variant (pp)"),
        pl.col("score_change").round(2).alias("score per seat (points)"),
    )  # fmt: skip


def _plot(t: pl.DataFrame):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.0, 2.6), layout="constrained")
    ax = fig.add_subplot()
    x = t["players"].to_numpy()
    ax.axhline(0, color="0.6", lw=0.8)
    ax.plot(x, t["first_default"], "o--", color="0.45", label="default rules")
    ax.plot(x, t["first_variant"], "o-", color="black", label="the variant's rules")
    ax.set_xticks(x)
    ax.set_xlabel("players")
    ax.set_ylabel("first player's edge (pp)")
    ax.legend(fontsize=7, frameon=False)
    return fig


def blocks(r: Results, num: int) -> list[Block]:
    v = variant_table(r.manifest)
    rules = v.get("rules") or {}
    what = rules_text(rules) or "the variant's rules"
    out: list[Block] = [Heading(f"{num}  What the variant's rule change does")]
    out.append(Prose(
        f"The variant sets {what}. Each block below was played twice on the same deals: "
        "under the variant's rules and under the default rules (its copy, named "
        "whatif-default-<block> in the study). The change is the variant minus the default, "
        "per deal; the deal is the unit of its 95% interval. The first player's edge is the win "
        "share of the first to play (turn position 0, or seat 0 where the game has no turn "
        "position) minus the fair share, 1/n at n players."
    ))  # fmt: skip
    for block, t in r.rule_changes.items():
        worst = t.sort(pl.col("change_pp").abs(), descending=True).row(0, named=True)
        sentence = (
            f"In the block {block}, the largest change is at {worst['players']} players: the "
            f"first player's edge goes from {worst['first_default']:+.1f} to "
            f"{worst['first_variant']:+.1f} pp, a change of {worst['change_pp']:+.1f} pp "
            f"[{worst['change_low']:+.1f}, {worst['change_high']:+.1f}] over "
            f"{worst['deals']:,} deals"
            + ("; its interval covers 0, so this study cannot tell it from no change."
               if worst["change_low"] <= 0 <= worst["change_high"] else ".")
        )  # fmt: skip
        out += [Heading(f"Block {block}", level=2), Prose(sentence), Plot(_plot(t), width=0.8),
                Table.fitted(_shown(t), size=7.5)]  # fmt: skip
    if r.rule_change_other:
        out.append(Prose(
            "Also replayed under the default rules, and not summarised here (their seats "
            f"play different strategies): {', '.join(r.rule_change_other)}.", style="muted"
        ))  # fmt: skip
    return out


def headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    found = []
    for block, t in r.rule_changes.items():
        for row in t.iter_rows(named=True):
            found.append({
                "question": q,
                "finding": f"rule change, first player's edge, {row['players']} players ({block})",
                "estimate": f"{row['change_pp']:+.1f} [{row['change_low']:+.1f}, "
                f"{row['change_high']:+.1f}] pp",
                "games": row["deals"], "unit": "deals", "warning": row.get("warning") or "",
            })  # fmt: skip
    return found


def cells(r: Results) -> list[Row]:
    found: list[Row] = []
    for block, t in r.rule_changes.items():
        found += paired_cells(t, lambda x, b=block: f"rule change, {b}, {x['players']} players")
    return found


def verdict(r: Results) -> Verdict | None:
    """Page 1's answer: the largest change the rule change makes to the first player's edge,
    over every player count of the first compared block, its interval corrected for
    picking the largest of the counts (Bonferroni)."""
    changes = r.tables.get("rule_changes") or {}
    if not changes:
        return None
    block, t = next(iter(changes.items()))
    k = t.height
    lo, hi = bonferroni_interval(t["change_pp"].to_numpy(), t["change_low"].to_numpy(),
                                 t["change_high"].to_numpy(), k)  # fmt: skip
    t = t.with_columns(pl.Series("adj_low", lo), pl.Series("adj_high", hi))
    worst = t.sort(pl.col("change_pp").abs(), descending=True).row(0, named=True)
    clear = worst["adj_low"] > 0 or worst["adj_high"] < 0
    way = "toward" if abs(worst["first_variant"]) < abs(worst["first_default"]) else "away from"
    answer = (
        f"At {worst['players']} players the variant's rules move the first player's edge from "
        f"{worst['first_default']:+.1f} to {worst['first_variant']:+.1f} pp"
        + (f", {way} an even start." if clear else "; this study cannot tell that from no change.")
    )
    advice = ""
    if clear:
        advice = (
            f"The rule change evens the start at {worst['players']} players; check the other "
            "counts in the section before adopting it." if way == "toward" else
            f"The rule change makes the start less even at {worst['players']} players: keep "
            "the default rule, or pair the change with a compensation for the later players."
        )  # fmt: skip
    robust = _judged(r, changes, int(worst["players"]))
    every = ", ".join(
        f"{row['players']}p {row['change_pp']:+.1f}" for row in t.iter_rows(named=True)
    )
    return Verdict(
        question="What does the variant's rule change do to the first player?",
        answer=answer,
        value=Estimate(
            "change in the first player's win share − fair share",
            worst["change_pp"],
            worst["adj_low"],
            worst["adj_high"],
            int(worst["deals"]),
            "deals",
            subject="the variant's rules",
            players=int(worst["players"]),
            rules=f"the variant's against the default ({block})",
            method="paired by deal",
            family=k,
            note="against the default rules",
        ),  # fmt: skip
        robustness=robust.label,
        recommendation=advice,
        section=LABEL,
        detail=f"Block {block}, change by count: {every} pp. At {worst['players']} players in "
        f"every compared block: {robust.detail}.",
    )


def _judged(r: Results, changes: dict[str, pl.DataFrame], players: int) -> Robustness:
    """The rule change's effect at ``players`` judged across every compared block (each a
    field, or the same field under other options, its veto from its players' spec: random
    play describes), the first block's the main condition; a block the study compares
    that has no games at that count leaves it not fully checked."""
    conds = []
    for block, t in changes.items():
        row = t.filter(pl.col("players") == players)
        if row.height:
            x = row.row(0, named=True)
            specs = block_specs(r.manifest, block)
            conds.append(Condition("field", block, x["change_pp"], x["change_low"],
                                   x["change_high"], int(x["deals"]), "deals",
                                   spec=specs[0] if specs else ""))  # fmt: skip
    compared = variant_table(r.manifest).get("compare") or {}
    other = set(r.tables.get("rule_change_other") or ())
    return judge(conds, [*dict.fromkeys([*changes, *(b for b in compared if b not in other)])])


def rule_change_section() -> Section:
    """The section comparing the variant's rules with the default, for a study that pairs
    them (:func:`analysis.report.compute` adds it when the study's ``[variant]`` table has
    ``compare`` pairs)."""
    return Section(LABEL, compute, headlines=headlines, cells=cells, blocks=blocks)
