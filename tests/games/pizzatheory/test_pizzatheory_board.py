"""The board is data: the ruled default hex-37 (docs/rules/pizzatheory.md, "What is known
and what is assumed about the board"), the shipped alternatives, the regions three cuts
make, the arrays a kernel reads, writing a board back to its file, and refusal of malformed
board files."""

import copy
import dataclasses
import pickle
import tomllib
from collections import Counter
from importlib import resources
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from sims.games.pizzatheory.board import (
    HEX_LINE_OFFSETS,
    LINES_PER_DIRECTION,
    MAX_SPACES,
    N_DIRECTIONS,
    SHIPPED_HEX_BOARDS,
    START_PER_POSITION,
    Board,
    BoardError,
    board_names,
    board_toml,
    default_board,
    hex_board,
    load_board,
    parse_board,
    shipped_board,
    shipped_hex_toml,
)

HEX = default_board()
TRIPLES = list(product(range(LINES_PER_DIRECTION), repeat=N_DIRECTIONS))
SHIPPED = ["hex-37", "hex-37-mid", "hex-61", "round-31"]

# name, spaces, degree histogram, near-side sizes of lines 1-6 (every direction), the X
# spaces of positions 1, 2, 3, region counts 4/5/6/7 over the 216 triples, the most
# mutually non-adjacent spaces, digest
BOARDS = [
    (
        "hex-37",
        37,
        {3: 6, 4: 12, 6: 19},
        [4, 9, 15, 22, 28, 33],
        [("3,0,-3", "3,-3,0"), ("0,3,-3", "-3,3,0"), ("0,-3,3", "-3,0,3")],
        {4: 22, 5: 36, 6: 132, 7: 26},
        13,
        "8d91ce9b6389623f",
    ),
    (
        "hex-37-mid",
        37,
        {3: 6, 4: 12, 6: 19},
        [4, 9, 15, 22, 28, 33],
        [("3,-1,-2", "3,-2,-1"), ("-1,3,-2", "-2,3,-1"), ("-1,-2,3", "-2,-1,3")],
        {4: 22, 5: 36, 6: 132, 7: 26},
        13,
        "9c0e03a421a345cb",
    ),
    (
        "hex-61",
        61,
        {3: 6, 4: 18, 6: 37},
        [11, 18, 26, 35, 43, 50],
        [("4,0,-4", "4,-4,0"), ("0,4,-4", "-4,4,0"), ("0,-4,4", "-4,0,4")],
        {4: 8, 5: 6, 6: 126, 7: 76},
        21,
        "c08d605b5d6f59f7",
    ),
    (
        "round-31",
        31,
        {3: 12, 5: 6, 6: 13},
        [2, 7, 13, 18, 24, 29],
        [("3,-1,-2", "3,-2,-1"), ("-1,3,-2", "-2,3,-1"), ("-1,-2,3", "-2,-1,3")],
        {4: 46, 5: 78, 6: 72, 7: 20},
        12,
        "2243e02a8308148a",
    ),
]
BY_NAME = {b[0]: b for b in BOARDS}


def _cube(label: str) -> tuple[int, int, int]:
    q, r, s = map(int, label.split(","))
    assert q + r + s == 0
    return q, r, s


def _text(name: str) -> str:
    folder = resources.files("sims.games.pizzatheory").joinpath("data", "boards")
    return folder.joinpath(f"{name}.toml").read_text(encoding="utf-8")


def _data(name: str = "hex-37") -> dict:
    return tomllib.loads(_text(name))


def _oracle_regions(board: Board, cuts) -> tuple[int, ...]:
    """Regions straight from the spec: position d's line k is coordinate d = k' + 1/2 for
    k' = 2, 1, 0, -1, -2, -3; numbered by first (lowest) space id."""
    offsets = [2, 1, 0, -1, -2, -3]
    sigs = [tuple(_cube(lab)[d] > offsets[cuts[d]] for d in range(3)) for lab in board.labels]
    number: dict = {}
    return tuple(number.setdefault(s, len(number)) for s in sigs)


def _ids(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _max_independent(adjacency) -> int:
    """The most mutually non-adjacent spaces, exactly: branch and bound on bitmasks."""
    nbr = [sum(1 << j for j in a) for a in adjacency]
    best = 0

    def cover(cand: int) -> int:
        # a greedy partition into cliques: each clique holds at most one chosen space
        n = 0
        while cand:
            v = (cand & -cand).bit_length() - 1
            cand &= ~(1 << v)
            clique = cand & nbr[v]
            while clique:
                w = (clique & -clique).bit_length() - 1
                cand &= ~(1 << w)
                clique &= nbr[w]
            n += 1
        return n

    def grow(cand: int, size: int) -> None:
        nonlocal best
        if not cand:
            best = max(best, size)
            return
        if size + cover(cand) <= best:
            return
        # a largest set holds v or one of its neighbours (else adding v would enlarge it):
        # branch on the candidate with the fewest candidate neighbours
        v = min(_ids(cand), key=lambda i: (nbr[i] & cand).bit_count())
        for w in [v, *_ids(nbr[v] & cand)]:
            grow(cand & ~(1 << w) & ~nbr[w], size + 1)
            cand &= ~(1 << w)  # the sets holding w are done

    grow((1 << len(adjacency)) - 1, 0)
    return best


# --------------------------------------------------------------------------- hex-37


def test_constants():
    assert (N_DIRECTIONS, LINES_PER_DIRECTION, START_PER_POSITION) == (3, 6, 2)
    assert HEX_LINE_OFFSETS == (2, 1, 0, -1, -2, -3)
    assert MAX_SPACES == 255


def test_hex37_spaces_are_the_hexagon_of_side_4_in_documented_order():
    cubes = [_cube(lab) for lab in HEX.labels]
    assert HEX.n_spaces == 37
    assert set(cubes) == {
        (q, r, -q - r)
        for q in range(-3, 4)
        for r in range(-3, 4)
        if max(abs(q), abs(r), abs(q + r)) <= 3
    }
    # q descending, then r descending
    assert cubes == sorted(cubes, key=lambda c: (-c[0], -c[1]))
    assert HEX.labels[:5] == ("3,0,-3", "3,-1,-2", "3,-2,-1", "3,-3,0", "2,1,-3")
    assert (HEX.labels[18], HEX.labels[36]) == ("0,0,0", "-3,0,3")
    assert HEX.index("0,0,0") == 18
    with pytest.raises(KeyError):
        HEX.index("4,0,-4")


def test_hex37_adjacency_is_the_six_lattice_neighbours():
    steps = {(1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1)}
    for i, nbrs in enumerate(HEX.adjacency):
        c = _cube(HEX.labels[i])
        expected = {
            HEX.labels.index(",".join(map(str, n)))
            for n in (tuple(a + b for a, b in zip(c, s, strict=True)) for s in steps)
            if max(map(abs, n)) <= 3
        }
        assert set(nbrs) == expected
        assert list(nbrs) == sorted(nbrs)
    assert sum(map(len, HEX.adjacency)) == 2 * 90  # 90 lattice edges


def test_hex37_degrees_corners_3_edges_4_interior_6():
    for i, nbrs in enumerate(HEX.adjacency):
        c = sorted(map(abs, _cube(HEX.labels[i])))
        expected = 3 if c == [0, 3, 3] else 4 if c[2] == 3 else 6
        assert len(nbrs) == expected, HEX.labels[i]


def test_hex37_start_spaces_are_the_corners_as_ruled():
    assert HEX.start == ((0, 3), (15, 33), (21, 36))
    assert [tuple(HEX.labels[i] for i in s) for s in HEX.start] == BY_NAME["hex-37"][4]


@pytest.mark.parametrize("d", range(3))
@pytest.mark.parametrize("k", range(6))
def test_hex37_lines_are_the_ruled_half_lines(d, k):
    # line k of position d+1: near side = coordinate d > k' + 1/2, k' = 2 .. -3
    expected = sum(1 << i for i, lab in enumerate(HEX.labels) if _cube(lab)[d] > 2 - k)
    assert HEX.lines[d][k] == expected


def test_hex37_region_counts_over_all_216_triples_are_the_spec_check():
    counts = Counter(HEX.region_count(t) for t in TRIPLES)
    assert dict(counts) == {4: 22, 5: 36, 6: 132, 7: 26}
    assert sum(counts.values()) == 216


def test_hex37_regions_match_the_spec_for_every_triple():
    for t in TRIPLES:
        assert HEX.regions(t) == _oracle_regions(HEX, t), t


# cuts, space, its region, the triple's region count (worked by hand)
HAND = [
    # lines q = r = s = 2.5: the three side rows and the rest
    ((0, 0, 0), "3,0,-3", 0, 4),
    ((0, 0, 0), "2,1,-3", 1, 4),
    ((0, 0, 0), "0,0,0", 1, 4),
    ((0, 0, 0), "0,3,-3", 2, 4),
    ((0, 0, 0), "-3,3,0", 2, 4),
    ((0, 0, 0), "0,-3,3", 3, 4),
    ((0, 0, 0), "-3,0,3", 3, 4),
    # lines at -2.5: each far row alone; space 0 is on the far side of s
    ((5, 5, 5), "3,0,-3", 0, 4),
    ((5, 5, 5), "0,3,-3", 0, 4),
    ((5, 5, 5), "3,-1,-2", 1, 4),
    ((5, 5, 5), "0,0,0", 1, 4),
    ((5, 5, 5), "3,-3,0", 2, 4),
    ((5, 5, 5), "-3,0,3", 3, 4),
    # lines at 0.5: seven regions, the centre alone
    ((2, 2, 2), "3,0,-3", 0, 7),
    ((2, 2, 2), "2,1,-3", 1, 7),
    ((2, 2, 2), "2,-3,1", 2, 7),
    ((2, 2, 2), "0,3,-3", 3, 7),
    ((2, 2, 2), "0,0,0", 4, 7),
    ((2, 2, 2), "0,-1,1", 5, 7),
    ((2, 2, 2), "-2,1,1", 6, 7),
]


@pytest.mark.parametrize("cuts,label,region,count", HAND)
def test_hand_checked_regions(cuts, label, region, count):
    assert HEX.regions(cuts)[HEX.index(label)] == region
    assert HEX.region_count(cuts) == count


def test_the_centre_alone_at_the_middle_cuts():
    regions = HEX.regions((2, 2, 2))
    assert [i for i, r in enumerate(regions) if r == regions[18]] == [18]


def test_hex37_largest_set_of_non_adjacent_spaces_is_13():
    assert _max_independent(HEX.adjacency) == 13


# --------------------------------------------------------------------------- every board


def test_shipped_board_names():
    assert board_names() == SHIPPED
    assert sorted(SHIPPED_HEX_BOARDS) == SHIPPED


@pytest.mark.parametrize("row", BOARDS, ids=[b[0] for b in BOARDS])
def test_shipped_board_content(row):
    name, n, degrees, sizes, starts, _, _, _ = row
    board = shipped_board(name)
    assert (board.name, board.source) == (name, f"{name}.toml")
    assert board.description
    assert board.n_spaces == n
    assert dict(Counter(map(len, board.adjacency))) == degrees
    for d in range(3):
        assert [m.bit_count() for m in board.lines[d]] == sizes
    assert [tuple(board.labels[i] for i in s) for s in board.start] == starts
    assert all(s[0] < s[1] for s in board.start)
    assert len({i for s in board.start for i in s}) == 6


@pytest.mark.parametrize("row", BOARDS, ids=[b[0] for b in BOARDS])
def test_every_line_splits_and_each_direction_is_nested(row):
    board = shipped_board(row[0])
    everything = (1 << board.n_spaces) - 1
    for d in range(3):
        masks = board.lines[d]
        assert len(masks) == 6
        assert all(0 < m < everything for m in masks)
        assert all(a & ~b == 0 and a != b for a, b in zip(masks, masks[1:], strict=False))


@pytest.mark.parametrize("row", BOARDS, ids=[b[0] for b in BOARDS])
def test_region_counts_are_4_to_7_for_every_triple(row):
    board = shipped_board(row[0])
    counts = Counter(board.region_count(t) for t in TRIPLES)
    assert dict(counts) == row[5]


@pytest.mark.parametrize("row", BOARDS, ids=[b[0] for b in BOARDS])
def test_regions_are_numbered_by_lowest_space_id_and_match_the_spec(row):
    board = shipped_board(row[0])
    for t in TRIPLES:
        regions = board.regions(t)
        firsts = [regions.index(r) for r in range(max(regions) + 1)]
        assert firsts == sorted(firsts)
        assert set(regions) == set(range(board.region_count(t)))
        assert regions == _oracle_regions(board, t)


@pytest.mark.parametrize("row", BOARDS, ids=[b[0] for b in BOARDS])
def test_largest_set_of_non_adjacent_spaces(row):
    assert _max_independent(shipped_board(row[0]).adjacency) == row[6]


def test_hex37_mid_cuts_like_hex37():
    mid = shipped_board("hex-37-mid")
    assert (mid.labels, mid.adjacency, mid.lines) == (HEX.labels, HEX.adjacency, HEX.lines)
    assert np.array_equal(mid.region_table(), HEX.region_table())


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_files_are_the_generators_output(name):
    assert _text(name) == shipped_hex_toml(name)
    assert shipped_board(name) == hex_board(name=name, **SHIPPED_HEX_BOARDS[name])


def test_hex_board_defaults_make_hex37_content():
    made = hex_board()
    assert (made.name, made.source) == ("hex-37", "hex-37.toml")
    assert made.digest == HEX.digest
    assert hex_board(3, start="middle").name == "hex-37-mid"
    assert hex_board(3, clip_corners=True).name == "round-31"
    assert hex_board(5).n_spaces == 91


@pytest.mark.parametrize(
    "kwargs,fragment",
    [
        ({"radius": 2}, "radius 3 or more"),
        ({"radius": 3.0}, "radius 3 or more"),
        ({"radius": 4, "start": "middle"}, "side of position 1 has 5 spaces"),
        ({"start": "edges"}, "use 'corners' or 'middle'"),
    ],
)
def test_hex_board_refuses(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        hex_board(**kwargs)


# --------------------------------------------------------------------------- digests


@pytest.mark.parametrize("row", BOARDS, ids=[b[0] for b in BOARDS])
def test_digest_is_stable(row):
    assert shipped_board(row[0]).digest == row[7]


def test_digests_differ_between_boards():
    assert len({shipped_board(n).digest for n in SHIPPED}) == len(SHIPPED)


def test_digest_covers_content_only():
    other = dataclasses.replace(HEX, name="x", description="y", source="z.toml")
    assert other.digest == HEX.digest
    assert other != HEX
    renamed = dataclasses.replace(HEX, labels=("a",) + HEX.labels[1:])
    assert renamed.digest != HEX.digest
    moved = dataclasses.replace(HEX, start=((1, 3),) + HEX.start[1:])
    assert moved.digest != HEX.digest


# --------------------------------------------------------------------------- API details


def test_default_board_is_loaded_once():
    assert default_board() is HEX
    assert shipped_board("hex-37") is HEX
    assert HEX.source == Board("x", (), (), (), ()).source == "hex-37.toml"
    path = Path(str(resources.files("sims.games.pizzatheory") / "data" / "boards" / "hex-37.toml"))
    assert dataclasses.replace(load_board(path), source="hex-37.toml") == HEX


def test_unknown_shipped_board_lists_the_names():
    with pytest.raises(BoardError) as info:
        shipped_board("hex-19")
    assert str(info.value) == (
        "board 'hex-19': no such shipped board; use one of "
        "['hex-37', 'hex-37-mid', 'hex-61', 'round-31'], or load a board file with load_board"
    )


@pytest.mark.parametrize(
    "cuts",
    [(0, 0), (0, 0, 0, 0), (6, 0, 0), (0, -1, 0), (0, 0, 1.0), "abc", 5],
    ids=["two", "four", "six", "negative", "float", "string", "int"],
)
def test_regions_refuse_bad_cuts(cuts):
    with pytest.raises(ValueError, match="cuts"):
        HEX.regions(cuts)
    with pytest.raises(ValueError, match="cuts"):
        HEX.region_count(cuts)


def test_regions_accept_numpy_ints_and_lists():
    assert HEX.regions(np.array([2, 2, 2])) == HEX.regions([2, 2, 2]) == HEX.regions((2, 2, 2))


@pytest.mark.parametrize("name", SHIPPED)
def test_region_table_and_arrays(name):
    board = shipped_board(name)
    n = board.n_spaces
    table = board.region_table()
    assert table.shape == (6, 6, 6, n) and table.dtype == np.int8
    assert not table.flags.writeable
    with pytest.raises(ValueError):
        table[0, 0, 0, 0] = 1
    for t in TRIPLES:
        assert tuple(table[t].tolist()) == board.regions(t)
    arrays = board.arrays()
    assert arrays is not board.arrays()  # a fresh dict ...
    assert arrays["regions"] is table  # ... of shared arrays
    assert set(arrays) == {"adjacency", "degree", "near", "start", "regions", "n_regions"}
    assert all(not a.flags.writeable for a in arrays.values())
    degree = arrays["degree"]
    adj = arrays["adjacency"]
    assert adj.shape == (n, max(map(len, board.adjacency))) and adj.dtype == np.int64
    for i, nbrs in enumerate(board.adjacency):
        assert degree[i] == len(nbrs)
        assert tuple(adj[i, : len(nbrs)].tolist()) == nbrs
        assert (adj[i, len(nbrs) :] == -1).all()
    near = arrays["near"]
    assert near.shape == (3, 6, n) and near.dtype == np.bool_
    for d, k in product(range(3), range(6)):
        assert sum(1 << i for i in np.flatnonzero(near[d, k]).tolist()) == board.lines[d][k]
    assert arrays["start"].tolist() == [list(s) for s in board.start]
    assert arrays["n_regions"].shape == (6, 6, 6)
    assert [int(arrays["n_regions"][t]) for t in TRIPLES] == [
        board.region_count(t) for t in TRIPLES
    ]


def test_pickled_board_is_equal_and_rebuilds_read_only_tables():
    HEX.region_table()  # the tables are cached ...
    again = pickle.loads(pickle.dumps(HEX))
    assert again == HEX and again is not HEX
    assert "_tables" not in again.__dict__  # ... but not pickled
    assert not again.region_table().flags.writeable
    assert np.array_equal(again.region_table(), HEX.region_table())
    assert copy.copy(HEX).regions((2, 2, 2)) == HEX.regions((2, 2, 2))


# --------------------------------------------------------------------------- writing


@pytest.mark.parametrize("name", SHIPPED)
def test_board_toml_round_trips(name):
    board = shipped_board(name)
    assert parse_board(tomllib.loads(board_toml(board)), board.source) == board


def test_board_toml_round_trips_awkward_names_and_descriptions():
    awkward = ['a "quoted" space', "back\\slash", "ünïcödé", "tab\there", "del\x7f", "new\nline"]
    labels = tuple(awkward) + tuple(f"space {i}" for i in range(len(awkward), HEX.n_spaces))
    for description in [
        "",
        "two  spaces, a\nnewline and a tab\there",
        'A long plain description with "quotes", a back\\slash and """triple""" quotes, '
        "long enough to be wrapped over several lines of the file: " + "pizza " * 30 + "end.",
    ]:
        board = dataclasses.replace(
            HEX, name='odd "board"', labels=labels, description=description, source="odd.toml"
        )
        text = board_toml(board, comment="a comment\nover two lines")
        assert text.startswith("# a comment\n# over two lines\n")
        assert parse_board(tomllib.loads(text), "odd.toml") == board


def test_load_board_reads_a_written_file(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(board_toml(HEX).replace('name = "hex-37"', 'name = "mine"'))
    board = load_board(path)
    assert (board.name, board.source) == ("mine", str(path))
    assert board.digest == HEX.digest
    assert dataclasses.replace(board, name="hex-37", source="hex-37.toml") == HEX


# --------------------------------------------------------------------------- malformed


def _mutate(fn) -> dict:
    data = copy.deepcopy(_data())
    fn(data)
    return data


def _drop_edges_between_rows_3_and_2(d):
    # cut the q = 3 row off the rest, keeping adjacency mutual
    adj = d["adjacency"]
    for a in list(adj):
        for b in list(adj[a]):
            if {_cube(a)[0], _cube(b)[0]} == {3, 2}:
                adj[a].remove(b)


def _all_lines_of_direction_1_take(d, space):
    for line in d["direction"][0]["lines"]:
        if space not in line:
            line.append(space)


ALL37 = [
    "3,0,-3", "3,-1,-2", "3,-2,-1", "3,-3,0", "2,1,-3", "2,0,-2", "2,-1,-1", "2,-2,0", "2,-3,1",
    "1,2,-3", "1,1,-2", "1,0,-1", "1,-1,0", "1,-2,1", "1,-3,2", "0,3,-3", "0,2,-2", "0,1,-1",
    "0,0,0", "0,-1,1", "0,-2,2", "0,-3,3", "-1,3,-2", "-1,2,-1", "-1,1,0", "-1,0,1", "-1,-1,2",
    "-1,-2,3", "-2,3,-1", "-2,2,0", "-2,1,1", "-2,0,2", "-2,-1,3", "-3,3,0", "-3,2,1", "-3,1,2",
    "-3,0,3",
]  # fmt: skip
A = "3,0,-3"  # space 0, a corner: neighbours 3,-1,-2 / 2,1,-3 / 2,0,-2


def _dir(d, n):
    return d["direction"][n - 1]


# id, change to hex-37's table (returning a replacement, or None to keep the table),
# fragment of the BoardError message
BAD_BOARDS = [
    (
        "unknown top-level key",
        lambda d: d.update(size=37),
        "unknown key(s) ['size']; a board has 'name', 'description', 'spaces', [adjacency] "
        "and [[direction]]",
    ),
    ("missing name", lambda d: d.pop("name"), "needs a 'name' (a non-empty string)"),
    ("blank name", lambda d: d.update(name=" "), "needs a 'name'"),
    ("name a number", lambda d: d.update(name=37), "needs a 'name'"),
    ("description a list", lambda d: d.update(description=["x"]), "'description' must be a string"),
    ("missing spaces", lambda d: d.pop("spaces"), "needs 'spaces', a non-empty list"),
    ("empty spaces", lambda d: d.update(spaces=[]), "needs 'spaces', a non-empty list"),
    ("spaces a string", lambda d: d.update(spaces="3,0,-3"), "needs 'spaces'"),
    (
        "too many spaces",
        lambda d: d.update(spaces=[f"s{i}" for i in range(256)]),
        "has 256 spaces; at most 255",
    ),
    (
        "too few spaces",
        lambda d: d.update(spaces=d["spaces"][:6]),
        "has 6 spaces; at least 7 (a direction's 6 nested lines each add a space",
    ),
    ("space a number", lambda d: d["spaces"].__setitem__(2, 7), "spaces: entry 3 is 7, not a name"),
    ("blank space name", lambda d: d["spaces"].__setitem__(0, "  "), "spaces: entry 1 is blank"),
    (
        "space name padded",
        lambda d: d["spaces"].__setitem__(0, " 3,0,-3"),
        "spaces: entry 1 ' 3,0,-3' has blanks around it",
    ),
    (
        "duplicate space",
        lambda d: d["spaces"].__setitem__(1, A),
        "space name(s) ['3,0,-3'] appear more than once; each space needs its own name",
    ),
    ("no adjacency", lambda d: d.pop("adjacency"), "needs an [adjacency] table"),
    ("adjacency a list", lambda d: d.update(adjacency=[]), "needs an [adjacency] table"),
    (
        "adjacency of an unknown space",
        lambda d: d["adjacency"].update(zz=[A]),
        "[adjacency] has an entry for unknown space 'zz'",
    ),
    (
        "space without adjacency entry",
        lambda d: d["adjacency"].pop("0,0,0"),
        "[adjacency] has no entry for space '0,0,0'; list its neighbours",
    ),
    (
        "unknown neighbour",
        lambda d: d["adjacency"][A].append("zz"),
        "adjacency of '3,0,-3' names unknown space 'zz'; use a name from 'spaces'",
    ),
    (
        "neighbours not a list",
        lambda d: d["adjacency"].update({A: "3,-1,-2"}),
        "adjacency of '3,0,-3' must be a list of space names, got '3,-1,-2'",
    ),
    (
        "neighbour a number",
        lambda d: d["adjacency"][A].append(5),
        "adjacency of '3,0,-3': entry 4 is 5, not a space name",
    ),
    (
        "asymmetric adjacency",
        lambda d: d["adjacency"][A].remove("3,-1,-2"),
        "adjacency of '3,-1,-2' lists '3,0,-3' but that of '3,0,-3' does not list '3,-1,-2'; "
        "adjacency is mutual",
    ),
    (
        "self-adjacent",
        lambda d: d["adjacency"][A].append(A),
        "adjacency of '3,0,-3' lists '3,0,-3' itself; a space is not its own neighbour",
    ),
    (
        "neighbour listed twice",
        lambda d: d["adjacency"][A].append("2,1,-3"),
        "adjacency of '3,0,-3' lists '2,1,-3' twice",
    ),
    (
        "no neighbours",
        lambda d: d["adjacency"].update({"0,0,0": []}),
        "space '0,0,0' has no neighbours; every space needs at least one",
    ),
    (
        "board in two pieces",
        _drop_edges_between_rows_3_and_2,
        "the board is not in one piece: 33 space(s) ['2,1,-3', '2,0,-2', '2,-1,-1', '2,-2,0', "
        "'2,-3,1', '1,2,... cannot be reached from '3,0,-3'; check their [adjacency] entries",
    ),
    (
        "no directions",
        lambda d: d.pop("direction"),
        "has no [[direction]] table(s); a board "
        "needs exactly 3, one per turn position in order 1, 2, 3",
    ),  # fmt: skip
    ("two directions", lambda d: d["direction"].pop(), "has 2 [[direction]] table(s)"),
    (
        "four directions",
        lambda d: d["direction"].append(copy.deepcopy(d["direction"][0])),
        "has 4 [[direction]] table(s)",
    ),
    (
        "direction not a table",
        lambda d: d["direction"].__setitem__(1, 5),
        "direction 2 is not a table",
    ),  # fmt: skip
    (
        "unknown direction key",
        lambda d: _dir(d, 1).update(colour="red"),
        "direction 1: unknown key(s) ['colour']; a direction has 'start' and 'lines'",
    ),
    ("missing start", lambda d: _dir(d, 1).pop("start"), "direction 1 is missing 'start'"),
    ("missing lines", lambda d: _dir(d, 3).pop("lines"), "direction 3 is missing 'lines'"),
    (
        "three start spaces",
        lambda d: _dir(d, 1)["start"].append("3,-1,-2"),
        "direction 1: 'start' lists 3 space(s); a position has exactly 2 X spaces",
    ),
    ("one start space", lambda d: _dir(d, 1)["start"].pop(), "'start' lists 1 space(s)"),
    (
        "start not a list",
        lambda d: _dir(d, 1).update(start=A),
        "direction 1 start must be a list of the position's 2 X spaces, got '3,0,-3'",
    ),
    (
        "unknown start space",
        lambda d: _dir(d, 2)["start"].__setitem__(0, "zz"),
        "direction 2 start names unknown space 'zz'",
    ),
    (
        "start space a number",
        lambda d: _dir(d, 2)["start"].__setitem__(0, 15),
        "direction 2 start: entry 1 is 15, not a space name",
    ),
    (
        "start space twice",
        lambda d: _dir(d, 1).update(start=[A, A]),
        "direction 1 start lists '3,0,-3' twice",
    ),
    (
        "start space of two positions",
        lambda d: _dir(d, 2)["start"].__setitem__(0, A),
        "space '3,0,-3' is an X space of both position 1 and position 2; each X space "
        "belongs to one position",
    ),
    (
        "five lines",
        lambda d: _dir(d, 1)["lines"].pop(),
        "direction 1: 'lines' must list 6 lines (each its near side, nearest first), got 5",
    ),
    (
        "seven lines",
        lambda d: _dir(d, 2)["lines"].append([A]),
        "direction 2: 'lines' must list 6 lines",
    ),  # fmt: skip
    (
        "lines not a list",
        lambda d: _dir(d, 1).update(lines="x"),
        "must list 6 lines (each its near side, nearest first), got 'x'",
    ),  # fmt: skip
    (
        "line not a list",
        lambda d: _dir(d, 1)["lines"].__setitem__(0, A),
        "direction 1 line 1 must be a list of the spaces on its near side, got '3,0,-3'",
    ),
    (
        "line names unknown space",
        lambda d: _dir(d, 2)["lines"][3].append("zz"),
        "direction 2 line 4 names unknown space 'zz'",
    ),
    (
        "line space a number",
        lambda d: _dir(d, 1)["lines"][0].__setitem__(0, 3),
        "direction 1 line 1: entry 1 is 3, not a space name",
    ),
    (
        "line lists a space twice",
        lambda d: _dir(d, 1)["lines"][0].append(A),
        "direction 1 line 1 lists '3,0,-3' twice",
    ),
    (
        "empty line",
        lambda d: _dir(d, 1)["lines"].__setitem__(0, []),
        "direction 1 line 1 does not split the board: its near side is empty",
    ),
    (
        "line holding every space",
        lambda d: _dir(d, 3)["lines"].__setitem__(5, list(ALL37)),
        "direction 3 line 6 does not split the board: its near side holds every space",
    ),
    (
        "lines not nested (reversed)",
        lambda d: _dir(d, 1)["lines"].reverse(),
        "direction 1 line 2 is not parallel to line 1: its near side lacks "
        "['-2,3,-1', '-2,2,0', '-2,1,1', '-2,0,2', '-2,-1,3'] of line 1's",
    ),
    (
        "two equal lines",
        lambda d: _dir(d, 2)["lines"].__setitem__(1, list(_dir(d, 2)["lines"][0])),
        "direction 2 line 2 has the same near side as line 1; each line must add at least one",
    ),
    (
        "not straight lines",
        lambda d: _all_lines_of_direction_1_take(d, "0,0,0"),
        "direction 1 line 1, direction 2 line 4, direction 3 line 4: has 8 regions of one cut "
        "triple; at most 7 (each line splits the board, and three straight cuts make at most 7",
    ),
]


@pytest.mark.parametrize(
    "change,fragment", [b[1:] for b in BAD_BOARDS], ids=[b[0] for b in BAD_BOARDS]
)
def test_malformed_board_is_refused(change, fragment):
    with pytest.raises(BoardError) as info:
        parse_board(_mutate(change), "bad.toml")
    assert fragment in str(info.value)
    assert str(info.value).startswith("board bad.toml: ")


@pytest.mark.parametrize("raw", [[], "hex-37", None], ids=["list", "string", "none"])
def test_a_board_must_be_a_table(raw):
    with pytest.raises(BoardError, match=r"^board bad.toml: is not a table, got "):
        parse_board(raw, "bad.toml")


def test_the_published_table_itself_is_accepted():
    assert parse_board(_mutate(lambda d: None), "hex-37.toml") == HEX


# id, file bytes (None: no file), fragment of the message
BAD_FILES = [
    ("missing file", None, "no such file; pass the path of a board TOML file"),
    ("not UTF-8", b'name = "caf\xe9"\n', "is not UTF-8 text (byte 0xe9 at offset 11)"),
    ("not TOML", b"name = \n[adjacency\n", "is not valid TOML"),
    ("empty file", b"", "needs a 'name'"),
    ("unknown key", b'name = "x"\nsize = 3\n', "unknown key(s) ['size']"),
]


@pytest.mark.parametrize(
    "content,fragment", [b[1:] for b in BAD_FILES], ids=[b[0] for b in BAD_FILES]
)
def test_malformed_board_file_is_refused(tmp_path, content, fragment):
    path = tmp_path / "bad.toml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(BoardError) as info:
        load_board(path)
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"board {Path(path)}")


def test_a_directory_is_not_a_board_file(tmp_path):
    with pytest.raises(BoardError, match="no such file"):
        load_board(tmp_path)


def test_board_error_is_a_data_file_error():
    from sims.core.errors import DataFileError, SlicelabError

    assert issubclass(BoardError, DataFileError) and issubclass(BoardError, SlicelabError)
