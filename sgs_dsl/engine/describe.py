"""What an option means, in plain facts an agent can reason about: which card or skill it
uses, whom it names, whether it declines. Computed only when an agent asks (the random agent
never does), from the engine objects the option carries."""

from __future__ import annotations

import functools
import re
from typing import Any

import attr
import attrs

from ..core.defs import CardKind
from ..core.model import EQUIP_TYPES, Card, Player

ANSWER_CONTEXTS = ("respond", "counter", "dying")  # a card used in these answers a threat
_NAMED = re.compile(r"【([^】]+)】")
_COUNTS_AS = "(視為"  # a filtered card's label: its printed face, then what it counts as


# `attr.s(auto_attribs=True)`, not a slotted `attrs.frozen`: the form mypyc compiles
# (docs/performance.md, "The compiled build"); a write from Python raises, as before.
@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class OptionFacts:
    action: str  # pass / card / active / attach / recast / mode / player / pick / yes / no / other
    card: str = ""  # the card kind it uses or picks, by key (its own: 火殺, not 殺)
    card_type: str = ""  # basic / trick / delayed / weapon / ...
    target_rule: str = ""  # how the card picks targets when played: self / one / one_other / all / all_others
    skill: str = ""  # the skill it invokes (an action, an attached action, a conversion)
    seat: int | None = None  # the player it names
    answers: bool = False  # the card can answer a threat (used to respond, counter or save)
    converted: bool = False  # made by a conversion (view_as) rather than one real card

    @property
    def equip(self) -> bool:
        return self.card_type in EQUIP_TYPES

    @property
    def passes(self) -> bool:
        """Declining: end the phase, do not use, done choosing, no."""
        return self.action in ("pass", "no")


def kind_facts(kind: CardKind, action: str, converted: bool = False) -> OptionFacts:
    rule, answers = _traits(kind)
    return OptionFacts(action, kind.key, kind.type, rule, answers=answers, converted=converted)


@functools.lru_cache(maxsize=1024)
def _traits(kind: CardKind) -> tuple[str, bool]:
    """How a kind picks targets when played, and whether it answers threats (fixed per kind)."""
    play = kind.mode("play")
    rule = play.target.kind if play is not None and play.target is not None else ("self" if kind.is_equip else "")
    return rule, any(kind.mode(c) for c in ANSWER_CONTEXTS)


def describe(value: Any) -> OptionFacts:
    """The facts of an option's value (Option.value)."""
    if value is None:
        return OptionFacts("pass")
    if value is True or value is False:
        return OptionFacts("yes" if value else "no")
    if isinstance(value, Player):
        return OptionFacts("player", seat=value.seat)
    if isinstance(value, Card):
        return kind_facts(value.kind, "pick")
    if isinstance(value, tuple) and len(value) == 2:
        return _pair(*value)
    return OptionFacts("other")


def _pair(head: Any, rest: Any) -> OptionFacts:
    if isinstance(head, CardKind):
        converted = bool(rest) and rest[0] == "view_as"
        facts = kind_facts(head, "card", converted)
        return attrs.evolve(facts, skill=rest[1].skill) if converted else facts
    if head == "active":
        return OptionFacts("active", skill=rest[0].key)
    if head == "attach":
        return OptionFacts("attach", skill=rest[1].key, seat=rest[0].seat)
    if head == "recast":
        return kind_facts(rest.kind, "recast")
    if head == "recast_as":
        return OptionFacts("recast", card=rest.kind_name, skill=rest.skill)
    if head == "mode":
        return OptionFacts("mode")
    return OptionFacts("other")


def card_named(label: str) -> str | None:
    """The card kind a card's label (UsedCard.label) names: its first name, or for a card
    that counts as another, the name it counts as; None when the label names no card."""
    if _COUNTS_AS in label:
        label = label.split(_COUNTS_AS, 1)[1]
    found = _NAMED.search(label)
    return found.group(1) if found else None
