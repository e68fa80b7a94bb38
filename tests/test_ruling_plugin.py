"""The pytest plugin for ruling files (run through pytester, in a subprocess, as a designer
would run pytest) and the `sgs ruling` command."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "rulings" / "basics.ruling"

DODGE = """\
ruling "殺被閃抵消" {
  source "seed 000 基本牌：閃";
  seat 1 lord hp 4/4 hand [殺 ♠7];
  seat 2 rebel hp 4/4 hand [閃 ♦2];
  phase 1 play;
  script {
    1 uses 殺 ♠7 on 2;
    2 answers "使用【閃】♦2";
    1 ends;
  }
  expect { seat 2 hp 4; }
}

ruling "桃回復一點體力" {
  source "seed 000 基本牌：桃";
  seat 1 lord hp 2/4 hand [桃 ♥3];
  seat 2 rebel;
  phase 1 play;
  script {
    1 uses 桃 ♥3;
    1 ends;
  }
  expect { seat 1 hp 3; }
}
"""

# Seat 2 holds a 閃 and will be asked whether to use it; the script does not say.
UNANSWERED = """\
ruling "沒有回答的詢問" {
  source "test";
  seat 1 lord hp 4/4 hand [殺 ♠7];
  seat 2 rebel hp 4/4 hand [閃 ♦2];
  phase 1 play;
  script {
    1 uses 殺 ♠7 on 2;
  }
}
"""

BAD = """\
ruling "壞的" {
  source "test";
  seat 1 lord hand [殺殺 ♠7];
  seat 2 rebel;
  phase 1 play;
}
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    # The inner pytest is a session of its own: under pytest-xdist (-n) it must not read the
    # worker's variables and take itself for a worker (syrupy then keeps unused snapshots).
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    pytester.makeini("[pytest]\n")
    (pytester.path / "tests" / "rulings").mkdir(parents=True)
    return pytester


def write(pytester: pytest.Pytester, name: str, text: str) -> Path:
    path = pytester.path / "tests" / "rulings" / name
    path.write_text(text, encoding="utf-8")
    return path


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # A subprocess: a fresh pytest, its plugins found through their entry points.
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


def snapshot_file(pytester: pytest.Pytester, stem: str) -> Path:
    return pytester.path / "tests" / "rulings" / "__snapshots__" / f"{stem}.ambr"


def test_rulings_are_collected_one_item_per_title(project):
    write(project, "cards.ruling", DODGE)
    (project.path / "tests" / "elsewhere.ruling").write_text(DODGE, encoding="utf-8")  # not in rulings/
    result = run(project, "--collect-only", "-q")
    result.stdout.fnmatch_lines(["tests/rulings/cards.ruling::殺被閃抵消", "tests/rulings/cards.ruling::桃回復一點體力"])
    assert "elsewhere" not in result.stdout.str()


def test_a_ruling_file_named_on_the_command_line_is_collected_anywhere(project):
    path = project.path / "mine.ruling"
    path.write_text(DODGE, encoding="utf-8")
    result = run(project, str(path), "--snapshot-update")
    result.assert_outcomes(passed=2)
    assert (project.path / "__snapshots__" / "mine.ambr").is_file()


def test_good_rulings_fail_without_snapshots_pass_after_snapshot_update_then_plainly(project):
    write(project, "cards.ruling", DODGE)
    result = run(project)  # a missing snapshot fails, as in syrupy
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*no snapshot of this trace in tests/rulings/__snapshots__/cards.ambr*"])

    run(project, "--snapshot-update").assert_outcomes(passed=2)
    stored = snapshot_file(project, "cards").read_text(encoding="utf-8")
    # One snapshot file for the ruling file, one entry per ruling, one line per trace line.
    assert "# name: 殺被閃抵消" in stored and "# name: 桃回復一點體力" in stored
    assert "\n    〔詢問〕2號位無將(男)：【殺】♠7：是否使用【閃】？［使用【閃】♦2／不使用］→ 使用【閃】♦2\n" in stored
    result = run(project)
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*2 snapshots passed*"])


def test_changing_one_line_of_a_stored_trace_fails_with_a_diff_of_that_line(project):
    write(project, "cards.ruling", DODGE)
    run(project, "--snapshot-update").assert_outcomes(passed=2)
    path = snapshot_file(project, "cards")
    text = path.read_text(encoding="utf-8")
    old = "→ 使用【閃】♦2\n"
    assert text.count(old) == 1
    path.write_text(text.replace(old, "→ 不使用\n"), encoding="utf-8")

    result = run(project)
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    expected = [
        "the trace differs from its snapshot (tests/rulings/__snapshots__/cards.ambr)",
        "ruling: 殺被閃抵消 (tests/rulings/cards.ruling:1)",
        "  [- snapshot] [+ this run]",
        "  -   〔詢問〕2號位無將(男)：【殺】♠7：是否使用【閃】？［使用【閃】♦2／不使用］→ 不使用",
        "  +   〔詢問〕2號位無將(男)：【殺】♠7：是否使用【閃】？［使用【閃】♦2／不使用］→ 使用【閃】♦2",
    ]
    lines = out.splitlines()
    positions = [lines.index(line) for line in expected]
    assert positions == sorted(positions), out
    assert positions[-1] == positions[-2] + 1
    # Only that line is marked; no traceback. (Under CI=true pytest repeats whole failure
    # messages in its short summary, so count in the failure report only.)
    report = out.split("short test summary info")[0]
    assert sum(line.startswith(("  - ", "  + ")) for line in report.splitlines()) == 2
    assert "Traceback" not in out and "plugin.py" not in out

    run(project, "--snapshot-update").assert_outcomes(passed=2)
    assert path.read_text(encoding="utf-8") == text


def test_an_unanswered_question_fails_with_the_question_and_its_candidates(project):
    write(project, "q.ruling", UNANSWERED)
    result = run(project, "--snapshot-update")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "【殺】♠7：是否使用【閃】？" in out
    assert "使用【閃】♦2, 不使用" in out  # the legal candidates
    assert "ruling: 沒有回答的詢問 (tests/rulings/q.ruling:1)" in out
    assert "Traceback" not in out
    # The trace of a failing ruling is shown, and not recorded as its snapshot.
    assert not snapshot_file(project, "q").exists()


def test_a_ruling_file_that_does_not_load_fails_with_file_line_column(project):
    write(project, "bad.ruling", BAD)
    result = run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*tests/rulings/bad.ruling:3:21: error: unknown card '殺殺'*",
        "*hint: did you mean '殺'?*",
    ])
    assert "FAILED tests/rulings/bad.ruling::load_error" in result.stdout.str()
    assert "Traceback" not in result.stdout.str()


def test_snapshots_survive_a_file_that_stops_loading_and_go_with_a_removed_ruling(project):
    path = write(project, "cards.ruling", DODGE)
    run(project, "--snapshot-update").assert_outcomes(passed=2)
    stored = snapshot_file(project, "cards")
    before = stored.read_text(encoding="utf-8")

    path.write_text(DODGE.replace("[桃 ♥3]", "[桃桃 ♥3]"), encoding="utf-8")
    run(project, "--snapshot-update").assert_outcomes(failed=1)
    assert stored.read_text(encoding="utf-8") == before  # not deleted as unused

    path.write_text(DODGE.split('ruling "桃回復一點體力"')[0], encoding="utf-8")
    result = run(project)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*1 snapshot unused*"])
    result = run(project, "--snapshot-update")
    result.stdout.fnmatch_lines(["*1 unused snapshot deleted*"])
    assert "桃回復一點體力" not in stored.read_text(encoding="utf-8")


def test_under_xdist_a_removed_rulings_snapshot_still_fails_the_run_as_unused(project):
    # The README's test command runs on every core (-n auto): the rulings' snapshots must be
    # compared, and a stale one reported, as in one process.
    path = write(project, "cards.ruling", DODGE)
    run(project, "--snapshot-update").assert_outcomes(passed=2)
    path.write_text(DODGE.split('ruling "桃回復一點體力"')[0], encoding="utf-8")
    result = run(project, "-n", "2")
    result.assert_outcomes(passed=1)  # the kept ruling compared with its snapshot on a worker
    result.stdout.fnmatch_lines(["*1 snapshot unused*"])
    assert result.ret != 0


# --- sgs ruling --------------------------------------------------------------------------------


def invoke(*args: str):
    return CliRunner().invoke(main, ["ruling", *args])


def test_sgs_ruling_prints_title_source_trace_and_result():
    result = invoke(str(EXAMPLE))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "== 殺被閃抵消 ==" in out
    assert "source: seed 000 基本牌：閃（抵消此【殺】）" in out
    assert "  1號位無將(男)使用【殺】♠7，目標：2號位無將(男)" in out
    assert "〔詢問〕2號位無將(男)：【殺】♠7：是否使用【閃】？［使用【閃】♦2／不使用］→ 使用【閃】♦2" in out
    assert out.count("PASS") == 3
    assert out.rstrip().endswith("3 passed, 0 failed")


def test_sgs_ruling_name_runs_one_ruling():
    result = invoke(str(EXAMPLE), "--name", "桃回復一點體力")
    assert result.exit_code == 0, result.output
    assert "== 桃回復一點體力 ==" in result.output
    assert "殺被閃抵消" not in result.output


def test_sgs_ruling_unknown_name_suggests_the_near_title():
    result = invoke(str(EXAMPLE), "--name", "殺被閃低消")
    assert result.exit_code == 2
    assert "no ruling titled '殺被閃低消'" in result.output
    assert "did you mean '殺被閃抵消'?" in result.output
    assert "Traceback" not in result.output


def test_sgs_ruling_failing_ruling_exits_1_with_its_failures(tmp_path):
    path = tmp_path / "q.ruling"
    path.write_text(UNANSWERED, encoding="utf-8")
    result = invoke(str(path))
    assert result.exit_code == 1
    assert "FAIL: 1 failure" in result.output
    assert "使用【閃】♦2, 不使用" in result.output
    assert "0 passed, 1 failed" in result.output


def test_sgs_ruling_bad_file_shows_diagnostics_without_traceback(tmp_path):
    path = tmp_path / "bad.ruling"
    path.write_text(BAD, encoding="utf-8")
    result = invoke(str(path))
    assert result.exit_code == 1
    assert f"{path}:3:21: error: unknown card '殺殺'" in result.output
    assert "Traceback" not in result.output


def test_sgs_rulings_library_loads_your_own_cards(project):
    shutil.copy(REPO / "examples" / "custom_card.sgs", project.path / "my_cards.sgs")
    project.makeini("[pytest]\nsgs_rulings_library = my_cards.sgs\n")
    write(project, "mine.ruling", CUSTOM)
    result = run(project, "--snapshot-update")
    result.assert_outcomes(passed=1)
    assert "【火燒連營】♥3" in snapshot_file(project, "mine").read_text(encoding="utf-8")


CUSTOM = """\
ruling "火燒連營：沒有閃，受到火焰傷害" {
  source "examples/custom_card.sgs";
  ruleset fire_drill;
  seat 1 lord hand [火燒連營 ♥3];
  seat 2 rebel equip [絕影 ♠5];
  phase 1 play;
  script {
    1 uses 火燒連營 ♥3;
    1 ends;
  }
  expect { seat 2 hp 3; }
}
"""


# --- docs/rulings.md stays true ------------------------------------------------------------------

DOC = (REPO / "docs" / "rulings.md").read_text(encoding="utf-8")


def test_the_doc_shows_every_keyword_of_the_ruling_grammar():
    grammar = (REPO / "grammar" / "ruling.lark").read_text(encoding="utf-8")
    keywords = set(re.findall(r'"([a-z]+)"', grammar))
    assert {"ruling", "seat", "script", "expect"} <= keywords
    for word in sorted(keywords):
        assert re.search(rf"`[^`\n]*\b{word}\b[^`\n]*`", DOC), f"`{word}` is not shown in docs/rulings.md"


def test_the_error_output_in_the_doc_is_real(tmp_path, monkeypatch):
    from sgs_dsl.rulings.parser import load_rulings
    from sgs_dsl.syntax.diagnostics import SgsError

    block = re.search(r"^```\n(bad\.ruling:3:21: .*?)^```$", DOC, flags=re.S | re.M)
    assert block, "the pasted errors of bad.ruling are missing from docs/rulings.md"
    monkeypatch.chdir(tmp_path)
    Path("bad.ruling").write_text(BAD.replace("phase 1 play;", "phase 1 paly;"), encoding="utf-8")
    with pytest.raises(SgsError) as error:
        load_rulings(Path("bad.ruling"))
    assert error.value.render() == block.group(1).rstrip("\n")
