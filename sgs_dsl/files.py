"""Reading and writing the files the CLI is pointed at, so that no path can hang it.

Anything but a regular file (a FIFO, a socket, a device) is found with ``stat`` and never
opened: opening a FIFO with no peer blocks, and reading a device may never end. Output
paths are checked before any work is done, and written whole or not at all (a temporary
file beside the target, renamed over it). Only the standard library: the CLI imports this
at start-up.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def reason(error: OSError) -> str:
    """The system's words for an OSError, as the end of a sentence: 'permission denied'."""
    text = error.strerror or str(error)
    return text[:1].lower() + text[1:]


def path_error(error: OSError) -> str:
    """`reason`, but a name too long (ENAMETOOLONG) is said to be that, of the path given."""
    if error.errno == errno.ENAMETOOLONG:
        return "the name is too long for the file system"
    return reason(error)


def kind_of(mode: int) -> str:
    """'' for a regular file, else what the file is: 'a FIFO (named pipe)', ..."""
    if stat.S_ISREG(mode):
        return ""
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


def file_kind(path: Path) -> str:
    """'' when `path` is a regular file that opens for reading, else the kind of file it is;
    OSError when it cannot be looked at or opened. Anything but a regular file is found with
    stat and never opened."""
    kind = kind_of(os.stat(path).st_mode)
    if not kind:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    return kind


class TooLarge(ValueError):
    """A file longer than the caller reads."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. ValueError naming what the path
    is when it is not a regular file, TooLarge past the limit (read no further than that),
    OSError when it cannot be read."""
    kind = kind_of(os.stat(path).st_mode)
    if kind:
        raise ValueError(f"it is {kind}, not a regular file")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # swapped for a FIFO since the stat: still no wait
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise ValueError("it is not a regular file")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(f"it is larger than {limit:,} bytes")
    return data


# --- output ------------------------------------------------------------------------------------


def _nearest_folder(path: Path) -> tuple[Path, str]:
    """The nearest of `path`'s folders that exists (the current folder at worst), and why
    nothing can be made below it ('' when it is a folder that can be looked at)."""
    for folder in path.parents:
        try:
            mode = os.stat(folder).st_mode
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as error:  # a folder that cannot be searched, a symlink loop
            return folder, f"'{folder}': {path_error(error)}"
        return folder, "" if stat.S_ISDIR(mode) else f"'{folder}' is not a folder"
    return Path("."), ""


def _can_create_in(folder: Path) -> str:
    """'' when files can be made in `folder`, else why not."""
    return "" if os.access(folder, os.W_OK | os.X_OK) else f"permission denied: no file can be made in '{folder}'"


def _replaceable(path: Path, mode: int) -> str:
    """Why the existing file `path` (of this mode) is not to be replaced, '' when it may be:
    anything but a regular file, or a file its owner made read-only."""
    if stat.S_ISDIR(mode):
        return "it is a folder"
    kind = kind_of(mode)
    if kind:
        return f"it is {kind}, not a regular file"
    return "" if os.access(path, os.W_OK) else "permission denied"


def output_file_problem(path: Path) -> str:
    """Why no file can be written at `path`, '' when one can: it is not a regular file or is
    read-only, its folder is missing or is not a folder, or files cannot be made there (the
    file is written beside itself and renamed into place). Nothing is opened."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return _missing_file_problem(path)
    except OSError as error:  # a name too long, a symlink loop, a folder that cannot be searched
        return path_error(error)
    return _replaceable(path, mode) or _can_create_in(Path(os.path.realpath(path)).parent)


def _missing_file_problem(path: Path) -> str:
    """Why `path`, which does not exist (or lies below a file), cannot be made."""
    if os.path.islink(path):  # a dangling link: it would be written through, to where it leads
        path = Path(os.path.realpath(path))
    folder = path.parent
    try:
        mode = os.stat(folder).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return _nearest_folder(folder)[1] or f"the folder '{folder}' does not exist"
    except OSError as error:
        return f"'{folder}': {path_error(error)}"
    return _can_create_in(folder) if stat.S_ISDIR(mode) else f"'{folder}' is not a folder"


def output_folder_problem(path: Path, names: Iterable[str] = ()) -> str:
    """Why a report cannot be written into the folder `path` (made when missing), '' when it
    can; `names` are the files it will hold, each checked as ``output_file_problem`` does."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        folder, problem = _nearest_folder(path)
        return problem or _can_create_in(folder)
    except OSError as error:
        return path_error(error)
    if not stat.S_ISDIR(mode):
        return "it is a file" if stat.S_ISREG(mode) else f"it is {kind_of(mode)}, not a folder"
    return _can_create_in(path) or next(filter(None, (_in_folder(path / name) for name in names)), "")


def _in_folder(path: Path) -> str:
    """Why a report file in its folder cannot be replaced, naming it; '' when it can."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return ""
    except OSError as error:
        return f"'{path}': {path_error(error)}"
    problem = _replaceable(path, mode)
    return f"'{path}': {problem}" if problem else ""


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` whole or not at all: into a new file beside it, renamed over it
    (through a symlink, the file it leads to is replaced and the link kept). OSError naming
    `path` when it fails, and then `path` is as it was and no temporary file is left."""
    target = Path(os.path.realpath(path))
    try:
        temp, fd = _new_temporary(target)
    except OSError as error:
        raise _about(error, path) from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temp, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(error, OSError):
            raise _about(error, path) from None
        raise


def _about(error: OSError, path: Path) -> OSError:
    """The same error, naming the file asked for rather than its temporary neighbour."""
    return OSError(error.errno, error.strerror or str(error), str(path))


def _new_temporary(target: Path) -> tuple[Path, int]:
    """A file of a fresh random name in `target`'s folder, made exclusively (so nothing planted
    there is written through), and its descriptor."""
    for _ in range(100):
        temp = target.with_name(f".{target.name[:64]}.{os.urandom(6).hex()}.part")
        try:
            return temp, os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target))
