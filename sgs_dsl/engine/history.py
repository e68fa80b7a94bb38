"""What happened this phase, turn and round, as plain records that text can query
(`history(p, discarded, phase)`, `damage_history(p, dealt, turn)`).

Moves are recorded only when some loaded text asks for them (`Library.history_used`); the
log holds the current round and is emptied when a new round starts, so it stays small. The
damage taken and dealt is read off the game's damage log (`Game.damage_log`), from the index
it had when the period started."""

from __future__ import annotations

from collections.abc import Callable

import attr

from ..core.model import Card, Damage, Player

# Classes here are `attr.s(auto_attribs=True)`, not slotted `attrs.define`/`attrs.frozen`: the form
# mypyc compiles (docs/performance.md, "The compiled build").

LOSABLE = ("hand", "equip")  # the zones a player loses cards from (失去牌)


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class MoveRecord:
    """Cards that moved together from one place: where from, where to, and why."""

    cards: tuple[Card, ...]
    src: str  # hand / equip / judge / pile:NAME / deck / discard / processing
    src_owner: Player | None
    dst: str
    dst_owner: Player | None
    reason: str  # use / play / discard / give / gain / put / recast

    def lost_by(self, p: Player) -> bool:
        return self.src_owner is p and self.src in LOSABLE and not (self.dst_owner is p and self.dst == self.src)


# What each kind of card history asks of a record, for player p.
CARD_KINDS: dict[str, Callable[[MoveRecord, Player], bool]] = {
    "used": lambda r, p: r.reason == "use" and r.src_owner is p,
    "played": lambda r, p: r.reason == "play" and r.src_owner is p,
    "discarded": lambda r, p: r.reason == "discard" and r.src_owner is p,
    "gained": lambda r, p: r.dst_owner is p and r.dst == "hand" and r.src_owner is not p,
    "lost": MoveRecord.lost_by,
}


@attr.s(auto_attribs=True, order=False)
class History:
    """The move log of the round and where each period starts in it and in the damage log."""

    on: bool = False  # some text queries moves: record them
    moves: list[MoveRecord] = attr.ib(factory=list)
    since: dict[str, tuple[int, int]] = attr.ib(factory=dict)  # period -> (move index, damage index)

    def record(self, cards: list[Card], sources: list[tuple[str, Player | None]], dst: str,
               owner: Player | None, reason: str) -> None:
        """One move, as one record per place its cards came from (in the order they left)."""
        groups: dict[tuple[str, int], list[Card]] = {}
        where: dict[tuple[str, int], tuple[str, Player | None]] = {}
        for card, (zone, who) in zip(cards, sources, strict=True):
            key = (zone, -1 if who is None else who.seat)
            groups.setdefault(key, []).append(card)
            where[key] = (zone, who)
        for key, moved in groups.items():
            zone, who = where[key]
            self.moves.append(MoveRecord(tuple(moved), zone, who, dst, owner, reason))

    def start(self, period: str, damage_count: int) -> None:
        self.since[period] = (len(self.moves), damage_count)

    def start_round(self, damage_count: int) -> None:
        """A round starts (the turn decides when): the moves of the last one are forgotten."""
        self.moves.clear()
        self.since.clear()
        self.start("round", damage_count)

    def cards(self, p: Player, kind: str, period: str) -> list[Card]:
        first = self.since.get(period, (0, 0))[0]
        test = CARD_KINDS[kind]
        return [c for r in self.moves[first:] if test(r, p) for c in r.cards]

    def damage(self, log: list[Damage], p: Player, kind: str, period: str) -> int:
        first = self.since.get(period, (0, 0))[1]
        if kind == "dealt":
            return sum(d.amount for d in log[first:] if d.source is p)
        return sum(d.amount for d in log[first:] if d.target is p)
