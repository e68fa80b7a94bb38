#!/usr/bin/env python3
"""Games per second and windows (events) per second, random agents, one process.

usage: python benchmarks/bench_games.py [--games 200] [--players 5 8] [--ruleset NAME] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

import _common


def bench(ruleset: str | None, players: int, games: int, seed: int) -> dict:
    from sgs_dsl.compiler.library import load_library
    from sgs_dsl.sim.batch import run_batch
    from sgs_dsl.sim.stats import summarize

    library = load_library()
    name = ruleset or library.default_ruleset
    run_batch(name, players, 2, seed + 1000, library=library)  # warm caches, imports
    start = time.perf_counter()
    batch = run_batch(name, players, games, seed, library=library)
    elapsed = time.perf_counter() - start
    report = summarize(batch.records, ruleset=name, players=players, seed=seed, max_turns=600, elapsed_s=elapsed)
    return {
        "ruleset": name,
        "players": players,
        "games": games,
        "elapsed_s": elapsed,
        "games_per_s": games / elapsed,
        "windows_per_s": report["windows_opened"] / elapsed,
        "windows_per_game": report["windows_opened"] / games,
        "turns_mean": report["turns"]["mean"],
        "errors": report["errors"],
        "capped": report["capped"],
    }


def rows(results: list[dict]) -> list[tuple[str, str, str]]:
    out = []
    for r in results:
        tag = f"{r['players']} players ({r['games']} games, {r['ruleset']})"
        out.append((f"games/s, {tag}", f"{r['games_per_s']:.1f}", "games/s"))
        out.append((f"windows opened/s, {tag}", f"{r['windows_per_s']:,.0f}", "events/s"))
        out.append((f"mean turns, errors, capped, {tag}", f"{r['turns_mean']:.1f}, {r['errors']}, {r['capped']}", ""))
    return out


def run(games: int = 200, players: tuple[int, ...] = (5, 8), ruleset: str | None = None, seed: int = 1) -> list:
    return rows([bench(ruleset, p, games, seed) for p in players])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, nargs="+", default=[5, 8])
    ap.add_argument("--ruleset", default=None)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(_common.table(run(a.games, tuple(a.players), a.ruleset, a.seed)))


if __name__ == "__main__":
    main()
