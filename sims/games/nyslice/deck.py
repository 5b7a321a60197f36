"""The New York Slice deck as data: slices and Today's Specials loaded from TOML.

A deck file holds every slice (kind, type or combo pair, pepperoni, anchovies) and the
list of specials. The default is the "reconstructed v1" deck of the spec
(``data/reconstructed_v1.toml``). A malformed file is refused with a :class:`DeckError`
naming the problem, in one line.

Every number on a slice is bounded (:data:`PEPPERONI_RANGE`, :data:`ANCHOVIES_RANGE`) so
that no score can overflow the columns that store it, and the rules' fixed points are
enforced: Veggies, combos and the Anchovy slice carry no pepperoni (a special, or nothing,
is what makes them edible).

The list of specials may name ``blank`` tiles in place of specials (14 tiles in all, no
real special twice): a blank does nothing (``Special.BLANK``); :meth:`Deck.with_blank`
makes such a deck from another for paired "with / without this special" studies.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from importlib import resources
from pathlib import Path

import numpy as np

from sims.core.errors import DataFileError
from sims.core.limits import Limit
from sims.games.datafile import parse_toml, read_toml


class DeckError(DataFileError):
    """A deck file that cannot be used."""


TYPES = tuple(range(3, 12))
"""The numbered pizza types; a type's number is its copy count and its majority value."""

VEGGIE = 3

N_SLICES = 69
"""Slices in a deck: t of each type t (63), 4 combos, the Anchovy slice and the Supreme."""
N_COMBOS = 4

# ----------------------------------------------------------------------------- limits
# Every count of a deck file, declared once: ``parse_deck`` checks each (``Limit.check``),
# the tables' column types are derived from them (``plugin.py``) and the rules document's
# section "Data files" lists them (``DECK_LIMITS``). The kernel sizes its state table by the
# deck's slices and special tiles (``kernel/layout.py``).
SLICES = Limit(
    "slices", "slices", N_SLICES, N_SLICES,
    "t of each type t from 3 to 11, 4 combos, the Anchovy slice and the Supreme",
)  # fmt: skip
COMBOS = Limit("combos", "combo slices", N_COMBOS, N_COMBOS, "the rules' four combos")
ANCHOVY_SLICES = Limit("anchovy_slices", "anchovy slices", 1, 1, "the rules' one Anchovy slice")
SUPREME_SLICES = Limit("supreme_slices", "supreme slices", 1, 1, "the rules' one Supreme")
SPECIALS = Limit(
    "specials", "specials", 14, 14, "one tile per special of the game; any may be a blank",
)  # fmt: skip
PEPPERONI = Limit(
    "pepperoni", "pepperoni on a slice", 0, 20,
    "the per-decision pepperoni column is int8 and a seat's score int16",
)  # fmt: skip
ANCHOVIES = Limit(
    "anchovies", "anchovies on a slice", 0, 20,
    "the per-decision anchovies column is int8 and a seat's score int16",
)  # fmt: skip
SUPREME_PEPPERONI = Limit(
    "supreme_pepperoni", "pepperoni on the supreme slice", 1, PEPPERONI.high,
    "eaten with the type it joins, it must carry some",
)  # fmt: skip
NAME_LENGTH = Limit(
    "name_length", "characters in a deck or type name", 1, 100,
    "a name is one line of titles, tables and messages",
)  # fmt: skip
DECK_LIMITS = (
    SLICES, COMBOS, ANCHOVY_SLICES, SUPREME_SLICES, SPECIALS, PEPPERONI, ANCHOVIES,
    SUPREME_PEPPERONI, NAME_LENGTH,
)  # fmt: skip
"""The limits of a deck file, in the rules document's order."""

PEPPERONI_RANGE = (PEPPERONI.low, PEPPERONI.high)
ANCHOVIES_RANGE = (ANCHOVIES.low, ANCHOVIES.high)
"""The pepperoni and anchovies a slice may carry (the default deck has at most 3 of each).

Why these bounds: the seat score columns (``score``, ``pepperoni``, ``anchovies``, ...)
are int16 (-32,768 to 32,767) and the per-decision ``pepperoni`` and ``anchovies`` columns
int8 (-128 to 127) (``plugin.py``, ``counterfactual.py``). In the worst case one player
ends with all 69 slices; each scores either its pepperoni (eaten) or its anchovies
(collected, plus or minus), so pepperoni + anchovies is within ±69 × 20 = ±1,380. With
majorities ≤ 3 + … + 11 = 63, starred specials from −112 to 112 with their points options
at the ends of their limits (``rules.SPECIAL_POINTS``: Buffet ±3 on 10 types and the
Anchovy slice, Combo Cravings ±6 on 4 combos, You Love Veggies ±6 on 3 Veggies, Day-Old
Pizza and Stuffed Crust ±20; −2 to 36 as printed), Everyone Else's Diet ≥ −(69 // 2) = −34
and a compensation up to 20, a total lies in [−1,526, 1,575] (``plugin.score_range``), and
one slice's 20 fits int8: far from overflow,
and still generous for variant decks. ``test_nyslice_deck.py`` checks this arithmetic."""

NO_PEPPERONI_TYPES = (VEGGIE,)
"""Numbered types whose slices carry no pepperoni: Veggies are eaten only thanks to You
Love Veggies (``docs/rules/nyslice.md``); with pepperoni they would always be edible."""


class Kind(IntEnum):
    """Slice kinds (the integer code is what the compiled kernel stores)."""

    NUMBERED = 0
    COMBO = 1
    ANCHOVY = 2
    SUPREME = 3


class Special(IntEnum):
    """The 14 Today's Specials, in the order of the spec, and the blank tile.

    ``BLANK`` (code 14, slug ``blank``) is not a special of the game: it is a tile that
    does nothing, put in a special's place (:meth:`Deck.with_blank`) to measure what that
    special is worth. It is dealt, cut, taken and owned like any special tile, is never
    rejected and scores nothing. :data:`REAL_SPECIALS` lists the 14 specials without it.
    """

    CUT_IN_LINE = 0
    DIBS = 1
    SNEAK_A_SLICE = 2
    MYSTERY_SLICE = 3
    COMBO_CRAVINGS = 4
    YOU_LOVE_VEGGIES = 5
    SECONDS = 6
    SUPER_SIZED_COMBOS = 7
    TIE_BREAKER = 8
    YOU_LIKE_ANCHOVIES = 9
    BUFFET = 10
    DAY_OLD_PIZZA = 11
    EVERYONE_ELSES_DIET = 12
    STUFFED_CRUST = 13
    BLANK = 14

    @property
    def slug(self) -> str:
        """The name used in deck and study files, e.g. ``cut_in_line``."""
        return self.name.lower()

    @property
    def title(self) -> str:
        """The name printed on the tile."""
        return SPECIAL_TITLES[self]

    @property
    def starred(self) -> bool:
        """Whether the special scores at the end (marked * on the tile)."""
        return self in STARRED


SPECIAL_TITLES = {
    Special.CUT_IN_LINE: "Cut in Line",
    Special.DIBS: "Dibs!",
    Special.SNEAK_A_SLICE: "Sneak-a-Slice",
    Special.MYSTERY_SLICE: "Mystery Slice",
    Special.COMBO_CRAVINGS: "Combo Cravings*",
    Special.YOU_LOVE_VEGGIES: "You Love Veggies*",
    Special.SECONDS: "Seconds",
    Special.SUPER_SIZED_COMBOS: "Super-Sized Combos",
    Special.TIE_BREAKER: "Tie-Breaker",
    Special.YOU_LIKE_ANCHOVIES: "You Like Anchovies!",
    Special.BUFFET: "Buffet*",
    Special.DAY_OLD_PIZZA: "Day-Old Pizza*",
    Special.EVERYONE_ELSES_DIET: "Everyone Else's Diet*",
    Special.STUFFED_CRUST: "Stuffed Crust*",
    Special.BLANK: "Blank",
}
REAL_SPECIALS: tuple[Special, ...] = tuple(s for s in Special if s is not Special.BLANK)
"""The 14 specials of the game, in code order (every :class:`Special` but the blank)."""
N_REAL_SPECIALS = 14
BLANK_SLUG = "blank"
STARRED = frozenset(
    {
        Special.COMBO_CRAVINGS,
        Special.YOU_LOVE_VEGGIES,
        Special.BUFFET,
        Special.DAY_OLD_PIZZA,
        Special.EVERYONE_ELSES_DIET,
        Special.STUFFED_CRUST,
    }
)
_SPECIAL_BY_SLUG = {s.slug: s for s in Special}
assert len(REAL_SPECIALS) == N_REAL_SPECIALS and Special.BLANK.slug == BLANK_SLUG
assert SPECIALS.low == SPECIALS.high == N_REAL_SPECIALS


@dataclass(frozen=True)
class Slice:
    """One pizza slice.

    Attributes
    ----------
    kind : Kind
        Numbered, combo, anchovy or supreme.
    types : tuple of int
        ``(t,)`` for a numbered slice, ``(a, b)`` for a combo, ``()`` otherwise.
    pepperoni, anchovies : int
        Counts printed on the slice.
    """

    kind: Kind
    types: tuple[int, ...]
    pepperoni: int
    anchovies: int

    @property
    def type(self) -> int:
        """The type of a numbered slice, 0 for any other kind."""
        return self.types[0] if self.kind == Kind.NUMBERED else 0

    def label(self, names: dict[int, str] | None = None) -> str:
        """Short human label, e.g. ``8 Mushroom (2p)`` or ``combo 8/10``."""
        if self.kind == Kind.NUMBERED:
            name = f" {names[self.type]}" if names and self.type in names else ""
            extra = f"{self.pepperoni}p" + (f" {self.anchovies}a" if self.anchovies else "")
            return f"{self.type}{name} ({extra})"
        if self.kind == Kind.COMBO:
            return f"combo {self.types[0]}/{self.types[1]}"
        if self.kind == Kind.ANCHOVY:
            return f"Anchovy ({self.anchovies}a)"
        return f"Supreme ({self.pepperoni}p)"


@dataclass(frozen=True)
class Deck:
    """A full New York Slice deck: slices (indexed by id) and special tiles (14, some of
    which may be blanks)."""

    name: str
    slices: tuple[Slice, ...]
    specials: tuple[Special, ...]
    type_names: dict[int, str]

    def __hash__(self) -> int:
        return hash(self.digest)

    @property
    def digest(self) -> str:
        """Hash of the deck's content (not its name), for variant ids and provenance."""
        payload = json.dumps(
            {
                "slices": [
                    [int(s.kind), list(s.types), s.pepperoni, s.anchovies] for s in self.slices
                ],
                "specials": [s.slug for s in self.specials],
            },
            sort_keys=True,
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    def arrays(self) -> dict[str, np.ndarray]:
        """The deck as int arrays indexed by slice id (the kernel's encoding).

        ``kind`` is a :class:`Kind` code; ``type_a`` the numbered type or first combo type;
        ``type_b`` the second combo type (0 otherwise); ``pepperoni``; ``anchovies``.
        """
        n = len(self.slices)
        out = {
            k: np.zeros(n, dtype=np.int64)
            for k in ("kind", "type_a", "type_b", "pepperoni", "anchovies")
        }
        for i, s in enumerate(self.slices):
            out["kind"][i] = int(s.kind)
            if s.types:
                out["type_a"][i] = s.types[0]
            if len(s.types) > 1:
                out["type_b"][i] = s.types[1]
            out["pepperoni"][i] = s.pepperoni
            out["anchovies"][i] = s.anchovies
        return out

    def label(self, slice_id: int) -> str:
        """Human label of a slice id."""
        return self.slices[slice_id].label(self.type_names)

    def with_blank(self, special: Special | str) -> Deck:
        """This deck with ``special``'s tile replaced, in place, by a blank tile.

        The blank takes the special's position in :attr:`specials`, so a deal from the
        same stream is the same deal with the blank where the special was. The name gets
        ``+blank-<slug>``; the digest changes with the content.

        Parameters
        ----------
        special : Special or str
            A special of this deck, or its slug (``"dibs"``).

        Raises
        ------
        DeckError
            For an unknown name, the blank itself, or a special not in this deck.
        """
        valid = [s.slug for s in REAL_SPECIALS]
        slug = special if isinstance(special, str) else Special(special).slug
        if slug not in valid:
            raise DeckError(f"cannot blank {slug!r}: not a special; use one of {', '.join(valid)}")
        special = _SPECIAL_BY_SLUG[slug]
        if special not in self.specials:
            raise DeckError(f"cannot blank {special.slug}: deck {self.name} has no such tile")
        i = self.specials.index(special)
        tiles = (*self.specials[:i], Special.BLANK, *self.specials[i + 1 :])
        return replace(self, name=f"{self.name}+blank-{special.slug}", specials=tiles)


DEFAULT_DECK_FILE = "reconstructed_v1.toml"


def _fail(source: str, msg: str) -> DeckError:
    return DeckError(f"deck {source}: {msg}")


def _bounded_int(entry: dict, key: str, limit: Limit, where: str, source: str) -> int:
    """An integer field within ``limit``; refused naming the limit."""
    if key not in entry:
        raise _fail(source, f"{where} is missing the field '{key}'")
    v = entry[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise _fail(source, f"{where}: {key} must be an integer from {limit.low} to "
                    f"{limit.high}, got {v!r}")  # fmt: skip
    return limit.check(v, f"deck {source}: {where}", DeckError)


_KINDS = {k.name.lower(): k for k in Kind}
_SLICE_FIELDS = {
    Kind.NUMBERED: ("kind", "type", "pepperoni", "anchovies"),
    Kind.COMBO: ("kind", "types", "pepperoni", "anchovies"),
    Kind.ANCHOVY: ("kind", "pepperoni", "anchovies"),
    Kind.SUPREME: ("kind", "pepperoni", "anchovies"),
}


def _parse_slice(entry: object, i: int, source: str) -> Slice:
    where = f"slice #{i + 1}"
    if not isinstance(entry, dict):
        raise _fail(source, f'{where} must be a table like {{ kind = "numbered", type = 4, ... }}')
    kind_name = entry.get("kind")
    if kind_name is None:
        raise _fail(source, f"{where} is missing the field 'kind'")
    # A non-string kind (a list, a table) is not hashable: test the type before the lookup.
    if not isinstance(kind_name, str) or kind_name not in _KINDS:
        raise _fail(source, f"{where} has unknown kind {kind_name!r}; use one of {sorted(_KINDS)}")
    kind = _KINDS[kind_name]
    allowed = _SLICE_FIELDS[kind]
    extra = set(entry) - set(allowed)
    if extra:
        # A numbered slice with 'types' (or a combo with 'type') would have been silently
        # read as the other field only.
        raise _fail(
            source,
            f"{where} has unknown field(s) {sorted(extra)} for "
            f"{'an' if kind_name[0] in 'aeiou' else 'a'} {kind_name} slice; "
            f"allowed: {sorted(allowed)}",
        )
    pep = _bounded_int(entry, "pepperoni", PEPPERONI, where, source)
    anch = _bounded_int(entry, "anchovies", ANCHOVIES, where, source)
    if kind == Kind.NUMBERED:
        if "type" not in entry:
            raise _fail(source, f"{where} is missing the field 'type'")
        t = entry["type"]
        if not isinstance(t, int) or isinstance(t, bool) or t not in TYPES:
            raise _fail(source, f"{where} has unknown type {t!r}; numbered types are 3..11")
        if t in NO_PEPPERONI_TYPES and pep:
            raise _fail(
                source,
                f"{where}: a Veggie (type {t}) has no pepperoni, got pepperoni = {pep}; only "
                "You Love Veggies makes Veggies edible",
            )
        return Slice(kind, (t,), pep, anch)
    if kind == Kind.COMBO:
        pair = entry.get("types")
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or any(not isinstance(t, int) or isinstance(t, bool) or t not in TYPES for t in pair)
            or pair[0] == pair[1]
        ):
            raise _fail(
                source,
                f"{where}: a combo needs 'types' = two different types in 3..11, got {pair!r}",
            )
        if pep:
            raise _fail(
                source,
                f"{where}: a combo has no pepperoni, got pepperoni = {pep}; only Combo "
                "Cravings makes combos edible",
            )
        return Slice(kind, (int(pair[0]), int(pair[1])), pep, anch)
    if kind == Kind.ANCHOVY and pep:
        raise _fail(
            source,
            f"{where}: the anchovy slice has no pepperoni, got pepperoni = {pep}; it is never "
            "eaten, so they would never count",
        )
    return Slice(kind, (), pep, anch)


_TOP_LEVEL = ("name", "specials", "slices", "type_names")
_MAX_NAME = NAME_LENGTH.high


def _label(value: object, what: str, source: str) -> str:
    """A one-line label (a deck or type name): printed in titles, tables and messages."""
    if not isinstance(value, str) or not value.strip() or not value.isprintable():
        raise _fail(
            source,
            f"{what} must be a non-empty one-line string of at most {_MAX_NAME} characters, "
            f"got {value!r}",
        )
    NAME_LENGTH.check(len(value), f"deck {source}: {what}", DeckError)
    return value


def parse_deck(data: dict, source: str = "<data>") -> Deck:
    """Build and validate a :class:`Deck` from parsed TOML data.

    Parameters
    ----------
    data : dict
        The parsed file: ``slices``, ``specials``, optional ``name`` and ``type_names``.
    source : str
        Where the data came from, for messages.

    Returns
    -------
    Deck

    Raises
    ------
    DeckError
        Naming the first problem found: unknown keys, missing fields, values of the wrong
        type or out of bounds, unknown kinds, types or specials, wrong copy counts.
    """
    if not isinstance(data, dict):
        raise _fail(source, "must be a TOML table with 'slices' and 'specials'")
    unknown = sorted(set(data) - set(_TOP_LEVEL))
    if unknown:
        raise _fail(source, f"unknown top-level key(s) {unknown}; allowed: {list(_TOP_LEVEL)}")
    for key in ("slices", "specials"):
        if key not in data:
            raise _fail(source, f"missing the top-level key '{key}'")
    raw = data["slices"]
    if not isinstance(raw, list):
        raise _fail(source, "'slices' must be an array of tables")
    slices = tuple(_parse_slice(e, i, source) for i, e in enumerate(raw))

    counts = Counter(s.type for s in slices if s.kind == Kind.NUMBERED)
    for t in TYPES:
        if counts[t] != t:
            raise _fail(
                source,
                f"type {t} has {counts[t]} slices; a type's number is its copy count, "
                f"so it needs {t}",
            )
    kinds = Counter(s.kind for s in slices)
    ANCHOVY_SLICES.check(kinds[Kind.ANCHOVY], f"deck {source}", DeckError)
    SUPREME_SLICES.check(kinds[Kind.SUPREME], f"deck {source}", DeckError)
    COMBOS.check(kinds[Kind.COMBO], f"deck {source}", DeckError)
    SLICES.check(len(slices), f"deck {source}", DeckError)
    _check_setup_combos(slices, source)
    sup = next(s for s in slices if s.kind == Kind.SUPREME)
    SUPREME_PEPPERONI.check(sup.pepperoni, f"deck {source}", DeckError)

    specials_raw = data["specials"]
    if not isinstance(specials_raw, list):
        raise _fail(source, "'specials' must be an array of names")
    specials = []
    for name in specials_raw:
        # Test the type first: a list or table is not hashable.
        if not isinstance(name, str) or name not in _SPECIAL_BY_SLUG:
            raise _fail(
                source,
                f"unknown special {name!r}; known: {sorted(s.slug for s in REAL_SPECIALS)} "
                f"and {BLANK_SLUG!r} (a blank tile in a special's place)",
            )
        specials.append(_SPECIAL_BY_SLUG[name])
    dup = [s.slug for s, c in Counter(specials).items() if c > 1 and s is not Special.BLANK]
    if dup:
        raise _fail(source, f"special(s) {dup} listed more than once; each tile exists once")
    try:
        SPECIALS.check(len(specials), f"deck {source}", DeckError)
    except DeckError as exc:
        missing = sorted({s.slug for s in REAL_SPECIALS} - {s.slug for s in specials})
        raise DeckError(f"{exc}; missing {missing}" if missing else str(exc)) from None

    names_raw = data.get("type_names", {})
    if not isinstance(names_raw, dict):
        raise _fail(source, "'type_names' must be a table like { 3 = \"Veggie\", 4 = ... }")
    bad_keys = sorted(set(names_raw) - {str(t) for t in TYPES})
    if bad_keys:
        raise _fail(source, f"type_names has unknown type(s) {bad_keys}; types are 3..11")
    type_names = {
        t: _label(names_raw[str(t)], f"type_names.{t}", source)
        if str(t) in names_raw
        else f"Type {t}"
        for t in TYPES
    }
    # without a name of its own a deck is called after its file's stem, not its path, so
    # that the same deck reached by another path is the same deck (and the same study)
    name = _label(data["name"], "'name'", source) if "name" in data else Path(source).stem
    return Deck(
        name=name,
        slices=slices,
        specials=tuple(specials),
        type_names=type_names,
    )


def _check_setup_combos(slices: Sequence[Slice], source: str) -> None:
    """Refuse a deck the 2- and 5-player setups cannot remove their combo from (the 8/10):
    such a deck would fail only when a game is dealt, mid-study."""
    from sims.games.nyslice.rules import SETUP_REMOVALS  # rules.py imports this module

    pairs = Counter(frozenset(s.types) for s in slices if s.kind == Kind.COMBO)
    needed = sorted({frozenset(p) for _, combos in SETUP_REMOVALS.values() for p in combos})
    for pair in needed:
        if pairs[pair] != 1:
            a, b = sorted(pair)
            raise _fail(
                source,
                f"needs exactly one {a}/{b} combo (the 2- and 5-player setups remove it), "
                f"found {pairs[pair]}",
            )


def load_deck(path: str | Path | None = None) -> Deck:
    """Load a deck file; ``None`` loads the default "reconstructed v1" deck.

    Raises
    ------
    DeckError
        If the file is missing or unreadable, is not UTF-8 or not valid TOML, or describes
        an invalid deck.
    """
    if path is None:
        text = (
            resources.files("sims.games.nyslice")
            .joinpath("data")
            .joinpath(DEFAULT_DECK_FILE)
            .read_text()
        )
        data = parse_toml(text, f"deck {DEFAULT_DECK_FILE}", DeckError)
        source = DEFAULT_DECK_FILE
    else:
        data = read_toml(path, "deck", DeckError)
        source = str(Path(path))
    return parse_deck(data, source)


_DEFAULT: Deck | None = None


def default_deck() -> Deck:
    """The default deck, loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_deck(None)
    return _DEFAULT
