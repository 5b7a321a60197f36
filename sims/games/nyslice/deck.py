"""The New York Slice deck as data: slices and Today's Specials loaded from TOML.

A deck file holds every slice (kind, type or combo pair, pepperoni, anchovies) and the
list of specials. The default is the "reconstructed v1" deck of the spec
(``data/reconstructed_v1.toml``). A malformed file is refused with a :class:`DeckError`
naming the problem.

The list of specials may name ``blank`` tiles in place of specials (14 tiles in all, no
real special twice): a blank does nothing (``Special.BLANK``); :meth:`Deck.with_blank`
makes such a deck from another for paired "with / without this special" studies.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections import Counter
from dataclasses import dataclass, replace
from enum import IntEnum
from importlib import resources
from pathlib import Path

import numpy as np

from sims.core.errors import DataFileError


class DeckError(DataFileError):
    """A deck file that cannot be used."""


TYPES = tuple(range(3, 12))
"""The numbered pizza types; a type's number is its copy count and its majority value."""

VEGGIE = 3


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


def _int_field(entry: dict, key: str, where: str, source: str) -> int:
    if key not in entry:
        raise _fail(source, f"{where} is missing the field '{key}'")
    v = entry[key]
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise _fail(source, f"{where}: '{key}' must be a non-negative integer, got {v!r}")
    return v


def _parse_slice(entry: object, i: int, source: str) -> Slice:
    where = f"slice #{i + 1}"
    if not isinstance(entry, dict):
        raise _fail(source, f'{where} must be a table like {{ kind = "numbered", type = 4, ... }}')
    kinds = {k.name.lower(): k for k in Kind}
    kind_name = entry.get("kind")
    if kind_name is None:
        raise _fail(source, f"{where} is missing the field 'kind'")
    if kind_name not in kinds:
        raise _fail(source, f"{where} has unknown kind {kind_name!r}; use one of {sorted(kinds)}")
    kind = kinds[kind_name]
    pep = _int_field(entry, "pepperoni", where, source)
    anch = _int_field(entry, "anchovies", where, source)
    known = {"kind", "pepperoni", "anchovies", "type", "types"}
    extra = set(entry) - known
    if extra:
        raise _fail(
            source, f"{where} has unknown field(s) {sorted(extra)}; allowed: {sorted(known)}"
        )
    if kind == Kind.NUMBERED:
        t = _int_field(entry, "type", where, source)
        if t not in TYPES:
            raise _fail(source, f"{where} has unknown type {t}; numbered types are 3..11")
        return Slice(kind, (t,), pep, anch)
    if kind == Kind.COMBO:
        pair = entry.get("types")
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or any(not isinstance(t, int) or t not in TYPES for t in pair)
            or pair[0] == pair[1]
        ):
            raise _fail(
                source,
                f"{where}: a combo needs 'types' = two different types in 3..11, got {pair!r}",
            )
        return Slice(kind, (int(pair[0]), int(pair[1])), pep, anch)
    if "type" in entry or "types" in entry:
        raise _fail(source, f"{where}: a {kind_name} slice has no type")
    return Slice(kind, (), pep, anch)


def parse_deck(data: dict, source: str = "<data>") -> Deck:
    """Build and validate a :class:`Deck` from parsed TOML data.

    Raises
    ------
    DeckError
        Naming the first problem found: missing fields, unknown kinds, types or specials,
        wrong copy counts.
    """
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
    if kinds[Kind.ANCHOVY] != 1 or kinds[Kind.SUPREME] != 1:
        raise _fail(
            source,
            "needs exactly 1 anchovy and 1 supreme slice, "
            f"found {kinds[Kind.ANCHOVY]} and {kinds[Kind.SUPREME]}",
        )
    if kinds[Kind.COMBO] != 4:
        raise _fail(source, f"needs exactly 4 combo slices, found {kinds[Kind.COMBO]}")
    if len(slices) != 69:
        raise _fail(source, f"has {len(slices)} slices; New York Slice has 69")
    sup = next(s for s in slices if s.kind == Kind.SUPREME)
    if sup.pepperoni < 1:
        raise _fail(source, "the supreme slice needs at least 1 pepperoni")

    specials_raw = data["specials"]
    if not isinstance(specials_raw, list):
        raise _fail(source, "'specials' must be an array of names")
    specials = []
    for name in specials_raw:
        if name not in _SPECIAL_BY_SLUG:
            raise _fail(
                source,
                f"unknown special {name!r}; known: {sorted(s.slug for s in REAL_SPECIALS)} "
                f"and {BLANK_SLUG!r} (a blank tile in a special's place)",
            )
        specials.append(_SPECIAL_BY_SLUG[name])
    dup = [s.slug for s, c in Counter(specials).items() if c > 1 and s is not Special.BLANK]
    if dup:
        raise _fail(source, f"special(s) {dup} listed more than once; each tile exists once")
    if len(specials) != N_REAL_SPECIALS:
        missing = sorted({s.slug for s in REAL_SPECIALS} - {s.slug for s in specials})
        raise _fail(
            source,
            f"needs the {N_REAL_SPECIALS} specials (any of them may be replaced by "
            f"{BLANK_SLUG!r}), found {len(specials)} tiles (missing {missing})",
        )

    names_raw = data.get("type_names", {})
    type_names = {t: str(names_raw.get(str(t), f"Type {t}")) for t in TYPES}
    return Deck(
        name=str(data.get("name", source)),
        slices=slices,
        specials=tuple(specials),
        type_names=type_names,
    )


def load_deck(path: str | Path | None = None) -> Deck:
    """Load a deck file; ``None`` loads the default "reconstructed v1" deck.

    Raises
    ------
    DeckError
        If the file is missing, is not valid TOML, or describes an invalid deck.
    """
    if path is None:
        text = (
            resources.files("sims.games.nyslice")
            .joinpath("data")
            .joinpath(DEFAULT_DECK_FILE)
            .read_text()
        )
        source = DEFAULT_DECK_FILE
    else:
        p = Path(path)
        source = str(p)
        if not p.is_file():
            raise DeckError(f"deck {source}: no such file; pass the path of a deck TOML file")
        text = p.read_text()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(source, f"is not valid TOML ({exc})") from None
    return parse_deck(data, source)


_DEFAULT: Deck | None = None


def default_deck() -> Deck:
    """The default deck, loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_deck(None)
    return _DEFAULT
