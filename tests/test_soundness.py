"""The checker's soundness: a value that may be none is used only once guarded, effects
check what they are given, `==` compares values that can be equal, and a condition is true or
false. Each error is located on the body's line with a hint; each guard is accepted."""

from __future__ import annotations

import pytest
from checking import assert_located, check
from click.testing import CliRunner
from test_silent_defects import seated

from sgs_dsl.cli import main
from sgs_dsl.compiler import soundness


@pytest.mark.parametrize("body, message, hint", [
    # a maybe-none value where a player is needed, or its field read unguarded
    ("  on damaged when damage.target == you { draw(damage.source, 1); }",
     "'damage.source' may be none, but a player is needed here", "`if damage.source != none { ... }`"),
    ("  on damaged { if damage.source.hp > 1 { draw(you, 1); } }",
     "'damage.source' may be none: its field 'hp' cannot be read unguarded", "`damage.source or DEFAULT`"),
    ("  active once { let t = choose_player(you, [p in others(you) where p.hurt]); draw(t, 1); }",
     "'t' may be none, but a player is needed here", "`if t != none { ... }`"),
    ("  on damaged { if damage.source != none or damage.source.hp > 1 { draw(you, 1); } }",
     "may be none: its field 'hp'", "guard it"),
    # what count, gain, give and throw are given
    ("  active once { draw(you, count(you)); }", "expected a list of players, cards or text, found player",
     "a player's hand size is `p.hand`"),
    ("  active once { gain(you, you); }", "expected a card or a list of cards, found player", "cards_of(p, hand)"),
    ("  active once { give(you, you, 3); }", "expected a card or a list of cards, found int", "cards_of(p, hand)"),
    ("  active once { throw(others(you)); }", "expected a card or a list of cards, found players", "pick(you, p, hand)"),
    # == and != between values that can never be equal
    ("  active once { if you.hp == you { draw(you, 1); } }", "'==' between int and player, which can never be equal",
     "compare values of one kind"),
    ('  on damaged { if damage.card != "殺" { draw(you, 1); } }', "'!=' between card? and str",
     "compare values of one kind"),
    # two players' kingdoms compared: true for two players of no kingdom, or two careerists
    ("  active once { if any(p in others(you), p.kingdom == you.kingdom) { draw(you, 1); } }",
     "'==' between two players' kingdoms also holds for two players of no kingdom", "same_kingdom(a, b)"),
    ("  active once { if any(p in others(you), you.kingdom != p.kingdom) { draw(you, 1); } }",
     "'!=' between two players' kingdoms", "not same_kingdom(a, b)"),
    # conditions that are not true or false
    ("  on damaged when you { draw(you, 1); }", "a condition must be true or false, found player",
     "write a comparison"),
    ("  active once { if 5 { draw(you, 1); } }", "a condition must be true or false, found int", "compare the number"),
    ("  active once { if you.hp { draw(you, 1); } }", "a condition must be true or false, found int",
     "compare the number: `you.hp > 0`"),
    ("  on damaged { if damage.source { draw(you, 1); } }", "a condition must be true or false, found player?",
     "write `damage.source != none`"),
    ("  active once { if others(you) and true { draw(you, 1); } }", "a condition must be true or false, found players",
     "`count(X) > 0`"),
    ("  on damaged { draw(damage.source or 1, 1); }", "the default after `or` must be a player, found int",
     "both are player"),
])
def test_an_unsound_use_is_a_located_error(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


@pytest.mark.parametrize("body", [
    "  on damaged when damage.source != none { draw(damage.source, 1); }",
    "  on damaged when damage.target == you and damage.source != none and damage.source.hp > 1 { draw(you, 1); }",
    "  on damaged { if damage.source != none { draw(damage.source, 1); } }",
    "  on damaged { if damage.source == none { stop; } draw(damage.source, 1); }",
    "  on damaged { if damage.source == none { draw(you, 1); } else { draw(damage.source, 1); } }",
    "  on damaged { if damage.source == none or damage.source.hp > 1 { draw(you, 1); } }",
    "  on damaged { if not (damage.source == none) { draw(damage.source, 1); } }",
    "  on damaged { draw(damage.source or you, 1); }",
    "  active once { let t = choose_player(you, others(you)); if t != none and t.hp > 1 { draw(t, 1); } }",
    "  active once { let t = choose_player(you, others(you)); if t == none { stop; } draw(t, t.hp); }",
    "  on after_specify when target.hp > 1 { draw(target, 1); }",  # a per-target window always has one
    '  on phase_start when phase.name == "出牌" and count(others(you)) > 0 { gain(you, cards_of(you, hand)); }',
    "  on damaged when damage.card != none and damage.card is 殺 { gain(you, damage.card); }",
    '  active once { if any(p in others(you), same_kingdom(p, you) or p.kingdom == "wei") { draw(you, 1); } }',
])
def test_a_guarded_use_is_accepted(tmp_path, body):
    assert [d.render() for d in check(tmp_path, body)] == []


def test_a_guarded_effect_on_a_damage_without_a_source_does_nothing(tmp_path):
    game = seated(tmp_path, 'skill 報源 baoyuan "當你受到傷害後，傷害來源摸一張牌。" {\n'
                  "  on damaged when damage.target == you { if damage.source != none { draw(damage.source, 1); } }\n"
                  "}\n", "報源")
    me, other = game.players
    game.hp.damage(me, 1)  # no source: the guard skips the draw
    assert (len(me.hand), len(other.hand)) == (0, 0)
    game.hp.damage(me, 1, source=other)
    assert len(other.hand) == 1


def test_or_gives_the_default_only_when_the_value_is_none(tmp_path):
    game = seated(tmp_path, 'skill 報默 baomo "當你受到傷害後，傷害來源（若無則為你）摸一張牌。" {\n'
                  "  on damaged when damage.target == you { draw(damage.source or you, 1); }\n"
                  "}\n", "報默")
    me, other = game.players
    game.hp.damage(me, 1)
    assert (len(me.hand), len(other.hand)) == (1, 0)
    game.hp.damage(me, 1, source=other)
    assert (len(me.hand), len(other.hand)) == (1, 1)


def test_sgs_check_exits_1_on_an_unguarded_none(tmp_path):
    path = tmp_path / "bad.sgs"
    path.write_text('skill 例 li "測試" {\n  on damaged { draw(damage.source, 1); }\n}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert f"{path}:2:28: error: 'damage.source' may be none" in result.output and "^" in result.output


@pytest.mark.parametrize("left, right, equal", [
    ("player", "player?", True), ("int", "player", False), ("str", "phase_name", True), ("none", "card?", True),
    ("none", "card", True), ("any", "int", True), ("cards", "card", False),
])
def test_which_types_can_be_equal(left, right, equal):
    assert soundness.can_equal(left, right) is equal and soundness.can_equal(right, left) is equal
