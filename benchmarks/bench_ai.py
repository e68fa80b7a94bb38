#!/usr/bin/env python3
"""The heuristic agent's cost and strength.

Cost: games per second of all-heuristic and all-random tables on the same game seeds, in
alternating rounds (so a change in the machine's load touches both), and the ratio (at most
3x). Strength (--matchups): one side played by one agent, the other by another (`--pair A B`,
heuristic against random unless told), both seatings on the same seeds, the share of games
the first agent's side won with 95% Wilson intervals.

usage: python benchmarks/bench_ai.py [--games 200] [--players 5] [--ruleset standard] [--seed 1]
                                     [--matchups GAMES] [--pair A B] [--roles GAMES] [--jobs N] [--no-cost]
--roles: the winning side of all-heuristic and of all-random tables, with 95% intervals.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import _common

ROUNDS = 10
LORD_SIDE, REBEL_SIDE = ("lord", "loyalist"), ("rebel", "renegade")


def cost(ruleset: str, players: int, games: int, seed: int) -> dict[str, Any]:
    from sgs_dsl.agents.registry import AGENT_NAMES, AgentSpec, SeatAgents
    from sgs_dsl.compiler.library import load_library
    from sgs_dsl.game import play_game
    from sgs_dsl.sim.batch import derive_seed

    library = load_library()
    kinds = {name: AgentSpec(name) for name in AGENT_NAMES if name in ("heuristic", "random")}  # every seat alike
    totals: dict[str, list[float]] = {}  # seconds, turns

    def play(name: str, seeds: list[int]) -> None:
        start = time.perf_counter()
        turns = sum(play_game(library, ruleset, players, s, agent_factory=SeatAgents(kinds[name])).turns
                    for s in seeds)
        totals[name][0] += time.perf_counter() - start
        totals[name][1] += turns

    totals = {name: [0.0, 0] for name in kinds}
    for name in kinds:  # warm caches and imports
        play(name, [derive_seed(seed + 1000, 0)])
    totals = {name: [0.0, 0] for name in kinds}  # warming up is not measured
    for k in range(ROUNDS):
        seeds = [derive_seed(seed, i) for i in range(k * games // ROUNDS, (k + 1) * games // ROUNDS)]
        for name in list(kinds) if k % 2 == 0 else list(kinds)[::-1]:
            play(name, seeds)
    return {name: {"games_per_s": games / t, "turns_mean": turns / games, "turns_per_s": turns / t}
            for name, (t, turns) in totals.items()}


def batch(ruleset: str, players: int, games: int, seed: int, jobs: int, spec: Any) -> list[Any]:
    """The records of a batch whose seats are played as `spec` (agents/registry.AgentSpec) says."""
    from sgs_dsl.compiler.library import load_library
    from sgs_dsl.sim.batch import run_batch

    return run_batch(ruleset, players, games, seed, jobs=jobs, library=load_library(), agents=spec).records


def matchup(ruleset: str, players: int, games: int, seed: int, roles: tuple[str, ...], jobs: int,
            pair: tuple[str, str] = ("heuristic", "random")) -> tuple[int, int]:
    """Games the first agent's side (the seats dealt `roles`; the others play the second) won, of `games`."""
    from sgs_dsl.agents.registry import AgentSpec

    spec = AgentSpec(pair[1], tuple((r, pair[0]) for r in roles))
    records = batch(ruleset, players, games, seed, jobs, spec)
    return sum(r.winner in roles for r in records), len(records)  # the lord's camp wins as "lord"


def cost_rows(ruleset: str, players: int, games: int, r: dict[str, Any]) -> list[tuple[str, str, str]]:
    tag = f"{players} players ({games} games each, {ruleset})"
    h, rnd = r["heuristic"], r["random"]
    return [
        (f"games/s heuristic, random, {tag}", f"{h['games_per_s']:.1f}, {rnd['games_per_s']:.1f}", "games/s"),
        (f"cost per game, heuristic / random, {tag}", f"{rnd['games_per_s'] / h['games_per_s']:.2f}", "x"),
        (f"cost per turn, heuristic / random, {tag}", f"{rnd['turns_per_s'] / h['turns_per_s']:.2f}", "x"),
        (f"mean turns heuristic, random, {tag}", f"{h['turns_mean']:.1f}, {rnd['turns_mean']:.1f}", ""),
    ]


def matchup_rows(ruleset: str, players: int, games: int, seed: int, jobs: int,
                 pair: tuple[str, str] = ("heuristic", "random")) -> list[tuple[str, str, str]]:
    from sgs_dsl.sim.stats import wilson_interval

    out = []
    total_won = total = 0
    for roles, label in ((LORD_SIDE, f"{pair[0]} lord + loyalists vs {pair[1]}"),
                         (REBEL_SIDE, f"{pair[0]} rebels + renegade vs {pair[1]}")):
        won, n = matchup(ruleset, players, games, seed, roles, jobs, pair)
        total_won, total = total_won + won, total + n
        low, high = wilson_interval(won, n)
        out.append((f"{label}, {players} players ({n} games, {ruleset})",
                    f"{won / n:.1%} [{low:.1%}, {high:.1%}]", "won"))
    low, high = wilson_interval(total_won, total)
    out.append((f"{pair[0]} side, both seatings, {players} players ({total} games, {ruleset})",
                f"{total_won / total:.1%} [{low:.1%}, {high:.1%}]", "won"))
    return out


def role_rows(ruleset: str, players: int, games: int, seed: int, jobs: int,
              agents: tuple[str, ...] = ("heuristic", "random")) -> list[tuple[str, str, str]]:
    """The winning side's share, all seats played by each of `agents`, with 95% intervals."""
    from sgs_dsl.agents.registry import AgentSpec
    from sgs_dsl.sim.stats import wilson_interval

    out = []
    for name in agents:
        records = batch(ruleset, players, games, seed, jobs, AgentSpec(name))
        cells = []
        for side in ("lord", "rebel", "renegade", "draw"):
            won = sum(r.winner == side for r in records)
            low, high = wilson_interval(won, len(records))
            cells.append(f"{side} {won / len(records):.1%} [{low:.1%}, {high:.1%}]")
        out.append((f"winners, all {name}, {players} players ({len(records)} games, {ruleset})", "; ".join(cells), ""))
    return out


def run(games: int = 200, players: int = 5, ruleset: str = "standard", seed: int = 1,
        matchups: int = 0, roles: int = 0, jobs: int = 1, cost_too: bool = True,
        pair: tuple[str, str] = ("heuristic", "random"),
        role_agents: tuple[str, ...] = ("heuristic", "random")) -> list[tuple[str, str, str]]:
    out = cost_rows(ruleset, players, games, cost(ruleset, players, games, seed)) if cost_too else []
    if matchups:
        out += matchup_rows(ruleset, players, matchups, seed, jobs, pair)
    if roles:
        out += role_rows(ruleset, players, roles, seed, jobs, role_agents)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--ruleset", default="standard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--matchups", type=int, default=0, metavar="GAMES",
                    help="also play each side as one agent against the other (--pair), this many games each seating")
    ap.add_argument("--pair", nargs=2, default=("heuristic", "random"), metavar=("A", "B"),
                    help="the agents of --matchups: A's side against B's (default: heuristic random)")
    ap.add_argument("--roles", type=int, default=0, metavar="GAMES",
                    help="also the winning sides of all-heuristic and all-random tables, this many games each")
    ap.add_argument("--role-agents", nargs="+", default=("heuristic", "random"), metavar="NAME",
                    help="the agents whose all-alike tables --roles plays (default: heuristic random)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes for --matchups and --roles")
    ap.add_argument("--no-cost", dest="cost", action="store_false", help="skip the timing of cost per game")
    a = ap.parse_args()
    print(_common.table(run(a.games, a.players, a.ruleset, a.seed, a.matchups, a.roles, a.jobs, a.cost,
                            tuple(a.pair), tuple(a.role_agents))))


if __name__ == "__main__":
    main()
