"""What a Pizza Theory study block plays and how many different games it holds.

The blocks of ``studies/pizzatheory-balance.toml`` by role (:data:`FIELDS`,
:data:`BOARD_FIELDS`, :data:`OPENING_FIELDS`), the board and rules a block plays (from the
manifest), and :func:`distinct_games`: the 3-player game has no chance and greedy and the
heuristic draw nothing, so every game of an all-heuristic or all-greedy 3-player block is
the same game. Such a block is **deterministic**: its numbers are exact for that field
(one game, replayed), not a sample, and the report says so wherever it shows them. The main
field (:data:`MAIN_FIELD`) is the mixed player's, whose cuts are draws: its games differ at
every count; :func:`chance_fields` names the fields a verdict is judged across.
"""

from __future__ import annotations

import polars as pl

from analysis.blocks import block_arms
from analysis.datavariants import DataVariants
from analysis.prose import preset_status as shared_preset_status

MAIN = 3
"""The published game's player count (2 players is the neutral-colour variant)."""
FIELDS: dict[str, str] = {
    "mixed field": "seats",
    "random field": "seats-random",
    "heuristic field": "seats-heuristic",
    "greedy field": "seats-greedy",
}
"""Every field of players the seat questions are asked in, and its uniform block; the
first is the main one."""
FIELD_SPECS: dict[str, str] = {
    "mixed field": "mixed",
    "random field": "random",
    "heuristic field": "heuristic",
    "greedy field": "greedy",
}
"""The spec every seat of each field's blocks plays (``studies/pizzatheory-balance.toml``):
a field's robustness condition carries it, so random play describes and never vetoes
(:func:`analysis.robust.vetoes`)."""
MAIN_FIELD = "mixed field"
"""The field the verdicts' estimates come from: the mixed player in every seat (its cuts
are draws from its mix, so its games differ at every count)."""
NO_DRAWS = ("heuristic field", "greedy field")
"""Fields whose players draw nothing: where the game deals no chance (:data:`NO_CHANCE`)
every game of theirs is one game."""
NO_CHANCE = (3,)
"""Player counts at which the game deals no chance (no deal, no die: the neutral die
rolls only at 2 players)."""
BOARDS = ("hex-37-mid", "round-31", "hex-61")
"""The shipped alternatives to the default board, each compared with ``hex-37``."""
DEFAULT_BOARD = "hex-37"
BOARD_FIELDS: dict[str, tuple[str, str]] = {
    "mixed field": ("seats", "board-{name}"),
    "random field": ("seats-random", "board-{name}-random"),
}
"""Per field: the block on the default board and the name pattern of the block on each
alternative board."""
BOARD_VARIANTS = DataVariants(DEFAULT_BOARD, BOARDS, BOARD_FIELDS)
"""The boards the study plays, per field (:meth:`~analysis.datavariants.DataVariants.blocks`)."""
OPENING_FIELDS: dict[str, tuple[str, str]] = {
    "mixed field": ("blind", "seats"),
}
"""Per field: the restricted block (one seat places its first topping at random) and the
uniform block it is paired with by deal."""
SAFETY_FIELDS: dict[str, tuple[str, str]] = {
    "mixed field": ("seats", "safety-off"),
}
"""Per field: the uniform block and the block that plays its deals without the safety rule
(``safety = false``), paired by deal."""
ENDINGS = {0: "win", 1: "run-out tiebreak", 2: "draw at the round bound", 3: "neutral win"}
"""The ``games.ending`` codes."""
SIGNATURE_SEAT = (
    "won",
    "toppings",
    "placed",
    "captured",
    "lost",
    "safe_rounds",
    "saved",
    "skipped",
    "win_share",
)
SIGNATURE_GAME = ("rounds", "ending", "safety_rounds", "neutral_on_board", "decisions")
"""The columns whose values tell two games apart (those a dataset has)."""
DETERMINISTIC = "deterministic: every game the same"
"""The warning of a cell of a deterministic block."""


PLAYERS = {
    "mixed": "the mixed player",
    "heuristic": "the heuristic",
    "greedy": "greedy",
    "random": "random play",
}
"""The families as a sentence names them."""


def short(field: str) -> str:
    """``mixed`` for ``mixed field``."""
    return field.removesuffix(" field")


def the_field(field: str = MAIN_FIELD) -> str:
    """``the mixed field``: a field as a sentence names it (the main field by default)."""
    return f"the {field}"


def field_player(field: str = MAIN_FIELD) -> str:
    """Who plays every seat of a field, from its name: ``the mixed player``."""
    name = short(field)
    return PLAYERS.get(name, f"'{name}'")


def chance_fields(players: int, deterministic: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The fields (in :data:`FIELDS` order) whose games at ``players`` can differ: every
    field but those found ``deterministic`` there and, at a count without chance
    (:data:`NO_CHANCE`), the fields whose players draw nothing (:data:`NO_DRAWS`). These
    are the fields a verdict is judged across; a deterministic field is one game, no
    evidence for or against an interval."""
    return [
        f for f in FIELDS if f not in deterministic and not (players in NO_CHANCE and f in NO_DRAWS)
    ]


def describe(spec: str) -> str:
    """A spec as the report names it."""
    known = {
        "heuristic": "the heuristic",
        "mixed": "the mixed player",
        "greedy": "greedy",
        "random": "random play",
        "mixed(blind=1)": "the mixed player placing its first topping at random (mixed(blind=1))",
        "heuristic(blind=1)": "the heuristic placing its first topping at random "
        "(heuristic(blind=1))",
    }
    return known.get(spec.replace(" ", ""), f"'{spec}'")


def mixed_status(counts: tuple[int, ...] = (MAIN, 2)) -> str:
    """What plain ``mixed`` plays at each count, read from the game's strategies at run time
    (not copied): its resolved parameters (``seat_params``: ``MIXED_DEFAULTS`` under the
    family's self-play equilibrium valuation ``MIXED_EQUILIBRIA`` where one is given for
    the count), the weights it places and values cuts with and the iterations of regret
    matching its cut mix comes from."""
    from sims.games.pizzatheory import strategies

    equilibria = getattr(strategies, "MIXED_EQUILIBRIA", {})
    groups: dict[str, list[str]] = {}
    for n in counts:
        p = strategies.seat_params("mixed", n)
        weights = ", ".join(f"{k}={v:g}" for k, v in p.items() if k not in ("iters", "blind"))
        how = (
            "the family's self-play equilibrium valuation (strategies.MIXED_EQUILIBRIA)"
            if n in equilibria
            else "the family's defaults, not tuned (strategies.MIXED_DEFAULTS)"
        )
        groups.setdefault(how, []).append(f"at {n} players {weights}")
    iters = strategies.seat_params("mixed", counts[0]).get("iters")
    return (
        "Plain 'mixed' plays "
        + "; ".join(f"{how}: {'; '.join(at)}" for how, at in groups.items())
        + ". It places by the heuristic's valuation with these weights (its own, not those "
        "of plain 'heuristic') and cuts by drawing its line from regret matching's average "
        "strategy of the round's simultaneous cut game"
        + (f" after {iters:g} iterations" if iters is not None else "")
        + " (docs/strategies/pizzatheory.md says how each valuation was found). An "
        "equilibrium within the family is not one of the whole game: a player outside it "
        "could do better."
    )


def preset_status() -> str:
    """What plain ``heuristic`` plays, from the game's shipped presets file
    (``sims/games/pizzatheory/data/presets.toml``, when this checkout has one):
    :func:`analysis.prose.preset_status`."""
    return shared_preset_status("sims.games.pizzatheory")


def block_board(manifest: dict, group: str) -> str:
    """The board a block plays (its first arm's ``board``; the default ``hex-37``)."""
    for a in block_arms(manifest, group):
        return str(a.get("board") or DEFAULT_BOARD)
    return DEFAULT_BOARD


def block_rules(manifest: dict, group: str) -> dict[str, object]:
    """The rule options a block sets (its first arm's ``rules``; none: the defaults)."""
    for a in block_arms(manifest, group):
        return dict(a.get("rules") or {})
    return {}


def rule_value(manifest: dict, group: str, key: str):
    """A rule's value in a block: its own setting, else the rules' default."""
    from sims.games.pizzatheory.rules import Rules

    return getattr(Rules.from_dict(block_rules(manifest, group)), key)


def signatures(players: pl.DataFrame, games: pl.DataFrame | None = None) -> pl.DataFrame:
    """One row per game (``arm, players, game_index``) with ``signature``: its seats' values
    of :data:`SIGNATURE_SEAT` in starting-position order (seat order where the table has no
    ``start_position``) and its :data:`SIGNATURE_GAME` values, as one string. Two games with
    the same signature have the same outcome in every column up to which colour sat where:
    a game replayed with the colours relabelled (rule ``cycle_first_seat``) is the same
    game, since no strategy breaks a tie by colour."""
    seat_cols = [c for c in SIGNATURE_SEAT if c in players.columns]
    order = "start_position" if "start_position" in players.columns else "seat"
    per = (
        players.sort(order, "seat")
        .group_by("arm", "players", "game_index")
        .agg([pl.col(c).cast(pl.String).str.join(",").alias(c) for c in seat_cols])
    )
    cols = seat_cols
    if games is not None:
        game_cols = [c for c in SIGNATURE_GAME if c in games.columns]
        g = games.select("arm", "game_index", *[pl.col(c).cast(pl.String) for c in game_cols])
        per = per.join(g, on=["arm", "game_index"], how="left")
        cols = [*seat_cols, *game_cols]
    if not cols:
        return per.with_columns(pl.col("game_index").cast(pl.String).alias("signature"))
    return per.with_columns(
        pl.concat_str([pl.col(c).fill_null("") for c in cols], separator="|").alias("signature")
    ).select("arm", "players", "game_index", "signature")


def distinct_games(players: pl.DataFrame, games: pl.DataFrame | None = None) -> pl.DataFrame:
    """Per player count of a block: ``games``, ``distinct`` (games with different outcomes,
    counted within each arm and summed) and ``deterministic`` (every arm's games are one
    and the same game, and there are at least two of them to tell)."""
    sig = signatures(players, games)
    per_arm = sig.group_by("players", "arm").agg(
        pl.len().alias("games"), pl.col("signature").n_unique().alias("distinct")
    )
    schema = {
        "players": pl.Int64,
        "games": pl.Int64,
        "distinct": pl.Int64,
        "deterministic": pl.Boolean,
    }
    if per_arm.is_empty():
        return pl.DataFrame(schema=schema)
    return (
        per_arm.group_by("players")
        .agg(
            pl.col("games").sum().cast(pl.Int64),
            pl.col("distinct").sum().cast(pl.Int64),
            ((pl.col("distinct") == 1).all() & (pl.col("games").sum() > 1)).alias("deterministic"),
        )
        .with_columns(pl.col("players").cast(pl.Int64))
        .sort("players")
        .select(list(schema))
    )


def mark_deterministic(table: pl.DataFrame) -> pl.DataFrame:
    """Every cell of a deterministic count warns :data:`DETERMINISTIC` (its interval is a
    point because one game was replayed, not because many games agreed)."""
    if "deterministic" not in table.columns:
        return table
    return table.with_columns(
        pl.when(pl.col("deterministic"))
        .then(pl.lit(DETERMINISTIC))
        .otherwise(pl.col("warning"))
        .alias("warning")
    )
