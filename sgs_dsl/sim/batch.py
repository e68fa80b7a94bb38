"""Run a batch of seeded games, on one process or several, in game-index order."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

#: Default turn cap of one game (the engine ends a longer game as a capped draw).
DEFAULT_MAX_TURNS = 600

#: Longest error text kept per game (tracebacks can be long).
MAX_ERROR_CHARS = 4000


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


def _clip(text: str) -> str:
    if len(text) <= MAX_ERROR_CHARS:
        return text
    half = MAX_ERROR_CHARS // 2
    return text[:half] + "\n[...]\n" + text[-half:]


def record_from_result(index: int, seed: int, result: Any) -> GameRecord:
    """Keep the fields of a ``GameResult`` the statistics need."""
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
    )


def play_one(
    library: Any, ruleset: str, players: int, root_seed: int, index: int, max_turns: int = DEFAULT_MAX_TURNS,
    game_timeout: float | None = None,
) -> GameRecord:
    """Play game ``index`` of a batch. Never raises for a failing game: it becomes an error row.
    With ``game_timeout`` (seconds of wall-clock time), a game still running after it is cut
    off at its next action and kept as a ``timed_out`` row; a game that ends in time is played
    exactly as without the limit."""
    from sgs_dsl.game import play_game

    seed = derive_seed(root_seed, index)
    try:
        result = play_game(library, ruleset, players, seed, log=False, max_turns=max_turns,
                           game_timeout=game_timeout)
        return record_from_result(index, seed, result)
    except Exception:  # the simulator reports a crashing game, it does not crash with it
        return GameRecord(index=index, seed=seed, winner="error", turns=0, error=_clip(traceback.format_exc()))


# --- worker processes -------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(extra_paths: tuple[str, ...], ruleset: str, players: int, root_seed: int, max_turns: int,
                 game_timeout: float | None) -> None:
    from sgs_dsl.compiler.library import load_library

    _WORKER.update(
        library=load_library(tuple(Path(p) for p in extra_paths)),
        ruleset=ruleset,
        players=players,
        root_seed=root_seed,
        max_turns=max_turns,
        game_timeout=game_timeout,
    )


def _play_in_worker(index: int) -> GameRecord:
    w = _WORKER
    return play_one(w["library"], w["ruleset"], w["players"], w["root_seed"], index, w["max_turns"],
                    w["game_timeout"])


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
) -> BatchResult:
    """Play ``games`` games; game ``i`` uses ``derive_seed(seed, i)``.

    The records come back in game-index order whatever ``jobs`` is, so the statistics of
    ``jobs=1`` and ``jobs=N`` are identical. ``on_result`` is called once per finished
    game, in index order (for a progress bar). Errors from loading the library
    (``SgsError``) propagate; errors inside a game become error records. ``game_timeout``
    (seconds, > 0) cuts off each game still running after that long: its record has
    ``timed_out`` set (wall-clock time decides which games those are, so only a batch with
    no cut-off game is reproducible).
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    if game_timeout is not None and not game_timeout > 0:
        raise ValueError("game_timeout must be a positive number of seconds")
    extra = tuple(Path(p) for p in extra_paths)
    if library is None:
        from sgs_dsl.compiler.library import load_library

        library = load_library(extra)
    jobs = effective_jobs(jobs, games)
    records: list[GameRecord] = []
    start = time.perf_counter()
    if jobs == 1:
        for i in range(games):
            rec = play_one(library, ruleset, players, seed, i, max_turns, game_timeout)
            records.append(rec)
            if on_result is not None:
                on_result(rec)
    else:
        ctx = _mp_context()
        chunksize = max(1, min(16, games // (jobs * 8)))
        initargs = (tuple(str(p) for p in extra), ruleset, players, seed, max_turns, game_timeout)
        with ctx.Pool(jobs, initializer=_init_worker, initargs=initargs) as pool:
            for rec in pool.imap(_play_in_worker, range(games), chunksize=chunksize):
                records.append(rec)
                if on_result is not None:
                    on_result(rec)
    elapsed = time.perf_counter() - start
    return BatchResult(records=tuple(records), elapsed_s=elapsed)
