"""Generated board files (Hypothesis): the boards a designer could write, across the declared
limits (``rules.LIMITS``), through the real parser, and rule options at the ends of their
ranges. Every family the kernel plays, at 2 and 3 players, must give the reference engine's
rows exactly (seat, game and decision tables), or the file must be refused up front.

The boards are genuinely straight-cut: spaces are points of the plane (a hexagonal or
ring lattice, a scatter, a thin strip), each direction's six lines are thresholds of the
points' projection on its normal, so three lines make at most 7 regions; the neighbours
are a spanning tree, a geometric graph, a dense random graph or every pair (then no
player ever has a legal placement under ``apart``). Some boards break the straight-cut
rule on purpose (random nested near sides), and the parser may refuse those.

``make test`` runs a few derandomized examples per family; ``make validate``
(``SLICELAB_VALIDATE=1``, kernels compiled with ``NUMBA_BOUNDSCHECK=1``) runs thousands.

The regression table at the end replays the exact 7-space boards whose games crashed the
kernel (an out-of-bounds read of the region table) or disagreed with the reference.
"""

from __future__ import annotations

import json
import math
from itertools import product

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from sims.core.errors import SlicelabError
from sims.games.datafile import parse_toml
from sims.games.pizzatheory.board import (
    LINES,
    REGIONS,
    SPACES,
    Board,
    BoardError,
    board_toml,
    parse_board,
)
from sims.games.pizzatheory.game import play_game, seat_strategies
from sims.games.pizzatheory.kernel import KINDS, play_many
from sims.games.pizzatheory.plugin import _DECISION_TYPES, _GAME_TYPES, _SEAT_TYPES
from sims.games.pizzatheory.records import (
    DECISION_COLUMNS,
    GAME_COLUMNS,
    SEAT_COLUMNS,
    game_row,
    seat_rows,
)
from sims.games.pizzatheory.rules import FIRST_SEAT, ROUNDS, SUPPLY, Rules
from tests.generated import generated

pytestmark = pytest.mark.generated

QUICK = 6
"""Examples per (case, players) in ``make test`` (5 families and "each seat its own" x 2
player counts: 72 examples)."""

# --------------------------------------------------------------------------- the boards


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_list(names: list[str]) -> str:
    return "[" + ", ".join(_toml_str(x) for x in names) + "]"


def board_text(
    name: str,
    labels: list[str],
    adjacency: dict[str, list[str]],
    directions: list[tuple[list[str], list[list[str]]]],
) -> str:
    """A board file's text (the format of ``board.py``), written by hand, not by
    :func:`board_toml`, so the parser reads what a designer would write."""
    out = [f"name = {_toml_str(name)}", f"spaces = {_toml_list(labels)}", "", "[adjacency]"]
    out += [f"{_toml_str(s)} = {_toml_list(adjacency[s])}" for s in labels]
    for start, lines in directions:
        out += ["", "[[direction]]", f"start = {_toml_list(start)}", "lines = ["]
        out += [f"    {_toml_list(line)}," for line in lines]
        out.append("]")
    return "\n".join(out) + "\n"


def read_board(text: str, source: str = "generated.toml") -> Board:
    """The board of a file's text, through the real reader and parser."""
    return parse_board(parse_toml(text, f"board {source}", BoardError), source)


def _points(layout: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` points of the plane (n, 2) laid out as ``layout``, jittered so that no two
    projections tie (each direction's lines are then exactly straight)."""
    if layout in ("lattice", "ring"):
        # a hexagonal lattice by distance from the centre (7 = a ring of six around one)
        cells = [(q, r) for q in range(-10, 11) for r in range(-10, 11) if abs(q + r) <= 10]
        pts = np.array([(q + r / 2, r * math.sqrt(3) / 2) for q, r in cells])
        pts = pts[np.argsort(np.hypot(pts[:, 0], pts[:, 1]), kind="stable")][:n]
    elif layout == "strip":  # a long thin pizza
        pts = np.column_stack([np.arange(n, dtype=float), rng.uniform(0, 1.5, n)])
    else:  # a scatter in the unit disc
        r, a = np.sqrt(rng.uniform(0, 1, n)), rng.uniform(0, 2 * math.pi, n)
        pts = np.column_stack([r * np.cos(a), r * np.sin(a)])
    return pts + rng.normal(0, 1e-6, pts.shape)


def _edges(style: str, pts: np.ndarray, rng: np.random.Generator) -> set[tuple[int, int]]:
    """Undirected edges (i < j): a Euclidean spanning tree (the board in one piece) and,
    by ``style``, nothing more, near pairs, random pairs, or every pair."""
    n = len(pts)
    dist = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    edges: set[tuple[int, int]] = set()
    inside, best, via = {0}, dist[0].copy(), np.zeros(n, dtype=int)
    best[0] = np.inf
    for _ in range(n - 1):  # Prim's tree
        j = int(np.argmin(np.where([i in inside for i in range(n)], np.inf, best)))
        edges.add((min(j, via[j]), max(j, via[j])))
        inside.add(j)
        closer = dist[j] < best
        best[closer], via[closer] = dist[j][closer], j
        best[list(inside)] = np.inf
    if style == "geometric":
        scale = np.median(np.sort(dist, axis=1)[:, 1]) * 1.3
        edges |= {(i, j) for i in range(n) for j in range(i + 1, n) if dist[i, j] <= scale}
    elif style == "dense":
        p = rng.uniform(0.2, 0.8)
        edges |= {(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < p}
    elif style == "complete":
        edges |= {(i, j) for i in range(n) for j in range(i + 1, n)}
    return edges


def _cut_sizes(style: str, n: int, rng: np.random.Generator) -> list[int]:
    """Six strictly growing near-side sizes in 1 .. n - 1."""
    k = LINES.high
    if style == "near":  # lines cutting off 1, 2, ... spaces
        return list(range(1, k + 1))
    if style == "far":  # lines leaving 1, 2, ... spaces beyond
        return list(range(n - k, n))
    if style == "even":
        return [round((i + 1) * n / (k + 1)) for i in range(k)]
    return sorted(int(x) for x in rng.choice(np.arange(1, n), size=k, replace=False))


@st.composite
def boards(draw, straight: bool | None = None) -> str:
    """A board file's text: tiny (7 spaces), small, irregular or large (up to the limit);
    straight-cut (``straight``), or not, or either (None: 3 in 4 straight)."""
    size = draw(st.sampled_from(["tiny", "tiny", "small", "medium", "large"]))
    n = {
        "tiny": SPACES.low,
        "small": draw(st.integers(SPACES.low, 16)),
        "medium": draw(st.integers(17, 70)),
        "large": draw(st.sampled_from([SPACES.high, draw(st.integers(71, SPACES.high))])),
    }[size]
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    layout = draw(st.sampled_from(["ring", "lattice", "scatter", "strip"]))
    pts = _points(layout, n, rng)
    styles = ["tree", "geometric", "dense"] + (["complete"] if n <= 40 else [])
    edges = _edges(draw(st.sampled_from(styles)), pts, rng)
    # directions: the rulebook's three at 120 degrees, skewed ones, or three near-parallel
    turn = draw(st.sampled_from(["regular", "skewed", "parallel"]))
    a0 = draw(st.floats(0, 2 * math.pi))
    spread = {"regular": 2 * math.pi / 3, "skewed": draw(st.floats(0.2, 2.0)), "parallel": 1e-3}
    angles = [a0 + d * spread[turn] for d in range(3)]
    if straight is None:
        straight = draw(st.booleans()) or draw(st.booleans())
    x_style = draw(st.sampled_from(["nearest", "anywhere"]))
    orders = []
    for d in range(3):
        if straight:
            proj = pts @ np.array([math.cos(angles[d]), math.sin(angles[d])])
            orders.append([int(i) for i in np.argsort(-proj, kind="stable")])
        else:
            orders.append([int(i) for i in rng.permutation(n)])
    cut_style = [draw(st.sampled_from(["near", "far", "even", "random"])) for _ in range(3)]
    # ids: the file's order, shuffled or not; names plain or awkward
    ids = [int(i) for i in (rng.permutation(n) if draw(st.booleans()) else np.arange(n))]
    odd = draw(st.booleans())
    labels = [f'sp "{i}" é' if odd else f"s{i}" for i in range(n)]
    name = [labels[i] for i in ids]  # the file lists space i of the geometry as name[i]
    taken: set[int] = set()
    directions = []
    for d in range(3):
        sizes = _cut_sizes(cut_style[d], n, rng)
        lines = [[name[i] for i in orders[d][:m]] for m in sizes]
        free = [i for i in orders[d] if i not in taken]
        start = free[:2] if x_style == "nearest" else [int(i) for i in rng.choice(free, 2, False)]
        taken |= set(start)
        directions.append(([name[i] for i in start], lines))
    adjacency: dict[str, list[str]] = {name[i]: [] for i in range(n)}
    for i, j in sorted(edges):
        adjacency[name[i]].append(name[j])
        adjacency[name[j]].append(name[i])
    in_file_order = sorted(range(n), key=lambda i: ids[i])
    return board_text(f"gen-{n}", [name[i] for i in in_file_order], adjacency, directions)


SUPPLIES = (SUPPLY.low, SUPPLY.low + 1, 16, SUPPLY.high - 1, SUPPLY.high)


@st.composite
def rule_options(draw, players: int, family: str, n_spaces: int) -> Rules:
    """Rule options, each at an end of its range or the ruling, within a time budget: the
    most rounds (10 000) only for random play on a small board; the swing families play at
    most 200 rounds (60 on large boards), the search player 12 (each of its decisions plays
    games out)."""
    if family == "random" and n_spaces <= 40:
        rounds = [ROUNDS.low, ROUNDS.low + 1, 200, ROUNDS.high]
    elif family == "search":
        rounds = [ROUNDS.low, ROUNDS.low + 1, 12]
    elif n_spaces <= 40:
        rounds = [ROUNDS.low, ROUNDS.low + 1, 12, 200]
    else:
        rounds = [ROUNDS.low, ROUNDS.low + 1, 12, 60]
    rotations = ["clockwise", "counterclockwise", "none"] if players == 3 else ["clockwise"]
    return Rules(
        first_seat=draw(st.integers(FIRST_SEAT.low, players - 1)),
        cycle_first_seat=draw(st.booleans()),
        rotation=draw(st.sampled_from(rotations)),
        replacement_order=draw(st.sampled_from(["by-region", "by-space"])),
        two_way_tie=draw(st.sampled_from(["remove", "nothing"])),
        safety=draw(st.booleans()),
        placement=draw(st.sampled_from(["apart", "anywhere"])),
        supply=draw(
            st.sampled_from([SUPPLY.low, SUPPLY.low + 1, 16, SUPPLY.high - 1, SUPPLY.high])
        ),
        runout_tiebreak=draw(st.booleans()),
        max_rounds=draw(st.sampled_from(rounds)),
    )


def _spec(draw, family: str) -> str:
    """A spec of ``family``, at its defaults or with parameters at the ends of their
    bounds (mixed with few regret-matching iterations, to keep the reference quick)."""
    if family in ("random", "greedy"):
        return family
    if family == "search":  # small budgets; the field valuation at the ends of its bounds
        params = {
            "budget": draw(st.sampled_from([1, 3, 8])),
            "places": draw(st.sampled_from([1, 2, 255])),
            "model": draw(st.sampled_from([0, 1])),
            "aggression": draw(st.sampled_from([0.0, 1.0, 10.0])),
            "risk": draw(st.sampled_from([-5.0, 0.0, 5.0])),
        }
        return f"search({','.join(f'{k}={v:g}' for k, v in params.items())})"
    params = {
        "aggression": draw(st.sampled_from([0.0, 1.0, 10.0])),
        "leader": draw(st.sampled_from([0.0, 0.5, 10.0])),
        "risk": draw(st.sampled_from([-5.0, 0.0, 0.4, 5.0])),
        "blind": draw(st.sampled_from([0, 1, 1000])),
    }
    if family == "mixed":
        params["iters"] = draw(st.sampled_from([1, 3, 12]))
    elif draw(st.booleans()):
        return "heuristic"
    return f"{family}({','.join(f'{k}={v:g}' for k, v in params.items())})"


FAMILIES = ("random", "greedy", "heuristic", "mixed", "search")
assert set(FAMILIES) == set(KINDS), "a family the kernel plays is not generated"
MIXABLE = FAMILIES[:-1]
"""The families drawn seat by seat in "each seat its own" (at up to 200 rounds; search has
its own cases, at most 12 rounds)."""
CASES = [(f, n) for f in (*FAMILIES, "each seat its own") for n in (2, 3)]


# --------------------------------------------------------------------------- the checks


def assert_agree(board: Board, rules: Rules, n: int, specs, games: int, seed: int) -> None:
    """The kernel's seat, game and decision rows equal the reference engine's, game by game
    (as ``test_pizzatheory_kernel._agree``, on a board object)."""
    seats, games_, recs = play_many(board, rules, n, seed, 0, games, records=True,
                                    strategies=specs)  # fmt: skip
    assert recs.shape[0] == games_[:, -1].sum()
    _fit(seats, SEAT_COLUMNS, _SEAT_TYPES)
    _fit(games_, (*GAME_COLUMNS, "decisions"), _GAME_TYPES)
    _fit(recs, DECISION_COLUMNS, {"phase": np.int8, **_DECISION_TYPES})
    row = 0
    for g in range(games):
        records: list[list[int]] = []
        state = play_game(n, seat_strategies(specs, n), seed, g, board, rules, records)
        assert seats[g].tolist() == seat_rows(state), ("seat rows", g)
        assert games_[g].tolist() == [*game_row(state), len(state.trace)], ("game row", g)
        assert recs[row : row + len(records)].tolist() == records, ("decisions", g)
        row += len(records)


def _fit(rows: np.ndarray, columns, types) -> None:
    """Every column of ``rows`` (last axis) fits the type the plugin derives from the
    declared limits (the tables would refuse it otherwise)."""
    for i, c in enumerate(columns):
        if rows.size:
            info = np.iinfo(types[c])
            col = rows[..., i]
            assert info.min <= col.min() and col.max() <= info.max, (c, col.min(), col.max())


def _games(draw, board: Board, rules: Rules) -> int:
    """Games per example: one on a large board or at the ruling's 200 rounds and more, else
    1 to 3 (the reference engine sets the pace)."""
    return 1 if board.n_spaces > 70 or rules.max_rounds >= 200 else draw(st.integers(1, 3))


@pytest.mark.parametrize("family, n", CASES, ids=[f"{f.split()[0]}-{n}p" for f, n in CASES])
@generated(quick=QUICK, validate=300)
@given(data=st.data())
def test_generated_boards_play_alike_or_are_refused(family, n, data):
    text = data.draw(boards(), label="board")
    try:
        board = read_board(text)
    except SlicelabError as e:  # refused up front: fine, if it names the problem
        assert str(e).startswith("board generated.toml: "), str(e)
        event("refused")
        return
    event(f"accepted, {'7' if board.n_spaces == SPACES.low else 'more'} spaces")
    if family == "each seat its own":
        specs = [_spec(data.draw, data.draw(st.sampled_from(MIXABLE))) for _ in range(n)]
    else:
        specs = _spec(data.draw, family)
    rules = data.draw(rule_options(n, family, board.n_spaces), label="rules")
    games = _games(data.draw, board, rules)
    assert_agree(board, rules, n, specs, games, seed=data.draw(st.integers(0, 2**32 - 1)))


@generated(quick=8, validate=500)
@given(text=boards(straight=True))
def test_straight_cut_boards_are_accepted_and_read_back_equal(text):
    """Every straight-cut board the strategy writes is valid, so the play test is never
    vacuous, and reads back equal once written out by ``board_toml``."""
    board = read_board(text)
    assert SPACES.low <= board.n_spaces <= SPACES.high
    counts = {board.region_count(c) for c in product(range(LINES.high), repeat=3)}
    assert REGIONS.low <= min(counts) and max(counts) <= REGIONS.high
    assert read_board(board_toml(board)) == board


@generated(quick=8, validate=500)
@given(text=boards(straight=False))
def test_boards_of_crooked_lines_are_refused_for_their_regions_only(text):
    """Random nested near sides (not straight lines): the parser refuses the board naming
    the regions limit, or accepts it (then it is a board like any other)."""
    try:
        read_board(text)
    except BoardError as e:
        assert f"regions of one cut triple; at most {REGIONS.high}" in str(e), str(e)


# --------------------------------------------------------------------------- regressions

RING = "C R0 R1 R2 R3 R4 R5"
RING_EDGES = "C-R0 C-R1 C-R2 C-R3 C-R4 C-R5 R0-R1 R1-R2 R2-R3 R3-R4 R4-R5 R0-R5"
RING_ORDERS = ("R2 R1 R3 C R0 R4 R5", "R4 R3 R5 C R2 R0 R1", "R0 R5 R1 C R4 R2 R3")
RING_STARTS = ("R1 R2", "R3 R4", "R0 R5")
SMALL_BOARDS = {
    # six ring spaces around a centre; each direction's lines cut off 1, 2, ..., 6 spaces
    "ring-7": (RING, RING_EDGES, RING_ORDERS, RING_STARTS),
    # the same ring cut along other directions (3 to 6 regions)
    "ring-7-turned": (
        RING,
        RING_EDGES,
        ("R2 R1 R3 C R0 R4 R5", "R3 R4 R2 C R5 R1 R0", "R0 R5 R1 C R4 R2 R3"),
        RING_STARTS,
    ),  # fmt: skip
    # a row of 7, cut from either end and from the middle out (2 to 5 regions)
    "strip-7": (
        "p0 p1 p2 p3 p4 p5 p6",
        "p0-p1 p1-p2 p2-p3 p3-p4 p4-p5 p5-p6",
        ("p0 p1 p2 p3 p4 p5 p6", "p6 p5 p4 p3 p2 p1 p0", "p3 p2 p4 p1 p5 p0 p6"),
        ("p0 p1", "p5 p6", "p2 p4"),
    ),  # fmt: skip
    # the ring with every space next to every other: under 'apart' nobody ever places
    "complete-7": (
        RING,
        " ".join(f"{a}-{b}" for i, a in enumerate(RING.split()) for b in RING.split()[i + 1 :]),
        RING_ORDERS,
        RING_STARTS,
    ),  # fmt: skip
}
"""The 7-space boards (the fewest the format allows) whose swing-strategy games crashed the
kernel or disagreed with the reference engine: the kernel's work rows were as wide as
``max(spaces, 8)``, so on 7 spaces the swing strategies read an 8th space off ``owner``
(an empty-looking row of zeros: a phantom topping of colour 0) and the region table one
column past its end. Each is (spaces, neighbour pairs, each direction's spaces in the order
its lines cut them off, each position's X spaces)."""


def small_board_text(name: str) -> str:
    """One of :data:`SMALL_BOARDS` as a board file's text."""
    spaces, edges, orders, starts = SMALL_BOARDS[name]
    labels = spaces.split()
    adjacency: dict[str, list[str]] = {s: [] for s in labels}
    for pair in edges.split():
        a, b = pair.split("-")
        adjacency[a].append(b)
        adjacency[b].append(a)
    directions = []
    for order, start in zip(orders, starts, strict=True):
        o = order.split()
        directions.append((start.split(), [o[: k + 1] for k in range(LINES.high)]))
    return board_text(name, labels, adjacency, directions)


REGRESSIONS = [
    (board, n, spec)
    for board in SMALL_BOARDS
    for spec in ("greedy", "heuristic", "mixed(iters=5)", "random")
    for n in (2, 3)
]  # fmt: skip


REGRESSION_IDS = [f"{b}-{s.split('(')[0]}-{n}p" for b, n, s in REGRESSIONS]


@pytest.mark.parametrize("board, n, spec", REGRESSIONS, ids=REGRESSION_IDS)
def test_the_small_boards_that_crashed_the_kernel_play_alike(board, n, spec):
    """Every family at 2 and 3 players on each 7-space board: the kernel gives exactly the
    reference engine's seat, game and decision rows, game for game (2 games of up to 50
    rounds: the crash came at the first swing decision, the disagreement within 50 rounds;
    ``test_the_ring_board_of_the_report_plays_its_200_rounds_alike`` plays the ruling's
    200)."""
    b = read_board(small_board_text(board), f"{board}.toml")
    assert b.n_spaces == SPACES.low
    assert_agree(b, Rules(max_rounds=50), n, spec, 2, seed=0)


@pytest.mark.parametrize("n, spec", [(3, "heuristic"), (3, "greedy"), (2, "greedy")])
def test_the_ring_board_of_the_report_plays_its_200_rounds_alike(n, spec, tmp_path):
    """The report's repro (``slicelab simulate pizzatheory -p 3 --games 10 --strategies
    heuristic --board ring-7.toml``; greedy wrote ``safety_rounds`` 67 where the reference
    has 0): whole games at the ruled 200 rounds from the board file, through the plugin's
    chunk as the command line plays it, every table equal on both engines."""
    from sims.core.study import Arm
    from sims.games.pizzatheory.plugin import GAME

    path = tmp_path / "ring-7.toml"
    path.write_text(small_board_text("ring-7"), encoding="utf-8")
    arm = Arm(name="main", game="pizzatheory", players=n, strategies=(spec,) * n, games=2,
              seed=0, options={"board": str(path), "rules": {}})  # fmt: skip
    kernel = GAME.play_chunk(arm, 0, 2, True, engine="kernel")
    reference = GAME.play_chunk(arm, 0, 2, True, engine="reference")
    for table in ("seats", "games"):
        got, want = getattr(kernel, table), getattr(reference, table)
        assert got.keys() == want.keys()
        for c in got:
            assert got[c].dtype == want[c].dtype and got[c].tolist() == want[c].tolist(), c
    assert kernel.decisions.equals(reference.decisions)
    assert reference.games["rounds"].tolist() == [200, 200]  # draws at the round bound
