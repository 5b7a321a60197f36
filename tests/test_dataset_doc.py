"""Every column the runner writes is documented in docs/dataset.md."""

import re
from pathlib import Path

import pytest

from sims.batch import play_tables
from sims.core.game import REGISTRY, get_game
from sims.core.study import parse_study
from sims.dataset import LAYOUT_COLUMNS

DOC = (Path(__file__).resolve().parents[1] / "docs" / "dataset.md").read_text()


def _documented(section: str) -> set[str]:
    body = DOC.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_0-9]+)` \|", body, flags=re.M))


def test_every_column_is_documented():
    arm = {"name": "a", "game": "nyslice", "players": 3, "strategies": "greedy", "games": 2}
    data = {"seed": 1, "arms": [arm]}
    arm = parse_study(data).arms[0]
    tables = play_tables(arm, 0, 2, decisions=True)
    layout = set(LAYOUT_COLUMNS)
    assert _documented("Layout columns") == layout
    for name, table in tables.items():
        assert set(table.column_names) == _documented(f"`{name}`") | layout, name
        # arm first, game and players last (the order a hive-partitioned read gave)
        assert table.column_names[:1] + table.column_names[-2:] == ["arm", "game", "players"]


def _typed_rows(body: str) -> dict[str, str]:
    """``column -> type`` from a section's table rows ``| `a`, `b` | type | ... |``."""
    out = {}
    for cols, kind in re.findall(r"^\| ((?:`[a-z_0-9]+`(?:, )?)+) \| ([a-z0-9<>]+) \|", body,
                                 flags=re.M):  # fmt: skip
        for c in re.findall(r"`([a-z_0-9]+)`", cols):
            out[c] = kind
    return out


def _arrow_name(t) -> str:
    import pyarrow as pa

    if pa.types.is_list(t):
        return f"list<{_arrow_name(t.value_type)}>"
    return {"large_string": "string", "double": "float64"}.get(str(t), str(t))


@pytest.mark.parametrize("game", list(REGISTRY))
def test_every_documented_column_type_is_the_type_written(game):
    """The types docs/dataset.md gives are the types the game writes (derived from its
    declared limits, so a limit raised must be documented with its wider column)."""
    info = get_game(game).info
    arm = {"name": "a", "game": game, "players": info.min_players, "strategies": "random",
           "games": 2}  # fmt: skip
    arm = parse_study({"seed": 1, "arms": [arm]}).arms[0]
    tables = play_tables(arm, 0, 2, decisions=False)
    title = "New York Slice" if game == "nyslice" else info.title
    own = DOC.split(f"## {title}'s own columns", 1)
    layout = _typed_rows(DOC.split("## Layout columns", 1)[1].split("\n## ", 1)[0])
    for table in ("games", "players"):
        shared = DOC.split(f"## `{table}`", 1)[1].split("\n## ", 1)[0]
        documented = {**layout, **_typed_rows(shared)}
        if len(own) == 2:
            body = own[1].split("\n## ", 1)[0]
            part = body.split(f"`{table}`:", 1)
            if len(part) == 2:
                documented.update(_typed_rows(part[1].split("\n\n`", 1)[0]))
        written = {f.name: _arrow_name(f.type) for f in tables[table].schema}
        wrong = {c: (k, written[c]) for c, k in documented.items()
                 if c in written and written[c] != k}  # fmt: skip
        assert not wrong, f"{game} {table}: documented vs written types {wrong}"
