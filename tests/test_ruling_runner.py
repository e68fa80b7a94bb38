"""The ruling runner is strict, and bad ruling files get located, helpful errors."""

from __future__ import annotations

import pytest

from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.runner import run_ruling
from sgs_dsl.syntax.diagnostics import SgsError

TABLE = """
ruling "t" {{
  source "seed 000 基本牌：閃";
  seat 1 lord hand [殺 ♠7];
  seat 2 rebel hand [閃 ♦2];
  phase 1 play;
  script {{ {script} }}
  expect {{ {expect} }}
}}
"""


def run(script: str, expect: str = ""):
    (ruling,) = parse_rulings(TABLE.format(script=script, expect=expect), "t.ruling")
    return run_ruling(ruling)


def test_a_complete_script_passes_and_its_trace_tells_the_story():
    result = run('1 uses 殺 ♠7 on 2; 2 answers "不使用"; 1 ends;', "seat 2 hp 3; discard [殺 ♠7];")
    assert result.passed, result.failures
    assert "1號位無將(男)對2號位無將(男)造成1點傷害（體力3/4）" in result.trace
    assert any("〔移動〕【殺】♠7：1號位無將(男)的手牌 → 處理區" in line for line in result.trace)
    assert any("〔時機〕受到傷害後" in line for line in result.trace)


def test_an_unanswered_question_names_the_question_and_its_candidates():
    result = run("1 uses 殺 ♠7 on 2;")
    (failure,) = result.failures
    assert failure.startswith("unanswered question to seat 2: '【殺】♠7：是否使用【閃】？'")
    assert "(candidates: 使用【閃】♦2, 不使用)" in failure


def test_an_answer_never_asked_for_fails():
    result = run('1 uses 殺 ♠7 on 2; 2 answers "不使用"; 1 ends; 2 answers "不使用";')
    assert result.failures == ("scripted answer never asked for: seat 2 '不使用' (script at t.ruling:7:55)",)


def test_an_answer_that_is_not_a_candidate_fails():
    result = run('1 uses 殺 ♠7 on 2; 2 answers "使用【閃】♦3"; 1 ends;')
    (failure,) = result.failures
    assert "'使用【閃】♦3' is not a legal answer for seat 2" in failure
    assert "candidates: 使用【閃】♦2, 不使用" in failure


def test_an_answer_from_the_wrong_seat_fails():
    result = run('2 answers "不使用"; 1 ends;')
    assert "seat 1 was asked" in result.failures[0] and "seat 2's '不使用'" in result.failures[0]


def test_cannot_holds_when_the_use_is_illegal_and_fails_when_it_is_legal():
    assert run("1 cannot use 殺 ♠7 on 1; 1 ends;").passed
    failed = run("1 cannot use 殺 ♠7 on 2; 1 ends;")
    assert "seat 1 can use 【殺】♠7 on seat 2, but the script says it cannot" in failed.failures[0]


def test_a_wrong_expectation_fails_with_actual_and_expected():
    result = run('1 uses 殺 ♠7 on 2; 2 answers "不使用"; 1 ends;', "seat 2 hp 4; seat 2 hand [];")
    assert result.failures == (
        "seat 2 hp is 3, expected 4 (expectation at t.ruling:8:12)",
        "seat 2 hand is [【閃】♦2], expected [] (expectation at t.ruling:8:25)",
    )


def test_the_trace_is_deterministic():
    script = '1 uses 殺 ♠7 on 2; 2 answers "使用【閃】♦2"; 1 ends;'
    assert run(script).trace == run(script).trace


@pytest.mark.parametrize("text,where,message", [
    ('ruling "x" { source "s"; seat 1 lord; seat 2 rebel; phase 1 play; script { 1 ends } }',
     (1, 83), "unexpected '}'"),
    ('ruling "x" { source "s"; seat 1 lord hand [殺 ♠7, 殺 ♠7]; seat 2 rebel; phase 1 play; }',
     (1, 50), "殺 ♠7 is named twice"),
    ('ruling "x" { source "s"; seat 1 lord hand [殺 ♥2]; seat 2 rebel; phase 1 play; }',
     (1, 44), "殺 ♥2 is not in the 'standard' deck"),
    ('ruling "x" { source "s"; seat 1 lord hand [殺殺 ♠7]; seat 2 rebel; phase 1 play; }',
     (1, 44), "unknown card '殺殺'"),
    ('ruling "x" { source "s"; seat 1 lord; seat 2 rebl; phase 1 play; }', (1, 46), "unknown role 'rebl'"),
    ('ruling "x" { source "s"; seat 1 lord; seat 2 rebel; phase 1 paly; }', (1, 61), "unknown phase 'paly'"),
    ('ruling "x" { source "s"; ruleset basci; seat 1 lord; seat 2 rebel; phase 1 play; }',
     (1, 34), "unknown ruleset 'basci'"),
    ('ruling "x" { seat 1 lord; seat 2 rebel; phase 1 play; }', (1, 1), "cites no source"),
    ('ruling "x" { source "s"; seat 1 lord; seat 2 rebel; phase 3 play; }', (1, 59), "no seat 3"),
])
def test_bad_ruling_files_get_located_errors(text, where, message):
    with pytest.raises(SgsError) as error:
        parse_rulings(text, "bad.ruling")
    diagnostic = error.value.diagnostics[0]
    assert (diagnostic.span.line, diagnostic.span.column) == where, diagnostic.render()
    assert message in diagnostic.message
    assert "^" in diagnostic.render() and "bad.ruling:1:" in diagnostic.render()
