"""`sgs play`: a person at the terminal, through a pseudo-terminal (pexpect) with a scripted
person; and what the seat's log shows of hidden cards."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys

import pexpect
import pytest
from click.testing import CliRunner

from sgs_dsl.agents.terminal import MAX_LINE, LeftGame, TerminalAgent, answer_hint
from sgs_dsl.cli import main
from sgs_dsl.compiler.library import load_library
from sgs_dsl.engine.decisions import Option, Request
from sgs_dsl.engine.view import SeatView
from sgs_dsl.game import setup

QUESTION = re.compile(r"your choice \(1-(\d+), q to leave\): ")
SEED = 3


def spawn(*args: str) -> pexpect.spawn:
    command = ["-m", "sgs_dsl.cli", "play", "--players", "5", "--seat", "1", "--seed", str(SEED), *args]
    # a person's terminal delivers Ctrl-C: the child starts with SIGINT at its default even
    # when the tests run with it ignored (a shell's background job), which it would inherit
    return pexpect.spawn(sys.executable, command, encoding="utf-8", timeout=10, dimensions=(50, 200),
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def finish(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    return child.before


def test_a_scripted_person_plays_a_whole_game_and_bad_input_is_asked_again():
    child = spawn()
    child.expect(QUESTION)
    screen = child.before
    assert re.search(r"\n  1\) \S", screen) and "  2) " in screen  # the legal options, numbered
    for bad, hint in (("x", "'x' is not a number"), ("", "no answer"), ("99", "there is no option 99")):
        child.sendline(bad)
        child.expect(QUESTION)
        assert hint in child.before and "type a number from 1 to" in child.before
    child.sendline("1")
    transcript = ""
    while child.expect([QUESTION, r"winner: \w+ \(.*\) after \d+ turns"]) == 0:
        transcript += child.before
        assert "── table (deck " in child.before and "── you: 1號位 " in child.before
        child.sendline(child.match.group(1))  # always the last option
    assert "  hand: 【" in transcript  # the person's cards, by name
    assert "—— 第1回合：" in transcript and "摸2張牌" in transcript  # the log as it happens
    rest = finish(child)
    assert child.exitstatus == 0, rest
    assert "Traceback" not in rest


def test_ctrl_c_ends_the_game_cleanly_with_status_130():
    child = spawn("--ai", "random")
    child.expect(QUESTION)
    child.sendintr()
    rest = finish(child)
    assert "interrupted: the game stops here" in rest
    assert "Traceback" not in rest
    assert child.exitstatus == 130


def test_the_end_of_input_stops_the_game_with_status_1():
    child = spawn("--ai", "random")
    child.expect(QUESTION)
    child.sendeof()
    rest = finish(child)
    assert rest.strip() == "the input ended before the game did: the game stops here"
    assert child.exitstatus == 1


def test_q_leaves_the_game_with_status_0():
    child = spawn("--ai", "random")
    child.expect(QUESTION)
    child.sendline("q")
    rest = finish(child)
    assert "the person left: the game stops here" in rest and "Traceback" not in rest
    assert child.exitstatus == 0


def play(stdin: bytes | None, *, closed: bool = False) -> subprocess.CompletedProcess:
    """`sgs play` in a new process, its answers piped in (or stdin closed), failing the test
    rather than hanging it."""
    command = [sys.executable, "-m", "sgs_dsl.cli", "play", "--players", "5", "--seed", str(SEED), "--ai", "random"]
    return subprocess.run(command, input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL,
                          capture_output=True, timeout=60, check=False,
                          preexec_fn=(lambda: os.close(0)) if closed else None)


def _ended_cleanly(done: subprocess.CompletedProcess, last: str) -> str:
    err = done.stderr.decode("utf-8")
    assert done.returncode == 1, err
    assert err.splitlines() == [last]  # one line, no traceback, no internal error
    return done.stdout.decode("utf-8")


def test_a_closed_stdin_is_one_line_and_status_1_before_the_game():
    done = play(None, closed=True)
    out = _ended_cleanly(done, "error: cannot read answers: standard input is closed")
    assert out == ""  # nothing was played


def test_an_empty_stdin_ends_the_game_at_the_first_question():
    out = _ended_cleanly(play(b""), "the input ended before the game did: the game stops here")
    assert out.count("your choice (1-") == 1


@pytest.mark.parametrize("junk", [b"9" * 5000, b"0" * 5000 + b"1", b"x" * 10_000_000, b"\xff\xfe\x1b[2J",
                                  "\u202e\uff13".encode()])
def test_an_answer_of_any_length_or_bytes_is_asked_again(junk):
    out = _ended_cleanly(play(junk + b"\n"), "the input ended before the game did: the game stops here")
    if junk.startswith(b"0"):  # 0...01 is option 1: the game goes on to the next question
        assert out.count("your choice (1-") >= 2
        return
    hints = [line for line in out.splitlines() if "type a number from 1 to" in line]
    assert len(hints) == 1 and len(hints[0]) < 250  # echoed cut short, never whole
    assert "\x1b" not in out and "\u202e" not in out  # controls and bidi overrides escaped
    assert len(out) < 4000


def test_the_agent_reads_a_long_line_in_bounded_pieces():
    limits: list[int] = []

    class Recording(io.StringIO):
        def readline(self, size: int = -1) -> str:
            limits.append(size)
            return super().readline(size)

    view = SeatView(setup(load_library(), "standard", 5, 1, log=True), 0)
    out = io.StringIO()
    stdin = Recording("7" * 100_000 + "\n2\n")
    assert ask(TerminalAgent(stdin, out), view) == 1
    assert limits and all(0 < size <= MAX_LINE for size in limits)
    assert "there is no option 7777777777" in out.getvalue() and "7" * 100 not in out.getvalue()


def test_an_input_that_fails_stops_the_game_with_status_1():
    class Failing(io.StringIO):
        def readline(self, size: int = -1) -> str:
            raise OSError(5, "Input/output error")

    view = SeatView(setup(load_library(), "standard", 5, 1, log=True), 0)
    with pytest.raises(LeftGame) as left:
        ask(TerminalAgent(Failing(), io.StringIO()), view)
    assert left.value.status == 1 and str(left.value) == "cannot read the input: Input/output error"


def test_a_seat_beyond_the_table_is_a_usage_error():
    result = CliRunner().invoke(main, ["play", "--players", "5", "--seat", "6", "--seed", "1"])
    assert result.exit_code == 2
    assert "6 is not a seat of this table: choose 1 to 5" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("answer", "hint"), [("", "no answer"), ("-1", "is not a number"), ("0", "no option 0"),
                                              ("4", "no option 4"), ("3", ""), ("0003", ""), ("9" * 5000, "no option"),
                                              ("0" * 5000 + "2", ""), ("x" * 5000, "is not a number")])
def test_answer_hints(answer, hint):
    got = answer_hint(answer, 3)
    assert (hint in got and got) if hint else got == ""
    assert len(got) < 200  # a long answer is echoed cut short


def ask(agent: TerminalAgent, view: SeatView) -> int:
    return agent.choose(Request(view.seat, "play", "出牌階段：選擇要使用的牌", (Option("a", 0), Option("b", 1))), view)


def test_the_agent_reads_a_number_and_leaves_on_q_or_the_end_of_input():
    view = SeatView(setup(load_library(), "standard", 5, 1, log=True), 0)
    out = io.StringIO()
    assert ask(TerminalAgent(io.StringIO("zz\n2\n"), out), view) == 1
    assert out.getvalue().count("your choice (1-2") == 2 and "  1) a\n  2) b" in out.getvalue()
    for typed in ("q\n", ""):
        with pytest.raises(LeftGame):
            ask(TerminalAgent(io.StringIO(typed), io.StringIO()), view)


def test_a_seat_reads_the_hidden_lines_of_others_as_their_public_text():
    game = setup(load_library(), "standard", 5, 1, log=True)
    assert game.hidden_lines  # the heroes each seat was offered
    for seat in range(5):
        lines = SeatView(game, seat).log_lines()
        assert len(lines) == len(game.lines)
        for index, (seats, public) in game.hidden_lines.items():
            assert lines[index] == (game.lines[index] if seat in seats else public)
            assert "候選" not in public


def test_cards_moved_from_the_deck_into_a_hand_are_named_only_to_that_hand():
    game = setup(load_library(), "standard", 5, 1, log=True)
    taker, card = game.players[2], game.deck[-1]
    assert game.moves.move_by_text([card], "hand", taker, "gain", taker)
    mine, theirs = SeatView(game, 2).log_lines(), SeatView(game, 3).log_lines()
    assert card.label() in mine[-1] and card.label() not in theirs[-1]
    assert theirs[-1].startswith("1張牌獲得")


def test_the_log_is_printed_once_between_questions():
    game = setup(load_library(), "standard", 5, 1, log=True)
    out = io.StringIO()
    agent = TerminalAgent(io.StringIO("1\n1\n"), out)
    view = SeatView(game, 0)
    ask(agent, view)
    game.log("新的一行")
    ask(agent, view)
    assert out.getvalue().count("新的一行") == 1
    assert out.getvalue().count(view.log_lines()[0]) == 1


def test_cards_looked_at_or_taken_from_the_deck_are_named_only_to_those_who_see_them():
    from sgs_dsl.compiler.runtime import look_at
    from sgs_dsl.core.defs import Ctx

    game = setup(load_library(), "standard", 5, 1, log=True)
    looker, holder = game.players[1], game.players[4]
    look_at(Ctx(game, {}), looker, holder.hand)
    game.zones.gain(looker, game.deck[-1])
    for seat, named in ((1, True), (4, True), (0, False)):
        looked = SeatView(game, seat).log_lines()[-2]
        assert (holder.hand[0].label() in looked) is named
        assert looked.endswith("觀看4張牌") is not named
    taken = [SeatView(game, seat).log_lines()[-1] for seat in (1, 4)]
    assert "【" in taken[0] and taken[1].endswith("獲得一張牌")


def test_a_terminal_that_cannot_be_written_stops_the_game_with_status_74():
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    view = SeatView(setup(load_library(), "standard", 5, 1, log=True), 0)
    with pytest.raises(LeftGame) as left:
        ask(TerminalAgent(io.StringIO("1\n"), Closed()), view)
    assert left.value.status == 74 and "Broken pipe" in str(left.value)
