"""One general card move: any cards to any zone of any player, with a reason, as one event.

Every move of the engine goes through `move_cards` (zones.py's `place`, `to_discard`, ...
are its one-zone forms): the cards leave where they are, arrive together, are traced and
recorded (history.py), and then the cards-lost window opens once per player and zone they
were lost from, with the list of cards. `move_by_text` is the language's `move`: it first
checks that the place can take the cards (an empty slot, one delayed trick of a name, the
target's `forbid target`), and refuses the whole move otherwise. Piles on a hero are zones
named `pile:NAME`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.model import SLOT_ZH, Card, Discarded, Move, Player, UsedCard
from ..core.native import mypyc_attr
from ..core.vocab import ORIGINS, PILE, REASONS
from .knowledge import note_move
from .zones import where

if TYPE_CHECKING:
    from .kernel import Game
    from .prohibits import Prohibits
    from .triggers import Triggers
    from .turn import Turn
    from .zones import Zones

# cards that moved from some places to one: the cards, where each came from, the zone and its owner
Leg = tuple[list[Card], list[tuple[str, Player | None]], str, Player | None]
OWNED = ("hand", "equip", "judge")
ORIGIN_ORDER = {origin: i for i, origin in enumerate(ORIGINS)}  # a player's places in their order  # places that need a player (`of:`), with the piles
HIDDEN = frozenset({"hand", "deck", "deck_top", "deck_bottom"})  # face-down places
AREA_ZH = {"hand": "手牌", "equip": "裝備區", "judge": "判定區"}  # the areas swap_areas exchanges


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools hand in subclasses (engine/parts.py)
class Moves:
    """One general card move, its log lines, its window and its history record.
    A process of `Game` (engine.kernel): it reads the table's state through `game` and works
    with the processes it names below."""

    game: Game
    prohibits: Prohibits
    triggers: Triggers
    turn: Turn
    zones: Zones

    def __init__(self, game: Game) -> None:
        self.game = game

    def connect(self) -> None:
        """Name the processes this one works with (all exist by now)."""
        game = self.game
        self.prohibits = game.prohibits
        self.triggers = game.triggers
        self.turn = game.turn
        self.zones = game.zones


    # Bumped at every change of what the free-time invariants read (a card move, hp, max hp,
    # a death, the skills in play): a free time with the same version as the last one has
    # nothing new to check (invariants.py; tests/test_invariants.py shows it).

    # ------------------------------------------------------------ the move
    def move_cards(self, cards: list[Card], zone: str, owner: Player | None = None, reason: str = "put",
                   sources: list[tuple[str, Player | None]] | None = None) -> None:
        """One move: out of where each card is (or `sources`, when the caller already took
        them out), into `zone` together; then the cards-lost windows."""
        game = self.game
        if owner is not None and not owner.alive:  # the dead take no cards: text that killed goes on
            zone, owner = "discard", None
        if sources is None:
            sources = [self.zones.take_out(c) for c in cards]
        elif len(sources) != len(cards):
            raise ValueError(f"{len(cards)} cards moved from {len(sources)} places")
        # by index, not zip(strict=True): compiled, a zip with a keyword is a generic call
        for i, card in enumerate(cards):
            self.zones._place(card, zone, owner)
            if game.tracing:
                game.trace(f"  〔移動〕{card.label()}：{where(*sources[i])} → {where(zone, owner)}")
        if game.history.on:
            game.history.record(cards, sources, zone, owner, reason)
        if game.knowledge is not None:
            note_move(game, cards, sources, zone, owner)
        for lost_from, _ in sources:
            if lost_from == "hand" or lost_from == "equip":  # most moves lose nothing: no window
                self._lost([(cards, sources, zone, owner)], reason)
                break
        if zone == "discard" and self.triggers.listened("into_discard_pile"):
            self._into_discard_pile(cards, sources, reason)

    def _into_discard_pile(self, cards: list[Card], sources: list[tuple[str, Player | None]], reason: str) -> None:
        """置入棄牌堆後, once per place the cards came from: the processing area and the deck
        first, then each player's places in seat order from the current player."""
        game = self.game
        n, start = len(game.players), game.place_of[game.current.seat]
        groups: dict[tuple[int, int, str], list[Card]] = {}
        owners: dict[tuple[int, int, str], Player | None] = {}
        for i, card in enumerate(cards):
            zone, owner = sources[i]
            if zone == "discard":
                continue
            origin = "pile" if zone.startswith(PILE) else zone if zone in ORIGINS else "processing"
            key = (-1 if owner is None else (game.place_of[owner.seat] - start) % n, ORIGIN_ORDER[origin], origin)
            groups.setdefault(key, []).append(card)
            owners[key] = owner
        for key in sorted(groups):
            self.triggers.open_window("into_discard_pile",
                                      {"discarded": Discarded(groups[key], key[2], owners[key], reason)})

    def swap_hands(self, a: Player, b: Player) -> None:
        self.swap_areas(a, b, "hand")

    def swap_areas(self, a: Player, b: Player, zone: str) -> None:
        """The two players' hands, equipment areas or judge areas change places in one
        simultaneous move: each player loses its cards (one loss event each, for a hand or
        equipment) and gains the other's; not with a dead player (text that killed one of them
        goes on: the dead take no cards)."""
        game = self.game
        if not (a.alive and b.alive) or a is b:
            return
        game.table_version += 1
        taken = [(self._empty_area(loser, zone), loser, gainer) for loser, gainer in ((a, b), (b, a))]
        legs: list[Leg] = []  # both areas are emptied before either is filled
        for cards, loser, owner in taken:
            sources: list[tuple[str, Player | None]] = [(zone, loser)] * len(cards)
            legs.append((cards, sources, zone, owner))
            for c in cards:
                self.zones._place(c, zone, owner)
            if game.tracing:
                for c, s in zip(cards, sources, strict=True):
                    game.trace(f"  〔移動〕{c.label()}：{where(*s)} → {where(zone, owner)}")
            if game.history.on:
                game.history.record(cards, sources, zone, owner, "put")
            if game.knowledge is not None:
                note_move(game, cards, sources, zone, owner)
        if game.logging:
            game.log(f"{a.label()}與{b.label()}交換{AREA_ZH[zone]}")
        self._lost(legs)

    def _empty_area(self, p: Player, zone: str) -> list[Card]:
        """Take every card out of the player's hand, equipment area or judge area."""
        if zone == "hand":
            cards, p.hand = p.hand, []
        elif zone == "judge":
            cards, p.judge = p.judge, []
        else:
            cards = list(p.equips.values())
            p.equips.clear()
            self.game.skills.changed_equipment(p)
        return cards

    def _lost(self, legs: list[Leg], reason: str = "put") -> None:
        """The cards-lost window, once per living player that lost cards (from the hand, the
        equipment area or both) in this move: one loss event, in seat order from the current
        player; `move.reason` says why, `move.hand` and `move.equip` which cards went."""
        game = self.game
        groups: dict[int, tuple[list[Card], list[str]]] = {}
        for cards, sources, zone, owner in legs:
            for i, card in enumerate(cards):  # the sources are as many (move_cards, swap_hands)
                lost_from, loser = sources[i]
                if loser is not None and lost_from in ("hand", "equip") and loser.alive and not (
                        loser is owner and zone == lost_from):
                    lost, origins = groups.setdefault(loser.seat, ([], []))
                    lost.append(card)
                    origins.append(lost_from)
        if not groups:
            return
        if len(groups) > 1:  # most moves lose from one player: nothing to order
            n = len(game.players)
            place, start = game.place_of, game.place_of[game.current.seat]
            groups = {k: groups[k] for k in sorted(groups, key=lambda k: (place[k] - start) % n)}
        heard = game.tracing or "cards_lost" in (game._listeners if game._listeners is not None else self.triggers.listeners())
        for seat, (lost, origins) in groups.items():
            loser = game.players[seat]
            if "equip" in origins:
                self._own_lost(loser, [c for c, o in zip(lost, origins, strict=True) if o == "equip"], reason)
            if heard:
                self.triggers.open_window("cards_lost", {"move": Move(loser, origins[0], lost[0], lost, reason, origins)})
            else:  # no one listens: counted as opened, as open_window would
                game.windows_opened += 1

    def _own_lost(self, loser: Player, lost: list[Card], reason: str) -> None:
        """A card's own skill hears the move that takes it out of the equipment area."""
        for card in lost:
            own = card.kind.skill
            if own is not None and own.triggers.get("cards_lost"):
                variables = {"move": Move(loser, "equip", card, lost, reason)}
                self.triggers._fire_own([(loser, own, t) for t in own.triggers["cards_lost"]], variables, "cards_lost",
                               leaving=True)

    # ------------------------------------------------------------ the language's `move`
    def move_by_text(self, cards: list[Card], place: str, owner: Player | None, reason: str,
                     mover: Player | None, replace: bool = False) -> bool:
        """Move the cards to `place` of `owner` if the place can take all of them; False (and
        nothing moves) when it cannot."""
        game = self.game
        cards = [c for c in dict.fromkeys(cards) if self.zones.zone_of(c)[0] != "nowhere"]
        if place not in OWNED and not place.startswith(PILE):
            owner = None  # the deck and the discard pile are nobody's
        if not cards:
            return False
        refused = self.refusal(cards, place, owner, mover, replace)
        if refused:  # nothing moves: cards face down stay unnamed to those who cannot see them
            sources = [self.zones.zone_of(c) for c in cards]
            text = f"{'、'.join(self.turn.face(c) for c in cards)}不能移至{where(place, owner)}：{refused}"
            if any(self.face_down(zone) for zone, _ in sources):
                game.log_hidden(text, f"{len(cards)}張牌不能移至{where(place, owner)}", self._seers(sources, mover))
            else:
                game.log(text)
            return False
        if place == "equip" and replace and owner is not None:  # (refused above without an owner)
            old = [owner.equips[c.kind.type] for c in cards if c.kind.type in owner.equips
                   and owner.equips[c.kind.type] not in cards]
            if old:
                game.log(f"{'、'.join(c.label() for c in old)}被替換，置入棄牌堆")
                self.move_cards(old, "discard")
        self._log_move(cards, place, owner, reason, mover)
        self.move_cards(cards, place, owner, reason)
        return True

    def _log_move(self, cards: list[Card], place: str, owner: Player | None, reason: str,
                  mover: Player | None) -> None:
        """Cards from a face-down place (a hand, the deck, a private pile) into one stay face
        down: only the seats that hold or move them read which cards they are, the others how many."""
        game = self.game
        if not game.logging:  # batches keep no log: nothing to word
            return
        text = f"{'、'.join(self.turn.face(c) for c in cards)}{REASONS[reason]}{where(place, owner)}"
        sources = [self.zones.zone_of(c) for c in cards]
        if not self.face_down(place) or not any(self.face_down(zone) for zone, _ in sources):
            game.log(text)
            return
        game.log_hidden(text, f"{len(cards)}張牌{REASONS[reason]}{where(place, owner)}",
                        self._seers(sources, mover, owner))

    def face_down(self, zone: str) -> bool:
        """Cards in the zone lie face down: a hand, the deck (either end), a private pile."""
        return zone in HIDDEN or (zone.startswith(PILE) and self.pile_hidden(zone))

    def _seers(self, sources: list[tuple[str, Player | None]], *players: Player | None) -> frozenset[int]:
        """Who may read which cards are moved: the players named (who moves them, who takes
        them) and whoever holds them face down (a hand, a private pile)."""
        seats = {p.seat for p in players if p is not None}
        seats.update(holder.seat for zone, holder in sources if holder is not None and self.face_down(zone))
        return frozenset(seats)

    def refusal(self, cards: list[Card], place: str, owner: Player | None, mover: Player | None,
                replace: bool) -> str:
        """Why `place` of `owner` cannot take the cards ("" when it can), per the rules."""
        if owner is None or not owner.alive:
            return "沒有存活的角色接收" if place in OWNED or place.startswith(PILE) else ""
        if place == "equip":
            return self._equip_refusal(cards, owner, replace)
        if place == "judge":
            return self._judge_refusal(cards, owner, mover)
        return ""

    def _equip_refusal(self, cards: list[Card], owner: Player, replace: bool) -> str:
        slots: set[str] = set()
        for c in cards:
            slot = c.kind.type
            if not c.kind.is_equip:
                return f"{c.label()}不是裝備牌"
            if slot in slots:
                return f"兩張牌要進入同一個{SLOT_ZH[slot]}欄"
            slots.add(slot)
            held = owner.equips.get(slot)
            if held is not None and held not in cards and not replace:
                return f"{owner.label()}的{SLOT_ZH[slot]}欄已有{held.label()}"
        return ""

    def _judge_refusal(self, cards: list[Card], owner: Player, mover: Player | None) -> str:
        names = {self.turn.judged_kind(c).name for c in owner.judge if c not in cards}
        for c in cards:
            kind = self.turn.judged_kind(c)
            if kind.type != "delayed":
                return f"{c.label()}不是延時錦囊"
            if kind.name in names:
                return f"{owner.label()}的判定區已有【{kind.name}】"
            names.add(kind.name)
            card = UsedCard.of(c) if kind is c.kind else UsedCard.virtual(kind, (c,))
            if self.prohibits.forbidden(owner, "target", card, mover or owner):
                return f"{owner.label()}不能成為【{kind.name}】的目標"
        return ""

    # ------------------------------------------------------------ piles
    def pile_cards(self, p: Player, name: str) -> list[Card]:
        return list(p.piles.get(name, ()))

    def pile_hidden(self, zone: str) -> bool:
        """A private pile: only its owner sees its cards."""
        return not self.game.library.piles.get(zone[len(PILE):], True)

    def empty_piles(self, p: Player) -> None:
        """A dead player's piles go to the discard pile, one move."""
        cards = [c for cards in p.piles.values() for c in cards]
        if cards:
            self.move_cards(cards, "discard")
