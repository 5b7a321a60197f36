"""The deck is data: the default deck's content and refusal of malformed deck files."""

import copy
import datetime
import tomllib
from collections import Counter
from importlib import resources

import numpy as np
import pytest

from sims.core.study import Arm
from sims.games.nyslice.deck import (
    ANCHOVIES_RANGE,
    N_SLICES,
    PEPPERONI_RANGE,
    REAL_SPECIALS,
    TYPES,
    VEGGIE,
    DeckError,
    Kind,
    Special,
    default_deck,
    load_deck,
    parse_deck,
)
from sims.games.nyslice.plugin import _DECISION_TYPES, GAME, POINTS, score_range


def _default_data() -> dict:
    text = (
        resources.files("sims.games.nyslice")
        .joinpath("data")
        .joinpath("reconstructed_v1.toml")
        .read_text()
    )
    return tomllib.loads(text)


def test_default_deck_matches_spec_table():
    deck = default_deck()
    assert len(deck.slices) == 69
    numbered = [s for s in deck.slices if s.kind == Kind.NUMBERED]
    assert Counter(s.type for s in numbered) == {t: t for t in range(3, 12)}
    for t in range(3, 12):
        of_type = [s for s in numbered if s.type == t]
        for k, s in enumerate(of_type):
            if t == 3:
                assert (s.pepperoni, s.anchovies) == (0, 0)
            else:
                assert s.pepperoni == 1 + k % 3
                assert s.anchovies == (1 if k % 4 == 3 else 0)
    combos = sorted(s.types for s in deck.slices if s.kind == Kind.COMBO)
    assert combos == [(4, 6), (5, 9), (7, 11), (8, 10)]
    assert all(s.pepperoni == 0 and s.anchovies == 0 for s in deck.slices if s.kind == Kind.COMBO)
    (anch,) = [s for s in deck.slices if s.kind == Kind.ANCHOVY]
    (sup,) = [s for s in deck.slices if s.kind == Kind.SUPREME]
    assert (anch.pepperoni, anch.anchovies) == (0, 3)
    assert (sup.pepperoni, sup.anchovies) == (2, 0)
    assert sorted(deck.specials) == list(REAL_SPECIALS)
    assert deck.type_names[3] == "Veggie" and deck.type_names[11] == "Cheese"


def test_deck_file_round_trip(tmp_path):
    src = resources.files("sims.games.nyslice").joinpath("data").joinpath("reconstructed_v1.toml")
    path = tmp_path / "deck.toml"
    path.write_text(
        src.read_text().replace("pepperoni = 2, anchovies = 0 }", "pepperoni = 3, anchovies = 0 }")
    )
    deck = load_deck(path)
    assert next(s for s in deck.slices if s.kind == Kind.SUPREME).pepperoni == 3
    assert deck.digest != default_deck().digest


def _mutate(fn):
    data = _default_data()
    fn(data)
    return data


BAD_DECKS = [
    ("unknown kind", lambda d: d["slices"][0].update(kind="calzone"), "unknown kind 'calzone'"),
    ("unknown type", lambda d: d["slices"][0].update(type=12), "unknown type 12"),
    (
        "missing pepperoni",
        lambda d: d["slices"][5].pop("pepperoni"),
        "missing the field 'pepperoni'",
    ),
    ("missing kind", lambda d: d["slices"][5].pop("kind"), "missing the field 'kind'"),
    ("wrong count", lambda d: d["slices"].pop(10), "type 5 has 4 slices"),
    (
        "extra slice",
        lambda d: d["slices"].append(dict(d["slices"][-1])),
        "has 2 supreme slices; at most 1",
    ),
    ("bad combo", lambda d: d["slices"][63].update(types=[8, 8]), "two different types"),
    (
        "negative",
        lambda d: d["slices"][4].update(anchovies=-1),
        "slice #5: has -1 anchovies on a slice; at least 0",
    ),
    # Bounds: no score column can overflow (see PEPPERONI_RANGE in deck.py).
    (
        "pepperoni too large",
        lambda d: d["slices"][5].update(pepperoni=1000000),
        "slice #6: has 1000000 pepperoni on a slice; at most 20",
    ),
    (
        "pepperoni just above the bound",
        lambda d: d["slices"][5].update(pepperoni=21),
        "slice #6: has 21 pepperoni on a slice; at most 20",
    ),
    (
        "negative pepperoni",
        lambda d: d["slices"][5].update(pepperoni=-1),
        "slice #6: has -1 pepperoni on a slice; at least 0",
    ),
    (
        "anchovies too large",
        lambda d: d["slices"][67].update(anchovies=21),
        "slice #68: has 21 anchovies on a slice; at most 20",
    ),
    (
        "supreme pepperoni too large",
        lambda d: d["slices"][68].update(pepperoni=32768),
        "slice #69: has 32768 pepperoni on a slice; at most 20",
    ),
    (
        "fractional pepperoni",
        lambda d: d["slices"][5].update(pepperoni=1.5),
        "slice #6: pepperoni must be an integer from 0 to 20, got 1.5",
    ),
    (
        "pepperoni as text",
        lambda d: d["slices"][5].update(pepperoni="2"),
        "slice #6: pepperoni must be an integer from 0 to 20, got '2'",
    ),
    (
        "pepperoni as a boolean",
        lambda d: d["slices"][5].update(pepperoni=True),
        "slice #6: pepperoni must be an integer from 0 to 20, got True",
    ),
    (
        "missing anchovies",
        lambda d: d["slices"][5].pop("anchovies"),
        "slice #6 is missing the field 'anchovies'",
    ),
    ("missing type", lambda d: d["slices"][5].pop("type"), "slice #6 is missing the field 'type'"),
    ("type as text", lambda d: d["slices"][0].update(type="3"), "slice #1 has unknown type '3'"),
    ("type as a float", lambda d: d["slices"][0].update(type=3.0), "slice #1 has unknown type 3.0"),
    # What the rules say carries no pepperoni.
    (
        "a Veggie with pepperoni",
        lambda d: d["slices"][0].update(pepperoni=1),
        "slice #1: a Veggie (type 3) has no pepperoni, got pepperoni = 1; only You Love "
        "Veggies makes Veggies edible",
    ),
    (
        "a combo with pepperoni",
        lambda d: d["slices"][63].update(pepperoni=2),
        "slice #64: a combo has no pepperoni, got pepperoni = 2; only Combo Cravings makes "
        "combos edible",
    ),
    (
        "the anchovy slice with pepperoni",
        lambda d: d["slices"][67].update(pepperoni=1),
        "slice #68: the anchovy slice has no pepperoni, got pepperoni = 1; it is never eaten",
    ),
    # Fields that do not belong to the kind (once silently ignored).
    (
        "numbered with types",
        lambda d: d["slices"][5].update(types=[5, 9]),
        "slice #6 has unknown field(s) ['types'] for a numbered slice",
    ),
    (
        "combo with type",
        lambda d: d["slices"][63].update(type=8),
        "slice #64 has unknown field(s) ['type'] for a combo slice",
    ),
    (
        "anchovy slice with a type",
        lambda d: d["slices"][67].update(type=3),
        "slice #68 has unknown field(s) ['type'] for an anchovy slice",
    ),
    (
        "supreme with a type",
        lambda d: d["slices"][68].update(type=8),
        "slice #69 has unknown field(s) ['type'] for a supreme slice",
    ),
    # Shapes: every value of the wrong TOML type is refused, never a traceback.
    ("kind as a list", lambda d: d["slices"][0].update(kind=["numbered"]), "unknown kind"),
    ("kind as a table", lambda d: d["slices"][0].update(kind={"a": 1}), "unknown kind"),
    ("slice as a number", lambda d: d["slices"].__setitem__(0, 3), "slice #1 must be a table"),
    ("slices as a table", lambda d: d.update(slices={"a": 1}), "'slices' must be an array"),
    ("specials as text", lambda d: d.update(specials="dibs"), "'specials' must be an array"),
    ("special as a list", lambda d: d["specials"].__setitem__(0, ["dibs"]), "unknown special"),
    ("special as a table", lambda d: d["specials"].__setitem__(0, {"a": 1}), "unknown special"),
    (
        "combo types as text",
        lambda d: d["slices"][63].update(types="8/10"),
        "a combo needs 'types' = two different types in 3..11, got '8/10'",
    ),
    (
        "combo types with a boolean",
        lambda d: d["slices"][63].update(types=[True, 10]),
        "a combo needs 'types'",
    ),
    (
        "type_names as a number",
        lambda d: d.update(type_names=5),
        "'type_names' must be a table",
    ),
    (
        "type_names with an unknown type",
        lambda d: d["type_names"].update({"12": "Calzone"}),
        "type_names has unknown type(s) ['12']",
    ),
    (
        "type name as a number",
        lambda d: d["type_names"].update({"4": 4}),
        "type_names.4 must be a non-empty one-line string",
    ),
    ("name as a number", lambda d: d.update(name=5), "'name' must be a non-empty one-line string"),
    (
        "name with a line break",
        lambda d: d.update(name="two\nlines"),
        "'name' must be a non-empty one-line string of at most 100 characters, got 'two\\nlines'",
    ),
    ("name empty", lambda d: d.update(name=" "), "'name' must be a non-empty one-line string"),
    (
        "name too long",
        lambda d: d.update(name="x" * 101),
        "has 101 characters in a deck or type name; at most 100",
    ),
    ("unknown top-level key", lambda d: d.update(slice=[]), "unknown top-level key(s) ['slice']"),
    # The setups of 2 and 5 players remove the 8/10 combo: a deck needs exactly one.
    (
        "no 8/10 combo",
        lambda d: d["slices"][63].update(types=[4, 6]),
        "needs exactly one 8/10 combo (the 2- and 5-player setups remove it), found 0",
    ),
    (
        "two 8/10 combos",
        lambda d: d["slices"][64].update(types=[10, 8]),
        "needs exactly one 8/10 combo (the 2- and 5-player setups remove it), found 2",
    ),
    (
        "unknown special",
        lambda d: d["specials"].__setitem__(0, "free_pizza"),
        "unknown special 'free_pizza'",
    ),
    ("missing special", lambda d: d["specials"].pop(), "has 13 specials; at least 14"),
    ("duplicate special", lambda d: d["specials"].__setitem__(0, "dibs"), "more than once"),
    ("no slices", lambda d: d.pop("slices"), "missing the top-level key 'slices'"),
    ("unknown field", lambda d: d["slices"][0].update(cheese=2), "unknown field"),
]


@pytest.mark.parametrize("label,mutation,message", BAD_DECKS, ids=[b[0] for b in BAD_DECKS])
def test_malformed_deck_is_refused_with_a_message(label, mutation, message):
    with pytest.raises(DeckError) as err:
        parse_deck(_mutate(mutation), "test.toml")
    text = str(err.value)
    assert text.startswith("deck test.toml: ") and message in text
    assert "\n" not in text


@pytest.mark.parametrize(
    "label,mutation",
    [
        ("pepperoni at its bound", lambda d: d["slices"][5].update(pepperoni=20)),
        ("anchovies at their bound", lambda d: d["slices"][5].update(anchovies=20)),
        ("a Veggie with anchovies", lambda d: d["slices"][0].update(anchovies=2)),
        ("a combo with anchovies", lambda d: d["slices"][63].update(anchovies=1)),
        ("combo types in either order", lambda d: d["slices"][63].update(types=[10, 8])),
        ("no name", lambda d: d.pop("name")),
        ("no type names", lambda d: d.pop("type_names")),
    ],
)
def test_variants_within_the_bounds_are_accepted(label, mutation):
    deck = parse_deck(_mutate(mutation), "test.toml")
    assert len(deck.slices) == N_SLICES


def test_missing_and_invalid_files(tmp_path):
    with pytest.raises(DeckError, match="no such file"):
        load_deck(tmp_path / "nope.toml")
    with pytest.raises(DeckError, match="no such file"):
        load_deck(tmp_path)  # a folder
    bad = tmp_path / "bad.toml"
    bad.write_text("slices = [")
    with pytest.raises(DeckError, match="not valid TOML"):
        load_deck(bad)


def test_a_deck_file_that_is_not_utf8_is_named(tmp_path):
    src = resources.files("sims.games.nyslice").joinpath("data").joinpath("reconstructed_v1.toml")
    path = tmp_path / "latin1.toml"
    # A Latin-1 type name: é is the single byte 0xe9, not UTF-8.
    text = src.read_text().replace('"Veggie"', '"Végé"')
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(DeckError) as err:
        load_deck(path)
    message = str(err.value)
    assert message.startswith(f"deck {path}: is not UTF-8 text (byte 0xe9 at offset ")
    assert message.endswith("; save it as UTF-8") and "\n" not in message
    # The same text in UTF-8, with or without a byte-order mark, is a deck.
    path.write_bytes(text.encode("utf-8"))
    assert load_deck(path).type_names[3] == "Végé"
    path.write_bytes(text.encode("utf-8-sig"))
    assert load_deck(path).type_names[3] == "Végé"


WRONG_SHAPES = [3, -1, 2.5, True, "x", [], [1], {}, {"a": 1}, datetime.date(2020, 1, 1)]


def _paths(node, prefix=()):
    """Every key path in parsed TOML data (tables and arrays), the containers included."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


def test_a_value_of_any_wrong_shape_anywhere_is_a_deck_error():
    """Replace each value of the default deck (on a sample of slices, every field) with
    values of every TOML type: the result is a deck or a DeckError, never another error."""
    base = _default_data()
    sample = {0, 5, 63, 67, 68}  # a Veggie, a numbered slice, a combo, the Anchovy, the Supreme
    paths = [
        p
        for p in _paths(base)
        if p and not (len(p) >= 2 and p[0] == "slices" and p[1] not in sample)
    ]
    refused = 0
    for path in paths:
        for value in WRONG_SHAPES:
            data = copy.deepcopy(base)
            node = data
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
            try:
                parse_deck(data, "f.toml")
            except DeckError as exc:
                assert "\n" not in str(exc)
                refused += 1
    assert refused > len(paths) * len(WRONG_SHAPES) // 2


# ---------------------------------------------------------------- no overflow
def _worst_case_total_range() -> tuple[int, int]:
    """The widest a seat's score can be with the deck bounds (see PEPPERONI_RANGE)."""
    per_slice = max(PEPPERONI_RANGE[1], ANCHOVIES_RANGE[1])
    majorities = sum(TYPES)
    specials_high = len(TYPES) + 1 + 3 * 4 + 3 * VEGGIE + 5  # Buffet, Cravings, Veggies, Crust
    diet_low = -(N_SLICES // 2)
    return -2 + diet_low - N_SLICES * per_slice, majorities + specials_high + N_SLICES * per_slice


def test_deck_bounds_cannot_overflow_the_columns():
    low, high = _worst_case_total_range()
    assert (low, high) == (-1416, 1479)
    # with the what-if options at their ends (compensation 20; the starred specials'
    # points: Stuffed Crust and Day-Old Pizza -20 to 20, Buffet -3 to 3 on 10, Combo
    # Cravings -6 to 6 on 4 combos, You Love Veggies -6 to 6 on 3 Veggies)
    wider_low = (-20 - (-2)) - 20 - 3 * 10 - 6 * 4 - 6 * 3
    wider_high = (20 - 5) + 20 + (3 - 1) * 10 + (6 - 3) * 4 + (6 - 3) * 3 + 20
    assert score_range() == (low + wider_low, high + wider_high) == (-1526, 1575)
    assert np.iinfo(POINTS).min <= score_range()[0] and score_range()[1] <= np.iinfo(POINTS).max
    int16 = np.iinfo(np.int16)
    assert int16.min < low and high < int16.max
    for column, bound in (("pepperoni", PEPPERONI_RANGE), ("anchovies", ANCHOVIES_RANGE)):
        assert bound[1] <= np.iinfo(_DECISION_TYPES[column]).max
        assert bound[0] >= 0


def _max_deck_file(tmp_path) -> str:
    """The default deck with every number at its bound where the rules allow one."""
    data = _default_data()
    for entry in data["slices"]:
        entry["anchovies"] = ANCHOVIES_RANGE[1]
        if entry["kind"] == "supreme" or (entry["kind"] == "numbered" and entry["type"] != 3):
            entry["pepperoni"] = PEPPERONI_RANGE[1]
    lines = [f"name = {data['name']!r}", f"specials = {data['specials']!r}", "slices = ["]
    for e in data["slices"]:
        fields = ", ".join(f"{k} = {v!r}".replace("'", '"') for k, v in e.items())
        lines.append(f"  {{ {fields} }},")
    lines.append("]")
    path = tmp_path / "max.toml"
    path.write_text("\n".join(lines).replace("'", '"'))
    return str(path)


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_a_deck_at_the_bounds_scores_without_overflow(tmp_path, engine):
    path = _max_deck_file(tmp_path)
    deck = load_deck(path)
    assert max(s.pepperoni for s in deck.slices) == PEPPERONI_RANGE[1]
    arm = Arm(
        name="max",
        game="nyslice",
        players=2,
        strategies=("greedy", "random"),
        games=4,
        seed=1,
        engine=engine,
        options={"deck": path, "rules": {}},
    )
    out = GAME.play_chunk(arm, 0, 4, decisions=True, engine=engine)
    seats = out.seats
    parts = sum(seats[c].astype(np.int64) for c in GAME.results.components)
    assert (seats["score"].astype(np.int64) == parts).all()
    assert seats["score"].max() > 127  # beyond int8: the int16 columns are exercised
    assert (seats["pepperoni"] >= 0).all() and (seats["pepperoni"] % 20 == 0).all()
    assert out.decisions is not None
    assert out.decisions.column("pepperoni").to_numpy().max() == PEPPERONI_RANGE[1]


# ---------------------------------------------------------------- blank tiles
def _with_specials(specials: list[str]) -> dict:
    data = _default_data()
    data["specials"] = specials
    return data


REAL = [s.slug for s in REAL_SPECIALS]
# id, specials listed, the deck's tiles (None: refused), or the start of the refusal
BLANK_FILES = [
    ("one blank", ["blank", *REAL[1:]], ["blank", *REAL[1:]]),
    ("two blanks", [*REAL[:12], "blank", "blank"], [*REAL[:12], "blank", "blank"]),
    (
        "a blank as a 15th tile",
        [*REAL, "blank"],
        "deck f.toml: has 15 specials; at most 14 (one tile per special of the game; any "
        "may be a blank)",
    ),
    (
        "a blank and a special twice",
        ["blank", "seconds", *REAL[2:]],
        "deck f.toml: special(s) ['seconds'] listed more than once; each tile exists once",
    ),
    (
        "13 tiles",
        ["blank", *REAL[2:]],
        "deck f.toml: has 13 specials; at least 14 (one tile per special of the game; any "
        "may be a blank); missing ['cut_in_line', 'dibs']",
    ),
    (
        "unknown name",
        ["blanc", *REAL[1:]],
        f"deck f.toml: unknown special 'blanc'; known: {sorted(REAL)} and 'blank' "
        "(a blank tile in a special's place)",
    ),
]


@pytest.mark.parametrize(
    "specials,expected", [b[1:] for b in BLANK_FILES], ids=[b[0] for b in BLANK_FILES]
)
def test_deck_files_may_list_blank_tiles(specials, expected):
    data = _with_specials(specials)
    if isinstance(expected, list):
        assert [s.slug for s in parse_deck(data, "f.toml").specials] == expected
    else:
        with pytest.raises(DeckError) as err:
            parse_deck(data, "f.toml")
        assert str(err.value) == expected


@pytest.mark.parametrize("special", REAL_SPECIALS, ids=REAL)
def test_with_blank_replaces_the_tile_in_place(special):
    deck = default_deck()
    blank = deck.with_blank(special.slug)
    i = deck.specials.index(special)
    assert blank.specials[i] is Special.BLANK
    assert (
        blank.specials[:i] + blank.specials[i + 1 :] == deck.specials[:i] + deck.specials[i + 1 :]
    )
    assert blank.slices == deck.slices and blank.type_names == deck.type_names
    assert blank.name == f"reconstructed v1+blank-{special.slug}"
    assert blank.digest != deck.digest
    assert deck.with_blank(special) == blank  # by Special or by slug
    # A deck file listing the blank there is the same deck content.
    data = _default_data()
    data["specials"] = [s.slug for s in blank.specials]
    assert parse_deck(data, "f.toml").digest == blank.digest


def test_blanked_decks_have_distinct_digests_and_can_blank_twice():
    deck = default_deck()
    digests = {deck.with_blank(s).digest for s in REAL_SPECIALS}
    assert len(digests) == 14 and deck.digest not in digests
    two = deck.with_blank("dibs").with_blank("seconds")
    assert two.name == "reconstructed v1+blank-dibs+blank-seconds"
    assert [s.slug for s in two.specials].count("blank") == 2


@pytest.mark.parametrize(
    "special,message",
    [
        ("blank", "cannot blank 'blank': not a special; use one of cut_in_line, dibs, "),
        ("free_pizza", "cannot blank 'free_pizza': not a special; use one of cut_in_line, "),
        (Special.BLANK, "cannot blank 'blank': not a special"),
    ],
)
def test_with_blank_refuses_what_is_not_a_special(special, message):
    with pytest.raises(DeckError) as err:
        default_deck().with_blank(special)
    assert str(err.value).startswith(message)


def test_with_blank_refuses_a_special_the_deck_lacks():
    deck = default_deck().with_blank("dibs")
    with pytest.raises(DeckError) as err:
        deck.with_blank("dibs")
    assert str(err.value) == "cannot blank dibs: deck reconstructed v1+blank-dibs has no such tile"
