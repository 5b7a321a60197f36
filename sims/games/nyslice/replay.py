"""Text replay of a finished New York Slice game, as a person would follow it at the table."""

from __future__ import annotations

from collections.abc import Sequence

from sims.games.nyslice.deck import Special
from sims.games.nyslice.engine import GameState


def _special(sp: Special | None) -> str:
    return sp.title if sp is not None else "none"


def format_replay(state: GameState, strategy_names: Sequence[str], header: str = "") -> str:
    """Render every round (special, pizza, cut, choices, eat/collect, special uses) and the
    final guest check with every score component."""
    deck = state.deck
    lab = deck.label
    seat = [f"P{i} ({name})" for i, name in enumerate(strategy_names)]
    lines: list[str] = []
    if header:
        lines.append(header)
    lines.append(f"Players: {', '.join(seat)}")
    lines.append(
        f"Deck: {deck.name}; mystery pool: {', '.join(lab(s) for s in state.deal.mystery)}"
    )
    for ev in state.events:
        kind = ev[0]
        if kind == "round":
            _, r, slicer, sp, rejected, pizza = ev
            lines.append("")
            lines.append(f"== Round {r + 1}/{state.rounds} — slicer {seat[slicer]}")
            rej = f" (replacing {', '.join(x.title for x in rejected)})" if rejected else ""
            lines.append(f"   Today's Special: {_special(sp)}{rej}")
            lines.append("   Pizza: " + " | ".join(lab(s) for s in pizza))
        elif kind == "dibs":
            lines.append(f"   {seat[ev[1]]} calls Dibs! on {lab(ev[2])}")
        elif kind == "cut":
            _, slicer, rank, portions = ev
            lines.append(f"   Cut (rank {rank}):")
            for i, (sl, has_sp) in enumerate(portions):
                parts = [lab(s) for s in sl] + (["★ special"] if has_sp else [])
                lines.append(f"     [{i}] " + " + ".join(parts))
        elif kind == "cut_in_line":
            lines.append(f"   {seat[ev[1]]} plays Cut in Line and chooses first")
        elif kind == "sneak":
            _, p, sid, src, dst = ev
            lines.append(
                f"   {seat[p]} plays Sneak-a-Slice: moves {lab(sid)} from [{src}] to [{dst}]"
            )
        elif kind == "choose":
            _, p, idx, _sl, sp = ev
            extra = f" with {sp.title}" if sp is not None else ""
            lines.append(f"   {seat[p]} takes portion [{idx}]{extra}")
        elif kind == "forfeit":
            lines.append(f"     forfeits {ev[2].title} (restricted play): it leaves the game")
        elif kind == "mystery":
            lines.append(f"     draws a Mystery slice: {lab(ev[2])}")
        elif kind == "move_to_eaten":
            lines.append(f"     moves collected {lab(ev[2])} to eaten ({ev[3].title})")
        elif kind in ("eat", "collect"):
            verb = "eats" if kind == "eat" else "collects"
            lines.append(f"     {verb} {lab(ev[2])}")
        elif kind == "supreme":
            lines.append(f"     assigns the Supreme to {ev[2]} {deck.type_names[ev[2]]}")
        elif kind == "seconds":
            _, p, t, eaten = ev
            lines.append("")
            names = ", ".join(lab(s) for s in eaten)
            lines.append(f"Seconds: {seat[p]} eats {len(eaten)} of type {t}: {names}")
    lines.append("")
    lines.append("== Guest check")
    scores = state.scores()
    shares = state.win_shares()
    bonus = bool(state.rules.compensation)  # the what-if compensation's column, when set
    head = (
        f"{'seat':<22}{'majorities':>11}{'specials':>9}{'diet':>6}{'pepperoni':>10}"
        f"{'anchovies':>10}{'  bonus' if bonus else ''}{'total':>7}{'eaten':>6}  win"
    )
    lines.append(head)
    for i, b in enumerate(scores):
        win = "" if shares[i] == 0 else ("WIN" if shares[i] == 1 else f"shared {shares[i]:.2f}")
        lines.append(
            f"{seat[i]:<22}{b.majorities:>11}{b.specials:>9}{b.diet:>6}{b.pepperoni:>10}"
            f"{b.anchovies:>10}{f'{b.bonus:>7}' if bonus else ''}{b.total:>7}{b.eaten_count:>6}"
            f"  {win}"
        )
    for i, b in enumerate(scores):
        own = sorted(state.players[i].specials, key=int)
        detail = ", ".join(f"{k}={v:+d}" for k, v in b.special_points.items())
        lines.append(
            f"  {seat[i]}: majorities {list(b.majority_types) or '-'}; specials owned: "
            f"{', '.join(s.title for s in own) or '-'}" + (f" ({detail})" if detail else "")
        )
    return "\n".join(lines)
