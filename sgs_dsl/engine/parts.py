"""What a game is built from: the class of each process, the budget, the invariant checks, the
game's own class and its mode. The defaults are the engine; a tool or a test that needs a game to behave otherwise
(to watch what it shows each seat, count the cards used, undo a fix to see a check catch it)
hands `setup` other parts (`attrs.evolve(DEFAULT_PARTS, zones=MyZones)`), never patches the
engine: a compiled engine would not see a patch."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attr

from ..core.model import Budget
from .attached import Attached
from .choices import Choices
from .damage_rules import DamageRules
from .extra_turns import ExtraTurns
from .filters import Filters
from .game_start import GameStart
from .hp import Hp
from .invariants import Invariants
from .labelled import Labelled
from .moves import Moves
from .pindian import PointFights
from .prohibits import Prohibits
from .questioning import Questioning
from .seats import Seats
from .skills import Skills
from .state import PlayerState
from .triggers import Triggers
from .turn import Turn
from .using import Using
from .zones import Zones

if TYPE_CHECKING:
    from .kernel import Game


@attr.s(auto_attribs=True, frozen=True)
class Parts:
    """The classes a game is made of. `game` None is the kernel's Game; `mode` None is the mode
    the ruleset names (modes.make_mode), else a function from the ruleset to a mode."""

    game: type[Game] | None = None
    mode: Callable[[Any], Any] | None = None
    budget: Callable[[], Budget] = Budget
    invariants: type[Invariants] = Invariants  # the checks `run` and rulings make
    seats: type[Seats] = Seats
    skills: type[Skills] = Skills
    triggers: type[Triggers] = Triggers
    zones: type[Zones] = Zones
    moves: type[Moves] = Moves
    hp: type[Hp] = Hp
    damage_rules: type[DamageRules] = DamageRules
    using: type[Using] = Using
    choices: type[Choices] = Choices
    labelled: type[Labelled] = Labelled
    questioning: type[Questioning] = Questioning
    filters: type[Filters] = Filters
    prohibits: type[Prohibits] = Prohibits
    attached: type[Attached] = Attached
    state: type[PlayerState] = PlayerState
    fights: type[PointFights] = PointFights
    turn: type[Turn] = Turn
    extra_turns: type[ExtraTurns] = ExtraTurns
    start: type[GameStart] = GameStart


DEFAULT_PARTS = Parts()
