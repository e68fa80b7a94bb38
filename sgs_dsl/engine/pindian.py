"""拼點 (point fight) as a kernel process: the initiator, then the target, each
chooses a hand card face down; the two cards are shown together into the processing area;
拼點牌亮出後 (`point_shown`) lets skills change a card or its rank; the result is fixed and
returned to the text that asked for the fight, which acts on it (it may take a card); when that
text's block ends, the fight cards still in the processing area go to the discard pile."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attr

from ..core.model import RANK_FACE, Card, Player
from ..core.native import mypyc_attr
from .decisions import Option

if TYPE_CHECKING:
    from .hp import Hp
    from .kernel import Game
    from .triggers import Triggers
    from .zones import Zones


# `attr.s(auto_attribs=True)`, not a slotted `attrs.define`: the form mypyc compiles
# (docs/performance.md, "The compiled build").
@attr.s(auto_attribs=True, eq=False, order=False)
class PointFight:
    source: Player  # who asked for the fight
    target: Player
    source_card: Card
    target_card: Card
    source_rank: int  # the ranks compared: skills may change them in point_shown
    target_rank: int

    @property
    def won(self) -> bool:
        """The initiator won: a strictly higher rank (a tie is not a win)."""
        return self.source_rank > self.target_rank

    @property
    def tie(self) -> bool:
        return self.source_rank == self.target_rank

    @property
    def winner(self) -> Player | None:
        return None if self.tie else (self.source if self.won else self.target)

    @property
    def loser(self) -> Player | None:
        return None if self.tie else (self.target if self.won else self.source)

    def card_of(self, p: Player) -> Card | None:
        return self.source_card if p is self.source else self.target_card if p is self.target else None


def rank_face(rank: int) -> str:
    return RANK_FACE.get(rank, str(rank))


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class PointFights:
    """Point fights (拼點), from the cards chosen to the result's window.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    hp: Hp
    triggers: Triggers
    zones: Zones

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.hp = game.hp
        self.triggers = game.triggers
        self.zones = game.zones


    def can_point_fight(self, a: Player, b: Player) -> bool:
        return a is not b and a.alive and b.alive and bool(a.hand) and bool(b.hand)

    def point_fight(self, a: Player, b: Player) -> PointFight | None:
        game = self.game
        if not self.can_point_fight(a, b):
            return None
        if game.logging:
            game.log(f"{a.label()}與{b.label()}拼點")
        first = self._fight_card(a)  # chosen face down: b chooses without seeing it
        second = self._fight_card(b)
        for card in (first, second):
            self.zones.place(card, "processing")
        fight = PointFight(a, b, first, second, first.rank, second.rank)
        self.hp.after_block(lambda: self._close_fight(fight))  # the text acts on the result first
        if game.logging:
            game.log(f"拼點牌亮出：{a.label()}{first.label()}，{b.label()}{second.label()}")
        self.triggers.open_window("point_shown", {"fight": fight})
        winner = fight.winner  # None: a tie
        result = "平局" if winner is None else f"{winner.label()}贏"
        if game.logging:
            game.log(f"拼點結果：{rank_face(fight.source_rank)}對{rank_face(fight.target_rank)}，{result}")
        game.fight_log.append(fight)
        return fight

    def _fight_card(self, p: Player) -> Card:
        options = [Option(c.label(), c) for c in p.hand]
        card: Card = self.game.ask(p, "pick_card", "選擇一張拼點牌", options).value
        return card

    def replace_fight_card(self, fight: PointFight, p: Player, card: Card) -> None:
        """`card` becomes p's fight card (with its rank); the card it replaces is discarded."""
        game = self.game
        old = fight.card_of(p)
        if old is None or card is old:
            return
        self.zones.place(card, "processing")
        if p is fight.source:
            fight.source_card, fight.source_rank = card, card.rank
        else:
            fight.target_card, fight.target_rank = card, card.rank
        if game.logging:
            game.log(f"{card.label()}代替{old.label()}成為{p.label()}的拼點牌")
        if old in game.processing:
            self.zones.to_discard([old])

    def _close_fight(self, fight: PointFight) -> None:
        """The fight's cards that no skill took go to the discard pile."""
        left = [c for c in (fight.source_card, fight.target_card) if c in self.game.processing]
        if left:
            self.zones.to_discard(left)
