"""A strategy written in plain Python, as a user would: plays on the reference engine."""

from dataclasses import dataclass

from sims.core.specs import StrategySpec


@dataclass
class FirstLegal:
    """Always takes the first legal action (``example_strategies:FirstLegal``)."""

    spec: StrategySpec

    def choose(self, view, decision, rng) -> int:
        return decision.legal[0]
