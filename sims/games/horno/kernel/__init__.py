"""Compiled Horno kernel: whole games with the built-in strategies, from arrays only.

The kernel is the fast twin of the reference engine (``engine.py``) and of the built-in
strategies ``random`` and ``greedy`` (``strategies.py``) and the ``heuristic(...)``
family (``heuristic.py``: every parameter, ``avoid``, the presets, per-seat parameters):
for the same (study seed, game index) it makes the same decisions in the same order and
writes the same rows as ``plugin._play_reference`` (``records.SEAT_COLUMNS``,
``GAME_COLUMNS``, ``DECISION_COLUMNS`` and the dish lists).
``tests/games/horno/test_horno_kernel.py`` checks it game by game, for every rule option
and the shipped card sets. ``search`` stays on the reference engine.

Chance is :mod:`sims.core.fastrng`'s bit-exact copy of NumPy's streams: child 0 of the
game's ``SeedSequence`` deals (``shuffle`` of the deck, then of each dish pile; later a
pantry steal's ``integers(0, h)`` and a reshuffle's ``shuffle``), child ``1 + s`` is seat
``s``'s (one ``integers(0, n)`` per decision of a ``random`` seat; ``greedy`` and the
heuristic draw nothing). The card set is data: ``layout.new_table`` copies it into the
state table, so every card-set file plays on the same compiled code.

Modules, each the twin of the reference module it is named after:

- ``layout.py``: codes, the state table's rows (``T_*``, ``G_*``, ``S_*``), the rule
  options' indices (``R_*``, ``rules_array``), the heuristic's parameter columns
  (``H_*``), and ``new_table`` (the card set and rules as arrays);
- ``state.py``: ``engine.GameState``'s queries and moves (hands, ovens, the deck and its
  reshuffle, completion, the legal lists of placing, oven steals and dish types);
- ``scoring.py``: ``_complete``'s and ``_unfinished``'s points, and the result rows;
- ``view.py``: what ``view.PlayerView`` shows a seat (which oven cards it sees, the
  deck's top card, the piles' backs);
- ``greedy.py``: ``GreedyStrategy.choose``; ``heuristic.py``: the heuristic's
  ``Valuation``, ``scores`` and ``best`` (its float operations in the reference's order,
  so that scores and their ties agree exactly);
- ``flow.py``: ``engine.py``'s flow (the deal, setup, the turn's four steps, the end) and
  ``_decide``; ``game.py``: the entry point, a chunk of a study
  (``play_games_kernel``); ``runner.py``: the Python side (``play_many``,
  ``strategy_codes``, ``seat_params``, ``kernel_ok``);
- ``sims.games.kernel_cache`` (shared with the other games' kernels): keys numba's cache
  on the whole package.

Why it is laid out so: numba reference-counts every array a compiled function receives,
so the whole state lives in one int64 table ``tab`` and the heuristic's parameters in one
float64 table ``ftab`` (row = seat). Compile time: numba re-optimizes a caller together
with every compiled function it links in, so the steps of the flow that reach a decision
are inlined into one function (``flow.play``, itself inlined into ``play_games_kernel``)
and the decision (``flow.decide``, with both strategies below it) is linked in once; the
call sites cast literal arguments to ``int64`` so that each function compiles once, not
once per literal.
"""

from __future__ import annotations

from sims.games import kernel_cache
from sims.games.horno.kernel import (
    flow,
    game,
    greedy,
    heuristic,
    layout,
    runner,
    scoring,
    state,
    view,
)
from sims.games.horno.kernel.game import play_games_kernel
from sims.games.horno.kernel.layout import KINDS, PARAM_ORDER
from sims.games.horno.kernel.runner import (
    kernel_code,
    kernel_ok,
    play_many,
    seat_params,
    strategy_codes,
)

__all__ = [
    "KINDS",
    "PARAM_ORDER",
    "kernel_code",
    "kernel_ok",
    "play_games_kernel",
    "play_many",
    "seat_params",
    "strategy_codes",
]

_MODULES = [flow, game, greedy, heuristic, layout, runner, scoring, state, view]
_CACHE_KEY = kernel_cache.key_caches(_MODULES)
