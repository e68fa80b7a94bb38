"""Turns and phases beyond the fixed order (issue 10 G3): extra turns played after the current
one, in the order they were granted (a queue of the engine); extra phases after the current
phase; a whole turn skipped; the play phase ended early; and 階段開始前 (`phase_before`), which
opens only when a living player's skill listens to it (so a game without such a skill traces
and costs exactly what it did before)."""

from __future__ import annotations

from .model import PHASE_ZH, Phase, Player, RulesError

MAX_EXTRA_TURNS = 100  # extra turns in a row: more is text that grants itself turns forever
MAX_EXTRA_PHASES = 100


class ExtraTurnsMixin:
    """A part of `Game` (engine.kernel), before TurnMixin: it wraps the turn and the phase."""

    # ------------------------------------------------------------ what text asks for
    def grant_extra_turn(self, player: Player) -> None:
        self.extra_turns.append(player)
        self.log(f"{player.label()}將於此回合後進行一個額外的回合")

    def grant_extra_phase(self, player: Player, phase: str) -> None:
        if player is not self.current:
            raise RulesError(f"extra_phase: {player.label()} is not the player whose turn it is")
        self.extra_phases.append((player, phase))
        self.log(f"{player.label()}將於此階段後執行一個額外的{PHASE_ZH[phase]}階段")

    def skip_next_turn(self, player: Player) -> None:
        player.turn_skips += 1
        self.log(f"{player.label()}將跳過其下一個回合")

    def end_play_phase(self, player: Player) -> None:
        player.play_ended = True  # the play loop stops at its next free time
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
                self.play_turn(extra)
        raise RulesError(f"runaway text: more than {MAX_EXTRA_TURNS} extra turns in a row")

    def play_turn(self, player: Player, start: str | None = None) -> None:
        self.extra_phases.clear()  # phases granted in a turn that ended early are lost with it
        if start is None and player.turn_skips > 0:
            player.turn_skips -= 1
            self.current = player
            self.turns += 1
            self.log(f"—— 第{self.turns}回合：{player.label()} ——")
            self.log(f"{player.label()}跳過此回合")
            self.skipped_log.append((player, "turn"))
            return
        self.turn_log.append(player)
        super().play_turn(player, start)  # type: ignore[misc]

    def run_phase(self, player: Player, phase: str) -> None:
        self._one_phase(player, phase, extra=False)
        for _ in range(MAX_EXTRA_PHASES):
            if not self.extra_phases:
                return
            owner, extra = self.extra_phases.pop(0)
            if not owner.alive:
                continue
            self.log(f"{owner.label()}執行額外的{PHASE_ZH[extra]}階段")
            self._one_phase(owner, extra, extra=True)
        raise RulesError(f"runaway text: more than {MAX_EXTRA_PHASES} extra phases in a row")

    def _one_phase(self, player: Player, phase: str, extra: bool) -> None:
        """階段開始前 (only if someone listens), then the phase. A skip of the regular phase does
        not reach an extra one, and a skip of an extra one does not reach the regular one."""
        held = extra and phase in player.skipped
        if held:
            player.skipped.discard(phase)
        try:
            if self.listeners().get("phase_before"):
                self.budget.new_action()
                self.open_window("phase_before", {"phase": Phase(phase, player)})
                if phase in player.skipped:
                    self.log(f"{player.label()}跳過{PHASE_ZH[phase]}階段")
                    self.skipped_log.append((player, phase))
                    return
            self.phase_log.append((player, phase))
            player.play_ended = False
            super().run_phase(player, phase)  # type: ignore[misc]
        finally:
            if extra:
                (player.skipped.add if held else player.skipped.discard)(phase)
