"""Two runs' games paired by seed (``sgs balance --compare`` of two ``--records`` files).

Game i of a batch is played from ``derive_seed(root seed, i)``, so two runs with the same
root seed (say, before and after a change to one hero) deal the same tables as far as the
change lets them, and a difference between them is mostly the change's, not the deal's.
Games whose seed is in both runs (and that ended cleanly in both) are paired; the others are
left out of a paired comparison, and a pair of runs that share no seed is compared unpaired.

Per name (a side, role, hero or agent) and paired game g where the name sat in both runs:
``d_g`` = its seats' win rate in B minus in A (0, 1 or -1 for a single seat). The test is
``z = sum d_g / sqrt(sum d_g^2)``, McNemar's test (on the discordant pairs) for one seat a
game, and its generalisation to several; the row shows A's and B's rates over those pairs.
Pure functions over the games' tallies."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .significance import enough, z_test

#: Per section ("sides", "roles", "heroes", "agents"), per name: (wins, trials) in one game.
GameTally = dict[str, dict[str, tuple[int, int]]]

SECTIONS = ("sides", "roles", "heroes", "agents")

METHOD = ("paired by seed: McNemar-type test of the per-game differences, z = sum(d) / sqrt(sum(d^2)), "
          "over the games both runs played from the same seed")


def _add(table: dict[str, tuple[int, int]], name: str, won: bool) -> None:
    wins, n = table.get(name, (0, 0))
    table[name] = (wins + won, n + 1)


def tally_game(game: Mapping[str, Any], outcomes: Sequence[str]) -> GameTally:
    """One clean game's (wins, trials) per section and name: every outcome a trial of the
    game; a role once a game; a hero and an agent once a seat."""
    tally: GameTally = {s: {} for s in SECTIONS}
    for outcome in outcomes:
        _add(tally["sides"], outcome, game["winner"] == outcome)
    seen: dict[str, bool] = {}
    for seat in game["seats"]:
        if seat["role"] is None or seat["won"] is None:
            continue
        seen[seat["role"]] = seat["won"]
        for hero in seat["heroes"]:
            _add(tally["heroes"], hero, seat["won"])
        if seat["agent"] is not None:
            _add(tally["agents"], seat["agent"], seat["won"])
    for role in sorted(seen):
        _add(tally["roles"], role, seen[role])
    return tally


def totals(tallies: Sequence[GameTally]) -> dict[str, dict[str, tuple[int, int]]]:
    """The games' tallies added up, per section and name (names in first-seen order)."""
    out: dict[str, dict[str, tuple[int, int]]] = {s: {} for s in SECTIONS}
    for tally in tallies:
        for section, rows in tally.items():
            for name, (wins, n) in rows.items():
                w0, n0 = out[section].get(name, (0, 0))
                out[section][name] = (w0 + wins, n0 + n)
    return out


def _rate(wins: int, n: int) -> dict[str, Any]:
    return {"wins": wins, "n": n, "rate": round(wins / n, 6) if n else None}


def paired_row(pairs: Sequence[tuple[int, int, int, int]]) -> dict[str, Any]:
    """The row of one name from its pairs (wins A, trials A, wins B, trials B), each trials > 0:
    A's and B's rates over the pairs, the difference B - A and its test (None below MIN_SAMPLE
    pairs)."""
    wa, na, wb, nb = (sum(p[i] for p in pairs) for i in range(4))
    d = [b / m - a / n for a, n, b, m in pairs]
    spread = math.sqrt(sum(x * x for x in d))
    test = z_test(sum(d) / spread if spread > 0 else 0.0) if enough(len(pairs)) else None
    return {"a": _rate(wa, na), "b": _rate(wb, nb), "pairs": len(pairs),
            "diff": round(wb / nb - wa / na, 6) if pairs else None, "test": test}


def paired_section(a: Mapping[int, GameTally], b: Mapping[int, GameTally], seeds: Sequence[int],
                   section: str) -> dict[str, dict[str, Any]]:
    """Per name of the section seen in either run's paired games: its paired row; a name that
    never sat in both runs of one pair has each run's own count over the paired games (None
    in a run where it never sat) and no difference."""
    names = dict.fromkeys(n for seed in seeds for run in (a, b) for n in run[seed][section])
    out = {}
    for name in names:
        pairs = [(*a[s][section][name], *b[s][section][name]) for s in seeds
                 if name in a[s][section] and name in b[s][section]]
        out[name] = paired_row(pairs) if pairs else {"a": _alone(a, seeds, section, name),
                                                     "b": _alone(b, seeds, section, name),
                                                     "pairs": 0, "diff": None, "test": None}
    return out


def _alone(run: Mapping[int, GameTally], seeds: Sequence[int], section: str, name: str) -> dict[str, Any] | None:
    rows = [run[s][section][name] for s in seeds if name in run[s][section]]
    return _rate(sum(w for w, _ in rows), sum(n for _, n in rows)) if rows else None
