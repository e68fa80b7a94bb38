"""A person playing one game in the browser. The game runs in a thread of its own; the person's
seat has an agent (`BrowserAgent`) that hands each question to the page and waits for the
answer. Every message to the page is built from the seat's view (web/tableview.py), and an
answer is one of the question's options by its index, or refused: the engine decides what is
legal, the page only shows it.

The game is set up exactly as `sgs run --answers` sets it up (sessions.py), so the session it
saves, played again there, gives the same log."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from ..engine.decisions import Request
from ..engine.parts import DEFAULT_PARTS, Parts
from ..engine.view import SeatView
from ..sessions import Session, SessionEnded, agent_factory
from .tableview import question, seat_table

LEAVE = -1  # the answer that stops the game: the person left (the page closed)


class Left(BaseException):
    """The person left the game (a BaseException: the game's catch-all lets it through)."""


class BrowserAgent:
    """The person's seat: each question is sent to the page; the game waits for the answer."""

    def __init__(self, game: PlayGame) -> None:
        self.game = game
        self.shown = 0  # log lines sent so far

    def choose(self, request: Request, view: SeatView) -> int:
        return self.game.ask(request, view)


class PlayGame:
    """One game with a person at `session.seat`. What the page is sent goes, in order, to `send`
    (by default into `messages`); `answer` gives the person's answer to the question now asked.
    `parts`: what the game is built from (engine/parts.py; a test watches the game through them)."""

    def __init__(self, library: Any, session: Session, send: Callable[[dict[str, Any]], None] | None = None,
                 parts: Parts = DEFAULT_PARTS) -> None:
        self.library = library
        self.session = session
        self.parts = parts
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.send = send or self.messages.put  # called from the game's thread
        self._answers: queue.Queue[int] = queue.Queue()
        self._lock = threading.Lock()
        self.asked: tuple[int, Request] | None = None  # (number, question) awaiting an answer
        self.questions = 0
        self.agent = BrowserAgent(self)
        self.log: list[str] = []  # the whole log, once the game is over
        self.over = False
        self.game: Any = None  # the game, once set up
        self.left = False
        self.thread = threading.Thread(target=self._play, name=f"sgs-game-{session.seed}", daemon=True)

    def start(self) -> PlayGame:
        self.thread.start()
        return self

    # ------------------------------------------------------------ the game's thread
    def _play(self) -> None:
        from ..game import run, setup, turn_cap

        s = self.session
        try:
            game = setup(self.library, s.ruleset, s.players, s.seed, log=True, parts=self.parts,
                         agent_factory=agent_factory(s, self.agent), placed=dict(s.placed) or None)
            self.game = game
            if self.left:
                self._stop(game)
            result = run(game, turn_cap(self.library, s.ruleset, s.max_turns))
        except (Left, SessionEnded):
            self.send({"type": "left"})
            return
        except Exception as error:  # a table that cannot be set up (a rules error in the opening)
            self.send({"type": "error", "error": str(error)})
            return
        if self.left:  # stopped at the time limit `leave` set
            self.send({"type": "left"})
            return
        self.log = list(result.log)
        self.over = True
        view = SeatView(game, s.seat)
        self.send({"type": "over", "table": seat_table(view), "log": self._new_lines(view),
                           "winner": result.winner, "reason": result.reason, "error": result.error,
                           "violations": list(result.violations), "sides": list(result.roles),
                           "turns": result.turns, "session": self.session.as_json()})

    def ask(self, request: Request, view: SeatView) -> int:
        with self._lock:
            self.questions += 1
            self.asked = (self.questions, request)
        self.send({"type": "question", "table": seat_table(view), "log": self._new_lines(view),
                           "question": question(request, self.questions)})
        index = self._answers.get()
        if index == LEAVE:
            raise Left
        label = request.options[index].label
        self.session = self.session.answered(index, label)
        return index

    def _new_lines(self, view: SeatView) -> list[str]:
        lines = view.log_lines(self.agent.shown)
        self.agent.shown += len(lines)
        return lines

    # ------------------------------------------------------------ the server's side
    def answer(self, number: Any, index: Any) -> str:
        """Give the answer `index` to question `number`; "" when taken, else why it is refused
        (a question not asked now, an index that is not one of its options)."""
        with self._lock:
            if self.asked is None:
                return "no question is awaiting an answer"
            asked, request = self.asked
            if type(number) is not int or number != asked:  # not True, nor 1.0, for question 1
                return f"question {number!r} is not the one asked now ({asked})"
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(request.options):
                return (f"{index!r} is not an option of question {asked}: "
                        f"answer 0 to {len(request.options) - 1}")
            self.asked = None
        self._answers.put(index)
        return ""

    def leave(self) -> None:
        """The page went away: the game stops at its next question to the person, or at its
        next action (the person's seat may never be asked again: dead, or no seat at all)."""
        self.left = True
        self._answers.put(LEAVE)
        if self.game is not None:
            self._stop(self.game)

    @staticmethod
    def _stop(game: Any) -> None:
        game.budget.limit_time(0)  # the computer seats play on no longer: no one watches
