"""Reinforcement learning over sgs-dsl: a PettingZoo AEC environment (docs/rl.md). Needs the
rl extra (pettingzoo, gymnasium, numpy): pip install '.[rl]' in the sgs-dsl source folder."""

from __future__ import annotations

from typing import Any


def env(ruleset: str = "standard", players: int = 5, seed: int | None = None, **options: Any) -> Any:
    """A new environment: `ruleset`'s game at `players` seats, the first reset seeded `seed`
    (each later reset without a seed plays the next seed). Options: `library` (an
    api.load_library()), `max_turns` (200), `render_mode` ("ansi")."""
    from .environment import SgsEnv

    return SgsEnv(ruleset, players, seed, **options)
