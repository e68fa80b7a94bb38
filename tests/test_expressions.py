"""Expressions: `%`, `if ... then ... else`, list literals of any one type, indexing
(from 1, none past the end), first, min, max, abs, sum, any, all, fewest, most, nearest; the
block scope of `let` (an error, not shadowing) and `set x = ...`; several windows sharing one
trigger body. Values are computed in a game at a scripted table (the test skills of
tests/data/h1_expressions.sgs record them as marks); errors are located checker errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import assert_located, check, check_text
from table import make_table

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.core.model import RulesError

HEROES = Path(__file__).parent / "data" / "h1_expressions.sgs"


@pytest.fixture(scope="module")
def library():
    return load_library([HEROES])


def played(library, skill: str, hands: list[list[str]], hp: tuple[int, ...] = (4, 4, 4)):
    """A three-seat table where seat 1 holds `skill`, after the game-start window opened."""
    game = make_table(library, seats=[dict(role="lord", hand=h, hp=p) for h, p in zip(hands, hp, strict=True)])
    game.players[0].skills = (library.skills[skill],)
    game.skills.changed_skills()
    game.triggers.open_window("game_start", {})
    return game


@pytest.fixture(scope="module")
def marks(library):
    game = played(library, "h1_values", [["殺 ♠7"], ["殺 ♣9", "閃 ♦2", "桃 ♥3"], []], hp=(3, 4, 4))
    return game.players[0].marks


def test_the_test_skills_check_clean():
    assert check_paths([HEROES]) == []


@pytest.mark.parametrize("key, value", [
    ("min", 1), ("max", 3), ("max_hand", 3), ("abs", 4),
    ("mod", 1), ("neg_mod", 2), ("div", -3),  # rounded down: -7 == -3 * 3 + 2
    ("cond", 10),  # hp 3 > 2
    ("sum", 4), ("sum_list", 6),
    ("any", 1),  # seat 3 has no hand card
    ("all", 1),
    ("idx", 6), ("past_end", 1),  # [5, 6, 7][2] is 6; [5, 6][3] is none
    ("first_seat", 2),
    ("fewest", 1), ("fewest_seat", 3), ("most_seat", 2),
    ("nearest", 2),  # three seats: both others at distance 1, a tie is every tied player
    ("def", 3), ("def_list", 1),
    ("set", 5),  # 1 + 1 + 3 + 0
])
def test_each_form_computes_its_value_in_a_game(marks, key, value):
    assert marks[key] == value


def test_fewest_returns_every_tied_player_in_seat_order(library):
    game = played(library, "h1_values", [["殺 ♠7"], [], []])
    assert game.players[0].marks["fewest"] == 2
    assert game.players[0].marks["fewest_seat"] == 2


def test_one_body_fires_on_each_of_its_windows(library):
    game = make_table(library, seats=[dict(role="lord"), dict(), dict()])
    owner, other = game.players[0], game.players[1]
    owner.skills = (library.skills["h1_shared"],)
    game.skills.changed_skills()
    game.hp.damage(other, 1, source=owner)  # caused_damage, then damaged: the body runs in each
    assert len(owner.hand) == 2
    game.hp.damage(owner, 1, source=other)  # the condition holds in neither
    assert len(owner.hand) == 2


# ---------------------------------------------------------------- located errors

@pytest.mark.parametrize("body, message, hint", [
    ("  active { let x = 5 % 0; }", "'%' by zero", "test the divisor first"),
    ("  active { let x = if you.hp > 1 then 1 else you; }", "differ in type: int and player", "one type"),
    ("  active { let x = [1, you]; }", "a list holds values of one type", ""),
    ("  active { let x = [1, 2][0]; }", "list positions count from 1", "list[1]"),
    ("  active { let x = you[1]; }", "only a list can be indexed, not player", "others(you)[1]"),
    ("  active { let x = first(you); }", "'first' needs a list, not player", "first(LIST)"),
    ("  active { let x = min(you, 1); }", "expected a number, found player", ""),
    ("  active { let x = abs(1, 2); }", "'abs' takes 1 argument, got 2", "abs(n)"),
    ("  active { let x = sum(players()); }", "'sum' needs a list of numbers", "p in players()"),
    ("  active { let x = sum(p in you, p.hp); }", "`p in ...` needs a list, not player", "p in players()"),
    ("  active { let x = any(p in players(), p.hp); }", "a condition must be true or false, found int", "p.hp > 0"),
    ("  active { let x = fewest(players(), 1); }", "'fewest' selects from `p in LIST` by a key", "fewest(p in"),
    ("  active { let x = nearest(you, 3); }", "'nearest' chooses among players, not int", "nearest(p, PLAYERS)"),
    ("  active { let x = max(1, 2, by: 3); }", "'max' takes no options", "max(a, b, ...)"),
    ("  active { draw(p in players(), 1); }", "only fits as the first argument of an aggregate", "sum(p in"),
])
def test_wrong_forms_are_located_errors(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


WIDE = 1000  # arguments to min and max: an argument list is flat, any length is fine


def test_min_and_max_of_a_thousand_arguments_compute_their_value(tmp_path):
    numbers = ", ".join(str((i * 37) % 1009 + 5) for i in range(WIDE))
    path = tmp_path / "wide.sgs"
    path.write_text(f'skill 寬 kuan "x" {{\n  on game_start forced {{\n    mark(you, "min", min({numbers}));\n'
                    f'    mark(you, "max", max({numbers}));\n  }}\n}}\n', encoding="utf-8")
    assert check_paths([path]) == []
    values = [(i * 37) % 1009 + 5 for i in range(WIDE)]
    marks = played(load_library([path]), "kuan", [[], [], []]).players[0].marks
    assert (marks["min"], marks["max"]) == (min(values), max(values))


@pytest.mark.parametrize("body, message", [
    ("  active { let x = max(); }", "'max' takes at least 2 arguments, got 0"),
    ("  active { let x = abs(); }", "'abs' takes 1 argument, got 0"),
    ("  active { let x = abs(1, 2); }", "'abs' takes 1 argument, got 2"),
    ("  active { let x = sum(p in players(), p.hp, 1); }", "'sum' takes 2 arguments, got 3"),
    ("  active { draw(you); }", "'draw' takes 2 arguments, got 1"),
    ("  active { draw(you, 1, 2); }", "'draw' takes 2 arguments, got 3"),
    ("  active { let c = pick(you); }", "'pick' takes at least 2 arguments, got 1"),
    ("  active { let c = pick(you, you, hand, 1); }", "'pick' takes at most 3 arguments, got 4"),
])
def test_every_arity_error_says_what_the_call_takes(tmp_path, body, message):
    (error,) = check(tmp_path, body)
    assert error.message == message, error.render()


def test_a_procedure_of_no_parameters_called_with_one(tmp_path):
    (error,) = check_text(tmp_path, 'procedure 空() { }\nskill 例 li "x" {\n  active { 空(1); }\n}\n')
    assert error.message == "'空' takes no arguments, got 1" and error.span.line == 3


@pytest.mark.parametrize("body, message, hint", [
    ("  active { let n = 1; if true { let n = 2; } }", "'n' is already a variable here", "another name"),
    ("  active { let n = 1; let n = 2; }", "'n' is already a variable here", "another name"),
    ("  active { for you in players() { draw(you, 1); } }", "'you' is already a variable here", "another name"),
    ("  active { let x = sum(you in players(), 1); }", "'you' is already a variable here", "another name"),
    ("  active { if true { let n = 2; } draw(you, n); }", "variable 'n' is not visible here", "known only inside it"),
    ("  active { set you = you; }", "'you' is not a `let` variable", "only a variable defined by `let`"),
    ("  active { let n = 1; set n = you; }", "'n' is int, not player", "keeps the type of its `let`"),
])
def test_let_has_block_scope_and_no_silent_reassignment(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


def test_a_variable_only_one_window_has_is_an_error_naming_it(tmp_path):
    body = "  on damaged, using forced { draw(damage.target, 1); }"
    found = check(tmp_path, body)
    assert_located(found, body, "unknown variable 'damage' (in the `using` window of this trigger)", "")
    assert len(found) == 1


def test_an_error_of_every_window_is_reported_once(tmp_path):
    body = "  on damaged, caused_damage forced { drw(you, 1); }"
    found = check(tmp_path, body)
    assert len(found) == 1 and "window of this trigger" not in found[0].message


def test_a_window_named_twice_is_an_error(tmp_path):
    body = "  on damaged, damaged forced { draw(you, 1); }"
    assert_located(check(tmp_path, body), body, "window 'damaged' is named twice", "first named at")


def test_max_of_an_empty_list_is_a_rules_error_at_the_call(library):
    with pytest.raises(RulesError) as caught:
        played(library, "h1_empty_max", [[], [], []])
    assert "'max' of an empty list has no value" in str(caught.value)
    assert caught.value.span.file == str(HEROES) and caught.value.span.line == 62


def test_plus_joins_two_lists_of_one_type_and_refuses_two_types(tmp_path) -> None:
    from checking import check

    ok = "  active { let xs = others(you) + [you]; draw(you, count(xs)); }"
    assert not [d for d in check(tmp_path, ok) if d.severity == "error"]
    bad = "  active { let xs = others(you) + cards_of(you, hand); draw(you, count(xs)); }"
    found = check(tmp_path, bad)
    assert found and "cannot join players and cards" in found[0].message and found[0].span.line == 2
    bad = "  active { draw(you, others(you) + 1); }"
    found = check(tmp_path, bad)
    assert found and "`+` joins two lists" in " ".join(d.message + d.hint for d in found)
