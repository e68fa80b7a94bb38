"""The PettingZoo environment (docs/rl.md): PettingZoo's own API test on the three kinds of
mode, the same seed and actions giving the same observations, rewards by the mode's outcome,
and the example script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from sgs_dsl import rl
from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.modes import MODE_SPECS
from sgs_dsl.rl.encoding import MAX_OPTIONS

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def library():
    return load_library()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("ruleset", "players"), [("standard", 5), ("hegemony", 4), ("campus_3v3", 6)])
def test_pettingzoo_api_test_passes(library, ruleset, players):
    api_test(rl.env(ruleset, players, seed=3, library=library), num_cycles=2000)


def _played(env, seed, policy_seed, limit=4000):
    """A game played with seeded random legal actions: the (agent, observation, action) steps and the rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    steps, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    env.ended = {}
    for agent in env.agent_iter(limit):
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination:
            env.ended[agent] = info
        action = None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        steps.append((agent, observation["observation"].copy(), observation["action_mask"].copy(), action))
        env.step(action)
    return steps, totals


def test_the_same_seed_and_actions_give_the_same_observations(library):
    one, two = rl.env("standard", 4, library=library), rl.env("standard", 4, library=library)
    a, rewards_a = _played(one, 11, 5)
    b, rewards_b = _played(two, 11, 5)
    assert len(a) == len(b) > 20 and rewards_a == rewards_b
    for (agent_a, obs_a, mask_a, act_a), (agent_b, obs_b, mask_b, act_b) in zip(a, b, strict=True):
        assert agent_a == agent_b and act_a == act_b
        assert np.array_equal(obs_a, obs_b) and np.array_equal(mask_a, mask_b)
    other, _ = _played(rl.env("standard", 4, library=library), 12, 5)
    assert [s[1].tolist() for s in other[:40]] != [s[1].tolist() for s in a[:40]]


@pytest.mark.parametrize(("ruleset", "players"), [("standard", 5), ("hegemony", 4), ("campus_3v3", 6)])
def test_rewards_follow_the_modes_outcome(library, ruleset, players):
    env = rl.env(ruleset, players, library=library, max_turns=400)
    steps, totals = _played(env, 2, 1, limit=20000)
    assert not env.agents  # every seat was stepped out at the end
    winners = [a for a, r in totals.items() if r > 0]
    losers = [a for a, r in totals.items() if r < 0]
    assert winners and losers and len(winners) + len(losers) == players
    mode = MODE_SPECS[library.rulesets[ruleset].mode]
    for agent, info in env.ended.items():  # each seat's reward is its side's outcome, as the mode says
        assert (totals[agent] > 0) == mode.seat_won(info["side"], info["winner"])
    asked = {agent for agent, _, _, action in steps if action is not None}
    assert len(asked) > 1  # seats act out of turn too: more than one seat is asked


def test_an_action_the_mask_does_not_allow_is_refused(library):
    env = rl.env("standard", 4, seed=1, library=library)
    env.reset()
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.sum() >= 1 and mask.shape == (MAX_OPTIONS,)
    with pytest.raises(ValueError, match="not an option"):
        env.step(int(mask.sum()))
    env.step(0)  # the environment goes on


def test_the_example_runs():
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "rl_random.py"), "--games", "2", "--players", "4"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-1000:]
    assert "steps/s" in done.stdout and done.stdout.count("game ") == 2
