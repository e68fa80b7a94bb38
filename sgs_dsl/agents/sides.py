"""Who is friend or foe, from one seat's view: its own side, the sides the mode shows it,
and for the hidden ones what they did in public: whom they damaged, and the acts the seat saw
(whom they aimed a harmful card at, whose harm they countered: agents.heuristic records them).

A relation is a number in [-1, 1]: 1 a known ally (or oneself), -1 a known enemy, between
them a guess. Identity roles form camps (the lord with the loyalists); any other side (a
kingdom, a team) is allied with the same side, except the lone ones."""

from __future__ import annotations

from typing import Any

LORD_CAMP = ("lord", "loyalist")
ROLES = ("lord", "loyalist", "rebel", "renegade")
LONE = ("renegade", "careerist")  # a side of one: no ally even of the same name
STRANGER = -0.3  # an unknown side outside identity: most players at such a table are enemies


Act = tuple[int, int, float]  # (source seat or -1, target seat, harm done: < 0 for help)


def relations(view: Any, seen: tuple[Act, ...] = ()) -> tuple[float, ...]:
    """The relation of this seat to every seat, from the damage record and the acts `seen`."""
    sides = view.sides()
    mine = sides[view.seat]
    helped = tuple((src, tgt, -amount) for src, tgt, amount in view.recoveries())  # help: a negative harm
    damages = view.damages() + helped + seen
    if mine in ROLES:
        lean = _lean(sides, damages, view.seat, mine)
        if mine == "renegade":
            return _renegade(view, sides, lean)
        if _hidden_allies(view, sides, mine) == 0:  # counted out: every hidden player is an enemy
            return tuple(1.0 if s == view.seat else -1.0 if sides[s] is None else _identity(mine, sides[s], 0.0)
                         for s in range(len(sides)))
        return tuple(1.0 if s == view.seat else _identity(mine, sides[s], lean[s]) for s in range(len(sides)))
    hostile = _hostile_to(view.seat, mine, sides, damages)
    return tuple(1.0 if s == view.seat else _kingdom(mine, sides[s], s in hostile) for s in range(len(sides)))


def _clamp(x: float) -> float:
    return max(-1.0, min(1.0, x))


def _lean(sides: tuple[str | None, ...], damages: tuple[Act, ...], me: int,
          mine: str) -> list[float]:
    """Per seat: > 0 acts like the lord's camp, < 0 like a rebel. Damaging the lord or a known
    loyalist leans rebel, damaging a known rebel leans loyal (helping them the other way);
    damage to a hidden player counts by how that player leans (a second pass), and damage to
    oneself by one's own side."""
    known = {"lord": -2.0, "loyalist": -1.0, "rebel": 1.0, "renegade": 0.5}
    own = -1.0 if mine in LORD_CAMP else 1.0 if mine == "rebel" else 0.0
    first = [0.0] * len(sides)
    for src, tgt, amount in damages:
        if src >= 0 and src != tgt:
            weight = own if tgt == me and sides[tgt] != "lord" else known.get(sides[tgt] or "", 0.0)
            first[src] += weight * amount
    lean = list(first)
    for src, tgt, amount in damages:
        if src >= 0 and src != tgt and sides[tgt] is None and tgt != me and first[tgt]:
            lean[src] -= 0.5 * amount * (1.0 if first[tgt] > 0 else -1.0)
    return lean


def _identity(mine: str, theirs: str | None, lean: float) -> float:
    if mine in LORD_CAMP:
        if theirs is not None:
            return 1.0 if theirs in LORD_CAMP else -1.0
        return _clamp(lean / 2)
    if mine == "rebel":
        if theirs is not None:
            return 1.0 if theirs == "rebel" else -1.0
        return _clamp(-lean / 2)
    return 1.0 if theirs is None else -1.0  # (a renegade is handled by _renegade)


def _renegade(view: Any, sides: tuple[str | None, ...], lean: list[float]) -> tuple[float, ...]:
    """A renegade wins only alone against the lord, so it keeps the two camps even: it
    fights whichever camp has more players left and spares the other (and the lord, whom
    it saves while the rebels outnumber the lord's camp), until only the lord's camp is left."""
    left = _left(view, sides)
    rebels_ahead = left["rebel"] >= left["lord"]
    alive = sum(1 for s in range(len(sides)) if view.alive(s))

    def toward(seat: int) -> float:
        if seat == view.seat:
            return 1.0
        theirs = sides[seat]
        if theirs == "lord":
            return -1.0 if alive <= 2 else 0.6 if rebels_ahead else 0.2
        rebel_like = theirs == "rebel" or (theirs is None and lean[seat] < 0)
        loyal_like = theirs == "loyalist" or (theirs is None and lean[seat] > 0)
        if left["rebel"] == 0 or (rebel_like if rebels_ahead else loyal_like):
            return -1.0
        return 0.0 if (loyal_like if rebels_ahead else rebel_like) else STRANGER

    return tuple(toward(s) for s in range(len(sides)))


def _hidden_allies(view: Any, sides: tuple[str | None, ...], mine: str) -> int | None:
    """How many of this seat's allies are still among the players whose role it does not
    see: the roles dealt (public) less those it sees (its own, the lord's, the dead's);
    None when the mode keeps the count hidden."""
    counts: dict[str, int] = view.role_counts()
    if not counts:
        return None
    ally = "loyalist" if mine in LORD_CAMP else mine  # the lord is always shown
    return counts.get(ally, 0) - sum(1 for side in sides if side == ally)


def _left(view: Any, sides: tuple[str | None, ...]) -> dict[str, int]:
    """The players left in each camp (the lord's, the rebels'): those dealt less the dead,
    whose roles are shown."""
    counts = view.role_counts()
    left = {"lord": counts.get("lord", 0) + counts.get("loyalist", 0), "rebel": counts.get("rebel", 0)}
    for s, side in enumerate(sides):
        if not view.alive(s) and side in LORD_CAMP + ("rebel",):
            left["rebel" if side == "rebel" else "lord"] -= 1
    return left


def _hostile_to(me: int, mine: str | None, sides: tuple[str | None, ...], damages: tuple[Act, ...]) -> set[int]:
    """The hidden seats that damaged this seat or a known ally of it."""
    allies = {s for s, side in enumerate(sides) if s == me or (side == mine and mine not in LONE)}
    return {src for src, tgt, harm in damages if src >= 0 and harm > 0 and tgt in allies and src not in allies}


def _kingdom(mine: str | None, theirs: str | None, hostile: bool) -> float:
    if theirs is None:
        return -1.0 if hostile else STRANGER
    return 1.0 if theirs == mine and mine not in LONE else -1.0
