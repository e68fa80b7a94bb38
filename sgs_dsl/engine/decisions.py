"""The one decision protocol: the engine asks, an agent picks one of the legal options."""

from __future__ import annotations

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


class Agent(Protocol):
    """Anything that answers requests: given the question and the asking seat's view
    (engine.view.SeatView), return the index of one option."""

    def choose(self, request: Request, view: Any) -> int: ...
