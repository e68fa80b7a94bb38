"""`sgs balance`: the numbers (roles, heroes adjusted for role, skills against winning, game
length), the report on disk (summary.json, index.html holding the same numbers, the PNG
figures) and `--compare` of two runs with the two-proportion z-test."""

from __future__ import annotations

import json
import struct
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.sim.balance import by_hero, by_role, by_skill, turn_histogram, two_proportion_test
from sgs_dsl.sim.batch import GameRecord
from sgs_dsl.sim.compare import compare, format_comparison, render_comparison
from sgs_dsl.sim.report import FIGURES, PLOTTED, ci, pct
from sgs_dsl.sim.stats import strip_timing

PNG = b"\x89PNG\r\n\x1a\n"


def _game(i: int, winner: str, heroes: tuple[str, ...], fired: tuple[tuple[str, int], ...] = (),
          turns: int = 10) -> GameRecord:
    return GameRecord(index=i, seed=i, winner=winner, turns=turns, roles=("lord", "rebel", "renegade"),
                      heroes=heroes, fired=fired)


def test_two_proportion_test_matches_the_formula():
    t = two_proportion_test(60, 100, 40, 100)  # pooled 0.5: se = sqrt(0.25 * 0.02)
    assert t["z"] == pytest.approx(2.8284, abs=1e-4) and t["p"] == pytest.approx(0.004678, abs=1e-6)
    assert t["significant"]
    assert not two_proportion_test(52, 100, 48, 100)["significant"]
    assert two_proportion_test(0, 0, 3, 4) == {"z": 0.0, "p": 1.0, "significant": False}
    assert two_proportion_test(5, 5, 7, 7)["p"] == 1.0  # no variance: nothing to tell apart


def test_roles_count_the_games_each_side_won():
    records = [_game(0, "lord", ()), _game(1, "rebel", ()), _game(2, "rebel", ())]
    roles = by_role(records, "identity")
    assert roles["rebel"]["wins"] == 2 and roles["rebel"]["games"] == 3
    assert roles["lord"]["wins"] == 1 and roles["renegade"]["wins"] == 0


def test_a_hero_alone_in_its_role_is_not_flagged_whatever_its_raw_rate():
    # A wins every game as rebel, C never does: 40 games each. The raw rates are far off the
    # mean, but each hero is the only one of its role: nothing tells the hero from the role.
    records = [_game(i, "rebel", ("B", "A", "C")) for i in range(40)]
    heroes = by_hero(records, "identity")
    assert heroes["mean"] == pytest.approx(1 / 3, abs=1e-6)
    assert [(h, r["rate"]) for h, r in heroes["heroes"].items()] == [("A", 1.0), ("B", 0.0), ("C", 0.0)]
    assert all(r["excess"] is None and r["test"] is None and r["flag"] == "" for r in heroes["heroes"].values())
    assert heroes["tested"] == 0 and heroes["by_role"]["rebel"]["heroes"]["A"]["flag"] == ""


def test_skills_compare_the_holders_win_rate_when_fired_and_not():
    records = [_game(i, "rebel", ("B", "A", "C"), (("s", 1),) if i % 2 else ()) for i in range(80)]
    records += [_game(80 + i, "lord", ("B", "A", "C")) for i in range(40)]
    skills = by_skill(records, {"A": ["s"], "B": ["t"]}, "identity")
    s = skills["s"]
    assert s["fired"] == 40 and s["games"] == 40 and s["held"] == 120 and not s["never_fired"]
    assert (s["when_fired"]["wins"], s["when_fired"]["seats"]) == (40, 40)
    assert (s["when_not"]["wins"], s["when_not"]["seats"]) == (40, 80)
    assert s["test"]["significant"] and s["test"]["q"] == s["test"]["p"]  # a family of one test
    t = skills["t"]  # held by every lord seat, never fired: no win rate "when fired", and no test
    assert t["fired"] == 0 and t["never_fired"] and t["when_not"]["seats"] == 120
    assert t["when_fired"] == {"seats": 0, "wins": 0, "rate": None, "ci95": None} and t["test"] is None


def test_turn_histogram_counts_games_by_length():
    records = [_game(i, "lord", (), turns=t) for i, t in enumerate([12, 7, 12, 30])]
    assert turn_histogram(records) == {"7": 1, "12": 2, "30": 1}


# --- the report on disk ----------------------------------------------------------------------


class Tables(HTMLParser):
    """The cells of each <table id=...>, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.images: list[str] = []
        self._table: list[list[str]] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._table = self.tables.setdefault(a["id"], [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "img":
            self.images.append(a["src"])

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self._table[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _balance(out, *args, code=0):
    result = CliRunner().invoke(main, ["balance", "-q", "--out", str(out), *args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("balance") / "report"
    result = _balance(out, "-r", "standard", "-p", "5", "-g", "16", "-s", "3", "--agent", "lord=heuristic",
                      "--invariants", "turn")
    assert f"report: {out / 'index.html'}" in result.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    parser = Tables()
    parser.feed((out / "index.html").read_text(encoding="utf-8"))
    return out, summary, parser


def test_balance_writes_the_summary_the_page_and_the_figures(report):
    out, summary, parser = report
    assert summary["games"] == 16 and summary["agents"]["spec"]["roles"] == {"lord": "heuristic"}
    assert summary["invariants"] == "turn"  # the level the games were checked at, on the page too
    assert "invariants checked after each turn and at the end only; errors 0" in (out / "index.html").read_text("utf-8")
    assert set(summary["balance"]) == {"roles", "heroes", "skills", "turn_histogram", "ids"}
    assert summary["balance"]["ids"]["曹操"] == "caocao"  # the figures' labels without a CJK font
    for name in FIGURES:
        data = (out / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 2000, name
    assert len(parser.images) == len(FIGURES)  # embedded: the page stands alone
    assert all(src.startswith("data:image/png;base64,") for src in parser.images)


def _png_text(data: bytes) -> dict[str, str]:
    """The tEXt chunks of a PNG: keyword -> text."""
    chunks, at = {}, len(PNG)
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"tEXt":
            key, _, text = data[at + 8:at + 8 + length].partition(b"\0")
            chunks[key.decode("latin-1")] = text.decode("latin-1")
        at += 12 + length
    return chunks


def test_the_figures_plot_the_numbers_of_the_summary(report):
    out, summary, _ = report
    b = summary["balance"]
    plotted = {name: json.loads(_png_text((out / name).read_bytes())[PLOTTED]) for name in FIGURES}
    assert plotted["roles.png"] == {role: 100 * r["rate"] for role, r in b["roles"].items()}
    assert plotted["heroes.png"]["heroes"] == {  # the headline: the win rate adjusted for role
        h: None if r["adjusted_rate"] is None else 100 * r["adjusted_rate"] for h, r in b["heroes"]["heroes"].items()}
    assert plotted["heroes.png"]["mean"] == 100 * b["heroes"]["mean"]
    by_role = {role: {h: 100 * r["rate"] for h, r in t["heroes"].items()} for role, t in b["heroes"]["by_role"].items()}
    assert plotted["heroes_by_role.png"] == by_role
    assert {k: v["fired"] for k, v in plotted["skills.png"].items()} == {k: v["fired"] for k, v in b["skills"].items()}
    assert plotted["turns.png"] == b["turn_histogram"] and sum(b["turn_histogram"].values()) == summary["games"]


def _body(parser, table_id):
    return {row[0]: row[1:] for row in parser.tables[table_id][1:]}


def test_the_page_holds_the_numbers_of_the_summary(report):
    _, summary, parser = report
    b = summary["balance"]
    roles = _body(parser, "roles")
    assert set(roles) == set(b["roles"])
    for role, row in b["roles"].items():
        assert roles[role] == [str(row["wins"]), str(row["games"]), pct(row["rate"]), ci(row)]
    heroes = _body(parser, "heroes")
    assert len(heroes) == len(b["heroes"]["heroes"])
    for i, (hero, row) in enumerate(b["heroes"]["heroes"].items()):
        cells = heroes[f"#{i + 1} {hero}"]
        assert cells[:4] == [str(row["wins"]), str(row["games"]), pct(row["rate"]), ci(row)]
        assert cells[-1] == row["flag"]
        if row["adjusted_rate"] is not None:
            assert cells[4:8] == [f"{row['expected']:.1f}", f"{100 * row['excess']:+.1f}", cells[6],
                                  pct(row["adjusted_rate"])]
        else:
            assert cells[4:8] == ["n/a"] * 4
    for role, table in b["heroes"]["by_role"].items():
        assert len(_body(parser, f"heroes-{role}")) == len(table["heroes"])
    skills = _body(parser, "skills")
    for i, (skill, row) in enumerate(b["skills"].items()):
        cells = skills[f"#{i + 1} {skill}"]
        assert cells[:2] == [str(row["fired"]), str(row["games"])]
        if row["never_fired"]:  # said in words, not a win rate of 0% over no seats
            assert cells[2:6] == ["never fired" if row["held"] else "never dealt", "0", "", ""]
        else:
            assert cells[2:4] == [str(row["when_fired"]["wins"]), str(row["when_fired"]["seats"])]
        assert cells[-3] == (f"{row['test']['p']:.4f}" if row["test"] else "n/a (< 30)")
    t = summary["turns"]
    assert _body(parser, "turns")["turns"] == [str(t["mean"]), str(t["median"]), str(t["min"]), str(t["max"])]
    assert sum(b["turn_histogram"].values()) == summary["valid_games"]


def test_balance_jobs_2_equals_jobs_1(tmp_path):
    args = ["-p", "5", "-g", "8", "-s", "5", "--agents", "heuristic", "--agent", "rebel=random"]
    _balance(tmp_path / "one", *args, "--jobs", "1")
    _balance(tmp_path / "two", *args, "--jobs", "2")
    one, two = (json.loads((tmp_path / d / "summary.json").read_text(encoding="utf-8")) for d in ("one", "two"))
    assert one["agents"]["by_role"]["rebel"] == {"random": 16}
    assert strip_timing(one) == strip_timing(two)
    for name in ("index.html", *FIGURES):  # the page and figures hold no timing: byte for byte the same
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name


def test_balance_needs_an_out_folder_and_matplotlib(tmp_path, monkeypatch):
    result = CliRunner().invoke(main, ["balance", "-g", "2"])
    assert result.exit_code == 2 and "--out DIR is needed" in result.output
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert "is a file" in CliRunner().invoke(main, ["balance", "-g", "2", "--out", str(tmp_path / "file")]).output
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    result = _balance(tmp_path / "r", "-g", "2", code=2)
    assert "pip install '.[report]'" in result.output
    assert not (tmp_path / "r").exists()  # said before any game was played


# --- --compare ----------------------------------------------------------------------------------


def _run(lord_wins: int, games: int = 200, **extra) -> dict:
    return {"ruleset": "standard", "players": 5, "games": games, "seed": 0, "valid_games": games,
            "wins_by_side": {"lord": {"wins": lord_wins}, "rebel": {"wins": games - lord_wins}},
            "turns": {"mean": 30.0}, **extra}


def test_compare_tells_a_significant_difference_from_noise():
    c = compare(_run(80), _run(120, wins_by_hero={"A": {"wins": 3, "games": 9}}))
    lord = c["sides"]["lord"]
    assert lord["diff"] == pytest.approx(0.2) and lord["test"]["significant"]
    assert c["heroes"]["A"]["a"] is None and c["heroes"]["A"]["b"]["wins"] == 3
    assert not compare(_run(100), _run(104))["sides"]["lord"]["test"]["significant"]
    text = format_comparison(c)
    assert "two-proportion z-test" in text and "Benjamini–Hochberg" in text and "+20.0" in text and "*" in text
    assert c["heroes"]["A"]["test"] is None  # 9 games: too few to test


def test_a_name_one_run_lacks_or_a_count_of_no_games_is_not_shown_as_a_number():
    c = compare(_run(0, games=0, wins_by_hero={"B": {"wins": 0, "games": 0}}),
                _run(57, games=100, wins_by_hero={"A": {"wins": 3, "games": 9}, "B": {"wins": 1, "games": 2}}))
    lord, a, b = c["sides"]["lord"], c["heroes"]["A"], c["heroes"]["B"]
    assert lord["a"] == {"wins": 0, "n": 0, "rate": None} and lord["diff"] is None and lord["test"] is None
    assert a["a"] is None and a["diff"] is None and b["a"]["rate"] is None and b["diff"] is None
    assert c["turns_mean"] == {"a": None, "b": 30.0, "diff": None}  # no valid games: no mean length
    text = format_comparison(c)
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith("  ")}
    assert rows["lord"].split() == ["lord", "n/a", "(0/0)", "57.0%", "(57/100)", "n/a"]
    assert rows["A"].split() == ["A", "n/a", "(not", "in", "A)", "33.3%", "(3/9)", "n/a"]
    assert "0.0% (0/0)" not in text and "+57.0" not in text and "p=" not in text
    assert text.splitlines()[-1] == "mean turns: A n/a, B 30.0, difference n/a"
    page = render_comparison(c)
    assert "n/a (not in this run)" in page and "<td>0.0%</td>" not in page


def test_compare_on_the_command_line(tmp_path, report):
    out, summary, _ = report
    other = tmp_path / "b.json"
    other.write_text(json.dumps(_run(2, games=16)), encoding="utf-8")
    result = CliRunner().invoke(main, ["balance", "--compare", str(out / "summary.json"), str(other),
                                       "--out", str(tmp_path / "cmp")])
    assert result.exit_code == 0, result.output
    c = json.loads((tmp_path / "cmp" / "compare.json").read_text(encoding="utf-8"))
    lord = summary["wins_by_side"]["lord"]
    assert c["sides"]["lord"]["a"]["wins"] == lord["wins"] and c["sides"]["lord"]["b"]["wins"] == 2
    assert "heuristic" in result.output.splitlines()[0]  # A's agents, in words
    parser = Tables()
    parser.feed((tmp_path / "cmp" / "compare.html").read_text(encoding="utf-8"))
    assert _body(parser, "cmp-sides")["lord"][0] == pct(c["sides"]["lord"]["a"]["rate"])


def test_compare_of_files_that_are_not_reports_is_bad_input(tmp_path):
    (tmp_path / "a.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / "b.txt").write_text("not json", encoding="utf-8")
    for bad in ("a.json", "b.txt"):
        result = CliRunner().invoke(main, ["balance", "--compare", str(tmp_path / bad), str(tmp_path / bad)])
        assert result.exit_code == 1 and "sgs simulate --json" in result.output
        assert "Traceback" not in result.output


def test_hegemony_records_both_generals_of_each_seat():
    from sgs_dsl.sim.batch import run_batch

    records = run_batch("hegemony", 4, 2, seed=1).records
    assert all(len(r.heroes) == 4 and all(len(h) == 2 for h in r.heroes) for r in records)
    heroes = by_hero(list(records), "hegemony")
    assert sum(row["games"] for row in heroes["heroes"].values()) == 2 * 4 * 2
