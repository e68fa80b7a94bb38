#!/usr/bin/env python3
"""Games per second with the built-in library and with a library ten times larger.

The larger library adds nine renamed copies of every card, skill and hero definition
(decks and rulesets are not copied, so the games played are the same). Windows index
their handlers, so games per second should not change.

usage: python benchmarks/bench_scale.py [--games 100] [--players 5] [--factor 10]
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

import _common

COPIED = ("card", "skill", "hero")
HEADER = re.compile(r"^(card|skill|hero)(\s+)(\S+)(\s+)(\S+)")


def top_level_items(text: str) -> list[str]:
    """Split .sgs text into its top-level definitions (brace matching; strings and comments skipped)."""
    items, depth, start, i, n = [], 0, None, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if ch == '"':
            i = text.index('"', i + 1) + 1
            continue
        if depth == 0 and start is None and not ch.isspace():
            start = i
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and start is not None:
                items.append(text[start : i + 1])
                start = None
        i += 1
    return items


def renamed_copy(item: str, k: int) -> str | None:
    m = HEADER.match(item)
    if not m:
        return None
    kind, sp1, name, sp2, ident = m.groups()
    return f"{kind}{sp1}{name}x{k}{sp2}{ident}_x{k}" + item[m.end() :]


def write_scaled_library(folder: Path, factor: int) -> int:
    """Write factor-1 renamed copies of every definition; returns how many definitions were written."""
    from sgs_dsl.resources import data_dir

    written = 0
    for kind in ("cards", "heroes"):
        for src in sorted(data_dir(kind).rglob("*.sgs")):
            items = top_level_items(src.read_text(encoding="utf-8"))
            for k in range(1, factor):
                copies = [c for c in (renamed_copy(it, k) for it in items) if c]
                if copies:
                    out = folder / f"{kind}_{src.stem}_x{k}.sgs"
                    out.write_text("\n\n".join(copies) + "\n", encoding="utf-8")
                    written += len(copies)
    return written


def games_per_s(library, ruleset: str, players: int, games: int, seed: int) -> tuple[float, int]:
    from sgs_dsl.sim.batch import run_batch

    start = time.perf_counter()
    batch = run_batch(ruleset, players, games, seed, library=library)
    elapsed = time.perf_counter() - start
    return games / elapsed, sum(1 for r in batch.records if r.failed)


def run(
    games: int = 100, players: int = 5, factor: int = 10, seed: int = 1, rounds: int = 3
) -> list[tuple[str, str, str]]:
    from sgs_dsl.compiler.library import load_library
    from sgs_dsl.sim.batch import run_batch

    base = load_library()
    ruleset = base.default_ruleset
    with tempfile.TemporaryDirectory(prefix="sgs-scale-") as tmp:
        added = write_scaled_library(Path(tmp), factor)
        start = time.perf_counter()
        big = load_library(tuple(sorted(Path(tmp).glob("*.sgs"))))
        load_s = time.perf_counter() - start
        same = [(r.winner, r.turns) for r in run_batch(ruleset, players, 5, seed, library=base).records] == [
            (r.winner, r.turns) for r in run_batch(ruleset, players, 5, seed, library=big).records
        ]
        # Interleave the two libraries so that machine noise hits both alike; keep the medians.
        small_runs, big_runs, errors = [], [], 0
        for _ in range(rounds):
            for lib, runs in ((base, small_runs), (big, big_runs)):
                gps, err = games_per_s(lib, ruleset, players, games, seed)
                runs.append(gps)
                errors += err
    small_gps, big_gps = _common.median(small_runs), _common.median(big_runs)
    tag = f"{players} players, {games} games x {rounds} rounds, {ruleset}"
    return [
        (f"games/s, built-in library ({tag})", f"{small_gps:.1f}", "games/s"),
        (f"games/s, library x{factor} (+{added} definitions; {tag})", f"{big_gps:.1f}", "games/s"),
        (f"ratio x{factor} / x1 (same games played: {'yes' if same else 'NO'})", f"{big_gps / small_gps:.2f}", ""),
        (f"load of the x{factor} library (cold for the copies)", f"{1000 * load_s:.0f}", "ms"),
        ("errors in these games", str(errors), ""),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--factor", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    print(_common.table(run(a.games, a.players, a.factor, a.seed, a.rounds)))


if __name__ == "__main__":
    main()
