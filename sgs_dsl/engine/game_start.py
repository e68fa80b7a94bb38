"""The game starting: the game-start window (遊戲開始時), opened once after setup and
before the first turn, and the hero cards not in play (the pool left after hero selection)."""

from __future__ import annotations

from ..core.model import Player
from .decisions import Option


class GameStartMixin:
    """A part of `Game` (engine.kernel): it uses the rest of the game through `self`."""

    hero_pool: tuple[str, ...] = ()  # the ruleset's heroes, when setup dealt them

    def start_game(self) -> None:
        """遊戲開始時: every player is polled, from the first seat."""
        self.current = self.players[0]
        self.open_window("game_start", {})

    def unused_heroes(self) -> list[str]:
        """The pool's heroes that no seat holds now (a hero changed at run time frees its card)."""
        held = {p.name for p in self.players}
        return [name for name in self.hero_pool if name not in held]

    def choose_hero(self, chooser: Player, names: list[str], prompt: str = "") -> str | None:
        """One of the named heroes of the library (a ruling answers `N chooses HERO;`)."""
        heroes = [h for n in names if (h := self.library.heroes.get(n)) is not None]
        if not heroes:
            return None
        hero = self.ask(chooser, "hero", prompt or "選擇一張武將牌", [Option(h.name, h) for h in heroes]).value
        self.log(f"{chooser.label()}選擇了武將牌{hero.name}")
        return hero.name
