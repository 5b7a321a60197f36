"""The deck family: plausible decks drawn from the default deck's stated assumptions."""

from __future__ import annotations

from pathlib import Path

import pytest

from sims.games.nyslice.deck import DeckError, Kind, default_deck, load_deck
from sims.games.nyslice.deckfamily import (
    check_decks,
    deck_paths,
    draw_deck,
    load_family,
    main,
    parse_family,
    write_decks,
)

FAMILY = Path(__file__).parents[3] / "studies" / "decks" / "nyslice-family.toml"
GOOD = {"name": "t", "seed": 1, "draws": 2, "pepperoni": [1, 2, 3],
        "anchovy_rate": [0.1, 0.3], "combo_types": [4, 5, 6, 7, 9, 11]}  # fmt: skip


def test_committed_decks_are_what_the_family_draws():
    family = load_family(FAMILY)
    assert family.draws >= 5
    assert check_decks(family) == []
    assert main([str(FAMILY), "--check"]) == 0


def test_draws_keep_the_public_facts_and_vary_the_assumed_ones():
    family = load_family(FAMILY)
    base = default_deck()
    public = sorted((s.kind, s.pepperoni, s.anchovies) for s in base.slices
                    if s.kind in (Kind.ANCHOVY, Kind.SUPREME))  # fmt: skip
    signatures = set()
    for path in deck_paths(family):
        deck = load_deck(path)
        assert deck.specials == base.specials
        assert sorted((s.kind, s.pepperoni, s.anchovies) for s in deck.slices
                      if s.kind in (Kind.ANCHOVY, Kind.SUPREME)) == public  # fmt: skip
        combos = sorted(s.types for s in deck.slices if s.kind == Kind.COMBO)
        assert (8, 10) in combos and len(combos) == 4
        assert all(s.pepperoni == 0 and s.anchovies == 0
                   for s in deck.slices if s.kind == Kind.NUMBERED and s.type == 3)  # fmt: skip
        assert {s.pepperoni for s in deck.slices if s.kind == Kind.NUMBERED and s.type > 3} <= {
            1, 2, 3}  # fmt: skip
        signatures.add(deck.digest)
    assert base.digest not in signatures and len(signatures) == family.draws


def test_a_draw_depends_on_seed_and_index_only(tmp_path):
    family = parse_family(GOOD, str(tmp_path / "fam.toml"))
    assert draw_deck(family, 1) == draw_deck(family, 1)
    assert draw_deck(family, 1)["slices"] != draw_deck(family, 2)["slices"]
    paths = write_decks(family)
    assert [p.name for p in paths] == ["fam-1.toml", "fam-2.toml"]
    assert check_decks(family) == []
    paths[0].write_text(paths[0].read_text() + "# edited\n")
    assert check_decks(family) == [str(paths[0])]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": 1}, "unknown key(s) ['colour']"),
        ({"seed": None}, "missing key(s) ['seed']"),
        ({"draws": 0}, "'draws' must be an integer from 1 to 100"),
        ({"draws": 2.5}, "'draws' must be an integer"),
        ({"pepperoni": []}, "'pepperoni' must list integers from 0 to 20"),
        ({"pepperoni": [1, 99]}, "'pepperoni' must list integers from 0 to 20"),
        ({"anchovy_rate": [0.5, 0.2]}, "'anchovy_rate' must be [low, high]"),
        ({"anchovy_rate": 0.2}, "'anchovy_rate' must be [low, high]"),
        ({"combo_types": [4, 5, 6, 7, 9]}, "'combo_types' must list at least six distinct"),
        ({"combo_types": [4, 5, 6, 7, 9, 8]}, "'combo_types' must list at least six distinct"),
        ({"name": ""}, "'name' must be a non-empty string"),
    ],
)
def test_malformed_family_is_refused_naming_the_problem(change, message):
    data = {k: v for k, v in {**GOOD, **change}.items() if v is not None}
    with pytest.raises(DeckError) as err:
        parse_family(data, "fam.toml")
    assert message in str(err.value)
    assert str(err.value).startswith("deck family fam.toml: ")


def test_missing_family_file_exits_2(tmp_path, capsys):
    assert main([str(tmp_path / "nope.toml")]) == 2
    assert "no such file" in capsys.readouterr().err
