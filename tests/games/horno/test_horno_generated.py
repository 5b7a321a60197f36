"""Generated Horno card sets and rule options (``tests/generated.py``): Hypothesis writes
the card-set files a designer could write, across every declared limit
(``rules.LIMITS``): tiny (the smallest deck allowed, one dish type, one dish), huge (the
most dish cards, card kinds and copies: a deck of 5000 cards), degenerate (no garbage, no
radioactive card, kinds of 0 copies, dishes needing the most ingredients) and anything in
between, with rule options at the ends of their ranges. Each file is written as TOML
(``cards.cards_toml``) and read back through the real parser; for every strategy family
the kernel plays (random, greedy, heuristic, mixed seats) at 2, 3 and 4 players, the
kernel must give the reference engine's rows exactly, or the parser refuse the file up
front with a ``DataFileError``.

And the table-driven refusals at each limit: a file at a limit is accepted and played on
both engines alike, one past it refused naming the limit (among them the card set of 129
dishes that once reached a pyarrow traceback, and a wild written as an array of tables).
"""

from __future__ import annotations

import copy
import itertools
import random
import tomllib
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st
from test_horno_kernel import MIX, _arm, assert_engines_agree

from sims.core.errors import DataFileError, SlicelabError
from sims.core.limits import checked_cast, column_type
from sims.games.horno import plugin
from sims.games.horno.cards import (
    GARBAGE,
    INGREDIENT,
    RADIOACTIVE,
    WILD,
    CardSet,
    Dish,
    Kind,
    cards_toml,
    load_cards,
    parse_cards,
)
from sims.games.horno.plugin import GAME
from sims.games.horno.rules import (
    _BOOLS,
    _CHOICES,
    BONUS,
    COPIES,
    DECK,
    DISHES,
    FIRST_PLAYER,
    INGREDIENTS,
    KINDS,
    LIMITS,
    PENALTY,
    POINTS,
    ROUNDS,
    TYPES,
    Rules,
)
from sims.games.horno.whatif import inert
from tests.generated import generated

pytestmark = pytest.mark.generated

SHAPES = ("tiny", "huge", "degenerate", "any")
FAMILIES = {
    "random": ("random",),
    "greedy": ("greedy",),
    "heuristic": ("heuristic",),
    "mixed": MIX,
}
_SERIAL = itertools.count()


# ------------------------------------------------------------------------ the generator
# Hypothesis draws a set's shape and sizes; the many details of a big set (each dish's
# ingredients, each kind's copies) come from a generator seeded by one more draw, so a set
# of 128 dishes stays a small example.


def _value(rnd: random.Random, low: int, high: int) -> int:
    """A value from ``low`` to ``high``, one of the two ends a third of the time."""
    return rnd.choice((low, high)) if rnd.random() < 1 / 3 else rnd.randint(low, high)


def _dish(rnd: random.Random, d: int, t: int, n_ing: int, need: int | None = None) -> Dish:
    size = need or rnd.randint(INGREDIENTS.low, min(INGREDIENTS.high, n_ing))
    ingredients = tuple(rnd.sample(range(n_ing), size))
    back = tuple(x for x in ingredients if rnd.random() < 0.5)
    return Dish(f"dish {d}", t, _value(rnd, POINTS.low, POINTS.high), ingredients, back)


def _kinds(rnd, n_ing: int, copies, n_garbage: int, n_radio: int, n_types: int) -> list[Kind]:
    kinds = [Kind(f"ing {i}", INGREDIENT, copies()) for i in range(n_ing)]
    kinds.append(Kind("the wild", WILD, copies()))
    kinds += [
        Kind(f"garbage {i}", GARBAGE, copies(), penalty=_value(rnd, PENALTY.low, PENALTY.high))
        for i in range(n_garbage)
    ]
    kinds += [Kind(f"radioactive {i}", RADIOACTIVE, copies(),
                   penalty=_value(rnd, PENALTY.low, PENALTY.high), type=rnd.randrange(n_types),
                   bonus=_value(rnd, BONUS.low, BONUS.high))
              for i in range(n_radio)]  # fmt: skip
    return kinds


def _dishes_of(rnd, n_dishes: int, n_types: int, n_ing: int, need=None) -> list[Dish]:
    """``n_dishes`` dishes, every type among them (the first ``n_types`` one of each)."""
    types = list(range(n_types)) + [rnd.randrange(n_types) for _ in range(n_dishes - n_types)]
    return [_dish(rnd, d, t, n_ing, need) for d, t in enumerate(types)]


@st.composite
def card_sets(draw, shape: str | None = None) -> CardSet:
    """A card set within the declared limits (its deck may fall short of ``DECK.low``
    in the ``any`` shape: the parser must then refuse it)."""
    shape = shape or draw(st.sampled_from(SHAPES), label="shape")
    rnd = random.Random(draw(st.integers(0, 2**32 - 1), label="details"))
    ends = st.sampled_from((TYPES.low, TYPES.high)) | st.integers(TYPES.low, TYPES.high)
    if shape == "tiny":  # one type, one dish of two ingredients, the smallest deck
        n_types, n_ing = TYPES.low, INGREDIENTS.low
        a = draw(st.integers(0, min(COPIES.high, DECK.low)))
        b = draw(st.integers(max(0, DECK.low - a - COPIES.high), min(COPIES.high, DECK.low - a)))
        kinds = [Kind("ing 0", INGREDIENT, a), Kind("ing 1", INGREDIENT, b),
                 Kind("the wild", WILD, DECK.low - a - b)]  # fmt: skip
        dishes = [_dish(rnd, 0, 0, n_ing)]
    elif shape == "huge":  # the most dish cards, kinds and copies
        n_types = draw(ends)
        n_garbage, n_radio = draw(st.integers(0, 20)), draw(st.integers(0, 20))
        n_ing = KINDS.high - 1 - n_garbage - n_radio
        full = draw(st.booleans())
        copies = (lambda: COPIES.high) if full else (lambda: rnd.randint(40, COPIES.high))
        kinds = _kinds(rnd, n_ing, copies, n_garbage, n_radio, n_types)
        dishes = _dishes_of(rnd, DISHES.high, n_types, n_ing)
    elif shape == "degenerate":  # no garbage or radioactive card, empty kinds, long dishes
        n_types = draw(ends)
        n_ing = draw(st.integers(INGREDIENTS.high, 20))
        kinds = _kinds(rnd, n_ing, lambda: rnd.choice((0, 0, 1, COPIES.high)), 0, 0, n_types)
        short = DECK.low - sum(k.copies for k in kinds)
        if short > 0:  # fill the deck up with wilds (a deck of wilds alone is allowed)
            kinds[n_ing] = Kind("the wild", WILD, min(COPIES.high, kinds[n_ing].copies + short))
        need = INGREDIENTS.high if draw(st.booleans()) else None
        n_dishes = draw(st.integers(n_types, 3 * n_types))
        dishes = _dishes_of(rnd, n_dishes, n_types, n_ing, need)
    else:
        n_types = draw(ends)
        n_ing = draw(st.integers(INGREDIENTS.low, 25))
        n_garbage, n_radio = draw(st.integers(0, 6)), draw(st.integers(0, 6))
        most = draw(st.sampled_from((8, COPIES.high)))
        kinds = _kinds(rnd, n_ing, lambda: _value(rnd, COPIES.low, most), n_garbage, n_radio,
                       n_types)  # fmt: skip
        dishes = _dishes_of(rnd, draw(st.integers(n_types, max(n_types, 40))), n_types, n_ing)
    types = ("only",) if shape == "tiny" else tuple(f"type {t}" for t in range(n_types))
    return CardSet(f"generated {shape}", types, tuple(kinds), tuple(dishes), "generated")


@st.composite
def rule_options(draw, players: int) -> dict:
    """Rule options: every choice and switch at any of its values, ``rounds`` and
    ``first_player`` mostly at the ends of their ranges."""
    out: dict = {}
    for name, values in _CHOICES.items():
        if draw(st.booleans()):
            out[name] = draw(st.sampled_from(values))
    for name in _BOOLS:
        if draw(st.booleans()):
            out[name] = draw(st.booleans())
    out["rounds"] = draw(st.sampled_from((ROUNDS.low, 2, ROUNDS.high)) | st.integers(1, 8))
    out["first_player"] = draw(st.sampled_from((FIRST_PLAYER.low, players - 1)))
    return out


def _write(cards: CardSet, folder: Path) -> Path:
    path = folder / f"generated-{next(_SERIAL)}.toml"
    path.write_text(cards_toml(cards, f"generated: {cards.name}"), "utf-8")
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("horno-generated")


# ------------------------------------------------------------------------ the property
@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("family", list(FAMILIES))
@pytest.mark.parametrize("shape", SHAPES)
@generated(quick=3, validate=100)
@given(data=st.data())
def test_a_generated_card_set_plays_alike_on_both_engines_or_is_refused(
    folder, shape, family, players, data
):
    cards = data.draw(card_sets(shape), label="cards")
    rules = data.draw(rule_options(players), label="rules")
    path = _write(cards, folder)
    event(cards.name)
    try:
        read = load_cards(path)
    except DataFileError as err:  # only a deck short of the smallest is generated
        assert len(cards.deck) < DECK.low, err
        assert "cards in the deck; at least" in str(err)
        event("refused: a deck too small")
        return
    assert read.digest == cards.digest and len(read.deck) == len(cards.deck)
    arm = _arm(players, FAMILIES[family], seed=data.draw(st.integers(0, 2**32 - 1), "seed"),
               cards=str(path), rules=rules)  # fmt: skip
    problem = inert(read, Rules(**rules), arm.strategies, players)
    if problem is None:
        GAME.check_arm(arm)
    else:  # a what-if that cannot change these games: refused when a study is read
        with pytest.raises(SlicelabError) as err:
            GAME.check_arm(arm)
        assert str(err.value) == problem
        event("refused: a what-if that changes nothing (played anyway)")
    games = 1 if len(cards.deck) > 1000 or rules["rounds"] > 8 else 2
    event(f"rounds {rules['rounds']}")
    assert_engines_agree(arm, data.draw(st.integers(0, 10**6), label="first"), games)


@pytest.mark.parametrize("shape", SHAPES)
@generated(quick=3, validate=100)
@given(data=st.data())
def test_every_shape_reads_back_through_the_parser(folder, shape, data):
    """Each shape's files are what the writer writes and the parser reads back."""
    cards = data.draw(card_sets(shape), label="cards")
    assume(len(cards.deck) >= DECK.low)
    read = load_cards(_write(cards, folder))
    assert (read.types, read.kinds, read.dishes) == (cards.types, cards.kinds, cards.dishes)


# ------------------------------------------------------------------------ at each limit
def _base(n_dishes: int = 2, types: int = 1, n_ing: int = 3, copies: int = 10) -> dict:
    """A small valid card-set table: ``n_ing`` ingredients of ``copies`` each, a wild, a
    garbage and a radioactive card, ``n_dishes`` dishes over ``types`` types."""
    names = [f"ing {i}" for i in range(n_ing)]
    return {
        "name": "edge",
        "types": [f"type {t}" for t in range(types)],
        "ingredient": [{"name": n, "copies": copies} for n in names],
        "wild": {"name": "the wild", "copies": 2},
        "garbage": [{"name": "fly", "penalty": 1, "copies": 2}],
        "radioactive": [{"name": "glow", "type": "type 0", "bonus": 5, "penalty": 3,
                         "copies": 2}],  # fmt: skip
        "dish": [{"name": f"dish {d}", "type": f"type {d % types}", "points": 10,
                  "ingredients": names[:2], "back": names[:1]} for d in range(n_dishes)],
    }  # fmt: skip


def _dishes(n):
    return lambda data: data.update(dish=_base(n_dishes=n)["dish"])


def _types(n):
    def edit(data):
        fresh = _base(n_dishes=max(n, 2), types=n)
        data.update(types=fresh["types"], dish=fresh["dish"])

    return edit


def _kinds_total(n):
    """``n`` card kinds: the wild, at least two ingredients (a copy each) and the garbage
    and radioactive card while there is room."""

    def edit(data):
        ing = max(INGREDIENTS.low, n - 3)
        data["ingredient"] = [{"name": f"ing {i}", "copies": 1} for i in range(ing)]
        if n - 1 - ing < 2:
            data["radioactive"] = []
        if n - 1 - ing < 1:
            data["garbage"] = []
        data["wild"]["copies"] = 24

    return edit


def _copies(n):
    return lambda data: data["ingredient"][0].update(copies=n)


def _deck(n):
    """A deck of ``n`` cards: 24 is 3 ingredients of 6, 2 wilds, 2 + 2 bad cards."""

    def edit(data):
        for e in data["ingredient"]:
            e["copies"] = 6
        data["ingredient"][0]["copies"] = 6 + n - 24

    return edit


def _deck_most(extra):
    def edit(data):
        fresh = _base(n_ing=KINDS.high - 3, copies=COPIES.high)
        data["ingredient"] = fresh["ingredient"]
        data["wild"]["copies"] = COPIES.high
        data["garbage"][0]["copies"] = COPIES.high
        data["radioactive"][0]["copies"] = COPIES.high
        if extra:
            data["ingredient"].append({"name": "one more", "copies": 1})

    return edit


def _need(n):
    def edit(data):
        data["ingredient"] = [{"name": f"ing {i}", "copies": 9} for i in range(max(n, 2))]
        data["dish"][0]["ingredients"] = [f"ing {i}" for i in range(n)]
        data["dish"][0]["back"] = []

    return edit


def _field(path, value):
    def edit(data):
        *head, last = path.split("/")
        node = data
        for part in head:
            node = node[int(part)] if isinstance(node, list) else node[part]
        node[int(last) if isinstance(node, list) else last] = value

    return edit


# (id, edit, the limit, fragment of the refusal or None: accepted and played)
EDGES = [
    ("dishes-most", _dishes(DISHES.high), DISHES, None),
    ("dishes-129", _dishes(129), DISHES, "has 129 dish cards; at most 128"),
    ("dishes-one-past", _dishes(DISHES.high + 1), DISHES, f"has {DISHES.high + 1} dish cards"),
    ("dishes-300", _dishes(300), DISHES, "has 300 dish cards; at most 128"),
    ("dishes-fewest", _dishes(DISHES.low), DISHES, None),
    ("types-fewest", _types(TYPES.low), TYPES, None),
    ("types-most", _types(TYPES.high), TYPES, None),
    ("types-one-past", _types(TYPES.high + 1), TYPES, "has 9 dish types; at most 8"),
    ("kinds-fewest", _kinds_total(KINDS.low), KINDS, None),
    ("kinds-most", _kinds_total(KINDS.high), KINDS, None),
    ("kinds-one-past", _kinds_total(KINDS.high + 1), KINDS, "has 101 card kinds; at most 100"),
    ("copies-none", _copies(COPIES.low), COPIES, None),
    ("copies-most", _copies(COPIES.high), COPIES, None),
    ("copies-one-past", _copies(COPIES.high + 1), COPIES, "'copies' = 51 must be an integer "
     "from 0 to 50"),
    ("copies-negative", _copies(-1), COPIES, "'copies' = -1 must be an integer from 0 to 50"),
    ("deck-fewest", _deck(DECK.low), DECK, None),
    ("deck-one-short", _deck(DECK.low - 1), DECK, "has 23 cards in the deck; at least 24"),
    ("deck-most", _deck_most(False), DECK, None),
    ("kinds-past-with-the-most-deck", _deck_most(True), KINDS, "has 101 card kinds"),
    ("need-fewest", _need(INGREDIENTS.low), INGREDIENTS, None),
    ("need-most", _need(INGREDIENTS.high), INGREDIENTS, None),
    ("need-one-past", _need(INGREDIENTS.high + 1), INGREDIENTS,
     "dish 1 (dish 0): needs from 2 to 7 ingredients"),
    ("need-one-short", _need(INGREDIENTS.low - 1), INGREDIENTS,
     "dish 1 (dish 0): needs from 2 to 7 ingredients"),
    ("points-most", _field("dish/0/points", POINTS.high), POINTS, None),
    ("points-one-past", _field("dish/0/points", POINTS.high + 1), POINTS,
     "dish 1 (dish 0): 'points' = 101 must be an integer from 0 to 100"),
    ("penalty-most", _field("garbage/0/penalty", PENALTY.high), PENALTY, None),
    ("penalty-one-past", _field("garbage/0/penalty", PENALTY.high + 1), PENALTY,
     "garbage 1 (fly): 'penalty' = 21 must be an integer from 0 to 20"),
    ("radioactive-penalty-one-past", _field("radioactive/0/penalty", PENALTY.high + 1),
     PENALTY, "radioactive 1 (glow): 'penalty' = 21 must be an integer from 0 to 20"),
    ("bonus-most", _field("radioactive/0/bonus", BONUS.high), BONUS, None),
    ("bonus-one-past", _field("radioactive/0/bonus", BONUS.high + 1), BONUS,
     "radioactive 1 (glow): 'bonus' = 21 must be an integer from 0 to 20"),
]  # fmt: skip


@pytest.mark.parametrize("edit, limit, fragment", [e[1:] for e in EDGES],
                         ids=[e[0] for e in EDGES])  # fmt: skip
def test_a_card_set_at_a_limit_plays_and_one_past_is_refused(folder, edit, limit, fragment):
    data = _base()
    edit(data)
    if fragment is not None:
        with pytest.raises(DataFileError) as err:
            parse_cards(copy.deepcopy(data), "edge.toml")
        message = str(err.value)
        assert message.startswith("card set edge.toml: ") and "\n" not in message, message
        assert fragment in message, message
        assert (f"at most {limit.high}" in message or f"at least {limit.low}" in message
                or f"from {limit.low} to {limit.high}" in message), message  # fmt: skip
        assert limit.why in message, message  # it names what the limit comes from
        return
    cards = parse_cards(copy.deepcopy(data), "edge.toml")
    path = _write(cards, folder)
    assert load_cards(path).digest == cards.digest
    for players in (2, 4):
        arm = _arm(players, MIX, seed=3, cards=str(path), rules={"rounds": ROUNDS.high})
        GAME.check_arm(arm)
        assert_engines_agree(arm, 0, 1)


def test_a_wild_written_as_an_array_of_tables_is_refused_in_one_line(tmp_path):
    text = cards_toml(parse_cards(_base(), "edge.toml")).replace("[wild]", "[[wild]]")
    assert isinstance(tomllib.loads(text)["wild"], list)
    path = tmp_path / "wilds.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(DataFileError) as err:
        load_cards(path)
    message = str(err.value)
    assert "\n" not in message
    assert message == (
        f"card set {path}: [wild] must be one table ([wild]), not an array of tables "
        "([[wild]]): a card set has one wild card kind"
    )
    with pytest.raises(SlicelabError, match=r"not an array of tables"):
        GAME.check_arm(_arm(2, ("random",), cards=str(path)))


def test_a_set_of_129_dishes_is_refused_before_any_game(tmp_path):
    """Once accepted, it failed in both engines with a pyarrow traceback (dish numbers are
    stored in one byte); now the study is refused when checked."""
    data = _base(n_dishes=129)
    path = tmp_path / "many.toml"
    dump = cards_toml(parse_cards(_base(n_dishes=DISHES.high), "x"))
    extra = "\n".join(["", "[[dish]]", 'name = "dish 128"', 'type = "type 0"', "points = 1",
                       'ingredients = ["ing 0", "ing 1"]', "back = []", ""])  # fmt: skip
    path.write_text(dump + extra, "utf-8")
    assert len(tomllib.loads(path.read_text("utf-8"))["dish"]) == len(data["dish"])
    with pytest.raises(DataFileError, match=r"has 129 dish cards; at most 128 \(a dish card"):
        GAME.check_arm(_arm(2, ("random",), cards=str(path)))


@pytest.mark.parametrize("key, value, fragment", [
    ("rounds", ROUNDS.low - 1, "rounds=0: has 0 rounds; at least 1"),
    ("rounds", ROUNDS.high + 1, "rounds=31: has 31 rounds; at most 30"),
    ("first_player", FIRST_PLAYER.high + 1, "first_player=4: has 4 as the first player's seat"),
    ("first_player", FIRST_PLAYER.low - 1, "first_player=-1: has -1 as the first player's"),
])  # fmt: skip
def test_a_rule_option_one_past_its_limit_is_refused(key, value, fragment):
    with pytest.raises(SlicelabError, match=fragment):
        Rules.from_dict({key: value})


@pytest.mark.parametrize("rules", [
    {"rounds": ROUNDS.low}, {"rounds": ROUNDS.high},
    {"rounds": ROUNDS.high, "first_player": FIRST_PLAYER.high, "reshuffle": "discard"},
])  # fmt: skip
def test_a_rule_option_at_its_limit_plays(rules):
    arm = _arm(4, MIX, seed=5, rules=rules)
    GAME.check_arm(arm)
    assert_engines_agree(arm, 0, 1)


def test_the_declared_limits_are_the_plugins_and_bound_the_columns():
    assert GAME.data_limits == LIMITS
    assert {x.key for x in LIMITS} >= {
        "players", "rounds", "first_player", "types", "kinds", "copies", "deck", "dishes",
        "ingredients", "points", "penalty", "bonus",
    }  # fmt: skip
    assert DECK.high == KINDS.high * COPIES.high


def test_the_column_types_follow_the_limits_and_never_wrap():
    """The players, games and decision columns are typed from the limits (at today's
    limits, the types the tables were first written with), and a value a type cannot hold
    is refused rather than wrapped."""
    assert plugin.DISH_ID is np.int8  # dish numbers 0 .. DISHES.high - 1, and -1
    assert plugin._DISH_TYPES["dishes"] == pa.int8() and pa.int8() == plugin._BY_TYPE
    assert plugin._GAME_TYPES["reshuffles"] is np.int8  # at most (30 + 1) x 4 = 124
    assert plugin._SEAT_TYPES["score"] is np.int16 and plugin._SEAT_TYPES["drawn"] is np.int16
    assert column_type(127) is np.int8 and column_type(128) is np.int16
    assert column_type(5, at_least=np.int16) is np.int16  # never narrower than the tables'
    with pytest.raises(ValueError, match="reshuffles: a value from 0 to 130 does not fit"):
        checked_cast(np.array([0, 130]), np.int8, "reshuffles")
