"""Session files: a played game saved (`sgs play --save`, `sgs serve`) and played again to the
same log (`sgs run --answers`)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sgs_dsl.agents.registry import AGENT_NAMES, AgentSpec, SeatAgents
from sgs_dsl.cli import AGENT_CHOICES, main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.engine.decisions import Option, Request
from sgs_dsl.game import play_game
from sgs_dsl.sessions import (
    AnswerMisfit,
    AnswersAgent,
    Session,
    SessionEnded,
    SessionError,
    loads,
    play_again,
)


@pytest.fixture(scope="module")
def library():
    return load_library()


def test_a_session_reads_back_as_written():
    session = Session("hegemony", 4, 12, 2, AgentSpec("heuristic", (("lord", "random"),), ((0, "lookahead"),)),
                      ((0, "曹操"), (3, "結束出牌")), 40, ((1, "劉備"),))
    assert loads(session.dumps()) == session
    data = json.loads(session.dumps())
    assert data["seat"] == 3 and data["agents"]["seats"] == {"1": "lookahead"} and data["heroes"] == {"2": "劉備"}


@pytest.mark.parametrize(("text", "why"), [
    ("{", "not JSON"),
    ("[]", "not a session file"),
    ('{"format": "sgs-session", "version": 9}', "version 9"),
    ('{"format": "sgs-session", "version": 1, "ruleset": "standard", "players": "5", "seed": 1, "seat": 1,'
     ' "agents": {}, "answers": []}', '"players" should be int'),
    ('{"format": "sgs-session", "version": 1, "ruleset": "standard", "players": 5, "seed": 1, "seat": 1,'
     ' "agents": {}, "answers": [[0]]}', "malformed"),
])
def test_a_file_that_is_not_a_session_says_what_is_wrong(text, why):
    with pytest.raises(SessionError, match=why):
        loads(text)


def test_an_answer_that_does_not_fit_its_question_stops_the_replay():
    request = Request(0, "play", "出牌階段：選擇要使用的牌", (Option("【殺】♠7"), Option("結束出牌")))
    agent = AnswersAgent([(1, "結束出牌"), (0, "【桃】♥3")])
    assert agent.choose(request, None) == 1
    with pytest.raises(AnswerMisfit, match="does not fit the question asked"):
        agent.choose(request, None)
    with pytest.raises(SessionEnded):
        AnswersAgent([]).choose(request, None)


def test_a_game_saved_by_sgs_play_plays_again_to_the_same_end(tmp_path, library):
    saved = tmp_path / "game.json"
    played = CliRunner().invoke(main, ["play", "-r", "standard", "-p", "4", "--seed", "8", "--agents", "random",
                                       "--save", str(saved)], input="1\n" * 3000)
    assert played.exit_code == 0, played.output[-500:]
    session = loads(saved.read_text(encoding="utf-8"))
    assert session.seat == 0 and session.answers and session.agents == AgentSpec("random")
    again = CliRunner().invoke(main, ["run", "--answers", str(saved)])
    assert again.exit_code == 0, again.output[-500:]
    assert played.output.splitlines()[-1] == again.output.splitlines()[-1]  # winner: ... after N turns
    log, result = play_again(library, session)
    assert result is not None and again.output.splitlines()[1:-1] == log
    for line in ("1號位主公選擇了", "—— 第1回合："):  # what the person read, as the game played again wrote it
        assert any(line in x for x in played.output.splitlines()) and any(line in x for x in log)


def test_a_game_left_is_saved_as_far_as_it_was_played(tmp_path):
    saved = tmp_path / "left.json"
    played = CliRunner().invoke(main, ["play", "-p", "4", "--seed", "2", "--agents", "random", "--save", str(saved)],
                                input="1\n1\nq\n")
    assert played.exit_code == 0 and "the person left" in played.output
    assert len(loads(saved.read_text(encoding="utf-8")).answers) == 2
    again = CliRunner().invoke(main, ["run", "--answers", str(saved)])
    assert again.exit_code == 0 and "the game was left before it ended" in again.output
    assert "winner:" not in again.output


def test_run_answers_refuses_a_table_of_its_own_and_answers_that_do_not_fit(tmp_path):
    saved = tmp_path / "game.json"
    saved.write_text(Session("standard", 4, 8, 0, AgentSpec("random"), ((0, "無此武將"),)).dumps(), encoding="utf-8")
    clash = CliRunner().invoke(main, ["run", "--answers", str(saved), "--seed", "3"])
    assert clash.exit_code == 2 and "leave out --ruleset" in clash.output
    wrong = CliRunner().invoke(main, ["run", "--answers", str(saved)])
    assert wrong.exit_code == 1 and "do not fit this game" in wrong.output and "Traceback" not in wrong.output
    (tmp_path / "x.json").write_text("{}", encoding="utf-8")
    bad = CliRunner().invoke(main, ["run", "--answers", str(tmp_path / "x.json")])
    assert bad.exit_code == 2 and "not a session file" in bad.output


def test_run_takes_the_agents_as_simulate_does(library):
    done = CliRunner().invoke(main, ["run", "-p", "4", "--seed", "5", "--agents", "heuristic", "--agent", "2=random"])
    assert done.exit_code == 0, done.output[-500:]
    spec = AgentSpec("heuristic", (), ((1, "random"),))
    result = play_game(library, "standard", 4, 5, log=True, agent_factory=SeatAgents(spec))
    assert done.output.splitlines()[1:len(result.log) + 1] == result.log


def test_play_offers_the_agents_the_registry_makes():
    assert AGENT_CHOICES == AGENT_NAMES
