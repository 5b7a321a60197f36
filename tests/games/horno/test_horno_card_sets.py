"""Horno's shipped card sets and the study's measuring sets: every alternative to assumed v1
loads, keeps what the rulebook publishes and changes what its header says; a study or the
command line names one by its name (a file of that name still wins, an unknown name is
refused naming the shipped sets); the study's variant files are what the generator writes
and keep v1's deck, so the same seed deals the same game; a card set written as TOML reads
back to the same digest; and the players table's dish cards add up to its other
columns."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow.compute as pc
import pytest
from click.testing import CliRunner

from sims.batch import one_arm, play_tables
from sims.cli import cli
from sims.core.errors import SlicelabError
from sims.core.study import load_study
from sims.games.datafile import parse_toml
from sims.games.horno.cards import (
    DEFAULT_NAME,
    CardsError,
    card_set_names,
    cards_reference,
    cards_toml,
    default_cards,
    load_cards,
    mean_dish_points,
    parse_cards,
    plain_type,
    radioactive_as_garbage,
    resolve_cards,
    shipped_cards,
    study_variants,
)
from sims.games.horno.engine import deal
from sims.games.horno.plugin import GAME, cards_of

ROOT = Path(__file__).resolve().parents[3]
V1 = default_cards()
ALTERNATIVES = {
    "v1-harsh",
    "v1-mild",
    "v1-more-garbage",
    "v1-two-wilds",
    "v1-flat",
    "v1-steep",
    "v1-scarce",
}


def _kind(cards, name):
    return cards.kinds[cards.kind(name)]


def test_every_alternative_loads_and_keeps_what_the_rulebook_publishes():
    assert set(card_set_names()) == {DEFAULT_NAME, *ALTERNATIVES}
    assert shipped_cards(DEFAULT_NAME) is V1
    for name in ALTERNATIVES:
        cards = shipped_cards(name)
        assert cards.digest != V1.digest, name
        assert cards.types == V1.types and cards.name == f"assumed-{name}"
        assert cards.dishes[cards.dish("WcBurguer")].points == 14
        assert cards.dishes[cards.dish("Sopa Mademoiselle")].points == 10
        assert _kind(cards, "mosca").penalty == 1 and _kind(cards, "caracol").penalty == 5
        assert {k.bonus for k in cards.kinds if k.cls == "radioactive"} == {5}
        assert [d.ingredients for d in cards.dishes] == [d.ingredients for d in V1.dishes]
        text = (ROOT / "sims/games/horno/data" / f"cards-{name}.toml").read_text("utf-8")
        header = " ".join(x.removeprefix("#").strip() for x in text.splitlines()
                          if x.startswith("#"))  # fmt: skip
        assert text.startswith(f'# Horno card set "{name}"') and "Why plausible" in header
        assert load_cards(ROOT / "sims/games/horno/data" / f"cards-{name}.toml").digest == (
            cards.digest
        )
    harsh = shipped_cards("v1-harsh")
    assert [k.penalty for k in harsh.kinds if k.cls == "garbage"] == [1, 3, 4, 6]
    assert sum(k.copies for k in shipped_cards("v1-more-garbage").kinds if k.cls == "garbage") == 20
    assert shipped_cards("v1-two-wilds").kinds[V1.wild].copies == 2
    assert len(shipped_cards("v1-scarce").deck) == len(V1.deck) - 12
    steep = shipped_cards("v1-steep")
    assert steep.dishes[steep.dish("Pizza Suprema")].points == 21


def test_a_study_names_a_shipped_set_and_a_file_of_that_name_wins(tmp_path):
    study = tmp_path / "s.toml"
    study.write_text(
        'name = "h"\nseed = 1\n[[arms]]\nname = "a"\ngame = "horno"\n'
        'players = 2\nstrategies = "random"\ngames = 1\ncards = "v1-harsh"\n'
    )
    [arm] = load_study(study).arms
    assert arm.options["cards"] == "v1-harsh"
    assert cards_of(arm.options).digest == shipped_cards("v1-harsh").digest
    assert GAME.fingerprint(arm)["cards"] == "assumed-v1-harsh"
    (tmp_path / "v1-harsh").write_text(cards_toml(V1), "utf-8")  # a file of that name
    [arm] = load_study(study).arms
    assert arm.options["cards"] == str(tmp_path / "v1-harsh")
    assert cards_of(arm.options).digest == V1.digest
    assert cards_reference(str(tmp_path / "v1-mild")) == "v1-mild"
    assert cards_reference(str(tmp_path / "v1-mild.toml")).endswith("v1-mild.toml")


@pytest.mark.parametrize(
    "ref, message",
    [
        (
            "v2-harsh",
            "is not a shipped card set; pass the path of a card-set TOML file or a "
            "shipped set's name (v1, v1-flat",
        ),
        ("/nowhere/v1-harsh.toml", "no such file"),
    ],
)
def test_an_unknown_name_or_a_missing_file_is_refused(ref, message):
    with pytest.raises(CardsError, match=message.replace("(", r"\(")):
        resolve_cards(ref)
    with pytest.raises(SlicelabError):
        GAME.variants({"cards": ref}, 2, None)
    with pytest.raises(CardsError, match="no shipped card set 'nope'"):
        shipped_cards("nope")
    with pytest.raises(SlicelabError, match="cards must be a shipped card set's name"):
        GAME.variants({"cards": 3}, 2, None)


def test_the_command_line_plays_a_shipped_set_by_name():
    result = CliRunner().invoke(
        cli, ["play", "horno", "--players", "2", "--games", "2", "--cards", "v1-two-wilds"]
    )
    assert result.exit_code == 0, result.output


def test_the_study_variants_are_generated_and_keep_the_deal():
    folder = ROOT / "studies" / "cards"
    written = study_variants()
    assert set(written) == {p.name for p in folder.glob("horno-*.toml")}
    for name, text in written.items():
        assert (folder / name).read_text("utf-8") == text, f"{name}: regenerate it"
    assert mean_dish_points(V1) == 13
    for t in range(len(V1.types)):
        plain = load_cards(folder / f"horno-plain-{V1.types[t].lower()}.toml")
        assert plain.digest == plain_type(V1, t).digest
        assert {d.points for d in plain.dishes if d.type == t} == {13}
        assert [d for d in plain.dishes if d.type != t] == [d for d in V1.dishes if d.type != t]
    none = load_cards(folder / "horno-no-radioactive.toml")
    assert none.digest == radioactive_as_garbage(V1).digest
    assert not any(k.cls == "radioactive" for k in none.kinds)
    for cards in (none, plain_type(V1, 2)):  # the same seed deals the same deck and piles
        a, b = deal(V1, np.random.default_rng(5)), deal(cards, np.random.default_rng(5))
        assert a.deck == b.deck and a.piles == b.piles
    with pytest.raises(ValueError, match="type 7 is not a type"):
        plain_type(V1, 7)


def test_every_shipped_set_reads_back_from_its_toml():
    for name in card_set_names():
        cards = shipped_cards(name)
        text = cards_toml(cards, "a header\n\nwith two paragraphs")
        assert text.startswith("# a header\n#\n# with two paragraphs\n")
        assert parse_cards(parse_toml(text, "x", CardsError), "x").digest == cards.digest


def test_the_dish_columns_add_up():
    arm = one_arm(
        {
            "name": "c",
            "game": "horno",
            "players": 3,
            "strategies": ["heuristic", "greedy", "random"],
            "games": 6,
        },
        seed=4,
    )
    p = play_tables(arm, 0, 6)["players"]
    scores = p.column("dish_scores")
    assert pc.list_value_length(p.column("dishes")).equals(pc.list_value_length(scores))
    for r in range(p.num_rows):
        done = p.column("dishes")[r].as_py()
        assert sum(scores[r].as_py()) == p.column("dish_points")[r].as_py()
        assert len(done) == p.column("dishes_completed")[r].as_py()
        by_type = [0] * len(V1.types)
        for d in done:
            by_type[V1.dishes[d].type] += 1
        assert by_type == p.column("completed_by_type")[r].as_py()
        left = p.column("unfinished_dish")[r].as_py()
        if left == -1:  # no dish in the oven at the end: no unfinished points
            assert p.column("unfinished_points")[r].as_py() == 0
        if p.column("closed")[r].as_py():
            assert left == -1


def test_what_each_card_set_changes_is_read_from_the_sets():
    from analysis.horno.common import card_set_changes

    assert card_set_changes(V1, V1) == "the same cards as assumed-v1"
    assert card_set_changes(shipped_cards("v1-two-wilds"), V1) == (
        "2 wilds (4) (assumed v1 in brackets)"
    )
    assert "20 garbage cards (13)" in card_set_changes(shipped_cards("v1-more-garbage"), V1)
    assert "garbage penalties -1/-3/-4/-6 (-1/-2/-3/-4)" in card_set_changes(
        shipped_cards("v1-harsh"), V1
    )
    assert "dish points 9/14/21 for 3/4/5 ingredients (10/14/18)" in card_set_changes(
        shipped_cards("v1-steep"), V1
    )
