"""``slicelab replay`` text a person can follow, for every game (issue 28, item 6).

Table-driven over the four games: no internal code words (a cut's rank, a gap mask, a
portion's index, raw cube coordinates outside the legend); slices, portions and pieces
named from the game's data, and each cut drawn; Pizza Theory's board legend; ``--reveal``
naming what is hidden by default (and saying so where nothing is hidden); the same
arguments giving the same text. The drawing helpers are checked on exact examples.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from click.testing import CliRunner
from toy_game import GAME as TOY

from sims.cli import cli
from sims.core.game import get_game
from sims.games.horno.game import play_game as horno_game
from sims.games.horno.game import seat_strategies as horno_seats
from sims.games.horno.replay import track_hands
from sims.games.nyslice.game import play_game as nyslice_game
from sims.games.nyslice.game import seat_strategies as nyslice_seats
from sims.games.nyslice.replay import PORTION_LETTERS
from sims.games.pieceocake.cuts import pieces_of
from sims.games.pieceocake.game import play_game as pieceocake_game
from sims.games.pieceocake.game import seat_strategies as pieceocake_seats
from sims.games.pieceocake.replay import PIECE_LETTERS
from sims.games.pizzatheory.board import default_board, shipped_board
from sims.games.pizzatheory.game import play_game as pizzatheory_game
from sims.games.pizzatheory.game import seat_strategies as pizzatheory_seats
from sims.games.pizzatheory.replay import _before, draw_board, space_names
from sims.games.replaytext import ring_drawing

# (game, players, seed, index, strategies): one game each, with cheap strategies
CASES = [
    ("nyslice", 4, 7, 0, "greedy,random,greedy,random"),
    ("nyslice", 3, 27, 0, "random"),  # Mystery slice eaten, Dibs!, Sneak-a-Slice, Seconds
    ("nyslice", 2, 3, 0, "greedy,random"),
    ("pieceocake", 3, 1, 0, "greedy,heuristic,random"),
    ("pieceocake", 2, 2, 1, "random"),
    ("pizzatheory", 3, 1, 0, "greedy,random,random"),
    ("pizzatheory", 2, 1, 0, "greedy,random"),
    ("horno", 3, 1, 0, "greedy,random,random"),
    ("horno", 2, 5, 2, "random"),
]
IDS = [f"{g}-p{n}-s{s}-i{i}" for g, n, s, i, _ in CASES]


def _specs(specs: str, players: int) -> list[str]:
    parts = specs.split(",")
    return parts * players if len(parts) == 1 else parts


def _replay(game: str, players: int, seed: int, index: int, specs: str, reveal: bool) -> str:
    return get_game(game).replay({}, players, _specs(specs, players), seed, index, reveal=reveal)


_TEXTS: dict[tuple, str] = {}


def text_of(case: tuple, reveal: bool = False) -> str:
    """The replay of a case, played once per test session."""
    key = (*case, reveal)
    if key not in _TEXTS:
        _TEXTS[key] = _replay(*case, reveal=reveal)
    return _TEXTS[key]


CUBE = re.compile(r"-?\d+,-?\d+,-?\d+")


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("reveal", [False, True], ids=["hidden", "reveal"])
def test_no_internal_code_words(case, reveal):
    text = text_of(case, reveal)
    assert "rank " not in text and "(rank" not in text
    assert "gap mask" not in text and "mask " not in text
    assert not re.search(r"\[\d+\]", text), "a portion or piece named by its index"
    assert "direction A" not in text  # Pizza Theory: directions are the positions'
    for line in text.splitlines():
        if CUBE.search(line):  # only the legend's line that explains the coordinates
            assert "cube coordinates" in line, line


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("reveal", [False, True], ids=["hidden", "reveal"])
def test_same_arguments_same_text(case, reveal):
    assert _replay(*case, reveal=reveal) == text_of(case, reveal)


# --- New York Slice and Piece o' Cake: portions and pieces by name, cuts drawn ----------


@pytest.mark.parametrize("case", [c for c in CASES if c[0] == "nyslice"], ids=str)
def test_nyslice_portions_list_their_slices_by_deck_label(case):
    _, n, seed, index, specs = case
    state = nyslice_game(n, nyslice_seats(_specs(specs, n), n), seed, index)
    text = text_of(case)
    lab = state.deck.label
    cuts = [ev for ev in state.events if ev[0] == "cut"]
    assert len(cuts) == state.rounds
    assert text.count(" portions (") == state.rounds  # one cut header per round
    for ev in cuts:
        for i, (slices, has_special) in enumerate(ev[3]):
            line = f"     {PORTION_LETTERS[i]}: " + ", ".join(lab(s) for s in slices)
            if not slices:
                line = f"     {PORTION_LETTERS[i]}: Today's Special ("
            assert line in text
            if has_special and slices:
                assert line + " + Today's Special (" in text
    for ev in state.events:
        if ev[0] == "choose":
            assert f"takes portion {PORTION_LETTERS[ev[2]]}" in text
    # every slice a seat collects is named by its label
    for ev in state.events:
        if ev[0] == "collect":
            assert f"collects {lab(ev[2])}" in text or f"Mystery slice, {lab(ev[2])}" in text


@pytest.mark.parametrize("case", [c for c in CASES if c[0] == "pieceocake"], ids=str)
def test_pieceocake_pieces_list_their_slices_by_variety(case):
    _, n, seed, index, specs = case
    state = pieceocake_game(n, pieceocake_seats(_specs(specs, n), n), seed, index)
    text = text_of(case)
    names = [v.name for v in state.cake.varieties]
    r = -1
    for ev in state.events:
        if ev[0] == "cut":
            r += 1
            circle = state.deal.stacks[r]
            for j, pos in enumerate(pieces_of(ev[2])):
                piece = ", ".join(names[state.variety[circle[p]]] for p in pos)
                assert f"     {PIECE_LETTERS[j]}: {piece}" in text
        elif ev[0] == "take":
            assert f"takes piece {PIECE_LETTERS[ev[2]]}: " in text


@pytest.mark.parametrize("case", [c for c in CASES if c[0] in ("nyslice", "pieceocake")], ids=str)
def test_every_cut_is_drawn_with_its_portions_labelled(case):
    lines = text_of(case).splitlines()
    drawings = [k for k, x in enumerate(lines) if re.match(r"^     [(\[]", x)]
    rounds = sum(1 for x in lines if x.startswith("== Round"))
    assert len(drawings) == rounds
    for k in drawings:
        ring, labels = lines[k], lines[k + 1]
        assert ring.rstrip().endswith((")", "]"))
        letters = set(labels.split())
        assert letters and letters <= set(PORTION_LETTERS)
        # k runs on the ring make k cuts ('|'), or none for one run; a wrap cut shows twice
        assert ring.count("|") == 0 or ring.count("|") >= 2
        assert "|" in ring or len(letters) == 1


RING_EXAMPLES = [
    # tokens, labels, closed -> the two lines
    (
        ["11", "Su", "7", "9"],
        ["D", "A", "A", "B"],
        True,
        ["(| 11 | Su 7 | 9 |)", "   D     A     B"],
    ),
    (["3", "4", "5"], ["A", "A", "A"], True, ["( 3 4 5 )", "    A"]),
    (["3", "4", "5", "6"], ["B", "A", "A", "B"], True, ["( 3 | 4 5 | 6 )", "  B    A    B"]),
    (["8/10", "5", "6"], ["A", "A", "B"], False, ["[ 8/10 5 | 6 ]", "    A      B"]),
]


@pytest.mark.parametrize("tokens,labels,closed,expected", RING_EXAMPLES)
def test_ring_drawing(tokens, labels, closed, expected):
    assert ring_drawing(tokens, labels, closed) == expected
    if closed:  # Piece o' Cake's circle is drawn the same way
        assert ring_drawing(tokens, labels) == expected


# --- Pizza Theory: the legend and the boards ---------------------------------------------


@pytest.mark.parametrize("case", [c for c in CASES if c[0] == "pizzatheory"], ids=str)
def test_pizzatheory_has_a_board_legend(case):
    text = text_of(case)
    legend = text.split("\nRound 1:")[0]
    assert "Legend (board hex-37, 37 spaces" in legend
    assert "marks: a topping of A seat 0, B seat 1" in legend and ". an empty space" in legend
    assert ("N the neutral colour" in legend) == (case[1] == 2)
    assert "cube coordinates q,r,s" in legend and "d4 is 0,0,0" in legend
    for d in (1, 2, 3):
        assert f"position {d} " in legend
    assert "a1  a2  a3  a4" in legend and "d1  d2  d3  d4  d5  d6  d7" in legend
    assert "at the start:" in legend
    rounds = text.count("\nRound ")
    assert text.count("after placing   regions") == rounds


def test_pizzatheory_space_names_and_drawing():
    board = default_board()
    names = space_names(board)
    assert names[board.labels.index("0,0,0")] == "d4"
    assert names[board.labels.index("0,-3,3")] == "a1"
    assert names[board.labels.index("3,0,-3")] == "d7"
    assert len(set(names)) == board.n_spaces
    picture = draw_board(board, ["."] * board.n_spaces)
    assert picture[0] == "   . . . ." and picture[3] == ". . . . . . ."
    # a board without its corners keeps its rows where the lattice puts them
    round31 = shipped_board("round-31")
    assert draw_board(round31, ["x"] * round31.n_spaces)[0] == "    x x"


@pytest.mark.parametrize("players,specs", [(3, "greedy,random,random"), (2, "greedy,random")])
def test_pizzatheory_board_after_placing_is_the_last_board_plus_the_placements(players, specs):
    state = pizzatheory_game(players, pizzatheory_seats(_specs(specs, players), players), 1, 0)
    for prev, rep in zip(state.reports, state.reports[1:], strict=False):
        placed = list(prev.owner)
        for i, c in rep.placements:
            placed[i] = c
        assert _before(rep) == tuple(placed)


# --- --reveal -----------------------------------------------------------------------------


@pytest.mark.parametrize("case", [c for c in CASES if c[0] == "horno"], ids=str)
def test_horno_reveal_names_the_hidden_cards(case):
    _, n, seed, index, specs = case
    state = horno_game(n, horno_seats(_specs(specs, n), n), seed, index)
    hidden, shown = text_of(case), text_of(case, reveal=True)
    kinds = state.cards.kinds
    assert "[hidden]" in hidden and "[hidden:" not in hidden
    assert "[hidden]" not in shown and "[hidden:" in shown
    for e in state.log:
        if e.what == "deal":
            names = ", ".join(kinds[k].name for k in e.cards)
            assert f"is dealt 3 cards [hidden: {names}]" in shown
            assert names not in hidden.split("Round 1")[0]
        if e.what == "sabotage":
            assert f"puts a face-down card [hidden: {kinds[e.cards[0]].name}]" in shown
        if e.what == "discard":
            assert f"discards [hidden: {kinds[e.cards[0]].name}]" in shown
    assert shown.count("  hands: ") == hidden.count("  hand sizes: ") == n * state.rules.rounds
    # every hand the replay lists agrees with the sizes the engine logged
    for line in shown.splitlines():
        if line.startswith("  hands: "):
            assert not re.search(r"seat \d+ \d+ cards(;|$)", line), line


@pytest.mark.parametrize("case", [c for c in CASES if c[0] == "horno"], ids=str)
def test_horno_hands_followed_through_the_log_are_the_engines(case):
    _, n, seed, index, specs = case
    state = horno_game(n, horno_seats(_specs(specs, n), n), seed, index)
    hands: list[Counter] = [Counter() for _ in range(n)]
    for e in state.log:
        track_hands(hands, e)
        if e.what == "status":
            assert [sum(h.values()) for h in hands] == list(e.info[2])
    assert hands == [Counter(h) for h in state.hands]


def test_nyslice_reveal_names_the_mystery_pool_and_the_eaten_mystery_slice():
    case = CASES[1]
    _, n, seed, index, specs = case
    state = nyslice_game(n, nyslice_seats(_specs(specs, n), n), seed, index)
    hidden, shown = text_of(case), text_of(case, reveal=True)
    pool = ", ".join(state.deck.label(s) for s in state.deal.mystery)
    assert f"mystery pool: 3 slices face down [hidden: {pool}]" in shown
    assert "mystery pool: 3 slices face down [hidden];" in hidden
    eaten = [ev[2] for ev in state.events if ev[0] == "eat" and ev[2] in state.deal.mystery]
    assert eaten, "the case is chosen for a Mystery slice eaten"
    for sid in eaten:
        assert f"eats the Mystery slice [hidden: {state.deck.label(sid)}]" in shown
    assert hidden.count("eats the Mystery slice [hidden]") == len(eaten)
    # nothing else differs: the rest of the game is public
    differ = [a for a, b in zip(hidden.splitlines(), shown.splitlines(), strict=True) if a != b]
    assert all("[hidden]" in a or "What no spectator" in a for a in differ)


def test_pieceocake_reveal_names_the_unseen_slices():
    case = CASES[3]
    _, n, seed, index, specs = case
    state = pieceocake_game(n, pieceocake_seats(_specs(specs, n), n), seed, index)
    names = [v.name for v in state.cake.varieties]
    unseen = ", ".join(names[state.variety[s]] for s in state.deal.unseen)
    assert f"2 slices left out unseen [hidden: {unseen}]" in text_of(case, reveal=True)
    assert "2 slices left out unseen [hidden]" in text_of(case)


@pytest.mark.parametrize("case", [c for c in CASES if c[0] == "pizzatheory"], ids=str)
def test_pizzatheory_reveal_says_nothing_is_hidden_in_one_line(case):
    hidden, shown = text_of(case).splitlines(), text_of(case, reveal=True).splitlines()
    extra = [x for x in shown if x not in hidden]
    assert len(shown) == len(hidden) + 1 and len(extra) == 1
    assert "nothing is hidden" in extra[0]


def test_toy_game_reveal_shows_the_dealt_hands():
    plain = TOY.replay({"rules": {"hand": 3}}, 2, ["random", "random"], 4, 0)
    shown = TOY.replay({"rules": {"hand": 3}}, 2, ["random", "random"], 4, 0, reveal=True)
    assert "[hidden:" not in plain and shown.count("was dealt [hidden: [") == 2


# --- the command line ---------------------------------------------------------------------


def test_reveal_flag_on_the_command_line_and_in_help():
    runner = CliRunner()
    help_text = runner.invoke(cli, ["replay", "--help"]).output
    assert "--reveal" in help_text and "hidden" in help_text
    args = ["replay", "horno", "-p", "2", "--seed", "5", "--index", "2", "--strategies", "random"]
    plain, shown = runner.invoke(cli, args), runner.invoke(cli, [*args, "--reveal"])
    assert plain.exit_code == shown.exit_code == 0
    assert "[hidden:" in shown.output and "[hidden:" not in plain.output
    assert plain.output == runner.invoke(cli, args).output


def test_the_replay_example_in_slicelab_help_runs():
    runner = CliRunner()
    top = runner.invoke(cli, ["--help"]).output
    example = [x.strip() for x in top.splitlines() if x.strip().startswith("slicelab replay")]
    assert len(example) == 1
    result = runner.invoke(cli, example[0].split()[1:])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("New York Slice, 4 players, seed 7, game 0")
