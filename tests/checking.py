"""Helpers for the tests of the checker: a skill body checked on its own, and the first error
it gives asserted to be located on that body's line with its message and hint."""

from __future__ import annotations

from pathlib import Path

from sgs_dsl.compiler.library import check_paths


def check_text(tmp_path: Path, text: str) -> list:
    """The diagnostics of a file holding `text`, checked on its own."""
    path = tmp_path / "bad.sgs"
    path.write_text(text, encoding="utf-8")
    return check_paths([path])


def skill(body: str) -> str:
    """A one-skill file whose body is line 2."""
    return f'skill 例 li "測試" {{\n{body}\n}}\n'


def check(tmp_path: Path, body: str) -> list:
    """The diagnostics of a one-skill file whose body (line 2) is `body`."""
    return check_text(tmp_path, skill(body))


def assert_located(found: list, body: str, message: str, hint: str) -> None:
    """The first error names `message` with `hint`, on the body's line, showing that line."""
    assert found, f"no error for {body!r}"
    first = found[0]
    assert message in first.message, first.render()
    assert hint in first.hint, first.render()
    assert first.span.line == 2 and first.source_line.strip() == body.strip()
