"""What each mode of play declares as data: its name, the player counts it seats, the options
a ruleset may set for it, and how its results read (the outcomes, and which seats share a
win). The checker validates a ruleset's mode and options against this table; the mode's
behaviour lives in sgs_dsl/modes/ (one module per mode, docs/modes.md)."""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class ModeOption:
    """An option a ruleset may set for its mode: `NAME VALUE;` among the ruleset's properties."""

    name: str
    type: str  # "int" (with low..high), "word" (one of `words`), or "heroes" (hero names)
    default: Any
    doc: str
    words: tuple[str, ...] = ()
    low: int = 0
    high: int = 99


@attrs.frozen
class ModeSpec:
    name: str
    title: str
    players: tuple[int, int]  # the fewest and the most seats
    options: tuple[ModeOption, ...]
    doc: str
    outcomes: tuple[str, ...]  # the winners a game can report, in report order ("draw" last)
    allies: dict[str, frozenset[str]] = attrs.field(factory=dict)  # winner -> the sides sharing it

    def option(self, name: str) -> ModeOption | None:
        return next((o for o in self.options if o.name == name), None)

    def seat_won(self, side: str, winner: str) -> bool:
        """Did a seat on `side` win a game whose result is `winner`?"""
        return side in self.allies.get(winner, frozenset({winner}))


IDENTITY = ModeSpec(
    "identity", "身份局", (2, 10),
    (ModeOption("lords", "heroes", (), "heroes the lord may always choose from, besides 2 random ones (seed 000 §2)"),),
    "roles dealt by the player count (seed 000 §1); the lord takes the first turn, its role shown; the lord "
    "chooses a hero first, every other seat from 3 (2 at 10 players); rewards and penalties on deaths; "
    "victory by role",
    ("lord", "rebel", "renegade", "draw"),
    {"lord": frozenset({"lord", "loyalist"})},
)

HEGEMONY = ModeSpec(
    "hegemony", "國戰", (2, 12),
    (ModeOption("generals", "int", 0, "generals dealt to each player (0: 7, or 5 at 9-12 players, seed 001)",
                low=0, high=12),
     ModeOption("leftover_half", "word", "draw",
                "a half fish left over the first time both generals show: `draw` one card (seed 001), or "
                "`token`, a 陰陽魚 token (the revised rules: discard it in the play phase to draw 1, or as "
                "the discard phase starts for hand limit +2 this turn)", words=("draw", "token"))),
    "dual generals of one kingdom, face down (seed 001); a general shows as its owner's turn starts or when "
    "one of its skills is invoked; the kingdom is decided on the first reveal, a careerist past half the "
    "players; rewards by kingdom; victory once every living player's kingdom is known",
    ("wei", "shu", "wu", "qun", "careerist", "draw"),
)

MODE_SPECS: dict[str, ModeSpec] = {m.name: m for m in (IDENTITY, HEGEMONY)}
