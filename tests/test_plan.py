"""``slicelab plan``: a game's shipped balance study redrawn for a designer's variant.

For every game, a variant a designer would write by hand (the shipped default data file
copied with one value changed, and a rule what-if): the plan writes a study that
``slicelab study --check`` accepts, every arm plays the variant (or says why a block does
not: a shipped data set it compares with, its own rule treatment), the derived data files
(New York Slice's plausible decks, Horno's treated card sets) are drawn from the variant's
data, not the default's, the rule change gets its what-if copies under the default rules,
and the same inputs give the same bytes. One plan (Pizza Theory's, the quickest) is run at
its smallest size into a dataset whose manifest records the variant.
"""

from __future__ import annotations

import json
import tomllib
import traceback
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import sims.core.game as core_game
from sims.cli import cli
from sims.core.game import REGISTRY, get_game
from sims.core.plan import WHATIF_PREFIX, plan_study
from sims.core.study import StudyError, load_study, parse_study, study_hash

ROOT = Path(__file__).resolve().parents[1]


def _edit(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


# Each game's variant: the shipped default data file with one value changed, the flag
# that passes it, and a rule what-if (an option off its default).
VARIANTS = {
    "nyslice": (
        "sims/games/nyslice/data/reconstructed_v1.toml", "--deck",
        ('{ kind = "supreme", pepperoni = 2', '{ kind = "supreme", pepperoni = 3'),
        "super_sized_combo_halves=3",
    ),
    "pieceocake": (
        "sims/games/pieceocake/data/cake.toml", "--cake",
        ('name = "plum"\ncopies = 3\ncream = 1', 'name = "plum"\ncopies = 3\ncream = 2'),
        "forgo_eats=choose",
    ),
    "pizzatheory": (
        "sims/games/pizzatheory/data/boards/hex-37.toml", "--board",
        ('name = "hex-37"', 'name = "my-board"'),
        "safety=false",
    ),
    "horno": (
        "sims/games/horno/data/cards-v1.toml", "--cards",
        ('name = "Kabuki Yakitori"\ntype = "Yakitori"\npoints = 10',
         'name = "Kabuki Yakitori"\ntype = "Yakitori"\npoints = 12'),
        "tie=dishes",
    ),
}  # fmt: skip
GAMES = list(VARIANTS)
assert set(GAMES) == set(REGISTRY)


def invoke(*args: str) -> str:
    """``slicelab ARGS`` in this process; its output, after asserting exit status 0."""
    result = CliRunner().invoke(cli, list(args))
    tb = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else ""
    assert result.exit_code == 0, result.output + tb
    return result.output


def refused(*args: str) -> str:
    """``slicelab ARGS``, which must be refused in one ``error:`` line (exit status 2)."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


def variant_file(game: str, folder: Path) -> Path:
    """The game's default data file copied into ``folder`` with one value changed."""
    source, _, (old, new), _ = VARIANTS[game]
    path = folder / f"my-{game}{Path(source).suffix}"
    path.write_text(_edit((ROOT / source).read_text("utf-8"), old, new), encoding="utf-8")
    return path


def shipped_blocks(game: str) -> dict[str, dict]:
    """The shipped balance study's blocks by name (the last of a name)."""
    plan = get_game(game).info.balance
    data = tomllib.loads((ROOT / plan.study).read_text("utf-8"))
    return {b["name"]: b for b in data["arms"]}


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --------------------------------------------------------------------- the data variant


@pytest.mark.parametrize("game", GAMES)
def test_a_data_variant_plays_in_every_block_and_passes_the_check(game, here):
    mine = variant_file(game, here)
    flag = VARIANTS[game][1]
    invoke("plan", game, flag, mine.name, "--out", "plans/mine.toml")
    out = here / "plans" / "mine.toml"
    assert "is valid" in invoke("study", str(out), "--check")
    study = load_study(out)
    plan = get_game(game).info.balance
    key = plan.data
    derived = {f"{here / 'plans' / 'mine-data'}/{Path(p).name}" for p in study.variant["derived"]}
    shipped = shipped_blocks(game)
    played = kept = 0
    for arm in study.arms:
        value = arm.options.get(key)
        own = shipped[arm.group].get(key)
        if own is None:  # the block plays the variant's own file
            assert Path(value).resolve() == mine.resolve(), (arm.name, value)
            played += 1
        elif str(value) in derived:  # a file derived from the variant's
            assert Path(value).parent.name == "mine-data"
        else:  # a shipped data set by name, kept as the comparison it is
            assert value == own and not (ROOT / "studies" / own).exists(), (arm.name, value)
            kept += 1
        assert arm.options.get("rules", {}) == shipped[arm.group].get("rules", {})
    assert played >= len(study.arms) // 3
    text = out.read_text("utf-8")
    # movable: every path the study names is relative to its folder
    assert str(here) not in text
    assert f'data = "../{mine.name}"' in text
    assert study.variant["label"] == f"{key} {mine.name}"
    assert study.variant["rules"] == {}
    assert study.variant["compare"] == {}
    assert "whatif-default-" not in text
    if kept:
        assert "keeps its own" in text


@pytest.mark.parametrize("game", GAMES)
def test_a_game_says_in_the_study_what_its_robustness_blocks_check(game, here):
    mine = variant_file(game, here)
    invoke("plan", game, VARIANTS[game][1], mine.name, "--out", "mine.toml")
    text = (here / "mine.toml").read_text("utf-8")
    header = text.split("\nname = ", 1)[0]
    assert header.startswith("# ")
    assert "seed" in header.lower() and "slicelab plan " + game in header
    words = " ".join(line.lstrip("# ") for line in header.splitlines())
    if game == "nyslice":
        assert "five perturbations of the variant's deck" in words
    else:
        assert "has no perturbation" in words, words


# ------------------------------------------------------------- derived and perturbed data


def test_the_plausible_decks_are_drawn_around_the_variants_deck(here):
    deck = (ROOT / VARIANTS["nyslice"][0]).read_text("utf-8")
    # the Supreme's pepperoni (kept by every draw) and every numbered slice's pepperoni
    # (redrawn from the deck's own values) changed: no draw around the default has them
    mine = _edit(deck, '{ kind = "supreme", pepperoni = 2', '{ kind = "supreme", pepperoni = 3')
    for p in (1, 2, 3):
        mine = mine.replace(f"pepperoni = {p}, anchovies", "pepperoni = 5, anchovies")
    mine = mine.replace('{ kind = "supreme", pepperoni = 5', '{ kind = "supreme", pepperoni = 3')
    (here / "mine.toml").write_text(mine, encoding="utf-8")
    invoke("plan", "nyslice", "--deck", "mine.toml", "--out", "a/study.toml")
    invoke("plan", "nyslice", "--rule", "super_sized_combo_halves=3", "--out", "b/study.toml")
    for k in range(1, 6):
        ours = tomllib.loads((here / f"a/study-data/deck-plausible-{k}.toml").read_text())
        default = tomllib.loads((here / f"b/study-data/deck-plausible-{k}.toml").read_text())
        supreme = [s for s in ours["slices"] if s["kind"] == "supreme"]
        assert supreme[0]["pepperoni"] == 3
        numbered = [s for s in ours["slices"] if s["kind"] == "numbered" and s["type"] != 3]
        assert {s["pepperoni"] for s in numbered} == {5}
        dnumbered = [s for s in default["slices"] if s["kind"] == "numbered" and s["type"] != 3]
        assert {s["pepperoni"] for s in dnumbered} == {1, 2, 3}
        assert [s for s in default["slices"] if s["kind"] == "supreme"][0]["pepperoni"] == 2
    study = load_study(here / "a" / "study.toml")
    decks = {a.options["deck"] for a in study.arms if a.group.startswith("deck")}
    assert {Path(d).name for d in decks} == {f"deck-plausible-{k}.toml" for k in range(1, 6)}


def test_the_plausible_decks_vary_what_the_shipped_family_varies():
    """Around the default deck, the draws change what studies/decks/nyslice-family.toml
    changes (pepperoni from 1-3, anchovies, three combo pairs) and keep the rest."""
    from sims.games.nyslice.plugin import plan_decks

    drawn = plan_decks(None, 20261130)
    base = tomllib.loads((ROOT / VARIANTS["nyslice"][0]).read_text("utf-8"))
    assert len(drawn) == 5 and len({d.text for d in drawn.values()}) == 5
    for d in drawn.values():
        deck = tomllib.loads(d.text)
        assert deck["specials"] == base["specials"]
        kinds = Counter(s["kind"] for s in deck["slices"])
        assert kinds == Counter(s["kind"] for s in base["slices"])
        combos = sorted(tuple(s["types"]) for s in deck["slices"] if s["kind"] == "combo")
        assert (8, 10) in combos
        assert {t for c in combos if c != (8, 10) for t in c} == {4, 5, 6, 7, 9, 11}
    assert plan_decks(None, 20261130) == drawn
    assert plan_decks(None, 7) != drawn


def test_hornos_treated_card_sets_are_derived_from_the_variants(here):
    mine = variant_file("horno", here)
    invoke("plan", "horno", "--cards", mine.name, "--out", "mine.toml")
    from sims.games.horno.cards import load_cards

    ours = load_cards(mine)
    for t in ("pizza", "sopa", "burrito"):  # a type other than the changed Yakitori
        derived = load_cards(here / "mine-data" / f"horno-plain-{t}.toml")
        shipped = load_cards(ROOT / "studies" / "cards" / f"horno-plain-{t}.toml")
        kabuki = [d.points for d in derived.dishes if d.name == "Kabuki Yakitori"]
        assert kabuki == [12]
        assert derived.digest != shipped.digest
        assert [k.copies for k in derived.kinds] == [k.copies for k in ours.kinds]  # same deck


def test_a_card_set_with_other_dish_types_is_refused_in_one_line(here):
    cards = (ROOT / VARIANTS["horno"][0]).read_text("utf-8").replace('"Sopa"', '"Caldo"')
    (here / "c.toml").write_text(cards, encoding="utf-8")
    line = refused("plan", "horno", "--cards", "c.toml", "--out", "mine.toml")
    assert "dish types" in line and "Caldo" in line
    assert not (here / "mine.toml").exists()


# ------------------------------------------------------------------------- the rule what-if


@pytest.mark.parametrize("game", GAMES)
def test_a_rule_what_if_plays_the_change_and_keeps_the_default_for_comparison(game, here):
    rule = VARIANTS[game][3]
    name, value = rule.split("=")
    invoke("plan", game, "--rule", rule, "--out", "whatif.toml")
    assert "is valid" in invoke("study", "whatif.toml", "--check")
    study = load_study(here / "whatif.toml")
    plan = get_game(game).info.balance
    shipped = shipped_blocks(game)
    rules_of = {a.name: a.options.get("rules") or {} for a in study.arms}
    compare = study.variant["compare"]
    assert compare == {b: f"{WHATIF_PREFIX}{b}" for b in plan.whatif}
    for base, copy in compare.items():
        before = [a for a in study.arms if a.group == copy]
        after = {a.name.removeprefix(base): a for a in study.arms if a.group == base}
        assert before, copy
        for arm in before:
            twin = after[arm.name.removeprefix(copy)]
            assert (arm.players, arm.strategies, arm.games, arm.seed) == (
                twin.players, twin.strategies, twin.games, twin.seed)  # fmt: skip
            assert name not in rules_of[arm.name]  # the default rules...
            assert rules_of[arm.name] == shipped[base].get("rules", {})  # ...its own only
            assert name in rules_of[twin.name]  # ...against the variant's
    for arm in study.arms:
        if arm.group.startswith(WHATIF_PREFIX):
            continue
        own = shipped[arm.group].get("rules", {})
        if name in own:  # the block's own treatment wins
            assert rules_of[arm.name][name] == own[name]
        else:
            assert name in rules_of[arm.name], arm.name
        assert all(rules_of[arm.name].get(k) == v for k, v in own.items())
    text = (here / "whatif.toml").read_text("utf-8")
    assert "# ---------------------------------------------------------------- what-if" in text
    seats = next(a for a in study.arms if a.group == "seats")
    assert study.variant["rules"] == {name: rules_of[seats.name][name]}
    assert str(rules_of[seats.name][name]).lower() == value


def test_a_rule_a_block_cannot_play_is_left_out_of_it_saying_why(here):
    """Horno refuses radioactive_bonus = "each" where no oven can hold two matching cards
    (its noradio block); Pizza Theory a rotation at 2 players: the plan leaves the rule out
    of those blocks (or counts) only, saying why, and compares it where it plays."""
    invoke("plan", "horno", "--rule", "radioactive_bonus=each", "--out", "h.toml")
    study = load_study(here / "h.toml")
    noradio = [a for a in study.arms if a.group == "noradio"]
    assert noradio and all("radioactive_bonus" not in a.options["rules"] for a in noradio)
    seats = [a for a in study.arms if a.group == "seats"]
    assert all(a.options["rules"]["radioactive_bonus"] == "each" for a in seats)
    assert "is left out of this block" in (here / "h.toml").read_text("utf-8")

    invoke("plan", "pizzatheory", "--rule", "rotation=counterclockwise", "--out", "p.toml")
    study = load_study(here / "p.toml")
    for arm in study.arms:
        if arm.group.startswith(WHATIF_PREFIX):
            assert arm.players == 3 and "rotation" not in arm.options["rules"]
        elif arm.players == 2:
            assert "rotation" not in arm.options["rules"], arm.name
        else:
            assert arm.options["rules"]["rotation"] == "counterclockwise", arm.name
    names = [a.name for a in load_study(ROOT / "studies" / "pizzatheory-balance.toml").arms]
    assert [a.name for a in study.arms if not a.group.startswith(WHATIF_PREFIX)] == names


def test_a_variant_with_both_data_and_rules(here):
    mine = variant_file("pieceocake", here)
    invoke("plan", "pieceocake", "--data", mine.name, "--rule", "exact_pieces=true",
           "--out", "both.toml")  # fmt: skip
    study = load_study(here / "both.toml")
    for arm in study.arms:
        assert Path(arm.options["cake"]).resolve() == mine.resolve()
    exact = [a for a in study.arms if a.group == "seats-exact"]
    assert all(a.options["rules"] == {"exact_pieces": True} for a in exact)
    text = (here / "both.toml").read_text("utf-8")
    assert "The variant already sets exact_pieces = true" in text
    assert study.variant["label"] == f"cake {mine.name}; rules exact_pieces = true"


# --------------------------------------------------------------------------- the study file


@pytest.mark.parametrize("game", GAMES)
def test_the_same_inputs_give_the_same_bytes(game, here):
    for folder in ("one", "two"):
        (here / folder).mkdir()
        variant_file(game, here / folder)
    flag, rule = VARIANTS[game][1], VARIANTS[game][3]
    mine = variant_file(game, here / "one").name
    outputs = []
    for folder, force in (("one", []), ("two", []), ("one", ["--force"])):
        invoke("plan", game, flag, f"{folder}/{mine}", "--rule", rule, "--out",
               f"{folder}/s/study.toml", *force)  # fmt: skip
        written = sorted((here / folder / "s").rglob("*"))
        outputs.append({p.relative_to(here / folder): p.read_bytes() for p in written
                        if p.is_file()})  # fmt: skip
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0]


def test_the_header_names_the_variant_the_command_and_the_seed(here):
    variant_file("nyslice", here)
    invoke("plan", "nyslice", "--deck", "my-nyslice.toml", "--rule", "veggies_edible_later=true",
           "--seed", "77", "--size", "quick", "--out", "sub/quick.toml")  # fmt: skip
    text = (here / "sub" / "quick.toml").read_text("utf-8")
    head = text.split("\nname = ", 1)[0]
    label = "deck my-nyslice.toml; rules veggies_edible_later = true"
    assert label in " ".join(head.split("\n# "))
    assert ("#   slicelab plan nyslice --deck ../my-nyslice.toml --rule veggies_edible_later=true "
            "--size quick --seed 77 --out quick.toml") in head  # fmt: skip
    assert "Seed 77" in head and "size 'quick'" in head
    data = tomllib.loads(text)
    assert data["seed"] == 77 and "sizes" not in data
    assert data["variant"]["command"].startswith("slicelab plan nyslice --deck ../my-nyslice")
    shipped = load_study(ROOT / "studies" / "nyslice-balance.toml", size="quick")
    study = load_study(here / "sub" / "quick.toml")
    games = {a.name: a.games for a in shipped.arms}
    assert all(games[a.name] == a.games for a in study.arms if a.name in games)


def test_the_study_moves_with_its_data_folder(here):
    mine = variant_file("nyslice", here)
    invoke("plan", "nyslice", "--deck", mine.name, "--out", "a/s.toml")
    moved = here / "b" / "c"
    moved.mkdir(parents=True)
    (here / "a").rename(moved / "a")
    (here / mine.name).rename(moved / mine.name)
    assert "is valid" in invoke("study", str(moved / "a" / "s.toml"), "--check")


def test_the_plan_refuses_to_overwrite_without_force(here):
    mine = variant_file("nyslice", here)
    invoke("plan", "nyslice", "--deck", mine.name, "--out", "s.toml")
    before = (here / "s.toml").read_bytes()
    line = refused("plan", "nyslice", "--deck", mine.name, "--out", "s.toml")
    assert "--force" in line
    (here / "s.toml").unlink()
    line = refused("plan", "nyslice", "--deck", mine.name, "--out", "s.toml")
    assert "deck-plausible-1.toml exists" in line and not (here / "s.toml").exists()
    invoke("plan", "nyslice", "--deck", mine.name, "--out", "s.toml", "--force")
    assert (here / "s.toml").read_bytes() == before


def test_a_game_without_a_balance_plan_says_so(here, monkeypatch):
    monkeypatch.setitem(core_game.REGISTRY, "toy", "toy_game:GAME")
    core_game.get_game.cache_clear()
    try:
        line = refused("plan", "toy", "--rule", "hand=4", "--out", "s.toml")
    finally:
        core_game.get_game.cache_clear()
    assert "High Card declares no balance study" in line
    assert not (here / "s.toml").exists()


def test_plan_leaves_nothing_behind_when_it_refuses(here):
    (here / "bad.toml").write_text("name = 1\n", encoding="utf-8")
    refused("plan", "nyslice", "--deck", "bad.toml", "--out", "new/deeper/s.toml")
    assert sorted(p.name for p in here.iterdir()) == ["bad.toml"]


# ------------------------------------------------------------------- the [variant] table


def _one_arm(**top) -> dict:
    return {"name": "s", "seed": 1, **top,
            "arms": [{"name": "a", "game": "nyslice", "players": 2, "strategies": "greedy",
                      "games": 5}]}  # fmt: skip


def test_the_variant_table_reaches_the_manifest_and_not_the_identity():
    plain = parse_study(_one_arm())
    labelled = parse_study(_one_arm(variant={"label": "my deck", "rules": {"x": 1}}))
    other = parse_study(_one_arm(variant={"label": "another name"}))
    assert "variant" not in plain.as_dict()
    assert labelled.as_dict()["variant"] == {"label": "my deck", "rules": {"x": 1}}
    json.dumps(labelled.as_dict())
    assert study_hash(plain, {}) == study_hash(labelled, {}) == study_hash(other, {})


@pytest.mark.parametrize(
    "variant, fragment",
    [(5, "must be a table"), ({"label": 3}, "'label' must be a non-empty string"),
     ({"label": " "}, "'label'"), ({"when": float("nan")}, "no dates, nan or inf")],
)  # fmt: skip
def test_a_malformed_variant_table_is_refused(variant, fragment):
    with pytest.raises(StudyError, match="variant") as exc:
        parse_study(_one_arm(variant=variant))
    assert fragment in str(exc.value)


def test_a_planned_study_runs_at_its_smallest_size_and_its_manifest_names_the_variant(here):
    """End to end on the quickest game (a few seconds once its kernel is compiled)."""
    mine = variant_file("pizzatheory", here)
    invoke("plan", "pizzatheory", "--board", mine.name, "--rule", "safety=false",
           "--out", "mine.toml")  # fmt: skip
    sizes = tomllib.loads((here / "mine.toml").read_text("utf-8"))["sizes"]
    smallest = min(sizes, key=sizes.get)
    invoke("study", "mine.toml", "--size", smallest, "--out", "d")
    m = json.loads((here / "d" / "manifest.json").read_text("utf-8"))
    assert m["complete"]
    assert m["study"]["variant"]["label"] == f"board {mine.name}; rules safety = false"
    assert m["study"]["variant"]["data"] == mine.name
    boards = {a["board"] for a in m["study"]["arms"] if a.get("board")}
    assert str(mine.resolve()) in {str(Path(b).resolve()) for b in boards}


def test_plan_is_the_same_through_the_function_and_the_command(here):
    mine = variant_file("pieceocake", here)
    planned = plan_study("pieceocake", here / "f.toml", mine.name, {}, flag="--cake")
    invoke("plan", "pieceocake", "--cake", mine.name, "--out", "f.toml")
    assert (here / "f.toml").read_text("utf-8") == planned.text
