"""The game protocol and the one registry of games.

The core, the runner, the command line and the generic analyses know no game: they reach
each one through a :class:`Game` object found by name in :data:`REGISTRY`. A game
provides

- its **info** (title, player range from its own rules, where its rules are documented);
- its **options**: the keys of a study's arm block (and the CLI flags) that are its own —
  a deck, a board, a card set, rule options, treatments such as a blanked special — parsed
  and validated into a *variant* by :meth:`Game.variants`;
- its **strategy catalogue** (:class:`StrategyInfo`: parameters, ranges, defaults,
  presets, kernel support) and a spec → strategy factory with an identity key;
- a **reference state API** in the OpenSpiel manner (:class:`State`): the initial state
  from an explicit random stream, the current player, legal actions, apply, terminal, a
  score breakdown, clone;
- **chunk play** returning arrays (:class:`ChunkArrays`), by its compiled kernel where it
  has one, and a declared **result schema** (:class:`ResultSchema`: score components and
  the win rule), from which the runner builds ``win_share`` and every provenance column
  once (:mod:`sims.batch`);
- a **text replay** of one game;
- its **data limits** (:class:`~sims.core.limits.Limit`): the most spaces, dishes,
  varieties or copies a data file may hold and the ends of each rule option's range,
  which its parsers check and its rules document lists;
- optionally its **balance plan** (:class:`BalancePlan`, in :attr:`GameInfo.balance`):
  its shipped balance study and how ``slicelab plan`` (:mod:`sims.core.plan`) redraws it
  for a designer's variant: which option holds its data file, the data files of the study
  it derives from the variant's (perturbed copies, treatments), which blocks a rule change
  is compared on. A game without one declares none, and ``plan`` says so.

Adding a game is writing ``sims/games/<game>/`` with an object satisfying :class:`Game`
and adding one line to :data:`REGISTRY`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

import numpy as np

from sims.core.errors import SlicelabError
from sims.core.knobs import Knob
from sims.core.limits import Limit
from sims.core.specs import StrategySpec

if TYPE_CHECKING:
    import pyarrow as pa

    from sims.core.study import Arm

REGISTRY: dict[str, str] = {
    "nyslice": "sims.games.nyslice.plugin:GAME",
    "pieceocake": "sims.games.pieceocake.plugin:GAME",
    "pizzatheory": "sims.games.pizzatheory.plugin:GAME",
    "horno": "sims.games.horno.plugin:GAME",
}
"""Every game: name → ``module:attribute`` of its :class:`Game` (imported on first use)."""

ENGINES = ("kernel", "reference")


@dataclass(frozen=True)
class DerivedFile:
    """A data file of a balance study that a game derives from a variant's own data (a
    perturbed copy for the robustness blocks, a treatment such as a blanked component).

    Attributes
    ----------
    name : str
        Its file name, written in the planned study's data folder (``<study>-data/``).
    text : str
        Its content: a data file the game's own parser accepts.
    note : str
        What it is, for the comment above the blocks that read it (one paragraph).
    """

    name: str
    text: str
    note: str


@dataclass(frozen=True)
class BalancePlan:
    """How ``slicelab plan`` (:mod:`sims.core.plan`) writes a game's balance study for a
    designer's variant (a data file, rule options, or both).

    The plan copies :attr:`study` with every block playing the variant: the variant's data
    file under the key :attr:`data` and its rule options merged under each block's own (a
    block's own rules are its treatment and win). A block whose data value the shipped study
    names as a file derived from the default data (a plausible deck, a card set with a
    treatment) plays the file :attr:`derive` makes from the variant's data instead; a block
    naming a shipped data set by name (another board, an alternative card set) keeps it: it
    is a comparison with the variant, not the variant. When the variant changes rules, each
    block of :attr:`whatif` is copied as ``whatif-default-<block>`` under the default rules
    (its own shipped rules only), on the same deals: the rule change is the block minus its
    copy.

    Attributes
    ----------
    study : str
        The shipped balance study, relative to the project's folder
        (``studies/<game>-balance.toml``).
    data : str or None
        The arm-block key of the game's data file (one of its :attr:`Game.options`:
        ``deck``, ``cake``, ``board``, ``cards``); None for a game without one.
    default_data : str
        The default data file to copy and edit, relative to the project's folder (named in
        messages and in the written study).
    derive : callable or None
        ``derive(value, seed)``: the data files the shipped study derives from the default
        data, made from the variant's instead, by the reference the shipped study writes
        (``decks/nyslice-family-1.toml`` → :class:`DerivedFile`). ``value`` is the variant's
        data (a resolved path, a shipped data set's name, or None for the default) and
        ``seed`` the study's: a perturbation is drawn from it alone. Raises SlicelabError
        for a variant it cannot derive from. None: the study derives no file.
    robustness : str
        What the study's robustness blocks check around the variant, written as a comment
        in the planned study; a game without a perturbation of its data says so here.
    whatif : tuple of str
        The blocks a variant's rule change is compared on (copied under the default rules),
        the main field's first: the rule change is judged robust when it holds in every
        one of them whose players may veto (a second field's seat block makes the check).
    rules : str
        The arm-block key of the game's rule options (a ``table`` option).
    """

    study: str
    data: str | None = None
    default_data: str = ""
    derive: Callable[[str | None, int], Mapping[str, DerivedFile]] | None = None
    robustness: str = ""
    whatif: tuple[str, ...] = ("seats",)
    rules: str = "rules"


@dataclass(frozen=True)
class RestrictedPlay:
    """How a seat of a field plays without one component (restricted play), for the
    component target of ``slicelab balance`` (:mod:`sims.balance`).

    Attributes
    ----------
    param : str
        The strategy parameter that names the component a seat plays without
        (``forfeit``: New York Slice's seat never receives that special).
    noun : str
        What a component is, in words (``special``, ``dish type``).
    components : callable
        ``components(options, players) -> ((label, value), ...)``: the components in play
        under an arm's game options at a player count, each with its label and the
        parameter's value that names it.
    """

    param: str
    noun: str
    components: Callable[[Mapping[str, Any], int], tuple[tuple[str, Any], ...]]

    def spec(self, field_spec: str, value: Any) -> str:
        """``field_spec`` playing without the component ``value`` names:
        ``heuristic`` → ``heuristic(forfeit=stuffed_crust)``."""
        from sims.core.specs import parse_spec

        parsed = parse_spec(field_spec)
        return str(StrategySpec(parsed.name, {**parsed.params, self.param: value}))


@dataclass(frozen=True)
class GameInfo:
    """What a game is called, who plays it and where its rules are written.

    Attributes
    ----------
    name : str
        The registry name (``nyslice``), used in study files and on the command line.
    title : str
        The game's title for reports and tables.
    min_players, max_players : int
        The player range of the game's own rules.
    summary : str
        One line on what the game is.
    rules_doc : str
        The project file documenting its rules and rulings (``docs/rules/<name>.md``).
    balance : BalancePlan or None
        Its shipped balance study and how ``slicelab plan`` redraws it for a variant; None
        for a game without one (``plan`` then refuses, saying so).
    compile_seconds : float or None
        Wall seconds its study kernel takes to compile on a cold cache on a 2-core machine
        (measured; the first-run notice, :mod:`sims.compiling`, says it in words); None for
        a game without a kernel or not measured.
    playout_kernels : mapping of str to str
        Strategy family → the function of the game's ``kernel`` module (``name`` or
        ``module.name``) a seat of that family calls on the reference engine (a search
        player's playouts), so the first-run notice covers it too.
    analysis_kernels : tuple of str
        The functions of the game's ``kernel`` module its report's analyses call (replays
        of a dataset's games), named as in ``playout_kernels``, so that ``slicelab report``
        says when they compile (:func:`sims.compiling.analysis_notice`).
    main_field : str
        The strategy spec of the field its balance verdicts are computed from (every seat
        playing it): the default field of ``slicelab balance``.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    summary: str
    rules_doc: str
    balance: BalancePlan | None = None
    compile_seconds: float | None = None
    playout_kernels: Mapping[str, str] = field(default_factory=dict)
    analysis_kernels: tuple[str, ...] = ()
    main_field: str = "heuristic"

    @property
    def players_text(self) -> str:
        """The player range as ``2-6``."""
        return f"{self.min_players}-{self.max_players}"

    def check_players(self, players: Any) -> int:
        """Refuse a player count outside the game's range, naming the range.

        Raises
        ------
        SlicelabError
        """
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not self.min_players <= players <= self.max_players
        ):
            raise SlicelabError(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}; pass --players between {self.min_players} and "
                f"{self.max_players}"
            )
        return players


@dataclass(frozen=True)
class GameOption:
    """A game-specific key of a study's arm block, and its command-line flag.

    Attributes
    ----------
    key : str
        The arm-block key (``deck``, ``rules``, ``blank``).
    kind : {"path", "table", "value"}
        ``path``: a data file, resolved against the study file's folder; ``table``: a TOML
        table of ``NAME = VALUE`` (repeatable ``--flag NAME=VALUE`` on the command line);
        ``value``: a string, list or number, read by the game.
    help : str
        One line for ``--help`` and error messages.
    flag : str or None
        The command-line flag (``--deck``), or None for a study-file-only key.
    metavar : str
        How the flag's value is shown in ``--help``.
    """

    key: str
    kind: Literal["path", "table", "value"]
    help: str
    flag: str | None = None
    metavar: str = "VALUE"


@dataclass(frozen=True)
class Variant:
    """One concrete variant of an arm block: the options as written in the manifest and a
    label suffix naming the treatment (``.blank-dibs``; ``""`` for none)."""

    options: dict[str, Any]
    label: str = ""


@dataclass(frozen=True)
class StrategyInfo:
    """A built-in strategy family or preset, as the catalogue lists it.

    Attributes
    ----------
    name : str
        The spec name (``heuristic``, ``heuristic-p4``).
    summary : str
        One line.
    params : dict
        Parameter defaults (``{}`` for none).
    ranges : dict
        Each tunable parameter's ``(low, high)`` box; a family with ranges can be tuned.
    kernel : bool
        Whether the game's compiled kernel plays it.
    preset_of : str or None
        For a preset, the family whose parameters it sets.
    """

    name: str
    summary: str
    params: dict[str, float] = field(default_factory=dict)
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    kernel: bool = False
    preset_of: str | None = None


@dataclass(frozen=True)
class ResultSchema:
    """What a game's chunk play returns, declared once.

    Attributes
    ----------
    components : tuple of str
        Per-seat score components; their sum is the seat's ``score`` (the conformance test
        checks it for every game).
    win_keys : tuple of str
        The win rule: seats are ranked by these per-seat columns in order, higher is better
        (usually ``score`` then tie-breaks; a game whose winner is not the best score
        declares its own key, as Pizza Theory's ``won``); the seats equal on all of them
        share the win, each with a win share of 1/k.
    seat_columns : tuple of str
        Every per-seat column :meth:`Game.play_chunk` returns, in table order (``score``,
        the components and the win keys among them).
    game_columns : tuple of str
        Every per-game column it returns, in table order.
    turn_order : str
        The per-seat column giving each seat's turn position in its game (0 = the first to
        play), where the first to play is not always seat 0 (``position``,
        ``start_position``); ``"seat"`` when seat 0 always plays first. The generic
        analyses of who starts read it.
    """

    components: tuple[str, ...]
    win_keys: tuple[str, ...]
    seat_columns: tuple[str, ...]
    game_columns: tuple[str, ...]
    turn_order: str = "seat"

    def __post_init__(self) -> None:
        if self.turn_order != "seat" and self.turn_order not in self.seat_columns:
            raise ValueError(f"turn_order {self.turn_order!r} is not a per-seat column")


@dataclass
class ChunkArrays:
    """One chunk of games as a game's chunk play returns it.

    Attributes
    ----------
    seats : dict
        Per-seat columns: a ``(games, players)`` NumPy array (ravelled seat-fastest by the
        runner) or an Arrow array already of length ``games × players``.
    games : dict
        Per-game columns: arrays of length ``games``.
    decisions : pyarrow.Table or None
        The per-decision table (without ``arm``), when asked for.
    """

    seats: dict[str, Any]
    games: dict[str, Any]
    decisions: pa.Table | None = None


@runtime_checkable
class State(Protocol):
    """A game in progress, in the OpenSpiel manner: chance is all drawn up front from an
    explicit stream, so a state is a pure function of that stream and the actions."""

    @property
    def current_player(self) -> int:
        """The seat to act (-1 once the game is over)."""
        ...

    @property
    def terminal(self) -> bool:
        """Whether the game is over."""
        ...

    def legal_actions(self) -> Sequence[int]:
        """The current player's legal actions (integers)."""
        ...

    def apply(self, action: int) -> None:
        """Play one legal action."""
        ...

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's final ``score`` and its :attr:`ResultSchema.components`."""
        ...

    def clone(self) -> State:
        """An independent copy."""
        ...


class Strategy(Protocol):
    """A player: built from a spec, it chooses actions (how it sees the state is the
    game's business: :meth:`Game.decide`)."""

    spec: StrategySpec


@runtime_checkable
class Game(Protocol):
    """What a game provides to the core; see the module docstring."""

    info: GameInfo
    options: tuple[GameOption, ...]
    results: ResultSchema
    data_limits: tuple[Limit, ...]
    """Every bound its data files and rule options must respect (the kernel's array
    sizes, the tables' column types), each checked by its parser and listed in the rules
    document's section "Data files" (:mod:`sims.core.limits`)."""
    knobs: tuple[Knob, ...]
    """The rule values a designer could change, with their ranges and the size of a change
    (:mod:`sims.core.knobs`): what ``slicelab balance`` searches."""
    restricted_play: RestrictedPlay | None
    """How a seat plays without one component (:class:`RestrictedPlay`), or None when no
    strategy of the game can: ``slicelab balance --component-bound`` needs it."""

    def variants(self, raw: Mapping[str, Any], players: int, base: Path | None) -> list[Variant]:
        """Validate an arm block's game options (the keys of :attr:`options` it holds,
        ``path`` ones already resolved against ``base``) at a player count; one
        :class:`Variant` per treatment the block asks for.

        Raises
        ------
        SlicelabError
            Naming the option at fault and what would be accepted.
        """
        ...

    def check_arm(self, arm: Arm) -> None:
        """Refuse an arm whose strategies, options or engine do not fit together."""
        ...

    def fingerprint(self, arm: Arm) -> dict[str, Any]:
        """What besides the study text determines the arm's data (data-file digests, the
        rules version, the table layout). Must hold ``variant_id`` and ``rules_version``."""
        ...

    def strategies(self) -> list[StrategyInfo]:
        """The strategy catalogue: families first, then presets."""
        ...

    def make_strategy(self, spec: str) -> Strategy:
        """A strategy from a spec string; raises StrategySpecError naming what is known."""
        ...

    def strategy_identity(self, spec: str, players: int) -> str:
        """A key equal for specs that play identically at ``players``."""
        ...

    def strategy_defaults(self, family: str, players: int) -> dict[str, float]:
        """A tunable family's parameters at ``players`` (its preset, if any)."""
        ...

    def check_preset(self, family: str, name: str) -> None:
        """Refuse, before any tuning, what :meth:`save_preset` would refuse after it (a
        family that cannot be tuned, a name not allowed); raises SlicelabError."""
        ...

    def save_preset(
        self, family: str, name: str, params: dict[str, float], note: str
    ) -> Path | None:
        """Store tuned parameters of ``family`` as the preset ``name`` in the user's own
        presets (never in the installed package); return the file written, if any."""
        ...

    def initial_state(
        self, options: Mapping[str, Any], players: int, rng: np.random.Generator
    ) -> State:
        """A new game of the variant ``options``, all chance drawn from ``rng``."""
        ...

    def decide(self, strategy: Strategy, state: State, rng: np.random.Generator) -> int:
        """The action ``strategy`` takes for the current player of ``state`` (it sees only
        what that seat may see)."""
        ...

    def engine_for(self, arm: Arm) -> str:
        """``"kernel"`` or ``"reference"``: the engine that plays this arm."""
        ...

    def play_chunk(
        self, arm: Arm, first: int, count: int, decisions: bool, engine: str | None = None
    ) -> ChunkArrays:
        """Play games ``first .. first + count - 1`` of ``arm`` (by ``engine``, default
        :meth:`engine_for`), seeded from ``(arm.seed, game index)`` alone."""
        ...

    def replay(
        self,
        options: Mapping[str, Any],
        players: int,
        specs: Sequence[str],
        seed: int,
        index: int,
        reveal: bool = False,
    ) -> str:
        """One game as a person would follow it, in the game's own terms (``slicelab
        replay``).

        Parameters
        ----------
        options : mapping
            The variant's options (as :meth:`variants` parsed them).
        players : int
            The number of seats.
        specs : sequence of str
            One strategy spec per seat.
        seed, index : int
            The study seed and the game's index: the same pair always plays the same game,
            so the same arguments always give the same text.
        reveal : bool, optional
            Also show what no spectator at the table sees (hidden cards, face-down slices,
            the order of what is still to be dealt), marked as such. A game with nothing
            hidden says so in one line. Default False: a spectator's view.

        Returns
        -------
        str
            The replay, lines separated by newlines, without a trailing newline.
        """
        ...


@cache
def get_game(name: str) -> Game:
    """The registered game called ``name``.

    Raises
    ------
    SlicelabError
        For an unknown name, listing the known ones.
    """
    if not isinstance(name, str) or name not in REGISTRY:
        raise SlicelabError(
            f"unknown game {name!r}; known games: {', '.join(sorted(REGISTRY))} "
            "(see `slicelab games`)"
        )
    module, attr = REGISTRY[name].split(":")
    game = getattr(import_module(module), attr)
    if not isinstance(game, Game):
        raise TypeError(f"{REGISTRY[name]} does not satisfy sims.core.game.Game")
    return game


def games() -> list[Game]:
    """Every registered game, in registry order."""
    return [get_game(name) for name in REGISTRY]


def win_shares(keys: Sequence[np.ndarray]) -> np.ndarray:
    """Win share per seat under a lexicographic win rule.

    Parameters
    ----------
    keys : sequence of array, each ``(games, players)``
        The :attr:`ResultSchema.win_keys` columns in order; higher is better.

    Returns
    -------
    array ``(games, players)``
        1/k for each of the k seats equal best on every key, 0 elsewhere.
    """
    won = np.ones(np.shape(keys[0]), dtype=bool)
    for key in keys:
        k = np.asarray(key, dtype=np.int64)
        masked = np.where(won, k, np.iinfo(np.int64).min)
        won &= masked == masked.max(axis=1, keepdims=True)
    return won / won.sum(axis=1, keepdims=True)
