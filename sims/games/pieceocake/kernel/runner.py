"""The Python side of the kernel: ``KernelRunner`` and the strategies' codes and parameters.

``KernelRunner`` holds a cake and rule set encoded for the kernel and plays chunks of a
study's games (``play_many``; ``play`` for one); ``strategy_codes`` and ``seat_params``
encode a seating's strategies; ``cut_tables`` encodes the legal cuts of a player count.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from sims.core.errors import SlicelabError
from sims.games.pieceocake.cake import Cake, default_cake
from sims.games.pieceocake.cuts import cut_masks, pieces_of
from sims.games.pieceocake.heuristic import GREEDY_PARAMS, PARAM_ORDER
from sims.games.pieceocake.kernel.game import play_deal_kernel, play_games_kernel, playouts_kernel
from sims.games.pieceocake.kernel.layout import (
    MAX_DECISIONS,
    MAX_PIECES,
    MT_ARC,
    MT_BYK,
    MT_GARC,
    MT_K,
    MT_KSTART,
    MT_LEN,
    MT_MASK,
    MT_START,
    MT_WIDTH,
    N_DEC,
    N_HPARAMS,
    N_SCORE,
    N_SEAT_PARAMS,
    S_BUDGET,
    S_CUTS,
    STRAT_GREEDY,
    STRAT_HEURISTIC,
    STRAT_SEARCH,
    STRATEGY_CODES,
    arc_id,
    rules_array,
)
from sims.games.pieceocake.rules import Rules, check_players

ROWS_PER_GAME = 80
"""Decision records room per game in a first try (a game rarely has more; a chunk that
does is played again with room for every row)."""


@cache
def cut_tables(max_pieces: int, exact: bool) -> np.ndarray:
    """The legal cuts as the kernel's mask table (read only): a row per mask of
    ``cuts.cut_masks`` (ascending) with its piece count and each piece's first circle
    position, length and arc id (``layout.MT_*`` columns; ``cuts.pieces_of``'s order), and
    the rows grouped by piece count (``MT_BYK``, ``MT_KSTART``)."""
    masks = cut_masks(max_pieces, exact)
    if len(masks) < MAX_PIECES + 2:
        raise ValueError("the mask table holds its piece-count groups' starts in its rows")
    out = np.zeros((len(masks), MT_WIDTH), dtype=np.int64)
    for i, mask in enumerate(masks):
        pieces = pieces_of(mask)
        out[i, MT_MASK] = mask
        out[i, MT_K] = len(pieces)
        for j, piece in enumerate(pieces):
            out[i, MT_START + j] = piece[0]
            out[i, MT_LEN + j] = len(piece)
            out[i, MT_ARC + j] = arc_id(piece[0], len(piece))
    byk = np.argsort(out[:, MT_K], kind="stable")  # rows by piece count, then mask
    out[:, MT_BYK] = byk
    out[:, MT_GARC : MT_GARC + MAX_PIECES] = out[byk, MT_ARC : MT_ARC + MAX_PIECES]
    for k in range(MAX_PIECES + 2):
        out[k, MT_KSTART] = np.searchsorted(out[byk, MT_K], k)
    out.setflags(write=False)
    return out


class KernelRunner:
    """Plays games in the compiled kernel for one cake and rule set.

    Parameters
    ----------
    cake : Cake, optional
        Default: the published cake.
    rules : Rules, optional
        Default: the spec's rulings. Every option is played.
    """

    def __init__(self, cake: Cake | None = None, rules: Rules | None = None) -> None:
        cake = cake or default_cake()
        rules = rules or Rules()
        self.cake = cake
        self.rules = rules
        self._cake = (
            np.array(cake.slice_variety, dtype=np.int64),
            np.array([v.value for v in cake.varieties], dtype=np.int64),
            np.array([v.cream for v in cake.varieties], dtype=np.int64),
            np.array([v.copies for v in cake.varieties], dtype=np.int64),
        )
        self._rules = rules_array(rules)

    def _setup(self, n: int, codes, hparams) -> tuple:
        check_players(n)
        if self.rules.first_server >= n:
            raise SlicelabError(
                f"rule option first_server={self.rules.first_server} is not a seat of {n} players"
            )
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        if codes.shape != (n,):
            raise ValueError(f"{n} strategy codes needed, got shape {codes.shape}")
        if not np.isin(codes, list(STRATEGY_CODES.values())).all():
            raise ValueError(f"unknown strategy code in {codes.tolist()}")
        if hparams is None:
            names = {v: k for k, v in STRATEGY_CODES.items()}
            hp = seat_params([names[int(c)] for c in codes], n)
        else:
            hp = np.ascontiguousarray(hparams, dtype=np.float64)
            if hp.shape == (n, N_HPARAMS):  # no search seat's columns: zeros
                hp = np.hstack([hp, np.zeros((n, N_SEAT_PARAMS - N_HPARAMS))])
            if hp.shape != (n, N_SEAT_PARAMS):
                raise ValueError(
                    f"hparams must have shape ({n}, {N_SEAT_PARAMS}) (or ({n}, {N_HPARAMS}) "
                    f"without search seats), not {hp.shape}"
                )
        searching = codes == STRAT_SEARCH
        if (hp[searching][:, [S_BUDGET, S_CUTS]] < 1).any():
            raise ValueError("a search seat needs its budget and cuts: use seat_params(specs, n)")
        most = self.rules.max_pieces(n)
        mtab = cut_tables(most, self.rules.exact_pieces)
        return (*self._cake, self._rules, codes, hp, mtab, most)

    def play_many(
        self, n: int, codes, study_seed: int, first_index: int, count: int,
        records: bool = False, hparams=None,
    ):  # fmt: skip
        """Play games ``first_index .. first_index + count - 1`` of a study in one call.

        Parameters
        ----------
        n : int
            Players (2 to 5).
        codes : int array (n,)
            Strategy code per seat (:func:`strategy_codes`). A game with a search seat is
            played in the kernel too, decisions and playouts (``kernel/search.py``).
        study_seed, first_index, count : int
            Game ``i`` is seeded by (``study_seed``, ``i``) as ``game.play_game`` seeds it.
        records : bool
            Also return every decision's record.
        hparams : float array (n, N_SEAT_PARAMS) or (n, 4), optional
            Each seat's (theta, loss, fewer, margin), then a search seat's (budget, cuts)
            (:func:`seat_params`; the four columns will do without search seats); None
            gives plain ``heuristic``'s and ``search``'s (their defaults at n players) to
            their seats.

        Returns
        -------
        scores : int64 array (count, n, len(records.SCORE_COLUMNS))
        decisions : int64 array (count,)
            Real decisions per game.
        records : int64 array (sum(decisions), len(records.DECISION_COLUMNS)) or None
            Every decision's record (``records.decision_row``), in game order; None
            unless ``records``.
        """
        if not (0 <= study_seed < 2**32 and first_index >= 0 and first_index + count <= 2**32):
            raise ValueError("study seed and game indices must be in [0, 2**32)")
        args = self._setup(n, codes, hparams)
        scores = np.zeros((count, n, N_SCORE), dtype=np.int64)
        decisions = np.zeros(count, dtype=np.int64)
        rows = count * min(ROWS_PER_GAME, MAX_DECISIONS) if records else 0
        while True:
            drec = np.zeros((rows, N_DEC), dtype=np.int64)
            dcount = np.zeros(1, dtype=np.int64)
            play_games_kernel(*args, study_seed, first_index, scores, decisions, drec, dcount)
            if not records or dcount[0] <= rows:
                break
            rows = int(dcount[0])  # rare: more decisions than guessed; play the chunk again
        if records:
            return scores, decisions, drec[: dcount[0]]
        return scores, decisions, None

    def playouts(self, n: int, hparams, deals, histories) -> np.ndarray:
        """Every deal played once per history, every seat playing the heuristic with its
        row of ``hparams``: the ``search`` player's playouts.

        Parameters
        ----------
        n : int
            Players.
        hparams : float array (n, 4) or (n, N_SEAT_PARAMS)
            Each seat's heuristic parameters (:func:`seat_params`).
        deals : int array (samples, slices)
            Full deals, every slice id in deal order (``Deal.stacks`` then ``Deal.unseen``).
        histories : sequence of int sequences
            The decisions each playout is forced to take first, each as its index in the
            decision's legal list (``GameState.choices``); then the seats decide.

        Returns
        -------
        int64 array (samples, histories, n, len(SCORE_COLUMNS))
        """
        codes = np.full(n, STRAT_HEURISTIC, dtype=np.int64)
        args = self._setup(n, codes, hparams)
        deals = np.ascontiguousarray(deals, dtype=np.int64)
        if deals.ndim != 2 or deals.shape[1] != self.cake.n_slices:
            raise ValueError(f"deals must have shape (samples, {self.cake.n_slices})")
        width = max((len(h) for h in histories), default=0)
        if width > MAX_DECISIONS:
            raise ValueError(f"a history longer than a game ({width} > {MAX_DECISIONS})")
        hists = np.zeros((len(histories), max(width, 1)), dtype=np.int64)
        hlen = np.array([len(h) for h in histories], dtype=np.int64)
        for i, h in enumerate(histories):
            hists[i, : len(h)] = h
        scores = np.zeros((len(deals), len(histories), n, N_SCORE), dtype=np.int64)
        playouts_kernel(*args, deals, hists, hlen, scores)
        return scores

    def play_deal(
        self, n: int, codes, deal, history, study_seed: int, game_index: int, hparams=None
    ) -> tuple[np.ndarray, list[int]]:
        """Play one game of an explicit deal, search seats included (its decisions and
        playouts in the kernel), its first decisions forced.

        Parameters
        ----------
        n, codes, hparams
            As :meth:`play_many`.
        deal : int array (slices,)
            Every slice id in deal order (``Deal.stacks`` then ``Deal.unseen``).
        history : int sequence
            The decisions forced first, each as its index in the decision's legal list
            (``GameState.choices``); a search seat draws nothing for a forced decision.
        study_seed, game_index : int
            Every seat's stream is that of game ``game_index`` of the study (the deal
            stream is not used).

        Returns
        -------
        scores : int64 array (n, len(SCORE_COLUMNS))
        choices : list of int
            Every decision's index in its legal list, the forced ones first.
        """
        if not (0 <= study_seed < 2**32 and 0 <= game_index < 2**32):
            raise ValueError("study seed and game index must be in [0, 2**32)")
        args = self._setup(n, codes, hparams)
        deal = np.ascontiguousarray(deal, dtype=np.int64)
        if deal.shape != (self.cake.n_slices,):
            raise ValueError(f"the deal must have shape ({self.cake.n_slices},)")
        if len(history) > MAX_DECISIONS:
            raise ValueError(f"a history longer than a game ({len(history)} > {MAX_DECISIONS})")
        hist = np.zeros(MAX_DECISIONS, dtype=np.int64)
        hist[: len(history)] = history
        scores = np.zeros((n, N_SCORE), dtype=np.int64)
        k = play_deal_kernel(*args, deal, hist, len(history), study_seed, game_index, scores)
        return scores, hist[:k].tolist()

    def play(self, n: int, codes, study_seed: int, game_index: int, hparams=None):
        """Play one game: (scores (n, len(SCORE_COLUMNS)), records (decisions,
        len(DECISION_COLUMNS)))."""
        scores, _, recs = self.play_many(
            n, codes, study_seed, game_index, 1, records=True, hparams=hparams
        )
        return scores[0], recs


def _per_seat(specs, n: int) -> list:
    if isinstance(specs, str):
        from sims.core.specs import split_specs

        specs = split_specs(specs)
    specs = list(specs)
    if len(specs) == 1:
        specs = specs * n
    if len(specs) != n:
        raise ValueError(f"{len(specs)} strategies given for {n} players")
    return specs


def _parse(text: str):
    from sims.core.specs import parse_spec

    try:
        return parse_spec(text)
    except SlicelabError:
        raise KeyError(text) from None


def strategy_codes(specs) -> np.ndarray:
    """Kernel codes of the strategies the kernel plays; raises KeyError for another one.

    ``random`` and ``greedy`` (without parameters), ``heuristic`` and its presets
    (``heuristic-eq4``, a user's, ...; with or without parameters) and ``search`` (with or
    without parameters) map to their codes; give the heuristic and search seats'
    parameters with :func:`seat_params`.
    """
    from sims.games.pieceocake.heuristic import load_presets

    if isinstance(specs, str):
        from sims.core.specs import split_specs

        specs = split_specs(specs)
    presets = None
    out = []
    for s in specs:
        text = str(s)
        if text in STRATEGY_CODES:
            out.append(STRATEGY_CODES[text])
            continue
        spec = _parse(text)
        if spec.name in ("random", "greedy"):
            if spec.params:
                raise KeyError(text)
            out.append(STRATEGY_CODES[spec.name])
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


def _heuristic_params(text: str, n: int) -> dict[str, float]:
    """A heuristic seat's resolved parameters: the strategy's own (``make_strategy(spec)
    .params(n)``), or, without it, ``heuristic.params_for`` (defaults, then the player-count
    or named preset, then the spec's overrides)."""
    try:
        from sims.games.pieceocake.strategies import make_strategy
    except ImportError:
        make_strategy = None
    if make_strategy is not None:
        strategy = make_strategy(text)
        params = getattr(strategy, "params", None)
        if callable(params):
            return params(n)
    from sims.games.pieceocake.heuristic import params_for

    spec = _parse(text)
    preset = None if spec.name == "heuristic" else spec.name
    return params_for(n, dict(spec.params), preset)


def seat_params(specs, n: int) -> np.ndarray:
    """The kernel's ``hparams`` for a seating: (n, N_SEAT_PARAMS) float64 of each seat's
    (theta, loss, fewer, margin) (``heuristic.PARAM_ORDER``), then (budget, cuts).

    A heuristic seat's row holds its resolved parameters (presets and overrides applied
    at ``n`` players), a greedy seat's ``heuristic.GREEDY_PARAMS``, a search seat's the
    heuristic's player-count default (which ranks its cut candidates and plays its
    playouts: ``SearchStrategy.field_params``) and its ``budget`` and ``cuts``; a random
    seat's zeros. ``specs`` gives one spec per seat, or one for every seat.
    """
    specs = _per_seat(specs, n)
    codes = strategy_codes(specs)
    out = np.zeros((n, N_SEAT_PARAMS), dtype=np.float64)
    for p, (s, code) in enumerate(zip(specs, codes, strict=True)):
        if code == STRAT_HEURISTIC:
            params = _heuristic_params(str(s), n)
        elif code == STRAT_GREEDY:
            params = GREEDY_PARAMS
        elif code == STRAT_SEARCH:
            from sims.games.pieceocake.strategies import make_strategy

            strategy = make_strategy(str(s))  # validates the parameters
            params = strategy.field_params(n)
            out[p, S_BUDGET] = strategy.p["budget"]
            out[p, S_CUTS] = strategy.p["cuts"]
        else:
            continue
        out[p, :N_HPARAMS] = [float(params[k]) for k in PARAM_ORDER]
    return out
