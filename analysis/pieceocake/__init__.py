"""Piece o' Cake's analyses and balance report (:data:`analysis.pieceocake.report.REPORT`).

- :mod:`~analysis.pieceocake.common`: the blocks' strategies, cakes and rules, read from a
  dataset's manifest;
- :mod:`~analysis.pieceocake.restricted`: what an option is worth (forgoing, cutting fewer
  pieces than players): an unrestricted seat's win share minus a restricted seat's, paired
  by deal;
- :mod:`~analysis.pieceocake.forgo` and :mod:`~analysis.pieceocake.cuts`: how often players
  forgo and cut fewer pieces as played (observational);
- :mod:`~analysis.pieceocake.varieties`: each variety's share of the winners' points;
- :mod:`~analysis.pieceocake.compare`: exact-N cutting (``seats-exact``) against the
  printed rule, and New York Slice's seat edges beside Piece o' Cake's;
- :mod:`~analysis.pieceocake.robustness`: the headlines in every field the study plays;
- :mod:`~analysis.pieceocake.prose` and :mod:`~analysis.pieceocake.verdicts`: sentences and
  page 1, computed from the numbers.
"""
