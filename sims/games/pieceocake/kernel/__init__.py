"""Compiled Piece o' Cake kernel: whole games with the built-in strategies, from arrays only.

The kernel is the fast twin of the reference engine (``engine.py``) and of the built-in
strategies ``random``, ``greedy``, ``heuristic(theta, loss, fewer, margin)`` (per-seat
parameters) and ``search(budget, cuts)``, specified in ``docs/strategies/pieceocake.md``:
for the same (study seed, game index) and strategies it makes the same decisions in the
same order and reaches the same scores. Its random streams are :mod:`sims.core.fastrng`'s
bit-exact copy of NumPy's ``integers`` and ``shuffle`` (the deal: child 0 of the game's
streams shuffles every slice id; seat p's decisions: child 1 + p; a search seat's
determinizations too). ``tests/games/pieceocake/test_pieceocake_kernel.py`` checks the
agreement decision record by decision record (``test_pieceocake_search_kernel.py`` with
search seats).

The modules, each the twin of a reference module:

- ``layout.py``: codes, the rule options' indices and encodings (``rules_array``), the
  state tables' rows (``T_*``, ``G_*``, ``F_*``), the output columns (``records.py``'s);
- ``value.py``: the valuation greedy and heuristic share (majority worth, slice decision,
  piece value, forgo value; every arc's value for the cut);
- ``choose.py``: greedy's and heuristic's decision at each phase, the cut search;
- ``flow.py``: ``engine.py``'s flow, ``game.play_game``'s loop, ``records.decision_row``
  and ``scoring.score``;
- ``candidates.py``, ``search.py``: the ``search`` player (``search.SearchStrategy``): a
  search seat's candidates, and a game with search seats played as replays of its deal,
  each search decision's candidates played out on determinizations of its seat's view;
- ``game.py``: the entry points (a chunk of a study's games; the reference search's
  playouts; one game of an explicit deal);
- ``runner.py``: the Python side (``KernelRunner``, ``strategy_codes``, ``seat_params``,
  ``cut_tables``).

The design follows New York Slice's kernel: numba reference-counts every array a compiled
function receives (an atomic increment and decrement per array and call), so the state
lives in one int64 table ``tab`` and one float64 table ``ftab`` that ``game.py`` passes on
as borrowed views which are not counted (``layout._borrow``).

State: ``tab[T_X]`` is row ``T_X`` (``layout.py`` lists them); ``tab[T_COLL + p]`` is seat
p's collected count per variety, ``tab[T_SEAT + p]`` its eaten, cream, pieces taken, forgo
turns and slices eaten by forgoing, ``tab[T_EATV + p]`` its eaten count per variety;
``T_CIRC``/``T_CVAR`` the circle and its varieties, ``T_LAID`` the slices of each variety
laid so far, ``T_PSTART``/``T_PLEN``/``T_PTAKEN`` the cut's pieces as arcs of the circle.
``ftab[F_HP + p]`` holds seat p's parameters and ``ftab[F_ARC + t, layout.arc_id(a, L)]``
the value to a seat of the arc of length L from circle position a while a server weighs
its cut (row t: seat t at 2 players, the seat of turn t at 3 or more).

The cut (``choose._cut``), the hot spot: legal masks and their pieces (arcs) come as one
array per (most pieces, exact) (``runner.cut_tables``, from ``cuts.py``), also grouped by
piece count. At a CUT the server values every arc for every seat once (tabling ``theta *
G`` per variety and count, so each arc is a few lookups, summed in piece order so each
equals the piece value to the bit). At 2 players each mask's round is then played out by
lookups. At 3 or more each seat has one turn and the server is last, so a cut of fewer
than n pieces leaves it only its forgo value (the first such cut of each count stands for
the rest) and only the cuts of n pieces are played out: in straight-line code unrolled for
each n, comparing the arc values as integers (their bit patterns, exact for doubles >= 0)
with selects instead of branches, in a pass that writes each cut's leftover and a pass
that finds the best, ties going to the lowest mask as in ascending order.
"""

from __future__ import annotations

from sims.games.kernel_cache import key_caches
from sims.games.pieceocake.kernel import (
    candidates,
    choose,
    flow,
    game,
    layout,
    runner,
    search,
    value,
)
from sims.games.pieceocake.kernel.game import play_games_kernel
from sims.games.pieceocake.kernel.layout import (
    DECISION_COLUMNS,
    N_HPARAMS,
    N_SEAT_PARAMS,
    SCORE_COLUMNS,
    STRAT_GREEDY,
    STRAT_HEURISTIC,
    STRAT_RANDOM,
    STRAT_SEARCH,
    STRATEGY_CODES,
    rules_array,
)
from sims.games.pieceocake.kernel.runner import (
    KernelRunner,
    cut_tables,
    seat_params,
    strategy_codes,
)

__all__ = [
    "DECISION_COLUMNS",
    "N_HPARAMS",
    "N_SEAT_PARAMS",
    "SCORE_COLUMNS",
    "STRAT_GREEDY",
    "STRAT_HEURISTIC",
    "STRAT_RANDOM",
    "STRAT_SEARCH",
    "STRATEGY_CODES",
    "KernelRunner",
    "cut_tables",
    "play_games_kernel",
    "rules_array",
    "seat_params",
    "strategy_codes",
]

_MODULES = [candidates, choose, flow, game, layout, runner, search, value]
_CACHE_KEY = key_caches(_MODULES)
"""numba's on-disk cache keyed on the whole package (``sims.games.kernel_cache``)."""
