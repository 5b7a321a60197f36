"""Is a verdict robust? One headline number recomputed under several conditions — other
fields of players, other plausible decks — and judged together, for any game.

:func:`judge` gives one of a few distinct outcomes, each with its own short label (for a
table or a tag) and a sentence naming the conditions (:class:`Robustness`). The rules,
for the conditions that *veto* (:func:`vetoes`), an equivalence bound ``b`` (the effect
too small to matter, per estimate scale: :data:`DEFAULT_BOUNDS`, 1 pp for percentage
points) and each condition's 95% interval, in order of precedence:

1. ``unchecked`` — "not checked": no condition was computed, or none that vetoes.
2. ``flips`` — "not robust: sign flips": some vetoing interval excludes 0 above and
   another below; the detail names both sides, with the estimates. A flip is evidence,
   so it beats every other outcome.
3. Otherwise, when some vetoing interval excludes 0, the *main effect* is the first that
   does (callers list the main condition first). Every other vetoing condition whose
   interval covers 0 is, most decisive first:

   - ``absent`` — "not robust: no effect in <names>": its interval lies within ±b;
   - ``weaker`` — "not robust: weaker in <names>": its interval reaches beyond ±b but its
     half-width is at most ``|main effect|``, so an effect of the main size would have
     cleared 0 there;
   - ``sparse`` — "not robust: too few games": its half-width is larger than ``|main
     effect|`` (or it has no interval): the check cannot tell. The detail gives the n that
     would settle it, ``n × (half-width / |main effect|)²`` rounded up, in the condition's
     unit: the n at which an interval centred on the main effect would clear 0.

   The label is the most decisive category present (absent, then weaker, then sparse: a
   condition that shows no effect decides the verdict whatever more games say elsewhere);
   the detail names every category present.
4. ``holds`` — "robust": every vetoing interval excludes 0 with the one sign (however
   small the effect: the bound judges only intervals that cover 0; the detail says when
   every interval lies within ±b).
5. No vetoing interval excludes 0:

   - ``null`` — "no effect": every vetoing interval lies within ±b;
   - else ``sparse`` — "not robust: too few games" — for each that reaches beyond ±b (or
     has none), settled at ``n × (2 × half-width / b)²``: the n at which its half-width
     would be ``b / 2``, so that wherever its estimate lands its interval either clears 0
     or lies within ±b.

A verdict that would hold (4) or be null (5) while a condition the study was meant to
check was not run is ``partial`` — "not fully checked". Every failing outcome (2, 3, 5's
sparse) beats it; its detail then also names what was not run. An expected condition that
was not run counts whatever its role (only a :class:`Condition` says whether it vetoes):
a caller for whom a describing field's absence should not matter leaves it out of
``expected``. Robustness is True only for ``holds``; its sign is 0 for every other outcome.

Which conditions veto is declared once, here (:func:`vetoes`): a condition's own ``veto``
when set, else every condition but those whose players play a describing family
(:data:`DESCRIBING_FAMILIES`: random play). Random play scores what chance gives it; it
*describes* how the game behaves without skill and never vetoes a claim about skilled
play. A non-vetoing condition is still named in the detail, with its estimate, and never
changes the outcome.

This is deliberately strict: a designer acting on a verdict should know it does not hinge
on the players modelled or on the assumed values of the components, and why when it does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np
import polars as pl

DEFAULT_BOUNDS: dict[str, float] = {"pp": 1.0, "points": 0.25}
"""The equivalence bound of each estimate scale: an interval within ± this is "no effect".
1 pp of win share; a quarter point for a points estimate (at 4 players New York Slice
measures a point as about 4 pp of a seat's win share, so 0.25 points is about the 1 pp of
the win-share bound). :func:`judge` takes ``bound=`` to override."""
DESCRIBING_FAMILIES = frozenset({"random"})
"""Strategy families whose fields describe and never veto (:func:`vetoes`)."""
OUTCOMES = ("holds", "flips", "absent", "weaker", "sparse", "null", "partial", "unchecked")
"""The outcomes of :func:`judge` (:attr:`Robustness.outcome`)."""


@dataclass(frozen=True)
class Condition:
    """One recomputation of a headline number.

    Attributes
    ----------
    kind : str
        ``"field"`` (who plays) or ``"deck"`` (which components), or another axis.
    name : str
        As a reader sees it, e.g. ``"greedy field"`` or ``"plausible deck 3"``.
    estimate, low, high : float
        The number and its 95% interval (nan when it could not be computed).
    n : int
        Its sample size, in ``unit``.
    unit : str
        What ``n`` counts: ``"games"``, ``"deals"``, ``"seat-games"``...
    scale : str
        What the estimate is measured in: ``"pp"`` (percentage points, the default) or
        ``"points"``; it picks the equivalence bound (:data:`DEFAULT_BOUNDS`).
    veto : bool or None
        Whether the condition may veto the verdict; None (the default) leaves it to
        :func:`vetoes` (every condition vetoes but a describing family's field).
    spec : str
        The strategy spec every seat of the condition's field plays (``"random"``,
        ``"heuristic"``), when the code that builds it knows it; ``""`` otherwise.
    """

    kind: str
    name: str
    estimate: float
    low: float
    high: float
    n: int = 0
    unit: str = "games"
    scale: str = "pp"
    veto: bool | None = None
    spec: str = ""


def sign(low: float, high: float) -> int:
    """+1 if the interval lies above 0, -1 below, 0 if it covers 0 or is undefined."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return 0
    return 1 if low > 0 else -1 if high < 0 else 0


def family(spec: str) -> str:
    """The strategy family of a spec: ``random`` for ``random`` or ``random(seed=1)``."""
    return spec.split("(", 1)[0].strip().lower()


_WEAK: ContextVar[frozenset[str]] = ContextVar("weak_fields", default=frozenset())


@contextmanager
def weak_fields(specs: Iterable[str]) -> Iterator[None]:
    """Within the block, a field condition whose ``spec`` is one of ``specs`` describes and
    never vetoes (:func:`vetoes`). The report sets it to the skill levels too weak to
    matter (:func:`analysis.skill.weak_specs`), computed once from the study's matchups, so
    every game's verdicts follow the one rule without passing it through each call."""
    token = _WEAK.set(frozenset(specs))
    try:
        yield
    finally:
        _WEAK.reset(token)


def vetoes(c: Condition) -> bool:
    """Whether a condition may veto a verdict: its own ``veto`` when set, else True but
    for a field whose players play a describing family (:data:`DESCRIBING_FAMILIES`) or a
    spec too weak to matter (:func:`weak_fields`)."""
    if c.veto is not None:
        return c.veto
    if c.spec and c.spec in _WEAK.get():
        return False
    return family(c.spec) not in DESCRIBING_FAMILIES


def equivalence_bound(conditions: Sequence[Condition], bound: float | None = None) -> float:
    """The equivalence bound for a set of conditions.

    Parameters
    ----------
    conditions : sequence of Condition
        Conditions of one headline.
    bound : float, optional
        An explicit bound (on the conditions' scale); returned as is.

    Returns
    -------
    float
        ``bound``, or the default of the conditions' one scale (:data:`DEFAULT_BOUNDS`).

    Raises
    ------
    ValueError
        Without ``bound``, when the conditions mix scales or their scale has no default;
        or when ``bound`` is not positive.
    """
    if bound is not None:
        if not bound > 0:
            raise ValueError(f"the equivalence bound must be positive, not {bound}")
        return float(bound)
    scales = {c.scale for c in conditions} or {"pp"}
    if len(scales) > 1:
        raise ValueError(f"conditions mix the scales {sorted(scales)}: pass bound=")
    (scale,) = scales
    if scale not in DEFAULT_BOUNDS:
        raise ValueError(f"no default equivalence bound for the scale {scale!r}: pass bound=")
    return DEFAULT_BOUNDS[scale]


@dataclass(frozen=True)
class Robustness:
    """The judgement over conditions.

    Attributes
    ----------
    robust : bool
        True only for the outcome ``holds``.
    sign : int
        +1/-1 for ``holds``; 0 otherwise.
    label : str
        A few words for a table or a tag: ``robust``, ``no effect``, ``not robust: sign
        flips``, ``not robust: no effect in <names>``, ``not robust: weaker in <names>``,
        ``not robust: too few games``, ``not fully checked``, ``not checked``.
    detail : str
        A sentence naming the conditions.
    outcome : str
        One of :data:`OUTCOMES`; inferred from ``robust`` and ``label`` when not given
        (``""``: a hand-made label it cannot place).
    where : tuple of str
        The conditions the outcome is about (those that flip, show no effect, are too
        sparse, were not run...).
    """

    robust: bool
    sign: int
    label: str
    detail: str
    outcome: str = ""
    where: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.outcome:
            object.__setattr__(self, "outcome", _infer_outcome(self.robust, self.label))


def _infer_outcome(robust: bool, label: str) -> str:
    if robust:
        return "holds"
    prefixes = {"not robust: sign": "flips", "not robust: no effect": "absent",
                "not robust: weaker": "weaker", "not robust: too few": "sparse",
                "not robust: a handful": "sparse", "no effect": "null",
                "not fully checked": "partial", "not checked": "unchecked"}  # fmt: skip
    return next((v for k, v in prefixes.items() if label.startswith(k)), "")


def judge(
    conditions: Sequence[Condition], expected: Iterable[str] = (), bound: float | None = None
) -> Robustness:
    """Judge a headline over its conditions (the rules and their precedence are in the
    module docstring).

    Parameters
    ----------
    conditions : sequence of Condition
        The headline under each condition it was computed in (the main one included,
        first: the first vetoing interval clear of 0 is the main effect).
    expected : iterable of str
        Names of conditions the study was meant to check; any not among ``conditions``
        makes a verdict that would hold (or be null) "not fully checked".
    bound : float, optional
        The equivalence bound, on the conditions' scale; by default
        :data:`DEFAULT_BOUNDS` of their scale (:func:`equivalence_bound`).

    Returns
    -------
    Robustness

    Raises
    ------
    ValueError
        When no bound is given and the conditions' scale has no default or is mixed.
    """
    conds = list(conditions)
    if not conds:
        return Robustness(False, 0, "not checked", "no condition was computed", "unchecked")
    b = equivalence_bound(conds, bound)
    fmt = _Format(conds[0].scale, b)
    have = {c.name for c in conds}
    missing = tuple(dict.fromkeys(name for name in expected if name not in have))
    veto = [c for c in conds if vetoes(c)]
    note = _describing(conds, fmt)
    if not veto:
        return Robustness(False, 0, "not checked", "no condition that vetoes was computed"
                          + note, "unchecked", missing)  # fmt: skip
    k = len(veto)
    counted = f"{'all ' if k > 1 else 'the '}{k} {'vetoing ' if note else ''}condition" + (
        "s" if k > 1 else ""
    )
    unrun = f"; not checked in {_names(missing)}" if missing else ""
    above = [c for c in veto if sign(c.low, c.high) > 0]
    below = [c for c in veto if sign(c.low, c.high) < 0]
    if above and below:
        first = above if veto.index(above[0]) < veto.index(below[0]) else below
        other = below if first is above else above
        return Robustness(False, 0, "not robust: sign flips",
                          f"the sign flips: {_side(first)} zero in {fmt.brief(first)}, "
                          f"{_side(other)} in {fmt.brief(other)}" + unrun + note, "flips",
                          tuple(c.name for c in other))  # fmt: skip
    clear = above or below
    rest = [c for c in veto if sign(c.low, c.high) == 0]
    if clear:
        main = clear[0]
        groups = _classify(rest, main, fmt)
        for outcome in ("absent", "weaker", "sparse"):
            if groups[outcome]:
                return _failing(outcome, groups, main, fmt, unrun + note)
        small = (f"; every interval lies within {fmt.band}, an effect smaller than the "
                 "equivalence bound" if all(fmt.within(c) for c in veto) else "")  # fmt: skip
        if missing:
            return Robustness(False, 0, "not fully checked",
                              f"{_side(clear)} zero in {counted} computed, but not "
                              f"checked in {_names(missing)}" + small + note, "partial",
                              missing)  # fmt: skip
        return Robustness(True, sign(main.low, main.high), "robust", f"{_side(clear)} zero "
                          f"in {counted} ({_kinds(veto)})" + small + note,
                          "holds")  # fmt: skip
    if all(fmt.within(c) for c in veto):
        if missing:
            return Robustness(False, 0, "not fully checked",
                              f"every interval lies within {fmt.band} in {counted} "
                              f"computed, but not checked in {_names(missing)}" + note,
                              "partial", missing)  # fmt: skip
        return Robustness(False, 0, "no effect", f"every interval lies within {fmt.band} in "
                          f"{counted} ({_kinds(veto)})" + note, "null")  # fmt: skip
    sparse = [c for c in rest if not fmt.within(c)]
    groups = {"absent": [], "weaker": [], "sparse": sparse}
    within = [c.name for c in rest if fmt.within(c)]
    tail = f"; within {fmt.band} in {_names(within)}" if within else ""
    return _failing("sparse", groups, None, fmt, tail + unrun + note)


def settle_n(c: Condition, reference: float) -> int:
    """The sample size (in ``c.unit``) at which ``c``'s interval would have the half-width
    ``reference``: ``c.n × (half-width / reference)²`` rounded up (intervals shrink as
    1/√n), and at least ``c.n + 1``.

    Parameters
    ----------
    c : Condition
        A condition with a finite interval and its n.
    reference : float
        The half-width wanted (> 0): ``|main effect|``, say.

    Returns
    -------
    int
    """
    half = (c.high - c.low) / 2
    return max(math.ceil(c.n * (half / reference) ** 2 - 1e-9), c.n + 1)


class _Format:
    """Numbers of one scale as a detail sentence writes them."""

    def __init__(self, scale: str, bound: float) -> None:
        self.scale, self.bound = scale, bound
        self.digits = 1 if bound >= 1 else 2
        self.band = f"±{bound:g} {scale}"

    def within(self, c: Condition) -> bool:
        return bool(np.isfinite(c.low) and np.isfinite(c.high)) and (
            -self.bound <= c.low and c.high <= self.bound
        )

    def num(self, x: float) -> str:
        text = f"{x:+.{self.digits}f}"
        return text.replace("-", "+", 1) if float(text) == 0 else text

    def value(self, c: Condition) -> str:
        if not (np.isfinite(c.low) and np.isfinite(c.high)):
            return f"{self.num(c.estimate)} {self.scale} without an interval"
        return f"{self.num(c.estimate)} {self.scale} [{self.num(c.low)}, {self.num(c.high)}]"

    def listed(self, conds: Sequence[Condition]) -> str:
        return _names([f"{c.name} ({self.value(c)})" for c in conds])

    def brief(self, conds: Sequence[Condition]) -> str:
        """Each name with its estimate when there are at most :data:`FULL`, else names."""
        return self.listed(conds) if len(conds) <= FULL else _names(c.name for c in conds)


def _side(conds: Sequence[Condition]) -> str:
    return "above" if sign(conds[0].low, conds[0].high) > 0 else "below"


def _classify(
    rest: Sequence[Condition], main: Condition, fmt: _Format
) -> dict[str, list[Condition]]:
    """The vetoing conditions whose interval covers 0, by how they fail beside ``main``."""
    m = abs(main.estimate) or fmt.bound
    groups: dict[str, list[Condition]] = {"absent": [], "weaker": [], "sparse": []}
    for c in rest:
        if fmt.within(c):
            groups["absent"].append(c)
        elif not _finite(c) or (c.high - c.low) / 2 > m:
            groups["sparse"].append(c)
        else:
            groups["weaker"].append(c)
    return groups


def _finite(c: Condition) -> bool:
    return bool(np.isfinite(c.low) and np.isfinite(c.high))


FULL = 2
"""A clause gives each condition's estimate when it names at most this many; beyond, their
names only (the conditions table has the numbers)."""


def _failing(
    outcome: str, groups: dict[str, list[Condition]], main: Condition | None, fmt: _Format,
    tail: str,
) -> Robustness:  # fmt: skip
    """The Robustness of a failing outcome: its own clause first (with the estimates), then
    the other categories present, briefly."""
    order = [outcome] + [o for o in ("absent", "weaker", "sparse") if o != outcome]
    clauses = [_clause(o, groups[o], main, fmt, first=o == outcome) for o in order if groups[o]]
    names = [c.name for c in groups[outcome]]
    where = _names(names) if len(names) <= FULL else f"{len(names)} conditions"
    label = {
        "absent": f"not robust: no effect in {where}",
        "weaker": f"not robust: weaker in {where}",
        "sparse": "not robust: too few games",
    }[outcome]
    return Robustness(False, 0, label, "; ".join(clauses) + tail, outcome, tuple(names))


def _clause(
    outcome: str, conds: Sequence[Condition], main: Condition | None, fmt: _Format, first: bool
) -> str:
    """One category's clause: ``no effect in …``, ``weaker in …``, ``too few games …``."""
    full = first and len(conds) <= FULL
    named = fmt.listed(conds) if full else _names([c.name for c in conds])
    if outcome == "absent":
        if not first:
            return f"no effect (within {fmt.band}) in {named}"
        return (f"no effect in {named}: within {fmt.band}, while {main.name} is "
                f"{_side([main])} zero ({fmt.value(main)})")  # fmt: skip
    if outcome == "weaker":
        if not first:
            return f"weaker in {named}"
        return (f"weaker in {named}: covering 0 and not within {fmt.band}, though narrow "
                f"enough for {main.name}'s {fmt.num(main.estimate)} {fmt.scale} to have "
                "cleared 0")  # fmt: skip
    finite = [c for c in conds if _finite(c)]
    blank = [c.name for c in conds if not _finite(c)]
    text = ""
    if finite:
        named = _names(
            f"{c.name} ({fmt.value(c)}, {c.n:,} {c.unit})" if first and len(finite) <= FULL
            else c.name for c in finite
        )  # fmt: skip
        if main is not None:
            why = f"wider than {main.name}'s {fmt.num(main.estimate)} {fmt.scale}"
        else:
            why = f"covering 0 and reaching beyond {fmt.band}"
        each = "each " if len(finite) > 1 else ""
        text = f"too few games to tell in {named}, {each}{why}{_settle_text(finite, main, fmt)}"
    if blank:
        text += ("; " if text else "too few games to tell: ") + f"no interval in {_names(blank)}"
    return text


def _settle_text(conds: Sequence[Condition], main: Condition | None, fmt: _Format) -> str:
    """``: about 420 deals would settle it``; for two, both n; for more, their range."""
    found = [(c, _settle(c, main, fmt)) for c in conds if c.n > 0]
    if len(found) < len(conds) or not found:
        return "" if not found else ": more games would settle them"
    units = list(dict.fromkeys(c.unit for c, _ in found))
    unit = units[0] if len(units) == 1 else "games"
    ns = [n for _, n in found]
    if len(found) == 1:
        return f": about {ns[0]:,} {unit} would settle it"
    if len(units) > 1:
        return ": about " + _join([f"{n:,} {c.unit}" for c, n in found]) + " would settle them"
    if len(found) == 2:
        return f": about {ns[0]:,} and {ns[1]:,} {unit} would settle them"
    lo, hi = min(ns), max(ns)
    if lo == hi:
        return f": about {lo:,} {unit} each would settle them"
    return f": about {lo:,} to {hi:,} {unit} each would settle them"


def _settle(c: Condition, main: Condition | None, fmt: _Format) -> int:
    """The n that settles a sparse condition: enough for an interval centred on the main
    effect to clear 0 (``n × (half-width / |main|)²``); without a main effect, enough for
    its interval to be decisive wherever its estimate lands (half-width ``b / 2``: it then
    clears 0 or lies within ±b): ``n × (2 half-width / b)²``."""
    if main is not None:
        return settle_n(c, abs(main.estimate) or fmt.bound)
    return settle_n(c, fmt.bound / 2)


def _describing(conds: Sequence[Condition], fmt: _Format) -> str:
    """``; the random field, which describes and does not veto: +1.3 pp [+0.9, +1.7]``."""
    found = [c for c in conds if not vetoes(c)]
    if not found:
        return ""
    named = [f"the {c.name}" if c.kind == "field" else c.name for c in found]
    many = len(found) > 1
    values = _names(fmt.value(c) for c in found) if not many else _names(
        f"{n} {fmt.value(c)}" for n, c in zip(named, found, strict=True))  # fmt: skip
    return (
        f"; {_names(named)}, which {'describe' if many else 'describes'} and "
        f"{'do' if many else 'does'} not veto: {values}"
    )


def _names(names: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``; names that differ only by a trailing number are
    grouped: ``plausible decks 1, 3 and 4``."""
    groups: dict[str, list[str]] = {}
    for name in names:
        head, _, tail = name.rpartition(" ")
        key = head if head and tail.isdigit() else name
        groups.setdefault(key, []).append(tail if key != name else name)
    items = []
    for key, members in groups.items():
        if len(members) > 1 and members != [key] * len(members):
            items.append(f"{key}s {_join(members)}")
        else:
            items.extend(f"{key} {m}" if m != key else key for m in members)
    return _join(items)


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _kinds(conditions: Sequence[Condition]) -> str:
    counts: dict[str, int] = {}
    for c in conditions:
        counts[c.kind] = counts.get(c.kind, 0) + 1
    return ", ".join(f"{v} {k}{'s' if v != 1 else ''}" for k, v in counts.items())


def common_set(
    best: Mapping[str, pl.DataFrame | None],
    players: int,
    row: Callable[[str, dict, list[float]], dict],
    schema: Mapping[str, pl.DataType],
    column: str = "theta_set",
) -> tuple[pl.DataFrame, list[float], list[str]]:
    """The not-worse set of a swept value in every condition, and the values in all of
    them: a best value is robust only where one value is safe in every condition.

    Parameters
    ----------
    best : mapping of str to pl.DataFrame or None
        Each condition's best-value table (one row a player count, with ``column``), None
        where the study did not run it.
    players : int
        The player count compared.
    row : callable
        ``row(condition, best_row, members)``: the condition's row of the returned table.
    schema : mapping
        The returned table's schema.
    column : str
        The column of the set (the values not significantly worse than the best).

    Returns
    -------
    (table, common, missing)
        One row a condition with the count (``row``'s); the values in every one of their
        sets, sorted (empty: no value is safe everywhere); the conditions not run or
        without the count, in ``best``'s order.
    """
    rows, sets, missing = [], [], []
    for name, b in best.items():
        at = None if b is None else b.filter(pl.col("players") == players)
        if at is None or at.is_empty():
            missing.append(name)
            continue
        x = at.row(0, named=True)
        members = [float(v) for v in x[column]]
        sets.append(set(members))
        rows.append(row(name, x, members))
    common = sorted(set.intersection(*sets)) if sets else []
    return pl.DataFrame(rows, schema=schema), common, missing


def conditions_table(rows: dict[str, Sequence[Condition]]) -> pl.DataFrame:
    """Every condition of every headline as one table, for an appendix.

    Parameters
    ----------
    rows : dict of str to sequence of Condition
        Per headline, its conditions.

    Returns
    -------
    pl.DataFrame
        ``headline, kind, condition, estimate, low, high, n, unit, sign`` and ``vetoes``
        (:func:`vetoes`: False for a condition that describes only).
    """
    out = [
        {"headline": h, "kind": c.kind, "condition": c.name, "estimate": c.estimate,
         "low": c.low, "high": c.high, "n": c.n, "unit": c.unit, "sign": sign(c.low, c.high),
         "vetoes": vetoes(c)}
        for h, conds in rows.items()
        for c in conds
    ]  # fmt: skip
    schema = {"headline": pl.String, "kind": pl.String, "condition": pl.String,
              "estimate": pl.Float64, "low": pl.Float64, "high": pl.Float64, "n": pl.Int64,
              "unit": pl.String, "sign": pl.Int64, "vetoes": pl.Boolean}  # fmt: skip
    return pl.DataFrame(out, schema=schema)


def plot_conditions(
    found: Mapping[object, Sequence[Condition]],
    ax,
    label: str,
    names: Sequence[str] = (),
    styles: Mapping[str, tuple[str, str]] | None = None,
    key_text: Callable[[object], str] = lambda k: f"{k} players",
    hollow: Callable[[Condition], bool] | None = None,
) -> None:
    """One row per key of ``found`` (a player count, say), one marker with its 95% interval
    per condition, in the order of ``names`` (conditions not named go last), coloured by
    ``styles`` (name → ``(colour, marker)``; grey triangles otherwise); a condition for
    which ``hollow`` is true gets an open marker (e.g. an exact value). The legend sits
    right of the axes."""
    styles = styles or {}
    keys = sorted(found)
    names = list(names)
    step = 0.8 / max(len(names), 1)
    seen: set[str] = set()
    for i, key in enumerate(keys):
        for c in found[key]:
            j = names.index(c.name) if c.name in names else len(names)
            y = i - 0.4 + step * (j + 0.5)
            colour, marker = styles.get(c.name, ("0.5", "^"))
            if np.isfinite(c.low) and np.isfinite(c.high):
                ax.errorbar([c.estimate], [y], xerr=[[c.estimate - c.low], [c.high - c.estimate]],
                            fmt="none", ecolor=colour, capsize=2, elinewidth=0.9,
                            zorder=3)  # fmt: skip
            face = "white" if hollow is not None and hollow(c) else colour
            ax.plot([c.estimate], [y], marker, color=colour, mfc=face, ms=4, zorder=4,
                    label=None if c.name in seen else c.name)  # fmt: skip
            seen.add(c.name)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(keys)), [key_text(k) for k in keys], fontsize=7)
    ax.set_ylim(len(keys) - 0.5, -0.5)
    ax.set_xlabel(label, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
