#!/usr/bin/env python3
"""Games per second and windows (events) per second, random agents, one process; then the
cost per turn and per card use of sgs-dsl relative to the yardstick (benchmarks/yardstick.py,
a hand-written engine of the `basic` ruleset): both play `basic` in this process, the same
player counts, number of games and game seeds, in alternating rounds.

usage: python benchmarks/bench_games.py [--games 200] [--players 5 8] [--ruleset NAME] [--seed 1]
                                        [--yardstick | --no-yardstick]

The first rows are of `--ruleset` (the default ruleset unless named), as before; the yardstick
rows are always of `basic`. Card uses are the cards used (使用: in the play phase, in response,
to counter, to save), not those played out (打出); sgs-dsl's are the games' own count
(`GameResult.cards_used`).
"""

from __future__ import annotations

import argparse
import time

import _common

YARDSTICK_RULESET = "basic"
ROUNDS = 10  # the side-by-side games are played in this many alternating rounds


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


def side_by_side(players: int, games: int, seed: int) -> tuple[dict, dict]:
    """sgs-dsl on `basic` and the yardstick, the same game seeds (those of `sgs simulate
    --seed`), in alternating rounds so that a change in the machine's load touches both.
    Each returns (turns, card uses, seconds); sgs-dsl plays as the simulator does (with the
    invariant checks)."""
    import yardstick

    from sgs_dsl.compiler.library import load_library
    from sgs_dsl.game import play_game
    from sgs_dsl.sim.batch import derive_seed

    library = load_library()

    def sgs_round(seeds: list[int]) -> tuple[int, int, float]:
        start = time.perf_counter()
        results = [play_game(library, YARDSTICK_RULESET, players, s) for s in seeds]
        return sum(r.turns for r in results), sum(r.cards_used for r in results), time.perf_counter() - start

    def yard_round(seeds: list[int]) -> tuple[int, int, float]:
        start = time.perf_counter()
        results = [yardstick.play_game(players, s) for s in seeds]
        return sum(r.turns for r in results), sum(r.uses for r in results), time.perf_counter() - start

    warm = [derive_seed(seed + 1000, i) for i in range(2)]
    sgs_round(warm)
    yard_round(warm)
    totals = {"sgs-dsl": [0, 0, 0.0], "yardstick": [0, 0, 0.0]}
    for k in range(ROUNDS):
        seeds = [derive_seed(seed, i) for i in range(k * games // ROUNDS, (k + 1) * games // ROUNDS)]
        order = [("sgs-dsl", sgs_round), ("yardstick", yard_round)]
        for name, play in order if k % 2 == 0 else order[::-1]:
            for i, value in enumerate(play(seeds)):
                totals[name][i] += value
    return tuple(throughput(players, games, *totals[name]) for name in ("sgs-dsl", "yardstick"))


def throughput(players: int, games: int, turns: int, uses: int, elapsed: float) -> dict:
    return {"players": players, "games": games, "turns_mean": turns / games, "uses_per_turn": uses / turns,
            "turns_per_s": turns / elapsed, "uses_per_s": uses / elapsed}


def ratio_rows(ours: dict, yard: dict) -> list[tuple[str, str, str]]:
    """sgs-dsl beside the yardstick: throughputs and the cost ratios (sgs-dsl / yardstick)."""
    tag = f"{yard['players']} players ({yard['games']} games each, {YARDSTICK_RULESET})"
    per_turn = yard["turns_per_s"] / ours["turns_per_s"]
    per_use = yard["uses_per_s"] / ours["uses_per_s"]
    return [
        (f"turns/s sgs-dsl, yardstick, {tag}", f"{ours['turns_per_s']:,.0f}, {yard['turns_per_s']:,.0f}", "turns/s"),
        (f"card uses/s sgs-dsl, yardstick, {tag}", f"{ours['uses_per_s']:,.0f}, {yard['uses_per_s']:,.0f}", "uses/s"),
        (f"cost per turn, sgs-dsl / yardstick, {tag}", f"{per_turn:.1f}", "x"),
        (f"cost per card use, sgs-dsl / yardstick, {tag}", f"{per_use:.1f}", "x"),
        (f"mean turns sgs-dsl, yardstick, {tag}", f"{ours['turns_mean']:.1f}, {yard['turns_mean']:.1f}", ""),
        (f"card uses per turn sgs-dsl, yardstick, {tag}", f"{ours['uses_per_turn']:.2f}, {yard['uses_per_turn']:.2f}", ""),
    ]


def rows(results: list[dict]) -> list[tuple[str, str, str]]:
    out = []
    for r in results:
        tag = f"{r['players']} players ({r['games']} games, {r['ruleset']})"
        out.append((f"games/s, {tag}", f"{r['games_per_s']:.1f}", "games/s"))
        out.append((f"windows opened/s, {tag}", f"{r['windows_per_s']:,.0f}", "events/s"))
        out.append((f"mean turns, errors, capped, {tag}", f"{r['turns_mean']:.1f}, {r['errors']}, {r['capped']}", ""))
    return out


def run(games: int = 200, players: tuple[int, ...] = (5, 8), ruleset: str | None = None, seed: int = 1,
        with_yardstick: bool = True) -> list:
    """The rows: the ruleset's (the default one unless named), then, with the yardstick,
    sgs-dsl on `basic` beside it."""
    out = rows([bench(ruleset, p, games, seed) for p in players])
    if with_yardstick:
        for p in players:
            out += ratio_rows(*side_by_side(p, games, seed))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, nargs="+", default=[5, 8])
    ap.add_argument("--ruleset", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--yardstick", action=argparse.BooleanOptionalAction, default=True,
                    help="also play the hand-written yardstick and print the ratios (default: yes)")
    a = ap.parse_args()
    print(_common.table(run(a.games, tuple(a.players), a.ruleset, a.seed, a.yardstick)))


if __name__ == "__main__":
    main()
