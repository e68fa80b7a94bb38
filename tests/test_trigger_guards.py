"""A trigger's guard (compiler.guards): the leading `VAR.FIELD == you` and `VAR.FIELD ==
"TEXT"` conjuncts of its condition, read as data so that the kernel passes over a trigger
that cannot fire without building its context. The guard must never turn away a trigger whose
condition holds: checked on every trigger polled in seeded games of each mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.defs import Ctx
from sgs_dsl.engine.parts import DEFAULT_PARTS
from sgs_dsl.engine.triggers import Triggers
from sgs_dsl.game import play_game

SKILLS = '''\
skill 甲 jia "測試" {
  on phase_start when phase.player == you and phase.name == "出牌" and you.hp > 1 { draw(you, 1); }
}
skill 乙 yi "測試" {
  on damaged when you == damage.target and damage.source != none { draw(you, 1); }
}
skill 丙 bing "測試" {
  on after_specify when use.card is 殺 and use.user == you { draw(you, 1); }
}
skill 丁 ding "測試" {
  on cards_lost each_card when move.player == you and move.zone == "hand" and you.hand == 0 { draw(you, 1); }
}
skill 戊 wu "測試" {
  on damaged when you.hp == 1 or damage.target == you { draw(you, 1); }
}
'''


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("guards")) / "guards.sgs"
    path.write_text(SKILLS, encoding="utf-8")
    return load_library([path])


def guard(library, skill: str):
    (trigger,) = [t for ts in library.skills[skill].triggers.values() for t in ts]
    return [(c.var, len(c.getters), c.player, c.value) for c in trigger.guard]


def test_the_leading_conjuncts_about_the_window_make_the_guard(library):
    assert guard(library, "jia") == [("phase", 1, True, None), ("phase", 1, False, "play")]  # 出牌 is read as play
    assert guard(library, "yi") == [("damage", 1, True, None)]  # either side; `!= none` ends it
    assert guard(library, "ding") == [("move", 1, True, None), ("move", 1, False, "hand")]


def test_a_guard_stops_at_the_first_conjunct_of_another_form(library):
    assert guard(library, "bing") == []  # a card pattern reads through filters: not a guard, nor what follows
    assert guard(library, "wu") == []  # `or`: no conjunct must hold


class GuardChecked(Triggers):
    """Every trigger polled: when its guard turns it away, its condition is false."""

    turned_away: list[str] = []

    def _ready(self, entry: Any, variables: dict[str, Any], leaving: bool = False) -> Any:
        p, skill, trig = entry
        if trig.guard and not all(c.holds(variables, p) for c in trig.guard):
            self.turned_away.append(skill.name)
            assert not trig.cond(Ctx(self.game, {"you": p, **variables})), (skill.name, trig.window)
        return super()._ready(entry, variables, leaving)


@pytest.mark.parametrize("ruleset, players", [("standard", 5), ("junzheng", 6), ("hegemony", 6),
                                              ("campus", 5), ("classic", 6)])
def test_a_guard_never_turns_away_a_trigger_whose_condition_holds(ruleset, players):
    """Every trigger polled in seeded games: when its guard fails, its condition is false."""
    turned_away = GuardChecked.turned_away = []
    library = load_library()
    for seed in range(6):
        result = play_game(library, ruleset, players, seed, parts=attrs.evolve(DEFAULT_PARTS, triggers=GuardChecked))
        assert result.error is None, result.error
    assert len(turned_away) > 100  # the guards did turn triggers away
