"""Turns and phases beyond the fixed order: extra turns played after the current
one, in the order they were granted (a queue of the engine); extra phases after the current
phase; a whole turn skipped; the play phase ended early; and 階段開始前 (`phase_before`), which
opens only when a living player's skill listens to it (so a game without such a skill traces
and costs exactly what it did before)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.model import PHASE_ZH, Player, RulesError
from ..core.native import mypyc_attr

if TYPE_CHECKING:
    from .kernel import Game
    from .turn import Turn

MAX_EXTRA_TURNS = 100  # extra turns in a row: more is text that grants itself turns forever


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class ExtraTurns:
    """What text asks of turns and phases (extra turns and phases, skips, ending the play phase); the turn process plays the queues.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    turn: Turn
    most_in_a_row: int

    def __init__(self, game: Game) -> None:
        self.game = game
        self.most_in_a_row = MAX_EXTRA_TURNS  # a subclass may allow fewer (a test of a runaway)

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.turn = game.turn


    # ------------------------------------------------------------ what text asks for

    def grant_extra_turn(self, player: Player) -> None:
        game = self.game
        game.granted_by = getattr(game.budget.firing, "span", None)
        game.granted_turns.append(player)
        if game.logging:
            game.log(f"{player.label()}將於此回合後進行一個額外的回合")

    def grant_extra_phase(self, player: Player, phase: str) -> None:
        game = self.game
        if player is not game.current:
            raise RulesError(f"extra_phase: {player.label()} is not the player whose turn it is")
        game.granted_by = getattr(game.budget.firing, "span", None)
        game.extra_phases.append((player, phase))
        if game.logging:
            game.log(f"{player.label()}將於此階段後執行一個額外的{PHASE_ZH[phase]}階段")

    def skip_next_turn(self, player: Player) -> None:
        player.turn_skips += 1
        if self.game.logging:
            self.game.log(f"{player.label()}將跳過其下一個回合")

    def end_play_phase(self, player: Player) -> None:
        player.play_ended = True  # the play loop stops at its next free time
        if self.game.logging:
            self.game.log(f"{player.label()}結束出牌階段")

    # ------------------------------------------------------------ the turn, wrapped
    def take_turn(self, player: Player, start: str | None = None) -> None:
        """A turn, then the extra turns granted during it (and during those), first granted first."""
        game = self.game
        self.turn.play_turn(player, start)
        for _ in range(self.most_in_a_row):
            if not game.granted_turns:
                return
            extra = game.granted_turns.pop(0)
            if extra.alive:
                game.log(f"{extra.label()}的額外回合")
                self.turn.play_turn(extra, extra=True)
        raise RulesError(f"runaway text: more than {self.most_in_a_row} extra turns in a row", game.granted_by)

    def turn_skipped(self, player: Player) -> bool:
        """skip_turn: a turn the player was told to skip is not played (it still counts)."""
        game = self.game
        if player.turn_skips <= 0:
            return False
        player.turn_skips -= 1
        if game.logging:
            game.log(f"{player.label()}跳過此回合")
        game.skipped_log.append((player, "turn"))
        return True
