"""Run a ruling: build its exact table (and the mode's setup on it), play its runs with a
strict script, check the outcome. Every failure is reported: the script's, up to where it
can no longer be matched, then every expectation's."""

from __future__ import annotations

from typing import Any

import attrs

from ..compiler.library import load_library
from ..core.model import PHASE_ZH, GameOver, Player, RulesError, TurnEnded
from ..engine.invariants import InvariantBroken, Invariants
from ..engine.kernel import Game
from ..engine.parts import DEFAULT_PARTS, Parts
from .checks import check_all
from .model import Ruling, Run
from .script import ScriptFailure, label_of
from .table import build_table, deal

__all__ = ["RulingResult", "ScriptFailure", "build_table", "label_of", "run_ruling"]


@attrs.frozen
class RulingResult:
    ruling: Ruling
    trace: tuple[str, ...]
    failures: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.failures


@attrs.define
class _Play:
    """One ruling being played: what went wrong so far, and whose turn the phase runs are in."""

    game: Game
    failures: list[str] = attrs.field(factory=list)
    stopped: bool = False  # the script could no longer be matched (or the engine broke)
    winner: str = "none"
    phase_turn: int | None = None  # the seat whose turn the last `phase` run was part of
    last_in_order: Player | None = None  # the last turn a `play N turns` run played


def run_ruling(ruling: Ruling, library: Any = None, parts: Parts = DEFAULT_PARTS) -> RulingResult:
    """Play a ruling on its table; `parts`: what the game is built from (engine/parts.py)."""
    library = library or load_library()
    try:
        game, script = build_table(ruling, library, parts)
    except ScriptFailure as problem:
        return RulingResult(ruling, (), (str(problem),))
    game.add_line(f"裁定：{ruling.title}（依據：{ruling.source}）")
    play = _Play(game, script.failures)  # one list: the failures in the order they happen
    _play_all(play, ruling)
    failures = list(play.failures)
    if not play.stopped:
        failures.extend(script.leftovers())
    failures.extend(check_all(game, ruling.checks, play.winner))
    return RulingResult(ruling, tuple(game.lines), tuple(failures))


def _play_all(play: _Play, ruling: Ruling) -> None:
    game = play.game
    invariants: Invariants | None = None
    try:
        if ruling.setup:
            deal(game, ruling)
            game.start.start_game()  # 遊戲開始時: only a ruling that plays the setup starts the game
        invariants = game.parts.invariants.start(game, waive=True)  # what the table was set up with is not a failure
        game.on_free_time = invariants.at_free_time
        for run in ruling.runs:
            if run.turns:
                _play_in_order(play, run, invariants)
                continue
            player = game.players[run.seat - 1]
            if not player.alive:
                play.failures.append(f"seat {run.seat} died earlier in this ruling, so `{run.text()}` cannot be "
                                     f"played (run at {run.span}); check `seat {run.seat} dead;` instead")
                continue
            _run(play, run, player)
            invariants.check(free_time=True)  # a run ends with nothing resolving
    except GameOver as over:
        play.winner = over.winner
        game.add_line(f"遊戲結束：{over.reason}")
        if invariants is not None:
            _broken(play, invariants.problems(free_time=False, ended=over))
    except InvariantBroken as broken:
        _broken(play, broken.problems)
    except (ScriptFailure, RulesError) as problem:
        play.stopped = True
        play.failures.append(str(problem) if isinstance(problem, ScriptFailure) else f"rules error: {problem}")
    finally:
        game.on_free_time = None


def _broken(play: _Play, problems: list[str]) -> None:
    if problems:
        play.stopped = True
        play.failures.extend(f"invariant violated: {p}" for p in problems)


def _run(play: _Play, run: Run, player: Player) -> None:
    """One run: a whole turn (from a phase on), or one phase of a seat. Phase runs of the
    same seat in a row are phases of one turn; a phase run of another seat, or after a
    `turn`, starts a new turn (the marks that last a turn are cleared)."""
    game = play.game
    if run.whole_turn:
        if play.phase_turn is not None:
            game.choices.clear_marks("turn")  # the turn of the phase runs before is over
        play.phase_turn = None
        game.extra_turns.take_turn(player, run.phase)  # with its extra turns
        return
    if play.phase_turn != run.seat:
        _new_turn(game, player)
        play.phase_turn = run.seat
    game.current = player
    game.add_line(f"—— {player.label()}的{PHASE_ZH.get(run.phase or '', '')}階段 ——")
    try:
        game.turn.run_phase(player, run.phase)
    except TurnEnded:
        pass
    finally:
        if game.processing:
            game.zones.to_discard(list(game.processing))
        game.use_stack.clear()


def _play_in_order(play: _Play, run: Run, invariants: Invariants) -> None:
    """`play N turns`: whole turns, each player the one the mode names next (as `sgs run` plays
    them); the first is the mode's first player, or the next after the last such run's turn."""
    game = play.game
    if play.phase_turn is not None:
        game.choices.clear_marks("turn")  # the turn of the phase runs before is over
        play.phase_turn = None
    last = play.last_in_order
    for _ in range(run.turns):
        player = game.mode.first_player(game) if last is None else game.mode.next_player(game, last)
        game.extra_turns.take_turn(player)
        invariants.check(free_time=True)  # between turns: a free time
        last = play.last_in_order = player


def _new_turn(game: Game, player: Player) -> None:
    game.choices.clear_marks("turn")  # the previous turn is over
    player.turn_cards = []
    player.skipped = set()
    game.skills.changed_skills()
