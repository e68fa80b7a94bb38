#!/usr/bin/env python3
"""Cost of parsing, checking and compiling the whole built-in library, cold and warm.

Each run is a fresh process with its own on-disk parse cache (SGS_CACHE_DIR, see
sgs_dsl/syntax/cache.py: ASTs as checked JSON, keyed by text, path and front end):
- cold: empty cache: parse every file with lark, check and compile;
- warm (disk): a second process on the filled cache: rebuild the ASTs, check and compile;
- warm (memory): load_library() again in the same process (functools cache);
- import: importing the compiler and its lark grammar machinery.

usage: python benchmarks/bench_load.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import _common

PROBE = r"""
import json, time
t0 = time.perf_counter()
from sgs_dsl.compiler.library import load_library
from sgs_dsl.resources import library_files
t1 = time.perf_counter()
lib = load_library()
t2 = time.perf_counter()
load_library()
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "memory": t3 - t2,
                  "files": len(library_files()), "cards": len(lib.cards), "rulesets": len(lib.rulesets)}))
"""


def probe(cache_dir: str) -> dict:
    env = dict(os.environ, SGS_CACHE_DIR=cache_dir)
    env.pop("SGS_NO_CACHE", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(_common.REPO), env.get("PYTHONPATH", "")) if p)
    out = subprocess.run([sys.executable, "-c", PROBE], check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout)


def run(runs: int = 5) -> list[tuple[str, str, str]]:
    cold, warm, memory, imports = [], [], [], []
    info: dict = {}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="sgs-cache-") as cache:
            first = probe(cache)
            second = probe(cache)
        cold.append(first["load"])
        warm.append(second["load"])
        memory.append(second["memory"])
        imports.append(second["import"])
        info = first
    what = f"{info['files']} files, {info['cards']} card kinds, {info['rulesets']} rulesets"
    ms = lambda xs: f"{1000 * _common.median(xs):.1f}"  # noqa: E731
    return [
        (f"load library cold: parse + check + compile ({what}; median of {runs})", ms(cold), "ms"),
        (f"load library, on-disk parse cache warm (median of {runs})", ms(warm), "ms"),
        (f"load library again in the same process (median of {runs})", f"{1e6 * _common.median(memory):.1f}", "µs"),
        (f"import sgs_dsl.compiler.library (median of {runs})", ms(imports), "ms"),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    print(_common.table(run(ap.parse_args().runs)))


if __name__ == "__main__":
    main()
