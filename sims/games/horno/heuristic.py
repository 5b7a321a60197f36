"""Horno's ``heuristic``: its parameters (defaults, validity bounds, tuning box), its presets
and its valuation, exactly as ``docs/strategies/horno.md`` ("heuristic") writes them.

Every decision scores each legal action (:func:`scores`) and plays the highest, the first
in legal order among equal scores (legal lists are ascending, PASS first, so PASS wins a
tie). The scores are built from one card valuation (:meth:`Valuation.value`), a dish
valuation (:meth:`Valuation.dish_score`), the expected penalty of a hidden card, and a
rivalry weight per opponent; every threshold and weight is a parameter. The valuation
reads only the seat's :class:`~sims.games.horno.view.PlayerView` and not its memory (it
decides the same with ``remember=False``), and draws nothing from its stream.

Presets (:data:`PRESETS`, the shared :class:`sims.games.presets.Presets`): the shipped file
``data/presets.toml`` (``heuristic-eqN``, plain ``heuristic``'s default at N players, where
one ships) and the user's own (``slicelab tune horno ... --save-preset NAME``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from sims.core.specs import ParamBound
from sims.games import presets
from sims.games.horno.cards import INGREDIENT, RADIOACTIVE
from sims.games.horno.engine import (
    OVEN_CLEAN,
    OVEN_STEAL,
    PANTRY_STEAL,
    PASS,
    SABOTAGE_CARD,
    Decision,
    Phase,
)
from sims.games.horno.view import HIDDEN, PlayerView
from sims.games.presets import Presets

NEED = 4.0
"""The value of a card the seat's dish needs (an ingredient it misses, the wild): about
the points an ingredient adds (base points are 4 per ingredient, less 2)."""
AMMO_KEPT = 2
"""Sabotage cards the valuation values (beyond them another is worth nothing)."""
NEVER = -math.inf
"""The score of an action the heuristic never plays."""

HEURISTIC_DEFAULTS: dict[str, float] = {
    "base": 1.0,
    "held": 4.0,
    "visible": 1.0,
    "late": 3.0,
    "radio": 3.0,
    "future": 0.25,
    "ammo": 1.0,
    "discard": 0.5,
    "room": 3.0,
    "draw": -0.5,
    "steal": 1.0,
    "harm": 0.5,
    "leader": 0.5,
    "clean": 1.0,
    "sabotage": 0.0,
    "wild": 7.0,
    "avoid": -1,
}
"""Parameters of ``heuristic`` and their defaults (``docs/strategies/horno.md``)."""

PARAM_RANGES: dict[str, tuple[float, float]] = {
    "base": (0.0, 2.0),
    "held": (0.0, 8.0),
    "visible": (0.0, 4.0),
    "late": (0.0, 8.0),
    "radio": (0.0, 6.0),
    "future": (0.0, 3.0),
    "ammo": (0.0, 4.0),
    "discard": (-1.0, 3.0),
    "room": (0.0, 5.0),
    "draw": (-1.0, 3.0),
    "steal": (-2.0, 4.0),
    "harm": (0.0, 2.0),
    "leader": (0.0, 1.0),
    "clean": (-2.0, 4.0),
    "sabotage": (-2.0, 4.0),
    "wild": (1.0, 7.0),
}
"""The box that tuning searches."""

_WEIGHT = ParamBound(0.0, 100.0)  # a weight: negative would invert what it rewards
_POINTS = ParamBound(-1000.0, 1000.0)  # a threshold in points; ±1000: always / never
HEURISTIC_BOUNDS: dict[str, ParamBound] = {
    "base": _WEIGHT,
    "held": _WEIGHT,
    "visible": _WEIGHT,
    "late": _WEIGHT,
    "radio": _WEIGHT,
    "future": _WEIGHT,
    "ammo": _WEIGHT,
    "discard": _POINTS,
    # cards in hand; a hand holds at most 7
    "room": ParamBound(0.0, 7.0),
    "draw": _POINTS,
    "steal": _POINTS,
    "harm": _WEIGHT,
    # a share between the leader (1) and the nearest rival (0)
    "leader": ParamBound(0.0, 1.0),
    "clean": _POINTS,
    "sabotage": _POINTS,
    # cards short of complete; an oven holds at most 7
    "wild": ParamBound(0.0, 7.0),
    # restricted play, not tuned: a dish type the seat never takes while another is open
    # (-1: none), for what a type is worth to the seat that may take it
    "avoid": ParamBound(-1, 99, integer=True),
}
"""The values each ``heuristic`` parameter may take (validity, wider than the tuning box
:data:`PARAM_RANGES`); a spec or a preset outside them is refused."""

assert set(HEURISTIC_BOUNDS) == set(HEURISTIC_DEFAULTS) == set(PARAM_RANGES) | {"avoid"}
assert all(HEURISTIC_BOUNDS[k].contains(lo) and HEURISTIC_BOUNDS[k].contains(hi)
           for k, (lo, hi) in PARAM_RANGES.items())  # fmt: skip

PRESETS_FILE = Path(__file__).parent / "data" / "presets.toml"
"""The presets shipped with slicelab (read only: presets a user saves go to the user's
presets file)."""


def _families() -> list[str]:
    from sims.games.horno.strategies import STRATEGIES

    return list(STRATEGIES)


PRESETS = Presets(
    game="horno",
    title="Horno",
    shipped_file=lambda: PRESETS_FILE,  # looked up on each read: a test may point it elsewhere
    defaults=HEURISTIC_DEFAULTS,
    bounds=HEURISTIC_BOUNDS,
    families=_families,
)
"""This game's presets; the names below are its methods under the names callers use."""

PRESET_NAME = presets.PRESET_NAME
user_presets_file = PRESETS.user_file
packaged_presets = PRESETS.packaged
user_presets = PRESETS.user
load_presets = PRESETS.load
check_preset_name = PRESETS.check_name
save_preset = PRESETS.save
default_preset = PRESETS.default_preset
params_for = PRESETS.params_for


# ------------------------------------------------------------------ the valuation
class Valuation:
    """The heuristic's quantities at one decision, from the deciding seat's view (see
    ``docs/strategies/horno.md``, "heuristic": the notation follows it)."""

    def __init__(self, view: PlayerView, p: dict[str, float]) -> None:
        self.view = view
        self.p = p
        cards = view.cards
        self.cards = cards
        self.me = me = view.seat
        oven = view.ovens[me]
        self.dish = oven.dish if not oven.closed else -1
        self.present = view.oven_kinds(me)
        self.wild = cards.wild
        if self.dish >= 0:
            d = cards.dishes[self.dish]
            self.type = d.type
            self.missing = [k for k in d.ingredients if k not in self.present]
        else:
            self.type = -1
            self.missing = []
        self.wild_in = self.wild in self.present
        self.short = len(self.missing) - (1 if self.wild_in else 0)
        self.hand = list(view.hand)
        self._bad = _bad_kinds(cards, self.type)
        self._shown: dict[int, set[int]] = {me: self.present}
        self._useful: dict[int, frozenset[int]] = {}
        self._future: set[int] | None = None
        self._seen: set[int] | None = None
        self._unseen: list[int] | None = None
        self._proj: list[float] | None = None
        self._kept: dict[int, float] = {}
        self._tops: dict[int, list[int]] = {}
        self._best: dict[tuple[int, ...], float] = {}
        self._give: dict[tuple[int, int, int], float] = {}
        self._need_share: float | None = None
        self._hidden: float | None = None
        self._total = 0
        self._rho: dict[int, float] | None = None
        self._at: dict[int, int] | None = None  # each seat's place in the turn order

    # ---------------------------------------------------------------- cards
    def mine_bad(self, k: int) -> bool:
        """A sabotage card to this seat: garbage, or a radioactive card not of its dish's
        type (any radioactive card without a dish)."""
        return k in self._bad

    def shown(self, seat: int) -> set[int]:
        """The kinds the seat sees in ``seat``'s oven."""
        got = self._shown.get(seat)
        if got is None:
            got = self._shown[seat] = self.view.oven_kinds(seat)
        return got

    def future(self) -> set[int]:
        """The ingredients on the visible back of the top card of a pile the seat may take
        its next dish from (a type other than its dish's, not completed, pile not empty;
        rule ``repeat_types`` lifts the second condition)."""
        if self._future is None:
            view = self.view
            done = set() if view.rules.repeat_types else view.completed_types(self.me)
            self._future = {k for t, (size, back) in enumerate(view.piles)
                            if size and t != self.type and t not in done
                            for k in back}  # fmt: skip
        return self._future

    def value(self, k: int, rest: Sequence[int]) -> float:
        """V(k, R): the value of card ``k`` to the seat holding ``rest`` besides it."""
        cards, p = self.cards, self.p
        kind = cards.kinds[k]
        if self.dish >= 0 and k in self.missing and k not in rest:
            return NEED
        if k == self.wild:
            if not self.wild_in and k not in rest and (self.dish < 0 or self.missing):
                return NEED
            return 0.0
        if (self.dish >= 0 and kind.cls == RADIOACTIVE and kind.type == self.type
                and k not in self.present and k not in rest):  # fmt: skip
            return p["radio"]
        if k in self._bad:
            held = sum(1 for r in rest if r in self._bad)
            return p["ammo"] if held < AMMO_KEPT else 0.0
        future = self._future if self._future is not None else self.future()
        if kind.cls == INGREDIENT and k not in rest and k in future:
            return p["future"]
        return 0.0

    def kept_value(self, k: int) -> float:
        """V(k, H − k) for a card ``k`` in hand."""
        got = self._kept.get(k)
        if got is None:
            rest = list(self.hand)
            rest.remove(k)
            got = self._kept[k] = self.value(k, rest)
        return got

    def needed(self, k: int) -> bool:
        """Rules 1–2 of the card value: a card the seat's dish needs now."""
        if self.dish >= 0 and k in self.missing:
            return True
        return k == self.wild and not self.wild_in and (self.dish < 0 or bool(self.missing))

    # ---------------------------------------------------------------- the table
    def unseen(self) -> list[int]:
        """U: the view's :meth:`~PlayerView.unseen` counts without its memory."""
        if self._unseen is None:
            self._unseen = self.view.unseen(remembered=False)
            self._total = sum(self._unseen)
        return self._unseen

    def share(self, pred) -> float:
        """The fraction of the unseen cards for which ``pred(kind)`` holds (0 if none)."""
        u = self.unseen()
        if self._total == 0:
            return 0.0
        return sum(c for k, c in enumerate(u) if c and pred(k)) / self._total

    def penalty_for(self, k: int, dtype: int) -> float:
        """What a bad card ``k`` costs a completed dish of type ``dtype`` (a matching
        radioactive card: minus its bonus)."""
        kind = self.cards.kinds[k]
        if kind.cls == RADIOACTIVE and kind.type == dtype:
            return -float(kind.bonus)
        return float(kind.penalty)

    def hidden_penalty(self) -> float:
        """E: the mean penalty to the seat's dish of the unseen garbage and radioactive
        cards (0 without a dish or without any)."""
        if self._hidden is None:
            self._hidden = 0.0
            if self.dish >= 0:
                total = weight = 0.0
                u = self.unseen()
                for k in _all_bad(self.cards):
                    c = u[k]
                    if c:
                        total += c * self.penalty_for(k, self.type)
                        weight += c
                self._hidden = total / weight if weight else 0.0
        return self._hidden

    def correct(self, seat: int) -> int:
        """The correct cards face up in ``seat``'s oven: its dish's distinct ingredients,
        the wild (once) and its type's radioactive card (once)."""
        oven = self.view.ovens[seat]
        if oven.dish < 0:
            return 0
        key = (oven.dish, oven.cards)  # an oven changes far less often than it is valued
        cache = _correct_cache(self.cards)
        n = cache.get(key)
        if n is None:
            dish = self.cards.dishes[oven.dish]
            shown = {c.kind for c in oven.cards if c.up}
            n = sum(1 for k in dish.ingredients if k in shown)
            n += self.wild in shown
            n += any(r in shown for r in _radioactive(self.cards, dish.type))
            if len(cache) > 4096:
                cache.clear()
            cache[key] = n
        return n

    def proj(self) -> list[float]:
        """Each seat's projected score: its points plus 2 per correct face-up oven card."""
        if self._proj is None:
            view = self.view
            self._proj = [view.points[s] + 2.0 * self.correct(s) for s in range(view.n_players)]
        return self._proj

    def after(self, v: int) -> int:
        """How many turns after the seat's own ``v`` plays (1: the next seat to play)."""
        at = self._at
        if at is None:
            at = self._at = {u: i for i, u in enumerate(self.view.order)}
        return (at[v] - at[self.me]) % len(at)

    def rho(self, v: int) -> float:
        """ρ(v) = leader·[v is the leader] + (1 − leader)·[v is the nearest rival]."""
        if self._rho is None:
            proj = self.proj()
            others = self.view.others()
            lead = max(others, key=lambda u: (proj[u], -self.after(u)))
            near = min(others, key=lambda u: (abs(proj[u] - proj[self.me]), self.after(u)))
            lam = self.p["leader"]
            self._rho = {u: lam * (u == lead) + (1 - lam) * (u == near) for u in others}
        return self._rho[v]

    def useful_to(self, v: int, k: int) -> bool:
        """u_v(k): whether card ``k`` helps seat ``v``'s dish: an ingredient it misses, the
        wild when its oven shows none, its type's radioactive card when its oven shows
        none."""
        got = self._useful.get(v)
        if got is None:
            oven = self.view.ovens[v]
            got = frozenset()
            if oven.dish >= 0 and not oven.closed:
                dish = self.cards.dishes[oven.dish]
                shown = self.shown(v)
                helps = [*dish.ingredients, self.wild, *_radioactive(self.cards, dish.type)]
                got = frozenset(k for k in helps if k not in shown)
            self._useful[v] = got
        return k in got

    def harm(self, v: int, points: float) -> float:
        """What ``points`` lost by seat ``v`` are worth to the seat: harm·(1 + ρ(v))·points."""
        return self.p["harm"] * (1.0 + self.rho(v)) * points

    # ---------------------------------------------------------------- dishes
    def dish_score(self, d: int, hand: Sequence[int] | None = None) -> float:
        """S(d): the worth of pursuing dish ``d`` from the seat's hand (or ``hand``)."""
        p, view, cards = self.p, self.view, self.cards
        dish = cards.dishes[d]
        held = set(self.hand if hand is None else hand)
        need = dish.ingredients
        h = sum(1 for k in need if k in held)
        if self.wild in held and h < len(need):
            h += 1
        seen = self._seen if self._seen is not None else self.seen()
        s = sum(1 for k in need if k not in held and k in seen)
        rounds = view.rules.rounds
        score = p["base"] * dish.points + p["held"] * h + p["visible"] * s
        score -= p["late"] * (len(need) - h) * view.round / rounds
        radio = any(r in held for r in _radioactive(cards, dish.type))
        return score + (p["radio"] if radio else 0.0)

    def seen(self) -> set[int]:
        """The deck's top card and the face-up cards in the other ovens (for S(d))."""
        if self._seen is None:
            view = self.view
            seen = {view.top} if view.top >= 0 else set()
            for v in view.others():
                seen |= {c.kind for c in view.ovens[v].cards if c.up}
            self._seen = seen
        return self._seen

    def tops(self, t: int) -> list[int]:
        """The dishes type ``t``'s top card may be (see T(t))."""
        got = self._tops.get(t)
        if got is None:
            inside = self.view.pile_cards(t)
            back = self.view.piles[t][1]
            got = [d for d in inside if self.cards.dishes[d].back == back] or inside
            got = self._tops[t] = got or list(self.cards.pile(t))
        return got

    def type_score(self, t: int, hand: Sequence[int] | None = None) -> float:
        """T(t): the mean S(d) over the dishes type ``t``'s top card may be."""
        tops = self.tops(t)
        return sum(self.dish_score(d, hand) for d in tops) / len(tops)

    def best_type(self, hand: Sequence[int]) -> float:
        """B(X): the best T(t), with hand ``X``, over the types the seat may take next
        (those of the next dishes; 0 if none)."""
        key = tuple(sorted(hand))  # the redraw asks again for the same hands
        got = self._best.get(key)
        if got is None:
            view = self.view
            done = set() if view.rules.repeat_types else view.completed_types(self.me)
            types = [t for t, (size, _) in enumerate(view.piles)
                     if size and t != self.type and t not in done]  # fmt: skip
            got = self._best[key] = max((self.type_score(t, hand) for t in types), default=0.0)
        return got

    def setup_value(self, k: int) -> float:
        """At the opening redraw: max(V(k, H − k), B(H) − B(H − k))."""
        rest = list(self.hand)
        rest.remove(k)
        return max(self.kept_value(k), self.best_type(self.hand) - self.best_type(rest))

    # ---------------------------------------------------------------- steals
    def _rest(self, v: int, j: int) -> list[int]:
        return [c.kind for i, c in enumerate(self.view.ovens[v].cards) if i != j]

    def fits(self, v: int, j: int, k: int, rest: Sequence[int] | None = None) -> bool:
        """Whether card ``k`` may replace slot ``j`` of ``v``'s oven: an ingredient its dish
        then lacks, or the wild when it then shows none."""
        rest = self._rest(v, j) if rest is None else rest
        if k == self.wild:
            return k not in rest
        return k in self.cards.dishes[self.view.ovens[v].dish].ingredients and k not in rest

    def completes(self, v: int, j: int, k: int, rest: Sequence[int] | None = None) -> bool:
        """Whether card ``k`` in place of slot ``j`` completes ``v``'s dish."""
        rest = self._rest(v, j) if rest is None else rest
        need = self.cards.dishes[self.view.ovens[v].dish].ingredients
        have = sum(1 for x in need if x == k or x in rest)
        return have == len(need) or ((self.wild == k or self.wild in rest)
                                     and have >= len(need) - 1)  # fmt: skip

    def give_cost(self, v: int, y: int, extra: int = PASS) -> float:
        """What giving card ``y`` to ``v`` costs: V(y, H − y + extra) + harm·(1+ρ)·NEED if
        it helps ``v``."""
        key = (v, y, extra)
        got = self._give.get(key)
        if got is None:
            if extra == PASS:
                cost = self.kept_value(y)
            else:
                rest = list(self.hand)
                rest.remove(y)
                rest.append(extra)
                cost = self.value(y, rest)
            if self.useful_to(v, y):
                cost += self.harm(v, NEED)
            got = self._give[key] = cost
        return got

    def oven_steal(self, v: int, j: int) -> float:
        oven = self.view.ovens[v]
        c = oven.cards[j]
        if c.kind == HIDDEN:
            return NEVER
        rest = self._rest(v, j)
        pay = [r for r in set(self.hand)
               if self.fits(v, j, r, rest) and not self.completes(v, j, r, rest)]  # fmt: skip
        if not pay:
            return NEVER
        gain = self.value(c.kind, self.hand) - min(self.kept_value(r) for r in pay)
        return gain - self.p["steal"]

    def need_share(self) -> float:
        """The fraction of the unseen cards the seat's dish needs now (rules 1–2)."""
        if self._need_share is None:  # share(self.needed), summing counts (exact) per kind
            u = self.unseen()
            need = set(self.missing) if self.dish >= 0 else set()
            if not self.wild_in and (self.dish < 0 or self.missing):
                need.add(self.wild)
            self._need_share = sum(u[k] for k in need) / self._total if self._total else 0.0
        return self._need_share

    def pantry_steal(self, v: int) -> float:
        view = self.view
        m = min(2, view.hand_sizes[v])
        x = 1.0 - self.need_share()
        # x ** m, multiplied out as the kernel does (pow may round a square differently)
        q = 1.0 - (x * x if m == 2 else x if m == 1 else 1.0)
        self.useful_to(v, -1)
        useful = self._useful[v]
        g = 0.0
        if self.hand:
            extra = self.harm(v, NEED)
            g = min(self.kept_value(y) + (extra if y in useful else 0.0) for y in set(self.hand))
        u = self.unseen()
        share = sum(u[k] for k in useful if k >= 0) / self._total if self._total else 0.0
        return NEED * q - g + self.harm(v, NEED * q * share) - self.p["steal"]

    # ---------------------------------------------------------------- placing
    def prepare(self, k: int) -> float:
        if k == PASS:
            return 0.0
        kind = self.cards.kinds[k]
        if k == self.wild:
            if len(self.missing) == 1:
                return 3.0
            return 0.5 if self.short <= self.p["wild"] else -1.0
        if kind.cls == INGREDIENT:
            return 3.0 if self.short == 1 else 2.0
        return 1.0  # the dish's radioactive card

    def sabotage(self, v: int, k: int) -> float:
        dtype = self.cards.dishes[self.view.ovens[v].dish].type
        own = 0.0 if self.mine_bad(k) else self.kept_value(k)
        return (1.0 + self.rho(v)) * self.penalty_for(k, dtype) - own - self.p["sabotage"]


_RADIO: dict[tuple[int, int], tuple[object, tuple[int, ...]]] = {}


def _radioactive(cards, dtype: int) -> tuple[int, ...]:
    """The radioactive kinds of type ``dtype``."""
    got = _RADIO.get((id(cards), dtype))
    if got is None or got[0] is not cards:  # the card set is kept, so its id is not reused
        if len(_RADIO) > 64:
            _RADIO.clear()
        kinds = tuple(k for k, c in enumerate(cards.kinds)
                      if c.cls == RADIOACTIVE and c.type == dtype)  # fmt: skip
        got = _RADIO[(id(cards), dtype)] = (cards, kinds)
    return got[1]


# the phases as plain names: an enum member read from its class costs a lookup each time
_REDRAW, _DISCARD, _DRAW, _DISH, _ACTION = (
    Phase.REDRAW, Phase.DISCARD, Phase.DRAW, Phase.DISH, Phase.ACTION)  # fmt: skip
_KEEP, _GIVE, _REPLACE, _CLEAN_MORE = Phase.KEEP, Phase.GIVE, Phase.REPLACE, Phase.CLEAN_MORE
_PREPARE, _SABOTAGE = Phase.PREPARE, Phase.SABOTAGE

_CORRECT: dict[int, tuple[object, dict]] = {}


def _correct_cache(cards) -> dict:
    """The card set's memo of :meth:`Valuation.correct` by (dish, oven cards)."""
    got = _CORRECT.get(id(cards))
    if got is None or got[0] is not cards:  # the card set is kept, so its id is not reused
        if len(_CORRECT) > 64:
            _CORRECT.clear()
        got = _CORRECT[id(cards)] = (cards, {})
    return got[1]


_BAD: dict[tuple[int, int], tuple[object, frozenset[int]]] = {}


_ALL_BAD: dict[int, tuple[object, tuple[int, ...]]] = {}


def _all_bad(cards) -> tuple[int, ...]:
    """Every garbage and radioactive kind, ascending."""
    got = _ALL_BAD.get(id(cards))
    if got is None or got[0] is not cards:  # the card set is kept, so its id is not reused
        if len(_ALL_BAD) > 64:
            _ALL_BAD.clear()
        got = _ALL_BAD[id(cards)] = (cards, tuple(k for k in range(len(cards.kinds))
                                                  if cards.is_bad(k)))  # fmt: skip
    return got[1]


def _bad_kinds(cards, dtype: int) -> frozenset[int]:
    """The sabotage cards of a seat cooking type ``dtype`` (-1: none): garbage, and the
    radioactive cards of other types (every one without a dish)."""
    got = _BAD.get((id(cards), dtype))
    if got is None or got[0] is not cards:  # the card set is kept, so its id is not reused
        if len(_BAD) > 64:
            _BAD.clear()
        bad = frozenset(k for k, c in enumerate(cards.kinds) if cards.is_bad(k)
                        and not (c.cls == RADIOACTIVE and c.type == dtype >= 0))  # fmt: skip
        got = _BAD[(id(cards), dtype)] = (cards, bad)
    return got[1]


def scores(view: PlayerView, decision: Decision, p: dict[str, float]) -> list[float]:
    """The heuristic's score of every action in ``decision.legal``, in legal order
    (``docs/strategies/horno.md``, "heuristic"): it plays the first highest."""
    legal, phase = decision.legal, decision.phase
    # the phases in the order of how often they come (a game asks ~230 times)
    if phase == _DISCARD and len(view.hand) <= p["room"]:  # the hand is small: keep it
        return [0.0 if a == PASS else NEVER for a in legal]
    val = Valuation(view, p)
    if phase == _DRAW:
        return [0.0 if a == PASS else val.value(a, val.hand) - p["draw"] for a in legal]
    if phase == _DISCARD:
        return [0.0 if a == PASS else p["discard"] - val.kept_value(a) for a in legal]
    if phase == _PREPARE:
        return [val.prepare(a) for a in legal]
    if phase == _ACTION:
        out = []
        for a in legal:
            if a == PASS:
                out.append(0.0)
            elif a >= OVEN_CLEAN:
                hidden = view.ovens[view.seat].cards[a - OVEN_CLEAN].kind == HIDDEN
                out.append(val.hidden_penalty() - p["clean"] if hidden else NEVER)
            elif a >= OVEN_STEAL:
                out.append(val.oven_steal((a - OVEN_STEAL) // 10, (a - OVEN_STEAL) % 10))
            else:
                out.append(val.pantry_steal(a - PANTRY_STEAL))
        return out
    if phase == _SABOTAGE:
        out = []
        for a in legal:
            if a == PASS:
                out.append(0.0)
            else:
                b = a - SABOTAGE_CARD
                out.append(val.sabotage(b // 100, b % 100))
        return out
    if phase == _DISH:
        avoid = int(p["avoid"])
        if avoid in legal and len(legal) > 1:
            return [NEVER if t == avoid else val.type_score(t) for t in legal]
        return [val.type_score(t) for t in legal]
    if phase == _REDRAW:
        return [0.0 if a == PASS else p["discard"] - val.setup_value(a) for a in legal]
    if phase == _KEEP:
        v = view.victim
        out = []
        for a in legal:
            if a == PASS:
                out.append(0.0)
                continue
            g = min((val.give_cost(v, y, a) for y in set(val.hand)), default=0.0)
            gain = val.value(a, val.hand) - g
            if val.useful_to(v, a):
                gain += val.harm(v, NEED)
            out.append(gain)
        return out
    if phase == _GIVE:
        return [-val.give_cost(view.victim, y, view.kept) for y in legal]
    if phase == _REPLACE:
        v, j = view.victim, view.slot
        return [-val.kept_value(r) - (1000.0 if val.completes(v, j, r) else 0.0) for r in legal]
    if phase == _CLEAN_MORE:
        oven = view.ovens[view.seat].cards
        e = val.hidden_penalty() - p["clean"]
        return [0.0 if a == PASS else (e if oven[a - OVEN_CLEAN].kind == HIDDEN else NEVER)
                for a in legal]  # fmt: skip
    raise AssertionError(f"unhandled phase {phase}")


def preference(view: PlayerView, decision: Decision) -> list[int]:
    """The indices of ``decision.legal`` in the order that breaks ties between equal
    scores: the legal order, except at ACTION and SABOTAGE, where PASS comes first, then
    the actions naming another seat (steals, sabotage) by that seat's turn after the
    deciding seat's (the next to play first) and then in legal order, then the cleans."""
    legal = decision.legal
    if decision.phase not in (Phase.ACTION, Phase.SABOTAGE):
        return list(range(len(legal)))
    order, me = view.order, view.seat
    n, at = len(order), order.index(me)

    def key(i: int) -> tuple[int, int, int]:
        a = legal[i]
        if a == PASS:
            return (0, 0, a)
        if a >= SABOTAGE_CARD:
            v = (a - SABOTAGE_CARD) // 100
        elif a >= OVEN_CLEAN:
            return (2, 0, a)
        elif a >= OVEN_STEAL:
            v = (a - OVEN_STEAL) // 10
        else:
            v = a - PANTRY_STEAL
        return (1, (order.index(v) - at) % n, a)

    return sorted(range(len(legal)), key=key)


def best(view: PlayerView, decision: Decision, values: Sequence[float]) -> int:
    """The action of the highest score, the first in :func:`preference` order among
    equal."""
    top = max(values)
    first = values.index(top)
    if decision.phase in (Phase.ACTION, Phase.SABOTAGE) and values.count(top) > 1:
        first = next(i for i in preference(view, decision) if values[i] == top)
    return decision.legal[first]
