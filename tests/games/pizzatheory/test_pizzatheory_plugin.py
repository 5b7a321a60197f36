"""Pizza Theory through the game protocol: its info, options and variants (a shipped
board by name, a board file next to the study), the arm checks and their messages, the
fingerprint, chunk play's columns (the ``won`` key, the ending), the command line end to
end (``slicelab play``, ``slicelab study`` writing Parquet, ``slicelab replay`` drawing the
board every round)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from sims.batch import one_arm, play_tables
from sims.cli import cli
from sims.core.errors import SlicelabError
from sims.core.game import Game, get_game
from sims.core.study import Arm
from sims.games.pizzatheory.board import board_names, shipped_board
from sims.games.pizzatheory.game import play_game, seat_strategies
from sims.games.pizzatheory.plugin import GAME, board_of
from sims.games.pizzatheory.records import SEAT_COLUMNS, game_row, seat_rows

BOARDS = Path(__file__).resolve().parents[3] / "sims" / "games" / "pizzatheory" / "data" / "boards"


def _invoke(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.output


def _arm(players=3, strategies=("random",), engine="auto", games=4, **options) -> Arm:
    specs = tuple(strategies) * (players if len(strategies) == 1 else 1)
    options = {"board": None, "rules": {}, **options}
    return Arm(name="a", game="pizzatheory", players=players, strategies=specs, games=games,
               seed=3, engine=engine, options=options)  # fmt: skip


def test_registered_and_described():
    game = get_game("pizzatheory")
    assert game is GAME and isinstance(game, Game)
    info = game.info
    assert (info.title, info.min_players, info.max_players) == ("Pizza Theory", 2, 3)
    assert {(o.key, o.kind, o.flag) for o in game.options} == {
        ("board", "value", "--board"), ("rules", "table", "--rule")}  # fmt: skip
    assert game.results.win_keys == ("won",) and game.results.components == ("toppings",)
    assert [i.name for i in game.strategies()] == [
        "random", "greedy", "heuristic", "mixed", "search"]  # fmt: skip
    assert game.info.playout_kernels == {"search": "playout_kernel"}
    assert board_names() == ["hex-37", "hex-37-mid", "hex-61", "round-31"]


def test_variants_take_a_shipped_board_by_name_or_a_file_next_to_the_study(tmp_path):
    (tmp_path / "mine.toml").write_text((BOARDS / "round-31.toml").read_text())
    [v] = GAME.variants({"board": "hex-61"}, 3, tmp_path)
    assert v.options == {"board": "hex-61", "rules": {}}
    assert board_of(v.options) == shipped_board("hex-61")
    [v] = GAME.variants({"board": "mine.toml", "rules": {"safety": False}}, 3, tmp_path)
    assert v.options["board"] == str(tmp_path / "mine.toml")
    assert board_of(v.options).digest == shipped_board("round-31").digest
    assert board_of({}).name == "hex-37"


BAD = [
    ({"board": "hex-99"}, "no such file"),
    ({"board": 3}, "board must be a shipped board's name"),
    ({"rules": {"rotation": "up"}}, "rotation='up'"),
    ({"rules": {"first_seat": 2}}, "first_seat=2 is not a seat of 2 players"),
    ({"rules": {"rotation": "none"}}, "rotation='none' changes nothing at 2 players"),
    ({"rules": {"rotation": "counterclockwise"}}, "play it at 3 players only"),
]


@pytest.mark.parametrize("raw, message", BAD)
def test_bad_variants_are_refused(raw, message):
    with pytest.raises(SlicelabError, match=message.replace("(", r"\(")):
        GAME.variants(raw, 2, None)


def test_check_arm_refuses_the_kernel_and_unknown_strategies():
    GAME.check_arm(_arm(engine="kernel"))  # every family Pizza Theory knows: in the kernel
    GAME.check_arm(_arm(engine="kernel", strategies=("greedy", "mixed(iters=5)", "heuristic")))
    GAME.check_arm(_arm(engine="kernel", strategies=("search", "mixed", "search(budget=4)")))
    with pytest.raises(SlicelabError, match="unknown Pizza Theory strategy 'minimax'"):
        GAME.check_arm(_arm(strategies=("minimax",)))
    with pytest.raises(SlicelabError, match="budget must be an integer from 1 to 10000"):
        GAME.check_arm(_arm(strategies=("search(budget=0)",)))
    GAME.check_arm(_arm(strategies=("greedy", "mixed", "random")))


def test_fingerprint_follows_the_board_and_the_rules():
    a = GAME.fingerprint(_arm())
    b = GAME.fingerprint(_arm(board="hex-37-mid"))
    c = GAME.fingerprint(_arm(rules={"safety": False}))
    assert a["board"] == "hex-37" and a["rules_version"] == "pizzatheory-2"
    assert len({a["variant_id"], b["variant_id"], c["variant_id"]}) == 3
    assert a["board_digest"] != b["board_digest"]


@pytest.mark.parametrize("players", [2, 3])
def test_chunk_rows_are_the_reference_games(players):
    arm = one_arm({"name": "c", "game": "pizzatheory", "players": players,
                   "strategies": "random", "games": 5}, seed=8)  # fmt: skip
    tables = play_tables(arm, 0, 5, decisions=True)
    p = tables["players"]
    assert set(SEAT_COLUMNS) <= set(p.column_names)
    for g in range(5):
        state = play_game(players, seat_strategies("random", players), arm.seed, g)
        rows = seat_rows(state)
        got = [[p.column(c)[g * players + s].as_py() for c in SEAT_COLUMNS]
               for s in range(players)]  # fmt: skip
        assert got == rows
        games = tables["games"]
        row = [games.column(c)[g].as_py() for c in ("rounds", "ending", "safety_rounds",
                                                    "neutral_on_board")]  # fmt: skip
        assert row == game_row(state)
        shares = [p.column("win_share")[g * players + s].as_py() for s in range(players)]
        assert shares == pytest.approx(state.win_shares())
    assert tables["decisions"].num_rows == sum(tables["games"].column("decisions").to_pylist())


def test_replay_draws_the_board_every_round():
    text = _invoke(["replay", "pizzatheory", "--players", "3", "--seed", "2", "--strategies",
                    "greedy,mixed(iters=20),random"])  # fmt: skip
    state = play_game(3, seat_strategies("greedy,mixed(iters=20),random", 3), 2, 0)
    for r in range(1, len(state.reports) + 1):
        assert f"Round {r}: turn order" in text
    assert text.count("cuts (revealed together)") == len(state.reports)
    assert text.count("  on the board: ") == len(state.reports)
    last = state.reports[-1].owner
    assert f"A {last.count(0)}, B {last.count(1)}, C {last.count(2)}" in text
    assert "won after" in text or "draw" in text


def test_play_and_study_commands(tmp_path):
    text = _invoke(["play", "pizzatheory", "--players", "3", "--games", "3", "--strategies",
                    "greedy,random,random", "--board", "round-31"])  # fmt: skip
    assert "greedy" in text
    (tmp_path / "b.toml").write_text((BOARDS / "hex-37-mid.toml").read_text())
    study = tmp_path / "s.toml"
    study.write_text(
        'name = "pt"\nseed = 4\n\n[[arms]]\nname = "mix"\ngame = "pizzatheory"\n'
        'players = [2, 3]\nstrategies = ["random"]\ngames = 3\ndecisions = true\n'
        'board = "b.toml"\nrules = { runout_tiebreak = true }\n'
    )
    out = tmp_path / "out"
    _invoke(["study", str(study), "--out", str(out)])

    def read(table: str) -> pa.Table:
        files = sorted((out / table).rglob("*.parquet"))
        assert files and all("/pizzatheory/" in f.as_posix() for f in files)
        return pa.concat_tables([pq.read_table(f) for f in files])

    assert read("players").num_rows == 3 * 2 + 3 * 3
    games = read("games")
    assert games.num_rows == 6
    assert read("decisions").num_rows == sum(games.column("decisions").to_pylist())


def test_the_generic_report_serves_pizza_theory(tmp_path, monkeypatch):
    """The generic sections (seats, player count, ratings, sample size) serve Pizza Theory
    through the protocol — the ``won`` key and the 2-player variant included — with its
    own report (``analysis/pizzatheory``) set aside."""
    from pypdf import PdfReader

    import analysis.report

    generic = analysis.report.game_report("no-such-game")
    monkeypatch.setattr(analysis.report, "game_report", lambda game: generic)

    study = tmp_path / "pt.toml"
    study.write_text(
        'name = "pt"\nseed = 5\n\n[[arms]]\nname = "seats"\ngame = "pizzatheory"\n'
        'players = [2, 3]\nstrategies = "random"\ngames = 60\n\n'
        '[[arms]]\nname = "ladder"\ngame = "pizzatheory"\nplayers = 3\n'
        'strategies = ["greedy", "random", "random"]\nrotate = true\ngames = 3\n'
    )
    pdf = tmp_path / "pt.pdf"
    _invoke(["report", str(study), "--data", str(tmp_path / "data"), "--out", str(pdf)])
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]
    assert pages[0].startswith("Pizza Theory Balance report")
    assert "Seats 3 players" in pages[0] and "Ratings 3 players" in pages[0]


def test_engine_choice_and_both_engines_write_the_same_rows():
    assert GAME.engine_for(_arm()) == "kernel"
    assert GAME.engine_for(_arm(engine="reference")) == "reference"
    assert GAME.engine_for(_arm(strategies=("random", "greedy", "mixed"))) == "kernel"
    arm = _arm(players=2, games=6, rules={"runout_tiebreak": True},
               strategies=("greedy", "mixed(iters=10)"))  # fmt: skip
    kernel = GAME.play_chunk(arm, 0, 6, True, engine="kernel")
    reference = GAME.play_chunk(arm, 0, 6, True, engine="reference")
    for c in SEAT_COLUMNS:
        assert kernel.seats[c].tolist() == reference.seats[c].tolist(), c
    for c, v in kernel.games.items():
        assert v.tolist() == reference.games[c].tolist(), c
    assert kernel.decisions.equals(reference.decisions)
