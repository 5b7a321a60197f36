"""Piece o' Cake's analyses on synthetic datasets whose answers are known: the value of an
option (forgoing, cutting fewer) recovers a planted edge, the variety shares recover
planted points, forgo and cut counts are exact, exact-N cutting's change is paired by game,
and every verdict's wording flips with its numbers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import SyntheticDataset, approx, one_hot, row

from analysis.pieceocake import compare, cuts, forgo, prose, restricted, varieties, verdicts
from analysis.pieceocake.report import REPORT
from analysis.prose import chance
from analysis.robust import Condition
from analysis.sections import Results
from analysis.whatif import change_at
from sims.games.pieceocake.cake import default_cake

FIELDS = ["heuristic field", "greedy field"]


def _draws(rng, n: int, deals: int, p: float) -> np.ndarray:
    """(deals, n) one-hot wins: seat 0 wins with probability ``p``, the others share the
    rest equally."""
    rest = (1 - p) / (n - 1)
    winners = rng.choice(n, size=deals, p=[p] + [rest] * (n - 1))
    return one_hot(list(winners), n)


def _rotate(share: np.ndarray, k: int) -> np.ndarray:
    """Seat 0's column moved to seat ``k`` (the candidate of rotation ``k``)."""
    return np.roll(share, k, axis=1)


# ----------------------------------------------------------------------------- option value


def test_option_value_is_exact_on_a_hand_made_deal(tmp_path):
    d = SyntheticDataset(tmp_path / "d", game="pieceocake")
    d.players(d.arm("seats.p2", 2, "heuristic", group="seats"),
              win_share=[[1, 0], [0.5, 0.5], [0, 1]])  # fmt: skip
    spec = ["heuristic(margin=1000)", "heuristic"]
    # deal 0: the restricted seat wins from seat 0, loses from seat 1; deal 1: loses both;
    # deal 2 only in rotation 0 (not every rotation played: left out)
    d.players(d.arm("noforgo.p2.r0", 2, spec, group="noforgo"),
              win_share=[[1, 0], [0, 1], [1, 0]])  # fmt: skip
    d.players(d.arm("noforgo.p2.r1", 2, spec[::-1], group="noforgo", rotation=1),
              win_share=[[1, 0], [1, 0]])  # fmt: skip
    out = d.write()
    deals = restricted.deal_values(out, "noforgo")
    assert deals["game_index"].to_list() == [0, 1]
    assert deals["restricted"].to_list() == [0.5, 0.0]
    assert deals["unrestricted"].to_list() == [0.5, 0.5]  # 1/n on every deal
    t = restricted.option_value(out, "noforgo")
    x = row(t, players=2)
    assert x["deals"] == 2 and x["value_pp"] == approx(25.0)
    assert x["games"] == 2 and "deals" in x["warning"]  # n counts deals


def test_option_value_recovers_a_planted_five_points(tmp_path):
    """Planted truth: the restricted seat wins 20% of deals at 4 players instead of the
    fair 25%, so the option is worth +5 pp."""
    rng = np.random.default_rng(11)
    n, deals = 4, 4000
    d = SyntheticDataset(tmp_path / "d", game="pieceocake")
    d.players(d.arm("seats.p4", n, "heuristic", group="seats"),
              win_share=_draws(rng, n, deals, 1 / n))  # fmt: skip
    for k in range(n):
        specs = ["heuristic"] * n
        specs[k] = "heuristic(margin=1000)"
        share = _rotate(_draws(rng, n, deals, 0.20), k)
        d.players(d.arm(f"noforgo.p4.r{k}", n, specs, group="noforgo", rotation=k),
                  win_share=share)  # fmt: skip
    out = d.write()
    x = row(restricted.option_value(out, "noforgo"), players=4)
    assert x["deals"] == deals
    assert x["value_low"] < 5 < x["value_high"] and x["value_low"] > 0
    assert x["value_pp"] == approx(5, abs=1.0)
    assert x["warning"] == ""


def test_option_value_in_another_field_pairs_by_rotation_and_deal(tmp_path):
    """Planted truth in a rotated unrestricted block: the candidate wins 40% of deals, the
    restricted candidate 30%: +10 pp."""
    rng = np.random.default_rng(3)
    n, deals = 4, 3000
    d = SyntheticDataset(tmp_path / "d", game="pieceocake")
    for group, spec, p in (("heur-greedy", "heuristic", 0.4),
                           ("noforgo-greedy", "heuristic(margin=1000)", 0.3)):  # fmt: skip
        for k in range(n):
            specs = ["greedy"] * n
            specs[k] = spec
            d.players(d.arm(f"{group}.p4.r{k}", n, specs, group=group, rotation=k),
                      win_share=_rotate(_draws(rng, n, deals, p), k))  # fmt: skip
    out = d.write()
    x = row(restricted.option_value(out, "noforgo-greedy", "heur-greedy"), players=4)
    assert x["unrestricted_share"] == approx(0.4, abs=0.015)
    assert x["restricted_share"] == approx(0.3, abs=0.015)
    assert x["value_low"] < 10 < x["value_high"] and x["value_low"] > 0


# ----------------------------------------------------------------------------- varieties


def _bits(*names: str) -> int:
    cake = default_cake()
    return sum(1 << cake.index(v) for v in names)


def _eaten(**counts: int) -> list[int]:
    cake = default_cake()
    return [counts.get(v.name, 0) for v in cake.varieties]


def test_variety_shares_recover_planted_points(tmp_path):
    """Type A games (40): the winner scores chocolate's majority (11) and ate two kiwi (2 × 2
    cream): 15 points. Type B games (20): two seats share the win on 10 points each, one
    with strawberry's majority, the other with gooseberry's (9) and a plum eaten (1). Each
    winner weighs its win share, so chocolate's share is 40·11 / (40·15 + 20·10)."""
    nA, nB = 40, 20
    won, eaten, score, share = [], [], [], []
    for _ in range(nA):
        won.append([_bits("chocolate"), _bits("plum"), 0])
        eaten.append([_eaten(kiwi=2), _eaten(), _eaten(cherry=1)])
        score.append([15, 3, 1])
        share.append([1, 0, 0])
    for _ in range(nB):
        won.append([_bits("strawberry"), _bits("gooseberry"), 0])
        eaten.append([_eaten(), _eaten(plum=1), _eaten()])
        score.append([10, 10, 0])
        share.append([0.5, 0.5, 0])
    collected = [[_eaten()] * 3] * (nA + nB)
    d = SyntheticDataset(tmp_path / "d", game="pieceocake")
    arm = d.arm("seats.p3", 3, "heuristic", group="seats")
    games = nA + nB
    d.table("players", arm, {
        "game_index": np.repeat(np.arange(games), 3), "seat": np.tile(np.arange(3), games),
        "strategy": ["heuristic"] * 3 * games,
        "win_share": np.ravel(share), "score": np.ravel(score),
        "won_mask": np.ravel(won), "eaten_by_variety": [e for g in eaten for e in g],
        "collected_by_variety": [c for g in collected for c in g],
    })  # fmt: skip
    d.arms[arm]["games"] = games
    out = d.write()
    assert varieties.has_columns(out)
    t = varieties.variety_shares(out)
    total = nA * 15 + nB * 10
    truth = {"chocolate": nA * 11, "kiwi": nA * 4, "strawberry": nB * 5, "gooseberry": nB * 4.5,
             "plum": nB * 0.5, "cherry": 0, "apricot": 0, "blackberry": 0}  # fmt: skip
    for v, pts in truth.items():
        x = row(t, players=3, variety=v)
        assert x["share"] == approx(pts / total), v
        assert x["games"] == games  # the unit is the game, not the winner
    assert t["share"].sum() == approx(1.0)  # the varieties add up to the winners' scores
    x = row(t, players=3, variety="gooseberry")
    assert x["majority_share"] == approx(nB * 4.5 / total) and x["cream_share"] == 0
    assert row(t, players=3, variety="kiwi")["cream_share"] == approx(nA * 4 / total)
    top = varieties.top_variety(t)
    assert row(top, players=3)["variety"] == "chocolate"


def test_variety_shares_with_a_planted_variety_worth_more(tmp_path):
    """Planted truth on a variant cake (plum worth 40): winners who hold plum's majority
    win; the estimator gives plum the top share, its interval clear of the runner-up's."""
    cake = _cake_file(tmp_path / "plum40.toml", plum=40)
    rng = np.random.default_rng(2)
    n, games = 3, 600
    k = len(default_cake().varieties)
    won = rng.integers(0, 2, (games, n, k))
    won[:, :, 0] = 0
    won[np.arange(games), rng.integers(0, n, games), 0] = 1  # one plum leader a game
    eaten = rng.integers(0, 3, (games, n, k))
    values = np.array([40 if v.name == "plum" else v.value for v in default_cake().varieties])
    cream = np.array([v.cream for v in default_cake().varieties])
    score = (won * values).sum(axis=2) + (eaten * cream).sum(axis=2)
    best = score.max(axis=1, keepdims=True)
    share = (score == best) / (score == best).sum(axis=1, keepdims=True)
    d = SyntheticDataset(tmp_path / "d", game="pieceocake")
    arm = d.arm("seats.p3", n, "heuristic", group="seats")
    d.arms[arm]["cake"] = str(cake)
    mask = (won * (1 << np.arange(k))).sum(axis=2)
    d.table("players", arm, {
        "game_index": np.repeat(np.arange(games), n), "seat": np.tile(np.arange(n), games),
        "strategy": ["heuristic"] * n * games, "win_share": share.ravel(),
        "score": score.ravel(), "won_mask": mask.ravel(),
        "eaten_by_variety": eaten.reshape(-1, k).tolist(),
        "collected_by_variety": won.reshape(-1, k).tolist(),
    })  # fmt: skip
    d.arms[arm]["games"] = games
    out = d.write()
    winners, names = varieties.winner_points(out)
    assert names[0] == "plum"
    points = winners.select(pl.sum_horizontal(f"points_{v}" for v in names)).to_series()
    assert (points == winners["score"]).all()  # the parts add up to every winner's score
    top = row(varieties.top_variety(varieties.variety_shares(out)), players=3)
    assert top["variety"] == "plum" and top["separated"]


def _cake_file(path: Path, **values: int) -> Path:
    """The published cake with some varieties' values replaced."""
    text = [f'name = "variant {path.stem}"']
    for v in default_cake().varieties:
        text.append(f'[[variety]]\nname = "{v.name}"\ncopies = {v.copies}\ncream = {v.cream}\n'
                    f"value = {values.get(v.name, v.value)}")  # fmt: skip
    path.write_text("\n".join(text) + "\n")
    return path


def _played(tmp_path: Path, name: str, cake: Path | None) -> Path:
    """300 real 3-player games, the heuristic in every seat, on ``cake``."""
    from sims.batch import run_study
    from sims.core.study import load_study

    study = tmp_path / f"{name}-study.toml"
    cake_line = f'cake = "{cake}"' if cake else ""
    study.write_text(f'name = "{name}"\nseed = 3\n[[arms]]\nname = "seats"\n'
                     f'game = "pieceocake"\nplayers = [3]\nstrategies = "heuristic"\n'
                     f"games = 300\n{cake_line}\n")  # fmt: skip
    out = tmp_path / name
    run_study(load_study(study), out, jobs=1)
    return out


def test_variety_shares_on_real_games_with_a_variety_worth_more(tmp_path):
    """Planted truth in real games: plum (3 slices) made worth 40 points instead of 3 carries
    the winners; on the published cake it carries almost nothing."""
    variant = _played(tmp_path, "plum40", _cake_file(tmp_path / "plum40.toml", plum=40))
    if not varieties.has_columns(variant):
        pytest.skip("the players table has no per-variety columns yet")
    shares = varieties.variety_shares(variant)
    top = row(varieties.top_variety(shares), players=3)
    assert top["variety"] == "plum" and top["separated"]
    published = varieties.variety_shares(_played(tmp_path, "published", None))
    plum = row(published, players=3, variety="plum")
    assert plum["share_high"] < row(shares, players=3, variety="plum")["share_low"]
    assert row(varieties.top_variety(published), players=3)["variety"] != "plum"
    for t in (shares, published):
        assert t["share"].sum() == approx(1.0)


def test_split_ties_share_the_value_among_the_leaders():
    frame = pl.DataFrame({
        "game_index": [0, 0, 0], "seat": [0, 1, 2],
        "won_mask": [1, 1, 0],
        "collected_by_variety": [[2, 0], [2, 0], [1, 0]],
        "eaten_by_variety": [[0, 1], [0, 0], [0, 0]],
    })  # fmt: skip
    pts = varieties.variety_points(frame, [11, 3], [3, 1], "split")
    assert pts.tolist() == [[5, 1], [5, 0], [0, 0]]
    pts = varieties.variety_points(frame, [11, 3], [3, 1], "full")
    assert pts.tolist() == [[11, 1], [11, 0], [0, 0]]


# ----------------------------------------------------------------------------- forgo, cuts


def _forgo_dataset(tmp_path) -> Path:
    d = SyntheticDataset(tmp_path / "d", game="pieceocake")
    arm = d.arm("decisions.p3", 3, "heuristic", group="decisions", decisions=True)
    # game 0: seat 1 forgoes twice (once by choice), seat 2 once by force; game 1: none
    d.players(arm, win_share=[[0, 1, 0], [1, 0, 0]], score=[[10, 12, 5], [20, 9, 8]],
              pieces_taken=[[5, 3, 4], [5, 5, 5]], forgone=[[0, 2, 1], [0, 0, 0]],
              eaten=[[4, 6, 2], [3, 3, 3]], collected=[[8, 2, 6], [9, 9, 9]],
              forgo_eaten=[[0, 3, 0], [0, 0, 0]])  # fmt: skip
    rows = [
        {"game_index": 0, "round": 0, "server": 0, "seat": 0, "phase": "cut", "action": 0,
         "n_legal": 221},
        {"game_index": 0, "round": 1, "server": 1, "seat": 1, "phase": "cut", "action": 1060,
         "n_legal": 221},
        {"game_index": 0, "round": 1, "server": 1, "seat": 1, "phase": "choose", "action": 0,
         "n_legal": 2},
        {"game_index": 0, "round": 2, "server": 2, "seat": 2, "phase": "choose", "action": 1,
         "n_legal": 2},
        {"game_index": 1, "round": 0, "server": 0, "seat": 0, "phase": "cut", "action": 132,
         "n_legal": 221},
        {"game_index": 1, "round": 1, "server": 1, "seat": 1, "phase": "cut", "action": 1060,
         "n_legal": 221},
    ]  # fmt: skip
    d.decisions(arm, rows)
    return d.write()


def test_forgo_counts_voluntary_and_forced(tmp_path):
    out = _forgo_dataset(tmp_path)
    seats = forgo.forgo_seats(out)
    g0 = seats.filter(pl.col("game_index") == 0).sort("seat")
    assert g0["voluntary"].to_list() == [0, 1, 0]
    assert g0["forced"].to_list() == [0, 1, 1]
    assert g0["turns"].to_list() == [5, 5, 5]
    rates = forgo.forgo_rates(out)
    assert forgo.rate(rates, 3, "forgone")["estimate"] == approx(3 / 30)
    assert forgo.rate(rates, 3, "voluntary")["estimate"] == approx(1 / 30)
    assert forgo.rate(rates, 3, "forced")["estimate"] == approx(2 / 30)
    assert forgo.rate(rates, 3, "forgo_eaten")["estimate"] == approx(3 / 21)
    assert forgo.rate(rates, 3, "forgo_eaten_per_game")["estimate"] == approx(1.5)
    assert forgo.rate(rates, 3, "forgoing_seats")["estimate"] == approx(2 / 6)
    assert set(rates["games"]) == {2}  # the unit is the game
    a = row(forgo.forgo_association(out), players=3)
    assert a["seats_forgoing"] == 2 and a["seats_not"] == 4
    assert a["diff_pp"] == approx(100 * (1 / 2 - 1 / 4))  # game 0 seats 1-2; the other four
    assert a["smaller_group_games"] == 1 and a["warning"].startswith("only 1 games")


def test_a_dataset_without_the_variety_columns_says_so(tmp_path):
    from analysis.content import texts
    from analysis.load import manifest
    from analysis.pieceocake.report import VARIETIES

    out = _forgo_dataset(tmp_path)
    r = Results(out, manifest(out), "pieceocake", REPORT, {}, {})
    r.tables.update(VARIETIES.compute(r))
    assert "won_mask" in r.varieties_missing and "variety_shares" not in r.tables
    text = " ".join(texts(VARIETIES.blocks(r, 5)))
    assert "Not computed" in text and "rebuild it" in text
    assert verdicts.variety_verdict(r) is None  # page 1 states no verdict without data


def test_cut_pieces_come_from_the_gap_mask(tmp_path):
    masks = pl.DataFrame({"a": [0, 1060, 132, 24, 1025, 2047]})
    pieces = masks.select(cuts.pieces_expr(pl.col("a")).alias("p"))["p"]
    assert pieces.to_list() == [1, 3, 2, 2, 2, 11]
    out = _forgo_dataset(tmp_path)
    x = row(cuts.fewer_rates(out), players=3)
    assert x["most"] == 3 and x["cuts"] == 4 and x["games"] == 2
    assert x["fewer_share"] == approx(2 / 4)  # the whole cake and a 2-piece cut
    assert x["mean_pieces"] == approx((1 + 3 + 2 + 3) / 4)
    pc = cuts.piece_counts(out)
    assert row(pc, players=3, pieces=3)["share"] == approx(0.5)


# ----------------------------------------------------------------------------- exact-N, NYS


def _seat_blocks(tmp_path, planted: bool) -> Path:
    rng = np.random.default_rng(5)
    d = SyntheticDataset(tmp_path / "d", game="pieceocake")
    n, games = 2, 3000
    base = _draws(rng, n, games, 0.6)  # the first server wins 60%: +10 pp over fair
    exact = _draws(rng, n, games, 0.5) if planted else base
    for name, share in (("seats", base), ("seats-exact", exact)):
        arm = d.arm(f"{name}.p2", n, "heuristic", group=name)
        ones = np.ones((games, n), dtype=int)
        d.players(
            arm,
            win_share=share,
            eaten=3 * ones,
            collected=ones,
            forgone=ones * (0 if name == "seats" else 1),
            pieces_taken=4 * ones,
        )
    return d.write()


def test_exact_change_is_paired_by_game(tmp_path):
    t = compare.exact_change(_seat_blocks(tmp_path / "a", planted=True), n_boot=200)
    assert t["measure"].to_list() == list(compare.MEASURES)  # one count, in their order
    x = change_at(t, 2, "first_edge")
    assert x["before"] == approx(10, abs=2) and x["after"] == approx(0, abs=2)
    assert x["change_low"] < -10 < x["change_high"] and x["change_high"] < 0
    e = change_at(t, 2, "eaten")
    assert e["before"] == approx(75) and e["change"] == approx(0)
    f = change_at(t, 2, "forgone")
    assert f["before"] == 0 and f["after"] == approx(20) and f["change"] == approx(20)
    same = compare.exact_change(_seat_blocks(tmp_path / "b", planted=False), n_boot=50)
    y = change_at(same, 2, "first_edge")
    assert y["change"] == y["change_low"] == y["change_high"] == 0  # identical games


def test_the_nyslice_dataset_is_found_or_named(tmp_path):
    out = _seat_blocks(tmp_path / "pieceocake-balance", planted=False)
    m = json.loads((out / "manifest.json").read_text())
    path, why = compare.nyslice_dataset(out, m, None)
    assert path is None and "no dataset nyslice-balance beside this one" in why
    path, why = compare.nyslice_dataset(out, m, str(out))
    assert path is None and "is a pieceocake dataset, not New York Slice" in why
    nys = SyntheticDataset(out.parent / "nyslice-balance")
    arm = nys.arm("seats.p2", 2, "heuristic", group="seats")
    nys.players(arm, win_share=one_hot([0, 1, 0, 0], 2))
    nys.write()
    path, why = compare.nyslice_dataset(out, m, None)
    assert path == (out.parent / "nyslice-balance").resolve() and why == ""
    t = compare.nyslice_seats(path, n_boot=50)
    assert row(t, players=2)["first_edge_pp"] == approx(25.0)  # 75% won, fair 50%
    manifest = json.loads((path / "manifest.json").read_text())
    chunk = manifest["chunks"][0]
    for f in chunk["files"].values():
        (path / f["path"]).unlink()
    chunk["files"] = chunk["rows"] = None  # a chunk not played yet
    (path / "manifest.json").write_text(json.dumps(manifest))
    path, why = compare.nyslice_dataset(out, m, None)
    assert path is None and "is not complete" in why


# ----------------------------------------------------------------------------- verdicts


def _results(**tables) -> Results:
    return Results(Path("."), {}, "pieceocake", REPORT, {}, dict(tables))


def _conds(est, lo, hi, names=FIELDS):
    return [Condition("field", n, est, lo, hi, 100) for n in names]


def _fair(rows):
    return pl.DataFrame(rows, schema=["players", "first_edge_pp", "first_low", "first_high",
                                      "games"], orient="row")  # fmt: skip


def test_first_server_verdict_follows_the_signs_and_the_fields():
    r = _results(
        fairness=_fair(
            [(2, 26.0, 20.0, 33.0, 800), (3, -13.0, -17.0, -8.0, 800), (4, -0.5, -2.0, 1.0, 800)]
        ),  # fmt: skip
        first_conditions={
            2: [
                Condition("field", FIELDS[0], 26, 20, 33),
                Condition("field", FIELDS[1], -30, -39, -21),
            ],
            3: _conds(-13, -17, -8),
            4: _conds(-0.5, -2.0, 1.0),
        },  # fmt: skip
    )
    v = verdicts.first_server_verdict(r)
    assert "ahead at 2 players" in v.answer and "behind at 3 players" in v.answer
    assert "level within the interval at 4 players" in v.answer
    assert "The sign holds in every field (heuristic and greedy) at 3 players." in v.answer
    assert v.estimate == (
        "the first server at 2 players: +26.0 pp [+18.6, +34.4] over the fair share "
        "(corrected for picking the largest of 3)"
    )
    assert v.value.low < 20.0 and v.value.high > 33.0  # wider than the raw [+20, +33]
    assert v.robustness == "not robust: sign flips" and v.n == 800 and v.n_unit == "games"
    # 2 players is the largest edge but not robust: no advice there; 3 players is robust and
    # the first server is behind: the advice says so, from the corrected interval's sign
    assert v.recommendation.startswith("The first server at 3 players is behind by -13.0 pp [")
    assert "(interval corrected for picking it from 3)" in v.recommendation
    assert v.recommendation.endswith("in favour of the first server.")
    assert "2 players" not in v.recommendation
    r = _results(
        fairness=_fair([(4, 1.0, 0.5, 1.5, 800)]), first_conditions={4: _conds(1, 0.5, 1.5)}
    )
    v = verdicts.first_server_verdict(r)
    assert "ahead at 4 players" in v.answer and v.robustness == "robust"
    assert v.recommendation == ""  # robust but below 2 pp


def _best(edge, param="theta", best=2.0, members=(1.4, 2.0, 2.8)):
    return pl.DataFrame({"players": [4], f"best_{param}": [best], f"{param}_set": [list(members)],
                         "set_low": [min(members)], "set_high": [max(members)],
                         "edge_pp": [edge[0]], "edge_low": [edge[1]], "edge_high": [edge[2]],
                         "deals": [3000]})  # fmt: skip


def test_theta_verdict_says_what_the_held_out_edge_supports():
    sets = pl.DataFrame({"field": FIELDS, "best_theta": [2.0, 1.4]})
    r = _results(best_theta=_best((0.1, -1.2, 1.3)), theta_sets=(sets, [2.0], []))
    v = verdicts.theta_verdict(r)
    assert "θ = 2 (θ from 1.4 to 2.8 is not significantly worse" in v.answer
    assert "gains nothing measurable" in v.answer and "pays held out at no player" in v.answer
    assert v.recommendation == "" and v.robustness == "robust" and v.n_unit == "deals"
    r = _results(best_theta=_best((2.0, 0.5, 3.5)), theta_sets=(sets, [], []))
    v = verdicts.theta_verdict(r)
    assert "gains +2.0 pp [+0.5, +3.5]" in v.answer and "pays held out at 4 players" in v.answer
    alone = _results(best_theta=_best((0.1, -1.2, 1.3), members=(2.0,)),
                     theta_sets=(sets, [], []))  # fmt: skip
    answer = verdicts.theta_verdict(alone).answer
    assert "θ = 2 (every other θ tested is significantly worse" in answer
    assert v.recommendation and v.robustness == "not robust: no common θ"


def _value(rows):
    return pl.DataFrame(rows, schema=["players", "value_pp", "value_low", "value_high", "deals"],
                        orient="row")  # fmt: skip


def _rates(voluntary):
    return pl.DataFrame({"players": list(voluntary), "measure": ["voluntary"] * len(voluntary),
                         "estimate": list(voluntary.values())})  # fmt: skip


def test_forgo_verdict_flips_with_the_value_and_the_fields():
    value = _value([(2, 0.0, 0.0, 0.0, 4000), (4, 3.0, 1.5, 4.5, 4000)])
    conds = {2: _conds(0, 0, 0, FIELDS[:1]), 4: _conds(3.0, 1.5, 4.5)}
    r = _results(forgo_value=value, forgo_conditions=conds,
                 forgo_rates=_rates({2: 0.002, 4: 0.05}))  # fmt: skip
    v = verdicts.forgo_verdict(r)
    assert "worth having at 4 players" in v.answer
    assert "not distinguishable from 0 at 2 players" in v.answer
    assert "forgoes voluntarily in under 1% of chances at 2 players" in v.answer
    assert v.robustness == "robust"
    assert v.estimate == "a seat that may forgo at 4 players: +3.0 pp [+1.5, +4.5]"
    assert v.n == 4000 and v.n_unit == "deals"
    assert v.recommendation.startswith("A seat that may forgo at 4 players (against one that "
                                       "never does) is ahead by +3.0 pp [")  # fmt: skip
    assert "(interval corrected for picking it from 2)" in v.recommendation
    # a sign that flips in the greedy field: not robust, no recommendation
    conds[4] = [Condition("field", FIELDS[0], 3, 1.5, 4.5),
                Condition("field", FIELDS[1], -2, -3, -1)]  # fmt: skip
    v = verdicts.forgo_verdict(_results(forgo_value=value, forgo_conditions=conds))
    assert v.robustness == "not robust: sign flips" and v.recommendation == ""
    # a handicap everywhere
    value = _value([(4, -3.0, -4.5, -1.5, 4000)])
    v = verdicts.forgo_verdict(
        _results(forgo_value=value, forgo_conditions={4: _conds(-3, -4.5, -1.5)})
    )
    assert "a handicap at 4 players" in v.answer and "trap" in v.recommendation


def _tested(rows):
    """Value rows with the exact sign test's columns (none of them sparse)."""
    t = _value(rows)
    return t.with_columns(
        pl.lit(4000).alias("differ"), pl.lit(3000).alias("up"), pl.lit(1000).alias("down"),
        pl.lit(0.0).alias("sign_p"), pl.lit(False).alias("sparse"),
        pl.Series("claim_sign", [1 if lo > 0 else -1 if hi < 0 else 0
                                 for _, _, lo, hi, _ in rows]),
    )  # fmt: skip


# 2-player value under the other reading, agreement, the 2-player recommendation made
READINGS = [
    ((2, 6.4, 5.5, 7.2, 4000), "both readings agree", True),
    ((2, 0.3, -0.5, 1.1, 4000), "the two readings disagree, so no 2-player advice follows",
     False),
]  # fmt: skip


@pytest.mark.parametrize("other,says,advice", READINGS)
def test_the_two_player_verdict_is_shown_under_both_readings(other, says, advice):
    """At 2 players the value of cutting fewer rests on the forced-forgo ruling: the
    verdict gives it under the ruling and under forced_forgo_after_take = false, and
    advises nothing at 2 players when the readings disagree."""
    value = _tested([(2, 13.8, 12.9, 14.7, 4000), (4, 0.5, 0.2, 0.8, 4000)])
    conds = {2: _conds(13.8, 12.9, 14.7), 4: _conds(0.5, 0.2, 0.8)}
    v = verdicts.fewer_verdict(_results(fewer_value=value, fewer_conditions=conds,
                                        fewer_value_other=_tested([other])))  # fmt: skip
    assert ("under the ruling the option to cut fewer pieces is worth having (+13.8 pp "
            "[+12.9, +14.7]); under the other reading (forced_forgo_after_take = false: the "
            "turn passes) it is ") in v.answer  # fmt: skip
    assert says in v.answer
    assert bool(v.recommendation) == advice
    if advice:
        assert v.recommendation.startswith("A seat that may cut fewer pieces at 2 players")


def test_fewer_verdict_names_the_count_where_only_one_field_was_run():
    value = _value([(2, 10.0, 4.5, 16.0, 80), (4, 0.0, 0.0, 0.0, 80)])
    conds = {2: _conds(10.0, 4.5, 16.0, FIELDS[:1]), 4: _conds(0, 0, 0)}
    cut = pl.DataFrame({"players": [2, 4], "fewer_share": [0.37, 0.0]})
    v = verdicts.fewer_verdict(
        _results(
            fewer_value=value,
            fewer_conditions=conds,
            cut_rates=cut,
            best_fewer=_best((0.3, -1, 1.6), "fewer"),
        )
    )
    assert "worth having at 2 players" in v.answer and "largest at 2 players" in v.answer
    assert "cuts fewer pieces in under 1% of chances at 4 players" in v.answer
    assert v.robustness == "not fully checked" and "greedy field" in v.detail
    assert ("At 4 players, where every field was run: no effect (every interval lies within "
            "±1 pp in all 2 conditions (2 fields))") in v.detail  # fmt: skip
    assert "best fewer" not in v.answer  # the sweep has no 2-player row here


def _top(rows):
    return pl.DataFrame(rows, schema=["players", "variety", "share", "share_low", "share_high",
                                      "games", "runner_up", "runner_share", "runner_low",
                                      "runner_high", "separated"], orient="row")  # fmt: skip


def test_variety_verdict_flips_with_the_intervals():
    names = [v.name for v in default_cake().varieties]
    shares = pl.DataFrame({"players": [4] * 8, "variety": names,
                           "share": [0.02, 0.1, 0.1, 0.1, 0.1, 0.1, 0.18, 0.3],
                           "share_low": [0.01, 0.08, 0.08, 0.08, 0.08, 0.08, 0.16, 0.28],
                           "share_high": [0.03, 0.12, 0.12, 0.12, 0.12, 0.12, 0.2, 0.32],
                           "cake_share": [0.05, 0.1, 0.1, 0.1, 0.1, 0.1, 0.2, 0.25]})  # fmt: skip
    top = _top(
        [
            (3, "chocolate", 0.3, 0.28, 0.32, 900, "strawberry", 0.15, 0.13, 0.17, True),
            (4, "chocolate", 0.3, 0.28, 0.32, 900, "strawberry", 0.18, 0.16, 0.2, True),
        ]
    )
    v = verdicts.variety_verdict(_results(top_variety=top, variety_shares=shares))
    assert v.answer.startswith(
        "Chocolate carries the largest share of the winners' points at every player count"
    )
    assert "ahead of strawberry (18.0%)" in v.answer and "at 3 and 4 players" in v.answer
    assert "the winners take more from chocolate and less from plum" in v.answer
    assert v.recommendation.startswith(
        "chocolate carries more than its weight at 4 players "
        "(30% of the winning points, 25% of the cake's)"
    )
    assert v.n_unit == "games" and v.estimate.startswith(
        "chocolate at 4 players: 30.0 % [28.0, 32.0]"
    )
    # within its weight: no recommendation
    v = verdicts.variety_verdict(_results(top_variety=top, variety_shares=shares.with_columns(
        pl.col("share_low").alias("cake_share"))))  # fmt: skip
    assert "every variety's share of the winning points is within" in v.answer
    assert v.recommendation == ""
    top = _top(
        [
            (4, "kiwi", 0.16, 0.12, 0.2, 900, "strawberry", 0.15, 0.11, 0.19, False),
            (5, "chocolate", 0.2, 0.18, 0.22, 900, "kiwi", 0.1, 0.08, 0.12, True),
        ]
    )
    v = verdicts.variety_verdict(_results(top_variety=top, variety_shares=shares))
    assert "depends on the count: 4p kiwi; 5p chocolate" in v.answer
    assert "not separated from strawberry" in v.answer and v.recommendation == ""


def test_exact_verdict_flips_with_the_change():
    t = pl.DataFrame({
        "players": [2, 3], "measure": ["first_edge"] * 2, "unit": "pp", "n": [400, 400],
        "n_unit": "games", "before": [27.5, -16.0], "after": [5.5, -16.0],
        "change": [-22.0, 0.0],
        "change_low": [-32.0, 0.0], "change_high": [-12.0, 0.0],
    })  # fmt: skip
    v = verdicts.exact_verdict(_results(exact_change=t))
    assert "the first server's edge falls at 2 players" in v.answer
    assert "does not move measurably at 3 players" in v.answer
    assert "At 3 players the heuristic already cuts the most pieces" in v.answer
    assert v.recommendation.startswith("Exact-N cutting shrinks the first server's edge at 2")
    t = t.with_columns(
        pl.Series("after", [35.0, -16.0]),
        pl.Series("change", [7.5, 0.0]),
        pl.Series("change_low", [2.0, 0.0]),
        pl.Series("change_high", [13.0, 0.0]),
    )
    v = verdicts.exact_verdict(_results(exact_change=t))
    assert "rises at 2 players" in v.answer and v.recommendation == ""


def test_count_verdict_flags_seats_off_their_share():
    seat = pl.DataFrame({"players": [2, 2, 4, 4], "seat": [0, 1, 0, 1],
                         "edge_pp": [13.0, -13.0, 0.5, -0.4], "edge_low": [10.0, -16.0, -1, -2],
                         "edge_high": [16.0, -10.0, 2, 1], "games": [800] * 4})  # fmt: skip
    v = verdicts.count_verdict(_results(seat=seat))
    assert "smallest at 4 players (+0.5 pp, seat 0)" in v.answer
    assert (
        "largest at 2 players, seat 0: +13.0 pp [+9.2, +16.8] (interval corrected for picking "
        "the largest of 4 edges of every seat at every count)"
    ) in v.answer
    assert ("at least 2 pp off its fair share (interval, corrected over the 4 seat edges, "
            "clear of it) at 2 players") in v.answer  # fmt: skip
    assert v.question == "Does the game hold up from 2 to 4 players?"
    assert v.recommendation.startswith("Seat 0 at 2 players is ahead by +13.0 pp [")
    assert v.recommendation.endswith("compensate the other seats for seat 0's edge.")
    # the seat verdict at 2 players is not robust: no recommendation, and the detail says why
    conds = {2: [Condition("field", FIELDS[0], 13, 10, 16),
                 Condition("field", FIELDS[1], 1, -2, 4)]}  # fmt: skip
    v = verdicts.count_verdict(_results(seat=seat, first_conditions=conds))
    assert v.recommendation == "" and v.robustness == "not robust: weaker in greedy field"
    assert "No recommendation at 2 players: the seat verdict there is not robust" in v.detail
    # +3.0 [+0.2, +5.8] is clear of 0 alone but not once corrected over the 4 seat edges
    # ([-0.6, +6.6]): not claimed, nothing recommended
    picked = pl.DataFrame({"players": [2, 2, 4, 4], "seat": [0, 1, 0, 1],
                           "edge_pp": [3.0, -0.1, 0.5, -0.4], "edge_low": [0.2, -2, -1, -2],
                           "edge_high": [5.8, 1.8, 2, 1], "games": [800] * 4})  # fmt: skip
    v = verdicts.count_verdict(_results(seat=picked))
    assert "No seat is 2 pp or more off its fair share with an interval" in v.answer
    assert "+3.0 pp [-0.6, +6.6]" in v.estimate and v.recommendation == ""
    v = verdicts.count_verdict(_results(seat=seat.filter(pl.col("players") == 4)))
    assert "No seat is 2 pp or more off" in v.answer and v.recommendation == ""


# ----------------------------------------------------------------------------- prose


def test_option_and_association_sentences_flip():
    t = _value([(2, 10.0, 4.0, 16.0, 80), (3, 0.0, 0.0, 0.0, 80), (4, -2, -3, -1, 80)])
    text = prose.option_sentence(t, "cut fewer pieces")
    assert "worth having at 2 players" in text and "a handicap" in text
    assert "not distinguishable from 0 at 3 players" in text
    assert "At 3 players the restricted seat's games were identical" in prose.identical_note(
        t, "used it")  # fmt: skip
    assoc = pl.DataFrame({"players": [2, 3], "seats_forgoing": [5, 0], "seats_not": [3, 9],
                          "diff_pp": [4.0, None], "diff_low": [-1.0, None],
                          "diff_high": [9.0, None], "games": [100, 100],
                          "warning": ["only 5 games (< 100)", "no interval"]})  # fmt: skip
    text = prose.association_sentence(assoc)
    assert "an association, not an effect" in text and "3p no seat forgoes" in text
    assert "2p +4.0 pp [-1.0, +9.0] (5 forgoing seats in 100 games; only 5 games" in text


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_count_is_listed_once(n):
    assert prose.counts_text(list(range(2, n + 1))).endswith(f"{n} players")


SEARCH_GAPS = [
    # a (higher rated), b, gap, low, high -> the sentence's verdict about search
    ("search", "heuristic", 120.0, 60.0, 180.0, "+120 Elo [+60, +180]", "beats the equilibrium"),
    ("heuristic", "search", 90.0, 20.0, 150.0, "-90 Elo [-150, -20]", "below it"),
    ("search", "heuristic", 30.0, -20.0, 80.0, "+30 Elo [-20, +80]", "not shown to differ"),
]  # fmt: skip


@pytest.mark.parametrize("a, b, gap, low, high, est, says", SEARCH_GAPS)
def test_search_sentence_reads_the_gap_oriented_as_search_minus_heuristic(
    a, b, gap, low, high, est, says
):
    gaps = pl.DataFrame({"players": [4, 4], "a": [a, "heuristic"], "b": [b, "greedy"],
                         "gap": [gap, 500.0], "low": [low, 400.0],
                         "high": [high, 600.0]})  # fmt: skip
    text = verdicts._search_sentence(gaps, 4)
    assert est in text and says in text
    assert verdicts._search_sentence(gaps, 3) == ""  # no search rated at 3 players


@pytest.mark.parametrize("p, text", [(0.997, "more than 99%"), (0.004, "less than 1%"),
                                     (0.5, "50%"), (0.994, "99%")])  # fmt: skip
def test_percent_never_rounds_to_certainty(p, text):
    assert chance(p) == text
