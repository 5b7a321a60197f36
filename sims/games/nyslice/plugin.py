"""New York Slice through the game protocol (:class:`sims.core.game.Game`).

Its options are a deck file (``deck``), rule options (``rules``: every Ruling of
``docs/rules/nyslice.md``) and a treatment, ``blank``: the same deals with a special
replaced by a blank tile. A chunk is played by the compiled kernel when every seat uses a
built-in strategy the kernel knows (``engine = "auto"`` or ``"kernel"``), else by the
reference engine. Both give identical rows for the same games
(``tests/games/nyslice/test_nyslice_kernel.py``), so the engine is recorded for
provenance only.
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
from sims.core.limits import Limit, column_type
from sims.core.study import Arm
from sims.games.nyslice.deck import (
    ANCHOVIES,
    COMBOS,
    DECK_LIMITS,
    DEFAULT_DECK_FILE,
    PEPPERONI,
    REAL_SPECIALS,
    SLICES,
    TYPES,
    VEGGIE,
    Deck,
    Kind,
    Special,
    default_deck,
    load_deck,
)
from sims.games.nyslice.deckfamily import plausible_decks
from sims.games.nyslice.engine import GameState, Phase, deal
from sims.games.nyslice.knobs import KNOBS
from sims.games.nyslice.rules import (
    COMPENSATION_POINTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULE_LIMITS,
    RULES_VERSION,
    SPECIAL_POINTS,
    SPECIALS_NEVER_VALID,
    SUPER_SIZED_HALVES_LIMIT,
    Rules,
    check_players,
    rounds_for,
    variant_id,
)
from sims.games.nyslice.strategies import STRATEGIES, make_strategy
from sims.games.presets import Presets, TunesHeuristic

SPECIAL_SLUGS = [s.slug for s in Special]
"""Slug of every special code, the blank (code 14) last."""
PHASE_NAMES = [p.name.lower() for p in Phase]
SCORE_PARTS = ("majorities", "specials", "diet", "pepperoni", "anchovies", "bonus")
"""The components of a seat's score (their sum is ``score``); ``bonus`` is the what-if
option ``compensation`` (0 under the printed rules)."""

TABLES_VERSION = 3
"""Bumped when the written columns change, so an older dataset is never resumed into
(2: ``majorities_won`` and ``majorities_unclaimed``; 3: ``bonus``)."""


def specials_in_play(players: int) -> list[str]:
    """Slugs of the specials that can appear at this player count, in ``Special`` order
    (at 2 players Cut in Line, Dibs! and You Love Veggies are always replaced). Only
    these can be blanked (option ``blank``): blanking another would change the game's
    deal of specials, as the blank is never replaced."""
    check_players(players)
    out = SPECIALS_NEVER_VALID.get(players, frozenset())
    return [s.slug for s in REAL_SPECIALS if s not in out]


@lru_cache(maxsize=64)
def _deck(path: str | None, blank: str | None = None) -> Deck:
    deck = default_deck() if path is None else load_deck(path)
    return deck if blank is None else deck.with_blank(blank)


@lru_cache(maxsize=64)
def _runner(path: str | None, blank: str | None, rules_json: str):
    from sims.games.nyslice.kernel import KernelRunner

    return KernelRunner(_deck(path, blank), Rules.from_dict(json.loads(rules_json)))


def rules_of(options: Mapping[str, Any]) -> Rules:
    """The rules an arm's options play (its ``rules`` table; the defaults without one)."""
    return Rules.from_dict(options.get("rules") or {})


def deck_of(options: Mapping[str, Any]) -> Deck:
    """The deck an arm's options play: its ``deck`` file (the default deck without one),
    with its ``blank`` special replaced by a blank tile. ``options`` may be an arm of a
    dataset's manifest, whose game options sit among its other keys."""
    return _deck(options.get("deck"), options.get("blank"))


def _check_blank(blank: object, players: int) -> None:
    """Refuse a blank that names no special, or one out of play at this player count."""
    valid = [s.slug for s in REAL_SPECIALS]
    if blank not in valid:
        raise SlicelabError(f"blank = {blank!r} is not a special; use one of: {', '.join(valid)}")
    in_play = specials_in_play(players)
    if blank not in in_play:
        raise SlicelabError(
            f"blank = {blank!r}: that special is not in play at {players} players (it is "
            f"always replaced), so there is nothing to blank; in play at {players} players: "
            f"{', '.join(in_play)}"
        )


def _blanks(raw: Any, players: int) -> list[str | None]:
    if raw is None:
        return [None]
    if raw == "each":
        return list(specials_in_play(players))
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, list) and raw and all(isinstance(b, str) for b in raw):
        return list(raw)
    raise SlicelabError("'blank' must be a special's slug, a list of slugs, or \"each\"")


def _kernel_ok(strategies: Sequence[str]) -> bool:
    from sims.games.nyslice.kernel import strategy_codes

    try:
        strategy_codes(strategies)
    except KeyError:
        return False
    return True


def strategy_identity(spec: str, players: int) -> str:
    """A key equal for two specs that play identically at ``players`` (e.g. ``heuristic``
    and ``heuristic(theta=1)`` where theta=1 is the preset's value): the family and its
    resolved parameters, with the special its seat avoids or forfeits (restricted play), if
    any."""
    strategy = make_strategy(spec)
    params = getattr(strategy, "params", None)
    # heuristic and its presets resolve defaults, preset and overrides; search keeps its
    # defaults merged in ``p`` (so budget=64 is the default search)
    resolved = params(players) if callable(params) else getattr(strategy, "p", strategy.spec.params)
    resolved = {k: float(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                for k, v in resolved.items()}  # fmt: skip
    for key in ("avoid", "forfeit"):  # restricted play
        special = getattr(strategy, key, None)
        if isinstance(special, Special):
            resolved[key] = special.slug
    return json.dumps([strategy.spec.name, resolved], sort_keys=True, default=str)


def _mask_lists(masks: np.ndarray) -> pa.Array:
    """list<string> of special slugs for each bit mask (one Python list per distinct mask)."""
    uniq, inverse = np.unique(masks, return_inverse=True)
    lists = [[slug for b, slug in enumerate(SPECIAL_SLUGS) if (int(m) >> b) & 1] for m in uniq]
    return pa.array(lists, type=pa.list_(pa.string())).take(pa.array(inverse.ravel()))


def _labels(codes: np.ndarray, names: list[str]) -> pa.DictionaryArray:
    """Dictionary-encoded labels for integer codes (-1 is null)."""
    idx = pa.array(codes.astype(np.int8), mask=codes < 0)
    return pa.DictionaryArray.from_arrays(idx, pa.array(names, pa.string()))


def _check_special_points(rules: Rules, players: int) -> None:
    """Refuse a starred special's points option changed at a player count where that
    special never appears (You Love Veggies at 2 players): it would measure nothing.

    Raises
    ------
    InertRuleError
    """
    for limit, printed in SPECIAL_POINTS:
        value = getattr(rules, limit.key)
        special = Special[limit.key.removesuffix("_points").upper()]
        if value != printed and special in SPECIALS_NEVER_VALID.get(players, ()):
            raise InertRuleError(
                f"rule option {limit.key}={value} changes nothing at {players} players: "
                f"{special.slug} never appears there (it is always replaced); drop the "
                f"option from the {players}-player arm"
            )


def score_range() -> tuple[int, int]:
    """The lowest and highest total a seat can score under the declared limits.

    One seat may end with every slice: each scores its pepperoni (eaten) or its anchovies
    (collected, minus, or plus with You Like Anchovies!), so at most the larger limit per
    slice. Majorities are at most 3 + ... + 11. Each starred special scores its points
    option (``rules.SPECIAL_POINTS``, at either end of its limit) times how often it can
    count: Buffet a type each and the Anchovy slice, Combo Cravings each combo, You Love
    Veggies each Veggie slice, Day-Old Pizza and Stuffed Crust once. Everyone Else's Diet
    takes at most half the slices; a compensation entry adds at most its highest points."""
    per_slice = max(PEPPERONI.high, ANCHOVIES.high)
    counts = {
        "buffet_points": len(TYPES) + 1, "combo_cravings_points": COMBOS.high,
        "you_love_veggies_points": VEGGIE, "day_old_pizza_points": 1,
        "stuffed_crust_points": 1,
    }  # fmt: skip
    specials_high = sum(max(lim.high * counts[lim.key], 0) for lim, _ in SPECIAL_POINTS)
    specials_low = sum(min(lim.low * counts[lim.key], 0) for lim, _ in SPECIAL_POINTS)
    high = sum(TYPES) + specials_high + SLICES.high * per_slice + COMPENSATION_POINTS.high
    low = specials_low - SLICES.high // 2 - SLICES.high * per_slice
    return low, high


POINTS = column_type(*reversed(score_range()), at_least=np.int16)
"""The type of every seat column of points or slices (the total and its parts, the
slices eaten and collected)."""
MAX_ROUNDS = max(rounds_for(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))
MAX_HALVES = 2 * max(TYPES) + COMBOS.high * SUPER_SIZED_HALVES_LIMIT.high + 2
"""The most halves a seat can count for one type: every slice of the largest type, every
combo under Super-Sized Combos' most halves, and the Supreme."""
_SEAT_TYPES = {
    **{c: POINTS for c in ("score", "majorities", "specials", "diet", "pepperoni")},
    **{c: POINTS for c in ("anchovies", "bonus", "eaten", "collected")},
    "majorities_won": column_type(len(TYPES), 0),
    "specials_mask": column_type(2 ** len(Special) - 1, 0, np.int32),
    "times_slicer": column_type(MAX_ROUNDS, 0),
}
_GAME_TYPES = {
    "rounds": column_type(MAX_ROUNDS, 0),
    "decisions": np.int32,
    "majorities_unclaimed": column_type(len(TYPES), 0),
}
_DECISION_TYPES = {
    "game_index": np.int64,
    "round": column_type(MAX_ROUNDS - 1),
    "slicer": column_type(MAX_PLAYERS - 1),
    "seat": column_type(MAX_PLAYERS - 1),
    "action": np.int32,
    "n_legal": np.int32,
    "slice": column_type(SLICES.high - 1, at_least=np.int16),
    "slice_kind": column_type(max(Kind)),
    "type_a": column_type(max(TYPES)),
    "type_b": column_type(max(TYPES)),
    "pepperoni": PEPPERONI.dtype(),
    "anchovies": ANCHOVIES.dtype(),
    "own_count2": column_type(MAX_HALVES, at_least=np.int16),
    "rival_count2": column_type(MAX_HALVES, at_least=np.int16),
    "unclaimed": column_type(max(TYPES), at_least=np.int16),
    "portions_left": column_type(MAX_PLAYERS),
}
"""The decision columns' types, from the deck's and the rules' limits (``action`` and
``n_legal`` index the legal actions, at most the kernel's ``MAX_CANDS``)."""


def decision_columns(recs: np.ndarray) -> dict[str, pa.Array | np.ndarray]:
    """The ``decisions`` table's columns (``docs/dataset.md``, without ``arm``) from
    decision records (``kernel.DECISION_COLUMNS``, from either engine), typed, with the
    phase and the portion's special as labels."""
    from sims.games.nyslice.kernel import DECISION_COLUMNS

    labels = {"phase": PHASE_NAMES, "portion_special": SPECIAL_SLUGS}
    return {
        c: _labels(recs[:, i], labels[c]) if c in labels else recs[:, i].astype(_DECISION_TYPES[c])
        for i, c in enumerate(DECISION_COLUMNS)
    }


def _play_reference(arm: Arm, first: int, count: int, decisions: bool):
    from sims.games.nyslice.game import play_game
    from sims.games.nyslice.kernel import DECISION_COLUMNS, SCORE_COLUMNS
    from sims.games.nyslice.records import score_rows

    deck, rules = deck_of(arm.options), rules_of(arm.options)
    strategies = [make_strategy(s) for s in arm.strategies]
    n = arm.players
    scores = np.zeros((count, n, len(SCORE_COLUMNS)), dtype=np.int64)
    ndec = np.zeros(count, dtype=np.int64)
    rows: list[list[int]] = []
    for g in range(count):
        state = play_game(
            n, strategies, arm.seed, first + g, deck, rules, records=rows if decisions else None
        )
        scores[g] = score_rows(state)
        ndec[g] = len(state.trace)
    recs = np.array(rows, dtype=np.int64).reshape(-1, len(DECISION_COLUMNS))
    return scores, ndec, recs


PLAUSIBLE_DECKS = tuple(f"decks/nyslice-family-{k}.toml" for k in range(1, 6))
"""The plausible decks the balance study's robustness blocks play (``deck<k>-*``), as it
names them: draws of ``studies/decks/nyslice-family.toml`` around the default deck."""


def plan_decks(deck: str | None, seed: int) -> dict[str, DerivedFile]:
    """The balance study's plausible decks drawn around a variant's deck instead of the
    default (:func:`~sims.games.nyslice.deckfamily.plausible_decks`), by the name the
    study gives each (:data:`PLAUSIBLE_DECKS`): :attr:`BalancePlan.derive` of New York
    Slice.

    Parameters
    ----------
    deck : str or None
        The variant's deck file (None: the default deck).
    seed : int
        The study's seed: draw ``k`` is ``SeedSequence([seed, k])``.

    Raises
    ------
    DeckError
        If ``deck`` is not a valid deck file.
    """
    base = default_deck() if deck is None else load_deck(deck)
    source = DEFAULT_DECK_FILE if deck is None else Path(deck).name
    texts = plausible_decks(base, seed, source, len(PLAUSIBLE_DECKS))
    out = {}
    for k, (ref, text) in enumerate(zip(PLAUSIBLE_DECKS, texts, strict=True), 1):
        note = (f"Robustness, plausible deck {k}: the variant's deck ({source}) with its "
                "assumed values (each numbered slice's pepperoni, the anchovies, the three "
                f"combo pairs other than 8/10) redrawn around its own (draw {k} from the "
                "study's seed; the file's header says how), as studies/decks/nyslice-family."
                "toml redraws the default deck's.")  # fmt: skip
        out[ref] = DerivedFile(f"deck-plausible-{k}.toml", text, note)
    return out


BALANCE = BalancePlan(
    study="studies/nyslice-balance.toml",
    data="deck",
    default_data=f"sims/games/nyslice/data/{DEFAULT_DECK_FILE}",
    derive=plan_decks,
    robustness=(
        "Robustness: the plausible-deck blocks (deck1-* to deck5-*) play five perturbations of "
        "the variant's deck, written beside this study: its assumed values (each numbered "
        "slice's pepperoni, the anchovies, the combo pairs other than 8/10) redrawn around its "
        "own from the study's seed, as studies/decks/nyslice-family.toml redraws the default "
        "deck's. The other robustness blocks (forfeit-greedy, forfeit-search, theta-greedy, "
        "theta-search) ask the same questions in other fields of players, on the variant."
    ),
    whatif=("seats", "seats-greedy", "forfeit"),
)
"""New York Slice's balance plan (``slicelab plan nyslice``)."""


class NewYorkSlice(TunesHeuristic):
    """New York Slice (2–6 players): cut a pizza into portions, choose, eat or collect."""

    info = GameInfo(
        name="nyslice",
        title="New York Slice",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        summary="cut a pizza into portions, choose, eat for pepperoni or collect for majorities",
        rules_doc="docs/rules/nyslice.md",
        balance=BALANCE,
        compile_seconds=255,  # measured on 2 cores (a fresh clone's make demo, issue 28)
        playout_kernels={"search": "play_deal_kernel"},
        # eat or collect's counterfactual replays, and the specials' own points
        analysis_kernels=("_play_deal", "ownpoints.own_points_kernel"),
    )
    data_limits: tuple[Limit, ...] = (*DECK_LIMITS, *RULE_LIMITS)
    knobs = KNOBS
    # a seat that never receives one special (forfeit=<slug>, every family takes it)
    restricted_play = RestrictedPlay(
        "forfeit", "special", lambda options, n: tuple((s, s) for s in specials_in_play(n))
    )
    """The deck file's limits (``deck.DECK_LIMITS``) and the rule options'
    (``rules.RULE_LIMITS``), listed in ``docs/rules/nyslice.md``, "Data files"."""
    options = (
        GameOption(
            "deck", "path", "a New York Slice deck TOML file (default: the 'reconstructed v1' "
            "deck)", flag="--deck", metavar="PATH",
        ),
        GameOption(
            "rules", "table", "a New York Slice ruling, e.g. veggies_edible_later=true (see "
            "docs/rules/nyslice.md)", flag="--rule", metavar="NAME=VALUE",
        ),
        GameOption(
            "blank", "value", "a special's slug, a list of them, or \"each\" (every special in "
            "play): the same deals with that special replaced by a blank tile",
        ),
    )  # fmt: skip
    results = ResultSchema(
        components=SCORE_PARTS,
        win_keys=("score", "eaten"),
        seat_columns=(
            "score", "majorities", "majorities_won", "specials", "diet", "pepperoni",
            "anchovies", "bonus", "eaten", "collected", "specials_owned", "specials_used",
            "specials_owned_mask", "specials_used_mask", "times_slicer",
        ),
        game_columns=("rounds", "decisions", "majorities_unclaimed"),
    )  # fmt: skip

    # ------------------------------------------------------------------ variants
    def variants(self, raw: Mapping[str, Any], players: int, base: Path | None) -> list[Variant]:
        """One variant per blanked special (or one without); deck and rules as given."""
        options: dict[str, Any] = {"deck": raw.get("deck"), "rules": dict(raw.get("rules", {}))}
        out = []
        for blank in _blanks(raw.get("blank"), players):
            opts = {**options, **({"blank": blank} if blank is not None else {})}
            out.append(Variant(opts, f".blank-{blank}" if blank else ""))
        return out

    def check_arm(self, arm: Arm) -> None:
        """Refuse an arm whose strategies, deck, blank or rule options are invalid."""
        for spec in arm.strategies:
            make_strategy(spec)
        options = arm.options
        _deck(options.get("deck"))
        if options.get("blank") is not None:
            _check_blank(options["blank"], arm.players)
            deck_of(options)  # the deck must hold the special's tile
        rules = rules_of(options)
        if rules.first_slicer >= arm.players:
            raise SlicelabError(
                f"rule option first_slicer={rules.first_slicer} is not a seat of "
                f"{arm.players} players"
            )
        _check_special_points(rules, arm.players)
        if arm.engine == "kernel" and not _kernel_ok(arm.strategies):
            from sims.games.nyslice.kernel import STRATEGY_CODES

            raise SlicelabError(
                f"engine 'kernel' plays only {sorted(STRATEGY_CODES)}; "
                "use engine = 'auto' or 'reference' for other strategies"
            )

    def fingerprint(self, arm: Arm) -> dict[str, Any]:
        """The deck as played (with the blank, if any), the rules version, the tables."""
        deck = deck_of(arm.options)
        blank = arm.options.get("blank")
        return {
            "tables_version": TABLES_VERSION,
            "deck": deck.name,
            "deck_digest": deck.digest,
            "rules_version": RULES_VERSION,
            "variant_id": variant_id(rules_of(arm.options), deck.digest),
            **({"blank": blank} if blank is not None else {}),
        }

    # ---------------------------------------------------------------- strategies
    def strategies(self) -> list[StrategyInfo]:
        """Families (random, greedy, heuristic, search) and heuristic's presets."""
        from sims.games.nyslice.heuristic import PARAM_RANGES, load_presets
        from sims.games.nyslice.kernel import STRATEGY_CODES

        out = [
            StrategyInfo(
                name=info.name,
                summary=info.summary,
                params=dict(info.params),
                ranges=dict(PARAM_RANGES) if info.name == "heuristic" else {},
                kernel=info.name in STRATEGY_CODES,
            )
            for info in STRATEGIES.values()
        ]
        for name, params in sorted(load_presets().items()):
            out.append(
                StrategyInfo(
                    name=name,
                    summary="preset of heuristic (parameters can be overridden)",
                    params=params,
                    kernel="heuristic" in STRATEGY_CODES,
                    preset_of="heuristic",
                )
            )
        return out

    def make_strategy(self, spec: str):
        return make_strategy(spec)

    def strategy_identity(self, spec: str, players: int) -> str:
        return strategy_identity(spec, players)

    def presets(self) -> Presets:
        from sims.games.nyslice.heuristic import PRESETS

        return PRESETS

    # ------------------------------------------------------------ reference state
    def initial_state(
        self, options: Mapping[str, Any], players: int, rng: np.random.Generator
    ) -> GameState:
        deck = deck_of(options)
        return GameState(deck, rules_of(options), players, deal(deck, players, rng))

    def decide(self, strategy, state: GameState, rng: np.random.Generator) -> int:
        from sims.games.nyslice.view import PlayerView

        dec = state.decision()
        return strategy.choose(PlayerView(state, dec.player), dec, rng)

    # ----------------------------------------------------------------- chunk play
    def engine_for(self, arm: Arm) -> str:
        """``"kernel"`` (compiled) or ``"reference"`` (Python) for this arm."""
        if arm.engine == "reference" or not _kernel_ok(arm.strategies):
            return "reference"
        return "kernel"

    def play_chunk(
        self, arm: Arm, first: int, count: int, decisions: bool, engine: str | None = None
    ) -> ChunkArrays:
        """Games ``first .. first + count - 1`` of an arm as arrays (columns in
        ``docs/dataset.md``)."""
        from sims.games.nyslice.kernel import SCORE_COLUMNS, seat_params, strategy_codes

        n = arm.players
        if (engine or self.engine_for(arm)) == "kernel":
            o = arm.options
            runner = _runner(o.get("deck"), o.get("blank"), json.dumps(o.get("rules") or {},
                             sort_keys=True))  # fmt: skip
            codes = strategy_codes(arm.strategies)
            hparams = seat_params(arm.strategies, n)
            out = runner.play_many(
                n, codes, arm.seed, first, count, records=decisions, hparams=hparams
            )
            scores, ndec = out[0], out[1]
            recs = out[2] if decisions else None
        else:
            scores, ndec, recs = _play_reference(arm, first, count, decisions)
        col = {c: scores[:, :, i] for i, c in enumerate(SCORE_COLUMNS)}
        rules = rules_of(arm.options)
        rounds = rounds_for(n)
        slicer = np.bincount([(rules.first_slicer + r) % n for r in range(rounds)], minlength=n)
        t = _SEAT_TYPES
        seats = {
            "score": col["total"].astype(t["score"]),
            "majorities": col["majorities"].astype(t["majorities"]),
            "majorities_won": col["majorities_won"].astype(t["majorities_won"]),
            **{c: col[c].astype(t[c]) for c in ("specials", "diet", "pepperoni")},
            **{c: col[c].astype(t[c]) for c in ("anchovies", "bonus", "eaten", "collected")},
            "specials_owned": _mask_lists(col["owned_mask"].ravel()),
            "specials_used": _mask_lists(col["used_mask"].ravel()),
            "specials_owned_mask": col["owned_mask"].astype(t["specials_mask"]),
            "specials_used_mask": col["used_mask"].astype(t["specials_mask"]),
            "times_slicer": np.tile(slicer.astype(t["times_slicer"]), (count, 1)),
        }
        unclaimed = len(TYPES) - col["majorities_won"].sum(axis=1)
        game_cols = {
            "rounds": np.full(count, rounds, dtype=_GAME_TYPES["rounds"]),
            "decisions": ndec.astype(np.int32),
            "majorities_unclaimed": unclaimed.astype(_GAME_TYPES["majorities_unclaimed"]),
        }
        table = pa.table(decision_columns(recs)) if decisions else None
        return ChunkArrays(seats=seats, games=game_cols, decisions=table)

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
        from sims.games.nyslice.game import play_game, seat_strategies
        from sims.games.nyslice.replay import format_replay

        strats = seat_strategies(list(specs), players)
        state = play_game(players, strats, seed, index, deck_of(options), rules_of(options))
        header = f"New York Slice, {players} players, seed {seed}, game {index} (reference engine)"
        return format_replay(state, [str(s.spec) for s in strats], header, reveal)


GAME = NewYorkSlice()
"""The registered New York Slice (``sims.core.game.REGISTRY``)."""
