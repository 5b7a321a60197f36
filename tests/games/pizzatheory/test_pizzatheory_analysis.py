"""Pizza Theory's analyses on synthetic datasets whose answers are known: a planted
starting-position edge is recovered (grouped by start_position, not by seat), a field of
identical games is found deterministic and reported exactly, the first placement's value
recovers a planted handicap paired by deal, a board that shifts an edge comes out as a
change of that sign, game length and the safety rule are exact on hand-made games, and
the verdicts' wording flips with their numbers: their estimate comes from the main (mixed)
field, robustness is judged across the fields with chance, and a deterministic field is
named as one game but never counted for or against."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import SyntheticDataset, approx, one_hot, row

from analysis.load import block_frames, manifest
from analysis.pizzatheory import boards, common, length, opening, prose, safety, seats, verdicts
from analysis.pizzatheory.report import REPORT
from analysis.robust import Condition
from analysis.sections import Results
from sims.core.errors import SlicelabError

FAIR3 = 100 / 3


def _draws(rng, n: int, games: int, p: float) -> np.ndarray:
    """(games, n) one-hot wins: seat 0 wins with probability ``p``, the others share the
    rest equally."""
    rest = (1 - p) / (n - 1)
    return one_hot(list(rng.choice(n, size=games, p=[p] + [rest] * (n - 1))), n)


def _block(
    d: SyntheticDataset,
    name: str,
    group: str,
    share: np.ndarray,
    rng,
    strategies=None,
    rotation: int = 0,
    start=None,
    toppings=None,
    board: str | None = None,
) -> str:
    """One arm of ``share`` (games, n) wins, with distinct per-game columns (random
    toppings), its start positions (default: the seat) and a games table."""
    games, n = share.shape
    arm = d.arm(name, n, strategies or "mixed", group=group, rotation=rotation)
    if board is not None:
        d.arms[arm]["board"] = board
    start = np.tile(np.arange(n), (games, 1)) if start is None else start
    tops = rng.integers(0, 16, (games, n)) if toppings is None else toppings
    d.players(
        arm,
        win_share=share,
        won=(share > 0).astype(int),
        toppings=tops,
        score=tops,
        start_position=start,
        saved=np.zeros((games, n), dtype=int),
        safe_rounds=np.zeros((games, n), dtype=int),
    )
    winners = (share > 0).sum(axis=1)
    d.games(
        arm,
        n_winners=winners.tolist(),
        rounds=[7] * games,
        ending=[0] * games,
        safety_rounds=[1] * games,
    )
    return arm


# ----------------------------------------------------------------------------- seats


def test_a_planted_first_starter_edge_is_recovered_by_start_position(tmp_path):
    """Planted truth: the seat in starting position 0 wins 45% at 3 players (+11.7 pp over
    the fair share). The start positions are rotated against the seats (seat 2 starts
    first), so grouping by seat would find the edge at seat 2, not seat 0."""
    rng = np.random.default_rng(7)
    games = 3000
    first = _draws(rng, 3, games, 0.45)  # column k: the seat starting in position k
    share = np.roll(first, 2, axis=1)  # seat s starts in position (s + 1) % 3
    start = np.tile((np.arange(3) + 1) % 3, (games, 1))
    d = SyntheticDataset(tmp_path / "d", game="pizzatheory")
    _block(d, "seats.p3", "seats", share, rng, start=start)
    out = d.write()
    t = seats.position_table(out, "seats")
    x = row(t, players=3, position=0)
    assert x["edge_pp"] == approx(45 - FAIR3, abs=2.5)
    assert x["edge_low"] < 45 - FAIR3 < x["edge_high"] and x["edge_low"] > 0
    assert x["games"] == games and not x["deterministic"] and not x["same_as_seat"]
    assert x["warning"] == ""
    by_seat = seats.position_table(out, "seats", by="seat")
    assert row(by_seat, players=3, position=2)["edge_pp"] == approx(x["edge_pp"])
    e = row(seats.edges(t), players=3)
    assert e["first_pp"] == approx(x["edge_pp"]) and e["largest_position"] == 0
    assert e["last_position"] == 2 and e["last_high"] < 0  # the others share 55%: 27.5% each


def test_identical_games_are_found_deterministic_and_reported_exactly(tmp_path):
    rng = np.random.default_rng(1)
    d = SyntheticDataset(tmp_path / "d", game="pizzatheory")
    same = np.tile([0.0, 0.0, 1.0], (40, 1))
    _block(d, "seats.p3", "seats", same, rng, toppings=np.tile([5, 4, 16], (40, 1)))
    _block(d, "seats.p2", "seats", _draws(rng, 2, 40, 0.5), rng)
    out = d.write()
    players, games = block_frames(out, "seats")
    dist = common.distinct_games(players, games)
    assert row(dist, players=3)["distinct"] == 1 and row(dist, players=3)["deterministic"]
    assert not row(dist, players=2)["deterministic"] and row(dist, players=2)["distinct"] > 1
    t = seats.position_table(out, "seats")
    x = row(t, players=3, position=2)
    assert x["win_share"] == x["win_low"] == x["win_high"] == 1.0  # exact: one game replayed
    assert x["warning"] == common.DETERMINISTIC
    assert "every one of the 40 games" in prose.deterministic_sentence(t, 3)
    assert "position 2 wins it" in prose.winners_text(t, 3)
    assert 3 not in seats.conditions({"heuristic field": t})  # one game: no evidence
    assert len(seats.conditions({"heuristic field": t})[2]) == 1  # 2 players: chance
    found = seats.conditions({"heuristic field": t}, deterministic=True)  # for a plot
    c = found[3][0]
    assert c.low == c.high == c.estimate == approx(-FAIR3)
    assert seats.deterministic_fields({"heuristic field": t}, 3) == ["heuristic field"]


def test_a_shared_outcome_counts_the_fair_share_for_every_seat(tmp_path):
    """Three games at 2 players: seat 0 wins one, the neutral colour wins two (every seat
    won = 1, win_share 1/2): seat 0's share is (1 + 1/2 + 1/2) / 3."""
    rng = np.random.default_rng(2)
    d = SyntheticDataset(tmp_path / "d", game="pizzatheory")
    share = np.array([[1.0, 0.0], [0.5, 0.5], [0.5, 0.5]])
    _block(d, "seats.p2", "seats", share, rng)
    out = d.write()
    x = row(seats.position_table(out, "seats"), players=2, position=0)
    assert x["win_share"] == approx(2 / 3) and x["shared"] == approx(2 / 3)


# ----------------------------------------------------------------------------- length, safety


def _hand_made(tmp_path: Path) -> Path:
    """Five 3-player games and four 2-player games with hand-chosen rounds, endings,
    safety rounds and saved toppings."""
    d = SyntheticDataset(tmp_path / "d", game="pizzatheory")
    arm = d.arm("seats.p3", 3, "mixed", group="seats")
    d.players(
        arm,
        win_share=one_hot([0, 1, 2, 0, 1], 3),
        won=one_hot([0, 1, 2, 0, 1], 3).astype(int),
        toppings=[[16, 3, 4], [2, 16, 5], [1, 2, 16], [16, 9, 9], [3, 16, 4]],
        saved=[[0, 0, 0], [3, 0, 0], [1, 1, 1], [0, 0, 0], [0, 6, 0]],
        safe_rounds=[[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 0, 0], [0, 2, 0]],
        start_position=[[0, 1, 2]] * 5,
    )
    d.games(
        arm,
        rounds=[5, 7, 7, 9, 200],
        ending=[0, 0, 1, 0, 2],
        safety_rounds=[0, 2, 1, 0, 3],
        n_winners=[1] * 5,
    )
    arm = d.arm("seats.p2", 2, "mixed", group="seats")
    d.players(
        arm,
        win_share=[[1.0, 0.0], [0.5, 0.5], [0.0, 1.0], [1.0, 0.0]],
        won=[[1, 0], [1, 1], [0, 1], [1, 0]],
        toppings=[[16, 2], [5, 6], [1, 16], [16, 0]],
        saved=[[0, 0], [2, 0], [0, 0], [0, 0]],
        safe_rounds=[[0, 0], [1, 0], [0, 0], [0, 0]],
        start_position=[[0, 1]] * 4,
    )
    d.games(
        arm,
        rounds=[6, 8, 6, 10],
        ending=[0, 3, 0, 0],
        safety_rounds=[0, 1, 0, 0],
        n_winners=[1, 2, 1, 1],
    )
    return d.write()


def test_game_length_and_endings_are_exact_on_hand_made_games(tmp_path):
    out = _hand_made(tmp_path)
    lengths, endings = length.game_length(out, manifest(out), {"mixed field": "seats"})
    x = row(lengths, players=3)
    assert x["games"] == 5 and x["rounds"] == approx(228 / 5)
    assert (x["median"], x["max"], x["max_rounds"]) == (7, 200, 200)
    assert x["p90"] == approx(np.quantile([5, 7, 7, 9, 200], 0.9))
    assert not x["tiebreak_rule"]
    e3 = {
        y["label"]: (y["count"], y["share"])
        for y in endings.filter(pl.col("players") == 3).iter_rows(named=True)
    }
    assert e3 == {
        "win": (3, 0.6),
        "run-out tiebreak": (1, 0.2),
        "draw at the round bound": (1, 0.2),
    }  # no neutral win at 3 players
    e2 = {
        y["label"]: y["count"] for y in endings.filter(pl.col("players") == 2).iter_rows(named=True)
    }
    assert e2 == {"win": 3, "run-out tiebreak": 0, "draw at the round bound": 0, "neutral win": 1}
    assert row(lengths, players=2)["rounds"] == approx(7.5)
    text = prose.endings_sentence(endings, lengths)
    assert "1 of 9 games reached the round bound (200 rounds)" in text
    assert "1 games end by the run-out tiebreak" in text
    no_draw = endings.with_columns(
        pl.when(pl.col("ending") == 2).then(0).otherwise(pl.col("count")).alias("count")
    )
    assert "No game reached the round bound (200 rounds, a draw): 0 of 9" in (
        prose.endings_sentence(no_draw, lengths)
    )
    assert "1 of 4" in prose.neutral_sentence(endings)


def test_safety_measures_are_exact_on_hand_made_games(tmp_path):
    out = _hand_made(tmp_path)
    t = safety.safety_table(out, manifest(out), {"mixed field": "seats"})
    fired = safety.measure(t, "mixed field", 3, "fired")
    assert fired["estimate"] == approx(3 / 5) and fired["count"] == 3 and fired["safety_rule"]
    assert safety.measure(t, "mixed field", 3, "rounds_fired")["estimate"] == approx(6 / 5)
    assert safety.measure(t, "mixed field", 3, "round_share")["estimate"] == approx(6 / 228)
    per_game = [0, 1, 1, 0, 2]  # saved toppings per seat, each game: its seats' mean
    assert safety.measure(t, "mixed field", 3, "saved")["estimate"] == approx(np.mean(per_game))
    assert safety.measure(t, "mixed field", 3, "safe_rounds")["estimate"] == approx(
        np.mean([0, 1 / 3, 2 / 3, 0, 2 / 3])
    )
    assert safety.measure(t, "mixed field", 2, "fired")["estimate"] == approx(1 / 4)
    assert safety.measure(t, "mixed field", 2, "saved")["estimate"] == approx(0.25)


# ----------------------------------------------------------------------------- opening


def _opening(tmp_path: Path, p: float, deals: int = 3000) -> Path:
    """``seats`` (3 players, fair, the mixed player) and a rotated ``blind`` block
    (``mixed(blind=1)`` and the mixed player) whose restricted seat wins with probability
    ``p`` (the others share the rest) and ends with 8 toppings where every seat of
    ``seats`` ends with 10."""
    rng = np.random.default_rng(11)
    d = SyntheticDataset(tmp_path / "d", game="pizzatheory")
    ten = np.full((deals, 3), 10)
    _block(d, "seats.p3", "seats", _draws(rng, 3, deals, 1 / 3), rng, toppings=ten)
    for k in range(3):
        specs = ["mixed"] * 3
        specs[k] = "mixed(blind=1)"
        share = np.roll(_draws(rng, 3, deals, p), k, axis=1)
        tops = np.full((deals, 3), 10)
        tops[:, k] = 8
        _block(d, f"blind.r{k}", "blind", share, rng, strategies=specs, rotation=k, toppings=tops)
    return d.write()


def test_a_planted_handicap_of_the_first_placement_comes_out_negative(tmp_path):
    """Planted truth: the blind seat wins 20% at 3 players (−13.3 pp against an
    unrestricted seat, which wins 1/3 of every deal averaged over the seats), −20 pp
    against the others at its table (40% each), and ends 2 toppings behind."""
    out = _opening(tmp_path, 0.20)
    x = row(opening.first_placement(out, "blind", "seats"), players=3)
    assert x["deals"] == 3000 and x["unrestricted_share"] == approx(1 / 3)
    assert x["edge_high"] < 0 and x["edge_low"] < 20 - FAIR3 < x["edge_high"]
    assert x["edge_pp"] == approx(20 - FAIR3, abs=1.5)
    assert x["table_pp"] == approx(-20, abs=2.5) and x["table_high"] < 0
    assert x["toppings"] == approx(-2) and x["toppings_low"] == x["toppings_high"]
    assert "deals" in x["warning"] or x["warning"] == ""  # n counts deals
    assert "the first placement is worth having" in prose.opening_sentence(
        opening.first_placement(out, "blind", "seats")
    )
    table, found = opening.field_values(out, manifest(out))
    assert table["field"].to_list() == ["mixed field"] == list(common.OPENING_FIELDS)
    assert table["restricted"].to_list() == ["blind"] and table["unrestricted"][0] == "seats"
    assert found[3][0].unit == "deals"


def test_a_random_opening_that_wins_more_comes_out_positive(tmp_path):
    out = _opening(tmp_path, 0.45)
    x = row(opening.first_placement(out, "blind", "seats"), players=3)
    assert x["edge_low"] > 0
    assert "a random first placement does better" in prose.opening_sentence(
        opening.first_placement(out, "blind", "seats")
    )


# ----------------------------------------------------------------------------- boards


def test_a_board_that_shifts_an_edge_comes_out_as_a_change_of_that_sign(tmp_path):
    """Planted truth: on hex-37 every position wins 1/3; on hex-61 position 0 wins 50%
    (+16.7 pp), on round-31 position 0 wins 20% (−13.3 pp)."""
    rng = np.random.default_rng(5)
    games = 3000
    d = SyntheticDataset(tmp_path / "d", game="pizzatheory")
    _block(d, "seats.p3", "seats", _draws(rng, 3, games, 1 / 3), rng)
    _block(d, "board-hex-61", "board-hex-61", _draws(rng, 3, games, 0.5), rng, board="hex-61")
    _block(d, "board-round-31", "board-round-31", _draws(rng, 3, games, 0.2), rng, board="round-31")
    out = d.write()
    pos, summ = boards.board_changes(out, manifest(out))
    up = row(pos, field="mixed field", board="hex-61", position=0)
    assert up["change_low"] > 0 and up["change_low"] < 50 - FAIR3 < up["change_high"]
    down = row(pos, field="mixed field", board="round-31", position=0)
    assert down["change_high"] < 0 and down["change_low"] < 20 - FAIR3 < down["change_high"]
    s = row(summ, board="hex-61")
    assert s["largest_position"] == 0 and s["largest_low"] > 0 and 0 in s["changed_positions"]
    assert s["rounds_change"] == 0 and s["safety_change_pp"] == 0  # the same rounds and safety
    assert set(summ["board"]) == {"hex-61", "round-31"}  # hex-37-mid is not in the study
    assert set(summ["field"]) == {"mixed field"}  # no board-*-random block here
    text = prose.board_sentence(summ, pos, "mixed field")
    assert re.search(r"hex-61: position 0 \+1\d\.\d pp \[\+1", text) and "change" in text
    assert boards.newcombe(0.5, 0.5, 0.5, 0.25, 0.25, 0.25) == (0.25, 0.25, 0.25)
    assert boards.welch(np.array([7.0, 7.0]), np.array([5.0, 5.0])) == (2.0, 2.0, 2.0)


# ----------------------------------------------------------------------------- verdicts


def _results(**tables) -> Results:
    return Results(Path("."), {"study": {"arms": []}}, "pizzatheory", REPORT, {}, dict(tables))


def _positions(
    edge0: float, low: float, high: float, players: int = 3, det: bool = False, games: int = 900
) -> pl.DataFrame:
    """A position table with position 0's edge planted (the others share the rest)."""
    fair = 1 / players
    rest = -edge0 / (players - 1)
    rows = []
    for p in range(players):
        e, lo, hi = (edge0, low, high) if p == 0 else (rest, rest - 3, rest + 3)
        rows.append(
            {
                "players": players,
                "position": p,
                "games": games,
                "distinct": 1 if det else games,
                "deterministic": det,
                "win_share": fair + e / 100,
                "win_low": fair + lo / 100,
                "win_high": fair + hi / 100,
                "fair": fair,
                "edge_pp": e,
                "edge_low": lo,
                "edge_high": hi,
                "toppings": 9.0,
                "shared": 0.0,
                "same_as_seat": True,
            }
        )
    return pl.DataFrame(rows)


def _conds(tables: dict[str, pl.DataFrame], players: int = 3) -> dict[int, list[Condition]]:
    """Every field's first-starter edge at ``players``, deterministic ones included (as a
    careless caller would pass them: the verdict must not count them), each with its field's
    spec as :func:`analysis.pizzatheory.seats.conditions` gives it."""
    return {
        players: [
            Condition(
                "field",
                n,
                *[seats.edges(t)[c][0] for c in ("first_pp", "first_low", "first_high")],
                900,
                spec=common.FIELD_SPECS[n],
            )
            for n, t in tables.items()
        ]
    }


def test_the_main_field_is_the_mixed_player_and_robustness_counts_fields_with_chance():
    assert common.MAIN_FIELD == "mixed field" == next(iter(common.FIELDS))
    assert common.FIELDS == {
        "mixed field": "seats",
        "random field": "seats-random",
        "heuristic field": "seats-heuristic",
        "greedy field": "seats-greedy",
    }
    assert common.BOARD_FIELDS["mixed field"] == ("seats", "board-{name}")
    assert common.BOARD_FIELDS["random field"] == ("seats-random", "board-{name}-random")
    assert common.OPENING_FIELDS == {"mixed field": ("blind", "seats")}
    assert common.chance_fields(3) == ["mixed field", "random field"]
    assert common.chance_fields(2) == list(common.FIELDS)
    assert common.chance_fields(2, ["greedy field"]) == [
        "mixed field",
        "random field",
        "heuristic field",
    ]
    assert common.the_field() == "the mixed field"
    assert common.field_player("random field") == "random play"
    from sims.games.pizzatheory.strategies import seat_params

    status = common.mixed_status()
    p3 = seat_params("mixed", 3)
    assert f"at 3 players aggression={p3['aggression']:g}" in status  # read, not copied
    assert f"after {p3['iters']:g} iterations" in status and "regret matching" in status


def test_seats_verdict_estimates_from_the_mixed_field_and_never_counts_one_game():
    """Planted: the mixed field's first starter −5 pp [−8, −2], random play's −3 [−6, −1],
    the heuristic's one game +66.7 (exact). Counted, the one game would flip the sign; it
    must be named as one game and left out, so the verdict is robust below 0."""
    mixed = _positions(-5.0, -8.0, -2.0)
    rand = _positions(-3.0, -6.0, -1.0)
    heur = _positions(200 / 3, 200 / 3, 200 / 3, det=True, games=200)
    tables = {"mixed field": mixed, "random field": rand, "heuristic field": heur}
    v = verdicts.seats_verdict(_results(positions=tables, first_conditions=_conds(tables)))
    assert v.answer.startswith("With the mixed player in every seat")
    # the largest edge of the 3 positions, corrected for picking it
    assert v.estimate == (
        "the first starter at 3 players: -5.0 pp [-8.7, -1.3] over the fair share (corrected for "
        "picking the largest of 3)"
    )
    assert v.value.field == "mixed" and v.n == 900 and v.n_unit == "games"
    assert v.size == pytest.approx(1.3, abs=0.05)  # how far its interval lies from 0
    assert v.robustness == "robust"
    assert "below 0 in the mixed and random fields" in v.answer
    assert "the heuristic field is one game" in v.answer and "counted neither" in v.answer
    assert "position 0 wins it" in v.answer  # the one game's outcome
    assert "heuristic" not in v.answer.split("Across the fields")[1].split(".")[0]
    assert "The estimate below" not in v.answer
    assert v.recommendation == (
        "The first starter at 3 players is behind by -5.0 pp [-8.7, -1.3] (interval corrected "
        "for picking it from 3): the starting order is worth a compensation rule, in favour "
        "of the first starter."
    )
    # random play missing: not every field with chance at 3 players was checked
    tables = {"mixed field": mixed, "heuristic field": heur}
    v = verdicts.seats_verdict(_results(positions=tables, first_conditions=_conds(tables)))
    assert v.robustness == "not fully checked" and "random field" in v.detail
    assert v.recommendation == ""
    # random play covers 0: it describes and does not veto, so the mixed field decides
    tables = {"mixed field": mixed, "random field": _positions(1.0, -2.0, 4.0)}
    v = verdicts.seats_verdict(_results(positions=tables, first_conditions=_conds(tables)))
    assert v.robustness == "robust"
    assert "the random field, which describes and does not veto: +1.0 pp [-2.0, +4.0]" in v.detail
    # the verdict builds its conditions from the position tables with each field's spec
    # (first_conditions is not read): random play cannot veto however a caller passes it
    v = verdicts.seats_verdict(_results(positions=tables, first_conditions={}))
    assert v.robustness == "robust"
    # the main field itself deterministic (it never is with mixed; the guard still holds)
    tables = {"mixed field": _positions(-FAIR3, -FAIR3, -FAIR3, det=True), "random field": rand}
    v = verdicts.seats_verdict(_results(positions=tables, first_conditions=_conds(tables)))
    assert "At 3 players the mixed field is one game" in v.answer
    assert "The estimate below is the random field's" in v.answer
    assert v.estimate.startswith("the first starter at 3 players: -3.0 pp [-6.6, -0.4]")
    assert v.value.field == "random"


def _opening_table(edge, deals=3000, field="mixed field"):
    e, lo, hi = edge
    return pl.DataFrame(
        [
            {
                "field": field,
                "players": 3,
                "deals": deals,
                "edge_pp": e,
                "edge_low": lo,
                "edge_high": hi,
                "toppings": -1.0,
                "toppings_low": -1.5,
                "toppings_high": -0.5,
            }
        ]
    )


def test_opening_verdict_flips_with_the_sign_and_says_it_is_one_field():
    t = _opening_table((-4.0, -6.0, -2.0))
    conds = {3: [Condition("field", "mixed field", -4, -6, -2, 3000, "deals")]}
    v = verdicts.opening_verdict(_results(opening=t, opening_conditions=conds))
    assert "the first placement is worth having" in v.answer and v.n_unit == "deals"
    assert "mixed(blind=1)" in v.answer and "(3,000 deals)" in v.answer
    assert v.robustness == "one field only" and "mixed field only" in v.detail
    assert v.recommendation.startswith("The opening placement is worth 4.0 pp of the win in ")
    assert "the only field with a blind seat" in v.recommendation
    v = verdicts.opening_verdict(_results(opening=t, opening_conditions={}))
    assert v.robustness == "not checked" and v.recommendation == ""
    t = _opening_table((3.0, 1.0, 5.0))
    conds = {3: [Condition("field", "mixed field", 3, 1, 5, 3000, "deals")]}
    v = verdicts.opening_verdict(_results(opening=t, opening_conditions=conds))
    assert "does better than the field's own" in v.answer
    assert "the mixed player's opening is a handicap" in v.answer
    assert v.recommendation.startswith("A random opening beats the mixed player's own")
    t = _opening_table((0.5, -1.0, 2.0))
    conds = {3: [Condition("field", "mixed field", 0.5, -1, 2, 3000, "deals")]}
    v = verdicts.opening_verdict(_results(opening=t, opening_conditions=conds))
    assert "not distinguishable from 0" in v.answer and v.recommendation == ""


def test_length_verdict_names_the_round_bound_whether_or_not_it_fired(tmp_path):
    out = _hand_made(tmp_path)
    lengths, endings = length.game_length(out, manifest(out), {"mixed field": "seats"})
    v = verdicts.length_verdict(_results(lengths=lengths, endings=endings))
    assert "1 of 9 games reached the round bound (200 rounds)" in v.answer
    assert v.recommendation.startswith("Games reach the 200-round bound")
    assert "neutral colour fills the board first in 25.0 %" in v.answer
    assert "of the mixed field's games (1 of 4;" in v.answer
    none = endings.with_columns(
        pl.when(pl.col("ending") == 2).then(0).otherwise(pl.col("count")).alias("count")
    )
    v = verdicts.length_verdict(_results(lengths=lengths, endings=none))
    assert "The round bound (200 rounds, a draw) never fired: 0 of 9 games." in v.answer


def _paired_safety(tmp_path: Path, on_winner, off_winner, off_rounds=None, players=3) -> Path:
    """``seats`` and ``safety-off`` (rule safety = false, the same seed) with the winning
    starting position of each deal given (``on_winner``, ``off_winner``), 7 rounds a game
    with the rule (``off_rounds`` without), every seat losing 1 topping with the rule and
    2 without. The start positions are cycled by game, as the default study's are."""
    d = SyntheticDataset(tmp_path / "d", game="pizzatheory")
    games = len(on_winner)
    start = np.array([np.roll(np.arange(players), g) for g in range(games)])
    for name, winner, lost, rounds in (
        ("seats", on_winner, 1, [7] * games),
        ("safety-off", off_winner, 2, off_rounds if off_rounds is not None else [7] * games),
    ):
        arm = d.arm(f"{name}.p{players}", players, "mixed", group=name)
        if name == "safety-off":
            d.arms[arm]["rules"] = {"safety": False}
        by_pos = one_hot(list(winner), players)
        share = np.take_along_axis(by_pos, start, axis=1)  # seat s holds position start[g, s]
        d.players(arm, win_share=share, won=(share > 0).astype(int), start_position=start,
                  lost=np.full((games, players), lost), toppings=np.full((games, players), 9),
                  saved=np.zeros((games, players), dtype=int),
                  safe_rounds=np.zeros((games, players), dtype=int))  # fmt: skip
        d.games(arm, rounds=list(rounds), ending=[0] * games, safety_rounds=[1] * games,
                n_winners=[1] * games)  # fmt: skip
    return d.write()


def test_the_safety_rule_s_effect_is_paired_by_deal_and_exact_on_hand_made_games(tmp_path):
    """Six deals: without the rule position 0 wins deals 0 and 1 instead of position 1 and
    games last 9 rounds instead of 7 on deals 0 to 2; every other deal is the same game."""
    on = [1, 1, 2, 0, 2, 1]
    off = [0, 0, 2, 0, 2, 1]
    out = _paired_safety(tmp_path, on, off, off_rounds=[9, 9, 9, 7, 7, 7])
    eff = safety.safety_effect(out, manifest(out))
    p0 = row(eff, measure="position", position=0)
    assert p0["estimate"] == approx(100 * 2 / 6) and p0["deals"] == 6
    assert (p0["nonzero"], p0["positive"], p0["negative"]) == (2, 2, 0) and p0["sparse"]
    assert p0["sign_p"] == approx(0.5)  # two of two deals up: exact two-sided p
    assert row(eff, measure="position", position=1)["estimate"] == approx(-100 * 2 / 6)
    assert row(eff, measure="position", position=2)["nonzero"] == 0
    r = row(eff, measure="rounds")
    assert (r["on"], r["off"], r["estimate"]) == (7.0, 8.0, approx(1.0))
    assert row(eff, measure="lost")["estimate"] == approx(1.0)
    assert row(eff, measure="shared")["estimate"] == 0.0
    # a block with another seed is not the same deals: refused, naming the fix
    m = manifest(out)
    for a in m["study"]["arms"]:
        if a["name"].startswith("safety-off"):
            a["seed"] = 2
    (out / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(SlicelabError, match="do not deal the same games"):
        safety.safety_effect(out, manifest(out))


def test_safety_verdict_answers_whether_the_rule_matters_from_the_paired_block(tmp_path):
    rng = np.random.default_rng(4)
    deals = 3000
    on = rng.integers(0, 3, deals)
    # planted: without the rule position 0 takes over a third of the other positions' wins
    off = np.where((on != 0) & (rng.random(deals) < 1 / 3), 0, on)
    out = _paired_safety(tmp_path / "a", on, off, off_rounds=list(7 + rng.integers(0, 3, deals)))
    r = compute_results(out)
    v = verdicts.safety_verdict(r)
    assert v.question == "Does the safety rule matter?" and v.n == deals and v.n_unit == "deals"
    assert "Without the safety rule (safety = false), on the same deals" in v.answer
    assert "games are longer" in v.answer and v.robustness == "one field only"
    assert "The largest change is position 0's at 3 players" in v.answer
    assert "corrected for picking it from the 3 positions" in v.answer
    at = r"position 0 at 3 players: \+2\d\.\d pp \[\+2\d\.\d, \+2\d\.\d\] without the rule"
    assert re.fullmatch(at + r" \(corrected for picking the largest of 3\)", v.estimate)
    assert v.value.rules == "safety = false" and v.value.family == 3 and v.size is None
    assert v.recommendation.startswith("Without the safety rule, position 0 at 3 players is "
                                       "better off by +2")  # fmt: skip
    assert "it is better off without the rule than with it" in v.answer
    assert "how often it fires, not whether it matters" in v.answer
    # the null: the same games without the rule (nothing changes): no claim, no advice
    out = _paired_safety(tmp_path / "b", on, on)
    v = verdicts.safety_verdict(compute_results(out))
    assert "No starting position's win share changes measurably" in v.answer
    assert "no change (no deal of 3,000 differs)" in v.answer and v.recommendation == ""
    assert "not measurably longer or shorter" in v.answer
    # no safety-off block: not measured, and said so
    t = pl.DataFrame([{"field": "mixed field", "block": "seats", "players": 3,
                       "measure": "fired", "estimate": 0.9, "low": 0.85, "high": 0.95,
                       "games": 500, "distinct": 500, "deterministic": False, "count": 450,
                       "safety_rule": True}])  # fmt: skip
    v = verdicts.safety_verdict(_results(safety=t))
    assert "so whether the rule matters is not measured" in v.answer
    assert "90.0 % [85.0, 95.0] (450 of 500)" in v.answer and v.recommendation == ""


def compute_results(out: Path) -> Results:
    """The Results of the safety section alone on a dataset (its tables computed)."""
    from analysis.pizzatheory.report import SAFETY

    r = Results(out, manifest(out), "pizzatheory", REPORT, {}, {})
    r.tables.update(SAFETY.compute(r))
    return r


def test_ratings_verdict_rates_the_main_field_s_player():
    rows = [
        {"players": 3, "a": "greedy", "b": "mixed", "gap": 100.0, "low": 50.0, "high": 150.0,
         "win": 0.64, "deals": 300, "top_vs_bottom": False},
        {"players": 3, "a": "mixed", "b": "heuristic", "gap": 40.0, "low": 10.0, "high": 70.0,
         "win": 0.56, "deals": 300, "top_vs_bottom": False},
        {"players": 3, "a": "greedy", "b": "heuristic", "gap": 140.0, "low": 90.0,
         "high": 190.0, "win": 0.69, "deals": 300, "top_vs_bottom": True},
    ]  # fmt: skip
    ratings = pl.DataFrame(
        {"players": [3] * 3, "strategy": ["greedy", "mixed", "heuristic"],
         "rating": [60.0, -40.0, -80.0]}
    )  # fmt: skip
    v = verdicts.ratings_verdict(_results(rating_gaps=pl.DataFrame(rows), ratings=ratings))
    assert v.estimate.startswith("mixed − heuristic at 3 players: +40 Elo [+10, +70]")
    assert "The mixed player against greedy: -100 Elo [-150, -50]" in v.answer
    assert "rest on the mixed player (the main field)" in v.answer
    assert v.n == 300 and v.n_unit == "deals"


def test_field_signs_and_values_read_the_intervals():
    conds = [
        Condition("field", "heuristic field", 5, 1, 9),
        Condition("field", "mixed field", -5, -9, -1),
        Condition("field", "random field", 1, -2, 4),
    ]
    assert prose.field_signs(conds) == (
        "above 0 in the heuristic field, below 0 in the mixed field and not distinguishable "
        "from 0 in the random field"
    )
    assert prose.value(66.7, 66.7, 66.7, exact=True) == "+66.7 pp (one game)"
    assert prose.value(1.0, -1.0, 3.0) == "+1.0 pp [-1.0, +3.0]"


@pytest.mark.parametrize("same", [True, False])
def test_signatures_tell_games_apart_by_every_column(tmp_path, same):
    rng = np.random.default_rng(3)
    d = SyntheticDataset(tmp_path / "d", game="pizzatheory")
    tops = np.tile([5, 4, 16], (10, 1))
    if not same:
        tops[3, 0] = 6  # one game differs in one seat's toppings
    _block(d, "seats.p3", "seats", np.tile([0.0, 0.0, 1.0], (10, 1)), rng, toppings=tops)
    out = d.write()
    x = row(common.distinct_games(*block_frames(out, "seats")), players=3)
    assert x["deterministic"] is same and x["distinct"] == (1 if same else 2)
