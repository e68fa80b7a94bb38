"""The text of a ruling's snapshot, and the syrupy extension that stores it.

A ruling's snapshot is its trace, one trace line per line, nothing else: a change in
the resolution shows up in a diff as the lines that changed. The snapshots of one
ruling file live together in one amber file beside it, named after it
(``tests/rulings/cards.ruling`` -> ``tests/rulings/__snapshots__/cards.ambr``), one
entry per ruling, named by the ruling's title::

    # serializer version: 1
    # name: <the ruling's title>
      <trace line 1>
      <trace line 2>
    # ---

The text is built by :func:`trace_text`, which does not need syrupy; the extension
class (which does) is made on first use by :func:`extension_class`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

#: What an empty trace is stored as: amber does not store an empty entry, and a ruling
#: whose trace is empty must still have a snapshot to compare with.
EMPTY_TRACE = "(the trace is empty)"


def trace_text(trace: Iterable[str] | Any) -> str:
    """The snapshot text of a trace (a sequence of lines, or a result with ``.trace``).

    One line per trace line; a line break inside a trace line becomes a line of its
    own, Windows line ends become ``\\n``, and trailing blanks are dropped, so the text
    reads back from the file exactly as written.
    """
    lines = getattr(trace, "trace", trace)
    if isinstance(lines, str):
        lines = [lines]
    out: list[str] = []
    for line in lines:
        text = str(line).replace("\r\n", "\n").replace("\r", "\n")
        out.extend(part.rstrip() for part in text.split("\n"))
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) if out else EMPTY_TRACE


@functools.cache
def extension_class() -> type:
    """The syrupy extension for ruling traces (syrupy is imported here, on first use)."""
    from syrupy.extensions.amber import AmberSnapshotExtension

    class RulingTraceExtension(AmberSnapshotExtension):
        """Amber files, with the trace text stored as it is (no repr, no quotes)."""

        _context_line_count = 3  # unchanged trace lines shown around a change in a diff

        def serialize(self, data: Any, **kwargs: Any) -> str:
            return trace_text(data)

    RulingTraceExtension.__module__ = __name__
    RulingTraceExtension.__qualname__ = "RulingTraceExtension"
    return RulingTraceExtension


def __getattr__(name: str) -> Any:
    # ``sgs_dsl.rulings.snapshot.RulingTraceExtension`` resolves (syrupy names
    # extensions by module and class name, e.g. when pytest-xdist workers report).
    if name == "RulingTraceExtension":
        return extension_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
