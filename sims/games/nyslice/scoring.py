"""End-of-game scoring of New York Slice: majorities, starred specials, pepperoni − anchovies,
and the compensation of the what-if option ``Rules.compensation``.

Pure functions over what each player holds (and the rules: the halves a Super-Sized combo
number counts, the compensation by position). Majority counts are kept in halves (an int
``2 × count``) so a lone ½ combo compares exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sims.games.nyslice.deck import TYPES, VEGGIE, Deck, Kind, Special
from sims.games.nyslice.rules import Rules

_DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class Holdings:
    """What one player holds at scoring time.

    Attributes
    ----------
    collected, eaten : tuple of int
        Slice ids face up and face down.
    specials : frozenset of Special
        Specials owned.
    supreme_type : int
        Type the collected Supreme is assigned to (0: none or unassigned).
    """

    collected: tuple[int, ...]
    eaten: tuple[int, ...]
    specials: frozenset[Special]
    supreme_type: int = 0


@dataclass(frozen=True)
class Breakdown:
    """A player's score and its components; ``total`` is their sum.

    Attributes
    ----------
    majorities : int
        Sum of the type numbers whose majority the player holds.
    specials : int
        The player's own starred specials (Buffet, Combo Cravings, Day-Old Pizza,
        Stuffed Crust, You Love Veggies).
    diet : int
        Points lost to other players' Everyone Else's Diet (≤ 0).
    pepperoni : int
        Pepperoni on eaten slices.
    anchovies : int
        Anchovies on collected slices: negative, or positive with You Like Anchovies!.
    total : int
    majority_types : tuple of int
        The types whose majority the player scored (``majorities_won`` counts them).
    special_points : dict
        Points per starred special the player owns.
    eaten_count, collected_count : int
        Slices eaten (the final tie-break) and collected.
    bonus : int
        The seat's compensation (``Rules.compensation``; 0 by default).
    """

    majorities: int
    specials: int
    diet: int
    pepperoni: int
    anchovies: int
    total: int
    majority_types: tuple[int, ...]
    special_points: dict[str, int] = field(default_factory=dict)
    eaten_count: int = 0
    collected_count: int = 0
    bonus: int = 0

    @property
    def majorities_won(self) -> int:
        """Number of types (3–11) whose majority the player scored."""
        return len(self.majority_types)


def type_counts_halves(deck: Deck, h: Holdings, rules: Rules | None = None) -> dict[int, int]:
    """Majority count per type, in halves: 2 per slice, 1 per combo number (with Super-Sized
    Combos ``rules.super_sized_combo_halves``, 4 by default)."""
    counts = {t: 0 for t in TYPES}
    per_combo = 1
    if Special.SUPER_SIZED_COMBOS in h.specials:
        per_combo = (rules or _DEFAULT_RULES).super_sized_combo_halves
    for sid in h.collected:
        s = deck.slices[sid]
        if s.kind == Kind.NUMBERED:
            counts[s.type] += 2
        elif s.kind == Kind.COMBO:
            for t in s.types:
                counts[t] += per_combo
        elif s.kind == Kind.SUPREME and h.supreme_type:
            counts[h.supreme_type] += 2
    return counts


def held_types(deck: Deck, h: Holdings, rules: Rules | None = None) -> set[int]:
    """Types 3–11 the player holds collected (slice, combo number or assigned Supreme)."""
    return {t for t, c in type_counts_halves(deck, h, rules).items() if c > 0}


def majority_winners(
    deck: Deck, holdings: Sequence[Holdings], rules: Rules | None = None
) -> dict[int, int]:
    """Seat scoring each type's majority (types nobody scores are absent).

    Strictly most (and > 0) wins; a tie for most scores nothing unless a tied player owns
    Tie-Breaker, who then scores it.
    """
    counts = [type_counts_halves(deck, h, rules) for h in holdings]
    out: dict[int, int] = {}
    for t in TYPES:
        best = max(c[t] for c in counts)
        if best <= 0:
            continue
        leaders = [p for p, c in enumerate(counts) if c[t] == best]
        if len(leaders) == 1:
            out[t] = leaders[0]
        else:
            tb = [p for p in leaders if Special.TIE_BREAKER in holdings[p].specials]
            if tb:
                out[t] = tb[0]
    return out


def score(deck: Deck, holdings: Sequence[Holdings], rules: Rules | None = None) -> list[Breakdown]:
    """Score every player.

    Parameters
    ----------
    deck : Deck
        The deck the slice ids refer to.
    holdings : sequence of Holdings
        One per seat, after Seconds.
    rules : Rules, optional
        The what-if options scoring reads (``super_sized_combo_halves``, ``compensation``
        with ``first_slicer``, the starred specials' points); default ``Rules()``.

    Returns
    -------
    list of Breakdown
        One per seat; ``total`` = majorities + specials + diet + pepperoni + anchovies +
        bonus.
    """
    rules = rules or _DEFAULT_RULES
    winners = majority_winners(deck, holdings, rules)
    diet_owners = [p for p, h in enumerate(holdings) if Special.EVERYONE_ELSES_DIET in h.specials]
    out = []
    for p, h in enumerate(holdings):
        maj_types = tuple(t for t in TYPES if winners.get(t) == p)
        majorities = sum(maj_types)
        sp: dict[str, int] = {}
        eaten = [deck.slices[s] for s in h.eaten]
        collected = [deck.slices[s] for s in h.collected]
        if Special.BUFFET in h.specials:
            anchovy_slice = any(s.kind == Kind.ANCHOVY for s in collected)
            held = len(held_types(deck, h, rules)) + int(anchovy_slice)
            sp[Special.BUFFET.slug] = rules.buffet_points * held
        if Special.COMBO_CRAVINGS in h.specials:
            combos = sum(s.kind == Kind.COMBO for s in eaten)
            sp[Special.COMBO_CRAVINGS.slug] = rules.combo_cravings_points * combos
        if Special.DAY_OLD_PIZZA in h.specials:
            sp[Special.DAY_OLD_PIZZA.slug] = rules.day_old_pizza_points
        if Special.STUFFED_CRUST in h.specials:
            sp[Special.STUFFED_CRUST.slug] = rules.stuffed_crust_points
        if Special.YOU_LOVE_VEGGIES in h.specials:
            veg = sum(s.kind == Kind.NUMBERED and s.type == VEGGIE for s in eaten)
            sp[Special.YOU_LOVE_VEGGIES.slug] = rules.you_love_veggies_points * veg
        diet = -sum(len(h.eaten) // 2 for q in diet_owners if q != p)
        pepperoni = sum(s.pepperoni for s in eaten)
        anch = sum(s.anchovies for s in collected)
        anchovies = anch if Special.YOU_LIKE_ANCHOVIES in h.specials else -anch
        specials = sum(sp.values())
        bonus = rules.bonus(p, len(holdings))
        out.append(
            Breakdown(
                majorities=majorities,
                specials=specials,
                diet=diet,
                pepperoni=pepperoni,
                anchovies=anchovies,
                total=majorities + specials + diet + pepperoni + anchovies + bonus,
                majority_types=maj_types,
                special_points=sp,
                eaten_count=len(h.eaten),
                collected_count=len(h.collected),
                bonus=bonus,
            )
        )
    return out


def win_shares(breakdowns: Sequence[Breakdown]) -> list[float]:
    """Win share per seat: highest total, then most eaten slices; a shared win counts 1/k."""
    key = [(b.total, b.eaten_count) for b in breakdowns]
    best = max(key)
    winners = [p for p, k in enumerate(key) if k == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(len(breakdowns))]
