"""The rule a conversion may set across the cards it is made of (`with same suit`,
`with different types`): which sets of cards fit, and which cards keep a fitting set possible
while they are picked one by one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import TypeVar

from ..core.defs import CardKind
from ..core.model import Card, UsedCard

T = TypeVar("T")  # what is picked: a card (tests pick plain values)


def category(kind: CardKind) -> str:
    """The type a rule compares: basic, trick (delayed ones too) or equipment (seed 000 類別)."""
    return "equip" if kind.is_equip else "trick" if kind.is_trick else "basic"


def key_of(used: Card | UsedCard, prop: str) -> Hashable:
    """The value `prop` (suit / color / type) of a card as its holder's filters make it count."""
    return category(used.kind) if prop == "type" else getattr(used, prop)


def completable(how: str, chosen: Sequence[Hashable], rest: Sequence[Hashable], count: int) -> bool:
    """Whether the values `chosen` so far, plus some of `rest`, can make `count` cards that fit."""
    need = count - len(chosen)
    if need < 0:
        return False
    if how == "same":
        if len(set(chosen)) > 1:
            return False
        if chosen:
            return sum(v == chosen[0] for v in rest) >= need
        return max(Counter(rest).values(), default=0) >= need
    if len(set(chosen)) < len(chosen):
        return False
    return len(set(rest) - set(chosen)) >= need


def sample(how: str, keyed: Sequence[tuple[Hashable, T]], count: int) -> list[T] | None:
    """One set of `count` cards that fits, from (value, card) pairs; None when none does."""
    if how == "same":
        groups: dict[Hashable, list[T]] = {}
        for value, card in keyed:
            groups.setdefault(value, []).append(card)
        best = max(groups.values(), key=len, default=[])
        return best[:count] if len(best) >= count else None
    seen: dict[Hashable, T] = {}
    for value, card in keyed:
        seen.setdefault(value, card)
    return list(seen.values())[:count] if len(seen) >= count else None
