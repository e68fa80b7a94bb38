"""The balance report on disk: PNG figures made with matplotlib (Agg, imported only here) and
a self-contained index.html (inline CSS, the figures embedded as base64 and also written
beside it) holding the numbers of summary.json in tables."""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from ..files import write_atomic
from .significance import ALPHA, MIN_SAMPLE
from .stats import CHECKED, describe_agents

#: CJK fonts tried for hero and skill names, in order; without one the figures number the
#: rows as the HTML tables do (matplotlib's own font has no CJK glyphs).
CJK_FONTS = ("Noto Sans CJK TC", "Noto Sans CJK SC", "Noto Sans CJK JP", "Source Han Sans TC",
             "Source Han Sans SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Microsoft JhengHei",
             "Microsoft YaHei", "PingFang TC", "PingFang SC", "Heiti TC", "SimHei", "AR PL UMing TW")

FIGURES = ("roles.png", "heroes.png", "heroes_by_role.png", "skills.png", "turns.png")


@attrs.frozen
class Plotter:
    """matplotlib's pyplot, and whether a CJK font was found for the names."""

    plt: Any
    cjk: bool
    ids: dict[str, str] = attrs.field(factory=dict)  # name -> its ASCII id (summary["balance"]["ids"])

    def names(self, names: Sequence[str]) -> list[str]:
        """Axis labels: the names with a CJK font, else their row numbers in the HTML tables
        and their ASCII ids."""
        if self.cjk:
            return list(names)
        return [f"#{i + 1} {self.ids.get(n, '')}".rstrip() for i, n in enumerate(names)]


def _plotter(ids: dict[str, str]) -> Plotter:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    cjk = next((f for f in CJK_FONTS if f in installed), None)
    plt.rcParams["font.family"] = [cjk, "DejaVu Sans"] if cjk else ["DejaVu Sans"]
    return Plotter(plt, cjk is not None, ids)


def _errors(rows: Sequence[dict[str, Any]]) -> list[list[float]]:
    """Asymmetric error bars (below, above) from the rows' Wilson intervals, in percent."""
    return [[100 * (r["rate"] - r["ci95"][0]) for r in rows], [100 * (r["ci95"][1] - r["rate"]) for r in rows]]


PLOTTED = "Description"  # the PNG text key that holds the numbers a figure plots, as JSON


def _save(fig: Any, path: Path, plotted: dict[str, Any]) -> None:
    """Write the figure with the numbers it plots in its PNG text (tests read them back)."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    text = json.dumps(plotted, sort_keys=True)  # ASCII: PNG text is Latin-1
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=100, metadata={"Software": None, PLOTTED: text})  # no version stamp
    plt.close(fig)
    write_atomic(path, png.getvalue())


def _rates(table: dict[str, dict[str, Any]]) -> dict[str, float]:
    """The bars a win-rate figure draws: percent by row."""
    return {name: 100 * r["rate"] for name, r in table.items()}


def _bars(ax: Any, pl: Plotter, table: dict[str, dict[str, Any]], mean: float | None, title: str) -> None:
    """Horizontal bars of win rates with 95% intervals, flagged rows coloured, the mean dashed."""
    rows = list(table.values())
    colours = {"above": "#2a9d3f", "below": "#c0392b"}
    y = list(range(len(rows)))[::-1]
    ax.barh(y, [100 * r["rate"] for r in rows], xerr=_errors(rows), capsize=2,
            color=[colours.get(r.get("flag", ""), "#4a78b0") for r in rows])
    ax.set_yticks(y, pl.names(list(table)))
    if mean is not None:
        ax.axvline(100 * mean, color="grey", linestyle="--", linewidth=1)
    ax.set_xlim(0, 100)
    ax.set_xlabel("win rate (%)")
    ax.set_title(title)


def _roles_figure(pl: Plotter, roles: dict[str, Any], path: Path) -> None:
    fig, ax = pl.plt.subplots(figsize=(6, 3.5))
    rows = list(roles.values())
    ax.bar(list(roles), [100 * r["rate"] for r in rows], yerr=_errors(rows), capsize=4, color="#4a78b0")
    ax.set_ylim(0, 100)
    ax.set_ylabel("games won (%)")
    ax.set_title("win rate by role (95% Wilson interval)")
    _save(fig, path, _rates(roles))


def _heroes_figure(pl: Plotter, heroes: dict[str, Any], path: Path) -> None:
    """The headline: each hero's win rate adjusted for role (and seat), with its interval; a
    hero with no estimate (alone in its strata) has no bar."""
    table = heroes["heroes"]
    rows = [{"rate": r["adjusted_rate"] or 0.0, "ci95": r["adjusted_ci95"] or [0.0, 0.0], "flag": r["flag"]}
            for r in table.values()]
    fig, ax = pl.plt.subplots(figsize=(6, 1.5 + 0.22 * len(table)))
    _bars(ax, pl, dict(zip(table, rows, strict=True)), heroes["mean"],
          f"win rate by hero, adjusted for {heroes['strata'].replace('+', ' and ')}\n(dashed: mean of a seat)")
    ax.set_xlabel("adjusted win rate (%)")
    _save(fig, path, {"mean": 100 * heroes["mean"], "heroes": {
        name: None if r["adjusted_rate"] is None else 100 * r["adjusted_rate"] for name, r in table.items()}})


def _by_role_figure(pl: Plotter, heroes: dict[str, Any], path: Path) -> None:
    roles = heroes["by_role"]
    tallest = max((len(r["heroes"]) for r in roles.values()), default=1)
    fig, axes = pl.plt.subplots(1, max(1, len(roles)), figsize=(4 * max(1, len(roles)), 1.5 + 0.22 * tallest),
                             squeeze=False)
    for ax, (role, table) in zip(axes[0], roles.items(), strict=False):
        _bars(ax, pl, table["heroes"], table["mean"], role)
    _save(fig, path, {role: _rates(table["heroes"]) for role, table in roles.items()})


def _percent(row: dict[str, Any]) -> float | None:
    return None if row["rate"] is None else 100 * row["rate"]


def _skills_figure(pl: Plotter, skills: dict[str, Any], path: Path) -> None:
    """Times fired, and the holders' win rate when it fired and when not; a side with no
    seats (a skill that never fired, or always did) has no point, and a skill that never fired
    says so where its point would be."""
    names = list(skills)
    fig, (left, right) = pl.plt.subplots(1, 2, figsize=(10, 1.5 + 0.22 * max(1, len(names))))
    y = list(range(len(names)))[::-1]
    left.barh(y, [s["fired"] for s in skills.values()], color="#4a78b0")
    left.set_yticks(y, pl.names(names))
    left.set_xlabel("times fired")
    left.set_title("skills by how often they fired")
    for key, shift, colour in (("when_fired", 0.2, "#2a9d3f"), ("when_not", -0.2, "#999999")):
        shown = [(v, s[key]) for v, s in zip(y, skills.values(), strict=True) if s[key]["rate"] is not None]
        rows = [row for _, row in shown]
        right.errorbar([100 * r["rate"] for r in rows], [v + shift for v, _ in shown], xerr=_errors(rows), fmt="o",
                       color=colour, label=key.replace("_", " "), capsize=2)
    for v, s in zip(y, skills.values(), strict=True):
        if s["never_fired"]:
            right.text(2, v, "never fired" if s["held"] else "never dealt", va="center", fontsize=8, color="#c0392b")
    right.set_yticks(y, pl.names(names))
    right.set_xlim(0, 100)
    right.set_xlabel("win rate of the seats holding it (%)")
    right.legend(loc="lower right")
    _save(fig, path, {name: {"fired": s["fired"], "never_fired": s["never_fired"],
                             "when_fired": _percent(s["when_fired"]), "when_not": _percent(s["when_not"])}
                      for name, s in skills.items()})


def _turns_figure(pl: Plotter, histogram: dict[str, int], path: Path) -> None:
    fig, ax = pl.plt.subplots(figsize=(6, 3.5))
    ax.bar([int(t) for t in histogram], list(histogram.values()), width=1.0, color="#4a78b0")
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title("game length")
    _save(fig, path, histogram)


def write_figures(summary: dict[str, Any], out: Path) -> list[Path]:
    """The PNG figures of a balance summary, written into ``out``; their paths, in FIGURES order."""
    b = summary["balance"]
    pl = _plotter(b.get("ids", {}))
    paths = [out / name for name in FIGURES]
    _roles_figure(pl, b["roles"], paths[0])
    _heroes_figure(pl, b["heroes"], paths[1])
    _by_role_figure(pl, b["heroes"], paths[2])
    _skills_figure(pl, b["skills"], paths[3])
    _turns_figure(pl, b["turn_histogram"], paths[4])
    return paths


# --- HTML ---------------------------------------------------------------------------------

CSS = """body{font-family:sans-serif;margin:2em;max-width:70em;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
th{background:#eee}td.name{text-align:left}tr.above td{background:#e3f4e6}tr.below td{background:#f8e1df}
img{max-width:100%;border:1px solid #ddd;margin:0.5em 0}.note{color:#555;font-size:90%}"""


def pct(x: float) -> str:
    """A proportion as the report prints it: a percentage with one decimal."""
    return f"{100 * x:.1f}%"


def ci(row: dict[str, Any]) -> str:
    lo, hi = row["ci95"]
    return f"{pct(lo)} – {pct(hi)}"


def table(table_id: str, headers: Sequence[str], rows: Sequence[Sequence[Any]],
          classes: Sequence[str] = ()) -> str:
    """An HTML table; the first cell of a row is a name, the others numbers."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = []
    for i, row in enumerate(rows):
        cls = f' class="{classes[i]}"' if i < len(classes) and classes[i] else ""
        cells = [f'<td class="name">{html.escape(str(row[0]))}</td>']
        cells += [f"<td>{html.escape(str(c))}</td>" for c in row[1:]]
        body.append(f"<tr{cls}>{''.join(cells)}</tr>")
    return f'<table id="{table_id}"><tr>{head}</tr>{"".join(body)}</table>'


def _rate_cells(row: dict[str, Any], count: str = "games", none: str = "n/a") -> list[Any]:
    """won, trials, rate, interval; ``none`` for the rate and interval over no trials."""
    if row["rate"] is None:
        return [row["wins"], row[count], none, none]
    return [row["wins"], row[count], pct(row["rate"]), ci(row)]


def _test_cells(test: dict[str, Any] | None) -> list[str]:
    """p and BH-adjusted q, or why there is no test."""
    if test is None:
        return [f"n/a (< {MIN_SAMPLE})", ""]
    return [f"{test['p']:.4f}", f"{test['q']:.4f}"]


def points(x: float) -> str:
    """A difference of proportions in percentage points, signed."""
    return f"{100 * x:+.1f}"


def _headline_cells(r: dict[str, Any]) -> list[Any]:
    if r["excess"] is None:
        return ["n/a", "n/a", "n/a", "n/a"]
    lo, hi = r["excess_ci95"]
    return [f"{r['expected']:.1f}", points(r["excess"]), f"{points(lo)} – {points(hi)}", pct(r["adjusted_rate"])]


def _hero_table(table_id: str, heroes: dict[str, dict[str, Any]]) -> str:
    """The headline: raw rate, then expected wins, excess and adjusted rate, the test, flag."""
    rows = [[f"#{i + 1} {name}", *_rate_cells(r), *_headline_cells(r), *_test_cells(r["test"]), r["flag"]]
            for i, (name, r) in enumerate(heroes.items())]
    return table(table_id, ["hero", "won", "seats", "win rate", "95% interval", "expected wins",
                             "excess (points)", "95% interval", "adjusted win rate", "p", "q (BH)", "flag"], rows,
                 [r["flag"] for r in heroes.values()])


def _role_table(table_id: str, heroes: dict[str, dict[str, Any]]) -> str:
    rows = [[f"#{i + 1} {name}", *_rate_cells(r), *_test_cells(r["test"]), r["flag"]]
            for i, (name, r) in enumerate(heroes.items())]
    return table(table_id, ["hero", "won", "seats", "win rate", "95% interval", "p", "q (BH)", "flag"], rows,
                 [r["flag"] for r in heroes.values()])


def _skill_table(skills: dict[str, Any]) -> str:
    def fired_cells(s: dict[str, Any]) -> list[Any]:
        if s["never_fired"]:
            return ["never fired" if s["held"] else "never dealt", 0, "", ""]
        return _rate_cells(s["when_fired"], "seats")

    rows = [[f"#{i + 1} {name}", s["fired"], s["games"], *fired_cells(s), *_rate_cells(s["when_not"], "seats"),
             *_test_cells(s["test"]), "yes" if s["test"] and s["test"]["significant"] else ""]
            for i, (name, s) in enumerate(skills.items())]
    return table("skills", ["skill", "fired", "games", "won (fired)", "seats (fired)", "win rate (fired)",
                            "95% interval", "won (not)", "seats (not)", "win rate (not)", "95% interval",
                            "p", "q (BH)", "significant"], rows)


def _image(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(path.name)}" title="{path.name}">'


def _heading(summary: dict[str, Any]) -> str:
    who = html.escape(describe_agents(summary.get("agents", {}).get("spec")))
    return (f"<h1>Balance: {html.escape(summary['ruleset'])}, {summary['players']} players</h1>"
            f"<p>{summary['games']} games ({summary['valid_games']} valid), seed {summary['seed']}, "
            f"agents {who}" + (f", {CHECKED[summary['invariants']]}" if summary.get("invariants") in CHECKED else "")
            + f"; errors {summary['errors']}, capped {summary['capped']}"
            + (f" (at the turn cap of {summary['max_turns']})" if "max_turns" in summary else "") + ".</p>")


def render_html(summary: dict[str, Any], figures: Sequence[Path]) -> str:
    """index.html for a balance summary and its figures (embedded)."""
    b = summary["balance"]
    img = {p.name: _image(p) for p in figures}
    h = b["heroes"]
    parts = [_heading(summary), "<h2>Win rate by role</h2>",
             table("roles", ["role", "won", "games", "win rate", "95% interval"],
                   [[role, *_rate_cells(r)] for role, r in b["roles"].items()]), img.get("roles.png", ""),
             f"<h2>Win rate by hero, adjusted for {h['strata'].replace('+', ' and ')}</h2>", _hero_note(h), _hero_table("heroes", h["heroes"]),
             img.get("heroes.png", ""), "<h2>By role</h2>",
             f"<p class='note'>Each hero against the other heroes of the same role; flagged as above, the "
             f"correction over all {h.get('by_role_tested', 0)} hero-role rows tested.</p>"]
    for role, t in h["by_role"].items():
        parts += [f"<h3>{html.escape(role)} (mean {pct(t['mean'])})</h3>", _role_table(f"heroes-{role}", t["heroes"])]
    parts += [img.get("heroes_by_role.png", ""), "<h2>Skills</h2>",
              "<p class='note'>Win rate of the seats whose hero holds the skill, in games where it fired "
              "and where it did not; p: two-sided pooled two-proportion z-test, q: p corrected by "
              f"Benjamini–Hochberg over the {_tested(b['skills'])} skills tested (significant when q ≤ {ALPHA}); "
              f"a side with fewer than {MIN_SAMPLE} seats is not tested. <em>never fired</em>: held by some "
              "seat but never fired (no win rate, not 0%); <em>never dealt</em>: no seat held it.</p>",
              _skill_table(b["skills"]), img.get("skills.png", ""), "<h2>Game length</h2>",
              table("turns", ["turns", "mean", "median", "min", "max"],
                    [["turns", summary["turns"]["mean"], summary["turns"]["median"], summary["turns"]["min"],
                      summary["turns"]["max"]]]), img.get("turns.png", "")]
    return page(f"balance: {summary['ruleset']}", "\n".join(parts))


def _tested(rows: dict[str, Any]) -> int:
    return sum(r["test"] is not None for r in rows.values())


def _hero_note(h: dict[str, Any]) -> str:
    by = h["strata"].replace("+", " and ")
    return (f"<p class='note'>Each of a hero's seats is compared with the other heroes' seats of the same {by}: "
            f"expected wins are what they won from the same seats; excess = (won − expected) / seats, in "
            f"points; adjusted win rate = the mean win rate of a seat ({pct(h['mean'])}) + excess. p: stratified "
            f"score test of the excess; q: p corrected by Benjamini–Hochberg over the {h['tested']} heroes "
            f"tested (flagged when q ≤ {ALPHA}: green above, red below). A hero with fewer than {MIN_SAMPLE} "
            "seats compared is not tested; one alone in its strata has no estimate (n/a). The raw win rate "
            "mixes roles: a lord candidate's is mostly the lord side's.</p>")


def page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{CSS}</style></head><body>\n{body}\n</body></html>\n")


def write_report(summary: dict[str, Any], out: Path, script: str = "hant") -> list[Path]:
    """summary.json, the figures and index.html in ``out`` (created), each written whole or not
    at all (files.write_atomic); the paths written. The figures and the page are in `script`
    (sgs_dsl/scripts.py), summary.json in the library's own."""
    from ..scripts import data_in_script

    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / "summary.json", (json.dumps(summary, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    shown = data_in_script(summary, script)
    figures = write_figures(shown, out)
    write_atomic(out / "index.html", render_html(shown, figures).encode("utf-8"))
    return [out / "summary.json", *figures, out / "index.html"]
