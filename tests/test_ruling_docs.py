"""docs/rulings.md stays true: every ruling it shows loads and holds, and each step form and
check of the format is shown, with an example that runs in tests/rulings/ruling_format.ruling
(collected, run and snapshot-checked by the ruling plugin)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.runner import run_ruling

REPO = Path(__file__).resolve().parents[1]
DOC = (REPO / "docs" / "rulings.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"^```\n(ruling \".*?)^```$", DOC, flags=re.S | re.M)
FORMAT = REPO / "tests" / "rulings" / "ruling_format.ruling"


def test_the_doc_shows_rulings():
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize("text", EXAMPLES, ids=[re.match(r'ruling "([^"]*)"', t).group(1) for t in EXAMPLES])
def test_every_ruling_in_the_doc_holds(text):
    (ruling,) = parse_rulings(text, "docs/rulings.md")
    result = run_ruling(ruling)
    assert result.passed, result.failures


@pytest.mark.parametrize("form", [
    " uses 殺 via ", " plays ", " invokes ", " declines ", " picks hand ", " chooses ", " cannot answer ",
    " not asked;", "setup;", " max hp ", " chained;", " not chained;", " skills [", " mark ", "deck size ",
    "discard size ", "damage 1 -> ", "damage none -> ", "damages in any order {", "no damage;", "skipped ",
    "not skipped ", "fired ", "not fired ",
])
def test_each_form_of_the_format_runs_in_the_format_rulings(form):
    text = FORMAT.read_text(encoding="utf-8")
    assert form in text, f"tests/rulings/ruling_format.ruling shows no `{form.strip()}`"
    assert form.strip() in DOC, f"docs/rulings.md does not show `{form.strip()}`"
