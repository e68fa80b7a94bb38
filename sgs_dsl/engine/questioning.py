"""質疑 (questioning): a conversion used face down (`view_as ... face_down`) is a card
declared by name whose real face is hidden. Before it is used or played out, every other
living player, in seat order from its user, chooses whether to question it (a `forbid
question` binding a player keeps them from being asked). If anyone does, the cards are turned
face up: when they really are the card declared (as their holder's filters make them count)
it is true, and the card goes on as that real card; otherwise it is false and void (作廢):
the cards go to the discard pile and the use or the playing out never happened. The window
`questioned` (質疑翻開後) opens after the cards are shown, with the outcome settled but
changeable (`set question.genuine = ...`), before the card goes on or is voided."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attr

from ..core.model import Player, UsedCard
from ..core.native import mypyc_attr
from .decisions import Option

if TYPE_CHECKING:
    from .filters import Filters
    from .kernel import Game
    from .prohibits import Prohibits
    from .seats import Seats
    from .triggers import Triggers
    from .using import Using
    from .zones import Zones

QUESTION, NO_QUESTION = "質疑", "不質疑"


# `attr.s(auto_attribs=True)`, not a slotted `attrs.define`: the form mypyc compiles
# (docs/performance.md, "The compiled build").
@attr.s(auto_attribs=True, eq=False, order=False)
class Question:
    user: Player
    card: UsedCard  # the card as declared, face down
    questioners: list[Player]
    real: UsedCard  # the (first) card turned face up, as it counts
    genuine: bool  # 為真: they are the card declared

    @property
    def declared(self) -> str:
        return self.card.kind.name


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Questioning:
    """Questioning (質疑) a face-down conversion before it is used or played out.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    filters: Filters
    prohibits: Prohibits
    seats: Seats
    triggers: Triggers
    using: Using
    zones: Zones

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.filters = game.filters
        self.prohibits = game.prohibits
        self.seats = game.seats
        self.triggers = game.triggers
        self.using = game.using
        self.zones = game.zones


    def question(self, user: Player, card: UsedCard, targets: list[Player] | None = None,
                 verb: str = "use") -> UsedCard | None:
        """The card to go on with (face down if nobody questioned, else face up), or None: void."""
        game = self.game
        self.zones.to_processing([c for c in card.subcards if c not in game.processing], verb)
        questioners = [p for p in self.seats.seat_order(user) if p is not user and p.alive
                       and not self.prohibits.forbidden(p, "question", card, user) and self._questions(p, user, card, targets)]
        if not questioners:
            return card
        shown = [self.filters.seen_used(c, user) for c in card.subcards]
        q = Question(user, card, questioners, shown[0], all(s.kind is card.kind for s in shown))
        faces = "、".join(c.label() for c in card.subcards)
        if game.logging:
            game.log(f"{user.label()}翻開{faces}，{'為真' if q.genuine else '為假'}")
        self.triggers.open_window("questioned", {"question": q})
        if q.genuine:  # it goes on face up, as the card declared (as its holder's filters read it)
            one = shown[0] if len(shown) == 1 else None
            return one if one is not None and one.kind is card.kind else self.using.make_card(card.kind, card.subcards)
        if game.logging:
            game.log(f"{card.label()}作廢")
        left = [c for c in card.subcards if c in game.processing]
        if left:
            self.zones.to_discard(left)
        return None

    def _questions(self, p: Player, user: Player, card: UsedCard, targets: list[Player] | None) -> bool:
        on = "" if not targets else "，目標：" + "、".join(t.label() for t in targets)
        yes = self.game.ask(p, "question", f"是否質疑{user.label()}的{card.label()}{on}？",
                       [Option(QUESTION, True), Option(NO_QUESTION, False)], card.label()).value
        if yes:
            self.game.log(f"{p.label()}質疑")
        return bool(yes)
