"""How strong is each dish type, and each dish card? Three estimands, named for what they
measure (the same three as New York Slice's specials, :mod:`analysis.nyslice.specials`):

- **own points** (:func:`own_points`, :func:`card_points`): what a type's dishes score for
  the seats that take them, read from the finished games' columns (``dishes``,
  ``dish_scores``, ``unfinished_dish``): per type, the dishes taken and completed, the
  completion rate, the points a completed dish scores, the points per dish taken (a
  completed dish's score, or an unfinished one's end points) and its excess over the
  average dish taken, the points a seat scores from the type, and its win share re-scored
  without them (everything else fixed: what the type's points alone add to winning). It
  ignores what the seat gave up to take the type.
- **restricted play** (:func:`restricted_play`): a seat that never takes a dish of type t
  while another type is open (``heuristic(avoid=t)``), every seat in turn, against the
  unrestricted field on the main field's deals; the unrestricted seat's win share (and
  score) minus the restricted seat's: what having the option of the type is worth. Paired
  by deal (:func:`analysis.restricted.deal_values`), n in deals.
- **replacement** (:func:`replacement`): the main field's deals replayed with type t's
  dishes made average dishes (each worth the card set's mean dish points, ingredients
  unchanged, :func:`sims.games.horno.cards.plain_type`); for the seats that completed a
  dish of type t in the real game, their win share (and score) there minus in the replay.
  It includes how the game went differently, so what a seat gave up for the type counts.

Intervals are 95%: over games (ratios linearised, means clustered by game: a game's seats
share its deal) or deals; Holm's correction across the types of a player count gives
``p_holm``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.blocks import has_block
from analysis.horno.common import (
    AVOID,
    AVOID_KEY,
    SEATS,
    Out,
    block_cards,
    block_rules,
    plain_blocks,
    same_deck,
)
from analysis.load import block_frames
from analysis.load import manifest as load_manifest
from analysis.restricted import check_paired, deal_values
from analysis.samplesize import annotate, holm_columns
from analysis.stats import (
    cluster_mean_interval,
    mean_interval,
    ratio_difference,
    ratio_interval,
)
from sims.core.errors import SlicelabError
from sims.games.horno.cards import CardSet

NAN = float("nan")


def dish_rows(players: pl.DataFrame, cards: CardSet) -> pl.DataFrame:
    """One row per dish a seat took: ``arm, players, game_index, seat, dish`` (its index in
    the card set), ``type``, ``completed`` and ``points`` (a completed dish's score; an
    unfinished one's end points, ``unfinished_points``)."""
    keys = ["arm", "players", "game_index", "seat"]
    base = players.select(*keys, "dishes", "dish_scores", "unfinished_dish", "unfinished_points")
    done = (
        base.select(*keys, "dishes", "dish_scores")
        .explode("dishes", "dish_scores")
        .drop_nulls("dishes")
        .select(
            *keys,
            pl.col("dishes").cast(pl.Int64).alias("dish"),
            pl.lit(True).alias("completed"),
            pl.col("dish_scores").cast(pl.Int64).alias("points"),
        )
    )
    left = base.filter(pl.col("unfinished_dish") >= 0).select(
        *keys,
        pl.col("unfinished_dish").cast(pl.Int64).alias("dish"),
        pl.lit(False).alias("completed"),
        pl.col("unfinished_points").cast(pl.Int64).alias("points"),
    )
    types = {d: dish.type for d, dish in enumerate(cards.dishes)}
    rows = pl.concat([done, left]).with_columns(
        pl.col("seat").cast(pl.Int64),
        pl.col("dish").replace_strict(types, return_dtype=pl.Int64).alias("type"),
    )
    return rows.select(*keys, "dish", "type", "completed", "points")


def _indexed(players: pl.DataFrame, n: int) -> pl.DataFrame:
    """The rows of one player count sorted by game and seat, with ``g``: the game's index
    0 .. G − 1 (games of several arms kept apart)."""
    sub = players.filter(pl.col("players") == n).sort("arm", "game_index", "seat")
    return sub.with_row_index("_r").with_columns((pl.col("_r") // n).cast(pl.Int64).alias("g"))


def _per_game(rows: pl.DataFrame, games: int, types: int) -> dict[str, np.ndarray]:
    """Per game and type (``games`` x ``types``): the dishes taken (``taken``), completed
    (``done``), the points of the dishes taken (``points``) and of the completed ones
    (``done_points``)."""
    out = {k: np.zeros((games, types)) for k in ("taken", "done", "points", "done_points")}
    g, t = rows["g"].to_numpy(), rows["type"].to_numpy()
    c, p = rows["completed"].to_numpy(), rows["points"].to_numpy().astype(float)
    np.add.at(out["taken"], (g, t), 1)
    np.add.at(out["done"], (g, t), c.astype(float))
    np.add.at(out["points"], (g, t), p)
    np.add.at(out["done_points"], (g, t), np.where(c, p, 0.0))
    return out


def _shares(keys: np.ndarray) -> np.ndarray:
    """Win shares (games x seats) from one comparable key per seat: 1/k to each of the k
    seats with the best key."""
    best = keys == keys.max(axis=1, keepdims=True)
    return best / best.sum(axis=1, keepdims=True)


OWN_SCHEMA = {
    "players": pl.Int64,
    "type": pl.Int64,
    "type_name": pl.String,
    "games": pl.Int64,
    "taken": pl.Int64,
    "completed": pl.Int64,
    "completion": pl.Float64,
    "completion_low": pl.Float64,
    "completion_high": pl.Float64,
    "per_dish": pl.Float64,
    "per_dish_low": pl.Float64,
    "per_dish_high": pl.Float64,
    "yield": pl.Float64,
    "yield_low": pl.Float64,
    "yield_high": pl.Float64,
    "excess": pl.Float64,
    "excess_low": pl.Float64,
    "excess_high": pl.Float64,
    "per_seat": pl.Float64,
    "per_seat_low": pl.Float64,
    "per_seat_high": pl.Float64,
    "share": pl.Float64,
    "holders": pl.Int64,
    "own_pp": pl.Float64,
    "own_low": pl.Float64,
    "own_high": pl.Float64,
    "rank": pl.Int64,
}


def own_points(out: Out, group: str = SEATS, m: dict | None = None) -> pl.DataFrame:
    """Own points of every dish type of a uniform block's card set, per player count.

    Parameters
    ----------
    out : path
        The dataset.
    group : str
        A uniform block (the heuristic in every seat: ``seats``, or a card set's block).
    m : dict, optional
        The dataset's manifest (read when not given).

    Returns
    -------
    polars.DataFrame
        ``players, type, type_name, games`` (the interval's unit), ``taken`` and
        ``completed`` (dishes), ``completion`` (completed / taken), ``per_dish`` (points a
        completed dish scores), ``yield`` (points per dish taken), ``excess`` (``yield``
        minus the points per dish taken of every type: above 0, the type yields more than
        the average dish), ``per_seat`` (points a seat scores from the type's completed
        dishes per game), ``share`` (their share of every seat's points), ``holders``
        (seat-games with a completed dish of the type), ``own_pp`` (the holder's win share
        minus its win share re-scored without the type's points, pp, clustered by game),
        ``rank`` (1 = the highest ``yield`` at the count), each estimate with its 95%
        interval; and the sample-size columns (the claim: ``excess`` differs from 0).
    """
    m = m or load_manifest(out)
    cards = block_cards(m, group)
    dishes_tie = block_rules(m, group).tie == "dishes"
    players, _ = block_frames(out, group)
    k = len(cards.types)
    result = []
    for n in sorted(players["players"].unique()):
        sub = _indexed(players, int(n))
        g_count = sub.height // n
        rows = dish_rows(sub, cards).join(
            sub.select("arm", "game_index", pl.col("seat").cast(pl.Int64), "g"),
            on=["arm", "game_index", "seat"],
        )
        per = _per_game(rows, g_count, k)
        all_points, all_taken = per["points"].sum(axis=1), per["taken"].sum(axis=1)
        # per game and seat: score, tie-break, win share; each type's completed points
        score = sub["score"].to_numpy().astype(float).reshape(g_count, n)
        tiebreak = sub["tiebreak"].to_numpy().astype(float).reshape(g_count, n)
        real = sub["win_share"].to_numpy().astype(float).reshape(g_count, n)
        done = rows.filter(pl.col("completed"))
        pts = np.zeros((g_count, n, k))
        cnt = np.zeros((g_count, n, k))
        gi, si, ti = (done[c].to_numpy() for c in ("g", "seat", "type"))
        np.add.at(pts, (gi, si, ti), done["points"].to_numpy().astype(float))
        np.add.at(cnt, (gi, si, ti), 1.0)
        total_points = float(score.sum())
        for t in range(k):
            comp = ratio_interval(per["done"][:, t], per["taken"][:, t], share=True)
            dish = ratio_interval(per["done_points"][:, t], per["done"][:, t], share=False)
            yld = ratio_interval(per["points"][:, t], per["taken"][:, t], share=False)
            exc = ratio_difference(per["points"][:, t], per["taken"][:, t], all_points, all_taken)
            seat = mean_interval(per["done_points"][:, t] / n)
            diffs, clusters = [], []
            for s in range(n):
                has = cnt[:, s, t] > 0
                if not has.any():
                    continue
                sc = score.copy()
                sc[:, s] -= pts[:, s, t]
                tb = tiebreak.copy()
                if dishes_tie:
                    tb[:, s] -= cnt[:, s, t]
                without = _shares(sc * 1000 + tb)[:, s]
                diffs.append(100 * (real[has, s] - without[has]))
                clusters.append(np.flatnonzero(has))
            if diffs:
                own = cluster_mean_interval(np.concatenate(diffs), np.concatenate(clusters))
            else:
                own = (NAN, NAN, NAN, 0)
            result.append(
                {
                    "players": int(n),
                    "type": t,
                    "type_name": cards.types[t],
                    "games": g_count,
                    "taken": int(per["taken"][:, t].sum()),
                    "completed": int(per["done"][:, t].sum()),
                    "completion": comp[0],
                    "completion_low": comp[1],
                    "completion_high": comp[2],
                    "per_dish": dish[0],
                    "per_dish_low": dish[1],
                    "per_dish_high": dish[2],
                    "yield": yld[0],
                    "yield_low": yld[1],
                    "yield_high": yld[2],
                    "excess": exc[0],
                    "excess_low": exc[1],
                    "excess_high": exc[2],
                    "per_seat": seat[0],
                    "per_seat_low": seat[1],
                    "per_seat_high": seat[2],
                    "share": float(per["done_points"][:, t].sum() / total_points)
                    if total_points
                    else NAN,
                    "holders": int(sum(len(c) for c in clusters)),
                    "own_pp": own[0],
                    "own_low": own[1],
                    "own_high": own[2],
                    "rank": 0,
                }
            )
    table = pl.DataFrame(result, schema=OWN_SCHEMA)
    rank = pl.col("yield").rank("ordinal", descending=True).over("players").cast(pl.Int64)
    table = table.with_columns(rank.alias("rank")).sort("players", "type")
    return annotate(table, "excess", "excess_low", "excess_high", share=False)


CARD_SCHEMA = {
    "players": pl.Int64,
    "dish": pl.Int64,
    "name": pl.String,
    "type": pl.Int64,
    "type_name": pl.String,
    "ingredients": pl.Int64,
    "base": pl.Int64,
    "games": pl.Int64,
    "taken": pl.Int64,
    "completed": pl.Int64,
    "completion": pl.Float64,
    "completion_low": pl.Float64,
    "completion_high": pl.Float64,
    "points": pl.Float64,
    "points_low": pl.Float64,
    "points_high": pl.Float64,
}


def card_points(out: Out, group: str = SEATS, m: dict | None = None) -> pl.DataFrame:
    """Own points of every dish card of a uniform block's card set, per player count.

    Returns
    -------
    polars.DataFrame
        ``players, dish, name, type, type_name, ingredients, base`` (its printed points),
        ``games``, ``taken``, ``completed``, ``completion`` (completed / taken) and
        ``points`` (the mean score of its completed copies: base points, less penalties,
        plus a radioactive bonus), each with its 95% interval over games (ratios
        linearised; nan where it was never completed).
    """
    m = m or load_manifest(out)
    cards = block_cards(m, group)
    players, _ = block_frames(out, group)
    result = []
    for n in sorted(players["players"].unique()):
        sub = _indexed(players, int(n))
        g_count = sub.height // n
        rows = dish_rows(sub, cards).join(
            sub.select("arm", "game_index", pl.col("seat").cast(pl.Int64), "g"),
            on=["arm", "game_index", "seat"],
        )
        d = len(cards.dishes)
        taken, done, pts = (np.zeros((g_count, d)) for _ in range(3))
        g, dish = rows["g"].to_numpy(), rows["dish"].to_numpy()
        c = rows["completed"].to_numpy()
        np.add.at(taken, (g, dish), 1)
        np.add.at(done, (g, dish), c.astype(float))
        np.add.at(pts, (g, dish), np.where(c, rows["points"].to_numpy().astype(float), 0.0))
        for i, card in enumerate(cards.dishes):
            comp = ratio_interval(done[:, i], taken[:, i], share=True)
            mean = ratio_interval(pts[:, i], done[:, i], share=False)
            result.append(
                {
                    "players": int(n),
                    "dish": i,
                    "name": card.name,
                    "type": card.type,
                    "type_name": cards.types[card.type],
                    "ingredients": len(card.ingredients),
                    "base": card.points,
                    "games": g_count,
                    "taken": int(taken[:, i].sum()),
                    "completed": int(done[:, i].sum()),
                    "completion": comp[0],
                    "completion_low": comp[1],
                    "completion_high": comp[2],
                    "points": mean[0],
                    "points_low": mean[1],
                    "points_high": mean[2],
                }
            )
    return pl.DataFrame(result, schema=CARD_SCHEMA).sort("players", "dish")


RESTRICTED_SCHEMA = {
    "players": pl.Int64,
    "type": pl.Int64,
    "type_name": pl.String,
    "deals": pl.Int64,
    "restricted_share": pl.Float64,
    "unrestricted_share": pl.Float64,
    "value_pp": pl.Float64,
    "value_low": pl.Float64,
    "value_high": pl.Float64,
    "points": pl.Float64,
    "points_low": pl.Float64,
    "points_high": pl.Float64,
    "restricted_taken": pl.Float64,
    "unrestricted_taken": pl.Float64,
}


def restricted_play(
    out: Out, group: str = AVOID, base: str = SEATS, m: dict | None = None
) -> pl.DataFrame:
    """The restricted-play value of every dish type: the unrestricted seat's win share (and
    score) minus that of a seat that never takes a dish of the type while another is open,
    on the same deals, every seat in turn (see the module notes).

    Returns
    -------
    polars.DataFrame
        ``players, type, type_name, deals`` (the paired unit), the two seats' mean win
        shares, ``value_pp`` (unrestricted − restricted, pp) and ``points`` (scores), each
        with its t interval over deals, ``restricted_taken`` and ``unrestricted_taken``
        (the type's dishes each took per game: the restriction binds when the first is
        near 0), ``p_holm``, ``holm_significant`` and the sample-size columns (n in deals).
    """
    m = m or load_manifest(out)
    check_paired(out, group, base, ("cards", "rules"))
    cards = block_cards(m, base)
    shares = deal_values(out, group, base, "win_share", by=AVOID_KEY)
    scores = deal_values(out, group, base, "score", by=AVOID_KEY)
    taken = _taken(out, group, base, cards)
    result = []
    for (t, n), sub in shares.group_by(AVOID_KEY, "players", maintain_order=True):
        ti = int(t)
        pts = scores.filter((pl.col(AVOID_KEY) == t) & (pl.col("players") == n))
        v = mean_interval(100 * sub["value"].to_numpy())
        p = mean_interval(pts["value"].to_numpy())
        took = taken.get((ti, int(n)), (NAN, NAN))
        result.append(
            {
                "players": int(n),
                "type": ti,
                "type_name": cards.types[ti] if 0 <= ti < len(cards.types) else str(ti),
                "deals": sub.height,
                "restricted_share": float(sub["restricted"].mean()),
                "unrestricted_share": float(sub["unrestricted"].mean()),
                "value_pp": v[0],
                "value_low": v[1],
                "value_high": v[2],
                "points": p[0],
                "points_low": p[1],
                "points_high": p[2],
                "restricted_taken": took[0],
                "unrestricted_taken": took[1],
            }
        )
    table = pl.DataFrame(result, schema=RESTRICTED_SCHEMA).sort("players", "type")
    table = holm_columns(table, "value")
    return annotate(
        table, "value_pp", "value_low", "value_high", n="deals", share=False, unit="deals", pp=True
    )


def _taken(out: Out, group: str, base: str, cards: CardSet) -> dict[tuple[int, int], tuple]:
    """Per (type avoided, players): the type's dishes the restricted seat took per game,
    and a seat of the unrestricted block on the same deals."""
    rest, _ = block_frames(out, group)
    rest = rest.filter(pl.col("seat") == pl.col("rotation"))
    real, _ = block_frames(out, base)
    found = {}
    for (t, n), sub in rest.group_by(AVOID_KEY, "players", maintain_order=True):
        ti = int(t)
        mine = dish_rows(sub, cards).filter(pl.col("type") == ti).height / max(sub.height, 1)
        deals = sub["game_index"].unique().implode()
        other = real.filter((pl.col("players") == n) & pl.col("game_index").is_in(deals))
        theirs = dish_rows(other, cards).filter(pl.col("type") == ti).height / max(other.height, 1)
        found[(ti, int(n))] = (mine, theirs)
    return found


REPLACEMENT_SCHEMA = {
    "players": pl.Int64,
    "type": pl.Int64,
    "type_name": pl.String,
    "block": pl.String,
    "plain_points": pl.Int64,
    "games": pl.Int64,
    "takers": pl.Int64,
    "value_pp": pl.Float64,
    "value_low": pl.Float64,
    "value_high": pl.Float64,
    "points": pl.Float64,
    "points_low": pl.Float64,
    "points_high": pl.Float64,
    "direct": pl.Float64,
    "real_share": pl.Float64,
    "replay_share": pl.Float64,
}


def replacement(out: Out, base: str = SEATS, m: dict | None = None) -> pl.DataFrame:
    """The replacement value of every dish type whose block the study has (see the module
    notes): for the seats that completed a dish of the type in the real game, their win
    share (and score) there minus in the replay with the type's dishes made average.

    Returns
    -------
    polars.DataFrame
        ``players, type, type_name, block, plain_points`` (what an average dish is worth
        in the replay), ``games`` (paired games with a taker: the interval's unit),
        ``takers`` (seat-games), ``value_pp`` (win share, real − replay, pp) and
        ``points`` (score), each with a t interval clustered by game, ``direct`` (the part
        of ``points`` from the type's own dishes' points, real − replay; the rest is how
        the game went differently), the takers' mean win shares, ``p_holm``,
        ``holm_significant`` and the sample-size columns.

    Raises
    ------
    SlicelabError
        When a replacement block does not deal the same games as ``base``.
    """
    m = m or load_manifest(out)
    cards = block_cards(m, base)
    real_all, _ = block_frames(out, base)
    result = []
    for t, block in plain_blocks(m).items():
        if not has_block(m, block):
            continue
        if not same_deck(m, block, base):
            raise SlicelabError(
                f"block {block!r} does not deal the games of {base!r} (its seed or deck "
                f"differs); its card set must be {base!r}'s with the {t} dishes' points "
                "changed (python -m sims.games.horno.cards writes it)"
            )
        ti = cards.types.index(t)
        plain = block_cards(m, block)
        replay_all, _ = block_frames(out, block)
        for n in sorted(replay_all["players"].unique()):
            replay = replay_all.filter(pl.col("players") == n)
            real = real_all.filter(
                (pl.col("players") == n)
                & pl.col("game_index").is_in(replay["game_index"].unique().implode())
            )
            took = real.filter(pl.col("completed_by_type").list.get(ti) > 0)
            keys = ["game_index", "seat"]
            pair = took.select(*keys, "win_share", "score").join(
                replay.select(*keys, "win_share", "score"), on=keys, suffix="_replay"
            )
            d_share = 100 * (pair["win_share"] - pair["win_share_replay"]).to_numpy()
            d_score = (pair["score"] - pair["score_replay"]).cast(pl.Float64).to_numpy()
            games = pair["game_index"].to_numpy()
            v = cluster_mean_interval(d_share, games)
            p = cluster_mean_interval(d_score, games)
            own_real = _type_points(took, cards, ti)
            own_replay = _type_points(replay.join(took.select(keys), on=keys), plain, ti)
            direct = own_real.join(own_replay, on=keys, suffix="_replay", how="left")
            result.append(
                {
                    "players": int(n),
                    "type": ti,
                    "type_name": t,
                    "block": block,
                    "plain_points": next(d.points for d in plain.dishes if d.type == ti),
                    "games": v[3],
                    "takers": pair.height,
                    "value_pp": v[0],
                    "value_low": v[1],
                    "value_high": v[2],
                    "points": p[0],
                    "points_low": p[1],
                    "points_high": p[2],
                    "direct": float(
                        (direct["points"] - direct["points_replay"].fill_null(0)).mean()
                    )
                    if direct.height
                    else NAN,
                    "real_share": float(pair["win_share"].mean()) if pair.height else NAN,
                    "replay_share": float(pair["win_share_replay"].mean()) if pair.height else NAN,
                }
            )
    table = pl.DataFrame(result, schema=REPLACEMENT_SCHEMA).sort("players", "type")
    table = holm_columns(table, "value")
    return annotate(table, "value_pp", "value_low", "value_high", share=False, pp=True)


def _type_points(players: pl.DataFrame, cards: CardSet, t: int) -> pl.DataFrame:
    """Per ``game_index, seat`` of ``players``: the points of its completed dishes of type
    ``t`` (0 for none)."""
    rows = dish_rows(players, cards).filter(pl.col("completed") & (pl.col("type") == t))
    per = rows.group_by("game_index", "seat").agg(pl.col("points").sum().cast(pl.Float64))
    seats = players.select("game_index", pl.col("seat").cast(pl.Int64)).unique()
    return seats.join(per, on=["game_index", "seat"], how="left").with_columns(
        pl.col("points").fill_null(0.0)
    )
