"""What each mode of play declares as data: its name, the player counts it seats, the options
a ruleset may set for it, and how its results read (the outcomes, and which seats share a
win). The checker validates a ruleset's mode and options against this table; the mode's
behaviour lives in sgs_dsl/modes/ (one module per mode, docs/modes.md)."""

from __future__ import annotations

from typing import Any

import attr

from .model import ROLE_ZH

# Classes here are `attr.s(auto_attribs=True)`, not slotted `attrs.define`/`attrs.frozen`: the form
# mypyc compiles (docs/performance.md, "The compiled build"); frozen ones refuse writes by on_setattr.


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class ModeOption:
    """An option a ruleset may set for its mode: `NAME VALUE;` among the ruleset's properties."""

    name: str
    type: str  # "int" (with low..high), "word" (one of `words`), or "heroes" (hero names)
    default: Any
    doc: str
    words: tuple[str, ...] = ()
    low: int = 0
    high: int = 99


@attr.s(auto_attribs=True, order=False, hash=True, on_setattr=attr.setters.frozen)
class ModeSpec:
    name: str
    title: str
    players: tuple[int, int]  # the fewest and the most seats
    options: tuple[ModeOption, ...]
    doc: str
    outcomes: tuple[str, ...]  # the winners a game can report, in report order ("draw" last)
    allies: dict[str, frozenset[str]] = attr.ib(factory=dict)  # winner -> the sides sharing it
    roles: dict[str, str] = attr.ib(factory=dict)  # the roles (`p.role`) it deals -> their Chinese names
    generals: bool = False  # it deals general cards (國戰): the effects on a general act only here

    def option(self, name: str) -> ModeOption | None:
        return next((o for o in self.options if o.name == name), None)

    def seat_won(self, side: str, winner: str) -> bool:
        """Did a seat on `side` win a game whose result is `winner`?"""
        return side in self.allies.get(winner, frozenset({winner}))


IDENTITY_ROLES = ROLE_ZH

IDENTITY = ModeSpec(
    "identity", "身份局", (2, 10),
    (ModeOption("lords", "heroes", (), "heroes the lord may always choose from, besides 2 random ones (seed 000 §2)"),
     ModeOption("roles", "word", "standard",
                "the role table: `standard`, or `alternative` with two renegades at 6 (1/1/2/2) and 8 players "
                "(1/2/3/2) and seed 004's 10-player row (1/3/4/2, as standard)", words=("standard", "alternative"))),
    "roles dealt by the player count (seed 000 §1); the lord takes the first turn, its role shown; the lord "
    "chooses a hero first, every other seat from 3 (2 at 10 players); rewards and penalties on deaths; "
    "victory by role",
    ("lord", "rebel", "renegade", "draw"),
    {"lord": frozenset({"lord", "loyalist"})},
    IDENTITY_ROLES,
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
    generals=True,
)

CAMPUS = ModeSpec(
    "campus", "校園身份局", (5, 8),
    (ModeOption("lords", "heroes", (), "heroes the lord may always choose from, besides 5 random ones"),
     ModeOption("renegades", "int", 1, "renegades at 8 players: 2 is the 1/2/3/2 table, where a renegade must "
                "kill the other before the lord and both alive at the end is the rebels' win (seed 003)",
                low=1, high=2),
     ModeOption("skills", "word", "on", "`off`: the 五人簡易場, 5 players whose heroes have no skills (seed 003)",
                words=("on", "off"))),
    "seed 003's campus identity games, 5 or 8 players: roles 1/1/2/1 and 1/2/4/1 (1/2/3/2 with two "
    "renegades); the lord chooses from 5 random heroes, every other seat from 3; the lord's +1 max hp; "
    "rewards as in identity; the seed's victory table",
    ("lord", "rebel", "renegade", "draw"),
    {"lord": frozenset({"lord", "loyalist"})},
    IDENTITY_ROLES,
)

TEAM3V3 = ModeSpec(
    "team3v3", "3V3競技模式", (6, 6),
    (),
    "two teams of three seated together, a leader (主將) and two followers (副將) each (seed 003); 12 heroes "
    "in one shared pool, picked one at a time, the teams alternating; the teams alternate actions, the "
    "leader's turn alone or every living follower's turn; a team loses when its leader dies",
    ("team_a", "team_b", "draw"),
    roles={"leader": "主將", "follower": "副將"},
)

MODE_SPECS: dict[str, ModeSpec] = {m.name: m for m in (IDENTITY, HEGEMONY, CAMPUS, TEAM3V3)}
# every role a mode deals, by its name and its Chinese name: what `p.role` is compared with in text
ROLE_NAMES: dict[str, str] = {n: r for m in MODE_SPECS.values() for r, zh in m.roles.items() for n in (r, zh)}
