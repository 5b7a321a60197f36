"""Piece o' Cake's knobs (:mod:`sims.core.knobs`): what ``slicelab balance`` may change."""

from __future__ import annotations

from sims.core.knobs import Knob, int_knob
from sims.games.pieceocake.rules import TWO_PLAYER_PIECES

KNOBS: tuple[Knob, ...] = (
    Knob("exact_pieces", "the server cuts exactly as many pieces as players (exact-N)",
         (False, True), False),
    int_knob("two_player_pieces", "pieces a server cuts at 2 players", *TWO_PLAYER_PIECES, 4,
             unit="pieces", max_players=2),
    Knob("two_player_order", "the order of picking at 2 players", ("alternate", "snake"),
         "alternate", max_players=2),
    Knob("forgo_eats", "what a seat that forgoes its pick eats", ("all", "choose", "none"),
         "all"),
    Knob("majority_ties", "how a tie for a variety's majority scores",
         ("full", "none", "split"), "full"),
)  # fmt: skip
