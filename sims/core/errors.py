"""User-facing errors: bad input that the CLI reports as a message, not a traceback."""


class SlicelabError(Exception):
    """An error caused by the user's input; its message names the problem and the fix."""


class DataFileError(SlicelabError):
    """A game's data file (a deck, a board, a card set) that cannot be used."""


class StrategySpecError(SlicelabError):
    """A strategy spec string naming an unknown strategy or parameter."""


class InertRuleError(SlicelabError):
    """A rule option that cannot change any game of an arm (under the arm's data and the
    other rulings in force): refused, as a what-if that measures nothing. ``slicelab plan``
    leaves such a variant rule out of the one block it is moot in, saying so."""
