"""Generated decks and rule options (Hypothesis): every deck file a designer could write,
across the declared limits (``deck.DECK_LIMITS``, ``rules.RULE_LIMITS``), plays the same
game on both engines, decision for decision, score row and decision record alike, or is
refused up front by the parser with a :class:`~sims.core.errors.DataFileError` naming the
limit.

A New York Slice deck has a fixed shape (t slices of each type t, four combos, the Anchovy
slice, the Supreme, 14 special tiles); what a designer chooses is every slice's pepperoni
and anchovies, the three combos besides the 8/10, the order of the slices and the
specials, blank tiles in place of specials, and the names. The files are written as TOML
text from a generated structure (``deck.py`` has no writer; ``deckfamily._toml`` writes
only a family's draws) and read back through the real parser (``load_deck``). Families:
the default deck's values, every count at its maximum, nothing edible but the Supreme,
anchovies everywhere, every special blank, combos that pair the types the small setups
remove, and anything in between; now and then one value steps one past a limit, to check
the refusal. Rule options are drawn at the ends of their ranges, players 2 to 6, seats
from ``random``, ``greedy`` and ``heuristic`` (its parameters at the ends of the tuning
box), each now and then under restricted play (``avoid=`` or ``forfeit=`` a special);
``search`` (a few playouts) only at 2 and 3 players, where it is cheap.

``make test`` runs a few derandomized examples; ``make validate`` thousands, on a kernel
compiled with numba's bounds checking (``tests/generated.py``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from sims.core.errors import DataFileError, SlicelabError
from sims.games.nyslice.deck import (
    ANCHOVIES,
    ANCHOVY_SLICES,
    BLANK_SLUG,
    COMBOS,
    DECK_LIMITS,
    NAME_LENGTH,
    PEPPERONI,
    REAL_SPECIALS,
    SLICES,
    SPECIALS,
    SUPREME_PEPPERONI,
    SUPREME_SLICES,
    TYPES,
    VEGGIE,
    DeckError,
    load_deck,
)
from sims.games.nyslice.heuristic import PARAM_ORDER, PARAM_RANGES
from sims.games.nyslice.kernel import KernelRunner
from sims.games.nyslice.rules import (
    BUFFET_LIMIT,
    COMPENSATION_ENTRIES,
    COMPENSATION_POINTS,
    CRAVINGS_LIMIT,
    DAY_OLD_LIMIT,
    FIRST_SLICER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULE_LIMITS,
    STUFFED_CRUST_LIMIT,
    SUPER_SIZED_HALVES_LIMIT,
    VEGGIES_LIMIT,
    Rules,
)
from tests.games.nyslice.test_nyslice_kernel import _compare
from tests.generated import VALIDATE, generated

pytestmark = pytest.mark.generated

FIXED_COMBO = [8, 10]
"""The combo the 2- and 5-player setups remove: exactly one per deck."""
SLUGS = [s.slug for s in REAL_SPECIALS]


# ----------------------------------------------------------------------------- writing
def _str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def deck_toml(deck: dict) -> str:
    """A deck file's text from a deck table (``name`` and ``type_names`` optional)."""
    lines = [f"name = {_str(deck['name'])}"] if "name" in deck else []
    lines.append("specials = [" + ", ".join(_str(s) for s in deck["specials"]) + "]")
    lines.append("slices = [")
    for s in deck["slices"]:
        fields = [f"{k} = {_str(v) if isinstance(v, str) else v}" for k, v in s.items()]
        lines.append("  { " + ", ".join(fields) + " },")
    lines.append("]")
    if "type_names" in deck:
        lines.append("[type_names]")
        lines += [f"{t} = {_str(n)}" for t, n in deck["type_names"].items()]
    return "\n".join(lines) + "\n"


def load_text(text: str):
    """``load_deck`` of a file holding ``text`` (the real file path)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.toml"
        path.write_text(text, encoding="utf-8")
        return load_deck(path)


# ----------------------------------------------------------------------------- strategies
def _ends(limit) -> st.SearchStrategy[int]:
    """A value within ``limit``: often an end, else anything in it."""
    return st.one_of(st.sampled_from([limit.low, limit.high]), st.integers(limit.low, limit.high))


LABEL_CHARACTERS = list("abcXYZ019 -_'\"\\/.&é中ß")
"""Printable characters of a name, the quote and the backslash among them (escaped)."""
LABELS = st.text(
    alphabet=st.sampled_from(LABEL_CHARACTERS), min_size=1, max_size=NAME_LENGTH.high
).filter(lambda s: s.strip())


@st.composite
def decks(draw) -> dict:
    """A deck table (as a file holds it) from one of the families."""
    family = draw(st.sampled_from(["default", "max", "bare", "anchovies", "blank", "setup", "any"]))

    def pep() -> int:
        if family == "max":
            return PEPPERONI.high
        if family in ("bare", "anchovies"):
            return PEPPERONI.low
        if family == "default":
            return draw(st.integers(1, 3))
        return draw(_ends(PEPPERONI))

    def anch() -> int:
        if family in ("max", "anchovies"):
            return ANCHOVIES.high
        if family == "bare":
            return ANCHOVIES.low
        if family == "default":
            return draw(st.integers(0, 1))
        return draw(_ends(ANCHOVIES))

    slices = []
    for t in TYPES:
        for _ in range(t):
            p = 0 if t == VEGGIE else pep()
            slices.append({"kind": "numbered", "type": t, "pepperoni": p, "anchovies": anch()})
    pairs = st.lists(st.sampled_from(TYPES), min_size=2, max_size=2, unique=True)
    if family == "setup":  # combos of the types the 2- and 5-player setups remove
        pair_of = st.sampled_from([[3, 8], [10, 3], [8, 4], [10, 11], [3, 10]])
    else:
        pair_of = pairs.filter(lambda p: sorted(p) != FIXED_COMBO)
    combos = [draw(st.sampled_from([[8, 10], [10, 8]]))] + [draw(pair_of) for _ in range(3)]
    for c in combos:
        slices.append({"kind": "combo", "types": c, "pepperoni": 0, "anchovies": anch()})
    slices.append({"kind": "anchovy", "pepperoni": 0, "anchovies": anch()})
    supreme = max(SUPREME_PEPPERONI.low, pep()) if family != "bare" else SUPREME_PEPPERONI.low
    slices.append({"kind": "supreme", "pepperoni": supreme, "anchovies": anch()})
    if draw(st.booleans()):
        slices = draw(st.permutations(slices))
    specials = list(draw(st.permutations(SLUGS)))
    if family == "blank":
        blanks = draw(st.sampled_from([len(specials), len(specials) - 1, 1]))
    else:
        blanks = draw(st.integers(0, 3))
    for i in draw(st.permutations(range(len(specials))))[:blanks]:
        specials[i] = BLANK_SLUG
    deck = {"specials": specials, "slices": slices}
    if draw(st.booleans()):
        deck["name"] = draw(LABELS)
    if draw(st.booleans()):
        named = draw(st.lists(st.sampled_from(TYPES), unique=True, max_size=len(TYPES)))
        deck["type_names"] = {str(t): draw(LABELS) for t in named}
    return deck


@st.composite
def past_a_limit(draw, deck: dict) -> tuple[dict, str]:
    """``deck`` with one count stepped one past a limit: (the deck, the fragment its
    refusal must hold)."""
    deck = {**deck, "slices": [dict(s) for s in deck["slices"]], "specials": list(deck["specials"])}
    slices = deck["slices"]
    key = draw(st.sampled_from(
        ["pepperoni", "anchovies", "supreme", "combos", "anchovy", "specials", "name"]
    ))  # fmt: skip
    if key == "pepperoni":
        i = draw(st.sampled_from([i for i, s in enumerate(slices) if s["kind"] == "numbered"]))
        value = draw(st.sampled_from([PEPPERONI.low - 1, PEPPERONI.high + 1]))
        slices[i]["pepperoni"] = value
        return deck, f"has {value} {PEPPERONI.what}"
    if key == "anchovies":
        i = draw(st.integers(0, len(slices) - 1))
        value = draw(st.sampled_from([ANCHOVIES.low - 1, ANCHOVIES.high + 1]))
        slices[i]["anchovies"] = value
        return deck, f"has {value} {ANCHOVIES.what}"
    if key == "supreme":
        next(s for s in slices if s["kind"] == "supreme")["pepperoni"] = 0
        return deck, f"has 0 {SUPREME_PEPPERONI.what}; at least 1"
    if key == "combos":
        slices.append({"kind": "combo", "types": [4, 5], "pepperoni": 0, "anchovies": 0})
        return deck, f"has 5 {COMBOS.what}; at most 4"
    if key == "anchovy":
        deck["slices"] = [s for s in slices if s["kind"] != "anchovy"]
        return deck, f"has 0 {ANCHOVY_SLICES.what}; at least 1"
    if key == "specials":
        if draw(st.booleans()):
            deck["specials"] = deck["specials"][:-1]
            return deck, f"has 13 {SPECIALS.what}; at least 14"
        deck["specials"] = [*deck["specials"], BLANK_SLUG]
        return deck, f"has 15 {SPECIALS.what}; at most 14"
    deck["name"] = "n" * (NAME_LENGTH.high + 1)
    return deck, f"has {NAME_LENGTH.high + 1} {NAME_LENGTH.what}; at most {NAME_LENGTH.high}"


def _heuristic(draw) -> str:
    if draw(st.booleans()):
        return "heuristic"
    # every parameter at an end of the tuning box
    return "heuristic(" + ",".join(
        f"{k}={draw(st.sampled_from(PARAM_RANGES[k]))}" for k in PARAM_ORDER
    ) + ")"  # fmt: skip


@st.composite
def rule_options(draw, n: int) -> Rules:
    """Rule options, the what-ifs at the ends of their ranges."""
    entries = draw(st.sampled_from([0, 1, COMPENSATION_ENTRIES.high]))
    return Rules(
        first_slicer=draw(st.sampled_from([0, n - 1])),
        rejected_special=draw(st.sampled_from(["leaves", "bottom"])),
        dibs_slicer_may_use=draw(st.booleans()),
        dibs_closes_circle=draw(st.booleans()),
        sneak_may_leave_special_only=draw(st.booleans()),
        veggies_edible_later=draw(st.booleans()),
        supreme_from_combo=draw(st.booleans()),
        supreme_same_portion=draw(st.booleans()),
        supreme_late_any_type=draw(st.booleans()),
        seconds_with_supreme=draw(st.booleans()),
        seconds_supreme_alone=draw(st.booleans()),
        super_sized_combo_halves=draw(_ends(SUPER_SIZED_HALVES_LIMIT)),
        compensation=tuple(draw(_ends(COMPENSATION_POINTS)) for _ in range(entries)),
        stuffed_crust_points=draw(_ends(STUFFED_CRUST_LIMIT)),
        day_old_pizza_points=draw(_ends(DAY_OLD_LIMIT)),
        combo_cravings_points=draw(_ends(CRAVINGS_LIMIT)),
        you_love_veggies_points=draw(_ends(VEGGIES_LIMIT)),
        buffet_points=draw(_ends(BUFFET_LIMIT)),
    )


def _restricted(draw, spec: str) -> str:
    """The spec, now and then under restricted play: avoiding or forfeiting a special."""
    kind = draw(st.sampled_from([None, None, "avoid", "forfeit"]))
    if kind is None:
        return spec
    special = draw(st.sampled_from([s.slug for s in REAL_SPECIALS]))
    if spec.endswith(")"):
        return f"{spec[:-1]},{kind}={special})"
    return f"{spec}({kind}={special})"


@st.composite
def tables(draw, search: bool = False):
    """Players, seats' strategies (now and then restricted: ``avoid`` or ``forfeit``) and
    rule options."""
    if search:
        n = draw(st.integers(MIN_PLAYERS, 3 if VALIDATE else 2))
        specs = [draw(st.sampled_from(["random", "greedy", "heuristic"])) for _ in range(n)]
        specs[draw(st.integers(0, n - 1))] = "search(budget=1,cuts=1,width=1)"
        specs = [_restricted(draw, s) for s in specs]
    else:
        n = draw(st.integers(MIN_PLAYERS, MAX_PLAYERS))
        kinds = st.sampled_from(["random", "greedy", "heuristic"])
        specs = [(lambda k: _heuristic(draw) if k == "heuristic" else k)(draw(kinds))
                 for _ in range(n)]  # fmt: skip
        specs = [_restricted(draw, s) for s in specs]
    return n, specs, draw(rule_options(n))


# ----------------------------------------------------------------------------- the property
def _limit_named(err: DataFileError) -> bool:
    return any(f" {x.what}; " in str(err) for x in DECK_LIMITS)


def _play(deck, n, specs, rules, seed, games=1) -> None:
    runner = KernelRunner(deck, rules)
    for g in range(games):
        _compare(runner, n, specs, seed, g, rules, deck=deck)


@generated(quick=100, validate=3000)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_generated_decks_play_alike_on_both_engines_or_are_refused(data, seed):
    deck = data.draw(decks(), label="deck")
    fragment = None
    if data.draw(st.integers(0, 5), label="step past a limit") == 5:
        deck, fragment = data.draw(past_a_limit(deck), label="past a limit")
    try:
        parsed = load_text(deck_toml(deck))
    except DataFileError as err:
        assert isinstance(err, DeckError) and "\n" not in str(err)
        assert fragment is not None, f"a deck within the limits was refused: {err}"
        assert fragment in str(err), f"{err} (expected {fragment!r})"
        assert _limit_named(err)
        event("refused")
        return
    assert fragment is None, f"accepted a deck past a limit ({fragment!r})"
    n, specs, rules = data.draw(tables(), label="table")
    event(f"played at {n} players")
    _play(parsed, n, specs, rules, seed)


@generated(quick=2, validate=40)
@given(deck=decks(), table=tables(search=True), seed=st.integers(0, 2**32 - 1))
def test_generated_decks_play_alike_with_a_search_seat(deck, table, seed):
    n, specs, rules = table
    _play(load_text(deck_toml(deck)), n, specs, rules, seed)


# ----------------------------------------------------------------------------- boundaries
def _default_table() -> dict:
    import tomllib
    from importlib import resources

    text = resources.files("sims.games.nyslice").joinpath("data", "reconstructed_v1.toml")
    return tomllib.loads(text.read_text())


def _edit(fn) -> dict:
    deck = _default_table()
    fn(deck)
    return deck


def _set_all(key: str, value: int, kinds=("numbered", "supreme")):
    def fn(deck):
        for s in deck["slices"]:
            if s["kind"] in kinds and not (s["kind"] == "numbered" and s["type"] == VEGGIE):
                s[key] = value

    return fn


def _first(kind: str, **fields):
    def fn(deck):
        next(s for s in deck["slices"] if s["kind"] == kind).update(fields)

    return fn


def _drop(kind: str):
    def fn(deck):
        i = next(i for i, s in enumerate(deck["slices"]) if s["kind"] == kind)
        deck["slices"].pop(i)

    return fn


def _add(entry: dict):
    return lambda deck: deck["slices"].append(dict(entry))


# id, a deck at a limit (accepted and played), the limit
AT_LIMIT = [
    ("slices", _edit(lambda d: None), SLICES),
    ("combos", _edit(lambda d: next(s for s in d["slices"] if s["kind"] == "combo"
                                    and 8 not in s["types"]).update(types=[3, 11])), COMBOS),
    ("anchovy-slices", _edit(_first("anchovy", anchovies=ANCHOVIES.high)), ANCHOVY_SLICES),
    ("supreme-slices", _edit(_first("supreme", anchovies=ANCHOVIES.high)), SUPREME_SLICES),
    ("specials-all-blank", _edit(lambda d: d.update(specials=[BLANK_SLUG] * 14)), SPECIALS),
    ("pepperoni-most", _edit(_set_all("pepperoni", PEPPERONI.high)), PEPPERONI),
    ("pepperoni-fewest", _edit(_set_all("pepperoni", PEPPERONI.low, ("numbered",))), PEPPERONI),
    ("anchovies-most", _edit(_set_all("anchovies", ANCHOVIES.high,
                                      ("numbered", "combo", "anchovy", "supreme"))), ANCHOVIES),
    ("anchovies-fewest", _edit(_set_all("anchovies", ANCHOVIES.low, ("numbered", "anchovy"))),
     ANCHOVIES),
    ("supreme-pepperoni-fewest", _edit(_first("supreme", pepperoni=SUPREME_PEPPERONI.low)),
     SUPREME_PEPPERONI),
    ("supreme-pepperoni-most", _edit(_first("supreme", pepperoni=SUPREME_PEPPERONI.high)),
     SUPREME_PEPPERONI),
    ("name-longest", _edit(lambda d: d.update(name="n" * NAME_LENGTH.high)), NAME_LENGTH),
    ("name-shortest", _edit(lambda d: d.update(name="n")), NAME_LENGTH),
]  # fmt: skip
NUMBERED_5 = {"kind": "numbered", "type": 5, "pepperoni": 1, "anchovies": 0}
# id, a deck one past a limit, the limit, the fragment of its refusal
PAST_LIMIT = [
    # the slices are the sum of the other counts: one more is refused by its kind's count
    ("slices-70", _edit(_add(NUMBERED_5)), SLICES, "type 5 has 6 slices"),
    ("slices-68", _edit(_drop("numbered")), SLICES, "type 3 has 2 slices"),
    ("combos-5", _edit(_add({"kind": "combo", "types": [4, 5], "pepperoni": 0, "anchovies": 0})),
     COMBOS, "has 5 combo slices; at most 4"),
    ("combos-3", _edit(lambda d: d["slices"].pop(next(
        i for i, s in enumerate(d["slices"]) if s["kind"] == "combo" and 8 not in s["types"]))),
     COMBOS, "has 3 combo slices; at least 4"),
    ("anchovy-slices-2", _edit(_add({"kind": "anchovy", "pepperoni": 0, "anchovies": 1})),
     ANCHOVY_SLICES, "has 2 anchovy slices; at most 1"),
    ("anchovy-slices-0", _edit(_drop("anchovy")), ANCHOVY_SLICES,
     "has 0 anchovy slices; at least 1"),
    ("supreme-slices-2", _edit(_add({"kind": "supreme", "pepperoni": 1, "anchovies": 0})),
     SUPREME_SLICES, "has 2 supreme slices; at most 1"),
    ("supreme-slices-0", _edit(_drop("supreme")), SUPREME_SLICES,
     "has 0 supreme slices; at least 1"),
    ("specials-15", _edit(lambda d: d["specials"].append(BLANK_SLUG)), SPECIALS,
     "has 15 specials; at most 14"),
    ("specials-13", _edit(lambda d: d["specials"].pop()), SPECIALS,
     "has 13 specials; at least 14"),
    ("pepperoni-21", _edit(lambda d: d["slices"][5].update(pepperoni=PEPPERONI.high + 1)),
     PEPPERONI,
     "slice #6: has 21 pepperoni on a slice; at most 20"),
    ("pepperoni-minus-1", _edit(lambda d: d["slices"][5].update(pepperoni=-1)), PEPPERONI,
     "slice #6: has -1 pepperoni on a slice; at least 0"),
    ("anchovies-21", _edit(_first("anchovy", anchovies=ANCHOVIES.high + 1)), ANCHOVIES,
     "has 21 anchovies on a slice; at most 20"),
    ("anchovies-minus-1", _edit(lambda d: d["slices"][0].update(anchovies=-1)), ANCHOVIES,
     "slice #1: has -1 anchovies on a slice; at least 0"),
    ("supreme-pepperoni-0", _edit(_first("supreme", pepperoni=0)), SUPREME_PEPPERONI,
     "has 0 pepperoni on the supreme slice; at least 1"),
    # above the Supreme's limit is above every slice's
    ("supreme-pepperoni-21", _edit(_first("supreme", pepperoni=21)), SUPREME_PEPPERONI,
     "has 21 pepperoni on a slice; at most 20"),
    ("name-101", _edit(lambda d: d.update(name="n" * 101)), NAME_LENGTH,
     "'name': has 101 characters in a deck or type name; at most 100"),
    ("type-name-101", _edit(lambda d: d.update(type_names={"4": "n" * 101})), NAME_LENGTH,
     "type_names.4: has 101 characters in a deck or type name; at most 100"),
    ("name-empty", _edit(lambda d: d.update(name="")), NAME_LENGTH, "'name' must be a non-empty"),
]  # fmt: skip


def test_the_boundary_tables_cover_every_limit():
    assert {x.key for _, _, x in AT_LIMIT} == {x.key for x in DECK_LIMITS}
    assert {x.key for _, _, x, _ in PAST_LIMIT} == {x.key for x in DECK_LIMITS}
    assert {x.key for _, x, _ in RULES_AT_LIMIT} == {x.key for x in RULE_LIMITS}
    assert {x.key for _, x, _ in RULES_PAST_LIMIT} == {x.key for x in RULE_LIMITS}


@pytest.mark.parametrize("deck,limit", [c[1:] for c in AT_LIMIT], ids=[c[0] for c in AT_LIMIT])
def test_a_deck_at_a_limit_is_accepted_and_played_alike(deck, limit):
    parsed = load_text(deck_toml(deck))
    for n in (2, 5):
        _play(parsed, n, ["greedy", "heuristic", "random", "greedy", "heuristic"][:n], Rules(), 7)


@pytest.mark.parametrize(
    "deck,limit,fragment", [c[1:] for c in PAST_LIMIT], ids=[c[0] for c in PAST_LIMIT]
)
def test_a_deck_one_past_a_limit_is_refused_naming_it(deck, limit, fragment):
    with pytest.raises(DeckError) as info:
        load_text(deck_toml(deck))
    assert fragment in str(info.value) and "\n" not in str(info.value)


# id, the limit, the options at it (accepted and played)
RULES_AT_LIMIT = [
    ("first-slicer-0", FIRST_SLICER, {"first_slicer": 0}),
    ("first-slicer-5", FIRST_SLICER, {"first_slicer": FIRST_SLICER.high}),
    ("halves-1", SUPER_SIZED_HALVES_LIMIT, {"super_sized_combo_halves": 1}),
    ("halves-8", SUPER_SIZED_HALVES_LIMIT, {"super_sized_combo_halves": 8}),
    ("crust-minus-20", STUFFED_CRUST_LIMIT, {"stuffed_crust_points": -20}),
    ("crust-20", STUFFED_CRUST_LIMIT, {"stuffed_crust_points": 20}),
    ("day-old-minus-20", DAY_OLD_LIMIT, {"day_old_pizza_points": -20}),
    ("day-old-20", DAY_OLD_LIMIT, {"day_old_pizza_points": 20}),
    ("cravings-minus-6", CRAVINGS_LIMIT, {"combo_cravings_points": -6}),
    ("cravings-6", CRAVINGS_LIMIT, {"combo_cravings_points": 6}),
    ("veggies-minus-6", VEGGIES_LIMIT, {"you_love_veggies_points": -6}),
    ("veggies-6", VEGGIES_LIMIT, {"you_love_veggies_points": 6}),
    ("buffet-minus-3", BUFFET_LIMIT, {"buffet_points": -3}),
    ("buffet-3", BUFFET_LIMIT, {"buffet_points": 3}),
    ("compensation-0-entries", COMPENSATION_ENTRIES, {"compensation": ()}),
    ("compensation-6-entries", COMPENSATION_ENTRIES, {"compensation": (1, 2, 3, 4, 5, 6)}),
    ("compensation-0-points", COMPENSATION_POINTS, {"compensation": (0, 0, 1)}),
    ("compensation-20-points", COMPENSATION_POINTS, {"compensation": (20,) * 6}),
]
# id, the limit, the options one past it (refused naming the option)
RULES_PAST_LIMIT = [
    ("first-slicer-minus-1", FIRST_SLICER, {"first_slicer": -1}),
    ("first-slicer-6", FIRST_SLICER, {"first_slicer": FIRST_SLICER.high + 1}),
    ("halves-0", SUPER_SIZED_HALVES_LIMIT, {"super_sized_combo_halves": 0}),
    ("halves-9", SUPER_SIZED_HALVES_LIMIT, {"super_sized_combo_halves": 9}),
    ("crust-minus-21", STUFFED_CRUST_LIMIT, {"stuffed_crust_points": -21}),
    ("crust-21", STUFFED_CRUST_LIMIT, {"stuffed_crust_points": 21}),
    ("day-old-minus-21", DAY_OLD_LIMIT, {"day_old_pizza_points": -21}),
    ("day-old-21", DAY_OLD_LIMIT, {"day_old_pizza_points": 21}),
    ("cravings-minus-7", CRAVINGS_LIMIT, {"combo_cravings_points": -7}),
    ("cravings-7", CRAVINGS_LIMIT, {"combo_cravings_points": 7}),
    ("veggies-minus-7", VEGGIES_LIMIT, {"you_love_veggies_points": -7}),
    ("veggies-7", VEGGIES_LIMIT, {"you_love_veggies_points": 7}),
    ("buffet-minus-4", BUFFET_LIMIT, {"buffet_points": -4}),
    ("buffet-4", BUFFET_LIMIT, {"buffet_points": 4}),
    ("compensation-7-entries", COMPENSATION_ENTRIES, {"compensation": (1,) * 7}),
    ("compensation-minus-1", COMPENSATION_POINTS, {"compensation": (0, -1)}),
    ("compensation-21-points", COMPENSATION_POINTS, {"compensation": (21,)}),
]


@pytest.mark.parametrize(
    "limit,options", [c[1:] for c in RULES_AT_LIMIT], ids=[c[0] for c in RULES_AT_LIMIT]
)
def test_rule_options_at_a_limit_are_played_alike(limit, options):
    from sims.games.nyslice.deck import default_deck

    rules = Rules(**options)
    for n in (2, 6):
        if rules.first_slicer < n:  # the last seat of the largest table slices first at 6
            _play(default_deck(), n, (["greedy", "heuristic"] * 3)[:n], rules, 11)


@pytest.mark.parametrize(
    "limit,options", [c[1:] for c in RULES_PAST_LIMIT], ids=[c[0] for c in RULES_PAST_LIMIT]
)
def test_rule_options_one_past_a_limit_are_refused_naming_them(limit, options):
    ((name, value),) = options.items()
    with pytest.raises(SlicelabError) as info:
        Rules.from_dict({name: list(value) if isinstance(value, tuple) else value})
    msg = str(info.value)
    assert f"rule option {name}=" in msg and "\n" not in msg
    assert f"{limit.low} to {limit.high}" in msg or f"up to {limit.high}" in msg, msg
