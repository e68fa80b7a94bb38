"""The table as a JSON message, built from one seat's view (engine.view.SeatView) and nothing
else: what the server sends a seat is what that seat's agent would be handed. The full view
(a replay's, after the game) is every seat's own view put together, never the Game itself."""

from __future__ import annotations

from typing import Any

from ..engine.decisions import Request, declining_option
from ..engine.view import SeatInfo, SeatView


def seat_table(view: SeatView) -> dict[str, Any]:
    """The table as seat `view.seat` sees it: every player's public facts, its own hand, the
    distances and attack ranges from its seat."""
    players = view.players()
    seated = any(p.max_hp for p in players)  # heroes are being chosen: nobody is seated yet
    me = view.seat
    return {"seat": me, "current": view.current, "turn": view.turn, "deck": view.deck_count,
            "discard": list(view.discard_pile[-12:]), "discard_count": len(view.discard_pile),
            "players": [_player(view, p, me, seated) for p in players],
            "hand": list(view.hand), "attack_range": view.attack_range(me) if seated and players[me].alive else 0,
            "resolving": [{"card": card, "user": user, "at": at} for card, user, at in view.resolving()]}


def full_table(views: list[SeatView]) -> dict[str, Any]:
    """The whole table (a replay's full view): each player as its own seat sees itself,
    its hand from its own view; distances as seat 1 sees them."""
    table = seat_table(views[0])
    table["seat"] = None
    table["hand"] = []
    for view in views:
        own = seat_table(view)["players"][view.seat]
        own["hand"] = list(view.hand)
        table["players"][view.seat] = own
    return table


def _player(view: SeatView, p: SeatInfo, me: int, seated: bool) -> dict[str, Any]:
    near = seated and p.alive and view.alive(me) and p.seat != me
    return {"seat": p.seat, "name": p.name, "hero": p.hero_key, "generals": list(p.generals), "shown": list(p.shown),
            "kingdom": p.kingdom, "side": p.role, "gender": p.gender, "hp": p.hp, "max_hp": p.max_hp,
            "alive": p.alive, "hand_count": p.hand_count, "equips": list(p.equips), "judge": list(p.judge),
            "chained": p.chained, "turned": p.turned,
            "piles": [{"name": name, "count": n, "cards": list(faces)} for name, n, faces in p.piles],
            "marks": dict(p.marks),
            "distance": view.distance(me, p.seat) if near else None,
            "in_range": view.in_range(me, p.seat) if near else False}


def question(request: Request, number: int) -> dict[str, Any]:
    """A question as the page shows it: the options' labels, in the engine's order, and which
    of them declines (`cancel`: the engine's pass, 不使用 / 結束出牌 / 完成, or a yes/no's no),
    or None when every option does something."""
    return {"id": number, "seat": request.seat, "kind": request.kind, "prompt": request.prompt,
            "asker": request.asker, "for_seat": request.for_seat, "options": request.labels(),
            "cancel": declining_option(request)}

