"""Generated cakes and rule options (Hypothesis): every cake file a designer could write,
across the declared limits (``cake.CAKE_LIMITS``, ``rules.RULE_LIMITS``), plays the same
game on both engines, decision record for decision record and score row for score row,
or is refused up front by the parser with a :class:`~sims.core.errors.DataFileError`
naming the limit.

The files are written as TOML text from a generated structure (``cake.py`` has no writer)
and read back through the real parser (``load_cake``). Families: tiny (the fewest
varieties, exactly 55 slices), huge (every limit at its maximum), degenerate (every
variety alike, one copy each beside a large one, no cream, no value, cream or value at
their ends), and anything in between; a few values step one past a limit, to check the
refusal. Rule options are drawn at the ends of their ranges, players 2 to 5, seats from
``random``, ``greedy`` and ``heuristic`` (parameters at the ends of the tuning box).

``make test`` runs a few derandomized examples; ``make validate`` thousands, on a kernel
compiled with numba's bounds checking (``tests/generated.py``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from sims.core.errors import DataFileError
from sims.games.pieceocake.cake import (
    CAKE_LIMITS,
    COPIES,
    CREAM,
    SLICES,
    VALUE,
    VARIETIES,
    CakeError,
    load_cake,
)
from sims.games.pieceocake.heuristic import PARAM_ORDER, PARAM_RANGES
from sims.games.pieceocake.rules import (
    FIRST_SERVER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULE_LIMITS,
    TWO_PLAYER_PIECES_LIMIT,
    Rules,
)
from tests.games.pieceocake.test_pieceocake_kernel import compare
from tests.generated import generated

pytestmark = pytest.mark.generated

GAMES = 2
"""Games per generated example (each on both engines)."""


# ----------------------------------------------------------------------------- writing
def cake_toml(name: str, varieties: list[dict]) -> str:
    """A cake file's text: ``name`` and a ``[[variety]]`` table per dict (its keys in
    order; a missing ``value`` is left out, so it defaults to ``copies``)."""
    lines = [f'name = "{name}"']
    for v in varieties:
        lines += ["", "[[variety]]"]
        for key, val in v.items():
            lines.append(f'{key} = "{val}"' if isinstance(val, str) else f"{key} = {val}")
    return "\n".join(lines) + "\n"


def load_text(text: str):
    """``load_cake`` of a file holding ``text`` (the real file path)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.toml"
        path.write_text(text, encoding="utf-8")
        return load_cake(path)


# ----------------------------------------------------------------------------- strategies
NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12)


def _ends(limit) -> st.SearchStrategy[int]:
    """A value within ``limit``: often an end, else anything in it."""
    return st.one_of(st.sampled_from([limit.low, limit.high]), st.integers(limit.low, limit.high))


def _fill(copies: list[int]) -> list[int]:
    """``copies`` raised, first varieties first, until they hold the slices a game lays."""
    out = list(copies)
    for i in range(len(out)):
        short = SLICES.low - sum(out)
        if short <= 0:
            break
        out[i] = min(COPIES.high, out[i] + short)
    return out


@st.composite
def cakes(draw) -> list[dict]:
    """A cake's varieties (dicts in file order), from one of the families; only "short"
    may hold fewer slices than a game lays (the parser refuses it)."""
    family = draw(st.sampled_from(["tiny", "huge", "alike", "singles", "flat", "any", "short"]))
    if family == "tiny":  # the fewest varieties, exactly the slices a game lays
        first = draw(st.integers(SLICES.low - COPIES.high, COPIES.high))
        copies = [first, SLICES.low - first]
    elif family == "huge":  # every variety, every copy
        copies = [COPIES.high] * VARIETIES.high
    elif family == "alike":
        nv = draw(_ends(VARIETIES))
        copies = [max(-(-SLICES.low // nv), draw(st.integers(COPIES.low, COPIES.high)))] * nv
    elif family == "singles":  # one copy each beside a few large varieties
        nv = draw(st.integers(VARIETIES.low, VARIETIES.high))
        big = [COPIES.high] * draw(st.integers(2, 3))
        copies = _fill(big + [COPIES.low] * max(0, nv - len(big)))
    else:
        nv = draw(_ends(VARIETIES))
        copies = draw(st.lists(_ends(COPIES), min_size=nv, max_size=nv))
        if family != "short":
            copies = _fill(copies)
    if family in ("flat", "alike"):
        extras = [(draw(_ends(CREAM)), draw(st.one_of(st.none(), _ends(VALUE))))] * len(copies)
    else:
        extras = [(draw(_ends(CREAM)), draw(st.one_of(st.none(), _ends(VALUE)))) for _ in copies]
    names = [f"{draw(NAMES)}-{i}" for i in range(len(copies))]  # distinct by their suffix
    out = []
    for name, c, (cream, value) in zip(names, copies, extras, strict=True):
        entry = {"name": name, "copies": c, "cream": cream}
        if value is not None:
            entry["value"] = value
        out.append(entry)
    return out


@st.composite
def past_a_limit(draw, varieties: list[dict]) -> list[dict]:
    """``varieties`` with one count stepped one past a limit (a file to refuse)."""
    out = [dict(v) for v in varieties]
    key = draw(st.sampled_from(["varieties", "copies", "value", "cream"]))
    if key == "varieties":
        if len(out) < VARIETIES.high:
            return out[:1]  # one variety: too few (and too few slices)
        return out + [{"name": "extra" * 3, "copies": 1, "cream": 0}]
    limit = {"copies": COPIES, "value": VALUE, "cream": CREAM}[key]
    i = draw(st.integers(0, len(out) - 1))
    out[i][key] = draw(st.sampled_from([limit.low - 1, limit.high + 1]))
    return out


def _strategy(draw) -> str:
    kind = draw(st.sampled_from(["random", "greedy", "heuristic", "tuned"]))
    if kind != "tuned":
        return kind
    params = ",".join(
        f"{k}={draw(st.sampled_from(PARAM_RANGES[k]))}" for k in PARAM_ORDER
    )  # every parameter at an end of the tuning box
    return f"heuristic({params})"


@st.composite
def tables(draw):
    """Players, seats' strategies and rule options at the ends of their ranges."""
    n = draw(st.integers(MIN_PLAYERS, MAX_PLAYERS))
    specs = [_strategy(draw) for _ in range(n)]
    rules = Rules(
        first_server=draw(st.sampled_from([0, n - 1])),
        two_player_pieces=draw(_ends(TWO_PLAYER_PIECES_LIMIT)),
        two_player_order=draw(st.sampled_from(["alternate", "snake"])),
        forgo_ends_picking=draw(st.booleans()),
        forgo_eats=draw(st.sampled_from(["all", "choose", "none"])),
        majority_ties=draw(st.sampled_from(["full", "none", "split"])),
        tie=draw(st.sampled_from(["shared", "cream"])),
        exact_pieces=draw(st.booleans()),
        forced_forgo_after_take=draw(st.booleans()),
    )
    return n, specs, rules


# ----------------------------------------------------------------------------- the property
def _limit_named(err: DataFileError) -> bool:
    return any(f" {x.what}; " in str(err) for x in CAKE_LIMITS)


@generated(quick=150, validate=3000)
@given(data=st.data(), table=tables(), seed=st.integers(0, 2**32 - 1))
def test_generated_cakes_play_alike_on_both_engines_or_are_refused(data, table, seed):
    varieties = data.draw(cakes(), label="varieties")
    if data.draw(st.integers(0, 5), label="step past a limit") == 5:
        varieties = data.draw(past_a_limit(varieties), label="past a limit")
    text = cake_toml("generated cake", varieties)
    try:
        cake = load_text(text)
    except DataFileError as err:
        assert isinstance(err, CakeError) and "\n" not in str(err)
        assert _limit_named(err), f"refused without naming a limit: {err}"
        event(f"refused: {str(err).split('; ')[0].split(': has ')[-1].split(' ', 1)[-1]}")
        return
    n, specs, rules = table
    event(f"played: {len(cake.varieties)} varieties")
    compare(n, specs, seed, GAMES, rules=rules, cake=cake)


@generated(quick=30, validate=1000)
@given(varieties=cakes(), seed=st.integers(0, 2**32 - 1))
def test_generated_valid_cakes_are_accepted_and_played(varieties, seed):
    """Every family but "short" is accepted as written (and played alike)."""
    text = cake_toml("generated cake", varieties)
    if sum(v["copies"] for v in varieties) < SLICES.low:
        with pytest.raises(CakeError, match=" slices in the cake; at least "):
            load_text(text)
        return
    cake = load_text(text)
    assert [v.copies for v in cake.varieties] == [v["copies"] for v in varieties]
    assert [v.value for v in cake.varieties] == [v.get("value", v["copies"]) for v in varieties]
    n = 2 + seed % (MAX_PLAYERS - 1)
    compare(n, ["greedy", "heuristic", "random", "heuristic", "greedy"][:n], seed, 1, cake=cake)


# ----------------------------------------------------------------------------- boundaries
def _base(per: int = 8, n: int = 7, **fields) -> list[dict]:
    """n varieties of ``per`` copies (56 slices by default), the first with ``fields``."""
    out = [{"name": f"v{chr(97 + i)}", "copies": per, "cream": 1} for i in range(n)]
    out[0].update(fields)
    return out


def _cut_to(total: int, n: int) -> list[dict]:
    """n varieties holding ``total`` slices, as even as the copies limit allows."""
    copies = [total // n + (i < total % n) for i in range(n)]
    return [{"name": f"v{chr(97 + i)}", "copies": c, "cream": 2} for i, c in enumerate(copies)]


# id, the cake's varieties at a limit (accepted and played), the limit
AT_LIMIT = [
    ("varieties-fewest", _cut_to(SLICES.low, VARIETIES.low), VARIETIES),
    ("varieties-most", _base(per=4, n=VARIETIES.high), VARIETIES),
    ("slices-fewest", _cut_to(SLICES.low, 5), SLICES),
    ("slices-most", _base(per=COPIES.high, n=VARIETIES.high), SLICES),
    ("copies-fewest", _base() + [{"name": "w", "copies": COPIES.low, "cream": 1}],
     COPIES),
    ("copies-most", _base(copies=COPIES.high), COPIES),
    ("value-fewest", _base(value=VALUE.low), VALUE),
    ("value-most", _base(value=VALUE.high), VALUE),
    ("cream-fewest", _base(cream=CREAM.low), CREAM),
    ("cream-most", _base(cream=CREAM.high), CREAM),
]  # fmt: skip
# id, the cake's varieties one past a limit (refused naming it), the limit, the value
PAST_LIMIT = [
    ("varieties-too-few", [{"name": "v", "copies": COPIES.high, "cream": 1}], VARIETIES, 1),
    ("varieties-too-many", _base(per=4, n=VARIETIES.high + 1), VARIETIES, 17),
    ("slices-too-few", _cut_to(SLICES.low - 1, 5), SLICES, SLICES.low - 1),
    ("copies-too-few", _base() + [{"name": "w", "copies": 0, "cream": 1}],
     COPIES, 0),
    ("copies-too-many", _base(copies=COPIES.high + 1), COPIES, 31),
    ("value-too-low", _base(value=VALUE.low - 1), VALUE, -1),
    ("value-too-high", _base(value=VALUE.high + 1), VALUE, VALUE.high + 1),
    ("cream-too-low", _base(cream=CREAM.low - 1), CREAM, -1),
    ("cream-too-high", _base(cream=CREAM.high + 1), CREAM, CREAM.high + 1),
]  # fmt: skip


def test_the_boundary_tables_cover_every_cake_limit():
    assert {x.key for _, _, x in AT_LIMIT} == {x.key for x in CAKE_LIMITS}
    assert {x.key for _, _, x, _ in PAST_LIMIT} == {x.key for x in CAKE_LIMITS}
    # the most slices cannot be exceeded: it is the most varieties of the most copies
    assert SLICES.high == VARIETIES.high * COPIES.high


@pytest.mark.parametrize("varieties,limit", [c[1:] for c in AT_LIMIT], ids=[c[0] for c in AT_LIMIT])
def test_a_cake_at_a_limit_is_accepted_and_played_alike(varieties, limit):
    cake = load_text(cake_toml("at the limit", varieties))
    found = {
        "varieties": [len(cake.varieties)],
        "slices": [cake.n_slices],
        "copies": [v.copies for v in cake.varieties],
        "value": [v.value for v in cake.varieties],
        "cream": [v.cream for v in cake.varieties],
    }[limit.key]
    assert {limit.low, limit.high} & set(found), f"{limit.key}: {found}"
    for n in (2, 5):
        compare(n, ["greedy", "heuristic", "random", "greedy", "heuristic"][:n], 7, 1, cake=cake)


@pytest.mark.parametrize(
    "varieties,limit,value", [c[1:] for c in PAST_LIMIT], ids=[c[0] for c in PAST_LIMIT]
)
def test_a_cake_one_past_a_limit_is_refused_naming_it(varieties, limit, value):
    with pytest.raises(CakeError) as info:
        load_text(cake_toml("past the limit", varieties))
    msg = str(info.value)
    bound = f"at most {limit.high}" if value > limit.high else f"at least {limit.low}"
    assert f"has {value} {limit.what}; {bound}" in msg, msg
    assert "\n" not in msg


# id, the limit, the option at it (accepted and played alike)
RULES_AT_LIMIT = [
    ("first-server-0", FIRST_SERVER, {"first_server": FIRST_SERVER.low}),
    ("first-server-4", FIRST_SERVER, {"first_server": FIRST_SERVER.high}),
    ("two-player-pieces-2", TWO_PLAYER_PIECES_LIMIT, {"two_player_pieces": 2}),
    ("two-player-pieces-6", TWO_PLAYER_PIECES_LIMIT, {"two_player_pieces": 6}),
]
# id, the limit, the option one past it (refused naming the option)
RULES_PAST_LIMIT = [
    ("first-server-minus-1", FIRST_SERVER, {"first_server": FIRST_SERVER.low - 1}),
    ("first-server-5", FIRST_SERVER, {"first_server": FIRST_SERVER.high + 1}),
    ("two-player-pieces-1", TWO_PLAYER_PIECES_LIMIT, {"two_player_pieces": 1}),
    ("two-player-pieces-7", TWO_PLAYER_PIECES_LIMIT, {"two_player_pieces": 7}),
]


def test_the_rule_tables_cover_every_rule_limit():
    assert {x.key for _, x, _ in RULES_AT_LIMIT} == {x.key for x in RULE_LIMITS}
    assert {x.key for _, x, _ in RULES_PAST_LIMIT} == {x.key for x in RULE_LIMITS}


@pytest.mark.parametrize(
    "limit,options", [c[1:] for c in RULES_AT_LIMIT], ids=[c[0] for c in RULES_AT_LIMIT]
)
def test_rule_options_at_a_limit_are_played_alike(limit, options):
    rules = Rules(**options)
    for n in (2, MAX_PLAYERS):
        if rules.first_server < n:  # the last seat of the largest table serves first at 5
            compare(n, ["greedy", "heuristic", "random", "greedy", "heuristic"][:n], 8, 2,
                    rules=rules)  # fmt: skip
            compare(n, ["random"] * n, 9, 4, rules=rules)


@pytest.mark.parametrize(
    "limit,options", [c[1:] for c in RULES_PAST_LIMIT], ids=[c[0] for c in RULES_PAST_LIMIT]
)
def test_rule_options_one_past_a_limit_are_refused_naming_them(limit, options):
    from sims.core.errors import SlicelabError

    ((name, value),) = options.items()
    for make in (lambda: Rules(**options), lambda: Rules.from_dict(options)):
        with pytest.raises(SlicelabError) as info:
            make()
        msg = str(info.value)
        assert f"rule option {name}={value}: " in msg and "\n" not in msg
        assert f"from {limit.low} to {limit.high}" in msg, msg
