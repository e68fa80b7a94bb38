"""國戰: what the skills of a face-down general do. Offered skills (actions, conversions,
triggers, a locked trigger too) are invoked by showing the general; modifiers, prohibits and
filters wait for it to be face up; `while_hidden` acts face down; `show_in_play` lets the
general be shown in the play phase; `forbid reveal` stops showing; a skill on both generals
counts twice (seed 001 Q&A 11); the generals' skills can be lost (`lose_general_skills`)."""

from __future__ import annotations

import pytest
from checking import assert_located, check
from test_hegemony_mode import table

from sgs_dsl.compiler.library import load_library
from sgs_dsl.modes.hegemony import DEPUTY, HEAD


@pytest.fixture(scope="module")
def library():
    return load_library()


def test_a_face_down_locked_trigger_is_offered_and_its_modifier_waits(library) -> None:
    game = table(library, [("劉禪", "張飛"), ("曹操", "許褚")])
    p = game.players[0]
    assert "享樂" in {s.name for s in game.skills.skills_of(p)}  # a locked trigger: invoked by showing 劉禪
    assert "咆哮" not in {s.name for s in game.skills.skills_of(p)}  # a locked modifier only: waits face up
    assert game.skills.use_limit(p, library.cards["殺"]) == 1
    game.mode.show(game, p, DEPUTY)
    assert game.skills.use_limit(p, library.cards["殺"]) is None


def test_a_skill_on_both_face_up_generals_counts_twice(library) -> None:
    game = table(library, [("馬騰", "龐德"), ("曹操", "許褚"), ("孫權", "甘寧"), ("劉備", "關羽"), ("華佗", "呂布")])
    p = game.players[0]
    game.mode.show(game, p, HEAD)
    assert game.skills.modified(p, "distance_to", 0) == -1
    game.mode.show(game, p, DEPUTY)
    assert game.skills.modified(p, "distance_to", 0) == -2  # seed 001 Q&A 11: 疊加
    game.mode.remove(game, p, DEPUTY)
    assert game.skills.modified(p, "distance_to", 0) == -1


def test_show_in_play_offers_the_general_in_the_play_phase_only_while_it_is_face_down(library) -> None:
    game = table(library, [("劉備", "張飛"), ("曹操", "許褚")])
    p = game.players[0]
    labels = [o.label for o in game.mode.play_options(game, p)]
    assert labels == ["明置副將張飛"]  # 劉備's 仁德 is invoked, not shown bare
    game.mode.play_action(game, p, DEPUTY)
    assert game.mode.generals[0].shown == [False, True] and game.mode.play_options(game, p) == []


def test_lost_skills_leave_the_general_in_place(library) -> None:
    game = table(library, [("曹操", "許褚"), ("劉備", "關羽")])
    p = game.players[0]
    game.mode.show(game, p, HEAD)
    game.mode.lose_skills(game, p, HEAD)
    assert "奸雄" not in {s.name for s in game.skills.skills_of(p)}
    assert p.kingdom == "wei" and p.gender == "male" and game.mode.hidden_count(p) == 1
    assert "裸衣" in {s.name for s in game.skills.skills_of(p)}  # the other general's skills stay


def test_a_granted_skill_works_in_hegemony(library) -> None:
    game = table(library, [("曹操", "許褚"), ("劉備", "關羽")])
    p = game.players[0]
    p.skills = (*p.skills, library.skills["咆哮"])
    game.skills.changed_skills()
    assert game.skills.use_limit(p, library.cards["殺"]) is None  # on no general: not waiting for one


def test_forbid_reveal_takes_no_card_pattern(tmp_path) -> None:
    body = "  forbid reveal(殺) for others;"
    assert_located(check(tmp_path, body), body, "`forbid reveal` is about showing a general", "forbid reveal(any)")


def test_forbid_reveal_has_no_card_to_read(tmp_path) -> None:
    body = "  forbid reveal(any) for others when card is 殺;"
    found = check(tmp_path, body)
    assert found and "card" in found[0].message and found[0].span.line == 2


def test_the_new_tags_are_known_and_a_misspelt_one_is_located(tmp_path) -> None:
    from checking import check_text

    ok = 'skill 例 li locked while_hidden show_in_play "測試" {\n  modify hand_limit += 1;\n}\n'
    assert not [d for d in check_text(tmp_path, ok) if d.severity == "error"]
    bad = 'skill 例 li show_inplay "測試" {\n  modify hand_limit += 1;\n}\n'
    found = check_text(tmp_path, bad)
    assert found and "show_in_play" in found[0].hint
