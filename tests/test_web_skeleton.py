"""A moment of a replayed game as a ruling skeleton: it loads, and played by the ruling runner
it replays the same turn up to that moment (its script is matched answer for answer), for
seeded games of several rulesets and agents."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from sgs_dsl.agents.registry import AgentSpec
from sgs_dsl.compiler.library import load_library
from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.runner import RulingResult, run_ruling
from sgs_dsl.sessions import Session
from sgs_dsl.web.replay import Replay, Step, play_session
from sgs_dsl.web.skeleton import card_text, skeleton_at

ROOT = Path(__file__).resolve().parents[1]
MAX_TURNS = 12

# (ruleset, players, seed, agent): games whose skeletons hold nothing a ruling cannot write
GAMES = [
    ("standard", 5, 1, "random"),
    ("standard", 5, 2, "heuristic"),
    ("junzheng", 5, 1, "random"),
    ("junzheng", 6, 2, "heuristic"),
    ("hegemony", 5, 1, "random"),
    ("campus_3v3", 6, 1, "random"),
    ("campus_3v3", 6, 2, "heuristic"),
    ("basic", 4, 1, "random"),
]


@cache
def library() -> object:
    return load_library()


@cache
def replay(ruleset: str, players: int, seed: int, agent: str, max_turns: int = MAX_TURNS) -> Replay:
    session = Session(ruleset, players, seed, -1, AgentSpec(agent), max_turns=max_turns)
    return Replay(lambda watch: play_session(library(), session, watch), players).record()


def run(text: str) -> RulingResult:
    rulings = parse_rulings(text, "skeleton.ruling", library())
    assert len(rulings) == 1
    return run_ruling(rulings[0], library())


def turn_start(r: Replay, step: int) -> int:
    return max(s for s in r.turn_starts if s <= step)


def answered(step: Step) -> bool:
    """A question the ruling's script answers (the engine settles a single option alone)."""
    return step.kind == "question" and not step.between_turns and (len(step.options) > 1 or step.asked == "invoke")


def positions(r: Replay) -> dict[str, int]:
    """An early step, one in the middle of a middle turn, and a question (not the play phase's)."""
    starts = r.turn_starts
    mid = len(starts) // 2
    question = next(i for i in range(starts[mid + 1], len(r.steps)) if answered(r.steps[i]) and r.steps[i].asked != "play")
    return {"early": starts[1] + 1, "mid": (starts[mid] + starts[mid + 1]) // 2, "question": question}


def unwritable(text: str) -> list[str]:
    """The skeleton's comments naming state a ruling cannot write."""
    return [line for line in text.split("script {")[0].splitlines() if line.startswith("  #") and "cannot" in line]


@pytest.mark.parametrize("where", ["early", "mid", "question"])
@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-seed{g[2]}-{g[3]}")
def test_the_skeleton_replays_its_turn_up_to_the_step(game: tuple[str, int, int, str], where: str) -> None:
    r = replay(*game)
    step = positions(r)[where]
    text = skeleton_at(r, step)
    assert unwritable(text) == []
    result = run(text)
    # the ruling plays on past the step: the first question the game answered from there on is
    # the one its script leaves unanswered, with the same prompt (the same turn, the same moment)
    following = next((s for s in r.steps[step:] if answered(s)), None)
    if following is None or following.turn != r.steps[step].turn or following.between_turns:
        assert result.failures == ()
    else:
        assert len(result.failures) == 1, result.failures
        assert result.failures[0].startswith(f"unanswered question to seat {following.seat + 1}: '{following.prompt}'")
    answers = [s for s in r.steps[turn_start(r, step):step] if answered(s)]
    assert text.count(" answers ") >= len(answers)


def turn_ending_in_a_line(r: Replay) -> int:
    """A turn (from the third) whose last step is a log line, not a question: its skeleton
    there answers every question of the turn."""
    return next(k for k in range(2, len(r.turn_starts) - 1) if r.steps[r.turn_starts[k + 1] - 1].kind == "line")


def test_a_whole_turn_passes_and_logs_what_the_game_logged() -> None:
    r = replay("standard", 5, 2, "heuristic")
    k = turn_ending_in_a_line(r)
    step = r.turn_starts[k + 1] - 1
    text = skeleton_at(r, step)
    result = run(text)
    assert result.passed, result.failures
    game_lines = r.at(step, None)["log"][r.steps[r.turn_starts[k]].line - 1:]
    plain = [line for line in result.trace if not line.startswith((" ", "裁定"))]
    assert plain[1:] == game_lines[1:]  # the turn's own header counts the ruling's turns
    assert len(plain) > 3


def test_the_table_is_the_one_at_the_turn_start() -> None:
    r = replay("standard", 5, 1, "random")
    step = positions(r)["mid"]
    start = turn_start(r, step)
    text = skeleton_at(r, step)
    assert text.split("  script {")[0] == skeleton_at(r, start).split("  script {")[0].replace(f"step {start}", f"step {step}")
    current = r.at(start, None, lambda game, _: game.current.seat)
    assert f"turn {current + 1};" in text
    assert "ruleset standard;" in text and "standard, 5 players, seed 1, step" in text


def listed(text: str, keyword: str) -> list[str]:
    body = text.split(f"  {keyword} [")[1].split("];")[0]
    return [c.strip() for c in body.replace("\n", " ").split(",") if c.strip()]


def test_the_deck_is_written_whole_top_first_and_the_discard_pile_too() -> None:
    r = replay("standard", 5, 1, "random")
    start = r.turn_starts[3]
    text = skeleton_at(r, start)
    deck, discard = r.at(start, None, lambda game, _: ([card_text(c) for c in reversed(game.deck)],
                                                       [card_text(c) for c in game.discard_pile]))
    assert listed(text, "deck") == deck and len(deck) > 40
    assert listed(text, "discard") == discard and discard
    assert any(c.startswith("standard.") for c in deck + discard)  # an edition's card, by its qualified name


def test_a_step_at_a_question_leaves_it_to_the_judge() -> None:
    r = replay("junzheng", 5, 1, "random")
    step = positions(r)["question"]
    here = r.steps[step]
    text = skeleton_at(r, step)
    assert f"# step {step}: seat {here.seat + 1} is asked {here.prompt}" in text
    assert f'# the game answered: {here.seat + 1} answers "{here.answer}";' in text
    assert "expect {" in text


def test_hegemony_seats_name_their_generals_and_which_are_shown() -> None:
    r = replay("hegemony", 5, 1, "random")
    text = skeleton_at(r, positions(r)["mid"])
    seats = [line for line in text.splitlines() if line.startswith("  seat ")]
    assert len(seats) == 5 and all(" generals " in s and " shown " in s for s in seats)
    assert any(" shown none" not in s for s in seats)
    assert not any(" lord " in s or " rebel " in s for s in seats)


def test_3v3_seats_are_leaders_and_followers() -> None:
    r = replay("campus_3v3", 6, 1, "random")
    text = skeleton_at(r, positions(r)["early"])
    roles = [line.split()[2] for line in text.splitlines() if line.startswith("  seat ")]
    assert roles == ["leader", "follower", "follower", "leader", "follower", "follower"]


def test_dead_seats_are_written_dead_and_their_cards_lie_elsewhere() -> None:
    r = replay("standard", 5, 7, "random", max_turns=60)
    step = 459
    text = skeleton_at(r, step)
    assert "seat 2 renegade hero 陸遜 dead;" in text
    result = run(text)
    assert not any("not a legal answer" in f or "never asked" in f for f in result.failures)


def test_what_a_ruling_cannot_write_is_named() -> None:
    # a 周泰 kept alive below 0 hp by 不屈; a spent limited skill
    notes = unwritable(skeleton_at(replay("hegemony", 5, 6, "heuristic", max_turns=40), 678))
    assert any("alive at -4 hp" in n for n in notes)
    text = skeleton_at(replay("hegemony", 6, 2, "heuristic"), 55)
    assert " spent 雄異" in text and not any("雄異" in n for n in unwritable(text))  # a limited skill used


def test_a_card_in_a_judge_area_as_another_trick_is_written_as_it_and_judged_so() -> None:
    text = skeleton_at(replay("standard", 5, 3, "random", max_turns=60), 240)
    assert "judge [閃電 ♥Q, 紫騂 ♦K as standard.樂不思蜀]" in text and "as another trick" not in text
    result = run(text)  # the turn plays through both judgements to the moment's next question
    assert len(result.failures) == 1 and result.failures[0].startswith("unanswered question to seat 5: '棄牌階段")


def test_a_step_before_the_first_turn_gives_the_first_turn_unplayed() -> None:
    r = replay("campus_3v3", 6, 1, "random")
    text = skeleton_at(r, 0)
    assert " answers " not in text
    result = run(text)
    assert len(result.failures) == 1 and result.failures[0].startswith("unanswered question")


def test_sgs_ruling_accepts_a_skeleton(tmp_path: Path) -> None:
    r = replay("standard", 5, 2, "heuristic")
    path = tmp_path / "moment.ruling"
    path.write_text(skeleton_at(r, r.turn_starts[turn_ending_in_a_line(r) + 1] - 1), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", "from sgs_dsl.cli import main; main()", "ruling", str(path)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS" in done.stdout


def test_an_agent_thinking_on_copies_of_the_game_adds_no_steps() -> None:
    # the lookahead agent plays copies of the game forward: their lines and questions are not
    # the game's, so the replay's steps, turns and the skeleton's script are the game's alone
    r = replay("standard", 4, 3, "lookahead", max_turns=3)
    assert len(r.turn_starts) == 3
    assert [r.steps[s].turn for s in r.turn_starts] == [1, 2, 3]
    step = (r.turn_starts[1] + r.turn_starts[2]) // 2
    result = run(skeleton_at(r, step))
    following = next(s for s in r.steps[step:] if answered(s))
    assert len(result.failures) == 1
    assert result.failures[0].startswith(f"unanswered question to seat {following.seat + 1}: '{following.prompt}'")


def test_the_server_serves_a_skeleton_that_loads() -> None:
    from starlette.testclient import TestClient

    from sgs_dsl.web.server import make_app

    client = TestClient(make_app(library(), "standard"))
    opened = client.post("/api/replays", json={"source": "seed", "ruleset": "standard", "players": 5, "seed": 1,
                                               "max_turns": 6}).json()
    step = opened["turn_starts"][2] + 4
    served = client.get(f"/api/replays/{opened['id']}/{step}/ruling")
    assert served.status_code == 200 and served.headers["content-type"].startswith("text/plain")
    assert "ruleset standard;" in served.text and f"step {step}" in served.text
    assert unwritable(served.text) == []
    result = run(served.text)
    assert not any("not a legal answer" in f or "never asked" in f or "was asked" in f for f in result.failures)
