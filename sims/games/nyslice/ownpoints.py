"""Own points of each special: what its scoring effect was worth in finished games.

An estimand for the balance study. For every game and every special that some seat holds at
the end, the finished game is re-scored **without that special's scoring effect**, every
holding fixed (no decision is replayed: the slices eaten stay eaten, the collected ones
collected), and the holder's total and win share are compared with the real ones. The
effect removed, per special (:func:`without`):

- Stuffed Crust its +5, Day-Old Pizza its −2, Buffet its points, Combo Cravings and You
  Love Veggies their +3s (the combos and Veggies eaten stay eaten);
- Everyone Else's Diet: the other seats' losses;
- Tie-Breaker: the ties it won are unscored;
- Super-Sized Combos: the holder's combos count ½ again;
- You Like Anchovies!: the holder's collected anchovies count −1 again;
- Seconds: the game is scored as it stood before Seconds (the slices Seconds ate are
  collected again, a Supreme it ate back on its type); nothing else moves;
- Cut in Line, Dibs!, Sneak-a-Slice and Mystery Slice have no scoring effect: their rows
  show own points 0 by definition.

Each is the game scored with the special taken out of its holder's hand
(``scoring.score`` on :func:`without`'s holdings), plus, for Seconds, its moves undone.
Rules' what-if options stay as played (``compensation`` is in both totals).

:func:`own_points` plays a study arm's games in the compiled kernel, exactly as the
batch runner plays them (game ``i`` is the dataset's game ``i``), and re-scores each one
there at its end (``kernel/ownpoints.py``); a seating the kernel cannot play is played by
the reference engine. :func:`own_points_reference` is the slow pure-Python twin (the
reference engine and :mod:`scoring`), which the tests hold the fast one to.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np
import pyarrow as pa

from sims.core.errors import SlicelabError
from sims.core.game import win_shares as table_win_shares
from sims.games.nyslice.deck import Deck, Kind, Special, default_deck
from sims.games.nyslice.rules import Rules, check_players
from sims.games.nyslice.scoring import Holdings, score, win_shares

OWN_COLUMNS = (
    "game_index",
    "special",
    "holder",
    "score",
    "score_without",
    "win_share",
    "win_share_without",
    "others_delta",
)
"""Columns of :func:`own_points`' table, in order."""

NO_SCORING_EFFECT = frozenset(
    {Special.CUT_IN_LINE, Special.DIBS, Special.SNEAK_A_SLICE, Special.MYSTERY_SLICE}
)
"""Specials whose own points are 0 by definition (they act during play only)."""

_MAX_INDEX = 2**32  # the kernel's streams take seeds and game indices below 2**32


def without(
    deck: Deck,
    holdings: Sequence[Holdings],
    special: Special,
    seconds_eaten: Sequence[int] = (),
    seconds_supreme: int = 0,
) -> list[Holdings]:
    """The holdings to score for a game without ``special``'s scoring effect.

    The holder keeps every slice but no longer owns ``special``. For Seconds, the slices
    it ate (``seconds_eaten``, in the holder's eaten pile) go back to the collected ones,
    and the Supreme, if among them, back to its type ``seconds_supreme``.

    Raises
    ------
    ValueError
        If no seat holds ``special``.
    """
    holder = next((p for p, h in enumerate(holdings) if special in h.specials), -1)
    if holder < 0:
        raise ValueError(f"no seat holds {special.slug}")
    h = holdings[holder]
    collected, eaten, sup = h.collected, h.eaten, h.supreme_type
    if special == Special.SECONDS and seconds_eaten:
        back = set(seconds_eaten)
        if not back <= set(eaten):
            raise ValueError("the slices Seconds ate must be among the holder's eaten ones")
        collected = (*collected, *(s for s in eaten if s in back))
        eaten = tuple(s for s in eaten if s not in back)
        if any(deck.slices[s].kind == Kind.SUPREME for s in back):
            sup = seconds_supreme
    out = list(holdings)
    out[holder] = Holdings(collected, eaten, h.specials - {special}, sup)
    return out


def own_points_of(
    deck: Deck,
    holdings: Sequence[Holdings],
    special: Special,
    rules: Rules | None = None,
    seconds_eaten: Sequence[int] = (),
    seconds_supreme: int = 0,
) -> dict[str, float | int]:
    """One row of :func:`own_points` (without ``game_index`` and ``special``) for final
    ``holdings`` (after Seconds), through :mod:`scoring`.

    Returns
    -------
    dict
        ``holder``, ``score``, ``score_without``, ``win_share``, ``win_share_without``,
        ``others_delta`` (see :func:`own_points`).
    """
    changed = without(deck, holdings, special, seconds_eaten, seconds_supreme)
    holder = next(p for p, h in enumerate(holdings) if special in h.specials)
    real, alt = score(deck, holdings, rules), score(deck, changed, rules)
    n = len(holdings)
    delta = sum(alt[q].total - real[q].total for q in range(n) if q != holder)
    return {
        "holder": holder,
        "score": real[holder].total,
        "score_without": alt[holder].total,
        "win_share": win_shares(real)[holder],
        "win_share_without": win_shares(alt)[holder],
        "others_delta": delta / (n - 1),
    }


def _prepare(players, strategies, seed, games, deck, rules):
    from sims.core.specs import split_specs
    from sims.games.nyslice.strategies import make_strategy

    check_players(players)
    specs = split_specs(strategies) if isinstance(strategies, str) else [str(s) for s in strategies]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise SlicelabError(
            f"{len(specs)} strategies given for {players} players: give one for every seat "
            "or a single one for all"
        )
    for s in specs:
        make_strategy(s)  # an unknown name or parameter fails here with its own message
    deck = deck or default_deck()
    rules = rules or Rules()
    if not 0 <= rules.first_slicer < players:
        raise SlicelabError(
            f"rule option first_slicer={rules.first_slicer} is not a seat of {players} players"
        )
    if isinstance(games, int | np.integer):
        if games < 0:
            raise SlicelabError(f"games must be a count or game indices, not {games}")
        indices = np.arange(int(games), dtype=np.int64)
    else:
        indices = np.array([int(i) for i in games], dtype=np.int64)
    if (indices < 0).any() or (indices >= _MAX_INDEX).any():
        raise SlicelabError("game indices must be integers in [0, 2**32)")
    if not 0 <= int(seed) < _MAX_INDEX:
        raise SlicelabError(f"seed must be an integer in [0, 2**32), not {seed}")
    return specs, deck, rules, indices, int(seed)


def _table(game_index, special, holder, score_, score_wo, share, share_wo, delta) -> pa.Table:
    from sims.games.nyslice.plugin import POINTS  # the plugin's column types

    slugs = [s.slug for s in Special]
    return pa.table(
        {
            "game_index": pa.array(np.asarray(game_index, dtype=np.int64)),
            "special": pa.array([slugs[int(c)] for c in special], pa.string()),
            "holder": pa.array(np.asarray(holder, dtype=np.int8)),
            "score": pa.array(np.asarray(score_, dtype=POINTS)),
            "score_without": pa.array(np.asarray(score_wo, dtype=POINTS)),
            "win_share": pa.array(np.asarray(share, dtype=np.float64)),
            "win_share_without": pa.array(np.asarray(share_wo, dtype=np.float64)),
            "others_delta": pa.array(np.asarray(delta, dtype=np.float64)),
        }
    )


@lru_cache(maxsize=8)
def _runner(deck: Deck, rules: Rules):
    from sims.games.nyslice.kernel import KernelRunner

    return KernelRunner(deck, rules)


def own_points(
    players: int,
    strategies: Sequence[str] | str,
    seed: int,
    games: int | Iterable[int],
    deck: Deck | None = None,
    rules: Rules | None = None,
) -> pa.Table:
    """Own points of every special held at the end of a study arm's games.

    Parameters
    ----------
    players : int
        2 to 6.
    strategies : sequence of str, or str
        One spec per seat, or one for every seat (a comma-separated string is split), as a
        study arm gives them.
    seed : int
        The arm's seed, in [0, 2**32).
    games : int or iterable of int
        A count (games 0 .. games − 1) or the game indices, in [0, 2**32); rows follow
        this order. Game ``i`` is the arm's game ``i`` (the same deal, seat streams and
        play as the batch runner's, so ``score`` is the dataset's ``score``).
    deck, rules : optional
        Defaults: the default deck and ``Rules()``. A blanked deck (``Deck.with_blank``)
        is what an arm with ``blank`` plays; the blank tile has no row.

    Returns
    -------
    pyarrow.Table
        One row per (game, special some seat holds at its end), specials in
        ``deck.Special`` order within a game; columns :data:`OWN_COLUMNS`:

        - ``game_index`` (int64), ``special`` (string: its slug), ``holder`` (int8: seat);
        - ``score`` (int16): the holder's real total; ``score_without`` (int16): its total
          in the game re-scored without the special's scoring effect (module docstring);
          own points are ``score - score_without``;
        - ``win_share``, ``win_share_without`` (float64): the holder's win share under the
          real and the re-scored totals (highest total, then most eaten slices, as
          re-scored; a win shared by k counts 1/k);
        - ``others_delta`` (float64): the mean over the other seats of their re-scored
          total minus their real one.

    Raises
    ------
    SlicelabError
        For a bad seating, strategy, seed, game index or first slicer.

    Notes
    -----
    Played in the compiled kernel when it plays every seat's strategy (``random``,
    ``greedy``, ``heuristic`` and its presets, ``search``), re-scoring at each game's end
    there, so it costs about as much as playing the games; otherwise by
    :func:`own_points_reference`.
    """
    from sims.games.nyslice.kernel import SCORE_COLUMNS, seat_params, strategy_codes
    from sims.games.nyslice.kernel.ownpoints import (
        OWN_EATEN,
        OWN_GAME,
        OWN_HOLDER,
        OWN_SPECIAL,
        OWN_TOTAL,
    )

    specs, deck, rules, indices, seed = _prepare(players, strategies, seed, games, deck, rules)
    try:
        codes = strategy_codes(specs)
    except KeyError:
        return own_points_reference(players, specs, seed, indices.tolist(), deck, rules)
    n = players
    scores, _, rows = _runner(deck, rules).own_points(
        n, codes, seed, indices, hparams=seat_params(specs, n)
    )
    total = scores[:, :, SCORE_COLUMNS.index("total")]
    eaten = scores[:, :, SCORE_COLUMNS.index("eaten")]
    real_share = table_win_shares([total, eaten])
    g, holder = rows[:, OWN_GAME], rows[:, OWN_HOLDER]
    alt_total = rows[:, OWN_TOTAL : OWN_TOTAL + n]
    alt_share = table_win_shares([alt_total, rows[:, OWN_EATEN : OWN_EATEN + n]])
    at = np.arange(len(rows))
    real_h, alt_h = total[g, holder], alt_total[at, holder]
    delta = (alt_total - total[g]).sum(axis=1) - (alt_h - real_h)
    return _table(
        indices[g], rows[:, OWN_SPECIAL], holder, real_h, alt_h, real_share[g, holder],
        alt_share[at, holder], delta / (n - 1),
    )  # fmt: skip


def own_points_reference(
    players: int,
    strategies: Sequence[str] | str,
    seed: int,
    games: int | Iterable[int],
    deck: Deck | None = None,
    rules: Rules | None = None,
) -> pa.Table:
    """:func:`own_points` computed slowly, in pure Python: each game played by the
    reference engine (``game.play_game``) and re-scored by :func:`own_points_of`
    (:mod:`scoring`). The same parameters, the same table."""
    from sims.games.nyslice.game import play_game, seat_strategies

    specs, deck, rules, indices, seed = _prepare(players, strategies, seed, games, deck, rules)
    strats = seat_strategies(specs, players)
    cols: dict[str, list] = {c: [] for c in OWN_COLUMNS}
    for index in indices.tolist():
        state = play_game(players, strats, seed, index, deck, rules)
        holdings = [state.holdings(s) for s in range(players)]
        sec = next((e for e in state.events if e[0] == "seconds"), None)
        sup = [e[2] for e in state.events if e[0] == "supreme"]
        for sp in Special:
            if sp == Special.BLANK or state.owner(sp) < 0:
                continue
            row = own_points_of(
                deck, holdings, sp, rules,
                seconds_eaten=sec[3] if sec else (), seconds_supreme=sup[-1] if sup else 0,
            )  # fmt: skip
            cols["game_index"].append(index)
            cols["special"].append(int(sp))
            for c, v in row.items():
                cols[c].append(v)
    return _table(*(cols[c] for c in OWN_COLUMNS))
