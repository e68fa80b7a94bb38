"""The one decision protocol: the engine asks, an agent picks one of the legal options."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol


class Option:
    """One answer to a question: what the seat sees (`label`, in Chinese) and what the engine
    acts on (`value`). Equal when the labels are. Never written after it is made; a plain
    slotted class rather than a frozen attrs one, since every question makes several (half the
    cost: about 1% of a game)."""

    __slots__ = ("label", "value")

    def __init__(self, label: str, value: Any = None) -> None:
        self.label = label
        self.value = value

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Option and other.label == self.label

    def __hash__(self) -> int:
        return hash(self.label)

    def __repr__(self) -> str:
        return f"Option(label={self.label!r})"


class Request:
    """One question: who is asked, what kind of decision, and the legal options. Never
    written after it is made; a plain slotted class, since it is made at every question."""

    __slots__ = ("seat", "kind", "prompt", "options", "asker", "for_seat")

    def __init__(self, seat: int, kind: str, prompt: str, options: tuple[Option, ...], asker: str = "",
                 for_seat: int | None = None) -> None:
        self.seat = seat
        self.kind = kind  # play / target / respond / counter / save / invoke / discard / pick_card
        self.prompt = prompt
        self.options = options
        self.asker = asker  # the rule asking (a skill, a card's label, a phase): the prompt's `ASKER：` part
        self.for_seat = for_seat  # the seat the answer is given for, when another's (打出 on its behalf)

    def labels(self) -> list[str]:
        return [o.label for o in self.options]

    def __repr__(self) -> str:
        return f"Request(seat={self.seat}, kind={self.kind!r}, prompt={self.prompt!r}, options={self.labels()})"


def declining_option(request: Request) -> int | None:
    """The option of `request` that declines, or None when every option acts: the one the
    engine acts on as nothing (value None: 不使用, 不打出, 結束出牌, 完成), or the no of a question
    whether to (kind `invoke`, value False)."""
    for i, option in enumerate(request.options):
        if option.value is None or (request.kind == "invoke" and option.value is False):
            return i
    return None


class Agent(Protocol):
    """Anything that answers requests: given the question and the asking seat's view
    (engine.view.SeatView), return the index of one option."""

    def choose(self, request: Request, view: Any) -> int: ...


class UniformAgent(Protocol):
    """An agent that answers every question uniformly at random among the legal options, and
    says so by `below(n)`: a uniform index below n from its own seeded draws. The engine may then
    answer for it without listing every legal option (`first_legal`): the same choice in law,
    at the cost of the options it checks."""

    def below(self, n: int) -> int: ...


def first_legal(pool: Sequence[Option], legal: Callable[[Option], bool], below: Callable[[int], int]) -> Option:
    """A uniformly random legal option of `pool`, checking as few as it can: options are drawn
    uniformly without replacement until one is legal (the first legal option in a uniformly
    random order is uniform over the legal ones)."""
    order = list(range(len(pool)))
    n = len(order)
    while n:
        j = below(n) if n > 1 else 0
        option = pool[order[j]]
        if legal(option):
            return option
        n -= 1
        order[j] = order[n]
    raise ValueError("no legal option to choose from")
