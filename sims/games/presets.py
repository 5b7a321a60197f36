"""Named parameter sets of a game's tunable strategy family, shared by every game.

A game ships presets in a TOML file inside its package (read only: ``heuristic-eqN``, the
self-play equilibrium that plain ``heuristic`` plays at N players), and a user saves their
own with ``slicelab tune <game> ... --save-preset NAME`` into
``$SLICELAB_HOME/presets/<game>.toml`` (else ``presets/<game>.toml`` in the user's
configuration folder), never into the installed package. A :class:`Presets` holds one
game's files and rules; the game's module exposes its methods under the names its callers
use (``load_presets``, ``save_preset``, ``params_for``, ...).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from sims.core.errors import SlicelabError, StrategySpecError
from sims.core.specs import ParamBound

PRESET_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
"""A preset name a user may save: a letter, then letters, digits, ``_`` or ``-`` (at most
64 characters). It is also a bare TOML key and a strategy spec name."""

SHIPPED_NAME = re.compile(r"heuristic-(p|eq)[0-9]+", re.IGNORECASE)
"""Names of heuristic's per-player-count defaults: a user preset so named would silently
change what plain ``heuristic`` plays, so every such name is reserved."""


_PARSED: dict[tuple, dict[str, dict[str, float]]] = {}
"""Parsed presets files by (game, path, user file?, the file's bytes)."""


@dataclass(frozen=True)
class Presets:
    """One game's presets of its ``heuristic`` family.

    Attributes
    ----------
    game : str
        The registry name (``nyslice``): the user's file is ``presets/<game>.toml``.
    title : str
        The game's title, for the user file's header and messages.
    shipped_file : callable
        Returns the shipped presets file (called on each read, so a test may point the
        game's module at another file).
    defaults : mapping
        Every parameter and its default.
    bounds : mapping
        Every parameter's valid values (:class:`~sims.core.specs.ParamBound`).
    families : callable
        Returns the game's strategy family names (a preset may not take one).
    """

    game: str
    title: str
    shipped_file: Callable[[], Path]
    defaults: Mapping[str, float]
    bounds: Mapping[str, ParamBound]
    families: Callable[[], Iterable[str]]

    # ------------------------------------------------------------------ reading
    def user_file(self) -> Path:
        """Where the presets a user saves live: ``$SLICELAB_HOME/presets/<game>.toml``
        when ``SLICELAB_HOME`` is set (and not empty), else ``presets/<game>.toml`` in the
        user's configuration folder (``platformdirs.user_config_dir("slicelab")``)."""
        home = os.environ.get("SLICELAB_HOME")
        if home:
            base = Path(home).expanduser()
        else:
            import platformdirs

            base = Path(platformdirs.user_config_dir("slicelab"))
        return base / "presets" / f"{self.game}.toml"

    def _error(self, path: Path, problem: str) -> SlicelabError:
        """A one-line error about a presets file, saying how to get out of it."""
        if path == self.shipped_file():
            return SlicelabError(f"presets file {path} shipped with slicelab: {problem}")
        return SlicelabError(
            f"presets file {path}: {problem}; fix or delete that file (it holds only presets "
            "saved with --save-preset)"
        )

    def _read(self, path: Path) -> dict:
        """The parsed file, ``{}`` if it does not exist; a one-line error if unreadable."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except UnicodeDecodeError:
            raise self._error(path, "is not UTF-8 text") from None
        except OSError as exc:
            raise self._error(path, f"cannot be read ({exc.strerror or exc})") from None
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise self._error(path, f"is not valid TOML ({exc})") from None

    def _parse(self, data: Mapping, path: Path, user: bool) -> dict[str, dict[str, float]]:
        """Validated presets of a parsed file: each a table of parameters (and an optional
        ``note``) within :attr:`bounds`; a user file's names must be allowed."""
        out: dict[str, dict[str, float]] = {}
        for name, table in data.items():
            if not isinstance(table, dict):
                raise self._error(path, f"{name!r} must be a table [name] of heuristic "
                                  "parameters")  # fmt: skip
            if user:
                try:
                    self.check_name(name)
                except SlicelabError as exc:
                    raise self._error(path, str(exc)) from None
            params: dict[str, float] = {}
            for key, value in table.items():
                if key == "note":
                    if not isinstance(value, str):
                        raise self._error(path, f"[{name}] note must be a string")
                    continue
                bound = self.bounds.get(key)
                if bound is None:
                    known = ", ".join(self.defaults)
                    raise self._error(
                        path, f"[{name}] has unknown parameter {key!r} (known: note, {known})"
                    )
                try:
                    params[key] = bound.check(name, key, value)
                except StrategySpecError as exc:
                    raise self._error(path, str(exc)) from None
            out[name] = params
        return out

    def _presets(self, path: Path, user: bool) -> dict[str, dict[str, float]]:
        """:meth:`_parse` of :meth:`_read`, remembered for the file's exact text: a study's
        strategy identities resolve a preset for every seat of every arm, thousands of
        parses of one file otherwise (reading it again is cheap; a changed file is parsed
        anew)."""
        try:
            key = (self.game, str(path), user, path.read_bytes())
        except OSError:  # missing or unreadable: _read says which, every time
            return self._parse(self._read(path), path, user)
        if key not in _PARSED:
            _PARSED[key] = self._parse(self._read(path), path, user)
        return {name: dict(params) for name, params in _PARSED[key].items()}

    def packaged(self) -> dict[str, dict[str, float]]:
        """The presets shipped with slicelab."""
        return self._presets(self.shipped_file(), user=False)

    def user(self) -> dict[str, dict[str, float]]:
        """The presets the user saved (``{}`` without the file).

        Raises
        ------
        SlicelabError
            Naming the file and the fix, if it cannot be read or parsed, or holds a preset
            with a reserved or malformed name or with invalid parameters.
        """
        return self._presets(self.user_file(), user=True)

    def load(self) -> dict[str, dict[str, float]]:
        """Every named parameter set: the shipped ones, then the user's. The user's file
        cannot redefine a shipped name (:meth:`check_name`), so the merge never overrides;
        it is read here, i.e. only when a preset is looked up or listed."""
        return {**self.packaged(), **self.user()}

    def check_name(self, name: object) -> str:
        """Refuse a name a user preset may not have: malformed (:data:`PRESET_NAME`), a
        strategy family's name, or a shipped preset's (``heuristic-eqN``, ``heuristic-pN``);
        return it when allowed.

        Raises
        ------
        SlicelabError
        """
        if not isinstance(name, str) or not PRESET_NAME.fullmatch(name):
            raise SlicelabError(
                f"preset name {name!r} is not allowed: use a letter, then letters, digits, '_' "
                "or '-' (at most 64 characters), e.g. tuned-p4"
            )
        if name.lower() in set(self.families()):
            raise SlicelabError(
                f"preset name {name!r} is the name of a strategy family; choose another, "
                f"e.g. {name.lower()}-tuned"
            )
        shipped = {n.lower() for n in self.packaged()}
        if SHIPPED_NAME.fullmatch(name) or name.lower() in shipped:
            raise SlicelabError(
                f"preset name {name!r} is reserved for the presets shipped with slicelab "
                "(heuristic-eqN is heuristic's default at N players, heuristic-pN an earlier "
                "one); choose another, e.g. tuned-p4"
            )
        return name

    # ------------------------------------------------------------------ writing
    def save(self, name: str, params: Mapping[str, float], note: str,
             path: Path | None = None) -> Path:  # fmt: skip
        """Add or replace a user preset, keeping the user's others; the file is rewritten
        atomically (a crash leaves the old file or the new one, never half of one) under a
        lock. ``params`` outside :attr:`defaults` are ignored. Returns the file written.

        Raises
        ------
        SlicelabError
            For a disallowed name, an invalid parameter, an existing file that cannot be
            read (it is left untouched) or a file that cannot be written.
        """
        from filelock import FileLock, Timeout

        self.check_name(name)
        values = {}
        for k in self.defaults:
            if k in params:
                try:
                    values[k] = self.bounds[k].check(name, k, params[k])
                except StrategySpecError as exc:
                    raise SlicelabError(f"cannot save preset {name!r}: {exc}") from None
        path = path or self.user_file()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # read, update and replace under a lock, so two runs saving at once both keep
            # their preset
            with FileLock(path.with_name(f".{path.name}.lock"), timeout=30):
                self._write(path, name, values, note)
        except Timeout:
            raise SlicelabError(
                f"cannot save preset {name!r}: presets file {path} is locked by another run"
            ) from None
        except OSError as exc:
            raise SlicelabError(
                f"cannot write presets file {path} ({exc.strerror or exc}); set SLICELAB_HOME "
                "to a writable folder"
            ) from None
        return path

    def _write(self, path: Path, name: str, values: dict[str, float], note: str) -> None:
        data = self._read(path)
        self._parse(data, path, user=True)  # refuse to rewrite a file we would misread
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = ""
        header = [line for line in text.splitlines() if line.startswith("#")]
        tables = {k: dict(v) for k, v in data.items()}
        # a lone surrogate cannot be written as UTF-8: replace it rather than fail the save
        tables[name] = {"note": str(note).encode("utf-8", "replace").decode("utf-8"), **values}
        lines = header or [
            f"# {self.title} heuristic presets saved by `slicelab tune {self.game} ... "
            "--save-preset NAME`.",
            "# Each [name] table can be used as a strategy spec: `name` or `name(theta=0.8)`.",
            "# Rewritten on every save; delete this file to drop them all.",
        ]
        lines.append("")
        for key in sorted(tables):
            lines.append(f"[{key}]")
            lines.extend(f"{k} = {_toml_value(v)}" for k, v in tables[key].items())
            lines.append("")
        out = "\n".join(lines)
        # never write what could not be read back: that would break every later run
        if tomllib.loads(out) != tables:
            raise AssertionError(f"presets file {path} would not read back as written")
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(out)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    # ------------------------------------------------------------------ resolving
    def default_preset(self, n_players: int, shipped: Mapping[str, dict] | None = None) -> str:
        """The preset plain ``heuristic`` plays at ``n_players``: the self-play equilibrium
        ``heuristic-eqN`` where one is shipped, else ``heuristic-pN``."""
        shipped = self.packaged() if shipped is None else shipped
        eq = f"heuristic-eq{n_players}"
        return eq if eq in shipped else f"heuristic-p{n_players}"

    def params_for(
        self, n_players: int, overrides: Mapping[str, float], preset: str | None = None
    ) -> dict[str, float]:
        """Resolved parameters: the defaults, then the player-count preset (or the named
        ``preset``), then explicit ``overrides`` (``avoid``, not a valuation parameter, is
        left out).

        Raises
        ------
        StrategySpecError
            For an unknown ``preset``.
        SlicelabError
            For an unusable user presets file, when ``preset`` is not a shipped one.
        """
        base = dict(self.defaults)
        shipped = self.packaged()
        name = preset or self.default_preset(n_players, shipped)
        if name in shipped:
            base.update(shipped[name])
        elif preset is not None:
            mine = self.user()  # only a user preset needs the user's file
            if preset not in mine:
                raise StrategySpecError(f"unknown heuristic preset {preset!r} ({self.title})")
            base.update(mine[preset])
        base.update({k: float(v) for k, v in overrides.items() if k != "avoid"})
        return base


def _toml_value(value: str | float) -> str:
    # json.dumps escapes quotes, backslashes and control characters as TOML does; with
    # ensure_ascii it would write characters beyond U+FFFF as surrogate pairs, which TOML
    # refuses, so they stay literal (the file is UTF-8). Floats are finite here, and repr
    # of a finite float is valid TOML.
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else repr(float(value))


class TunesHeuristic:
    """The tuning methods of the game protocol (``strategy_defaults``, ``check_preset``,
    ``save_preset``) for a game whose one tunable family is ``heuristic``, with its
    :class:`Presets` from :meth:`presets` (a game's plugin imports its heuristic module
    there, when tuning asks for it, not when the game is loaded)."""

    untunable_note = ""
    """Appended to the refusal of another family (why the others have nothing to tune)."""

    def presets(self) -> Presets:
        """The game's heuristic presets."""
        raise NotImplementedError

    def strategy_defaults(self, family: str, players: int) -> dict[str, float]:
        """``heuristic``'s parameters at ``players`` (its default preset ``heuristic-eqN``
        where one ships, else its defaults)."""
        self._tunable(family)
        return self.presets().params_for(players, {})

    def check_preset(self, family: str, name: str) -> None:
        """Refuse now what :meth:`save_preset` would refuse after a tuning run: a family
        that cannot be tuned, a disallowed name, or a user presets file that cannot be read.

        Raises
        ------
        SlicelabError
        """
        self._tunable(family)
        self.presets().check_name(name)
        self.presets().user()

    def save_preset(self, family: str, name: str, params: dict[str, float], note: str) -> Path:
        """Save ``params`` as the user preset ``name`` (the user's presets file, never the
        installed package) and return that file's path."""
        self._tunable(family)
        return self.presets().save(name, params, note)

    def _tunable(self, family: str) -> None:
        if family != "heuristic":
            raise SlicelabError(
                f"cannot tune {family!r}: {self.presets().title}'s tunable family is "
                f"'heuristic'{self.untunable_note}"
            )
