"""Horno's ratings verdict names the search player's rating against the heuristic at the
player count it is rated at, whichever way round the gaps table stores the pair."""

import polars as pl

from analysis.horno.verdicts import search_sentence


def _gaps(a: str, b: str, gap: float, low: float, high: float, win: float) -> pl.DataFrame:
    return pl.DataFrame({"players": [2, 4], "a": [a, "heuristic"], "b": [b, "greedy"],
                         "gap": [gap, 115.0], "low": [low, 104.0], "high": [high, 126.0],
                         "win": [win, 0.66], "deals": [100, 750]})  # fmt: skip


def test_search_sentence_orients_the_pair_as_search_minus_heuristic():
    text = search_sentence(_gaps("heuristic", "search(budget=4)", 16.0, -29.0, 55.0, 0.52))
    assert text == (" At 2 players the search player, search(budget=4), against the heuristic: "
                    "-16 Elo [-55, +29] (not distinguishable from 0; it finishes ahead 48% of "
                    "the time; 100 deals).")  # fmt: skip
    text = search_sentence(_gaps("search(budget=8)", "heuristic", 80.0, 20.0, 140.0, 0.61))
    assert "search(budget=8), against the heuristic: +80 Elo [+20, +140] (above 0;" in text


def test_without_a_search_rating_it_says_so():
    assert search_sentence(None) == " The search player is not rated in this study."
    only_4p = _gaps("greedy", "random", 857.0, 804.0, 925.0, 0.99)
    assert search_sentence(only_4p) == " The search player is not rated in this study."
