"""The per-game export (``--records FILE`` of ``sgs simulate`` and ``sgs balance``): one JSON
object a line, a line a game, in game-index order, keys in a fixed order:

``game`` (index in the batch), ``seed`` (the game's derived seed), ``root_seed``, ``ruleset``,
``mode``, ``players``, ``winner``, ``turns``, ``capped``, ``timed_out``, ``error`` (an internal
error or an invariant violation: its winner means nothing), ``seats`` and ``fired_unattributed``.

Each seat: ``seat`` (from 1, in seat order), ``heroes`` (a list: two generals in hegemony),
``role`` (the side dealt), ``agent``, ``won`` (null when the game has no result: an error or
a cut-off) and ``fired`` (times each skill of its heroes fired). The engine counts firings per
game by name, so a firing is the seat's when exactly one seat's heroes hold that skill; the
others (card abilities, a skill two seats hold) are the game's ``fired_unattributed``.

``sgs balance --compare`` reads these files back (compare.py) and pairs two runs by seed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .stats import seat_won

if TYPE_CHECKING:  # pragma: no cover
    from sgs_dsl.sim.batch import GameRecord


def _seat_names(hero: Any) -> list[str]:
    return [str(h) for h in hero] if isinstance(hero, (tuple, list)) else [str(hero)]


def _seats(record: GameRecord, mode: str, hero_skills: Mapping[str, Sequence[str]]) -> tuple[list[dict[str, Any]],
                                                                                            dict[str, int]]:
    """The seats of a game and the firings no single seat's heroes account for."""
    count = max(len(record.roles), len(record.heroes), len(record.agents))
    result = not (record.failed or record.timed_out)
    seats: list[dict[str, Any]] = []
    for i in range(count):
        role = record.roles[i] if i < len(record.roles) else None
        heroes = _seat_names(record.heroes[i]) if i < len(record.heroes) else []
        seats.append({"seat": i + 1, "heroes": heroes, "role": role,
                      "agent": record.agents[i] if i < len(record.agents) else None,
                      "won": seat_won(role, record.winner, mode) if result and role is not None else None,
                      "fired": {}})
    unattributed: dict[str, int] = {}
    for name, times in record.fired:
        holders = [s for s in seats if any(name in hero_skills.get(h, ()) for h in s["heroes"])]
        if len(holders) == 1:
            holders[0]["fired"][name] = times
        else:
            unattributed[name] = times
    return seats, unattributed


def game_line(record: GameRecord, *, ruleset: str, mode: str, players: int, root_seed: int,
              hero_skills: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """One game of the export, as a JSON-ready dict (see the module for its keys)."""
    seats, unattributed = _seats(record, mode, hero_skills)
    return {"game": record.index, "seed": record.seed, "root_seed": root_seed, "ruleset": ruleset, "mode": mode,
            "players": players, "winner": record.winner, "turns": record.turns, "capped": record.capped,
            "timed_out": record.timed_out, "error": record.failed, "seats": seats,
            "fired_unattributed": unattributed}


def records_text(records: Sequence[GameRecord], *, ruleset: str, mode: str, players: int, root_seed: int,
                 hero_skills: Mapping[str, Sequence[str]]) -> str:
    """The JSON Lines of a batch, in game-index order (the same batch gives the same bytes)."""
    lines = (json.dumps(game_line(r, ruleset=ruleset, mode=mode, players=players, root_seed=root_seed,
                                  hero_skills=hero_skills), ensure_ascii=False)
             for r in sorted(records, key=lambda r: r.index))
    return "".join(line + "\n" for line in lines)
