"""A ruling fixture as data: the table, the script, the expectations, with source spans."""

from __future__ import annotations

import attrs

from ..engine.model import RANK_FACE, SUIT_ZH
from ..syntax.diagnostics import Span


@attrs.frozen
class CardRef:
    name: str
    suit: str
    rank: int
    span: Span

    def text(self) -> str:
        return f"{self.name} {SUIT_ZH[self.suit]}{RANK_FACE.get(self.rank, str(self.rank))}"


@attrs.frozen
class SeatSpec:
    seat: int  # 1-based, as people count seats
    role: str
    hp: int | None
    max_hp: int | None
    gender: str
    hero: str | None
    hand: tuple[CardRef, ...]
    equip: tuple[CardRef, ...]
    judge: tuple[CardRef, ...]  # in placement order
    span: Span


@attrs.frozen
class Run:
    """What to play: a whole turn (from a phase on), or one phase."""

    seat: int
    phase: str | None
    whole_turn: bool
    span: Span


@attrs.frozen
class Step:
    """One line of the script: an answer, or a claim that an option is not legal."""

    seat: int
    kind: str  # answer / uses / ends / cannot
    text: str  # the option label (answers) or the card (uses / cannot)
    card: CardRef | None
    on: tuple[int, ...]
    span: Span


@attrs.frozen
class Check:
    kind: str  # hp / zone / life / discard / deck / winner
    seat: int | None
    value: object
    span: Span


@attrs.frozen
class Ruling:
    title: str
    source: str
    ruleset: str
    seats: tuple[SeatSpec, ...]
    deck_top: tuple[CardRef, ...]
    discard: tuple[CardRef, ...]
    runs: tuple[Run, ...]
    steps: tuple[Step, ...]
    checks: tuple[Check, ...]
    file: str
    line: int
    span: Span
