#!/usr/bin/env python3
"""Start-up time of `sgs --help`: median wall time of N fresh processes.

usage: python benchmarks/bench_startup.py [--runs 10]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time

import _common


def sgs_command() -> list[str]:
    """The installed console script beside this interpreter, else the module through it."""
    script = os.path.join(os.path.dirname(sys.executable), "sgs")
    if os.path.exists(script):
        return [script]
    found = shutil.which("sgs")
    if found and os.path.dirname(found) == os.path.dirname(sys.executable):
        return [found]
    return [sys.executable, "-m", "sgs_dsl.cli"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_common.REPO), env.get("PYTHONPATH", "")) if p)
    return env


def wall(cmd: list[str], runs: int) -> float:
    times = []
    env = _env()
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return _common.median(times)


def run(runs: int = 10) -> list[tuple[str, str, str]]:
    cmd = sgs_command()
    wall(cmd + ["--help"], 1)  # warm the OS file cache and .pyc files
    help_s = wall(cmd + ["--help"], runs)
    bare_s = wall([sys.executable, "-c", "pass"], runs)
    return [
        (f"`sgs --help` start-up (median of {runs})", f"{1000 * help_s:.0f}", "ms"),
        (f"bare `python -c pass` for comparison (median of {runs})", f"{1000 * bare_s:.0f}", "ms"),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    print(_common.table(run(ap.parse_args().runs)))


if __name__ == "__main__":
    main()
