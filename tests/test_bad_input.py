"""Malformed input is refused cleanly: a table of bad study files, deck files, strategy
specs, flags and dataset directories, each run in a fresh empty working directory.

Every case must end with exit status 2 and no traceback, print a message holding a
fragment that names the problem, and write nothing: no file appears in the working
directory besides the case's own inputs, an ``--out`` that did not exist still does not,
and one that did is unchanged.

Two styles of message:

- ``error``: slicelab's own refusal, exactly one line ``error: ...``;
- ``usage``: a malformed command line that click refuses itself ("Usage: ... Error: ..."),
  accepted in click's format (or as slicelab's one ``error:`` line).

Most cases run in this process (``click.testing.CliRunner``). A few run as a real process
with a time limit (and, where a bad plan could eat memory, an address-space limit): a
huge chunk plan, a games count that overflows after scaling, ``--jobs 1000``, the Dask
backend, an endless search budget, and a Python strategy that would end the process.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import os
import re
import signal
import subprocess
import sys
import tomllib
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sims.cli import cli

ROOT = Path(__file__).resolve().parent.parent
DECK_FILE = ROOT / "sims" / "games" / "nyslice" / "data" / "reconstructed_v1.toml"
BASE_DECK = tomllib.loads(DECK_FILE.read_text(encoding="utf-8"))
DROP = object()
"""A value meaning "leave this key out"."""
DIR = object()
"""An input that is a directory rather than a file."""
GIB = 2**30

# ----------------------------------------------------------------------------- TOML


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def toml_value(v: Any) -> str:
    """``v`` as a TOML value (inline tables and arrays; nan and inf as TOML writes them)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        inner = ", ".join(f"{_key(str(k))} = {toml_value(x)}" for k, x in v.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(v)


def toml_doc(data: dict) -> str:
    """A TOML document of ``key = value`` lines (keys set to DROP left out)."""
    return "".join(f"{_key(k)} = {toml_value(v)}\n" for k, v in data.items() if v is not DROP)


ARM = {"name": "a", "game": "nyslice", "players": 2, "strategies": "greedy", "games": 5}
"""A valid arm: 5 greedy games at 2 players (cases change one thing in it)."""


BALANCE = {
    "game": "nyslice",
    "players": [4],
    "field": "greedy",
    "tolerance": 1.0,
    "settings": ["a"],
    "base": "a",
    "changes": ["no change"],
    "sizes": [0.0],
}
"""A balance check's ``[variant]`` table naming the one-arm study's block ``a``."""


def study(top: dict | None = None, arm: dict | None = None, arms: list | None = None) -> str:
    """A study file's text: a valid one-arm study with ``top`` and ``arm`` changes."""
    if arms is None:
        block = {**ARM, **(arm or {})}
        arms = [{k: v for k, v in block.items() if v is not DROP}]
    return toml_doc({"name": "s", "seed": 1, **(top or {}), "arms": arms})


def deck(change: Callable[[dict], None] | None = None) -> str:
    """The default deck's text after ``change`` edits its parsed form."""
    data = copy.deepcopy(BASE_DECK)
    if change:
        change(data)
    return toml_doc(data)


def _slice(kind: str, type_: int | None = None) -> Callable[[list], dict]:
    def pick(slices: list) -> dict:
        return next(
            s for s in slices if s["kind"] == kind and (type_ is None or s.get("type") == type_)
        )

    return pick


def edit_slice(which: str, type_: int | None = None, /, **values: Any) -> Callable[[dict], None]:
    """Change (or, with DROP, remove) fields of the first slice of a kind (and type)."""

    def change(d: dict) -> None:
        s = _slice(which, type_)(d["slices"])
        for k, v in values.items():
            if v is DROP:
                s.pop(k, None)
            else:
                s[k] = v

    return change


def drop_slice(which: str, type_: int | None = None, /) -> Callable[[dict], None]:
    def change(d: dict) -> None:
        d["slices"].remove(_slice(which, type_)(d["slices"]))

    return change


def add_slice(entry: dict) -> Callable[[dict], None]:
    def change(d: dict) -> None:
        d["slices"].append(entry)

    return change


def set_key(key: str, value: Any) -> Callable[[dict], None]:
    def change(d: dict) -> None:
        if value is DROP:
            d.pop(key, None)
        else:
            d[key] = value

    return change


def specials(fn: Callable[[list], list]) -> Callable[[dict], None]:
    def change(d: dict) -> None:
        d["specials"] = fn(list(d["specials"]))

    return change


# ---------------------------------------------------------------------------- cases


@dataclass
class Case:
    """One malformed input: the command line, the files it reads, what must be said."""

    id: str
    args: list[str]
    fragment: str | tuple[str, ...]  # one of these must appear in the output (any case)
    files: dict[str, Any] = field(default_factory=dict)  # relative path -> text, bytes or DIR
    out: str | None = None  # the --out the case gives, relative to the working directory
    usage: bool = False  # click's own usage error (its format accepted)
    proc: bool = False  # run as a real process (with a time limit)
    timeout: float = 60.0
    memory: int = 0  # address-space limit of the process, bytes (0: none)
    env: dict[str, str] = field(default_factory=dict)
    readonly: str | None = None  # a directory made read-only before the run (not as root)


CASES: list[Case] = []


def add(*cases: Case) -> None:
    CASES.extend(cases)


def flags(base: dict[str, str | None], over: dict[str, Any] | None) -> list[str]:
    """``--flag value`` pairs from a dict (None leaves a flag out; a list repeats it)."""
    args: list[str] = []
    for k, v in {**base, **(over or {})}.items():
        if v is None:
            continue
        for x in v if isinstance(v, list) else [v]:
            args += [k, x]
    return args


def sim(over: dict | None = None, *extra: str) -> list[str]:
    base = {"--players": "2", "--games": "5", "--out": "o"}
    return ["simulate", "nyslice", *flags(base, over), *extra]


def replay(over: dict | None = None, *extra: str) -> list[str]:
    return ["replay", "nyslice", *flags({"--players": "2"}, over), *extra]


def play(over: dict | None = None, *extra: str) -> list[str]:
    return ["play", "nyslice", *flags({"--players": "2", "--games": "5"}, over), *extra]


def tune(over: dict | None = None, *extra: str) -> list[str]:
    base = {"--players": "2", "--candidates": "2", "--games": "1", "--validation-games": "10"}
    return ["tune", "nyslice", *flags(base, over), *extra]


def demo(over: dict | None = None, *extra: str) -> list[str]:
    return ["demo", "nyslice", *flags({"--games": "5"}, over), *extra]


STUDY = "{cwd}/s.toml"
"""The study file, by its absolute path: a relative deck path in it is then absolute too, so
no case meets a deck another case loaded under the same relative name in this process."""


def st(id_: str, text: str | bytes, fragment, *extra: str, **kw) -> Case:
    """``slicelab study s.toml`` on a study file's text."""
    files = {"s.toml": text, **kw.pop("files", {})}
    return Case(f"study-{id_}", ["study", STUDY, *extra], fragment, files=files, **kw)


def arm(id_: str, fragment, **changes) -> Case:
    """A study whose one arm has ``changes``."""
    return st(f"arm-{id_}", study(arm=changes), fragment)


def top(id_: str, fragment, *extra: str, **changes) -> Case:
    """A study with top-level ``changes``."""
    return st(f"top-{id_}", study(top=changes), fragment, *extra)


def spec(id_: str, text: str, fragment=None) -> Case:
    """A study whose arm's strategy spec is ``text`` (the fragment defaults to the spec)."""
    return arm(f"spec-{id_}", fragment or text, strategies=text)


def deck_case(id_: str, content: str | bytes, fragment) -> Case:
    """A study whose arm plays the deck file ``d.toml`` holding ``content``."""
    return st(f"deck-{id_}", study(arm={"deck": "d.toml"}), fragment, files={"d.toml": content})


def rules_case(id_: str, rules: Any, fragment, players: int = 2) -> Case:
    return arm(f"rules-{id_}", fragment, rules=rules, players=players)


def blank_case(id_: str, blank: Any, fragment, players: int = 2) -> Case:
    return arm(f"blank-{id_}", fragment, blank=blank, players=players)


UTF8 = ("utf-8", "utf8")
TWICE = ("twice", "duplicate", "more than once")
ALLOW = "allow-code"
NO_JOBLIB_PROCESSES = {"JOBLIB_MULTIPROCESSING": "0"}
"""Where ``--jobs 1000`` might not be refused, joblib runs in-process instead of starting
1000 workers (joblib.cpu_count() is then 1, hence the fragment "core", not "cores")."""
try:
    from sims.dataset import FORMAT as MANIFEST_FORMAT
except ImportError:  # the manifest's format number, wherever it is defined
    MANIFEST_FORMAT = 2


def manifest(name: str = "other", arms: list | None = None, **extra: Any) -> str:
    """A well-formed manifest of a study ``name`` with no chunks (so, complete)."""
    return json.dumps({
        "format": MANIFEST_FORMAT, "study_name": name, "study_hash": "0" * 16,
        "study": {"name": name, "seed": 1, "chunk_size": 10000, "arms": arms or []},
        "fingerprints": {}, "chunks": [], "complete": True, **extra,
    })  # fmt: skip


OTHER_MANIFEST = manifest()
ANOTHER_STUDY = ("another study", "'other'")
VALID = study()

# --- study files: the file itself ----------------------------------------------------
add(
    st("not-toml-unclosed-value", "seed = \n", "TOML"),
    st("not-toml-unclosed-table", "seed = 1\n[[arms]\n", "TOML"),
    st("not-toml-prose", "this is not a study\n", "TOML"),
    st("not-toml-duplicate-key", "seed = 1\nseed = 2\n" + VALID.split("\n", 2)[2], "TOML"),
    st("not-toml-json", json.dumps({"seed": 1, "arms": [ARM]}), "TOML"),
    st("not-toml-nul-byte", "seed = 1\x00\n", "TOML"),
    st("not-utf8-latin1", VALID.encode() + b"# caf\xe9\n", UTF8),
    st("not-utf8-utf16", VALID.encode("utf-16"), UTF8),
    st("not-utf8-binary", bytes(range(128, 256)) * 4, UTF8),
    st("empty", "", ("empty", "seed")),
    st("whitespace-only", "  \n\n\t\n", ("empty", "seed")),
    st("comment-only", "# nothing here\n", ("empty", "seed")),
    Case("study-missing-file", ["study", "nope.toml"], "no such file"),
    Case("study-file-is-dir", ["study", "sd"], "is a directory", files={"sd": DIR}, usage=True),
)

# --- study files: top-level keys -----------------------------------------------------
add(
    top("name-300-characters", "at most 200", name="s" * 300),
    top("seed-missing", "seed", seed=DROP),
    top("seed-negative", "seed", seed=-1),
    top("seed-2to32", "seed", seed=2**32),
    top("seed-2to64", "seed", seed=2**64),
    top("seed-float", "seed", seed=1.5),
    top("seed-float-integral", "seed", seed=1.0),
    top("seed-string", "seed", seed="1"),
    top("seed-bool", "seed", seed=True),
    top("seed-list", "seed", seed=[1]),
    top("name-space", "name", name="a b"),
    top("name-slash", "name", name="a/b"),
    top("name-dotdot", "name", name="../up"),
    top("name-backslash", "name", name="a\\b"),
    top("name-empty", "name", name=""),
    top("name-leading-dot", "name", name=".hidden"),
    top("name-int", "name", name=5),
    top("name-300-chars", ("name", "too long"), name="n" * 300),
    top("chunk-size-0", "chunk_size", chunk_size=0),
    top("chunk-size-negative", "chunk_size", chunk_size=-1),
    top("chunk-size-1e9", "chunk_size", chunk_size=10**9),
    top("chunk-size-float", "chunk_size", chunk_size=1.5),
    top("chunk-size-string", "chunk_size", chunk_size="10"),
    top("chunk-size-bool", "chunk_size", chunk_size=True),
    top("decisions-string", "decisions", decisions="yes"),
    top("decisions-int", "decisions", decisions=1),
    top("decisions-string-true", "decisions", decisions="true"),
    top("decisions-list", "decisions", decisions=[True]),
    top("description-int", "description", description=5),
    top("description-list", "description", description=["x"]),
    top("description-table", "description", description={"a": 1}),
    top("sizes-string", "sizes", sizes="quick"),
    top("sizes-list", "sizes", sizes=[0.1]),
    top("sizes-zero", "sizes", sizes={"quick": 0}),
    top("sizes-negative", "sizes", sizes={"quick": -1}),
    top("sizes-string-factor", "sizes", sizes={"quick": "x"}),
    top("sizes-bool-factor", "sizes", sizes={"quick": True}),
    top("sizes-table-factor", "sizes", sizes={"quick": {"a": 1}}),
    top("sizes-nan", "sizes", sizes={"quick": math.nan}),
    top("sizes-inf", "size", "--size", "quick", sizes={"quick": math.inf}),
    top("size-unknown", "no size", "--size", "nope", sizes={"quick": 0.5}),
    top("size-without-sizes", "no size", "--size", "quick"),
    top("size-empty-name", "size", "--size", "", sizes={"quick": 0.5}),
    top("allow-code-string", "allow_code", allow_code="yes"),
    top("allow-code-int", "allow_code", allow_code=1),
    top("unknown-key-arm", "unknown key", arm={"name": "x"}),
    top("unknown-key-Seed", "unknown key", Seed=1),
    top("unknown-key-chunksize", "unknown key", chunksize=10),
    top("unknown-key-deck", "unknown key", deck="d.toml"),
    st("arms-missing", toml_doc({"name": "s", "seed": 1}), "arms"),
    st("arms-empty", study(arms=[]), "arms"),
    st("arms-string", toml_doc({"name": "s", "seed": 1, "arms": "x"}), "arms"),
    st("arms-table", 'name = "s"\nseed = 1\n[arms]\nname = "a"\n', "arms"),
    st("arms-of-ints", study(arms=[1]), "arms"),
    st("arms-of-strings", study(arms=["a"]), "arms"),
    # the scaled games exceed the limit (5e9 games): refused, never started
    st(
        "size-overflows-games",
        study(top={"sizes": {"big": 1e9}}),
        "games",
        "--size",
        "big",
        proc=True,
        timeout=30,
        memory=6 * GIB,
    ),  # fmt: skip
)

# --- study files: arm blocks ---------------------------------------------------------
add(
    *(arm(f"missing-{k}", f"'{k}'", **{k: DROP}) for k in ARM),
    arm("name-space", "name", name="a b"),
    arm("name-slash", "name", name="x/y"),
    arm("name-int", "name", name=3),
    arm("name-empty", "name", name=""),
    arm("game-unknown", "unknown game", game="chess"),
    arm("game-uppercase", "unknown game", game="NYSLICE"),
    arm("game-int", "game", game=1),
    arm("players-1", "players", players=1),
    arm("players-7", "players", players=7),
    arm("players-0", "players", players=0),
    arm("players-negative", "players", players=-2),
    arm("players-float", "players", players=4.0),
    arm("players-string", "players", players="4"),
    arm("players-bool", "players", players=True),
    arm("players-table", "players", players={"2": 1}),
    arm("players-list-duplicates", "players", players=[2, 2]),
    arm("players-list-empty", "players", players=[]),
    arm("players-list-out-of-range", "players", players=[2, 7]),
    arm("players-list-of-one", "players", players=[1]),
    arm("players-list-mixed", "players", players=[2, "3"]),
    arm("games-table-extra-count", "'games' has entries for 7 players",
        players=[2, 3], games={"2": 10, "3": 10, "7": 5}),
    arm("games-table-for-one-count", "'games' has entries for 3 players",
        players=2, games={"2": 10, "3": 10}),
    arm("name-300-characters", "at most 200", name="a" * 300),
    arm("name-with-suffixes-too-long", "at most 200", name="b" * 198, players=[2, 3]),
    arm("games-0", "games", games=0),
    arm("games-negative", "games", games=-1),
    arm("games-float-1e9", "games", games=1e9),
    arm("games-float", "games", games=2.5),
    arm("games-nan", "games", games=math.nan),
    arm("games-inf", "games", games=math.inf),
    arm("games-2to32", "games", games=2**32),
    arm("games-2to63", "games", games=2**63 - 1),
    arm("games-string", "games", games="5"),
    arm("games-bool", "games", games=True),
    arm("games-list", "games", games=[5]),
    arm("games-table-no-entry", "games", games={"3": 5}),
    arm("games-table-zero", "games", games={"2": 0}),
    arm("games-table-float", "games", games={"2": 1.5}),
    arm("seed-negative", "seed", seed=-1),
    arm("seed-2to32", "seed", seed=2**32),
    arm("seed-string", "seed", seed="1"),
    arm("strategies-empty-list", "strategies", strategies=[]),
    arm("strategies-too-many", "3 specs", strategies=["greedy"] * 3),
    arm("strategies-too-few", "2 specs", strategies=["greedy", "random"], players=4),
    arm("strategies-too-many-for-a-count", "3 specs", strategies=["greedy"] * 3,
        players=[2, 4]),  # fmt: skip
    arm("strategies-int", "strategies", strategies=5),
    arm("strategies-list-of-ints", "strategies", strategies=[1, 2]),
    arm("strategies-list-mixed", "strategies", strategies=["greedy", 3]),
    arm("strategies-table", "strategies", strategies={"a": "greedy"}),
    arm("engine-unknown", "engine", engine="fast"),
    arm("engine-uppercase", "engine", engine="KERNEL"),
    arm("engine-empty", "engine", engine=""),
    arm("engine-int", "engine", engine=1),
    # Every built-in strategy plays in the kernel (search too); code strategies do not.
    st("arm-engine-kernel-with-code",
       study(top={"allow_code": True}, arm={"engine": "kernel", "games": 1,
                                            "strategies": "tests.example_strategies:FirstLegal"}),
       "engine"),  # fmt: skip
    arm("rotate-string", "rotate", rotate="yes"),
    arm("rotate-int", "rotate", rotate=1),
    arm("decisions-string", "decisions", decisions="no"),
    arm("decisions-int", "decisions", decisions=0),
    arm("grid-int", "grid", grid=1, strategies="heuristic(theta={theta})"),
    arm("grid-empty", "grid", grid={}, strategies="heuristic(theta={theta})"),
    arm("grid-list", "grid", grid=[0.5], strategies="heuristic(theta={theta})"),
    arm("grid-empty-values", "grid", grid={"theta": []}, strategies="heuristic(theta={theta})"),
    arm("grid-scalar-values", "grid", grid={"theta": 0.5}, strategies="heuristic(theta={theta})"),
    arm("grid-bool-values", "grid", grid={"theta": [True]}, strategies="heuristic(theta={theta})"),
    arm("grid-nested-values", "grid", grid={"theta": [[1]]},
        strategies="heuristic(theta={theta})"),  # fmt: skip
    arm("grid-without-placeholder", "placeholder", grid={"theta": [0.5]}),
    arm("placeholder-without-grid", "placeholder", strategies="heuristic(theta={theta})"),
    arm("placeholder-other-key", "placeholder", grid={"theta": [0.5]},
        strategies="heuristic(theta={x})"),  # fmt: skip
    arm("grid-key-with-space", ("placeholder", "grid"), grid={"bad key": [1]},
        strategies="heuristic(theta={theta})"),  # fmt: skip
    arm("grid-string-value", "theta", grid={"theta": ["abc"]},
        strategies="heuristic(theta={theta})"),  # fmt: skip
    arm("grid-nan-value", "theta", grid={"theta": [math.nan]},
        strategies="heuristic(theta={theta})"),  # fmt: skip
    arm("unknown-key-player", "unknown key", player=2),
    arm("unknown-key-rule", "unknown key", rule={"veggies_edible_later": True}),
    arm("unknown-key-Deck", "unknown key", Deck="d.toml"),
    arm("unknown-key-strategy", "unknown key", strategy="greedy"),
    st("arm-not-a-table", study(arms=[ARM, "x"]), ("table", "arms")),
    st("arm-names-twice", study(arms=[ARM, ARM]), TWICE),
    st("arm-names-twice-after-expansion", study(arms=[{**ARM, "name": "a.p2"},
                                                      {**ARM, "players": [2, 3]}]), TWICE),
    st("arm-names-twice-after-rotation", study(arms=[{**ARM, "name": "a.r0"},
                                                     {**ARM, "rotate": True}]), TWICE),
)  # fmt: skip

# --- strategy specs (in a study file) ------------------------------------------------
add(
    spec("unknown", "clever"),
    spec("empty", "", "strateg"),
    spec("blank", "   ", "strateg"),
    spec("greedy-unknown-param", "greedy(x=1)", "no parameter"),
    spec("random-unknown-param", "random(theta=1)", "no parameter"),
    spec("heuristic-wrong-case-param", "heuristic(Theta=1)", "no parameter"),
    spec("theta-nan", "heuristic(theta=nan)", "theta"),
    spec("theta-inf", "heuristic(theta=inf)", "theta"),
    spec("theta-minus-inf", "heuristic(theta=-inf)", "theta"),
    spec("theta-negative", "heuristic(theta=-1)", "theta"),
    spec("theta-twice", "heuristic(theta=1,theta=2)", TWICE),
    spec("theta-string", "heuristic(theta=abc)", "theta"),
    spec("theta-bool", "heuristic(theta=true)", "theta"),
    spec("theta-no-value", "heuristic(theta=)", "heuristic(theta=)"),
    spec("param-no-name", "heuristic(=1)", "heuristic(=1)"),
    spec("param-no-equals", "heuristic(theta)", "heuristic(theta)"),
    spec("preset-theta-nan", "heuristic-p2(theta=nan)", "theta"),
    spec("preset-unknown-param", "heuristic-p2(foo=1)", "no parameter"),
    spec("search-budget-0", "search(budget=0)", "budget"),
    spec("search-budget-negative", "search(budget=-1)", "budget"),
    spec("search-budget-fraction", "search(budget=2.5)", "budget"),
    spec("search-budget-word", "search(budget=lots)", "budget"),
    spec("search-width-0", "search(width=0)", "width"),
    spec("search-width-negative", "search(width=-1)", "width"),
    spec("search-cuts-0", "search(cuts=0)", "cuts"),
    spec("search-unknown-param", "search(depth=3)", "no parameter"),
    # restricted play: avoid names one of the 14 specials by its slug
    spec("avoid-unknown-slug", "heuristic(avoid=pineapple)",
         "avoid='pineapple' is not a special; write avoid=<slug>, one of: cut_in_line, dibs"),
    spec("avoid-wrong-case", "greedy(avoid=Stuffed_Crust)", "one of: cut_in_line, dibs"),
    spec("avoid-blank-tile", "search(budget=2,avoid=blank)", "avoid='blank' is not a special"),
    spec("avoid-number", "random(avoid=3)",
         "avoid must be a special's slug, got 3; write avoid=<slug>, one of: cut_in_line"),
    spec("avoid-float", "heuristic-p2(avoid=1.5)", "avoid must be a special's slug, got 1.5"),
    spec("avoid-bool", "heuristic(avoid=true)", "avoid must be a special's slug, got True"),
    spec("avoid-twice", "heuristic(avoid=dibs,avoid=seconds)", TWICE),
    spec("avoid-no-value", "greedy(avoid=)", "greedy(avoid=)"),
    spec("avoid-with-unknown-param", "greedy(avoid=dibs,depth=1)", "its parameters: avoid"),
    spec("unbalanced-open", "heuristic(theta=1"),
    spec("unbalanced-close", "heuristic theta=1)"),
    spec("unbalanced-extra-close", "heuristic(theta=1))", ("heuristic(theta=1))", "1)")),
    spec("double-parens", "heuristic((theta=1))"),
    spec("only-close", "greedy)"),
    spec("only-parens", "(greedy)"),
    spec("semicolon", "greedy;random"),
    spec("two-words", "greedy random"),
    # an endless search budget: refused, never played (a real process, in case it is not)
    st("arm-spec-search-budget-1e308", study(arm={"strategies": "search(budget=1e308)",
                                                  "games": 1}),
       "budget", proc=True, timeout=30),
)  # fmt: skip

# --- restricted play on the command line ---------------------------------------------
add(
    Case("avoid-simulate-unknown", sim({"--strategies": "greedy(avoid=cheese)"}),
         "avoid='cheese' is not a special", out="o"),
    Case("avoid-play-number", play({"--strategies": "heuristic(avoid=7),random"}),
         "avoid must be a special's slug, got 7"),
    Case("avoid-replay-unknown", replay({"--strategies": "search(budget=2,avoid=pizza)"}),
         "one of: cut_in_line"),
)  # fmt: skip

# --- deck files (an arm's deck = "d.toml") -------------------------------------------
add(
    deck_case("not-toml", "slices = [\n", "TOML"),
    deck_case("not-toml-prose", "a deck of cards\n", "TOML"),
    deck_case("not-utf8", b'name = "Caf\xe9"\n' + deck(set_key("name", DROP)).encode(), UTF8),
    deck_case("not-utf8-utf16", deck().encode("utf-16"), UTF8),
    deck_case("empty", "", "missing"),
    deck_case("no-specials", deck(set_key("specials", DROP)), "specials"),
    deck_case("no-slices", deck(set_key("slices", DROP)), "slices"),
    deck_case("slices-string", deck(set_key("slices", "x")), "slices"),
    deck_case("slices-table", deck(set_key("slices", {"a": 1})), "slices"),
    deck_case("slice-not-table", deck(lambda d: d["slices"].__setitem__(0, 1)), "slice #1"),
    deck_case("slice-unknown-kind", deck(edit_slice("numbered", kind="calzone")),
              "unknown kind"),  # fmt: skip
    deck_case("slice-missing-kind", deck(edit_slice("numbered", kind=DROP)), "kind"),
    deck_case("slice-missing-pepperoni", deck(edit_slice("numbered", pepperoni=DROP)),
              "pepperoni"),  # fmt: skip
    deck_case("slice-missing-anchovies", deck(edit_slice("numbered", anchovies=DROP)),
              "anchovies"),  # fmt: skip
    deck_case("pepperoni-negative", deck(edit_slice("numbered", pepperoni=-1)), "pepperoni"),
    deck_case("pepperoni-1000000", deck(edit_slice("numbered", 4, pepperoni=1000000)),
              "pepperoni"),  # fmt: skip
    deck_case("pepperoni-2to63", deck(edit_slice("numbered", 4, pepperoni=2**63 - 1)),
              "pepperoni"),  # fmt: skip
    deck_case("supreme-pepperoni-1000000", deck(edit_slice("supreme", pepperoni=1000000)),
              "pepperoni"),  # fmt: skip
    deck_case("pepperoni-float", deck(edit_slice("numbered", pepperoni=1.5)), "pepperoni"),
    deck_case("pepperoni-string", deck(edit_slice("numbered", pepperoni="2")), "pepperoni"),
    deck_case("pepperoni-bool", deck(edit_slice("numbered", pepperoni=True)), "pepperoni"),
    deck_case("anchovies-negative", deck(edit_slice("numbered", anchovies=-1)), "anchovies"),
    deck_case("anchovies-1000000", deck(edit_slice("anchovy", anchovies=1000000)), "anchovies"),
    deck_case("type-12", deck(edit_slice("numbered", 11, type=12)), "type"),
    deck_case("type-2", deck(edit_slice("numbered", 3, type=2)), "type"),
    deck_case("type-float", deck(edit_slice("numbered", 3, type=3.0)), "type"),
    deck_case("type-missing", deck(edit_slice("numbered", 3, type=DROP)), "type"),
    deck_case("type-3-one-short", deck(drop_slice("numbered", 3)), "type 3"),
    deck_case("type-3-one-extra", deck(add_slice({"kind": "numbered", "type": 3,
                                                  "pepperoni": 0, "anchovies": 0})), "type 3"),
    deck_case("two-anchovy-slices", deck(add_slice({"kind": "anchovy", "pepperoni": 0,
                                                    "anchovies": 3})), "anchovy"),
    deck_case("no-supreme", deck(drop_slice("supreme")), "supreme"),
    deck_case("five-combos", deck(add_slice({"kind": "combo", "types": [3, 4], "pepperoni": 0,
                                             "anchovies": 0})), "combo"),
    deck_case("combo-same-types", deck(edit_slice("combo", types=[8, 8])), "combo"),
    deck_case("combo-three-types", deck(edit_slice("combo", types=[4, 6, 8])), "combo"),
    deck_case("combo-no-types", deck(edit_slice("combo", types=DROP)), "combo"),
    deck_case("combo-string-types", deck(edit_slice("combo", types=["8", "10"])), "combo"),
    deck_case("combo-type-out-of-range", deck(edit_slice("combo", types=[8, 12])), "combo"),
    deck_case("anchovy-with-type", deck(edit_slice("anchovy", type=3)), ("no type", "'type'")),
    deck_case("slice-unknown-field", deck(edit_slice("numbered", cheese=1)), "unknown field"),
    deck_case("supreme-no-pepperoni", deck(edit_slice("supreme", pepperoni=0)), "supreme"),
    deck_case("specials-string", deck(set_key("specials", "dibs")), "specials"),
    deck_case("special-unknown", deck(specials(lambda s: [*s[:-1], "pizza_party"])),
              "unknown special"),  # fmt: skip
    deck_case("special-twice", deck(specials(lambda s: [*s[:-1], s[0]])), "more than once"),
    deck_case("specials-13", deck(specials(lambda s: s[:-1])), "specials"),
    deck_case("specials-15", deck(specials(lambda s: [*s, "blank"])), "specials"),
    deck_case("special-int", deck(specials(lambda s: [*s[:-1], 5])), "special"),
    deck_case("special-list", deck(specials(lambda s: [*s[:-1], [s[-1]]])), "special"),
    deck_case("type-names-string", deck(set_key("type_names", "x")), "type_names"),
    deck_case("type-names-list", deck(set_key("type_names", ["a"])), "type_names"),
    deck_case("unknown-top-level-key", deck(set_key("type_name", {"3": "Veg"})), "type_name"),
    st("deck-missing-file", study(arm={"deck": "missing.toml"}), "no such file"),
    st("deck-is-dir", study(arm={"deck": "dd"}), ("no such file", "directory"),
       files={"dd": DIR}),
    st("deck-empty-path", study(arm={"deck": ""}), ("no such file", "directory", "deck")),
    st("deck-path-nul", study(arm={"deck": "a\x00b.toml"}), "deck"),
    st("deck-int", study(arm={"deck": 5}), "deck"),
    st("deck-list", study(arm={"deck": ["d.toml"]}), "deck"),
)  # fmt: skip

# --- rule options and blank specials (in a study file) -------------------------------
add(
    rules_case("string", "x", "rules"),
    rules_case("list", [], "rules"),
    rules_case("unknown-option", {"cheese": True}, "unknown New York Slice rule option"),
    rules_case("empty-name", {"": True}, "rule option"),
    rules_case("bool-as-int", {"veggies_edible_later": 1}, "veggies_edible_later"),
    rules_case("bool-as-string", {"veggies_edible_later": "true"}, "veggies_edible_later"),
    rules_case("bool-as-table", {"dibs_closes_circle": {"a": 1}}, "dibs_closes_circle"),
    rules_case("first-slicer-bool", {"first_slicer": True}, "first_slicer"),
    rules_case("first-slicer-negative", {"first_slicer": -1}, "first_slicer"),
    rules_case("first-slicer-not-a-seat", {"first_slicer": 2}, "first_slicer"),
    rules_case("first-slicer-huge", {"first_slicer": 10**11}, "first_slicer"),
    rules_case("first-slicer-float", {"first_slicer": 1.0}, "first_slicer"),
    rules_case("rejected-special-unknown", {"rejected_special": "top"}, "rejected_special"),
    rules_case("rejected-special-int", {"rejected_special": 1}, "rejected_special"),
    rules_case("ssc-halves-0", {"super_sized_combo_halves": 0}, "super_sized_combo_halves"),
    rules_case("ssc-halves-9", {"super_sized_combo_halves": 9}, "super_sized_combo_halves"),
    rules_case("ssc-halves-float", {"super_sized_combo_halves": 3.0}, "super_sized_combo_halves"),
    rules_case("ssc-halves-bool", {"super_sized_combo_halves": True}, "super_sized_combo_halves"),
    rules_case("ssc-halves-string", {"super_sized_combo_halves": "3"}, "super_sized_combo_halves"),
    rules_case("crust-21", {"stuffed_crust_points": 21}, "stuffed_crust_points"),
    rules_case("crust-float", {"stuffed_crust_points": 5.5}, "stuffed_crust_points"),
    rules_case("day-old-21", {"day_old_pizza_points": 21}, "day_old_pizza_points"),
    rules_case("cravings-text", {"combo_cravings_points": "three"}, "combo_cravings_points"),
    rules_case("veggies-7", {"you_love_veggies_points": 7}, "you_love_veggies_points"),
    rules_case(
        "veggies-points-at-2p",
        {"you_love_veggies_points": 5},
        "you_love_veggies_points=5 changes nothing at 2 players",
    ),
    rules_case("buffet-bool", {"buffet_points": True}, "buffet_points"),
    rules_case("compensation-int", {"compensation": 2}, "compensation = [0, 2]"),
    rules_case("compensation-table", {"compensation": {"a": 1}}, "compensation = [0, 2]"),
    rules_case("compensation-word", {"compensation": "two"}, "compensation = [0, 2]"),
    rules_case("compensation-too-long", {"compensation": [0] * 7}, "compensation = [0, 2]"),
    rules_case("compensation-negative", {"compensation": [0, -1]}, "compensation = [0, 2]"),
    rules_case("compensation-21", {"compensation": [0, 21]}, "compensation = [0, 2]"),
    rules_case("compensation-huge", {"compensation": [10**11]}, "compensation = [0, 2]"),
    rules_case("compensation-float", {"compensation": [0, 1.5]}, "compensation = [0, 2]"),
    rules_case("compensation-bool", {"compensation": [0, True]}, "compensation = [0, 2]"),
    rules_case("compensation-strings", {"compensation": ["0", "2"]}, "compensation = [0, 2]"),
    rules_case("compensation-nested", {"compensation": [[0, 2]]}, "compensation = [0, 2]"),
    blank_case("unknown-special", "cheese", "blank"),
    blank_case("not-in-play", "dibs", "blank"),
    blank_case("the-blank-itself", "blank", "blank"),
    blank_case("each-uppercase", "EACH", "blank"),
    blank_case("empty-string", "", "blank"),
    blank_case("int", 5, "blank"),
    blank_case("empty-list", [], "blank"),
    blank_case("list-with-int", ["seconds", 3], "blank"),
    blank_case("table", {"a": 1}, "blank"),
    blank_case("list-twice", ["seconds", "seconds"], TWICE),
)

# --- Python strategies are code: refused without opting in ---------------------------
add(
    Case("python-spec-simulate-sys-exit", sim({"--strategies": "sys:exit"}), ALLOW, out="o"),
    Case("python-spec-simulate-input", sim({"--strategies": "builtins:input"}), ALLOW, out="o"),
    # os._exit would end this process: a real one
    Case("python-spec-replay-os-exit", replay({"--strategies": "os:_exit"}), ALLOW, proc=True),
    Case("python-spec-replay-sys-exit-params", replay({"--strategies": "sys:exit(code=3)"}),
         ALLOW),
    Case("python-spec-play-print", play({"--strategies": "builtins:print"}), ALLOW),
    Case("python-spec-play-example", play({"--strategies": "tests.example_strategies:FirstLegal"}),
         ALLOW),
    Case("python-spec-tune-field", tune({"--field": "sys:exit"}), ALLOW),
    Case("python-spec-demo", demo({"--strategies": "json:dumps"}), ALLOW),
    arm("python-spec-sys-exit", ALLOW, strategies="sys:exit"),
    arm("python-spec-input-one-seat", ALLOW, strategies=["greedy", "builtins:input"]),
)  # fmt: skip

# --- chunk plans too large to hold: refused quickly, in bounded memory ---------------
add(
    st("chunks-4e9", study(top={"chunk_size": 1}, arm={"games": 4_000_000_000}), "chunk",
       proc=True, memory=6 * GIB),
    st("chunks-max-games", study(top={"chunk_size": 1}, arm={"games": 2**32 - 1}), "chunk",
       proc=True, memory=6 * GIB),
    st("chunks-5e9-over-5-arms", study(top={"chunk_size": 1},
                                       arm={"games": 10**9, "players": [2, 3, 4, 5, 6]}),
       "chunk", proc=True, memory=6 * GIB),
    Case("simulate-chunks-4e9", sim({"--games": "4000000000", "--chunk-size": "1"}), "chunk",
         out="o", proc=True, memory=6 * GIB),
)  # fmt: skip


# --- simulate: flags -----------------------------------------------------------------
def s(id_: str, over: dict | None, fragment, *extra: str, **kw) -> Case:
    out = {**{"--out": "o"}, **(over or {})}["--out"]
    return Case(f"simulate-{id_}", sim(over, *extra), fragment, out=out, **kw)


add(
    s("players-1", {"--players": "1"}, "players"),
    s("players-7", {"--players": "7"}, "players"),
    s("players-0", {"--players": "0"}, "players"),
    s("players-negative", {"--players": "-1"}, "players"),
    s("players-word", {"--players": "abc"}, "--players", usage=True),
    s("players-float", {"--players": "2.5"}, "--players", usage=True),
    s("players-empty", {"--players": ""}, "--players", usage=True),
    s("players-missing", {"--players": None}, "--players", usage=True),
    s("games-0", {"--games": "0"}, "--games", usage=True),
    s("games-negative", {"--games": "-1"}, "--games", usage=True),
    s("games-word", {"--games": "abc"}, "--games", usage=True),
    s("games-float", {"--games": "1.5"}, "--games", usage=True),
    s("games-missing", {"--games": None}, "--games", usage=True),
    s("games-2to32", {"--games": str(2**32)}, "games"),
    s("games-2to70", {"--games": str(2**70)}, "games"),
    s("seed-negative", {"--seed": "-1"}, "seed"),
    s("seed-2to32", {"--seed": str(2**32)}, "seed"),
    s("seed-word", {"--seed": "abc"}, "--seed", usage=True),
    s("seed-float", {"--seed": "1.5"}, "--seed", usage=True),
    s("chunk-size-0", {"--chunk-size": "0"}, "--chunk-size", usage=True),
    s("chunk-size-negative", {"--chunk-size": "-5"}, "--chunk-size", usage=True),
    s("chunk-size-word", {"--chunk-size": "x"}, "--chunk-size", usage=True),
    s("chunk-size-1e9", {"--chunk-size": str(10**9)}, "chunk"),
    s("jobs-0", {"--jobs": "0"}, "--jobs", usage=True),
    s("jobs-negative", {"--jobs": "-1"}, "--jobs", usage=True),
    s("jobs-word", {"--jobs": "x"}, "--jobs", usage=True),
    s("jobs-1000", {"--jobs": "1000"}, "core", proc=True, env=NO_JOBLIB_PROCESSES),
    s("backend-bogus", {"--backend": "bogus"}, "--backend", usage=True),
    s("backend-empty", {"--backend": ""}, "--backend", usage=True),
    # the dask backend is run as a real process: a Dask client may start threads or a cluster
    s("backend-dask-no-scheduler", {"--backend": "dask"}, "--scheduler", proc=True),
    # unreachable scheduler: refused before writing, after dask's own connect timeout
    # (distributed.comm.timeouts.connect, shortened here through dask's environment config)
    s("backend-dask-unreachable", {"--backend": "dask", "--scheduler": "tcp://127.0.0.1:1"},
      "scheduler", proc=True, env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}),
    s("backend-dask-bad-address", {"--backend": "dask", "--scheduler": "not an address"},
      "scheduler", proc=True),
    s("engine-bogus", {"--engine": "bogus"}, "--engine", usage=True),
    s("engine-kernel-with-code",
      {"--engine": "kernel", "--strategies": "tests.example_strategies:FirstLegal"}, "engine",
      "--allow-code"),  # fmt: skip
    s("rule-no-equals", {"--rule": "veggies_edible_later"}, "NAME=VALUE"),
    s("rule-blank", {"--rule": " "}, "NAME=VALUE"),
    s("rule-no-name", {"--rule": "=true"}, "rule option"),
    s("rule-equals-only", {"--rule": "=="}, "rule option"),
    s("rule-unknown", {"--rule": "cheese=1"}, "unknown New York Slice rule option"),
    s("rule-bool-as-int", {"--rule": "veggies_edible_later=3"}, "veggies_edible_later"),
    s("rule-bool-as-word", {"--rule": "veggies_edible_later=yes"}, "veggies_edible_later"),
    s("rule-two-equals", {"--rule": "veggies_edible_later=true=false"}, "veggies_edible_later"),
    s("rule-seat-word", {"--rule": "first_slicer=x"}, "first_slicer"),
    s("rule-seat-float", {"--rule": "first_slicer=1.5"}, "first_slicer"),
    s("rule-seat-not-at-table", {"--rule": "first_slicer=2"}, "first_slicer"),
    s("rule-seat-negative", {"--rule": "first_slicer=-1"}, "first_slicer"),
    s("rule-rejected-special", {"--rule": "rejected_special=top"}, "rejected_special"),
    s("rule-super-sized-halves-9", {"--rule": "super_sized_combo_halves=9"},
      "super_sized_combo_halves"),
    s("rule-super-sized-halves-float", {"--rule": "super_sized_combo_halves=1.5"},
      "super_sized_combo_halves"),
    s("rule-compensation-bare-int", {"--rule": "compensation=3"}, "--rule compensation=0,2"),
    s("rule-compensation-words", {"--rule": "compensation=a,b"}, "--rule compensation=0,2"),
    s("rule-compensation-negative", {"--rule": "compensation=0,-2"}, "--rule compensation=0,2"),
    s("rule-compensation-seven", {"--rule": "compensation=0,0,0,0,0,0,1"},
      "--rule compensation=0,2"),
    s("rule-one-bad-of-two", {"--rule": ["veggies_edible_later=true", "cheese=1"]},
      "unknown New York Slice rule option"),
    s("deck-missing", {"--deck": "missing.toml"}, "no such file"),
    s("deck-dir", {"--deck": "dd"}, "--deck", usage=True, files={"dd": DIR}),
    s("deck-not-utf8", {"--deck": "d.toml"}, UTF8, files={"d.toml": deck().encode("utf-16")}),
    s("deck-empty", {"--deck": "d.toml"}, "missing", files={"d.toml": ""}),
    s("deck-pepperoni-1000000", {"--deck": "d.toml"}, "pepperoni",
      files={"d.toml": deck(edit_slice("numbered", 4, pepperoni=1000000))}),
    s("strategies-empty", {"--strategies": ""}, "strateg"),
    s("strategies-comma", {"--strategies": ","}, "strateg"),
    s("strategies-open-paren", {"--strategies": "greedy("}, "greedy("),
    s("strategies-close-paren", {"--strategies": "greedy)"}, "greedy)"),
    s("strategies-lone-paren", {"--strategies": "("}, "("),
    s("strategies-question-marks", {"--strategies": "???"}, "???"),
    s("strategies-two-words", {"--strategies": "greedy random"}, "greedy random"),
    s("strategies-semicolon", {"--strategies": "greedy;random"}, "greedy;random"),
    s("strategies-unknown", {"--strategies": "clever"}, "clever"),
    s("strategies-extra-close", {"--strategies": "heuristic(theta=1))"},
      ("heuristic(theta=1))", "1)")),
    s("strategies-theta-nan", {"--strategies": "heuristic(theta=nan)"}, "theta"),
    s("strategies-too-many", {"--strategies": "greedy,greedy,greedy"}, "3 specs"),
    s("strategies-search-budget-0", {"--strategies": "search(budget=0)", "--games": "1"},
      "budget"),
    s("out-existing-file", {"--out": "f"}, "is a file", usage=True, files={"f": "keep\n"}),
    s("out-name-too-long", {"--out": "x" * 300}, "too long"),
    s("out-parent-is-file", {"--out": "f/o"}, ("not a directory", "is a file"),
      files={"f": "keep\n"}),
    s("out-empty", {"--out": ""}, "--out", usage=True),
    s("out-read-only-dir", {"--out": "ro/o"}, ("permission", "read-only", "writ"),
      files={"ro": DIR}, readonly="ro"),
    s("out-not-empty-no-manifest", None, "not empty", files={"o/keep.txt": "keep\n"}),
    s("out-other-study", None, ANOTHER_STUDY, files={"o/manifest.json": OTHER_MANIFEST}),
    s("out-manifest-not-json", None, "manifest", files={"o/manifest.json": "{not json"}),
    s("out-manifest-empty", None, "manifest", files={"o/manifest.json": ""}),
    s("out-manifest-a-list", None, "manifest", files={"o/manifest.json": "[]"}),
    s("out-manifest-is-dir", None, "manifest", files={"o/manifest.json": DIR}),
    Case("simulate-game-unknown", ["simulate", "chess", "--players", "2", "--games", "5",
                                   "--out", "o"], "unknown game", out="o"),
    s("unknown-option-size", None, "--size", "--size", "quick", usage=True),
    s("decisions-with-value", None, "--decisions", "--decisions=yes", usage=True),
)  # fmt: skip

# --- study: flags --------------------------------------------------------------------
add(
    st("cli-jobs-0", VALID, "--jobs", "--jobs", "0", usage=True),
    st("cli-jobs-1000", VALID, "core", "--jobs", "1000", proc=True, env=NO_JOBLIB_PROCESSES),
    st("cli-backend-bogus", VALID, "--backend", "--backend", "bogus", usage=True),
    st("cli-backend-dask-no-scheduler", VALID, "--scheduler", "--backend", "dask", proc=True),
    st("cli-out-existing-file", VALID, "is a file", "--out", "f", files={"f": "keep\n"},
       usage=True, out="f"),
    st("cli-out-name-too-long", VALID, "too long", "--out", "y" * 300, out="y" * 300),
    st("cli-out-parent-is-file", VALID, ("not a directory", "is a file"), "--out", "f/o",
       files={"f": "keep\n"}, out="f/o"),
    st("cli-out-other-study", VALID, ANOTHER_STUDY, "--out", "o",
       files={"o/manifest.json": OTHER_MANIFEST}, out="o"),
    st("cli-unknown-option", VALID, "--players", "--players", "2", usage=True),
    Case("study-no-file-argument", ["study"], "STUDY_FILE", usage=True),
)  # fmt: skip


# --- replay: flags -------------------------------------------------------------------
def r(id_: str, over: dict | None, fragment, *extra: str, **kw) -> Case:
    return Case(f"replay-{id_}", replay(over, *extra), fragment, **kw)


add(
    r("players-1", {"--players": "1"}, "players"),
    r("players-7", {"--players": "7"}, "players"),
    r("players-negative", {"--players": "-3"}, "players"),
    r("players-word", {"--players": "abc"}, "--players", usage=True),
    r("players-missing", {"--players": None}, "--players", usage=True),
    r("index-negative", {"--index": "-1"}, "--index"),
    r("index-word", {"--index": "abc"}, "--index", usage=True),
    r("index-float", {"--index": "1e3"}, "--index", usage=True),
    r("seed-negative", {"--seed": "-1"}, "seed"),
    r("seed-2to32", {"--seed": str(2**32)}, "seed"),
    r("strategies-unknown", {"--strategies": "clever"}, "clever"),
    r("strategies-too-many", {"--strategies": "greedy,greedy,greedy"}, "3 specs"),
    r("strategies-open-paren", {"--strategies": "heuristic(theta=1"}, "heuristic(theta=1"),
    r("strategies-theta-negative", {"--strategies": "heuristic(theta=-1)"}, "theta"),
    r("strategies-empty", {"--strategies": ""}, "strateg"),
    r("rule-no-equals", {"--rule": "dibs_closes_circle"}, "NAME=VALUE"),
    r("rule-unknown", {"--rule": "cheese=1"}, "unknown New York Slice rule option"),
    r("rule-not-a-seat", {"--rule": "first_slicer=5"}, "first_slicer"),
    r("deck-missing", {"--deck": "missing.toml"}, "no such file"),
    r("deck-dir", {"--deck": "dd"}, "--deck", usage=True, files={"dd": DIR}),
    r("deck-not-utf8", {"--deck": "d.toml"}, UTF8,
      files={"d.toml": b'name = "\xff"\n' + deck(set_key("name", DROP)).encode()}),
    r("deck-negative-anchovies", {"--deck": "d.toml"}, "anchovies",
      files={"d.toml": deck(edit_slice("numbered", anchovies=-1))}),
    r("engine-option", None, "--engine", "--engine", "kernel", usage=True),
    Case("replay-game-unknown", ["replay", "chess", "--players", "2"], "unknown game"),
    Case("replay-no-game", ["replay"], "GAME", usage=True),
)  # fmt: skip


# --- play: flags ---------------------------------------------------------------------
def p(id_: str, over: dict | None, fragment, *extra: str, **kw) -> Case:
    return Case(f"play-{id_}", play(over, *extra), fragment, **kw)


add(
    p("players-7", {"--players": "7"}, "players"),
    p("players-1", {"--players": "1"}, "players"),
    p("games-0", {"--games": "0"}, "--games", usage=True),
    p("games-2to32", {"--games": str(2**32)}, "games"),
    p("seed-negative", {"--seed": "-1"}, "seed"),
    p("strategies-junk", {"--strategies": "!!"}, "!!"),
    p("strategies-budget-1e308", {"--strategies": "search(budget=1e308)", "--games": "1"},
      "budget", proc=True, timeout=30),
    p("engine-bogus", {"--engine": "bogus"}, "--engine", usage=True),
    p("rule-unknown", {"--rule": "cheese=1"}, "unknown New York Slice rule option"),
    p("rule-wrong-type", {"--rule": "supreme_from_combo=2"}, "supreme_from_combo"),
    p("rule-super-sized-halves-0", {"--rule": "super_sized_combo_halves=0"},
      "super_sized_combo_halves"),
    p("rule-compensation-too-large", {"--rule": "compensation=[0, 99]"},
      "--rule compensation=0,2"),
    p("deck-missing", {"--deck": "missing.toml"}, "no such file"),
    p("deck-empty", {"--deck": "d.toml"}, "missing", files={"d.toml": ""}),
    p("deck-pepperoni-1000000", {"--deck": "d.toml"}, "pepperoni",
      files={"d.toml": deck(edit_slice("numbered", 5, pepperoni=1000000))}),
)  # fmt: skip


# --- tune: flags (small runs, should one be started by mistake) ----------------------
def t(id_: str, over: dict | None, fragment, *extra: str, **kw) -> Case:
    return Case(f"tune-{id_}", tune(over, *extra), fragment, **kw)


add(
    t("players-7", {"--players": "7"}, "players"),
    t("players-1", {"--players": "1"}, "players"),
    t("field-unknown", {"--field": "clever"}, "clever"),
    t("field-unbalanced", {"--field": "heuristic(theta="}, "heuristic(theta="),
    t("field-theta-nan", {"--field": "heuristic(theta=nan)"}, "theta"),
    t("field-two-specs", {"--field": "greedy,random,greedy"}, "specs"),
    t("family-unknown", {"--family": "nope"}, "nope"),
    t("family-not-tunable", {"--family": "greedy"}, "tune"),
    # a preset name is refused before the tuning, not after it (nothing is played)
    t("preset-name-bracket", {"--save-preset": "bad]name"}, "preset name"),
    t("preset-name-newline", {"--save-preset": "bad\nname"}, "preset name"),
    t("preset-name-family", {"--save-preset": "greedy"}, "strategy family"),
    t("preset-name-shipped", {"--save-preset": "heuristic-p4"}, "reserved"),
    t("preset-name-empty", {"--save-preset": " "}, "preset name"),
    t("candidates-1", {"--candidates": "1"}, "--candidates", usage=True),
    t("games-0", {"--games": "0"}, "--games", usage=True),
    t("validation-games-9", {"--validation-games": "9"}, "--validation-games", usage=True),
    t("seed-negative", {"--seed": "-1"}, "--seed", usage=True),
    t("seed-2to32", {"--seed": str(2**32)}, "--seed", usage=True),
    t("jobs-0", {"--jobs": "0"}, "--jobs", usage=True),
    t("jobs-1000", {"--jobs": "1000"}, "core", proc=True, env=NO_JOBLIB_PROCESSES),
    Case("tune-game-unknown", ["tune", "chess", "--players", "2"], "unknown game"),
)  # fmt: skip


# --- exploit: flags ------------------------------------------------------------------
def x(id_: str, over: dict | None, fragment, *extra: str, **kw) -> Case:
    return Case(f"exploit-{id_}", ["exploit", *tune(over, *extra)[1:]], fragment, **kw)


add(
    x("players-7", {"--players": "7"}, "players"),
    x("field-unknown", {"--field": "clever"}, "clever"),
    x("field-unparsable", {"--field": "heuristic(theta="}, "heuristic(theta="),
    x("field-theta-inf", {"--field": "heuristic(theta=inf)"}, "theta"),
    x("family-without-ranges", {"--family": "greedy"}, "tune"),
    x("family-unknown", {"--family": "nope"}, "nope"),
    x("also-unknown", None, "clever", "--also", "clever"),
    x("also-budget-0", None, "budget", "--also", "search(budget=0)"),
    x("also-budget-fraction", None, "budget", "--also", "search(budget=2.5)"),
    x("also-budget-negative", None, "budget", "--also", "search(budget=-4)"),
    x("also-python-code", None, "--allow-code", "--also", "os:system"),
    x("seed-negative", {"--seed": "-1"}, "seed", usage=True),
    x("candidates-1", {"--candidates": "1"}, "--candidates", usage=True),
    x("jobs-1000", {"--jobs": "1000"}, "core", proc=True, env=NO_JOBLIB_PROCESSES),
    Case("exploit-game-unknown", ["exploit", "chess", "--players", "2"], "unknown game"),
)  # fmt: skip


# ---------------------------------------------------------------- slicelab balance
def bal(*extra: str) -> list[str]:
    return ["balance", "nyslice", "--players", "2", "--games", "10", "--held-out-games", "10",
            "--state", "st", *extra]  # fmt: skip


add(
    Case("balance-no-knob", bal(), "name at least one knob"),
    Case("balance-knob-unknown", bal("--knob", "dough"), ("no knob 'dough'", "compensation.1")),
    Case("balance-knob-idle-at-count", bal("--knob", "compensation.3"),
         ("changes nothing at 2 players", "4 or more players")),
    Case("balance-knob-twice", bal("--knob", "compensation.1", "--knob", "compensation.1"),
         "named twice"),
    Case("balance-values-malformed", bal("--knob", "compensation.1", "--values", "oops"),
         "NAME=V1,V2"),
    Case("balance-values-out-of-range",
         bal("--knob", "compensation.1", "--values", "compensation.1=1,99"),
         ("'99' is not one of its values", "0 to 6")),
    Case("balance-values-unknown-knob", bal("--knob", "compensation.1", "--values", "x=1"),
         "no knob 'x'"),
    Case("balance-players-malformed", ["balance", "nyslice", "--players", "two", "--knob",
         "compensation.1"], "2,4 or 2-4"),
    Case("balance-players-outside-game", ["balance", "nyslice", "--players", "2,9", "--knob",
         "compensation.1"], "players"),
    Case("balance-rule-bad-base", bal("--knob", "compensation.1", "--rule", "stuffed=3"),
         "stuffed"),
    Case("balance-field-unknown", bal("--knob", "compensation.1", "--field", "clever"),
         "clever"),
    Case("balance-tolerance-0", bal("--knob", "compensation.1", "--tolerance", "0"),
         "--tolerance", usage=True),
    Case("balance-game-unknown", ["balance", "chess", "--players", "2"], "unknown game"),
    Case("balance-component-bound-without-restricted-play",
         ["balance", "pieceocake", "--players", "2", "--knob", "exact_pieces", "--games", "10",
          "--held-out-games", "10", "--state", "st", "--component-bound", "5"],
         ("declares no restricted play", "drop --component-bound")),
    Case("balance-component-bound-0", bal("--knob", "compensation.1", "--component-bound",
         "0"), "--component-bound", usage=True),
    Case("balance-sampler-unknown", bal("--knob", "compensation.1", "--sampler", "magic"),
         "--sampler", usage=True),
    Case("balance-write-study-is-dir", bal("--knob", "compensation.1", "--write-study", "d"),
         "--write-study", usage=True, files={"d": DIR}),
    Case("balance-base-outside-knob",
         ["balance", "pizzatheory", "--players", "2", "--knob", "supply", "--games", "10",
          "--held-out-games", "10", "--state", "st", "--rule", "supply=30"],
         ("knob supply", "30", "10 to 22", "drop the knob")),
)  # fmt: skip


# --- demo: flags ---------------------------------------------------------------------
def d(id_: str, over: dict | None, fragment, *extra: str, **kw) -> Case:
    return Case(f"demo-{id_}", demo(over, *extra), fragment, **kw)


add(
    d("games-0", {"--games": "0"}, "--games", usage=True),
    d("games-2to32", {"--games": str(2**32)}, "games"),
    d("seed-negative", {"--seed": "-1"}, "seed"),
    d("strategies-unknown", {"--strategies": "clever"}, "clever"),
    # valid at 2 players, not at 3: refused before any game is played
    d("strategies-fit-only-2-players", {"--strategies": "greedy,random"}, "specs"),
    d("strategies-theta-inf", {"--strategies": "heuristic(theta=inf)"}, "theta"),
    Case("demo-game-unknown", ["demo", "chess", "--games", "5"], "unknown game"),
)  # fmt: skip

# --- report: datasets and study files ------------------------------------------------
M = "d/manifest.json"
GOOD = json.loads(manifest("x", [{**ARM, "seed": 1}]))
"""A well-formed manifest that the cases below break one field of."""
add(
    Case("report-missing-dir", ["report", "nope"],
         ("no such", "does not exist", "not found", "not a slicelab dataset")),
    Case("report-dir-without-manifest", ["report", "d"], "manifest.json", files={"d": DIR}),
    Case("report-dir-with-other-files", ["report", "d"], "manifest.json",
         files={"d/players/x.parquet": b"PAR1"}),
    Case("report-file-not-dir", ["report", "f"], ("manifest", "dataset", "directory"),
         files={"f": "keep\n"}),
    *(Case(f"report-manifest-{name}", ["report", "d"], "manifest", files={M: text})
      for name, text in [
          ("empty", ""), ("not-json", "{not json"), ("binary", b"\xff\xfe\x00"),
          ("list", "[]"), ("null", "null"), ("string", '"x"'), ("empty-object", "{}"),
          ("no-study", json.dumps({k: v for k, v in GOOD.items() if k != "study"})),
          ("study-a-list", json.dumps({**GOOD, "study": []})),
          ("arms-not-a-list", json.dumps({**GOOD, "study": {**GOOD["study"], "arms": 5}})),
          ("arm-without-name", json.dumps({**GOOD, "study": {**GOOD["study"], "arms": [{}]}})),
          ("name-not-a-string", json.dumps({**GOOD, "study_name": 5})),
          ("chunks-not-a-list", json.dumps({**GOOD, "chunks": {}})),
          ("chunk-of-no-arm", json.dumps({**GOOD, "chunks": [{"arm": "zz", "first": 0}]})),
          ("chunk-a-string", json.dumps({**GOOD, "chunks": ["a"]})),
          ("format-older", json.dumps({**GOOD, "format": 1})),
          ("format-newer", json.dumps({**GOOD, "format": 99})),
          ("format-string", json.dumps({**GOOD, "format": "2"})),
      ]),
    Case("report-manifest-is-dir", ["report", "d"], "manifest", files={M: DIR}),
    Case("report-manifest-unknown-game", ["report", "d"], "unknown game",
         files={M: manifest("x", [{**ARM, "seed": 1, "game": "chess"}])}),
    Case("report-manifest-arm-without-seed", ["report", "d"], "arm 'a' has no 'seed'",
         files={M: manifest("x", [ARM])}),
    Case("report-manifest-arm-players-not-int", ["report", "d"], "has no 'players' (int)",
         files={M: manifest("x", [{**ARM, "seed": 1, "players": "4"}])}),
    Case("report-dataset-with-size", ["report", "d", "--size", "quick"], "--size",
         files={M: OTHER_MANIFEST}),
    Case("report-dataset-with-data", ["report", "d", "--data", "e"], "--data",
         files={M: OTHER_MANIFEST}),
    Case("report-out-is-dir", ["report", "d", "--out", "od"], "--out", usage=True,
         files={"od": DIR, M: OTHER_MANIFEST}),
    Case("report-payoff-games-0", ["report", "d", "--payoff-games", "0"], "--payoff-games",
         usage=True, files={"d": DIR}),
    Case("report-study-missing", ["report", "nope.toml"], "no such file"),
    Case("report-study-not-toml", ["report", STUDY], "TOML", files={"s.toml": "seed = \n"}),
    Case("report-study-not-utf8", ["report", STUDY], UTF8,
         files={"s.toml": VALID.encode("utf-16")}),
    Case("report-study-bad-arm", ["report", STUDY], "players",
         files={"s.toml": study(arm={"players": 9})}),
    Case("report-study-unknown-size", ["report", STUDY, "--size", "nope"], "no size",
         files={"s.toml": VALID}),
    Case("report-study-jobs-1000", ["report", STUDY, "--jobs", "1000"], "core",
         files={"s.toml": VALID}, proc=True, env=NO_JOBLIB_PROCESSES),
    Case("report-study-dask-no-scheduler", ["report", STUDY, "--backend", "dask"],
         "--scheduler", files={"s.toml": VALID}, proc=True),
)  # fmt: skip

# --- the command itself --------------------------------------------------------------
add(
    Case("cli-unknown-command", ["simulates"], "simulates", usage=True),
    Case("cli-unknown-global-option", ["--jobs", "2", "games"], "--jobs", usage=True),
    Case("strategies-unknown-game", ["strategies", "chess"], "unknown game"),
)

# --- Piece o' Cake: its rule options, cake files, player range and strategies ---------
BAD_BOARD = (
    (ROOT / "sims" / "games" / "pizzatheory" / "data" / "boards" / "hex-37.toml")
    .read_text("utf-8")
    .replace('"3,0,-3" = ["3,-1,-2", ', '"3,0,-3" = [', 1)
)
"""hex-37 with one neighbour left out of a corner's adjacency: not mutual."""
POC_CAKE = (ROOT / "sims" / "games" / "pieceocake" / "data" / "cake.toml").read_text("utf-8")
POC_NO_CREAM = POC_CAKE.replace("copies = 11\ncream = 3", "copies = 11")
"""The published cake with the chocolate's cream left out."""


def poc_play(over: dict | None = None, *extra: str) -> list[str]:
    return ["play", "pieceocake", *flags({"--players": "3", "--games": "2"}, over), *extra]


def poc_sim(over: dict | None = None, *extra: str) -> list[str]:
    base = {"--players": "3", "--games": "2", "--out": "o"}
    return ["simulate", "pieceocake", *flags(base, over), *extra]


def poc_arm(id_: str, fragment, **changes) -> Case:
    """A study whose one arm plays Piece o' Cake at 3 players, with ``changes``."""
    return arm(f"pieceocake-{id_}", fragment, **{"game": "pieceocake", "players": 3, **changes})


UNKNOWN_POC_RULE = "unknown Piece o' Cake rule option 'cheese'"
add(
    # an unknown rule option
    Case("pieceocake-play-rule-unknown", poc_play({"--rule": "cheese=1"}), UNKNOWN_POC_RULE),
    Case("pieceocake-simulate-rule-unknown", poc_sim({"--rule": "cheese=1"}), UNKNOWN_POC_RULE,
         out="o"),
    Case("pieceocake-replay-rule-unknown", ["replay", "pieceocake", "--players", "3", "--rule",
                                            "cheese=1"], UNKNOWN_POC_RULE),
    poc_arm("rules-unknown-option", UNKNOWN_POC_RULE, rules={"cheese": True}),
    poc_arm("rules-nyslice-option", "unknown Piece o' Cake rule option 'first_slicer'",
            rules={"first_slicer": 0}),
    # a wrong-typed (or out-of-range) rule value
    Case("pieceocake-play-rule-bool-as-int", poc_play({"--rule": "forgo_ends_picking=3"}),
         "forgo_ends_picking must be true or false, got 3"),
    Case("pieceocake-play-rule-int-as-word", poc_play({"--rule": "two_player_pieces=four"}),
         "two_player_pieces must be an integer"),
    Case("pieceocake-play-rule-unknown-choice", poc_play({"--rule": "forgo_eats=some"}),
         "forgo_eats='some': use one of 'all', 'choose', 'none'"),
    Case("pieceocake-play-rule-server-not-a-seat", poc_play({"--rule": "first_server=3"}),
         "first_server=3 is not a seat of 3 players"),
    poc_arm("rules-string-as-bool", "exact_pieces must be true or false",
            rules={"exact_pieces": "yes"}),
    poc_arm("rules-pieces-7", "two_player_pieces", rules={"two_player_pieces": 7}, players=2),
    poc_arm("rules-float-seat", "first_server must be an integer", rules={"first_server": 1.0}),
    # a malformed cake file
    Case("pieceocake-play-cake-no-cream", poc_play({"--cake": "c.toml"}),
         "variety 8 is missing the field 'cream'", files={"c.toml": POC_NO_CREAM}),
    Case("pieceocake-play-cake-not-toml", poc_play({"--cake": "c.toml"}), "not valid TOML",
         files={"c.toml": "[[variety]\nname = 1\n"}),
    Case("pieceocake-simulate-cake-empty", poc_sim({"--cake": "c.toml"}), "needs a 'name'",
         out="o", files={"c.toml": ""}),
    Case("pieceocake-replay-cake-too-small", ["replay", "pieceocake", "--players", "2",
                                              "--cake", "c.toml"], "at least 55",
         files={"c.toml": POC_CAKE.replace("copies = 11", "copies = 1")}),
    st("arm-pieceocake-cake-not-utf8", study(arm={"game": "pieceocake", "cake": "c.toml"}), UTF8,
       files={"c.toml": POC_CAKE.encode("utf-16")}),
    # a missing cake file
    Case("pieceocake-play-cake-missing", poc_play({"--cake": "missing.toml"}), "no such file"),
    st("arm-pieceocake-cake-missing", study(arm={"game": "pieceocake", "cake": "missing.toml"}),
       "no such file"),
    poc_arm("cake-int", "'cake' must be a file path", cake=5),
    # 6 players (the game is for 2 to 5)
    Case("pieceocake-play-players-6", poc_play({"--players": "6"}),
         "Piece o' Cake is played by 2 to 5 players, not 6"),
    Case("pieceocake-simulate-players-6", poc_sim({"--players": "6"}), "2 to 5 players",
         out="o"),
    poc_arm("players-6", "players", players=6),
    poc_arm("players-list-to-6", "players", players=[2, 6]),
    # an unknown strategy
    Case("pieceocake-play-strategy-unknown", poc_play({"--strategies": "clever"}),
         "unknown Piece o' Cake strategy 'clever'"),
    Case("pieceocake-play-nyslice-strategy", poc_play({"--strategies": "heuristic-p4"}),
         "unknown Piece o' Cake strategy 'heuristic-p4'"),
    Case("pieceocake-play-nyslice-search-param", poc_play({"--strategies": "search(width=3)"}),
         "has no parameter(s) ['width']"),
    Case("pieceocake-play-search-budget-0", poc_play({"--strategies": "search(budget=0)"}),
         "budget must be"),
    poc_arm("strategy-search-cuts-fraction", "cuts must be", strategies="search(cuts=2.5)"),
    poc_arm("strategy-unknown", "unknown Piece o' Cake strategy 'clever'", strategies="clever"),
    poc_arm("strategy-nyslice-preset", "heuristic-p4", strategies="heuristic-p4"),
    poc_arm("strategy-bad-param", "loss must be a number", strategies="heuristic(loss=-1)"),
    # another game's option
    Case("pieceocake-play-deck-flag", poc_play({"--deck": "d.toml"}),
         "--deck is not an option of Piece o' Cake", files={"d.toml": deck()}),
    poc_arm("deck-key", "unknown key", deck="d.toml"),
    # --- Pizza Theory: its board, rule options, player range, strategies and engine
    Case("pizzatheory-play-board-unknown", ["play", "pizzatheory", "--players", "3", "--games",
         "1", "--board", "hex-99"], "no such file"),
    Case("pizzatheory-play-board-asymmetric", ["play", "pizzatheory", "--players", "3",
         "--games", "1", "--board", "b.toml"], "board b.toml",
         files={"b.toml": BAD_BOARD}),
    Case("pizzatheory-play-rule-unknown", ["play", "pizzatheory", "--players", "3", "--games",
         "1", "--rule", "cheese=1"], "unknown Pizza Theory rule option 'cheese'"),
    Case("pizzatheory-play-players-4", ["play", "pizzatheory", "--players", "4"],
         "2 to 3 players"),
    Case("pizzatheory-play-strategy-unknown", ["play", "pizzatheory", "--players", "3",
         "--strategies", "minimax"], "unknown Pizza Theory strategy 'minimax'"),
    st("arm-pizzatheory-first-seat", study(arm={"game": "pizzatheory", "players": 2,
       "rules": {"first_seat": 2}}), "first_seat=2 is not a seat of 2 players"),
)  # fmt: skip

# --- Horno: its card-set files, rule options, player range, strategies and engine ---------
HORNO_CARDS = (ROOT / "sims" / "games" / "horno" / "data" / "cards-v1.toml").read_text("utf-8")
HORNO_BAD_DISH = HORNO_CARDS.replace(
    'ingredients = ["masa", "tomate", "queso"]', 'ingredients = ["masa", "tomate", "piña"]', 1
)
"""The default card set with an ingredient no card has in the first dish."""


def horno_play(over: dict | None = None, *extra: str) -> list[str]:
    return ["play", "horno", *flags({"--players": "3", "--games": "1"}, over), *extra]


def horno_arm(id_: str, fragment, **changes) -> Case:
    """A study whose one arm plays Horno at 3 players, with ``changes``."""
    return arm(f"horno-{id_}", fragment, **{"game": "horno", "players": 3, **changes})


add(
    # a malformed or missing card-set file
    Case("horno-play-cards-unknown-ingredient", horno_play({"--cards": "c.toml"}),
         "dish 1 (Pizza Margarita): unknown ingredient 'piña'", files={"c.toml": HORNO_BAD_DISH}),
    Case("horno-play-cards-negative-count", horno_play({"--cards": "c.toml"}),
         "ingredient 1 (masa): 'copies' = -5 must be an integer from 0 to 50",
         files={"c.toml": HORNO_CARDS.replace("copies = 5", "copies = -5", 1)}),
    Case("horno-play-cards-not-toml", horno_play({"--cards": "c.toml"}), "not valid TOML",
         files={"c.toml": "[[dish]\nname = 1\n"}),
    Case("horno-replay-cards-missing", ["replay", "horno", "--players", "2", "--cards",
                                        "missing.toml"], "no such file"),
    st("arm-horno-cards-no-dish-ingredients", study(arm={"game": "horno", "cards": "c.toml"}),
       "needs from 2 to 7 ingredients", files={"c.toml": HORNO_CARDS.replace(
           'ingredients = ["masa", "tomate", "queso"]', "ingredients = []", 1)}),
    # an unknown or wrong-typed rule option
    Case("horno-play-rule-unknown", horno_play({"--rule": "cheese=1"}),
         "unknown Horno rule option 'cheese'"),
    Case("horno-play-rule-wrong-type", horno_play({"--rule": "tie=1"}),
         "Horno rule option tie must be a string, got 1"),
    Case("horno-play-rule-unknown-choice", horno_play({"--rule": "reshuffle=sometimes"}),
         "reshuffle='sometimes': use one of 'discard', 'never'"),
    horno_arm("first-player-not-a-seat", "first_player=3 is not a seat of 3 players",
              rules={"first_player": 3}),
    horno_arm("oven-below-the-largest-dish", "oven_limit=4 is below the 5 ingredients",
              rules={"oven_limit": 4}),
    Case("horno-play-oven-below-the-largest-dish", horno_play({"--rule": "oven_limit=4"}),
         "use oven_limit 5 to 7"),
    # a player count outside 2-4
    Case("horno-play-players-5", horno_play({"--players": "5"}),
         "Horno is played by 2 to 4 players, not 5"),
    Case("horno-play-players-1", horno_play({"--players": "1"}), "2 to 4 players"),
    horno_arm("players-5", "players", players=5),
    # an unknown strategy, a parameter outside its bounds, a family that cannot be tuned
    Case("horno-play-strategy-unknown", horno_play({"--strategies": "chess"}),
         "unknown Horno strategy 'chess'"),
    Case("horno-play-heuristic-leader-2", horno_play({"--strategies": "heuristic(leader=2)"}),
         "leader must be a number from 0 to 1, got 2"),
    Case("horno-play-heuristic-steal-nan", horno_play({"--strategies": "heuristic(steal=nan)"}),
         "steal must be a number from -1000 to 1000"),
    Case("horno-play-heuristic-unknown-param",
         horno_play({"--strategies": "heuristic(theta=1)"}), "has no parameter(s) ['theta']"),
    Case("horno-play-search-budget-0", horno_play({"--strategies": "search(budget=0)"}),
         "budget must be an integer from 1 to 10000, got 0"),
    Case("horno-play-search-restock-half",
         horno_play({"--strategies": "search(restock=0.5)"}), "restock must be an integer"),
    horno_arm("heuristic-room-8", "room must be a number from 0 to 7",
              strategies="heuristic(room=8)"),
    Case("horno-tune-family-greedy", ["tune", "horno", "--players", "3", "--family", "greedy",
         "--candidates", "2", "--games", "1", "--validation-games", "10"], "tune"),
    Case("horno-tune-field-bad", ["tune", "horno", "--players", "3", "--field",
         "heuristic(wild=9)", "--candidates", "2", "--games", "1", "--validation-games", "10"],
         "wild must be a number from 0 to 7"),
    Case("horno-tune-preset-shipped", ["tune", "horno", "--players", "3", "--save-preset",
         "heuristic-eq3", "--candidates", "2", "--games", "1", "--validation-games", "10"],
         "reserved"),
    Case("horno-exploit-also-search-width-0", ["exploit", "horno", "--players", "3",
         "--candidates", "2", "--games", "1", "--validation-games", "10", "--also",
         "search(width=0)"], "width must be an integer from 1 to 100"),
    # the compiled kernel, which does not play search
    Case("horno-simulate-engine-kernel-search", ["simulate", "horno", "--players", "3",
         "--games", "1", "--out", "o", "--engine", "kernel", "--strategies",
         "search,random,random"], "kernel plays only random, greedy and heuristic", out="o"),
    horno_arm("engine-kernel-search", "kernel plays only random, greedy and heuristic",
              engine="kernel", strategies=["search(budget=2)", "random", "random"]),
    # another game's option
    Case("horno-play-board-flag", horno_play({"--board": "hex-37"}),
         "--board is not an option of Horno"),
    # a card set named that no shipped set has (and no file of that name)
    Case("horno-play-cards-unknown-name", horno_play({"--cards": "v2-harsh"}),
         "'v2-harsh' is not a shipped card set"),
    horno_arm("cards-unknown-name", "'v9' is not a shipped card set", cards="v9"),
    Case("horno-replay-cards-unknown-name", ["replay", "horno", "--players", "2", "--cards",
                                             "assumed-v1"], "shipped set's name (v1, v1-flat"),
)  # fmt: skip


# --- plan: a balance study of a designer's variant ---------------------------------------
def pl(id_: str, args: list[str], fragment, **kw) -> Case:
    """``slicelab plan ARGS --out s.toml`` (the study must not appear)."""
    out = kw.pop("out", "s.toml")
    return Case(f"plan-{id_}", ["plan", *args, "--out", out], fragment, out=out, **kw)


HORNO_OTHER_TYPES = HORNO_CARDS.replace('"Sopa"', '"Caldo"')
"""The default card set with a dish type renamed: not the balance study's types."""
HORNO_ONE_RADIOACTIVE = HORNO_CARDS.replace("copies = 2\n", "copies = 1\n")
"""The default card set with one copy of each radioactive card: no oven holds two."""
add(
    pl("game-unknown", ["chess", "--rule", "a=1"], "unknown game 'chess'"),
    pl("no-variant", ["nyslice"], ("no variant to plan", "--deck")),
    pl("deck-missing", ["nyslice", "--deck", "missing.toml"],
       ("--deck missing.toml: no such file", "reconstructed_v1.toml")),
    pl("data-missing", ["pieceocake", "--data", "missing.toml"],
       "--data missing.toml: no such file"),
    pl("deck-is-dir", ["nyslice", "--deck", "dd"], "is a directory", files={"dd": DIR}, usage=True),
    pl("deck-malformed", ["nyslice", "--deck", "d.toml"], "type 4 has 3 slices",
       files={"d.toml": deck(drop_slice("numbered", 4))}),
    pl("deck-not-toml", ["nyslice", "--deck", "d.toml"], "TOML", files={"d.toml": "slices = [\n"}),
    pl("deck-not-utf8", ["nyslice", "--deck", "d.toml"], UTF8,
       files={"d.toml": deck().encode("utf-16")}),
    pl("deck-a-card-set", ["nyslice", "--deck", "d.toml"], "unknown top-level key",
       files={"d.toml": HORNO_CARDS}),
    pl("cake-no-cream", ["pieceocake", "--cake", "c.toml"], "missing the field 'cream'",
       files={"c.toml": POC_NO_CREAM}),
    pl("board-asymmetric", ["pizzatheory", "--board", "b.toml"], "adjacency is mutual",
       files={"b.toml": BAD_BOARD}),
    pl("board-unknown-name", ["pizzatheory", "--board", "hex-99"], "no such file"),
    pl("cards-unknown-name", ["horno", "--cards", "v9"], "'v9' is not a shipped card set"),
    pl("cards-other-dish-types", ["horno", "--cards", "c.toml"], "dish types",
       files={"c.toml": HORNO_OTHER_TYPES}),
    pl("deck-and-data", ["nyslice", "--deck", "d.toml", "--data", "d.toml"], "not both",
       files={"d.toml": deck()}),
    pl("other-games-flag", ["nyslice", "--board", "hex-61"],
       "--board is not an option of New York Slice"),
    pl("rule-unknown", ["nyslice", "--rule", "cheese=1"],
       "unknown New York Slice rule option 'cheese'"),
    pl("rule-no-equals", ["pieceocake", "--rule", "exact_pieces"], "write NAME=VALUE"),
    pl("rule-bad-value", ["pieceocake", "--rule", "exact_pieces=3"],
       "exact_pieces must be true or false, got 3"),
    pl("rule-bad-choice", ["horno", "--rule", "tie=coin"], "tie='coin': use one of"),
    pl("rule-not-a-seat", ["nyslice", "--rule", "first_slicer=5"],
       "first_slicer=5 is not a seat of 2 players"),
    pl("rule-the-default", ["nyslice", "--rule", "super_sized_combo_halves=4"],
       "these are the default rules"),
    pl("rule-moot-everywhere", ["horno", "--cards", "c.toml", "--rule", "radioactive_bonus=each"],
       "cannot change any game", files={"c.toml": HORNO_ONE_RADIOACTIVE}),
    pl("size-unknown", ["nyslice", "--rule", "veggies_edible_later=true", "--size", "huge"],
       "no such size"),
    pl("seed-negative", ["nyslice", "--rule", "veggies_edible_later=true", "--seed", "-1"],
       "--seed", usage=True),
    pl("out-not-toml", ["nyslice", "--rule", "veggies_edible_later=true"], "ends in .toml",
       out="s.txt"),
    pl("out-is-dir", ["nyslice", "--rule", "veggies_edible_later=true"], "is a directory",
       out="od.toml", files={"od.toml": DIR}),
    pl("out-exists", ["nyslice", "--rule", "veggies_edible_later=true"], "--force",
       files={"s.toml": "keep\n"}),
    pl("data-file-exists", ["nyslice", "--rule", "veggies_edible_later=true"], "--force",
       files={"s-data/deck-plausible-3.toml": "keep\n"}),
    pl("bad-deck-in-new-folder", ["nyslice", "--deck", "d.toml"], "type 4",
       out="new/deeper/s.toml", files={"d.toml": deck(drop_slice("numbered", 4))}),
    # a study file's [variant] table (the manifest keeps it for the report)
    top("variant-not-a-table", "[variant]: must be a table", variant=5),
    top("variant-label-not-a-string", "'label' must be a non-empty string",
        variant={"label": 5}),
    st("top-variant-date", VALID + "\n[variant]\nwhen = 2026-01-01\n", "no dates"),
    # a balance check's table (slicelab balance --write-study): the report reads its blocks
    top("variant-balance-not-a-table", "[variant] balance: must be a table",
        variant={"balance": 5}),
    top("variant-balance-no-settings", "'settings' is missing or not a list",
        variant={"balance": {k: v for k, v in BALANCE.items() if k != "settings"}}),
    top("variant-balance-tolerance-text", "'tolerance' is missing or not a number",
        variant={"balance": {**BALANCE, "tolerance": "1"}}),
    top("variant-balance-lengths", "must be lists of the same length",
        variant={"balance": {**BALANCE, "sizes": [0, 1]}}),
    top("variant-balance-base-elsewhere", "'base' ('x') must be one of 'settings'",
        variant={"balance": {**BALANCE, "base": "x"}}),
    top("variant-balance-unknown-block", "names the block 'setting-9', which no arm",
        variant={"balance": {**BALANCE, "settings": ["setting-9"], "base": "setting-9"}}),
    top("variant-balance-ladder-short", "one block per setting",
        variant={"balance": {**BALANCE, "ladder": ["a", "a"]}}),
    top("variant-balance-components-without-bound", "'component_bound' must be a number",
        variant={"balance": {**BALANCE, "components": {"dibs": ["a"]}}}),
    top("variant-balance-unknown-strength-block", "names the block 'strength-1', which no",
        variant={"balance": {**BALANCE, "check_strength": {"greedy": "strength-1"}}}),
    top("variant-balance-checks-not-a-table", "'checks', 'check_strength' and 'components' m",
        variant={"balance": {**BALANCE, "checks": ["a"]}}),
)  # fmt: skip

IDS = [c.id for c in CASES]
assert len(IDS) == len(set(IDS)), sorted({i for i in IDS if IDS.count(i) > 1})

# ---------------------------------------------------------------------------- running


def write_inputs(root: Path, files: dict[str, Any]) -> None:
    for rel, content in files.items():
        path = root / rel
        if content is DIR:
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def snapshot(root: Path) -> dict[str, str]:
    """Every path under ``root`` with its kind and (for a file) its content's hash."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                out[rel] = "link " + os.readlink(path)
            elif path.is_dir():
                out[rel] = "dir"
            else:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return out


def exists(path: Path) -> bool:
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):
        return False


LAUNCH = (
    "import resource, runpy, sys\n"
    "limit = int(sys.argv.pop(1))\n"
    "if limit:\n"
    "    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
    "sys.argv[0] = 'slicelab'\n"
    "runpy.run_module('sims.cli', run_name='__main__', alter_sys=True)\n"
)
"""``python -c LAUNCH LIMIT ARGS...``: slicelab in a process with an address-space limit."""


def run_process(case: Case, cwd: Path) -> tuple[int | None, str]:
    """The command as a real process: exit status and stdout + stderr (None on timeout)."""
    env = {**os.environ, **case.env}
    cmd = [sys.executable, "-c", LAUNCH, str(case.memory), *case.args]
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        out, _ = proc.communicate(timeout=case.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the process group this case started
        out, _ = proc.communicate()
        text = out.decode("utf-8", "replace")
        return None, f"{text}\n[still running after {case.timeout:g} s: killed]"
    return proc.returncode, out.decode("utf-8", "replace")


def run_in_process(case: Case) -> tuple[int, str]:
    """The command through click's test runner: exit status and stdout + stderr, with the
    traceback of an exception that escaped the command."""
    result = CliRunner().invoke(cli, case.args)
    text = result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        text += "".join(traceback.format_exception(*result.exc_info))
    return result.exit_code, text


def problems(case: Case, code: int | None, text: str, before: dict, after: dict,
             out_existed: bool, cwd: Path) -> list[str]:  # fmt: skip
    """What is wrong with a run of a case (empty when it was refused as it should be)."""
    found = []
    if code != 2:
        found.append(f"exit status {code}, not 2")
    if "Traceback" in text:
        found.append("traceback")
    lines = text.rstrip("\n").split("\n")
    one_line = len(lines) == 1 and lines[0].startswith("error: ")
    if case.usage:
        if not one_line and not re.search(r"^Error: ", text, re.M):
            found.append("neither click's 'Error: ' message nor one 'error: ' line")
    elif not one_line:
        found.append(f"not one 'error: ' line ({len(lines)} lines)")
    wanted = case.fragment if isinstance(case.fragment, tuple) else (case.fragment,)
    if not any(w.lower() in text.lower() for w in wanted):
        found.append(f"no {' or '.join(map(repr, wanted))} in the message")
    if case.out is not None and not out_existed and exists(cwd / case.out):
        found.append(f"--out {case.out[:40]} was created")
    new = sorted(set(after) - set(before))
    changed = sorted(k for k in before if after.get(k) != before[k])
    if new:
        found.append(f"wrote {len(new)} path(s): {', '.join(n[:60] for n in new[:5])}")
    if changed:
        found.append(f"changed or removed {', '.join(changed[:5])}")
    return found


def run_case(case: Case, cwd: Path) -> tuple[int | None, str, list[str]]:
    """Write a case's inputs in ``cwd`` (the working directory), run it, judge it."""
    write_inputs(cwd, case.files)
    if case.readonly:
        (cwd / case.readonly).chmod(0o500)
    before = snapshot(cwd)
    out_existed = case.out is not None and exists(cwd / case.out)
    try:
        case = replace(case, args=[a.replace("{cwd}", str(cwd)) for a in case.args])
        code, text = run_process(case, cwd) if case.proc else run_in_process(case)
    finally:
        if case.readonly:
            (cwd / case.readonly).chmod(0o700)
    after = snapshot(cwd)
    return code, text, problems(case, code, text, before, after, out_existed, cwd)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_bad_input_is_refused_cleanly(case: Case, tmp_path: Path, monkeypatch) -> None:
    if case.readonly and os.geteuid() == 0:
        pytest.skip("root writes into read-only directories")
    monkeypatch.chdir(tmp_path)
    code, text, found = run_case(case, tmp_path)
    head = "\n".join(text.rstrip("\n").split("\n")[:12])
    assert not found, f"{'; '.join(found)}\n--- output (exit {code}) ---\n{head}"


def test_enough_cases() -> None:
    assert len(CASES) >= 170


@pytest.mark.parametrize("out", ["x run", "données"], ids=["space", "non-ascii"])
def test_odd_but_valid_out_names_work(out: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        cli, ["simulate", "nyslice", "--players", "2", "--games", "5", "--out", out]
    )
    assert result.exit_code == 0, result.output + "".join(
        traceback.format_exception(*result.exc_info) if result.exc_info else []
    )
    assert (tmp_path / out / "manifest.json").is_file()
