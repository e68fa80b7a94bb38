"""A seeded agent that answers every question uniformly at random among the legal options."""

from __future__ import annotations

import random
from typing import Any

from ..engine.decisions import Request


class RandomAgent:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self._bits = self.rng.getrandbits

    def choose(self, request: Request, view: Any) -> int:
        # rng.randrange(n), drawn as it draws (k random bits until the number is below n)
        # without its argument checks: the agent answers every question of a batch
        n = len(request.options)
        if n <= 0:
            raise ValueError("no option to choose from")
        k = n.bit_length()
        r = self._bits(k)
        while r >= n:
            r = self._bits(k)
        return r
