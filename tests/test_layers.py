"""The layer contracts, for every game on disk: a game added tomorrow is covered the day it
is added, without editing a list.

``lint-imports`` (``make test`` runs it first) checks the contracts in ``pyproject.toml``;
this test finds the games itself — every package under ``sims/games`` and ``analysis`` —
and checks the same layers on the import graph (grimp, import-linter's engine), and that
the contracts name every game it found.
"""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def packages(parent: str) -> list[str]:
    """The subpackages of ``parent`` (folders with an ``__init__.py``), dotted."""
    folder = ROOT.joinpath(*parent.split("."))
    return sorted(f"{parent}.{p.name}" for p in folder.iterdir() if (p / "__init__.py").is_file())


def modules(parent: str) -> list[str]:
    """The plain modules of ``parent`` (``*.py`` files beside its ``__init__``), dotted."""
    folder = ROOT.joinpath(*parent.split("."))
    return sorted(f"{parent}.{p.stem}" for p in folder.glob("*.py") if p.stem != "__init__")


GAMES = packages("sims.games")
GAME_ANALYSES = packages("analysis")
GENERIC_ANALYSES = modules("analysis")
SHARED_GAME_MODULES = modules("sims.games")
CORE = [*packages("sims"), *modules("sims")]
CORE = [m for m in CORE if m != "sims.games"]


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("sims", "analysis")


def chain(graph, importer: str, imported: str) -> bool:
    return graph.chain_exists(importer=importer, imported=imported, as_packages=True)


def test_the_games_are_found():
    names = {g.rsplit(".", 1)[1] for g in GAMES}
    assert {"nyslice", "pieceocake", "pizzatheory", "horno"} <= names
    assert {g.rsplit(".", 1)[1] for g in GAME_ANALYSES} <= names


@pytest.mark.parametrize(("a", "b"), list(itertools.permutations(GAMES, 2)))
def test_no_game_imports_another(graph, a, b):
    assert not chain(graph, a, b), f"{a} imports {b}: lift what they share into sims.games"


@pytest.mark.parametrize("module", [*CORE, *SHARED_GAME_MODULES, *GENERIC_ANALYSES])
def test_shared_layers_know_no_game(graph, module):
    for game in [*GAMES, *GAME_ANALYSES]:
        assert not chain(graph, module, game), f"{module} imports {game}"


@pytest.mark.parametrize("game", GAMES)
def test_the_simulator_never_imports_analysis(graph, game):
    assert not chain(graph, game, "analysis")


def test_the_import_linter_contracts_name_every_game():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    by_name = {c["name"]: c for c in contracts}
    independent = next(c for c in contracts if c["type"] == "independence")["modules"]
    assert set(GAMES) <= set(independent)
    generic = by_name["the generic analyses know no game"]
    assert set(GENERIC_ANALYSES) <= set(generic["source_modules"])
    assert set(GAME_ANALYSES) <= set(generic["forbidden_modules"])
