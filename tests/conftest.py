"""Shared fixtures: the default balance study at its `quick` size, run once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

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
