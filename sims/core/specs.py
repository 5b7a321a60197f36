"""Strategy spec strings: ``name`` or ``name(key=value, ...)``, e.g. ``heuristic(theta=0.8)``;
and loading a strategy written in Python, ``package.module:Name(...)`` (:func:`import_code`)."""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sims.core.errors import StrategySpecError

# A name is a built-in strategy (``greedy``) or a Python object ``package.module:Name``.
_SPEC = re.compile(
    r"^\s*([A-Za-z_][A-Za-z0-9_.-]*(?::[A-Za-z_][A-Za-z0-9_]*)?)\s*(?:\((.*)\))?\s*$"
)
_PARAM = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+?)\s*$")


@dataclass(frozen=True)
class StrategySpec:
    """A parsed strategy spec: a family name and its parameters."""

    name: str
    params: dict[str, float | int | str | bool] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.params:
            return self.name
        inner = ",".join(f"{k}={v}" for k, v in sorted(self.params.items()))
        return f"{self.name}({inner})"


def _number_text(x: float) -> str:
    """A bound as a message shows it: ``100``, ``0.5``."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


@dataclass(frozen=True)
class ParamBound:
    """The values a numeric strategy parameter may take: finite, from ``low`` to ``high``
    inclusive, and a whole number if ``integer``.

    These are validity bounds: outside them a strategy means nothing sensible (a negative
    weight inverts it) or a single decision takes unbounded time. They are wider than a
    family's tuning box, which must lie inside them.

    Attributes
    ----------
    low, high : float
        The inclusive range.
    integer : bool
        Whether only whole numbers are allowed (``2.0`` is accepted as 2, ``2.5`` is not).
    """

    low: float
    high: float
    integer: bool = False

    @property
    def text(self) -> str:
        """The bound in words, e.g. ``an integer from 1 to 10000``."""
        kind = "an integer" if self.integer else "a number"
        return f"{kind} from {_number_text(self.low)} to {_number_text(self.high)}"

    def contains(self, value: object) -> bool:
        """Whether ``value`` is allowed (bools and strings never are)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        # Checked before any comparison: nan compares false with everything and inf
        # would pass an integer test on some paths.
        if isinstance(value, float) and not math.isfinite(value):
            return False
        if not self.low <= value <= self.high:
            return False
        return not self.integer or float(value).is_integer()

    def check(self, strategy: str, key: str, value: object) -> float | int:
        """The value as the strategy uses it (``int`` for an integer parameter).

        Parameters
        ----------
        strategy : str
            The strategy's name, for the message.
        key : str
            The parameter's name.
        value : object
            The value given (from a spec string or a preset file).

        Returns
        -------
        float or int

        Raises
        ------
        StrategySpecError
            ``strategy 'search': budget must be an integer from 1 to 10000, got 2.5``.
        """
        if not self.contains(value):
            raise StrategySpecError(
                f"strategy {strategy!r}: {key} must be {self.text}, got {value!r}"
            )
        assert isinstance(value, (int, float))
        return int(value) if self.integer else float(value)


def parse_value(text: str) -> float | int | str | bool:
    """A parameter value written in a spec or a ``NAME=VALUE`` flag: ``true``/``false``
    (any case), an int, a float, else the text without its quotes."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text.strip("'\"")


def parse_spec(text: str) -> StrategySpec:
    """Parse one strategy spec string.

    Parameters
    ----------
    text : str
        ``name`` or ``name(key=value, ...)``.

    Returns
    -------
    StrategySpec
        The name and the parameters, each read as a bool, int, float or string.

    Raises
    ------
    StrategySpecError
        If the text is not ``name`` or ``name(key=value, ...)``, or sets a parameter twice.
    """
    m = _SPEC.match(text)
    if not m:
        raise StrategySpecError(
            f"cannot read strategy spec {text!r}: write a name such as 'greedy' "
            "or 'name(key=value,...)'"
        )
    name, inner = m.group(1), m.group(2)
    params: dict[str, float | int | str | bool] = {}
    if inner and inner.strip():
        for part in inner.split(","):
            pm = _PARAM.match(part)
            if not pm:
                raise StrategySpecError(
                    f"cannot read parameter {part.strip()!r} in strategy spec {text!r}: "
                    "write key=value"
                )
            key = pm.group(1)
            # A repeated key would silently keep only its last value: refuse it instead.
            if key in params:
                raise StrategySpecError(
                    f"strategy spec {text!r} sets parameter {key} twice; give each parameter once"
                )
            params[key] = parse_value(pm.group(2))
    return StrategySpec(name=name, params=params)


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of specs, keeping commas inside parentheses."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


def is_code(text: str) -> bool:
    """Whether a spec names a strategy written in Python (``package.module:Name``), which
    building it would import and run."""
    m = _SPEC.match(text)
    return bool(m) and ":" in m.group(1)


def resolved_params(strategy: Any, players: int) -> dict[str, Any]:
    """Every parameter a built strategy plays with at ``players``: what ``slicelab
    strategies GAME --players N`` lists and a dataset's ``strategy_params`` records.

    A strategy whose parameters depend on the player count resolves them in a
    ``params(players)`` method (the family's defaults, then its preset, ``heuristic-eqN``
    for plain ``heuristic``, then the spec's own); one with fixed parameters merged with
    its defaults holds them in ``p`` (a search); any other has only its spec's. A
    parameter of the spec that the resolved set leaves out (restricted play, ``avoid`` or
    ``forfeit``, which is no valuation parameter) is added as given, so that nothing the
    seat plays under is missing. The games' ``strategy_identity`` keys read the same
    parameters (``tests/test_resolved_params.py`` checks that they agree).

    Parameters
    ----------
    strategy : object
        A strategy built by the game's ``make_strategy`` (it has ``spec``).
    players : int
        The number of seats it plays at.

    Returns
    -------
    dict
        Parameter name → value (float, int, bool or str), a new dict.
    """
    spec = strategy.spec
    params = getattr(strategy, "params", None)
    resolved = params(players) if callable(params) else getattr(strategy, "p", spec.params)
    out = dict(resolved)
    for key, value in spec.params.items():
        out.setdefault(key, value)
    return out


# ------------------------------------------------------------------ Python strategies
# A Python strategy saved beside the user's study file, or in the folder they run slicelab
# from, is found without PYTHONPATH: those two folders are searched after the Python path.
# They are put on sys.path for the lookup only (the import of the module and what it
# imports at its top level) and taken off again, so that running a study never changes
# what other imports in the process find. A study records them in its arms
# (``Arm.code_dirs``), so that worker processes, which never read the study file, search
# the same folders (:func:`import_strategies`).

_CODE_DIRS: ContextVar[tuple[str, ...]] = ContextVar("code_dirs", default=())
"""The folders :func:`import_code` searches after the Python path (:func:`code_search`)."""


def search_path(study_dir: str | Path | None = None) -> tuple[str, ...]:
    """The folders a study's Python strategies are looked for in after the Python path:
    the study file's folder (none for a study from the command line), then the working
    directory, as absolute paths, each once.

    Parameters
    ----------
    study_dir : str or Path, optional
        The study file's folder.

    Returns
    -------
    tuple of str
    """
    dirs = [] if study_dir is None else [os.path.abspath(study_dir)]
    dirs.append(os.getcwd())
    return tuple(dict.fromkeys(dirs))


@contextlib.contextmanager
def code_search(dirs: Sequence[str]) -> Iterator[None]:
    """Within the block, :func:`import_code` also searches ``dirs`` (in order, after the
    Python path)."""
    token = _CODE_DIRS.set(tuple(dirs))
    try:
        yield
    finally:
        _CODE_DIRS.reset(token)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def import_code(name: str) -> Any:
    """The object that a Python strategy's name ``package.module:Name`` names.

    The module is looked for on the Python path first (an installed package or
    ``PYTHONPATH`` wins), then in the folders of the enclosing :func:`code_search` (a
    study's: its file's folder, then the working directory), which are on ``sys.path``
    only while the module is imported.

    Parameters
    ----------
    name : str
        ``package.module:Name``.

    Returns
    -------
    object
        ``Name`` of the module.

    Raises
    ------
    StrategySpecError
        One line naming where the module was looked for and the fix (``PYTHONPATH``), or
        what its import raised, or that the module has no such name.
    """
    module_name = name.split(":", 1)[0]
    dirs = _CODE_DIRS.get()
    if module_name in sys.modules:  # imported before (every chunk builds its strategies)
        return _attribute(sys.modules[module_name], name)
    added = [d for d in dirs if d not in sys.path]
    sys.path.extend(added)
    try:
        if added:  # a folder's listing may be cached from before the file was written
            importlib.invalidate_caches()
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        if module_name != missing and not module_name.startswith(missing + "."):
            raise StrategySpecError(  # the user's module imports something not installed
                f"cannot load strategy {name!r}: importing {module_name} failed: {_first_line(exc)}"
            ) from None
        top = missing.split(".")[0]
        where = f" or in {' or '.join(dirs)}" if dirs else ""
        raise StrategySpecError(
            f"cannot load strategy {name!r}: no module named {missing!r} on the Python path"
            f"{where}; put {top}.py (or the package folder {top}/) beside the study file or "
            "in the working directory, or add the folder that holds it to PYTHONPATH (e.g. "
            "PYTHONPATH=/path/to/that/folder slicelab ...)"
        ) from None
    except Exception as exc:  # the user's code: a syntax error, an exception at import
        raise StrategySpecError(
            f"cannot load strategy {name!r}: importing {module_name} raised "
            f"{type(exc).__name__}: {_first_line(exc)}"
        ) from None
    finally:
        for d in added:
            with contextlib.suppress(ValueError):
                sys.path.remove(d)
    return _attribute(module, name)


def _attribute(module: Any, name: str) -> Any:
    """``Name`` of the module a Python strategy's ``package.module:Name`` imported."""
    module_name, attr = name.split(":", 1)
    try:
        return getattr(module, attr)
    except AttributeError:
        where = getattr(module, "__file__", None) or module_name
        raise StrategySpecError(
            f"cannot load strategy {name!r}: {where} has no {attr!r}; a Python strategy is "
            "named 'package.module:Name', Name(spec) returning an object with "
            "choose(view, decision, rng)"
        ) from None


def load_code_strategy(spec: StrategySpec) -> Any:
    """A strategy written in Python: ``package.module:Name(key=value)`` calls
    ``Name(spec)`` (:func:`import_code` finds it), which must return an object with
    ``choose(view, decision, rng)``; such strategies run on the reference engine.

    An object without a ``spec`` attribute is given the spec it was built from (the
    runner writes it in the ``strategy`` column).

    Raises
    ------
    StrategySpecError
        When the name cannot be imported, building it raises, or the object has no
        ``choose`` method.
    """
    factory = import_code(spec.name)
    try:
        strategy = factory(spec)
    except Exception as exc:  # the user's code, given the user's parameters
        raise StrategySpecError(
            f"strategy {spec}: {spec.name}(spec) raised {type(exc).__name__}: {_first_line(exc)}"
        ) from None
    if not callable(getattr(strategy, "choose", None)):
        raise StrategySpecError(f"{spec.name} did not build a strategy with a choose() method")
    if getattr(strategy, "spec", None) is None:
        try:
            strategy.spec = spec
        except (AttributeError, TypeError):
            raise StrategySpecError(
                f"{spec.name} built a strategy without a spec attribute that cannot be given "
                "one; keep the spec it is built from (self.spec = spec)"
            ) from None
    return strategy


def import_strategies(specs: Iterable[str], dirs: Sequence[str]) -> None:
    """Import the modules of the Python strategies among ``specs``, searching ``dirs``
    too: in a worker process (joblib, Dask), which never parsed the study, before the game
    builds its strategies, which then find the modules already imported.

    Raises
    ------
    StrategySpecError
        As :func:`import_code`.
    """
    with code_search(dirs):
        for text in specs:
            if is_code(text):
                import_code(parse_spec(text).name)
