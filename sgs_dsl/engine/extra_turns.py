"""Turns and phases beyond the fixed order: extra turns played after the current
one, in the order they were granted (a queue of the engine); extra phases after the current
phase; a whole turn skipped; the play phase ended early; and 階段開始前 (`phase_before`), which
opens only when a living player's skill listens to it (so a game without such a skill traces
and costs exactly what it did before)."""

from __future__ import annotations

from ..core.model import PHASE_ZH, Player, RulesError
from ..syntax.diagnostics import Span

MAX_EXTRA_TURNS = 100  # extra turns in a row: more is text that grants itself turns forever


class ExtraTurnsMixin:
    """A part of `Game` (engine.kernel): what text asks of turns and phases; the turn itself
    (engine/turn.py) plays the queues and the skips."""

    # ------------------------------------------------------------ what text asks for
    granted_by: Span | None = None  # the text that granted the last extra turn or phase

    def grant_extra_turn(self, player: Player) -> None:
        self.granted_by = getattr(self.budget.firing, "span", None)
        self.extra_turns.append(player)
        if self.logging:
            self.log(f"{player.label()}將於此回合後進行一個額外的回合")

    def grant_extra_phase(self, player: Player, phase: str) -> None:
        if player is not self.current:
            raise RulesError(f"extra_phase: {player.label()} is not the player whose turn it is")
        self.granted_by = getattr(self.budget.firing, "span", None)
        self.extra_phases.append((player, phase))
        if self.logging:
            self.log(f"{player.label()}將於此階段後執行一個額外的{PHASE_ZH[phase]}階段")

    def skip_next_turn(self, player: Player) -> None:
        player.turn_skips += 1
        if self.logging:
            self.log(f"{player.label()}將跳過其下一個回合")

    def end_play_phase(self, player: Player) -> None:
        player.play_ended = True  # the play loop stops at its next free time
        if self.logging:
            self.log(f"{player.label()}結束出牌階段")

    # ------------------------------------------------------------ the turn, wrapped
    def take_turn(self, player: Player, start: str | None = None) -> None:
        """A turn, then the extra turns granted during it (and during those), first granted first."""
        self.play_turn(player, start)
        for _ in range(MAX_EXTRA_TURNS):
            if not self.extra_turns:
                return
            extra = self.extra_turns.pop(0)
            if extra.alive:
                self.log(f"{extra.label()}的額外回合")
                self.play_turn(extra, extra=True)
        raise RulesError(f"runaway text: more than {MAX_EXTRA_TURNS} extra turns in a row", self.granted_by)

    def turn_skipped(self, player: Player) -> bool:
        """skip_turn: a turn the player was told to skip is not played (it still counts)."""
        if player.turn_skips <= 0:
            return False
        player.turn_skips -= 1
        if self.logging:
            self.log(f"{player.label()}跳過此回合")
        self.skipped_log.append((player, "turn"))
        return True
