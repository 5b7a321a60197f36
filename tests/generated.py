"""Settings for the generated-file tests: property-based tests (Hypothesis) that write the
data files a designer could write (boards, cakes, card sets, decks) and rule options at the
ends of their ranges, and require both engines to play them identically or the file to be
refused up front.

``make test`` runs a bounded number of examples, derandomized so that CI sees the same
files every run. ``make validate`` sets ``SLICELAB_VALIDATE=1``: thousands of examples
per game, random, on kernels compiled with numba's bounds checking
(``NUMBA_BOUNDSCHECK=1``, into a cache of their own), so an out-of-bounds access raises
instead of corrupting memory.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

VALIDATE = os.environ.get("SLICELAB_VALIDATE", "") not in ("", "0")
"""True under ``make validate``."""


def generated(quick: int, validate: int = 2000) -> settings:
    """Hypothesis settings: ``quick`` examples in ``make test``, ``validate`` in
    ``make validate``.

    Parameters
    ----------
    quick : int
        Examples per test in ``make test`` (keep its time budget in mind).
    validate : int
        Examples per test under ``make validate``.
    """
    return settings(
        max_examples=validate if VALIDATE else quick,
        deadline=None,
        derandomize=not VALIDATE,
        database=None,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],  # fmt: skip
    )
