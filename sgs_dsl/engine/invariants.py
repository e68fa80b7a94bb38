"""Checks that hold after every turn of every game: each card in exactly one zone, the card
count constant, hp within bounds while alive, the dead holding nothing."""

from __future__ import annotations

from typing import Any


def check_invariants(game: Any, total: int) -> list[str]:
    problems = []
    seen: dict[int, str] = {}
    zones: list[tuple[str, list]] = [("deck", game.deck), ("discard", game.discard_pile),
                                     ("processing", game.processing)]
    for p in game.players:
        zones += [(f"seat{p.seat + 1}.hand", p.hand), (f"seat{p.seat + 1}.equip", list(p.equips.values())),
                  (f"seat{p.seat + 1}.judge", p.judge)]
    count = 0
    for name, cards in zones:
        for c in cards:
            count += 1
            if c.uid in seen:
                problems.append(f"card {c.label()} is in {seen[c.uid]} and {name}")
            seen[c.uid] = name
    if count != total:
        problems.append(f"{count} cards on the table, expected {total}")
    for p in game.players:
        if p.alive and not 0 <= p.hp <= p.max_hp:
            problems.append(f"{p.label()} alive with hp {p.hp}/{p.max_hp}")
        if not p.alive and (p.hand or p.equips or p.judge):
            problems.append(f"{p.label()} is dead but holds cards")
        for slot, c in p.equips.items():
            if c.kind.type != slot:
                problems.append(f"{c.label()} in the {slot} slot of {p.label()}")
    return problems
