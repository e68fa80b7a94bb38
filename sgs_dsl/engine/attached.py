"""Actions for others: a skill's `attach others { ... }` gives every other
player an action in their own play phase, e.g. a lord skill that lets the lord's kingdom
hand the lord a card. A game scans for them only while some living player's skills attach
one (`attach_in_play`, kept until the skills in play change)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.defs import AttachDef, Ctx, Skill
from ..core.model import Player
from ..core.native import mypyc_attr
from .decisions import Option

if TYPE_CHECKING:
    from .hp import Hp
    from .kernel import Game
    from .seats import Seats
    from .skills import Skills

ATTACH_KEY = "attach:"  # Player.used key prefix: the actor's uses of one owner's action


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Attached:
    """The actions a living player's skill gives others in their play phase (`attach`).
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    hp: Hp
    seats: Seats
    skills: Skills

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.hp = game.hp
        self.seats = game.seats
        self.skills = game.skills



    def attach_in_play(self) -> bool:
        """Some living player has a skill that attaches an action (hidden or not: the options
        then ask exactly); worked out again after changed_skills."""
        game = self.game
        if game._attach_live is None:
            game._attach_live = any(s.attached for p in game.players if p.alive
                                    for s in self.skills.skills_of(p, suppressed=True))
        return game._attach_live

    def attached_options(self, player: Player) -> list[Option]:
        """`發動【SKILL】` for each action a living other player's skill gives `player` now."""
        if not self.attach_in_play():
            return []
        offered = []
        for owner in self.seats.seat_order(player):
            if owner is player or not owner.alive:
                continue
            for skill in self.skills.effective_skills(owner):
                for act in skill.attached:
                    if self._attach_offered(player, owner, skill, act):
                        offered.append((owner, skill, act))
        names = [skill.name for _, skill, _ in offered]
        # the owner is named only when two owners offer one skill, so each choice can be told apart
        return [Option(f"發動【{skill.name}】" + (f"（{owner.label()}）" if names.count(skill.name) > 1 else ""),
                       ("attach", (owner, skill, act))) for owner, skill, act in offered]

    def _attach_offered(self, player: Player, owner: Player, skill: Skill, act: AttachDef) -> bool:
        if act.once and player.used.get(_key(owner, skill), 0) >= 1:
            return False
        return act.cond is None or bool(act.cond(Ctx(self.game, {"you": owner, "player": player})))

    def run_attached(self, player: Player, chosen: tuple[Player, Skill, AttachDef]) -> None:
        """The actor uses the action; the skill asks the questions of its text."""
        game = self.game
        owner, skill, act = chosen
        key = _key(owner, skill)
        player.used[key] = player.used.get(key, 0) + 1
        if game.logging:
            game.log_skill(owner, skill, f"{player.label()}發動{owner.label()}的【{skill.name}】")
        game.fired[skill.key] = game.fired.get(skill.key, 0) + 1
        self.hp.run_block(act.body, Ctx(game, {"you": owner, "player": player}), skill.key)


def _key(owner: Player, skill: Skill) -> str:
    return f"{ATTACH_KEY}{owner.seat}:{skill.key}"
