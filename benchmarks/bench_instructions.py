"""Instructions a batch of seeded games costs, counted by valgrind (cachegrind without its
cache simulation): unlike time, the count does not move with the machine's load, so over a
few heap layouts a change of 1% shows. Each count is the batch's run less a run of no games
(the library's load and Python's start-up), both with a fixed hash seed (string hashes change
how dicts and sets probe: without it the same code reads up to 2% apart). The same code then
reads the same to the million run after run, but a change of code moves where objects are
allocated, and so how the sets and dicts keyed by identity (cards, players) probe: one heap
layout alone reads a change up to 1.3% off. So the batch is counted in several layouts
(`--layouts`: some objects allocated before the library loads) and the mean given, with the
spread. `--tree` measures another checkout (an export of an older commit) with this machine's
Python, for before/after figures.

    python benchmarks/bench_instructions.py --ruleset basic --games 40
    python benchmarks/bench_instructions.py --ruleset standard --games 30 --tree /tmp/old
    python benchmarks/bench_instructions.py --ruleset basic --games 40 --invariants turn

`--invariants` checks the games at that level (`sgs simulate --invariants`; default: that of
`sgs simulate`); leave it out for an older tree, which has no levels.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import _common

# the batch, as the simulator plays it (random agents, invariant checks), run under valgrind
PLAY = """
import sys
sys.path.insert(0, {tree!r})
layout = [object() for _ in range({layout})]  # shifts where the game's objects are allocated
from sgs_dsl.compiler.library import load_library
from sgs_dsl.sim.batch import run_batch
library = load_library()
if {games}:  # none: the load alone, to subtract
    run_batch({ruleset!r}, {players}, {games}, {seed}, library=library{level})
"""


LAYOUTS = (0, 37, 1000, 4099, 257, 12345)  # objects allocated first, one count per layout


ENV = {**os.environ, "PYTHONHASHSEED": "0"}


def play_code(tree: Path, ruleset: str, players: int, games: int, seed: int, layout: int = 0,
              invariants: str | None = None) -> str:
    level = "" if invariants is None else f", invariants={invariants!r}"
    return PLAY.format(tree=str(tree), ruleset=ruleset, players=players, games=games, seed=seed, layout=layout,
                       level=level)


def warm(tree: Path, ruleset: str, players: int, seed: int) -> None:
    """One game outside valgrind: the parse cache and every module's bytecode are then on disk,
    so no counted run pays for compiling them."""
    subprocess.run([sys.executable, "-c", play_code(tree, ruleset, players, 1, seed)], env=ENV, check=True)


def instructions(tree: Path, ruleset: str, players: int, games: int, seed: int, layout: int = 0,
                 invariants: str | None = None) -> int:
    """The instructions valgrind counts for one run of the batch in a fresh process."""
    code = play_code(tree, ruleset, players, games, seed, layout, invariants)
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", code], capture_output=True, text=True, env=ENV, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed (exit {run.returncode}):\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="basic")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tree", type=Path, default=_common.REPO, help="the checkout to measure (default: this one)")
    ap.add_argument("--layouts", type=int, default=3, help=f"heap layouts to count in (1 to {len(LAYOUTS)}; default 3)")
    ap.add_argument("--invariants", choices=("every-free-time", "turn", "off"), default=None,
                    help="the level the games are checked at (default: that of `sgs simulate`)")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: this benchmark counts instructions with it")
    if args.games < 1:
        raise SystemExit("--games must be at least 1")
    if not 1 <= args.layouts <= len(LAYOUTS):
        raise SystemExit(f"--layouts must be 1 to {len(LAYOUTS)}")
    tree = args.tree.resolve()
    warm(tree, args.ruleset, args.players, args.seed)
    played, bases = [], []
    for layout in LAYOUTS[:args.layouts]:
        base = instructions(tree, args.ruleset, args.players, 0, args.seed, layout)
        played.append(instructions(tree, args.ruleset, args.players, args.games, args.seed, layout,
                                   args.invariants) - base)
        bases.append(base)
    mean = sum(played) / len(played)
    print(_common.table([
        (f"instructions, {args.games} {args.ruleset} games, {args.players} players (seed {args.seed}"
         f"{'' if args.invariants is None else ', invariants ' + args.invariants}), mean of {len(played)} heap layouts",
         f"{mean / 1e6:,.0f}", "M"),
        ("spread over the layouts (lowest to highest)", f"{min(played) / 1e6:,.0f} to {max(played) / 1e6:,.0f}", "M"),
        ("instructions per game", f"{mean / args.games / 1e6:,.1f}", "M"),
        ("library load and start-up (subtracted)", f"{sum(bases) / len(bases) / 1e6:,.0f}", "M"),
    ]))


if __name__ == "__main__":
    main()
