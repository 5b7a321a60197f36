"""A Horno game as a spectator at the table would follow it (``slicelab replay horno ...``):
the setup, then each turn's four steps, every oven after the turn, each completed dish's
scoring, the unfinished dishes and the final scores with their breakdown.

A spectator sees what the rules make public (``docs/rules/horno.md``, "What each player can
see"): the cards drawn from the face-up deck, every card placed face up, the dishes, who
did what to whom, every hand's size. What nobody but a player may see is written
``[hidden]``: the cards dealt and redrawn at setup, discarded cards, the cards a pantry
steal takes and gives, face-down sabotage cards (until an oven is revealed when its dish is
scored, or at the end) and a face-down card taken back by cleaning. With ``reveal`` (the
analyst's ``slicelab replay --reveal``) each of them is named, as ``[hidden: ...]``, and
after every turn each hand's cards are listed too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from sims.games.horno.cards import CardSet
from sims.games.horno.engine import PASS, Event, GameState, OvenCard
from sims.games.replaytext import HIDDEN_TEXT, hidden


def _hidden(cards: CardSet, kinds: Sequence[int], reveal: bool) -> str:
    """Cards no spectator sees: ``[hidden]`` (``3 cards [hidden]``), or under ``reveal``
    the same with their names, ``[hidden: pan, queso]``."""
    k = len(kinds)
    shown = hidden(_card_list(cards, kinds), reveal)
    return shown if k == 1 else f"{k} cards {shown}"


def _dish_text(cards: CardSet, d: int) -> str:
    dish = cards.dishes[d]
    need = ", ".join(cards.kinds[k].name for k in dish.ingredients)
    return f"{dish.name} ({cards.types[dish.type]}, {dish.points} points: {need})"


def _oven_text(
    cards: CardSet, dish: int, oven: Sequence[OvenCard], closed: bool, reveal: bool
) -> str:
    if closed:
        return "closed"
    if dish < 0:
        return "no dish"
    shown = [cards.kinds[c.kind].name if c.up else _hidden(cards, [c.kind], reveal) for c in oven]
    return f"{cards.dishes[dish].name}: {', '.join(shown) or 'empty'}"


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


def format_replay(state: GameState, specs: Sequence[str], header: str, reveal: bool = False) -> str:
    """The finished game ``state`` as text, from a spectator's point of view.

    Parameters
    ----------
    state : GameState
        A finished game (played from its setup).
    specs : sequence of str
        One strategy spec per seat.
    header : str
        The first line (the plugin's: game, players, seed, index).
    reveal : bool, optional
        Also name every hidden card (``[hidden: ...]``) and list each hand after every
        turn. Default False: a spectator's view.

    Returns
    -------
    str
        The replay; the same game always gives the same text.
    """
    cards = state.cards
    name = lambda k: cards.kinds[k].name  # noqa: E731
    out = [
        header,
        f"card set {cards.name} ({len(cards.deck)} deck cards, {len(cards.dishes)} dishes); "
        "rules: " + ", ".join(f"{k}={v}" for k, v in state.rules.as_dict().items()),
    ]
    for s, spec in enumerate(specs):
        out.append(f"seat {s}: {spec}")
    if reveal:
        out.append(
            "--reveal: cards nobody but a player may see are named, as [hidden: ...], and "
            "each hand is listed after every turn"
        )
    else:
        out.append(
            f"cards nobody but a player may see are shown as {HIDDEN_TEXT} (--reveal names them)"
        )
    out += ["", "Setup"]
    ctx = {
        "done": [0] * state.n,
        "closed": [False] * state.n,
        "turn": -1,
        "end": False,
        "reveal": reveal,
        "hands": [Counter() for _ in range(state.n)],
    }
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


def track_hands(hands: list[Counter], e: Event) -> None:
    """Follow every hand through one event: the cards each seat holds, as a multiset of
    kinds (what ``reveal`` lists after each turn; the engine logs only the hands' sizes).

    Parameters
    ----------
    hands : list of Counter
        One per seat, updated in place.
    e : Event
        The next event of the game's log.
    """
    s, v, w = e.seat, e.other, e.what
    if w == "deal":
        hands[s] = Counter(e.cards)
    elif w == "redraw":
        hands[s].subtract(e.cards)
        hands[s].update(e.info[0])
    elif w in ("discard", "prepare", "sabotage"):
        hands[s].subtract(e.cards)
    elif w in ("draw", "clean"):
        hands[s].update(e.cards)
    elif w == "pantry":
        keep, given = e.info
        # the thief looks at the cards taken and hands them all back but the one it keeps,
        # with one of its own in exchange
        if keep != PASS:
            hands[v][keep] -= 1
            hands[s][keep] += 1
        if given != PASS:
            hands[s][given] -= 1
            hands[v][given] += 1
    elif w == "oven_steal":
        repl = e.info[0]
        hands[s].update(e.cards)
        if repl != PASS:
            hands[s][repl] -= 1
    for h in hands:
        for k in [k for k, c in h.items() if c <= 0]:
            del h[k]


def _hand_text(cards: CardSet, hand: Counter) -> str:
    """A hand's cards, in card-set order."""
    return _card_list(cards, sorted(hand.elements())) if hand else "no cards"


def _event(state: GameState, e: Event, name, ctx: dict) -> list[str]:
    """The lines of one event; ``ctx`` carries the completed dishes written so far per
    seat, the closed ovens, whose turn it is, whether the end was announced, ``reveal``
    and the hands followed so far (:func:`track_hands`)."""
    cards = state.cards
    done, closed, reveal = ctx["done"], ctx["closed"], ctx["reveal"]
    hands: list[Counter] = ctx["hands"]
    track_hands(hands, e)
    s, v = e.seat, e.other
    w = e.what

    def hid(kinds: Sequence[int]) -> str:
        return _hidden(cards, kinds, reveal)

    if w == "deal":
        return [f"  seat {s} is dealt {hid(e.cards)}"]
    if w == "redraw":
        if not e.cards:
            return [f"  seat {s} keeps its opening hand"]
        return [f"  seat {s} discards {hid(e.cards)} and draws {hid(e.info[0])}"]
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
        return [f"  discards {hid(e.cards)}"]
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
            what = "keeps it" if one else f"keeps one {hid([keep])}, gives back the other"
            what += (" (it has no card of its own to give)" if given == PASS
                     else f" and gives one of its own {hid([given])}")  # fmt: skip
        return [f"  pantry steal from seat {v}: takes {hid(e.cards)}, {what}"]
    if w == "oven_steal":
        repl, slot, up = e.info
        took = name(e.cards[0]) if up else f"a face-down card {hid(e.cards)}"
        put = f"puts {name(repl)} in its place" if repl != PASS else "leaves the space empty"
        return [f"  oven steal: takes {took} from seat {v}'s oven, {put}"]
    if w == "clean":
        shown = [name(k) if up else f"a face-down card {hid([k])}"
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
        return [f"  sabotage: puts a face-down card {hid(e.cards)} into seat {v}'s oven"]
    if w == "status":
        ovens, dishes, sizes = e.info
        lines = ["  ovens: " + "; ".join(
            f"seat {q} {_oven_text(cards, dishes[q], ovens[q], closed[q], reveal)}"
            for q in range(state.n))]  # fmt: skip
        if reveal:
            # Followed from the log; a size that disagrees (a game resumed from a
            # position, whose hands the log never dealt) is shown by its size alone.
            held = [
                f"seat {q} {hid(sorted(hands[q].elements()))}"
                if sum(hands[q].values()) == sizes[q]
                else f"seat {q} {sizes[q]} cards"
                for q in range(state.n)
            ]
            lines.append("  hands: " + "; ".join(held))
        else:
            lines.append(
                "  hand sizes: " + ", ".join(f"seat {q} {sizes[q]}" for q in range(state.n))
            )
        return lines
    if w == "unfinished":
        u = state.unfinished[s]
        head = [] if ctx["end"] else ["", "End of the game: the unfinished dishes are revealed"]
        ctx["end"] = True
        return head + [f"  seat {s}'s {cards.dishes[u.dish].name} is unfinished; its oven holds "
                f"{_card_list(cards, e.cards)}: +2 x {u.correct} correct, -1 x {u.bad} "
                f"garbage = {u.points} points"]  # fmt: skip
    return []
