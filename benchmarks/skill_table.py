"""Every game's skill ladder and the main field's exploitability, as Markdown tables, from
the datasets of the default balance studies (the skill-* blocks the reports read).

    python benchmarks/skill_table.py data/nyslice-balance data/pieceocake-balance \
        data/pizzatheory-balance data/horno-balance

For each dataset: one row per player count with each adjacent step of the game's declared
levels (one seat of the stronger level among a field of the weaker, pp over the fair share
with its 95% interval over deals, and the deals), then the main field's exploitability by
the other levels the study played (the largest found), and the levels too weak to veto a
verdict (``analysis.skill.weak_specs``). The figures of ``benchmarks/strategies.md``
("Every game's ladder") come from this script.
"""

from __future__ import annotations

import argparse

import polars as pl

from analysis import skill
from analysis.formats import ci
from analysis.load import manifest, study_game
from analysis.report import game_report


def tables(out: str) -> str:
    """The Markdown of one dataset: its ladder and its exploitability by count."""
    game = study_game(manifest(out))
    levels = game_report(game).skill
    cells = skill.matchups(out)
    specs = [v.spec for v in levels.levels]
    steps = [(hi, lo) for lo, hi in zip(specs, specs[1:], strict=False)]
    head = ["players", *(f"{levels.short(h)} vs {levels.short(lo)}" for h, lo in steps),
            "exploitability of the main field (by)"]  # fmt: skip
    lines = [f"### {game} ({out})", "", "| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]  # fmt: skip
    ex = skill.exploitability(cells, levels)
    for n in sorted(cells["players"].unique()):
        row = [str(n)]
        for h, lo in steps:
            c = skill.cell(cells, n, h, lo)
            text = "—" if c is None else ci(c["gain_pp"], c["gain_low"], c["gain_high"])
            row.append(text if c is None else f"{text} ({c['deals']:,})")
        e = ex.filter(pl.col("players") == n)
        row.append("—" if not e.height else
                   f"{ci(e['gain_pp'][0], e['gain_low'][0], e['gain_high'][0])} "
                   f"({levels.short(e['one'][0])}, {e['deals'][0]:,} deals)")  # fmt: skip
        lines.append("| " + " | ".join(row) + " |")
    weak = sorted(skill.weak_specs(cells, levels), key=levels.order)
    lines += ["", "Levels too weak to veto (one seat loses to the main field by more than "
              f"{skill.WEAK_GAP:.0f} pp at every count): {', '.join(weak) or 'none'}.",
              ""]  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="dataset directories of default balance studies")
    for out in ap.parse_args().data:
        print(tables(out))


if __name__ == "__main__":
    main()
