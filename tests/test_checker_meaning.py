"""Text the checker refuses because it would load and mean nothing, or something else than it
says: a mark read by a name no text of the library sets (it would read 0 forever), a locked
skill (鎖定技) with a part the player chooses (an optional trigger, an action, a conversion), a
statement after one that always leaves its block (it would never run), a skill listed twice on
a hero (its triggers would fire twice), a deck or hero package named twice in a ruleset, a card
property or block that the card's type or uses leave without effect, a second `active` in one
skill (offered under the same name), a `choose_option` result compared with a label it never
offers (always false), a nature, suit, colour, card type, move zone or reason compared with a
name it never has (they read in either script, like phase names), a card's name compared with
text that names no card of the library, a role no mode deals, an asked mode other than use or
play; and, as a warning, a state the skill never names."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from checking import assert_located, check, check_text

from sgs_dsl.compiler.library import check_paths, load_library
from sgs_dsl.core.defs import Ctx
from sgs_dsl.core.model import Budget


def test_a_mark_read_by_a_name_no_text_sets_is_a_located_error(tmp_path):
    body = '  modify attack_range += marks(you, "酒意");'
    assert_located(check(tmp_path, body), body, "no text of the library sets the mark '酒意'", "did you mean '酒'?")
    body = '  modify attack_range += marks(you, "醉");'
    assert_located(check(tmp_path, body), body, "marks(...) would always be 0", 'set it with `mark(PLAYER, "醉", N)`')


def test_a_mark_set_anywhere_in_the_library_may_be_read(tmp_path):
    assert check(tmp_path, '  modify attack_range += marks(you, "酒");') == []  # the 酒 card sets it
    setter = '  on phase_start when phase.player == you { mark(you, "醉", 1, until: "turn"); }'
    assert check(tmp_path, setter + '\n  modify attack_range += marks(you, "醉");') == []


@pytest.mark.parametrize("body, message", [
    ("  on damaged optional when damage.target == you { draw(you, 1); }",
     "a locked skill (鎖定技) fires by itself when its condition holds"),
    ("  active once { draw(you, 1); }", "a locked skill (鎖定技) fires by itself: it has no play-phase action"),
    ("  view_as 殺 from 1 red in hand;", "a locked skill (鎖定技) is not chosen"),
])
def test_a_locked_skill_has_nothing_the_player_chooses(tmp_path, body, message):
    text = f'skill 例 li locked "測試" {{\n{body}\n}}\n'
    (first, *_) = check_text(tmp_path, text)
    assert message in first.message and first.span.line == 2, first.render()


@pytest.mark.parametrize("body, what", [
    ('  on damaged when damage.target == you { stop; draw(you, 1); }', "`stop;` leaves the block first"),
    ('  active once { for p in others(you) { break; draw(p, 1); } }', "`break;` leaves the block first"),
    ('  active once { if you.hp > 1 { stop; } else { stop; } draw(you, 1); }',
     "the `if` before it (both of its branches leave)"),
])
def test_a_statement_after_one_that_always_leaves_is_a_located_error(tmp_path, body, what):
    found = check(tmp_path, body)
    assert found and f"this statement is never run: {what}" in found[0].message, [d.message for d in found]
    assert "move the leaving statement into an `if`" in found[0].hint


def test_a_leaving_statement_inside_an_if_leaves_what_follows_reachable(tmp_path):
    assert check(tmp_path, '  active once { if you.hp > 1 { stop; } draw(you, 1); }') == []
    assert check(tmp_path, '  active once { for p in others(you) { if p.hp > 1 { break; } draw(p, 1); } }') == []


def test_a_state_never_named_is_a_located_warning_that_does_not_stop_the_load(tmp_path):
    path = tmp_path / "state.sgs"
    path.write_text('skill 例 li "測試" {\n  state 計: int until turn;\n  state 用: int until turn;\n'
                    '  active once { remember(you, "用", 1); draw(you, 1); }\n}\n', encoding="utf-8")
    assert check_paths([path]) == []  # it loads
    (warning,) = check_paths([path], warnings=True)
    assert (warning.severity, warning.span.line, warning.span.column) == ("warning", 2, 9)
    assert "the state '計' is never remembered or recalled" in warning.message


def test_a_skill_listed_twice_on_a_hero_is_a_located_error(tmp_path):
    text = ('skill 例 li "測試" {\n  on damaged when damage.target == you { draw(you, 1); }\n}\n'
            'hero 試 shi { kingdom 魏; gender male; hp 4; skills 例, li; }\n')  # its name, then its id
    (first, *_) = check_text(tmp_path, text)
    assert "the skill '例' is listed twice" in first.message and (first.span.line, first.span.column) == (4, 54)


def test_a_deck_or_hero_package_named_twice_in_a_ruleset_is_a_located_error(tmp_path):
    text = 'ruleset 試局 "測試" {\n  mode identity;\n  decks standard, ex, standard;\n  heroes standard, standard;\n}\n'
    found = check_text(tmp_path, text)
    assert [(d.message, d.span.line, d.span.column) for d in found] == [
        ("the deck 'standard' is named twice", 3, 23), ("the hero package 'standard' is named twice", 4, 20)]


@pytest.mark.parametrize("text, message, where", [
    ('card 試 shi basic "測試" {\n  use respond;\n  limit 1;\n  effect { cancel(responded); }\n}\n',
     "'limit' counts uses in the play phase, and this card has no `use play`", (3, 3)),
    ('card 試 shi trick "測試" {\n  use play: all others;\n  targets 2;\n  effect { damage(target, 1); }\n}\n',
     "'targets' adds to a use on one target, and this card has none", (3, 3)),
    ('card 試 shi weapon "測試" {\n  range 3;\n  effect { draw(user, 1); }\n}\n',
     "equipment is not resolved: its `effect` block would never run", (3, 3)),
])
def test_a_card_property_or_block_its_type_or_uses_leave_without_effect_is_an_error(tmp_path, text, message, where):
    (first, *_) = check_text(tmp_path, text)
    assert message in first.message and (first.span.line, first.span.column) == where, first.render()


def test_a_second_active_in_one_skill_is_a_located_error(tmp_path):
    body = "  active once { draw(you, 1); }\n  active once { draw(you, 2); }"
    (first, *_) = check(tmp_path, body)
    assert "a skill has one `active`" in first.message and first.span.line == 3 and "choose_option" in first.hint


def test_a_choice_compared_with_a_label_it_never_offers_is_a_located_error(tmp_path):
    body = ('  active once { let c = choose_option(you, ["摸一張牌", "回復"]); '
            'if c == "摸兩張牌" { draw(you, 2); } if c == "回復" { draw(you, 1); } }')
    (first, *rest) = check(tmp_path, body)
    assert "'c' is never '摸兩張牌': it holds one of the options 摸一張牌、回復" in first.message and not rest


def test_a_choice_set_to_another_value_anywhere_in_its_block_is_not_bound_by_its_labels(tmp_path):
    body = ('  active once { let c = choose_option(you, ["摸一張牌", "回復"]); '
            'repeat 2 { if c == "摸兩張牌" { draw(you, 2); } set c = "摸兩張牌"; } }')
    assert check(tmp_path, body) == []


def test_a_nature_is_named_in_either_script_and_checked(tmp_path):
    """`damage.nature == "火"` compared the English name with the Chinese one, always false;
    natures are now read like phase names: either script, and a misspelling is an error."""
    body = '  on damaged when damage.nature == "fier" { draw(you, 1); }'
    assert_located(check(tmp_path, body), body, "'fier' is not a nature", "did you mean 'fire'?")
    path = tmp_path / "natures.sgs"
    path.write_text('skill 例 li "測試" {\n  on damaged when damage.nature == "火" { draw(you, 1); }\n'
                    '  on causing_damage when damage.source == you { set damage.nature = "雷"; }\n}\n', encoding="utf-8")
    assert check_paths([path]) == []
    skill = load_library([path]).skills["例"]
    (fire,) = skill.triggers["damaged"]
    seen = Ctx(None, {"you": None, "damage": SimpleNamespace(nature="fire")})
    assert fire.cond(seen) is True
    seen.vars["damage"] = SimpleNamespace(nature="thunder")
    assert fire.cond(seen) is False
    (thunder,) = skill.triggers["causing_damage"]
    damage = SimpleNamespace(source=None, nature="normal")
    thunder.body(Ctx(SimpleNamespace(budget=Budget()), {"you": None, "damage": damage}))
    assert damage.nature == "thunder"


@pytest.mark.parametrize("cond, message, hint", [
    ('move.player == you and move.zone == "hnad"', "'hnad' is not a move zone", "did you mean 'hand'?"),
    ('move.player == you and move.reason == "discrad"', "'discrad' is not a reason", "did you mean 'discard'?"),
    ('move.player == you and move.card.type == "weapn"', "'weapn' is not a card type", "did you mean 'weapon'?"),
    ('move.player == you and move.card.suit == "hart"', "'hart' is not a suit", "did you mean 'heart'?"),
    ('move.player == you and move.card.color == "blak"', "'blak' is not a color", "did you mean 'black'?"),
])
def test_a_card_or_move_field_compared_with_a_name_it_never_has_is_a_located_error(tmp_path, cond, message, hint):
    body = f"  on cards_lost each_card when {cond} {{ draw(you, 1); }}"
    assert_located(check(tmp_path, body), body, message, hint)


def test_suits_colours_zones_and_reasons_read_in_either_script(tmp_path):
    path = tmp_path / "names.sgs"
    path.write_text('skill 例 li "測試" {\n  on cards_lost each_card when move.card.suit == "♥" and move.card.color == "紅" '
                    'and move.zone == "手牌" and move.reason == "棄置" { draw(you, 1); }\n}\n', encoding="utf-8")
    assert check_paths([path]) == []
    (trigger,) = load_library([path]).skills["例"].triggers["cards_lost"]
    card = SimpleNamespace(suit="heart", color="red")
    move = SimpleNamespace(card=card, zone="hand", reason="discard")
    game = SimpleNamespace(filters=SimpleNamespace(seen=lambda card, holder=None: card))  # no filter: as printed
    assert trigger.cond(Ctx(game, {"you": None, "move": move})) is True
    move.reason = "use"
    assert trigger.cond(Ctx(game, {"you": None, "move": move})) is False


def test_a_card_name_compared_with_text_is_a_card_of_the_library(tmp_path):
    body = '  on damaged when damage.card != none and damage.card.name == "殺殺" { draw(you, 1); }'
    assert_located(check(tmp_path, body), body, "'殺殺' is not a card of the library", "did you mean '殺'?")
    assert check(tmp_path, '  on damaged when damage.card != none and damage.card.name == "sha" { draw(you, 1); }') == []


def test_a_role_is_one_a_mode_deals_named_in_either_script(tmp_path):
    body = '  on damaged when damage.target == you and you.role == "rebl" { draw(you, 1); }'
    assert_located(check(tmp_path, body), body, "'rebl' is not a role", "did you mean 'rebel'?")
    path = tmp_path / "roles.sgs"
    path.write_text('skill 例 li "測試" {\n  on damaged when damage.target == you and you.role == "反賊" '
                    '{ draw(you, 1); }\n}\n', encoding="utf-8")
    (trigger,) = load_library([path]).skills["例"].triggers["damaged"]
    me = SimpleNamespace(role="rebel")
    assert trigger.cond(Ctx(None, {"you": me, "damage": SimpleNamespace(target=me)})) is True
    me.role = "leader"  # a 3v3 role is one too
    assert trigger.cond(Ctx(None, {"you": me, "damage": SimpleNamespace(target=me)})) is False


def test_an_asked_mode_is_use_or_play_in_either_script(tmp_path):
    body = '  on asked when asked.player == you and asked.mode == "respond" { draw(you, 1); }'
    assert_located(check(tmp_path, body), body, "'respond' is not an asked mode", "names: use, play, 使用, 打出")
    assert check(tmp_path, '  on asked when asked.player == you and asked.mode == "打出" { draw(you, 1); }') == []
