"""The layer contracts, for every game on disk: a game added tomorrow is covered the day it
is added, without editing a list.

``lint-imports`` (``make test`` runs it first) checks the contracts in ``pyproject.toml``;
this test finds the games itself — every package under ``sims/games`` and ``analysis`` —
and checks the same layers on the import graph (grimp, import-linter's engine), and that
the contracts name every game it found.

The checks are plain functions of a source root and its import graph, so the last tests
run them on a copy of the tree with a stub fifth game that imports another game, and a
generic analysis that imports the stub's analysis, and show each check catches it.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def packages(parent: str, root: Path = ROOT) -> list[str]:
    """The subpackages of ``parent`` (folders with an ``__init__.py``), dotted."""
    folder = root.joinpath(*parent.split("."))
    return sorted(f"{parent}.{p.name}" for p in folder.iterdir() if (p / "__init__.py").is_file())


def modules(parent: str, root: Path = ROOT) -> list[str]:
    """The plain modules of ``parent`` (``*.py`` files beside its ``__init__``), dotted."""
    folder = root.joinpath(*parent.split("."))
    return sorted(f"{parent}.{p.stem}" for p in folder.glob("*.py") if p.stem != "__init__")


@dataclass(frozen=True)
class Layers:
    """The layers of the tree under ``root``, found on disk."""

    games: list[str]
    game_analyses: list[str]
    generic_analyses: list[str]
    shared_game_modules: list[str]
    core: list[str]

    @classmethod
    def found_in(cls, root: Path) -> Layers:
        core = [*packages("sims", root), *modules("sims", root)]
        return cls(
            games=packages("sims.games", root),
            game_analyses=packages("analysis", root),
            generic_analyses=modules("analysis", root),
            shared_game_modules=modules("sims.games", root),
            core=[m for m in core if m != "sims.games"],
        )

    @property
    def shared(self) -> list[str]:
        """The modules that must know no game: the core, sims.games' own, the generic
        analyses."""
        return [*self.core, *self.shared_game_modules, *self.generic_analyses]

    @property
    def game_specific(self) -> list[str]:
        return [*self.games, *self.game_analyses]

    @property
    def game_pairs(self) -> list[tuple[str, str]]:
        return list(itertools.permutations(self.games, 2))


LAYERS = Layers.found_in(ROOT)
GAMES = LAYERS.games
GAME_ANALYSES = LAYERS.game_analyses
GENERIC_ANALYSES = LAYERS.generic_analyses
SHARED_GAME_MODULES = LAYERS.shared_game_modules
CORE = LAYERS.core


# The checks: each returns the violations it finds, empty when the layers hold.


def chain(graph, importer: str, imported: str) -> bool:
    return graph.chain_exists(importer=importer, imported=imported, as_packages=True)


def games_importing_games(graph, pairs) -> list[tuple[str, str]]:
    """The ``(a, b)`` of ``pairs`` where game ``a`` imports game ``b``."""
    return [(a, b) for a, b in pairs if chain(graph, a, b)]


def shared_modules_importing_games(graph, shared, games) -> list[tuple[str, str]]:
    """The ``(module, game)`` where a shared ``module`` imports a game or game analysis."""
    return [(m, g) for m in shared for g in games if chain(graph, m, g)]


def games_importing_analysis(graph, games) -> list[str]:
    """The games that import ``analysis``."""
    return [g for g in games if chain(graph, g, "analysis")]


def names_missing_from_contracts(root: Path, layers: Layers) -> list[tuple[str, str, str]]:
    """The ``(contract, field, module)`` for every module found on disk that the
    import-linter contracts in ``root/pyproject.toml`` should name and do not."""
    contracts = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    by_name = {c["name"]: c for c in contracts}
    independence = next(c for c in contracts if c["type"] == "independence")
    generic = by_name["the generic analyses know no game"]
    required = [
        (independence, "modules", layers.games),
        (generic, "source_modules", layers.generic_analyses),
        (generic, "forbidden_modules", layers.game_analyses),
    ]
    return [
        (contract["name"], field, module)
        for contract, field, found in required
        for module in found
        if module not in contract[field]
    ]


# The layers of this tree.


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("sims", "analysis")


def test_the_games_are_found():
    names = {g.rsplit(".", 1)[1] for g in GAMES}
    assert {"nyslice", "pieceocake", "pizzatheory", "horno"} <= names
    assert {g.rsplit(".", 1)[1] for g in GAME_ANALYSES} <= names


@pytest.mark.parametrize(("a", "b"), LAYERS.game_pairs)
def test_no_game_imports_another(graph, a, b):
    assert not games_importing_games(graph, [(a, b)]), (
        f"{a} imports {b}: lift what they share into sims.games"
    )


@pytest.mark.parametrize("module", LAYERS.shared)
def test_shared_layers_know_no_game(graph, module):
    assert not shared_modules_importing_games(graph, [module], LAYERS.game_specific)


@pytest.mark.parametrize("game", GAMES)
def test_the_simulator_never_imports_analysis(graph, game):
    assert not games_importing_analysis(graph, [game])


def test_the_import_linter_contracts_name_every_game():
    assert not names_missing_from_contracts(ROOT, LAYERS)


# The same checks on a copy of the tree, untouched and with a stub fifth game.

STUB = "fifthgame"

BUILD_GRAPH = """
import importlib.util, json, sys
import grimp
origins = {p: importlib.util.find_spec(p).origin for p in ("sims", "analysis")}
graph = grimp.build_graph("sims", "analysis", cache_dir=None)
imports = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
json.dump({"origins": origins, "imports": imports}, sys.stdout)
"""


def copy_tree(dest: Path) -> Path:
    """Copy the ``*.py`` files of ``sims`` and ``analysis`` (keeping their folders) and
    ``pyproject.toml`` into ``dest``."""
    for package in ("sims", "analysis"):
        for source in (ROOT / package).rglob("*.py"):
            if "__pycache__" in source.parts:
                continue
            target = dest / source.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    shutil.copyfile(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def add_stub_game(root: Path) -> None:
    """A fifth game that imports another game, its (empty) analysis package, and a
    generic analysis that imports it: not yet named by the contracts."""
    game = root / "sims" / "games" / STUB
    game.mkdir()
    (game / "__init__.py").write_text('"""A stub fifth game."""\n')
    (game / "plugin.py").write_text(
        '"""Borrows from another game instead of sims.games."""\n\n'
        "from sims.games.nyslice import plugin\n\n"
        "PLUGIN = plugin\n"
    )
    analysis = root / "analysis" / STUB
    analysis.mkdir()
    (analysis / "__init__.py").write_text('"""The stub fifth game\'s analyses."""\n')
    (root / "analysis" / "zz_generic.py").write_text(
        '"""A generic analysis that knows a game."""\n\nimport analysis.fifthgame\n'
    )


def graph_of(root: Path):
    """The import graph of the tree under ``root``, built by grimp in a subprocess (so
    this process imports nothing from the copy) and rebuilt here."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", BUILD_GRAPH],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    built = json.loads(out)
    for package, origin in built["origins"].items():
        assert Path(origin).is_relative_to(root), f"{package} came from {origin}, not the copy"
    graph = grimp.ImportGraph()
    for module in built["imports"]:
        graph.add_module(module)
    for importer, imported in built["imports"].items():
        for module in imported:
            graph.add_import(importer=importer, imported=module)
    return graph


def violations(root: Path, graph) -> dict[str, list]:
    """Every check on the tree under ``root``."""
    layers = Layers.found_in(root)
    return {
        "games importing games": games_importing_games(graph, layers.game_pairs),
        "shared modules importing games": shared_modules_importing_games(
            graph, layers.shared, layers.game_specific
        ),
        "games importing analysis": games_importing_analysis(graph, layers.games),
        "names missing from contracts": names_missing_from_contracts(root, layers),
    }


@pytest.fixture(scope="module")
def untouched(tmp_path_factory):
    root = copy_tree(tmp_path_factory.mktemp("untouched"))
    return root, graph_of(root)


@pytest.fixture(scope="module")
def with_stub(tmp_path_factory):
    root = copy_tree(tmp_path_factory.mktemp("with_stub"))
    add_stub_game(root)
    return root, graph_of(root)


def test_the_untouched_copy_has_the_same_graph_and_no_violation(graph, untouched):
    root, copied = untouched
    assert Layers.found_in(root) == LAYERS
    assert copied.modules == graph.modules
    for module in graph.modules:
        assert copied.find_modules_directly_imported_by(
            module
        ) == graph.find_modules_directly_imported_by(module), module
    assert violations(root, copied) == {
        "games importing games": [],
        "shared modules importing games": [],
        "games importing analysis": [],
        "names missing from contracts": [],
    }


def test_a_stub_fifth_game_is_covered_the_day_it_is_added(with_stub):
    root, graph = with_stub
    layers = Layers.found_in(root)
    assert f"sims.games.{STUB}" in layers.games
    assert f"analysis.{STUB}" in layers.game_analyses
    assert "analysis.zz_generic" in layers.generic_analyses
    assert violations(root, graph) == {
        "games importing games": [(f"sims.games.{STUB}", "sims.games.nyslice")],
        "shared modules importing games": [("analysis.zz_generic", f"analysis.{STUB}")],
        "games importing analysis": [],
        "names missing from contracts": [
            (
                "each game stands alone (shared machinery lives in sims.games' own modules)",
                "modules",
                f"sims.games.{STUB}",
            ),
            ("the generic analyses know no game", "source_modules", "analysis.zz_generic"),
            ("the generic analyses know no game", "forbidden_modules", f"analysis.{STUB}"),
        ],
    }
