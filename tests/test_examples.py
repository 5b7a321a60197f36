"""Every example of README.md, of every ``slicelab ... --help`` and of each notebook's first
cell runs as written (issue 28).

The examples are collected, not listed by hand:

- README.md: every code span and every code-block line that starts with ``slicelab`` (a
  block line's ``# comment`` dropped), the command table's first column among them;
- every command of the ``slicelab`` group, those the ``slicelab.commands`` entry points add
  included (``play``, ``demo``, ``report``): each line of an ``Examples:`` block of its
  ``--help`` that starts with ``slicelab``;
- each notebook's first markdown cell: its quick-dataset command (``.venv/bin/`` dropped).

Each runs in this process (click's ``CliRunner``, faster than a subprocess) from a fresh
working directory holding links to the checkout's ``studies/`` and ``sims/``, after the
inputs it names are made there (:func:`make_input`: ``my-deck.toml`` by the ``cp`` line the
examples give, ``my-study.toml`` by ``slicelab plan``, ``data/run1`` by the ``simulate``
example), and must exit with status 0. It runs as written but for its size
(:func:`small`): ``--games`` at most :data:`SMALL_GAMES` (and given to a command that has
the option when the example leaves it at its default), ``--jobs 1`` (this process, no
worker processes), and ``--size quick`` for a study file that declares that size when the
example gives none. A ``[...]`` part is optional: the example runs without it and with it.
A code span in prose that is only a command's name (``slicelab report``) names the command
and is checked with ``--help``; in the command table it is an example like any other.

What those rules cannot run cheaply — an example with a placeholder (``N``, ``NAME``,
``FILE.pdf``, ``...``), a command of :data:`COSTLY`, a study of more than
:data:`MAX_STUDY_GAMES` games — runs as :data:`SUBSTITUTED` says, each entry with its
reason. Such an example without an entry fails, naming the table, so a new example is never
skipped silently; and an entry no example uses any more fails too. Examples whose
substitutions are the same command lines run them once.
"""

from __future__ import annotations

import functools
import re
import shlex
import shutil
import tomllib
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import click
import nbformat
import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt  # installed with rich

from sims.cli import cli
from sims.core.study import load_study

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SMALL_GAMES = 20
"""Games an example plays at most (``--games``)."""
MAX_STUDY_GAMES = 5_000
"""A study example playing more (after ``--size quick``) must be in :data:`SUBSTITUTED`."""
COSTLY = frozenset({"report", "warm", "tune", "exploit", "equilibrium"})
"""Commands whose examples take minutes at any ``--games``: each needs a table entry."""
TUNING = "--candidates 2 --games 4 --validation-games 10 --jobs 1"
"""The smallest tuning run: two candidates, four games each, ten validation deals."""
TINY_STUDY = """\
# tests/test_examples.py: a one-block study standing in for a balance study in `report`
name = "tiny"
seed = 1
sizes = { quick = 0.5 }

[[arms]]
name = "seats"
game = "horno"
players = [2, 3]
strategies = ["greedy"]
games = 100
"""
"""Horno's one-block study: its report takes seconds, where a balance study's takes minutes
(New York Slice's own balance study is validated with ``--check`` instead)."""


@dataclass(frozen=True)
class Sub:
    """How an example runs instead of as written: its command lines (without
    ``slicelab``), run in turn in one working directory, and why."""

    runs: tuple[str, ...]
    reason: str


_REPORT_FLAGS = (
    "report's flags as written on a one-block study (tiny.toml, seconds) and the example's "
    "study validated with --check: a balance study's report takes minutes even at --size "
    "quick"
)
_QUICK_CHECK = (
    "the quick balance study plays tens of thousands of games (about a minute on 2 cores): "
    "validated with --check, the other flags as written"
)
SUBSTITUTED: dict[str, Sub] = {
    # --- studies too large to play in a test: validated with --check
    "slicelab study studies/nyslice-balance.toml --jobs 2 --size quick": Sub(
        ("study studies/nyslice-balance.toml --jobs 2 --size quick --check",), _QUICK_CHECK
    ),
    "slicelab study studies/nyslice-balance.toml --size quick --jobs 2": Sub(
        ("study studies/nyslice-balance.toml --size quick --jobs 2 --check",), _QUICK_CHECK
    ),
    **{
        f"slicelab study studies/{game}-balance.toml --size quick --jobs 2": Sub(
            (f"study studies/{game}-balance.toml --size quick --jobs 2 --check",), _QUICK_CHECK
        )
        for game in ("pieceocake", "pizzatheory", "horno")
    },
    "slicelab study my-study.toml --jobs 2 --size quick": Sub(
        ("study my-study.toml --jobs 2 --size quick --check",),
        "a planned variant of the New York Slice balance study: as large as the shipped one",
    ),
    # --- placeholders
    "slicelab plan nyslice --deck my-deck.toml [--rule NAME=VALUE] --out my-study.toml": Sub(
        (
            "plan nyslice --deck my-deck.toml --out my-study.toml",
            "plan nyslice --deck my-deck.toml --rule dibs_slicer_may_use=false "
            "--out my-study-rule.toml",
        ),
        "NAME=VALUE is any rule option: one of New York Slice's (into another --out, which "
        "plan refuses to overwrite)",
    ),
    "slicelab report DATASET_DIR --out FILE.pdf": Sub(
        ("report data/tiny-quick --out tiny.pdf",),
        "DATASET_DIR and FILE.pdf are placeholders: tiny.toml's quick dataset",
    ),
    "slicelab tune --save-preset NAME": Sub(
        (f"tune nyslice --players 2 {TUNING} --save-preset mine",),
        "prose naming the flag: the game, the count and NAME are the writer's, the size the "
        "smallest",
    ),
    "slicelab tune pizzatheory ... --save-preset NAME": Sub(
        (f"tune pizzatheory --players 3 {TUNING} --save-preset mine",),
        "'...' stands for the tuning options: the smallest run",
    ),
    "slicelab exploit pieceocake --players N --field heuristic": Sub(
        (f"exploit pieceocake --players 2 --field heuristic {TUNING}",),
        "N is any player count; tuning takes minutes: the smallest run",
    ),
    "slicelab equilibrium pizzatheory -p N --family mixed --field mixed": Sub(
        (f"equilibrium pizzatheory -p 2 --family mixed --field mixed {TUNING} --iterations 1",),
        "N is any player count; self-play takes minutes: one iteration of the smallest run",
    ),
    "slicelab equilibrium horno": Sub(
        (f"equilibrium horno --players 2 {TUNING} --iterations 1",),
        "prose naming the run: --players is required; one iteration of the smallest run",
    ),
    # --- costly commands
    "slicelab warm studies/nyslice-balance.toml studies/pizzatheory-balance.toml --jobs 2": Sub(
        ("warm studies/nyslice-balance.toml studies/pizzatheory-balance.toml --jobs 1",),
        "seconds once the kernels are compiled (tests/warm_kernels.py compiles them before "
        "the suite); --jobs 1 loads them in this process",
    ),
    "slicelab report studies/nyslice-balance.toml --jobs 2 [--size quick]": Sub(
        (
            "study studies/nyslice-balance.toml --jobs 2 --check",
            "study studies/nyslice-balance.toml --jobs 2 --size quick --check",
            "report tiny.toml --jobs 1",
            "report tiny.toml --jobs 1 --size quick",
        ),
        _REPORT_FLAGS,
    ),
    **{
        f"slicelab report studies/{game}-balance.toml": Sub(
            (f"study studies/{game}-balance.toml --check", "report tiny.toml"), _REPORT_FLAGS
        )
        for game in ("pieceocake", "pizzatheory", "horno")
    },
    "slicelab report my-study.toml --jobs 2 --size quick": Sub(
        (
            "study my-study.toml --jobs 2 --size quick --check",
            "report tiny.toml --jobs 1 --size quick",
        ),
        _REPORT_FLAGS,
    ),  # fmt: skip
    "slicelab tune nyslice --players 4 --family heuristic --field greedy --jobs 2 "
    "[--save-preset NAME]": Sub(
        (
            f"tune nyslice --players 4 --family heuristic --field greedy {TUNING}",
            f"tune nyslice --players 4 --family heuristic --field greedy {TUNING} "
            "--save-preset mine",
        ),
        "successive halving over 16 candidates and 2,000 validation games takes minutes: "
        "the smallest run, without and with the optional flag (NAME: mine)",
    ),
    "slicelab exploit nyslice --players 4 --field heuristic --jobs 2 "
    "[--also 'search(budget=16)']": Sub(
        (
            f"exploit nyslice --players 4 --field heuristic {TUNING}",
            f"exploit nyslice --players 4 --field heuristic {TUNING} --also search(budget=16)",
        ),
        "tuning and 2,000 validation deals take minutes: the smallest run, without and with "
        "the optional flag",
    ),
    "slicelab equilibrium nyslice --players 4 --jobs 2 [--save-preset NAME] "
    "[--also 'search(budget=4)']": Sub(
        (
            f"equilibrium nyslice --players 4 {TUNING} --iterations 1",
            f"equilibrium nyslice --players 4 {TUNING} --iterations 1 --save-preset mine",
            f"equilibrium nyslice --players 4 {TUNING} --iterations 1 --also search(budget=1)",
        ),
        "eight best-response iterations take many minutes: one iteration of the smallest "
        "run, without and with each optional flag (NAME: mine; search at budget 1)",
    ),
    "slicelab exploit pieceocake --players 4 --field heuristic --candidates 2 --games 20 "
    "--validation-games 1000 --seed 5 --jobs 2 --also search": Sub(
        (
            "exploit pieceocake --players 4 --field heuristic --candidates 2 --games 20 "
            "--validation-games 10 --seed 5 --jobs 1 --also search",
        ),
        "search plays its 1,000 deals from every seat in Python (minutes): ten deals",
    ),
}
"""Examples run otherwise than as written, by their text: see the module notes."""


# --------------------------------------------------------------------------- collection
@dataclass
class Example:
    """A ``slicelab`` command line found in the documentation, and where."""

    text: str
    where: list[str] = field(default_factory=list)
    mention: bool = False  # a code span in prose naming a command: checked with --help


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _uncommented(line: str) -> str:
    """A shell line without its ``# comment``."""
    return re.split(r"\s#(?:\s|$)", line, maxsplit=1)[0].strip()


def command_paths(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> Iterator[tuple]:
    """Every command of the group, entry-point commands included, as argument paths."""
    ctx = click.Context(group, info_name="slicelab")
    yield prefix
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from command_paths(command, (*prefix, name))
        elif command is not None:
            yield (*prefix, name)


def command_names() -> set[str]:
    return {path[0] for path in command_paths() if path}


def _mention(text: str) -> bool:
    """``slicelab`` or ``slicelab COMMAND`` alone: a name, not an example."""
    words = text.split()
    return len(words) == 1 or (len(words) == 2 and words[1] in command_names())


def readme_lines() -> Iterator[tuple[str, str, bool]]:
    """(text, where, in the first column of a table) of every code span and code-block
    line of README.md."""
    tokens = MarkdownIt("commonmark").enable("table").parse(README.read_text("utf-8"))
    line, column = 0, 0
    for tok in tokens:
        if tok.map:
            line = tok.map[0] + 1
        if tok.type == "tr_open":
            column = 0
        elif tok.type in ("td_open", "th_open"):
            column += 1
        elif tok.type in ("code_block", "fence"):
            for k, text in enumerate(tok.content.splitlines()):
                yield _uncommented(text), f"README.md:{line + k}", False
        elif tok.type == "inline":
            for child in tok.children or []:
                if child.type == "code_inline":
                    yield _one_line(child.content), f"README.md:{line}", column == 1


@functools.cache
def help_lines() -> tuple[tuple[str, str], ...]:
    """(text, where) of every line of the ``Examples:`` blocks of every command's
    ``--help`` (a block ends at a blank line; wrapped prose is not an example)."""
    return tuple(_help_lines())


def _help_lines() -> Iterator[tuple[str, str]]:
    for path in command_paths():
        result = CliRunner().invoke(cli, [*path, "--help"])
        assert result.exit_code == 0, result.output
        where = shlex.join(["slicelab", *path, "--help"])
        block = False
        for text in result.output.splitlines():
            if not text.strip():
                block = False
            elif block:
                yield _uncommented(text), where
            block = block or text.strip() in ("Example:", "Examples:")


def notebook_lines() -> Iterator[tuple[str, str]]:
    """(text, where) of the code spans of each notebook's first markdown cell."""
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        cell = next(c for c in nb.cells if c.cell_type == "markdown")
        for span in re.findall(r"`([^`]+)`", cell.source):
            text = _one_line(span)
            if text.startswith(".venv/bin/"):
                text = text[len(".venv/bin/") :]
            yield text, f"notebooks/{path.name} (first cell)"


def _is_slicelab(text: str) -> bool:
    return text == "slicelab" or text.startswith("slicelab ")


def collect() -> list[Example]:
    found: dict[str, Example] = {}

    def add(text: str, where: str, mention: bool = False) -> None:
        ex = found.setdefault(text, Example(text, mention=mention))
        ex.mention = ex.mention and mention  # an example anywhere is an example
        ex.where.append(where)

    for text, where, first_column in readme_lines():
        if _is_slicelab(text):
            add(text, where, mention=not first_column and _mention(text))
    for text, where in [*help_lines(), *notebook_lines()]:
        if _is_slicelab(text):
            add(text, where)
    return list(found.values())


def copy_lines() -> list[tuple[str, str]]:
    """(source, destination) of every ``cp SRC DST`` line the examples give."""
    lines = [t for t, _, _ in readme_lines()] + [t for t, _ in help_lines()]
    out = []
    for text in lines:
        words = shlex.split(text) if text.startswith("cp ") else []
        if len(words) == 3:
            out.append((words[1], words[2]))
    return out


EXAMPLES = collect()
COPIES = copy_lines()


# ------------------------------------------------------------------------------ running
_PLACEHOLDER = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]*(?![a-z0-9_])|\.\.\.")


def optional_variants(text: str) -> list[str]:
    """The example without its ``[...]`` parts and, if it has any, with all of them."""
    bare = _one_line(re.sub(r"\[[^\[\]]*\]", " ", text))
    full = _one_line(re.sub(r"\[([^\[\]]*)\]", r"\1", text))
    return [bare] if bare == full else [bare, full]


def _option_value(args: list[str], flag: str) -> str | None:
    return args[args.index(flag) + 1] if flag in args[:-1] else None


def _has_option(command: str, flag: str) -> bool:
    ctx = click.Context(cli, info_name="slicelab")
    cmd = cli.get_command(ctx, command)
    return cmd is not None and any(flag in p.opts for p in cmd.params)


def small(args: list[str]) -> list[str]:
    """An example's arguments at a test's size (see the module notes)."""
    out = list(args)
    for i, word in enumerate(out[:-1]):
        if word == "--games":
            out[i + 1] = str(min(int(out[i + 1]), SMALL_GAMES))
        elif word in ("--jobs", "-j"):
            out[i + 1] = "1"
    command = out[0] if out else ""
    if "--games" not in out and command not in COSTLY and _has_option(command, "--games"):
        out += ["--games", str(SMALL_GAMES)]
    return out


def sized(args: list[str], what: str) -> list[str]:
    """A ``study`` example's arguments with ``--size quick`` when it gives no size and its
    study declares that size; refused when it would play more than
    :data:`MAX_STUDY_GAMES` games. Called once its inputs are made (the study file may be
    one)."""
    if args[0] != "study" or "--check" in args:
        return args
    path = next(a for a in args[1:] if a.endswith(".toml"))
    size = _option_value(args, "--size")
    if size is None and "quick" in tomllib.loads(Path(path).read_text("utf-8")).get("sizes", {}):
        args, size = [*args, "--size", "quick"], "quick"
    games = load_study(path, size).total_games
    assert games <= MAX_STUDY_GAMES, (
        f"{what} plays {games:,} games, more than a test should ({MAX_STUDY_GAMES:,}): add it "
        "to SUBSTITUTED in tests/test_examples.py with a cheap run (e.g. --check) and why"
    )
    return args


def runs_for(ex: Example) -> list[tuple[list[str], bool]]:
    """The argument lists an example runs as, each with whether the size rules still apply
    (not to a :data:`SUBSTITUTED` run); fails when the rules cannot run it cheaply and the
    table has no entry for it."""
    if ex.text in SUBSTITUTED:
        return [(shlex.split(r), False) for r in SUBSTITUTED[ex.text].runs]
    words = shlex.split(ex.text)[1:]
    if ex.mention:
        return [([*words, "--help"], False)]
    runs = []
    for variant in optional_variants(ex.text):
        args = shlex.split(variant)[1:]
        unknown = "add it to SUBSTITUTED in tests/test_examples.py with a cheap run and why"
        marks = [a for a in args if _PLACEHOLDER.search(a)]
        assert not marks, f"{ex.text!r} ({ex.where[0]}) has placeholders {marks}: {unknown}"
        assert args[0] not in COSTLY, (
            f"{ex.text!r} ({ex.where[0]}): {args[0]} takes minutes at any size: {unknown}"
        )
        runs.append((small(args), True))
    return runs


def make_input(name: str, cwd: Path) -> None:
    """Make ``name`` in ``cwd`` if an example reads it and it is not there."""
    path = cwd / name
    if path.exists():
        return
    copies = {dst: src for src, dst in COPIES}
    if name in copies:
        shutil.copyfile(cwd / copies[name], path)  # the cp line the examples give
    elif name == "my-study.toml":
        make_input("my-deck.toml", cwd)
        invoke(["plan", "nyslice", "--deck", "my-deck.toml", "--out", name], "my-study.toml")
    elif name == "data/run1":
        invoke(
            shlex.split("simulate nyslice --players 4 --games 20 --strategies "
                        "greedy,greedy,random,random --seed 1 --out data/run1 --jobs 1"),
            "data/run1",
        )  # fmt: skip
    elif name == "tiny.toml":
        path.write_text(TINY_STUDY, encoding="utf-8")
    elif name == "data/tiny-quick":
        make_input("tiny.toml", cwd)
        invoke(["study", "tiny.toml", "--size", "quick"], "data/tiny-quick")


INPUT_NAMES = (
    *sorted({dst for _, dst in COPIES}), "my-study.toml", "data/run1", "tiny.toml",
    "data/tiny-quick",
)  # fmt: skip
"""Files and datasets an example may read that :func:`make_input` makes."""


def invoke(args: list[str], what: str) -> None:
    """``slicelab ARGS`` in this process; fails unless it exits with status 0."""
    result = CliRunner().invoke(cli, args)
    tb = ""
    if result.exc_info and not isinstance(result.exception, SystemExit):
        tb = "".join(traceback.format_exception(*result.exc_info))
    tail = "\n".join(result.output.splitlines()[-15:])
    assert result.exit_code == 0, (
        f"{what}: `slicelab {shlex.join(args)}` exited with status {result.exit_code}:\n"
        f"{tail}\n{tb}"
    )


_PASSED: set[tuple[str, ...]] = set()
"""Command lines that passed already (a substitution several examples share)."""


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh working directory with the checkout's studies and data files at hand."""
    for name in ("studies", "sims"):
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("ex", EXAMPLES, ids=[e.text for e in EXAMPLES])
def test_every_example_runs(ex: Example, workdir: Path) -> None:
    what = f"{ex.text!r} (written in {', '.join(ex.where)})"
    for args, generic in runs_for(ex):
        if tuple(args) in _PASSED:
            continue
        out = _option_value(args, "--out")
        for name in INPUT_NAMES:
            if name in args and name != out:
                make_input(name, workdir)
        invoke(sized(args, what) if generic else args, what)
        _PASSED.add(tuple(args))


def test_every_substitution_is_of_an_example_still_written() -> None:
    texts = {e.text for e in EXAMPLES}
    stale = sorted(set(SUBSTITUTED) - texts)
    assert not stale, f"SUBSTITUTED has entries no example uses any more: {stale}"
    assert all(sub.reason and sub.runs for sub in SUBSTITUTED.values())


def test_the_examples_are_found_everywhere() -> None:
    """The collection sees README's table, code blocks and prose, every command's --help
    (an entry-point command's too) and the notebooks."""
    where = {w.split(":")[0].split(" (")[0] for e in EXAMPLES for w in e.where}
    assert {"README.md", "slicelab --help", "slicelab plan --help", "slicelab study --help"} <= (
        where
    )
    assert any(w.startswith("notebooks/") for w in where)
    paths = set(command_paths())
    assert {("play",), ("demo",), ("report",), ("study",)} <= paths  # entry points included
    texts = {e.text for e in EXAMPLES}
    assert "slicelab games" in texts  # the command table
    assert "slicelab study my-study.toml --check" in texts  # a code block
    assert any(e.mention for e in EXAMPLES)  # prose naming a command


def test_the_copy_lines_copy_files_that_exist() -> None:
    assert COPIES, "no cp line found: make_input makes my-deck.toml by it"
    for src, _ in COPIES:
        assert (ROOT / src).is_file(), f"cp {src}: no such file in the checkout"


@pytest.mark.parametrize(
    "text",
    ["slicelab tune horno --players 3", "slicelab play nyslice --players N",
     "slicelab simulate horno ... --out data/x", "slicelab report studies/new.toml"],
)  # fmt: skip
def test_an_example_the_rules_cannot_run_cheaply_fails_naming_the_table(text: str) -> None:
    with pytest.raises(AssertionError, match="SUBSTITUTED"):
        runs_for(Example(text, ["README.md:1"]))


def test_a_large_study_example_fails_naming_the_table(workdir: Path) -> None:
    with pytest.raises(AssertionError, match="SUBSTITUTED"):
        sized(["study", "studies/million-greedy.toml"], "an example")
    assert sized(["study", "studies/greedy-vs-random.toml"], "an example")[-2:] == [
        "--size",
        "quick",
    ]


def python_blocks() -> list[str]:
    """The ``python`` code blocks of README.md's "Python API" section."""
    text = README.read_text("utf-8")
    section = text.split("\n## Python API\n", 1)[1].split("\n## ", 1)[0]
    return [t.content for t in MarkdownIt().parse(section) if t.type == "fence"
            and t.info.strip() == "python"]  # fmt: skip


def test_the_python_api_example_runs(workdir: Path, capsys) -> None:
    """The README's Python example runs as written (its study at its quick size, two
    worker processes) and prints what it says: the games it played and a seat table of
    both arms; run again, it plays nothing (the study resumes)."""
    (block,) = python_blocks()
    exec(compile(block, "README.md (Python API)", "exec"), {})
    first = capsys.readouterr().out
    assert "2,000 games played, 0 already done" in first, first
    assert "spec-rulings" in first and "veggies-later" in first and "win_share" in first
    exec(compile(block, "README.md (Python API)", "exec"), {})
    assert "0 games played, 2,000 already done" in capsys.readouterr().out
