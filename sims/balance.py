"""``slicelab balance``: the smallest change to a game's knobs that makes its seats fair.

A *setting* gives each chosen knob (:mod:`sims.core.knobs`) a value; the *base* is the
game as the designer plays it (the printed rules, or their variant's rule options). For a
setting, every player count asked for is played with the field in every seat, and each
turn position's edge is its win share minus the fair share ``1/n`` (pp). The target: every
position within ``±tolerance`` (default 1 pp) of fair at every count.

The search is successive halving over paired deals (Jamieson & Talwalkar 2016): every
setting of the grid (all of it when small, else a sample that always holds the base)
plays the same block of deals at every count, the worse half by the largest edge is
dropped, and the survivors play the next block, twice as long, until ``finalists`` are
left. Playing every setting on the same deals pairs their differences (the luck of a deal
is shared), so a block of a few hundred games tells a wide gap from a narrow one.

The finalists and the base are then measured on fresh deals, never used to choose them
(a separate seed): each position's edge with its 95% t interval over games. A setting is
*fair* when every position's interval lies within ``±tolerance`` at every count, *unfair*
when some position's lies wholly outside it, else *unclear* (more games would tell). They
are ranked fair first, smallest change first (the sum of the knobs' sizes: steps of a
number, 1 for another choice), then by their largest edge; then the unclear and then the
unfair, each by their largest edge (the smaller change among equals). When the base ranks
first, no change is needed: it is shown fair, or nothing is and it is the closest to fair.
When every setting is unfair, a change ranks before the base only if it clearly does better
(its largest edge's corrected interval lies wholly below the base's largest edge); else the
base ranks first and no change found helps.
The largest edge of each is also given with the interval corrected for picking it as the
largest of every position at every count (Bonferroni).

Every play is cached under the run's folder (``state``) as soon as it is played, keyed by
what was played; a run interrupted and started again with the same arguments loads what
it has and plays the rest, to the same result.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import os
import re
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sims.arena import play_rotated
from sims.batch import one_arm, play_arm
from sims.core.errors import SlicelabError
from sims.core.game import get_game
from sims.core.intervals import mean_interval
from sims.core.knobs import Knob, find_knob, knob_data_dir, values_text
from sims.core.levels import is_weak

Setting = tuple[tuple[str, Any], ...]
"""Knob name → value pairs, in the order the knobs were chosen."""
STATUSES = ("fair", "unclear", "unfair")
"""A held-out setting's standing against the target, best first (:meth:`Measured.status`)."""


@dataclass
class Edges:
    """One setting at one player count: each turn position's edge over the fair share
    (pp), its 95% t interval over games, and the games played."""

    players: int
    games: int
    edge: np.ndarray
    low: np.ndarray
    high: np.ndarray

    @property
    def worst(self) -> float:
        """The largest edge in absolute value (pp)."""
        return float(np.abs(self.edge).max())


@dataclass
class Measured:
    """A setting's measurements: by player count, on the selection deals (``selection``,
    growing round by round) and on fresh deals (``held_out``)."""

    setting: Setting
    size: float
    shares: dict[int, list[np.ndarray]] = field(default_factory=dict)
    held_out: dict[int, Edges] = field(default_factory=dict)
    checks: dict[tuple[str, int], Edges] = field(default_factory=dict)
    """Held-out edges in each other field checked (field spec, count)."""
    ladder: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    """By count: one seat of the main field among the weaker field, its gain over the fair
    share on fresh seat-rotated deals (pp, 95% interval over deals): the skill gap."""
    ladder_change: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    """By count: its skill gap minus the base's, paired by deal (pp, 95% interval)."""
    ladder_lost: list[int] = field(default_factory=list)
    """The counts where the base has a skill ladder (its gap's interval wholly above 0)
    and this setting's gap is clearly smaller (the paired change's interval wholly below
    0): the ladder is not kept there."""

    def selection_worst(self) -> float:
        """The largest edge over every count on the selection deals so far (pp)."""
        return max(edges(s, np.vstack(b)).worst for s, b in self.shares.items())

    def missed_in(self, tolerance: float) -> list[str]:
        """Where the setting misses a target: ``main`` (the main field) or a checked
        field's spec, where some held-out position's interval lies wholly outside
        ``±tolerance``; ``skill gap`` where the ladder is not kept (:attr:`ladder_lost`)."""
        found = ["main"] if any(_outside(e, tolerance) for e in self.held_out.values()) else []
        found += sorted({f for (f, _), e in self.checks.items()
                         if f not in self.weak_fields and _outside(e, tolerance)})  # fmt: skip
        b = self.component_bound
        beyond = b is not None and any(lo > b or hi < -b for _, lo, hi in self.components.values())
        return found + (["skill gap"] if self.ladder_lost else []) + (
            ["components"] if beyond else [])  # fmt: skip

    def worst(self) -> float:
        """The largest held-out edge over every count (pp)."""
        return max(e.worst for e in self.held_out.values())

    def status(self, tolerance: float) -> str:
        """Its standing against the targets (:func:`status_of`): the edges of the main
        field and of every field checked, and the skill ladder kept."""
        vetoing = [e for (f, _), e in self.checks.items() if f not in self.weak_fields]
        return status_of([*self.held_out.values(), *vetoing], tolerance, bool(self.ladder_lost),
                         list(self.components.values()), self.component_bound)  # fmt: skip

    def largest_component(self) -> tuple[str, int, float, float, float] | None:
        """The component worth the most in absolute value: ``(component, players, worth,
        low, high)``; None when none was measured."""
        if not self.components:
            return None
        (c, n), w = max(self.components.items(), key=lambda kv: abs(kv[1][0]))
        return c, n, *w

    def worst_interval(self, level: float = 0.95) -> tuple[int, int, float, float, float]:
        """The largest held-out edge: ``(players, position, edge, low, high)``, its interval
        corrected for picking it from every position at every count (Bonferroni)."""
        m = sum(len(e.edge) for e in self.held_out.values())
        best = max(
            ((n, p) for n, e in self.held_out.items() for p in range(len(e.edge))),
            key=lambda np_: abs(self.held_out[np_[0]].edge[np_[1]]),
        )
        e = self.held_out[best[0]]
        shares = self._held_shares[best[0]][:, best[1]]
        lo, hi = _t_interval(shares, 1 - (1 - level) / m)
        fair = 100 / best[0]
        return best[0], best[1], float(e.edge[best[1]]), 100 * lo - fair, 100 * hi - fair

    components: dict[tuple[str, int], tuple[float, float, float]] = field(default_factory=dict)
    """By (component, count): what the component is worth to a seat of the main field, its
    win share minus that of a seat playing without it among the same field (pp, 95% t
    interval over deals): the component target's measure."""
    component_bound: float | None = None
    """The component target (pp): every component's worth within ``±`` this; None: none."""
    weak_fields: frozenset[str] = frozenset()
    """The checked fields weaker than the main field (:func:`sims.core.levels.is_weak`):
    their edges are measured and shown, and veto nothing, as in the report's verdicts."""

    _held_shares: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    _ladder_gains: dict[int, np.ndarray] = field(default_factory=dict, repr=False)


@dataclass
class BalanceResult:
    """A run's outcome: the finalists ranked (the first is the recommendation), the base
    as measured on the same fresh deals, the rounds, and what it cost."""

    game: str
    players: tuple[int, ...]
    field: str
    knobs: tuple[Knob, ...]
    base: dict[str, Any]
    tolerance: float
    ranked: list[Measured]
    base_measured: Measured
    rounds: list[list[tuple[Setting, float, int]]]
    held_out_seed: int
    held_out_games: int
    games_played: int
    """Games the search rests on (those kept from an earlier run included)."""
    seconds: float
    """Wall time of this run."""
    games_new: int = 0
    """Games this run played (the rest were kept from an interrupted one)."""
    check_fields: tuple[str, ...] = ()
    ladder_field: str | None = None
    check_gaps: dict[str, dict[int, tuple[float, float, float]]] = field(default_factory=dict)
    """By checked field and count: one seat of it among the main field under the game as
    it is, its gain over the fair share (pp, 95% interval over deals)."""
    weak_checks: tuple[str, ...] = ()
    """The checked fields weak at every count (:func:`sims.core.levels.is_weak`)."""
    component_bound: float | None = None
    """The component target (pp), None when not asked for."""
    refused: dict[Setting, str] = field(default_factory=dict)
    """Settings left out because the rules refuse them, each with the rules' message."""

    @property
    def best(self) -> Measured:
        return self.ranked[0]

    @property
    def no_change(self) -> bool:
        """No change ranks first: the base is shown fair; or nothing is and the base is the
        closest to fair; or every setting misses the target and none clearly does better
        than the base (its largest edge's corrected interval wholly below the base's)."""
        return self.best.size == 0


def _t_interval(values: np.ndarray, level: float) -> tuple[float, float]:
    return mean_interval(values, level)[1:]


def _outside(e: Edges, tolerance: float) -> bool:
    return bool(np.any((e.low > tolerance) | (e.high < -tolerance)))


def status_of(every: Sequence[Edges], tolerance: float, ladder_lost: bool = False,
              worths: Sequence[tuple[float, float, float]] = (),
              bound: float | None = None) -> str:  # fmt: skip
    """A setting's standing against the targets, from its held-out edges in every field
    measured (``every``) and, with a ``bound``, its components' restricted-play worths
    (``worths``: ``(worth, low, high)`` in pp, each held to ``±bound`` as an edge is held to
    ``±tolerance``).

    Returns
    -------
    str
        ``fair``: every position's interval lies within ``±tolerance`` at every count in
        every field, and the skill ladder is kept; ``unfair``: some position's interval
        lies wholly outside it, or the ladder is lost (``ladder_lost``: the skill gap
        clearly smaller than the game's as it is); ``unclear``: neither (more games would
        tell).
    """
    b = float("inf") if bound is None else bound
    if ladder_lost or any(_outside(e, tolerance) for e in every):
        return "unfair"
    if any(lo > b or hi < -b for _, lo, hi in worths):
        return "unfair"
    inside = [(e.low >= -tolerance) & (e.high <= tolerance) for e in every]
    inside_worths = all(-b <= lo and hi <= b for _, lo, hi in worths)
    return "fair" if all(bool(i.all()) for i in inside) and inside_worths else "unclear"


def rank_key(status: str, size: float, worst: float) -> tuple[int, float, float]:
    """The order of the ranking: shown fair, smallest change first; then not shown either
    way, then shown unfair, each closest to fair first (the smaller change among equals).

    Parameters
    ----------
    status : str
        One of :data:`STATUSES`.
    size : float
        The size of the change (:func:`setting_size`).
    worst : float
        Its largest held-out edge (pp).
    """
    if status == "fair":
        return (0, size, worst)
    return (STATUSES.index(status), worst, size)


def clearly_better(corrected: tuple[float, float], base_worst: float) -> bool:
    """Whether a change that misses the target still clearly beats no change: the
    corrected interval of its largest edge (``corrected``, low and high) lies wholly
    below the base's largest edge."""
    return max(abs(corrected[0]), abs(corrected[1])) < base_worst


def edges(players: int, shares: np.ndarray) -> Edges:
    """Each position's edge (pp) from ``shares[g, position]`` (win shares), with its 95% t
    interval over games."""
    fair = 100 / players
    edge = 100 * shares.mean(axis=0) - fair
    lows, highs = zip(*(_t_interval(shares[:, p], 0.95) for p in range(players)), strict=True)
    return Edges(players, len(shares), edge, 100 * np.array(lows) - fair,
                 100 * np.array(highs) - fair)  # fmt: skip


def setting_options(knobs: Sequence[Knob], base: Mapping[str, Any], setting: Setting
                    ) -> dict[str, Any]:  # fmt: skip
    """The arm-block options of ``setting`` over ``base``."""
    by_name = {k.name: k for k in knobs}
    out = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in base.items()}
    for name, value in setting:
        out = by_name[name].set(out, value)
    return out


def setting_size(knobs: Sequence[Knob], base: Mapping[str, Any], setting: Setting) -> float:
    """The size of the change from ``base``: the sum of each knob's
    (:meth:`sims.core.knobs.Knob.size`)."""
    by_name = {k.name: k for k in knobs}
    return sum(by_name[n].size(v, by_name[n].read(base)) for n, v in setting)


def describe(knobs: Sequence[Knob], base: Mapping[str, Any], setting: Setting) -> str:
    """The change in words: ``compensation.1 0 → 2 points`` (``no change`` for the base)."""
    by_name = {k.name: k for k in knobs}
    parts = []
    for name, value in setting:
        k = by_name[name]
        was = k.read(base)
        if value != was:
            unit = ""
            if k.unit and k.numeric:
                unit = " " + (k.unit.removesuffix("s") if abs(value) == 1 else k.unit)
            parts.append(f"{name} {_text(was)} → {_text(value)}{unit}")
    return ", ".join(parts) or "no change"


def _text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


class _Cache:
    """Plays kept on disk as they finish (``.npy``, written atomically): a rerun with the
    same arguments loads them."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.memory: dict[str, np.ndarray] = {}  # this run's plays, asked for again
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)

    def get(self, key: str) -> np.ndarray | None:
        if self.folder is None:
            return None
        path = self.folder / f"{key}.npy"
        if not path.exists():
            return None
        try:
            return np.load(path, allow_pickle=False)
        except (OSError, ValueError):  # a damaged file: played again
            return None

    def put(self, key: str, shares: np.ndarray) -> None:
        self.memory[key] = shares
        if self.folder is None:
            return
        fd, tmp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            np.save(f, shares, allow_pickle=False)
        os.replace(tmp, self.folder / f"{key}.npy")


def position_shares(
    game: str, options: Mapping[str, Any], field_spec: str, players: int, seed: int,
    first: int, games: int, jobs: int = 1,
) -> np.ndarray:  # fmt: skip
    """Games ``first .. first + games - 1`` with ``field_spec`` in every seat under
    ``options``: ``shares[g, position]``, each turn position's win share."""
    the_game = get_game(game)
    arm = one_arm({"name": "balance", "game": game, "players": players,
                   "strategies": field_spec, "games": first + games, **options}, seed)  # fmt: skip
    order = the_game.results.turn_order
    out = np.zeros((games, players))
    for start, tables in play_arm(arm, first, games, jobs=jobs):
        p = tables["players"]
        share = p.column("win_share").to_numpy().reshape(-1, players)
        if order == "seat":
            pos = np.broadcast_to(np.arange(players), share.shape)
        else:
            pos = p.column(order).to_numpy().reshape(-1, players).astype(np.int64)
        rows = np.arange(len(share))[:, None] + (start - first)
        out[rows, pos] = share
    return out


def grid(knobs: Sequence[Knob], limit: int, rng: np.random.Generator, base: Setting
         ) -> list[Setting]:  # fmt: skip
    """Every setting of the knobs' values when there are at most ``limit``, else the base
    and ``limit - 1`` others drawn without replacement."""
    sizes = [len(k.values) for k in knobs]
    total = math.prod(sizes)
    if total <= limit:
        return [tuple(zip([k.name for k in knobs], vals, strict=True))
                for vals in itertools.product(*(k.values for k in knobs))]  # fmt: skip
    picked = {base}
    while len(picked) < limit:
        vals = tuple(k.values[int(rng.integers(len(k.values)))] for k in knobs)
        picked.add(tuple(zip([k.name for k in knobs], vals, strict=True)))
    return sorted(picked, key=lambda s: s != base)


SAMPLERS = ("grid", "tpe")
"""How the first round's settings are chosen when the knobs' grid has more than
``candidates``: ``grid`` draws them at random; ``tpe`` proposes them one by one with
Optuna's Tree-structured Parzen Estimator, each scored on the first round's deals before
the next is proposed (:func:`proposed`)."""


def proposed(knobs: Sequence[Knob], limit: int, base: Setting, seed: int,
             score: Callable[[Setting], float | None]) -> list[Setting]:  # fmt: skip
    """``limit`` distinct settings (the base first) chosen by Optuna's TPE sampler
    minimising ``score`` (the largest edge on the first round's deals, pp, plus a
    hundredth of the change's size, which breaks ties towards smaller changes).

    The sampler is seeded and asked one trial at a time, so the same seed and scores give
    the same settings; a setting it proposes again is told its known score and not counted.
    It stops after ``20 * limit`` proposals if the space holds too few it would propose.
    A setting scored None (the rules refuse it) is told as failed and not counted.
    """
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(5, limit // 2))
    study = optuna.create_study(direction="minimize", sampler=sampler)
    names = [k.name for k in knobs]
    scores: dict[Setting, float] = {}
    refused: set[Setting] = set()

    def setting_of(indices: Sequence[int]) -> Setting:
        return tuple(zip(names, (k.values[i] for k, i in zip(knobs, indices, strict=True)),
                         strict=True))  # fmt: skip

    base_idx = {k.name: k.values.index(v) for k, (_, v) in zip(knobs, base, strict=True)}
    study.enqueue_trial(base_idx)  # the game as it is, scored first
    for _ in range(20 * limit):
        if len(scores) >= limit:
            break
        trial = study.ask()
        idx = [trial.suggest_int(k.name, 0, len(k.values) - 1) if k.numeric
               else trial.suggest_categorical(k.name, list(range(len(k.values))))
               for k in knobs]  # fmt: skip
        s = setting_of(idx)
        if s in refused:
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
            continue
        if s not in scores:
            got = score(s)
            if got is None:  # the rules refuse it: never a candidate, told as failed
                refused.add(s)
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
                continue
            scores[s] = got
        study.tell(trial, scores[s])
    return list(scores)


def balance(
    game: str,
    players: Sequence[int],
    knob_names: Sequence[str],
    field_spec: str | None = None,
    base: Mapping[str, Any] | None = None,
    tolerance: float = 1.0,
    candidates: int = 32,
    games: int = 200,
    finalists: int = 4,
    held_out_games: int = 2000,
    seed: int = 1,
    jobs: int = 1,
    state: Path | None = None,
    values: Mapping[str, Sequence[Any]] | None = None,
    check_fields: Sequence[str] = (),
    ladder_field: str | None = None,
    on_round: Callable[[int, list[Measured], int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    sampler: str = "grid",
    component_bound: float | None = None,
) -> BalanceResult:
    """Search ``knob_names`` of ``game`` for the smallest change that makes every turn
    position fair within ``tolerance`` pp at every count of ``players``.

    Parameters
    ----------
    game : str
        A registered game.
    players : sequence of int
        The player counts every setting is played at.
    knob_names : sequence of str
        The knobs to change (``Game.knobs``); each must act at some count of ``players``.
    field_spec : str, optional
        The strategy in every seat (default: the game's main field).
    base : mapping, optional
        The arm-block options of the game as played now (a variant's rule options).
    tolerance : float
        The target: every position within ± this many pp of fair.
    candidates : int
        Settings in the first round (the whole grid when it is smaller).
    games : int
        Games per count and setting in the first round (doubled each round).
    finalists : int
        Settings left when the halving stops, measured on fresh deals.
    held_out_games : int
        Fresh games per count and setting for the finalists and the base.
    seed : int
        Seeds the sample of the grid, the selection deals and the fresh ones.
    state : Path, optional
        The folder plays are cached in (a rerun resumes from it); None: nothing is kept.
    values : mapping, optional
        Knob name → the values to try (a subset of the knob's), narrowing its range.
    check_fields : sequence of str
        Other fields (a skill level the verdicts rest on) every finalist and the base are
        also measured in on the fresh deals: a setting is fair only when fair in all.
    ladder_field : str, optional
        A weaker field: one seat of the main field among it, every seat in turn, on
        ``held_out_games // 4`` fresh deals per count (at least 100), gives each finalist's
        skill gap (:attr:`Measured.ladder`), a side effect to read beside the base's.
    on_round, on_start : callable, optional
        Progress: ``on_start(settings)`` once everything is checked, before any game;
        ``on_round(round, pool, games)`` after each round, the pool sorted best first.
    sampler : {"grid", "tpe"}
        How the first round's settings are chosen from a grid larger than ``candidates``
        (:data:`SAMPLERS`).
    component_bound : float, optional
        The component target (pp): each finalist's components (the game's
        :attr:`~sims.core.game.Game.restricted_play`) are each worth within ``±`` this at
        every count: a seat of the main field playing without one, every seat in turn
        among the main field on fresh deals (:func:`ladder_deals`), gives up no more than
        that, nor gains more. None: not measured.

    Raises
    ------
    SlicelabError
        An unknown knob, a knob that does nothing at every count asked for, or a value a
        knob cannot take.
    """
    t0 = time.monotonic()
    the_game = get_game(game)
    title = the_game.info.title
    players = tuple(sorted(set(players)))
    for n in players:
        the_game.info.check_players(n)
    field_spec = field_spec or the_game.info.main_field
    base = dict(base or {})
    if not knob_names:
        raise SlicelabError(f"name at least one knob (--knob); {title}'s: "
                            + ", ".join(k.name for k in the_game.knobs))  # fmt: skip
    chosen = []
    for name in knob_names:
        k = find_knob(the_game.knobs, name, title)
        if not any(k.acts_at(n) for n in players):
            where = (f"{k.min_players} or more players" if k.max_players is None
                     else f"{k.min_players} to {k.max_players} players")  # fmt: skip
            raise SlicelabError(
                f"knob {name} changes nothing at {', '.join(map(str, players))} players (it "
                f"acts at {where}); choose a count where it acts (--players)"
            )
        if values and name in values:
            bad = [v for v in values[name] if v not in k.values]
            if bad:
                raise SlicelabError(f"knob {name}: {bad[0]!r} is not one of its values")
            vals = tuple(v for v in k.values if v in set(values[name]) | {k.read(base)})
            default = k.default if k.default in vals else vals[0]
            k = dataclasses.replace(k, values=vals, default=default)
        if k.read(base) not in k.values:
            raise SlicelabError(
                f"knob {name}: the game as it is has {k.read(base)!r}, not one of the knob's "
                f"values ({values_text(k.values)}); set it to one of them or drop the knob"
            )
        chosen.append(k)
    if len({k.name for k in chosen}) != len(chosen):
        raise SlicelabError("a knob is named twice (--knob)")
    # the base checked as an arm (its rule options valid at every count)
    for n in players:
        one_arm({"name": "base", "game": game, "players": n, "strategies": field_spec,
                 "games": 1, **base}, seed)  # fmt: skip
    ss = np.random.SeedSequence([seed, 20261207])
    grid_ss, select_ss, held_ss = ss.spawn(3)
    select_seed = int(select_ss.generate_state(1)[0])
    held_seed = int(held_ss.generate_state(1)[0])
    base_setting: Setting = tuple((k.name, k.read(base)) for k in chosen)
    restricted = the_game.restricted_play if component_bound is not None else None
    if component_bound is not None and restricted is None:
        raise SlicelabError(f"{title} declares no restricted play (no strategy plays without "
                            "one component), so the component target cannot be measured; "
                            "drop --component-bound")  # fmt: skip
    if sampler not in SAMPLERS:
        raise SlicelabError(f"sampler {sampler!r}: use one of {', '.join(SAMPLERS)}")
    adaptive = sampler == "tpe" and math.prod(len(k.values) for k in chosen) > candidates

    refused: dict[Setting, str] = {}

    def valid(s: Setting) -> bool:
        """Whether the rules accept the setting at every count: knobs valid one by one
        may not be together (three varieties two copies short leave a cake too small to
        lay), and such a setting is left out, its reason kept (``refused``)."""
        if s in refused:
            return False
        try:
            for n in players:
                one_arm({"name": "check", "game": game, "players": n,
                         "strategies": field_spec, "games": 1,
                         **setting_options(chosen, base, s)}, seed)  # fmt: skip
        except SlicelabError as e:
            refused[s] = str(e)
            return False
        return True

    settings = [] if adaptive else grid(chosen, candidates, np.random.default_rng(grid_ss),
                                        base_setting)  # fmt: skip
    # every setting checked at every count before anything is played
    settings = [s for s in settings if valid(s)]
    for spec in [*check_fields, *([ladder_field] if ladder_field else [])]:
        for n in players:  # every field valid at every count before anything is played
            one_arm({"name": "field", "game": game, "players": n, "strategies": spec,
                     "games": 1, **base}, seed)  # fmt: skip
    if on_start:
        on_start(candidates if adaptive else len(settings))
    cache = _Cache(state)
    played = used = 0

    def play(s: Setting, n: int, seed_: int, first: int, count: int, spec: str = field_spec,
             rotated: bool = False, one: str = field_spec) -> np.ndarray:  # fmt: skip
        nonlocal played, used
        opts = setting_options(chosen, base, s)
        who = [rotated] if one == field_spec else [rotated, one]  # earlier runs' keys kept
        what = json.dumps([game, spec, n, seed_, first, count, opts, *who], sort_keys=True,
                          default=str)  # fmt: skip
        key = hashlib.sha256(what.encode()).hexdigest()[:24]
        if key in cache.memory:  # asked for again in this run (counted once)
            return cache.memory[key]
        got = cache.get(key)
        games_here = count * n if rotated else count
        used += games_here
        if got is not None and got.shape == (count, n):
            cache.memory[key] = got
            return got
        if rotated:  # ``one`` (the main field unless named) in one seat, ``spec`` around it
            got = play_rotated(game, one, spec, n, count, seed_, first, jobs,
                               options=opts).share  # fmt: skip
        else:
            got = position_shares(game, opts, spec, n, seed_, first, count, jobs)
        played += games_here
        cache.put(key, got)
        return got

    if adaptive:  # proposed one by one, each scored on the first round's deals

        def score(s: Setting) -> float | None:
            if not valid(s):
                return None
            worst = max(edges(n, play(s, n, select_seed, 0, games)).worst for n in players)
            return worst + setting_size(chosen, base, s) / 100

        tpe_seed = int(grid_ss.generate_state(1)[0])
        settings = proposed(chosen, candidates, base_setting, tpe_seed, score)
    pool = [Measured(s, setting_size(chosen, base, s)) for s in settings]
    first, block, rounds = 0, games, []
    while True:
        for m in pool:
            for n in players:
                m.shares.setdefault(n, []).append(play(m.setting, n, select_seed, first, block))
        first += block
        pool.sort(key=lambda m: (m.selection_worst(), m.size))
        rounds.append([(m.setting, m.selection_worst(), first) for m in pool])
        if on_round:
            on_round(len(rounds), pool, first)
        if len(pool) <= finalists:
            break
        pool = pool[: max(finalists, math.ceil(len(pool) / 2))]
        block *= 2
    base_m = next((m for m in pool if m.setting == base_setting), None)
    base_m = base_m or Measured(base_setting, 0.0)
    final = pool if base_m in pool else [*pool, base_m]
    for m in final:
        held, checks, ladder = {}, {}, {}
        for n in players:
            held[n] = play(m.setting, n, held_seed, 0, held_out_games)
            for spec in check_fields:
                checks[spec, n] = play(m.setting, n, held_seed, 0, held_out_games, spec)
            if ladder_field:
                ladder[n] = play(m.setting, n, held_seed, 0, ladder_deals(held_out_games),
                                 ladder_field, rotated=True)  # fmt: skip
        measure(m, held, checks, ladder)
        if restricted is not None:  # each component: a seat of the field without it
            for n in players:
                opts = setting_options(chosen, base, m.setting)
                for label, value in restricted.components(opts, n):
                    share = play(m.setting, n, held_seed, 0, ladder_deals(held_out_games),
                                 field_spec, rotated=True,
                                 one=restricted.spec(field_spec, value))  # fmt: skip
                    m.components[label, n] = worth_of(n, share)
    gaps = {spec: {n: gap_of(n, play(base_setting, n, held_seed, 0, ladder_deals(held_out_games),
                                      field_spec, rotated=True, one=spec))
                   for n in players}
            for spec in check_fields}  # fmt: skip
    weak = tuple(spec for spec, g in gaps.items() if is_weak(x[2] for x in g.values()))
    ranked = rank(final, base_m, tolerance, weak, component_bound)
    return BalanceResult(
        game=game, players=players, field=field_spec, knobs=tuple(chosen), base=base,
        tolerance=tolerance, ranked=ranked, base_measured=base_m, rounds=rounds,
        held_out_seed=held_seed, held_out_games=held_out_games, games_played=used, games_new=played,
        seconds=time.monotonic() - t0, check_fields=tuple(check_fields),
        ladder_field=ladder_field, check_gaps=gaps, weak_checks=weak,
        component_bound=component_bound, refused=refused,
    )  # fmt: skip


def ladder_deals(held_out_games: int) -> int:
    """Deals of a seat-rotated measurement (the skill gap, a checked field's strength):
    each is played once per seat, so a quarter of the held-out games, at least 100."""
    return max(100, held_out_games // 4)


def worth_of(n: int, share: np.ndarray) -> tuple[float, float, float]:
    """What a component is worth from ``share[d, r]``, the win share of a seat playing
    without it in rotation ``r`` of deal ``d`` among the main field: the fair share (what
    its unrestricted counterpart averages over the rotations of a deal) minus its share,
    ``(worth, low, high)`` in pp, a t interval over deals."""
    gain, low, high = gap_of(n, share)
    return -gain, -high, -low


def gap_of(n: int, share: np.ndarray) -> tuple[float, float, float]:
    """One seat's gain over the fair share from ``share[d, r]`` (its win share in
    rotation ``r`` of deal ``d``): ``(gain, low, high)`` in pp, a t interval over deals."""
    return mean_interval(100 * np.asarray(share, dtype=float).mean(axis=1) - 100 / n)


def measure(
    m: Measured,
    held: Mapping[int, np.ndarray],
    checks: Mapping[tuple[str, int], np.ndarray] | None = None,
    ladder: Mapping[int, np.ndarray] | None = None,
) -> Measured:
    """Fill in a setting's held-out measurements from its games.

    Parameters
    ----------
    m : Measured
        The setting.
    held : mapping
        By count: ``shares[g, position]`` of the main field on the fresh deals.
    checks : mapping, optional
        By (field spec, count): the same in each other field checked.
    ladder : mapping, optional
        By count: ``share[d, r]``, the main field's win share in one seat among the ladder
        field, in rotation ``r`` of deal ``d`` (its gain over the fair share is the skill
        gap, the deal the unit).
    """
    for n, shares in held.items():
        m.held_out[n] = edges(n, shares)
        m._held_shares[n] = shares
    for key, shares in (checks or {}).items():
        m.checks[key] = edges(key[1], shares)
    for n, share in (ladder or {}).items():
        gains = 100 * np.asarray(share, dtype=float).mean(axis=1) - 100 / n
        m.ladder[n] = gap_of(n, share)
        m._ladder_gains[n] = gains
    return m


def rank(final: Sequence[Measured], base_m: Measured, tolerance: float,
         weak: Sequence[str] = (), component_bound: float | None = None
         ) -> list[Measured]:  # fmt: skip
    """The measured settings ranked (:func:`rank_key`), the base's among them, after the
    skill ladder is checked against the base's (:attr:`Measured.ladder_lost`); the checked
    fields in ``weak`` (:func:`sims.core.levels.is_weak`) veto nothing; with a
    ``component_bound``, every component's worth is held to it. A change that
    misses the target too ranks before the base only when it clearly does better
    (:func:`clearly_better`)."""
    for m in final:
        m.weak_fields = frozenset(weak)
        m.component_bound = component_bound
        # the ladder kept: each skill gap against the base's, paired by deal
        m.ladder_change, m.ladder_lost = {}, []
        for n, gains in m._ladder_gains.items():
            if n not in base_m._ladder_gains:
                continue
            deals = min(len(gains), len(base_m._ladder_gains[n]))
            m.ladder_change[n] = mean_interval(gains[:deals] - base_m._ladder_gains[n][:deals])
            # a ladder to keep: the base's gap clearly above 0 (a main field no better than
            # the weaker one has no margin to lose)
            kept = base_m.ladder[n][1] > 0
            if m is not base_m and kept and m.ladder_change[n][2] < 0:
                m.ladder_lost.append(n)
    ranked = sorted(final, key=lambda m: rank_key(m.status(tolerance), m.size, m.worst()))
    best = ranked[0]
    # a change that misses the target too must clearly do better than no change
    missed = best is not base_m and best.status(tolerance) == "unfair"
    if missed and not clearly_better(best.worst_interval()[3:], base_m.worst()):
        ranked.remove(base_m)
        ranked.insert(0, base_m)
    return ranked


def knob_files(res: BalanceResult) -> list[Path]:
    """The data files the ranked settings' data knobs wrote (:class:`~sims.core.knobs.DataKnob`),
    which a study file that replays the check must ship beside it."""
    root = knob_data_dir().resolve()
    found = []
    for m in res.ranked:
        for v in setting_options(res.knobs, res.base, m.setting).values():
            if isinstance(v, str) and Path(v).resolve().parent == root and Path(v) not in found:
                found.append(Path(v))
    return found


def study_text(res: BalanceResult, name: str, command: str = "", data_dir: str = "") -> str:
    """A study file that replays the held-out check: one block per ranked setting (the
    base's too), every count, the field in every seat, on the same fresh deals; one per
    setting and checked field (``check-<j>-setting-<i>``); and with a ladder field, one per
    setting seating the main field in one seat among it, every seat in turn
    (``ladder-setting-<i>``).

    Its ``[variant]`` table's ``balance`` entry tells a report what the blocks are (the
    ranked settings, the base's block, the target): the report's *What to change* section
    (:mod:`analysis.what_to_change`) reads it. ``command`` is the command that ran the
    search, kept for the report to quote. ``data_dir``: the folder, relative to the study
    file, the data knobs' files (:func:`knob_files`) are copied to; empty, the study names
    them where they were written.
    """
    ranked = [f"setting-{i + 1}" for i in range(len(res.ranked))]
    moved = {str(p): f"{data_dir}/{p.name}" if data_dir else str(p) for p in knob_files(res)}
    table: dict[str, Any] = {
        "game": res.game, "players": list(res.players), "field": res.field,
        "tolerance": res.tolerance, "knobs": [k.name for k in res.knobs],
        "settings": ranked, "base": ranked[res.ranked.index(res.base_measured)],
        "changes": [describe(res.knobs, res.base, m.setting) for m in res.ranked],
        "sizes": [m.size for m in res.ranked],
        "statuses": [m.status(res.tolerance) for m in res.ranked],
        "checks": {spec: [f"check-{j + 1}-{b}" for b in ranked]
                   for j, spec in enumerate(res.check_fields)},
        "games_played": res.games_played, "seconds": round(res.seconds, 1),
    }  # fmt: skip
    labels = list(dict.fromkeys(c for m in res.ranked for c, _ in m.components))
    if res.component_bound is not None:  # the component target's blocks, by component
        table["component_bound"] = res.component_bound
        table["components"] = {c: [f"component-{k + 1}-{b}" for b in ranked]
                               for k, c in enumerate(labels)}  # fmt: skip
    if res.check_fields:  # each checked field's strength: is it weak (vetoes nothing)?
        table["check_strength"] = {spec: f"strength-{j + 1}"
                                   for j, spec in enumerate(res.check_fields)}  # fmt: skip
    if res.ladder_field:
        table["ladder_field"] = res.ladder_field
        table["ladder"] = [f"ladder-{b}" for b in ranked]
    if command:
        table["command"] = command
    lines = [
        f"# slicelab balance {res.game}: the held-out check of its ranked settings, on the",
        "# same fresh deals (every block plays the same games, under its own rules).",
        f'name = "{name}"',
        f"seed = {res.held_out_seed}",
        f'description = "balance check: {res.game}, field {res.field}"',
        "# quick: a tenth of each block's games, the first of the same deals (a look, not a",
        "# check: its intervals are about three times as wide)",
        "sizes = { quick = 0.1 }",
        "",
        "[variant]",
        f"balance = {_toml(table)}",
        "",
    ]
    counts = f"[{', '.join(map(str, res.players))}]"
    for i, m in enumerate(res.ranked):
        opts = setting_options(res.knobs, res.base, m.setting)
        opts = {k: moved.get(v, v) if isinstance(v, str) else v for k, v in opts.items()}
        rules = [f"{key} = {_toml(value)}" for key, value in opts.items()]
        block = ranked[i]
        lines += [f"# {i + 1}. {describe(res.knobs, res.base, m.setting)}", "[[arms]]",
                  f'name = "{block}"', f'game = "{res.game}"', f"players = {counts}",
                  f'strategies = "{res.field}"', f"games = {res.held_out_games}",
                  *rules, ""]  # fmt: skip
        for j, spec in enumerate(res.check_fields):
            lines += ["[[arms]]", f'name = "check-{j + 1}-{block}"', f'game = "{res.game}"',
                      f"players = {counts}", f"strategies = {_toml(spec)}",
                      f"games = {res.held_out_games}", *rules, ""]  # fmt: skip
        if res.ladder_field:
            lines += ["[[arms]]", f'name = "ladder-{block}"', f'game = "{res.game}"',
                      f"players = {counts}",
                      f"strategies = {_toml(_seats(res.field, res.ladder_field, res.players))}",
                      "rotate = true",
                      f"games = {ladder_deals(res.held_out_games)}", *rules, ""]  # fmt: skip
        if res.component_bound is not None:
            restricted = get_game(res.game).restricted_play
            for k, c in enumerate(labels):
                at = [n for n in res.players if (c, n) in m.components]
                value = dict(
                    restricted.components(setting_options(res.knobs, res.base, m.setting), at[0])
                )[c]
                seats = _seats(restricted.spec(res.field, value), res.field, at)
                lines += ["[[arms]]", f'name = "component-{k + 1}-{block}"',
                          f'game = "{res.game}"', f"players = {_toml(at)}",
                          f"strategies = {_toml(seats)}",
                          "rotate = true", f"games = {ladder_deals(res.held_out_games)}",
                          *rules, ""]  # fmt: skip
    base_rules = [f"{key} = {_toml(value)}" for key, value in res.base.items()]
    for j, spec in enumerate(res.check_fields):
        lines += [f"# the {spec} field's strength: one seat of it among {res.field}",
                  "[[arms]]", f'name = "strength-{j + 1}"', f'game = "{res.game}"',
                  f"players = {counts}",
                  f"strategies = {_toml(_seats(spec, res.field, res.players))}",
                  "rotate = true", f"games = {ladder_deals(res.held_out_games)}",
                  *base_rules, ""]  # fmt: skip
    return "\n".join(lines)


def _seats(one: str, rest: str, counts: Sequence[int]) -> list[str]:
    """A rotated block's strategies: ``one`` in the first seat, ``rest`` in the others (a
    study reads ``[one, rest]`` as that only for a block of several counts)."""
    return [one, rest] if len(counts) > 1 else [one] + [rest] * (counts[0] - 1)


def _key(k: str) -> str:
    """A TOML key: bare when it may be, else quoted (a field spec as a key)."""
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_toml(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return str(v)
