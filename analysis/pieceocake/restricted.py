"""What a Piece o' Cake option is worth: the win share of a seat that may use it minus that
of a seat that never does, on the same deals against the same field, from every seat in
turn (:mod:`analysis.restricted`, the generic estimator, re-exported here).

Piece o' Cake's options are forgoing a cake (the restricted seat plays
``heuristic(margin=1000)``: it never forgoes while a piece is free) and cutting fewer pieces
than the most allowed (``heuristic(fewer=-100)``: it never does). Against its own field the
unrestricted block is ``seats`` (every seat plays the field: averaged over the seats an
unrestricted seat wins 1/n of each deal); in the greedy field it is ``heur-greedy`` (the
unrestricted candidate among greedy players, paired by rotation and deal). Either way the
interval is a t interval over deals; n counts deals.

An option the field almost never uses changes only a handful of deals: then the t
interval is meaningless (four deals of 4,000 give ``+0.0 [+0.0, +0.0]``), and
:func:`tested_value` adds the exact sign test over the deals that differ
(:func:`analysis.stats.sign_test`): a *sparse* value (fewer than
:data:`analysis.stats.SPARSE_UNITS` deals differ) is claimed from that test, never from
its interval (``claim_sign``), and shown with it (:func:`value_text`).
"""

from __future__ import annotations

import math

import polars as pl

from analysis.formats import ci
from analysis.restricted import deal_values, option_value
from analysis.robust import sign
from analysis.stats import SignTest, sign_test

__all__ = ["deal_values", "option_value", "tested_value", "value_text", "claim_key"]

ALPHA = 0.05
"""Level of the exact sign test that gives a sparse value its sign."""

TEST_COLUMNS = ("differ", "up", "down", "sign_p", "sparse", "claim_sign")
"""The columns :func:`tested_value` adds: deals whose value is not 0, of them those where
the option helps (``up``) and hurts (``down``), the exact two-sided sign test's p, whether
the value is sparse, and the sign its claim may state (+1, −1 or 0)."""


def tested_value(out, restricted: str, unrestricted: str = "seats") -> pl.DataFrame:
    """:func:`analysis.restricted.option_value` per player count, with the exact sign test
    of the per-deal values (:data:`TEST_COLUMNS`).

    ``claim_sign`` is what a sentence may say: the side of the t interval when enough deals
    differ; for a sparse value the direction of the sign test when its p is below
    :data:`ALPHA`, else 0 (and 0 when no deal differs).
    """
    t = option_value(out, restricted, unrestricted)
    deals = deal_values(out, restricted, unrestricted)
    rows = []
    for x in t.iter_rows(named=True):
        d = deals.filter(pl.col("players") == x["players"])["value"].to_numpy()
        test = sign_test(d)
        if test.sparse:
            s = 0 if test.p >= ALPHA else (1 if test.positive > test.negative else -1)
        else:
            s = sign(x["value_low"], x["value_high"])
        rows.append({"players": x["players"], "differ": test.nonzero, "up": test.positive,
                     "down": test.negative, "sign_p": test.p, "sparse": test.sparse,
                     "claim_sign": s})  # fmt: skip
    schema = {"players": pl.Int64, "differ": pl.Int64, "up": pl.Int64, "down": pl.Int64,
              "sign_p": pl.Float64, "sparse": pl.Boolean, "claim_sign": pl.Int64}  # fmt: skip
    return t.join(pl.DataFrame(rows, schema=schema), on="players", how="left")


def _test(x: dict) -> SignTest:
    return SignTest(int(x["deals"]), int(x["differ"]), int(x["up"]), int(x["down"]),
                    float(x["sign_p"]))  # fmt: skip


def claim_key(x: dict) -> str:
    """Where a value row's claim stands, for grouped sentences: ``above``, ``below`` or
    ``covers`` (the t interval against 0); for a sparse value ``few_above``,
    ``few_below`` or ``few_covers`` (the exact sign test: its direction at p <
    :data:`ALPHA`, else not distinguishable); ``unused`` (no deal differs: the field never
    used the option); ``none`` (no interval and no test)."""
    if x.get("differ") is None:  # a table without the test (an older caller)
        lo, hi = x["value_low"], x["value_high"]
        if not (math.isfinite(lo) and math.isfinite(hi)):
            return "none"
        return "above" if lo > 0 else "below" if hi < 0 else "covers"
    if x["differ"] == 0:
        return "unused"
    key = {1: "above", -1: "below"}.get(int(x["claim_sign"]), "covers")
    return f"few_{key}" if x["sparse"] else key


def value_text(x: dict, fmt: str = "+.1f") -> str:
    """A value as a sentence may print it: ``+1.2 pp [+0.4, +2.0]`` (t interval over
    deals), or for a sparse value the exact test in place of an interval: ``-0.03 pp [no
    interval: 4 of 4,000 deals differ, 1 for the option and 3 against; exact sign test p =
    0.62]``; ``+0.0 pp [identical on all 4,000 deals]`` when none differs."""
    if x.get("differ") is None or not x["sparse"]:
        return ci(x["value_pp"], x["value_low"], x["value_high"], "pp", fmt)
    if x["differ"] == 0:
        return f"+0.0 pp [identical on all {x['deals']:,} deals]"
    return f"{x['value_pp']:+.2f} pp [no interval: {sign_sentence(x)}]"


def sign_sentence(x: dict) -> str:
    """The exact test of a value row, as a clause: ``4 of 4,000 deals differ, 1 for the
    option and 3 against; exact sign test p = 0.62`` (for: the unrestricted seat did better
    on the deal)."""
    t = _test(x)
    return (f"{t.nonzero:,} of {t.n:,} deals differ, {t.positive:,} for the option and "
            f"{t.negative:,} against; exact sign test p = {t.p:.2g}")  # fmt: skip
