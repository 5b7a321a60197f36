"""One sub-package per game, each reached through the game protocol
(:mod:`sims.core.game`): ``sims/games/<game>/`` provides an object satisfying
:class:`sims.core.game.Game`, registered by one line of :data:`sims.core.game.REGISTRY`.
"""
