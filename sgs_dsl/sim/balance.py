"""The numbers of a balance report (``sgs balance``): win rate by role; by hero, the headline
being its strength adjusted for role (and optionally seat, strata.py), then per role; each hero
skill's firing and its association with winning; and the game length distribution. Every
family of tests is corrected for multiple comparisons (significance.py). Pure functions over
the batch's records; no engine imports."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .significance import ALPHA, CORRECTION, MIN_SAMPLE, correct, enough, z_test
from .stats import _rate_row, seat_won
from .strata import METHOD, adjusted_strength, stratum

if TYPE_CHECKING:  # pragma: no cover
    from sgs_dsl.sim.batch import GameRecord

__all__ = ["ALPHA", "MIN_SAMPLE", "balance", "by_hero", "by_role", "by_skill", "turn_histogram",
           "two_proportion_test"]

#: One seat of a game that reports heroes: (the game, seat number from 1, hero names, side).
Seat = tuple["GameRecord", int, tuple[str, ...], str]


def two_proportion_test(w1: int, n1: int, w2: int, n2: int) -> dict[str, Any]:
    """The pooled two-proportion z-test of w1/n1 against w2/n2 (two-sided); an empty
    side or no variance gives z 0 and p 1. ``significant`` is p < ALPHA for this test alone:
    a family of them is corrected afterwards (significance.correct)."""
    if n1 == 0 or n2 == 0:
        return {"z": 0.0, "p": 1.0, "significant": False}
    pooled = (w1 + w2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    test = z_test((w1 / n1 - w2 / n2) / se if se > 0 else 0.0)
    return {**test, "significant": test["p"] < ALPHA}


def _seats(records: Sequence[GameRecord]) -> Iterator[Seat]:
    """Every seat of the games that report heroes."""
    for r in records:
        if r.heroes and len(r.heroes) == len(r.roles):
            for seat, (hero, role) in enumerate(zip(r.heroes, r.roles, strict=True), 1):
                yield r, seat, hero if isinstance(hero, tuple) else (hero,), role


def by_role(records: Sequence[GameRecord], mode: str) -> dict[str, dict[str, Any]]:
    """Per side dealt: games it sat in and games it was on the winning side."""
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for r in records:
        for role in set(r.roles):
            games[role] += 1
            wins[role] += seat_won(role, r.winner, mode)
    return {role: {"games": games[role], **_rate_row(wins[role], games[role])} for role in sorted(games)}


def _hero_rows(seats: Sequence[Seat], mode: str) -> dict[str, dict[str, Any]]:
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for r, _, names, role in seats:
        for name in names:
            played[name] += 1
            won[name] += seat_won(role, r.winner, mode)
    return {h: {"games": played[h], **_rate_row(won[h], played[h])} for h in played}


def _mean(seats: Sequence[Seat], mode: str) -> float:
    """The win rate of a seat, over these seats."""
    return sum(seat_won(role, r.winner, mode) for r, _, _, role in seats) / len(seats) if seats else 0.0


def _flag(test: dict[str, Any] | None) -> str:
    """'above' or 'below' for a test significant after correction, else ''."""
    if not test or not test.get("significant"):
        return ""
    return "above" if test["z"] > 0 else "below"


def _adjusted(seats: Sequence[Seat], mode: str, strata: str, within_role: bool = False) -> dict[str, Any]:
    """adjusted_strength over these seats, strata by role (and seat); ``within_role``: the
    seats are of one role, so only the seat (if at all) divides them."""
    def key(role: str, seat: int) -> Any:
        return (seat if strata == "role+seat" else "") if within_role else stratum(role, seat, strata)

    return adjusted_strength((name, key(role, seat), seat_won(role, r.winner, mode))
                             for r, seat, names, role in seats for name in names)


def _headline(rows: dict[str, dict[str, Any]], adjusted: dict[str, Any], mean: float) -> dict[str, dict[str, Any]]:
    """Each hero's row with its adjusted estimate and flag, strongest first (no estimate last)."""
    for name, row in rows.items():
        est = adjusted[name]
        row.update(est)
        excess, band = est["excess"], est["excess_ci95"]
        row["adjusted_rate"] = None if excess is None else round(mean + excess, 6)
        row["adjusted_ci95"] = None if band is None else [round(mean + band[0], 6), round(mean + band[1], 6)]
    correct(row["test"] for row in rows.values())
    for row in rows.values():
        row["flag"] = _flag(row["test"])
    return dict(sorted(rows.items(), key=lambda kv: (kv[1]["excess"] is None, -(kv[1]["excess"] or 0.0),
                                                     -kv[1]["games"], kv[0])))


def by_hero(records: Sequence[GameRecord], mode: str, strata: str = "role") -> dict[str, Any]:
    """Per hero: seats played and won; the headline, its excess over the other heroes of the
    same role (``strata`` "role+seat": role and seat) with the test, corrected over all heroes
    (Benjamini–Hochberg) and flagged; and per role, each hero against the others of that role,
    corrected over all the hero-role rows."""
    stratum("", 0, strata)  # a bad strata is a ValueError before anything is counted
    seats = list(_seats(records))
    mean = _mean(seats, mode)
    heroes = _headline(_hero_rows(seats, mode), _adjusted(seats, mode, strata), mean)
    roles: dict[str, Any] = {}
    for role in sorted({role for *_, role in seats}):
        mine = [s for s in seats if s[3] == role]
        rows = _hero_rows(mine, mode)
        for name, est in _adjusted(mine, mode, strata, within_role=True).items():
            rows[name]["test"] = est["test"]
        roles[role] = {"mean": round(_mean(mine, mode), 6), "heroes": rows}
    by_role_tests = correct(row["test"] for t in roles.values() for row in t["heroes"].values())
    for t in roles.values():
        for row in t["heroes"].values():
            row["flag"] = _flag(row["test"])
        t["heroes"] = dict(sorted(t["heroes"].items(), key=lambda kv: (-kv[1]["rate"], -kv[1]["games"], kv[0])))
    return {"mean": round(mean, 6), "strata": strata, "method": METHOD, "correction": CORRECTION,
            "tested": sum(row["test"] is not None for row in heroes.values()), "heroes": heroes,
            "by_role_tested": by_role_tests, "by_role": roles}


def _side(won: int, seats: int) -> dict[str, Any]:
    """Seats and wins; rate and interval None over no seats (never a rate of 0%)."""
    if seats == 0:
        return {"seats": 0, "wins": 0, "rate": None, "ci95": None}
    return {"seats": seats, **_rate_row(won, seats)}


def by_skill(records: Sequence[GameRecord], hero_skills: Mapping[str, Sequence[str]], mode: str) -> dict[str, Any]:
    """Per hero skill: times and games it fired, seats that held it, and the win rate of those
    seats in games where it fired against games where it did not, with the z-test of the
    difference when each side has MIN_SAMPLE seats, corrected over all skills tested. A skill
    held but never fired is ``never_fired``: its "when fired" side has no rate (None), not 0%.
    The engine counts firings per game, so a seat holds the skill if its hero has it."""
    rows: dict[str, dict[str, Any]] = {}
    seats = list(_seats(records))
    fired_in = {r.index: dict(r.fired) for r in records}
    for skill in dict.fromkeys(s for skills in hero_skills.values() for s in skills):
        holders = {h for h, skills in hero_skills.items() if skill in skills}
        tally = {True: [0, 0], False: [0, 0]}  # fired? -> [seats won, seats]
        for r, _, names, role in seats:
            if holders.intersection(names):
                side = tally[fired_in[r.index].get(skill, 0) > 0]
                side[0] += seat_won(role, r.winner, mode)
                side[1] += 1
        fired = sum(f.get(skill, 0) for f in fired_in.values())
        games = sum(1 for f in fired_in.values() if f.get(skill, 0))
        tested = enough(tally[True][1], tally[False][1])
        rows[skill] = {"fired": fired, "games": games, "held": tally[True][1] + tally[False][1],
                       "never_fired": fired == 0, "when_fired": _side(*tally[True]),
                       "when_not": _side(*tally[False]),
                       "test": two_proportion_test(*tally[True], *tally[False]) if tested else None}
    correct(row["test"] for row in rows.values())
    return dict(sorted(rows.items(), key=lambda kv: (-kv[1]["fired"], kv[0])))


def turn_histogram(records: Sequence[GameRecord]) -> dict[str, int]:
    """Games by length in turns (keys are the turn counts, as JSON strings, ascending)."""
    counts = Counter(r.turns for r in records)
    return {str(t): counts[t] for t in sorted(counts)}


def balance(records: Sequence[GameRecord], hero_skills: Mapping[str, Sequence[str]], mode: str,
            strata: str = "role") -> dict[str, Any]:
    """The ``balance`` section of summary.json, over the clean games given."""
    return {"roles": by_role(records, mode), "heroes": by_hero(records, mode, strata),
            "skills": by_skill(records, hero_skills, mode), "turn_histogram": turn_histogram(records)}
