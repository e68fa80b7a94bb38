"""Statistics over a batch of finished games (pure functions, no engine imports). How a mode's
results read (its outcomes, which sides share a win) comes from its data in core/modes.py."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.modes import MODE_SPECS
from ..tables import display_width, pad

if TYPE_CHECKING:  # pragma: no cover
    from sgs_dsl.sim.batch import GameRecord

#: Report keys that depend on the machine and the moment, not on the games played.
TIMING_KEYS: tuple[str, ...] = ("elapsed_s", "games_per_s", "windows_per_s")

#: How the summary names each invariant level (`InvariantLevel`) the games were checked at.
CHECKED = {"every-free-time": "invariants checked at every free time",
           "turn": "invariants checked after each turn and at the end only", "off": "invariants not checked"}


#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

#: How many error texts a report keeps.
ERROR_SAMPLES = 5


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; (0.0, 0.0) when there are no trials."""
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return (0.0, 0.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def outcome_order(outcomes: Iterable[str], mode: str = "identity") -> list[str]:
    """The mode's outcomes in their fixed order, then any others, sorted."""
    known = MODE_SPECS[mode].outcomes
    return list(known) + sorted(set(outcomes) - set(known))


def seat_won(role: str, winner: str, mode: str = "identity") -> bool:
    """Did a seat on side ``role`` win a game whose result is ``winner``?"""
    return MODE_SPECS[mode].seat_won(role, winner)


def _rate_row(wins: int, n: int) -> dict[str, Any]:
    lo, hi = wilson_interval(wins, n)
    return {
        "wins": wins,
        "rate": round(wins / n, 6) if n else 0.0,
        "ci95": [round(lo, 6), round(hi, 6)],
    }


def turn_stats(turns: Sequence[int]) -> dict[str, float | int]:
    if not turns:
        return {"mean": 0.0, "median": 0.0, "max": 0, "min": 0}
    return {
        "mean": round(statistics.fmean(turns), 4),
        "median": float(statistics.median(turns)),
        "max": max(turns),
        "min": min(turns),
    }


def summarize(
    records: Sequence[GameRecord],
    *,
    ruleset: str,
    players: int,
    seed: int,
    max_turns: int,
    elapsed_s: float,
    mode: str = "identity",
    agent_spec: dict[str, Any] | None = None,
    invariants: str | None = None,
    placement: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The report for one batch, as written by ``sgs simulate --json``.

    Win rates are over the games that finished cleanly (``valid_games``): a game with an
    internal error or an invariant violation counts under ``errors`` only, since its winner
    means nothing; a game cut off by the time limit counts under ``timed_out`` only.
    ``agent_spec`` (``AgentSpec.as_json``) is recorded beside the agents that played, and
    ``invariants``, the level the games were checked at (``InvariantLevel``), beside the seed.
    ``placement`` (``HeroPlacement.as_json``), when heroes were placed, is recorded as
    ``placement``; a featured hero's games by seat and side are under ``featured``.
    Everything except :data:`TIMING_KEYS` depends only on the games played.
    """
    records = sorted(records, key=lambda r: r.index)
    clean = [r for r in records if not r.failed and not r.timed_out]  # a cut-off game has no result
    failed = [r for r in records if r.failed]
    counts = Counter(r.winner for r in clean)
    n = len(clean)
    wins_by_side = {o: _rate_row(counts.get(o, 0), n) for o in outcome_order(counts, mode)}

    report: dict[str, Any] = {
        "ruleset": ruleset,
        "mode": mode,
        "players": players,
        "games": len(records),
        "seed": seed,
        "max_turns": max_turns,
        **({"invariants": str(invariants)} if invariants is not None else {}),
        "valid_games": n,
        "wins_by_side": wins_by_side,
        "turns": turn_stats([r.turns for r in clean]),
        "capped": sum(1 for r in records if r.capped),
        "timed_out": sum(1 for r in records if r.timed_out),
        "errors": len(failed),
        "violations": sum(len(r.violations) for r in records),
        "error_samples": [
            {"game": r.index, "seed": r.seed, "error": r.failure_text()} for r in failed[:ERROR_SAMPLES]
        ],
        "windows_opened": sum(r.windows_opened for r in records),
    }
    # How often each skill or card ability fired over the batch, most frequent first.
    fired: Counter[str] = Counter()
    for r in records:
        fired.update(dict(r.fired))
    if fired:
        report["fired"] = {name: fired[name] for name in sorted(fired, key=lambda k: (-fired[k], k))}
    by_hero = wins_by_hero(clean, mode)
    if by_hero:
        report["wins_by_hero"] = by_hero
    if placement and (placement.get("heroes") or placement.get("featured")):
        report["placement"] = placement
        if placement.get("featured"):
            report["featured"] = featured_stats(records, clean, str(placement["featured"]), mode)
    if any(r.agents for r in records):
        report["agents"] = {**({"spec": agent_spec} if agent_spec is not None else {}),
                            **agent_stats(records, clean, mode)}
    games_per_s = len(records) / elapsed_s if elapsed_s > 0 else 0.0
    windows_per_s = report["windows_opened"] / elapsed_s if elapsed_s > 0 else 0.0
    report["elapsed_s"] = round(elapsed_s, 3)
    report["games_per_s"] = round(games_per_s, 2)
    report["windows_per_s"] = round(windows_per_s, 1)
    return report


def wins_by_hero(records: Sequence[GameRecord], mode: str = "identity") -> dict[str, dict[str, Any]]:
    """Per hero: games played and games its seat was on the winning side.

    Only filled when the engine reports heroes per seat (aligned with ``roles``); draws
    count as played, not won.
    """
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for r in records:
        if not r.heroes or len(r.heroes) != len(r.roles):
            continue
        for hero, role in zip(r.heroes, r.roles, strict=True):
            for name in hero if isinstance(hero, tuple) else (hero,):
                played[name] += 1
                if seat_won(role, r.winner, mode):
                    won[name] += 1
    out = {}
    for name in sorted(played, key=lambda h: (-played[h], h)):
        row = _rate_row(won[name], played[name])
        out[name] = {"games": played[name], **row}
    return out


def featured_stats(records: Sequence[GameRecord], clean: Sequence[GameRecord], hero: str,
                   mode: str) -> dict[str, Any]:
    """The featured hero (`--feature`): games it sat in (of all), games by seat (1-based, as
    recorded), and over the clean games its wins overall and by side."""
    seated = [r for r in records if r.featured_seat is not None]
    by_seat = Counter(str(r.featured_seat + 1) for r in seated if r.featured_seat is not None)
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for r in clean:
        if r.featured_seat is None or r.featured_seat >= len(r.roles):
            continue
        role = r.roles[r.featured_seat]
        played[role] += 1
        won[role] += seat_won(role, r.winner, mode)
    return {"hero": hero, "games": len(seated),
            "by_seat": {k: by_seat[k] for k in sorted(by_seat, key=int)},
            "wins": {"seats": sum(played.values()), **_rate_row(sum(won.values()), sum(played.values()))},
            "by_side": {role: {"seats": played[role], **_rate_row(won[role], played[role])}
                        for role in _side_order(played, mode)}}


def _side_order(sides: Iterable[str], mode: str) -> list[str]:
    """The mode's roles in their order (lord, loyalist, ...), then its outcomes, then others."""
    known = [*MODE_SPECS[mode].roles, *MODE_SPECS[mode].outcomes]
    return sorted(set(sides), key=lambda s: (known.index(s) if s in known else len(known), s))


def _featured_lines(featured: dict[str, Any] | None) -> list[str]:
    """The featured hero's games and wins, overall and by side."""
    if not featured:
        return []
    seats = ", ".join(f"{k}: {v}" for k, v in featured["by_seat"].items())
    lines = [f"featured {featured['hero']}: in {featured['games']} games (by seat {seats})"]
    for side, row in [("all", featured["wins"]), *featured["by_side"].items()]:
        lo, hi = row["ci95"]
        lines.append(f"  {side:<10} {row['wins']:>6}/{row['seats']:<6} {100 * row['rate']:5.1f}%"
                     f"  [{100 * lo:5.1f}%, {100 * hi:5.1f}%]")
    return lines


def _tally(pairs: Iterable[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """{key: {agent: games}} from (key, agent) pairs, keys and agents sorted."""
    counts: dict[str, Counter[str]] = {}
    for key, agent in pairs:
        counts.setdefault(key, Counter())[agent] += 1
    return {k: dict(sorted(counts[k].items())) for k in sorted(counts, key=lambda k: (int(k) if k.isdigit() else 0, k))}


def agent_stats(records: Sequence[GameRecord], clean: Sequence[GameRecord], mode: str) -> dict[str, Any]:
    """Which agents played: games each played by seat (1-based) and by side over all
    games; and per agent, over the clean games, seats played and seats on the winning side."""
    seated = [r for r in records if len(r.agents) == len(r.roles)]
    by_seat = _tally((str(s + 1), a) for r in records for s, a in enumerate(r.agents))
    by_role = _tally((role, a) for r in seated for role, a in zip(r.roles, r.agents, strict=True))
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for r in clean:
        if len(r.agents) != len(r.roles):
            continue
        for role, agent in zip(r.roles, r.agents, strict=True):
            played[agent] += 1
            won[agent] += seat_won(role, r.winner, mode)
    wins = {a: {"seats": played[a], **_rate_row(won[a], played[a])} for a in sorted(played)}
    return {"by_seat": by_seat, "by_role": by_role, "wins": wins}


def skill_stats(records: Sequence[GameRecord], skills: Sequence[str],
                held: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """Per skill of ``skills``: times it fired over the batch and games it fired in (most
    first), and the skills that never fired (in the given order). With ``held`` (hero -> its
    skills) each row also has ``seats``, the seats whose heroes held it, so that a skill no
    seat held (``never_dealt``) is told from one held and never fired."""
    fired: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for r in records:
        for name, count in r.fired:
            fired[name] += count
            games[name] += count > 0
    seats = _holders(records, held) if held is not None else None
    rows = {name: {"fired": fired[name], "games": games[name], **({"seats": seats[name]} if seats else {})}
            for name in sorted(skills, key=lambda k: (-fired[k], list(skills).index(k)))}
    out: dict[str, Any] = {"skills": rows, "never_fired": [name for name in skills if not fired[name]]}
    if seats is not None:
        out["never_dealt"] = [name for name in skills if not seats[name]]
    return out


def shown_rows(stats: dict[str, Any], shown: Mapping[str, str]) -> dict[str, Any]:
    """The statistics of `skill_stats` with each skill named as a report shows it
    (`catalog.shown_skills`: the printed name unless two skills of the ruleset print it)."""
    out = dict(stats, skills={shown.get(k, k): row for k, row in stats["skills"].items()})
    for key in ("never_fired", "never_dealt"):
        if key in stats:
            out[key] = [shown.get(k, k) for k in stats[key]]
    return out


def _holders(records: Sequence[GameRecord], held: Mapping[str, Sequence[str]]) -> Counter[str]:
    """Seats whose heroes held each skill, over the batch."""
    seats: Counter[str] = Counter()
    for r in records:
        for hero in r.heroes:
            names = hero if isinstance(hero, tuple) else (hero,)
            seats.update({s for name in names for s in held.get(name, ())})
    return seats


def format_skill_stats(stats: dict[str, Any]) -> str:
    """The per-skill table ``sgs simulate --skill-stats`` prints: a skill that never fired says
    so ("never fired", or "never dealt" when no seat held it), not a row of zeros."""
    rows = stats["skills"]
    if not rows:
        return "skill stats: the ruleset has no hero skills"
    width = max(display_width(name) for name in rows)
    lines = ["skills fired (times, games):"]
    for name, row in rows.items():
        if row["fired"]:
            lines.append(f"  {pad(name, width)} {row['fired']:>8} {row['games']:>7}")
        else:
            seats = row.get("seats")
            held = f" (held by {seats} seat{'s' if seats != 1 else ''})" if seats else ""
            lines.append(f"  {pad(name, width)} {'never dealt' if row.get('seats') == 0 else 'never fired' + held}")
    never = stats["never_fired"]
    lines.append(f"never fired: {'、'.join(never) if never else 'none'}")
    return "\n".join(lines)


def describe_agents(spec: dict[str, Any] | None) -> str:
    """An AgentSpec's JSON in words: 'heuristic; lord=random; seat 3=random' (random when absent)."""
    if not spec:
        return "random"
    parts = [spec["all"], *(f"{k}={v}" for k, v in spec["roles"].items()),
             *(f"seat {k}={v}" for k, v in spec["seats"].items())]
    return "; ".join(parts)


def _agent_lines(agents: dict[str, Any]) -> list[str]:
    """Wins by agent, when more than random agents played."""
    wins = agents.get("wins", {})
    if set(wins) <= {"random"}:
        return []
    lines = ["wins by agent (seats on the winning side; 95% Wilson interval):"]
    for name, row in wins.items():
        lo, hi = row["ci95"]
        lines.append(f"  {name:<10} {row['wins']:>6}/{row['seats']:<6} {100 * row['rate']:5.1f}%"
                     f"  [{100 * lo:5.1f}%, {100 * hi:5.1f}%]")
    return lines


def strip_timing(report: dict[str, Any]) -> dict[str, Any]:
    """The report without the machine-dependent keys (for comparing runs)."""
    return {k: v for k, v in report.items() if k not in TIMING_KEYS}


def format_summary(report: dict[str, Any]) -> str:
    """The human-readable summary printed by ``sgs simulate``."""
    checked = f", {CHECKED[report['invariants']]}" if report.get("invariants") in CHECKED else ""
    lines = [
        f"ruleset {report['ruleset']}, {report['players']} players, {report['games']} games, seed {report['seed']}"
        + checked,
        f"wins by side over {report['valid_games']} valid games (95% Wilson interval):",
    ]
    for outcome, row in report["wins_by_side"].items():
        lo, hi = row["ci95"]
        lines.append(
            f"  {outcome:<10} {row['wins']:>7}  {100 * row['rate']:5.1f}%  [{100 * lo:5.1f}%, {100 * hi:5.1f}%]"
        )
    heroes = report.get("wins_by_hero")
    if heroes:
        lines.append("wins by hero (seat on the winning side; 95% Wilson interval):")
        width = max(display_width(h) for h in heroes)
        for hero, row in heroes.items():
            lo, hi = row["ci95"]
            lines.append(
                f"  {pad(hero, width)} {row['wins']:>6}/{row['games']:<6} {100 * row['rate']:5.1f}%"
                f"  [{100 * lo:5.1f}%, {100 * hi:5.1f}%]"
            )
    lines.extend(_featured_lines(report.get("featured")))
    lines.extend(_agent_lines(report.get("agents", {})))
    t = report["turns"]
    lines.append(f"turns: mean {t['mean']:.1f}, median {t['median']:g}, max {t['max']}")
    cap = f" (at the turn cap of {report['max_turns']})" if "max_turns" in report else ""
    lines.append(f"errors: {report['errors']}, capped games: {report['capped']}{cap}, "
                 f"timed out: {report['timed_out']}")
    for sample in report["error_samples"]:
        first = sample["error"].strip().splitlines()[-1] if sample["error"].strip() else "?"
        lines.append(f"  game {sample['game']} (seed {sample['seed']}): {first}")
    lines.append(
        f"time: {report['elapsed_s']:.2f} s, {report['games_per_s']:.1f} games/s, "
        f"{report['windows_per_s']:.0f} windows/s"
    )
    return "\n".join(lines)
