"""The parameters and presets of Piece o' Cake's ``heuristic(theta, loss, fewer, margin)``.

The valuation itself lives in :mod:`sims.games.pieceocake.strategies` and is specified in
``docs/strategies/pieceocake.md``. Here: the parameters' defaults, their tuning box and
validity bounds, the presets shipped with slicelab (``data/presets.toml``:
``heuristic-eq2`` .. ``heuristic-eq5``, plain ``heuristic``'s default at each player count)
and the presets a user saves (``slicelab tune pieceocake ... --save-preset NAME``), with the
same API as New York Slice's (:func:`load_presets`, :func:`save_preset`,
:func:`check_preset_name`, :func:`user_presets`, :func:`params_for`).
"""

from __future__ import annotations

from pathlib import Path

from sims.core.specs import ParamBound
from sims.games import presets
from sims.games.presets import Presets

HEURISTIC_DEFAULTS: dict[str, float] = {
    "theta": 1.0,
    "loss": 1.0,
    "fewer": 0.0,
    "margin": 0.0,
}
"""Parameters of ``heuristic`` and their defaults (``docs/strategies/pieceocake.md``)."""

PARAM_ORDER = tuple(HEURISTIC_DEFAULTS)
"""Order of the parameters in the kernel's parameter array."""

GREEDY_PARAMS: dict[str, float] = dict(HEURISTIC_DEFAULTS)
"""``greedy``'s fixed parameters (with the myopic majority worth): theta 1, loss 1, fewer 0,
margin 0."""

PARAM_RANGES: dict[str, tuple[float, float]] = {
    "theta": (0.2, 5.0),
    "loss": (0.0, 2.0),
    "fewer": (-3.0, 3.0),
    "margin": (-3.0, 3.0),
}
"""The box that tuning searches."""

HEURISTIC_BOUNDS: dict[str, ParamBound] = {
    # A weight of collecting against eating: negative would invert it.
    "theta": ParamBound(0.0, 100.0),
    # A weight of the majority given up by eating: negative would reward losing it.
    "loss": ParamBound(0.0, 100.0),
    # Points per piece fewer than the most allowed; either sign means something.
    "fewer": ParamBound(-100.0, 100.0),
    # Points; 1000 is beyond any piece's value (forgo never / always).
    "margin": ParamBound(-1000.0, 1000.0),
}
"""The values each ``heuristic`` parameter may take (validity, wider than the tuning box
:data:`PARAM_RANGES`); a spec or a preset outside them is refused."""

assert set(HEURISTIC_BOUNDS) == set(HEURISTIC_DEFAULTS) == set(PARAM_RANGES)

PRESETS_FILE = Path(__file__).parent / "data" / "presets.toml"
"""The presets shipped with slicelab (``heuristic-eq2`` .. ``heuristic-eq5``: plain
``heuristic``'s parameters at that player count). Read only: presets a user saves go to
:func:`user_presets_file`."""


def _families() -> list[str]:
    from sims.games.pieceocake.strategies import STRATEGIES

    return list(STRATEGIES)


PRESETS = Presets(
    game="pieceocake",
    title="Piece o' Cake",
    shipped_file=lambda: PRESETS_FILE,  # looked up on each read: a test may point it elsewhere
    defaults=HEURISTIC_DEFAULTS,
    bounds=HEURISTIC_BOUNDS,
    families=_families,
)
"""This game's presets (:class:`sims.games.presets.Presets`); the functions below are its
methods under the names the game's callers use."""

PRESET_NAME = presets.PRESET_NAME
user_presets_file = PRESETS.user_file
packaged_presets = PRESETS.packaged
user_presets = PRESETS.user
load_presets = PRESETS.load
check_preset_name = PRESETS.check_name
save_preset = PRESETS.save
default_preset = PRESETS.default_preset
params_for = PRESETS.params_for
