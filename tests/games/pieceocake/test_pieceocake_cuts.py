"""Cutting the circle: cuts as 11-bit gap masks, how many a server may choose from, and the
pieces (circle positions, in order) each one makes."""

from math import comb

import pytest

from sims.games.pieceocake.cuts import N_GAPS, cut_masks, pieces_of
from sims.games.pieceocake.rules import Rules


def _mask(*gaps: int) -> int:
    return sum(1 << g for g in gaps)


# max pieces, exact, number of legal cuts
COUNTS = [
    (1, False, 1),  # the whole cake only
    (2, False, 56),  # 1 + C(11, 2)
    (3, False, 221),  # 56 + C(11, 3)
    (4, False, 551),  # 221 + C(11, 4)
    (5, False, 1013),  # 551 + C(11, 5)
    (6, False, 1475),  # 1013 + C(11, 6): two_player_pieces = 6
    (2, True, 55),
    (3, True, 165),
    (4, True, 330),
    (5, True, 462),
    (6, True, 462),
    (11, False, 2037),  # 2**11 minus the 11 one-gap masks
    (11, True, 1),  # eleven 1-slice pieces
    (12, False, 2037),  # more than 11 pieces is capped at 11
]


@pytest.mark.parametrize("max_pieces,exact,count", COUNTS)
def test_number_of_legal_cuts(max_pieces, exact, count):
    masks = cut_masks(max_pieces, exact)
    assert len(masks) == count
    assert list(masks) == sorted(set(masks))  # ascending, no repeats


@pytest.mark.parametrize("max_pieces", [2, 3, 4, 5])
def test_legal_cuts_are_whole_cake_and_2_to_n_gaps(max_pieces):
    masks = cut_masks(max_pieces)
    assert masks[0] == 0  # the whole cake is always allowed unless exact
    assert all(m.bit_count() != 1 for m in masks)  # a single cut leaves one piece
    assert max(m.bit_count() for m in masks) == max_pieces
    assert len(masks) == 1 + sum(comb(N_GAPS, k) for k in range(2, max_pieces + 1))
    exact = cut_masks(max_pieces, exact=True)
    assert 0 not in exact
    assert {m.bit_count() for m in exact} == {max_pieces}


@pytest.mark.parametrize(
    "players,rules,count",
    [
        (2, Rules(), 551),  # ruling: at 2 players up to 4 pieces
        (3, Rules(), 221),
        (4, Rules(), 551),
        (5, Rules(), 1013),
        (2, Rules(two_player_pieces=2), 56),
        (2, Rules(two_player_pieces=3), 221),
        (2, Rules(two_player_pieces=6), 1475),
        (2, Rules(exact_pieces=True), 330),
        (3, Rules(exact_pieces=True), 165),
        (4, Rules(exact_pieces=True), 330),
        (5, Rules(exact_pieces=True), 462),
        (3, Rules(two_player_pieces=2), 221),  # two_player_pieces only acts at 2 players
    ],
)
def test_cuts_offered_by_the_rules(players, rules, count):
    assert len(cut_masks(rules.max_pieces(players), rules.exact_pieces)) == count


# id, mask, pieces (circle positions, from the piece after the lowest cut gap)
PIECES = [
    ("whole cake", 0, [list(range(11))]),
    ("two halves", _mask(4, 10), [[5, 6, 7, 8, 9, 10], [0, 1, 2, 3, 4]]),
    ("wrap-around piece", _mask(2, 7), [[3, 4, 5, 6, 7], [8, 9, 10, 0, 1, 2]]),
    ("adjacent gaps: 1-slice piece", _mask(3, 4), [[4], [5, 6, 7, 8, 9, 10, 0, 1, 2, 3]]),
    ("gaps 10 and 0: position 0 alone", _mask(0, 10), [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [0]]),
    (
        "three pieces",
        _mask(2, 5, 10),
        [[3, 4, 5], [6, 7, 8, 9, 10], [0, 1, 2]],
    ),
    (
        "four pieces, one wrapping",
        _mask(1, 3, 6, 8),
        [[2, 3], [4, 5, 6], [7, 8], [9, 10, 0, 1]],
    ),
    ("five 1-slice-and-more", _mask(0, 1, 2, 3, 4), [[1], [2], [3], [4], [5, 6, 7, 8, 9, 10, 0]]),
    ("every gap", (1 << 11) - 1, [[p] for p in range(1, 11)] + [[0]]),
]


@pytest.mark.parametrize("mask,expected", [p[1:] for p in PIECES], ids=[p[0] for p in PIECES])
def test_pieces_of(mask, expected):
    assert pieces_of(mask) == expected


@pytest.mark.parametrize("max_pieces", [2, 5])
def test_every_cut_partitions_the_circle_into_arcs(max_pieces):
    for mask in cut_masks(max_pieces):
        pieces = pieces_of(mask)
        assert len(pieces) == max(1, mask.bit_count())
        assert sorted(p for piece in pieces for p in piece) == list(range(11))
        for piece in pieces:  # contiguous, in circle order
            assert all((b - a) % 11 == 1 for a, b in zip(piece, piece[1:], strict=False))
            assert mask >> piece[-1] & 1 or mask == 0  # each piece ends at a cut gap
