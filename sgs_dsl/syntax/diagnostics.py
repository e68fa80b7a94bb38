"""Errors for people: a location, the source line with a caret, what was expected, a hint."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import attrs


@attrs.frozen(slots=True)
class Span:
    """A place in a source file (1-based line and column)."""

    file: str
    line: int
    column: int
    end_column: int = 0

    def __str__(self) -> str:
        if self.line <= 0:  # the whole file (a missing file, bad encoding)
            return self.file
        return f"{self.file}:{self.line}:{self.column}"


@attrs.frozen
class Diagnostic:
    span: Span
    message: str
    hint: str = ""
    source_line: str = ""

    def render(self) -> str:
        out = [f"{self.span}: error: {self.message}"]
        if self.source_line:
            text = self.source_line.rstrip("\n")
            start = max(0, self.span.column - 1)
            end = self.span.end_column - 1 if self.span.end_column > self.span.column else start + 1
            width = max(1, sum(2 if _wide(ch) else 1 for ch in text[start:end]))
            out.append(f"  {self.span.line:>4} | {text}")
            out.append("       | " + _pad(text, start) + "^" * width)
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)


def _pad(text: str, column: int) -> str:
    """Spaces up to a column, counting wide (CJK) characters twice so the caret lines up."""
    return "".join("  " if _wide(ch) else ("\t" if ch == "\t" else " ") for ch in text[:column])


def _wide(ch: str) -> bool:
    return ord(ch) >= 0x1100 and (
        0x1100 <= ord(ch) <= 0x115F or 0x2E80 <= ord(ch) <= 0xA4CF or 0xAC00 <= ord(ch) <= 0xD7A3
        or 0xF900 <= ord(ch) <= 0xFAFF or 0xFE30 <= ord(ch) <= 0xFE4F or 0xFF00 <= ord(ch) <= 0xFF60
        or 0xFFE0 <= ord(ch) <= 0xFFE6
    )


class SgsError(Exception):
    """One or more problems in .sgs text (or a ruling); never shown as a traceback."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        return "\n\n".join(d.render() for d in self.diagnostics)


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """'did you mean X?' for the nearest known name, or ''."""
    from .names import normalize  # names in either script compare as one (後 = 后)

    by_key: dict[str, str] = {}
    for k in known:
        by_key.setdefault(normalize(k), k)
    key = normalize(name)
    close = difflib.get_close_matches(key, list(by_key), n=1, cutoff=0.6)
    if not close and 2 <= len(key) <= 3:
        close = [k for k in by_key if key in k or (len(k) >= 2 and k in key)][:1]
    if not close and 2 <= len(key) <= 4:  # short names (姦雄 for 奸雄): one character changed
        close = [k for k in by_key if len(k) == len(key) and sum(a != b for a, b in zip(k, key, strict=True)) == 1][:1]
    return f"did you mean '{by_key[close[0]]}'?" if close else ""
