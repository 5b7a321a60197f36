"""New York Slice's sentences of interpretation, each a function of the numbers it states
(the generic ones are in :mod:`analysis.prose`). Each flips with its numbers; the unit
tests in ``tests/games/nyslice/test_nyslice_analysis.py`` show it."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import polars as pl

from analysis.prose import effect, listing, side


def field_theta(spec: str, players: int) -> float | None:
    """θ of a heuristic spec at a player count (its preset's where the spec sets none);
    None for a strategy without θ."""
    from sims.games.nyslice.strategies import make_strategy

    strategy = make_strategy(spec)
    params = getattr(strategy, "params", None)
    resolved = params(players) if callable(params) else strategy.spec.params
    theta = resolved.get("theta")
    return None if theta is None else float(theta)


def _counts(groups: Mapping[str, list[int]], words: Mapping[str, str]) -> str:
    return "; ".join(f"{words[k]} at {listing(v)} players" for k, v in groups.items() if v)


def eats_vs_field(theta: float, field: Mapping[int, float | None], name: str) -> str:
    """How a θ compares with the field's θ at each count: a larger θ eats less, so it
    ``collects more than {name}``; a smaller one eats more."""
    groups: dict[str, list[int]] = {"more": [], "less": [], "same": []}
    for n, t in sorted(field.items()):
        if t is not None:
            groups["more" if theta > t else "less" if theta < t else "same"].append(n)
    if not any(groups.values()):
        return f"which has no θ to compare with {name}'s"
    if len([k for k, v in groups.items() if v]) == 1:
        word = {"more": "collects more than", "less": "eats more than", "same": "plays like"}
        k = next(k for k, v in groups.items() if v)
        return f"which {word[k]} {name} at every player count"
    words = {"more": f"collects more than {name}", "less": f"eats more than {name}",
             "same": f"plays like {name}"}  # fmt: skip
    return "which " + _counts(groups, words)


def against_field(curve: pl.DataFrame, theta: float, name: str = "the field") -> str:
    """How one seat playing θ fares against the field (the θ curve's win share against the
    fair share, per count): ``beats the field at 3 and 4 players; ...``."""
    t = curve.filter(pl.col("theta") == theta).sort("players")
    if not t.height:
        return f"(θ={theta:g} is not in the θ sweep)"
    groups: dict[str, list[int]] = {"above": [], "below": [], "covers": [], "none": []}
    for n, lo, hi, fair in zip(t["players"], t["win_low"], t["win_high"], t["fair"],
                               strict=True):  # fmt: skip
        groups[side(lo, hi, fair)].append(int(n))
    words = {"above": f"beats {name}", "below": f"loses to {name}",
             "covers": f"is not distinguishable from {name} (its interval covers the fair "
             "share)", "none": "has no interval"}  # fmt: skip
    return _counts(groups, words)


def rated_vs(ratings: pl.DataFrame, spec: str, ref: str, ref_name: str) -> str:
    """Where ``spec`` is rated against ``ref`` (point estimates), per player count."""
    groups: dict[str, list[int]] = {"below": [], "above": [], "level": []}
    for n in sorted(ratings["players"].unique()):
        t = ratings.filter(pl.col("players") == n)
        a = t.filter(pl.col("strategy") == spec)["rating"]
        b = t.filter(pl.col("strategy") == ref)["rating"]
        if a.len() and b.len():
            d = a[0] - b[0]
            groups["below" if d < 0 else "above" if d > 0 else "level"].append(int(n))
    if not any(groups.values()):
        return f"not rated against {ref_name}"
    words = {"below": f"rated below {ref_name}", "above": f"rated above {ref_name}",
             "level": f"rated level with {ref_name}"}  # fmt: skip
    return _counts(groups, words)


def estimates_differ(s: pl.DataFrame, players: int) -> str:
    """Whether the interventional and observational estimates of each special (one count's
    rows of the strength table) differ: their intervals do not overlap."""
    both = s.filter(pl.col("obs_low").is_not_null() & pl.col("obs_low").is_not_nan())
    apart = both.filter(
        (pl.col("obs_low") > pl.col("effect_high")) | (pl.col("obs_high") < pl.col("effect_low"))
    )
    if not both.height:
        return f"At {players} players no special has an observational estimate."
    if not apart.height:
        return (
            f"At {players} players the two estimates' intervals overlap for every special: "
            "the data do not separate the special from the portion that came with it."
        )
    names = listing(x.replace("_", " ") for x in apart["special"])
    higher = int((apart["obs_pp"] > apart["effect_pp"]).sum())
    return (
        f"At {players} players the two estimates differ (their intervals do not overlap) for "
        f"{names}; the observational one is the higher for {higher} of {apart.height}: there "
        "it picks up the value (or cost) of the portion that came with the special."
    )


def other_points(s: pl.DataFrame, players: int) -> str:
    """How many specials have a negative 'other' (real − blank points minus the holder's
    change in starred points): the rest of the holder's game went worse with them."""
    other = s["score_effect"] - s["direct_points"]
    neg = s.filter(other < 0)
    if not neg.height:
        return (
            f"At {players} players 'other' is negative for none of the {s.height} specials: "
            "for none did the rest of the holder's game go worse with the special."
        )
    i = int(np.argmin(other.to_numpy()))
    return (
        f"At {players} players 'other' is negative for {neg.height} of {s.height} specials "
        f"(lowest: {s['special'][i].replace('_', ' ')}, {other[i]:+.2f} pts): for those the "
        "rest of the holder's game went worse with the special than without it."
    )


def no_direct(s: pl.DataFrame, players: int) -> str:
    """Which specials have a 'direct' of exactly 0 (no change in the holder's own starred
    points): they act only through 'other'."""
    zero = s.filter(pl.col("direct_points") == 0)["special"].to_list()
    if not zero:
        return f"At {players} players 'direct' differs from 0 for every special."
    return (
        f"At {players} players 'direct' is 0 for {listing(z.replace('_', ' ') for z in zero)}: "
        "they act only through 'other'."
    )


def grid_edge(best: pl.DataFrame, grid: list[float]) -> str:
    """Whether a best θ sits at the edge of the grid (the optimum may lie beyond it)."""
    lo, hi = min(grid), max(grid)
    low = best.filter(pl.col("best_theta") == lo)["players"].to_list()
    high = best.filter(pl.col("best_theta") == hi)["players"].to_list()
    if not low and not high:
        return f"Every best θ lies inside the grid ({lo:g}–{hi:g})."
    parts = []
    if low:
        parts.append(f"at its low end ({lo:g}) at {listing(low)} players")
    if high:
        parts.append(f"at its high end ({hi:g}) at {listing(high)} players")
    return (
        f"The best θ is at the edge of the grid {' and '.join(parts)}: the optimum may lie "
        "beyond it."
    )


def field_check(
    best: pl.DataFrame, field: Mapping[int, float | None], margin: float = 2.0, rerun: str = ""
) -> str:
    """Whether a single seat switching θ exploits the field (its edge's whole
    interval above ``margin`` pp), and which way the presets are off: a best θ above the
    preset's means the presets eat too much, below it too little."""
    exploit = best.filter(pl.col("edge_low") > margin).sort("players")
    if not exploit.height:
        return (
            f"Field check: at no player count does a single seat switching θ beat the "
            f"field with its whole interval above +{margin:g} pp, so this study does not show "
            "the field's presets to be exploitable this way."
        )
    gains = ", ".join(f"{e:+.0f} pp at {p}p" for p, e in
                      zip(exploit["players"], exploit["edge_pp"], strict=True))  # fmt: skip
    much, little = [], []
    for n, b in zip(exploit["players"], exploit["best_theta"], strict=True):
        t = field.get(int(n))
        if t is not None and b > t:
            much.append(int(n))
        elif t is not None and b < t:
            little.append(int(n))
    how = []
    if much:
        how.append(f"eat too much at {listing(much)} players (the best θ is above the preset's)")
    if little:
        how.append(f"eat too little at {listing(little)} players (the best θ is below the "
                   "preset's)")  # fmt: skip
    text = (
        f"Field check: a single seat switching θ beats the field by {gains} over its "
        f"fair share (the whole interval above +{margin:g} pp)"
    )
    if how:
        text += " — the field's presets " + " and ".join(how)
        text += " in self-play"
    text += ", so the other sections describe games among exploitable players."
    return text + (f" {rerun}" if rerun else "")


def payoff_overall(d: np.ndarray | int, est: float, low: float, high: float) -> str:
    """The mean payoff of eating over collecting across all replayed decisions (``d``: the
    decisions, or their number)."""
    verdict = {
        "above": "eating gains the decider win share on average",
        "below": "eating costs the decider win share on average",
        "covers": "on average neither choice is shown to be better",
        "none": "too few decisions for an interval",
    }[side(low, high)]
    n = d if isinstance(d, int) else len(d)
    return f"over all {n:,} decisions {effect(est, low, high)}: {verdict}."


def order_test(test: pl.DataFrame, seat: pl.DataFrame) -> str:
    """Why slicing twice is not separated from seat order, per count where slicing counts
    differ (``test``: :func:`analysis.nyslice.seats.linear_order_test`; ``seat``: the seat
    table with ``times_slicer``)."""
    parts = []
    for r in test.iter_rows(named=True):
        n = r["players"]
        s = seat.filter(pl.col("players") == n).sort("seat")
        most = int(s["times_slicer"].max())
        twice = s.filter(pl.col("times_slicer") == most)["seat"].to_list()
        steps = ""
        if r.get("step_diff") is not None:
            steps = (
                f" The two steps between seats that slice equally often are "
                f"{effect(r['step_01'], r['step_01_low'], r['step_01_high'])} (seat 0 to 1) "
                f"and {effect(r['step_23'], r['step_23_low'], r['step_23_high'])} (seat 2 to 3)"
                "; a linear order effect would make them equal"
            )
        verdict = (
            f"the data reject it (χ² = {r['chi2']:.1f}, df {r['df']}, p = {r['p_value']:.2g}, "
            f"{r['games']:,} games)"
            if r["rejected"]
            else f"the data do not reject it (p = {r['p_value']:.2g}, {r['games']:,} games), "
            "but it remains an assumption"
        )
        parts.append(
            f"At {n} players seats {listing(twice)} slice {most} times and the others fewer, "
            "and no rule moves the extra turns to other seats, so slicing more often is tied "
            "to seat order. Separating them would need a seat-order effect linear in the "
            f"seat: {verdict}.{steps}. No effect of slicing twice is claimed."
        )
    return "Slicing twice. " + " ".join(parts)


def strongest_weakest(s: pl.DataFrame, players: int) -> str:
    """The strongest and weakest special at a count, with their effects."""
    best, worst = s.row(0, named=True), s.row(-1, named=True)
    sig = s.filter(pl.col("holm_significant"))["special"].to_list()
    return (
        f"At {players} players {best['special']} is strongest "
        f"({effect(best['effect_pp'], best['effect_low'], best['effect_high'])}) and "
        f"{worst['special']} weakest "
        f"({effect(worst['effect_pp'], worst['effect_low'], worst['effect_high'])}); "
        "Holm-significant across the specials: " + (", ".join(sig) if sig else "none") + "."
    )
