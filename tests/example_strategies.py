"""A strategy written in plain Python, as a user would: plays on the reference engine."""

from dataclasses import dataclass

from sims.core.specs import StrategySpec


@dataclass
class FirstLegal:
    """Always takes the first legal action (``example_strategies:FirstLegal``)."""

    spec: StrategySpec

    def choose(self, view, decision, rng) -> int:
        return decision.legal[0]


class Crash:
    """A strategy whose process dies at its first decision, as a fault in compiled code
    kills a worker (SIGSEGV)."""

    def __init__(self, spec) -> None:
        self.spec = spec

    def choose(self, view, decision, rng):
        import os
        import signal

        os.kill(os.getpid(), signal.SIGSEGV)
