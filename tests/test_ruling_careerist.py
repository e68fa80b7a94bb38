"""A 國戰 seat that starts revealed as a careerist (`careerist`, 野心家): its kingdom, where it
takes effect (tests/rulings/hegemony_rules.ruling plays it), and the located load errors for a
seat that cannot be one."""

from __future__ import annotations

import pytest

from sgs_dsl.compiler.library import load_library
from sgs_dsl.rulings.parser import parse_rulings
from sgs_dsl.rulings.table import build_table
from sgs_dsl.syntax.diagnostics import SgsError


def ruling(body: str):
    (r,) = parse_rulings(f'ruling "t" {{\n  source "s";\n{body}\n  phase 1 play;\n}}\n', "t.ruling")
    return r


def load_error(body: str):
    with pytest.raises(SgsError) as error:
        ruling(body)
    return error.value.diagnostics


WEI_TABLE = """  ruleset hegemony;
  seat 1 generals 曹操 許褚 shown head{mark};
  seat 2 generals 夏侯惇 張遼 shown head;
  seat 3 generals 司馬懿 郭嘉 shown head;
  seat 4 generals 劉備 關羽 shown head;
"""


def kingdoms(r) -> list[str]:
    """The seats' kingdoms as the table is set, before anything is played."""
    game, _ = build_table(r, load_library())
    return [p.kingdom for p in game.players]


@pytest.mark.parametrize("word", ["careerist", "野心家"])
def test_a_careerist_seat_shows_its_kingdom_after_the_others(word):
    # seats 2 and 3 showed 魏 first; seat 1 is the third, past half of 4: a careerist
    assert kingdoms(ruling(WEI_TABLE.format(mark=" " + word) + "  script { 1 ends; }")) == \
        ["careerist", "wei", "wei", "shu"]


def test_without_it_the_kingdoms_follow_seat_order():
    assert kingdoms(ruling(WEI_TABLE.format(mark="") + "  script { 1 ends; }")) == ["wei", "wei", "careerist", "shu"]


def test_a_careerist_with_no_general_shown_is_a_load_error():
    (d,) = load_error(WEI_TABLE.format(mark="").replace("曹操 許褚 shown head", "曹操 許褚 careerist"))
    assert d.message == "seat 1 shows no general, so it is not a careerist yet"
    assert (d.span.line, d.span.column) == (4, 25)
    assert "shown head careerist" in d.hint


def test_a_careerist_outside_hegemony_is_a_load_error():
    (d,) = load_error("  seat 1 lord careerist;\n  seat 2 rebel;")
    assert d.message == "seat 1 cannot be a careerist (野心家): careerists are of 國戰"
    assert (d.span.line, d.span.column) == (3, 15)
    assert "ruleset hegemony" in d.hint


def test_a_careerist_in_3v3_is_a_load_error():
    seats = "".join(f"  seat {n} {'leader' if n % 3 == 1 else 'follower'}{' careerist' if n == 2 else ''};\n"
                    for n in range(1, 7))
    (d,) = load_error("  ruleset campus_3v3;\n" + seats)
    assert d.message == "seat 2 cannot be a careerist (野心家): careerists are of 國戰"


def test_a_careerist_before_half_the_table_showed_its_kingdom_is_a_load_error():
    # only seat 2 shows 魏 besides seat 1: at 4 players, 2 must have shown it before a careerist
    (d,) = load_error(WEI_TABLE.format(mark=" careerist").replace("司馬懿 郭嘉 shown head", "司馬懿 郭嘉"))
    assert d.message == ("seat 1 cannot be a careerist: 1 other seat(s) show a 魏 general, and a careerist's "
                         "kingdom had been shown by 2 of the 4 players before it")
    assert d.hint == "show a 魏 general on 1 more seat(s) that are not careerists, or leave `careerist` out"


def test_two_careerists_need_half_the_table_shown_before_both():
    # seats 1 and 3 careerists: only seat 2 showed 魏 before them
    (d1, d2) = load_error(WEI_TABLE.format(mark=" careerist").replace("郭嘉 shown head", "郭嘉 shown head careerist"))
    assert d1.message.startswith("seat 1 cannot be a careerist") and d2.message.startswith("seat 3 cannot be")
