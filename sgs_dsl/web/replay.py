"""A game, or a ruling, step by step. A game is fixed by its ruleset, seed and answers, so a
replay plays it once to list its steps (each log line an event; each question put to a seat),
then plays it again to any step, the answers given back from that first play, and reads the
table there through the seats' views.

A step is a moment of the game: after a log line was written, or when a question was answered
(the table as it was asked: its effects come after). The game is the engine's own (a subclass
of the kernel's Game that notes its lines and questions), so a replay is the game itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..engine.decisions import Option
from ..engine.kernel import Game
from ..engine.parts import DEFAULT_PARTS, Parts
from ..engine.turn import Turn
from ..engine.view import SeatView
from ..sessions import Session, play_again
from .tableview import full_table, seat_table


@attrs.frozen
class Step:
    """One step: a log line (`line` its index) or a question put to `seat`."""

    kind: str  # "line" or "question"
    turn: int  # the game's turn count then (0 before the first turn)
    line: int  # log lines written by then
    seat: int | None = None  # the seat asked (a question)
    prompt: str = ""
    options: tuple[str, ...] = ()  # the legal options, in the engine's order
    answer: str = ""  # the label of the option given
    asked: str = ""  # the kind of question (Request.kind): a yes/no is put even with one option
    between_turns: bool = False  # asked outside any turn (3v3: which seats act next)

    def brief(self) -> dict[str, Any]:
        """What anyone may know of the step (its place, whose question): the step list's entry."""
        return {"kind": self.kind, "turn": self.turn, "seat": self.seat}

    def shown_to(self, viewer: int | None) -> dict[str, Any]:
        """The step as `viewer` (None: the full view) may read it: another seat's question shows
        only that it was asked."""
        if self.kind != "question":
            return self.brief()
        if viewer is not None and viewer != self.seat:
            return {**self.brief(), "hidden": True}
        return {**self.brief(), "prompt": self.prompt, "options": list(self.options), "answer": self.answer}


class _Stop(BaseException):
    """The replay reached the step asked for: the game stops there (a BaseException, so that
    the game's catch-all for engine bugs lets it through)."""


@attrs.define
class Watch:
    """What a watched game reports to: its steps, the answers given (index, label), and where
    to stop (`until`, with `at_stop` reading the table there)."""

    replay: list[tuple[int, str]] | None = None  # answers to give back (a second play)
    until: int | None = None
    at_stop: Callable[[Game], Any] | None = None
    steps: list[Step] = attrs.field(factory=list)
    answers: list[tuple[int, str]] = attrs.field(factory=list)
    turn_starts: list[int] = attrs.field(factory=list)  # the step at which each turn began
    stopped: Any = None  # what at_stop read
    game: Game | None = None
    on_turn: Callable[[Game], None] | None = None  # told when a turn begins (the skeleton's table)
    halted: bool = False  # stopped at `until`: nothing after it is noted
    about: str = ""  # the game played: ruleset, players, seed (a ruling skeleton's source)
    playing: int = 0  # turns being played (watched_turn): 0 between turns
    extra: bool = False  # the turn being played is an extra one

    def began(self, game: Game) -> None:
        self.game = game
        if self.replay is not None:
            game.replay, game.replay_at = list(self.replay), 0

    def add(self, game: Game, step: Step) -> None:
        if self.halted:  # the game is unwinding from the stop: what a `finally` writes is after it
            return
        if step.turn and len(self.turn_starts) < step.turn:
            self.turn_starts.append(len(self.steps))
            if self.on_turn is not None:
                self.on_turn(game)
        self.steps.append(step)
        if self.until is not None and len(self.steps) > self.until:
            if self.at_stop is not None:
                self.stopped = self.at_stop(game)
            self.halted = True
            raise _Stop


def watched_game(watch: Watch, base: type[Game] = Game) -> type[Game]:
    """The kernel's Game (or `base`, a subclass of it), reporting its lines and questions to `watch`."""

    class WatchedGame(base):  # type: ignore[valid-type, misc]  # a class given at run time
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            watch.began(self)

        def add_line(self, text: str) -> None:
            super().add_line(text)
            if self is watch.game:  # not a copy an agent plays forward to think (engine/forking.py)
                watch.add(self, Step("line", self.turns, len(self.lines)))

        def ask(self, player: Any, kind: str, prompt: str, options: list[Option], asker: str | None = None,
                for_seat: int | None = None, legal: Callable[[Option], bool] | None = None) -> Option:
            chosen: Option = super().ask(player, kind, prompt, options, asker, for_seat, legal)
            if self is not watch.game:
                return chosen
            index = next(i for i, o in enumerate(options) if o is chosen)
            watch.answers.append((index, chosen.label))
            shown = self.shown_name(self.asker if asker is None else asker)
            labels = tuple(o.label for o in options if legal is None or o is chosen or legal(o))
            watch.add(self, Step("question", self.turns, len(self.lines), player.seat,
                                 f"{shown}：{prompt}" if shown else prompt, labels, chosen.label, kind,
                                 watch.playing == 0))
            return chosen

    return WatchedGame


def watched_turn(watch: Watch, base: type[Turn] = Turn) -> type[Turn]:
    """The turn process (`base`), telling `watch` whether a turn is being played, and whether an extra one."""

    class WatchedTurn(base):  # type: ignore[valid-type,misc]
        def play_turn(self, player: Any, start: str | None = None, extra: bool = False) -> None:
            if self.game is not watch.game:  # a copy played forward
                super().play_turn(player, start, extra)
                return
            watch.playing += 1
            watch.extra = extra
            try:
                super().play_turn(player, start, extra)
            finally:
                watch.playing -= 1

    return WatchedTurn


def play_session(library: Any, session: Session, watch: Watch, base: Parts = DEFAULT_PARTS) -> Any:
    """Play a session's game (its person's answers given back from the file) under `watch`;
    the GameResult, or None when it stopped at the step asked for or where the answers end.
    `base`: the parts the game is built from (a test watches the game through them)."""
    watch.about = f"{session.ruleset}, {session.players} players, seed {session.seed}"
    parts = attrs.evolve(base, game=watched_game(watch, base.game or Game), turn=watched_turn(watch, base.turn))
    try:
        return play_again(library, session, parts)[1]
    except _Stop:
        return None


def moment(game: Game, viewer: int | None) -> dict[str, Any]:
    """The table and the log at a moment, as `viewer` sees them (None: the full view)."""
    views = [SeatView(game, p.seat) for p in game.players]
    if viewer is None:
        return {"table": full_table(views), "log": list(game.lines)}
    return {"table": seat_table(views[viewer]), "log": views[viewer].log_lines()}


@attrs.define
class Replay:
    """A game's steps, and the table at any of them. `play(watch)` plays the game under a watch
    (the same game every time: a seeded game, a session, a ruling)."""

    play: Callable[[Watch], Any]
    players: int
    steps: list[Step] = attrs.field(factory=list)
    answers: list[tuple[int, str]] = attrs.field(factory=list)
    turn_starts: list[int] = attrs.field(factory=list)
    result: Any = None
    replays_answers: bool = True  # a second play may give the answers back (a game; a ruling answers by its script)

    def record(self) -> Replay:
        watch = Watch()
        self.result = self.play(watch)
        self.steps, self.answers, self.turn_starts = watch.steps, watch.answers, watch.turn_starts
        return self

    def at(self, step: int, viewer: int | None, read: Callable[[Game, int | None], Any] = moment) -> Any:
        """What `read` makes of the game at `step` (0-based, clamped to the steps there are)."""
        step = max(0, min(step, len(self.steps) - 1))
        watch = Watch(replay=self.answers if self.replays_answers else None, until=step,
                      at_stop=lambda game: read(game, viewer))
        self.play(watch)
        if watch.stopped is None:
            raise RuntimeError(f"the game no longer reaches step {step}: it is not the game recorded")
        return watch.stopped
