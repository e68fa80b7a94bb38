"""A replay stops exactly at the step asked for: the table and log read there are the game's
at that moment, whatever the engine's cleanup writes as it unwinds from the stop."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgs_dsl.agents.registry import AgentSpec
from sgs_dsl.compiler.library import load_library
from sgs_dsl.sessions import Session
from sgs_dsl.web.replay import Replay, play_session
from sgs_dsl.web.rulingplay import ruling_replay

RULINGS = Path(__file__).resolve().parent / "rulings" / "basic_cards.ruling"


@pytest.fixture(scope="module")
def library():
    return load_library()


def _game(library) -> Replay:
    session = Session("standard", 4, 21, -1, AgentSpec("heuristic"))
    return Replay(lambda watch: play_session(library, session, watch), 4).record()


def test_every_sampled_step_of_a_game_reads_the_log_written_by_then(library):
    replay = _game(library)
    for at in range(0, len(replay.steps), max(1, len(replay.steps) // 40)):
        assert len(replay.at(at, None)["log"]) == replay.steps[at].line


def test_a_ruling_stopped_at_a_question_is_read_before_its_cleanup(library):
    replay, _ = ruling_replay(library, RULINGS.read_text(encoding="utf-8"), str(RULINGS), "殺被閃抵消")
    for at, step in enumerate(replay.steps):
        moment = replay.at(at, None)
        assert len(moment["log"]) == step.line, at
    asked = next(i for i, s in enumerate(replay.steps) if s.kind == "question" and "閃" in s.answer)
    moment = replay.at(asked, None)
    assert moment["table"]["resolving"] and moment["table"]["resolving"][0]["user"] == 0  # the 殺 still resolves
    assert moment["table"]["discard"] == []


def test_a_seat_view_hides_other_seats_questions(library):
    replay = _game(library)
    question = next(s for s in replay.steps if s.kind == "question" and s.seat == 1)
    assert question.shown_to(0) == {**question.brief(), "hidden": True}
    assert question.shown_to(1)["options"] == list(question.options)
    assert question.shown_to(None)["answer"] == question.answer
