"""The texts the page shows on hover: every card, skill, hero and 國戰 general of the library,
by the name the table prints (card and skill texts are public)."""

from __future__ import annotations

from typing import Any

from ..core.model import ROLE_ZH
from ..engine.state import KINGDOM_ZH


def catalog(library: Any) -> dict[str, Any]:
    """{cards, skills, heroes}: a card's type and text, a skill's text, a hero's (or general's)
    kingdom, gender, hp and skills. A name two packages print keeps the first one's text."""
    cards: dict[str, Any] = {}
    for card in library.cards.values():
        cards.setdefault(card.name, {"type": card.type, "text": card.text})
    skills: dict[str, Any] = {}
    for skill in library.skills.values():
        skills.setdefault(skill.name, {"text": skill.text, "tags": list(skill.tags)})
    heroes: dict[str, Any] = {}
    for hero in library.heroes.values():
        heroes.setdefault(hero.name, _hero(hero, hero.hp))
    for general in library.generals.values():
        heroes.setdefault(general.name, {**_hero(general, general.hp_half / 2), "general": True})
    return {"cards": cards, "skills": skills, "heroes": heroes, "kingdoms": dict(KINGDOM_ZH), "roles": dict(ROLE_ZH)}


def _hero(hero: Any, hp: float) -> dict[str, Any]:
    return {"kingdom": hero.kingdom, "gender": hero.gender, "hp": hp, "package": hero.package,
            "skills": [s.name for s in hero.skills]}
