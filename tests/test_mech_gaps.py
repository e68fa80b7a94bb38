"""Forms that had no test showing them take effect: a prohibit on responding, and a
point fight's card replaced in 拼點牌亮出後. Nothing the checker accepts may be inert."""

from __future__ import annotations

from pathlib import Path

from table import find, make_table

from sgs_dsl.compiler.library import load_library

DATA = Path(__file__).parent / "data"


def library_with(tmp_path: Path, text: str):
    extra = tmp_path / "gap.sgs"
    extra.write_text(text, encoding="utf-8")
    return load_library([DATA / "mech_damage_turns.sgs", extra])


def test_a_prohibit_on_responding_stops_the_answer_of_those_it_binds(tmp_path):
    lib = library_with(tmp_path, 'skill 試封應 shi_fengying locked "鎖定技，其他角色不能使用【閃】響應。" {\n'
                                 '  forbid respond(閃) for others;\n}\n')
    game = make_table(lib, seats=[dict(role="lord", hand=["閃 ♦2"]), dict(hand=["閃 ♦3"])])
    owner, other = game.players
    owner.skills = (lib.skills["shi_fengying"],)
    game.skills.changed_skills()
    assert [label for label, _, _ in game.using.castable(other, "respond")] == []
    assert [label for label, _, _ in game.using.castable(owner, "respond")] == [find(game, "閃 ♦2").label()]


def test_a_fight_card_replaced_when_the_cards_are_shown_decides_the_fight(tmp_path):
    lib = library_with(tmp_path, 'skill 試換 shi_huan "拼點牌亮出後，你可以亮出牌堆頂的一張牌代替你的拼點牌。" {\n'
                                 '  on point_shown when fight.source == you {\n'
                                 '    for c in reveal(1) { replace_fight_card(fight, you, c); }\n  }\n}\n')
    game = make_table(lib, seats=[dict(role="lord", hand=["殺 ♠7"]), dict(hand=["閃 ♦8"])], deck_top=["桃 ♥Q"])
    owner, other = game.players
    owner.skills = (lib.skills["shi_huan"],)
    game.skills.changed_skills()
    fight = game.fights.point_fight(owner, other)
    assert fight.won and fight.source_card is find(game, "桃 ♥Q") and fight.source_rank == 12
    assert find(game, "殺 ♠7") in game.discard_pile  # the replaced card is discarded at once
