"""The same seed plays the same game, byte for byte, release after release: the logs of a few
hundred seeded games on the built-in rulesets, hashed, against tests/data/log_hashes.json.

A change that alters a log changes a rule's outcome or its trace. When it is meant to (a
rules fix, a new window line), regenerate the hashes and say why in the commit:

    SGS_WRITE_LOG_HASHES=1 pytest tests/test_log_hashes.py

A change meant only to make the engine faster must leave every hash as it is."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from sgs_dsl.compiler.library import load_library
from sgs_dsl.game import play_game

HASHES = Path(__file__).parent / "data" / "log_hashes.json"
# (ruleset, players, games): the identity rulesets, 國戰 and the campus modes
TABLES = (("basic", 5, 60), ("standard", 5, 60), ("standard", 8, 30), ("junzheng", 6, 30),
          ("hegemony", 6, 30), ("campus", 5, 20), ("campus_3v3", 6, 20), ("classic", 6, 20))


def game_hash(library, ruleset: str, players: int, seed: int) -> str:
    result = play_game(library, ruleset, players, seed, log=True)
    # the windows opened and the skills fired too: a faster path that skips a window must count it
    fired = sorted(result.fired.items())
    text = "\n".join(result.log) + (f"\n{result.winner} {result.turns} {result.error} {result.violations}"
                                    f" {result.windows_opened} {fired}")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def table_hashes(library) -> dict[str, list[str]]:
    return {f"{ruleset} {players}": [game_hash(library, ruleset, players, seed) for seed in range(games)]
            for ruleset, players, games in TABLES}


def test_seeded_games_play_the_logs_they_played_before() -> None:
    library = load_library()
    hashes = table_hashes(library)
    if os.environ.get("SGS_WRITE_LOG_HASHES"):
        HASHES.write_text(json.dumps(hashes, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        pytest.skip("log hashes written")  # never skipped in a normal run
    stored = json.loads(HASHES.read_text(encoding="utf-8"))
    assert set(stored) == set(hashes), "the tables changed: regenerate the hashes"
    for table, games in hashes.items():
        changed = [seed for seed, (a, b) in enumerate(zip(stored[table], games, strict=True)) if a != b]
        assert not changed, f"{table}: the logs of seeds {changed[:10]} changed (see this module's docstring)"


@pytest.mark.parametrize("ruleset, players", [(r, p) for r, p, _ in TABLES])
def test_a_game_without_its_log_plays_the_same_game(ruleset: str, players: int) -> None:
    """The simulator plays with `log=False`, which skips building the log's lines: nothing a
    line is made of may change the game (a read that counts a filter as fired, a draw)."""
    library = load_library()
    for seed in range(8):
        logged, unlogged = (play_game(library, ruleset, players, seed, log=log) for log in (True, False))
        assert unlogged.log == [] and logged.log
        assert (unlogged.winner, unlogged.turns, unlogged.windows_opened, unlogged.fired, unlogged.error) == (
            logged.winner, logged.turns, logged.windows_opened, logged.fired, logged.error), seed
