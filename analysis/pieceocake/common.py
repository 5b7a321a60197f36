"""What a Piece o' Cake study block plays, read from a dataset's manifest: the value a
parameter takes in its field, its rules and its cake. The generic block readers
(:mod:`analysis.blocks`: arms, player counts, strategies) and interval helpers
(:func:`analysis.stats.ratio_interval`, :func:`analysis.stats.group_difference`,
:func:`analysis.load.game_ids`) are re-exported here for the modules and notebooks that
read them from this module."""

from __future__ import annotations

import tomllib

from analysis.blocks import (  # noqa: F401 (re-exported: the generic block readers)
    block_arms,
    block_counts,
    block_specs,
    candidate_spec,
    field_spec,
    has_block,
)
from analysis.load import game_ids  # noqa: F401 (re-exported)
from analysis.stats import group_difference, ratio_interval  # noqa: F401 (re-exported)
from sims.games.pieceocake.cake import Cake
from sims.games.pieceocake.rules import Rules

HEURISTIC = "heuristic"


def param_value(spec: str, players: int, param: str) -> float | None:
    """The value of a ``heuristic`` parameter in ``spec`` at ``players`` (its preset's where
    the spec sets none; greedy's fixed values for ``greedy``); None for a strategy without
    it or a spec this checkout cannot build."""
    from sims.games.pieceocake.strategies import make_strategy

    try:
        strategy = make_strategy(spec)
    except Exception:  # a spec of another checkout: its value is unknown
        return None
    params = getattr(strategy, "params", None)
    resolved = params(players) if callable(params) else dict(strategy.spec.params)
    value = resolved.get(param)
    return None if value is None else float(value)


def field_values(manifest: dict, group: str, param: str) -> dict[int, float | None]:
    """The field's value of ``param`` per player count in a sweep block."""
    spec = field_spec(manifest, group)
    return {n: param_value(spec, n, param) if spec else None
            for n in block_counts(manifest, group)}  # fmt: skip


def rules_for(arm: dict) -> Rules:
    """The rules a manifest arm plays."""
    from sims.games.pieceocake.plugin import rules_of

    return rules_of(arm)


def cake_for(arm: dict) -> Cake:
    """The cake a manifest arm plays (its ``cake`` file, else the published cake)."""
    from sims.games.pieceocake.plugin import cake_of

    return cake_of(arm)


def max_pieces(manifest: dict, group: str) -> dict[int, int]:
    """The most pieces a server may cut, per player count of a block (its rules)."""
    return {a["players"]: rules_for(a).max_pieces(a["players"])
            for a in block_arms(manifest, group)}  # fmt: skip


def describe(spec: str) -> str:
    """A spec as the report names it: bare ``heuristic`` plays its shipped preset
    (``heuristic-eqN``) at every player count."""
    return "the heuristic" if spec == HEURISTIC else spec


def preset_status() -> str:
    """What the shipped ``heuristic-eqN`` presets are, from their own notes: a sentence
    saying they are placeholders (the family's defaults, not yet tuned) or self-play
    equilibria; ``''`` when their notes say neither."""
    from sims.games.pieceocake.heuristic import PRESETS_FILE

    try:
        data = tomllib.loads(PRESETS_FILE.read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return ""
    notes = {k: str(v.get("note", "")).lower() for k, v in data.items() if isinstance(v, dict)}
    placeholders = sorted(k for k, v in notes.items() if v.startswith("placeholder"))
    if placeholders:
        return (f"The shipped presets {', '.join(placeholders)} are placeholders (the family's "
                "default parameters, not yet tuned to a self-play equilibrium): read 'the "
                "heuristic' as a reasonable player, not as equilibrium play.")  # fmt: skip
    tuned = sorted(k for k, v in notes.items() if "equilibrium" in v)
    if notes and len(tuned) == len(notes):
        return (f"The shipped presets {', '.join(tuned)} are self-play equilibria of the "
                "family (slicelab equilibrium; each preset's note in "
                "sims/games/pieceocake/data/presets.toml gives the best deviation found "
                "against it).")  # fmt: skip
    return ""
