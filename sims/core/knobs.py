"""Knobs: the rule and data parameters a designer could change, declared by each game.

A :class:`Knob` names one value of an arm block's options (a rule option, or one entry of a
list-valued rule such as New York Slice's compensation by position), the values it may
take, the printed rules' value and a notion of the size of a change. A :class:`DataKnob`
names a number of the game's data file instead (a garbage card's penalty, a variety's
value): setting it writes the file with that number changed (content-addressed, under
:func:`knob_data_dir`) and points the arm's data option at it, so both engines read it
as they read any data file the designer gives. Games list theirs as
``Game.knobs``; ``slicelab balance`` (:mod:`sims.balance`) searches them. A knob is only
ever a value both engines read (a rule option goes into the arm block, a data knob's file
is the arm's data file, so the agreement tests cover both:
``tests/test_game_conformance.py`` plays every knob's end values on both engines).
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

from sims.core.errors import SlicelabError


@dataclass(frozen=True)
class Knob:
    """One changeable rule value.

    Attributes
    ----------
    name : str
        How a designer names it (``compensation.1``, ``supply``): unique within a game.
    help : str
        One line on what it changes.
    values : tuple
        Every value it may take, in order (numbers ascending; the printed value among them).
    default : Any
        The value under the printed rules (the rules' own default).
    option : str
        The arm-block key holding it (a ``table`` option, ``rules``).
    key : str
        The rule's name in that table (default: ``name``).
    index : int or None
        For a list-valued rule, the entry this knob sets (missing entries are 0).
    unit : str
        The unit of one step (``points``, ``toppings``); empty for a choice.
    min_players : int
        The smallest table at which it changes anything (a later position's compensation
        does nothing at a smaller table; a 2-player rule names 2 in ``max_players``).
    max_players : int or None
        The largest table at which it changes anything (None: every table).
    """

    name: str
    help: str
    values: tuple[Any, ...]
    default: Any
    option: str = "rules"
    key: str = ""
    index: int | None = None
    unit: str = ""
    min_players: int = 1
    max_players: int | None = None

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", self.name)
        if self.default not in self.values:
            raise ValueError(f"knob {self.name}: default {self.default!r} not among its values")

    @property
    def numeric(self) -> bool:
        """Whether its values are numbers (a change has a size in steps), not choices."""
        return all(isinstance(v, int | float) and not isinstance(v, bool) for v in self.values)

    def acts_at(self, players: int) -> bool:
        """Whether it changes anything at a table of ``players``."""
        return players >= self.min_players and (
            self.max_players is None or players <= self.max_players
        )

    def read(self, options: Mapping[str, Any]) -> Any:
        """Its value in an arm block's ``options`` (the default when not set there)."""
        table = options.get(self.option) or {}
        if self.key not in table:
            return self.default
        value = table[self.key]
        if self.index is None:
            return value
        entries = _entries(value)
        return entries[self.index] if self.index < len(entries) else 0

    def set(self, options: Mapping[str, Any], value: Any) -> dict[str, Any]:
        """A copy of ``options`` with this knob at ``value``."""
        out = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in options.items()}
        table = dict(out.get(self.option) or {})
        if self.index is None:
            table[self.key] = value
        else:
            entries = _entries(table.get(self.key, ()))
            entries += [0] * (self.index + 1 - len(entries))
            entries[self.index] = value
            while entries and entries[-1] == 0:  # the rules' own normal form
                entries.pop()
            table[self.key] = entries
        out[self.option] = table
        return out

    def size(self, value: Any, base: Any) -> float:
        """How big a change from ``base`` to ``value`` is: steps along the values for a
        number (one step between neighbours), 1 for a different choice."""
        if value == base:
            return 0.0
        if self.numeric:
            return float(abs(self.values.index(value) - self.values.index(base)))
        return 1.0

    def parse(self, text: str) -> Any:
        """One of its values from command-line text (``3``, ``true``, ``remove``).

        Raises
        ------
        SlicelabError
            Naming the values it may take.
        """
        for v in self.values:
            if str(v).lower() == text.strip().lower():
                return v
        raise SlicelabError(
            f"knob {self.name}: {text!r} is not one of its values; use one of "
            f"{values_text(self.values)}"
        )

    def describe(self, value: Any) -> str:
        """``compensation.1 = 2 points`` (a unit for numbers)."""
        unit = f" {self.unit}" if self.unit and self.numeric else ""
        return f"{self.name} = {_value_text(value)}{unit}"


KNOB_DATA = "knob-data"
"""The folder (under :func:`knob_data_dir`'s home) of the data files data knobs write."""


def knob_data_dir() -> Path:
    """Where data knobs write their files: ``$SLICELAB_HOME/knob-data`` when
    ``SLICELAB_HOME`` is set, else ``knob-data`` in the user's cache folder."""
    home = os.environ.get("SLICELAB_HOME")
    root = Path(home) if home else platformdirs.user_cache_path("slicelab")
    return root / KNOB_DATA


@dataclass(frozen=True)
class DataKnob(Knob):
    """One number of a game's data file (a card's penalty, a variety's value).

    Attributes
    ----------
    paths : tuple of tuple
        Where the number sits in the parsed file: keys and list indices, e.g.
        ``(("garbage", 0, "penalty"),)``; every path gets the value (one knob may set the
        bonus of every radioactive card).
    text : callable
        ``text(option_value) -> str``: the TOML text of the file an arm's data option
        (``option``, e.g. ``cards``) names, ``None`` meaning the game's default file.
    fallback : tuple
        Where to read the value when the first path is absent (a cake's ``value``
        defaults to its ``copies``); empty: none.
    where : callable or None
        ``where(data) -> paths``: the paths found in the parsed file itself, for a knob
        that sets every entry of a kind (every dish of three ingredients), so it acts on
        the arm's own file whatever its order; None: ``paths``.
    pin : tuple of (path, path)
        Entries written out before the change, each as its value or else its fallback's
        (a variety's ``value``, which defaults to its ``copies``, kept when the copies
        change); empty: none.
    """

    paths: tuple[tuple[str | int, ...], ...] = ()
    text: Callable[[Any], str] | None = None
    fallback: tuple[str | int, ...] = ()
    where: Callable[[dict[str, Any]], tuple[tuple[str | int, ...], ...]] | None = None
    pin: tuple[tuple[tuple[str | int, ...], tuple[str | int, ...]], ...] = ()

    def _data(self, options: Mapping[str, Any]) -> dict[str, Any]:
        assert self.text is not None, f"data knob {self.name} has no text function"
        return tomllib.loads(self.text(options.get(self.option)))

    def _paths(self, data: dict[str, Any]) -> tuple[tuple[str | int, ...], ...]:
        paths = self.where(data) if self.where else self.paths
        if not paths:
            raise SlicelabError(f"knob {self.name}: the data file has no entry it sets; "
                                "drop the knob for this file")  # fmt: skip
        return paths

    def read(self, options: Mapping[str, Any]) -> Any:
        """Its value in the data file the arm's ``options`` play."""
        data = self._data(options)
        try:
            return _at(data, self._paths(data)[0])
        except (KeyError, IndexError):
            if not self.fallback:
                raise
            return _at(data, self.fallback)

    def set(self, options: Mapping[str, Any], value: Any) -> dict[str, Any]:
        """A copy of ``options`` playing the data file with this knob at ``value``: the
        file is written once, named by its content, so equal settings share a file; at the
        value it already has, ``options`` are kept as they are (the game as it is plays its
        own file)."""
        if value == self.read(options):
            return dict(options)
        data = self._data(options)
        for path, fallback in self.pin:
            try:
                _at(data, path)
            except KeyError:
                _put(data, path, _at(data, fallback))
        for path in self._paths(data):
            _put(data, path, value)
        text = f"# written by slicelab balance: {self.describe(value)}\n" + tomli_w.dumps(data)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        target = knob_data_dir() / f"{self.option}-{digest}.toml"
        if not target.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(target)  # atomic: a reader sees the whole file or none
        return {**options, self.option: str(target)}


@dataclass(frozen=True)
class FileKnob(Knob):
    """Which of a game's shipped data files an arm plays (Pizza Theory's boards): a
    choice, its values the files' names, set as the arm's data option (``option``, e.g.
    ``board``) as a study would name it."""

    def read(self, options: Mapping[str, Any]) -> Any:
        """The file the arm's ``options`` name (the default when none)."""
        return options.get(self.option) or self.default

    def set(self, options: Mapping[str, Any], value: Any) -> dict[str, Any]:
        """A copy of ``options`` playing the file ``value`` (kept as they are at the file
        they already play)."""
        if value == self.read(options):
            return dict(options)
        return {**options, self.option: value}


def _at(data: Any, path: Sequence[str | int]) -> Any:
    for step in path:
        data = data[step]
    return data


def _put(data: Any, path: Sequence[str | int], value: Any) -> None:
    _at(data, path[:-1])[path[-1]] = value


def _entries(value: Any) -> list[Any]:
    """A list-valued rule's entries: a list or tuple as it is, or the command line's
    ``--rule compensation=0,2`` text split at its commas."""
    if isinstance(value, str):
        try:
            return [int(x) for x in value.split(",") if x.strip()]
        except ValueError:
            return [value]  # not a list of numbers: the rules refuse it with their message
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [value]
    return list(value)


def _value_text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def values_text(values: Sequence[Any]) -> str:
    """A knob's values as a message names them (``0 to 20``, ``apart, anywhere``)."""
    if len(values) > 6 and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return f"{values[0]} to {values[-1]}"
    return ", ".join(_value_text(v) for v in values)


def int_knob(name: str, help: str, low: int, high: int, default: int, **more: Any) -> Knob:
    """A knob over the integers ``low..high``."""
    return Knob(name, help, tuple(range(low, high + 1)), default, **more)


def find_knob(knobs: Sequence[Knob], name: str, title: str) -> Knob:
    """The knob called ``name``.

    Raises
    ------
    SlicelabError
        For an unknown name, listing the game's knobs.
    """
    for k in knobs:
        if k.name == name:
            return k
    known = ", ".join(k.name for k in knobs) or "none"
    raise SlicelabError(f"{title} has no knob {name!r}; its knobs: {known}")


def parse_setting(knobs: Sequence[Knob], text: str, title: str) -> tuple[Knob, Any]:
    """``NAME=VALUE`` as a knob and one of its values.

    Raises
    ------
    SlicelabError
        For a malformed setting, an unknown knob or a value it cannot take.
    """
    if "=" not in text:
        raise SlicelabError(f"{text!r}: write KNOB=VALUE, e.g. {knobs[0].name}=1" if knobs
                            else f"{title} has no knobs")  # fmt: skip
    name, value = text.split("=", 1)
    knob = find_knob(knobs, name.strip(), title)
    return knob, knob.parse(value)
