"""A moment of a replayed game as a ruling skeleton (to be written)."""

from __future__ import annotations

from typing import Any


def skeleton_at(replay: Any, step: int) -> str:
    raise NotImplementedError
