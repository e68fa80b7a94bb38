"""Random legal play in the sgs-dsl PettingZoo environment (docs/rl.md): every seat picks a
uniformly random option among those its action_mask allows, for a few games; prints each
game's rewards and the steps per second.

    pip install '.[rl]'       # in the sgs-dsl source folder
    python examples/rl_random.py --ruleset standard --players 5 --games 20
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sgs_dsl import rl


def play(ruleset: str, players: int, games: int, seed: int) -> None:
    env = rl.env(ruleset=ruleset, players=players, seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    started = time.perf_counter()
    for game in range(games):
        env.reset(seed=seed + game)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            totals[agent] += reward
            if termination or truncation:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            env.step(action)
        print(f"game {game}: " + ", ".join(f"{a} {r:+.0f}" for a, r in totals.items()))
    seconds = time.perf_counter() - started
    print(f"{steps} steps in {seconds:.2f} s: {steps / seconds:.0f} steps/s")
    env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    play(args.ruleset, args.players, args.games, args.seed)


if __name__ == "__main__":
    main()
