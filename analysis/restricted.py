"""What an option is worth, for any game: the win share of a seat that may use it minus that
of a seat that never does (or may not: restricted play), on the same deals against the same
field, from every seat in turn.

The restricted block is rotated (``rotate = true``): in rotation ``k`` the restricted seat
is seat ``k``, and game ``i`` of every block of the study is dealt the same (one seed), so
the deal is the paired unit.

- Against its own field (the unrestricted block is uniform, e.g. ``seats``: every seat plays
  the field's strategy): the unrestricted counterpart of the restricted seat on deal ``i``
  from seat ``k`` is seat ``k`` of the uniform block's game ``i``; averaged over the
  rotations its win share is the deal's mean win share, 1/n.
- In another field (the unrestricted block is rotated too, e.g. one strategy among greedy
  players): the candidate's value minus the restricted seat's, paired by (rotation, game),
  averaged over the rotations of each deal.

Either way the interval is a t interval over deals (every rotation of a deal played in both
blocks); n counts deals. Any per-seat column can be compared so (``column``: the win share
by default; a score, say, for what the option is worth in points). A restricted block with
a grid (one arm per value and rotation, e.g. the dish type a seat avoids) is compared
value by value (``by``: the grid key).

:func:`check_paired` refuses to pair two blocks whose games are not the same deals (their
seed or the game options that deal them differ).
"""

from __future__ import annotations

import json

import polars as pl

from analysis.load import MissingBlock, arm_options, manifest, treatment, untreated
from analysis.load import rows as load_rows
from analysis.prose import listing
from analysis.samplesize import annotate
from analysis.stats import mean_interval
from sims.core.errors import SlicelabError


def _candidate_rows(
    out, group: str, column: str = "win_share", by: str | None = None
) -> pl.DataFrame:
    """``players, rotation, game_index`` (and ``by``) and ``column`` of the block's
    candidate seat: the seat ``rotation`` of a rotated block; every seat of a uniform block
    (its seat standing for the rotation it would be in)."""
    frame = untreated(load_rows(out, "players", group))
    uniform = frame.group_by("arm").agg(pl.col("strategy").n_unique().alias("k"))["k"].max() == 1
    if not uniform:
        frame = frame.filter(pl.col("seat") == pl.col("rotation"))
    else:
        frame = frame.with_columns(pl.col("seat").cast(pl.Int64).alias("rotation"))
    return frame.select(*([by] if by else []), "players", pl.col("rotation").cast(pl.Int64),
                        "game_index", pl.col(column).cast(pl.Float64))  # fmt: skip


def deal_values(
    out,
    restricted: str,
    unrestricted: str = "seats",
    column: str = "win_share",
    by: str | None = None,
) -> pl.DataFrame:
    """Per (players, deal): the unrestricted and the restricted seat's ``column`` (the win
    share by default), each averaged over the rotations, and their difference (``value``,
    unrestricted − restricted), for the deals with every rotation played in both blocks.
    With ``by`` (a grid key of the restricted block), per (``by``, players, deal), sorted
    by it first."""
    r = _candidate_rows(out, restricted, column, by).rename({column: "restricted"})
    u = _candidate_rows(out, unrestricted, column).rename({column: "unrestricted"})
    both = r.join(u, on=["players", "rotation", "game_index"], how="inner")
    keys = [*([by] if by else []), "players", "game_index"]
    per = both.group_by(*keys).agg(
        pl.len().alias("rotations"),
        pl.col("restricted").mean(),
        pl.col("unrestricted").mean(),
    )
    per = per.filter(pl.col("rotations") == pl.col("players"))
    return per.with_columns((pl.col("unrestricted") - pl.col("restricted")).alias("value")).sort(
        *keys
    )


def check_paired(
    out, group: str, base: str, options: tuple[str, ...] | None = None, what: str = "restricted"
) -> None:
    """Refuse to pair two blocks whose games are not the same deals: per player count of
    ``group``, the seed and the game ``options`` (default: every option the game declares)
    of its untreated arms must be one, and those of ``base``.

    Raises
    ------
    KeyError
        When the dataset has no such block.
    SlicelabError
        Naming the player count, and what the blocks must share.
    """
    arms = manifest(out)["study"]["arms"]
    found: dict[str, dict[int, set]] = {group: {}, base: {}}
    names = list(options) if options is not None else None
    for a in arms:
        g = a.get("group", a["name"])
        if g not in found or treatment(a):
            continue
        own = arm_options(a)
        keys = names if names is not None else sorted(own)
        # an option left out and one set empty ({} rules) deal alike
        key = (a["seed"], *(json.dumps(own.get(k) or None, sort_keys=True) for k in keys))
        found[g].setdefault(a["players"], set()).add(key)
        if names is None:
            names = keys
    for name, per in found.items():
        if not per:
            raise MissingBlock(out, name)
    shared = ["seed", *(names or [])]
    either = ", ".join(shared[:-1]) + " or " + shared[-1] if len(shared) > 1 else shared[0]
    for n, keys in found[group].items():
        if n not in found[base]:
            raise SlicelabError(f"block {group!r} plays {n} players but {base!r} does not: "
                                "nothing to pair its games with")  # fmt: skip
        if keys != found[base][n] or len(keys) != 1:
            raise SlicelabError(
                f"blocks {group!r} and {base!r} do not deal the same games at {n} players "
                f"(their {either} differ); pair a {what} block with the unrestricted block "
                f"of the same {listing(shared)}"
            )


def option_value(
    out, restricted: str, unrestricted: str = "seats", by: str | None = None
) -> pl.DataFrame:
    """The value of the option the restricted block's seat gives up, per player count (and
    per value of ``by``, a grid key of the restricted block: then its first column).

    Returns
    -------
    polars.DataFrame
        ``players, deals`` (the paired unit), ``unrestricted_share`` and
        ``restricted_share`` (means over deals), ``value_pp`` (unrestricted − restricted,
        pp) with a 95% t interval over deals ``value_low``/``value_high``, ``games`` (=
        deals, for the sample-size columns) and the sample-size columns (counting deals).
    """
    deals = deal_values(out, restricted, unrestricted, by=by)
    result = []
    keys = [*([by] if by else []), "players"]
    for key, sub in deals.group_by(*keys, maintain_order=True):
        m, lo, hi = mean_interval(100 * sub["value"].to_numpy())
        result.append({
            **({by: key[0]} if by else {}), "players": int(key[-1]), "deals": sub.height,
            "unrestricted_share": float(sub["unrestricted"].mean()),
            "restricted_share": float(sub["restricted"].mean()),
            "value_pp": m, "value_low": lo, "value_high": hi,
        })  # fmt: skip
    schema = {**({by: deals.schema[by]} if by else {}),
              "players": pl.Int64, "deals": pl.Int64, "unrestricted_share": pl.Float64,
              "restricted_share": pl.Float64, "value_pp": pl.Float64, "value_low": pl.Float64,
              "value_high": pl.Float64}  # fmt: skip
    table = pl.DataFrame(result, schema=schema).sort(*keys)
    table = table.with_columns(pl.col("deals").alias("games"))
    return annotate(table, "value_pp", "value_low", "value_high", share=False, unit="deals",
                    pp=True)  # fmt: skip
