#!/usr/bin/env python3
"""What the invariant checks cost per turn at each level (`sgs simulate --invariants`):
every-free-time, turn, off. Random agents, one process, the seeds of `sgs simulate --seed`.

Two readings, since a game is the same at every level (the checks only read the table):
- the whole game: each seed played at every level in turn (the order of the levels turned
  from game to game, so that a change of the machine's load touches them all), timed in the
  process's CPU time (time.process_time: another process on the machine does not count); a
  level's cost per turn is its time per turn less that of `off`;
- the checks alone: the same seeds played at `every-free-time` and at `turn` with the checker's
  entry points timed (`Invariants.at_free_time`, which runs the full check when the cheap
  test looks wrong; the full check between turns; the check at the end), so the cost is
  split by where it is paid, and given as a share of those games' time. The timer itself adds
  about 0.1 µs a call.

usage: python benchmarks/bench_invariants.py [--rulesets basic standard] [--players 5 8]
                                             [--games 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import _common

LEVELS = ("every-free-time", "turn", "off")


def play(library, ruleset: str, players: int, seed: int, level: str, clock: Callable[[], float],
         parts: Any = None) -> tuple[int, float]:
    """(turns, seconds by `clock`) of the game of `seed` checked at `level` (built of `parts`, the
    engine's own by default); a failed game stops it all."""
    from sgs_dsl.engine.parts import DEFAULT_PARTS
    from sgs_dsl.game import play_game

    start = clock()
    result = play_game(library, ruleset, players, seed, invariants=level, parts=parts or DEFAULT_PARTS)
    elapsed = clock() - start
    if result.error or result.violations:
        raise SystemExit(f"{ruleset}, {players} players, seed {seed}: {result.error or result.violations}")
    return result.turns, elapsed


def whole_games(library, ruleset: str, players: int, seeds: list[int]) -> dict[str, float]:
    """µs of CPU time per turn of each level, each seed played at every level in turn."""
    seconds = dict.fromkeys(LEVELS, 0.0)
    turns = 0
    for k, seed in enumerate(seeds):
        for level in LEVELS[k % len(LEVELS):] + LEVELS[:k % len(LEVELS)]:
            n, s = play(library, ruleset, players, seed, level, time.process_time)
            seconds[level] += s
        turns += n
    return {level: 1e6 * s / turns for level, s in seconds.items()}


def timed_checks() -> tuple[type, dict[str, list[float]]]:
    """A checker whose entry points time themselves, and what they count: {where: [calls,
    seconds]}: `free` the free-time test (with the full check it may run), `turn` the full
    check between turns, `end` the check of the ended game."""
    from sgs_dsl.engine.invariants import Invariants

    spent = {"free": [0, 0.0], "turn": [0, 0.0], "end": [0, 0.0]}
    inside = [False]  # a full check run by the free-time test is the free time's

    def timed(where: str, run: Callable[[], Any]) -> Any:
        if inside[0]:
            return run()
        inside[0], start = True, time.perf_counter()
        try:
            return run()
        finally:
            spent[where][0] += 1
            spent[where][1] += time.perf_counter() - start
            inside[0] = False

    class Timed(Invariants):
        def at_free_time(self) -> None:
            return timed("free", super().at_free_time)

        def check(self, free_time: bool) -> None:  # game.run: between turns
            return timed("turn", lambda: super(Timed, self).check(free_time))

        def problems(self, *args: Any, **kwargs: Any) -> list[str]:  # game.run: the game has ended
            return timed("end", lambda: super(Timed, self).problems(*args, **kwargs))

    return Timed, spent


def checks_alone(library, ruleset: str, players: int, seeds: list[int], level: str) -> dict[str, float]:
    """µs per turn spent in each entry point of the checker at `level`, its calls per turn, and
    the games' own µs per turn (the same clock)."""
    from sgs_dsl.engine.parts import Parts

    turns, total = 0, 0.0
    timed, spent = timed_checks()
    for seed in seeds:
        n, s = play(library, ruleset, players, seed, level, time.perf_counter, Parts(invariants=timed))
        turns, total = turns + n, total + s
    out = {f"{where} µs": 1e6 * s / turns for where, (_, s) in spent.items()}
    out |= {f"{where} calls": n / turns for where, (n, _) in spent.items()}
    return out | {"turns": turns / len(seeds), "game µs": 1e6 * total / turns}


def rows(ruleset: str, players: int, games: int, seed: int) -> list[tuple[str, str, str]]:
    from sgs_dsl.compiler.library import load_library
    from sgs_dsl.sim.batch import derive_seed

    library = load_library()
    seeds = [derive_seed(seed, i) for i in range(games)]
    for level in LEVELS:  # warm caches and imports
        play(library, ruleset, players, derive_seed(seed + 1000, 0), level, time.perf_counter)
    per_turn = whole_games(library, ruleset, players, seeds)
    alone = {level: checks_alone(library, ruleset, players, seeds, level) for level in LEVELS[:2]}
    tag = f"{ruleset}, {players} players ({games} games, {alone['turn']['turns']:.1f} turns each)"
    off = per_turn["off"]
    out = [(f"CPU time per turn, off, {tag}", f"{off:.0f}", "µs")]
    for level in LEVELS[:2]:
        a = alone[level]
        checks = a["free µs"] + a["turn µs"] + a["end µs"]
        extra = per_turn[level] - off
        out += [
            (f"CPU time per turn, {level}, less off, {tag}", f"{extra:+.1f} ({100 * extra / off:+.1f}%)", "µs"),
            (f"checks alone per turn, {level}: free times + between turns + end, {tag}",
             f"{checks:.1f} = {a['free µs']:.1f} + {a['turn µs']:.1f} + {a['end µs']:.2f} "
             f"({100 * checks / a['game µs']:.1f}% of the game)", "µs"),
        ]
    a = alone["every-free-time"]
    out.append((f"free-time tests per turn (each a cheap test, the full check only if it looks wrong), {tag}",
                f"{a['free calls']:.1f}", "calls"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", nargs="+", default=["basic", "standard"])
    ap.add_argument("--players", type=int, nargs="+", default=[5, 8])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.games < 1:
        raise SystemExit("--games must be at least 1")
    out = [row for r in a.rulesets for p in a.players for row in rows(r, p, a.games, a.seed)]
    m = _common.machine()
    print(f"{m['cpu']} ({m['nproc']} CPUs), Python {m['python']}, {m['platform']}")
    print(_common.table(out))


if __name__ == "__main__":
    main()
