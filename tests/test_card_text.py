"""`sgs text`: skill text generated from the rules, and the structured check of the rules
against the quoted text (sgs_dsl/editor/cardtext.py, textcheck.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.editor import textcheck


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def entries() -> list[textcheck.Entry]:
    return textcheck.report(load_library())


def _write(tmp_path: Path, text: str) -> Path:
    # a new name for each text: the library of a set of paths is kept for the process
    path = tmp_path / f"designs{len(list(tmp_path.glob('*.sgs')))}.sgs"
    path.write_text(text, encoding="utf-8")
    return path


def _entry(tmp_path: Path, text: str, name: str) -> textcheck.Entry:
    library = load_library([_write(tmp_path, text)])
    (entry,) = textcheck.lookup(library, "skill", name)
    return entry


# ---------------------------------------------------------------- the built-in library

def test_the_report_covers_every_built_in_skill_and_card(entries) -> None:
    library = load_library()
    skills = {s.key for s in library.skills.values() if not s.from_card}
    cards = {c.key for c in library.cards.values()}
    assert {e.key for e in entries if e.kind == "skill"} == skills
    assert {e.key for e in entries if e.kind == "card"} == cards
    # a card's own skill (an equipment's) is read with its card
    assert all(s.from_card in cards for s in library.skills.values() if s.from_card)
    assert len(entries) == len(skills) + len(cards) > 250


def test_no_built_in_text_disagrees_with_its_rules_unless_the_file_says_why(entries) -> None:
    wrong = [f"{e.where}: {e.name}: {e.verdict}: " + "; ".join(f.render() for f in e.findings)
             for e in entries if e.failed]
    assert not wrong, "\n".join(wrong)
    marked = [e for e in entries if e.verdict == "marked"]
    assert marked and all(e.differs and e.findings for e in marked)


def test_the_scores_are_ratios_and_the_histogram_counts_each_entry(entries) -> None:
    assert all(0.0 <= e.score <= 1.0 for e in entries)
    rows = textcheck.histogram(entries)
    assert sum(s + c for _, s, c in rows) == len(entries)


# ---------------------------------------------------------------- constructed skills

AGREES = '''
skill 測試甲 ceshi_jia "當你受到傷害後，你可以摸兩張牌。" {
  on damaged optional when damage.target == you { draw(you, 2); }
}
'''


def test_a_skill_whose_rules_say_its_text_agrees(tmp_path) -> None:
    entry = _entry(tmp_path, AGREES, "測試甲")
    assert entry.verdict == "agrees" and not entry.findings
    assert set(entry.compared) >= {"moment", "optionality", "tags", "numbers"}
    assert entry.generated == "當你受到傷害後，你可以摸兩張牌。"
    assert entry.score == 1.0


@pytest.mark.parametrize(("rules", "fact"), [
    # quoted 可以, written without `optional`: forced
    ("on damaged when damage.target == you { draw(you, 2); }", "optionality"),
    # the other moment: after causing damage, not after taking it
    ("on caused_damage optional when damage.source == you { draw(you, 2); }", "moment"),
    # one card, not two
    ("on damaged optional when damage.target == you { draw(you, 1); }", "numbers"),
])
def test_a_skill_whose_rules_differ_from_its_quoted_text_fails_the_check(tmp_path, rules, fact) -> None:
    text = f'skill 測試乙 ceshi_yi "當你受到傷害後，你可以摸兩張牌。" {{\n  {rules}\n}}\n'
    entry = _entry(tmp_path, text, "測試乙")
    assert entry.failed and entry.verdict == "differs"
    assert [f.fact for f in entry.findings] == [fact]


def test_a_locked_text_written_optional_fails_and_names_both_sides(tmp_path) -> None:
    text = '''skill 測試丙 ceshi_bing "鎖定技，當你受到傷害後，你摸一張牌。" {
  on damaged optional when damage.target == you { draw(you, 1); }
}
'''
    entry = _entry(tmp_path, text, "測試丙")
    findings = {f.fact: f for f in entry.findings}
    assert sorted(findings) == ["optionality", "tags"]
    assert findings["optionality"].text == "forced" and findings["optionality"].rules == "optional"
    assert (findings["tags"].text, findings["tags"].rules) == ("locked", "none")


def test_a_limit_and_the_targets_are_checked(tmp_path) -> None:
    text = '''skill 測試丁 ceshi_ding "出牌階段限一次，你可以令一名其他角色摸一張牌。" {
  active when you.hand > 0 { draw(choose_player(you, players()), 1); }
}
'''
    entry = _entry(tmp_path, text, "測試丁")
    assert sorted(f.fact for f in entry.findings) == ["limit", "targets"]


def test_a_mark_lets_a_difference_pass_and_a_stale_mark_fails(tmp_path) -> None:
    text = '''skill 測試戊 ceshi_wu "當你受到傷害後，你可以摸兩張牌。" {
  differs "the printing is older than the rules";
  on damaged optional when damage.target == you { draw(you, 1); }
}
'''
    entry = _entry(tmp_path, text, "測試戊")
    assert entry.verdict == "marked" and not entry.failed
    assert entry.differs == "the printing is older than the rules"
    stale = _entry(tmp_path, text.replace("draw(you, 1)", "draw(you, 2)"), "測試戊")
    assert stale.verdict == "stale mark" and stale.failed


@pytest.mark.parametrize(("mark", "message"), [
    ("differs;", None),  # no value at all: not even a property
    ("differs 3;", "'differs' needs a reason"),
    ('differs "";', "'differs' needs a reason"),
    ('differs "a"; differs "b";', "'differs' is given twice"),
])
def test_a_mark_needs_one_reason(tmp_path, mark, message) -> None:
    path = _write(tmp_path, AGREES.replace("{\n  on", "{\n  " + mark + "\n  on"))
    diagnostics = [d for d in check_paths([path]) if d.severity == "error"]
    assert diagnostics and diagnostics[0].span.line == 3
    if message is not None:
        assert message in diagnostics[0].message


def test_a_card_may_carry_a_mark_too(tmp_path) -> None:
    text = '''card 測試牌 ceshi_pai trick "出牌階段，對一名其他角色使用。其摸兩張牌。" {
  differs "a test of the mark on a card";
  use play: one;
  effect { draw(target, 2); }
}
'''
    (entry,) = textcheck.lookup(load_library([_write(tmp_path, text)]), "card", "測試牌")
    assert entry.verdict == "marked"
    assert [(f.fact, f.text, f.rules) for f in entry.findings] == [("targets", "one_other", "one")]


# ---------------------------------------------------------------- the command

def test_sgs_text_skill_prints_a_draft_in_the_official_register(tmp_path) -> None:
    path = _write(tmp_path, '''skill 測試己 ceshi_ji "" {
  active once when you.hand > 0 {
    let p = choose_player(you, others(you));
    damage(p, 1);
    recover(you, 1);
  }
}
skill 測試庚 ceshi_geng locked "" {
  modify distance_to -= 1;
}
''')
    result = invoke("text", "--skill", "測試己", "-L", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "出牌階段限一次，你可以選擇一名其他角色，對其造成1點傷害，你回復1點體力。"
    result = invoke("text", "--skill", "ceshi_geng", "-L", str(path))
    assert result.output.strip() == "鎖定技，你計算與其他角色的距離-1。"


def test_sgs_text_card_and_report(tmp_path) -> None:
    path = _write(tmp_path, AGREES.replace("draw(you, 2)", "draw(you, 1)"))
    result = invoke("text", "--report", "--json", "-L", str(path))
    assert result.exit_code == 1  # the added skill disagrees
    rows = json.loads(result.output)
    (bad,) = [r for r in rows if r["verdict"] == "differs"]
    assert bad["name"] == "測試甲" and bad["findings"][0]["fact"] == "numbers"
    result = invoke("text", "--report")
    assert result.exit_code == 0, result.output
    assert "0 disagree" in result.output.splitlines()[-1]


@pytest.mark.parametrize("args", [("--skill", "沒有這個技能"), ("--card", "nonesuch"), (), ("--skill", "a", "--report")])
def test_sgs_text_refuses_a_bad_request_without_a_traceback(args) -> None:
    result = invoke("text", *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_the_histogram_in_docs_editor_md_is_the_reports(entries) -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "editor.md").read_text(encoding="utf-8")
    section = doc[doc.index("### Similarity of the built-in texts"):]
    rows = [line.split("|")[1:4] for line in section.splitlines() if line.startswith("| 0.") or line.startswith("| 1.")]
    written = [(a.strip(), int(b), int(c)) for a, b, c in rows]
    assert written == textcheck.histogram(entries), "update docs/editor.md from `sgs text --report`"


def test_sgs_text_on_a_broken_file_says_where_it_is_broken(tmp_path) -> None:
    path = _write(tmp_path, AGREES.replace("{\n  on", '{\n  differs "";\n  on'))
    result = invoke("text", "--skill", "測試甲", "-L", str(path))
    assert result.exit_code == 1
    assert f"{path}:3:3: error: 'differs' needs a reason" in result.output
    assert "Traceback" not in result.output
