"""A Horno game as a spectator at the table would follow it (``slicelab replay horno ...``):
the setup, then each turn's four steps, every oven after the turn, each completed dish's
scoring, the unfinished dishes and the final scores with their breakdown.

A spectator sees what the rules make public (``docs/rules/horno.md``, "What each player can
see"): the cards drawn from the face-up deck, every card placed face up, the dishes, who
did what to whom. What nobody but a player may see is written ``[hidden]``: the cards dealt
and redrawn at setup, discarded cards, the cards a pantry steal takes and gives, face-down
sabotage cards (until an oven is revealed when its dish is scored, or at the end) and a
face-down card taken back by cleaning.
"""

from __future__ import annotations

from collections.abc import Sequence

from sims.games.horno.cards import CardSet
from sims.games.horno.engine import PASS, Event, GameState, OvenCard

HIDDEN_TEXT = "[hidden]"


def _hidden(k: int) -> str:
    return HIDDEN_TEXT if k == 1 else f"{k} cards {HIDDEN_TEXT}"


def _dish_text(cards: CardSet, d: int) -> str:
    dish = cards.dishes[d]
    need = ", ".join(cards.kinds[k].name for k in dish.ingredients)
    return f"{dish.name} ({cards.types[dish.type]}, {dish.points} points: {need})"


def _oven_text(cards: CardSet, dish: int, oven: Sequence[OvenCard], closed: bool) -> str:
    if closed:
        return "closed"
    if dish < 0:
        return "no dish"
    shown = [cards.kinds[c.kind].name if c.up else HIDDEN_TEXT for c in oven]
    return f"{cards.dishes[dish].name} [{', '.join(shown) or 'empty'}]"


def _card_list(cards: CardSet, kinds: Sequence[int]) -> str:
    return ", ".join(cards.kinds[k].name for k in kinds) or "nothing"


def _scoring_text(state: GameState, seat: int, index: int) -> str:
    r = state.scored[seat][index]
    parts = [f"{r.base} base"]
    if r.garbage:
        parts.append(f"{r.garbage} garbage")
    if r.penalty:
        parts.append(f"{r.penalty} radioactive")
    if r.bonus:
        parts.append(f"+{r.bonus} radioactive bonus")
    return f"{' '.join(parts)} = {r.points} points"


def format_replay(state: GameState, specs: Sequence[str], header: str) -> str:
    """The finished game ``state`` as text, from a spectator's point of view."""
    cards = state.cards
    name = lambda k: cards.kinds[k].name  # noqa: E731
    out = [
        header,
        f"card set {cards.name} ({len(cards.deck)} deck cards, {len(cards.dishes)} dishes); "
        "rules: " + ", ".join(f"{k}={v}" for k, v in state.rules.as_dict().items()),
    ]
    for s, spec in enumerate(specs):
        out.append(f"seat {s}: {spec}")
    out.append(f"cards nobody but a player may see are shown as {HIDDEN_TEXT}")
    out += ["", "Setup"]
    ctx = {"done": [0] * state.n, "closed": [False] * state.n, "turn": -1, "end": False}
    for e in state.log:
        out += _event(state, e, name, ctx)
    out += ["", "Final scores (completed dishes + unfinished dish)"]
    won = state.won()
    for s, b in enumerate(state.score_breakdown()):
        dishes = ", ".join(f"{cards.dishes[r.dish].name} {r.points}" for r in state.scored[s])
        u = state.unfinished[s]
        out.append(
            f"  seat {s}: {b['score']} = base {b['dish_base']}, garbage {b['garbage_penalty']}, "
            f"radioactive {b['radioactive_bonus']:+d}/{b['radioactive_penalty']}, unfinished "
            f"{b['unfinished_points']}" + (" (winner)" if won[s] else "")
        )
        out.append(f"    completed: {dishes or 'none'}"
                   + (f"; unfinished {cards.dishes[u.dish].name}" if u else ""))  # fmt: skip
    winners = [s for s in range(state.n) if won[s]]
    if len(winners) == 1:
        out.append(f"seat {winners[0]} wins")
    else:
        out.append(f"seats {', '.join(map(str, winners))} share the win")
    return "\n".join(out)


def _event(state: GameState, e: Event, name, ctx: dict) -> list[str]:
    """The lines of one event; ``ctx`` carries the completed dishes written so far per
    seat, the closed ovens, whose turn it is and whether the end was announced."""
    cards = state.cards
    done, closed = ctx["done"], ctx["closed"]
    s, v = e.seat, e.other
    w = e.what
    if w == "deal":
        return [f"  seat {s} is dealt {_hidden(len(e.cards))}"]
    if w == "redraw":
        if not e.cards:
            return [f"  seat {s} keeps its opening hand"]
        n = len(e.cards)
        return [f"  seat {s} discards {_hidden(n)} and draws {_hidden(len(e.info[0]))}"]
    if w == "dish":
        return [f"  seat {s} takes {_dish_text(cards, e.info[0])}"]
    if w == "no_dish":
        return [f"  seat {s} has no dish left to take: its oven stays empty"]
    if w == "face_up":
        top = name(e.cards[0]) if e.cards else "none: the deck is empty"
        return [f"  the deck is turned face up: top card {top}"]
    if w == "round":
        return ["", f"Round {e.info[0]}"]
    if w == "turn":
        ctx["turn"] = s
        return [f" seat {s}'s turn"]
    if w == "discard":
        return [f"  discards {HIDDEN_TEXT}"]
    if w == "draw":
        return [f"  draws {name(e.cards[0])}"]
    if w == "reshuffle":
        return [f"  the deck is empty: the discard pile ({e.info[0]} cards) is shuffled "
                "into a new deck"]  # fmt: skip
    if w == "pantry":
        keep, given = e.info
        one = len(e.cards) == 1
        if keep == PASS:
            what = "gives it back" if one else "gives them back"
        else:
            what = "keeps it" if one else (
                f"keeps one {HIDDEN_TEXT}, gives back the other")  # fmt: skip
            what += (" (it has no card of its own to give)" if given == PASS
                     else f" and gives one of its own {HIDDEN_TEXT}")  # fmt: skip
        return [f"  pantry steal from seat {v}: takes {_hidden(len(e.cards))}, {what}"]
    if w == "oven_steal":
        repl, slot, up = e.info
        took = name(e.cards[0]) if up else f"a face-down card {HIDDEN_TEXT}"
        put = f"puts {name(repl)} in its place" if repl != PASS else "leaves the space empty"
        return [f"  oven steal: takes {took} from seat {v}'s oven, {put}"]
    if w == "clean":
        shown = [name(k) if up else f"a face-down card {HIDDEN_TEXT}"
                 for k, up in zip(e.cards, e.info, strict=True)]  # fmt: skip
        return [f"  cleans its oven: takes back {' and '.join(shown)}"]
    if w == "prepare":
        return [f"  places {name(e.cards[0])}"]
    if w == "complete":
        i = done[s]
        done[s] += 1
        who = "" if s == ctx["turn"] else f"seat {s}'s "
        return [f"  {who}{cards.dishes[e.info[0]].name} is complete; its oven holds "
                f"{_card_list(cards, e.cards)}: {_scoring_text(state, s, i)}"]  # fmt: skip
    if w == "close":
        closed[s] = True
        return [f"  seat {s}'s oven closes (a dish completed in the last round)"]
    if w == "sabotage":
        return [f"  sabotage: puts a face-down card {HIDDEN_TEXT} into seat {v}'s oven"]
    if w == "status":
        ovens, dishes, sizes = e.info
        lines = ["  ovens: " + "; ".join(
            f"seat {q} {_oven_text(cards, dishes[q], ovens[q], closed[q])}"
            for q in range(state.n))]  # fmt: skip
        lines.append("  hands: " + ", ".join(f"seat {q} {sizes[q]}" for q in range(state.n)))
        return lines
    if w == "unfinished":
        u = state.unfinished[s]
        head = [] if ctx["end"] else ["", "End of the game: the unfinished dishes are revealed"]
        ctx["end"] = True
        return head + [f"  seat {s}'s {cards.dishes[u.dish].name} is unfinished; its oven holds "
                f"{_card_list(cards, e.cards)}: +2 x {u.correct} correct, -1 x {u.bad} "
                f"garbage = {u.points} points"]  # fmt: skip
    return []
