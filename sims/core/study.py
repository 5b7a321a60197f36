"""Study files: what to simulate, validated before any game is played.

A study (TOML) holds a seed and one or more **arms**; each arm is a game at a player
count with a strategy per seat, the game's own options (a deck file, rule options), a
number of games and an engine choice. Arms share the study seed unless they set their own,
so game ``i`` of every arm is dealt the same cards: comparisons across arms are paired by
default.

Example::

    name = "greedy-vs-random"
    seed = 1
    chunk_size = 10000      # games per output file (optional)
    decisions = false       # also write the per-decision table (optional)

    [[arms]]
    name = "g2r2"
    game = "nyslice"
    players = 4
    strategies = ["greedy", "greedy", "random", "random"]   # or one spec for every seat
    games = 100000
    # seed = 7              # optional: this arm's own seed
    # engine = "auto"       # auto | kernel | reference
    # deck = "my-deck.toml" # a game's own options (New York Slice: deck, rules, blank);
    # [arms.rules]          #   data files are relative to the study file
    # veggies_edible_later = true

The keys above ``engine`` are the core's; every other key of an arm block is the game's
own (:attr:`sims.core.game.Game.options`), parsed and validated by the game into one or
more variants (``Game.variants``).

An arm block may stand for several arms (the balance studies use this), expanded in
this order and named ``<name>[.p<N>][.<key><value>...][<treatment>][.r<k>]``:

- ``players = [2, 3, 4]``: one arm per player count. ``games`` may then be a table by
  count (``games = { 2 = 20000, 6 = 5000 }``) and a ``strategies`` list may be shorter
  than a count: its last spec fills the remaining seats.
- ``grid = { theta = [0.2, 0.5] }``: one arm per value (per combination for several
  keys), substituted for ``{theta}`` in the strategy specs.
- a game's treatments: one arm per variant its options ask for, labelled by the game
  (New York Slice: ``blank = "each"`` gives ``.blank-<slug>`` per special in play).
- ``rotate = true``: one arm per rotation ``k``; seat ``s`` plays spec ``(s - k) mod n``,
  so the first spec sits in seat ``k``. Every rotation is dealt the same cards.
- ``decisions = true``: write the per-decision table for this block only.

A study may declare sizes, ``sizes = { quick = 0.01 }``: ``--size quick`` multiplies every
arm's games by the factor and names the study ``<name>-quick``.

A strategy written in Python (``package.module:Name``) is imported and run: a study may
use one only with ``allow_code = true`` (or ``--allow-code`` on the command line). Its
module is looked for on the Python path, then in the study file's folder, then in the
working directory (:func:`sims.core.specs.import_code`); the arm records those folders
(``Arm.code_dirs``), so that worker processes look in the same ones.

A study of a designer's variant (``slicelab plan``, :mod:`sims.core.plan`) names it in a
top-level ``[variant]`` table: ``label`` (a string: how a report names the variant) and any
other keys (the data file, the rule options, the blocks a rule change is compared on),
strings, numbers, booleans, arrays and tables only. The core plays nothing from it: it is
kept in the manifest (``study.variant``) for the report, and is no part of the study's
identity (a relabelled study resumes the same dataset).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sims.core.errors import SlicelabError
from sims.core.game import REGISTRY, get_game
from sims.core.specs import code_search, is_code, search_path

MAX_SEED = 2**32 - 1
ENGINES = ("auto", "kernel", "reference")
DEFAULT_CHUNK = 10_000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_STUDY_KEYS = {
    "name", "seed", "chunk_size", "decisions", "arms", "description", "sizes", "allow_code",
    "variant",
}  # fmt: skip
MAX_GAMES = 2**32 - 1
"""Games per arm at most (after a size's scaling)."""
MAX_NAME = 200
"""Characters of a study's or an arm's full name at most: each becomes a folder name
(``<game>/<N>p/<name>``, ``<name>-quick``), and file systems allow 255 bytes per name."""
MAX_CHUNKS = 1_000_000
"""Chunks per study at most: each is a manifest record and up to three files."""
_ARM_KEYS = {
    "name", "game", "players", "strategies", "games", "seed", "engine", "rotate", "grid",
    "decisions",
}  # fmt: skip
"""The core's keys of an arm block; the rest belong to the game (``Game.options``)."""
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class StudyError(SlicelabError):
    """A study file that cannot be run; the message names the field and the fix."""


@dataclass(frozen=True)
class Arm:
    """One arm of a study: a game variant, a seating of strategies and a number of games.

    ``options`` are the game's own (a deck file, rule options, a treatment), as its
    ``Game.variants`` returned them; the core never reads them."""

    name: str
    game: str
    players: int
    strategies: tuple[str, ...]
    games: int
    seed: int
    engine: str = "auto"
    options: dict[str, Any] = field(default_factory=dict)
    decisions: bool = False  # also write the per-decision table
    group: str = ""  # the arm block this arm was expanded from ("" = its own name)
    rotation: int = 0  # seat of the block's first spec (rotate = true)
    grid: dict[str, Any] = field(default_factory=dict)  # grid values substituted in the specs
    # Where its Python strategies' modules are looked for after the Python path (the study
    # file's folder, the working directory it was read from; () without one): carried to
    # the worker processes, which never read the study. No part of the arm's identity or
    # of its equality: the same study read from another folder is the same study.
    code_dirs: tuple[str, ...] = field(default=(), compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "players": self.players,
            "strategies": list(self.strategies),
            "games": self.games,
            "seed": self.seed,
            "engine": self.engine,
            **self.options,
            **({"decisions": True} if self.decisions else {}),
            **({"group": self.group} if self.group and self.group != self.name else {}),
            **({"rotation": self.rotation} if self.rotation else {}),
            **({"grid": dict(self.grid)} if self.grid else {}),
        }


@dataclass(frozen=True)
class Study:
    """A validated study."""

    name: str
    seed: int
    arms: tuple[Arm, ...]
    chunk_size: int = DEFAULT_CHUNK
    decisions: bool = False
    source: str = "<study>"
    text: str = ""
    variant: dict[str, Any] = field(default_factory=dict)
    """The study's ``[variant]`` table (``{}`` for none): what a report names the variant
    by; the core plays nothing from it."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "decisions": self.decisions,
            "arms": [a.as_dict() for a in self.arms],
            **({"variant": self.variant} if self.variant else {}),
        }

    @property
    def total_games(self) -> int:
        return sum(a.games for a in self.arms)

    @property
    def any_decisions(self) -> bool:
        """Whether some arm writes the per-decision table."""
        return any(a.decisions for a in self.arms)


def study_hash(study: Study, fingerprint: dict[str, Any]) -> str:
    """Hash of what determines a study's data: its resolved content plus a fingerprint
    (deck digests, rule versions) from the games."""
    content = study.as_dict()
    content.pop("chunk_size")  # how games are grouped into files does not change the data
    content.pop("variant", None)  # how the variant is named does not either
    # a data file is known by its content, not by the path that reached it: the same study
    # run from another folder, through a symlink or after a move is the same study
    content["arms"] = [_by_content(arm, d) for arm, d in zip(study.arms, content["arms"],
                                                              strict=True)]  # fmt: skip
    payload = json.dumps({"study": content, "fingerprint": fingerprint}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def data_files(arm: Arm) -> dict[str, Path]:
    """The arm's options that name a data file on disk (``path`` options of its game whose
    value is a file; a shipped data set's name is not one): option key → path."""
    out = {}
    for opt in get_game(arm.game).options:
        value = arm.options.get(opt.key)
        if opt.kind == "path" and isinstance(value, str) and Path(value).is_file():
            out[opt.key] = Path(value)
    return out


def _by_content(arm: Arm, content: dict[str, Any]) -> dict[str, Any]:
    """``content`` with each data-file path replaced by the SHA-256 of the file's bytes."""
    for key, path in data_files(arm).items():
        content[key] = "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
    return content


def _check_path_name(name: str, source: str, where: str, what: str) -> None:
    """Refuse a name too long to be a folder or file name (an arm becomes the partition
    folder ``<game>/<N>p/<name>``, a study ``data/<name>`` and ``reports/<name>.pdf``), before
    anything is written."""
    if len(name.encode()) > MAX_NAME:
        raise _err(source, where, f"the {what} {name[:40]!r}... is too long: "
                   f"{len(name.encode())} characters, at most {MAX_NAME} (it becomes a folder "
                   "name); shorten it")  # fmt: skip


def _err(source: str, where: str, msg: str) -> StudyError:
    return StudyError(f"{source}: {where}: {msg}")


def _int(value: Any, source: str, where: str, key: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _err(source, where, f"'{key}' must be an integer from {lo} to {hi}, got {value!r}")
    return value


def parse_study(
    data: dict[str, Any],
    source: str = "<study>",
    base: Path | None = None,
    text: str = "",
    size: str | None = None,
    allow_code: bool = False,
    files: Mapping[str, str] | None = None,
) -> Study:
    """Validate parsed study data and expand its arm blocks; every problem is reported
    before any game is played.

    Parameters
    ----------
    data : dict
        The parsed TOML.
    source : str
        The file name, for messages.
    base : Path, optional
        Directory that relative data-file paths (a deck, a board) are resolved against.
    text : str
        The study file's text, kept in the manifest.
    size : str, optional
        One of the study's ``sizes``: scales every arm's games and suffixes the name.
    allow_code : bool
        Accept strategies written in Python (``package.module:Name``), which are imported
        and run; the study's own ``allow_code = true`` also does.
    files : mapping, optional
        Data files to read in place of others: resolved path → the path of a file with the
        content the study was run with (a dataset's own copies, :func:`sims.batch.
        rebuild_study`, when the originals moved or changed).

    Raises
    ------
    StudyError
        Naming the file, the arm and the field at fault, and what would be accepted.
    """
    unknown = set(data) - _STUDY_KEYS
    if unknown:
        raise _err(
            source, "top level", f"unknown key(s) {sorted(unknown)}; allowed: {sorted(_STUDY_KEYS)}"
        )
    if "seed" not in data:
        raise _err(source, "top level", "missing 'seed' (a non-negative integer, e.g. seed = 1)")
    seed = _int(data["seed"], source, "top level", "seed", 0, MAX_SEED)
    name = data.get("name", Path(source).stem if source.endswith(".toml") else "study")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise _err(
            source, "top level", f"'name' must be letters, digits, '-', '_' or '.', got {name!r}"
        )
    _check_path_name(name, source, "top level", "study name")
    chunk = _int(
        data.get("chunk_size", DEFAULT_CHUNK), source, "top level", "chunk_size", 1, 10_000_000
    )
    if not isinstance(data.get("description", ""), str):
        raise _err(source, "top level", "'description' must be a string")
    decisions = data.get("decisions", False)
    if not isinstance(decisions, bool):
        raise _err(source, "top level", f"'decisions' must be true or false, got {decisions!r}")
    allow = data.get("allow_code", False)
    if not isinstance(allow, bool):
        raise _err(source, "top level", f"'allow_code' must be true or false, got {allow!r}")
    allow_code = allow_code or allow
    variant = _variant(data.get("variant", {}), source)
    _balance_check(variant.get("balance"), data.get("arms"), source)
    scale = 1.0
    sizes = data.get("sizes", {})
    if not isinstance(sizes, dict) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < math.inf
        for v in sizes.values()
    ):
        raise _err(source, "top level", "'sizes' must map names to positive factors, e.g. "
                   "sizes = { quick = 0.01 }")  # fmt: skip
    if size is not None:
        if size not in sizes:
            known = sorted(sizes) or "none"
            raise _err(source, "top level", f"no size {size!r}; this study's sizes: {known}")
        scale = float(sizes[size])
        name = f"{name}-{size}"
        _check_path_name(name, source, "top level", "study name with its size")
    arms_raw = data.get("arms")
    if not isinstance(arms_raw, list) or not arms_raw:
        raise _err(source, "top level", "needs at least one [[arms]] table")
    arms: list[Arm] = []
    names: set[str] = set()
    for i, raw in enumerate(arms_raw):
        for arm in _expand_block(
            raw, i, seed, decisions, scale, source, base, allow_code, files or {}
        ):
            if arm.name in names:
                raise _err(
                    source, f"arms[{i}]", f"arm name {arm.name!r} is used twice; names must differ"
                )
            names.add(arm.name)
            arms.append(arm)
    chunks = sum(-(-a.games // chunk) for a in arms)
    if chunks > MAX_CHUNKS:
        least = -(-sum(a.games for a in arms) // MAX_CHUNKS)
        raise _err(source, "top level", f"the study plans {chunks:,} chunks of {chunk:,} games; "
                   f"at most {MAX_CHUNKS:,}: raise chunk_size (to {least} or more) or play "
                   "fewer games")  # fmt: skip
    return Study(
        name=name,
        seed=seed,
        arms=tuple(arms),
        chunk_size=chunk,
        decisions=decisions,
        source=source,
        text=text,
        variant=variant,
    )


def _plain(value: Any) -> bool:
    """Whether ``value`` is a string, number, boolean, or an array or table of them (what a
    manifest, which is JSON, can hold)."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str | int | bool)


def _variant(raw: Any, source: str) -> dict[str, Any]:
    """The study's ``[variant]`` table, checked to be one the manifest can keep."""
    where = "[variant]"
    if not isinstance(raw, dict):
        raise _err(source, where, 'must be a table, e.g. [variant] with label = "my deck"')
    if "label" in raw and (not isinstance(raw["label"], str) or not raw["label"].strip()):
        raise _err(source, where, f"'label' must be a non-empty string, got {raw['label']!r}")
    for key, value in raw.items():
        if not _plain(value):
            raise _err(source, where, f"'{key}' must be strings, numbers, booleans, arrays or "
                       f"tables of them (no dates, nan or inf), got {value!r}")  # fmt: skip
    return dict(raw)


BALANCE_KEYS = {"game": str, "field": str, "base": str, "players": list, "settings": list,
                "changes": list, "sizes": list, "tolerance": (int, float)}  # fmt: skip
"""The entries a balance check's ``[variant]`` ``balance`` table must have, and their types
(``slicelab balance --write-study`` writes them; a report's *What to change* reads them)."""


def _balance_check(raw: Any, arms: Any, source: str) -> None:
    """A balance check's table (:func:`sims.balance.study_text`), checked to name blocks of
    the study: a report reads every block it names."""
    if raw is None:
        return
    where = "[variant] balance"
    fix = "; write the check again with slicelab balance --write-study"
    if not isinstance(raw, dict):
        raise _err(source, where, f"must be a table{fix}")
    for key, kind in BALANCE_KEYS.items():
        value = raw.get(key)
        if value is None or isinstance(value, bool) or not isinstance(value, kind):
            raise _err(source, where, f"'{key}' is missing or not a "
                       f"{'number' if key == 'tolerance' else kind.__name__}{fix}")  # fmt: skip
    n = len(raw["settings"])
    if not n or any(len(raw[k]) != n for k in ("changes", "sizes")):
        raise _err(source, where, f"'settings', 'changes' and 'sizes' must be lists of the "
                   f"same length, at least one{fix}")  # fmt: skip
    if not raw["tolerance"] > 0:
        raise _err(source, where, f"'tolerance' must be above 0 (pp), got {raw['tolerance']}")
    if raw["base"] not in raw["settings"]:
        raise _err(source, where, f"'base' ({raw['base']!r}) must be one of 'settings'{fix}")
    checks, strength = raw.get("checks", {}), raw.get("check_strength", {})
    components = raw.get("components", {})
    if not all(isinstance(t, dict) for t in (checks, strength, components)):
        raise _err(source, where, f"'checks', 'check_strength' and 'components' must be "
                   f"tables{fix}")  # fmt: skip
    bound = raw.get("component_bound")
    if components and (isinstance(bound, bool) or not isinstance(bound, int | float)
                       or not bound > 0):  # fmt: skip
        raise _err(source, where, f"'component_bound' must be a number above 0 (pp) when "
                   f"'components' is given{fix}")  # fmt: skip
    per_setting = [*checks.values(), *components.values(),
                   *([raw["ladder"]] if "ladder" in raw else [])]  # fmt: skip
    if any(not isinstance(b, list) or len(b) != n for b in per_setting):
        raise _err(source, where, f"'checks' and 'components' (tables of lists) and 'ladder' "
                   f"must give one block per setting{fix}")  # fmt: skip
    names = (
        {a.get("name") for a in arms if isinstance(a, dict)} if isinstance(arms, list) else set()
    )
    blocks = [*raw["settings"], *(b for bs in per_setting for b in bs), *strength.values()]
    for block in blocks:
        if block not in names:
            raise _err(source, where, f"names the block {block!r}, which no arm of the study "
                       f"is{fix}")  # fmt: skip


def _players_list(raw: Any, source: str, where: str, lo: int, hi: int) -> list[int]:
    if isinstance(raw, list):
        if not raw or len(set(map(str, raw))) != len(raw):
            raise _err(source, where, "'players' must be a count or a list of distinct counts")
        return [_int(p, source, where, "players", lo, hi) for p in raw]
    return [_int(raw, source, where, "players", lo, hi)]


def _games_for(raw: Any, players: int, scale: float, source: str, where: str) -> int:
    if isinstance(raw, dict):
        if str(players) not in raw:
            raise _err(source, where, f"'games' has no entry for {players} players "
                       f"(keys: {sorted(raw)}); give one per player count")  # fmt: skip
        raw = raw[str(players)]
    games = _int(raw, source, where, "games", 1, MAX_GAMES)
    if scale != 1.0:
        games = max(1, math.ceil(games * scale))
        if games > MAX_GAMES:
            raise _err(source, where, f"'games' scaled by the size's factor {scale:g} is "
                       f"{games:,}, more than {MAX_GAMES:,}; use a smaller factor")  # fmt: skip
    return games


def _grid_points(raw: Any, source: str, where: str) -> list[dict[str, Any]]:
    if raw is None:
        return [{}]
    if not isinstance(raw, dict) or not raw:
        raise _err(source, where, "'grid' must be a table of value lists, e.g. "
                   "grid = { theta = [0.2, 0.5] }")  # fmt: skip
    for key, values in raw.items():
        if (
            not isinstance(values, list)
            or not values
            or not all(isinstance(v, (int, float, str)) and not isinstance(v, bool) for v in values)
        ):
            raise _err(source, where, f"grid key {key!r} must list numbers or strings")
    keys = list(raw)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*raw.values())]


def _seat_specs(strategies: Any, players: int, several: bool, source: str, where: str) -> list[str]:
    if isinstance(strategies, str):
        strategies = [strategies]
    if not isinstance(strategies, list) or not all(isinstance(s, str) for s in strategies):
        raise _err(source, where, "'strategies' must be a spec string or a list of them")
    if not strategies:
        raise _err(source, where, "'strategies' is empty; give one spec per seat or one for all")
    if len(strategies) == 1:
        return strategies * players
    if len(strategies) == players or (several and len(strategies) < players):
        return strategies + [strategies[-1]] * (players - len(strategies))
    raise _err(
        source,
        where,
        f"'strategies' has {len(strategies)} specs for {players} players; "
        "give one per seat or one for all",
    )


def _fmt(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _expand_block(
    raw: Any, i: int, study_seed: int, decisions: bool, scale: float, source: str,
    base: Path | None, allow_code: bool, files: Mapping[str, str],
) -> list[Arm]:  # fmt: skip
    where = f"arms[{i}]"
    if not isinstance(raw, dict):
        raise _err(source, where, "must be a table ([[arms]])")
    if isinstance(raw.get("name"), str):
        where = f"arms[{i}] ({raw['name']!r})"
    for key in ("name", "game", "players", "strategies", "games"):
        if key not in raw:
            raise _err(source, where, f"missing '{key}'")
    name = raw["name"]
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise _err(source, where, f"'name' must be letters, digits, '-', '_' or '.', got {name!r}")
    game = raw["game"]
    if not isinstance(game, str) or game not in REGISTRY:
        raise _err(source, where, f"unknown game {game!r}; known: {sorted(REGISTRY)}")
    the_game = get_game(game)
    info = the_game.info
    own = {o.key: o for o in the_game.options}
    unknown = set(raw) - _ARM_KEYS - set(own)
    if unknown:
        allowed = sorted(_ARM_KEYS | set(own))
        raise _err(source, where, f"unknown key(s) {sorted(unknown)}; allowed for {game}: "
                   f"{allowed}")  # fmt: skip
    counts = _players_list(raw["players"], source, where, info.min_players, info.max_players)
    if isinstance(raw["games"], dict):
        extra = sorted(set(raw["games"]) - {str(n) for n in counts}, key=str)
        if extra:
            raise _err(source, where, f"'games' has entries for {', '.join(extra)} players, "
                       f"which 'players' does not list ({raw['players']!r}); remove them or add "
                       "those counts to 'players'")  # fmt: skip
    several = isinstance(raw["players"], list)
    seed = _int(raw.get("seed", study_seed), source, where, "seed", 0, MAX_SEED)
    engine = raw.get("engine", "auto")
    if engine not in ENGINES:
        raise _err(source, where, f"'engine' must be one of {list(ENGINES)}, got {engine!r}")
    options = _game_options(raw, own, base, source, where, files)
    rotate = raw.get("rotate", False)
    if not isinstance(rotate, bool):
        raise _err(source, where, f"'rotate' must be true or false, got {rotate!r}")
    arm_decisions = raw.get("decisions", decisions)
    if not isinstance(arm_decisions, bool):
        raise _err(source, where, f"'decisions' must be true or false, got {arm_decisions!r}")
    points = _grid_points(raw.get("grid"), source, where)
    code_dirs = search_path(base)
    arms = []
    for n in counts:
        games = _games_for(raw["games"], n, scale, source, where)
        specs = _seat_specs(raw["strategies"], n, several, source, where)
        used = {m for s in specs for m in _PLACEHOLDER.findall(s)}
        if used != set(points[0]):
            raise _err(source, where, f"strategy placeholders {sorted(used)} do not match the "
                       f"grid keys {sorted(points[0])}; write e.g. 'heuristic(theta={{theta}})' "
                       "with grid = { theta = [...] }")  # fmt: skip
        for point in points:
            seat_specs = [_PLACEHOLDER.sub(lambda m, p=point: _fmt(p[m[1]]), s) for s in specs]
            try:
                variants = the_game.variants(options, n, base)
            except SlicelabError as exc:
                raise _err(source, where, str(exc)) from None
            for variant in variants:
                for k in range(n) if rotate else [0]:
                    label = name + (f".p{n}" if several else "")
                    label += "".join(f".{key}{_fmt(v)}" for key, v in point.items())
                    label += variant.label
                    label += f".r{k}" if rotate else ""
                    _check_path_name(label, source, f"arms[{i}]", "arm name")
                    rotated = [seat_specs[(s - k) % n] for s in range(n)]
                    arm = Arm(
                        name=label,
                        game=game,
                        players=n,
                        strategies=tuple(x.strip() for x in rotated),
                        games=games,
                        seed=seed,
                        engine=engine,
                        options=dict(variant.options),
                        decisions=arm_decisions,
                        group=name,
                        rotation=k,
                        grid=dict(point),
                        code_dirs=code_dirs if any(is_code(s) for s in rotated) else (),
                    )
                    _check(arm, source, f"arms[{i}] ({label!r})", allow_code)
                    arms.append(arm)
    return arms


def _game_options(
    raw: dict[str, Any], own: dict[str, Any], base: Path | None, source: str, where: str,
    files: Mapping[str, str],
) -> dict[str, Any]:  # fmt: skip
    """The game's keys of an arm block, ``path`` ones resolved against the study's folder
    and ``table`` ones checked to be tables; the game validates the rest."""
    options = {}
    for key, opt in own.items():
        if key not in raw:
            continue
        value = raw[key]
        if opt.kind == "path":
            if not isinstance(value, str):
                raise _err(source, where, f"'{key}' must be a file path ({opt.help}), got "
                           f"{value!r}")  # fmt: skip
            path = Path(value)
            if not path.is_absolute() and base is not None:
                path = base / path
            value = files.get(str(path), str(path))
        elif opt.kind == "table" and not isinstance(value, dict):
            raise _err(source, where, f"'{key}' must be a table ({opt.help}), e.g. "
                       f"[arms.{key}]")  # fmt: skip
        options[key] = value
    return options


def _check(arm: Arm, source: str, where: str, allow_code: bool) -> None:
    """The game checks what only it knows: strategy specs, data files, rule options —
    after the core refuses Python strategies the user did not allow."""
    if not allow_code:
        for spec in arm.strategies:
            if is_code(spec):
                raise _err(source, where, f"strategy {spec!r} is Python code "
                           "(package.module:Name), which slicelab would import and run; "
                           "if you trust it, pass --allow-code (or set allow_code = true in "
                           "the study file)")  # fmt: skip
    try:
        with code_search(arm.code_dirs):  # the game builds its strategies to check them
            get_game(arm.game).check_arm(arm)
    except SlicelabError as exc:
        raise _err(source, where, str(exc)) from None


def load_study(path: str | Path, size: str | None = None, allow_code: bool = False) -> Study:
    """Read and validate a study file (at one of its ``sizes``, if given).

    Raises
    ------
    StudyError
        If the file is missing, not UTF-8 TOML, or any field is invalid.
    """
    p = Path(path)
    if not p.is_file():
        raise StudyError(
            f"study {p}: no such file; pass the path of a study TOML file (see studies/)"
        )
    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StudyError(
            f"study {p}: not UTF-8 text (byte {exc.start}); save it as UTF-8"
        ) from None
    except OSError as exc:
        raise StudyError(f"study {p}: cannot be read ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(f"study {p}: not valid TOML ({exc})") from None
    return parse_study(data, str(p), p.parent.absolute(), text, size, allow_code)
