"""The cake as data: varieties, copies, majority values and cream, read from a TOML file a
user can replace (``data/cake.toml`` is the published cake)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from sims.core.errors import DataFileError
from sims.core.limits import Limit
from sims.games.datafile import parse_toml, read_toml

DEFAULT_CAKE_FILE = "cake.toml"
SLICES_PER_CAKE = 11
"""Slices laid in each round's circle."""
ROUNDS = 5
"""Rounds at every player count."""

# ----------------------------------------------------------------------------- limits
# Every count of a cake file, declared once: ``parse_cake`` checks each, the kernel's
# per-variety rows and score columns (``records.SCORE_COLUMNS``, ``kernel/layout.py``) and
# the tables' column types (``plugin.py``) are sized from them, and the rules document's
# section "Data files" lists them (``CAKE_LIMITS``).
_CIRCLES = ROUNDS * SLICES_PER_CAKE  # the slices a game lays: a cake needs at least these
COPIES = Limit(
    "copies", "copies of a variety", 1, 30,
    "a design bound; a seat's count of a variety is an int8 column",
)  # fmt: skip
VARIETIES = Limit(
    "varieties", "varieties", -(-_CIRCLES // COPIES.high), 16,
    f"fewer cannot fill {_CIRCLES} slices; the kernel and the tables keep a count per "
    "variety (collected_v0 .. collected_v15) and won_mask a bit",
)  # fmt: skip
VALUE = Limit(
    "value", "points of a variety's majority (value)", 0, 60,
    "a seat's score, at most 16 x 60 + 55 x 9, is an int16 column",
)  # fmt: skip
CREAM = Limit(
    "cream", "cream on a slice", 0, 9,
    "a seat's cream and score, at most 16 x 60 + 55 x 9, are int16 columns",
)  # fmt: skip
SLICES = Limit(
    "slices", "slices in the cake", _CIRCLES, VARIETIES.high * COPIES.high,
    f"a game lays {ROUNDS} circles of {SLICES_PER_CAKE}; the slice column is int16",
)  # fmt: skip
CAKE_LIMITS = (VARIETIES, SLICES, COPIES, VALUE, CREAM)
"""The limits of a cake file, in the rules document's order."""
MAX_VARIETIES = VARIETIES.high
"""The most varieties (the kernel's per-variety rows, the per-variety score columns)."""
MAX_COPIES = COPIES.high
MAX_VALUE = VALUE.high
MAX_CREAM = CREAM.high


class CakeError(DataFileError):
    """A cake file that cannot be used."""


@dataclass(frozen=True)
class Variety:
    """One variety: its name, how many slices the cake holds, the points for the largest
    collection of it, and the cream on each slice (points when eaten)."""

    name: str
    copies: int
    value: int
    cream: int


@dataclass(frozen=True)
class Cake:
    """A whole cake: its varieties (in file order) and the slices they make.

    Slice ids run variety by variety in file order: the first ``copies`` ids are the first
    variety's, and so on.
    """

    name: str
    varieties: tuple[Variety, ...]
    source: str = DEFAULT_CAKE_FILE

    @property
    def slice_variety(self) -> tuple[int, ...]:
        """The variety index of each slice id."""
        return tuple(v for v, var in enumerate(self.varieties) for _ in range(var.copies))

    @property
    def n_slices(self) -> int:
        return sum(v.copies for v in self.varieties)

    @property
    def unseen(self) -> int:
        """Slices left out of the game unseen (the cake's slices beyond five circles)."""
        return self.n_slices - ROUNDS * SLICES_PER_CAKE

    @property
    def digest(self) -> str:
        """A hash of the cake's content (not its name or file)."""
        payload = json.dumps(
            [[v.name, v.copies, v.value, v.cream] for v in self.varieties], sort_keys=True
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    def index(self, name: str) -> int:
        """The index of the variety called ``name``."""
        for i, v in enumerate(self.varieties):
            if v.name == name:
                return i
        raise KeyError(name)


def _fail(source: str, msg: str) -> CakeError:
    return CakeError(f"cake {source}: {msg}")


def _int(entry: dict, key: str, limit: Limit, where: str, source: str) -> int:
    """An integer field within ``limit`` (refused naming the limit when outside it)."""
    v = entry[key]
    if type(v) is not int:
        raise _fail(source, f"{where}: '{key}' = {v!r} must be an integer from {limit.low} to "
                    f"{limit.high}")  # fmt: skip
    return limit.check(v, f"cake {source}: {where}: '{key}'", CakeError)


def parse_cake(data: dict[str, Any], source: str) -> Cake:
    """Validate a cake table (``name`` and a ``[[variety]]`` array of ``name``, ``copies``,
    ``cream`` and optionally ``value``, which defaults to ``copies``).

    Raises
    ------
    CakeError
        Naming the entry and the field at fault.
    """
    unknown = sorted(set(data) - {"name", "variety"})
    if unknown:
        raise _fail(source, f"unknown key(s) {unknown}; a cake has 'name' and [[variety]]")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail(source, "needs a 'name' (a non-empty string)")
    items = data.get("variety")
    if not isinstance(items, list) or not items:
        raise _fail(source, "needs a [[variety]] array with one table per variety")
    if len(items) > VARIETIES.high:  # refused before reading them
        VARIETIES.check(len(items), f"cake {source}", CakeError)
    out: list[Variety] = []
    for i, entry in enumerate(items):
        where = f"variety {i + 1}"
        if not isinstance(entry, dict):
            raise _fail(source, f"{where} is not a table")
        extra = sorted(set(entry) - {"name", "copies", "value", "cream"})
        if extra:
            raise _fail(source, f"{where}: unknown field(s) {extra}; use name, copies, "
                        "value, cream")  # fmt: skip
        for key in ("name", "copies", "cream"):
            if key not in entry:
                raise _fail(source, f"{where} is missing the field '{key}'")
        vname = entry["name"]
        if not isinstance(vname, str) or not vname.strip() or vname != vname.strip().lower():
            raise _fail(source, f"{where}: 'name' must be a lower-case word, got {vname!r}")
        where = f"variety {i + 1} ({vname})"
        copies = _int(entry, "copies", COPIES, where, source)
        value = _int(entry, "value", VALUE, where, source) if "value" in entry else copies
        cream = _int(entry, "cream", CREAM, where, source)
        out.append(Variety(vname, copies, value, cream))
    names = [v.name for v in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise _fail(source, f"variety name(s) {dup} appear more than once")
    cake = Cake(name.strip(), tuple(out), source)
    VARIETIES.check(len(out), f"cake {source}", CakeError)
    SLICES.check(cake.n_slices, f"cake {source}", CakeError)
    return cake


def load_cake(path: str | Path | None = None) -> Cake:
    """Load a cake file; ``None`` loads the published cake.

    Raises
    ------
    CakeError
        If the file is missing, unreadable, not UTF-8 TOML, or describes an invalid cake.
    """
    if path is None:
        text = resources.files("sims.games.pieceocake").joinpath("data", DEFAULT_CAKE_FILE)
        return parse_cake(parse_toml(text.read_text(), f"cake {DEFAULT_CAKE_FILE}", CakeError),
                          DEFAULT_CAKE_FILE)  # fmt: skip
    return parse_cake(read_toml(path, "cake", CakeError), str(Path(path)))


_DEFAULT: Cake | None = None


def default_cake() -> Cake:
    """The published cake, loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_cake(None)
    return _DEFAULT
