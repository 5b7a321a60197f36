"""Text replay of a finished New York Slice game, as a person would follow it at the table.

Every slice is named by its deck label (``11 Cheese (3p)``: type number, the deck's type
name, pepperoni and anchovies), every portion by a letter (A, B, ... in the order the cut
lists them), and each cut is drawn as one line of the ring with ``|`` at the cuts and the
portion letters beneath. By default the replay shows what a spectator at the table sees
(``docs/rules/nyslice.md``, "What each player can see"): the mystery pool, the
replacement pile and a Mystery slice someone eats are written ``[hidden]``; with
``reveal`` they are named, as ``[hidden: ...]``.
"""

from __future__ import annotations

from collections.abc import Sequence

from sims.games.nyslice.deck import Deck, Kind, Special
from sims.games.nyslice.engine import GameState
from sims.games.replaytext import HIDDEN_TEXT, LETTERS, hidden, ring_drawing

PORTION_LETTERS = LETTERS
"""Portion ``i`` of a cut (as the engine lists them) is called PORTION_LETTERS[i]."""


def _special(sp: Special | None) -> str:
    return sp.title if sp is not None else "none"


def slice_token(deck: Deck, sid: int) -> str:
    """The short mark of a slice in a cut drawing: its type number (``8/10`` for a combo),
    ``An`` for the Anchovy slice, ``Su`` for the Supreme.

    Parameters
    ----------
    deck : Deck
    sid : int
        A slice id of ``deck``.

    Returns
    -------
    str
        One to five characters, as printed on the slice's corner.
    """
    s = deck.slices[sid]
    if s.kind == Kind.NUMBERED:
        return str(s.type)
    if s.kind == Kind.COMBO:
        return f"{s.types[0]}/{s.types[1]}"
    return "An" if s.kind == Kind.ANCHOVY else "Su"


def format_replay(
    state: GameState, strategy_names: Sequence[str], header: str = "", reveal: bool = False
) -> str:
    """Render every round (special, pizza, the cut drawn with its portions named, choices,
    eat/collect, special uses) and the final guest check with every score component.

    Parameters
    ----------
    state : GameState
        A finished game.
    strategy_names : sequence of str
        One per seat, shown beside the seat number.
    header : str, optional
        A first line (the plugin's: game, players, seed, index).
    reveal : bool, optional
        Also name what no spectator sees: the mystery pool, the replacement pile and the
        Mystery slices eaten face down. Default False (written ``[hidden]``).

    Returns
    -------
    str
        The replay, one line per event; the same game always gives the same text.
    """
    deck = state.deck
    lab = deck.label
    seat = [f"P{i} ({name})" for i, name in enumerate(strategy_names)]
    lines: list[str] = []
    if header:
        lines.append(header)
    lines.append(f"Players: {', '.join(seat)}")
    pool = ", ".join(lab(s) for s in state.deal.mystery)
    pile = ", ".join(sp.title for sp in state.deal.replacement)
    n_pool = len(state.deal.mystery)
    lines.append(
        f"Deck: {deck.name}; mystery pool: {n_pool} slices face down "
        f"{hidden(pool, reveal)}; replacement pile (top first): "
        f"{len(state.deal.replacement)} tiles face down {hidden(pile, reveal)}"
    )
    lines.append(
        "A slice reads: type number, type name (pepperoni p, anchovies a). A cut is drawn as "
        "the pizza in one line, each slice"
    )
    lines.append(
        "by its type number (8/10: a combo, An: the Anchovy slice, Su: the Supreme), '|' at "
        "each cut, the portions' letters beneath."
    )
    if reveal:
        lines.append(
            "--reveal: what no spectator sees (the mystery pool, the replacement pile, a "
            "Mystery slice eaten face down) is named, as [hidden: ...]."
        )
    else:
        lines.append(f"What no spectator sees is written {HIDDEN_TEXT}; --reveal names it.")
    mystery = set(state.deal.mystery)
    pizza: list[int] = []
    closed = True
    portions: list[tuple[tuple[int, ...], bool]] = []
    today: Special | None = None
    for ev in state.events:
        kind = ev[0]
        if kind == "round":
            _, r, slicer, sp, rejected, pizza_ = ev
            pizza, closed, today = list(pizza_), True, sp
            lines.append("")
            lines.append(f"== Round {r + 1}/{state.rounds} — slicer {seat[slicer]}")
            rej = f" (replacing {', '.join(x.title for x in rejected)})" if rejected else ""
            lines.append(f"   Today's Special: {_special(sp)}{rej}")
            lines.append(
                f"   Pizza: {len(pizza)} slices in a ring, in order: "
                + ", ".join(lab(s) for s in pizza)
            )
        elif kind == "dibs":
            sid = ev[2]
            pos = pizza.index(sid)
            pizza.pop(pos)
            if state.rules.dibs_closes_circle:
                after = f"the ring closes up: {len(pizza)} slices"
            else:
                # The engine lays the line out from the slice after the gap.
                pizza, closed = pizza[pos:] + pizza[:pos], False
                after = f"the gap stays: {len(pizza)} slices in a line"
            lines.append(f"   {seat[ev[1]]} calls Dibs! on {lab(sid)} ({after})")
        elif kind == "cut":
            _, slicer, _rank, portions = ev
            owner = {s: PORTION_LETTERS[i] for i, (sl, _) in enumerate(portions) for s in sl}
            shape = (
                "the ring into {} portions (the drawing's two ends touch)"
                if closed
                else "the line into {} portions (the gap Dibs! left parts its two ends)"
            )
            lines.append(f"   {seat[slicer]} cuts {shape.format(len(portions))}:")
            drawn = ring_drawing(
                [slice_token(deck, s) for s in pizza], [owner[s] for s in pizza], closed
            )
            lines += [f"     {x}" for x in drawn]
            for i, (sl, has_sp) in enumerate(portions):
                special = f"Today's Special ({_special(today)})"
                if not sl:
                    text = f"{special} alone"
                else:
                    text = ", ".join(lab(s) for s in sl) + (f" + {special}" if has_sp else "")
                lines.append(f"     {PORTION_LETTERS[i]}: {text}")
        elif kind == "cut_in_line":
            lines.append(f"   {seat[ev[1]]} plays Cut in Line and chooses first")
        elif kind == "sneak":
            _, p, sid, src, dst = ev
            lines.append(
                f"   {seat[p]} plays Sneak-a-Slice: moves {lab(sid)} from portion "
                f"{PORTION_LETTERS[src]} to portion {PORTION_LETTERS[dst]}"
            )
        elif kind == "choose":
            _, p, idx, _sl, sp = ev
            extra = f" with {sp.title}" if sp is not None else ""
            lines.append(f"   {seat[p]} takes portion {PORTION_LETTERS[idx]}{extra}")
        elif kind == "forfeit":
            lines.append(f"     forfeits {ev[2].title} (restricted play): it leaves the game")
        elif kind == "mystery":
            lines.append(f"     draws a Mystery slice from the pool {hidden(lab(ev[2]), reveal)}")
        elif kind == "move_to_eaten":
            lines.append(f"     moves collected {lab(ev[2])} to eaten ({ev[3].title})")
        elif kind in ("eat", "collect"):
            sid = ev[2]
            if kind == "eat" and sid in mystery:
                # A Mystery slice eaten goes face down unseen: only its eater knows it.
                lines.append(f"     eats the Mystery slice {hidden(lab(sid), reveal)}")
            else:
                what = "the Mystery slice, " if sid in mystery else ""
                lines.append(f"     {'eats' if kind == 'eat' else 'collects'} {what}{lab(sid)}")
        elif kind == "supreme":
            lines.append(f"     assigns the Supreme to {_type_name(deck, ev[2])}")
        elif kind == "seconds":
            _, p, t, eaten = ev
            lines.append("")
            names = ", ".join(lab(s) for s in eaten)
            lines.append(
                f"Seconds: {seat[p]} eats {len(eaten)} collected {_type_name(deck, t)}: {names}"
            )
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
        majorities = ", ".join(_type_name(deck, t) for t in b.majority_types) or "-"
        lines.append(
            f"  {seat[i]}: majorities {majorities}; specials owned: "
            f"{', '.join(s.title for s in own) or '-'}" + (f" ({detail})" if detail else "")
        )
    return "\n".join(lines)


def _type_name(deck: Deck, t: int) -> str:
    """A type as ``8 Mushroom`` (the number alone when the deck gives it no name)."""
    name = deck.type_names.get(t)
    return f"{t} {name}" if name else str(t)
