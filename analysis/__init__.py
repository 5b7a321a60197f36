"""slicelab's analysis package: balance questions answered from simulated data.

The generic modules read only the core schema (``seat``, ``score``, ``win_share``,
``n_winners``, the game's declared win rule and options) and work for any game:
:mod:`~analysis.load`, :mod:`~analysis.stats`, :mod:`~analysis.samplesize`,
:mod:`~analysis.summary`, :mod:`~analysis.seats`, :mod:`~analysis.playercount`,
:mod:`~analysis.ratings`, the report's assembly (:mod:`~analysis.report`,
:mod:`~analysis.sections`, :mod:`~analysis.prose`, :mod:`~analysis.variant`), its content
blocks and their one typesetter (:mod:`~analysis.content`, :mod:`~analysis.typeset`) and
its number formats (:mod:`~analysis.formats`). A game's own questions, and the report it
declares, live in ``analysis/<game>/`` — the only modules that import
``sims.games.<game>``.
"""
