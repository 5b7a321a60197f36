"""The ``slicelab`` command line."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import polars as pl
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from sims import __version__
from sims.core.errors import SlicelabError
from sims.core.registry import GAMES, get_game
from sims.core.specs import _value, split_specs

# Wide enough for the summary table when output is piped (rich defaults to 80 columns).
console = Console(width=None if sys.stdout.isatty() else 132)


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


def _setup(game: str, deck_path: Path | None, rule_items: tuple[str, ...]):
    get_game(game)
    from sims.games.nyslice.deck import load_deck
    from sims.games.nyslice.rules import Rules

    overrides = {}
    for item in rule_items:
        if "=" not in item:
            raise SlicelabError(
                f"--rule {item!r}: write NAME=VALUE, e.g. --rule veggies_edible_later=true"
            )
        key, val = item.split("=", 1)
        overrides[key.strip()] = _value(val.strip())
    return load_deck(deck_path), Rules.from_dict(overrides)


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
    from sims.games.nyslice.strategies import STRATEGIES

    table = Table("strategy", "parameters (default)", "summary")
    for info in STRATEGIES.values():
        params = ", ".join(f"{k}={v}" for k, v in info.params.items()) or "-"
        table.add_row(info.name, params, info.summary)
    console.print(table)


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


def _run_batch(
    players: int, specs: list[str], seed: int, n_games: int, the_deck, the_rules, label: str
) -> pl.DataFrame:
    from sims.batch import player_rows

    columns = [
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    ]
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=n_games)
        rows = list(
            player_rows(
                players,
                specs,
                seed,
                range(n_games),
                the_deck,
                the_rules,
                on_game=lambda: progress.advance(task),
            )
        )
    return pl.DataFrame(rows)


def _print_summary(rows: pl.DataFrame, title: str) -> None:
    from analysis.summary import COMPONENTS, seat_summary

    summary = seat_summary(rows)
    table = Table(title=title)
    heads = [
        "players",
        "seat",
        "strategy",
        "games",
        "win",
        "95% CI",
        "majorities",
        "specials",
        "diet",
        "pepperoni",
        "anchovies",
        "total",
    ]
    for col in heads:
        table.add_column(col, justify="left" if col == "strategy" else "right", no_wrap=True)
    for r in summary.iter_rows(named=True):
        table.add_row(
            str(r["players"]),
            str(r["seat"]),
            r["strategy"],
            str(r["games"]),
            f"{r['win_share']:.1%}",
            f"{r['win_low']:.1%}–{r['win_high']:.1%}",
            *[f"{r[c]:.2f}" for c in COMPONENTS],
        )
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
@_game_options
def play(
    game: str,
    players: int,
    n_games: int,
    seed: int,
    specs: str,
    deck: Path | None,
    rules: tuple[str, ...],
) -> None:
    """Play a batch of games with the reference engine and print a per-seat summary."""
    the_deck, the_rules = _setup(game, deck, rules)
    from sims.games.nyslice.game import seat_strategies

    names = [str(s.spec) for s in seat_strategies(split_specs(specs), players)]
    rows = _run_batch(players, names, seed, n_games, the_deck, the_rules, f"{players} players")
    _print_summary(rows, f"New York Slice — {n_games} games, seed {seed} (reference engine)")


@cli.command()
@click.argument("game", default="nyslice")
@click.option(
    "--games",
    "n_games",
    type=click.IntRange(min=1),
    default=300,
    show_default=True,
    help="Games per player count.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Study seed.")
@click.option(
    "--strategies", "specs", default="greedy", show_default=True, help="Strategy for every seat."
)
def demo(game: str, n_games: int, seed: int, specs: str) -> None:
    """Play a batch at every player count (2-6) and print win share and mean score by seat."""
    the_deck, the_rules = _setup(game, None, ())
    frames = []
    for players in range(2, 7):
        frames.append(
            _run_batch(
                players, [specs] * players, seed, n_games, the_deck, the_rules, f"{players} players"
            )
        )
    _print_summary(
        pl.concat(frames),
        f"New York Slice — {n_games} games per player count, all seats {specs}, seed {seed}",
    )
    console.print(
        "Win share counts a shared win as 1/k; intervals are Wilson 95%. "
        "Seats slice in order 0, 1, ...; at 4 players seats 0 and 1 slice twice."
    )


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="slicelab")


if __name__ == "__main__":
    sys.exit(main())
