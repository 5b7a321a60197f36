"""``slicelab warm``: which arms it plays to compile each game's kernel, and the command."""

from pathlib import Path

from click.testing import CliRunner

from sims.cli import cli
from sims.core.study import parse_study
from sims.warm import plan, warm, warm_plan


def _study(name: str, arms: list[dict]):
    return parse_study({"name": name, "seed": 3, "arms": arms}, source=name)


def _arm(name, game, players, strategies, **more):
    return {"name": name, "game": game, "players": players, "strategies": strategies,
            "games": 5, **more}  # fmt: skip


A = _study("a", [
    _arm("pt-greedy", "pizzatheory", 3, "greedy"),
    _arm("pt-greedy-again", "pizzatheory", 2, "greedy"),  # same families: not again
    _arm("pt-mixed", "pizzatheory", 3, ["greedy", "random", "greedy"]),
    _arm("pt-ref", "pizzatheory", 3, "random", engine="reference"),  # not on a kernel
    _arm("pt-dec", "pizzatheory", 3, "greedy", decisions=True),  # records on: again
])  # fmt: skip
B = _study("b", [
    _arm("pc-heuristic", "pieceocake", 3, "heuristic"),
    _arm("pt-greedy-b", "pizzatheory", 3, "greedy"),  # already planned by study a
    _arm("pc-preset-params", "pieceocake", 4, "heuristic(theta=0.5)"),  # same family
])  # fmt: skip


def test_plan_takes_one_kernel_arm_per_families_and_records_in_study_order():
    got = {g: [a.name for a in arms] for g, arms in plan([A, B]).items()}
    assert got == {"pizzatheory": ["pt-greedy", "pt-mixed", "pt-dec"],
                   "pieceocake": ["pc-heuristic"]}  # fmt: skip
    assert list(got) == ["pizzatheory", "pieceocake"]
    assert plan([_study("r", [_arm("r", "pizzatheory", 3, "random", engine="reference")])]) == {}


def test_warm_plan_plays_the_arms_it_is_given():
    todo = {"pizzatheory": [A.arms[0]]}
    assert [(w.game, w.arms) for w in warm_plan(todo)] == [("pizzatheory", ("pt-greedy",))]
    assert warm_plan({}) == []


def test_warm_plays_each_game_in_its_own_process_and_reports_it():
    done = warm([A, B], jobs=2)
    assert [(w.game, w.arms) for w in done] == [
        ("pizzatheory", ("pt-greedy", "pt-mixed", "pt-dec")),
        ("pieceocake", ("pc-heuristic",)),
    ]
    assert all(w.seconds >= 0 and w.cpu_seconds >= 0 for w in done)
    assert warm([A], jobs=1)[0].arms == ("pt-greedy", "pt-mixed", "pt-dec")


def test_warm_command(tmp_path: Path):
    study = tmp_path / "s.toml"
    study.write_text('name = "s"\nseed = 1\n[[arms]]\nname = "x"\ngame = "pizzatheory"\n'
                     'players = 3\nstrategies = ["greedy"]\ngames = 4\n')  # fmt: skip
    r = CliRunner().invoke(cli, ["warm", str(study)])
    assert r.exit_code == 0, r.output
    # (on a cold cache a line before it says what compiles: tests/test_compile_notice.py)
    assert "\npizzatheory: kernel ready (1 arm(s) played a game)" in "\n" + r.output
    study.write_text(study.read_text() + 'engine = "reference"\n')
    r = CliRunner().invoke(cli, ["warm", str(study)])
    assert r.exit_code == 0 and "nothing to compile" in r.output
    r = CliRunner().invoke(cli, ["warm", str(tmp_path / "missing.toml")])
    assert r.exit_code == 2 and "no such file" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(cli, ["warm"])
    assert r.exit_code == 2 and "Missing argument" in r.output
