"""The Python API: load a library, play a seeded game answering some seats yourself, read a
seat's view, play batches. Documented, with runnable examples, in docs/api.md.

    from sgs_dsl import api

    library = api.load_library()
    game = api.new_game(library, "standard", players=5, seed=1, agents="heuristic", open_seats=[0])
    while not game.over:
        question = game.question              # asked of one of the open seats
        game.answer(question.cancel if question.cancel is not None else 0)
    print(game.result.winner, game.result.turns)

Everything here is a thin layer over the engine: the game is the one `sgs run` plays for the
same ruleset, seed and agents (an open seat answered as an agent would have answered it gives
the same log), and a seat's view is the one the agents are handed (engine/view.py).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

import attrs

from .agents.registry import AGENT_NAMES, AgentLoadError, AgentSpec, SeatAgents, agent_class, make_agent
from .engine.decisions import Option, Request, declining_option
from .engine.view import SeatInfo, SeatView
from .game import GameResult
from .sessions import Session
from .sim.batch import BatchResult, GameRecord
from .stepping import SteppedGame

__all__ = ["AGENT_NAMES", "Agent", "AgentLoadError", "BatchResult", "Game", "GameRecord", "GameResult", "Option",
           "Question", "Request", "SeatInfo", "SeatView", "agent_class", "load_library", "new_game", "play",
           "play_batch", "play_session", "rulesets"]


class Agent(Protocol):
    """A player: made as ``Class(seed)`` (its own seeded randomness, so that a game is
    reproducible), asked ``choose(request, view)`` at each question with more than one legal
    option, it answers the index of one of ``request.options`` (0-based).

    ``request`` (engine.decisions.Request): ``seat``, ``kind`` (play / target / respond /
    invoke / discard / pick_card / hero / ...), ``prompt``, ``options`` (each an Option with a
    ``label``, the Chinese text the log shows). ``view`` (engine.view.SeatView): what the seat
    may see, never the game itself. Optional: ``forced(request)`` is told of the questions
    with one legal option that the engine answers alone."""

    def choose(self, request: Request, view: SeatView) -> int: ...


def load_library(paths: Iterable[str | Path] = ()) -> Any:
    """The built-in library, plus the ``.sgs`` files (or folders of them) in ``paths``.
    Raises syntax.diagnostics.SgsError, listing each problem located, for text that does not check."""
    from .compiler.library import load_library as load

    files: list[Path] = []
    for path in map(Path, paths):
        files.extend(sorted(path.rglob("*.sgs")) if path.is_dir() else [path])
    return load(tuple(files))


def rulesets(library: Any) -> list[str]:
    """The names of the library's rulesets (`sgs rulesets`)."""
    return sorted(library.rulesets)


@attrs.frozen
class Question:
    """The question a game waits on: asked of ``seat``; ``options`` are the legal answers'
    labels, in the engine's order; ``cancel`` the one that declines (None when all act)."""

    seat: int
    kind: str
    prompt: str
    options: tuple[str, ...]
    cancel: int | None
    request: Request  # the engine's own question


AgentsArg = str | AgentSpec | Mapping[int, Any] | Callable[[Any, int], Any]


def _factory(agents: AgentsArg) -> Callable[[Any, int], Any]:
    """The game's agent factory (game.AgentFactory) from a name (``"heuristic"``,
    ``"module:Class"``), an AgentSpec, a mapping seat -> name / agent class / agent, or a
    factory (player, seed) -> agent."""
    if isinstance(agents, str):
        agents = AgentSpec(agents)
    if isinstance(agents, AgentSpec):
        return SeatAgents(agents)
    if isinstance(agents, Mapping):
        table = dict(agents)

        def by_seat(player: Any, seed: int) -> Any:
            found = table.get(player.seat, "random")
            if isinstance(found, str):
                return make_agent(found, seed)
            return found(seed) if isinstance(found, type) else found

        return by_seat
    return agents


class Game:
    """A seeded game being played; the ``open_seats`` are answered through ``answer``."""

    def __init__(self, library: Any, ruleset: str, players: int, seed: int, agents: AgentsArg = "random",
                 open_seats: Collection[int] = (), max_turns: int = 600) -> None:
        if ruleset not in library.rulesets:
            raise ValueError(f"unknown ruleset {ruleset!r}; the rulesets are {', '.join(rulesets(library))}")
        from .modes import make_mode

        make_mode(library.rulesets[ruleset]).check_players(players)  # a ValueError saying which counts it seats
        if any(not 0 <= s < players for s in open_seats):
            raise ValueError(f"open seats are 0 to {players - 1}")
        self.library, self.ruleset, self.players, self.seed = library, ruleset, players, seed
        self._driver = SteppedGame(library, ruleset, players, seed, open_seats, _factory(agents), max_turns)
        if self._driver.error is not None:
            raise self._driver.error

    @property
    def over(self) -> bool:
        return self._driver.over

    @property
    def question(self) -> Question | None:
        """The question the game waits on (None once it is over)."""
        request = self._driver.question
        if request is None:
            return None
        return Question(request.seat, request.kind, request.prompt, tuple(request.labels()), declining_option(request),
                        request)

    def answer(self, index: int) -> None:
        """Answer the question with option ``index``; the game plays on to the next question to
        an open seat, or to its end. ValueError for an index that is not an option."""
        self._driver.answer(index)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now (its hand, the table's public facts): the agents' view."""
        return self._driver.view(seat)

    @property
    def result(self) -> GameResult | None:
        """The winner, turns, sides, heroes, reason, error (None while the game goes on)."""
        result: GameResult | None = self._driver.result
        return result

    @property
    def log(self) -> list[str]:
        """The whole log so far (every seat's cards: a judge's view)."""
        game = self._driver.game
        return list(game.lines) if game is not None else []

    def log_for(self, seat: int) -> list[str]:
        """The log as ``seat`` may read it."""
        return self.view(seat).log_lines()

    def close(self) -> None:
        """Stop a game that waits for an answer (it need not be played out)."""
        self._driver.close()

    def __enter__(self) -> Game:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def new_game(library: Any, ruleset: str, players: int, seed: int, agents: AgentsArg = "random",
             open_seats: Collection[int] = (), max_turns: int = 600) -> Game:
    """A new seeded game (see :class:`Game`)."""
    return Game(library, ruleset, players, seed, agents, open_seats, max_turns)


def play(library: Any, ruleset: str, players: int, seed: int, agents: AgentsArg = "random",
         max_turns: int = 600) -> GameResult:
    """A whole game played by agents; its result (``log`` holds the whole log). The same as
    ``sgs run -r RULESET -p PLAYERS --seed SEED --agents NAME``."""
    from .game import play_game

    return play_game(library, ruleset, players, seed, log=True, max_turns=max_turns, agent_factory=_factory(agents))


def play_session(library: Any, session: Session) -> tuple[list[str], GameResult | None]:
    """A saved game (sessions.py, `sgs play --save`) played again: its log and result."""
    from .sessions import play_again

    return play_again(library, session)


def play_batch(library: Any, ruleset: str, players: int, games: int, seed: int = 0,
               agents: str | AgentSpec = "random", jobs: int = 1, on_game: Callable[[GameRecord], None] | None = None,
               max_turns: int = 600) -> BatchResult:
    """``games`` games, game i seeded ``derive_seed(seed, i)`` as `sgs simulate` seeds it, on
    ``jobs`` processes; ``on_game(record)`` is called for each game in index order. Returns
    the batch (``records``: one GameRecord per game)."""
    from .sim.batch import run_batch

    spec = AgentSpec(agents) if isinstance(agents, str) else agents
    return run_batch(ruleset, players, games, seed, jobs=jobs, library=library, on_result=on_game, agents=spec,
                     max_turns=max_turns)

