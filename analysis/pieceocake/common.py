"""What a Piece o' Cake study block plays, read from a dataset's manifest: its arms, player
counts, strategies (and the value a parameter takes in its field), rules and cake; and the
small helpers the other modules share (per-game ratios with intervals clustered by game)."""

from __future__ import annotations

import math
import tomllib

import numpy as np
import polars as pl
from scipy import stats

from analysis.stats import cluster_variance
from sims.games.pieceocake.cake import Cake
from sims.games.pieceocake.rules import Rules

HEURISTIC = "heuristic"


def block_arms(manifest: dict, group: str) -> list[dict]:
    """The manifest arms of a study block, in study order."""
    return [a for a in manifest["study"]["arms"] if a.get("group", a["name"]) == group]


def has_block(manifest: dict, group: str) -> bool:
    return bool(block_arms(manifest, group))


def block_counts(manifest: dict, group: str) -> list[int]:
    """The player counts a block plays, ascending."""
    return sorted({a["players"] for a in block_arms(manifest, group)})


def block_specs(manifest: dict, group: str) -> list[str]:
    """The distinct strategy specs of a block, in seat order of first appearance."""
    specs: dict[str, None] = {}
    for a in block_arms(manifest, group):
        specs.update(dict.fromkeys(a["strategies"]))
    return list(specs)


def field_spec(manifest: dict, group: str) -> str | None:
    """The spec of a block's field: every seat of a uniform block; in a rotated block the
    seats other than the candidate's (``seat == rotation``)."""
    for a in block_arms(manifest, group):
        rot = a.get("rotation", 0)
        others = [s for k, s in enumerate(a["strategies"]) if k != rot]
        return others[0] if others else a["strategies"][0]
    return None


def candidate_spec(manifest: dict, group: str) -> str | None:
    """The candidate's spec (the seat ``rotation``) of a block's first arm."""
    for a in block_arms(manifest, group):
        return a["strategies"][a.get("rotation", 0)]
    return None


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


# ----------------------------------------------------------------------------- intervals


def ratio_interval(num: np.ndarray, den: np.ndarray, level: float = 0.95, share: bool = True):
    """``sum(num) / sum(den)`` over independent units (one value each, e.g. a game's
    forgone turns and its turns), with a t interval from the ratio's linearisation:
    ``(estimate, low, high, units)``; a ``share`` keeps its interval within [0, 1]."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    g, total = len(num), den.sum()
    if g == 0 or total <= 0:
        return float("nan"), float("nan"), float("nan"), g
    r = float(num.sum() / total)
    var, g = cluster_variance((num - r * den) / total, np.arange(g))
    if not np.isfinite(var):
        return r, float("nan"), float("nan"), g
    half = stats.t.ppf(0.5 + level / 2, g - 1) * math.sqrt(var)
    low, high = r - half, r + half
    if share:
        low, high = max(low, 0.0), min(high, 1.0)
    return r, low, high, g


def group_difference(
    y: np.ndarray, in_group: np.ndarray, clusters: np.ndarray, level: float = 0.95
) -> tuple[float, float, float, int]:
    """Mean of ``y`` in the group minus out of it, rows clustered (the seats of one game),
    with a cluster-robust t interval: ``(difference, low, high, clusters)``."""
    y = np.asarray(y, dtype=float)
    g = np.asarray(in_group, dtype=bool)
    n1, n0 = int(g.sum()), int((~g).sum())
    if n1 < 1 or n0 < 1:
        return float("nan"), float("nan"), float("nan"), len(np.unique(clusters))
    m1, m0 = y[g].mean(), y[~g].mean()
    infl = np.where(g, (y - m1) / n1, -(y - m0) / n0)
    var, k = cluster_variance(infl, clusters)
    d = float(m1 - m0)
    if not np.isfinite(var) or k < 2:
        return d, float("nan"), float("nan"), k
    half = stats.t.ppf(0.5 + level / 2, k - 1) * math.sqrt(var)
    return d, d - half, d + half, k


def game_ids(frame: pl.DataFrame) -> np.ndarray:
    """A game's identity in a frame of one block: its arm and ``game_index``."""
    return (frame["arm"].cast(pl.String) + "/" + frame["game_index"].cast(pl.String)).to_numpy()
