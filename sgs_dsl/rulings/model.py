"""A ruling fixture as data: the table, the script, the expectations, with source spans."""

from __future__ import annotations

import attrs

from ..core.model import RANK_FACE, SUIT_ZH
from ..syntax.diagnostics import Span


@attrs.frozen
class CardRef:
    """A physical card named by its face; `name` is "" for a bare face (`[♠3, ♥4]` of a `via`)."""

    name: str
    suit: str
    rank: int
    span: Span
    counts_as: str = ""  # in a judge area: the key of the delayed trick it lies there as (`as 樂不思蜀`), "" for itself

    def face(self) -> str:
        return f"{SUIT_ZH[self.suit]}{RANK_FACE.get(self.rank, str(self.rank))}"

    def text(self) -> str:
        return f"{self.name} {self.face()}" if self.name else self.face()

    def matches(self, card: object) -> bool:
        """True for the engine's physical card (`engine.model.Card`) with this face and name."""
        kind = getattr(card, "kind", None)
        return (kind is not None and (getattr(card, "suit", None), getattr(card, "rank", None)) == (self.suit, self.rank)
                and (not self.name or kind.name == self.name))


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
    hand_given: bool = True  # `setup` deals a starting hand to the seats whose hand is left out
    piles: tuple[tuple[str, tuple[CardRef, ...]], ...] = ()  # (pile name, its cards)
    generals: tuple[str, str, str] | None = None  # 國戰: head, deputy, which are shown (none/head/deputy/both)
    states: tuple[str, ...] = ()  # chained, turned: as the seat starts
    marks: tuple[tuple[str, int], ...] = ()  # (mark name, count)
    dead: bool = False  # dead before the ruling starts
    careerist: Span | None = None  # 國戰: where `careerist` is written; the seat revealed itself as one
    spent: tuple[str, ...] = ()  # the keys of limited skills (限定技) it already used


@attrs.frozen
class Run:
    """What to play: a whole turn (from a phase on), one phase, or turns in the mode's order."""

    seat: int
    phase: str | None
    whole_turn: bool
    span: Span
    turns: int = 0  # `play N turns`: N whole turns in the mode's order (seat is 0)

    def text(self) -> str:
        if self.turns:
            return f"play {self.turns} turns"
        if self.whole_turn:
            return f"turn {self.seat}" + (f" from {self.phase}" if self.phase else "")
        return f"phase {self.seat} {self.phase}"


@attrs.frozen
class Step:
    """One line of the script: an answer to the next question to a seat, or a claim about
    the questions that seat is put (`cannot use`, `cannot answer`, `not asked`)."""

    seat: int
    kind: str  # answer uses plays invokes declines picks chooses ends cannot cannot_answer not_asked
    span: Span
    text: str = ""  # answer, cannot_answer: the label; invokes, declines, chooses: the skill or hero
    card: CardRef | None = None  # uses, plays, picks, cannot: the card
    via: str = ""  # uses / plays ... via: the card name is `converted`, the skill or equipment `via`
    converted: str = ""
    subcards: tuple[CardRef, ...] = ()  # the cards a conversion is made of
    on: tuple[int, ...] = ()  # uses, cannot: the targets
    zone: str = ""  # picks: hand / equip / judge
    owner: int = 0  # picks: the seat whose card is picked


@attrs.frozen
class DamageRef:
    """One entry of the damage log as a ruling states it (`damage 1 -> 2 amount 2 ...`)."""

    source: int | None  # None: no source (閃電)
    target: int
    amount: int
    nature: str  # normal / fire / thunder
    card: str | None  # the card's name; None: no card
    span: Span

    def text(self) -> str:
        return damage_text(self.source, self.target, self.amount, self.nature, self.card)


def damage_text(source: int | None, target: int, amount: int, nature: str, card: str | None) -> str:
    """A damage as a ruling writes it (defaults left out), for messages a judge can paste back."""
    out = f"damage {source if source is not None else 'none'} -> {target}"
    out += f" amount {amount}" if amount != 1 else ""
    out += f" nature {nature}" if nature != "normal" else ""
    return out + (f" card {card}" if card else "")


@attrs.frozen
class Check:
    # hp max_hp hand equip judge life state skills mark discard deck deck_size discard_size
    # damage damage_set no_damage skipped fired winner; turns phases fight
    kind: str
    seat: int | None
    value: object
    span: Span
    negated: bool = False  # `not chained`, `not skipped`, `not fired`


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
    setup: bool = False  # `setup;`: the mode deals hp, heroes and starting hands first
