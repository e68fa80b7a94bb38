"""Damage and hp beyond the plain process: a damage transferred to another
player (轉移), a damage turned into a loss of hp (傷害視為失去體力), and the rule that keeps a
player alive at hp 0 or below while its condition holds (`modify survive`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.defs import Ctx
from ..core.model import NATURE_ZH, Damage, Player
from ..core.native import mypyc_attr
from .hp import damage_words

if TYPE_CHECKING:
    from .hp import Hp
    from .kernel import Game
    from .skills import Skills


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class DamageRules:
    """Damage transferred or turned into hp loss, and `modify survive`.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    hp: Hp
    skills: Skills

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.hp = game.hp
        self.skills = game.skills


    def transfer_damage(self, d: Damage, to: Player) -> None:
        """The damage is dealt to `to` instead: same source, card, amount and nature. The new
        target's 受到傷害時 opens; the source's 造成傷害時 has already been and does not again."""
        if d.prevented or not to.alive:
            return
        d.prevented = True  # the first target takes nothing: this damage is never dealt
        if self.game.logging:
            self.game.log(f"{damage_words(d, f'{d.amount}點{NATURE_ZH[d.nature]}')}轉移給{to.label()}")
        self.hp.damage(to, d.amount, d.nature, d.source, d.card, d.chained, caused=True)

    def damage_to_hp_loss(self, d: Damage) -> None:
        """The damage is not dealt: its target loses that much hp instead (no source, no card)."""
        if d.prevented:
            return
        d.prevented = True
        if self.game.logging:
            self.game.log(f"{damage_words(d, f'{d.amount}點{NATURE_ZH[d.nature]}')}視為失去體力")
        self.hp.lose_hp(d.target, d.amount)

    def kept_out_of_dying(self, p: Player) -> str | None:
        """The skill whose `modify dying = false` holds for the player now (they do not enter
        the dying state at hp 0 or below), or None."""
        for m in self.skills.modifiers(p, "dying"):
            ctx = Ctx(self.game, {"you": p})
            if (m.cond is None or m.cond(ctx)) and not m.value(ctx):
                return m.skill
        return None

    def survives(self, p: Player, log: bool = False) -> bool:
        """A `modify survive` of the player's skills holds: they stay alive at hp 0 or below."""
        for m in self.skills.modifiers(p, "survive"):
            ctx = Ctx(self.game, {"you": p})
            if (m.cond is None or m.cond(ctx)) and m.value(ctx):
                if log:
                    self.game.log_skill(p, m.skill, f"{p.label()}體力為{p.hp}，因【{self.game.shown_name(m.skill)}】不會死亡")
                return True
        return False
