"""New York Slice: how strong is each Today's Special? Four estimands, named for what
they measure, per player count and special:

- **worth** (:func:`forfeit_value`, the designer's ranking): one seat whose strategy never
  receives or uses the special (``forfeit=<special>``: it takes portions as it likes, the
  tile is forfeited on receipt, and it values the special as absent) against the
  unrestricted field, on the same deals as the unrestricted games, from every seat in turn.
  The worth is the unrestricted seat's score (and win share) minus the forfeiting seat's,
  over the deals where the special is in play: what being able to receive the special is
  worth to a player, the tile's own points and its uses included. It recovers the printed
  value's sign for the flat specials (Stuffed Crust +5 > 0, Day-Old Pizza −2 < 0).
- **own points** (:func:`own_points`): the finished game re-scored without the special's
  scoring effect, every holding fixed — what the tile itself adds to its holder's total
  and win share (0 by definition for Cut in Line, Dibs!, Sneak-a-Slice and Mystery Slice,
  whose value lies in play). Replays the ``seats`` games through
  :func:`sims.games.nyslice.ownpoints.own_points`.
- **value of being allowed to take the portion** (:func:`restricted_play`, restricted play
  after Jaffe et al. 2012): one seat whose strategy never takes the portion carrying the
  special while another is free (``avoid=<special>``) against the unrestricted field, on
  the same deals, from every seat in turn; the unrestricted seat's win share minus the
  restricted seat's. Avoiding the portion also gives up what the slicer put with the tile
  to make it acceptable, so this measures being allowed to take that portion, not what
  the special is worth (a −2 tile comes out positive).
- **value to the taker** (:func:`interventional`): the same deals replayed with the
  special replaced by a blank tile; for the seat that held it, its win share in the real
  game minus in the replay. It includes what the players pay to get the special (the
  portion they give up for it), so a strong tile that players overpay for can come out
  negative.

:func:`observational` (holders minus non-holders within seats) is kept as a description,
not an effect. Intervals are 95%: t over the independent unit (the game, or the deal where
arms share it), cluster-robust by game where one game gives several rows; Holm's
correction across the specials of a player count gives ``p_holm`` (for the worth, with the
family-adjusted intervals of :func:`analysis.verdicts.adjust_family`).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.load import MissingBlock, arm_options, manifest, treatment, untreated
from analysis.load import rows as load_rows
from analysis.restricted import check_paired
from analysis.samplesize import annotate, holm_columns
from analysis.stats import cluster_variance, mean_interval, sign_test
from analysis.verdicts import adjust_family
from sims.core.errors import SlicelabError
from sims.core.specs import parse_spec
from sims.games.nyslice.deck import REAL_SPECIALS
from sims.games.nyslice.plugin import specials_in_play

SPECIALS = [s.slug for s in REAL_SPECIALS]
"""Slugs in special-code order (bit ``s`` of ``specials_owned_mask``)."""

_Z = 1.959964


def _holm_columns(table: pl.DataFrame, prefix: str) -> pl.DataFrame:
    """Holm's correction across the specials of each player count
    (:func:`analysis.samplesize.holm_columns`)."""
    return holm_columns(table, prefix)


def observational(out, group: str = "seats") -> pl.DataFrame:
    """Holders vs non-holders of each special, adjusted for seat (see the module notes).

    Returns
    -------
    polars.DataFrame
        ``players, special, games`` (games where someone held it: the interval's unit,
        clustered by game), ``holders``, ``effect_pp`` with ``effect_low``/``effect_high``
        (win share, pp), ``score_effect`` with ``score_low``/``score_high`` (points),
        ``p_holm``, ``holm_significant`` and the sample-size columns.
    """
    frame = untreated(load_rows(out, "players", group))
    result = []
    for n in sorted(frame["players"].unique()):
        sub = frame.filter(pl.col("players") == n)
        mask = sub["specials_owned_mask"].to_numpy()
        game = sub["game_index"].to_numpy()
        seat = sub["seat"].to_numpy()
        share = sub["win_share"].to_numpy()
        score = sub["score"].to_numpy().astype(float)
        for s, slug in enumerate(SPECIALS):
            held = (mask >> s) & 1 == 1
            if not held.any():
                continue
            in_game = np.isin(game, np.unique(game[held]))
            row = {"players": n, "special": slug, "holders": int(held.sum())}
            # (column of the estimate, prefix of its bounds, values, unit scale)
            for col, key, values, scale in (
                ("effect_pp", "effect", share, 100.0),
                ("score_effect", "score", score, 1.0),
            ):
                # the seat-stratified difference and its influence per row, so the
                # variance can be clustered by game (a game's seats are dependent: their
                # shares sum to 1)
                num, den = 0.0, 0.0
                influence = np.zeros(len(values))
                for k in range(n):
                    h = held & (seat == k)
                    o = ~held & in_game & (seat == k)
                    nh, no = h.sum(), o.sum()
                    if nh < 2 or no < 2:
                        continue
                    w = nh * no / (nh + no)
                    mh, mo = values[h].mean(), values[o].mean()
                    num, den = num + w * (mh - mo), den + w
                    influence[h] += w * (values[h] - mh) / nh
                    influence[o] -= w * (values[o] - mo) / no
                if den:
                    var, g = cluster_variance(influence[in_game] / den, game[in_game])
                    est = scale * num / den
                    half = scale * _Z * np.sqrt(var)
                else:
                    est = half = float("nan")
                    g = 0
                row[col] = est
                row[f"{key}_low"] = est - half
                row[f"{key}_high"] = est + half
                row["games"] = g
            result.append(row)
    table = _holm_columns(pl.DataFrame(result), "effect")
    return annotate(table, "effect_pp", "effect_low", "effect_high", share=False, pp=True)


def interventional(out, base: str = "seats", blanked: str = "specials") -> pl.DataFrame:
    """The special against a blank on the same deals, for the seat that held it.

    ``base`` is the study block of the real games and ``blanked`` the block that replays
    them with one special blanked; games pair by index (both blocks share the seed).

    Returns
    -------
    polars.DataFrame
        ``players, special, games`` (paired games where it was held), ``effect_pp`` with
        ``effect_low``/``effect_high`` (holder's win share, real − blank, pp),
        ``score_effect`` with ``score_low``/``score_high`` (points), ``direct_points``
        (the part of ``score_effect`` from the holder's own starred-special points; the rest
        is how the game went differently: what the holder gave up for the special, how the
        others played around it), ``p_holm``,
        ``holm_significant`` and the sample-size columns.
    """
    real = untreated(load_rows(out, "players", base))
    replay = load_rows(out, "players", blanked).filter(pl.col("blank").is_not_null())
    result = []
    for (n, slug), rep in replay.group_by("players", "blank", maintain_order=True):
        s = SPECIALS.index(slug)
        holders = real.filter(
            (pl.col("players") == n) & ((pl.col("specials_owned_mask") & (1 << s)) != 0)
        ).select("game_index", "seat", "win_share", "score", "specials")
        pair = holders.join(
            rep.select("game_index", "seat", "win_share", "score", "specials"),
            on=["game_index", "seat"],
            suffix="_blank",
        )
        d_share = 100 * (pair["win_share"] - pair["win_share_blank"]).to_numpy()
        d_score = (pair["score"] - pair["score_blank"]).to_numpy().astype(float)
        m, lo, hi = mean_interval(d_share)
        sm, slo, shi = mean_interval(d_score)
        result.append(
            {
                "players": n,
                "special": slug,
                "games": pair.height,
                "effect_pp": m,
                "effect_low": lo,
                "effect_high": hi,
                "score_effect": sm,
                "direct_points": float((pair["specials"] - pair["specials_blank"]).mean()),
                "score_low": slo,
                "score_high": shi,
            }
        )
    table = pl.DataFrame(result).sort("players", "special")
    table = _holm_columns(table, "effect")
    return annotate(table, "effect_pp", "effect_low", "effect_high", share=False, pp=True)


def strength(out) -> pl.DataFrame:
    """Both estimates side by side (one row per player count and special), ranked by the
    interventional effect within each player count."""
    obs = observational(out).select(
        "players", "special",
        pl.col("effect_pp").alias("obs_pp"), pl.col("effect_low").alias("obs_low"),
        pl.col("effect_high").alias("obs_high"), pl.col("score_effect").alias("obs_score"),
    )  # fmt: skip
    itv = interventional(out)
    return itv.join(obs, on=["players", "special"], how="left").sort(
        ["players", "effect_pp"], descending=[False, True]
    )


def plot_strength(table: pl.DataFrame, players: int, ax=None):
    """Ranked chart of the specials at one player count: interventional (dots) and
    observational (open squares) effects on the holder's win share with 95% intervals."""
    import matplotlib.pyplot as plt

    t = table.filter(pl.col("players") == players).sort("effect_pp")
    ax = ax or plt.subplots(figsize=(7, 0.35 * t.height + 1.2))[1]
    y = np.arange(t.height)
    ax.errorbar(
        t["effect_pp"], y + 0.15,
        xerr=np.vstack([t["effect_pp"] - t["effect_low"], t["effect_high"] - t["effect_pp"]]),
        fmt="o", capsize=3, label="interventional (vs blank, same deals)",
    )  # fmt: skip
    if "obs_pp" in t.columns:
        ax.errorbar(
            t["obs_pp"], y - 0.15,
            xerr=np.vstack([t["obs_pp"] - t["obs_low"], t["obs_high"] - t["obs_pp"]]),
            fmt="s", mfc="none", capsize=3, color="grey", label="observational (holders vs not)",
        )  # fmt: skip
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, [s.replace("_", " ") for s in t["special"]])
    ax.set_xlabel("effect on the holder's win share, pp (95% CI)")
    ax.set_title(f"Special strength, {players} players")
    ax.legend(fontsize=8, loc="lower right")
    return ax


RESTRICTIONS = ("avoid", "forfeit")
"""The restricted-play parameters a block's first spec may carry."""


def _restriction(spec: str) -> tuple[str, str] | None:
    """``(kind, special)`` of a spec's ``avoid`` or ``forfeit`` parameter (None without)."""
    params = parse_spec(spec).params
    found = [(k, str(params[k])) for k in RESTRICTIONS if params.get(k) is not None]
    return found[0] if len(found) == 1 else None


def _avoided(spec: str) -> str | None:
    """The special a spec's ``avoid`` or ``forfeit`` parameter names (None without one)."""
    found = _restriction(spec)
    return found[1] if found else None


def _check_paired(out, group: str, base: str) -> None:
    """Refuse to pair two blocks whose games are not the same deals: the seed, the deck
    and the rules of every player count must match (:func:`analysis.restricted.check_paired`)."""
    check_paired(out, group, base, ("deck", "rules"))


def restricted_play(out, group: str = "restricted", base: str = "seats") -> pl.DataFrame:
    """The value of being allowed to take the portion carrying each special (restricted
    play): the unrestricted seat's win share minus that of a seat that never takes that
    portion while another is free (and forfeits the tile if left it), on the same deals.
    Avoiding the portion also gives up what the slicer put with the tile, so this is not
    what the special is worth (:func:`forfeit_value` is).

    ``group`` is a rotated block whose first spec carries ``avoid=<special>`` (one arm per
    special and rotation); ``base`` the unrestricted block with the same seed, deck and
    rules, whose game ``i`` is the same deal. For deal ``i`` and rotation ``k`` the
    difference is seat ``k``'s win share in ``base`` minus the restricted seat ``k``'s;
    a deal's value is the mean over its rotations (the deal is the independent unit:
    every rotation shares it).

    Returns
    -------
    polars.DataFrame
        ``players, special, deals, seat_games, value_pp`` with ``value_low``/
        ``value_high`` (t over deals), ``score_value`` with ``score_low``/``score_high``
        (points), ``p_holm``, ``holm_significant`` and the sample-size columns.
    """
    per_deal = restricted_deals(out, group, base)
    result = []
    for (n, slug), sub in per_deal.group_by("players", "avoided", maintain_order=True):
        if slug not in specials_in_play(n):
            continue  # always replaced at this count: the restriction changes nothing
        m, lo, hi = mean_interval(sub["d_share"].to_numpy())
        sm, slo, shi = mean_interval(sub["d_score"].to_numpy())
        result.append({"players": n, "special": slug, "deals": sub.height,
                       "seat_games": int(sub["rotations"].sum()), "value_pp": m,
                       "value_low": lo, "value_high": hi, "score_value": sm,
                       "score_low": slo, "score_high": shi})  # fmt: skip
    schema = {"players": pl.Int64, "special": pl.String, "deals": pl.Int64,
              "seat_games": pl.Int64, "value_pp": pl.Float64, "value_low": pl.Float64,
              "value_high": pl.Float64, "score_value": pl.Float64, "score_low": pl.Float64,
              "score_high": pl.Float64}  # fmt: skip
    table = pl.DataFrame(result, schema=schema).sort("players", "special")
    table = _holm_columns(table, "value")
    return annotate(table, "value_pp", "value_low", "value_high", n="deals", share=False,
                    unit="deals", pp=True)  # fmt: skip


def restricted_deals(out, group: str = "restricted", base: str = "seats") -> pl.DataFrame:
    """Per player count, restricted special and deal: the restricted-play difference of
    :func:`restricted_play` (a block of ``avoid=<special>``) or :func:`forfeit_value` (of
    ``forfeit=<special>``) averaged over the deal's rotations (``d_share`` in pp,
    ``d_score`` in points, ``rotations``), with ``avoided`` (the special), ``restriction``
    (``avoid`` or ``forfeit``) and ``in_play`` (the special was dealt into play: some seat
    of the unrestricted game owns it, a fact of the deal alone; null when the base table
    has no ``specials_owned_mask``), sorted by deal."""
    _check_paired(out, group, base)
    rest = load_rows(out, "players", group).filter(pl.col("seat") == pl.col("rotation"))
    specs = rest.select("strategy").unique()
    found = {s: _restriction(s) for s in specs["strategy"]}
    if None in found.values():
        raise SlicelabError(f"block {group!r} has a first spec without avoid=<special> or "
                            "forfeit=<special>: a restricted-play block seats it in every "
                            "rotation")  # fmt: skip
    rest = rest.with_columns(
        pl.col("strategy").replace_strict({k: v[1] for k, v in found.items()}).alias("avoided"),
        pl.col("strategy").replace_strict({k: v[0] for k, v in found.items()})
        .alias("restriction"),
    )  # fmt: skip
    base_rows = untreated(load_rows(out, "players", base))
    real = base_rows.select(
        "players", "game_index", "seat", pl.col("win_share").alias("base_share"),
        pl.col("score").alias("base_score"),
    )  # fmt: skip
    if "specials_owned_mask" in base_rows.columns:
        dealt = base_rows.group_by("players", "game_index").agg(
            pl.col("specials_owned_mask").cast(pl.Int64).bitwise_or().alias("dealt_mask")
        )
    else:  # a table without the masks (a synthetic one): whether it was in play is unknown
        dealt = base_rows.select("players", "game_index", pl.lit(None, pl.Int64)
                                 .alias("dealt_mask")).unique()  # fmt: skip
    pair = rest.join(real, on=["players", "game_index", "seat"], how="inner")
    power = pl.col("avoided").replace_strict(
        {slug: 1 << i for i, slug in enumerate(SPECIALS)}, return_dtype=pl.Int64
    )
    return (
        pair.group_by("players", "avoided", "restriction", "game_index")
        .agg(
            (100 * (pl.col("base_share") - pl.col("win_share"))).mean().alias("d_share"),
            (pl.col("base_score") - pl.col("score")).cast(pl.Float64).mean().alias("d_score"),
            pl.len().alias("rotations"),
        )
        .join(dealt, on=["players", "game_index"], how="left")
        .with_columns(((pl.col("dealt_mask") & power) != 0).alias("in_play"))
        .drop("dealt_mask")
        .sort("players", "avoided", "game_index")
    )


FORFEIT_BLOCKS = ("forfeit", "forfeit-flat")
"""The study blocks of the designer's ranking in the equilibrium field: every special of
the main block, and the flat specials (Stuffed Crust, Day-Old Pizza) on more deals."""

_FORFEIT_SCHEMA = {
    "players": pl.Int64, "special": pl.String, "block": pl.String, "deals": pl.Int64,
    "in_play": pl.Int64, "seat_games": pl.Int64, "points": pl.Float64,
    "points_low": pl.Float64, "points_high": pl.Float64, "value_pp": pl.Float64,
    "value_low": pl.Float64, "value_high": pl.Float64, "nonzero": pl.Int64,
    "sign_p": pl.Float64, "sparse": pl.Boolean,
}  # fmt: skip


def forfeit_value(out, groups=FORFEIT_BLOCKS, base: str = "seats") -> pl.DataFrame:
    """Each special's worth: the unrestricted seat's score and win share minus that of a
    seat that never receives or uses the special (``forfeit=<special>``), on the same deals.

    ``groups`` are rotated blocks whose first spec carries ``forfeit=<special>`` (the ones
    the study lacks are skipped; a special of a player count may come from one of them
    only), ``base`` the unrestricted block with the same seed, deck and rules. A deal's
    value is the mean over its rotations (the deal is the independent unit); the worth is
    the mean over the deals where the special is in play (dealt into the game: which
    specials appear is a fact of the deal alone, so this conditions on nothing the
    restriction changes; elsewhere the difference is 0 by construction).

    Returns
    -------
    polars.DataFrame
        ``players, special, block, deals`` (paired deals), ``in_play`` (the interval's
        unit), ``seat_games``, ``points`` with ``points_low``/``points_high`` (score, t over
        in-play deals), ``value_pp`` with ``value_low``/``value_high`` (win share, pp),
        ``nonzero`` (in-play deals whose score difference is not 0), ``sign_p`` and
        ``sparse`` (:func:`analysis.stats.sign_test`: too few deals differ for a normal
        interval), then the family columns of :func:`analysis.verdicts.adjust_family` over
        the specials of each player count on ``points`` (``adj_low``, ``adj_high``,
        ``p_holm``, ``holm_sign``, ``family``), ``holm_significant`` and the sample-size
        columns.

    Raises
    ------
    MissingBlock
        When the study has none of ``groups`` (named by the first).
    SlicelabError
        When a block is not the same deals as ``base``, has an unrestricted or avoiding
        first spec, or two blocks measure one special at one count.
    """
    have = set(manifest_groups(out))
    present = [g for g in groups if g in have]
    if not present:
        raise MissingBlock(out, groups[0])  # the question is listed with the block it needs
    result = []
    for group in present:
        per_deal = restricted_deals(out, group, base)
        kinds = set(per_deal["restriction"].unique())
        if kinds != {"forfeit"}:
            raise SlicelabError(f"block {group!r} must seat forfeit=<special> in every "
                                f"rotation, not {sorted(kinds)}")  # fmt: skip
        for (n, slug), sub in per_deal.group_by("players", "avoided", maintain_order=True):
            if slug not in specials_in_play(n):
                continue  # always replaced at this count: the restriction changes nothing
            played = sub.filter(pl.col("in_play").fill_null(True))  # unknown: every deal
            d_score = played["d_score"].to_numpy()
            m, lo, hi = mean_interval(d_score)
            pm, plo, phi = mean_interval(played["d_share"].to_numpy())
            test = sign_test(d_score)
            result.append({"players": n, "special": slug, "block": group, "deals": sub.height,
                           "in_play": played.height, "seat_games": int(sub["rotations"].sum()),
                           "points": m, "points_low": lo, "points_high": hi, "value_pp": pm,
                           "value_low": plo, "value_high": phi, "nonzero": test.nonzero,
                           "sign_p": test.p, "sparse": test.sparse})  # fmt: skip
    table = pl.DataFrame(result, schema=_FORFEIT_SCHEMA).sort("players", "special")
    dup = table.group_by("players", "special").len().filter(pl.col("len") > 1)
    if dup.height:
        x = dup.row(0, named=True)
        raise SlicelabError(
            f"{x['special']} at {x['players']} players is measured by more "
            f"than one of the blocks {present}: give each special one block"
        )
    parts = [adjust_family(sub, "points", "points_low", "points_high")
             for _, sub in table.group_by("players", maintain_order=True)]  # fmt: skip
    table = pl.concat(parts) if parts else table
    if "holm_sign" in table.columns:
        table = table.with_columns((pl.col("holm_sign") != 0).alias("holm_significant"))
    return annotate(table, "points", "points_low", "points_high", n="in_play", share=False,
                    unit="deals")  # fmt: skip


def manifest_groups(out) -> list[str]:
    """The study blocks of a dataset, in study order."""
    seen: list[str] = []
    for arm in manifest(out)["study"]["arms"]:
        g = arm.get("group", arm["name"])
        if g not in seen:
            seen.append(g)
    return seen


def own_points(out, group: str = "seats", games: int = 5000) -> pl.DataFrame:
    """Own points: each special's scoring effect in the finished games of a block.

    Replays the first ``games`` games of every arm of ``group`` in the compiled kernel
    (:func:`sims.games.nyslice.ownpoints.own_points`: the same games, checked against the
    dataset's scores) and re-scores each without the special's scoring effect, every
    holding fixed. One special has one holder per game, so games are independent units.

    Returns
    -------
    polars.DataFrame
        ``players, special, games`` (games where someone held it), ``own_pp`` with
        ``own_low``/``own_high`` (the holder's win share, real − re-scored, pp, t over
        games) and ``own_points`` with ``points_low``/``points_high`` (its total).

    Raises
    ------
    SlicelabError
        When the replayed games do not reproduce the dataset's scores.
    """
    from sims.games.nyslice.ownpoints import own_points as replay_own_points
    from sims.games.nyslice.plugin import deck_of, rules_of

    frames = []
    for arm in manifest(out)["study"]["arms"]:
        if arm.get("group", arm["name"]) != group or treatment(arm):
            continue
        options = arm_options(arm)
        count = min(games, arm["games"])
        table = pl.from_arrow(replay_own_points(
            arm["players"], arm["strategies"], arm["seed"], range(count),
            deck=deck_of(options), rules=rules_of(options),
        ))  # fmt: skip
        real = (
            load_rows(out, "players", group)
            .filter((pl.col("arm") == arm["name"]) & (pl.col("game_index") < count))
            .select("game_index", pl.col("seat").alias("holder"), pl.col("score").alias("real"))
        )
        check = table.join(real, on=["game_index", "holder"], how="left")
        if check["real"].is_null().any() or (check["real"] != check["score"]).any():
            raise SlicelabError(
                f"replaying arm {arm['name']!r} does not reproduce the dataset's scores (was "
                "it written by another version of slicelab?); re-run the study before "
                "computing own points"
            )
        frames.append(table.with_columns(pl.lit(arm["players"], pl.Int64).alias("players")))
    if not frames:
        raise MissingBlock(out, group)
    rows = pl.concat(frames, how="vertical_relaxed")
    result = []
    for (n, slug), sub in rows.group_by("players", "special", maintain_order=True):
        d = 100 * (sub["win_share"] - sub["win_share_without"]).to_numpy()
        p = (sub["score"] - sub["score_without"]).to_numpy().astype(float)
        m, lo, hi = mean_interval(d)
        pm, plo, phi = mean_interval(p)
        if np.ptp(p) == 0:  # a flat bonus: the points are certain
            plo = phi = pm
        result.append({"players": n, "special": slug, "games": sub.height, "own_pp": m,
                       "own_low": lo, "own_high": hi, "own_points": pm, "points_low": plo,
                       "points_high": phi})  # fmt: skip
    return pl.DataFrame(result).sort("players", "special")
