"""Every hero skill of every built-in ruleset is played by the agent balance reports are read
from: in the batch `sgs balance -r RULESET -g 2000` plays (seed 0, its player count, the
default balance agent), each skill of the ruleset's heroes fires in some game. A skill that no
game fires would have its balance figures describe a hero without it (docs/ai.md).

The games are played in the batch's order and the test stops once every skill has fired: a
later game cannot take a firing back, so what is asserted is what the whole batch would show."""

from __future__ import annotations

import pytest

from sgs_dsl.agents.registry import BALANCE_AGENT, AgentSpec
from sgs_dsl.catalog import hero_skills
from sgs_dsl.cli import seat_count
from sgs_dsl.compiler.library import load_library
from sgs_dsl.sim.batch import play_one

BATCH = 2000
ROOT_SEED = 0  # `sgs balance`'s default --seed


def _rulesets_with_skills() -> list[str]:
    library = load_library()
    return [name for name in library.rulesets if any(hero_skills(library, name).values())]


@pytest.mark.parametrize("ruleset", _rulesets_with_skills())
def test_every_skill_fires_in_the_balance_batch(ruleset: str) -> None:
    library = load_library()
    players = seat_count(library, ruleset, None)
    unfired = {s for skills in hero_skills(library, ruleset).values() for s in skills}
    agents = AgentSpec(BALANCE_AGENT)
    played = 0
    while unfired and played < BATCH:
        record = play_one(library, ruleset, players, ROOT_SEED, played, agents=agents, invariants="turn")
        assert not record.failed, record.failure_text()
        unfired -= {name for name, _ in record.fired}
        played += 1
    assert not unfired, f"{ruleset}, {players} players: never fired in {BATCH} games: {'、'.join(sorted(unfired))}"


def test_balance_reports_are_read_from_the_lookahead_agent() -> None:
    """The agent a balance report plays unless told, and the one its --help names."""
    from click.testing import CliRunner

    from sgs_dsl.cli import main

    assert BALANCE_AGENT == "lookahead"
    text = " ".join(CliRunner().invoke(main, ["balance", "--help"]).output.split())
    assert f"[default: {BALANCE_AGENT}]" in text
