"""Piece o' Cake's report estimators on nulls and planted truths (small sizes, fast).

- **Relabelling.** Seats are turn positions counted from the first server, and no strategy
  breaks a tie by seat number (every "first best" is by piece, mask, variety or turn
  order; random draws from the seat's own stream). So moving the first server
  (``first_server = k``) relabels the seats: with the study's deterministic fields
  (heuristic and greedy in every seat) every game is the same game with the seats
  rotated, exactly; with random seats (own streams) the position table moves only by
  noise. The analysis's position table (``analysis.seats.seat_advantage``) agrees.
- **Null variants, real games** (a tiny study): a rule that changes nothing at 3 players
  (``forced_forgo_after_take = false``), a "restriction" that restricts nothing
  (``heuristic-eq3`` against its own field) and a sweep whose values all play alike
  (``fewer`` under exact-N cutting): every change is exactly 0, the option value is
  "never used" (no deal differs, nothing claimed), and the sweep's set keeps every value.
- **Noisy nulls, synthetic**: an option worth nothing keeps 0 inside its interval; a
  sweep of equal values keeps them all in the not-worse set.
- **Planted truths**: an option worth +5 pp is claimed with its sign; one carried by a
  handful of deals is worded from the exact sign test (never from its interval) and never
  recommended on; a field value planted worse than the best is found worse.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from analysis_fixtures import SyntheticDataset, one_hot, rotated_sweep, row

from analysis import seats as generic_seats
from analysis.load import manifest
from analysis.pieceocake import compare, restricted, sweeps, verdicts
from analysis.robust import Condition
from analysis.sections import Results
from sims.games.pieceocake.cake import default_cake
from sims.games.pieceocake.records import SCORE_COLUMNS
from sims.games.pieceocake.rules import Rules

CAKE = default_cake()
FIELDS = ["heuristic field", "greedy field"]


def _kernel():
    return pytest.importorskip("sims.games.pieceocake.kernel")


def _play(n: int, specs: list[str], first: int, games: int, seed: int = 41) -> np.ndarray:
    """Score rows ``(games, seats, SCORE_COLUMNS)`` of games 0 .. games − 1 on the kernel,
    seat ``first`` serving the first cake."""
    k = _kernel()
    runner = k.KernelRunner(CAKE, Rules(first_server=first))
    scores, _, _ = runner.play_many(n, k.strategy_codes(specs), seed, 0, games, records=False,
                                    hparams=k.seat_params(specs, n))  # fmt: skip
    return scores


def _by_position(scores: np.ndarray, first: int) -> np.ndarray:
    """The seats reordered as turn positions: column ``p`` is the seat ``(first + p) % n``
    (position 0 serves the first cake)."""
    n = scores.shape[1]
    return scores[:, [(first + p) % n for p in range(n)]]


# ----------------------------------------------------------------------------- relabelling
@pytest.mark.parametrize("field", ["heuristic", "greedy"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_relabelling_the_seats_moves_every_game_with_them(field, n):
    """The study's fields: the same deals with the first server moved to every other seat
    are the same games, position for position (every score column, game by game)."""
    base = _by_position(_play(n, [field] * n, 0, 60), 0)
    for first in range(1, n):
        moved = _by_position(_play(n, [field] * n, first, 60), first)
        assert np.array_equal(moved, base), f"{field} at {n} players, first server {first}"


@pytest.mark.parametrize("specs", [["random"] * 4, ["greedy", "random", "random"]])
def test_relabelling_a_table_with_random_seats_changes_positions_only_by_noise(specs):
    """Random seats (by position from the first server) draw from their seat's own stream,
    so with the first server moved the games differ, but each position's win share moves
    by less than 4 standard errors (3,000 games)."""
    n, games = len(specs), 3000
    col = SCORE_COLUMNS.index("score")
    shares = []
    for first in range(n):
        seated = [specs[(s - first) % n] for s in range(n)]
        s = _by_position(_play(n, seated, first, games), first)[:, :, col].astype(float)
        top = s.max(axis=1, keepdims=True)
        win = (s == top) / (s == top).sum(axis=1, keepdims=True)  # shared wins split
        shares.append(win.mean(axis=0))
    for other in shares[1:]:
        se = np.sqrt(shares[0] * (1 - shares[0]) * 2 / games)
        assert (np.abs(other - shares[0]) < 4 * se).all(), (shares[0], other)
        assert not np.array_equal(other, shares[0])  # the seats' own streams: other games


# ----------------------------------------------------------------------------- a tiny study
NULL_STUDY = """
name = "poc-nulls"
seed = 5
chunk_size = 1000

[[arms]]
name = "seats"
game = "pieceocake"
players = [3]
strategies = "heuristic"
games = 120

# relabelled: seat 1 serves the first cake (the position table must not change)
[[arms]]
name = "seats-relabelled"
game = "pieceocake"
players = [3]
strategies = "heuristic"
rules = { first_server = 1 }
games = 120

# a rule variant that changes nothing at 3 players
[[arms]]
name = "seats-null"
game = "pieceocake"
players = [3]
strategies = "heuristic"
rules = { forced_forgo_after_take = false }
games = 120

# a "restriction" that restricts nothing: the field's own preset
[[arms]]
name = "noforgo-null"
game = "pieceocake"
players = [3]
strategies = ["heuristic-eq3", "heuristic"]
rotate = true
games = 120

# a sweep whose values all play alike: under exact-N cutting every cut has the most pieces,
# so the server's preference for fewer pieces never changes a cut
[[arms]]
name = "fewer-null"
game = "pieceocake"
players = [3]
strategies = ["heuristic(fewer={fewer})", "heuristic"]
grid = { fewer = [-2.0, -0.853, 0.0, 2.0] }
rules = { exact_pieces = true }
rotate = true
games = 120
"""


@pytest.fixture(scope="module")
def nulls(tmp_path_factory) -> Path:
    from sims.batch import run_study
    from sims.core.study import load_study

    root = tmp_path_factory.mktemp("poc-nulls")
    path = root / "poc-nulls.toml"
    path.write_text(NULL_STUDY)
    out = root / "data"
    run_study(load_study(path), out, jobs=1)
    return out


def test_the_analysis_position_table_is_unchanged_by_relabelling(nulls):
    """``seat_advantage`` of the relabelled block, its seats read as positions from the
    first server, is the seats block's table exactly."""
    base = generic_seats.seat_advantage(nulls, "seats").sort("seat")
    moved = generic_seats.seat_advantage(nulls, "seats-relabelled").with_columns(
        ((pl.col("seat").cast(pl.Int64) - 1) % 3).alias("seat")
    ).sort("seat")  # fmt: skip
    for c in ("games", "win_share", "score", "edge_pp"):
        assert moved[c].to_list() == base[c].to_list(), c


def test_a_rule_that_changes_nothing_changes_nothing(nulls):
    """The paired change of every measure is exactly 0 with a zero-width interval (which
    covers 0): the exact-N verdict's machinery reads a null rule as no change."""
    t = compare.exact_change(nulls, "seats", "seats-null", n_boot=50)
    assert t.height == 4 and t["n"].to_list() == [120] * 4
    for x in t.iter_rows(named=True):
        assert x["change"] == 0 and x["change_low"] <= 0 <= x["change_high"], x
        assert x["before"] == x["after"]


def test_a_restriction_that_restricts_nothing_is_never_claimed(nulls):
    """No deal differs: the sign test has nothing to count, nothing is claimed, and the
    verdict says the option is never used instead of printing an interval."""
    t = restricted.tested_value(nulls, "noforgo-null", "seats")
    x = row(t, players=3)
    assert (x["deals"], x["differ"], x["up"], x["down"]) == (120, 0, 0, 0)
    assert x["sparse"] and x["claim_sign"] == 0 and x["sign_p"] == 1.0
    assert x["value_pp"] == 0 and restricted.value_text(x) == "+0.0 pp [identical on all 120 deals]"
    v = verdicts.forgo_verdict(
        _results(
            forgo_value=t,
            forgo_conditions={
                3: [Condition("field", FIELDS[0], 0.0, float("nan"), float("nan"), 120, "deals")]
            },
        )
    )
    assert "never used by the heuristic" in v.answer and v.recommendation == ""
    assert v.estimate == "+0.0 pp [identical on all 120 deals] at 3 players"


def test_a_sweep_of_values_that_play_alike_keeps_them_all(nulls):
    """Every value plays the same games: the set keeps all four, and the field's own value
    (-0.853 at 3 players) is in the grid and not worse than the best."""
    s = sweeps.sweep(nulls, manifest(nulls), "fewer-null", "fewer")
    b = s["best"].row(0, named=True)
    assert b["fewer_set"] == [-2.0, -0.853, 0.0, 2.0]
    assert b["field_fewer"] == pytest.approx(-0.853)
    assert b["field_in_grid"] and b["field_not_worse"] and b["field_shortfall_pp"] == 0
    assert s["curve"]["shortfall_pp"].to_list() == [0.0] * 4


# ----------------------------------------------------------------------------- synthetic
def _results(**tables) -> Results:
    return Results(Path("."), {}, "pieceocake", None, {}, tables)


def _option_dataset(out: Path, p_restricted: float, deals: int, n: int, seed: int,
                    changed: int | None = None, sign: int = -1) -> Path:  # fmt: skip
    """A seats block (every seat wins 1/n) and a rotated restricted block on the same
    deals: the restricted candidate wins with ``p_restricted`` on fresh draws, or (with
    ``changed``) plays the seats block's games except on the first ``changed`` deals of
    rotation 0, where seat 0 loses a game it won (``sign = -1``: the option helped) or
    wins one it lost (``+1``): exactly ``changed`` deals differ."""
    rng = np.random.default_rng(seed)
    d = SyntheticDataset(out, game="pieceocake")
    winners = rng.integers(0, n, deals)
    if changed is not None:
        winners[:changed] = 0 if sign < 0 else 1
    base = one_hot(list(winners), n)
    d.players(d.arm(f"seats.p{n}", n, "heuristic", group="seats"), win_share=base)
    for k in range(n):
        specs = ["heuristic"] * n
        specs[k] = "heuristic(margin=1000)"
        if changed is None:
            rest = (1 - p_restricted) / (n - 1)
            drawn = rng.choice(n, size=deals, p=[p_restricted] + [rest] * (n - 1))
            share = np.roll(one_hot(list(drawn), n), k, axis=1)
        else:
            share = base.copy()
            if k == 0:
                share[:changed] = one_hot([1 if sign < 0 else 0] * changed, n)
        d.players(d.arm(f"noforgo.p{n}.r{k}", n, specs, group="noforgo", rotation=k),
                  win_share=share)  # fmt: skip
    return d.write()


def test_an_option_worth_nothing_keeps_zero_in_its_interval(tmp_path):
    """Null: the restricted seat wins its fair 1/3 on fresh draws. The t interval covers
    0 in at least 34 of 40 replications (95% expected; a correct interval misses 6 or
    more 1.4% of the time), and where it does no sign is claimed."""
    covered = 0
    for rep in range(40):
        out = _option_dataset(tmp_path / f"r{rep}", 1 / 3, 200, 3, seed=100 + rep)
        x = row(restricted.tested_value(out, "noforgo"), players=3)
        assert not x["sparse"]
        inside = x["value_low"] <= 0 <= x["value_high"]
        covered += inside
        assert (x["claim_sign"] == 0) == inside
    assert covered >= 34


def test_an_option_worth_five_points_is_claimed_with_its_sign(tmp_path):
    """Planted: the restricted seat wins 20% instead of 25% at 4 players."""
    out = _option_dataset(tmp_path / "d", 0.20, 3000, 4, seed=7)
    x = row(restricted.tested_value(out, "noforgo"), players=4)
    assert not x["sparse"] and x["claim_sign"] == 1 and x["value_low"] > 0
    assert x["value_low"] < 5 < x["value_high"]


# deals changed, which way, the claim's sign, sign test p (4 or 12 deals, all one way)
SPARSE = [
    (4, -1, 0, 0.125),  # the "a handicap from +0.0 [+0.0, +0.0]": not claimed
    (12, -1, 1, 0.00049),  # all 12 for the option: claimed from the exact test
    (12, 1, -1, 0.00049),  # all 12 against it
]


@pytest.mark.parametrize("changed,way,claim,p", SPARSE)
def test_an_option_carried_by_a_handful_of_deals_is_worded_from_the_sign_test(
    tmp_path, changed, way, p, claim
):
    """Planted: the restricted seat plays the unrestricted seat's games except on a
    handful of deals (of 4,000). The value is sparse, its claim comes from the exact sign
    test, no interval is printed, and nothing is recommended."""
    out = _option_dataset(tmp_path / "d", 0.0, 4000, 4, seed=3, changed=changed, sign=way)
    t = restricted.tested_value(out, "noforgo")
    x = row(t, players=4)
    assert x["sparse"] and x["differ"] == changed and x["sign_p"] == pytest.approx(p, rel=0.01)
    assert x["claim_sign"] == claim
    text = restricted.value_text(x)
    assert f"[no interval: {changed} of 4,000 deals differ" in text and "sign test p" in text
    cond = {4: [Condition("field", FIELDS[0], x["value_pp"], float("nan"), float("nan"),
                          4000, "deals"),
                Condition("field", FIELDS[1], 3.0, 1.0, 5.0, 4000, "deals")]}  # fmt: skip
    v = verdicts.forgo_verdict(_results(forgo_value=t, forgo_conditions=cond))
    word = {0: "not distinguishable from 0", 1: "worth having", -1: "a handicap"}[claim]
    assert (f"The option to forgo is {word} on the few deals it changes (exact sign test) at "
            "4 players") in v.answer  # fmt: skip
    assert "worded from the exact sign test" in v.answer
    assert v.robustness == "not robust: a handful of deals" and v.recommendation == ""
    assert v.estimate.startswith(f"{x['value_pp']:+.2f} pp [no interval: ")


def _sweep(out: Path, mu: dict[float, float], deals: int, n: int = 3, seed: int = 0) -> Path:
    """A rotated sweep of ``theta`` (:func:`analysis_fixtures.rotated_sweep`)."""
    return rotated_sweep(out, mu, "theta", deals, n, seed, game="pieceocake")


def test_a_sweep_of_equal_values_keeps_them_all(tmp_path):
    """Null: four θ with the same true win share (the field's own, 1.583 at 3 players,
    among them). The not-worse set keeps all four in at least 8 of 10 replications (95%
    expected of the model confidence set), and the field's value is then not worse."""
    kept = 0
    for rep in range(10):
        out = _sweep(tmp_path / f"r{rep}", dict.fromkeys((0.7, 1.0, 1.583, 2.0), 1 / 3), 300,
                     seed=rep)  # fmt: skip
        s = sweeps.sweep(out, manifest(out), "theta", "theta")
        b = s["best"].row(0, named=True)
        assert b["field_theta"] == pytest.approx(1.583) and b["field_in_grid"]
        kept += len(b["theta_set"]) == 4
        assert b["field_not_worse"] or len(b["theta_set"]) < 4
    assert kept >= 8


def test_a_field_value_planted_worse_is_found_worse_and_a_missing_one_is_named(tmp_path):
    """Planted: the field's own θ (1.583) wins 10 pp less than θ = 2. And a grid without
    it says so instead of comparing only the grid's values."""
    mu = {1.0: 0.30, 1.583: 0.26, 2.0: 0.36}
    out = _sweep(tmp_path / "a", mu, 1500, seed=1)
    b = sweeps.sweep(out, manifest(out), "theta", "theta")["best"].row(0, named=True)
    assert b["best_theta"] == 2.0 and b["field_in_grid"] and not b["field_not_worse"]
    assert b["field_shortfall_low"] > 0
    assert sweeps.field_sentence(b, "theta").startswith(
        "The field's own θ (1.583) is significantly worse than the best, by +"
    )
    # a grid without it: the field's own θ is compared all the same, at exactly 1/n a
    # deal (the candidate at the field's θ is the field: analysis.sweep.with_field)
    out = _sweep(tmp_path / "b", {1.0: 0.30, 2.0: 0.36}, 300, seed=2)
    b = sweeps.sweep(out, manifest(out), "theta", "theta")["best"].row(0, named=True)
    assert b["field_from_identity"] and b["field_in_grid"] and b["field_note"] == ""
    assert b["field_not_worse"] is not None


# ----------------------------------------------------------------------------- the study
SWEEPS = [("theta", "theta"), ("theta-greedy", "theta"), ("margin", "margin"),
          ("fewer", "fewer")]  # fmt: skip


@pytest.mark.parametrize("group,param", SWEEPS)
def test_every_sweep_of_the_default_study_holds_the_fields_own_value(group, param):
    """Read as the report reads it (the study's manifest arms): at every player count the
    sweep's grid holds the value the field plays (heuristic-eqN's, greedy's), so its best
    value is compared with the field's own (:func:`analysis.pieceocake.sweeps.field_check`)."""
    from analysis.pieceocake.common import field_values
    from sims.core.study import load_study

    root = Path(__file__).resolve().parents[3]
    study = load_study(root / "studies" / "pieceocake-balance.toml")
    m = {"study": study.as_dict()}
    field = field_values(m, group, param)
    assert field and all(v is not None for v in field.values())
    for n, value in field.items():
        grid = {a.grid[param] for a in study.arms if a.group == group and a.players == n}
        assert any(abs(g - value) < 1e-9 for g in grid), (group, n, value, sorted(grid))
