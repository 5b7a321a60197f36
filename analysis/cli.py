"""The ``slicelab`` commands that analyse: ``play`` and ``demo`` (a batch in memory and its
per-seat summary) and ``report`` (the PDF). They join the command line of :mod:`sims.cli`
through the ``slicelab.commands`` entry points (``pyproject.toml``), so ``sims`` never
imports ``analysis``."""

from __future__ import annotations

from pathlib import Path

import click
import polars as pl
from rich.console import Console

from analysis.summary import seat_summary
from sims.batch import one_arm
from sims.cli import (
    allow_code_option,
    arm_dict,
    console,
    err,
    game_options,
    play_in_memory,
    players_help,
    run,
    with_run_options,
)
from sims.core.errors import SlicelabError
from sims.core.game import get_game
from sims.output import Column, format_option, print_table, write_rows


def spec_text(spec: str) -> str:
    """A strategy spec as a table shows it: a space after each comma, so that a long one
    wraps between its parameters rather than inside one."""
    return spec.replace(",", ", ")


WIN_COLUMNS = (
    Column("players"),
    Column("seat"),
    Column("win_share", "win", text=lambda r: f"{r['win_share']:.1%}"),
    Column("win_low", "95% CI", text=lambda r: f"{r['win_low']:.1%}–{r['win_high']:.1%}"),
    Column("games", text=lambda r: f"{r['games']:,}"),
    # last and the only one that wraps: a long spec (a preset with overrides, a Python
    # strategy) takes the lines it needs instead of pushing the numbers off the screen
    Column("strategy", justify="left", wrap=True, text=lambda r: spec_text(r["strategy"])),
)
"""The first table of :func:`print_summary`: who won, with its interval, by seat."""


SUMMARY_FIELDS = ("players", "seat", "strategy", "games", "win_share", "win_low", "win_high")
"""The csv and json columns of :func:`print_summary` before the score components."""


def print_summary(
    rows: pl.DataFrame, game: str, title: str, fmt: str = "table", to: Console | None = None
) -> None:
    """Per-seat win share (Wilson 95%) and mean score components.

    As a table (``fmt="table"``), it fits the console's width for every game: the win
    share, its interval and the games by seat first, with the strategy last (wrapped if
    long), then the mean score and its components by seat in as many tables as the width
    needs (each repeating players and seat). As ``csv`` or ``json``, one row per player count
    and seat with raw numbers on stdout: ``players``, ``seat``, ``strategy``, ``games``,
    ``win_share`` (a fraction, a shared win counting 1/k), ``win_low`` and ``win_high``
    (the Wilson 95% interval), then the mean ``score`` and the mean of each of its
    components.

    Parameters
    ----------
    rows : polars.DataFrame
        A ``players`` table with a ``players`` column (:func:`sims.cli.play_in_memory`).
    game : str
        The game's registry name (its score components).
    title : str
        Above the first table.
    fmt : {"table", "csv", "json"}
        The ``--format`` given.
    to : rich.console.Console, optional
        Where a table goes (default: the command line's stdout console).
    """
    components = ["score", *get_game(game).results.components]  # the total first
    records = seat_summary(rows, components).to_dicts()
    if fmt != "table":
        write_rows(records, [*SUMMARY_FIELDS, *components], fmt)
        return
    to = to or console
    print_table(to, WIN_COLUMNS, records, title)
    means = [Column(c, text=lambda r, c=c: f"{r[c]:.2f}") for c in components]
    print_table(to, [*WIN_COLUMNS[:2], *means], records, "mean score by seat", keys=2)


@click.command()
@click.argument("game")
@click.option("--players", "-p", type=int, required=True, help=players_help())
@click.option(
    "--games", "n_games", type=click.IntRange(min=1), default=1000, show_default=True,
    help="Games to play.",
)  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="Study seed.")
@click.option(
    "--strategies", "specs", default="greedy", show_default=True,
    help="One spec per seat, or one for all.",
)  # fmt: skip
@click.option(
    "--engine", type=click.Choice(["auto", "kernel", "reference"]), default="auto",
    show_default=True, help="auto: the compiled kernel when every strategy is built in.",
)  # fmt: skip
@format_option
@allow_code_option
@game_options
def play(
    game: str, players: int, n_games: int, seed: int, specs: str, engine: str, fmt: str,
    allow_code: bool, **given,
):  # fmt: skip
    """Play a batch in memory (no files) and print a per-seat summary: win share and its
    95% interval, then the mean score and its components (--format csv or json: one row
    per seat)."""
    arm = arm_dict(game, players, specs, n_games, seed, given, engine)
    rows = play_in_memory(arm, seed, f"{players} players", allow_code)
    title = get_game(game).info.title
    print_summary(rows, game, f"{title} — {n_games:,} games, seed {seed}", fmt)


@click.command()
@click.argument("game")
@click.option(
    "--games", "n_games", type=click.IntRange(min=1), default=20000, show_default=True,
    help="Games per player count.",
)  # fmt: skip
@click.option("--seed", type=int, default=1, show_default=True, help="Study seed.")
@click.option(
    "--strategies", "specs", default="greedy", show_default=True, help="Strategy for every seat."
)
@format_option
def demo(game: str, n_games: int, seed: int, specs: str, fmt: str) -> None:
    """Play a batch at every player count of the game and print win share and mean score
    by seat (--format csv or json: one row per player count and seat)."""
    info = get_game(game).info
    arms = [arm_dict(game, n, specs, n_games, seed, {})
            for n in range(info.min_players, info.max_players + 1)]  # fmt: skip
    for arm in arms:  # every player count is checked before any is played
        one_arm(arm, seed)
    frames = [play_in_memory(arm, seed, f"{arm['players']} players") for arm in arms]
    print_summary(
        pl.concat(frames), game,
        f"{info.title} — {n_games:,} games per player count, all seats {specs}, seed {seed}",
        fmt,
    )  # fmt: skip
    # csv and json keep stdout for the rows: the note goes with the progress, to stderr
    (console if fmt == "table" else err).print(
        "Win share counts a shared win as 1/k; intervals are Wilson 95%. Seat 0 moves first."
    )


@click.command()
@click.argument("source", type=click.Path(path_type=Path))
@click.option(
    "--out", "pdf", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="PDF to write (default: reports/<study name>.pdf).",
)  # fmt: skip
@click.option(
    "--data", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="With a study file: its dataset directory (default: data/<study name>).",
)  # fmt: skip
@click.option("--size", default=None, metavar="NAME", help="With a study file: one of its sizes.")
@click.option(
    "--estimates", "estimates_path", type=click.Path(dir_okay=False, path_type=Path),
    default=None, help="Also write the report's numbers as data (one row per page-1 answer, "
    "then per headline number of the appendix that carries one; columns: source, quantity, "
    "player count, estimate, interval, n and its unit, method, family): Parquet for a "
    ".parquet name, else CSV.",
)  # fmt: skip
@click.option(
    "--payoff-games", type=click.IntRange(min=1), default=300, show_default=True,
    help="Games per player count whose decisions are replayed both ways (where the game's "
    "report replays decisions: New York Slice's eat or collect).",
)  # fmt: skip
@with_run_options
@allow_code_option
def report(
    source: Path, pdf: Path | None, data: Path | None, size: str | None,
    estimates_path: Path | None, payoff_games: int, jobs: int, backend: str,
    scheduler: str | None, allow_code: bool,
) -> None:  # fmt: skip
    """Build the balance report (PDF) from a dataset, or from a study file: the study is
    run first (resuming what is already done), then reported. A study without some of the
    blocks its game's report reads gets the questions it can answer, and page 1 lists
    the others with the blocks that would answer them; a study slicelab plan wrote for a
    variant gets a report that names the variant."""
    from analysis.report import check_dataset, write_report
    from sims.batch import read_manifest
    from sims.compiling import analysis_notice
    from sims.core.study import load_study

    if source.suffix == ".toml":
        the_study = load_study(source, size, allow_code)
        out = data or Path("data") / the_study.name
        run(the_study, out, jobs, backend, scheduler, size)
        name = the_study.name
    else:
        if size is not None or data is not None:
            raise SlicelabError("--size and --data apply to a study file, not to a dataset")
        out = source
        name = read_manifest(out)["study_name"]
    check_dataset(out)
    pdf = pdf or Path("reports") / f"{name}.pdf"
    games = {a["game"] for a in read_manifest(out)["study"]["arms"]}
    for line in filter(None, (analysis_notice(g) for g in sorted(games))):
        err.print(line, markup=False, highlight=False, soft_wrap=True)
    with err.status("analysing and drawing the report"):
        write_report(out, pdf, estimates_path=estimates_path, payoff_games=payoff_games)
    console.print(f"report: {pdf}")
    if estimates_path is not None:
        console.print(f"the report's numbers: {estimates_path}")
