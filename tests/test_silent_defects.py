"""Regressions for the silent defects that are fixed: a file
that passes `sgs check` means what it says. Each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import check
from table import find, make_table

from sgs_dsl.compiler.library import build
from sgs_dsl.resources import library_files


def seated(tmp_path: Path, text: str, skill: str, **lord: object):
    """A two-seat table whose lord has the one skill `text` defines."""
    extra = tmp_path / "extra.sgs"
    extra.write_text(text, encoding="utf-8")
    lib = build([*library_files(), extra])
    game = make_table(lib, seats=[dict(role="lord", **lord), dict()], deck_top=["殺 ♠7", "閃 ♦2", "桃 ♥3"])
    game.players[0].skills = (lib.skills[skill],)
    game.skills.changed_skills()
    return game


@pytest.mark.parametrize("body, message, hint", [
    ('  active once { discard(you, 1, from: "pocket"); }', 'unknown zone "pocket"', "zones: hand"),
    ('  active once { skip(you, "banana"); }', 'unknown phase "banana"', "phases: prepare"),
    ('  active once { skip(you, "出排"); }', 'unknown phase "出排"', "did you mean '出牌'?"),
    ('  active once { mark(you, "x", 1, until: "forever"); }', 'unknown mark scope "forever"', "phase, turn, game"),
    ("  active once { use_virtual(you, 諸葛連弩, on: [you]); }", "'諸葛連弩' cannot be used as a virtual card",
     "basic card or an instant trick"),
    ("  active once { use_virtual(you, 樂不思蜀, on: others(you)); }", "'樂不思蜀' cannot be used as a virtual card",
     "basic card or an instant trick"),
])
def test_a_string_or_card_the_engine_would_misread_is_a_located_error(tmp_path, body, message, hint):
    diagnostics = check(tmp_path, body)
    assert len(diagnostics) == 1, [d.render() for d in diagnostics]
    d = diagnostics[0]
    assert d.span.line == 2 and message in d.message and hint in d.hint, d.render()


def test_quoted_names_of_a_closed_set_still_work(tmp_path):
    assert check(tmp_path, '  active once { skip(you, "出牌"); discard(you, 1, from: "hand"); '
                           'mark(you, "x", 1, until: "turn"); }') == []


def test_on_drawn_fires_once_per_draw_with_every_card_drawn(tmp_path):
    game = seated(tmp_path, 'skill 摸記 moji "當你摸牌後，若你摸了至少兩張牌，你回復1點體力。" {\n'
                  '  on drawn when move.player == you and count(move.cards) >= 2 { recover(you, 1); }\n'
                  '}\n', "摸記", hp=2)
    me = game.players[0]
    game.zones.draw(me, 2)
    assert me.hp == 3 and [c.label() for c in me.hand] == [find(game, "殺 ♠7").label(), find(game, "閃 ♦2").label()]
    game.zones.draw(me, 1)  # one card: the condition fails
    assert me.hp == 3
    assert sum(line.endswith("發動【摸記】") for line in game.lines) == 1


def test_none_where_a_player_is_needed_is_a_located_rules_error(tmp_path):
    from sgs_dsl.core.model import RulesError

    # unguarded, `draw(damage.source, 1)` is a load error (test_soundness); a value proven by the
    # trigger's condition that the body then changes is still caught when it is used
    game = seated(tmp_path, 'skill 報源 baoyuan "當你受到傷害後，一名體力大於1的其他角色摸一張牌。" {\n'
                  '  on damaged when count([p in others(you) where p.hp > 1]) > 0 { let o = choose_player(you, '
                  'others(you)); lose_hp(o, o.hp - 1); draw(choose_player(you, [p in others(you) where p.hp > 1]), 1); }\n'
                  '}\n', "報源")
    me = game.players[0]
    with pytest.raises(RulesError, match=r"extra\.sgs:2:\d+: expected a player here, but it is none"):
        game.hp.damage(me, 1)


@pytest.mark.parametrize("traditional, simplified", [
    ("強襲", "强袭"), ("顏良文醜", "颜良文丑"), ("驅虎", "驱虎"), ("節命", "节命"), ("雙雄", "双雄"),
])
def test_names_with_these_characters_are_one_name_in_either_script(traditional, simplified):
    from sgs_dsl.syntax.names import normalize

    assert normalize(traditional) == normalize(simplified)
