"""``slicelab balance`` (:mod:`sims.balance`) and the knobs games declare
(:mod:`sims.core.knobs`).

Planted truths on High Card (``tests/toy_game.py``), whose rule ``lead`` adds points to
seat 0: with ``lead = 3`` the search must find ``lead = 0`` (a change of −3) and report
every position within ±1 pp on fresh deals; the fair game must get "no change". The edges'
intervals cover a fair position's 0 about 95% of the time; a rerun loads every play it
kept; the study file it writes replays the held-out check game for game; and every game's
knobs are real rule values, read and set as its rules read them.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import sims.core.game as core_game
from sims.balance import (
    Measured,
    balance,
    describe,
    edges,
    measure,
    position_shares,
    rank,
    study_text,
)
from sims.batch import one_arm, run_study
from sims.cli import cli
from sims.core.errors import SlicelabError
from sims.core.game import games
from sims.core.knobs import Knob, int_knob, parse_setting
from sims.core.study import parse_study


@pytest.fixture
def toy():
    """High Card in the registry, for these tests only."""
    saved = dict(core_game.REGISTRY)
    core_game.REGISTRY["toy"] = "toy_game:GAME"
    core_game.get_game.cache_clear()
    yield core_game.get_game("toy")
    core_game.REGISTRY.clear()
    core_game.REGISTRY.update(saved)
    core_game.get_game.cache_clear()


UNFAIR = {"rules": {"hand": 3, "lead": 3}}


# --------------------------------------------------------------------------- knobs
def test_a_knob_reads_sets_and_sizes_a_rule_value():
    k = int_knob("supply", "toppings", 10, 22, 16, unit="toppings")
    assert k.read({}) == 16 and k.read({"rules": {"supply": 12}}) == 12
    opts = {"rules": {"safety": False}, "board": "hex-61"}
    assert k.set(opts, 14) == {"rules": {"safety": False, "supply": 14}, "board": "hex-61"}
    assert opts == {"rules": {"safety": False}, "board": "hex-61"}  # not changed in place
    assert (k.size(14, 16), k.size(16, 16), k.numeric) == (2.0, 0.0, True)
    assert k.parse("12") == 12 and k.describe(12) == "supply = 12 toppings"
    with pytest.raises(SlicelabError, match="'9' is not one of its values; use one of 10 to 22"):
        k.parse("9")
    choice = Knob("tie", "ties", ("shared", "dishes"), "shared")
    assert (choice.numeric, choice.size("dishes", "shared"), choice.parse("DISHES")) == (
        False, 1.0, "dishes")  # fmt: skip
    flag = Knob("safety", "the rule", (True, False), True)
    assert flag.parse("false") is False and not flag.numeric and flag.size(False, True) == 1
    with pytest.raises(ValueError, match="default 7 not among its values"):
        Knob("x", "x", (1, 2), 7)


def test_a_list_entry_knob_keeps_the_rules_normal_form():
    k = int_knob("compensation.2", "points", 0, 6, 0, key="compensation", index=2,
                 min_players=3)  # fmt: skip
    assert k.read({}) == 0 and k.read({"rules": {"compensation": [0, 1]}}) == 0
    assert k.read({"rules": {"compensation": (0, 1, 4)}}) == 4
    assert k.set({}, 2) == {"rules": {"compensation": [0, 0, 2]}}
    assert k.set({"rules": {"compensation": [1, 0, 2]}}, 0) == {"rules": {"compensation": [1]}}
    # the command line's --rule compensation=3,0,1 (text) and --rule compensation=3 (a number)
    assert k.read({"rules": {"compensation": "3,0,1"}}) == 1
    assert k.set({"rules": {"compensation": "3,0,1"}}, 2) == {"rules": {"compensation": [3, 0, 2]}}
    assert k.set({"rules": {"compensation": 3}}, 2) == {"rules": {"compensation": [3, 0, 2]}}
    assert [k.acts_at(n) for n in (2, 3, 6)] == [False, True, True]
    two = int_knob("two_player_pieces", "pieces", 2, 6, 4, max_players=2)
    assert [two.acts_at(n) for n in (2, 3)] == [True, False]


def test_parse_setting_names_the_problem():
    knobs = (int_knob("lead", "points", -5, 5, 0),)
    assert parse_setting(knobs, "lead=-2", "High Card") == (knobs[0], -2)
    with pytest.raises(SlicelabError, match="write KNOB=VALUE"):
        parse_setting(knobs, "lead", "High Card")
    with pytest.raises(SlicelabError, match="High Card has no knob 'cards'; its knobs: lead"):
        parse_setting(knobs, "cards=2", "High Card")


@pytest.mark.parametrize("game", [g.info.name for g in games()])
def test_every_knob_is_a_rule_value_the_game_accepts_at_its_ends(game):
    """Each knob's lowest and highest value (and its printed one) is a valid arm at every
    count where it acts, and the printed value is the rules' own default: the knob sets
    what the engines read (their agreement at those values is in test_game_conformance)."""
    g = core_game.get_game(game)
    assert g.knobs, f"{game} declares no knobs"
    assert len({k.name for k in g.knobs}) == len(g.knobs)
    for k in g.knobs:
        counts = [n for n in range(g.info.min_players, g.info.max_players + 1) if k.acts_at(n)]
        assert counts, k.name
        for value in {k.values[0], k.values[-1], k.default}:
            for n in counts:
                arm = one_arm({"name": "k", "game": game, "players": n, "games": 1,
                               "strategies": "random", **k.set({}, value)}, 1)  # fmt: skip
                assert k.read(arm.options) == value, (k.name, value, n)
        assert k.read(one_arm({"name": "k", "game": game, "players": counts[0], "games": 1,
                               "strategies": "random"}, 1).options) == k.default  # fmt: skip


# -------------------------------------------------------------------- planted truths
def base_planted_check(res) -> bool:
    """The planted lead shows in the random field as well: seat 0 far ahead."""
    return bool(res.base_measured.checks["random", 2].edge[0] > 20)


def test_a_planted_lead_of_three_is_undone_and_fair_on_fresh_deals(toy):
    """Measured also in the random field, with greedy's skill gap over random as a side
    effect (a number with its interval at every count)."""
    res = balance("toy", [2, 3], ["lead"], base=UNFAIR, games=100, held_out_games=3000,
                  seed=1, check_fields=("random",), ladder_field="random")  # fmt: skip
    best = res.best
    assert dict(best.setting) == {"lead": 0} and best.size == 3
    assert describe(res.knobs, res.base, best.setting) == "lead 3 → 0"
    for n, e in best.held_out.items():
        assert np.all(np.abs(e.edge) <= 1.0), (n, e.edge)  # within ±1 pp, held out
        assert np.all((e.low <= 0) & (e.high >= 0)), (n, e.low, e.high)
    assert best.status(1.0) in ("fair", "unclear") and not res.no_change
    for n in (2, 3):  # the random field: fair too once the lead is undone
        assert np.all((best.checks["random", n].low <= 0) & (best.checks["random", n].high >= 0))
        gain, low, high = best.ladder[n]  # High Card has little skill: the gap is small
        assert low <= gain <= high and abs(gain) < 10, (n, best.ladder[n])
    assert base_planted_check(res)
    base = res.base_measured
    assert base.status(1.0) == "unfair" and base.held_out[2].edge[0] > 20  # the planted lead
    assert res.ranked[-1].status(1.0) == "unfair"
    assert res.games_played > 0 and res.held_out_seed != 1


def test_a_fair_game_needs_no_change(toy):
    """With 4,000 fresh games a position's interval is about ±1.5 pp wide, so the test asks
    for ±2 pp: the base is shown fair and every other value shown unfair."""
    res = balance("toy", [2], ["lead"], base={"rules": {"hand": 3, "lead": 0}}, games=100,
                  held_out_games=4000, seed=2, tolerance=2.0,
                  values={"lead": [-1, 0, 1]})  # fmt: skip
    assert res.no_change and dict(res.best.setting) == {"lead": 0}
    assert res.best is res.base_measured and res.best.status(2.0) == "fair"
    assert all(m.status(2.0) == "unfair" for m in res.ranked[1:])


def test_edges_intervals_cover_a_fair_position_about_95_percent():
    """A null: win shares of a fair 3-player game (one winner, drawn at random), 1,000
    replications of 400 games: each position's interval covers 0 in 93-97% of them."""
    rng = np.random.default_rng(7)
    covered = np.zeros(3)
    for _ in range(1000):
        winner = rng.integers(0, 3, 400)
        shares = (winner[:, None] == np.arange(3)).astype(float)
        e = edges(3, shares)
        covered += (e.low <= 0) & (e.high >= 0)
    assert np.all((covered / 1000 >= 0.93) & (covered / 1000 <= 0.97)), covered / 1000


def test_a_rerun_loads_every_play_and_gives_the_same_ranking(toy, tmp_path):
    kw = dict(base=UNFAIR, games=40, held_out_games=200, seed=3, state=tmp_path / "st",
              values={"lead": [-1, 0, 1, 2, 3]})  # fmt: skip
    first = balance("toy", [2], ["lead"], **kw)
    assert first.games_new == first.games_played > 0
    again = balance("toy", [2], ["lead"], **kw)
    assert again.games_new == 0  # every play loaded
    assert again.games_played == first.games_played
    assert [m.setting for m in again.ranked] == [m.setting for m in first.ranked]
    files = sorted((tmp_path / "st").glob("*.npy"))
    files[0].write_bytes(b"damaged")  # an interrupted write or a damaged file: played again
    files[1].unlink()
    third = balance("toy", [2], ["lead"], **kw)
    assert 0 < third.games_new < first.games_played
    assert [(m.setting, m.worst()) for m in third.ranked] == [
        (m.setting, m.worst()) for m in first.ranked]  # fmt: skip


def test_the_study_file_replays_the_held_out_check(toy, tmp_path):
    res = balance("toy", [2, 3], ["lead"], base=UNFAIR, games=40, held_out_games=150, seed=4,
                  values={"lead": [0, 1, 3]})  # fmt: skip
    text = study_text(res, "balance-toy")
    study = parse_study(__import__("tomllib").loads(text), source="balance")
    out = tmp_path / "check"
    run_study(study, out)
    players = pl.read_parquet(out / "players" / "**" / "*.parquet")
    for i, m in enumerate(res.ranked):
        for n in (2, 3):
            rows = players.filter(pl.col("arm") == f"setting-{i + 1}.p{n}").sort(
                "game_index", "seat")  # fmt: skip
            shares = rows["win_share"].to_numpy().reshape(-1, n)
            assert np.allclose(100 * shares.mean(axis=0) - 100 / n, m.held_out[n].edge)


def test_position_shares_follow_the_turn_order_column():
    """Pizza Theory's positions come from start_position: with the first seat cycling, seat
    0 is not always first, and the shares land by position, not by seat."""
    cyc = position_shares("pizzatheory", {"rules": {"cycle_first_seat": True}}, "random", 3,
                          5, 0, 30)  # fmt: skip
    fixed = position_shares("pizzatheory", {}, "random", 3, 5, 0, 30)
    assert cyc.shape == fixed.shape == (30, 3)
    assert np.allclose(cyc.sum(axis=1), 1) and np.allclose(fixed.sum(axis=1), 1)


def test_the_command_line_ranks_writes_csv_and_a_study(toy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["balance", "toy", "-p", "2", "--knob", "lead", "--values",
                                 "lead=0,1,2", "--rule", "lead=2", "--games", "40",
                                 "--held-out-games", "1000", "--format", "csv",
                                 "--write-study", "check.toml"])  # fmt: skip
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith("rank,change,size,status,")
    assert lines[1].startswith("1,lead 2 → 0,2.0,")
    assert "recommended: lead 2 → 0" in r.stderr and "round 1:" in r.stderr
    assert (tmp_path / "check.toml").exists() and list((tmp_path / "data" / "balance").iterdir())
    listed = CliRunner().invoke(cli, ["balance", "toy", "-p", "2", "--list"])
    assert listed.exit_code == 0 and "lead" in listed.output and "hand" in listed.output


def _report_of(res, tmp_path, name):
    """The report tables of the study a balance run writes, replayed."""
    from analysis.report import answered, compute

    study = parse_study(__import__("tomllib").loads(study_text(res, name)), source=name)
    out = tmp_path / name
    run_study(study, out)
    r = compute(out)
    return r, answered(r)


def test_the_report_recommends_the_planted_fix_with_the_searchs_numbers(toy, tmp_path):
    """The replayed check's section ranks as the search did, with the same held-out edges,
    and page 1's first verdict recommends undoing the lead (lead 3 → 0)."""
    res = balance("toy", [2, 3], ["lead"], base=UNFAIR, games=40, held_out_games=600,
                  seed=5, values={"lead": [0, 1, 3]}, ladder_field="random")  # fmt: skip
    r, verdicts = _report_of(res, tmp_path, "balance-toy")
    ranked = r.tables["wtc_ranked"]
    assert ranked["change"].to_list() == [
        describe(res.knobs, res.base, m.setting) for m in res.ranked]  # fmt: skip
    assert ranked["change"][0] == "lead 3 → 0" and ranked["base"].to_list()[-1]
    e = r.tables["wtc_edges"]
    for i, m in enumerate(res.ranked):
        for n in (2, 3):
            got = e.filter((pl.col("block") == f"setting-{i + 1}") & (pl.col("players") == n))
            assert np.allclose(got.sort("position")["edge_pp"].to_numpy(), m.held_out[n].edge)
    v = verdicts[0]
    assert v.question == "What should the designer change?"
    assert v.answer.startswith("Change lead 3 → 0") and "lead 3 → 0" in v.recommendation
    assert abs(v.value.estimate) <= 3 and v.value.family == 5  # 2 + 3 positions
    from analysis.what_to_change import cells

    rows = cells(r)  # the sample-size page: each candidate's largest edge at each count
    assert len(rows) == len(res.ranked) * 2 and all(x["games"] == 600 for x in rows)
    fx = r.tables["wtc_effects"]  # the skill gap is among the side effects, at every count
    assert set(fx.filter(pl.col("measure") == "skill gap")["players"]) == {2, 3}
    assert set(fx["measure"]) >= {"score spread", "skill gap"}


def test_the_report_of_a_fair_game_says_no_change_is_needed(toy, tmp_path):
    res = balance("toy", [2], ["lead"], base={"rules": {"hand": 3, "lead": 0}}, games=40,
                  held_out_games=4000, seed=2, tolerance=2.0,
                  values={"lead": [-1, 0, 1]})  # fmt: skip
    assert res.no_change
    _, verdicts = _report_of(res, tmp_path, "balance-fair")
    assert verdicts[0].answer.startswith("No change is needed")
    assert verdicts[0].recommendation == ""


def test_a_change_that_narrows_the_skill_gap_loses_the_ladder():
    """Fair edges, but the main field's single seat gains clearly less than under the base:
    the change is unfair ("skill gap"), and the base, fair, ranks first."""
    rng = np.random.default_rng(0)
    fair = (rng.integers(0, 2, 4000)[:, None] == np.arange(2)).astype(float)

    def made(setting, size, gap):
        m = Measured(setting, size)
        ladder = np.clip(0.5 + gap + rng.normal(0, 0.05, (500, 2)), 0, 1)
        return measure(m, {2: fair}, ladder={2: ladder})

    base, narrower = made((), 0.0, 0.3), made((("lead", 1),), 1.0, 0.1)
    ranked = rank([narrower, base], base, 2.0)
    assert narrower.ladder_lost == [2] and narrower.missed_in(2.0) == ["skill gap"]
    assert narrower.status(2.0) == "unfair" and ranked[0] is base
    change, low, high = narrower.ladder_change[2]
    assert high < 0 and abs(change + 20) < 1  # 0.1 - 0.3 of a share: -20 pp


# --------------------------------------------------------------------------- data knobs
def test_a_data_knob_writes_the_changed_file_once_and_reads_it_back():
    """Horno's rata penalty and Piece o' Cake's chocolate value are numbers of their data
    files: setting one writes the file with that number changed (and nothing else), named
    by its content, and reading it back gives the value; over a shipped set, that set's."""
    import tomllib
    from pathlib import Path

    from sims.games.horno.cards import cards_text

    def data(path: str) -> dict:
        return tomllib.loads(Path(path).read_text("utf-8"))

    g = core_game.get_game("horno")
    rata = next(k for k in g.knobs if k.name == "penalty.rata")
    harsh = tomllib.loads(cards_text("v1-harsh"))["garbage"][3]["penalty"]
    assert rata.read({}) == 4 and rata.read({"cards": "v1-harsh"}) == harsh
    opts = rata.set({"rules": {"rounds": 5}}, 6)
    assert opts["rules"] == {"rounds": 5} and rata.read(opts) == 6
    assert [c["penalty"] for c in data(opts["cards"])["garbage"]] == [1, 2, 3, 6]
    assert rata.set({"rules": {"rounds": 5}}, 6)["cards"] == opts["cards"]  # one file
    bonus = next(k for k in g.knobs if k.name == "radioactive_points")
    every = data(bonus.set({}, 8)["cards"])
    assert [c["bonus"] for c in every["radioactive"]] == [8] * 5
    cake = core_game.get_game("pieceocake")
    choc = next(k for k in cake.knobs if k.name == "value.chocolate")
    assert choc.read({}) == 11  # the printed value is the copies
    changed = data(choc.set({}, 8)["cake"])
    last = changed["variety"][-1]
    assert (last["name"], last["copies"], last["value"]) == ("chocolate", 11, 8)


def test_data_knobs_found_in_the_file_pinned_values_and_a_board_choice():
    """Horno's ``points.3`` sets every dish of three ingredients in the arm's own set
    (found by size, not by place); Piece o' Cake's ``copies.kiwi`` changes the slices and
    keeps the majority worth what it was; Pizza Theory's ``board`` names a shipped board."""
    import dataclasses
    import tomllib
    from pathlib import Path

    from sims.core.errors import SlicelabError

    def data(path: str) -> dict:
        return tomllib.loads(Path(path).read_text("utf-8"))

    horno = core_game.get_game("horno")
    three = next(k for k in horno.knobs if k.name == "points.3")
    assert three.read({}) == 10 and three.read({"cards": "v1-steep"}) == 9
    dishes = data(three.set({}, 12)["cards"])["dish"]
    assert [d["points"] for d in dishes if len(d["ingredients"]) == 3] == [12] * 7
    assert sorted(d["points"] for d in dishes if len(d["ingredients"]) != 3) == [14] * 5 + [18] * 3
    assert three.read(three.set({}, 12)) == 12
    steep = data(three.set({"cards": "v1-steep"}, 12)["cards"])["dish"]
    assert sorted({d["points"] for d in steep if len(d["ingredients"]) == 5}) == [21]
    cake = core_game.get_game("pieceocake")
    kiwi = next(k for k in cake.knobs if k.name == "copies.kiwi")
    assert kiwi.read({}) == 8 and kiwi.values == (6, 7, 8, 9, 10, 11)
    changed = data(kiwi.set({}, 10)["cake"])["variety"][4]
    assert (changed["name"], changed["copies"], changed["value"]) == ("kiwi", 10, 8)
    pt = core_game.get_game("pizzatheory")
    board = next(k for k in pt.knobs if k.name == "board")
    assert board.read({}) == "hex-37" and "hex-61" in board.values
    assert board.set({}, "hex-61") == {"board": "hex-61"} and board.set({}, "hex-37") == {}
    assert board.size("hex-61", "hex-37") == 1.0
    arm = one_arm({"name": "b", "game": "pizzatheory", "players": 2, "games": 1,
                   "strategies": "random", **board.set({}, "hex-61")}, 1)  # fmt: skip
    assert board.read(arm.options) == "hex-61"
    with pytest.raises(SlicelabError, match="no entry it sets"):  # a set without such dishes
        dataclasses.replace(three, where=lambda data: ()).set({}, 12)


def test_settings_the_rules_refuse_together_are_left_out_and_named(tmp_path):
    """Two varieties two slices short each is a valid knob value alone, but together they
    leave 53 slices, fewer than five circles lay: such settings are left out, the run goes
    on with the rest, and the rules' message is kept."""
    res = balance("pieceocake", (2,), ("copies.plum", "copies.apricot"),
                  values={"copies.plum": (1, 3), "copies.apricot": (2, 4)}, games=20,
                  finalists=2, held_out_games=40, seed=1, jobs=1, state=tmp_path,
                  check_fields=(), ladder_field=None)  # fmt: skip
    assert list(res.refused) == [(("copies.plum", 1), ("copies.apricot", 2))]
    assert "slices" in next(iter(res.refused.values()))
    tried = {s for r in res.rounds for s, _, _ in r}
    assert (("copies.plum", 1), ("copies.apricot", 2)) not in tried and len(tried) == 3


def test_a_data_knobs_check_study_ships_its_files_and_stands_alone(tmp_path, monkeypatch):
    """The study written for a data knob names copies of the changed files beside it: with
    the knobs' own files removed it replays the check game for game."""
    import shutil

    from sims.core.knobs import knob_data_dir
    from sims.core.study import load_study

    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["balance", "pieceocake", "-p", "2", "--knob",
                                 "value.chocolate", "--values", "value.chocolate=8,11",
                                 "--games", "20", "--held-out-games", "60", "--format", "csv",
                                 "--write-study", "out/check.toml"])  # fmt: skip
    assert r.exit_code == 0, r.output
    files = sorted((tmp_path / "out" / "check-data").glob("cake-*.toml"))
    assert len(files) == 1, files  # value 8 (11 is the printed cake itself)
    text = (tmp_path / "out" / "check.toml").read_text("utf-8")
    assert f'cake = "check-data/{files[0].name}"' in text
    shutil.rmtree(knob_data_dir())
    run_study(load_study(tmp_path / "out" / "check.toml"), tmp_path / "replay")
    players = pl.read_parquet(tmp_path / "replay" / "players" / "**" / "*.parquet")
    assert players.filter(pl.col("arm").str.starts_with("setting-")).height == 2 * 2 * 60
    rows = [line.split(",") for line in r.stdout.strip().splitlines()[1:3]]
    for i, row in enumerate(rows):  # the searched edge, replayed from the shipped files
        position, edge = int(row[5]), float(row[6])
        block = players.filter(pl.col("arm") == f"setting-{i + 1}.p2").sort("game_index", "seat")
        share = block["win_share"].to_numpy().reshape(-1, 2)[:, position]
        assert abs(100 * share.mean() - 50 - edge) < 1e-9, (row, share.mean())


def test_a_weak_checked_field_is_shown_and_vetoes_nothing():
    """As in the report's verdicts (sims.core.levels.is_weak): a checked field whose single
    seat loses to the main field by more than 5 pp at every count does not make a fair
    setting unfair; a field that is not weak does."""
    from sims.core.levels import is_weak

    rng = np.random.default_rng(1)
    fair = (rng.integers(0, 2, 4000)[:, None] == np.arange(2)).astype(float)
    skewed = np.column_stack([np.ones(4000), np.zeros(4000)])  # seat 0 always wins

    def made() -> Measured:
        return measure(Measured((("lead", 1),), 1.0), {2: fair}, {("greedy", 2): skewed})

    strict, lenient = made(), made()
    rank([strict], strict, 2.0)
    rank([lenient], lenient, 2.0, weak=["greedy"])
    assert strict.status(2.0) == "unfair" and strict.missed_in(2.0) == ["greedy"]
    assert lenient.status(2.0) == "fair" and lenient.missed_in(2.0) == []
    assert lenient.checks["greedy", 2].edge[0] == 50  # still measured and shown
    assert is_weak([-6.0, -5.5]) and not is_weak([-6.0, -4.0]) and not is_weak([])
    assert not is_weak([-6.0, None])


def test_tpe_proposes_the_same_settings_from_the_same_seed_and_homes_in():
    """Optuna's TPE sampler (--sampler tpe) proposes distinct settings, the base first,
    the same ones from the same seed; on a score whose minimum is lead 0 it proposes
    settings near it (|lead| <= 1) more often than a random draw of the grid would."""
    from sims.balance import proposed

    knobs = (int_knob("lead", "points", -5, 5, 3), int_knob("hand", "cards", 1, 5, 3))
    base = (("lead", 3), ("hand", 3))

    def score(s):
        return abs(dict(s)["lead"]) + 0.1 * abs(dict(s)["hand"] - 3)

    first = proposed(knobs, 20, base, 7, score)
    assert first == proposed(knobs, 20, base, 7, score)
    assert first[0] == base and len(set(first)) == 20
    near = [sum(abs(dict(s)["lead"]) <= 1 for s in proposed(knobs, 20, base, seed, score))
            for seed in range(5)]  # fmt: skip
    assert np.mean(near) >= 7, near  # a random draw of 20 of the 55: 20 * 15 / 55 = 5.5


def test_tpe_leaves_out_settings_the_rules_refuse():
    """A setting scored None (the rules refuse it) is told as failed: never returned,
    and the sampler still finds ``limit`` others."""
    from sims.balance import proposed

    knobs = (int_knob("lead", "points", -5, 5, 3), int_knob("hand", "cards", 1, 5, 3))
    base = (("lead", 3), ("hand", 3))
    asked = []

    def score(s):
        asked.append(s)
        d = dict(s)
        return None if d["lead"] + d["hand"] < 0 else abs(d["lead"])

    got = proposed(knobs, 20, base, 7, score)
    assert len(got) == 20 and all(sum(dict(s).values()) >= 0 for s in got)
    assert any(sum(dict(s).values()) < 0 for s in asked)  # some were proposed and refused


def test_the_tpe_search_undoes_the_planted_lead(toy):
    res = balance("toy", [2, 3], ["lead", "hand"], base=UNFAIR, games=60,
                  held_out_games=2000, seed=1, candidates=16, sampler="tpe")  # fmt: skip
    assert dict(res.best.setting)["lead"] == 0 and res.best.status(1.0) != "unfair"
    with pytest.raises(SlicelabError, match="sampler 'x': use one of grid, tpe"):
        balance("toy", [2], ["lead"], base=UNFAIR, sampler="x")


def test_the_component_target_is_measured_replayed_and_refused_where_it_cannot_be(tmp_path):
    """New York Slice declares its restricted play (a seat that forfeits one special): with
    --component-bound every finalist's specials are each worth within the bound or not;
    the check study replays those worths exactly and the report ranks as the search did.
    Piece o' Cake declares none: the bound is refused, naming why."""
    res = balance("nyslice", [2], ["compensation.0"], games=40, held_out_games=400, seed=1,
                  values={"compensation.0": [0, 1]}, component_bound=5.0)  # fmt: skip
    from sims.games.nyslice.plugin import specials_in_play

    for m in res.ranked:
        assert {c for c, _ in m.components} == set(specials_in_play(2))
        assert m.component_bound == 5.0
    r, verdicts = _report_of(res, tmp_path, "balance-nys-components")
    comp = r.tables["wtc_components"]
    for i, m in enumerate(res.ranked):
        got = comp.filter(pl.col("block") == f"setting-{i + 1}")
        found = {(x["component"], x["players"]): x["worth_pp"] for x in got.iter_rows(named=True)}
        assert found == pytest.approx({k: w[0] for k, w in m.components.items()})
    assert r.tables["wtc_ranked"]["status"].to_list() == [m.status(1.0) for m in res.ranked]
    with pytest.raises(SlicelabError, match="declares no restricted play"):
        balance("pieceocake", [2], ["exact_pieces"], component_bound=5.0)


def test_a_component_beyond_its_bound_makes_a_setting_unfair():
    rng = np.random.default_rng(2)
    fair = (rng.integers(0, 2, 4000)[:, None] == np.arange(2)).astype(float)
    m = measure(Measured((("lead", 1),), 1.0), {2: fair})
    m.components = {("dibs", 2): (8.0, 6.0, 10.0), ("buffet", 2): (1.0, -1.0, 3.0)}
    rank([m], m, 2.0, component_bound=5.0)
    assert m.status(2.0) == "unfair" and m.missed_in(2.0) == ["components"]
    m.components = {("dibs", 2): (4.0, 2.0, 6.0)}  # reaches past the bound: unclear
    assert m.status(2.0) == "unclear" and m.missed_in(2.0) == []
    assert m.largest_component() == ("dibs", 2, 4.0, 2.0, 6.0)


@pytest.mark.parametrize("game", [g.info.name for g in games()])
def test_every_declared_restricted_play_is_a_valid_seat_at_every_count(game):
    """A game's restricted play (the component target's seats) names real components: at
    every count each is a strategy the game accepts beside its main field; a game that
    declares none says so with None."""
    g = core_game.get_game(game)
    rp = g.restricted_play
    if rp is None:
        assert game in ("pieceocake", "pizzatheory")
        return
    for n in range(g.info.min_players, g.info.max_players + 1):
        found = rp.components({}, n)
        assert found and len({c for c, _ in found}) == len(found)
        for _, value in found:
            spec = rp.spec(g.info.main_field, value)
            assert f"{rp.param}={value}" in spec
            seats = [spec] + [g.info.main_field] * (n - 1)
            one_arm({"name": "c", "game": game, "players": n, "games": 1, "rotate": True,
                     "strategies": seats}, 1)  # fmt: skip


def test_a_single_count_check_study_seats_its_rotated_blocks_in_full(toy, tmp_path):
    """At one count of 3 players a rotated block's strategies name every seat (a study
    reads [one, rest] as one seat and the rest only for a block of several counts)."""
    res = balance("toy", [3], ["lead"], base=UNFAIR, games=40, held_out_games=200, seed=6,
                  values={"lead": [0, 3]}, check_fields=("random",),
                  ladder_field="random")  # fmt: skip
    r, verdicts = _report_of(res, tmp_path, "balance-toy-3p")
    assert r.tables["wtc_ranked"]["change"].to_list() == [
        describe(res.knobs, res.base, m.setting) for m in res.ranked]  # fmt: skip
    assert r.tables["wtc_strength"]["players"].to_list() == [3]
    assert verdicts[0].question == "What should the designer change?"
