"""The one decision protocol: the engine asks, an agent picks one of the legal options."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

import attrs


@attrs.frozen(slots=True)
class Option:
    label: str  # what the seat may see, in Chinese
    value: Any = attrs.field(eq=False, repr=False)


class Request(NamedTuple):
    """One question: who is asked, what kind of decision, and the legal options. A named
    tuple: immutable, and made at every question at half the cost of a frozen attrs class."""

    seat: int
    kind: str  # play / target / respond / counter / save / invoke / discard / pick_card
    prompt: str
    options: tuple[Option, ...]
    asker: str = ""  # the rule asking (a skill, a card's label, a phase): the prompt's `ASKER：` part
    for_seat: int | None = None  # the seat the answer is given for, when another's (打出 on its behalf)

    def labels(self) -> list[str]:
        return [o.label for o in self.options]


class Agent(Protocol):
    """Anything that answers requests: given the question and the asking seat's view
    (engine.view.SeatView), return the index of one option."""

    def choose(self, request: Request, view: Any) -> int: ...
