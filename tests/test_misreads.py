"""Text the grammar accepts but that would be read otherwise than meant: each is a
located error with a hint, and the right way to write it is accepted."""

from __future__ import annotations

import pytest
from checking import assert_located, check, check_text
from click.testing import CliRunner

from sgs_dsl.cli import main
from sgs_dsl.compiler.library import build, check_paths, load_library
from sgs_dsl.game import play_game
from sgs_dsl.resources import library_files


@pytest.mark.parametrize("body, message, hint", [
    ("  active once { let true = 0; draw(you, 1); }", "'true' is a reserved word: it cannot be a variable's name",
     "`let my_true = ...`"),
    ("  active once { let draw = 1; draw(you, draw); }", "'draw' is an effect or function", "give the variable"),
    # a variable named as a word an argument reads bare would be read for the word, or the word for it
    ("  active once { let hand = you; draw(you, count(cards_of(hand, hand))); }",
     "'hand' is a word of the language (a zone, a place, an area): it cannot be a variable's name", "give the variable another name"),
    ("  active once { for judge in others(you) { draw(judge, 1); } }",
     "'judge' is a word of the language (a phase, a zone, a place, a reason, an area)", "give the variable another name"),
    ("  active once { draw(you, count([fire in others(you) where fire.hp > 1])); }",
     "'fire' is a word of the language (a nature)", "give the variable another name"),
    ("  active once { draw(you, count([p in others(you) where any(male in players(), male == p)])); }",
     "'male' is a word of the language (a gender)", "give the variable another name"),
    ("  active once { let t = you; draw(you, count(cards_of(you, t))); }",
     "expected a zone name here, found player", "zones: hand, equip"),
    ("  on damaged optional optional { draw(you, 1); }", "the flag 'optional' is given twice", "write it once"),
    ("  active once { draw(you, hero_hp(you)); }", "expected a hero name here, found player", "choose_hero"),
    ("  active once { grant_skill(you, 1); }", "expected a skill name here, found int", "choose_skill"),
    ("  active once { draw(random_one(you), 1); }", "'random_one' needs a list, not player", "random_one(LIST)"),
    ("  active once { swap_areas(you, current(), weapon); }", "unknown area 'weapon'", "hand, equip, judge"),
    ("  modify dying = true when you.hand > 0;", "`dying` keeps its owner out of the dying state: its value is `false`",
     "`modify dying = false when COND;`"),
    ("  modify dying = 1;", "a modifier's value must be a bool, not int", "`modify dying = false when ...`"),
    ("  modify dying(殺) = false;", "`dying` is set, for no card: `modify dying = false when ...`", ""),
    ('  state 記: int; on damaged optional when damage.target == you { remember(you, "記", you.hp); }',
     "this trigger only keeps a record: keeping one is not an invocation", "drop `optional`"),
    ("  active once once { draw(you, 1); }", "the flag 'once' is given twice", "first given at line 2"),
    ("  on damaged when damage.card is 無懈可擊 殺 { draw(you, 1); }",
     "this pattern can never match: a card cannot be both 無懈可擊 and 殺", "`|` separates alternatives"),
    ("  on damaged when damage.card is red black { draw(you, 1); }",
     "this pattern can never match: a card cannot be both red and black", "`red | basic`"),
    ("  on damaged when damage.card is ♠ red { draw(you, 1); }",
     "this pattern can never match: a spade card is not red", "a term's words"),
    ("  on damaged when damage.card is ♠ ♥ { draw(you, 1); }",
     "this pattern can never match: a card has one suit", "a term's words"),
    ("  on damaged when damage.card is basic trick { draw(you, 1); }",
     "this pattern can never match: no card type is all of basic, trick", "a term's words"),
    ("  on damaged when damage.card is 殺 equip { draw(you, 1); }",
     "this pattern can never match: no card type is all of equip and 殺", "a term's words"),
])
def test_a_misread_is_a_located_error(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


@pytest.mark.parametrize("body", [
    "  on damaged when damage.card is 殺 | 無懈可擊 { draw(you, 1); }",
    "  on damaged when damage.card is 火殺 殺 { draw(you, 1); }",  # a 火殺 is a 殺
    "  on damaged when damage.card is ♥ red basic { draw(you, 1); }",
    "  on damaged when damage.card is trick delayed { draw(you, 1); }",
])
def test_a_pattern_that_can_match_is_accepted(tmp_path, body):
    assert [d.render() for d in check(tmp_path, body)] == []


def _first(found: list, line: int, message: str, hint: str) -> None:
    assert found, "no error"
    d = found[0]
    assert d.span.line == line and message in d.message and hint in d.hint, d.render()


def test_a_skill_without_its_id_is_an_error(tmp_path):
    found = check_text(tmp_path, 'skill 激勵 lord "主公技，測試。" {\n  active once { draw(you, 1); }\n}\n')
    _first(found, 1, "the skill '激勵' has no id: 'lord' is a skill tag", "`skill 激勵 some_id lord {`")
    assert found[0].span.column == 10


def test_a_skill_tag_given_twice_is_an_error(tmp_path):
    found = check_text(tmp_path, 'skill 例 li locked locked "測試" {\n  active once { draw(you, 1); }\n}\n')
    _first(found, 1, "the tag 'locked' is given twice", "first given at line 1, column 12")


def test_a_ruleset_property_given_twice_is_an_error(tmp_path):
    found = check_text(tmp_path, 'ruleset twice "測試" {\n  decks standard;\n  decks standard;\n  heroes standard;\n}\n')
    _first(found, 3, "the property 'decks' is given twice", "first given at line 2")


def test_a_card_property_or_use_clause_given_twice_is_an_error(tmp_path):
    weapon = ('card 試刀 shidao weapon "測試。" {\n  range 2;\n  range 3;\n}\n'
              'card 試殺 shisha basic "測試。" {\n  use play: one other;\n  use play: one;\n  effect { damage(target, 1); }\n}\n')
    found = check_text(tmp_path, weapon)
    _first(found, 3, "the property 'range' is given twice", "write it once")
    assert any(d.span.line == 7 and "the use clause 'play' is given twice" in d.message for d in found), found


def test_a_rulesets_max_turns_caps_its_games(tmp_path):
    extra = tmp_path / "short.sgs"
    extra.write_text('ruleset short "兩回合" { mode identity; decks standard, ex; heroes standard; max_turns 2; }\n',
                     encoding="utf-8")
    library = build([*library_files(), extra])
    result = play_game(library, "short", 4, seed=3)
    assert result.turns == 2 and result.capped and "達到2回合上限" in result.reason


def test_a_let_never_read_is_a_located_warning_that_does_not_stop_the_load(tmp_path):
    path = tmp_path / "slip.sgs"
    path.write_text('skill 例 li "測試" {\n  active once { let n = 1; let m = 2; draw(you, m); }\n}\n', encoding="utf-8")
    assert check_paths([path]) == []  # it loads
    (warning,) = check_paths([path], warnings=True)
    assert (warning.severity, warning.span.line, warning.span.column) == ("warning", 2, 21)
    assert "the variable 'n' is never read" in warning.message and "misspelt" in warning.hint
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0 and f"{path}:2:21: warning: the variable 'n' is never read" in result.output


def test_an_empty_skill_or_body_is_a_located_warning_that_does_not_stop_the_load(tmp_path):
    path = tmp_path / "empty.sgs"
    path.write_text('skill 空 kong "測試" {\n}\nskill 虛 xu "測試" {\n  on damaged when damage.target == you { }\n'
                    '  active once { }\n}\n', encoding="utf-8")
    assert check_paths([path]) == []  # it loads
    found = check_paths([path], warnings=True)
    assert [(d.severity, d.span.line, d.span.column) for d in found] == [("warning", 1, 1), ("warning", 4, 3),
                                                                         ("warning", 5, 3)]
    assert "the skill '空' is empty" in found[0].message
    assert "this trigger of '虛' has an empty body" in found[1].message
    assert "this action of '虛' has an empty body" in found[2].message


def test_the_shipped_library_has_no_warnings():
    assert check_paths([], warnings=True) == [] and load_library().warnings == ()


def test_an_unused_let_in_an_attached_action_or_a_procedure_is_a_warning(tmp_path) -> None:
    from sgs_dsl.compiler.library import check_paths

    path = tmp_path / "unused.sgs"
    path.write_text('skill 例 li "測試" {\n  attach others {\n    let n = 1;\n    draw(player, 1);\n  }\n}\n'
                    "procedure 摸牌(p: player) {\n  let m = 2;\n  draw(p, 1);\n}\n", encoding="utf-8")
    found = check_paths([path], warnings=True)
    assert [(d.severity, d.span.line) for d in found] == [("warning", 3), ("warning", 8)], [d.render() for d in found]
