"""A file's bytes -> the text the parser sees: a size limit, UTF-8 with an optional BOM, and
'\\n' for every line ending (CRLF and CR-only files read as they look in an editor)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .diagnostics import Diagnostic, SgsError, Span

#: The largest .sgs or .ruling file the front end reads: 256 KiB, seven times the largest
#: shipped file; lark parses that much ordinary text in under a second, the densest in a few.
MAX_FILE_BYTES = 256 * 1024

_BOM = "\ufeff"


def clean_text(text: str) -> str:
    """No BOM, and '\\n' for '\\r\\n' and a lone '\\r': lines and columns as an editor shows them."""
    text = text.removeprefix(_BOM)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def source_lines(text: str) -> tuple[str, ...]:
    """Lines as the lexer counts them: only '\\n' ends a line (not '\\f', '\\v' or U+2028)."""
    lines = tuple(line.removesuffix("\r") for line in text.split("\n"))
    return lines[:-1] if text.endswith("\n") else lines


def check_size(data: bytes, path: str, size: int | None = None) -> None:
    """SgsError, located where the limit is passed, when a file is over MAX_FILE_BYTES.
    `data` is the file's content or at least its first MAX_FILE_BYTES + 1 bytes; `size` is
    the real size when only that start was read."""
    size = len(data) if size is None else size
    if size <= MAX_FILE_BYTES:
        return
    head = clean_text(data[:MAX_FILE_BYTES].decode("utf-8", errors="replace"))
    line = head.count("\n") + 1
    rest = clean_text(data[MAX_FILE_BYTES:MAX_FILE_BYTES + 200].decode("utf-8", errors="replace"))
    text = head[head.rfind("\n") + 1:]
    shown = text + rest.split("\n", 1)[0]  # the line the limit falls in, as far as it was read
    message = f"the file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,} bytes ({MAX_FILE_BYTES // 1024} KiB)"
    hint = "split it into several files (a ruleset may use many card and hero files)"
    raise SgsError([Diagnostic(Span(path, line, len(text) + 1), message, hint, shown)])


def read_bytes(path: Path | str) -> bytes:
    """A file's bytes, reading no more than the limit allows; SgsError when it cannot be read,
    is not a regular file (a FIFO would block forever) or is too big."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise SgsError([Diagnostic(Span(str(path), 0, 0), f"cannot read {path}: not a regular file")])
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise SgsError([Diagnostic(Span(str(path), 0, 0), f"cannot read {path}: {(error.strerror or str(error)).lower()}")]) from None
    check_size(data, str(path), max(info.st_size, len(data)))
    return data


def decode_source(data: bytes, path: str) -> str:
    """The text of a file for the parser: at most MAX_FILE_BYTES, UTF-8 (a BOM is dropped),
    every line ending as '\\n'. SgsError located at the first byte that is not UTF-8."""
    check_size(data, path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SgsError([_not_utf8(data, error, path)]) from None
    return clean_text(text)


def _not_utf8(data: bytes, error: UnicodeDecodeError, path: str) -> Diagnostic:
    """Where the first bad byte is, counted the way the parser would count it."""
    bom = len(_BOM.encode()) if data.startswith(_BOM.encode()) else 0
    before = clean_text(data[bom:error.start].decode("utf-8"))
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    rest = data[error.start:]
    ends = [i for i in (rest.find(b"\n"), rest.find(b"\r")) if i >= 0]
    tail = rest[: min(ends)] if ends else rest
    shown = before[before.rfind("\n") + 1:] + tail.decode("utf-8", errors="replace")
    hint = "save the file as UTF-8 (a file saved as GBK or Big5 fails here: `iconv -f GBK -t UTF-8`)"
    return Diagnostic(Span(path, line, column), f"this is not UTF-8 text (byte 0x{data[error.start]:02x})", hint, shown)
