"""docs/language.md stays true: it lists every effect, field and name of the schema, its
generated tables are up to date, its examples check, and its pasted error output is real."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgs_dsl.compiler import reference, schema
from sgs_dsl.compiler.library import check_paths
from sgs_dsl.resources import data_dir, library_files

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "language.md"
TEXT = DOC.read_text(encoding="utf-8")


def code_blocks(language: str = "") -> list[str]:
    return re.findall(r"^```" + language + r"\n(.*?)^```$", TEXT, flags=re.S | re.M)


def test_generated_tables_are_up_to_date():
    assert reference.generated_part(TEXT) == reference.markdown(), (
        "docs/language.md is out of date: run `python -m sgs_dsl.compiler.reference --write`")


def test_every_builtin_is_documented_with_its_signature():
    for name, builtin in schema.BUILTINS.items():
        assert f"| `{name}(" in TEXT, f"effect or function {name} is missing from docs/language.md"
        for param in builtin.params:
            assert f"{param.name}: " in TEXT
        for key in builtin.keywords:
            assert re.search(rf"`{name}\([^`]*\b{key}: ", TEXT), f"option {key} of {name} is not documented"


def test_every_field_is_documented():
    for type_name, fields in schema.FIELDS.items():
        assert f"| `{type_name}` | " in TEXT, f"type {type_name} is missing"
        for field in fields:
            assert f"| `{type_name}` | `{field}` |" in TEXT, f"field {type_name}.{field} is missing"


@pytest.mark.parametrize("names", [
    schema.BLOCKS, schema.USE_CONTEXTS, schema.CARD_TYPES, schema.CARD_PROPS, schema.MODIFIERS,
    schema.PATTERN_WORDS, schema.NATURES, schema.PHASE_NAMES, schema.ZONES, schema.SLOTS,
    [" ".join(words) for words in schema.TARGET_WORDS], list(schema.PAYLOAD_VARS),
], ids=["blocks", "use contexts", "card types", "card properties", "modifiers", "pattern words", "natures",
        "phases", "zones", "slots", "target words", "payloads"])
def test_every_name_of_the_schema_is_documented(names):
    for name in names:
        assert f"`{name}`" in TEXT, f"`{name}` is missing from docs/language.md"


def test_descriptions_cover_the_schema():
    assert set(reference.PATTERN_DOCS) | set(schema.SUIT_WORDS) == set(schema.PATTERN_WORDS)
    assert set(reference.TYPE_DOCS) == set(schema.FIELDS)


def test_the_doc_covers_every_form_and_statement():
    for word in ("card", "skill", "hero", "deck", "ruleset", "use", "choose", "on", "modify", "view_as",
                 "let", "set", "if", "else", "for", "repeat", "loop", "break", "stop", "optional", "forced",
                 "when", "where", "is not", "unlimited", "locked", "lord", "limited", "wake", "default"):
        assert re.search(rf"`[^`\n]*\b{word}\b[^`\n]*`", TEXT), f"`{word}` is not shown in docs/language.md"
    assert "windows.md" in TEXT


def test_examples_are_real_or_check_clean(tmp_path):
    library = "\n".join(p.read_text(encoding="utf-8") for p in library_files())
    blocks = code_blocks("sgs")
    assert len(blocks) >= 5
    real = 0
    for i, block in enumerate(blocks):
        if block in library:  # a real card of the library, copied exactly
            real += 1
            continue
        path = tmp_path / f"example{i}.sgs"
        path.write_text(block, encoding="utf-8")
        diagnostics = check_paths([path])
        assert diagnostics == [], "\n\n".join(d.render() for d in diagnostics)
    assert real >= 3, "the worked examples should be copied from cards/standard.sgs"


def test_worked_examples_are_standard_cards():
    standard = (data_dir("cards") / "standard.sgs").read_text(encoding="utf-8")
    section = TEXT[TEXT.index("## Worked examples"):TEXT.index("## Errors")]
    blocks = re.findall(r"^```sgs\n(.*?)^```$", section, flags=re.S | re.M)
    assert len(blocks) >= 2
    for block in blocks:
        assert block in standard


def test_the_pasted_error_output_is_real(tmp_path, monkeypatch):
    section = TEXT[TEXT.index("## Errors"):TEXT.index("## Limits and safety")]
    source, output = re.findall(r"^```\n(.*?)^```$", section, flags=re.S | re.M)[:2]
    monkeypatch.chdir(tmp_path)
    Path("my_cards.sgs").write_text(source, encoding="utf-8")
    diagnostics = check_paths([Path("my_cards.sgs")])
    rendered = "\n\n".join(d.render() for d in diagnostics)
    assert output.rstrip("\n") == rendered + f"\n\n{len(diagnostics)} errors in 1 file"


def test_the_loop_limit_in_the_doc_is_the_compilers():
    from sgs_dsl.compiler.compiler import MAX_LOOP

    assert f"at most {MAX_LOOP} times" in TEXT and f"after {MAX_LOOP} rounds" in TEXT
