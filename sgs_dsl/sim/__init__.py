"""Batch simulation: run many seeded games and summarise them.

Pure functions used by ``sgs simulate`` and by the tests:

- :func:`derive_seed` gives game *i* of a batch its own seed, stable across processes;
- :func:`run_batch` plays the games (optionally on several processes) and returns
  per-game :class:`GameRecord` rows in game-index order;
- :func:`summarize` turns those rows into the report dictionary that ``--json`` writes.
"""

from sgs_dsl.sim.batch import BatchResult, GameRecord, derive_seed, run_batch
from sgs_dsl.sim.stats import TIMING_KEYS, summarize, wilson_interval

__all__ = [
    "TIMING_KEYS",
    "BatchResult",
    "GameRecord",
    "derive_seed",
    "run_batch",
    "summarize",
    "wilson_interval",
]
