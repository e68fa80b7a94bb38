"""Actions for others at unit level: `attach others once when COND { ... }` (actions a skill gives
other players in their own play phase) is checked at load time with located errors, offered
only to living owners' others while its condition holds, limited per actor, and costs nothing
in a game whose library has no such skill. The effect in play: tests/rulings/mech_attach.ruling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from checking import assert_located, check
from table import make_table

from sgs_dsl.compiler.library import load_library
from sgs_dsl.engine.parts import DEFAULT_PARTS
from sgs_dsl.engine.skills import Skills

HEROES = Path(__file__).parent / "data" / "mech_attach.sgs"
ACTION = "發動【試援】"


@pytest.fixture(scope="module")
def library():
    return load_library([HEROES])


@pytest.mark.parametrize("body, message, hint", [
    ("  attach other once { draw(you, 1); }", "unknown attach subject 'other'", "others"),
    ("  attach others onse { draw(you, 1); }", "unknown attach flag 'onse'", "once"),
    ("  attach others when player.kingdon == \"qun\" { draw(you, 1); }", "has no field 'kingdon'", "kingdom"),
    ("  attach others { draw(actor, 1); }", "actor", ""),
])
def test_attach_is_checked_with_located_errors(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


def table(library, *, kingdom: str = "qun", role: str = "lord"):
    game = make_table(library, seats=[dict(role=role), dict(role="rebel", hand=["閃 ♦2", "閃 ♦3"])], current=1)
    owner, actor = game.players
    owner.skills = (library.skills["試援"],)
    actor.kingdom = kingdom
    game.skills.changed_skills()
    return game, owner, actor


def labels(game, player) -> list[str]:
    return [o.label for o in game.turn.play_options(player)]


def test_offered_to_others_with_the_owner_as_you_and_the_actor_as_player(library):
    game, owner, actor = table(library)
    assert ACTION in labels(game, actor)
    assert ACTION not in labels(game, owner)  # the owner is not given its own action
    option = next(o for o in game.turn.play_options(actor) if o.label == ACTION)
    game.agents[1].answers.append("【閃】♦2")
    game.turn.play_action(actor, *option.value)
    assert [c.name for c in owner.hand] == ["閃"] and len(actor.hand) == 1
    assert ACTION not in labels(game, actor)  # once per the actor's play phase
    assert game.fired["試援"] == 1


@pytest.mark.parametrize("change", ["owner_dead", "not_qun", "not_lord"])
def test_not_offered_when_the_owner_is_dead_or_the_condition_fails(library, change):
    game, owner, actor = table(library, kingdom="wei" if change == "not_qun" else "qun",
                               role="rebel" if change == "not_lord" else "lord")
    if change == "owner_dead":
        owner.alive = False
        game.skills.changed_skills()
    assert ACTION not in labels(game, actor)


class CountedScans(Skills):
    scans = 0

    def skills_of(self, *args: Any, **kwargs: Any) -> Any:
        self.scans += 1
        return super().skills_of(*args, **kwargs)


def test_a_table_without_attached_actions_scans_once_per_change_of_skills():
    game = make_table(seats=[dict(role="lord"), dict(role="rebel")], parts=attrs.evolve(DEFAULT_PARTS, skills=CountedScans))
    assert game.attached.attached_options(game.players[0]) == []  # worked out: no one attaches an action
    scanned = game.skills.scans
    assert scanned > 0
    assert game.attached.attached_options(game.players[1]) == []  # kept: the skills did not change
    assert game.skills.scans == scanned
    game.skills.changed_skills()
    game.attached.attached_options(game.players[0])  # the skills in play changed: worked out again
    assert game.skills.scans > scanned
