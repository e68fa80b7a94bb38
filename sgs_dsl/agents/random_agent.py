"""A seeded agent that answers every question uniformly at random among the legal options."""

from __future__ import annotations

import random
from typing import Any

from ..core.native import mypyc_attr
from ..engine.decisions import Request


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools make agents of their own from it
class RandomAgent:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self._bits = self.rng.getrandbits

    def choose(self, request: Request, view: Any) -> int:
        return self.below(len(request.options))

    def below(self, n: int) -> int:
        """A uniform index below n (engine.decisions.UniformAgent: the engine may answer a
        question for this agent by drawing its options this way until one is legal)."""
        # rng.randrange(n), drawn as it draws (k random bits until the number is below n)
        # without its argument checks: the agent answers every question of a batch
        if n <= 0:
            raise ValueError("no option to choose from")
        k = n.bit_length()
        r = self._bits(k)
        while r >= n:
            r = self._bits(k)
        return r
