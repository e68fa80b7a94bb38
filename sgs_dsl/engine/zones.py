"""Zones and card moves: every move goes through `place`, which traces it and opens the
window for cards lost from a hand or the equipment area."""

from __future__ import annotations

from collections.abc import Iterable

from .decisions import Option
from .model import (
    Card,
    GameOver,
    Move,
    Player,
    RulesError,
)

FROM_DECK: tuple[str, None] = ("deck", None)


class ZonesMixin:
    """A part of `Game` (engine.kernel): it uses the rest of the game through `self`."""

    # ------------------------------------------------------------ zones and moves
    def zone_of(self, card: Card) -> tuple[str, Player | None]:
        for p in self.players:
            if card in p.hand:
                return "hand", p
            if card in p.judge:
                return "judge", p
            for c in p.equips.values():
                if c is card:
                    return "equip", p
        if card in self.processing:
            return "processing", None
        if card in self.discard_pile:
            return "discard", None
        if card in self.deck:
            return "deck", None
        return "nowhere", None

    def take_out(self, card: Card) -> tuple[str, Player | None]:
        """Remove a card from wherever it is; return where it was."""
        zone, owner = self.zone_of(card)
        if zone == "hand":
            owner.hand.remove(card)
        elif zone == "judge":
            owner.judge.remove(card)
        elif zone == "equip":
            for slot, c in list(owner.equips.items()):
                if c is card:
                    del owner.equips[slot]
            self.changed_skills()
        elif zone == "processing":
            self.processing.remove(card)
        elif zone == "discard":
            self.discard_pile.remove(card)
        elif zone == "deck":
            self.deck.remove(card)
        return zone, owner

    def place(self, card: Card, zone: str, owner: Player | None = None,
              source: tuple[str, Player | None] | None = None) -> None:
        """Every card move goes through here: out of where it is (or `source`, when the
        caller already took it out), into `zone`; traced from -> to when tracing."""
        src = source if source is not None else self.take_out(card)
        self._place(card, zone, owner)
        if self.tracing:
            self.lines.append(f"  〔移動〕{card.label()}：{where(*src)} → {where(zone, owner)}")
        lost_from, loser = src
        if loser is not None and lost_from in ("hand", "equip") and loser.alive and not (
                loser is owner and zone == lost_from):
            variables = {"move": Move(loser, lost_from, card)}
            own = card.kind.skill
            if lost_from == "equip" and own is not None and own.triggers.get("cards_lost"):
                # a card's own skill hears the move that takes it out of the equipment area
                self._fire_own([(loser, own, t) for t in own.triggers["cards_lost"]], variables, leaving=True)
            self.open_window("cards_lost", variables)

    def _place(self, card: Card, zone: str, owner: Player | None) -> None:
        if zone not in ("judge", "processing"):
            self.judge_as.pop(card.uid, None)
        if zone == "hand":
            owner.hand.append(card)
        elif zone == "judge":
            owner.judge.append(card)
        elif zone == "equip":
            owner.equips[card.kind.type] = card
            self.changed_skills()
        elif zone == "processing":
            self.processing.append(card)
        elif zone == "discard":
            self.discard_pile.append(card)
        else:
            raise RulesError(f"no zone '{zone}'")

    def to_discard(self, cards: Iterable[Card]) -> None:
        for c in cards:
            self.place(c, "discard")

    def to_hand(self, player: Player, cards: Iterable[Card]) -> None:
        for c in cards:
            self.place(c, "hand", player)

    def to_processing(self, cards: Iterable[Card]) -> None:
        for c in cards:
            self.place(c, "processing")

    def draw_top(self) -> Card:
        if not self.deck:
            if not self.discard_pile:
                raise GameOver("draw", "牌堆與棄牌堆皆無牌，平局")
            if self.tracing:
                self.lines.append(f"  〔移動〕棄牌堆的{len(self.discard_pile)}張牌 → 牌堆（洗混）")
            self.deck = self.discard_pile
            self.discard_pile = []
            self.rng.shuffle(self.deck)
            self.log(f"棄牌堆洗混成為新的牌堆（{len(self.deck)}張）")
        return self.deck.pop()

    def draw(self, player: Player, n: int) -> list[Card]:
        cards = []
        for _ in range(max(0, n)):
            card = self.draw_top()
            self.place(card, "hand", player, FROM_DECK)
            cards.append(card)
        if cards:
            self.log(f"{player.label()}摸{len(cards)}張牌")
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
        return [c for s, c in p.equips.items() if s == zone]

    def pick_card(self, chooser: Player, owner: Player, zone: str) -> Card | None:
        """`chooser` picks one of `owner`'s cards in `zone`; another's hand cards are face down."""
        cards = self.zone_cards(owner, zone)
        if not cards:
            return None
        options = []
        hidden = 0
        for c in cards:
            if c in owner.hand and chooser is not owner:
                hidden += 1
                options.append(Option(f"手牌{hidden}", c))
            else:
                where = "判定區" if c in owner.judge else ("裝備區" if c not in owner.hand else "手牌")
                options.append(Option(f"{where}{c.label()}", c))
        return self.ask(chooser, "pick_card", f"選擇{owner.label()}的一張牌", options).value

    def pick_from(self, chooser: Player, cards: list[Card]) -> Card | None:
        if not cards:
            return None
        return self.ask(chooser, "pick_card", "選擇一張牌", [Option(c.label(), c) for c in cards]).value

    def discard_cards(self, player: Player, n: int, zone: str = "hand", optional: bool = False,
                      keep: str = "") -> bool:
        """`player` discards n of their own cards from `zone`; False if they cannot or decline."""
        pool = self.zone_cards(player, zone)
        if keep:
            kept = player.equips.get(keep)
            pool = [c for c in pool if c is not kept]
        if n <= 0:
            return True
        if len(pool) < n:
            if optional:
                return False
            n = len(pool)
            if n == 0:
                return False
        if optional and not self.confirm(player, f"棄置{n}張牌？"):
            return False
        chosen: list[Card] = []
        for _ in range(n):
            options = [Option(c.label(), c) for c in pool if c not in chosen]
            chosen.append(self.ask(player, "discard", f"棄置一張牌（{len(chosen) + 1}/{n}）", options).value)
        self.log(f"{player.label()}棄置" + "、".join(c.label() for c in chosen))
        self.to_discard(chosen)
        return True

    def throw(self, card: Card | None) -> None:
        if card is None:
            return
        zone, owner = self.zone_of(card)
        who = owner.label() if owner else ""
        self.log(f"{card.label()}被棄置（{who}{zone_zh(zone)}）")
        self.to_discard([card])

    def gain(self, player: Player, card: Card | None) -> None:
        if card is None:
            return
        zone, owner = self.zone_of(card)
        shown = card.label() if zone != "hand" else "一張手牌"
        source = f"{owner.label()}的" if owner else ""
        self.log(f"{player.label()}獲得{source}{shown}")
        self.to_hand(player, [card])

    def reveal(self, n: int) -> list[Card]:
        cards = []
        for _ in range(max(0, n)):
            card = self.draw_top()
            self.place(card, "processing", source=FROM_DECK)
            cards.append(card)
        self.log("亮出" + "、".join(c.label() for c in cards))
        return cards


def where(zone: str, owner: Player | None) -> str:
    return (f"{owner.label()}的" if owner is not None else "") + zone_zh(zone)


def zone_zh(zone: str) -> str:
    return {"hand": "手牌", "equip": "裝備區", "judge": "判定區", "processing": "處理區",
            "discard": "棄牌堆", "deck": "牌堆"}.get(zone, zone)
