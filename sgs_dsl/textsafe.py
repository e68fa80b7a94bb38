"""Text that is safe to echo on a terminal.

Names, titles and strings come from .sgs and .ruling files and from the command line; a
terminal escape in one could recolour, rewrite or hide output, and a bidi override could
make a line read differently from what it holds ("trojan source"). ``printable`` writes
such characters as ``\\uXXXX`` (``\\t``, ``\\n``, ``\\r`` for those three), which is also a
valid escape inside a JSON string, and leaves every other character, CJK included, alone.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, the Arabic letter mark, the LRM/RLM
# marks, the line and paragraph separators, bidi embeddings, overrides and isolates, and
# lone surrogates (the undecodable bytes of a file name, which no terminal can print).
_UNSAFE = r"\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
_IN_LINES = re.compile(f"[{_UNSAFE}]")
_IN_ONE_LINE = re.compile(f"[\\t\\n{_UNSAFE}]")
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` with its control, bidi and unprintable characters escaped.

    One line by default (a name, a title): tab and newline are escaped too. With
    ``lines=True`` (a whole message or report), tab and newline are kept.
    """
    pattern = _IN_LINES if lines else _IN_ONE_LINE
    return pattern.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    return _SHORT.get(ch) or f"\\u{ord(ch):04x}"


def clip(text: str, limit: int = 40) -> str:
    """``printable(text)`` cut to its first `limit` characters ("..." marks a cut): how to
    echo text of any length back in a one-line message."""
    return printable(text) if len(text) <= limit else printable(text[:limit]) + "..."
