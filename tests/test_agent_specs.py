"""Agents per seat: `--agents NAME` and `--agent KEY=NAME` (a role or a 1-based seat), resolved
once the roles are dealt; the JSON records who played; the specs travel to workers."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sgs_dsl.agents import registry
from sgs_dsl.agents.random_agent import RandomAgent
from sgs_dsl.agents.registry import (
    AGENT_NAMES,
    AgentSpec,
    SeatAgents,
    SpecError,
    make_agent,
    parse_spec,
    roles_dealt,
)
from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.game import play_game, setup
from sgs_dsl.modes import make_mode
from sgs_dsl.sim.stats import strip_timing

ROLES5 = ["lord", "rebel", "loyalist", "rebel", "renegade"]


class Marked(RandomAgent):
    """A random agent that says which name it was made for (a stand-in for any agent)."""

    def __init__(self, name: str, seed: int) -> None:
        super().__init__(seed)
        self.name = name


@pytest.fixture()
def marked(monkeypatch):
    """make_agent returns Marked agents: placement is visible, games stay random-fast."""
    monkeypatch.setattr(registry, "make_agent", Marked)


@pytest.fixture(scope="module")
def library():
    return load_library(())


def test_the_registry_makes_every_named_agent():
    for name in AGENT_NAMES:
        agent = make_agent(name, 7)
        assert callable(agent.choose)
    with pytest.raises(ValueError, match="random, heuristic"):
        make_agent("smart", 1)


def test_specs_parse_roles_in_english_and_chinese_and_seats():
    spec = parse_spec("heuristic", ["主公=random", "rebel=heuristic", "3=random"], ROLES5)
    assert spec == AgentSpec("heuristic", (("lord", "random"), ("rebel", "heuristic")), ((2, "random"),))
    assert spec.as_json() == {"all": "heuristic", "roles": {"lord": "random", "rebel": "heuristic"},
                              "seats": {"3": "random"}}
    assert parse_spec(None, [], ROLES5) == AgentSpec()


def test_a_seat_entry_wins_over_its_role_and_a_role_over_the_default():
    spec = parse_spec("random", ["rebel=heuristic", "2=random"], ROLES5)
    assert spec.name_for(1, "rebel") == "random"  # seat 2 (0-based 1) named itself
    assert spec.name_for(3, "rebel") == "heuristic"
    assert spec.name_for(0, "lord") == "random"


@pytest.mark.parametrize("items, default, message, hint", [
    (["lord"], None, "is not KEY=NAME", "ROLE=NAME or SEAT=NAME"),
    (["=random"], None, "is not KEY=NAME", "ROLE=NAME"),
    (["boss=random"], None, "unknown role or seat 'boss'", "lord, loyalist, rebel, renegade"),
    (["lord=smart"], None, "unknown agent 'smart'", "random, heuristic"),
    ([], "smart", "unknown agent 'smart' in --agents", "random, heuristic"),
    (["6=random"], None, "no seat 6", "1 to 5"),
    (["0=random"], None, "no seat 0", "1 to 5"),
    (["lord=random", "主公=heuristic"], None, "gives 主公 twice", "one agent"),
])
def test_bad_specs_say_what_is_wrong_and_what_is_right(items, default, message, hint):
    with pytest.raises(SpecError, match=message) as bad:
        parse_spec(default, items, ROLES5)
    assert hint in bad.value.hint


def test_a_mode_without_roles_asks_for_seats():
    with pytest.raises(SpecError) as bad:
        parse_spec(None, ["lord=random"], ["", "", ""])
    assert "deals no roles" in bad.value.hint and "1 to 3" in bad.value.hint
    assert parse_spec(None, ["2=heuristic"], ["", "", ""]).seats == ((1, "heuristic"),)


@pytest.mark.parametrize("args, words", [
    (["--agent", "boss=random"], ["unknown role or seat 'boss'", "lord, loyalist, rebel, renegade"]),
    (["--agents", "smart"], ["unknown agent 'smart'", "random, heuristic"]),
    (["--agent", "9=random", "-p", "5"], ["no seat 9", "1 to 5"]),
    (["--ruleset", "hegemony", "--agent", "lord=random"], ["deals no roles"]),
])
def test_bad_specs_on_the_command_line_are_usage_errors(args, words):
    result = CliRunner().invoke(main, ["simulate", "-q", "-g", "1", *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output


def test_per_role_agents_sit_on_that_roles_seats(library, marked):
    rules = library.ruleset("standard")
    roles = roles_dealt(make_mode(rules), 8, True)
    assert sorted(roles) == ["lord", "loyalist", "loyalist", "rebel", "rebel", "rebel", "rebel", "renegade"]
    spec = parse_spec("random", ["rebel=heuristic", "loyalist=heuristic", "8=random"], roles)
    for seed in range(6):  # roles land on different seats game by game
        seat_agents = SeatAgents(spec)
        game = setup(library, "standard", 8, seed, agent_factory=seat_agents)
        for p in game.players:
            want = "random" if p.seat == 7 else "heuristic" if p.role in ("rebel", "loyalist") else "random"
            assert game.agents[p.seat].name == want, (seed, p.seat, p.role)
        assert seat_agents.names == [a.name for a in game.agents]


def test_an_all_random_spec_plays_the_default_game_byte_for_byte(library):
    plain = play_game(library, "standard", 5, 123, log=True)
    specced = play_game(library, "standard", 5, 123, log=True, agent_factory=SeatAgents(AgentSpec()))
    assert plain.log == specced.log and plain.winner == specced.winner


def _simulate(tmp_path, name, *args):
    out = tmp_path / name
    result = CliRunner().invoke(main, ["simulate", "--quiet", "--json", str(out), *args])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_json_records_which_agents_played_by_seat_and_role(tmp_path, marked):
    report = _simulate(tmp_path, "a.json", "-p", "5", "-g", "6", "-s", "2", "--agent", "lord=heuristic",
                       "--agent", "4=heuristic")
    agents = report["agents"]
    assert agents["spec"] == {"all": "random", "roles": {"lord": "heuristic"}, "seats": {"4": "heuristic"}}
    assert agents["by_seat"]["1"] == {"heuristic": 6} and agents["by_seat"]["4"] == {"heuristic": 6}
    assert agents["by_seat"]["2"] == {"random": 6}
    assert agents["by_role"]["lord"] == {"heuristic": 6}
    assert sum(n for row in agents["by_role"].values() for n in row.values()) == 30
    assert agents["wins"]["heuristic"]["seats"] == 12 and agents["wins"]["random"]["seats"] == 18


def test_the_default_json_says_every_seat_was_random(tmp_path):
    report = _simulate(tmp_path, "a.json", "-p", "4", "-g", "3")
    assert report["agents"]["spec"] == {"all": "random", "roles": {}, "seats": {}}
    assert report["agents"]["by_seat"] == {str(s): {"random": 3} for s in range(1, 5)}


def test_jobs_2_equals_jobs_1_with_agent_specs(tmp_path):
    args = ["-p", "5", "-g", "8", "-s", "9", "--agent", "rebel=heuristic", "--agent", "1=heuristic"]
    one = _simulate(tmp_path, "one.json", *args, "--jobs", "1")
    two = _simulate(tmp_path, "two.json", *args, "--jobs", "2")
    assert one["agents"]["by_role"]["rebel"] == {"heuristic": 16}
    assert strip_timing(one) == strip_timing(two)


def test_heuristic_seats_change_the_games(tmp_path):
    base = ["-p", "5", "-g", "6", "-s", "3"]
    plain = _simulate(tmp_path, "plain.json", *base)
    smart = _simulate(tmp_path, "smart.json", *base, "--agents", "heuristic")
    assert smart["errors"] == 0 and smart["agents"]["wins"].keys() == {"heuristic"}
    def games(report):
        return {k: v for k, v in strip_timing(report).items() if k != "agents"}

    assert games(plain) != games(smart)  # same seeds, other players: other games
