"""Knobs: the rule parameters a designer could change, declared by each game.

A :class:`Knob` names one value of an arm block's options (a rule option, or one entry of a
list-valued rule such as New York Slice's compensation by position), the values it may
take, the printed rules' value and a notion of the size of a change. Games list theirs as
``Game.knobs``; ``slicelab balance`` (:mod:`sims.balance`) searches them. A knob is only
ever a value both engines read (it goes into the arm block like any rule option, so the
agreement tests cover it: ``tests/test_game_conformance.py`` plays every knob's end values
on both engines).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
            f"{_values_text(self.values)}"
        )

    def describe(self, value: Any) -> str:
        """``compensation.1 = 2 points`` (a unit for numbers)."""
        unit = f" {self.unit}" if self.unit and self.numeric else ""
        return f"{self.name} = {_value_text(value)}{unit}"


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


def _values_text(values: Sequence[Any]) -> str:
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
