"""Two runs side by side (``sgs balance --compare A.json B.json``): each win rate of A and of
B, the difference, and whether it is significant by the two-sided pooled two-proportion
z-test at 5%. A run is a balance summary.json or an ``sgs simulate --json`` report."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from .balance import ALPHA, two_proportion_test
from .stats import describe_agents

METHOD = f"two-sided pooled two-proportion z-test; significant when p < {ALPHA}"


class NotAReport(ValueError):
    """A file that is not a report of ``sgs balance`` or ``sgs simulate --json``."""


def load_run(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as bad:
        raise NotAReport(f"cannot read {path} as JSON: {bad}") from None
    if not isinstance(data, dict) or not isinstance(data.get("wins_by_side"), dict) or "valid_games" not in data:
        raise NotAReport(f"{path} is not a report of `sgs balance` or `sgs simulate --json` (no wins_by_side)")
    return data


def _rows(run: dict[str, Any], section: str) -> dict[str, tuple[int, int]]:
    """(wins, trials) per name of one section of a run; {} when the run lacks it."""
    if section == "sides":
        n = int(run["valid_games"])
        return {k: (int(r["wins"]), n) for k, r in run["wins_by_side"].items()}
    if section == "roles":
        return {k: (r["wins"], r["games"]) for k, r in run.get("balance", {}).get("roles", {}).items()}
    if section == "heroes":
        return {k: (r["wins"], r["games"]) for k, r in run.get("wins_by_hero", {}).items()}
    return {k: (r["wins"], r["seats"]) for k, r in run.get("agents", {}).get("wins", {}).items()}


SECTIONS = ("sides", "roles", "heroes", "agents")


def _compare_rows(a: dict[str, tuple[int, int]], b: dict[str, tuple[int, int]]) -> dict[str, Any]:
    out = {}
    for name in [*a, *(k for k in b if k not in a)]:
        (wa, na), (wb, nb) = a.get(name, (0, 0)), b.get(name, (0, 0))
        ra, rb = (wa / na if na else 0.0), (wb / nb if nb else 0.0)
        out[name] = {"a": {"wins": wa, "n": na, "rate": round(ra, 6)}, "b": {"wins": wb, "n": nb, "rate": round(rb, 6)},
                     "diff": round(rb - ra, 6), "test": two_proportion_test(wb, nb, wa, na)}
    return out


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """The comparison of run ``a`` with run ``b`` (differences are b − a)."""
    runs = {k: {"ruleset": r["ruleset"], "players": r["players"], "games": r["games"], "seed": r["seed"],
                "agents": r.get("agents", {}).get("spec")} for k, r in (("a", a), ("b", b))}
    sections = {s: _compare_rows(_rows(a, s), _rows(b, s)) for s in SECTIONS}
    turns = {"a": a["turns"]["mean"], "b": b["turns"]["mean"], "diff": round(b["turns"]["mean"] - a["turns"]["mean"], 4)}
    return {"method": METHOD, "runs": runs, **{s: rows for s, rows in sections.items() if rows}, "turns_mean": turns}


def _line(name: str, row: dict[str, Any]) -> str:
    a, b, t = row["a"], row["b"], row["test"]
    return (f"  {name:<12} {100 * a['rate']:5.1f}% ({a['wins']}/{a['n']})  {100 * b['rate']:5.1f}% ({b['wins']}/{b['n']})"
            f"  {100 * row['diff']:+6.1f}  p={t['p']:.4f}{'  *' if t['significant'] else ''}")


def format_comparison(c: dict[str, Any]) -> str:
    """The text ``sgs balance --compare`` prints: per section, A, B, B − A in points, p."""
    a, b = c["runs"]["a"], c["runs"]["b"]
    lines = [f"A: {a['ruleset']}, {a['players']} players, {a['games']} games, seed {a['seed']}, agents {describe_agents(a['agents'])}",
             f"B: {b['ruleset']}, {b['players']} players, {b['games']} games, seed {b['seed']}, agents {describe_agents(b['agents'])}",
             f"difference B - A in percentage points; * significant ({c['method']})"]
    for section in SECTIONS:
        if section in c:
            lines.append(f"{section}:")
            lines.extend(_line(name, row) for name, row in c[section].items())
    t = c["turns_mean"]
    lines.append(f"mean turns: A {t['a']:.1f}, B {t['b']:.1f}, difference {t['diff']:+.1f}")
    return "\n".join(lines)


def render_comparison(c: dict[str, Any]) -> str:
    """compare.html: the comparison's tables, significant rows marked."""
    from .report import page, pct, table

    parts = ["<h1>Two runs compared</h1>", f"<p>Difference is B − A; {c['method']}.</p>"]
    for key in ("a", "b"):
        r = c["runs"][key]
        text = (f"{key.upper()}: {r['ruleset']}, {r['players']} players, {r['games']} games, seed {r['seed']}, "
                f"agents {describe_agents(r['agents'])}")
        parts.append(f"<p>{html.escape(text)}</p>")
    for section in SECTIONS:
        if section not in c:
            continue
        rows = [[name, pct(r["a"]["rate"]), r["a"]["n"], pct(r["b"]["rate"]), r["b"]["n"],
                 f"{100 * r['diff']:+.1f}", f"{r['test']['p']:.4f}", "yes" if r["test"]["significant"] else ""]
                for name, r in c[section].items()]
        classes = ["above" if r["test"]["significant"] else "" for r in c[section].values()]
        parts += [f"<h2>{section}</h2>", table(f"cmp-{section}", ["name", "A", "A n", "B", "B n", "B − A (points)",
                                                                  "p", "significant"], rows, classes)]
    return page("two runs compared", "\n".join(parts))
