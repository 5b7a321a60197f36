"""Piece o' Cake's knobs (:mod:`sims.core.knobs`): what ``slicelab balance`` may change:
rule options, and each variety's majority value (the cake file's ``value``, printed equal
to its ``copies``) and its slices (``copies``) as data knobs, which play a changed copy
of the arm's cake."""

from __future__ import annotations

from importlib import resources

from sims.core.knobs import DataKnob, Knob, int_knob
from sims.games.pieceocake.cake import DEFAULT_CAKE_FILE
from sims.games.pieceocake.rules import TWO_PLAYER_PIECES

KNOBS: tuple[Knob, ...] = (
    Knob(
        "exact_pieces",
        "the server cuts exactly as many pieces as players (exact-N)",
        (False, True),
        False,
    ),
    int_knob(
        "two_player_pieces",
        "pieces a server cuts at 2 players",
        *TWO_PLAYER_PIECES,
        4,
        unit="pieces",
        max_players=2,
    ),
    Knob(
        "two_player_order",
        "the order of picking at 2 players",
        ("alternate", "snake"),
        "alternate",
        max_players=2,
    ),
    Knob("forgo_eats", "what a seat that forgoes its pick eats", ("all", "choose", "none"), "all"),
    Knob(
        "majority_ties",
        "how a tie for a variety's majority scores",
        ("full", "none", "split"),
        "full",
    ),
)

VARIETIES = (("plum", 3), ("apricot", 4), ("cherry", 5), ("blackberry", 7), ("kiwi", 8),
             ("gooseberry", 9), ("strawberry", 10), ("chocolate", 11))  # fmt: skip
"""The published cake's varieties in file order, with their copies (= printed values)."""


def cake_text(path: str | None) -> str:
    """The TOML text of the cake an arm plays (``None``: the published cake)."""
    if path is None:
        folder = resources.files("sims.games.pieceocake").joinpath("data")
        return folder.joinpath(DEFAULT_CAKE_FILE).read_text("utf-8")
    return open(path, encoding="utf-8").read()


def _value(i: int, name: str, copies: int) -> DataKnob:
    return DataKnob(f"value.{name}", f"points of the {name} majority (printed: its copies)",
                    tuple(range(max(0, copies - 3), copies + 4)), copies, option="cake",
                    unit="points", paths=(("variety", i, "value"),),
                    fallback=("variety", i, "copies"), text=cake_text)  # fmt: skip


def _copies(i: int, name: str, copies: int) -> DataKnob:
    # The majority value is pinned: in the published cake it is the copies (the file
    # gives one number), and a count knob changes the slices, not what the majority is
    # worth (``value.<variety>`` does that). Two fewer at most: the cake keeps the 55
    # slices five circles lay (combinations below that are refused, and left out).
    return DataKnob(f"copies.{name}", f"slices of {name} in the cake (its majority value kept)",
                    tuple(range(max(1, copies - 2), copies + 4)), copies, option="cake",
                    unit="slices", paths=(("variety", i, "copies"),),
                    pin=((("variety", i, "value"), ("variety", i, "copies")),),
                    text=cake_text)  # fmt: skip


KNOBS += tuple(_value(i, name, copies) for i, (name, copies) in enumerate(VARIETIES))  # fmt: skip
KNOBS += tuple(_copies(i, name, copies) for i, (name, copies) in enumerate(VARIETIES))  # fmt: skip
