"""The script's step forms: answers named by card, conversion, skill and
hidden card; answers to questions the engine settled alone; `cannot answer` and `not
asked`; seats named `N號位`; and every failure of a script reported, not only the first."""

from __future__ import annotations

import pytest

from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.runner import run_ruling
from sgs_dsl.syntax.diagnostics import SgsError


def run(body: str):
    (ruling,) = parse_rulings(f'ruling "t" {{\n  source "s";\n{body}\n}}\n', "t.ruling")
    return run_ruling(ruling)


def load_error(body: str):
    with pytest.raises(SgsError) as error:
        parse_rulings(f'ruling "t" {{\n  source "s";\n{body}\n}}\n', "t.ruling")
    return error.value.diagnostics


ZHANGBA = """
  seat 1 lord hand [閃 ♦2, 桃 ♥4] equip [丈八蛇矛 ♠Q];
  seat 2 rebel hand [閃 ♦3];
  phase 1 play;
"""


# ---------------------------------------------------------------- uses ... via, plays

def test_a_conversion_is_named_by_card_skill_and_cards():
    result = run(ZHANGBA + 'script { 1 uses 殺 via 丈八蛇矛 [♦2, ♥4] on 2; 2 answers "不使用"; 1 ends; }'
                 "expect { seat 2 hp 3; discard [閃 ♦2, 桃 ♥4]; }")
    assert result.passed, result.failures
    assert "1號位無將(男)使用【殺】(【閃】♦2、【桃】♥4)，目標：2號位無將(男)" in result.trace


def test_the_cards_of_a_conversion_are_picked_in_the_order_written():
    result = run(ZHANGBA + 'script { 1 uses 殺 via 丈八蛇矛 [♥4, ♦2] on 2; 2 answers "不使用"; 1 ends; }')
    assert result.passed, result.failures
    assert "1號位無將(男)使用【殺】(【桃】♥4、【閃】♦2)，目標：2號位無將(男)" in result.trace


def test_a_conversion_card_the_seat_does_not_hold_fails():
    result = run(ZHANGBA + 'script { 1 uses 殺 via 丈八蛇矛 [♦2, ♠9] on 2; 2 answers "不使用"; 1 ends; }')
    assert "'♠9' (a card of 殺 via 丈八蛇矛) is not a legal answer for seat 1" in result.failures[0]


def test_a_conversion_the_seat_does_not_have_fails():
    result = run(ZHANGBA + "script { 1 uses 殺 via 武聖 [♦2] on 2; }")
    assert "'殺 via 武聖' is not a legal answer for seat 1" in result.failures[0]


def test_plays_answers_a_response_with_that_card():
    result = run(ZHANGBA + "script { 1 uses 殺 via 丈八蛇矛 [♦2, ♥4] on 2; 2 plays 閃 ♦3; 1 ends; }"
                 "expect { seat 2 hp 4; seat 2 hand []; }")
    assert result.passed, result.failures


def test_plays_a_card_not_offered_fails():
    result = run(ZHANGBA + "script { 1 uses 殺 via 丈八蛇矛 [♦2, ♥4] on 2; 2 plays 閃 ♦2; 1 ends; }")
    assert "'plays 閃 ♦2' is not a legal answer for seat 2" in result.failures[0]


def test_plays_never_answers_the_play_phase_question():
    result = run("seat 1 lord hand [殺 ♠7]; seat 2 rebel; phase 1 play; script { 1 plays 殺 ♠7; }")
    assert "'plays 殺 ♠7' is not a legal answer for seat 1" in result.failures[0]


# ---------------------------------------------------------------- invokes, declines

def test_invokes_an_active_skill_in_the_play_phase():
    result = run("seat 1 lord hero 黃蓋; seat 2 rebel; deck [殺 ♠7, 閃 ♦2]; phase 1 play;"
                 "script { 1 invokes 苦肉; 1 ends; } expect { seat 1 hp 3; seat 1 hand [殺 ♠7, 閃 ♦2]; }")
    assert result.passed, result.failures


def test_invokes_and_declines_answer_an_optional_skill():
    table = "seat 1 lord hero 曹操; seat 2 rebel hand [殺 ♠7]; phase 2 play;"
    taken = run(table + "script { 2 uses 殺 ♠7 on 1; 1 invokes 奸雄; 2 ends; } expect { seat 1 hand [殺 ♠7]; }")
    assert taken.passed, taken.failures
    left = run(table + "script { 2 uses 殺 ♠7 on 1; 1 declines 奸雄; 2 ends; } expect { seat 1 hand []; }")
    assert left.passed, left.failures


def test_invokes_names_the_skill_that_asks():
    result = run("seat 1 lord hero 曹操; seat 2 rebel hand [殺 ♠7]; phase 2 play;"
                 "script { 2 uses 殺 ♠7 on 1; 1 invokes 反饋; 2 ends; }")
    assert "'invokes 反饋' is not a legal answer for seat 1" in result.failures[0]


# ---------------------------------------------------------------- picks: a hidden card named

@pytest.mark.parametrize("card,position", [("桃 ♥4", "手牌2"), ("閃 ♦2", "手牌1")])
def test_picks_finds_the_hidden_position_of_the_card(card, position):
    result = run(f"seat 1 lord hand [順手牽羊 ♠3]; seat 2 rebel hand [閃 ♦2, 桃 ♥4]; phase 1 play;"
                 f"script {{ 1 uses 順手牽羊 ♠3 on 2; 1 picks hand {card} of 2; 1 ends; }}"
                 f"expect {{ seat 1 hand [{card}]; }}")
    assert result.passed, result.failures
    (question,) = [line for line in result.trace if "手牌1／手牌2" in line]
    assert question.endswith(f"→ {position}")


def test_picks_a_card_the_seat_does_not_hold_there_fails():
    result = run("seat 1 lord hand [順手牽羊 ♠3]; seat 2 rebel hand [閃 ♦2, 桃 ♥4]; phase 1 play;"
                 "script { 1 uses 順手牽羊 ♠3 on 2; 1 picks equip 桃 ♥4 of 2; 1 ends; }")
    assert "'picks equip 桃 ♥4 of 2' is not a legal answer for seat 1" in result.failures[0]
    assert "candidates: 手牌1, 手牌2" in result.failures[0]


# ---------------------------------------------------------------- questions the engine settles alone

def test_an_answer_to_a_question_with_one_option_is_taken_as_said():
    result = run('seat 1 lord hand [過河拆橋 ♠3]; seat 2 rebel hand [閃 ♦2]; phase 1 play;'
                 'script { 1 uses 過河拆橋 ♠3 on 2; 1 answers "手牌1"; 1 ends; }')
    assert result.passed, result.failures
    assert any("〔唯一選項〕" in line and line.endswith("→ 手牌1") for line in result.trace)


def test_a_target_that_is_not_the_only_candidate_fails():
    result = run("seat 1 lord hand [殺 ♠7]; seat 2 rebel; phase 1 play; script { 1 uses 殺 ♠7 on 1; }")
    assert "'1號位' is not a legal answer for seat 1" in result.failures[0]
    assert "the only candidate is 2號位無將(男)" in result.failures[0]


# ---------------------------------------------------------------- seats named N號位

@pytest.mark.parametrize("label", ["2號位", "2號位郭嘉"])
def test_a_seat_is_named_by_its_number_alone_or_with_its_hero(label):
    result = run(f'seat 1 lord hand [過河拆橋 ♠3]; seat 2 rebel hero 郭嘉 hand [閃 ♦2]; seat 3 loyalist hand [閃 ♦3];'
                 f'phase 1 play; script {{ 1 uses 過河拆橋 ♠3; 1 answers "{label}"; 1 ends; }}'
                 f"expect {{ seat 2 hand []; seat 3 hand [閃 ♦3]; }}")
    assert result.passed, result.failures


# ---------------------------------------------------------------- cannot answer, not asked

LIULI = """
  seat 1 lord hand [殺 ♠7];
  seat 2 rebel hero 大喬 hand [閃 ♦2] equip [青釭劍 ♠6];
  seat 3 loyalist;
  seat 4 renegade;
  phase 1 play;
"""


def test_cannot_answer_holds_when_the_option_is_absent():
    result = run(LIULI + 'script { 1 uses 殺 ♠7 on 2; 2 invokes 流離; 2 answers "【閃】♦2"; '
                 '2 cannot answer "1號位"; 2 answers "4號位"; 1 ends; }')
    assert result.passed, result.failures


def test_cannot_answer_fails_when_the_option_is_offered():
    result = run(LIULI + 'script { 1 uses 殺 ♠7 on 2; 2 invokes 流離; 2 answers "【閃】♦2"; '
                 '2 cannot answer "3號位"; 2 answers "4號位"; 1 ends; }')
    (failure,) = result.failures
    assert failure.startswith("seat 2 was offered '3號位無將(男)' in ")
    assert failure.endswith("but the script says it cannot answer it (script at t.ruling:9:61)")


def test_cannot_answer_that_never_lands_fails():
    # seat 2 is never again asked a question that could offer a response: the claim tests nothing
    result = run(LIULI + 'script { 1 uses 殺 ♠7 on 2; 2 declines 流離; 2 answers "不使用"; 2 cannot answer "不使用"; '
                 '1 ends; }')
    (failure,) = result.failures
    assert failure == ("seat 2 was never asked a question that could offer '不使用' (a response, offered by a "
                       "question asking for a card), so 'cannot answer' tests nothing (script at t.ruling:9:60)")


DISMANTLE = """
  seat 1 lord hand [過河拆橋 ♠3, 殺 ♠8];
  seat 2 rebel hand [閃 ♦2];
  phase 1 play;
"""


def test_cannot_answer_skips_a_question_that_could_not_offer_its_label():
    # the engine settles alone which card of seat 2 seat 1 takes away (one card): a question of
    # cards, which could never offer a seat. The claim lands on the next choice of players,
    # the 殺's target (settled alone too), and fails there, since seat 2 is offered.
    result = run(DISMANTLE + 'script { 1 uses 過河拆橋 ♠3 on 2; 1 cannot answer "2號位"; '
                 '1 uses 殺 ♠8; 1 ends; }')
    assert "〔唯一選項〕1號位無將(男)：【過河拆橋】♠3：選擇2號位無將(男)的一張牌 → 手牌1" in "\n".join(result.trace)
    (failure,) = result.failures
    assert failure == ("seat 1 was offered '2號位無將(男)' in '【殺】♠8：選擇目標' (candidates: 2號位無將(男)), but "
                       "the script says it cannot answer it (script at t.ruling:7:31)")


def test_cannot_answer_lands_on_a_play_phase_question_settled_alone():
    # the forced choice of seat 2's card is skipped; the play phase's question, with only
    # 結束出牌 left, is the one that could offer an action: it does not, and the claim holds
    result = run(DISMANTLE.replace(", 殺 ♠8", "") + 'script { 1 uses 過河拆橋 ♠3 on 2; 1 cannot answer "發動【制衡】"; }')
    assert result.passed, result.failures
    assert "〔唯一選項〕1號位無將(男)：出牌階段：選擇要使用的牌 → 結束出牌" in "\n".join(result.trace)


LIULI_ALONE = """
  seat 1 lord hand [殺 ♠7];
  seat 2 rebel hero 大喬 hand [閃 ♦2] equip [青釭劍 ♠6];
  seat 3 loyalist;
  phase 1 play;
"""


def test_cannot_answer_holds_on_a_choice_of_players_settled_alone():
    # 流離 may only redirect to seat 3 (not the 殺's user): the engine settles the target alone;
    # had seat 1 been legal, the question would have been asked
    result = run(LIULI_ALONE + 'script { 1 uses 殺 ♠7 on 2; 2 invokes 流離; 2 answers "【閃】♦2"; '
                 '2 cannot answer "1號位"; 1 ends; }')
    assert result.passed, result.failures
    assert "〔唯一選項〕2號位大喬：流離：選擇角色（1） → 3號位無將(男)" in "\n".join(result.trace)


def test_cannot_answer_fails_on_a_choice_of_players_settled_alone_that_offers_it():
    result = run(LIULI_ALONE + 'script { 1 uses 殺 ♠7 on 2; 2 invokes 流離; 2 answers "【閃】♦2"; '
                 '2 cannot answer "3號位"; 1 ends; }')
    (failure,) = result.failures
    assert failure.startswith("seat 2 was offered '3號位無將(男)' in '流離：選擇角色（1）' (candidates: 3號位無將(男))")


NO_COUNTER = """
  seat 1 lord hand [殺 ♠7, 決鬥 ♠A];
  seat 2 rebel;
  seat 3 loyalist hand [無懈可擊 ♠J];
  phase 1 play;
"""


def test_not_asked_holds_when_the_seat_gets_no_question():
    result = run(NO_COUNTER + "script { 1 uses 殺 ♠7 on 2; 3 not asked; 1 ends; }")
    assert result.passed, result.failures


def test_not_asked_fails_when_the_seat_is_asked():
    # seat 3 is asked whether to counter the 決鬥 before the script comes to seat 3 again
    result = run(NO_COUNTER + 'script { 3 not asked; 1 uses 決鬥 ♠A on 2; 1 ends; 3 answers "不使用"; }')
    assert result.failures[0].startswith("seat 3 was asked '")
    assert result.failures[0].endswith("but the script says seat 3 is not asked (script at t.ruling:8:10)")


def test_not_asked_ends_at_the_seats_next_step():
    # seat 3 is asked about the 決鬥 only after its own next step: `not asked` no longer holds there
    result = run(NO_COUNTER + 'script { 1 uses 殺 ♠7 on 2; 3 not asked; 1 uses 決鬥 ♠A on 2; 3 answers "不使用"; 1 ends; }')
    assert result.passed, result.failures


def test_not_asked_covers_questions_the_engine_settles_alone():
    result = run("seat 1 lord hand [殺 ♠7]; seat 2 rebel; phase 1 play; script { 1 not asked; }")
    assert "seat 1 was asked" in result.failures[0] and "is not asked" in result.failures[0]


# ---------------------------------------------------------------- cannot use

CANNOT = "seat 1 lord hand [殺 ♠7, 殺 ♠8]; seat 2 rebel; seat 3 loyalist; seat 4 renegade; phase 1 play;"


def test_cannot_use_a_card_nobody_holds_is_a_load_error():
    (diagnostic,) = load_error(CANNOT + "script { 1 cannot use 殺 ♠9; 1 ends; }")
    assert "seat 1 cannot use 殺 ♠9: no seat holds that card" in diagnostic.message
    assert "put it in seat 1's hand (it holds 殺 ♠7, 殺 ♠8)" in diagnostic.hint
    assert diagnostic.render().startswith("t.ruling:3:115: error:")


def test_cannot_use_a_card_the_seat_does_not_hold_then_fails():
    result = run("seat 1 lord; seat 2 rebel hand [殺 ♠7]; phase 1 play; script { 1 cannot use 殺 ♠7; 1 ends; }")
    assert result.failures[0].startswith("seat 1 does not hold 【殺】♠7 when asked what to use")


def test_cannot_use_on_a_target_when_the_card_is_not_usable_at_all_fails():
    # the second 殺 is not usable (one 殺 per play phase), though seat 2 would be a legal target
    result = run(CANNOT + "script { 1 uses 殺 ♠7 on 2; 1 cannot use 殺 ♠8 on 2; 1 ends; }")
    assert result.failures[0].startswith("seat 1 cannot use 【殺】♠8 at all, though seat 2 is a legal target")
    assert "write `1 cannot use 殺 ♠8;`" in result.failures[0]


def test_cannot_use_on_a_target_out_of_reach_holds():
    assert run(CANNOT + "script { 1 cannot use 殺 ♠7 on 3; 1 ends; }").passed


# ---------------------------------------------------------------- every failure reported

def test_every_failure_of_a_script_is_reported_up_to_where_it_stops():
    result = run(NO_COUNTER + "script { 1 cannot use 殺 ♠7; 3 not asked; 1 uses 決鬥 ♠A on 2; 2 plays 殺 ♠7; }"
                 "expect { seat 2 hp 3; seat 1 hp 3; }")
    assert len(result.failures) == 5, result.failures
    assert result.failures[0].startswith("seat 1 can use 【殺】♠7, but the script says it cannot")
    assert result.failures[1].startswith("seat 3 was asked")  # by the 決鬥's 無懈可擊 question
    assert result.failures[2].startswith("seat 3 was asked")  # the script's next answer is seat 2's: it stops
    assert "the script's next answer is seat 2's 'plays 殺 ♠7'" in result.failures[2]
    assert result.failures[3] == "seat 2 hp is 4, expected 3 (expectation at t.ruling:8:85)"
    assert result.failures[4] == "seat 1 hp is 4, expected 3 (expectation at t.ruling:8:98)"


def test_a_run_for_a_seat_that_died_fails_with_its_location():
    result = run("seat 1 lord hand [殺 ♠7]; seat 2 rebel hp 1; seat 3 rebel;"
                 "phase 1 play; phase 2 play; script { 1 uses 殺 ♠7 on 2; 1 ends; } expect { seat 2 dead; }")
    assert result.failures == (
        "seat 2 died earlier in this ruling, so `phase 2 play` cannot be played (run at t.ruling:3:72); "
        "check `seat 2 dead;` instead",)


def test_a_step_for_a_seat_that_died_says_so():
    result = run("seat 1 lord hand [殺 ♠7, 殺 ♠8] equip [諸葛連弩 ♣A]; seat 2 rebel hp 1; seat 3 rebel;"
                 'phase 1 play; script { 1 uses 殺 ♠7 on 2; 2 answers "不使用"; }')
    assert "the script's next answer is seat 2's '不使用', who is dead" in result.failures[0]


@pytest.mark.parametrize(("label", "kinds"), [
    ("3號位", {"target", "order"}), ("2號位郭嘉", {"target", "order"}),
    ("發動【仁德】", {"play"}), ("【武聖】視為【殺】", {"play"}), ("重鑄【鐵索連環】♣Q", {"play"}), ("結束出牌", {"play"}),
    ("【殺】♠7", {"play", "pick_card", "discard"}), ("手牌2", {"play", "pick_card", "discard"}),
    ("使用【閃】♦2", {"respond", "counter", "save"}), ("不打出", {"respond", "counter", "save"}),
    ("完成", {"target", "pick_card", "discard"}), ("【遺計】", {"order", "skill", "declare"}),
    ("受到1點傷害", {"option", "choice", "arrange", "suit", "hero", "order"}),
    ("发动【仁德】", {"play"}),  # either script
])
def test_a_label_lands_on_the_questions_that_could_offer_it(label, kinds):
    from sgs_dsl.rulings.script import shape_of

    assert shape_of(label).kinds == kinds
