"""Names in either script: Traditional and Simplified spellings of one name are one name."""

from __future__ import annotations

import functools

from ..resources import data_dir


@functools.lru_cache(maxsize=1)
def _table() -> dict[int, str]:
    table: dict[int, str] = {}
    for line in (data_dir("grammar") / "hant_hans.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            traditional, simplified = line.split()
            table[ord(traditional)] = simplified
    return table


@functools.lru_cache(maxsize=4096)
def normalize(name: str) -> str:
    """The lookup key of a name: Simplified script; pinyin ids are lower-cased."""
    return name.translate(_table()).lower()
