"""Game state as plain data: cards, players, zones, and the records of events in flight."""

from __future__ import annotations

from typing import Any

import attrs

SUIT_ZH = {"spade": "♠", "heart": "♥", "club": "♣", "diamond": "♦"}
RANK_FACE = {1: "A", 11: "J", 12: "Q", 13: "K"}
RED_SUITS = frozenset(("heart", "diamond"))
EQUIP_TYPES = ("weapon", "armor", "defense_horse", "offense_horse")
SLOT_ZH = {"weapon": "武器", "armor": "防具", "defense_horse": "+1坐騎", "offense_horse": "-1坐騎"}
PHASES = ("prepare", "judge", "draw", "play", "discard", "finish")
PHASE_ZH = {"prepare": "準備", "judge": "判定", "draw": "摸牌", "play": "出牌", "discard": "棄牌", "finish": "結束"}
NATURE_ZH = {"normal": "", "fire": "火焰", "thunder": "雷電"}
ROLE_ZH = {"lord": "主公", "loyalist": "忠臣", "rebel": "反賊", "renegade": "內奸"}


def color_of(suit: str | None) -> str | None:
    if suit is None:
        return None
    return "red" if suit in RED_SUITS else "black"


@attrs.define(slots=True, eq=False)
class Card:
    """A physical card of the deck."""

    uid: int
    kind: Any  # compiler.defs.CardKind
    suit: str
    rank: int

    @property
    def name(self) -> str:
        return self.kind.name

    @property
    def color(self) -> str:
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def nature(self) -> str:
        return self.kind.nature

    def label(self) -> str:
        return f"【{self.kind.name}】{SUIT_ZH[self.suit]}{RANK_FACE.get(self.rank, str(self.rank))}"


@attrs.define(slots=True, eq=False)
class UsedCard:
    """The card as used or played: a real card, or a virtual one made of zero or more real cards."""

    kind: Any
    suit: str | None
    color: str | None
    rank: int
    subcards: tuple[Card, ...]
    nature: str = "normal"

    @property
    def name(self) -> str:
        return self.kind.name

    @classmethod
    def of(cls, card: Card) -> UsedCard:
        return cls(card.kind, card.suit, card.color, card.rank, (card,), card.kind.nature)

    @classmethod
    def virtual(cls, kind: Any, subcards: tuple[Card, ...] = ()) -> UsedCard:
        suits = {c.suit for c in subcards}
        colors = {c.color for c in subcards}
        suit = suits.pop() if len(suits) == 1 else None
        color = colors.pop() if len(colors) == 1 else None
        rank = subcards[0].rank if len(subcards) == 1 else 0
        return cls(kind, suit, color, rank, subcards, kind.nature)

    @property
    def is_virtual(self) -> bool:
        return len(self.subcards) != 1 or self.subcards[0].kind is not self.kind

    def label(self) -> str:
        if not self.is_virtual:
            return self.subcards[0].label()
        inner = "、".join(c.label() for c in self.subcards)
        return f"【{self.kind.name}】({inner})" if inner else f"【{self.kind.name}】(視為)"


@attrs.define(slots=True, eq=False)
class Player:
    seat: int
    name: str
    gender: str
    hp: int
    max_hp: int
    role: str = ""
    kingdom: str = ""
    alive: bool = True
    chained: bool = False  # 連環狀態
    dying: bool = False
    hand: list[Card] = attrs.field(factory=list)
    equips: dict[str, Card] = attrs.field(factory=dict)
    judge: list[Card] = attrs.field(factory=list)
    skills: tuple[Any, ...] = ()
    skipped: set[str] = attrs.field(factory=set)
    used: dict[str, int] = attrs.field(factory=dict)  # card name -> uses this play phase
    marks: dict[str, int] = attrs.field(factory=dict)  # named counters that skills keep
    mark_until: dict[str, str] = attrs.field(factory=dict)  # mark -> "phase" / "turn" / "game"
    turn_cards: list[str] = attrs.field(factory=list)  # names of the cards used or played this turn

    @property
    def hurt(self) -> bool:
        return self.hp < self.max_hp

    def label(self) -> str:
        return f"{self.seat + 1}號位{self.name}"


@attrs.define(slots=True, eq=False)
class Use:
    """One use of a card, from declaration to the end of its resolution."""

    card: UsedCard
    user: Player
    targets: list[Player]
    context: str
    responded: Use | None = None
    current: Player | None = None
    cancelled: set[int] = attrs.field(factory=set)  # ids of targets (or -1 for no target)
    invalid: set[int] = attrs.field(factory=set)
    armor_off: set[int] = attrs.field(factory=set)
    need: dict[int, int] = attrs.field(factory=dict)  # target -> cancels needed (default 1)
    no_response: set[int] = attrs.field(factory=set)  # seats that may not respond to it
    vars: dict[str, Any] = attrs.field(factory=dict)

    def key(self, target: Player | None) -> int:
        return -1 if target is None else target.seat


@attrs.define(slots=True, eq=False)
class Damage:
    source: Player | None
    target: Player
    amount: int
    nature: str
    card: UsedCard | None
    chained: bool = False  # arrived by chain transmission
    prevented: bool = False
    use: Use | None = None  # the use whose card dealt it


@attrs.define(slots=True, eq=False)
class Judge:
    player: Player
    card: Card

    @property
    def suit(self) -> str:
        return self.card.suit

    @property
    def rank(self) -> int:
        return self.card.rank


@attrs.define(slots=True, eq=False)
class Asked:
    player: Player
    card: UsedCard  # a virtual card of the kind asked for, so patterns can test it
    pattern: Any
    mode: str  # "use" or "play"
    provided: UsedCard | None = None


@attrs.define(slots=True, eq=False)
class Dying:
    player: Player
    damage: Damage | None


@attrs.define(slots=True, eq=False)
class Recover:
    player: Player
    amount: int
    source: Player | None
    prevented: bool = False
    card: UsedCard | None = None


@attrs.define(slots=True, eq=False)
class Move:
    """Cards leaving a player's hand or equipment (連營, 梟姬-like skills listen)."""

    player: Player
    zone: str
    card: Card


@attrs.define(slots=True, eq=False)
class Phase:
    name: str
    player: Player
    count: int = 0


class GameOver(Exception):
    def __init__(self, winner: str, reason: str):
        super().__init__(reason)
        self.winner = winner
        self.reason = reason


class TurnEnded(Exception):
    """The current player died: their turn ends at once."""


class RulesError(Exception):
    """Text did something the rules cannot allow (a runaway loop, a wrong value at run time)."""
