"""Every notebook in notebooks/ runs top to bottom on the quick balance study.

Each notebook is executed by nbclient in a fresh ``python3`` kernel, from ``notebooks/``,
with ``SLICELAB_DATA`` pointing at the session's quick dataset of the notebook's game
(``quick_dataset`` in conftest.py; Piece o' Cake's notebook gets
``pieceocake_quick_dataset``, Pizza Theory's ``pizzatheory_quick_dataset``, Horno's
``horno_quick_dataset``, the what-to-change notebook ``what_to_change_quick_dataset``),
fewer
bootstrap resamples and replayed games (``SMALL``: the notebooks read ``SLICELAB_NBOOT``
and ``SLICELAB_PAYOFF_GAMES``) and matplotlib's Agg backend; any cell error fails the test.
The ``python3`` kernel spec is written for this interpreter into a temporary directory
placed first on ``JUPYTER_PATH``, so the test needs nothing beyond ``pip install -e
'.[dev]'`` and never picks up a user-level ``python3`` kernel that runs another Python.
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
EXPECTED = (
    "01-seat-advantage",
    "02-special-strength",
    "03-eat-or-collect",
    "04-player-count",
    "05-strategy-ratings",
    "06-sample-size",
    "07-pieceocake",
    "08-pizzatheory",
    "09-horno",
    "10-what-to-change",
)
"""One notebook per balance question; new notebooks are picked up by the glob below."""
CELL_TIMEOUT = 120  # seconds per cell
SMALL = {"SLICELAB_NBOOT": "10", "SLICELAB_PAYOFF_GAMES": "20"}
"""Fewer bootstrap resamples and replayed games than a reader's run: the cells' code is the
same (ten resamples still give every interval and every gap its quantiles; the
Plackett-Luce refits of 40 took a quarter of the notebook tests' time), the quick
dataset's intervals are wide anyway."""


def _notebooks() -> list[Path]:
    return sorted(NOTEBOOKS.glob("*.ipynb"))


@pytest.fixture(scope="session")
def jupyter_path(tmp_path_factory) -> str:
    """A Jupyter data directory holding a ``python3`` kernel spec for this interpreter."""
    from ipykernel.kernelspec import write_kernel_spec

    data_dir = tmp_path_factory.mktemp("jupyter")
    write_kernel_spec(data_dir / "kernels" / "python3")  # argv: sys.executable -m ipykernel
    return str(data_dir)


def test_every_question_has_a_notebook_stored_without_outputs():
    found = {p.stem for p in _notebooks()}
    assert set(EXPECTED) <= found, f"missing notebooks: {sorted(set(EXPECTED) - found)}"
    for path in _notebooks():
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        code = [c for c in nb.cells if c.cell_type == "code"]
        dirty = [i for i, c in enumerate(code) if c.outputs or c.execution_count is not None]
        assert not dirty, (
            f"{path.name}: code cells {dirty} (0-based) are stored with outputs or execution "
            "counts; clear all outputs before committing (JupyterLab: Edit > Clear Outputs "
            "of All Cells)"
        )
        assert "SLICELAB_DATA" in code[0].source, (
            f"{path.name}: the first code cell should read DATA from SLICELAB_DATA"
        )


def _dataset(path: Path, request) -> Path:
    """The quick dataset of the notebook's game: Piece o' Cake's or Pizza Theory's for a
    notebook named after it, New York Slice's balance study for the others."""
    if "pieceocake" in path.stem:
        return request.getfixturevalue("pieceocake_quick_dataset")
    if "pizzatheory" in path.stem:
        return request.getfixturevalue("pizzatheory_quick_dataset")
    if "horno" in path.stem:
        return request.getfixturevalue("horno_quick_dataset")
    if "what-to-change" in path.stem:
        return request.getfixturevalue("what_to_change_quick_dataset")
    return request.getfixturevalue("quick_dataset")


@pytest.mark.parametrize("path", _notebooks(), ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path, request, jupyter_path, monkeypatch):
    # Found first by the kernel manager nbclient creates (read when it is created).
    paths = [jupyter_path, os.environ.get("JUPYTER_PATH", "")]
    monkeypatch.setenv("JUPYTER_PATH", os.pathsep.join(p for p in paths if p))
    env = {**os.environ, "SLICELAB_DATA": str(_dataset(path, request)), "MPLBACKEND": "Agg",
           **SMALL}  # fmt: skip
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name="python3",
        timeout=CELL_TIMEOUT,
        resources={"metadata": {"path": str(NOTEBOOKS)}},  # the kernel's working directory
    )
    client.execute(env=env)  # raises CellExecutionError, with the cell's traceback
