"""The `sgs` command line, through click's CliRunner (and one real subprocess)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgs_dsl import cli
from sgs_dsl.cli import main

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
STANDARD_TSV = HERE / "data" / "cards_standard.tsv"  # a copy of shared/data/cards_standard.tsv


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def assert_clean_failure(result, code: int):
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def _library():
    from sgs_dsl.compiler.library import load_library

    return load_library()


# --- start-up ------------------------------------------------------------------------------------


def test_help_lists_every_command():
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("check", "run", "simulate", "cards", "rulesets", "windows", "ruling"):
        assert command in result.output


def test_importing_the_cli_does_not_load_the_engine():
    code = (
        "import sys, sgs_dsl.cli\n"
        "heavy = [m for m in ('lark', 'sgs_dsl.engine', 'sgs_dsl.compiler', 'sgs_dsl.game') if m in sys.modules]\n"
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --- argument validation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["simulate", "--players", "11"], "--players"),
        (["simulate", "--players", "1"], "--players"),
        (["simulate", "--games", "0"], "--games"),
        (["run", "--players", "eleven"], "--players"),
        (["simulate", "--jobs", "-1"], "--jobs"),
        (["check"], "PATHS"),
        (["check", "no/such/file.sgs"], "does not exist"),
        (["nosuchcommand"], "No such command"),
    ],
)
def test_bad_arguments_are_usage_errors(args, needle):
    result = invoke(*args)
    assert_clean_failure(result, 2)
    assert needle in result.output


def test_unknown_ruleset_suggests_the_nearest():
    lib = _library()
    name = lib.default_ruleset
    typo = name[:-1] + ("x" if name[-1] != "x" else "y")
    for command in ("run", "simulate", "cards"):
        result = invoke(command, "--ruleset", typo)
        assert_clean_failure(result, 2)
        assert f"unknown ruleset '{typo}'; did you mean '{name}'?" in result.output
        for known in lib.rulesets:
            assert known in result.output


def test_unknown_ruleset_without_a_near_name():
    result = invoke("cards", "--ruleset", "zzzzzzzzzz")
    assert_clean_failure(result, 2)
    assert "unknown ruleset 'zzzzzzzzzz'" in result.output
    assert "Known rulesets:" in result.output


def test_internal_errors_are_one_line(monkeypatch):
    def boom(*_a, **_k):
        raise RuntimeError("kaboom\nsecond line")

    monkeypatch.setattr(cli, "_load_library", boom)
    monkeypatch.delenv("SGS_DEBUG", raising=False)
    result = invoke("rulesets")
    assert_clean_failure(result, cli.EXIT_INTERNAL)
    assert "internal error: RuntimeError: kaboom" in result.output
    assert "second line" not in result.output
    assert "report" in result.output


def test_sgs_errors_are_rendered_with_exit_1(monkeypatch):
    from sgs_dsl.syntax.diagnostics import Diagnostic, SgsError, Span

    def bad(*_a, **_k):
        span = Span("x.sgs", 3, 5, 9)
        raise SgsError([Diagnostic(span, "unknown window 'damged'", "did you mean 'damaged'?", "on damged(you)")])

    monkeypatch.setattr(cli, "_load_library", bad)
    result = invoke("cards")
    assert_clean_failure(result, 1)
    assert "x.sgs:3:5: error: unknown window 'damged'" in result.output
    assert "did you mean 'damaged'?" in result.output


# --- rulesets and cards ------------------------------------------------------------------------


def test_rulesets_marks_the_default():
    lib = _library()
    result = invoke("rulesets")
    assert result.exit_code == 0, result.output
    for name in lib.rulesets:
        assert name in result.output
    default_line = [ln for ln in result.output.splitlines() if ln.startswith("*")]
    assert len(default_line) == 1 and lib.default_ruleset in default_line[0]
    data = json.loads(invoke("rulesets", "--json").output)
    assert [r["name"] for r in data if r["default"]] == [lib.default_ruleset]


def _standard_ruleset() -> str:
    """The ruleset whose deck is the 108-card standard deck ('basic' if it exists)."""
    lib = _library()
    if "basic" in lib.rulesets:
        return "basic"
    for name in sorted(lib.rulesets):
        if len(lib.deck_cards(name)) == 108:
            return name
    pytest.fail(f"no ruleset with the 108-card standard deck among {sorted(lib.rulesets)}")


# The data file's type names where the .sgs language (and so `sgs cards`) spells them differently.
TSV_TYPE_IN_LANGUAGE = {"delayed_trick": "delayed"}


def _expected_standard_deck() -> list[tuple]:
    with open(STANDARD_TSV, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return sorted(
        (r["name_zh_hant"], r["id"], r["suit"], int(r["rank"]), TSV_TYPE_IN_LANGUAGE.get(r["type"], r["type"]))
        for r in rows
    )


def test_cards_json_is_the_standard_deck():
    result = invoke("cards", "--ruleset", _standard_ruleset(), "--json")
    assert result.exit_code == 0, result.output
    cards = json.loads(result.stdout)
    assert len(cards) == 108
    assert all(set(c) == {"name", "id", "suit", "rank", "type"} for c in cards)
    got = sorted((c["name"], c["id"], c["suit"], c["rank"], c["type"]) for c in cards)
    assert got == _expected_standard_deck()


def test_cards_table():
    result = invoke("cards", "--ruleset", _standard_ruleset())
    assert result.exit_code == 0, result.output
    assert "108 cards" in result.output
    assert "♠" in result.output and "♦" in result.output


# --- check ---------------------------------------------------------------------------------------


def test_check_builtin_library_is_clean():
    folders = [REPO / d for d in ("cards", "heroes") if (REPO / d).is_dir()]
    result = invoke("check", *map(str, folders))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ok: ")


def test_check_bad_file_points_at_the_place(tmp_path):
    bad = tmp_path / "bad.sgs"
    bad.write_text("card 壞牌 huaipai basic {\n  ??? this is not the language\n}\n", encoding="utf-8")
    result = invoke("check", str(bad))
    assert_clean_failure(result, 1)
    assert f"{bad}:2:" in result.stderr
    assert "^" in result.stderr
    assert "ok:" not in result.stdout


def test_check_counts_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "empty.sgs").write_text("", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not sgs", encoding="utf-8")
    result = invoke("check", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "ok: 1 file"


# --- run -----------------------------------------------------------------------------------------


def test_run_is_deterministic():
    first = invoke("run", "--seed", "3")
    second = invoke("run", "--seed", "3")
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    assert len(lines) > 3
    assert lines[0].startswith("# ruleset ") and "seed 3" in lines[0]
    assert lines[-1].startswith("winner: ")


def test_run_other_seed_differs():
    assert invoke("run", "--seed", "3").stdout != invoke("run", "--seed", "4").stdout


# --- windows ---------------------------------------------------------------------------------------


def test_windows_table():
    from sgs_dsl.core.windows import WINDOWS

    result = invoke("windows")
    assert result.exit_code == 0, result.output
    for w in WINDOWS:
        assert w.id in result.output


def test_docs_windows_md_is_generated():
    result = invoke("windows", "--markdown")
    assert result.exit_code == 0, result.output
    committed = (REPO / "docs" / "windows.md").read_text(encoding="utf-8")
    assert committed == result.stdout, "docs/windows.md is stale: run `sgs windows --markdown > docs/windows.md`"


# --- extra library files ---------------------------------------------------------------------------

EXTRA = """
card 測試牌 ceshi_pai basic "出牌階段，對你使用。你摸一張牌。" {
  use play: self;
  effect { draw(target, 1); }
}

deck ceshi "一張測試牌" {
  測試牌 ♠A;
}

ruleset ceshi "標準版加一張測試牌" {
  mode identity;
  decks standard, ex, ceshi;
}
"""


def test_library_option_adds_cards_and_rulesets(tmp_path):
    (tmp_path / "extra.sgs").write_text(EXTRA, encoding="utf-8")
    result = invoke("cards", "--library", str(tmp_path), "--ruleset", "ceshi", "--json")
    assert result.exit_code == 0, result.output
    cards = json.loads(result.stdout)
    assert len(cards) == 109
    assert {"name": "測試牌", "id": "ceshi_pai", "suit": "spade", "rank": 1, "type": "basic"} in cards
    assert "ceshi" in invoke("rulesets", "-L", str(tmp_path)).output
    sim = invoke("simulate", "-q", "-L", str(tmp_path / "extra.sgs"), "-r", "ceshi", "-g", "4", "-j", "2")
    assert sim.exit_code == 0, sim.output
    assert "errors: 0" in sim.stdout


def test_library_option_with_bad_text_exits_1(tmp_path):
    bad = tmp_path / "bad.sgs"
    bad.write_text(EXTRA.replace("draw(target, 1)", "drow(target, 1)"), encoding="utf-8")
    result = invoke("run", "--library", str(bad), "--seed", "1")
    assert_clean_failure(result, 1)
    assert f"{bad}:4:" in result.stderr
    assert "did you mean 'draw'?" in result.stderr


# --- the turn cap reported -------------------------------------------------------------------------

SHORT = 'ruleset short "兩回合" { mode identity; decks standard, ex; heroes standard; max_turns 2; }\n'


@pytest.fixture
def short(tmp_path) -> Path:
    """A ruleset that caps its games at 2 turns, far below --max-turns' default of 600."""
    path = tmp_path / "short.sgs"
    path.write_text(SHORT, encoding="utf-8")
    return path


@pytest.mark.parametrize("extra, cap", [((), 2), (("--max-turns", "1"), 1), (("--max-turns", "5"), 2)])
def test_run_reports_the_turn_cap_it_applied(short, extra, cap):
    result = invoke("run", "-r", "short", "--library", str(short), "-s", "1", *extra)
    assert result.exit_code == 0, result.output
    assert f"(turn cap of {cap} reached)) after {cap} turns" in result.output
    assert "600" not in result.output.splitlines()[-1]


@pytest.mark.parametrize("extra, cap", [((), 2), (("--max-turns", "1"), 1)])
def test_simulate_reports_the_turn_cap_it_applied_in_text_and_json(short, tmp_path, extra, cap):
    out = tmp_path / "report.json"
    result = invoke("simulate", "-r", "short", "--library", str(short), "-g", "3", "-q", "--json", str(out), *extra)
    assert result.exit_code == 0, result.output
    assert f"capped games: 3 (at the turn cap of {cap})" in result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert (report["max_turns"], report["capped"], report["turns"]["max"]) == (cap, 3, cap)


def test_balance_reports_the_turn_cap_it_applied(short, tmp_path):
    out = tmp_path / "report"
    result = invoke("balance", "-q", "-r", "short", "--library", str(short), "-g", "4", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["max_turns"] == 2
    assert "capped 4 (at the turn cap of 2)." in (out / "index.html").read_text(encoding="utf-8")
