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
def nyslice_quick_results(quick_dataset):
    """New York Slice's report analyses of :func:`quick_dataset` (``analysis.report.compute``
    with 20 replayed games per count and 200 bootstrap resamples), computed once per
    worker. tests/test_report.py (its report's pages, ``slicelab report STUDY``) and
    tests/games/nyslice/test_nyslice_report.py read them, both in the ``nyslice-report``
    xdist group, so on one worker. Before, the seats section's test computed two of its
    sections again and ``slicelab report STUDY`` all of them (with other sampling options:
    some 12 s of CPU that checked nothing more). Tests must not change them."""
    from analysis.report import compute

    return compute(quick_dataset, payoff_games=20, n_boot=200)


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


@pytest.fixture(scope="session")
def what_to_change_quick_dataset(tmp_path_factory) -> Path:
    """`studies/pieceocake-what-to-change.toml --size quick` (the check `slicelab balance`
    wrote), simulated once per session."""
    return study_once(
        tmp_path_factory, ROOT / "studies" / "pieceocake-what-to-change.toml", "quick"
    )


@pytest.fixture(autouse=True)
def _private_slicelab_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("SLICELAB_HOME", str(tmp_path_factory.mktemp("slicelab-home")))


# --------------------------------------------------------------------------------------
# Scheduling on pytest-xdist workers (`make test`: -n JOBS --dist loadgroup)
# --------------------------------------------------------------------------------------

VARIANT = (
    "tests/test_variant_report.py::test_a_planned_variant_study_gets_a_report_naming_the_variant"
)
NOTEBOOK = "tests/test_notebooks.py::test_notebook_runs_top_to_bottom"
NYS_KERNEL = "tests/games/nyslice/test_nyslice_kernel.py::"

SLOW_FIRST = (
    f"{VARIANT}[nyslice]",
    f"{NOTEBOOK}[02-special-strength]",
    f"{VARIANT}[pieceocake]",
    f"{NOTEBOOK}[05-strategy-ratings]",
    f"{NOTEBOOK}[06-sample-size]",
    f"{NYS_KERNEL}test_kernel_agrees_with_reference_heuristic[6]",
    f"{NOTEBOOK}[03-eat-or-collect]",
    "tests/games/horno/test_horno_search.py::test_search_beats_greedy",
    f"{NYS_KERNEL}test_kernel_agrees_with_reference_heuristic[5]",
    f"{VARIANT}[horno]",
    "tests/games/nyslice/test_nyslice_search.py::test_search_beats_the_heuristic_field",
    "tests/test_batch.py::test_killed_run_resumes_to_the_uninterrupted_result",
    NOTEBOOK,
    f"{NYS_KERNEL}test_kernel_agrees_with_reference_heuristic[4]",
    f"{NYS_KERNEL}test_kernel_search_agrees_with_reference_search",
    "tests/games/horno/test_horno_search.py::test_search_beats_random",
    f"{NYS_KERNEL}test_kernel_agrees_heuristic_under_rulings",
    f"{NYS_KERNEL}test_cut_search_equals_reference_cut_scores",
    "tests/games/nyslice/test_nyslice_avoid.py::test_planted_truth_stuffed_crust_is_worth_having",
    "tests/games/nyslice/test_nyslice_generated.py::test_generated_decks_play_alike_on_both_engines",
    f"{NYS_KERNEL}test_kernel_search_with_restricted_seats_agrees",
)
"""Node id prefixes of the longest single tests (5 to 45 s of CPU each, measured with
``--durations``), longest first. The workers collect them first, so the scheduler starts
them first and neither worker is left running one while the other has finished.
``--dist loadgroup`` hands out the ``xdist_group`` groups of several tests first, the
largest (most tests) first, then every other test in collection order, a group of one test
among them: the planned variant's report of each game (its own group) came last in the
collection, and the worker left with New York Slice's (45 s) finished a minute after the
other."""


def _slow_rank(nodeid: str) -> int:
    return next((i for i, p in enumerate(SLOW_FIRST) if nodeid.startswith(p)), len(SLOW_FIRST))


def _xdist_group(item) -> str:
    """The item's ``xdist_group`` name(s), as pytest-xdist joins them ("" for none)."""
    names = {str(m.args[0] if m.args else m.kwargs.get("name", "default"))
             for m in item.iter_markers("xdist_group")}  # fmt: skip
    return "_".join(sorted(names))


def _keep_group(item) -> bool:
    """Make ``--dist loadgroup`` see the item's group; False if it cannot.

    pytest-xdist appends ``@group`` to a grouped test's id (``item._nodeid``), which its
    scheduler reads to send a group to one worker. pytest 9.2 builds ``item.nodeid`` from a
    structured id instead, so the suffix is lost and a group's tests are spread over the
    workers, each setting up the group's module fixtures: New York Slice's report analysis
    ran twice (pytest-dev/pytest-xdist#1386). Give the item a copy of its id whose string
    form carries the suffix (its fields, which pytest compares, unchanged).
    """
    group = _xdist_group(item)
    if not group or item.nodeid.endswith(f"@{group}"):
        return True  # no group, or xdist's own suffix took (pytest < 9.2, a fixed xdist)
    try:
        import dataclasses

        node_id = dataclasses.replace(item._id)
        object.__setattr__(node_id, "_str_cache", f"{item.nodeid}@{group}")
        item._id = node_id
    except (AttributeError, TypeError, ValueError):
        return False
    return item.nodeid.endswith(f"@{group}")


@pytest.hookimpl(trylast=True)  # after pytest-xdist's own hook, which appends the group
def pytest_collection_modifyitems(config, items):
    """On an xdist worker: collect :data:`SLOW_FIRST` first, and keep ``xdist_group``
    groups together under ``--dist loadgroup`` (:func:`_keep_group`)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    items.sort(key=lambda item: _slow_rank(item.nodeid))  # stable: the rest keep their order
    if getattr(config.option, "loadgroup", False):
        lost = [item.nodeid for item in items if not _keep_group(item)]
        if lost:
            import warnings

            warnings.warn(
                f"--dist loadgroup cannot keep the xdist_group of {len(lost)} tests (e.g. "
                f"{lost[0]}) on one worker: their module fixtures run on every worker",
                pytest.PytestWarning,
                stacklevel=1,
            )
