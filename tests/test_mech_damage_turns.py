"""Damage, turns and point fights at unit level: the checker's errors for the new forms (located, with hints), the
engine's queue of extra turns (regular order resumes after them, runaway is bounded), point
fights without a skill, and the invariants' rule for a player kept alive by `modify survive`.
The forms' effects in play are the rulings of tests/rulings/mech_damage_turns.ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import check_text as check
from checking import skill

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.core.model import RulesError
from sgs_dsl.engine.invariants import check_invariants
from sgs_dsl.engine.parts import Parts
from sgs_dsl.engine.turn import Turn
from sgs_dsl.game import run, setup
from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.runner import build_table

HEROES = Path(__file__).parent / "data" / "mech_damage_turns.sgs"


@pytest.fixture(scope="module")
def library():
    return load_library([HEROES])


# ---------------------------------------------------------------- the checker

@pytest.mark.parametrize("body, line, message, hint", [
    ("  on taking_damage { set damage.source = 1; }", 2, "'damage.source' is player?, not int", ""),
    ("  on damaged { damage(you, 1, card: 1); }", 2, "expected card, found int", ""),
    ("  on damaged { damage(you, 1, crad: damage.card); }", 2, "'damage' has no option 'crad'", "card"),
    ("  modify survive = 1;", 2, "a modifier's value must be a bool, not int", "modify survive = true"),
    ("  modify survive += true;", 2, "`survive` is set, for no card", ""),
    ("  on phase_start { extra_phase(you, 出版); }", 2, "unknown phase '出版'", "出牌"),
    ("  on point_shown { set fight.won = true; }", 2, "'fight.won' cannot be changed", "source_rank"),
    ("  on point_shwon { draw(you, 1); }", 2, "unknown window 'point_shwon'", "point_shown"),
    ("  on point_shown when fight.rank > 1 { draw(you, 1); }", 2, "fight has no field 'rank'", "source_rank"),
    ("  active { let f = point_fight(you); }", 2, "'point_fight' takes 2 arguments, got 1", ""),
    ("  active { transfer(you, you); }", 2, "expected damage, found player", ""),
])
def test_new_forms_are_checked_with_located_errors(tmp_path, body, line, message, hint):
    found = check(tmp_path, skill(body))
    assert found, f"no error for {body!r}"
    first = found[0]
    assert first.span.line == line and message in first.message, first.render()
    assert hint in first.hint
    assert "bad.sgs:2:" in first.render()


def test_the_test_heroes_check_clean():
    assert check_paths([HEROES]) == []


# ---------------------------------------------------------------- extra turns in a game

def test_extra_turns_come_first_and_the_regular_order_resumes(library):
    game = setup(library, "basic", 4, seed=3)
    first, second = game.players[0], game.players[1]
    game.extra_turns.grant_extra_turn(second)
    game.extra_turns.grant_extra_turn(first)
    run(game, max_turns=4)
    # the lord's turn, the two extra turns in the order granted, then the lord's next seat
    assert game.turn_log[:4] == [first, second, first, second]


class GrantingTurn(Turn):
    def play_turn(self, p, start=None, extra=False):  # a turn that grants one more: runaway text
        self.game.extra_turns.grant_extra_turn(p)


def test_extra_turns_that_never_stop_are_a_rules_error(library):
    game = setup(library, "basic", 2, seed=1, parts=Parts(turn=GrantingTurn))
    player = game.players[0]
    with pytest.raises(RulesError, match="more than 100 extra turns"):
        game.extra_turns.take_turn(player)


def test_a_skipped_turn_counts_as_a_turn_and_plays_nothing(library):
    game = setup(library, "basic", 2, seed=1)
    player = game.players[0]
    hand = list(player.hand)
    game.extra_turns.skip_next_turn(player)
    game.extra_turns.take_turn(player)
    assert game.turns == 1 and game.turn_log == [] and player.hand == hand
    assert (player, "turn") in game.skipped_log and player.turn_skips == 0


# ---------------------------------------------------------------- point fights and survive

RULING = """
ruling "拼點" {
  source "point fights: the cards shown";
  seat 1 lord hero 試將戊 hand [殺 ♣10];
  seat 2 rebel hero 試將辛 hand [閃 ♦5];
  seat 3 loyalist;
  phase 1 play;
}
"""


def table(library):
    ruling = parse_rulings(RULING, "t.ruling", library)[0]
    game, _script = build_table(ruling, library)
    return game


def test_point_fight_needs_a_hand_card_on_both_sides(library):
    game = table(library)
    a, b, c = game.players
    assert game.fights.can_point_fight(a, b)
    assert not game.fights.can_point_fight(a, c) and not game.fights.can_point_fight(a, a)
    assert game.fights.point_fight(a, c) is None and game.fight_log == []


def test_invariants_accept_hp_0_only_under_a_holding_survive(library):
    game = table(library)
    _, kept, plain = game.players
    kept.hp = plain.hp = 0
    problems = check_invariants(game, len(game.all_cards))
    assert any(plain.label() in p and "outside a rescue round" in p for p in problems)
    assert not any(kept.label() in p for p in problems)
    kept.hp = -2  # 試忍 holds down to -1 only
    assert any(kept.label() in p for p in check_invariants(game, len(game.all_cards)))

