"""The batch plugin of New York Slice: blanked arms and the majority columns.

An arm with ``blank`` plays the blanked deck in both engines (same rows), its fingerprint
names the deck as played, and ``check_arm`` refuses a blank that is not a special or not
in play. ``players.majorities_won`` and ``games.majorities_unclaimed`` are checked against
the reference scoring.
"""

import pyarrow as pa
import pytest

from sims.batch import play_tables as run_chunk
from sims.core.errors import SlicelabError
from sims.core.study import Arm
from sims.games.nyslice import plugin
from sims.games.nyslice.deck import Special, default_deck
from sims.games.nyslice.game import play_game, seat_strategies
from sims.games.nyslice.plugin import GAME, SPECIAL_SLUGS
from sims.games.nyslice.rules import Rules
from sims.games.nyslice.scoring import majority_winners

DECK = default_deck()
ALL = ", ".join(s.slug for s in Special if s is not Special.BLANK)


def _arm(players=3, strategies=("greedy",), blank=None, engine="auto", games=12, seed=3):
    specs = tuple(strategies) * (players if len(strategies) == 1 else 1)
    return Arm(
        name="a",
        game="nyslice",
        players=players,
        strategies=specs,
        games=games,
        seed=seed,
        engine=engine,
        options={"deck": None, "rules": {}, **({"blank": blank} if blank else {})},
    )


def test_special_slugs_cover_the_blank():
    assert SPECIAL_SLUGS[:14] == [s.slug for s in Special][:14]
    assert SPECIAL_SLUGS[14] == "blank" and len(SPECIAL_SLUGS) == 15


# ---------------------------------------------------------------- check_arm
# id, players, blank, the error (None: accepted)
CHECKS = [
    ("no blank", 2, None, None),
    ("a special in play", 3, "dibs", None),
    ("in play at 2 players", 2, "seconds", None),
    ("every special at 6 players", 6, "you_love_veggies", None),
    ("unknown", 4, "free_pizza", f"blank = 'free_pizza' is not a special; use one of: {ALL}"),
    ("the blank itself", 4, "blank", f"blank = 'blank' is not a special; use one of: {ALL}"),
    ("a title, not a slug", 4, "Dibs!", f"blank = 'Dibs!' is not a special; use one of: {ALL}"),
    (
        "Dibs! at 2 players",
        2,
        "dibs",
        "blank = 'dibs': that special is not in play at 2 players (it is always replaced), "
        "so there is nothing to blank; in play at 2 players: sneak_a_slice, mystery_slice, "
        "combo_cravings, seconds, super_sized_combos, tie_breaker, you_like_anchovies, "
        "buffet, day_old_pizza, everyone_elses_diet, stuffed_crust",
    ),
    (
        "Cut in Line at 2 players",
        2,
        "cut_in_line",
        "blank = 'cut_in_line': that special is not in play at 2 players",
    ),
    (
        "You Love Veggies at 2 players",
        2,
        "you_love_veggies",
        "blank = 'you_love_veggies': that special is not in play at 2 players",
    ),
]


@pytest.mark.parametrize("players,blank,error", [c[1:] for c in CHECKS], ids=[c[0] for c in CHECKS])
def test_check_arm_blank(players, blank, error):
    arm = _arm(players=players, blank=blank)
    if error is None:
        GAME.check_arm(arm)
        return
    with pytest.raises(SlicelabError) as err:
        GAME.check_arm(arm)
    assert str(err.value).startswith(error)


def test_check_arm_refuses_a_blank_the_deck_file_lacks(tmp_path):
    from importlib import resources

    src = resources.files("sims.games.nyslice").joinpath("data").joinpath("reconstructed_v1.toml")
    path = tmp_path / "deck.toml"
    path.write_text(src.read_text().replace('"dibs"', '"blank"'))
    arm = Arm(
        name="a", game="nyslice", players=3, strategies=("greedy",) * 3, games=1, seed=1,
        options={"deck": str(path), "rules": {}, "blank": "dibs"},
    )  # fmt: skip
    with pytest.raises(SlicelabError, match="cannot blank dibs: deck .* has no such tile"):
        GAME.check_arm(arm)


def test_blank_arms_fingerprint_the_deck_as_played():
    base = GAME.fingerprint(_arm())
    fp = GAME.fingerprint(_arm(blank="dibs"))
    assert "blank" not in base
    assert fp["blank"] == "dibs"
    assert fp["deck"] == "reconstructed v1+blank-dibs"
    assert fp["deck_digest"] == DECK.with_blank("dibs").digest != base["deck_digest"]
    assert fp["variant_id"] != base["variant_id"]
    assert GAME.fingerprint(_arm(blank="seconds"))["variant_id"] != fp["variant_id"]
    # The caches are keyed by the blank too.
    assert plugin._deck(None, "dibs") is not plugin._deck(None)
    assert plugin._deck(None, "dibs").specials == DECK.with_blank("dibs").specials
    assert plugin._runner(None, "dibs", "{}") is not plugin._runner(None, None, "{}")


# ---------------------------------------------------------------- run_chunk with a blank
def _without_engine(tables: dict[str, pa.Table], name: str) -> pa.Table:
    t = tables[name]
    return t.drop_columns(["engine"]) if name == "games" else t


def _per_game(tables: dict[str, pa.Table], players: int) -> list[list]:
    rows = tables["players"].select(["score", "specials_owned"]).to_pylist()
    return [rows[g * players : (g + 1) * players] for g in range(len(rows) // players)]


@pytest.mark.parametrize(
    "players,strategies,blank",
    [
        (3, ("greedy",), "stuffed_crust"),
        (4, ("random", "greedy"), "dibs"),
        (2, ("random",), "buffet"),
    ],
)
def test_both_engines_play_the_blanked_deck(players, strategies, blank):
    strategies = tuple(strategies) * (players // len(strategies))
    kern = run_chunk(_arm(players, strategies, blank, engine="kernel"), 0, 30, decisions=True)
    ref = run_chunk(_arm(players, strategies, blank, engine="reference"), 0, 30, decisions=True)
    assert kern["games"].column("engine").unique().to_pylist() == ["kernel"]
    assert ref["games"].column("engine").unique().to_pylist() == ["reference"]
    for name in ("games", "players", "decisions"):
        assert _without_engine(kern, name).equals(_without_engine(ref, name)), name
    owned = [s for row in kern["players"].column("specials_owned").to_pylist() for s in row]
    assert "blank" in owned and blank not in owned
    masks = kern["players"].column("specials_owned_mask").to_pylist()
    assert sum((m >> 14) & 1 for m in masks) == owned.count("blank")
    arriving = kern["decisions"].column("portion_special").to_pylist()
    assert "blank" in arriving and blank not in arriving
    # The baseline arm on the same seed: a game in which the special was never revealed is
    # the same game; one in which someone took the special is not.
    base = run_chunk(_arm(players, strategies, None, engine="kernel"), 0, 30, decisions=False)
    same = 0
    for b, k in zip(_per_game(base, players), _per_game(kern, players), strict=True):
        took = any(blank in r["specials_owned"] for r in b)
        same += b == k
        assert not (took and b == k)
    assert 0 < same < 30


# ---------------------------------------------------------------- majority columns
@pytest.mark.parametrize("engine", ["kernel", "reference"])
@pytest.mark.parametrize(
    "players,strategies", [(2, ("greedy",)), (4, ("greedy", "random")), (6, ("random",))]
)
def test_majorities_won_and_unclaimed(engine, players, strategies):
    strategies = tuple(strategies) * (players // len(strategies))
    arm = _arm(players, strategies, engine=engine, seed=9)
    tables = run_chunk(arm, 5, 20, decisions=False)
    games, seats = tables["games"], tables["players"]
    assert games.schema.field("majorities_unclaimed").type == pa.int8()
    assert seats.schema.field("majorities_won").type == pa.int8()
    won = seats.column("majorities_won").to_pylist()
    unclaimed = games.column("majorities_unclaimed").to_pylist()
    strats = seat_strategies(list(strategies), players)
    for g in range(20):
        state = play_game(players, strats, 9, 5 + g, DECK, Rules())
        holdings = [state.holdings(p) for p in range(players)]
        winners = majority_winners(DECK, holdings)
        expect = [sum(1 for w in winners.values() if w == p) for p in range(players)]
        assert won[g * players : (g + 1) * players] == expect
        assert unclaimed[g] == 9 - len(winners) == 9 - sum(expect)
    assert 0 < sum(won) < 9 * 20 and max(unclaimed) > 0


def test_identity_resolves_defaults_so_equal_play_is_one_strategy():
    from sims.games.nyslice.plugin import strategy_identity as identity

    assert (
        identity("search", 4)
        == identity("search(budget=64)", 4)
        == identity("search(budget=64.0)", 4)
    )
    assert identity("search(budget=8)", 4) != identity("search", 4)
    assert identity("heuristic", 3) != identity("heuristic(theta=9)", 3)
