"""What a Piece o' Cake option is worth: the win share of a seat that may use it minus that
of a seat that never does, on the same deals against the same field, from every seat in
turn (:mod:`analysis.restricted`, the generic estimator, re-exported here).

Piece o' Cake's options are forgoing a cake (the restricted seat plays
``heuristic(margin=1000)``: it never forgoes while a piece is free) and cutting fewer pieces
than the most allowed (``heuristic(fewer=-100)``: it never does). Against its own field the
unrestricted block is ``seats`` (every seat plays the field: averaged over the seats an
unrestricted seat wins 1/n of each deal); in the greedy field it is ``heur-greedy`` (the
unrestricted candidate among greedy players, paired by rotation and deal). Either way the
interval is a t interval over deals; n counts deals.
"""

from __future__ import annotations

from analysis.restricted import deal_values, option_value

__all__ = ["deal_values", "option_value"]
