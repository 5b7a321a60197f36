"""Horno's analyses on datasets whose answers are known: own points, completion rates and
the re-scored win share exact on hand-made games, the points lost to sabotage exact, a
planted turn-position edge recovered by position (not by seat), restricted play and
replacement recovering planted handicaps paired by deal, a variant's changes exact, blocks
that do not deal the same games refused; the sentences flip with their numbers; and, on
games played for the test, a dish type worth +5 points more comes out stronger on own
points and replacement, and a handicapped seat comes out behind."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import SyntheticDataset, approx, one_hot, row

from analysis import prose as shared_prose
from analysis.horno import common, dishes, prose, radioactive, sabotage, seats
from analysis.load import manifest
from analysis.restricted import check_paired, deal_values
from sims.core.errors import SlicelabError
from sims.games.horno.cards import (
    cards_toml,
    default_cards,
    plain_type,
    radioactive_as_garbage,
)

V1 = default_cards()
SEAT_DEFAULTS = {
    "won": 0,
    "score": 0,
    "tiebreak": 0,
    "dish_base": 0,
    "garbage_penalty": 0,
    "radioactive_bonus": 0,
    "radioactive_penalty": 0,
    "unfinished_points": 0,
    "dish_points": 0,
    "dishes_completed": 0,
    "unfinished_correct": 0,
    "unfinished_bad": 0,
    "pantry_steals": 0,
    "oven_steals": 0,
    "sabotages": 0,
    "dishes": [],
    "dish_scores": [],
    "unfinished_dish": -1,
}


def _players(d: SyntheticDataset, arm: str, games: list[list[dict]], first: int = 0) -> None:
    """Write an arm's ``players`` rows from one dict per seat per game (missing columns take
    :data:`SEAT_DEFAULTS`); ``win_share`` from the scores, ``completed_by_type`` and
    ``dishes_completed`` from the dishes, ``position`` = seat, unless given."""
    n = d.arms[arm]["players"]
    cols: dict[str, list] = {"game_index": [], "seat": [], "strategy": [], "position": []}
    for g, seats_ in enumerate(games):
        assert len(seats_) == n
        score = [s.get("score", 0) for s in seats_]
        best = max(score)
        for s, x in enumerate(seats_):
            full = {**SEAT_DEFAULTS, **x}
            done = full["dishes"]
            full.setdefault("win_share", (score[s] == best) / score.count(best))
            by_type = [0] * len(V1.types)
            for dish in done:
                by_type[V1.dishes[dish].type] += 1
            full.setdefault("completed_by_type", by_type)
            if "dishes_completed" not in x:
                full["dishes_completed"] = len(done)
            cols["game_index"].append(first + g)
            cols["seat"].append(s)
            cols["strategy"].append(d.arms[arm]["strategies"][s])
            cols["position"].append(x.get("position", s))
            for c, v in full.items():
                if c != "position":
                    cols.setdefault(c, []).append(v)
    path = d.table("players", arm, cols)
    # the tables' list types (an arm whose lists are all empty would infer List(Null))
    typed = pl.read_parquet(path).with_columns(
        pl.col("dishes").cast(pl.List(pl.Int8)),
        pl.col("dish_scores").cast(pl.List(pl.Int16)),
        pl.col("completed_by_type").cast(pl.List(pl.Int8)),
        pl.col("unfinished_dish").cast(pl.Int8),
    )
    typed.write_parquet(path)
    d.arms[arm]["games"] = max(d.arms[arm]["games"], first + len(games))


def _games(d: SyntheticDataset, arm: str, count: int, n: int) -> None:
    d.games(arm, n_winners=[1] * count, rounds=[6] * count, dishes_completed=[0] * count)


def seat(score: int, dishes_=(), scores=(), unfinished: int = -1, points: int = 0, **x) -> dict:
    """One seat of a hand-made game: its completed dishes and their scores, its unfinished
    dish and that dish's end points; ``score`` is their sum unless given."""
    return {
        "score": score,
        "dishes": list(dishes_),
        "dish_scores": list(scores),
        "unfinished_dish": unfinished,
        "unfinished_points": points,
        **x,
    }


# ----------------------------------------------------------------------------- own points


def _hand_made(tmp_path: Path) -> Path:
    """Three 2-player games (v1 dish cards: 0-2 Pizza, 3-5 Yakitori, 6-8 Hamburguesa, 9-11
    Sopa, 12-14 Burrito)."""
    d = SyntheticDataset(tmp_path / "d", game="horno")
    arm = d.arm("seats.p2", 2, "heuristic", group="seats")
    _players(
        d,
        arm,
        [
            [
                seat(20, [0, 3], [10, 8], 6, 2, garbage_penalty=-3, unfinished_bad=1, sabotages=4),
                seat(14, [7], [14], sabotages=2, pantry_steals=1),
            ],
            [
                seat(16, [1], [12], 9, 4, radioactive_penalty=-2, sabotages=3),
                seat(17, [2], [18], 12, -1, unfinished_bad=1, sabotages=5, oven_steals=2),
            ],
            [seat(3, [], [], 0, 3, sabotages=1), seat(14, [13], [14], garbage_penalty=-1)],
        ],
    )
    _games(d, arm, 3, 2)
    return d.write()


def test_own_points_are_exact_on_hand_made_games(tmp_path):
    out = _hand_made(tmp_path)
    own = dishes.own_points(out)
    pizza = row(own, players=2, type_name="Pizza")
    # Pizza: completed 10, 12 and 18, and one unfinished (3 points): 4 taken
    assert (pizza["taken"], pizza["completed"], pizza["games"]) == (4, 3, 3)
    assert pizza["completion"] == approx(3 / 4) and pizza["per_dish"] == approx(40 / 3)
    assert pizza["yield"] == approx(43 / 4)
    # every dish taken: 84 points (the scores' sum) over 10 dishes
    assert pizza["excess"] == approx(43 / 4 - 84 / 10)
    assert pizza["per_seat"] == approx((5 + 15 + 0) / 3) and pizza["share"] == approx(40 / 84)
    # re-scored without its Pizza points: game 0's seat 0 (20 - 10 < 14) and game 1's seat
    # 1 (17 - 18 < 16) lose their wins; game 1's seat 0 had none to lose
    assert pizza["holders"] == 3 and pizza["own_pp"] == approx(200 / 3)
    assert row(own, players=2, type_name="Sopa")["completed"] == 0
    assert row(own, players=2, type_name="Sopa")["yield"] == approx(4.0)
    burrito = row(own, players=2, type_name="Burrito")
    assert burrito["yield"] == approx(13 / 2) and burrito["taken"] == 2
    ranks = dict(zip(own["type_name"], own["rank"], strict=True))
    assert ranks["Pizza"] == 1 and ranks["Sopa"] == 5 and ranks["Burrito"] == 4
    cards = dishes.card_points(out)
    margarita = row(cards, players=2, name="Pizza Margarita")
    assert (margarita["taken"], margarita["completed"]) == (2, 1)
    assert margarita["completion"] == approx(0.5) and margarita["points"] == approx(10.0)
    assert np.isnan(row(cards, players=2, name="Sopa Mademoiselle")["points"])


def test_points_lost_to_sabotage_are_exact(tmp_path):
    out = _hand_made(tmp_path)
    x = row(sabotage.damage(out), players=2)
    # lost: game 0 3 + 1, game 1 2 + 1, game 2 1: 8 points over 3 games of 2 seats
    assert x["lost"] == approx(8 / 6) and x["games"] == 3
    assert x["share"] == approx(8 / (84 + 8))  # of what the dishes would have scored
    assert x["completed_lost"] == approx(6 / 6) and x["unfinished_lost"] == approx(2 / 6)
    assert x["sabotages"] == approx(15 / 6) and x["steals"] == approx(3 / 6)


# ----------------------------------------------------------------------------- seats


def test_a_planted_turn_position_edge_is_recovered_by_position(tmp_path):
    """Planted truth: at 4 players the seat in position 3 wins 40% (+15 pp over the fair
    share); positions are rotated against the seats (seat 1 plays last), so by seat the
    edge shows at seat 1."""
    rng = np.random.default_rng(3)
    games, n = 2000, 4
    last = one_hot(list(rng.choice(n, size=games, p=[0.2, 0.2, 0.2, 0.4])), n)
    position = (np.arange(n) + 2) % n  # seat s plays in position (s + 2) % 4
    share = last[:, position]
    d = SyntheticDataset(tmp_path / "d", game="horno")
    arm = d.arm("seats.p4", n, "heuristic", group="seats")
    d.players(
        arm,
        win_share=share,
        score=rng.integers(0, 30, (games, n)),
        position=np.tile(position, (games, 1)),
    )
    _games(d, arm, games, n)
    out = d.write()
    t = seats.position_table(out, "seats")
    x = row(t, players=4, position=3)
    assert x["edge_pp"] == approx(15, abs=3) and x["edge_low"] > 0 and x["games"] == games
    assert not x["same_as_seat"]
    by_seat = seats.position_table(out, "seats", by="seat")
    assert row(by_seat, players=4, position=1)["edge_pp"] == approx(x["edge_pp"])
    e = row(seats.edges(t), players=4)
    assert e["last_position"] == 3 and e["largest_position"] == 3 and e["first_high"] < 0
    conds = seats.conditions({"heuristic field": t, "other": t}, 3, "field")[4]
    assert [c.name for c in conds] == ["heuristic field", "other"]
    assert conds[0].estimate == approx(x["edge_pp"]) and conds[0].n == games


# ----------------------------------------------------------------------------- paired blocks


def _paired(tmp_path: Path, deals: int = 60, **restricted_arm) -> SyntheticDataset:
    """``seats`` at 3 players (seat ``g % 3`` wins game g) and a rotated ``avoid`` block
    (grid type 0 and 1): avoiding type 0 loses every game, avoiding type 1 changes
    nothing."""
    d = SyntheticDataset(tmp_path / "d", game="horno")
    arm = d.arm("seats.p3", 3, "heuristic", group="seats")
    winners = [g % 3 for g in range(deals)]
    _players(d, arm, [[seat(10 + 5 * (s == w)) for s in range(3)] for w in winners])
    _games(d, arm, deals, 3)
    for t in (0, 1):
        for k in range(3):
            specs = [f"heuristic(avoid={t})" if s == k else "heuristic" for s in range(3)]
            a = d.arm(
                f"avoid.type{t}.r{k}",
                3,
                specs,
                group="avoid",
                rotation=k,
                grid={"type": t},
                **restricted_arm,
            )
            games = []
            for w in winners:
                if t == 0:  # the avoiding seat k loses: a seat after it wins instead
                    w = (k + 1) % 3 if w == k else w
                games.append([seat(10 + 5 * (s == w)) for s in range(3)])
            _players(d, a, games)
            _games(d, a, deals, 3)
    return d


def test_restricted_play_recovers_a_planted_handicap_paired_by_deal(tmp_path):
    out = _paired(tmp_path).write()
    t = dishes.restricted_play(out)
    pizza = row(t, players=3, type_name="Pizza")
    # unrestricted: the seat wins 1/3 of every deal over its rotations; avoiding: never
    assert pizza["value_pp"] == approx(100 / 3) and pizza["deals"] == 60
    assert pizza["restricted_share"] == 0 and pizza["points"] == approx(5 / 3)
    yakitori = row(t, players=3, type_name="Yakitori")
    assert yakitori["value_pp"] == approx(0) and yakitori["points"] == approx(0)
    assert pizza["p_holm"] < 0.05 and not yakitori["holm_significant"]


def test_a_restricted_block_on_other_deals_is_refused(tmp_path):
    out = _paired(tmp_path, deals=6, seed=2).write()
    with pytest.raises(SlicelabError, match="do not deal the same games at 3 players"):
        check_paired(out, "avoid", "seats", ("cards", "rules"))
    with pytest.raises(SlicelabError, match="seed, cards or rules differ"):
        dishes.restricted_play(out)


def _variant(d: SyntheticDataset, name: str, group: str, cards: Path | str | None, games) -> str:
    a = d.arm(name, 3, "heuristic", group=group)
    if cards is not None:
        d.arms[a]["cards"] = str(cards)
    _players(d, a, games)
    _games(d, a, len(games), 3)
    return a


def test_replacement_and_variants_recover_planted_changes(tmp_path):
    """Takers of Pizza (seat 0, a Pizza Margarita worth 10) win every real game and lose
    every replay with average dishes; without radioactive cards every seat scores 2 less."""
    d = SyntheticDataset(tmp_path / "d", game="horno")
    plain = tmp_path / "plain.toml"
    plain.write_text(cards_toml(plain_type(V1, 0)), "utf-8")
    noradio = tmp_path / "noradio.toml"
    noradio.write_text(cards_toml(radioactive_as_garbage(V1)), "utf-8")
    deals = 40
    real = [[seat(12, [0], [10], points=2), seat(8), seat(9)] for _ in range(deals)]
    _variant(d, "seats.p3", "seats", None, real)
    replay = [[seat(11, [0], [13], points=-2), seat(14), seat(9)] for _ in range(deals)]
    _variant(d, "plain-pizza.p3", "plain-pizza", plain, replay)
    less = [[seat(x["score"] - 2) for x in game] for game in real]
    _variant(d, "noradio.p3", "noradio", noradio, less)
    out = d.write()
    m = manifest(out)
    assert common.same_deck(m, "plain-pizza") and common.same_deck(m, "noradio")
    rep = row(dishes.replacement(out), players=3, type_name="Pizza")
    assert rep["takers"] == deals and rep["games"] == deals and rep["plain_points"] == 13
    assert rep["value_pp"] == approx(100) and rep["points"] == approx(1)
    assert rep["direct"] == approx(10 - 13)
    ch = radioactive.variant_changes(out, m)
    score = row(ch, variant="no radioactive cards", players=3, measure="score")
    assert score["change"] == approx(-2) and score["deals"] == deals
    assert row(ch, variant="no radioactive cards", players=3, measure="pos0")["change"] == 0
    assert row(ch, variant="no radioactive cards", players=3, measure="differs")["change"] == 1


def test_a_variant_that_changes_the_deck_is_refused(tmp_path):
    d = SyntheticDataset(tmp_path / "d", game="horno")
    game = [[seat(5), seat(3), seat(1)]]
    _variant(d, "seats.p3", "seats", None, game)
    _variant(d, "noradio.p3", "noradio", "v1-two-wilds", game)  # 2 wilds: another deck
    out = d.write()
    with pytest.raises(SlicelabError, match="does not deal the games of 'seats'"):
        radioactive.variant_changes(out, manifest(out))


# ----------------------------------------------------------------------------- sentences


def _edge(first: tuple, last: tuple, largest_position: int = 0) -> dict:
    return {
        "players": 3,
        "games": 500,
        "first_pp": first[0],
        "first_low": first[1],
        "first_high": first[2],
        "last_position": 2,
        "last_pp": last[0],
        "last_low": last[1],
        "last_high": last[2],
        "largest_position": largest_position,
        "largest_pp": first[0],
        "largest_low": first[1],
        "largest_high": first[2],
    }


def test_the_sentences_flip_with_their_numbers():
    ahead = shared_prose.edge_sentence(_edge((4.0, 1.0, 7.0), (-3.0, -6.0, -1.0)))
    assert "the first player (position 0) is ahead: +4.0 pp [+1.0, +7.0]" in ahead
    assert "the last (position 2) behind" in ahead and "(500 games)" in ahead
    level = shared_prose.edge_sentence(_edge((1.0, -2.0, 4.0), (1.0, -2.0, 4.0)))
    assert "is level within the interval" in level
    own = pl.DataFrame(
        {
            "players": [3, 3],
            "type_name": ["Pizza", "Sopa"],
            "games": [100, 100],
            "yield": [10.0, 8.0],
            "yield_low": [9.0, 7.0],
            "yield_high": [11.0, 9.0],
            "excess": [1.0, -0.5],
            "excess_low": [0.2, -1.5],
            "excess_high": [1.8, 0.5],
            "rank": [1, 2],
        }
    )
    text = prose.own_sentence(own, 3)
    assert "more than the average dish: Pizza (+1.0 points [+0.2, +1.8])" in text
    assert "not distinguishable from the average dish: Sopa" in text
    same = pl.DataFrame(
        {
            "variant": ["x", "x"],
            "players": [3, 3],
            "measure": ["differs", "score"],
            "deals": [50, 50],
            "change": [0.0, 0.0],
            "low": [0.0, 0.0],
            "high": [0.07, 0.0],
        }
    )
    assert "no outcome changes: every one of the 50 deals" in prose.variant_sentence(same, "x", 3)
    moved = same.with_columns(
        pl.Series("change", [0.4, -2.0]),
        pl.Series("low", [0.3, -3.0]),
        pl.Series("high", [0.5, -1.0]),
    )
    assert "lowers the mean score per seat (-2.00 points [-3.00, -1.00])" in (
        prose.variant_sentence(moved, "x", 3)
    )
    x = {
        "restriction": "never steals",
        "edge_pp": -5.0,
        "edge_low": -8.0,
        "edge_high": -2.0,
        "points": -1.0,
        "points_low": -2.0,
        "points_high": 0.5,
        "deals": 120,
        "restricted_sabotages": 5.0,
        "restricted_steals": 0.0,
        "unrestricted_sabotages": 5.0,
        "unrestricted_steals": 3.0,
    }
    assert "never steals (s) loses: -5.0 pp" in prose.restriction_sentence(x, "s")
    x["edge_high"] = 1.0
    assert "neither gains nor loses measurably" in prose.restriction_sentence(x, "s")


# ----------------------------------------------------------------------------- planted truth


PLUS = 5


def test_a_type_worth_more_comes_out_stronger_and_a_handicap_behind(tmp_path):
    """Games played for the test at 2 players on a card set whose Pizza dishes are worth
    +5 points: Pizza yields the most points per dish taken and more than the average dish;
    its takers lose more to average dishes than Sopa's do; a seat that plays at random
    among heuristic seats loses win share and points on the same deals."""
    from dataclasses import replace

    from sims.batch import run_study
    from sims.core.study import load_study

    plus = replace(
        V1,
        name="plus5-pizza",
        dishes=tuple(replace(x, points=x.points + PLUS) if x.type == 0 else x for x in V1.dishes),
    )
    (tmp_path / "plus.toml").write_text(cards_toml(plus), "utf-8")
    for t, name in ((0, "pizza"), (3, "sopa")):
        (tmp_path / f"plain-{name}.toml").write_text(cards_toml(plain_type(plus, t)), "utf-8")
    arms = "".join(
        f'[[arms]]\nname = "{name}"\ngame = "horno"\nplayers = [2]\nstrategies = {specs}\n'
        f'cards = "{cards}"\ngames = {games}\n' + ("rotate = true\n" if rotate else "")
        for name, specs, cards, games, rotate in (
            ("seats", '"heuristic"', "plus.toml", 120, False),
            ("plain-pizza", '"heuristic"', "plain-pizza.toml", 120, False),
            ("plain-sopa", '"heuristic"', "plain-sopa.toml", 120, False),
            ("handicap", '["random", "heuristic"]', "plus.toml", 60, True),
        )
    )
    study = tmp_path / "s.toml"
    study.write_text(f'name = "planted"\nseed = 11\nchunk_size = 200\n{arms}', "utf-8")
    out = tmp_path / "data"
    run_study(load_study(study), out, jobs=1)
    own = dishes.own_points(out)
    pizza = row(own, players=2, type_name="Pizza")
    assert pizza["rank"] == 1 and pizza["excess_low"] > 0
    rep = dishes.replacement(out)
    p, s = row(rep, type_name="Pizza"), row(rep, type_name="Sopa")
    assert p["points_low"] > 0 and p["points"] > s["points"] + 2
    assert p["direct"] > 0
    shares = deal_values(out, "handicap", "seats")  # the random seat, paired by deal
    assert shares.height == 60 and shares["value"].mean() > 0.2  # it loses win share
