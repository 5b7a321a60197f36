"""Built-in New York Slice strategies: ``random`` and ``greedy``.

A strategy decides from a :class:`~sims.games.nyslice.view.PlayerView` and its own seat
stream; it never sees the hidden stacks. ``greedy`` is a simple one-step player:

- **eat or collect** — eat when the slice's eat value (pepperoni, +3 for a combo under
  Combo Cravings or a Veggie under You Love Veggies) beats its estimated collection value;
- **collection value** of one more slice of type ``t`` (weight ``w``: 1, ½ per combo
  number, with Super-Sized Combos half ``Rules.super_sized_combo_halves``: 2 by default)
  with own count ``a``, best rival ``b`` and ``u`` unclaimed copies: 0 if the majority
  is out of reach or already safe, else ``t·w / (1 + |a − b|)`` (worth most when the race
  is level); anchovies count against (for with You Like Anchovies!), Buffet adds 1 per new
  type;
- **cut** — assumes every other player takes the portion best by the slicer's own
  valuation, so it maximises the worst portion (it chooses last);
- **choose** — the portion with the highest value including its special;
- **Dibs!** the most valuable slice; **Cut in Line** when the best portion beats the one it
  expects in normal order; **Sneak-a-Slice** the move that most improves its best portion;
  **Supreme** the type it is worth most to; **Seconds** by exact end-of-game scoring.
Ties go to the lowest action, so the choice is a pure function of the view.

Every built-in family also takes ``avoid=<special slug>`` (``greedy(avoid=dibs)``,
``heuristic(avoid=stuffed_crust)``, ``search(budget=4,avoid=dibs)``) or
``forfeit=<special slug>`` (``heuristic(forfeit=day_old_pizza)``): restricted play, an
analysis option the engine enforces for that seat (``docs/rules/nyslice.md``, "Restricted
play"). Under either the seat never receives the special (the tile is forfeited on
receipt); ``avoid`` also keeps it from choosing the special's portion while another is
free. A valuer treats the special a seat plays without as absent from that seat's
portions.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from sims.core.errors import StrategySpecError
from sims.core.specs import StrategySpec, load_code_strategy, parse_spec
from sims.games.catalogue import Family as StrategyInfo
from sims.games.catalogue import check_params
from sims.games.nyslice.deck import REAL_SPECIALS, VEGGIE, Kind, Special
from sims.games.nyslice.engine import Decision, Phase
from sims.games.nyslice.scoring import Holdings, score
from sims.games.nyslice.view import PlayerView


class Strategy(Protocol):
    """What the engine asks of a strategy."""

    spec: StrategySpec

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        """Return one of ``decision.legal``."""
        ...


AVOID = "avoid"
"""A parameter every built-in family takes: the special its seat never takes or uses (it
does not choose the special's portion while another is free; forfeits it if left it)."""
FORFEIT = "forfeit"
"""A parameter every built-in family takes: the special its seat never receives or uses
(it chooses portions as it likes; the tile is forfeited on receipt)."""
RESTRICTIONS = (AVOID, FORFEIT)
"""The restricted-play parameters (not valuation parameters; at most one per spec)."""

_AVOIDABLE = {s.slug: s for s in REAL_SPECIALS}


def _restricted_special(spec: StrategySpec, key: str) -> Special | None:
    value = spec.params.get(key)
    if value is None:
        return None
    if isinstance(value, str) and value in _AVOIDABLE:
        return _AVOIDABLE[value]
    problem = (
        f"{key}={value!r} is not a special"
        if isinstance(value, str)
        else f"{key} must be a special's slug, got {value!r}"
    )
    raise StrategySpecError(
        f"strategy {spec.name!r}: {problem}; write {key}=<slug>, one of: {', '.join(_AVOIDABLE)}"
    )


def avoid_special(spec: StrategySpec) -> Special | None:
    """The special a spec's ``avoid`` parameter names (``None`` without one).

    Raises
    ------
    StrategySpecError
        For a value that is not the slug of one of the 14 specials (the message lists them),
        or a spec that sets both ``avoid`` and ``forfeit``.
    """
    restriction(spec)
    return _restricted_special(spec, AVOID)


def forfeit_special(spec: StrategySpec) -> Special | None:
    """The special a spec's ``forfeit`` parameter names (``None`` without one).

    Raises
    ------
    StrategySpecError
        As :func:`avoid_special`.
    """
    restriction(spec)
    return _restricted_special(spec, FORFEIT)


def restriction(spec: StrategySpec) -> tuple[str, Special] | None:
    """The spec's restricted play as ``(kind, special)``, ``kind`` ``"avoid"`` or
    ``"forfeit"`` (``None``: unrestricted).

    Raises
    ------
    StrategySpecError
        For a value that is not a special's slug, or both parameters set.
    """
    found = [(k, _restricted_special(spec, k)) for k in RESTRICTIONS if k in spec.params]
    if len(found) > 1:
        raise StrategySpecError(
            f"strategy {spec.name!r} sets both avoid and forfeit; a seat plays under one "
            "restriction at most"
        )
    return found[0] if found else None


@dataclass
class RandomStrategy:
    """Uniform over the legal actions of every decision (one ``integers`` draw each)."""

    spec: StrategySpec

    @property
    def avoid(self) -> Special | None:
        """The special this seat avoids (restricted play), or ``None``."""
        return avoid_special(self.spec)

    @property
    def forfeit(self) -> Special | None:
        """The special this seat forfeits (restricted play), or ``None``."""
        return forfeit_special(self.spec)

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        legal = decision.legal
        return legal[int(rng.integers(0, len(legal)))]


SPECIAL_VALUE = {
    Special.CUT_IN_LINE: 2.0,
    Special.DIBS: 2.0,
    Special.SNEAK_A_SLICE: 1.0,
    Special.MYSTERY_SLICE: 2.0,
    Special.COMBO_CRAVINGS: 1.0,
    Special.YOU_LOVE_VEGGIES: 1.0,
    Special.SECONDS: 2.0,
    Special.SUPER_SIZED_COMBOS: 1.0,
    Special.TIE_BREAKER: 2.0,
    Special.YOU_LIKE_ANCHOVIES: 1.0,
    Special.BUFFET: 4.0,
    Special.DAY_OLD_PIZZA: -2.0,
    Special.EVERYONE_ELSES_DIET: 2.0,
    Special.STUFFED_CRUST: 5.0,
    Special.BLANK: 0.0,
}
"""Greedy's flat estimate of what owning each special is worth, in points (the blank tile,
which does nothing, is worth nothing)."""


class _Valuer:
    """Greedy's slice valuations for one seat at one moment (cached per decision)."""

    def __init__(self, view: PlayerView, seat: int) -> None:
        self.view = view
        self.seat = seat
        self.without = view.without(seat)
        self.specials = view.specials(seat)
        self.unclaimed = view.unclaimed()
        self.mine = {t: view.type_count(seat, t) for t in range(3, 12)}
        self.rival = {
            t: max((view.type_count(q, t) for q in range(view.n_players) if q != seat), default=0.0)
            for t in range(3, 12)
        }
        self.held = {t for t, c in self.mine.items() if c > 0}
        self.has_anchovy_slice = any(
            view.deck.slices[s].kind == Kind.ANCHOVY for s in view.collected(seat)
        )

    def type_value(self, t: int, w: float, minus: float = 0.0) -> float:
        a = self.mine[t] - minus
        b = self.rival[t]
        u = self.unclaimed[t]
        tie_ok = Special.TIE_BREAKER in self.specials
        reach = a + w + u
        if reach < b or (reach == b and not tie_ok):
            return 0.0
        if a - b > u:
            return 0.0
        return t * w / (1.0 + abs(a - b))

    def collect_value(self, sid: int, already_collected: bool = False) -> float:
        s = self.view.deck.slices[sid]
        anch = (
            float(s.anchovies)
            if Special.YOU_LIKE_ANCHOVIES in self.specials
            else -float(s.anchovies)
        )
        buffet = Special.BUFFET in self.specials
        if s.kind == Kind.NUMBERED:
            v = self.type_value(s.type, 1.0, 1.0 if already_collected else 0.0)
            if buffet and s.type not in self.held:
                v += 1.0
            return v + anch
        if s.kind == Kind.COMBO:
            w = 0.5
            if Special.SUPER_SIZED_COMBOS in self.specials:
                w = 0.5 * self.view.rules.super_sized_combo_halves
            v = 0.0
            for t in s.types:
                v += self.type_value(t, w, w if already_collected else 0.0)
                if buffet and t not in self.held:
                    v += 1.0
            return v + anch
        if s.kind == Kind.ANCHOVY:
            return anch + (1.0 if buffet and not self.has_anchovy_slice else 0.0)
        best = 1.0  # a waiting Supreme: some later type will take it
        for t in sorted(self.held):
            best = max(best, self.type_value(t, 1.0))
        return best + anch

    def eat_value(self, sid: int, portion_special: Special | None = None) -> float:
        s = self.view.deck.slices[sid]
        v = float(s.pepperoni)
        if s.kind == Kind.COMBO and (
            Special.COMBO_CRAVINGS in self.specials or portion_special == Special.COMBO_CRAVINGS
        ):
            v += 3.0
        if (
            s.kind == Kind.NUMBERED
            and s.type == VEGGIE
            and (
                Special.YOU_LOVE_VEGGIES in self.specials
                or portion_special == Special.YOU_LOVE_VEGGIES
            )
        ):
            v += 3.0
        return v

    def edible(self, sid: int, portion_special: Special | None = None) -> bool:
        s = self.view.deck.slices[sid]
        if s.kind == Kind.ANCHOVY:
            return False
        if s.kind == Kind.COMBO and (
            Special.COMBO_CRAVINGS in self.specials or portion_special == Special.COMBO_CRAVINGS
        ):
            return True
        if (
            s.kind == Kind.NUMBERED
            and s.type == VEGGIE
            and portion_special == Special.YOU_LOVE_VEGGIES
        ):
            return True
        return s.pepperoni >= 1

    def slice_value(self, sid: int, portion_special: Special | None = None) -> float:
        c = self.collect_value(sid)
        if self.edible(sid, portion_special):
            return max(c, self.eat_value(sid, portion_special))
        return c

    def special_value(self, sp: Special | None) -> float:
        return SPECIAL_VALUE[sp] if sp is not None else 0.0

    def arriving(self, sp: Special | None) -> Special | None:
        """The special as it would reach this seat: ``None`` if the seat plays without it
        (it would forfeit the tile, which then neither counts nor acts on the portion)."""
        return None if sp is not None and sp == self.without else sp

    def portion_value(self, slices: Sequence[int], has_special: bool) -> float:
        sp = self.arriving(self.view.special) if has_special else None
        has_special = sp is not None
        v = sum(self.slice_value(s, sp) for s in slices)
        return v + (self.special_value(sp) if has_special else 0.0)


def _arc_starts(m: int, k: int, circular: bool):
    """Arc start positions of every cut into ``k`` arcs, in rank order (see cuts.py)."""
    if circular:
        if k == 1:
            yield (0,)
        else:
            yield from itertools.combinations(range(m), k)
    else:
        for c in itertools.combinations(range(m - 1), k - 1):
            yield (0, *(x + 1 for x in c))


def _arc_sums(prefix: list[float], m: int, starts: Sequence[int], circular: bool) -> list[float]:
    total = prefix[m]
    sums = [prefix[starts[i + 1]] - prefix[starts[i]] for i in range(len(starts) - 1)]
    last = prefix[m] - prefix[starts[-1]]
    if circular:
        last += prefix[starts[0]]
    else:
        last = total - sum(sums)
    sums.append(last)
    return sums


def best_maximin_cut(values: Sequence[float], n: int, circular: bool, special_value: float) -> int:
    """Rank of the cut maximising the least valuable portion (first such rank on ties)."""
    m = len(values)
    prefix = [0.0]
    for v in values:
        prefix.append(prefix[-1] + v)
    best, best_rank, rank = -float("inf"), 0, 0
    if n - 1 >= 1:
        for starts in _arc_starts(m, n - 1, circular):
            worst = min(min(_arc_sums(prefix, m, starts, circular)), special_value)
            if worst > best:
                best, best_rank = worst, rank
            rank += 1
    for starts in _arc_starts(m, n, circular):
        sums = _arc_sums(prefix, m, starts, circular)
        for j in range(n):
            worst = min(
                min(s for i, s in enumerate(sums) if i != j) if n > 1 else float("inf"),
                sums[j] + special_value,
            )
            if worst > best:
                best, best_rank = worst, rank
            rank += 1
    return best_rank


@dataclass
class GreedyStrategy:
    """One-step greedy player (see the module docstring)."""

    spec: StrategySpec

    @property
    def avoid(self) -> Special | None:
        """The special this seat avoids (restricted play), or ``None``."""
        return avoid_special(self.spec)

    @property
    def forfeit(self) -> Special | None:
        """The special this seat forfeits (restricted play), or ``None``."""
        return forfeit_special(self.spec)

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        val = _Valuer(view, decision.player)
        ph = decision.phase
        if ph == Phase.EAT:
            eat = val.eat_value(decision.slice, decision.portion_special)
            return int(eat > val.collect_value(decision.slice))
        if ph == Phase.RECEIVE_EAT:
            eat = val.eat_value(decision.slice, decision.portion_special)
            return int(eat > val.collect_value(decision.slice, already_collected=True))
        if ph == Phase.CHOOSE:
            return self._best_portion(view, val, decision.legal)[0]
        if ph == Phase.CUT:
            sp = val.arriving(view.special)
            values = [val.slice_value(s, sp) for s in view.pizza]
            return best_maximin_cut(values, view.n_players, view.circular, val.special_value(sp))
        if ph == Phase.SUPREME:
            best_t, best_v = decision.legal[0], -float("inf")
            for t in decision.legal:
                v = val.type_value(t, 1.0)
                if v >= best_v:
                    best_t, best_v = t, v
            return best_t
        if ph == Phase.DIBS:
            values = [val.slice_value(s) for s in view.pizza]
            i = int(np.argmax(values))
            return 1 + i if values[i] > 0 else 0
        if ph == Phase.CUT_IN_LINE:
            portions = view.portions
            free = sorted(
                (val.portion_value(p.slices, p.special) for p in portions if p.taken_by < 0),
                reverse=True,
            )
            before = (decision.player - view.slicer - 1) % view.n_players
            expected = free[min(before, len(free) - 1)]
            return int(free[0] > expected)
        if ph == Phase.SNEAK:
            return self._sneak(view, val)
        if ph == Phase.SECONDS_TYPE:
            return seconds_type(view, decision)
        if ph == Phase.SECONDS_EAT:
            return seconds_eat(view, decision)
        raise AssertionError(f"unhandled phase {ph}")

    @staticmethod
    def _best_portion(view: PlayerView, val: _Valuer, legal: Sequence[int]) -> tuple[int, float]:
        portions = view.portions
        best_i, best_v = legal[0], -float("inf")
        for i in legal:
            v = val.portion_value(portions[i].slices, portions[i].special)
            if v > best_v:
                best_i, best_v = i, v
        return best_i, best_v

    def _sneak(self, view: PlayerView, val: _Valuer) -> int:
        portions = view.portions
        free = [i for i, p in enumerate(portions) if p.taken_by < 0]
        current = max(val.portion_value(portions[i].slices, portions[i].special) for i in free)
        best_a, best_v = 0, current
        for j, (src, dst, from_end) in enumerate(view.sneak_moves()):
            moved = [list(p.slices) for p in portions]
            sid = moved[src].pop() if from_end else moved[src].pop(0)
            if from_end:
                moved[dst].insert(0, sid)
            else:
                moved[dst].append(sid)
            v = max(val.portion_value(moved[i], portions[i].special) for i in free)
            if v > best_v:
                best_a, best_v = 1 + j, v
        return best_a


def seconds_type(view: PlayerView, decision: Decision) -> int:
    """The Seconds type that most raises the seat's exact final total (0: pass).

    For each type, slices are eaten one by one in order while that raises the total.
    """
    seat = decision.player
    base = _own_total(view, seat)
    best_t, best_gain = 0, 0
    for t in decision.legal:
        if t == 0:
            continue
        eaten: tuple[int, ...] = ()
        current = base
        for sid in _seconds_candidates(view, seat, t):
            trial = _own_total(view, seat, eat=(*eaten, sid))
            if trial > current:
                eaten, current = (*eaten, sid), trial
        if current - base > best_gain:
            best_t, best_gain = t, current - base
    return best_t


def seconds_eat(view: PlayerView, decision: Decision) -> int:
    """Eat this Seconds slice when that raises the seat's exact final total."""
    base = _own_total(view, decision.player)
    return int(_own_total(view, decision.player, eat=(decision.slice,)) > base)


def _seconds_candidates(view: PlayerView, seat: int, t: int) -> list[int]:
    out = []
    for sid in view.collected(seat):
        s = view.deck.slices[sid]
        if (s.kind == Kind.NUMBERED and s.type == t and s.pepperoni >= 1) or (
            s.kind == Kind.SUPREME
            and view.rules.seconds_with_supreme
            and view.supreme_type(seat) == t
        ):
            out.append(sid)
    return out


def _own_total(view: PlayerView, seat: int, eat: Sequence[int] = ()) -> int:
    """The seat's final total if it ate ``eat`` from its collected slices now."""
    holdings = []
    for q in range(view.n_players):
        collected = view.collected(q)
        eaten = view.eaten_visible(q)
        sup = view.supreme_type(q)
        if q == seat and eat:
            collected = tuple(s for s in collected if s not in eat)
            eaten = (*eaten, *eat)
            if any(view.deck.slices[s].kind == Kind.SUPREME for s in eat):
                sup = 0
        holdings.append(Holdings(collected, eaten, view.specials(q), sup))
    return score(view.deck, holdings, view.rules)[seat].total


def _search(spec: StrategySpec) -> Strategy:
    from sims.games.nyslice.search import SearchStrategy

    return SearchStrategy(spec)


def _heuristic(spec: StrategySpec) -> Strategy:
    from sims.games.nyslice.heuristic import HeuristicStrategy

    return HeuristicStrategy(spec)


STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo("random", RandomStrategy, {}, "uniform over the legal actions"),
    "greedy": StrategyInfo(
        "greedy",
        GreedyStrategy,
        {},
        "eats when pepperoni beats a slice's collection value; maximin cuts; best portion",
    ),
    "heuristic": StrategyInfo(
        "heuristic",
        _heuristic,
        {},  # filled below (heuristic.py imports this module)
        "majority-chance valuation; predicts choosers when cutting; every decision tunable",
    ),
    "search": StrategyInfo(
        "search",
        _search,
        {},  # filled below from search.py
        "determinized flat Monte-Carlo search, whole games in the kernel "
        "(strong; about budget playouts a decision)",
    ),
}


def _import_strategy(spec: StrategySpec) -> Strategy:
    """A strategy written in Python: ``package.module:Factory(key=value)`` calls
    ``Factory(spec)``; such strategies run on the reference engine. Looked for on the
    Python path, then beside the study file and in the working directory
    (:func:`sims.core.specs.load_code_strategy`)."""
    return load_code_strategy(spec)


def make_strategy(text: str | StrategySpec) -> Strategy:
    """Build a strategy from a spec string such as ``greedy`` or ``mypkg.mod:Mine(x=1)``.

    Raises
    ------
    StrategySpecError
        Naming an unknown strategy or parameter, and what is known.
    """
    spec = parse_spec(text) if isinstance(text, str) else text
    if ":" in spec.name:
        return _import_strategy(spec)
    info = STRATEGIES.get(spec.name)
    if info is None:
        from sims.games.nyslice.heuristic import load_presets

        if spec.name in load_presets():
            info = STRATEGIES["heuristic"]
            _check_params(spec, info)
            from sims.games.nyslice.heuristic import HeuristicStrategy

            return HeuristicStrategy(spec, preset=spec.name)
    if info is None:
        raise StrategySpecError(
            f"unknown New York Slice strategy {spec.name!r}; "
            f"known: {', '.join(sorted(STRATEGIES))} (see `slicelab strategies nyslice`)"
        )
    _check_params(spec, info)
    return info.factory(spec)


def _check_params(spec: StrategySpec, info: StrategyInfo) -> None:
    """Refuse a parameter the family does not have, or a value outside its bounds (``avoid``
    and ``forfeit``, which every family takes, must name a special; one at most)."""
    check_params(spec, info, also=RESTRICTIONS)
    restriction(spec)


def _register_family_params() -> None:
    """Defaults and bounds of heuristic and search, declared next to their code (imported
    here, not at the top, because heuristic.py imports this module and search.py imports
    heuristic.py)."""
    from sims.games.nyslice.heuristic import HEURISTIC_BOUNDS, HEURISTIC_DEFAULTS
    from sims.games.nyslice.search import SEARCH_BOUNDS, SEARCH_DEFAULTS

    STRATEGIES["heuristic"].params.update(HEURISTIC_DEFAULTS)
    STRATEGIES["heuristic"].bounds.update(HEURISTIC_BOUNDS)
    STRATEGIES["search"].params.update({k: float(v) for k, v in SEARCH_DEFAULTS.items()})
    STRATEGIES["search"].bounds.update(SEARCH_BOUNDS)
    for info in STRATEGIES.values():
        assert set(info.bounds) == set(info.params), info.name


_register_family_params()
