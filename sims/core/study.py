"""Study files: what to simulate, validated before any game is played.

A study (TOML) holds a seed and one or more **arms**; each arm is a game at a player
count with a strategy per seat, an optional deck file and rule options, a number of games
and an engine choice. Arms share the study seed unless they set their own, so game ``i``
of every arm is dealt the same cards: comparisons across arms are paired by default.

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
    # deck = "my-deck.toml" # optional, relative to the study file
    # engine = "auto"       # auto | kernel | reference
    # [arms.rules]          # optional rule options (see the README)
    # veggies_edible_later = true
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sims.core.errors import SlicelabError
from sims.core.registry import GAMES

MAX_SEED = 2**32 - 1
ENGINES = ("auto", "kernel", "reference")
DEFAULT_CHUNK = 10_000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_STUDY_KEYS = {"name", "seed", "chunk_size", "decisions", "arms", "description"}
_ARM_KEYS = {"name", "game", "players", "strategies", "games", "seed", "deck", "engine", "rules"}


class StudyError(SlicelabError):
    """A study file that cannot be run; the message names the field and the fix."""


@dataclass(frozen=True)
class Arm:
    """One arm of a study: a game, a seating of strategies and a number of games."""

    name: str
    game: str
    players: int
    strategies: tuple[str, ...]
    games: int
    seed: int
    deck: str | None = None
    engine: str = "auto"
    rules: dict[str, Any] = field(default_factory=dict)
    blank: str | None = None  # a special (slug) replaced by a blank tile in the deck

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "players": self.players,
            "strategies": list(self.strategies),
            "games": self.games,
            "seed": self.seed,
            "deck": self.deck,
            "engine": self.engine,
            "rules": dict(sorted(self.rules.items())),
            **({"blank": self.blank} if self.blank is not None else {}),
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

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "decisions": self.decisions,
            "arms": [a.as_dict() for a in self.arms],
        }

    @property
    def total_games(self) -> int:
        return sum(a.games for a in self.arms)


def study_hash(study: Study, fingerprint: dict[str, Any]) -> str:
    """Hash of what determines a study's data: its resolved content plus a fingerprint
    (deck digests, rule versions) from the games."""
    content = study.as_dict()
    content.pop("chunk_size")  # how games are grouped into files does not change the data
    payload = json.dumps({"study": content, "fingerprint": fingerprint}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def _err(source: str, where: str, msg: str) -> StudyError:
    return StudyError(f"{source}: {where}: {msg}")


def _int(value: Any, source: str, where: str, key: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _err(source, where, f"'{key}' must be an integer from {lo} to {hi}, got {value!r}")
    return value


def parse_study(
    data: dict[str, Any], source: str = "<study>", base: Path | None = None, text: str = ""
) -> Study:
    """Validate parsed study data; every problem is reported before any game is played.

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
    if not isinstance(name, str) or not _NAME.match(name):
        raise _err(
            source, "top level", f"'name' must be letters, digits, '-', '_' or '.', got {name!r}"
        )
    chunk = _int(
        data.get("chunk_size", DEFAULT_CHUNK), source, "top level", "chunk_size", 1, 10_000_000
    )
    decisions = data.get("decisions", False)
    if not isinstance(decisions, bool):
        raise _err(source, "top level", f"'decisions' must be true or false, got {decisions!r}")
    arms_raw = data.get("arms")
    if not isinstance(arms_raw, list) or not arms_raw:
        raise _err(source, "top level", "needs at least one [[arms]] table")
    arms = []
    names = set()
    for i, raw in enumerate(arms_raw):
        arm = _parse_arm(raw, i, seed, source, base)
        if arm.name in names:
            raise _err(
                source, f"arms[{i}]", f"arm name {arm.name!r} is used twice; names must differ"
            )
        names.add(arm.name)
        arms.append(arm)
    return Study(
        name=name,
        seed=seed,
        arms=tuple(arms),
        chunk_size=chunk,
        decisions=decisions,
        source=source,
        text=text,
    )


def _parse_arm(raw: Any, i: int, study_seed: int, source: str, base: Path | None) -> Arm:
    where = f"arms[{i}]"
    if not isinstance(raw, dict):
        raise _err(source, where, "must be a table ([[arms]])")
    if isinstance(raw.get("name"), str):
        where = f"arms[{i}] ({raw['name']!r})"
    unknown = set(raw) - _ARM_KEYS
    if unknown:
        raise _err(source, where, f"unknown key(s) {sorted(unknown)}; allowed: {sorted(_ARM_KEYS)}")
    for key in ("name", "game", "players", "strategies", "games"):
        if key not in raw:
            raise _err(source, where, f"missing '{key}'")
    name = raw["name"]
    if not isinstance(name, str) or not _NAME.match(name):
        raise _err(source, where, f"'name' must be letters, digits, '-', '_' or '.', got {name!r}")
    game = raw["game"]
    if game not in GAMES:
        raise _err(source, where, f"unknown game {game!r}; known: {sorted(GAMES)}")
    info = GAMES[game]
    players = _int(raw["players"], source, where, "players", info.min_players, info.max_players)
    strategies = raw["strategies"]
    if isinstance(strategies, str):
        strategies = [strategies] * players
    if not isinstance(strategies, list) or not all(isinstance(s, str) for s in strategies):
        raise _err(source, where, "'strategies' must be a spec string or a list of them")
    if len(strategies) == 1:
        strategies = strategies * players
    if len(strategies) != players:
        raise _err(
            source,
            where,
            f"'strategies' has {len(strategies)} specs for {players} players; "
            "give one per seat or one for all",
        )
    games = _int(raw["games"], source, where, "games", 1, MAX_SEED)
    seed = _int(raw.get("seed", study_seed), source, where, "seed", 0, MAX_SEED)
    engine = raw.get("engine", "auto")
    if engine not in ENGINES:
        raise _err(source, where, f"'engine' must be one of {list(ENGINES)}, got {engine!r}")
    deck = raw.get("deck")
    if deck is not None:
        if not isinstance(deck, str):
            raise _err(source, where, f"'deck' must be a file path, got {deck!r}")
        path = Path(deck)
        if not path.is_absolute() and base is not None:
            path = base / path
        deck = str(path)
    rules = raw.get("rules", {})
    if not isinstance(rules, dict):
        raise _err(source, where, "'rules' must be a table of rule options")
    arm = Arm(
        name=name,
        game=game,
        players=players,
        strategies=tuple(s.strip() for s in strategies),
        games=games,
        seed=seed,
        deck=deck,
        engine=engine,
        rules=dict(rules),
    )
    # The game checks what only it knows: strategy specs, deck file, rule options.
    from sims.games import plugin_for

    try:
        plugin_for(game).check_arm(arm)
    except SlicelabError as exc:
        raise _err(source, where, str(exc)) from None
    return arm


def load_study(path: str | Path) -> Study:
    """Read and validate a study file.

    Raises
    ------
    StudyError
        If the file is missing, not TOML, or any field is invalid.
    """
    p = Path(path)
    if not p.is_file():
        raise StudyError(
            f"study {p}: no such file; pass the path of a study TOML file (see studies/)"
        )
    text = p.read_text()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(f"study {p}: not valid TOML ({exc})") from None
    return parse_study(data, str(p), p.parent, text)
