"""Modifiers with a subject (`modify attack_range += 1 for others when same_kingdom(you, player);`):
a modifier of any living player's skill that binds other players (`for others`) or everyone
(`for all`) counts among the modifiers of each player it binds. Its condition and value see
`you` as the skill's owner and `player` as the player bound, as a prohibit's do. The kernel's
index of seats holds the bound seats too, so a game where no modifier has a subject pays
nothing more than before."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import attrs

from ..core.defs import Ctx, Fn, ModifierDef, Skill
from ..core.model import Player

if TYPE_CHECKING:
    from .kernel import Game

# (name, bound seat) -> (owner, skill, the modifier as the bound player reads it)
Bound = dict[tuple[str, int], list[tuple[Player, Skill, ModifierDef]]]


def binds(m: ModifierDef, owner: Player, p: Player) -> bool:
    """The modifier of `owner`'s skill binds `p`."""
    return m.subject == "all" or (m.subject == "others" and p is not owner)


def _as_bound(m: ModifierDef, owner: Player) -> ModifierDef:
    """The modifier read for the bound player, whom the callers name `you`: its text sees
    `you` as the owner and `player` as the bound player."""
    def rebind(fn: Fn) -> Fn:
        return lambda ctx: fn(Ctx(ctx.game, {**ctx.vars, "you": owner, "player": ctx.vars["you"]}))
    cond = m.cond
    return attrs.evolve(m, value=rebind(m.value), cond=rebind(cond) if cond is not None else None)


def index_bound(game: Game, seats: dict[str, set[int]]) -> Bound:
    """Every modifier with a subject of a living player's skills, by name and bound seat;
    the bound seats join `seats`, the kernel's index of who has a modifier of each name."""
    bound: Bound = {}
    for owner in game.players:
        if not owner.alive:
            continue
        for skill in game.skills.effective_skills(owner, suppressed=True):
            for m in skill.modifiers:
                if m.subject == "you":
                    continue
                read = _as_bound(m, owner)
                for p in game.players:
                    if p.alive and binds(m, owner, p):
                        bound.setdefault((m.name, p.seat), []).append((owner, skill, read))
                        seats.setdefault(m.name, set()).add(p.seat)
    return bound


def bound_modifiers(game: Game, bound: Bound, p: Player, name: str) -> Iterator[ModifierDef]:
    """The modifiers of other players' skills (and `for all` ones of p's own) that bind p now:
    the owner still has the skill working (an ignored armour, a card set aside do not)."""
    for owner, skill, m in bound.get((name, p.seat), ()):
        if owner.alive and skill in game.skills.effective_skills(owner) and (
                not game.set_aside or game.skills.equip_skill_uid(owner, skill) not in game.set_aside):
            yield m
