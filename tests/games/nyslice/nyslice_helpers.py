"""Builders for scripted New York Slice positions and drivers for the reference engine.

A scripted deal names the stacks (lists of slice ids, padded to 11 with unused slices),
the stack specials, the replacement pile and the mystery pool. By default it is a full
deal (``rounds_for(n)`` stacks, every slice in play); ``full=False`` keeps only the
stacks given, which plays as the *last* rounds of a game (the final stack is the last
round), so end-of-game tests stay free of filler rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sims.games.nyslice.cuts import decode_cut
from sims.games.nyslice.deck import REAL_SPECIALS, Kind, Special, default_deck
from sims.games.nyslice.engine import Deal, Decision, GameState, Phase, removed_slices
from sims.games.nyslice.rules import Rules, rounds_for
from sims.games.nyslice.scoring import Holdings

DECK = default_deck()
SUPREME, ANCHOVY = 68, 67
COMBO_8_10, COMBO_4_6, COMBO_5_9, COMBO_7_11 = 63, 64, 65, 66
VEGGIES = (0, 1, 2)
CHEESE = tuple(range(52, 63))  # type 11; pepperoni 1,2,3,1,2,3,1,2,3,1,2; 55 and 59 have 1 anchovy

# Specials that never ask a question during play: filler rounds get these first.
QUIET = (
    Special.STUFFED_CRUST,
    Special.DAY_OLD_PIZZA,
    Special.BUFFET,
    Special.TIE_BREAKER,
    Special.SUPER_SIZED_COMBOS,
    Special.YOU_LIKE_ANCHOVIES,
    Special.EVERYONE_ELSES_DIET,
)
_SPECIAL_ORDER = QUIET + tuple(s for s in REAL_SPECIALS if s not in QUIET)


def in_play(n: int) -> list[int]:
    """Slice ids used at ``n`` players."""
    gone = set(removed_slices(DECK, n))
    return [i for i in range(len(DECK.slices)) if i not in gone]


def make_deal(
    n: int,
    stacks: Iterable[Iterable[int]],
    specials: Iterable[Special] = (),
    replacement: Iterable[Special] | None = None,
    mystery: Iterable[int] | None = None,
    full: bool = True,
) -> Deal:
    """A scripted deal; unnamed slices and specials are filled from the unused ones."""
    stacks = [list(s) for s in stacks]
    used = {sid for s in stacks for sid in s} | set(mystery or ())
    # Numbered slices with pepperoni first, so filler rarely touches combos and friends.
    filler = sorted(
        (i for i in in_play(n) if i not in used),
        key=lambda i: (DECK.slices[i].kind != Kind.NUMBERED or DECK.slices[i].type == 3, i),
    )
    if mystery is None:
        mystery, filler = filler[-3:], filler[:-3]
    for s in stacks:
        while len(s) < 11:
            s.append(filler.pop(0))
    while full and len(stacks) < rounds_for(n):
        stacks.append([filler.pop(0) for _ in range(11)])
    specials = list(specials)
    free = [s for s in _SPECIAL_ORDER if s not in specials and s not in (replacement or ())]
    while len(specials) < len(stacks):
        specials.append(free.pop(0))
    if replacement is None:
        replacement = free
    all_ids = [sid for s in stacks for sid in s] + list(mystery)
    assert all(len(s) == 11 for s in stacks) and len(set(all_ids)) == len(all_ids)
    return Deal(
        stacks=tuple(tuple(s) for s in stacks),
        stack_specials=tuple(specials),
        replacement=tuple(replacement),
        mystery=tuple(mystery),
        removed=tuple(removed_slices(DECK, n)),
    )


def new_game(n: int, stacks, specials=(), rules: Rules | None = None, **kw) -> GameState:
    """A game on a scripted deal (see :func:`make_deal` for ``kw``)."""
    return GameState(DECK, rules or Rules(), n, make_deal(n, stacks, specials, **kw))


def step(state: GameState, phase: Phase, action: int, player: int | None = None) -> Decision:
    """Apply ``action`` after checking the pending decision's phase (and player)."""
    d = state.decision()
    assert d is not None and d.phase == phase, f"expected {phase.name}, pending {d}"
    assert player is None or d.player == player, f"expected player {player}, pending {d}"
    state.apply(action)
    return d


def answer(state: GameState, seat: int, eat=(), receive=(), supreme: int | None = None) -> None:
    """Answer ``seat``'s pending EAT / RECEIVE_EAT / SUPREME decisions.

    Slices in ``eat`` (``receive``) are eaten (moved to eaten), all others collected
    (kept); a SUPREME decision needs ``supreme``.
    """
    while (d := state.decision()) is not None and d.player == seat:
        if d.phase == Phase.EAT:
            state.apply(int(d.slice in eat))
        elif d.phase == Phase.RECEIVE_EAT:
            state.apply(int(d.slice in receive))
        elif d.phase == Phase.SUPREME:
            assert supreme is not None, f"unexpected Supreme decision {d}"
            state.apply(supreme)
        else:
            return


def take(state: GameState, portion: int, **kw) -> int:
    """The pending chooser takes ``portion`` and answers its decisions; returns the seat."""
    d = step(state, Phase.CHOOSE, portion)
    answer(state, d.player, **kw)
    return d.player


def cut_rank(state: GameState, arcs, special_with: int | None) -> int:
    """The CUT action giving exactly ``arcs`` (slice ids, engine order) and the special
    joined to arc ``special_with`` (``None``: the special is a portion alone)."""
    m = len(state.pizza)
    want = ([list(a) for a in arcs], -1 if special_with is None else special_with)
    for rank in state.legal_actions():
        got, attach = decode_cut(m, state.n, state.circular, rank)
        sl = [[state.pizza[(s + j) % m] for j in range(k)] for s, k in got]
        if (sl, attach) == want:
            return rank
    raise AssertionError(f"no legal cut gives {want} from pizza {state.pizza}")


def cut(state: GameState, arcs, special_with: int | None = None) -> None:
    """The slicer cuts ``arcs`` (see :func:`cut_rank`)."""
    step(state, Phase.CUT, cut_rank(state, arcs, special_with), player=state.slicer)


def portions(state: GameState) -> list[tuple[list[int], bool]]:
    """The current portions as ``(slices, has_special)``."""
    return [(list(p.slices), p.special) for p in state.portions]


def finish(state: GameState, stop: Callable[[GameState], bool] | None = None) -> list[Decision]:
    """Apply the first legal action (pass / collect / lowest) until the end or ``stop``."""
    seen = []
    while not state.terminal and not (stop and stop(state)):
        seen.append(state.decision())
        state.apply(state.legal_actions()[0])
    return seen


def holdings(collected=(), eaten=(), specials=(), supreme: int = 0) -> Holdings:
    """Scoring input for one player."""
    return Holdings(tuple(collected), tuple(eaten), frozenset(specials), supreme)
