"""The deck is data: the default deck's content and refusal of malformed deck files."""

import tomllib
from collections import Counter
from importlib import resources

import pytest

from sims.games.nyslice.deck import (
    REAL_SPECIALS,
    DeckError,
    Kind,
    Special,
    default_deck,
    load_deck,
    parse_deck,
)


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
    ("extra slice", lambda d: d["slices"].append(dict(d["slices"][-1])), "1 anchovy and 1 supreme"),
    ("bad combo", lambda d: d["slices"][63].update(types=[8, 8]), "two different types"),
    ("negative", lambda d: d["slices"][4].update(anchovies=-1), "non-negative integer"),
    (
        "unknown special",
        lambda d: d["specials"].__setitem__(0, "free_pizza"),
        "unknown special 'free_pizza'",
    ),
    ("missing special", lambda d: d["specials"].pop(), "needs the 14 specials"),
    ("duplicate special", lambda d: d["specials"].__setitem__(0, "dibs"), "more than once"),
    ("no slices", lambda d: d.pop("slices"), "missing the top-level key 'slices'"),
    ("unknown field", lambda d: d["slices"][0].update(cheese=2), "unknown field"),
]


@pytest.mark.parametrize("label,mutation,message", BAD_DECKS, ids=[b[0] for b in BAD_DECKS])
def test_malformed_deck_is_refused_with_a_message(label, mutation, message):
    with pytest.raises(DeckError, match=message.replace("(", r"\(")):
        parse_deck(_mutate(mutation), "test.toml")


def test_missing_and_invalid_files(tmp_path):
    with pytest.raises(DeckError, match="no such file"):
        load_deck(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("slices = [")
    with pytest.raises(DeckError, match="not valid TOML"):
        load_deck(bad)


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
        "deck f.toml: needs the 14 specials (any of them may be replaced by 'blank'), "
        "found 15 tiles (missing [])",
    ),
    (
        "a blank and a special twice",
        ["blank", "seconds", *REAL[2:]],
        "deck f.toml: special(s) ['seconds'] listed more than once; each tile exists once",
    ),
    (
        "13 tiles",
        ["blank", *REAL[2:]],
        "deck f.toml: needs the 14 specials (any of them may be replaced by 'blank'), "
        "found 13 tiles (missing ['cut_in_line', 'dibs'])",
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
