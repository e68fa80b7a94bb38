"""Game state as plain data: cards, players, zones, and the records of events in flight."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NoReturn

import attr

from ..syntax.diagnostics import Span
from .defs import CardKind, Skill
from .native import mypyc_attr

# Classes here are `attr.s(auto_attribs=True)`, not slotted `attrs.define`/`attrs.frozen`: the form
# mypyc compiles (docs/performance.md, "The compiled build"). Card is frozen with an __init__ of its
# own; so are the records made twenty times a game or more (a phase, a card as used, a use, a
# question of a card, a move, a damage): attrs' generated __init__ is Python even in the
# compiled build, where a hand-written one is native.

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


@attr.s(auto_attribs=True, frozen=True, eq=False, order=False, init=False)
class Card:
    """A physical card of the deck. Frozen: it keeps its kind, suit and rank for the whole
    game (a card that "counts as" another is a view of it: UsedCard, filters), so an engine
    bug that writes a face fails where it writes. Its own __init__ (attrs' own writes the
    instance __dict__, which a compiled class has not); attrs makes it frozen for mypy and at
    run time, in both builds (docs/performance.md, "The compiled build")."""

    uid: int
    kind: CardKind
    suit: str
    rank: int
    # read at every question and move: worked out once, as the face never changes
    color: str
    text: str = attr.ib(repr=False)

    def __init__(self, uid: int, kind: CardKind, suit: str, rank: int) -> None:
        write = object.__setattr__  # past attrs' frozen __setattr__, as attrs' own __init__ does
        write(self, "uid", uid)
        write(self, "kind", kind)
        write(self, "suit", suit)
        write(self, "rank", rank)
        write(self, "color", "red" if suit in RED_SUITS else "black")
        write(self, "text", f"【{kind.name}】{SUIT_ZH[suit]}{RANK_FACE.get(rank, str(rank))}")

    @property
    def name(self) -> str:
        return self.kind.name

    @property
    def nature(self) -> str:
        return self.kind.nature

    def label(self) -> str:
        return self.text


@attr.s(auto_attribs=True, eq=False, order=False, init=False)
class UsedCard:
    """The card as used or played: a real card, or a virtual one made of zero or more real cards."""

    kind: CardKind
    suit: str | None
    color: str | None
    rank: int
    subcards: tuple[Card, ...]
    nature: str = "normal"
    filtered: bool = False  # one real card read through its holder's filters
    face_down: bool = False  # used face down as the card declared: no suit or colour shows (質疑)

    def __init__(self, kind: CardKind, suit: str | None, color: str | None, rank: int, subcards: tuple[Card, ...],
                 nature: str = "normal", filtered: bool = False, face_down: bool = False) -> None:
        self.kind = kind
        self.suit = suit
        self.color = color
        self.rank = rank
        self.subcards = subcards
        self.nature = nature
        self.filtered = filtered
        self.face_down = face_down

    @property
    def name(self) -> str:
        return self.kind.name

    @classmethod
    def of(cls, card: Card) -> UsedCard:
        return cls(card.kind, card.suit, card.color, card.rank, (card,), card.kind.nature)

    @classmethod
    def virtual(cls, kind: CardKind, subcards: tuple[Card, ...] = ()) -> UsedCard:
        suits = {c.suit for c in subcards}
        colors = {c.color for c in subcards}
        suit = suits.pop() if len(suits) == 1 else None
        color = colors.pop() if len(colors) == 1 else None
        rank = subcards[0].rank if len(subcards) == 1 else 0
        return cls(kind, suit, color, rank, subcards, kind.nature)

    @classmethod
    def face_down_as(cls, kind: CardKind, subcards: tuple[Card, ...]) -> UsedCard:
        """Cards used face down as `kind`: what they really are is hidden until questioned."""
        return cls(kind, None, None, 0, subcards, kind.nature, face_down=True)

    @property
    def is_virtual(self) -> bool:
        return not self.filtered and (len(self.subcards) != 1 or self.subcards[0].kind is not self.kind)

    def label(self) -> str:
        if self.filtered:  # the printed face, then what it counts as
            card = self.subcards[0]
            name = f"【{self.kind.name}】" if self.kind is not card.kind else ""
            shown = self.suit  # a filter's suit, or the card's own (a filtered card has one)
            suit = SUIT_ZH[shown] if shown is not None and shown != card.suit else ""
            return f"{card.label()}(視為{suit}{name})"
        if self.face_down:
            return f"【{self.kind.name}】(扣置)"
        if not self.is_virtual:
            return self.subcards[0].label()
        inner = "、".join(c.label() for c in self.subcards)
        return f"【{self.kind.name}】({inner})" if inner else f"【{self.kind.name}】(視為)"


@attr.s(auto_attribs=True, eq=False, order=False)
class Player:
    seat: int
    name: str  # as the log shows it: the hero's printed name (國戰: the generals shown)
    gender: str
    hp: int
    max_hp: int
    role: str = ""
    kingdom: str = ""
    alive: bool = True
    chained: bool = False  # 連環狀態
    dying: bool = False
    hand: list[Card] = attr.ib(factory=list)
    equips: dict[str, Card] = attr.ib(factory=dict)
    judge: list[Card] = attr.ib(factory=list)
    skills: tuple[Skill, ...] = ()
    skipped: set[str] = attr.ib(factory=set)
    used: dict[str, int] = attr.ib(factory=dict)  # card name -> uses this play phase
    marks: dict[str, int] = attr.ib(factory=dict)  # named counters that skills keep
    mark_until: dict[str, str] = attr.ib(factory=dict)  # mark -> "phase" / "turn" / "game"
    turn_cards: list[str] = attr.ib(factory=list)  # names of the cards used or played this turn
    # player state
    turned: bool = False  # 翻面: face down; skips its next turn, turning face up
    memory: dict[str, Any] = attr.ib(factory=dict)  # remembered values (`state` of skills)
    spent: set[str] = attr.ib(factory=set)  # limited and wake skills already fired
    skills_off: int = 0  # > 0: hero skills lose effect (技能失效), once per effect still lasting
    # turns and phases
    turn_skips: int = 0  # whole turns still to skip (skip_turn)
    play_ended: bool = False  # end_play: the play phase ends at its next free time
    # piles on the hero (武將牌上的牌): pile name -> its cards, oldest first
    piles: dict[str, list[Card]] = attr.ib(factory=dict)
    hero_key: str = ""  # the key of its hero card (core/names.py); "" for none
    _label: tuple[str | None, str] = attr.ib(init=False, default=(None, ""), repr=False, eq=False)

    @property
    def hurt(self) -> bool:
        return self.hp < self.max_hp

    def label(self) -> str:
        cached = self._label
        if cached[0] is not self.name:  # the name may change (國戰 shows a general, a hero changes)
            cached = self._label = (self.name, f"{self.seat + 1}號位{self.name}")
        return cached[1]


@attr.s(auto_attribs=True, eq=False, order=False, init=False)
class Use:
    """One use of a card, from declaration to the end of its resolution."""

    card: UsedCard
    user: Player
    targets: list[Player]
    context: str
    responded: Use | None = None
    current: Player | None = None
    cancelled: set[int] = attr.ib(factory=set)  # ids of targets (or -1 for no target)
    invalid: set[int] = attr.ib(factory=set)
    armor_off: set[int] = attr.ib(factory=set)
    need: dict[int, int] = attr.ib(factory=dict)  # target -> cancels needed (default 1)
    no_response: set[int] = attr.ib(factory=set)  # seats that may not respond to it
    damage_bonus: int = 0  # added to each damage its card deals (酒), from the start
    vars: dict[str, Any] = attr.ib(factory=dict)  # the text's own values (`set use.NAME`), nothing else
    void: bool = False  # 作廢: questioned and false, it was never used
    # the engine's own records, which no text can name
    uncounterable: bool = False  # no card may counter this use
    revealed: list[Card] = attr.ib(factory=list)  # cards text revealed during it, discarded at its end
    ruled: set[tuple[str, int]] = attr.ib(factory=set)  # card rules that took effect on it, with their seat

    def __init__(self, card: UsedCard, user: Player, targets: list[Player], context: str,
                 responded: Use | None = None, current: Player | None = None, damage_bonus: int = 0,
                 void: bool = False, uncounterable: bool = False) -> None:
        self.card = card
        self.user = user
        self.targets = targets
        self.context = context
        self.responded = responded
        self.current = current
        self.cancelled = set()
        self.invalid = set()
        self.armor_off = set()
        self.need = {}
        self.no_response = set()
        self.damage_bonus = damage_bonus
        self.vars = {}
        self.void = void
        self.uncounterable = uncounterable
        self.revealed = []
        self.ruled = set()

    def key(self, target: Player | None) -> int:
        return -1 if target is None else target.seat


@attr.s(auto_attribs=True, eq=False, order=False, init=False)
class Damage:
    source: Player | None
    target: Player
    amount: int
    nature: str
    card: UsedCard | None
    chained: bool = False  # arrived by chain transmission
    prevented: bool = False
    use: Use | None = None  # the use whose card dealt it
    vars: dict[str, Any] = attr.ib(factory=dict)  # values set on the damage

    def __init__(self, source: Player | None, target: Player, amount: int, nature: str, card: UsedCard | None,
                 chained: bool = False, prevented: bool = False, use: Use | None = None) -> None:
        self.source = source
        self.target = target
        self.amount = amount
        self.nature = nature
        self.card = card
        self.chained = chained
        self.prevented = prevented
        self.use = use
        self.vars = {}


@attr.s(auto_attribs=True, eq=False, order=False)
class Judge:
    player: Player
    card: Card | UsedCard  # a UsedCard: the judged player's filters read it (engine.filters)

    @property
    def suit(self) -> str | None:
        return self.card.suit

    @property
    def rank(self) -> int:
        return self.card.rank


@attr.s(auto_attribs=True, eq=False, order=False, init=False)
class Asked:
    player: Player
    card: UsedCard  # a virtual card of the kind asked for, so patterns can test it
    pattern: Any
    mode: str  # "use" or "play"
    provided: UsedCard | None = None

    def __init__(self, player: Player, card: UsedCard, pattern: Any, mode: str, provided: UsedCard | None = None) -> None:
        self.player = player
        self.card = card
        self.pattern = pattern
        self.mode = mode
        self.provided = provided


@attr.s(auto_attribs=True, eq=False, order=False)
class Dying:
    player: Player
    damage: Damage | None


@attr.s(auto_attribs=True, eq=False, order=False)
class Recover:
    player: Player
    amount: int
    source: Player | None
    prevented: bool = False
    card: UsedCard | None = None


@attr.s(auto_attribs=True, eq=False, order=False, init=False)
class HpChange:
    """A player's hp (or max hp) went up or down: by how much, and by which damage if one."""

    player: Player
    delta: int  # signed: -2 for two points lost
    damage: Damage | None = None

    def __init__(self, player: Player, delta: int, damage: Damage | None = None) -> None:
        self.player = player
        self.delta = delta
        self.damage = damage


@attr.s(auto_attribs=True, eq=False, order=False, init=False)
class Discarded:
    """Cards entering the discard pile together from one place: where they came from (its
    owner, none for the processing area or the deck) and why they moved."""

    cards: list[Card]
    origin: str  # vocab.ORIGINS: hand, equip, judge, processing, deck, pile
    owner: Player | None
    reason: str

    def __init__(self, cards: list[Card], origin: str, owner: Player | None, reason: str) -> None:
        self.cards = cards
        self.origin = origin
        self.owner = owner
        self.reason = reason


@attr.s(auto_attribs=True, eq=False, order=False, init=False)
class Move:
    """Cards a player lost in one move, from the hand and the equipment area alike: one loss
    event (連營, 梟姬-like skills listen); or cards drawn. `card` is the one heard now (the
    first, or each in turn under `each_card`) and `zone` where it came from."""

    player: Player
    zone: str
    card: Card  # the first card lost (the only one, for most moves)
    cards: list[Card] = attr.ib(factory=list)  # every card this move took from the player
    reason: str = "put"  # why they moved (vocab.REASONS): "discard" for cards 棄置
    origins: list[str] = attr.ib(factory=list)  # where each of `cards` came from

    def __init__(self, player: Player, zone: str, card: Card, cards: list[Card] | None = None,
                 reason: str = "put", origins: list[str] | None = None) -> None:
        self.player = player
        self.zone = zone
        self.card = card
        self.cards = [] if cards is None else cards
        self.reason = reason
        self.origins = [zone] * len(self.cards) if origins is None else origins

    def lost_from(self, zone: str) -> list[Card]:
        """The cards of this move that came from `zone`."""
        return [c for c, origin in zip(self.cards, self.origins, strict=True) if origin == zone]

    def views(self) -> list[Move]:
        """The move heard card by card (`each_card`): each with its own card and zone."""
        return [Move(self.player, self.origins[i], c, self.cards, self.reason, self.origins)
                for i, c in enumerate(self.cards)]


@attr.s(auto_attribs=True, eq=False, order=False, init=False)
class Phase:
    name: str
    player: Player
    count: int = 0

    def __init__(self, name: str, player: Player, count: int = 0) -> None:
        self.name = name
        self.player = player
        self.count = count


class GameOver(Exception):
    def __init__(self, winner: str, reason: str):
        super().__init__(reason)
        self.winner = winner
        self.reason = reason


class TurnEnded(Exception):
    """The current player died: their turn ends at once."""


class RulesError(Exception):
    """Text did something the rules cannot allow (a runaway loop, a wrong value at run time).
    With a span, the message starts with the `.sgs` location of the text that did it."""

    def __init__(self, message: str, span: Span | None = None):
        super().__init__(f"{span}: {message}" if span is not None else message)
        self.span = span


# What one game's text may spend (docs/language.md "Budgets"). An action is one free-time
# choice of the play phase, one phase (its windows and body) or the turn's opening or
# closing windows; `Budget.new_action` refills the steps at each.
MAX_STEPS = 20_000  # statements run, loop rounds and items counted, per action
# Nesting is counted in levels of evaluation, so that what is counted is the depth the game
# actually reaches (Python's stack): every call of an effect, function or procedure still
# running counts CALL_LEVELS plus the level of nesting it is written at in its text (the
# levels of the front end's 64-level limit: `if`s, blocks and expressions around it), and
# every card use still resolving counts CALL_LEVELS.
MAX_DEPTH = 240
CALL_LEVELS = 6
NESTING_RULE = f"each call still running counts {CALL_LEVELS} levels and the levels of text it is written in"
# the last resort, for a game started from a stack already nearly full: the levels keep
# evaluation some 550 frames deep at most
STACK_FULL = ("runaway text: it sets itself off again so deep inside its own blocks that Python's "
              "stack is full before the nesting budget")
MAX_COUNT = 1000  # the largest count one effect may ask for (cards to draw, answers, picks)
MAX_INT = 10**9  # the largest magnitude of a number computed by text


@mypyc_attr(allow_interpreted_subclasses=True)  # a test hands in a subclass (engine/parts.py)
@attr.s(auto_attribs=True, eq=False, order=False)
class Budget:
    """One game's allowance. The compiled text ticks it: `steps` down, `depth` up and down."""

    steps: int = MAX_STEPS
    depth: int = 0
    firing: Any = None  # the TriggerDef whose body runs now: named when the depth runs over
    seconds: float | None = None  # the wall-clock limit of the game, if any
    deadline: float = 0.0  # time.monotonic() past which the game is cut off
    timed_out: bool = False  # the game was cut off at its deadline (not a rules error)
    clock: Callable[[], float] = time.monotonic  # what reads the time (a test hands in its own)

    def limit_time(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = self.clock() + seconds

    def new_action(self) -> None:
        """Refill the steps; past the deadline, cut the game off (checked per action: the
        steps bound how long one action can run)."""
        self.steps = MAX_STEPS
        if self.seconds is not None and self.clock() > self.deadline:
            self.timed_out = True
            raise RulesError(f"the game ran past its time limit of {self.seconds:g} s")

    def spend(self, n: int, span: Span) -> None:
        self.steps -= n
        if self.steps < 0:
            self.ran_out(span)

    def ran_out(self, span: Span) -> NoReturn:
        raise RulesError(f"runaway text: more than {MAX_STEPS} steps in one action (statements, "
                         "loop rounds and counted items); nested loops or triggers that keep "
                         "firing never end", span)

    def enter(self, span: Span, levels: int = CALL_LEVELS) -> None:
        """`levels` deeper; past MAX_DEPTH, a rules error at `span`. The caller leaves with
        `depth -= levels` when it is done."""
        if self.depth + levels > MAX_DEPTH:
            self.too_deep(span)
        self.depth += levels

    def too_deep(self, span: Span) -> NoReturn:
        trig = self.firing  # named too: the call is in its text, or set off by it
        by = f" while 【{trig.skill}】 ({trig.span}) fired" if trig is not None else ""
        raise RulesError(f"runaway text: nested more than {MAX_DEPTH} levels deep{by}; text that sets itself "
                         "off again (a trigger firing itself, two skills firing each other, a condition asking "
                         f"for what it decides) never ends ({NESTING_RULE})", span)

    def count(self, n: int, what: str, span: Span) -> None:
        """A count an effect asks for: at most MAX_COUNT, and charged as that many steps."""
        if n > MAX_COUNT:
            raise RulesError(f"{what}: {n} is more than {MAX_COUNT}, the largest count an effect "
                             "may ask for", span)
        if n > 0:
            self.spend(n, span)
