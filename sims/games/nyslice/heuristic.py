"""The ``heuristic(...)`` strategy family for New York Slice: every decision, parameterised.

Valuation
---------
A seat's chance of ending with type ``t``'s majority is modelled from its count ``a``, the
best rival's count ``b`` and the ``u`` copies still unclaimed::

    m = a - b - 0.25 + 0.5·[owns Tie-Breaker]      (a tie scores nothing without it)
    z = sharp · m / (1 + horizon · u)              (more supply left, less certainty)
    P = 0.5 + 0.5 · z / (1 + |z|)                  (a smooth step from 0 to 1)

Collecting one more slice of weight ``w`` (1; ½ per combo number, 2 with Super-Sized
Combos) is worth ``t · (P(a + w) − P(a))``, plus Buffet's +1 for a new type, minus the
slice's anchovies (plus with You Like Anchovies!). A waiting Supreme is worth ``supreme``.
Eating is worth the pepperoni (+3 for a combo under Combo Cravings or a Veggie under You
Love Veggies).

Decisions
---------
- **eat or collect** — eat when the eat value exceeds ``theta`` × the collection value,
  blended by ``geat`` with greedy's rule: the threshold is (1 − ``geat``) × ``theta`` ×
  this valuation's collection value + ``geat`` × greedy's collection value (``geat = 0``:
  this valuation alone; 1: exactly greedy's eat rule, which plays better at 2 players);
- **choose** — the portion maximising own value + ``deny`` × its value to the next seat
  clockwise still to choose (taking it denies them); specials are valued at
  ``specials`` × greedy's flat table;
- **cut** — for every legal cut, predict that each later chooser takes the portion best
  by *its own* valuation; score ``trust`` × the portion predicted to be left for the
  slicer + (1 − ``trust``) × its worst portion − ``deny`` × the best portion an opponent
  is predicted to get;
- **Dibs!** the most valuable slice when worth at least ``dibs``; **Cut in Line** when the
  best portion beats the one expected in normal order by at least ``cil``;
  **Sneak-a-Slice** the move raising its best portion by at least ``sneak``;
  **Supreme** the type it raises the majority chance of most (in points);
  **Seconds** by exact end-of-game scoring (as ``greedy``).

Restricted play (``avoid=<slug>`` or ``forfeit=<slug>``, ``docs/rules/nyslice.md``): a seat
playing without the round's special values every portion as if it came without it (no
special value, and its slices valued without that special's effect on them), since the tile
would be forfeited; the cut predicts that a chooser avoiding it never takes the portion
holding it, and that a chooser forfeiting it values that portion without it.

Ties go to the lowest action. The arithmetic is written so the compiled kernel can repeat
it operation for operation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sims.core.specs import ParamBound, StrategySpec
from sims.games import presets
from sims.games.nyslice.deck import VEGGIE, Kind, Special
from sims.games.nyslice.engine import Decision, Phase
from sims.games.nyslice.view import PlayerView
from sims.games.presets import Presets

HEURISTIC_DEFAULTS: dict[str, float] = {
    "theta": 1.0,
    "sharp": 1.5,
    "horizon": 0.15,
    "deny": 0.25,
    "trust": 0.75,
    "specials": 1.0,
    "supreme": 1.5,
    "dibs": 0.5,
    "cil": 1.0,
    "sneak": 0.5,
    "geat": 0.0,
}
"""Parameters of ``heuristic`` and their defaults (see the module docstring)."""

PARAM_ORDER = tuple(HEURISTIC_DEFAULTS)
"""Order of the parameters in the kernel's parameter array."""

PARAM_RANGES: dict[str, tuple[float, float]] = {
    "theta": (0.3, 3.0),
    "sharp": (0.5, 6.0),
    "horizon": (0.0, 0.5),
    "deny": (0.0, 1.0),
    "trust": (0.0, 1.0),
    "specials": (0.0, 2.0),
    "supreme": (0.0, 3.0),
    "dibs": (0.0, 3.0),
    "cil": (0.0, 4.0),
    "sneak": (0.0, 3.0),
    "geat": (0.0, 1.0),
}
"""The box that tuning searches."""

HEURISTIC_BOUNDS: dict[str, ParamBound] = {
    # Multipliers and weights: a negative one inverts what the parameter means.
    "theta": ParamBound(0.0, 100.0),
    "sharp": ParamBound(0.0, 100.0),
    # Also keeps 1 + horizon·u > 0 in the chance curve (a negative horizon can divide by 0).
    "horizon": ParamBound(0.0, 100.0),
    "deny": ParamBound(0.0, 10.0),
    # A convex weight between the predicted portion and the worst one.
    "trust": ParamBound(0.0, 1.0),
    "specials": ParamBound(0.0, 10.0),
    # Points: what a waiting Supreme is worth.
    "supreme": ParamBound(0.0, 100.0),
    # Thresholds in points; 1000 is above any portion's value (12 slices of at most 20
    # pepperoni and a few special points), i.e. "never use it".
    "dibs": ParamBound(0.0, 1000.0),
    "cil": ParamBound(0.0, 1000.0),
    "sneak": ParamBound(0.0, 1000.0),
    # A weight between two collection values.
    "geat": ParamBound(0.0, 1.0),
}
"""The values each ``heuristic`` parameter may take (validity, wider than the tuning box
:data:`PARAM_RANGES`); a spec or a preset outside them is refused."""

assert set(HEURISTIC_BOUNDS) == set(HEURISTIC_DEFAULTS) == set(PARAM_RANGES)

PRESETS_FILE = Path(__file__).parent / "data" / "presets.toml"
"""The presets shipped with slicelab (``heuristic-eq2`` .. ``heuristic-eq6``, heuristic's
self-play equilibria and its defaults per player count; ``heuristic-p2`` .. ``-p6``, the
earlier defaults tuned against greedy). Read only: presets a user saves go to
:func:`user_presets_file`."""


def _families() -> list[str]:
    from sims.games.nyslice.strategies import STRATEGIES

    return list(STRATEGIES)


PRESETS = Presets(
    game="nyslice",
    title="New York Slice",
    shipped_file=lambda: PRESETS_FILE,  # looked up on each read: a test may point it elsewhere
    defaults=HEURISTIC_DEFAULTS,
    bounds=HEURISTIC_BOUNDS,
    families=_families,
)
"""This game's presets (:class:`sims.games.presets.Presets`); the functions below are its
methods under the names the game's callers use."""

PRESET_NAME = presets.PRESET_NAME
user_presets_file = PRESETS.user_file
packaged_presets = PRESETS.packaged
user_presets = PRESETS.user
load_presets = PRESETS.load
check_preset_name = PRESETS.check_name
save_preset = PRESETS.save
default_preset = PRESETS.default_preset
params_for = PRESETS.params_for


def chance(m: float, u: float, sharp: float, horizon: float) -> float:
    """Modelled chance of holding a majority with lead ``m`` and ``u`` copies unclaimed."""
    z = sharp * m / (1.0 + horizon * u)
    return 0.5 + 0.5 * z / (1.0 + abs(z))


class Valuer:
    """Heuristic valuations from one seat's point of view at one moment."""

    def __init__(self, view: PlayerView, seat: int, p: dict[str, float]) -> None:
        from sims.games.nyslice.strategies import SPECIAL_VALUE

        self.view = view
        self.seat = seat
        self.p = p
        self.special_table = SPECIAL_VALUE
        self.unclaimed = view.unclaimed()
        n = view.n_players
        self.counts = [[view.type_count(q, t) for t in range(12)] for q in range(n)]
        self.owned = [view.specials(q) for q in range(n)]
        self.without = [view.without(q) for q in range(n)]  # restricted play: never owned
        self.avoid = [view.avoid(q) for q in range(n)]  # ... nor chosen while another is free
        self.anchovy_slice = [
            any(view.deck.slices[s].kind == Kind.ANCHOVY for s in view.collected(q))
            for q in range(n)
        ]

    def _rival(self, seat: int, t: int) -> float:
        best = 0.0
        for q in range(self.view.n_players):
            if q != seat and self.counts[q][t] > best:
                best = self.counts[q][t]
        return best

    def gain(self, seat: int, t: int, w: float, already: bool) -> float:
        """Points from raising (or, ``already``, from having added) ``w`` of type ``t``."""
        a = self.counts[seat][t]
        if already:
            a = a - w
        b = self._rival(seat, t)
        u = float(self.unclaimed[t])
        shift = -0.25
        if Special.TIE_BREAKER in self.owned[seat]:
            shift = 0.25
        sharp, horizon = self.p["sharp"], self.p["horizon"]
        before = chance(a - b + shift, u, sharp, horizon)
        after = chance(a + w - b + shift, u, sharp, horizon)
        return t * (after - before)

    def collect_value(self, seat: int, sid: int, already: bool = False) -> float:
        s = self.view.deck.slices[sid]
        owned = self.owned[seat]
        anch = float(s.anchovies)
        if Special.YOU_LIKE_ANCHOVIES not in owned:
            anch = -anch
        buffet = Special.BUFFET in owned
        if s.kind == Kind.NUMBERED:
            v = self.gain(seat, s.type, 1.0, already)
            if buffet and not self.counts[seat][s.type] > 0:
                v += 1.0
            return v + anch
        if s.kind == Kind.COMBO:
            w = 0.5
            if Special.SUPER_SIZED_COMBOS in owned:
                w = 0.5 * self.view.rules.super_sized_combo_halves
            v = 0.0
            for t in s.types:
                v += self.gain(seat, t, w, already)
                if buffet and not self.counts[seat][t] > 0:
                    v += 1.0
            return v + anch
        if s.kind == Kind.ANCHOVY:
            if buffet and not self.anchovy_slice[seat]:
                anch += 1.0
            return anch
        best = self.p["supreme"]
        found = False
        for t in range(3, 12):
            if self.counts[seat][t] > 0:
                g = self.gain(seat, t, 1.0, False)
                if not found or g > best:
                    best = g
                    found = True
        return best + anch

    def eat_value(self, seat: int, sid: int, ps: Special | None) -> float:
        s = self.view.deck.slices[sid]
        owned = self.owned[seat]
        v = float(s.pepperoni)
        if s.kind == Kind.COMBO and (
            Special.COMBO_CRAVINGS in owned or ps == Special.COMBO_CRAVINGS
        ):
            v += 3.0
        if (
            s.kind == Kind.NUMBERED
            and s.type == VEGGIE
            and (Special.YOU_LOVE_VEGGIES in owned or ps == Special.YOU_LOVE_VEGGIES)
        ):
            v += 3.0
        return v

    def edible(self, seat: int, sid: int, ps: Special | None) -> bool:
        s = self.view.deck.slices[sid]
        owned = self.owned[seat]
        if s.kind == Kind.ANCHOVY:
            return False
        if s.kind == Kind.COMBO and (
            Special.COMBO_CRAVINGS in owned or ps == Special.COMBO_CRAVINGS
        ):
            return True
        if s.kind == Kind.NUMBERED and s.type == VEGGIE and ps == Special.YOU_LOVE_VEGGIES:
            return True
        return s.pepperoni >= 1

    def slice_value(self, seat: int, sid: int, ps: Special | None) -> float:
        c = self.collect_value(seat, sid)
        if self.edible(seat, sid, ps):
            e = self.eat_value(seat, sid, ps)
            if e > self.p["theta"] * c:
                return e
        return c

    def special_value(self, sp: Special | None) -> float:
        if sp is None:
            return 0.0
        return self.p["specials"] * self.special_table[sp]

    def arriving(self, seat: int, sp: Special | None) -> Special | None:
        """The special as it would reach ``seat``: ``None`` if the seat plays without it."""
        return None if sp is not None and sp == self.without[seat] else sp

    def portion_value(self, seat: int, slices: Sequence[int], has_special: bool) -> float:
        sp = self.arriving(seat, self.view.special) if has_special else None
        has_special = sp is not None
        v = 0.0
        for sid in slices:
            v += self.slice_value(seat, sid, sp)
        if has_special:
            v += self.special_value(sp)
        return v


def _arc_starts(m: int, k: int, circular: bool):
    from sims.games.nyslice.strategies import _arc_starts as starts

    return starts(m, k, circular)


def _arc_sums(prefix: list[float], m: int, starts: Sequence[int], circular: bool) -> list[float]:
    from sims.games.nyslice.strategies import _arc_sums as sums

    return sums(prefix, m, starts, circular)


def best_predicted_cut(val: Valuer, view: PlayerView) -> int:
    """Rank of the cut with the best heuristic score (the first on ties)."""
    scores = cut_scores(val, view)
    best, best_rank = -float("inf"), 0
    for rank, score in enumerate(scores):
        if score > best:
            best, best_rank = score, rank
    return best_rank


def cut_scores(val: Valuer, view: PlayerView) -> list[float]:
    """The heuristic score of every legal cut, by rank (see the module docstring).

    A seat playing without the special (restricted play: avoid or forfeit) values the
    pizza without it and the special at 0; a chooser avoiding it is moreover predicted
    never to take its portion (worth -inf to it: some other portion is always left when it
    chooses).
    """
    n = view.n_players
    me = view.seat
    m = len(view.pizza)
    circular = view.circular
    sp = view.special
    order = [(view.slicer + 1 + i) % n for i in range(n)]
    lackers = [q for q in range(n) if sp is not None and val.without[q] == sp]
    avoiders = [q for q in range(n) if sp is not None and val.avoid[q] == sp]
    prefixes = []
    for q in range(n):
        ps = None if q in lackers else sp
        pre = [0.0]
        for sid in view.pizza:
            pre.append(pre[-1] + val.slice_value(q, sid, ps))
        prefixes.append(pre)
    spv = val.special_value(sp)
    trust, deny = val.p["trust"], val.p["deny"]
    scores: list[float] = []
    for alone in (True, False):
        k = n - 1 if alone else n
        for starts in _arc_starts(m, k, circular):
            sums = [_arc_sums(prefixes[q], m, starts, circular) for q in range(n)]
            for j in range(1) if alone else range(n):
                # values[q][i]: portion i's value to seat q (the special alone is portion k).
                values = []
                for q in range(n):
                    row = list(sums[q])
                    add = 0.0 if q in lackers else spv
                    if alone:
                        row.append(add)
                    else:
                        row[j] = row[j] + add
                    if q != me and q in avoiders:
                        row[k if alone else j] = -float("inf")
                    values.append(row)
                taken = [False] * n
                opp_best = -float("inf")
                for q in order[:-1]:
                    pick, pv = -1, -float("inf")
                    for i in range(n):
                        if not taken[i] and values[q][i] > pv:
                            pick, pv = i, values[q][i]
                    taken[pick] = True
                    if pv > opp_best:
                        opp_best = pv
                left = taken.index(False)
                worst = min(values[me])
                scores.append(trust * values[me][left] + (1.0 - trust) * worst - deny * opp_best)
    return scores


@dataclass
class HeuristicStrategy:
    """The parameterised heuristic player (see the module docstring).

    ``preset`` names the parameter set the spec builds on (``None``: the player-count
    default ``heuristic-pN``); the spec's own parameters override it.
    """

    spec: StrategySpec
    preset: str | None = None
    p: dict[str, float] = field(default_factory=dict)
    _n: int = -1

    @property
    def avoid(self) -> Special | None:
        """The special this seat avoids (restricted play), or ``None``."""
        from sims.games.nyslice.strategies import avoid_special

        return avoid_special(self.spec)

    @property
    def forfeit(self) -> Special | None:
        """The special this seat forfeits (restricted play), or ``None``."""
        from sims.games.nyslice.strategies import forfeit_special

        return forfeit_special(self.spec)

    def params(self, n_players: int) -> dict[str, float]:
        """The resolved parameters at a player count (the restricted-play parameters are
        not valuation parameters, so left out)."""
        from sims.games.nyslice.strategies import RESTRICTIONS

        given = {k: v for k, v in self.spec.params.items() if k not in RESTRICTIONS}
        return params_for(n_players, given, self.preset)

    def choose(self, view: PlayerView, decision: Decision, rng: np.random.Generator) -> int:
        from sims.games.nyslice.strategies import seconds_eat, seconds_type

        if self._n != view.n_players:
            self._n = view.n_players
            self.p = self.params(view.n_players)
        seat = decision.player
        val = Valuer(view, seat, self.p)
        ph = decision.phase
        if ph in (Phase.EAT, Phase.RECEIVE_EAT):
            already = ph == Phase.RECEIVE_EAT
            e = val.eat_value(seat, decision.slice, decision.portion_special)
            return int(e > self._eat_threshold(view, val, seat, decision.slice, already))
        if ph == Phase.CHOOSE:
            return self._choose(view, val, seat, decision.legal)
        if ph == Phase.CUT:
            return best_predicted_cut(val, view)
        if ph == Phase.SUPREME:
            best_t, best_v = decision.legal[0], -float("inf")
            for t in decision.legal:
                v = val.gain(seat, t, 1.0, False)
                if v > best_v:
                    best_t, best_v = t, v
            return best_t
        if ph == Phase.DIBS:
            bi, bv = 0, -float("inf")
            for i, sid in enumerate(view.pizza):
                v = val.slice_value(seat, sid, None)
                if v > bv:
                    bi, bv = i, v
            return 1 + bi if bv >= self.p["dibs"] else 0
        if ph == Phase.CUT_IN_LINE:
            free = sorted(
                (
                    val.portion_value(seat, p.slices, p.special)
                    for p in view.portions
                    if p.taken_by < 0
                ),
                reverse=True,
            )
            before = (seat - view.slicer - 1) % view.n_players
            expected = free[min(before, len(free) - 1)]
            return int(free[0] - expected >= self.p["cil"])
        if ph == Phase.SNEAK:
            return self._sneak(view, val, seat)
        if ph == Phase.SECONDS_TYPE:
            return seconds_type(view, decision)
        if ph == Phase.SECONDS_EAT:
            return seconds_eat(view, decision)
        raise AssertionError(f"unhandled phase {ph}")

    def _eat_threshold(
        self, view: PlayerView, val: Valuer, seat: int, sid: int, already: bool
    ) -> float:
        """``theta`` × the collection value, blended by ``geat`` with greedy's (the kernel
        repeats these operations in this order)."""
        from sims.games.nyslice.strategies import _Valuer as GreedyValuer

        t = self.p["theta"] * val.collect_value(seat, sid, already)
        g = self.p["geat"]
        if g > 0.0:
            cg = GreedyValuer(view, seat).collect_value(sid, already_collected=already)
            t = (1.0 - g) * t + g * cg
        return t

    def _choose(self, view: PlayerView, val: Valuer, seat: int, legal: Sequence[int]) -> int:
        portions = view.portions
        n = view.n_players
        # The seat choosing after this one in normal order, if any still chooses.
        nxt = -1
        taken_by = {p.taken_by for p in portions if p.taken_by >= 0}
        for i in range(1, n):
            q = (seat + i) % n
            if q not in taken_by and q != seat:
                nxt = q
                break
        best_i, best_v = legal[0], -float("inf")
        for i in legal:
            v = val.portion_value(seat, portions[i].slices, portions[i].special)
            if nxt >= 0 and len(legal) > 1:
                v += self.p["deny"] * val.portion_value(
                    nxt, portions[i].slices, portions[i].special
                )
            if v > best_v:
                best_i, best_v = i, v
        return best_i

    def _sneak(self, view: PlayerView, val: Valuer, seat: int) -> int:
        portions = view.portions
        free = [i for i, p in enumerate(portions) if p.taken_by < 0]
        current = max(
            val.portion_value(seat, portions[i].slices, portions[i].special) for i in free
        )
        best_a, best_v = 0, -float("inf")
        for j, (src, dst, from_end) in enumerate(view.sneak_moves()):
            moved = [list(p.slices) for p in portions]
            sid = moved[src].pop() if from_end else moved[src].pop(0)
            if from_end:
                moved[dst].insert(0, sid)
            else:
                moved[dst].append(sid)
            v = max(val.portion_value(seat, moved[i], portions[i].special) for i in free)
            if v > best_v:
                best_a, best_v = 1 + j, v
        return best_a if best_v - current >= self.p["sneak"] else 0
