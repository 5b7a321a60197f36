"""The ``slicelab`` commands that analyse: ``play`` and ``demo`` (a batch in memory and its
per-seat summary) and ``report`` (the PDF). They join the command line of :mod:`sims.cli`
through the ``slicelab.commands`` entry points (``pyproject.toml``), so ``sims`` never
imports ``analysis``."""

from __future__ import annotations

from pathlib import Path

import click
import polars as pl
from rich.table import Table

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


def print_summary(rows: pl.DataFrame, game: str, title: str) -> None:
    """Per-seat win share (Wilson 95%) and mean score components as a table."""
    components = [*get_game(game).results.components, "score"]
    summary = seat_summary(rows, components)
    table = Table(title=title)
    heads = ["players", "seat", "strategy", "games", "win", "95% CI", *components]
    for col in heads:
        table.add_column(col, justify="left" if col == "strategy" else "right", no_wrap=True)
    for r in summary.iter_rows(named=True):
        table.add_row(
            str(r["players"]), str(r["seat"]), r["strategy"], str(r["games"]),
            f"{r['win_share']:.1%}", f"{r['win_low']:.1%}–{r['win_high']:.1%}",
            *[f"{r[c]:.2f}" for c in components],
        )  # fmt: skip
    console.print(table)


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
@allow_code_option
@game_options
def play(
    game: str, players: int, n_games: int, seed: int, specs: str, engine: str, allow_code: bool,
    **given,
):  # fmt: skip
    """Play a batch in memory (no files) and print a per-seat summary."""
    arm = arm_dict(game, players, specs, n_games, seed, given, engine)
    rows = play_in_memory(arm, seed, f"{players} players", allow_code)
    title = get_game(game).info.title
    print_summary(rows, game, f"{title} — {n_games} games, seed {seed}")


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
def demo(game: str, n_games: int, seed: int, specs: str) -> None:
    """Play a batch at every player count of the game and print win share and mean score
    by seat."""
    info = get_game(game).info
    arms = [arm_dict(game, n, specs, n_games, seed, {})
            for n in range(info.min_players, info.max_players + 1)]  # fmt: skip
    for arm in arms:  # every player count is checked before any is played
        one_arm(arm, seed)
    frames = [play_in_memory(arm, seed, f"{arm['players']} players") for arm in arms]
    print_summary(
        pl.concat(frames), game,
        f"{info.title} — {n_games} games per player count, all seats {specs}, seed {seed}",
    )  # fmt: skip
    console.print(
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
    with err.status("analysing and drawing the report"):
        write_report(out, pdf, estimates_path=estimates_path, payoff_games=payoff_games)
    console.print(f"report: {pdf}")
    if estimates_path is not None:
        console.print(f"the report's numbers: {estimates_path}")
