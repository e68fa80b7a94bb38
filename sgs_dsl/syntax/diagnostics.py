"""Errors for people: a location, the source line with a caret, what was expected, a hint."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import attrs

from ..textsafe import printable


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
    severity: str = "error"  # or "warning": shown by `sgs check`, never stops a load; or "note"

    def render(self) -> str:
        # escaped here, not only when printed, so that the caret lines up with what is shown
        out = [printable(f"{self.span}: {self.severity}: {self.message}")]
        if self.source_line:
            out.extend(_excerpt(self.source_line.rstrip("\n"), self.span))
        if self.hint:
            out.append(f"  hint: {printable(self.hint)}")
        return "\n".join(out)


#: A longer source line is shown as a window around the error.
_MAX_SHOWN = 200
_CONTEXT = 80
#: Longer words are never offered a "did you mean" (nor shown whole in a message).
LONGEST_NAME = 40


def _excerpt(text: str, span: Span) -> list[str]:
    """The source line (or a window of a long one) and the caret line under the span."""
    start = max(0, span.column - 1)
    end = span.end_column - 1 if span.end_column > span.column else start + 1
    lo, hi = _window(len(text), start, end)
    before, after = ("..." if lo else ""), ("..." if hi < len(text) else "")
    shown = before + printable(text[lo:hi], lines=True) + after
    # wide (CJK) characters and escapes (\u202e for a bidi override) take more than one column
    pad = " " * len(before) + "".join("\t" if ch == "\t" else " " * _width(ch) for ch in text[lo:start])
    width = max(1, sum(_width(ch) for ch in text[start:min(end, hi)]))
    gutter = max(4, len(str(span.line)))
    return [f"  {span.line:>{gutter}} | {shown}", " " * (gutter + 3) + "| " + pad + "^" * width]


def _window(length: int, start: int, end: int) -> tuple[int, int]:
    """Which characters of a line to show: all of a short line, else some around the span."""
    if length <= _MAX_SHOWN:
        return 0, length
    lo = max(0, start - _CONTEXT)
    return lo, min(length, max(end, start + 1) + _CONTEXT, lo + _MAX_SHOWN)


def _width(ch: str) -> int:
    if ch == "\t":
        return 1
    shown = printable(ch, lines=True)
    return len(shown) if shown != ch else 2 if _wide(ch) else 1


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

    if len(name) > LONGEST_NAME:  # not a typo, and difflib would be slow on it
        return ""
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
