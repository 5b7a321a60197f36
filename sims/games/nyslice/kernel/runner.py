"""The Python side of the kernel: ``KernelRunner`` and the strategies' codes and parameters.

``KernelRunner`` holds a deck and rule set encoded for the kernel and plays games
(``play``, ``play_many``) and playouts (``play_deal``); ``strategy_codes`` and
``seat_params`` encode a seating's strategies (``heuristic_params``: the heuristic
seats' part); ``deal_array`` encodes an ``engine.Deal``.
"""

from __future__ import annotations

import numpy as np

from sims.core.errors import SlicelabError
from sims.core.fastrng import game_streams_into
from sims.games.nyslice.heuristic import PARAM_ORDER
from sims.games.nyslice.kernel.game import play_deal_kernel, play_game_kernel, play_games_kernel
from sims.games.nyslice.kernel.layout import (
    D_HEAD,
    DECISION_COLUMNS,
    MAX_ROUNDS,
    MAX_SEATS,
    MAX_TRACE,
    N_HPARAMS,
    N_SEAT_PARAMS,
    N_SPECIALS,
    NO_AVOID,
    S_AVOID,
    S_BUDGET,
    S_CUTS,
    S_FORFEIT,
    S_WIDTH,
    SCORE_COLUMNS,
    SPECIAL_VALUES,
    STRAT_HEURISTIC,
    STRAT_SEARCH,
    STRATEGY_CODES,
    T_OUT,
    _new_tables,
    avoid_code,
    rules_array,
)
from sims.games.nyslice.kernel.ownpoints import OWN_WIDTH, own_points_kernel
from sims.games.nyslice.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    MYSTERY_POOL,
    SLICES_PER_STACK,
    Rules,
    rounds_for,
)


def deal_array(deal, n_slices: int) -> np.ndarray:
    """Encode an ``engine.Deal`` for ``play_deal_kernel`` (``D_*`` header, then the parts).

    Raises
    ------
    ValueError
        For a stack that is not ``SLICES_PER_STACK`` slices, more rounds than the kernel
        holds, or a slice id outside the deck.
    """
    stacks = deal.stacks
    rounds = len(stacks)
    if not 1 <= rounds <= MAX_ROUNDS or len(deal.stack_specials) != rounds:
        raise ValueError(f"a deal needs 1 to {MAX_ROUNDS} stacks, each with its special")
    flat = [sid for st in stacks for sid in st]
    if any(len(st) != SLICES_PER_STACK for st in stacks):
        raise ValueError(f"the kernel plays stacks of {SLICES_PER_STACK} slices")
    head = [rounds, len(deal.replacement), len(deal.mystery), len(deal.removed), n_slices]
    out = np.array(
        head
        + flat
        + [int(x) for x in deal.stack_specials]
        + [int(x) for x in deal.replacement]
        + list(deal.mystery)
        + list(deal.removed),
        dtype=np.int64,
    )
    ids = out[D_HEAD : D_HEAD + len(flat)]
    tail = out[D_HEAD + len(flat) + rounds + len(deal.replacement) :]
    if (ids.size and (ids.min() < 0 or ids.max() >= n_slices)) or (
        tail.size and (tail.min() < 0 or tail.max() >= n_slices)
    ):
        raise ValueError("a deal names a slice id outside the deck")
    return out


class KernelRunner:
    """Plays games in the compiled kernel for one deck and rule set.

    Parameters
    ----------
    deck : Deck
    rules : Rules
    """

    def __init__(self, deck, rules: Rules) -> None:
        from sims.games.nyslice.engine import removed_slices

        a = deck.arrays()
        specials = np.array([int(s) for s in deck.specials], dtype=np.int64)
        self._deck = (a["kind"], a["type_a"], a["type_b"], a["pepperoni"], a["anchovies"], specials)
        self._n_slices = len(deck.slices)
        self._rules = rules_array(rules)
        self._removed = {}
        self._in_play = {}
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            mask = np.zeros(len(deck.slices), dtype=np.int64)
            mask[removed_slices(deck, n)] = 1
            self._removed[n] = mask
            self._in_play[n] = len(deck.slices) - int(mask.sum())
        self._tables = None  # play_deal's reusable state (built on first use)
        self._last_deal = None
        self._last_deal_array = None

    @staticmethod
    def _hparams(n: int, codes: np.ndarray, hparams) -> np.ndarray:
        if hparams is None:
            # Plain `heuristic` and `search` (their player-count defaults) in their seats.
            return _default_seat_params(n, codes)
        hp = np.ascontiguousarray(hparams, dtype=np.float64)
        if hp.ndim == 2 and hp.shape == (n, N_HPARAMS):
            hp = np.hstack([hp, np.zeros((n, N_SEAT_PARAMS - N_HPARAMS))])
            hp[:, S_AVOID] = NO_AVOID
        if hp.shape != (n, N_SEAT_PARAMS):
            raise ValueError(
                f"hparams must have shape ({n}, {N_SEAT_PARAMS}) (or ({n}, {N_HPARAMS}) "
                f"without search or restricted seats), not {hp.shape}"
            )
        if (hp[codes == STRAT_SEARCH, S_BUDGET] < 1).any():
            raise ValueError("a search seat needs its parameters: use seat_params(specs, n)")
        if not np.isin(hp[:, S_AVOID], np.arange(NO_AVOID, N_SPECIALS)).all():
            raise ValueError(
                f"hparams[:, {S_AVOID}] (the special a seat avoids) must be -1 (none) or a "
                f"special's code 0 to {N_SPECIALS - 1}: use seat_params(specs, n)"
            )
        if not np.isin(hp[:, S_FORFEIT], (0.0, 1.0)).all():
            raise ValueError(
                f"hparams[:, {S_FORFEIT}] (the seat's restriction: 0 avoid, 1 forfeit) must "
                "be 0 or 1: use seat_params(specs, n)"
            )
        return hp

    @staticmethod
    def _codes(n: int, codes) -> np.ndarray:
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        if codes.shape != (n,):
            raise ValueError(f"{n} strategy codes needed, got shape {codes.shape}")
        if ((codes < 0) | (codes > max(STRATEGY_CODES.values()))).any():
            raise ValueError(f"unknown strategy code in {codes.tolist()}")
        return codes

    def _setup(self, n: int, codes: np.ndarray, hparams=None) -> tuple:
        # The deal fills a stack per round and the mystery pool with the slices in play, as
        # engine.deal does (and refuses a deck that does not).
        need = rounds_for(n) * SLICES_PER_STACK + MYSTERY_POOL
        if self._in_play[n] != need:
            raise SlicelabError(
                f"a {n}-player game needs {need} slices after setup, "
                f"this deck leaves {self._in_play[n]}"
            )
        codes = self._codes(n, codes)
        hp = self._hparams(n, codes, hparams)
        args = (self._removed[n], n, rounds_for(n), self._rules, codes, SPECIAL_VALUES, hp)
        return *self._deck, *args

    def play(
        self,
        n: int,
        codes: np.ndarray,
        study_seed: int,
        game_index: int,
        records: bool = False,
        hparams: np.ndarray | None = None,
    ):
        """Play one game.

        ``hparams`` (n, N_SEAT_PARAMS): each seat's parameters (``seat_params``; (n,
        N_HPARAMS) will do without search seats); None gives plain ``heuristic``'s and
        ``search``'s (their defaults at n players) to their seats and zeros to the others.

        Returns
        -------
        scores : int64 array (n, len(SCORE_COLUMNS))
        trace : int64 array (decisions, 3)
            (player, phase, action) of each decision.
        records : int64 array (decisions, len(DECISION_COLUMNS))
            Only when ``records`` is true.
        """
        rngs = np.zeros((n + 1, 5), dtype=np.uint64)
        game_streams_into(study_seed, game_index, n + 1, rngs)
        scores = np.zeros((n, len(SCORE_COLUMNS)), dtype=np.int64)
        trace = np.zeros((MAX_TRACE, 3), dtype=np.int64)
        drec = np.zeros((MAX_TRACE if records else 0, len(DECISION_COLUMNS)), dtype=np.int64)
        dcount = np.zeros(1, dtype=np.int64)
        args = self._setup(n, codes, hparams)
        k = play_game_kernel(*args, rngs, scores, trace, drec, dcount, game_index)
        if k > MAX_TRACE:
            raise RuntimeError("decision trace overflow")
        if records:
            return scores, trace[:k], drec[:k]
        return scores, trace[:k]

    def play_many(
        self, n: int, codes: np.ndarray, study_seed: int, first_index: int, count: int,
        records: bool = False, hparams: np.ndarray | None = None,
    ):  # fmt: skip
        """Play ``count`` consecutive games in one kernel call.

        ``hparams`` as in :meth:`play`.

        Returns
        -------
        scores : int64 array (count, n, len(SCORE_COLUMNS))
        decisions : int64 array (count,)
            Decisions taken per game.
        records : int64 array (sum(decisions), len(DECISION_COLUMNS))
            Only when ``records`` is true: every decision's record, in game order.
        """
        scores = np.zeros((count, n, len(SCORE_COLUMNS)), dtype=np.int64)
        decisions = np.zeros(count, dtype=np.int64)
        rows = count * 128 if records else 0
        args = self._setup(n, codes, hparams)
        while True:
            drec = np.zeros((rows, len(DECISION_COLUMNS)), dtype=np.int64)
            dcount = np.zeros(1, dtype=np.int64)
            play_games_kernel(*args, study_seed, first_index, scores, decisions, drec, dcount)
            if dcount[0] <= rows or not records:
                break
            rows = int(dcount[0])  # rare: more decisions than guessed; play the chunk again
        if records:
            return scores, decisions, drec[: dcount[0]]
        return scores, decisions

    def own_points(
        self, n: int, codes: np.ndarray, study_seed: int, indices, chunk: int = 4096,
        hparams: np.ndarray | None = None,
    ):  # fmt: skip
        """Play games ``indices`` of a study as :meth:`play_many` plays them, and re-score
        each without each special held at its end (``kernel.ownpoints``).

        ``hparams`` as in :meth:`play`; ``chunk`` games go to each kernel call.

        Returns
        -------
        scores : int64 array (len(indices), n, len(SCORE_COLUMNS))
        decisions : int64 array (len(indices),)
        rows : int64 array (rows, ownpoints.OWN_WIDTH)
            One per (game, special held at its end): the game's position in ``indices``,
            the special's code, its holder, every seat's total and eaten slices re-scored
            without it (``ownpoints.OWN_*`` columns).
        """
        idx = np.ascontiguousarray(indices, dtype=np.int64).ravel()
        count = idx.shape[0]
        scores = np.zeros((count, n, len(SCORE_COLUMNS)), dtype=np.int64)
        decisions = np.zeros(count, dtype=np.int64)
        args = self._setup(n, codes, hparams)
        parts = []
        for start in range(0, count, chunk):
            part = idx[start : start + chunk]
            rows = np.zeros((len(part) * N_SPECIALS, OWN_WIDTH), dtype=np.int64)
            k = own_points_kernel(
                *args, study_seed, part, scores[start : start + len(part)],
                decisions[start : start + len(part)], rows,
            )  # fmt: skip
            rows = rows[:k]
            rows[:, 0] += start
            parts.append(rows)
        rows = np.concatenate(parts) if parts else np.zeros((0, OWN_WIDTH), dtype=np.int64)
        return scores, decisions, rows

    def play_deal(
        self,
        n: int,
        codes: np.ndarray,
        hparams: np.ndarray | None,
        deal,
        prefix,
        seed_rngs: tuple[int, int] | None = None,
        trace: bool = False,
    ):
        """Play a game from an explicit deal, its first decisions given (a playout).

        Parameters
        ----------
        n : int
            Players.
        codes, hparams
            Strategy code and heuristic parameters per seat (as in :meth:`play`).
        deal : engine.Deal
            Stacks of ``SLICES_PER_STACK`` slices (one per round), their specials, the
            replacement pile, the mystery pool and the removed slices. Slices in none of
            the stacks and the pool are never dealt; as in ``PlayerView.unclaimed``, those
            not in ``deal.removed`` still count as unclaimed.
        prefix : sequence of int
            The actions of the game's first ``len(prefix)`` real decisions (those
            ``GameState.history`` records); the strategies decide the rest. An illegal
            prefix action, or more actions than the game has decisions, raises ValueError.
        seed_rngs : (study seed, game index), optional
            Streams of the random seats (default (0, 0)); prefix decisions draw nothing.
        trace : bool
            Also return the (player, phase, action) of every decision.

        Returns
        -------
        scores : int64 array (n, len(SCORE_COLUMNS))
        trace : int64 array (decisions, 3)
            Only when ``trace`` is true.

        The state tables are built once per runner and reused, and the last deal's
        encoding is kept, so calling this many times on one deal costs little besides
        the game itself.
        """
        if self._tables is None:
            kind, ta, tb, pep, anch, specials = self._deck
            tables = _new_tables(
                kind, ta, tb, pep, anch, specials.shape[0], self._rules,
                np.zeros(MAX_SEATS, dtype=np.int64), SPECIAL_VALUES,
                np.zeros((MAX_SEATS, N_SEAT_PARAMS)),
            )  # fmt: skip
            rngs = np.zeros((MAX_SEATS + 1, 5), dtype=np.uint64)
            self._tables = (*tables, rngs, np.zeros((MAX_TRACE, 3), dtype=np.int64))
        tab, ftab, rngs, tr = self._tables
        if deal is not self._last_deal:
            if len(deal.replacement) > len(self._deck[5]):
                raise ValueError("the replacement pile holds more specials than the deck")
            self._last_deal_array = deal_array(deal, self._n_slices)
            self._last_deal = deal
        if not MIN_PLAYERS <= n <= MAX_SEATS:
            raise ValueError(f"{MIN_PLAYERS} to {MAX_SEATS} players, not {n}")
        codes = self._codes(n, codes)
        if (codes == STRAT_SEARCH).any():
            raise ValueError("a playout's seats cannot search (play a search game with play)")
        hp = self._hparams(n, codes, hparams)
        pre = np.ascontiguousarray(prefix, dtype=np.int64)
        if pre.ndim != 1:
            raise ValueError("prefix must be a sequence of actions")
        seed, index = (0, 0) if seed_rngs is None else (int(seed_rngs[0]), int(seed_rngs[1]))
        k = play_deal_kernel(
            tab, ftab, self._last_deal_array, n, codes, hp, seed, index, rngs, pre, tr
        )
        if k < len(pre):
            raise ValueError(f"the prefix has {len(pre)} actions, the game only {k} decisions")
        scores = tab[T_OUT : T_OUT + n, : len(SCORE_COLUMNS)].copy()
        if not trace:
            return scores
        if k > MAX_TRACE:
            raise RuntimeError("decision trace overflow")
        return scores, tr[:k].copy()


def strategy_codes(specs) -> np.ndarray:
    """Kernel codes of the strategies the kernel plays; raises KeyError for another one.

    ``random`` and ``greedy`` (without parameters but ``avoid`` or ``forfeit``),
    ``heuristic`` and the heuristic presets (``heuristic-p4``, ...; with or without
    parameters) and ``search`` (with or without parameters) map to their codes; give the
    seats' parameters with ``seat_params``.
    """
    from sims.core.errors import SlicelabError
    from sims.core.specs import parse_spec
    from sims.games.nyslice.heuristic import load_presets

    presets = None
    out = []
    for s in specs:
        text = str(s)
        if text in STRATEGY_CODES:
            out.append(STRATEGY_CODES[text])
            continue
        try:
            spec = parse_spec(text)
        except SlicelabError:
            raise KeyError(text) from None
        if spec.name in ("random", "greedy") and set(spec.params) <= {"avoid", "forfeit"}:
            out.append(STRATEGY_CODES[spec.name])  # restricted play: greedy(avoid=dibs)
            continue
        if spec.name == "heuristic":
            out.append(STRAT_HEURISTIC)
            continue
        if spec.name == "search":
            out.append(STRAT_SEARCH)
            continue
        if presets is None:
            presets = load_presets()
        if spec.name in presets:
            out.append(STRAT_HEURISTIC)
            continue
        raise KeyError(text)
    return np.array(out, dtype=np.int64)


def heuristic_params(specs, n: int) -> np.ndarray:
    """The heuristic columns of :func:`seat_params` (n, N_HPARAMS): each heuristic seat's
    resolved parameters, zeros for the others (a search seat's valuer row included)."""
    out = seat_params(specs, n)[:, :N_HPARAMS].copy()
    out[strategy_codes(_per_seat(specs, n)) != STRAT_HEURISTIC] = 0.0
    return out


def _per_seat(specs, n: int) -> list:
    specs = list(specs)
    if len(specs) == 1:
        specs = specs * n
    if len(specs) != n:
        raise ValueError(f"{len(specs)} strategies given for {n} players")
    return specs


def seat_params(specs, n: int) -> np.ndarray:
    """The kernel's ``hparams`` for a seating (n, N_SEAT_PARAMS).

    A heuristic seat's row holds its resolved parameters (``make_strategy(spec).params(n)``
    in ``heuristic.PARAM_ORDER``); a search seat's holds the heuristic's player-count
    default (its valuer and its playouts' field, as ``SearchStrategy`` uses) and then its
    ``budget``, ``cuts`` and ``width``; other seats' rows are zeros. Every row ends with
    the code of the special its seat avoids or forfeits (``S_AVOID``; -1, ``NO_AVOID``:
    none) and which restriction it is (``S_FORFEIT``: 0 avoid or none, 1 forfeit).
    ``specs`` gives one spec per seat, or one for every seat.
    """
    from sims.games.nyslice.heuristic import params_for
    from sims.games.nyslice.strategies import make_strategy

    specs = _per_seat(specs, n)
    codes = strategy_codes(specs)
    out = np.zeros((n, N_SEAT_PARAMS), dtype=np.float64)
    for p, (s, code) in enumerate(zip(specs, codes, strict=True)):
        strategy = make_strategy(str(s))
        forfeit = getattr(strategy, "forfeit", None)
        out[p, S_AVOID] = avoid_code(forfeit if forfeit is not None else strategy.avoid)
        out[p, S_FORFEIT] = float(forfeit is not None)
        if code == STRAT_HEURISTIC:
            params = strategy.params(n)
            out[p, :N_HPARAMS] = [float(params[k]) for k in PARAM_ORDER]
        elif code == STRAT_SEARCH:
            p_search = strategy.p
            default = params_for(n, {})
            out[p, :N_HPARAMS] = [float(default[k]) for k in PARAM_ORDER]
            out[p, S_BUDGET] = p_search["budget"]
            out[p, S_CUTS] = p_search["cuts"]
            out[p, S_WIDTH] = p_search["width"]
    return out


def _default_seat_params(n: int, codes: np.ndarray) -> np.ndarray:
    """seat_params of plain ``heuristic`` and ``search`` in the seats coded so."""
    names = {STRAT_HEURISTIC: "heuristic", STRAT_SEARCH: "search"}
    return seat_params([names.get(int(c), "random") for c in codes], n)
