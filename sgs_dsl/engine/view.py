"""What one seat may see: its own hand and role, and the table's public information.
Agents are handed this, never the Game itself."""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen(slots=True)
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
    judge: tuple[str, ...]
    generals: tuple[str, ...] = ()  # 國戰: the general cards this seat may see ("" for one face down)


class SeatView:
    """Read-only, computed on demand: cheap to hand out with every question."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Any, seat: int):
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

    def _info(self, p: Any) -> SeatInfo:
        return SeatInfo(p.seat, p.name, p.gender, p.hp, p.max_hp, p.alive, self._game.mode.visible_side(self.seat, p),
                        len(p.hand), tuple(c.label() for c in p.equips.values()),
                        tuple(c.label() for c in p.judge), self._game.mode.visible_generals(self.seat, p))

    def distance(self, a: int, b: int) -> int:
        return self._game.distance(self._game.players[a], self._game.players[b])

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
