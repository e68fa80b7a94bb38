"""A person at the terminal: each question shows what the seat may see (engine.view.SeatView)
and the legal options numbered; the person types a number.

Between questions the game's log is printed as this seat may read it (SeatView.log_lines:
cards only some seats saw read as a count to the others)."""

from __future__ import annotations

from typing import TextIO

from ..core.model import ROLE_ZH
from ..engine.decisions import Request
from ..engine.state import KINGDOM_ZH
from ..engine.view import SeatInfo, SeatView
from ..textsafe import clip, printable

EXIT_IO = 74  # output that cannot be written (EX_IOERR), as the cli says
EXIT_NO_INPUT = 1  # the input ended or failed before the game did: the game was not played out
MAX_LINE = 1024  # characters of a line that are kept; an answer is a few digits
QUIT = "q"  # typed instead of a number: the person leaves the game
SIDE_ZH = {**ROLE_ZH, **KINGDOM_ZH}  # a side as the modes name it: a role (identity) or a kingdom (國戰)


class LeftGame(BaseException):
    """The person left (q, exit status 0), the input ended or failed (1) or the terminal
    cannot be written (74). A BaseException, like KeyboardInterrupt, so that the game's
    catch-all for engine bugs lets it through and the game stops at once."""

    def __init__(self, why: str, status: int = 0):
        super().__init__(why)
        self.status = status


class TerminalAgent:
    """The protocol's agent for a person: reads answers from `stdin`, writes to `stdout`."""

    def __init__(self, stdin: TextIO, stdout: TextIO):
        self.stdin = stdin
        self.stdout = stdout
        self._view: SeatView | None = None  # the seat's live view, kept to print the log when no view is handed over
        self._shown = 0  # log lines printed so far

    def choose(self, request: Request, view: SeatView) -> int:
        self._view = view
        self.show_log()
        self._write("\n".join(["", *table_lines(view), "", *question_lines(request)]))
        return self._read(len(request.options))

    def forced(self, request: Request) -> None:
        """A question with one legal answer is not asked: it is shown as it happens."""
        self.show_log()
        self._write(f"  （唯一選項）{request.prompt} → {request.options[0].label}")

    def show_log(self) -> None:
        """The log lines written since the last call, as this seat may read them."""
        if self._view is None:  # nothing asked yet: the log starts with the first question
            return
        lines = self._view.log_lines(self._shown)
        self._shown += len(lines)
        for line in lines:
            if line:
                self._write(line)

    def _read(self, n: int) -> int:
        while True:
            self._write(f"your choice (1-{n}, {QUIT} to leave): ", end="")
            answer = self._read_line().strip()
            if answer.lower() == QUIT:
                raise LeftGame("the person left")
            hint = answer_hint(answer, n)
            if not hint:
                return _number(answer) - 1
            self._write(f"  {hint}")

    def _read_line(self) -> str:
        """One line typed, of at most MAX_LINE characters: the rest of a longer line is read
        and dropped in pieces of that size, so no line can fill the memory. LeftGame (exit
        status 1) at the end of input or when the input cannot be read."""
        try:
            line = self.stdin.readline(MAX_LINE)
            if not line:
                self._write("")
                raise LeftGame("the input ended before the game did", EXIT_NO_INPUT)
            rest = line
            while len(rest) == MAX_LINE and not rest.endswith("\n"):  # a longer line: skip the rest of it
                rest = self.stdin.readline(MAX_LINE)
        except (OSError, ValueError) as error:  # a terminal gone, a closed file, bytes that are not text
            self._write("")
            raise LeftGame(f"cannot read the input: {_why(error)}", EXIT_NO_INPUT) from None
        return line

    def _write(self, text: str, end: str = "\n") -> None:
        try:
            self.stdout.write(printable(text, lines=True) + end)
            self.stdout.flush()
        except OSError as error:  # a closed pipe or terminal: nobody is left to play
            raise LeftGame(f"cannot write to the terminal: {error.strerror or error}", EXIT_IO) from None


def answer_hint(answer: str, n: int) -> str:
    """Why `answer` is not one of the options 1..n, with what to type instead ("" when it is).
    An answer of any length is looked at safely: it is echoed cut short, and only a number
    short enough to be an option is converted."""
    want = f"type a number from 1 to {n} and press Enter ({QUIT} leaves the game)"
    if not answer:
        return f"no answer: {want}"
    if not answer.isdecimal():
        return f"'{clip(answer)}' is not a number: {want}"
    if len(answer.lstrip("0")) > len(str(n)) or not 1 <= _number(answer) <= n:
        return f"there is no option {clip(answer)}: {want}"
    return ""


def _number(digits: str) -> int:
    """The value of a string of decimal digits no longer than an option's number once its
    leading zeros are dropped (so far below int()'s limit of digits)."""
    return int(digits.lstrip("0") or "0")


def _why(error: Exception) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)


def question_lines(request: Request) -> list[str]:
    return [request.prompt] + [f"  {i}) {o.label}" for i, o in enumerate(request.options, 1)]


def table_lines(view: SeatView) -> list[str]:
    """The public table (every player as this seat sees them), then the seat's own cards."""
    players = view.players()
    if not any(p.max_hp for p in players):  # heroes are being chosen: nobody is seated yet
        return []
    me = players[view.seat]
    return [f"── table (deck {view.deck_count}) ──", *(_player_line(p, view.current) for p in players),
            f"── you: {me.seat + 1}號位 {me.name}, {side_zh(me.role)}, hp {me.hp}/{me.max_hp} ──",
            f"  hand: {_cards(view.hand)}",
            f"  equipment: {_cards(me.equips)}",
            f"  judge area: {_cards(me.judge)}"]


def _player_line(p: SeatInfo, current: int) -> str:
    mark = ">" if p.seat == current else " "
    generals = f" [{'·'.join(g or '?' for g in p.generals)}]" if p.generals else ""
    state = f"hp {p.hp}/{p.max_hp}" if p.alive else "dead"
    return (f" {mark}{p.seat + 1}號位 {p.name}{generals}  {side_zh(p.role)}  {state}  hand {p.hand_count}"
            f"  equipment {_cards(p.equips)}  judge {_cards(p.judge)}")


def side_zh(side: str | None) -> str:
    """A side in Chinese; "?" when this seat does not know it."""
    return SIDE_ZH.get(side, side) if side else "?"


def _cards(labels: tuple[str, ...]) -> str:
    return " ".join(labels) if labels else "-"
