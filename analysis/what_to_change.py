"""What to change: the ranked candidate changes of a ``slicelab balance`` check, measured.

``slicelab balance --write-study`` writes a study that replays its held-out check: one
block per ranked setting (``setting-<i>``, the game as it is among them), each playing the
same fresh deals under its own rules with the field in every seat; one per setting and
checked field (``check-<j>-setting-<i>``); and with a ladder field, one per setting
seating the main field in one seat among the weaker field, every seat in turn
(``ladder-setting-<i>``). The study's ``[variant]`` table's ``balance`` entry names them,
the base's block and the target.

This section measures every setting again from the dataset, with the statistics
:mod:`sims.balance` chose it by (one definition of an edge, of the standing against the
target, of the ranking and of the skill ladder kept): each turn position's edge over the
fair share with its t interval over games, the largest edge with its interval corrected
for picking it from every position at every count (Bonferroni), and the side effects
against the game as it is, paired by deal (every block plays the same deals): game
length (rounds and decisions, where the game records them), score spread (a game's
highest score minus its lowest) and the skill gap. It reads only the core columns, so it
serves every game.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from analysis import load
from analysis.content import Block, Heading, Plot, Prose, Table, panels
from analysis.estimates import Estimate
from analysis.formats import ci
from analysis.samplesize import annotate
from analysis.seats import by_turn
from analysis.sections import Results, Row, Section, Verdict, paired_cells
from analysis.variant import variant_table
from sims.balance import Measured, gap_of, measure, rank, worth_of
from sims.core.game import get_game
from sims.core.intervals import mean_interval
from sims.core.levels import WEAK_GAP, is_weak

LABEL = "What to change"
"""The section's label."""
LENGTH_COLUMNS = ("rounds", "decisions")
"""Per-game columns read as the game's length, where the game records them."""


def balance_table(m: dict) -> dict[str, Any]:
    """The study's balance-check table (``[variant]``'s ``balance``), ``{}`` for none."""
    found = variant_table(m).get("balance")
    return found if isinstance(found, dict) else {}


def _players(out, block: str) -> pl.DataFrame:
    return load.block_frames(out, block)[0]


def _shares(out, block: str, n: int, turn: str) -> np.ndarray:
    """``shares[g, position]`` of a block at ``n`` players, games in index order."""
    frame = _players(out, block).filter(pl.col("players") == n)
    return by_turn(frame, "win_share", n, turn)


def _ladder_shares(out, block: str, n: int) -> np.ndarray:
    """``share[d, r]``: the challenger's win share in rotation ``r`` of deal ``d``."""
    f = _players(out, block).filter(
        (pl.col("players") == n) & (pl.col("seat") == pl.col("rotation"))
    )
    wide = f.pivot(on="rotation", index="game_index", values="win_share").drop_nulls()
    return wide.sort("game_index").drop("game_index").to_numpy().astype(float)


def _per_game(out, block: str, n: int, turn: str) -> dict[str, np.ndarray]:
    """A block's per-game side-effect measures at ``n`` players, games in index order."""
    players, games = load.block_frames(out, block)
    score = by_turn(players.filter(pl.col("players") == n), "score", n, turn)
    found = {"score spread": score.max(axis=1) - score.min(axis=1)}
    g = games.filter(pl.col("players") == n).sort("game_index")
    for c in LENGTH_COLUMNS:
        if c in g.columns:
            found[c] = g[c].to_numpy().astype(float)
    return found


def compute(r: Results) -> dict[str, Any]:
    bt = balance_table(r.manifest)
    if not bt:
        return {}
    turn = get_game(r.game).results.turn_order
    players = [int(n) for n in bt["players"]]
    tolerance = float(bt["tolerance"])
    blocks = list(bt["settings"])
    checks = {spec: list(b) for spec, b in (bt.get("checks") or {}).items()}
    ladder = list(bt.get("ladder") or [])
    measured: dict[str, Measured] = {}
    for i, block in enumerate(blocks):
        m = Measured(((block, bt["changes"][i]),), float(bt["sizes"][i]))
        held = {n: _shares(r.out, block, n, turn) for n in players}
        checked = {(spec, n): _shares(r.out, b[i], n, turn) for spec, b in checks.items()
                   for n in players}  # fmt: skip
        lad = {n: _ladder_shares(r.out, ladder[i], n) for n in players} if ladder else {}
        measured[block] = measure(m, held, checked, lad)
        for c, bs in (bt.get("components") or {}).items():  # the component target's blocks
            frame = _players(r.out, bs[i])
            for n in sorted(set(frame["players"].to_list())):
                m.components[c, int(n)] = worth_of(int(n), _ladder_shares(r.out, bs[i], int(n)))
    base = measured[bt["base"]]
    strength = {spec: {n: gap_of(n, _ladder_shares(r.out, b, n)) for n in players}
                for spec, b in (bt.get("check_strength") or {}).items()}  # fmt: skip
    weak = [spec for spec, g in strength.items() if is_weak(x[2] for x in g.values())]
    bound = bt.get("component_bound")
    ranked = rank(list(measured.values()), base, tolerance, weak,
                  None if bound is None else float(bound))  # fmt: skip
    rows, edge_rows, effect_rows = [], [], []
    for place, m in enumerate(ranked):
        block = m.setting[0][0]
        n, pos, e, lo, hi = m.worst_interval()
        rows.append({
            "rank": place + 1, "block": block, "change": m.setting[0][1], "size": m.size,
            "status": m.status(tolerance), "missed": ", ".join(m.missed_in(tolerance)),
            "worst_players": n, "worst_position": pos, "worst_pp": e, "worst_low": lo,
            "worst_high": hi, "family": sum(len(x.edge) for x in m.held_out.values()),
            "games": min(x.games for x in m.held_out.values()), "base": m is base,
        })  # fmt: skip
        for (spec, c), x in [*(((bt["field"], c), x) for c, x in m.held_out.items()),
                             *m.checks.items()]:  # fmt: skip
            for p in range(c):
                edge_rows.append({"block": block, "field": spec, "players": c, "position": p,
                                  "edge_pp": float(x.edge[p]), "low": float(x.low[p]),
                                  "high": float(x.high[p]), "games": x.games})  # fmt: skip
        for c in players:
            effect_rows += _effects(r, m, base, block, bt["base"], c, turn)
    component_rows = [{"block": m.setting[0][0], "component": c, "players": n, "worth_pp": w[0],
                       "low": w[1], "high": w[2]} for m in ranked
                      for (c, n), w in m.components.items()]  # fmt: skip
    strength_rows = [{"field": spec, "players": n, "gain_pp": g[0], "low": g[1], "high": g[2],
                      "weak": spec in weak} for spec, by in strength.items()
                     for n, g in by.items()]  # fmt: skip
    return {
        "wtc": bt, "wtc_ranked": pl.DataFrame(rows), "wtc_edges": pl.DataFrame(edge_rows),
        "wtc_strength": pl.DataFrame(strength_rows, schema=STRENGTH_SCHEMA),
        "wtc_components": pl.DataFrame(component_rows, schema=COMPONENT_SCHEMA),
        "wtc_effects": pl.DataFrame(effect_rows, schema=EFFECT_SCHEMA),
    }  # fmt: skip


COMPONENT_SCHEMA = {"block": pl.String, "component": pl.String, "players": pl.Int64,
                    "worth_pp": pl.Float64, "low": pl.Float64, "high": pl.Float64}  # fmt: skip
"""What each component is worth under each setting at each count: the fair share minus
the win share of a seat of the main field playing without it (pp, 95% t interval over
deals; :func:`sims.balance.worth_of`), the component target's measure."""

STRENGTH_SCHEMA = {"field": pl.String, "players": pl.Int64, "gain_pp": pl.Float64,
                   "low": pl.Float64, "high": pl.Float64, "weak": pl.Boolean}  # fmt: skip
"""Each checked field's strength under the game as it is: one seat of it among the main
field, its gain over the fair share (pp, 95% interval over deals), and whether it is weak
at every count (:func:`sims.core.levels.is_weak`: it then vetoes nothing)."""

EFFECT_SCHEMA = {"block": pl.String, "players": pl.Int64, "measure": pl.String,
                 "unit": pl.String, "base": pl.Float64, "value": pl.Float64,
                 "change": pl.Float64, "low": pl.Float64, "high": pl.Float64,
                 "n": pl.Int64, "n_unit": pl.String}  # fmt: skip
"""One side effect of one setting at one count: its value, the base's, and the change,
paired by deal (t interval)."""


def _effects(r: Results, m: Measured, base: Measured, block: str, base_block: str, n: int,
             turn: str) -> list[Row]:  # fmt: skip
    found = []
    mine, theirs = _per_game(r.out, block, n, turn), _per_game(r.out, base_block, n, turn)
    units = {"score spread": "points", "rounds": "rounds", "decisions": "decisions"}
    for what in mine:
        a, b = mine[what], theirs[what]
        k = min(len(a), len(b))
        change, lo, hi = mean_interval(a[:k] - b[:k])
        found.append({"block": block, "players": n, "measure": what, "unit": units[what],
                      "base": float(b.mean()), "value": float(a.mean()), "change": change,
                      "low": lo, "high": hi, "n": k, "n_unit": "games"})  # fmt: skip
    if n in m.ladder and n in base.ladder:
        change, lo, hi = m.ladder_change.get(n, (0.0, 0.0, 0.0))
        found.append({"block": block, "players": n, "measure": "skill gap", "unit": "pp",
                      "base": base.ladder[n][0], "value": m.ladder[n][0], "change": change,
                      "low": lo, "high": hi, "n": len(m._ladder_gains[n]),
                      "n_unit": "deals"})  # fmt: skip
    return found


def _standing(row: dict, tolerance: float) -> str:
    target = f"the ±{tolerance:g} pp target"
    if row["status"] == "fair":
        return f"within {target}"
    if row["status"] == "unclear":
        return f"not shown outside {target} (too few games to show it within)"
    return _misses(row["missed"], tolerance)


def _misses(missed: str, tolerance: float) -> str:
    """``outside ±1 pp in the greedy field; the skill gap narrows``: where a setting misses
    the targets (:meth:`sims.balance.Measured.missed_in`, joined)."""
    others = ("skill gap", "components")
    fields = [f for f in missed.split(", ") if f and f not in others]
    found = [f"outside ±{tolerance:g} pp in {_fields(', '.join(fields))}"] if fields else []
    if "skill gap" in missed.split(", "):
        found.append("the skill gap narrows against the game as it is")
    if "components" in missed.split(", "):
        found.append("a component is worth more than its bound")
    return "; ".join(found)


def _fields(missed: str) -> str:
    names = [("the main field" if f == "main" else "the skill gap" if f == "skill gap"
              else "a component's worth" if f == "components" else f"the {f} field")
             for f in missed.split(", ") if f]  # fmt: skip
    return ", ".join(names) or "no field"


def _largest(row: dict) -> str:
    return (f"position {row['worst_position']} at {row['worst_players']} players, "
            f"{ci(row['worst_pp'], row['worst_low'], row['worst_high'])}")  # fmt: skip


def blocks(r: Results, num: int) -> list[Block]:
    bt, ranked = r.wtc, r.wtc_ranked
    tol = float(bt["tolerance"])
    best = ranked.row(0, named=True)
    base = ranked.filter(pl.col("base")).row(0, named=True)
    counts = ", ".join(map(str, bt["players"]))
    out: list[Block] = [Heading(f"{num}  What to change")]
    searched = (f" The search tried the knobs {', '.join(bt['knobs'])} and rests on "
                f"{int(bt.get('games_played', 0)):,} games; the games below are fresh deals "
                "it never chose by.") if bt.get("knobs") else ""  # fmt: skip
    out.append(Prose(
        f"Each candidate change below was found by slicelab balance and is measured here "
        f"again on its own blocks: {bt['field']} in every seat at {counts} players, every "
        "block on the same deals, so each change is paired with the game as it is deal by "
        f"deal. The target: every turn position within ±{tol:g} pp of the fair share 1/n at "
        "every count, in every field checked, and the skill gap kept (the main field's "
        "single seat among the weaker field gains no less than under the printed rules). "
        "A change is fair when every interval lies within the target, unfair when one lies "
        "wholly outside it, unclear otherwise. The largest edge's interval is corrected for "
        f"picking it from every position at every count (Bonferroni).{searched}"
    ))  # fmt: skip
    st = r.wtc_strength
    if st.height:
        parts = []
        for (spec,), t in st.group_by("field", maintain_order=True):
            gains = "; ".join(f"{x['players']}p {ci(x['gain_pp'], x['low'], x['high'])}"
                              for x in t.sort("players").iter_rows(named=True))  # fmt: skip
            role = ("weak: it is shown and vetoes nothing" if t["weak"][0]
                    else "it vetoes")  # fmt: skip
            parts.append(f"the {spec} field's single seat among {bt['field']} gains {gains} "
                         f"({role})")  # fmt: skip
        out.append(Prose(
            "As in the report's verdicts, a checked field whose single seat loses to the main "
            f"field by more than {WEAK_GAP:g} pp at every count (its interval's upper end) is "
            f"weaker than the players the verdict describes: {'; '.join(parts)}."))  # fmt: skip
    out.append(Prose(_summary_sentence(best, base, tol), style="bold"))
    out.append(Table.fitted(_ranked_table(ranked), size=7.5,
                            caption="Every candidate, best first; n: games a count."))  # fmt: skip
    out.append(Plot(_edges_plot(r), width=1.0,
                    caption=f"Each turn position's edge (pp, 95% interval over games) under "
                    f"the game as it is and the best three candidates, named by their rank in the "
                    f"table; the band is the ±{tol:g} pp target."))  # fmt: skip
    comp = r.wtc_components
    if comp.height:
        out += _components_blocks(r, comp)
    fx = r.wtc_effects
    if fx.height:
        out += [Heading("Side effects", level=2), Prose(
            "Each candidate against the game as it is, on the same deals (the change is the "
            "per-deal difference, with its 95% interval): how long a game lasts, how far "
            "apart the scores end, and the skill gap (one seat of the main field among the "
            "weaker field, its gain over the fair share)."),
            Plot(_effects_plot(fx, ranked), width=1.0),
            Table.fitted(_effects_table(fx, ranked), size=7)]  # fmt: skip
    return out


def _components_blocks(r: Results, comp: pl.DataFrame) -> list[Block]:
    """The component target: each candidate's most valuable component at each count."""
    bound = float(r.wtc["component_bound"])
    rows = []
    for x in r.wtc_ranked.iter_rows(named=True):
        for (n,), t in comp.filter(pl.col("block") == x["block"]).group_by(
                "players", maintain_order=True):  # fmt: skip
            top = t.sort(pl.col("worth_pp").abs(), descending=True).row(0, named=True)
            beyond = top["low"] > bound or top["high"] < -bound
            within = -bound <= top["low"] and top["high"] <= bound
            rows.append({
                "rank": str(x["rank"]), "change": x["change"], "players": str(n),
                "largest component": top["component"],
                "worth (pp, 95% CI)": ci(top["worth_pp"], top["low"], top["high"], unit=""),
                f"within ±{bound:g} pp": "yes" if within else "no" if beyond else "unclear",
                "n": f"{ladder_n(r, x['block']):,} deals",
            })  # fmt: skip
    return [Heading("Components", level=2), Prose(
        f"The component target: what each component is worth to a seat of {r.wtc['field']} "
        "(the fair share minus the win share of a seat playing without it among the same "
        "field, every seat in turn on fresh deals) lies within "
        f"±{bound:g} pp at every count. The most valuable component of each candidate at "
        "each count:"),
        Table.fitted(pl.DataFrame(rows), size=7)]  # fmt: skip


def ladder_n(r: Results, block: str) -> int:
    """Deals behind a setting's component worths (those of its first component block)."""
    first = next(iter(r.wtc["components"].values()))
    i = r.wtc["settings"].index(block)
    return _players(r.out, first[i])["game_index"].n_unique()


def _summary_sentence(best: dict, base: dict, tol: float) -> str:
    if best["base"] and best["status"] == "fair":
        return (f"No change is needed: the game as it is keeps every position within ±{tol:g} "
                f"pp; its largest edge is {_largest(best)}.")  # fmt: skip
    if best["base"] and best["status"] == "unfair":
        return (f"No change found helps: every candidate misses the ±{tol:g} pp target and "
                f"none clearly beats the game as it is, whose largest edge is "
                f"{_largest(best)}. Try other knobs or values.")  # fmt: skip
    if best["base"]:
        return (f"No change is shown to be needed: no candidate is shown within ±{tol:g} pp "
                f"and the game as it is is not shown outside it ({_largest(best)}); more "
                "games would tell.")  # fmt: skip
    moves = f"the largest edge goes from {_largest(base)} to {_largest(best)}"
    if best["status"] == "fair":
        return f"Change {best['change']}: {moves}, {_standing(best, tol)}."
    if best["status"] == "unclear":
        return (f"Change {best['change']}, the best found: {moves}; its interval is too wide "
                f"to show it within ±{tol:g} pp (more fresh games would tell).")  # fmt: skip
    return (f"No candidate meets the target; the closest is {best['change']}: {moves}, "
            f"{_standing(best, tol)}.")  # fmt: skip


def _ranked_table(ranked: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame({
        "rank": ranked["rank"].cast(pl.String),
        "change": ranked["change"],
        "size": [f"{s:g}" for s in ranked["size"]],
        "against the target": ranked["status"],
        "missed in": [_fields(x) if x else "" for x in ranked["missed"]],
        "largest edge (pp, corrected)": [
            f"{row['worst_players']}p pos {row['worst_position']}: "
            + ci(row["worst_pp"], row["worst_low"], row["worst_high"], unit="")
            for row in ranked.iter_rows(named=True)],
        "n": [f"{g:,}" for g in ranked["games"]],
    })  # fmt: skip


def _edges_plot(r: Results):
    e = r.wtc_edges.filter(pl.col("field") == r.wtc["field"])
    counts = sorted(e["players"].unique().to_list())
    fig, axes = panels(7.2, 2.4, len(counts), sharey=True)
    tol = float(r.wtc["tolerance"])
    order = r.wtc_ranked["block"].to_list()
    names = {b: f"rank {k}" for b, k in r.wtc_ranked.select("block", "rank").iter_rows()}
    base = r.wtc["base"]
    names[base] += " (as it is)"
    shown = [b for b in order if b != base][:3] + [base]  # the best three and the base
    width = 0.7 / len(shown)
    for ax, n in zip(axes, counts, strict=True):
        ax.axhspan(-tol, tol, color="0.9", lw=0)
        ax.axhline(0, color="0.6", lw=0.8)
        for j, b in enumerate(shown):
            t = e.filter((pl.col("players") == n) & (pl.col("block") == b)).sort("position")
            x = t["position"].to_numpy() + (j - (len(shown) - 1) / 2) * width
            y = t["edge_pp"].to_numpy()
            err = np.vstack([y - t["low"].to_numpy(), t["high"].to_numpy() - y])
            style = dict(color="0.5", marker="s") if b == base else dict(marker="o")
            ax.errorbar(x, y, yerr=err, ls="none", ms=3.5, capsize=2, lw=0.9,
                        label=names[b] if n == counts[0] else None, **style)  # fmt: skip
        ax.set_xticks(range(n))
        ax.set_title(f"{n} players", fontsize=8)
        ax.set_xlabel("turn position")
    axes[0].set_ylabel("edge over fair (pp)")
    fig.legend(fontsize=6.5, frameon=False, loc="outside lower center",
               ncol=min(4, len(shown)))  # fmt: skip
    return fig


def _effects_plot(fx: pl.DataFrame, ranked: pl.DataFrame):
    measures = list(dict.fromkeys(fx["measure"].to_list()))
    fig, axes = panels(7.2, 0.5 + 0.28 * fx["block"].n_unique() * fx["players"].n_unique(),
                       len(measures), sharey=True)  # fmt: skip
    names = {b: f"rank {k}" for b, k in ranked.select("block", "rank").iter_rows()}
    order = [b for b in ranked["block"] if not ranked.filter(pl.col("block") == b)["base"][0]]
    labels = [f"{names[b]}, {n}p" for b in order
              for n in sorted(fx["players"].unique())]  # fmt: skip
    for ax, what in zip(axes, measures, strict=True):
        t = fx.filter(pl.col("measure") == what)
        ys, xs, lo, hi = [], [], [], []
        for i, label in enumerate(labels):
            b, n = order[i // fx["players"].n_unique()], int(label.rsplit(", ", 1)[1][:-1])
            row = t.filter((pl.col("block") == b) & (pl.col("players") == n))
            if row.height:
                x = row.row(0, named=True)
                ys.append(i)
                xs.append(x["change"])
                lo.append(x["change"] - x["low"] if math.isfinite(x["low"]) else 0)
                hi.append(x["high"] - x["change"] if math.isfinite(x["high"]) else 0)
        ax.axvline(0, color="0.6", lw=0.8)
        ax.errorbar(xs, ys, xerr=[lo, hi], ls="none", marker="o", ms=3, capsize=2, lw=0.9)
        unit = t["unit"][0] if t.height else ""
        ax.set_title(f"{what} ({unit})", fontsize=8)
    fig.supxlabel("change against the game as it is (paired by deal, 95% interval)", fontsize=7)
    axes[0].set_yticks(range(len(labels)))
    axes[0].set_yticklabels(labels, fontsize=6.5)
    axes[0].invert_yaxis()
    return fig


def _effects_table(fx: pl.DataFrame, ranked: pl.DataFrame) -> pl.DataFrame:
    names = dict(zip(ranked["block"], ranked["change"], strict=True))
    ranks = dict(zip(ranked["block"], ranked["rank"], strict=True))
    base = set(ranked.filter(pl.col("base"))["block"])
    t = fx.filter(~pl.col("block").is_in(base))
    return pl.DataFrame({
        "rank": [str(ranks[b]) for b in t["block"]],
        "change": [names[b] for b in t["block"]],
        "players": t["players"].cast(pl.String),
        "measure": t["measure"],
        "as it is": [f"{v:.1f}" for v in t["base"]],
        "with the change": [f"{v:.1f}" for v in t["value"]],
        "change (95% CI)": [ci(c, lo, hi, unit=u) for c, lo, hi, u
                            in t.select("change", "low", "high", "unit").iter_rows()],
        "n": [f"{k:,} {u}" for k, u in t.select("n", "n_unit").iter_rows()],
    })  # fmt: skip


def headlines(r: Results, q: str, rows: list[Row]) -> list[Row]:
    """One row per candidate: its largest edge, the interval corrected for the pick, warned
    as the sample-size page warns a cell (:func:`analysis.samplesize.annotate`)."""
    t = annotate(r.wtc_ranked, "worst_pp", "worst_low", "worst_high", n="games", share=False,
                 pp=True)  # fmt: skip
    return [{"question": q,
             "finding": f"largest edge, {x['change']} (rank {x['rank']}, {x['status']})",
             "estimate": ci(x["worst_pp"], x["worst_low"], x["worst_high"]),
             "games": x["games"], "unit": "games", "warning": x["warning"]}
            for x in t.iter_rows(named=True)]  # fmt: skip


def verdict(r: Results) -> Verdict | None:
    """Page 1's answer: the recommended change (or that none is needed, or that none found
    helps), its largest edge against the game as it is, and what it does to every count."""
    ranked = r.tables.get("wtc_ranked")
    if ranked is None or ranked.is_empty():
        return None
    tol = float(r.wtc["tolerance"])
    best = ranked.row(0, named=True)
    base = ranked.filter(pl.col("base")).row(0, named=True)
    label = {
        "fair": "robust",
        "unclear": f"not robust: too few games to show it within ±{tol:g} pp",
        "unfair": f"not robust: {_misses(best['missed'], tol)}",
    }
    label = label[best["status"]]  # fmt: skip
    e = r.wtc_edges.filter((pl.col("block") == best["block"])
                           & (pl.col("field") == r.wtc["field"]))  # fmt: skip
    by_count = "; ".join(
        f"{n}p {t.sort(pl.col('edge_pp').abs(), descending=True)['edge_pp'][0]:+.1f}"
        for (n,), t in e.group_by("players", maintain_order=True))  # fmt: skip
    advice = ""
    if not best["base"]:
        advice = (f"Change {best['change']}: it moves the largest edge from "
                  f"{base['worst_pp']:+.1f} to {best['worst_pp']:+.1f} pp (by count: "
                  f"{by_count} pp); check its side effects in the section before adopting "
                  "it.")  # fmt: skip
    return Verdict(
        question="What should the designer change?",
        answer=_summary_sentence(best, base, tol),
        value=Estimate(
            "largest turn-position edge (win share − fair share)",
            best["worst_pp"],
            best["worst_low"],
            best["worst_high"],
            int(best["games"]),
            "games",
            subject=f"position {best['worst_position']}",
            players=int(best["worst_players"]),
            rules=best["change"],
            method="t interval over games",
            family=int(best["family"]),
            field=r.wtc["field"],
        ),  # fmt: skip
        robustness=label,
        recommendation=advice,
        section=LABEL,
        detail=f"{ranked.height} settings measured on the same fresh deals; the game as it "
        f"is: largest edge {_largest(base)}.",
    )


def cells(r: Results) -> list[Row]:
    """The sample-size page's rows: each candidate's largest position edge at each count in
    the main field (uncorrected interval, over games)."""
    e = r.wtc_edges.filter(pl.col("field") == r.wtc["field"])
    names = dict(zip(r.wtc_ranked["block"], r.wtc_ranked["change"], strict=True))
    top = (e.sort(pl.col("edge_pp").abs(), descending=True)
           .group_by("block", "players", maintain_order=True).first()
           .sort("block", "players"))  # fmt: skip
    t = annotate(top, "edge_pp", "low", "high", n="games", share=False, pp=True)
    return paired_cells(t, lambda x: f"{x['players']}p {names[x['block']]}, position "
                        f"{x['position']} (games)", n="games")  # fmt: skip


def what_to_change_section() -> Section:
    """The section of a balance check's study (:func:`analysis.report.compute` adds it when
    the study's ``[variant]`` table has a ``balance`` entry)."""
    return Section(LABEL, compute, headlines=headlines, cells=cells, blocks=blocks)
