"""The pizza board as data: its spaces, which spaces are next to which, and for each of the
three cut directions its six parallel lines, read from a TOML file a user can replace.

The real board's layout is not public (``docs/rules/pizzatheory.md``, "What is known and what
is assumed about the board"), so the board is a file, ``data/boards/hex-37.toml`` is the
ruled default, and the other files in ``data/boards`` are plausible alternatives the
analyses compare.

Ids and numbering
-----------------
Space ids are the order of the file's ``spaces`` list. Direction ``d`` (0, 1, 2) is the cut
direction of turn position ``d + 1``; its lines ``k`` = 0..5 are the rulebook's lines 1-6,
nearest to that position's side first. A line is stored as the set of spaces on its *near*
side (the position's side) as a bitmask, bit ``i`` for space ``i``; the lines of one direction
are parallel, so each near side holds the previous one's. Messages count from 1 as the
rulebook does (position 1, line 1, entry 1); the API counts from 0.

The file format
---------------
::

    name = "hex-37"
    description = "..."                      # optional
    spaces = ["3,0,-3", "3,-1,-2", ...]      # names, in id order
    [adjacency]                              # every space: its neighbours (mutual)
    "3,0,-3" = ["3,-1,-2", "2,1,-3", "2,0,-2"]
    [[direction]]                            # exactly 3: turn positions 1, 2, 3
    start = ["3,0,-3", "3,-3,0"]             # the position's 2 X spaces
    lines = [["3,0,-3", ...], ...]           # 6 lines, nearest first: each one's near side

The hex boards (:func:`hex_board`) name a space by its cube coordinates ``"q,r,s"``
(``q + r + s = 0``) and list spaces by ``q`` descending, then ``r`` descending; the shipped
files are written by :func:`board_toml` (``python -m sims.games.pizzatheory.board``
regenerates them) and a test checks they still equal the generator's output.
"""

from __future__ import annotations

import hashlib
import json
import operator
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from importlib.resources.abc import Traversable
from itertools import product
from pathlib import Path
from typing import Any, Literal

import numpy as np

from sims.core.errors import DataFileError
from sims.core.limits import Limit
from sims.games.datafile import parse_toml, read_toml

# ------------------------------------------------------------------------ declared limits
# Every count a board file must respect, declared once here (with the rule options' in
# rules.py): the parser checks them at the door, the kernel sizes its arrays and the plugin
# its column types from them, and docs/rules/pizzatheory.md lists them (section "Data
# files"; ``rules.LIMITS`` is the plugin's ``data_limits``).

DIRECTIONS = Limit("directions", "[[direction]] tables", 3, 3,
                   "one per turn position, in order 1, 2, 3; the kernel keeps 3 "
                   "directions")  # fmt: skip
LINES = Limit("lines", "lines of a direction", 6, 6,
              "the numbers 1-6 on a player's die; the kernel's tables hold the 6 x 6 x 6 = 216 "
              "cut triples")  # fmt: skip
START = Limit("start", "X spaces of a position", 2, 2,
              "the rulebook's setup: two toppings of each colour start on the board")  # fmt: skip
SPACES = Limit("spaces", "spaces", LINES.high + 1, 255,
               "a direction's 6 nested lines each add a space, so 7 at least; at most 255 "
               "keeps a space id in one unsigned byte and the region table (216 x spaces) "
               "small")  # fmt: skip
REGIONS = Limit("regions", "regions of one cut triple", 2, 7,
                "each line splits the board, and three straight cuts make at most 7 regions "
                "(the 8th side pattern is the far side of a triangle), so more means a "
                "mistyped line; the kernel's region tables hold 7 per triple")  # fmt: skip

N_DIRECTIONS = DIRECTIONS.high
"""Cut directions, one per turn position."""
LINES_PER_DIRECTION = LINES.high
"""Parallel lines in each direction (the numbers 1-6 on a player's die)."""
START_PER_POSITION = START.high
"""X spaces of each turn position, filled at setup."""
MAX_SPACES = SPACES.high
"""Most spaces a board may have (a space id fits a byte; the region table stays small)."""
MAX_REGIONS = REGIONS.high
"""Most regions one cut triple makes (the kernel's region tables are this wide)."""
BOARD_LIMITS = (SPACES, DIRECTIONS, LINES, START, REGIONS)
"""The board file's declared limits, in the order the rules document lists them."""
DEFAULT_BOARD = "hex-37"
"""The ruled default board (``data/boards/hex-37.toml``)."""
HEX_LINE_OFFSETS = (2, 1, 0, -1, -2, -3)
"""The hex boards' lines, nearest first: line ``k`` of the direction of coordinate ``c``
is ``c = HEX_LINE_OFFSETS[k] + 1/2``. Symmetric about the centre, so every radius gets the
same six cuts and only the outer bands grow."""

_TOP_KEYS = ("name", "description", "spaces", "adjacency", "direction")
_DIRECTION_KEYS = ("start", "lines")
_N_CUTS = LINES_PER_DIRECTION**N_DIRECTIONS
_HEX_STEPS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


class BoardError(DataFileError):
    """A board file that cannot be used."""


@dataclass(frozen=True)
class _Tables:
    """What a board precomputes once for fast region look-ups (see :meth:`Board.arrays`)."""

    region_tuples: tuple[tuple[int, ...], ...]  # by cut index 36*a + 6*b + c
    region_counts: tuple[int, ...]
    arrays: dict[str, np.ndarray]


@dataclass(frozen=True)
class Board:
    """A pizza board: spaces, adjacency, three directions of six nested lines, X spaces.

    Build one with :func:`parse_board` (which validates); the fields are only what the file
    says, in id order.

    Attributes
    ----------
    name : str
        The board's name (a shipped board's is its file name without ``.toml``).
    labels : tuple of str
        Space names; the index is the space id.
    adjacency : tuple of tuple of int
        Each space's neighbours, ascending ids (mutual, never the space itself).
    lines : tuple of tuple of int
        ``lines[d][k]``: bitmask of the spaces on the near side of line ``k`` (0 nearest)
        of direction ``d`` (turn position ``d + 1``).
    start : tuple of (int, int)
        ``start[d]``: the two X spaces of turn position ``d + 1``, ascending.
    source : str
        The file it came from (for messages).
    description : str
        What the board is and why it is plausible.
    """

    name: str
    labels: tuple[str, ...]
    adjacency: tuple[tuple[int, ...], ...]
    lines: tuple[tuple[int, ...], ...]
    start: tuple[tuple[int, int], ...]
    source: str = f"{DEFAULT_BOARD}.toml"
    description: str = ""

    @property
    def n_spaces(self) -> int:
        """How many spaces the board has."""
        return len(self.labels)

    def __getstate__(self) -> dict[str, Any]:
        # Pickle (a worker process) and copy the fields only: the cached tables are rebuilt
        # on first use, and so come back read-only (numpy does not pickle that flag).
        return {k: v for k, v in self.__dict__.items() if k != "_tables"}

    @property
    def digest(self) -> str:
        """A hash of the board's content: spaces, adjacency, lines and X spaces (not its
        name, description or file)."""
        payload = json.dumps(
            {
                "spaces": list(self.labels),
                "adjacency": [list(a) for a in self.adjacency],
                "lines": [[_ids(m) for m in d] for d in self.lines],
                "start": [list(s) for s in self.start],
            },
            sort_keys=True,
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    def index(self, label: str) -> int:
        """The id of the space called ``label``.

        Raises
        ------
        KeyError
            If no space has that name.
        """
        try:
            return self.labels.index(label)
        except ValueError:
            raise KeyError(label) from None

    def regions(self, cuts: Sequence[int]) -> tuple[int, ...]:
        """The region of each space when each direction ``d`` cuts along line ``cuts[d]``.

        Spaces on the same side of all three lines share a region; regions are numbered
        0, 1, 2, ... in the order of their lowest space id (the rules replace toppings
        region by region in that order).

        Parameters
        ----------
        cuts : sequence of 3 ints
            One line index 0..5 per direction, in direction order.

        Raises
        ------
        ValueError
            If ``cuts`` is not three line indices.
        """
        return self._tables.region_tuples[_cut_index(cuts)]

    def region_count(self, cuts: Sequence[int]) -> int:
        """How many (non-empty) regions the three lines ``cuts`` make (4 to 7 on hex-37)."""
        return self._tables.region_counts[_cut_index(cuts)]

    def region_table(self) -> np.ndarray:
        """Every cut triple's regions: a read-only ``int8`` array of shape
        ``(6, 6, 6, n_spaces)``, ``[a, b, c, i]`` = the region of space ``i`` under cuts
        ``(a, b, c)`` (as :meth:`regions`)."""
        return self._tables.arrays["regions"]

    def arrays(self) -> dict[str, np.ndarray]:
        """The board as read-only numpy arrays, for compiled kernels.

        Returns
        -------
        dict
            A new dict (the arrays are shared and read-only):

            ``adjacency``
                ``int64 (n_spaces, max_degree)``: neighbour ids, ascending, padded with -1.
            ``degree``
                ``int64 (n_spaces,)``: neighbours of each space.
            ``near``
                ``bool (3, 6, n_spaces)``: ``[d, k, i]`` = space ``i`` is on the near side
                of line ``k`` of direction ``d``.
            ``start``
                ``int64 (3, 2)``: each position's X spaces.
            ``regions``
                ``int8 (6, 6, 6, n_spaces)``: :meth:`region_table`.
            ``n_regions``
                ``int8 (6, 6, 6)``: regions of each cut triple.
        """
        return dict(self._tables.arrays)

    @cached_property
    def _tables(self) -> _Tables:
        # Computed on first use and kept on the instance (a frozen dataclass still has a
        # __dict__); equality and hashing see only the fields.
        n = self.n_spaces
        near = np.zeros((N_DIRECTIONS, LINES_PER_DIRECTION, n), dtype=bool)
        for d, masks in enumerate(self.lines):
            for k, mask in enumerate(masks):
                near[d, k, _ids(mask)] = True
        # a space's signature: bit d set when it is on the near side of direction d's line
        sig = (
            near[0][:, None, None, :].astype(np.int8)
            + 2 * near[1][None, :, None, :].astype(np.int8)
            + 4 * near[2][None, None, :, :].astype(np.int8)
        ).reshape(_N_CUTS, n)
        table = np.empty((_N_CUTS, n), dtype=np.int8)
        counts = np.empty(_N_CUTS, dtype=np.int8)
        for t in range(_N_CUTS):
            values, first = np.unique(sig[t], return_index=True)
            # number the signatures in the order of their first (lowest) space id
            rank = np.empty(8, dtype=np.int8)
            rank[values[np.argsort(first)]] = np.arange(len(values), dtype=np.int8)
            table[t] = rank[sig[t]]
            counts[t] = len(values)
        degree = np.array([len(a) for a in self.adjacency], dtype=np.int64)
        adjacency = np.full((n, int(degree.max())), -1, dtype=np.int64)
        for i, nbrs in enumerate(self.adjacency):
            adjacency[i, : len(nbrs)] = nbrs
        arrays = {
            "adjacency": adjacency,
            "degree": degree,
            "near": near,
            "start": np.array(self.start, dtype=np.int64),
            "regions": table.reshape((LINES_PER_DIRECTION,) * N_DIRECTIONS + (n,)),
            "n_regions": counts.reshape((LINES_PER_DIRECTION,) * N_DIRECTIONS),
        }
        for a in arrays.values():
            a.setflags(write=False)
        return _Tables(tuple(tuple(row) for row in table.tolist()), tuple(counts.tolist()), arrays)


def _ids(mask: int) -> list[int]:
    """The space ids in a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _cut_index(cuts: Sequence[int]) -> int:
    try:
        a, b, c = (operator.index(x) for x in cuts)
    except (TypeError, ValueError):
        raise ValueError(
            f"cuts must be {N_DIRECTIONS} line indices (one per direction), got {cuts!r}"
        ) from None
    if not (0 <= a < LINES_PER_DIRECTION and 0 <= b < LINES_PER_DIRECTION
            and 0 <= c < LINES_PER_DIRECTION):  # fmt: skip
        raise ValueError(f"cuts {cuts!r}: each line index must be 0 to {LINES_PER_DIRECTION - 1}")
    return (a * LINES_PER_DIRECTION + b) * LINES_PER_DIRECTION + c


# --------------------------------------------------------------------------- parsing


def _fail(source: str, msg: str) -> BoardError:
    return BoardError(f"board {source}: {msg}")


def _show(value: Any) -> str:
    """A value for a message, cut short (a misplaced table can be long)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _name_list(
    value: Any, where: str, ids: dict[str, int], source: str, what: str = "a list of space names"
) -> list[int]:
    """The ids of a list of space names, refusing a non-list, a non-name, an unknown name
    and a name listed twice."""
    if not isinstance(value, list):
        raise _fail(source, f"{where} must be {what}, got {_show(value)}")
    out: list[int] = []
    seen: set[int] = set()
    for j, item in enumerate(value):
        if not isinstance(item, str):
            raise _fail(source, f"{where}: entry {j + 1} is {_show(item)}, not a space name "
                        "(names are strings)")  # fmt: skip
        if item not in ids:
            raise _fail(source, f"{where} names unknown space {item!r}; use a name from "
                        "'spaces'")  # fmt: skip
        if ids[item] in seen:
            raise _fail(source, f"{where} lists {item!r} twice; list each space once")
        seen.add(ids[item])
        out.append(ids[item])
    return out


def _mask(ids: Sequence[int]) -> int:
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def _parse_spaces(data: dict[str, Any], source: str) -> list[str]:
    spaces = data.get("spaces")
    if not isinstance(spaces, list) or not spaces:
        raise _fail(source, "needs 'spaces', a non-empty list of the space names in id order")
    SPACES.check(len(spaces), f"board {source}", BoardError)
    for j, s in enumerate(spaces):
        if not isinstance(s, str):
            raise _fail(source, f"spaces: entry {j + 1} is {_show(s)}, not a name (names are "
                        "strings)")  # fmt: skip
        if not s.strip():
            raise _fail(source, f"spaces: entry {j + 1} is blank; give every space a name")
        if s != s.strip():
            raise _fail(source, f"spaces: entry {j + 1} {s!r} has blanks around it; remove "
                        "them")  # fmt: skip
    dup = sorted({s for s in spaces if spaces.count(s) > 1})
    if dup:
        raise _fail(source, f"space name(s) {dup} appear more than once; each space needs "
                    "its own name")  # fmt: skip
    return spaces


def _parse_adjacency(
    data: dict[str, Any], spaces: list[str], ids: dict[str, int], source: str
) -> tuple[tuple[int, ...], ...]:
    table = data.get("adjacency")
    if not isinstance(table, dict):
        raise _fail(source, "needs an [adjacency] table giving each space's neighbours")
    for key in table:
        if key not in ids:
            raise _fail(source, f"[adjacency] has an entry for unknown space {key!r}; its keys "
                        "are names from 'spaces'")  # fmt: skip
    nbrs: list[list[int]] = []
    for s in spaces:
        if s not in table:
            raise _fail(source, f"[adjacency] has no entry for space {s!r}; list its "
                        "neighbours")  # fmt: skip
        where = f"adjacency of {s!r}"
        got = _name_list(table[s], where, ids, source)
        if ids[s] in got:
            raise _fail(source, f"{where} lists {s!r} itself; a space is not its own "
                        "neighbour")  # fmt: skip
        if not got:
            raise _fail(source, f"space {s!r} has no neighbours; every space needs at least "
                        "one")  # fmt: skip
        nbrs.append(got)
    for i, s in enumerate(spaces):
        for j in nbrs[i]:
            if i not in nbrs[j]:
                raise _fail(source, f"adjacency of {s!r} lists {spaces[j]!r} but that of "
                            f"{spaces[j]!r} does not list {s!r}; adjacency is mutual: add "
                            f"{s!r} to {spaces[j]!r}'s list or drop {spaces[j]!r} from "
                            f"{s!r}'s")  # fmt: skip
    # a pizza is one piece: every space must be reachable from space 0
    seen, todo = {0}, [0]
    while todo:
        for j in nbrs[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    if len(seen) < len(spaces):
        cut_off = [s for i, s in enumerate(spaces) if i not in seen]
        raise _fail(source, f"the board is not in one piece: {len(cut_off)} space(s) "
                    f"{_show(cut_off)} cannot be reached from {spaces[0]!r}; check their "
                    "[adjacency] entries")  # fmt: skip
    return tuple(tuple(sorted(a)) for a in nbrs)


def _parse_direction(
    entry: Any, d: int, spaces: list[str], ids: dict[str, int], source: str
) -> tuple[tuple[int, ...], tuple[int, int]]:
    where = f"direction {d + 1}"
    if not isinstance(entry, dict):
        raise _fail(source, f"{where} is not a table; write it as [[direction]] with "
                    "'start' and 'lines'")  # fmt: skip
    extra = sorted(set(entry) - set(_DIRECTION_KEYS))
    if extra:
        raise _fail(source, f"{where}: unknown key(s) {extra}; a direction has 'start' "
                    "and 'lines'")  # fmt: skip
    for key in _DIRECTION_KEYS:
        if key not in entry:
            raise _fail(source, f"{where} is missing '{key}'")
    start = _name_list(entry["start"], f"{where} start", ids, source,
                       f"a list of the position's {START_PER_POSITION} X spaces")  # fmt: skip
    if len(start) != START_PER_POSITION:
        raise _fail(source, f"{where}: 'start' lists {len(start)} space(s); a position has "
                    f"exactly {START_PER_POSITION} X spaces")  # fmt: skip
    raw_lines = entry["lines"]
    if not isinstance(raw_lines, list) or len(raw_lines) != LINES_PER_DIRECTION:
        got = len(raw_lines) if isinstance(raw_lines, list) else _show(raw_lines)
        raise _fail(source, f"{where}: 'lines' must list {LINES_PER_DIRECTION} lines (each "
                    f"its near side, nearest first), got {got}")  # fmt: skip
    everything = (1 << len(spaces)) - 1
    masks: list[int] = []
    for k, raw in enumerate(raw_lines):
        lw = f"{where} line {k + 1}"
        mask = _mask(_name_list(raw, lw, ids, source, "a list of the spaces on its near side"))
        if mask == 0:
            raise _fail(source, f"{lw} does not split the board: its near side is empty; list "
                        "the spaces between the position's side and the line")  # fmt: skip
        if mask == everything:
            raise _fail(source, f"{lw} does not split the board: its near side holds every "
                        "space; leave out the spaces beyond the line")  # fmt: skip
        if masks:
            prev = masks[-1]
            missing = prev & ~mask
            if missing:
                names = [spaces[i] for i in _ids(missing)]
                raise _fail(source, f"{lw} is not parallel to line {k}: its near side lacks "
                            f"{_show(names)} of line {k}'s; a direction's lines are nested, "
                            "each near side holds the previous one's")  # fmt: skip
            if mask == prev:
                raise _fail(source, f"{lw} has the same near side as line {k}; each line must "
                            "add at least one space to the previous one's")  # fmt: skip
        masks.append(mask)
    return tuple(masks), (min(start), max(start))


def parse_board(raw: dict[str, Any], source: str) -> Board:
    """Validate a board table (see the module docstring for the format).

    Parameters
    ----------
    raw : dict
        The file's table (as :func:`~sims.games.datafile.read_toml` returns it).
    source : str
        The file, for messages and :attr:`Board.source`.

    Raises
    ------
    BoardError
        ``"board <source>: ..."`` naming the problem and the fix.
    """
    if not isinstance(raw, dict):
        raise _fail(source, f"is not a table, got {_show(raw)}")
    unknown = sorted(set(raw) - set(_TOP_KEYS))
    if unknown:
        raise _fail(source, f"unknown key(s) {unknown}; a board has 'name', 'description', "
                    "'spaces', [adjacency] and [[direction]]")  # fmt: skip
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail(source, "needs a 'name' (a non-empty string)")
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise _fail(source, f"'description' must be a string, got {_show(description)}")
    spaces = _parse_spaces(raw, source)
    ids = {s: i for i, s in enumerate(spaces)}
    adjacency = _parse_adjacency(raw, spaces, ids, source)
    directions = raw.get("direction")
    if not isinstance(directions, list) or len(directions) != N_DIRECTIONS:
        got = f"{len(directions)}" if isinstance(directions, list) else "no"
        raise _fail(source, f"has {got} [[direction]] table(s); a board needs exactly "
                    f"{N_DIRECTIONS}, one per turn position in order 1, 2, 3")  # fmt: skip
    parsed = [_parse_direction(e, d, spaces, ids, source) for d, e in enumerate(directions)]
    owner: dict[int, int] = {}
    for d, (_, start) in enumerate(parsed):
        for i in start:
            if i in owner:
                raise _fail(source, f"space {spaces[i]!r} is an X space of both position "
                            f"{owner[i] + 1} and position {d + 1}; each X space belongs to "
                            "one position")  # fmt: skip
            owner[i] = d
    lines = tuple(masks for masks, _ in parsed)
    _check_straight(lines, (1 << len(spaces)) - 1, source)
    return Board(
        name=name.strip(),
        labels=tuple(spaces),
        adjacency=adjacency,
        lines=lines,
        start=tuple(start for _, start in parsed),
        source=source,
        description=description.strip(),
    )


def _check_straight(lines: tuple[tuple[int, ...], ...], everything: int, source: str) -> None:
    """Refuse lines no three straight cuts could make (:data:`REGIONS`): three lines cross
    in at most 7 regions (the 8th side pattern is the far side of a triangle, which is
    empty)."""
    for cuts in product(range(LINES_PER_DIRECTION), repeat=N_DIRECTIONS):
        sides = [(lines[d][k], everything & ~lines[d][k]) for d, k in enumerate(cuts)]
        count = sum(1 for a, b, c in product(*sides) if a & b & c)
        shown = ", ".join(f"direction {d + 1} line {k + 1}" for d, k in enumerate(cuts))
        REGIONS.check(count, f"board {source}: {shown}", BoardError)


# --------------------------------------------------------------------------- loading


def load_board(path: str | Path) -> Board:
    """Load a board file.

    Raises
    ------
    BoardError
        If the file is missing, unreadable, not UTF-8 TOML, or describes an invalid board.
    """
    return parse_board(read_toml(path, "board", BoardError), str(Path(path)))


def _boards_folder() -> Traversable:
    # through importlib.resources, so the shipped boards load from a wheel or a zip too
    return resources.files("sims.games.pizzatheory").joinpath("data", "boards")


def board_names() -> list[str]:
    """The shipped boards' names (their file names in ``data/boards`` without ``.toml``)."""
    return sorted(
        f.name.removesuffix(".toml") for f in _boards_folder().iterdir() if f.name.endswith(".toml")
    )


@cache
def shipped_board(name: str) -> Board:
    """A shipped board by name, loaded once.

    Raises
    ------
    BoardError
        If no shipped board has that name (the message lists those that exist).
    """
    names = board_names()
    if name not in names:
        raise BoardError(f"board {name!r}: no such shipped board; use one of {names}, or "
                         "load a board file with load_board")  # fmt: skip
    fname = f"{name}.toml"
    text = _boards_folder().joinpath(fname).read_text(encoding="utf-8")
    return parse_board(parse_toml(text, f"board {fname}", BoardError), fname)


def default_board() -> Board:
    """The ruled default board, hex-37, loaded once."""
    return shipped_board(DEFAULT_BOARD)


# --------------------------------------------------------------------------- writing


def _toml_str(s: str) -> str:
    # A JSON string is a TOML basic string, except that TOML also wants DEL escaped.
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_list(names: Sequence[str], indent: str, lead: int = 0, width: int = 96) -> list[str]:
    """A TOML array of strings starting ``lead`` characters after ``indent``: one line if it
    fits in ``width``, else ``[``, the items packed into lines one level deeper (never broken
    inside a name), and ``]`` at ``indent``."""
    items = [_toml_str(n) + "," for n in names]
    one = f"[{' '.join(items)[:-1]}]"
    if len(indent) + lead + len(one) <= width:
        return [one]
    inner = indent + "    "
    body: list[str] = []
    for item in items:
        if body and len(body[-1]) + 1 + len(item) <= width:
            body[-1] += " " + item
        else:
            body.append(inner + item)
    return ["[", *body, f"{indent}]"]


def _toml_assign(key: str, names: Sequence[str]) -> list[str]:
    """``key = [...]``, wrapped as :func:`_toml_list` does."""
    arr = _toml_list(names, "", lead=len(key) + 3)
    return [f"{key} = {arr[0]}", *arr[1:]]


def _toml_description(text: str) -> list[str]:
    """``description = ...``, wrapped with line-ending backslashes when the text is plain
    (single spaces, printable) so a long description stays readable and reads back equal."""
    if not text or not text.isprintable() or "  " in text or text != text.strip():
        return [f"description = {_toml_str(text)}"]
    chunks = textwrap.wrap(text, width=88, break_long_words=False, break_on_hyphens=False)
    # each chunk but the last keeps its trailing blank; the backslash eats the line break
    # and the next line's indent
    body = [f"    {_toml_str(c)[1:-1]} \\" for c in chunks[:-1]]
    return ['description = """\\', *body, f"    {_toml_str(chunks[-1])[1:-1]}\\", '    """']


def board_toml(board: Board, *, comment: str = "") -> str:
    """The board as a board file (:func:`parse_board` reads it back equal).

    Parameters
    ----------
    board : Board
    comment : str
        Lines written as ``#`` comments at the top.
    """
    lab = board.labels
    out = [f"# {line}".rstrip() for line in comment.splitlines()]
    out += [
        f"# Pizza Theory board {board.name!r} ({board.n_spaces} spaces). Format: "
        "sims/games/pizzatheory/board.py.",
        "# Space ids follow 'spaces'; [[direction]] n is turn position n's cuts: its X",
        "# spaces and its 6 parallel lines, nearest first, each as the spaces on its near side.",
        "",
        f"name = {_toml_str(board.name)}",
        *_toml_description(board.description),
    ]
    out += _toml_assign("spaces", lab)
    out += ["", "[adjacency]"]
    for i, nbrs in enumerate(board.adjacency):
        out += _toml_assign(_toml_str(lab[i]), [lab[j] for j in nbrs])
    for d in range(N_DIRECTIONS):
        out += ["", f"[[direction]]  # turn position {d + 1}"]
        out += _toml_assign("start", [lab[i] for i in board.start[d]])
        out.append("lines = [")
        for k, mask in enumerate(board.lines[d]):
            ids = _ids(mask)
            where = "nearest" if k == 0 else "farthest" if k == LINES_PER_DIRECTION - 1 else ""
            out.append(f"    # line {k + 1}{f' ({where})' if where else ''}: {len(ids)} spaces")
            arr = _toml_list([lab[i] for i in ids], "    ")
            arr[0] = f"    {arr[0]}"
            arr[-1] += ","
            out += arr
        out.append("]")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- hex boards


def hex_board(
    radius: int = 3,
    *,
    start: Literal["corners", "middle"] = "corners",
    clip_corners: bool = False,
    name: str | None = None,
    description: str | None = None,
) -> Board:
    """A board on a triangular lattice: the hexagon of cube coordinates ``(q, r, s)``,
    ``q + r + s = 0``, ``max(|q|, |r|, |s|) <= radius``, neighbours the 6 lattice steps.

    Turn position 1 sits at the side ``q = +radius`` and cuts along ``q = k + 1/2``,
    position 2 at ``r = +radius`` along ``r = k + 1/2``, position 3 at ``s = +radius``
    along ``s = k + 1/2``, for ``k`` in :data:`HEX_LINE_OFFSETS` (nearest first); the near
    side of a line is the spaces with the larger coordinate. Spaces are named ``"q,r,s"``
    and ordered by ``q`` descending, then ``r`` descending.

    Parameters
    ----------
    radius : int
        At least 3 (a smaller hexagon has fewer than 7 rows, too few for 6 lines).
    start : {"corners", "middle"}
        Each position's X spaces: the two ends of its side row, or its two middle spaces
        (the side row must then have an even number of spaces).
    clip_corners : bool
        Drop the hexagon's 6 corners, for a rounder pizza.
    name, description : str, optional
        Default: ``"hex-<n>"`` (``"round-<n>"`` when clipped; ``-mid`` for middle X spaces)
        and a sentence saying how the board was made.

    Raises
    ------
    ValueError
        For a radius below 3 or middle X spaces on an odd side.
    """
    if type(radius) is not int or radius < 3:
        raise ValueError(f"radius {radius!r}: a hex board needs radius 3 or more (7 rows "
                         f"for {LINES_PER_DIRECTION} lines)")  # fmt: skip
    if start not in ("corners", "middle"):
        raise ValueError(f"start {start!r}: use 'corners' or 'middle'")
    cells = [
        (q, r, -q - r)
        for q in range(radius, -radius - 1, -1)
        for r in range(radius, -radius - 1, -1)
        if abs(q + r) <= radius
    ]
    if clip_corners:
        cells = [c for c in cells if sorted(map(abs, c)) != [0, radius, radius]]
    labels = [f"{q},{r},{s}" for q, r, s in cells]
    where = dict(zip(cells, labels, strict=True))
    adjacency = {
        where[c]: [
            where[n]
            for n in sorted(
                (tuple(x + y for x, y in zip(c, step, strict=True)) for step in _HEX_STEPS),
                key=lambda n: (-n[0], -n[1]),
            )
            if n in where
        ]
        for c in cells
    }
    directions = []
    for d in range(N_DIRECTIONS):
        side = [where[c] for c in cells if c[d] == max(x[d] for x in cells)]
        if start == "corners":
            xs = [side[0], side[-1]]
        else:
            if len(side) % 2:
                raise ValueError(f"start 'middle': the side of position {d + 1} has "
                                 f"{len(side)} spaces, no middle pair")  # fmt: skip
            xs = side[len(side) // 2 - 1 : len(side) // 2 + 1]
        near = [[where[c] for c in cells if c[d] > k] for k in HEX_LINE_OFFSETS]
        directions.append({"start": xs, "lines": near})
    n = len(cells)
    if name is None:
        name = f"{'round' if clip_corners else 'hex'}-{n}" + ("-mid" if start == "middle" else "")
    if description is None:
        description = (
            f"{n} spaces of a triangular lattice within {radius} steps of the centre"
            + (" less the 6 corners" if clip_corners else "")
            + f"; lines at coordinate k + 1/2 for k = {', '.join(map(str, HEX_LINE_OFFSETS))}"
            + f"; X spaces at the {start} of each position's side."
        )
    raw = {
        "name": name,
        "description": description,
        "spaces": labels,
        "adjacency": adjacency,
        "direction": directions,
    }
    return parse_board(raw, f"{name}.toml")


SHIPPED_HEX_BOARDS: dict[str, dict[str, Any]] = {
    "hex-37": {
        "radius": 3,
        "description": (
            "The ruled default (docs/rules/pizzatheory.md): 37 spaces on a triangular "
            "lattice, a hexagon of 4 spaces a side, each space next to its lattice "
            "neighbours. Each turn position sits at a side and cuts parallel to it between "
            "the 7 rows (lines at k + 1/2, k = 2 .. -3); its X spaces are the two corners of "
            "its side. It matches every published fact: 3 directions of 6 parallel lines, "
            "4-7 regions for each of the 216 cut triples (22/36/132/26 triples make "
            "4/5/6/7), 2 X spaces nearest each player, and at most 13 mutually "
            "non-adjacent spaces, so no one wins by placement alone."
        ),
    },
    "hex-37-mid": {
        "radius": 3,
        "start": "middle",
        "description": (
            "hex-37 with each position's X spaces moved from the corners of its side to "
            "the two middle spaces of that side, the spaces nearest a player seated "
            "opposite the middle of the side. Same spaces and lines (so the same 216 "
            "region patterns); the two X spaces are neighbours, one row apart across the "
            "other directions' lines where the corners are three rows apart, so they are "
            "more often caught in one region together: it tests how much the "
            "start spaces matter."
        ),
    },
    "round-31": {
        "radius": 3,
        "clip_corners": True,
        "description": (
            "A rounder pizza: hex-37 less its 6 corners, the 31 lattice spaces within "
            "sqrt(7) spacings of the centre. Every direction still has 7 rows, one between "
            "each pair of lines, and each position's side row is its 2 X spaces. Plausible "
            "because the board is a round pizza. The 216 cut triples make 4/5/6/7 regions "
            "46/78/72/20 times; at most 12 spaces are mutually non-adjacent."
        ),
    },
    "hex-61": {
        "radius": 4,
        "description": (
            "A bigger pizza: 61 spaces, a hexagon of 5 a side, with the same six lines "
            "symmetric about the centre (k = 2 .. -3), so each outermost band holds two "
            "rows; X spaces at the two corners of each position's side. Plausible if the "
            "real board has more spaces than the 7 rows a direction's 6 lines separate. "
            "The 216 cut triples make 4/5/6/7 regions 8/6/126/76 times; 21 spaces are "
            "mutually non-adjacent, so here placement alone could win."
        ),
    },
}
"""How each shipped board is generated: ``hex_board(name=<key>, **value)``."""

_GENERATED = (
    "Generated by `python -m sims.games.pizzatheory.board` from hex_board({args});\n"
    "do not edit by hand (a test checks the file equals the generator's output)."
)


def shipped_hex_toml(name: str) -> str:
    """The text a shipped hex board's file must have (what the generator writes)."""
    kwargs = SHIPPED_HEX_BOARDS[name]
    args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items() if k != "description")
    return board_toml(hex_board(name=name, **kwargs), comment=_GENERATED.format(args=args))


def write_shipped_boards(folder: str | Path | None = None) -> list[Path]:
    """Write every shipped hex board's file (default: this package's ``data/boards``).

    Returns
    -------
    list of Path
        The files written.
    """
    out_dir = Path(folder) if folder is not None else Path(__file__).parent / "data" / "boards"
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SHIPPED_HEX_BOARDS:
        path = out_dir / f"{name}.toml"
        path.write_text(shipped_hex_toml(name), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write_shipped_boards():
        print(p)
