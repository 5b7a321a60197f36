"""Compiled New York Slice kernel: whole games with the built-in strategies, from arrays only.

The kernel is the fast twin of the reference engine (``engine.py``) and of the built-in
strategies (``random`` and ``greedy`` of ``strategies.py``, the ``heuristic(...)`` family
of ``heuristic.py`` with per-seat parameters): for the same deal stream, seat streams and
strategies it makes the same decisions in the same order and reaches the same scores. It
takes only arrays and scalars; its random streams are :mod:`sims.core.fastrng`'s
bit-exact copy of NumPy's ``integers`` and ``shuffle``, so both engines consume one stream
identically. ``tests/games/nyslice/test_nyslice_kernel.py`` checks the agreement on
thousands of games.

Besides whole study games (``KernelRunner.play``/``play_many``) it plays *playouts*
(``KernelRunner.play_deal``): a game from an explicit ``engine.Deal`` whose first real
decisions take the actions of a given prefix (``GameState.history``), the strategies
deciding the rest (``tests/games/nyslice/test_nyslice_search.py``). The ``search`` player
runs whole games here too (``search.py``): its game is a sequence of replays of the deal,
each paused at a search seat's decision, whose candidates are then played out.

Each module is the compiled twin of the reference module it is named after:

- ``layout.py``: codes, the state tables' rows (``T_*``, ``G_*``, ``F_*``), the rule
  options' indices (``R_*``, ``rules_array``), the output columns, and every table the
  kernel takes from ``rules.py`` and ``deck.py`` (derived there, never typed again);
- ``cuts.py``: ``cuts.py``'s cut geometry;
- ``state.py``: ``engine.GameState``'s queries and moves (owners, edibility, Sneak-a-Slice
  moves, Seconds' candidates, collecting and eating); ``view.py``:
  ``PlayerView.unclaimed``;
- ``scoring.py``: ``scoring.py``;
- ``greedy.py``: ``strategies.py``'s greedy valuations, ``best_maximin_cut`` and Seconds;
- ``heuristic.py``: ``heuristic.py``'s ``Valuer`` and its cut search;
- ``choose.py``: ``GreedyStrategy.choose`` and ``HeuristicStrategy.choose`` (together,
  as they share the Sneak-a-Slice move search);
- ``candidates.py``: ``search.SearchStrategy.candidates`` (a search seat's pause);
  ``search.py``: ``SearchStrategy.choose`` and its determinizations, and the search game;
- ``records.py``: ``records.decision_row``;
- ``ownpoints.py``: ``ownpoints.py``'s re-scoring of a finished game without one
  special's scoring effect (``own_points_kernel``: a study's games by index, with a row
  per special held at the end);
- ``flow.py``: ``engine.py``'s flow: the deal, the rounds, taking portions, the
  specials, Seconds, and ``_decide``;
- ``game.py``: ``game.play_game`` (the entry points: a game, a chunk of a study, a
  playout); ``runner.py``: the Python side (``KernelRunner``, ``strategy_codes``,
  ``seat_params``, ``deal_array``);
- ``sims.games.kernel_cache`` (shared with the other games' kernels): keys numba's cache
  on the whole package (see there).

Why the state is laid out as it is: numba reference-counts every array a compiled function
or inlined helper receives (an atomic increment and decrement per array and per call),
which made a bundle of thirty state arrays cost more than the game itself. So the whole
state lives in one int64 table ``tab`` and one float64 table ``ftab``, which
``flow._play`` passes on as borrowed views that are not counted (``layout._borrow``); a
round is one compiled function with its small helpers inlined; and greedy reads majority
counts and unclaimed counts from tallies kept up to date as slices move, instead of
rescanning every hand at every decision.

State encoding: ``tab[T_X]`` is row ``T_X``; a group ``T_X + i`` has one row per seat,
portion or round. All int64.

- ``T_KIND, T_TA, T_TB, T_PEP, T_ANCH``: the deck by slice id (``Deck.arrays``);
  ``T_INMYST``: 1 for the slices dealt to the mystery pool.
- ``T_G``: scalars, indexed by the ``G_*`` constants.
- ``T_RULES``: the ``Rules`` options by the ``R_*`` indices; ``T_STRAT``: strategy per seat.
- ``T_COLL + p``, ``T_EAT + p``: seat p's collected and eaten slices in the order they
  arrived (the order matters: decisions iterate over it); ``T_NCOLL[p]``, ``T_NEAT[p]``
  their lengths.
- Tallies per type t: ``T_NUM + p`` seat p's collected numbered slices, ``T_CMB + p`` its
  collected combos showing t, ``T_HID + p`` its numbered slices eaten face down (Mystery);
  ``T_UNC`` the numbered slices not removed at setup that no one has collected or eaten.
  ``T_NANCH[p]``: seat p's collected Anchovy slices; ``T_NBLANK[p]``: 1 once seat p has
  taken a blank tile (several seats may, when a deck holds several blanks).
- ``T_SP_OWNER, T_SP_ROUND, T_SP_USED``: per special code, owner seat (-1), round acquired
  (-1), used (0/1). The blank (``S_BLANK``) has a column too, but its owners are
  ``T_NBLANK``; nothing reads its column.
- ``T_PIZZA[:g[G_M]]``: the circle; ``T_POR + i``: portion i's slices in circle order,
  ``T_POR_LEN[i]`` their count, ``T_POR_SP[i]`` 1 if it holds the special,
  ``T_POR_TAKEN[i]`` its taker or -1.
- ``T_STACKS + r``, ``T_STACK_SP[r]``: the deal; ``T_REPL`` the replacement pile (head and
  tail in g); ``T_MYST`` the mystery pool (head and size in g).
- The other rows are scratch (listed with the ``T_*`` constants): the lists a decision is
  asked about (legal actions, free portions, slices being taken, sneak moves), greedy's
  work rows, and scoring's (``T_OUT + p`` holds seat p's ``SCORE_COLUMNS`` from the last
  ``scoring._score``).

``ftab`` (float64): ``F_SPV`` greedy's special values; ``F_MINE``, ``F_RIVAL`` greedy's
per-type counts of the deciding seat and of its best rival; ``F_HP + p`` seat p's
parameters (``heuristic.PARAM_ORDER``, then a search seat's ``S_BUDGET``, ``S_CUTS``,
``S_WIDTH``, then ``S_AVOID``: the special the seat plays without, -1 for none, restricted
play for every strategy, and ``S_FORFEIT``: 0 when it avoids that special, 1 when it
forfeits it); the rest is valuation and cut-search scratch.
``trace[k] = (player, phase, action)`` of every real decision.

The heuristic repeats ``heuristic.py``'s float operations in the same order (so its ties
and thresholds come out exactly). Its cut finds the reference's best-scored cut without
predicting the choosers for every cut: on a circle it searches the cuts grouped by the
portion each leaves the slicer, whose known value bounds a whole group's scores, best
bound first, and scores exactly only the cuts its bounds cannot rule out
(``heuristic._h_left_search``); elsewhere it walks every cut and predicts where a bound
from the first two picks cannot rule it out (``heuristic._h_cut_search``).
"""

from __future__ import annotations

from sims.games import kernel_cache
from sims.games.nyslice.kernel import (
    candidates,
    choose,
    cuts,
    flow,
    game,
    greedy,
    heuristic,
    layout,
    ownpoints,
    records,
    runner,
    scoring,
    search,
    state,
    view,
)
from sims.games.nyslice.kernel.flow import _play_deal
from sims.games.nyslice.kernel.game import play_deal_kernel, play_game_kernel, play_games_kernel
from sims.games.nyslice.kernel.layout import (
    D_NMYST,
    D_NREMOVED,
    D_NREPL,
    D_ROUNDS,
    D_SLICES,
    DECISION_COLUMNS,
    F_HP,
    MAX_SEATS,
    MAX_TRACE,
    N_HPARAMS,
    N_SEAT_PARAMS,
    NO_AVOID,
    S_AVOID,
    S_FORFEIT,
    SCORE_COLUMNS,
    SPECIAL_VALUES,
    STRAT_GREEDY,
    STRAT_HEURISTIC,
    STRAT_RANDOM,
    STRAT_SEARCH,
    STRATEGY_CODES,
    T_OUT,
    T_STRAT,
    _new_tables,
    avoid_code,
    rules_array,
)
from sims.games.nyslice.kernel.runner import (
    KernelRunner,
    deal_array,
    heuristic_params,
    seat_params,
    strategy_codes,
)

__all__ = [
    "D_NMYST",
    "D_NREMOVED",
    "D_NREPL",
    "D_ROUNDS",
    "D_SLICES",
    "DECISION_COLUMNS",
    "F_HP",
    "MAX_SEATS",
    "MAX_TRACE",
    "N_HPARAMS",
    "N_SEAT_PARAMS",
    "NO_AVOID",
    "S_AVOID",
    "S_FORFEIT",
    "SCORE_COLUMNS",
    "SPECIAL_VALUES",
    "STRAT_GREEDY",
    "STRAT_HEURISTIC",
    "STRAT_RANDOM",
    "STRAT_SEARCH",
    "STRATEGY_CODES",
    "T_OUT",
    "T_STRAT",
    "KernelRunner",
    "_new_tables",
    "_play_deal",
    "avoid_code",
    "deal_array",
    "heuristic_params",
    "play_deal_kernel",
    "play_game_kernel",
    "play_games_kernel",
    "rules_array",
    "seat_params",
    "strategy_codes",
]

_MODULES = [
    candidates,
    choose,
    cuts,
    flow,
    game,
    greedy,
    heuristic,
    layout,
    ownpoints,
    records,
    runner,
    scoring,
    search,
    state,
    view,
]
_CACHE_KEY = kernel_cache.key_caches(_MODULES)
