"""Horno's report estimators on nulls, whose true answer is "no effect", and on a planted
truth, on small datasets played for the test (on the kernel, a few seconds in all).

Nulls:

- relabelling: every field of the default study (heuristic, greedy, random) played with
  the seats relabelled (rule ``first_player`` = 0, 1, 2): the position table
  (:func:`analysis.horno.seats.position_table`) is the same table for the fields that draw
  nothing from their streams, and the same within noise for random play (the difference
  of every position's edge, its interval corrected over every position and labelling,
  covers 0); and as a paired variant of the same deals
  (:func:`analysis.horno.radioactive.variant_changes`), every measure's change covers 0;
- variants that change nothing: the same card set under another name (every deal ends
  with the same scores: "no outcome changes"), a restriction that never binds
  (``heuristic(avoid=7)``: no such type; restricted play 0 on every deal), a replacement
  whose "average dishes" are the dishes already (0 for every taker).

Planted truth: Pizza's dishes worth 10 points more. Restricted play names Pizza the
strongest type with its interval corrected for the pick clear of 0, replacement finds its
takers ahead, own points rank it first; the verdict's one sentence says so.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from analysis.horno import dishes, radioactive, seats
from analysis.horno.prose import strength_sentence, variant_sentence
from analysis.horno.verdicts import strongest
from analysis.load import manifest
from analysis.stats import bonferroni_interval
from sims.games.horno.cards import cards_toml, default_cards, mean_dish_points, plain_type

V1 = default_cards()
N = 3
FIELDS = {"heuristic": 150, "greedy": 150, "random": 400}
"""The fields of the default study and the games each labelling plays."""
LABELS = range(N)
"""first_player = 0, 1, 2: the seats relabelled."""


def _arm(name: str, strategies: str, games: int, **extra: str) -> str:
    lines = [f'name = "{name}"', 'game = "horno"', f"players = [{N}]",
             f"strategies = {strategies}", f"games = {games}"]  # fmt: skip
    lines += [f"{k} = {v}" for k, v in extra.items()]
    return "[[arms]]\n" + "\n".join(lines) + "\n"


def _run(folder, name: str, arms: list[str]):
    from sims.batch import run_study
    from sims.core.study import load_study

    study = folder / f"{name}.toml"
    study.write_text(f'name = "{name}"\nseed = 23\nchunk_size = 500\n' + "".join(arms), "utf-8")
    out = folder / name
    run_study(load_study(study), out, jobs=1)
    return out


@pytest.fixture(scope="module")
def nulls(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nulls")
    (folder / "copy.toml").write_text(cards_toml(replace(V1, name="v1-copy")), "utf-8")
    mean = mean_dish_points(V1)
    flat = replace(V1, name="flat", dishes=tuple(
        replace(d, points=mean) if d.type == 0 else d for d in V1.dishes))  # fmt: skip
    (folder / "flat.toml").write_text(cards_toml(flat), "utf-8")
    (folder / "flat-plain.toml").write_text(cards_toml(plain_type(flat, 0)), "utf-8")
    arms = []
    for field, games in FIELDS.items():
        for r in LABELS:  # r = 0: the default, written as the study writes it
            rules = {"rules": f"{{ first_player = {r} }}"} if r else {}
            arms.append(_arm(f"{field}-r{r}", f'"{field}"', games, **rules))
    arms += [
        _arm("copy", '"heuristic"', FIELDS["heuristic"], cards='"copy.toml"'),
        _arm("avoid", '["heuristic(avoid={type})", "heuristic"]', 50, rotate="true",
             grid="{ type = [7] }"),
        _arm("flat", '"heuristic"', 150, cards='"flat.toml"'),
        _arm("flat-plain", '"heuristic"', 150, cards='"flat-plain.toml"'),
    ]  # fmt: skip
    return _run(folder, "nulls", arms)


# ----------------------------------------------------------------------------- relabelling
EDGES = ["edge_pp", "edge_low", "edge_high", "win_share", "score", "games"]


@pytest.mark.parametrize("field", ["heuristic", "greedy"])
def test_relabelled_seats_give_the_same_position_table(nulls, field):
    tables = [seats.position_table(nulls, f"{field}-r{r}").select(EDGES) for r in LABELS]
    for t in tables[1:]:
        assert t.equals(tables[0])


def test_relabelled_random_play_gives_the_same_position_table_within_noise(nulls):
    tables = [seats.position_table(nulls, f"random-r{r}").sort("position") for r in LABELS]
    m = N * (len(tables) - 1)  # every position, every other labelling
    z = 1.959964
    for t in tables[1:]:
        for a, b in zip(tables[0].iter_rows(named=True), t.iter_rows(named=True), strict=True):
            se = np.hypot(a["edge_high"] - a["edge_low"], b["edge_high"] - b["edge_low"]) / (2 * z)
            d = b["edge_pp"] - a["edge_pp"]
            low, high = bonferroni_interval(d, d - z * se, d + z * se, m)
            assert low < 0 < high, (a["position"], d, low, high)


def test_a_relabelling_as_a_paired_variant_changes_nothing_beyond_noise(nulls):
    m = manifest(nulls)
    for field in FIELDS:
        ch = radioactive.variant_changes(nulls, m, {"relabelled": f"{field}-r1"}, f"{field}-r0")
        ch = ch.filter(pl.col("measure") != radioactive.DIFFERS)
        if field != "random":  # the same games: every change exactly 0
            assert (ch["change"] == 0).all() and (ch["low"] == 0).all() and (ch["high"] == 0).all()
            continue
        for x in ch.iter_rows(named=True):
            low, high = bonferroni_interval(x["change"], x["low"], x["high"], ch.height)
            assert low < 0 < high, x


# ----------------------------------------------------------------------------- variants
def test_a_variant_that_changes_nothing_reports_no_outcome_change(nulls):
    m = manifest(nulls)
    ch = radioactive.variant_changes(nulls, m, {"the same cards renamed": "copy"}, "heuristic-r0")
    assert (ch["change"] == 0).all() and (ch["low"] <= 0).all() and (ch["high"] >= 0).all()
    assert variant_sentence(ch, "the same cards renamed", N).startswith(
        f"With the same cards renamed at {N} players no outcome changes: every one of the "
        f"{FIELDS['heuristic']} deals"
    )


def test_a_restriction_that_never_binds_is_worth_nothing(nulls):
    t = dishes.restricted_play(nulls, "avoid", "heuristic-r0")
    x = t.row(0, named=True)
    assert (x["deals"], x["value_pp"], x["value_low"], x["value_high"]) == (50, 0.0, 0.0, 0.0)
    assert x["points"] == 0 and not x["holm_significant"]
    claim = strongest(t, "value_pp", "value_low", "value_high")
    assert claim["sign"] == 0 and claim["adj_low"] <= 0 <= claim["adj_high"]


def test_a_replacement_by_the_same_points_is_worth_nothing(nulls, monkeypatch):
    # the flat set's Pizza dishes are average dishes already: its replay is the same game
    monkeypatch.setattr(dishes, "plain_blocks", lambda m: {"Pizza": "flat-plain"})
    rep = dishes.replacement(nulls, "flat")
    x = rep.row(0, named=True)
    assert x["type_name"] == "Pizza" and x["takers"] > 20
    assert (x["value_pp"], x["points"], x["direct"]) == (0.0, 0.0, 0.0)


# ----------------------------------------------------------------------------- planted truth
PLUS = 10


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("planted")
    plus = replace(V1, name="plus-pizza", dishes=tuple(
        replace(d, points=d.points + PLUS) if d.type == 0 else d for d in V1.dishes))  # fmt: skip
    (folder / "plus.toml").write_text(cards_toml(plus), "utf-8")
    (folder / "plain.toml").write_text(cards_toml(plain_type(plus, 0)), "utf-8")
    arms = [
        _arm("seats", '"heuristic"', 100, cards='"plus.toml"'),
        _arm("avoid", '["heuristic(avoid={type})", "heuristic"]', 100, rotate="true",
             grid="{ type = [0, 1, 2, 3, 4] }", cards='"plus.toml"'),
        _arm("plain-pizza", '"heuristic"', 100, cards='"plain.toml"'),
    ]  # fmt: skip
    return _run(folder, "planted", arms)


def test_a_planted_strong_type_is_named_the_strongest_corrected_for_the_pick(planted):
    m = manifest(planted)
    avoid = dishes.restricted_play(planted, "avoid", "seats", m)
    claim = strongest(avoid, "value_pp", "value_low", "value_high")
    assert claim["type_name"] == "Pizza" and claim["family"] == 5
    assert claim["sign"] == 1 and claim["adj_low"] > 0 and claim["holm_sign"] == 1
    assert claim["adj_low"] < claim["value_low"]  # wider: corrected for picking it
    rep = dishes.replacement(planted, "seats", m)
    pizza = rep.filter(pl.col("type_name") == "Pizza").row(0, named=True)
    assert pizza["points_low"] > 0 and pizza["value_low"] > 0
    own = dishes.own_points(planted, "seats", m)
    top = strongest(own, "excess", "excess_low", "excess_high")
    assert top["type_name"] == "Pizza" and top["sign"] == 1
    claims = {
        "restricted play": claim,
        "replacement": strongest(rep, "value_pp", "value_low", "value_high"),
        "own points": top,
    }
    text = strength_sentence(claims, own, {"Pizza": 24.0}, 13, N)
    assert text.startswith(f"Which dish type is stronger at {N} players")
    assert "restricted play answers: Pizza is the strongest, +" in text
    assert "; replacement agrees (Pizza, " in text and "; own points agree (Pizza, " in text
