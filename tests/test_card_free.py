"""The compiler's `card_free` mark on a target rule: one can_play verdict serves every card of
a kind in a play question only when the rule's condition cannot read which card is used."""

from __future__ import annotations

from pathlib import Path

from sgs_dsl.compiler.library import load_library

DATA = Path(__file__).parent / "data"


def rule_of(lib, name: str):
    return lib.cards[name].mode("play").target


def test_rules_that_read_only_players_are_card_free():
    lib = load_library()
    assert rule_of(lib, "殺").card_free  # in_range(user, it): a range modifier is checked at run time
    assert rule_of(lib, "決鬥").card_free  # no condition at all


def test_rules_that_may_read_the_card_or_spend_steps_are_not(tmp_path):
    extra = tmp_path / "free.sgs"
    extra.write_text(
        'card 試紅 shi_hong basic "對一名其他角色使用，若此牌為紅色。" {\n'
        '  use play: one other where card is red;\n  effect { draw(user, 1); }\n}\n'
        'card 試數 shi_shu basic "對手牌數不少於一的角色使用。" {\n'
        '  use play: one other where count([p in others(it) where p.hand > 0]) > 0;\n'
        '  effect { draw(user, 1); }\n}\n', encoding="utf-8")
    lib = load_library([extra])
    assert not rule_of(lib, "試紅").card_free  # names the card
    assert not rule_of(lib, "試數").card_free  # a list filter (it spends steps)
    assert not rule_of(lib, "借刀殺人").card_free  # the same, in the built-in library
