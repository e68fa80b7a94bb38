"""Filters (鎖定視為技): `filter PATTERN as SUIT|CARD [when COND];` makes the
owner's matching cards count as another suit or card wherever the rules read a card: in
hand, in equipment, in piles, in the judge area and as the owner's judgement card. The
physical card never changes: `seen` computes the view where the engine or the text reads a
card. The filters in play are indexed by owner once per change of skills, so a game where no
skill filters anything pays one look-up per read; and treated-as-equipped skills
(`equipped CARD;`), which join a player's skills while that slot is empty."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.defs import CardKind, Ctx, FilterDef, Skill
from ..core.model import Card, Judge, Player, UsedCard, color_of
from ..core.native import mypyc_attr

if TYPE_CHECKING:
    from .kernel import Game
    from .skills import Skills
    from .zones import Zones


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Filters:
    """Filters (鎖定視為技) and equipment treated as equipped: what a card counts as wherever the rules read it.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    skills: Skills
    zones: Zones

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.skills = game.skills
        self.zones = game.zones



    def filter_table(self) -> dict[int, list[FilterDef]]:
        """Every filter of a living player's skills, by seat (rebuilt after changed_skills)."""
        game = self.game
        if game._filter_table is None:
            table: dict[int, list[FilterDef]] = {}
            for p in game.players:
                if p.alive:
                    for skill in self.skills.effective_skills(p, suppressed=True):
                        if skill.filters:
                            table.setdefault(p.seat, []).extend(skill.filters)
            game._filter_table = table
        return game._filter_table

    def seen(self, value: Any, holder: Player | None = None) -> Any:
        """A card (or a judgement) as the rules read it: through its holder's filters. Anything
        else, and every card when no filter is in play, is returned as it is."""
        table = self.game._filter_table
        if table is None:
            table = self.filter_table()
        if not table:
            return value
        if isinstance(value, Judge):
            return Judge(value.player, self.seen(value.card, value.player))
        if not isinstance(value, Card):
            return value
        if holder is None:
            holder = self.holder(value)
            if holder is None:
                return value
        filters = table.get(holder.seat)
        return self.apply_filters(value, holder, filters) if filters else value

    def seen_used(self, card: Card, holder: Player | None = None) -> UsedCard:
        """A real card as a use would be made of it: filtered when a filter applies."""
        if not (self.game._filter_table if self.game._filter_table is not None else self.filter_table()):
            return UsedCard.of(card)  # no filter in play: the card as printed
        view = self.seen(card, holder)
        return view if isinstance(view, UsedCard) else UsedCard.of(card)

    def filtered_virtual(self, kind: CardKind, subcards: tuple[Card, ...]) -> UsedCard:
        """A virtual card made of real ones: its suit and colour are theirs as the filters read
        them (a ♠ counting as ♥ makes a red conversion)."""
        card = UsedCard.virtual(kind, subcards)
        if not subcards or not self.filter_table():
            return card
        views = [self.seen(c) for c in subcards]
        suits = {v.suit for v in views}
        colors = {v.color for v in views}
        card.suit = suits.pop() if len(suits) == 1 else None
        card.color = colors.pop() if len(colors) == 1 else None
        return card

    def holder(self, card: Card) -> Player | None:
        """Whose filters read this card: whoever holds it, or whose judgement card it is."""
        for j in self.game.judging:
            if j.card is card:
                return j.player
        return self.zones.zone_of(card)[1]

    def apply_filters(self, card: Card, holder: Player, filters: list[FilterDef]) -> Card | UsedCard:
        suit, kind = card.suit, card.kind
        for f in filters:
            if f.matches(card) and (f.cond is None or f.cond(Ctx(self.game, {"you": holder, "card": card}))):
                self.skills.credit(f.skill)
                if f.suit is not None:
                    suit = f.suit
                elif f.kind_name is not None:
                    kind = self.game.kind_named(f.kind_name)
        if suit == card.suit and kind is card.kind:
            return card
        return UsedCard(kind, suit, color_of(suit), card.rank, (card,), kind.nature, filtered=True)

    def treated_equipment(self, p: Player, hero_skills: list[Skill]) -> list[Skill]:
        """The skills of equipment p is treated as having: each `equipped CARD` of p's hero
        skills whose slot is empty (a 防具 among them is ignored like a real one: its skill
        keeps the armour slot). Equipment moving rebuilds this (changed_skills)."""
        granted: list[Skill] = []
        for skill in hero_skills:
            for e in skill.equipped:
                kind = self.game.kind_named(e.kind_name)
                if kind.type not in p.equips and kind.skill is not None:
                    granted.append(kind.skill)
        return granted

    def equipment_givers(self, p: Player, skill: Skill) -> list[str]:
        """The skills of p's that treat p as equipped with the card whose skill is `skill`."""
        return [s.key for s in self.skills.effective_skills(p)
                if any(self.game.kind_named(e.kind_name).skill is skill for e in s.equipped)]

    def treated_as(self, p: Player, skill: Skill) -> bool:
        """`skill` is an equipment's skill p has through `equipped` (its slot is empty)."""
        return p.equips.get(skill.slot) is None and skill in self.game._skills.get(p.seat, ())
