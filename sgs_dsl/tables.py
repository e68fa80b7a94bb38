"""Text tables for a terminal: columns aligned by display width (a CJK character takes two
columns); a table wider than the terminal wraps its widest cells inside their columns, and
columns of prose may be printed under their row instead."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from .textsafe import printable

WIDTH = 100  # columns a table fits into unless told (an 100-column terminal)
GAP = "  "
NARROWEST = 12  # a wrapped column keeps at least this many columns
INDENT = "    "  # a detail line under its row
BREAKS = " ,;，；、。："  # a line is broken after one of these where it can be


def display_width(text: str) -> int:
    """Columns `text` takes on a terminal: two for a wide (CJK) character, one for another."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int) -> str:
    """`text` filled with spaces to `width` display columns (left aligned)."""
    return text + " " * max(0, width - display_width(text))


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` display columns, broken after the line's last space
    or punctuation, else inside a word (CJK text has no spaces)."""
    lines: list[str] = []
    while display_width(text) > width:
        cut, used, last_break = 0, 0, 0
        for i, ch in enumerate(text):
            used += display_width(ch)
            if used > width:
                break
            cut = i + 1
            if ch in BREAKS:
                last_break = i + 1
        cut = last_break or max(cut, 1)
        lines.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    return [*lines, text]


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]], width: int | None = WIDTH,
                 details: Sequence[str] = ()) -> str:
    """A plain text table, aligned for CJK characters; cells are escaped before they are
    measured, so a control character cannot break the columns. The columns named in `details`
    (prose) are printed under their row, indented and wrapped, as `header: text`. Wider than
    `width` (None: no limit), the widest columns are narrowed and their cells wrapped."""
    headers = [printable(h) for h in headers]
    cells = [[printable(c) for c in row] for row in rows]
    below = [headers.index(d) for d in details]
    kept = [i for i in range(len(headers)) if i not in below]
    head, groups = _table([headers[i] for i in kept], [[row[i] for i in kept] for row in cells], width)
    lines = list(head)
    room = (width or WIDTH) - len(INDENT)
    for row, group in zip(cells, groups, strict=True):
        lines.extend(group)
        for i in below:
            if row[i]:
                first, *rest = wrap(f"{headers[i]}: {row[i]}", room)
                lines.append(INDENT + first)
                lines.extend(INDENT + "  " + part for part in wrap(" ".join(rest), room - 2) if part) if rest else None
    return "\n".join(lines)


def _table(headers: list[str], cells: list[list[str]], width: int | None) -> tuple[list[str], list[list[str]]]:
    """The header's two lines, and each row's lines (several where a cell wraps)."""
    widths = [display_width(h) for h in headers]
    for row in cells:
        widths = [max(w, display_width(c)) for w, c in zip(widths, row, strict=True)]
    if width is not None:
        widths = _fit(widths, width)
    head = [_line(headers, widths), _line(["-" * w for w in widths], widths)]
    groups = []
    for row in cells:
        parts = [wrap(c, w) for c, w in zip(row, widths, strict=True)]
        groups.append([_line([p[k] if k < len(p) else "" for p in parts], widths)
                       for k in range(max(len(p) for p in parts))])
    return head, groups


def _line(cells: Sequence[str], widths: Sequence[int]) -> str:
    return GAP.join(pad(c, w) for c, w in zip(cells, widths, strict=True)).rstrip()


def _fit(widths: list[int], limit: int) -> list[int]:
    """Narrow the widest columns, one column at a time, until the table fits in `limit`
    columns (or every column is down to NARROWEST)."""
    widths = list(widths)
    total = sum(widths) + len(GAP) * (len(widths) - 1)
    while total > limit:
        widest = max(range(len(widths)), key=lambda i: widths[i])
        if widths[widest] <= NARROWEST:
            break
        second = max((w for i, w in enumerate(widths) if i != widest), default=NARROWEST)
        cut = min(total - limit, widths[widest] - max(NARROWEST, second)) or 1
        widths[widest] -= cut
        total -= cut
    return widths
