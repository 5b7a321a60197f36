"""The ``slicelab`` command line."""

from __future__ import annotations

import contextlib
import re
import signal
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
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
from rich.text import Text

from sims import __version__
from sims.batch import available_cores, one_arm, play_arm
from sims.compiling import (
    announced,
    cluster_notice,
    compile_first,
    to_compile,
    unfinished_arms,
    warm_hint,
)
from sims.core.errors import SlicelabError
from sims.core.game import Game, get_game
from sims.core.game import games as all_games
from sims.core.specs import parse_spec, parse_value, resolved_params, split_specs
from sims.core.study import MAX_NAME
from sims.output import Column, emit, format_option, number, print_table, write_rows

# Piped output gets one fixed width, whatever the terminal, so that it is the same text
# everywhere (tables fit any width: sims.output; csv/json bypass rich).
console = Console(width=None if sys.stdout.isatty() else 132)
err = Console(stderr=True)


class _Group(click.Group):
    """Turns user-input errors into a one-line message and exit status 2, not a traceback.

    Commands of other packages (the analyses: ``report``, ``play``, ``demo``) join through
    the ``slicelab.commands`` entry points, loaded when asked for, so ``sims`` never
    imports them."""

    def _plugins(self) -> dict:
        return {ep.name: ep for ep in entry_points(group="slicelab.commands")}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self._plugins()})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is None and name in self._plugins():
            command = self._plugins()[name].load()
        return command

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
      slicelab replay nyslice -p 4 --seed 7 --index 0 --strategies greedy,random,greedy,random
      slicelab play nyslice --players 4 --games 1000 --strategies greedy,random,random,random
      slicelab demo nyslice
      slicelab plan nyslice --deck my-deck.toml --out my-study.toml
    """


class OutPath(click.Path):
    """A dataset folder: an empty value (which would mean the working directory) is refused."""

    def __init__(self) -> None:
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("is empty; name a folder for the dataset, e.g. --out data/run1", param, ctx)
        return super().convert(value, param, ctx)


def allow_code_option(fn):
    """``--allow-code``: accept strategies written in Python (``package.module:Name``)."""
    return click.option(
        "--allow-code", is_flag=True,
        help="Accept Python strategies (package.module:Name): they are imported and run.",
    )(fn)  # fmt: skip


def check_jobs(jobs: int) -> None:
    """Refuse more worker processes than the cores available."""
    cores = available_cores()
    if jobs > cores:
        raise SlicelabError(
            f"--jobs {jobs} is more than the {cores} cores available here; use --jobs {cores} "
            "or fewer"
        )


def players_help() -> str:
    """``--players`` help naming every game's range."""
    ranges = ", ".join(f"{g.info.name} {g.info.players_text}" for g in all_games())
    return f"Number of players ({ranges})."


def game_options(fn):
    """Add every registered game's command-line options (``--deck``, ``--rule``, ...);
    :func:`arm_dict` refuses one the chosen game does not have."""
    seen: dict[str, list[str]] = {}
    opts = {}
    for g in all_games():
        for o in g.options:
            if o.flag:
                seen.setdefault(o.flag, []).append(g.info.name)
                opts.setdefault(o.flag, o)
    docs = {g.info.name: g.info.rules_doc for g in all_games()}
    for flag, o in reversed(list(opts.items())):
        games_with = "" if len(seen[flag]) == len(all_games()) else f" [{', '.join(seen[flag])}]"
        if o.kind == "table":
            # shared by several games: one help for all, pointing at each game's rules
            where = ", ".join(docs[g] for g in seen[flag])
            text = f"Set {o.help}" if len(seen[flag]) == 1 else (
                f"Set one of the chosen game's {o.key} options, {o.metavar}; each game's are "
                f"listed with their defaults in {where}")  # fmt: skip
            fn = click.option(flag, o.key, multiple=True, metavar=o.metavar,
                              help=f"{text}{games_with} (repeatable).")(fn)  # fmt: skip
        else:
            kind = click.Path(dir_okay=False, path_type=Path) if o.kind == "path" else str
            fn = click.option(flag, o.key, type=kind, default=None, metavar=o.metavar,
                              help=f"{o.help[0].upper()}{o.help[1:]}{games_with}.")(fn)  # fmt: skip
    return fn


def _pairs(flag: str, items: tuple[str, ...]) -> dict:
    """``--flag NAME=VALUE`` items as a dict."""
    out = {}
    for item in items:
        if "=" not in item:
            raise SlicelabError(f"{flag} {item!r}: write NAME=VALUE, e.g. {flag} name=true")
        key, val = item.split("=", 1)
        out[key.strip()] = parse_value(val.strip())
    return out


def arm_dict(
    game: str, players: int, specs: str, n_games: int, seed: int, given: dict,
    engine: str = "auto", name: str = "main",
) -> dict:  # fmt: skip
    """A one-arm study block from CLI flags (validated later like a study file);
    ``given`` holds the game-option flags by key."""
    the_game = get_game(game)
    the_game.info.check_players(players)
    own = {o.key: o for o in the_game.options if o.flag}
    arm = {
        "name": name, "game": game, "players": players, "strategies": split_specs(specs),
        "games": n_games, "seed": seed, "engine": engine,
    }  # fmt: skip
    flags = {o.key: o.flag for g in all_games() for o in g.options if o.flag}
    for key, value in given.items():
        if value is None or value == ():
            continue
        if key not in own:
            mine = ", ".join(o.flag for o in own.values()) or "none"
            raise SlicelabError(
                f"{flags[key]} is not an option of {the_game.info.title}; its options: {mine}"
            )
        opt = own[key]
        if opt.kind == "table":
            value = _pairs(opt.flag, value)
        elif opt.kind == "path":
            value = str(Path(value).resolve())
        arm[key] = value
    return arm


GAME_COLUMNS = (
    Column("game", justify="left"),
    Column("title", justify="left", wrap=True),
    Column("players", text=lambda r: f"{r['min_players']}-{r['max_players']}"),
    # the rules document on the summary's second line: as a column of its own, its
    # unbreakable path would leave the summary a few characters at 80 columns
    Column("summary", "summary and rules", justify="left", wrap=True,
           text=lambda r: f"{r['summary']}\nrules: {r['rules_doc']}"),
)  # fmt: skip
"""The table of ``slicelab games``."""


@cli.command()
@format_option
def games(fmt: str) -> None:
    """List the games slicelab can simulate (--format csv or json: one row per game)."""
    rows = [
        {"game": i.name, "title": i.title, "min_players": i.min_players,
         "max_players": i.max_players, "summary": i.summary, "rules_doc": i.rules_doc}
        for i in (g.info for g in all_games())
    ]  # fmt: skip
    emit(fmt, GAME_COLUMNS, rows, console, fields=list(rows[0]))


def _params_text(params: dict | None) -> str:
    return ", ".join(f"{k}={number(v) if isinstance(v, float) else v}"
                     for k, v in params.items()) if params else "-"  # fmt: skip


def _count_template(names: list[str], players: int) -> set[str]:
    """The names with the player count written N (``heuristic-eq4`` at 4: ``heuristic-eqN``)."""
    return {re.sub(rf"(?<![0-9]){players}(?![0-9])", "N", name) for name in names}


def strategy_rows(the_game: Game, players: int | None = None) -> list[dict]:
    """The strategy catalogue as ``slicelab strategies`` lists it: one row per family or
    preset with the parameters it plays (:func:`~sims.core.specs.resolved_params`).

    With ``players``, ``params`` are those it plays at that count. Without, they are the
    ones it plays at every count where these are the same; where they depend on the
    count (plain ``heuristic`` plays ``heuristic-eqN`` at N players), ``params`` is None
    rather than numbers it would not play, ``depends_on_players`` is true and
    ``default_preset`` names the presets it plays (``heuristic-eqN``) when presets do.

    Parameters
    ----------
    the_game : Game
        The game.
    players : int, optional
        A player count in the game's range (checked by the caller).

    Returns
    -------
    list of dict
        Keys ``strategy``, ``preset_of``, ``kernel``, ``players``, ``params``,
        ``depends_on_players``, ``default_preset``, ``summary``.
    """
    info = the_game.info
    counts = range(info.min_players, info.max_players + 1)
    catalogue = the_game.strategies()
    played = {
        s.name: {n: resolved_params(the_game.make_strategy(s.name), n) for n in counts}
        for s in catalogue
    }
    rows = []
    for s in catalogue:
        at = played[s.name]
        varies = any(at[n] != at[counts[0]] for n in counts)
        template = None
        if varies:  # which of its presets it plays at each count, if one name says so
            common = None
            for n in counts:
                same = [p.name for p in catalogue
                        if p.preset_of == s.name and played[p.name][n] == at[n]]  # fmt: skip
                names = _count_template(same, n)
                common = names if common is None else common & names
            template = sorted(common)[0] if common else None
        params = at[players] if players is not None else (None if varies else at[counts[0]])
        rows.append({
            "strategy": s.name, "preset_of": s.preset_of, "kernel": s.kernel,
            "players": players, "params": params, "depends_on_players": varies,
            "default_preset": template, "summary": s.summary,
        })  # fmt: skip
    return rows


def _params_cell(row: dict) -> str:
    if row["params"] is not None:
        return _params_text(row["params"])
    at = f": {row['default_preset']}'s at N players" if row["default_preset"] else ""
    return f"depends on the player count{at} (see --players)"


@cli.command()
@click.argument("game")
@click.option(
    "--players", "-p", type=int, default=None,
    help="List the parameters each strategy plays at this many players (default: those "
    "played at every count; a family whose defaults depend on the count says so).",
)  # fmt: skip
@format_option
def strategies(game: str, players: int | None, fmt: str) -> None:
    """List a game's built-in strategies and the parameters they play (--players N: at N
    players; --format csv or json: one row per strategy, the parameters as a JSON object)."""
    the_game = get_game(game)
    if players is not None:
        the_game.info.check_players(players)
    rows = strategy_rows(the_game, players)
    head = "parameters" if players is None else f"parameters at {players} players"
    columns = (
        Column("strategy", justify="left"),
        Column("params", head, text=_params_cell, justify="left", wrap=True),
        Column("kernel", text=lambda r: "yes" if r["kernel"] else "no", justify="left"),
        Column("summary", justify="left", wrap=True),
    )
    emit(fmt, columns, rows, console, fields=list(rows[0]))
    if fmt != "table":
        return
    varying = [r["strategy"] for r in rows if r["depends_on_players"] and r["params"] is None]
    if varying:
        console.print(
            f"{', '.join(varying)}: the parameters played depend on the player count; "
            f"`slicelab strategies {game} --players N` lists those played at N players."
        )
    tunable = [i.name for i in the_game.strategies() if i.ranges]
    with_params = [i.name for i in the_game.strategies() if i.params and not i.preset_of]
    example = f" or {with_params[0]}(key=value)" if with_params else ""
    console.print(
        f"A spec is NAME or NAME(key=value,...), e.g. greedy{example}"
        + (f"; tunable: {', '.join(tunable)}. " if tunable else ". ")
        + "A Python strategy is package.module:Name(...)."
    )


@cli.command()
@click.argument("game")
@click.option("--players", "-p", type=int, required=True, help=players_help())
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
@click.option(
    "--reveal",
    is_flag=True,
    help="Also show what no player at the table could see (Horno's hidden cards, New York "
    "Slice's mystery pool, Piece o' Cake's unseen slices), marked [hidden: ...]; a game "
    "with nothing hidden (Pizza Theory) says so. Default: hidden, as a spectator sees it.",
)
@allow_code_option
@game_options
def replay(
    game: str,
    players: int,
    seed: int,
    index: int,
    specs: str,
    reveal: bool,
    allow_code: bool,
    **given,
) -> None:
    """Play one game and print it round by round, with the final scores.

    The text uses the game's own terms (slices, portions and pieces by name, each cut
    drawn, the board with a legend); the same arguments always print the same text."""
    if seed < 0 or index < 0:
        raise SlicelabError("--seed and --index must be non-negative")
    block = arm_dict(game, players, specs, 1, seed, given, engine="reference")
    arm = one_arm(block, seed, allow_code=allow_code)
    compile_first([arm], err)  # a search seat's playouts run on the kernel
    text = get_game(game).replay(
        arm.options, arm.players, arm.strategies, seed, index, reveal=reveal
    )
    click.echo(text)


def play_in_memory(
    arm_block: dict, seed: int, label: str, allow_code: bool = False
) -> pl.DataFrame:
    """Play one arm in memory (no files), with a progress bar; return its players table
    with a ``players`` column."""
    arm = one_arm(arm_block, seed, allow_code=allow_code)
    engine = get_game(arm.game).engine_for(arm)
    kind = "compiled kernel" if engine == "kernel" else "Python reference"
    err.print(f"{label}: engine {engine} ({kind})")
    compile_first([arm], err)
    frames = []
    with progress_bar() as progress:
        task = progress.add_task(label, total=arm.games)
        for _, tables in play_arm(arm):
            frames.append(
                pl.from_arrow(tables["players"]).with_columns(pl.lit(arm.players).alias("players"))
            )
            progress.advance(task, tables["games"].num_rows)
    return pl.concat(frames)


class _GamesPerSecond(ProgressColumn):
    """Throughput in games per second."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} games/s" if speed else "– games/s", style="progress.data.speed")


def progress_bar() -> Progress:
    """A progress bar on stderr with games/s and time left."""
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        _GamesPerSecond(), TimeRemainingColumn(), console=err, transient=False,
    )  # fmt: skip


def _announce(study, out: Path, jobs: int, backend: str, scheduler: str | None) -> None:
    """What is about to be played, block by block, and where it goes."""
    blocks: dict[str, list] = {}
    for arm in study.arms:
        blocks.setdefault(arm.group or arm.name, []).append(arm)
    names = {"kernel": "compiled kernel", "reference": "Python reference engine"}
    for name, arms in blocks.items():
        engines = {get_game(a.game).engine_for(a) for a in arms}
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


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))
"""Signals that stop a run as Ctrl-C does (workers stopped, finished chunks kept): a
``kill``, and a closed terminal or ssh session."""


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[None]:
    """Turn :data:`STOP_SIGNALS` into ``KeyboardInterrupt`` for the duration."""
    previous = {sig: signal.signal(sig, _interrupt) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run(
    study, out: Path, jobs: int, backend: str, scheduler: str | None, size: str | None = None
) -> None:
    """Run (or resume) a study into ``out`` with a progress bar and a closing line.

    Ctrl-C and SIGTERM stop it alike: workers are stopped, finished chunks kept."""
    from sims.batch import run_study

    progress = progress_bar()
    task = progress.add_task(study.name, total=study.total_games)

    def start() -> None:  # once every check has passed: nothing is printed before
        _announce(study, out, jobs, backend, scheduler)
        left = unfinished_arms(study, out)
        if backend == "joblib":
            compile_first(left, err, jobs, warm_hint(study))
        elif todo := to_compile(left):  # a Dask cluster's workers have their own caches
            err.print(cluster_notice(list(todo), warm_hint(study)), markup=False,
                      highlight=False, soft_wrap=True)  # fmt: skip
        progress.start()

    def update(done: int, total: int, played: int) -> None:
        progress.update(task, completed=done)

    try:
        with stopped_by_signals():
            summary = run_study(
                study, out, jobs=jobs, backend=backend, scheduler=scheduler, on_progress=update,
                size=size, on_start=start,
            )  # fmt: skip
    except KeyboardInterrupt:
        if progress.live.is_started:
            progress.stop()
        err.print(f"interrupted: finished chunks are kept in {out}; run the same command to resume")
        raise SystemExit(130) from None
    finally:
        if progress.live.is_started:
            progress.stop()
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


def with_run_options(fn):
    for opt in reversed(_run_options):
        fn = opt(fn)
    return fn


@cli.command()
@click.argument("game")
@click.option("--players", "-p", type=int, required=True, help=players_help())
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
    type=OutPath(),
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
@with_run_options
@allow_code_option
@game_options
def simulate(
    game, players, n_games, specs, seed, out, chunk_size, decisions, engine, jobs, backend,
    scheduler, allow_code, **given,
) -> None:  # fmt: skip
    """Simulate games in parallel and write a Parquet dataset (resumable: rerun to continue)."""
    from sims.core.study import parse_study

    arm = arm_dict(game, players, specs, n_games, seed, given, engine)
    data = {
        "name": study_name(out),
        "seed": seed,
        "chunk_size": chunk_size,
        "decisions": decisions,
        "arms": [arm],
    }
    study = parse_study(data, source="command line", allow_code=allow_code)
    run(study, out, jobs, backend, scheduler)


def study_name(out: Path) -> str:
    """A study name from an output folder's name (``x run`` → ``x-run``)."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", out.name).strip("-.")[: MAX_NAME - 4]
    return name if name and name[0].isalnum() else f"run-{name}".rstrip("-")


@cli.command()
@click.argument("study_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=OutPath(),
    default=None,
    help="Dataset directory (default: data/<study name>).",
)
@click.option(
    "--size",
    default=None,
    metavar="NAME",
    help="One of the study's sizes (e.g. quick): scales every arm's games.",
)
@click.option(
    "--check",
    is_flag=True,
    help="Only validate the study (every block, strategy, data file and rule option) and "
    "print what it would play; play nothing, write nothing.",
)
@with_run_options
@allow_code_option
def study(
    study_file: Path,
    out: Path | None,
    size: str | None,
    check: bool,
    jobs: int,
    backend: str,
    scheduler: str | None,
    allow_code: bool,
) -> None:
    """Run every arm of a study file (validated first) into a Parquet dataset; rerun to resume.

    \b
    Examples:
      slicelab study studies/nyslice-balance.toml --jobs 2 --size quick
      slicelab study my-study.toml --check
    """
    from sims.core.study import load_study

    the_study = load_study(study_file, size, allow_code)
    if check:
        describe_study(the_study)
        return
    run(the_study, out or Path("data") / the_study.name, jobs, backend, scheduler, size)


def describe_study(the_study) -> None:
    """What a validated study would play, in one line per game and a closing line."""
    by_game: dict[str, list] = {}
    for arm in the_study.arms:
        by_game.setdefault(arm.game, []).append(arm)
    for game, arms in by_game.items():
        blocks = len({a.group or a.name for a in arms})
        counts = ", ".join(str(n) for n in sorted({a.players for a in arms}))
        console.print(
            f"{get_game(game).info.title}: {blocks} blocks, {len(arms):,} arms, "
            f"{sum(a.games for a in arms):,} games at {counts} players"
        )
    label = the_study.variant.get("label")
    if label:
        console.print(f"variant: {label}")
    console.print(
        f"ok: {the_study.source} is valid (study {the_study.name!r}, seed {the_study.seed}, "
        f"{the_study.total_games:,} games); nothing played"
    )


@cli.command()
@click.argument("game")
@click.option(
    "--data",
    "data_file",
    default=None,
    metavar="FILE",
    help="The variant's data file, whichever the game has (the same as its own flag: "
    + ", ".join(
        f"{g.info.title} {o.flag}"
        for g in all_games()
        for o in g.options
        if g.info.balance is not None and o.key == g.info.balance.data and o.flag
    )
    + ").",
)
@game_options
@click.option(
    "--size",
    default=None,
    metavar="NAME",
    help="Write the study at one of the shipped study's sizes (e.g. quick); default: at "
    "its own size, keeping its sizes.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=2**32 - 1),
    default=None,
    help="The study's seed (default: the shipped study's); the perturbed data files are "
    "drawn from it.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    metavar="STUDY.toml",
    help="The study file to write (its derived data files go in STUDY-data/ beside it).",
)
@click.option("--force", is_flag=True, help="Overwrite the study and its data files.")
def plan(
    game: str,
    data_file: Path | None,
    size: str | None,
    seed: int | None,
    out: Path,
    force: bool,
    **given,
) -> None:
    """Write a balance study of your own variant of GAME: the game's shipped balance study
    with every block playing your data file and rule options, its robustness blocks drawn
    around your variant (perturbed copies of your data file, where the game has a
    perturbation), and, for a rule change, what-if blocks comparing it with the default
    rules on the same deals.

    \b
    Examples:
      cp sims/games/nyslice/data/reconstructed_v1.toml my-deck.toml   # then edit it
      slicelab plan nyslice --deck my-deck.toml --out my-study.toml
      slicelab plan pieceocake --rule exact_pieces=true --out cake-exact.toml
      slicelab study my-study.toml --check
      slicelab study my-study.toml --jobs 2 --size quick
    """
    from sims.core.plan import plan_study, write_plan

    the_game = get_game(game)
    balance = the_game.info.balance
    key = balance.data if balance is not None else None
    own = {o.key: o for o in the_game.options if o.flag}
    flags = {o.key: o.flag for g in all_games() for o in g.options if o.flag}
    data, flag = (str(data_file), "--data") if data_file is not None else (None, None)
    rules: dict = {}
    items: tuple[str, ...] = ()
    for opt_key, value in given.items():
        if value is None or value == ():
            continue
        mine = ", ".join([o.flag for o in own.values()] + (["--data"] if key else []))
        if opt_key not in own:
            raise SlicelabError(
                f"{flags[opt_key]} is not an option of {the_game.info.title}; its options: {mine}"
            )
        opt = own[opt_key]
        if opt.kind == "table":
            rules = {**rules, **_pairs(opt.flag, value)}
            items = tuple(value)
        elif opt_key == key:
            if data is not None:
                raise SlicelabError(f"give the variant's {key} once: {opt.flag} or --data, not "
                                    "both")  # fmt: skip
            data, flag = str(value), opt.flag
        else:
            raise SlicelabError(
                f"{opt.flag}: slicelab plan varies the game's data file and rule options only; "
                f"{the_game.info.title}'s: {mine}"
            )
    own_flag = next((o.flag for o in own.values() if o.key == key), None)
    planned = plan_study(game, out, data, rules, flag=flag or own_flag, rule_items=items,
                         size=size, seed=seed, force=force)  # fmt: skip
    written = write_plan(planned)
    the_study = planned.study
    blocks = len({a.group or a.name for a in the_study.arms})
    console.print(f"wrote {out}: the {the_game.info.title} balance study of the variant")
    console.print(f"  {the_study.variant['label']}")
    console.print(
        f"  {blocks} blocks, {len(the_study.arms):,} arms, {the_study.total_games:,} games, "
        f"seed {the_study.seed}"
    )
    if len(written) > 1:
        folder = written[0].parent
        console.print(f"  {len(written) - 1} data file(s) derived from the variant in {folder}")
    console.print(f"next: slicelab study {out} --check")


@cli.command()
@click.argument(
    "study_files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path)
)
@click.option(
    "--size", default=None, metavar="NAME", help="One of the studies' sizes (e.g. quick)."
)
@_run_options[0]
@allow_code_option
def warm(study_files: tuple[Path, ...], size: str | None, jobs: int, allow_code: bool) -> None:
    """Compile the kernels the studies play, a game per process (largest study first), so
    that their runs load them from numba's cache instead of compiling on every worker."""
    from sims.core.study import load_study
    from sims.warm import plan as warm_plan
    from sims.warm import warm as warm_kernels

    check_jobs(jobs)
    studies = [load_study(f, size, allow_code) for f in study_files]
    cold = to_compile(a for arms in warm_plan(studies).values() for a in arms)
    with announced(list(cold), err, jobs, hint=None):
        done = warm_kernels(studies, jobs)
    for w in done:
        console.print(f"{w.game}: kernel ready ({len(w.arms)} arm(s) played a game) in "
                      f"{w.seconds:.0f} s ({w.cpu_seconds:.0f} s CPU)")  # fmt: skip
    if not done:
        console.print("no arm of these studies plays on a compiled kernel: nothing to compile")


def compile_tuning(game: str, players: int, specs, field: str, seed: int, jobs: int) -> None:
    """:func:`compile_first` for tuning runs: each spec in one seat, ``field`` in the others."""
    from sims.arena import rotation_arms

    arms = [rotation_arms(game, spec, field, players, 1, seed)[0] for spec in specs]
    compile_first(arms, err, jobs)


def tuning_options(fn):
    """The options of a tuning run, shared by ``tune`` and ``exploit``."""
    options = [
        click.option("--players", "-p", type=int, required=True, help=players_help()),
        click.option(
            "--family",
            default=None,
            help="Strategy family to tune (default: the game's first family with parameter "
            "ranges; `slicelab strategies GAME` lists them).",
        ),  # fmt: skip
        click.option(
            "--field",
            "field_spec",
            default="greedy",
            show_default=True,
            help="Strategy in the other seats.",
        ),  # fmt: skip
        click.option(
            "--candidates",
            type=click.IntRange(min=2),
            default=16,
            show_default=True,
            help="Parameter sets in the first round of successive halving.",
        ),  # fmt: skip
        click.option(
            "--games",
            "n_games",
            type=click.IntRange(min=1),
            default=200,
            show_default=True,
            help="Seat-rotated games per candidate in the first round (doubling each round).",
        ),  # fmt: skip
        click.option(
            "--validation-games",
            type=click.IntRange(min=10),
            default=2000,
            show_default=True,
            help="Fresh games on which the winner is measured.",
        ),  # fmt: skip
        click.option(
            "--seed",
            type=click.IntRange(min=0, max=2**32 - 1),
            default=1,
            show_default=True,
            help="Seed of the sampling and the games.",
        ),  # fmt: skip
        click.option(
            "--jobs",
            "-j",
            type=click.IntRange(min=1),
            default=1,
            show_default=True,
            help="Worker processes.",
        ),  # fmt: skip
    ]
    for opt in reversed(options):
        fn = opt(fn)
    return fn


@cli.command()
@click.argument("game")
@tuning_options
@click.option(
    "--save-preset",
    default=None,
    metavar="NAME",
    help="Store the winner as a named preset of the family, in your own presets file (the "
    "shipped names, such as New York Slice's heuristic-eqN, are reserved).",
)
@format_option
def tune(
    game, players, family, field_spec, candidates, n_games, validation_games, seed, jobs,
    save_preset, fmt,
) -> None:  # fmt: skip
    """Search a strategy family's parameters for the best win share against a field
    (--format csv or json: the winner as one row, its parameters and validation)."""
    from sims.tune import tunable_family
    from sims.tune import tune as run_tune

    the_game = get_game(game)
    check_jobs(jobs)
    one_arm(arm_dict(game, players, field_spec, 1, seed, {}), seed)  # validates field, count
    family = tunable_family(game, family)
    if save_preset:
        the_game.check_preset(family, save_preset)  # before the tuning, not after
    compile_tuning(game, players, [family], field_spec, seed, jobs)

    def show(i, pool, games):
        best = pool[0]
        err.print(
            f"round {i}: {len(pool)} candidates after {games:,} games each; "
            f"best {best.share:.1%}: {best.spec}"
        )

    result = run_tune(
        game, players, field_spec, family, candidates, n_games, validation_games, seed, jobs,
        on_round=show,
    )  # fmt: skip
    if fmt == "table":
        console.print(
            f"best {family} at {players} players vs {field_spec}: {result.best.spec}\n"
            f"win share on {result.validation_games:,} fresh seat-rotated games "
            f"(seed {result.validation_seed}): {result.share:.1%} "
            f"[95% CI {result.low:.1%}, {result.high:.1%}] (fair share {result.fair:.1%})"
        )
    else:
        row = {
            "game": game, "players": players, "field": field_spec, "family": family,
            "spec": result.best.spec, "params": dict(result.best.params),
            "validation_games": result.validation_games,
            "validation_seed": result.validation_seed, "win_share": result.share,
            "win_low": result.low, "win_high": result.high, "fair_share": result.fair,
        }  # fmt: skip
        write_rows([row], list(row), fmt)
    if save_preset:
        note = (
            f"tuned vs {field_spec} at {players} players: {result.share:.3f} "
            f"[{result.low:.3f}, {result.high:.3f}] on {result.validation_games} games, seed {seed}"
        )
        path = the_game.save_preset(family, save_preset, result.best.params, note)
        # with csv or json, stdout holds the row alone
        (console if fmt == "table" else err).print(
            f"saved preset {save_preset!r}" + (f" in {path}" if path else "")
        )


@cli.command()
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--quick", is_flag=True, help="Compare sizes only, not every file's SHA-256.")
def verify(out: Path, quick: bool) -> None:
    """Check a dataset's files against its manifest: every recorded file present, of its
    recorded size and SHA-256, and no file the manifest does not record. Exit status 1
    when something differs (`slicelab repair` mends it)."""
    import time

    from sims import dataset

    t0 = time.perf_counter()
    m = dataset.read_manifest(out)
    found = dataset.problems(out, m, deep=not quick)
    seconds = time.perf_counter() - t0
    done = [c for c in m["chunks"] if c["files"] is not None]
    files = [f for c in done for f in c["files"].values()]
    size = sum(f["bytes"] for f in files)
    games = sum(c["count"] for c in done)
    state = (
        "complete" if m["complete"] else f"incomplete ({len(done)} of {len(m['chunks'])} chunks)"
    )
    how = "sizes" if quick else "sizes and SHA-256"
    console.print(
        f"{out}: study {m['study_name']!r}, {state}; {games:,} games in {len(files):,} files "
        f"({size / 1e6:,.1f} MB), {how} checked in {seconds:.2f} s"
    )
    for p in found:
        console.print(f"  {p}")
    if found:
        err.print(f"{len(found)} problem(s); `slicelab repair {out}` re-plays the damaged chunks")
        raise SystemExit(1)
    console.print("ok: every file matches the manifest")


@cli.command()
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@with_run_options
@allow_code_option
def repair(out: Path, jobs: int, backend: str, scheduler: str | None, allow_code: bool) -> None:
    """Mend a dataset: delete the files of damaged chunks and files it does not record
    (and the chunks a damaged line of chunks.log recorded, a file where a table folder
    belongs), then re-play exactly those chunks (the same games, by their seeds; data files
    that moved or changed since are read from the manifest's copies)."""
    from sims import dataset
    from sims.batch import repair as run_repair

    dataset.read_manifest(out, mending=True)  # an unreadable manifest: an error before the bar

    def compile_left(study) -> None:  # the kernels of the chunks to re-play, with the notice
        progress.stop()
        compile_first(unfinished_arms(study, out), err, jobs, warm_hint(study))
        progress.start()

    with progress_bar() as progress:
        task = progress.add_task(f"repair {out.name}", total=None)

        def update(done: int, total: int, played: int) -> None:
            progress.update(task, completed=done, total=total)

        try:
            with stopped_by_signals():
                found, summary = run_repair(out, jobs, backend, scheduler, allow_code, update,
                                            compile_left)  # fmt: skip
        except KeyboardInterrupt:
            err.print(f"interrupted: run `slicelab repair {out}` again to finish")
            raise SystemExit(130) from None
    for p in found:
        console.print(f"  removed {p.path} ({p.what})")
    console.print(
        f"{len(found)} problem(s) mended; {summary.games_played:,} games re-played; "
        f"{out} matches its manifest"
    )


EXPLOIT_COLUMNS = (
    # the spec wraps between its parameters; the numbers stay whole on one line
    Column("spec", "finalist (chosen on its own fresh deals)", justify="left", wrap=True,
           text=lambda r: r["spec"].replace(",", ", ")),
    Column("win_share", "win share", text=lambda r: f"{r['win_share']:.1%}"),
    Column("gain_pp", "gain (pp)", text=lambda r: f"{r['gain_pp']:+.1f}"),
    Column("low_pp", "95% CI", text=lambda r: f"[{r['low_pp']:+.1f}, {r['high_pp']:+.1f}]"),
    Column("deals", text=lambda r: f"{r['deals']:,}"),
)  # fmt: skip
"""The finalists' table of ``slicelab exploit``."""


@cli.command()
@click.argument("game")
@tuning_options
@click.option(
    "--also", multiple=True, metavar="SPEC",
    help="Another deviating spec to try besides the tuned family (repeatable), e.g. "
    "'search(budget=16)'.",
)  # fmt: skip
@format_option
def exploit(
    game, players, family, field_spec, candidates, n_games, validation_games, seed, jobs, also,
    fmt,
) -> None:  # fmt: skip
    """How much one seat gains by deviating from a field (every seat FIELD): the family
    tuned against it (and any --also spec), measured on fresh seat-rotated deals
    (--format csv or json: one row per finalist, the best marked)."""
    from sims.exploit import exploitability
    from sims.tune import tunable_family

    check_jobs(jobs)
    one_arm(arm_dict(game, players, field_spec, 1, seed, {}), seed)  # validates field, count
    for spec in also:
        one_arm(arm_dict(game, players, spec, 1, seed, {}), seed)
    compile_tuning(game, players, [tunable_family(game, family), *also], field_spec, seed, jobs)

    def show(i, pool, games):
        err.print(f"round {i}: {len(pool)} candidates after {games:,} games each; "
                  f"best {pool[0].share:.1%}: {pool[0].spec}")  # fmt: skip

    res = exploitability(game, players, field_spec, family, tuple(also), candidates, n_games,
                         validation_games, seed, jobs, on_round=show)  # fmt: skip
    b = res.best

    def row(d, stage: str) -> dict:
        return {"game": game, "players": players, "field": field_spec, "family": res.family,
                "stage": stage, "spec": d.spec, "chosen": d.spec == b.spec, "deals": d.deals,
                "win_share": d.share, "gain_pp": d.gain_pp, "low_pp": d.low_pp,
                "high_pp": d.high_pp, "seed": res.seed if stage == "final" else None}  # fmt: skip

    # with --also the finalists are measured on deals of their own and the chosen one
    # again on fresh deals (the final row); without, the tuned family is the one row
    finalists = [row(d, "finalist") for d in res.finalists if d is not b]
    if fmt != "table":
        write_rows([*finalists, row(b, "final")], list(row(b, "final")), fmt)
    elif len(finalists) > 1:
        print_table(console, EXPLOIT_COLUMNS, finalists)
    # with csv or json, stdout holds the rows alone: the verdict goes to stderr
    (console if fmt == "table" else err).print(
        f"exploitability of {field_spec} at {players} players (family {res.family}"
        + (", also " + ", ".join(also) if also else "")
        + f"): {b.gain_pp:+.1f} pp "
        f"[95% CI {b.low_pp:+.1f}, {b.high_pp:+.1f}] over the fair share {1 / players:.1%}, "
        f"by {b.spec}, on {b.deals:,} fresh deals each played from every seat (seed {res.seed})"
    )


@cli.command()
@click.argument("game")
@tuning_options
@click.option("--iterations", type=click.IntRange(min=1), default=8, show_default=True,
              help="Best-response steps at most.")  # fmt: skip
@click.option("--step", type=click.FloatRange(min=0, max=1, min_open=True), default=0.5,
              show_default=True, help="How far the field moves to a best response.")  # fmt: skip
@click.option("--tolerance", type=click.FloatRange(min=0), default=2.0, show_default=True,
              help="Converged when the best deviation gains at most this (pp)...")  # fmt: skip
@click.option("--bound", type=click.FloatRange(min=0), default=3.0, show_default=True,
              help="...and its upper 95% bound is at most this (pp).")  # fmt: skip
@click.option(
    "--save-preset", default=None, metavar="NAME",
    help="Store the least exploitable field as a named preset of the family.",
)  # fmt: skip
@click.option("--also", multiple=True, metavar="SPEC",
              help="A deviation of another family measured against every field too "
                   "(repeatable), e.g. 'search(budget=4)': convergence asks it gain at most "
                   "--tolerance as well.")  # fmt: skip
def equilibrium(
    game, players, family, field_spec, candidates, n_games, validation_games, seed, jobs,
    iterations, step, tolerance, bound, save_preset, also,
) -> None:  # fmt: skip
    """Tune a family against itself (damped iterated best response) until no deviation in
    the family gains more than --tolerance; print each iteration's exploitability.
    --field, when given, is the starting field (the family with parameters, or a preset)."""
    from sims.equilibrium import self_play
    from sims.tune import tunable_family

    the_game = get_game(game)
    check_jobs(jobs)
    the_game.info.check_players(players)
    family = tunable_family(game, family)
    if save_preset:
        the_game.check_preset(family, save_preset)
    start = None
    if field_spec != "greedy":  # --field names the starting field: the family or a preset
        one_arm(arm_dict(game, players, field_spec, 1, seed, {}), seed)
        spec = parse_spec(field_spec)
        infos = {i.name: i for i in the_game.strategies()}
        info = infos.get(spec.name)
        if info is None or (spec.name != family and info.preset_of != family):
            raise SlicelabError(f"--field {field_spec!r} is not of the family {family!r}; "
                                f"start from {family}(...) or one of its presets")  # fmt: skip
        preset = dict(info.params) if info.preset_of else {}
        start = the_game.strategy_defaults(family, players) | preset | {
            k: float(v) for k, v in spec.params.items()}  # fmt: skip
    for spec in also:
        one_arm(arm_dict(game, players, spec, 1, seed, {}), seed)
    first_field = family if start is None else field_spec
    compile_tuning(game, players, [family, *also], first_field, seed, jobs)

    def show(it) -> None:
        b = it.exploit.best
        err.print(f"iteration {it.index}: field {it.field}\n  best deviation {b.spec}: "
                  f"{b.gain_pp:+.1f} pp [{b.low_pp:+.1f}, {b.high_pp:+.1f}]")  # fmt: skip

    res = self_play(game, players, family, start, iterations, step, tolerance, bound,
                    candidates, n_games, validation_games, seed=seed, jobs=jobs,
                    on_iteration=show, also=tuple(also))  # fmt: skip
    f = res.final
    console.print(
        f"{'converged' if res.converged else 'not converged'} after {len(res.iterations)} "
        f"iteration(s); least exploitable field: {f.field}, exploitability {f.gain_pp:+.1f} pp "
        f"[95% CI {f.exploit.best.low_pp:+.1f}, {f.high_pp:+.1f}] on {f.exploit.best.deals:,} "
        f"fresh deals"
    )
    if save_preset:
        lo = f.exploit.best.low_pp
        note = (f"self-play at {players} players, seed {seed}: exploitability "
                f"{f.gain_pp:+.2f} pp [{lo:+.2f}, {f.high_pp:+.2f}]")  # fmt: skip
        path = the_game.save_preset(family, save_preset, f.params, note)
        console.print(f"saved preset {save_preset!r}" + (f" in {path}" if path else ""))


BALANCE_COLUMNS = (
    Column("rank", text=lambda r: str(r["rank"])),
    Column("change", "change (held out on fresh deals)", justify="left", wrap=True),
    Column("size", text=lambda r: f"{r['size']:g}"),
    Column("status", "against the target"),
    Column("worst_pp", "largest edge (pp)", justify="left", wrap=True,
           text=lambda r: f"{r['worst_players']}p position {r['worst_position']}: "
           f"{r['worst_pp']:+.1f} [{r['worst_low_pp']:+.1f}, {r['worst_high_pp']:+.1f}]"),
    Column("by_count", "largest edge by count (pp)", justify="left", wrap=True),
    Column("checks", "other fields: largest edge (pp)", justify="left", wrap=True),
    Column("ladder", "skill gap (pp)", justify="left", wrap=True),
)  # fmt: skip
"""The ranked settings of ``slicelab balance``."""

KNOB_COLUMNS = (
    Column("knob", justify="left"),
    Column("values", justify="left", wrap=True),
    Column("printed", "printed rules"),
    Column("acts_at", "acts at"),
    Column("help", "what it changes", justify="left", wrap=True),
)  # fmt: skip
"""The table of ``slicelab balance GAME --list``."""


def _value(v) -> str:
    """A knob's value as a study file writes it (``true``, ``3``, ``remove``)."""
    return str(v).lower() if isinstance(v, bool) else str(v)


def _acts_text(knob, game: Game) -> str:
    """Where a knob changes anything, within the game's player range."""
    low = max(knob.min_players, game.info.min_players)
    high = min(knob.max_players or game.info.max_players, game.info.max_players)
    return f"{low} players" if low == high else f"{low}-{high} players"


def _counts(text: str) -> list[int]:
    """``2,4`` or ``2-4`` as player counts."""
    try:
        if "-" in text:
            low, high = (int(x) for x in text.split("-", 1))
            return list(range(low, high + 1))
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise SlicelabError(f"--players {text!r}: write player counts as 2,4 or 2-4") from None


@cli.command()
@click.argument("game")
@click.option(
    "--players",
    "-p",
    "counts",
    default=None,
    metavar="COUNTS",
    help="Player counts, e.g. 2,4 or 2-5: every setting is played at each.",
)
@click.option(
    "--knob",
    "knobs",
    multiple=True,
    metavar="NAME",
    help="A knob to change (repeatable); `slicelab balance GAME --list` lists them.",
)
@click.option(
    "--values",
    "values",
    multiple=True,
    metavar="NAME=V1,V2",
    help="Narrow a knob to these values (repeatable).",
)
@click.option(
    "--list",
    "list_knobs",
    is_flag=True,
    help="List the game's knobs (values, printed value, where they act) and stop.",
)
@click.option(
    "--field",
    "field_spec",
    default=None,
    help="Strategy in every seat (default: the game's main field).",
)
@click.option(
    "--tolerance",
    type=click.FloatRange(min=0, min_open=True),
    default=1.0,
    show_default=True,
    help="Target: every position within this many pp of fair.",
)
@click.option(
    "--candidates",
    type=click.IntRange(min=1),
    default=32,
    show_default=True,
    help="Settings in the first round (the whole grid when smaller).",
)
@click.option(
    "--component-bound",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="PP",
    help="Component target: every component the game's strategies can play without "
    "(New York Slice's specials, Horno's dish types) is worth within this many pp to a seat "
    "of the main field, at every count (a seat without it, every seat in turn, on fresh "
    "deals); off by default.",
)
@click.option(
    "--sampler",
    type=click.Choice(["grid", "tpe"]),
    default="grid",
    show_default=True,
    help="How the first round's settings are chosen from a larger grid: grid draws them "
    "at random; tpe has Optuna's TPE sampler propose them one at a time, each scored on "
    "the first round's deals before the next (for many knobs or values).",
)
@click.option(
    "--games",
    "n_games",
    type=click.IntRange(min=10),
    default=200,
    show_default=True,
    help="Games per count and setting in the first round (doubling each round).",
)
@click.option(
    "--finalists",
    type=click.IntRange(min=1),
    default=4,
    show_default=True,
    help="Settings measured on fresh deals when the halving stops.",
)
@click.option(
    "--held-out-games",
    type=click.IntRange(min=10),
    default=2000,
    show_default=True,
    help="Fresh games per count for each finalist and the base.",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0, max=2**32 - 1),
    default=1,
    show_default=True,
    help="Seed of the sampling and the games.",
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
    "--check-field",
    "check_fields",
    multiple=True,
    default=("greedy",),
    show_default=True,
    metavar="SPEC",
    help="Another field the finalists are measured in on the fresh deals "
    "(repeatable; 'none' for none): a setting is fair only when fair in every one, "
    "except a field weaker than the main one by more than 5 pp (its single seat among "
    "the main field, at every count), which is shown and vetoes nothing, as in the "
    "report's verdicts.",
)
@click.option(
    "--ladder-field",
    default="greedy",
    show_default=True,
    metavar="SPEC",
    help="Skill gap, a side effect: one seat of the main field among this field, "
    "on fresh deals; 'none' to skip.",
)
@click.option(
    "--state",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder the plays are kept in, to resume an interrupted run (default: "
    "data/balance/<game>-<a key of the arguments>).",
)
@click.option(
    "--write-study",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write a study file replaying the held-out check of the ranked settings.",
)
@format_option
@game_options
def balance(
    game, counts, knobs, values, list_knobs, field_spec, tolerance, candidates, n_games,
    finalists, held_out_games, seed, jobs, state, check_fields, ladder_field, write_study, fmt,
    sampler, component_bound, **given,
) -> None:  # fmt: skip
    """Find the smallest change to GAME's knobs (rule values, data-file numbers, a choice of
    data file) that makes every turn position fair within --tolerance at every count:
    successive halving over paired deals, then the finalists and the base measured on
    fresh deals; prints them ranked.
    Example: slicelab balance nyslice -p 2 --knob compensation.1 --games 100"""
    import hashlib
    import json

    from sims.balance import balance as run_balance
    from sims.balance import describe, knob_files, study_text
    from sims.core.knobs import find_knob

    the_game = get_game(game)
    if list_knobs:
        rows = [{"knob": k.name, "values": ", ".join(map(_value, k.values)),
                 "printed": _value(k.default), "acts_at": _acts_text(k, the_game),
                 "help": k.help} for k in the_game.knobs]  # fmt: skip
        emit(fmt, KNOB_COLUMNS, rows, console)
        return
    check_jobs(jobs)
    if not counts:
        raise SlicelabError("name the player counts, e.g. --players 2,4 (or --list the knobs)")
    players = _counts(counts)
    arm = arm_dict(game, players[0], the_game.info.main_field, 1, seed, given)
    own = {o.key for o in the_game.options}
    base = {k: v for k, v in arm.items() if k in own}
    narrowed = {}
    for item in values:
        if "=" not in item:
            raise SlicelabError(f"--values {item!r}: write NAME=V1,V2, e.g. --values supply=14,16")
        name, vals = item.split("=", 1)
        k = find_knob(the_game.knobs, name.strip(), the_game.info.title)
        narrowed[k.name] = [k.parse(v) for v in vals.split(",")]
    if state is None:
        key = hashlib.sha256(json.dumps([game, players, knobs, sorted(narrowed.items()),
                                         field_spec, base, n_games, candidates, finalists,
                                         held_out_games, seed], sort_keys=True,
                                        default=str).encode()).hexdigest()[:12]  # fmt: skip
        state = Path("data") / "balance" / f"{game}-{key}"

    def show(i, pool, games):
        err.print(f"round {i}: {len(pool)} settings after {games:,} games a count each; "
                  f"best largest edge {pool[0].selection_worst():.1f} pp: "
                  f"{describe(res_knobs(pool), base, pool[0].setting)}")  # fmt: skip

    def res_knobs(pool):
        return [find_knob(the_game.knobs, n, the_game.info.title) for n, _ in pool[0].setting]

    def start(settings: int) -> None:
        err.print(f"balance {the_game.info.title} at {', '.join(map(str, players))} players, "
                  f"field {field_spec or the_game.info.main_field}: {settings} settings; "
                  f"plays kept in {state} (rerun to resume)")  # fmt: skip

    check_fields = tuple(dict.fromkeys(f for f in check_fields if f not in ("none", field_spec)))
    res = run_balance(
        game, players, knobs, field_spec, base, tolerance, candidates, n_games, finalists,
        held_out_games, seed, jobs, state, narrowed, check_fields,
        None if ladder_field == "none" else ladder_field, on_round=show, on_start=start,
        sampler=sampler, component_bound=component_bound,
    )  # fmt: skip
    rows = []
    for i, m in enumerate(res.ranked):
        n, pos, e, lo, hi = m.worst_interval()
        rows.append({
            "rank": i + 1, "change": describe(res.knobs, res.base, m.setting),
            "size": m.size, "status": m.status(tolerance), "worst_players": n,
            "worst_position": pos, "worst_pp": e, "worst_low_pp": lo, "worst_high_pp": hi,
            "by_count": "; ".join(f"{c}p {h.edge[int(abs(h.edge).argmax())]:+.1f}"
                                  for c, h in m.held_out.items()),
            "checks": "; ".join(f"{f} {c}p {e.edge[int(abs(e.edge).argmax())]:+.1f}"
                                for (f, c), e in m.checks.items()) or "-",
            "ladder": "; ".join(f"{c}p {g:+.1f} [{lo:+.1f}, {hi:+.1f}]"
                                for c, (g, lo, hi) in m.ladder.items()) or "-",
            "settings": json.dumps(dict(m.setting), default=str),
            "held_out_games": res.held_out_games, "held_out_seed": res.held_out_seed,
        })  # fmt: skip
    if fmt != "table":
        write_rows(rows, list(rows[0]), fmt)
    else:
        print_table(console, BALANCE_COLUMNS, rows)
    b = res.best
    out = console if fmt == "table" else err
    n, pos, e, lo, hi = b.worst_interval()
    largest = (f"largest edge {n}p position {pos}: {e:+.1f} pp [{lo:+.1f}, {hi:+.1f}] on "
               f"{res.held_out_games:,} fresh games a count (interval corrected for picking "
               "the largest position)")  # fmt: skip
    status = b.status(tolerance)
    if res.no_change and status == "fair":
        out.print(f"no change needed: every position is within ±{tolerance:g} pp of fair at "
                  f"every count; {largest}")  # fmt: skip
    elif res.no_change and status == "unfair":
        out.print(f"no change found that helps: every setting tried leaves a position outside "
                  f"±{tolerance:g} pp, and none clearly does better than the game as it is; "
                  f"{largest}; try other knobs or values")  # fmt: skip
    elif res.no_change:
        out.print(f"no change shown to be needed: no setting is shown within ±{tolerance:g} "
                  f"pp and the game as it is is not shown outside it; {largest}; more "
                  "--held-out-games would tell")  # fmt: skip
    else:
        bn, bpos, be, blo, bhi = res.base_measured.worst_interval()
        missed = ", ".join("the main field" if f == "main" else "the skill gap" if
                           f == "skill gap" else "a component's worth" if f == "components"
                           else f"the {f} field" for f in b.missed_in(tolerance))  # fmt: skip
        target = f"the ±{tolerance:g} pp target"
        how = {"fair": f"within {target}", "unclear": f"not shown outside {target}",
               "unfair": f"the closest found, still outside {target} in {missed}",
               }[status]  # fmt: skip
        out.print(f"recommended: {describe(res.knobs, res.base, b.setting)} ({how}): "
                  f"{largest}; unchanged: {bn}p position {bpos} {be:+.1f} pp "
                  f"[{blo:+.1f}, {bhi:+.1f}]")  # fmt: skip
    if b.ladder:
        was = res.base_measured.ladder
        gaps = [f"{c}p {g:+.1f} pp [{lo:+.1f}, {hi:+.1f}] (as it is: {was[c][0]:+.1f})"
                for c, (g, lo, hi) in b.ladder.items()]  # fmt: skip
        lost = f"; narrower than as it is at {b.ladder_lost}" if b.ladder_lost else ""
        out.print(f"skill gap ({res.field} in one seat among {ladder_field}; a target, kept "
                  f"unless clearly narrower{lost}): " + "; ".join(gaps))  # fmt: skip
    if (top := b.largest_component()) is not None:
        c, n, w, lo, hi = top
        base_top = res.base_measured.largest_component()
        was = f" (as it is: {base_top[0]} at {base_top[1]}p {base_top[2]:+.1f})" if base_top else ""
        out.print(f"component target (±{component_bound:g} pp): the most valuable is {c} at {n}p, "
                  f"{w:+.1f} pp [{lo:+.1f}, {hi:+.1f}]{was}")  # fmt: skip
    for spec, by in res.check_gaps.items():
        gains = "; ".join(f"{c}p {g:+.1f} pp [{lo:+.1f}, {hi:+.1f}]" for c, (g, lo, hi)
                          in by.items())  # fmt: skip
        role = ("weak: its edges are shown and veto nothing" if spec in res.weak_checks
                else "its edges veto")  # fmt: skip
        out.print(f"the {spec} field's strength (one seat among {res.field}): {gains}; {role}")
    if res.refused:
        first, why = next(iter(res.refused.items()))
        err.print(f"{len(res.refused)} setting(s) the rules refuse left out, e.g. "
                  f"{describe(res.knobs, res.base, first)}: {why}")  # fmt: skip
    kept = res.games_played - res.games_new
    err.print(f"cost: {res.games_played:,} games"
              + (f" ({kept:,} of them kept from an earlier run)" if kept else "")
              + f", {res.seconds:.0f} s "
              f"(seed {seed}; fresh deals seed {res.held_out_seed})")  # fmt: skip
    if write_study:
        import shlex

        from sims.dataset import atomic_write

        command = shlex.join(["slicelab", *sys.argv[1:]])
        target = Path(write_study)
        files = knob_files(res)
        data_dir = f"{target.stem}-data" if files else ""
        target.parent.mkdir(parents=True, exist_ok=True)  # a new folder is made, as --out
        if files:
            (target.parent / data_dir).mkdir(parents=True, exist_ok=True)
        for f in files:  # the data knobs' files, beside the study: it stands alone
            atomic_write(target.parent / data_dir / f.name, f.read_bytes())
        text = study_text(res, f"balance-{game}", command, data_dir)
        atomic_write(write_study, text.encode())
        shipped = f" and its data files in {target.parent / data_dir}" if files else ""
        err.print(f"study file: {write_study}{shipped} (slicelab study {write_study} replays "
                  "the check)")  # fmt: skip


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="slicelab")


if __name__ == "__main__":
    sys.exit(main())
