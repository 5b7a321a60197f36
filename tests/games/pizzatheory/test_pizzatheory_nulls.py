"""Pizza Theory's report estimators on variants whose true answer is known (small sizes,
fast):

- **colour relabelling** (a real study, both engines' kernel): every field of the default
  study (the mixed player, random play, the heuristic, greedy) played with each colour
  starting first gives the same position table: exactly where play is deterministic given
  the deal (the heuristic and greedy: one game at 3 players, the neutral die's at 2), and
  within noise (every difference's interval, corrected over all of them, covers 0) where
  the players draw;
- **a rule variant that changes nothing** (``max_rounds = 1000``: no game comes near 200
  rounds) played as the safety-off block: the paired estimator finds no deal that differs
  and the safety verdict claims nothing;
- **null boards** (synthetic: every board deals every position 1/3): the board verdict's
  "a starting position's win share changes" fires in at most 2 of 20 replications once
  corrected for picking from every board and position (uncorrected it fires far more
  often), and a planted shift is found with its sign;
- **a planted safety effect** (synthetic, paired): the paired interval covers the planted
  change in most replications and recovers its sign in all;
- **the player-count verdict** recommends only what the seat verdict calls robust, and
  states the direction.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import SyntheticDataset, one_hot

from analysis.load import manifest
from analysis.pizzatheory import boards, common, safety, seats, verdicts
from analysis.pizzatheory.report import REPORT, SAFETY
from analysis.robust import Robustness
from analysis.sections import Results
from analysis.verdicts import adjust_family

FIELDS = {"mixed": "mixed", "random": "random", "heuristic": "heuristic", "greedy": "greedy"}
GAMES = {  # games per colour order, at 3 and 2 players
    "mixed": {3: 120, 2: 80},
    "random": {3: 3000, 2: 3000},
    "heuristic": {3: 1, 2: 40},
    "greedy": {3: 1, 2: 40},
}
DETERMINISTIC = ("heuristic", "greedy")


def _study_text() -> str:
    """Every field, once per colour starting first (first_seat), and a safety-off block
    whose rule change changes nothing (the round bound raised from 200 to 1000)."""
    blocks = []
    for field, spec in FIELDS.items():
        for first in range(3):
            counts = [2, 3] if first < 2 else [3]
            games = ", ".join(f"{n} = {GAMES[field][n]}" for n in counts)
            name = "seats" if (field, first) == ("mixed", 0) else f"{field}-c{first}"
            blocks.append(
                f'[[arms]]\nname = "{name}"\ngame = "pizzatheory"\nplayers = {counts}\n'
                f'strategies = "{spec}"\nrules = {{ first_seat = {first} }}\n'
                f"games = {{ {games} }}\n"
            )
    blocks.append(
        '[[arms]]\nname = "safety-off"\ngame = "pizzatheory"\nplayers = 3\n'
        'strategies = "mixed"\nrules = { max_rounds = 1000 }\n'
        f"games = {GAMES['mixed'][3]}\n"
    )
    return 'name = "pt-nulls"\nseed = 20261214\nchunk_size = 5000\n\n' + "\n".join(blocks)


@pytest.fixture(scope="module")
def relabelled(tmp_path_factory) -> Path:
    from sims.batch import run_study
    from sims.core.study import load_study

    root = tmp_path_factory.mktemp("pt-nulls")
    path = root / "nulls.toml"
    path.write_text(_study_text())
    out = root / "out"
    run_study(load_study(path), out, jobs=1)
    return out


def _block(field: str, first: int) -> str:
    return "seats" if (field, first) == ("mixed", 0) else f"{field}-c{first}"


def test_relabelling_the_colours_leaves_every_field_s_position_table_unchanged(relabelled):
    out = relabelled
    diffs = []
    for field in FIELDS:
        tables = [seats.position_table(out, _block(field, f)) for f in range(3)]
        for first in (1, 2):
            other = tables[first]
            base = tables[0].filter(pl.col("players").is_in(other["players"].unique().implode()))
            assert other["position"].to_list() == base["position"].to_list()
            if field in DETERMINISTIC:  # play is deterministic given the deal: exactly
                for c in ("win_share", "toppings", "games", "distinct", "deterministic"):
                    assert other[c].to_list() == base[c].to_list(), (field, first, c)
                continue
            for a, b in zip(other.iter_rows(named=True), base.iter_rows(named=True), strict=True):
                d, lo, hi = boards.newcombe(
                    a["win_share"], a["win_low"], a["win_high"],
                    b["win_share"], b["win_low"], b["win_high"],
                )  # fmt: skip
                diffs.append({"field": field, "first": first, "players": a["players"],
                              "position": a["position"], "d": 100 * d, "lo": 100 * lo,
                              "hi": 100 * hi})  # fmt: skip
    family = adjust_family(pl.DataFrame(diffs), "d", "lo", "hi")
    moved = family.filter((pl.col("adj_low") > 0) | (pl.col("adj_high") < 0))
    assert moved.is_empty(), moved
    # the heuristic's and greedy's 3-player field is one game whichever colour starts
    for field in DETERMINISTIC:
        t = seats.position_table(out, _block(field, 1)).filter(pl.col("players") == 3)
        assert sorted(t["win_share"].to_list()) in ([0, 0, 1], [0, 0.5, 0.5], [1 / 3] * 3)


def test_a_rule_variant_that_changes_nothing_is_found_to_change_nothing(relabelled):
    out = relabelled
    r = Results(out, manifest(out), "pizzatheory", REPORT, {}, {})
    r.tables.update(SAFETY.compute(r))
    eff = r.tables["safety_effect"]
    deals = GAMES["mixed"][3]
    assert set(eff["deals"]) == {deals} and set(eff["nonzero"]) == {0}
    assert set(eff["estimate"]) == {0.0}
    v = verdicts.safety_verdict(r)
    assert "No starting position's win share changes measurably" in v.answer
    assert f"no change (no deal of {deals} differs)" in v.answer
    assert v.recommendation == ""


# ----------------------------------------------------------------------------- boards


def _uniform_block(d, name, group, rng, games, p0=1 / 3, board=None):
    """One 3-player arm whose starting position 0 wins with probability ``p0`` (the others
    share the rest), the seat the position."""
    rest = (1 - p0) / 2
    share = one_hot(list(rng.choice(3, size=games, p=[p0, rest, rest])), 3)
    arm = d.arm(name, 3, "mixed" if "random" not in name else "random", group=group)
    if board is not None:
        d.arms[arm]["board"] = board
    tops = rng.integers(0, 16, (games, 3))
    d.players(
        arm,
        win_share=share,
        won=(share > 0).astype(int),
        toppings=tops,
        score=tops,
        start_position=np.tile(np.arange(3), (games, 1)),
        saved=np.zeros((games, 3), dtype=int),
        safe_rounds=np.zeros((games, 3), dtype=int),
    )
    d.games(arm, n_winners=[1] * games, rounds=list(rng.integers(5, 12, games)),
            ending=[0] * games, safety_rounds=list(rng.integers(0, 3, games)))  # fmt: skip


def _board_study(path: Path, rng, shift: float = 0.0, fields=("mixed",)) -> Path:
    d = SyntheticDataset(path, game="pizzatheory")
    for field in fields:
        suffix = "" if field == "mixed" else "-random"
        base = "seats" if field == "mixed" else "seats-random"
        _uniform_block(d, f"{base}.p3", base, rng, 1500)
        for board in common.BOARDS:
            p0 = 1 / 3 + (shift if board == "hex-61" else 0.0)
            name = f"board-{board}{suffix}"
            _uniform_block(d, name, name, rng, 500, p0=p0, board=board)
    return d.write()


def _board_verdict(out: Path):
    pos, summ = boards.board_changes(out, manifest(out))
    r = Results(out, manifest(out), "pizzatheory", REPORT, {}, {"boards": summ,
                "board_positions": pos})  # fmt: skip
    return summ, verdicts.board_verdict(r)


def test_null_boards_rarely_claim_that_a_position_changes(tmp_path):
    """20 replications of three boards that change nothing: the corrected claim fires at
    most twice (a 95% family-wise rate gives 1 in 20 expected), the uncorrected one more."""
    rng = np.random.default_rng(2026)
    fired, raw = 0, 0
    for rep in range(20):
        summ, v = _board_verdict(_board_study(tmp_path / f"r{rep}", rng))
        fired += any(len(x) for x in summ["changed_positions"])
        raw += any(len(x) for x in summ["raw_changed"])
        assert v.recommendation == ""
        assert "corrected for picking from the 9 board positions" in v.answer
    assert fired <= 2 and raw > fired, (fired, raw)


def test_a_planted_board_shift_is_found_with_its_sign(tmp_path):
    rng = np.random.default_rng(7)
    out = _board_study(tmp_path / "d", rng, shift=0.15, fields=("mixed", "random"))
    summ, v = _board_verdict(out)
    assert "A starting position's win share changes" in v.answer and "on hex-61" in v.answer
    assert re.match(r"position 0 on hex-61 at 3 players: \+\d+\.\d pp \[\+", v.estimate)
    assert v.estimate.endswith("(corrected for picking the largest of 9)") and v.size is None
    assert v.robustness == "robust" and "(up)" in v.recommendation
    mixed = summ.filter(pl.col("field") == "mixed field")
    assert 0 in mixed.filter(pl.col("board") == "hex-61")["changed_positions"].to_list()[0]
    others = mixed.filter(pl.col("board") != "hex-61")["changed_positions"].to_list()
    assert others == [[], []]


# ----------------------------------------------------------------------------- safety


def _paired(path: Path, rng, deals: int, take: float) -> Path:
    """``seats`` and ``safety-off`` (the same seed): without the rule, position 0 takes the
    win of a deal another position won with probability ``take``."""
    d = SyntheticDataset(path, game="pizzatheory")
    on = rng.integers(0, 3, deals)
    off = np.where((on != 0) & (rng.random(deals) < take), 0, on)
    for name, winner in (("seats", on), ("safety-off", off)):
        arm = d.arm(f"{name}.p3", 3, "mixed", group=name)
        if name == "safety-off":
            d.arms[arm]["rules"] = {"safety": False}
        share = one_hot(list(winner), 3)
        d.players(arm, win_share=share, won=share.astype(int), start_position=np.tile(
                  np.arange(3), (deals, 1)), lost=rng.integers(0, 4, (deals, 3)),
                  toppings=np.full((deals, 3), 9), saved=np.zeros((deals, 3), dtype=int),
                  safe_rounds=np.zeros((deals, 3), dtype=int))  # fmt: skip
        d.games(arm, rounds=list(rng.integers(5, 12, deals)), ending=[0] * deals,
                safety_rounds=[1] * deals, n_winners=[1] * deals)  # fmt: skip
    return d.write()


def test_a_planted_safety_effect_is_covered_and_its_sign_recovered(tmp_path):
    """Planted: position 0 gains ``take`` times the 2/3 of deals it did not win: +10 pp."""
    rng = np.random.default_rng(3)
    truth = 100 * (2 / 3) * 0.15
    covered, signed = 0, 0
    for rep in range(30):
        eff = safety.safety_effect(*(lambda o: (o, manifest(o)))(
            _paired(tmp_path / f"r{rep}", rng, 400, 0.15)))  # fmt: skip
        p0 = eff.filter((pl.col("measure") == "position") & (pl.col("position") == 0)).row(
            0, named=True
        )
        covered += p0["low"] <= truth <= p0["high"]
        signed += p0["low"] > 0
    assert covered >= 26 and signed == 30, (covered, signed)


# ----------------------------------------------------------------------------- player count


def _table(players: int, edges: list[float], half: float = 2.0) -> pl.DataFrame:
    fair = 1 / players
    return pl.DataFrame(
        [
            {"players": players, "position": p, "games": 3000, "distinct": 3000,
             "deterministic": False, "win_share": fair + e / 100,
             "win_low": fair + (e - half) / 100, "win_high": fair + (e + half) / 100,
             "fair": fair, "edge_pp": e, "edge_low": e - half, "edge_high": e + half,
             "toppings": 9.0, "shared": 0.0, "same_as_seat": False}
            for p, e in enumerate(edges)
        ]
    )  # fmt: skip


def test_the_count_verdict_recommends_only_what_the_seat_verdict_calls_robust(monkeypatch):
    main = pl.concat([_table(2, [-8.0, 8.0]), _table(3, [0.5, -1.0, 0.5])])
    r = Results(Path("."), {"study": {"arms": []}}, "pizzatheory", REPORT, {},
                {"positions": {"mixed field": main}})  # fmt: skip
    fragile = Robustness(False, 0, "not robust: covers 0 somewhere", "")
    monkeypatch.setattr(verdicts, "edge_robustness", lambda r, n, p: fragile)
    v = verdicts.count_verdict(r)
    assert v.recommendation == "" and "this edge is not robust" in v.answer
    assert "corrected for picking the largest of the 5 positions" in v.answer
    monkeypatch.setattr(
        verdicts, "edge_robustness", lambda r, n, p: Robustness(True, 1, "robust", "")
    )
    v = verdicts.count_verdict(r)
    assert v.recommendation.startswith("Position 0 at 2 players is behind by -8.0 pp")
    r.tables["positions"] = {"mixed field": pl.concat([_table(2, [8.0, -8.0]), main[2:]])}
    v = verdicts.count_verdict(r)
    assert v.recommendation.startswith("Position 0 at 2 players is ahead by +8.0 pp")
