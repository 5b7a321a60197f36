"""Horno (2-4 players): a hand-management cooking card game with hidden hands; cook dishes in
your oven, steal from pantries and ovens, sabotage with garbage."""
