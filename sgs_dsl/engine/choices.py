"""The choices and moves that skills ask for: players, cards, suits, giving, looking at and
arranging the deck top, redirecting a use, virtual uses, and marks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.model import (
    SUIT_ZH,
    Card,
    Player,
    Use,
    UsedCard,
)
from ..core.native import mypyc_attr
from .decisions import Option
from .knowledge import note_only, note_seen
from .using import DONE, use_mode
from .zones import FROM_DECK

if TYPE_CHECKING:
    from .kernel import Game
    from .labelled import Labelled
    from .prohibits import Prohibits
    from .state import PlayerState
    from .using import Using
    from .zones import Zones


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Choices:
    """What skills ask players to choose and do: players, cards, suits, giving, looking, arranging, redirecting, virtual uses, marks.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    labelled: Labelled
    state: PlayerState
    prohibits: Prohibits
    using: Using
    zones: Zones

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.labelled = game.labelled
        self.state = game.state
        self.prohibits = game.prohibits
        self.using = game.using
        self.zones = game.zones


    # ------------------------------------------------------------ choices and moves skills ask for
    def clear_marks(self, until: str) -> None:
        """The end of a phase, turn or round: the marks and remembered state that last until it go."""
        for p in self.game.players:
            if p.mark_until:
                for key in [k for k, u in p.mark_until.items() if u == until or (until == "turn" and u == "phase")]:
                    p.marks.pop(key, None)
                    p.mark_until.pop(key, None)
        self.state.expire(until)  # engine/state.py

    def choose_players(self, chooser: Player, candidates: list[Player], least: int, most: int,
                       prompt: str = "") -> list[Player]:
        chosen: list[Player] = []
        while len(chosen) < most:
            rest = [p for p in candidates if p not in chosen and p.alive]
            if not rest:
                break
            options = [Option(p.label(), p) for p in rest]
            if len(chosen) >= least:
                options.append(Option(DONE, None))
            pick = self.game.ask(chooser, "target", prompt or f"選擇角色（{len(chosen) + 1}）", options).value
            if pick is None:
                break
            chosen.append(pick)
        return chosen

    def choose_own_cards(self, chooser: Player, zone: str, least: int, most: int) -> list[Card]:
        """Between least and most of the chooser's own cards in a zone (engine/labelled.py)."""
        return self.labelled.choose_among(chooser, self.zones.zone_cards(chooser, zone), least, most)

    def choose_suit(self, chooser: Player) -> str:
        game = self.game
        options = [Option(SUIT_ZH[s], s) for s in ("spade", "heart", "club", "diamond")]
        suit: str = game.ask(chooser, "suit", "選擇一種花色", options).value
        if game.logging:
            game.log(f"{chooser.label()}選擇了{SUIT_ZH[suit]}")
        return suit

    def give(self, giver: Player, receiver: Player, cards: list[Card]) -> None:
        if not cards or not receiver.alive:
            return
        if self.game.logging:
            self.game.log(f"{giver.label()}將{len(cards)}張牌交給{receiver.label()}")
        self.zones.to_hand(receiver, cards, "give")

    def look(self, player: Player, n: int) -> list[Card]:
        cards = self.zones.deck_cards(n)
        for card in cards:
            self.zones.place(card, "processing", source=FROM_DECK)
        note_only(self.game, cards, frozenset({player.seat}))  # taken aside: only the one who looks sees them
        if self.game.logging:
            self.game.log(f"{player.label()}觀看牌堆頂的{len(cards)}張牌")
        self.zones.set_out(cards, looked=True)
        return cards

    def arrange(self, player: Player, n: int) -> None:
        """The player looks at the top n cards and puts each on the top or the bottom; the
        cards put on top are in the order chosen, the first chosen on top."""
        game = self.game
        cards = [self.zones.draw_top() for _ in range(max(0, min(n, len(game.deck) + len(game.discard_pile))))]
        top: list[Card] = []
        bottom: list[Card] = []
        rest = list(cards)
        while rest:
            card = game.ask(player, "pick_card", "選擇下一張牌", [Option(c.label(), c) for c in rest]).value
            rest.remove(card)
            where_to = game.ask(player, "arrange", f"將{card.label()}置於",
                                [Option("牌堆頂", "top"), Option("牌堆底", "bottom")]).value
            (top if where_to == "top" else bottom).append(card)
        game.table_version += 1
        note_seen(game, cards, frozenset({player.seat}))  # the one who arranged them knows their places
        game.deck.extend(reversed(top))
        game.deck[:0] = bottom
        if game.logging:
            game.log(f"{player.label()}將{len(top)}張牌置於牌堆頂，{len(bottom)}張牌置於牌堆底")

    def cancel_target(self, use: Use, player: Player) -> None:
        """取消 (seed 001): the player stops being a target of the card; the others still
        resolve, and with none left the card goes to the discard pile when its use ends."""
        if player not in use.targets:
            return
        use.targets = [t for t in use.targets if t is not player]
        if self.game.logging:
            self.game.log(f"{player.label()}取消為{use.card.label()}的目標")

    def redirect(self, use: Use, old: Player, new: Player) -> None:
        game = self.game
        if not self.redirect_open(use, new):  # never onto a target it already has
            if game.logging:
                game.log(f"{use.card.label()}的目標不能轉移給{new.label()}")
            return
        if self.prohibits.redirect_refused(use, new):  # never onto a player it may not target
            if game.logging:
                game.log(f"{new.label()}不能成為{use.card.label()}的目標")
            return
        use.targets = [new if t is old else t for t in use.targets]
        if game.logging:
            game.log(f"{use.card.label()}的目標由{old.label()}轉移給{new.label()}")

    # where a use may be redirected
    def redirect_open(self, use: Use, new: Player) -> bool:
        """`new` is alive, not already a target, and a player the card's target rule admits
        (its kind: never its user for a card on others; its range is not asked)."""
        if not new.alive or new in use.targets:
            return False
        mode = use_mode(use.card.kind, "play")
        rule = mode.target if mode is not None else None
        return rule is None or rule.kind not in ("one_other", "all_others") or new is not use.user

    def can_redirect(self, use: Use, new: Player) -> bool:
        return self.redirect_open(use, new) and not self.prohibits.forbidden(new, "target", use.card, use.user)

    def can_use_named(self, p: Player, kind_name: str) -> bool:
        kind = self.game.kind_named(kind_name)
        return self.using.can_play(p, kind, UsedCard.virtual(kind))

    def choose_named_targets(self, p: Player, kind_name: str) -> list[Player]:
        kind = self.game.kind_named(kind_name)
        mode = use_mode(kind, "play")
        if mode is None:  # a card never used on targets of its own choosing (閃-like)
            return []
        return self.using.choose_targets(p, kind, UsedCard.virtual(kind), mode) or []

    def use_virtual(self, p: Player, kind_name: str, targets: list[Player], counter: bool, limit: bool) -> bool:
        """p is treated as using a card of this kind, made of no real card."""
        targets = [t for t in targets if t.alive]
        if not p.alive or not targets:
            return False
        if self.prohibits.forbidden(p, "use", UsedCard.virtual(self.game.kind_named(kind_name)), p):
            return False
        self.using.use_card(p, UsedCard.virtual(self.game.kind_named(kind_name)), targets, "play" if limit else "virtual",
                      counterable=counter)
        return True
