"""What one seat may see: its own hand and role, and the table's public information.
Agents are handed this, never the Game itself."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import attr

from ..core.model import Card, Player

if TYPE_CHECKING:
    from .interfaces import Rules
    from .kernel import Game


# `attr.s(auto_attribs=True)`, not a slotted `attrs.frozen`: the form mypyc compiles
# (docs/performance.md, "The compiled build"); a write from Python raises, as before.
@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class SeatInfo:
    """A player as everyone sees them."""

    seat: int
    name: str
    gender: str
    hp: int
    max_hp: int
    alive: bool
    role: str | None  # the side this seat knows the player is on (the mode says: in identity oneself, the lord, the dead)
    hand_count: int
    equips: tuple[str, ...]  # card labels
    judge: tuple[str, ...]  # a card that counts as another trick reads as that trick: 【樂不思蜀】(【閃】♦4)
    generals: tuple[str, ...] = ()  # 國戰: the general cards this seat may see ("" for one face down)
    hero_key: str = ""  # the key of its hero card, face up for all (core/names.py); "" for none
    kingdom: str = ""  # the kingdom it shows ("" for none yet: 國戰 before a general is shown)
    chained: bool = False  # 連環狀態
    turned: bool = False  # 翻面
    piles: tuple[tuple[str, int, tuple[str, ...]], ...] = ()  # (pile, cards in it, their faces: () when face down to this seat)
    marks: tuple[tuple[str, int], ...] = ()  # the named counters its skills keep, above 0
    shown: tuple[bool, ...] = ()  # 國戰: which general cards lie face up (one's own face-down ones are named)


class SeatView:
    """Read-only, computed on demand: cheap to hand out with every question."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int):
        self._game = game
        self.seat = seat

    @property
    def hand(self) -> tuple[str, ...]:
        return tuple(c.label() for c in self._game.players[self.seat].hand)

    @property
    def role(self) -> str:
        return self._game.players[self.seat].role

    @property
    def current(self) -> int:
        return self._game.current.seat

    @property
    def deck_count(self) -> int:
        return len(self._game.deck)

    @property
    def discard_pile(self) -> tuple[str, ...]:
        return tuple(c.label() for c in self._game.discard_pile)

    def players(self) -> list[SeatInfo]:
        return [self._info(p) for p in self._game.players]

    def _info(self, p: Player) -> SeatInfo:
        return SeatInfo(p.seat, p.name, p.gender, p.hp, p.max_hp, p.alive, self._game.mode.visible_side(self.seat, p),
                        len(p.hand), tuple(c.label() for c in p.equips.values()),
                        tuple(self._game.turn.face(c) for c in p.judge), self._game.mode.visible_generals(self.seat, p),
                        p.hero_key, p.kingdom, p.chained, p.turned, self._piles(p),
                        tuple((name, n) for name, n in p.marks.items() if n), self._game.mode.generals_shown(p))

    def _piles(self, p: Player) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
        """Its piles: a public pile's faces for all, a private one's to its owner only (a count to others)."""
        if not p.piles:
            return ()
        public = self._game.library.piles
        return tuple((name, len(cards), tuple(c.label() for c in cards)
                      if public.get(name, True) or p.seat == self.seat else ())
                     for name, cards in p.piles.items() if cards)

    def distance(self, a: int, b: int) -> int:
        return self._game.seats.distance(self._game.players[a], self._game.players[b])

    def attack_range(self, seat: int) -> int:
        return self._game.seats.attack_range(self._game.players[seat])

    def in_range(self, a: int, b: int) -> bool:
        """b is within a's attack range (no card in hand: a card's own range lifts are its targets' business)."""
        return self._game.seats.in_range(self._game.players[a], self._game.players[b])

    def log_lines(self, start: int = 0) -> list[str]:
        """The game's log from line `start` as this seat may read it: a line naming what only
        some seats may see (Game.log_hidden) reads as its public text to the others."""
        lines, hidden = self._game.lines[start:], self._game.hidden_lines
        if not hidden:
            return lines
        return [self._readable(start + i, line) for i, line in enumerate(lines)]

    def _readable(self, index: int, line: str) -> str:
        seats, public = self._game.hidden_lines.get(index, (None, line))
        return line if seats is None or self.seat in seats else public

    # ------------------------------------------------------------ public facts, for agents that reason
    # (each computed only when asked: a random agent never pays for them)
    @property
    def library(self) -> Rules:
        """The rules in play (card and skill texts are public)."""
        return self._game.library

    @property
    def turn(self) -> int:
        return self._game.turns

    @property
    def asker(self) -> str:
        """The skill or card whose text is running (it asks the text's questions)."""
        return self._game.asker

    def sides(self) -> tuple[str | None, ...]:
        """Each seat's side as this seat knows it (None: unknown)."""
        mode = self._game.mode
        return tuple(mode.visible_side(self.seat, p) for p in self._game.players)

    def role_counts(self) -> dict[str, int]:
        """How many players were dealt each side, when the mode makes it public (identity
        deals a public table of roles by player count; the seats holding them stay hidden);
        {} when it is hidden (國戰: the kingdoms at the table)."""
        return self._game.mode.dealt_sides(self._game) or {}

    def alive(self, seat: int) -> bool:
        return self._game.players[seat].alive

    def hp(self, seat: int) -> tuple[int, int]:
        """(hp, max hp)."""
        p = self._game.players[seat]
        return p.hp, p.max_hp

    def hand_size(self, seat: int) -> int:
        return len(self._game.players[seat].hand)

    def equip_slots(self, seat: int) -> tuple[str, ...]:
        """The slots of the seat's equipment area that hold a card (weapon, armor, ...)."""
        return tuple(self._game.players[seat].equips)

    @property
    def dying(self) -> int | None:
        """The seat of the player now dying (瀕死), if any."""
        return next((p.seat for p in self._game.players if p.dying and p.alive), None)

    def resolving(self) -> tuple[tuple[str, int, int | None], ...]:
        """The card being resolved and what it answers, innermost first: (card name, user's
        seat, the seat it now acts on or None)."""
        stack = self._game.use_stack
        frames = []
        use = stack[-1] if stack else None
        while use is not None:
            frames.append((use.card.kind.key, use.user.seat, None if use.current is None else use.current.seat))
            use = use.responded
        return tuple(frames)

    @property
    def damage_count(self) -> int:
        return len(self._game.damage_log)

    @property
    def recover_count(self) -> int:
        return len(self._game.recover_log)

    def recoveries(self, start: int = 0) -> tuple[tuple[int, int, int], ...]:
        """Every recovery so far from index `start`: (source seat or -1, who recovered, hp gained)."""
        return tuple((-1 if s is None else s.seat, p.seat, n) for s, p, n in self._game.recover_log[start:])

    def damages(self, start: int = 0) -> tuple[tuple[int, int, int], ...]:
        """Every damage dealt so far from index `start`: (source seat or -1, target seat, amount)."""
        return tuple((-1 if d.source is None else d.source.seat, d.target.seat, d.amount)
                     for d in self._game.damage_log[start:])

    def play_targets(self, value: Any) -> tuple[int, ...]:
        """The seats a play option (kind, subcards) may target now, as the rules say."""
        game, me = self._game, self._game.players[self.seat]
        kind, subcards = value
        mode = kind.mode("play")
        if mode is None or mode.target is None:
            return (self.seat,)
        card = game.hp.probe(me, kind, subcards)
        return tuple(p.seat for p in game.using.legal_targets(me, mode.target, card))

    def zone_of(self, card: Card) -> tuple[str, int | None]:
        """Where a card offered to this seat lies: (zone, owner's seat or None)."""
        zone, owner = self._game.zones.zone_of(card)
        return zone, None if owner is None else owner.seat

    # ------------------------------------------------------------ the forward model
    @property
    def looks_forward(self) -> bool:
        """The game keeps what branching needs (engine/forking.py `keep_forward_model`)."""
        return self._game.forward_model and self._game.turn_start is not None

    def known_cards(self) -> frozenset[int]:
        """The uids of the cards whose place this seat knows (worked out once per question)."""
        from .knowledge import known_cards  # (the forward model is imported when used)

        return known_cards(self._game, self.seat)

    def branch(self, answer: tuple[int, str] | None, rng: random.Random, agents: list[Any],
               pinned: frozenset[int] | None = None, belief: tuple[float, ...] | None = None) -> tuple[Game, Player]:
        """A copy of the game as this seat could believe it to be, from the start of this turn,
        that replays the answers given since and then `answer` (an option of the question being
        asked: its index and label), its seats then answered by `agents` (engine/forking.py
        `branch`): the copy is a world dealt again, never the real game; `belief` (this seat's
        guess of each seat, 1 an ally, -1 an enemy) weighs what the mode deals again."""
        from .forking import branch

        return branch(self._game, self.seat, rng, agents, answer, pinned, belief=belief)
