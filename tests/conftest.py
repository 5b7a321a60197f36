"""Shared fixtures: the default balance studies at their `quick` size, run once per session
(for all xdist workers together);
and a private ``SLICELAB_HOME`` (user presets) for the session and for each test, so no
test reads or writes the presets of the user running them."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

os.environ["SLICELAB_HOME"] = tempfile.mkdtemp(prefix="slicelab-home-")  # subprocesses too

ROOT = Path(__file__).resolve().parent.parent
BALANCE = ROOT / "studies" / "nyslice-balance.toml"


def study_once(tmp_path_factory, study: Path, size: str) -> Path:
    """A study at a size, simulated once per test session and shared by every xdist
    worker: the first worker to ask plays it under a lock, the others wait and read it
    (building it in each worker would play it twice on a 2-core machine). Tests must not
    write into it (copy it first)."""
    from filelock import FileLock

    from sims.batch import run_study
    from sims.core.study import load_study

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the session's folder, shared by the workers
    the_study = load_study(study, size)
    out = base / "studies" / the_study.name
    done = out.parent / f"{the_study.name}.done"
    out.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(out.parent / f"{the_study.name}.lock")):
        if not done.exists():
            run_study(the_study, out, jobs=2)
            done.touch()
    return out


@pytest.fixture(scope="session")
def quick_dataset(tmp_path_factory) -> Path:
    """`studies/nyslice-balance.toml --size quick`, simulated once per session."""
    return study_once(tmp_path_factory, BALANCE, "quick")


@pytest.fixture(scope="session")
def pieceocake_quick_dataset(tmp_path_factory) -> Path:
    """`studies/pieceocake-balance.toml --size quick`, simulated once per session."""
    return study_once(tmp_path_factory, ROOT / "studies" / "pieceocake-balance.toml", "quick")


@pytest.fixture(scope="session")
def pizzatheory_quick_dataset(tmp_path_factory) -> Path:
    """`studies/pizzatheory-balance.toml --size quick`, simulated once per session."""
    return study_once(tmp_path_factory, ROOT / "studies" / "pizzatheory-balance.toml", "quick")


@pytest.fixture(scope="session")
def horno_quick_dataset(tmp_path_factory) -> Path:
    """`studies/horno-balance.toml --size quick`, simulated once per session."""
    return study_once(tmp_path_factory, ROOT / "studies" / "horno-balance.toml", "quick")


@pytest.fixture(autouse=True)
def _private_slicelab_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("SLICELAB_HOME", str(tmp_path_factory.mktemp("slicelab-home")))
