"""Ranges, extra targets and distances (天義, 短兵, 奮迅, 度勢): the checker's located
errors for `modify range(CARD)`, `modify targets(CARD) += N where COND`, the `player` of a
distance modifier and `times_used`; and, at unit level, what each computes. Their effects in
play are the rulings of tests/rulings/generals_wu2.ruling."""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import assert_located, check
from table import make_table

from sgs_dsl.agents.random_agent import RandomAgent
from sgs_dsl.compiler.library import load_library
from sgs_dsl.core.defs import Ctx
from sgs_dsl.core.model import Phase, UsedCard
from sgs_dsl.engine.using import fills

SKILLS = '''\
skill 測距 ceju "測試：你計算與3號位的距離視為1。" {
  modify distance_to = 1 when player.seat == 3;
}
skill 測遠 ceyuan "測試：其他角色計算與你的距離視為3。" {
  modify distance_from = 3;
}
skill 測殺 cesha "測試：你使用【殺】無距離限制。" {
  modify range(殺) = unlimited;
}
skill 測目 cemu "測試：你使用【殺】可以多選擇一名體力為4的角色。" {
  modify targets(殺) += 1 where it.hp == 4;
}
'''


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("ranges")) / "ranges.sgs"
    path.write_text(SKILLS, encoding="utf-8")
    return load_library([path])


def table(library, skills: dict[int, list[str]], seats: int = 5):
    """A table of `seats`; `skills`: each seat's skills by id."""
    game = make_table(library, seats=[dict(role="lord")] + [dict() for _ in range(seats - 1)])
    for i, names in skills.items():
        game.players[i].skills = tuple(library.skills[n] for n in names)
    game.skills.changed_skills()
    return game


# ---------------------------------------------------------------- the checker

@pytest.mark.parametrize("body, message, hint", [
    ("  modify range(殺) += 1;", "`range` lifts the attack-range limit", "modify range(CARD) = unlimited"),
    ("  modify range = unlimited;", "`range` modifies one kind of card", ""),
    ("  modify targets(殺) -= 1 where distance(you, it) == 1;", "`where` is a condition on the target", "where distance"),
    ("  modify attack_range += 1 where distance(you, it) == 1;", "`where` is a condition on the target", ""),
    ("  modify targets(殺) += 1 where distance(you, it) == 1 for others;", "`where` is a condition on the target", ""),
    ("  modify limit(殺) += 1 where it.hp <= 1;", "`where` is a condition on the target", "modify targets(CARD)"),
    ("  modify range(殺) = unlimited where him.hp <= 1;", "unknown variable 'him'", "it"),
    ("  modify targets(殺) += 1 where distance(you, him) == 1;", "unknown variable 'him'", "it, user"),
    ("  modify attack_range += 1 when player.hp > 2;", "unknown variable 'player'", "here: you"),
    ("  view_as 殺 from 1 red in hand when times_used(you, 不存在) < 4;", "unknown skill '不存在'", ""),
])
def test_the_new_forms_are_checked_with_located_errors(tmp_path, body, message, hint):
    assert_located(check(tmp_path, body), body, message, hint)


@pytest.mark.parametrize("body", [
    "  modify targets(殺) += 1 where distance(you, it) == 1;",
    "  modify distance_to = 1 when player.hp == 1;",
    "  modify distance_from += 1 when player.hurt;",
    "  view_as 殺 from 1 red in hand when times_used(you, 例) < 4;",
    "  modify range(殺) = unlimited where it.hp <= 1;",
    "  modify limit(殺) = unlimited where distance(you, it) == 1;",
])
def test_the_new_forms_check_clean(tmp_path, body):
    assert [d for d in check(tmp_path, body) if d.severity == "error"] == []


# ---------------------------------------------------------------- distances set to a value

def test_a_distance_set_to_one_ignores_horses_and_binds_the_other_player(library):
    game = table(library, {0: ["ceju"]})
    me, third, fourth = game.players[0], game.players[2], game.players[3]
    assert (game.seats.distance(me, third), game.seats.distance(me, fourth)) == (1, 2)
    game.players[2].skills = (library.skills["ceyuan"],)  # others' distance to it would be 3
    game.skills.changed_skills()
    assert game.seats.distance(me, third) == 1 and game.seats.distance(game.players[1], third) == 3


# ---------------------------------------------------------------- the range of a card

def test_a_lifted_range_reaches_everyone_for_that_card_only(library):
    game = table(library, {0: ["cesha"]})
    me, far = game.players[0], game.players[2]
    sha, duel = (UsedCard.virtual(library.cards[n]) for n in ("殺", "決鬥"))
    assert game.seats.in_range(me, far, sha) and not game.seats.in_range(me, far, duel)
    assert not game.seats.in_range(me, far)  # an attack range asked with no card is unchanged
    rule = library.cards["殺"].mode("play").target
    assert far in game.using.legal_targets(me, rule, sha)


# ---------------------------------------------------------------- extra targets with a condition

def test_extra_targets_with_a_condition_fill_in_any_order(library):
    game = table(library, {})
    me, near, far, farther = game.players[:4]
    sha = UsedCard.virtual(library.cards["殺"])
    slots = [None, lambda ctx: ctx.vars["it"] is near]

    def ok(picks: list) -> bool:
        return fills(slots, picks, me, sha, game)

    assert ok([near, far]) and ok([far, near])
    assert not ok([far, farther])  # only one free slot for the two that miss the condition
    assert not ok([near, far, farther])  # more picks than slots


def test_a_conditioned_extra_target_is_counted_apart_from_the_free_ones(library):
    game = table(library, {0: ["cemu"]})
    me = game.players[0]
    sha = UsedCard.virtual(library.cards["殺"])
    assert game.skills.extra_targets(me, sha) == 0
    slots, skills = game.using.where_slots(me, sha)
    assert len(slots) == 1 and skills == ["測目"]
    game.players[1].hp = 3
    assert [slots[0](Ctx(game, {"it": p, "you": me})) for p in game.players[1:3]] == [False, True]


def test_times_used_counts_only_in_the_players_own_play_phase(library):
    game = table(library, {})
    me = game.players[0]
    me.used = {"skill:測殺": 1, "convert:測殺": 2}
    assert game.using.times_used(me, "測殺") == 0  # no phase is being played
    game.phase_now = "play"
    assert game.using.times_used(me, "測殺") == 3 and game.using.times_used(game.players[1], "測殺") == 0


# ---------------------------------------------------------------- `= N` on the other numbers

SET_SKILLS = '''\
skill 測範 cefan "測試：你的攻擊範圍為3。" {
  modify attack_range = 3;
}
skill 測加 cejia "測試：你的攻擊範圍+1，手牌上限+1，【殺】次數+1。" {
  modify attack_range += 1;
  modify hand_limit += 1;
  modify limit(殺) += 1;
}
skill 測限 cexian "測試：你的手牌上限為5；你使用【殺】的次數上限為2。" {
  modify hand_limit = 5;
  modify limit(殺) = 2;
}
skill 測小 cexiao "測試：你的手牌上限為2。" {
  modify hand_limit = 2;
}
skill 測多 ceduo "測試：你使用【殺】可以額外指定兩個目標。" {
  modify targets(殺) = 2;
}
'''


@pytest.fixture(scope="module")
def set_library(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("set")) / "set.sgs"
    path.write_text(SET_SKILLS, encoding="utf-8")
    return load_library([path])


@pytest.mark.parametrize("skills, expected", [
    ([], 1),
    (["cefan"], 3),  # the base is replaced
    (["cejia"], 2),
    (["cefan", "cejia"], 4),  # then += still counts
    (["cejia", "cefan"], 4),  # in either order
])
def test_attack_range_set_to_a_number_replaces_the_base(set_library, skills, expected):
    game = table(set_library, {0: skills})
    assert game.seats.attack_range(game.players[0]) == expected


def test_hand_limit_and_use_limit_set_to_a_number(set_library):
    game = table(set_library, {0: ["cexian", "cejia"], 1: ["cexian", "cexiao"], 2: ["cejia"]})
    a, b, c = game.players[:3]
    a.hp = b.hp = c.hp = 1
    sha = set_library.cards["殺"]
    assert game.skills.modified(a, "hand_limit", a.hp) == 6  # = 5, then += 1
    assert game.skills.modified(b, "hand_limit", b.hp) == 5  # the largest `=` of two
    assert game.skills.modified(c, "hand_limit", c.hp) == 2  # hp 1, += 1
    assert (game.skills.use_limit(a, sha), game.skills.use_limit(b, sha), game.skills.use_limit(c, sha)) == (3, 2, 2)


def test_extra_targets_set_to_a_number(set_library):
    game = table(set_library, {0: ["ceduo"]})
    assert game.skills.extra_targets(game.players[0], UsedCard.virtual(set_library.cards["殺"])) == 2
    assert game.skills.extra_targets(game.players[0], UsedCard.virtual(set_library.cards["決鬥"])) == 0


def test_the_discard_phase_keeps_a_hand_limit_set_to_a_number(set_library):
    game = table(set_library, {0: ["cexiao"]})
    me = game.players[0]
    me.hp = me.max_hp = 4
    game.agents[0] = RandomAgent(1)
    game.zones.draw(me, 6)
    game.turn._phase_discard(me, Phase("discard", me))
    assert len(me.hand) == 2  # the limit is 2, not hp 4 + 2


def test_range_and_distance_read_without_equipped_cards(tmp_path):
    """`without:` reads a range or a distance as if those equipped cards were gone: the weapon
    gives no range, the -1 horse no distance; nothing really moves."""
    text = ('skill 測離 celi "測試" {\n  active {\n'
            '    mark(you, "無劍範圍", attack_range(you, without: you.weapon));\n'
            '    let t = others(you)[2];\n    if t == none { stop; }\n'
            '    mark(you, "無馬距離", distance(you, t, without: cards_of(you, horses)));\n'
            '    mark(you, "距離", distance(you, t));\n    draw(you, marks(you, "無劍範圍"));\n  }\n}\n'
            'hero 測將 cejiang { kingdom 魏; gender male; hp 4; skills 測離; }\n')
    path = tmp_path / "without.sgs"
    path.write_text(text, encoding="utf-8")
    library = load_library([path])
    game = make_table(library, seats=[dict(role="lord", hero="測將", equips=["青釭劍 ♠6", "赤兔 ♥5"]),
                                      dict(), dict(), dict(), dict()])
    p = game.players[0]
    act = library.skills["測離"].actives[0]
    game.hp.run_block(act.body, Ctx(game, {"you": p}), "測離")
    # range 1 without 青釭劍 (2 with it); seat 3 is 2 away without 赤兔, 1 with it
    assert (p.marks["無劍範圍"], p.marks["無馬距離"], p.marks["距離"]) == (1, 2, 1)
    assert game.seats.attack_range(p) == 2 and not game.set_aside
