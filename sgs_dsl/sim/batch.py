"""Run a batch of seeded games, on one process or several, in game-index order."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from sgs_dsl.agents.registry import AgentSpec, SeatAgents
from sgs_dsl.engine.invariants import DEFAULT_LEVEL, InvariantLevel
from sgs_dsl.engine.parts import DEFAULT_PARTS, Parts
from sgs_dsl.placement import HeroPlacement

#: Default turn cap of one game (the engine ends a longer game as a capped draw).
DEFAULT_MAX_TURNS = 600

#: Longest error text kept per game (tracebacks can be long).
MAX_ERROR_CHARS = 4000

#: Fewest games in a chunk sent to a worker, and chunks aimed at per worker (see chunk_ranges).
MIN_CHUNK = 4
CHUNKS_PER_WORKER = 32


def derive_seed(root_seed: int, index: int) -> int:
    """The seed of game ``index`` in a batch whose root seed is ``root_seed``.

    A hash of both numbers (SHA-256, not Python's salted ``hash``), so it is the same in
    every process, on every machine and backend; 63 bits, so it fits any RNG.
    """
    digest = hashlib.sha256(f"sgs-dsl/game/{int(root_seed)}/{int(index)}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@attrs.frozen
class GameRecord:
    """What the statistics keep of one game (small and picklable)."""

    index: int
    seed: int
    winner: str
    turns: int
    windows_opened: int = 0
    roles: tuple[str, ...] = ()
    heroes: tuple[Any, ...] = ()
    capped: bool = False
    error: str | None = None
    violations: tuple[str, ...] = ()
    fired: tuple[tuple[str, int], ...] = ()  # (skill or card name, times it fired), sorted
    timed_out: bool = False  # cut off at the per-game time limit: neither a result nor an error
    agents: tuple[str, ...] = ()  # the agent that played each seat, by name (agents/registry.py)
    featured_seat: int | None = None  # the seat (0-based) of the featured hero (`--feature`), if any

    @property
    def failed(self) -> bool:
        """An internal error or an invariant violation: the game counts as an error."""
        return self.error is not None or bool(self.violations)

    def failure_text(self) -> str:
        parts = []
        if self.error is not None:
            parts.append(self.error)
        parts.extend(f"invariant violated: {v}" for v in self.violations)
        return "\n".join(parts)


@attrs.frozen
class BatchResult:
    records: tuple[GameRecord, ...]
    elapsed_s: float
    #: Seconds the workers spent playing games, added up (the rest of ``workers * elapsed_s``
    #: is start-up, result transfer and idle time: the overhead of running in parallel).
    busy_s: float = 0.0
    workers: int = 1

    @property
    def overhead(self) -> float:
        """The share of the workers' wall time not spent playing (0 when all of it was)."""
        total = self.workers * self.elapsed_s
        return max(0.0, 1.0 - self.busy_s / total) if total > 0 else 0.0


def _clip(text: str) -> str:
    if len(text) <= MAX_ERROR_CHARS:
        return text
    half = MAX_ERROR_CHARS // 2
    return text[:half] + "\n[...]\n" + text[-half:]


def record_from_result(index: int, seed: int, result: Any, agents: Sequence[str] = (),
                       featured_seat: int | None = None) -> GameRecord:
    """Keep the fields of a ``GameResult`` the statistics need (and the agents that played it,
    and the seat of the featured hero)."""
    error = getattr(result, "error", None)
    heroes = getattr(result, "heroes", None) or ()
    fired = getattr(result, "fired", None) or {}
    timed_out = bool(getattr(result, "timed_out", False))  # then neither its winner nor its error counts
    return GameRecord(
        index=index,
        seed=seed,
        winner="timeout" if timed_out else str(result.winner),
        turns=int(result.turns),
        windows_opened=int(getattr(result, "windows_opened", 0) or 0),
        roles=tuple(str(r) for r in (getattr(result, "roles", None) or ())),
        heroes=tuple(tuple(h) if isinstance(h, (list, tuple)) else h for h in heroes),
        capped=bool(getattr(result, "capped", False)),
        error=None if error is None or timed_out else _clip(str(error)),
        violations=tuple(_clip(str(v)) for v in (getattr(result, "violations", None) or ())),
        fired=tuple(sorted((str(k), int(v)) for k, v in fired.items())),
        timed_out=timed_out,
        agents=tuple(agents),
        featured_seat=featured_seat,
    )


def play_one(
    library: Any, ruleset: str, players: int, root_seed: int, index: int, max_turns: int = DEFAULT_MAX_TURNS,
    game_timeout: float | None = None, agents: AgentSpec | None = None, invariants: str = DEFAULT_LEVEL,
    parts: Parts = DEFAULT_PARTS, placement: HeroPlacement | None = None,
) -> GameRecord:
    """Play game ``index`` of a batch, its seats played as ``agents`` says (all random by
    default), checked at the ``invariants`` level, with the heroes ``placement`` puts on seats
    in this game (`HeroPlacement.for_game`). Never raises for a failing game: it becomes an error row.
    With ``game_timeout`` (seconds of wall-clock time), a game still running after it is cut
    off at its next action and kept as a ``timed_out`` row; a game that ends in time is played
    exactly as without the limit."""
    from sgs_dsl.game import play_game

    seed = derive_seed(root_seed, index)
    seat_agents = SeatAgents(agents or AgentSpec())
    placement = placement or HeroPlacement()
    featured = placement.featured_seat(index, players)
    try:
        result = play_game(library, ruleset, players, seed, log=False, max_turns=max_turns,
                           game_timeout=game_timeout, agent_factory=seat_agents, invariants=invariants,
                           parts=parts, placed=placement.for_game(index, players))
        return record_from_result(index, seed, result, seat_agents.names, featured)
    except Exception:  # the simulator reports a crashing game, it does not crash with it
        return GameRecord(index=index, seed=seed, winner="error", turns=0, error=_clip(traceback.format_exc()),
                          featured_seat=featured)


# --- worker processes -------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


@attrs.frozen
class BatchSettings:
    """What every game of a batch shares, sent once to each worker."""

    ruleset: str
    players: int
    seed: int
    max_turns: int = DEFAULT_MAX_TURNS
    game_timeout: float | None = None
    agents: AgentSpec = AgentSpec()
    invariants: InvariantLevel = DEFAULT_LEVEL
    parts: Parts = DEFAULT_PARTS  # what each game is built from (engine/parts.py)
    placement: HeroPlacement = HeroPlacement()  # heroes put on seats (--hero, --feature)


def _init_worker(extra_paths: tuple[str, ...], settings: BatchSettings) -> None:
    from sgs_dsl.compiler.library import load_library

    # Under fork the parent's in-memory cache already holds the library: no load at all.
    _WORKER.update(library=load_library(tuple(Path(p) for p in extra_paths)), settings=settings)


def play_chunk(library: Any, settings: BatchSettings, start: int, stop: int) -> tuple[list[GameRecord], float]:
    """Play games ``start`` to ``stop - 1``; return their records and the seconds it took."""
    began = time.perf_counter()
    records = [play_one(library, settings.ruleset, settings.players, settings.seed, i, settings.max_turns,
                        settings.game_timeout, settings.agents, settings.invariants, settings.parts,
                        settings.placement)
                for i in range(start, stop)]
    return records, time.perf_counter() - began


def _play_in_worker(chunk: tuple[int, int]) -> tuple[list[GameRecord], float]:
    return play_chunk(_WORKER["library"], _WORKER["settings"], *chunk)


def chunk_ranges(games: int, workers: int) -> list[tuple[int, int]]:
    """Split ``range(games)`` into contiguous ``(start, stop)`` chunks.

    About 32 chunks per worker, so that the last ones finish close together, but at least
    ``MIN_CHUNK`` games each, so that sending a chunk and its records back costs little
    beside playing it.
    """
    size = max(MIN_CHUNK, -(-games // (workers * CHUNKS_PER_WORKER)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def _mp_context() -> multiprocessing.context.BaseContext:
    # fork shares the already-loaded library with the workers; elsewhere each worker loads it.
    if sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def effective_jobs(jobs: int, games: int) -> int:
    """``jobs`` <= 0 means one per CPU; never more processes than games."""
    if jobs <= 0:
        jobs = os.cpu_count() or 1
    return max(1, min(jobs, games))


def run_batch(
    ruleset: str,
    players: int,
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    max_turns: int = DEFAULT_MAX_TURNS,
    extra_paths: Sequence[Path] = (),
    library: Any = None,
    on_result: Callable[[GameRecord], None] | None = None,
    game_timeout: float | None = None,
    backend: str = "local",
    address: str | None = None,
    agents: AgentSpec | None = None,
    invariants: str = DEFAULT_LEVEL,
    parts: Parts = DEFAULT_PARTS,
    placement: HeroPlacement | None = None,
) -> BatchResult:
    """Play ``games`` games; game ``i`` uses ``derive_seed(seed, i)``.

    The records come back in game-index order whatever ``jobs`` is, so the statistics of
    ``jobs=1`` and ``jobs=N`` are identical. ``on_result`` is called once per finished
    game, in index order (for a progress bar). Errors from loading the library
    (``SgsError``) propagate; errors inside a game become error records. ``agents`` says
    which agent plays each seat (all random by default), ``invariants`` how often each game
    is checked (``InvariantLevel``; a bad name is a ValueError before any game), ``parts``
    what each game is built from (engine/parts.py), and ``placement`` the heroes put on seats
    (game ``i`` as ``placement.for_game(i, players)`` says); all travel to every worker. ``game_timeout``
    (seconds, > 0) cuts off each game still running after that long: its record has
    ``timed_out`` set (wall-clock time decides which games those are, so only a batch with
    no cut-off game is reproducible).

    ``backend="ray"`` plays them on the Ray cluster at ``address`` (a new local one when
    None) with ``jobs`` actors, at most one per CPU of the cluster (0: that many);
    connecting to the cluster is not counted in ``elapsed_s``. Raises ``RayBackendError``
    when Ray is missing or the cluster cannot be reached.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    if game_timeout is not None and not game_timeout > 0:
        raise ValueError("game_timeout must be a positive number of seconds")
    level = InvariantLevel(invariants)  # a ValueError naming the bad value, before the library loads
    extra = tuple(Path(p) for p in extra_paths)
    if library is None:
        from sgs_dsl.compiler.library import load_library

        library = load_library(extra)
    settings = BatchSettings(ruleset, players, seed, max_turns, game_timeout, agents or AgentSpec(), level, parts,
                             placement or HeroPlacement())
    if backend == "ray":
        from sgs_dsl.sim import ray_backend

        sources = ray_backend.library_sources([Path(f) for f in library.files])
        with ray_backend.ray_session(address, jobs if jobs > 0 else None) as ray:
            cpus = ray_backend.cluster_cpus(ray)  # an actor takes one: more would wait for ever
            workers = cpus if jobs <= 0 else min(jobs, cpus)
            workers = min(workers, len(chunk_ranges(games, workers)))
            return _collect(ray_backend.ray_chunks(ray, sources, settings, games, workers), workers, on_result)
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}")
    jobs = effective_jobs(jobs, games)
    return _collect(_chunks_played(library, settings, games, jobs, extra), jobs, on_result)


def _collect(
    chunks: Iterator[tuple[list[GameRecord], float]], workers: int, on_result: Callable[[GameRecord], None] | None
) -> BatchResult:
    """Take the played chunks (in index order), timing them from the first request on."""
    records: list[GameRecord] = []
    busy = 0.0
    start = time.perf_counter()
    for chunk, seconds in chunks:
        busy += seconds
        records.extend(chunk)
        if on_result is not None:
            for rec in chunk:
                on_result(rec)
    elapsed = time.perf_counter() - start
    return BatchResult(records=tuple(records), elapsed_s=elapsed, busy_s=busy, workers=workers)


def _chunks_played(
    library: Any, settings: BatchSettings, games: int, jobs: int, extra: tuple[Path, ...]
) -> Iterator[tuple[list[GameRecord], float]]:
    """The played chunks in index order: in this process, or from a pool of ``jobs``."""
    if jobs == 1:
        for i in range(games):  # one game a chunk, so that a progress bar moves game by game
            yield play_chunk(library, settings, i, i + 1)
        return
    initargs = (tuple(str(p) for p in extra), settings)
    with _mp_context().Pool(jobs, initializer=_init_worker, initargs=initargs) as pool:
        yield from pool.imap(_play_in_worker, chunk_ranges(games, jobs))
