"""What-if rule changes in the analysis: a headline before and after, paired by deal."""

from __future__ import annotations

import numpy as np
import pytest
from analysis_fixtures import SyntheticDataset, approx, one_hot, row, t_interval

from analysis.nyslice.whatif import first_slicer_change
from analysis.whatif import block_rules, change_text

BEFORE = [0, 1, 1, 2, 3, 0, 1, 2]  # winners of 8 deals at 4 players, printed rules
AFTER = [0, 0, 1, 2, 0, 0, 1, 2]  # the same deals with the first slicer compensated


@pytest.fixture(scope="module")
def whatif_data(tmp_path_factory):
    d = SyntheticDataset(tmp_path_factory.mktemp("whatif"))
    d.arm("seats-p4", 4, group="seats")
    d.players("seats-p4", win_share=one_hot(BEFORE, 4), score=np.ones((8, 4)))
    d.arm("whatif-comp1-p4", 4, group="whatif-comp1")
    d.arms["whatif-comp1-p4"]["rules"] = {"compensation": [1]}
    d.players("whatif-comp1-p4", win_share=one_hot(AFTER, 4), score=np.ones((8, 4)))
    return d.write()


def test_first_slicer_change_is_paired_by_deal(whatif_data):
    t = first_slicer_change(whatif_data, "seats", "whatif-comp1")
    r = row(t, players=4)
    edge = lambda w: 100 * (w[:, 0] - 1 / w.shape[1])  # noqa: E731  share minus fair
    before, after = edge(one_hot(BEFORE, 4)), edge(one_hot(AFTER, 4))
    assert (r["before"], r["before_low"], r["before_high"]) == approx(t_interval(before))
    assert (r["after"], r["after_low"], r["after_high"]) == approx(t_interval(after))
    assert (r["change"], r["change_low"], r["change_high"]) == approx(
        t_interval(after - before))  # fmt: skip
    # two deals flip to the first slicer: its share rises by 1 in 2 of 8 deals
    assert r["change"] == approx(100 * 2 / 8)
    # the shared change table's columns (analysis.whatif)
    assert (r["measure"], r["unit"], r["n"], r["n_unit"]) == ("first_edge", "pp", 8, "deals")


def test_block_rules_and_change_text(whatif_data):
    assert block_rules(whatif_data, "whatif-comp1") == {"compensation": [1]}
    assert block_rules(whatif_data, "seats") == {}
    assert change_text({"compensation": [1]}) == "compensation = [1]"
    assert change_text({}) == "the printed rules"
