"""A game a person played, as a file: the table (ruleset, players, seed, the computer's agents,
heroes placed), the person's seat and every answer they gave. A game is fixed by its ruleset,
seed and answers, so the file replays it exactly: `sgs run --answers FILE` prints the same log,
and `sgs serve` replays it step by step.

The file is JSON (``"format": "sgs-session"``), written by `sgs play --save` and by `sgs serve`
("Save game"). An answer is kept as its option's index and label: replayed, the label must be
the one the question offers at that index, so a file that does not fit the rules (another
library, an edited answer) stops with the question it no longer fits, never a wrong game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from .agents.registry import AgentSpec, SeatAgents
from .engine.decisions import Agent, Request
from .engine.parts import DEFAULT_PARTS, Parts

FORMAT = "sgs-session"
VERSION = 1


class SessionError(ValueError):
    """A session file that cannot be read or does not fit the game it names: what is wrong."""


@attrs.frozen
class Session:
    """One game with a person at `seat` (0-based): enough to play it again exactly."""

    ruleset: str
    players: int
    seed: int
    seat: int
    agents: AgentSpec = AgentSpec("heuristic")
    answers: tuple[tuple[int, str], ...] = ()  # (option index, its label), in the order asked
    max_turns: int = 600
    placed: tuple[tuple[int, str], ...] = ()  # (seat, hero) placed on purpose (`--hero`)

    def answered(self, index: int, label: str) -> Session:
        return attrs.evolve(self, answers=(*self.answers, (index, label)))

    def as_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "ruleset": self.ruleset, "players": self.players,
                "seed": self.seed, "seat": self.seat + 1, "agents": self.agents.as_json(),
                "max_turns": self.max_turns, "heroes": {str(s + 1): h for s, h in self.placed},
                "answers": [[i, label] for i, label in self.answers]}

    def dumps(self) -> str:
        return json.dumps(self.as_json(), ensure_ascii=False, indent=1) + "\n"


def loads(text: str) -> Session:
    """A session from its JSON text; SessionError says what is wrong with it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SessionError(f"not JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SessionError(f'not a session file: it has no "format": "{FORMAT}"')
    if data.get("version") != VERSION:
        raise SessionError(f"session format version {data.get('version')!r}; this sgs reads version {VERSION}")
    agents = _field(data, "agents", dict)
    try:
        return Session(
            ruleset=_field(data, "ruleset", str), players=_field(data, "players", int), seed=_field(data, "seed", int),
            seat=_field(data, "seat", int) - 1,
            agents=AgentSpec(str(agents.get("all", "random")), tuple(sorted((str(k), str(v)) for k, v in
                                                                      agents.get("roles", {}).items())),
                             tuple(sorted((int(k) - 1, str(v)) for k, v in agents.get("seats", {}).items()))),
            answers=tuple((int(i), str(label)) for i, label in _field(data, "answers", list)),
            max_turns=int(data.get("max_turns", 600)),
            placed=tuple(sorted((int(k) - 1, str(v)) for k, v in data.get("heroes", {}).items())))
    except (TypeError, ValueError, AttributeError) as error:
        raise SessionError(f"a malformed entry: {error}") from None


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SessionError(f'"{key}" should be {kind.__name__}, not {type(value).__name__}')
    return value


class AnswersAgent:
    """Gives a session's answers back, in order, each checked against the question it answers
    (the label at that index: AnswerMisfit when it is not); past the last, SessionEnded."""

    def __init__(self, answers: Sequence[tuple[int, str]]) -> None:
        self.answers = list(answers)
        self.given = 0

    def choose(self, request: Request, view: Any) -> int:
        if self.given >= len(self.answers):
            raise SessionEnded(self.given)
        index, label = self.answers[self.given]
        labels = request.labels()
        if not 0 <= index < len(labels) or labels[index] != label:
            raise AnswerMisfit(f"answer {self.given + 1} ({index + 1}: {label}) does not fit the question asked: "
                               f"{request.prompt} (options: {'／'.join(labels)})")
        self.given += 1
        return index


class Recorded:
    """An agent whose answers are kept, (index, label) each, for a session file."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.answers: list[tuple[int, str]] = []

    def choose(self, request: Request, view: Any) -> int:
        index: int = self.agent.choose(request, view)
        self.answers.append((index, request.options[index].label))
        return index

    def forced(self, request: Request) -> None:
        shown = getattr(self.agent, "forced", None)
        if shown is not None:
            shown(request)


class SessionEnded(BaseException):
    """The session's answers ran out before the game ended (a game left or still being played).
    A BaseException, like the terminal's LeftGame: the game's catch-all for engine bugs lets it through."""

    def __init__(self, given: int) -> None:
        super().__init__(f"the session's {given} answers end here")
        self.given = given


class AnswerMisfit(BaseException):
    """An answer that does not fit the question it meets: raised through the game (a
    BaseException, so the game's catch-all for engine bugs does not report it as one, with a
    traceback), then reported as the SessionError it is (`play_again`)."""


def agent_factory(session: Session, person: Agent) -> Callable[[Any, int], Agent]:
    """The seats' agents as `setup` makes them (game.AgentFactory): `person` at the session's
    seat, the session's agents elsewhere, each seeded by the game as `sgs run` seeds them."""

    others = SeatAgents(session.agents)

    def make(player: Any, seed: int) -> Agent:
        return person if player.seat == session.seat else others(player, seed)

    return make


def play_again(library: Any, session: Session, parts: Parts = DEFAULT_PARTS) -> tuple[list[str], Any]:
    """Play a session's game again, its person's answers given back: (the log, the GameResult),
    the result None when the answers end before the game does (a game left). SessionError when
    an answer does not fit the question it meets. `parts`: what the game is built from (a
    replay watches it through them)."""
    from .game import run, setup, turn_cap

    person = AnswersAgent(session.answers)
    lines: list[str] = []
    try:
        game = setup(library, session.ruleset, session.players, session.seed, log=True, parts=parts,
                     agent_factory=agent_factory(session, person), placed=dict(session.placed) or None)
        lines = game.lines
        result = run(game, turn_cap(library, session.ruleset, session.max_turns))
    except SessionEnded:
        return list(lines), None
    except AnswerMisfit as error:
        raise SessionError(str(error)) from None
    return result.log, result
