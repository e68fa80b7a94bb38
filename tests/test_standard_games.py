"""Random games of the `standard` ruleset: heroes chosen, skills firing, nothing breaking."""

from __future__ import annotations

import collections

import pytest

from sgs_dsl.compiler.library import load_library
from sgs_dsl.game import play_game
from sgs_dsl.sim import derive_seed


@pytest.fixture(scope="module")
def library():
    return load_library()


@pytest.mark.parametrize("players,games", [(5, 80), (8, 80), (10, 20), (2, 20)])
def test_standard_games_keep_invariants_and_fire_skills(library, players, games):
    fired: collections.Counter[str] = collections.Counter()
    for i in range(games):
        result = play_game(library, "standard", players, derive_seed(11, i))
        assert result.error is None, result.error
        assert result.violations == []
        assert len(set(result.heroes)) == players
        fired.update(result.fired)
    skills = {s.name for h in library.heroes.values() for s in h.skills}
    if players >= 5:
        # 1,000-game batches fire all 40 (docs/performance.md); a small batch most of them
        assert len(skills & set(fired)) >= 30, sorted(skills - set(fired))
