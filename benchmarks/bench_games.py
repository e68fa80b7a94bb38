#!/usr/bin/env python3
"""Games per second, and the cost per turn and per card use relative to the yardstick, of each
build of sgs-dsl side by side: the pure build (this checkout, or the installed package) and,
with `--compiled PYTHON`, the compiled build installed in PYTHON's environment
(`SGS_COMPILE=1 pip install .` there; docs/performance.md, "The compiled build").

usage: python benchmarks/bench_games.py [--games 200] [--players 5 8] [--ruleset NAME] [--seed 1]
                                        [--compiled PYTHON] [--yardstick | --no-yardstick]

Each build plays in a worker process of its own, which loads the library once and says which
build it is; the yardstick (benchmarks/yardstick.py, a hand-written engine of the `basic`
ruleset) plays in this process. The first rows are of `--ruleset` (the default ruleset unless
named), played as `sgs simulate` plays (random agents, the default invariant level); then
`basic` beside the yardstick: the same player counts, number of games and game seeds, in
alternating rounds so that a change in the machine's load touches every side alike. Card uses
are the cards used (使用: in the play phase, in response, to counter, to save), not those
played out (打出), each game's own count (`GameResult.cards_used`). Times are CPU time of the
process that plays.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import _common

YARDSTICK_RULESET = "basic"
ROUNDS = 10  # the side-by-side games are played in this many alternating rounds
HERE = Path(__file__).resolve().parent


# ------------------------------------------------------------ a build's worker
def worker() -> None:
    """Answer requests on stdin, one JSON line each, until it closes: `["build"]`, `["batch",
    ruleset, players, games, seed]` (games/s as `sgs simulate`), `["games", ruleset, players,
    [seeds]]` (turns, card uses, CPU seconds)."""
    import sgs_dsl
    from sgs_dsl.compiler.library import load_library
    from sgs_dsl.game import play_game
    from sgs_dsl.sim.batch import run_batch
    from sgs_dsl.sim.stats import summarize

    library = load_library()
    for line in sys.stdin:
        request = json.loads(line)
        if request[0] == "build":
            answer: object = {"build": sgs_dsl.build(), "from": str(Path(sgs_dsl.__file__).parent)}
        elif request[0] == "batch":
            _, ruleset, players, games, seed = request
            name = ruleset or library.default_ruleset
            run_batch(name, players, 2, seed + 1000, library=library)  # warm caches
            start = time.process_time()
            batch = run_batch(name, players, games, seed, library=library)
            elapsed = time.process_time() - start
            report = summarize(batch.records, ruleset=name, players=players, seed=seed, max_turns=600,
                               elapsed_s=elapsed)
            answer = {"ruleset": name, "players": players, "games": games, "games_per_s": games / elapsed,
                      "windows_per_s": report["windows_opened"] / elapsed, "turns_mean": report["turns"]["mean"],
                      "errors": report["errors"], "capped": report["capped"]}
        else:
            _, ruleset, players, seeds = request
            start = time.process_time()
            results = [play_game(library, ruleset, players, s) for s in seeds]
            answer = [sum(r.turns for r in results), sum(r.cards_used for r in results), time.process_time() - start]
        print(json.dumps(answer), flush=True)


class Build:
    """A worker process playing one build."""

    def __init__(self, name: str, python: str, env: dict[str, str]) -> None:
        self.name = name
        self.process = subprocess.Popen([python, str(Path(__file__).resolve()), "--worker"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env, cwd=HERE)
        self.build, self.source = self.ask("build").values()

    def ask(self, *request: object) -> object:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"the {self.name} build's worker stopped (see its error above)")
        return json.loads(answer)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def builds(compiled: str | None) -> list[Build]:
    """The pure build (this interpreter, the package `_common` finds) and, given its Python,
    the compiled one (its own installed package: the checkout is kept off its path)."""
    pure_env = dict(os.environ)
    import sgs_dsl

    pure_env["PYTHONPATH"] = os.pathsep.join([str(Path(sgs_dsl.__file__).parent.parent),
                                              *filter(None, [os.environ.get("PYTHONPATH")])])
    out = [Build("pure", sys.executable, pure_env)]
    if compiled:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        out.append(Build("compiled", compiled, env))
        if out[-1].build == out[0].build:
            raise SystemExit(f"{compiled} plays the {out[-1].build} build ({out[-1].source}), not the compiled one")
    if out[0].build != "pure Python":
        raise SystemExit(f"{sys.executable} plays the {out[0].build} build ({out[0].source}): run this with a pure one")
    return out


# ------------------------------------------------------------ the rows
def side_by_side(sides: list[Build], players: int, games: int, seed: int) -> dict[str, list[float]]:
    """Turns, card uses and CPU seconds of each build and the yardstick over the same seeds."""
    import yardstick

    from sgs_dsl.sim.batch import derive_seed

    def yard_round(seeds: list[int]) -> list[float]:
        start = time.process_time()
        results = [yardstick.play_game(players, s) for s in seeds]
        return [sum(r.turns for r in results), sum(r.uses for r in results), time.process_time() - start]

    plays = {b.name: (lambda seeds, b=b: b.ask("games", YARDSTICK_RULESET, players, seeds)) for b in sides}
    plays["yardstick"] = yard_round
    warm = [derive_seed(seed + 1000, i) for i in range(2)]
    for play in plays.values():
        play(warm)
    totals = {name: [0.0, 0.0, 0.0] for name in plays}
    order = list(plays)
    for k in range(ROUNDS):
        seeds = [derive_seed(seed, i) for i in range(k * games // ROUNDS, (k + 1) * games // ROUNDS)]
        for name in order[k % len(order):] + order[:k % len(order)]:
            for i, value in enumerate(plays[name](seeds)):
                totals[name][i] += value
    return totals


def ratio_rows(totals: dict[str, list[float]], players: int, games: int) -> list[tuple[str, str, str]]:
    tag = f"{players} players ({games} games each, {YARDSTICK_RULESET})"
    yard_turns, yard_uses, yard_s = totals["yardstick"]
    out = [(f"turns/s, yardstick, {tag}", f"{yard_turns / yard_s:,.0f}", "turns/s")]
    for name, (turns, uses, seconds) in totals.items():
        if name == "yardstick":
            continue
        per_turn = (seconds / turns) / (yard_s / yard_turns)
        per_use = (seconds / uses) / (yard_s / yard_uses)
        out += [
            (f"turns/s, {name} build, {tag}", f"{turns / seconds:,.0f}", "turns/s"),
            (f"cost per turn, {name} build / yardstick, {tag}", f"{per_turn:.1f}", "x"),
            (f"cost per card use, {name} build / yardstick, {tag}", f"{per_use:.1f}", "x"),
            (f"mean turns, card uses per turn, {name} build, {tag}", f"{turns / games:.1f}, {uses / turns:.2f}", ""),
        ]
    out.append((f"mean turns, card uses per turn, yardstick, {tag}",
                f"{yard_turns / games:.1f}, {yard_uses / yard_turns:.2f}", ""))
    return out


def batch_rows(name: str, r: dict) -> list[tuple[str, str, str]]:
    tag = f"{name} build, {r['players']} players ({r['games']} games, {r['ruleset']})"
    return [(f"games/s, {tag}", f"{r['games_per_s']:.1f}", "games/s"),
            (f"windows opened/s, {tag}", f"{r['windows_per_s']:,.0f}", "events/s"),
            (f"mean turns, errors, capped, {tag}", f"{r['turns_mean']:.1f}, {r['errors']}, {r['capped']}", "")]


def run(games: int = 200, players: tuple[int, ...] = (5, 8), ruleset: str | None = None, seed: int = 1,
        compiled: str | None = None, with_yardstick: bool = True) -> list[tuple[str, str, str]]:
    sides = builds(compiled)
    try:
        out = [(f"build: {b.name}", f"{b.build} ({b.source})", "") for b in sides]
        for p in players:
            for b in sides:
                out += batch_rows(b.name, b.ask("batch", ruleset, p, games, seed))
        if with_yardstick:
            for p in players:
                out += ratio_rows(side_by_side(sides, p, games, seed), p, games)
        return out
    finally:
        for b in sides:
            b.close()


def main() -> None:
    if sys.argv[1:] == ["--worker"]:
        worker()
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, nargs="+", default=[5, 8])
    ap.add_argument("--ruleset", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compiled", metavar="PYTHON", default=os.environ.get("SGS_COMPILED_PYTHON"),
                    help="a Python whose environment has the compiled build installed (default: $SGS_COMPILED_PYTHON)")
    ap.add_argument("--yardstick", action=argparse.BooleanOptionalAction, default=True,
                    help="also play the hand-written yardstick and print the ratios (default: yes)")
    a = ap.parse_args()
    if a.games < ROUNDS:
        raise SystemExit(f"--games must be at least {ROUNDS} (the side-by-side rounds)")
    m = _common.machine()
    print(f"{m['cpu']} ({m['nproc']} CPUs), Python {m['python']}, {m['platform']}")
    print(_common.table(run(a.games, tuple(a.players), a.ruleset, a.seed, a.compiled, a.yardstick)))


if __name__ == "__main__":
    main()
