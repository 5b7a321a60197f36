"""Horno's card set: the default "assumed v1" set exactly as the rules document gives it,
the kind numbering, the digest, and a table of malformed card-set files, each refused with
a message naming the problem and the fix."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path

import pytest

from sims.core.errors import DataFileError, SlicelabError
from sims.games.horno.cards import (
    GARBAGE,
    INGREDIENT,
    RADIOACTIVE,
    WILD,
    default_cards,
    load_cards,
    parse_cards,
)

FILE = Path(__file__).resolve().parents[3] / "sims" / "games" / "horno" / "data" / "cards-v1.toml"
BASE = tomllib.loads(FILE.read_text("utf-8"))
CARDS = default_cards()


# ------------------------------------------------------------------------ the default set
def test_the_default_set_is_assumed_v1():
    c = CARDS
    assert c.name == "assumed-v1"
    assert c.types == ("Pizza", "Yakitori", "Hamburguesa", "Sopa", "Burrito")
    names = [k.name for k in c.kinds]
    assert names == [
        "masa", "tomate", "queso", "champiñón", "cebolla", "carne", "pollo", "pan", "lechuga",
        "tortilla", "frijol", "arroz", "Sazonador Místico de la Abuela", "mosca", "cabello",
        "cucaracha", "rata", "anchoas", "wasabi", "pepinillos", "caracol", "chile fantasma",
    ]  # fmt: skip
    assert [k.cls for k in c.kinds] == [INGREDIENT] * 12 + [WILD] + [GARBAGE] * 4 + [
        RADIOACTIVE] * 5  # fmt: skip
    assert all(k.copies == 5 for k in c.kinds[:12]) and c.kinds[12].copies == 4
    assert [(k.penalty, k.copies) for k in c.kinds[13:17]] == [(1, 4), (2, 4), (3, 3), (4, 2)]
    assert [(c.types[k.type], k.bonus, k.penalty, k.copies) for k in c.kinds[17:]] == [
        ("Pizza", 5, 3, 2), ("Yakitori", 5, 3, 2), ("Hamburguesa", 5, 3, 2), ("Sopa", 5, 5, 2),
        ("Burrito", 5, 3, 2)]  # fmt: skip
    assert len(c.deck) == 87 and c.wild == 12
    assert len(c.dishes) == 15
    for t in range(5):
        assert len(c.pile(t)) == 3
    for dish in c.dishes:
        assert dish.points == 4 * len(dish.ingredients) - 2  # the v1 assumption
        assert dish.back == dish.ingredients[:2]  # a back shows the first two
    wc = c.dishes[c.dish("WcBurguer")]
    assert (c.types[wc.type], wc.points, len(wc.ingredients)) == ("Hamburguesa", 14, 4)
    sopa = c.dishes[c.dish("Sopa Mademoiselle")]
    assert (sopa.points, len(sopa.ingredients)) == (10, 3)
    kabuki = c.dishes[c.dish("Kabuki Yakitori")]
    assert len(kabuki.ingredients) == 3 and c.kind("carne") in kabuki.ingredients


def test_digest_follows_the_content_not_the_name(tmp_path):
    same = copy.deepcopy(BASE)
    same["name"] = "renamed"
    other = copy.deepcopy(BASE)
    other["garbage"][0]["copies"] = 5
    assert parse_cards(same, "x").digest == CARDS.digest
    assert parse_cards(other, "x").digest != CARDS.digest
    path = tmp_path / "mine.toml"
    path.write_text(FILE.read_text("utf-8"), "utf-8")
    assert load_cards(path).digest == CARDS.digest and load_cards(path).source == str(path)


# ------------------------------------------------------------------------ malformed files
def _set(path: str, value):
    """An edit setting ``path`` (keys and indices joined by '/') to ``value`` (None
    deletes it)."""

    def change(data: dict) -> None:
        *head, last = path.split("/")
        node = data
        for part in head:
            node = node[int(part)] if isinstance(node, list) else node[part]
        key = int(last) if isinstance(node, list) else last
        if value is None:
            del node[key]
        else:
            node[key] = value

    return change


def _append(key: str, entry):
    def change(data: dict) -> None:
        data[key].append(entry)

    return change


def _zero_copies(data: dict) -> None:
    for key in ("ingredient", "garbage", "radioactive"):
        for e in data[key]:
            e["copies"] = 0
    data["wild"]["copies"] = 0


MALFORMED = [
    ("unknown-top-key", _set("extra", 1), "unknown key(s) ['extra']"),
    ("missing-types", _set("types", None), "is missing 'types'"),
    ("missing-wild", _set("wild", None), "is missing 'wild'"),
    ("missing-dish", _set("dish", None), "is missing 'dish'"),
    ("name-empty", _set("name", " "), "'name' must be a non-empty string"),
    ("types-not-a-list", _set("types", "Pizza"), "'types' must be a non-empty list"),
    ("types-empty", _set("types", []), "'types' must be a non-empty list"),
    ("type-twice", _set("types/1", "Pizza"), "dish type(s) ['Pizza'] appear more than once"),
    ("too-many-types", _set("types", [f"t{i}" for i in range(9)]), "at most 8"),
    ("copies-negative", _set("ingredient/0/copies", -1),
     "ingredient 1 (masa): 'copies' = -1 must be an integer from 0 to 50 (0 leaves a kind "
     "out of the deck"),
    ("copies-text", _set("ingredient/0/copies", "5"), "'copies' = '5' must be an integer"),
    ("copies-bool", _set("ingredient/0/copies", True), "'copies' = True must be an integer"),
    ("copies-float", _set("ingredient/0/copies", 5.0), "'copies' = 5.0 must be an integer"),
    ("copies-too-many", _set("ingredient/0/copies", 51), "= 51 must be an integer from 0 to 50"),
    ("ingredient-no-copies", _set("ingredient/2/copies", None),
     "ingredient 3 is missing the field 'copies'"),
    ("ingredient-extra-field", _set("ingredient/0/colour", "red"),
     "ingredient 1: unknown field(s) ['colour']"),
    ("ingredient-not-a-table", _set("ingredient/0", "masa"), "ingredient 1 must be a table"),
    ("ingredients-none", _set("ingredient", []), "'ingredient' must be a non-empty array"),
    ("ingredient-name-number", _set("ingredient/0/name", 3), "'name' must be a non-empty string"),
    ("ingredient-name-spaces", _set("ingredient/0/name", " masa"), "without outer spaces"),
    ("wild-not-a-table", _set("wild", 4), "[wild] must be a table"),
    ("wild-no-name", _set("wild/name", None), "[wild] is missing the field 'name'"),
    ("wild-negative", _set("wild/copies", -4), "[wild] (Sazonador Místico de la Abuela): "
     "'copies' = -4 must be an integer from 0 to 50"),
    ("wild-an-array", _set("wild", [{"name": "w", "copies": 4}]),
     "[wild] must be one table ([wild]), not an array of tables ([[wild]])"),
    ("garbage-not-an-array", _set("garbage", 3), "'garbage' must be an array of tables"),
    ("garbage-negative-penalty", _set("garbage/0/penalty", -1),
     "garbage 1 (mosca): 'penalty' = -1 must be an integer from 0 to 20"),
    ("garbage-no-penalty", _set("garbage/1/penalty", None),
     "garbage 2 is missing the field 'penalty'"),
    ("radioactive-unknown-type", _set("radioactive/0/type", "Taco"),
     "radioactive 1 (anchoas): 'type' = 'Taco' is not a dish type; use one of"),
    ("radioactive-no-bonus", _set("radioactive/4/bonus", None),
     "radioactive 5 is missing the field 'bonus'"),
    ("radioactive-negative-copies", _set("radioactive/3/copies", -2),
     "radioactive 4 (caracol): 'copies' = -2"),
    ("dish-unknown-ingredient", _set("dish/0/ingredients", ["masa", "tomate", "piña"]),
     "dish 1 (Pizza Margarita): unknown ingredient 'piña'; the file's ingredients are"),
    ("dish-garbage-as-ingredient", _set("dish/0/ingredients", ["masa", "mosca"]),
     "unknown ingredient 'mosca'"),
    ("dish-no-ingredients", _set("dish/0/ingredients", []),
     "dish 1 (Pizza Margarita): needs from 2 to 7 ingredients (an oven holds 7 cards "
     "besides its dish card, and the kernel keeps 7 ingredients per dish), got 0"),
    ("dish-eight-ingredients", _set("dish/0/ingredients", ["masa", "tomate", "queso", "carne",
     "pan", "pollo", "arroz", "frijol"]), "needs from 2 to 7 ingredients"),
    ("dish-ingredient-twice", _set("dish/0/ingredients", ["masa", "masa", "queso"]),
     "ingredient(s) ['masa'] listed twice"),
    ("dish-ingredients-text", _set("dish/0/ingredients", "masa, tomate"),
     "'ingredients' must be a list of ingredient names"),
    ("dish-unknown-type", _set("dish/4/type", "Taco"),
     "dish 5 (Yakitori de Pollo): 'type' = 'Taco' is not a dish type"),
    ("dish-back-not-its-own", _set("dish/0/back", ["masa", "pan"]),
     "'back' must list distinct ingredients of the dish's own 'ingredients'"),
    ("dish-back-twice", _set("dish/0/back", ["masa", "masa"]), "'back' must list distinct"),
    ("dish-back-text", _set("dish/0/back", "masa"), "'back' must be a list of ingredient names"),
    ("dish-points-negative", _set("dish/0/points", -2),
     "dish 1 (Pizza Margarita): 'points' = -2 must be an integer from 0 to 100"),
    ("dish-points-text", _set("dish/0/points", "10"), "'points' = '10' must be an integer"),
    ("dish-no-back", _set("dish/3/back", None), "dish 4 is missing the field 'back'"),
    ("dish-extra-field", _set("dish/0/colour", 1), "dish 1: unknown field(s) ['colour']"),
    ("dishes-none", _set("dish", []), "'dish' must be a non-empty array"),
    ("card-name-twice", _set("garbage/0/name", "masa"),
     "card name(s) ['masa'] appear more than once"),
    ("wild-name-twice", _set("wild/name", "rata"), "card name(s) ['rata'] appear more than once"),
    ("dish-name-twice", _set("dish/1/name", "Pizza Margarita"),
     "dish name(s) ['Pizza Margarita'] appear more than once"),
    ("type-without-dish", _append("types", "Taco"), "dish type(s) ['Taco'] have no dish card"),
    ("deck-too-small", _zero_copies, "has 0 cards in the deck; at least 24 (3 to deal and 3 "
     "to redraw for each of 4 players"),
]  # fmt: skip


@pytest.mark.parametrize("edit, fragment", [c[1:] for c in MALFORMED],
                         ids=[c[0] for c in MALFORMED])  # fmt: skip
def test_a_malformed_card_set_is_refused_naming_the_problem(edit, fragment):
    data = copy.deepcopy(BASE)
    edit(data)
    with pytest.raises(DataFileError) as err:
        parse_cards(data, "mine.toml")
    message = str(err.value)
    assert message.startswith("card set mine.toml: "), message
    assert fragment in message, message
    assert isinstance(err.value, SlicelabError)


def test_the_file_round_trip_of_an_edited_set(tmp_path):
    """An edited set written back to a file loads through load_cards (TOML inline tables
    are the same arrays of tables)."""
    data = copy.deepcopy(BASE)
    data["wild"]["copies"] = 2
    dump = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731 (JSON lists are TOML)
    text = f"name = {dump(data['name'])}\ntypes = {dump(data['types'])}\n"
    text += f'wild = {{ name = "{data["wild"]["name"]}", copies = 2 }}\n'
    for key in ("ingredient", "garbage", "radioactive", "dish"):
        for e in data[key]:
            text += f"[[{key}]]\n" + "".join(f"{k} = {dump(v)}\n" for k, v in e.items())
    path = tmp_path / "two-wilds.toml"
    path.write_text(text, "utf-8")
    cards = load_cards(path)
    assert cards.kinds[cards.wild].copies == 2 and len(cards.deck) == 85


@pytest.mark.parametrize("content, fragment", [
    (None, "no such file; pass the path of a card set TOML file"),
    ("[[dish]\nname = 1\n", "is not valid TOML"),
    ("name = 'x'".encode("utf-16"), "is not UTF-8 text"),
    ("", "is missing 'name'"),
])  # fmt: skip
def test_a_card_set_file_that_cannot_be_read_is_refused(tmp_path, content, fragment):
    path = tmp_path / "c.toml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, "utf-8")
    with pytest.raises(DataFileError, match="card set .*c.toml") as err:
        load_cards(path)
    assert fragment in str(err.value)
