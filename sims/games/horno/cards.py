"""Horno's card set as data: dish types, dish cards, ingredients, the wild, garbage and
radioactive cards, read from a TOML file a user can replace (``data/cards-v1.toml`` is the
default, "assumed v1").

The file holds ``name``, ``types`` (the dish types, in order), ``[[ingredient]]`` (``name``,
``copies``), ``[wild]`` (``name``, ``copies``), ``[[garbage]]`` (``name``, ``penalty``,
``copies``), ``[[radioactive]]`` (``name``, ``type``, ``bonus``, ``penalty``, ``copies``) and
``[[dish]]`` (``name``, ``type``, ``points``, ``ingredients``, ``back``). Every key is
required; ``garbage`` and ``radioactive`` may be empty arrays.

Card **kinds** are numbered in file order: the ingredients first, then the wild, then the
garbage, then the radioactive cards (kind ``k`` is ``CardSet.kinds[k]``); dish cards are
numbered in file order too (``CardSet.dishes``). Cards of one kind are alike, so a hand
or an oven is a list of kinds.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from sims.core.errors import DataFileError
from sims.games.datafile import parse_toml, read_toml
from sims.games.horno.rules import DEAL, MAX_PLAYERS, OVEN_SIZE

DEFAULT_CARDS_FILE = "cards-v1.toml"
MAX_TYPES = 8
MAX_KINDS = 100
"""Card kinds a set may hold (a sabotage action packs a kind below 100)."""
MAX_COPIES = 50
MAX_PENALTY = 20
MAX_POINTS = 100
MIN_DECK = 2 * DEAL * MAX_PLAYERS
"""The deck must hold enough to deal every seat and redraw the whole opening hand."""

INGREDIENT, WILD, GARBAGE, RADIOACTIVE = "ingredient", "wild", "garbage", "radioactive"
_TOP = ("name", "types", "ingredient", "wild", "garbage", "radioactive", "dish")
_FIELDS = {
    INGREDIENT: ("name", "copies"),
    WILD: ("name", "copies"),
    GARBAGE: ("name", "penalty", "copies"),
    RADIOACTIVE: ("name", "type", "bonus", "penalty", "copies"),
    "dish": ("name", "type", "points", "ingredients", "back"),
}


class CardsError(DataFileError):
    """A card-set file that cannot be used."""


@dataclass(frozen=True)
class Kind:
    """One kind of deck card.

    Attributes
    ----------
    name : str
    cls : {"ingredient", "wild", "garbage", "radioactive"}
    copies : int
        Cards of this kind in the deck.
    penalty : int
        Points a completed dish loses per card (garbage; radioactive on another type's
        dish), 0 for ingredients and the wild.
    type : int
        For a radioactive card the dish type it benefits, else -1.
    bonus : int
        For a radioactive card its bonus to that type's dish, else 0.
    """

    name: str
    cls: str
    copies: int
    penalty: int = 0
    type: int = -1
    bonus: int = 0


@dataclass(frozen=True)
class Dish:
    """One dish card: its name, type index, base points, required ingredient kinds (each
    once) and the ingredient kinds its back shows."""

    name: str
    type: int
    points: int
    ingredients: tuple[int, ...]
    back: tuple[int, ...]


@dataclass(frozen=True)
class CardSet:
    """A whole card set (see the module docstring for the numbering)."""

    name: str
    types: tuple[str, ...]
    kinds: tuple[Kind, ...]
    dishes: tuple[Dish, ...]
    source: str = DEFAULT_CARDS_FILE

    @cached_property
    def wild(self) -> int:
        """The wild card's kind."""
        return next(k for k, c in enumerate(self.kinds) if c.cls == WILD)

    def is_(self, kind: int, cls: str) -> bool:
        return self.kinds[kind].cls == cls

    def is_bad(self, kind: int) -> bool:
        """Whether ``kind`` may sabotage: a garbage or radioactive card."""
        return self.kinds[kind].cls in (GARBAGE, RADIOACTIVE)

    @cached_property
    def deck(self) -> tuple[int, ...]:
        """The deck before shuffling: every card's kind, kind by kind in file order."""
        return tuple(k for k, c in enumerate(self.kinds) for _ in range(c.copies))

    def pile(self, t: int) -> tuple[int, ...]:
        """Type ``t``'s dish cards before shuffling, in file order."""
        return tuple(d for d, dish in enumerate(self.dishes) if dish.type == t)

    @property
    def digest(self) -> str:
        """A hash of the set's content (not its name or file)."""
        payload = json.dumps(
            {
                "types": list(self.types),
                "kinds": [[k.name, k.cls, k.copies, k.penalty, k.type, k.bonus]
                          for k in self.kinds],
                "dishes": [[d.name, d.type, d.points, list(d.ingredients), list(d.back)]
                           for d in self.dishes],
            },
            sort_keys=True,
        )  # fmt: skip
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    def kind(self, name: str) -> int:
        """The kind called ``name``."""
        for k, c in enumerate(self.kinds):
            if c.name == name:
                return k
        raise KeyError(name)

    def dish(self, name: str) -> int:
        """The dish card called ``name``."""
        for d, dish in enumerate(self.dishes):
            if dish.name == name:
                return d
        raise KeyError(name)


def _fail(source: str, msg: str) -> CardsError:
    return CardsError(f"card set {source}: {msg}")


def _int(entry: dict, key: str, low: int, high: int, where: str, source: str) -> int:
    v = entry[key]
    if type(v) is not int or not low <= v <= high:
        raise _fail(source, f"{where}: '{key}' = {v!r} must be an integer from {low} to {high}")
    return v


def _name(entry: dict, where: str, source: str) -> str:
    v = entry["name"]
    if not isinstance(v, str) or not v.strip() or v != v.strip():
        raise _fail(source, f"{where}: 'name' must be a non-empty string without outer "
                    f"spaces, got {v!r}")  # fmt: skip
    return v


def _entry(raw: Any, cls: str, where: str, source: str) -> dict:
    if not isinstance(raw, dict):
        raise _fail(source, f"{where} must be a table")
    fields = _FIELDS[cls]
    extra = sorted(set(raw) - set(fields))
    if extra:
        raise _fail(source, f"{where}: unknown field(s) {extra}; a {cls} has "
                    f"{', '.join(fields)}")  # fmt: skip
    for key in fields:
        if key not in raw:
            raise _fail(source, f"{where} is missing the field '{key}' (a {cls} has "
                        f"{', '.join(fields)})")  # fmt: skip
    return raw


def _array(data: dict, key: str, source: str, empty_ok: bool) -> list:
    items = data[key]
    if not isinstance(items, list) or (not items and not empty_ok):
        what = "an array" if empty_ok else "a non-empty array"
        raise _fail(source, f"'{key}' must be {what} of tables, one per card ([[{key}]])")
    return items


def _type_of(entry: dict, types: tuple[str, ...], where: str, source: str) -> int:
    t = entry["type"]
    if not isinstance(t, str) or t not in types:
        raise _fail(source, f"{where}: 'type' = {t!r} is not a dish type; use one of "
                    f"{list(types)} (the file's 'types')")  # fmt: skip
    return types.index(t)


def parse_cards(data: dict[str, Any], source: str) -> CardSet:
    """Validate a card-set table (see the module docstring for its keys).

    Raises
    ------
    CardsError
        Naming the entry and the field at fault, and what would be accepted.
    """
    unknown = sorted(set(data) - set(_TOP))
    if unknown:
        raise _fail(source, f"unknown key(s) {unknown}; a card set has {', '.join(_TOP)}")
    for key in _TOP:
        if key not in data:
            raise _fail(source, f"is missing '{key}' (a card set has {', '.join(_TOP)}; see "
                        f"the default {DEFAULT_CARDS_FILE})")  # fmt: skip
    name = data["name"]
    if not isinstance(name, str) or not name.strip():
        raise _fail(source, "'name' must be a non-empty string")
    types = data["types"]
    if (not isinstance(types, list) or not types
            or not all(isinstance(t, str) and t.strip() for t in types)):  # fmt: skip
        raise _fail(source, "'types' must be a non-empty list of dish type names")
    if len(types) > MAX_TYPES:
        raise _fail(source, f"has {len(types)} dish types; at most {MAX_TYPES}")
    dup = sorted({t for t in types if types.count(t) > 1})
    if dup:
        raise _fail(source, f"dish type(s) {dup} appear more than once in 'types'")
    types_t = tuple(types)

    kinds: list[Kind] = []
    for i, raw in enumerate(_array(data, INGREDIENT, source, empty_ok=False)):
        e = _entry(raw, INGREDIENT, f"ingredient {i + 1}", source)
        where = f"ingredient {i + 1} ({_name(e, f'ingredient {i + 1}', source)})"
        kinds.append(Kind(e["name"], INGREDIENT, _int(e, "copies", 0, MAX_COPIES, where, source)))
    n_ingredients = len(kinds)
    e = _entry(data[WILD], WILD, "[wild]", source)
    where = f"[wild] ({_name(e, '[wild]', source)})"
    kinds.append(Kind(e["name"], WILD, _int(e, "copies", 0, MAX_COPIES, where, source)))
    for i, raw in enumerate(_array(data, GARBAGE, source, empty_ok=True)):
        e = _entry(raw, GARBAGE, f"garbage {i + 1}", source)
        where = f"garbage {i + 1} ({_name(e, f'garbage {i + 1}', source)})"
        kinds.append(Kind(e["name"], GARBAGE, _int(e, "copies", 0, MAX_COPIES, where, source),
                          penalty=_int(e, "penalty", 0, MAX_PENALTY, where, source)))  # fmt: skip
    for i, raw in enumerate(_array(data, RADIOACTIVE, source, empty_ok=True)):
        e = _entry(raw, RADIOACTIVE, f"radioactive {i + 1}", source)
        where = f"radioactive {i + 1} ({_name(e, f'radioactive {i + 1}', source)})"
        kinds.append(Kind(
            e["name"], RADIOACTIVE, _int(e, "copies", 0, MAX_COPIES, where, source),
            penalty=_int(e, "penalty", 0, MAX_PENALTY, where, source),
            type=_type_of(e, types_t, where, source),
            bonus=_int(e, "bonus", 0, MAX_PENALTY, where, source),
        ))  # fmt: skip
    names = [k.name for k in kinds]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise _fail(source, f"card name(s) {dup} appear more than once; give every "
                    "ingredient, the wild, garbage and radioactive card its own name")  # fmt: skip
    if len(kinds) > MAX_KINDS:
        raise _fail(source, f"has {len(kinds)} card kinds; at most {MAX_KINDS}")
    ingredient_names = {k.name: i for i, k in enumerate(kinds[:n_ingredients])}

    dishes: list[Dish] = []
    for i, raw in enumerate(_array(data, "dish", source, empty_ok=False)):
        e = _entry(raw, "dish", f"dish {i + 1}", source)
        where = f"dish {i + 1} ({_name(e, f'dish {i + 1}', source)})"
        t = _type_of(e, types_t, where, source)
        points = _int(e, "points", 0, MAX_POINTS, where, source)
        need = e["ingredients"]
        if not isinstance(need, list) or not all(isinstance(x, str) for x in need):
            raise _fail(source, f"{where}: 'ingredients' must be a list of ingredient names")
        if not 2 <= len(need) <= OVEN_SIZE:
            raise _fail(source, f"{where}: needs from 2 to {OVEN_SIZE} ingredients (an oven "
                        f"holds {OVEN_SIZE} cards), got {len(need)}")  # fmt: skip
        for x in need:
            if x not in ingredient_names:
                raise _fail(source, f"{where}: unknown ingredient {x!r}; the file's "
                            f"ingredients are {sorted(ingredient_names)}")  # fmt: skip
        rep = sorted({x for x in need if need.count(x) > 1})
        if rep:
            raise _fail(source, f"{where}: ingredient(s) {rep} listed twice; a dish needs "
                        "each ingredient once")  # fmt: skip
        back = e["back"]
        if not isinstance(back, list) or not all(isinstance(x, str) for x in back):
            raise _fail(source, f"{where}: 'back' must be a list of ingredient names (those "
                        "its face-down back shows)")  # fmt: skip
        bad = [x for x in back if x not in need]
        if bad or len(set(back)) != len(back):
            raise _fail(source, f"{where}: 'back' must list distinct ingredients of the dish's "
                        f"own 'ingredients', got {back!r}")  # fmt: skip
        dishes.append(Dish(e["name"], t, points, tuple(ingredient_names[x] for x in need),
                           tuple(ingredient_names[x] for x in back)))  # fmt: skip
    names = [d.name for d in dishes]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise _fail(source, f"dish name(s) {dup} appear more than once; give every dish its "
                    "own name")  # fmt: skip
    empty = [t for i, t in enumerate(types_t) if not any(d.type == i for d in dishes)]
    if empty:
        raise _fail(source, f"dish type(s) {empty} have no dish card; add a [[dish]] of each "
                    "type or remove the type from 'types'")  # fmt: skip
    cards = CardSet(name.strip(), types_t, tuple(kinds), tuple(dishes), source)
    if len(cards.deck) < MIN_DECK:
        raise _fail(source, f"the deck holds {len(cards.deck)} cards; it needs at least "
                    f"{MIN_DECK} ({DEAL} to deal and {DEAL} to redraw for each of "
                    f"{MAX_PLAYERS} players)")  # fmt: skip
    return cards


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load a card-set file; ``None`` loads the default ("assumed v1").

    Raises
    ------
    CardsError
        If the file is missing, unreadable, not UTF-8 TOML, or describes an invalid set.
    """
    if path is None:
        text = resources.files("sims.games.horno").joinpath("data", DEFAULT_CARDS_FILE)
        return parse_cards(
            parse_toml(text.read_text("utf-8"), f"card set {DEFAULT_CARDS_FILE}", CardsError),
            DEFAULT_CARDS_FILE,
        )
    return parse_cards(read_toml(path, "card set", CardsError), str(Path(path)))


_DEFAULT: CardSet | None = None


def default_cards() -> CardSet:
    """The default card set ("assumed v1"), loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_cards(None)
    return _DEFAULT
