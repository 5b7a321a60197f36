"""Pizza Theory's analyses and balance report (:data:`analysis.pizzatheory.report.REPORT`).

- :mod:`~analysis.pizzatheory.common`: the study's blocks by role (the main field: the
  mixed player), the board and rules a block plays, and how many distinct games a block
  holds (3-player games of greedy and the heuristic are deterministic: one game replayed);
- :mod:`~analysis.pizzatheory.seats`: win share by starting turn position (and by seat),
  the first and last starter's edges, in every field;
- :mod:`~analysis.pizzatheory.length`: rounds per game and how games end (win, run-out
  tiebreak, draw at the round bound, neutral win);
- :mod:`~analysis.pizzatheory.safety`: what playing the same deals without the safety rule
  changes (paired by deal), and how often the rule keeps a topping;
- :mod:`~analysis.pizzatheory.opening`: what the first placement is worth (restricted
  play, paired by deal; :mod:`analysis.restricted`);
- :mod:`~analysis.pizzatheory.boards`: each alternative board against the default (every
  change also corrected over the field's boards and positions);
- :mod:`~analysis.pizzatheory.prose` and :mod:`~analysis.pizzatheory.verdicts`: sentences
  and page 1, computed from the numbers.
"""
