"""The on-disk parse cache: a file's AST as plain JSON, so a second start need not import lark.

Where: a folder of its own, ``sgs-dsl-parse-cache-<uid>``, inside ``$SGS_CACHE_DIR``, else
``$XDG_CACHE_HOME/sgs-dsl``, else ``~/.cache/sgs-dsl`` (the location is made if missing, and
its mode is never changed: it may be ``/tmp`` or a project folder). ``SGS_NO_CACHE=1`` turns
the cache off. The cache creates, reads and deletes files only inside its own folder:

- the folder is used only if it is a real folder (not a symlink) owned by this user with no
  permission for group or others. It is made 0700 when missing; one found otherwise is not
  used, and never chmod-ed. It is then held open, and every file operation below goes through
  that descriptor, so it happens in the folder that was checked, whatever is renamed later;
- the folder holds a secret key (``key``: 32 random bytes, 0600), made with the folder, made
  again when missing and replaced when damaged (then every older entry is a miss);
- one ``<key>.json`` entry per parsed text, ``<key>`` (64 hex digits) the SHA-256 of
  everything that shapes its AST (the text, its path, the grammar, the front end's own
  source, the package version and the entry format). Its first line holds the format, the
  key, and an HMAC-SHA256, under the secret key, of both and of the payload: the AST as JSON.
  An entry is data, never code (see `astcodec`);
- a file is read only if it is a regular file of this user with no permission for group or
  others, of bounded size, opened without following symlinks. An entry is then checked
  (format, key, MAC, then every node) as it is rebuilt; anything wrong is a miss: the text is
  parsed again and the entry rewritten;
- entries and keys are written to a fresh temporary file ``.tmp-<32 hex digits>`` (created
  exclusively, 0600) and renamed into place, which replaces a planted symlink instead of
  writing through it;
- the folder is kept under `MAX_BYTES` and `MAX_ENTRIES`, the least recently used entries
  going first. Pruning looks at no name but those two patterns: it deletes an entry only if
  it is a file as above whose first line is an entry's header for that name, and a temporary
  file only if it is a regular file of this user older than `STALE_TEMP_SECONDS`.

Deleting the cache's folder is always safe.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import re
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, NamedTuple

from . import ast, astcodec
from .source import source_lines

FORMAT = "sgs-ast/2"
FOLDER_PREFIX = "sgs-dsl-parse-cache-"  # + the user id: users sharing a location do not collide
KEY_FILE = "key"
KEY_BYTES = 32
MAX_BYTES = 32 * 2**20  # the whole folder
MAX_ENTRIES = 2000
MAX_ENTRY_BYTES = 16 * 2**20  # one entry, header included; a larger AST is not cached
STALE_TEMP_SECONDS = 3600  # a temporary file older than this was left by a killed process
_SUFFIX = ".json"
_ENTRY_NAME = re.compile(r"[0-9a-f]{64}\.json")
_TEMP_NAME = re.compile(r"\.tmp-[0-9a-f]{32}")
_ENTRY_HEADER = re.compile(rb"sgs-ast/[0-9]+ ([0-9a-f]{64}) [0-9a-f]{64}\n")
_HEADER_BYTES = 200  # more than any entry's first line
_FRONT_END = ("parser", "ast", "astcodec", "diagnostics", "source")  # the modules that shape an AST


def cache_dir() -> Path:
    """The configured location, in which the cache keeps its own folder."""
    base = os.environ.get("SGS_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "sgs-dsl")
    return Path(base)


def store_dir() -> Path:
    """The cache's own folder: the only one it creates, reads or deletes files in."""
    return cache_dir() / f"{FOLDER_PREFIX}{os.getuid()}"


def enabled() -> bool:
    return os.environ.get("SGS_NO_CACHE") != "1" and _SUPPORTED


def parse_cached(text: str, path: str) -> ast.Module:
    """The AST of a text: from the cache when a valid entry exists, else parsed (and stored).
    Bad syntax raises SgsError, as `parser.parse` does; nothing is stored for it."""
    key = entry_key(text, path)
    with _opened() as store:
        if store is not None:
            module = _read(store, key, path, source_lines(text))
            if module is not None:
                return module
        from .parser import parse  # imports lark: only on a miss

        module = parse(text, path)
        if store is not None:
            _write(store, key, module)
        return module


def prune(max_bytes: int | None = None, max_entries: int | None = None) -> None:
    """Bring the cache's folder within bounds now (`MAX_BYTES` and `MAX_ENTRIES` by default)."""
    with _opened() as store:
        if store is not None:
            try:
                _prune(store.fd, MAX_BYTES if max_bytes is None else max_bytes,
                       MAX_ENTRIES if max_entries is None else max_entries)
            except OSError:
                pass


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


# ---------------------------------------------------------------- the folder and its key

# Every file operation names a file relative to the open folder (POSIX *at calls); where
# that is not available there is no cache.
_SUPPORTED = (hasattr(os, "getuid") and hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY")
              and {os.open, os.mkdir, os.rename, os.link, os.unlink, os.utime} <= os.supports_dir_fd
              and os.scandir in os.supports_fd)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class _Store(NamedTuple):
    fd: int  # the cache's own folder, open
    secret: bytes  # its key


@contextmanager
def _opened() -> Iterator[_Store | None]:
    """The cache's own folder, open, with its key; None when the cache is off or the folder
    is not safe or not possible to use (a read-only home still works, just slower)."""
    store = _open_store() if enabled() else None
    try:
        yield store
    finally:
        if store is not None:
            os.close(store.fd)


def _open_store() -> _Store | None:
    try:
        fd = _open_own_folder()
    except OSError:
        return None
    if fd is None:
        return None
    try:
        secret = _secret(fd)
    except OSError:
        secret = None
    if secret is None:
        os.close(fd)
        return None
    return _Store(fd, secret)


def _open_own_folder() -> int | None:
    base = cache_dir()
    os.makedirs(base, mode=0o700, exist_ok=True)  # makes what is missing; an existing folder is left as it is
    base_fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    try:
        name = store_dir().name
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC  # a symlink fails here
        try:
            fd = os.open(name, flags, dir_fd=base_fd)
        except FileNotFoundError:
            try:
                os.mkdir(name, 0o700, dir_fd=base_fd)
            except FileExistsError:
                pass  # made by another process meanwhile: checked below like any other
            fd = os.open(name, flags, dir_fd=base_fd)
    finally:
        os.close(base_fd)
    info = os.fstat(fd)
    if info.st_uid != os.getuid() or info.st_mode & 0o077:
        os.close(fd)  # someone else's, or open to others: entries could be planted; not ours to chmod
        return None
    return fd


def _secret(fd: int) -> bytes | None:
    """The folder's key. Made when missing (never replacing one that another process made
    meanwhile), replaced when damaged; None if it cannot be had."""
    for _ in range(3):
        exists, key = _read_key(fd)
        if key is not None:
            return key
        fresh = os.urandom(KEY_BYTES)
        temp = _write_temp(fd, fresh)
        try:
            if exists:
                os.rename(temp, KEY_FILE, src_dir_fd=fd, dst_dir_fd=fd)
                return fresh
            os.link(temp, KEY_FILE, src_dir_fd=fd, dst_dir_fd=fd)  # fails if a key is there
            return fresh
        except FileExistsError:
            continue  # another process made the key first: use that one
        finally:
            _unlink(fd, temp)  # left only after `link` (or a failure)
    return None


def _read_key(fd: int) -> tuple[bool, bytes | None]:
    """Whether something is at the key's name, and the key if it is a sound one."""
    try:
        file = _open_own_file(fd, KEY_FILE, KEY_BYTES)
    except FileNotFoundError:
        return False, None
    except OSError:
        return True, None  # a symlink, or unreadable
    if file is None:
        return True, None
    with file:
        key = file.read(KEY_BYTES + 1)
    return True, key if len(key) == KEY_BYTES else None


def _open_own_file(fd: int, name: str, max_size: int) -> BinaryIO | None:
    """A file of the folder, opened without following a symlink (or blocking on a FIFO), if
    it is a regular file of this user, private, of at most `max_size` bytes; else None."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
    file = os.fdopen(os.open(name, flags, dir_fd=fd), "rb")
    try:
        info = os.fstat(file.fileno())
    except BaseException:
        file.close()
        raise
    if (stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077
            and info.st_size <= max_size):
        return file
    file.close()
    return None


def _write_temp(fd: int, data: bytes) -> str:
    """A fresh private file holding `data`: created exclusively under a random name, so no
    planted file or symlink can be in its way."""
    name = ".tmp-" + os.urandom(16).hex()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC
    out = os.open(name, flags, 0o600, dir_fd=fd)
    try:
        with os.fdopen(out, "wb") as file:
            file.write(data)
    except BaseException:
        _unlink(fd, name)
        raise
    return name


def _unlink(fd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=fd)
    except OSError:
        pass


# ---------------------------------------------------------------- entries

def _header(secret: bytes, key: str, payload: bytes) -> bytes:
    """An entry's first line: its format, its key, and the HMAC of both and of the payload."""
    signed = f"{FORMAT} {key}".encode("ascii")
    mac = hmac.new(secret, signed + b"\n", hashlib.sha256)
    mac.update(payload)
    return signed + b" " + mac.hexdigest().encode("ascii")


def _read(store: _Store, key: str, path: str, lines: tuple[str, ...]) -> ast.Module | None:
    name = key + _SUFFIX
    try:
        file = _open_own_file(store.fd, name, MAX_ENTRY_BYTES)
        if file is None:
            return None
        with file:
            raw = file.read(MAX_ENTRY_BYTES + 1)
        header, _, payload = raw.partition(b"\n")
        if not hmac.compare_digest(header, _header(store.secret, key, payload)):
            return None  # forged, stale, damaged, or signed with another key
        module = astcodec.decode(json.loads(payload), path, lines)
    except (OSError, ValueError, RecursionError, MemoryError):
        return None  # missing, or rejected as it is rebuilt (CodecError is a ValueError)
    try:
        os.utime(name, dir_fd=store.fd, follow_symlinks=False)  # recently used: pruned last
    except OSError:
        pass
    return module


def _write(store: _Store, key: str, module: ast.Module) -> None:
    payload = json.dumps(astcodec.encode(module), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    data = _header(store.secret, key, payload) + b"\n" + payload
    if len(data) > MAX_ENTRY_BYTES:
        return
    try:
        temp = _write_temp(store.fd, data)
        try:
            os.rename(temp, key + _SUFFIX, src_dir_fd=store.fd, dst_dir_fd=store.fd)  # replaces a symlink, never writes through it
        except BaseException:
            _unlink(store.fd, temp)
            raise
        _prune(store.fd, MAX_BYTES, MAX_ENTRIES)
    except OSError:
        pass  # a full disk or a read-only folder: just slower


def _prune(fd: int, max_bytes: int, max_entries: int) -> None:
    """Remove the least recently used entries until the folder is within three quarters of
    its bounds (so that pruning is rare), and temporary files left by killed processes.
    Files of any other name are never looked at; files of an entry's name that are not
    entries are neither deleted nor counted."""
    entries: list[tuple[float, int, str]] = []
    now = time.time()
    uid = os.getuid()
    with os.scandir(fd) as it:
        for item in it:
            temp = _TEMP_NAME.fullmatch(item.name) is not None
            if not temp and _ENTRY_NAME.fullmatch(item.name) is None:
                continue
            try:
                info = item.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode) or info.st_uid != uid:
                continue
            if not temp:
                entries.append((info.st_mtime, info.st_size, item.name))
            elif now - info.st_mtime > STALE_TEMP_SECONDS:
                _unlink(fd, item.name)
    total = sum(size for _, size, _ in entries)
    if total <= max_bytes and len(entries) <= max_entries:
        return
    entries.sort()
    count = len(entries)
    for _, size, name in entries:
        if total <= max_bytes * 3 // 4 and count <= max_entries * 3 // 4:
            break
        if _is_entry(fd, name):
            _unlink(fd, name)
        total -= size
        count -= 1


def _is_entry(fd: int, name: str) -> bool:
    """Whether a file is one the cache wrote: private, this user's, and its first line an
    entry's header for its own name."""
    try:
        file = _open_own_file(fd, name, MAX_ENTRY_BYTES)
        if file is None:
            return False
        with file:
            head = file.read(_HEADER_BYTES)
    except OSError:
        return False
    match = _ENTRY_HEADER.match(head)
    return match is not None and match.group(1) + _SUFFIX.encode() == name.encode()
