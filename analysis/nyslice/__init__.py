"""New York Slice's own analyses and its report (the only place in ``analysis/`` that
imports ``sims.games.nyslice``).

- :mod:`~analysis.nyslice.seats`: the first slicer, and slicing twice;
- :mod:`~analysis.nyslice.specials`: how strong each Today's Special is;
- :mod:`~analysis.nyslice.threshold`: when eating beats collecting (θ sweep, replays);
- :mod:`~analysis.nyslice.playercount`: the generic measures and the majorities nobody
  scores;
- :mod:`~analysis.nyslice.prose`: its sentences of interpretation;
- :mod:`~analysis.nyslice.report`: ``REPORT``, the balance report it declares (found by
  name by :func:`analysis.report.game_report`).
"""
