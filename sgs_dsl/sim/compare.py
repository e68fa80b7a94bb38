"""Two runs side by side (``sgs balance --compare A B``): each win rate of A and of B, the
difference B - A, and whether it is significant. A run is a balance summary.json, an
``sgs simulate --json`` report, or a ``--records`` file of its games (records.py).

When both are records files whose games share seeds, the games played from the same seed are
paired and each difference is tested on the pairs (paired.py); otherwise (a summary has no
games, or the runs share no seed) the test is the two-sided pooled two-proportion z-test of
the two runs' totals. Either way each section (sides, roles, heroes, agents) is a family of
tests corrected by Benjamini–Hochberg, and a row with fewer than MIN_SAMPLE trials (or pairs)
is not tested (significance.py).

A file is read whatever it holds: ``load_run`` reads only a regular file of bounded size,
parses it as JSON (or JSON Lines) with bounded numbers and no NaN or infinity, and
``read_report`` and ``read_records`` check, in one place, every key the comparison reads (and
only those), so that a file of any other shape is one error that names the key and what is
wrong with it. A name only one run has, or a count of no games, shows as n/a, never as a
rate of 0% or a difference from one."""

from __future__ import annotations

import html
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.modes import MODE_SPECS
from ..files import read_regular, reason
from ..tables import pad
from ..textsafe import clip
from .balance import two_proportion_test
from .paired import METHOD as PAIRED
from .paired import SECTIONS, GameTally, paired_section, tally_game, totals
from .significance import ALPHA, MIN_SAMPLE, correct, enough
from .stats import describe_agents

UNPAIRED = "unpaired: two-sided pooled two-proportion z-test of the two runs' totals"
CORRECTION = (f"each section corrected by Benjamini–Hochberg (flagged * when q <= {ALPHA}); "
              f"rows with fewer than {MIN_SAMPLE} trials in a run (or pairs) not tested")

#: A report file larger than this is not read (a balance summary of 2,000 games is ~100 kB).
MAX_REPORT_BYTES = 64 * 2**20
#: Digits of a number in a report file (a seed may be long; every count is far shorter).
MAX_DIGITS = 40
#: Games, wins and seats above this are not counts of a real run (and stay exact as floats).
MAX_COUNT = 10**12
#: Characters of a name or a ruleset shown; a longer one is cut, "..." marking the cut.
SHOWN = 40


class NotAReport(ValueError):
    """A file that is not a report of ``sgs balance`` or ``sgs simulate --json``."""


# --- reading a report ---------------------------------------------------------------------------


def load_run(path: Path) -> dict[str, Any] | list[dict[str, Any]]:
    """The report in the file `path`, checked by ``read_report`` (a records file: its games,
    checked by ``read_records``); NotAReport (naming the file and what is wrong) when it
    cannot be read or is neither."""
    try:
        raw = read_regular(path, MAX_REPORT_BYTES)
    except OSError as error:
        raise NotAReport(f"cannot read {path}: {reason(error)}") from None
    except ValueError as error:  # not a regular file, or too large
        raise NotAReport(f"cannot read {path}: {error}") from None
    data: Any = _parse(path, raw)
    try:
        read_run(data)
    except NotAReport as bad:
        what = ("a file of games of `--records`" if _records(data)
                else "a report of `sgs balance` or `sgs simulate --json`")
        raise NotAReport(f"{path} is not {what}: {bad}") from None
    return data


def _parse(path: Path, raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        raise NotAReport(f"{path} is not UTF-8 text (byte 0x{raw[bad.start]:02x} at offset {bad.start:,})") from None
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
        return [data] if _is_game(data) else data
    except json.JSONDecodeError as bad:
        games = _json_lines(text) if bad.msg == "Extra data" else None
        if games is None:
            raise NotAReport(f"{path} is not JSON: {bad.msg} at line {bad.lineno}, column {bad.colno}") from None
        return games
    except RecursionError:
        raise NotAReport(f"{path} is not a report: its JSON is nested too deeply") from None
    except ValueError as bad:  # a number refused by the hooks below
        raise NotAReport(f"{path} is not a report: {bad}") from None


def _is_game(data: Any) -> bool:
    """Is this one line of a records file (a game), rather than a report?"""
    return isinstance(data, dict) and "seats" in data and "games" not in data


def _json_lines(text: str) -> list[Any] | None:
    """The objects of a records file, one a line; None when its first line is not a game (then
    the file is taken for a report, and its JSON error is the one shown)."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    games = []
    for n, line in lines:
        try:
            games.append(json.loads(line, parse_int=_int, parse_float=_float, parse_constant=_constant))
        except json.JSONDecodeError as bad:
            if not games:
                return None
            raise NotAReport(f"its line {n} is not JSON: {bad.msg} at column {bad.colno}") from None
        if not _is_game(games[0]):
            return None
    return games


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"it holds a number of {len(text.lstrip('-')):,} digits; a report's have at most {MAX_DIGITS}")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"it holds the number {clip(text, 20)}, too large to be a float")
    return value


def _constant(name: str) -> float:
    raise ValueError(f"it holds {name}, which is not a number a report has")


def read_report(data: Any) -> dict[str, Any]:
    """What a comparison reads of a report, checked: the run (ruleset, players, games, seed,
    agents), per section the (wins, trials) of each name, and the mean game length (None
    over no valid games). NotAReport naming the first key that is missing or wrong."""
    top = _object(data, "the report")
    games = _count(top, "games")
    valid = _count(top, "valid_games", games, of="games")
    run = {"ruleset": _text(top, "ruleset"), "players": _count(top, "players"), "games": games,
           "seed": _whole(top, "seed"), "agents": _spec(top)}
    sections = {"sides": _table(top, "wins_by_side", None, valid),
                "roles": _table(_object(top.get("balance", {}), "balance"), "roles", "games", where="balance."),
                "heroes": _table(top, "wins_by_hero", "games"),
                "agents": _table(_object(top.get("agents", {}), "agents"), "wins", "seats", where="agents.")}
    turns = _object(_key(top, "turns"), "turns")
    mean = _number(turns, "mean", "turns.")
    return {"run": run, **sections, "turns_mean": mean if valid else None}


def read_run(data: Any) -> dict[str, Any]:
    """read_report of a report, read_records of a records file's games."""
    return read_records(data) if _records(data) else read_report(data)


def _records(data: Any) -> bool:
    """Is this parsed file the games of a records file (not a report)?"""
    return isinstance(data, list) and bool(data) and _is_game(data[0])


def _game(line: Any) -> dict[str, Any]:
    """One game of a records file, checked: the keys a comparison reads."""
    game = _object(line, "the game")
    for key in ("seed", "root_seed"):
        _whole(game, key)
    _text(game, "winner")
    _count(game, "turns")
    _text(game, "ruleset")
    _count(game, "players")
    for key in ("error", "timed_out"):
        _checked(game, key, "", lambda v: isinstance(v, bool), "true or false")
    seats = _checked(game, "seats", "", lambda v: isinstance(v, list), "a list")
    for i, seat in enumerate(seats, 1):
        at = f"seats.{i}."
        seat = _object(seat, at[:-1])
        for key in ("role", "agent"):
            _checked(seat, key, at, lambda v: v is None or isinstance(v, str), "a string or null")
        _checked(seat, "won", at, lambda v: v is None or isinstance(v, bool), "true, false or null")
        _checked(seat, "heroes", at, lambda v: isinstance(v, list) and all(isinstance(h, str) for h in v),
                 "a list of strings")
    return game


def _games(lines: list[Any]) -> list[dict[str, Any]]:
    """Every game checked, the first naming its line; one ruleset and player count; no seed twice."""
    games: list[dict[str, Any]] = []
    seen: dict[int, int] = {}
    for n, line in enumerate(lines, 1):
        try:
            game = _game(line)
        except NotAReport as bad:
            raise NotAReport(f"game {n} (line {n}): {bad}") from None
        for key in ("ruleset", "players"):
            if game[key] != games[0][key] if games else False:
                raise NotAReport(f"game {n} has {key} {clip(str(game[key]), SHOWN)}, game 1 "
                                 f"{clip(str(games[0][key]), SHOWN)}: one file, one run")
        if game["seed"] in seen:
            raise NotAReport(f"games {seen[game['seed']]} and {n} have the same seed {game['seed']}: one file, one run")
        seen[game["seed"]] = n
        games.append(game)
    return games


def read_records(lines: list[Any]) -> dict[str, Any]:
    """What a comparison reads of a records file: as read_report, plus each clean game's
    tally by seed (``tallies``) for pairing. NotAReport naming the game and key at fault."""
    games = _games(lines)
    clean = [g for g in games if not g["error"] and not g["timed_out"]]
    mode = MODE_SPECS.get(str(games[0].get("mode")))
    outcomes = list(dict.fromkeys([*(mode.outcomes if mode else ()), *(g["winner"] for g in clean)]))
    tallies: dict[int, GameTally] = {g["seed"]: tally_game(g, outcomes) for g in clean}
    roots = {g["root_seed"] for g in games}
    agents = sorted({s["agent"] for g in games for s in g["seats"] if s["agent"] is not None})
    run = {"ruleset": games[0]["ruleset"], "players": games[0]["players"], "games": len(games),
           "seed": roots.pop() if len(roots) == 1 else "several",
           "agents": {"all": ", ".join(agents) or "unknown", "roles": {}, "seats": {}}}
    sums = totals(list(tallies.values()))
    mean = sum(g["turns"] for g in clean) / len(clean) if clean else None
    return {"run": run, **sums, "turns_mean": None if mean is None else round(mean, 4), "tallies": tallies}


def _found(value: Any) -> str:
    """A value as an error message shows it: its JSON, cut short."""
    if isinstance(value, dict | list):
        return "an object" if isinstance(value, dict) else "a list"
    return clip(json.dumps(value, ensure_ascii=False), 20)


def _key(obj: dict[str, Any], key: str, where: str = "") -> Any:
    if key not in obj:
        raise NotAReport(f"it has no `{where}{key}`")
    return obj[key]


def _object(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise NotAReport(f"{name if name == 'the report' else f'`{name}`'} should be a JSON object, not {_found(value)}")
    return value


def _checked(obj: dict[str, Any], key: str, where: str, test: Callable[[Any], bool], want: str) -> Any:
    value = _key(obj, key, where)
    if not test(value):
        raise NotAReport(f"`{where}{key}` should be {want}, not {_found(value)}")
    return value


def _whole(obj: dict[str, Any], key: str, where: str = "") -> int:
    return _checked(obj, key, where, lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number")


def _count(obj: dict[str, Any], key: str, most: int = MAX_COUNT, where: str = "", of: str = "") -> int:
    want = f"a whole number from 0 to {most:,}" + (f" (its {of})" if of else "")
    return _checked(obj, key, where, lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= most, want)


def _number(obj: dict[str, Any], key: str, where: str = "") -> float:
    def ok(v: Any) -> bool:
        return isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= MAX_COUNT

    return float(_checked(obj, key, where, ok, f"a number from 0 to {MAX_COUNT:,}"))


def _text(obj: dict[str, Any], key: str, where: str = "") -> str:
    return _checked(obj, key, where, lambda v: isinstance(v, str), "a string")


def _table(obj: dict[str, Any], key: str, trials: str | None, fixed: int = 0,
           where: str = "") -> dict[str, tuple[int, int]]:
    """(wins, trials) per name of a section, {} when the report has none. `trials` is the
    key of each row's trials, or None when every row is out of `fixed` (the valid games)."""
    if key not in obj and trials is not None:
        return {}
    rows = _object(_key(obj, key, where), f"{where}{key}")
    out = {}
    for name, row in rows.items():
        at = f"{where}{key}.{clip(name, SHOWN)}."
        row = _object(row, at[:-1])
        n = fixed if trials is None else _count(row, trials, where=at)
        out[name] = (_count(row, "wins", n, at, of=trials or "valid_games"), n)
    return out


def _spec(top: dict[str, Any]) -> dict[str, Any] | None:
    """The agent spec a run records (agents.spec), checked as describe_agents reads it."""
    spec = _object(top.get("agents", {}), "agents").get("spec")
    if spec is None:
        return None
    _object(spec, "agents.spec")
    _text(spec, "all", "agents.spec.")
    for part in ("roles", "seats"):
        for key, value in _object(_key(spec, part, "agents.spec."), f"agents.spec.{part}").items():
            if not isinstance(value, str):
                raise NotAReport(f"`agents.spec.{part}.{clip(key, SHOWN)}` should be a string, not {_found(value)}")
    return spec


# --- comparing ------------------------------------------------------------------------------------


def _side(wins: int, n: int) -> dict[str, Any]:
    """One run's row: its count, and its rate when it has trials (None over none)."""
    return {"wins": wins, "n": n, "rate": round(wins / n, 6) if n else None}


def _compare_rows(a: dict[str, tuple[int, int]], b: dict[str, tuple[int, int]]) -> dict[str, Any]:
    """Per name of either run: each run's row (None when that run lacks the name), and the
    difference b - a when both have trials (else None: nothing to compare), with its test when
    both have MIN_SAMPLE (not yet corrected)."""
    out = {}
    for name in [*a, *(k for k in b if k not in a)]:
        row_a = _side(*a[name]) if name in a else None
        row_b = _side(*b[name]) if name in b else None
        both = row_a is not None and row_b is not None and row_a["n"] > 0 and row_b["n"] > 0
        tested = both and enough(a[name][1], b[name][1])
        out[name] = {"a": row_a, "b": row_b,
                     "diff": round(row_b["rate"] - row_a["rate"], 6) if both else None,  # type: ignore[index]
                     "test": two_proportion_test(*b[name], *a[name]) if tested else None}
    return out


def _pairing(ra: dict[str, Any], rb: dict[str, Any]) -> tuple[list[int], dict[str, Any]]:
    """The seeds whose games both runs played cleanly (in A's order), and what the pairing was."""
    ta, tb = ra.get("tallies"), rb.get("tallies")
    if ta is None or tb is None:
        return [], {"paired": 0, "why": "a summary holds no games: the runs' totals are compared"}
    seeds = [s for s in ta if s in tb]
    why = ("the runs share no seed (different root seeds?): the runs' totals are compared" if not seeds else
           f"{len(seeds)} games played from the same seed in both runs are paired; "
           f"{len(ta) - len(seeds)} of A's and {len(tb) - len(seeds)} of B's clean games have no partner "
           "and are left out")
    return seeds, {"paired": len(seeds), "a_unpaired": len(ta) - len(seeds), "b_unpaired": len(tb) - len(seeds),
                   "why": why}


def compare(a: Any, b: Any) -> dict[str, Any]:
    """The comparison of run ``a`` with run ``b`` (differences are b − a); each a report
    (dict) or a records file's games (list). NotAReport when either is neither."""
    ra, rb = read_run(a), read_run(b)
    seeds, pairing = _pairing(ra, rb)
    if seeds:
        sections = {s: paired_section(ra["tallies"], rb["tallies"], seeds, s) for s in SECTIONS}
    else:
        sections = {s: _compare_rows(ra[s], rb[s]) for s in SECTIONS}
    for rows in sections.values():
        correct(row["test"] for row in rows.values())
    ta, tb = ra["turns_mean"], rb["turns_mean"]
    turns = {"a": ta, "b": tb, "diff": round(tb - ta, 4) if ta is not None and tb is not None else None}
    return {"method": f"{PAIRED if seeds else UNPAIRED}; {CORRECTION}", "pairing": pairing,
            "runs": {"a": ra["run"], "b": rb["run"]}, **{s: rows for s, rows in sections.items() if rows},
            "turns_mean": turns}


# --- showing a comparison -------------------------------------------------------------------------


def _cell(row: dict[str, Any] | None, run: str) -> str:
    if row is None:
        return f"n/a (not in {run})"
    rate = "n/a" if row["rate"] is None else f"{100 * row['rate']:.1f}%"
    return f"{rate:>6} ({row['wins']}/{row['n']})"


def _verdict(row: dict[str, Any]) -> str:
    """The test's words: p and q, * when significant after correction; or why there is none."""
    t = row["test"]
    if t is None:
        return f"not tested ({'pairs' if 'pairs' in row else 'trials'} < {MIN_SAMPLE})"
    return f"p={t['p']:.4f} q={t['q']:.4f}{'  *' if t['significant'] else ''}"


def _line(name: str, row: dict[str, Any]) -> str:
    a, b = _cell(row["a"], "A"), _cell(row["b"], "B")
    if row["diff"] is None:
        return f"  {pad(clip(name, SHOWN), 12)} {a:<16} {b:<16} {'n/a':>6}"
    pairs = f"  {row['pairs']} pairs" if "pairs" in row else ""
    return f"  {pad(clip(name, SHOWN), 12)} {a:<16} {b:<16} {100 * row['diff']:+6.1f}  {_verdict(row)}{pairs}"


def _run_line(key: str, r: dict[str, Any]) -> str:
    return (f"{key}: {clip(r['ruleset'], SHOWN)}, {r['players']} players, {r['games']} games, seed {r['seed']}, "
            f"agents {clip(describe_agents(r['agents']), 2 * SHOWN)}")


def _turns(mean: float | None, fmt: str = ".1f") -> str:
    return "n/a" if mean is None else format(mean, fmt)


def format_comparison(c: dict[str, Any]) -> str:
    """The text ``sgs balance --compare`` prints: per section, A, B, B − A in points, p and q.
    A name one run lacks reads `n/a (not in A)`; a rate over no games `n/a`; neither has a
    difference (`n/a`)."""
    lines = [_run_line("A", c["runs"]["a"]), _run_line("B", c["runs"]["b"]), f"pairing: {c['pairing']['why']}",
             f"difference B - A in percentage points; {c['method']}; n/a: nothing to compare"]
    for section in SECTIONS:
        if section in c:
            lines.append(f"{section}:")
            lines.extend(_line(name, row) for name, row in c[section].items())
    t = c["turns_mean"]
    lines.append(f"mean turns: A {_turns(t['a'])}, B {_turns(t['b'])}, difference {_turns(t['diff'], '+.1f')}")
    return "\n".join(lines)


def _html_cells(row: dict[str, Any] | None) -> list[Any]:
    from .report import pct

    if row is None:
        return ["n/a (not in this run)", ""]
    return ["n/a" if row["rate"] is None else pct(row["rate"]), row["n"]]


def render_comparison(c: dict[str, Any]) -> str:
    """compare.html: the comparison's tables, significant rows marked."""
    from .report import page, table

    parts = ["<h1>Two runs compared</h1>", f"<p>Difference is B − A; {html.escape(c['method'])}.</p>",
             f"<p>Pairing: {html.escape(c['pairing']['why'])}.</p>"]
    for key in ("a", "b"):
        parts.append(f"<p>{html.escape(_run_line(key.upper(), c['runs'][key]))}</p>")
    for section in SECTIONS:
        if section not in c:
            continue
        rows = [[name, *_html_cells(r["a"]), *_html_cells(r["b"]),
                 "n/a" if r["diff"] is None else f"{100 * r['diff']:+.1f}",
                 "n/a" if r["test"] is None else f"{r['test']['p']:.4f}",
                 "n/a" if r["test"] is None else f"{r['test']['q']:.4f}",
                 "yes" if r["test"] and r["test"]["significant"] else ""]
                for name, r in c[section].items()]
        classes = ["above" if r["test"] and r["test"]["significant"] else "" for r in c[section].values()]
        parts += [f"<h2>{section}</h2>", table(f"cmp-{section}", ["name", "A", "A n", "B", "B n", "B − A (points)",
                                                                  "p", "q (BH)", "significant"], rows, classes)]
    return page("two runs compared", "\n".join(parts))
