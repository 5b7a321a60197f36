"""Balance as a function of skill, for any game: the matchup matrix of a game's skill
levels and its headlines at every level, with a sentence saying how each moves as skill
rises.

A game declares its levels, weakest first (:class:`SkillLevels`): each a strategy spec
and, optionally, the study block that seats it everywhere (its seat question). The study
plays the **matchups** in blocks whose names start with ``skill`` (:data:`PREFIX`): rotated
arms (``rotate = true``) in which one seat plays a *challenger* and every other seat the
*field*, each seat in turn on the same deals. A cell of the matrix is the challenger's
gain: its win share minus the fair share ``1/n``, averaged over the rotations of a deal,
with a t interval over the deals (the independent unit; the rotations of one deal are one
cluster). In the diagonal every seat plays the same spec, so the gain is 0 by construction.

The main field's **exploitability** by a level is that level's cell against the main
field: what one seat of it gains among the main field's players.

Which levels are **strong enough to matter** is the verdict layer's rule, computed here
once (:func:`weak_specs`) and applied by :func:`analysis.robust.vetoes` (through
:func:`analysis.robust.weak_fields`; the rule itself, stated once for every layer, is
:func:`sims.core.levels.is_weak`): a level whose single seat loses to the main field by
more than ``WEAK_GAP`` pp (the upper end of its interval below ``-WEAK_GAP``) at a
count describes how weaker players fare there and never vetoes a claim about the main
field's play; every other level vetoes.

How a headline **moves with skill** (:func:`trend`) compares the levels that veto, in
their declared order (random and the other weak levels are shown, never judged):

- ``flips``: one level's interval lies above 0 and another's below;
- ``grows`` / ``shrinks``: the strongest level's estimate differs from the weakest
  judged level's with an interval (of the difference, the two blocks' intervals combined as
  independent) that excludes 0, and its size is larger / smaller;
- ``holds``: every judged interval excludes 0 with one sign and no difference is clear;
- ``none``: no judged interval excludes 0;
- ``unclear``: some do and some do not, with no clear difference;
- ``single``: only one level is strong enough to judge: no trend can be read.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
import polars.selectors  # noqa: F401 (pl.selectors)

from analysis import load
from analysis.stats import mean_interval, wilson_interval
from sims.core.levels import is_weak

PREFIX = "skill"
"""Study blocks whose names start with this hold the matchups."""
HALF_WIDTH = 2.0
"""pp: the half-width a matchup cell's interval should have at most (the issue's target;
the section names the cells that miss it)."""

MATCHUP_SCHEMA = {
    "players": pl.Int64,
    "one": pl.String,
    "field": pl.String,
    "deals": pl.Int64,
    "distinct": pl.Int64,
    "win_share": pl.Float64,
    "gain_pp": pl.Float64,
    "gain_low": pl.Float64,
    "gain_high": pl.Float64,
}
"""The columns of :func:`matchups`: per player count, challenger spec (``one``) and field
spec, the deals played and how many of them are distinct games (every seat's score in every
rotation: a game without chance between players who draw nothing is one game, however
often replayed), the challenger's mean win share and its gain over the fair share (pp) with
its 95% interval over the deals (a point when every deal is the same game: the number is
then exact for that game, not a sample)."""


@dataclass(frozen=True)
class Level:
    """One skill level of a game.

    Attributes
    ----------
    name : str
        As a reader sees it: ``"greedy"``, ``"the heuristic field"``.
    spec : str
        The strategy spec the matchup blocks seat for it.
    seats : str
        The study block seating it in every seat (its seat question), or ``""``.
    short : str
        A word for a chart's tick or a table's column (default: the spec's family).
    """

    name: str
    spec: str
    seats: str = ""
    short: str = ""


@dataclass(frozen=True)
class SkillLevels:
    """A game's skill levels, weakest first, and which is its main field.

    Attributes
    ----------
    levels : tuple of Level
        Weakest first: the order "as skill rises" in every sentence.
    main : str
        The spec of the main field (the players page 1 is computed from).
    first_edges : callable, optional
        ``first_edges(out, block) -> frame`` of ``players, games, first_edge_pp,
        first_low, first_high``: the first player's edge in a seat block, as the game's
        seat question defines it (by turn position where the first seat rotates); default
        seat 0's (:func:`analysis.seats.seat_fairness`).
    """

    levels: tuple[Level, ...]
    main: str
    first_edges: Callable[[Any, str], pl.DataFrame] | None = None

    def __post_init__(self) -> None:
        specs = [v.spec for v in self.levels]
        if len(set(specs)) != len(specs):
            raise ValueError(f"skill levels repeat a spec: {specs}")
        if self.main not in specs:
            raise ValueError(f"the main field {self.main!r} is not a skill level ({specs})")

    def name(self, spec: str) -> str:
        """The level's name of a spec (the spec itself when it is no level)."""
        return next((v.name for v in self.levels if v.spec == spec), spec)

    def short(self, spec: str) -> str:
        """The level's short name of a spec (its family when it is no level)."""
        v = next((v for v in self.levels if v.spec == spec), None)
        return v.short if v is not None and v.short else spec.split("(", 1)[0]

    def order(self, spec: str) -> int:
        """A spec's place as skill rises (specs that are no level come last)."""
        specs = [v.spec for v in self.levels]
        return specs.index(spec) if spec in specs else len(specs)


def skill_blocks(out) -> list[str]:
    """The dataset's matchup blocks (names starting with :data:`PREFIX`), study order."""
    groups = load.arms(out)["group"].to_list()
    return [g for g in dict.fromkeys(groups) if g.startswith(PREFIX)]


def matchups(out) -> pl.DataFrame:
    """The matchup cells of a dataset's skill blocks (:data:`MATCHUP_SCHEMA`).

    Every untreated arm of a skill block must seat one challenger (the spec in seat
    ``rotation``) against one field spec in every other seat; a block that does not is
    refused with a message naming it. Cells whose arms differ only by rotation are pooled
    by deal (``game_index``): a deal's gain is its rotations' mean win share of the
    challenger minus ``1/n``; deals some rotation did not play are left out.
    """
    cells: dict[tuple[int, str, str], list[pl.DataFrame]] = {}
    meta = load.arms(out)
    for group in skill_blocks(out):
        players, _ = load.block_frames(out, group)
        arms = meta.filter((pl.col("group") == group) & (pl.col("treatment") == ""))
        for a in arms.iter_rows(named=True):
            specs, k = list(a["strategies"]), a["rotation"]
            one, rest = specs[k], [s for i, s in enumerate(specs) if i != k]
            if len(set(rest)) > 1:
                raise ValueError(
                    f"skill block {group!r}: arm {a['arm']!r} seats {specs}; a skill block "
                    "seats one challenger against one field spec (strategies = [challenger, "
                    "field], rotate = true)"
                )
            field = rest[0] if rest else one
            arm = players.filter(pl.col("arm") == a["arm"])
            # a game's signature: every seat's score, so that replays of one game (a field
            # that draws nothing on a game without chance) are counted once
            sig = arm.sort("seat").group_by("game_index", maintain_order=True).agg(
                pl.col("score").cast(pl.String).str.join(",").alias("sig"))  # fmt: skip
            seat = arm.filter(pl.col("seat") == k).select("game_index", "win_share")
            key = (int(a["players"]), one, field)
            cells.setdefault(key, []).append(seat.join(sig, on="game_index"))
    rows = []
    for (n, one, field), parts in sorted(cells.items()):
        joined = pl.concat([p.with_columns(pl.lit(i).alias("r")) for i, p in enumerate(parts)])
        wide = joined.pivot(on="r", index="game_index", values=["win_share", "sig"])
        wide = wide.drop_nulls().sort("game_index")
        share = wide.select(pl.selectors.starts_with("win_share")).to_numpy().astype(float)
        distinct = wide.select(pl.concat_str(pl.selectors.starts_with("sig"), separator="|")
                               ).to_series().n_unique()  # fmt: skip
        m, lo, hi = (0.0, 0.0, 0.0) if one == field else gain_interval(share, n)
        if distinct == 1 and share.shape[0] > 1:  # one game replayed: exact, not a sample
            lo = hi = m
        rows.append({"players": n, "one": one, "field": field, "deals": share.shape[0],
                     "distinct": distinct,
                     "win_share": float(share.mean()) if share.size else math.nan,
                     "gain_pp": m, "gain_low": lo, "gain_high": hi})  # fmt: skip
    return pl.DataFrame(rows, schema=MATCHUP_SCHEMA)


def gain_interval(share: np.ndarray, n: int) -> tuple[float, float, float]:
    """A challenger's gain over the fair share, pp, with its 95% t interval over deals.

    Parameters
    ----------
    share : ndarray
        ``(deals, rotations)``: the challenger's win share in each rotation of each deal.
    n : int
        The player count (the fair share is ``1/n``).

    Returns
    -------
    (float, float, float)
        The mean over deals of the rotations' mean share minus ``1/n``, in pp, and its
        interval: the deal is the independent unit (its rotations share its cards). When
        every deal has the same share (one level wins every game), the t interval has
        width 0 and the Wilson interval of the deals' shares is given instead. The interval
        is clipped to the gains a share can have, ``[-100/n, 100 (1 - 1/n)]``.
    """
    per_deal = np.asarray(share, dtype=float).mean(axis=1)
    m, lo, hi = mean_interval(100 * (per_deal - 1 / n))
    if len(per_deal) and np.ptp(per_deal) == 0:
        # every deal alike (one level wins every game): the t interval has width 0, the
        # Wilson interval of the deals' shares still says how few deals there were
        wlo, whi = wilson_interval(float(per_deal.sum()), len(per_deal))
        lo, hi = 100 * (wlo - 1 / n), 100 * (whi - 1 / n)
    # a share lies in [0, 1]: the gain in [-100/n, 100 (1 - 1/n)]
    return m, max(lo, -100 / n), min(hi, 100 * (1 - 1 / n))


def cell(table: pl.DataFrame, players: int, one: str, field: str) -> dict | None:
    """One matchup cell as a dict, or None when the study did not play it."""
    t = table.filter(
        (pl.col("players") == players) & (pl.col("one") == one) & (pl.col("field") == field)
    )
    return t.row(0, named=True) if t.height else None


def exploitability(table: pl.DataFrame, levels: SkillLevels) -> pl.DataFrame:
    """Per player count, the largest gain of a single seat of another level among the
    main field (``players, one, gain_pp, gain_low, gain_high, deals``): its
    exploitability by the levels the study played (the largest of several estimates,
    stated as found, not as a bound on every deviation)."""
    rows = []
    for n in sorted(table["players"].unique()):
        t = table.filter((pl.col("players") == n) & (pl.col("field") == levels.main)
                         & (pl.col("one") != levels.main))  # fmt: skip
        if t.height:
            rows.append(t.sort("gain_pp", descending=True).row(0, named=True))
    cols = ["players", "one", "gain_pp", "gain_low", "gain_high", "deals"]
    if not rows:
        return pl.DataFrame(schema={c: MATCHUP_SCHEMA[c] for c in cols})
    return pl.DataFrame(rows).select(cols)


def weak_specs(table: pl.DataFrame, levels: SkillLevels, players: int | None = None) -> set[str]:
    """The specs weaker than the players a verdict describes (see the module docstring):
    at ``players`` (every count when None: weak at all of them), the level's single seat
    among the main field has its gain's upper end below ``-WEAK_GAP``."""
    counts = sorted(table["players"].unique()) if players is None else [players]
    weak = set()
    for v in levels.levels:
        if v.spec == levels.main:
            continue
        cs = [cell(table, n, v.spec, levels.main) for n in counts]
        if is_weak(None if c is None else c["gain_high"] for c in cs):
            weak.add(v.spec)
    return weak


# ----------------------------------------------------------------------------- trends

TRENDS = ("flips", "grows", "shrinks", "holds", "none", "unclear", "single")
"""The outcomes of :func:`trend`."""


def _excludes(low: float, high: float) -> int:
    if not (np.isfinite(low) and np.isfinite(high)):
        return 0
    return 1 if low > 0 else -1 if high < 0 else 0


def trend(values: Sequence[tuple[str, float, float, float]]) -> tuple[str, str]:
    """How an effect moves as skill rises (see the module docstring).

    Parameters
    ----------
    values : sequence of (name, estimate, low, high)
        The judged levels' estimates, weakest first, on one scale.

    Returns
    -------
    (str, str)
        The outcome (:data:`TRENDS`) and a clause saying it, naming the levels.
    """
    vals = [v for v in values if np.isfinite(v[1])]
    if not vals:
        return "none", "no level was measured"
    signs = [_excludes(lo, hi) for _, _, lo, hi in vals]
    names = [v[0] for v in vals]
    if 1 in signs and -1 in signs:
        up = [n for n, s in zip(names, signs, strict=True) if s > 0]
        down = [n for n, s in zip(names, signs, strict=True) if s < 0]
        return "flips", (f"it flips: above 0 with {' and '.join(up)}, below with "
                         f"{' and '.join(down)}")  # fmt: skip
    if len(vals) == 1:
        where = "above" if signs[0] > 0 else "below" if signs[0] < 0 else "not clear of"
        return "single", (f"only {names[0]} is strong enough to judge ({where} 0): no trend "
                          "with skill can be read")  # fmt: skip
    (a, ea, la, ha), (b, eb, lb, hb) = vals[0], vals[-1]
    d = eb - ea
    half = math.hypot((ha - la) / 2, (hb - lb) / 2)
    if abs(d) > half:
        word = "grows" if abs(eb) > abs(ea) else "shrinks"
        return word, (f"it {word} as skill rises: {ea:+.1f} with {a}, {eb:+.1f} with {b} "
                      f"(difference {d:+.1f} ± {half:.1f})")  # fmt: skip
    if all(s != 0 for s in signs):
        side = "above" if signs[0] > 0 else "below"
        return "holds", f"it holds: {side} 0 at every level ({', '.join(names)})"
    if all(s == 0 for s in signs):
        return "none", f"no level shows it ({', '.join(names)} all cover 0)"
    covers = [n for n, s in zip(names, signs, strict=True) if s == 0]
    verb = "covers" if len(covers) == 1 else "cover"
    return "unclear", f"unclear: {' and '.join(covers)} {verb} 0 without a clear difference"


def seat_by_level(out, levels: SkillLevels) -> pl.DataFrame:
    """The first player's edge at every level that has a seat block (``level, spec,
    players, games, first_edge_pp, first_low, first_high``; pp over the fair share, t
    interval over games: :func:`analysis.seats.seat_fairness`, a point where every game of
    the block is one game replayed; or the game's own :attr:`SkillLevels.first_edges`)."""
    from analysis import seats

    present = set(load.arms(out)["group"])
    parts = []
    for v in levels.levels:
        if v.seats and v.seats in present:
            if levels.first_edges is None:
                f = seats.seat_fairness(out, v.seats)
                exact = pl.col("players").is_in(_one_game_counts(out, v.seats))
                f = f.with_columns(pl.when(exact).then(pl.col("first_edge_pp"))
                                   .otherwise(pl.col(c)).alias(c)
                                   for c in ("first_low", "first_high"))  # fmt: skip
            else:
                f = levels.first_edges(out, v.seats)
            parts.append(f.select("players", "games", "first_edge_pp", "first_low",
                                  "first_high").with_columns(
                pl.lit(v.name).alias("level"), pl.lit(v.spec).alias("spec")))  # fmt: skip
    if not parts:
        return pl.DataFrame()
    return pl.concat(parts).select("level", "spec", "players", "games", "first_edge_pp",
                                   "first_low", "first_high")  # fmt: skip


def _one_game_counts(out, block: str) -> list[int]:
    """The player counts at which every game of a block is the same game (every seat's
    score alike in every game, more than one game): its numbers there are exact, with no
    interval to give."""
    players, _ = load.block_frames(out, block)
    sig = players.sort("seat").group_by("players", "game_index", maintain_order=True).agg(
        pl.col("score").cast(pl.String).str.join(",").alias("sig"))  # fmt: skip
    per = sig.group_by("players").agg(pl.col("sig").n_unique().alias("k"), pl.len().alias("g"))
    return sorted(int(n) for n in per.filter((pl.col("k") == 1) & (pl.col("g") > 1))["players"])


def level_trends(
    by_level: pl.DataFrame,
    levels: SkillLevels,
    weak: Callable[[int], set[str]],
    estimate: str = "first_edge_pp",
    low: str = "first_low",
    high: str = "first_high",
) -> pl.DataFrame:
    """:func:`trend` per player count over the levels that veto there (``weak(n)``: the
    specs that do not), weakest first: ``players, trend, text``."""
    rows = []
    for n in sorted(by_level["players"].unique()):
        t = by_level.filter(pl.col("players") == n)
        t = t.with_columns(pl.col("spec").map_elements(levels.order, pl.Int64).alias("_o"))
        judged = [(x["level"], x[estimate], x[low], x[high])
                  for x in t.sort("_o").iter_rows(named=True)
                  if x["spec"] not in weak(n)]  # fmt: skip
        outcome, text = trend(judged)
        rows.append({"players": n, "trend": outcome, "text": text})
    return pl.DataFrame(rows, schema={"players": pl.Int64, "trend": pl.String, "text": pl.String})
