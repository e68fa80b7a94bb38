"""Procedures and definitions: top-level `procedure NAME(p: player, n: int) { ... }`
and `define NAME(p: player): int = EXPR;`, called from any skill or card with their arguments
checked, seeing only their parameters; recursion is bounded by the call-depth budget with a
rules error located at the call. The test skills are in tests/data/h1_expressions.sgs."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import check_text
from table import make_table

from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.model import MAX_DEPTH, RulesError
from sgs_dsl.syntax.parser import parse

HEROES = Path(__file__).parent / "data" / "h1_expressions.sgs"


@pytest.fixture(scope="module")
def library():
    return load_library([HEROES])


def fire(library, skill: str):
    game = make_table(library, seats=[dict(role="lord"), dict(), dict()])
    game.players[0].skills = (library.skills[skill],)
    game.skills.changed_skills()
    game.triggers.open_window("game_start", {})
    return game


def test_a_procedure_and_a_recursive_one_run_with_their_arguments(library):
    game = fire(library, "h1_draws")
    assert len(game.players[0].hand) == 4  # 摸至(you, 2), then 遞摸 one card at a time, twice
    assert all(not p.hand for p in game.players[1:])


def test_runaway_recursion_is_a_rules_error_at_the_call(library):
    with pytest.raises(RulesError) as caught:
        fire(library, "h1_runaway")
    assert f"the call of '無盡' is nested more than {MAX_DEPTH} levels deep" in str(caught.value)
    assert caught.value.span.file == str(HEROES) and caught.value.span.line == 14


def test_a_definition_gives_its_value(library):
    game = fire(library, "h1_values")
    assert game.players[0].marks["def"] == 4  # max hp 4, no hand card


def errors(tmp_path, text: str) -> list:
    return check_text(tmp_path, text)


SKILL = 'skill 例 li "測試" {{\n  active {{ {call} }}\n}}\n'


@pytest.mark.parametrize("top, call, line, message, hint", [
    ("procedure 補(p: player) { draw(p, 1); }", "補(you, 2);", 3, "'補' takes 1 argument, got 2", "補(p: player)"),
    ("procedure 補(p: player) { draw(p, 1); }", "補(3);", 3, "'補' needs p: player, found int", "補(p: player)"),
    ("procedure 補(p: player) { draw(p, 1); }", "補(you, by: you);", 3, "'補' takes no options", ""),
    ("procedure 補(p: player) { draw(p, 1); }", "補(choose_player(you, [you]));", 3,
     "may be none, but '補' needs p: player", "guard it"),
    ("procedure 補牌(p: player) { draw(p, 1); }", "補排(you);", 3, "unknown effect or function '補排'", "補牌"),
    ("procedure 補(p: player) { draw(you, 1); }", "補(you);", 1, "unknown variable 'you'", "variables here: p"),
    ("procedure 補(p: player) { damage(p, 1); }", "補(you);", 1, "'damage' needs `by:` here", "by: p"),
    ("procedure 補(p: plyer) { draw(p, 1); }", "補(you);", 1, "unknown type 'plyer'", "did you mean 'player'?"),
    ("procedure 補(p: player, p: int) { draw(p, 1); }", "補(you, 1);", 1, "parameter 'p' is named twice", ""),
    ("procedure draw(p: player) { stop; }", "draw(you, 1);", 1, "'draw' is already an effect", "a name of its own"),
    ("procedure 補(p: player) { let p = 1; }", "補(you);", 1, "'p' is already a variable here", ""),
    ("define 值(p: player): int = p;", "draw(you, 值(you));", 1, "'值' is declared to give int, but this is player",
     "change the declared type"),
    ("define 選(p: player): player = [p][1];", "draw(選(you), 1);", 1,
     "declared to give player, but this is player?", "cannot be declared as one that is never none"),
    ("define 值(p: player): int = p.hp;", "draw(you, 值(3));", 3, "'值' needs p: player, found int", "值(p: player): int"),
])
def test_wrong_procedures_and_calls_are_located_errors(tmp_path, top, call, line, message, hint):
    text = top + "\n" + SKILL.format(call=call)
    found = errors(tmp_path, text)
    assert found, f"no error for {text!r}"
    first = found[0]
    assert message in first.message, first.render()
    assert hint in first.hint, first.render()
    assert first.span.line == line and first.span.file.endswith("bad.sgs")
    assert first.source_line == text.splitlines()[line - 1]


def test_a_procedure_defined_twice_is_an_error(tmp_path):
    text = "procedure 補(p: player) { draw(p, 1); }\nprocedure 補(p: player) { draw(p, 2); }\n"
    found = errors(tmp_path, text)
    assert len(found) == 1 and found[0].span.line == 2
    assert "duplicate procedure '補'" in found[0].message and "first defined at" in found[0].hint


def test_a_call_may_come_before_the_definition(tmp_path):
    text = SKILL.format(call="補(you);") + "procedure 補(p: player) { draw(p, 1); }\n"
    assert errors(tmp_path, text) == []


def test_procedures_round_trip_through_the_parse_cache_codec():
    from sgs_dsl.syntax import astcodec

    module = parse(HEROES.read_text(encoding="utf-8"), str(HEROES))
    assert astcodec.decode(astcodec.encode(module), module.path, module.lines) == module
