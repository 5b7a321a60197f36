"""Is the first seat favoured? Win share and score by seat at every player count, for
any game (only the core columns: ``seat``, ``score``, ``win_share``).

Design. In a field where every seat plays the same strategy, one game already is the
paired unit the design notes ask for: every seat plays the same deal, so a seat's edge is
a within-game contrast (seat ``k``'s share minus the fair share ``1/n``, or minus the
other seats'). Rotating identical strategies around the table would replay the same game
with its seats relabelled. Where strategies differ, the study rotates them (``rotate =
true``) and :func:`rotated_seat_advantage` reads the same deals played from every seat.
Arms of a treatment variant (:func:`analysis.load.treatment`) are left out.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats

from analysis.load import game_ids, untreated
from analysis.load import rows as load_rows
from analysis.samplesize import annotate
from analysis.stats import cluster_mean_interval, fair_share_test, mean_interval, wilson_interval


def first_edge(share: np.ndarray) -> np.ndarray:
    """The first player's edge in each game, pp: seat 0's win share minus the fair share
    ``1/n``, from a ``(games, seats)`` matrix of win shares (:func:`by_game`).

    This is the one definition of "the first player's edge" every report states (the
    position tables' edge of position 0, :func:`position_rows`, is its mean): a share
    minus the fair share, not minus the other seats' mean, which is ``n/(n − 1)`` times
    larger (twice at 2 players) and would make the games' numbers incomparable.
    """
    return 100 * (share[:, 0] - 1 / share.shape[1])


def by_game(frame: pl.DataFrame, value: str, n: int) -> np.ndarray:
    """(games, seats) matrix of one column, games in index order (one arm only)."""
    if frame["arm"].n_unique() > 1:
        raise ValueError(
            f"the block has several arms at {n} players ({sorted(frame['arm'].unique())}); "
            "the seat analyses read one arm per player count with the same strategy in "
            "every seat"
        )
    f = frame.sort(["game_index", "seat"])
    return f[value].to_numpy().astype(float).reshape(-1, n)


def by_turn(frame: pl.DataFrame, value: str, n: int, turn: str) -> np.ndarray:
    """(games, players) matrix of one column, each game's players in turn order: by the
    game's turn-position column ``turn`` (:attr:`sims.core.game.ResultSchema.turn_order`:
    the first to play need not sit in seat 0), or by seat."""
    if turn == "seat":
        return by_game(frame, value, n)
    f = frame.sort(["game_index", turn])
    return f[value].to_numpy().astype(float).reshape(-1, n)


def seat_advantage(out, group: str = "seats", keep: tuple[str, ...] = ()) -> pl.DataFrame:
    """Win share and mean score by seat at each player count.

    Parameters
    ----------
    out : path
        The dataset directory.
    group : str
        The study block: one arm per player count, one strategy in every seat.
    keep : tuple of str
        Per-seat columns of the game to carry into the table (their first value per
        seat), e.g. a column saying how often the seat leads.

    Returns
    -------
    polars.DataFrame
        ``players, seat, strategy, games, win_share, win_low, win_high`` (Wilson), ``fair``
        (1/n), ``edge_pp`` with ``edge_low``/``edge_high`` (win share minus fair, in pp),
        ``score, score_low, score_high`` (t), the ``keep`` columns, and the sample-size
        columns of :func:`analysis.samplesize.annotate`.
    """
    frame = untreated(load_rows(out, "players", group))
    agg = (
        frame.group_by("players", "seat")
        .agg(
            pl.col("strategy").first(),
            pl.len().alias("games"),
            pl.col("win_share").sum().alias("wins"),
            pl.col("score").mean().alias("score"),
            pl.col("score").std().alias("sd"),
            *[pl.col(c).first() for c in keep],
        )
        .sort("players", "seat")
    )
    out_rows = []
    for r in agg.iter_rows(named=True):
        lo, hi = wilson_interval(r["wins"], r["games"])
        fair = 1 / r["players"]
        t = stats.t.ppf(0.975, r["games"] - 1) if r["games"] > 1 else float("nan")
        half = t * (r["sd"] or 0.0) / np.sqrt(r["games"])
        out_rows.append(
            {
                "players": r["players"],
                "seat": r["seat"],
                "strategy": r["strategy"],
                "games": r["games"],
                "win_share": r["wins"] / r["games"],
                "win_low": lo,
                "win_high": hi,
                "fair": fair,
                "edge_pp": 100 * (r["wins"] / r["games"] - fair),
                "edge_low": 100 * (lo - fair),
                "edge_high": 100 * (hi - fair),
                "score": r["score"],
                "score_low": r["score"] - half,
                "score_high": r["score"] + half,
                **{c: r[c] for c in keep},
            }
        )
    table = pl.DataFrame(out_rows)
    return annotate(table, "win_share", "win_low", "win_high", reference="fair")


def seat_fairness(out, group: str = "seats") -> pl.DataFrame:
    """Goodness of fit of wins by seat against fair shares, and the first seat's edge.

    Returns
    -------
    polars.DataFrame
        One row per player count: ``games``, ``chi2``, ``df``, ``p_value`` (χ² of wins per
        seat against ``games / n`` each), ``max_edge_pp`` (the largest |seat − fair|, pp),
        ``first_edge_pp`` with ``first_low``/``first_high`` (seat 0's win share minus the
        fair share, t interval over games, pp: :func:`first_edge`).
    """
    frame = untreated(load_rows(out, "players", group))
    result = []
    for n in sorted(frame["players"].unique()):
        share = by_game(frame.filter(pl.col("players") == n), "win_share", n)
        games = share.shape[0]
        chi2, p = fair_share_test(share.sum(axis=0), games)
        m, lo, hi = mean_interval(first_edge(share))
        result.append(
            {
                "players": n,
                "games": games,
                "chi2": chi2,
                "df": n - 1,
                "p_value": p,
                "max_edge_pp": float(100 * np.max(np.abs(share.mean(axis=0) - 1 / n))),
                "first_edge_pp": m,
                "first_low": lo,
                "first_high": hi,
            }
        )
    table = pl.DataFrame(result)
    return annotate(table, "first_edge_pp", "first_low", "first_high", share=False, pp=True)


def rotated_seat_advantage(out, group: str = "ladder") -> pl.DataFrame:
    """A strategy's win share by seat when the same deals are played with it in every seat.

    Reads a rotated block (``rotate = true``): in rotation ``k`` the block's first spec
    sits in seat ``k``. Per player count and seat: that strategy's win share with a Wilson
    interval, and its edge over its own mean across seats (pp, t interval over the deals,
    paired: the same deal seen from every seat).
    """
    frame = load_rows(out, "players", group).filter(
        (pl.col("treatment") == "") & (pl.col("seat") == pl.col("rotation"))
    )
    several = frame.group_by("players", "rotation").agg(pl.col("arm").n_unique().alias("k"))
    if several["k"].max() > 1:
        raise ValueError(
            f"block {group!r} has several arms per player count and rotation (a grid?); "
            "rotated_seat_advantage reads one rotated seating per player count"
        )
    result = []
    for n in sorted(frame["players"].unique()):
        sub = frame.filter(pl.col("players") == n).sort("game_index", "seat")
        share = sub.pivot(on="seat", index="game_index", values="win_share").drop("game_index")
        share = share.select(sorted(share.columns, key=int)).to_numpy()
        share = share[~np.isnan(share).any(axis=1)]
        strategy = sub["strategy"][0]
        for k in range(n):
            lo, hi = wilson_interval(share[:, k].sum(), len(share))
            m, elo, ehi = mean_interval(100 * (share[:, k] - share.mean(axis=1)))
            result.append(
                {
                    "players": n,
                    "seat": k,
                    "strategy": strategy,
                    "games": len(share),
                    "win_share": float(share[:, k].mean()),
                    "win_low": lo,
                    "win_high": hi,
                    "edge_pp": m,
                    "edge_low": elo,
                    "edge_high": ehi,
                }
            )
    return annotate(pl.DataFrame(result), "edge_pp", "edge_low", "edge_high", share=False, pp=True)


def plot_seat_advantage(table: pl.DataFrame, ax=None, seat_label: str = "seat (0 = first to play)"):
    """Win share by seat with 95% intervals, one line per player count in its colour
    (:func:`analysis.formats.count_colour`), fair shares dashed (``seat_label``: the x axis
    label, naming seat 0 in the game's terms). The intervals are drawn over the small
    markers, so none is hidden; the legend sits outside the axes, right of them."""
    import matplotlib.pyplot as plt

    from analysis.formats import count_colour

    ax = ax or plt.subplots(figsize=(7, 4))[1]
    counts = sorted(table["players"].unique())
    for n in counts:
        t = table.filter(pl.col("players") == n).sort("seat")
        colour = count_colour(n)
        x = t["seat"].to_numpy() + (n - 4) * 0.05
        y = 100 * t["win_share"].to_numpy()
        err = 100 * np.vstack([t["win_share"] - t["win_low"], t["win_high"] - t["win_share"]])
        ax.axhline(100 / n, color=colour, ls="--", lw=0.8, zorder=1)
        ax.plot(x, y, marker="o", ms=3, lw=1, color=colour, label=f"{n} players", zorder=2)
        ax.errorbar(x, y, yerr=err, fmt="none", ecolor=colour, elinewidth=1, capsize=2.5,
                    zorder=3)  # fmt: skip
    ax.set_xlabel(seat_label)
    ax.set_ylabel("win share, % (95% interval)")
    ax.set_xticks(range(int(table["seat"].max()) + 1))
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    ax.set_title("Win share by seat (dashed: fair share)")
    return ax


# ----------------------------------------------------------------------------- positions


def share_interval(values: np.ndarray, clusters: np.ndarray) -> tuple[float, float, float, int]:
    """A mean of per-row win shares with its 95% interval over the clusters (games):
    Wilson when every cluster has one row (the share's sum over its games), else a
    cluster-robust t interval clipped to [0, 1]. Returns ``(mean, low, high, clusters)``."""
    values = np.asarray(values, dtype=float)
    k = len(np.unique(clusters))
    if len(values) == 0:
        return float("nan"), float("nan"), float("nan"), 0
    if k == len(values):
        lo, hi = wilson_interval(float(values.sum()), len(values))
        return float(values.mean()), float(lo), float(hi), k
    m, lo, hi, g = cluster_mean_interval(values, clusters)
    return m, max(lo, 0.0), min(hi, 1.0), g


POSITION_SCHEMA = {
    "players": pl.Int64,
    "position": pl.Int64,
    "games": pl.Int64,
    "win_share": pl.Float64,
    "win_low": pl.Float64,
    "win_high": pl.Float64,
    "fair": pl.Float64,
    "edge_pp": pl.Float64,
    "edge_low": pl.Float64,
    "edge_high": pl.Float64,
}
"""The columns every :func:`position_rows` table starts with."""


def position_rows(
    players: pl.DataFrame,
    games: pl.DataFrame | None = None,
    by: str = "position",
    position: str = "position",
    means: tuple[str, ...] = (),
) -> pl.DataFrame:
    """Win share by turn position (or by any per-seat column ``by``, e.g. ``"seat"``) at
    each player count of one block's rows, before the sample-size columns.

    Parameters
    ----------
    players, games : polars.DataFrame
        The block's ``players`` rows (untreated) and its ``games`` rows (for ``shared``;
        None: 0).
    by : str
        The column grouped by (its values become ``position``).
    position : str
        The game's turn-position column, compared with ``seat`` for ``same_as_seat``.
    means : tuple of str
        Per-seat columns whose mean per group is carried (nan where a column is absent).

    Returns
    -------
    polars.DataFrame
        :data:`POSITION_SCHEMA` (``win_share`` with its 95% interval over games,
        :func:`share_interval`; ``fair`` = 1/n; ``edge_*`` = win share − fair, pp), then
        the ``means``, ``shared`` (the share of the count's games every seat shares:
        ``n_winners == n``) and ``same_as_seat`` (whether ``position`` is the seat in every
        game of the count).
    """
    result = []
    for n in sorted(players["players"].unique()):
        sub = players.filter(pl.col("players") == n)
        gsub = games.filter(pl.col("players") == n) if games is not None else None
        shared = (
            float((gsub["n_winners"] == n).mean())
            if gsub is not None and "n_winners" in gsub.columns
            else 0.0
        )
        same = (
            bool((sub["seat"].cast(pl.Int64) == sub[position].cast(pl.Int64)).all())
            if position in sub.columns
            else True
        )
        for (pos,), rows in sub.group_by(by, maintain_order=True):
            m, lo, hi, g = share_interval(rows["win_share"].to_numpy(), game_ids(rows))
            fair = 1 / n
            result.append(
                {
                    "players": int(n), "position": int(pos), "games": g, "win_share": m,
                    "win_low": lo, "win_high": hi, "fair": fair, "edge_pp": 100 * (m - fair),
                    "edge_low": 100 * (lo - fair), "edge_high": 100 * (hi - fair),
                    **{c: float(rows[c].mean()) if c in rows.columns else float("nan")
                       for c in means},
                    "shared": shared, "same_as_seat": same,
                }
            )  # fmt: skip
    schema = {**POSITION_SCHEMA, **dict.fromkeys(means, pl.Float64), "shared": pl.Float64,
              "same_as_seat": pl.Boolean}  # fmt: skip
    return pl.DataFrame(result, schema=schema).sort("players", "position")


def position_table(
    out,
    group: str = "seats",
    by: str = "position",
    position: str = "position",
    means: tuple[str, ...] = (),
) -> pl.DataFrame:
    """:func:`position_rows` of a uniform block (its untreated arms), with the sample-size
    columns (the claim: a position's share differs from the fair share; n counts games)."""
    players = untreated(load_rows(out, "players", group))
    games = untreated(load_rows(out, "games", group))
    table = position_rows(players, games, by, position, means)
    return annotate(table, "win_share", "win_low", "win_high", reference="fair")


EDGE_SCHEMA = {
    "players": pl.Int64,
    "games": pl.Int64,
    "first_pp": pl.Float64,
    "first_low": pl.Float64,
    "first_high": pl.Float64,
    "last_position": pl.Int64,
    "last_pp": pl.Float64,
    "last_low": pl.Float64,
    "last_high": pl.Float64,
    "largest_position": pl.Int64,
    "largest_pp": pl.Float64,
    "largest_low": pl.Float64,
    "largest_high": pl.Float64,
    "shared": pl.Float64,
    "same_as_seat": pl.Boolean,
}
"""The columns of :func:`edges` (those ``carry`` names come after ``games``)."""


def edges(table: pl.DataFrame, carry: tuple[str, ...] = ()) -> pl.DataFrame:
    """Per player count of a position table (:func:`position_rows`): the first position's
    edge over the fair share (position 0), the last's (position n − 1) and the largest
    (the position furthest from the fair share), each with its interval; ``carry`` names
    columns of the table copied from the first position's row."""
    rows = []
    for (n,), sub in table.group_by("players", maintain_order=True):
        sub = sub.sort("position")
        first, last = sub.row(0, named=True), sub.row(-1, named=True)
        big = sub.with_columns(pl.col("edge_pp").abs().alias("a")).sort("a").row(-1, named=True)
        rows.append(
            {
                "players": int(n), "games": first["games"],
                **{c: first[c] for c in carry},
                "first_pp": first["edge_pp"], "first_low": first["edge_low"],
                "first_high": first["edge_high"], "last_position": last["position"],
                "last_pp": last["edge_pp"], "last_low": last["edge_low"],
                "last_high": last["edge_high"], "largest_position": big["position"],
                "largest_pp": big["edge_pp"], "largest_low": big["edge_low"],
                "largest_high": big["edge_high"], "shared": first["shared"],
                "same_as_seat": first["same_as_seat"],
            }
        )  # fmt: skip
    keys = list(EDGE_SCHEMA)
    schema = {
        **{k: EDGE_SCHEMA[k] for k in keys[:2]},
        **{c: table.schema[c] for c in carry},
        **{k: EDGE_SCHEMA[k] for k in keys[2:]},
    }
    return pl.DataFrame(rows, schema=schema).sort("players")


def first_edge_frame(edges_table: pl.DataFrame) -> pl.DataFrame:
    """``players, games, first_edge_pp, first_low, first_high`` of an :func:`edges` table:
    the first position's edge, as :func:`seat_fairness` names it."""
    return edges_table.select("players", "games", pl.col("first_pp").alias("first_edge_pp"),
                              "first_low", "first_high")  # fmt: skip
