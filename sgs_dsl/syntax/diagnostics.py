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
            width = max(1, self.span.end_column - self.span.column) if self.span.end_column else 1
            out.append(f"  {self.span.line:>4} | {text}")
            out.append("       | " + _pad(text, self.span.column - 1) + "^" * width)
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
    known = list(dict.fromkeys(known))
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if not close and len(name) <= 3:
        close = [k for k in known if name and (name in k or k in name)][:1]
    return f"did you mean '{close[0]}'?" if close else ""
