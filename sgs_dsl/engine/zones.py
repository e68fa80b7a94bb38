"""Zones and card moves: every move goes through `place`, which traces it and opens the
window for cards lost from a hand or the equipment area."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..core.model import (
    Card,
    GameOver,
    Move,
    Player,
    RulesError,
    UsedCard,
)
from ..core.native import mypyc_attr
from ..core.vocab import PILE
from .decisions import Option
from .knowledge import all_seats, note_only, note_seen

if TYPE_CHECKING:
    from .hp import Hp
    from .kernel import Game
    from .moves import Moves
    from .prohibits import Prohibits
    from .skills import Skills
    from .triggers import Triggers
    from .turn import Turn

FROM_DECK: tuple[str, None] = ("deck", None)


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Zones:
    """Zones: where each card is, and the basic moves (deck, hand, discard, processing, piles).
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    hp: Hp
    moves: Moves
    prohibits: Prohibits
    skills: Skills
    triggers: Triggers
    turn: Turn

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.hp = game.hp
        self.moves = game.moves
        self.prohibits = game.prohibits
        self.skills = game.skills
        self.triggers = game.triggers
        self.turn = game.turn


    # ------------------------------------------------------------ zones and moves
    def zone_of(self, card: Card) -> tuple[str, Player | None]:
        game = self.game
        if card in game.processing:  # asked first: a used card's next move, and the area is small
            return "processing", None
        for p in game.players:  # (`in` compares cards by identity: a Card is equal only to itself)
            if card in p.hand:
                return "hand", p
            if card in p.judge:
                return "judge", p
            if card in p.equips.values():
                return "equip", p
            if p.piles:
                for name, pile in p.piles.items():
                    if card in pile:
                        return PILE + name, p
        if card in game.discard_pile:
            return "discard", None
        if card in game.deck:
            return "deck", None
        return "nowhere", None

    def take_out(self, card: Card) -> tuple[str, Player | None]:
        """Remove a card from wherever it is; return where it was."""
        game = self.game
        game.table_version += 1
        zone, owner = self.zone_of(card)
        if owner is None:  # a zone of no one's
            if zone == "processing":
                game.processing.remove(card)
            elif zone == "discard":
                game.discard_pile.remove(card)
            elif zone == "deck":
                game.deck.remove(card)
        elif zone == "hand":
            owner.hand.remove(card)
        elif zone == "judge":
            owner.judge.remove(card)
        elif zone == "equip":
            for slot, c in list(owner.equips.items()):
                if c is card:
                    del owner.equips[slot]
            self.skills.changed_equipment(owner)
        elif zone.startswith(PILE):
            owner.piles[zone[len(PILE):]].remove(card)
        return zone, owner

    def place(self, card: Card, zone: str, owner: Player | None = None,
              source: tuple[str, Player | None] | None = None, reason: str = "put") -> None:
        """A move of one card (moves.py `move_cards`): out of where it is (or `source`, when
        the caller already took it out), into `zone`."""
        self.moves.move_cards([card], zone, owner, reason, [source] if source is not None else None)

    def _place(self, card: Card, zone: str, owner: Player | None) -> None:
        game = self.game
        game.table_version += 1
        if game.judge_as and zone not in ("judge", "processing"):
            game.judge_as.pop(card.uid, None)
        if zone == "processing":
            game.processing.append(card)
        elif zone == "discard":
            game.discard_pile.append(card)
        elif zone in ("deck_top", "deck_bottom"):
            game.deck.insert(len(game.deck) if zone == "deck_top" else 0, card)  # the top is the end
            game.returned_to_deck += 1
        elif owner is None:  # the other zones are a player's
            raise RulesError(f"no zone '{zone}' of no player")
        elif zone == "hand":
            owner.hand.append(card)
        elif zone == "judge":
            owner.judge.append(card)
        elif zone == "equip":
            owner.equips[card.kind.type] = card
            self.skills.changed_equipment(owner)
        elif zone.startswith(PILE):  # piles on a hero
            owner.piles.setdefault(zone[len(PILE):], []).append(card)
        else:
            raise RulesError(f"no zone '{zone}'")

    # several cards that move together are one move
    def to_discard(self, cards: Iterable[Card], reason: str = "put") -> None:
        self.moves.move_cards(list(cards), "discard", None, reason)

    def to_hand(self, player: Player, cards: Iterable[Card], reason: str = "gain") -> None:
        self.moves.move_cards(list(cards), "hand", player, reason)

    def to_processing(self, cards: Iterable[Card], reason: str = "put") -> None:
        self.moves.move_cards(list(cards), "processing", None, reason)

    def draw_top(self) -> Card:
        game = self.game
        game.table_version += 1
        if not game.deck:
            if not game.discard_pile:
                raise GameOver("draw", "牌堆與棄牌堆皆無牌，平局")
            if game.tracing:
                game.trace(f"  〔移動〕棄牌堆的{len(game.discard_pile)}張牌 → 牌堆（洗混）")
            game.deck = game.discard_pile
            game.discard_pile = []
            game.rng.shuffle(game.deck)
            if game.knowledge is not None:
                note_only(game, game.deck, frozenset())  # no one knows a shuffled deck's order
            if game.logging:
                game.log(f"棄牌堆洗混成為新的牌堆（{len(game.deck)}張）")
        return game.deck.pop()

    def deck_cards(self, n: int) -> list[Card]:
        """n cards off the deck top, the first the top one. When the deck and the discard pile
        run out the game is a draw: the cards taken so far go back first, so none is lost."""
        cards: list[Card] = []
        try:
            for _ in range(max(0, n)):
                cards.append(self.draw_top())
        except GameOver:
            self.game.table_version += 1
            self.game.deck.extend(reversed(cards))
            raise
        return cards

    def draw(self, player: Player, n: int) -> list[Card]:
        """The player draws n cards from the deck top as one move; then 摸牌後 (`drawn`), opened
        only when a living player's skill listens to it (`sgs windows` says so)."""
        game = self.game
        if not player.alive:  # text that killed its own player goes on: the dead draw nothing
            return []
        cards = self.deck_cards(n)
        if not cards:
            return cards
        self.moves.move_cards(cards, "hand", player, "draw", [FROM_DECK] * len(cards))
        if game.logging:
            game.log(f"{player.label()}摸{len(cards)}張牌")
        if (game._listeners if game._listeners is not None else self.triggers.listeners()).get("drawn"):
            self.triggers.open_window("drawn", {"move": Move(player, "deck", cards[0], cards)})
        return cards

    def hand_equip(self, p: Player) -> list[Card]:
        return p.hand + list(p.equips.values())

    def zone_cards(self, p: Player, zone: str) -> list[Card]:
        if zone == "hand":
            return list(p.hand)
        if zone == "equip":
            return list(p.equips.values())
        if zone == "judge":
            return list(p.judge)
        if zone == "hand_equip":
            return self.hand_equip(p)
        if zone == "area":
            return self.hand_equip(p) + list(p.judge)
        if zone == "horses":
            return [c for s, c in p.equips.items() if s.endswith("horse")]
        if zone.startswith(PILE):
            return list(p.piles.get(zone[len(PILE):], ()))
        return [c for s, c in p.equips.items() if s == zone]

    def pick_card(self, chooser: Player, owner: Player, zone: str) -> Card | None:
        """`chooser` picks one of `owner`'s cards in `zone`; another's hand cards are face down."""
        cards = self.zone_cards(owner, zone)
        if not cards:
            return None
        options = []
        hidden = 0
        for c in cards:  # a card is named by its face, wherever it lies, unless it is face down
            if chooser is not owner and (c in owner.hand or (zone.startswith(PILE) and self.moves.pile_hidden(zone))):
                hidden += 1
                options.append(Option(f"{'手牌' if c in owner.hand else '扣置的牌'}{hidden}", c))
            else:
                options.append(Option(self.turn.face(c), c))
        picked: Card = self.game.ask(chooser, "pick_card", f"選擇{owner.label()}的一張牌", options).value
        return picked

    def pick_from(self, chooser: Player, cards: list[Card]) -> Card | None:
        if not cards:
            return None
        picked: Card = self.game.ask(chooser, "pick_card", "選擇一張牌", [Option(c.label(), c) for c in cards]).value
        return picked

    def discard_cards(self, player: Player, n: int, zone: str = "hand", optional: bool = False,
                      keep: str = "", asker: str | None = None, spare: list[Card] | None = None,
                      among: list[Card] | None = None) -> bool:
        """`player` discards n of their own cards from `zone` (only of `among`, when given),
        never one of `spare`; False if they cannot or decline. The text running asks, or
        `asker` (the discard phase)."""
        game = self.game
        pool = self.zone_cards(player, zone)
        if among is not None:
            pool = [c for c in pool if c in among]
        if spare:
            pool = [c for c in pool if c not in spare]
        if keep:
            kept = player.equips.get(keep)
            pool = [c for c in pool if c is not kept]
        pool = self.prohibits.discardable(player, pool)  # forbid discard
        if n <= 0:
            return True
        if len(pool) < n:
            if optional:
                return False
            n = len(pool)
            if n == 0:
                return False
        if optional and not game.confirm(player, f"是否棄置{n}張牌？", f"棄置{n}張牌", f"不棄置{n}張牌", asker):
            return False
        chosen: list[Card] = []
        for _ in range(n):
            options = [Option(c.label(), c) for c in pool if c not in chosen]
            chosen.append(game.ask(player, "discard", f"棄置一張牌（{len(chosen) + 1}/{n}）", options, asker).value)
        if game.logging:
            game.log(f"{player.label()}棄置" + "、".join(c.label() for c in chosen))
        self.to_discard(chosen, "discard")
        return True

    def throw(self, card: Card | None) -> None:
        if card is None:
            return
        if self.game.logging:
            zone, owner = self.zone_of(card)
            who = owner.label() if owner else ""
            self.game.log(f"{self.turn.face(card)}被棄置（{who}{zone_zh(zone)}）")
        self.to_discard([card], "discard")

    def gain(self, player: Player, card: Card | None) -> None:
        game = self.game
        if card is None:
            return
        zone, owner = self.zone_of(card)
        shown = self.turn.face(card) if zone != "hand" else "一張手牌"
        source = f"{owner.label()}的" if owner else ""
        if zone == "deck":  # face down: only the taker reads which card
            game.log_hidden(f"{player.label()}獲得{shown}", f"{player.label()}獲得一張牌", frozenset({player.seat}))
        elif zone != "hand" and owner is not None and self.moves.face_down(zone):  # a private pile: the taker and its owner read it
            game.log_hidden(f"{player.label()}獲得{source}{shown}", f"{player.label()}獲得{source}一張牌",
                            frozenset({player.seat, owner.seat}))
        else:
            game.log(f"{player.label()}獲得{source}{shown}")
        self.to_hand(player, [card])

    def show_cards(self, cards: list[Card | UsedCard]) -> None:
        """展示: the cards (or a card as used), wherever they lie, are shown to everyone (they stay
        where they are)."""
        if self.game.logging and cards:
            self.game.log("展示" + "、".join(c.label() for c in cards))
        if self.game.knowledge is not None:
            note_seen(self.game, [c for c in cards if isinstance(c, Card)] + [s for c in cards
                      if isinstance(c, UsedCard) for s in c.subcards], all_seats(self.game))

    def look_at(self, player: Player, cards: list[Card]) -> None:
        """觀看: only the one who looks (and whoever holds the cards) reads which cards they are."""
        seats = frozenset({player.seat} | {h.seat for c in cards if (h := self.zone_of(c)[1]) is not None})
        note_seen(self.game, cards, seats)
        self.game.log_hidden(f"{player.label()}觀看" + ("、".join(c.label() for c in cards) or "（無牌）"),
                        f"{player.label()}觀看{len(cards)}張牌", seats)

    def reveal(self, n: int) -> list[Card]:
        cards = self.deck_cards(n)
        for card in cards:
            self.place(card, "processing", source=FROM_DECK)
        if self.game.logging:
            self.game.log("亮出" + "、".join(c.label() for c in cards))
        self.set_out(cards)
        return cards

    def set_out(self, cards: list[Card], looked: bool = False) -> None:
        """Cards text took from the deck into the processing area to act on. Those it leaves
        there, once the block of text ends, go back: cards revealed (亮出) to the discard pile
        (when the use they belong to ends, if the text runs in one: its other blocks act on
        them too), cards only looked at (觀看) onto the deck top, in their order."""
        game = self.game
        if game.use_stack and not looked:
            game.use_stack[-1].revealed.extend(cards)
            return

        def put_back() -> None:
            left = [c for c in cards if c in game.processing]
            if left and looked:
                self.moves.move_cards(left[::-1], "deck_top", None, "put")  # the first looked at on top
            elif left:
                self.to_discard(left)
        self.hp.after_block(put_back)


def where(zone: str, owner: Player | None) -> str:
    return (f"{owner.label()}的" if owner is not None else "") + zone_zh(zone)


def zone_zh(zone: str) -> str:
    if zone.startswith(PILE):
        return f"武將牌上的「{zone[len(PILE):]}」"
    return {"hand": "手牌", "equip": "裝備區", "judge": "判定區", "processing": "處理區",
            "discard": "棄牌堆", "deck": "牌堆", "deck_top": "牌堆頂", "deck_bottom": "牌堆底"}.get(zone, zone)
