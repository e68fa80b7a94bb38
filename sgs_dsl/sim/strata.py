"""A hero's strength with its seats' role (and, optionally, seat) taken out.

A lord candidate sits as lord in most games, so its raw win rate is mostly the lord side's;
comparing it with the mean of all seats says more about the role than the hero. Here each
of a hero's seats is compared with the other heroes' seats of the same stratum (role, or
role and seat number): indirect standardisation.

For hero h and each stratum s where h sat ``n`` times and won ``a``, and the other heroes
sat ``n0`` times and won ``c``:

- expected wins ``E = sum n * c / n0``: what the others won from the same seats;
- excess ``(O - E) / seats``, O = sum a: points above (+) or below (-) the others;
- variance of ``O - E`` when h is no different from the others:
  ``V = sum n * p * (1 - p) * (n + n0) / n0``, p = (a + c) / (n + n0), the stratum's rate
  (binomial variance of the hero's wins plus that of the reference rate it is held to);
- ``z = (O - E) / sqrt(V)``, two-sided normal p; 95% interval of the excess
  ``(O - E ± 1.96 sqrt(V)) / seats`` (the same V, so the interval leaves out 0 exactly when
  p < 0.05).

It is the stratified score test of the Cochran–Mantel–Haenszel family, with the hero's own
seats as the weights. A stratum where only h sat tells nothing and is left out; a hero with
no other stratum has no estimate (None). Pure functions, standard library only."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Any

from .significance import Z95, enough, z_test

#: One seat of one hero: (hero, its stratum, did the seat win).
Observation = tuple[str, Hashable, bool]

STRATA = ("role", "role+seat")

METHOD = ("indirect standardisation: each of a hero's seats against the other heroes' seats of the "
          "same stratum; excess = (observed - expected wins) / seats; stratified score test")


def _tally(observations: Iterable[Observation]) -> tuple[dict[Hashable, list[int]], dict[str, dict[Hashable, list[int]]]]:
    """[wins, seats] per stratum, and per hero per stratum."""
    strata: dict[Hashable, list[int]] = {}
    heroes: dict[str, dict[Hashable, list[int]]] = {}
    for hero, stratum, won in observations:
        for row in (strata.setdefault(stratum, [0, 0]), heroes.setdefault(hero, {}).setdefault(stratum, [0, 0])):
            row[0] += won
            row[1] += 1
    return strata, heroes


def _estimate(mine: dict[Hashable, list[int]], strata: dict[Hashable, list[int]]) -> dict[str, Any]:
    """Observed, expected, compared seats, excess with its interval, and the test (None when
    fewer than MIN_SAMPLE seats had others to compare with)."""
    observed = expected = variance = 0.0
    compared = 0
    for stratum, (a, n) in mine.items():
        wins, seats = strata[stratum]
        n0 = seats - n
        if n0 == 0:
            continue  # only this hero sat here: nothing to compare with
        p = wins / seats
        observed += a
        expected += n * (wins - a) / n0
        variance += n * p * (1 - p) * seats / n0
        compared += n
    if compared == 0:
        return {"compared": 0, "observed": 0, "expected": None, "excess": None, "excess_ci95": None, "test": None}
    diff, half = observed - expected, Z95 * math.sqrt(variance)
    test = z_test(diff / math.sqrt(variance) if variance > 0 else 0.0) if enough(compared) else None
    return {"compared": compared, "observed": int(observed), "expected": round(expected, 4),
            "excess": round(diff / compared, 6),
            "excess_ci95": [round((diff - half) / compared, 6), round((diff + half) / compared, 6)], "test": test}


def adjusted_strength(observations: Iterable[Observation]) -> dict[str, dict[str, Any]]:
    """Per hero: its excess over the other heroes of the same strata (see the module)."""
    strata, heroes = _tally(observations)
    return {hero: _estimate(mine, strata) for hero, mine in heroes.items()}


def stratum(role: str, seat: int, by: str) -> Hashable:
    """The stratum of a seat: its role, or its role and seat number (``by`` in STRATA)."""
    if by not in STRATA:
        raise ValueError(f"unknown strata {by!r}: one of {', '.join(STRATA)}")
    return role if by == "role" else (role, seat)
