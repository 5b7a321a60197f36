"""Horno's card set as data: dish types, dish cards, ingredients, the wild, garbage and
radioactive cards, read from a TOML file a user can replace (``data/cards-v1.toml`` is the
default, "assumed v1").

The file holds ``name``, ``types`` (the dish types, in order), ``[[ingredient]]`` (``name``,
``copies``), ``[wild]`` (``name``, ``copies``), ``[[garbage]]`` (``name``, ``penalty``,
``copies``), ``[[radioactive]]`` (``name``, ``type``, ``bonus``, ``penalty``, ``copies``) and
``[[dish]]`` (``name``, ``type``, ``points``, ``ingredients``, ``back``). Every key is
required; ``garbage`` and ``radioactive`` may be empty arrays. Every count is bounded by a
limit declared in ``rules.py`` (``rules.LIMITS``: dish types, card kinds, copies, the
deck, dish cards, a dish's ingredients, points, penalties, bonuses), checked here: the
counts of the file with :meth:`~sims.core.limits.Limit.check`, a field's value and a dish's
ingredients in the wording scripts already match, with the limit's range and reason.

Card **kinds** are numbered in file order: the ingredients first, then the wild, then the
garbage, then the radioactive cards (kind ``k`` is ``CardSet.kinds[k]``); dish cards are
numbered in file order too (``CardSet.dishes``). Cards of one kind are alike, so a hand
or an oven is a list of kinds.
"""

from __future__ import annotations

import hashlib
import json
import textwrap
from dataclasses import dataclass, replace
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from sims.core.errors import DataFileError
from sims.core.limits import Limit
from sims.games.datafile import parse_toml, read_toml
from sims.games.horno.rules import (
    BONUS,
    COPIES,
    DECK,
    DISHES,
    INGREDIENTS,
    KINDS,
    PENALTY,
    POINTS,
    TYPES,
)

DEFAULT_CARDS_FILE = "cards-v1.toml"
# the declared limits' ends under their older names (``rules.LIMITS`` declares them)
MAX_TYPES = TYPES.high
MAX_KINDS = KINDS.high
"""Card kinds a set may hold (a sabotage action packs a kind below 100)."""
MAX_COPIES = COPIES.high
MAX_PENALTY = PENALTY.high
MAX_POINTS = POINTS.high
MAX_DISHES = DISHES.high
MIN_DECK = DECK.low
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


def _int(entry: dict, key: str, limit: Limit, where: str, source: str) -> int:
    """A field's integer within its declared limit (the message names the field, the
    limit's range and what it comes from; the wording predates ``Limit.check``'s, and
    scripts and tests match it)."""
    v = entry[key]
    if type(v) is not int or not limit.low <= v <= limit.high:
        raise _fail(source, f"{where}: '{key}' = {v!r} must be an integer from {limit.low} to "
                    f"{limit.high} ({limit.why})")  # fmt: skip
    return v


def _name(entry: dict, where: str, source: str) -> str:
    v = entry["name"]
    if not isinstance(v, str) or not v.strip() or v != v.strip():
        raise _fail(source, f"{where}: 'name' must be a non-empty string without outer "
                    f"spaces, got {v!r}")  # fmt: skip
    return v


def _entry(raw: Any, cls: str, where: str, source: str) -> dict:
    if not isinstance(raw, dict):
        if cls == WILD and isinstance(raw, list):
            raise _fail(source, f"{where} must be one table ([wild]), not an array of tables "
                        "([[wild]]): a card set has one wild card kind")  # fmt: skip
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
    TYPES.check(len(types), f"card set {source}", CardsError)
    dup = sorted({t for t in types if types.count(t) > 1})
    if dup:
        raise _fail(source, f"dish type(s) {dup} appear more than once in 'types'")
    types_t = tuple(types)

    kinds: list[Kind] = []
    for i, raw in enumerate(_array(data, INGREDIENT, source, empty_ok=False)):
        e = _entry(raw, INGREDIENT, f"ingredient {i + 1}", source)
        where = f"ingredient {i + 1} ({_name(e, f'ingredient {i + 1}', source)})"
        kinds.append(Kind(e["name"], INGREDIENT, _int(e, "copies", COPIES, where, source)))
    n_ingredients = len(kinds)
    e = _entry(data[WILD], WILD, "[wild]", source)
    where = f"[wild] ({_name(e, '[wild]', source)})"
    kinds.append(Kind(e["name"], WILD, _int(e, "copies", COPIES, where, source)))
    for i, raw in enumerate(_array(data, GARBAGE, source, empty_ok=True)):
        e = _entry(raw, GARBAGE, f"garbage {i + 1}", source)
        where = f"garbage {i + 1} ({_name(e, f'garbage {i + 1}', source)})"
        kinds.append(Kind(e["name"], GARBAGE, _int(e, "copies", COPIES, where, source),
                          penalty=_int(e, "penalty", PENALTY, where, source)))  # fmt: skip
    for i, raw in enumerate(_array(data, RADIOACTIVE, source, empty_ok=True)):
        e = _entry(raw, RADIOACTIVE, f"radioactive {i + 1}", source)
        where = f"radioactive {i + 1} ({_name(e, f'radioactive {i + 1}', source)})"
        kinds.append(Kind(
            e["name"], RADIOACTIVE, _int(e, "copies", COPIES, where, source),
            penalty=_int(e, "penalty", PENALTY, where, source),
            type=_type_of(e, types_t, where, source),
            bonus=_int(e, "bonus", BONUS, where, source),
        ))  # fmt: skip
    names = [k.name for k in kinds]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise _fail(source, f"card name(s) {dup} appear more than once; give every "
                    "ingredient, the wild, garbage and radioactive card its own name")  # fmt: skip
    KINDS.check(len(kinds), f"card set {source}", CardsError)
    ingredient_names = {k.name: i for i, k in enumerate(kinds[:n_ingredients])}

    dishes: list[Dish] = []
    raw_dishes = _array(data, "dish", source, empty_ok=False)
    DISHES.check(len(raw_dishes), f"card set {source}", CardsError)
    for i, raw in enumerate(raw_dishes):
        e = _entry(raw, "dish", f"dish {i + 1}", source)
        where = f"dish {i + 1} ({_name(e, f'dish {i + 1}', source)})"
        t = _type_of(e, types_t, where, source)
        points = _int(e, "points", POINTS, where, source)
        need = e["ingredients"]
        if not isinstance(need, list) or not all(isinstance(x, str) for x in need):
            raise _fail(source, f"{where}: 'ingredients' must be a list of ingredient names")
        if not INGREDIENTS.low <= len(need) <= INGREDIENTS.high:  # the older wording
            raise _fail(source, f"{where}: needs from {INGREDIENTS.low} to {INGREDIENTS.high} "
                        f"ingredients ({INGREDIENTS.why}), got {len(need)}")  # fmt: skip
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
    DECK.check(len(cards.deck), f"card set {source}", CardsError)
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


# ----------------------------------------------------------------------------- shipped sets

SHIPPED_PREFIX = "cards-"
"""A shipped card set's file is ``data/cards-<name>.toml``; ``<name>`` names it."""
DEFAULT_NAME = "v1"
"""The name of the default set ("assumed v1", ``data/cards-v1.toml``)."""


def card_set_names() -> list[str]:
    """The shipped card sets' names (``v1``, ``v1-harsh``, ...): the files
    ``data/cards-<name>.toml`` of this package, read through ``importlib.resources`` (once:
    the installed package does not change while it runs)."""
    return list(_card_set_names())


@cache
def _card_set_names() -> tuple[str, ...]:
    folder = resources.files("sims.games.horno").joinpath("data")
    return tuple(
        sorted(
            f.name.removeprefix(SHIPPED_PREFIX).removesuffix(".toml")
            for f in folder.iterdir()
            if f.name.startswith(SHIPPED_PREFIX) and f.name.endswith(".toml")
        )
    )


@cache
def shipped_cards(name: str) -> CardSet:
    """A shipped card set by name, loaded once (``v1`` is :func:`default_cards`).

    Raises
    ------
    CardsError
        If no shipped set has that name.
    """
    if name == DEFAULT_NAME:
        return default_cards()
    names = card_set_names()
    if name not in names:
        raise CardsError(f"no shipped card set {name!r}; the shipped sets are "
                         f"{', '.join(names)}")  # fmt: skip
    file = f"{SHIPPED_PREFIX}{name}.toml"
    text = resources.files("sims.games.horno").joinpath("data", file).read_text("utf-8")
    return parse_cards(parse_toml(text, f"card set {file}", CardsError), file)


def cards_text(ref: str | None) -> str:
    """The TOML text of the card set ``ref`` names (:func:`resolve_cards`'s references:
    ``None`` the default, a shipped set's name, else a file's path)."""
    if ref is None or cards_reference(str(ref)) in (DEFAULT_NAME, *card_set_names()):
        name = DEFAULT_NAME if ref is None else cards_reference(str(ref))
        file = DEFAULT_CARDS_FILE if name == DEFAULT_NAME else f"{SHIPPED_PREFIX}{name}.toml"
        return resources.files("sims.games.horno").joinpath("data", file).read_text("utf-8")
    return Path(ref).read_text("utf-8")


def cards_reference(value: str) -> str:
    """How an arm names its card set, as written to the manifest: a shipped set's name
    (``v1-harsh``) or a file's path.

    A study or the command line resolves a relative ``cards`` value against its folder
    before the game reads it, so ``cards = "v1-harsh"`` arrives as
    ``<folder>/v1-harsh``: a value that is not a file, has no ``.toml`` suffix and whose
    last part names a shipped set is that set. A file of that name wins over the shipped
    set; anything else is a path (refused by :func:`resolve_cards` if there is no such
    file)."""
    names = card_set_names()
    if value in names:
        return value
    path = Path(value)
    if not path.is_file() and path.suffix.lower() != ".toml" and path.name in names:
        return path.name
    return value


def resolve_cards(ref: str | Path | None) -> CardSet:
    """The card set ``ref`` names: ``None`` the default, a shipped set's name
    (:func:`card_set_names`) that set, else the card-set file at that path.

    Raises
    ------
    CardsError
        If ``ref`` names neither a shipped set nor a valid card-set file (a value without a
        ``.toml`` suffix that is no file is refused naming the shipped sets).
    """
    if ref is None:
        return default_cards()
    ref = cards_reference(str(ref))
    if ref in card_set_names():
        return shipped_cards(ref)
    path = Path(ref)
    if not path.is_file() and path.suffix.lower() != ".toml":
        raise CardsError(
            f"card set {ref}: no such file, and {path.name!r} is not a shipped card set; pass "
            "the path of a card-set TOML file or a shipped set's name "
            f"({', '.join(card_set_names())})"
        )
    return load_cards(path)


# ----------------------------------------------------------------------------- derived sets


def _toml_str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _toml_list(values) -> str:
    return "[" + ", ".join(_toml_str(v) for v in values) + "]"


def cards_toml(cards: CardSet, header: str = "") -> str:
    """A card set as a card-set file (``load_cards`` reads it back to the same
    :attr:`CardSet.digest`), with ``header`` as its opening comment (each line of it
    wrapped at 86 columns, ``# `` before each)."""
    lines = [f"# {x}".rstrip() for line in header.strip("\n").splitlines()
             for x in (textwrap.wrap(line, 86) or [""])]  # fmt: skip
    if lines:
        lines.append("")
    lines += [f"name = {_toml_str(cards.name)}", f"types = {_toml_list(cards.types)}"]
    garbage = [k for k in cards.kinds if k.cls == GARBAGE]
    radio = [k for k in cards.kinds if k.cls == RADIOACTIVE]
    # an empty array is a top-level key: before the first table
    lines += [f"{key} = []" for key, found in (("garbage", garbage), ("radioactive", radio))
              if not found]  # fmt: skip
    ing = [k for k in cards.kinds if k.cls == INGREDIENT]
    for k in ing:
        lines += ["", "[[ingredient]]", f"name = {_toml_str(k.name)}", f"copies = {k.copies}"]
    w = cards.kinds[cards.wild]
    lines += ["", "[wild]", f"name = {_toml_str(w.name)}", f"copies = {w.copies}"]
    for k in garbage:
        lines += ["", "[[garbage]]", f"name = {_toml_str(k.name)}", f"penalty = {k.penalty}",
                  f"copies = {k.copies}"]  # fmt: skip
    for k in radio:
        lines += ["", "[[radioactive]]", f"name = {_toml_str(k.name)}",
                  f"type = {_toml_str(cards.types[k.type])}", f"bonus = {k.bonus}",
                  f"penalty = {k.penalty}", f"copies = {k.copies}"]  # fmt: skip
    for d in cards.dishes:
        lines += ["", "[[dish]]", f"name = {_toml_str(d.name)}",
                  f"type = {_toml_str(cards.types[d.type])}", f"points = {d.points}",
                  f"ingredients = {_toml_list(cards.kinds[i].name for i in d.ingredients)}",
                  f"back = {_toml_list(cards.kinds[i].name for i in d.back)}"]  # fmt: skip
    return "\n".join(lines) + "\n"


def mean_dish_points(cards: CardSet) -> int:
    """The mean base points of the set's dish cards, rounded to a whole point (halves up):
    an average dish's worth."""
    total = sum(d.points for d in cards.dishes)
    return (2 * total + len(cards.dishes)) // (2 * len(cards.dishes))


def plain_type(cards: CardSet, t: int) -> CardSet:
    """``cards`` with every dish of type ``t`` made an average dish: worth
    :func:`mean_dish_points` each, its ingredients and back unchanged. The deck and the
    piles are the same, so the same seed deals the same game; what changes is what type
    ``t``'s dishes are worth (the replacement estimand of a dish type)."""
    if not 0 <= t < len(cards.types):
        raise ValueError(f"type {t} is not a type of {cards.name!r} (0 to {len(cards.types) - 1})")
    plain = mean_dish_points(cards)
    dishes = tuple(replace(d, points=plain) if d.type == t else d for d in cards.dishes)
    name = f"{cards.name}-plain-{cards.types[t].lower()}"
    return replace(cards, name=name, dishes=dishes, source=f"{name} (derived)")


def radioactive_as_garbage(cards: CardSet) -> CardSet:
    """``cards`` without radioactive cards: each becomes a garbage card of its printed
    penalty (same name, same copies), numbered where it was (after the other garbage), so
    the deck and the deal of a seed are unchanged. No dish gains a bonus from one, an owner
    cannot place one, and it hurts every dish alike."""
    kinds = tuple(replace(k, cls=GARBAGE, type=-1, bonus=0) if k.cls == RADIOACTIVE else k
                  for k in cards.kinds)  # fmt: skip
    name = f"{cards.name}-no-radioactive"
    return replace(cards, name=name, kinds=kinds, source=f"{name} (derived)")


STUDY_VARIANTS_HEADER = "Generated by {by} from {base} ({what}); do not edit by hand: {why}"


def study_variants(
    cards: CardSet | None = None, by: str = "sims.games.horno.cards.write_study_variants"
) -> dict[str, str]:
    """The card sets a balance study plays against ``cards`` (default: "assumed v1") to
    measure one thing, as file texts by file name: ``horno-plain-<type>.toml`` (type's
    dishes made average dishes: :func:`plain_type`) for every type, and
    ``horno-no-radioactive.toml`` (:func:`radioactive_as_garbage`). Each keeps the deck, so
    the same seed deals the same games as ``cards``. ``by`` names what wrote them, in each
    file's header."""
    cards = cards or default_cards()
    plain = mean_dish_points(cards)
    out = {}
    for t, name in enumerate(cards.types):
        header = STUDY_VARIANTS_HEADER.format(
            by=by,
            base=cards.name,
            what=f"every {name} dish made an average dish worth {plain} points, the set's "
            "mean dish points; ingredients, backs and the deck unchanged",
            why="the replacement estimand of a dish type compares the same deals with the "
            f"type's dishes as printed and as average dishes, for the seats that completed "
            f"a {name} dish (studies/horno-balance.toml).",
        )
        out[f"horno-plain-{name.lower()}.toml"] = cards_toml(plain_type(cards, t), header)
    header = STUDY_VARIANTS_HEADER.format(
        by=by,
        base=cards.name,
        what="every radioactive card made a garbage card of its printed penalty, in the same "
        "place of the deck",
        why="the radioactive cards' effect compares the same deals with and without them "
        "(studies/horno-balance.toml).",
    )
    out["horno-no-radioactive.toml"] = cards_toml(radioactive_as_garbage(cards), header)
    return out


def write_study_variants(folder: str | Path) -> list[Path]:
    """Write :func:`study_variants` into ``folder`` (``studies/cards`` for the balance
    study); returns the files written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in study_variants().items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    import sys

    for p in write_study_variants(sys.argv[1] if len(sys.argv) > 1 else "studies/cards"):
        print(p)
