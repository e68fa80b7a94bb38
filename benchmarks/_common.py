"""Shared helpers of the benchmark scripts (not a test suite: run them by hand)."""

from __future__ import annotations

import os
import platform
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

try:  # an installed sgs-dsl wins; in a bare checkout use the source tree
    import sgs_dsl  # noqa: F401
except ImportError:  # pragma: no cover
    sys.path.insert(0, str(REPO))


def median(values: list[float]) -> float:
    return statistics.median(values)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, str]:
    return {
        "cpu": cpu_model(),
        "nproc": str(os.cpu_count()),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def table(rows: list[tuple[str, str, str]]) -> str:
    """A markdown table of (benchmark, value, unit) rows."""
    out = ["| benchmark | value | unit |", "|---|---:|---|"]
    out += [f"| {name} | {value} | {unit} |" for name, value, unit in rows]
    return "\n".join(out)
