"""One sub-package per game; each registers itself in :mod:`sims.core.registry`."""
