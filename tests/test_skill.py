"""Balance by skill (analysis.skill): a matchup cell recovers a planted edge of either
sign, covers 0 about 95% of the time under a null and is unchanged by relabelling the
rotations; how a headline moves as skill rises, each outcome to the letter; the levels too
weak to veto and the main field's exploitability on hand-made tables; the verdict layer's
rule (robust.weak_fields); and the matchups of a real study of the toy game."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import sims.core.game as core_game
from analysis import skill
from analysis.robust import Condition, judge, vetoes, weak_fields
from analysis.skill import Level, SkillLevels, gain_interval, trend
from sims.batch import run_study
from sims.core.study import parse_study


def _rotated(rng: np.random.Generator, deals: int, n: int, p_one: float) -> np.ndarray:
    """(deals, n) win shares of a challenger that wins each game with probability
    ``p_one`` (one winner a game), every rotation its own game."""
    return (rng.random((deals, n)) < p_one).astype(float)


@pytest.mark.parametrize(("n", "delta"), [(2, 0.05), (4, 0.05), (4, -0.02), (6, -0.04)])
def test_a_planted_edge_comes_out_with_its_sign(n, delta):
    rng = np.random.default_rng(7)
    m, lo, hi = gain_interval(_rotated(rng, 4000, n, 1 / n + delta), n)
    assert (lo > 0) == (delta > 0) and (hi < 0) == (delta < 0)
    assert lo <= 100 * delta <= hi


def test_a_null_matchup_covers_zero_about_95_percent_of_the_time():
    rng = np.random.default_rng(11)
    cells = (gain_interval(_rotated(rng, 300, 4, 0.25), 4) for _ in range(1000))
    covered = [lo <= 0 <= hi for _, lo, hi in cells]
    assert 0.93 <= np.mean(covered) <= 0.97


def test_a_cell_one_level_always_wins_keeps_an_interval_of_its_deals():
    m, lo, hi = gain_interval(np.ones((20, 2)), 2)
    assert m == 50.0 and hi == 50.0 and 30 < lo < 40  # Wilson over 20 deals, not [50, 50]


def test_relabelling_the_rotations_changes_no_cell():
    share = _rotated(np.random.default_rng(3), 500, 4, 0.3)
    assert gain_interval(share, 4) == gain_interval(share[:, [2, 0, 3, 1]], 4)


R, G, H, S = ("random", -20.0, -21.0, -19.0), ("greedy", 1.0, 0.5, 1.5), (
    "heuristic", 2.0, 1.0, 3.0), ("search", 6.0, 5.0, 7.0)  # fmt: skip


@pytest.mark.parametrize(
    ("values", "outcome", "text"),
    [
        ([G, H, ("search", -2.0, -3.0, -1.0)], "flips",
         "it flips: above 0 with greedy and heuristic, below with search"),
        ([G, H, S], "grows",
         "it grows as skill rises: +1.0 with greedy, +6.0 with search (difference +5.0 ± 1.1)"),
        ([("greedy", 6.0, 5.0, 7.0), H], "shrinks",
         "it shrinks as skill rises: +6.0 with greedy, +2.0 with heuristic (difference -4.0 ± "
         "1.4)"),
        ([G, H], "holds", "it holds: above 0 at every level (greedy, heuristic)"),
        ([("greedy", 0.2, -1.0, 1.4), ("heuristic", -0.1, -1.1, 0.9)], "none",
         "no level shows it (greedy, heuristic all cover 0)"),
        ([G, ("heuristic", 1.0, -2.0, 4.0)], "unclear",
         "unclear: heuristic covers 0 without a clear difference"),
        ([H], "single",
         "only heuristic is strong enough to judge (above 0): no trend with skill can be read"),
        ([], "none", "no level was measured"),
    ],
)  # fmt: skip
def test_how_a_headline_moves_as_skill_rises(values, outcome, text):
    assert trend(values) == (outcome, text)


def test_random_is_shown_but_the_trend_reads_the_levels_passed():
    # the caller leaves weak levels out: with random's -20 the effect would "flip"
    assert trend([G, H])[0] == "holds" and trend([R, G, H])[0] == "flips"


LEVELS = SkillLevels((Level("random", "random"), Level("greedy", "greedy"),
                      Level("the heuristic", "heuristic", short="heur"),
                      Level("search", "search(budget=4)")), main="heuristic")  # fmt: skip


def _table(cells: list[tuple]) -> pl.DataFrame:
    return pl.DataFrame(
        [dict(zip(("players", "one", "field", "deals", "win_share", "gain_pp", "gain_low",
                   "gain_high"), c, strict=True)) | {"distinct": c[3]} for c in cells],
        schema=skill.MATCHUP_SCHEMA,
    )  # fmt: skip


TABLE = _table([
    (2, "random", "heuristic", 900, 0.1, -40.0, -42.0, -38.0),
    (2, "greedy", "heuristic", 900, 0.4, -10.0, -12.0, -8.0),
    (2, "search(budget=4)", "heuristic", 300, 0.8, 30.0, 26.0, 34.0),
    (3, "random", "heuristic", 900, 0.1, -25.0, -26.0, -24.0),
    (3, "greedy", "heuristic", 900, 0.33, -1.0, -3.0, 1.0),
    (3, "search(budget=4)", "heuristic", 300, 0.6, 3.0, -1.0, 7.0),
    (3, "heuristic", "greedy", 900, 0.5, 20.0, 18.0, 22.0),
])  # fmt: skip


def test_weak_levels_lose_to_the_main_field_by_more_than_the_gap():
    assert skill.weak_specs(TABLE, LEVELS, 2) == {"random", "greedy"}
    assert skill.weak_specs(TABLE, LEVELS, 3) == {"random"}
    assert skill.weak_specs(TABLE, LEVELS) == {"random"}  # weak at every count


def test_exploitability_is_the_largest_single_seat_gain_among_the_main_field():
    ex = skill.exploitability(TABLE, LEVELS)
    assert ex.select("players", "one", "gain_pp").rows() == [
        (2, "search(budget=4)", 30.0), (3, "search(budget=4)", 3.0)]  # fmt: skip


def test_levels_name_their_specs_and_refuse_a_main_field_that_is_no_level():
    assert LEVELS.name("heuristic") == "the heuristic" and LEVELS.short("heuristic") == "heur"
    assert LEVELS.short("search(budget=4)") == "search" and LEVELS.name("x(a=1)") == "x(a=1)"
    with pytest.raises(ValueError, match="not a skill level"):
        SkillLevels((Level("greedy", "greedy"),), main="heuristic")


def test_a_weak_field_describes_within_the_verdict_layers_rule_only():
    main = Condition("field", "main", 3.0, 2.0, 4.0, spec="heuristic")
    greedy = Condition("field", "greedy field", -3.0, -4.0, -2.0, spec="greedy")
    assert vetoes(greedy) and judge([main, greedy]).outcome == "flips"
    with weak_fields({"greedy"}):
        assert not vetoes(greedy) and judge([main, greedy]).outcome == "holds"
    assert vetoes(greedy)  # the rule ends with the block


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(core_game.REGISTRY, "toy", "toy_game:GAME")
    core_game.get_game.cache_clear()
    yield core_game.get_game("toy")
    core_game.get_game.cache_clear()


def test_the_matchups_of_a_real_study(toy, tmp_path):
    arms = [{"name": "skill-vs-random", "game": "toy", "players": [2, 3],
             "strategies": ["{one}", "random"], "grid": {"one": ["greedy", "random"]},
             "rotate": True, "games": 400}]  # fmt: skip
    out = tmp_path / "toy"
    run_study(parse_study({"name": "toy", "seed": 5, "arms": arms}), out)
    t = skill.matchups(out)
    assert t.select("players", "one", "field", "deals").rows() == [
        (2, "greedy", "random", 400), (2, "random", "random", 400),
        (3, "greedy", "random", 400), (3, "random", "random", 400)]  # fmt: skip
    # the challenger's own rows, read directly: its seat is the arm's rotation
    rows = pl.read_parquet(out / "players" / "**" / "*.parquet", hive_partitioning=True)
    mine = rows.filter(pl.col("seat") == pl.col("arm").str.extract(r"\.r(\d)$").cast(pl.Int64))
    for n in (2, 3):
        raw = mine.filter(pl.col("arm").str.contains(f"p{n}.onegreedy"))["win_share"].mean()
        cell = skill.cell(t, n, "greedy", "random")
        assert cell["win_share"] == pytest.approx(raw, abs=1e-12)
        assert cell["gain_pp"] == pytest.approx(100 * (raw - 1 / n), abs=1e-9)
        assert cell["gain_low"] < cell["gain_pp"] < cell["gain_high"]
    diagonal = t.filter(pl.col("one") == "random")
    assert diagonal.select("gain_pp", "gain_low", "gain_high").rows() == [(0.0, 0.0, 0.0)] * 2


def test_a_skill_block_must_seat_one_challenger_against_one_field(toy, tmp_path):
    arms = [{"name": "skill-mixed", "game": "toy", "players": 3, "rotate": True,
             "strategies": ["greedy", "random", "greedy"], "games": 10}]  # fmt: skip
    out = tmp_path / "toy"
    run_study(parse_study({"name": "toy", "seed": 5, "arms": arms}), out)
    with pytest.raises(ValueError, match="seats one challenger against one field spec"):
        skill.matchups(out)
