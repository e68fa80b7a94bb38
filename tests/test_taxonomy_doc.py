"""docs/skill-taxonomy.md stays true: every example is a real skill of the library or of the
test heroes, copied exactly, or checks clean on its own."""

from __future__ import annotations

import re
from pathlib import Path

from sgs_dsl.compiler.library import check_paths
from sgs_dsl.resources import library_files

ROOT = Path(__file__).resolve().parents[1]
TEXT = (ROOT / "docs" / "skill-taxonomy.md").read_text(encoding="utf-8")
SOURCES = [*library_files(), *sorted((ROOT / "tests" / "data").glob("*.sgs"))]


def test_every_example_is_a_real_skill_or_checks_clean(tmp_path):
    known = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES)
    blocks = re.findall(r"^```sgs\n(.*?)^```$", TEXT, flags=re.S | re.M)
    assert len(blocks) >= 8
    for i, block in enumerate(blocks):
        if block in known:
            continue
        path = tmp_path / f"example{i}.sgs"
        path.write_text(block, encoding="utf-8")
        diagnostics = check_paths([path])
        assert diagnostics == [], "\n\n".join(d.render() for d in diagnostics)


def test_every_kind_of_the_taxonomy_has_a_section():
    for kind in ("Trigger", "Active", "View-as", "Filter", "Modifier", "Prohibit", "Invalidity", "Tags"):
        assert re.search(rf"^## {kind}\b", TEXT, flags=re.M), kind
