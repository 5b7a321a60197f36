"""New York Slice's plugin for the batch runner: validate an arm, play a chunk, build tables.

A chunk is played by the compiled kernel when every seat uses a built-in strategy the
kernel knows (``engine = "auto"`` or ``"kernel"``), else by the reference engine. Both
give identical rows for the same games (``tests/test_nyslice_kernel.py``), so the
engine is recorded for provenance only.
"""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pyarrow as pa

from sims.core.errors import SlicelabError
from sims.core.study import Arm
from sims.games.nyslice.deck import REAL_SPECIALS, Deck, Special, default_deck, load_deck
from sims.games.nyslice.engine import Phase
from sims.games.nyslice.kernel import (
    DECISION_COLUMNS,
    SCORE_COLUMNS,
    STRATEGY_CODES,
    KernelRunner,
    heuristic_params,
    strategy_codes,
)
from sims.games.nyslice.rules import (
    RULES_VERSION,
    SPECIALS_NEVER_VALID,
    Rules,
    check_players,
    rounds_for,
    variant_id,
)
from sims.games.nyslice.strategies import make_strategy

SPECIAL_SLUGS = [s.slug for s in Special]
"""Slug of every special code, the blank (code 14) last."""
PHASE_NAMES = [p.name.lower() for p in Phase]


def specials_in_play(players: int) -> list[str]:
    """Slugs of the specials that can appear at this player count, in ``Special`` order
    (at 2 players Cut in Line, Dibs! and You Love Veggies are always replaced). Only
    these can be blanked (``Arm.blank``): blanking another would change the game's deal
    of specials, as the blank is never replaced."""
    check_players(players)
    out = SPECIALS_NEVER_VALID.get(players, frozenset())
    return [s.slug for s in REAL_SPECIALS if s not in out]


@lru_cache(maxsize=64)
def _deck(path: str | None, blank: str | None = None) -> Deck:
    deck = default_deck() if path is None else load_deck(path)
    return deck if blank is None else deck.with_blank(blank)


@lru_cache(maxsize=64)
def _runner(path: str | None, blank: str | None, rules_json: str) -> KernelRunner:
    return KernelRunner(_deck(path, blank), Rules.from_dict(json.loads(rules_json)))


def _rules(arm: Arm) -> Rules:
    return Rules.from_dict(arm.rules)


def check_arm(arm: Arm) -> None:
    """Refuse an arm whose strategies, deck or rule options are invalid."""
    for spec in arm.strategies:
        make_strategy(spec)
    _deck(arm.deck)
    if arm.blank is not None:
        _check_blank(arm.blank, arm.players)
        _deck(arm.deck, arm.blank)  # the deck must hold the special's tile
    rules = _rules(arm)
    if rules.first_slicer >= arm.players:
        raise SlicelabError(
            f"rule option first_slicer={rules.first_slicer} is not a seat of {arm.players} players"
        )
    if arm.engine == "kernel" and not _kernel_ok(arm):
        raise SlicelabError(
            f"engine 'kernel' plays only {sorted(STRATEGY_CODES)}; "
            "use engine = 'auto' or 'reference' for other strategies"
        )


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


def _kernel_ok(arm: Arm) -> bool:
    try:
        strategy_codes(arm.strategies)
    except KeyError:
        return False
    return True


def engine_for(arm: Arm) -> str:
    """``"kernel"`` (compiled) or ``"reference"`` (Python) for this arm."""
    if arm.engine == "reference" or not _kernel_ok(arm):
        return "reference"
    return "kernel"


TABLES_VERSION = 2
"""Bumped when the written columns change, so an older dataset is never resumed into
(2: ``majorities_won`` and ``majorities_unclaimed``)."""


def fingerprint(arm: Arm) -> dict:
    """What besides the study text determines this arm's data (the deck as played: with
    the blank, if any; the table layout)."""
    deck = _deck(arm.deck, arm.blank)
    return {
        "tables_version": TABLES_VERSION,
        "deck": deck.name,
        "deck_digest": deck.digest,
        "rules_version": RULES_VERSION,
        "variant_id": variant_id(_rules(arm), deck.digest),
        **({"blank": arm.blank} if arm.blank is not None else {}),
    }


def _play_reference(arm: Arm, first: int, count: int, decisions: bool):
    from sims.games.nyslice.game import play_game
    from sims.games.nyslice.records import score_rows

    deck, rules = _deck(arm.deck, arm.blank), _rules(arm)
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


def _mask_lists(masks: np.ndarray) -> pa.Array:
    """list<string> of special slugs for each bit mask (one Python list per distinct mask)."""
    uniq, inverse = np.unique(masks, return_inverse=True)
    lists = [[slug for b, slug in enumerate(SPECIAL_SLUGS) if (int(m) >> b) & 1] for m in uniq]
    return pa.array(lists, type=pa.list_(pa.string())).take(pa.array(inverse.ravel()))


def _labels(codes: np.ndarray, names: list[str]) -> pa.DictionaryArray:
    """Dictionary-encoded labels for integer codes (-1 is null)."""
    idx = pa.array(codes.astype(np.int8), mask=codes < 0)
    return pa.DictionaryArray.from_arrays(idx, pa.array(names, pa.string()))


def strategy_identity(spec: str, players: int) -> str:
    """A key equal for two specs that play identically at ``players`` (e.g. ``heuristic``
    and ``heuristic(theta=1)`` where theta=1 is the preset's value): the family and its
    resolved parameters."""
    strategy = make_strategy(spec)
    params = getattr(strategy, "params", None)
    resolved = params(players) if callable(params) else strategy.spec.params
    return json.dumps([strategy.spec.name, resolved], sort_keys=True, default=str)


def win_shares(totals: np.ndarray, eaten: np.ndarray) -> np.ndarray:
    """Win share per seat: highest total, then most eaten slices; shared wins count 1/k."""
    key = totals.astype(np.int64) * 10_000 + eaten
    best = key.max(axis=1, keepdims=True)
    won = key == best
    return won / won.sum(axis=1, keepdims=True)


def run_chunk(arm: Arm, first: int, count: int, decisions: bool) -> dict[str, pa.Table]:
    """Play games ``first .. first + count - 1`` of an arm and return its tables.

    Returns
    -------
    dict of pyarrow.Table
        ``games`` (one row per game), ``players`` (one row per seat per game) and, when
        ``decisions`` is true, ``decisions`` (one row per decision). Columns are documented
        in ``docs/dataset.md``.
    """
    n = arm.players
    engine = engine_for(arm)
    if engine == "kernel":
        runner = _runner(arm.deck, arm.blank, json.dumps(arm.rules, sort_keys=True))
        codes = strategy_codes(arm.strategies)
        hparams = heuristic_params(arm.strategies, n)
        out = runner.play_many(n, codes, arm.seed, first, count, records=decisions, hparams=hparams)
        scores, ndec = out[0], out[1]
        recs = out[2] if decisions else None
    else:
        scores, ndec, recs = _play_reference(arm, first, count, decisions)
    fp = fingerprint(arm)
    rules = _rules(arm)
    rounds = rounds_for(n)
    idx = np.arange(first, first + count, dtype=np.int64)
    col = {c: scores[:, :, i] for i, c in enumerate(SCORE_COLUMNS)}
    shares = win_shares(col["total"], col["eaten"])
    won = shares > 0
    offsets = np.concatenate([[0], np.cumsum(won.sum(axis=1))]).astype(np.int32)
    winners = pa.ListArray.from_arrays(
        pa.array(offsets), pa.array(np.nonzero(won)[1].astype(np.int8))
    )
    games = pa.table(
        {
            "arm": pa.array([arm.name] * count, pa.string()),
            "game_index": idx,
            "study_seed": np.full(count, arm.seed, dtype=np.int64),
            "variant_id": pa.array([fp["variant_id"]] * count, pa.string()),
            "rules_version": pa.array([fp["rules_version"]] * count, pa.string()),
            "engine": pa.array([engine] * count, pa.string()),
            "rounds": np.full(count, rounds, dtype=np.int8),
            "winner_seats": winners,
            "n_winners": won.sum(axis=1).astype(np.int8),
            "decisions": ndec.astype(np.int32),
            "majorities_unclaimed": (9 - col["majorities_won"].sum(axis=1)).astype(np.int8),
        }
    )
    slicer_counts = np.bincount([(rules.first_slicer + r) % n for r in range(rounds)], minlength=n)
    specs = [make_strategy(s).spec for s in arm.strategies]
    rep = count * n
    players = pa.table(
        {
            "arm": pa.array([arm.name] * rep, pa.string()),
            "game_index": np.repeat(idx, n),
            "seat": np.tile(np.arange(n, dtype=np.int8), count),
            "strategy": pa.array([str(s) for s in specs] * count, pa.string()),
            "strategy_family": pa.array([s.name for s in specs] * count, pa.string()),
            "strategy_params": pa.array(
                [json.dumps(s.params, sort_keys=True) for s in specs] * count, pa.string()
            ),
            "score": col["total"].ravel().astype(np.int16),
            "majorities": col["majorities"].ravel().astype(np.int16),
            "majorities_won": col["majorities_won"].ravel().astype(np.int8),
            "specials": col["specials"].ravel().astype(np.int16),
            "diet": col["diet"].ravel().astype(np.int16),
            "pepperoni": col["pepperoni"].ravel().astype(np.int16),
            "anchovies": col["anchovies"].ravel().astype(np.int16),
            "eaten": col["eaten"].ravel().astype(np.int16),
            "collected": col["collected"].ravel().astype(np.int16),
            "specials_owned": _mask_lists(col["owned_mask"].ravel()),
            "specials_used": _mask_lists(col["used_mask"].ravel()),
            "specials_owned_mask": col["owned_mask"].ravel().astype(np.int32),
            "specials_used_mask": col["used_mask"].ravel().astype(np.int32),
            "win_share": shares.ravel(),
            "times_slicer": np.tile(slicer_counts.astype(np.int8), count),
        }
    )
    tables = {"games": games, "players": players}
    if decisions:
        arms = {"arm": pa.array([arm.name] * len(recs), pa.string())}
        tables["decisions"] = pa.table({**arms, **decision_columns(recs)})
    return tables


_DECISION_TYPES = {
    "game_index": np.int64, "round": np.int8, "slicer": np.int8, "seat": np.int8,
    "action": np.int32, "n_legal": np.int32, "slice": np.int16, "slice_kind": np.int8,
    "type_a": np.int8, "type_b": np.int8, "pepperoni": np.int8, "anchovies": np.int8,
    "own_count2": np.int16, "rival_count2": np.int16, "unclaimed": np.int16,
    "portions_left": np.int8,
}  # fmt: skip


def decision_columns(recs: np.ndarray) -> dict[str, pa.Array | np.ndarray]:
    """The ``decisions`` table's columns (``docs/dataset.md``, without ``arm``) from
    decision records (``kernel.DECISION_COLUMNS``, from either engine), typed, with the
    phase and the portion's special as labels."""
    labels = {"phase": PHASE_NAMES, "portion_special": SPECIAL_SLUGS}
    return {
        c: _labels(recs[:, i], labels[c]) if c in labels else recs[:, i].astype(_DECISION_TYPES[c])
        for i, c in enumerate(DECISION_COLUMNS)
    }
