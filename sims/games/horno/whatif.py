"""What-ifs that cannot change a game: a rule option at a value other than its default
whose effect the other rulings in force (and the card set, and the seats' strategies)
rule out, so that every game of the arm is the game without it. A study that asks for
one would report "no outcome changes" for a question it never asked; :func:`inert` names
the problem and the fix instead, and ``Horno.check_arm`` refuses the arm with it when the
study is read.

Each check is a proof, not a measurement (an option is refused only when it provably
changes nothing; where it merely rarely matters, it is played):

- ``radioactive_bonus = "each"`` counts every matching radioactive card in an oven, so it
  matters only where an oven can hold two cards of its dish's type. That needs a type with
  two such cards in the deck; and under ``second_radioactive = false`` (an owner places a
  matching kind only while none of it is face up) with one radioactive kind a type, a
  second can reach an oven only face down, as sabotage with a card that helps the victim
  (an oven steal's replacement is an ingredient or the wild). ``greedy`` never sabotages
  so, nor ``heuristic`` with ``sabotage`` at least minus the smallest radioactive bonus
  (the score of such a sabotage is at most ``-bonus - sabotage``, and PASS scores 0 and
  wins a tie); any other strategy may.
- ``second_radioactive = false`` refuses a matching kind already face up in the oven: it
  matters only with two copies of a radioactive kind.
- ``steal_completes = "forbidden"`` refuses a replacement that completes the victim's dish.
  With ``steal_face_down = false`` no replacement can: every face-up card an oven steal may
  take counts toward its dish (a needed ingredient, the one wild; the matching radioactive
  card cannot be taken), so the replacement leaves the dish as many cards short as before
  (``docs/rules/horno.md``, "Oven steal").
- ``no_dish_left = "repeat"`` lets a player take a completed type once no other is left;
  with ``repeat_types = true`` every type with cards left may be taken already.
"""

from __future__ import annotations

from collections.abc import Sequence

from sims.games.horno.cards import RADIOACTIVE, CardSet
from sims.games.horno.rules import Rules


def _never_helps_victims(spec: str, players: int, bonus: int) -> bool:
    """Whether the strategy ``spec`` never sabotages with a card matching its victim's
    dish (whose bonus is at least ``bonus``): greedy, or the heuristic with ``sabotage``
    at least ``-bonus``."""
    from sims.games.horno.strategies import GreedyStrategy, HeuristicStrategy, make_strategy

    strategy = make_strategy(spec)
    if isinstance(strategy, GreedyStrategy):
        return True
    if isinstance(strategy, HeuristicStrategy):
        return strategy.params(players)["sabotage"] >= -bonus
    return False


def _radioactive(cards: CardSet) -> list:
    """The radioactive kinds in the deck (at least one copy)."""
    return [k for k in cards.kinds if k.cls == RADIOACTIVE and k.copies > 0]


def inert(cards: CardSet, rules: Rules, strategies: Sequence[str], players: int) -> str | None:
    """The first rule option of ``rules`` that cannot change any game played with this card
    set and these seats, as a refusal naming the problem and the fix, or None (see the
    module notes)."""
    radio = _radioactive(cards)
    per_type: dict[int, list] = {}
    for k in radio:
        per_type.setdefault(k.type, []).append(k)
    if rules.radioactive_bonus == "each":
        what = "Horno rule option radioactive_bonus='each' cannot change any game of this arm:"
        drop = "drop the option"
        if not any(sum(k.copies for k in ks) >= 2 for ks in per_type.values()):
            return (
                f"{what} card set {cards.name!r} holds at most one radioactive card of each "
                f"dish type, so no oven ever holds two; {drop}, or play a card set with two"
            )
        owner = rules.second_radioactive or any(len(ks) >= 2 for ks in per_type.values())
        bonus = min(k.bonus for k in radio)
        if not owner and all(_never_helps_victims(s, players, bonus) for s in strategies):
            return (
                f"{what} under second_radioactive = false no owner places a second matching "
                "radioactive card, and none of its seats "
                f"({', '.join(dict.fromkeys(strategies))}) ever sabotages with a card that "
                "helps its victim, so no oven ever holds two matching cards; "
                f"{drop}, or play it with second_radioactive = true (the default, the rules' "
                "reading)"
            )
    if not rules.second_radioactive and not any(k.copies >= 2 for k in radio):
        return (
            "Horno rule option second_radioactive=false cannot change any game of this arm: "
            f"card set {cards.name!r} holds no radioactive card in two copies, so a second "
            "of the same kind can never be placed; drop the option"
        )
    if rules.steal_completes == "forbidden" and not rules.steal_face_down:
        return (
            "Horno rule option steal_completes='forbidden' cannot change any game of this "
            "arm: with steal_face_down = false every card an oven steal may take counts "
            "toward the victim's dish, so no replacement ever completes it "
            "(docs/rules/horno.md, 'Oven steal'); drop the option, or play it with "
            "steal_face_down = true"
        )
    if rules.no_dish_left == "repeat" and rules.repeat_types:
        return (
            "Horno rule option no_dish_left='repeat' cannot change any game of this arm: "
            "with repeat_types = true any type with cards left may be taken already; drop "
            "one of the two options"
        )
    return None
