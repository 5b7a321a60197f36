"""Every column the runner writes is documented in docs/dataset.md."""

import re
from pathlib import Path

from sims.batch import play_tables
from sims.core.study import parse_study

DOC = (Path(__file__).resolve().parents[1] / "docs" / "dataset.md").read_text()


def _documented(section: str) -> set[str]:
    body = DOC.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_0-9]+)` \|", body, flags=re.M))


def test_every_column_is_documented():
    arm = {"name": "a", "game": "nyslice", "players": 3, "strategies": "greedy", "games": 2}
    data = {"seed": 1, "arms": [arm]}
    arm = parse_study(data).arms[0]
    tables = play_tables(arm, 0, 2, decisions=True)
    for name, table in tables.items():
        assert set(table.column_names) == _documented(f"`{name}`"), name
    assert _documented("Partition columns") == {"game", "players", "arm"}
