"""A game's catalogue of built-in strategy families, shared by every game: each family's
factory, parameter defaults, summary and valid values, and the check of a spec's
parameters against them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sims.core.errors import StrategySpecError
from sims.core.specs import ParamBound, StrategySpec


@dataclass(frozen=True)
class Family:
    """A registered strategy family: its factory, parameter defaults, a one-line summary
    and each parameter's valid values."""

    name: str
    factory: Callable[[StrategySpec], Any]
    params: dict[str, float]
    summary: str
    bounds: dict[str, ParamBound] = field(default_factory=dict)


def check_params(spec: StrategySpec, family: Family, also: Iterable[str] = ()) -> None:
    """Refuse a parameter ``family`` does not have (besides the names in ``also``, which
    the caller checks), or a value outside its bounds.

    Raises
    ------
    StrategySpecError
        Naming the parameter and the family's parameters.
    """
    extra = set(also)
    unknown = set(spec.params) - set(family.params) - extra
    if unknown:
        known = ", ".join(sorted([*family.params, *extra])) or "none"
        raise StrategySpecError(
            f"strategy {spec.name!r} has no parameter(s) {sorted(unknown)}; its parameters: {known}"
        )
    for key, value in spec.params.items():
        if key not in extra:
            family.bounds[key].check(spec.name, key, value)
