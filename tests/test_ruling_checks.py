"""A ruling's expectations, and the impossible tables: each check
holds when its state is so and fails (with the actual state and its location) when it is
not; each table that cannot happen is a load error with file:line:col and a hint."""

from __future__ import annotations

import re

import pytest

from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.runner import run_ruling
from sgs_dsl.syntax.diagnostics import SgsError


def ruling_text(body: str) -> str:
    return f'ruling "t" {{\n  source "s";\n{body}\n}}\n'


def run(body: str):
    (ruling,) = parse_rulings(ruling_text(body), "t.ruling")
    return run_ruling(ruling)


def holds(body: str, check: str) -> None:
    result = run(f"{body}\n  expect {{ {check} }}")
    assert result.passed, result.failures


def fails(body: str, check: str) -> str:
    result = run(f"{body}\n  expect {{ {check} }}")
    (failure,) = result.failures
    line = 4 + body.count("\n")  # the expect line
    assert re.search(rf"\(expectation at t\.ruling:{line}:\d+\)$", failure), failure
    return failure


def diagnostic(body: str):
    with pytest.raises(SgsError) as error:
        parse_rulings(ruling_text(body), "t.ruling")
    (first, *_) = error.value.diagnostics
    return first


# A 火殺 on seat 2, chained with seats 3 and 4 (軍爭): three fire damages from seat 1.
CHAIN = """  ruleset junzheng;
  seat 1 lord hand [鐵索連環 ♠Q, 鐵索連環 ♣J, 火殺 ♥4, 酒 ♠3];
  seat 2 rebel;
  seat 3 loyalist;
  seat 4 renegade;
  phase 1 play;
  script { 1 uses 鐵索連環 ♠Q on 2, 3; 1 uses 鐵索連環 ♣J on 4; 1 answers "完成"; 1 uses 火殺 ♥4 on 2; 1 ends; }"""

# The 酒 of one play phase, the 殺 of the next: a mark that lasts the turn, two damage.
DRUNK = """  ruleset junzheng;
  seat 1 lord hero 劉備 hand [酒 ♠3, 殺 ♠7];
  seat 2 rebel;
  phase 1 play;
  script { 1 uses 酒 ♠3; 1 ends; }"""

IDLE = "  seat 1 lord hero 郭嘉 hp 2;\n  seat 2 rebel hand [殺 ♠7];\n  phase 1 play;\n  script { 1 ends; }"


# ---------------------------------------------------------------- seat state

def test_max_hp():
    holds(IDLE, "seat 1 max hp 3;")
    assert fails(IDLE, "seat 1 max hp 4;").startswith("seat 1 max hp is 3, expected 4")


def test_chained_and_not_chained():
    chained = CHAIN.replace("1 uses 火殺 ♥4 on 2; ", "")
    holds(chained, "seat 2 chained; seat 4 chained; seat 1 not chained;")
    assert fails(chained, "seat 2 not chained;").startswith("seat 2 is chained, expected not chained")
    assert fails(CHAIN, "seat 2 chained;").startswith("seat 2 is not chained, expected chained")


def test_marks_are_named_counters():
    holds(DRUNK, "seat 1 mark 酒 1;")
    assert fails(DRUNK, "seat 1 mark 酒 0;").startswith("seat 1 mark 酒 is 1, expected 0")
    holds(IDLE, "seat 1 mark 酒 0;")  # a mark never set counts 0


def test_skills_of_a_seat():
    holds(DRUNK, "seat 1 skills [激將, 仁德]; seat 2 skills [];")
    assert fails(DRUNK, "seat 1 skills [仁德];").startswith("seat 1 skills is [仁德, 激將], expected [仁德]")


def test_a_lord_skill_is_a_skill_of_the_lord_only():
    holds("  seat 1 lord; seat 2 rebel hero 劉備;\n  phase 1 play;\n  script { 1 ends; }", "seat 2 skills [仁德];")


# ---------------------------------------------------------------- piles

def test_deck_and_discard_pile_sizes():
    # the standard deck has 108 cards: one is in seat 2's hand, 0 are drawn in a play phase
    holds(IDLE, "deck size 107; discard size 0;")
    used = "  seat 1 lord hand [殺 ♠7, 閃 ♦2];\n  seat 2 rebel;\n  phase 1 play;\n  script { 1 uses 殺 ♠7 on 2; 1 ends; }"
    holds(used, "deck size 106; discard size 1;")
    assert fails(IDLE, "deck size 100;").startswith("the deck size is 107, expected 100")
    assert fails(IDLE, "discard size 1;").startswith("the discard pile size is 0, expected 1")


# ---------------------------------------------------------------- the damage log

def test_the_damage_log_in_order():
    holds(CHAIN, "damage 1 -> 2 nature fire card 火殺; damage 1 -> 3 nature fire card 殺; damage 1 -> 4 nature fire card 殺;")


def test_a_damage_in_the_wrong_order_fails_with_the_log_entry():
    failures = run(CHAIN + "\n  expect { damage 1 -> 3 nature fire card 殺; damage 1 -> 2 nature fire card 殺;"
                   " damage 1 -> 4 nature fire card 殺; }").failures
    assert failures == (
        "damage 1 of the log is damage 1 -> 2 nature fire card 火殺, expected damage 1 -> 3 nature fire card 殺 "
        "(expectation at t.ruling:10:12)",
        "damage 2 of the log is damage 1 -> 3 nature fire card 火殺, expected damage 1 -> 2 nature fire card 殺 "
        "(expectation at t.ruling:10:46)",
    )


def test_the_damage_log_as_a_set():
    holds(CHAIN, "damage 1 -> 2 nature fire card 殺; damages in any order { damage 1 -> 4 nature fire card 殺;"
                 " damage 1 -> 3 nature fire card 殺; }")
    failure = fails(CHAIN.replace("4 renegade", "4 renegade hp 3/4"),
                    "damages in any order { damage 1 -> 4 nature fire card 殺; damage 1 -> 3 nature fire card 殺;"
                    " damage 1 -> 2 nature thunder card 殺; }")
    assert failure.startswith("damages 1 to 3 of the log are [damage 1 -> 2 nature fire card 火殺; damage 1 -> 3 "
                              "nature fire card 火殺; damage 1 -> 4 nature fire card 火殺], none of them, expected "
                              "damage 1 -> 2 nature thunder card 殺")


@pytest.mark.parametrize("wrong,field", [
    ("damage 2 -> 2 nature fire card 殺;", "source"),
    ("damage 1 -> 3 nature fire card 殺;", "target"),
    ("damage 1 -> 2 amount 2 nature fire card 殺;", "amount"),
    ("damage 1 -> 2 card 殺;", "nature"),
    ("damage 1 -> 2 nature fire card 決鬥;", "card"),
    ("damage 1 -> 2 nature fire;", "no card"),
    ("damage none -> 2 nature fire card 殺;", "no source"),
])
def test_each_field_of_a_damage_is_checked(wrong, field):
    chain = CHAIN.replace("1 uses 鐵索連環 ♠Q on 2, 3; 1 uses 鐵索連環 ♣J on 4; 1 answers \"完成\"; ", "")
    holds(chain, "damage 1 -> 2 nature fire card 殺;")
    assert fails(chain, wrong).startswith("damage 1 of the log is damage 1 -> 2 nature fire card 火殺, expected")


def test_damage_not_stated_fails():
    failures = run(CHAIN + "\n  expect { damage 1 -> 2 nature fire card 殺; }").failures
    assert failures == (
        "damage 2 of the log, damage 1 -> 3 nature fire card 火殺, is not stated (the log: [damage 1 -> 2 nature "
        "fire card 火殺; damage 1 -> 3 nature fire card 火殺; damage 1 -> 4 nature fire card 火殺]; expectations "
        "end at t.ruling:10:12)",
        "damage 3 of the log, damage 1 -> 4 nature fire card 火殺, is not stated (the log: [damage 1 -> 2 nature "
        "fire card 火殺; damage 1 -> 3 nature fire card 火殺; damage 1 -> 4 nature fire card 火殺]; expectations "
        "end at t.ruling:10:12)",
    )


def test_damage_that_never_happened_fails():
    assert fails(IDLE, "damage 2 -> 1 card 殺;").startswith(
        "damage 1 of the log is missing, expected damage 2 -> 1 card 殺")


def test_no_damage():
    holds(IDLE, "no damage;")
    assert fails(DRUNK.replace("1 ends;", "1 uses 殺 ♠7 on 2; 1 ends;"), "no damage;").startswith(
        "the damage log is [damage 1 -> 2 amount 2 card 殺], expected no damage")


def test_damage_without_a_source():
    body = "  seat 1 lord judge [閃電 ♠A];\n  seat 2 rebel;\n  deck [殺 ♠9];\n  phase 1 judge;"
    holds(body, "damage none -> 1 amount 3 nature thunder card 閃電;")
    assert fails(body, "damage 2 -> 1 amount 3 nature thunder card 閃電;").startswith(
        "damage 1 of the log is damage none -> 1 amount 3 nature thunder card 閃電, expected damage 2 -> 1")


def test_damage_prevented_is_not_in_the_log():
    body = ("  ruleset junzheng;\n  seat 1 lord hand [殺 ♠7];\n  seat 2 rebel equip [藤甲 ♠2];\n  phase 1 play;\n"
            "  script { 1 uses 殺 ♠7 on 2; 1 ends; }")
    holds(body.replace("殺 ♠7", "火殺 ♥4"), "damage 1 -> 2 amount 2 nature fire card 殺;")
    holds(body.replace("[殺 ♠7]", "[南蠻入侵 ♠7]").replace("1 uses 殺 ♠7 on 2;", "1 uses 南蠻入侵 ♠7;"), "no damage;")


# ---------------------------------------------------------------- skipped phases, fired skills

LE = "  seat 1 lord judge [樂不思蜀 ♠6];\n  seat 2 rebel;\n  deck [殺 ♠7, 閃 ♦2, 閃 ♦3];\n  turn 1;"


def test_skipped_and_not_skipped():
    holds(LE, "skipped 1 play; not skipped 1 draw; not skipped 2 play;")
    assert fails(LE, "skipped 1 draw;").startswith("seat 1 is not skipped in its draw phase, expected skipped in its "
                                                  "draw phase")
    assert fails(LE, "not skipped 1 play;").startswith("seat 1 is skipped in its play phase, expected not skipped")
    holds(LE.replace("♠7", "♥10"), "not skipped 1 play;")  # a ♥ judgement: the phase is played


def test_a_skip_taken_as_the_phase_starts_counts():
    body = ("  seat 1 lord hero 呂蒙 hand [閃 ♦2, 閃 ♦3, 閃 ♦4, 閃 ♦5, 閃 ♦6];\n  seat 2 rebel;\n  phase 1 discard;\n"
            "  script { 1 invokes 克己; }")
    holds(body, "skipped 1 discard; seat 1 hand [閃 ♦2, 閃 ♦3, 閃 ♦4, 閃 ♦5, 閃 ♦6];")


def test_fired_and_not_fired():
    body = "  seat 1 lord hero 曹操;\n  seat 2 rebel hand [殺 ♠7];\n  phase 2 play;\n  script { 2 uses 殺 ♠7 on 1; 1 invokes 奸雄; 2 ends; }"
    holds(body, "fired 奸雄; fired 奸雄 1; not fired 護駕;")
    assert fails(body, "not fired 奸雄;").startswith("奸雄 fired is 1 time(s), expected never")
    assert fails(body, "fired 奸雄 2;").startswith("奸雄 fired is 1 time(s), expected 2 time(s)")
    declined = body.replace("invokes", "declines")
    assert fails(declined, "fired 奸雄;").startswith("奸雄 fired is never, expected at least once")


def test_an_equipment_skill_fires_by_the_cards_name():
    body = "  seat 1 lord hand [殺 ♠7] equip [青釭劍 ♠6];\n  seat 2 rebel equip [八卦陣 ♠2];\n  phase 1 play;"
    holds(body + "\n  script { 1 uses 殺 ♠7 on 2; 1 ends; }", "fired 青釭劍; not fired 八卦陣;")


# ---------------------------------------------------------------- load errors: located, with a hint

@pytest.mark.parametrize("body,where,message,hint", [
    ("seat 1 lord hero 郭嘉 hp 4; seat 2 rebel; phase 1 play;", (3, 21),
     "seat 1 has hp 4 above 郭嘉's max hp 3", "write `hp 4/4`"),
    ("seat 1 lord; seat 2 rebel hp 0; phase 1 play;", (3, 27),
     "seat 2 has hp 0: a living seat outside a dying situation has 1 hp or more", "script the damage"),
    ("seat 1 lord; seat 2 rebel hp 3/0; phase 1 play;", (3, 27), "seat 2 has max hp 0", "1 or more"),
    ("seat 1 lord; seat 2 rebel hp 4/3; phase 1 play;", (3, 27), "seat 2 has hp 4 above its max hp 3", "at most"),
    ("seat 1 lord; seat 2 rebel; phase 1 play; expect { damage 1 -> 2 nature ice; }", (3, 72),
     "unknown nature 'ice'", "natures: normal, fire, thunder"),
    ("seat 1 lord; seat 2 rebel; phase 1 play; expect { damage 1 -> 2 amount 0; }", (3, 65),
     "a damage of amount 0", "prevented damage is not logged"),
    ("seat 1 lord; seat 2 rebel; phase 1 play; expect { damage 1 -> 5; }", (3, 63), "no seat 5", "seats are numbered"),
    ("seat 1 lord; seat 2 rebel; phase 1 play; expect { damage 1 -> 2 card 殺殺; }", (3, 70),
     "unknown card '殺殺'", "did you mean '殺'?"),
    ("seat 1 lord; seat 2 rebel; phase 1 play; expect { no damage; damage 1 -> 2; }", (3, 51),
     "`no damage` contradicts the damage listed", "keep one or the other"),
    ("seat 1 lord; seat 2 rebel; phase 1 play; expect { fired 奸; }", (3, 57), "unknown skill '奸'", "did you mean '奸雄'?"),
    ("seat 1 lord; seat 2 rebel; phase 1 play; expect { seat 1 skills [仁]; }", (3, 66),
     "unknown skill '仁'", "did you mean '仁德'?"),
    ("seat 1 lord; seat 2 rebel; phase 1 play; expect { skipped 1 paly; }", (3, 61),
     "unknown phase 'paly'", "did you mean 'play'?"),
    ("seat 1 lord; seat 2 rebel; phase 1 play; script { 1 invokes 苦; }", (3, 61), "unknown skill '苦'",
     "did you mean '苦肉'?"),
])
def test_impossible_tables_and_unknown_names_are_located_load_errors(body, where, message, hint):
    d = diagnostic(body)
    assert (d.span.line, d.span.column) == where, d.render()
    assert message in d.message, d.render()
    assert hint in d.hint, d.render()
    assert d.render().startswith(f"t.ruling:{where[0]}:{where[1]}: error:")
    assert "^" in d.render()


def test_an_explicit_max_hp_may_exceed_the_heros():
    holds("  seat 1 lord hero 郭嘉 hp 4/4;\n  seat 2 rebel;\n  phase 1 play;\n  script { 1 ends; }", "seat 1 max hp 4;")


def test_every_load_error_of_a_file_is_reported():
    with pytest.raises(SgsError) as error:
        parse_rulings(ruling_text("seat 1 lord hero 郭嘉 hp 4; seat 2 rebel hp 0; phase 1 play;"
                                  "expect { fired 奸; }"), "t.ruling")
    assert len(error.value.diagnostics) == 3


STARTS = "  seat 1 lord hand [殺 ♠7];\n  seat 2 rebel chained turned mark 忍 2;\n  seat 3 loyalist dead;\n  seat 4 rebel;"


def test_a_table_starts_seats_chained_turned_dead_or_marked():
    body = STARTS + "\n  phase 1 play;\n  script { 1 uses 殺 ♠7 on 2; 1 ends; }"
    holds(body, "seat 2 chained; seat 2 turned; seat 2 mark 忍 2; seat 3 dead; seat 2 hp 3;")
    assert fails(body, "seat 2 not chained;").startswith("seat 2 is chained")
    assert fails(body, "seat 3 alive;").startswith("seat 3 is dead")
    # the dead seat is out of the game: nothing can be used on it
    holds(STARTS + "\n  phase 1 play;\n  script { 1 cannot use 殺 ♠7 on 3; 1 ends; }", "seat 1 hand [殺 ♠7];")


def test_a_dead_seat_given_cards_is_a_located_error():
    found = diagnostic("  seat 1 lord;\n  seat 2 rebel dead hand [殺 ♠7];\n  turn 1;")
    assert "seat 2 is dead but is given cards" in found.message and "discard [...]" in found.hint


def test_a_seat_is_checked_for_its_gender():
    body = "  seat 1 lord female;\n  seat 2 rebel hero 貂蟬;\n  phase 1 finish;"
    holds(body, "seat 1 gender female; seat 2 gender 女;")
    assert fails(body, "seat 2 gender male;").startswith("seat 2 gender is female, expected male")


def test_winner_and_loser_name_seats():
    """A dead loyalist wins with the lord; the rebel killed loses."""
    body = ("  seat 1 lord hand [殺 ♠7];\n  seat 2 rebel hp 1;\n  seat 3 loyalist dead;\n"
            "  phase 1 play;\n  script { 1 uses 殺 ♠7 on 2; }")
    holds(body, "winner lord; winner seat 1; winner seat 3; loser seat 2;")
    assert fails(body, "winner seat 2;").startswith(
        "seat 2 (winner lord) is not on the winning side, expected on the winning side")
