"""Explicit seeding: every game's randomness derives from (study seed, game index).

Follows numpy's guide to parallel random numbers: the seed sequence for a game is
``SeedSequence([game_index, study_seed])`` (never ``seed + i``), and it spawns one
independent stream for the deal and one per seat, so one agent's coin flips never shift
the deck. The same pair gives the same game whatever the chunking or worker count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class GameStreams:
    """The random streams of one game.

    Attributes
    ----------
    deal : numpy.random.Generator
        Stream for shuffling and dealing (chance in the rules).
    seats : tuple of numpy.random.Generator
        One stream per seat, for that seat's strategy only.
    """

    deal: np.random.Generator
    seats: tuple[np.random.Generator, ...]


def game_seed_sequence(study_seed: int, game_index: int) -> np.random.SeedSequence:
    """Return the root ``SeedSequence`` of one game of a study."""
    if study_seed < 0 or game_index < 0:
        raise ValueError("study seed and game index must be non-negative integers")
    return np.random.SeedSequence([game_index, study_seed])


def game_streams(study_seed: int, game_index: int, n_seats: int) -> GameStreams:
    """Spawn the deal stream and one stream per seat for one game.

    Parameters
    ----------
    study_seed : int
        The study's seed.
    game_index : int
        The game's index within the study.
    n_seats : int
        Number of seats (players).

    Returns
    -------
    GameStreams
        Independent PCG64 generators: child 0 deals, child ``1 + s`` belongs to seat ``s``.
    """
    children = game_seed_sequence(study_seed, game_index).spawn(1 + n_seats)
    gens = [np.random.Generator(np.random.PCG64(c)) for c in children]
    return GameStreams(deal=gens[0], seats=tuple(gens[1:]))
