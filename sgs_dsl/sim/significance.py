"""When a difference in a report counts as a finding: the tests' shared rules.

A report runs many tests at once (one per hero, per hero and role, per skill, per row of a
comparison). At 5% each, a few dozen tests flag one or two rows by chance alone. So each
family of tests is corrected with the Benjamini–Hochberg procedure (false discovery rate
``ALPHA``), and a row with fewer than ``MIN_SAMPLE`` trials is not tested at all. Pure
functions, standard library only."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

#: The false discovery rate of each family of tests (Benjamini–Hochberg): of the rows a
#: family flags, at most this share is expected to be flagged by chance.
ALPHA = 0.05

#: Fewest trials (seats, games or pairs of games) on each side of a test before it is run:
#: below it the normal approximation is poor and a flag is likely the accident of a few games.
#: Such a row shows its numbers and intervals but is never flagged.
MIN_SAMPLE = 30

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054

CORRECTION = (f"Benjamini–Hochberg over each family of tests (false discovery rate {ALPHA}); "
              f"rows with fewer than {MIN_SAMPLE} trials on a side are not tested")


def two_sided_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def z_test(z: float) -> dict[str, Any]:
    """A test's row before correction: z and its two-sided p."""
    return {"z": round(z, 4), "p": round(two_sided_p(z), 6)}


def bh_adjust(pvalues: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q), in the order given: q of the i-th smallest
    of m p-values is the least of m·p(j)/j over j >= i, at most 1. A test is significant at
    false discovery rate α when its q <= α (the step-up rule: reject the k smallest, k the
    largest i with p(i) <= i·α/m)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, m * pvalues[i] / rank)
        adjusted[i] = min(1.0, running)
    return adjusted


def correct(tests: Iterable[dict[str, Any] | None], alpha: float = ALPHA) -> int:
    """Add ``q`` (BH-adjusted p) and ``significant`` (q <= alpha) to each test of a family,
    in place; None (a row not tested) is skipped. Returns the family's size."""
    family = [t for t in tests if t is not None]
    for test, q in zip(family, bh_adjust([t["p"] for t in family]), strict=True):
        test["q"] = round(q, 6)
        test["significant"] = q <= alpha
    return len(family)


def enough(*trials: int) -> bool:
    """Is every side of a test at least MIN_SAMPLE trials?"""
    return all(n >= MIN_SAMPLE for n in trials)
