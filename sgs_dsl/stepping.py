"""A game you drive one answer at a time. The engine asks its agents (they are called, they do
not call); a program that wants to ask "what is the question now?" and then answer it (the
Python API, the RL environment) runs the game in a thread of its own that stops at each
question to an open seat until `answer` is given. Only one of the two threads runs at any
moment, so the game is the same game, step for step, as the one `sgs run` plays.

Open seats are answered through `answer`; the others by their agents. A seat's view
(`view(seat)`) may be read while the game waits for an answer (and after it ended)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from typing import Any

from .engine.decisions import Agent, Request
from .engine.kernel import Game
from .engine.view import SeatView

AgentFactory = Callable[[Any, int], Agent]  # game.AgentFactory: (player, seed) -> agent


class Closed(BaseException):
    """The driver was closed while its game waited: the game's thread ends (a BaseException,
    which the game's catch-all for engine bugs lets through)."""


class SteppedGame:
    """One game, set up as `game.setup` sets it up (the same seed draws the same table), run
    until its first question to an open seat. `question` is that question (None once the
    game is over); `answer(i)` gives option i and runs the game to the next one."""

    def __init__(self, library: Any, ruleset: str, players: int, seed: int, open_seats: Collection[int],
                 agent_factory: AgentFactory, max_turns: int = 600, placed: dict[int, str] | None = None,
                 invariants: str = "turn") -> None:
        self.library, self.ruleset, self.players, self.seed = library, ruleset, players, seed
        self.open_seats = frozenset(open_seats)
        self._make = agent_factory
        self.max_turns, self.placed, self.invariants = max_turns, placed, invariants
        self.question: Request | None = None
        self.game: Game | None = None
        self.result: Any = None
        self.error: BaseException | None = None  # what stopped the setup (a rules error in the opening)
        self._turn = threading.Condition()
        self._game_runs = True  # whose turn it is to run: the game's thread or the caller's
        self._answer: int | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._play, name=f"sgs-stepped-{seed}", daemon=True)
        with self._turn:
            self._thread.start()
            self._turn.wait_for(lambda: not self._game_runs)

    @property
    def over(self) -> bool:
        return self.question is None

    def view(self, seat: int) -> SeatView:
        if self.game is None:
            raise RuntimeError("the game was not set up")
        if self._game_runs:
            raise RuntimeError("a view is read while the game waits for an answer")
        return SeatView(self.game, seat)

    def answer(self, index: int) -> None:
        """Answer the question now asked with option `index` (0-based); the game runs on to
        the next question to an open seat, or to its end. A ValueError, and nothing played,
        when `index` is not an option of the question."""
        question = self.question
        if question is None:
            raise ValueError("the game is over: no question is asked")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(question.options):
            raise ValueError(f"{index!r} is not an option of the question: answer 0 to {len(question.options) - 1}")
        with self._turn:
            self._answer, self._game_runs = index, True
            self._turn.notify_all()
            self._turn.wait_for(lambda: not self._game_runs)

    def close(self) -> None:
        """Stop a game that waits for an answer (its thread ends)."""
        if self.question is None:
            return
        with self._turn:
            self._closed, self._game_runs = True, True
            self._turn.notify_all()
        self._thread.join()

    # ------------------------------------------------------------ the game's thread
    def _play(self) -> None:
        from .game import run, setup, turn_cap

        try:
            game = setup(self.library, self.ruleset, self.players, self.seed, log=True,
                         agent_factory=self._agent, placed=self.placed or None)
            self.game = game
            self.result = run(game, turn_cap(self.library, self.ruleset, self.max_turns), self.invariants)
        except Closed:
            pass
        except Exception as error:  # the opening itself broke (a rules error as the hands are dealt)
            self.error = error
        with self._turn:
            self.question, self._game_runs = None, False
            self._turn.notify_all()

    def _agent(self, player: Any, seed: int) -> Agent:
        return _Asked(self) if player.seat in self.open_seats else self._make(player, seed)

    def _ask(self, request: Request) -> int:
        with self._turn:
            self.question, self._game_runs = request, False
            self._turn.notify_all()
            self._turn.wait_for(lambda: self._game_runs)
            if self._closed:
                raise Closed
            answer, self._answer = self._answer, None
        assert answer is not None
        return answer


class _Asked:
    """An open seat's agent: its questions wait for `SteppedGame.answer`."""

    def __init__(self, driver: SteppedGame) -> None:
        self.driver = driver

    def choose(self, request: Request, view: Any) -> int:
        if self.driver.game is None:  # a question during setup (a hero to choose): the game is being made
            self.driver.game = view._game
        return self.driver._ask(request)
