"""Load-time checks of two skill members: filters (`filter ♠ as ♥;`, 鎖定視為技) and
equipment a player is treated as having (`equipped 八卦陣;`), compiled into their defs."""

from __future__ import annotations

from typing import Any

from ..core.defs import EquippedDef, FilterDef
from ..syntax import ast
from ..syntax.diagnostics import did_you_mean
from . import schema

FILTER_USAGE = "`filter ♠ as ♥;` (a suit) or `filter CARD as CARD;` (a card name)"


def filter_def(c: Any, m: ast.FilterSkill, skill: str) -> FilterDef | None:
    """A filter names one suit or one card the matching cards count as."""
    from .scope import Scope

    target = m.target
    suit = target.text if target.kind == "suit" else schema.SUIT_WORDS.get(target.text)
    kind_name = None
    if suit is None:
        kind = c.find_card(target.text, target.span)
        if kind is None:
            words = c.card_names() + list(schema.SUIT_WORDS)
            c.error(target.span, f"a filter makes cards count as one suit or one card, not '{target.text}'",
                    did_you_mean(target.text, words) or FILTER_USAGE)
            return None
        kind_name = kind.key
    cond = c.expr_bool(m.cond, Scope({"you": "player", "card": "card"})) if m.cond is not None else None
    return FilterDef(c.pattern(m.pattern), suit, kind_name, cond, skill)


def equipped_def(c: Any, m: ast.Equipped) -> EquippedDef | None:
    """The card must be an equipment that carries a skill: that skill is what the owner gets."""
    kind = c.card_kind(m.card.text, m.card.span)
    if kind is None:
        return None
    if not kind.is_equip:
        c.error(m.card.span, f"'{kind.name}' is a {kind.type} card, not equipment",
                "`equipped CARD;` names a weapon, an armour or a horse")
        return None
    if kind.skill is None:  # cards are compiled before skills
        c.error(m.card.span, f"'{kind.name}' carries no skill: being treated as equipped with it does nothing",
                "name an equipment whose text has a trigger, modifier or view_as")
        return None
    return EquippedDef(kind.key)
