"""`sgs ruling FILE --name PREFIX`: an exact title runs that ruling; else
every ruling whose title starts with the text runs, listed one per line first when there
are several; a text no title starts with is a usage error (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sgs_dsl.cli import main

RULINGS = """
ruling "R01 殺" { source "s"; seat 1 lord hand [殺 ♠7]; seat 2 rebel; phase 1 play; script { 1 uses 殺 ♠7 on 2; 1 ends; } }
ruling "R01 殺：再一次" { source "s"; seat 1 lord; seat 2 rebel; phase 1 play; }
ruling "R02 桃" { source "s"; seat 1 lord hp 3/4 hand [桃 ♥3]; seat 2 rebel; phase 1 play; script { 1 uses 桃 ♥3; 1 ends; } }
ruling "R10 閃" { source "s"; seat 1 lord; seat 2 rebel; phase 1 play; expect { seat 1 hp 3; } }
"""


@pytest.fixture
def file(tmp_path: Path) -> str:
    path = tmp_path / "r.ruling"
    path.write_text(RULINGS, encoding="utf-8")
    return str(path)


def invoke(*args: str):
    return CliRunner().invoke(main, ["ruling", *args])


def titles_run(output: str) -> list[str]:
    return [line[3:-3] for line in output.splitlines() if line.startswith("== ")]


def test_an_exact_title_runs_that_ruling_even_when_it_starts_others(file):
    result = invoke(file, "--name", "R01 殺")
    assert result.exit_code == 0, result.output
    assert titles_run(result.stdout) == ["R01 殺"]
    assert "matches" not in result.stdout


def test_a_prefix_of_one_title_runs_that_ruling(file):
    result = invoke(file, "--name", "R02")
    assert result.exit_code == 0, result.output
    assert titles_run(result.stdout) == ["R02 桃"]


def test_an_ambiguous_prefix_lists_the_matches_and_runs_them_all(file):
    result = invoke(file, "-n", "R0")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("--name R0 matches 3 rulings:\nR01 殺\nR01 殺：再一次\nR02 桃\n\n")
    assert titles_run(result.stdout) == ["R01 殺", "R01 殺：再一次", "R02 桃"]
    assert result.stdout.rstrip().endswith("3 passed, 0 failed")


def test_a_prefix_is_not_a_substring(file):
    result = invoke(file, "--name", "殺")
    assert result.exit_code == 2
    assert "no ruling titled '殺' (or whose title starts with it)" in result.output


def test_a_failing_match_makes_the_run_fail(file):
    result = invoke(file, "--name", "R1")
    assert result.exit_code == 1
    assert titles_run(result.stdout) == ["R10 閃"]
    assert "seat 1 hp is 4, expected 3" in result.stdout


def test_brief_leaves_out_the_windows_where_nothing_happened():
    whole = CliRunner().invoke(main, ["ruling", "examples/rulings/basics.ruling"]).output.splitlines()
    brief = CliRunner().invoke(main, ["ruling", "--brief", "examples/rulings/basics.ruling"]).output.splitlines()
    assert sum("〔時機〕" in line for line in brief) < sum("〔時機〕" in line for line in whole)
    assert not any("〔時機〕" in a and "〔時機〕" in b for a, b in zip(brief, brief[1:], strict=False))
    assert [line for line in brief if "〔時機〕" not in line] == [line for line in whole if "〔時機〕" not in line]
