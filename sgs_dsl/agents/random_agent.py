"""A seeded agent that answers every question uniformly at random among the legal options."""

from __future__ import annotations

import random
from typing import Any

from ..engine.decisions import Request


class RandomAgent:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, request: Request, view: Any) -> int:
        return self.rng.randrange(len(request.options))
