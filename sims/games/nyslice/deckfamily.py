"""A family of plausible New York Slice decks: the default deck's assumed values redrawn
within stated ranges, so a balance verdict can be checked against the guesses it rests on.

The public sources fix the types, their copy counts, the 8/10 combo, the Anchovy slice and
the Supreme; every slice's pepperoni and anchovies and the other three combo pairs are
assumptions of the default deck (``docs/rules/nyslice.md``). A *deck-family file* states
those assumptions as ranges::

    name = "nyslice plausible decks"
    seed = 2026          # draw k uses SeedSequence([seed, k])
    draws = 5
    pepperoni = [1, 2, 3]            # each numbered slice (not Veggie) draws one of these
    anchovy_rate = [0.15, 0.35]      # each deck draws a rate r; each such slice has 1 anchovy
                                     # with probability r
    combo_types = [4, 5, 6, 7, 9, 11]  # the three assumed combos pair six of these types

:func:`draw_deck` makes draw ``k`` (1-based) as a deck-file table and :func:`write_decks`
writes every draw beside the family file (``<stem>-<k>.toml``), each checked by loading it
back with :func:`~sims.games.nyslice.deck.load_deck`. The files are committed so a study
can name them (``deck = "decks/nyslice-family-3.toml"``) and a reader can open them;
``python -m sims.games.nyslice.deckfamily FAMILY --check`` verifies they are what the
family file draws.

The same perturbation drawn around another deck — a designer's own — is
:func:`family_around` (the ranges read off that deck) and :func:`plausible_decks` (its
draws as deck files, with ``draw_deck(..., base=deck)`` keeping what the deck fixes):
``slicelab plan nyslice --deck FILE`` points a balance study's plausible-deck blocks at
them.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import textwrap
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sims.games.datafile import read_toml
from sims.games.nyslice.deck import (
    NAME_LENGTH,
    PEPPERONI_RANGE,
    TYPES,
    VEGGIE,
    Deck,
    DeckError,
    Kind,
    Slice,
    default_deck,
    load_deck,
    parse_deck,
)

_KEYS = ("name", "seed", "draws", "pepperoni", "anchovy_rate", "combo_types")
FIXED_COMBO = (8, 10)
"""The public combo (removed by the 2- and 5-player setups); never redrawn."""


@dataclass(frozen=True)
class DeckFamily:
    """The assumed values of the deck and their ranges (see the module notes)."""

    name: str
    seed: int
    draws: int
    pepperoni: tuple[int, ...]
    anchovy_rate: tuple[float, float]
    combo_types: tuple[int, ...]
    source: str = "<data>"
    anchovies: int = 1
    """The anchovies a slice that draws some carries (a family file's is 1)."""


def _fail(source: str, msg: str) -> DeckError:
    return DeckError(f"deck family {source}: {msg}")


def parse_family(data: dict[str, Any], source: str = "<data>") -> DeckFamily:
    """Validate a parsed deck-family file.

    Raises
    ------
    DeckError
        Naming the first problem: an unknown or missing key, a value of the wrong type or
        out of range, combo types that are not six distinct playable types.
    """
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise _fail(source, f"unknown key(s) {unknown}; allowed: {list(_KEYS)}")
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise _fail(source, f"missing key(s) {missing}")
    name, seed, draws = data["name"], data["seed"], data["draws"]
    if not isinstance(name, str) or not name.strip():
        raise _fail(source, "'name' must be a non-empty string")
    for key, value, lo, hi in (("seed", seed, 0, 2**63 - 1), ("draws", draws, 1, 100)):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise _fail(source, f"'{key}' must be an integer from {lo} to {hi}, got {value!r}")
    pep = data["pepperoni"]
    lo, hi = PEPPERONI_RANGE
    if (not isinstance(pep, list) or not pep
            or any(isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi
                   for v in pep)):  # fmt: skip
        raise _fail(source, f"'pepperoni' must list integers from {lo} to {hi}, e.g. [1, 2, 3]")
    rate = data["anchovy_rate"]
    if (not isinstance(rate, list) or len(rate) != 2
            or any(isinstance(v, bool) or not isinstance(v, int | float) for v in rate)
            or not 0 <= rate[0] <= rate[1] <= 1):  # fmt: skip
        raise _fail(source, "'anchovy_rate' must be [low, high] with 0 <= low <= high <= 1")
    combos = data["combo_types"]
    playable = [t for t in TYPES if t not in FIXED_COMBO and t != VEGGIE]
    if (not isinstance(combos, list) or len(set(combos)) != len(combos) or len(combos) < 6
            or any(c not in playable for c in combos)):  # fmt: skip
        raise _fail(source, f"'combo_types' must list at least six distinct types from "
                    f"{playable} (the three assumed combos pair six of them)")  # fmt: skip
    return DeckFamily(name.strip(), seed, draws, tuple(pep), (float(rate[0]), float(rate[1])),
                      tuple(combos), source)  # fmt: skip


def load_family(path: str | Path) -> DeckFamily:
    """Read and validate a deck-family file (:func:`parse_family`)."""
    return parse_family(read_toml(path, "deck family", DeckError), str(Path(path)))


def _combos(deck: Deck) -> tuple[Slice, list[Slice]]:
    """The deck's fixed 8/10 combo and its other combos, in deck order."""
    combos = [s for s in deck.slices if s.kind == Kind.COMBO]
    fixed = next(s for s in combos if set(s.types) == set(FIXED_COMBO))
    return fixed, [s for s in combos if s is not fixed]


def draw_deck(family: DeckFamily, k: int, base: Deck | None = None) -> dict[str, Any]:
    """Draw ``k`` (1-based) of the family, as a deck-file table (``name``, ``specials``,
    ``slices``, ``type_names``); reproducible from ``(family.seed, k)`` alone.

    Parameters
    ----------
    family : DeckFamily
        The ranges the assumed values are drawn from. Empty ``combo_types`` keep the base
        deck's combos.
    k : int
        The draw, from 1.
    base : Deck, optional
        The deck whose fixed values are kept (its Veggies, combos' anchovies, the 8/10
        combo, the Anchovy slice, the Supreme, specials and type names); the default deck
        without one.
    """
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([family.seed, k])))
    base = base or default_deck()
    rate = float(rng.uniform(*family.anchovy_rate))
    veggies = [s for s in base.slices if s.kind == Kind.NUMBERED and s.type == VEGGIE]
    slices: list[dict[str, Any]] = []
    for t in TYPES:
        for j in range(t):
            if t == VEGGIE:  # no pepperoni: kept as the base deck has them
                pep, anch = 0, veggies[j].anchovies
            else:
                pep = int(rng.choice(family.pepperoni))
                anch = family.anchovies * int(rng.random() < rate)
            slices.append({"kind": "numbered", "type": t, "pepperoni": pep, "anchovies": anch})
    fixed, others = _combos(base)
    if family.combo_types:
        chosen = rng.choice(np.array(family.combo_types), size=6, replace=False)
        pairs = [tuple(sorted(map(int, chosen[i : i + 2]))) for i in (0, 2, 4)]
    else:
        pairs = [s.types for s in others]
    slices.append({"kind": "combo", "types": list(FIXED_COMBO), "pepperoni": 0,
                   "anchovies": fixed.anchovies})  # fmt: skip
    slices += [{"kind": "combo", "types": list(p), "pepperoni": 0, "anchovies": s.anchovies}
               for p, s in zip(pairs, others, strict=True)]  # fmt: skip
    for s in base.slices:  # the Anchovy slice and the Supreme are public: kept as they are
        if s.kind in (Kind.ANCHOVY, Kind.SUPREME):
            slices.append({"kind": s.kind.name.lower(), "pepperoni": s.pepperoni,
                           "anchovies": s.anchovies})  # fmt: skip
    return {
        "name": f"{family.name} {k}",
        "specials": [s.slug for s in base.specials],
        "slices": slices,
        "type_names": {str(t): n for t, n in sorted(base.type_names.items())},
        "_rate": rate,
    }


def _toml(deck: dict[str, Any], family: DeckFamily, k: int) -> str:
    """The deck as a readable TOML file in the default deck's layout."""
    return deck_toml(deck, [
        f"# New York Slice deck: draw {k} of the deck family {family.name!r} "
        f"({Path(family.source).name}).",
        "# Written by: python -m sims.games.nyslice.deckfamily "
        f"{Path(family.source).name}; do not edit by hand.",
        f"# Assumed values redrawn: pepperoni from {list(family.pepperoni)} per numbered "
        f"slice, anchovy rate {deck['_rate']:.3f},",
        f"# the three assumed combos paired from types {list(family.combo_types)}.",
    ])  # fmt: skip


def deck_toml(deck: dict[str, Any], header: list[str]) -> str:
    """A deck-file table (:func:`draw_deck`) as a readable TOML file in the default deck's
    layout, after the comment lines ``header``."""
    lines = [
        *header,
        f"name = {_str(deck['name'])}",
        "",
        "specials = [",
        *[f"    {_str(s)}," for s in deck["specials"]],
        "]",
        "",
        "slices = [",
    ]
    for s in deck["slices"]:
        if s["kind"] == "numbered":
            what = f"type = {s['type']}"
        elif s["kind"] == "combo":
            what = f"types = [{s['types'][0]}, {s['types'][1]}]"
        else:
            what = ""
        parts = [f'kind = "{s["kind"]}"', *([what] if what else []),
                 f"pepperoni = {s['pepperoni']}", f"anchovies = {s['anchovies']}"]  # fmt: skip
        lines.append("    { " + ", ".join(parts) + " },")
    lines += ["]", "", "[type_names]"]
    lines += [f"{t} = {_str(n)}" for t, n in deck["type_names"].items()]
    return "\n".join(lines) + "\n"


def _str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


AROUND_DRAWS = 5
"""Plausible decks drawn around a designer's deck (as many as the shipped family's)."""
AROUND_RATE = 0.1
"""How far the anchovy rate is redrawn either side of the deck's own (the shipped family's
range is 0.2 wide too)."""


def _numbered(deck: Deck) -> list[Slice]:
    """The numbered slices whose values are assumptions: every type but the Veggie."""
    return [s for s in deck.slices if s.kind == Kind.NUMBERED and s.type != VEGGIE]


def family_around(deck: Deck, seed: int, draws: int = AROUND_DRAWS) -> DeckFamily:
    """The deck family of plausible decks around ``deck``: the shipped family's kind of
    perturbation, its ranges read off ``deck`` instead of assumed.

    - pepperoni: each numbered non-Veggie slice draws one of the deck's own values on such
      slices, in the deck's proportions (the values with their multiplicity);
    - anchovies: each draw picks a rate within :data:`AROUND_RATE` of the deck's share of
      such slices with anchovies, and each slice then carries the deck's most common
      anchovy count (1 if none) with that probability;
    - combos: the deck's three combos other than 8/10 are re-paired among their six types
      when those are six distinct playable types (as in the default deck), else kept.

    Draw ``k`` uses ``SeedSequence([seed, k])``: reproducible from ``seed`` alone.
    """
    numbered = _numbered(deck)
    pepperoni = tuple(sorted(s.pepperoni for s in numbered))
    with_anchovies = [s.anchovies for s in numbered if s.anchovies]
    rate = anchovy_rate(deck)
    low, high = max(0.0, rate - AROUND_RATE), min(1.0, rate + AROUND_RATE)
    counts = Counter(with_anchovies)
    anchovies = min(counts, key=lambda a: (-counts[a], a)) if counts else 1
    _, others = _combos(deck)
    types = [t for s in others for t in s.types]
    playable = {t for t in TYPES if t not in FIXED_COMBO and t != VEGGIE}
    combo_types = tuple(sorted(types)) if len(set(types)) == 6 and set(types) <= playable else ()
    return DeckFamily(f"{deck.name} plausible", seed, draws, pepperoni,
                      (round(low, 3), round(high, 3)), combo_types, deck.name,
                      anchovies)  # fmt: skip


def anchovy_rate(deck: Deck) -> float:
    """The share of the deck's numbered non-Veggie slices that carry anchovies."""
    numbered = _numbered(deck)
    return sum(1 for s in numbered if s.anchovies) / len(numbered)


def _around_header(
    deck: dict[str, Any], family: DeckFamily, k: int, source: str, own_rate: float
) -> list[str]:
    """The comment heading a plausible deck drawn around another (:func:`plausible_decks`)."""
    counts = Counter(family.pepperoni)
    values = ", ".join(f"{v} on {c}" for v, c in sorted(counts.items()))
    combos = (f"the three combos other than 8/10 re-paired from its types "
              f"{list(family.combo_types)}" if family.combo_types
              else "its combos kept (they are not six distinct types to re-pair)")  # fmt: skip
    low, high = family.anchovy_rate
    what = "anchovy" if family.anchovies == 1 else "anchovies"
    text = (
        f"New York Slice deck: plausible deck {k} of {family.draws} around the deck "
        f"{family.source!r} ({source}), drawn by `slicelab plan` from seed {family.seed} "
        f"(draw {k}); do not edit by hand (run the plan again). Redrawn around that deck as "
        "studies/decks/nyslice-family.toml redraws the default deck's assumed values: each "
        "numbered slice's pepperoni from that deck's values in its proportions "
        f"({values} of its {len(family.pepperoni)} numbered non-Veggie slices); "
        f"{family.anchovies} {what} on a slice with probability {deck['_rate']:.3f} (drawn "
        f"from [{low:.3f}, {high:.3f}]: its own rate {own_rate:.3f} ± {AROUND_RATE:g}); "
        f"{combos}. Kept as that deck has them: its Veggies, the 8/10 combo, the Anchovy "
        "slice, the Supreme, its specials and type names."
    )
    return [f"# {line}" for line in textwrap.wrap(text, 86, break_on_hyphens=False)]


def plausible_decks(deck: Deck, seed: int, source: str, draws: int = AROUND_DRAWS) -> list[str]:
    """The plausible decks around ``deck`` (:func:`family_around`) as deck-file texts, in
    draw order; each is checked by parsing it back as a deck.

    Parameters
    ----------
    deck : Deck
        The deck to perturb.
    seed : int
        The seed of every draw (a study's seed).
    source : str
        How the deck's file is named in each file's header.

    Raises
    ------
    DeckError
        If a draw is not a valid deck (it cannot be, drawn within the deck's own values).
    """
    family = family_around(deck, seed, draws)
    texts = []
    for k in range(1, draws + 1):
        table = draw_deck(family, k, base=deck)
        name = f"{deck.name[: NAME_LENGTH.high - 12]} plausible {k}"
        table["name"] = name
        text = deck_toml(table, _around_header(table, family, k, source, anchovy_rate(deck)))
        parse_deck(tomllib.loads(text), f"plausible deck {k} around {source}")
        texts.append(text)
    return texts


def deck_paths(family: DeckFamily, folder: Path | None = None) -> list[Path]:
    """Where the draws of a family file live: ``<stem>-<k>.toml`` beside it."""
    src = Path(family.source)
    folder = folder or src.parent
    return [folder / f"{src.stem}-{k}.toml" for k in range(1, family.draws + 1)]


def write_decks(family: DeckFamily, folder: Path | None = None) -> list[Path]:
    """Write every draw (atomically), each loaded back and validated as a deck."""
    paths = deck_paths(family, folder)
    for k, path in enumerate(paths, 1):
        text = _toml(draw_deck(family, k), family, k)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        try:
            load_deck(tmp)
        except DeckError:
            os.unlink(tmp)
            raise
        os.replace(tmp, path)
    return paths


def check_decks(family: DeckFamily, folder: Path | None = None) -> list[str]:
    """The draws whose file is missing or differs from what the family draws (empty when
    every file is current)."""
    stale = []
    for k, path in enumerate(deck_paths(family, folder), 1):
        want = _toml(draw_deck(family, k), family, k)
        if not path.is_file() or path.read_text(encoding="utf-8") != want:
            stale.append(str(path))
    return stale


def main(argv: list[str] | None = None) -> int:
    """``python -m sims.games.nyslice.deckfamily FAMILY [--check]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", help="the deck-family TOML file")
    parser.add_argument("--check", action="store_true",
                        help="only check that the written decks are current")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        family = load_family(args.family)
        if args.check:
            stale = check_decks(family)
            for path in stale:
                print(f"stale or missing: {path}", file=sys.stderr)
            return 1 if stale else 0
        for path in write_decks(family):
            print(path)
    except DeckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
