"""The rule options (``Rules``): their names and defaults, the values each accepts, how an
option set by name is validated (study files and ``--rule``), the player range and the
first server's seat. Each option's effect on play is tested in
``test_pieceocake_round.py``, ``test_pieceocake_cuts.py`` and
``test_pieceocake_scoring.py``."""

import dataclasses

import numpy as np
import pytest

from sims.core.errors import SlicelabError
from sims.games.pieceocake.cake import default_cake
from sims.games.pieceocake.engine import GameState, deal
from sims.games.pieceocake.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Rules,
    check_players,
    variant_id,
)

CAKE = default_cake()
DEAL = deal(CAKE, np.random.default_rng(0))

DEFAULTS = {
    "first_server": 0,
    "two_player_pieces": 4,
    "two_player_order": "alternate",
    "forgo_ends_picking": True,
    "forgo_eats": "all",
    "majority_ties": "full",
    "tie": "shared",
    "exact_pieces": False,
    "forced_forgo_after_take": True,
}

# Every value other than the default that each option accepts.
ALTERNATIVES = [
    ("first_server", 1),
    ("first_server", 4),
    ("two_player_pieces", 2),
    ("two_player_pieces", 3),
    ("two_player_pieces", 5),
    ("two_player_pieces", 6),
    ("two_player_order", "snake"),
    ("forgo_ends_picking", False),
    ("forgo_eats", "choose"),
    ("forgo_eats", "none"),
    ("majority_ties", "none"),
    ("majority_ties", "split"),
    ("tie", "cream"),
    ("exact_pieces", True),
    ("forced_forgo_after_take", False),
]


def test_defaults_are_the_rulings():
    assert Rules().as_dict() == DEFAULTS
    assert [f.name for f in dataclasses.fields(Rules)] == list(DEFAULTS)
    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 5)


@pytest.mark.parametrize("name,value", ALTERNATIVES)
def test_every_alternative_is_accepted_by_name(name, value):
    rules = Rules.from_dict({name: value})
    assert getattr(rules, name) == value
    assert rules.as_dict() == {**DEFAULTS, name: value}
    # a different variant from the defaults
    assert variant_id(rules, CAKE.digest) != variant_id(Rules(), CAKE.digest)


def test_variant_id_covers_rules_and_cake():
    base = variant_id(Rules(), CAKE.digest)
    assert len(base) == 12 and base == variant_id(Rules.from_dict({}), CAKE.digest)
    assert variant_id(Rules(), "0" * 16) != base
    assert variant_id(Rules.from_dict(DEFAULTS), CAKE.digest) == base  # defaults spelled out
    ids = {variant_id(Rules.from_dict({n: v}), CAKE.digest) for n, v in ALTERNATIVES}
    assert len(ids) == len(ALTERNATIVES)


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().tie = "cream"


# options, fragment of the message
BAD_VALUES = [
    ({"forgo_eats": "some"}, "forgo_eats='some': use one of 'all', 'choose', 'none'"),
    ({"majority_ties": "half"}, "majority_ties='half': use one of 'full', 'none', 'split'"),
    ({"tie": "chocolate"}, "tie='chocolate': use one of 'shared', 'cream'"),
    ({"two_player_order": "random"}, "two_player_order='random': use one of 'alternate', 'snake'"),
    ({"two_player_pieces": 1}, "two_player_pieces=1: use an integer from 2 to 6 (4 is the ruling)"),
    ({"two_player_pieces": 7}, "two_player_pieces=7: use an integer from 2 to 6"),
    ({"first_server": -1}, "first_server=-1: use a seat number from 0 to 4"),
    ({"first_server": 5}, "first_server=5: use a seat number from 0 to 4 (a seat of the table)"),
    ({"first_server": 10**30}, "use a seat number from 0 to 4"),
]


@pytest.mark.parametrize("options,fragment", BAD_VALUES)
def test_bad_value_is_refused(options, fragment):
    for make in (lambda: Rules(**options), lambda: Rules.from_dict(options)):
        with pytest.raises(SlicelabError) as info:
            make()
        assert fragment in str(info.value)
        assert str(info.value).startswith("Piece o' Cake rule option")


def test_unknown_option_is_refused_naming_it_and_the_known_ones():
    with pytest.raises(SlicelabError) as info:
        Rules.from_dict({"forgo_eat": "all"})
    assert str(info.value) == (
        "unknown Piece o' Cake rule option 'forgo_eat'; known options: exact_pieces, "
        "first_server, forced_forgo_after_take, forgo_eats, forgo_ends_picking, "
        "majority_ties, tie, two_player_order, two_player_pieces (see "
        "docs/rules/pieceocake.md)"
    )


# option, value of the wrong type, fragment of the message
WRONG_TYPES = [
    ("forgo_ends_picking", "true", "forgo_ends_picking must be true or false, got 'true'"),
    ("forgo_ends_picking", 1, "forgo_ends_picking must be true or false, got 1"),
    (
        "forced_forgo_after_take",
        "false",
        "forced_forgo_after_take must be true or false, got 'false'",
    ),
    ("exact_pieces", 1, "exact_pieces must be true or false, got 1"),
    ("first_server", 1.0, "first_server must be an integer, got 1.0"),
    ("first_server", True, "first_server must be an integer, got True"),
    ("first_server", "1", "first_server must be an integer, got '1'"),
    ("two_player_pieces", "4", "two_player_pieces must be an integer, got '4'"),
    ("forgo_eats", 1, "forgo_eats must be a string, got 1"),
    ("tie", None, "tie must be a string, got None"),
    ("majority_ties", ["full"], "majority_ties must be a string, got ['full']"),
]


@pytest.mark.parametrize("name,value,fragment", WRONG_TYPES)
def test_wrong_type_is_refused(name, value, fragment):
    with pytest.raises(SlicelabError) as info:
        Rules.from_dict({name: value})
    assert fragment in str(info.value)


def test_first_server_bool_is_refused_even_directly():
    with pytest.raises(SlicelabError, match="first_server=True"):
        Rules(first_server=True)


# players, the most pieces a server may cut (default rules; two_player_pieces=6)
@pytest.mark.parametrize("n,default,six", [(2, 4, 6), (3, 3, 3), (4, 4, 4), (5, 5, 5)])
def test_max_pieces(n, default, six):
    assert Rules().max_pieces(n) == default
    assert Rules(two_player_pieces=6).max_pieces(n) == six


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_player_counts_2_to_5_are_accepted(n):
    check_players(n)
    assert GameState(CAKE, Rules(), n, DEAL).n == n


@pytest.mark.parametrize("n", [0, 1, 6, 7, -2, True, 2.0, "3", None])
def test_other_player_counts_are_refused(n):
    with pytest.raises(SlicelabError) as info:
        check_players(n)
    assert str(info.value) == (
        f"Piece o' Cake is played by 2 to 5 players, not {n}; pass --players between 2 and 5"
    )


@pytest.mark.parametrize("n", [1, 6])
def test_engine_refuses_1_and_6_players(n):
    with pytest.raises(SlicelabError, match=f"2 to 5 players, not {n}"):
        GameState(CAKE, Rules(), n, DEAL)


@pytest.mark.parametrize("n,first", [(2, 2), (3, 3), (3, 4), (4, 4)])
def test_first_server_outside_the_table_is_refused(n, first):
    with pytest.raises(SlicelabError) as info:
        GameState(CAKE, Rules(first_server=first), n, DEAL)
    assert str(info.value) == (f"rule option first_server={first} is not a seat of {n} players")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_last_seat_may_serve_first(n):
    state = GameState(CAKE, Rules(first_server=n - 1), n, DEAL)
    assert state.decision().player == n - 1 and state.server == n - 1


def test_rules_doc_lists_every_option_with_its_default_and_alternatives():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "rules" / "pieceocake.md").read_text()
    rows = {
        line.split("|")[1].strip().strip("`"): line
        for line in doc.splitlines()
        if line.startswith("| `")
    }
    for name, default in DEFAULTS.items():
        row = rows[name]
        cells = [c.strip() for c in row.split("|")]
        shown = str(default).lower() if isinstance(default, bool) else default
        assert cells[2] == (f'`"{shown}"`' if isinstance(default, str) else f"`{shown}`")
        for alt_name, alt in ALTERNATIVES:
            if alt_name == name and not isinstance(alt, int | bool):
                assert f'`"{alt}"`' in cells[3]
    assert "shared/" not in doc and "seeds/" not in doc
