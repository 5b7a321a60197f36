"""Shared fixtures: the default balance study at its `quick` size, run once per session;
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


@pytest.fixture(scope="session")
def quick_dataset(tmp_path_factory) -> Path:
    """`studies/nyslice-balance.toml --size quick` simulated into a temporary directory."""
    from sims.batch import run_study
    from sims.core.study import load_study

    out = tmp_path_factory.mktemp("balance") / "nyslice-balance-quick"
    run_study(load_study(BALANCE, "quick"), out, jobs=2)
    return out


@pytest.fixture(autouse=True)
def _private_slicelab_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("SLICELAB_HOME", str(tmp_path_factory.mktemp("slicelab-home")))
