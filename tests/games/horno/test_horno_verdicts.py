"""Horno's ratings verdict names the search player's rating against the heuristic at the
player count it is rated at, whichever way round the gaps table stores the pair."""

import polars as pl
import pytest

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


# ------------------------------------------------------------------------ dish types
def _claim(name: str, est: float, low: float, high: float, column: str = "value_pp") -> dict:
    from analysis.robust import sign

    return {"type_name": name, column: est, "adj_low": low, "adj_high": high, "family": 5,
            "sign": sign(low, high)}  # fmt: skip


OWN = pl.DataFrame({
    "type_name": ["Pizza", "Yakitori", "Hamburguesa", "Sopa", "Burrito"],
    "taken": [100, 100, 100, 100, 100], "completed": [70, 60, 66, 64, 70],
    "completion": [0.7, 0.6, 0.66, 0.64, 0.7], "per_dish": [12.1, 10.0, 13.0, 11.0, 12.5],
})  # fmt: skip
PRINTED = {"Pizza": 14.0, "Yakitori": 11.3, "Hamburguesa": 14.0, "Sopa": 11.3, "Burrito": 14.0}

STRENGTH = [
    # id, claims (restricted play, replacement, own points; None: not in the study), the
    # sentence (exact, or fragments it holds)
    ("the-three-differ", (_claim("Burrito", 3.8, 2.0, 5.7), _claim("Hamburguesa", 5.2, 2.8, 7.5),
                          _claim("Pizza", 0.9, 0.7, 1.0, "excess")),
     "Which dish type is stronger at 3 players — what a seat loses in win share when it may "
     "never take the type, the rest of its play adapting, on the same deals — is the question "
     "restricted play answers: Burrito is the strongest, +3.8 pp [+2.0, +5.7] (the largest of "
     "5 types, its interval corrected for the pick); replacement names Hamburguesa (+5.2 pp "
     "[+2.8, +7.5] of win share to its takers) because it prices only the type's printed "
     "points against an average dish of 13 points (Hamburguesa's dishes print 14.0 on "
     "average), and only for the seats that completed one of its dishes; own points name "
     "Pizza (+0.9 points [+0.7, +1.0] per dish taken over the average dish) because they "
     "count what a dish taken scores (Pizza's dishes are completed 70% of the time (the most) "
     "against 66% for every type, and score 12.1 points when completed), not what the seat "
     "gave up to take it nor that it was taken where the hand suited it."),
    ("all-agree", (_claim("Pizza", 3.0, 0.5, 5.5), _claim("Pizza", 5.2, 2.8, 7.5),
                   _claim("Pizza", 0.9, 0.7, 1.0, "excess")),
     ("restricted play answers: Pizza is the strongest, +3.0 pp [+0.5, +5.5]",
      "; replacement agrees (Pizza, +5.2 pp [+2.8, +7.5] of win share to its takers); own "
      "points agree (Pizza, +0.9 points [+0.7, +1.0] per dish taken over the average dish).")),
    ("none-clear-once-corrected", (_claim("Burrito", 2.1, -0.3, 4.5),
                                   _claim("Pizza", 0.4, -1.5, 2.3), None),
     ("restricted play answers: no type is measurably stronger than the others: the largest, "
      "Burrito's +2.1 pp [-0.3, +4.5], is not clear of 0 once corrected for picking it among 5",
      "; replacement names Pizza (+0.4 pp [-1.5, +2.3] of win share to its takers, not clear "
      "of 0 once corrected) because")),
    ("replacement-stands-in", (None, _claim("Pizza", 5.2, 2.8, 7.5),
                               _claim("Pizza", 0.9, 0.7, 1.0, "excess")),
     ("is the question restricted play answers; the study has no restricted play, so "
      "replacement stands in: Pizza is the strongest, +5.2 pp [+2.8, +7.5]",
      "; own points agree (Pizza,")),
]  # fmt: skip


@pytest.mark.parametrize("case", STRENGTH, ids=[c[0] for c in STRENGTH])
def test_one_sentence_says_which_estimand_answers_and_why_the_others_differ(case):
    from analysis.horno.prose import strength_sentence

    _, found, expected = case
    names = ("restricted play", "replacement", "own points")
    claims = {k: c for k, c in zip(names, found, strict=True) if c is not None}
    text = strength_sentence(claims, OWN, PRINTED, 13, 3)
    if isinstance(expected, str):
        assert text == expected
    else:
        assert all(x in text for x in expected), text


def test_the_strongest_is_the_highest_estimate_corrected_over_the_family():
    from analysis.horno.verdicts import strongest

    t = pl.DataFrame({"type_name": list("ABCDE"), "value_pp": [1.0, 3.0, -4.0, 0.5, 2.0],
                      "value_low": [-1.0, 1.0, -6.0, -1.5, 0.0],
                      "value_high": [3.0, 5.0, -2.0, 2.5, 4.0]})  # fmt: skip
    x = strongest(t, "value_pp", "value_low", "value_high")
    assert x["type_name"] == "B" and x["family"] == 5  # the highest, not the largest |value|
    assert x["adj_low"] < 1.0 and x["adj_high"] > 5.0  # wider than its own 95% interval
    assert x["sign"] == (1 if x["adj_low"] > 0 else 0)


# ------------------------------------------------------------------------ seats, count
def _positions(edges: dict[int, list[float]], half: float = 1.0) -> pl.DataFrame:
    rows = [{"players": n, "position": p, "games": 5000, "win_share": 1 / n + e / 100,
             "edge_pp": e, "edge_low": e - half, "edge_high": e + half, "shared": 0.01,
             "same_as_seat": True}
            for n, es in edges.items() for p, e in enumerate(es)]  # fmt: skip
    return pl.DataFrame(rows)


MAIN = {2: [10.0, -10.0], 3: [-1.0, -4.0, 5.0]}


@pytest.mark.parametrize(
    "greedy, robust",
    [({2: [9.0, -9.0], 3: [0, -2, 2]}, True), ({2: [0.5, -0.5], 3: [0, 2, -2]}, False)],
)
def test_the_count_verdict_recommends_only_what_the_seat_verdict_calls_robust(greedy, robust):
    from analysis.horno.verdicts import count_verdict, seats_verdict
    from analysis.sections import Results

    tables = {"heuristic field": _positions(MAIN), "greedy field": _positions(greedy)}
    r = Results(out=None, manifest={}, game="horno", report=None, tables={"positions": tables})
    seats, count = seats_verdict(r), count_verdict(r)
    assert "The largest edge is position 0's at 2 players, +10.0 pp [" in seats.answer
    assert ("By player count, the largest edge: 2p position 0 +10.0 pp [+9.0, +11.0]; 3p "
            "position 2 +5.0 pp [+4.0, +6.0].") in seats.answer  # fmt: skip
    assert "once corrected for picking it among the 5 positions of all counts (ahead)" in (
        seats.answer
    )
    assert "(intervals corrected for picking the largest of the 5 positions" in count.answer
    if robust:
        assert seats.robustness == "robust"
        # one recommendation per count, for its largest edge that qualifies
        assert seats.recommendation.startswith(
            "The first player at 2 players is ahead by +10.0 pp ["
        )
        assert " Position 2 at 3 players is ahead by +5.0 pp [" in seats.recommendation
        assert count.recommendation.startswith("Position 0 at 2 players is ahead by +10.0 pp [")
    else:
        assert seats.robustness.startswith("not robust")
        assert seats.recommendation == "" and count.recommendation == ""
        assert "this edge is not robust" in count.answer


# ------------------------------------------------------------------------ variants
def _change(measure: str, change: float, nonzero: int, pos: int, p: float) -> dict:
    return {"variant": "radioactive_bonus = each", "block": "radio-each", "players": 3,
            "measure": measure, "deals": 500, "default": 0.0, "variant_value": change,
            "change": change, "low": change - 0.01, "high": change + 0.01, "nonzero": nonzero,
            "positive": pos, "negative": nonzero - pos, "sign_p": p}  # fmt: skip


@pytest.mark.parametrize("nonzero, words", [
    (4, "With radioactive_bonus = each at 3 players only 4 of the 500 deals end with other "
        "scores, too few for an interval to carry a claim; the mean score per seat: 4 of 500 "
        "deals differ (3 up, 1 down; exact sign test p = 0.62)."),
    (60, "With radioactive_bonus = each at 3 players (500 deals; 12.0 % ["),
])  # fmt: skip
def test_a_variant_carried_by_a_handful_of_deals_is_worded_from_the_exact_test(nonzero, words):
    from analysis.horno.prose import variant_sentence

    rows = [_change("score", 0.02, nonzero, 3 if nonzero == 4 else 50, 0.625),
            {**_change("differs", nonzero / 500, nonzero, nonzero, float("nan")),
             "low": 0.1, "high": 0.15}]  # fmt: skip
    text = variant_sentence(pl.DataFrame(rows), "radioactive_bonus = each", 3)
    assert text.startswith(words), text
