"""The deck is data: the default deck's content and refusal of malformed deck files."""

import tomllib
from collections import Counter
from importlib import resources

import pytest

from sims.core.errors import DeckError
from sims.games.nyslice.deck import Kind, Special, default_deck, load_deck, parse_deck


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
    assert sorted(deck.specials) == list(Special)
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
