"""The game starting: the game-start window (遊戲開始時), opened once after setup and
before the first turn, and the hero cards not in play (the pool left after hero selection)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.model import Player
from ..core.native import mypyc_attr
from .decisions import Option

if TYPE_CHECKING:
    from .interfaces import HeroCard
    from .kernel import Game
    from .triggers import Triggers


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class GameStart:
    """The game-start window and the hero cards left out of play.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    triggers: Triggers

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.triggers = game.triggers



    def start_game(self) -> None:
        """遊戲開始時: every player is polled, from the first seat."""
        self.game.current = self.game.players[0]
        self.triggers.open_window("game_start", {})

    def unused_heroes(self) -> list[str]:
        """The pool's heroes that no seat holds now (a hero changed at run time frees its card)."""
        held = {p.hero_key for p in self.game.players}
        return [name for name in self.game.hero_pool if name not in held]

    def choose_skill(self, chooser: Player, names: list[str], prompt: str = "") -> str | None:
        """One of the named skills of the library (a ruling answers `N answers "SKILL";`)."""
        game = self.game
        skills = [s for n in names if (s := game.library.skills.get(n)) is not None]
        if not skills:
            return None
        name: str = game.ask(chooser, "skill", prompt or "選擇一個技能", [Option(f"【{s.name}】", s.key) for s in skills]).value
        return name

    def choose_hero(self, chooser: Player, names: list[str], prompt: str = "") -> str | None:
        """One of the named heroes of the library (a ruling answers `N chooses HERO;`)."""
        game = self.game
        heroes = [h for n in names if (h := game.library.heroes.get(n)) is not None]
        if not heroes:
            return None
        hero: HeroCard = game.ask(chooser, "hero", prompt or "選擇一張武將牌", [Option(h.name, h) for h in heroes]).value
        game.log(f"{chooser.label()}選擇了武將牌{hero.name}")
        return hero.key
