"""Piece o' Cake through the game protocol (:class:`sims.core.game.Game`).

Its options are a cake file (``cake``, flag ``--cake``) and rule options (``rules``, flag
``--rule NAME=VALUE``: every Ruling and what-if of ``docs/rules/pieceocake.md``). A chunk is
played by the compiled kernel (``sims/games/pieceocake/kernel/``) when it can be imported
and plays every seat's strategy (``engine = "auto"`` or ``"kernel"``), else by the
reference engine; both write the same rows (``records.DECISION_COLUMNS`` and
``records.SCORE_COLUMNS``), so the engine is recorded for provenance only.

The game's own columns (``ResultSchema``). ``players``: ``score`` (int16) = ``majorities``
+ ``cream``; ``majorities_won`` (int8) the varieties whose majority the seat scores and
``won_mask`` (int32) the same as bits, bit v for variety v of the arm's cake (``majority_ties``:
``full`` every tied leader, ``none`` only a sole leader, ``split`` every tied leader, even
when its floored share is 0); ``tiebreak`` (the cream under ``tie = "cream"``, else 0);
``eaten`` and ``collected`` (int8) slices at the end, and per variety
``collected_by_variety`` and ``eaten_by_variety`` (list<int8>, one entry per variety of
the cake, in cake order; eaten counts slices eaten from pieces and by forgoing);
``pieces_taken``, ``forgone`` (forgo turns), ``forgo_eaten`` (slices eaten by forgoing),
``times_server`` (int8). ``games``: ``rounds``, ``decisions`` and ``majorities_unclaimed``
(int8, the varieties nobody scores: exact, from the seats' ``won_mask``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sims.core.errors import SlicelabError
from sims.core.game import (
    BalancePlan,
    ChunkArrays,
    GameInfo,
    GameOption,
    ResultSchema,
    StrategyInfo,
    Variant,
)
from sims.core.limits import Limit, column_type
from sims.core.study import Arm
from sims.games.pieceocake.cake import (
    CAKE_LIMITS,
    COPIES,
    CREAM,
    ROUNDS,
    SLICES,
    SLICES_PER_CAKE,
    VALUE,
    VARIETIES,
    Cake,
    default_cake,
    load_cake,
)
from sims.games.pieceocake.engine import GameState, Phase, deal
from sims.games.pieceocake.knobs import KNOBS
from sims.games.pieceocake.records import (
    COLLECTED_BY_VARIETY,
    DECISION_COLUMNS,
    EATEN_BY_VARIETY,
    SCORE_COLUMNS,
)
from sims.games.pieceocake.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULE_LIMITS,
    RULES_VERSION,
    TWO_PLAYER_PIECES,
    Rules,
    variant_id,
)
from sims.games.pieceocake.strategies import STRATEGIES, family_of, make_strategy
from sims.games.presets import Presets, TunesHeuristic

PHASE_NAMES = [p.name.lower() for p in Phase]
SCORE_PARTS = ("majorities", "cream")
"""The components of a seat's score (their sum is ``score``)."""

TABLES_VERSION = 2
"""Bumped when the written columns change, so an older dataset is never resumed into."""

KERNEL_FAMILIES = ("random", "greedy", "heuristic", "search")
"""The built-in families, each of which the kernel may play (it says which it does)."""


def rules_version() -> str:
    """The rules version as the tables record it (a string, as every game's):
    ``pieceocake-<rules.RULES_VERSION>``."""
    return f"pieceocake-{RULES_VERSION}"


@lru_cache(maxsize=64)
def _cake(path: str | None) -> Cake:
    return default_cake() if path is None else load_cake(path)


def cake_of(options: Mapping[str, Any]) -> Cake:
    """The cake an arm's options play: its ``cake`` file (the published cake without one).
    ``options`` may be an arm of a dataset's manifest, whose game options sit among its
    other keys."""
    return _cake(options.get("cake"))


def rules_of(options: Mapping[str, Any]) -> Rules:
    """The rules an arm's options play (its ``rules`` table; the defaults without one)."""
    return Rules.from_dict(options.get("rules") or {})


@lru_cache(maxsize=64)
def _runner(path: str | None, rules_json: str):
    from sims.games.pieceocake.kernel import KernelRunner

    return KernelRunner(_cake(path), Rules.from_dict(json.loads(rules_json)))


def _kernel_codes(strategies: Sequence[str]):
    """The kernel's codes for these strategies, or None when the kernel cannot be imported
    (not built yet) or does not play one of them."""
    try:
        from sims.games.pieceocake.kernel import strategy_codes

        return strategy_codes(list(strategies))
    except (ImportError, KeyError):
        return None


def strategy_identity(spec: str, players: int) -> str:
    """A key equal for two specs that play identically at ``players`` (``heuristic``,
    ``heuristic-eq4`` and ``heuristic(theta=1)`` when the resolved parameters agree): the
    family and its resolved parameters."""
    strategy = make_strategy(spec)
    params = getattr(strategy, "params", None)
    # search keeps its defaults merged in ``p`` (so budget=64 is the default search)
    resolved = params(players) if callable(params) else getattr(strategy, "p", strategy.spec.params)
    resolved = {k: float(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                for k, v in resolved.items()}  # fmt: skip
    return json.dumps([family_of(strategy), resolved], sort_keys=True, default=str)


LAID = ROUNDS * SLICES_PER_CAKE
"""The slices a game lays: the most a seat can eat, collect or take."""
MAX_CUT_PIECES = max(TWO_PLAYER_PIECES[1], MAX_PLAYERS)
MAX_MAJORITIES = VARIETIES.high * VALUE.high
MAX_CREAM_POINTS = LAID * CREAM.high

_DECISION_TYPES = {
    "game_index": np.int64,
    "round": column_type(ROUNDS - 1),
    "server": column_type(MAX_PLAYERS - 1),
    "seat": column_type(MAX_PLAYERS - 1),
    # a cut's gap mask (one bit per gap of the circle) or a count of slices
    "action": column_type(max(2**SLICES_PER_CAKE - 1, COPIES.high), at_least=np.int32),
    "n_legal": column_type(max(2**SLICES_PER_CAKE, COPIES.high + 1)),
    "slice": column_type(SLICES.high - 1),
    "variety": column_type(VARIETIES.high - 1),
    "own_count": column_type(COPIES.high),
    "rival_count": column_type(COPIES.high),
    "unseen_left": column_type(COPIES.high),
    "pieces": column_type(MAX_CUT_PIECES),
    "pieces_left": column_type(MAX_CUT_PIECES),
}
"""The decision columns' types, from the cake's and the rules' limits."""
assert set(_DECISION_TYPES) | {"phase"} == set(DECISION_COLUMNS)
_SEAT_TYPES = {
    "score": column_type(MAX_MAJORITIES + MAX_CREAM_POINTS, 0, np.int16),
    "majorities": column_type(MAX_MAJORITIES, 0, np.int16),
    "majorities_won": column_type(VARIETIES.high, 0),
    "cream": column_type(MAX_CREAM_POINTS, 0, np.int16),
    "tiebreak": column_type(MAX_CREAM_POINTS, 0, np.int16),
    **{c: column_type(LAID, 0) for c in ("eaten", "collected", "pieces_taken")},
    **{c: column_type(LAID, 0) for c in ("forgone", "forgo_eaten")},
    "times_server": column_type(ROUNDS, 0),
    "won_mask": column_type(2**VARIETIES.high - 1, 0, np.int32),
    "by_variety": column_type(min(COPIES.high, LAID), 0),
}
"""The seat columns' types (``by_variety``: the entries of ``collected_by_variety`` and
``eaten_by_variety``), from the cake's limits: a seat scores at most every variety's
largest value and the cream of every slice laid."""
_GAME_TYPES = {
    "rounds": column_type(ROUNDS, 0),
    "decisions": np.int32,
    "majorities_unclaimed": column_type(VARIETIES.high, 0),
}


def _labels(codes: np.ndarray, names: list[str]) -> pa.DictionaryArray:
    """Dictionary-encoded labels for integer codes (-1 is null)."""
    idx = pa.array(codes.astype(np.int8), mask=codes < 0)
    return pa.DictionaryArray.from_arrays(idx, pa.array(names, pa.string()))


def decision_columns(recs: np.ndarray) -> dict[str, pa.Array | np.ndarray]:
    """The ``decisions`` table's columns (without ``arm``) from decision records
    (``records.DECISION_COLUMNS``, from either engine), typed, with the phase as a label."""
    recs = np.asarray(recs, dtype=np.int64).reshape(-1, len(DECISION_COLUMNS))
    out: dict[str, pa.Array | np.ndarray] = {}
    for i, c in enumerate(DECISION_COLUMNS):
        col = recs[:, i]
        out[c] = _labels(col, PHASE_NAMES) if c == "phase" else col.astype(_DECISION_TYPES[c])
    return out


def majorities_unclaimed(won_mask: np.ndarray, varieties: int) -> np.ndarray:
    """Per game, the varieties nobody scores: the popcount, over the cake's ``varieties``,
    of the complement of the OR of the seats' ``won_mask`` (``won_mask``: games x seats).
    Exact under every ``majority_ties`` (a variety nobody collected, or a tie for most
    under ``none``)."""
    claimed = np.bitwise_or.reduce(np.asarray(won_mask, dtype=np.int64), axis=1)
    bits = (claimed[:, None] >> np.arange(varieties, dtype=np.int64)) & 1
    return varieties - bits.sum(axis=1)


def by_variety(counts: np.ndarray, varieties: int) -> pa.ListArray:
    """Per-variety counts (games x seats x MAX_VARIETIES) as a list<int8> column, seat
    fastest, each list the first ``varieties`` entries (the cake's, in cake order)."""
    count, n = counts.shape[:2]
    kind = _SEAT_TYPES["by_variety"]
    values = pa.array(np.ascontiguousarray(counts[:, :, :varieties]).ravel().astype(kind))
    offsets = pa.array(np.arange(0, count * n * varieties + 1, varieties, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, values, type=pa.list_(pa.from_numpy_dtype(kind)))


def _play_reference(arm: Arm, first: int, count: int, decisions: bool):
    from sims.games.pieceocake.game import play_game
    from sims.games.pieceocake.records import score_rows

    cake, rules = cake_of(arm.options), rules_of(arm.options)
    strategies = [make_strategy(s) for s in arm.strategies]
    n = arm.players
    scores = np.zeros((count, n, len(SCORE_COLUMNS)), dtype=np.int64)
    ndec = np.zeros(count, dtype=np.int64)
    rows: list[list[int]] = []
    for g in range(count):
        state = play_game(
            n, strategies, arm.seed, first + g, cake, rules, records=rows if decisions else None
        )
        scores[g] = score_rows(state)
        ndec[g] = len(state.trace)
    recs = np.array(rows, dtype=np.int64).reshape(-1, len(DECISION_COLUMNS))
    return scores, ndec, recs


BALANCE = BalancePlan(
    study="studies/pieceocake-balance.toml",
    data="cake",
    default_data="sims/games/pieceocake/data/cake.toml",
    robustness=(
        "Robustness: Piece o' Cake has no perturbation of a cake (its balance study has no "
        "plausible cakes), so no block plays a perturbed copy of the variant's cake; its "
        "robustness blocks (heur-greedy, noforgo-greedy, nofewer-greedy, theta-greedy) ask "
        "the same questions in a greedy field, on the variant."
    ),
    whatif=("seats", "seats-greedy", "noforgo", "nofewer"),
)
"""Piece o' Cake's balance plan (``slicelab plan pieceocake``)."""


class PieceOCake(TunesHeuristic):
    """Piece o' Cake (2–5 players): cut a cake, choose a piece, eat or collect each slice."""

    info = GameInfo(
        name="pieceocake",
        title="Piece o' Cake",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        summary="cut a cake into pieces, choose, eat for cream or collect for majorities",
        rules_doc="docs/rules/pieceocake.md",
        balance=BALANCE,
        compile_seconds=52,  # measured on 2 cores (the first slicelab play, issue 28)
        playout_kernels={"search": "game.playouts_kernel"},
    )
    data_limits: tuple[Limit, ...] = (*CAKE_LIMITS, *RULE_LIMITS)
    knobs = KNOBS
    restricted_play = None  # no strategy plays without one variety
    """The cake file's limits (``cake.CAKE_LIMITS``) and the rule options'
    (``rules.RULE_LIMITS``), listed in ``docs/rules/pieceocake.md``, "Data files"."""
    options = (
        GameOption(
            "cake", "path", "a Piece o' Cake cake TOML file (default: the published cake)",
            flag="--cake", metavar="PATH",
        ),
        GameOption(
            "rules", "table", "a Piece o' Cake ruling, e.g. forgo_eats=choose (see "
            "docs/rules/pieceocake.md)", flag="--rule", metavar="NAME=VALUE",
        ),
    )  # fmt: skip
    results = ResultSchema(
        components=SCORE_PARTS,
        win_keys=("score", "tiebreak"),
        seat_columns=(
            "score", "majorities", "majorities_won", "cream", "tiebreak", "eaten", "collected",
            "pieces_taken", "forgone", "forgo_eaten", "times_server", "won_mask",
            "collected_by_variety", "eaten_by_variety",
        ),
        game_columns=("rounds", "decisions", "majorities_unclaimed"),
    )  # fmt: skip

    # ------------------------------------------------------------------ variants
    def variants(self, raw: Mapping[str, Any], players: int, base: Path | None) -> list[Variant]:
        """One variant: the cake and the rules as given (validated by :meth:`check_arm`)."""
        return [Variant({"cake": raw.get("cake"), "rules": dict(raw.get("rules", {}))})]

    def check_arm(self, arm: Arm) -> None:
        """Refuse an arm whose strategies, cake, rule options or engine are invalid."""
        for spec in arm.strategies:
            make_strategy(spec)
        cake_of(arm.options)
        rules = rules_of(arm.options)
        if rules.first_server >= arm.players:
            raise SlicelabError(
                f"rule option first_server={rules.first_server} is not a seat of "
                f"{arm.players} players; use 0 to {arm.players - 1}"
            )
        if arm.engine == "kernel" and _kernel_codes(arm.strategies) is None:
            plays = [i.name for i in self.strategies() if i.kernel and not i.preset_of]
            what = f"plays only {plays}" if plays else "is not available (not built yet)"
            raise SlicelabError(
                f"engine 'kernel': Piece o' Cake's compiled kernel {what}; use engine = "
                "'auto' or 'reference' for these strategies"
            )

    def fingerprint(self, arm: Arm) -> dict[str, Any]:
        """The cake (name and content digest), the rules version, the variant, the tables."""
        cake = cake_of(arm.options)
        return {
            "tables_version": TABLES_VERSION,
            "cake": cake.name,
            "cake_digest": cake.digest,
            "rules_version": rules_version(),
            "variant_id": variant_id(rules_of(arm.options), cake.digest),
        }

    # ---------------------------------------------------------------- strategies
    def strategies(self) -> list[StrategyInfo]:
        """Families (random, greedy, heuristic, search) and heuristic's presets."""
        from sims.games.pieceocake.heuristic import PARAM_RANGES, load_presets

        out = [
            StrategyInfo(
                name=info.name,
                summary=info.summary,
                params=dict(info.params),
                ranges=dict(PARAM_RANGES) if info.name == "heuristic" else {},
                kernel=_kernel_codes([info.name]) is not None,
            )
            for info in STRATEGIES.values()
        ]
        heuristic_kernel = _kernel_codes(["heuristic"]) is not None
        for name, params in sorted(load_presets().items()):
            out.append(
                StrategyInfo(
                    name=name,
                    summary="preset of heuristic (parameters can be overridden)",
                    params=params,
                    kernel=heuristic_kernel,
                    preset_of="heuristic",
                )
            )
        return out

    def make_strategy(self, spec: str):
        return make_strategy(spec)

    def strategy_identity(self, spec: str, players: int) -> str:
        return strategy_identity(spec, players)

    def presets(self) -> Presets:
        from sims.games.pieceocake.heuristic import PRESETS

        return PRESETS

    # ------------------------------------------------------------ reference state
    def initial_state(
        self, options: Mapping[str, Any], players: int, rng: np.random.Generator
    ) -> GameState:
        cake = cake_of(options)
        return GameState(cake, rules_of(options), players, deal(cake, rng))

    def decide(self, strategy, state: GameState, rng: np.random.Generator) -> int:
        from sims.games.pieceocake.view import PlayerView

        dec = state.decision()
        return strategy.choose(PlayerView(state, dec.player), dec, rng)

    # ----------------------------------------------------------------- chunk play
    def engine_for(self, arm: Arm) -> str:
        """``"kernel"`` when the kernel is built and plays every seat, else ``"reference"``."""
        if arm.engine == "reference" or _kernel_codes(arm.strategies) is None:
            return "reference"
        return "kernel"

    def play_chunk(
        self, arm: Arm, first: int, count: int, decisions: bool, engine: str | None = None
    ) -> ChunkArrays:
        """Games ``first .. first + count - 1`` of an arm as arrays."""
        n = arm.players
        rules = rules_of(arm.options)
        if (engine or self.engine_for(arm)) == "kernel":
            from sims.games.pieceocake.kernel import seat_params, strategy_codes

            o = arm.options
            runner = _runner(o.get("cake"), json.dumps(o.get("rules") or {}, sort_keys=True))
            codes = strategy_codes(list(arm.strategies))
            hparams = seat_params(list(arm.strategies), n)
            out = runner.play_many(
                n, codes, arm.seed, first, count, records=decisions, hparams=hparams
            )
            scores, ndec = np.asarray(out[0]), np.asarray(out[1])
            recs = out[2] if decisions else None
        else:
            scores, ndec, recs = _play_reference(arm, first, count, decisions)
        col = {c: scores[:, :, i] for i, c in enumerate(SCORE_COLUMNS)}
        nv = len(cake_of(arm.options).varieties)
        lost = majorities_unclaimed(col["won_mask"], nv)
        first_coll = SCORE_COLUMNS.index(COLLECTED_BY_VARIETY[0])
        first_eaten = SCORE_COLUMNS.index(EATEN_BY_VARIETY[0])
        server = np.bincount([(rules.first_server + r) % n for r in range(ROUNDS)], minlength=n)
        tiebreak = col["cream"] if rules.tie == "cream" else np.zeros_like(col["cream"])
        t = _SEAT_TYPES
        seats = {
            **{c: col[c].astype(t[c]) for c in ("score", "majorities", "majorities_won")},
            "cream": col["cream"].astype(t["cream"]),
            "tiebreak": tiebreak.astype(t["tiebreak"]),
            **{c: col[c].astype(t[c]) for c in ("eaten", "collected", "pieces_taken")},
            **{c: col[c].astype(t[c]) for c in ("forgone", "forgo_eaten")},
            "times_server": np.tile(server.astype(t["times_server"]), (count, 1)),
            "won_mask": col["won_mask"].astype(t["won_mask"]),
            "collected_by_variety": by_variety(scores[:, :, first_coll:], nv),
            "eaten_by_variety": by_variety(scores[:, :, first_eaten:], nv),
        }
        games = {
            "rounds": np.full(count, ROUNDS, dtype=_GAME_TYPES["rounds"]),
            "decisions": ndec.astype(_GAME_TYPES["decisions"]),
            "majorities_unclaimed": lost.astype(_GAME_TYPES["majorities_unclaimed"]),
        }
        table = pa.table(decision_columns(recs)) if decisions else None
        return ChunkArrays(seats=seats, games=games, decisions=table)

    def replay(
        self,
        options: Mapping[str, Any],
        players: int,
        specs: Sequence[str],
        seed: int,
        index: int,
        reveal: bool = False,
    ) -> str:
        """One game as a person would follow it (``sims.core.game.Game.replay``)."""
        from sims.games.pieceocake.game import play_game, seat_strategies
        from sims.games.pieceocake.replay import format_replay

        strats = seat_strategies(list(specs), players)
        state = play_game(players, strats, seed, index, cake_of(options), rules_of(options))
        header = f"Piece o' Cake, {players} players, seed {seed}, game {index} (reference engine)"
        return format_replay(state, [str(s.spec) for s in strats], header, reveal)


GAME = PieceOCake()
"""The registered Piece o' Cake (``sims.core.game.REGISTRY``)."""
