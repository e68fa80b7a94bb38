"""Scripted scenarios: every card of the Standard + EX deck, and the key rules of identity mode.

Each test builds an exact table with tests/table.py, drives a phase or a process of the kernel
with scripted answers, and checks hp, zones and the log; `finish` checks that every scripted
answer was used and that the 108 cards are each in exactly one zone."""

from __future__ import annotations

import pytest
from table import asked, equips, find, finish, journal, make_table, specs

from sgs_dsl.core.model import GameOver

M, F = "male", "female"


def play(game, seat: int) -> None:
    """Run seat's play phase (it becomes the current player)."""
    game.current = game.players[seat]
    game.turn.run_phase(game.players[seat], "play")


def seat(**kw) -> dict:
    return kw


def four(*hands, **kw):
    """A four-seat table (lord, loyalist, rebel, renegade) with the given hands."""
    roles = ("lord", "loyalist", "rebel", "renegade")
    seats = [dict(role=roles[i], hand=list(h)) for i, h in enumerate(hands)]
    for i, extra in kw.pop("extra", {}).items():
        seats[i].update(extra)
    return make_table(seats=seats, **kw)


def options(game, seat: int, kind: str, n: int = 0) -> list[str]:
    """The labels of the n-th question of `kind` put to seat."""
    return asked(game, seat, kind)[n].labels()


# ============================================================== 殺 閃 桃


def test_sha_hits_without_shan():
    g = four(["殺 ♠7"], [], [], [], answers={0: ["【殺】♠7", "2號位"]})
    play(g, 0)
    assert g.players[1].hp == 3
    assert specs(g.discard_pile) == ["殺 ♠7"]
    assert "1號位無將(男)對2號位無將(男)造成1點傷害（體力3/4）" in g.lines
    finish(g)


def test_shan_cancels_sha():
    g = four(["殺 ♠7"], ["閃 ♦2", "殺 ♣2"], [], [],
             answers={0: ["【殺】♠7", "2號位"], 1: ["使用【閃】♦2"]})
    play(g, 0)
    assert g.players[1].hp == 4
    assert specs(g.players[1].hand) == ["殺 ♣2"]
    assert specs(g.discard_pile) == ["閃 ♦2", "殺 ♠7"]  # the 閃 resolves first
    assert "【殺】♠7對2號位無將(男)的效果被抵消" in g.lines
    finish(g)


def test_sha_once_per_play_phase():
    g = four(["殺 ♠7", "殺 ♠8"], [], [], [], answers={0: ["【殺】♠7", "2號位"]})
    play(g, 0)
    assert options(g, 0, "play", 0) == ["【殺】♠7", "【殺】♠8", "結束出牌"]
    # the second question offers no 殺 any more; only one option left, so it was not even asked
    assert len(asked(g, 0, "play")) == 1
    assert specs(g.players[0].hand) == ["殺 ♠8"]
    finish(g)


def test_sha_limit_resets_next_play_phase():
    g = four(["殺 ♠7", "殺 ♠8"], [], [], [],
             answers={0: ["【殺】♠7", "2號位", "【殺】♠8", "2號位"]})
    play(g, 0)
    play(g, 0)
    assert g.players[1].hp == 2
    finish(g)


def test_sha_attack_range_without_weapon():
    # four seats: seats 2 and 4 are at distance 1 from seat 1, seat 3 at distance 2
    g = four(["殺 ♠7"], [], [], [], answers={0: ["【殺】♠7", "4號位"]})
    play(g, 0)
    assert options(g, 0, "target") == ["2號位無將(男)", "4號位無將(男)"]
    assert g.players[3].hp == 3
    finish(g)


def test_sha_out_of_range_is_not_offered():
    g = make_table(seats=[seat(role="lord", hand=["殺 ♠7"]), seat(role="rebel", equips=["絕影 ♠5"]),
                          seat(role="loyalist")],
                   answers={0: ["【殺】♠7"]})
    play(g, 0)
    # seat 2 has a +1 horse: distance 2 > range 1; seat 3 is the only target, so it is not asked
    assert g.seats.distance(g.players[0], g.players[1]) == 2
    assert asked(g, 0, "target") == []
    assert g.players[2].hp == 3 and g.players[1].hp == 4
    finish(g)


def test_tao_not_usable_at_full_hp_in_play_phase():
    g = four(["桃 ♥3", "殺 ♠7"], [], [], [], answers={0: ["結束出牌"]})
    play(g, 0)
    assert options(g, 0, "play") == ["【殺】♠7", "結束出牌"]
    finish(g)


def test_tao_recovers_when_hurt():
    g = four(["桃 ♥3", "殺 ♠7"], [], [], [], extra={0: dict(hp=2)},
             answers={0: ["【桃】♥3", "結束出牌"]})
    play(g, 0)
    assert options(g, 0, "play") == ["【桃】♥3", "【殺】♠7", "結束出牌"]
    assert g.players[0].hp == 3
    assert specs(g.discard_pile) == ["桃 ♥3"]
    finish(g)


# ============================================================== dying and death


def test_dying_asks_from_current_player_and_needs_two_tao_at_minus_one():
    # seat 1 (current) deals 2 damage to seat 3 at 1 hp: hp -1, two 桃 needed
    g = four([], ["桃 ♥3", "桃 ♥4"], [], ["桃 ♥6"], extra={0: dict(hand=["桃 ♥7"]), 2: dict(hp=1)},
             answers={0: ["不使用"], 1: ["使用【桃】♥3", "不使用"], 3: ["使用【桃】♥6"]})
    g.current = g.players[0]
    g.hp.damage(g.players[2], 2, source=g.players[0])
    p3 = g.players[2]
    assert p3.alive and p3.hp == 1 and not p3.dying
    # asked in seat order from the current player: seat 1, seat 2 (twice: it saved once, then
    # declined), then seat 4 who saved; seat 3 (no 桃) is never asked
    assert journal(g) == [(0, "save", "不使用"), (1, "save", "使用【桃】♥3"), (1, "save", "不使用"),
                         (3, "save", "使用【桃】♥6")]
    saves = [line for line in g.lines if "使用【桃】" in line]
    assert saves == ["2號位無將(男)使用【桃】♥3，目標：3號位無將(男)", "4號位無將(男)使用【桃】♥6，目標：3號位無將(男)"]
    assert specs(g.players[1].hand) == ["桃 ♥4"]
    finish(g)


def test_dying_order_starts_at_current_player_not_seat_one():
    # seat 3 is the current player; seat 2 is dying; seat 3 is asked before seat 1
    g = four(["桃 ♥3"], [], ["桃 ♥4"], [], extra={1: dict(hp=1)},
             answers={0: ["使用【桃】♥3"], 2: ["不使用"]})
    g.current = g.players[2]
    g.hp.damage(g.players[1], 1, source=g.players[2])
    assert journal(g) == [(2, "save", "不使用"), (0, "save", "使用【桃】♥3")]
    assert g.players[1].hp == 1
    finish(g)


def test_dying_without_rescue_dies_and_rebel_killer_draws_three():
    g = make_table(seats=[seat(role="lord", hand=["殺 ♠7"], equips=["赤兔 ♥5"]), seat(role="loyalist"),
                          seat(role="rebel", hp=1, hand=["閃 ♦5"], equips=["八卦陣 ♣2"]),
                          seat(role="renegade")],
                   deck_top=["閃 ♥2", "閃 ♦2", "閃 ♦3", "閃 ♦4"],
                   answers={0: ["【殺】♠7", "3號位"], 2: ["不發動", "不使用"]})
    play(g, 0)
    rebel = g.players[2]
    assert not rebel.alive
    assert rebel.hand == [] and rebel.equips == {}
    assert "3號位無將(男)陣亡，身份是反賊" in g.lines
    assert specs(g.players[0].hand) == ["閃 ♥2", "閃 ♦2", "閃 ♦3"]
    assert set(specs(g.discard_pile)) == {"殺 ♠7", "閃 ♦5", "八卦陣 ♣2"}
    finish(g)


def test_anyone_killing_a_rebel_draws_three_even_a_rebel():
    g = make_table(seats=[seat(role="lord"), seat(role="rebel", hand=["殺 ♠7"]), seat(role="rebel", hp=1),
                          seat(role="renegade")],
                   deck_top=["閃 ♥2", "閃 ♦2", "閃 ♦3"], answers={1: ["【殺】♠7", "3號位"]})
    play(g, 1)
    assert not g.players[2].alive
    assert specs(g.players[1].hand) == ["閃 ♥2", "閃 ♦2", "閃 ♦3"]
    finish(g)


def test_lord_killing_loyalist_discards_all_hand_and_equipment():
    g = make_table(seats=[seat(role="lord", hand=["殺 ♠7", "閃 ♦2", "桃 ♥3"], equips=["諸葛連弩 ♣A", "絕影 ♠5"],
                               judge=["樂不思蜀 ♠6"]),
                          seat(role="loyalist", hp=1), seat(role="rebel"), seat(role="renegade")],
                   answers={0: ["【殺】♠7", "2號位", "不使用"]})
    play(g, 0)
    lord = g.players[0]
    assert "主公1號位無將(男)除掉忠臣，棄置所有手牌和裝備" in g.lines
    assert not g.players[1].alive
    assert lord.hand == [] and lord.equips == {}
    assert specs(lord.judge) == ["樂不思蜀 ♠6"]  # the judge area is kept
    assert {"閃 ♦2", "桃 ♥3", "諸葛連弩 ♣A", "絕影 ♠5"} <= set(specs(g.discard_pile))
    finish(g)


def test_no_penalty_when_a_loyalist_kills_a_loyalist():
    g = make_table(seats=[seat(role="lord"), seat(role="loyalist", hand=["殺 ♠7", "閃 ♦2"]),
                          seat(role="loyalist", hp=1), seat(role="rebel"), seat(role="renegade")],
                   answers={1: ["【殺】♠7", "3號位"]})
    play(g, 1)
    assert not g.players[2].alive
    assert specs(g.players[1].hand) == ["閃 ♦2"]
    finish(g)


def test_victory_renegade_when_lord_dies_and_renegade_is_sole_survivor():
    g = make_table(seats=[seat(role="lord", hp=1), seat(role="rebel", hp=0), seat(role="renegade", hand=["殺 ♠7"])],
                   answers={2: ["【殺】♠7"]})
    g.players[1].alive = False
    with pytest.raises(GameOver) as over:
        play(g, 2)
    assert over.value.winner == "renegade"
    assert g.players[0].hand == [] and g.players[0].equips == {}
    finish(g)


def test_victory_rebel_when_lord_dies_with_renegade_not_alone():
    g = make_table(seats=[seat(role="lord", hp=1), seat(role="loyalist"), seat(role="renegade", hand=["殺 ♠7"])],
                   answers={2: ["【殺】♠7", "1號位"]})
    with pytest.raises(GameOver) as over:
        play(g, 2)
    assert over.value.winner == "rebel"
    finish(g)


def test_victory_rebel_even_if_all_rebels_are_dead():
    g = make_table(seats=[seat(role="lord", hp=1), seat(role="rebel"), seat(role="renegade"),
                          seat(role="loyalist", hand=["決鬥 ♠A"])],
                   answers={3: ["【決鬥】♠A", "1號位"]})
    g.players[1].alive = False
    with pytest.raises(GameOver) as over:
        play(g, 3)
    assert over.value.winner == "rebel"
    finish(g)


def test_victory_lord_when_rebels_and_renegades_are_dead():
    g = make_table(seats=[seat(role="lord", hand=["殺 ♠7"]), seat(role="rebel", hp=1), seat(role="loyalist"),
                          seat(role="renegade")],
                   answers={0: ["【殺】♠7", "2號位"]})
    g.players[3].alive = False
    with pytest.raises(GameOver) as over:
        play(g, 0)
    assert over.value.winner == "lord"
    assert not g.players[1].alive and g.players[1].hand == []
    assert g.players[0].hand == []  # the game ended before any reward
    finish(g)


def test_game_goes_on_while_a_renegade_lives():
    g = make_table(seats=[seat(role="lord", hand=["殺 ♠7"]), seat(role="rebel", hp=1), seat(role="renegade")],
                   deck_top=["閃 ♥2", "閃 ♦2", "閃 ♦3"], answers={0: ["【殺】♠7", "2號位"]})
    play(g, 0)
    assert not g.players[1].alive and g.players[2].alive
    assert len(g.players[0].hand) == 3
    finish(g)


# ============================================================== the deck and the turn


def test_deck_reshuffles_discard_pile_when_empty():
    g = four([], [], [], [])
    rest = g.deck[:-1]
    del g.deck[:-1]
    g.discard_pile.extend(rest)
    last = g.deck[-1]
    drawn = g.zones.draw(g.players[0], 2)
    assert drawn[0] is last
    assert any("棄牌堆洗混成為新的牌堆" in line for line in g.lines)
    assert g.discard_pile == []
    assert len(g.deck) == len(rest) - 1
    finish(g)


def test_draw_phase_draws_two_from_the_top():
    g = four([], [], [], [], deck_top=["桃 ♥3", "閃 ♦2", "殺 ♠7"])
    g.turn.run_phase(g.players[0], "draw")
    assert specs(g.players[0].hand) == ["桃 ♥3", "閃 ♦2"]
    assert specs(g.deck[-1:]) == ["殺 ♠7"]
    finish(g)


def test_discard_phase_down_to_hp():
    g = four(["殺 ♠7", "殺 ♠8", "閃 ♦2", "桃 ♥3", "決鬥 ♠A"], [], [], [], extra={0: dict(hp=2)},
             answers={0: ["【殺】♠8", "【決鬥】♠A", "【殺】♠7"]})
    g.turn.run_phase(g.players[0], "discard")
    assert specs(g.players[0].hand) == ["閃 ♦2", "桃 ♥3"]
    assert specs(g.discard_pile) == ["殺 ♠8", "決鬥 ♠A", "殺 ♠7"]
    finish(g)


def test_no_discard_when_hand_within_hp():
    g = four(["殺 ♠7", "殺 ♠8"], [], [], [], extra={0: dict(hp=2)})
    g.turn.run_phase(g.players[0], "discard")
    assert len(g.players[0].hand) == 2 and asked(g, 0) == []
    finish(g)


def test_whole_turn_draw_play_discard():
    g = four(["殺 ♠7"], [], [], [], extra={0: dict(hp=1)}, deck_top=["決鬥 ♠A", "閃 ♦2"],
             answers={0: ["【殺】♠7", "2號位", "結束出牌", "【決鬥】♠A"]})
    g.turn.play_turn(g.players[0])
    assert g.players[1].hp == 3
    assert specs(g.players[0].hand) == ["閃 ♦2"]
    assert specs(g.discard_pile) == ["殺 ♠7", "決鬥 ♠A"]
    finish(g)


# ============================================================== equipment, distance


def test_equip_weapon_and_replacement_discards_the_old_one():
    g = four(["青釭劍 ♠6", "麒麟弓 ♥5"], [], [], [], answers={0: ["【青釭劍】♠6", "【麒麟弓】♥5"]})
    play(g, 0)
    assert equips(g.players[0]) == {"weapon": "麒麟弓 ♥5"}
    assert specs(g.discard_pile) == ["青釭劍 ♠6"]
    assert "【青釭劍】♠6被替換，置入棄牌堆" in g.lines
    assert g.seats.attack_range(g.players[0]) == 5
    finish(g)


def test_horses_of_both_kinds_live_side_by_side_and_replace_their_own_kind():
    g = four(["赤兔 ♥5", "絕影 ♠5", "的盧 ♣5"], [], [], [],
             answers={0: ["【赤兔】♥5", "【絕影】♠5", "【的盧】♣5"]})
    play(g, 0)
    assert equips(g.players[0]) == {"offense_horse": "赤兔 ♥5", "defense_horse": "的盧 ♣5"}
    assert specs(g.discard_pile) == ["絕影 ♠5"]
    finish(g)


@pytest.mark.parametrize("horse", ["絕影 ♠5", "的盧 ♣5", "爪黃飛電 ♥K"])
def test_defense_horse_adds_one_to_others_distance(horse):
    g = four([], [], [], [], extra={1: dict(equips=[horse])})
    a, b = g.players[0], g.players[1]
    assert g.seats.distance(a, b) == 2
    assert g.seats.distance(b, a) == 1
    assert g.seats.distance(a, g.players[2]) == 2
    assert not g.seats.in_range(a, b)
    finish(g)


@pytest.mark.parametrize("horse", ["赤兔 ♥5", "大宛 ♠K", "紫騂 ♦K"])
def test_offense_horse_takes_one_from_own_distance(horse):
    g = four(["殺 ♠7"], [], [], [], extra={0: dict(equips=[horse])},
             answers={0: ["【殺】♠7", "3號位"]})
    a = g.players[0]
    assert g.seats.distance(a, g.players[2]) == 1
    assert g.seats.distance(g.players[2], a) == 2
    assert g.seats.distance(a, g.players[1]) == 1  # never below 1
    play(g, 0)
    assert options(g, 0, "target") == ["2號位無將(男)", "3號位無將(男)", "4號位無將(男)"]
    assert g.players[2].hp == 3
    finish(g)


def test_horses_cancel_out():
    g = four([], [], [], [], extra={0: dict(equips=["赤兔 ♥5"]), 2: dict(equips=["絕影 ♠5"])})
    assert g.seats.distance(g.players[0], g.players[2]) == 2  # 2 - 1 + 1
    assert g.seats.distance(g.players[2], g.players[0]) == 2  # 赤兔 counts only for its owner
    finish(g)


def test_distance_counts_only_living_players():
    g = four([], [], [], [])
    assert g.seats.distance(g.players[0], g.players[2]) == 2
    g.players[1].alive = False
    assert g.seats.distance(g.players[0], g.players[2]) == 1
    finish(g)


# ============================================================== weapons


def test_zhuge_liannu_unlimited_sha():
    g = four(["殺 ♠7", "殺 ♠8", "殺 ♠9"], [], [], [], extra={0: dict(equips=["諸葛連弩 ♣A"])},
             answers={0: ["【殺】♠7", "2號位", "【殺】♠8", "2號位", "【殺】♠9", "4號位"]})
    play(g, 0)
    assert g.players[1].hp == 2 and g.players[3].hp == 3
    assert g.players[0].hand == []
    finish(g)


def test_zhuge_liannu_range_is_one():
    g = four([], [], [], [], extra={0: dict(equips=["諸葛連弩 ♦A"])})
    assert g.seats.attack_range(g.players[0]) == 1
    assert not g.seats.in_range(g.players[0], g.players[2])
    finish(g)


@pytest.mark.parametrize("weapon,reach", [("青釭劍 ♠6", 2), ("雌雄雙股劍 ♠2", 2), ("寒冰劍 ♠2", 2),
                                          ("貫石斧 ♦5", 3), ("青龍偃月刀 ♠5", 3), ("丈八蛇矛 ♠Q", 3),
                                          ("方天畫戟 ♦Q", 4), ("麒麟弓 ♥5", 5)])
def test_weapon_ranges(weapon, reach):
    g = four([], [], [], [], extra={0: dict(equips=[weapon])})
    assert g.seats.attack_range(g.players[0]) == reach
    finish(g)


def test_qinggang_jian_ignores_bagua_zhen():
    g = four(["殺 ♠7"], ["閃 ♦2"], [], [], extra={0: dict(equips=["青釭劍 ♠6"]), 1: dict(equips=["八卦陣 ♠2"])},
             deck_top=["桃 ♥3"], answers={0: ["【殺】♠7", "2號位"], 1: ["不使用"]})
    play(g, 0)
    assert g.players[1].hp == 3
    # 八卦陣 was never offered (no 是/否 question), and no judgement drew the top card
    assert asked(g, 1, "invoke") == []
    assert specs(g.deck[-1:]) == ["桃 ♥3"]
    finish(g)


def test_qinggang_jian_ignores_renwang_dun():
    g = four(["殺 ♠7"], [], [], [], extra={0: dict(equips=["青釭劍 ♠6"]), 1: dict(equips=["仁王盾 ♣2"])},
             answers={0: ["【殺】♠7", "2號位"]})
    play(g, 0)
    assert g.players[1].hp == 3
    finish(g)


def test_armor_works_again_after_qinggang_sha():
    g = four(["殺 ♠7", "決鬥 ♠A"], ["殺 ♣2"], [], [], extra={0: dict(equips=["青釭劍 ♠6"]),
                                                         1: dict(equips=["仁王盾 ♣2"])},
             answers={0: ["【殺】♠7", "2號位", "結束出牌"]})
    play(g, 0)
    assert not g.skills.armor_ignored(g.players[1])
    assert "仁王盾" in [s.name for s in g.skills.skills_of(g.players[1])]
    finish(g)


def test_cixiong_target_discards():
    g = four(["殺 ♠7"], ["閃 ♦2", "殺 ♣2"], [], [],
             extra={0: dict(equips=["雌雄雙股劍 ♠2"]), 1: dict(gender=F)},
             answers={0: ["【殺】♠7", "2號位", "發動"], 1: ["棄置一張手牌", "【殺】♣2", "不使用"]})
    play(g, 0)
    assert specs(g.players[1].hand) == ["閃 ♦2"]
    assert g.players[0].hand == []
    assert g.players[1].hp == 3
    finish(g)


def test_cixiong_target_lets_user_draw():
    g = four(["殺 ♠7"], ["閃 ♦2"], [], [], extra={0: dict(equips=["雌雄雙股劍 ♠2"]), 1: dict(gender=F)},
             deck_top=["桃 ♥3"],
             answers={0: ["【殺】♠7", "2號位", "發動"], 1: ["令對方摸一張牌", "使用【閃】♦2"]})
    play(g, 0)
    assert specs(g.players[0].hand) == ["桃 ♥3"]
    assert g.players[1].hp == 4
    finish(g)


def test_cixiong_not_offered_against_same_gender():
    g = four(["殺 ♠7"], ["閃 ♦2"], [], [], extra={0: dict(equips=["雌雄雙股劍 ♠2"])},
             answers={0: ["【殺】♠7", "2號位"]})
    play(g, 0)
    assert asked(g, 0, "invoke") == [] and asked(g, 1, "invoke") == []
    finish(g)


def test_cixiong_target_without_hand_cards():
    g = four(["殺 ♠7"], [], [], [], extra={0: dict(equips=["雌雄雙股劍 ♠2"]), 1: dict(gender=F)},
             deck_top=["桃 ♥3"], answers={0: ["【殺】♠7", "2號位", "發動"]})
    play(g, 0)
    assert specs(g.players[0].hand) == ["桃 ♥3"]
    finish(g)


def test_guanshi_fu_hits_after_shan():
    g = four(["殺 ♠7", "閃 ♦3", "桃 ♥3"], ["閃 ♦2"], [], [], extra={0: dict(equips=["貫石斧 ♦5"])},
             answers={0: ["【殺】♠7", "2號位", "發動", "【閃】♦3"], 1: ["使用【閃】♦2"]})
    play(g, 0)
    assert g.players[1].hp == 3
    assert equips(g.players[0]) == {"weapon": "貫石斧 ♦5"}
    assert set(specs(g.discard_pile)) == {"殺 ♠7", "閃 ♦2", "閃 ♦3", "桃 ♥3"}
    assert "【殺】♠7依然生效" in g.lines
    finish(g)


def test_guanshi_fu_declined():
    g = four(["殺 ♠7", "閃 ♦3", "桃 ♥3"], ["閃 ♦2"], [], [], extra={0: dict(equips=["貫石斧 ♦5"])},
             answers={0: ["【殺】♠7", "2號位", "不發動"], 1: ["使用【閃】♦2"]})
    play(g, 0)
    assert g.players[1].hp == 4 and len(g.players[0].hand) == 2
    finish(g)


def test_qinglong_sha_again_after_shan():
    g = four(["殺 ♠7", "殺 ♠8"], ["閃 ♦2"], [], [], extra={0: dict(equips=["青龍偃月刀 ♠5"])},
             answers={0: ["【殺】♠7", "2號位", "發動", "使用【殺】♠8"], 1: ["使用【閃】♦2"]})
    play(g, 0)
    assert g.players[1].hp == 3
    assert g.players[0].hand == []
    finish(g)


def test_qinglong_chain_continues_after_each_shan():
    g = four(["殺 ♠7", "殺 ♠8", "殺 ♠9"], ["閃 ♦2", "閃 ♦3"], [], [], extra={0: dict(equips=["青龍偃月刀 ♠5"])},
             answers={0: ["【殺】♠7", "2號位", "發動", "使用【殺】♠8", "發動", "使用【殺】♠9"],
                      1: ["使用【閃】♦2", "使用【閃】♦3"]})
    play(g, 0)
    assert g.players[1].hp == 3 and g.players[1].hand == []
    finish(g)


def test_zhangba_two_hand_cards_as_sha():
    g = four(["閃 ♦3", "桃 ♥3"], [], [], [], extra={0: dict(equips=["丈八蛇矛 ♠Q"])},
             answers={0: ["【丈八蛇矛】視為【殺】", "【閃】♦3", "2號位"]})
    play(g, 0)
    assert g.players[1].hp == 3
    assert g.players[0].hand == []
    assert set(specs(g.discard_pile)) == {"閃 ♦3", "桃 ♥3"}
    finish(g)


def test_zhangba_sha_played_out_in_duel():
    g = four(["決鬥 ♠A"], ["殺 ♣2", "閃 ♦3"], [], [], extra={1: dict(equips=["丈八蛇矛 ♠Q"])},
             answers={0: ["【決鬥】♠A", "2號位"], 1: ["打出【丈八蛇矛】視為【殺】", "【閃】♦3"]})
    play(g, 0)
    assert g.players[0].hp == 3 and g.players[1].hp == 4
    finish(g)


def test_fangtian_three_targets_with_last_hand_card():
    g = make_table(seats=[seat(role="lord", hand=["殺 ♠7"], equips=["方天畫戟 ♦Q"]), seat(), seat(), seat(), seat()],
                   answers={0: ["【殺】♠7", "2號位", "3號位", "5號位"]})
    play(g, 0)
    assert [p.hp for p in g.players] == [4, 3, 3, 4, 3]
    finish(g)


def test_fangtian_no_extra_targets_when_not_last_card():
    g = make_table(seats=[seat(role="lord", hand=["殺 ♠7", "閃 ♦2"], equips=["方天畫戟 ♦Q"]), seat(), seat(), seat()],
                   answers={0: ["【殺】♠7", "3號位"]})
    play(g, 0)
    assert len(asked(g, 0, "target")) == 1
    assert [p.hp for p in g.players] == [4, 4, 3, 4]
    finish(g)


def test_qilin_gong_discards_a_horse():
    g = four(["殺 ♠7"], [], [], [], extra={0: dict(equips=["麒麟弓 ♥5"]), 2: dict(equips=["絕影 ♠5", "赤兔 ♥5"])},
             answers={0: ["【殺】♠7", "3號位", "發動", "【絕影】♠5"]})
    play(g, 0)
    assert g.players[2].hp == 3
    assert equips(g.players[2]) == {"offense_horse": "赤兔 ♥5"}
    assert "絕影 ♠5" in specs(g.discard_pile)
    finish(g)


def test_hanbing_jian_prevents_damage_and_discards_two():
    g = four(["殺 ♠7"], ["桃 ♥3"], [], [], extra={0: dict(equips=["寒冰劍 ♠2"]), 1: dict(equips=["八卦陣 ♣2"])},
             deck_top=["殺 ♠8"],
             answers={0: ["【殺】♠7", "2號位", "發動", "手牌1"], 1: ["發動"]})
    play(g, 0)
    p = g.players[1]
    assert p.hp == 4
    assert p.hand == [] and p.equips == {}
    assert "1號位無將(男)對2號位無將(男)的1點傷害被防止" in g.lines
    finish(g)


def test_hanbing_jian_declined_deals_damage():
    g = four(["殺 ♠7"], ["桃 ♥3"], [], [], extra={0: dict(equips=["寒冰劍 ♠2"])},
             answers={0: ["【殺】♠7", "2號位", "不發動"]})
    play(g, 0)
    assert g.players[1].hp == 3 and len(g.players[1].hand) == 1
    finish(g)


# ============================================================== armour


def test_bagua_zhen_red_judgement_is_a_shan():
    g = four(["殺 ♠7"], [], [], [], extra={1: dict(equips=["八卦陣 ♠2"])}, deck_top=["桃 ♥3"],
             answers={0: ["【殺】♠7", "2號位"], 1: ["發動"]})
    play(g, 0)
    assert g.players[1].hp == 4
    assert "2號位無將(男)的判定牌是【桃】♥3" in g.lines
    assert "【殺】♠7對2號位無將(男)的效果被抵消" in g.lines
    assert set(specs(g.discard_pile)) == {"殺 ♠7", "桃 ♥3"}
    finish(g)


def test_bagua_zhen_black_judgement_then_a_real_shan():
    g = four(["殺 ♠7"], ["閃 ♦2"], [], [], extra={1: dict(equips=["八卦陣 ♠2"])}, deck_top=["殺 ♠8"],
             answers={0: ["【殺】♠7", "2號位"], 1: ["發動", "使用【閃】♦2"]})
    play(g, 0)
    assert g.players[1].hp == 4 and g.players[1].hand == []
    finish(g)


def test_bagua_zhen_black_judgement_no_shan():
    g = four(["殺 ♠7"], [], [], [], extra={1: dict(equips=["八卦陣 ♠2"])}, deck_top=["殺 ♠8"],
             answers={0: ["【殺】♠7", "2號位"], 1: ["發動"]})
    play(g, 0)
    assert g.players[1].hp == 3
    finish(g)


def test_bagua_zhen_answers_wanjian():
    g = four(["萬箭齊發 ♥A"], [], [], [], extra={1: dict(equips=["八卦陣 ♠2"])}, deck_top=["閃 ♦2"],
             answers={0: ["【萬箭齊發】♥A"], 1: ["發動"]})
    play(g, 0)
    assert [p.hp for p in g.players] == [4, 4, 3, 3]
    assert "2號位無將(男)打出【閃】(視為)" in g.lines
    finish(g)


def test_renwang_dun_black_sha_has_no_effect():
    g = four(["殺 ♠7"], ["閃 ♦2"], [], [], extra={1: dict(equips=["仁王盾 ♣2"])},
             answers={0: ["【殺】♠7", "2號位"]})
    play(g, 0)
    assert g.players[1].hp == 4
    assert asked(g, 1) == []  # not even asked for a 閃
    assert "【殺】♠7對2號位無將(男)無效" in g.lines
    finish(g)


def test_renwang_dun_red_sha_still_hits():
    g = four(["殺 ♥10"], [], [], [], extra={1: dict(equips=["仁王盾 ♣2"])},
             answers={0: ["【殺】♥10", "2號位"]})
    play(g, 0)
    assert g.players[1].hp == 3
    finish(g)


def test_renwang_dun_does_not_stop_duel():
    g = four(["決鬥 ♠A"], [], [], [], extra={1: dict(equips=["仁王盾 ♣2"])},
             answers={0: ["【決鬥】♠A", "2號位"]})
    play(g, 0)
    assert g.players[1].hp == 3
    finish(g)


# ============================================================== tricks


def test_juedou_alternating_sha():
    g = four(["決鬥 ♠A", "殺 ♠7"], ["殺 ♣2"], [], [],
             answers={0: ["【決鬥】♠A", "2號位", "打出【殺】♠7"], 1: ["打出【殺】♣2"]})
    play(g, 0)
    assert g.players[1].hp == 3 and g.players[0].hp == 4
    assert set(specs(g.discard_pile)) == {"決鬥 ♠A", "殺 ♠7", "殺 ♣2"}
    assert "2號位無將(男)打出【殺】♣2" in g.lines
    finish(g)


def test_juedou_user_loses():
    g = four(["決鬥 ♠A"], ["殺 ♣2"], [], [], answers={0: ["【決鬥】♠A", "2號位"], 1: ["打出【殺】♣2"]})
    play(g, 0)
    assert g.players[0].hp == 3 and g.players[1].hp == 4
    assert "2號位無將(男)對1號位無將(男)造成1點傷害（體力3/4）" in g.lines
    finish(g)


def test_juedou_does_not_count_as_sha_use():
    g = four(["決鬥 ♠A", "殺 ♠7", "殺 ♠8"], ["殺 ♣2"], [], [],
             answers={0: ["【決鬥】♠A", "2號位", "打出【殺】♠7", "【殺】♠8", "2號位"], 1: ["打出【殺】♣2"]})
    play(g, 0)
    assert g.players[1].hp == 2
    finish(g)


def test_guohe_chaiqiao_discards_equipment():
    g = four(["過河拆橋 ♠3"], ["閃 ♦2"], [], [], extra={1: dict(equips=["八卦陣 ♠2"], judge=["樂不思蜀 ♠6"])},
             answers={0: ["【過河拆橋】♠3", "【八卦陣】♠2"]})
    play(g, 0)
    assert options(g, 0, "pick_card") == ["手牌1", "【八卦陣】♠2", "【樂不思蜀】♠6"]
    assert g.players[1].equips == {}
    assert set(specs(g.discard_pile)) == {"過河拆橋 ♠3", "八卦陣 ♠2"}
    finish(g)


def test_guohe_chaiqiao_discards_a_judge_card_and_needs_cards():
    g = four(["過河拆橋 ♠3"], [], [], [], extra={1: dict(judge=["樂不思蜀 ♠6"])},
             answers={0: ["【過河拆橋】♠3"]})
    play(g, 0)
    # only seat 2 has cards in their area: the only target, the only card
    assert g.players[1].judge == []
    assert "樂不思蜀 ♠6" in specs(g.discard_pile)
    finish(g)


def test_guohe_chaiqiao_hand_card_is_hidden_and_discarded():
    g = four(["過河拆橋 ♠3"], ["閃 ♦2", "桃 ♥3"], [], [], answers={0: ["【過河拆橋】♠3", "手牌2"]})
    play(g, 0)
    assert specs(g.players[1].hand) == ["閃 ♦2"]
    assert "桃 ♥3" in specs(g.discard_pile)
    finish(g)


def test_shunshou_qianyang_distance_one():
    g = four(["順手牽羊 ♠3"], ["閃 ♦2"], ["桃 ♥3"], ["殺 ♣2"],
             answers={0: ["【順手牽羊】♠3", "4號位", "結束出牌"]})
    play(g, 0)
    assert options(g, 0, "target") == ["2號位無將(男)", "4號位無將(男)"]
    assert specs(g.players[0].hand) == ["殺 ♣2"]
    assert g.players[3].hand == []
    finish(g)


def test_shunshou_qianyang_takes_equipment_with_offense_horse():
    g = four(["順手牽羊 ♠3"], [], ["桃 ♥3"], [], extra={0: dict(equips=["赤兔 ♥5"]), 2: dict(equips=["諸葛連弩 ♣A"])},
             answers={0: ["【順手牽羊】♠3", "【諸葛連弩】♣A", "結束出牌"]})
    play(g, 0)
    assert specs(g.players[0].hand) == ["諸葛連弩 ♣A"]
    assert g.players[2].equips == {}
    finish(g)


def test_wuzhong_shengyou_draws_two():
    g = four(["無中生有 ♥7"], [], [], [], deck_top=["桃 ♥3", "閃 ♦2"], answers={0: ["【無中生有】♥7"]})
    play(g, 0)
    assert specs(g.players[0].hand) == ["桃 ♥3", "閃 ♦2"]
    assert specs(g.discard_pile) == ["無中生有 ♥7"]
    finish(g)


def test_jiedao_sharen_target_uses_sha():
    g = four(["借刀殺人 ♣Q"], ["殺 ♣2"], [], [], extra={1: dict(equips=["青龍偃月刀 ♠5"])},
             answers={0: ["【借刀殺人】♣Q", "3號位"], 1: ["使用【殺】♣2"]})
    play(g, 0)
    assert options(g, 0, "target") == ["1號位無將(男)", "3號位無將(男)", "4號位無將(男)"]
    assert g.players[2].hp == 3
    assert equips(g.players[1]) == {"weapon": "青龍偃月刀 ♠5"}
    finish(g)


def test_jiedao_sharen_refused_weapon_goes_to_user():
    g = four(["借刀殺人 ♣Q"], ["殺 ♣2"], [], [], extra={1: dict(equips=["青龍偃月刀 ♠5"])},
             answers={0: ["【借刀殺人】♣Q", "3號位", "結束出牌"], 1: ["不使用"]})
    play(g, 0)
    assert g.players[2].hp == 4
    assert g.players[1].equips == {}
    assert specs(g.players[0].hand) == ["青龍偃月刀 ♠5"]
    finish(g)


def test_jiedao_sharen_ignores_the_sha_limit_of_the_borrowed():
    # A uses the 殺 on B although it is A's... not A's play phase; and A used no 殺 before
    g = four(["借刀殺人 ♣Q"], ["殺 ♣2"], [], [], extra={1: dict(equips=["諸葛連弩 ♣A"])},
             answers={0: ["【借刀殺人】♣Q", "1號位"], 1: ["使用【殺】♣2"]})
    play(g, 0)
    assert g.players[0].hp == 3
    finish(g)


def test_jiedao_sharen_needs_a_weapon():
    g = four(["借刀殺人 ♣Q", "殺 ♠7"], [], [], [], extra={2: dict(equips=["八卦陣 ♠2"])},
             answers={0: ["結束出牌"]})
    play(g, 0)
    assert "【借刀殺人】♣Q" not in options(g, 0, "play")
    finish(g)


def test_wuxie_keji_cancels_a_trick():
    g = four(["過河拆橋 ♠3"], ["閃 ♦2", "無懈可擊 ♠J"], [], [],
             answers={0: ["【過河拆橋】♠3"], 1: ["使用【無懈可擊】♠J"]})
    play(g, 0)
    assert specs(g.players[1].hand) == ["閃 ♦2"]
    assert set(specs(g.discard_pile)) == {"過河拆橋 ♠3", "無懈可擊 ♠J"}
    assert "【過河拆橋】♠3對2號位無將(男)的效果被抵消" in g.lines
    finish(g)


def test_wuxie_keji_countered_by_wuxie_keji_trick_takes_effect():
    g = four(["過河拆橋 ♠3", "無懈可擊 ♣Q"], ["閃 ♦2", "無懈可擊 ♠J"], [], [],
             answers={0: ["【過河拆橋】♠3", "使用【無懈可擊】♣Q"], 1: ["使用【無懈可擊】♠J"]})
    play(g, 0)
    assert g.players[1].hand == []
    assert set(specs(g.discard_pile)) == {"過河拆橋 ♠3", "無懈可擊 ♠J", "無懈可擊 ♣Q", "閃 ♦2"}
    finish(g)


def test_wuxie_keji_three_deep_trick_cancelled():
    g = four(["過河拆橋 ♠3", "無懈可擊 ♣Q"], ["閃 ♦2", "無懈可擊 ♠J"], [], ["無懈可擊 ♣K"],
             answers={0: ["【過河拆橋】♠3", "2號位", "使用【無懈可擊】♣Q"],
                      1: ["使用【無懈可擊】♠J"], 3: ["使用【無懈可擊】♣K"]})
    play(g, 0)
    assert specs(g.players[1].hand) == ["閃 ♦2"]
    assert len(g.discard_pile) == 4
    finish(g)


def test_wuxie_keji_only_for_one_target_of_aoe():
    g = four(["南蠻入侵 ♠7"], ["無懈可擊 ♠J"], [], [],
             answers={0: ["【南蠻入侵】♠7"], 1: ["使用【無懈可擊】♠J"]})
    play(g, 0)
    assert [p.hp for p in g.players] == [4, 4, 3, 3]
    finish(g)


def test_wuxie_keji_on_lebu_sishu_no_judgement():
    g = four([], ["無懈可擊 ♠J"], [], [], extra={0: dict(judge=["樂不思蜀 ♠6"])}, deck_top=["殺 ♠8"],
             answers={1: ["使用【無懈可擊】♠J"]})
    g.turn.run_phase(g.players[0], "judge")
    assert "play" not in g.players[0].skipped
    assert specs(g.deck[-1:]) == ["殺 ♠8"]  # no judgement
    assert set(specs(g.discard_pile)) == {"樂不思蜀 ♠6", "無懈可擊 ♠J"}
    finish(g)


def test_wuxie_keji_not_usable_in_play_phase():
    g = four(["無懈可擊 ♠J", "殺 ♠7"], [], [], [], answers={0: ["結束出牌"]})
    play(g, 0)
    assert options(g, 0, "play") == ["【殺】♠7", "結束出牌"]
    finish(g)


def test_nanman_ruqin_each_plays_sha_or_is_hurt():
    g = four(["南蠻入侵 ♠7"], ["殺 ♣2"], ["閃 ♦2"], ["殺 ♣3"],
             answers={0: ["【南蠻入侵】♠7"], 1: ["打出【殺】♣2"], 3: ["不打出"]})
    play(g, 0)
    assert [p.hp for p in g.players] == [4, 4, 3, 3]
    assert specs(g.players[3].hand) == ["殺 ♣3"]
    damage = [line for line in g.lines if "造成" in line]
    assert damage == ["1號位無將(男)對3號位無將(男)造成1點傷害（體力3/4）", "1號位無將(男)對4號位無將(男)造成1點傷害（體力3/4）"]
    finish(g)


def test_nanman_ruqin_starts_at_next_seat_of_user():
    g = four([], [], ["南蠻入侵 ♠7"], [], answers={2: ["【南蠻入侵】♠7"]})
    play(g, 2)
    damaged = [line.split("對")[1][:3] for line in g.lines if "造成" in line]
    assert damaged == ["4號位", "1號位", "2號位"]
    finish(g)


def test_wanjian_qifa_each_plays_shan_or_is_hurt():
    g = four(["萬箭齊發 ♥A"], ["閃 ♦2"], ["殺 ♣2"], [],
             answers={0: ["【萬箭齊發】♥A"], 1: ["打出【閃】♦2"]})
    play(g, 0)
    assert [p.hp for p in g.players] == [4, 4, 3, 3]
    finish(g)


def test_taoyuan_jieyi_everyone_recovers():
    g = four(["桃園結義 ♥A"], [], [], [], extra={0: dict(hp=2), 2: dict(hp=1), 3: dict(hp=3)},
             answers={0: ["【桃園結義】♥A"]})
    play(g, 0)
    assert [p.hp for p in g.players] == [3, 4, 2, 4]
    finish(g)


def test_taoyuan_jieyi_usable_at_full_hp():
    g = four(["桃園結義 ♥A"], [], [], [], answers={0: ["【桃園結義】♥A"]})
    play(g, 0)
    assert [p.hp for p in g.players] == [4, 4, 4, 4]
    assert specs(g.discard_pile) == ["桃園結義 ♥A"]
    finish(g)


def test_wugu_fengdeng_each_picks_in_seat_order():
    g = make_table(seats=[seat(role="lord"), seat(hand=["五穀豐登 ♥3"]), seat()],
                   deck_top=["桃 ♥4", "殺 ♠7", "閃 ♦2", "決鬥 ♠A"],
                   answers={1: ["【五穀豐登】♥3", "【殺】♠7", "結束出牌"], 2: ["【閃】♦2"]})
    play(g, 1)
    assert specs(g.players[1].hand) == ["殺 ♠7"]
    assert specs(g.players[2].hand) == ["閃 ♦2"]
    assert specs(g.players[0].hand) == ["桃 ♥4"]  # the last one: no choice left
    assert specs(g.deck[-1:]) == ["決鬥 ♠A"]
    assert options(g, 2, "pick_card") == ["【桃】♥4", "【閃】♦2"]
    finish(g)


def test_wugu_fengdeng_nullified_for_one_leaves_cards_discarded():
    g = make_table(seats=[seat(role="lord", hand=["五穀豐登 ♥3"]), seat(hand=["無懈可擊 ♠J"])],
                   deck_top=["桃 ♥4", "殺 ♠7"],
                   answers={0: ["【五穀豐登】♥3", "【桃】♥4"], 1: ["不使用", "使用【無懈可擊】♠J"]})
    play(g, 0)
    assert specs(g.players[0].hand) == ["桃 ♥4"]
    assert g.players[1].hand == []
    assert set(specs(g.discard_pile)) == {"五穀豐登 ♥3", "無懈可擊 ♠J", "殺 ♠7"}
    finish(g)


def test_lebu_sishu_placed_then_skips_play_phase():
    g = four(["樂不思蜀 ♠6"], ["殺 ♣2"], [], [], deck_top=["殺 ♠8", "閃 ♦2", "閃 ♦3"],
             answers={0: ["【樂不思蜀】♠6", "2號位"]})
    play(g, 0)
    assert specs(g.players[1].judge) == ["樂不思蜀 ♠6"]
    g.turn.play_turn(g.players[1])
    assert "2號位無將(男)跳過出牌階段" in g.lines
    assert asked(g, 1, "play") == []
    assert specs(g.players[1].hand) == ["殺 ♣2", "閃 ♦2", "閃 ♦3"]
    assert set(specs(g.discard_pile)) == {"樂不思蜀 ♠6", "殺 ♠8"}
    finish(g)


def test_lebu_sishu_heart_no_skip():
    g = four([], ["殺 ♣2"], [], [], extra={1: dict(judge=["樂不思蜀 ♠6"])},
             deck_top=["桃 ♥3", "閃 ♦2", "閃 ♦3"], answers={1: ["【殺】♣2", "1號位"]})
    g.turn.play_turn(g.players[1])
    assert g.players[0].hp == 3
    assert not any("跳過" in line for line in g.lines)
    assert set(specs(g.discard_pile)) == {"樂不思蜀 ♠6", "桃 ♥3", "殺 ♣2"}
    finish(g)


def test_lebu_sishu_diamond_skips():
    g = four([], [], [], [], extra={1: dict(judge=["樂不思蜀 ♠6"])}, deck_top=["閃 ♦2"])
    g.current = g.players[1]
    g.turn.run_phase(g.players[1], "judge")
    assert "play" in g.players[1].skipped
    finish(g)


def test_lebu_sishu_cannot_target_self_or_someone_who_has_one():
    g = four(["樂不思蜀 ♠6"], [], [], [], extra={1: dict(judge=["樂不思蜀 ♣6"])},
             answers={0: ["【樂不思蜀】♠6", "3號位"]})
    play(g, 0)
    assert options(g, 0, "target") == ["3號位無將(男)", "4號位無將(男)"]
    assert specs(g.players[2].judge) == ["樂不思蜀 ♠6"]
    finish(g)


def test_delayed_tricks_judged_last_placed_first():
    g = four([], [], [], [], extra={0: dict(judge=["閃電 ♠A", "樂不思蜀 ♠6"])}, deck_top=["殺 ♠8", "桃 ♥3"])
    g.turn.run_phase(g.players[0], "judge")
    starts = [line for line in g.lines if "開始判定" in line]
    assert starts == ["1號位無將(男)判定區的【樂不思蜀】♠6開始判定", "1號位無將(男)判定區的【閃電】♠A開始判定"]
    # 樂不思蜀 judged ♠8: skip; 閃電 judged ♥3: moves on
    assert "play" in g.players[0].skipped
    assert specs(g.players[1].judge) == ["閃電 ♠A"]
    assert g.players[0].hp == 4
    finish(g)


def test_shandian_strikes_on_spade_two_to_nine():
    g = four([], [], [], [], extra={0: dict(judge=["閃電 ♠A"])}, deck_top=["殺 ♠9"])
    g.turn.run_phase(g.players[0], "judge")
    assert g.players[0].hp == 1
    assert "1號位無將(男)受到3點雷電傷害（體力1/4）" in g.lines
    assert set(specs(g.discard_pile)) == {"閃電 ♠A", "殺 ♠9"}
    finish(g)


@pytest.mark.parametrize("judged", ["殺 ♠10", "決鬥 ♠A", "殺 ♣9", "閃 ♦2"])
def test_shandian_moves_on_otherwise(judged):
    g = four([], [], [], [], extra={0: dict(judge=["閃電 ♥Q"])}, deck_top=[judged])
    g.turn.run_phase(g.players[0], "judge")
    assert g.players[0].hp == 4
    assert specs(g.players[1].judge) == ["閃電 ♥Q"]
    assert g.players[0].judge == []
    finish(g)


def test_shandian_used_on_self():
    g = four(["閃電 ♠A", "殺 ♠7"], [], [], [], answers={0: ["【閃電】♠A", "結束出牌"]})
    play(g, 0)
    assert specs(g.players[0].judge) == ["閃電 ♠A"]
    finish(g)


def test_shandian_not_usable_when_own_judge_area_has_one():
    g = four(["閃電 ♠A", "殺 ♠7"], [], [], [], extra={0: dict(judge=["閃電 ♥Q"])}, answers={0: ["結束出牌"]})
    play(g, 0)
    assert options(g, 0, "play") == ["【殺】♠7", "結束出牌"]
    finish(g)


def test_shandian_skips_a_player_who_already_has_one():
    g = four([], [], [], [], extra={0: dict(judge=["閃電 ♠A"]), 1: dict(judge=["閃電 ♥Q"])}, deck_top=["桃 ♥3"])
    g.turn.run_phase(g.players[0], "judge")
    assert specs(g.players[1].judge) == ["閃電 ♥Q"]
    assert specs(g.players[2].judge) == ["閃電 ♠A"]
    finish(g)


def test_shandian_skips_the_dead():
    g = four([], [], [], [], extra={0: dict(judge=["閃電 ♠A"])}, deck_top=["桃 ♥3"])
    g.players[1].alive = False
    g.turn.run_phase(g.players[0], "judge")
    assert specs(g.players[2].judge) == ["閃電 ♠A"]
    finish(g)


def test_shandian_nullified_moves_on_without_judgement():
    g = four([], [], ["無懈可擊 ♠J"], [], extra={0: dict(judge=["閃電 ♠A"])}, deck_top=["殺 ♠9"],
             answers={2: ["使用【無懈可擊】♠J"]})
    g.turn.run_phase(g.players[0], "judge")
    assert g.players[0].hp == 4
    assert specs(g.players[1].judge) == ["閃電 ♠A"]
    assert specs(g.deck[-1:]) == ["殺 ♠9"]  # no judgement card was drawn
    assert specs(g.discard_pile) == ["無懈可擊 ♠J"]
    finish(g)


def test_shandian_kill_gives_no_reward():
    g = four([], [], [], [], extra={2: dict(hp=3, judge=["閃電 ♠A"])}, deck_top=["殺 ♠9"])
    g.current = g.players[2]
    with pytest.raises(Exception) as ended:
        g.turn.run_phase(g.players[2], "judge")
    assert type(ended.value).__name__ == "TurnEnded"
    assert not g.players[2].alive
    assert all(len(p.hand) == 0 for p in g.players)
    finish(g)


def test_shandian_two_hp_needs_two_tao():
    g = four(["桃 ♥3", "桃 ♥4"], [], [], [], extra={0: dict(hp=2, judge=["閃電 ♠A"])}, deck_top=["殺 ♠9"],
             answers={0: ["使用【桃】♥3", "使用【桃】♥4"]})
    g.turn.run_phase(g.players[0], "judge")
    assert g.players[0].hp == 1 and g.players[0].alive
    finish(g)


# ============================================================== bookkeeping


def test_find_and_table_helper_keep_108_cards():
    g = four(["殺 ♠8", "殺 ♠8"], [], [], [])
    a, b = g.players[0].hand
    assert a is not b and find(g, "殺 ♠8") in (a, b)
    assert len(g.all_cards) == 108
    finish(g)


# ============================================================== more edges


def test_current_player_dying_in_own_turn_ends_the_turn():
    g = make_table(seats=[seat(role="lord"), seat(role="loyalist", hand=["殺 ♣2"]),
                          seat(role="rebel", hp=1, hand=["決鬥 ♠A", "殺 ♠7", "閃 ♦2", "閃 ♦3"]), seat(role="renegade")],
                   deck_top=["桃 ♥3", "桃 ♥4", "閃 ♦4", "閃 ♦5", "閃 ♦6"], current=2,
                   answers={1: ["打出【殺】♣2"], 2: ["【決鬥】♠A", "2號位", "不打出"]})
    g.turn.play_turn(g.players[2])
    assert not g.players[2].alive
    # the loyalist killed a rebel: three cards; the turn ended at once (no discard phase)
    assert specs(g.players[1].hand) == ["閃 ♦4", "閃 ♦5", "閃 ♦6"]
    assert g.lines[-1] == "2號位無將(男)摸3張牌"
    assert g.processing == [] and g.use_stack == []
    finish(g)


def test_sha_reaches_further_with_a_weapon():
    g = make_table(seats=[seat(role="lord", hand=["殺 ♠7"], equips=["青釭劍 ♠6"]), seat(), seat(), seat(), seat()],
                   answers={0: ["【殺】♠7", "3號位"]})
    play(g, 0)
    assert options(g, 0, "target") == ["2號位無將(男)", "3號位無將(男)", "4號位無將(男)", "5號位無將(男)"]
    assert g.players[2].hp == 3
    finish(g)


def test_wuxie_keji_cannot_counter_a_sha():
    g = four(["殺 ♠7"], [], [], ["無懈可擊 ♠J"], answers={0: ["【殺】♠7", "2號位"]})
    play(g, 0)
    assert g.players[1].hp == 3
    assert asked(g, 3) == []
    finish(g)


def test_wuxie_keji_on_juedou():
    g = four(["決鬥 ♠A"], ["無懈可擊 ♠J"], [], [], answers={0: ["【決鬥】♠A", "2號位"], 1: ["使用【無懈可擊】♠J"]})
    play(g, 0)
    assert [p.hp for p in g.players] == [4, 4, 4, 4]
    finish(g)


def test_wuxie_keji_on_jiedao_sharen_keeps_the_weapon():
    g = four(["借刀殺人 ♣Q"], ["殺 ♣2", "無懈可擊 ♠J"], [], [], extra={1: dict(equips=["麒麟弓 ♥5"])},
             answers={0: ["【借刀殺人】♣Q", "3號位"], 1: ["使用【無懈可擊】♠J"]})
    play(g, 0)
    assert equips(g.players[1]) == {"weapon": "麒麟弓 ♥5"}
    assert g.players[0].hand == [] and g.players[2].hp == 4
    finish(g)


def test_jiedao_sharen_victim_may_dodge():
    g = four(["借刀殺人 ♣Q"], ["殺 ♣2"], ["閃 ♦2"], [], extra={1: dict(equips=["麒麟弓 ♥5"])},
             answers={0: ["【借刀殺人】♣Q", "3號位"], 1: ["使用【殺】♣2"], 2: ["使用【閃】♦2"]})
    play(g, 0)
    assert g.players[2].hp == 4
    assert equips(g.players[1]) == {"weapon": "麒麟弓 ♥5"}  # the 殺 was used: the weapon stays
    finish(g)


def test_jiedao_sharen_victim_must_be_in_range_of_the_borrower():
    g = make_table(seats=[seat(role="lord", hand=["借刀殺人 ♣Q"]), seat(equips=["諸葛連弩 ♣A"], hand=["殺 ♣2"]),
                          seat(), seat(), seat()],
                   answers={0: ["【借刀殺人】♣Q", "3號位"], 1: ["使用【殺】♣2"]})
    play(g, 0)
    # seat 2 has range 1: only seats 1 and 3 are possible victims
    assert options(g, 0, "target") == ["1號位無將(男)", "3號位無將(男)"]
    assert g.players[2].hp == 3
    finish(g)


def test_shandian_stays_when_everyone_else_holds_one():
    g = make_table(seats=[seat(role="lord", judge=["閃電 ♠A"]), seat(role="renegade", judge=["閃電 ♥Q"])],
                   deck_top=["桃 ♥3"])
    g.turn.run_phase(g.players[0], "judge")
    assert specs(g.players[0].judge) == ["閃電 ♠A"]
    assert specs(g.players[1].judge) == ["閃電 ♥Q"]
    finish(g)


def test_taoyuan_jieyi_nullified_for_one_target():
    g = four(["桃園結義 ♥A"], [], [], ["無懈可擊 ♠J"], extra={0: dict(hp=2), 2: dict(hp=1), 3: dict(hp=3)},
             answers={0: ["【桃園結義】♥A"], 3: ["不使用", "不使用", "使用【無懈可擊】♠J"]})
    play(g, 0)
    # asked once per target in seat order (seat 2 at full hp too): the third is seat 3's
    assert [r.prompt.split("對")[-1][:3] for r in asked(g, 3, "counter")] == ["1號位", "2號位", "3號位"]
    assert [p.hp for p in g.players] == [3, 4, 1, 4]
    finish(g)


def test_zhangba_plays_out_sha_against_nanman():
    g = four(["南蠻入侵 ♠7"], ["閃 ♦3", "桃 ♥3"], [], [], extra={1: dict(equips=["丈八蛇矛 ♠Q"])},
             answers={0: ["【南蠻入侵】♠7"], 1: ["打出【丈八蛇矛】視為【殺】", "【閃】♦3"]})
    play(g, 0)
    assert [p.hp for p in g.players] == [4, 4, 3, 3]
    assert g.players[1].hand == []
    finish(g)


def test_renwang_dun_and_zhangba_sha_colour():
    # two black cards make a black 殺 (no effect); a black and a red card make a colourless one
    g = four(["殺 ♠7", "閃 ♦3", "殺 ♣3"], [], [], [],
             extra={0: dict(equips=["丈八蛇矛 ♠Q"]), 1: dict(equips=["仁王盾 ♣2"])},
             answers={0: ["【丈八蛇矛】視為【殺】", "【殺】♠7", "【殺】♣3", "2號位"]})
    play(g, 0)
    assert g.players[1].hp == 4
    assert "【殺】(【殺】♠7、【殺】♣3)對2號位無將(男)無效" in g.lines
    g2 = four(["殺 ♠7", "閃 ♦3"], [], [], [], extra={0: dict(equips=["丈八蛇矛 ♠Q"]), 1: dict(equips=["仁王盾 ♣2"])},
              answers={0: ["【丈八蛇矛】視為【殺】", "【殺】♠7", "2號位"]})
    play(g2, 0)
    assert g2.players[1].hp == 3
    finish(g)
    finish(g2)
