"""The shared layer of the data-variant sections (:mod:`analysis.datavariants`) and the
block readers every game uses (:func:`analysis.blocks.present`,
:func:`analysis.load.block_frames`), on small tables with exact expected values."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import SyntheticDataset, one_hot
from polars.testing import assert_frame_equal

from analysis.blocks import present
from analysis.datavariants import DataVariants, stacked, variant_tables
from analysis.load import block_frames


def _manifest(*groups: str) -> dict:
    return {"study": {"arms": [{"name": f"{g}.p3", "group": g} for g in groups]}}


BOARDS = DataVariants(
    "hex-37",
    ("hex-37-mid", "round-31", "hex-61"),
    {
        "mixed field": ("seats", "board-{name}"),
        "random field": ("seats-random", "board-{name}-random"),
    },
)


@pytest.mark.parametrize(
    "groups, blocks, expected",
    [
        (("a", "c"), {"x": "a", "y": "b", "z": "c"}, {"x": "a", "z": "c"}),
        (("c", "a"), {"z": "c", "x": "a"}, {"z": "c", "x": "a"}),  # in the blocks' order
        ((), {"x": "a"}, {}),
    ],
)
def test_present_keeps_the_blocks_the_study_has_in_order(groups, blocks, expected):
    assert present(_manifest(*groups), blocks) == expected


@pytest.mark.parametrize(
    "groups, field, expected",
    [
        (
            ("seats", "board-hex-61", "board-hex-37-mid"),
            None,
            {"hex-37": "seats", "hex-37-mid": "board-hex-37-mid", "hex-61": "board-hex-61"},
        ),
        (
            ("seats", "seats-random", "board-round-31-random", "board-hex-61"),
            "random field",
            {"hex-37": "seats-random", "round-31": "board-round-31-random"},
        ),
        (("board-hex-61",), "mixed field", {"hex-61": "board-hex-61"}),  # the default missing
        (("seats",), None, {"hex-37": "seats"}),
    ],
)
def test_the_variants_a_study_plays_are_its_blocks_default_first(groups, field, expected):
    blocks = BOARDS.blocks(_manifest(*groups), field)
    assert blocks == expected
    assert list(blocks) == list(expected)


def test_a_variant_section_needs_every_alternative_block_field_by_field():
    assert BOARDS.needs == (
        "board-hex-37-mid",
        "board-round-31",
        "board-hex-61",
        "board-hex-37-mid-random",
        "board-round-31-random",
        "board-hex-61-random",
    )
    cards = DataVariants(
        "assumed v1", ("v1-harsh",), {"heuristic field": ("seats", "cards-{name}")}
    )
    assert cards.needs == ("cards-v1-harsh",)


def test_variant_tables_reads_each_variants_block():
    blocks = {"hex-37": "seats", "hex-61": "board-hex-61"}
    assert variant_tables("/data", blocks, lambda out, b: f"{out}:{b}") == {
        "hex-37": "/data:seats",
        "hex-61": "/data:board-hex-61",
    }


def test_stacked_names_each_variants_rows_in_the_last_column():
    tables = {
        "assumed v1": pl.DataFrame({"players": [2, 3], "edge_pp": [1.5, -0.5]}),
        "v1-harsh": pl.DataFrame({"players": [3], "edge_pp": [2.0]}),
    }
    expected = pl.DataFrame(
        {
            "players": [2, 3, 3],
            "edge_pp": [1.5, -0.5, 2.0],
            "card_set": ["assumed v1", "assumed v1", "v1-harsh"],
        }
    )
    assert_frame_equal(stacked(tables, "card_set"), expected)
    largest = stacked(tables, "card_set", lambda t: t.select(pl.col("edge_pp").abs().max()))
    assert_frame_equal(
        largest, pl.DataFrame({"edge_pp": [1.5, 2.0], "card_set": ["assumed v1", "v1-harsh"]})
    )


def _dataset(path, wins: list[int]):
    d = SyntheticDataset(path)
    d.arm("seats.p3", 3, group="seats")
    d.players("seats.p3", win_share=one_hot(wins, 3))
    d.games("seats.p3", rounds=[5] * len(wins))
    d.arm("other.p3", 3, group="other")
    d.players("other.p3", win_share=one_hot([0], 3))
    d.games("other.p3", rounds=[9])
    return d.write()


def test_block_frames_reads_a_blocks_rows_once_per_dataset_state(tmp_path):
    out = _dataset(tmp_path / "d", [0, 2])
    players, games = block_frames(out, "seats")
    assert players["game_index"].to_list() == [0, 0, 0, 1, 1, 1]
    assert players["win_share"].to_list() == [1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    assert set(players["group"]) == {"seats"}
    assert games["rounds"].to_list() == [5, 5]
    again = block_frames(str(out), "seats")  # the same dataset named as a string
    assert again[0] is players and again[1] is games
    _dataset(tmp_path / "d", [1, 1, 1])  # rewritten: read again
    players, games = block_frames(out, "seats")
    assert players["win_share"].to_list() == list(np.ravel(one_hot([1, 1, 1], 3)))
    assert games["rounds"].to_list() == [5, 5, 5]
