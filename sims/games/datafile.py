"""Reading a game's data file (a deck, a cake, a deck family): shared by every game, so
each refuses a missing, unreadable, non-UTF-8 or non-TOML file with the same message."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from sims.core.errors import DataFileError


def read_toml(
    path: str | Path, what: str, error: type[DataFileError] = DataFileError
) -> dict[str, Any]:
    """The table of a TOML data file.

    Parameters
    ----------
    path : path
        The file.
    what : str
        What the file is, for messages (``"deck"``, ``"cake"``).
    error : type
        The :class:`~sims.core.errors.DataFileError` subclass raised.

    Raises
    ------
    DataFileError
        ``"<what> <path>: ..."`` naming the problem and the fix.
    """
    p = Path(path)
    if not p.is_file():
        raise error(f"{what} {p}: no such file; pass the path of a {what} TOML file")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise error(f"{what} {p}: cannot be read ({exc.strerror or exc})") from None
    try:
        # utf-8-sig: TOML is UTF-8; a byte-order mark some editors write is dropped
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(
            f"{what} {p}: is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset "
            f"{exc.start}); save it as UTF-8"
        ) from None
    return parse_toml(text, f"{what} {p}", error)


def parse_toml(
    text: str, source: str, error: type[DataFileError] = DataFileError
) -> dict[str, Any]:
    """The table of TOML ``text``; ``source`` names it in the message of an error."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{source}: is not valid TOML ({exc})") from None
