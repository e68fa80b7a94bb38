#!/usr/bin/env python3
"""Run every benchmark and print one markdown table (plus the machine it ran on).

usage: python benchmarks/run_all.py [--quick]
"""

from __future__ import annotations

import argparse
import datetime
import sys

import _common
import bench_games
import bench_load
import bench_scale
import bench_startup


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games and runs (a smoke test, not a measurement)")
    quick = ap.parse_args().quick
    rows: list[tuple[str, str, str]] = []
    steps = [
        ("startup", lambda: bench_startup.run(runs=3 if quick else 10)),
        ("load", lambda: bench_load.run(runs=2 if quick else 5)),
        ("games", lambda: bench_games.run(games=20 if quick else 200)),
        ("scale", lambda: bench_scale.run(games=10 if quick else 100, rounds=1 if quick else 3)),
    ]
    for name, step in steps:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        rows.extend(step())
    m = _common.machine()
    print(f"Measured {datetime.date.today().isoformat()} on {m['cpu']} ({m['nproc']} CPUs), Python {m['python']}, {m['platform']}.")
    print()
    print(_common.table(rows))


if __name__ == "__main__":
    main()
