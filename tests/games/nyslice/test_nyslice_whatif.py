"""The what-if rule options ``super_sized_combo_halves`` and ``compensation``.

How they are given (``Rules``, a study file's ``[arms.rules]`` table, ``--rule`` on the
command line) and refused, the variant id covering them, and every place that reads the
Super-Sized count besides scoring (the view's type counts, the strategies' valuations,
the decision records). Their scoring is in ``test_nyslice_scoring.py``; the kernel's
agreement with the reference under them in ``test_nyslice_kernel.py``; malformed values
on the command line and in study files in ``tests/test_bad_input.py``.
"""

import numpy as np
import pytest
from click.testing import CliRunner
from nyslice_helpers import COMBO_5_9, DECK

from sims.cli import cli
from sims.core.errors import SlicelabError
from sims.core.study import Arm
from sims.games.nyslice.deck import Special
from sims.games.nyslice.engine import Decision, GameState, Phase, deal
from sims.games.nyslice.plugin import GAME, rules_of
from sims.games.nyslice.records import decision_row
from sims.games.nyslice.rules import Rules, variant_id
from sims.games.nyslice.strategies import _Valuer
from sims.games.nyslice.view import PlayerView

SSC = Special.SUPER_SIZED_COMBOS


# ---------------------------------------------------------------- giving the options
@pytest.mark.parametrize(
    "given,expected",
    [
        ([0, 2], (0, 2)),
        ((0, 2), (0, 2)),
        ([0, 2, 0, 0], (0, 2)),  # trailing zeros dropped
        ([0, 0], ()),
        ([], ()),
        ([20, 0, 0, 0, 0, 1], (20, 0, 0, 0, 0, 1)),
        ("0,2", (0, 2)),  # the command line's text
        ("[0, 2]", (0, 2)),
        (" [ 3 ] ", (3,)),
        ("[]", ()),
    ],
)
def test_compensation_values(given, expected):
    assert Rules(compensation=given).compensation == expected
    assert Rules.from_dict({"compensation": given}).compensation == expected


@pytest.mark.parametrize(
    "options",
    [
        {"compensation": 2},
        {"compensation": "x"},
        {"compensation": "0,,2"},
        {"compensation": "1.5"},
        {"compensation": [0, -1]},
        {"compensation": [0, 21]},
        {"compensation": [0, 1.5]},
        {"compensation": [0, True]},
        {"compensation": [0, "2"]},
        {"compensation": [[1]]},
        {"compensation": [0] * 7},
        {"compensation": {"a": 1}},
        {"compensation": None},
        {"super_sized_combo_halves": 0},
        {"super_sized_combo_halves": 9},
        {"super_sized_combo_halves": -4},
        {"super_sized_combo_halves": 3.0},
        {"super_sized_combo_halves": True},
        {"super_sized_combo_halves": "3"},
    ],
    ids=lambda o: f"{next(iter(o))}={next(iter(o.values()))!r}",
)
def test_malformed_values_are_refused_in_one_line(options):
    with pytest.raises(SlicelabError) as err:
        Rules.from_dict(options)
    message = str(err.value)
    assert next(iter(options)) in message and "\n" not in message
    if "compensation" in options:
        assert "compensation = [0, 2]" in message and "--rule compensation=0,2" in message


def test_rules_stay_hashable_and_the_variant_id_covers_the_options():
    digest = DECK.digest
    base = variant_id(Rules(), digest)
    assert variant_id(Rules(super_sized_combo_halves=4, compensation=[0, 0]), digest) == base
    ids = {
        variant_id(r, digest)
        for r in (Rules(super_sized_combo_halves=3), Rules(compensation=[0, 2]), Rules())
    }
    assert len(ids) == 3
    same = (Rules(compensation=[0, 2, 0]), Rules.from_dict({"compensation": "0,2"}))
    assert variant_id(same[0], digest) == variant_id(same[1], digest)
    assert len({Rules(compensation=[0, 2]), Rules(compensation=(0, 2))}) == 1  # hashable
    assert Rules.from_dict(Rules(compensation=[1, 2]).as_dict()) == Rules(compensation=(1, 2))


def test_a_study_arm_fingerprint_covers_the_options():
    def fp(rules):
        arm = Arm("a", "nyslice", 3, ("greedy",) * 3, 5, 1, options={"deck": None, "rules": rules})
        GAME.check_arm(arm)
        return GAME.fingerprint(arm)["variant_id"]

    assert fp({}) != fp({"super_sized_combo_halves": 3}) != fp({"compensation": [0, 2]})
    assert fp({"compensation": [0, 2]}) == fp({"compensation": "0,2"})
    assert rules_of({"rules": {"compensation": [0, 2]}}).compensation == (0, 2)


@pytest.mark.parametrize("n,comp", [(2, (0, 2)), (4, (0, 2)), (6, (1, 2, 3, 4, 5, 6))])
def test_bonus_by_position_from_the_first_slicer(n, comp):
    for first in range(n):
        rules = Rules(compensation=comp, first_slicer=first)
        bonus = [rules.bonus(p, n) for p in range(n)]
        expect = [comp[(p - first) % n] if (p - first) % n < len(comp) else 0 for p in range(n)]
        assert bonus == expect
        assert bonus[first] == comp[0]


# ---------------------------------------------------------------- who reads the halves
@pytest.mark.parametrize("halves", [1, 3, 4, 8])
def test_view_valuations_and_records_read_the_halves(halves):
    """The view's type counts, greedy's combo weight and the decision records' counts all
    count a Super-Sized combo number as ``halves`` halves."""
    rules = Rules(super_sized_combo_halves=halves)
    state = GameState(DECK, rules, 3, deal(DECK, 3, np.random.default_rng(1)))
    state.players[0].collected = [COMBO_5_9, 36]  # the 5/9 combo and a Buffalo
    state.players[0].specials = {SSC: 0}
    state.players[1].collected = [COMBO_5_9 - 1]  # the 4/6 combo, no Super-Sized
    view = PlayerView(state, 2)
    assert view.type_count(0, 9) == 1.0 + 0.5 * halves
    assert view.type_count(0, 5) == 0.5 * halves
    assert view.type_count(1, 4) == 0.5
    val = _Valuer(PlayerView(state, 0), 0)
    assert val.mine[9] == 1.0 + 0.5 * halves
    # A Buffalo slice's decision record shows seat 0's Buffalo count in halves.
    buffalo = 37
    row = decision_row(state, Decision(0, Phase.EAT, (0, 1), slice=buffalo), 0, 0)
    assert row[13] == 2 + halves  # own_count2
    row = decision_row(state, Decision(1, Phase.EAT, (0, 1), slice=buffalo), 0, 0)
    assert row[14] == 2 + halves  # rival_count2: seat 0's


# ---------------------------------------------------------------- command line and studies
def test_play_takes_the_options_on_the_command_line():
    args = ["play", "nyslice", "--players", "2", "--games", "20", "--strategies", "greedy"]
    for engine in ("kernel", "reference"):
        r = CliRunner().invoke(
            cli,
            [*args, "--engine", engine, "--rule", "super_sized_combo_halves=3",
             "--rule", "compensation=0,2"],
        )  # fmt: skip
        assert r.exit_code == 0, r.output
        assert "bonus" in r.output and "2.00" in r.output
    r = CliRunner().invoke(cli, [*args, "--rule", "compensation=[0, 2]"])
    assert r.exit_code == 0, r.output


def test_a_study_arm_takes_a_list(tmp_path):
    import polars as pl

    from analysis.load import scan
    from sims.batch import run_study
    from sims.core.study import load_study

    study = tmp_path / "s.toml"
    study.write_text(
        'name = "w"\nseed = 3\n\n'
        '[[arms]]\nname = "base"\ngame = "nyslice"\nplayers = 3\nstrategies = "greedy"\n'
        "games = 6\n\n"
        '[[arms]]\nname = "whatif"\ngame = "nyslice"\nplayers = 3\nstrategies = "greedy"\n'
        "games = 6\n[arms.rules]\nsuper_sized_combo_halves = 3\ncompensation = [0, 2, 1]\n"
    )
    run_study(load_study(study), tmp_path / "out", jobs=1)
    players = scan(tmp_path / "out", "players").collect().sort(["arm", "game_index", "seat"])
    base = players.filter(pl.col("arm") == "base")
    whatif = players.filter(pl.col("arm") == "whatif")
    assert base["bonus"].to_list() == [0] * 18
    assert whatif["bonus"].to_list() == [0, 2, 1] * 6
    parts = ["majorities", "specials", "diet", "pepperoni", "anchovies", "bonus"]
    assert (players["score"] == players.select(pl.sum_horizontal(parts))[:, 0]).all()
    games = scan(tmp_path / "out", "games").collect()
    ids = games.group_by("arm").agg(pl.col("variant_id").n_unique())["variant_id"]
    assert ids.to_list() == [1, 1] and games["variant_id"].n_unique() == 2
