"""Horno through the game protocol (:class:`sims.core.game.Game`).

Its options are a card set (``cards``, flag ``--cards NAME|PATH``: a shipped card set's
name such as ``v1-harsh`` (``cards.card_set_names``), or a card-set TOML file resolved
against the study file's folder; the default "assumed v1" without one) and rule options
(``rules``, flag ``--rule NAME=VALUE``: every Ruling of ``docs/rules/horno.md``).
A chunk is played by the compiled kernel (``sims.games.horno.kernel``) when every seat
uses a family the kernel knows, ``random``, ``greedy`` or ``heuristic`` (any parameters,
its presets), and the arm does not ask for ``engine = "reference"``; an arm with a
``search`` seat plays on the reference engine (``engine = "kernel"`` is refused for it).
Both engines give identical rows for the same games
(``tests/games/horno/test_horno_kernel.py``), so the engine is recorded for provenance
only. Its strategies are ``random``, ``greedy``, ``heuristic`` (tunable: ``slicelab
tune``, ``exploit`` and ``equilibrium`` search its parameters; its presets are strategy
names too) and ``search``; a strategy written in Python (``package.module:Name``, allowed
by ``--allow-code``) plays on the reference engine. Chunks are written in
``records.DECISION_COLUMNS``, ``records.SEAT_COLUMNS`` and ``records.GAME_COLUMNS`` order,
by either engine.

The game's own columns (``ResultSchema``). ``players``: ``won`` (int8, 1 for a winner, ties
included), ``score`` (int16) = ``dish_base`` + ``garbage_penalty`` + ``radioactive_bonus`` +
``radioactive_penalty`` + ``unfinished_points`` (penalties ≤ 0), ``tiebreak`` (the second
win key: completed dishes under ``tie = "dishes"``, else 0), ``dish_points``,
``dishes_completed``, ``completed_by_type`` (list<int8>, one entry per dish type of the card
set), the unfinished dish's ``unfinished_correct`` and ``unfinished_bad`` cards, the actions
made and suffered, cleans, cards drawn, discarded, placed and redrawn, ``first_type``,
``closed`` and ``position``, and its dish cards (``records.DISH_COLUMNS``: ``dishes`` and
``dish_scores``, list columns of the dish cards it completed and their points, and
``unfinished_dish``). ``games``: ``rounds``, ``reshuffles``, ``dishes_completed``,
``deck_left`` and ``decisions``.

Every integer column's type is derived from Horno's declared limits (``rules.LIMITS``,
:attr:`Horno.data_limits`): the narrowest type holding the column's largest and smallest
possible value at the limits (a dish card's number below ``DISHES.high``, a score from the
most dishes at the most points and bonuses, a count of actions from the most rounds), and
never narrower than the type the tables were first written with, so a limit raised widens
its columns instead of wrapping their values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sims.core.errors import InertRuleError, SlicelabError
from sims.core.game import (
    BalancePlan,
    ChunkArrays,
    DerivedFile,
    GameInfo,
    GameOption,
    RestrictedPlay,
    ResultSchema,
    StrategyInfo,
    Variant,
)
from sims.core.limits import checked_cast, column_type, int_dtype
from sims.core.study import Arm
from sims.games.horno.cards import (
    CardSet,
    cards_reference,
    default_cards,
    mean_dish_points,
    resolve_cards,
    study_variants,
)
from sims.games.horno.engine import SABOTAGE_CARD, GameState, Phase, deal
from sims.games.horno.knobs import KNOBS
from sims.games.horno.records import (
    COMPLETED_BY_TYPE,
    DECISION_COLUMNS,
    DISH_COLUMNS,
    GAME_COLUMNS,
    SEAT_COLUMNS,
)
from sims.games.horno.rules import (
    BONUS,
    DEAL,
    DECK,
    DISHES,
    DRAW_LIMIT,
    HAND_LIMIT,
    KINDS,
    LIMITS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVEN_SIZE,
    PENALTY,
    POINTS,
    PREPARE_LIMIT,
    ROUNDS,
    RULES_VERSION,
    TYPES,
    Rules,
    check_oven,
    check_seat,
    variant_id,
)
from sims.games.horno.strategies import STRATEGIES, family_of, make_strategy
from sims.games.presets import Presets, TunesHeuristic

PHASE_NAMES = [p.name.lower() for p in Phase]
SCORE_PARTS = (
    "dish_base", "garbage_penalty", "radioactive_bonus", "radioactive_penalty",
    "unfinished_points",
)  # fmt: skip
"""The components of a seat's score (their sum is ``score``)."""
TABLES_VERSION = 2
"""Bumped when the written columns change, so an older dataset is never resumed into."""


# a seat's largest counts at the limits: its own actions (one a turn), those it suffers
# (one in each other seat's turn), the dishes it completes (each dish card once; at most
# one a turn: its own Prepare, or another's oven steal completing it), and its points
_OWN = ROUNDS.high
_SUFFERED = ROUNDS.high * (MAX_PLAYERS - 1)
_DONE = min(DISHES.high, ROUNDS.high * MAX_PLAYERS)
_BEST_DISH = POINTS.high + OVEN_SIZE * BONUS.high
_WORST_DISH = -OVEN_SIZE * PENALTY.high
_POINTS = (_DONE * _BEST_DISH, _DONE * _WORST_DISH)
_UNFINISHED = (2 * OVEN_SIZE, -OVEN_SIZE)
_SCORE = (_POINTS[0] + _UNFINISHED[0], _POINTS[1] + _UNFINISHED[1])
DISH_ID = int_dtype(DISHES.high - 1, -1)
"""A dish card's number (-1: none), below ``DISHES.high``."""

_SEAT_TYPES = {
    "won": column_type(1),
    "score": column_type(*_SCORE, at_least=np.int16),
    "tiebreak": column_type(_DONE, at_least=np.int16),
    "dish_base": column_type(_DONE * POINTS.high, at_least=np.int16),
    "garbage_penalty": column_type(0, _POINTS[1], at_least=np.int16),
    "radioactive_bonus": column_type(_DONE * OVEN_SIZE * BONUS.high, at_least=np.int16),
    "radioactive_penalty": column_type(0, _POINTS[1], at_least=np.int16),
    "unfinished_points": column_type(*_UNFINISHED, at_least=np.int16),
    "dish_points": column_type(*_POINTS, at_least=np.int16),
    "dishes_completed": column_type(_DONE),
    "unfinished_correct": column_type(OVEN_SIZE),
    "unfinished_bad": column_type(OVEN_SIZE),
    "pantry_steals": column_type(_OWN),
    "pantry_stolen": column_type(_SUFFERED),
    "oven_steals": column_type(_OWN),
    "oven_stolen": column_type(_SUFFERED),
    "sabotages": column_type(_OWN),
    "sabotaged": column_type(_SUFFERED),
    "cleans": column_type(_OWN),
    "cleaned": column_type(2 * _OWN),
    "drawn": column_type(_OWN * DRAW_LIMIT, at_least=np.int16),
    "discarded": column_type(_OWN * (HAND_LIMIT + 2), at_least=np.int16),
    "placed": column_type(_OWN * PREPARE_LIMIT, at_least=np.int16),
    "redrawn": column_type(DEAL),
    "first_type": column_type(TYPES.high - 1, -1),
    "closed": column_type(1),
    "position": column_type(MAX_PLAYERS - 1),
}
assert set(_SEAT_TYPES) | set(COMPLETED_BY_TYPE) == set(SEAT_COLUMNS)
_GAME_TYPES = {
    "rounds": column_type(ROUNDS.high),
    # a reshuffle needs the deck's last card drawn: at most one in each turn's Restock and
    # in each seat's opening redraw (the deal never empties a deck of DECK.low cards)
    "reshuffles": column_type((ROUNDS.high + 1) * MAX_PLAYERS),
    "dishes_completed": column_type(DISHES.high, at_least=np.int16),
    "deck_left": column_type(DECK.high, at_least=np.int16),
    "decisions": np.int32,
}  # fmt: skip
_DECISION_TYPES = {
    "game_index": np.int64,
    "round": column_type(ROUNDS.high),
    "seat": column_type(MAX_PLAYERS - 1),
    "position": column_type(MAX_PLAYERS - 1),
    "action": column_type(
        SABOTAGE_CARD + 100 * (MAX_PLAYERS - 1) + KINDS.high - 1, -1, at_least=np.int16
    ),
    "n_legal": np.int16,
    "hand": column_type(HAND_LIMIT + 2),
    "oven": column_type(OVEN_SIZE),
    "deck": column_type(DECK.high, at_least=np.int16),
    "points": column_type(*_POINTS, at_least=np.int16),
}
assert set(_DECISION_TYPES) | {"phase"} == set(DECISION_COLUMNS)
TABLE_SEAT_COLUMNS = tuple(c for c in SEAT_COLUMNS if c not in COMPLETED_BY_TYPE) + (
    "completed_by_type",
)
"""The ``players`` table's game columns: the per-type slots become one list column."""
_BY_TYPE = pa.from_numpy_dtype(column_type(_DONE))
"""The value type of ``completed_by_type`` (a seat's completed dishes of one type)."""
_DISH_TYPES = {
    "dishes": pa.from_numpy_dtype(DISH_ID),
    "dish_scores": pa.from_numpy_dtype(column_type(_BEST_DISH, _WORST_DISH, at_least=np.int16)),
}
"""The list columns of :data:`records.DISH_COLUMNS` and their value types."""


def rules_version() -> str:
    """The rules version as the tables record it: ``horno-<rules.RULES_VERSION>``."""
    return f"horno-{RULES_VERSION}"


@lru_cache(maxsize=64)
def _cards(ref: str | None) -> CardSet:
    return resolve_cards(ref)


def cards_of(options: Mapping[str, Any]) -> CardSet:
    """The card set an arm's options play: its ``cards`` (a shipped set's name or a file;
    the default without one)."""
    return _cards(options.get("cards"))


def rules_of(options: Mapping[str, Any]) -> Rules:
    """The rules an arm's options play (its ``rules`` table; the defaults without one)."""
    return Rules.from_dict(options.get("rules") or {})


def strategy_identity(spec: str, players: int) -> str:
    """A key equal for two specs that play identically at ``players`` (``heuristic``,
    ``heuristic-eq4`` and ``heuristic(steal=1)`` when the resolved parameters agree): the
    family and its resolved parameters (``search``'s with its defaults merged in)."""
    strategy = make_strategy(spec)
    params = getattr(strategy, "params", None)
    resolved = params(players) if callable(params) else getattr(strategy, "p", strategy.spec.params)
    resolved = {k: float(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                for k, v in resolved.items()}  # fmt: skip
    return json.dumps([family_of(strategy), resolved], sort_keys=True, default=str)


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


def by_type(counts: np.ndarray, types: int) -> pa.ListArray:
    """Per-type counts (games x seats x MAX_TYPES) as a list<int8> column, seat fastest,
    each list the first ``types`` entries (the card set's types, in order)."""
    count, n = counts.shape[:2]
    flat = np.ascontiguousarray(counts[:, :, :types]).ravel()
    values = pa.array(checked_cast(flat, _BY_TYPE.to_pandas_dtype(), "completed_by_type"))
    offsets = pa.array(np.arange(0, count * n * types + 1, types, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, values, type=pa.list_(_BY_TYPE))


def lists(values: list[list[int]], kind: pa.DataType) -> pa.ListArray:
    """One list per seat row (games x seats, seat fastest) as a list column."""
    offsets = np.zeros(len(values) + 1, dtype=np.int32)
    np.cumsum([len(v) for v in values], out=offsets[1:])
    flat = pa.array([x for v in values for x in v], type=kind)
    return pa.ListArray.from_arrays(pa.array(offsets), flat, type=pa.list_(kind))


def _padded_lists(values: np.ndarray, counts: np.ndarray, kind: pa.DataType) -> pa.ListArray:
    """One list per seat row (games x seats, seat fastest) from padded rows: the first
    ``counts[g, s]`` entries of ``values[g, s]`` (the kernel's dish columns)."""
    counts = counts.reshape(-1)
    values = values.reshape(len(counts), -1)
    offsets = np.zeros(len(counts) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    flat = values[np.arange(values.shape[1]) < counts[:, None]]
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(flat, type=kind),
                                    type=pa.list_(kind))  # fmt: skip


def _kernel_ok(strategies: Sequence[str]) -> bool:
    """Whether the kernel plays every seat's strategy (random, greedy, heuristic and its
    presets)."""
    from sims.games.horno.kernel import kernel_ok

    return kernel_ok(strategies)


def _play_reference(arm: Arm, first: int, count: int, decisions: bool):
    from sims.games.horno.game import play_game
    from sims.games.horno.records import game_row, seat_dishes, seat_rows

    cards, rules = cards_of(arm.options), rules_of(arm.options)
    strategies = [make_strategy(s) for s in arm.strategies]
    n = arm.players
    seats = np.zeros((count, n, len(SEAT_COLUMNS)), dtype=np.int64)
    games = np.zeros((count, len(GAME_COLUMNS) + 1), dtype=np.int64)
    rows: list[list[int]] = []
    dishes: list[tuple[list[int], list[int], int]] = []
    for g in range(count):
        state = play_game(
            n, strategies, arm.seed, first + g, cards, rules, records=rows if decisions else None
        )
        seats[g] = seat_rows(state)
        games[g, :-1] = game_row(state)
        games[g, -1] = len(state.trace)
        dishes += seat_dishes(state)
    recs = np.array(rows, dtype=np.int64).reshape(-1, len(DECISION_COLUMNS))
    return seats, games, recs, dishes


def plan_cards(cards: str | None, seed: int) -> dict[str, DerivedFile]:
    """The balance study's treated card sets (``plain-<type>``: a type's dishes made
    average dishes; ``noradio``: the radioactive cards made garbage) derived from a
    variant's card set instead of assumed v1
    (:func:`~sims.games.horno.cards.study_variants`), by the name the study gives each
    (``cards/horno-plain-pizza.toml``, ...): :attr:`BalancePlan.derive` of Horno. They
    keep the variant's deck, so they replay the variant's deals. ``seed`` is unused: no
    card set is drawn.

    Raises
    ------
    SlicelabError
        If ``cards`` is not a valid card set, or its dish types are not the balance
        study's (its ``plain-<type>`` blocks name assumed v1's types).
    """
    chosen = resolve_cards(cards)
    shipped = default_cards()
    if chosen.types != shipped.types:
        raise SlicelabError(
            f"card set {cards}: its dish types ({', '.join(chosen.types)}) are not the Horno "
            f"balance study's ({', '.join(shipped.types)}), whose plain-<type> blocks name "
            "them; keep those five types (in that order) in your card set"
        )
    source = Path(cards).name if cards else "assumed v1"
    texts = study_variants(chosen, by="`slicelab plan`")
    plain = mean_dish_points(chosen)
    out = {}
    for name, text in texts.items():
        if name == "horno-no-radioactive.toml":
            what = (
                "every radioactive card made a garbage card of its printed penalty, in the "
                "same place of the deck: the variant's deals without radioactive cards"
            )
        else:
            kind = next(t for t in chosen.types if name == f"horno-plain-{t.lower()}.toml")
            what = (
                f"every {kind} dish made an average dish worth {plain} points (the set's "
                f"mean), the deck unchanged: the replacement estimand of the {kind} dishes "
                "on the variant's deals"
            )
        note = f"Derived from the variant's card set ({source}): {what}."
        out[f"cards/{name}"] = DerivedFile(name, text, note)
    return out


BALANCE = BalancePlan(
    study="studies/horno-balance.toml",
    data="cards",
    default_data="sims/games/horno/data/cards-v1.toml",
    derive=plan_cards,
    robustness=(
        "Robustness: Horno has no perturbation of a card set, so no block plays a perturbed "
        "copy of the variant's set; the cards-v1-* blocks keep the shipped alternative "
        "readings of assumed v1 they name (sims/games/horno/data/cards-v1-*.toml): "
        "comparisons of other card sets with the variant's, not perturbations of it. The "
        "plain-<type> and noradio blocks play card sets derived from the variant's (written "
        "beside this study), so they replay its deals."
    ),
    whatif=("seats", "seats-greedy"),
)
"""Horno's balance plan (``slicelab plan horno``)."""


class Horno(TunesHeuristic):
    """Horno (2–4 players): cook dishes in your oven from a hidden hand; steal, clean,
    sabotage."""

    info = GameInfo(
        name="horno",
        title="Horno",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        summary="cook dishes in your oven from a hidden hand; steal from pantries and ovens, "
        "sabotage the others with garbage",
        rules_doc="docs/rules/horno.md",
        balance=BALANCE,
        compile_seconds=101,  # measured on 2 cores (the first slicelab play, issue 28)
    )
    data_limits = LIMITS
    knobs = KNOBS
    # a seat that never takes one dish type while another is open (avoid=<type index>)
    restricted_play = RestrictedPlay(
        "avoid", "dish type",
        lambda options, n: tuple((t, i) for i, t in enumerate(cards_of(options).types)),
    )  # fmt: skip
    """Every bound a card-set file and the rule options must respect (``rules.LIMITS``),
    listed in ``docs/rules/horno.md``, section "Data files"."""
    options = (
        GameOption(
            "cards", "path", "a Horno card set: a shipped set's name (v1, v1-harsh, ...) or a "
            "card-set TOML file (default: the assumed v1 set)",
            flag="--cards", metavar="NAME|PATH",
        ),
        GameOption(
            "rules", "table", "a Horno ruling, e.g. tie=dishes (see docs/rules/horno.md)",
            flag="--rule", metavar="NAME=VALUE",
        ),
    )  # fmt: skip
    results = ResultSchema(
        components=SCORE_PARTS,
        win_keys=("score", "tiebreak"),
        seat_columns=(*TABLE_SEAT_COLUMNS, *DISH_COLUMNS),
        game_columns=(*GAME_COLUMNS, "decisions"),
        turn_order="position",
    )

    # ------------------------------------------------------------------ variants
    def variants(self, raw: Mapping[str, Any], players: int, base: Path | None) -> list[Variant]:
        """One variant: the card set (a shipped set's name, or a path already resolved
        against the study's folder: :func:`~sims.games.horno.cards.cards_reference`) and the
        rules as given, both validated here."""
        cards = raw.get("cards")
        if cards is not None:
            if not isinstance(cards, str) or not cards:
                raise SlicelabError(
                    "cards must be a shipped card set's name or the path of a card-set TOML "
                    f"file, got {cards!r}"
                )
            cards = cards_reference(cards)
        options = {"cards": cards, "rules": dict(raw.get("rules", {}))}
        rules = rules_of(options)
        check_seat(rules, players)
        check_oven(rules, cards_of(options))
        return [Variant(options)]

    def check_arm(self, arm: Arm) -> None:
        """Refuse an arm whose strategies, card set, rule options or engine are invalid, or
        whose rule options ask a what-if that cannot change any of its games under the
        other rulings in force (:func:`sims.games.horno.whatif.inert`)."""
        from sims.games.horno.whatif import inert

        for spec in arm.strategies:
            make_strategy(spec)
        cards = cards_of(arm.options)
        rules = rules_of(arm.options)
        check_seat(rules, arm.players)
        check_oven(rules, cards)
        problem = inert(cards, rules, arm.strategies, arm.players)
        if problem:
            raise InertRuleError(problem)
        if arm.engine == "kernel" and not _kernel_ok(arm.strategies):
            other = sorted({s for s in arm.strategies if not _kernel_ok([s])})
            raise SlicelabError(
                f"engine 'kernel': Horno's kernel plays only random, greedy and heuristic "
                f"(with its presets), not {', '.join(other)}; use engine = 'auto' (the "
                "reference engine plays such arms) or 'reference'"
            )

    def fingerprint(self, arm: Arm) -> dict[str, Any]:
        """The card set (name and content digest), the rules version, the variant, the
        tables."""
        cards = cards_of(arm.options)
        return {
            "tables_version": TABLES_VERSION,
            "cards": cards.name,
            "cards_digest": cards.digest,
            "rules_version": rules_version(),
            "variant_id": variant_id(rules_of(arm.options), cards.digest),
        }

    # ---------------------------------------------------------------- strategies
    def strategies(self) -> list[StrategyInfo]:
        """The families (random, greedy, heuristic, search; all but search in the
        kernel) and heuristic's presets (in the kernel too)."""
        from sims.games.horno.heuristic import PARAM_RANGES, load_presets
        from sims.games.horno.kernel.layout import KINDS

        out = [
            StrategyInfo(
                name=info.name,
                summary=info.summary,
                params=dict(info.params),
                ranges=dict(PARAM_RANGES) if info.name == "heuristic" else {},
                kernel=info.name in KINDS,
            )
            for info in STRATEGIES.values()
        ]
        for name, params in sorted(load_presets().items()):
            out.append(
                StrategyInfo(
                    name=name,
                    summary="preset of heuristic (parameters can be overridden)",
                    params=params,
                    kernel="heuristic" in KINDS,
                    preset_of="heuristic",
                )
            )
        return out

    def make_strategy(self, spec: str):
        return make_strategy(spec)

    def strategy_identity(self, spec: str, players: int) -> str:
        return strategy_identity(spec, players)

    untunable_note = (
        " (random and greedy have no parameters; search's are a budget, not a valuation)"
    )

    def presets(self) -> Presets:
        from sims.games.horno.heuristic import PRESETS

        return PRESETS

    # ------------------------------------------------------------ reference state
    def initial_state(
        self, options: Mapping[str, Any], players: int, rng: np.random.Generator
    ) -> GameState:
        cards = cards_of(options)
        return GameState(cards, rules_of(options), players, deal(cards, rng))

    def decide(self, strategy, state: GameState, rng: np.random.Generator) -> int:
        from sims.games.horno.view import view_for

        dec = state.decision()
        remember = bool(getattr(strategy, "remembers", True))
        return strategy.choose(view_for(strategy, state, dec.player, remember), dec, rng)

    # ----------------------------------------------------------------- chunk play
    def engine_for(self, arm: Arm) -> str:
        """``"kernel"`` (compiled) or ``"reference"`` (Python) for this arm: the kernel
        unless the arm asks for the reference or a seat plays ``search`` or a strategy
        written in Python."""
        if arm.engine == "reference" or not _kernel_ok(arm.strategies):
            return "reference"
        return "kernel"

    def play_chunk(
        self, arm: Arm, first: int, count: int, decisions: bool, engine: str | None = None
    ) -> ChunkArrays:
        """Games ``first .. first + count - 1`` of an arm as arrays (on ``engine``, by
        default :meth:`engine_for`'s)."""
        if (engine or self.engine_for(arm)) == "kernel":
            from sims.games.horno.kernel import play_many

            if not _kernel_ok(arm.strategies):
                raise SlicelabError(
                    "Horno's kernel plays only random, greedy and heuristic (with its "
                    "presets); play this arm on the reference engine"
                )
            seats_, games_, recs, (dish_cards, dish_points, udish) = play_many(
                cards_of(arm.options), rules_of(arm.options), arm.strategies, arm.seed, first,
                count, decisions,
            )  # fmt: skip
            done = seats_[:, :, SEAT_COLUMNS.index("dishes_completed")]
            dish_lists = [
                _padded_lists(dish_cards, done, _DISH_TYPES["dishes"]),
                _padded_lists(dish_points, done, _DISH_TYPES["dish_scores"]),
            ]
            unfinished = udish
        else:
            seats_, games_, recs, dishes = _play_reference(arm, first, count, decisions)
            dish_lists = [lists([d[i] for d in dishes], _DISH_TYPES[c])
                          for i, c in enumerate(DISH_COLUMNS[:2])]  # fmt: skip
            unfinished = np.array([d[2] for d in dishes], dtype=np.int64).reshape(
                count, arm.players
            )
        cols = {c: seats_[:, :, i] for i, c in enumerate(SEAT_COLUMNS)}
        seats: dict[str, Any] = {c: checked_cast(cols[c], t, c) for c, t in _SEAT_TYPES.items()}
        first_type = SEAT_COLUMNS.index(COMPLETED_BY_TYPE[0])
        seats["completed_by_type"] = by_type(seats_[:, :, first_type:],
                                             len(cards_of(arm.options).types))  # fmt: skip
        seats = {c: seats[c] for c in TABLE_SEAT_COLUMNS}
        for c, column in zip(DISH_COLUMNS[:2], dish_lists, strict=True):
            seats[c] = column
        seats["unfinished_dish"] = checked_cast(unfinished, DISH_ID, "unfinished_dish")
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
        from sims.games.horno.game import play_game, seat_strategies
        from sims.games.horno.replay import format_replay

        strats = seat_strategies(list(specs), players)
        state = play_game(players, strats, seed, index, cards_of(options), rules_of(options))
        header = f"Horno, {players} players, seed {seed}, game {index} (reference engine)"
        return format_replay(state, [str(s.spec) for s in strats], header, reveal)


GAME = Horno()
"""The registered Horno (``sims.core.game.REGISTRY``)."""
