"""Reading a game's rule options (``--rule NAME=VALUE``, a study's ``rules`` table) into its
frozen ``Rules`` dataclass: shared by every game, so each refuses an unknown option, a value
of the wrong type or outside its choices with the same kind of message."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, TypeVar

from sims.core.errors import SlicelabError
from sims.core.limits import Limit

R = TypeVar("R")

KIND = {bool: "true or false", int: "an integer", str: "a string"}
"""How each option type is named in messages."""


def rules_from_dict(
    cls: type[R], options: Mapping[str, Any], title: str, doc: str, skip: Iterable[str] = ()
) -> R:
    """``cls(**options)`` after refusing an option ``cls`` does not have or a value whose
    type differs from the option's default.

    Parameters
    ----------
    cls : dataclass type
        The game's ``Rules``; every field has a default.
    options : mapping
        Option overrides by name.
    title : str
        The game's title, for messages.
    doc : str
        The game's rules document, named in the message of an unknown option.
    skip : iterable of str
        Options whose type ``cls`` checks itself (a list given as text, say).

    Raises
    ------
    SlicelabError
        Naming the unknown option (and the known ones) or the value at fault.
    """
    fields = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    skipped = set(skip)
    defaults = cls()
    for key, value in options.items():
        if key not in fields:
            raise SlicelabError(
                f"unknown {title} rule option {key!r}; known options: "
                f"{', '.join(sorted(fields))} (see {doc})"
            )
        if key in skipped:
            continue
        expected = type(getattr(defaults, key))
        if type(value) is not expected:
            raise SlicelabError(
                f"{title} rule option {key} must be {KIND.get(expected, expected.__name__)}, "
                f"got {value!r}"
            )
    return cls(**options)


def check_choices(rules: Any, choices: Mapping[str, tuple[str, ...]], title: str) -> None:
    """Refuse an option of ``rules`` whose value is not among its ``choices``.

    Raises
    ------
    SlicelabError
    """
    for key, allowed in choices.items():
        value = getattr(rules, key)
        if value not in allowed:
            raise SlicelabError(
                f"{title} rule option {key}={value!r}: use one of "
                f"{', '.join(repr(a) for a in allowed)}"
            )


def check_bools(rules: Any, keys: Iterable[str], title: str) -> None:
    """Refuse an option of ``rules`` among ``keys`` that is not a bool.

    Raises
    ------
    SlicelabError
    """
    for key in keys:
        if type(getattr(rules, key)) is not bool:
            raise SlicelabError(
                f"{title} rule option {key}={getattr(rules, key)!r}: use true or false"
            )


def check_int(title: str, key: str, value: Any, low: int, high: int, hint: str = "") -> None:
    """Refuse an option value that is not an integer from ``low`` to ``high``.

    Raises
    ------
    SlicelabError
    """
    if type(value) is not int or not low <= value <= high:
        raise SlicelabError(
            f"{title} rule option {key}={value!r}: use an integer from {low} to {high}"
            + (f" ({hint})" if hint else "")
        )


def check_limit(title: str, key: str, value: Any, limit: Limit, hint: str = "") -> None:
    """Refuse an integer option's value of another type, or outside its declared limit
    (:class:`~sims.core.limits.Limit`), naming the limit.

    Raises
    ------
    SlicelabError
    """
    if type(value) is not int:
        check_int(title, key, value, limit.low, limit.high, hint=hint)
    limit.check(value, f"{title} rule option {key}={value!r}", SlicelabError)


class RuleOptions:
    """Mixin of a game's frozen ``Rules`` dataclass: :meth:`as_dict` and :meth:`from_dict`
    (through :func:`rules_from_dict`), named by the class's ``TITLE`` and ``DOC`` (and
    ``SKIP``, the options it type-checks itself)."""

    TITLE: ClassVar[str] = "game"
    DOC: ClassVar[str] = "docs/rules/"
    SKIP: ClassVar[tuple[str, ...]] = ()

    def as_dict(self) -> dict[str, Any]:
        """The options as a plain dict (for manifests and variant ids)."""
        return dataclasses.asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> Any:
        """Rules from a dict of option overrides, refusing unknown names and wrong types.

        Raises
        ------
        SlicelabError
            Naming the unknown option (and the known ones) or the value at fault.
        """
        return rules_from_dict(cls, options, cls.TITLE, cls.DOC, cls.SKIP)
