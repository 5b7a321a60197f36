"""Horno's analyses and balance report (:data:`analysis.horno.report.REPORT`).

- :mod:`~analysis.horno.common`: the study's blocks by role (the main field: the heuristic
  in every seat), the card set and rules a block plays, whether two blocks deal the same
  games, and what a card set changes from assumed v1;
- :mod:`~analysis.horno.seats`: win share by turn position in every field and on every
  card set;
- :mod:`~analysis.horno.dishes`: the strength of each dish type and card: own points,
  restricted play (paired by deal, :mod:`analysis.restricted`) and replacement;
- :mod:`~analysis.horno.sabotage`: what sabotage and steals are worth (restricted seats)
  and what sabotage takes;
- :mod:`~analysis.horno.radioactive`: what the radioactive cards add and take, and the
  main field's deals without them;
- :mod:`~analysis.horno.cardsets`: the verdicts recomputed on every alternative card set;
- :mod:`~analysis.horno.prose` and :mod:`~analysis.horno.verdicts`: sentences and page 1,
  computed from the numbers.
"""
