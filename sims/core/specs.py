"""Strategy spec strings: ``name`` or ``name(key=value, ...)``, e.g. ``heuristic(theta=0.8)``."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

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


def _value(text: str) -> float | int | str | bool:
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
            params[key] = _value(pm.group(2))
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
