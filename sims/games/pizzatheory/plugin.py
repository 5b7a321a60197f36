"""Pizza Theory through the game protocol (:class:`sims.core.game.Game`).

Its options are a board (``board``, flag ``--board``: a shipped board's name such as
``hex-61``, or a board TOML file, resolved against the study file's folder) and rule
options (``rules``, flag ``--rule NAME=VALUE``: every Ruling and what-if of
``docs/rules/pizzatheory.md``). Chunks are played by the compiled kernel (``kernel.py``:
every strategy family; ``engine = "auto"`` or ``"kernel"``) unless an arm asks for the
reference engine (``engine = "reference"``); both write ``records.DECISION_COLUMNS``,
``records.SEAT_COLUMNS`` and ``records.GAME_COLUMNS``, the same rows.

The game's own columns (``ResultSchema``). ``players``: ``won`` (the win key: 1 for a
winner; every seat 1 in a draw at the round bound and in a 2-player game the neutral colour
won, so those share the win equally: ``games.ending`` tells them apart), ``score``
= ``toppings`` on the board at the end, ``placed``, ``captured``, ``lost``, ``safe_rounds``,
``saved`` (toppings the safety rule kept), ``skipped`` (place steps without a legal space
or supply) and ``start_position`` (0 = first in the first round). ``games``: ``rounds``,
``ending`` (0 win, 1 run-out tiebreak, 2 draw, 3 neutral win), ``safety_rounds`` and
``neutral_on_board`` (-1 at 3 players), ``decisions``.

Every integer column's type is derived from Pizza Theory's declared limits
(``rules.LIMITS``, :attr:`PizzaTheory.data_limits`): the narrowest type holding the
column's largest and smallest possible value at the limits (a topping count below
``SUPPLY.high``, a space id below ``SPACES.high``, a count of rounds or of per-round events
from ``ROUNDS.high``), and never narrower than the type the tables were first written
with; a value that does not fit is refused, never wrapped.
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
from sims.core.limits import Limit, checked_cast, column_type
from sims.core.specs import parse_spec
from sims.core.study import Arm
from sims.games.pizzatheory.board import (
    LINES,
    N_DIRECTIONS,
    REGIONS,
    SPACES,
    Board,
    board_names,
    default_board,
    load_board,
    shipped_board,
)
from sims.games.pizzatheory.engine import Ending, GameState, Phase, deal
from sims.games.pizzatheory.knobs import KNOBS
from sims.games.pizzatheory.records import DECISION_COLUMNS, GAME_COLUMNS, SEAT_COLUMNS
from sims.games.pizzatheory.rules import (
    LIMITS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    RULES_VERSION,
    SUPPLY,
    Rules,
    check_rules_for,
    variant_id,
)
from sims.games.pizzatheory.strategies import PARAM_RANGES, STRATEGIES, make_strategy

PHASE_NAMES = [p.name.lower() for p in Phase]
TABLES_VERSION = 2
"""Bumped when the written columns change, so an older dataset is never resumed into (2:
``placed`` widened to int16, ``captured``, ``lost`` and ``saved`` to int32, their types
derived from the declared limits)."""


# the largest counts at the declared limits (rules.LIMITS): a seat places at most once a
# round; in one round it captures at most its supply, loses at most its toppings on the
# board and has at most one topping saved in each region (and no more than it has)
_ROUNDS = ROUNDS.high
_TOPPINGS = SUPPLY.high
_DECISIONS = _ROUNDS * (2 * MAX_PLAYERS + 1)  # a round: n places, the neutral, n cuts
_SEAT_TYPES = {
    "won": column_type(1),
    "score": column_type(_TOPPINGS),
    "toppings": column_type(_TOPPINGS),
    "placed": column_type(_ROUNDS),
    "captured": column_type(_ROUNDS * _TOPPINGS, at_least=np.int16),
    "lost": column_type(_ROUNDS * _TOPPINGS, at_least=np.int16),
    "safe_rounds": column_type(_ROUNDS, at_least=np.int16),
    "saved": column_type(_ROUNDS * min(REGIONS.high, _TOPPINGS), at_least=np.int16),
    "skipped": column_type(_ROUNDS, at_least=np.int16),
    "start_position": column_type(N_DIRECTIONS - 1),
}
assert set(_SEAT_TYPES) == set(SEAT_COLUMNS)
_GAME_TYPES = {
    "rounds": column_type(_ROUNDS, at_least=np.int16), "ending": column_type(len(Ending) - 1),
    "safety_rounds": column_type(_ROUNDS, at_least=np.int16),
    "neutral_on_board": column_type(_TOPPINGS, -1),
    "decisions": column_type(_DECISIONS, at_least=np.int32),
}  # fmt: skip
assert set(_GAME_TYPES) == {*GAME_COLUMNS, "decisions"}


TUNABLE = ("heuristic", "mixed")
"""The families ``slicelab tune``, ``exploit`` and ``equilibrium`` can tune (over
``strategies.PARAM_RANGES``); at 3 players, where the game has no chance, only ``mixed``
(whose cuts are random draws) gives a field whose games differ."""


def rules_version() -> str:
    """The rules version as the tables record it: ``pizzatheory-<rules.RULES_VERSION>``."""
    return f"pizzatheory-{RULES_VERSION}"


@lru_cache(maxsize=64)
def _board(ref: str | None) -> Board:
    if ref is None:
        return default_board()
    if ref in board_names():
        return shipped_board(ref)
    return load_board(ref)


def board_of(options: Mapping[str, Any]) -> Board:
    """The board an arm's options play: a shipped board by name, a board file, or the
    default ``hex-37``."""
    return _board(options.get("board"))


def rules_of(options: Mapping[str, Any]) -> Rules:
    """The rules an arm's options play (its ``rules`` table; the defaults without one)."""
    return Rules.from_dict(options.get("rules") or {})


def strategy_identity(spec: str, players: int) -> str:
    """A key equal for two specs that play identically: the family and its resolved
    parameters at ``players`` (a preset is the heuristic with its parameters)."""
    from sims.games.pizzatheory.search import SearchStrategy
    from sims.games.pizzatheory.strategies import HeuristicStrategy, SwingStrategy

    strategy = make_strategy(spec)
    family = "heuristic" if isinstance(strategy, HeuristicStrategy) else strategy.spec.name
    if isinstance(strategy, SwingStrategy | SearchStrategy):
        resolved = {k: float(v) for k, v in strategy.params(players).items()}
    else:
        resolved = {k: float(v) for k, v in strategy.spec.params.items()}
    return json.dumps([family, resolved], sort_keys=True)


_DECISION_TYPES = {
    "game_index": np.int64, "round": column_type(_ROUNDS - 1, at_least=np.int16),
    "seat": column_type(MAX_PLAYERS - 1), "position": column_type(N_DIRECTIONS - 1),
    "action": column_type(max(SPACES.high - 1, LINES.high - 1), at_least=np.int16),
    "n_legal": column_type(SPACES.high, at_least=np.int16), "on_board": column_type(_TOPPINGS),
    "supply": column_type(_TOPPINGS), "empty": column_type(SPACES.high, at_least=np.int16),
}  # fmt: skip
assert set(_DECISION_TYPES) | {"phase"} == set(DECISION_COLUMNS)


def decision_columns(recs: np.ndarray) -> dict[str, pa.Array | np.ndarray]:
    """The ``decisions`` table's columns (without ``arm``) from decision records, typed,
    with the phase as a label."""
    recs = np.asarray(recs, dtype=np.int64).reshape(-1, len(DECISION_COLUMNS))
    out: dict[str, pa.Array | np.ndarray] = {}
    for i, c in enumerate(DECISION_COLUMNS):
        col = recs[:, i]
        if c == "phase":
            idx = pa.array(col.astype(np.int8))
            out[c] = pa.DictionaryArray.from_arrays(idx, pa.array(PHASE_NAMES, pa.string()))
        else:
            out[c] = checked_cast(col, _DECISION_TYPES[c], c)
    return out


def _play_reference(arm: Arm, first: int, count: int, decisions: bool):
    from sims.games.pizzatheory.game import play_game
    from sims.games.pizzatheory.records import game_row, seat_rows

    board, rules = board_of(arm.options), rules_of(arm.options)
    strategies = [make_strategy(s) for s in arm.strategies]
    n = arm.players
    seats = np.zeros((count, n, len(SEAT_COLUMNS)), dtype=np.int64)
    games = np.zeros((count, len(GAME_COLUMNS) + 1), dtype=np.int64)
    rows: list[list[int]] = []
    for g in range(count):
        state = play_game(
            n, strategies, arm.seed, first + g, board, rules, records=rows if decisions else None
        )
        seats[g] = seat_rows(state)
        games[g, :-1] = game_row(state)
        games[g, -1] = len(state.trace)
    recs = np.array(rows, dtype=np.int64).reshape(-1, len(DECISION_COLUMNS))
    return seats, games, recs


BALANCE = BalancePlan(
    study="studies/pizzatheory-balance.toml",
    data="board",
    default_data="sims/games/pizzatheory/data/boards/hex-37.toml",
    robustness=(
        "Robustness: Pizza Theory has no perturbation of a board (its balance study has no "
        "plausible boards), so no block plays a perturbed copy of the variant's board; the "
        "board-* blocks keep the shipped boards they name (hex-37-mid, round-31, hex-61): "
        "comparisons of other boards with the variant's (the `seats` 3-player games), not the "
        "variant. Its robustness is across fields of players (seats-random, seats-heuristic, "
        "seats-greedy), on the variant."
    ),
    whatif=("seats", "seats-random"),
)
"""Pizza Theory's balance plan (``slicelab plan pizzatheory``)."""


class PizzaTheory:
    """Pizza Theory (3 players; 2 with the neutral variant): place, cut simultaneously,
    majorities take over."""

    info = GameInfo(
        name="pizzatheory",
        title="Pizza Theory",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        summary="place toppings on a round board, cut it simultaneously, majorities take over",
        rules_doc="docs/rules/pizzatheory.md",
        balance=BALANCE,
        compile_seconds=82,  # measured on 2 cores (the first slicelab play, issue 28)
        main_field="mixed",
        playout_kernels={"search": "playout_kernel"},  # search on the reference engine
    )
    options = (
        GameOption(
            "board", "value", "a Pizza Theory board: a shipped board's name (hex-37, ...) or "
            "a board TOML file", flag="--board", metavar="NAME|PATH",
        ),
        GameOption(
            "rules", "table", "a Pizza Theory ruling, e.g. rotation=counterclockwise (see "
            "docs/rules/pizzatheory.md)", flag="--rule", metavar="NAME=VALUE",
        ),
    )  # fmt: skip
    results = ResultSchema(
        components=("toppings",),
        win_keys=("won",),
        seat_columns=SEAT_COLUMNS,
        game_columns=(*GAME_COLUMNS, "decisions"),
        turn_order="start_position",
    )
    data_limits: tuple[Limit, ...] = LIMITS
    knobs = KNOBS
    restricted_play = None  # no strategy plays without one component
    """The board file's and the rule options' declared limits (``rules.LIMITS``; listed in
    docs/rules/pizzatheory.md, section "Data files")."""

    # ------------------------------------------------------------------ variants
    def variants(self, raw: Mapping[str, Any], players: int, base: Path | None) -> list[Variant]:
        """One variant: the board (a shipped name, or a file resolved against ``base``) and
        the rules as given (validated here)."""
        board = raw.get("board")
        if board is not None:
            if not isinstance(board, str) or not board:
                raise SlicelabError(
                    f"board must be a shipped board's name ({', '.join(board_names())}) or "
                    f"the path of a board TOML file, got {board!r}"
                )
            if board not in board_names():
                path = Path(board)
                board = str(path if path.is_absolute() or base is None else base / path)
        options = {"board": board, "rules": dict(raw.get("rules", {}))}
        board_of(options)
        check_rules_for(rules_of(options), players)
        return [Variant(options)]

    def check_arm(self, arm: Arm) -> None:
        """Refuse an arm whose strategies, board or rule options are invalid (every
        strategy Pizza Theory knows plays on both engines)."""
        for spec in arm.strategies:
            make_strategy(spec)
        board_of(arm.options)
        check_rules_for(rules_of(arm.options), arm.players)

    def fingerprint(self, arm: Arm) -> dict[str, Any]:
        """The board (name and content digest), the rules version, the variant, the tables."""
        board = board_of(arm.options)
        return {
            "tables_version": TABLES_VERSION,
            "board": board.name,
            "board_digest": board.digest,
            "rules_version": rules_version(),
            "variant_id": variant_id(rules_of(arm.options), board.digest),
        }

    # ---------------------------------------------------------------- strategies
    def strategies(self) -> list[StrategyInfo]:
        """The families (random, greedy, heuristic, mixed) and heuristic's presets; the
        kernel plays them all."""
        from sims.games.pizzatheory.strategies import load_presets

        out = [
            StrategyInfo(
                name=info.name,
                summary=info.summary,
                params=dict(info.params),
                ranges=dict(PARAM_RANGES) if info.name in TUNABLE else {},
                kernel=True,
            )
            for info in STRATEGIES.values()
        ]
        for name, params in sorted(load_presets().items()):
            out.append(
                StrategyInfo(
                    name=name,
                    summary="preset of heuristic (parameters can be overridden)",
                    params=params,
                    kernel=True,
                    preset_of="heuristic",
                )
            )
        return out

    def make_strategy(self, spec: str):
        return make_strategy(spec)

    def strategy_identity(self, spec: str, players: int) -> str:
        return strategy_identity(spec, players)

    def strategy_defaults(self, family: str, players: int) -> dict[str, float]:
        """A tunable family's parameters at ``players``: ``heuristic``'s default preset
        (``heuristic-eqN``, where one is shipped) or ``mixed``'s defaults."""
        from sims.games.pizzatheory.strategies import make_strategy as build

        self._tunable(family)
        return build(family).params(players)

    def check_preset(self, family: str, name: str) -> None:
        """Refuse now what :meth:`save_preset` would refuse after a tuning run.

        Raises
        ------
        SlicelabError
        """
        from sims.games.pizzatheory.strategies import PRESETS

        self._tunable(family)
        if family != "heuristic":
            raise SlicelabError(
                f"Pizza Theory keeps presets of 'heuristic' only, not of {family!r}; run "
                "without --save-preset and pass the parameters it reports in the spec, e.g. "
                "mixed(aggression=0.8,leader=0.3)"
            )
        PRESETS.check_name(name)
        PRESETS.user()

    def save_preset(self, family: str, name: str, params: dict[str, float], note: str) -> Path:
        """Save ``params`` as the user preset ``name`` (the user's presets file, never the
        installed package) and return that file's path."""
        from sims.games.pizzatheory.strategies import PRESETS

        self.check_preset(family, name)
        return PRESETS.save(name, params, note)

    @staticmethod
    def _tunable(family: str) -> None:
        if family not in TUNABLE:
            raise SlicelabError(
                f"cannot tune {family!r}: Pizza Theory's tunable families are {', '.join(TUNABLE)}"
            )

    # ------------------------------------------------------------ reference state
    def initial_state(
        self, options: Mapping[str, Any], players: int, rng: np.random.Generator
    ) -> GameState:
        rules = rules_of(options)
        return GameState(board_of(options), rules, players, deal(players, rules, rng))

    def decide(self, strategy, state: GameState, rng: np.random.Generator) -> int:
        from sims.games.pizzatheory.view import PlayerView

        dec = state.decision()
        return strategy.choose(PlayerView(state, dec.player), dec, rng)

    # ----------------------------------------------------------------- chunk play
    def engine_for(self, arm: Arm) -> str:
        """``"kernel"`` (it plays every family Pizza Theory knows) unless the arm asks for
        the reference or a seat plays a strategy written in Python."""
        code = any(":" in parse_spec(s).name for s in arm.strategies)
        return "reference" if arm.engine == "reference" or code else "kernel"

    def play_chunk(
        self, arm: Arm, first: int, count: int, decisions: bool, engine: str | None = None
    ) -> ChunkArrays:
        """Games ``first .. first + count - 1`` of an arm as arrays."""
        if (engine or self.engine_for(arm)) == "kernel":
            from sims.games.pizzatheory.kernel import play_many

            board, rules = board_of(arm.options), rules_of(arm.options)
            seats_, games_, recs = play_many(
                board, rules, arm.players, arm.seed, first, count, decisions, arm.strategies
            )
        else:
            seats_, games_, recs = _play_reference(arm, first, count, decisions)
        seats = {
            c: checked_cast(seats_[:, :, i], _SEAT_TYPES[c], c) for i, c in enumerate(SEAT_COLUMNS)
        }
        names = (*GAME_COLUMNS, "decisions")
        games = {c: checked_cast(games_[:, i], _GAME_TYPES[c], c) for i, c in enumerate(names)}
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
        from sims.games.pizzatheory.game import play_game, seat_strategies
        from sims.games.pizzatheory.replay import format_replay

        strats = seat_strategies(list(specs), players)
        state = play_game(players, strats, seed, index, board_of(options), rules_of(options))
        header = f"Pizza Theory, {players} players, seed {seed}, game {index} (reference engine)"
        return format_replay(state, [str(s.spec) for s in strats], header, reveal)


GAME = PizzaTheory()
"""The registered Pizza Theory (``sims.core.game.REGISTRY``)."""
