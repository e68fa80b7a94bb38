"""The random agent draws its answer as `random.Random(seed).randrange(n)` would (the seeded
logs of tests/test_log_hashes.py were recorded so), from the generator's bits directly."""

from __future__ import annotations

import random

import pytest

from sgs_dsl.agents.random_agent import RandomAgent
from sgs_dsl.engine.decisions import Option, Request


def question(n: int) -> Request:
    """A question of n options, as the engine asks it."""
    return Request(0, "choice", "", tuple(Option(str(i), i) for i in range(n)))


def test_the_draws_are_those_of_randrange():
    for seed in range(30):
        agent, rng = RandomAgent(seed), random.Random(seed)
        for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 100, 1000] * 10:
            pick = agent.choose(question(n), None)
            assert pick == rng.randrange(n) and 0 <= pick < n


def test_a_question_without_options_is_refused():
    with pytest.raises(ValueError, match="no option"):
        RandomAgent(1).choose(question(0), None)
