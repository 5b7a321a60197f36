"""The ``slicelab`` command line."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import polars as pl
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from sims import __version__
from sims.core.errors import SlicelabError
from sims.core.registry import GAMES, get_game
from sims.core.specs import _value, split_specs

# Wide enough for the summary table when output is piped (rich defaults to 80 columns).
console = Console(width=None if sys.stdout.isatty() else 132)
err = Console(stderr=True)


class _Group(click.Group):
    """Turns user-input errors into a one-line message and exit status 2, not a traceback."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except SlicelabError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="slicelab")
def cli() -> None:
    """slicelab: balance studies for tabletop games by simulation.

    \b
    Examples:
      slicelab games
      slicelab strategies nyslice
      slicelab replay nyslice --players 4 --seed 7 --index 0 --strategies greedy,random
      slicelab play nyslice --players 4 --games 1000 --strategies greedy,random,random,random
      slicelab demo nyslice
    """


def _game_options(fn):
    fn = click.option(
        "--rule",
        "rules",
        multiple=True,
        metavar="NAME=VALUE",
        help="Change a ruling, e.g. --rule veggies_edible_later=true (repeatable; see README).",
    )(fn)
    fn = click.option(
        "--deck",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Deck TOML file (default: the 'reconstructed v1' deck).",
    )(fn)
    return fn


def _parse_rules(items: tuple[str, ...]) -> dict:
    """``--rule NAME=VALUE`` flags as a dict of rule options."""
    rules = {}
    for item in items:
        if "=" not in item:
            raise SlicelabError(
                f"--rule {item!r}: write NAME=VALUE, e.g. --rule veggies_edible_later=true"
            )
        key, val = item.split("=", 1)
        rules[key.strip()] = _value(val.strip())
    return rules


def _setup(game: str, deck_path: Path | None, rule_items: tuple[str, ...]):
    get_game(game)
    from sims.games.nyslice.deck import load_deck
    from sims.games.nyslice.rules import Rules

    return load_deck(deck_path), Rules.from_dict(_parse_rules(rule_items))


@cli.command()
def games() -> None:
    """List the games slicelab can simulate."""
    table = Table("game", "title", "players", "summary")
    for g in GAMES.values():
        table.add_row(g.name, g.title, f"{g.min_players}-{g.max_players}", g.summary)
    console.print(table)
    console.print("Planned: Piece o' Cake, Pizza Theory, Horno.")


@cli.command()
@click.argument("game")
def strategies(game: str) -> None:
    """List a game's built-in strategies and their parameters."""
    get_game(game)
    from sims.games.nyslice.heuristic import load_presets
    from sims.games.nyslice.kernel import STRATEGY_CODES
    from sims.games.nyslice.strategies import STRATEGIES

    table = Table("strategy", "parameters (default)", "kernel", "summary")
    for info in STRATEGIES.values():
        params = ", ".join(f"{k}={v:g}" for k, v in info.params.items()) or "-"
        kernel = "yes" if info.name in STRATEGY_CODES else "no"
        table.add_row(info.name, params, kernel, info.summary)
    for name, params in sorted(load_presets().items()):
        values = ", ".join(f"{k}={v:g}" for k, v in params.items())
        kernel = "yes" if "heuristic" in STRATEGY_CODES else "no"
        table.add_row(name, values, kernel, "preset of heuristic (parameters can be overridden)")
    console.print(table)
    console.print(
        "A spec is NAME or NAME(key=value,...), e.g. heuristic(theta=0.8,deny=0.3); "
        "heuristic's defaults at N players are the preset heuristic-pN when present. "
        "A Python strategy is package.module:Name(...)."
    )


@cli.command()
@click.argument("game")
@click.option("--players", "-p", type=int, required=True, help="Number of players (2-6).")
@click.option("--seed", type=int, default=0, show_default=True, help="Study seed.")
@click.option(
    "--index", type=int, default=0, show_default=True, help="Game index within the study."
)
@click.option(
    "--strategies",
    "specs",
    default="greedy",
    show_default=True,
    help="One spec per seat, comma-separated, or one for all seats.",
)
@_game_options
def replay(
    game: str,
    players: int,
    seed: int,
    index: int,
    specs: str,
    deck: Path | None,
    rules: tuple[str, ...],
) -> None:
    """Play one game and print it round by round, with the final guest check."""
    the_deck, the_rules = _setup(game, deck, rules)
    from sims.games.nyslice.game import play_game, seat_strategies
    from sims.games.nyslice.replay import format_replay

    if seed < 0 or index < 0:
        raise SlicelabError("--seed and --index must be non-negative")
    strats = seat_strategies(split_specs(specs), players)
    state = play_game(players, strats, seed, index, the_deck, the_rules)
    header = f"New York Slice, {players} players, seed {seed}, game {index} (reference engine)"
    click.echo(format_replay(state, [str(s.spec) for s in strats], header))


def _arm(
    game: str,
    players: int,
    specs: str,
    n_games: int,
    seed: int,
    deck,
    rules_items,
    engine="auto",
    name="main",
):
    """A one-arm study from CLI flags (validated like a study file)."""
    rules = _parse_rules(rules_items)
    get_game(game)
    arm = {
        "name": name, "game": game, "players": players, "strategies": split_specs(specs),
        "games": n_games, "seed": seed, "engine": engine, "rules": rules,
    }  # fmt: skip
    if deck is not None:
        arm["deck"] = str(Path(deck).resolve())
    return arm


def _play_in_memory(arm_dict: dict, seed: int, label: str) -> pl.DataFrame:
    """Play one arm chunk by chunk without writing files; return the players table."""
    from sims.core.study import parse_study
    from sims.games import plugin_for

    study = parse_study({"seed": seed, "name": "cli", "arms": [arm_dict]}, source="command line")
    arm = study.arms[0]
    plugin = plugin_for(arm.game)
    engine = plugin.engine_for(arm)
    kind = "compiled kernel" if engine == "kernel" else "Python reference"
    err.print(f"{label}: engine {engine} ({kind})")
    frames = []
    step = 2000 if engine == "kernel" else 200
    with _progress() as progress:
        task = progress.add_task(label, total=arm.games)
        for first in range(0, arm.games, step):
            count = min(step, arm.games - first)
            tables = plugin.run_chunk(arm, first, count, decisions=False)
            frames.append(
                pl.from_arrow(tables["players"]).with_columns(pl.lit(arm.players).alias("players"))
            )
            progress.advance(task, count)
    return pl.concat(frames)


class _GamesPerSecond(ProgressColumn):
    """Throughput in games per second."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} games/s" if speed else "– games/s", style="progress.data.speed")


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        _GamesPerSecond(), TimeRemainingColumn(), console=err, transient=False,
    )  # fmt: skip


def _print_summary(rows: pl.DataFrame, title: str) -> None:
    from analysis.summary import COMPONENTS, seat_summary

    summary = seat_summary(rows)
    table = Table(title=title)
    heads = ["players", "seat", "strategy", "games", "win", "95% CI", "majorities", "specials",
             "diet", "pepperoni", "anchovies", "score"]  # fmt: skip
    for col in heads:
        table.add_column(col, justify="left" if col == "strategy" else "right", no_wrap=True)
    for r in summary.iter_rows(named=True):
        table.add_row(
            str(r["players"]), str(r["seat"]), r["strategy"], str(r["games"]),
            f"{r['win_share']:.1%}", f"{r['win_low']:.1%}–{r['win_high']:.1%}",
            *[f"{r[c]:.2f}" for c in COMPONENTS],
        )  # fmt: skip
    console.print(table)


@cli.command()
@click.argument("game")
@click.option("--players", "-p", type=int, required=True, help="Number of players (2-6).")
@click.option(
    "--games",
    "n_games",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Games to play.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Study seed.")
@click.option(
    "--strategies",
    "specs",
    default="greedy",
    show_default=True,
    help="One spec per seat, or one for all.",
)
@click.option(
    "--engine",
    type=click.Choice(["auto", "kernel", "reference"]),
    default="auto",
    show_default=True,
    help="auto: the compiled kernel when every strategy is built in.",
)
@_game_options
def play(
    game: str,
    players: int,
    n_games: int,
    seed: int,
    specs: str,
    engine: str,
    deck: Path | None,
    rules: tuple[str, ...],
) -> None:
    """Play a batch in memory (no files) and print a per-seat summary."""
    arm = _arm(game, players, specs, n_games, seed, deck, rules, engine)
    rows = _play_in_memory(arm, seed, f"{players} players")
    _print_summary(rows, f"New York Slice — {n_games} games, seed {seed}")


@cli.command()
@click.argument("game", default="nyslice")
@click.option(
    "--games",
    "n_games",
    type=click.IntRange(min=1),
    default=20000,
    show_default=True,
    help="Games per player count.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Study seed.")
@click.option(
    "--strategies", "specs", default="greedy", show_default=True, help="Strategy for every seat."
)
def demo(game: str, n_games: int, seed: int, specs: str) -> None:
    """Play a batch at every player count (2-6) and print win share and mean score by seat."""
    frames = []
    for players in range(2, 7):
        arm = _arm(game, players, specs, n_games, seed, None, ())
        frames.append(_play_in_memory(arm, seed, f"{players} players"))
    _print_summary(
        pl.concat(frames),
        f"New York Slice — {n_games} games per player count, all seats {specs}, seed {seed}",
    )
    console.print(
        "Win share counts a shared win as 1/k; intervals are Wilson 95%. "
        "Seats slice in order 0, 1, ...; at 4 players seats 0 and 1 slice twice."
    )


def _run(study, out: Path, jobs: int, backend: str, scheduler: str | None) -> None:
    from sims.batch import run_study
    from sims.games import plugin_for

    blocks: dict[str, list] = {}
    for arm in study.arms:
        blocks.setdefault(arm.group or arm.name, []).append(arm)
    for name, arms in blocks.items():
        engines = {plugin_for(a.game).engine_for(a) for a in arms}
        names = {"kernel": "compiled kernel", "reference": "Python reference engine"}
        kind = " and ".join(names[e] for e in sorted(engines))
        if len(arms) == 1:
            a = arms[0]
            err.print(f"arm {a.name}: {a.game}, {a.players} players, {a.games:,} games, "
                      f"{', '.join(a.strategies)}; engine: {kind}")  # fmt: skip
        else:
            counts = ", ".join(str(n) for n in sorted({a.players for a in arms}))
            err.print(f"block {name}: {len(arms)} arms, {arms[0].game}, {counts} players, "
                      f"{sum(a.games for a in arms):,} games; engine: {kind}")  # fmt: skip
    where = f"Dask cluster {scheduler}" if backend == "dask" else f"{jobs} joblib worker(s)"
    err.print(f"writing {out} with {where}")
    with _progress() as progress:
        task = progress.add_task(study.name, total=study.total_games)

        def update(done: int, total: int, played: int) -> None:
            progress.update(task, completed=done)

        try:
            summary = run_study(
                study, out, jobs=jobs, backend=backend, scheduler=scheduler, on_progress=update
            )
        except KeyboardInterrupt:
            err.print(
                f"interrupted: finished chunks are kept in {out}; run the same command to resume"
            )
            raise SystemExit(130) from None
    rate = summary.games_played / summary.seconds if summary.seconds > 0 else 0
    skipped = f" ({summary.games_skipped:,} already done)" if summary.games_skipped else ""
    console.print(
        f"{summary.games_played:,} games played{skipped} in {summary.seconds:.1f} s "
        f"({rate:,.0f} games/s); rows: "
        + ", ".join(f"{k} {v:,}" for k, v in sorted(summary.rows.items()))
    )
    console.print(f"dataset: {out}  (read it with polars: analysis.load.scan('{out}', 'players'))")


_run_options = [
    click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help="Worker processes (joblib backend).",
    ),
    click.option(
        "--backend",
        type=click.Choice(["joblib", "dask"]),
        default="joblib",
        show_default=True,
        help="joblib: local processes; dask: an existing Dask cluster.",
    ),
    click.option(
        "--scheduler",
        default=None,
        metavar="tcp://HOST:PORT",
        help="Dask scheduler address (with --backend dask).",
    ),
]


def _with_run_options(fn):
    for opt in reversed(_run_options):
        fn = opt(fn)
    return fn


@cli.command()
@click.argument("game")
@click.option("--players", "-p", type=int, required=True, help="Number of players (2-6).")
@click.option(
    "--games", "n_games", type=click.IntRange(min=1), required=True, help="Games to play."
)
@click.option(
    "--strategies",
    "specs",
    default="greedy",
    show_default=True,
    help="One spec per seat, or one for all.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Study seed (0 to 2**32-1).")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Dataset directory.",
)
@click.option(
    "--chunk-size",
    type=click.IntRange(min=1),
    default=10_000,
    show_default=True,
    help="Games per Parquet file.",
)
@click.option("--decisions", is_flag=True, help="Also write the per-decision table.")
@click.option(
    "--engine",
    type=click.Choice(["auto", "kernel", "reference"]),
    default="auto",
    show_default=True,
    help="auto: the compiled kernel when every strategy is built in.",
)
@_with_run_options
@_game_options
def simulate(
    game,
    players,
    n_games,
    specs,
    seed,
    out,
    chunk_size,
    decisions,
    engine,
    jobs,
    backend,
    scheduler,
    deck,
    rules,
) -> None:
    """Simulate games in parallel and write a Parquet dataset (resumable: rerun to continue)."""
    from sims.core.study import parse_study

    arm = _arm(game, players, specs, n_games, seed, deck, rules, engine)
    data = {
        "name": out.name or "run",
        "seed": seed,
        "chunk_size": chunk_size,
        "decisions": decisions,
        "arms": [arm],
    }
    study = parse_study(data, source="command line")
    _run(study, out, jobs, backend, scheduler)


@cli.command()
@click.argument("study_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Dataset directory (default: data/<study name>).",
)
@click.option(
    "--size",
    default=None,
    metavar="NAME",
    help="One of the study's sizes (e.g. quick): scales every arm's games.",
)
@_with_run_options
def study(
    study_file: Path,
    out: Path | None,
    size: str | None,
    jobs: int,
    backend: str,
    scheduler: str | None,
) -> None:
    """Run every arm of a study file (validated first) into a Parquet dataset; rerun to resume."""
    from sims.core.study import load_study

    the_study = load_study(study_file, size)
    _run(the_study, out or Path("data") / the_study.name, jobs, backend, scheduler)


@cli.command()
@click.argument("source", type=click.Path(path_type=Path))
@click.option(
    "--out",
    "pdf",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="PDF to write (default: reports/<study name>.pdf).",
)
@click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="With a study file: its dataset directory (default: data/<study name>).",
)
@click.option("--size", default=None, metavar="NAME", help="With a study file: one of its sizes.")
@click.option(
    "--payoff-games",
    type=click.IntRange(min=1),
    default=300,
    show_default=True,
    help="Games per player count whose eat decisions are replayed both ways.",
)
@_with_run_options
def report(
    source: Path,
    pdf: Path | None,
    data: Path | None,
    size: str | None,
    payoff_games: int,
    jobs: int,
    backend: str,
    scheduler: str | None,
) -> None:
    """Build the balance report (PDF) from a dataset, or from a study file: the study is
    run first (resuming what is already done), then reported."""
    from analysis.report import check_dataset, write_report
    from sims.batch import read_manifest
    from sims.core.study import load_study

    if source.suffix == ".toml":
        the_study = load_study(source, size)
        out = data or Path("data") / the_study.name
        _run(the_study, out, jobs, backend, scheduler)
        name = the_study.name
    else:
        if size is not None or data is not None:
            raise SlicelabError("--size and --data apply to a study file, not to a dataset")
        out = source
        name = read_manifest(out)["study_name"]
    check_dataset(out)
    pdf = pdf or Path("reports") / f"{name}.pdf"
    with err.status("analysing and drawing the report"):
        write_report(out, pdf, payoff_games=payoff_games)
    console.print(f"report: {pdf}")


@cli.command()
@click.argument("game")
@click.option("--players", "-p", type=int, required=True, help="Number of players (2-6).")
@click.option("--family", default="heuristic", show_default=True, help="Strategy family to tune.")
@click.option(
    "--field",
    "field_spec",
    default="greedy",
    show_default=True,
    help="Strategy in the other seats.",
)
@click.option(
    "--candidates",
    type=click.IntRange(min=2),
    default=16,
    show_default=True,
    help="Parameter sets in the first round of successive halving.",
)
@click.option(
    "--games",
    "n_games",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="Seat-rotated games per candidate in the first round (doubling each round).",
)
@click.option(
    "--validation-games",
    type=click.IntRange(min=10),
    default=2000,
    show_default=True,
    help="Fresh games on which the winner is measured.",
)
@click.option(
    "--seed", type=int, default=1, show_default=True, help="Seed of the sampling and the games."
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes.",
)
@click.option(
    "--save-preset",
    default=None,
    metavar="NAME",
    help="Store the winner as a named preset (heuristic-pN: heuristic's default at N players).",
)
def tune(
    game,
    players,
    family,
    field_spec,
    candidates,
    n_games,
    validation_games,
    seed,
    jobs,
    save_preset,
) -> None:
    """Search a strategy family's parameters for the best win share against a field."""
    get_game(game)
    from sims.games.nyslice.game import seat_strategies
    from sims.tune import tune as run_tune

    seat_strategies([field_spec], players)  # validates the field spec and player count

    def show(i, pool, games):
        best = pool[0]
        err.print(
            f"round {i}: {len(pool)} candidates after {games:,} games each; "
            f"best {best.share:.1%}: {best.spec}"
        )

    result = run_tune(
        players,
        field_spec,
        family,
        candidates,
        n_games,
        validation_games,
        seed,
        jobs,
        on_round=show,
    )
    console.print(
        f"best {family} at {players} players vs {field_spec}: {result.best.spec}\n"
        f"win share on {result.validation_games:,} fresh seat-rotated games "
        f"(seed {result.validation_seed}): {result.share:.1%} "
        f"[95% CI {result.low:.1%}, {result.high:.1%}] (fair share {result.fair:.1%})"
    )
    if save_preset:
        from sims.games.nyslice.heuristic import save_preset as save

        note = (
            f"tuned vs {field_spec} at {players} players: {result.share:.3f} "
            f"[{result.low:.3f}, {result.high:.3f}] on {result.validation_games} games, seed {seed}"
        )
        save(save_preset, result.best.params, note)
        console.print(f"saved preset {save_preset!r}")


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="slicelab")


if __name__ == "__main__":
    sys.exit(main())
