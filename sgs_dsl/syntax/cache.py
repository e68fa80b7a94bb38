"""The on-disk parse cache: a file's AST as plain JSON, so a second start need not import lark.

Where: ``$SGS_CACHE_DIR``, else ``$XDG_CACHE_HOME/sgs-dsl``, else ``~/.cache/sgs-dsl``;
``SGS_NO_CACHE=1`` turns it off. What: one ``<key>.json`` entry per parsed text, keyed by
everything that shapes its AST (the text, its path, the grammar, the front end's own source,
the package version and the entry format). An entry is data, never code (see `astcodec`):

- the folder is used only if it is a real folder (not a symlink) owned by this user, and it
  is made private (0700);
- entries are read without following symlinks, only if they are regular files of bounded
  size, and are checked (format, key, digest, then every node) as they are rebuilt; anything
  wrong is a miss: the text is parsed again and the entry rewritten;
- entries are written to a fresh private temporary file and renamed into place, which
  replaces a planted symlink instead of writing through it;
- the folder is kept under `MAX_BYTES` and `MAX_ENTRIES`, the least recently used entries
  going first.

Deleting the folder is always safe.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
import tempfile
import time
from pathlib import Path

from . import ast, astcodec
from .source import source_lines

FORMAT = "sgs-ast/1"
MAX_BYTES = 32 * 2**20  # the whole folder
MAX_ENTRIES = 2000
MAX_ENTRY_BYTES = 16 * 2**20  # one entry; a larger AST is not cached
STALE_TEMP_SECONDS = 3600  # a temporary file older than this was left by a killed process
_SUFFIX = ".json"
_FRONT_END = ("parser", "ast", "astcodec", "diagnostics", "source")  # the modules that shape an AST


def cache_dir() -> Path:
    base = os.environ.get("SGS_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "sgs-dsl")
    return Path(base)


def enabled() -> bool:
    return os.environ.get("SGS_NO_CACHE") != "1"


def parse_cached(text: str, path: str) -> ast.Module:
    """The AST of a text: from the cache when a valid entry exists, else parsed (and stored).
    Bad syntax raises SgsError, as `parser.parse` does; nothing is stored for it."""
    folder = _private_folder() if enabled() else None
    key = entry_key(text, path)
    if folder is not None:
        module = _read(folder / (key + _SUFFIX), key, path, source_lines(text))
        if module is not None:
            return module
    from .parser import parse  # imports lark: only on a miss

    module = parse(text, path)
    if folder is not None:
        _write(folder, key, module)
    return module


def entry_key(text: str, path: str) -> str:
    h = hashlib.sha256(_front_end_fingerprint().encode())
    for part in (path, text):
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


@functools.cache
def _front_end_fingerprint() -> str:
    """What shapes an AST besides its text: the entry format, the package version, the
    grammar and the source of the modules that build and encode the tree."""
    from .. import __version__
    from ..resources import data_dir

    h = hashlib.sha256(f"{FORMAT}\0{__version__}\0".encode())
    here = Path(__file__).parent  # read, not imported: a hit must not import lark
    for file in (data_dir("grammar") / "sgs.lark", *(here / f"{m}.py" for m in _FRONT_END)):
        h.update(file.read_bytes() if file.is_file() else b"-")
    return h.hexdigest()


# ---------------------------------------------------------------- the folder

def _private_folder() -> Path | None:
    """The cache folder, made if missing; None when it is not safe or not possible to use."""
    folder = cache_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            return None  # a symlink, a file, or somebody else's folder: entries could be planted
        if info.st_mode & 0o077:
            os.chmod(folder, 0o700)
    except OSError:
        return None  # a read-only home still works, just slower
    return folder


# ---------------------------------------------------------------- entries

def _read(entry: Path, key: str, path: str, lines: tuple[str, ...]) -> ast.Module | None:
    try:
        raw = _read_regular_file(entry)
        if raw is None:
            return None
        header, _, payload = raw.partition(b"\n")
        fmt, entry_key_, digest = header.decode("ascii").split(" ")
        if fmt != FORMAT or entry_key_ != key or hashlib.sha256(payload).hexdigest() != digest:
            return None
        module = astcodec.decode(json.loads(payload), path, lines)
    except (OSError, ValueError, RecursionError, MemoryError):
        return None  # a corrupt, truncated or foreign entry is a miss (CodecError is a ValueError)
    try:
        os.utime(entry)  # recently used: pruned last
    except OSError:
        pass
    return module


def _read_regular_file(entry: Path) -> bytes | None:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(entry, flags)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        return f.read(MAX_ENTRY_BYTES + 1)


def _write(folder: Path, key: str, module: ast.Module) -> None:
    payload = json.dumps(astcodec.encode(module), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(payload) > MAX_ENTRY_BYTES:
        return
    data = f"{FORMAT} {key} {hashlib.sha256(payload).hexdigest()}\n".encode("ascii") + payload
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=_SUFFIX)  # O_EXCL, 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, folder / (key + _SUFFIX))  # replaces a symlink, never writes through it
        except BaseException:
            os.unlink(tmp)
            raise
        prune(folder)
    except OSError:
        pass  # a full disk or a read-only folder: just slower


def prune(folder: Path, max_bytes: int | None = None, max_entries: int | None = None) -> None:
    """Remove the least recently used entries until the folder is within three quarters of
    its bounds (so that pruning is rare), and temporary files left by killed processes."""
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    max_entries = MAX_ENTRIES if max_entries is None else max_entries
    entries: list[tuple[float, int, str]] = []
    now = time.time()
    with os.scandir(folder) as it:
        for item in it:
            try:
                info = item.stat(follow_symlinks=False)
            except OSError:
                continue
            if item.name.startswith(".tmp-"):
                if now - info.st_mtime > STALE_TEMP_SECONDS:
                    _unlink(item.path)
            elif item.name.endswith(_SUFFIX):
                entries.append((info.st_mtime, info.st_size, item.path))
    total = sum(size for _, size, _ in entries)
    if total <= max_bytes and len(entries) <= max_entries:
        return
    entries.sort()
    count = len(entries)
    for _, size, name in entries:
        if total <= max_bytes * 3 // 4 and count <= max_entries * 3 // 4:
            break
        _unlink(name)
        total -= size
        count -= 1


def _unlink(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass
