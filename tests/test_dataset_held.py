"""``dataset.held``: a reader that reads one dataset many times (a report) checks it once.
A dataset damaged before the hold is refused at its first read inside it, and after the
hold every read checks again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from analysis.load import manifest, scan
from sims import dataset
from sims.batch import run_study
from sims.core.study import parse_study

STUDY = {
    "name": "held", "seed": 3, "chunk_size": 5,
    "arms": [{"name": "a", "game": "pieceocake", "players": 3, "strategies": "random",
              "games": 10}],
}  # fmt: skip


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("held") / "ds"
    run_study(parse_study(STUDY), out)
    return out


def _damage(out: Path) -> None:
    victim = sorted((out / "players").rglob("*.parquet"))[0]
    victim.write_bytes(victim.read_bytes()[:-7] + b"garbage")


def test_inside_a_hold_the_signature_is_taken_once(clean, monkeypatch):
    taken = []
    real = dataset._signature
    monkeypatch.setattr(dataset, "_signature", lambda out: taken.append(out) or real(out))
    dataset._checked.clear()
    with dataset.held(clean):
        first = manifest(clean)
        for _ in range(5):
            assert manifest(clean) == first
            scan(clean, "players")
        with dataset.held(clean):  # nested: still the outer hold's
            manifest(clean)
    assert len(taken) == 1
    manifest(clean)  # after the hold: checked again
    assert len(taken) == 2


def test_a_damaged_dataset_is_refused_in_and_after_a_hold(clean, tmp_path):
    out = tmp_path / "ds"
    shutil.copytree(clean, out)
    _damage(out)
    with dataset.held(out), pytest.raises(dataset.DatasetError, match="altered"):
        manifest(out)
    with pytest.raises(dataset.DatasetError, match="altered"):
        manifest(out)
    # a hold that began on a sound dataset ends with it: the next reader checks again
    sound = tmp_path / "sound"
    shutil.copytree(clean, sound)
    with dataset.held(sound):
        manifest(sound)
    _damage(sound)
    with pytest.raises(dataset.DatasetError, match="altered"):
        manifest(sound)
