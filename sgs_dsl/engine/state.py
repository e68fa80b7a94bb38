"""Player state and skills as state: max hp, turning over (翻面), remembered values with their
scope, skills granted, removed or losing effect (技能失效), gender, kingdom and hero changed at
run time, and the spent limited (限定技) and wake (覺醒技) skills.

Scoped state is cleared by the list in `_expiring`, filled only when something is set: a game
that never uses these mechanisms pays one empty lookup at the end of a phase or a turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.defs import Skill
from ..core.model import Player
from ..core.native import mypyc_attr

if TYPE_CHECKING:
    from .hp import Hp
    from .interfaces import HeroCard
    from .kernel import Game
    from .skills import Skills

# what ends with each scope: a turn ends its phases, a round its turns
_ENDS = {"phase": ("phase",), "turn": ("phase", "turn"), "round": ("phase", "turn", "round"), "game": ()}
ONCE_TAGS = ("limited", "wake")  # spent for the rest of the game once fired
# what a scope's end undoes: (FORGET, a memory dict, its key) or (RESTORE_SKILLS, the player, "")
FORGET, RESTORE_SKILLS = "forget", "restore_skills"
Undo = tuple[str, Any, str]
GENDER_ZH = {"male": "男", "female": "女"}
KINGDOM_ZH = {"wei": "魏", "shu": "蜀", "wu": "吳", "qun": "群", "god": "神"}


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class PlayerState:
    """A player's state as text changes it: max hp, face, seats, memory, skills, gender, kingdom, hero, spent skills.
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



    # ------------------------------------------------------------ scopes
    def until(self, scope: str, undo: Undo) -> None:
        """Undo `undo` when `scope` ends (never for "game"). An undo is data, not a closure, so
        that a copy of the game (engine/forking.py) undoes its own state."""
        game = self.game
        if scope == "game":
            return
        if game._expiring is None:
            game._expiring = {}
        game._expiring.setdefault(scope, []).append(undo)

    def expire(self, until: str) -> None:
        """What was set to last until `until` (or a shorter scope it ends) is undone."""
        if self.game._expiring:
            for scope in _ENDS.get(until, ()):
                for undo in self.game._expiring.pop(scope, ()):
                    self._undo(undo)

    def _undo(self, undo: Undo) -> None:
        what, holder, key = undo
        if what == FORGET:  # a remembered value: out of its memory
            holder.pop(key, None)
        else:  # RESTORE_SKILLS: one effect of 技能失效 ends on this player
            holder.skills_off -= 1
            self.skills.changed_skills()

    # ------------------------------------------------------------ max hp
    def change_max_hp(self, player: Player, delta: int) -> None:
        """Gain (delta > 0) or lose max hp; hp is cut down to the new max; max hp 0 is death."""
        game = self.game
        if not player.alive or delta == 0:
            return
        game.table_version += 1
        before = player.max_hp, player.hp
        player.max_hp = max(0, player.max_hp + delta)
        player.hp = min(player.hp, player.max_hp)
        verb = "增加" if delta > 0 else "減少"
        if game.logging:
            game.log(f"{player.label()}{verb}{abs(delta)}點體力上限（體力{player.hp}/{player.max_hp}）")
        if player.max_hp == 0:
            self.hp.die(player, None)
            return
        self.hp.hp_changed(player, player.hp - before[1])  # hp cut down to the new max
        self.hp.hp_changed(player, player.max_hp - before[0], window="max_hp_changed")

    # ------------------------------------------------------------ turning over
    def turn_over(self, player: Player) -> None:
        """翻面: face down, or back face up when already face down; chained state is untouched."""
        player.turned = not player.turned
        self.game.log(player.label() + self.game.mode.turned_words[0 if player.turned else 1])

    def swap_seats(self, a: Player, b: Player) -> None:
        """交換位置: a and b change places at the table, each keeping its hero, cards and
        state; distances and seat order follow the new places. A seat number keeps naming
        its player (the log's N號位 is the seat the player was dealt)."""
        game = self.game
        if a is b or not (a.alive and b.alive):
            return
        i, j = game.place_of[a.seat], game.place_of[b.seat]
        game.table[i], game.table[j] = b, a
        game.place_of[a.seat], game.place_of[b.seat] = j, i
        if game.logging:
            game.log(f"{a.label()}與{b.label()}交換位置")

    def turns_back(self, player: Player) -> bool:
        """At 回合開始前: a face-down player turns face up and skips this whole turn."""
        if not player.turned:
            return False
        player.turned = False
        self.game.log(f"{player.label()}{self.game.mode.turned_words[1]}，跳過此回合")
        return True

    # ------------------------------------------------------------ remembered values
    def remember(self, owner: Player | None, key: str, value: Any, scope: str) -> None:
        """Keep a value on a player (or on the game, owner None) until `scope` ends."""
        memory = self.memory_of(owner)
        memory[key] = value
        self.until(scope, (FORGET, memory, key))
        if self.game.tracing:  # what a judge reads of a record kept (no player sees it)
            whose = owner.label() if owner is not None else "遊戲"
            skill, dot, state = key.rpartition(".")  # SKILL.STATE, the skill by its printed name
            named = f"{self.game.shown_name(skill)}.{state}" if dot else key
            self.game.trace(f"  〔記錄〕{whose}：「{named}」= {shown(value)}")

    def recall(self, owner: Player | None, key: str, default: Any) -> Any:
        memory = owner.memory if owner is not None else self.game._memory
        return memory.get(key, default) if memory else default

    def memory_of(self, owner: Player | None) -> dict[str, Any]:
        game = self.game
        if owner is not None:
            return owner.memory
        if game._memory is None:
            game._memory = {}
        return game._memory

    # ------------------------------------------------------------ skills as state
    def grant_skill(self, player: Player, skill: Skill) -> None:
        if skill in player.skills:
            return
        player.skills = (*player.skills, skill)
        if self.game.logging:
            self.game.log(f"{player.label()}獲得技能【{skill.name}】")
        self.skills.changed_skills()

    def lose_all_skills(self, player: Player) -> None:
        """Every skill the player has is lost for good (a skill gained later is its own)."""
        if not player.skills:
            return
        player.skills = ()
        if self.game.logging:
            self.game.log(f"{player.label()}失去所有技能")
        self.skills.changed_skills()

    def remove_skill(self, player: Player, skill: Skill) -> None:
        if skill not in player.skills:
            return
        player.skills = tuple(s for s in player.skills if s is not skill)
        if self.game.logging:
            self.game.log(f"{player.label()}失去技能【{skill.name}】")
        self.skills.changed_skills()

    def disable_skills(self, player: Player, scope: str) -> None:
        """技能失效: the player's hero skills lose effect until `scope` ends."""
        player.skills_off += 1
        if self.game.logging:
            self.game.log(f"{player.label()}的武將技能失效")
        self.skills.changed_skills()
        self.until(scope, (RESTORE_SKILLS, player, ""))

    def spend(self, player: Player, skill: Skill) -> None:
        """A limited or wake skill that fired is spent for the rest of the game."""
        if skill.tags and any(t in ONCE_TAGS for t in skill.tags):
            player.spent.add(skill.key)

    @staticmethod
    def is_spent(player: Player, skill: Skill) -> bool:
        return bool(player.spent) and skill.key in player.spent

    def set_gender(self, player: Player, gender: str) -> None:
        player.gender = gender
        if self.game.logging:
            self.game.log(f"{player.label()}的性別改為{GENDER_ZH.get(gender, gender)}")

    def set_kingdom(self, player: Player, kingdom: str) -> None:
        game = self.game
        game.mode.text_sets_kingdom(game, player)
        player.kingdom = kingdom
        game.seats_version += 1
        if game.logging:
            game.log(f"{player.label()}的勢力改為{KINGDOM_ZH.get(kingdom, kingdom)}")

    def set_hero(self, player: Player, hero: HeroCard) -> None:
        """The player's hero card is replaced: name, gender, kingdom and skills (hp stays)."""
        game = self.game
        old = player.label()
        game.mode.text_sets_kingdom(game, player)
        player.name, player.gender, player.kingdom = hero.name, hero.gender, hero.kingdom
        player.hero_key = hero.key
        player.skills = tuple(hero.skills)
        if game.logging:
            game.log(f"{old}的武將牌變為{hero.name}")
        self.skills.changed_skills()


def shown(value: Any) -> str:
    """A remembered value as a trace line shows it: players and cards by their labels."""
    if value is None:
        return "無"
    if isinstance(value, bool):
        return "是" if value else "否"
    if isinstance(value, (list, tuple)):
        return "［" + "、".join(shown(v) for v in value) + "］"
    label = getattr(value, "label", None)
    return str(label()) if callable(label) else str(value)
