"""What a Horno study block plays and what it is for.

The blocks of ``studies/horno-balance.toml`` by role: the fields of the seat question
(:data:`FIELDS`, the main one :data:`MAIN_FIELD`: the heuristic in every seat), the
restricted seats (:data:`AVOID` for the dish types, :data:`RESTRICTED` for sabotage and
steals), the variant blocks replaying the main field's deals with the card set or a rule
changed (:func:`plain_blocks`, :data:`VARIANTS`), the alternative card sets
(:data:`CARD_SETS`, played as :data:`CARD_VARIANTS`) and the ladder (:data:`LADDER`).
Every block shares the study seed, so game ``i`` of every block is dealt the same cards
where the deck is the same (:func:`same_deck`). Also the card set and rules a block plays,
read from the manifest, and how the report names strategies and card sets.
"""

from __future__ import annotations

from pathlib import Path

from analysis.blocks import block_arms
from analysis.datavariants import DataVariants
from analysis.load import arm_options
from analysis.prose import preset_status as shared_preset_status
from sims.games.horno.cards import DEFAULT_NAME, CardSet, card_set_names
from sims.games.horno.plugin import cards_of, rules_of
from sims.games.horno.rules import Rules

Out = str | Path
"""A dataset directory."""
MAIN = 3
"""The player count of the paired blocks (restricted seats, card-set variants): the middle
of Horno's 2 to 4."""
LADDER_COUNT = 4
"""The player count of the ratings ladder."""
SEATS = "seats"
"""The main field's uniform block: the heuristic in every seat, at 2, 3 and 4 players."""
FIELDS: dict[str, str] = {
    "heuristic field": SEATS,
    "greedy field": "seats-greedy",
    "random field": "seats-random",
}
"""Every field the seat question is asked in, and its uniform block; the first is the main
one."""
FIELD_SPECS: dict[str, str] = {
    "heuristic field": "heuristic",
    "greedy field": "greedy",
    "random field": "random",
}
"""The spec every seat of each field's block plays (``studies/horno-balance.toml``): a
field's robustness condition carries it, so random play describes and never vetoes
(:func:`analysis.robust.vetoes`)."""
MAIN_FIELD = "heuristic field"
"""The field the verdicts' estimates come from."""
AVOID = "avoid"
"""The restricted-play block of the dish types: one seat plays ``heuristic(avoid=t)``,
every seat in turn, one arm per type ``t`` (grid key :data:`AVOID_KEY`)."""
AVOID_KEY = "type"
PLAIN = "plain-{type}"
"""The replacement block of a dish type (its name in lower case): the main field's deals
with that type's dishes made average dishes."""
RESTRICTED: dict[str, str] = {
    "never sabotages": "nosabotage",
    "never steals": "nosteal",
    "always sabotages": "allsabotage",
}
"""The sabotage and steal restrictions (one seat, every seat in turn) and their blocks."""
RESTRICTED_SPECS: dict[str, str] = {
    "never sabotages": "heuristic(sabotage=1000)",
    "never steals": "heuristic(steal=1000)",
    "always sabotages": "heuristic(sabotage=-1000)",
}
"""The spec each restriction's seat plays (read from the manifest when the study has it)."""
VARIANTS: dict[str, str] = {
    "no radioactive cards": "noradio",
    "radioactive_bonus = each": "radio-each",
}
"""The radioactive variants of the main field's deals (3 players) and their blocks."""
CARD_SETS = (
    "v1-harsh",
    "v1-mild",
    "v1-more-garbage",
    "v1-two-wilds",
    "v1-flat",
    "v1-steep",
    "v1-scarce",
)
"""The shipped alternatives to assumed v1 the study plays, each in block ``cards-<name>``."""
DEFAULT_SET = "assumed v1"
"""How the report names the default card set (the main field's)."""
CARD_VARIANTS = DataVariants(DEFAULT_SET, CARD_SETS, {MAIN_FIELD: (SEATS, "cards-{name}")})
"""The card sets the study plays: assumed v1 in the main field's block, each alternative
in ``cards-<name>`` (:meth:`~analysis.datavariants.DataVariants.blocks`)."""
LADDER = ("ladder", "ladder-search")
"""The rotated blocks the ratings are fitted on: the families at 4 players, and the search
player against the heuristic at 2 (:data:`SEARCH_COUNT`)."""

SEARCH_COUNT = 2
"""The player count the search player is rated at (block ``ladder-search``)."""

PLAYERS = {
    "heuristic": "the heuristic",
    "greedy": "greedy",
    "random": "random play",
}
"""The families as a sentence names them."""


def short(field: str) -> str:
    """``heuristic`` for ``heuristic field``."""
    return field.removesuffix(" field")


def the_field(field: str = MAIN_FIELD) -> str:
    """``the heuristic field``: a field as a sentence names it."""
    return f"the {field}"


def describe(spec: str) -> str:
    """A spec as the report names it."""
    compact = spec.replace(" ", "")
    if compact in PLAYERS:
        return PLAYERS[compact]
    return f"'{spec}'"


def preset_status() -> str:
    """What plain ``heuristic`` plays, from Horno's shipped presets file
    (:func:`analysis.prose.preset_status`)."""
    return shared_preset_status("sims.games.horno")


def block_options(manifest: dict, group: str) -> dict:
    """The game options of a block's first arm (``cards``, ``rules``)."""
    for a in block_arms(manifest, group):
        return arm_options(a)
    return {}


def block_cards(manifest: dict, group: str) -> CardSet:
    """The card set a block plays (its first arm's)."""
    return cards_of(block_options(manifest, group))


def block_rules(manifest: dict, group: str) -> Rules:
    """The rules a block plays (its first arm's)."""
    return rules_of(block_options(manifest, group))


def cards_label(ref: str | None) -> str:
    """How the report names an arm's ``cards`` value: :data:`DEFAULT_SET` for none (or the
    shipped ``v1``), a shipped set by its name, a file by its name."""
    if ref is None or ref == DEFAULT_NAME:
        return DEFAULT_SET
    if ref in card_set_names():
        return ref
    return Path(ref).name


def type_names(manifest: dict, group: str = SEATS) -> tuple[str, ...]:
    """The dish types of a block's card set, in order (index = type)."""
    return block_cards(manifest, group).types


def plain_blocks(manifest: dict) -> dict[str, str]:
    """Per dish type of the main field's card set, its replacement block name
    (:data:`PLAIN`), whether or not the study has it."""
    return {t: PLAIN.format(type=t.lower()) for t in type_names(manifest)}


def same_deck(manifest: dict, group: str, base: str = SEATS) -> bool:
    """Whether two blocks deal the same games: the same seed and deck (the cards in the deck,
    kind by kind, and the size of every dish pile; what the cards score and the rules
    may differ)."""
    a, b = block_arms(manifest, group), block_arms(manifest, base)
    if not a or not b:
        return False
    ca, cb = block_cards(manifest, group), block_cards(manifest, base)
    piles = [len(ca.pile(t)) for t in range(len(ca.types))] == [
        len(cb.pile(t)) for t in range(len(cb.types))
    ]
    seeds = {x["seed"] for x in a} == {x["seed"] for x in b}
    return seeds and ca.deck == cb.deck and piles


def _counts(cards: CardSet, cls: str) -> list[int]:
    return [k.copies for k in cards.kinds if k.cls == cls]


def _points_by_size(cards: CardSet) -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for d in cards.dishes:
        found.setdefault(len(d.ingredients), []).append(d.points)
    return found


def card_set_changes(cards: CardSet, base: CardSet) -> str:
    """What a card set changes from ``base`` (assumed v1), read from the two sets: the
    copies of each card class, the garbage and radioactive penalties and bonuses, and the
    dish points by ingredient count (the most common value of each count); ``same deck as
    <base>`` when nothing but names differ."""
    parts = []
    classes = (
        ("ingredient", "ingredient cards"),
        ("wild", "wilds"),
        ("garbage", "garbage cards"),
        ("radioactive", "radioactive cards"),
    )
    for cls, noun in classes:
        a, b = sum(_counts(cards, cls)), sum(_counts(base, cls))
        if a != b:
            parts.append(f"{a} {noun} ({b})")
    for cls, noun in (("garbage", "garbage penalties"), ("radioactive", "radioactive penalties")):
        a = [k.penalty for k in cards.kinds if k.cls == cls]
        b = [k.penalty for k in base.kinds if k.cls == cls]
        if a != b and a and b:
            parts.append(f"{noun} {'/'.join(f'-{x}' for x in a)} ({'/'.join(f'-{x}' for x in b)})")
    a_bonus = sorted({k.bonus for k in cards.kinds if k.cls == "radioactive"})
    b_bonus = sorted({k.bonus for k in base.kinds if k.cls == "radioactive"})
    if a_bonus != b_bonus and a_bonus:
        parts.append(
            f"radioactive bonus {'/'.join(f'+{x}' for x in a_bonus)} "
            f"({'/'.join(f'+{x}' for x in b_bonus)})"
        )
    pa, pb = _points_by_size(cards), _points_by_size(base)
    if pa != pb:

        def mode(v: list[int]) -> int:
            return max(sorted(set(v)), key=v.count)

        sizes = sorted(set(pa) | set(pb))
        parts.append(
            "dish points "
            + "/".join(str(mode(pa[k])) if k in pa else "-" for k in sizes)
            + " for "
            + "/".join(map(str, sizes))
            + " ingredients ("
            + "/".join(str(mode(pb[k])) if k in pb else "-" for k in sizes)
            + ")"
        )
    if not parts:
        return f"the same cards as {base.name}"
    return "; ".join(parts) + f" ({label(base)} in brackets)"


def label(cards: CardSet) -> str:
    """A card set as the report names it: ``assumed v1`` for the default's name
    ``assumed-v1``, else its ``name``."""
    return DEFAULT_SET if cards.name == "assumed-v1" else cards.name
