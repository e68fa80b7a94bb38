"""Seats and distance: who sits where, who is alive, how far, in whose range."""


from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.defs import Ctx
from ..core.model import (
    MAX_DEPTH,
    Player,
    UsedCard,
)
from ..core.native import mypyc_attr
from .turn import ACTIVE_KEY, END_PLAY, MAX_ACTIONS_PER_PHASE
from .using import EQUIP_USE, use_mode
from .zones import FROM_DECK, where, zone_zh

if TYPE_CHECKING:
    from .kernel import Game
    from .skills import Skills
    from .using import Using

INVOKE, NOT_INVOKE = "發動", "不發動"  # the answers to an optional skill's question

__all__ = ["ACTIVE_KEY", "END_PLAY", "EQUIP_USE", "FROM_DECK", "MAX_ACTIONS_PER_PHASE", "MAX_DEPTH",
           "Game", "use_mode", "where", "zone_zh"]




@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Seats:
    """Seats and distance: who sits where, who is alive, how far, in whose range.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    skills: Skills
    using: Using

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.skills = game.skills
        self.using = game.using


    # ------------------------------------------------------------ seats and distance
    def alive(self) -> list[Player]:
        return [p for p in self.game.players if p.alive]

    def seat_order(self, start: Player | None = None) -> list[Player]:
        """Living players in seat order from `start` (default: the current player)."""
        game = self.game
        place = game.place_of[(start or game.current).seat]
        table = game.table
        return [p for p in table[place:] + table[:place] if p.alive]

    def next_alive(self, player: Player) -> Player:
        game = self.game
        n = len(game.table)
        place = game.place_of[player.seat]
        for i in range(1, n + 1):
            p = game.table[(place + i) % n]
            if p.alive:
                return p
        return player

    def distance(self, a: Player, b: Player) -> int:
        game = self.game
        if a is b:
            return 0
        if not (a.alive and b.alive):
            return 99
        living = [p for p in game.table if p.alive]
        i, j = living.index(a), living.index(b)
        steps = abs(i - j)
        base = min(steps, len(living) - steps)
        index = game._modifier_seats if game._modifier_seats is not None else self.skills._index_modifiers()
        if b.seat not in index.get("distance_from", ()) and a.seat not in index.get("distance_to", ()):
            return max(1, base)  # no modifier of either: the seats alone (as the parts below would give)
        set_to: list[int] = []  # `modify distance_to = N`: the distance is N, whatever else counts
        base += self._distance_part(b, "distance_from", a, set_to) + self._distance_part(a, "distance_to", b, set_to)
        return max(1, min(set_to) if set_to else base)

    def _distance_part(self, p: Player, name: str, other: Player, set_to: list[int]) -> int:
        """p's `name` modifiers toward `other` (their `player`): the sum of the += and -= ones;
        the values of the applying `=` ones go to `set_to`."""
        total = 0
        for m in self.skills.modifiers(p, name):
            ctx = Ctx(self.game, {"player": other, "you": p})  # a bound modifier rebinds `player`
            if m.cond is None or m.cond(ctx):
                value = m.value(ctx)
                if m.op == "=":
                    set_to.append(value)
                else:
                    total += -value if m.op == "-=" else value
                if value or m.op == "=":
                    self.skills.credit(m.skill)
        return total

    def attack_range(self, p: Player) -> int:
        weapon = p.equips.get("weapon")
        if weapon is None:
            base = self.treated_weapon_range(p)
        else:  # a weapon set aside gives no range
            base = 1 if weapon.uid in self.game.set_aside else weapon.kind.range
        if not self.skills.has_modifiers(p, "attack_range"):
            return max(0, base)
        return max(0, self.skills.modified(p, "attack_range", base))

    def treated_weapon_range(self, p: Player) -> int:
        """With the weapon slot empty, a weapon p is treated as equipped with (`equipped`)
        gives its range: its skill is then the only one of p's with the weapon slot. Kept with
        the list of skills it was read from (a new list after any change of skills)."""
        game = self.game
        skills = self.skills.effective_skills(p)
        known = game._weapon_ranges.get(p.seat)
        if known is not None and known[0] is skills:
            return known[1]
        reach = next((game.library.cards[s.from_card].range for s in skills if s.slot == "weapon" and s.from_card), 1)
        game._weapon_ranges[p.seat] = (skills, reach)
        return reach

    def in_range(self, a: Player, b: Player, card: UsedCard | None = None) -> bool:
        """b is within a's attack range; for a card a is choosing targets for, a
        `modify range(PATTERN) = unlimited` of a's that fits it (and b, with `where`) lifts the range."""
        if a is b or not b.alive:
            return False
        # the distance first: a modifier that lifts the range is credited only where it is needed
        return self.distance(a, b) <= self.attack_range(a) or (
            card is not None and self.skills.has_modifiers(a, "range") and self.using.unlimited(a, "range", card, target=b))

