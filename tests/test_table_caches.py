"""The tables a game keeps of the skills in play (listeners, modifier index, prohibits, filters,
kinds judged alike, whether an action is attached) stay what a full rebuild would give when
equipment moves: an equipment move rebuilds only the tables its gained or lost skills feed
(`Game.changed_equipment`)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from table import make_table

from sgs_dsl.compiler.library import load_library
from sgs_dsl.engine.kernel import Game
from sgs_dsl.engine.parts import DEFAULT_PARTS
from sgs_dsl.engine.skills import Skills
from sgs_dsl.game import play_game

# identity with and without heroes, 軍爭's equipment, 國戰's hidden generals, the campus modes
TABLES = (("basic", 5, 12), ("standard", 5, 12), ("junzheng", 6, 10), ("hegemony", 6, 8), ("campus", 5, 6))


def _tables(game: Game) -> tuple[Any, ...]:
    listeners = {w: [(p.seat, id(s), id(t)) for p, s, t in entries] for w, entries in game.triggers.listeners().items()}
    modifiers = dict(game.skills._index_modifiers()) if game._modifier_seats is None else dict(game._modifier_seats)
    forbids = {k: [(o.seat, id(s), id(f)) for o, s, f in entries] for k, entries in game.prohibits.forbid_table().items()}
    filters = {seat: [id(f) for f in fs] for seat, fs in game.filters.filter_table().items()}
    alike = {p.seat: game.using.kinds_judged_alike(p) for p in game.players if p.alive}
    skills = {p.seat: [id(s) for s in game.skills.skills_of(p, suppressed=True)] for p in game.players}
    return listeners, modifiers, forbids, filters, alike, skills, game.attached.attach_in_play()


class CheckedSkills(Skills):
    """Each equipment move's incremental tables, compared with a full rebuild's."""

    moves: list[bool] = []

    def changed_equipment(self, p: Any) -> None:
        super().changed_equipment(p)
        incremental = _tables(self.game)
        self.changed_skills()
        self.moves.append(incremental == _tables(self.game))


@pytest.mark.parametrize("ruleset, players, games", TABLES)
def test_an_equipment_move_leaves_every_table_as_a_full_rebuild_gives(ruleset, players, games) -> None:
    moves = CheckedSkills.moves = []
    library = load_library()
    for seed in range(games):
        result = play_game(library, ruleset, players, seed, parts=attrs.evolve(DEFAULT_PARTS, skills=CheckedSkills))
        assert result.error is None and not result.violations, (seed, result.error, result.violations)
    assert len(moves) > 20  # equipment moved in these games
    assert all(moves), f"{moves.count(False)} of {len(moves)} equipment moves left a stale table"


def test_a_horse_moving_leaves_the_listeners_and_a_weapon_the_modifier_index() -> None:
    g = make_table(seats=[dict(role=r) for r in ("lord", "loyalist", "rebel", "renegade")])
    horse = next(c for c in g.deck if c.kind.type == "defense_horse")
    weapon = next(c for c in g.deck if c.kind.type == "weapon" and c.kind.skill is not None
                  and c.kind.skill.triggers and not c.kind.skill.modifiers)
    a, b = g.players[0], g.players[1]
    before = g.seats.distance(b, a)
    listeners = g.triggers.listeners()
    g.zones.place(horse, "equip", a)
    assert g.triggers.listeners() is listeners  # a horse has no trigger
    assert g.seats.distance(b, a) == before + 1  # but its modifier counts at once
    index = g.skills._index_modifiers() if g._modifier_seats is None else g._modifier_seats
    g.zones.place(weapon, "equip", a)
    assert g._modifier_seats is index  # the weapon has no modifier
    assert any(s is weapon.kind.skill for _, s, _ in (e for es in g.triggers.listeners().values() for e in es))
