"""The numbers of a balance report (``sgs balance``): win rate by role, by hero (overall and
by role, flagged when the interval lies wholly off the mean), each hero skill's firing and
its association with winning, and the game length distribution. Pure functions over the
batch's records; no engine imports."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .stats import _rate_row, seat_won

if TYPE_CHECKING:  # pragma: no cover
    from sgs_dsl.sim.batch import GameRecord

#: Two-sided p-value below which a difference counts as significant.
ALPHA = 0.05


def two_proportion_test(w1: int, n1: int, w2: int, n2: int) -> dict[str, Any]:
    """The pooled two-proportion z-test of w1/n1 against w2/n2 (two-sided); an empty
    side or no variance gives z 0 and p 1."""
    if n1 == 0 or n2 == 0:
        return {"z": 0.0, "p": 1.0, "significant": False}
    pooled = (w1 + w2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    z = (w1 / n1 - w2 / n2) / se if se > 0 else 0.0
    p = math.erfc(abs(z) / math.sqrt(2))
    return {"z": round(z, 4), "p": round(p, 6), "significant": p < ALPHA}


def _seats(records: Sequence[GameRecord]) -> Iterator[tuple[GameRecord, tuple[str, ...], str]]:
    """(game, hero names of the seat, the seat's side) for every seat of games that report heroes."""
    for r in records:
        if r.heroes and len(r.heroes) == len(r.roles):
            for hero, role in zip(r.heroes, r.roles, strict=True):
                yield r, hero if isinstance(hero, tuple) else (hero,), role


def _flagged(rows: dict[str, dict[str, Any]], mean: float) -> dict[str, dict[str, Any]]:
    """Rows sorted by rate (highest first), each flagged 'above' or 'below' when its whole
    interval lies on that side of ``mean``."""
    for row in rows.values():
        lo, hi = row["ci95"]
        row["flag"] = "above" if lo > mean else "below" if hi < mean else ""
    return dict(sorted(rows.items(), key=lambda kv: (-kv[1]["rate"], -kv[1]["games"], kv[0])))


def by_role(records: Sequence[GameRecord], mode: str) -> dict[str, dict[str, Any]]:
    """Per side dealt: games it sat in and games it was on the winning side."""
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for r in records:
        for role in set(r.roles):
            games[role] += 1
            wins[role] += seat_won(role, r.winner, mode)
    return {role: {"games": games[role], **_rate_row(wins[role], games[role])} for role in sorted(games)}


def _hero_rows(seats: Sequence[tuple[GameRecord, tuple[str, ...], str]], mode: str) -> dict[str, dict[str, Any]]:
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for r, names, role in seats:
        for name in names:
            played[name] += 1
            won[name] += seat_won(role, r.winner, mode)
    return {h: {"games": played[h], **_rate_row(won[h], played[h])} for h in played}


def _mean(seats: Sequence[tuple[GameRecord, tuple[str, ...], str]], mode: str) -> float:
    """The win rate of a seat, over these seats."""
    return sum(seat_won(role, r.winner, mode) for r, _, role in seats) / len(seats) if seats else 0.0


def by_hero(records: Sequence[GameRecord], mode: str) -> dict[str, Any]:
    """Per hero, overall and per role: seats played and won, flagged against the mean seat
    win rate of the same seats (all seats; the seats of that role)."""
    seats = list(_seats(records))
    mean = _mean(seats, mode)
    out: dict[str, Any] = {"mean": round(mean, 6), "heroes": _flagged(_hero_rows(seats, mode), mean),
                           "by_role": {}}
    for role in sorted({role for _, _, role in seats}):
        mine = [s for s in seats if s[2] == role]
        role_mean = _mean(mine, mode)
        out["by_role"][role] = {"mean": round(role_mean, 6), "heroes": _flagged(_hero_rows(mine, mode), role_mean)}
    return out


def _side(won: int, seats: int) -> dict[str, Any]:
    return {"seats": seats, **_rate_row(won, seats)}


def by_skill(records: Sequence[GameRecord], hero_skills: Mapping[str, Sequence[str]], mode: str) -> dict[str, Any]:
    """Per hero skill: times and games it fired, and the win rate of the seats holding it in
    games where it fired against games where it did not, with the z-test of the difference.
    The engine counts firings per game, so a seat holds the skill if its hero has it."""
    rows = {}
    seats = list(_seats(records))
    fired_in = {r.index: dict(r.fired) for r in records}
    for skill in dict.fromkeys(s for skills in hero_skills.values() for s in skills):
        holders = {h for h, skills in hero_skills.items() if skill in skills}
        tally = {True: [0, 0], False: [0, 0]}  # fired? -> [seats won, seats]
        for r, names, role in seats:
            if holders.intersection(names):
                side = tally[fired_in[r.index].get(skill, 0) > 0]
                side[0] += seat_won(role, r.winner, mode)
                side[1] += 1
        fired = sum(f.get(skill, 0) for f in fired_in.values())
        games = sum(1 for f in fired_in.values() if f.get(skill, 0))
        rows[skill] = {"fired": fired, "games": games, "when_fired": _side(*tally[True]),
                       "when_not": _side(*tally[False]), "test": two_proportion_test(*tally[True], *tally[False])}
    return dict(sorted(rows.items(), key=lambda kv: (-kv[1]["fired"], kv[0])))


def turn_histogram(records: Sequence[GameRecord]) -> dict[str, int]:
    """Games by length in turns (keys are the turn counts, as JSON strings, ascending)."""
    counts = Counter(r.turns for r in records)
    return {str(t): counts[t] for t in sorted(counts)}


def balance(records: Sequence[GameRecord], hero_skills: Mapping[str, Sequence[str]], mode: str) -> dict[str, Any]:
    """The ``balance`` section of summary.json, over the clean games given."""
    return {"roles": by_role(records, mode), "heroes": by_hero(records, mode),
            "skills": by_skill(records, hero_skills, mode), "turn_histogram": turn_histogram(records)}
