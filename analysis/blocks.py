"""What a study block plays, read from a dataset's manifest, for any game: its arms, its
player counts, its strategies, the spec of its field and of its candidate seat.

A block is the arm block of the study file an arm was expanded from (the arm's ``group``,
or its own name for an arm that was not expanded).
"""

from __future__ import annotations


def block_arms(manifest: dict, group: str) -> list[dict]:
    """The manifest arms of a study block, in study order."""
    return [a for a in manifest["study"]["arms"] if a.get("group", a["name"]) == group]


def has_block(manifest: dict, group: str) -> bool:
    """Whether the study has the block ``group``."""
    return bool(block_arms(manifest, group))


def present(manifest: dict, blocks: dict[str, str]) -> dict[str, str]:
    """The entries (name → block) of ``blocks`` whose block the study has, in order."""
    return {name: b for name, b in blocks.items() if has_block(manifest, b)}


def block_counts(manifest: dict, group: str) -> list[int]:
    """The player counts a block plays, ascending."""
    return sorted({a["players"] for a in block_arms(manifest, group)})


def block_specs(manifest: dict, group: str) -> list[str]:
    """The distinct strategy specs of a block, in seat order of first appearance."""
    specs: dict[str, None] = {}
    for a in block_arms(manifest, group):
        specs.update(dict.fromkeys(a["strategies"]))
    return list(specs)


def field_spec(manifest: dict, group: str) -> str | None:
    """The spec of a block's field: every seat of a uniform block; in a rotated block the
    seats other than the candidate's (``seat == rotation``)."""
    for a in block_arms(manifest, group):
        rot = a.get("rotation", 0)
        others = [s for k, s in enumerate(a["strategies"]) if k != rot]
        return others[0] if others else a["strategies"][0]
    return None


def candidate_spec(manifest: dict, group: str) -> str | None:
    """The candidate's spec (the seat ``rotation``) of a block's first arm."""
    for a in block_arms(manifest, group):
        return a["strategies"][a.get("rotation", 0)]
    return None
