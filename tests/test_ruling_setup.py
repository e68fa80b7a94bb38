"""`setup;` runs the mode's setup on a ruling's table, and how a ruling's
runs relate to turns: phase runs of one seat in a row are one turn (item 7)."""

from __future__ import annotations

import pytest

from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.runner import run_ruling
from sgs_dsl.syntax.diagnostics import SgsError

HEROES = ("劉備", "張飛", "關羽", "趙雲", "馬超")
ROLES = ("lord", "rebel", "loyalist", "renegade", "rebel")


def run(body: str):
    (ruling,) = parse_rulings(f'ruling "t" {{\n  source "s";\n{body}\n}}\n', "t.ruling")
    return run_ruling(ruling)


def table(players: int, **extra: str) -> str:
    seats = "".join(f"  seat {i + 1} {ROLES[i]} hero {HEROES[i]} {extra.get(f's{i + 1}', '')};\n"
                    for i in range(players))
    choices = " ".join(f"{i + 1} chooses {HEROES[i]};" for i in range(players))
    return f"{seats}  setup;\n  script {{ {choices} }}"


@pytest.mark.parametrize("players,lord", [(4, 4), (5, 5)])
def test_the_lords_max_hp_follows_the_player_count(players, lord):
    result = run(table(players) + f"\n  expect {{ seat 1 max hp {lord}; seat 1 hp {lord}; seat 2 max hp 4; }}")
    assert result.passed, result.failures
    assert f"身份局 {players}人：主公是1號位劉備（體力上限{lord}）" in result.trace


def test_a_wrong_max_hp_after_setup_fails():
    result = run(table(4) + "\n  expect { seat 1 max hp 5; }")
    assert result.failures == ("seat 1 max hp is 4, expected 5 (expectation at t.ruling:9:12)",)


@pytest.mark.parametrize("players,lord", [(4, 4), (5, 5)])
def test_without_heroes_the_lord_has_the_blank_hp_and_its_bonus(players, lord):
    seats = "".join(f"  seat {i + 1} {ROLES[i]};\n" for i in range(players))
    result = run(f"  ruleset basic;\n{seats}  setup;\n  expect {{ seat 1 max hp {lord}; seat 2 max hp 4; }}")
    assert result.passed, result.failures


def test_the_heroes_a_ruling_names_are_dealt_to_their_seats():
    result = run(table(4))
    assert result.passed, result.failures
    lord_question, *others = [line for line in result.trace if "〔詢問〕" in line]
    assert "［曹操／劉備／孫權／" in lord_question  # the ruleset's lords, then 2 more
    for seat, line in zip((2, 3, 4), others, strict=True):
        assert line.split("［")[1].startswith(HEROES[seat - 1]), line


def test_a_seat_chooses_among_the_heroes_dealt_to_it():
    result = run(table(4).replace("2 chooses 張飛;", "2 chooses 曹操;"))
    assert result.passed, result.failures  # 曹操 was dealt to seat 2 too (the lord took 劉備)
    result = run(table(4).replace("2 chooses 張飛;", "2 chooses 孫權;"))
    assert result.failures[0].startswith("'孫權' is not a legal answer for seat 2")


def test_an_unnamed_seat_is_dealt_heroes_in_library_order_and_answers_by_label():
    body = ("  seat 1 lord hero 劉備;\n  seat 2 rebel;\n  seat 3 loyalist;\n  seat 4 renegade;\n  setup;\n"
            '  script { 1 chooses 劉備; 2 answers "曹操"; 3 answers "郭嘉"; 4 answers "甄姬"; }\n'
            "  expect { seat 2 skills [奸雄]; seat 2 max hp 4; seat 4 max hp 3; }")
    result = run(body)
    assert result.passed, result.failures


def test_starting_hands_are_drawn_from_the_deck_top_unless_given():
    deck = "deck [殺 ♠7, 殺 ♠8, 殺 ♠9, 殺 ♠10, 閃 ♦2, 閃 ♦3, 閃 ♦4, 閃 ♦5];"
    body = table(4, s2="hand [桃 ♥3]", s3="hand []").replace("  setup;", f"  {deck}\n  setup;")
    result = run(body + "\n  expect { seat 1 hand [殺 ♠7, 殺 ♠8, 殺 ♠9, 殺 ♠10]; seat 2 hand [桃 ♥3]; seat 3 hand [];"
                        " seat 4 hand [閃 ♦2, 閃 ♦3, 閃 ♦4, 閃 ♦5]; deck size 99; }")
    assert result.passed, result.failures


def test_setup_then_a_turn():
    body = table(4).replace("  setup;", "  setup;\n  turn 1 from play;").replace("}", "1 ends; }")
    result = run(body + "\n  expect { seat 1 hp 4; }")
    assert result.passed, result.failures


@pytest.mark.parametrize("extra,message,hint", [
    ({"s1": "hp 3"}, "seat 1 names its hp, but `setup` deals it", "leave `hp` out"),
    ({"s2": "hp 4/4"}, "seat 2 names its hp, but `setup` deals it", "seat 1 max hp 5"),
])
def test_setup_refuses_a_given_hp(extra, message, hint):
    with pytest.raises(SgsError) as error:
        parse_rulings(f'ruling "t" {{\n  source "s";\n{table(4, **extra)}\n}}\n', "t.ruling")
    (d,) = error.value.diagnostics
    assert message in d.message and hint in d.hint
    assert d.render().startswith(f"t.ruling:{2 + int(next(iter(extra))[1])}:3: error:")


def test_setup_deals_only_heroes_of_the_ruleset_each_once():
    with pytest.raises(SgsError) as error:
        parse_rulings('ruling "t" {\n  source "s";\n  ruleset basic;\n  seat 1 lord hero 劉備;\n  seat 2 rebel;\n'
                      '  setup;\n}\nruling "u" {\n  source "s";\n  seat 1 lord hero 劉備;\n  seat 2 rebel hero 劉備;\n'
                      '  setup;\n}\n', "t.ruling")
    first, second = error.value.diagnostics
    assert first.render().startswith("t.ruling:4:3: error: `setup` cannot deal 劉備 to seat 1: the 'basic' "
                                     "ruleset has no heroes")
    assert "sgs heroes --ruleset" in first.hint
    assert second.render().startswith("t.ruling:11:3: error: 劉備 is dealt to seat 1 already")


def test_setup_alone_plays_something():
    result = run("  ruleset basic;\n  seat 1 lord;\n  seat 2 rebel;\n  setup;\n  expect { seat 1 max hp 4; deck size 100; }")
    assert result.passed, result.failures


# ---------------------------------------------------------------- runs and turns

DRUNK = """  ruleset junzheng;
  seat 1 lord hand [酒 ♠3, 殺 ♠7, 殺 ♠8];
  seat 2 rebel;
"""


def test_phase_runs_of_one_seat_in_a_row_are_one_turn():
    result = run(DRUNK + "  phase 1 play;\n  phase 1 play;\n  script { 1 uses 酒 ♠3; 1 uses 殺 ♠7 on 2; 1 ends;"
                         " 1 uses 殺 ♠8 on 2; 1 ends; }\n  expect { damage 1 -> 2 amount 2 card 殺; damage 1 -> 2 card 殺; }")
    assert result.passed, result.failures  # the 殺 limit is per play phase: a 殺 in each


def test_a_turn_mark_lasts_over_the_phases_of_the_turn():
    result = run(DRUNK + "  phase 1 play;\n  phase 1 play;\n  script { 1 uses 酒 ♠3; 1 ends; 1 uses 殺 ♠7 on 2; 1 ends; }"
                         "\n  expect { seat 2 hp 2; }")
    assert result.passed, result.failures


@pytest.mark.parametrize("between", ["phase 2 play;", "turn 2 from play;"])
def test_a_run_of_another_seat_ends_the_turn(between):
    result = run(DRUNK + f"  phase 1 play;\n  {between}\n  phase 1 play;\n"
                         "  script { 1 uses 酒 ♠3; 1 ends; 2 ends; 1 uses 殺 ♠7 on 2; 1 ends; }\n  expect { seat 2 hp 3; }")
    assert result.passed, result.failures


def test_a_turn_run_after_phase_runs_is_a_new_turn():
    result = run(DRUNK + "  phase 1 play;\n  turn 1 from play;\n"
                         "  script { 1 uses 酒 ♠3; 1 ends; 1 uses 殺 ♠7 on 2; 1 ends; }\n  expect { seat 2 hp 3; }")
    assert result.passed, result.failures
