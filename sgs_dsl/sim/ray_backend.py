"""Run a batch's games on a Ray cluster (``sgs simulate --backend ray``).

One actor per worker: it builds the library once, from the very ``.sgs`` text the driver
loaded (sent with it, so a node needs sgs-dsl installed but not the driver's files), then
plays chunks of games. A few chunks are kept in flight per actor; finished chunks are
handed back in game-index order, so the records, and so the report, are exactly those of
the local backend.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from sgs_dsl.extras import install_hint
from sgs_dsl.files import reason
from sgs_dsl.sim.batch import BatchSettings, GameRecord, chunk_ranges, play_chunk
from sgs_dsl.textsafe import clip

#: How to get the optional dependency.
INSTALL_HINT = install_hint("ray")

#: Chunks queued on each actor beyond the one it plays, so it never waits for the driver.
QUEUED_PER_ACTOR = 1

Source = tuple[str, bytes]  # (folder/name.sgs, its bytes): a library file as sent to the workers
Chunk = tuple[list[GameRecord], float]


#: Seconds to wait for a cluster's address to answer before giving up on it.
CONNECT_TIMEOUT_S = 5.0
#: --address values that are not HOST:PORT: Ray finds the cluster itself.
FOUND_BY_RAY = ("auto", "local")
#: The longest host name DNS allows.
MAX_HOST = 253


class RayBackendError(Exception):
    """Ray is missing or the cluster cannot be used; the message says what to do."""


class RayMissing(RayBackendError):
    """The optional dependency is not installed."""


class BadAddress(ValueError):
    """An --address that is not HOST:PORT (or auto, or ray://HOST:PORT)."""


def parse_address(address: str) -> tuple[str, int] | None:
    """(host, port) of a cluster address; None for `auto` and `local` (nothing to probe);
    BadAddress for anything else that is not HOST:PORT (or ray://HOST:PORT, [IPv6]:PORT)."""
    if address in FOUND_BY_RAY:
        return None
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not (colon and 0 < len(host) <= MAX_HOST and port.isascii() and port.isdecimal() and len(port) <= 5
            and 0 < int(port) < 65536):
        raise BadAddress(f"'{clip(address)}' is not a cluster address: give HOST:PORT (the head node's, "
                         "e.g. 10.0.0.5:6379), ray://HOST:PORT, or auto")
    return host, int(port)


def probe(address: str, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """Check that something answers at a cluster's HOST:PORT within `timeout_s`, before Ray
    is asked to connect there (it may wait a long time, or for ever, on an address where
    nothing listens). BadAddress for an address that is not one, RayBackendError saying
    what went wrong when nothing answers."""
    target = parse_address(address)
    if target is None:
        return
    import socket

    host, port = target
    where = f"cannot reach the Ray cluster at {clip(address)}"
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            pass
    except socket.gaierror as error:
        raise RayBackendError(f"{where}: unknown host '{clip(host)}' ({reason(error)})") from None
    except TimeoutError:
        raise RayBackendError(f"{where}: no answer within {timeout_s:g} seconds") from None
    except OSError as error:
        raise RayBackendError(f"{where}: {reason(error)} (is `ray start --head` running there, "
                              "and is the port open?)") from None
    except UnicodeError:  # a host name the resolver cannot encode (a label over 63 characters)
        raise RayBackendError(f"{where}: '{clip(host)}' is not a host name") from None


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayMissing(
            f"the Ray backend needs the 'ray' package, which is not installed; install it with: {INSTALL_HINT}"
        ) from None
    return ray


@contextlib.contextmanager
def ray_session(address: str | None, local_cpus: int | None = None) -> Iterator[Any]:
    """Ray, connected to the cluster at ``address``, or to a new local one (with
    ``local_cpus`` CPUs, all when None) when there is no address. A session this opened
    is shut down at the end; one already open (``ray.init`` by the caller) is reused. An
    address where nothing answers is a RayBackendError after at most CONNECT_TIMEOUT_S."""
    ray = import_ray()
    opened = not ray.is_initialized()
    if opened:
        if address is not None:
            probe(address)
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": logging.WARNING}
        if address is None:
            options["num_cpus"] = local_cpus
        try:
            ray.init(address=address, **options)
        except (ConnectionError, RuntimeError, ValueError) as error:
            where = f"the Ray cluster at {address}" if address else "a local Ray cluster"
            raise RayBackendError(f"cannot start or reach {where}: {error}") from None
    try:
        yield ray
    finally:
        if opened:
            ray.shutdown()


def library_sources(files: Sequence[Path]) -> tuple[Source, ...]:
    """The text of every file of a library, named by folder and file (a hero package is
    named by its file's stem, so that part of the name must survive the trip)."""
    return tuple((f"{f.parent.name}/{f.name}", f.read_bytes()) for f in files)


def build_from_sources(sources: tuple[Source, ...]) -> Any:
    """Build a library from the files sent: the files are written once under a folder named by
    their digest (so the on-disk parse cache serves the next actor), then built."""
    from sgs_dsl.compiler.library import build

    digest = hashlib.sha256(repr(sources).encode()).hexdigest()[:16]
    root = Path(tempfile.gettempdir()) / "sgs-dsl-ray" / digest
    paths = []
    for i, (name, text) in enumerate(sources):
        path = root / f"{i:03d}" / name  # the number keeps files of the same name apart, in order
        if not path.is_file() or path.read_bytes() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            part = path.with_name(f".{path.name}.{os.getpid()}")
            part.write_bytes(text)
            os.replace(part, path)  # whole files only, whatever other actors on the node do
        paths.append(path)
    return build(paths)


class GameWorker:
    """The body of a Ray actor: a library built once, then chunks of games."""

    def __init__(self, sources: tuple[Source, ...], settings: BatchSettings) -> None:
        self.library = build_from_sources(sources)
        self.settings = settings

    def play(self, start: int, stop: int) -> Chunk:
        return play_chunk(self.library, self.settings, start, stop)


def cluster_cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def ray_chunks(
    ray: Any, sources: tuple[Source, ...], settings: BatchSettings, games: int, workers: int
) -> Iterator[Chunk]:
    """The played chunks of a batch, in index order, from ``workers`` actors (one CPU each).
    Finished chunks that arrive early wait until those before them are in."""
    chunks = chunk_ranges(games, workers)
    actor_class = ray.remote(num_cpus=1)(GameWorker)
    actors = [actor_class.remote(sources, settings) for _ in range(min(workers, len(chunks)))]
    todo = iter(enumerate(chunks))
    pending: dict[Any, tuple[int, Any]] = {}  # ref -> (chunk number, its actor)

    def send(actor: Any) -> None:  # the actor's next chunk, if any is left
        item = next(todo, None)
        if item is not None:
            number, (start, stop) = item
            pending[actor.play.remote(start, stop)] = (number, actor)

    for actor in actors:
        for _ in range(1 + QUEUED_PER_ACTOR):
            send(actor)
    done: dict[int, Chunk] = {}
    following = 0
    try:
        while pending:
            [ref], _ = ray.wait(list(pending), num_returns=1)
            number, actor = pending.pop(ref)
            done[number] = _result(ray, ref)
            send(actor)
            while following in done:
                yield done.pop(following)
                following += 1
    finally:
        for actor in actors:
            ray.kill(actor)


def _result(ray: Any, ref: Any) -> Chunk:
    """A chunk's records; a worker that died or could not start (no sgs-dsl on its node)
    becomes a RayBackendError (a failing game does not: it is an error record)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayError as error:
        raise RayBackendError(f"a Ray worker failed (is sgs-dsl {_version()} installed on every node?): {error}") from None


def _version() -> str:
    from sgs_dsl import __version__

    return __version__
