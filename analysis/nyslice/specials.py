"""New York Slice: how strong is each Today's Special for the player who ends up holding it?

Two estimates side by side, per player count and special:

- **observational** (:func:`observational`): in games where someone held the special,
  the holders' win share and score minus the non-holders', compared within each seat and
  averaged over seats (weights ``n_h n_o / (n_h + n_o)``), so seat order is adjusted for.
  Holding is chosen by the players, so this mixes the special's value with the value of
  the portion it came with.
- **interventional** (:func:`interventional`): the same deals replayed with the special
  replaced by a blank tile (study arms with ``blank``). For each game where seat ``h``
  held the special, the effect is ``h``'s win share (score) in the real game minus ``h``'s
  in the replay: what the special itself is worth to whoever takes it, paired by deal.

Intervals are 95% (normal for the stratified difference, t for the paired one); Holm's
correction across the specials of a player count gives ``p_holm`` and ``holm_significant``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.load import rows as load_rows
from analysis.load import untreated
from analysis.samplesize import annotate
from analysis.stats import holm, mean_interval, normal_p
from sims.games.nyslice.deck import REAL_SPECIALS

SPECIALS = [s.slug for s in REAL_SPECIALS]
"""Slugs in special-code order (bit ``s`` of ``specials_owned_mask``)."""

_Z = 1.959964


def _holm_columns(table: pl.DataFrame, prefix: str) -> pl.DataFrame:
    parts = []
    for n in table["players"].unique(maintain_order=True):
        t = table.filter(pl.col("players") == n)
        p = np.array(
            [
                normal_p(e, lo, hi)
                for e, lo, hi in zip(
                    t[f"{prefix}_pp"], t[f"{prefix}_low"], t[f"{prefix}_high"], strict=True
                )
            ]
        )
        adj = holm(np.nan_to_num(p, nan=1.0))
        parts.append(t.with_columns(pl.Series("p_holm", adj), pl.Series("holm_significant",
                                                                          adj < 0.05)))  # fmt: skip
    return pl.concat(parts)


def observational(out, group: str = "seats") -> pl.DataFrame:
    """Holders vs non-holders of each special, adjusted for seat (see the module notes).

    Returns
    -------
    polars.DataFrame
        ``players, special, games`` (games where it was held), ``holders``, ``effect_pp``
        with ``effect_low``/``effect_high`` (win share, pp), ``score_effect`` with
        ``score_low``/``score_high`` (points), ``p_holm``, ``holm_significant`` and the
        sample-size columns.
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
            row = {"players": n, "special": slug, "games": int(held.sum()),
                   "holders": int(held.sum())}  # fmt: skip
            # (column of the estimate, prefix of its bounds, values, unit scale)
            for col, key, values, scale in (
                ("effect_pp", "effect", share, 100.0),
                ("score_effect", "score", score, 1.0),
            ):
                num, den, var = 0.0, 0.0, 0.0
                for k in range(n):
                    h = held & (seat == k)
                    o = ~held & in_game & (seat == k)
                    nh, no = h.sum(), o.sum()
                    if nh < 2 or no < 2:
                        continue
                    w = nh * no / (nh + no)
                    d = values[h].mean() - values[o].mean()
                    v = values[h].var(ddof=1) / nh + values[o].var(ddof=1) / no
                    num, den, var = num + w * d, den + w, var + w * w * v
                est = scale * num / den if den else float("nan")
                half = scale * _Z * np.sqrt(var) / den if den else float("nan")
                row[col] = est
                row[f"{key}_low"] = est - half
                row[f"{key}_high"] = est + half
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
